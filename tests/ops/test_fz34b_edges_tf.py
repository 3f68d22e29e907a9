"""Rules behind the classes of issue 29's campaigns that fz34b ran (fz33b's two open classes of the
fourteenth generator seed 1420333003; fresh seeds 1420343001 of the fourteenth generator and 3401 of the
fourth), each against real TensorFlow 2.21: the same call on both backends gives the same dtype and
values (bit for bit), or raises the same exception class. Eagerly, in a tf.function (`traced`, a
one-expression body) and with an input_signature (`sig`). Needs the `tf` extra.
"""

from __future__ import annotations

from typing import Any, Callable

import numpy as np
import pytest

import edge_compare
from edge_programs import eager as _eager, traced as _traced
import tf_workers
from simdist.runtime import host_cpu

pytestmark = [pytest.mark.tf, tf_workers.tf_or_golden(__file__)]
clause = pytest.mark.clause

_T = "function.trace-time-errors"
_AT = "ops.attr-types"
_SU = "ops.strings-unicode"
_SR = "ops.strings-ragged"
_W = "ops.nn-wrapper-order"
_A = "ops.argument-errors"
_SN = "ops.subnormals"
_D = "nn.conv-dilation"
_C = "ops.conversion"


def _both(expr: str) -> list[tuple[str, Callable[[Any], Any]]]:
    """(suffix, program) eagerly and traced."""
    return [("", _eager(expr)), (" traced", _traced(expr))]


def _sig(expr: str, specs: list[tuple[list[int | None], str]], args: str) -> Callable[[Any], Any]:
    """`lambda x, y: expr` with an input_signature: get_concrete_function, then a call with `args`."""
    def run(tf: Any) -> Any:
        fn = eval(f"lambda x, y: {expr}", {"tf": tf, "np": np})  # noqa: S307 - our own text
        g = tf.function(fn, input_signature=[tf.TensorSpec(s, getattr(tf, d)) for s, d in specs], autograph=False)
        g.get_concrete_function()
        return g(*eval(args, {"tf": tf, "np": np}))  # noqa: S307 - our own text
    return run


def _ignoring(expr: str) -> Callable[[Any], Any]:
    """`expr` eagerly inside the caller's `np.errstate(all="ignore")` (the fuzzers' runners do so)."""
    def run(tf: Any) -> Any:
        x = tf.Variable(tf.constant([[-3.3999999521443642e+38, -3.0, 0.0]], tf.float32))
        with np.errstate(all="ignore"):
            with tf.GradientTape() as tape:
                y = eval(expr, {"tf": tf, "np": np, "x": x})  # noqa: S307 - our own text
            return y, tape.gradient(y, x)
    return run


_X5 = "tf.ones([1, 4, 4, 4, 2])"
_C5 = "tf.ones([1, 2, 4, 4, 4])"
_F5 = "tf.ones([2, 2, 2, 2, 3])"
_FT5 = "tf.ones([2, 2, 2, 3, 2])"
_X4 = "tf.ones([1, 4, 4, 2])"

