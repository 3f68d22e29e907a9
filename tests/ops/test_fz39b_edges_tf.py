"""Rules behind the classes of issue 29's campaigns that fz39b ran (fresh seeds 1420393001..3 of the
fourteenth generator, 3901 of the fourth, 3905 of the second, 3903 of the third) and an open item
fz38b left (Conv2DBackpropInput's input_sizes of 2 values), each against real TensorFlow 2.21: the
same call on both backends gives the same dtype and values (bit for bit) or raises the same
exception class; the `text` cases compare the error's class and message (TF's NodeDef tail, its
function-node prefix and node names left out). Eagerly, in a tf.function (`traced`) and through an
input_signature (`sig`). Needs the `tf` extra.

The Conv2DBackpropInput cases use float32, bfloat16 and float16, which oneDNN runs on the reference
host and this session's Intel host (AVX512-FP16; ops.host-cpu), and float64, which TF's own kernel
runs on every x86 host. (input_sizes of 1 or 3 values with a oneDNN dtype aborts TF's process: not
a case.)
"""

from __future__ import annotations

import re
from typing import Any, Callable

import numpy as np
import pytest

import edge_compare
import edge_text
from edge_programs import eager as _eager, sig as _sig, traced as _traced
import tf_workers

pytestmark = [pytest.mark.tf, tf_workers.tf_or_golden(__file__)]
clause = pytest.mark.clause

_A = "ops.attr-types"
_AE = "ops.argument-errors"
_CG = "ops.conv-generic"
_T = "function.trace-time-errors"


def _head(e: BaseException) -> str:
    """An error as 'Class: message': TF's function-node prefix, NodeDef tail, `[Op:...]` tail and the node a
    graph error names left out; a tf.function's 'in user code:' frame reduced to its error line."""
    msg = re.sub(r"\{\{function_node [^}]*\}\}\s*", "", str(e))
    if "in user code:" in msg:
        lines = [ln.strip() for ln in msg.splitlines() if re.match(r"^\s*\w+(Error|Exception): ", ln)]
        msg = lines[-1].split(": ", 1)[1] if lines else msg
    for tail in ("\n\t; NodeDef", "\n\t [[", " [Op:", " for '{{node"):
        msg = msg.split(tail)[0]
    return f"{type(e).__name__}: {msg.strip()}"


def _text(program: Callable[[Any], Any]) -> Callable[[Any], Any]:
    """The program's error as `_head` gives it, or 'ok <dtype> <shape>'."""
    def run(tf: Any) -> Any:
        try:
            out = program(tf)
        except Exception as e:  # noqa: BLE001 - the error's class and message are the result
            return _head(e)
        return f"ok {getattr(out, 'dtype', type(out).__name__)} {getattr(out, 'shape', '')}"
    return run


def _both_text(group: str, name: str, expr: str) -> list[tuple[str, str, Callable[[Any], Any]]]:
    return [(name, group, _text(_eager(expr))), (f"{name} traced", group, _text(_traced(expr)))]


def _variables_traced(expr: str, a: str, b: str) -> Callable[[Any], Any]:
    """`lambda a, b: expr` in a tf.function (AutoGraph off), called with variables made from `a` and `b`."""
    def run(tf: Any) -> Any:
        fn = eval(f"lambda a, b: {expr}", {"tf": tf, "np": np})  # noqa: S307 - our own text
        return tf.function(fn, autograph=False)(tf.Variable(eval(a, {"np": np})), tf.Variable(eval(b, {"np": np})))
    return run


def _static_shape(expr: str, spec: list[int | None]) -> Callable[[Any], Any]:
    """str of the static shape `lambda x: expr` has while traced through a float32 input_signature."""
    def run(tf: Any) -> Any:
        seen: list[str] = []
        fn = eval(f"lambda x: {expr}", {"tf": tf, "np": np})  # noqa: S307 - our own text

        def body(x: Any) -> Any:
            y = fn(x)
            seen.append(str(y.shape))
            return y
        tf.function(body, input_signature=[tf.TensorSpec(spec, tf.float32)], autograph=False).get_concrete_function()
        return seen[0]
    return run


