"""The raw ops the twentieth fuzzer draws (docs/spec.md `ops.fuzz-raw`): tf.raw_ops simdist bound when the
fuzzer was written (simdist.runtime.ops.raw_ops.bound_names() at 2026-12-01, 329 of TF 2.21's 1,462), frozen so that
a program depends only on its seed and index while more ops get bound; their OpDefs come from
simdist/runtime/ops/raw_opdefs.json (recorded from TF 2.21)."""

OPS: tuple[str, ...] = (
    "Abs", "Acos", "Acosh", "AddN", "AddV2", "All", "Any", "ArgMax", "ArgMin", "AsString", "Asin", "Asinh", "Atan",
    "Atan2", "Atanh", "AvgPool", "AvgPool3D", "AvgPool3DGrad", "AvgPoolGrad", "BandedTriangularSolve",
    "BatchMatMulV2", "BatchToSpaceND", "BesselI0", "BesselI0e", "BesselI1", "BesselI1e", "BesselJ0", "BesselJ1",
    "BesselK0", "BesselK0e", "BesselK1", "BesselK1e", "BesselY0", "BesselY1", "Betainc", "BiasAdd", "BiasAddGrad",
    "Bitcast", "BitwiseAnd", "BitwiseOr", "BitwiseXor", "BroadcastArgs", "BroadcastTo", "CTCBeamSearchDecoder",
    "CTCGreedyDecoder", "CTCLoss", "Cast", "Ceil", "CheckNumerics", "Cholesky", "ClipByValue",
    "CombinedNonMaxSuppression", "ComputeAccidentalHits", "ConcatV2", "Conj", "Conv", "Conv2D",
    "Conv2DBackpropFilter", "Conv2DBackpropInput", "Conv3D", "Conv3DBackpropFilterV2", "Conv3DBackpropInputV2", "Cos",
    "Cosh", "CropAndResize", "CropAndResizeGradBoxes", "CropAndResizeGradImage", "Cross", "Cumprod", "Cumsum",
    "CumulativeLogsumexp", "Dawsn", "DenseBincount", "DenseCountSparseOutput", "DenseToDenseSetOperation",
    "DenseToSparseSetOperation", "DepthToSpace", "DepthwiseConv2dNative", "DepthwiseConv2dNativeBackpropFilter",
    "DepthwiseConv2dNativeBackpropInput", "Diag", "DiagPart", "Digamma", "Dilation2D", "Dilation2DBackpropFilter",
    "Dilation2DBackpropInput", "DivNoNan", "DrawBoundingBoxesV2", "DynamicPartition", "DynamicStitch", "EditDistance",
    "Einsum", "Elu", "EluGrad", "EnsureShape", "Equal", "Erf", "Erfc", "Erfinv", "EuclideanNorm", "Exp", "ExpandDims",
    "Expint", "Expm1", "ExtractImagePatches", "ExtractVolumePatches", "Fill", "Floor", "FloorDiv", "FloorMod",
    "FractionalAvgPool", "FractionalMaxPool", "FractionalMaxPoolGrad", "FresnelCos", "FresnelSin", "GatherNd",
    "GatherV2", "Greater", "GreaterEqual", "GuaranteeConst", "HSVToRGB", "HistogramFixedWidth", "Identity",
    "IdentityN", "Igamma", "IgammaGradA", "Igammac", "ImageProjectiveTransformV3", "InTopKV2", "Invert",
    "InvertPermutation", "IsFinite", "IsInf", "IsNan", "IsotonicRegression", "L2Loss", "LRN", "LRNGrad", "LeakyRelu",
    "LeakyReluGrad", "LearnedUnigramCandidateSampler", "LeftShift", "Less", "LessEqual", "Lgamma", "ListDiff", "Log",
    "Log1p", "LogMatrixDeterminant", "LogSoftmax", "LogUniformCandidateSampler", "LogicalAnd", "LogicalNot",
    "LogicalOr", "LowerBound", "Lu", "MatMul", "MatrixBandPart", "MatrixDeterminant", "MatrixDiagPartV3",
    "MatrixDiagV3", "MatrixInverse", "MatrixSetDiagV3", "MatrixSolve", "MatrixSquareRoot", "MatrixTriangularSolve",
    "Max", "MaxPool", "MaxPool3D", "MaxPool3DGrad", "MaxPool3DGradGrad", "MaxPoolGrad", "MaxPoolGradGrad",
    "MaxPoolGradWithArgmax", "MaxPoolWithArgmax", "Maximum", "Mean", "Min", "Minimum", "MirrorPad", "MirrorPadGrad",
    "Mul", "MulNoNan", "Ndtri", "Neg", "NextAfter", "NonMaxSuppressionV3", "NonMaxSuppressionV5",
    "NonMaxSuppressionWithOverlaps", "NotEqual", "OneHot", "OnesLike", "Pack", "Pad", "PadV2", "Polygamma", "Pow",
    "PreventGradient", "Prod", "Qr", "RGBToHSV", "RandomGammaGrad", "RandomIndexShuffle", "Rank", "RealDiv",
    "Reciprocal", "Relu", "Relu6", "Relu6Grad", "ReluGrad", "Reshape", "ResizeArea", "ResizeBicubic",
    "ResizeBicubicGrad", "ResizeBilinear", "ResizeBilinearGrad", "ResizeNearestNeighbor", "ResizeNearestNeighborGrad",
    "ReverseSequence", "ReverseV2", "RightShift", "Rint", "Roll", "Round", "Rsqrt", "SampleDistortedBoundingBoxV2",
    "ScaleAndTranslate", "ScaleAndTranslateGrad", "ScatterNd", "SegmentMax", "SegmentMean", "SegmentMin",
    "SegmentProd", "SegmentSum", "SelectV2", "SelfAdjointEigV2", "Selu", "SeluGrad", "SetSize", "Shape", "Sigmoid",
    "SigmoidGrad", "Sign", "Sin", "Sinh", "Size", "Slice", "SobolSample", "Softmax", "SoftmaxCrossEntropyWithLogits",
    "Softplus", "Softsign", "SoftsignGrad", "SpaceToBatchND", "SpaceToDepth", "SparseAdd", "SparseCountSparseOutput",
    "SparseDenseCwiseDiv", "SparseDenseCwiseMul", "SparseFillEmptyRows", "SparseReduceMax", "SparseReduceSum",
    "SparseReduceSumSparse", "SparseReorder", "SparseReshape", "SparseSegmentMean", "SparseSegmentMeanGrad",
    "SparseSegmentSqrtN", "SparseSegmentSqrtNGrad", "SparseSegmentSum", "SparseSegmentSumGrad",
    "SparseSegmentSumWithNumSegments", "SparseSlice", "SparseSoftmax", "SparseSoftmaxCrossEntropyWithLogits",
    "SparseSparseMaximum", "SparseSparseMinimum", "SparseTensorDenseAdd", "SparseTensorDenseMatMul", "SparseToDense",
    "SparseToSparseSetOperation", "Spence", "SplitV", "Sqrt", "Square", "SquaredDifference", "Squeeze",
    "StatelessSampleDistortedBoundingBox", "StopGradient", "StridedSlice", "StringLength", "StringLower",
    "StringStrip", "StringUpper", "Sub", "Sum", "Svd", "Tan", "Tanh", "TanhGrad", "TensorScatterAdd",
    "TensorScatterMax", "TensorScatterMin", "TensorScatterSub", "TensorScatterUpdate", "Tile", "TopKV2", "Transpose",
    "TridiagonalMatMul", "TridiagonalSolve", "TruncateDiv", "TruncateMod", "UnicodeScript", "UniformCandidateSampler",
    "Unique", "UniqueWithCounts", "Unpack", "UnravelIndex", "UnsortedSegmentMax", "UnsortedSegmentMin",
    "UnsortedSegmentProd", "UnsortedSegmentSum", "UpperBound", "Where", "Xdivy", "Xlog1py", "Xlogy", "ZerosLike",
    "Zeta",
)

