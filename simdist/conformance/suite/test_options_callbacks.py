"""Callback and Model options the suite never set before (benchmarks/suite_options.py, issue 29,
second pass): LambdaCallback's on_train_begin/on_train_end, evaluate's and predict's `callbacks`,
TerminateOnNaN(raise_error=True), BackupAndRestore's save_freq/double_checkpoint/
delete_checkpoint, TensorBoard's histogram_freq/write_graph/write_steps_per_second, and
compile(jit_compile=True) (TF 2.21 + Keras 3.15).

Expected values are NumPy transcriptions of Keras 3.15's rules computed here (the loss of a fixed
linear model, the batch-saving counter of BackupAndRestore), or relations that must hold.
"""

from __future__ import annotations

import json
import os

import numpy as np
import pytest

from simdist.conformance.assertions import assert_close, assert_equal, assert_true
from simdist.conformance.suite.event_files import read_tensors
from simdist.conformance.tolerances import Tolerance
from simdist.conformance.suite.values import distinct_values as _x

clause = pytest.mark.clause
TOL32 = Tolerance(rtol=2e-5, atol=2e-6)


_W = (np.array([[0.5], [-1.0], [0.25]], np.float32), np.array([0.1], np.float32))
_FX = _x((12, 3), 1.4)
_FY = (np.arange(12, dtype=np.float32) % 3 - 1.0).reshape(12, 1)


def _model(keras, lr=0.0, **compile_kw):
    m = keras.Sequential([keras.Input((3,)), keras.layers.Dense(1)])
    m.set_weights(list(_W))
    m.compile(optimizer=keras.optimizers.SGD(lr), loss="mse", **compile_kw)
    return m


def _pred(x, w=_W):
    return x.astype(np.float64) @ w[0].astype(np.float64) + w[1]


def _recorder(keras, events):
    """A Callback that appends (hook, batch or None, logs copy) for the evaluate/predict hooks."""
    class Rec(keras.callbacks.Callback):
        def on_test_begin(self, logs=None):
            events.append(("test_begin", None, dict(logs or {})))

        def on_test_batch_end(self, batch, logs=None):
            events.append(("test_batch_end", batch, dict(logs or {})))

        def on_test_end(self, logs=None):
            events.append(("test_end", None, dict(logs or {})))

        def on_predict_begin(self, logs=None):
            events.append(("predict_begin", None, dict(logs or {})))

        def on_predict_batch_end(self, batch, logs=None):
            events.append(("predict_batch_end", batch, dict(logs or {})))

        def on_predict_end(self, logs=None):
            events.append(("predict_end", None, dict(logs or {})))
    return Rec()


@clause("keras.fit.callback-hooks", ref="tf221")
def test_options_train_hooks_and_evaluate_predict_callbacks(tf, keras):
    """LambdaCallback(on_train_begin, on_train_end) run once around fit's epochs; evaluate(x, y,
    batch_size=5, callbacks=[cb]) calls on_test_begin, on_test_batch_end per batch with the running
    loss (the batch-size-weighted mean so far), on_test_end with the final loss; predict(x,
    batch_size=5, callbacks=[cb]) calls on_predict_begin, on_predict_batch_end with that batch's
    `outputs`, on_predict_end."""
    events = []
    m = _model(keras)
    cb = keras.callbacks.LambdaCallback(on_train_begin=lambda logs: events.append("train_begin"),
                                        on_train_end=lambda logs: events.append("train_end"),
                                        on_epoch_end=lambda epoch, logs: events.append(f"epoch_end {epoch}"))
    m.fit(_FX, _FY, epochs=2, batch_size=6, verbose=0, callbacks=[cb])
    assert_equal(events, ["train_begin", "epoch_end 0", "epoch_end 1", "train_end"],
                 call="fit(epochs=2) with LambdaCallback(on_train_begin, on_epoch_end, on_train_end)", what="events")
    err2 = ((_pred(_FX) - _FY) ** 2)[:, 0]
    bounds = [(0, 5), (5, 10), (10, 12)]
    running = [err2[:hi].mean() for _, hi in bounds]
    events = []
    result = m.evaluate(_FX, _FY, batch_size=5, verbose=0, callbacks=[_recorder(keras, events)])
    call = "evaluate(x[12], y, batch_size=5, callbacks=[cb])"
    assert_equal([(e[0], e[1]) for e in events], [("test_begin", None), ("test_batch_end", 0), ("test_batch_end", 1),
                                                  ("test_batch_end", 2), ("test_end", None)], call=call, what="hooks")
    assert_close([e[2]["loss"] for e in events[1:4]], running, call=call, what="on_test_batch_end logs['loss']",
                 tolerance=TOL32)
    assert_close([events[-1][2]["loss"], result], [err2.mean(), err2.mean()], call=call,
                 what="[on_test_end logs['loss'], evaluate's result]", tolerance=TOL32)
    events = []
    out = m.predict(_FX, batch_size=5, verbose=0, callbacks=[_recorder(keras, events)])
    call = "predict(x[12], batch_size=5, callbacks=[cb])"
    assert_equal([(e[0], e[1]) for e in events], [("predict_begin", None), ("predict_batch_end", 0),
                                                  ("predict_batch_end", 1), ("predict_batch_end", 2),
                                                  ("predict_end", None)], call=call, what="hooks")
    for (lo, hi), e in zip(bounds, events[1:4]):
        assert_close(e[2]["outputs"], _pred(_FX[lo:hi]), call=call, what=f"batch {e[1]} logs['outputs']",
                     tolerance=TOL32)
    assert_close(out, _pred(_FX), call=call, what="predict's result", tolerance=TOL32)


