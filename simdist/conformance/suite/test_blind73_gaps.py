"""The classes around the seventy-third blind batch's mutants (tests/mutants.py TRAINING_BATCH73) that the suite did
not catch on first contact, each checked as a class rather than as the one mutant: floating tf.range values, reductions
over axes of length 1 (TF's copy of the input), batched products with a transposed operand around Eigen's
coefficient-based threshold, the float32 reciprocal and rsqrt estimates at the ends of the exponent range, ...

Each program runs on the backend under test; its expected result is TF 2.21's, observed by running the same program
on TF (`python -m simdist.conformance.suite.test_blind73_gaps --record`, which rewrites blind73_reference.json.gz).
Recorded on this session's host, an Intel Xeon with AVX-512 and oneDNN on (recorded_programs.avx512_with_onednn): the
programs whose bits follow the CPU's kernels (prefix `kernel-`) run on simdist elsewhere under its reference model of
such a host. Floats are compared by their bits (hex of the IEEE value)."""

from __future__ import annotations

import os
from typing import Any

import numpy as np
import pytest

from simdist.conformance.suite.recorded_programs import (RecordedPrograms, avx512_with_onednn, bits as _bits,
                                                         error as _error, reference_cpu, rng as _rng)

PATH = os.path.join(os.path.dirname(__file__), "blind73_reference.json.gz")

#: programs whose TF 2.21 bits follow the CPU's kernels (clause ops.host-cpu): the reciprocal and rsqrt estimates'
#: tables, oneDNN's half softmax, the packet/tail split of the transcendental kernels
HOST_DEPENDENT = ("kernel-",)

REF = RecordedPrograms(PATH, HOST_DEPENDENT, recording_host=avx512_with_onednn, recording_cpu=reference_cpu)
_program, _ids, _check = REF.add, REF.ids, REF.check


# -- 1. ops: floating ranges, reductions over axes of length 1, products around the coefficient-based threshold -------
def _float_ranges(tf: Any, mk: Any) -> Any:
    """tf.range of float32, float64 and float16 with fractional starts and deltas, rising and falling, long enough
    that a running sum would drift from RangeFunctor's start + i * delta; the dtype inferred from mixed int/float
    arguments."""
    out = {}
    for start, limit, delta in ((0.1, 3.7, 0.1), (-1.3, 2.2, 0.07), (0.3, 9.9, 0.3), (5.0, -2.5, -0.35),
                                (1e-3, 0.5, 3e-3), (100.25, 101.0, 0.01)):
        for dt in ("float32", "float64"):
            out[f"{dt} {start} {limit} {delta}"] = _bits(tf.range(start, limit, delta, dtype=dt))
        out[f"inferred {start} {limit} {delta}"] = _bits(tf.range(start, limit, delta))
    out["float16 0.1 3.7 0.1"] = _bits(tf.range(0.1, 3.7, 0.1, dtype="float16"))
    for args in ((0, 2.5), (1, 7, 2.0), (0.5, 4), (3,), (2, 11, 3)):
        t = tf.range(*args)
        out[f"infer {args}"] = [t.dtype.name, _bits(t)]
    out["limit only float"] = _bits(tf.range(4.5))
    return out


_program("op-float-ranges", _float_ranges)


