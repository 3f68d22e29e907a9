"""Tensor ops: one registry (registry.py), one dispatch (dispatch.py), and the op functions of
the facade grouped as TF groups them (math, unary, array, linalg, random), each op's gradient
beside it. Importing this package installs Tensor's operators."""

from __future__ import annotations

from simdist.runtime.ops import registry, dispatch  # noqa: F401
from simdist.runtime.ops.args import shape_arg as _shape_arg, t as _t  # noqa: F401
from simdist.runtime.ops.unary import (abs_, ceil, exp, floor, is_finite, is_inf, is_nan, log, log1p,  # noqa: F401
                                       negative, reciprocal, round_, rsqrt, sign, sqrt, square)
from simdist.runtime.ops.special import (asinh, atan, cos, cosh, digamma, erf, expm1, lgamma,  # noqa: F401
                                        log_sigmoid, polygamma, sin, sinh, tan)
from simdist.runtime.ops.math import (add, add_n, cast, divide, divide_no_nan, equal, floordiv, floormod,  # noqa: F401
                                      greater, greater_equal, less, less_equal, logical_and, logical_not,
                                      logical_or, logical_xor, maximum, minimum, multiply, not_equal, pow_,
                                      reduce_max, reduce_mean, reduce_min, reduce_sum, squared_difference, subtract,
                                      truediv, where)
from simdist.runtime.ops.reductions import (argmax, argmin, cumprod, cumsum, reduce_all, reduce_any,  # noqa: F401
                                            reduce_logsumexp, reduce_prod, reduce_std, reduce_variance,
                                            cumulative_logsumexp, reduce_euclidean_norm)
from simdist.runtime.ops.array import (broadcast_to, concat, concat_arrays, constant, embedding_lookup,  # noqa: F401
                                       expand_dims, fill, gather, identity, ones, ones_like, range_, rank, reshape,
                                       shape, size, split, squeeze, stack, stop_gradient, strided_slice, transpose,
                                       unstack, zeros, zeros_like)
from simdist.runtime.ops.linalg import matmul, matrix_transpose, matvec, norm, tensordot, trace  # noqa: F401
from simdist.runtime.ops.einsum import einsum  # noqa: F401
from simdist.runtime.ops.scatter import (gather_nd, scatter_nd, segment_sum, tensor_scatter_nd_add,  # noqa: F401
                                         tensor_scatter_nd_sub, tensor_scatter_nd_update, unsorted_segment_sum)
from simdist.runtime.ops.segments import (segment_max, segment_mean, segment_min, segment_prod,  # noqa: F401
                                          unsorted_segment_max, unsorted_segment_mean, unsorted_segment_min,
                                          unsorted_segment_prod, unsorted_segment_sqrt_n)
from simdist.runtime.ops.sorting import argsort, sort, top_k  # noqa: F401
from simdist.runtime.ops.slicing import pad, reverse, slice_, strided_slice_fn, tile  # noqa: F401
from simdist.runtime.ops.clip import clip_by_global_norm, clip_by_norm, clip_by_value, global_norm  # noqa: F401
from simdist.runtime.ops.generators import eye, linspace, meshgrid, one_hot, sequence_mask  # noqa: F401
from simdist.runtime.ops import random  # noqa: F401
from simdist.runtime.ops import bitwise  # noqa: F401  (installs &, |, ^, ~ on tensors)
from simdist.runtime.ops import to_bool as _to_bool  # noqa: F401  (registers ToBool)
from simdist.runtime.ops import sqrt_grads as _sqrt_grads  # noqa: F401  (registers SqrtGrad and RsqrtGrad, which
#   unary.py's gradients import lazily: registered_ops() must not depend on whether a gradient ran first)
from simdist.runtime.ops import cholesky_grad as _cholesky_grad  # noqa: F401  (registers CholeskyGrad)
from simdist.runtime.ops import lstm_block as _lstm_block  # noqa: F401  (registers BlockLSTM & co.)
from simdist.runtime.ops import gru_block as _gru_block  # noqa: F401  (registers GRUBlockCell & co.)
from simdist.runtime.ops import audio_features as _audio_features  # noqa: F401  (registers AudioSpectrogram, Mfcc)
from simdist.runtime.ops import fact as _fact  # noqa: F401  (registers Fact)
from simdist.runtime.ops import sharded_names as _sharded_names  # noqa: F401  (registers ShardedFilename, ShardedFilespec)
from simdist.runtime.ops import sparse_serialize as _sparse_serialize  # noqa: F401  (registers SerializeSparse & co.)
from simdist.runtime.ops import sparse_cross_hashed as _sparse_cross_hashed  # noqa: F401  (registers SparseCrossHashed)
from simdist.runtime.ops import decode_json_example as _decode_json_example  # noqa: F401  (registers DecodeJSONExample)
from simdist.runtime.ops import summary_protos as _summary_protos  # noqa: F401  (registers ScalarSummary & co.)
from simdist.runtime.ops import debug_kernels as _debug_kernels  # noqa: F401  (registers DebugIdentity & co.)
from simdist.runtime.ops import sdca_fprint as _sdca_fprint  # noqa: F401  (registers SdcaFprint)
from simdist.runtime.ops import jpeg_variable_quality as _jpeg_variable_quality  # noqa: F401  (registers EncodeJpegVariableQuality)
from simdist.runtime.ops import summary_audio as _summary_audio  # noqa: F401  (registers AudioSummaryV2)
from simdist.runtime.ops import summary_image as _summary_image  # noqa: F401  (registers ImageSummary)
from simdist.runtime.ops import clustering_ops as _clustering_ops  # noqa: F401  (registers NearestNeighbors & co.)
from simdist.runtime.ops import vocab_remapping as _vocab_remapping  # noqa: F401  (registers GenerateVocabRemapping)
from simdist.runtime.ops import fused_pad_conv as _fused_pad_conv  # noqa: F401  (registers FusedPadConv2D & co.)
from simdist.runtime.ops import sparse_bincount as _sparse_bincount  # noqa: F401  (registers SparseBincount)
from simdist.runtime.ops import onednn_swish as _onednn_swish  # noqa: F401  (registers _MklSwish, the remapper's)
from simdist.runtime.ops import onednn_fused_activation as _onednn_fused_activation  # noqa: F401
from simdist.runtime.ops import onednn_conv_bias as _onednn_conv_bias  # noqa: F401  (registers _OneDnnConvBiasGrad)
from simdist.runtime.tensor import TensorShape, convert_to_tensor  # noqa: F401
from simdist.runtime.ops import grappler as _grappler

_grappler.install()   # Grappler's rewrites, asked while a tf.function call is recorded
