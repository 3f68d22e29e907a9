"""Rules behind the classes of issue 29's fresh campaigns that fz28b ran (fourteenth generator seeds
1420282801 and 1420282802, fourth generator seed 2801), each against real TensorFlow 2.21: the same
call on both backends gives the same dtype and values, or raises the same exception class. Eagerly,
in a tf.function (`traced`, a one-expression body), with an input_signature (`sig`:
get_concrete_function on placeholders, then a call), and across two replicas of a MirroredStrategy.
Needs the `tf` extra.
"""

from __future__ import annotations

import textwrap
from typing import Any, Callable

import numpy as np
import pytest

import edge_compare
from edge_programs import eager as _eager, traced as _traced, sig as _sig
import tf_workers

pytestmark = [pytest.mark.tf, tf_workers.tf_or_golden(__file__)]
clause = pytest.mark.clause

_A = "ops.argument-errors"
_T = "function.trace-time-errors"
_D = "nn.conv-dilation"
_M = "mirrored.variables"
_G = "ops.host-cpu"

_STRATEGIES: dict[str, Any] = {}


def _strategy(tf: Any) -> Any:
    """MirroredStrategy on two logical CPUs: simdist's on a fresh simulation for each case, TF's
    made once per worker (tests/ops/test_fz26b_edges_tf.py's helper)."""
    simdist_tf = tf.__name__.startswith("simdist")
    if simdist_tf or tf.__name__ not in _STRATEGIES:
        if simdist_tf:
            import simdist
            simdist.reset()
        cpu = tf.config.list_physical_devices("CPU")[0]
        tf.config.set_logical_device_configuration(cpu, [tf.config.LogicalDeviceConfiguration()] * 2)
        _STRATEGIES[tf.__name__] = tf.distribute.MirroredStrategy(["/cpu:0", "/cpu:1"])
    return _STRATEGIES[tf.__name__]


def _program(body: str, *args: str) -> Callable[[Any], Any]:
    """`body` (statements ending in a return) as a tf.function of the tensors `args` make, called
    once (tests/ops/test_fz27b_edges_tf.py's builder)."""
    def run(tf: Any) -> Any:
        names = ", ".join(f"a{i}" for i in range(len(args)))
        env: dict[str, Any] = {"tf": tf, "np": np}
        exec(f"def f({names}):\n" + textwrap.indent(textwrap.dedent(body), "    "), env)  # noqa: S102 - our own text
        values = [eval(a, {"tf": tf, "np": np}) for a in args]  # noqa: S307 - our own text
        return tf.function(env["f"])(*values)
    return run


def _in_replicas(expr: str, var: str, sync: str = "") -> Callable[[Any], Any]:
    """`expr` of a variable `v` (made by `var` in the strategy's scope) in each replica of
    strategy.run, made a tensor and summed across the replicas."""
    def run(tf: Any) -> Any:
        s = _strategy(tf)
        env = {"tf": tf, "np": np}
        with s.scope():
            v = eval(var, env)  # noqa: S307 - our own text
        per = s.run(lambda: tf.constant(eval(expr, {**env, "v": v})))  # noqa: S307 - our own text
        return s.reduce("SUM", per, axis=None)
    return run


def _outside(expr: str, var: str) -> Callable[[Any], Any]:
    """`expr` of a variable `v` made by `var` in the strategy's scope, in cross-replica context."""
    def run(tf: Any) -> Any:
        s = _strategy(tf)
        env = {"tf": tf, "np": np}
        with s.scope():
            v = eval(var, env)  # noqa: S307 - our own text
        return tf.constant(eval(expr, {**env, "v": v}))  # noqa: S307 - our own text
    return run


_RNG = "np.random.default_rng(28)"
_U32 = "np.array([[0, 5, 3, 1], [5, 0, 2, 3], [1, 0, 5, 1]], dtype=np.uint32)"
_ON_READ = ("tf.Variable(3.0, synchronization=tf.VariableSynchronization.ON_READ, "
            "aggregation=tf.VariableAggregation.SUM)")

