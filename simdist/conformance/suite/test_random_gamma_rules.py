"""Issue 29's random draws on TF's Philox streams — clause ops.random-gamma-poisson (TF 2.21 only).

Runs on the backend's `tf` alone. The reference is the clause's rule written out here: Philox4x32-10,
the stateless seed scramble (GenerateKey), 256 Philox outputs reserved per sample, and the Gamma
kernel's alpha == 1 path (an exponential, -log1p(-u), u the second double of the sample's first
output). The case-by-case comparison with TF 2.21 is tests/ops/test_random_gamma_tf.py.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

from simdist.conformance.assertions import assert_true, raises, to_numpy
from simdist.conformance.philox_ref import block, philox

clause = pytest.mark.clause
_M = 0xFFFFFFFF



def _stateless_exponentials(seed: tuple[int, int], n: int) -> np.ndarray:
    s0, s1 = seed[0] & (2**64 - 1), seed[1] & (2**64 - 1)
    mix = philox([s0 & _M, s0 >> 32, s1 & _M, s1 >> 32], [0x3EC8F720, 0x02461E29])
    out = []
    for i in range(n):
        ctr = 256 * i + ((mix[2] | mix[3] << 32) << 64)
        w = block(ctr, [mix[0], mix[1]])
        u = float(np.array((1023 << 52) | ((w[2] & 0xFFFFF) << 32) | w[3], np.uint64).view(np.float64)) - 1.0
        out.append(max(-math.log1p(-u), np.finfo(np.float64).tiny))
    return np.array(out)


@clause("ops.random-gamma-poisson", ref="tf221")
def test_stateless_gamma_alpha_one_is_philox_exponential(tf):
    for seed in ((1, 2), (-3, 2**40)):
        got = to_numpy(tf.random.stateless_gamma([6], tf.constant(seed, tf.int64), 1.0, dtype=tf.float64))
        want = _stateless_exponentials(seed, 6)
        assert_true(np.array_equal(got, want), f"stateless_gamma([6], {seed}, alpha=1)={got}, but should be {want} "
                    "bit for bit", call="stateless_gamma")


@clause("ops.random-gamma-poisson", ref="tf221")
def test_seeded_streams(tf):
    tf.random.set_seed(3)
    a = [to_numpy(tf.random.gamma([4], [0.5, 2.0], seed=1)) for _ in range(2)]
    tf.random.set_seed(3)
    b = to_numpy(tf.random.gamma([4], [0.5, 2.0], seed=1))
    assert_true(np.array_equal(a[0], b) and not np.array_equal(a[0], a[1]),
                "a seeded gamma's stream should continue across calls and restart at set_seed", call="gamma")
    p = [to_numpy(tf.random.stateless_poisson([5, 2], [4, 5], [3.0, 40.0])) for _ in range(2)]
    assert_true(np.array_equal(p[0], p[1]) and p[0].dtype == np.int32 and p[0].shape == (5, 2),
                f"stateless_poisson should repeat and give int32 of shape (5, 2), got {p[0].dtype} {p[0].shape}",
                call="stateless_poisson")
    g = to_numpy(tf.random.poisson([3], [np.inf, -1.0], seed=2, dtype=tf.int64))
    assert_true(g.shape == (3, 2) and (g == 0).all(), f"poisson([3], [inf, -1], int64)={g}, should be zeros of "
                "shape (3, 2)", call="poisson")
    with raises(tf.errors.InvalidArgumentError, call="stateless_gamma with alpha's shape not a suffix"):
        tf.random.stateless_gamma([3], [1, 2], [1.0, 2.0])
    with raises(ValueError, call="gamma of int32"):
        tf.random.gamma([2], 2, dtype=tf.int32)


@clause("ops.candidate-samplers", ref="tf221")
def test_candidate_samplers(tf):
    tc = np.array([[1, 5], [7, 0]], np.int64)
    tf.random.set_seed(11)
    s, t, e = (to_numpy(x) for x in tf.random.log_uniform_candidate_sampler(tc, 2, 8, True, 30, seed=2))
    assert_true(s.dtype == np.int64 and len(set(s.tolist())) == 8 and ((s >= 0) & (s < 30)).all(),
                f"unique log-uniform samples {s} should be 8 distinct int64 classes in [0, 30)", call="log_uniform")
    p = np.log((s + 2.0) / (s + 1.0)) / np.log1p(30)
    assert_true(((e > p * 8 * 0.999) | (e >= 1 - (1 - p) ** 8 - 1e-6)).all() and (e <= 1.0 + 1e-6).all(),
                f"expected counts {e} should lie in [1 - (1 - p)^8, 1] for p = {p}", call="log_uniform")
    s2, _, e2 = (to_numpy(x) for x in tf.random.uniform_candidate_sampler(tc, 2, 5, False, 10, seed=2))
    assert_true(np.allclose(e2, np.float32(0.1) * 5) and ((s2 >= 0) & (s2 < 10)).all(),
                f"uniform expected counts {e2} should be 0.5 each, classes {s2} in [0, 10)", call="uniform")
    a, ta, ea = (to_numpy(x) for x in tf.random.all_candidate_sampler(tc, 2, 8, True))
    assert_true(np.array_equal(a, np.arange(8)) and (ta == 1).all() and (ea == 1).all(),
                f"all_candidate_sampler gave {a}, {ta}, {ea}; should be 0..7 with counts 1", call="all")
    with raises(tf.errors.InvalidArgumentError, call="unique sampling beyond the range"):
        tf.random.uniform_candidate_sampler(tc, 2, 11, True, 10)


def _sampled_reference(w, b, labels, x, sampled, true_exp, sampled_exp, hits):
    """The clause's logits and labels in float64 (num_true 1)."""
    tl = np.sum(x * w[labels[:, 0]], axis=1, keepdims=True) + b[labels[:, 0]][:, None] - np.log(true_exp)
    sl = x @ w[sampled].T + b[sampled] - np.log(sampled_exp)
    if hits:
        sl = np.where(labels[:, :1] == sampled[None, :], -3.4028234663852886e38, sl)
    return np.concatenate([tl, sl], 1), np.concatenate([np.ones_like(tl), np.zeros_like(sl)], 1)


