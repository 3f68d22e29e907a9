"""Rules behind the twentieth fuzzer's classes that fz29a closed (fresh campaigns over the raw ops bound in
session 28: eager seed 2920261201, tape seed 2920261202, sig seed 2920261203, eager seed 2920261204 and
the fresh seed 2920261205), each against real TensorFlow 2.21: the same raw call on both backends gives
the same dtype and values bit for bit (a NaN matching any NaN), or raises the same exception class.
Eagerly, inside a tf.function and under a GradientTape. Needs the `tf` extra.
"""

from __future__ import annotations

from typing import Any, Callable

import pytest

import edge_compare
from edge_programs import eager as _eager, tape as _tape, traced as _traced
import tf_workers

pytestmark = [pytest.mark.tf, tf_workers.tf_or_golden(__file__)]
clause = pytest.mark.clause

_K = "ops.fuzz-raw"
_G = "autodiff.op-gradients"
_T = "function.trace-time-errors"

_UT = "tf.raw_ops.UnicodeTranscode(input={x}, input_encoding={enc!r}, output_encoding='UTF-8')"
_UE = "tf.raw_ops.UnicodeEncode(input_values={v}, input_splits=tf.constant({s}, tf.int64), output_encoding='UTF-8')"
_AB = "tf.constant([65, 66])"
_SF = "tf.raw_ops.StringFormat(inputs={i}, template={t!r}, placeholder={p!r})"


def _grad_only(expr: str, source: str) -> Callable[[Any], Any]:
    """Only the gradient of `expr` (of a watched `x` made by `source`) under a GradientTape."""
    def run(tf: Any) -> Any:
        return _tape(expr, source)(tf)[1]
    return run


def _second(op: str, wrt: str, dt: str, y: str, dy: str) -> Callable[[Any], Any]:
    """The gradient of raw `op` (y, dy of dtype dt) w.r.t. its input `wrt`."""
    y_text, dy_text = f"tf.constant({y}, tf.{dt})", f"tf.constant({dy}, tf.{dt})"
    expr = f"tf.raw_ops.{op}(y=x, dy={dy_text})" if wrt == "y" else f"tf.raw_ops.{op}(y={y_text}, dy=x)"
    return _grad_only(expr, y_text if wrt == "y" else dy_text)


