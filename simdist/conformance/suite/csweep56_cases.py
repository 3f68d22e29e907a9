"""The callbacks-and-saving sweep's programs (test_csweep56.py, fifty-sixth session): every built-in Keras callback
with its options crossed by rule through fit (epochs, validation_data/validation_split, initial_epoch,
steps_per_epoch, class_weight/sample_weight), evaluate and predict; what each hook's logs hold (keys, values' bits),
History, the epoch a run stops at, the learning rate per epoch, the progress bar's printed text (timings masked),
the files written after each epoch and their contents; then model.save(.keras)/load_model and
save_weights/load_weights round trips (weights' and optimizer slots' bits, iterations, compile config, the archive's
member list) and get_weights/set_weights (order, error messages). TF 2.21's answers are recorded by `python -m
simdist.conformance.suite.test_csweep56 --record` on this session's AVX-512 Xeon with oneDNN on: the losses come
from float32 matmuls whose order oneDNN decides, so every program is host-dependent (simdist runs them under its
reference model)."""

from __future__ import annotations

import contextlib
import io
import json
import os
import re
import tempfile
import zipfile
from typing import Any, Callable

import numpy as np

from simdist.conformance.suite.recorded_programs import (RecordedPrograms, avx512_with_onednn, bits, error, plain,
                                                         reference_cpu, rng)

PATH = os.path.join(os.path.dirname(__file__), "csweep56_reference.json.gz")

#: every program trains a float32 Dense model (oneDNN's matmul on the recording host): all host-dependent
REF = RecordedPrograms(PATH, ("cs-",), recording_host=avx512_with_onednn, recording_cpu=reference_cpu)

#: where simdist and TF 2.21 disagree, left out of the sweep: (program, what, evidence)
OPEN: tuple[tuple[str, str, str], ...] = (
    ("ModelCheckpoint('cs-{epoch}.weights.h5') with save_weights_only=False", "left out of CKPT_CASES",
     "TF 2.21 accepts any path ending in .h5 for a whole model and writes a legacy HDF5 model file each epoch "
     "(observed: cs-1.weights.h5 .. cs-5.weights.h5); simdist refuses the path at construction with a ValueError "
     "(model_checkpoint.py: it does not write the legacy HDF5 whole-model format, a documented scope limit)"),
    ("cs-save-load-options", "load_weights' failure message: only the example object's error is compared",
     "TF 2.21 (Keras's saving_lib._raise_loading_failure): 'A total of 1 objects could not be loaded. Example error "
     "message for object <Dense ...>:...'; simdist: '... could not be loaded from <path>. ...' plus '\\n\\nNo "
     "weight was changed.' — simdist's deliberate deviation (docs/spec.md, keras.model.save-weights: load_weights "
     "checks every object before assigning any, where Keras has already overwritten the layers that fitted)"),
)

#: a learning-rate table that makes the loss fall, rise and plateau (EarlyStopping's and ReduceLROnPlateau's paths)
LR_TABLE = (0.05, 0.2, 0.001, 0.6, 0.05, 0.0, 0.3, 0.001, 0.05, 0.9, 0.0, 0.02)

_TIMING = re.compile(r"\d+(\.\d+)?(ms|s|us)(/step)?")


def v(x: Any) -> Any:
    """A logs value: floats (Python, NumPy or tensors) by their bits, non-finite as text."""
    if isinstance(x, (bool, str)) or x is None:
        return x
    a = np.asarray(x.numpy() if hasattr(x, "numpy") else x)
    if a.dtype.kind == "f":
        out = [float(e).hex() if np.isfinite(e) else str(float(e)) for e in a.astype(np.float64).ravel()]
        return out[0] if a.ndim == 0 else out
    if a.dtype.kind in "iub":
        return a.ravel().tolist() if a.ndim else a.item()
    return type(x).__name__


def logs_(logs: Any) -> Any:
    return None if logs is None else {str(k): v(logs[k]) for k in sorted(logs)}


def _data(name: str, n: int = 10) -> tuple[np.ndarray, np.ndarray]:
    r = rng(name)
    x = r.uniform(-1.0, 1.0, (n, 4)).astype(np.float32)
    y = (r.uniform(-1.0, 1.0, (n, 2)) * 0.5).astype(np.float32)
    return x, y


def _model(keras: Any, name: str, opt: Any = None, metrics: Any = ("mae",), loss: str = "mse") -> Any:
    """A two-Dense regression model with seeded weights (explicit names)."""
    model = keras.Sequential([keras.Input((4,)), keras.layers.Dense(3, name="cs_hidden"),
                              keras.layers.Dense(2, name="cs_out")], name="cs_model")
    model.compile(optimizer=opt if opt is not None else keras.optimizers.SGD(0.05), loss=loss,
                  metrics=list(metrics))
    r = rng("weights/" + name)
    model.set_weights([(r.uniform(-0.8, 0.8, w.shape)).astype(np.float32) for w in model.get_weights()])
    return model


def _weights(model: Any) -> Any:
    return [v(w) for w in model.get_weights()]


