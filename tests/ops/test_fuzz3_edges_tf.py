"""The rules the third differential fuzzer (tests/fuzz3/) found wrong, each against real
TensorFlow 2.21: the same call on both backends gives the same dtype and bits (the special
functions: within a relative tolerance per dtype), or raises the same exception class. TF's
parameter names, argmax/argmin's axis checks, eye's negative sizes, IgammaGradA's missing
gradient, softmax cross-entropy with scalar labels, diag's padding conversion, top_k in
strategy.run, strategy.reduce along an axis of bools, a tf.function's input_signature at call
time, and tf.math.special. Needs the `tf` extra.
"""

from __future__ import annotations

from typing import Any, Callable

import numpy as np
import pytest

import edge_compare
import tf_workers

pytestmark = [pytest.mark.tf, tf_workers.tf_or_golden(__file__)]
clause = pytest.mark.clause

_STRATEGIES: dict[str, Any] = {}


def _strategy(tf: Any) -> Any:
    """MirroredStrategy on two logical CPUs (simdist's on a fresh simulation for each case, TF's
    made once per worker)."""
    simdist_tf = tf.__name__.startswith("simdist")
    if simdist_tf or tf.__name__ not in _STRATEGIES:
        if simdist_tf:
            import simdist
            simdist.reset()
        cpu = tf.config.list_physical_devices("CPU")[0]
        tf.config.set_logical_device_configuration(cpu, [tf.config.LogicalDeviceConfiguration()] * 2)
        _STRATEGIES[tf.__name__] = tf.distribute.MirroredStrategy(["/cpu:0", "/cpu:1"])
    return _STRATEGIES[tf.__name__]


def _traced(fn: Callable[[Any], Any]) -> Callable[[Any], Any]:
    return lambda tf: tf.function(lambda: fn(tf), autograph=False)()


def _igamma_second(tf: Any, wrt_a: bool) -> Any:
    a = tf.Variable([1.0, 2.0], dtype=tf.float64)
    x = tf.Variable([0.5, 3.0], dtype=tf.float64)
    src = a if wrt_a else x
    with tf.GradientTape() as outer:
        with tf.GradientTape() as inner:
            y = tf.math.igamma(a, x)
        g = inner.gradient(y, src)
    return outer.gradient(g, src)


def _top_k_run(tf: Any) -> Any:
    s = _strategy(tf)
    v = s.experimental_distribute_values_from_function(
        lambda ctx: tf.constant([[1.0, 5.0, 3.0], [2.0, -1.0, float(ctx.replica_id_in_sync_group)]]))
    out = s.run(lambda x: tf.math.top_k(x, k=2), args=(v,))
    return [t for pair in s.experimental_local_results(out.values) + s.experimental_local_results(out.indices)
            for t in [pair]]


def _reduce_bool(how: str, axis: Any) -> Callable[[Any], Any]:
    def run(tf: Any) -> Any:
        s = _strategy(tf)
        v = s.experimental_distribute_values_from_function(lambda ctx: tf.constant([True, ctx.replica_id_in_sync_group > 0]))
        return s.reduce(how, v, axis=axis)
    return run


def _signature(spec: Callable[[Any], Any], arg: Callable[[Any], Any], body: str = "x + 1") -> Callable[[Any], Any]:
    def run(tf: Any) -> Any:
        f = tf.function(eval(f"lambda x: {body}", {"tf": tf}), input_signature=[spec(tf)])  # noqa: S307 - our text
        return f(arg(tf))
    return run


def _special(name: str, dt: str, grad: bool = False) -> Callable[[Any], Any]:
    vals = [-2.5, -0.0, 0.0, 0.5, 1.0, 3.0, 1e30, np.inf, -np.inf, np.nan, 1e-30, 40.0]

    def run(tf: Any) -> Any:
        f = getattr(tf.math.special, name)
        if not grad:
            return f(tf.constant(vals if dt in ("float32", "float64") else [0.5, 2.0], getattr(tf, dt)))
        v = tf.Variable(vals, dtype=getattr(tf, dt))
        with tf.GradientTape() as tape:
            y = f(v)
        return [y, tape.gradient(y, v)]
    return run


