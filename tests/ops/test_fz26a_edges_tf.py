"""Rules behind the twentieth fuzzer's classes that fz26a closed (the fresh campaigns eager seed
2620261201, tape seed 2620261202, sig seed 2620261203, eager seed 2620261204, and the classes of
tests/fuzz20/fz20_seen.py), each against real TensorFlow 2.21: the same raw call on both backends
gives the same dtype and values, or raises the same exception class. Eagerly, inside a tf.function,
with an input_signature (`sig`), and under a GradientTape. Needs the `tf` extra.
"""

from __future__ import annotations

from typing import Any, Callable

import pytest

import edge_compare
from edge_programs import eager as _eager, sig as _sig, traced as _traced
import tf_workers

pytestmark = [pytest.mark.tf, tf_workers.tf_or_golden(__file__)]
clause = pytest.mark.clause

_T = "function.trace-time-errors"
_K = "ops.fuzz-raw"
_G = "autodiff.op-gradients"

_MDV3 = "tf.raw_ops.MatrixDiagV3(diagonal=tf.ones([2]), k={}, num_rows={}, num_cols={}, padding_value={}, " \
        "align='RIGHT_LEFT')"

_X4 = "tf.reshape(tf.range(16.0), [1, 2, 4, 2])"
_G4 = "tf.ones([1, 2, 4, 2])"
_A4 = "tf.reshape(tf.range(16, dtype=tf.int64), [1, 2, 4, 2])"
_MPA = "tf.raw_ops.MaxPoolWithArgmax(ksize={}, strides={}, input={}, padding='VALID')"
_MPGA = "tf.raw_ops.MaxPoolGradWithArgmax(ksize={}, strides={}, input={}, grad={}, argmax={}, padding='VALID')"
_MP3GG = "tf.raw_ops.MaxPool3DGradGrad(orig_input={0}, orig_output=tf.ones([1, 1, 2, 2, 2], {0}.dtype), " \
         "grad=tf.ones([1, 1, 2, 2, 2], {0}.dtype), ksize={1}, strides={2}, padding='SAME', data_format='NCDHW')"
_C2D = "tf.raw_ops.Conv2D(input={}, filter={}, strides={}, dilations={}, padding='{}', explicit_paddings=[], " \
       "data_format='{}')"
_BPI = "tf.raw_ops.Conv2DBackpropInput(input_sizes=[1, 2, 2, 1], filter=tf.ones([1, 1, 1, 1], {0}), " \
       "out_backprop=tf.ones([1, 2, 2, 1], {0}), strides={1}, dilations={2}, padding='{3}', explicit_paddings=[], " \
       "data_format='{4}')"
_BPF = "tf.raw_ops.Conv2DBackpropFilter(input=tf.ones([1, 2, 2, 1], {0}), filter_sizes=[1, 1, 1, 1], " \
       "out_backprop=tf.ones([1, 2, 2, 1], {0}), strides={1}, dilations={2}, padding='{3}', explicit_paddings=[], " \
       "data_format='{4}')"
_C3D = "tf.raw_ops.Conv3D(input=tf.ones([2, 3, 4, 2], {0}), filter=tf.ones([3, 4, 2], {0}), strides={1}, " \
       "dilations={2}, padding='SAME')"

_X44 = "tf.reshape(tf.range(16.0), [1, 4, 4, 1])"
_Y22 = "tf.constant([[[[5.0], [7.0]], [[13.0], [15.0]]]])"
_FMPG = "tf.raw_ops.FractionalMaxPoolGrad(orig_input={x}, orig_output={y} if {y} is not None else {x}, " \
        "out_backprop={dy} if {dy} is not None else tf.ones([1, 2, 2, 1]), " \
        "row_pooling_sequence=tf.constant({rows}, tf.int64), col_pooling_sequence=tf.constant({cols}, tf.int64), " \
        "overlapping=False)"
_PADV2 = "tf.raw_ops.PadV2(input=x, constant_values=tf.constant([0.5, 0.5, 0.0], tf.float64), paddings={})"

_PARTS = "[1e-3 - 3j, complex('nan-infj'), complex('2.5+infj'), complex('inf') - 1e-45j, 0.5 + 0.25j, -1j, " \
         "1e-40 + 1j, 3 + 0j, complex('inf') + 7j, -2 - 0.5j, 65504 + 0j, -3e38 + 65504j]"