def _recorder(keras: Any, calls: list, batches: bool = True) -> Any:
    """A callback keeping every hook's index and logs (keys and values' bits), and the lr at each epoch's begin."""

    class Recorder(keras.callbacks.Callback):
        def _lr(self) -> Any:
            return v(self.model.optimizer.learning_rate)

        def on_epoch_begin(self, epoch: int, logs: Any = None) -> None:
            calls.append(["epoch_begin", epoch, self._lr(), logs_(logs)])

        def on_epoch_end(self, epoch: int, logs: Any = None) -> None:
            calls.append(["epoch_end", epoch, self._lr(), logs_(logs)])

        def on_train_begin(self, logs: Any = None) -> None:
            calls.append(["train_begin", logs_(logs)])

        def on_train_end(self, logs: Any = None) -> None:
            calls.append(["train_end", logs_(logs)])

        def on_test_begin(self, logs: Any = None) -> None:
            calls.append(["test_begin", logs_(logs)])

        def on_test_end(self, logs: Any = None) -> None:
            calls.append(["test_end", logs_(logs)])

        def on_predict_begin(self, logs: Any = None) -> None:
            calls.append(["predict_begin", logs_(logs)])

        def on_predict_end(self, logs: Any = None) -> None:
            calls.append(["predict_end", logs_(logs)])

    if batches:
        for hook in ("train_batch_begin", "train_batch_end", "test_batch_begin", "test_batch_end",
                     "predict_batch_begin", "predict_batch_end"):
            setattr(Recorder, f"on_{hook}", (lambda h: lambda self, batch, logs=None: calls.append(
                [h, batch, logs_(logs)]))(hook))
    return Recorder()


def _hist(h: Any) -> Any:
    return {"history": {k: [v(e) for e in h.history[k]] for k in sorted(h.history)}, "epoch": list(h.epoch),
            "params": plain(h.params)}


def _sched(keras: Any) -> Any:
    return keras.callbacks.LearningRateScheduler(lambda epoch: LR_TABLE[epoch % len(LR_TABLE)])


def _files(path: str) -> list[str]:
    return sorted(os.listdir(path)) if os.path.isdir(path) else []


def _progbar(text: str) -> list[str]:
    """The printed text as a terminal keeps it, timings masked."""
    return [_TIMING.sub("T", line.split("\r")[-1]).rstrip() for line in text.split("\n")]


def _tmp() -> Any:
    return tempfile.TemporaryDirectory(prefix="csweep56_")


# -- 1. fit / evaluate / predict: the logs every hook receives --------------------------------------------------------
FIT_CASES: dict[str, dict[str, Any]] = {
    "plain": dict(epochs=3, batch_size=4),
    "validation-data": dict(epochs=2, batch_size=4, validation="data"),
    "validation-split": dict(epochs=2, batch_size=3, validation_split=0.3),
    "validation-freq": dict(epochs=3, batch_size=5, validation="data", validation_freq=2),
    "initial-epoch": dict(epochs=4, initial_epoch=2, batch_size=4),
    "steps-per-epoch": dict(epochs=2, steps_per_epoch=3, dataset=True),
    "sample-weight": dict(epochs=2, batch_size=4, sample_weight=True, validation="weighted"),
    "class-weight": dict(epochs=2, batch_size=4, classes=True),
    "adam": dict(epochs=2, batch_size=6, opt="adam"),
    "no-metrics": dict(epochs=2, batch_size=10, metrics=()),
}


def _fit_program(case: str) -> Callable[[Any, Any], Any]:
    c = FIT_CASES[case]

    def prog(tf: Any, mk: Any) -> Any:
        keras = tf.keras
        name = f"fit/{case}"
        x, y = _data(name)
        opt = keras.optimizers.Adam(0.01) if c.get("opt") == "adam" else keras.optimizers.SGD(0.05, momentum=0.5)
        if c.get("classes"):
            model = keras.Sequential([keras.Input((4,)), keras.layers.Dense(3, name="cs_logits")], name="cs_cls")
            model.compile(optimizer=opt, loss=keras.losses.SparseCategoricalCrossentropy(from_logits=True),
                          metrics=["accuracy"])
            r = rng("weights/" + name)
            model.set_weights([r.uniform(-0.8, 0.8, w.shape).astype(np.float32) for w in model.get_weights()])
            y = (np.arange(10) % 3).astype(np.int32)
        else:
            model = _model(keras, name, opt, c.get("metrics", ("mae",)))
        calls: list = []
        kw: dict[str, Any] = dict(epochs=c["epochs"], verbose=0, shuffle=False,
                                  callbacks=[_recorder(keras, calls)])
        for k in ("initial_epoch", "validation_split", "validation_freq", "steps_per_epoch"):
            if k in c:
                kw[k] = c[k]
        if c.get("validation") == "data":
            kw["validation_data"] = (x[:5], y[:5])
        if c.get("validation") == "weighted":
            kw["validation_data"] = (x[:5], y[:5], np.linspace(0.0, 2.0, 5).astype(np.float32))
        if c.get("sample_weight"):
            kw["sample_weight"] = (np.arange(10) % 4 * 0.5).astype(np.float32)
        if c.get("classes"):
            kw["class_weight"] = {0: 1.0, 1: 2.5, 2: 0.25}
        if c.get("dataset"):
            ds = tf.data.Dataset.from_tensor_slices((x, y)).batch(3).repeat()
            h = model.fit(ds, **kw)
        else:
            h = model.fit(x, y, batch_size=c.get("batch_size"), **kw)
        out = {"fit": _hist(h), "calls": calls, "weights": _weights(model),
               "iterations": v(model.optimizer.iterations)}
        calls2: list = []
        out["evaluate"] = error(lambda: v(model.evaluate(x, y, batch_size=4, verbose=0,
                                                         callbacks=[_recorder(keras, calls2)])))
        out["evaluate dict"] = error(lambda: logs_(model.evaluate(x, y, batch_size=3, verbose=0, return_dict=True)))
        out["evaluate calls"] = calls2
        calls3: list = []
        out["predict"] = error(lambda: v(model.predict(x, batch_size=4, verbose=0,
                                                       callbacks=[_recorder(keras, calls3)])))
        out["predict calls"] = calls3
        return out
    return prog