_SPECIAL = ("bessel_j0", "bessel_j1", "bessel_y0", "bessel_y1", "bessel_k0", "bessel_k0e", "bessel_k1", "bessel_k1e",
            "dawsn", "expint", "fresnel_cos", "fresnel_sin", "spence", "bessel_i0e")

CASES: list[tuple[str, str, Callable[[Any], Any]]] = [
    # -- TF's parameter names, passed by keyword (fuzz3: the facade named them x)
    ("kw-expand-dims-input", "ops.fuzz3", lambda tf: tf.expand_dims(input=tf.constant([1, 2]), axis=-1)),
    ("kw-identity-input", "ops.fuzz3", lambda tf: tf.identity(input=tf.constant([1.5]))),
    ("kw-shape-input", "ops.fuzz3", lambda tf: tf.shape(input=tf.zeros([2, 3]), out_type=tf.int64)),
    ("kw-size-input", "ops.fuzz3", lambda tf: tf.size(input=tf.zeros([2, 3]))),
    ("kw-rank-input", "ops.fuzz3", lambda tf: tf.rank(input=tf.zeros([2, 3]))),
    ("kw-squeeze-input", "ops.fuzz3", lambda tf: tf.squeeze(input=tf.zeros([2, 1]), axis=1)),
    ("kw-ones-like-input", "ops.fuzz3", lambda tf: tf.ones_like(input=tf.zeros([2]), dtype=tf.int8)),
    ("kw-zeros-like-input", "ops.fuzz3", lambda tf: tf.zeros_like(input=tf.ones([2], tf.int64))),
    ("kw-transpose-conjugate", "ops.fuzz3", lambda tf: tf.transpose(a=tf.constant([[1.0, 2.0]]), conjugate=True)),
    ("kw-as-dtype-type-value", "ops.fuzz3", lambda tf: tf.zeros([1], dtype=tf.as_dtype(type_value="int16"))),
    ("kw-fill-layout-none", "ops.fuzz3", lambda tf: tf.fill(dims=[2], value=3, layout=None)),
    # -- argmax's Python axis checks (math_ops.argmax_v2), argmin's kernel scalar check
    ("argmax-axis-list", "ops.argmax", lambda tf: tf.math.argmax(tf.ones([2, 3]), axis=[0])),
    ("argmax-axis-tuple2", "ops.argmax", lambda tf: tf.math.argmax(tf.ones([2, 3]), axis=(0, 1))),
    ("argmax-axis-numpy-int", "ops.argmax", lambda tf: tf.math.argmax(tf.ones([2, 3]), axis=np.int64(1))),
    ("argmax-axis-float", "ops.argmax", lambda tf: tf.math.argmax(tf.ones([2, 3]), axis=1.0)),
    ("argmax-axis-bool", "ops.argmax", lambda tf: tf.math.argmax(tf.constant([[1, 5], [7, 2]]), axis=True)),
    ("argmax-axis-uint8-tensor", "ops.argmax", lambda tf: tf.math.argmax(tf.constant([[1, 5], [7, 2]]), axis=tf.constant(1, tf.uint8))),
    ("argmax-axis-float-tensor", "ops.argmax", lambda tf: tf.math.argmax(tf.ones([2, 3]), axis=tf.constant(0.0))),
    ("argmin-axis-list", "ops.argmax", lambda tf: tf.math.argmin(tf.ones([2, 3]), axis=[0, 1])),
    ("argmin-axis-empty-tuple", "ops.argmax", lambda tf: tf.math.argmin(tf.constant(2.0), axis=())),
    ("argmin-axis-numpy-int", "ops.argmax", lambda tf: tf.math.argmin(tf.constant([[1, 5], [7, 2]]), axis=np.int64(1))),
    ("argmin-axis-float", "ops.argmax", lambda tf: tf.math.argmin(tf.ones([2, 3]), axis=1.0)),
    ("argmin-axis-uint8-tensor", "ops.argmax", lambda tf: tf.math.argmin(tf.ones([2, 3]), axis=tf.constant(1, tf.uint8))),
    ("argmin-axis-list-traced", "ops.argmax", _traced(lambda tf: tf.math.argmin(tf.ones([2, 3]), axis=[0, 1]))),
    # -- eye's sizes go to Fill: a negative one is Fill's error
    ("eye-negative-rows", "ops.argument-errors", lambda tf: tf.eye(-1)),
    ("eye-negative-columns", "ops.argument-errors", lambda tf: tf.linalg.eye(3, -2)),
    ("eye-negative-batch", "ops.argument-errors", lambda tf: tf.eye(2, 2, [-1])),
    ("eye-negative-traced", "ops.argument-errors", _traced(lambda tf: tf.eye(-1))),
    # -- softmax cross-entropy with scalar labels: Slice's error eagerly, IndexError traced
    ("xent-scalar-labels", "ops.argument-errors",
     lambda tf: tf.nn.softmax_cross_entropy_with_logits(labels=tf.constant(1.0), logits=tf.ones([2, 4]))),
    ("xent-scalar-labels-traced", "ops.argument-errors", _traced(
        lambda tf: tf.nn.softmax_cross_entropy_with_logits(labels=tf.constant(1.0), logits=tf.ones([2, 4])))),
    ("xent-scalar-logits-traced", "ops.argument-errors", _traced(
        lambda tf: tf.nn.softmax_cross_entropy_with_logits(tf.constant(0.0), tf.constant(0.1)))),
    # -- IgammaGradA has no gradient: igamma's second derivative in a is LookupError
    ("igamma-second-order-a", "ops.special-more", lambda tf: _igamma_second(tf, True)),
    ("igamma-second-order-x", "ops.special-more", lambda tf: _igamma_second(tf, False)),
    # -- diag/diag_part's padding value (array_ops: bool(padding) for a bool input, else converted)
    ("diag-python-bool", "ops.matrix-diag", lambda tf: tf.linalg.diag(True)),
    ("diag-python-bool-list", "ops.matrix-diag", lambda tf: tf.linalg.diag([True, False])),
    ("diag-bool-tensor", "ops.matrix-diag", lambda tf: tf.linalg.diag(tf.constant([True, False]))),
    ("diag-numpy-bool", "ops.matrix-diag", lambda tf: tf.linalg.diag(np.array([True, False]))),
    ("diag-int-pad-float", "ops.matrix-diag", lambda tf: tf.linalg.diag(tf.constant([1, 2]), padding_value=0.5)),
    ("diag-int-pad-int", "ops.matrix-diag", lambda tf: tf.linalg.diag(tf.constant([1, 2]), padding_value=7)),
    ("diag-uint8-pad-negative", "ops.matrix-diag", lambda tf: tf.linalg.diag(tf.constant([1, 2], tf.uint8), padding_value=-1)),
    ("diag-half-pad-overflow", "ops.matrix-diag", lambda tf: tf.linalg.diag(tf.constant([1.5, 2.0], tf.float16), padding_value=1e6)),
    ("diag-part-python-bool", "ops.matrix-diag", lambda tf: tf.linalg.diag_part([[True, False]])),
    ("diag-part-bool-pad", "ops.matrix-diag", lambda tf: tf.linalg.diag_part(tf.constant([[True, False]]), k=1, padding_value=3)),
    # -- top_k's TopKV2 namedtuple out of strategy.run; its index_type (int16, int32, int64)
    ("top-k-in-strategy-run", "ops.sort", _top_k_run),
    *[(f"top-k-index-type-{it}", "ops.sort", lambda tf, it=it: list(tf.math.top_k(
        tf.constant([3.0, 6e-8, 0.0, 2.5], tf.float64), 2, index_type=getattr(tf, it)))) for it in ("int16", "int64", "uint8", "float32")],
    ("top-k-index-type-traced", "ops.sort", _traced(lambda tf: tf.math.top_k([1.0, 3.0], 1, index_type=tf.uint8).indices)),
    # -- a Python list's dtype: the first leaf decides (NumPy int64 scalars give int32, float16 float16)
    *[(f"list-dtype-{k}", "ops.conversion", lambda tf, v=v: tf.constant(v)) for k, v in (
        ("np-int64", [np.int64(0), np.int64(3)]), ("np-int64-big", [np.int64(2**40)]), ("np-float16", [np.float16(1), 1.0]),
        ("int-then-float64", [np.int64(1), np.float64(2.5)]), ("float64-then-int", [np.float64(2.5), np.int64(1)]),
        ("float32-then-float64", [np.float32(1), np.float64(2)]), ("python-float-then-float64", [1.0, np.float64(2)]),
        ("int-then-float16", [2, np.float16(1)]), ("int64-arrays", [np.array([1, 2], np.int64), np.array([3, 4], np.int64)]),
        ("0d-array", [np.array(3, np.int64)]), ("float64-array-then-float32", [np.array([1.5]), np.array([2.5], np.float32)]))],
    ("stack-np-int64", "ops.conversion", lambda tf: tf.stack([np.int64(0), np.int64(3)])),
    ("stack-axis-1-np-int64", "ops.conversion", lambda tf: tf.stack([np.array([1], np.int64), np.array([2], np.int64)], axis=1)),
    ("stack-mixed-tensor", "ops.conversion", lambda tf: tf.stack([tf.constant(1, tf.int64), np.int64(2)])),
    # -- norm's axis: an int or a tuple of 2 unique ints (a 1-tuple is refused); squeeze of a repeated axis
    ("norm-axis-1-tuple", "ops.argument-errors", lambda tf: tf.norm(tf.constant([[-3.0, 4.0]]), axis=(0,))),
    ("norm-axis-1-list", "ops.argument-errors", lambda tf: tf.norm(tf.constant([[-3.0, 4.0]]), axis=[1])),
    ("normalize-axis-1-tuple", "ops.argument-errors", lambda tf: list(tf.linalg.normalize(tf.constant([[-3.0, 4.0]]), axis=(1,)))),
    ("norm-ord1-same-axis-twice", "ops.argument-errors", lambda tf: tf.norm(tf.constant([-3.0, 4.0]), ord=1, axis=(-1, 0))),
    ("squeeze-repeated-axis", "ops.argument-errors", lambda tf: tf.squeeze(tf.ones([1, 2, 1]), [0, 0, -1])),
    ("squeeze-repeated-axis-traced", "ops.argument-errors", _traced(lambda tf: tf.squeeze(tf.ones([1, 2, 1]), [0, -3]))),
    # -- strategy.reduce along an axis of bools: reduce_sum in a tf.function, the op def's TypeError
    *[(f"reduce-bool-{how}-axis-{ax}", "reduce.dtypes", _reduce_bool(how, ax)) for how in ("SUM", "MEAN") for ax in (0, None)],
    # -- a tf.function's input_signature binds the call's arguments
    ("signature-dtype-mismatch", "function.input-signature",
     _signature(lambda tf: tf.TensorSpec([None], tf.float32), lambda tf: tf.constant([1], tf.int32))),
    ("signature-rank-mismatch", "function.input-signature",
     _signature(lambda tf: tf.TensorSpec([None], tf.float32), lambda tf: tf.ones([2, 2]))),
    ("signature-python-list", "function.input-signature",
     _signature(lambda tf: tf.TensorSpec([None], tf.float32), lambda tf: [1, 2])),
    ("signature-python-scalar-rank", "function.input-signature",
     _signature(lambda tf: tf.TensorSpec([None], tf.float32), lambda tf: 1.0)),
    ("signature-numpy-float64", "function.input-signature",
     _signature(lambda tf: tf.TensorSpec([None], tf.float32), lambda tf: np.array([1.5, 2.25], np.float64))),
    ("signature-variable", "function.input-signature",
     _signature(lambda tf: tf.TensorSpec([None], tf.float32), lambda tf: tf.Variable([1.0]))),
    ("signature-unknown-rank", "function.input-signature",
     _signature(lambda tf: tf.TensorSpec(None, tf.int32), lambda tf: tf.ones([2, 2], tf.int32), "x * 2")),
    ("signature-python-float-to-int", "function.input-signature",
     _signature(lambda tf: tf.TensorSpec(None, tf.int32), lambda tf: 1.5)),
    ("signature-fixed-shape", "function.input-signature",
     _signature(lambda tf: tf.TensorSpec([2], tf.float32), lambda tf: tf.ones([3]))),
    ("signature-too-many-arguments", "function.input-signature", lambda tf: tf.function(
        lambda x: x, input_signature=[tf.TensorSpec([1], tf.float32)])(tf.ones([1]), tf.ones([1]))),
    # -- errors a tf.function raises while it builds the graph (op_def_library's TypeError, shape functions' ValueError)
    *[(f"traced-{k}", "function.trace-time-errors", _traced(f)) for k, f in (
        ("argsort-scalar", lambda tf: tf.argsort(tf.constant(0, dtype=tf.int8), direction="DESCENDING")),
        ("sort-scalar", lambda tf: tf.sort(tf.constant(0.5))),
        ("in-top-k-bool-predictions", lambda tf: tf.math.in_top_k(tf.constant([0], tf.int64), tf.constant([[True]]), 1)),
        ("unique-out-idx-int16", lambda tf: tf.unique(tf.constant([1, 2]), out_idx=tf.int16).y),
        ("unique-with-counts-out-idx-int16", lambda tf: tf.unique_with_counts(tf.constant([1, 2]), out_idx=tf.int16).y),
        ("bitcast-scalar-widening", lambda tf: tf.bitcast(tf.constant(64, dtype=tf.int8), tf.int64)),
        ("reverse-int-axis", lambda tf: tf.reverse(tf.ones([2, 2]), axis=1)),
        ("det-not-square", lambda tf: tf.linalg.det(tf.constant([[], []], dtype=tf.float64))),
        ("inv-rank-1", lambda tf: tf.linalg.inv(tf.ones([2]))),
        ("matmul-rank-1", lambda tf: tf.linalg.matmul(tf.ones([2, 2], tf.float16), tf.constant([], dtype=tf.float16))),
        ("batch-matmul-rank-1", lambda tf: tf.linalg.matmul(tf.ones([2, 2, 2]), tf.ones([2]))),
        ("histogram-bfloat16", lambda tf: tf.histogram_fixed_width(tf.constant([1.0, 2.0], dtype=tf.bfloat16), [0, 10])),
        ("logical-not-float", lambda tf: tf.math.logical_not(tf.constant([1.0]))),
        ("bitwise-invert-float", lambda tf: tf.bitwise.invert(tf.constant([1.0]))))],
    # -- scalars: segment reductions refuse them, ReverseV2 returns one as it is (traced: its axes are checked)
    *[(f"{m}-{k}", "ops.argument-errors", f if m == "eager" else _traced(f)) for m in ("eager", "traced") for k, f in (
        ("segment-sum-scalar", lambda tf: tf.math.segment_sum(tf.constant(1.0), [0])),
        ("segment-max-scalar", lambda tf: tf.math.segment_max(tf.constant(1.0), [0])),
        ("reverse-scalar-axis-0", lambda tf: tf.reverse(tf.constant(2.0, tf.float64), [0])),
        ("reverse-scalar-axis-1", lambda tf: tf.reverse(tf.constant(2.0), [1])),
        ("reverse-axis-out-of-range", lambda tf: tf.reverse(tf.ones([2, 2]), [5])),
        ("reverse-axis-twice", lambda tf: tf.reverse(tf.ones([2, 2]), [0, -2])),
        ("logical-not-numpy-float", lambda tf: tf.math.logical_not(np.array([0.0, 2.0], np.float32))),
        ("logical-not-numpy-uint64", lambda tf: tf.math.logical_not(np.array([1], np.uint64))),
        ("logical-and-numpy-int", lambda tf: tf.math.logical_and(np.array([1, 0]), True)),
        ("shape-out-type-int16", lambda tf: tf.shape(tf.ones([2]), out_type=tf.int16)),
        ("shape-out-type-float32", lambda tf: tf.shape(tf.ones([2]), out_type=tf.float32)),
        ("shape-out-type-string", lambda tf: tf.shape(tf.ones([2]), out_type="int64")),
        ("size-out-type-string", lambda tf: tf.size(tf.ones([2]), out_type="int64")),
        ("size-out-type-numpy", lambda tf: tf.size(tf.ones([2]), out_type=np.int64)),
        ("size-out-type-int16", lambda tf: tf.size(tf.ones([2]), out_type=tf.int16)))],
    # -- tf.math.special: values at domain edges, dtypes, gradients
    *[(f"special-{n}-{dt}", "ops.math-special", _special(n, dt)) for n in _SPECIAL
      for dt in ("float64", "float32", "float16", "bfloat16", "int32")],
    *[(f"special-{n}-grad", "ops.math-special", _special(n, "float64", grad=True)) for n in _SPECIAL],
]


