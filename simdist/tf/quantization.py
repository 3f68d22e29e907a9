"""`tf.quantization`: fake quantization (simdist/runtime/ops/fake_quant.py; clause ops.fake-quant) and
simulated quantization of float tensors (simdist/runtime/ops/quantize_dequantize.py; clause
ops.quantize-dequantize); TF 2.21's quantize and dequantize, which give and take TF's quantized dtypes
(qint8, quint8, qint16, quint16, qint32: QuantizeV2 and Dequantize, simdist/runtime/ops/quantize_ops.py;
clause ops.quantize-dequantize)."""

from typing import Any as _Any

from simdist.runtime.ops import quantize_dequantize as _quantize_dequantize  # noqa: F401 - registers the ops
from simdist.runtime.ops import quantize_ops as _quantize_ops  # noqa: F401 - registers QuantizeV2, Dequantize

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


def _attr_choice(op: str, attr: str, value: _Any, allowed: tuple) -> None:
    """A string attr outside its OpDef's list: TF's InvalidArgumentError, the list quoted."""
    from simdist.runtime import errors
    if value not in allowed:
        raise errors.InvalidArgumentError(None, None, f"Value for attr '{attr}' of \"{value}\" is not in the list of "
                                          f"allowed values: {', '.join(chr(34) + a + chr(34) for a in allowed)} "
                                          f"[Op:{op}]")


def _float_input(v: _Any) -> _Any:
    """An input of the op's float type: a Tensor as it is (its dtype checked by the op), anything else
    converted to float32 as the generated wrapper converts it."""
    from simdist.runtime import dtypes
    from simdist.runtime.tensor import Tensor, convert_to_tensor
    return v if isinstance(v, Tensor) else convert_to_tensor(v, dtypes.float32)


def quantize(input: _Any, min_range: _Any, max_range: _Any, T: _Any, mode: str = "MIN_COMBINED",  # noqa: A002,N803
             round_mode: str = "HALF_AWAY_FROM_ZERO", name: _Any = None, narrow_range: bool = False, axis: _Any = None,
             ensure_minimum_range: float = 0.01) -> _Any:
    """`tf.quantization.quantize`: QuantizeV2, a namedtuple (output, output_min, output_max)."""
    from simdist.runtime import dtypes, errors
    from simdist.runtime.ops import dispatch
    from simdist.runtime.ops.args import tf_name
    from simdist.runtime.ops.quantize_ops import QUANTIZE_V2
    from simdist.runtime.tensor import convert_to_tensor
    t = dtypes.as_dtype(T)
    if not t.is_quantized:
        raise errors.InvalidArgumentError(None, None, f"Value for attr 'T' of {tf_name(t)} is not in the list of allowed "
                                          "values: qint8, quint8, qint32, qint16, quint16 [Op:QuantizeV2]")
    _attr_choice("QuantizeV2", "mode", mode, ("MIN_COMBINED", "MIN_FIRST", "SCALED"))
    _attr_choice("QuantizeV2", "round_mode", round_mode, ("HALF_AWAY_FROM_ZERO", "HALF_TO_EVEN"))
    axis_ = _axis(input, axis)   # (of the argument as given: a NumPy array's shape is a tuple, AttributeError)
    x = convert_to_tensor(input, dtypes.float32) if not hasattr(input, "dtype") else _float_input(input)
    out = dispatch.execute(QUANTIZE_V2, (x, _float_input(min_range), _float_input(max_range)), dict(
        T=t, mode=mode, round_mode=round_mode, narrow_range=bool(narrow_range), axis=axis_,
        ensure_minimum_range=float(ensure_minimum_range)))
    return _QuantizeV2(*out)