for _c in FIT_CASES:
    REF.add(f"cs-fit-{_c}", _fit_program(_c))


# -- 2. the progress bar: verbose 1 and 2 of fit, evaluate and predict -------------------------------------------------
PROGBAR_CASES: dict[str, dict[str, Any]] = {
    "v1-steps3": dict(verbose=1, n=10, batch=4),
    "v2-steps3": dict(verbose=2, n=10, batch=4),
    "v1-steps10": dict(verbose=1, n=20, batch=2),
    "v2-steps10-val": dict(verbose=2, n=20, batch=2, val=True),
    "v1-steps1-val": dict(verbose=1, n=6, batch=6, val=True),
    "v1-cosine": dict(verbose=1, n=6, batch=3, loss="cosine_similarity", target=1.5),
    "v1-negative": dict(verbose=1, n=9, batch=1, loss="mean_error", target=0.3),
    "v2-negative": dict(verbose=2, n=6, batch=2, loss="mean_error", target=0.3),
    "v1-tiny-negative": dict(verbose=1, n=6, batch=2, loss="mean_error", target=0.3, scale=1e-3),
    "v1-tiny": dict(verbose=1, n=6, batch=6, scale=1e-3),
    "v2-tiny": dict(verbose=2, n=6, batch=3, scale=1e-3),
    "v1-huge": dict(verbose=1, n=4, batch=4, scale=1e4),
}


def _printed(text: str) -> list[str]:
    """verbose=1 redraws a bar in place (backspaces and a carriage return) when its wall-clock interval has passed:
    each bar's first drawing and its last are kept (the ones between depend on the clock), timings masked."""
    out: list[str] = []
    for line in text.split("\n"):
        draws = [d.replace("\b", "") for d in line.split("\r")]
        draws = [d for d in draws if d] or [""]
        for d in ([draws[0], draws[-1]] if len(draws) > 1 else draws):
            d = _TIMING.sub("T", d).rstrip()
            if not out or d != out[-1]:
                out.append(d)
    return out


def _progbar_program(case: str) -> Callable[[Any, Any], Any]:
    c = PROGBAR_CASES[case]

    def prog(tf: Any, mk: Any) -> Any:
        keras = tf.keras
        name = f"progbar/{case}"
        x, y = _data(name, c["n"])
        scale = np.float32(c.get("scale", 1.0))
        loss: Any = c.get("loss", "mse")
        if loss == "mean_error":   # (a loss that is negative when predictions fall short)
            loss = lambda y_true, y_pred: keras.ops.mean(y_pred - y_true, axis=-1)  # noqa: E731
        model = _model(keras, name, keras.optimizers.SGD(1e-5 if c.get("loss") == "mean_error" else 0.05), loss=loss)
        model.set_weights([w * scale if i == 2 else w for i, w in enumerate(model.get_weights())])
        if "target" in c:   # targets from the model's own predictions: a loss of a known sign
            p = np.asarray(model.predict(x, verbose=0))
            y = p * np.float32(c["target"]) if c["loss"] == "cosine_similarity" else p + scale * np.float32(c["target"])
        else:
            y = y * scale
        out: dict[str, Any] = {}
        buf = io.StringIO()
        with contextlib.redirect_stdout(buf):
            h = model.fit(x, y, epochs=2, batch_size=c["batch"], verbose=c["verbose"], shuffle=False,
                          validation_data=(x, y) if c.get("val") else None)
        out["fit"] = _printed(buf.getvalue())
        out["history"] = _hist(h)["history"]
        for what, fn in (("evaluate", lambda: model.evaluate(x, y, batch_size=c["batch"], verbose=c["verbose"])),
                         ("predict", lambda: model.predict(x, batch_size=c["batch"], verbose=c["verbose"]))):
            buf = io.StringIO()
            with contextlib.redirect_stdout(buf):
                out[f"{what} value"] = v(fn())
            out[what] = _printed(buf.getvalue())
        return out
    return prog


for _c in PROGBAR_CASES:
    REF.add(f"cs-progbar-{_c}", _progbar_program(_c))


# -- 3. EarlyStopping / ReduceLROnPlateau / LearningRateScheduler: each option off its default -------------------------
ES_CASES: dict[str, dict[str, Any]] = {
    "default": {},
    "monitor-loss-p1": dict(monitor="loss", patience=1),
    "val-mae-max": dict(monitor="val_mae", mode="max", patience=1),
    "min-delta": dict(monitor="val_loss", min_delta=0.01, patience=1),
    "min-delta-neg-max": dict(monitor="val_loss", min_delta=-0.01, mode="max", patience=0),
    "patience2": dict(patience=2),
    "baseline": dict(baseline=0.05, patience=1),
    "baseline-met": dict(baseline=10.0, patience=1),
    "restore": dict(patience=1, restore_best_weights=True),
    "restore-baseline": dict(patience=1, restore_best_weights=True, baseline=0.01),
    "start2": dict(patience=0, start_from_epoch=2),
    "start4-restore": dict(patience=1, start_from_epoch=4, restore_best_weights=True),
    "auto-acc": dict(monitor="val_mae", patience=1, mode="auto"),
    "unknown-monitor": dict(monitor="val_nope", patience=0),
    "verbose": dict(patience=1, verbose=1, restore_best_weights=True),
}