CASES: list[tuple[str, str, Any]] = [
    # a DistributedVariable has no __float__, __int__ or __complex__ (fourth generator seed 2801 #105);
    # first: TF's worker sets its logical devices before any other case runs an op
    ("float of a MirroredVariable in replicas", _M, _in_replicas("float(v)", "tf.Variable(3.0)")),
    ("int of a MirroredVariable in replicas", _M, _in_replicas("int(v)", "tf.Variable(3)")),
    ("float of a MirroredVariable's read in replicas", _M, _in_replicas("float(v.read_value())", "tf.Variable(3.0)")),
    ("complex of a MirroredVariable, cross-replica", _M, _outside("complex(v)", "tf.Variable(3.0)")),
    ("bool of a MirroredVariable of 0, cross-replica", _M, _outside("bool(v)", "tf.Variable(0.0)")),
    ("float of a SyncOnReadVariable, cross-replica", _M, _outside("float(v)", _ON_READ)),
    # SpaceToDepth/DepthToSpace: data_format's list before the kernel lookup (1420282801 #4)
    ("space_to_depth of a uint32 matrix, NWC", _A, _eager(f"tf.nn.space_to_depth({_U32}, block_size=2, "
                                                          "data_format='NWC')")),
    ("space_to_depth of a uint32 matrix, NCHW (no kernel)", _A, _eager(
        f"tf.nn.space_to_depth({_U32}, block_size=2, data_format='NCHW')")),
    ("depth_to_space of a float32 image, NWC", _A, _eager(
        "tf.nn.depth_to_space(tf.zeros([1, 2, 2, 4]), 2, data_format='NWC')")),
    ("space_to_depth, NWC, traced", _T, _traced("tf.nn.space_to_depth(tf.zeros([1, 2, 2, 1]), 2, data_format='NWC')")),
    ("depth_to_space, block_size 1 and NWC, traced", _T, _traced(
        "tf.nn.depth_to_space(tf.zeros([1, 2, 2, 4]), 1, data_format='NWC')")),
    ("space_to_depth of a uint32 image", _A, _eager("tf.nn.space_to_depth(tf.zeros([1, 2, 2, 1], tf.uint32), 2)")),
    # nn_ops.Convolution's constructor for a dilated convolution (1420282801 #23, 1420282802 #277)
    ("atrous_conv2d of 3 channels with a 4-channel uint8 filter", _D, _eager(
        "tf.nn.atrous_conv2d(tf.ones([2, 3, 4, 3], tf.uint8), tf.ones([2, 3, 4, 3], tf.uint8), rate=3.0, "
        "padding='SAME')")),
    ("atrous_conv2d of 3 channels with a 2-channel filter, traced", _D, _traced(
        "tf.nn.atrous_conv2d(tf.ones([1, 5, 5, 3]), tf.ones([2, 2, 2, 2]), rate=2, padding='SAME')")),
    ("atrous_conv2d, rate 1e-6", _D, _eager(
        "tf.nn.atrous_conv2d(tf.ones([1, 5, 5, 1], tf.float64), tf.ones([2, 3, 1, 1], tf.float64), 1e-6, 'SAME')")),
    ("atrous_conv2d, rate -1", _D, _eager("tf.nn.atrous_conv2d(tf.ones([1, 5, 5, 3]), tf.ones([2, 2, 3, 2]), -1, 'SAME')")),
    ("convolution, dilations [0, 1]", _D, _eager("tf.nn.convolution(tf.ones([1, 5, 5, 3]), tf.ones([2, 2, 3, 2]), "
                                                 "dilations=[0, 1])")),
    ("convolution, strides [0, 1] beside dilations [2, 1]", _D, _eager(
        "tf.nn.convolution(tf.ones([1, 5, 5, 3]), tf.ones([2, 2, 3, 2]), strides=[0, 1], dilations=[2, 1])")),
    ("convolution of NCHW channels, dilations 2, 4-channel filter", _D, _eager(
        "tf.nn.convolution(tf.ones([1, 3, 5, 5]), tf.ones([2, 2, 4, 1]), dilations=2, data_format='NCHW')")),
    ("convolution 3-D, dilations 2, 4-channel filter", _D, _eager(
        "tf.nn.convolution(tf.ones([1, 5, 5, 5, 3]), tf.ones([2, 2, 2, 4, 1]), dilations=2)")),
    ("convolution, dilations 2, filter of 0 input channels", _D, _eager(
        "tf.nn.convolution(tf.ones([1, 5, 5, 3]), tf.ones([2, 2, 0, 2]), dilations=2)")),
    ("convolution, dilations 2, a filter dividing the channels (groups)", _D, _eager(
        "tf.nn.convolution(tf.ones([1, 5, 5, 4]), tf.ones([2, 2, 2, 4]), dilations=2)")),
    ("convolution, dilations 2, unknown channels, get_concrete_function", _D, _sig(
        "tf.nn.convolution(x, tf.ones([2, 2, 4, 2]), dilations=2)", ([None, 5, 5, None], "float32"),
        "tf.ones([1, 5, 5, 4])")),
    # MaxPoolWithArgmax: make_* attrs first; its shape function's positive ksize before the rank (1420282801 #87)
    ("max_pool_with_argmax, include_batch_in_index=1", _A, _eager(
        "tf.nn.max_pool_with_argmax(tf.constant(2, dtype='uint64'), np.array([2, 0]), (3,), 'VALID', "
        "include_batch_in_index=1)")),
    ("max_pool_with_argmax, include_batch_in_index=1, traced", _T, _traced(
        "tf.nn.max_pool_with_argmax(tf.constant(2, dtype='uint64'), np.array([2, 0]), (3,), 'VALID', "
        "include_batch_in_index=1)")),
    ("max_pool_with_argmax, padding 3", _A, _eager("tf.nn.max_pool_with_argmax(tf.ones([1, 2, 2, 1]), 1, 1, 3)")),
    ("max_pool_with_argmax of a scalar, ksize 0, traced", _T, _traced(
        "tf.nn.max_pool_with_argmax(tf.constant(2.0), [2, 0], (3,), 'VALID')")),
    ("max_pool_with_argmax of an image, ksize 0, traced", _T, _traced(
        "tf.nn.max_pool_with_argmax(tf.ones([1, 2, 2, 1]), [2, 0], 3, 'VALID')")),
    ("raw MaxPoolWithArgmax of a scalar, ksize -1, traced", _T, _traced(
        "tf.raw_ops.MaxPoolWithArgmax(input=tf.ones([]), ksize=[1, -1, 1, 1], strides=[1, 1, 1, 1], "
        "padding='VALID')")),
    ("raw MaxPoolWithArgmax of a scalar, batch ksize, traced", _T, _traced(
        "tf.raw_ops.MaxPoolWithArgmax(input=tf.ones([]), ksize=[2, 1, 1, 1], strides=[1, 1, 1, 1], "
        "padding='VALID')")),
    ("max_pool_with_argmax of an image, ksize 0", _A, _eager(
        "tf.nn.max_pool_with_argmax(tf.ones([1, 2, 2, 1]), [2, 0], 3, 'VALID')")),
    # tf.conv: eagerly the inputs converted before the attrs (1420282802 #87)
    ("conv of a bool input and a nan filter, padding 'same'", _A, _eager(
        "tf.conv(input=tf.constant(False), filter=float('nan'), strides=[2, 0], padding='same')")),
    ("conv of float32, padding 'same'", _A, _eager(
        "tf.conv(input=tf.ones([1, 2, 2, 1]), filter=tf.ones([1, 1, 1, 1]), strides=[1, 1, 1, 1], padding='same')")),
    # depthwise_conv2d: strides' list first, then T, then padding (1420282802 #197)
    ("depthwise_conv2d, NumPy strides, padding 'same'", _A, _eager(
        "tf.nn.depthwise_conv2d(tf.ones([1, 2, 2, 1]), tf.ones([1, 1, 1, 1]), strides=np.array([1, 1, 1, 1]), "
        "padding='same')")),
    ("depthwise_conv2d of complex128, padding 'same'", _A, _eager(
        "tf.nn.depthwise_conv2d(tf.ones([1, 2, 3, 1], tf.complex128), tf.ones([1, 2, 1, 1], tf.complex128), "
        "strides=[1, 1, 1, 1], padding='same')")),
    ("depthwise_conv2d of float32, padding 'same'", _A, _eager(
        "tf.nn.depthwise_conv2d(tf.ones([1, 2, 2, 1]), tf.ones([1, 1, 1, 1]), strides=[1, 1, 1, 1], padding='same')")),
    # dct's %-formatted axis (1420282802 #147)
    ("dct of a bool matrix, axis (1, 0)", _A, _eager(
        "tf.signal.dct(tf.constant([[True, False], [False, True]]), n=5, axis=(1, 0), norm='backward')")),
    ("dct, axis [1]", _A, _eager("tf.signal.dct(tf.ones([4, 2]), axis=[1])")),
    # stft's enclosing power of two of frame_length 0 (1420282802 #250)
    ("stft, frame_length 0, np.int64 frame_step, pad_end", _A, _eager(
        "tf.signal.stft(tf.constant([[5.0]]), frame_length=0, frame_step=np.int64(2), pad_end=True)")),
    ("stft, frame_length 0", _A, _eager("tf.signal.stft(tf.constant([[5.0]]), frame_length=0, frame_step=2)")),
    ("stft, frame_length -1", _A, _eager("tf.signal.stft(tf.constant([[5.0]]), frame_length=-1, frame_step=2)")),
    # a candidate sampler reads a Variable as a tensor of its dtype (1420282802 #276)
    ("learned_unigram_candidate_sampler of a bool Variable, range_max 0", _A, _eager(
        "tf.random.learned_unigram_candidate_sampler(true_classes=tf.Variable(np.zeros([4, 3, 2], bool)), "
        "num_true=5, num_sampled=3, unique=False, range_max=0)")),
    ("learned_unigram_candidate_sampler of an int32 Variable", _A, _eager(
        "tf.random.learned_unigram_candidate_sampler(true_classes=tf.Variable(np.zeros([4, 5], np.int32)), "
        "num_true=5, num_sampled=3, unique=False, range_max=3)")),
    ("uniform_candidate_sampler of an int32 Variable, traced", _T, _traced(
        "tf.random.uniform_candidate_sampler(true_classes=tf.Variable(np.zeros([4, 5], np.int32)), num_true=5, "
        "num_sampled=3, unique=False, range_max=3)")),
    # Betainc in a graph: op_def_library's conversion of later inputs to T (1420282801 #285)
    ("betainc of a float list, an int list and 0, traced", _T, _traced(
        "tf.math.betainc(a=[-0.0, 4.0, 0.0, 0.25], b=[5, 1, 2, 0], x=0)")),
    ("betainc of a float32 tensor and a float64 tensor, traced", _T, _traced(
        "tf.math.betainc(a=tf.constant([0.5]), b=tf.constant([0.5], tf.float64), x=0.5)")),
    ("betainc of an int list first, traced", _T, _traced("tf.math.betainc(a=[5, 1], b=[0.5, 1.0], x=0.5)")),
    # the depthwise backprops' shape function before the kernel's strides check (1420282802 #179)
    ("depthwise_conv2d_backprop_filter, rank-3 filter_sizes, get_concrete_function", _T, _sig(
        "tf.nn.depthwise_conv2d_backprop_filter(x, filter_sizes=[[[-1], [-1], [-1]]], "
        "out_backprop=[[[2.0], [3.0], [2.0]]], strides=(), padding='SAME')", ([1, 3, 1], "float32"),
        "tf.ones([1, 3, 1])")),
    ("depthwise_conv2d_backprop_input, input_sizes of 3, traced", _T, _traced(
        "tf.nn.depthwise_conv2d_backprop_input(input_sizes=[1, 3, 1], filter=tf.ones([1, 1, 1, 1]), "
        "out_backprop=tf.ones([1, 3, 1, 1]), strides=(), padding='SAME')")),
    # rank-1 indices are a batch of one dimension for ValidateUpdateShape (fresh seed 1420282803 #77)
    ("tensor_scatter_nd_update of an int64 tensor, indices [0], float32 NumPy updates", _A, _eager(
        "tf.tensor_scatter_nd_update(tf.constant([[1, 2], [3, 4]], tf.int64), [0], np.array([7.0, 4.5], np.float32))")),
    ("tensor_scatter_nd_update of rank 4, indices [0], updates of rank 3", _A, _eager(
        "tf.tensor_scatter_nd_update(tf.zeros([2, 4, 3, 4], tf.int64), [0], tf.zeros([4, 3, 4], tf.int64))")),
    ("tensor_scatter_nd_max, indices [0], traced", _A, _traced(
        "tf.tensor_scatter_nd_max(tf.constant([[1, 2], [3, 4]]), [0], tf.constant([7, 4]))")),
    ("scatter_nd, indices [0], updates [2]", _A, _eager("tf.scatter_nd([0], tf.ones([2]), [2, 2])")),
    ("tensor_scatter_nd_update, indices [[0]], updates [1, 2]", _A, _eager(
        "tf.tensor_scatter_nd_update(tf.zeros([2, 2]), [[0]], tf.ones([1, 2]))")),
    # tracing past a run-time error in a call: a missing CPU kernel is looked up when the graph runs
    # (dispatch.deferred_kernel), a kernel's shape check leaves a stand-in (ArgMax, TensorScatter*)
    ("range of int8, then trace", _T, _program("y = tf.range(3, dtype=tf.int8)\nreturn tf.linalg.trace(y)")),
    ("range of int8 alone, traced", _T, _traced("tf.range(3, dtype=tf.int8)")),
    ("range of int8 eagerly", _T, _eager("tf.range(3, dtype=tf.int8)")),
    ("reciprocal of int32, then trace", _T, _program(
        "y = tf.math.reciprocal(tf.constant([1, 2]))\nreturn tf.linalg.trace(y)")),
    ("reciprocal of int32 alone, traced", _T, _traced("tf.math.reciprocal(tf.constant([1, 2]))")),
    ("normalize_moments of int64 counts, input_signature", _T, _sig(
        "tf.nn.normalize_moments(x, 1.0, x, 1)", (None, "int64"), "tf.constant(2, tf.int64)")),
    ("normalize_moments of int32 counts and a uint8 variance_ss", _T, _program(
        "m, v = tf.nn.normalize_moments(a1, a0, tf.constant(2, tf.uint8), 1)\n"
        "return tf.random.uniform_candidate_sampler(m, 1, 1, True, 1)",
        "tf.constant(1, tf.int32)", "tf.constant(2, tf.int32)")),
    ("argmax of a scalar, then trace", _T, _program("y = tf.argmax(-1)\nreturn tf.linalg.trace(y)")),
    ("argmax of a scalar alone, traced", _T, _traced("tf.argmax(-1)")),
    ("tensor_scatter_nd_min of a scalar update, then stateless_random_crop, input_signature", _T, _sig(
        "[tf.tensor_scatter_nd_min([[1.0, 2.0]], tf.constant([[0, 1]], tf.int64), np.float64(7.0)), "
        "tf.image.stateless_random_crop(tf.constant(1 + 2j, tf.complex64), size=[1, 2, 2], seed=[1, 2])][1]",
        (None, "float32"), "tf.constant(1.0)")),
    ("tensor_scatter_nd_update of a scalar update alone, traced", _T, _traced(
        "tf.tensor_scatter_nd_update([[1.0, 2.0]], [[0, 1]], 7.0)")),
    # a small matrix-vector MatMul in its kernel's order, unfused (fz27b's third generator seed 2702 #228)
    ("rgb_to_grayscale of a float32 batch of four pixels", _G, _eager(
        f"tf.image.rgb_to_grayscale({_RNG}.standard_normal((4, 1, 3)).astype(np.float32))")),
    ("rgb_to_grayscale of a float64 batch of four pixels", _G, _eager(
        f"tf.image.rgb_to_grayscale({_RNG}.standard_normal((4, 1, 3)))")),
    ("rgb_to_grayscale of a float32 image of 3 x 3 pixels, traced", _G, _traced(
        f"tf.image.rgb_to_grayscale({_RNG}.standard_normal((3, 3, 3)).astype(np.float32))")),
    ("matmul of float32 [9, 3] and [3, 1]", _G, _eager(
        f"tf.matmul({_RNG}.standard_normal((9, 3)).astype(np.float32), "
        f"{_RNG}.standard_normal((3, 1)).astype(np.float32))")),
    ("matmul of float32 [9, 2] and [2, 1]", _G, _eager(
        f"tf.matmul({_RNG}.standard_normal((9, 2)).astype(np.float32), "
        f"{_RNG}.standard_normal((2, 1)).astype(np.float32))")),
    ("tensordot of float32 [9, 3] and a 3-vector", _G, _eager(
        f"tf.tensordot({_RNG}.standard_normal((9, 3)).astype(np.float32), "
        f"{_RNG}.standard_normal(3).astype(np.float32), 1)")),
]

EDGES = edge_compare.EdgeModule(__file__, CASES)


@pytest.fixture(scope="module")
def tf_results() -> dict[int, Any]:
    return EDGES.tf_answers()


@clause("ops.argument-errors")
@EDGES.parametrize("ops.argument-errors")
def test_argument_errors(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


@clause("function.trace-time-errors")
@EDGES.parametrize("function.trace-time-errors")
def test_trace_time_errors(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


@clause("nn.conv-dilation")
@EDGES.parametrize("nn.conv-dilation")
def test_dilated_convolution_checks(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


@clause("mirrored.variables")
@EDGES.parametrize("mirrored.variables")
def test_distributed_variable_numbers(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


@clause("ops.host-cpu")
@EDGES.parametrize("ops.host-cpu")
def test_small_matrix_vector_products(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


def test_every_case_has_a_test() -> None:
    untested = EDGES.untested()
    assert not untested, f"cases of groups {untested} have no test function above"


if __name__ == "__main__":  # TF worker: python test_fz28b_edges_tf.py 0,1,2 -> pickled results on stdout
    tf_workers.serve(EDGES.tf_worker)
