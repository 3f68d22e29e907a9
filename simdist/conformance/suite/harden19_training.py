"""The loss, metric, optimizer, schedule, initializer, regularizer and constraint programs of
``test_harden19_defaults_*.py``: each class at its defaults (required arguments only), on seeded
inputs at two scales chosen so that defaults show (y_pred at exactly 0 and 1 and within 1e-7 of
them, where epsilon clipping acts; regression inputs ~1 and ~1e-3; gradients of ~1e-6 where an
optimizer's epsilon dominates), observed as plain JSON values.

The same functions run on the backend under test and, by the recorder
(``python -m simdist.conformance.suite.harden19_record``), on real TF 2.21 + Keras 3.15, whose
results are the expected values. Nothing here imports TensorFlow.
"""

from __future__ import annotations

import zlib
from typing import Any

import numpy as np

#: Probabilities at the edges: exactly 0 and 1, within float32's reach of them, and the 0.5 threshold.
EDGE_PROBS = np.array([0.0, 1e-9, 1e-7, 3e-6, 0.5, 1.0 - 3e-6, 1.0 - 6e-8, 1.0], np.float32)


def _rng(*key: Any) -> np.random.Generator:
    return np.random.default_rng(zlib.crc32("/".join(map(str, key)).encode()))


def _probs(rows: int, cols: int, scale: str, rng: np.random.Generator) -> np.ndarray:
    if scale == "typical":
        p = rng.uniform(0.02, 0.98, (rows, cols))
        p.flat[::5] = 0.5
        return p.astype(np.float32)
    return rng.choice(EDGE_PROBS, (rows, cols)).astype(np.float32)


def _rows(rows: int, cols: int, scale: str, rng: np.random.Generator) -> np.ndarray:
    """Rows of probabilities summing to 1 (typical: a softmax; edge: one class near 1, the others near 0)."""
    if scale == "typical":
        z = rng.uniform(-2.0, 2.0, (rows, cols))
        e = np.exp(z - z.max(axis=1, keepdims=True))
        return (e / e.sum(axis=1, keepdims=True)).astype(np.float32)
    p = rng.choice(np.array([0.0, 1e-9, 1e-7, 3e-6], np.float32), (rows, cols)).astype(np.float32)
    hot = rng.integers(0, cols, rows)
    p[np.arange(rows), hot] = 0.0
    p[np.arange(rows), hot] = (1.0 - p.sum(axis=1)).astype(np.float32)
    return p


def make_pair(kind: str, scale: str, seed: Any) -> tuple[np.ndarray, np.ndarray]:
    """(y_true, y_pred) of one kind at one scale ("typical", or "tiny"/"edge" as the kind's second)."""
    rng = _rng(kind, scale, seed)
    size = 1e-3 if scale == "tiny" else 1.0
    if kind == "reg":
        return ((rng.uniform(-1, 1, (4, 3)) * size).astype(np.float32),
                (rng.uniform(-1, 1, (4, 3)) * size).astype(np.float32))
    if kind == "pos":
        return ((rng.uniform(0, 1, (4, 3)) * size).astype(np.float32),
                (rng.uniform(0, 1, (4, 3)) * size).astype(np.float32))
    if kind == "prob":
        return rng.integers(0, 2, (4, 3)).astype(np.float32), _probs(4, 3, scale, rng)
    if kind == "hinge":   # labels 0/1 (Keras maps them to -1/1), scores
        return rng.integers(0, 2, (4, 3)).astype(np.float32), (rng.uniform(-2, 2, (4, 3)) * size).astype(np.float32)
    if kind in ("cat", "cat7", "sparse", "sparse7"):
        cols = 7 if kind.endswith("7") else 3
        labels = rng.integers(0, cols, 4)
        pred = _rows(4, cols, scale, rng)
        if kind.startswith("sparse"):
            return labels.astype(np.int64), pred
        return np.eye(cols, dtype=np.float32)[labels], pred
    if kind == "classes":   # integer class labels and integer predictions (IoU)
        return rng.integers(0, 3, (6,)).astype(np.int64), rng.integers(0, 3, (6,)).astype(np.int64)
    if kind == "equal":   # Accuracy: exact matches of values
        t = rng.integers(0, 3, (4, 3)).astype(np.float32)
        p = t.copy()
        p.flat[::3] += 1.0
        return t, p
    if kind == "circle":
        return rng.integers(0, 2, (4,)).astype(np.int64), (rng.uniform(-1, 1, (4, 3)) * size).astype(np.float32)
    if kind == "ctc":
        return (rng.integers(1, 5, (2, 3)).astype(np.int64),
                (rng.uniform(-1, 1, (2, 6, 5)) * size * 3).astype(np.float32))
    raise KeyError(kind)


