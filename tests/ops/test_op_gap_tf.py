"""Issue 29's second batch of ops against real TensorFlow 2.21 at their edges: the dtypes each op
accepts or refuses (and with which error class), edge values (NaN, ±inf, ±0, the ends of each
function's domain, empty inputs) and argument errors. Each program runs on both backends and
gives the same dtype and values (the special functions within a few float32 ulps: their kernels
are Eigen's in TF and SciPy's here; everything else bit for bit, NaN matching NaN), or raises the
same exception class. Values and gradients on smooth inputs: specs_gap.py through
test_op_differential_tf.py. Needs the `tf` extra."""

from __future__ import annotations

from typing import Any, Callable

import numpy as np
import pytest

import edge_compare
import tf_workers

pytestmark = [pytest.mark.tf, tf_workers.tf_or_golden(__file__)]
clause = pytest.mark.clause

_DTYPES = ("int32", "float16", "bfloat16", "float32", "float64")


def _c(tf: Any, values: Any, dt: str = "float32") -> Any:
    return tf.constant(values, getattr(tf, dt))


def _by_dtype(name: str, cid: str, fn: Callable[[Any, Any], Any], values: Any = (0.5, 0.25)) -> list:
    """fn(tf, x) for x of each dtype (ints from the values' integer parts)."""
    out = []
    for dt in _DTYPES:
        vals = [int(v) for v in values] if dt == "int32" else list(values)
        out.append((f"{name}-{dt}", cid, lambda tf, dt=dt, vals=vals: fn(tf, tf.constant(vals, getattr(tf, dt)))))
    return out


_SPECIAL_EDGES = [-np.inf, -2.0, -1.0, -0.5, -0.0, 0.0, 1e-3, 0.5, 1.0, 2.0, 30.0, np.inf, np.nan]


def _edges(dt: str = "float32") -> Callable[[Any], Any]:
    return lambda tf: tf.constant(_SPECIAL_EDGES, getattr(tf, dt))


def _grid2(tf: Any, dt: str, a: list, b: list) -> tuple:
    x = np.repeat(np.array(a, np.float64), len(b))
    y = np.tile(np.array(b, np.float64), len(a))
    return tf.constant(x, getattr(tf, dt)), tf.constant(y, getattr(tf, dt))


_GAMMA_A = [-1.0, 0.0, 0.5, 1.0, 3.0, np.inf, np.nan]
_GAMMA_X = [-1.0, 0.0, 0.5, 2.0, 50.0, np.inf, np.nan]


def _grads(tf: Any, fn: Callable[..., Any], values: list) -> list:
    """The gradients of sum(fn(*variables)) for variables of `values` (float32)."""
    vs = [tf.Variable(tf.constant(v, tf.float32)) for v in values]
    with tf.GradientTape() as tape:
        y = tf.reduce_sum(fn(*vs))
    return [tf.convert_to_tensor(g) for g in tape.gradient(y, vs)]


def _grad(tf: Any, fn: Callable[[Any], Any], x: Any) -> Any:
    v = tf.Variable(x)
    with tf.GradientTape() as tape:
        y = tf.reduce_sum(fn(v))
    return tf.convert_to_tensor(tape.gradient(y, v))


@pytest.fixture(scope="module")
def tf_results() -> dict[int, Any]:
    return EDGES.tf_answers()


def _parallel_stack_in_function(tf: Any) -> Any:
    @tf.function
    def f(a: Any, b: Any) -> Any:
        return tf.parallel_stack([a, b])
    return f(tf.constant([1.0, 2.0]), tf.constant([3.0, 4.0]))


