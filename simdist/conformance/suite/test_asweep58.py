"""The attribute sweep (fifty-eighth session, asweep58; asweep58_cases.py): ops simdist registers, each attribute
of TF's op def at every value it takes besides its default, through tf.raw_ops.<Op> and through the public function
that sets it — Cast's Truncate, Bitcast, the pools' EXPLICIT paddings, data formats and argmax attributes, the
convolutions' explicit paddings, dilations and strides per dimension, the products' transposes, adjoints and Tout,
the reductions' keep_dims and Tidx, ArgMax's output_type, the scans' exclusive/reverse, TopKV2's sorted and
index_type, Unique's out_idx, Bincount's binary_output, the resizes' align_corners/half_pixel_centers, LeakyRelu's
alpha, gelu's approximate, StridedSlice's masks, MirrorPad's modes, OneHot's axis, Range's Tidx, GatherV2's
batch_dims, the scatter and segment ops, Einsum's equation forms, the random ops' seed pairs and algorithms — values
bit for bit, gradients where the op has one, eager and traced, and the error class where TF refuses a value.
Expected results are TF 2.21's, recorded on an AVX-512 Xeon with oneDNN on (`python -m
simdist.conformance.suite.test_asweep58 --record` rewrites asweep58_reference.json.gz); programs `af-` are
host-dependent."""

from __future__ import annotations

from typing import Any

import pytest

from simdist.conformance.suite.asweep58_cases import REF

_check, _ids = REF.check, REF.ids


@pytest.mark.clause("ops.cast-half-through-float")
@pytest.mark.parametrize("name", _ids("ai-cast") + _ids("ai-bitcast"))
def test_asweep58_cast_truncate_and_bitcast(backend: Any, name: str) -> None:
    """raw Cast with Truncate both ways from float32/float64 to every narrower type (values whose dropped bits round
    up, ties, overflow, subnormals), tf.cast and saturate_cast; raw Bitcast and tf.bitcast between widths."""
    _check(backend, name)


_GRAPH_POOLS = ("af-pool-formats", "af-pool-3d")


@pytest.mark.clause("function.pool-graph-kernels")
@pytest.mark.parametrize("name", list(_GRAPH_POOLS))
def test_asweep58_pool_gradients_traced(backend: Any, name: str) -> None:
    """avg_pool2d/3d and max_pool3d in both data formats with their gradients, eager and inside a tf.function, where
    TF 2.21's graph folds the average pools' gradients with its own kernel and runs oneDNN's max_pool3d gradient
    (pool58): TF 2.21's bits."""
    _check(backend, name)


@pytest.mark.clause("nn.max-pool-nan")
@pytest.mark.parametrize("name", [n for n in _ids("af-pool-") + _ids("ai-argmax-pool") if n not in _GRAPH_POOLS])
def test_asweep58_pool_attributes(backend: Any, name: str) -> None:
    """MaxPool with EXPLICIT paddings (three layouts x three window/stride pairs, refusals), MaxPoolV2, data_format
    NCHW/NCDHW of MaxPool/AvgPool/MaxPool3D/AvgPool3D, MaxPoolWithArgmax's Targmax and include_batch_in_index, and
    tf.nn's pools setting them, with gradients: TF 2.21's bits or error classes."""
    _check(backend, name)


@pytest.mark.clause("nn.conv-dilation")
@pytest.mark.parametrize("name", _ids("af-conv"))
def test_asweep58_convolution_attributes(backend: Any, name: str) -> None:
    """Conv2D/DepthwiseConv2dNative/Conv2DBackpropInput/Filter with EXPLICIT paddings, dilations and strides per
    dimension, Conv3D's strides and dilations per dimension, data formats, refusals; tf.nn's conv2d/conv3d/
    depthwise_conv2d: values and gradients, TF 2.21's bits."""
    _check(backend, name)


@pytest.mark.clause("ops.raw-ops")
@pytest.mark.parametrize("name", _ids("af-matmul") + _ids("ai-matmul") + _ids("af-reduce") + _ids("ai-reduce")
                         + _ids("af-scan") + _ids("ai-scan"))
def test_asweep58_product_reduction_scan_attributes(backend: Any, name: str) -> None:
    """MatMul's transpose_a/b, BatchMatMulV2's adj_x/adj_y (complex), BatchMatMulV3's Tout (int8/uint8 inputs),
    Sum/Prod/Max/Min/Mean/Any/All's keep_dims with int32 and int64 axes, Cumsum/Cumprod/CumulativeLogsumexp's
    exclusive and reverse: raw and public, with gradients, TF 2.21's bits."""
    _check(backend, name)


@pytest.mark.clause("ops.argmax")
@pytest.mark.parametrize("name", _ids("ai-argmax-output") + _ids("ai-topk") + _ids("ai-unique")
                         + _ids("ai-bincount"))
def test_asweep58_index_output_attributes(backend: Any, name: str) -> None:
    """ArgMax/ArgMin's output_type (int16, uint16, int32, int64), TopKV2's sorted and index_type, Unique/UniqueV2/
    UniqueWithCounts(V2)'s out_idx and axis, Bincount/DenseBincount's binary_output and weights: TF 2.21's."""
    _check(backend, name)


@pytest.mark.clause("ops.image-resize")
@pytest.mark.parametrize("name", _ids("af-resize"))
def test_asweep58_resize_attributes(backend: Any, name: str) -> None:
    """ResizeBilinear/NearestNeighbor/Bicubic/Area with align_corners x half_pixel_centers (and the refused pair),
    their gradients, tf.image.resize's methods with antialias and preserve_aspect_ratio, compat.v1's
    align_corners: TF 2.21's bits."""
    _check(backend, name)


@pytest.mark.clause("nn.float-attrs")
@pytest.mark.parametrize("name", _ids("af-xent") + _ids("af-activation"))
def test_asweep58_loss_and_activation_attributes(backend: Any, name: str) -> None:
    """SoftmaxCrossEntropyWithLogits (broadcast labels), its sparse form, softmax_cross_entropy_with_logits' axis,
    LeakyRelu's alpha (0, 1, negative, > 1) and gelu's approximate in every float dtype, with gradients."""
    _check(backend, name)


@pytest.mark.clause("ops.gather-batch-dims")
@pytest.mark.parametrize("name", _ids("af-strided") + _ids("af-pad") + _ids("ai-one-hot") + _ids("ai-shapes")
                         + _ids("af-shapes") + _ids("af-gather") + _ids("af-scatter") + _ids("ai-scatter")
                         + _ids("af-segment") + _ids("af-einsum"))
def test_asweep58_indexing_and_shape_attributes(backend: Any, name: str) -> None:
    """StridedSlice's masks, MirrorPad's modes and PadV2's constant, OneHot's axis, Fill, Range's Tidx, LinSpace,
    ReverseV2, Roll, Tile, Transpose/ConjugateTranspose with int64 operands, GatherV2's batch_dims, ScatterNd and
    TensorScatter*, the segment ops' Tnumsegments, Einsum's equation forms: raw and public, with gradients."""
    _check(backend, name)


@pytest.mark.clause("ops.stateless-random")
@pytest.mark.parametrize("name", _ids("ai-random"))
def test_asweep58_random_attributes(backend: Any, name: str) -> None:
    """RandomUniformInt/RandomUniform/RandomStandardNormal under seed/seed2 pairs, the StatelessRandom*V2 ops under
    each alg, the key/counter ops: TF 2.21's draws or error classes."""
    _check(backend, name)


if __name__ == "__main__":
    import sys
    if "--record" in sys.argv:
        REF.record()