_SIG_TRACES = [   # (name, the raw call traced in a tf.function)
    ('DecodePng in a tf.function',
     "tf.raw_ops.DecodePng(contents=tf.constant(['a', 'b']))"),
    ('DecodePng in a tf.function (2)',
     "tf.raw_ops.DecodePng(contents=tf.constant(['a', 'b']), channels=-1)"),
    ('DecodeJpeg in a tf.function',
     "tf.raw_ops.DecodeJpeg(contents=tf.constant([['a']]))"),
    ('DecodeBmp in a tf.function',
     "tf.raw_ops.DecodeBmp(contents=tf.constant(['a']))"),
    ('DecodeImage in a tf.function',
     "tf.raw_ops.DecodeImage(contents=tf.constant(['a']))"),
    ('DecodeAndCropJpeg in a tf.function',
     "tf.raw_ops.DecodeAndCropJpeg(contents=tf.constant(['a']), crop_window=[0, 0, 1, 1])"),
    ('DecodeAndCropJpeg in a tf.function (2)',
     "tf.raw_ops.DecodeAndCropJpeg(contents=tf.constant('a'), crop_window=[[0, 0, 1, 1]])"),
    ('ExtractJpegShape in a tf.function',
     "tf.raw_ops.ExtractJpegShape(contents=tf.constant(['a']))"),
    ('StringSplit in a tf.function',
     "tf.raw_ops.StringSplit(input=tf.constant(['a b']), delimiter=tf.constant([' ']))"),
    ('StringSplit in a tf.function (2)',
     "tf.raw_ops.StringSplit(input=tf.constant('a b'), delimiter=tf.constant(' '))"),
    ('StringSplitV2 in a tf.function',
     "tf.raw_ops.StringSplitV2(input=tf.constant(['a b']), sep=tf.constant([' ']))"),
    ('StringSplitV2 in a tf.function (2)',
     "tf.raw_ops.StringSplitV2(input=tf.constant([['a b']]), sep=tf.constant(' '))"),
    ('Bincount in a tf.function',
     'tf.raw_ops.Bincount(arr=tf.constant([1]), size=tf.constant([2]), weights=tf.constant([1.0]))'),
    ('Bincount in a tf.function (2)',
     'tf.raw_ops.Bincount(arr=tf.constant([1]), size=tf.constant(2), weights=tf.constant([[1.0]]))'),
    ('DrawBoundingBoxes in a tf.function',
     'tf.raw_ops.DrawBoundingBoxes(images=tf.ones([2, 2, 3]), boxes=tf.ones([1, 1, 4]))'),
    ('DrawBoundingBoxes in a tf.function (2)',
     'tf.raw_ops.DrawBoundingBoxes(images=tf.ones([1, 2, 2, 3]), boxes=tf.ones([1, 4]))'),
    ('SegmentMaxV2 in a tf.function',
     'tf.raw_ops.SegmentMaxV2(data=tf.constant(1.0), segment_ids=tf.constant([0]), '
     'num_segments=tf.constant(1))'),
    ('SegmentSumV2 in a tf.function',
     'tf.raw_ops.SegmentSumV2(data=tf.constant([1.0]), segment_ids=tf.constant([[0]]), '
     'num_segments=tf.constant(1))'),
    ('SegmentSumV2 in a tf.function (2)',
     'tf.raw_ops.SegmentSumV2(data=tf.constant([1.0]), segment_ids=tf.constant([0]), '
     'num_segments=tf.constant([1]))'),
    ('MaxPoolGradGradWithArgmax in a tf.function',
     'tf.raw_ops.MaxPoolGradGradWithArgmax(input=tf.ones([1]), grad=tf.ones([1, 1, 1, 1]), '
     "argmax=tf.zeros([1, 1, 1, 1], tf.int64), ksize=[1, 1, 1, 1], strides=[1, 1, 1, 1], padding='VALID')"),
    ('MaxPoolGradGradWithArgmax in a tf.function (2)',
     'tf.raw_ops.MaxPoolGradGradWithArgmax(input=tf.ones([1, 1, 1, 1]), grad=tf.ones([1]), '
     "argmax=tf.zeros([1, 1, 1, 1], tf.int64), ksize=[1, 1, 1, 1], strides=[1, 1, 1, 1], padding='VALID')"),
    ('MaxPoolGradGradWithArgmax in a tf.function (3)',
     'tf.raw_ops.MaxPoolGradGradWithArgmax(input=tf.ones([1, 1, 1, 1]), grad=tf.ones([1, 1, 1, 1]), '
     "argmax=tf.zeros([1], tf.int64), ksize=[1, 1, 1, 1], strides=[1, 1, 1, 1], padding='VALID')"),
    ('MaxPoolGradV2 in a tf.function',
     'tf.raw_ops.MaxPoolGradV2(orig_input=tf.ones([4, 1]), orig_output=tf.ones([4, 1]), grad=tf.ones([4, '
     "1]), ksize=[1, 1, 1, 1], strides=[1, 1, 1, 1], padding='VALID')"),
    ('MaxPoolGradV2 in a tf.function (2)',
     'tf.raw_ops.MaxPoolGradV2(orig_input=tf.ones([1, 1, 1, 1]), orig_output=tf.ones([4, 1]), '
     "grad=tf.ones([4, 1]), ksize=[1, 1, 1, 1], strides=[1, 1, 1, 1], padding='VALID')"),
    ('MaxPoolGradGradV2 in a tf.function',
     'tf.raw_ops.MaxPoolGradGradV2(orig_input=tf.ones([3, 2, 1]), orig_output=tf.ones([4, 1]), '
     "grad=tf.ones([4, 1]), ksize=[1, 1, 1, 1], strides=[1, 1, 1, 1], padding='VALID')"),
    ('MaxPoolGradGradV2 in a tf.function (2)',
     'tf.raw_ops.MaxPoolGradGradV2(orig_input=tf.ones([1, 2, 2, 1]), orig_output=tf.ones([4, 1]), '
     "grad=tf.ones([4, 1]), ksize=[1, 1, 1, 1], strides=[1, 1, 1, 1], padding='VALID')"),
    ('SpaceToBatch in a tf.function',
     'tf.raw_ops.SpaceToBatch(input=tf.ones([3, 2], tf.int8), paddings=[[0, 0], [0, 0]], block_size=5)'),
    ('SpaceToBatch in a tf.function (2)',
     'tf.raw_ops.SpaceToBatch(input=tf.ones([1, 2, 2, 1]), paddings=[0, 0], block_size=2)'),
    ('SparseSegmentSqrtNGradV2 in a tf.function',
     'tf.raw_ops.SparseSegmentSqrtNGradV2(grad=tf.ones([2]), indices=tf.constant([0]), '
     'segment_ids=tf.constant([0]), dense_output_dim0=tf.constant([1]))'),
    ('SparseSegmentSumGradV2 in a tf.function',
     'tf.raw_ops.SparseSegmentSumGradV2(grad=tf.ones([2]), indices=tf.constant([[0]]), '
     'segment_ids=tf.constant([0]), dense_output_dim0=tf.constant(1))'),
    ('SparseFillEmptyRowsGrad in a tf.function',
     'tf.raw_ops.SparseFillEmptyRowsGrad(reverse_index_map=tf.ones([4, 3], tf.int64), '
     'grad_values=tf.ones([3]))'),
    ('SparseFillEmptyRowsGrad in a tf.function (2)',
     'tf.raw_ops.SparseFillEmptyRowsGrad(reverse_index_map=tf.ones([4], tf.int64), '
     'grad_values=tf.ones([3, 4]))'),
    ('UniqueV2 in a tf.function',
     'tf.raw_ops.UniqueV2(x=tf.ones([4, 4]), axis=tf.constant(0, tf.int64))'),
    ('UniqueWithCountsV2 in a tf.function',
     'tf.raw_ops.UniqueWithCountsV2(x=tf.ones([4, 4]), axis=tf.constant([[0]], tf.int64))'),
    ('StringJoin in a tf.function',
     "tf.raw_ops.StringJoin(inputs=[tf.constant([['a']]), tf.constant([['b', 'c'], ['d', 'e']])])"),
    ('StringJoin in a tf.function (2)',
     "tf.raw_ops.StringJoin(inputs=[tf.constant('a'), tf.constant(['b', 'c']), tf.constant(['d', 'e', "
     "'f'])])"),
    ('StringFormat in a tf.function',
     "tf.raw_ops.StringFormat(inputs=[tf.constant(1), tf.constant(2)], template='%s', placeholder='a')"),
    ('StringFormat in a tf.function (2)',
     "tf.raw_ops.StringFormat(inputs=[tf.constant(1)], template='{}{}')"),
    ('CudnnRNN in a tf.function',
     'tf.raw_ops.CudnnRNN(input=tf.ones([2, 2]), input_h=tf.ones([1, 2, 2]), input_c=tf.ones([1, 2, 2]), '
     'params=tf.ones([4]))'),
    ('StatelessTruncatedNormal in a tf.function',
     'tf.raw_ops.StatelessTruncatedNormal(shape=[-2], seed=[1, 2])'),
    ('StatelessRandomNormal in a tf.function',
     'tf.raw_ops.StatelessRandomNormal(shape=[2, -3], seed=[1, 2])'),
    ('StatelessRandomUniform in a tf.function',
     'tf.raw_ops.StatelessRandomUniform(shape=[[2]], seed=[1, 2])'),
    ('MaxPoolGradV2 in a tf.function, sig seed 2920261203 (1)',
     'tf.raw_ops.MaxPoolGradV2(orig_input=tf.ones([4, 1], tf.int64), orig_output=tf.ones([4, 1], '
     'tf.int64), grad=tf.ones([4, 1], tf.int64), ksize=[1, 1, 1, 1], strides=[1, 1, 1, 1], '
     "padding='VALID', data_format='NCHW')"),
    ('MaxPoolGradGradV2 in a tf.function, sig seed 2920261203 (1)',
     'tf.raw_ops.MaxPoolGradGradV2(orig_input=tf.ones([3, 2, 1], tf.float64), orig_output=tf.ones([4, 1], '
     'tf.float64), grad=tf.ones([4, 1], tf.float64), ksize=[1, 1, 1], strides=[3, -1, -1], '
     "padding='VALID')"),
    ('SparseConcat in a tf.function, sig seed 2920261203 (1)',
     'tf.raw_ops.SparseConcat(concat_dim=1, indices=[tf.constant([], tf.int64), tf.constant([0], '
     'tf.int64)], values=[tf.ones([1]), tf.ones([1])], shapes=[tf.constant([2], tf.int64), '
     'tf.constant([2], tf.int64)])'),
    ('SparseConcat in a tf.function, sig seed 2920261203 (2)',
     'tf.raw_ops.SparseConcat(concat_dim=1, indices=[tf.constant([[0]], tf.int64), tf.constant([[0]], '
     'tf.int64)], values=[tf.ones([1, 1]), tf.ones([1])], shapes=[tf.constant([2], tf.int64), '
     'tf.constant([2], tf.int64)])'),
    ('SparseConcat in a tf.function, sig seed 2920261203 (3)',
     'tf.raw_ops.SparseConcat(concat_dim=1, indices=[tf.constant([[0]], tf.int64), tf.constant([[0]], '
     'tf.int64)], values=[tf.ones([1]), tf.ones([1])], shapes=[tf.constant([2], tf.int64), '
     'tf.constant([[2]], tf.int64)])'),
    ('SegmentMaxV2 in a tf.function, sig seed 2920261203 (1)',
     'tf.raw_ops.SegmentMaxV2(data=tf.ones([2], tf.float16), segment_ids=tf.constant([0, 0]), '
     'num_segments=tf.constant(-1))'),
    ('SegmentSumV2 in a tf.function, sig seed 2920261203 (1)',
     'tf.raw_ops.SegmentSumV2(data=tf.ones([2]), segment_ids=tf.constant([0, 0]), '
     'num_segments=tf.constant(-3, tf.int64))'),
    ('MaxPoolV2 in a tf.function, sig seed 2920261205 (1)',
     "tf.raw_ops.MaxPoolV2(input=tf.ones([2]), ksize=[1], strides=[1], padding='VALID')"),
    ('BatchToSpace in a tf.function, sig seed 2920261205 (1)',
     'tf.raw_ops.BatchToSpace(input=tf.ones([4], tf.complex64), crops=[[0, 0]], block_size=4)'),
    ('CudnnRNNV2 in a tf.function, sig seed 2920261205 (1)',
     'tf.raw_ops.CudnnRNNV2(input=tf.ones([2, 2], tf.float64), input_h=tf.ones([1, 2, 2], tf.float64), '
     'input_c=tf.ones([1, 2, 2], tf.float64), params=tf.ones([4], tf.float64))'),
    ('IRFFT in a tf.function, sig seed 2920261205 (1)',
     'tf.raw_ops.IRFFT(input=tf.constant(1j, tf.complex128), fft_length=tf.constant(1))'),
    ('LinSpace in a tf.function, sig seed 2920261205 (1)',
     'tf.raw_ops.LinSpace(start=tf.ones([3, 4]), stop=tf.constant(2.0), num=3)'),
    ('LinSpace in a tf.function, sig seed 2920261205 (2)',
     'tf.raw_ops.LinSpace(start=tf.constant(1.0), stop=tf.ones([2]), num=3)'),
    ('LinSpace in a tf.function, sig seed 2920261205 (3)',
     'tf.raw_ops.LinSpace(start=tf.constant(1.0), stop=tf.constant(2.0), num=[3])'),
    ('StringNGrams in a tf.function, sig seed 2920261205 (1)',
     "tf.raw_ops.StringNGrams(data=tf.constant([[['a']]]), data_splits=tf.constant([0, 1]), "
     "separator='a', ngram_widths=[], left_pad='x', right_pad='', pad_width=1, "
     'preserve_short_sequences=False)'),
    ('FakeQuantWithMinMaxVarsPerChannel in a tf.function, sig seed 2920261205 (1)',
     'tf.raw_ops.FakeQuantWithMinMaxVarsPerChannel(inputs=tf.ones([2, 3, 2]), min=tf.ones([3, 3, 2]), '
     'max=tf.ones([3, 3, 2]))'),
    ('FakeQuantWithMinMaxVarsGradient in a tf.function, sig seed 2920261205 (1)',
     'tf.raw_ops.FakeQuantWithMinMaxVarsGradient(gradients=tf.ones([3, 2, 2]), inputs=tf.ones([2, 2]), '
     'min=tf.constant(0.0), max=tf.constant(1.0))'),
    ('AllToAll in a tf.function, sig seed 2920261205 (1)',
     'tf.raw_ops.AllToAll(input=tf.ones([2], tf.bool), group_assignment=tf.constant([0, 1]), '
     'concat_dimension=5, split_dimension=0, split_count=1)'),
    ('StatelessMultinomial in a tf.function, sig seed 2920261205 (1)',
     'tf.raw_ops.StatelessMultinomial(logits=tf.ones([4, 3], tf.int8), num_samples=tf.ones([2, 3], '
     'tf.int32), seed=[1, 2])'),
    ('StatelessTruncatedNormalV2 in a tf.function, sig seed 2920261205 (1)',
     'tf.raw_ops.StatelessTruncatedNormalV2(shape=[3], key=tf.constant([1], tf.uint64), '
     'counter=tf.ones([3, 1, 1], tf.uint64), alg=1)'),
    ('SparseAddGrad in a tf.function, sig seed 2920261205 (1)',
     'tf.raw_ops.SparseAddGrad(backprop_val_grad=tf.ones([1], tf.uint16), a_indices=tf.constant([1], '
     'tf.int64), b_indices=tf.constant([1], tf.int64), sum_indices=tf.ones([1, 2, 1, 3], tf.int64))'),
    ('StatelessRandomGetKeyCounter in a tf.function, sig seed 2920261205 (1)',
     'tf.raw_ops.StatelessRandomGetKeyCounter(seed=tf.constant([1, 2, 3], tf.int64))'),
    ('StatelessRandomUniformInt in a tf.function, sig seed 2920261205 (1)',
     'tf.raw_ops.StatelessRandomUniformInt(shape=[2], seed=[1, 2], minval=tf.ones([1, 3, 1, 4], '
     'tf.int64), maxval=tf.constant(5, tf.int64))'),
    ('StatelessRandomUniformInt in a tf.function, sig seed 2920261205 (2)',
     'tf.raw_ops.StatelessRandomUniformInt(shape=[2], seed=[1, 2], minval=tf.constant(1, tf.int64), '
     'maxval=tf.constant([5], tf.int64))'),
    ('BatchSvd in a tf.function, sig seed 2920261205 (1)',
     'tf.raw_ops.BatchSvd(input=tf.ones([2, 2]), full_matrices=1)'),
    ('BatchSvd in a tf.function, sig seed 2920261205 (2)',
     'tf.raw_ops.BatchSvd(input=tf.ones([2, 2], tf.uint8), full_matrices=True)'),
]