# (id, clause, program, rtol): rtol 0 compares bits; else values within rtol (non-finite positions exact).
_RAW: list[tuple[str, str, Callable[[Any], Any]]] = [
    # --- special functions: dtypes accepted and refused, edge values, gradients at the edges ------------------------
    *[c for n in ("erfinv", "ndtri", "bessel_i0", "bessel_i0e", "bessel_i1", "bessel_i1e")
      for c in _by_dtype(n, "ops.special-more", (lambda n: lambda tf, x: getattr(tf.math, n)(x))(n))],
    *_by_dtype("nextafter", "ops.special-more", lambda tf, x: tf.math.nextafter(x, x * 0 + 2)),
    *_by_dtype("igamma", "ops.special-more", lambda tf, x: tf.math.igamma(x, x)),
    *_by_dtype("igammac", "ops.special-more", lambda tf, x: tf.math.igammac(x, x)),
    *_by_dtype("betainc", "ops.special-more", lambda tf, x: tf.math.betainc(x, x, x)),
    *_by_dtype("zeta", "ops.special-more", lambda tf, x: tf.math.zeta(x + 2, x)),
    *[(f"{n}-edges-{dt}", "ops.special-more", (lambda n, dt: lambda tf: getattr(tf.math, n)(_edges(dt)(tf)))(n, dt))
      for n in ("erfinv", "ndtri", "bessel_i0", "bessel_i0e", "bessel_i1", "bessel_i1e") for dt in ("float32", "float64")],
    ("bessel-i0-float16-edges", "ops.special-more", lambda tf: tf.math.bessel_i0(_edges("float16")(tf))),
    *[(f"{n}-grid-{dt}", "ops.special-more",
       (lambda n, dt: lambda tf: getattr(tf.math, n)(*_grid2(tf, dt, _GAMMA_A, _GAMMA_X)))(n, dt))
      for n in ("igamma", "igammac") for dt in ("float32", "float64")],
    *[(f"zeta-grid-{dt}", "ops.special-more",
       (lambda dt: lambda tf: tf.math.zeta(*_grid2(tf, dt, [0.5, 1.0, 2.0, 3.5, np.inf, np.nan],
                                                   [-2.0, -1.5, 0.0, 0.5, 1.0, np.inf, np.nan])))(dt))
      for dt in ("float32", "float64")],
    *[(f"betainc-grid-{dt}", "ops.special-more",
       (lambda dt: lambda tf: tf.math.betainc(*[tf.constant(np.array(v, np.float64), getattr(tf, dt)) for v in (
           [0.5, 1.0, 2.0, -1.0, 0.0, 1.0, np.nan, 2.0, 3.0, 1.0],
           [0.5, 2.0, 1.0, 1.0, 1.0, -1.0, 1.0, np.nan, 3.0, 1.0],
           [0.3, 0.0, 1.0, 0.5, 0.5, 0.5, 0.5, 0.5, 1.5, -0.1])]))(dt))
      for dt in ("float32", "float64")],
    ("betainc-shapes-inconsistent", "ops.special-more",
     lambda tf: tf.math.betainc(tf.ones([2]), tf.ones([3]), tf.ones([2]))),
    ("betainc-scalar-a", "ops.special-more", lambda tf: tf.math.betainc(2.0, tf.constant([1.0, 3.0]), 0.5)),
    *[(f"nextafter-edges-{dt}", "ops.special-more",
       (lambda dt: lambda tf: tf.math.nextafter(*_grid2(tf, dt, [0.0, -0.0, 1.0, np.inf, -np.inf, np.nan],
                                                        [0.0, -0.0, 2.0, -np.inf, np.nan])))(dt))
      for dt in ("float32", "float64")],
    ("igamma-grad-a-and-x", "ops.special-more",
     lambda tf: _grads(tf, tf.math.igamma, [[0.5, 1.5, 4.0], [1.0, 0.5, 3.0]])),
    ("igammac-grad-a-and-x", "ops.special-more",
     lambda tf: _grads(tf, tf.math.igammac, [[0.25, 2.5, 10.0], [2.0, 0.5, 12.0]])),
    ("bessel-i1-grad-at-zero", "ops.special-more",
     lambda tf: _grad(tf, tf.math.bessel_i1, tf.constant([0.0, 1.0, -2.0]))),
    ("bessel-i1e-grad-at-zero", "ops.special-more",
     lambda tf: _grad(tf, tf.math.bessel_i1e, tf.constant([0.0, 1.0, -2.0]))),
    ("erfinv-grad-edges", "ops.special-more", lambda tf: _grad(tf, tf.math.erfinv, tf.constant([0.0, 0.5, -0.9]))),
    # --- tf.math composites ---------------------------------------------------------------------------------------------
    *_by_dtype("reciprocal-no-nan", "ops.math-composites", lambda tf, x: tf.math.reciprocal_no_nan(x), (0.0, 2.0)),
    ("reciprocal-no-nan-edges", "ops.math-composites",
     lambda tf: tf.math.reciprocal_no_nan(tf.constant([0.0, -0.0, np.inf, -np.inf, np.nan, 1e-30, 4.0]))),
    *_by_dtype("is-non-decreasing", "ops.math-composites", lambda tf, x: tf.math.is_non_decreasing(x), (1.0, 1.0, 2.0)),
    *_by_dtype("is-strictly-increasing", "ops.math-composites", lambda tf, x: tf.math.is_strictly_increasing(x),
               (1.0, 1.0, 2.0)),
    ("is-non-decreasing-nan", "ops.math-composites", lambda tf: tf.math.is_non_decreasing([1.0, np.nan, 2.0])),
    ("is-non-decreasing-one", "ops.math-composites", lambda tf: tf.math.is_non_decreasing([5])),
    ("is-non-decreasing-empty", "ops.math-composites", lambda tf: tf.math.is_non_decreasing(tf.zeros([0]))),
    ("is-non-decreasing-matrix", "ops.math-composites", lambda tf: tf.math.is_non_decreasing([[1, 2], [2, 3]])),
    ("is-non-decreasing-bool", "ops.math-composites", lambda tf: tf.math.is_non_decreasing([True, False])),
    *_by_dtype("zero-fraction", "ops.math-composites", lambda tf, x: tf.math.zero_fraction(x), (0.0, 1.0, 0.0)),
    ("zero-fraction-empty", "ops.math-composites", lambda tf: tf.math.zero_fraction(tf.zeros([0]))),
    ("zero-fraction-nan", "ops.math-composites", lambda tf: tf.nn.zero_fraction([np.nan, -0.0, 0.0, 1.0])),
    ("zero-fraction-bool", "ops.math-composites", lambda tf: tf.math.zero_fraction([True, False, False])),
    *_by_dtype("lbeta", "ops.math-composites", lambda tf, x: tf.math.lbeta(x), (0.5, 2.0)),
    ("lbeta-empty-last-axis", "ops.math-composites", lambda tf: tf.math.lbeta(tf.zeros([2, 0]))),
    ("lbeta-edges", "ops.math-composites",
     lambda tf: tf.math.lbeta(tf.constant([[0.0, 1.0], [np.inf, 1.0], [-1.5, 2.0], [np.nan, 1.0]]))),
    ("polyval-ints", "ops.math-composites", lambda tf: tf.math.polyval([2, 1, 0], 3)),
    ("polyval-empty", "ops.math-composites", lambda tf: tf.math.polyval([], tf.constant([1.5, 2.0]))),
    ("polyval-broadcast", "ops.math-composites",
     lambda tf: tf.math.polyval([tf.constant([1.0, 2.0]), 3.0], tf.constant([[1.0], [2.0]]))),
    ("polyval-not-a-list", "ops.math-composites", lambda tf: tf.math.polyval((1.0, 2.0), 3.0)),
    ("polyval-mixed-dtypes", "ops.math-composites", lambda tf: tf.math.polyval([1, 2.5], tf.constant(2.0))),
    ("scalar-mul", "ops.math-composites", lambda tf: tf.scalar_mul(3, tf.constant([1.5, 2.0]))),
    ("scalar-mul-int", "ops.math-composites", lambda tf: tf.math.scalar_mul(2, tf.constant([1, 2]))),
    ("scalar-mul-float-on-int", "ops.math-composites", lambda tf: tf.math.scalar_mul(2.5, tf.constant([1, 2]))),
    ("scalar-mul-vector", "ops.math-composites", lambda tf: tf.math.scalar_mul([2.0, 3.0], tf.constant([1.0, 2.0]))),
    ("scalar-mul-tensor-other-dtype", "ops.math-composites",
     lambda tf: tf.math.scalar_mul(tf.constant(2.0, tf.float64), tf.constant([1.0]))),
    ("accumulate-n", "ops.math-composites", lambda tf: tf.math.accumulate_n([[1, 2], [3, 4], [5, 6]])),
    ("accumulate-n-one", "ops.math-composites", lambda tf: tf.math.accumulate_n([tf.constant([1.5])])),
    ("accumulate-n-empty", "ops.math-composites", lambda tf: tf.math.accumulate_n([])),
    ("accumulate-n-dtypes", "ops.math-composites",
     lambda tf: tf.math.accumulate_n([tf.constant([1.0]), tf.constant([1.0], tf.float64)])),
    ("accumulate-n-shapes", "ops.math-composites",
     lambda tf: tf.math.accumulate_n([tf.constant([1.0]), tf.constant([1.0, 2.0])])),
    ("accumulate-n-tensor-dtype", "ops.math-composites",
     lambda tf: tf.math.accumulate_n([tf.constant([1.0])], tensor_dtype=tf.float64)),
    ("invert-permutation-int64", "ops.math-composites",
     lambda tf: tf.math.invert_permutation(tf.constant([2, 0, 1], tf.int64))),
    ("invert-permutation-empty", "ops.math-composites", lambda tf: tf.math.invert_permutation(tf.zeros([0], tf.int32))),
    ("invert-permutation-duplicate", "ops.math-composites", lambda tf: tf.math.invert_permutation([0, 0, 1])),
    ("invert-permutation-out-of-range", "ops.math-composites", lambda tf: tf.math.invert_permutation([0, 3, 1])),
    ("invert-permutation-matrix", "ops.math-composites", lambda tf: tf.math.invert_permutation([[0, 1]])),
    ("invert-permutation-float", "ops.math-composites", lambda tf: tf.math.invert_permutation([0.0, 1.0])),
    ("real-imag-conj-angle", "ops.math-composites",
     lambda tf: (lambda x: [tf.math.real(x), tf.math.imag(x), tf.math.conj(x), tf.math.angle(x)])(
         tf.constant([-1.5, 0.0, -0.0, 2.0, np.nan, -np.inf]))),
    ("real-int", "ops.math-composites", lambda tf: [tf.math.real([1, -2]), tf.math.conj([3]), tf.math.angle([-3, 4])]),
    ("real-bool", "ops.math-composites", lambda tf: tf.math.real([True])),
    ("conj-bool", "ops.math-composites", lambda tf: tf.math.conj(tf.constant([True]))),
    ("imag-bool", "ops.math-composites", lambda tf: tf.math.imag([True])),
    ("confusion-matrix", "ops.math-composites", lambda tf: tf.math.confusion_matrix([1, 2, 4], [2, 2, 4])),
    ("confusion-matrix-num-classes-weights", "ops.math-composites",
     lambda tf: tf.math.confusion_matrix([0, 1, 1], [1, 1, 0], num_classes=3, weights=[0.5, 1.5, 2.0],
                                         dtype=tf.float32)),
    ("confusion-matrix-negative", "ops.math-composites", lambda tf: tf.math.confusion_matrix([-1, 0], [0, 0])),
    ("confusion-matrix-out-of-bound", "ops.math-composites",
     lambda tf: tf.math.confusion_matrix([0, 3], [0, 0], num_classes=3)),
    ("confusion-matrix-int64", "ops.math-composites",
     lambda tf: tf.math.confusion_matrix(tf.constant([0, 1], tf.int64), [1, 1], dtype=tf.int64)),
    ("histogram-fixed-width", "ops.math-composites",
     lambda tf: tf.histogram_fixed_width([-1.0, 0.0, 1.5, 2.0, 5.0, 15.0], [0.0, 5.0], nbins=5)),
    ("histogram-fixed-width-int", "ops.math-composites",
     lambda tf: tf.histogram_fixed_width(tf.constant([1, 2, 3, 9, -4]), [0, 10], nbins=3, dtype=tf.int64)),
    ("histogram-fixed-width-int-float-range", "ops.math-composites",
     lambda tf: tf.histogram_fixed_width(tf.constant([1, 2]), [0.0, 10.0], nbins=3)),
    ("histogram-fixed-width-bad-range", "ops.math-composites",
     lambda tf: tf.histogram_fixed_width([1.0], [5.0, 0.0], nbins=3)),
    ("histogram-fixed-width-zero-bins", "ops.math-composites",
     lambda tf: tf.histogram_fixed_width([1.0], [0.0, 5.0], nbins=0)),
    ("histogram-fixed-width-float16", "ops.math-composites",
     lambda tf: tf.histogram_fixed_width(tf.constant([1.0], tf.float16), tf.constant([0.0, 5.0], tf.float16))),
    ("histogram-fixed-width-bins", "ops.math-composites",
     lambda tf: tf.histogram_fixed_width_bins(tf.constant([[-1.0, 0.0], [1.5, 2.0], [5.0, 15.0]]), [0.0, 5.0],
                                              nbins=5)),
    ("histogram-fixed-width-bins-int", "ops.math-composites",
     lambda tf: tf.histogram_fixed_width_bins(tf.constant([1, 5, 9]), [0, 10], nbins=3)),
    *[(f"approx-max-k-row{i}-k{k}", "ops.math-composites",
       (lambda r, k: lambda tf: list(tf.math.approx_max_k(tf.constant(r), k)))(r, k))
      for i, r in enumerate([[[1.0, 3.0, 3.0, 2.0, 3.0], [np.nan, 1.0, 5.0, np.nan, 0.0]],
                             [[-0.0, 0.0, -1.0, np.inf, -np.inf, np.nan, 2.0, 2.0, 7.0]]]) for k in (1, 3, 5)],
    ("approx-max-k-int", "ops.math-composites", lambda tf: list(tf.math.approx_max_k(tf.constant([[1, 5, 2]]), 2))),
    ("approx-max-k-float64", "ops.math-composites",
     lambda tf: list(tf.math.approx_max_k(tf.constant([[1.0, 5.0]], tf.float64), 1))),
    ("approx-max-k-half", "ops.math-composites",
     lambda tf: list(tf.nn.approx_max_k(tf.constant([[1.0, 5.0, 2.0]], tf.float16), 2))),
    ("approx-max-k-axis-0", "ops.math-composites",
     lambda tf: list(tf.math.approx_max_k(tf.constant([[1.0, 5.0], [2.0, 0.0]]), 1, reduction_dimension=0))),
    ("approx-max-k-too-many", "ops.math-composites", lambda tf: list(tf.math.approx_max_k(tf.constant([[1.0, 5.0]]), 3))),
    ("approx-max-k-rank-1", "ops.math-composites", lambda tf: list(tf.math.approx_max_k(tf.constant([1.0, 5.0, 2.0]), 2))),
    ("approx-min-k", "ops.math-composites", lambda tf: list(tf.math.approx_min_k(tf.constant([[1.0, 5.0]]), 1))),
    # --- array ops -----------------------------------------------------------------------------------------------------
    ("roll-scalar", "ops.array-more", lambda tf: tf.roll([1, 2, 3, 4, 5], 2, 0)),
    ("roll-negative-axis-big-shift", "ops.array-more", lambda tf: tf.roll(tf.reshape(tf.range(12), [3, 4]), 7, -1)),
    ("roll-repeated-axis", "ops.array-more", lambda tf: tf.roll(tf.reshape(tf.range(6.0), [2, 3]), [1, 1], [1, 1])),
    ("roll-bool", "ops.array-more", lambda tf: tf.roll([True, False, False], 1, 0)),
    ("roll-int64-shift", "ops.array-more", lambda tf: tf.roll([1, 2, 3], tf.constant(-1, tf.int64), 0)),
    ("roll-mismatched", "ops.array-more", lambda tf: tf.roll([1, 2, 3], [1, 2], [0])),
    ("roll-axis-out-of-range", "ops.array-more", lambda tf: tf.roll([1, 2, 3], 1, 1)),
    ("roll-scalar-input", "ops.array-more", lambda tf: tf.roll(tf.constant(3.0), 1, 0)),
    ("roll-float-shift", "ops.array-more", lambda tf: tf.roll([1, 2, 3], 1.0, 0)),
    ("roll-empty", "ops.array-more", lambda tf: tf.roll(tf.zeros([0, 2]), 3, 0)),
    ("roll-grad", "ops.array-more", lambda tf: _grad(tf, lambda v: tf.roll(v, 1, 0) * [1.0, 2.0, 3.0],
                                                     tf.constant([1.0, 2.0, 3.0]))),
    ("reverse-sequence", "ops.array-more",
     lambda tf: tf.reverse_sequence(tf.reshape(tf.range(12), [3, 4]), [4, 0, 2], seq_axis=1, batch_axis=0)),
    ("reverse-sequence-batch-last", "ops.array-more",
     lambda tf: tf.reverse_sequence(tf.reshape(tf.range(12.0), [4, 3]), tf.constant([1, 3, 2], tf.int32), 0, 1)),
    ("reverse-sequence-too-long", "ops.array-more",
     lambda tf: tf.reverse_sequence(tf.zeros([2, 3]), [4, 1], seq_axis=1, batch_axis=0)),
    ("reverse-sequence-negative", "ops.array-more",
     lambda tf: tf.reverse_sequence(tf.zeros([2, 3]), [-1, 1], seq_axis=1, batch_axis=0)),
    ("reverse-sequence-wrong-count", "ops.array-more",
     lambda tf: tf.reverse_sequence(tf.zeros([2, 3]), [1, 1, 1], seq_axis=1, batch_axis=0)),
    ("reverse-sequence-same-axes", "ops.array-more",
     lambda tf: tf.reverse_sequence(tf.zeros([2, 3]), [1, 1], seq_axis=0, batch_axis=0)),
    ("reverse-sequence-float-lengths", "ops.array-more",
     lambda tf: tf.reverse_sequence(tf.zeros([2, 3]), [1.0, 1.0], seq_axis=1, batch_axis=0)),
    ("searchsorted-ties", "ops.array-more",
     lambda tf: [tf.searchsorted([1, 2, 2, 2, 5], [2, 0, 6, 5]),
                 tf.searchsorted([1, 2, 2, 2, 5], [2, 0, 6, 5], side="right")]),
    ("searchsorted-int64", "ops.array-more",
     lambda tf: tf.searchsorted([[0.0, 1.0], [2.0, 3.0]], [[0.5, 2.0, 9.0], [0.0, 2.5, 3.0]], out_type=tf.int64)),
    ("searchsorted-nan", "ops.array-more", lambda tf: tf.searchsorted([0.0, 1.0, np.nan], [np.nan, 0.5, np.inf])),
    ("searchsorted-bad-side", "ops.array-more", lambda tf: tf.searchsorted([1.0, 2.0], [1.5], side="middle")),
    ("searchsorted-leading-mismatch", "ops.array-more", lambda tf: tf.searchsorted([[1.0, 2.0]], [[1.5], [0.5]])),
    ("searchsorted-dtype-mismatch", "ops.array-more", lambda tf: tf.searchsorted([1.0, 2.0], [1])),
    ("unravel-index", "ops.array-more", lambda tf: tf.unravel_index([0, 5, 11], [3, 4])),
    ("unravel-index-scalar", "ops.array-more", lambda tf: tf.unravel_index(tf.constant(7, tf.int64), tf.constant([2, 5], tf.int64))),
    ("unravel-index-out-of-range", "ops.array-more", lambda tf: tf.unravel_index([12], [3, 4])),
    ("unravel-index-negative", "ops.array-more", lambda tf: tf.unravel_index([-1], [3, 4])),
    ("unravel-index-zero-dim", "ops.array-more", lambda tf: tf.unravel_index([0], [3, 0])),
    ("unravel-index-dtype-mismatch", "ops.array-more",
     lambda tf: tf.unravel_index(tf.constant([1], tf.int64), tf.constant([3], tf.int32))),
    ("tensor-scatter-max-nan", "ops.array-more",
     lambda tf: tf.tensor_scatter_nd_max(tf.constant([1.0, np.nan, 3.0, 0.0]), [[0], [1], [2], [2]],
                                         tf.constant([np.nan, 2.0, 5.0, 4.0]))),
    ("tensor-scatter-min-int", "ops.array-more",
     lambda tf: tf.tensor_scatter_nd_min(tf.constant([[5, 5], [5, 5]]), [[0, 1], [1, 0], [0, 1]], [3, 7, 1])),
    ("tensor-scatter-max-out-of-range", "ops.array-more",
     lambda tf: tf.tensor_scatter_nd_max(tf.zeros([3]), [[3]], [1.0])),
    ("tensor-scatter-max-tie-grad", "ops.array-more",
     lambda tf: _grads(tf, lambda x, u: tf.tensor_scatter_nd_max(x, [[0], [1], [1]], u) * [1.0, 2.0, 3.0],
                       [[2.0, 1.0, 0.0], [2.0, 4.0, 4.0]])),
    ("tensor-scatter-min-grad", "ops.array-more",
     lambda tf: _grads(tf, lambda x, u: tf.tensor_scatter_nd_min(x, [[2], [0]], u) * [1.0, 2.0, 3.0],
                       [[2.0, 1.0, 0.0], [-1.0, 3.0]])),
    ("shape-n", "ops.array-more", lambda tf: tf.shape_n([tf.zeros([2, 3]), 5.0, [[1], [2]]], out_type=tf.int64)),
    ("shape-n-float-out", "ops.array-more", lambda tf: tf.shape_n([tf.zeros([2])], out_type=tf.float32)),
    ("identity-n", "ops.array-more", lambda tf: tf.identity_n([tf.constant([1, 2]), 3.5, True])),
    ("broadcast-dynamic-shape", "ops.array-more",
     lambda tf: tf.broadcast_dynamic_shape(tf.constant([1, 3], tf.int64), tf.constant([5, 2, 1], tf.int64))),
    ("broadcast-dynamic-shape-bad", "ops.array-more", lambda tf: tf.broadcast_dynamic_shape([2, 3], [4, 3])),
    ("broadcast-dynamic-shape-mixed", "ops.array-more",
     lambda tf: tf.broadcast_dynamic_shape(tf.constant([2], tf.int32), tf.constant([2], tf.int64))),
    ("broadcast-dynamic-shape-zero", "ops.array-more", lambda tf: tf.broadcast_dynamic_shape([0, 1], [1, 4])),
    ("broadcast-static-shape", "ops.array-more",
     lambda tf: tf.constant(tf.broadcast_static_shape(tf.TensorShape([1, 3]), tf.TensorShape([4, 1, 1])).as_list())),
    ("broadcast-static-shape-bad", "ops.array-more",
     lambda tf: tf.constant(tf.broadcast_static_shape(tf.TensorShape([2]), tf.TensorShape([3])).as_list())),
    ("ensure-shape", "ops.array-more", lambda tf: tf.ensure_shape(tf.zeros([2, 3]), [2, None])),
    ("ensure-shape-bad", "ops.array-more", lambda tf: tf.ensure_shape(tf.zeros([2, 3]), [3, 2])),
    ("ensure-shape-rank", "ops.array-more", lambda tf: tf.ensure_shape(tf.zeros([2, 3]), [6])),
    ("ensure-shape-grad", "ops.array-more",
     lambda tf: _grad(tf, lambda v: tf.ensure_shape(v, [3]) * 2.0, tf.constant([1.0, 2.0, 3.0]))),
    ("get-static-value", "ops.array-more", lambda tf: tf.constant(tf.get_static_value(tf.constant([1.5, 2.0])))),
    ("parallel-stack-eager", "ops.array-more", lambda tf: tf.parallel_stack([tf.constant(1.0), tf.constant(2.0)])),
    ("parallel-stack-in-function", "ops.array-more", _parallel_stack_in_function),
    ("bitcast-float-to-int", "ops.array-more", lambda tf: tf.bitcast(tf.constant([1.0, -0.0, np.nan]), tf.int32)),
    ("bitcast-int-to-uint8", "ops.array-more", lambda tf: tf.bitcast(tf.constant([1, -2]), tf.uint8)),
    ("bitcast-uint8-to-int32", "ops.array-more",
     lambda tf: tf.bitcast(tf.constant([[1, 0, 0, 0], [255, 255, 255, 255]], tf.uint8), tf.int32)),
    ("bitcast-bad-shape", "ops.array-more", lambda tf: tf.bitcast(tf.constant([1, 2, 3], tf.uint8), tf.int32)),
    ("bitcast-float64-to-float16", "ops.array-more", lambda tf: tf.bitcast(tf.constant([1.5], tf.float64), tf.float16)),
    ("bitcast-bool", "ops.array-more", lambda tf: tf.bitcast(tf.constant([True]), tf.uint8)),
    # --- space, batch and depth -------------------------------------------------------------------------------------------
    ("space-to-batch-nd-int", "ops.space-batch",
     lambda tf: tf.space_to_batch_nd(tf.reshape(tf.range(16), [1, 4, 4, 1]), [2, 2], [[0, 0], [0, 0]])),
    ("space-to-batch-padded", "ops.space-batch",
     lambda tf: tf.space_to_batch(tf.reshape(tf.range(12.0), [2, 3, 2]), [2], [[1, 0]])),
    ("space-to-batch-not-divisible", "ops.space-batch",
     lambda tf: tf.space_to_batch_nd(tf.zeros([1, 3, 3, 1]), [2, 2], [[0, 0], [0, 0]])),
    ("space-to-batch-negative-pad", "ops.space-batch",
     lambda tf: tf.space_to_batch_nd(tf.zeros([1, 4, 1]), [2], [[-1, 1]])),
    ("space-to-batch-zero-block", "ops.space-batch", lambda tf: tf.space_to_batch_nd(tf.zeros([1, 4, 1]), [0], [[0, 0]])),
    ("batch-to-space-cropped", "ops.space-batch",
     lambda tf: tf.batch_to_space(tf.reshape(tf.range(16), [4, 2, 2, 1]), [2, 2], [[0, 1], [1, 0]])),
    ("batch-to-space-int-block", "ops.space-batch",
     lambda tf: tf.batch_to_space(tf.reshape(tf.range(8), [4, 1, 2, 1]), 2, [[0, 0], [0, 0]])),
    ("batch-to-space-bad-batch", "ops.space-batch",
     lambda tf: tf.batch_to_space(tf.zeros([3, 1, 1, 1]), [2, 2], [[0, 0], [0, 0]])),
    ("batch-to-space-over-crop", "ops.space-batch",
     lambda tf: tf.batch_to_space(tf.zeros([4, 1, 1, 1]), [2, 2], [[2, 1], [0, 0]])),
    ("depth-to-space", "ops.space-batch", lambda tf: tf.nn.depth_to_space(tf.reshape(tf.range(16), [1, 1, 2, 8]), 2)),
    ("space-to-depth", "ops.space-batch", lambda tf: tf.nn.space_to_depth(tf.reshape(tf.range(16), [1, 2, 4, 2]), 2)),
    ("depth-to-space-not-divisible", "ops.space-batch", lambda tf: tf.nn.depth_to_space(tf.zeros([1, 1, 1, 6]), 2)),
    ("space-to-depth-not-divisible", "ops.space-batch", lambda tf: tf.nn.space_to_depth(tf.zeros([1, 3, 2, 1]), 2)),
    ("space-to-depth-block-1", "ops.space-batch", lambda tf: tf.nn.space_to_depth(tf.zeros([1, 2, 2, 1]), 1)),
    ("space-to-depth-rank-3", "ops.space-batch", lambda tf: tf.nn.space_to_depth(tf.zeros([2, 2, 1]), 2)),
    ("depth-to-space-bool", "ops.space-batch",
     lambda tf: tf.nn.depth_to_space(tf.constant([[[[True, False, False, True]]]]), 2)),
    # --- tf.nn --------------------------------------------------------------------------------------------------------------
    ("crelu-axis-0", "ops.nn-more", lambda tf: tf.nn.crelu(tf.constant([[1.0, -2.0], [-0.0, np.nan]]), axis=0)),
    ("crelu-int", "ops.nn-more", lambda tf: tf.nn.crelu(tf.constant([1, -2]))),
    ("normalize-moments-no-shift", "ops.nn-more",
     lambda tf: list(tf.nn.normalize_moments(tf.constant(2.0), tf.constant([3.0]), tf.constant([5.0]), None))),
    ("sufficient-statistics", "ops.nn-more",
     lambda tf: list(tf.nn.sufficient_statistics(tf.reshape(tf.range(6.0), [2, 3]), [0, 1, 0], keepdims=True)[:3])),
    ("sufficient-statistics-int", "ops.nn-more",
     lambda tf: list(tf.nn.sufficient_statistics(tf.constant([[1, 2], [3, 4]]), [1])[:3])),
    ("weighted-moments-float16", "ops.nn-more",
     lambda tf: list(tf.nn.weighted_moments(tf.constant([[1.0, 2.0, 4.0]], tf.float16), [1], [1.0, 2.0, 0.0]))),
    ("weighted-moments-zero-weights", "ops.nn-more",
     lambda tf: list(tf.nn.weighted_moments(tf.constant([[1.0, 2.0]]), [1], tf.constant([[0.0, 0.0]]), keepdims=True))),
    ("max-pool1d-same-nan", "ops.nn-more",
     lambda tf: tf.nn.max_pool1d(tf.constant([[[1.0], [np.nan], [3.0], [-np.inf], [2.0]]]), 2, 2, "SAME")),
    ("avg-pool1d-valid", "ops.nn-more",
     lambda tf: tf.nn.avg_pool1d(tf.reshape(tf.range(10.0), [1, 5, 2]), [2], [1], "VALID")),
    ("log-poisson-loss", "ops.nn-more",
     lambda tf: tf.nn.log_poisson_loss(tf.constant([0.0, 0.5, 1.0, 3.0]), tf.constant([0.5, -1.0, 0.0, 2.0]))),
    ("log-poisson-loss-full", "ops.nn-more",
     lambda tf: tf.nn.log_poisson_loss(tf.constant([0.0, 0.5, 1.0, 3.0, 1.5]), tf.constant([0.5, -1.0, 0.0, 2.0, 1.0]),
                                       compute_full_loss=True)),
    ("log-poisson-loss-shapes", "ops.nn-more",
     lambda tf: tf.nn.log_poisson_loss(tf.zeros([2]), tf.zeros([3]))),
    *[(f"conv2d-transpose-{dt}", "ops.nn-more",
       (lambda dt: lambda tf: tf.nn.conv2d_transpose(tf.reshape(tf.range(18, dtype=getattr(tf, dt)), [1, 3, 3, 2]),
                                                     tf.ones([2, 2, 1, 2], getattr(tf, dt)), [1, 6, 6, 1], 2))(dt))
      for dt in ("float32", "float64", "float16", "int32")],
    *[(f"conv2d-transpose-wrong-output-{dt}", "ops.nn-more",
       (lambda dt: lambda tf: tf.nn.conv2d_transpose(tf.zeros([2, 3, 3, 4], getattr(tf, dt)),
                                                     tf.zeros([3, 3, 5, 4], getattr(tf, dt)), [2, 7, 7, 5], 2))(dt))
      for dt in ("float32", "float64")],
    ("conv2d-transpose-wrong-channels", "ops.nn-more",
     lambda tf: tf.nn.conv2d_transpose(tf.zeros([2, 3, 3, 4]), tf.zeros([3, 3, 5, 4]), [2, 6, 6, 4], 2)),
    ("conv-transpose-1d", "ops.nn-more",
     lambda tf: tf.nn.conv_transpose(tf.reshape(tf.range(6.0), [1, 3, 2]), tf.ones([3, 1, 2]), [1, 6, 1], 2)),
    ("conv-transpose-bad-length", "ops.nn-more",
     lambda tf: tf.nn.conv_transpose(tf.zeros([1, 3, 2]), tf.ones([3, 1, 2]), [1, 6], 2)),
    ("atrous-conv2d-valid", "ops.nn-more",
     lambda tf: tf.nn.atrous_conv2d(tf.reshape(tf.range(25.0), [1, 5, 5, 1]), tf.ones([2, 2, 1, 1]), 2, "VALID")),
    ("conv1d-transpose-same", "ops.nn-more",
     lambda tf: tf.nn.conv1d_transpose(tf.reshape(tf.range(6.0), [1, 3, 2]), tf.ones([3, 1, 2]), [1, 6, 1], 2)),
    ("erfcinv-edges", "ops.special-more",
     lambda tf: tf.math.erfcinv(tf.constant([0.0, 0.2, 1.0, 1.5, 2.0, 2.5, -1.0, np.nan]))),
    ("erfcinv-int", "ops.special-more", lambda tf: tf.math.erfcinv(tf.constant([1]))),
    ("batch-norm-global", "ops.nn-more",
     lambda tf: [tf.nn.batch_norm_with_global_normalization(tf.constant([[1.0, 2.0], [3.0, 5.0]]),
                                                            *map(tf.constant, ([1.0, 2.0], [4.0, 0.5], [0.1, 0.2],
                                                                               [2.0, 3.0])), 1e-3, flag)
                 for flag in (True, False)]),
    *[(f"lrn-{dt}", "ops.nn-more",
       (lambda dt: lambda tf: tf.nn.local_response_normalization(
           tf.constant(np.linspace(-2, 2, 24).reshape(1, 2, 2, 6), getattr(tf, dt)), 2, 0.5, 0.25, 0.6))(dt))
      for dt in ("float16", "float32", "float64")],
    ("lrn-int", "ops.nn-more", lambda tf: tf.nn.lrn(tf.ones([1, 1, 1, 2], tf.int32))),
    ("lrn-rank-3", "ops.nn-more", lambda tf: tf.nn.lrn(tf.ones([1, 1, 2]))),
    ("lrn-defaults", "ops.nn-more", lambda tf: tf.nn.lrn(tf.reshape(tf.range(-6.0, 6.0), [1, 1, 1, 12]))),
    # --- tf.linalg -------------------------------------------------------------------------------------------------------
    ("band-part-negative", "ops.linalg-more",
     lambda tf: tf.linalg.band_part(tf.reshape(tf.range(12), [3, 4]), -1, 1)),
    ("band-part-too-many-rows", "ops.linalg-more", lambda tf: tf.linalg.band_part(tf.zeros([3, 4]), 4, 0)),
    ("band-part-int64-bounds", "ops.linalg-more",
     lambda tf: tf.linalg.band_part(tf.ones([2, 2]), tf.constant(0, tf.int64), tf.constant(0, tf.int64))),
    ("band-part-rank-1", "ops.linalg-more", lambda tf: tf.linalg.band_part(tf.ones([3]), 0, 0)),
    ("set-diag-k-negative", "ops.linalg-more",
     lambda tf: tf.linalg.set_diag(tf.zeros([3, 3], tf.int32), [7, 8], k=-1)),
    ("set-diag-band-align", "ops.linalg-more",
     lambda tf: tf.linalg.set_diag(tf.zeros([3, 4]), [[1.0, 2.0, 3.0], [4.0, 5.0, 9.0]], k=(-1, 0), align="LEFT_LEFT")),
    ("set-diag-bad-shape", "ops.linalg-more", lambda tf: tf.linalg.set_diag(tf.zeros([3, 3]), [1.0, 2.0])),
    ("cross-int", "ops.linalg-more", lambda tf: tf.linalg.cross([1, 0, 0], [0, 1, 0])),
    ("cross-bad-size", "ops.linalg-more", lambda tf: tf.linalg.cross([1.0, 0.0], [0.0, 1.0])),
    ("cross-broadcast", "ops.linalg-more", lambda tf: tf.linalg.cross(tf.ones([2, 3]), tf.ones([3]))),
    ("normalize-ord-1", "ops.linalg-more", lambda tf: list(tf.linalg.normalize(tf.constant([[3.0, -4.0], [0.0, 0.0]]), 1, 1))),
    ("tensor-diag-int", "ops.linalg-more", lambda tf: tf.linalg.tensor_diag([1, 2, 3])),
    ("tensor-diag-part-bad", "ops.linalg-more", lambda tf: tf.linalg.tensor_diag_part(tf.zeros([2, 3]))),
    ("tensor-diag-bool", "ops.linalg-more", lambda tf: tf.linalg.tensor_diag([True])),
    ("tensor-diag-scalar", "ops.linalg-more", lambda tf: tf.linalg.tensor_diag(1.0)),
    ("det-singular", "ops.linalg-more", lambda tf: tf.linalg.det(tf.constant([[1.0, 2.0], [2.0, 4.0]]))),
    ("det-empty", "ops.linalg-more", lambda tf: tf.linalg.det(tf.zeros([2, 0, 0]))),
    ("det-not-square", "ops.linalg-more", lambda tf: tf.linalg.det(tf.zeros([2, 3]))),
    ("det-int", "ops.linalg-more", lambda tf: tf.linalg.det(tf.constant([[1, 2], [3, 4]]))),
    ("det-float16", "ops.linalg-more", lambda tf: tf.linalg.det(tf.constant([[1.0, 2.0], [3.0, 4.5]], tf.float16))),
    ("slogdet-negative", "ops.linalg-more", lambda tf: list(tf.linalg.slogdet(tf.constant([[0.0, 2.0], [3.0, 1.0]])))),
    ("slogdet-singular", "ops.linalg-more", lambda tf: list(tf.linalg.slogdet(tf.constant([[1.0, 2.0], [2.0, 4.0]])))),
    ("inv-singular", "ops.linalg-more", lambda tf: tf.linalg.inv(tf.constant([[1.0, 2.0], [2.0, 4.0]]))),
    ("inv-adjoint", "ops.linalg-more", lambda tf: tf.linalg.inv(tf.constant([[2.0, 1.0], [0.0, 4.0]]), adjoint=True)),
    ("inv-empty", "ops.linalg-more", lambda tf: tf.linalg.inv(tf.zeros([0, 0]))),
    ("solve-singular", "ops.linalg-more", lambda tf: tf.linalg.solve(tf.constant([[1.0, 2.0], [2.0, 4.0]]), tf.ones([2, 1]))),
    ("solve-batch-broadcast", "ops.linalg-more", lambda tf: tf.linalg.solve(tf.eye(2, batch_shape=[3]), tf.ones([2, 1]))),
    ("solve-bad-rows", "ops.linalg-more", lambda tf: tf.linalg.solve(tf.eye(2), tf.ones([3, 1]))),
    # (the lower triangle only: TF 2.21 leaves the upper one unwritten, whatever memory held)
    ("cholesky-not-pd", "ops.linalg-more",
     lambda tf: tf.linalg.band_part(tf.linalg.cholesky(tf.constant([[1.0, 2.0], [2.0, 1.0]])), -1, 0)),
    ("cholesky-upper-ignored", "ops.linalg-more",
     lambda tf: tf.linalg.cholesky(tf.constant([[4.0, 100.0], [2.0, 5.0]], tf.float64))),
    ("triangular-solve-upper-ignored", "ops.linalg-more",
     lambda tf: tf.linalg.triangular_solve(tf.constant([[2.0, 9.0], [1.0, 4.0]], tf.float64),
                                           tf.constant([[2.0], [5.0]], tf.float64))),
    ("triangular-solve-zero-pivot", "ops.linalg-more",
     lambda tf: tf.linalg.triangular_solve(tf.constant([[0.0, 0.0], [1.0, 1.0]]), tf.constant([[1.0], [1.0]]))),
    ("logdet", "ops.linalg-more", lambda tf: tf.linalg.logdet(tf.constant([[4.0, 2.0], [2.0, 5.0]], tf.float64))),
    ("logdet-not-pd", "ops.linalg-more", lambda tf: tf.linalg.logdet(tf.constant([[1.0, 2.0], [2.0, 1.0]]))),
    ("cholesky-solve", "ops.linalg-more",
     lambda tf: tf.linalg.cholesky_solve(tf.constant([[2.0, 0.0], [1.0, 2.0]], tf.float64),
                                         tf.constant([[1.0], [2.0]], tf.float64))),
    ("qr-full", "ops.linalg-more",
     lambda tf: list(tf.linalg.qr(tf.constant([[1.0, 2.0], [3.0, 4.0], [5.0, 7.0]], tf.float64), full_matrices=True))),
    ("qr-int", "ops.linalg-more", lambda tf: list(tf.linalg.qr(tf.constant([[1, 2], [3, 4]])))),
    ("qr-rank-1", "ops.linalg-more", lambda tf: list(tf.linalg.qr(tf.constant([1.0, 2.0])))),
]


