"""The training-loop sweep's programs (test_fsweep57.py, fifty-seventh session): Keras's fit/evaluate/predict loops,
compile options and data adapters crossed by rule — inputs as NumPy arrays, lists and dicts of arrays (multi-input,
multi-output functional models), batched tf.data datasets (with sample weights as a third element), Python
generators and keras.utils.PyDataset; batch sizes that leave a partial last batch, steps_per_epoch,
validation_split's tail, validation_data as a tuple and a dataset, validation_steps, validation_freq, shuffle False
and "batch", class_weight (integer and one-hot labels), sample_weight (1-D, temporal), initial_epoch; compile's loss
as a string, function, object, list and dict, loss_weights, per-output metrics (list, dict, nested),
weighted_metrics, steps_per_execution > 1 with a partial tail, run_eagerly, jit_compile=False;
train_on_batch/test_on_batch/predict_on_batch; evaluate(return_dict, steps), predict(batch_size, steps);
Sequential, functional and subclassed models (train_step/test_step overrides, add_loss, activity regularizers), under
OneDevice and Mirrored(2 CPUs). What is compared: History, evaluate's and the *_on_batch results, predict's outputs,
the final weights and iterations, all floats by their bits. TF 2.21's answers are recorded by `python -m
simdist.conformance.suite.test_fsweep57 --record` on this session's AVX-512 Xeon with oneDNN on: the losses come from
float32 matmuls whose order oneDNN decides, so every program is host-dependent (simdist runs them under its reference
model)."""

from __future__ import annotations

import os
from typing import Any, Callable

import numpy as np

from simdist.conformance.suite.recorded_programs import (RecordedPrograms, avx512_with_onednn, error, plain,
                                                         reference_cpu, rng)

PATH = os.path.join(os.path.dirname(__file__), "fsweep57_reference.json.gz")

#: every program trains a float32 Dense model (oneDNN's matmul on the recording host): all host-dependent
REF = RecordedPrograms(PATH, ("fs-",), recording_host=avx512_with_onednn, recording_cpu=reference_cpu)

#: where simdist and TF 2.21 disagree, left out of the sweep: (program, what, evidence)
OPEN: tuple[tuple[str, str, str], ...] = (
)


def v(x: Any) -> Any:
    """A value: floats (Python, NumPy or tensors) by their bits, non-finite as text; lists and dicts element-wise."""
    if isinstance(x, (bool, str)) or x is None:
        return x
    if isinstance(x, dict):
        return {str(k): v(x[k]) for k in sorted(x)}
    if isinstance(x, (list, tuple)):
        return [v(e) for e in x]
    a = np.asarray(x.numpy() if hasattr(x, "numpy") else x)
    if a.dtype.kind == "f":
        out = [float(e).hex() if np.isfinite(e) else str(float(e)) for e in a.astype(np.float64).ravel()]
        return out[0] if a.ndim == 0 else [list(a.shape), out]
    if a.dtype.kind in "iub":
        return a.ravel().tolist() if a.ndim else a.item()
    return type(x).__name__


def _hist(h: Any) -> Any:
    return {"history": {k: v(h.history[k]) for k in sorted(h.history)}, "epoch": list(h.epoch),
            "params": plain(h.params)}


def _seed(model: Any, name: str) -> Any:
    r = rng("weights/" + name)
    model.set_weights([r.uniform(-0.8, 0.8, w.shape).astype(np.float32) for w in model.get_weights()])
    return model


def _state(model: Any) -> Any:
    return {"weights": [v(w) for w in model.get_weights()], "iterations": v(model.optimizer.iterations)}


def _xy(name: str, n: int = 10, d: int = 4, k: int = 2) -> tuple[np.ndarray, np.ndarray]:
    r = rng(name)
    x = r.uniform(-1.0, 1.0, (n, d)).astype(np.float32)
    y = (r.uniform(-1.0, 1.0, (n, k)) * 0.5).astype(np.float32)
    return x, y


def _seq(keras: Any, name: str, out: int = 2, act: Any = None) -> Any:
    return keras.Sequential([keras.Input((4,)), keras.layers.Dense(3, activation="relu", name="fs_hidden"),
                             keras.layers.Dense(out, activation=act, name="fs_out")], name="fs_seq")


def _sgd(keras: Any) -> Any:
    return keras.optimizers.SGD(0.1, momentum=0.5)


