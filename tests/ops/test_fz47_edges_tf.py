"""Rules behind the disagreement classes fz47 closed (fresh campaigns of session 47: fourteenth generator seeds
1420473001-, twentieth 4720261201-), each against real TensorFlow 2.21: the same call on both backends gives the same
dtype and values bit for bit (a NaN matching any NaN), or raises the same exception class, eagerly and inside a
tf.function. Recorded on a host where TF 2.21 runs its own convolution kernels (oneDNN off: the golden's "host" key
gives simdist that CPU's model). Needs the `tf` extra.
"""

from __future__ import annotations

import pytest

import edge_compare
from edge_programs import eager as _eager, traced as _traced
import tf_workers

pytestmark = [pytest.mark.tf, tf_workers.tf_or_golden(__file__)]
clause = pytest.mark.clause

_K = "ops.fuzz-raw"
_T = "function.trace-time-errors"
_C = "ops.conversion"


def _both(calls: tuple[str, ...], group: str) -> list[tuple[str, str, object]]:
    out = []
    for call in calls:
        out.append((call, group, _eager(call)))
        out.append((f"{call} in a tf.function", _T, _traced(call)))
    return out


# --- NCHW depthwise backprops on TF's own kernels (oneDNN off, or float64/half): the NodeDef's padding, the
# constructor's strides (equal row and column, then batch and depth), Compute's sizes, ranks and dimensions, an empty
# output returned, and only then the CPU refusal of the layout (fz14 tape seed 1420473001 #232: `padding='same'` with
# NCHW; simdist had refused the layout first)
def _depthwise_cases() -> list[tuple[str, str, object]]:
    x, f = "tf.ones([3, 1, 3, 1]{})", "tf.ones([1, 1, 1, 1]{})"
    calls = []
    for dt in ("", ", tf.float64", ", tf.float16"):
        xx, ff = x.format(dt), f.format(dt)
        for g, strides, padding in (
                ("tf.constant(1e-40{})", "(3, 1, 3, 1)", "'same'"), ("tf.constant(1e-40{})", "(3, 1, 3, 1)", "'SAME'"),
                ("tf.ones([3, 1, 1, 1]{})", "(1, 1, 3, 3)", "'SAME'"), ("tf.ones([3, 1, 1, 1]{})", "(1, 1, 1, 1)", "'SAME'"),
                ("tf.constant(1e-40{})", "(1, 1, 1, 1)", "'SAME'"), ("tf.ones([3, 1, 3, 1]{})", "(1, 1, 1, 1)", "'SAME'"),
                ("tf.ones([3, 1, 3, 1]{})", "(1, 2, 1, 1)", "'SAME'"), ("tf.ones([3, 1, 3, 1]{})", "(1, 1, 1, 1)", "'same'"),
                ("tf.ones([3, 1, 3, 1]{})", "(1, 1, 2, 2)", "'SAME'"), ("tf.ones([3, 1, 3, 1]{})", "(1, 1, 2, 1)", "'SAME'"),
                ("tf.ones([3, 1, 3, 2]{})", "(1, 1, 1, 1)", "'SAME'"), ("tf.ones([2, 1, 3, 1]{})", "(1, 1, 1, 1)", "'SAME'"),
                ("tf.ones([3, 1, 3, 1]{})", "(1, 1, 1)", "'SAME'")):   # (zero strides: SIGFPE in TF's filter kernel)
            gg = g.format(dt)
            calls.append(f"tf.nn.depthwise_conv2d_backprop_filter({xx}, filter_sizes=[1, 1, 1, 1], out_backprop={gg}, "
                         f"strides={strides}, padding={padding}, data_format='NCHW')")
            calls.append(f"tf.nn.depthwise_conv2d_backprop_input([3, 1, 3, 1], filter={ff}, out_backprop={gg}, "
                         f"strides={strides}, padding={padding}, data_format='NCHW')")
        calls.append(f"tf.raw_ops.DepthwiseConv2dNativeBackpropFilter(input={xx}, filter_sizes=[1, 1, 2, 1], "
                     f"out_backprop=tf.ones([3, 1, 3, 1]{dt}), strides=(1, 1, 1, 1), padding='SAME', data_format='NCHW')")
        calls.append(f"tf.raw_ops.DepthwiseConv2dNativeBackpropFilter(input={xx}, filter_sizes=[1, 1, 1, 2], "
                     f"out_backprop=tf.ones([3, 1, 3, 1]{dt}), strides=(1, 1, 1, 1), padding='SAME', data_format='NCHW')")
        calls.append(f"tf.raw_ops.DepthwiseConv2dNativeBackpropInput(input_sizes=[3, 1, 3, 1], filter={ff}, "
                     f"out_backprop=tf.ones([3, 1, 3, 1]{dt}), strides=(1, 1, 1, 1), padding='EXPLICIT', "
                     "explicit_paddings=[0, 0, 0, 0, 1, 1, 0, 0], data_format='NCHW')")
        calls.append(f"tf.raw_ops.DepthwiseConv2dNativeBackpropInput(input_sizes=[3, 1, 3, 1], filter={ff}, "
                     f"out_backprop=tf.ones([3, 1, 3, 1]{dt}), strides=(1, 1, 1, 1), padding='SAME', "
                     "data_format='NCHW', dilations=[1, 1, 2])")
    calls.append("tf.raw_ops.DepthwiseConv2dNativeBackpropInput(input_sizes=[3, 1, 3, 0], filter=tf.ones([1, 1, 1, 1]), "
                 "out_backprop=tf.ones([3, 1, 3, 0]), strides=(1, 1, 1, 1), padding='SAME', data_format='NCHW')")
    calls.append("tf.raw_ops.DepthwiseConv2dNativeBackpropInput(input_sizes=[0, 1, 3, 1], filter=tf.ones([1, 1, 1, 1]), "
                 "out_backprop=tf.ones([0, 1, 3, 1]), strides=(1, 1, 1, 1), padding='SAME', data_format='NCHW')")
    return [(c, _K, _eager(c)) for c in calls] + \
        [(f"{c} in a tf.function", _T, _traced(c)) for c in calls[:8]]


