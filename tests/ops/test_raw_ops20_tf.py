"""The raw ops session 20 added to `tf.raw_ops` (clause ops.raw-ops) against real TensorFlow 2.21: the
raw ops simdist computes as compositions (runtime/ops/raw_compositions.py: BroadcastGradientArgs,
Range, Select, ShapeN, Split, SqrtGrad, RsqrtGrad, ReciprocalGrad, ParallelDynamicStitch, NoOp,
the key-and-counter stateless random ops of raw_stateless.py) and the registered ops bound in
runtime/ops/raw_forms_more.py (StridedSliceGrad, Real, Imag, Angle, ComplexAbs, Complex, the FFT
family, Eig, MatrixLogarithm, the Unicode and string ops, ExtractGlimpseV2, the stateful and
stateless random ops): values of the kernels' forms (Select's scalar, batch and elementwise
conditions, BCast's all-ones axes, a random kernel's stream across calls), the kernels' argument
checks and the type attrs a caller gives (error classes), the wrappers' argument errors (their
TypeError texts), and a sample traced and differentiated. Also the generic check of an OpDef's
allowed types (Sum's and Cumsum's float axis), the shape checks of TF's elementwise kernels
(runtime/ops/raw_shapes.py), tf.split's split_dim range and tf.as_dtype's string names. Needs the
`tf` extra, or this module's golden.

Values are compared within 1e-5 relative (float16 1e-3; Eig and MatrixLogarithm 1e-4: LAPACK's
against Eigen's): these cases check that a raw call reaches the computation with TF's arguments.
"""

from __future__ import annotations

from typing import Any, Callable

import numpy as np
import pytest

import edge_compare
import tf_workers

pytestmark = [pytest.mark.tf, tf_workers.tf_or_golden(__file__)]
clause = pytest.mark.clause


def _eager(expr: str) -> Callable[[Any], Any]:
    """`expr` of `tf`, `R` (tf.raw_ops), `C` (a complex64 vector), `LG` (2x3 logits) and `KC` (the
    keyword arguments key and counter of StatelessRandomGetKeyCounter(seed=[1, 2])), eagerly."""
    def run(tf: Any) -> Any:
        tf.constant(1.0) + 1.0   # (a first op: TF's very first call in a process takes the slow path)
        scope = {"tf": tf, "np": np, "R": tf.raw_ops, "C": tf.constant([1 + 2j, -3 - 0.5j], tf.complex64)}
        scope["LG"] = tf.constant([[0.5, 1.0, -1.0], [2.0, 0.0, 0.25]])   # (logits)
        if "KC" in expr:   # (the key and counter of the seed pair [1, 2])
            scope["KC"] = dict(zip(("key", "counter"), tf.raw_ops.StatelessRandomGetKeyCounter(seed=[1, 2])))
        return eval(expr, scope)  # noqa: S307 - our own text
    return run


def _message(expr: str) -> Callable[[Any], Any]:
    """A TypeError's text as a string tensor (the wrappers' argument errors are Python's)."""
    def run(tf: Any) -> Any:
        try:
            _eager(expr)(tf)
        except TypeError as e:
            return tf.constant(f"TypeError: {e}")
        return tf.constant("no error")
    return run


def _traced(expr: str) -> Callable[[Any], Any]:
    def run(tf: Any) -> Any:
        return tf.function(lambda: _eager(expr)(tf), autograph=False)()
    return run


def _gradient(expr: str, source: str) -> Callable[[Any], Any]:
    """d sum(expr) / d x, x = `source` watched; `expr` reads x."""
    def run(tf: Any) -> Any:
        x = eval(source, {"tf": tf})  # noqa: S307 - our own text
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = tf.reduce_sum(eval(expr, {"tf": tf, "R": tf.raw_ops, "x": x}))  # noqa: S307
        return tape.gradient(y, x)
    return run


M = "tf.constant([[1.5, -2.0, 0.25], [4.0, 0.5, -8.0]])"
SQ = "tf.constant([[2.0, 0.5], [-1.0, 3.0]])"
C4 = "tf.constant([[1 + 2j, -3 - 0.5j], [0.25j, 2 + 0j]], tf.complex64)"

