"""degen22c (issue 29, session 22): preprocessing layers and initializers off their degenerate points.
The earlier programs ran Discretization on values between its boundaries, lookup layers with several OOV
indices but no mask token (where the OOV buckets start at 0 either way), and fan-mode initializers on
square kernels or through Glorot (fan_avg), where fan_in and fan_out are interchangeable. Every
expected value is computed in the test from Keras 3.15's rule (transcribed), or, for the random
initializers, from the same seeded draw at unit scale."""

from __future__ import annotations

import bisect
import math

import numpy as np
import pytest

from simdist.conformance.assertions import assert_close, assert_equal, assert_true
from simdist.conformance.tolerances import Tolerance

clause = pytest.mark.clause
TOL32 = Tolerance(rtol=1e-5, atol=1e-6)


def _np(x) -> np.ndarray:
    return np.asarray(x.numpy() if hasattr(x, "numpy") else x)


def _buckets_ref(x: np.ndarray, bins: list[float]) -> np.ndarray:
    """bucketize_op.cc: std::upper_bound of each input over a std::vector<float> of the boundaries — the
    boundaries rounded to float32, an integer input compared as float (int -> float), a float64 one in
    float64."""
    wide = x.dtype == np.float64
    edges = np.asarray(bins, dtype=np.float32).astype(np.float64 if wide else np.float32)
    vals = x.astype(np.float64 if wide else np.float32).reshape(-1)
    return np.array([bisect.bisect_right(edges.tolist(), float(v)) for v in vals]).reshape(x.shape)


@clause("keras.layer.lookup", ref="tf221")
def test_degen22c_discretization_values_on_the_boundaries(keras, tf, budget):
    """Discretization(bin_boundaries) and keras.ops.digitize: the bucket of x is the number of boundaries
    <= x, so a value equal to a boundary goes to the bucket above it — float inputs, integer inputs against
    boundaries that are not integers (compared as float32: 16777217.0 is 2**24 there), float64 inputs
    against boundaries rounded to float32 (digitize; the layer casts float64 to its float32 compute
    dtype first), and one_hot output; boundaries out of order are InvalidArgumentError."""
    bounds = [-1.5, 0.0, 2.0, 2.5]
    x_f = np.array([[-1.5, -2.0, 0.0, 1.0], [2.0, 2.5, 3.0, -0.0]], dtype=np.float32)
    x_i = np.array([[0, 1, 2, 3], [-1, -2, 4, 2]], dtype=np.int32)
    x_d = np.array([0.1, 0.3, 0.2, 1.0], dtype=np.float64)
    x_l = np.array([16777216, 16777217, 16777218, 5], dtype=np.int64)
    cases = [("float32", x_f, bounds, "int"), ("int32", x_i, [0.5, 2.0, 3.0], "int"),
             ("int64", x_l, [16777217.0], "int"), ("float64 (as float32)", x_d, [0.1, 0.3, 1.0], "int"),
             ("float32 one_hot", x_f[0], bounds, "one_hot"), ("digitize float64", x_d, [0.1, 0.3, 1.0], None),
             ("digitize int64", x_l, [6.5, 16777217.0], None)]
    for name, x, bins, mode in budget(cases):
        if mode is None:
            got = _np(keras.ops.digitize(x, bins))
            idx = _buckets_ref(x, bins)
        else:
            got = _np(keras.layers.Discretization(bin_boundaries=bins, output_mode=mode)(x))
            idx = _buckets_ref(x.astype(np.float32) if x.dtype == np.float64 else x, bins)
        want = idx if mode in ("int", None) else np.eye(len(bins) + 1)[idx]
        assert_equal(got.tolist(), want.tolist(), what="buckets",
                     call=f"{'Discretization' if mode else 'ops.digitize'}(bin_boundaries={bins}, "
                          f"output_mode={mode!r}) of {name} {x.tolist()}")
    for make in budget([lambda b: keras.ops.digitize(x_f, b),
                        lambda b: keras.layers.Discretization(bin_boundaries=b)(x_f)]):
        try:
            make([2.0, 0.5])
        except tf.errors.InvalidArgumentError as e:
            assert_true("Expected sorted boundaries" in str(e), f"unsorted boundaries: message {e}, but should "
                        "name 'Expected sorted boundaries'")
        else:
            assert_true(False, "Discretization / digitize with boundaries [2.0, 0.5] gave no error, but should "
                        "raise InvalidArgumentError 'Expected sorted boundaries' (Bucketize)")