def _length_one_reductions(tf: Any, mk: Any) -> Any:
    """Sums, means, products, maxima and minima over axes of length 1 (one element per output: TF copies the input,
    so -0.0 stays -0.0) in every float dtype, keepdims or not, one such axis among longer ones and several at once."""
    out = {}
    base = np.array([[-0.0, 1.5, -0.0], [-2.0, -0.0, 0.0]], np.float32)
    for dt in ("float16", "bfloat16", "float32", "float64"):
        x = tf.cast(tf.constant(base.reshape(2, 1, 3)), dt)
        for name, f in (("sum", tf.reduce_sum), ("mean", tf.reduce_mean), ("prod", tf.reduce_prod),
                        ("max", tf.reduce_max), ("min", tf.reduce_min)):
            out[f"{name} {dt} axis 1"] = _bits(f(x, axis=1))
            out[f"{name} {dt} axis 1 keepdims"] = _bits(f(x, axis=1, keepdims=True))
            out[f"{name} {dt} axis -2"] = _bits(f(x, axis=-2))
        col = tf.cast(tf.constant(base.reshape(6, 1)), dt)
        out[f"sum {dt} column axis 1"] = _bits(tf.reduce_sum(col, axis=1))
        out[f"mean {dt} column axis 1"] = _bits(tf.reduce_mean(col, axis=1))
        one = tf.cast(tf.constant(np.full((1, 1, 4), -0.0, np.float32)), dt)
        out[f"sum {dt} axes 0,1"] = _bits(tf.reduce_sum(one, axis=[0, 1]))
        out[f"sum {dt} axes 0,1 of length 1 and 4"] = _bits(tf.reduce_sum(tf.reshape(one, [1, 4]), axis=[0]))
    return out


_program("op-length-one-reductions", _length_one_reductions)


def _transposed_products_near_threshold(tf: Any, mk: Any) -> Any:
    """Batched float64 products with transpose_a or transpose_b (and adjoint) of small integers (every sum exact, so
    only the order's signed zeros can differ) whose m + k + n runs from 17 to 23 around Eigen's coefficient-based
    threshold (20): zeros times negatives (-0.0 under the lazy product, +0.0 under GEMM), a batch of one and of two."""
    out = {}
    for m, k, n in ((5, 6, 6), (6, 6, 7), (6, 7, 7), (7, 7, 7), (5, 9, 6), (8, 8, 4), (8, 8, 5), (4, 10, 6),
                    (9, 7, 5)):
        r = _rng(f"lazy{m}{k}{n}")
        for batch in (1, 2):
            z = np.zeros((batch, m, k))
            neg = -r.randint(1, 4, (batch, n, k)).astype(np.float64)
            out[f"{m}x{k}x{n} b{batch} zeros tb"] = _bits(tf.matmul(tf.constant(z), tf.constant(neg), transpose_b=True))
            neg_t = -r.randint(1, 4, (batch, k, n)).astype(np.float64)
            zt = np.zeros((batch, k, m))
            out[f"{m}x{k}x{n} b{batch} zeros ta"] = _bits(tf.matmul(tf.constant(zt), tf.constant(neg_t),
                                                                    transpose_a=True))
            a = r.randint(-3, 4, (batch, m, k)).astype(np.float64)
            out[f"{m}x{k}x{n} b{batch} ints tb"] = _bits(tf.matmul(tf.constant(a), tf.constant(neg), transpose_b=True))
            out[f"{m}x{k}x{n} b{batch} zeros adjoint_b"] = _bits(tf.linalg.matmul(tf.constant(z), tf.constant(neg),
                                                                                  adjoint_b=True))
    return out


_program("op-transposed-products-near-threshold", _transposed_products_near_threshold)


