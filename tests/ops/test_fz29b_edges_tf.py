"""Rules behind the classes of issue 29's fresh campaigns that fz29b ran (fourteenth generator seeds
1420292901 and 1420292902, fourth generator seed 2901, third 2902, second 2904, and the fresh
fourteenth seed 1420292903), each against real TensorFlow 2.21: the same call on both backends
gives the same dtype and values, or raises the same exception class. Eagerly, in a tf.function
(`traced`, a one-expression body), and with an input_signature (`sig`: get_concrete_function on
placeholders, then a call). Needs the `tf` extra.
"""

from __future__ import annotations

from typing import Any, Callable

import numpy as np
import pytest

import edge_compare
from edge_programs import eager as _eager, traced as _traced, sig as _sig
import tf_workers

pytestmark = [pytest.mark.tf, tf_workers.tf_or_golden(__file__)]
clause = pytest.mark.clause

_E = "ops.empty-inputs"
_T = "function.trace-time-errors"
_M = "mirrored.variables"
_A = "ops.argument-errors"
_R = "ops.random-in-function"
_C = "ops.conversion"
_S = "ops.linalg-sqrtm"

_STRATEGIES: dict[str, Any] = {}


def _strategy(tf: Any) -> Any:
    """MirroredStrategy on two logical CPUs: simdist's on a fresh simulation for each case, TF's
    made once per worker (tests/ops/test_fz28b_edges_tf.py's helper)."""
    simdist_tf = tf.__name__.startswith("simdist")
    if simdist_tf or tf.__name__ not in _STRATEGIES:
        if simdist_tf:
            import simdist
            simdist.reset()
        cpu = tf.config.list_physical_devices("CPU")[0]
        tf.config.set_logical_device_configuration(cpu, [tf.config.LogicalDeviceConfiguration()] * 2)
        _STRATEGIES[tf.__name__] = tf.distribute.MirroredStrategy(["/cpu:0", "/cpu:1"])
    return _STRATEGIES[tf.__name__]


def _two_variables(expr: str, replicas: bool) -> Callable[[Any], Any]:
    """`expr` of a float32 MirroredVariable `a` (2.5), a bool one `b` (False) and an int32 one `c`
    (3), in each replica of strategy.run (`replicas`) or in cross-replica context."""
    def run(tf: Any) -> Any:
        s = _strategy(tf)
        with s.scope():
            env = {"tf": tf, "np": np, "a": tf.Variable(2.5), "b": tf.Variable(False), "c": tf.Variable(3)}
        if not replicas:
            return eval(expr, env)  # noqa: S307 - our own text
        per = s.run(lambda: tf.cast(eval(expr, env), tf.int32))  # noqa: S307 - our own text
        return s.reduce("SUM", per, axis=None)
    return run


def _seeded_in_function(spec: Any, concrete: bool) -> Callable[[Any], Any]:
    """tf.random.set_seed(64) then truncated_normal inside a tf.function (an input_signature of
    `spec`, or none), traced ahead by get_concrete_function when `concrete`: two calls' draws."""
    def run(tf: Any) -> Any:
        def f(x: Any) -> Any:
            tf.random.set_seed(64)
            return tf.random.truncated_normal(tf.constant([2, 1], tf.int32))
        sig = None if spec is None else [tf.TensorSpec(spec, tf.bool)]
        g = tf.function(f, input_signature=sig, autograph=False)
        x = tf.constant([[True], [True]])
        if concrete:
            g.get_concrete_function() if sig else g.get_concrete_function(x)
        return tf.stack([g(x), g(x)])
    return run