# (group, name, expression) run eagerly and traced
_STRING_ATTRS = [
    # -- a string attr outside its OpDef's list: one rule (fz33b's open #38 of seed 1420333003)
    ("conv3d_transpose(padding='same')", f"tf.nn.conv3d_transpose({_X5}, {_FT5}, [1, 4, 4, 4, 3], [1, 1, 1, 1, 1], "
                                         "padding='same')"),
    ("conv3d_transpose(data_format='NHWC')", f"tf.nn.conv3d_transpose({_X5}, {_FT5}, [1, 4, 4, 4, 3], [1, 1, 1, 1, 1], "
                                             "padding='SAME', data_format='NHWC')"),
    ("conv3d_transpose(NCDHW, padding='same')", f"tf.nn.conv3d_transpose({_C5}, {_FT5}, [1, 3, 4, 4, 4], "
                                                "[1, 1, 1, 1, 1], padding='same', data_format='NCDHW')"),
    ("conv3d(padding='same')", f"tf.nn.conv3d({_X5}, {_F5}, [1, 1, 1, 1, 1], padding='same')"),
    ("conv3d(data_format='NHWC')", f"tf.nn.conv3d({_X5}, {_F5}, [1, 1, 1, 1, 1], padding='SAME', data_format='NHWC')"),
    ("conv3d(NCDHW, padding='same')", f"tf.nn.conv3d({_C5}, {_F5}, [1, 1, 1, 1, 1], padding='same', "
                                      "data_format='NCDHW')"),
    ("conv3d(int32, padding='same')", "tf.nn.conv3d(tf.ones([1, 4, 4, 4, 2], tf.int32), tf.ones([2, 2, 2, 2, 3], "
                                      "tf.int32), [1, 1, 1, 1, 1], 'same')"),
    ("conv3d(strides of 4, padding='same')", f"tf.nn.conv3d({_X5}, {_F5}, [1, 1, 1, 1], 'same')"),
    ("raw Conv3D(padding='same')", f"tf.raw_ops.Conv3D(input={_X5}, filter={_F5}, strides=[1, 1, 1, 1, 1], "
                                   "padding='same')"),
    ("extract_volume_patches(padding='same')", f"tf.extract_volume_patches({_X5}, [1, 2, 2, 2, 1], [1, 1, 1, 1, 1], "
                                               "'same')"),
    ("extract_volume_patches(bool, padding='same')", "tf.extract_volume_patches(tf.ones([1, 4, 4, 4, 2], tf.bool), "
                                                     "[1, 2, 2, 2, 1], [1, 1, 1, 1, 1], 'same')"),
    ("extract_patches(padding='same')", f"tf.image.extract_patches({_X4}, [1, 2, 2, 1], [1, 1, 1, 1], [1, 1, 1, 1], "
                                        "'same')"),
    ("max_pool_with_argmax(padding='same')", f"tf.nn.max_pool_with_argmax({_X4}, 2, 2, 'same')"),
    ("max_pool_with_argmax(ksize 0, padding='same')", f"tf.nn.max_pool_with_argmax({_X4}, 0, 2, 'same')"),
    ("max_pool_with_argmax(rank 3, padding='same')", "tf.nn.max_pool_with_argmax(tf.ones([4, 4, 2]), 2, 2, 'same')"),
    ("diag_part(align='left')", "tf.linalg.diag_part(tf.ones([3, 3]), align='left')"),
    ("diag_part(k=(1, 0), align='left')", "tf.linalg.diag_part(tf.ones([3, 3]), k=(1, 0), align='left')"),
    ("diag(k=(1, 0), align='left')", "tf.linalg.diag(tf.ones([3]), k=(1, 0), align='left')"),
    ("set_diag(align='left')", "tf.linalg.set_diag(tf.ones([3, 3]), tf.ones([3]), align='left')"),
    ("set_diag(k=(1, 0), align='left')", "tf.linalg.set_diag(tf.ones([3, 3]), tf.ones([3]), k=(1, 0), align='left')"),
    ("encode_jpeg(format='gray')", "tf.io.encode_jpeg(tf.ones([2, 2, 3], tf.uint8), format='gray')"),
    ("encode_jpeg(density_unit='mm')", "tf.io.encode_jpeg(tf.ones([2, 2, 3], tf.uint8), density_unit='mm')"),
    ("encode_jpeg(int32, format='gray')", "tf.io.encode_jpeg(tf.ones([2, 2, 3], tf.int32), format='gray')"),
    ("unicode_decode(errors='bad')", "tf.strings.unicode_decode(['a'], input_encoding='UTF-8', errors='bad')"),
    ("unicode_encode(output_encoding='UTF-9')", "tf.strings.unicode_encode([[65]], output_encoding='UTF-9')"),
    ("unicode_encode(errors='bad')", "tf.strings.unicode_encode([[65]], output_encoding='UTF-8', errors='bad')"),
    ("unicode_encode(float, output_encoding='UTF-9')", "tf.strings.unicode_encode([[65.5]], output_encoding='UTF-9')"),
    ("unicode_transcode(output_encoding='UTF-9')", "tf.strings.unicode_transcode(['a'], 'UTF-8', 'UTF-9')"),
    ("unicode_transcode(errors='bad')", "tf.strings.unicode_transcode(['a'], 'UTF-8', 'UTF-8', errors='bad')"),
    ("unicode_split(errors='bad')", "tf.strings.unicode_split(['a'], 'UTF-8', errors='bad')"),
    ("conv2d(padding='same', data_format='NWC')", f"tf.nn.conv2d({_X4}, tf.ones([2, 2, 2, 3]), 1, 'same', "
                                                  "data_format='NWC')"),
    ("conv2d(strides=[], padding='same', data_format='NWC')", "tf.nn.conv2d(np.array(5, dtype=np.uint16), "
     "filters=np.float16(-0.0), strides=tf.constant([], tf.int32), padding='same', data_format='NWC')"),
    ("conv2d_transpose(padding='same', data_format='NDHWC')", f"tf.nn.conv2d_transpose({_X4}, tf.ones([2, 2, 3, 2]), "
                                                              "[1, 4, 4, 3], 1, 'same', data_format='NDHWC')"),
    ("conv2d(data_format='NDHWC')", f"tf.nn.conv2d({_X4}, tf.ones([2, 2, 2, 3]), 1, 'SAME', data_format='NDHWC')"),
    ("conv2d_transpose(data_format='nhwc')", f"tf.nn.conv2d_transpose({_X4}, tf.ones([2, 2, 3, 2]), [1, 4, 4, 3], 1, "
                                             "'SAME', data_format='nhwc')"),
    ("depthwise_conv2d(data_format='NDHWC')", f"tf.nn.depthwise_conv2d({_X4}, tf.ones([2, 2, 2, 1]), [1, 1, 1, 1], "
                                              "'SAME', data_format='NDHWC')"),
    ("depthwise_conv2d_backprop_input(data_format='NDHWC')", "tf.nn.depthwise_conv2d_backprop_input([1, 4, 4, 2], "
     "tf.ones([2, 2, 2, 1]), tf.ones([1, 4, 4, 2]), [1, 1, 1, 1], 'SAME', data_format='NDHWC')"),
]