def _after(model: Any, x: Any, y: Any, **ekw: Any) -> dict[str, Any]:
    """evaluate (a list and return_dict, a partial batch) and predict (a partial batch) after training."""
    return {"evaluate": error(lambda: v(model.evaluate(x, y, batch_size=4, verbose=0, **ekw))),
            "evaluate dict": error(lambda: v(model.evaluate(x, y, batch_size=3, verbose=0, return_dict=True, **ekw))),
            "predict": error(lambda: v(model.predict(x, batch_size=4, verbose=0)))}


# -- 1. fit's data paths on a Sequential regression model ------------------------------------------------------------
def _fit_numpy(case: str, kw: dict[str, Any], n: int = 10) -> Callable[[Any, Any], Any]:
    def prog(tf: Any, mk: Any) -> Any:
        keras = tf.keras
        name = f"numpy/{case}"
        x, y = _xy(name, n)
        model = _seed(_seq(keras, name), name)
        model.compile(optimizer=_sgd(keras), loss="mse", metrics=["mae"], **kw.get("_compile", {}))
        fkw = {k: e for k, e in kw.items() if not k.startswith("_")}
        if kw.get("_weights"):
            fkw["sample_weight"] = (np.arange(n) % 4 * 0.5).astype(np.float32)
        if "_global_seed" in kw:   # shuffle's permutation: TF's under a global seed (clause keras.fit.data)
            keras.utils.set_random_seed(kw["_global_seed"])
        if kw.get("_val"):
            fkw["validation_data"] = (x[:5], y[:5])
        h = model.fit(x, y, verbose=0, **fkw)
        return {"fit": _hist(h), **_state(model), **_after(model, x, y)}
    return prog


FIT_NUMPY: dict[str, dict[str, Any]] = {
    "batch3-partial": dict(epochs=2, batch_size=3, shuffle=False),
    "batch-default": dict(epochs=1, shuffle=False),   # batch_size omitted: 32, one partial batch of 10
    "batch-larger-than-data": dict(epochs=2, batch_size=16, shuffle=False),
    "shuffle-batch-single-batch": dict(epochs=2, batch_size=12, shuffle="batch", _global_seed=5),
    "shuffle-true-seeded": dict(epochs=2, batch_size=4, shuffle=True, _global_seed=7),
    "shuffle-batch-seeded": dict(epochs=2, batch_size=4, shuffle="batch", _global_seed=11),
    "shuffle-true-validation-split": dict(epochs=2, batch_size=3, shuffle=True, validation_split=0.3,
                                          _global_seed=3),
    "steps-per-epoch": dict(epochs=2, batch_size=4, steps_per_epoch=2, shuffle=False),
    "validation-split-tail": dict(epochs=2, batch_size=4, validation_split=0.25, shuffle=False),
    "validation-split-weighted": dict(epochs=2, batch_size=3, validation_split=0.4, shuffle=False, _weights=True),
    "validation-freq-list": dict(epochs=4, batch_size=4, shuffle=False, _val=True, validation_freq=[1, 3]),
    "validation-batch-size": dict(epochs=1, batch_size=4, shuffle=False, _val=True, validation_batch_size=2),
    "validation-steps": dict(epochs=2, batch_size=4, shuffle=False, _val=True, validation_steps=1,
                             validation_batch_size=3),
    "initial-epoch": dict(epochs=3, initial_epoch=1, batch_size=5, shuffle=False),
    "sample-weight-1d": dict(epochs=2, batch_size=4, shuffle=False, _weights=True),
    "steps-per-execution-3": dict(epochs=2, batch_size=3, shuffle=False, _compile=dict(steps_per_execution=3)),
    "steps-per-execution-2-val": dict(epochs=2, batch_size=2, shuffle=False, _val=True,
                                      _compile=dict(steps_per_execution=2)),
    "run-eagerly": dict(epochs=2, batch_size=4, shuffle=False, _compile=dict(run_eagerly=True)),
    "jit-compile-false": dict(epochs=2, batch_size=4, shuffle=False, _compile=dict(jit_compile=False)),
}
for _c, _kw in FIT_NUMPY.items():
    REF.add(f"fs-numpy-{_c}", _fit_numpy(_c, dict(_kw)))


