"""The raw forms of ops whose TF inputs simdist holds as attrs (clause ops.raw-ops).

TF's Sum takes its axes as an input tensor (`reduction_indices`); simdist's Sum takes them as the
attr `axis`, normalised and checked by tf.reduce_sum (negative axes, repeats, the rank), which its
gradient and the graph recorder read. For such an op the raw form is the public function the op
already has, called with the raw op's arguments (RawArgs.via): one place checks them, whichever
way a program calls the op. Ops whose attrs have TF's names but a forward that takes them
otherwise get their RawArgs here too. Each declaration sets `raw_args` on the op itself; this
module is imported by runtime/ops/raw_ops.py on the first `tf.raw_ops` lookup, not by `import simdist`.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from simdist.runtime import errors
from simdist.runtime.ops import registry
from simdist.runtime.ops.raw_args import RawArgs

__all__ = ["declare"]


def _only(op: str, attr: str, value: Any, allowed: tuple) -> None:
    """An attr value simdist's op does not model: TF's UnimplementedError wording for it."""
    if value not in allowed:
        raise errors.UnimplementedError(None, None, f"simdist computes {op} with {attr} in {list(allowed)} only, "
                                        f"not {value!r} [Op:{op}]")


def _set(name: str, args: RawArgs | str) -> None:
    registry.set_raw_args(name, args)   # (the op's module may be imported later: kept until it registers)


def _split_v_shape(value: Any, size_splits: Any, split_dim: Any, num_split: int, err: Exception) -> None:
    """SplitV's shape function (array_ops.cc) as a tf.function's graph adds the op: split_dim a scalar
    (MakeDimForScalarInputWithNegativeIndexing: axis=[1] is a ValueError at trace, eagerly the kernel
    takes one element); of an unknown rank nothing else; a scalar input "Can't split scalars"; with
    size_splits known its length against num_split (observed on TF 2.21; fuzz20 sig seed 2720261203 #167)."""
    from simdist.runtime.ops import graph_constants, static_shapes, trace_errors
    from simdist.runtime.tensor import Tensor
    d = static_shapes.known_shape(split_dim) if isinstance(split_dim, Tensor) else list(np.shape(split_dim))
    if d is not None and len(d) != 0 and graph_constants.known(split_dim):   # (a placeholder's: the kernel's)
        raise trace_errors.static(errors.InvalidArgumentError(None, None, "split_dim_tensor must have exactly one "
                                                                          "element. [Op:SplitV]"),
                                  ValueError, f"Shape must be rank 0 but is rank {len(d)} for 'SplitV'")
    if not isinstance(value, Tensor) or static_shapes.rank_unknown(value):
        return
    if value.ndim == 0:
        raise trace_errors.static(errors.InvalidArgumentError(None, None, "Can't split scalars [Op:SplitV]"),
                                  ValueError, "Can't split scalars")
    if graph_constants.known(split_dim):   # (a known split_dim in range of the known rank; fz36a, sig seed 3620261207)
        from simdist.runtime.ops import dispatch
        raw = dispatch.static_value(split_dim) if isinstance(split_dim, Tensor) else split_dim
        axis, rank = int(np.asarray(raw).reshape(-1)[0]), value.ndim
        if not -rank <= axis < rank:
            raise trace_errors.static(
                errors.InvalidArgumentError(None, None, f"-input rank(-{rank}) <= split_dim < input rank ({rank}), "
                                                        f"but got {axis} [Op:SplitV]"),
                ValueError, f"Dimension size, given by scalar input {axis} must be in range [-{rank}, {rank})")
    sizes = size_splits.shape.as_list()
    if graph_constants.known(size_splits) and len(sizes) == 1 and sizes[0] != num_split:
        raise trace_errors.static(err, ValueError, "Length of size_splits should be equal to num_outputs")


def declare() -> None:  # noqa: C901 - one declaration per op
    """Set `raw_args` on every op below (idempotent)."""
    from simdist.runtime.ops import array, array_more, data_flow, linalg, math, reductions, scatter, segments, slicing
    from simdist.runtime.ops import sorting, space_batch

    for op, fn in (("Sum", math.reduce_sum), ("Mean", math.reduce_mean), ("Max", math.reduce_max),
                   ("Min", math.reduce_min), ("Prod", reductions.reduce_prod), ("Any", reductions.reduce_any),
                   ("All", reductions.reduce_all), ("EuclideanNorm", reductions.reduce_euclidean_norm)):
        _set(op, RawArgs(via=(lambda fn: lambda input, reduction_indices, keep_dims:
                              fn(input, reduction_indices, keep_dims))(fn)))
    for op, fn in (("ArgMax", reductions.argmax), ("ArgMin", reductions.argmin)):
        _set(op, RawArgs(via=(lambda fn: lambda input, dimension, output_type: fn(input, dimension, output_type))(fn)))
    for op, fn in (("Cumsum", reductions.cumsum), ("Cumprod", reductions.cumprod),
                   ("CumulativeLogsumexp", reductions.cumulative_logsumexp)):
        _set(op, RawArgs(via=(lambda fn: lambda x, axis, exclusive, reverse: fn(x, axis, exclusive, reverse))(fn)))
    _set("ConcatV2", RawArgs(via=lambda values, axis: array.concat(values, axis)))
    def as_string(input: Any, precision: int, scientific: bool, shortest: bool, width: int,  # noqa: A002
                  fill: str) -> Any:
        """tf.strings.as_string is gen_string_ops.as_string, the raw op itself: its checks and the
        input's dtype for the format (rawfz21: uint16 "%d", strings "%s")."""
        from simdist.runtime.ops import as_string as _as
        return _as.as_string(input, precision, scientific, shortest, width, fill)
    _set("AsString", RawArgs(via=as_string))
    def colour(op: str) -> Any:
        """tf.image.rgb_to_hsv / hsv_to_rgb are the generated ops: their kernel checks (the channels'
        FailedPreconditionError; rawfz21, seed 2020261201 #41)."""
        def run(images: Any) -> Any:
            from simdist.runtime.ops import image_color
            return image_color.rgb_to_hsv(images) if op == "RGBToHSV" else image_color.hsv_to_rgb(images)
        return run
    for op in ("RGBToHSV", "HSVToRGB"):
        _set(op, RawArgs(via=colour(op)))
    def lu(input: Any, output_idx_type: Any) -> Any:  # noqa: A002 - TF's name
        """tf.linalg.lu is the generated op: its kernel's rank and square checks (rawfz21)."""
        from simdist.runtime.ops import linalg_lu
        return linalg_lu.lu(input, output_idx_type)
    _set("Lu", RawArgs(via=lu))
    _set("Transpose", RawArgs(via=lambda x, perm: array.transpose(x, perm)))
    _set("Reshape", RawArgs(via=lambda tensor, shape: array.reshape(tensor, shape)))
    _set("ExpandDims", RawArgs(via=lambda input, dim: array.expand_dims(input, dim)))
    _set("Tile", RawArgs(via=lambda input, multiples: slicing.tile(input, multiples)))
    _set("Fill", RawArgs(via=lambda dims, value: array.fill(dims, value)))
    _set("BroadcastTo", RawArgs(via=lambda input, shape: array.broadcast_to(input, shape)))
    _set("Pad", RawArgs(via=lambda input, paddings: slicing.pad(input, paddings)))
    _set("PadV2", RawArgs(via=lambda input, paddings, constant_values:
                          slicing.pad(input, paddings, constant_values=constant_values)))
    _set("MirrorPad", RawArgs(via=lambda input, paddings, mode: slicing.pad(input, paddings, mode=mode)))
    _set("Slice", RawArgs(via=lambda input, begin, size: slicing.slice_(input, begin, size)))
    _set("ReverseV2", RawArgs(via=lambda tensor, axis: slicing.reverse(tensor, axis)))
    _set("Roll", RawArgs(via=lambda input, shift, axis: array_more.roll(input, shift, axis)))
    # (EnsureShape's kernel check, and its shape function in a graph, are tf.ensure_shape's: fz22, fuzz20
    # seed 2220261202 #36)
    _set("EnsureShape", RawArgs(via=lambda input, shape: array_more.ensure_shape(input, shape)))
    def gather_v2(params: Any, indices: Any, axis: Any, batch_dims: int) -> Any:
        """GatherV2's kernel checks of batch_dims (gather_op.cc), which tf.gather's wrapper makes
        otherwise: its range over the indices' rank, then below the params' rank (rawfz20)."""
        if batch_dims != 0:
            from simdist.runtime.ops import trace_errors
            r = indices.ndim
            text = f"Expected batch_dims in the range [{-r}, {r}], but got {batch_dims}" \
                if not -r <= batch_dims <= r else None
            b = batch_dims + r if batch_dims < 0 else batch_dims
            if text is None and b >= params.ndim:
                text = f"batch_dims ({b}) must be less than rank(params) ({params.ndim})."
            if text is not None:   # (the shape function's ValueError in a graph that knows the ranks it reads: the
                # indices' for the range, both for the params' bound; fz34a, sig seed 3420261211 #65)
                from simdist.runtime.ops import static_shapes
                err = errors.InvalidArgumentError(None, None, f"{text} [Op:GatherV2]")
                known = static_shapes.known_shape(indices) is not None and (
                    text.startswith("Expected") or static_shapes.known_shape(params) is not None)
                raise trace_errors.static(err, ValueError, text) if known else err
            a = np.asarray(axis.numpy() if hasattr(axis, "numpy") else axis)
            if a.size == 1:   # (then the axis at or after batch_dims: the kernel's, also in a graph, where the
                a = int(a.reshape(-1)[0])   # shape function does not look; fuzz20 seed 2720261205 #121)
                a = a + params.ndim if a < 0 else a
                if a < b:
                    raise errors.InvalidArgumentError(None, None, f"batch_dims ({b}) must be less than or equal to "
                                                                  f"axis ({a}). [Op:GatherV2]")
        return array.gather(params, indices, axis=axis, batch_dims=batch_dims)
    _set("GatherV2", RawArgs(via=gather_v2))
    _set("TopKV2", RawArgs(via=lambda input, k, sorted, index_type: sorting.top_k(input, k, sorted, index_type)))
    for op, fn in (("UnsortedSegmentSum", scatter.unsorted_segment_sum),
                   ("UnsortedSegmentMax", segments.unsorted_segment_max),
                   ("UnsortedSegmentMin", segments.unsorted_segment_min),
                   ("UnsortedSegmentProd", segments.unsorted_segment_prod)):
        _set(op, RawArgs(via=(lambda fn: lambda data, segment_ids, num_segments:
                              fn(data, segment_ids, num_segments))(fn)))
    # Squeeze's squeeze_dims=[] is every size-1 axis (tf.squeeze's axis=None)
    _set("Squeeze", RawArgs(via=lambda input, squeeze_dims: array.squeeze(input, list(squeeze_dims) or None)))
    _set("Unpack", RawArgs(via=lambda value, num, axis: array.unstack(value, num, axis)))
    _set("Shape", RawArgs(via=lambda input, out_type: array.shape(input, out_type)))
    _set("Size", RawArgs(via=lambda input, out_type: array.size(input, out_type)))
    _set("OnesLike", RawArgs(via=lambda x: array.ones_like_op(x)))
    _set("ZerosLike", RawArgs(via=lambda x: array.zeros_like(x)))
    _set("DynamicStitch", RawArgs(via=lambda indices, data: data_flow.dynamic_stitch(indices, data)))
    _set("SpaceToBatchND", RawArgs(via=lambda input, block_shape, paddings:
                                   space_batch.space_to_batch_nd(input, block_shape, paddings)))
    _set("BatchToSpaceND", RawArgs(via=lambda input, block_shape, crops:
                                   space_batch.batch_to_space(input, block_shape, crops)))

    def cast(x: Any, DstT: Any, Truncate: bool) -> Any:  # noqa: N803 - TF's names
        return math.cast_truncating(x, DstT, truncate=bool(Truncate))
    _set("Cast", RawArgs(via=cast))
    _set("MatMul", RawArgs(check=linalg.raw_matmul_check))
    _set("BatchMatMulV2", RawArgs(via=lambda x, y, adj_x, adj_y, grad_x, grad_y:
                                  linalg.batch_matmul(x, y, adjoint_a=adj_x, adjoint_b=adj_y)))

    def equality(fn: Any, differ: bool) -> Any:
        def run(x: Any, y: Any, incompatible_shape_error: bool) -> Any:
            if not incompatible_shape_error:   # (cwise_ops_common: shapes that do not broadcast give one bool)
                import numpy as np
                try:
                    np.broadcast_shapes(tuple(x.shape.as_list()), tuple(y.shape.as_list()))
                except ValueError:
                    from simdist.runtime.tensor import convert_to_tensor
                    return convert_to_tensor(differ)
            return fn(x, y)
        return run
    _set("Equal", RawArgs(via=equality(math.equal, False)))
    _set("NotEqual", RawArgs(via=equality(math.not_equal, True)))

    # TF inputs that simdist's op holds as attrs (read as Python values: RawArgs names an input)
    pool_grad = {"ksize": "ksize", "strides": "strides", "padding": "padding", "orig_input_shape": "orig_input_shape"}
    _set("AvgPoolGrad", RawArgs(inputs=("grad",), attrs=pool_grad))
    _set("AvgPool3DGrad", RawArgs(inputs=("grad",), attrs=pool_grad))
    conv = {"strides": "strides", "padding": "padding", "explicit_paddings": "explicit_paddings",
            "dilations": "dilations"}
    for op in ("Conv2DBackpropFilter", "DepthwiseConv2dNativeBackpropFilter"):
        _set(op, RawArgs(inputs=("input", "out_backprop"), attrs={**conv, "filter_sizes": "filter_sizes"}))
    for op in ("Conv2DBackpropInput", "DepthwiseConv2dNativeBackpropInput"):
        _set(op, RawArgs(inputs=("filter", "out_backprop"), attrs={**conv, "input_sizes": "input_sizes"}))
    _set("DenseBincount", RawArgs(inputs=("input", "weights"), attrs={"size": "size",
                                                                     "binary_output": "binary_output"}))
    _set("MaxPoolGradGrad", RawArgs(attrs={"ksize": "ksize", "strides": "strides", "padding": "padding",
                                           "explicit_paddings": lambda a: ()}))
    conv3d = {"strides": "strides", "padding": "padding", "dilations": "dilations", "explicit_paddings": lambda a: ()}
    _set("Conv3DBackpropInputV2", RawArgs(inputs=("filter", "out_backprop"),
                                          attrs={**conv3d, "input_sizes": "input_sizes"}))
    _set("Conv3DBackpropFilterV2", RawArgs(inputs=("input", "out_backprop"),
                                           attrs={**conv3d, "filter_sizes": "filter_sizes"}))
    _set("MirrorPadGrad", RawArgs(inputs=("input",), attrs={"paddings": "paddings", "mode": "mode"}))
    # (the kernels' checks live in the public functions: a raw call went to the op without them, so a [2, 3, 0, 3]
    # SpaceToDepth by 4 computed; TF refuses "Image width 0 and height 3 should be divisible by block_size: 4";
    # fz36a, eager seed 3620261227 #6)
    from simdist.runtime.ops import space_batch
    _set("SpaceToDepth", RawArgs(via=lambda input, block_size, data_format:
                                 space_batch.space_to_depth(input, block_size, data_format)))
    _set("DepthToSpace", RawArgs(via=lambda input, block_size, data_format:
                                 space_batch.depth_to_space(input, block_size, data_format)))
    _set("ResizeBilinear", RawArgs(inputs=("images",), attrs={"size": "size", "align_corners": "align_corners",
                                                              "half_pixel_centers": "half_pixel_centers"}))
    from simdist.runtime.ops import diag, generators, linalg_more
    _set("MatrixDiagPartV3", RawArgs(via=lambda input, k, padding_value, align:
                                     diag.diag_part_of(input, k=k, padding_value=padding_value, align=align, raw=True)))
    _set("MatrixDiagV3", RawArgs(via=lambda diagonal, k, num_rows, num_cols, padding_value, align:
                                 diag.diag_of(diagonal, k=k, num_rows=num_rows, num_cols=num_cols,
                                              padding_value=padding_value, align=align, raw=True)))
    _set("MatrixSetDiagV3", RawArgs(via=lambda input, diagonal, k, align:
                                    linalg_more.set_diag(input, diagonal, k=k, align=align)))
    _set("OneHot", RawArgs(via=lambda indices, depth, on_value, off_value, axis:
                           generators.one_hot(indices, depth, on_value, off_value, axis)))

    _set("StridedSlice", RawArgs(via=lambda input, begin, end, strides, begin_mask, end_mask, ellipsis_mask,
                                 new_axis_mask, shrink_axis_mask:
                                 slicing.strided_slice_fn(input, begin, end, strides, begin_mask, end_mask,
                                                          ellipsis_mask, new_axis_mask, shrink_axis_mask)))
    # SplitV's num_split is the number of size_splits (the kernel's check eagerly; in a graph the shape
    # function's, where it looks: rawfz20), and in a tf.function Grappler's Identity for num_split 1 (fz27a)
    def split_v(value: Any, size_splits: Any, split_dim: Any, num_split: int) -> Any:
        from simdist.runtime import context
        from simdist.runtime.ops import grappler
        from simdist.runtime.ops import dispatch, static_shapes
        from simdist.runtime.tensor import Tensor
        sizes = size_splits.shape.as_list()
        err = errors.InvalidArgumentError(None, None, "size of the split_tensor must be 1-D and have the same "
                                                      f"elements as outputs got 1 -D and {sizes[0] if sizes else 0} "
                                                      "elements [Op:SplitV]")
        if context.in_function():
            _split_v_shape(value, size_splits, split_dim, num_split, err)
            if num_split == 1 and grappler.enabled:   # (constant_folding.cc RemoveSplitOrSplitV: the kernel never runs)
                return [array.identity(value)]
        if len(sizes) == 1 and sizes[0] != num_split:
            raise err
        if isinstance(split_dim, Tensor) and split_dim.ndim:   # (the kernel reads a split_dim of one element)
            if int(np.prod(split_dim.shape.as_list())) != 1:
                raise errors.InvalidArgumentError(None, None, "split_dim_tensor must have exactly one element. "
                                                              "[Op:SplitV]")
            split_dim = array.reshape(split_dim, [])
        if num_split == 1 and len(sizes) == 1 and isinstance(value, Tensor) and not static_shapes.rank_unknown(value):
            # (SplitVOpBase::ComputeEasyCases: one output is the input, its size as given, before a -1 is resolved;
            # fz36a: size_splits=[-1] is refused eagerly)
            axis = int(np.asarray(dispatch.static_value(split_dim) if isinstance(split_dim, Tensor)
                                  else split_dim).reshape(-1)[0])
            given = int(np.asarray(dispatch.static_value(size_splits) if isinstance(size_splits, Tensor)
                                   else size_splits).reshape(-1)[0])
            if -value.ndim <= axis < value.ndim and static_shapes.known_dim(value, axis % value.ndim) is not None \
                    and given != value.shape[axis]:
                raise errors.InvalidArgumentError(None, None, "If there is only one output, it must have the same "
                                                              f"size as the input. Input size: {value.shape[axis]} "
                                                              f"output size: {given} [Op:SplitV]")
        return array.split(value, size_splits, split_dim, num=num_split)
    _set("SplitV", RawArgs(via=split_v))
    # ops whose kernel checks simdist's public function makes (not the op's forward): their raw form
    # is that function, so a raw call meets TF's kernel errors too (rawfz20; small binding fix)
    from simdist.runtime.ops import nn_more, string_case
    _set("LRN", RawArgs(via=lambda input, depth_radius, bias, alpha, beta:
                        nn_more.local_response_normalization(input, depth_radius, bias, alpha, beta)))
    _set("StringUpper", RawArgs(via=lambda input, encoding: string_case.upper(input, encoding)))
    _set("StringLower", RawArgs(via=lambda input, encoding: string_case.lower(input, encoding)))
    _set("MatrixBandPart", RawArgs(via=lambda input, num_lower, num_upper:
                                   linalg_more.band_part(input, num_lower, num_upper)))
    # ReverseSequence's and the resize ops' kernel checks live in their functions (rawfz20): the raw form
    from simdist.runtime.ops import array_more, resize_area, resize_bicubic, resize_nearest
    _set("ReverseSequence", RawArgs(via=lambda input, seq_lengths, seq_dim, batch_dim:
                                    array_more.reverse_sequence(input, seq_lengths, seq_dim, batch_dim)))

    def resize(op: str, fn: Any) -> Any:
        def run(images: Any, size: Any, **attrs: Any) -> Any:
            from simdist.runtime import context
            from simdist.runtime.ops import dispatch, static_shapes, trace_errors
            s = dispatch.static_value(size)
            shape = static_shapes.known_shape(images)
            # (a graph: image_ops.cc's ResizeShapeFn, images rank 4, then the size a 2-vector of values >= -1:
            # -1 is an unknown dimension there, the kernel's error at run; infer_ctx runs it first, shapefn21)
            text = "Shape must be rank 4" if shape is not None and len(shape) != 4 else \
                "Shape must be rank 1" if s.ndim != 1 else "Dimension must be 2" if s.size != 2 else \
                "Dimension must be non-negative" if (s < -1).any() else None
            try:
                if s.ndim != 1:   # (ImageResizerState: the size tensor first)
                    raise errors.InvalidArgumentError(None, None, f"shape_t must be 1-D{list(s.shape)} [Op:{op}]")
                return fn(images, tuple(int(v) for v in s), **attrs)
            except errors.InvalidArgumentError as e:
                if text is not None and context.in_function():
                    raise trace_errors.static(e, ValueError, f"{text} for '{{{{node {op}}}}}'") from None
                raise
        return run
    _set("ResizeBicubic", RawArgs(via=resize("ResizeBicubic", resize_bicubic.resize_bicubic)))
    _set("ResizeNearestNeighbor", RawArgs(via=resize("ResizeNearestNeighbor", resize_nearest.resize_nearest_neighbor)))
    _set("ResizeArea", RawArgs(via=resize("ResizeArea", resize_area.resize_area)))
    # the square-matrix ops: their public functions' check (the kernel's error eagerly, the shape
    # function's ValueError where a graph knows the dimensions) before the default binding (rawfz20)
    for op, attrs in (("Cholesky", {}), ("LogMatrixDeterminant", {}), ("MatrixDeterminant", {}),
                      ("MatrixInverse", {"adjoint": "adjoint"}), ("MatrixSquareRoot", {}),
                      ("SelfAdjointEigV2", {"compute_v": "compute_v"})):
        _set(op, RawArgs(attrs=attrs, check=(lambda op: lambda a: linalg_more._square(a["input"], op))(op)))
    _set("Conv3D", RawArgs(attrs={"strides": "strides", "padding": "padding", "dilations": "dilations",
                                  "explicit_paddings": lambda a: ()}))

    def policy(op: str, fn: Any) -> Any:
        def run(bad_indices_policy: str, **kw: Any) -> Any:
            if bad_indices_policy not in ("", "DEFAULT", "ERROR", "IGNORE"):   # (TF's kernels' GetBadIndicesPolicy)
                raise errors.InvalidArgumentError(None, None, "Unknown bad indices handling attribute: "
                                                              f"{bad_indices_policy} [Op:{op}]")
            _only(op, "bad_indices_policy", bad_indices_policy, ("", "DEFAULT"))
            return fn(**kw)
        return run
    _set("GatherNd", RawArgs(via=policy("GatherNd", lambda params, indices: scatter.gather_nd(params, indices))))
    _set("ScatterNd", RawArgs(via=policy("ScatterNd", lambda indices, updates, shape:
                                         scatter.scatter_nd(indices, updates, shape))))
    for op, fn in (("TensorScatterAdd", scatter.tensor_scatter_nd_add), ("TensorScatterSub", scatter.tensor_scatter_nd_sub),
                   ("TensorScatterUpdate", scatter.tensor_scatter_nd_update),
                   ("TensorScatterMax", array_more.tensor_scatter_nd_max),
                   ("TensorScatterMin", array_more.tensor_scatter_nd_min)):
        _set(op, RawArgs(via=policy(op, (lambda fn: lambda tensor, indices, updates: fn(tensor, indices, updates))(fn))))

    # Ops whose default binding TF's own calls showed wrong (tests/ops/test_raw_ops_tf.py, session 19):
    # their forwards take the raw arguments otherwise; no raw form until a RawArgs is written for each
    # (Eig, FFT, FFT2D, IFFT, IFFT2D, MatrixLogarithm, StringJoin, UnicodeDecode: raw_forms_more.py, session 20)
    # (AllCandidateSampler, FixedUnigramCandidateSampler, RandomShuffle, SparseReduceMaxSparse,
    # StatelessParameterizedTruncatedNormal, StatelessRandomBinomial, StringNGrams: raw_forms_random.py,
    # raw_forms_sparse.py, raw_forms_strings.py, session 28)
    # Ops with a default binding that no recorded TF call has checked yet (scripts/record_raw_op_cases.py
    # found none): absent until one does
    for op in UNCHECKED:
        _set(op, "no recorded TF call checks its binding yet (scripts/record_raw_op_cases.py)")


# (session 20: the rest of session 19's list has recorded TF calls now: scripts/record_raw_op_cases.py
# notes the wrappers' fallback path too)
# (session 28: every one of them is checked now: handwritten calls in scripts/record_raw_op_cases.py,
# the file ops' in tests/ops/test_raw_file_ops_tf.py)
UNCHECKED: tuple[str, ...] = ()
