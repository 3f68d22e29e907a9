"""The value, gradient and graph-rewrite rules the second differential fuzzer (tests/fuzz2/) found
wrong, each against real TensorFlow 2.21: the same call on both backends gives the same dtype and
bits (any NaN matching any NaN), or raises the same exception class. Casts of floats to unsigned
and narrow integers (packets and the scalar tail), bfloat16 through ops that asked NumPy's finfo,
linalg.trace of non-square and batched matrices, gather_nd of empty params, gradients of a bool
gather and of an empty reverse, Tile's missing uint16 kernel, Range's allocation and index dtypes,
and Grappler's value-changing rewrites inside tf.function. Needs the `tf` extra.
"""

from __future__ import annotations

from typing import Any, Callable

import numpy as np
import pytest

import edge_compare
import tf_workers

pytestmark = [pytest.mark.tf, tf_workers.tf_or_golden(__file__)]
clause = pytest.mark.clause

_EDGE = [np.inf, -np.inf, np.nan, 1e19, 5e9, -5e9, -1.0, 70000.0, -70000.0, -3.0, 2.0 ** 64, 1e30]


def _cast(src: str, dst: str, n: int) -> Callable[[Any], Any]:
    """Each edge value repeated n times (n = 1: the scalar tail; n = 8 or 16: packets), cast
    from float64 to src, then to dst; the first of each run."""
    def run(tf: Any) -> Any:
        x = tf.constant(np.repeat(np.array(_EDGE, np.float64), n), tf.float64)
        return tf.cast(tf.cast(x, getattr(tf, src)), getattr(tf, dst))[::n]
    return run


def _traced(fn: Callable[..., Any], *arrays: np.ndarray) -> Callable[[Any], Any]:
    """fn(tf, *tensors) inside a tf.function taking the tensors as arguments, called twice (the
    recording call and a replay): both results."""
    def run(tf: Any) -> Any:
        f = tf.function(lambda *xs: fn(tf, *xs), autograph=False)
        made = [tf.constant(a) for a in arrays]
        return [f(*made), f(*made)]
    return run


def _grad_of(fn: Callable[[Any, Any], Any], var: Callable[[Any], Any]) -> Callable[[Any], Any]:
    """The gradient of fn(tf, v) to a variable, converted to a tensor (-99 for None)."""
    def run(tf: Any) -> Any:
        v = var(tf)
        with tf.GradientTape() as tape:
            y = fn(tf, v)
        g = tape.gradient(y, v)
        return tf.constant(-99) if g is None else tf.convert_to_tensor(g)
    return run


_RNG = np.random.default_rng(20261129)


def _vals(dt: Any, n: int, positive: bool = False) -> np.ndarray:
    a = _RNG.standard_normal(n) * 10
    a[: min(n, 5)] = [0.0, -0.0, np.inf, 3.0, 7.5][: min(n, 5)]
    if positive:
        a = np.abs(a)
    return a.astype(dt)


_MONO = np.array([[3.0, -1.0, np.nan, 2.0], [3.0, 3.0, -0.0, 0.0], [-np.inf, 5.0, 1.0, np.inf]], np.float32)

