"""`tf.nn`: activations, losses, convolutions, pooling, normalization, dropout, embedding lookups
(computed by simdist/runtime/ops/nn.py and the modules it gathers)."""

from types import SimpleNamespace as _NS

from simdist.runtime.ops.nn import (avg_pool, avg_pool2d, batch_normalization, bias_add,  # noqa: F401
                                    compute_average_loss, conv1d, conv2d, convolution, depthwise_conv2d, dropout, elu,
                                    embedding_lookup, gelu, l2_loss, l2_normalize, leaky_relu, log_softmax, max_pool,
                                    max_pool2d, moments, relu, relu6, scale_regularization_loss, selu,
                                    separable_conv2d, sigmoid,
                                    sigmoid_cross_entropy_with_logits, silu, softmax,
                                    softmax_cross_entropy_with_logits, softplus, softsign,
                                    sparse_softmax_cross_entropy_with_logits, stateless_dropout as _stateless_dropout,
                                    general_dropout as _general_dropout,
                                    swish, tanh, weighted_cross_entropy_with_logits)

experimental = _NS(stateless_dropout=_stateless_dropout, general_dropout=_general_dropout)
from simdist.runtime.ops.sorting import top_k  # noqa: F401,E402  (tf.nn.top_k is tf.math.top_k)
from simdist.runtime.ops.counting import in_top_k  # noqa: F401,E402  (tf.nn.in_top_k is tf.math.in_top_k)
from simdist.runtime.ops.nn_more import (avg_pool1d, crelu, local_response_normalization, log_poisson_loss,  # noqa: F401,E402
                                        lrn, max_pool1d, normalize_moments, sufficient_statistics, weighted_moments)
from simdist.runtime.ops.math_more import zero_fraction  # noqa: F401,E402  (tf.nn.zero_fraction is tf.math's)
from simdist.runtime.ops.space_batch import depth_to_space, space_to_batch, space_to_depth  # noqa: F401,E402
from simdist.runtime.ops.conv_transpose import atrous_conv2d, conv1d_transpose, conv2d_transpose, conv_transpose  # noqa: F401,E402,E501
from simdist.runtime.ops.misc_more import batch_norm_with_global_normalization  # noqa: F401,E402
from simdist.runtime.ops.math_more import approx_max_k, approx_min_k  # noqa: F401,E402  (tf.nn's are tf.math's)
from simdist.runtime.ops.conv_transpose import (depthwise_conv2d_backprop_filter,  # noqa: F401,E402
                                                depthwise_conv2d_backprop_input)
from simdist.runtime.ops.conv3d import conv3d, conv3d_transpose  # noqa: F401,E402
from simdist.runtime.ops.pooling3d import avg_pool3d, max_pool3d  # noqa: F401,E402
from simdist.runtime.ops.nn_composites import (atrous_conv2d_transpose, collapse_repeated, pool,  # noqa: F401,E402
                                              with_space_to_batch)
from simdist.runtime.ops.morphology import dilation2d, erosion2d, max_pool_with_argmax  # noqa: F401,E402
from simdist.runtime.ops.isotonic import isotonic_regression  # noqa: F401,E402
from simdist.runtime.ops.candidate_sampling import compute_accidental_hits  # noqa: F401,E402
from simdist.runtime.ops.candidate_samplers import (all_candidate_sampler, fixed_unigram_candidate_sampler,  # noqa: F401,E402
                                                    learned_unigram_candidate_sampler)
from simdist.runtime.ops.sampled_losses import nce_loss, sampled_softmax_loss  # noqa: F401,E402
from simdist.runtime.ops.ctc import ctc_loss  # noqa: F401,E402
from simdist.runtime.ops.fractional_pool import fractional_avg_pool, fractional_max_pool  # noqa: F401,E402
from simdist.runtime.ops.ctc_decode import (ctc_beam_search_decoder, ctc_greedy_decoder,  # noqa: F401,E402
                                           ctc_unique_labels)
from simdist.runtime.ops.embedding_sparse import embedding_lookup_sparse, safe_embedding_lookup_sparse  # noqa: F401,E402
from simdist.runtime.ops import sparse_api as _sparse_api  # noqa: E402
tanh = _sparse_api.sparse_unary(tanh)

from simdist.runtime.ops import ragged_dispatch as _ragged_dispatch  # noqa: E402
_ragged_dispatch.install(globals(), "nn.")   # (RaggedTensor arguments: TF's ragged dispatch, clause ops.ragged)

from simdist.runtime.ops import ragged_rows as _ragged_rows  # noqa: E402
_ragged_rows.install(globals(), "nn")   # (row-wise ops of RaggedTensors: clause ops.ragged)
