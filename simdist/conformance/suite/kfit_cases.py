"""The Keras training loop's arguments at their edges (issue 29, kfit): `Model.fit`, `evaluate`, `predict` and
the `*_on_batch` methods on every kind of data a program passes them, each argument set to values at and beyond
its valid range.

A planted bug in the training loop often sits in a branch only an unusual argument reaches: a `class_weight` that
a weighted dataset should refuse, a `y` given beside a dataset, a `validation_split` of 1, an `initial_epoch` past
`epochs`, a `steps_per_epoch` longer than the data, a sample weight of another length. This family enumerates them
from TF's own signatures (`kfit_record` reads each method's parameters; every parameter EDGES lists is varied one
at a time, plus the pairs of PAIRS) over the data kinds of DATA, on one small compiled model (two Dense layers,
sparse categorical cross-entropy, accuracy, SGD), so nothing about the backend under test chooses what is tried.

Observed (`observe`): the class of the error raised, or what the call returns: fit's history (every logged
value per epoch) and epochs, then every weight's sum; evaluate's and the `*_on_batch` methods' values; predict's
outputs (shape, dtype, values). The global seed is set before the model is made. The TF 2.21 recording is
kfit_reference. Nothing here imports TensorFlow.
"""

from __future__ import annotations

from typing import Any

import numpy as np

N, FEATURES, CLASSES = 10, 4, 2
#: Methods swept and the data kinds each is given (x, or x and y, or a dataset of them).
DATA: dict[str, tuple[str, ...]] = {
    "fit": ("arrays", "dataset", "dataset_weighted", "pydataset", "pydataset_weighted"),
    "evaluate": ("arrays", "dataset", "dataset_weighted", "pydataset"),
    "predict": ("arrays", "dataset_x", "pydataset_x"),
    "train_on_batch": ("arrays",),
    "test_on_batch": ("arrays",),
    "predict_on_batch": ("arrays",),
}
#: Edge values per argument name. A dict {"data": NAME} stands for a value `data` makes (arrays, datasets),
#: {"class_weight": [[k, v], ...]} for a class-weight dict with int keys.
EDGES: dict[str, list[Any]] = {
    "y": [None, {"data": "y_short"}, {"data": "y_float"}, {"data": "y_column"}, {"data": "y"}],
    "batch_size": [0, -1, 1, 3, 100, 2.5],
    "epochs": [0, -1, 2],
    "validation_split": [0.25, 1.0, -0.1, 1.5],
    "validation_data": [{"data": "val_pair"}, {"data": "val_triple"}, {"data": "val_single"},
                        {"data": "val_dataset"}],
    "shuffle": [False, "batch", "bogus"],
    "class_weight": [{"class_weight": [[0, 1.0], [1, 2.0]]}, {"class_weight": [[0, 1.0]]},
                     {"class_weight": [[0, 1.0], [1, 2.0], [5, 1.0]]}, {"class_weight": [[0, 0.0], [1, 0.0]]}],
    "sample_weight": [{"data": "w"}, {"data": "w_column"}, {"data": "w_wide"}, {"data": "w_short"},
                      {"data": "w_negative"}],
    "initial_epoch": [1, 2, -1],
    "steps_per_epoch": [0, 1, 2, 100],
    "validation_steps": [0, 1, 5],
    "validation_batch_size": [0, 1, 3],
    "validation_freq": [0, 2, [1]],
    "steps": [0, 1, 2, 100],
    "return_dict": [True],
}
#: Pairs of arguments whose rules meet (each method whose signature takes both, on its data kinds).
PAIRS: list[dict[str, Any]] = [
    {"epochs": 2, "initial_epoch": 1},
    {"epochs": 3, "validation_data": {"data": "val_pair"}, "validation_freq": 2},
    {"validation_data": {"data": "val_pair"}, "validation_steps": 1},
    {"validation_data": {"data": "val_pair"}, "validation_batch_size": 1},
    {"validation_split": 0.3, "validation_batch_size": 2},
    {"validation_split": 0.3, "validation_data": {"data": "val_pair"}},
    {"class_weight": {"class_weight": [[0, 1.0], [1, 2.0]]}, "sample_weight": {"data": "w"}},
    {"validation_split": 0.3, "sample_weight": {"data": "w"}},
    {"epochs": 2, "steps_per_epoch": 2},
    {"batch_size": 3, "steps_per_epoch": 2},
    {"y": {"data": "y_float"}, "class_weight": {"class_weight": [[0, 1.0], [1, 2.0]]}},
    {"y": {"data": "y_column"}, "class_weight": {"class_weight": [[0, 1.0], [1, 2.0]]}},
    {"class_weight": {"class_weight": [[0, 1.0], [1, 2.0]]}, "sample_weight": {"data": "w_short"}},
    {"y": {"data": "y_float_high"}, "class_weight": {"class_weight": [[0, 1.0], [1, 2.0], [2, 3.0]]}},
    {"epochs": 3, "validation_data": {"data": "val_pair"}, "validation_freq": [1, 3]},
    {"epochs": 2, "validation_split": 0.3, "validation_freq": [2]},
]