CASES: list[tuple[str, str, Callable[[Any], Any]]] = [
    # an input encoding ICU has no converter for: the kernel's error before any string (seeds 2920261201 #25,
    # 2920261202 #41)
    ("UnicodeTranscode encoding '' of an empty input", _K, _eager(_UT.format(x="tf.constant([], tf.string)", enc=""))),
    ("UnicodeTranscode encoding 'a'", _K, _eager(_UT.format(x="tf.constant(['ab'])", enc="a"))),
    ("UnicodeTranscode encoding 'bogus' in a tf.function", _K, _traced(_UT.format(x="tf.constant(['ab'])",
                                                                                   enc="bogus"))),
    ("UnicodeTranscode encoding 'latin1'", _K, _eager(_UT.format(x="tf.constant(['ab'])", enc="latin1"))),
    ("UnicodeDecodeWithOffsets encoding ''", _K, _eager(
        "tf.raw_ops.UnicodeDecodeWithOffsets(input=tf.constant(['Hello']), input_encoding='', replacement_char=1)")),
    ("UnicodeDecode encoding 'x' of an empty input", _K, _eager(
        "tf.raw_ops.UnicodeDecode(input=tf.constant([], tf.string), input_encoding='x')")),
    ("tf.strings.unicode_decode encoding 'bogus'", _K, _eager("tf.strings.unicode_decode(tf.constant(['a']), 'bogus')")),
    # UnicodeEncode's checks of the splits (seed 2920261202 #0)
    ("UnicodeEncode splits [2]", _K, _eager(_UE.format(v="tf.constant([2147483646])", s=[2]))),
    ("UnicodeEncode splits [0, 3, 1]", _K, _eager(_UE.format(v=_AB, s=[0, 3, 1]))),
    ("UnicodeEncode splits [0, 2, 1, 2]", _K, _eager(_UE.format(v=_AB, s=[0, 2, 1, 2]))),
    ("UnicodeEncode splits []", _K, _eager(_UE.format(v=_AB, s=[]))),
    ("UnicodeEncode splits [0, 1, 2]", _K, _eager(_UE.format(v=_AB, s=[0, 1, 2]))),
    ("UnicodeEncode values of rank 2", _K, _eager(_UE.format(v="tf.constant([[65, 66]])", s=[0, 2]))),
    ("UnicodeEncode splits [1, 3, 1]", _K, _eager(_UE.format(v=_AB, s=[1, 3, 1]))),
    # EncodePng's compression range, DecodeCompressed's compression types (seeds 2920261201 #48, #152)
    ("EncodePng compression -2", _K, _eager("tf.raw_ops.EncodePng(image=tf.ones([3, 2, 1], tf.uint16), compression=-2)")),
    ("EncodePng compression 10", _K, _eager("tf.raw_ops.EncodePng(image=tf.ones([3, 2, 1], tf.uint8), compression=10)")),
    ("EncodePng compression 9", _K, _eager("tf.raw_ops.EncodePng(image=tf.ones([3, 2, 1], tf.uint8), compression=9)")),
    ("DecodeCompressed type 'x'", _K, _eager("tf.raw_ops.DecodeCompressed(compression_type='x', bytes=tf.constant(['a']))")),
    ("DecodeCompressed type 'a' of an empty input", _K, _eager(
        "tf.raw_ops.DecodeCompressed(compression_type='a', bytes=tf.constant([], tf.string))")),
    ("DecodeCompressed type 'zlib' in a tf.function", _K, _traced(
        "tf.raw_ops.DecodeCompressed(compression_type='zlib', bytes=tf.constant([''], tf.string))")),
    # the eager fast path gives up on a float in a list(int) attr: the fallback's None check (seed 2920261201 #110)
    ("MaxPool3D ksize [1.5], strides None", _K, _eager(
        "tf.raw_ops.MaxPool3D(input=tf.ones([1, 1, 1, 1, 1]), ksize=[1.5], padding='SAME', strides=None)")),
    ("AvgPool3D ksize [1.5], strides None", _K, _eager(
        "tf.raw_ops.AvgPool3D(input=tf.ones([1, 1, 1, 1, 1]), ksize=[1.5], padding='SAME', strides=None)")),
    ("MaxPool3D ksize [1.5], strides a list", _K, _eager(
        "tf.raw_ops.MaxPool3D(input=tf.ones([1, 1, 1, 1, 1]), ksize=[1.5], padding='SAME', strides=[1, 1, 1, 1, 1])")),
    ("MaxPool3D ksize of ones, strides None", _K, _eager(
        "tf.raw_ops.MaxPool3D(input=tf.ones([1, 1, 1, 1, 1]), ksize=[1, 1, 1, 1, 1], padding='SAME', strides=None)")),
    ("MaxPool ksize [1, 1.5, 1, 1]", _K, _eager(
        "tf.raw_ops.MaxPool(input=tf.ones([1, 2, 2, 1]), ksize=[1, 1.5, 1, 1], padding='SAME', strides=[1, 1, 1, 1])")),
    # ToBool: TensorToBool's dtypes, no gradient (seed 2920261202 #180)
    *[(f"ToBool {d} scalar", _K, _eager(f"tf.raw_ops.ToBool(input=tf.constant({v}, tf.{d}))"))
      for d, v in (("float16", 1), ("bfloat16", 0), ("uint16", 1), ("uint32", 0), ("uint64", 1), ("complex64", 1),
                   ("complex128", 0), ("int8", 0), ("uint8", 2), ("float64", "float('nan')"), ("string", "''"))],
    ("ToBool bfloat16 vector", _K, _eager("tf.raw_ops.ToBool(input=tf.constant([1.5], tf.bfloat16))")),
    ("ToBool gradient", _G, _grad_only("tf.raw_ops.ToBool(input=x)", "tf.constant([[0.5, 1.0]])")),
    ("ToBool gradient of a scalar", _G, _grad_only("tf.raw_ops.ToBool(input=x)", "tf.constant(0.5)")),
    # UniqueV2's axis must be a vector (seed 2920261201 #104)
    ("UniqueWithCountsV2 scalar axis", _K, _eager("tf.raw_ops.UniqueWithCountsV2(x=tf.constant([1, 2], tf.int8), axis=-1)")),
    ("UniqueV2 scalar axis", _K, _eager("tf.raw_ops.UniqueV2(x=tf.constant([1, 2], tf.int8), axis=0)")),
    ("UniqueV2 axis [[0]]", _K, _eager("tf.raw_ops.UniqueV2(x=tf.constant([1, 2], tf.int8), axis=[[0]])")),
    ("UniqueV2 axis [-1]", _K, _eager("tf.raw_ops.UniqueV2(x=tf.constant([[1, 2], [1, 2]], tf.int8), axis=[-1])")),
    # ParallelConcat's shape (seeds 2920261202 #63, 2920261204 #59)
    ("ParallelConcat shape None", _K, _eager("tf.raw_ops.ParallelConcat(values=(tf.ones([1, 2]),), shape=None)")),
    ("ParallelConcat shape []", _K, _eager("tf.raw_ops.ParallelConcat(values=(tf.ones([1, 2]),), shape=[])")),
    ("ParallelConcat shape [None, 2]", _K, _eager("tf.raw_ops.ParallelConcat(values=(tf.ones([1, 2]),), shape=[None, 2])")),
    ("ParallelConcat strings shape None", _K, _eager(
        "tf.raw_ops.ParallelConcat(values=(tf.reshape(tf.constant(['a'] * 6), [3, 1, 2]),), shape=None)")),
    ("ParallelConcat two rows", _K, _eager(
        "tf.raw_ops.ParallelConcat(values=(tf.ones([1, 2]), tf.zeros([1, 2])), shape=[2, 2])")),
    # StringFormat's count of placeholders (seed 2920261204 #161)
    ("StringFormat placeholder 'a', no match", _K, _eager(_SF.format(i="[tf.constant(['a']), tf.constant(1)]",
                                                                      t="%s", p="a"))),
    ("StringFormat two placeholders, one input", _K, _eager(_SF.format(i="[tf.constant(1)]", t="%s%s", p="%s"))),
    ("StringFormat empty placeholder", _K, _eager(_SF.format(i="[tf.constant(1), tf.constant(2)]", t="x", p=""))),
    ("StringFormat empty placeholder, characters", _K, _eager(_SF.format(i="[tf.constant(1), tf.constant(2)]",
                                                                          t="xyz", p=""))),
    ("StringFormat 'aaa' by 'aa'", _K, _eager(_SF.format(i="[tf.constant(1)]", t="aaa", p="aa"))),
    # BatchMatMulV2 of matrices: its own kernel (int16), not MatMul's (seed 2920261201 #168)
    ("BatchMatMulV2 int16 matrices", _K, _eager(
        "tf.raw_ops.BatchMatMulV2(x=tf.constant([[7, 1]], tf.int16), y=tf.constant([[2], [3]], tf.int16))")),
    ("BatchMatMulV2 int16 adj_y grad_y", _K, _eager(
        "tf.raw_ops.BatchMatMulV2(adj_y=True, y=tf.constant([[2]], tf.int16), x=tf.constant([[7]], tf.int16), "
        "grad_y=True)")),
    ("BatchMatMulV2 int16 size-incompatible", _K, _eager(
        "tf.raw_ops.BatchMatMulV2(x=tf.constant([[7, 1]], tf.int16), y=tf.constant([[2, 3]], tf.int16))")),
    ("BatchMatMulV2 uint8 matrices", _K, _eager(
        "tf.raw_ops.BatchMatMulV2(x=tf.constant([[7]], tf.uint8), y=tf.constant([[2]], tf.uint8))")),
    ("BatchMatMulV2 int16 in a tf.function", _K, _traced(
        "tf.raw_ops.BatchMatMulV2(x=tf.constant([[7, 1]], tf.int16), y=tf.constant([[2], [3]], tf.int16))")),
    # oneDNN's DepthwiseConv2dNativeBackpropInput reads input_sizes first (tape seed 2920261202 #116)
    ("DepthwiseConv2dNativeBackpropInput bfloat16 NCHW input_sizes [1]", _K, _eager(
        "tf.raw_ops.DepthwiseConv2dNativeBackpropInput(padding='VALID', dilations=[1, 2, 1, 1], "
        "input_sizes=tf.constant([1], tf.int32), strides=[1, 1, 1, 1], filter=tf.constant([-3.0], tf.bfloat16), "
        "out_backprop=tf.constant([-0.5], tf.bfloat16), data_format='NCHW')")),
    ("DepthwiseConv2dNativeBackpropInput float32 NCHW out_backprop of rank 2", _K, _eager(
        "tf.raw_ops.DepthwiseConv2dNativeBackpropInput(padding='VALID', input_sizes=tf.constant([1, 1, 1, 1]), "
        "strides=[1, 1, 1, 1], filter=tf.ones([1, 1, 1, 1]), out_backprop=tf.ones([1, 1]), data_format='NCHW')")),
    ("DepthwiseConv2dNativeBackpropInput float64 NCHW input_sizes [1]", _K, _eager(
        "tf.raw_ops.DepthwiseConv2dNativeBackpropInput(padding='VALID', input_sizes=tf.constant([1]), "
        "strides=[1, 1, 1, 1], filter=tf.ones([1, 1, 1, 1], tf.float64), out_backprop=tf.ones([1, 1, 1, 1], tf.float64), "
        "data_format='NCHW')")),
    # TensorStridedSliceUpdate of an empty slice: the input, no broadcast check (seed 2920261201 #82)
    ("TensorStridedSliceUpdate empty slice, new axis", _K, _eager(
        "tf.raw_ops.TensorStridedSliceUpdate(begin=[1, 0, 0, 2], input=tf.reshape(tf.range(12), [2, 2, 3]), "
        "new_axis_mask=2, strides=[1, -2, 1, 1], begin_mask=2, end=[2, 2, -1, 2], value=tf.ones([2, 3], tf.int32))")),
    ("TensorStridedSliceUpdate empty slice, float", _K, _eager(
        "tf.raw_ops.TensorStridedSliceUpdate(begin=[1], input=tf.ones([3]), strides=[1], end=[1], value=tf.ones([2, 3]))")),
    ("TensorStridedSliceUpdate new axis over the whole tensor", _K, _eager(
        "tf.raw_ops.TensorStridedSliceUpdate(begin=[0, 0], input=tf.reshape(tf.range(6), [2, 3]), new_axis_mask=1, "
        "strides=[1, 1], end=[1, 2], value=tf.zeros([1, 1, 2], tf.int32))")),
    ("tf.matmul int16 matrices", _K, _eager("tf.matmul(tf.constant([[7]], tf.int16), tf.constant([[2]], tf.int16))")),
    # the raw SqrtGrad/RsqrtGrad/ReciprocalGrad differentiate as math_grad.py's *GradGrad (seed 2920261202 #19)
    ("SqrtGrad gradient w.r.t. dy of 1e-310", _G, _grad_only("tf.raw_ops.SqrtGrad(y=tf.constant([-1.0], tf.float64), dy=x)",
                                                             "tf.constant([1e-310], tf.float64)")),
    ("SqrtGrad gradient w.r.t. y, dy 1e-310", _G, _grad_only(
        "tf.raw_ops.SqrtGrad(y=x, dy=tf.constant([1e-310], tf.float64))", "tf.constant([-1.0], tf.float64)")),
    ("SqrtGrad gradients, dy of shape [1] beside y [1, 1]", _G, lambda tf: _tape(
        "tf.raw_ops.SqrtGrad(y=x, dy=tf.constant([0.5 - 1j], tf.complex64))", "tf.constant([[1 + 2j]], tf.complex64)")(tf)),
    ("SqrtGrad gradient w.r.t. dy of shape [1] beside y [1, 1]", _G, _grad_only(
        "tf.raw_ops.SqrtGrad(y=tf.constant([[1 + 2j]], tf.complex64), dy=x)", "tf.constant([0.5 - 1j], tf.complex64)")),
    *[(f"{op} gradient w.r.t. {w}, {dt}", _G, _second(op, w, dt, y, d))
      for op in ("SqrtGrad", "RsqrtGrad", "ReciprocalGrad", "InvGrad") for w in ("y", "dy")
      for dt, y, d in (("float32", "[2.0, 0.5, -0.0, 1e-40]", "[3.0, 0.0, 1.0, 1e-40]"),
                       ("complex64", "[1 + 2j, 0.5j, 2 - 1j]", "[3 + 0j, 1 - 1j, 1e-40 + 0j]"))],
    # the shape functions of raw ops bound in session 28, at trace (sig seed 2920261203; shape_fns_raw28.py)
    *[(name, _T, _traced(expr)) for name, expr in _SIG_TRACES],
    # deprecated ops: op_def_library's NotImplementedError in a graph before any input (sig seed 2920261203 #59, #80, #84)
    ("BatchCholesky uint64 in a tf.function", _T, _traced("tf.raw_ops.BatchCholesky(input=tf.ones([1, 1, 1], tf.uint64))")),
    ("BatchIFFT in a tf.function", _T, _traced("tf.raw_ops.BatchIFFT(input=tf.ones([1], tf.complex64))")),
    ("BatchFFT3D float32 in a tf.function", _T, _traced("tf.raw_ops.BatchFFT3D(input=tf.ones([1, 1, 1]))")),
    ("TopK in a tf.function", _T, _traced("tf.raw_ops.TopK(input=tf.ones([3]), k=1)")),
    ("TileGrad in a tf.function", _T, _traced("tf.raw_ops.TileGrad(input=tf.ones([3]), multiples=[1])")),
    ("SelfAdjointEig float16 vector in a tf.function", _T, _traced(
        "tf.raw_ops.SelfAdjointEig(input=tf.ones([2], tf.float16))")),
    ("BatchIFFT eagerly", _K, _eager("tf.raw_ops.BatchIFFT(input=tf.ones([1], tf.complex64))")),
    ("TopK eagerly", _K, _eager("tf.raw_ops.TopK(input=tf.ones([3]), k=1)")),
    # an output-less raw op in a tf.function is the Operation (sig seed 2920261203 #138)
    ("NoOp returned from a tf.function", _T, _traced("tf.raw_ops.NoOp()")),
    ("NoOp is not None in a tf.function", _T, _traced("tf.raw_ops.NoOp() is None")),
    ("NoOp eagerly", _K, _eager("tf.raw_ops.NoOp()")),
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


if __name__ == "__main__":  # TF worker: python test_fz29a_edges_tf.py 0,1,2 -> pickled results on stdout
    tf_workers.serve(EDGES.tf_worker)