@clause("ops.sampled-losses", ref="tf221")
def test_nce_and_sampled_softmax_losses(tf):
    g = np.random.default_rng(29)
    w, b = g.normal(size=(20, 4)), g.normal(size=20)
    x, labels = g.normal(size=(5, 4)), np.array([[1], [4], [4], [9], [0]], np.int64)
    sampled = np.array([4, 7, 0, 12], np.int64)
    te, se = np.full((5, 1), 0.5), np.array([0.3, 0.2, 0.9, 0.1])
    sv = (tf.constant(sampled), tf.constant(te.astype(np.float32)), tf.constant(se.astype(np.float32)))
    args = (tf.constant(w.astype(np.float32)), tf.constant(b.astype(np.float32)), labels, tf.constant(x.astype(np.float32)), 4, 20)
    logits, lab = _sampled_reference(w, b, labels, x, sampled, te, se, False)
    want = np.sum(np.maximum(logits, 0) - logits * lab + np.log1p(np.exp(-np.abs(logits))), axis=1)
    got = to_numpy(tf.nn.nce_loss(*args, sampled_values=sv))
    assert_true(np.allclose(got, want, rtol=1e-5, atol=1e-5), f"nce_loss={got}, but should be {want}", call="nce_loss")
    logits, lab = _sampled_reference(w, b, labels, x, sampled, te, se, True)
    m = np.max(logits, axis=1, keepdims=True)
    want = -np.sum(lab * (logits - m - np.log(np.sum(np.exp(logits - m), axis=1, keepdims=True))), axis=1)
    got = to_numpy(tf.nn.sampled_softmax_loss(*args, sampled_values=sv))
    assert_true(np.allclose(got, want, rtol=1e-5, atol=1e-5), f"sampled_softmax_loss={got}, but should be {want}",
                call="sampled_softmax_loss")


@clause("ops.random-gamma-poisson", ref="tf221")
def test_stateless_gamma_op_refuses_a_dtype_before_the_wrapper(tf):
    """StatelessRandomGammaV3's dtype attr is half, float or double: bfloat16 and integers are the
    op's InvalidArgumentError (the wrapper's np.finfo, a ValueError, comes after the op)."""
    for dt in (tf.bfloat16, tf.int32):
        with raises(tf.errors.InvalidArgumentError, call=f"stateless_gamma([2], [1, 2], 1, dtype={dt.name})"):
            tf.random.stateless_gamma([2], [1, 2], 1, dtype=dt)
    with raises(ValueError, call="tf.function(lambda: stateless_gamma([2], [1, 2, 3], 1.0))()"):
        tf.function(lambda: tf.random.stateless_gamma([2], [1, 2, 3], 1.0))()   # the seed's shape function


@clause("ops.random-bits", ref="tf221")
def test_categorical_refuses_complex_logits_and_negative_samples_at_trace(tf):
    with raises(tf.errors.InvalidArgumentError, call="stateless_categorical(complex64 logits, 3, [1, 2])"):
        tf.random.stateless_categorical(tf.constant(np.zeros((2, 2), np.complex64)), 3, seed=[1, 2])
    with raises(ValueError, call="tf.function(lambda: stateless_categorical(logits, -2, [1, 2]))()"):
        tf.function(lambda: tf.random.stateless_categorical(tf.zeros([2, 2]), -2, seed=[1, 2]))()