def dequantize(input: _Any, min_range: _Any, max_range: _Any, mode: str = "MIN_COMBINED", name: _Any = None,  # noqa: A002
               axis: _Any = None, narrow_range: bool = False, dtype: _Any = None) -> _Any:
    """`tf.quantization.dequantize`: Dequantize, to float32 (or bfloat16 in MIN_COMBINED mode)."""
    from simdist.runtime import dtypes
    from simdist.runtime.ops import dispatch
    from simdist.runtime.ops.quantize_ops import DEQUANTIZE
    from simdist.runtime.tensor import convert_to_tensor
    _attr_choice("Dequantize", "mode", mode, ("MIN_COMBINED", "MIN_FIRST", "SCALED"))
    axis_ = _axis(input, axis)
    q = convert_to_tensor(input)
    return dispatch.execute(DEQUANTIZE, (q, _float_input(min_range), _float_input(max_range)), dict(
        mode=mode, narrow_range=bool(narrow_range), axis=axis_,
        dtype=dtypes.float32 if dtype is None else dtypes.as_dtype(dtype)))


def _namedtuple() -> _Any:
    import collections
    return collections.namedtuple("QuantizeV2", ["output", "output_min", "output_max"])


_QuantizeV2 = _namedtuple()


_QuantizedConcat = __import__("collections").namedtuple("QuantizedConcat", ["output", "output_min", "output_max"])


def quantized_concat(concat_dim: _Any, values: _Any, input_mins: _Any, input_maxes: _Any, name: _Any = None) -> _Any:
    """`tf.quantization.quantized_concat` (names44): QuantizedConcat, transcribed from TF 2.21's
    quantized_concat_op.cc over quantization_utils.h (runtime/ops/quantize_ops.py `quantized_concat`): the output
    range is [min(0, min of mins), max of maxes] (symmetric for qint32), each input requantized into it unless its
    range is that range already; CPU kernels for quint8 and qint32 only."""
    from simdist.runtime import dtypes, errors
    from simdist.runtime.ops import args
    from simdist.runtime.ops.quantize_ops import quantized_concat as _kernel
    from simdist.runtime.tensor import Tensor, convert_to_tensor
    op = "QuantizedConcat"
    values = list(values)
    mins, maxes = list(input_mins), list(input_maxes)
    n = len(values)
    if n < 2:
        raise errors.InvalidArgumentError(None, None, f"Value for attr 'N' of {n} must be at least minimum 2 [Op:{op}]")
    ts = [v if isinstance(v, Tensor) else convert_to_tensor(v) for v in values]
    t = ts[0].dtype
    if len(mins) != n or len(maxes) != n:
        expected = ", ".join(["int32"] + [args.tf_name(t)] * n + ["float"] * (2 * n))
        raise errors.InvalidArgumentError(None, None, f"NodeDef expected inputs '{expected}' do not match "
                                          f"{1 + n + len(mins) + len(maxes)} inputs specified; Op<name={op}; signature="
                                          "concat_dim:int32, values:N*T, input_mins:N*float, input_maxes:N*float -> "
                                          "output:T, output_min:float, output_max:float; attr=N:int,min=2; "
                                          f"attr=T:type> [Op:{op}]")
    for i, x in enumerate(ts[1:], start=1):
        if x.dtype != t:
            raise errors.InvalidArgumentError(None, None, f"cannot compute {op} as input #{1 + i}(zero-based) was "
                                              f"expected to be a {args.tf_name(t)} tensor but is a "
                                              f"{args.tf_name(x.dtype)} tensor [Op:{op}]")
    if t.name not in ("quint8", "qint32"):
        raise errors.NotFoundError(None, None, f"Could not find device for node: {{{{node {op}}}}} = {op}[N={n}, "
                                   f"T=DT_{t.name.upper() if t.name != 'float32' else 'FLOAT'}] [Op:{op}]")
    dim = convert_to_tensor(concat_dim, dtypes.int32)
    lo = [convert_to_tensor(m, dtypes.float32) for m in mins]
    hi = [convert_to_tensor(m, dtypes.float32) for m in maxes]
    out, out_min, out_max = _kernel(dim.numpy(), [x.numpy() for x in ts], [m.numpy() for m in lo],
                                    [m.numpy() for m in hi], t)
    return _QuantizedConcat(Tensor(out, t), Tensor(out_min, dtypes.float32), Tensor(out_max, dtypes.float32))