_INPUTS_FIRST = [
    # -- the input converts before the op reads its attrs (fz33b's open #28 of seed 1420333003)
    (_SU, "unicode_split_with_offsets([1e300], input_encoding=-0.0)",
     "tf.strings.unicode_split_with_offsets([1e+300], input_encoding=-0.0)"),
    (_SU, "unicode_split([1e300], input_encoding=-0.0)", "tf.strings.unicode_split([1e300], input_encoding=-0.0)"),
    (_SU, "unicode_decode([1e300], input_encoding=-0.0)", "tf.strings.unicode_decode([1e300], input_encoding=-0.0)"),
    (_SU, "unicode_decode([1e300], errors='bad')",
     "tf.strings.unicode_decode_with_offsets([1e300], input_encoding='UTF-8', errors='bad')"),
    (_SU, "unicode_decode([1e300], input_encoding='UTF-9')",
     "tf.strings.unicode_decode([1e300], input_encoding='UTF-9')"),
    (_SU, "unicode_decode(int32, input_encoding=-0.0)",
     "tf.strings.unicode_decode(tf.constant([1]), input_encoding=-0.0)"),
    (_SU, "unicode_decode(int32)", "tf.strings.unicode_decode(tf.constant([1]), input_encoding='UTF-8')"),
    (_SU, "unicode_transcode([1.5], output_encoding='UTF-9')", "tf.strings.unicode_transcode([1.5], 'UTF-8', 'UTF-9')"),
    (_SU, "unicode_transcode(int32, output_encoding=-0.0)",
     "tf.strings.unicode_transcode(tf.constant([1]), 'UTF-8', -0.0)"),
    (_SR, "split(int32, sep=3)", "tf.strings.split(tf.constant([1]), sep=3)"),
    (_SR, "split([1e300], sep=3)", "tf.strings.split([1e300], sep=3)"),
    (_SR, "split(['a b'], sep=3)", "tf.strings.split(['a b'], sep=3)"),
    (_AT, "ngrams(separator=3)", "tf.strings.ngrams(['a', 'b'], 2, separator=3)"),
    (_AT, "ngrams(int32, separator=3)", "tf.strings.ngrams(tf.constant([1]), 2, separator=3)"),
    # -- nn_ops.conv1d_transpose: [1] + strides and dilations (fourteenth generator seed 1420343001 #219)
    (_W, "conv1d_transpose(hann_window, strides [1, 2, 2])",
     "tf.nn.conv1d_transpose(input=tf.signal.hann_window(np.int64(2), periodic=np.bool_(True)), "
     "filters=float('inf'), output_shape=tf.TensorShape([2, 3]), strides=np.array([1, 2, 2], dtype=np.int64))"),
    (_W, "conv1d_transpose(rank 3, strides [1, 2, 2])", "tf.nn.conv1d_transpose(input=tf.ones([1, 2, 1]), "
     "filters=tf.ones([1, 1, 1]), output_shape=[1, 2, 1], strides=[1, 2, 2])"),
    (_W, "conv1d_transpose(strides [1, 2, 1])", "tf.nn.conv1d_transpose(input=tf.ones([1, 4, 1]), "
     "filters=tf.ones([1, 1, 1]), output_shape=[1, 8, 1], strides=[1, 2, 1])"),
    (_W, "conv1d_transpose(NCW, strides [2, 1, 2])", "tf.nn.conv1d_transpose(input=tf.ones([1, 1, 4]), "
     "filters=tf.ones([1, 1, 1]), output_shape=[1, 1, 8], strides=[2, 1, 2], data_format='NCW')"),
    (_W, "conv1d_transpose(NCW, strides [1, 1, 2])", "tf.nn.conv1d_transpose(input=tf.ones([1, 1, 4]), "
     "filters=tf.ones([1, 1, 1]), output_shape=[1, 1, 8], strides=[1, 1, 2], data_format='NCW')"),
    (_W, "conv1d_transpose(float64, dilations [2, 1, 1])", "tf.nn.conv1d_transpose(input=tf.ones([1, 4, 1], "
     "tf.float64), filters=tf.ones([2, 1, 1], tf.float64), output_shape=[1, 4, 1], strides=1, dilations=[2, 1, 1])"),
    # -- array_ops.stack's Python `axis == 0` and range check before Pack converts (fourth generator seed 3402 #72)
    (_A, "stack([[1, 2], [3, 4]], axis=[1])", "tf.stack([[1, 2], [3, 4]], axis=[1])"),
    (_A, "stack([tensor, list], axis=[1])", "tf.stack([tf.constant([1, 2]), [3, 4]], axis=[1])"),
    (_A, "stack([list, int64 variable], axis=[3])", "tf.stack([[[[-1], [2], [0]], [[5], [2], [0]], [[2], [3], [5]]], "
     "tf.Variable(np.ones((3, 3, 1), np.int64))], axis=[3])"),
    (_A, "stack([list, int64 variable], axis=3)", "tf.stack([[[[-1], [2], [0]], [[5], [2], [0]], [[2], [3], [5]]], "
     "tf.Variable(np.ones((3, 3, 1), np.int64))], axis=3)"),
    (_A, "stack([[1, 2], [3, 4]], axis=np.array([1]))", "tf.stack([[1, 2], [3, 4]], axis=np.array([1]))"),
    # -- a tensor or a variable given for a list input is iterated (seed 1420343001 #184)
    (_A, "dynamic_stitch([-1], float64 variable)",
     "tf.dynamic_stitch([-1], tf.Variable([2.5, 2.5, 7.0], dtype=tf.float64))"),
    (_A, "dynamic_stitch(int32 variable, [1.0, 2.0])",
     "tf.dynamic_stitch(tf.Variable([0, 1]), [tf.constant(1.0), tf.constant(2.0)])"),
    (_A, "dynamic_stitch([[0, 1]], variable [[1, 2]])", "tf.dynamic_stitch([[0, 1]], tf.Variable([[1.0, 2.0]]))"),
]