def scales_of(kind: str) -> tuple[str, str]:
    """The two scales of a kind: probabilities go to their edges, values to ~1e-3."""
    return ("typical", "edge") if kind in ("prob", "cat", "cat7", "sparse", "sparse7") else ("typical", "tiny")


#: loss class -> input kind.
LOSS_CASES: dict[str, str] = {
    "BinaryCrossentropy": "prob", "BinaryFocalCrossentropy": "prob", "CategoricalCrossentropy": "cat",
    "CategoricalFocalCrossentropy": "cat", "CategoricalGeneralizedCrossEntropy": "sparse",
    "CategoricalHinge": "cat", "Circle": "circle", "CosineSimilarity": "reg", "Dice": "prob",
    "Hinge": "hinge", "Huber": "reg", "KLDivergence": "cat", "LogCosh": "reg", "MeanAbsoluteError": "reg",
    "MeanAbsolutePercentageError": "reg", "MeanSquaredError": "reg", "MeanSquaredLogarithmicError": "pos",
    "Poisson": "pos", "SparseCategoricalCrossentropy": "sparse", "SquaredHinge": "hinge", "Tversky": "prob",
    "CTC": "ctc",
}

#: metric class -> (required kwargs, input kind; "values" a single tensor of values).
METRIC_CASES: dict[str, tuple[dict[str, Any], str]] = {
    "AUC": ({}, "prob"), "Accuracy": ({}, "equal"), "BinaryAccuracy": ({}, "prob"),
    "BinaryCrossentropy": ({}, "prob"), "BinaryIoU": ({}, "prob"), "CategoricalAccuracy": ({}, "cat"),
    "CategoricalCrossentropy": ({}, "cat"), "CategoricalHinge": ({}, "cat"),
    "ConcordanceCorrelation": ({}, "reg"), "CosineSimilarity": ({}, "reg"), "F1Score": ({}, "cat"),
    "FBetaScore": ({}, "cat"), "FalseNegatives": ({}, "prob"), "FalsePositives": ({}, "prob"),
    "TrueNegatives": ({}, "prob"), "TruePositives": ({}, "prob"), "Hinge": ({}, "hinge"),
    "IoU": ({"num_classes": 3, "target_class_ids": [0, 2]}, "classes"), "KLDivergence": ({}, "cat"),
    "LogCoshError": ({}, "reg"), "Mean": ({}, "values"), "Sum": ({}, "values"),
    "MeanAbsoluteError": ({}, "reg"), "MeanAbsolutePercentageError": ({}, "reg"),
    "MeanIoU": ({"num_classes": 3}, "classes"), "MeanSquaredError": ({}, "reg"),
    "MeanSquaredLogarithmicError": ({}, "pos"),
    "OneHotIoU": ({"num_classes": 3, "target_class_ids": [0, 2]}, "cat"),
    "OneHotMeanIoU": ({"num_classes": 3}, "cat"), "PearsonCorrelation": ({}, "reg"), "Poisson": ({}, "pos"),
    "Precision": ({}, "prob"), "Recall": ({}, "prob"), "PrecisionAtRecall": ({"recall": 0.6}, "prob"),
    "RecallAtPrecision": ({"precision": 0.7}, "prob"), "SensitivityAtSpecificity": ({"specificity": 0.8}, "prob"),
    "SpecificityAtSensitivity": ({"sensitivity": 0.75}, "prob"), "R2Score": ({}, "reg"),
    "RootMeanSquaredError": ({}, "reg"), "SparseCategoricalAccuracy": ({}, "sparse"),
    "SparseCategoricalCrossentropy": ({}, "sparse"), "SparseTopKCategoricalAccuracy": ({}, "sparse7"),
    "TopKCategoricalAccuracy": ({}, "cat7"), "SquaredHinge": ({}, "hinge"),
}

#: Optimizers run (all of harden16's), each at its defaults.
OPTIMIZERS = ("Adadelta", "Adafactor", "Adagrad", "Adam", "AdamW", "Adamax", "Ftrl", "Lamb", "Lion", "Muon",
              "Nadam", "RMSprop", "SGD", "ScheduleFreeAdamW")