# The raw ops bound in session 28 (raw_legacy.py and the rawops28 bindings: 571 bound at 2026-12-02), drawn by
# ten-digit root seeds from VOCABULARY_29 on (other seeds keep OPS alone, so their programs are unchanged). Left out:
# the file ops (ReadFile, WriteFile, MatchingFiles: the file system), PrintV2 (writes to the worker's streams),
# Empty (init=False is uninitialized memory) and the stateful random ops (RandomUniform, RandomUniformInt,
# RandomStandardNormal, TruncatedNormal, RandomGamma, RandomPoissonV2, RandomShuffle, Multinomial,
# AllCandidateSampler, FixedUnigramCandidateSampler: with seed 0 TF draws fresh seeds, and otherwise an eager
# kernel cached across the worker's programs keeps its state, so an answer depends on the programs before it).
VOCABULARY_29 = 2920261201

OPS_29: tuple[str, ...] = (
    "AccumulateNV2", "Add", "AdjustContrastv2", "AdjustHue", "AdjustSaturation", "AllToAll", "Angle", "ApproxTopK",
    "ApproximateEqual", "BatchCholesky", "BatchCholeskyGrad", "BatchFFT", "BatchFFT2D", "BatchFFT3D", "BatchIFFT",
    "BatchIFFT2D", "BatchIFFT3D", "BatchMatMul", "BatchMatMulV3", "BatchMatrixBandPart", "BatchMatrixDeterminant",
    "BatchMatrixDiag", "BatchMatrixDiagPart", "BatchMatrixInverse", "BatchMatrixSetDiag", "BatchMatrixSolve",
    "BatchMatrixSolveLs", "BatchMatrixTriangularSolve", "BatchSelfAdjointEig", "BatchSelfAdjointEigV2", "BatchSvd",
    "BatchToSpace", "BiasAddV1", "Bincount", "BroadcastGradientArgs", "Bucketize", "CTCLossV2", "CheckNumericsV2",
    "Complex", "ComplexAbs", "Concat", "ConcatOffset", "ConjugateTranspose", "Conv2DBackpropFilterV2",
    "Conv2DBackpropInputV2", "Conv3DBackpropFilter", "Conv3DBackpropInput", "Copy", "CrossReplicaSum", "CudnnRNN",
    "CudnnRNNBackprop", "CudnnRNNBackpropV2", "CudnnRNNBackpropV3", "CudnnRNNCanonicalToParams",
    "CudnnRNNCanonicalToParamsV2", "CudnnRNNParamsSize", "CudnnRNNParamsToCanonical", "CudnnRNNParamsToCanonicalV2",
    "CudnnRNNV2", "CudnnRNNV3", "DataFormatDimMap", "DataFormatVecPermute", "DecodeAndCropJpeg", "DecodeBase64",
    "DecodeBmp", "DecodeCSV", "DecodeCompressed", "DecodeImage", "DecodeJpeg", "DecodePaddedRaw", "DecodePng",
    "DecodeRaw", "DecodeWav", "DeepCopy", "Div", "DrawBoundingBoxes", "Eig", "EncodeBase64", "EncodeJpeg",
    "EncodePng", "EncodeWav", "ExtractGlimpseV2", "ExtractJpegShape", "FFT", "FFT2D", "FFT3D", "FFTND",
    "FakeQuantWithMinMaxArgs", "FakeQuantWithMinMaxArgsGradient", "FakeQuantWithMinMaxVars",
    "FakeQuantWithMinMaxVarsGradient", "FakeQuantWithMinMaxVarsPerChannel",
    "FakeQuantWithMinMaxVarsPerChannelGradient", "Fingerprint", "FractionalAvgPoolGrad", "Gather",
    "GenerateBoundingBoxProposals", "IFFT", "IFFT2D", "IFFT3D", "IFFTND", "IRFFT", "IRFFT2D", "IRFFT3D", "IRFFTND",
    "Imag", "ImageProjectiveTransformV2", "InTopK", "InplaceAdd", "InplaceSub", "InplaceUpdate", "Inv", "InvGrad",
    "LinSpace", "MatrixDiag", "MatrixDiagPart", "MatrixDiagPartV2", "MatrixDiagV2", "MatrixExponential",
    "MatrixLogarithm", "MatrixSetDiag", "MatrixSetDiagV2", "MatrixSolveLs", "MaxPoolGradGradV2",
    "MaxPoolGradGradWithArgmax", "MaxPoolGradV2", "MaxPoolV2", "Mod", "NoOp", "NonMaxSuppression",
    "NonMaxSuppressionV2", "NonMaxSuppressionV4", "NthElement", "ParallelConcat", "ParallelDynamicStitch",
    "ParseExampleV2", "ParseSequenceExampleV2", "ParseTensor", "PopulationCount", "QuantizeAndDequantizeV2",
    "QuantizeAndDequantizeV3", "QuantizeAndDequantizeV4", "QuantizeAndDequantizeV4Grad", "RFFT", "RFFT2D", "RFFT3D",
    "RFFTND", "Range", "Real", "ReciprocalGrad", "ReduceJoin", "RegexFullMatch", "RegexReplace", "Reverse",
    "RsqrtGrad", "ScatterNdNonAliasingAdd", "SegmentMaxV2", "SegmentMinV2", "SegmentProdV2", "SegmentSumV2", "Select",
    "SelfAdjointEig", "SerializeTensor", "ShapeN", "SoftplusGrad", "SpaceToBatch", "SparseAddGrad", "SparseConcat",
    "SparseCross", "SparseCrossV2", "SparseDenseCwiseAdd", "SparseFillEmptyRowsGrad", "SparseMatMul",
    "SparseReduceMaxSparse", "SparseSegmentMeanGradV2", "SparseSegmentMeanWithNumSegments",
    "SparseSegmentSqrtNGradV2", "SparseSegmentSqrtNWithNumSegments", "SparseSegmentSumGradV2", "SparseSliceGrad",
    "SparseSplit", "Split", "SqrtGrad", "StatelessMultinomial", "StatelessParameterizedTruncatedNormal",
    "StatelessRandomBinomial", "StatelessRandomGammaV2", "StatelessRandomGammaV3", "StatelessRandomGetAlg",
    "StatelessRandomGetKeyCounter", "StatelessRandomGetKeyCounterAlg", "StatelessRandomNormal",
    "StatelessRandomNormalV2", "StatelessRandomPoisson", "StatelessRandomUniform", "StatelessRandomUniformFullInt",
    "StatelessRandomUniformFullIntV2", "StatelessRandomUniformInt", "StatelessRandomUniformIntV2",
    "StatelessRandomUniformV2", "StatelessShuffle", "StatelessTruncatedNormal", "StatelessTruncatedNormalV2",
    "StaticRegexFullMatch", "StaticRegexReplace", "StridedSliceGrad", "StringFormat", "StringJoin", "StringNGrams",
    "StringSplit", "StringSplitV2", "StringToHashBucket", "StringToHashBucketFast", "StringToHashBucketStrong",
    "StringToNumber", "Substr", "TensorStridedSliceUpdate", "TileGrad", "ToBool", "TopK", "UnicodeDecode",
    "UnicodeDecodeWithOffsets", "UnicodeEncode", "UnicodeTranscode", "UniqueV2", "UniqueWithCountsV2",
    "UnsortedSegmentJoin",
)


def ops_of(seed: int) -> tuple[str, ...]:
    """The raw ops root seed `seed` draws from: OPS, and OPS_29 too for the ten-digit campaign seeds from
    VOCABULARY_29 on (the bounded slice's eleven-digit seeds, test_fuzz20_tf._SLICE_SEEDS, keep OPS: their
    answers are kept in tests/goldens/fuzz20-slice)."""
    return OPS + OPS_29 if VOCABULARY_29 <= seed < 10 ** 10 else OPS
