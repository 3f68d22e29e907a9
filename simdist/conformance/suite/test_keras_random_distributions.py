"""keras.random's categorical, randint, shuffle, gamma, binomial, beta — clause
keras.random.distributions (TF 2.21 + Keras 3.15): shapes, dtypes, supports, determinism for a
seed, the SeedGenerator advancing, and the argument checks."""

from __future__ import annotations

import numpy as np
import pytest

from simdist.conformance.assertions import assert_equal, assert_true, raises

clause = pytest.mark.clause


def _np(x):
    return np.asarray(x.numpy() if hasattr(x, "numpy") else x)


@clause("keras.random.distributions", ref="tf221")
def test_keras_random_distributions_shapes_supports_and_seeds(keras):
    r = keras.random
    cat = _np(r.categorical(np.log(np.array([[0.2, 0.3, 0.5], [0.7, 0.2, 0.1]], np.float32)), 6, seed=3))
    assert_equal(cat.shape, (2, 6), call="keras.random.categorical(logits (2, 3), 6)", what="shape")
    assert_equal(cat.dtype.name, "int32", call="keras.random.categorical(logits (2, 3), 6)", what="dtype")
    assert_true(((cat >= 0) & (cat < 3)).all(), f"categorical indices {cat} outside [0, 3)", call="categorical")
    ri = _np(r.randint((3, 4), -2, 5, dtype="int8", seed=5))
    assert_equal(ri.dtype.name, "int8", call="keras.random.randint(dtype='int8')", what="dtype")
    assert_true(((ri >= -2) & (ri < 5)).all(), f"randint values {ri} outside [-2, 5)", call="randint")
    sh = _np(r.shuffle(np.arange(10), seed=7))
    assert_equal(sorted(sh.tolist()), list(range(10)), call="keras.random.shuffle(arange(10))", what="sorted values")
    assert_equal(_np(r.shuffle(np.arange(10), seed=7)), sh, call="keras.random.shuffle twice with seed=7")
    g = _np(r.gamma((50,), 2.0, seed=9))
    assert_true((g > 0).all() and g.dtype == np.float32, "gamma samples should be positive float32", call="gamma")
    b = _np(r.binomial((50,), 10.0, 0.3, seed=10))
    assert_true(((b >= 0) & (b <= 10) & (b == np.round(b))).all(), f"binomial samples {b[:5]} not in 0..10",
                call="keras.random.binomial(counts=10)")
    be = _np(r.beta((2, 3), 2.0, 3.0, seed=11))
    assert_true(((be > 0) & (be < 1)).all() and be.shape == (2, 3), "beta samples should lie in (0, 1), shape (2, 3)",
                call="keras.random.beta")
    gen = r.SeedGenerator(42)
    first, second = _np(r.randint((8,), 0, 1000, seed=gen)), _np(r.randint((8,), 0, 1000, seed=gen))
    assert_true(not np.array_equal(first, second), "a SeedGenerator should advance between draws",
                call="randint(seed=SeedGenerator(42)) twice")
    with raises(ValueError, match="should be a 2-D tensor", call="keras.random.categorical(1-D logits)"):
        r.categorical(np.ones(3, np.float32), 2)
    with raises(ValueError, match="requires an integer `dtype`", call="keras.random.randint(dtype='float32')"):
        r.randint((2,), 0, 3, dtype="float32")