VALUES = [
    # BroadcastGradientArgs: equal shapes reduce nothing; all-ones axes reduce in both; int64
    "R.BroadcastGradientArgs(s0=[2, 3, 5], s1=[3, 1])",
    "R.BroadcastGradientArgs(s0=[3, 1], s1=[2, 1, 5])",
    "R.BroadcastGradientArgs(s0=[1, 1], s1=[1, 1])",
    "R.BroadcastGradientArgs(s0=[2, 0, 1], s1=[1, 1])",
    "R.BroadcastGradientArgs(s0=tf.constant([2, 1], tf.int64), s1=tf.constant([1], tf.int64))",
    "R.BroadcastGradientArgs(s0=[-1, 3], s1=[3])",
    "R.BroadcastGradientArgs(s0=tf.zeros([0], tf.int32), s1=[2, 3])",
    # Range
    "R.Range(start=1, limit=7, delta=2)",
    "R.Range(start=10, limit=-3, delta=-4)",
    "R.Range(start=[1], limit=7, delta=2)",
    "R.Range(start=tf.constant(1.0, tf.float16), limit=2.0, delta=0.25)",
    "R.Range(start=tf.constant(0.5, tf.float64), limit=3.0, delta=0.75)",
    "R.Range(start=tf.constant(3, tf.int64), limit=tf.constant(3, tf.int64), delta=tf.constant(1, tf.int64))",
    # Select: scalar condition, a vector condition over rows, elementwise, empty
    "R.Select(condition=True, x=[[1, 2], [3, 4]], y=[[5, 6], [7, 8]])",
    "R.Select(condition=False, x=[1.5, 2.5], y=[3.5, 4.5])",
    "R.Select(condition=[True, False], x=[[1, 2], [3, 4]], y=[[5, 6], [7, 8]])",
    f"R.Select(condition=[False, True], x={M}, y=-{M})",
    "R.Select(condition=[[True, False], [False, True]], x=[[1, 2], [3, 4]], y=[[5, 6], [7, 8]])",
    "R.Select(condition=[True, False], x=[1, 2], y=[3, 4])",
    "R.Select(condition=tf.zeros([0], tf.bool), x=tf.zeros([0, 3]), y=tf.zeros([0, 3]))",
    # ShapeN, Split, ParallelDynamicStitch, NoOp
    "R.ShapeN(input=[tf.ones([2, 3]), tf.ones([4])])",
    "R.ShapeN(input=[tf.ones([2, 3]), tf.ones([])], out_type=tf.int64)",
    "R.ShapeN(input=[1.0, [2.0, 3.0]])",
    f"R.Split(axis=1, value=tf.reshape(tf.range(12.0), [2, 6]), num_split=3)",
    f"R.Split(axis=-1, value={M}, num_split=3)",
    f"R.Split(axis=0, value={M}, num_split=1)",
    "R.ParallelDynamicStitch(indices=[[0, 2], [1]], data=[[1.0, 3.0], [2.0]])",
    "R.ParallelDynamicStitch(indices=[[0, 5], [1]], data=[[[1, 2], [3, 4]], [[5, 6]]])",
    "R.NoOp()",
    # SqrtGrad, RsqrtGrad, ReciprocalGrad: dy 0 gives 0 whatever y; dy's shape may differ, not its size
    "R.SqrtGrad(y=[1.0, 2.0, 0.0, 0.5], dy=[3.0, 4.0, 0.0, -1.0])",
    "R.SqrtGrad(y=[[1.0, 2.0]], dy=[3.0, 4.0])",
    "R.SqrtGrad(y=tf.constant([1.5, 2.0], tf.float64), dy=tf.constant([3.0, 0.0], tf.float64))",
    "R.SqrtGrad(y=tf.constant([1 + 1j, 2 - 0.5j], tf.complex64), dy=tf.constant([2 + 0j, 1j], tf.complex64))",
    "R.SqrtGrad(y=tf.constant([1.0, 2.0], tf.float16), dy=tf.constant([3.0, 4.0], tf.float16))",
    "R.RsqrtGrad(y=[1.0, 2.0, 0.0, 0.5], dy=[3.0, 4.0, 0.0, -1.0])",
    "R.RsqrtGrad(y=tf.constant([1 + 1j, 2 - 0.5j], tf.complex128), dy=tf.constant([2 + 0j, 1j], tf.complex128))",
    "R.ReciprocalGrad(y=[1.0, 2.0, 0.0, 0.5], dy=[3.0, 4.0, 0.0, -1.0])",
    "R.ReciprocalGrad(y=tf.constant([[0.5, 4.0]], tf.float64), dy=tf.constant([[2.0, -0.25]], tf.float64))",
    # StridedSliceGrad
    "R.StridedSliceGrad(shape=[4], begin=[1], end=[3], strides=[1], dy=[5.0, 6.0])",
    "R.StridedSliceGrad(shape=[3, 4], begin=[0, 1], end=[0, 3], strides=[1, 1], dy=[[5.0, 6.0], [1.0, 2.0], "
    "[3.0, 4.0]], begin_mask=1, end_mask=1)",
    "R.StridedSliceGrad(shape=[3, 4], begin=[1, 0], end=[2, 0], strides=[1, 1], dy=[5.0, 6.0, 7.0, 8.0], "
    "shrink_axis_mask=1, end_mask=2)",
    "R.StridedSliceGrad(shape=[2], begin=[0, 0], end=[0, 2], strides=[1, 1], dy=[[5.0, 6.0]], new_axis_mask=1)",
    "R.StridedSliceGrad(shape=[5], begin=[4], end=[0], strides=[-2], dy=[1.0, 2.0])",
    "R.StridedSliceGrad(shape=tf.constant([2, 3], tf.int64), begin=tf.constant([0, 0], tf.int64), "
    "end=tf.constant([1, 3], tf.int64), strides=tf.constant([1, 2], tf.int64), dy=[[1, 2]], ellipsis_mask=0)",
    # Real, Imag, Angle, ComplexAbs, Complex (a Python list converts to T's default complex64)
    "R.Real(input=C)",
    "R.Real(input=tf.cast(C, tf.complex128), Tout=tf.float64)",
    "R.Real(input=[1.0, 2.0])",
    "R.Imag(input=C)",
    "R.Angle(input=C)",
    "R.Angle(input=tf.cast(C, tf.complex128), Tout=tf.float64)",
    "R.ComplexAbs(x=C)",
    "R.Complex(real=[1.0, 2.0], imag=[3.0, 4.0])",
    "R.Complex(real=tf.constant([1.0, 2.0], tf.float64), imag=tf.constant(3.0, tf.float64), Tout=tf.complex128)",
    # the FFT family (RFFT's input is not padded: each dimension at least fft_length)
    "R.FFT(input=C)",
    "R.FFT(input=[1.0, 2.0])",
    "R.IFFT(input=tf.cast(C, tf.complex128))",
    f"R.FFT2D(input={C4})",
    f"R.IFFT2D(input={C4})",
    f"R.FFT3D(input=tf.stack([{C4}, -{C4}]))",
    f"R.IFFT3D(input=tf.stack([{C4}, -{C4}]))",
    "R.RFFT(input=[1.0, 2.0, 3.0, 4.0], fft_length=[4])",
    "R.RFFT(input=[1.0, 2.0, 3.0, 4.0, 5.0], fft_length=[3])",
    "R.RFFT(input=tf.constant([1.0, 2.0, 3.0, 4.0], tf.float64), fft_length=[4], Tcomplex=tf.complex128)",
    "R.IRFFT(input=C, fft_length=[2])",
    "R.IRFFT(input=tf.cast(C, tf.complex128), fft_length=[3], Treal=tf.float64)",
    f"R.RFFT2D(input={M}, fft_length=[2, 3])",
    f"R.IRFFT2D(input={C4}, fft_length=[2, 2])",
    "R.RFFT3D(input=tf.reshape(tf.range(8.0), [2, 2, 2]), fft_length=[2, 2, 2])",
    f"R.IRFFT3D(input=tf.stack([{C4}, {C4}]), fft_length=[2, 2, 2])",
    # Eig, MatrixLogarithm
    f"R.Eig(input={SQ}, Tout=tf.complex64)[0]",
    "R.Eig(input=[[2.0, 1.0], [0.0, 3.0]], Tout=tf.complex64)",
    # UnicodeDecode(WithOffsets) (splits of type Tsplits), UnicodeEncode, StringJoin, ExtractGlimpseV2
    "R.UnicodeDecode(input=['h\\u00e9llo', 'ab', ''], input_encoding='UTF-8')",
    "R.UnicodeDecode(input=[['h\\u00e9llo'], ['ab']], input_encoding='UTF-8', Tsplits=tf.int32)",
    "R.UnicodeDecodeWithOffsets(input=['h\\u00e9llo', 'ab'], input_encoding='UTF-8', errors='ignore')",
    "R.UnicodeEncode(input_values=[104, 233, 108, 97], input_splits=tf.constant([0, 3, 4], tf.int64), "
    "output_encoding='UTF-8')",
    "R.UnicodeEncode(input_values=[104, 233], input_splits=tf.constant([0, 1, 2], tf.int64), "
    "output_encoding='UTF-16-BE')",
    "R.StringJoin(inputs=['a', ['b', 'c']], separator='-')",
    "R.StringJoin(inputs=[['a', 'x'], ['b', 'c']])",
    "R.ExtractGlimpseV2(input=tf.reshape(tf.range(16.0), [1, 4, 4, 1]), size=[2, 2], offsets=[[1.0, 1.0]], "
    "centered=False, normalized=False)",
    "R.ExtractGlimpseV2(input=tf.reshape(tf.range(16.0), [1, 4, 4, 1]), size=[2, 2], offsets=[[3.0, 3.0]], "
    "centered=False, normalized=False, uniform_noise=False, noise='zero')",
    # the stateful random ops: one kernel per (op, seed, seed2, dtype), whose stream continues across calls
    "[R.RandomStandardNormal(shape=[3], dtype=tf.float32, seed=2011, seed2=3) for _ in range(2)]",
    "[R.RandomUniform(shape=[2, 2], dtype=tf.float64, seed=2012, seed2=2) for _ in range(2)]",
    "R.RandomUniform(shape=tf.constant([3], tf.int64), dtype=tf.bfloat16, seed=2013, seed2=5)",
    "[R.TruncatedNormal(shape=[5], dtype=tf.float32, seed=2014, seed2=9) for _ in range(2)]",
    "R.TruncatedNormal(shape=[2, 3], dtype=tf.float64, seed=2015, seed2=1)",
    "[R.Multinomial(logits=LG, num_samples=5, seed=2021, seed2=4) for _ in range(2)]",
    "R.Multinomial(logits=LG, num_samples=3, seed=2022, seed2=4, output_dtype=tf.int32)",
    "R.StatelessMultinomial(logits=LG, num_samples=4, seed=[1, 2])",
    "R.StatelessMultinomial(logits=LG, num_samples=4, seed=tf.constant([1, 2], tf.int64), output_dtype=tf.int32)",
    # the string ops whose string attrs the public functions read (StringSplitV2: a sparse matrix of pieces)
    "R.StringSplitV2(input=['a b  c ', '', 'x,y'], sep='')",
    "R.StringSplitV2(input=['a,b,,c', '', 'x,y'], sep=',', maxsplit=1)",
    "R.StringSplitV2(input=tf.constant([], tf.string), sep=',')",
    "R.ReduceJoin(inputs=[['a', 'b'], ['c', 'd']], reduction_indices=[0, 1], separator='|')",
    "R.ReduceJoin(inputs=[['a', 'b'], ['c', 'd']], reduction_indices=-1, keep_dims=True)",
    "R.StaticRegexFullMatch(input=['abc', 'ab'], pattern='a.c')",
    "R.StaticRegexReplace(input=['abcabc'], pattern='b', rewrite='X', replace_global=False)",
    "R.StringToNumber(string_tensor=['1.5', '-2'], out_type=tf.float64)",
    "R.SerializeTensor(tensor=[[0.5, 1.5], [2.5, 0.25]])",
    "R.SerializeTensor(tensor=tf.constant([1, 2], tf.int64))",
    "R.UnsortedSegmentJoin(inputs=['a', 'b', 'c'], segment_ids=[1, 0, 1], num_segments=3, separator=':')",
    # the stateless random ops of a (key, counter) pair (runtime/ops/raw_stateless.py)
    "R.StatelessRandomGetKeyCounter(seed=[1, 2])",
    "R.StatelessRandomGetKeyCounter(seed=tf.constant([-7, 2 ** 40], tf.int64))",
    "R.StatelessRandomGetKeyCounterAlg(seed=[3, 4])",
    "R.StatelessRandomUniformV2(shape=[5], **KC, alg=1)",
    "R.StatelessRandomUniformV2(shape=[2, 2], **KC, alg=3, dtype=tf.float64)",
    "R.StatelessRandomUniformV2(shape=[3], **KC, alg=1, dtype=tf.float16)",
    "R.StatelessRandomNormalV2(shape=[5], **KC, alg=1)",
    "R.StatelessRandomNormalV2(shape=[3], **KC, alg=1, dtype=tf.float64)",
    "R.StatelessTruncatedNormalV2(shape=[5], **KC, alg=1)",
    "R.StatelessRandomUniformIntV2(shape=[6], **KC, alg=1, minval=-3, maxval=10)",
    "R.StatelessRandomUniformIntV2(shape=[3], **KC, alg=1, minval=tf.constant(0, tf.int64), "
    "maxval=tf.constant(2 ** 40, tf.int64))",
    "R.StatelessRandomUniformFullIntV2(shape=[3], **KC, alg=1, dtype=tf.int64)",
    "R.StatelessRandomUniformFullIntV2(shape=[3], **KC, alg=1, dtype=tf.uint32)",
    "R.StatelessRandomUniformV2(shape=[3], key=tf.constant([5], tf.uint64), counter=tf.constant([1, 2, 3], tf.uint64), "
    "alg=1)",
    # (elementwise ops the shape checks let through: broadcasting, scalars, one element count)
    "R.Mul(x=[[1.0], [2.0]], y=[3.0, 4.0, 5.0])",
    "R.TanhGrad(y=[[0.5, 0.25]], dy=[3.0, 4.0])",
    "R.TanhGrad(y=[0.5, 0.25], dy=[[3.0, 4.0]])",
    "R.Betainc(a=1.0, b=[1.0, 2.0], x=0.5)",
    "R.ClipByValue(t=[[1.0, 2.0], [-3.0, 0.5]], clip_value_min=0.0, clip_value_max=[[1.5, 1.5], [1.0, 0.25]])",
    "R.SelectV2(condition=[[True], [False]], t=[1.0, 2.0], e=0.5)",
    # (tf.as_dtype reads TF's C names: "float" is float32)
    "tf.zeros([2], 'float')",
    "tf.zeros([2], 'double')",
    "tf.zeros([2], 'half')",
    "R.MatrixLogarithm(input=tf.constant([[2.0 + 0j, 0.5], [0.0, 3.0]], tf.complex64))",
    "R.MatrixLogarithm(input=tf.constant([[1.0 + 1j, 0.5], [0.25, 3.0]], tf.complex128))",
]