def _special_agree(got: np.ndarray, want: np.ndarray) -> np.ndarray:
    """The special functions (SciPy's kernels, not Eigen's): NaN and infinities where TF has them,
    finite values within 2e-6 relative in float64, 5e-5 in float32 (Eigen's float32
    approximations: j0(40) is 2.3e-5 off) and 1e-3 in float16 (1e-12 absolute); elementwise."""
    if got.dtype.kind != "f":
        return np.asarray(got == want)
    x, y = got.astype(np.float64), want.astype(np.float64)
    tol = {np.dtype(np.float16): 1e-3, np.dtype(np.float32): 5e-5}.get(got.dtype, 2e-6)
    with np.errstate(invalid="ignore", over="ignore"):
        close = np.isfinite(x) & np.isfinite(y) & (np.abs(x - y) <= tol * np.abs(y) + 1e-12)
    return close | (np.isnan(x) & np.isnan(y)) | (np.isinf(x) & (x == y))


EDGES = edge_compare.EdgeModule(
    __file__, CASES, agree=lambda case: _special_agree if case[1] == "ops.math-special" else edge_compare.bits_agree)


def _tf_worker(indices: list[int]) -> dict[int, Any]:
    import tensorflow as tf
    _strategy(tf)   # the logical CPUs are configured before any op initializes TF's runtime
    return {k: EDGES.outcome(tf, k) for k in indices}