_CUMPROD = "tf.math.cumprod(tf.reshape(tf.constant([" + _PARTS + "[i * 7 % 12] for i in range(48)], {0})[:np.prod({1})], " \
           "{1}), axis={2}, exclusive={3}, reverse={4})"


def _sparse_softmax_grad(tf: Any) -> Any:
    """The gradient of SparseSoftmax whose index exceeds a dimension (the forward computes)."""
    x = tf.Variable(tf.constant([-1.0], tf.float16))
    with tf.GradientTape() as tape:
        y = tf.raw_ops.SparseSoftmax(sp_values=x, sp_indices=[[1, 1, 2, 2]], sp_shape=tf.constant([3, 4, 1, 1], tf.int64))
    return [y, tape.gradient(y, x)]


_RGG = "tf.raw_ops.RandomGammaGrad(alpha=tf.constant([3e38, 1e30, 1e5, 500.0, 50.0, 1e3, float('inf'), 2.0, " \
       "float('inf'), 3.0], {0}), sample=tf.constant([1.0, 1.0, 1.0, 1.0, 1e3, 1e5, float('inf'), " \
       "float('inf'), 1.0, 1e-300], {0}))"

_DWF = "tf.raw_ops.DepthwiseConv2dNativeBackpropFilter(input=tf.constant([-3.0, 4.0, 1.0], {0}), filter_sizes={1}, " \
       "out_backprop=tf.ones([2], {0}), strides={2}, padding='VALID', dilations=[1, 1, 1, 1], data_format='{3}')"