ERRORS = [
    "R.BroadcastGradientArgs(s0=[2, 3], s1=[4])",
    "R.BroadcastGradientArgs(s0=2, s1=[4])",
    "R.BroadcastGradientArgs(s0=[[2]], s1=[4])",
    "R.BroadcastGradientArgs(s0=[2.0], s1=[4.0])",
    "R.BroadcastGradientArgs(s0=[-1, 3], s1=[-2, 3])",
    "R.Range(start=[1, 2], limit=7, delta=2)",
    "R.Range(start=[[1]], limit=7, delta=2)",
    "R.Range(start=7, limit=1, delta=2)",
    "R.Range(start=1, limit=7, delta=0)",
    "R.Range(start='a', limit='b', delta='c')",
    "R.Range(start=tf.constant(1, tf.uint32), limit=tf.constant(5, tf.uint32), delta=tf.constant(1, tf.uint32))",
    "R.Range(start=1, limit=2.5, delta=1)",
    "R.Select(condition=True, x=[[1, 2], [3, 4]], y=[5, 6])",
    "R.Select(condition=[True, False, True], x=[[1, 2], [3, 4]], y=[[5, 6], [7, 8]])",
    "R.Select(condition=[True, False], x=[[1, 2], [3, 4]], y=[[5, 6]])",
    "R.Select(condition=[[True, False]], x=[[1, 2], [3, 4]], y=[[5, 6], [7, 8]])",
    "R.Select(condition=[True, False], x=[1, 2, 3], y=[3, 4, 5])",
    "R.Select(condition=[True, False], x=1, y=3)",
    "R.Select(condition=[[True], [False]], x=[[1, 2], [3, 4]], y=[[5, 6], [7, 8]])",
    "R.Select(condition=[1, 0], x=[1, 2], y=[3, 4])",
    "R.Select(condition=[True, False], x=[1, 2], y=[3.0, 4.0])",
    "R.ShapeN(input=[tf.ones([2, 3]), tf.ones([4])], out_type=tf.float32)",
    "R.ShapeN(input=[tf.ones([2, 3]), tf.ones([4], tf.int32)])",
    f"R.Split(axis=1, value={M}, num_split=2)",
    f"R.Split(axis=1, value={M}, num_split=0)",
    f"R.Split(axis=[1], value={M}, num_split=3)",
    f"R.Split(axis=tf.constant(1, tf.int64), value={M}, num_split=3)",
    f"R.Split(axis=2, value={M}, num_split=1)",
    "R.Split(axis=0, value=1.0, num_split=1)",
    f"tf.split({M}, 3, axis=2)",
    f"tf.split({M}, [1, 1], axis=-3)",
    "R.SqrtGrad(y=[1, 2], dy=[3, 4])",
    "R.SqrtGrad(y=[1.0, 2.0], dy=[3.0])",
    "R.RsqrtGrad(y=[1.0, 2.0], dy=tf.constant([3.0, 4.0], tf.float64))",
    "R.ReciprocalGrad(y=[1.0, 2.0], dy=[[3.0, 4.0, 5.0]])",
    "R.StridedSliceGrad(shape=[4], begin=[1], end=[3], strides=[1], dy=[5.0, 6.0, 7.0])",
    "R.StridedSliceGrad(shape=[[4]], begin=[1], end=[3], strides=[1], dy=[5.0, 6.0])",
    "R.StridedSliceGrad(shape=[4], begin=[1, 0], end=[3], strides=[1], dy=[5.0, 6.0])",
    "R.Real(input=C, Tout=tf.float64)",
    "R.Real(input=tf.cast(C, tf.complex128))",
    "R.Imag(input=C, Tout=tf.float64)",
    "R.Angle(input=C, Tout=tf.float64)",
    "R.ComplexAbs(x=C, Tout=tf.float64)",
    "R.Complex(real=[1.0, 2.0], imag=[3.0, 4.0], Tout=tf.complex128)",
    "R.Complex(real=[1.0, 2.0], imag=[3.0, 4.0, 5.0])",
    "R.FFT(input=C[0])",
    "R.FFT2D(input=C)",
    "R.RFFT(input=[1.0, 2.0, 3.0, 4.0], fft_length=[6])",
    "R.RFFT(input=[1.0, 2.0, 3.0, 4.0], fft_length=[4, 4])",
    "R.RFFT(input=[1.0, 2.0, 3.0, 4.0], fft_length=[4], Tcomplex=tf.complex128)",
    "R.RFFT(input=[1.0, 2.0], fft_length=[2], Tcomplex=tf.float32)",
    "R.IRFFT(input=C, fft_length=[2], Treal=tf.float64)",
    "R.MatrixLogarithm(input=[[2.0, 0.0], [0.0, 3.0]])",
    f"R.Eig(input={SQ}, Tout=tf.complex128)",
    f"R.Eig(input={SQ}, Tout=tf.float32)",
    # (the generic check of an OpDef's allowed types, before any kernel reads the values)
    "R.UnicodeDecode(input=['ab'], input_encoding='UTF-8', errors='x')",
    "R.UnicodeDecode(input=['ab'], input_encoding='UTF-8', Tsplits=tf.float32)",
    "R.UnicodeEncode(input_values=[104], input_splits=tf.constant([0, 1], tf.int64), output_encoding='UTF-9')",
    "R.StringJoin(inputs=[['a', 'x'], ['b', 'c', 'd']])",
    "R.ExtractGlimpseV2(input=tf.ones([1, 4, 4, 1]), size=[2, 2], offsets=[[3.0, 3.0]], noise='zero')",
    "R.ExtractGlimpseV2(input=tf.ones([1, 4, 4, 1]), size=[2, 2], offsets=[[1.0, 1.0]], uniform_noise=False, "
    "noise='x')",
    "R.RandomStandardNormal(shape=[3], dtype=tf.int32, seed=2016, seed2=3)",
    "R.RandomStandardNormal(shape=[-1], dtype=tf.float32, seed=2017, seed2=3)",
    "R.RandomUniform(shape=[[2]], dtype=tf.float32, seed=2018, seed2=3)",
    "R.RandomUniform(shape=3, dtype=tf.float32, seed=2019, seed2=3)",
    "R.TruncatedNormal(shape=[2.0], dtype=tf.float32, seed=2020, seed2=3)",
    "R.Multinomial(logits=LG, num_samples=[3], seed=2023, seed2=4)",
    "R.Multinomial(logits=LG, num_samples=-1, seed=2024, seed2=4)",
    "R.Multinomial(logits=[1.0, 2.0], num_samples=2, seed=2025, seed2=4)",
    "R.Multinomial(logits=LG, num_samples=2, seed=2026, seed2=4, output_dtype=tf.float32)",
    "R.StatelessMultinomial(logits=LG, num_samples=4, seed=[1, 2, 3])",
    "R.StringSplitV2(input=[['a']], sep=',')",
    "R.StringSplitV2(input=['a'], sep=[',', ';'])",
    "R.StringToNumber(string_tensor=['x'])",
    "R.StringToNumber(string_tensor=['1'], out_type=tf.bool)",
    "R.StatelessRandomGetKeyCounter(seed=[1, 2, 3])",
    "R.StatelessRandomGetKeyCounter(seed=[1.0, 2.0])",
    "R.StatelessRandomUniformV2(shape=[3], **KC, alg=2)",
    "R.StatelessRandomUniformIntV2(shape=[3], **KC, alg=1, minval=5, maxval=5)",
    "R.StatelessRandomNormalV2(shape=[-1], **KC, alg=1)",
    "R.StatelessRandomUniformV2(shape=[3], key=tf.constant([1, 2], tf.uint64), counter=tf.constant([1, 2], tf.uint64), "
    "alg=1)",
    # (the shape checks of TF's elementwise kernels, which NumPy's broadcasting is not: raw_shapes.py)
    "R.Mul(x=[1.0, 2.0], y=[3.0, 4.0, 5.0])",
    "R.Atan2(y=[1.0, 2.0], x=[3.0, 4.0, 5.0])",
    "R.LogicalAnd(x=[True, False], y=[True, False, True])",
    "R.TanhGrad(y=[1.0, 2.0], dy=[3.0])",
    "R.SigmoidGrad(y=[1.0, 2.0], dy=[3.0, 4.0, 5.0])",
    "R.ReluGrad(gradients=[1.0, 2.0], features=[3.0])",
    "R.EluGrad(gradients=[[1.0, 2.0]], outputs=[3.0, 4.0])",
    "R.LeakyReluGrad(gradients=[1.0, 2.0], features=[[3.0, 4.0]])",
    "R.Betainc(a=[1.0, 2.0], b=[3.0], x=[0.5, 0.5])",
    "R.Betainc(a=1.0, b=[1.0, 2.0], x=[0.5, 0.5, 0.5])",
    "R.ClipByValue(t=[1.0, 2.0], clip_value_min=[0.0], clip_value_max=1.0)",
    "R.Cross(a=[[1.0, 2.0, 3.0]], b=[1.0, 2.0, 3.0])",
    "R.SelectV2(condition=[True, False], t=[1.0, 2.0, 3.0], e=[1.0, 2.0])",
    "tf.complex([1.0, 2.0], [3.0, 4.0, 5.0])",
    "tf.as_dtype('complex')",
    "tf.as_dtype('int')",
    "tf.zeros([2], 'f4')",
    "R.Sum(input=[[1.0, 2.0]], axis=1.0)",
    "R.Cumsum(x=[1.0, 2.0], axis=0.0)",
    "R.Sqrt(x=[1, 4])",
]