def _es_program(case: str) -> Callable[[Any, Any], Any]:
    kw = ES_CASES[case]

    def prog(tf: Any, mk: Any) -> Any:
        keras = tf.keras
        x, y = _data("es")
        model = _model(keras, "es")
        cb = error(lambda: keras.callbacks.EarlyStopping(**kw))
        if isinstance(cb, str):
            return {"make": cb}
        calls: list = []
        buf = io.StringIO()
        with contextlib.redirect_stdout(buf):
            h = error(lambda: model.fit(x, y, epochs=10, batch_size=5, verbose=0, shuffle=False,
                                        validation_data=(x[:5], y[:5]),
                                        callbacks=[_sched(keras), cb, _recorder(keras, calls, batches=False)]))
        out = {"printed": _progbar(buf.getvalue()), "calls": calls, "weights": _weights(model)}
        out["fit"] = _hist(h) if not isinstance(h, str) else h
        out["state"] = {k: v(getattr(cb, k, None)) for k in ("stopped_epoch", "wait", "best", "best_epoch",
                                                              "baseline", "min_delta", "mode", "patience",
                                                              "monitor", "start_from_epoch",
                                                              "restore_best_weights")}
        return out
    return prog


for _c in ES_CASES:
    REF.add(f"cs-es-{_c}", _es_program(_c))

RLR_CASES: dict[str, dict[str, Any]] = {
    "default": dict(patience=1),
    "factor-cooldown": dict(factor=0.5, patience=1, cooldown=2),
    "min-lr": dict(factor=0.1, patience=0, min_lr=0.002),
    "min-delta": dict(patience=1, min_delta=0.05),
    "mode-max": dict(monitor="val_loss", mode="max", patience=0, factor=0.3),
    "monitor-loss": dict(monitor="loss", patience=0, factor=0.25, min_delta=0.0),
    "unknown-monitor": dict(monitor="nope", patience=0),
    "bad-factor": dict(factor=1.5),
    "verbose": dict(patience=0, verbose=1, factor=0.5),
}


def _rlr_program(case: str) -> Callable[[Any, Any], Any]:
    kw = RLR_CASES[case]

    def prog(tf: Any, mk: Any) -> Any:
        keras = tf.keras
        x, y = _data("rlr")
        model = _model(keras, "rlr", keras.optimizers.SGD(0.9))
        cb = error(lambda: keras.callbacks.ReduceLROnPlateau(**kw))
        if isinstance(cb, str):
            return {"make": cb}
        calls: list = []
        buf = io.StringIO()
        with contextlib.redirect_stdout(buf):
            h = error(lambda: model.fit(x, y, epochs=8, batch_size=5, verbose=0, shuffle=False,
                                        validation_data=(x[:5], y[:5]),
                                        callbacks=[cb, _recorder(keras, calls, batches=False)]))
        return {"printed": _progbar(buf.getvalue()), "calls": calls, "weights": _weights(model),
                "fit": _hist(h) if not isinstance(h, str) else h,
                "state": {k: v(getattr(cb, k, None)) for k in ("wait", "best", "cooldown_counter", "min_lr",
                                                               "factor", "min_delta", "patience", "cooldown",
                                                               "mode", "monitor")}}
    return prog


for _c in RLR_CASES:
    REF.add(f"cs-rlr-{_c}", _rlr_program(_c))

SCHED_CASES: dict[str, Any] = {
    "one-arg": lambda epoch: 0.1 / (epoch + 1),
    "two-arg": lambda epoch, lr: lr * 0.5 if epoch % 2 else lr + 0.0625,
    "numpy": lambda epoch: np.float64(0.03) * epoch,
    "tensor": lambda epoch, lr: lr * 0.75,
    "int": lambda epoch: epoch,
    "string": lambda epoch: "0.1",
}


def _sched_program(case: str, initial: int, verbose: int) -> Callable[[Any, Any], Any]:
    def prog(tf: Any, mk: Any) -> Any:
        keras = tf.keras
        x, y = _data("sched")
        model = _model(keras, "sched", keras.optimizers.SGD(0.125))
        fn = SCHED_CASES[case]
        if case == "tensor":
            fn = (lambda epoch, lr: tf.constant(lr, tf.float32) * 0.75)
        cb = keras.callbacks.LearningRateScheduler(fn, verbose=verbose)
        calls: list = []
        buf = io.StringIO()
        with contextlib.redirect_stdout(buf):
            h = error(lambda: model.fit(x, y, epochs=initial + 3, initial_epoch=initial, batch_size=5, verbose=0,
                                        shuffle=False, callbacks=[cb, _recorder(keras, calls, batches=False)]))
        return {"printed": _progbar(buf.getvalue()), "calls": calls, "weights": _weights(model),
                "fit": _hist(h) if not isinstance(h, str) else h, "lr": v(model.optimizer.learning_rate)}
    return prog


for _c in SCHED_CASES:
    REF.add(f"cs-sched-{_c}", _sched_program(_c, 0, 0))
REF.add("cs-sched-one-arg-initial2-verbose", _sched_program("one-arg", 2, 1))
REF.add("cs-sched-two-arg-initial1-verbose", _sched_program("two-arg", 1, 1))