CASES: list[tuple[str, str, Any]] = [
    *[(f"{name}{suffix}", _T if suffix else _AT, run) for name, expr in _STRING_ATTRS for suffix, run in _both(expr)],
    *[(f"{name}{suffix}", group, run) for group, name, expr in _INPUTS_FIRST for suffix, run in _both(expr)],
    # -- a graph checks RealDiv's inputs' T before the missing integer kernel (fourth generator seed 3401 #85)
    ("realdiv(int32 spec, float32 spec)", _T, _sig("tf.realdiv(x, y)", [([None, 1], "int32"), ([2, 1], "float32")],
                                                   "(tf.constant([[7], [0]]), tf.constant([[4.0], [-1.0]]))")),
    *[(f"realdiv({a}, {b}){s}", _T, run) for a, b in (("int32", "int64"), ("uint8", "float64"),
                                                                    ("int32", "int32"))
      for s, run in _both(f"tf.realdiv(tf.constant([[7], [0]], tf.{a}), tf.constant([[4], [1]], tf.{b}))")],
    # -- a dry run goes on past a missing kernel without running one (third generator --ext8 seed 3402 #91)
    ("spence(bfloat16 spec, 'op')", _T, _sig("tf.math.special.spence(x, 'op')", [([None], "bfloat16"), ([2], "int32")],
                                             "(tf.constant([-0.0], tf.bfloat16), tf.constant([1, 2]))")),
    ("spence(bfloat16 spec) + int32 spec", _T, _sig("tf.math.special.spence(x) + y",
                                                    [([None], "bfloat16"), ([2], "int32")],
                                                    "(tf.constant([1.0], tf.bfloat16), tf.constant([1, 2]))")),
    # -- fresh seed 1420343002: MatrixDiagV2Shape at trace (#17), MatMul's T before its sizes (#178), a NumPy
    # float64 stddev casts to uint64 before the dtype attr's error (#252)
    ("diag(spec [None], num_rows=1, num_cols=np.int64(2))", _T, _sig(
        "tf.linalg.diag(x, num_rows=1, num_cols=np.int64(2))", [([None], "int64"), ([1], "int32")],
        "(tf.constant([5], tf.int64), tf.constant([1]))")),
    ("diag(spec [None], num_rows=2)", _T, _sig("tf.linalg.diag(x, num_rows=2)", [([None], "int64"), ([1], "int32")],
                                               "(tf.constant([5, 6], tf.int64), tf.constant([1]))")),
    ("diag(spec [2], num_rows=2, num_cols=3)", _T, _sig("tf.linalg.diag(x, num_rows=2, num_cols=3)",
                                                        [([2], "int64"), ([1], "int32")],
                                                        "(tf.constant([5, 6], tf.int64), tf.constant([1]))")),
    *[(f"{name}{s}", _T, run) for name, expr in (
        ("tensordot(uint16 [3, 0], int32 [3, 0], (-2, 1))",
         "tf.linalg.tensordot(tf.constant([[], [], []], dtype=tf.uint16), tf.zeros([3, 0], tf.int32), (-2, 1))"),
        ("tensordot(float32 [3, 2], int32 [3, 4], (-2, 1))",
         "tf.linalg.tensordot(tf.zeros([3, 2]), tf.zeros([3, 4], tf.int32), (-2, 1))"),
        ("tensordot(uint16 [3, 2], uint16 [3, 4], (0, 1))",
         "tf.linalg.tensordot(tf.zeros([3, 2], tf.uint16), tf.zeros([3, 4], tf.uint16), (0, 1))"),
        ("stateless_normal(mean=[[5]], stddev=np.float64(0.1), dtype='uint64')",
         "tf.random.stateless_normal([2], [7, 8], mean=[[5]], stddev=np.float64(0.1), dtype='uint64')"),
        ("stateless_normal(dtype='uint64')", "tf.random.stateless_normal([2], [7, 8], dtype='uint64')"),
    ) for s, run in _both(expr)],
    # -- conversions (seed 1420343002 #74, #43): a graph's NumPy promotion of NumPy scalars; eagerly a float32 list
    # holding a value beyond float32 is cast from doubles under flush-to-zero
    *[(f"{name}{s}", _C, run) for name, expr in (
        ("stack((np.array(1, int64), 3, np.array(1, uint64)))",
         "tf.stack((np.array(1, dtype=np.int64), 3, np.array(1, dtype=np.uint64)), name='op')"),
        ("constant([np.int64(1), np.uint64(1)])", "tf.constant([np.int64(1), np.uint64(1)])"),
        ("convert_to_tensor([np.int8(1), np.uint8(1)])", "tf.convert_to_tensor([np.int8(1), np.uint8(1)])"),
        ("convert_to_tensor([np.int32(1), np.uint32(1)])", "tf.convert_to_tensor([np.int32(1), np.uint32(1)])"),
        ("convert_to_tensor([np.int64(1), np.float32(1.5)])", "tf.convert_to_tensor([np.int64(1), np.float32(1.5)])"),
        ("convert_to_tensor([np.float16(1), 2.5])", "tf.convert_to_tensor([np.float16(1), 2.5])"),
        ("constant([1e300, 1e-40], float32)", "tf.constant([1e300, 1e-40], dtype='float32')"),
        ("constant([1e-40, 1.0], float32)", "tf.constant([1e-40, 1.0], dtype='float32')"),
        ("constant([[1e-40], [3.5e38]], float32)", "tf.constant([[1e-40], [3.5e38]], dtype='float32')"),
        ("stack of a list, a tensor and [[1e300, 1e-40], ...] float32", "tf.stack([[[-1.0, 0.5], [-0.0, -1.0]], "
         "tf.constant([[0.5, 0.0], [-3.0, 0.5]], dtype='float32'), tf.constant([[1e+300, 1e-40], [-0.0, "
         "float('inf')]], dtype='float32')], axis=-1)"),
    ) for s, run in _both(expr)],
    # -- a caller's np.errstate(all="ignore") does not hide underflows (seed 1420343001 #196)
    ("float32 [-1, 0.5, 7] / variable [-3.4e38, -3, 0] under np.errstate(all='ignore')", _SN, _ignoring(
        "np.array([[-1.0, 0.5, 7.0]], dtype=np.float32) / x")),
    ("variable * 1e-10 under np.errstate(all='ignore')", _SN, _ignoring("x * np.float32(1e-10)")),
    ("1e-30 * 1e-10 under np.errstate(all='ignore')", _SN, _ignoring(
        "tf.constant([1e-30], tf.float32) * tf.constant([1e-10], tf.float32) + 0 * x")),
]

