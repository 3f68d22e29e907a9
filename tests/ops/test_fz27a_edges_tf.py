"""Rules behind the twentieth fuzzer's classes that fz27a closed (the fresh campaigns eager seed
2720261201, tape seed 2720261202, sig seed 2720261203, eager seed 2720261204, and the classes of
tests/fuzz20/fz20_seen.py), each against real TensorFlow 2.21: the same raw call on both backends
gives the same dtype and values bit for bit, or raises the same exception class. Eagerly, inside a
tf.function, with an input_signature (`sig`), and under a GradientTape. Needs the `tf` extra.
"""

from __future__ import annotations

from typing import Any, Callable

import numpy as np
import pytest

import edge_compare
from edge_programs import eager as _eager, sig as _sig
import tf_workers

pytestmark = [pytest.mark.tf, tf_workers.tf_or_golden(__file__)]
clause = pytest.mark.clause

_T = "function.trace-time-errors"
_K = "ops.fuzz-raw"
_G = "autodiff.op-gradients"

# seeded random operands (NumPy's generator: the same values on both backends)
_RND = "np.random.default_rng({seed}).standard_normal({shape}) * 10.0 ** np.random.default_rng({seed} + 1).integers(-3, 4, {shape})"
_CRND = "(" + _RND + " + 1j * np.random.default_rng({seed} + 2).standard_normal({shape}))"
_MTS = "tf.raw_ops.MatrixTriangularSolve(matrix=tf.constant({a}, tf.{dt}), rhs=tf.constant({b}, tf.{dt}), " \
       "lower={lower}, adjoint={adj})"


def _mts(dt: str, n: int, k: int, lower: bool, adj: bool, seed: int, batch: int = 2) -> Callable[[Any], Any]:
    rnd = _CRND if dt.startswith("complex") else _RND
    return _eager(_MTS.format(a=rnd.format(seed=seed, shape=(batch, n, n)), b=rnd.format(seed=seed + 7, shape=(batch, n, k)),
                              dt=dt, lower=lower, adj=adj))


_SUB32 = "9.99994610111476e-41"
_ISO = "tf.raw_ops.IsotonicRegression(input=tf.constant({}, tf.{}), output_dtype=tf.{})"
_ISO_ROWS = "[[7.0, 7.0, {s}], [{s}, 0.0, -{s}], [0.0, {s}, 1.5 * {s}], [-{s}, {s}, 2 * {s}], [{s}, 1e30, 3.0]]"

def _tape(expr: str) -> Callable[[Any], Any]:
    """The gradient of `expr` (a raw call on `x`, a watched float32 [2, 4]) w.r.t. x under a GradientTape:
    TF's registry decides between a gradient, None (not differentiable) and LookupError (no entry)."""
    def run(tf: Any) -> Any:
        x = tf.constant(np.linspace(0.5, 2.0, 8).reshape(2, 4).astype(np.float32))
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = eval(expr, {"tf": tf, "np": np, "x": x})  # noqa: S307 - our own text
        g = tape.gradient(y, x)
        return [y, tf.constant(True) if g is None else g]   # (None: not differentiable)
    return run


_IMG = "tf.reshape(tf.concat([x, x], 0), [1, 4, 4, 1])"

_DWI = "tf.raw_ops.DepthwiseConv2dNativeBackpropInput(input_sizes={isz}, " \
       "filter=tf.reshape(tf.cast(tf.range(np.prod({fs})), tf.{dt}), {fs}), out_backprop=tf.ones({ds}, tf.{dt}), " \
       "strides={st}, dilations={dl}, padding='SAME')"
_DWF = "tf.raw_ops.DepthwiseConv2dNativeBackpropFilter(input=tf.reshape(tf.cast(tf.range(np.prod({isz})), tf.{dt}), " \
       "{isz}), filter_sizes={fs}, out_backprop=tf.ones({ds}, tf.{dt}), strides={st}, dilations={dl}, padding='SAME')"


def _dw(dt: str, isz: list, fs: list, ds: list, st: list, dl: list, grad_filter: bool = False) -> Callable[[Any], Any]:
    return _eager((_DWF if grad_filter else _DWI).format(dt=dt, isz=isz, fs=fs, ds=ds, st=st, dl=dl))