CASES: list[tuple[str, str, Callable[[Any], Any]]] = [
    # -- casts: uint64 (+inf, 2**64 and over give 2**63), uint32 packets through int32, bfloat16 packets
    *[(f"cast-{s}-to-{d}-n{n}", "ops.packet-paths", _cast(s, d, n))
      for s in ("float64", "float32", "float16", "bfloat16") for d in ("uint64", "uint32") for n in (1, 8)],
    *[(f"cast-nan-sign-to-uint32-n{n}", "ops.packet-paths",
       lambda tf, n=n: tf.cast(tf.sign(tf.constant(([-3e38, np.nan, 0.0, 100.0, 3.0, -2.5] * 4)[:n], tf.float64)), tf.uint32))
      for n in (2, 6, 24)],
    *[(f"cast-bfloat16-to-{d}-n{n}", "ops.packet-paths", _cast("bfloat16", d, n))
      for d in ("int8", "uint8", "int16", "uint16") for n in (1, 8)],
    # -- bfloat16 where the kernels asked NumPy's finfo (fuzz2 seed 5 #110, seed 20261130 #53, #97)
    ("softplus-bfloat16", "ops.bfloat16", lambda tf: tf.math.softplus(tf.constant([0.5, -1.0, 30.0, np.nan, -30.0], tf.bfloat16))),
    ("segment-min-bfloat16", "ops.bfloat16",
     lambda tf: tf.math.segment_min(tf.constant([0.5, -1.0, 30.0], tf.bfloat16), [0, 0, 2])),
    ("unsorted-segment-max-bfloat16", "ops.bfloat16",
     lambda tf: tf.math.unsorted_segment_max(tf.constant([0.5, -1.0, 30.0], tf.bfloat16), [0, 0, 2], 4)),
    ("saturate-cast-to-bfloat16", "ops.bfloat16",
     lambda tf: tf.saturate_cast(tf.constant([1e39, -1e39, 0.25], tf.float64), tf.bfloat16)),
    *[(f"{fn}-bfloat16-nan", "ops.bfloat16",
       lambda tf, fn=fn: getattr(tf, fn)(tf.constant([[1.0, 2.5], [2.6, np.nan], [np.nan, -np.inf], [3e38, 0.5]], tf.bfloat16), axis=0))
      for fn in ("argmin", "argmax")],
    ("sign-of-negative-zero-bfloat16", "ops.bfloat16",
     lambda tf: tf.sign(tf.math.floormod(tf.constant([-1.0, 0.25, -0.0], tf.bfloat16), tf.constant([-1.0, 0.25, 2.0], tf.bfloat16)))),
    *[(f"floor{k}-bfloat16", "ops.bfloat16",
       lambda tf, f=f: f(tf)(tf.constant([-1.0, 1.0, -0.0, 5.5, -5.5, np.inf, -3.0, 7.0, 1e30], tf.bfloat16),
                             tf.constant([1.0, -1.0, 2.0, -2.0, 2.0, 3.0, np.inf, -np.inf, 3.0], tf.bfloat16)))
      for k, f in (("mod", lambda tf: tf.math.floormod), ("div", lambda tf: tf.math.floordiv))],
    ("reduce-max-empty-bfloat16", "ops.bfloat16", lambda tf: tf.reduce_max(tf.zeros([0], tf.bfloat16))),
    # -- linalg.trace: reduce_sum(matrix_diag_part(x), -1) (fuzz2 seed 5 #103)
    ("trace-rank3-float64", "ops.matrix-diag", lambda tf: tf.linalg.trace(tf.constant([[[-2.5], [1.5]]], tf.float64))),
    ("trace-rank3-int32", "ops.matrix-diag", lambda tf: tf.linalg.trace(tf.reshape(tf.range(24), [2, 3, 4]))),
    ("trace-rank4-float32", "ops.matrix-diag", lambda tf: tf.linalg.trace(tf.reshape(tf.range(24.0), [2, 1, 4, 3]))),
    ("trace-empty-batch", "ops.matrix-diag", lambda tf: tf.linalg.trace(tf.zeros([0, 2, 2]))),
    ("trace-vector", "ops.matrix-diag", lambda tf: tf.linalg.trace(tf.constant([1.0, 2.0]))),
    ("trace-bool", "ops.matrix-diag", lambda tf: tf.linalg.trace(tf.constant([[True]]))),
    ("trace-gradient", "ops.matrix-diag",
     _grad_of(lambda tf, v: tf.linalg.trace(v * v), lambda tf: tf.Variable([[[1.0, 2.0, 3.0], [3.0, 4.0, 5.0]]]))),
    # -- gather_nd of empty params (fuzz2 seed 4 #286, seed 7 #108)
    ("gather-nd-empty-params-slices", "ops.empty-inputs",
     lambda tf: tf.gather_nd(tf.zeros([2, 0], tf.int64), [[0], [1]])),
    ("gather-nd-empty-params-elements", "ops.empty-inputs",
     lambda tf: tf.gather_nd(tf.zeros([2, 0]), [[0, 0], [1, 0]])),
    ("gather-nd-empty-params-no-index", "ops.empty-inputs",
     lambda tf: tf.gather_nd(tf.zeros([0, 2]), tf.zeros([0, 2], tf.int32))),
    ("gather-nd-empty-params-depth0", "ops.empty-inputs", lambda tf: tf.gather_nd(tf.zeros([2, 0]), tf.zeros([3, 0], tf.int32))),
    ("pow-of-empty-gather-nd", "ops.empty-inputs",
     lambda tf: tf.gather_nd(tf.zeros([2, 3, 0], tf.int64), [[1], [0]]) ** tf.zeros([2, 3, 0], tf.int64)),
    # -- gradients: a bool gather's IndexedSlices refused by the conversion, an empty reverse recorded
    ("grad-gather-bool-variable", "ops.gather-gradient-indexed-slices",
     _grad_of(lambda tf, v: tf.gather(v, [0], axis=0), lambda tf: tf.Variable([False, True]))),
    ("where-numpy-uint8-beside-variable", "ops.conversion",
     _grad_of(lambda tf, v: tf.where(v > 1.5, np.uint8(3), v), lambda tf: tf.Variable([1.0, 2.0, 3.0]))),
    ("where-variable-beside-numpy-uint8", "ops.conversion",
     _grad_of(lambda tf, v: tf.where(v > 1.5, v, np.uint8(3)), lambda tf: tf.Variable([1.0, 2.0, 3.0]))),
    ("grad-one-hot-times-variable", "ops.gradient-none-or-zeros",
     _grad_of(lambda tf, v: tf.one_hot(tf.cast(v, tf.int32), 3) * v[0], lambda tf: tf.Variable([1.0, 2.0, 3.0]))),
    ("grad-segment-max-of-sqrt", "ops.gradient-none-or-zeros",
     _grad_of(lambda tf, v: tf.math.segment_max(tf.sqrt(v), [0, 0, 1]), lambda tf: tf.Variable([1.0, 2.0, 3.0]))),
    *[(f"grad-saturate-cast-to-{d}", "ops.truncation",
       _grad_of(lambda tf, v, d=d: tf.realdiv(tf.saturate_cast(v, getattr(tf, d)), np.float16(0.5)),
                lambda tf: tf.Variable([1.0, np.nan, 3e38, -np.inf, 70000.0]))) for d in ("float64", "float16")],
    *[(f"grad-transpose-perm-{k}", "ops.gradient-none-or-zeros",
       _grad_of(lambda tf, v, p=p: tf.transpose(v, perm=p) * 2.0, lambda tf: tf.Variable(tf.ones([1, 3, 2]))))
      for k, p in (("negative", [-1, -2, -3]), ("mixed", [0, -1, 1]), ("reversed", [2, 1, 0]))],
    *[(f"grad-bool-variable-{k}", "ops.gradient-none-or-zeros",
       _grad_of(f, lambda tf: tf.Variable([True, False, False])))
      for k, f in (("concat-one", lambda tf, v: tf.concat([v], axis=-1)), ("concat-two", lambda tf, v: tf.concat([v, v], 0)),
                   ("identity", lambda tf, v: tf.identity(v)), ("read", lambda tf, v: tf.convert_to_tensor(v)))],
    ("grad-reverse-empty-int-variable", "ops.gradient-none-or-zeros",
     _grad_of(lambda tf, v: tf.reverse(v, [0]), lambda tf: tf.Variable(tf.zeros([0], tf.int32)))),
    ("grad-reverse-empty-float-variable", "ops.gradient-none-or-zeros",
     _grad_of(lambda tf, v: tf.reverse(v, [0]), lambda tf: tf.Variable(tf.zeros([0, 2])))),
    # -- Tile has no uint16 kernel; it returns before looking (fuzz2 seed 7 #190)
    *[(f"tile-uint16-{k}", "ops.array-more", lambda tf, x=x, m=m: tf.tile(tf.constant(x, tf.uint16), m))
      for k, x, m in (("twice", [1, 2], [2]), ("ones", [1, 2], [1]), ("zero", [1, 2], [0]), ("empty", [], [2]),
                      ("scalar", 5, []), ("matrix", [[1, 2]], [1, 2]))],
    ("repeat-uint16", "ops.array-more", lambda tf: tf.repeat(tf.constant([4, 65534], tf.uint16), 2, axis=-1)),
    ("repeat-uint16-once", "ops.array-more", lambda tf: tf.repeat(tf.constant([4, 65534], tf.uint16), 1)),
    # -- Range: an output the host cannot allocate, and its index dtypes (fuzz2 seed 7 #157, seed 20261130 #1036)
    ("sequence-mask-huge", "ops.array-more", lambda tf: tf.sequence_mask(tf.constant([-1, 3, 2 ** 63 - 1], tf.int64))),
    ("sequence-mask-2-40", "ops.array-more", lambda tf: tf.sequence_mask(tf.constant([1, 2 ** 40], tf.int64))),
    ("sequence-mask-uint8", "ops.array-more", lambda tf: tf.sequence_mask(tf.constant(5, tf.uint8))),
    ("traced-sequence-mask-uint8", "ops.array-more",
     lambda tf: tf.function(lambda x: tf.sequence_mask(x))(tf.constant([[5], [2]], tf.uint8))),
    ("traced-sequence-mask-int16", "ops.array-more",
     lambda tf: tf.function(lambda x: tf.sequence_mask(x))(tf.constant([[5], [2]], tf.int16))),
    ("sequence-mask-int16", "ops.array-more", lambda tf: tf.sequence_mask(tf.constant([2, 3], tf.int16))),
    # -- Grappler's rewrites inside tf.function (function.grappler-rewrites)
    *[(f"traced-x-div-sqrt-y-{dt.__name__}-n{n}", "function.grappler-rewrites",
       _traced(lambda tf, x, y: x / tf.sqrt(y), _vals(dt, n), _vals(dt, n, True)[::-1].copy()))
      for dt, n in ((np.float32, 1), (np.float32, 5), (np.float64, 9), (np.float16, 12))],
    ("traced-realdiv-sqrt-float64", "function.grappler-rewrites",
     _traced(lambda tf, x, y: tf.realdiv(x, tf.sqrt(tf.repeat(y, 1))), _vals(np.float64, 6), _vals(np.float64, 6, True))),
    ("traced-sqrt-used-twice", "function.grappler-rewrites",
     _traced(lambda tf, x, y: [tf.sqrt(y) * 2.0, x / tf.sqrt(y)], _vals(np.float32, 3), _vals(np.float32, 3, True))),
    *[(f"traced-x-div-const-{dt.__name__}", "function.grappler-rewrites",
       _traced(lambda tf, x: [x / 3.0, x / [50.0], tf.math.divide(x, 7.0)], _vals(dt, 11)))
      for dt in (np.float32, np.float64, np.float16)],
    ("traced-const-div-const", "function.grappler-rewrites",
     _traced(lambda tf, x: [tf.fill([3], tf.constant(1.0, x.dtype)) / 3.0 + x], _vals(np.float32, 3))),
    ("traced-x-div-sqrt-const", "function.grappler-rewrites",
     _traced(lambda tf, x: x / tf.sqrt(tf.constant(3.0, x.dtype)), _vals(np.float64, 5))),
    *[(f"traced-pow-{c}-{dt.__name__}", "function.grappler-rewrites",
       _traced(lambda tf, x, c=c: tf.pow(x, c), _vals(dt, 6)))
      for c in (2.0, 3.0, 0.5, -0.5, -1.0) for dt in (np.float64, np.float16)],
    ("traced-pow-2-float32", "function.grappler-rewrites", _traced(lambda tf, x: x ** 2, _vals(np.float32, 5))),
    ("traced-pow-3-int32", "function.grappler-rewrites",
     _traced(lambda tf, x: tf.pow(x, 3), np.array([3, -7, 1291, 0], np.int32))),
    ("traced-pow-vector-exponent", "function.grappler-rewrites",
     _traced(lambda tf, x: tf.pow(x, [2.0, 2.0, 3.0]), _vals(np.float64, 3))),
    ("traced-log-1-plus-x", "function.grappler-rewrites",
     _traced(lambda tf, x: [tf.math.log(1.0 + x), tf.math.log(x + 1.0)], np.array([-0.0, 1e-20, 0.4132598], np.float64))),
    ("traced-exp-x-minus-1", "function.grappler-rewrites",
     _traced(lambda tf, x: tf.exp(x) - 1.0, np.array([-0.0, 1e-20, 0.4132598], np.float64))),
    *[(f"traced-x-plus-zero-{dt.__name__}", "function.grappler-rewrites",
       _traced(lambda tf, x: [x + 0.0, 0.0 + x, x + tf.zeros_like(x)], np.array([-0.0, 0.0, 1.5], dt)))
      for dt in (np.float32, np.float64, np.float16)],
    ("traced-x-plus-zero-broadcast", "function.grappler-rewrites",
     _traced(lambda tf, x: x + tf.zeros([2, 3], x.dtype), np.array([-0.0, 0.0, 1.5], np.float32))),
    ("traced-x-minus-zero", "function.grappler-rewrites",
     _traced(lambda tf, x: [x - 0.0, x - tf.zeros_like(x), x - tf.zeros([2, 3], x.dtype)], np.array([-0.0, 0.0, 1.5], np.float32))),
    *[(f"traced-zero-minus-y-{dt.__name__}", "function.grappler-rewrites",
       _traced(lambda tf, x: [0.0 - x, tf.zeros_like(x) - x], np.array([0.0, -0.0, 1.5, np.inf], dt)))
      for dt in (np.float32, np.float64)],
    *[(f"traced-one-div-y-{dt.__name__}", "function.grappler-rewrites",
       _traced(lambda tf, x: 1.0 / x, _vals(dt, 6))) for dt in (np.float64, np.float16)],
    *[(f"traced-monotonic-{k}", "function.grappler-rewrites", _traced(f, _MONO))
      for k, f in (("min-sign-empty", lambda tf, a: tf.reduce_min(tf.sign(a[:, :0]), axis=1)),
                   ("max-neg", lambda tf, a: tf.reduce_max(-a, axis=0)),
                   ("argmax-neg", lambda tf, a: tf.argmax(-a, axis=1)),
                   ("argmin-sqrt", lambda tf, a: tf.argmin(tf.sqrt(a), axis=0)),
                   ("argmax-tanh", lambda tf, a: tf.argmax(tf.tanh(a * 100.0), axis=1)),
                   ("max-relu", lambda tf, a: tf.reduce_max(tf.nn.relu(a), axis=1)),
                   ("min-sigmoid-all", lambda tf, a: tf.reduce_min(tf.sigmoid(a))))],
    ("traced-div-by-huge-constant", "function.grappler-rewrites",
     _traced(lambda tf, a: a / tf.constant([[-3e38, 4.0, 5.0, 1e38]], tf.float32), _MONO)),
    ("traced-reciprocal-reciprocal", "function.grappler-rewrites",
     _traced(lambda tf, x: tf.math.reciprocal(tf.math.reciprocal(x)), _vals(np.float64, 7))),
]
EDGES = edge_compare.EdgeModule(__file__, CASES)


