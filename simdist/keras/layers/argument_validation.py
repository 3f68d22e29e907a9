"""Argument checks the convolution, pooling and normalization layers share, with Keras 3.15's
messages (keras/src/utils/argument_validation.py, backend/config.py, ops/operation_utils.py)."""

from __future__ import annotations

from typing import Any

import numpy as np

__all__ = ["standardize_tuple", "standardize_padding", "standardize_data_format", "compute_conv_output_shape",
           "compute_pooling_output_shape"]



def standardize_tuple(value: Any, n: int, name: str, allow_zero: bool = False) -> tuple:
    """An int or an iterable of n ints -> a tuple of n ints, each > 0 (>= 0 with allow_zero)."""
    error_msg = f"The `{name}` argument must be a tuple of {n} integers. Received {name}={value}"
    if isinstance(value, int):
        value_tuple = (value,) * n
    else:
        try:
            value_tuple = tuple(value)
        except TypeError:
            raise ValueError(error_msg) from None
        if len(value_tuple) != n:
            raise ValueError(error_msg)
        for single_value in value_tuple:
            try:
                int(single_value)
            except (ValueError, TypeError):
                error_msg += f"including element {single_value} of type {type(single_value)}"
                raise ValueError(error_msg) from None
    if allow_zero:
        bad = {v for v in value_tuple if v < 0}
        req = ">= 0"
    else:
        bad = {v for v in value_tuple if v <= 0}
        req = "> 0"
    if bad:
        raise ValueError(error_msg + f", including values {bad} that do not satisfy `value {req}`")
    return value_tuple


def standardize_padding(value: Any, allow_causal: bool = False) -> Any:
    """"valid" / "same" (any case; "causal" for 1-D) -> lower case; lists pass through."""
    if isinstance(value, (list, tuple)):
        return value
    padding = value.lower()
    allowed = ("causal", "same", "valid") if allow_causal else ("same", "valid")
    if padding not in allowed:
        # (Keras prints a Python set, whose order varies with the process's hash seed; sorted here)
        shown = "{" + ", ".join(repr(a) for a in allowed) + "}"
        raise ValueError(f"The `padding` argument must be a list/tuple or one of {shown}. Received: {padding}")
    return padding


def standardize_data_format(data_format: Any) -> str:
    """None -> the default image data format; "channels_first" / "channels_last" in any case."""
    if data_format is None:
        from simdist.keras import config
        return config.image_data_format()
    data_format = str(data_format).lower()
    if data_format not in {"channels_first", "channels_last"}:
        raise ValueError("The `data_format` argument must be one of {'channels_first', 'channels_last'}. "
                         f"Received: data_format={data_format}")
    return data_format


def _spatial(input_shape: Any, data_format: str) -> tuple[np.ndarray, list[int]]:
    """The spatial dims as an array (unknown ones -1) and the positions of the unknown ones."""
    dims = list(input_shape[1:-1] if data_format == "channels_last" else input_shape[2:])
    none_dims = [i for i, d in enumerate(dims) if d is None]
    return np.array([-1 if d is None else d for d in dims]), none_dims


def compute_conv_output_shape(input_shape: Any, filters: int, kernel_size: tuple, strides: Any = 1,
                              padding: str = "valid", data_format: str = "channels_last",
                              dilation_rate: Any = 1) -> tuple:
    """Keras's output shape of a convolution; a valid padding that leaves no output raises."""
    input_shape = tuple(input_shape)
    if data_format == "channels_last":
        kernel_shape = tuple(kernel_size) + (input_shape[-1], filters)
    else:
        kernel_shape = tuple(kernel_size) + (input_shape[1], filters)
    if len(kernel_shape) != len(input_shape):
        raise ValueError("Kernel shape must have the same length as input, but received kernel of shape "
                         f"{kernel_shape} and input of shape {input_shape}.")
    spatial, none_dims = _spatial(input_shape, data_format)
    if isinstance(dilation_rate, int):
        dilation_rate = (dilation_rate,) * len(spatial)
    if isinstance(strides, int):
        strides = (strides,) * len(spatial)
    if len(dilation_rate) != len(spatial):
        raise ValueError("Dilation must be None, scalar or tuple/list of length of inputs' spatial shape, but "
                         f"received `dilation_rate={dilation_rate}` and input of shape {input_shape}.")
    kernel_spatial = np.array(kernel_shape[:-2])
    dilation = np.array(dilation_rate)
    if padding == "valid":
        out = np.floor((spatial - dilation * (kernel_spatial - 1) - 1) / strides) + 1
        for i in range(len(out)):
            if i not in none_dims and out[i] <= 0:
                raise ValueError("Computed output size would be zero or negative. Received "
                                 f"`inputs shape={input_shape}`, `kernel shape={kernel_shape}`, "
                                 f"`dilation_rate={dilation}`, `strides={strides}`, `padding={padding}`.")
    elif padding in ("same", "causal"):
        out = np.floor((spatial - 1) / strides) + 1
    else:
        raise ValueError(f"`padding` must be either `'valid'` or `'same'`. Received {padding}.")
    out_spatial = [int(i) for i in out]
    for i in none_dims:
        out_spatial[i] = None  # type: ignore[call-overload]
    if data_format == "channels_last":
        return (input_shape[0],) + tuple(out_spatial) + (kernel_shape[-1],)
    return (input_shape[0], kernel_shape[-1]) + tuple(out_spatial)


def compute_pooling_output_shape(input_shape: Any, pool_size: tuple, strides: Any, padding: str = "valid",
                                 data_format: str = "channels_last") -> tuple:
    """Keras's output shape of a pooling (padding compared as given: "VALID" is refused here,
    though the op itself accepts it, as in Keras)."""
    strides = pool_size if strides is None else strides
    input_shape = tuple(input_shape)
    spatial, none_dims = _spatial(input_shape, data_format)
    pool = np.array(pool_size)
    if padding == "valid":
        out = np.floor((spatial - pool) / strides) + 1
        for i in range(len(out)):
            if i not in none_dims and out[i] <= 0:
                raise ValueError("Computed output size would be zero or negative. Received: "
                                 f"`inputs.shape={np.array(input_shape)}`, `pool_size={pool}`, "
                                 f"`strides={strides}`, `padding={padding}`.")
    elif padding == "same":
        out = np.floor((spatial - 1) / strides) + 1
    else:
        raise ValueError(f"Argument `padding` must be either 'valid' or 'same'. Received: padding={padding}")
    out_spatial = [int(i) for i in out]
    for i in none_dims:
        out_spatial[i] = None  # type: ignore[call-overload]
    if data_format == "channels_last":
        return (input_shape[0],) + tuple(out_spatial) + (input_shape[-1],)
    return (input_shape[0], input_shape[1]) + tuple(out_spatial)


def validate_string_arg(value: Any, allowable_strings: tuple, caller_name: str, arg_name: str,
                        allow_none: bool = False, allow_callables: bool = False) -> None:
    """Keras's validate_string_arg: `value` must be one of `allowable_strings` (or None / a callable
    when allowed), else ValueError naming the argument and the caller."""
    if allow_none and value is None:
        return
    if allow_callables and callable(value):
        return
    if isinstance(value, str) and value in allowable_strings:
        return
    raise ValueError(f"Unknown value for `{arg_name}` argument of {caller_name}. Allowed values are: "
                     f"{allowable_strings}. Received: {arg_name}={value}")