CASES: list[tuple[str, str, Callable[[Any], Any]]] = [
    # MatrixTriangularSolve: Eigen's trsmKernelR, each unknown times the diagonal's reciprocal
    # (fz20_seen: seed 2620261205 #112; eigen_trsm.py)
    ("MatrixTriangularSolve complex128 1x1 upper", _K, _eager(
        "tf.raw_ops.MatrixTriangularSolve(rhs=tf.constant([[[7.0 + 2.5j]]], tf.complex128), "
        "matrix=tf.constant([[[-3.0 + 0.75j]]], tf.complex128), lower=False)")),
    ("MatrixTriangularSolve complex128 1x1 adjoint", _K, _eager(
        "tf.raw_ops.MatrixTriangularSolve(rhs=tf.constant([[[7.0 + 2.5j]]], tf.complex128), "
        "matrix=tf.constant([[[-3.0 + 0.75j]]], tf.complex128), adjoint=True)")),
    ("MatrixTriangularSolve float32 4x4 lower", _K, _mts("float32", 4, 2, True, False, 11)),
    ("MatrixTriangularSolve float32 7x7 upper adjoint", _K, _mts("float32", 7, 3, False, True, 12)),
    ("MatrixTriangularSolve float64 5x5 upper", _K, _mts("float64", 5, 1, False, False, 13)),
    ("MatrixTriangularSolve float64 8x8 lower adjoint", _K, _mts("float64", 8, 2, True, True, 14)),
    ("MatrixTriangularSolve complex64 3x3 lower", _K, _mts("complex64", 3, 2, True, False, 15)),
    ("MatrixTriangularSolve complex64 6x6 upper adjoint", _K, _mts("complex64", 6, 1, False, True, 16)),
    ("MatrixTriangularSolve complex128 4x4 upper", _K, _mts("complex128", 4, 3, False, False, 17)),
    ("MatrixTriangularSolve complex128 2x2 lower adjoint", _K, _mts("complex128", 2, 2, True, True, 18)),
    # PartialPivLU::solve's triangular solves in trsmKernelR's order (fz20_seen: tape seed 2620261202 #54, seed
    # 2620261204 #55)
    ("MatrixInverse float32 adjoint", _K, _eager(
        "tf.raw_ops.MatrixInverse(adjoint=True, input=tf.constant([[[1.0, 0.5, 2.5, 2.5], [-0.5, 0.25, 0.25, 0.0], "
        "[1.0, 7.0, 0.001, -0.5], [-0.5, 1.0, 0.5, 0.25]], [[-0.5, 1.0, 0.001, 0.5], [-0.0, 4.0, 0.0, 1.0], "
        "[1.0, -1.0, 7.0, 7.0], [-1.5, 1.0, 0.75, 0.0]]]))")),
    ("MatrixInverse float64 6x6", _K, _eager("tf.raw_ops.MatrixInverse(input=tf.constant(" +
                                              _RND.format(seed=21, shape=(2, 6, 6)) + "))")),
    ("MatrixInverse float32 12x12 adjoint", _K, _eager("tf.raw_ops.MatrixInverse(adjoint=True, input=tf.constant(" +
                                                        _RND.format(seed=22, shape=(1, 12, 12)) + ", tf.float32))")),
    ("MatrixInverse complex128 1x1", _K, _eager("tf.raw_ops.MatrixInverse(input=tf.constant([[[-3.0 + 0.75j]]]))")),
    ("MatrixSolve float64, an infinite rhs", _K, _eager(
        "tf.raw_ops.MatrixSolve(matrix=tf.constant([[[4.0, 0.0, 2.5, 1.0], [1.0, 4.0, -1.0, -0.5], [7.0, -1.0, 7.0, "
        "-0.5], [0.0, -1.5, -1.5, 0.0]], [[2.5, 4.0, -0.0, 0.001], [-3.0, 0.5, 0.25, 2.5], [-3.0, -0.0, 0.5, 2.5], "
        "[-0.5, 2.5, 0.0, 7.0]]]), rhs=tf.constant([[[5e-324, -1e-45, -1.0, 1e-310], [1e-310, -1.0, 5e-324, -0.5], "
        "[float('inf'), 7.0, 5e-324, 2.5], [1.0, -0.0, 1.0, -0.0]], [[float('inf'), 1e300, 0.0, -1e-45], "
        "[float('inf'), -1.5, 1.0, -1.0], [5e-324, -1e-45, 0.0, 0.001], [-3.4e38, 0.0, -1e-45, 0.0]]]))")),
    ("MatrixSolve float32 5x5 adjoint", _K, _eager(
        "tf.raw_ops.MatrixSolve(adjoint=True, matrix=tf.constant(" + _RND.format(seed=23, shape=(2, 5, 5)) +
        ", tf.float32), rhs=tf.constant(" + _RND.format(seed=24, shape=(2, 5, 3)) + ", tf.float32))")),
    ("MatrixInverse float32 gradient", _G, _tape("tf.raw_ops.MatrixInverse(adjoint=True, input=tf.reshape("
                                                  "tf.concat([x, tf.reverse(x, [1]) * 3.0], 0), [1, 4, 4]))")),
    # IsotonicRegression under DAZ: a one-point segment keeps its input's bits, the comparisons and sums
    # read subnormals as zeros (seed 2720261201 #19)
    ("IsotonicRegression float32 subnormals", _K, _eager(_ISO.format(_ISO_ROWS.format(s=_SUB32), "float32", "float32"))),
    ("IsotonicRegression float64 subnormals", _K, _eager(_ISO.format(_ISO_ROWS.format(s="1e-310"), "float64", "float64"))),
    ("IsotonicRegression bfloat16 subnormals", _K, _eager(_ISO.format(_ISO_ROWS.format(s=_SUB32), "bfloat16",
                                                                       "bfloat16"))),
    # SplitV in a graph: the shape function's scalar split_dim (a constant's), nothing more of an unknown rank,
    # then Grappler's Identity for num_split 1; eagerly the kernel reads a split_dim of one element
    # (sig seed 2720261203 #167)
    ("SplitV num_split 1, two sizes, unknown rank, sig", _T, _sig(
        "tf.raw_ops.SplitV(axis=-3, num_split=1, size_splits=tf.constant([3, 1], tf.int8), value=x)",
        (None, "bfloat16"), "tf.cast(tf.reshape(tf.range(32.0), [4, 4, 2]), tf.bfloat16)")),
    ("SplitV num_split 2, one size, unknown rank, sig", _T, _sig(
        "tf.raw_ops.SplitV(axis=0, num_split=2, size_splits=tf.constant([3], tf.int32), value=x)",
        (None, "float32"), "tf.ones([4, 4, 2])")),
    ("SplitV num_split 1, two sizes, known rank, sig", _T, _sig(
        "tf.raw_ops.SplitV(axis=-3, num_split=1, size_splits=tf.constant([3, 1], tf.int32), value=x)",
        ([None, 4, 2], "float32"), "tf.ones([4, 4, 2])")),
    ("SplitV num_split 1, sizes of another sum, sig", _T, _sig(
        "tf.raw_ops.SplitV(axis=0, num_split=1, size_splits=[5], value=x)", ([4, 2], "float32"), "tf.ones([4, 2])")),
    ("SplitV num_split 1 of a scalar, sig", _T, _sig(
        "tf.raw_ops.SplitV(axis=0, num_split=1, size_splits=[5], value=x)", ([], "float32"), "tf.constant(1.0)")),
    ("SplitV axis [1], sig", _T, _sig("tf.raw_ops.SplitV(value=x, num_split=2, size_splits=[-2, 1], axis=[1])",
                                      ([None, 2], "bfloat16"), "tf.ones([3, 2], tf.bfloat16)")),
    ("SplitV axis [1] of unknown rank, sig", _T, _sig(
        "tf.raw_ops.SplitV(value=x, num_split=2, size_splits=[-1, 1], axis=[1])", (None, "float32"), "tf.ones([3, 2])")),
    ("SplitV axis [1] eagerly", _K, _eager(
        "tf.raw_ops.SplitV(value=tf.reshape(tf.range(6.0), [3, 2]), num_split=2, size_splits=[-1, 1], axis=[1])")),
    ("SplitV axis [1, 0] eagerly", _K, _eager(
        "tf.raw_ops.SplitV(value=tf.ones([3, 2]), num_split=2, size_splits=[-1, 1], axis=[1, 0])")),
    # SoftmaxCrossEntropyWithLogits' shape function: a broadcast of unknown rank fails (sig seed 2720261203 #141)
    ("SoftmaxCrossEntropyWithLogits labels [0], features of unknown rank, sig", _T, _sig(
        "tf.raw_ops.SoftmaxCrossEntropyWithLogits(labels=tf.constant([], tf.float64), features=x)", (None, "float64"),
        "tf.constant([], tf.float64)")),
    ("SoftmaxCrossEntropyWithLogits labels [3], features of unknown rank, sig", _T, _sig(
        "tf.raw_ops.SoftmaxCrossEntropyWithLogits(labels=tf.ones([3]), features=x)", (None, "float32"),
        "tf.ones([2, 3])")),
    ("SoftmaxCrossEntropyWithLogits labels [1, 3], features of unknown rank, sig", _T, _sig(
        "tf.raw_ops.SoftmaxCrossEntropyWithLogits(labels=tf.ones([1, 3]), features=x)", (None, "float32"),
        "tf.ones([2, 3])")),
    ("SoftmaxCrossEntropyWithLogits labels of unknown rank, features [3], sig", _T, _sig(
        "tf.raw_ops.SoftmaxCrossEntropyWithLogits(labels=x, features=tf.ones([3]))", (None, "float32"),
        "tf.ones([2, 3])")),
    # MaxPool/MaxPool3D channels-first: oneDNN only with 1 in the batch and channel places, else TF's own
    # kernel's layout refusal (eager seed 2720261204 #25)
    ("MaxPool3D NCDHW batch window, scalar", _K, _eager(
        "tf.raw_ops.MaxPool3D(ksize=[2, 2, 1, 1, 1], data_format='NCDHW', input=tf.constant(4.0), padding='VALID', "
        "strides=[1, 2, 2, 1, 1])")),
    ("MaxPool3D NCDHW channel stride", _K, _eager(
        "tf.raw_ops.MaxPool3D(ksize=[1, 1, 1, 1, 1], data_format='NCDHW', input=tf.ones([1, 2, 2, 2, 2]), "
        "padding='VALID', strides=[1, 2, 1, 1, 1])")),
    ("MaxPool NCHW batch stride bfloat16", _K, _eager(
        "tf.raw_ops.MaxPool(ksize=[1, 1, 1, 1], data_format='NCHW', input=tf.ones([1, 2, 2, 2], tf.bfloat16), "
        "padding='VALID', strides=[2, 1, 1, 1])")),
    ("MaxPool3D NCDHW", _K, _eager(
        "tf.raw_ops.MaxPool3D(ksize=[1, 1, 1, 2, 1], data_format='NCDHW', "
        "input=tf.reshape(tf.range(16.0), [1, 2, 2, 2, 2]), padding='VALID', strides=[1, 1, 1, 1, 1])")),
    ("MaxPool3D rank 4 empty, bfloat16", _K, _eager(
        "tf.raw_ops.MaxPool3D(ksize=[1, 1, 2, 3, 1], padding='SAME', input=tf.zeros([0, 2, 3, 2], tf.bfloat16), "
        "strides=[1, 1, 1, 3, 1])")),
    ("MaxPool3D rank 4 empty rows, VALID", _K, _eager(
        "tf.raw_ops.MaxPool3D(ksize=[1, 3, 1, 3, 1], padding='VALID', input=tf.zeros([1, 0, 2, 3]), "
        "strides=[1, 2, 1, 2, 1])")),
    ("AvgPool3D rank 4 empty, VALID", _K, _eager(
        "tf.raw_ops.AvgPool3D(ksize=[1, 1, 1, 2, 1], padding='VALID', input=tf.zeros([0, 2, 3, 4]), "
        "strides=[1, 2, 1, 3, 1])")),
    ("AvgPool3D rank 4 empty, negative size", _K, _eager(
        "tf.raw_ops.AvgPool3D(ksize=[1, 3, 2, 3, 1], padding='VALID', input=tf.zeros([0, 4, 1, 2]), "
        "strides=[1, 3, 3, 1, 1])")),
    ("AvgPool3D NCDHW batch window, scalar", _K, _eager(
        "tf.raw_ops.AvgPool3D(ksize=[2, 2, 1, 1, 1], data_format='NCDHW', input=tf.constant(4.0), padding='VALID', "
        "strides=[1, 2, 2, 1, 1])")),
    # AsString of strings: unchanged without a width, else %s with the precision; no dtype checks (seed
    # 2720261204 #140)
    ("AsString string scientific", _K, _eager(
        "tf.raw_ops.AsString(scientific=True, fill='', input=tf.reshape(tf.constant([b'a'], tf.string), []))")),
    ("AsString string precision", _K, _eager(
        "tf.raw_ops.AsString(precision=1, input=tf.constant([b'abc', b'', b'x\\x00y']))")),
    ("AsString string precision and width", _K, _eager(
        "tf.raw_ops.AsString(precision=2, width=5, input=tf.constant([b'abc', b'', b'x\\x00y']))")),
    ("AsString string shortest, left", _K, _eager(
        "tf.raw_ops.AsString(shortest=True, width=4, fill='-', input=tf.constant([b'abc', b'x\\x00y']))")),
    ("AsString string scientific and shortest", _K, _eager(
        "tf.raw_ops.AsString(shortest=True, scientific=True, input=tf.constant([b'abc']))")),
    # oneDNN's depthwise backprops (float32, bfloat16): unequal strides computed, dilations unread, an
    # out_backprop of another shape AbortedError (fz20_seen: seed 2620261205 #103)
    ("DepthwiseConv2dNativeBackpropInput float32 unequal strides", _K, _dw(
        "float32", [2, 4, 6, 2], [2, 2, 2, 1], [2, 2, 2, 2], [1, 2, 3, 1], [1, 1, 1, 1])),
    ("DepthwiseConv2dNativeBackpropFilter float32 unequal strides", _K, _dw(
        "float32", [2, 4, 6, 2], [2, 2, 2, 1], [2, 2, 2, 2], [1, 2, 3, 1], [1, 1, 1, 1], True)),
    ("DepthwiseConv2dNativeBackpropInput bfloat16 unequal strides, dilations of 3", _K, _dw(
        "bfloat16", [2, 4, 6, 2], [2, 2, 2, 1], [2, 2, 2, 2], [1, 2, 3, 1], [1, 1, 2])),
    ("DepthwiseConv2dNativeBackpropInput float32 dilations of 3", _K, _dw(
        "float32", [2, 4, 4, 2], [2, 2, 2, 1], [2, 2, 2, 2], [1, 2, 2, 1], [1, 1, 2])),
    ("DepthwiseConv2dNativeBackpropInput float32 dilation 2", _K, _dw(
        "float32", [2, 4, 4, 2], [2, 2, 2, 1], [2, 2, 2, 2], [1, 2, 2, 1], [1, 2, 2, 1])),
    ("DepthwiseConv2dNativeBackpropFilter float32 dilation 2", _K, _dw(
        "float32", [2, 4, 4, 2], [2, 2, 2, 1], [2, 2, 2, 2], [1, 2, 2, 1], [1, 2, 2, 1], True)),
    ("DepthwiseConv2dNativeBackpropInput float64 dilation 2", _K, _dw(
        "float64", [2, 4, 4, 2], [2, 2, 2, 1], [2, 2, 2, 2], [1, 2, 2, 1], [1, 2, 2, 1])),
    ("DepthwiseConv2dNativeBackpropInput float64 unequal strides", _K, _dw(
        "float64", [2, 4, 6, 2], [2, 2, 2, 1], [2, 2, 2, 2], [1, 2, 3, 1], [1, 1, 1, 1])),
    ("DepthwiseConv2dNativeBackpropInput float32 out_backprop depth", _K, _dw(
        "float32", [2, 4, 4, 2], [2, 2, 2, 1], [2, 2, 2, 3], [1, 2, 2, 1], [1, 1, 1, 1])),
    ("DepthwiseConv2dNativeBackpropFilter float32 out_backprop batch", _K, _dw(
        "float32", [2, 4, 4, 2], [2, 2, 2, 1], [3, 2, 2, 2], [1, 2, 2, 1], [1, 1, 1, 1], True)),
    ("DepthwiseConv2dNativeBackpropInput float64 out_backprop depth", _K, _dw(
        "float64", [2, 4, 4, 2], [2, 2, 2, 1], [2, 2, 2, 3], [1, 2, 2, 1], [1, 1, 1, 1])),
    # the 3-D backprops' constructor checks before the ranks and the layout, InvalidArgumentError
    # (eager seed 2720261201 #33)
    ("Conv3DBackpropInputV2 float32 NCDHW channel stride, rank 2", _K, _eager(
        "tf.raw_ops.Conv3DBackpropInputV2(data_format='NCDHW', padding='SAME', strides=[1, 2, 1, 3, 1], "
        "input_sizes=[4, 2], out_backprop=tf.ones([4, 2]), filter=tf.ones([4, 2]))")),
    ("Conv3DBackpropFilterV2 bfloat16 NCDHW batch stride", _K, _eager(
        "tf.raw_ops.Conv3DBackpropFilterV2(data_format='NCDHW', padding='SAME', strides=[2, 1, 1, 1, 1], "
        "filter_sizes=[1, 1, 1, 1, 1], out_backprop=tf.ones([1, 1, 2, 2, 2], tf.bfloat16), "
        "input=tf.ones([1, 1, 2, 2, 2], tf.bfloat16))")),
    ("Conv3DBackpropInputV2 float32 NDHWC batch stride, rank 2", _K, _eager(
        "tf.raw_ops.Conv3DBackpropInputV2(padding='SAME', strides=[2, 1, 1, 1, 1], input_sizes=[4, 2], "
        "out_backprop=tf.ones([4, 2]), filter=tf.ones([4, 2]))")),
    ("Conv3DBackpropInputV2 float64 NDHWC batch stride, rank 2", _K, _eager(
        "tf.raw_ops.Conv3DBackpropInputV2(padding='SAME', strides=[2, 1, 1, 1, 1], input_sizes=[4, 2], "
        "out_backprop=tf.ones([4, 2], tf.float64), filter=tf.ones([4, 2], tf.float64))")),
    ("Conv3DBackpropFilterV2 float64 NDHWC batch dilation", _K, _eager(
        "tf.raw_ops.Conv3DBackpropFilterV2(padding='SAME', strides=[1, 1, 1, 1, 1], dilations=[2, 1, 1, 1, 1], "
        "filter_sizes=[1, 1, 1, 1, 1], out_backprop=tf.ones([1, 2, 2, 2, 1], tf.float64), "
        "input=tf.ones([1, 2, 2, 2, 1], tf.float64))")),
    ("Conv3DBackpropInputV2 float32 NDHWC batch dilation", _K, _eager(
        "tf.raw_ops.Conv3DBackpropInputV2(padding='SAME', strides=[1, 1, 1, 1, 1], dilations=[2, 1, 1, 1, 1], "
        "input_sizes=[1, 2, 2, 2, 1], out_backprop=tf.reshape(tf.range(8.0), [1, 2, 2, 2, 1]), "
        "filter=tf.ones([1, 1, 1, 1, 1]))")),
    # GatherV2's kernel: the axis at or after batch_dims, also in a graph (fresh seed 2720261205 #121)
    ("GatherV2 batch_dims 1 after axis 0", _K, _eager(
        "tf.raw_ops.GatherV2(axis=tf.constant(0, tf.int32), params=tf.reshape(tf.range(18.0), [3, 3, 2]), "
        "batch_dims=1, indices=tf.constant([0, 0, 0], tf.int16))")),
    ("GatherV2 batch_dims 1, axis -3", _K, _eager(
        "tf.raw_ops.GatherV2(axis=-3, params=tf.reshape(tf.range(18.0), [3, 3, 2]), batch_dims=1, "
        "indices=tf.constant([[0], [1], [2]]))")),
    ("GatherV2 batch_dims 1 after axis 0, sig", _T, _sig(
        "tf.raw_ops.GatherV2(axis=tf.constant(0, tf.int32), params=x, batch_dims=1, indices=tf.constant([0, 0, 0]))",
        ([3, 3, 2], "float32"), "tf.reshape(tf.range(18.0), [3, 3, 2])")),
    # complex MulNoNan: Eigen's product (packets, Annex G's tail) under DAZ/FTZ (fresh seed 2720261205 #21)
    ("MulNoNan complex128", _K, _eager(
        "tf.raw_ops.MulNoNan(x=tf.constant([complex('nan-1e-45j'), -0.5-3.4e38j, 5e-324+3e38j, 0.75+0j, 1+1j, 2-1j, "
        "complex('inf+2j')], tf.complex128), y=tf.constant([complex('inf+3e38j'), 0.25+1e-40j, -1+1e-310j, "
        "1e-310+0j, 0j, 1e300+0.001j, 1e-310-1.5j], tf.complex128))")),
    ("MulNoNan complex64", _K, _eager(
        "tf.raw_ops.MulNoNan(x=tf.constant([complex('nan-1e-45j'), -0.5-3.4e38j, 1e-40+3e38j, 0.75+0j, 1+1j, 2-1j, "
        "complex('inf+2j')], tf.complex64), y=tf.constant([complex('inf+3e38j'), 0.25+1e-40j, -1+1e-41j, "
        "1e-41+0j, 0j, 1e30+0.001j, 1e-41-1.5j], tf.complex64))")),
    # gradients TF 2.21's registry has no entry for (LookupError) or holds None for (tape seed 2720261202 #111)
    ("ResizeBicubicGrad under a tape", _G, _tape(f"tf.raw_ops.ResizeBicubicGrad(grads={_IMG}, "
                                                 "original_image=tf.ones([1, 2, 2, 1]))")),
    ("ResizeNearestNeighborGrad under a tape", _G, _tape(f"tf.raw_ops.ResizeNearestNeighborGrad(grads={_IMG}, "
                                                         "size=[2, 2])")),
    ("ScaleAndTranslateGrad under a tape", _G, _tape(
        f"tf.raw_ops.ScaleAndTranslateGrad(grads={_IMG}, original_image=tf.ones([1, 2, 2, 1]), scale=[2.0, 2.0], "
        "translation=[0.0, 0.0])")),
    ("SparseSegmentSumGrad under a tape", _G, _tape(
        "tf.raw_ops.SparseSegmentSumGrad(grad=x, indices=[0, 1], segment_ids=[0, 1], output_dim0=3)")),
    ("SparseSegmentSqrtNGrad under a tape", _G, _tape(
        "tf.raw_ops.SparseSegmentSqrtNGrad(grad=x, indices=[0, 1], segment_ids=[0, 1], output_dim0=3)")),
    ("FakeQuantWithMinMaxArgsGradient under a tape", _G, _tape(
        "tf.raw_ops.FakeQuantWithMinMaxArgsGradient(gradients=x, inputs=x)")),
    ("FakeQuantWithMinMaxVarsGradient under a tape", _G, _tape(
        "tf.raw_ops.FakeQuantWithMinMaxVarsGradient(gradients=x, inputs=x, min=0.0, max=1.0)[0]")),
    ("DenseCountSparseOutput under a tape", _G, _tape(
        "tf.raw_ops.DenseCountSparseOutput(values=[1, 5, 1], weights=x[0, :3], binary_output=False)[1]")),
    ("SparseCountSparseOutput under a tape", _G, _tape(
        "tf.raw_ops.SparseCountSparseOutput(indices=tf.constant([[0], [1], [2]], tf.int64), values=[1, 5, 1], "
        "dense_shape=tf.constant([3], tf.int64), weights=x[0, :3], binary_output=False)[1]")),
    ("StringFormat under a tape", _G, _tape("tf.raw_ops.StringFormat(inputs=[x])")),
    ("ResizeBilinearGrad under a tape", _G, _tape(f"tf.raw_ops.ResizeBilinearGrad(grads={_IMG}, "
                                                  "original_image=tf.ones([1, 2, 2, 1]))")),
    ("AsString int32 scientific and shortest", _K, _eager(
        "tf.raw_ops.AsString(shortest=True, scientific=True, input=tf.constant([1, 2]))")),
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


if __name__ == "__main__":  # TF worker: python test_fz27a_edges_tf.py 0,1,2 -> pickled results on stdout
    tf_workers.serve(EDGES.tf_worker)
