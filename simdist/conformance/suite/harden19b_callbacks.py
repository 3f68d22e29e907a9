"""What ``test_harden19_callbacks.py`` observes of Keras's built-in callbacks in fit, over option
grids, as plain JSON values: run on the backend under test by the suite and on real TF 2.21 +
Keras 3.15 by the recorder (``python -m simdist.conformance.suite.harden19b_record``).

The loss is scripted: one weight w (Dense(1, use_bias=False), w = 1 at the start), x = 1, y = 0
and mean squared error, so a step's loss is w**2 and SGD(lr) makes w <- w (1 - 2 lr) exactly in
float32: lr 1.0 holds the loss (a plateau), lr below 0.5 lowers it, lr above 1.0 raises it. A
per-epoch lr table (LearningRateScheduler) writes the loss sequence EarlyStopping watches;
ReduceLROnPlateau starts from lr 1.2 (a growing loss) and its own reductions decide the rest.
Every decision (when training stops, each epoch's lr, the weights restored, the files written
and their contents) is therefore exact on both backends. Nothing here imports TensorFlow.
"""

from __future__ import annotations

import contextlib
import io
import itertools
import math
import os
import re
from typing import Any

import numpy as np

from simdist.conformance.suite.harden16_observe import plain

#: The per-epoch learning rates of the scripted loss (losses 1, .25, .25, .249, .249, .0896, ...:
#: drops, plateaus, a tiny drop below min_delta, a rise).
LR_TABLE = (0.25, 1.0, 0.001, 1.0, 0.2, 1.0, 1.0, 1.02, 1.0, 0.001, 1.0, 1.0, 1.0, 0.1, 1.0)


