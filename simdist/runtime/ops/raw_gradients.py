"""What a gradient tape finds for a raw op simdist computes as a composition of its own ops (RawArgs.via:
raw_legacy.py, raw_compositions.py, the raw_forms modules), as TF 2.21's gradient registry has it
(clause autodiff.op-gradients).

A composition's ops carry gradients of their own, so a tape through `tf.raw_ops.Bucketize(input=x, ...)`
found zeros (its Less and Cast ops) where TF's tape looks the op up in ops._gradient_registry: for
Bucketize, InplaceAdd, InplaceUpdate and the others of NO_ENTRY TF registers nothing, and reaching
one is LookupError "gradient registry has no entry for: Bucketize" (fuzz20 seed 3020261201 #68,
#235); for those of NOT_DIFFERENTIABLE (ops.NotDifferentiable) every input's gradient is None. The
raw call's results are then made one op of its tensor inputs (tape.record_operation, as branches.py
does for If) whose gradient is the registry's answer. Both lists were read from TF 2.21's registry
(`ops._gradient_registry.lookup(name)` for every raw op that has a RawArgs.via here);
tests/ops/test_fz30a_edges_tf.py `test_raw_gradient_registry` reads it again and compares.
"""

from __future__ import annotations

from typing import Any

from simdist.runtime import execution, nest
from simdist.runtime.tensor import Tensor

__all__ = ["NO_ENTRY", "NOT_DIFFERENTIABLE", "OWN", "as_registered"]

#: composed raw ops TF 2.21 registers no gradient for (a tape through one: LookupError)
NO_ENTRY = frozenset((
    "All", "AllCandidateSampler", "Any", "BatchCholesky", "BatchCholeskyGrad", "BatchFFT", "BatchFFT2D",
    "BatchFFT3D", "BatchIFFT", "BatchIFFT2D", "BatchIFFT3D", "BatchMatrixBandPart", "BatchMatrixDeterminant",
    "BatchMatrixDiag", "BatchMatrixDiagPart", "BatchMatrixInverse", "BatchMatrixSetDiag", "BatchMatrixSolve",
    "BatchMatrixSolveLs", "BatchMatrixTriangularSolve", "BatchSelfAdjointEig", "BatchSelfAdjointEigV2", "BatchSvd",
    "Bincount", "Bucketize", "Conv3DBackpropFilter", "Conv3DBackpropInput", "Copy", "CopyHost", "CudnnRNNBackprop",
    "CudnnRNNBackpropV2", "CudnnRNNBackpropV3", "CudnnRNNCanonicalToParams", "CudnnRNNCanonicalToParamsV2",
    "CudnnRNNParamsSize", "CudnnRNNParamsToCanonical", "CudnnRNNParamsToCanonicalV2", "DataFormatDimMap",
    "DataFormatVecPermute", "DecodeAndCropJpeg", "DecodeCSV", "DecodeJpeg", "DeepCopy", "Empty", "ExtractGlimpseV2",
    "FFTND", "FixedUnigramCandidateSampler", "IFFTND", "IRFFT3D", "IRFFTND", "InTopK", "InplaceAdd", "InplaceSub",
    "InplaceUpdate", "Lu", "MatrixExponential", "MatrixLogarithm", "MaxPoolGradGradV2", "MaxPoolGradGradWithArgmax",
    "Mod", "NoOp", "NonMaxSuppressionV4", "ParallelConcat", "ParseExample", "ParseExampleV2", "ParseSingleExample", "ParseSequenceExample", "ParseSequenceExampleV2", "ParseSingleSequenceExample", "RFFT3D",
    "RaggedBincount", "RaggedCountSparseOutput", "RaggedCross", "RaggedFillEmptyRowsGrad", "RFFTND", "RandomPoissonV2",
    "RandomUniformInt", "ResizeArea", "SegmentMaxV2", "SegmentMinV2", "SegmentProdV2",
    "SegmentSumV2", "SelfAdjointEig", "Snapshot", "SparseCross", "SparseCrossV2", "SparseSplit", "StatelessRandomGetAlg",
    "StatelessRandomGetKeyCounter", "StatelessRandomGetKeyCounterAlg", "StatelessShuffle", "StaticRegexFullMatch",
    "StaticRegexReplace", "StringLower", "StringNGrams", "StringSplitV2", "StringUpper", "TileGrad", "UnicodeDecode",
    "UnicodeDecodeWithOffsets", "UnicodeEncode", "UniqueV2", "UniqueWithCountsV2", "UnsortedSegmentJoin",
))