# --- TF's own Conv2D kernel (InitConv2DParameters): the row and column strides positive before the dilations' batch
# and depth (fz14 tape seed 1420473001 #241: conv1d with stride [0] and dilations [1, 2, 2]); a graph's shape function
# refuses the stride first (ValueError "Stride must be > 0")
def _conv_stride_cases() -> list[tuple[str, str, object]]:
    calls = (
        "tf.nn.conv1d(input=tf.ones([1, 2, 3, 3]), filters=tf.ones([1, 2, 3, 3]), stride=[0], padding='SAME', "
        "dilations=tf.constant([1, 2, 2], tf.int32))",
        "tf.nn.conv1d(input=tf.ones([1, 2, 3, 3]), filters=tf.ones([1, 2, 3, 3]), stride=[0], padding='SAME')",
        "tf.nn.conv1d(input=tf.ones([1, 2, 3]), filters=tf.ones([1, 3, 3]), stride=[0], padding='SAME')",
        "tf.nn.conv1d(input=tf.ones([1, 2, 3]), filters=tf.ones([1, 3, 3]), stride=0, padding='VALID', dilations=[1, 2, 2])",
        "tf.nn.conv1d(input=tf.ones([1, 2, 3], tf.float64), filters=tf.ones([1, 3, 3], tf.float64), stride=0, "
        "padding='VALID')",
        "tf.nn.conv2d(tf.ones([1, 2, 3, 3]), tf.ones([1, 1, 3, 3]), strides=[1, 0, 1, 1], padding='SAME')",
        "tf.nn.conv2d(tf.ones([1, 2, 3, 3]), tf.ones([1, 1, 3, 3]), strides=[1, 0, 1, 1], padding='SAME', "
        "dilations=[2, 1, 1, 1])",
        "tf.nn.conv2d(tf.ones([1, 2, 3, 3]), tf.ones([1, 1, 3, 3]), strides=[2, 0, 1, 1], padding='SAME')",
        "tf.nn.conv2d(tf.ones([2, 3, 3]), tf.ones([1, 1, 3, 3]), strides=[1, 0, 1, 1], padding='SAME')",
        "tf.nn.conv2d(tf.ones([1, 2, 3, 3], tf.float16), tf.ones([1, 1, 3, 3], tf.float16), strides=[1, 1, -1, 1], "
        "padding='VALID')",
        "tf.nn.conv2d_transpose(tf.ones([1, 2, 3, 3]), tf.ones([1, 1, 3, 3]), [1, 2, 3, 3], strides=[1, 0, 1, 1], "
        "padding='SAME')",
        "tf.nn.conv2d_transpose(tf.ones([1, 2, 3, 3]), tf.ones([1, 1, 3, 3]), [1, 2, 3, 3], strides=[1, 0, 1, 1], "
        "padding='SAME', dilations=[2, 1, 1, 1])",
    )
    # (conv2d_transpose with a zero stride inside a tf.function kills TF 2.21's process, SIGFPE: eager only; a
    # traced conv1d of a rank-4 input, whose Conv2D shape function refuses the rank-5 operands (ValueError), is still
    # simdist's kernel error (InvalidArgumentError): open, eager only)
    def eager_only(c: str) -> bool:
        return "transpose" in c or "tf.ones([1, 2, 3, 3]), filters" in c
    return _both(tuple(c for c in calls if not eager_only(c)), _K) + [(c, _K, _eager(c)) for c in calls if eager_only(c)]


