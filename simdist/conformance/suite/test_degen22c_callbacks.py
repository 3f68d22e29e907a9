"""degen22c (issue 29, session 22): monitor callbacks off their degenerate points. The earlier programs
ran EarlyStopping's baseline at min_delta 0 (or min_delta without a baseline) and ReduceLROnPlateau at
the default cooldown 0 (or cooldown without a reduction inside the run), where a baseline compared
without min_delta, or a cooldown one epoch long, agrees with Keras 3.15. Each callback is driven epoch
by epoch through its public hooks (set_model, on_train_begin, on_epoch_end with the monitored value);
the expected states are computed in the test by a transcription of Keras 3.15's on_epoch_end
(keras/src/callbacks/early_stopping.py, reduce_lr_on_plateau.py, monitor_callback.py)."""

from __future__ import annotations

import os
import tempfile

import numpy as np
import pytest

from simdist.conformance.assertions import assert_equal

clause = pytest.mark.clause


def _model(keras):
    model = keras.Sequential([keras.Input((2,)), keras.layers.Dense(1)])
    model.compile(optimizer=keras.optimizers.SGD(learning_rate=1.0), loss="mse")
    return model


def _better(mode: str, min_delta: float, current: float, ref: float | None) -> bool:
    """MonitorCallback._is_improvement: min_delta = |min_delta|, negated for "min" (compared with <)."""
    if ref is None:
        return True
    return current + abs(min_delta) < ref if mode == "min" else current - abs(min_delta) > ref


def _early_stopping_ref(mode: str, baseline: float | None, min_delta: float, patience: int,
                        values: list[float]) -> list[tuple]:
    wait, best, stopped, stop = 0, None, 0, False
    out = []
    for epoch, v in enumerate(values):
        wait += 1
        if _better(mode, min_delta, v, best):
            best = v
            if baseline is None or _better(mode, min_delta, v, baseline):
                wait = 0
        elif wait >= patience and epoch > 0:
            stopped, stop = epoch, True
        out.append((wait, best, stopped, stop))
    return out


@clause("keras.callback.early-stopping", ref="tf221")
def test_degen22c_early_stopping_baseline_with_min_delta(keras, budget):
    """EarlyStopping(baseline, min_delta > 0): an epoch that improves on the best by more than min_delta
    resets the wait only if it also beats the baseline by more than min_delta — values that beat the
    baseline by less than min_delta keep the wait growing (modes min and max, patience 1-3)."""
    cases = [("min", 1.0, 0.1, 2, [0.95, 0.8, 0.85, 0.84, 0.6, 0.65, 0.66]),
             ("max", 0.5, 0.05, 2, [0.52, 0.6, 0.58, 0.7, 0.69, 0.68, 0.9]),
             ("min", 1.0, 0.25, 3, [0.9, 0.8, 0.7, 0.5, 0.49, 0.48, 0.47]),
             ("max", 0.5, 0.0, 1, [0.5, 0.6, 0.55, 0.56]),
             ("min", None, 0.1, 1, [1.0, 0.95, 0.8, 0.75, 0.74])]
    for mode, baseline, min_delta, patience, values in budget(cases):
        model = _model(keras)
        cb = keras.callbacks.EarlyStopping(monitor="val_loss", mode=mode, baseline=baseline, min_delta=min_delta,
                                           patience=patience)
        cb.set_model(model)
        model.stop_training = False
        cb.on_train_begin()
        want = _early_stopping_ref(mode, baseline, min_delta, patience, values)
        for epoch, v in enumerate(values):
            cb.on_epoch_end(epoch, {"val_loss": v})
            got = (cb.wait, cb.best, cb.stopped_epoch, bool(model.stop_training))
            assert_equal(str(got), str(want[epoch]), what="(wait, best, stopped_epoch, stop_training)",
                         call=f"EarlyStopping(mode={mode!r}, baseline={baseline}, min_delta={min_delta}, "
                              f"patience={patience}) after epoch {epoch} of {values}")


def _reduce_lr_ref(patience: int, cooldown: int, factor: float, min_lr: float,
                   values: list[float]) -> list[tuple]:
    lr, wait, counter, best = 1.0, 0, 0, None
    out = []
    for v in values:
        logged = lr
        if counter > 0:
            counter -= 1
            wait = 0
        if _better("min", 1e-4, v, best):
            best, wait = v, 0
        elif counter == 0:
            wait += 1
            if wait >= patience and lr > np.float32(min_lr):
                lr = float(np.float32(max(lr * factor, min_lr)))
                counter, wait = cooldown, 0
        out.append((logged, lr, wait, counter))
    return out


@clause("keras.callback.reduce-lr-on-plateau", ref="tf221")
def test_degen22c_reduce_lr_cooldown_lengths(keras, budget):
    """ReduceLROnPlateau(patience, cooldown >= 1) on a plateau: after a reduction the counter is set to
    cooldown; each later epoch first decrements it (and zeroes wait), and counts toward patience only
    once the counter is 0 — so reductions come every patience + cooldown epochs (cooldown 1, 2, 3;
    patience 1 and 2; an improvement inside a cooldown; min_lr reached)."""
    plateau = [1.0] * 11
    cases = [(1, 2, plateau), (2, 1, plateau), (1, 3, plateau), (2, 2, [1.0, 1.0, 1.0, 0.5, 0.5, 0.5, 0.5, 0.4, 0.4, 0.4]),
             (1, 1, plateau)]
    for patience, cooldown, values in budget(cases):
        model = _model(keras)
        cb = keras.callbacks.ReduceLROnPlateau(monitor="val_loss", factor=0.5, patience=patience, cooldown=cooldown,
                                               min_lr=0.06)
        cb.set_model(model)
        cb.on_train_begin()
        want = _reduce_lr_ref(patience, cooldown, 0.5, 0.06, values)
        for epoch, v in enumerate(values):
            logs = {"val_loss": v}
            cb.on_epoch_end(epoch, logs)
            lr = float(np.asarray(model.optimizer.learning_rate))
            got = (float(logs["learning_rate"]), lr, cb.wait, cb.cooldown_counter)
            assert_equal(str(got), str(want[epoch]), what="(logged lr, lr, wait, cooldown_counter)",
                         call=f"ReduceLROnPlateau(factor=0.5, patience={patience}, cooldown={cooldown}, min_lr=0.06) "
                              f"after epoch {epoch} of {values}")


