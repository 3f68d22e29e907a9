"""The third fuzzer's op table: public TF callables by their real signatures. Each entry names
the callable under `tf.`, its parameters in TF's order with the kind of value each takes, the
dtypes its tensor operand prefers (others are tried on purpose), and whether a float result is
bit-exact across backends. Parameters after the first are drawn or left at their defaults; each
drawn one is passed by keyword (TF's parameter name) or, while every earlier one was passed,
by position.

Parameter kinds: x (the operand: an input, a NumPy array, a nested list, a Python scalar or a
tf.constant), y (a second operand that broadcasts with x), ax (axis: None, an int, negative, a
tuple or list, sometimes out of range), kd (keepdims), dt (a dtype as tf.DType, a string or a
NumPy type), it (output_type/out_type: int32 or int64), nm (name), lab (labels shaped like x,
in [0, 1]), ilab (class ids shaped like x without its last axis), idx (indices along x's first
axis), k (a count up to x's last dimension), bl (a bool flag), fl (a float), ord (a norm order),
sh (a shape), seg (sorted segment ids of x's first axis), nseg (num_segments), i (a small int).
"""

from __future__ import annotations

from dataclasses import dataclass

FL = ("float16", "bfloat16", "float32", "float64")
SINT = ("int8", "int16", "int32", "int64")
UINT = ("uint8", "uint16", "uint32", "uint64")
INT = SINT + UINT
REAL = FL + INT
ALLD = REAL + ("bool",)


@dataclass(frozen=True)
class Op:
    """A callable under `tf.` with its parameters (name, kind) in TF's order; `required` of them
    are always passed."""
    path: str
    params: tuple[tuple[str, str], ...]
    required: int
    dtypes: tuple[str, ...]
    exact: object = True


def _op(path: str, sig: str, required: int, dtypes: tuple[str, ...], exact: object = True) -> Op:
    params = tuple(tuple(p.split(":")) for p in sig.split())
    return Op(path, params, required, dtypes, exact)  # type: ignore[arg-type]


