"""Rules behind the twentieth fuzzer's classes that fz30a closed (fresh campaigns of session 30: seed 3020261201
in every mode, sig seed 3020261202, and the open classes of sig seed 2920261205), each against real
TensorFlow 2.21: the same raw call on both backends gives the same dtype and values bit for bit (a NaN
matching any NaN), or raises the same exception class. Eagerly, inside a tf.function and under a
GradientTape. Needs the `tf` extra.
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

_SSG = ("tf.raw_ops.SparseSliceGrad(output_indices=tf.constant({o}, tf.int64), input_indices=tf.constant({i}, "
        "tf.int64), input_start=tf.constant({s}, tf.int64), backprop_val_grad=tf.constant({g}))")
_SNA = "tf.raw_ops.ScatterNdNonAliasingAdd(input=tf.constant({x}), indices=tf.constant({i}), updates=tf.constant({u}))"
_ACC = "tf.raw_ops.AccumulateNV2(shape={s}, inputs=[{xs}])"


def _grad_only(expr: str, source: str) -> Callable[[Any], Any]:
    """Only the gradient of `expr` (of a watched `x` made by `source`) under a GradientTape."""
    def run(tf: Any) -> Any:
        return _tape(expr, source)(tf)[1]
    return run


# the composed raw ops (RawArgs.via) that TF 2.21's registry gives no gradient function, as raw_gradients.py
# lists them when this module was written (a literal, so that TF's recorded answer does not depend on simdist's code)
_REGISTRY_NAMES = (
    "All", "AllCandidateSampler", "Any", "ApproximateEqual", "AsString", "BatchCholesky", "BatchCholeskyGrad",
    "BatchFFT", "BatchFFT2D", "BatchFFT3D", "BatchIFFT", "BatchIFFT2D", "BatchIFFT3D", "BatchMatrixBandPart",
    "BatchMatrixDeterminant", "BatchMatrixDiag", "BatchMatrixDiagPart", "BatchMatrixInverse", "BatchMatrixSetDiag",
    "BatchMatrixSolve", "BatchMatrixSolveLs", "BatchMatrixTriangularSolve", "BatchSelfAdjointEig",
    "BatchSelfAdjointEigV2", "BatchSvd", "Bincount", "BroadcastGradientArgs", "Bucketize", "ConcatOffset",
    "Conv3DBackpropFilter", "Conv3DBackpropInput", "Copy", "CudnnRNNBackprop", "CudnnRNNBackpropV2",
    "CudnnRNNBackpropV3", "CudnnRNNCanonicalToParams", "CudnnRNNCanonicalToParamsV2", "CudnnRNNParamsSize",
    "CudnnRNNParamsToCanonical", "CudnnRNNParamsToCanonicalV2", "DataFormatDimMap", "DataFormatVecPermute",
    "DecodeAndCropJpeg", "DecodeCSV", "DecodeJpeg", "DeepCopy", "DrawBoundingBoxes", "Empty", "Equal",
    "ExtractGlimpseV2", "FFTND", "FixedUnigramCandidateSampler", "GenerateBoundingBoxProposals", "HSVToRGB",
    "IFFTND", "IRFFT3D", "IRFFTND", "InTopK", "InplaceAdd", "InplaceSub", "InplaceUpdate", "LinSpace", "Lu",
    "MatrixExponential", "MatrixLogarithm", "MaxPoolGradGradV2", "MaxPoolGradGradWithArgmax", "Mod", "Multinomial",
    "NoOp", "NonMaxSuppression", "NonMaxSuppressionV2", "NonMaxSuppressionV4", "NotEqual", "OneHot", "OnesLike",
    "ParallelConcat", "ParseExampleV2", "ParseSequenceExampleV2", "PopulationCount", "RFFT3D", "RFFTND",
    "RandomPoissonV2", "RandomShuffle", "RandomStandardNormal", "RandomUniform", "RandomUniformInt", "Range",
    "ReduceJoin", "ResizeArea", "SegmentMaxV2", "SegmentMinV2", "SegmentProdV2", "SegmentSumV2", "SelfAdjointEig",
    "SerializeTensor", "Shape", "ShapeN", "Size", "SparseConcat", "SparseCross", "SparseCrossV2", "SparseSplit",
    "StatelessMultinomial", "StatelessRandomBinomial", "StatelessRandomGetAlg", "StatelessRandomGetKeyCounter",
    "StatelessRandomGetKeyCounterAlg", "StatelessRandomNormal", "StatelessRandomNormalV2", "StatelessRandomPoisson",
    "StatelessRandomUniform", "StatelessRandomUniformFullInt", "StatelessRandomUniformFullIntV2",
    "StatelessRandomUniformInt", "StatelessRandomUniformIntV2", "StatelessRandomUniformV2", "StatelessShuffle",
    "StatelessTruncatedNormal", "StatelessTruncatedNormalV2", "StaticRegexFullMatch", "StaticRegexReplace",
    "StringJoin", "StringLower", "StringNGrams", "StringSplit", "StringSplitV2", "StringToNumber", "StringUpper",
    "TileGrad", "TruncatedNormal", "UnicodeDecode", "UnicodeDecodeWithOffsets", "UnicodeEncode", "UniqueV2",
    "UniqueWithCountsV2", "UnsortedSegmentJoin", "ZerosLike",
)


def _registry(tf: Any) -> list[str]:
    """"Op:entry" for each of _REGISTRY_NAMES: on TF, what ops._gradient_registry.lookup gives (none: LookupError,
    nodiff: None, fn: a function); on simdist, what raw_gradients.py says (fn: neither list)."""
    out = []
    for n in _REGISTRY_NAMES:
        if tf.__name__.startswith("simdist"):
            from simdist.runtime.ops import raw_gradients
            kind = "none" if n in raw_gradients.NO_ENTRY else "nodiff" if n in raw_gradients.NOT_DIFFERENTIABLE else "fn"
        else:
            from tensorflow.python.framework import ops
            try:
                kind = "nodiff" if ops._gradient_registry.lookup(n) is None else "fn"
            except LookupError:
                kind = "none"
        out.append(f"{n}:{kind}")
    return out


_SHAPE_FNS = [   # (name, the raw call traced in a tf.function: the shape function's ValueError, or TF's own)
    ("EncodeWav audio of rank 1", "tf.raw_ops.EncodeWav(audio=tf.ones([1]), sample_rate=tf.constant([1]))"),
    ("EncodeWav sample_rate of rank 1", "tf.raw_ops.EncodeWav(audio=tf.ones([2, 1]), sample_rate=tf.constant([1]))"),
    ("EncodePng scalar image", "tf.raw_ops.EncodePng(image=tf.constant(1, tf.uint8), compression=1)"),
    ("EncodePng image of rank 5", "tf.raw_ops.EncodePng(image=tf.ones([1, 1, 1, 1, 1], tf.uint8))"),
    ("EncodeJpeg image of rank 2", "tf.raw_ops.EncodeJpeg(image=tf.ones([2, 2], tf.uint8))"),
    ("Fingerprint method '-4.5'", "tf.raw_ops.Fingerprint(data=tf.ones([3, 1], tf.int16), method=tf.constant('-4.5'))"),
    ("Fingerprint scalar data", "tf.raw_ops.Fingerprint(data=tf.ones([], tf.int16), method=tf.constant(['x']))"),
    ("Fingerprint method a vector", "tf.raw_ops.Fingerprint(data=tf.ones([2], tf.int16), method=tf.constant(['x']))"),
    ("SparseSliceGrad input_indices of rank 1", _SSG.format(o=[[0]], i=[0], s=[0], g=[1.0])),
    ("ApproximateEqual [2,3] and [3]", "tf.raw_ops.ApproximateEqual(x=tf.ones([2, 3], tf.uint64), y=tf.ones([3], "
     "tf.uint64), tolerance=1.0)"),
    ("ApproximateEqual [2,3] and [2,1]", "tf.raw_ops.ApproximateEqual(x=tf.ones([2, 3]), y=tf.ones([2, 1]))"),
    ("UnicodeEncode empty splits", "tf.raw_ops.UnicodeEncode(input_values=tf.constant([65]), "
                                   "input_splits=tf.constant([], tf.int64), output_encoding='UTF-8')"),
    ("UnicodeEncode values of rank 2", "tf.raw_ops.UnicodeEncode(input_values=tf.constant([[65]]), "
                                       "input_splits=tf.constant([0, 1], tf.int64), output_encoding='UTF-8')"),
    ("GenerateBoundingBoxProposals vectors", "tf.raw_ops.GenerateBoundingBoxProposals(scores=tf.ones([2]), "
     "bbox_deltas=tf.ones([2]), image_info=tf.ones([2]), anchors=tf.ones([2]), nms_threshold=tf.ones([2]), "
     "pre_nms_topn=tf.ones([2], tf.int32), min_size=tf.ones([]), post_nms_topn=2)"),
    ("GenerateBoundingBoxProposals image_info of rank 4", "tf.raw_ops.GenerateBoundingBoxProposals("
     "scores=tf.ones([1, 1, 1, 1]), bbox_deltas=tf.ones([1, 1, 1, 4]), image_info=tf.ones([1, 1, 1, 5]), "
     "anchors=tf.ones([1, 1, 4]), nms_threshold=tf.constant(0.5), pre_nms_topn=tf.constant(1), "
     "min_size=tf.constant(0.0), post_nms_topn=-1)"),
    ("Conv2DBackpropFilterV2 filter of rank 2", "tf.raw_ops.Conv2DBackpropFilterV2(input=tf.ones([1]), "
     "filter=tf.ones([1, 1]), out_backprop=tf.ones([1]), strides=[1, 3, 1, 1], padding='VALID', data_format='NCHW')"),
    ("Conv2DBackpropInputV2 input of rank 2", "tf.raw_ops.Conv2DBackpropInputV2(input=tf.ones([1, 2]), "
     "filter=tf.ones([1]), out_backprop=tf.ones([1]), strides=[2, 1, 1], padding='SAME')"),
    ("Conv2DBackpropInputV2 input of rank 4, others not checked", "tf.raw_ops.Conv2DBackpropInputV2("
     "input=tf.ones([1, 2, 2, 1]), filter=tf.ones([1]), out_backprop=tf.ones([1]), strides=[1, 1, 1, 1], "
     "padding='SAME')"),
    ("CudnnRNNV2 input_h of rank 1", "tf.raw_ops.CudnnRNNV2(input=tf.ones([1, 1, 1]), input_h=tf.ones([1]), "
     "input_c=tf.ones([1, 1, 1]), params=tf.ones([10]))"),
    ("CudnnRNN params of rank 2", "tf.raw_ops.CudnnRNN(input=tf.ones([1, 1, 1]), input_h=tf.ones([1, 1, 1]), "
     "input_c=tf.ones([1]), params=tf.ones([10, 1]))"),
    ("CudnnRNNV3 lstm input_c of rank 1", "tf.raw_ops.CudnnRNNV3(input=tf.ones([1, 1, 1]), input_h=tf.ones([1, 1, 1]), "
     "input_c=tf.ones([1]), params=tf.ones([10]), sequence_lengths=tf.constant([1]), rnn_mode='lstm')"),
    ("CudnnRNNV3 gru input_c of rank 1", "tf.raw_ops.CudnnRNNV3(input=tf.ones([1, 1, 1]), input_h=tf.ones([1, 1, 1]), "
     "input_c=tf.ones([1]), params=tf.ones([10]), sequence_lengths=tf.constant([1]), rnn_mode='gru')"),
    ("CudnnRNNParamsSize num_units of rank 1", "tf.raw_ops.CudnnRNNParamsSize(num_layers=tf.constant(1), "
     "num_units=tf.constant([1]), input_size=tf.constant(1), T=tf.float32, S=tf.int32)"),
    ("IRFFT3D input of rank 2", "tf.raw_ops.IRFFT3D(input=tf.ones([2, 1], tf.complex64), fft_length=[3, -4], "
                                "Treal=tf.float64)"),
    ("IRFFT3D fft_length of 2", "tf.raw_ops.IRFFT3D(input=tf.ones([2, 1, 1], tf.complex64), fft_length=[3, -4], "
                                "Treal=tf.float64)"),
    ("RFFT3D scalar fft_length", "tf.raw_ops.RFFT3D(input=tf.ones([1, 1, 2], tf.float64), fft_length=tf.constant(2))"),
    ("RFFT2D input of rank 1", "tf.raw_ops.RFFT2D(input=tf.ones([2]), fft_length=[1, 2])"),
    ("IRFFTND scalar input", "tf.raw_ops.IRFFTND(input=tf.ones([], tf.complex64), fft_length=tf.constant([1]), "
                             "axes=tf.constant([1]))"),
    ("StatelessRandomUniformFullIntV2 key of 2", "tf.raw_ops.StatelessRandomUniformFullIntV2(shape=[3, 3], "
     "key=tf.ones([2], tf.uint64), counter=tf.ones([2], tf.uint64), alg=1, dtype=tf.int32)"),
    ("StatelessRandomUniformV2 alg a vector", "tf.raw_ops.StatelessRandomUniformV2(shape=[3], "
     "key=tf.ones([1], tf.uint64), counter=tf.ones([2], tf.uint64), alg=[1])"),
    ("StatelessRandomUniformIntV2 key of 2", "tf.raw_ops.StatelessRandomUniformIntV2(shape=[2], "
     "key=tf.ones([2], tf.uint64), counter=tf.ones([2], tf.uint64), alg=1, minval=tf.constant(1), maxval=2)"),
    ("StatelessRandomGammaV3 scalar key", "tf.raw_ops.StatelessRandomGammaV3(shape=tf.constant([], tf.int32), "
     "key=tf.ones([], tf.uint64), counter=tf.ones([], tf.uint64), alg=tf.constant(1), alpha=tf.ones([]))"),
    ("StatelessTruncatedNormal seed of 1", "tf.raw_ops.StatelessTruncatedNormal(shape=tf.constant([4, 4], tf.int64), "
     "seed=tf.constant([7], tf.int64))"),
    ("StatelessRandomUniformInt minval a vector", "tf.raw_ops.StatelessRandomUniformInt(shape=[2], "
     "seed=tf.constant([7], tf.int64), minval=tf.constant([1]), maxval=2)"),
    ("StatelessRandomUniformFullInt seed of rank 2", "tf.raw_ops.StatelessRandomUniformFullInt(shape=[2], "
     "seed=tf.constant([[1, 2]]), dtype=tf.int32)"),
    ("FakeQuantWithMinMaxVarsGradient min of rank 3", "tf.raw_ops.FakeQuantWithMinMaxVarsGradient(gradients="
     "tf.ones([2, 2, 2]), max=tf.constant(-0.0), inputs=tf.ones([2, 2, 2]), narrow_range=False, min=tf.ones([2, 2, 2]))"),
    ("FakeQuantWithMinMaxVarsGradient max a vector", "tf.raw_ops.FakeQuantWithMinMaxVarsGradient(gradients="
     "tf.ones([2]), max=tf.constant([1.0]), inputs=tf.ones([2]), min=tf.constant(0.0))"),
    ("FakeQuantWithMinMaxVarsGradient inputs of 3", "tf.raw_ops.FakeQuantWithMinMaxVarsGradient(gradients="
     "tf.ones([2]), max=tf.constant(1.0), inputs=tf.ones([3]), min=tf.constant(0.0))"),
    ("FakeQuantWithMinMaxVarsPerChannelGradient max of 1", "tf.raw_ops.FakeQuantWithMinMaxVarsPerChannelGradient("
     "gradients=tf.ones([2]), inputs=tf.ones([2]), min=tf.constant([0.0, 0.0]), max=tf.constant([1.0]))"),
    ("FakeQuantWithMinMaxVarsPerChannelGradient scalars", "tf.raw_ops.FakeQuantWithMinMaxVarsPerChannelGradient("
     "gradients=tf.ones([]), inputs=tf.ones([]), min=tf.constant([0.0]), max=tf.constant([1.0]))"),
    ("FakeQuantWithMinMaxVarsPerChannel min of 3", "tf.raw_ops.FakeQuantWithMinMaxVarsPerChannel(inputs=tf.ones([2]), "
     "min=tf.constant([0.0, 0.0, 0.0]), max=tf.constant([1.0, 1.0, 1.0]))"),
    ("FakeQuantWithMinMaxVars min a vector", "tf.raw_ops.FakeQuantWithMinMaxVars(inputs=tf.ones([2]), "
     "min=tf.constant([0.0, 0.0]), max=tf.constant(1.0))"),
    ("CTCLossV2 labels_indices a vector", "tf.raw_ops.CTCLossV2(inputs=tf.ones([2, 1, 3]), labels_indices="
     "tf.constant([1, 1], tf.int64), labels_values=tf.constant([1]), sequence_length=tf.constant([1]))"),
    ("CTCLossV2 two sequence lengths", "tf.raw_ops.CTCLossV2(inputs=tf.ones([2, 1, 3]), labels_indices="
     "tf.constant([[1, 1]], tf.int64), labels_values=tf.constant([1]), sequence_length=tf.constant([1, 2]))"),
    ("SparseMatMul inner dimensions", "tf.raw_ops.SparseMatMul(a=tf.ones([1, 3]), b=tf.ones([2, 1]))"),
    ("SparseMatMul b a vector", "tf.raw_ops.SparseMatMul(a=tf.ones([1, 3]), b=tf.ones([1]))"),
    ("SegmentMaxV2 data and ids' prefix", "tf.raw_ops.SegmentMaxV2(num_segments=2, data=tf.ones([2, 4, 3, 4], "
     "tf.uint64), segment_ids=tf.constant([[0], [0], [1]], tf.int64))"),
    ("SegmentMaxV2 3 rows, 2 ids", "tf.raw_ops.SegmentMaxV2(num_segments=2, data=tf.ones([3, 1], tf.uint64), "
     "segment_ids=tf.constant([0, 0], tf.int64))"),
    ("UniqueWithCountsV2 axis of 2", "tf.raw_ops.UniqueWithCountsV2(x=tf.ones([2, 3, 1, 3], tf.int8), "
     "out_idx=tf.int32, axis=tf.constant([-1, 2], tf.int64))"),
    ("UniqueV2 empty axis of a matrix", "tf.raw_ops.UniqueV2(x=tf.ones([2, 3], tf.int8), axis=tf.constant([], tf.int64))"),
    ("ParallelConcat shape None", "tf.raw_ops.ParallelConcat(shape=None, values=[tf.ones([1, 2], tf.int8), "
     "tf.ones([1, 2], tf.int8)])"),
    ("ParallelConcat scalar shape", "tf.raw_ops.ParallelConcat(shape=[], values=[tf.constant(5, tf.int64), "
     "tf.constant(5, tf.int64)])"),
    ("ParallelConcat first dimension 2", "tf.raw_ops.ParallelConcat(shape=[3, 2, 4], values=[tf.ones([2, 4], tf.bool), "
     "tf.ones([1, 0], tf.bool)])"),
    ("ParallelConcat value of 3 columns", "tf.raw_ops.ParallelConcat(shape=[2, 2], values=[tf.ones([1, 2]), "
     "tf.ones([1, 3])])"),
    ("ParallelConcat two rows", "tf.raw_ops.ParallelConcat(shape=[2, 2], values=[tf.ones([1, 2]), tf.zeros([1, 2])])"),
    ("DecodeWav contents of rank 2", "tf.raw_ops.DecodeWav(contents=tf.constant([['a']]))"),
    ("DecodeWav desired_channels -2", "tf.raw_ops.DecodeWav(contents=tf.constant('a'), desired_channels=-2)"),
    ("DecodeWav desired_samples -2", "tf.raw_ops.DecodeWav(contents=tf.constant('a'), desired_samples=-2)"),
    ("AdjustHue images of rank 2", "tf.raw_ops.AdjustHue(images=tf.ones([2, 3]), delta=tf.constant(0.5))"),
    ("SparseAddGrad b_indices a vector", "tf.raw_ops.SparseAddGrad(a_indices=[[0]], backprop_val_grad=tf.constant(1.0), "
     "sum_indices=tf.constant([[0]], tf.int64), b_indices=tf.constant([1], tf.int64))"),
    ("DecodeCSV record_defaults of uint64", "tf.raw_ops.DecodeCSV(records=tf.constant('1'), "
     "record_defaults=[tf.constant([1], tf.uint64)])"),
    ("DecodeCSV record_defaults int32 and uint16", "tf.raw_ops.DecodeCSV(records=tf.constant('1'), "
     "record_defaults=[tf.constant([1], tf.int32), tf.constant([1], tf.uint16)])"),
    ("SparseSegmentMeanWithNumSegments num_segments -3", "tf.raw_ops.SparseSegmentMeanWithNumSegments(indices=[0, 0], "
     "segment_ids=tf.constant([0, 1], tf.int64), data=tf.ones([2], tf.float16), num_segments=-3)"),
    ("StatelessParameterizedTruncatedNormal maxvals of 3", "tf.raw_ops.StatelessParameterizedTruncatedNormal("
     "shape=tf.constant([-2], tf.int32), means=tf.ones([1, 2, 1]), stddevs=tf.ones([2, 4]), seed=[0, 7], "
     "maxvals=tf.ones([3]), minvals=tf.ones([2, 2, 4]))"),
    ("StatelessParameterizedTruncatedNormal stddevs of 3", "tf.raw_ops.StatelessParameterizedTruncatedNormal("
     "shape=tf.constant([2], tf.int32), means=tf.ones([2]), stddevs=tf.ones([3]), seed=[0, 7], maxvals=tf.ones([2]), "
     "minvals=tf.ones([2]))"),
    ("StatelessParameterizedTruncatedNormal seed of 3", "tf.raw_ops.StatelessParameterizedTruncatedNormal("
     "shape=tf.constant([2], tf.int32), means=tf.ones([2]), stddevs=tf.ones([2]), seed=[0, 7, 1], "
     "maxvals=tf.ones([2]), minvals=tf.ones([2]))"),
    ("StatelessParameterizedTruncatedNormal shape -2", "tf.raw_ops.StatelessParameterizedTruncatedNormal("
     "shape=tf.constant([-2], tf.int32), means=tf.ones([2]), stddevs=tf.ones([2]), seed=[0, 7], maxvals=tf.ones([2]), "
     "minvals=tf.ones([2]))"),
    ("BatchMatMul vectors", "tf.raw_ops.BatchMatMul(x=tf.ones([4], tf.float16), y=tf.ones([1], tf.float16))"),
    ("BatchMatMul batch 2 and 3", "tf.raw_ops.BatchMatMul(x=tf.ones([2, 1, 1], tf.float64), y=tf.ones([3, 1, 1], "
     "tf.float64))"),
    ("BatchMatMul ranks 2 and 3", "tf.raw_ops.BatchMatMul(x=tf.ones([1, 3], tf.float64), y=tf.ones([1, 3, 1], "
     "tf.float64))"),
    ("BatchMatMul inner 3 and 2", "tf.raw_ops.BatchMatMul(x=tf.ones([2, 2, 3]), y=tf.ones([2, 2, 3]))"),
    ("BatchMatMul adj_x", "tf.raw_ops.BatchMatMul(x=tf.ones([2, 3, 2]), y=tf.ones([2, 3, 2]), adj_x=True)"),
    ("StatelessRandomGammaV2 shape -2", "tf.raw_ops.StatelessRandomGammaV2(shape=[-2, 2, 3], seed=[1, 1], "
     "alpha=tf.ones([1, 1, 1]))"),
    ("StatelessRandomGammaV2 seed of 3", "tf.raw_ops.StatelessRandomGammaV2(shape=[2], seed=[1, 1, 3], alpha=tf.ones([2]))"),
    ("StringNGrams scalar data_splits", "tf.raw_ops.StringNGrams(data_splits=tf.constant(-4, tf.int64), "
     "data=tf.constant(['-4.5', 'nan']), right_pad='a', ngram_widths=[], left_pad='x', pad_width=4, separator='a', "
     "preserve_short_sequences=True)"),
    ("RegexReplace pattern a matrix", "tf.raw_ops.RegexReplace(pattern=tf.constant([['nan']]), input=tf.constant(['Hello']), "
     "rewrite=tf.constant('a'))"),
    ("RegexReplace rewrite a vector", "tf.raw_ops.RegexReplace(pattern=tf.constant('a'), input=tf.constant(['Hello']), "
     "rewrite=tf.constant(['a']))"),
    ("RegexFullMatch pattern a vector", "tf.raw_ops.RegexFullMatch(pattern=tf.constant(['nan']), input=tf.constant(['Hello']))"),
    ("CudnnRNNParamsToCanonical params of rank 3", "tf.raw_ops.CudnnRNNParamsToCanonical(num_layers=tf.constant(1), "
     "num_units=tf.constant(1), params=tf.ones([3, 1, 2]), rnn_mode='gru', input_mode='linear_input', "
     "direction='bidirectional', input_size=tf.constant(1), num_params=1)"),
    ("CudnnRNNParamsToCanonicalV2 params of rank 4", "tf.raw_ops.CudnnRNNParamsToCanonicalV2(num_layers=tf.constant(1), "
     "num_units=tf.constant(1), params=tf.ones([1, 2, 2, 1], tf.float64), num_params_biases=5, num_params_weights=1, "
     "direction='bidirectional', input_size=tf.constant(1))"),
    ("MatrixDiagPartV2 string padding of rank 2", "tf.raw_ops.MatrixDiagPartV2(k=0, padding_value=tf.fill([4, 4], 'a'), "
     "input=tf.fill([4, 4], 'b'))"),
    ("MatrixDiagPartV2 float padding of rank 2", "tf.raw_ops.MatrixDiagPartV2(k=0, padding_value=tf.ones([4, 4]), "
     "input=tf.ones([4, 4]))"),
    ("NonMaxSuppression scores of rank 2", "tf.raw_ops.NonMaxSuppression(scores=tf.constant([[0.75], [0.25]]), "
     "iou_threshold=-1.0, max_output_size=tf.constant(2, tf.int32), boxes=tf.constant([[0.75], [-1.0]]))"),
    ("NonMaxSuppression boxes of 3 columns", "tf.raw_ops.NonMaxSuppression(scores=tf.constant([0.75, 0.25]), "
     "iou_threshold=0.5, max_output_size=tf.constant(2, tf.int32), boxes=tf.ones([2, 3]))"),
    ("NonMaxSuppression 3 scores for 2 boxes", "tf.raw_ops.NonMaxSuppression(scores=tf.constant([0.75, 0.25, 1.0]), "
     "iou_threshold=0.5, max_output_size=tf.constant(2, tf.int32), boxes=tf.ones([2, 4]))"),
    ("UnsortedSegmentJoin ids' prefix", "tf.raw_ops.UnsortedSegmentJoin(separator='x', num_segments=tf.constant(5, "
     "tf.int32), inputs=tf.fill([2, 3, 1], 'a'), segment_ids=[[-1, 0], [1, 1], [2, 2], [2, 2]])"),
    ("UnsortedSegmentJoin num_segments a vector", "tf.raw_ops.UnsortedSegmentJoin(inputs=tf.fill([4, 2, 1], 'a'), "
     "num_segments=tf.constant([3], tf.int64), segment_ids=tf.constant([0, 0, 2, 3]))"),
    ("UnsortedSegmentJoin num_segments -3", "tf.raw_ops.UnsortedSegmentJoin(inputs=tf.fill([4, 2, 1], 'a'), "
     "num_segments=tf.constant(-3, tf.int64), segment_ids=tf.constant([0, 0, 2, 3]))"),
    ("UnsortedSegmentJoin ids of rank 2 for a vector", "tf.raw_ops.UnsortedSegmentJoin(inputs=tf.fill([4], 'a'), "
     "num_segments=3, segment_ids=tf.constant([[0, 0, 2, 3]]))"),
    ("ScaleAndTranslate images of rank 2, kernel_type 'x'", "tf.raw_ops.ScaleAndTranslate(images=tf.ones([2, 2]), "
     "scale=tf.ones([2]), kernel_type='x', translation=tf.zeros([2]), size=[1, 1])"),
    ("ScaleAndTranslate size of 3", "tf.raw_ops.ScaleAndTranslate(images=tf.ones([1, 2, 2, 1]), scale=tf.ones([2]), "
     "kernel_type='x', translation=tf.zeros([2]), size=[1, 1, 1])"),
    ("ScaleAndTranslate size a matrix", "tf.raw_ops.ScaleAndTranslate(images=tf.ones([1, 2, 2, 1]), scale=tf.ones([2]), "
     "kernel_type='x', translation=tf.zeros([2]), size=[[1, 1]])"),
    # StridedSliceGrad's shape function reads only the shape tensor: the masks are the kernel's (sig #48)
    ("StridedSliceGrad two ellipses", "tf.raw_ops.StridedSliceGrad(ellipsis_mask=3, shape=tf.constant([3], "
     "tf.int64), end=tf.constant([0], tf.int64), shrink_axis_mask=2, begin_mask=0, begin=tf.constant([1], tf.int64), "
     "strides=[3], end_mask=0, dy=tf.ones([3], tf.float64))"),
]

_GRADS = [   # (name, expression of x, source of x): TF 2.21's gradient registry through a tape
    ("Bucketize", "tf.raw_ops.Bucketize(input=x, boundaries=[0.5, 1.0])", "tf.constant([[0.0], [7.0], [1e-3]])"),
    ("InplaceUpdate", "tf.raw_ops.InplaceUpdate(x=x, i=tf.constant([0]), v=tf.constant([1.0]))", "tf.constant([4.0, 7.0])"),
    ("InplaceAdd", "tf.raw_ops.InplaceAdd(x=x, i=tf.constant([1]), v=tf.constant([1.0]))", "tf.constant([4.0, 7.0])"),
    ("InplaceSub of v", "tf.raw_ops.InplaceSub(x=tf.constant([4.0, 7.0]), i=tf.constant([1]), v=x)", "tf.constant([1.0])"),
    ("Copy", "tf.raw_ops.Copy(input=x)", "tf.constant(3.0)"),
    ("DeepCopy", "tf.raw_ops.DeepCopy(x=x)", "tf.constant([3.0])"),
    ("MaxPoolGradGradV2", "tf.raw_ops.MaxPoolGradGradV2(orig_input=x, orig_output=x, grad=x, ksize=[1, 1, 1, 1], "
     "strides=[1, 1, 1, 1], padding='VALID')", "tf.ones([1, 2, 2, 1])"),
    ("DrawBoundingBoxes (not differentiable)", "tf.raw_ops.DrawBoundingBoxes(images=x, "
     "boxes=tf.constant([[[0.0, 0.0, 1.0, 1.0]]]))", "tf.ones([1, 2, 2, 1])"),
    ("Mod", "tf.raw_ops.Mod(x=x, y=tf.constant(2.0))", "tf.constant(3.0)"),
    ("OneHot on_value", "tf.raw_ops.OneHot(indices=[0, 1], depth=2, on_value=x, off_value=tf.constant(0.0))",
     "tf.constant(1.0)"),
    ("LinSpace start", "tf.raw_ops.LinSpace(start=x, stop=tf.constant(2.0), num=3)", "tf.constant(1.0)"),
    ("Range start", "tf.raw_ops.Range(start=x, limit=tf.constant(3.0), delta=tf.constant(1.0))", "tf.constant(0.5)"),
    ("MatrixLogarithm", "tf.raw_ops.MatrixLogarithm(input=tf.cast(x, tf.complex64))", "tf.constant([[2.0, 1.0], [0.5, 3.0]])"),
    ("Lu", "tf.raw_ops.Lu(input=x)[0]", "tf.constant([[2.0, 1.0], [0.5, 3.0]])"),
    ("RFFT3D", "tf.raw_ops.RFFT3D(input=x, fft_length=[1, 1, 2])", "tf.constant([[[1.0, 2.0]]])"),
    ("ParallelConcat", "tf.raw_ops.ParallelConcat(values=[x], shape=[1, 2])", "tf.constant([[1.0, 2.0]])"),
    ("ExtractGlimpseV2", "tf.raw_ops.ExtractGlimpseV2(input=x, size=[1, 1], offsets=[[0.0, 0.0]])", "tf.ones([1, 2, 2, 1])"),
    ("EncodeWav", "tf.raw_ops.EncodeWav(audio=x, sample_rate=44100)", "tf.constant([[0.5]])"),
    ("tf.audio.encode_wav", "tf.audio.encode_wav(x, 44100)", "tf.constant([[0.5]])"),
    ("SparseSliceGrad", "tf.raw_ops.SparseSliceGrad(backprop_val_grad=x, input_indices=tf.constant([[0]], tf.int64), "
     "input_start=tf.constant([0], tf.int64), output_indices=tf.constant([[0]], tf.int64))", "tf.constant([0.5])"),
    ("SparseFillEmptyRowsGrad", "tf.raw_ops.SparseFillEmptyRowsGrad(reverse_index_map=tf.constant([0], tf.int64), "
     "grad_values=x)[0]", "tf.constant([0.5])"),
    ("StatelessSampleDistortedBoundingBox", "tf.raw_ops.StatelessSampleDistortedBoundingBox(image_size=[4, 4, 1], "
     "bounding_boxes=x, min_object_covered=tf.constant(0.1), seed=[1, 2])[0]", "tf.constant([[[0.0, 0.0, 1.0, 1.0]]])"),
    ("NonMaxSuppressionWithOverlaps (not differentiable)", "tf.raw_ops.NonMaxSuppressionWithOverlaps(overlaps=x, "
     "scores=tf.constant([1.0, 0.5]), max_output_size=2, overlap_threshold=0.5, score_threshold=0.0)",
     "tf.constant([[1.0, 0.0], [0.0, 1.0]])"),
]


CASES: list[tuple[str, str, Callable[[Any], Any]]] = [
    # SparseSliceGrad's kernel checks, in sparse_slice_grad_op.cc's order (seed 3020261201 #15)
    ("SparseSliceGrad rank-1 indices", _K, _eager(
        "tf.raw_ops.SparseSliceGrad(output_indices=tf.constant([2, 1, 3, 0], tf.int64), input_indices=[0, 1, 2, 2], "
        "input_start=tf.constant([-4, 5, -4, 1], tf.int64), backprop_val_grad=tf.constant([0, 7, 2, -1], tf.int64))")),
    ("SparseSliceGrad grad a matrix", _K, _eager(_SSG.format(o=[[0]], i=[[0]], s=[0], g=[[1.0]]))),
    ("SparseSliceGrad ndims differ", _K, _eager(_SSG.format(o=[[0]], i=[[0, 1]], s=[0], g=[1.0]))),
    ("SparseSliceGrad more output rows", _K, _eager(_SSG.format(o=[[0], [1]], i=[[0]], s=[0], g=[1.0, 2.0]))),
    ("SparseSliceGrad grad of 2 for 1 row", _K, _eager(_SSG.format(o=[[0]], i=[[0], [1]], s=[0], g=[1.0, 2.0]))),
    ("SparseSliceGrad scalar start", _K, _eager(_SSG.format(o=[[0]], i=[[0], [1]], s=0, g=[1.0]))),
    ("SparseSliceGrad start of 2", _K, _eager(_SSG.format(o=[[0]], i=[[0], [1]], s=[0, 0], g=[1.0]))),
    ("SparseSliceGrad an entry not found", _K, _eager(_SSG.format(o=[[5]], i=[[0], [1]], s=[0], g=[1.0]))),
    ("SparseSliceGrad shifted", _K, _eager(_SSG.format(o=[[0]], i=[[1], [2]], s=[1], g=[3.0]))),
    ("SparseSliceGrad rank-1 output_indices in a tf.function", _K, _traced(_SSG.format(o=[0], i=[[0]], s=[0], g=[1.0]))),
    # FakeQuantWithMinMaxArgsGradient: BinaryElementWiseOp's same-shape check after the constructor's (#220)
    ("FakeQuantWithMinMaxArgsGradient [1,4] and []", _K, _eager(
        "tf.raw_ops.FakeQuantWithMinMaxArgsGradient(max=-1.0, gradients=tf.constant([[4.0, 1, 1, 1]]), "
        "inputs=tf.constant(1.0), num_bits=3)")),
    ("FakeQuantWithMinMaxArgsGradient [2] and [1,2]", _K, _eager(
        "tf.raw_ops.FakeQuantWithMinMaxArgsGradient(gradients=tf.constant([1.0, 2.0]), inputs=tf.constant([[1.0, 2.0]]))")),
    ("FakeQuantWithMinMaxArgsGradient min >= max first", _K, _eager(
        "tf.raw_ops.FakeQuantWithMinMaxArgsGradient(gradients=tf.constant([1.0, 2.0]), inputs=tf.constant([1.0]), "
        "min=1.0, max=0.0)")),
    ("FakeQuantWithMinMaxArgsGradient in a tf.function", _K, _traced(
        "tf.raw_ops.FakeQuantWithMinMaxArgsGradient(gradients=tf.constant([1.0, 2.0]), inputs=tf.constant([[1.0, 2.0]]))")),
    ("FakeQuantWithMinMaxArgsGradient equal shapes", _K, _eager(
        "tf.raw_ops.FakeQuantWithMinMaxArgsGradient(gradients=tf.constant([1.0, 2.0]), inputs=tf.constant([0.5, 9.0]))")),
    # ScatterNdNonAliasingAdd's rank-1 indices: only indices[0] and updates[0] (seed 3020261201 #105)
    ("ScatterNdNonAliasingAdd indices [0, 2] of rows", _K, _eager(_SNA.format(
        x=[[1, 2], [3, 4], [5, 6]], i=[0, 2], u=[[10, 20], [30, 40]]))),
    ("ScatterNdNonAliasingAdd indices [0, 2] of a vector", _K, _eager(_SNA.format(x=[1, 2, 3], i=[0, 2], u=[10, 20]))),
    ("ScatterNdNonAliasingAdd indices [2, 7]", _K, _eager(_SNA.format(
        x=[[1, 2], [3, 4], [5, 6]], i=[2, 7], u=[[10, 20], [30, 40]]))),
    ("ScatterNdNonAliasingAdd float [1, 0, 0]", _K, _eager(_SNA.format(x=[1.0, 2.0, 3.0], i=[1, 0, 0],
                                                                       u=[10.0, 20.0, 30.0]))),
    ("ScatterNdNonAliasingAdd bool", _K, _eager(_SNA.format(x=[True, False], i=[1, 0], u=[True, False]))),
    ("ScatterNdNonAliasingAdd four indices", _K, _eager(_SNA.format(
        x=[[1, 2], [3, 4], [5, 6]], i=[0, 1, 2, 0], u=[[1, 1], [2, 2], [3, 3], [4, 4]]))),
    ("ScatterNdNonAliasingAdd uint32 [1,2] at [0]", _K, _eager(
        "tf.raw_ops.ScatterNdNonAliasingAdd(input=tf.constant([[7, 4294967295]], tf.uint32), "
        "updates=tf.constant([[3, 5]], tf.uint32), indices=tf.constant([0], tf.int32))")),
    ("ScatterNdNonAliasingAdd updates rows 2 for 1 index", _K, _eager(_SNA.format(
        x=[[1, 2], [3, 4], [5, 6]], i=[0], u=[10, 20]))),
    ("ScatterNdNonAliasingAdd updates without the rows", _K, _eager(_SNA.format(
        x=[[1, 2], [3, 4], [5, 6]], i=[0, 1], u=[10, 20]))),
    ("ScatterNdNonAliasingAdd index 5 out of range", _K, _eager(_SNA.format(
        x=[[1, 2], [3, 4], [5, 6]], i=[5], u=[[10, 20]]))),
    ("ScatterNdNonAliasingAdd indices [[0, 1]]", _K, _eager(_SNA.format(x=[[1, 2], [3, 4], [5, 6]], i=[[0, 1]], u=[10]))),
    ("ScatterNdNonAliasingAdd rank-1 indices in a tf.function", _T, _traced(_SNA.format(
        x=[[1, 2], [3, 4], [5, 6]], i=[0, 2], u=[[10, 20], [30, 40]]))),
    # NthElement: an order-reversing ~x for integers (sig seed 3020261202 #163)
    *[(f"NthElement {dt} {v} n={n} reverse={r}", _K, _eager(
        f"tf.raw_ops.NthElement(input=tf.constant({v}, tf.{dt}), reverse={r}, n={n})"))
      for dt, v, n, r in (("uint64", [[5, 2], [1, 0]], 1, False), ("uint32", [[5, 2, 7], [1, 0, 9]], 0, False),
                          ("uint16", [[5, 2, 7], [1, 0, 9]], 0, True), ("int8", [[5, -128, 7], [1, 0, 9]], 0, False),
                          ("int8", [[5, -128, 127], [1, 0, 9]], 0, True), ("int32", [-2147483648, 3], 0, False),
                          ("uint8", [5, 3], 1, False), ("float32", [[0.5, -1.5, 2.0]], 1, False))],
    ("NthElement uint64 in a tf.function", _K, _traced(
        "tf.raw_ops.NthElement(input=tf.constant([[5, 2], [1, 0]], tf.uint64), reverse=False, n=1)")),
    # PopulationCount of a scalar (tape seed 3020261204 #170), SoftmaxCrossEntropyWithLogits of a scalar logit
    # (#26), the adjust kernels' scalar factor (sig seed 3020261205 #4), SparseAddGrad's checks (#81)
    ("PopulationCount scalar", _K, _eager("tf.raw_ops.PopulationCount(x=tf.constant(5))")),
    ("PopulationCount int8 matrix", _K, _eager("tf.raw_ops.PopulationCount(x=tf.constant([[5, -1]], tf.int8))")),
    ("SoftmaxCrossEntropyWithLogits scalar half logit", _K, _eager(
        "tf.raw_ops.SoftmaxCrossEntropyWithLogits(features=tf.constant(2.5, tf.float16), labels=tf.zeros([4, 2], "
        "tf.float16))")),
    ("SoftmaxCrossEntropyWithLogits [2] logits, [4,2] labels", _K, _eager(
        "tf.raw_ops.SoftmaxCrossEntropyWithLogits(features=tf.constant([1.0, 2.0]), labels=tf.ones([4, 2]) / 2)")),
    ("SoftmaxCrossEntropyWithLogits scalar logit in a tf.function", _K, _traced(
        "tf.raw_ops.SoftmaxCrossEntropyWithLogits(features=tf.constant(2.5, tf.float16), labels=tf.zeros([4, 2], "
        "tf.float16))")),
    ("AdjustHue delta [2,2,3] in a tf.function", _K, _traced(
        "tf.raw_ops.AdjustHue(images=tf.ones([2, 2, 3]), delta=tf.ones([2, 2, 3]))")),
    ("AdjustHue delta [1]", _K, _eager("tf.raw_ops.AdjustHue(images=tf.ones([2, 2, 3]), delta=tf.ones([1]))")),
    ("AdjustSaturation scale [2] in a tf.function", _K, _traced(
        "tf.raw_ops.AdjustSaturation(images=tf.ones([2, 2, 3]), scale=tf.ones([2]))")),
    ("AdjustSaturation scale [2]", _K, _eager("tf.raw_ops.AdjustSaturation(images=tf.ones([2, 2, 3]), scale=tf.ones([2]))")),
    ("SparseAddGrad scalar gradient in a tf.function", _K, _traced(
        "tf.raw_ops.SparseAddGrad(a_indices=[[0]], backprop_val_grad=tf.constant(1.0), sum_indices=tf.constant([[0]], "
        "tf.int64), b_indices=tf.constant([[1]], tf.int64))")),
    ("SparseAddGrad sum_indices a vector", _K, _eager(
        "tf.raw_ops.SparseAddGrad(a_indices=[[0]], backprop_val_grad=tf.constant([1.0]), sum_indices=tf.constant([0], "
        "tf.int64), b_indices=tf.constant([[1]], tf.int64))")),
    ("SparseAddGrad ndims differ", _K, _eager(
        "tf.raw_ops.SparseAddGrad(a_indices=[[0]], backprop_val_grad=tf.constant([1.0]), sum_indices=tf.constant("
        "[[0, 0]], tf.int64), b_indices=tf.constant([[1]], tf.int64))")),
    ("SparseAddGrad gradients of 2 for 1 row", _K, _eager(
        "tf.raw_ops.SparseAddGrad(a_indices=[[0]], backprop_val_grad=tf.constant([1.0, 2.0]), sum_indices=tf.constant("
        "[[0]], tf.int64), b_indices=tf.constant([[1]], tf.int64))")),
    ("SparseAddGrad values", _K, _eager(
        "tf.raw_ops.SparseAddGrad(a_indices=[[0]], backprop_val_grad=tf.constant([1.0, 2.0]), sum_indices=tf.constant("
        "[[0], [1]], tf.int64), b_indices=tf.constant([[1]], tf.int64))")),
    ("SoftmaxCrossEntropyWithLogits half [3] logits, [2,3] labels", _K, _eager(
        "tf.raw_ops.SoftmaxCrossEntropyWithLogits(features=tf.constant([-1.0, 0.75, 0.5], tf.float16), "
        "labels=tf.constant([[0, 0, 1], [1, 2, 2]], tf.float16))")),
    ("SoftmaxCrossEntropyWithLogits bfloat16 [2,1] logits, [2] labels", _K, _eager(
        "tf.raw_ops.SoftmaxCrossEntropyWithLogits(features=tf.constant([[0.001], [0.5]], tf.bfloat16), "
        "labels=tf.constant([1, 1], tf.bfloat16))")),
    # CTC decoders: empty inputs before the sequence lengths eagerly (seed 3020261206 #63)
    ("CTCGreedyDecoder empty inputs, 3 lengths", _K, _eager(
        "tf.raw_ops.CTCGreedyDecoder(merge_repeated=False, sequence_length=tf.constant([0, 0, 0], tf.int32), "
        "inputs=tf.zeros([0, 0, 0]))")),
    ("CTCGreedyDecoder empty inputs, scalar length", _K, _eager(
        "tf.raw_ops.CTCGreedyDecoder(sequence_length=tf.constant(0, tf.int32), inputs=tf.zeros([0, 0, 0]))")),
    ("CTCBeamSearchDecoder empty inputs, 3 lengths", _K, _eager(
        "tf.raw_ops.CTCBeamSearchDecoder(sequence_length=tf.constant([0, 0, 0], tf.int32), inputs=tf.zeros([0, 0, 0]), "
        "beam_width=1, top_paths=1)")),
    ("CTCGreedyDecoder empty inputs, 3 lengths in a tf.function", _T, _traced(
        "tf.raw_ops.CTCGreedyDecoder(merge_repeated=False, sequence_length=tf.constant([0, 0, 0], tf.int32), "
        "inputs=tf.zeros([0, 0, 0]))")),
    ("MatrixDiagPartV3 padding [4,4]", _K, _eager(
        "tf.raw_ops.MatrixDiagPartV3(k=0, padding_value=tf.ones([4, 4]), input=tf.ones([4, 4]))")),
    ("MatrixDiagPartV2 padding [1]", _K, _eager(
        "tf.raw_ops.MatrixDiagPartV2(k=0, padding_value=tf.ones([1]), input=tf.ones([4, 4]))")),
    ("MatrixDiagPartV2 padding [2] before the input's rank", _K, _eager(
        "tf.raw_ops.MatrixDiagPartV2(k=0, padding_value=tf.ones([2]), input=tf.ones([4]))")),
    ("ScaleAndTranslateGrad kernel_type 'x' of 3-D inputs in a tf.function", _K, _traced(
        "tf.raw_ops.ScaleAndTranslateGrad(antialias=False, grads=tf.zeros([0, 0, 0]), original_image=tf.zeros([0, 0, 0]), "
        "scale=tf.zeros([0, 0, 0]), kernel_type='x', translation=tf.zeros([0, 0, 0]))")),
    ("ScaleAndTranslateGrad kernel_type 'x'", _K, _eager(
        "tf.raw_ops.ScaleAndTranslateGrad(grads=tf.ones([1, 2, 2, 1]), original_image=tf.ones([1, 2, 2, 1]), "
        "scale=tf.ones([2]), kernel_type='x', translation=tf.zeros([2]))")),
    ("ScaleAndTranslate kernel_type 'x' in a tf.function", _K, _traced(
        "tf.raw_ops.ScaleAndTranslate(images=tf.ones([1, 2, 2, 1]), size=[2, 2], scale=tf.ones([2]), kernel_type='x', "
        "translation=tf.zeros([2]))")),
    *[(f"ScaleAndTranslateGrad {name}", _K, _eager(
        f"tf.raw_ops.ScaleAndTranslateGrad(translation={t}, grads={g}, original_image={o}, scale={sc})"))
      for name, t, g, o, sc in (
          ("scale of rank 4", "tf.constant(-0.0)", "tf.ones([3, 1, 4, 2])", "tf.ones([3, 1, 4, 2])", "tf.ones([3, 1, 4, 2])"),
          ("scale of 3", "tf.zeros([2])", "tf.ones([3, 1, 4, 2])", "tf.ones([3, 1, 4, 2])", "tf.ones([3])"),
          ("translation of 1", "tf.zeros([1])", "tf.ones([3, 1, 4, 2])", "tf.ones([3, 1, 4, 2])", "tf.ones([2])"),
          ("grads of rank 3", "tf.zeros([2])", "tf.ones([3, 1, 4])", "tf.ones([3, 1, 4, 2])", "tf.ones([2])"),
          ("original_image of rank 3", "tf.zeros([2])", "tf.ones([3, 1, 4, 2])", "tf.ones([3, 1, 4])", "tf.ones([2])"))],
    ("ScaleAndTranslateGrad scale of rank 4 in a tf.function", _K, _traced(
        "tf.raw_ops.ScaleAndTranslateGrad(translation=tf.constant(-0.0), grads=tf.ones([3, 1, 4, 2]), "
        "original_image=tf.ones([3, 1, 4, 2]), scale=tf.ones([3, 1, 4, 2]))")),
    ("DecodeCSV record_defaults of uint64 eagerly", _K, _eager(
        "tf.raw_ops.DecodeCSV(records=tf.constant('1'), record_defaults=[tf.constant([1], tf.uint64)])")),
    # stateless gamma/poisson: an empty output before the shape-ends-with check (sig seed 3020261202 #45)
    ("StatelessRandomGammaV2 shape [3, 0, 2, 1], alpha [2, 1, 1]", _K, _eager(
        "tf.raw_ops.StatelessRandomGammaV2(shape=tf.constant([3, 0, 2, 1], tf.int32), alpha=tf.ones([2, 1, 1], "
        "tf.float16), seed=[7, 1])")),
    ("StatelessRandomGammaV2 shape [3, 1, 2, 1], alpha [2, 1, 1]", _K, _eager(
        "tf.raw_ops.StatelessRandomGammaV2(shape=tf.constant([3, 1, 2, 1], tf.int32), alpha=tf.ones([2, 1, 1], "
        "tf.float16), seed=[7, 1])")),
    ("StatelessRandomGammaV3 shape [0, 2], alpha [3]", _K, _eager(
        "tf.raw_ops.StatelessRandomGammaV3(shape=tf.constant([0, 2], tf.int32), alpha=tf.ones([3]), "
        "key=tf.constant([1], tf.uint64), counter=tf.constant([1, 2], tf.uint64), alg=tf.constant(1))")),
    ("StatelessRandomPoisson shape [0, 2], lam [3]", _K, _eager(
        "tf.raw_ops.StatelessRandomPoisson(shape=tf.constant([0, 2], tf.int32), lam=tf.ones([3]), seed=[1, 2], "
        "dtype=tf.float32)")),
    ("tf.random.stateless_gamma of an empty shape", _K, _eager(
        "tf.random.stateless_gamma([0, 2], seed=[1, 2], alpha=tf.ones([3]))")),
    ("tf.random.stateless_poisson of an empty shape", _K, _eager(
        "tf.random.stateless_poisson([0, 2], seed=[1, 2], lam=tf.ones([3]))")),
    ("StatelessRandomGammaV2 empty in a tf.function", _K, _traced(
        "tf.raw_ops.StatelessRandomGammaV2(shape=tf.constant([3, 0, 2, 1], tf.int32), alpha=tf.ones([2, 1, 1], "
        "tf.float16), seed=[7, 1])")),
    # the shape functions at trace (shape_fns_raw30.py, shape_fns_raw28.py)
    *[(name, _T, _traced(expr)) for name, expr in _SHAPE_FNS],
    # TF's gradient registry for raw ops (raw_gradients.py; seed 3020261201 #68, #235)
    *[(f"{name} gradient", _G, _grad_only(expr, source)) for name, expr, source in _GRADS],
    ("TF's gradient registry for the composed raw ops", _G, _registry),
    # AccumulateNV2 in a tf.function: AccumulateNV2RemovePass's zeros and AssignAdds (seed 3020261201 #239)
    *[(f"AccumulateNV2 {name} in a tf.function", _K, _traced(_ACC.format(s=s, xs=xs))) for name, s, xs in (
        ("float16 [2, None]", "[2, None]", "tf.constant([[1.0, -0.0], [-1.0, 0.0]], tf.float16)"),
        ("-0.0 sums", "[7]", "tf.constant([-0.0, 1.0]), tf.constant([-0.0, 2.0])"),
        ("int8 wraps", "[2]", "tf.constant([100, 100], tf.int8), tf.constant([100, 1], tf.int8)"),
        ("uint32", "[2]", "tf.constant([1, 2], tf.uint32), tf.constant([3, 4], tf.uint32)"),
        ("complex64", "[]", "tf.constant([1 + 2j], tf.complex64), tf.constant([3 + 4j], tf.complex64)"),
        ("bfloat16", "[]", "tf.constant([1.5], tf.bfloat16), tf.constant([3], tf.bfloat16)"),
        ("float32 subnormal flushed", "[]", "tf.constant(1e-40), tf.constant(0.0)"),
        ("empty", "[2]", "tf.ones([0, 2]), tf.ones([0, 2])"))],
    ("AccumulateNV2 eagerly", _K, _eager(_ACC.format(s="[2]", xs="tf.constant([1.0, 2.0])"))),
    # (last: a failed AccumulateNV2 leaks TF's temporary variable, and every later one in the worker's
    # process is AlreadyExistsError)
    ("AccumulateNV2 sizes 2 and 3 in a tf.function", _K, _traced(_ACC.format(
        s="[2]", xs="tf.constant([1.0, 1.0]), tf.constant([1.0, 2.0, 3.0])"))),
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


if __name__ == "__main__":  # TF worker: python test_fz30a_edges_tf.py 0,1,2 -> pickled results on stdout
    tf_workers.serve(EDGES.tf_worker)