# -- 4. ModelCheckpoint / CSVLogger / BackupAndRestore: the files after each epoch and their contents -----------------
CKPT_CASES: dict[str, dict[str, Any]] = {
    "weights-every": dict(file="cs-{epoch:02d}.weights.h5", save_weights_only=True),
    "weights-best": dict(file="cs-best.weights.h5", save_weights_only=True, save_best_only=True),
    "weights-best-template": dict(file="cs-{epoch}-{val_loss:.4f}.weights.h5", save_weights_only=True,
                                  save_best_only=True),
    "keras-every": dict(file="cs-{epoch:03d}.keras"),
    "keras-best-max": dict(file="cs-best.keras", save_best_only=True, mode="max", monitor="val_mae"),
    "keras-loss-template": dict(file="cs-{epoch:02d}-{loss:.3e}.keras", monitor="loss"),
    "freq2-batches": dict(file="cs-{epoch}-{batch}.weights.h5", save_weights_only=True, save_freq=2),
    "freq3-best": dict(file="cs-f.weights.h5", save_weights_only=True, save_freq=3, save_best_only=True,
                       monitor="loss"),
    "initial-value": dict(file="cs-iv.weights.h5", save_weights_only=True, save_best_only=True,
                          initial_value_threshold=0.05),
    "bad-suffix": dict(file="cs-{epoch}.h5", save_weights_only=True),
    "bad-suffix-model": dict(file="cs-{epoch}.ckpt"),
    "missing-key": dict(file="cs-{epoch}-{nope:.2f}.weights.h5", save_weights_only=True),
}


def _ckpt_program(case: str) -> Callable[[Any, Any], Any]:
    c = dict(CKPT_CASES[case])

    def prog(tf: Any, mk: Any) -> Any:
        keras = tf.keras
        x, y = _data("ckpt")
        model = _model(keras, "ckpt")
        with _tmp() as d:
            kw = {k: c[k] for k in c if k != "file"}
            try:
                cb = keras.callbacks.ModelCheckpoint(os.path.join(d, c["file"]), **kw)
            except ValueError as e:   # (the message names the path: the tmp dir left out)
                return {"make": str(e).replace(d, "<tmp>")}
            seen: list = []
            after = keras.callbacks.LambdaCallback(
                on_epoch_end=lambda e, logs: seen.append([e, _files(d)]))
            h = error(lambda: model.fit(x, y, epochs=5, batch_size=3, verbose=0, shuffle=False,
                                        validation_data=(x[:5], y[:5]), callbacks=[_sched(keras), cb, after]))
            out: dict[str, Any] = {"files per epoch": seen, "files": _files(d), "best": v(getattr(cb, "best", None)),
                                   "fit": _hist(h) if not isinstance(h, str) else h}
            loaded = {}
            for f in _files(d):
                full = os.path.join(d, f)
                if f.endswith(".weights.h5"):
                    fresh = _model(keras, "fresh")
                    loaded[f] = error(lambda: (fresh.load_weights(full), _weights(fresh))[1])
                elif f.endswith(".keras"):
                    m = keras.models.load_model(full)
                    loaded[f] = [_weights(m), v(m.optimizer.iterations), v(m.optimizer.learning_rate)]
            out["loaded"] = loaded
        return out
    return prog


for _c in CKPT_CASES:
    REF.add(f"cs-ckpt-{_c}", _ckpt_program(_c))


def _csv_program(sep: str, append: bool) -> Callable[[Any, Any], Any]:
    def prog(tf: Any, mk: Any) -> Any:
        keras = tf.keras
        x, y = _data("csv")
        model = _model(keras, "csv")
        with _tmp() as d:
            path = os.path.join(d, "log.csv")
            for first, val in ((0, False), (2, True)):   # a second fit on the same file, with validation
                cb = keras.callbacks.CSVLogger(path, separator=sep, append=append)
                model.fit(x, y, epochs=first + 2, initial_epoch=first, batch_size=4, verbose=0, shuffle=False,
                          validation_data=(x[:5], y[:5]) if val else None, callbacks=[_sched(keras), cb])
            with open(path, encoding="utf-8") as f:
                return {"text": f.read().split("\n"), "weights": _weights(model)}
    return prog


for _s, _sn in ((",", "comma"), (";", "semicolon"), ("\t", "tab")):
    for _a in (False, True):
        REF.add(f"cs-csv-{_sn}-append{int(_a)}", _csv_program(_s, _a))


def _nan_program(lr: float) -> Callable[[Any, Any], Any]:
    def prog(tf: Any, mk: Any) -> Any:
        keras = tf.keras
        x, y = _data("nan")
        model = _model(keras, "nan", keras.optimizers.SGD(lr))
        calls: list = []
        h = model.fit(x, y * 1e3, epochs=4, batch_size=2, verbose=0, shuffle=False,
                      callbacks=[keras.callbacks.TerminateOnNaN(), _recorder(keras, calls)])
        return {"fit": _hist(h), "calls": calls, "stop_training": bool(model.stop_training),
                "weights": _weights(model)}
    return prog


REF.add("cs-nan-diverges", _nan_program(400.0))
REF.add("cs-nan-finite", _nan_program(0.01))