CASES: list[tuple[str, str, Any]] = [
    # a distributed variable sends Variable.__ne__'s NotEqual to the eager fallback (1420292901 #162);
    # first: TF's worker sets its logical devices before any other case runs an op
    ("float32 MirroredVariable != bool MirroredVariable in replicas", _M, _two_variables("a != b", True)),
    ("float32 MirroredVariable == int32 MirroredVariable in replicas", _M, _two_variables("a == c", True)),
    ("float32 MirroredVariable != bool tensor in replicas", _M, _two_variables("a != tf.constant(False)", True)),
    ("float32 MirroredVariable != bool MirroredVariable, cross-replica", _M, _two_variables("a != b", False)),
    ("float32 MirroredVariable == 2.5, cross-replica", _M, _two_variables("a == 2.5", False)),
    ("float32 MirroredVariable != itself in replicas", _M, _two_variables("a != a", True)),
    # an empty list input of a number attr with a minimum: the fast path's N=0 (1420292902 #29);
    # (edge_programs.eager runs a first op: TF's very first call in a process takes the slow path)
    ("dynamic_stitch of an empty int64 vector and no data", _E, _eager(
        "tf.dynamic_stitch(indices=np.array([], np.int64), data=[])")),
    ("dynamic_stitch of two empty lists", _E, _eager("tf.dynamic_stitch(indices=[], data=[])")),
    ("dynamic_stitch of an empty tuple and an empty vector", _E, _eager(
        "tf.dynamic_stitch(indices=(), data=np.array([], np.float32))")),
    ("dynamic_stitch of an empty vector and one data tensor", _E, _eager(
        "tf.dynamic_stitch(indices=np.array([], np.int64), data=[tf.ones([2])])")),
    ("dynamic_stitch of an empty int32 tensor", _E, _eager("tf.dynamic_stitch(indices=tf.zeros([0], tf.int32), data=[])")),
    ("dynamic_stitch of a non-empty int64 vector", _E, _eager(
        "tf.dynamic_stitch(indices=np.array([0], np.int64), data=[tf.ones([2])])")),
    ("dynamic_stitch of two empty lists, traced", _E, _traced("tf.dynamic_stitch(indices=[], data=[])")),
    ("shape_n of an empty list", _E, _eager("tf.shape_n([])")),
    ("shape_n of an empty vector", _E, _eager("tf.shape_n(np.array([]))")),
    ("shape_n of an empty list, traced", _E, _traced("tf.shape_n([])")),
    ("raw ShapeN of an empty list", _E, _eager("tf.raw_ops.ShapeN(input=[])")),
    ("raw DynamicStitch of no indices and one data tensor", _E, _eager(
        "tf.raw_ops.DynamicStitch(indices=[], data=[tf.ones([2])])")),
    ("raw DynamicStitch of two empty lists", _E, _eager("tf.raw_ops.DynamicStitch(indices=[], data=[])")),
    ("raw AddN of an empty list", _E, _eager("tf.raw_ops.AddN(inputs=[])")),
    ("add_n of an empty list", _E, _eager("tf.add_n([])")),
    ("add_n of an empty tuple, traced", _E, _traced("tf.add_n(())")),
    # ssim's Assert fails when the graph runs: at trace the depthwise convolution's shape function
    # (1420292901 #61); past ssim_multiscale's first scale the graph does not know the sizes
    ("ssim of int64 images smaller than the filter, traced", _T, _traced(
        "tf.image.ssim(tf.ones([1, 2, 4, 3], tf.int64), tf.ones([1, 2, 4, 3], tf.int64), max_val=2)")),
    ("ssim of images smaller than the filter", _T, _eager(
        "tf.image.ssim(tf.ones([1, 2, 4, 3]), tf.ones([1, 2, 4, 3]), max_val=2.0)")),
    ("ssim of images of unknown size smaller than the filter, input_signature", _T, _sig(
        "tf.image.ssim(x, x, max_val=2.0)", ([None, None, None, 3], "float32"), "tf.ones([1, 4, 4, 3])")),
    ("ssim_multiscale of 12 x 12 images, traced", _T, _traced(
        "tf.image.ssim_multiscale(tf.ones([1, 12, 12, 3]), tf.ones([1, 12, 12, 3]), max_val=2.0)")),
    ("ssim_multiscale of 8 x 12 images, traced", _T, _traced(
        "tf.image.ssim_multiscale(tf.ones([1, 8, 12, 3]), tf.ones([1, 8, 12, 3]), max_val=2.0)")),
    # HistogramFixedWidth's shape function: a known nbins must be positive (1420292901 #144)
    ("histogram_fixed_width, nbins 0, traced", _T, _traced(
        "tf.histogram_fixed_width(tf.constant(-1.0), value_range=(0.0, 5.0), nbins=0)")),
    ("histogram_fixed_width, reversed range and nbins 0, traced", _T, _traced(
        "tf.histogram_fixed_width(tf.constant(-1.0), value_range=(5.0, 0.0), nbins=0)")),
    ("histogram_fixed_width, nbins [2], traced", _T, _traced(
        "tf.histogram_fixed_width(tf.constant(-1.0), value_range=(0.0, 5.0), nbins=tf.constant([2]))")),
    ("raw HistogramFixedWidth, nbins -1, traced", _T, _traced(
        "tf.raw_ops.HistogramFixedWidth(values=tf.constant(-1.0), value_range=[0.0, 5.0], nbins=-1)")),
    # Range's shape function of constant NaN arguments, its kernel's `delta > 0 ?` (1420292901 #259)
    ("range(0.5, delta=nan), traced", _T, _traced("tf.range(0.5, delta=float('nan'))")),
    ("range(nan), traced", _T, _traced("tf.range(float('nan'))")),
    ("range(0, 5, nan) times a tensor, traced", _T, _traced("tf.range(0, 5, float('nan')) * tf.ones([1, 3, 2, 1])")),
    ("range(0.0, inf), traced", _T, _traced("tf.range(0.0, float('inf'))")),
    ("range(0.5, delta=nan)", _A, _eager("tf.range(0.5, delta=float('nan'))")),
    ("range(0, 5, nan)", _A, _eager("tf.range(0, 5, float('nan'))")),
    ("range(0.0, inf)", _A, _eager("tf.range(0.0, float('inf'))")),
    # an empty tensor for a list attr: the fast path's empty list (1420292901 #293)
    ("extract_patches, ksizes an empty tensor, rates a TensorShape of 3", _A, _eager(
        "tf.image.extract_patches(-2.5, tf.constant([], tf.int32), strides=[4, 2], rates=tf.TensorShape([1, 2, 2]), "
        "padding='VALID')")),
    ("extract_patches, ksizes an empty tensor", _A, _eager(
        "tf.image.extract_patches(tf.ones([1, 4, 4, 1]), tf.constant([], tf.int32), strides=[1, 1, 1, 1], "
        "rates=[1, 1, 1, 1], padding='VALID')")),
    ("extract_patches, ksizes a tensor of 4", _A, _eager(
        "tf.image.extract_patches(tf.ones([1, 4, 4, 1]), tf.constant([1, 2, 2, 1]), strides=[1, 1, 1, 1], "
        "rates=[1, 1, 1, 1], padding='VALID')")),
    # set_seed inside a traced function sets the graph's seed (1420292901 #265)
    ("set_seed then truncated_normal, input_signature, concrete function first", _R, _seeded_in_function(
        [None, None], True)),
    ("set_seed then truncated_normal, input_signature", _R, _seeded_in_function([2, 1], False)),
    ("set_seed then truncated_normal, concrete function first", _R, _seeded_in_function(None, True)),
    ("set_seed then truncated_normal", _R, _seeded_in_function(None, False)),
    # shape functions before the kernels' checks, at trace (1420292902 #0, #47, #87, #133, #172, #297)
    ("conv2d of a scalar, traced", _T, _traced(
        "tf.nn.conv2d(input=tf.constant(0.001), filters=1e-40, strides=np.array([2, 3], dtype=np.int64), "
        "padding='SAME')")),
    ("conv2d of a rank-3 input, traced", _T, _traced("tf.nn.conv2d(tf.ones([3, 3, 1]), tf.ones([1, 1, 1, 1]), 1, 'VALID')")),
    ("depthwise_conv2d of rank 3 with 3 strides, traced", _T, _traced(
        "tf.nn.depthwise_conv2d(tf.ones([3, 1, 1]), tf.ones([3, 1, 1]), strides=[3, 1, 1], padding='VALID')")),
    ("depthwise_conv2d with 3 strides, traced", _T, _traced(
        "tf.nn.depthwise_conv2d(tf.ones([1, 3, 1, 1]), tf.ones([3, 1, 1, 1]), strides=[3, 1, 1], padding='VALID')")),
    ("depthwise_conv2d with 3 strides", _A, _eager(
        "tf.nn.depthwise_conv2d(tf.ones([1, 3, 1, 1]), tf.ones([3, 1, 1, 1]), strides=[3, 1, 1], padding='VALID')")),
    ("max_pool_with_argmax, a batch stride and a window past the rows, traced", _T, _traced(
        "tf.nn.max_pool_with_argmax(np.ones([3, 1, 2, 1], np.float32), ksize=np.array([3], dtype=np.int64), "
        "strides=(3, 1, 2, 1), padding='VALID')")),
    ("max_pool_with_argmax, a batch stride, traced", _T, _traced(
        "tf.nn.max_pool_with_argmax(np.ones([3, 4, 4, 1], np.float32), ksize=2, strides=(3, 1, 2, 1), padding='VALID')")),
    ("total_variation of an unknown rank, input_signature", _T, _sig(
        "tf.image.total_variation(x)", (None, "int64"), "tf.constant(-4, tf.int64)")),
    ("total_variation of three unknown dimensions, input_signature", _T, _sig(
        "tf.image.total_variation(x)", ([None, None, None], "float32"), "tf.ones([2, 2, 1])")),
    ("overlap_and_add, frame_step 0, traced", _T, _traced("tf.signal.overlap_and_add(np.ones([4, 3], np.float32), 0)")),
    ("overlap_and_add, frame_step 0", _A, _eager("tf.signal.overlap_and_add(np.ones([4, 3], np.float32), 0)")),
    ("pad by -1, traced", _T, _traced("tf.pad(tf.ones([2]), [[0, -1]])")),
    ("pad by -1 with constant_values 2, traced", _T, _traced("tf.pad(tf.ones([2]), [[0, -1]], constant_values=2.0)")),
    ("expand_dims, dim [], traced", _T, _traced("tf.expand_dims(tf.ones([1, 2, 1]), [])")),
    ("expand_dims, dim a constant of 2, traced", _T, _traced("tf.expand_dims(tf.ones([1, 2, 1]), tf.constant([0, 1]))")),
    ("expand_dims, dim []", _A, _eager("tf.expand_dims(tf.ones([1, 2, 1]), [])")),
    # fftnd's norm scales the input in Python first (1420292902 #67)
    ("fftnd of False, no axes, norm forward", _A, _eager("tf.signal.fftnd(input_tensor=False, axes=[], norm='forward')")),
    ("fftnd of False, norm ortho", _A, _eager("tf.signal.fftnd(input_tensor=False, axes=[], norm='ortho')")),
    ("fftnd of an int32 vector, norm ortho", _A, _eager("tf.signal.fftnd(np.array([1, 2], np.int32), norm='ortho')")),
    ("fftnd of a complex64 vector, norm forward", _A, _eager(
        "tf.signal.fftnd(np.array([1 + 1j, 2], np.complex64), norm='forward')")),
    # np.float64 is a Python float to the fast path: converted to a variable's dtype (fuzz2 seed 2904 #122)
    ("not_equal of np.float64 and an empty float32 variable", _C, _eager(
        "tf.math.not_equal(np.float64(2.5), tf.Variable(tf.zeros([0, 2, 2])))")),
    ("multiply of np.float64 and a float32 variable", _C, _eager(
        "tf.math.multiply(np.float64(2.5), tf.Variable(tf.zeros([2])))")),
    ("subtract of np.float64 and an int32 variable", _C, _eager(
        "tf.math.subtract(np.float64(2.5), tf.Variable(tf.zeros([2], tf.int32)))")),
    ("multiply of np.float32 and a float64 variable", _C, _eager(
        "tf.math.multiply(np.float32(2.5), tf.Variable(tf.zeros([2], tf.float64)))")),
    ("add of np.float64 and a float32 variable", _C, _eager("tf.math.add(np.float64(2.5), tf.Variable(tf.zeros([2])))")),
    # sqrtm of a complex matrix holding a non-finite entry: NaN + NaN·j (fresh seed 1420292903 #37)
    ("sqrtm of complex64 [[nan - 1j]] and [[0.001 + 0.5j]]", _S, _eager(
        "tf.linalg.sqrtm(np.array([[[complex(float('nan'), -1.0)]], [[complex(0.001, 0.5)]]], dtype=np.complex64))")),
    ("sqrtm of complex128 [[inf]]", _S, _eager("tf.linalg.sqrtm(np.array([[complex(float('inf'), 0)]], np.complex128))")),
    ("sqrtm of a complex128 2 x 2 with a NaN", _S, _eager(
        "tf.linalg.sqrtm(np.array([[1, complex(float('nan'), 0)], [0, 1]], np.complex128))")),
    ("sqrtm of a float64 2 x 2 with an inf", _S, _eager(
        "tf.linalg.sqrtm(np.array([[1, float('inf')], [0, 1]], np.float64))")),
    ("histogram_fixed_width, nbins 0", _T, _eager(
        "tf.histogram_fixed_width(tf.constant(-1.0), value_range=(0.0, 5.0), nbins=0)")),
]