# -- seed 1420393002 #112: a float attr's fast path takes a Python float only; the NodeDef's T before fixed inputs
_BF = "tf.constant([1.0, 2.5], tf.bfloat16)"
_CAR = (
    ("crop_and_resize of seed 1420393002 #112 (complex128 image, extrapolation_value=0)", "tf.image.crop_and_resize("
     f"tf.zeros([2], tf.complex128), boxes=0.5, box_indices={_BF}, crop_size=np.array([], np.int64), "
     "method='bilinear', extrapolation_value=0)"),
    ("crop_and_resize(complex128 image, bfloat16 box_indices, extrapolation_value=0.0)", "tf.image.crop_and_resize("
     f"tf.zeros([2], tf.complex128), boxes=0.5, box_indices={_BF}, crop_size=np.array([2, 2]), "
     "extrapolation_value=0.0)"),
    ("crop_and_resize(float32 image, bfloat16 box_indices, extrapolation_value=0)", "tf.image.crop_and_resize("
     f"tf.zeros([1, 2, 2, 1]), boxes=0.5, box_indices={_BF}, crop_size=np.array([2, 2]), extrapolation_value=0)"),
    ("crop_and_resize(float32 image, bfloat16 box_indices, extrapolation_value=True)", "tf.image.crop_and_resize("
     f"tf.zeros([1, 2, 2, 1]), boxes=0.5, box_indices={_BF}, crop_size=np.array([2, 2]), extrapolation_value=True)"),
    ("crop_and_resize(float32 image, bfloat16 box_indices, extrapolation_value=0.0)", "tf.image.crop_and_resize("
     f"tf.zeros([1, 2, 2, 1]), boxes=0.5, box_indices={_BF}, crop_size=np.array([2, 2]), extrapolation_value=0.0)"),
    ("crop_and_resize(string image, bfloat16 box_indices)", "tf.image.crop_and_resize(tf.constant(['a', 'b']), "
     f"boxes=0.5, box_indices={_BF}, crop_size=np.array([2, 2]))"),
    ("sample_distorted_bounding_box(float32 image_size, int16 boxes)", "tf.image.sample_distorted_bounding_box("
     "tf.constant([2.0, 2.0, 3.0]), tf.zeros([1, 1, 4], tf.int16), seed=1)"),
    ("raw FakeQuantWithMinMaxArgs(bfloat16, min=0)", f"tf.raw_ops.FakeQuantWithMinMaxArgs(inputs={_BF}, min=0, "
     "max=6.0)"),
    ("raw FakeQuantWithMinMaxArgs(bfloat16, min=0.0)", f"tf.raw_ops.FakeQuantWithMinMaxArgs(inputs={_BF}, min=0.0, "
     "max=6.0)"),
)
_NMS = "tf.image.combined_non_max_suppression(boxes={}, scores={}, max_output_size_per_class=a, max_total_size=b, " \
       "score_threshold=0)"
CASES: list[tuple[str, str, Callable[[Any], Any]]] = [
    *[(name, _A, _text(_eager(expr))) for name, expr in _CAR],
    ("crop_and_resize(float32 image, extrapolation_value=3) values", _A, _eager(
        "tf.image.crop_and_resize(tf.ones([1, 2, 2, 1]), boxes=[[0.0, 0.0, 2.0, 2.0]], box_indices=[0], "
        "crop_size=[2, 2], extrapolation_value=3)")),
    # -- seed 1420393001 #109: a graph types a variable as the tensor it reads
    ("combined_non_max_suppression of seed 1420393001 #109 (float32 variables) traced", _A, _text(_variables_traced(
        _NMS.format("3", "np.array(7.0, np.float32)"), "np.float32(0.25)", "np.float32(-1e-45)"))),
    ("combined_non_max_suppression(float32 max_total_size variable) traced", _A, _text(_variables_traced(
        _NMS.format("np.zeros([1, 2, 1, 4], np.float32)", "np.zeros([1, 2, 1], np.float32)"), "np.int32(2)",
        "np.float32(2.5)"))),
    ("combined_non_max_suppression(float64 boxes variable) traced", _A, _text(_variables_traced(
        "tf.image.combined_non_max_suppression(boxes=a, scores=np.zeros([1, 2, 1], np.float32), "
        "max_output_size_per_class=b, max_total_size=2, score_threshold=0)", "np.zeros([1, 2, 1, 4])",
        "np.int32(2)"))),
    ("combined_non_max_suppression(int32 variables) traced values", _A, _variables_traced(
        _NMS.format("np.zeros([1, 2, 1, 4], np.float32)", "np.zeros([1, 2, 1], np.float32)"), "np.int32(2)",
        "np.int32(2)")),
]

# -- seeds 1420393001 #21, #51, #295 and 1420393003 #10, #124, #269: what a graph build meets first
_BDS = "tf.broadcast_dynamic_shape([1, 2, 2], np.array([3, 3, 2], np.int64))"
_XL = "[[7.0, -0.0, -3.0], [3e+38, 4.0, -float('inf')]]"
_STFT = "tf.signal.stft(np.array([[0.0, -1.0, -3.0]], np.float16), tf.constant(2), tf.constant(2), " \
        "fft_length=tf.TensorShape([0]))"
