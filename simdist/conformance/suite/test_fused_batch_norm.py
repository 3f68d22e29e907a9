"""Clause ops.fused-batch-norm (TF 2.21 only): TF's fused batch normalization ops, FusedBatchNorm/V2/V3, their
gradient and tf.compat.v1.nn.fused_batch_norm, on the backend's `tf` alone. Expected values are NumPy
references computed here from the rule docs/spec.md states (float32 statistics, the biased batch variance for
normalizing, the Bessel-corrected one for the running variance, the exponential average, inference from the
given statistics, the channel axis of each data format); the bit-for-bit comparison with TF 2.21, case by case,
is tests/ops/test_fused_batch_norm_tf.py.
"""

from __future__ import annotations

import numpy as np
import pytest

from simdist.conformance.assertions import assert_close, assert_true, raises, to_numpy
from simdist.conformance.tolerances import Tolerance

clause = pytest.mark.clause

_RNG = np.random.default_rng(29)
_X = (_RNG.normal(size=(2, 3, 5, 4)) * 2 + 0.5).astype(np.float32)
_S, _O, _M = (_RNG.normal(size=4).astype(np.float32) for _ in range(3))
_V = _RNG.uniform(0.5, 2.0, size=4).astype(np.float32)


def _reference(x, scale, offset, mean, var, eps):
    return (x - mean) / np.sqrt(var + eps) * scale + offset


@clause("ops.fused-batch-norm", ref="tf221")
def test_training_normalizes_with_the_batch_and_returns_running_statistics(tf):
    rows = _X.reshape(-1, 4).astype(np.float64)
    mean, var = rows.mean(0), rows.var(0)
    unbiased = var * rows.shape[0] / (rows.shape[0] - 1)
    for factor in (1.0, 0.25):
        r = tf.raw_ops.FusedBatchNormV3(x=_X, scale=_S, offset=_O, mean=_M, variance=_V, epsilon=0.01,
                                        exponential_avg_factor=factor, is_training=True)
        call = f"FusedBatchNormV3(is_training=True, exponential_avg_factor={factor})"
        assert_close(to_numpy(r.y), _reference(_X, _S, _O, mean, var, 0.01), tolerance=Tolerance(rtol=1e-4, atol=1e-4), call=call)
        assert_close(to_numpy(r.batch_mean), (1 - factor) * _M + factor * mean, tolerance=Tolerance(rtol=1e-5, atol=1e-6),
                     call=call + ": batch_mean (the running mean)")
        assert_close(to_numpy(r.batch_variance), (1 - factor) * _V + factor * unbiased, tolerance=Tolerance(rtol=1e-5, atol=1e-6),
                     call=call + ": batch_variance (the running variance, Bessel-corrected)")
        assert_close(to_numpy(r.reserve_space_1), mean, tolerance=Tolerance(rtol=1e-5, atol=1e-6), call=call + ": reserve_space_1")
        assert_close(to_numpy(r.reserve_space_2), var, tolerance=Tolerance(rtol=1e-5, atol=1e-6),
                     call=call + ": reserve_space_2 (the biased variance)")


@clause("ops.fused-batch-norm", ref="tf221")
def test_inference_and_data_formats(tf):
    want = _reference(_X, _S, _O, _M, _V, 0.001)
    r = tf.raw_ops.FusedBatchNormV3(x=_X, scale=_S, offset=_O, mean=_M, variance=_V, epsilon=0.001,
                                    is_training=False)
    assert_close(to_numpy(r.y), want, tolerance=Tolerance(rtol=1e-5, atol=1e-5), call="FusedBatchNormV3(is_training=False)")
    assert_close(to_numpy(r.batch_mean), _M, tolerance=Tolerance(rtol=0, atol=0), call="FusedBatchNormV3(is_training=False): batch_mean")
    nchw = tf.raw_ops.FusedBatchNormV3(x=np.ascontiguousarray(_X.transpose(0, 3, 1, 2)), scale=_S, offset=_O,
                                       mean=_M, variance=_V, epsilon=0.001, is_training=False, data_format="NCHW")
    assert_close(to_numpy(nchw.y), want.transpose(0, 3, 1, 2), tolerance=Tolerance(rtol=1e-5, atol=1e-5),
                 call="FusedBatchNormV3(data_format='NCHW'): channels on axis 1")
    y, m, v = tf.compat.v1.nn.fused_batch_norm(_X[:, None], _S, _O, mean=_M, variance=_V, epsilon=0.001,
                                               is_training=False, data_format="NDHWC")
    assert_close(to_numpy(y), want[:, None], tolerance=Tolerance(rtol=1e-5, atol=1e-5), call="compat.v1.nn.fused_batch_norm(NDHWC)")
    half = tf.raw_ops.FusedBatchNormV3(x=_X.astype(np.float16), scale=_S, offset=_O, mean=_M, variance=_V,
                                       is_training=False)
    assert_true(half.y.dtype == tf.float16 and half.batch_mean.dtype == tf.float32,
                f"dtypes {half.y.dtype}, {half.batch_mean.dtype}, but should be float16 and float32 (T and U)",
                call="FusedBatchNormV3(float16 x)")