@clause("keras.layer.lookup", ref="tf221")
def test_degen22c_lookup_oov_buckets_after_the_mask_index(keras, tf, budget):
    """IntegerLookup / StringLookup with num_oov_indices=n > 1 and a mask token: indices are [mask][OOV x n]
    [tokens]; an OOV input goes to 1 + floormod(x, n) (integers) or 1 + to_hash_bucket_fast(x, n)
    (strings), the mask token to 0, a token to 1 + n + its position; without a mask token the OOV
    buckets start at 0."""
    ints = np.array([[10, 7, 0, 30], [5, 20, 11, -4]], dtype=np.int64)
    strs = np.array([["a", "zz", "", "c"], ["q", "b", "hello", "a"]])
    cases = [("IntegerLookup mask 0", 3, 0), ("StringLookup mask ''", 3, ""), ("IntegerLookup no mask", 2, None),
             ("IntegerLookup mask 0, 4 OOV", 4, 0)]
    for name, n, mask in budget(cases):
        if name.startswith("Integer"):
            vocab, x = [10, 20, 30], ints
            layer = keras.layers.IntegerLookup(vocabulary=vocab, num_oov_indices=n, mask_token=mask)
            oov = np.mod(x, n)
        else:
            vocab, x = ["a", "b", "c"], strs
            layer = keras.layers.StringLookup(vocabulary=vocab, num_oov_indices=n, mask_token=mask)
            oov = _np(tf.strings.to_hash_bucket_fast(tf.constant(x), n))
        off = 0 if mask is None else 1
        want = np.where(x == mask, 0, oov + off) if mask is not None else oov + off
        for i, tok in enumerate(vocab):
            want = np.where(x == tok, off + n + i, want)
        got = _np(layer(tf.constant(x)))
        assert_equal(got.tolist(), want.tolist(), what="indices",
                     call=f"{name}(vocabulary={vocab}, num_oov_indices={n}) of {x.tolist()}")


@clause("keras.layer.lookup", ref="tf221")
def test_degen22c_count_modes_with_repeated_tokens(keras, tf, budget):
    """output_mode="count" counts each token's occurrences in a row (rows with repeats), "multi_hot" marks
    them: CategoryEncoding (with and without count_weights: the weights of a repeated token add up),
    IntegerLookup and StringLookup (index 0 the OOV slot, so an OOV token counts there)."""
    rows = np.array([[1, 3, 1, 1], [0, 2, 2, 3], [3, 3, 3, 3]], dtype=np.int64)
    weights = np.array([[0.5, 1.0, 2.0, 0.25], [1.0, 1.0, 3.0, 1.0], [1.0, 2.0, 3.0, 4.0]], dtype=np.float32)

    def counts(r: np.ndarray, w: np.ndarray | None = None, depth: int = 4) -> np.ndarray:
        out = np.zeros((len(r), depth))
        for i, row in enumerate(r):
            for j, t in enumerate(row):
                out[i, t] += 1.0 if w is None else float(w[i, j])
        return out
    vocab_rows = np.array([["b", "x", "b", "a"], ["c", "c", "c", "a"]])
    cases = ["CategoryEncoding count", "CategoryEncoding count_weights", "CategoryEncoding multi_hot",
             "IntegerLookup count", "StringLookup count"]
    for name in budget(cases):
        if name.startswith("CategoryEncoding"):
            mode = "multi_hot" if name.endswith("multi_hot") else "count"
            layer = keras.layers.CategoryEncoding(num_tokens=4, output_mode=mode)
            w = weights if name.endswith("weights") else None
            got = _np(layer(rows) if w is None else layer(rows, count_weights=w))
            want = counts(rows, w)
            if mode == "multi_hot":
                want = (want > 0).astype(np.float64)
        elif name.startswith("Integer"):
            got = _np(keras.layers.IntegerLookup(vocabulary=[3, 1, 2], output_mode="count")(rows))
            want = counts(np.vectorize({3: 1, 1: 2, 2: 3, 0: 0}.get)(rows))
        else:
            got = _np(keras.layers.StringLookup(vocabulary=["a", "b", "c"], output_mode="count")(tf.constant(vocab_rows)))
            want = counts(np.vectorize({"a": 1, "b": 2, "c": 3, "x": 0}.get)(vocab_rows))
        assert_equal(got.tolist(), want.tolist(), what="encoded rows", call=f"{name} of rows with repeated tokens")