def _explicit_paddings(tf: Any, mk: Any) -> Any:
    """Pools and convolutions given explicit paddings (a list per dimension, uneven and one-sided), windows and
    strides that differ, NHWC: max_pool2d, max_pool, their gradients, conv2d and its gradients; small integers, so
    every sum is exact."""
    r = _rng("explicitpads")
    out = {}
    x = tf.constant(r.randint(-4, 5, (2, 5, 6, 2)).astype(np.float32))
    for pads in ([[0, 0], [1, 0], [0, 1], [0, 0]], [[0, 0], [2, 1], [1, 2], [0, 0]], [[0, 0], [0, 0], [2, 0], [0, 0]]):
        for ksize, strides in ((2, 2), (3, 1), ([2, 3], [1, 2])):
            key = f"{pads[1]}{pads[2]} k{ksize} s{strides}"
            out[f"max_pool2d {key}"] = _error(lambda: _bits(tf.nn.max_pool2d(x, ksize, strides, pads)))
            out[f"max_pool {key}"] = _error(lambda: _bits(tf.nn.max_pool(x, ksize, strides, pads)))
        with tf.GradientTape() as t:
            t.watch(x)
            y = tf.nn.max_pool2d(x, 3, 2, pads)
        out[f"max_pool2d gradient {pads[1]}{pads[2]}"] = _bits(t.gradient(tf.reduce_sum(y * y), x))
        f = tf.constant(r.randint(-2, 3, (2, 3, 2, 3)).astype(np.float32))
        for strides in (1, 2):
            out[f"conv2d {pads[1]}{pads[2]} s{strides}"] = _bits(tf.nn.conv2d(x, f, strides, pads))
        with tf.GradientTape(persistent=True) as t:
            t.watch([x, f])
            y = tf.nn.conv2d(x, f, 1, pads)
        out[f"conv2d gradients {pads[1]}{pads[2]}"] = [_bits(g) for g in t.gradient(y, [x, f])]
    out["avg_pool2d explicit"] = _error(lambda: _bits(tf.nn.avg_pool2d(x, 2, 2, [[0, 0], [1, 0], [0, 1], [0, 0]])))
    return out


_program("op-explicit-paddings", _explicit_paddings)


def _truncating_casts(tf: Any, mk: Any) -> Any:
    """tf.raw_ops.Cast with Truncate True and False (and tf.cast, which rounds) from float32 and float64 to bfloat16,
    float16 and float32, of values whose dropped bits are below, at and above half an ulp, negative ones, and
    values near the target's overflow and underflow."""
    r = _rng("trunccasts")
    base = (r.randn(24) * 3).astype(np.float32)
    edge = np.array([1.0 + 2 ** -8, 1.0 + 2 ** -8 + 2 ** -20, 1.0 + 3 * 2 ** -9, -1.0 - 2 ** -8, 65519.0, 65520.0,
                     6e-8, 3e-38, -2.5e-5, 3.3e38], np.float32)
    out = {}
    for name, v in (("float32", np.concatenate([base, edge])),
                    ("float64", np.concatenate([base, edge]).astype(np.float64) * (1 + 2 ** -30))):
        t = tf.constant(v)
        for dst in (tf.bfloat16, tf.float16, tf.float32):
            if dst.name == name:
                continue
            for trunc in (True, False):
                out[f"{name} -> {dst.name} Truncate={trunc}"] = _error(
                    lambda: _bits(tf.raw_ops.Cast(x=t, DstT=dst, Truncate=trunc)))
            out[f"{name} -> {dst.name} tf.cast"] = _bits(tf.cast(t, dst))
    return out


_program("op-truncating-casts", _truncating_casts)


# -- 2. kernels: reciprocal and rsqrt estimates at the ends of the range (bits follow the CPU) ------------------------
def _estimates_at_the_ends(tf: Any, mk: Any) -> Any:
    """float32 reciprocal, rsqrt and the ops built on them, of values across the exponent range: the top binades
    (2^125 to FLT_MAX, whose reciprocals are subnormal or flushed), the smallest normals, subnormals, ±0, ±inf and
    NaN, in whole packets of 8 and 16 and in the scalar tail."""
    vals = [2.0 ** 126 * 1.5, 2.0 ** 126, -2.0 ** 126 * 1.25, 2.0 ** 125 * 1.9, 2.0 ** 127 * 1.1, 3.4e38, -3.4e38,
            2.0 ** -126, 2.0 ** -125 * 1.3, 1e-40, -3e-39, 5e-45, 0.0, -0.0, np.inf, -np.inf, np.nan, 3.0, 0.7, 1.0]
    x = np.array(vals, np.float32)
    pos = np.abs(x)
    out = {}
    for n in (8, 16, 20):   # (whole packets, and a scalar tail of 4)
        out[f"reciprocal {n}"] = _bits(tf.math.reciprocal(tf.constant(x[:n])))
        out[f"rsqrt {n}"] = _bits(tf.math.rsqrt(tf.constant(pos[:n])))
        out[f"rsqrt signed {n}"] = _bits(tf.math.rsqrt(tf.constant(x[:n])))
    out["reciprocal tiled 32"] = _bits(tf.math.reciprocal(tf.constant(np.tile(x[:16], 2))))
    out["rsqrt tiled 32"] = _bits(tf.math.rsqrt(tf.constant(np.tile(pos[:16], 2))))
    xt = tf.constant(pos[:16])
    with tf.GradientTape() as t:
        t.watch(xt)
        y = tf.reduce_sum(tf.math.rsqrt(xt) + tf.math.reciprocal(xt + 1.0))
    out["gradient"] = _bits(t.gradient(y, xt))
    return out