def _fit_dataset(tf: Any, mk: Any) -> Any:
    """A batched dataset with sample weights as its third element, validation as a dataset with validation_steps,
    evaluate(steps) and predict(steps) over datasets with a partial last batch."""
    keras = tf.keras
    name = "dataset/weighted"
    x, y = _xy(name, 11)
    w = (np.arange(11) % 3 * 0.75).astype(np.float32)
    model = _seed(_seq(keras, name), name)
    model.compile(optimizer=_sgd(keras), loss="mse", metrics=["mae"], weighted_metrics=["mse"])
    ds = tf.data.Dataset.from_tensor_slices((x, y, w)).batch(4)
    val = tf.data.Dataset.from_tensor_slices((x[:6], y[:6])).batch(4)
    h = model.fit(ds, epochs=2, validation_data=val, validation_steps=1, verbose=0)
    out = {"fit": _hist(h), **_state(model)}
    out["evaluate steps"] = v(model.evaluate(ds, steps=2, verbose=0))
    out["evaluate all"] = v(model.evaluate(ds, verbose=0, return_dict=True))
    out["predict steps"] = v(model.predict(tf.data.Dataset.from_tensor_slices(x).batch(3), steps=2, verbose=0))
    out["predict all"] = v(model.predict(tf.data.Dataset.from_tensor_slices(x).batch(3), verbose=0))
    return out


REF.add("fs-data-dataset-weighted", _fit_dataset)


def _fit_dataset_repeat(tf: Any, mk: Any) -> Any:
    """A repeated dataset with steps_per_epoch (the iterator carries over epochs) and steps_per_execution=2."""
    keras = tf.keras
    name = "dataset/repeat"
    x, y = _xy(name, 7)
    model = _seed(_seq(keras, name), name)
    model.compile(optimizer=_sgd(keras), loss="mae", metrics=["mse"], steps_per_execution=2)
    ds = tf.data.Dataset.from_tensor_slices((x, y)).batch(3).repeat()
    h = model.fit(ds, epochs=3, steps_per_epoch=3, verbose=0)
    out = {"fit": _hist(h), **_state(model)}
    out["evaluate steps"] = v(model.evaluate(ds, steps=4, verbose=0))
    return out


REF.add("fs-data-dataset-repeat-spe", _fit_dataset_repeat)


def _fit_generator(tf: Any, mk: Any) -> Any:
    """A Python generator of (x, y, sample_weight) batches with a partial last batch, steps_per_epoch given."""
    keras = tf.keras
    name = "generator/weighted"
    x, y = _xy(name, 10)
    w = (np.arange(10) % 5 * 0.25 + 0.5).astype(np.float32)

    def gen() -> Any:
        while True:
            for s in range(0, 10, 4):
                yield x[s:s + 4], y[s:s + 4], w[s:s + 4]
    model = _seed(_seq(keras, name), name)
    model.compile(optimizer=_sgd(keras), loss="mse", metrics=["mae"])
    h = model.fit(gen(), epochs=2, steps_per_epoch=3, verbose=0)
    out = {"fit": _hist(h), **_state(model)}

    def gen_xy() -> Any:
        for s in range(0, 10, 3):
            yield x[s:s + 3], y[s:s + 3]

    def gen_x() -> Any:
        for s in range(0, 10, 3):
            yield (x[s:s + 3],)
    out["evaluate"] = v(model.evaluate(gen_xy(), verbose=0))
    out["predict"] = v(model.predict(gen_x(), verbose=0))
    return out


REF.add("fs-data-generator", _fit_generator)