@clause("keras.callback.option-coverage", ref="tf221")
def test_options_terminate_on_nan_raise_error(tf, keras):
    """TerminateOnNaN(raise_error=True): the first batch whose loss is NaN raises RuntimeError
    ("NaN or Inf loss encountered at batch 1. ...") and no on_train_end runs; raise_error=False
    stops training after that batch and on_train_end runs."""
    x = _FX.copy()
    x[7, 1] = np.nan                          # batch 1 of size 4
    for raise_error in (True, False):
        ends, batches = [], []
        m = _model(keras, lr=0.01)
        cbs = [keras.callbacks.TerminateOnNaN(raise_error=raise_error),
               keras.callbacks.LambdaCallback(on_train_end=lambda logs: ends.append(1),
                                              on_train_batch_end=lambda b, logs: batches.append(b))]
        call = f"fit(x with a NaN in batch 1, batch_size=4, epochs=2, TerminateOnNaN(raise_error={raise_error}))"
        try:
            m.fit(x, _FY, batch_size=4, epochs=2, verbose=0, shuffle=False, callbacks=cbs)
        except RuntimeError as e:
            assert_true(raise_error, f"{call} raised RuntimeError({e}), but should stop training quietly")
            assert_true(str(e).startswith("NaN or Inf loss encountered at batch 1."),
                        f"{call}: RuntimeError({str(e)!r}), but should start 'NaN or Inf loss encountered at batch 1.'")
        else:
            assert_true(not raise_error, f"{call} returned, but should raise RuntimeError")
        assert_equal(ends, [] if raise_error else [1], call=call, what="on_train_end calls")
        assert_equal(batches, [0] if raise_error else [0, 1], call=call, what="on_train_batch_end batches")


def _backup_saves(epochs, steps, save_freq):
    """Keras 3.15's BackupAndRestore._should_save_on_batch over a fit: the (epoch, batch) metadata
    written at each batch end (None: no save then)."""
    seen, last, current, out = 0, 0, 0, []
    for _ in range(epochs):
        for b in range(steps):
            seen += b + 1 if b <= last else b - last
            last = b
            if seen >= save_freq:
                seen = 0
                out.append({"epoch": current, "batch": last})
            else:
                out.append(None)
        current, last = current + 1, 0
    return out


@clause("keras.callback.option-coverage", ref="tf221")
def test_options_backup_and_restore_batch_saves(tf, keras, tmp_path):
    """BackupAndRestore(save_freq=2, double_checkpoint=True, delete_checkpoint=False): every second
    batch it writes latest.weights.h5 and training_metadata.json {"epoch", "batch"} (Keras's counter,
    transcribed), keeping the previous pair as *.bkp; the directory stays after fit; a new fit with
    the same directory starts at the saved epoch. delete_checkpoint=True removes the directory."""
    d = str(tmp_path / "backup")
    meta, prev = [], []
    path = os.path.join(d, "training_metadata.json")

    def read(p):
        if not os.path.exists(p):
            return None
        with open(p) as f:
            return json.loads(f.read())

    cb = keras.callbacks.BackupAndRestore(d, save_freq=2, double_checkpoint=True, delete_checkpoint=False)
    rec = keras.callbacks.LambdaCallback(on_train_batch_end=lambda b, logs: (meta.append(read(path)),
                                                                             prev.append(read(path + ".bkp"))))
    m = _model(keras, lr=0.01)
    m.fit(_FX, _FY, batch_size=4, epochs=2, verbose=0, shuffle=False, callbacks=[cb, rec])
    saves = _backup_saves(2, 3, 2)
    want, want_prev, last, before = [], [], None, None
    for s in saves:
        if s is not None:
            before, last = last, s
        want.append(last)
        want_prev.append(before)
    call = "fit(epochs=2, 3 batches) with BackupAndRestore(save_freq=2, double_checkpoint=True, delete_checkpoint=False)"
    assert_equal(meta, want, call=call, what="training_metadata.json after each batch")
    assert_equal(prev, want_prev, call=call, what="training_metadata.json.bkp after each batch")
    assert_equal(sorted(os.listdir(d)), ["latest.weights.h5", "latest.weights.h5.bkp", "training_metadata.json",
                                         "training_metadata.json.bkp"], call=call, what="files left after fit")
    epochs = []
    m2 = _model(keras, lr=0.01)
    m2.fit(_FX, _FY, batch_size=4, epochs=3, verbose=0, shuffle=False,
           callbacks=[keras.callbacks.BackupAndRestore(d), keras.callbacks.LambdaCallback(
               on_epoch_begin=lambda e, logs: epochs.append(e))])
    assert_equal(epochs, list(range(want[-1]["epoch"], 3)), call="a second fit(epochs=3) over the same backup_dir",
                 what="epochs run")
    assert_true(not os.path.exists(d), "BackupAndRestore(delete_checkpoint=True) left its directory after fit")