_ATR = "tf.nn.atrous_conv2d_transpose(tf.constant([[[[-1, 1, 5]]]], tf.int8), np.array([[[[-3.4e+38, " \
       "float('inf'), 0.5]]]]), {}, {}, 'VALID')"
_V = "tf.constant(np.arange(12, dtype=np.float32).reshape(1, 2, 2, 3) / 7)"
_W = "tf.constant(np.arange(27, dtype=np.float32).reshape(3, 3, 3, 1)[:, :, :, [0, 0, 0]] / 5 - 2)"
CASES += [
    (f"squared_difference({_BDS}, '2') of seed 1420393001 #21 traced", _T, _text(_traced(
        f"tf.math.squared_difference({_BDS}, '2')"))),
    *_both_text(_T, "squared_difference(int64 tensor, '2')", "tf.math.squared_difference(tf.constant([1, 2], "
                "tf.int64), '2')"),
    *_both_text(_T, "subtract(int32 tensor, 'a')", "tf.math.subtract(tf.constant([1, 2]), 'a')"),
    (f"{_BDS} unused traced", _T, _traced(f"({_BDS}, tf.constant(1))[1]")),
    *_both_text(_T, f"{_BDS} + 1", f"{_BDS} + 1"),
    ("stft of float16 signals, fft_length=TensorShape([0]), of seed 1420393001 #51", _T, _text(_eager(_STFT))),
    (f"{_STFT} traced", _T, _traced(_STFT)),   # (TF's text names the graph tensor "stft/mul:0")
    ("stft of float16 signals, fft_length=3", _T, _text(_eager("tf.signal.stft(np.array([[0.0, -1.0, -3.0]], "
                                                               "np.float16), 2, 2, fft_length=3)"))),
    *_both_text(_T, "stft of float32 signals, fft_length=TensorShape([0])", "tf.signal.stft(np.array([[0.0, -1.0, "
                "-3.0]], np.float32), 2, 2, fft_length=tf.TensorShape([0]))"),
    (f"softmax_cross_entropy_with_logits(False, {_XL}, axis=tf.constant(0)) of seed 1420393001 #295 traced", _T,
     _traced(f"tf.nn.softmax_cross_entropy_with_logits(False, {_XL}, axis=tf.constant(0))")),
    ("softmax_cross_entropy_with_logits(axis=tf.constant(-1)) traced", _T, _traced(
        f"tf.nn.softmax_cross_entropy_with_logits([[0.0, 1.0, 0.0], [1.0, 0.0, 0.0]], {_XL}, axis=tf.constant(-1))")),
    (f"softmax_cross_entropy_with_logits(False, {_XL}, axis=tf.constant(0))", _T, _text(_eager(
        f"tf.nn.softmax_cross_entropy_with_logits(False, {_XL}, axis=tf.constant(0))"))),
    ("softmax_cross_entropy_with_logits(axis=tf.constant(0)) values", _T, _eager(
        f"tf.nn.softmax_cross_entropy_with_logits([[0.0, 1.0, 0.0], [1.0, 0.0, 0.0]], {_XL}, axis=tf.constant(0))")),
    ("softmax_cross_entropy_with_logits(axis=tf.constant([0, 1]))", _T, _text(_eager(
        f"tf.nn.softmax_cross_entropy_with_logits([[0.0, 1.0, 0.0], [1.0, 0.0, 0.0]], {_XL}, "
        "axis=tf.constant([0, 1]))"))),
    ("expm of a [None, None] spec, a [1, 4] input, of seed 1420393003 #10", _T, _sig(
        "tf.linalg.expm(x)", ([None, None], "float32"), "tf.constant([[float('inf'), -3.0, -3.0, 0.0]])")),
    ("expm of a [None, None] spec, a [2, 2] input", _T, _sig(
        "tf.linalg.expm(x)", ([None, None], "float32"), "tf.constant([[0.5, -1.0], [0.25, 0.0]])")),
    *_both_text(_T, "atrous_conv2d_transpose(int8, float64, tensor output_shape, np.float32(2)) of seed 1420393003 "
                "#269", _ATR.format("tf.constant([1, 1, 1, 3])", "np.float32(2)")),
    *_both_text(_T, "atrous_conv2d_transpose(int8, float64, tensor output_shape, 2)",
                _ATR.format("tf.constant([1, 1, 1, 3])", "2")),
    *_both_text(_T, "atrous_conv2d_transpose(int8, float64, list output_shape, 2)", _ATR.format("[1, 1, 1, 3]", "2")),
    *_both_text(_T, "atrous_conv2d_transpose(float32, list output_shape, np.float32(2))",
                f"tf.nn.atrous_conv2d_transpose({_V}, {_W}, [1, 3, 3, 3], np.float32(2), 'SAME')"),
    ("atrous_conv2d_transpose(float32, tensor output_shape, np.float32(2)) values", _T, _eager(
        f"tf.nn.atrous_conv2d_transpose({_V}, {_W}, tf.constant([1, 3, 3, 3]), np.float32(2), 'SAME')")),
    ("atrous_conv2d_transpose(float32, tensor output_shape, np.float32(2)) traced values", _T, _traced(
        f"tf.nn.atrous_conv2d_transpose({_V}, {_W}, tf.constant([1, 3, 3, 3]), np.float32(2), 'SAME')")),
    *_both_text(_AE, "split(axis=1.5) of seed 1420393003 #124", "tf.split(value=[-4, 1, 5, 2], "
                "num_or_size_splits=2, axis=1.5, name='op')"),
    *_both_text(_AE, "split(sizes [2, 2], axis=1.5)", "tf.split(tf.constant([-4, 1, 5, 2]), [2, 2], axis=1.5)"),
    *_both_text(_AE, "split(axis=0.0)", "tf.split(tf.constant([-4, 1, 5, 2]), 2, axis=0.0)"),
    *_both_text(_AE, "split(axis=np.float32(1.5))", "tf.split(tf.constant([-4, 1, 5, 2]), 2, axis=np.float32(1.5))"),
]