def _fit_pydataset(tf: Any, mk: Any) -> Any:
    """keras.utils.PyDataset with a partial last batch, fit with shuffle=True (PyDataset's batches are not
    shuffled... its indices are, by Keras's rule), validation a PyDataset, evaluate and predict."""
    keras = tf.keras
    name = "pydataset"
    x, y = _xy(name, 10)

    class Batches(keras.utils.PyDataset):
        def __init__(self, xs: Any, ys: Any, size: int, **kw: Any) -> None:
            super().__init__(**kw)
            self.xs, self.ys, self.size = xs, ys, size

        def __len__(self) -> int:
            return -(-len(self.xs) // self.size)

        def __getitem__(self, i: int) -> Any:
            s = slice(i * self.size, (i + 1) * self.size)
            return (self.xs[s], self.ys[s]) if self.ys is not None else self.xs[s]
    model = _seed(_seq(keras, name), name)
    model.compile(optimizer=_sgd(keras), loss="mse", metrics=["mae"])
    h = model.fit(Batches(x, y, 4), epochs=2, shuffle=False, validation_data=Batches(x[:5], y[:5], 2), verbose=0)
    out = {"fit": _hist(h), **_state(model)}
    out["evaluate"] = v(model.evaluate(Batches(x, y, 3), verbose=0, return_dict=True))
    out["predict"] = v(model.predict(Batches(x, None, 3), verbose=0))
    out["predict steps"] = v(model.predict(Batches(x, None, 3), steps=2, verbose=0))
    return out


REF.add("fs-data-pydataset", _fit_pydataset)


# -- 2. compile's loss forms, class_weight and temporal sample weights ------------------------------------------------
def _loss_form(case: str) -> Callable[[Any, Any], Any]:
    def prog(tf: Any, mk: Any) -> Any:
        keras = tf.keras
        name = f"loss/{case}"
        x, y = _xy(name, 9)
        loss: Any = {"string": "huber", "function": keras.losses.mae, "function-logcosh": keras.losses.logcosh,
                     "object": keras.losses.Huber(delta=0.2, reduction="sum"),
                     "object-none-reduction-mean": keras.losses.MeanSquaredError(reduction="mean"),
                     "custom-function": lambda a, b: tf.reduce_mean(tf.square(a - b) * 2.0, axis=-1)}[case]
        model = _seed(_seq(keras, name), name)
        model.compile(optimizer=_sgd(keras), loss=loss, metrics=["mse", keras.metrics.MeanAbsoluteError(name="m")])
        h = model.fit(x, y, epochs=2, batch_size=4, shuffle=False, verbose=0)
        return {"fit": _hist(h), **_state(model), **_after(model, x, y)}
    return prog


for _c in ("string", "function", "function-logcosh", "object", "object-none-reduction-mean", "custom-function"):
    REF.add(f"fs-loss-{_c}", _loss_form(_c))


def _class_weight(case: str) -> Callable[[Any, Any], Any]:
    def prog(tf: Any, mk: Any) -> Any:
        keras = tf.keras
        name = f"classes/{case}"
        r = rng(name)
        x = r.uniform(-1.0, 1.0, (11, 4)).astype(np.float32)
        labels = (np.arange(11) * 7 % 3).astype(np.int32)
        model = _seed(_seq(keras, name, out=3, act="softmax"), name)
        onehot = case.startswith("onehot")
        y = np.eye(3, dtype=np.float32)[labels] if onehot else labels
        loss = "categorical_crossentropy" if onehot else "sparse_categorical_crossentropy"
        model.compile(optimizer=_sgd(keras), loss=loss, metrics=["accuracy"], weighted_metrics=["accuracy"])
        kw: dict[str, Any] = dict(epochs=2, batch_size=4, shuffle=False, verbose=0,
                                  class_weight={0: 1.0, 1: 3.0, 2: 0.5})
        if case.endswith("-and-sample-weight"):
            kw["sample_weight"] = (np.arange(11) % 2 + 0.5).astype(np.float32)
        if case.endswith("-partial-dict"):
            kw["class_weight"] = {0: 2.0, 1: 0.25, 2: 1.0}
            kw["validation_split"] = 0.3
        h = error(lambda: model.fit(x, y, **kw))
        out = {"fit": h if isinstance(h, str) else _hist(h), **_state(model), **_after(model, x, y)}
        out["train_on_batch"] = v(model.train_on_batch(x[:5], y[:5], class_weight={0: 0.5, 1: 1.0, 2: 2.0},
                                                       return_dict=True))
        return out
    return prog


for _c in ("sparse", "onehot", "sparse-and-sample-weight", "onehot-partial-dict"):
    REF.add(f"fs-classweight-{_c}", _class_weight(_c))


def _temporal(tf: Any, mk: Any) -> Any:
    """A sequence output (batch, 3 steps, 2) with a (batch, 3) sample weight (sample_weight_mode left None)."""
    keras = tf.keras
    name = "temporal"
    r = rng(name)
    x = r.uniform(-1.0, 1.0, (7, 3, 4)).astype(np.float32)
    y = (r.uniform(-1.0, 1.0, (7, 3, 2)) * 0.5).astype(np.float32)
    w = (np.arange(21).reshape(7, 3) % 4 * 0.5).astype(np.float32)
    model = keras.Sequential([keras.Input((3, 4)), keras.layers.Dense(3, activation="relu", name="fs_hidden"),
                              keras.layers.Dense(2, name="fs_out")], name="fs_temporal")
    _seed(model, name)
    model.compile(optimizer=_sgd(keras), loss="mse", metrics=["mae"], weighted_metrics=["mae"])
    h = model.fit(x, y, sample_weight=w, epochs=2, batch_size=3, shuffle=False, verbose=0)
    out = {"fit": _hist(h), **_state(model)}
    out["evaluate weighted"] = v(model.evaluate(x, y, sample_weight=w, batch_size=4, verbose=0, return_dict=True))
    out["test_on_batch"] = v(model.test_on_batch(x[:4], y[:4], sample_weight=w[:4], return_dict=True))
    out["predict"] = v(model.predict(x, batch_size=5, verbose=0))
    return out


REF.add("fs-weights-temporal", _temporal)


# -- 3. multi-input, multi-output functional models -------------------------------------------------------------------
def _two_io(keras: Any, name: str) -> Any:
    a = keras.Input((3,), name="in_a")
    b = keras.Input((2,), name="in_b")
    h = keras.layers.Concatenate(name="fs_cat")([a, b])
    h = keras.layers.Dense(4, activation="relu", name="fs_trunk")(h)
    reg = keras.layers.Dense(2, name="out_reg")(h)
    cls = keras.layers.Dense(3, activation="softmax", name="out_cls")(h)
    return _seed(keras.Model({"in_a": a, "in_b": b}, {"out_reg": reg, "out_cls": cls}, name="fs_two_io"), name)


def _two_io_list(keras: Any, name: str) -> Any:
    a = keras.Input((3,), name="in_a")
    b = keras.Input((2,), name="in_b")
    h = keras.layers.Concatenate(name="fs_cat")([a, b])
    h = keras.layers.Dense(4, activation="relu", name="fs_trunk")(h)
    reg = keras.layers.Dense(2, name="out_reg")(h)
    cls = keras.layers.Dense(3, activation="softmax", name="out_cls")(h)
    return _seed(keras.Model([a, b], [reg, cls], name="fs_two_io_list"), name)


def _multi_data(name: str, n: int = 10) -> tuple[Any, ...]:
    r = rng(name)
    xa = r.uniform(-1.0, 1.0, (n, 3)).astype(np.float32)
    xb = r.uniform(-1.0, 1.0, (n, 2)).astype(np.float32)
    yr = (r.uniform(-1.0, 1.0, (n, 2)) * 0.5).astype(np.float32)
    yc = (np.arange(n) * 5 % 3).astype(np.int32)
    return xa, xb, yr, yc


#: (the first three parted from TF 2.21 in the last bits until kopen57 modelled oneDNN's one-row MatMul: their
#: partial batch of one row, onednn_matmul.one_row_transposed_b)
MULTI: dict[str, dict[str, Any]] = {
    "dict-loss-dict-weights": dict(io="dict", loss="dict", loss_weights={"out_reg": 0.5, "out_cls": 2.0},
                                   metrics={"out_reg": ["mae"], "out_cls": ["accuracy"]}),
    "dict-loss-no-weights-nested-metrics": dict(io="dict", loss="dict",
                                                metrics={"out_reg": ["mae", "mse"],
                                                         "out_cls": ["accuracy", "sparse_categorical_accuracy"]}),
    "dict-validation-split": dict(io="dict", loss="dict", metrics={"out_reg": "mae", "out_cls": "accuracy"},
                                  validation_split=0.3),
    "dict-dataset-loss-weights-list-metrics": dict(io="dict", loss="dict", loss_weights={"out_reg": 0.5,
                                                                                         "out_cls": 2.0},
                                                   metrics={"out_reg": ["mae", "mse"], "out_cls": ["accuracy"]},
                                                   dataset=True),
    "list-validation-split-nested-metrics": dict(io="list", loss="list", metrics=[["mae", "mse"], ["accuracy"]],
                                                 validation_split=0.3),
    "list-loss-list-weights": dict(io="list", loss="list", loss_weights=[2.0, 0.25],
                                   metrics=[["mae"], ["accuracy"]]),
    "list-weighted-metrics": dict(io="list", loss="list", metrics=[["mae"], ["accuracy"]],
                                  weighted_metrics=[["mse"], ["accuracy"]], sample_weight=True),
    "dict-dataset": dict(io="dict", loss="dict", loss_weights={"out_reg": 1.5, "out_cls": 1.0},
                         metrics={"out_reg": ["mae"]}, dataset=True),
    "dict-missing-output-loss": dict(io="dict", loss="only-reg", metrics={"out_reg": ["mae"]}),
    "list-class-weight-single": dict(io="list", loss="list", metrics=[["mae"], ["accuracy"]], sample_weight="dict"),
}


def _multi_program(case: str) -> Callable[[Any, Any], Any]:
    c = MULTI[case]

    def prog(tf: Any, mk: Any) -> Any:
        keras = tf.keras
        name = f"multi/{case}"
        xa, xb, yr, yc = _multi_data(name)
        model = _two_io(keras, name) if c["io"] == "dict" else _two_io_list(keras, name)
        loss: Any = {"dict": {"out_reg": "mse", "out_cls": keras.losses.SparseCategoricalCrossentropy()},
                     "list": ["mae", "sparse_categorical_crossentropy"],
                     "only-reg": {"out_reg": "mse"}}[c["loss"]]
        ckw = {k: c[k] for k in ("loss_weights", "metrics", "weighted_metrics") if k in c}
        model.compile(optimizer=_sgd(keras), loss=loss, **ckw)
        xs: Any = {"in_a": xa, "in_b": xb} if c["io"] == "dict" else [xa, xb]
        ys: Any = {"out_reg": yr, "out_cls": yc} if c["io"] == "dict" else [yr, yc]
        if c["loss"] == "only-reg":
            ys = {"out_reg": yr, "out_cls": yc}
        kw: dict[str, Any] = dict(epochs=2, shuffle=False, verbose=0)
        if c.get("sample_weight") is True:
            kw["sample_weight"] = (np.arange(10) % 3 * 0.5 + 0.25).astype(np.float32)
        if c.get("sample_weight") == "dict":
            kw["sample_weight"] = [(np.arange(10) % 2 + 0.5).astype(np.float32),
                                   (np.arange(10) % 3 * 0.5).astype(np.float32)]
        if "validation_split" in c:
            kw["validation_split"] = c["validation_split"]
        if c.get("dataset"):
            h = model.fit(tf.data.Dataset.from_tensor_slices((xs, ys)).batch(4), **kw)
        else:
            h = model.fit(xs, ys, batch_size=3, **kw)
        out = {"fit": _hist(h), **_state(model)}
        out["evaluate"] = error(lambda: v(model.evaluate(xs, ys, batch_size=4, verbose=0)))
        out["evaluate dict"] = error(lambda: v(model.evaluate(xs, ys, batch_size=4, verbose=0, return_dict=True)))
        out["predict"] = error(lambda: v(model.predict(xs, batch_size=4, verbose=0)))
        out["test_on_batch"] = error(lambda: v(model.test_on_batch(xs, ys, return_dict=True)))
        out["predict_on_batch"] = error(lambda: v(model.predict_on_batch(xs)))
        return out
    return prog


for _c in MULTI:
    REF.add(f"fs-multi-{_c}", _multi_program(_c))


# -- 4. *_on_batch ----------------------------------------------------------------------------------------------------
def _on_batch(tf: Any, mk: Any) -> Any:
    keras = tf.keras
    name = "on-batch"
    x, y = _xy(name, 6)
    model = _seed(_seq(keras, name), name)
    model.compile(optimizer=keras.optimizers.Adam(0.05), loss="mse", metrics=["mae"], weighted_metrics=["mse"])
    w = np.array([0.0, 1.0, 2.0, 0.5, 1.5, 1.0], np.float32)
    out: dict[str, Any] = {}
    out["train list"] = v(model.train_on_batch(x, y))
    out["train weighted"] = v(model.train_on_batch(x, y, sample_weight=w))
    out["train dict"] = v(model.train_on_batch(x[:4], y[:4], return_dict=True))
    out["test list"] = v(model.test_on_batch(x, y))
    out["test weighted dict"] = v(model.test_on_batch(x, y, sample_weight=w, return_dict=True))
    out["predict"] = v(model.predict_on_batch(x[:5]))
    out.update(_state(model))
    return out


REF.add("fs-onbatch-regression", _on_batch)


# -- 5. subclassed models: train_step/test_step overrides, add_loss, activity regularizers ---------------------------
def _subclassed(case: str) -> Callable[[Any, Any], Any]:
    def prog(tf: Any, mk: Any) -> Any:
        keras = tf.keras
        name = f"subclassed/{case}"
        x, y = _xy(name, 10)

        class Net(keras.Model):
            def __init__(self) -> None:
                super().__init__(name="fs_net")
                reg = keras.regularizers.L2(0.05) if case == "activity-regularizer" else None
                self.hidden = keras.layers.Dense(3, activation="relu", name="fs_hidden", activity_regularizer=reg)
                self.out = keras.layers.Dense(2, name="fs_out")

            def call(self, inputs: Any, training: Any = None) -> Any:
                h = self.hidden(inputs)
                if case == "add-loss":
                    self.add_loss(0.01 * tf.reduce_sum(tf.abs(h)))
                return self.out(h)

        class Stepped(Net):
            def train_step(self, data: Any) -> Any:
                xs, ys, _ = keras.utils.unpack_x_y_sample_weight(data)
                with tf.GradientTape() as tape:
                    pred = self(xs, training=True)
                    loss = self.compute_loss(x=xs, y=ys, y_pred=pred)
                grads = tape.gradient(loss, self.trainable_variables)
                self.optimizer.apply_gradients(zip([g * 0.5 for g in grads], self.trainable_variables))
                for m in self.metrics:
                    if m.name == "loss":
                        m.update_state(loss)
                    else:
                        m.update_state(ys, pred)
                return {m.name: m.result() for m in self.metrics}

            def test_step(self, data: Any) -> Any:
                xs, ys, _ = keras.utils.unpack_x_y_sample_weight(data)
                pred = self(xs, training=False)
                return {"err": tf.reduce_max(tf.abs(pred - ys))}

        model = Stepped() if case == "steps-override" else Net()
        model.compile(optimizer=_sgd(keras), loss="mse", metrics=["mae"])
        model(x[:1])
        _seed(model, name)
        h = model.fit(x, y, epochs=2, batch_size=4, shuffle=False, verbose=0, validation_data=(x[:4], y[:4]))
        out = {"fit": _hist(h), **_state(model), **_after(model, x, y)}
        out["train_on_batch"] = v(model.train_on_batch(x[:3], y[:3], return_dict=True))
        return out
    return prog


for _c in ("plain", "steps-override", "add-loss", "activity-regularizer"):
    REF.add(f"fs-subclassed-{_c}", _subclassed(_c))


def _seq_activity(tf: Any, mk: Any) -> Any:
    """A Sequential model with an activity regularizer (L1L2) and a kernel regularizer: fit's loss includes both."""
    keras = tf.keras
    name = "sequential/regularized"
    x, y = _xy(name, 9)
    model = keras.Sequential([keras.Input((4,)),
                              keras.layers.Dense(3, activation="relu", name="fs_hidden",
                                                 activity_regularizer=keras.regularizers.L1L2(0.02, 0.03)),
                              keras.layers.Dense(2, name="fs_out", kernel_regularizer=keras.regularizers.L1(0.01))],
                             name="fs_seq_reg")
    _seed(model, name)
    model.compile(optimizer=_sgd(keras), loss="mse", metrics=["mse"])
    h = model.fit(x, y, epochs=2, batch_size=4, shuffle=False, verbose=0, validation_split=0.2)
    return {"fit": _hist(h), **_state(model), **_after(model, x, y)}


REF.add("fs-regularized-sequential", _seq_activity)


# -- 6. strategies: OneDevice and Mirrored(2 CPUs) -------------------------------------------------------------------
def _strategy(case: str) -> Callable[[Any, Any], Any]:
    def prog(tf: Any, mk: Any) -> Any:
        keras = tf.keras
        name = f"strategy/{case}"
        x, y = _xy(name, 12)
        strategy = mk() if case.startswith("mirrored") else tf.distribute.OneDeviceStrategy("/cpu:0")
        with strategy.scope():
            model = _seed(_seq(keras, name), name)
            model.compile(optimizer=_sgd(keras), loss="mse", metrics=["mae"])
        if case.endswith("dataset"):
            ds = tf.data.Dataset.from_tensor_slices((x, y)).batch(4)
            h = model.fit(ds, epochs=2, verbose=0)
        else:
            # 9 training samples in batches of 4: the last batch of 1 leaves a replica empty (TF 2.21: AddN's error)
            h = error(lambda: model.fit(x, y, epochs=2, batch_size=4, shuffle=False, verbose=0,
                                        validation_split=0.25))
        return {"fit": h if isinstance(h, str) else _hist(h), **_state(model), **_after(model, x, y)}
    return prog


for _c in ("onedevice-numpy", "mirrored-numpy", "mirrored-dataset"):
    REF.add(f"fs-strategy-{_c}", _strategy(_c))


# -- 7. layers whose training flag and trainability the loop decides -------------------------------------------------
def _bn_frozen(tf: Any, mk: Any) -> Any:
    """BatchNormalization (the step's training flag: batch statistics and moving averages), a frozen Dense layer (no
    gradient, no optimizer slot), sparse labels of shape (n, 1) with 'accuracy' (resolved from the predictions' shape)
    and momentum SGD (its slots): History, evaluate, predict, every weight and the optimizer's variables."""
    keras = tf.keras
    name = "layers/bn-frozen"
    x, _ = _xy(name, 10)
    y = (np.arange(10) * 7 % 3).astype(np.int32).reshape(10, 1)
    frozen = keras.layers.Dense(3, name="fs_frozen")
    frozen.trainable = False
    model = keras.Sequential([keras.Input((4,)), keras.layers.Dense(4, name="fs_hidden"),
                              keras.layers.BatchNormalization(momentum=0.5, name="fs_bn"), frozen,
                              keras.layers.Dense(3, activation="softmax", name="fs_out")], name="fs_bn_model")
    _seed(model, name)
    model.compile(optimizer=_sgd(keras), loss="sparse_categorical_crossentropy", metrics=["accuracy"])
    h = model.fit(x, y, epochs=2, batch_size=4, shuffle=False, verbose=0, validation_data=(x[:5], y[:5]))
    out = {"fit": _hist(h), **_state(model), **_after(model, x, y)}
    out["optimizer variables"] = [[str(w.name), v(w)] for w in model.optimizer.variables]
    out["train_on_batch"] = v(model.train_on_batch(x[:6], y[:6], return_dict=True))
    out["weights after"] = [v(w) for w in model.get_weights()]
    return out


REF.add("fs-layers-bn-frozen-sparse-accuracy", _bn_frozen)


def _vector_output(tf: Any, mk: Any) -> Any:
    """A functional model whose output is rank 1 (a Dense(2)'s two columns summed: a Dense(1)'s one-column product is
    NumPy's BLAS in simdist, whose bits follow OpenBLAS's kernel): predict concatenates its batches (a partial last
    one), evaluate and fit by the loop's rules."""
    keras = tf.keras
    name = "layers/vector-output"
    x, y2 = _xy(name, 10, k=1)
    inp = keras.Input((4,), name="fs_in")
    h = keras.layers.Dense(3, activation="relu", name="fs_hidden")(inp)
    o = keras.ops.sum(keras.layers.Dense(2, name="fs_out")(h), axis=-1)
    model = _seed(keras.Model(inp, o, name="fs_vector"), name)
    model.compile(optimizer=_sgd(keras), loss="mse", metrics=["mae"])
    y = y2.reshape(10)
    h = model.fit(x, y, epochs=2, batch_size=3, shuffle=False, verbose=0)
    out = {"fit": _hist(h), **_state(model), **_after(model, x, y)}
    out["predict batch 3"] = v(model.predict(x, batch_size=3, verbose=0))
    out["predict_on_batch"] = v(model.predict_on_batch(x[:4]))
    return out


REF.add("fs-layers-vector-output", _vector_output)


def _one_row(tf: Any, mk: Any) -> Any:
    """oneDNN's float32 MatMul of one row with transpose_b (kopen57: the input gradient of a Dense layer on a one-row
    batch, as the dict model's partial batch of one row): products [1, k] x [n, k]^T over k of every tail shape and
    of the 16-element main loop, eagerly and inside tf.function, and a two-layer model's gradients on one row."""
    keras = tf.keras
    r = rng("layers/one-row-matmul")
    out: dict[str, Any] = {}
    for k in (1, 2, 3, 4, 5, 6, 7, 8, 9, 12, 15, 16, 17, 23, 24, 31, 32, 33, 40, 47, 64, 100, 129, 200, 385):
        for n in (1, 3, 16):
            a = r.uniform(-1.0, 1.0, (1, k)).astype(np.float32)
            b = r.uniform(-1.0, 1.0, (n, k)).astype(np.float32)
            out[f"k{k} n{n}"] = v(tf.linalg.matmul(a, b, transpose_b=True))
    a = r.uniform(-1.0, 1.0, (1, 24)).astype(np.float32)
    b = r.uniform(-1.0, 1.0, (5, 24)).astype(np.float32)
    out["traced k24 n5"] = v(tf.function(lambda p, q: tf.linalg.matmul(p, q, transpose_b=True))(a, b))
    x, _ = _xy("layers/one-row-matmul", 1)
    model = _seed(_seq(keras, "layers/one-row-matmul", out=3), "layers/one-row-matmul")
    xt = tf.constant(x)
    with tf.GradientTape() as tape:
        tape.watch(xt)
        s = tf.reduce_sum(model(xt) * tf.constant([[0.5, -1.25, 2.0]]))
    out["gradients"] = v(tape.gradient(s, [xt] + model.trainable_variables))
    return out


REF.add("fs-layers-one-row-matmul", _one_row)