def _es_cases() -> dict[str, dict[str, Any]]:
    """EarlyStopping: every monitor/mode pair crossed with patience, each with a rotating choice of
    min_delta, baseline, restore_best_weights and start_from_epoch (a fixed covering, no draw)."""
    pairs = [("loss", "auto"), ("loss", "min"), ("loss", "max"), ("val_loss", "auto"), ("mae", "min"),
             ("val_mae", "auto")]
    deltas, baselines = (0.0, 0.001, 0.05), (None, 0.3, 0.2)
    out = {}
    for i, ((monitor, mode), patience) in enumerate(itertools.product(pairs, (0, 1, 2, 3))):
        kw = dict(monitor=monitor, mode=mode, patience=patience, min_delta=deltas[i % 3],
                  baseline=baselines[(i // 3) % 3], restore_best_weights=bool(i % 2),
                  start_from_epoch=(0, 0, 3, 5)[(i // 2) % 4])
        out[f"es{i:02d}"] = {"kind": "early_stopping", "kw": kw}
    return out


def _rlr_cases() -> dict[str, dict[str, Any]]:
    """ReduceLROnPlateau: factor x patience x cooldown, rotating min_lr, min_delta, mode, monitor."""
    out = {}
    for i, (factor, patience, cooldown) in enumerate(itertools.product((0.5, 0.9), (0, 1, 2), (0, 1, 2))):
        kw = dict(factor=factor, patience=patience, cooldown=cooldown, min_lr=(0.0, 0.95, 0.0001)[i % 3],
                  min_delta=(0.0001, 0.5, 0.0)[(i // 3) % 3], mode=("auto", "min", "max")[(i // 2) % 3],
                  monitor=("loss", "val_loss")[i % 2])
        out[f"rlr{i:02d}"] = {"kind": "reduce_lr", "kw": kw}
    return out


CALLBACK_CASES: dict[str, dict[str, Any]] = {
    **_es_cases(),
    **_rlr_cases(),
    "lrs_two_args_verbose": {"kind": "scheduler", "kw": dict(verbose=1), "two_args": True},
    "lrs_one_arg": {"kind": "scheduler", "kw": dict(verbose=0), "two_args": False},
    "lrs_one_arg_verbose_initial2": {"kind": "scheduler", "kw": dict(verbose=1), "two_args": False,
                                     "initial_epoch": 2},
    "mc_every_epoch_weights": {"kind": "checkpoint", "file": "w{epoch:02d}.weights.h5",
                               "kw": dict(save_weights_only=True, monitor="loss")},
    "mc_loss_in_name_keras": {"kind": "checkpoint", "file": "m-{epoch}-{loss:.4f}.keras", "kw": dict(monitor="loss")},
    "mc_best_min": {"kind": "checkpoint", "file": "best-{epoch:03d}.weights.h5",
                    "kw": dict(save_best_only=True, save_weights_only=True, monitor="loss", mode="min")},
    "mc_best_max": {"kind": "checkpoint", "file": "best-{epoch}.weights.h5",
                    "kw": dict(save_best_only=True, save_weights_only=True, monitor="loss", mode="max")},
    "mc_best_one_file": {"kind": "checkpoint", "file": "best.weights.h5",
                         "kw": dict(save_best_only=True, save_weights_only=True, monitor="val_loss")},
    "mc_best_keras_auto_mae": {"kind": "checkpoint", "file": "b{epoch}.keras",
                               "kw": dict(save_best_only=True, monitor="mae")},
    "mc_freq3_batches": {"kind": "checkpoint", "file": "f{epoch}-{batch}.weights.h5", "batch_size": 1,
                         "kw": dict(save_weights_only=True, save_freq=3, monitor="loss")},
    "mc_freq2_best": {"kind": "checkpoint", "file": "g{epoch}-{batch}.weights.h5", "batch_size": 2,
                      "kw": dict(save_weights_only=True, save_freq=2, save_best_only=True, monitor="loss")},
    "mc_threshold": {"kind": "checkpoint", "file": "t{epoch}.weights.h5",
                     "kw": dict(save_weights_only=True, save_best_only=True, monitor="loss",
                                initial_value_threshold=0.2)},
    "csv_comma": {"kind": "csv", "kw": dict(separator=",", append=False)},
    "csv_semicolon_append": {"kind": "csv", "kw": dict(separator=";", append=True)},
    "csv_tab_overwrite": {"kind": "csv", "kw": dict(separator="\t", append=False)},
    "csv_validation_append": {"kind": "csv", "kw": dict(separator=",", append=True), "validation": True},
    "nan_batches": {"kind": "nan", "lr": 1e19, "batch_size": 2},
    "nan_epochs": {"kind": "nan", "lr": 1e19, "batch_size": 4},
    "nan_none": {"kind": "nan", "lr": 0.25, "batch_size": 2},
    "backup_epoch": {"kind": "backup", "kw": dict(save_freq="epoch"), "stop_at": 2},
    "backup_epoch_keep": {"kind": "backup", "kw": dict(save_freq="epoch", delete_checkpoint=False), "stop_at": 3},
    "backup_freq1": {"kind": "backup", "kw": dict(save_freq=1), "stop_at": 2, "batch_size": 2},
    "backup_freq3": {"kind": "backup", "kw": dict(save_freq=3), "stop_at": 3, "batch_size": 2},
    "backup_double": {"kind": "backup", "kw": dict(save_freq="epoch", double_checkpoint=True,
                                                   delete_checkpoint=False), "stop_at": 2},
    "lambda_every_hook": {"kind": "lambda"},
    "history_validation": {"kind": "history", "validation": True, "epochs": 4},
    "history_initial_epoch": {"kind": "history", "initial_epoch": 2, "epochs": 5},
    "progbar_verbose2": {"kind": "progbar", "verbose": 2},
    "progbar_verbose1": {"kind": "progbar", "verbose": 1},
}


def case_tables_hash() -> str:
    """The SHA-256 of the tables (a recording made from other tables is stale)."""
    import hashlib  # noqa: PLC0415

    return hashlib.sha256(repr((LR_TABLE, sorted(CALLBACK_CASES.items()))).encode()).hexdigest()


def exact(value: Any) -> Any:
    """`plain(value)`, with floats that are not finite as strings ("nan", "inf", "-inf")."""
    v = plain(value)

    def fix(x: Any) -> Any:
        if isinstance(x, dict):
            return {k: fix(e) for k, e in x.items()}
        if isinstance(x, list):
            return [fix(e) for e in x]
        if isinstance(x, float) and not math.isfinite(x):
            return str(x)
        return x
    return fix(v)


def _model(keras: Any, lr: float) -> Any:
    model = keras.Sequential([keras.Input((1,)), keras.layers.Dense(1, use_bias=False, name="w")], name="scripted")
    model.compile(optimizer=keras.optimizers.SGD(lr), loss="mse", metrics=["mae"])
    model.set_weights([np.ones((1, 1), np.float32)])
    return model


def _data(n: int = 4) -> tuple[np.ndarray, np.ndarray]:
    return np.ones((n, 1), np.float32), np.zeros((n, 1), np.float32)


def _lr_recorder(keras: Any, seen: list) -> Any:
    """A callback keeping (epoch, lr at the epoch's begin, w at its end) and each epoch's logs keys."""

    class LrSeen(keras.callbacks.Callback):
        def on_epoch_begin(self, epoch: int, logs: Any = None) -> None:
            seen.append(["begin", epoch, float(np.asarray(self.model.optimizer.learning_rate))])

        def on_epoch_end(self, epoch: int, logs: Any = None) -> None:
            seen.append(["end", epoch, float(np.asarray(self.model.get_weights()[0]).reshape(()))])
    return LrSeen()


def _files(path: str) -> list[str]:
    return sorted(os.listdir(path)) if os.path.isdir(path) else []


def _weight(model: Any) -> Any:
    return exact(np.asarray(model.get_weights()[0]).reshape(()))


_TIMING = re.compile(r"\d+(\.\d+)?(ms|s|us)(/step)?")


def _normalize_progbar(text: str) -> list[str]:
    """Progress-bar text without its timings and carriage-return redraws (the lines as a terminal
    would keep them)."""
    out = []
    for line in text.split("\n"):
        line = line.split("\r")[-1]
        out.append(_TIMING.sub("T", line).rstrip())
    return out


def observe_callback(tf: Any, name: str, tmp: str) -> dict[str, Any]:
    """fit (and, where a case needs it, a second fit, a load) with one built-in callback; what it
    decided: History, each epoch's lr and w, the callback's state, files and their contents."""
    keras = tf.keras
    case = CALLBACK_CASES[name]
    kind = case["kind"]
    x, y = _data()
    seen: list = []
    rec = _lr_recorder(keras, seen)
    out: dict[str, Any] = {}
    fit_kw: dict[str, Any] = dict(batch_size=case.get("batch_size", 4), verbose=0, shuffle=False)
    if case.get("validation"):
        fit_kw["validation_data"] = (x, y)
    if kind == "early_stopping":
        model = _model(keras, 0.25)
        cb = keras.callbacks.EarlyStopping(**case["kw"])
        sched = keras.callbacks.LearningRateScheduler(lambda epoch, lr: LR_TABLE[epoch])
        hist = model.fit(x, y, epochs=len(LR_TABLE), validation_data=(x, y), callbacks=[sched, cb, rec], **fit_kw)
        out["state"] = exact({"stopped_epoch": cb.stopped_epoch, "wait": cb.wait, "best": cb.best,
                              "best_epoch": getattr(cb, "best_epoch", None)})
    elif kind == "reduce_lr":
        model = _model(keras, 1.2)
        cb = keras.callbacks.ReduceLROnPlateau(**case["kw"])
        hist = model.fit(x, y, epochs=10, validation_data=(x, y), callbacks=[cb, rec], **fit_kw)
        out["state"] = exact({"wait": cb.wait, "best": cb.best, "cooldown_counter": cb.cooldown_counter})
    elif kind == "scheduler":
        model = _model(keras, 0.25)
        sched = (lambda epoch, lr: lr * 0.5 if epoch % 2 else lr + 0.125) if case["two_args"] else \
            (lambda epoch: 0.5 / (epoch + 1))
        cb = keras.callbacks.LearningRateScheduler(sched, **case["kw"])
        buf = io.StringIO()
        with contextlib.redirect_stdout(buf):
            hist = model.fit(x, y, epochs=5, initial_epoch=case.get("initial_epoch", 0), callbacks=[cb, rec],
                             **fit_kw)
        out["printed"] = buf.getvalue().splitlines()
    elif kind == "checkpoint":
        model = _model(keras, 0.25)
        sched = keras.callbacks.LearningRateScheduler(lambda epoch, lr: LR_TABLE[epoch])
        path = os.path.join(tmp, "ckpt")
        os.makedirs(path, exist_ok=True)
        cb = keras.callbacks.ModelCheckpoint(os.path.join(path, case["file"]), **case["kw"])
        hist = model.fit(x, y, epochs=6, validation_data=(x, y), callbacks=[sched, cb, rec], **fit_kw)
        files = _files(path)
        out["files"] = files
        loaded = {}
        for f in files:
            full = os.path.join(path, f)
            if f.endswith(".weights.h5"):
                fresh = _model(keras, 0.25)
                fresh.load_weights(full)
                loaded[f] = _weight(fresh)
            elif f.endswith(".keras"):
                m = keras.models.load_model(full)
                loaded[f] = [_weight(m), int(np.asarray(m.optimizer.iterations)),
                             float(np.asarray(m.optimizer.learning_rate))]
        out["loaded"] = loaded
        out["best"] = exact(getattr(cb, "best", None))
    elif kind == "csv":
        model = _model(keras, 0.25)
        path = os.path.join(tmp, "log.csv")
        for epochs in (2, 4):   # a second fit on the same file: appended to, or written over
            cb = keras.callbacks.CSVLogger(path, **case["kw"])
            hist = model.fit(x, y, epochs=epochs, initial_epoch=epochs - 2, callbacks=[cb, rec], **fit_kw)
        with open(path, encoding="utf-8") as f:
            out["csv"] = f.read().splitlines()
    elif kind == "nan":
        model = _model(keras, case["lr"])
        batches: list = []
        count = keras.callbacks.LambdaCallback(on_train_batch_end=lambda b, logs: batches.append(b))
        hist = model.fit(x, y, epochs=3, callbacks=[count, keras.callbacks.TerminateOnNaN(), rec], **fit_kw)
        out["batches"] = batches
        out["stop_training"] = bool(model.stop_training)
    elif kind == "backup":
        path = os.path.join(tmp, "backup")
        model = _model(keras, 0.25)
        sched = keras.callbacks.LearningRateScheduler(lambda epoch, lr: LR_TABLE[epoch])
        stop_at = case["stop_at"]

        class Interrupt(keras.callbacks.Callback):
            def on_epoch_begin(self, epoch: int, logs: Any = None) -> None:
                if epoch == stop_at:
                    raise RuntimeError("interrupted")
        try:
            model.fit(x, y, epochs=6, callbacks=[sched, keras.callbacks.BackupAndRestore(path, **case["kw"]),
                                                 Interrupt()], **fit_kw)
            out["interrupted"] = False
        except RuntimeError:
            out["interrupted"] = True
        out["files_after_interrupt"] = _files(path)
        model = _model(keras, 0.25)   # a new process's model: its state comes from the backup
        hist = model.fit(x, y, epochs=6, callbacks=[sched, keras.callbacks.BackupAndRestore(path, **case["kw"]), rec],
                         **fit_kw)
        out["files_after_resume"] = _files(path)
        out["iterations"] = int(np.asarray(model.optimizer.iterations))
    elif kind == "lambda":
        model = _model(keras, 0.25)
        calls: list = []
        hooks = ("on_epoch_begin", "on_epoch_end", "on_train_begin", "on_train_end", "on_train_batch_begin",
                 "on_train_batch_end", "on_test_begin", "on_test_end", "on_test_batch_begin", "on_test_batch_end",
                 "on_predict_begin", "on_predict_end", "on_predict_batch_begin", "on_predict_batch_end")

        def hook_fn(hook: str) -> Any:
            if hook.endswith(("_begin", "_end")) and ("epoch" in hook or "batch" in hook):
                return lambda i, logs: calls.append([hook, i, sorted(logs or {})])
            return lambda logs: calls.append([hook, None, sorted(logs or {})])
        cb = keras.callbacks.LambdaCallback(**{h: hook_fn(h) for h in hooks})
        hist = model.fit(x, y, epochs=2, batch_size=2, verbose=0, validation_data=(x[:3], y[:3]),
                         validation_batch_size=2, callbacks=[cb, rec])
        model.evaluate(x, y, batch_size=3, verbose=0, callbacks=[cb])
        model.predict(x, batch_size=4, verbose=0, callbacks=[cb])
        out["calls"] = calls
    elif kind == "history":
        model = _model(keras, 0.25)
        sched = keras.callbacks.LearningRateScheduler(lambda epoch, lr: LR_TABLE[epoch])
        hist = model.fit(x, y, epochs=case["epochs"], initial_epoch=case.get("initial_epoch", 0),
                         callbacks=[sched, rec], **fit_kw)
        out["params"] = plain(hist.params)
        out["is_model_history"] = hist is model.history
    elif kind == "progbar":
        model = _model(keras, 0.25)
        buf = io.StringIO()
        with contextlib.redirect_stdout(buf):
            hist = model.fit(x, y, epochs=2, batch_size=2, validation_data=(x, y), verbose=case["verbose"],
                             shuffle=False)
        out["printed"] = _normalize_progbar(buf.getvalue())
    else:   # pragma: no cover - a table error
        raise ValueError(kind)
    out["history"] = exact(hist.history)
    out["epoch"] = list(hist.epoch)
    out["seen"] = exact(seen)
    out["final_w"] = _weight(model)
    return out