def _cf_grads(tf: Any, fn: Callable[..., Any], values: list) -> list:
    """[fn's result, the gradients of sum(fn(*variables)) for variables of `values`]."""
    vs = [tf.Variable(tf.constant(v, tf.float32)) for v in values]
    with tf.GradientTape() as tape:
        y = fn(*vs)
        total = tf.add_n([tf.reduce_sum(t) for t in tf.nest.flatten(y)])
    gs = tape.gradient(total, vs)
    return [tf.convert_to_tensor(t) for t in tf.nest.flatten(y)] + [
        tf.zeros([0]) if g is None else tf.convert_to_tensor(g) for g in gs]


def _flat(tf: Any, r: Any) -> list:
    return [tf.convert_to_tensor(t) for t in tf.nest.flatten(r)]


def _control_flow_in_function(tf: Any) -> list:
    """cond, while_loop, map_fn and scan inside one tf.function, called with predicates going both ways."""
    @tf.function
    def f(x: Any) -> Any:
        y = tf.cond(tf.reduce_sum(x) > 0, lambda: x * 2.0, lambda: -x)
        z = tf.while_loop(lambda i, a: i < 3, lambda i, a: (i + 1, a + y), (0, tf.zeros_like(y)))[1]
        return tf.map_fn(lambda r: r + 1.0, z) + tf.scan(lambda a, v: a + v, z)
    return [f(tf.constant(v)) for v in ([1.0, 2.0], [-1.0, -2.0], [3.0, -1.0], [1.0, 2.0])]