MESSAGES = [
    "R.Range(start=1, limit=2)",
    "R.Select(True, 1, 2)",
    "R.Select(condition=True, t=1, e=2)",
    "R.ShapeN(input=[tf.ones([2])], out_type='int3')",
    f"R.Split(axis=0, value={M}, num_split='2')",
    "R.ShapeN(input=tf.ones([]))",
    "R.BroadcastGradientArgs(s0=[1], s1=[2], T=tf.int32)",
    "R.Real(input=C, Tout=3.5)",
    "R.RFFT(input=[1.0, 2.0], fft_length=[2], Tcomplex='complex')",
    "R.StridedSliceGrad(shape=[4], begin=[1], end=[3], strides=[1], dy=[5.0, 6.0], begin_mask='1')",
    "R.Eig(input=[[1.0]], Tout=tf.complex64, compute_v=1)",
    "R.NoOp(x=1)",
    "R.RandomUniform(shape=[2], dtype=tf.float32, seed=1.5, seed2=3)",
    "R.RandomUniform(shape=[2], seed=1, seed2=3)",
]

TRACED = [
    "R.Range(start=1, limit=7, delta=2)",
    "R.Select(condition=[True, False], x=[[1, 2], [3, 4]], y=[[5, 6], [7, 8]])",
    "R.BroadcastGradientArgs(s0=[2, 3, 5], s1=[3, 1])",
    f"R.Split(axis=1, value={M}, num_split=3)",
    "R.SqrtGrad(y=[1.0, 2.0, 0.5], dy=[3.0, 4.0, -1.0])",
    "R.StridedSliceGrad(shape=[4], begin=[1], end=[3], strides=[1], dy=[5.0, 6.0])",
    "R.Real(input=C)",
    "R.RFFT(input=[1.0, 2.0, 3.0, 4.0], fft_length=[4])",
]