def _saved(d: str) -> list[str]:
    return sorted(f.split(".")[0] for f in os.listdir(d))


@clause("keras.callback.model-checkpoint", ref="tf221")
def test_degen22c_model_checkpoint_at_equal_values_and_every_n_batches(keras, budget):
    """ModelCheckpoint(save_best_only=True) saves an epoch only when monitor_op(current, best) holds — a value
    equal to the best (or to initial_value_threshold) is no improvement (modes min and max); save_freq=n saves
    after every n-th batch, counted across epochs (a new epoch adds batch + 1), when the count reaches n
    exactly (keras/src/callbacks/model_checkpoint.py, transcribed)."""
    cases = [("min", None, [1.0, 1.0, 0.5, 0.5, 0.7, 0.4]), ("max", None, [0.5, 0.5, 0.75, 0.6, 0.75, 0.8]),
             ("min", 1.0, [1.0, 0.9, 0.9, 1.0]), ("freq", 3, [8, 5]), ("freq", 4, [4, 4, 2])]
    for mode, arg, values in budget(cases):
        model = _model(keras)
        d = tempfile.mkdtemp()
        if mode == "freq":
            cb = keras.callbacks.ModelCheckpoint(os.path.join(d, "w-{epoch:02d}-{batch:02d}.weights.h5"),
                                                 save_weights_only=True, save_freq=arg)
            cb.set_model(model)
            cb.on_train_begin()
            want, seen = [], 0
            for epoch, steps in enumerate(values):
                cb.on_epoch_begin(epoch)
                for batch in range(steps):
                    cb.on_train_batch_end(batch, {})
                    seen += 1
                    if seen >= arg:
                        seen = 0
                        want.append(f"w-{epoch + 1:02d}-{batch + 1:02d}")
            call = f"ModelCheckpoint(save_freq={arg}) over epochs of {values} batches"
        else:
            cb = keras.callbacks.ModelCheckpoint(os.path.join(d, "w-{epoch:02d}.weights.h5"), monitor="val_loss",
                                                 mode=mode, save_best_only=True, save_weights_only=True,
                                                 initial_value_threshold=arg)
            cb.set_model(model)
            cb.on_train_begin()
            want, best = [], arg
            for epoch, v in enumerate(values):
                cb.on_epoch_begin(epoch)
                cb.on_epoch_end(epoch, {"val_loss": v})
                if best is None or (v < best if mode == "min" else v > best):
                    best = v
                    want.append(f"w-{epoch + 1:02d}")
            call = f"ModelCheckpoint(mode={mode!r}, save_best_only=True, initial_value_threshold={arg}) over {values}"
        assert_equal(str(_saved(d)), str(sorted(want)), what="files saved", call=call)


def _csv_ref(runs: list[tuple[bool, list[tuple[int, dict]]]], sep: str) -> str:
    """CSVLogger's file after each run (append, epochs): "a" mode writes the header only when the file was
    missing or its first line empty, "w" mode always; keys sorted, val_ keys added (NA) when none is logged."""
    text = ""
    for append, epochs in runs:
        header = not (append and text.split("\n", 1)[0])
        if not append:
            text = ""
        keys = sorted(epochs[0][1])
        if not any(k.startswith("val_") for k in keys):
            keys += [f"val_{k}" for k in keys]
        lines = [sep.join(["epoch"] + keys)] if header else []
        lines += [sep.join([str(e)] + [str(logs.get(k, "NA")) for k in keys]) for e, logs in epochs]
        text += "".join(line + "\r\n" for line in lines)
    return text


@clause("keras.callback.csv-logger", ref="tf221")
def test_degen22c_csv_logger_append_over_several_runs(keras, budget):
    """CSVLogger(append=True) over two or three trainings on one file writes the header once (again only after
    a run with append=False, which overwrites, or into an empty existing file); rows keep the epochs
    passed; keys are sorted, val_ keys added with NA when no val_ key is logged; a separator other than ','."""
    a = [(0, {"loss": 0.5, "acc": 0.25}), (1, {"loss": 0.375, "acc": 0.5})]
    b = [(2, {"loss": 0.25, "acc": 0.75})]
    v = [(0, {"loss": 0.5, "val_loss": 0.625})]
    cases = [("append, append", [(True, a), (True, b)], ";"), ("append, write, append", [(True, a), (False, b), (True, a)], ","),
             ("empty file, append", [(True, v)], "\t"), ("append x3", [(True, v), (True, v), (True, b)], ",")]
    for name, runs, sep in budget(cases):
        d = tempfile.mkdtemp()
        path = os.path.join(d, "log.csv")
        if name.startswith("empty"):
            open(path, "w").close()
        for append, epochs in runs:
            cb = keras.callbacks.CSVLogger(path, separator=sep, append=append)
            cb.on_train_begin()
            for epoch, logs in epochs:
                cb.on_epoch_end(epoch, dict(logs))
            cb.on_train_end()
        with open(path, newline="") as f:
            got = f.read()
        assert_equal(got, _csv_ref(runs, sep), what="file text", call=f"CSVLogger runs {name} (separator {sep!r})")