_CONTROL_FLOW: list[tuple[str, str, Callable[[Any], Any]]] = [(n, "ops.control-flow", f) for n, f in [
    ("in-tf-function", _control_flow_in_function),
    ("cond-tensor", lambda tf: tf.cond(tf.constant(True), lambda: tf.constant(1), lambda: tf.constant(2))),
    ("cond-python-values", lambda tf: tf.constant(tf.cond(False, lambda: 1.5, lambda: 2))),
    ("cond-tuple", lambda tf: _flat(tf, tf.cond(tf.constant(1.5) > 1, lambda: (1, 2.0), lambda: (3, 4.0)))),
    ("cond-singleton-list", lambda tf: tf.constant(len(tf.cond(True, lambda: [tf.constant(1)], lambda: [tf.constant(2)])))),
    ("cond-vector-pred", lambda tf: tf.constant(tf.cond(tf.constant([True]), lambda: 1, lambda: 2))),
    ("cond-empty-pred", lambda tf: tf.cond(tf.constant([], tf.bool), lambda: 1, lambda: 2)),
    ("cond-two-element-pred", lambda tf: tf.cond(tf.constant([True, False]), lambda: 1, lambda: 2)),
    ("cond-not-callable", lambda tf: tf.cond(tf.constant(True), 1, lambda: 2)),
    ("cond-grad", lambda tf: _cf_grads(tf, lambda x: tf.cond(tf.reduce_sum(x) > 0, lambda: x * x, lambda: -x),
                                       [[1.0, -0.5]])),
    ("while-tuple", lambda tf: _flat(tf, tf.while_loop(lambda i, s: i < 3, lambda i, s: (i + 1, s * 2.0), (0, 1.0)))),
    ("while-list", lambda tf: _flat(tf, tf.while_loop(lambda i: i < 3, lambda i: [i + 1], [0]))),
    ("while-not-a-list", lambda tf: tf.while_loop(lambda i: i < 5, lambda i: i + 2, [0])),
    ("while-scalar-tensor-body", lambda tf: tf.while_loop(lambda v: v < 3.0, lambda v: v + 1.0, [tf.Variable(0.0)])),
    ("while-no-vars", lambda tf: tf.while_loop(lambda: True, lambda: (), [])),
    ("while-maximum-iterations", lambda tf: _flat(tf, tf.while_loop(lambda i: True, lambda i: [i + 1], [tf.constant(0)],
                                                                    maximum_iterations=4))),
    ("while-maximum-iterations-zero", lambda tf: _flat(tf, tf.while_loop(lambda i: i < 3, lambda i: (i + 1,),
                                                                         (tf.constant(0),), maximum_iterations=0))),
    ("while-structure-change", lambda tf: tf.while_loop(lambda i: i < 3, lambda i: (i + 1, 1), [tf.constant(0)])),
    ("while-cond-not-callable", lambda tf: tf.while_loop(1, lambda v: v, [1])),
    ("while-grad", lambda tf: _cf_grads(tf, lambda x: tf.while_loop(lambda i, y: i < 3, lambda i, y: (i + 1, y * x),
                                                                    (0, tf.ones([2])))[1], [[1.5, -0.5]])),
    ("map-fn", lambda tf: tf.map_fn(lambda x: x * 2, tf.constant([1, 2, 3]))),
    ("map-fn-signature", lambda tf: tf.map_fn(lambda x: tf.cast(x, tf.float32) / 2, tf.constant([1, 2, 3]),
                                              fn_output_signature=tf.float32)),
    ("map-fn-dtype-arg", lambda tf: tf.map_fn(lambda x: tf.cast(x, tf.int64), tf.constant([1.0]), dtype=tf.int64)),
    ("map-fn-wrong-dtype", lambda tf: tf.map_fn(lambda x: tf.cast(x, tf.float32) / 2, tf.constant([1, 2, 3]))),
    ("map-fn-tuple-in", lambda tf: tf.map_fn(lambda xy: xy[0] + xy[1], (tf.constant([1., 2.]), tf.constant([3., 4.])),
                                             fn_output_signature=tf.float32)),
    ("map-fn-tuple-out", lambda tf: _flat(tf, tf.map_fn(lambda x: (x, x * 2.0), tf.constant([1.0, 2.0]),
                                                        fn_output_signature=(tf.float32, tf.float32)))),
    ("map-fn-tuple-out-no-signature", lambda tf: tf.map_fn(lambda x: (x, x * 2.0), tf.constant([1.0, 2.0]))),
    ("map-fn-python-out", lambda tf: tf.map_fn(lambda x: 1, tf.constant([1.0, 2.0]))),
    ("map-fn-empty", lambda tf: tf.map_fn(lambda x: x * 2, tf.zeros([0, 3]))),
    ("map-fn-scalar", lambda tf: tf.map_fn(lambda x: x * 2, tf.constant(3.0))),
    ("map-fn-list-elems", lambda tf: tf.map_fn(lambda x: x + 1, [1, 2, 3])),
    ("map-fn-ragged-out", lambda tf: tf.map_fn(lambda x: tf.range(x), tf.constant([1, 2]))),
    ("map-fn-first-dims", lambda tf: tf.map_fn(lambda xy: xy[0], (tf.zeros([2]), tf.zeros([3])))),
    ("map-fn-grad", lambda tf: _cf_grads(tf, lambda x: tf.map_fn(lambda r: tf.reduce_sum(r * r), x),
                                         [[[1.0, 2.0], [3.0, -1.0]]])),
    ("scan", lambda tf: tf.scan(lambda a, x: a + x, tf.constant([1, 2, 3, 4]))),
    ("scan-initializer", lambda tf: tf.scan(lambda a, x: a * x, tf.constant([1., 2., 3.]), initializer=tf.constant(2.))),
    ("scan-reverse", lambda tf: tf.scan(lambda a, x: a + x, tf.constant([1, 2, 3]), reverse=True)),
    ("scan-reverse-initializer", lambda tf: tf.scan(lambda a, x: a * 10 + x, tf.constant([1, 2, 3]), initializer=0,
                                                    reverse=True)),
    ("scan-empty", lambda tf: tf.scan(lambda a, x: a + x, tf.zeros([0]))),
    ("scan-empty-initializer", lambda tf: tf.scan(lambda a, x: a + x, tf.zeros([0]), initializer=1.0)),
    ("scan-tuple", lambda tf: _flat(tf, tf.scan(lambda a, x: (a[0] + x, a[1] * x), tf.constant([1., 2., 3.]),
                                                initializer=(0., 1.)))),
    ("scan-shape-change", lambda tf: tf.scan(lambda a, x: tf.concat([a, [x]], 0), tf.constant([1., 2.]),
                                             initializer=tf.constant([0.]))),
    ("scan-dtype", lambda tf: tf.scan(lambda a, x: a + tf.cast(x, tf.float32), tf.constant([1, 2]), initializer=0.0)),
    ("scan-wrong-dtype", lambda tf: tf.scan(lambda a, x: tf.cast(a, tf.float32) + 1.0, tf.constant([1, 2]))),
    ("scan-grad", lambda tf: _cf_grads(tf, lambda x: tf.scan(lambda a, v: a * v + 1.0, x), [[1.5, 2.0, -1.0]])),
    ("switch-case", lambda tf: tf.switch_case(tf.constant(1), [lambda: tf.constant(10), lambda: tf.constant(20)])),
    ("switch-case-out-of-range", lambda tf: tf.switch_case(tf.constant(7), [lambda: 10, lambda: 20])),
    ("switch-case-negative-default", lambda tf: tf.switch_case(tf.constant(-1), [lambda: 10, lambda: 20],
                                                               default=lambda: 30)),
    ("switch-case-dict", lambda tf: tf.switch_case(tf.constant(0, tf.int64), {1: lambda: 1.5, 0: lambda: 2.5})),
    ("switch-case-python-index", lambda tf: tf.switch_case(1, [lambda: 10, lambda: 20])),
    ("switch-case-float-index", lambda tf: tf.switch_case(tf.constant(1.0), [lambda: 10, lambda: 20])),
    ("switch-case-keys-gap", lambda tf: tf.switch_case(tf.constant(0), {0: lambda: 1, 2: lambda: 2})),
    ("vectorized-map", lambda tf: tf.vectorized_map(lambda x: x * 2, tf.constant([1, 2]))),
    ("vectorized-map-cast", lambda tf: tf.vectorized_map(lambda x: tf.cast(x, tf.float32), tf.constant([1, 2]))),
    ("vectorized-map-tuple", lambda tf: _flat(tf, tf.vectorized_map(lambda x: (x, x + 1), tf.constant([1, 2])))),
    ("vectorized-map-python-out", lambda tf: tf.vectorized_map(lambda x: 3.0, tf.constant([1, 2]))),
    ("vectorized-map-empty", lambda tf: tf.vectorized_map(lambda x: x * 2, tf.zeros([0, 2]))),
    ("vectorized-map-ragged", lambda tf: tf.vectorized_map(lambda x: tf.range(x), tf.constant([1, 2]))),
    ("vectorized-map-rows", lambda tf: tf.vectorized_map(lambda r: tf.reduce_sum(r * r), tf.reshape(tf.range(6.0), [3, 2]))),
    ("vectorized-map-grad", lambda tf: _cf_grads(tf, lambda x: tf.vectorized_map(lambda r: tf.reduce_sum(r * r), x),
                                                 [[[1.0, 2.0], [3.0, -1.0]]])),
    ("assert-false", lambda tf: tf.Assert(tf.constant(False), ["bad", tf.constant([1, 2])])),
    ("assert-true", lambda tf: tf.constant(tf.Assert(True, ["x"]) is None)),
    ("assert-int-condition", lambda tf: tf.constant(tf.Assert(tf.constant(1), ["x"]) is None)),
    ("assert-two-element-condition", lambda tf: tf.Assert(tf.constant([True, False]), ["x"])),
    ("debugging-assert-false", lambda tf: tf.debugging.Assert(tf.constant(1.0) > 2.0, ["x"])),
    ("no-op-group-tuple", lambda tf: [tf.constant(tf.no_op() is None), tf.constant(tf.group(tf.constant(1)) is None),
                                      *tf.tuple([tf.constant(1), 2.0])]),
    ("control-dependencies", lambda tf: (lambda c: [tf.constant(c is None), tf.constant(3)])(
        tf.control_dependencies([tf.constant(1)]).__enter__())),
    ("assert-equal-top-level", lambda tf: tf.assert_equal(tf.constant([1, 2]), tf.constant([1, 3]))),
    ("assert-less-top-level", lambda tf: tf.constant(tf.assert_less(tf.constant([1]), tf.constant([2])) is None)),
    ("assert-greater-top-level", lambda tf: tf.assert_greater(tf.constant([1]), tf.constant([2]))),
    ("foldl", lambda tf: tf.foldl(lambda a, x: a + x, tf.constant([1, 2, 3]))),
    ("foldr", lambda tf: tf.foldr(lambda a, x: a - x, tf.constant([1, 2, 3]))),
    ("foldl-initializer", lambda tf: tf.foldl(lambda a, x: a * x, tf.constant([1., 2.]), initializer=3.0)),
    ("foldr-initializer", lambda tf: tf.foldr(lambda a, x: a * 10 + x, tf.constant([1, 2, 3]), initializer=0)),
    ("foldl-empty", lambda tf: tf.foldl(lambda a, x: a + x, tf.zeros([0]))),
    ("foldl-empty-initializer", lambda tf: tf.foldl(lambda a, x: a + x, tf.zeros([0]), initializer=tf.constant(5.0))),
    ("foldl-tuple", lambda tf: tf.foldl(lambda a, x: a + x[0] * x[1], (tf.constant([1., 2.]), tf.constant([3., 4.])),
                                        initializer=0.0)),
    ("foldl-scalar", lambda tf: tf.foldl(lambda a, x: a + x, tf.constant(3))),
    ("foldr-grad", lambda tf: _cf_grads(tf, lambda x: tf.foldr(lambda a, v: a * v - 1.0, x), [[1.5, 2.0, -1.0]])),
]]
_RAW += _CONTROL_FLOW