# --- NonMaxSuppressionV3/V5's T: a resource variable fixes it as a tensor does on the fast path, and as the first value
# on the fallback (its conversion preferring float32 fails and keeps its dtype): a float64 variable's boxes are the
# NodeDef's "Value for attr 'T' of double" (fz14 eager seed 1420473002 #102; simdist had converted it to float32:
# ValueError)
def _nms_cases() -> list[tuple[str, str, object]]:
    v64, v32 = "tf.Variable(tf.ones([3, 4], tf.float64))", "tf.Variable(tf.ones([3, 4], tf.float32))"
    calls = []
    for boxes, scores in ((v64, "3"), (v64, "[3., 1., 1.]"), (v64, "np.float64(3)"), (v32, "[1., 2., 3.]"),
                          ("tf.Variable(tf.ones([3, 4], tf.float16))", "[1., 2., 3.]"),
                          ("tf.Variable(tf.ones([3, 4], tf.int32))", "[1., 2., 3.]"),
                          ("tf.ones([3, 4], tf.float32)", "tf.Variable([1., 2., 3.], dtype=tf.float64)"),
                          ("[[1., 1., 1., 1.]] * 3", "tf.Variable([1., 2., 3.], dtype=tf.float64)"),
                          ("np.ones([3, 4])", "tf.Variable([1., 2., 3.], dtype=tf.float64)")):
        calls.append(f"tf.image.non_max_suppression({boxes}, scores={scores}, max_output_size=2)")
        calls.append(f"tf.image.non_max_suppression_with_scores({boxes}, scores={scores}, max_output_size=2)")
    calls.append(f"tf.image.non_max_suppression({v64}, scores=3, max_output_size=-1, iou_threshold=np.float64(0.1))")
    calls.append(f"tf.image.non_max_suppression({v32}, scores=np.float64(3), max_output_size=-1, "
                 "iou_threshold=np.float64(0.1))")
    return [(c, _C, _eager(c)) for c in calls]


# --- Unique in a graph: op_def_library's allowed types of out_idx before the shape function's rank (fz14 function seed
# 1420473002 #94: an int64 [3, 3, 1] input with out_idx uint32 is TypeError at trace; simdist had raised the rank's
# ValueError)
def _unique_cases() -> list[tuple[str, str, object]]:
    calls = tuple(f"tf.unique(tf.constant({x}, tf.int64), out_idx={o})"
                  for x in ("[[1], [2]]", "[1, 2]") for o in ("tf.uint32", "tf.float32", "tf.int64"))
    return _both(calls, _K)