_RED = "input_tensor:x axis:ax keepdims:kd name:nm"
OPS: list[Op] = [
    # reductions by keyword (input_tensor=), axis forms, keepdims
    *[_op(p, _RED, 1, REAL, exact) for p, exact in (
        ("math.reduce_sum", "int"), ("reduce_sum", "int"), ("math.reduce_max", True), ("math.reduce_min", True),
        ("reduce_prod", "int"), ("math.reduce_mean", "int"), ("math.reduce_variance", False),
        ("math.reduce_std", False), ("math.reduce_logsumexp", False), ("math.reduce_euclidean_norm", False))],
    _op("math.reduce_all", _RED, 1, ("bool",)), _op("math.reduce_any", _RED, 1, ("bool",)),
    _op("math.count_nonzero", "input:x axis:ax keepdims:kd dtype:it name:nm", 1, ALLD),
    _op("math.argmax", "input:x axis:ax output_type:it name:nm", 1, REAL),
    _op("math.argmin", "input:x axis:ax output_type:it name:nm", 1, REAL),
    _op("math.cumsum", "x:x axis:i exclusive:bl reverse:bl name:nm", 1, REAL, "int"),
    _op("math.cumprod", "x:x axis:i exclusive:bl reverse:bl name:nm", 1, REAL, "int"),
    # elementwise by keyword
    *[_op(p, "x:x y:y name:nm", 2, REAL) for p in (
        "math.add", "math.subtract", "math.multiply", "math.maximum", "math.minimum", "math.floordiv",
        "math.floormod", "truncatediv", "truncatemod", "math.squared_difference", "math.truediv",
        "math.divide", "math.equal", "math.not_equal", "math.less", "math.greater_equal")],
    *[_op(p, "x:x y:y name:nm", 2, FL) for p in ("math.divide_no_nan", "math.multiply_no_nan")],
    _op("math.nextafter", "x1:x x2:y name:nm", 2, FL),
    *[_op(p, "x:x y:y name:nm", 2, FL, False) for p in ("math.pow", "math.xlogy", "math.xdivy")],
    _op("math.atan2", "y:x x:y name:nm", 2, FL, False),
    _op("math.igamma", "a:x x:y name:nm", 2, FL, False),
    _op("math.zeta", "x:x q:y name:nm", 2, FL, False),
    _op("math.polygamma", "a:x x:y name:nm", 2, FL, False),
    _op("math.scalar_mul", "scalar:fl x:x name:nm", 2, FL),
    *[_op(p, "x:x name:nm", 1, FL + ("int32", "int64")) for p in (
        "math.abs", "math.negative", "math.sign", "math.square", "math.reciprocal", "math.floor", "math.ceil",
        "math.round", "math.rint", "math.is_nan", "math.is_finite", "math.is_inf", "math.logical_not")],
    *[_op(p, "x:x name:nm", 1, FL, False) for p in (
        "math.exp", "math.log", "math.sqrt", "math.rsqrt", "math.tanh", "math.sigmoid",
        "math.erfinv", "math.ndtri", "math.bessel_i0e", "math.bessel_i1e", "math.log_sigmoid", "math.erfc",
        "math.expm1", "math.log1p", "math.sinh", "math.asinh", "math.digamma", "math.lgamma")],
    *[_op(p, "x:x name:nm", 1, FL, False) for p in (
        "math.special.dawsn", "math.special.expint", "math.special.fresnel_cos", "math.special.spence",
        "math.special.bessel_j0", "math.special.bessel_k1e")],
    _op("math.polyval", "coeffs:L x:x name:nm", 2, FL, False),
    _op("math.invert_permutation", "x:perm name:nm", 1, ("int32", "int64")),
    _op("math.is_non_decreasing", "x:x name:nm", 1, REAL),
    _op("math.is_strictly_increasing", "x:x name:nm", 1, REAL),
    _op("math.bincount", "arr:x weights:none minlength:i maxlength:i dtype:dt name:nm axis:ax binary_output:bl", 1,
        ("int32", "int64")),
    _op("math.confusion_matrix", "labels:x predictions:perm num_classes:i weights:none dtype:dt name:nm", 2,
        ("int32", "int64")),
    _op("math.in_top_k", "targets:ilab predictions:x k:k name:nm", 3, ("float32",)),
    _op("math.top_k", "input:x k:k sorted:bl index_type:it name:nm", 1, REAL),
    _op("math.l2_normalize", "x:x axis:ax epsilon:fl name:nm dim:none", 1, FL, False),
    _op("math.segment_sum", "data:x segment_ids:seg name:nm", 2, REAL, "int"),
    _op("math.unsorted_segment_max", "data:x segment_ids:seg num_segments:nseg name:nm", 3, REAL),
    # tf.nn by keyword
    _op("math.softplus", "features:x name:nm", 1, FL, False),
    _op("nn.softmax", "logits:x axis:i name:nm", 1, FL, False),
    _op("nn.log_softmax", "logits:x axis:i name:nm", 1, FL, False),
    _op("nn.relu", "features:x name:nm", 1, REAL),
    _op("nn.relu6", "features:x name:nm", 1, REAL),
    _op("nn.elu", "features:x name:nm", 1, FL, False),
    _op("nn.crelu", "features:x axis:i name:nm", 1, FL),
    _op("nn.leaky_relu", "features:x alpha:fl name:nm", 1, FL),
    _op("nn.gelu", "features:x approximate:bl name:nm", 1, FL, False),
    _op("nn.silu", "features:x beta:fl", 1, FL, False),
    _op("nn.l2_loss", "t:x name:nm", 1, FL, False),
    _op("nn.zero_fraction", "value:x name:nm", 1, REAL, False),
    _op("nn.moments", "x:x axes:axl shift:none keepdims:kd name:nm", 2, FL, False),
    _op("nn.sigmoid_cross_entropy_with_logits", "labels:lab logits:x name:nm", 2, FL, False),
    _op("nn.softmax_cross_entropy_with_logits", "labels:lab logits:x axis:i name:nm", 2, FL, False),
    _op("nn.sparse_softmax_cross_entropy_with_logits", "labels:ilab logits:x name:nm", 2, FL, False),
    _op("nn.weighted_cross_entropy_with_logits", "labels:lab logits:x pos_weight:fl name:nm", 3, FL, False),
    _op("nn.embedding_lookup", "params:x ids:idx max_norm:none name:nm", 2, REAL),
    _op("nn.bias_add", "value:x bias:lastvec data_format:none name:nm", 2, REAL),
    _op("nn.compute_average_loss", "per_example_loss:x sample_weight:none global_batch_size:i", 1, FL, False),
    _op("nn.scale_regularization_loss", "regularization_loss:x", 1, FL, False),
    # tf.linalg
    _op("linalg.norm", "tensor:x ord:ord axis:ax keepdims:kd name:nm", 1, FL, False),
    _op("norm", "tensor:x ord:ord axis:ax keepdims:kd name:nm", 1, FL, False),
    _op("linalg.global_norm", "t_list:list name:nm", 1, FL, False),
    _op("linalg.band_part", "input:x num_lower:i num_upper:i name:nm", 3, ALLD),
    _op("linalg.diag_part", "input:x name:nm k:i padding_value:none align:none", 1, ALLD),
    _op("linalg.diag", "diagonal:x name:nm k:i num_rows:none num_cols:none padding_value:none align:none", 1, ALLD),
    _op("linalg.trace", "x:x name:nm", 1, REAL, "int"),
    _op("linalg.det", "input:sq name:nm", 1, ("float32", "float64"), False),
    _op("linalg.inv", "input:sq adjoint:bl name:nm", 1, ("float32", "float64"), False),
    _op("linalg.matmul", "a:x b:mat transpose_a:none transpose_b:none adjoint_a:none adjoint_b:none "
                         "a_is_sparse:bl b_is_sparse:bl output_type:none grad_a:none grad_b:none name:nm", 2,
        REAL, "int"),
    _op("linalg.normalize", "tensor:x ord:ord axis:ax name:nm", 1, FL, False),
    _op("linalg.cross", "a:x b:y name:nm", 2, FL),
    _op("linalg.eye", "num_rows:i num_columns:none batch_shape:none dtype:dt name:nm", 1, ()),
    # array ops by keyword
    _op("clip_by_norm", "t:x clip_norm:fl axes:ax name:nm", 2, FL, False),
    _op("clip_by_value", "t:x clip_value_min:fl clip_value_max:fl name:nm", 3, REAL),
    _op("roll", "input:x shift:i axis:i name:nm", 3, ALLD),
    _op("reverse", "tensor:x axis:axl name:nm", 2, ALLD),
    _op("unique", "x:vec out_idx:it name:nm", 1, REAL),
    _op("unique_with_counts", "x:vec out_idx:it name:nm", 1, REAL),
    _op("searchsorted", "sorted_sequence:sorted values:x side:side out_type:it name:nm", 2, REAL),
    _op("histogram_fixed_width", "values:x value_range:range nbins:i dtype:it name:nm", 2, REAL),
    _op("convert_to_tensor", "value:x dtype:dt dtype_hint:dt name:nm", 1, ALLD),
    _op("cast", "x:x dtype:dt name:nm", 2, ALLD),
    _op("dtypes.saturate_cast", "value:x dtype:dt name:nm", 2, REAL),
    _op("bitcast", "input:x type:dt name:nm", 2, REAL),
    _op("zeros_like", "input:x dtype:dt name:nm", 1, ALLD),
    _op("ones_like", "input:x dtype:dt name:nm", 1, ALLD),
    _op("expand_dims", "input:x axis:i name:nm", 2, ALLD),
    _op("squeeze", "input:x axis:ax name:nm", 1, ALLD),
    _op("shape", "input:x out_type:it name:nm", 1, ALLD),
    _op("size", "input:x out_type:it name:nm", 1, ALLD),
    _op("rank", "input:x name:nm", 1, ALLD),
    _op("identity", "input:x name:nm", 1, ALLD),
    _op("transpose", "a:x perm:none conjugate:bl name:nm", 1, ALLD),
    _op("gather", "params:x indices:idx validate_indices:none axis:none batch_dims:none name:nm", 2, ALLD),
    _op("tile", "input:x multiples:mult name:nm", 2, ALLD),
    _op("fill", "dims:sh value:scalar name:nm", 2, ALLD),
    _op("zeros", "shape:sh dtype:dt name:nm", 1, ()),
    _op("ones", "shape:sh dtype:dt name:nm", 1, ()),
    _op("range", "start:i limit:i delta:i dtype:dt name:nm", 1, ()),
    _op("linspace", "start:fl stop:fl num:i name:nm axis:none", 3, ()),
    _op("eye", "num_rows:i num_columns:none batch_shape:none dtype:dt name:nm", 1, ()),
    _op("one_hot", "indices:x depth:i on_value:none off_value:none axis:none dtype:dt name:nm", 2, ("int32", "int64")),
    _op("where", "condition:x x:none y:none name:nm", 1, ("bool",)),
    _op("math.add_n", "inputs:list name:nm", 1, REAL),
    _op("math.accumulate_n", "inputs:list shape:none tensor_dtype:none name:nm", 1, REAL),
    _op("stack", "values:list axis:i name:nm", 1, ALLD),
    _op("concat", "values:list axis:i name:nm", 2, ALLD),
    _op("unravel_index", "indices:x dims:dims name:nm", 2, ("int32", "int64")),
    _op("sort", "values:x axis:i direction:dir name:nm", 1, REAL),
    _op("argsort", "values:x axis:i direction:dir stable:bl name:nm", 1, REAL),
]