def arrays() -> dict[str, np.ndarray]:
    """The fixed data: x (N, FEATURES) float32, labels y, weights w."""
    n = N * FEATURES
    x = (np.linspace(-2.0, 2.0, n) * np.cos(np.arange(n))).astype(np.float32).reshape(N, FEATURES)
    y = (np.arange(N) * 7 % 3 % CLASSES).astype(np.int32)
    w = (0.5 + (np.arange(N) % 4) * 0.5).astype(np.float32)
    return {"x": x, "y": y, "w": w}


def _pydataset(keras: Any, parts: tuple[np.ndarray, ...], batch: int = 4) -> Any:
    class Batches(keras.utils.PyDataset):   # (Keras requires the base's __init__)
        def __init__(self) -> None:
            super().__init__()

        def __len__(self) -> int:
            return -(-len(parts[0]) // batch)

        def __getitem__(self, i: int) -> Any:
            got = tuple(p[i * batch:(i + 1) * batch] for p in parts)
            return got[0] if len(got) == 1 else got

    return Batches()


def data(tf: Any, name: str) -> Any:
    """A value of the sweep by name: the data kinds of DATA and the {"data": NAME} values of EDGES."""
    a = arrays()
    x, y, w = a["x"], a["y"], a["w"]
    keras = tf.keras
    ds = tf.data.Dataset.from_tensor_slices
    table = {
        "x": lambda: x, "y": lambda: y, "w": lambda: w,
        "y_short": lambda: y[:-1], "y_float": lambda: y.astype(np.float32) + 0.25,
        "y_float_high": lambda: y.astype(np.float32) + 0.75,
        "y_column": lambda: y.reshape(-1, 1),
        "w_column": lambda: w.reshape(-1, 1), "w_wide": lambda: np.stack([w, w], 1), "w_short": lambda: w[:-1],
        "w_negative": lambda: w - 1.0,
        "val_pair": lambda: (x[:4], y[:4]), "val_triple": lambda: (x[:4], y[:4], w[:4]), "val_single": lambda: (x[:4],),
        "val_dataset": lambda: ds((x[:4], y[:4])).batch(2),
        "dataset": lambda: ds((x, y)).batch(4), "dataset_weighted": lambda: ds((x, y, w)).batch(4),
        "dataset_x": lambda: ds(x).batch(4),
        "pydataset": lambda: _pydataset(keras, (x, y)), "pydataset_weighted": lambda: _pydataset(keras, (x, y, w)),
        "pydataset_x": lambda: _pydataset(keras, (x,)),
    }
    return table[name]()


def value(tf: Any, v: Any) -> Any:
    """A plan value (JSON) as the argument the method is given."""
    if isinstance(v, dict) and "data" in v:
        return data(tf, v["data"])
    if isinstance(v, dict) and "class_weight" in v:
        return {int(k): float(c) for k, c in v["class_weight"]}
    return v


def model(keras: Any) -> Any:
    """The compiled model every case trains (the global seed set first)."""
    keras.utils.set_random_seed(7)
    inputs = keras.Input((FEATURES,))
    hidden = keras.layers.Dense(3, activation="tanh")(inputs)
    outputs = keras.layers.Dense(CLASSES, activation="softmax")(hidden)
    m = keras.Model(inputs, outputs)
    m.compile(optimizer=keras.optimizers.SGD(0.1), loss="sparse_categorical_crossentropy", metrics=["accuracy"])
    return m


def _floats(v: Any) -> Any:
    if isinstance(v, dict):
        return {str(k): _floats(x) for k, x in sorted(v.items())}
    if isinstance(v, (list, tuple)):
        return [_floats(x) for x in v]
    a = np.asarray(v.numpy() if hasattr(v, "numpy") else v)
    if a.ndim == 0:
        return float(a) if a.dtype.kind in "fiub" else str(a)
    return {"shape": list(a.shape), "dtype": a.dtype.name, "values": a.astype(np.float64).reshape(-1).tolist()}


def base_args(method: str, kind: str) -> dict[str, Any]:
    """The plan's base call of `method` on data `kind` (JSON: {"data": NAME} values)."""
    args: dict[str, Any] = {"x": {"data": "x" if kind == "arrays" else kind}}
    if kind == "arrays" and method not in ("predict", "predict_on_batch"):
        args["y"] = {"data": "y"}
    if method in ("fit", "evaluate", "predict"):
        args["verbose"] = 0
    return args


def observe(tf: Any, method: str, args: dict[str, Any]) -> dict[str, Any]:
    """`method` of a fresh model called with the plan's `args`."""
    m = model(tf.keras)
    kwargs = {k: value(tf, v) for k, v in args.items()}
    try:
        got = getattr(m, method)(**kwargs)
    except Exception as e:  # noqa: BLE001 - a refusal is what is observed
        return {"error": type(e).__name__}
    if method == "fit":
        return {"history": _floats(got.history), "epoch": list(got.epoch),
                "weights": [float(np.sum(np.asarray(w))) for w in m.get_weights()]}
    return {"out": _floats(got)}