EDGES = edge_compare.EdgeModule(__file__, CASES, agree=lambda case: edge_compare.parts_agree)   # (complex: part by part)


@pytest.fixture(scope="module")
def tf_results() -> dict[int, Any]:
    return EDGES.tf_answers()


@clause("ops.empty-inputs")
@EDGES.parametrize("ops.empty-inputs")
def test_empty_list_inputs(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


@clause("function.trace-time-errors")
@EDGES.parametrize("function.trace-time-errors")
def test_trace_time_errors(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


@clause("mirrored.variables")
@EDGES.parametrize("mirrored.variables")
def test_distributed_variable_equality(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


@clause("ops.argument-errors")
@EDGES.parametrize("ops.argument-errors")
def test_argument_errors(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


@clause("ops.random-in-function")
@EDGES.parametrize("ops.random-in-function")
def test_seeds_set_in_a_function(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


@clause("ops.conversion")
@EDGES.parametrize("ops.conversion")
def test_conversions(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


@clause("ops.linalg-sqrtm")
@EDGES.parametrize("ops.linalg-sqrtm")
def test_sqrtm_of_non_finite_matrices(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


def test_every_case_has_a_test() -> None:
    untested = EDGES.untested()
    assert not untested, f"cases of groups {untested} have no test function above"


if __name__ == "__main__":  # TF worker: python test_fz29b_edges_tf.py 0,1,2 -> pickled results on stdout
    tf_workers.serve(EDGES.tf_worker)