def _lambda_program(tf: Any, mk: Any) -> Any:
    keras = tf.keras
    x, y = _data("lambda")
    model = _model(keras, "lambda")
    calls: list = []
    hooks = ("on_epoch_begin", "on_epoch_end", "on_train_begin", "on_train_end", "on_train_batch_begin",
             "on_train_batch_end", "on_test_begin", "on_test_end", "on_test_batch_begin", "on_test_batch_end",
             "on_predict_begin", "on_predict_end", "on_predict_batch_begin", "on_predict_batch_end")

    def hook_fn(hook: str) -> Any:
        if "epoch" in hook or "batch" in hook:
            return lambda i, logs: calls.append([hook, i, logs_(logs)])
        return lambda logs: calls.append([hook, logs_(logs)])
    cb = keras.callbacks.LambdaCallback(**{h: hook_fn(h) for h in hooks})
    h = model.fit(x, y, epochs=2, batch_size=4, verbose=0, shuffle=False, validation_split=0.2,
                  validation_batch_size=1, callbacks=[cb])
    r = model.evaluate(x, y, batch_size=6, verbose=0, callbacks=[cb], return_dict=True)
    p = model.predict(x, batch_size=7, verbose=0, callbacks=[cb])
    only = keras.callbacks.LambdaCallback(on_epoch_end=lambda e, logs: calls.append(["only", e]))
    model.fit(x, y, epochs=1, batch_size=10, verbose=0, callbacks=[only])
    return {"calls": calls, "fit": _hist(h), "evaluate": logs_(r), "predict": v(p)}


REF.add("cs-lambda-all-hooks", _lambda_program)


def _backup_program(case: str, kw: dict[str, Any], stop_at: int) -> Callable[[Any, Any], Any]:
    def prog(tf: Any, mk: Any) -> Any:
        keras = tf.keras
        x, y = _data("backup")
        out: dict[str, Any] = {}
        with _tmp() as d:
            path = os.path.join(d, "backup")
            model = _model(keras, "backup", keras.optimizers.Adam(0.02))

            class Interrupt(keras.callbacks.Callback):
                def on_epoch_begin(self, epoch: int, logs: Any = None) -> None:
                    if epoch == stop_at:
                        raise RuntimeError("interrupted")
            seen: list = []
            after = keras.callbacks.LambdaCallback(on_epoch_end=lambda e, logs: seen.append([e, _files(path)]))
            try:
                model.fit(x, y, epochs=6, batch_size=4, verbose=0, shuffle=False,
                          callbacks=[keras.callbacks.BackupAndRestore(path, **kw), after, Interrupt()])
                out["interrupted"] = False
            except RuntimeError:
                out["interrupted"] = True
            out["files per epoch"] = seen
            out["files after interrupt"] = _files(path)
            model = _model(keras, "backup2", keras.optimizers.Adam(0.02))
            calls: list = []
            h = model.fit(x, y, epochs=6, batch_size=4, verbose=0, shuffle=False,
                          callbacks=[keras.callbacks.BackupAndRestore(path, **kw),
                                     _recorder(keras, calls, batches=False)])
            out.update({"fit": _hist(h), "calls": calls, "files after resume": _files(path),
                        "iterations": v(model.optimizer.iterations), "weights": _weights(model)})
        return out
    return prog


REF.add("cs-backup-epoch", _backup_program("epoch", {}, 3))
REF.add("cs-backup-keep", _backup_program("keep", dict(delete_checkpoint=False), 2))
REF.add("cs-backup-freq2", _backup_program("freq2", dict(save_freq=2), 3))
REF.add("cs-backup-no-interrupt", _backup_program("none", {}, 99))


def _ema_program(swap_on_epoch: bool) -> Callable[[Any, Any], Any]:
    def prog(tf: Any, mk: Any) -> Any:
        keras = tf.keras
        x, y = _data("ema")
        model = _model(keras, "ema", keras.optimizers.SGD(0.1, use_ema=True, ema_momentum=0.5,
                                                          ema_overwrite_frequency=None))
        calls: list = []
        ws: list = []
        after = keras.callbacks.LambdaCallback(on_epoch_end=lambda e, logs: ws.append(_weights(model)))
        h = model.fit(x, y, epochs=3, batch_size=4, verbose=0, shuffle=False, validation_data=(x[:5], y[:5]),
                      callbacks=[keras.callbacks.SwapEMAWeights(swap_on_epoch=swap_on_epoch), after,
                                 _recorder(keras, calls, batches=False)])
        return {"fit": _hist(h), "calls": calls, "weights per epoch": ws, "weights": _weights(model),
                "evaluate": v(model.evaluate(x, y, verbose=0))}
    return prog


REF.add("cs-ema-swap-on-epoch", _ema_program(True))
REF.add("cs-ema-no-swap-on-epoch", _ema_program(False))


# -- 5. saving: .keras / .weights.h5 round trips, get_weights/set_weights ----------------------------------------------
def _opt_vars(opt: Any) -> Any:
    return [[w.name if hasattr(w, "name") else "", v(w)] for w in opt.variables]


