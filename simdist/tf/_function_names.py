"""The `__name__` of facade functions whose TF 2.21 Python definition is named otherwise than the export.

TF exports `tf.nn.silu` and `tf.nn.swish` from `def swish`, `tf.nn.softmax` from `softmax_v2`, `tf.nn.log_softmax`
from `log_softmax_v2`, `tf.nn.crelu` from `crelu_v2` (tf_export names them, Python keeps the def's name). Keras
serializes a plain function by that name (serialize_keras_object: `{"class_name": "function", "config":
fn.__name__}`; activations.serialize keeps a bare string only for its own activation names), so
`Dense(activation=tf.nn.silu).get_config()` is the function dict {"config": "swish"} on TF, not "silu"
(asweep65's note, fix65k; observed on TF 2.21; fix66n took every wrapped public function: `tf.nn.moments` is
`moments_v2`, `tf.linalg.inv` `matrix_inverse`, `tf.random.uniform` `random_uniform`). `apply` renames the facade's
own wrappers (functools.wraps copies, never the runtime's op functions, whose names other code reads).
"""

from __future__ import annotations

import types
from typing import Any

__all__ = ["TF_NAMES", "TF_QUALNAMES", "apply"]

#: export path under tf -> the TF 2.21 function's __name__ where it is not the export's last part (observed:
#: `tf.nn.silu.__name__` & co.; every public function of tf, tf.nn, tf.math, tf.linalg, tf.signal, tf.image,
#: tf.random, tf.strings, tf.sparse, tf.io, tf.sets, tf.debugging, tf.data.experimental and tf.experimental.numpy
#: whose facade function is a wrapper: /work/wt/fix66n_logs/p_names.py, fix66n)
TF_NAMES: dict[str, str] = {
    "abs": "abs", "argmax": "argmax_v2", "argmin": "argmin_v2", "assert_equal": "assert_equal_v2",
    "assert_greater": "assert_greater_v2", "assert_less": "assert_less_v2", "assert_rank": "assert_rank_v2",
    "batch_to_space": "batch_to_space_v2", "boolean_mask": "boolean_mask_v2", "case": "case_v2",
    "complex": "complex", "cond": "cond_for_tf_v2", "convert_to_tensor": "convert_to_tensor_v2_with_dispatch",
    "debugging.assert_all_finite": "verify_tensor_all_finite_v2", "debugging.assert_equal": "assert_equal_v2",
    "debugging.assert_greater": "assert_greater_v2", "debugging.assert_greater_equal": "assert_greater_equal_v2",
    "debugging.assert_integer": "assert_integer_v2", "debugging.assert_less": "assert_less_v2",
    "debugging.assert_less_equal": "assert_less_equal_v2", "debugging.assert_near": "assert_near_v2",
    "debugging.assert_negative": "assert_negative_v2", "debugging.assert_non_negative": "assert_non_negative_v2",
    "debugging.assert_non_positive": "assert_non_positive_v2", "debugging.assert_none_equal": "assert_none_equal_v2",
    "debugging.assert_positive": "assert_positive_v2", "debugging.assert_rank": "assert_rank_v2",
    "debugging.assert_rank_at_least": "assert_rank_at_least_v2", "debugging.assert_rank_in": "assert_rank_in_v2",
    "debugging.assert_scalar": "assert_scalar_v2", "debugging.assert_shapes": "assert_shapes_v2",
    "debugging.assert_type": "assert_type_v2", "dtypes.complex": "complex", "expand_dims": "expand_dims_v2",
    "foldl": "foldl_v2", "foldr": "foldr_v2", "gather": "gather_v2", "gather_nd": "gather_nd_v2",
    "get_static_value": "constant_value", "image.crop_and_resize": "crop_and_resize_v2",
    "image.decode_webp": "decode_web_p", "image.draw_bounding_boxes": "draw_bounding_boxes_v2",
    "image.extract_glimpse": "extract_glimpse_v2", "image.extract_patches": "extract_image_patches_v2",
    "image.non_max_suppression_overlaps": "non_max_suppression_with_overlaps", "image.resize": "resize_images_v2",
    "image.resize_with_crop_or_pad": "resize_image_with_crop_or_pad",
    "image.resize_with_pad": "resize_image_with_pad_v2",
    "image.sample_distorted_bounding_box": "sample_distorted_bounding_box_v2", "io.decode_csv": "decode_csv_v2",
    "io.decode_proto": "decode_proto_v2", "io.decode_webp": "decode_web_p", "io.parse_example": "parse_example_v2",
    "io.parse_single_example": "parse_single_example_v2", "io.serialize_many_sparse": "serialize_many_sparse_v2",
    "io.serialize_sparse": "serialize_sparse_v2", "linalg.band_part": "matrix_band_part",
    "linalg.det": "matrix_determinant", "linalg.diag": "matrix_diag", "linalg.diag_part": "matrix_diag_part",
    "linalg.eigh": "self_adjoint_eig", "linalg.eigvalsh": "self_adjoint_eigvals",
    "linalg.expm": "matrix_exponential", "linalg.inv": "matrix_inverse", "linalg.logm": "matrix_logarithm",
    "linalg.lstsq": "matrix_solve_ls", "linalg.norm": "norm_v2", "linalg.set_diag": "matrix_set_diag",
    "linalg.slogdet": "log_matrix_determinant", "linalg.solve": "matrix_solve", "linalg.sqrtm": "matrix_square_root",
    "linalg.tensor_diag": "diag", "linalg.triangular_solve": "matrix_triangular_solve", "linspace": "linspace_nd",
    "map_fn": "map_fn_v2", "math.abs": "abs", "math.argmax": "argmax_v2", "math.argmin": "argmin_v2",
    "math.count_nonzero": "count_nonzero_v2", "math.divide_no_nan": "div_no_nan", "math.floormod": "floor_mod",
    "math.in_top_k": "in_top_k_v2", "math.log_softmax": "log_softmax_v2", "math.mod": "floor_mod",
    "math.negative": "neg", "math.nextafter": "next_after", "math.pow": "pow", "math.round": "round",
    "math.scalar_mul": "scalar_mul_v2", "math.softmax": "softmax_v2", "matrix_square_root": "matrix_square_root",
    "negative": "neg", "nn.avg_pool": "avg_pool_v2",
    "nn.batch_norm_with_global_normalization": "batch_norm_with_global_normalization_v2", "nn.conv1d": "conv1d_v2",
    "nn.conv2d": "conv2d_v2", "nn.conv2d_transpose": "conv2d_transpose_v2", "nn.conv3d": "conv3d_v2",
    "nn.conv3d_transpose": "conv3d_transpose_v2", "nn.convolution": "convolution_v2", "nn.crelu": "crelu_v2",
    "nn.ctc_beam_search_decoder": "ctc_beam_search_decoder_v2", "nn.ctc_loss": "ctc_loss_v3",
    "nn.depth_to_space": "depth_to_space_v2", "nn.depthwise_conv2d": "depthwise_conv2d_v2",
    "nn.depthwise_conv2d_backprop_filter": "depthwise_conv2d_native_backprop_filter",
    "nn.depthwise_conv2d_backprop_input": "depthwise_conv2d_native_backprop_input", "nn.dilation2d": "dilation2d_v2",
    "nn.dropout": "dropout_v2", "nn.embedding_lookup": "embedding_lookup_v2",
    "nn.embedding_lookup_sparse": "embedding_lookup_sparse_v2", "nn.erosion2d": "erosion2d_v2",
    "nn.fractional_avg_pool": "fractional_avg_pool_v2", "nn.fractional_max_pool": "fractional_max_pool_v2",
    "nn.in_top_k": "in_top_k_v2", "nn.local_response_normalization": "lrn", "nn.log_softmax": "log_softmax_v2",
    "nn.lrn": "lrn", "nn.max_pool": "max_pool_v2", "nn.max_pool_with_argmax": "max_pool_with_argmax_v2",
    "nn.moments": "moments_v2", "nn.nce_loss": "nce_loss_v2", "nn.pool": "pool_v2",
    "nn.safe_embedding_lookup_sparse": "safe_embedding_lookup_sparse_v2",
    "nn.sampled_softmax_loss": "sampled_softmax_loss_v2", "nn.separable_conv2d": "separable_conv2d_v2",
    "nn.sigmoid_cross_entropy_with_logits": "sigmoid_cross_entropy_with_logits_v2", "nn.silu": "swish",
    "nn.softmax": "softmax_v2", "nn.softmax_cross_entropy_with_logits": "softmax_cross_entropy_with_logits_v2",
    "nn.space_to_batch": "space_to_batch_v2", "nn.space_to_depth": "space_to_depth_v2",
    "nn.sparse_softmax_cross_entropy_with_logits": "sparse_softmax_cross_entropy_with_logits_v2",
    "nn.sufficient_statistics": "sufficient_statistics_v2", "nn.swish": "swish",
    "nn.weighted_cross_entropy_with_logits": "weighted_cross_entropy_with_logits_v2",
    "nn.weighted_moments": "weighted_moments_v2", "no_gradient": "no_gradient", "norm": "norm_v2",
    "ones_like": "ones_like_v2", "pad": "pad_v2", "pow": "pow", "py_function": "eager_py_func",
    "ragged.range": "range", "random.normal": "random_normal", "random.stateless_normal": "stateless_random_normal",
    "random.stateless_uniform": "stateless_random_uniform", "random.uniform": "random_uniform", "range": "range",
    "realdiv": "real_div", "reverse": "reverse_v2", "reverse_sequence": "reverse_sequence_v2", "round": "round",
    "scalar_mul": "scalar_mul_v2", "scan": "scan_v2", "sets.difference": "set_difference",
    "sets.intersection": "set_intersection", "sets.size": "set_size", "sets.union": "set_union", "shape": "shape_v2",
    "signal.fftnd": "_fftn", "signal.ifftnd": "_ifftn", "signal.irfft": "_irfft", "signal.irfft2d": "_irfft",
    "signal.irfft3d": "_irfft", "signal.irfftnd": "_irfftn", "signal.rfft": "_rfft", "signal.rfft2d": "_rfft",
    "signal.rfft3d": "_rfft", "signal.rfftnd": "_rfftn", "size": "size_v2", "slice": "slice",
    "space_to_batch": "space_to_batch_v2", "sparse.add": "sparse_add_v2", "sparse.bincount": "sparse_bincount",
    "sparse.concat": "sparse_concat_v2", "sparse.cross": "sparse_cross",
    "sparse.cross_hashed": "sparse_cross_hashed", "sparse.expand_dims": "sparse_expand_dims",
    "sparse.eye": "sparse_eye", "sparse.fill_empty_rows": "sparse_fill_empty_rows", "sparse.mask": "sparse_mask",
    "sparse.maximum": "sparse_maximum", "sparse.minimum": "sparse_minimum",
    "sparse.reduce_max": "sparse_reduce_max_v2", "sparse.reduce_sum": "sparse_reduce_sum_v2",
    "sparse.reorder": "sparse_reorder", "sparse.reset_shape": "sparse_reset_shape",
    "sparse.reshape": "sparse_reshape", "sparse.retain": "sparse_retain",
    "sparse.segment_mean": "sparse_segment_mean_v2", "sparse.segment_sqrt_n": "sparse_segment_sqrt_n_v2",
    "sparse.segment_sum": "sparse_segment_sum_v2", "sparse.slice": "sparse_slice",
    "sparse.softmax": "sparse_softmax", "sparse.sparse_dense_matmul": "sparse_tensor_dense_matmul",
    "sparse.split": "sparse_split_v2", "sparse.to_dense": "sparse_tensor_to_dense",
    "sparse.to_indicator": "sparse_to_indicator", "sparse.transpose": "sparse_transpose", "squeeze": "squeeze_v2",
    "strided_slice": "strided_slice", "strings.bytes_split": "string_bytes_split", "strings.join": "string_join",
    "strings.length": "string_length_v2", "strings.lower": "string_lower", "strings.reduce_join": "reduce_join_v2",
    "strings.split": "string_split_v2", "strings.strip": "string_strip", "strings.substr": "substr_v2",
    "strings.to_hash_bucket": "string_to_hash_bucket", "strings.to_hash_bucket_fast": "string_to_hash_bucket_fast",
    "strings.to_hash_bucket_strong": "string_to_hash_bucket_strong", "strings.to_number": "string_to_number",
    "strings.upper": "string_upper", "tensor_scatter_nd_add": "tensor_scatter_add",
    "tensor_scatter_nd_max": "tensor_scatter_max", "tensor_scatter_nd_min": "tensor_scatter_min",
    "tensor_scatter_nd_sub": "tensor_scatter_sub", "transpose": "transpose_v2", "truncatediv": "truncate_div",
    "truncatemod": "truncate_mod", "tuple": "tuple_v2", "where": "where_v2", "while_loop": "while_loop_v2",
    "zeros_like": "zeros_like_v2",
}