@clause("keras.callback.option-coverage", ref="tf221")
def test_options_tensorboard_histograms_graph_and_steps_per_second(tf, keras, tmp_path):
    """TensorBoard(histogram_freq=2): each weight's `<path>/histogram` at epochs 0 and 2 of 3,
    counting every entry of the weight; write_graph=False writes no "keras" model tensor;
    write_steps_per_second=True adds `epoch_steps_per_second` (a positive rate) per epoch."""
    pytest.importorskip("tensorboard")
    log_dir = str(tmp_path / "tb")
    m = _model(keras, lr=0.01)
    m.fit(_FX, _FY, batch_size=6, epochs=3, verbose=0,
          callbacks=[keras.callbacks.TensorBoard(log_dir, histogram_freq=2, write_graph=False,
                                                 write_steps_per_second=True)])
    tensors = read_tensors(os.path.join(log_dir, "train"))
    call = "fit(epochs=3) with TensorBoard(histogram_freq=2, write_graph=False, write_steps_per_second=True)"
    hist = sorted(t for t in tensors if t.endswith("/histogram"))
    assert_equal(len(hist), 2, call=call, what=f"number of histogram tags ({hist})")
    assert_true("keras" not in tensors, f"{call}: the train run holds the 'keras' model tensor, but write_graph=False")
    sizes = sorted(int(np.prod(w.shape)) for w in m.weights)
    got_sizes = []
    for t in hist:
        events = tensors[t]
        assert_equal([step for step, _ in events], [0, 2], call=call, what=f"{t} steps")
        got_sizes.append(int(round(events[0][1][:, 2].sum())))
    assert_equal(sorted(got_sizes), sizes, call=call, what="histogram counts (entries per weight)")
    sps = [float(v) for _, v in tensors.get("epoch_steps_per_second", [])]
    assert_equal(len(sps), 3, call=call, what="epoch_steps_per_second events")
    assert_true(all(v > 0 for v in sps), f"{call}: epoch_steps_per_second={sps}, but rates should be positive")


@clause("keras.fit.data", ref="tf221")
def test_options_compile_jit_compile_trains_the_same(tf, keras):
    """compile(jit_compile=True): fit's SGD steps give the NumPy loop's weights (XLA on TF,
    ignored by simdist: the values are the same)."""
    m = _model(keras, lr=0.05, jit_compile=True)
    m.fit(_FX, _FY, batch_size=6, epochs=2, verbose=0, shuffle=False)
    w, b = _W[0].astype(np.float64), _W[1].astype(np.float64)
    for _ in range(2):
        for lo in (0, 6):
            x, y = _FX[lo:lo + 6].astype(np.float64), _FY[lo:lo + 6].astype(np.float64)
            e = x @ w + b - y
            gw, gb = 2 * x.T @ e / 6, 2 * e.sum(0) / 6
            w, b = w - 0.05 * gw, b - 0.05 * gb
    got = m.get_weights()
    assert_close(got[0], w, call="compile(SGD(0.05), 'mse', jit_compile=True); fit(epochs=2, batch_size=6)",
                 what="kernel", tolerance=Tolerance(rtol=1e-5, atol=1e-6))
    assert_close(got[1], b, call="compile(SGD(0.05), 'mse', jit_compile=True); fit(epochs=2, batch_size=6)",
                 what="bias", tolerance=Tolerance(rtol=1e-5, atol=1e-6))