BY_PATH = {o.path: o for o in OPS}

# The extended catalogue (issue 29's fz5): ops added to simdist after the third fuzzer was written
# (complex64/128, tf.random's stateless samplers, tf.image, Eigen's trigonometric and error-function
# kernels). Drawn only by programs generated with `ext=True` (fz3_calls.generate), so the programs
# of every earlier seed are unchanged. Extra parameter kinds: img (an image, [H, W, 3] or
# [B, H, W, 3]), img2 (a second image shaped like img), seed (a stateless seed pair), sdt (a
# sampler's dtype), frac (a central_crop fraction), hue (a hue delta), size (a resize [h, w]),
# meth (a resize method).
CX = ("complex64", "complex128")
FLCX = FL + CX
_IMG = ("float32", "float32", "uint8", "float64", "float16", "int32")
EXT_OPS: list[Op] = [
    # Eigen's packet kernels (float32 sin/cos/tan, atan, erf, ...), complex where TF takes it
    *[_op(p, "x:x name:nm", 1, FLCX, False) for p in (
        "math.sin", "math.cos", "math.tan", "math.exp", "math.log", "math.sqrt", "math.rsqrt", "math.tanh",
        "math.sigmoid", "math.reciprocal", "math.square", "math.expm1", "math.log1p", "math.sinh", "math.cosh",
        "math.asinh", "math.acosh", "math.atanh", "math.asin", "math.acos", "math.atan")],
    *[_op(p, "x:x name:nm", 1, FL, False) for p in ("math.erf", "math.erfc", "math.reciprocal_no_nan")],
    _op("nn.softsign", "features:x name:nm", 1, FL, False),
    _op("nn.selu", "features:x name:nm", 1, FL, False),
    _op("math.atan2", "y:x x:y name:nm", 2, FL, False),
    # complex numbers
    *[_op(p, "input:x name:nm", 1, CX + ("float32", "float64")) for p in ("math.real", "math.imag")],
    _op("math.angle", "input:x name:nm", 1, CX + ("float32", "float64"), False),
    _op("math.conj", "x:x name:nm", 1, CX + ("float32", "int32")),
    _op("complex", "real:x imag:y name:nm", 2, ("float32", "float64")),
    *[_op(p, "x:x name:nm", 1, CX) for p in ("math.abs", "math.negative", "math.sign", "math.is_nan")],
    *[_op(p, "x:x y:y name:nm", 2, CX) for p in (
        "math.add", "math.subtract", "math.multiply", "math.equal", "math.not_equal", "math.squared_difference")],
    *[_op(p, "x:x y:y name:nm", 2, CX, False) for p in ("math.truediv", "math.divide_no_nan", "math.pow",
                                                        "math.xlogy")],
    *[_op(p, _RED, 1, CX, False) for p in ("math.reduce_sum", "math.reduce_mean", "math.reduce_prod")],
    _op("linalg.matmul", "a:x b:mat transpose_a:none transpose_b:none adjoint_a:bl adjoint_b:bl name:nm", 2, CX,
        False),
    _op("linalg.adjoint", "matrix:x name:nm", 1, CX + ("float32",)),
    _op("cast", "x:x dtype:dt name:nm", 2, CX),
    _op("math.cumsum", "x:x axis:i exclusive:bl reverse:bl name:nm", 1, CX, False),
    _op("concat", "values:list axis:i name:nm", 2, CX),
    _op("transpose", "a:x perm:none conjugate:bl name:nm", 1, CX),
    # tf.random's stateless samplers (Philox bits)
    _op("random.stateless_uniform", "shape:sh seed:seed minval:none maxval:none dtype:sdt name:nm", 2, (), True),
    _op("random.stateless_normal", "shape:sh seed:seed mean:fl stddev:fl dtype:sdt name:nm", 2, (), False),
    _op("random.stateless_truncated_normal", "shape:sh seed:seed mean:fl stddev:fl dtype:sdt name:nm", 2, (), False),
    _op("random.stateless_categorical", "logits:x num_samples:i seed:seed dtype:it name:nm", 3, ("float32",
                                                                                               "float64")),
    _op("random.stateless_poisson", "shape:sh seed:seed lam:fl dtype:sdt name:nm", 3, (), False),
    _op("random.stateless_gamma", "shape:sh seed:seed alpha:fl beta:fl dtype:sdt name:nm", 3, (), False),
    _op("random.fold_in", "seed:seed data:i", 2, ()),
    # tf.image
    _op("image.adjust_brightness", "image:img delta:fl", 2, _IMG, False),
    _op("image.adjust_contrast", "images:img contrast_factor:fl", 2, _IMG, False),
    _op("image.adjust_gamma", "image:img gamma:fl gain:fl", 1, _IMG, False),
    _op("image.adjust_saturation", "image:img saturation_factor:fl name:nm", 2, _IMG, False),
    _op("image.adjust_hue", "image:img delta:hue name:nm", 2, _IMG, False),
    _op("image.rgb_to_grayscale", "images:img name:nm", 1, _IMG, False),
    _op("image.rgb_to_hsv", "images:img name:nm", 1, _IMG, False),
    _op("image.hsv_to_rgb", "images:img name:nm", 1, _IMG, False),
    _op("image.rgb_to_yuv", "images:img", 1, _IMG, False),
    _op("image.yuv_to_rgb", "images:img", 1, _IMG, False),
    _op("image.flip_left_right", "image:img", 1, _IMG),
    _op("image.flip_up_down", "image:img", 1, _IMG),
    _op("image.rot90", "image:img k:i name:nm", 1, _IMG),
    _op("image.transpose", "image:img name:nm", 1, _IMG),
    _op("image.central_crop", "image:img central_fraction:frac", 2, _IMG),
    _op("image.per_image_standardization", "image:img", 1, _IMG, False),
    _op("image.resize", "images:img size:size method:meth preserve_aspect_ratio:bl antialias:bl name:nm", 2, _IMG,
        False),
    _op("image.resize_with_crop_or_pad", "image:img target_height:i target_width:i", 3, _IMG),
    _op("image.convert_image_dtype", "image:img dtype:dt saturate:bl name:nm", 2, _IMG, False),
    _op("image.total_variation", "images:img name:nm", 1, _IMG, False),
    _op("image.image_gradients", "image:img", 1, _IMG, False),
    _op("image.sobel_edges", "image:img", 1, _IMG, False),
    _op("image.psnr", "a:img b:img2 max_val:fl name:nm", 3, _IMG, False),
    _op("image.stateless_random_flip_left_right", "image:img seed:seed", 2, _IMG),
    _op("image.stateless_random_brightness", "image:img max_delta:fl seed:seed", 3, _IMG, False),
    _op("image.stateless_random_contrast", "image:img lower:fl upper:fl seed:seed", 4, _IMG, False),
]