_program("kernel-estimates-at-the-ends", _estimates_at_the_ends)


# -- 3. random: Philox counters that carry across a 64-bit word --------------------------------------------------------
def _counters_near_the_wrap(tf: Any, mk: Any) -> Any:
    """tf.random.Generator (philox) from states whose counter's low 64-bit word is a few blocks below 2^64 (and the
    high word at its end too), drawing uniform floats, normals, truncated normals and bounded integers across the
    carry into the high word; the states after the draws, and a skip across the wrap."""
    out = {}
    for lo, hi in ((-3, 0), (-1, 0), (-9, 5), (-2, -1), (-40, 7)):
        for alg_draw in ("uniform", "normal", "truncated", "ints", "skip"):
            g = tf.random.Generator.from_state(np.array([lo, hi, 12345], np.int64), alg="philox")
            if alg_draw == "uniform":
                v = g.uniform([37])
            elif alg_draw == "normal":
                v = g.normal([29], dtype=tf.float64)
            elif alg_draw == "truncated":
                v = g.truncated_normal([21])
            elif alg_draw == "ints":
                v = g.uniform([33], minval=-50, maxval=1000, dtype=tf.int64)
            else:
                g.skip(5)
                v = g.uniform([9])
            out[f"{lo} {hi} {alg_draw}"] = [_bits(v), _bits(g.state)]
    return out


_program("random-counters-near-the-wrap", _counters_near_the_wrap)


# -- 4. tf.function: reduce_retracing's relaxed traces over several parameters -------------------------------------------
def _relaxed_traces(tf: Any, mk: Any) -> Any:
    """tf.function(reduce_retracing=True) of two and three tensor parameters called with shapes that vary in one
    parameter at a time, then in the others, then in all: the tracing count after each call (TF relaxes a new trace's
    key against every earlier trace in turn), and the results."""
    out = {}
    sequences = {
        "two, first then second": [([1], [5]), ([1], [6]), ([2], [5]), ([3], [7]), ([4], [8]), ([1, 1], [5])],
        "two, second then first": [([2], [3]), ([4], [3]), ([2], [9]), ([5], [6]), ([7], [1])],
        "two, both at once": [([1], [1]), ([2], [2]), ([3], [1]), ([1], [3]), ([2, 2], [2])],
        "three": [([1], [2], [3]), ([1], [2], [4]), ([1], [5], [3]), ([6], [2], [3]), ([7], [8], [9]), ([1], [2], [3])],
    }
    for name, calls in sequences.items():
        @tf.function(reduce_retracing=True)
        def f(*xs: Any) -> Any:
            return tf.add_n([tf.reduce_sum(x) for x in xs])
        counts = []
        for shapes in calls:
            args = [tf.ones(sh) * (i + 1) for i, sh in enumerate(shapes)]
            v = f(*args)
            counts.append([_bits(v), f.experimental_get_tracing_count()])
        out[name] = counts
    @tf.function(reduce_retracing=True)
    def g(a: Any, b: Any) -> Any:
        return tf.reduce_sum(a) + tf.cast(tf.reduce_sum(b), tf.float32)
    got = []
    for a, b in ((tf.zeros([2]), tf.zeros([2])), (tf.ones([3]), tf.ones([2], tf.int32)),
                 (tf.ones([4]), tf.ones([2], tf.float64)), (tf.ones([5]), tf.ones([3], tf.int32)),
                 (tf.ones([6]), tf.ones([4]))):
        got.append([_error(lambda: _bits(g(a, b))), g.experimental_get_tracing_count()])
    out["dtypes in one parameter"] = got
    return out