@clause("ops.fused-batch-norm", ref="tf221")
def test_gradient_matches_the_normalization_it_differentiates(tf):
    w = np.random.default_rng(5).normal(size=_X.shape).astype(np.float32)
    x64 = _X.astype(np.float64)
    for training in (True, False):
        xt, st, ot = tf.constant(_X), tf.constant(_S), tf.constant(_O)
        with tf.GradientTape() as tape:
            tape.watch([xt, st, ot])
            r = tf.raw_ops.FusedBatchNormV3(x=xt, scale=st, offset=ot, mean=_M, variance=_V, epsilon=0.01,
                                            is_training=training)
            loss = tf.reduce_sum(r.y * w)
        gx, gs, go = (to_numpy(g) for g in tape.gradient(loss, [xt, st, ot]))
        axes = (0, 1, 2)
        if training:
            mu, var = x64.mean(axes), x64.var(axes)
        else:
            mu, var = _M.astype(np.float64), _V.astype(np.float64)
        inv = 1 / np.sqrt(var + 0.01)
        xhat = (x64 - mu) * inv
        call = f"gradient of FusedBatchNormV3(is_training={training})"
        assert_close(go, w.sum(axes), tolerance=Tolerance(rtol=1e-4, atol=1e-4), call=call + ": offset")
        assert_close(gs, (w * xhat).sum(axes), tolerance=Tolerance(rtol=1e-4, atol=1e-4), call=call + ": scale")
        if training:
            n = x64.size // 4
            want = _S * inv / n * (n * w - w.sum(axes) - xhat * (w * xhat).sum(axes))
        else:
            want = w * _S * inv
        assert_close(gx, want, tolerance=Tolerance(rtol=1e-3, atol=1e-4), call=call + ": x")


@clause("ops.fused-batch-norm", ref="tf221")
def test_argument_errors(tf):
    with raises((tf.errors.InvalidArgumentError, ValueError), call="FusedBatchNormV3 of a rank-3 x"):
        tf.raw_ops.FusedBatchNormV3(x=_X[0], scale=_S, offset=_O, mean=_M, variance=_V)
    with raises((tf.errors.InvalidArgumentError, ValueError), call="FusedBatchNormV3 with 3 scales for 4 channels"):
        tf.raw_ops.FusedBatchNormV3(x=_X, scale=_S[:3], offset=_O, mean=_M, variance=_V)
    with raises((tf.errors.InvalidArgumentError, ValueError), call="FusedBatchNormV3(is_training=False) of an "
                                                                   "empty mean"):
        tf.raw_ops.FusedBatchNormV3(x=_X, scale=_S, offset=_O, mean=[], variance=[], is_training=False)
    with raises((tf.errors.InvalidArgumentError, TypeError), call="FusedBatchNormV3 of a float64 x"):
        tf.raw_ops.FusedBatchNormV3(x=_X.astype(np.float64), scale=_S, offset=_O, mean=_M, variance=_V)
    with raises(ValueError, call="compat.v1.nn.fused_batch_norm(is_training=False) without mean and variance"):
        tf.compat.v1.nn.fused_batch_norm(_X, _S, _O, is_training=False)
    y, m, v = tf.raw_ops.FusedBatchNormV3(x=_X, scale=_S, offset=_O, mean=[], variance=[], is_training=True)[:3]
    assert_true(to_numpy(m).shape == (4,), f"batch_mean shape {to_numpy(m).shape}, but should be (4,): in training "
                "with exponential_avg_factor 1, an empty mean and variance are accepted",
                call="FusedBatchNormV3(is_training=True, mean=[], variance=[])")