CASES: list[tuple[str, str, Callable[[Any], Any]]] = [
    # DiagPart's kernel checks on a raw call (seed 2620261201 #159)
    ("DiagPart rank 1", _K, _eager("tf.raw_ops.DiagPart(input=tf.constant([-4], tf.int64))")),
    ("DiagPart rank 3", _K, _eager("tf.raw_ops.DiagPart(input=tf.ones([2, 3, 2]))")),
    ("DiagPart halves differ", _K, _eager("tf.raw_ops.DiagPart(input=tf.ones([2, 3, 2, 2]))")),
    ("DiagPart scalar", _K, _eager("tf.raw_ops.DiagPart(input=tf.constant(3.0))")),
    ("DiagPart rank 4", _K, _eager("tf.raw_ops.DiagPart(input=tf.reshape(tf.range(36), [2, 3, 2, 3]))")),
    # Pad of strings pads with the empty string (seed 2620261201 #48)
    ("Pad string", _K, _eager("tf.raw_ops.Pad(input=tf.constant([[b'a', b'bc']]), paddings=[[1, 0], [0, 1]])")),
    ("pad string", _K, _eager("tf.pad(tf.constant([[b'a']]), [[1, 0], [0, 1]])")),
    ("PadV2 string", _K, _eager("tf.raw_ops.PadV2(input=tf.constant([[b'a']]), paddings=[[0, 0], [1, 0]], "
                                "constant_values='x')")),
    # MatrixDiagV3's scalar inputs and k (seeds 2620261201 #42, 2620261202 #29)
    ("MatrixDiagV3 padding_value [2, 3]", _K, _eager(
        "tf.raw_ops.MatrixDiagV3(diagonal=tf.ones([2, 3, 2]), k=1, num_rows=2, num_cols=3, "
        "padding_value=tf.ones([2, 3]), align='RIGHT_LEFT')")),
    ("MatrixDiagV3 padding_value [1]", _K, _eager(_MDV3.format(0, -1, 5, "tf.ones([1])"))),
    ("MatrixDiagV3 num_rows [2]", _K, _eager(_MDV3.format(0, "tf.constant([2, 3])", 5, "tf.ones([2])"))),
    ("MatrixDiagV3 num_cols [1]", _K, _eager(_MDV3.format(0, -1, "tf.constant([5])", "1.0"))),
    ("MatrixDiagV3 k [1, 1]", _K, _eager(_MDV3.format("[[0]]", -1, "tf.constant([5])", "1.0"))),
    ("MatrixDiagV3 k empty", _K, _eager(_MDV3.format("tf.zeros([0], tf.int32)", -1, 3, "1.0"))),
    ("MatrixDiagV3 k of 3", _K, _eager(_MDV3.format("[0, 0, 0]", -1, 3, "1.0"))),
    ("MatrixDiagV3", _K, _eager(_MDV3.format(1, -1, -1, "3.0"))),
    ("MatrixDiagV3 padding_value [1], traced", _T, _traced(_MDV3.format(0, -1, 5, "tf.ones([1])"))),
    ("MatrixDiagPartV3 k [1, 1]", _K, _eager("tf.raw_ops.MatrixDiagPartV3(input=tf.ones([2, 2]), k=[[0]], "
                                             "padding_value=1.0, align='RIGHT_LEFT')")),
    ("MatrixDiagPartV3 k empty", _K, _eager("tf.raw_ops.MatrixDiagPartV3(input=tf.ones([2, 2]), "
                                            "k=tf.zeros([0], tf.int32), padding_value=1.0, align='RIGHT_LEFT')")),
    ("MatrixSetDiagV3 k [1, 1]", _K, _eager("tf.raw_ops.MatrixSetDiagV3(input=tf.ones([2, 2]), "
                                            "diagonal=tf.ones([2]), k=[[0]], align='RIGHT_LEFT')")),
    ("MatrixSetDiagV3 k empty", _K, _eager("tf.raw_ops.MatrixSetDiagV3(input=tf.ones([2, 2]), "
                                           "diagonal=tf.ones([2]), k=tf.zeros([0], tf.int32), align='RIGHT_LEFT')")),
    # MaxPoolWithArgmax's and MaxPoolGradWithArgmax's kernel checks (seeds 2620261201 #138, 2620261202 #178,
    # 2620261203 #140)
    ("MaxPoolWithArgmax depth window 2 stride 1", _K, _eager(_MPA.format("[1, 1, 1, 2]", "[1, 1, 1, 1]", _X4))),
    ("MaxPoolWithArgmax depth window = stride", _K, _eager(_MPA.format("[1, 1, 1, 2]", "[1, 1, 1, 2]", _X4))),
    ("MaxPoolWithArgmax depth and space", _K, _eager(_MPA.format("[1, 2, 1, 2]", "[1, 1, 1, 2]", _X4))),
    ("MaxPoolWithArgmax depth 3 of 2", _K, _eager(_MPA.format("[1, 1, 1, 3]", "[1, 1, 1, 3]", _X4))),
    ("MaxPoolWithArgmax batch window", _K, _eager(_MPA.format("[2, 1, 1, 1]", "[1, 1, 1, 1]", _X4))),
    ("MaxPoolWithArgmax batch window, rank 3", _K, _eager(_MPA.format("[2, 1, 2, 2]", "[1, 2, 1, 1]",
                                                                      "tf.ones([4, 4, 3], tf.int64)"))),
    ("MaxPoolWithArgmax ksize 0 before batch", _K, _eager(_MPA.format("[2, 0, 1, 1]", "[1, 1, 1, 1]", _X4))),
    ("MaxPoolWithArgmax ksize 0 before stride 0", _K, _eager(_MPA.format("[1, 0, 1, 1]", "[1, 0, 1, 1]", _X4))),
    ("MaxPoolWithArgmax batch window before stride 0", _K, _eager(_MPA.format("[2, 1, 1, 1]", "[1, 0, 1, 1]", _X4))),
    ("MaxPoolWithArgmax rank 1", _K, _eager(_MPA.format("[1, 1, 1, 1]", "[1, 1, 1, 1]", "tf.ones([3])"))),
    ("MaxPoolWithArgmax int16", _K, _eager(_MPA.format("[1, 1, 2, 1]", "[1, 1, 1, 1]",
                                                       "tf.constant([[[[0, 5], [-4, -1]], [[1, 7], [5, 3]]]], "
                                                       "tf.int16)"))),
    ("MaxPoolGradWithArgmax batch window, rank 1", _K, _eager(_MPGA.format(
        "[2, 2, 1, 1]", "[1, 1, 3, 1]", "tf.constant([2, -4, 1, 0])", "tf.constant([-1, 7, 3, -1])",
        "tf.constant([0, 1, 2, 3], tf.int64)"))),
    ("MaxPoolGradWithArgmax ksize 0", _K, _eager(_MPGA.format("[2, 0, 1, 1]", "[1, 1, 1, 1]", _X4, _G4, _A4))),
    ("MaxPoolGradWithArgmax depth window = stride", _K, _eager(_MPGA.format("[1, 1, 1, 2]", "[1, 1, 1, 2]", _X4, _G4,
                                                                            _A4))),
    ("MaxPoolGradWithArgmax depth window 2 stride 1", _K, _eager(_MPGA.format("[1, 1, 1, 2]", "[1, 1, 1, 1]", _X4,
                                                                              _G4, _A4))),
    ("MaxPoolGradWithArgmax grad shape", _K, _eager(_MPGA.format("[1, 1, 1, 1]", "[1, 1, 1, 1]", _X4,
                                                                 "tf.ones([1, 2, 4, 1])", _A4))),
    ("MaxPoolGradWithArgmax argmax shape", _K, _eager(_MPGA.format("[1, 1, 1, 1]", "[1, 1, 1, 1]", _X4, _G4,
                                                                   "tf.zeros([3], tf.int64)"))),
    ("MaxPoolGradWithArgmax", _K, _eager(_MPGA.format("[1, 1, 2, 1]", "[1, 1, 2, 1]", _X4, "tf.ones([1, 2, 2, 2])",
                                                      "tf.constant([[[[2, 3], [6, 7]], [[10, 11], [14, 15]]]], "
                                                      "tf.int64)"))),
    # MaxPool3DGradGrad, MaxPoolGradGrad and MaxPool3DGrad keep TF's own kernel in NCDHW/NCHW (seed 2620261201 #74)
    ("MaxPool3DGradGrad NCDHW rank 1 bfloat16", _K, _eager(_MP3GG.format(
        "tf.constant([-0.5, 4.0, 0.0, 0.001], tf.bfloat16)", "[1, 1, 1, 1, 1]", "[1, 1, 2, 3, 1]"))),
    ("MaxPool3DGradGrad NCDHW float32", _K, _eager(_MP3GG.format("tf.ones([1, 1, 2, 2, 2])", "[1, 1, 1, 1, 1]",
                                                                 "[1, 1, 1, 1, 1]"))),
    ("MaxPool3DGradGrad NCDHW channel window", _K, _eager(_MP3GG.format("tf.ones([1, 1, 2, 2, 2])",
                                                                        "[1, 2, 1, 1, 1]", "[1, 1, 1, 1, 1]"))),
    ("MaxPool3DGradGrad NCDHW batch window", _K, _eager(_MP3GG.format("tf.ones([4])", "[2, 1, 1, 1, 1]",
                                                                      "[1, 1, 1, 1, 1]"))),
    ("MaxPool3DGradGrad NDHWC channel window", _K, _eager(_MP3GG.format(
        "tf.ones([1, 1, 2, 2, 2])", "[1, 1, 1, 1, 2]", "[1, 1, 1, 1, 1]").replace("NCDHW", "NDHWC"))),
    ("MaxPoolGradGrad NCHW float32", _K, _eager(
        "tf.raw_ops.MaxPoolGradGrad(orig_input=tf.ones([1, 1, 2, 2]), orig_output=tf.ones([1, 1, 2, 2]), "
        "grad=tf.ones([1, 1, 2, 2]), ksize=[1, 1, 1, 1], strides=[1, 1, 1, 1], padding='SAME', data_format='NCHW')")),
    ("MaxPool3DGrad NCDHW bfloat16", _K, _eager(
        "tf.raw_ops.MaxPool3DGrad(orig_input=tf.ones([1, 1, 2, 2, 2], tf.bfloat16), "
        "orig_output=tf.ones([1, 1, 2, 2, 2], tf.bfloat16), grad=tf.ones([1, 1, 2, 2, 2], tf.bfloat16), "
        "ksize=[1, 1, 1, 1, 1], strides=[1, 1, 1, 1, 1], padding='SAME', data_format='NCDHW')")),
    # the convolutions' constructor checks (seeds 2620261204 #11, #150, 2620261202 #2)
    ("Conv2D int32 NCHW channel dilation, EXPLICIT", _K, _eager(_C2D.format(
        "tf.constant([[0, -1], [1, -4]])", "tf.constant([[2]])", "[1, 1, 1, 1]", "[1, 2, 1, 1]", "EXPLICIT", "NCHW"))),
    ("Conv2D float64 batch dilation, EXPLICIT", _K, _eager(_C2D.format(
        "tf.ones([1, 2, 2, 1], tf.float64)", "tf.ones([1, 1, 1, 1], tf.float64)", "[1, 1, 1, 1]", "[2, 1, 1, 1]",
        "EXPLICIT", "NHWC"))),
    ("Conv2D float64 zero stride before dilation", _K, _eager(_C2D.format(
        "tf.ones([1, 2, 2, 1], tf.float64)", "tf.ones([1, 1, 1, 1], tf.float64)", "[1, 1, 0, 1]", "[2, 1, 1, 1]",
        "VALID", "NCHW"))),
    ("Conv2D float32 batch dilation, zero stride", _K, _eager(_C2D.format(
        "tf.ones([1, 2, 2, 1])", "tf.ones([1, 1, 1, 1])", "[1, 1, 0, 1]", "[2, 1, 1, 1]", "VALID", "NHWC"))),
    ("Conv2D float32 NCHW batch dilation", _K, _eager(_C2D.format(
        "tf.ones([1, 2, 2, 1])", "tf.ones([1, 1, 1, 1])", "[1, 1, 0, 1]", "[2, 1, 1, 1]", "VALID", "NCHW"))),
    ("Conv2DBackpropInput float16 depth dilation", _K, _eager(
        "tf.raw_ops.Conv2DBackpropInput(input_sizes=[-2, 3, 1], filter=tf.constant(0.75, tf.float16), "
        "out_backprop=tf.constant([7.0], tf.float16), strides=[1, 1, 2, 1], dilations=[1, 2, 1, 2], "
        "padding='EXPLICIT')")),
    ("Conv2DBackpropInput float32 batch dilation, EXPLICIT", _K, _eager(_BPI.format(
        "tf.float32", "[1, 1, 1, 1]", "[2, 1, 1, 1]", "EXPLICIT", "NHWC"))),
    ("Conv2DBackpropInput float32 NCHW, EXPLICIT", _K, _eager(_BPI.format(
        "tf.float32", "[2, 1, 1, 1]", "[1, 1, 1, 1]", "EXPLICIT", "NCHW"))),
    ("Conv2DBackpropInput float32 NCHW batch dilation", _K, _eager(_BPI.format(
        "tf.float32", "[1, 1, 0, 1]", "[2, 1, 1, 1]", "VALID", "NCHW"))),
    ("Conv2DBackpropInput int32 NCHW", _K, _eager(_BPI.format(
        "tf.int32", "[1, 1, 1, 1]", "[2, 1, 1, 1]", "EXPLICIT", "NCHW"))),
    ("Conv2DBackpropFilter float64 batch stride", _K, _eager(_BPF.format(
        "tf.float64", "[2, 1, 1, 1]", "[1, 1, 1, 1]", "EXPLICIT", "NHWC"))),
    ("Conv2DBackpropFilter float64 zero stride", _K, _eager(_BPF.format(
        "tf.float64", "[1, 1, 0, 1]", "[2, 1, 1, 1]", "VALID", "NHWC"))),
    ("Conv2DBackpropFilter float32 channel stride, EXPLICIT", _K, _eager(_BPF.format(
        "tf.float32", "[1, 1, 1, 2]", "[1, 1, 1, 2]", "EXPLICIT", "NHWC"))),
    ("Conv2DBackpropFilter float32 NCHW, EXPLICIT", _K, _eager(_BPF.format(
        "tf.float32", "[1, 2, 1, 1]", "[1, 2, 1, 1]", "EXPLICIT", "NCHW"))),
    ("Conv2DBackpropFilter float32 NCHW batch dilation", _K, _eager(_BPF.format(
        "tf.float32", "[1, 1, 0, 1]", "[2, 1, 1, 1]", "VALID", "NCHW"))),
    ("Conv3D bfloat16 depth stride, rank 4", _K, _eager(_C3D.format("tf.bfloat16", "[1, 1, 2, 2, 2]",
                                                                    "[1, 1, 1, 1, 1]"))),
    ("Conv3D float32 depth dilation, rank 4", _K, _eager(_C3D.format("tf.float32", "[1, 1, 2, 2, 1]",
                                                                     "[1, 1, 1, 1, 2]"))),
    ("Conv3D float64 depth stride, rank 4", _K, _eager(_C3D.format("tf.float64", "[1, 1, 2, 2, 2]",
                                                                   "[1, 1, 1, 1, 1]"))),
    ("Conv3D float16 zero stride before dilation", _K, _eager(_C3D.format("tf.float16", "[1, 1, 0, 2, 1]",
                                                                          "[2, 1, 1, 1, 1]"))),
    ("Conv3D bfloat16 batch dilation, zero stride", _K, _eager(_C3D.format("tf.bfloat16", "[1, 1, 0, 2, 1]",
                                                                           "[2, 1, 1, 1, 1]"))),
    # FractionalMaxPoolGrad's kernel checks (seed 2620261201 #67)
    ("FractionalMaxPoolGrad rank 3", _K, _eager(_FMPG.format(x="tf.constant([[[0.75], [-0.0], [0.0]]])", y="None",
                                                             dy="None", rows="[0]", cols="[0]"))),
    ("FractionalMaxPoolGrad", _K, _eager(_FMPG.format(x=_X44, y=_Y22, dy="None", rows="[0, 2, 4]",
                                                      cols="[0, 2, 4]"))),
    ("FractionalMaxPoolGrad overlapping", _K, _eager(_FMPG.format(
        x=_X44, y="tf.constant([[[[10.0], [11.0]], [[14.0], [15.0]]]])", dy="None", rows="[0, 2, 4]",
        cols="[0, 2, 4]").replace("overlapping=False", "overlapping=True"))),
    ("FractionalMaxPoolGrad wrong orig_output", _K, _eager(_FMPG.format(x=_X44, y=_Y22 + " + 1", dy="None",
                                                                        rows="[0, 2, 4]", cols="[0, 2, 4]"))),
    ("FractionalMaxPoolGrad NaN maximum", _K, _eager(_FMPG.format(
        x=f"tf.where({_X44} == 5.0, float('nan'), {_X44})",
        y="tf.constant([[[[float('nan')], [7.0]], [[13.0], [15.0]]]])", dy="None", rows="[0, 2, 4]",
        cols="[0, 2, 4]"))),
    ("FractionalMaxPoolGrad too few windows", _K, _eager(_FMPG.format(x=_X44, y=_Y22, dy="None", rows="[0, 2]",
                                                                      cols="[0, 2, 4]"))),
    # (more windows than orig_output's rows: TF writes past its buffer, and its process aborted later; not a case)
    ("FractionalMaxPoolGrad sequence beyond the input", _K, _eager(_FMPG.format(x=_X44, y=_Y22, dy="None",
                                                                                rows="[0, 2, 9]", cols="[0, 2, 4]"))),
    ("FractionalMaxPoolGrad sequence a matrix", _K, _eager(_FMPG.format(x=_X44, y=_Y22, dy="None", rows="[[0, 2, 4]]",
                                                                        cols="[0, 2, 4]"))),
    ("FractionalMaxPoolGrad empty orig_input", _K, _eager(_FMPG.format(x="tf.ones([1, 0, 4, 1])", y=_Y22, dy="None",
                                                                       rows="[0, 2, 4]", cols="[0, 2, 4]"))),
    ("FractionalMaxPoolGrad out_backprop read flat", _K, _eager(_FMPG.format(x=_X44, y=_Y22, dy="tf.ones([2, 2])",
                                                                             rows="[0, 2, 4]", cols="[0, 2, 4]"))),
    ("FractionalMaxPoolGrad short out_backprop", _K, _eager(_FMPG.format(x=_X44, y=_Y22, dy="tf.ones([1, 1, 2, 1])",
                                                                         rows="[0, 2, 4]", cols="[0, 2, 4]"))),
    # OnesLike of uint32/uint64 in a graph that knows its shape: Grappler's zeros (sig seed 2620261203 #81)
    ("OnesLike uint64 [3], sig", _K, _sig("tf.raw_ops.OnesLike(x=x)", ([3], "uint64"), "tf.constant([7, 0, 0], tf.uint64)")),
    ("OnesLike uint32 [3], sig", _K, _sig("tf.raw_ops.OnesLike(x=x)", ([3], "uint32"), "tf.constant([7, 0, 0], tf.uint32)")),
    ("OnesLike uint64 [None], sig", _K, _sig("tf.raw_ops.OnesLike(x=x)", ([None], "uint64"),
                                             "tf.constant([7, 0, 0], tf.uint64)")),
    ("OnesLike uint16 [3], sig", _K, _sig("tf.raw_ops.OnesLike(x=x)", ([3], "uint16"), "tf.constant([7, 0, 0], tf.uint16)")),
    ("OnesLike uint64 constant, traced", _K, _traced("tf.raw_ops.OnesLike(x=tf.constant([1, 2], tf.uint64))")),
    ("ones_like uint64 [3], sig", _K, _sig("tf.ones_like(x)", ([3], "uint64"), "tf.constant([7, 0, 0], tf.uint64)")),
    ("OnesLike uint64 eagerly", _K, _eager("tf.raw_ops.OnesLike(x=tf.constant([7, 0], tf.uint64))")),
    # Grappler's SimplifyPad: Pad/PadV2 of constant zero paddings is Identity (sig seed 2620261203 #94)
    ("PadV2 zero paddings, constant_values [3], sig", _K, _sig(_PADV2.format("tf.constant([[0, 0]], tf.int64)"),
                                                               ([3], "float64"), "tf.constant([-3.0, -0.5, 1.0], tf.float64)")),
    ("PadV2 zero paddings, unknown rank, sig", _K, _sig(_PADV2.format("[[0, 0], [0, 0]]"), (None, "float64"),
                                                        "tf.constant([-3.0, -0.5, 1.0], tf.float64)")),
    ("Pad zero paddings, unknown rank, sig", _K, _sig("tf.raw_ops.Pad(input=x, paddings=[[0, 0], [0, 0]])",
                                                      (None, "float64"), "tf.constant([-3.0, -0.5, 1.0], tf.float64)")),
    ("Pad non-zero paddings, unknown rank, sig", _K, _sig("tf.raw_ops.Pad(input=x, paddings=[[0, 1], [0, 0]])",
                                                          (None, "float64"), "tf.constant([-3.0, -0.5, 1.0], tf.float64)")),
    ("MirrorPad zero paddings, unknown rank, sig", _K, _sig(
        "tf.raw_ops.MirrorPad(input=x, paddings=[[0, 0], [0, 0]], mode='REFLECT')", (None, "float64"),
        "tf.constant([-3.0, -0.5, 1.0], tf.float64)")),
    ("PadV2 zero paddings, constant_values [3], traced", _K, _traced(
        "tf.raw_ops.PadV2(input=tf.constant([1.0, 2.0]), constant_values=tf.constant([0.5, 0.5, 0.0]), "
        "paddings=[[0, 0]])")),
    ("PadV2 zero paddings, constant_values [3], eagerly", _K, _eager(
        "tf.raw_ops.PadV2(input=tf.constant([1.0, 2.0]), constant_values=tf.constant([0.5, 0.5, 0.0]), "
        "paddings=[[0, 0]])")),
    # SparseReduceSum's flat offsets; SparseSoftmax's gradient then fails in SparseDenseCwiseAdd (seed 2620261202 #180)
    ("SparseReduceSum index beyond its dimension", _K, _eager(
        "tf.raw_ops.SparseReduceSum(input_indices=[[1, 1, 2, 2]], input_values=tf.constant([-1.0]), "
        "input_shape=tf.constant([3, 4, 1, 1], tf.int64), reduction_axes=[-1], keep_dims=True)")),
    ("SparseReduceMax index beyond its dimension", _K, _eager(
        "tf.raw_ops.SparseReduceMax(input_indices=[[1, 1, 2, 2]], input_values=tf.constant([-1.0]), "
        "input_shape=tf.constant([3, 4, 1, 1], tf.int64), reduction_axes=[-1], keep_dims=False)")),
    ("SparseSoftmax gradient, index beyond its dimension", _G, _sparse_softmax_grad),
    # complex Cumprod: Eigen's scan from 1 + 0j, packets and Annex G scalars (tape seed 2620261202 #117)
    ("Cumprod complex64 axis 2, stride 2", _K, _eager(_CUMPROD.format("tf.complex64", "[3, 2, 2, 2]", 2, False, False))),
    ("Cumprod complex64 axis 0, stride 5", _K, _eager(_CUMPROD.format("tf.complex64", "[4, 5]", 0, False, False))),
    ("Cumprod complex64 axis 0, stride 4, exclusive", _K, _eager(_CUMPROD.format("tf.complex64", "[5, 4]", 0, True,
                                                                                 False))),
    ("Cumprod complex128 axis 1, reverse", _K, _eager(_CUMPROD.format("tf.complex128", "[4, 5]", 1, False, True))),
    ("Cumprod complex128 axis 0, stride 3, exclusive reverse", _K, _eager(_CUMPROD.format("tf.complex128", "[4, 3]", 0,
                                                                                          True, True))),
    # RandomGammaGrad where Eigen's log(x^a e^-x / Gamma) underflows: 0, the continued fraction's -0 (seed 2620261204 #69)
    ("RandomGammaGrad underflow float64", _K, _eager(_RGG.format("tf.float64"))),
    ("RandomGammaGrad underflow float32", _K, _eager(_RGG.format("tf.float32"))),
    # oneDNN's DepthwiseConv2dNativeBackpropFilter of a zero-size filter_sizes (fz20_seen: seed 2520261204 #49)
    ("DepthwiseConv2dNativeBackpropFilter [2, 0, 0] NCHW float32", _K, _eager(_DWF.format("tf.float32", "[2, 0, 0]",
                                                                                         "[1, 1, 3, 1]", "NCHW"))),
    ("DepthwiseConv2dNativeBackpropFilter [0, 1, 1, 1] bfloat16", _K, _eager(_DWF.format("tf.bfloat16", "[0, 1, 1, 1]",
                                                                                        "[1, 1, 1, 1]", "NHWC"))),
    ("DepthwiseConv2dNativeBackpropFilter [2, 0] float64", _K, _eager(_DWF.format("tf.float64", "[2, 0]",
                                                                                 "[1, 1, 1, 1]", "NHWC"))),
    ("DepthwiseConv2dNativeBackpropFilter [1, 1, 1, 0] batch stride", _K, _eager(_DWF.format(
        "tf.float32", "[1, 1, 1, 0]", "[2, 1, 1, 1]", "NHWC"))),
    # BiasAddGrad: of an unknown rank the kernel's error when the graph runs; BiasAddGradShape's rank 3 with NCHW
    # (fz20_seen: seed 2520261205 #98)
    ("BiasAddGrad NCHW rank 1 of unknown rank, sig", _T, _sig("tf.raw_ops.BiasAddGrad(out_backprop=x, data_format='NCHW')",
                                                              (None, "int64"), "tf.constant([3, 0], tf.int64)")),
    ("BiasAddGrad NCHW rank 1, sig", _T, _sig("tf.raw_ops.BiasAddGrad(out_backprop=x, data_format='NCHW')",
                                              ([2], "int64"), "tf.constant([3, 0], tf.int64)")),
    ("BiasAddGrad NCHW rank 2, sig", _T, _sig("tf.raw_ops.BiasAddGrad(out_backprop=x, data_format='NCHW')",
                                              ([3, 2], "float32"), "tf.ones([3, 2])")),
    ("BiasAddGrad NCHW rank 2 of unknown rank, sig", _T, _sig(
        "tf.raw_ops.BiasAddGrad(out_backprop=x, data_format='NCHW')", (None, "float32"), "tf.ones([3, 2])")),
    ("BiasAddGrad NCHW rank 2 eagerly", _K, _eager("tf.raw_ops.BiasAddGrad(out_backprop=tf.ones([3, 2]), "
                                                   "data_format='NCHW')")),
    # ScatterNdTensorShape takes a scalar updates (fz20_seen: seed 2520261205 #127)
    ("TensorScatterSub string, scalar updates, traced", _T, _traced(
        "tf.raw_ops.TensorScatterSub(indices=[0, 0], updates=tf.constant(b'a'), "
        "tensor=tf.constant([b'AbC', b'nan', b' x y ']))")),
    ("TensorScatterSub scalar updates, traced", _T, _traced(
        "tf.raw_ops.TensorScatterSub(indices=[0], updates=tf.constant(2.0), tensor=tf.constant([1.0, 2.0, 3.0]))")),
    ("TensorScatterAdd scalar updates, traced", _T, _traced(
        "tf.raw_ops.TensorScatterAdd(indices=[0, 1], updates=tf.constant(2.0), tensor=tf.constant([1.0, 2.0, 3.0]))")),
]



EDGES = edge_compare.EdgeModule(__file__, CASES, agree=lambda case: edge_compare.parts_agree)


@pytest.fixture(scope="module")
def tf_results() -> dict[int, Any]:
    return EDGES.tf_answers()


@clause("ops.fuzz-raw")
@EDGES.parametrize("ops.fuzz-raw")
def test_raw_kernel_checks(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


@clause("function.trace-time-errors")
@EDGES.parametrize("function.trace-time-errors")
def test_trace_time_errors(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


@clause("autodiff.op-gradients")
@EDGES.parametrize("autodiff.op-gradients")
def test_gradients(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


def test_every_case_has_a_test() -> None:
    untested = EDGES.untested()
    assert not untested, f"cases of groups {untested} have no test function above"


if __name__ == "__main__":  # TF worker: python test_fz26a_edges_tf.py 0,1,2 -> pickled results on stdout
    tf_workers.serve(EDGES.tf_worker)
