"""`tf.quantization`: fake quantization (simdist/runtime/ops/fake_quant.py; clause ops.fake-quant).
TF 2.21's quantize, dequantize, quantize_and_dequantize(_v2) and quantized_concat are not computed
by simdist yet (AttributeError)."""

from simdist.runtime.ops.fake_quant import (fake_quant_with_min_max_args,  # noqa: F401
                                            fake_quant_with_min_max_args_gradient, fake_quant_with_min_max_vars,
                                            fake_quant_with_min_max_vars_gradient,
                                            fake_quant_with_min_max_vars_per_channel,
                                            fake_quant_with_min_max_vars_per_channel_gradient)