# issue 29's eleventh-session ops (ext=2 only, a stream of its own: the ext=True stream is unchanged)
EXT8_OPS: list[Op] = [
    _op("fingerprint", "data:x method:none name:nm", 1, ALLD),
    _op("nn.ctc_unique_labels", "labels:x name:nm", 1, ("int32", "int64")),
    _op("nn.fractional_max_pool", "value:img pooling_ratio:pr pseudo_random:bl overlapping:bl seed:fseed name:nm", 5,
        _IMG),
    _op("nn.fractional_avg_pool", "value:img pooling_ratio:pr pseudo_random:bl overlapping:bl seed:fseed name:nm", 5,
        _IMG),
    _op("nn.ctc_greedy_decoder", "inputs:x sequence_length:seqlen merge_repeated:bl blank_index:i", 2,
        ("float32", "float64")),
    _op("nn.ctc_beam_search_decoder", "inputs:x sequence_length:seqlen beam_width:bw top_paths:tp", 2,
        ("float32", "float64")),
    _op("linalg.eigh_tridiagonal", "alpha:vec beta:offdiag eigvals_only:bl", 2, ("float32", "float64"), False),
    _op("linalg.logm", "input:sq name:nm", 1, CX, False),
    _op("image.stateless_sample_distorted_bounding_box",
        "image_size:isz bounding_boxes:bbx seed:seed min_object_covered:frac aspect_ratio_range:range "
        "area_range:arange max_attempts:i use_image_if_no_bounding_boxes:bl name:nm", 3, ()),
    _op("is_symbolic_tensor", "tensor:x", 1, ALLD),
]