#: schedule class -> required kwargs; evaluated at SCHEDULE_STEPS.
SCHEDULES: dict[str, dict[str, Any]] = {
    "CosineDecay": {"initial_learning_rate": 0.05, "decay_steps": 10},
    "CosineDecayRestarts": {"initial_learning_rate": 0.05, "first_decay_steps": 7},
    "ExponentialDecay": {"initial_learning_rate": 0.05, "decay_steps": 10, "decay_rate": 0.9},
    "InverseTimeDecay": {"initial_learning_rate": 0.05, "decay_steps": 10, "decay_rate": 0.9},
    "PiecewiseConstantDecay": {"boundaries": [3, 7], "values": [0.3, 0.2, 0.1]},
    "PolynomialDecay": {"initial_learning_rate": 0.05, "decay_steps": 10},
}
SCHEDULE_STEPS = (0, 1, 3, 5, 7, 10, 11, 15, 30)

#: initializer class -> required kwargs (each also gets seed=INIT_SEED where it takes one).
INITIALIZERS: dict[str, dict[str, Any]] = {
    "Constant": {}, "GlorotNormal": {}, "GlorotUniform": {}, "HeNormal": {}, "HeUniform": {}, "Identity": {},
    "LecunNormal": {}, "LecunUniform": {}, "Ones": {}, "Orthogonal": {}, "RandomNormal": {},
    "RandomUniform": {}, "TruncatedNormal": {}, "VarianceScaling": {}, "Zeros": {},
}
INIT_SEED = 1919
#: Shapes whose fan_in, fan_out and fan_avg all differ (and a vector, whose fans are equal).
INIT_SHAPES = ((7,), (3, 5), (2, 3, 4, 5), (3, 3, 2, 8))
#: Initializers whose draw goes through a QR decomposition (its rounding is LAPACK's, not bit-exact).
QR_INITIALIZERS = ("Orthogonal",)

REGULARIZERS = ("L1", "L2", "L1L2", "OrthogonalRegularizer")
CONSTRAINTS = ("MaxNorm", "MinMaxNorm", "NonNeg", "UnitNorm")


def _array(t: Any) -> np.ndarray:
    return np.asarray(t.numpy() if hasattr(t, "numpy") else t)


def _value(t: Any) -> Any:
    a = _array(t)
    return a.tolist() if a.dtype.kind in "iub" else a.astype(np.float64).tolist()


def observe_loss(tf: Any, name: str) -> dict[str, Any]:
    """The loss at its defaults on both scales: value and its gradient w.r.t. y_pred."""
    kind = LOSS_CASES[name]
    loss = getattr(tf.keras.losses, name)()
    out = {}
    for scale in scales_of(kind):
        y_true, y_pred = make_pair(kind, scale, name)
        p = tf.constant(y_pred)
        with tf.GradientTape() as tape:
            tape.watch(p)
            value = loss(tf.constant(y_true), p)
        grad = tape.gradient(value, p)
        out[scale] = {"value": _value(value), "grad": None if grad is None else _value(grad)}
    return out


def observe_metric(keras: Any, name: str) -> dict[str, Any]:
    """The metric at its defaults: result after each of two update_state calls, per scale."""
    kwargs, kind = METRIC_CASES[name]
    out = {}
    for scale in (("typical", "tiny") if kind == "values" else scales_of(kind)):
        metric = getattr(keras.metrics, name)(**kwargs)
        results = []
        for batch in (0, 1):
            if kind == "values":
                size = 1e-3 if scale == "tiny" else 1.0
                metric.update_state((_rng(name, scale, batch).uniform(-1, 1, (5,)) * size).astype(np.float32))
            else:
                y_true, y_pred = make_pair(kind, scale, f"{name}/{batch}")
                metric.update_state(y_true, y_pred)
            results.append(_value(metric.result()))
        out[scale] = results
    return out


def _opt_variable_name(v: Any) -> str:
    return str(getattr(v, "name", "")).rsplit("/", 1)[-1]


def observe_optimizer(tf: Any, name: str) -> dict[str, Any]:
    """Three steps of the optimizer at its defaults on two variables — a vector whose gradients are
    ~1e-6 (where epsilons dominate) and a 3x4 matrix with gradients ~1 — on a fixed gradient
    sequence: the variables and every optimizer variable (iterations, slots) after each step."""
    tf.keras.backend.clear_session()
    rng = _rng("optimizer")
    v0 = tf.keras.Variable(rng.uniform(-1, 1, (5,)).astype(np.float32), name="h19_vector")
    v1 = tf.keras.Variable(rng.uniform(-1, 1, (3, 4)).astype(np.float32), name="h19_matrix")
    opt = getattr(tf.keras.optimizers, name)()
    steps = []
    for step in range(3):
        g0 = (rng.uniform(-1, 1, (5,)) * 1e-6).astype(np.float32)
        g1 = rng.uniform(-1, 1, (3, 4)).astype(np.float32)
        opt.apply_gradients([(tf.constant(g0), v0), (tf.constant(g1), v1)])
        steps.append({"vector": _value(v0), "matrix": _value(v1),
                      "optimizer": [[_opt_variable_name(v), _value(v)] for v in opt.variables]})
    return {"steps": steps}


