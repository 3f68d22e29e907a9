"""tf.random's ops: determinism from their seeds, their distributions, dtypes, shapes and errors.

The values are NumPy's streams, not TF's Philox ones, so they are checked by their laws (moments
on large samples, ranges, frequencies, permutations) and by the determinism TF promises:
a stateless op is a pure function of (shape, seed, dtype); a stateful one is reproducible
from the global and op seeds.
"""

from __future__ import annotations

import numpy as np
import pytest

import simdist
from simdist import tf
from simdist.runtime import errors

N = 20000   # sample size: the moment checks below allow ~6 standard errors


def _np(t):
    return np.asarray(t.numpy())


def test_stateless_ops_are_pure_functions_of_their_seed_pair():
    a = _np(tf.random.stateless_normal([3, 4], seed=[1, 2]))
    tf.random.set_seed(99)                 # the global seed does not matter
    tf.random.normal([5])                  # nor draws in between
    simdist.reset()
    b = _np(tf.random.stateless_normal([3, 4], seed=tf.constant([1, 2], tf.int64)))
    assert np.array_equal(a, b), f"stateless_normal([3,4], seed=[1,2]) gave {a.ravel()[:3]} then {b.ravel()[:3]}"
    c = _np(tf.random.stateless_normal([3, 4], seed=[1, 3]))
    assert not np.array_equal(a, c), "another seed pair must give other values"
    u = _np(tf.random.stateless_uniform([3, 4], seed=[1, 2]))
    assert not np.allclose(u, a), "stateless_uniform and stateless_normal with one seed must not share a stream"
    for fn in (lambda: tf.random.stateless_uniform([6], seed=[7, 8], minval=2, maxval=9, dtype=tf.int32),
               lambda: tf.random.stateless_truncated_normal([6], seed=[7, 8]),
               lambda: tf.random.stateless_categorical([[0.1, 0.2, 0.3]], 6, seed=[7, 8])):
        assert np.array_equal(_np(fn()), _np(fn())), "a stateless op repeated with the same seed must repeat"


def test_stateless_normal_and_truncated_normal_laws():
    x = _np(tf.random.stateless_normal([N], seed=[3, 4], mean=2.0, stddev=3.0, dtype=tf.float64))
    assert x.dtype == np.float64
    assert abs(x.mean() - 2.0) < 6 * 3.0 / np.sqrt(N), f"mean {x.mean()}, want 2.0"
    assert abs(x.std() - 3.0) < 0.1, f"std {x.std()}, want 3.0"
    t = _np(tf.random.stateless_truncated_normal([N], seed=[3, 4], mean=1.0, stddev=2.0))
    assert t.dtype == np.float32 and t.min() >= 1.0 - 4.0 and t.max() <= 1.0 + 4.0, \
        f"truncated draws must stay within 2 stddev of the mean: [{t.min()}, {t.max()}]"
    # the standard normal truncated to [-2, 2] has std 0.8796
    assert abs(t.std() / 2.0 - 0.8796) < 0.02, f"truncated std/stddev {t.std() / 2.0}, want 0.8796"
    s = _np(tf.random.truncated_normal([N], stddev=0.5, seed=1))
    assert np.abs(s).max() <= 1.0 and abs(s.std() / 0.5 - 0.8796) < 0.02, (s.min(), s.max(), s.std())


def test_stateless_uniform_ranges_and_dtypes():
    f = _np(tf.random.stateless_uniform([N], seed=[5, 6], minval=-1.0, maxval=3.0))
    assert f.dtype == np.float32 and f.min() >= -1.0 and f.max() < 3.0 and abs(f.mean() - 1.0) < 0.05, \
        (f.min(), f.max(), f.mean())
    i = _np(tf.random.stateless_uniform([N], seed=[5, 6], minval=-3, maxval=4, dtype=tf.int64))
    assert i.dtype == np.int64 and set(np.unique(i).tolist()) == set(range(-3, 4)), np.unique(i)
    full = _np(tf.random.stateless_uniform([N], seed=[5, 6], minval=None, maxval=None, dtype=tf.int32))
    assert full.dtype == np.int32 and full.min() < -2 ** 30 and full.max() > 2 ** 30, (full.min(), full.max())