# --- StatelessRandomUniformV2's bounds convert to the float dtype as NumPy casts a complex value, its imaginary part
# dropped (fz14 eager seed 1420473002 #243: stateless_random_contrast with a complex64 upper; simdist had called
# float() of the complex: TypeError)
def _uniform_cases() -> list[tuple[str, str, object]]:
    calls = (
        "tf.image.stateless_random_contrast(1.0, np.bool_(True), np.array(complex(7.0, 65504.0), dtype=np.complex64), "
        "[1, 2])",
        "tf.image.stateless_random_contrast(tf.ones([2, 2, 1]) * [[[1.], [2.]], [[3.], [4.]]], np.bool_(True), "
        "np.array(complex(7.0, 65504.0), dtype=np.complex64), [1, 2])",
        "tf.random.stateless_uniform([2], [1, 2], minval=np.complex64(0.5 + 3j), maxval=np.complex128(7.25 - 1j))",
        "tf.random.stateless_uniform([2], [1, 2], minval=0.5, maxval=np.array(7.25 - 1j), dtype=tf.float64)",
        "tf.random.stateless_uniform([2], [1, 2], minval=0.5, maxval=7.25 - 1j)",
    )
    return [(c, _C, _eager(c)) for c in calls]


# --- CropAndResize's wrapper makes method and extrapolation_value (make_str, make_float) before it converts an input,
# on the eager fallback and in a graph; a tensor extrapolation_value sends the fast path's call there (fz14 dist seed
# 1420473003 #41: TypeError "Expected float for argument 'extrapolation_value'" before uint8 boxes' ValueError); None
# is the attr's default
def _crop_cases() -> list[tuple[str, str, object]]:
    calls = []
    for ev in ("tf.constant(0.5)", "np.float32(0.5)", "0.5", "'a'", "None", "[0.5]", "np.array(0.5)", "True"):
        for bx in ("tf.constant(5, dtype='uint8')", "[[0., 0., 1., 1.]]", "tf.constant([[0., 0., 1., 1.]])"):
            calls.append(f"tf.image.crop_and_resize(tf.ones([1, 2, 2, 1]), {bx}, [0], [1, 1], method='nearest', "
                         f"extrapolation_value={ev})")
    calls.append("tf.image.crop_and_resize(tf.constant(65504.0), tf.constant(5, dtype='uint8'), False, "
                 "tf.constant([], tf.int32), method='nearest', extrapolation_value=tf.constant(0.5))")
    calls.append("tf.image.crop_and_resize(tf.ones([1, 2, 2, 1]), [[0., 0., 1., 1.]], [0], [1, 1], method='bogus', "
                 "extrapolation_value=tf.constant(0.5))")
    calls.append("tf.image.crop_and_resize(tf.ones([1, 2, 2, 1]), [[0., 0., 1., 1.]], [0], [1, 1], method=None)")
    return [(c, _C, _eager(c)) for c in calls] + [(f"{c} in a tf.function", _T, _traced(c)) for c in calls]


CASES: list[tuple] = [
    *_depthwise_cases(),
    *_conv_stride_cases(),
    *_nms_cases(),
    *_unique_cases(),
    *_uniform_cases(),
    *_crop_cases(),
]


EDGES = edge_compare.EdgeModule(__file__, CASES, agree=lambda case: case[3] if len(case) > 3 else edge_compare.parts_agree)


@pytest.fixture(scope="module")
def tf_results() -> dict[int, object]:
    return EDGES.tf_answers()


@clause("ops.fuzz-raw")
@EDGES.parametrize("ops.fuzz-raw")
def test_raw_kernel_checks(k: int, tf_results: dict[int, object]) -> None:
    EDGES.check(k, tf_results)


@clause("function.trace-time-errors")
@EDGES.parametrize("function.trace-time-errors")
def test_trace_time_errors(k: int, tf_results: dict[int, object]) -> None:
    EDGES.check(k, tf_results)


@clause("ops.conversion")
@EDGES.parametrize("ops.conversion")
def test_conversion(k: int, tf_results: dict[int, object]) -> None:
    EDGES.check(k, tf_results)


def test_every_case_has_a_test() -> None:
    untested = EDGES.untested()
    assert not untested, f"cases of groups {untested} have no test function above"


if __name__ == "__main__":  # TF worker: python test_fz47_edges_tf.py 0,1,2 -> pickled results on stdout
    tf_workers.serve(EDGES.tf_worker)