GRADIENTS = [
    ("R.Select(condition=[True, False], x=x, y=2.0 * x)", M),
    ("R.SqrtGrad(y=x, dy=tf.constant([3.0, 4.0, -1.0]))", "tf.constant([1.0, 2.0, 0.5])"),
    ("R.SqrtGrad(y=tf.constant([1.0, 2.0, 0.5]), dy=x)", "tf.constant([3.0, 4.0, -1.0])"),
    ("R.RsqrtGrad(y=x, dy=tf.constant([3.0, 4.0, -1.0]))", "tf.constant([1.0, 2.0, 0.5])"),
    ("R.ReciprocalGrad(y=x, dy=tf.constant([3.0, 4.0, -1.0]))", "tf.constant([1.0, 2.0, 0.5])"),
    ("R.Split(axis=1, value=x, num_split=3)[1] * 3.0", M),
    ("R.StridedSliceGrad(shape=[4], begin=[1], end=[3], strides=[1], dy=x)", "tf.constant([5.0, 6.0])"),
    ("R.Real(input=tf.complex(x, 2.0 * x))", "tf.constant([1.0, -3.0])"),
    ("R.ComplexAbs(x=tf.complex(x, 2.0 * x))", "tf.constant([1.0, -3.0])"),
]

CASES: list[tuple[str, str, Callable[[Any], Any]]] = (
    [(f"value[{e}]", "values", _eager(e)) for e in VALUES]
    + [(f"error[{e}]", "errors", _eager(e)) for e in ERRORS]
    + [(f"message[{e}]", "messages", _message(e)) for e in MESSAGES]
    + [(f"traced[{e}]", "traced", _traced(e)) for e in TRACED]
    + [(f"gradient[{e}]", "gradients", _gradient(e, s)) for e, s in GRADIENTS])