def test_categorical_frequencies_follow_softmax_of_the_logits():
    p = np.array([0.1, 0.6, 0.3])
    logits = tf.math.log(tf.constant([p, p[::-1]], tf.float32))
    for draw in (tf.random.categorical(logits, N, seed=4),
                 tf.random.stateless_categorical(logits, N, seed=[4, 4])):
        d = _np(draw)
        assert d.dtype == np.int64 and d.shape == (2, N)
        for row, probs in zip(d, (p, p[::-1])):
            freq = np.bincount(row, minlength=3) / N
            assert np.allclose(freq, probs, atol=0.02), f"frequencies {freq}, want {probs}"
    never = _np(tf.random.categorical([[0.0, -np.inf, 0.0]], 500, dtype=tf.int32, seed=2))
    assert never.dtype == np.int32 and 1 not in never, "a -inf logit must never be drawn"


def test_shuffle_is_a_permutation_of_the_rows():
    x = tf.reshape(tf.range(40), [20, 2])
    s = _np(tf.random.shuffle(x, seed=3))
    assert sorted(map(tuple, s.tolist())) == sorted(map(tuple, _np(x).tolist())), "rows must be kept whole"
    assert not np.array_equal(s, _np(x)), "20 rows shuffled should not stay in order"
    assert _np(tf.random.shuffle(tf.constant(5))) == 5


def test_stateful_draws_reproduce_from_the_seeds():
    tf.random.set_seed(11)
    a = [_np(tf.random.truncated_normal([4])), _np(tf.random.shuffle(tf.range(6))),
         _np(tf.random.categorical([[1.0, 1.0, 1.0]], 5))]
    tf.random.set_seed(11)
    b = [_np(tf.random.truncated_normal([4])), _np(tf.random.shuffle(tf.range(6))),
         _np(tf.random.categorical([[1.0, 1.0, 1.0]], 5))]
    for x, y in zip(a, b):
        assert np.array_equal(x, y), f"after set_seed(11) the draws must repeat: {x} vs {y}"


def test_stateless_mean_and_stddev_tensors_get_gradients():
    mean, std = tf.constant(1.0), tf.constant(2.0)
    with tf.GradientTape() as tape:
        tape.watch([mean, std])
        x = tf.random.stateless_normal([50], seed=[1, 1], mean=mean, stddev=std)
        loss = tf.reduce_sum(x)
    gm, gs = tape.gradient(loss, [mean, std])
    z = _np(tf.random.stateless_normal([50], seed=[1, 1]))
    assert float(gm) == 50.0, f"d sum / d mean = {float(gm)}, want 50"
    assert np.isclose(float(gs), z.sum(), rtol=1e-5), f"d sum / d stddev = {float(gs)}, want {z.sum()}"
    assert np.allclose(_np(x), 1.0 + 2.0 * z, rtol=1e-6)


@pytest.mark.parametrize("call, exc, message", [
    (lambda: tf.random.stateless_normal([2], seed=[1, 2, 3]), errors.InvalidArgumentError,
     r"seed must have shape \[2\], not \[3\]"),
    (lambda: tf.random.stateless_normal([2], seed=[1.0, 2.0]), errors.InvalidArgumentError,
     r"Value for attr 'Tseed' of float is not in the list of allowed values: int32, int64"),
    (lambda: tf.random.stateless_uniform([2], seed=[1, 2], minval=5, maxval=5, dtype=tf.int32),
     errors.InvalidArgumentError, r"Need minval < maxval, got 5 >= 5"),
    (lambda: tf.random.stateless_uniform([2], seed=[1, 2], dtype=tf.int32), ValueError,
     r"argument `minval` and `maxval` must be both None or not None"),
    (lambda: tf.random.categorical([0.1, 0.9], 4), errors.InvalidArgumentError,
     r"logits should be a matrix, got shape \[2\]"),
    (lambda: tf.random.normal([-1]), errors.InvalidArgumentError, r"Dimension -1 must be >= 0"),
], ids=["seed-shape", "seed-dtype", "int-range", "int-bounds", "logits-rank", "negative-dim"])
def test_errors_as_tf(call, exc, message):
    with pytest.raises(exc, match=message):
        call()


def test_stateful_normal_and_uniform_laws():
    x = _np(tf.random.normal([N], mean=-1.0, stddev=0.5, seed=8))
    assert abs(x.mean() + 1.0) < 0.02 and abs(x.std() - 0.5) < 0.02, (x.mean(), x.std())
    u = _np(tf.random.uniform([N], minval=2, maxval=5, dtype=tf.int32))
    assert u.dtype == np.int32 and set(np.unique(u).tolist()) == {2, 3, 4}, np.unique(u)
