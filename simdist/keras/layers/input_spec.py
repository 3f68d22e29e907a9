"""`keras.layers.InputSpec` and Keras's input compatibility check (keras/src/layers/input_spec.py),
with Keras's error messages: a layer called on an input of the wrong rank, dtype or size raises
ValueError naming the layer, the input and the rule."""

from __future__ import annotations

from typing import Any

from simdist.keras import dtype_policies as dtypes
from simdist.keras.keras_tensor import flatten

__all__ = ["InputSpec", "assert_input_compatibility"]


class InputSpec:
    """The rank, dtype and shape a layer's input must have (None entries match anything)."""

    def __init__(self, dtype: Any = None, shape: Any = None, ndim: int | None = None, max_ndim: int | None = None,
                 min_ndim: int | None = None, axes: Any = None, allow_last_axis_squeeze: bool = False,
                 name: str | None = None, optional: bool = False) -> None:
        from simdist.keras.variables import standardize_shape
        self.dtype = dtypes.standardize_dtype(dtype) if dtype is not None else None
        if shape is not None:
            self.shape: Any = standardize_shape(shape)
            self.ndim = len(shape)
        else:
            self.ndim = ndim
            self.shape = None
        self.max_ndim = max_ndim
        self.min_ndim = min_ndim
        self.name = name
        self.optional = optional
        self.allow_last_axis_squeeze = allow_last_axis_squeeze
        try:
            axes = axes or {}
            self.axes = {int(k): axes[k] for k in axes}
        except (ValueError, TypeError):
            raise TypeError(f"Argument `axes` must be a dict with integer keys. Received: axes={axes}") from None
        if self.axes and (self.ndim is not None or self.max_ndim is not None):
            max_dim = (self.ndim if self.ndim else self.max_ndim) - 1   # type: ignore[operator]
            max_axis = max(self.axes)
            if max_axis > max_dim:
                raise ValueError(f"Axis {max_axis} is greater than the maximum allowed value: {max_dim}")

    def __repr__(self) -> str:
        spec = [f"dtype={self.dtype}" if self.dtype else "", f"shape={self.shape}" if self.shape else "",
                f"ndim={self.ndim}" if self.ndim else "", f"max_ndim={self.max_ndim}" if self.max_ndim else "",
                f"min_ndim={self.min_ndim}" if self.min_ndim else "", f"axes={self.axes}" if self.axes else ""]
        return f"InputSpec({', '.join(x for x in spec if x)})"

    def get_config(self) -> dict[str, Any]:
        return {"dtype": self.dtype, "shape": self.shape, "ndim": self.ndim, "max_ndim": self.max_ndim,
                "min_ndim": self.min_ndim, "axes": self.axes, "optional": self.optional}


def _shape_of(x: Any) -> tuple:
    from simdist.keras.variables import standardize_shape
    return standardize_shape(x.shape)


def assert_input_compatibility(input_spec: Any, inputs: Any, layer_name: str) -> None:
    """Raise ValueError, with Keras's message, if `inputs` break `input_spec`."""
    if not input_spec:
        return
    input_spec = flatten(input_spec)
    if isinstance(inputs, dict):
        names = [spec.name for spec in input_spec]
        if all(names):
            for name in names:
                if name not in inputs:
                    raise ValueError(f'Missing data for input "{name}". You passed a data dictionary with keys '
                                     f"{list(inputs.keys())}. Expected the following keys: {names}")
            inputs = [inputs[n] for n in names]
    inputs = flatten(inputs)
    if len(inputs) != len(input_spec):
        # (Keras 3.15: specs that all have names get the message that asks for a dict)
        spec_names = [spec.name for spec in input_spec if spec is not None]
        if len(spec_names) == len(input_spec) and all(spec_names):
            raise ValueError(f'Layer "{layer_name}" expects {len(input_spec)} named input(s) with keys {spec_names}, '
                             f"but it received {len(inputs)} input tensors. Pass inputs as a dict, e.g. `layer({{"
                             + ", ".join(f"'{n}': ..." for n in spec_names) + "})`.")
        raise ValueError(f'Layer "{layer_name}" expects {len(input_spec)} input(s), but it received {len(inputs)} '
                         f"input tensors. Inputs received: {inputs}")
    for index, (x, spec) in enumerate(zip(inputs, input_spec)):
        if spec is None or (x is None and spec.optional):
            continue
        if not hasattr(x, "shape"):
            raise ValueError(f"Inputs to a layer should be tensors. Got '{x}' (of type {type(x)}) as input for layer "
                             f"'{layer_name}'.")
        shape = _shape_of(x)
        ndim = len(shape)
        where = f"Input {index} with name '{spec.name}' of layer '{layer_name}' is incompatible with the layer: "
        if spec.ndim is not None and not spec.allow_last_axis_squeeze and ndim != spec.ndim:
            raise ValueError(f"{where}expected ndim={spec.ndim}, found ndim={ndim}. Full shape received: {shape}")
        if spec.max_ndim is not None and ndim > spec.max_ndim:
            raise ValueError(f"{where}expected max_ndim={spec.max_ndim}, found ndim={ndim}")
        if spec.min_ndim is not None and ndim < spec.min_ndim:
            raise ValueError(f"{where}expected min_ndim={spec.min_ndim}, found ndim={ndim}. Full shape received: "
                             f"{shape}")
        if spec.dtype is not None:
            dtype = dtypes.standardize_dtype(x.dtype)
            if dtype != spec.dtype:
                raise ValueError(f"{where}expected dtype={spec.dtype}, found dtype={dtype}")
        for axis, value in (spec.axes or {}).items():
            if value is not None and shape[axis] not in {value, None}:
                raise ValueError(f"{where}expected axis {axis} of input shape to have value {value}, but received "
                                 f"input with shape {shape}")
        if spec.shape is not None:
            spec_shape = spec.shape
            if spec.allow_last_axis_squeeze:
                if shape and shape[-1] == 1:
                    shape = shape[:-1]
                if spec_shape and spec_shape[-1] == 1:
                    spec_shape = spec_shape[:-1]
            for spec_dim, dim in zip(spec_shape, shape):
                if spec_dim is not None and dim is not None and spec_dim != dim:
                    raise ValueError(f"{where}expected shape={spec.shape}, found shape={shape}")