# -- seed 1420393004 #136, #178, #284: a graph's shape functions and input types before its kernels and attrs
_U64 = "tf.constant(np.array([5, 0, 2], np.uint64))"
CASES += [
    ("banded_triangular_solve(float16 [4], False) of seed 1420393004 #136 sig", _T, _sig(
        "tf.linalg.banded_triangular_solve(tf.constant([3e+38, 1.0, -0.0, 2.5], tf.float16), False)", ([4], "int32"),
        "tf.constant([5, -4, 1, 7])")),
    *[(f"banded_triangular_solve(float16 [1, 2], float16 [2, 1]){how}", _T, run(
        "tf.linalg.banded_triangular_solve(tf.constant([[3.0, 1.0]], tf.float16), tf.constant([[1.0], [2.0]], "
        "tf.float16))")) for how, run in (("", _eager), (" traced", _traced))],   # (TF's text lists the kernels)
    ("banded_triangular_solve(float32 [1, 2], float32 [2, 1]) traced values", _T, _traced(
        "tf.linalg.banded_triangular_solve(tf.constant([[3.0, 1.0]]), tf.constant([[1.0], [2.0]]))")),
    *_both_text(_T, "conv2d(uint64 input, data_format='NWC') of seed 1420393004 #178", "tf.nn.conv2d(input="
                f"{_U64}, filters=np.array([-1.5, 1.0, 0.0], np.float32), strides=np.array([3], np.int64), "
                "padding='SAME', data_format='NWC')"),
    *_both_text(_T, "conv2d(float32 [1, 3, 3, 1], data_format='NWC')", "tf.nn.conv2d(tf.ones([1, 3, 3, 1]), "
                "tf.ones([1, 1, 1, 1]), 1, 'SAME', data_format='NWC')"),
    ("grayscale_to_rgb of a [4, 2, None, 3] spec, of seed 1420393004 #284", _T, _text(_sig(
        "tf.image.grayscale_to_rgb(x)", ([4, 2, None, 3], "float32"), "tf.zeros([4, 2, 2, 3])"))),
    ("grayscale_to_rgb of a [None, 2, 2, 2] spec", _T, _text(_sig(
        "tf.image.grayscale_to_rgb(x)", ([None, 2, 2, 2], "float32"), "tf.zeros([1, 2, 2, 2])"))),
    ("grayscale_to_rgb of a [4, 2, None, None] spec, a [4, 2, 2, 3] input", _T, _sig(   # (TF's text lists x and y)
        "tf.image.grayscale_to_rgb(x)", ([4, 2, None, None], "float32"), "tf.zeros([4, 2, 2, 3])")),
    ("grayscale_to_rgb of a [None, 2, 1] spec values", _T, _sig(
        "tf.image.grayscale_to_rgb(x)", ([None, 2, 1], "float32"), "tf.constant([[[0.5], [-1.0]]])")),
]

