"""`keras.layers.Lambda` (keras/src/layers/core/lambda_layer.py): an arbitrary function of the
inputs as a layer; `training` and `mask` are passed when the function names them, `arguments`
always. Without `output_shape`, the output shape comes from running the function on symbolic
inputs."""

from __future__ import annotations

import importlib
import inspect
import types
from typing import Any, Callable

from simdist.keras.keras_tensor import KerasTensor
from simdist.keras.keras_tensor import compute_output_spec as probe_spec
from simdist.keras.layers.layer import Layer
from simdist.keras.safe_mode import in_safe_mode
from simdist.keras.utils.python_utils import func_dump, func_load

__all__ = ["Lambda"]


def _is_shape(x: Any) -> bool:
    return isinstance(x, (tuple, list)) and all(d is None or isinstance(d, int) for d in x)


def _map_shapes(fn: Callable[[Any], Any], shapes: Any) -> Any:
    if _is_shape(shapes):
        return fn(tuple(shapes))
    if isinstance(shapes, dict):
        return {k: _map_shapes(fn, v) for k, v in shapes.items()}
    return type(shapes)(_map_shapes(fn, s) for s in shapes)


def _first_shape(shapes: Any) -> tuple:
    if _is_shape(shapes):
        return tuple(shapes)
    return _first_shape(next(iter(shapes.values())) if isinstance(shapes, dict) else shapes[0])


def _serialize_function(fn: Any) -> dict[str, Any]:
    """Keras's Lambda._serialize_function_to_config: a Python lambda as its marshalled bytecode
    (`__lambda__`: code, defaults, closure), any other function as a named module-level function."""
    if isinstance(fn, types.LambdaType) and fn.__name__ == "<lambda>":
        code, defaults, closure = func_dump(fn)
        return {"class_name": "__lambda__", "config": {"code": code, "defaults": defaults, "closure": closure}}
    if not callable(fn):
        raise ValueError(f"Invalid input type for serialization. Received: {fn} of type {type(fn)}.")
    return {"module": fn.__module__, "class_name": "function", "config": fn.__name__,
            "registered_name": fn.__name__}


_LAMBDA_REFUSED = ("Requested the deserialization of a `Lambda` layer whose `function` is a Python lambda. This "
                   "carries a potential risk of arbitrary code execution and thus it is disallowed by default. If "
                   "you trust the source of the artifact, you can override this error by passing `safe_mode=False` "
                   "to the loading function, or calling `keras.config.enable_unsafe_deserialization().")


def _deserialize_function(config: Any, safe: bool) -> Any:
    if callable(config):
        return config
    if isinstance(config, dict) and config.get("class_name") == "__lambda__":
        if safe:
            raise ValueError(_LAMBDA_REFUSED)
        inner = config["config"]
        return func_load(inner["code"], defaults=inner["defaults"], closure=inner["closure"])
    if isinstance(config, dict) and config.get("class_name") == "function":
        return getattr(importlib.import_module(config["module"]), config["config"])
    raise ValueError(f"Lambda.from_config: cannot rebuild the function from {config!r} (simdist rebuilds Python "
                     "lambdas and named module-level functions)")


class Lambda(Layer):
    """`keras.layers.Lambda(function, output_shape=None, mask=None, arguments=None)`."""

    def __init__(self, function: Callable[..., Any], output_shape: Any = None, mask: Any = None,
                 arguments: dict | None = None, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.arguments = arguments or {}
        self.function = function
        self.supports_masking = mask is not None
        self.mask = mask
        self._output_shape = output_shape
        function_args = inspect.getfullargspec(function).args
        self._fn_expects_training_arg = "training" in function_args
        self._fn_expects_mask_arg = "mask" in function_args

    def compute_output_shape(self, input_shape: Any) -> Any:
        if self._output_shape is None:
            try:
                inputs = _map_shapes(lambda s: KerasTensor(s, dtype=self.compute_dtype), input_shape)
                spec = probe_spec(self.call, inputs)
            except Exception:  # noqa: BLE001  (Keras: any failure of the probe)
                raise NotImplementedError("We could not automatically infer the shape of the Lambda's output. Please "
                                          "specify the `output_shape` argument for this Lambda layer.") from None
            if isinstance(spec, KerasTensor):
                return spec.shape
            from simdist import tf
            return tf.nest.map_structure(lambda t: t.shape, spec)
        if callable(self._output_shape):
            return self._output_shape(input_shape)
        batch_size = _first_shape(input_shape)[0]
        return _map_shapes(lambda s: (batch_size,) + s, self._output_shape)

    # (no compute_output_spec of its own, as Keras 3.15's Lambda: Layer's goes through compute_output_shape, so the
    # outputs are KerasTensors of the layer's compute dtype whatever the function returns (a cast to int32 is float32),
    # and a function the scratch trace refuses is NotImplementedError; TF 2.21 observed, clause
    # keras.reg.scratch-graph-trace, tests/keras/test_scratch_trace63_tf.py)

    def call(self, inputs: Any, mask: Any = None, training: Any = None) -> Any:
        kwargs = dict(self.arguments)
        if self._fn_expects_mask_arg:
            kwargs["mask"] = mask
        if self._fn_expects_training_arg:
            kwargs["training"] = training
        return self.function(inputs, **kwargs)

    def compute_mask(self, inputs: Any, mask: Any = None) -> Any:
        if callable(self.mask):
            return self.mask(inputs, mask)
        return self.mask

    def get_config(self) -> dict[str, Any]:
        config: dict[str, Any] = {"function": _serialize_function(self.function)}
        if self._output_shape is not None:
            config["output_shape"] = (_serialize_function(self._output_shape) if callable(self._output_shape)
                                      else self._output_shape)
        if self.mask is not None:
            config["mask"] = _serialize_function(self.mask) if callable(self.mask) else self.mask
        config["arguments"] = dict(self.arguments)
        return {**super().get_config(), **config}

    @classmethod
    def from_config(cls, config: dict[str, Any], custom_objects: Any = None, safe_mode: Any = None) -> "Lambda":
        # (Keras: safe_mode unset falls back to the ambient SafeModeScope, and an unset scope is safe)
        effective = safe_mode if safe_mode is not None else in_safe_mode()
        safe = effective is not False
        config = dict(config)
        config["function"] = _deserialize_function(config["function"], safe)
        for key in ("output_shape", "mask"):
            if isinstance(config.get(key), dict):
                config[key] = _deserialize_function(config[key], safe)
        return cls(**config)