_INITS = [("HeNormal", 2.0, "fan_in", "truncated_normal"), ("HeUniform", 2.0, "fan_in", "uniform"),
          ("LecunNormal", 1.0, "fan_in", "truncated_normal"), ("LecunUniform", 1.0, "fan_in", "uniform")]


def _fans(shape: tuple[int, ...]) -> tuple[int, int]:
    """Keras's compute_fans: a 2-D kernel (in, out); a convolution kernel's receptive field times its
    depths (kernel_size..., in, out)."""
    if len(shape) == 2:
        return shape[0], shape[1]
    rf = math.prod(shape[:-2])
    return shape[-2] * rf, shape[-1] * rf


@clause("ops.initializers", ref="tf221")
def test_degen22c_fan_modes_on_kernels_that_are_not_square(keras, budget):
    """VarianceScaling's scale / n with n = fan_in, fan_out or their mean, on Dense kernels (5, 3) and
    (3, 5) and convolution kernels (3, 4, 6) and (3, 2, 4, 6) where fan_in != fan_out: a seeded draw is
    the same seeded draw at unit scale times sqrt(scale / n) / 0.87962566103423978 (truncated normal,
    TruncatedNormal(0, 1)) or sqrt(3 scale / n) (uniform, RandomUniform(-1, 1)); He/Lecun named
    initializers likewise (fan_in)."""
    cases = [((5, 3), "HeNormal"), ((3, 5), "fan_out"), ((3, 4, 6), "fan_in"), ((3, 2, 4, 6), "fan_out"),
             ((5, 3), "LecunUniform"), ((3, 2, 4, 6), "HeUniform"), ((3, 5), "fan_in"), ((5, 3), "fan_avg")]
    for shape, which in budget(cases):
        fan_in, fan_out = _fans(shape)
        for dist in (("truncated_normal",) if which[0].isupper() else ("truncated_normal", "uniform")):
            if which[0].isupper():
                _, scale, mode, dist = next(c for c in _INITS if c[0] == which)
                init = getattr(keras.initializers, which)(seed=7)
            else:
                scale, mode = 1.5, which
                init = keras.initializers.VarianceScaling(scale=scale, mode=mode, distribution=dist, seed=7)
            n = {"fan_in": fan_in, "fan_out": fan_out, "fan_avg": (fan_in + fan_out) / 2.0}[mode]
            if dist == "uniform":
                factor = math.sqrt(3.0 * scale / n)
                unit = keras.initializers.RandomUniform(-1.0, 1.0, seed=7)
            else:
                factor = math.sqrt(scale / n) / 0.87962566103423978
                unit = keras.initializers.TruncatedNormal(0.0, 1.0, seed=7)
            got = _np(init(shape))
            want = _np(unit(shape)).astype(np.float64) * factor
            assert_close(got, want, tolerance=TOL32, what="values",
                         call=f"{which} ({mode}, {dist}, scale {scale}) of shape {shape}: fan_in {fan_in}, "
                              f"fan_out {fan_out}")