def observe_schedule(keras: Any, name: str) -> list:
    """The schedule at its defaults at SCHEDULE_STEPS."""
    sched = getattr(keras.optimizers.schedules, name)(**SCHEDULES[name])
    return [_value(sched(step)) for step in SCHEDULE_STEPS]


def observe_initializer(keras: Any, name: str) -> dict[str, Any]:
    """The seeded draw (defaults otherwise) on every shape it accepts (or the error's class)."""
    cls = getattr(keras.initializers, name)
    out: dict[str, Any] = {}
    for shape in INIT_SHAPES:
        kwargs = dict(INITIALIZERS[name])
        try:
            init = cls(seed=INIT_SEED, **kwargs)
        except TypeError:   # no seed argument (Zeros, Ones, Constant, Identity)
            init = cls(**kwargs)
        try:
            out[str(shape)] = _value(init(shape, dtype="float32"))
        except Exception as e:  # noqa: BLE001 - a refused shape is the observation
            out[str(shape)] = f"error: {type(e).__name__}"
    return out


def observe_regularizer(tf: Any, name: str) -> dict[str, Any]:
    """The penalty at its defaults on a seeded 3x5 weight at two scales, with its gradient."""
    reg = getattr(tf.keras.regularizers, name)()
    out = {}
    for scale, size in (("typical", 1.0), ("tiny", 1e-3)):
        w = tf.constant((_rng(name, scale).uniform(-1, 1, (3, 5)) * size).astype(np.float32))
        with tf.GradientTape() as tape:
            tape.watch(w)
            value = reg(w)
        grad = tape.gradient(value, w)
        out[scale] = {"value": _value(value), "grad": None if grad is None else _value(grad)}
    return out


def observe_constraint(tf: Any, name: str) -> dict[str, Any]:
    """The constraint at its defaults applied to a seeded 3x5 weight whose column norms lie on both
    sides of 1 and 2 (MaxNorm's and MinMaxNorm's defaults), and to a tiny one."""
    con = getattr(tf.keras.constraints, name)()
    out = {}
    for scale, size in (("typical", 1.6), ("tiny", 1e-3)):
        w = (_rng(name, scale).uniform(-1, 1, (3, 5)) * size).astype(np.float32)
        w[:, 0] *= 2.0
        out[scale] = _value(con(tf.constant(w)))
    return out


FIT_ROWS = 70   # two full default batches of 32 and a partial one of 6


def observe_fit_defaults(tf: Any) -> dict[str, Any]:
    """compile(loss="mse") and fit/evaluate/predict with no other argument, after
    keras.utils.set_random_seed: the default optimizer (rmsprop) and its config, fit's defaults
    (batch_size 32, epochs 1, shuffle True) through History, its params and the batches a callback
    sees, the trained weights, evaluate's and predict's defaults (batch_size 32, no shuffling)."""
    keras = tf.keras
    keras.backend.clear_session()
    keras.utils.set_random_seed(INIT_SEED)
    rng = _rng("fit")
    x = rng.uniform(-1, 1, (FIT_ROWS, 3)).astype(np.float32)
    y = rng.uniform(-1, 1, (FIT_ROWS, 1)).astype(np.float32)
    model = keras.Sequential([keras.Input((3,)), keras.layers.Dense(2, activation="relu"), keras.layers.Dense(1)])
    model.compile(loss="mse")
    batches: list = []

    class Count(keras.callbacks.Callback):
        def on_train_batch_end(self, batch: int, logs: Any = None) -> None:
            batches.append(["train", batch])

        def on_test_batch_end(self, batch: int, logs: Any = None) -> None:
            batches.append(["test", batch])

        def on_predict_batch_end(self, batch: int, logs: Any = None) -> None:
            batches.append(["predict", batch, list(np.shape((logs or {}).get("outputs")))])

    hist = model.fit(x, y, verbose=0, callbacks=[Count()])
    out: dict[str, Any] = {"optimizer": type(model.optimizer).__name__,
                           "optimizer_config": {k: v for k, v in model.optimizer.get_config().items()
                                                if isinstance(v, (int, float, str, bool)) or v is None},
                           "history": {k: _value(v) for k, v in sorted(hist.history.items())},
                           "params": {k: v for k, v in sorted(hist.params.items())},
                           "weights": [_value(w) for w in model.get_weights()]}
    out["evaluate"] = _value(model.evaluate(x, y, verbose=0, callbacks=[Count()]))
    out["predict"] = _value(model.predict(x, verbose=0, callbacks=[Count()]))
    out["batches"] = batches
    return out