#: composed raw ops TF 2.21 declares not differentiable (every input's gradient None)
NOT_DIFFERENTIABLE = frozenset((
    "ApproximateEqual", "AsString", "BroadcastGradientArgs", "ConcatOffset", "DrawBoundingBoxes", "Equal",
    "ExtractGlimpse",
    "GenerateBoundingBoxProposals", "HSVToRGB", "LinSpace", "Multinomial", "NonMaxSuppression",
    "NonMaxSuppressionV2", "NotEqual", "OneHot", "OnesLike", "PopulationCount", "RandomShuffle",
    "RandomStandardNormal", "RandomUniform", "Range", "ReduceJoin", "SerializeTensor", "Shape", "ShapeN", "Size",
    "SparseConcat", "StatelessMultinomial", "StatelessRandomBinomial", "StatelessRandomNormal",
    "StatelessRandomNormalV2", "StatelessRandomPoisson", "StatelessRandomUniform", "StatelessRandomUniformFullInt",
    "StatelessRandomUniformFullIntV2", "StatelessRandomUniformInt", "StatelessRandomUniformIntV2",
    "StatelessRandomUniformV2", "StatelessTruncatedNormal", "StatelessTruncatedNormalV2", "StringJoin",
    "StringSplit", "StringToNumber", "TruncatedNormal", "ZerosLike",
))


def _scatter_nd_non_aliasing_add_grad(inputs: dict[str, Any], grad: Any) -> list:
    """array_grad._ScatterNdNonAliasingAddGrad: [grad, None, gather_nd(grad, indices)], the updates' gradient of
    the gathered shape, not the updates' (rank-1 indices of length 1 with updates [1, n]: a gradient [n]; the
    composition's slice gave [1, n]; rgrads ScatterNdNonAliasingAdd)."""
    from simdist.runtime.ops import scatter
    return [grad, None, scatter.gather_nd(grad, inputs["indices"])]


#: composed raw ops whose registered gradient is not their composition's: (OpDef inputs, upstream) -> gradients
OWN = {"ScatterNdNonAliasingAdd": _scatter_nd_non_aliasing_add_grad}


def as_registered(name: str, inputs: dict[str, Any], out: Any) -> Any:
    """`out`, the composition's results of raw op `name` on `inputs` (OpDef input name -> tensor or
    list of tensors): under a gradient tape, for an op of NO_ENTRY or NOT_DIFFERENTIABLE, their
    Identity copies recorded as one op of the tensor inputs whose gradient is TF's registry's."""
    if name not in NO_ENTRY and name not in NOT_DIFFERENTIABLE and name not in OWN:
        return out
    c = execution.current()
    if not c.tapes and c.aside is None:
        return out
    flat_in = [t for v in inputs.values() for t in (v if isinstance(v, (list, tuple)) else [v]) if isinstance(t, Tensor)]
    flat_out = [t for t in nest.flatten(out) if isinstance(t, Tensor)]
    if not flat_in or not flat_out:
        return out
    from simdist.runtime.autodiff.tape import record_operation
    from simdist.runtime.ops import registry
    from simdist.runtime.ops.array import identity
    copies = [identity(t) for t in flat_out]

    def backward(*grads: Any) -> list:
        if name in OWN:
            return OWN[name](inputs, *grads)
        if name in NO_ENTRY:   # (the registry's LookupError, in a tape's or tf.gradients' words)
            registry.gradient_function(registry.OpDef(name, lambda: None, lambda d, a: None, kind="shape"))
        return [None] * len(flat_in)
    record_operation(name, copies, flat_in, backward)
    it = iter(copies)
    return nest.map_structure(lambda v: next(it) if isinstance(v, Tensor) else v, out)