#: the few whose __qualname__ is not their __name__ (functions made inside a factory: signal's FFT wrappers)
TF_QUALNAMES: dict[str, str] = {
    "signal.fftnd": "_fftn_wrapper.<locals>._fftn", "signal.ifftnd": "_ifftn_wrapper.<locals>._ifftn",
    "signal.irfft": "_irfft_wrapper.<locals>._irfft", "signal.irfft2d": "_irfft_wrapper.<locals>._irfft",
    "signal.irfft3d": "_irfft_wrapper.<locals>._irfft", "signal.irfftnd": "_irfftn_wrapper.<locals>._irfftn",
    "signal.rfft": "_rfft_wrapper.<locals>._rfft", "signal.rfft2d": "_rfft_wrapper.<locals>._rfft",
    "signal.rfft3d": "_rfft_wrapper.<locals>._rfft", "signal.rfftnd": "_rfftn_wrapper.<locals>._rfftn",
}


def apply(tf: Any) -> None:
    """Give each listed facade function (a wrapper of simdist's op) TF's `__name__` and `__qualname__`."""
    for path, name in TF_NAMES.items():
        obj: Any = tf
        for part in path.split("."):
            obj = getattr(obj, part, None)
        if type(obj) is types.FunctionType and hasattr(obj, "__wrapped__"):
            obj.__name__ = name
            obj.__qualname__ = TF_QUALNAMES.get(path, name)
