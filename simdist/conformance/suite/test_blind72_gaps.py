"""The classes around the seventy-second blind batch's mutants (tests/mutants.py TRAINING_BATCH72), each checked as a
class, and a rule its probes found simdist breaking: R2Score's residual sum of squares is Keras's `(y_true - y_pred)
** 2`, TF's Pow, whose float32 result is not always the rounded product x·x (clause keras.metric.r2-score).

Each program runs on the backend under test; its expected result is TF 2.21's, observed by running the same program on
TF (`python -m simdist.conformance.suite.test_blind72_gaps --record`, which rewrites blind72_reference.json.gz). The
recording host is this session's AVX-512 Xeon with oneDNN on (recorded_programs.avx512_with_onednn): the programs whose
bits follow the CPU's kernels are host-dependent, run by simdist under its model of that host (reference_cpu) on any
other CPU. Floats are compared by their bits (hex of the IEEE value)."""

from __future__ import annotations

import os
from typing import Any

import numpy as np
import pytest

from simdist.conformance.suite.recorded_programs import (RecordedPrograms, avx512_with_onednn, bits as _bits,
                                                          reference_cpu, rng)

PATH = os.path.join(os.path.dirname(__file__), "blind72_reference.json.gz")

#: programs whose TF 2.21 bits follow the CPU's kernels (clause ops.host-cpu): the metrics' reductions and powers
HOST_DEPENDENT = ("metric-",)

REF = RecordedPrograms(PATH, HOST_DEPENDENT, recording_host=avx512_with_onednn, recording_cpu=reference_cpu)
_program, _ids, _check = REF.add, REF.ids, REF.check


# -- 1. metrics --------------------------------------------------------------------------------------------------------
def _r2_residuals(tf: Any, mk: Any) -> Any:
    """R2Score's variables and result over 5 to 40 rows of 1 to 4 outputs, weighted (per row and per entry) and not,
    in float32 and float64: the residual sum is Σw·(t − p)**2 with TF's Pow, which rounds some squares otherwise
    than x·x."""
    r = rng("metric-r2-residuals")
    out = {}
    for dtype in ("float32", "float64"):
        for rows in (5, 13, 29, 40):
            for outputs in (1, 3, 4):
                y = (r.randn(rows, outputs) * 3 + 1.5).astype(dtype)
                p = (y + r.randn(rows, outputs) * 2).astype(dtype)
                for weights in ("none", "rows", "entries"):
                    w = {"none": None, "rows": r.rand(rows).astype(dtype),
                         "entries": r.rand(rows, outputs).astype(dtype)}[weights]
                    m = tf.keras.metrics.R2Score(class_aggregation=None, dtype=dtype)
                    m.update_state(y, p, sample_weight=w)
                    out[f"{dtype} {rows}x{outputs} {weights}"] = [_bits(m.result())] + [
                        _bits(v) for v in sorted(m.variables, key=lambda v: v.name)]
    return out


_program("metric-r2-residuals", _r2_residuals)


def _auc_pr_interpolation(tf: Any, mk: Any) -> Any:
    """AUC(curve="PR") with Davis & Goadrich's interpolation (Keras's interpolate_pr_auc: slope, intercept, log of
    the precision ratio, each a float32 rounding) and the ROC/PR trapezoids, bit for bit: 3 to 200 thresholds,
    unweighted and weighted, labels of every balance, multi-label with and without label weights, from logits."""
    r = rng("metric-auc-pr-interpolation")
    out = {}
    for k in range(6):
        n = (12, 30, 60)[k % 3]
        yt = (r.rand(n) < (0.2, 0.5, 0.8)[k % 3]).astype(np.float32)
        yp = r.rand(n).astype(np.float32)
        w = r.rand(n).astype(np.float32)
        for nt in (3, 5, 11, 57, 200):
            for curve, method in (("PR", "interpolation"), ("ROC", "interpolation"), ("PR", "majoring")):
                for weighted in (False, True):
                    m = tf.keras.metrics.AUC(num_thresholds=nt, curve=curve, summation_method=method)
                    m.update_state(yt, yp, sample_weight=w if weighted else None)
                    out[f"{k} {nt} {curve} {method} {weighted}"] = _bits(m.result())
    yt = (r.rand(20, 3) < 0.5).astype(np.float32)
    yp = r.rand(20, 3).astype(np.float32)
    for curve in ("PR", "ROC"):
        for lw in (None, [0.5, 1.25, 3.0]):
            m = tf.keras.metrics.AUC(num_thresholds=23, curve=curve, multi_label=True, label_weights=lw)
            m.update_state(yt, yp)
            out[f"multi {curve} {lw}"] = _bits(m.result())
        m = tf.keras.metrics.AUC(num_thresholds=31, curve=curve, from_logits=True)
        m.update_state(yt[:, 0], (yp[:, 0] - 0.5) * 6)
        out[f"logits {curve}"] = _bits(m.result())
    return out


