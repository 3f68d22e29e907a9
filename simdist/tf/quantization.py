"""`tf.quantization`: fake quantization (simdist/runtime/ops/fake_quant.py; clause ops.fake-quant) and
simulated quantization of float tensors (simdist/runtime/ops/quantize_dequantize.py; clause
ops.quantize-dequantize). TF 2.21's quantize, dequantize and quantized_concat, which take and give
TF's quantized dtypes (qint8, quint8, ...), are not computed by simdist yet (AttributeError)."""

from typing import Any as _Any

from simdist.runtime.ops import quantize_dequantize as _quantize_dequantize  # noqa: F401 - registers the ops

from simdist.runtime.ops.fake_quant import (fake_quant_with_min_max_args,  # noqa: F401
                                            fake_quant_with_min_max_args_gradient, fake_quant_with_min_max_vars,
                                            fake_quant_with_min_max_vars_gradient,
                                            fake_quant_with_min_max_vars_per_channel,
                                            fake_quant_with_min_max_vars_per_channel_gradient)


def _axis(input: _Any, axis: _Any) -> _Any:  # noqa: A002
    """array_ops.py's axis rule: None is -1 (one range), a negative axis counts from the input's rank."""
    if axis is None:
        return -1
    if axis < 0:
        if input.shape.ndims is None:
            raise ValueError("input should have known rank to use negative axis.")
        axis %= input.shape.ndims
    return axis


def quantize_and_dequantize(input: _Any, input_min: _Any, input_max: _Any, signed_input: bool = True,  # noqa: A002
                            num_bits: int = 8, range_given: bool = False, round_mode: str = "HALF_TO_EVEN",
                            name: _Any = None, narrow_range: bool = False, axis: _Any = None) -> _Any:
    """`tf.quantization.quantize_and_dequantize` (deprecated in TF): QuantizeAndDequantizeV2, whose
    gradient passes straight through."""
    from simdist.runtime.ops import raw_ops
    return raw_ops.call("QuantizeAndDequantizeV2", dict(
        input=input, input_min=input_min, input_max=input_max, signed_input=signed_input, num_bits=num_bits,
        range_given=range_given, round_mode=round_mode, narrow_range=narrow_range, axis=_axis(input, axis),
        name=name))


def quantize_and_dequantize_v2(input: _Any, input_min: _Any, input_max: _Any, signed_input: bool = True,  # noqa: A002
                               num_bits: int = 8, range_given: bool = False, round_mode: str = "HALF_TO_EVEN",
                               name: _Any = None, narrow_range: bool = False, axis: _Any = None) -> _Any:
    """`tf.quantization.quantize_and_dequantize_v2`: QuantizeAndDequantizeV4, whose gradient is zero
    outside [input_min, input_max]."""
    from simdist.runtime.ops import raw_ops
    return raw_ops.call("QuantizeAndDequantizeV4", dict(
        input=input, input_min=input_min, input_max=input_max, signed_input=signed_input, num_bits=num_bits,
        range_given=range_given, round_mode=round_mode, narrow_range=narrow_range, axis=_axis(input, axis),
        name=name))