# -- the conv backprops' dilation on the host's kernels (this module's host-aware group)
_DILATED = [
    ("conv2d_transpose(float32, dilations=2)", "tf.nn.conv2d_transpose(tf.ones([1, 4, 4, 1]), tf.ones([2, 2, 1, 1]), "
                                               "[1, 4, 4, 1], 1, 'SAME', dilations=2)"),
    ("conv2d_transpose(float16, dilations=2)", "tf.nn.conv2d_transpose(tf.ones([1, 4, 4, 1], tf.float16), "
                                               "tf.ones([2, 2, 1, 1], tf.float16), [1, 4, 4, 1], 1, 'SAME', dilations=2)"),
    ("conv2d_transpose(bfloat16, dilations=2)", "tf.nn.conv2d_transpose(tf.ones([1, 4, 4, 1], tf.bfloat16), "
                                                "tf.ones([2, 2, 1, 1], tf.bfloat16), [1, 4, 4, 1], 1, 'SAME', "
                                                "dilations=2)"),
    ("conv2d_transpose(float64, dilations=2)", "tf.nn.conv2d_transpose(tf.ones([1, 4, 4, 1], tf.float64), "
                                               "tf.ones([2, 2, 1, 1], tf.float64), [1, 4, 4, 1], 1, 'SAME', dilations=2)"),
    ("raw Conv2DBackpropFilter(dilations [1, 2, 2, 1])", "tf.raw_ops.Conv2DBackpropFilter(input=tf.ones([1, 4, 4, 1]), "
     "filter_sizes=[2, 2, 1, 1], out_backprop=tf.ones([1, 4, 4, 1]), strides=[1, 1, 1, 1], padding='SAME', "
     "dilations=[1, 2, 2, 1])"),
    ("conv1d_transpose(dilations [1, 2, 1])", "tf.nn.conv1d_transpose(input=tf.ones([1, 4, 1]), "
     "filters=tf.ones([2, 1, 1]), output_shape=[1, 4, 1], strides=1, dilations=[1, 2, 1])"),
]
CASES += [(f"{name}{suffix}", _D, run) for name, expr in _DILATED for suffix, run in _both(expr)]