@pytest.fixture(scope="module")
def tf_results() -> dict[int, Any]:
    return EDGES.tf_answers()


@clause("ops.fuzz3")
@EDGES.parametrize("ops.fuzz3")
def test_parameter_names(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


@clause("ops.argmax")
@EDGES.parametrize("ops.argmax")
def test_arg_axis_checks(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


@clause("ops.argument-errors")
@EDGES.parametrize("ops.argument-errors")
def test_argument_errors(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


@clause("ops.special-more")
@EDGES.parametrize("ops.special-more")
def test_igamma_grad_a_has_no_gradient(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


@clause("ops.matrix-diag")
@EDGES.parametrize("ops.matrix-diag")
def test_diag_padding(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


@clause("ops.sort")
@EDGES.parametrize("ops.sort")
def test_top_k_namedtuple_and_index_type(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


@clause("reduce.dtypes")
@EDGES.parametrize("reduce.dtypes")
def test_reduce_bool_along_axis(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


@clause("ops.conversion")
@EDGES.parametrize("ops.conversion")
def test_sequence_dtypes(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


@clause("function.trace-time-errors")
@EDGES.parametrize("function.trace-time-errors")
def test_graph_build_errors(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


@clause("function.input-signature")
@EDGES.parametrize("function.input-signature")
def test_input_signature_binding(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


@clause("ops.math-special")
@EDGES.parametrize("ops.math-special")
def test_math_special(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


def test_every_case_has_a_test() -> None:
    untested = EDGES.untested()
    assert not untested, f"cases of groups {untested} have no test function above"


if __name__ == "__main__":  # TF worker: python test_fuzz3_edges_tf.py 0,1,2 -> pickled results on stdout
    tf_workers.serve(_tf_worker)