# -- fz38b's open item: Conv2DBackpropInput's input_sizes of 2 values (height and width)
_X = "tf.constant(np.arange(18, dtype=np.float32).reshape(2, 3, 3, 2) / 7, tf.{dt})"
_F = "tf.constant(np.arange(32, dtype=np.float32).reshape(2, 2, 4, 2) / 5, tf.{dt})"


def _bpi(sizes: str, dt: str, pad: str, strides: str = "[1, 1, 1, 1]") -> str:
    return (f"tf.raw_ops.Conv2DBackpropInput(input_sizes=tf.constant({sizes}), filter={_F.format(dt=dt)}, "
            f"out_backprop={_X.format(dt=dt)}, strides={strides}, padding='{pad}')")


_XN = "tf.transpose(tf.constant(np.arange(18, dtype=np.float32).reshape(2, 3, 3, 2) / 7), [0, 3, 1, 2])"
CASES += [
    *[(f"Conv2DBackpropInput {dt} input_sizes {s} {pad} values", _CG, _eager(_bpi(s, dt, pad)))
      for dt in ("float32", "float64", "float16", "bfloat16") for s, pad in (("[3, 3]", "SAME"), ("[4, 4]", "VALID"))],
    ("Conv2DBackpropInput float32 input_sizes [7, 7] strides 2 values", _CG, _eager(
        _bpi("[7, 7]", "float32", "VALID", "[1, 2, 2, 1]"))),
    ("Conv2DBackpropInput float32 input_sizes [2, 4, 4, 4] VALID values", _CG, _eager(
        _bpi("[2, 4, 4, 4]", "float32", "VALID"))),
    ("Conv2DBackpropInput float32 input_sizes [4, 4] traced values", _CG, _traced(_bpi("[4, 4]", "float32", "VALID"))),
    ("Conv2DBackpropInput float32 input_sizes [5, 5] VALID (oneDNN)", _CG, _eager(_bpi("[5, 5]", "float32", "VALID"))),
    *[(f"Conv2DBackpropInput float64 input_sizes {s} {pad}", _CG, _text(_eager(_bpi(s, "float64", pad))))
      for s, pad in (("[5, 5]", "VALID"), ("[2, 2]", "SAME"), ("[4, 4, 4]", "VALID"), ("[4]", "VALID"))],
    ("conv2d_transpose(output_shape=[4, 4]) values", _CG, _eager(
        f"tf.nn.conv2d_transpose({_X.format(dt='float32')}, {_F.format(dt='float32')}, [4, 4], 1, 'VALID')")),
    ("conv2d_transpose NCHW (output_shape=[4, 4]) values", _CG, _eager(
        f"tf.nn.conv2d_transpose({_XN}, {_F.format(dt='float32')}, [4, 4], 1, 'VALID', data_format='NCHW')")),
    *[(f"Conv2DBackpropInput input_sizes [4, 4], a {spec} spec: static shape", _CG, _static_shape(
        f"tf.raw_ops.Conv2DBackpropInput(input_sizes=tf.constant([4, 4]), filter={_F.format(dt='float32')}, "
        "out_backprop=x, strides=[1, 1, 1, 1], padding='VALID')", spec))
      for spec in ([2, 3, 3, 2], [None, 3, 3, 2])],
    ("conv2d_transpose(output_shape=[4, 4]), a [None, 3, 3, 2] spec: static shape", _CG, _static_shape(
        f"tf.nn.conv2d_transpose(x, {_F.format(dt='float32')}, [4, 4], 1, 'VALID')", [None, 3, 3, 2])),
]

EDGES = edge_text.TextEdgeModule(__file__, CASES, agree=lambda case: edge_compare.parts_agree)


@pytest.fixture(scope="module")
def tf_results() -> dict[int, Any]:
    return EDGES.tf_answers()


@clause("ops.attr-types")
@EDGES.parametrize("ops.attr-types")
def test_fast_path_and_nodedef_types(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


@clause("function.trace-time-errors")
@EDGES.parametrize("function.trace-time-errors")
def test_graph_build_order(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


@clause("ops.argument-errors")
@EDGES.parametrize("ops.argument-errors")
def test_split_float_axis(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


@clause("ops.conv-generic")
@EDGES.parametrize("ops.conv-generic")
def test_backprop_input_two_sizes(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


def test_every_case_has_a_test() -> None:
    untested = EDGES.untested()
    assert not untested, f"cases of groups {untested} have no test function above"


if __name__ == "__main__":  # TF worker: python test_fz39b_edges_tf.py 0,1,2 -> pickled results on stdout
    tf_workers.serve(EDGES.tf_worker)
