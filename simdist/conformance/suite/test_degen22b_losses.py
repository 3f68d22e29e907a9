"""Degeneracy audit 22 (area degen22b): loss reductions with sample weights that are not all equal
(Keras 3.15 on TF 2.21).

The suite's loss objects ran their reductions without sample weights or with weights of ones, where
"mean_with_sample_weight" (divide by the weights' sum) and "sum_over_batch_size" (divide by the
element count) agree, and per-timestep weights equal to per-sample ones. Here the weights differ,
include 0, and come per sample (batch,) and per timestep (batch, steps). Expected values are NumPy
transcriptions of the losses' formulas and of keras/src/losses/loss.py's reduce_values: the weighted
sum; "sum_over_batch_size" and "mean" divide it by the number of loss values, "mean_with_sample_weight"
by the sum of the sample weights as given, not as broadcast (a (batch, 1) weight against (batch, steps)
values weighs each step, and divides by the sum of its batch entries); a (batch,) weight against
(batch, steps) values is InvalidArgumentError in Keras 3.15 (its ranks differ by one and the values'
last axis is not 1), so it is not a case.
"""

from __future__ import annotations

import numpy as np
import pytest

from simdist.conformance.assertions import assert_close
from simdist.conformance.tolerances import Tolerance

clause = pytest.mark.clause
TOL = Tolerance(rtol=2e-5, atol=2e-6)


def _np(x):
    return np.asarray(x.numpy() if hasattr(x, "numpy") else x)


def _log_softmax(z: np.ndarray) -> np.ndarray:
    z = z - z.max(-1, keepdims=True)
    return z - np.log(np.exp(z).sum(-1, keepdims=True))


def _huber(e: np.ndarray, d: float) -> np.ndarray:
    a = np.abs(e)
    return np.where(a <= d, 0.5 * e * e, d * a - 0.5 * d * d)


#: name -> (constructor kwargs, per-element formula over the last axis (y_true, y_pred) -> values)
LOSSES = {
    "MeanSquaredError": ({}, lambda t, p: ((t - p) ** 2).mean(-1)),
    "CategoricalCrossentropy": ({"from_logits": True, "label_smoothing": 0.2},
                                lambda t, p: -((t * 0.8 + 0.2 / t.shape[-1]) * _log_softmax(p)).sum(-1)),
    "MeanAbsoluteError": ({}, lambda t, p: np.abs(t - p).mean(-1)),
    "Huber": ({"delta": 0.5}, lambda t, p: _huber(p - t, 0.5).mean(-1)),
}


def _reduce(values: np.ndarray, w: np.ndarray | None, reduction: str) -> np.ndarray:
    if w is not None:
        w = w if w.ndim == values.ndim else w.reshape(w.shape + (1,) * (values.ndim - w.ndim))
        weighted = values * w
    else:
        weighted = values
    if reduction == "none":
        return weighted
    total = weighted.sum()
    if reduction == "sum":
        return total
    if reduction == "mean_with_sample_weight" and w is not None:
        return total / np.broadcast_to(w, w.shape).sum()
    return total / values.size


@clause("keras.loss.reductions", ref="tf221")
@clause("keras.loss.sample-weight", ref="tf221")
def test_degen22b_losses_reductions_with_unequal_weights(keras, budget):
    """Four losses x five reductions ("mean_with_sample_weight" first: it alone reads the weights'
    sum) x weights per sample on (batch, classes) data and per timestep / (batch, 1) on (batch, steps,
    classes) data, the weights unequal and one of them 0."""
    y2 = np.array([[1, 0, 0], [0, 1, 0], [0, 0, 1], [0, 1, 0]], np.float32)
    p2 = np.array([[0.5, -1.0, 2.0], [1.5, 0.25, -0.5], [0.0, 1.0, 3.0], [-2.0, 0.5, 0.75]], np.float32)
    y3 = np.stack([y2[:3], y2[1:]])                     # [2, 3, 3]
    p3 = np.stack([p2[:3], p2[1:]])
    cases = [(y2, p2, np.array([2.0, 0.5, 0.0, 1.5], np.float32)),
             (y3, p3, np.array([[1.0, 3.0, 0.0], [0.5, 2.0, 1.0]], np.float32)),
             (y3, p3, np.array([[0.25], [2.0]], np.float32))]
    for name, (kwargs, formula) in budget(list(LOSSES.items())):
        for y, p, w in cases:
            values = formula(y.astype(np.float64), p.astype(np.float64))
            for reduction in ("mean_with_sample_weight", "sum_over_batch_size", "sum", "mean", "none"):
                loss = getattr(keras.losses, name)(reduction=reduction, **kwargs)
                call = f"{name}({kwargs}, reduction={reduction!r})(y{list(y.shape)}, p, sample_weight={w.tolist()})"
                assert_close(_np(loss(y, p, sample_weight=w)).astype(np.float64), _reduce(values, w, reduction),
                             call=call, tolerance=TOL)