def _agree(case: tuple) -> Any:
    """Within 1e-5 relative (1e-4 for Eig and MatrixLogarithm), a complex value part by part."""
    loose = "Eig(" in case[0] or "MatrixLogarithm(" in case[0]
    real = edge_compare.within(1e-4 if loose else 1e-5, floors={"float16": 1e-3})

    def agree(got: np.ndarray, want: np.ndarray) -> np.ndarray:
        if got.dtype.kind == "c" and want.dtype.kind == "c":
            return real(got.real.copy(), want.real.copy()) & real(got.imag.copy(), want.imag.copy())
        return real(got, want)
    return agree


EDGES = edge_compare.EdgeModule(__file__, CASES, agree=_agree)


@pytest.fixture(scope="module")
def tf_results() -> dict[int, Any]:
    return EDGES.tf_answers()


@clause("ops.raw-ops")
@EDGES.parametrize("values")
def test_raw_op_values(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


@clause("ops.raw-ops")
@EDGES.parametrize("errors")
def test_raw_op_kernel_errors(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


@clause("ops.raw-ops")
@EDGES.parametrize("messages")
def test_raw_op_argument_messages(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


@clause("ops.raw-ops")
@EDGES.parametrize("traced")
def test_raw_op_traced(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


@clause("ops.raw-ops")
@EDGES.parametrize("gradients")
def test_raw_op_gradients(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


def test_every_group_is_tested() -> None:
    assert EDGES.untested() == [], f"groups with no test function: {EDGES.untested()}"


if __name__ == "__main__":  # TF worker: python test_raw_ops20_tf.py 0,1,2 -> pickled results on stdout
    tf_workers.serve(EDGES.tf_worker)
