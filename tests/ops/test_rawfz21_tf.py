"""Rules behind rawfz21's classes of issue 29's twentieth generator (tests/fuzz20: tf.raw_ops calls drawn from
TF's OpDefs) and the last classes of the fourteenth (tests/fuzz14), each against real TensorFlow 2.21: the same
call on both backends gives the same dtype and values, or raises the same exception class. Eagerly (after a first
op: TF's eager fast path), in a tf.function (`traced`), with an input_signature (`sig`) and under a GradientTape
(`tape`). Needs the `tf` extra (or the module's golden).
"""

from __future__ import annotations

from typing import Any, Callable

import numpy as np
import pytest

import edge_compare
from edge_programs import eager as _eager, traced as _traced, sig as _sig, tape as _tape
import tf_workers

pytestmark = [pytest.mark.tf, tf_workers.tf_or_golden(__file__)]
clause = pytest.mark.clause


def _both(label: str, group: str, expr: str) -> list[tuple[str, str, Callable[[Any], Any]]]:
    """The case eagerly and traced."""
    return [(label, group, _eager(expr)), (f"{label}, traced", group, _traced(expr))]



_ATTR = "ops.attr-types"
_A = "ops.fuzz-raw"

CASES: list[tuple[str, str, Callable[[Any], Any]]] = [
    # in_top_k: the eager fast path's int32 conversion of a Python float target (fz14 seed 1420262001 #132),
    # op_def_library's TypeError for float64 predictions in a graph (#42)
    ("in_top_k float target", _ATTR, _eager("tf.math.in_top_k(1.0, 2, 1)")),
    ("in_top_k float target, tensor predictions", _ATTR, _eager("tf.math.in_top_k(1.0, tf.constant([[2.0]]), 1)")),
    ("in_top_k float target, list predictions", _ATTR, _eager("tf.math.in_top_k(1.0, [2.0], 1)")),
    ("in_top_k float target, list k", _ATTR, _eager("tf.math.in_top_k(1.0, 2, [1])")),
    ("in_top_k float target, traced", _ATTR, _traced("tf.math.in_top_k(1.0, 2, 1)")),
    *_both("in_top_k float64 predictions", _ATTR,
           "tf.nn.in_top_k(1.0, tf.constant(-float('inf'), dtype='float64'), np.int64(2))"),
    # BroadcastArgs: BCast of any int values, negative ones too (seed 2020261202 #49)
    *_both("BroadcastArgs of a negative dimension", _A,
           "tf.raw_ops.BroadcastArgs(s1=tf.constant([4], tf.int32), s0=tf.constant([-2, 1, 4], tf.int32))"),
    ("BroadcastArgs -2 against 4", _A, _eager("tf.raw_ops.BroadcastArgs(s1=tf.constant([4, 3], tf.int32), "
                                              "s0=tf.constant([-2, 1], tf.int32))")),
    ("BroadcastArgs -1 against -1", _A, _eager("tf.raw_ops.BroadcastArgs(s1=tf.constant([-1, 3], tf.int64), "
                                               "s0=tf.constant([-1, 1], tf.int64))")),
    # HistogramFixedWidth: the kernel's checks in its order (seed 2020261201 #90)
    *_both("HistogramFixedWidth value_range [7, 0.5]", _A,
           "tf.raw_ops.HistogramFixedWidth(values=tf.constant([-0.0, 2.5]), dtype=tf.int32, "
           "value_range=tf.constant([7.0, 0.5]), nbins=2)"),
    ("HistogramFixedWidth empty range before nbins 0", _A, _eager(
        "tf.raw_ops.HistogramFixedWidth(values=tf.constant([-0.0, 2.5]), dtype=tf.int32, "
        "value_range=tf.constant([1.0, 1.0]), nbins=0)")),
    ("histogram_fixed_width range [1, 0] before nbins 0", _A, _eager(
        "tf.histogram_fixed_width(tf.constant([3, 5], tf.int64), tf.constant([1, 0], tf.int64), nbins=0)")),
    ("HistogramFixedWidth nbins [1]", _A, _eager(
        "tf.raw_ops.HistogramFixedWidth(values=tf.constant([3, 5], tf.int64), dtype=tf.int64, "
        "value_range=tf.constant([0, 7], tf.int64), nbins=[1])")),
    ("HistogramFixedWidth values", _A, _eager(
        "tf.raw_ops.HistogramFixedWidth(values=tf.constant([-3.0, 0.5, 2.5, 9.0, 1.0]), dtype=tf.int64, "
        "value_range=tf.constant([0.0, 3.0]), nbins=3)")),
    # AsString: the raw op is tf.strings.as_string itself, formatting by the input's dtype (seed 2020261201 #85)
    *_both("AsString uint16 width 1", _A, "tf.raw_ops.AsString(input=tf.constant([[5, 3]], tf.uint16), width=1)"),
    *_both("AsString of strings", _A, "tf.raw_ops.AsString(input=tf.constant([b'', b'a', b' x y ']), shortest=False)"),
    ("AsString of strings, width 3 fill -", _A, _eager("tf.raw_ops.AsString(input=tf.constant(['ab', 'c']), width=3, "
                                                       "fill='-')")),
    ("AsString int32 precision 2", _A, _eager("tf.raw_ops.AsString(input=tf.constant([1, 2]), precision=2)")),
    # ClipByValue: std::max(std::min(t, hi), lo), zeros' signs and NaN bounds (seed 2020261202 #119)
    *_both("ClipByValue bfloat16 signed zeros", _A,
           "tf.raw_ops.ClipByValue(t=tf.constant([[-1.5, -0.0, 0.25], [4.0, 0.25, 0.75]], tf.bfloat16), "
           "clip_value_min=tf.constant([[-1.5, 0.0, 0.75], [0.0, -1.5, 0.25]], tf.bfloat16), "
           "clip_value_max=tf.constant([[2.5, -0.0, 0.5], [-0.5, 4.0, 0.75]], tf.bfloat16))"),
    ("ClipByValue NaN bounds", _A, _eager(
        "tf.raw_ops.ClipByValue(t=tf.constant([np.nan, 1.0, -0.0, 0.0, 5.0]), clip_value_min=tf.constant([0.0, "
        "np.nan, 0.0, -0.0, 6.0]), clip_value_max=tf.constant([1.0, 0.5, np.nan, -0.0, 2.0]))")),
    ("ClipByValue scalar NaN minimum", _A, _eager(
        "tf.raw_ops.ClipByValue(t=tf.constant([np.nan, 1.0, -0.0, 0.0]), clip_value_min=tf.constant(np.nan), "
        "clip_value_max=0.0)")),
    ("ClipByValue float16 scalar minimum", _A, _eager(
        "tf.raw_ops.ClipByValue(t=tf.constant([-0.0, 0.0, 3.0], tf.float16), clip_value_min=tf.constant(0.0, "
        "tf.float16), clip_value_max=tf.constant([-0.0, 0.0, -0.0], tf.float16))")),
    # a list input below its number attr's minimum: eagerly the NodeDef check, traced op_def_library's
    # ValueError (seed 2020261201 #185)
    *_both("ConcatV2 of one value", _A,
           "tf.raw_ops.ConcatV2(axis=tf.constant([-3, -2], tf.int32), values=[tf.constant([[1]])])"),
    *_both("AddN of no input", _A, "tf.raw_ops.AddN(inputs=[])"),
    # RGBToHSV/HSVToRGB: the kernel's channel check (seed 2020261201 #41)
    ("RGBToHSV of 2 channels", _A, _eager("tf.raw_ops.RGBToHSV(images=tf.constant([[-1.0, 0.001], [-1.5, -3.0]], "
                                          "tf.float64))")),
    ("RGBToHSV of 2 channels, tape", _A, _tape("tf.raw_ops.RGBToHSV(images=x)",
                                               "tf.constant([[-1.0, 0.001], [-1.5, -3.0]], tf.float64)")),
    ("HSVToRGB of 2 channels", _A, _eager("tf.raw_ops.HSVToRGB(images=tf.constant([-1.0, 0.001]))")),
    ("RGBToHSV values", _A, _eager("tf.raw_ops.RGBToHSV(images=tf.constant([[0.2, 0.5, 0.7], [1.0, 0.0, 0.25]], "
                                   "tf.float64))")),
    # kernel checks a raw call reaches (the tape classes: the forward already fails in TF)
    *_both("LRN depth_radius -1", _A, "tf.raw_ops.LRN(input=tf.zeros([1, 1, 0, 2]), bias=0.5, depth_radius=-1)"),
    *_both("LRN depth_radius -1 of rank 3", _A, "tf.raw_ops.LRN(input=tf.ones([1, 2, 2]), bias=0.5, depth_radius=-1)"),
    ("LRN depth_radius -1, tape", _A, _tape("tf.raw_ops.LRN(input=x, depth_radius=-1)", "tf.ones([1, 1, 2, 2])")),
    ("lrn depth_radius INT_MAX", _A, _eager("tf.nn.lrn(tf.ones([1, 1, 2, 2]), depth_radius=2**31-1)")),
    *_both("BiasAddGrad of a vector", _A, "tf.raw_ops.BiasAddGrad(out_backprop=tf.constant([7, 2, 1, 3], tf.uint64))"),
    ("BiasAddGrad of a vector, tape", _A, _tape("tf.raw_ops.BiasAddGrad(out_backprop=x)",
                                                "tf.constant([0.25, 0.75, -1.0, -1.5], tf.float64)")),
    ("MirrorPadGrad total paddings", _A, _eager("tf.raw_ops.MirrorPadGrad(input=tf.zeros([1, 2, 3], tf.float16), "
                                                "paddings=[[1, 1], [1, 1], [1, 1]], mode='SYMMETRIC')")),
    ("MirrorPadGrad SYMMETRIC 2 of 1, traced", _A, _traced(
        "tf.raw_ops.MirrorPadGrad(input=tf.zeros([4, 3]), paddings=[[2, 1], [0, 0]], mode='SYMMETRIC')")),
    ("MirrorPadGrad SYMMETRIC 2 of 1", _A, _eager("tf.raw_ops.MirrorPadGrad(input=tf.reshape(tf.range(12.), [4, 3]), "
                                                  "paddings=[[2, 1], [0, 0]], mode='SYMMETRIC')")),
    ("MirrorPadGrad REFLECT 2 of 1", _A, _eager("tf.raw_ops.MirrorPadGrad(input=tf.reshape(tf.range(12.), [4, 3]), "
                                                "paddings=[[1, 2], [0, 0]], mode='REFLECT')")),
    ("MirrorPadGrad negative", _A, _eager("tf.raw_ops.MirrorPadGrad(input=tf.reshape(tf.range(12.), [4, 3]), "
                                          "paddings=[[-1, 2], [0, 0]], mode='REFLECT')")),
    ("MirrorPadGrad values", _A, _eager("tf.raw_ops.MirrorPadGrad(input=tf.reshape(tf.range(12.), [4, 3]), "
                                        "paddings=[[1, 1], [0, 1]], mode='SYMMETRIC')")),
    # Lu: the kernel's square check, then Eigen's PartialPivLU and the smallest pivot (seed 2020261202 #150)
    *_both("Lu of [4,2]", _A, "tf.raw_ops.Lu(input=tf.constant([[4+7j, 0.75j], [0.25-1.5j, 1+0.001j], [2.5+0.5j, 1+4j], "
                              "[0.25-3j, 0.25]], tf.complex64), output_idx_type=tf.int32)"),
    ("Lu NaN first pivot", _A, _eager("tf.raw_ops.Lu(input=tf.constant([[np.nan, 1.], [1., 2.]]))")),
    ("Lu NaN off the pivot", _A, _eager("tf.raw_ops.Lu(input=tf.constant([[1., np.nan], [1., 2.]]))")),
    ("Lu NaN last pivot", _A, _eager("tf.raw_ops.Lu(input=tf.constant([[1., 2.], [3., np.nan]]))")),
    ("Lu NaN 3x3", _A, _eager("tf.raw_ops.Lu(input=tf.constant([[1., 2., 1.], [3., np.nan, 4.], [1., 1., 1.]], "
                              "tf.float64))")),
    ("Lu zero column", _A, _eager("tf.raw_ops.Lu(input=tf.constant([[0., 2., 1.], [0., 1., 4.], [0., 1., 1.]]))")),
    ("Lu int64 pivots", _A, _eager("tf.raw_ops.Lu(input=tf.constant([[1., 2., 1.], [3., 5., 4.], [1., 1., 7.]], "
                                   "tf.float64), output_idx_type=tf.int64)")),
    # the 2-D convolutions' CheckValidPadding, after the depthwise constructor's stride checks (seed 2020261202
    # #146, 20202612010 #36)
    *_both("Conv2D EXPLICIT without paddings", _A,
           "tf.raw_ops.Conv2D(input=tf.ones([1, 3, 2, 2], tf.float64), padding='EXPLICIT', explicit_paddings=[], "
           "filter=tf.ones([1, 3, 2, 2], tf.float64), strides=[1, 2, 3, 1], dilations=[1, 3, 1, 1])"),
    ("Conv2D EXPLICIT without paddings, tape", _A, _tape(
        "tf.raw_ops.Conv2D(input=x, padding='EXPLICIT', explicit_paddings=[], filter=tf.ones([1, 3, 2, 2], tf.float64), "
        "strides=[1, 2, 3, 1], dilations=[1, 3, 1, 1])", "tf.ones([1, 3, 2, 2], tf.float64)")),
    ("Conv2D VALID with paddings", _A, _eager(
        "tf.raw_ops.Conv2D(input=tf.ones([1, 3, 2, 2], tf.float64), padding='VALID', explicit_paddings=[1] * 8, "
        "filter=tf.ones([1, 3, 2, 2], tf.float64), strides=[1, 2, 3, 1])")),
    ("Conv2D negative padding", _A, _eager(
        "tf.raw_ops.Conv2D(input=tf.ones([1, 3, 2, 2], tf.float64), padding='EXPLICIT', explicit_paddings=[0, 0, -1, 1, "
        "1, 1, 0, 0], filter=tf.ones([1, 3, 2, 2], tf.float64), strides=[1, 2, 3, 1])")),
    ("Conv2D batch padding", _A, _eager(
        "tf.raw_ops.Conv2D(input=tf.ones([1, 3, 2, 2], tf.float64), padding='EXPLICIT', explicit_paddings=[1, 0, 1, 1, "
        "1, 1, 0, 0], filter=tf.ones([1, 3, 2, 2], tf.float64), strides=[1, 2, 3, 1])")),
    ("DepthwiseConv2dNative NCHW depth stride", _A, _eager(
        "tf.raw_ops.DepthwiseConv2dNative(padding='EXPLICIT', input=tf.ones([1, 2, 3, 3], tf.float64), "
        "filter=tf.ones([1, 1, 2, 1], tf.float64), data_format='NCHW', explicit_paddings=[1, 1, 0, 1, 0, 1, 1, 1], "
        "strides=[1, 2, 1, 1])")),
    ("DepthwiseConv2dNative NCHW batch padding", _A, _eager(
        "tf.raw_ops.DepthwiseConv2dNative(padding='EXPLICIT', input=tf.ones([1, 2, 3, 3], tf.float64), "
        "filter=tf.ones([1, 1, 2, 1], tf.float64), data_format='NCHW', explicit_paddings=[1, 1, 0, 1, 0, 1, 1, 1], "
        "strides=[1, 1, 1, 1])")),
    ("DepthwiseConv2dNative NCHW", _A, _eager(
        "tf.raw_ops.DepthwiseConv2dNative(padding='EXPLICIT', input=tf.ones([1, 2, 3, 3], tf.float64), "
        "filter=tf.ones([1, 1, 2, 1], tf.float64), data_format='NCHW', explicit_paddings=[0, 0, 0, 0, 0, 1, 1, 1], "
        "strides=[1, 1, 1, 1])")),
    *_both("DepthwiseConv2dNative unequal strides", _A, "tf.raw_ops.DepthwiseConv2dNative(padding='VALID', "
           "input=tf.ones([1, 3, 3, 2], tf.float64), filter=tf.ones([1, 1, 2, 1], tf.float64), strides=[1, 2, 1, 1])"),
    *_both("DepthwiseConv2dNative depth padding", _A, "tf.raw_ops.DepthwiseConv2dNative(padding='EXPLICIT', "
           "input=tf.ones([1, 3, 3, 2], tf.float64), filter=tf.ones([1, 1, 2, 1], tf.float64), "
           "explicit_paddings=[1, 1, 0, 1, 0, 1, 1, 1], strides=[1, 1, 1, 1])"),
    *_both("DepthwiseConv2dNativeBackpropInput VALID with paddings", _A,
           "tf.raw_ops.DepthwiseConv2dNativeBackpropInput(strides=[1, 1, 1, 1], padding='VALID', explicit_paddings=[1, "
           "0, 1, 0, 0, 0, 0, 0], input_sizes=[1, 1, 3, 1], filter=tf.ones([1, 1, 1, 1], tf.float64), "
           "out_backprop=tf.ones([1, 1, 3, 1], tf.float64))"),
    ("Conv2DBackpropFilter two paddings", _A, _eager(
        "tf.raw_ops.Conv2DBackpropFilter(strides=[1, 1, 1, 1], padding='EXPLICIT', explicit_paddings=[1, 0], "
        "filter_sizes=[1, 1, 1, 1], input=tf.ones([1, 1, 3, 1], tf.float64), out_backprop=tf.ones([1, 1, 3, 1], "
        "tf.float64))")),
    # RandomGammaGrad: Eigen's zero sample first (seed 2020261202 #139)
    *_both("RandomGammaGrad zero samples", _A,
           "tf.raw_ops.RandomGammaGrad(sample=tf.constant([0., 1., 0., 2., -0.0, 0.0, -1.0]), "
           "alpha=tf.constant([0.0, 0.0, 1.0, -1.0, 2.0, np.nan, 2.0]))"),
    # LowerBound/UpperBound: the kernel's rank and leading-dimension checks (seed 2020261202 #187)
    *_both("LowerBound of a scalar value", _A, "tf.raw_ops.LowerBound(sorted_inputs=tf.constant([[-4, 1, 2], [0, 1, 5]], "
                                               "tf.int64), values=tf.constant(-1, tf.int64))"),
    ("UpperBound leading dimensions", _A, _eager(
        "tf.raw_ops.UpperBound(sorted_inputs=tf.constant([[-4, 1, 2], [0, 1, 5]], tf.int64), "
        "values=tf.constant([[-1], [3], [2]], tf.int64))")),
    ("LowerBound of a vector", _A, _eager("tf.raw_ops.LowerBound(sorted_inputs=tf.constant([-4, 1, 2], tf.int64), "
                                          "values=tf.constant([1], tf.int64))")),
    # Unpack of no outputs: eagerly none, without the kernel's check; traced the shape function (seed 2020261201 #76)
    *_both("Unpack num 0 of [4,2]", _A, "tf.raw_ops.Unpack(value=tf.zeros([4, 2]), num=0)"),
    *_both("unstack num 3 of [4,2]", _A, "tf.unstack(tf.zeros([4, 2]), num=3)"),
    ("unstack num 0 of [4,2]", _A, _eager("tf.unstack(tf.zeros([4, 2]), num=0)")),
    # SoftmaxCrossEntropyWithLogits: labels broadcast first, then the shape must be a matrix (seed 2020261201 #201)
    *_both("SoftmaxCrossEntropyWithLogits scalar labels", _A,
           "tf.raw_ops.SoftmaxCrossEntropyWithLogits(features=tf.reshape(tf.range(12.0, dtype=tf.float64), [4, 3]), "
           "labels=tf.constant(2, tf.float64))"),
    ("SoftmaxCrossEntropyWithLogits vector logits", _A, _eager(
        "tf.raw_ops.SoftmaxCrossEntropyWithLogits(features=tf.reshape(tf.range(3.0, dtype=tf.float64), [3]), "
        "labels=tf.constant([[0], [0], [1], [0]], tf.float64))")),
    ("SoftmaxCrossEntropyWithLogits [4,3] and [2]", _A, _eager(
        "tf.raw_ops.SoftmaxCrossEntropyWithLogits(features=tf.reshape(tf.range(12.0, dtype=tf.float64), [4, 3]), "
        "labels=tf.constant([0, 1], tf.float64))")),
    ("SoftmaxCrossEntropyWithLogits vectors", _A, _eager(
        "tf.raw_ops.SoftmaxCrossEntropyWithLogits(features=tf.reshape(tf.range(3.0, dtype=tf.float64), [3]), "
        "labels=tf.constant([0, 0, 1], tf.float64))")),
    # MaxPoolGradWithArgmax: PoolParameters' rank check (seed 2020261201 #24)
    *_both("MaxPoolGradWithArgmax of rank 2", _A,
           "tf.raw_ops.MaxPoolGradWithArgmax(padding='VALID', strides=[1, 2, 2, 1], input=tf.ones([3, 4], tf.float64), "
           "include_batch_in_index=False, grad=tf.ones([3, 4], tf.float64), ksize=[1, 1, 3, 1], "
           "argmax=tf.constant([1, 1, 2], tf.int64))"),
    ("Unpack num 0 of [None,3], sig", _A, _sig("tf.raw_ops.Unpack(value=x, num=0)", ([None, 3], "float32"),
                                               "tf.ones([2, 3])")),
    ("DepthwiseConv2dNative NCHW batch padding, traced", _A, _traced(
        "tf.raw_ops.DepthwiseConv2dNative(padding='EXPLICIT', input=tf.ones([1, 2, 3, 3], tf.float64), "
        "filter=tf.ones([1, 1, 2, 1], tf.float64), data_format='NCHW', explicit_paddings=[1, 1, 0, 1, 0, 1, 1, 1], "
        "strides=[1, 2, 1, 1])")),
    ("DepthwiseConv2dNative unequal strides, no paddings, traced", _A, _traced(
        "tf.raw_ops.DepthwiseConv2dNative(explicit_paddings=[], strides=[1, 2, 1, 1], input=tf.ones([1, 3, 3, 2], "
        "tf.float64), padding='EXPLICIT', filter=tf.ones([1, 1, 2, 1], tf.float64))")),
    # a None list attr: the fast path's empty list, unless a list input sends the call to the fallback, whose
    # make_int list check refuses None (seed 2020261202 #277)
    ("Conv2DBackpropInput strides None, list input_sizes", _A, _eager(
        "tf.raw_ops.Conv2DBackpropInput(input_sizes=[1, 4], out_backprop=tf.ones([1, 2, 2, 1]), strides=None, "
        "padding='VALID', filter=tf.ones([1, 1, 1, 1]))")),
    ("MaxPool ksize None, list input", _A, _eager(
        "tf.raw_ops.MaxPool(input=[[[[1.0]]]], ksize=None, strides=[1, 1, 1, 1], padding='VALID')")),
    ("Conv2DBackpropInput strides None, tensor input_sizes", _A, _eager(
        "tf.raw_ops.Conv2DBackpropInput(input_sizes=tf.constant([1, 4]), out_backprop=tf.ones([1, 2, 2, 1]), "
        "strides=None, padding='VALID', filter=tf.ones([1, 1, 1, 1]))")),
    # Dilation2D: the constructor's stride and rate checks before the inputs' (seed 2020261202 #142)
    ("Dilation2D batch stride of a rank-3 input", _A, _eager(
        "tf.raw_ops.Dilation2D(rates=[1, 3, 1, 1], padding='SAME', strides=[1, 2, 1, 2], input=tf.ones([3, 3, 2]), "
        "filter=tf.ones([1, 1, 2]))")),
    ("Dilation2D depth rate", _A, _eager(
        "tf.raw_ops.Dilation2D(rates=[1, 1, 1, 2], padding='SAME', strides=[1, 1, 1, 1], input=tf.ones([1, 3, 3, 2]), "
        "filter=tf.ones([1, 1, 2]))")),
    ("Dilation2DBackpropInput batch stride", _A, _eager(
        "tf.raw_ops.Dilation2DBackpropInput(rates=[1, 1, 1, 1], padding='SAME', strides=[2, 1, 1, 1], "
        "input=tf.ones([1, 3, 3, 2]), filter=tf.ones([1, 1, 2]), out_backprop=tf.ones([1, 3, 3, 2]))")),
    # Reshape: no negative size but one -1 (ValidateSizes; the shape function's ValueError traced; seed 2020261201 #209)
    *_both("Reshape to [-2,3,2,4]", _A, "tf.raw_ops.Reshape(tensor=tf.range(72), shape=[-2, 3, 2, 4])"),
    ("reshape to [3,-3,2,4]", _A, _eager("tf.reshape(tf.range(72), [3, -3, 2, 4])")),
    # op_def_library's type-attr inference in a graph: the first input fixes it (seed 2020261201 #215)
    ("Slice begin [] size int64, traced", _A, _traced(
        "tf.raw_ops.Slice(begin=[], input=tf.constant(3, tf.int8), size=tf.constant([], tf.int64))")),
    *_both("Slice begin [0] size int64", _A,
           "tf.raw_ops.Slice(begin=[0], input=tf.constant([3], tf.int8), size=tf.constant([1], tf.int64))"),
    *_both("AddV2 of [1.5] and a float64 tensor", _A, "tf.raw_ops.AddV2(x=[1.5], y=tf.constant([2.0], tf.float64))"),
    ("Slice begin tensor size [1], traced", _A, _traced(
        "tf.raw_ops.Slice(begin=tf.constant([0]), input=tf.constant([3], tf.int8), size=[1])")),
    # argmax of a complex scalar: the op def's T before the kernel's range (fz14 seed 1420262001 #173)
    *_both("argmax of a complex128 scalar", _ATTR, "tf.argmax(np.array(complex(0.001, 1.0), dtype=np.complex128))"),
    ("argmin of a complex64 scalar, traced", _ATTR, _traced("tf.math.argmin(np.array(1+1j, dtype=np.complex64))")),
    # conv transposes in a graph: op_def_library's type checks before the shape function (fz14 seed 1420262001 #87)
    ("conv1d_transpose int8 filter, traced", _ATTR, _traced(
        "tf.nn.conv1d_transpose(input=tf.ones([1, 3, 2]), filters=np.int8(2), output_shape=np.array([0, 3, 2], "
        "dtype=np.int64), strides=tf.TensorShape([0, 3, 2]), padding='VALID')")),
    ("conv2d_transpose float64 input float32 filter, traced", _ATTR, _traced(
        "tf.nn.conv2d_transpose(tf.ones([1, 3, 3, 2], tf.float64), tf.ones([1, 1, 2, 2]), [1, 3, 3, 2], 1)")),
    ("RandomGammaGrad infinite alpha", _A, _eager(
        "tf.raw_ops.RandomGammaGrad(sample=tf.constant([0, 1, 2, 1e30], tf.float64), alpha=tf.constant([[[np.inf]]], "
        "tf.float64))")),
    # Slice's gradient of a scalar (seed 2020261202 #228)
    ("Slice of a complex64 scalar, tape", _A, _tape(
        "tf.raw_ops.Slice(size=tf.constant([], tf.int32), input=x, begin=tf.constant([], tf.int32))",
        "tf.constant(np.complex64(1+2j))")),
]

EDGES = edge_compare.EdgeModule(__file__, CASES)


@pytest.fixture(scope="module")
def tf_results() -> dict[int, Any]:
    return EDGES.tf_answers()


@clause("ops.attr-types")
@EDGES.parametrize("ops.attr-types")
def test_conversion_rules(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


@clause("ops.fuzz-raw")
@EDGES.parametrize("ops.fuzz-raw")
def test_raw_call_rules(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


def test_every_case_has_a_test() -> None:
    untested = EDGES.untested()
    assert not untested, f"cases of groups {untested} have no test function above"


if __name__ == "__main__":  # TF worker: python test_rawfz21_tf.py 0,1,2 -> pickled results on stdout
    tf_workers.serve(EDGES.tf_worker)