EDGES = edge_compare.EdgeModule(__file__, CASES, agree=lambda case: edge_compare.parts_agree)


@pytest.fixture(scope="module")
def tf_results() -> dict[int, Any]:
    return EDGES.tf_answers()


@clause("function.trace-time-errors")
@EDGES.parametrize("function.trace-time-errors")
def test_trace_time_errors(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


@clause("ops.attr-types")
@EDGES.parametrize("ops.attr-types")
def test_string_attrs_and_their_order(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


@clause("ops.strings-unicode")
@EDGES.parametrize("ops.strings-unicode")
def test_unicode_inputs_before_attrs(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


@clause("ops.strings-ragged")
@EDGES.parametrize("ops.strings-ragged")
def test_split_input_before_sep(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


@clause("ops.nn-wrapper-order")
@clause("ops.host-cpu")
@EDGES.parametrize("ops.nn-wrapper-order")
def test_conv1d_transpose_sequences(k: int, tf_results: dict[int, Any]) -> None:
    tf_workers.skip_unless_golden_fits_this_cpu()
    with host_cpu.using("host"):   # (NCW runs NCHW Conv2DBackpropInput: oneDNN's, or TF's own refusal)
        EDGES.check(k, tf_results)


@clause("ops.argument-errors")
@EDGES.parametrize("ops.argument-errors")
def test_list_inputs_of_a_variable(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


@clause("ops.conversion")
@EDGES.parametrize("ops.conversion")
def test_conversions(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


@clause("ops.subnormals")
@EDGES.parametrize("ops.subnormals")
def test_underflows_under_a_callers_errstate(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


@clause("nn.conv-dilation")
@clause("ops.host-cpu")
@EDGES.parametrize("nn.conv-dilation")
def test_dilated_backprops_on_this_machine(k: int, tf_results: dict[int, Any]) -> None:
    tf_workers.skip_unless_golden_fits_this_cpu()
    with host_cpu.using("host"):   # (oneDNN's kernels dilate, TF's own refuse: whichever this CPU runs)
        EDGES.check(k, tf_results)


def test_every_case_has_a_test() -> None:
    untested = EDGES.untested()
    assert not untested, f"cases of groups {untested} have no test function above"


if __name__ == "__main__":  # TF worker: python test_fz34b_edges_tf.py 0,1,2 -> pickled results on stdout
    tf_workers.serve(EDGES.tf_worker)