def _saving_program(opt_name: str) -> Callable[[Any, Any], Any]:
    def prog(tf: Any, mk: Any) -> Any:
        keras = tf.keras
        x, y = _data("save")
        opts = {"sgd": lambda: keras.optimizers.SGD(0.05, momentum=0.9, nesterov=True, name="cs_opt"),
                "adam": lambda: keras.optimizers.Adam(0.01, amsgrad=True, name="cs_opt"),
                "rmsprop": lambda: keras.optimizers.RMSprop(0.01, momentum=0.5, centered=True, name="cs_opt")}
        model = _model(keras, "save", opts[opt_name](), metrics=("mae", "mse"))
        model.fit(x, y, epochs=2, batch_size=4, verbose=0, shuffle=False)
        out: dict[str, Any] = {"weights": _weights(model), "opt": _opt_vars(model.optimizer),
                               "weight names": [w.path for w in model.weights]}
        with _tmp() as d:
            path = os.path.join(d, "m.keras")
            model.save(path)
            with zipfile.ZipFile(path) as z:
                out["members"] = z.namelist()
            m = keras.models.load_model(path)
            out["loaded weights"] = _weights(m)
            out["loaded opt"] = _opt_vars(m.optimizer)
            out["loaded iterations"] = v(m.optimizer.iterations)
            out["compile config"] = plain(m.get_compile_config())
            out["loaded predict"] = v(m.predict(x, verbose=0))
            out["loaded evaluate"] = v(m.evaluate(x, y, batch_size=4, verbose=0))
            m.fit(x, y, epochs=1, batch_size=4, verbose=0, shuffle=False)
            model.fit(x, y, epochs=1, batch_size=4, verbose=0, shuffle=False)
            out["continued"] = [_weights(m), _weights(model)]
            wpath = os.path.join(d, "w.weights.h5")
            model.save_weights(wpath)
            fresh = _model(keras, "fresh", opts[opt_name](), metrics=("mae", "mse"))
            fresh.optimizer.build(fresh.trainable_variables)
            out["load_weights"] = error(lambda: fresh.load_weights(wpath) or "ok")
            out["after load_weights"] = [_weights(fresh), _opt_vars(fresh.optimizer)]
            unbuilt = _model(keras, "unbuilt", opts[opt_name](), metrics=("mae",))
            out["load_weights unbuilt opt"] = error(lambda: unbuilt.load_weights(wpath) or "ok")
            out["after unbuilt"] = [_weights(unbuilt), _opt_vars(unbuilt.optimizer)]
            out["save bad suffix"] = error(lambda: model.save_weights(os.path.join(d, "w.h5")))
            out["save keras bad suffix"] = error(lambda: model.save(os.path.join(d, "m.zip")))
        return out
    return prog


for _o in ("sgd", "adam", "rmsprop"):
    REF.add(f"cs-save-{_o}", _saving_program(_o))


def _h5_tree(path: str) -> Any:
    """A weights file's HDF5 tree: each group's and dataset's name (datasets with their shape), in visit order."""
    import h5py
    out: list[Any] = []
    with h5py.File(path, "r") as h5:
        h5.visititems(lambda n, o: out.append([n, list(o.shape)] if isinstance(o, h5py.Dataset) else n))
    return out


def _zip_tree(path: str, d: str) -> Any:
    """A .keras archive's members and the HDF5 tree of its model.weights.h5."""
    with zipfile.ZipFile(path) as z:
        names = z.namelist()
        z.extract("model.weights.h5", os.path.join(d, "x"))
    return [names, _h5_tree(os.path.join(d, "x", "model.weights.h5"))]


def _nested_model(keras: Any, name: str) -> Any:
    """A functional model holding a Sequential and a Dense layer applied twice (shared), compiled with Adam."""
    inner = keras.Sequential([keras.Input((4,)), keras.layers.Dense(3, name="cs_in1"),
                              keras.layers.Dense(4, name="cs_in2")], name="cs_inner")
    shared = keras.layers.Dense(4, name="cs_shared")
    x = keras.Input((4,), name="cs_x")
    out = keras.layers.Dense(2, name="cs_head")(shared(shared(inner(x))))
    model = keras.Model(x, out, name="cs_outer")
    model.compile(optimizer=keras.optimizers.Adam(0.01, name="cs_opt"), loss="mse")
    r = rng("weights/" + name)
    model.set_weights([r.uniform(-0.5, 0.5, w.shape).astype(np.float32) for w in model.get_weights()])
    return model


def _files_tree_program(tf: Any, mk: Any) -> Any:
    keras = tf.keras
    x, y = _data("tree")
    out: dict[str, Any] = {}
    with _tmp() as d:
        for kind in ("sequential", "nested"):
            model = _model(keras, "tree", keras.optimizers.SGD(0.05, momentum=0.5, name="cs_opt")) \
                if kind == "sequential" else _nested_model(keras, "tree")
            o: dict[str, Any] = {"unbuilt weights file": None}
            w0 = os.path.join(d, f"{kind}0.weights.h5")
            model.save_weights(w0)
            o["unbuilt weights file"] = _h5_tree(w0)
            model.fit(x, y, epochs=1, batch_size=5, verbose=0, shuffle=False)
            wpath, kpath = os.path.join(d, f"{kind}.weights.h5"), os.path.join(d, f"{kind}.keras")
            model.save_weights(wpath)
            model.save(kpath)
            o["weights file"] = _h5_tree(wpath)
            o["keras file"] = _zip_tree(kpath, d)
            fresh = _model(keras, "fresh", keras.optimizers.SGD(0.05, momentum=0.5, name="cs_opt")) \
                if kind == "sequential" else _nested_model(keras, "fresh")
            fresh.optimizer.build(fresh.trainable_variables)
            o["load_weights"] = _msg(lambda: fresh.load_weights(wpath))
            o["loaded"] = [_weights(fresh), _opt_vars(fresh.optimizer)]
            m = keras.models.load_model(kpath)
            o["load_model"] = [_weights(m), _opt_vars(m.optimizer), [w.path for w in m.weights]]
            out[kind] = o
    return out