# Every dtype through each op of the batch (ok with TF's dtype and values, or TF's error class): bool,
# the integers, half, bfloat16, float, double on [1, 0, 2, 3]. Left out: max_pool1d and normalize, whose
# bfloat16/bool paths are the existing MaxPool/tf.norm's (docs/spec.md, ops.nn-more).
_SWEEP_DTYPES = ("bool", "int8", "uint8", "int16", "int32", "int64", "float16", "bfloat16", "float32", "float64")


def _sweep_input(tf: Any, dt: str) -> Any:
    v = np.array([1, 0, 2, 3])
    if dt == "bool":
        return tf.constant(v.astype(bool))
    return tf.cast(tf.constant(v.astype(np.float64)), getattr(tf, dt))


_SWEEP: dict[str, tuple[str, Callable[[Any, Any], Any]]] = {
    "erfinv": ("ops.special-more", lambda tf, a: tf.math.erfinv(a)),
    "ndtri": ("ops.special-more", lambda tf, a: tf.math.ndtri(a)),
    "bessel_i0": ("ops.special-more", lambda tf, a: tf.math.bessel_i0(a)),
    "bessel_i1e": ("ops.special-more", lambda tf, a: tf.math.bessel_i1e(a)),
    "igamma": ("ops.special-more", lambda tf, a: tf.math.igamma(a, a)),
    "zeta": ("ops.special-more", lambda tf, a: tf.math.zeta(a, a)),
    "nextafter": ("ops.special-more", lambda tf, a: tf.math.nextafter(a, a)),
    "betainc": ("ops.special-more", lambda tf, a: tf.math.betainc(a, a, a)),
    "erfcinv": ("ops.special-more", lambda tf, a: tf.math.erfcinv(a)),
    "reciprocal_no_nan": ("ops.math-composites", lambda tf, a: tf.math.reciprocal_no_nan(a)),
    "lbeta": ("ops.math-composites", lambda tf, a: tf.math.lbeta(a)),
    "polyval": ("ops.math-composites", lambda tf, a: tf.math.polyval([a, a], a)),
    "scalar_mul": ("ops.math-composites", lambda tf, a: tf.math.scalar_mul(2, a)),
    "invert_permutation": ("ops.math-composites", lambda tf, a: tf.math.invert_permutation(a)),
    "is_non_decreasing": ("ops.math-composites", lambda tf, a: tf.math.is_non_decreasing(a)),
    "zero_fraction": ("ops.math-composites", lambda tf, a: tf.math.zero_fraction(a)),
    "accumulate_n": ("ops.math-composites", lambda tf, a: tf.math.accumulate_n([a, a])),
    "histogram": ("ops.math-composites", lambda tf, a: tf.histogram_fixed_width(a, tf.cast(tf.constant([0, 3]), a.dtype), 3)),
    "confusion_matrix": ("ops.math-composites", lambda tf, a: tf.math.confusion_matrix(a, a)),
    "angle": ("ops.math-composites", lambda tf, a: tf.math.angle(a)),
    "real": ("ops.math-composites", lambda tf, a: tf.math.real(a)),
    "roll": ("ops.array-more", lambda tf, a: tf.roll(a, 1, 0)),
    "reverse_sequence": ("ops.array-more", lambda tf, a: tf.reverse_sequence(tf.reshape(a, [2, 2]), [1, 2], 1, 0)),
    "searchsorted": ("ops.array-more", lambda tf, a: tf.searchsorted(a, a)),
    "tensor_scatter_nd_max": ("ops.array-more", lambda tf, a: tf.tensor_scatter_nd_max(a, [[0]], a[:1])),
    "tensor_scatter_nd_min": ("ops.array-more", lambda tf, a: tf.tensor_scatter_nd_min(a, [[0]], a[:1])),
    "ensure_shape": ("ops.array-more", lambda tf, a: tf.ensure_shape(a, [4])),
    "bitcast": ("ops.array-more", lambda tf, a: tf.bitcast(a, tf.uint8)),
    "unravel_index": ("ops.array-more", lambda tf, a: tf.unravel_index(a, tf.cast(tf.constant([2, 2]), a.dtype))),
    "broadcast_dynamic_shape": ("ops.array-more", lambda tf, a: tf.broadcast_dynamic_shape(a, a)),
    "shape_n": ("ops.array-more", lambda tf, a: tf.shape_n([a])[0]),
    "identity_n": ("ops.array-more", lambda tf, a: tf.identity_n([a])[0]),
    "space_to_batch_nd": ("ops.space-batch", lambda tf, a: tf.space_to_batch_nd(tf.reshape(a, [1, 4, 1]), [2], [[0, 0]])),
    "batch_to_space": ("ops.space-batch", lambda tf, a: tf.batch_to_space(tf.reshape(a, [4, 1, 1, 1]), [2, 2], [[0, 0], [0, 0]])),
    "depth_to_space": ("ops.space-batch", lambda tf, a: tf.nn.depth_to_space(tf.reshape(a, [1, 1, 1, 4]), 2)),
    "space_to_depth": ("ops.space-batch", lambda tf, a: tf.nn.space_to_depth(tf.reshape(a, [1, 2, 2, 1]), 2)),
    "crelu": ("ops.nn-more", lambda tf, a: tf.nn.crelu(a)),
    "avg_pool1d": ("ops.nn-more", lambda tf, a: tf.nn.avg_pool1d(tf.reshape(a, [1, 4, 1]), 2, 2, "VALID")),
    "log_poisson_loss": ("ops.nn-more", lambda tf, a: tf.nn.log_poisson_loss(a, a)),
    "lrn": ("ops.nn-more", lambda tf, a: tf.nn.lrn(tf.reshape(a, [1, 1, 1, 4]))),
    "conv2d_transpose": ("ops.nn-more", lambda tf, a: tf.nn.conv2d_transpose(
        tf.reshape(a, [1, 2, 2, 1]), tf.reshape(a, [2, 2, 1, 1]), [1, 4, 4, 1], 2)),
    "band_part": ("ops.linalg-more", lambda tf, a: tf.linalg.band_part(tf.reshape(a, [2, 2]), 0, 0)),
    "set_diag": ("ops.linalg-more", lambda tf, a: tf.linalg.set_diag(tf.reshape(a, [2, 2]), a[:2])),
    "cross": ("ops.linalg-more", lambda tf, a: tf.linalg.cross(a[:3], a[1:])),
    "tensor_diag": ("ops.linalg-more", lambda tf, a: tf.linalg.tensor_diag(a)),
    "tensor_diag_part": ("ops.linalg-more", lambda tf, a: tf.linalg.tensor_diag_part(tf.reshape(a, [2, 2]))),
    "det": ("ops.linalg-more", lambda tf, a: tf.linalg.det(tf.reshape(a, [2, 2]))),
    "inv": ("ops.linalg-more", lambda tf, a: tf.linalg.inv(tf.reshape(a, [2, 2]) + tf.cast(tf.eye(2), a.dtype) * 5)),
    "qr": ("ops.linalg-more", lambda tf, a: tf.linalg.qr(tf.reshape(a, [2, 2]))[1]),
    "adjoint": ("ops.linalg-more", lambda tf, a: tf.linalg.adjoint(tf.reshape(a, [2, 2]))),
    "map_fn": ("ops.control-flow", lambda tf, a: tf.map_fn(lambda v: v, a)),
    "scan": ("ops.control-flow", lambda tf, a: tf.scan(lambda p, v: v, a)),
    "vectorized_map": ("ops.control-flow", lambda tf, a: tf.vectorized_map(lambda v: v, a)),
}
_RAW += [(f"dtype-sweep-{name}-{dt}", cid, (lambda f, dt: lambda tf: f(tf, _sweep_input(tf, dt)))(f, dt))
         for name, (cid, f) in _SWEEP.items() for dt in _SWEEP_DTYPES]