@pytest.fixture(scope="module")
def tf_results() -> dict[int, Any]:
    return EDGES.tf_answers()


@clause("ops.packet-paths")
@EDGES.parametrize("ops.packet-paths")
def test_unsigned_and_bfloat16_casts(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


@clause("ops.bfloat16")
@EDGES.parametrize("ops.bfloat16")
def test_bfloat16_limits(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


@clause("ops.matrix-diag")
@EDGES.parametrize("ops.matrix-diag")
def test_trace_of_diag_part(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


@clause("ops.empty-inputs")
@EDGES.parametrize("ops.empty-inputs")
def test_gather_nd_of_empty_params(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


@clause("ops.gather-gradient-indexed-slices")
@EDGES.parametrize("ops.gather-gradient-indexed-slices")
def test_bool_slices_conversion(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


@clause("ops.conversion")
@EDGES.parametrize("ops.conversion")
def test_where_beside_a_variable(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


@clause("ops.truncation")
@EDGES.parametrize("ops.truncation")
def test_saturate_cast_clips_with_clip_by_value(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


@clause("ops.gradient-none-or-zeros")
@EDGES.parametrize("ops.gradient-none-or-zeros")
def test_empty_reverse_gradient(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


@clause("ops.array-more")
@EDGES.parametrize("ops.array-more")
def test_tile_kernels_and_range_allocation(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


@clause("function.grappler-rewrites")
@EDGES.parametrize("function.grappler-rewrites")
def test_grappler_rewrites(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


@clause("function.grappler-rewrites")
def test_rewrites_switch_off() -> None:
    """With the rewrites off (SIMDIST_GRAPPLER=0's switch), a traced `x / sqrt(y)` computes the
    eager division's bits; on, the rsqrt product's (which differ on these values)."""
    from simdist import tf
    from simdist.runtime.ops import grappler
    x, y = np.array([3.0, 7.0], np.float32), np.array([3.0, 11.0], np.float32)
    eager = (tf.constant(x) / tf.sqrt(tf.constant(y))).numpy()
    old = grappler.set_enabled(False)
    try:
        off = tf.function(lambda a, b: a / tf.sqrt(b))(tf.constant(x), tf.constant(y)).numpy()
    finally:
        grappler.set_enabled(old)
    on = tf.function(lambda a, b: a / tf.sqrt(b))(tf.constant(x), tf.constant(y)).numpy()
    rsqrt = x * (np.float32(1.0) / np.sqrt(y))
    assert off.tobytes() == eager.tobytes(), f"rewrites off: {off.view(np.uint32)}, but should be the eager " \
                                             f"{eager.view(np.uint32)}"
    assert on.tobytes() == rsqrt.tobytes() != eager.tobytes(), \
        f"rewrites on: {on.view(np.uint32)}, but should be x*rsqrt(y) = {rsqrt.view(np.uint32)} " \
        f"(eager {eager.view(np.uint32)})"


def test_every_case_has_a_test() -> None:
    untested = EDGES.untested()
    assert not untested, f"cases of clauses {untested} have no test function above"


if __name__ == "__main__":  # TF worker: python test_fuzz2_values_tf.py 0,1,2 -> pickled results on stdout
    tf_workers.serve(EDGES.tf_worker)