REF.add("cs-save-files-tree", _files_tree_program)


def _inner(got: Any) -> Any:
    """A failed load_weights' class and the example object's error inside its message (the message's frame is OPEN)."""
    if isinstance(got, list) and "\n\nList of objects" in got[1]:
        return [got[0], got[1].split(":\n\n", 1)[1].split("\n\nList of objects")[0]]
    return got


def _load_options_program(tf: Any, mk: Any) -> Any:
    """load_model(compile=False), load_weights of a file whose layers hold other variable counts and shapes (both
    ways), and a layer keeping its sublayers in a dict and a list (saved and loaded back)."""
    keras = tf.keras
    x, y = _data("loadopts")
    out: dict[str, Any] = {}

    class Parts(keras.layers.Layer):
        def __init__(self, **kw: Any) -> None:
            super().__init__(**kw)
            self.by_name = {"b": keras.layers.Dense(3, name="cs_pb"), "a": keras.layers.Dense(3, name="cs_pa")}
            self.in_list = [keras.layers.Dense(2, name="cs_pl0"), keras.layers.Dense(2, name="cs_pl1")]

        def call(self, t: Any) -> Any:
            return self.in_list[1](self.in_list[0](self.by_name["a"](t) - self.by_name["b"](t)))

    def parts_model(seed: str) -> Any:
        m = keras.Sequential([keras.Input((4,)), Parts(name="cs_parts")], name="cs_pm")
        r = rng(seed)
        m.set_weights([r.uniform(-0.5, 0.5, w.shape).astype(np.float32) for w in m.get_weights()])
        return m

    def bias_model(use_bias: bool, units: int = 3) -> Any:
        m = keras.Sequential([keras.Input((4,)), keras.layers.Dense(units, use_bias=use_bias, name="cs_b")],
                             name="cs_bm")
        r = rng(f"bias/{use_bias}/{units}")
        m.set_weights([r.uniform(-0.5, 0.5, w.shape).astype(np.float32) for w in m.get_weights()])
        return m
    with _tmp() as d:
        model = _model(keras, "loadopts", keras.optimizers.Adam(0.01, name="cs_opt"))
        model.fit(x, y, epochs=1, batch_size=5, verbose=0, shuffle=False)
        path = os.path.join(d, "m.keras")
        model.save(path)
        m = keras.models.load_model(path, compile=False)
        out["compile=False"] = [v(getattr(m, "compiled", None)), error(lambda: m.optimizer is None), _weights(m),
                                _msg(lambda: m.evaluate(x, y, verbose=0))]
        for a, b in ((True, False), (False, True), ((True, 3), (True, 5))):
            src = bias_model(*a) if isinstance(a, tuple) else bias_model(a)
            dst = bias_model(*b) if isinstance(b, tuple) else bias_model(b)
            w = os.path.join(d, "b.weights.h5")
            src.save_weights(w)
            out[f"load {a} into {b}"] = [_inner(_msg(lambda: dst.load_weights(w))), _weights(dst)]
        pm = parts_model("parts")
        w = os.path.join(d, "p.weights.h5")
        pm.save_weights(w)
        out["parts tree"] = _h5_tree(w)
        fresh = parts_model("fresh parts")
        out["parts load"] = [_msg(lambda: fresh.load_weights(w)), _weights(fresh)]
        return json.loads(json.dumps(out).replace(d, "<tmp>"))   # (messages name the file)


REF.add("cs-save-load-options", _load_options_program)


def _msg(fn: Callable[[], Any]) -> Any:
    try:
        fn()
        return "ok"
    except Exception as e:  # noqa: BLE001 - the class and message are the observation
        return [type(e).__name__, str(e)]


def _set_weights_program(tf: Any, mk: Any) -> Any:
    keras = tf.keras
    inp = keras.Input((3,), name="cs_in", dtype="int32")
    e = keras.layers.Embedding(7, 2, name="cs_emb")(inp)
    f = keras.layers.Flatten(name="cs_flat")(e)
    o = keras.layers.Dense(2, name="cs_dense")(f)
    model = keras.Model(inp, o, name="cs_fn")
    out: dict[str, Any] = {"names": [w.path for w in model.weights],
                           "shapes": [list(w.shape) for w in model.get_weights()]}
    ws = [rng(f"sw/{i}").uniform(-1, 1, w.shape).astype(np.float32) for i, w in enumerate(model.get_weights())]
    model.set_weights(ws)
    out["after"] = _weights(model)
    out["too few"] = _msg(lambda: model.set_weights(ws[:2]))
    out["too many"] = _msg(lambda: model.set_weights(ws + [ws[0]]))
    out["wrong shape"] = _msg(lambda: model.set_weights([ws[0].T] + ws[1:]))
    out["wrong shape same size"] = _msg(lambda: model.set_weights([ws[0], ws[1].reshape(4, 3)] + ws[2:]))
    out["layer too few"] = _msg(lambda: model.get_layer("cs_dense").set_weights(ws[1:2]))
    out["layer wrong shape"] = _msg(lambda: model.get_layer("cs_dense").set_weights([ws[1][:5], ws[2]]))
    out["layer float64"] = _msg(lambda: model.get_layer("cs_emb").set_weights([ws[0].astype(np.float64)]))
    out["after errors"] = _weights(model)
    out["predict"] = v(model.predict(np.array([[0, 6, 3], [1, 1, 2]], np.int32), verbose=0))
    return out


REF.add("cs-weights-order-and-errors", _set_weights_program)