# the special functions, LRN and the factorizations compare within a few float32 ulps (their kernels are
# Eigen's in TF, SciPy's and LAPACK's here); igamma's gradient in a (IgammaGradA: a numerical derivative
# here) within 1e-4; the rest bit for bit
_RTOL = {"ops.special-more": 2e-6, "ops.linalg-more": 1e-5, "ops.nn-more": 1e-6}
_RTOL_CASE = {"igamma-grad-a-and-x": 1e-4, "igammac-grad-a-and-x": 1e-4, "bessel-i1e-grad-at-zero": 1e-5,
              **{f"lbeta-{dt}": 1e-6 for dt in _DTYPES}, "lbeta-edges": 1e-6}
CASES: list[tuple[str, str, Callable[[Any], Any], float]] = [
    (n, c, f, _RTOL_CASE.get(n, _RTOL.get(c, 0.0))) for n, c, f in _RAW]
EDGES = edge_compare.EdgeModule(__file__, CASES, agree=lambda case: edge_compare.within(case[3], {"float16": 1e-3}))


@clause("ops.special-more")
@EDGES.parametrize("ops.special-more")
def test_special_functions_more(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


@clause("ops.math-composites")
@EDGES.parametrize("ops.math-composites")
def test_math_composites(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


@clause("ops.array-more")
@EDGES.parametrize("ops.array-more")
def test_array_ops_more(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


@clause("ops.space-batch")
@EDGES.parametrize("ops.space-batch")
def test_space_batch_depth(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


@clause("ops.nn-more")
@EDGES.parametrize("ops.nn-more")
def test_nn_more(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


@clause("ops.control-flow")
@EDGES.parametrize("ops.control-flow")
def test_control_flow(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


@clause("ops.linalg-more")
@EDGES.parametrize("ops.linalg-more")
def test_linalg_more(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


if __name__ == "__main__":  # TF worker: python test_op_gap_tf.py 0,1,2 -> pickled results on stdout
    tf_workers.serve(EDGES.tf_worker)