_program("function-relaxed-traces-over-parameters", _relaxed_traces)


# -- 5. distribution: the aggregation a distributed variable's dtype allows -------------------------------------------
def _aggregations_by_dtype(tf: Any, mk: Any) -> Any:
    """Variables created under MirroredStrategy with each aggregation (NONE, SUM, MEAN, ONLY_FIRST_REPLICA) and each
    dtype (bool, complex64/128, the integers, the floats), mirrored and sync-on-read: the dtype made, or the error."""
    s = mk()
    out = {}
    values = {"bool": [True, False], "complex64": [1 + 2j], "complex128": [1 - 1j], "int32": [3], "int64": [4],
              "uint8": [5], "float16": [1.5], "bfloat16": [2.5], "float32": [0.5], "float64": [0.25]}
    for dt, v in values.items():
        for agg in ("NONE", "SUM", "MEAN", "ONLY_FIRST_REPLICA"):
            for sync in ("AUTO", "ON_READ"):
                def make() -> Any:
                    with s.scope():
                        var = tf.Variable(tf.constant(v, dtype=dt), aggregation=getattr(tf.VariableAggregation, agg),
                                          synchronization=getattr(tf.VariableSynchronization, sync),
                                          trainable=False if sync == "ON_READ" else None)
                    return [var.dtype.name, type(var).__name__]
                out[f"{dt} {agg} {sync}"] = _error(make)
    return out


_program("dist-aggregations-by-dtype", _aggregations_by_dtype)


@pytest.mark.clause("ops.eigen-kernels")
@pytest.mark.parametrize("name", _ids("kernel-"))
def test_blind73_kernels_bit_for_bit(backend: Any, name: str) -> None:
    """The reciprocal and rsqrt estimates at the ends of the range, bit for bit against TF 2.21 on an AVX-512 oneDNN
    host."""
    _check(backend, name)


@pytest.mark.clause("ops.nonfinite-silent")
@pytest.mark.parametrize("name", _ids("op-"))
def test_blind73_ops_values(backend: Any, name: str) -> None:
    """Floating ranges, reductions over axes of length 1, transposed products near the coefficient-based threshold."""
    _check(backend, name)


@pytest.mark.clause("ops.random-ranges")
@pytest.mark.parametrize("name", _ids("random-"))
def test_blind73_random_draws(backend: Any, name: str) -> None:
    """Generator draws across a Philox counter's 64-bit carry."""
    _check(backend, name)


@pytest.mark.clause("ops.cast-half-through-float")
def test_blind73_casts_to_half_types_round_through_float32(backend: Any) -> None:
    """float64 values a hair above half an ulp of float32 cast to float16/bfloat16: TF 2.21 rounds through float32
    (twice), with Truncate and without, and tf.cast."""
    _check(backend, "op-truncating-casts")


@pytest.mark.clause("ops.philox-counter-wrap")
def test_blind73_philox_counter_wraps_into_its_high_word(backend: Any) -> None:
    """A Generator's Philox counter crossing 2^64: the carry into the high word, wrapped, as TF 2.21's draws show."""
    _check(backend, "random-counters-near-the-wrap")


@pytest.mark.clause("function.tracing-count")
@pytest.mark.parametrize("name", _ids("function-"))
def test_blind73_relaxed_traces(backend: Any, name: str) -> None:
    """reduce_retracing's trace counts over calls varying in one parameter at a time."""
    _check(backend, name)


@pytest.mark.clause("mirrored.aggregation")
@pytest.mark.parametrize("name", _ids("dist-"))
def test_blind73_aggregations_by_dtype(backend: Any, name: str) -> None:
    """Which aggregation each dtype of a mirrored or sync-on-read variable allows."""
    _check(backend, name)


if __name__ == "__main__":
    import sys
    if "--record" in sys.argv:
        REF.record()