_program("metric-auc-pr-interpolation", _auc_pr_interpolation)


# -- 2. monitoring callbacks ------------------------------------------------------------------------------------------
_SEQUENCES = {"min": (1.0, 1.0, 0.9, 0.9, 0.95, 0.8, 0.8, 0.8, 0.79, 0.81),
              "max": (0.5, 0.5, 0.6, 0.6, 0.55, 0.7, 0.7, 0.7, 0.71, 0.69)}


def _plain(v: Any) -> Any:
    return None if v is None else float(v).hex() if isinstance(v, (float, np.floating)) else v


def _monitor_callbacks(tf: Any, mk: Any) -> Any:
    """EarlyStopping, ReduceLROnPlateau and ModelCheckpoint(save_best_only) fed epoch logs with ties, plateaus and
    changes below min_delta, in modes min, max and auto: after each epoch the wait, best, stopped epoch, learning
    rate and the checkpoints written (an equal value is no improvement in either direction)."""
    import tempfile
    keras = tf.keras
    out = {}
    for mode in ("min", "max", "auto"):
        seq = _SEQUENCES["min" if mode == "auto" else mode]
        name = "loss" if mode != "max" else "acc"
        for min_delta in (0.0, 0.05):
            for patience in (1, 2):
                model = keras.Sequential([keras.Input((1,)), keras.layers.Dense(1)])
                model.compile(keras.optimizers.SGD(0.5), "mse")
                es = keras.callbacks.EarlyStopping(monitor=name, mode=mode, min_delta=min_delta, patience=patience)
                rl = keras.callbacks.ReduceLROnPlateau(monitor=name, mode=mode, min_delta=min_delta, patience=patience,
                                                       factor=0.5, cooldown=1)
                with tempfile.TemporaryDirectory() as d:
                    ck = keras.callbacks.ModelCheckpoint(os.path.join(d, "w{epoch}.weights.h5"), monitor=name, mode=mode,
                                                         save_best_only=True, save_weights_only=True)
                    for cb in (es, rl, ck):
                        cb.set_model(model)
                        cb.on_train_begin()
                    rows = []
                    for epoch, v in enumerate(seq):
                        for cb in (es, rl, ck):
                            cb.on_epoch_end(epoch, {name: v})
                        rows.append([es.wait, es.stopped_epoch, _plain(es.best), rl.wait, rl.cooldown_counter,
                                     _plain(rl.best), float(np.asarray(model.optimizer.learning_rate)).hex(),
                                     _plain(ck.best), sorted(os.listdir(d))])
                out[f"{mode} {min_delta} {patience}"] = rows
    return out


_program("callback-monitors", _monitor_callbacks)


# -- the tests -------------------------------------------------------------------------------------------------------
@pytest.mark.clause("keras.metric.r2-score")
@pytest.mark.parametrize("name", _ids("metric-r2"))
def test_blind72_r2_residuals_are_powers(backend: Any, name: str) -> None:
    """R2Score's residual sum (Keras's `** 2`, TF's Pow) and its result, per output, over several sizes, weights and
    dtypes."""
    _check(backend, name)


@pytest.mark.clause("keras.metric.auc")
@pytest.mark.parametrize("name", _ids("metric-auc"))
def test_blind72_auc_areas_bit_for_bit(backend: Any, name: str) -> None:
    """The interpolated PR AUC and the ROC/PR trapezoids over thresholds, weights, label balances, multi-label
    weights and logits."""
    _check(backend, name)


@pytest.mark.clause("keras.callback.option-coverage")
@pytest.mark.parametrize("name", _ids("callback-"))
def test_blind72_monitor_callbacks_at_ties(backend: Any, name: str) -> None:
    """EarlyStopping, ReduceLROnPlateau and ModelCheckpoint(save_best_only) over plateaus, ties and changes below
    min_delta in each mode: waits, bests, stops, rates and the checkpoints written."""
    _check(backend, name)


if __name__ == "__main__":
    import sys
    if "--record" in sys.argv:
        REF.record()
