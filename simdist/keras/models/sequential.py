"""`keras.Sequential` (keras/src/models/sequential.py): a stack of layers, each called on the
previous one's output.

Built as soon as its input shape is known: from an `Input` first layer (or a first layer's
`input_shape=`), `build(input_shape)`, or the first call (then from that input's shape, batch
size included, as Keras does). Building prepends an InputLayer, calls the layers on its
KerasTensor in the model's name scope ("sequential/dense/kernel") and keeps the functional
model they form (named "functional", taking that name's next uid as Keras's does). Layers
that cannot run on symbolic inputs leave the model to build eagerly on its first call.
"""

from __future__ import annotations

import inspect
from typing import Any

from simdist import tf
from simdist.keras.layers.core import InputLayer
from simdist.keras.layers.layer import Layer
from simdist.keras.models.model import Model
from simdist.keras.variables import standardize_shape

__all__ = ["Sequential"]


class Sequential(Model):
    """`keras.Sequential(layers=None, trainable=True, name=None)`."""

    def __new__(cls, *args: Any, **kwargs: Any) -> "Sequential":
        return Layer.__new__(cls)   # type: ignore[return-value]

    def __init__(self, layers: Any = None, trainable: bool = True, name: str | None = None) -> None:
        self._init_model(trainable=trainable, name=name)
        self._functional: Any = None
        self._layers = []
        if layers:
            for layer in layers:
                self.add(layer, rebuild=False)
            self._maybe_rebuild()

    def add(self, layer: Any, rebuild: bool = True) -> None:
        """Append a layer (an `Input` tensor adds its InputLayer); rebuilds when the input shape is known."""
        if not self._layers and getattr(layer, "_input_shape_arg", None) is not None:
            self.add(InputLayer(shape=layer._input_shape_arg))
        if hasattr(layer, "_keras_history"):
            origin = layer._keras_history[0]
            if isinstance(origin, InputLayer):
                layer = origin
        if not isinstance(layer, Layer):
            raise ValueError(f"Only instances of `keras.Layer` can be added to a Sequential model. Received: {layer} "
                             f"(of type {type(layer)})")
        for ref in self._layers:
            if layer.name == ref.name and ref is not layer:
                raise ValueError("All layers added to a Sequential model should have unique names. Name "
                                 f"'{layer.name}' is already the name of a layer in this model. Update the `name` "
                                 "argument to pass a unique name.")
        if isinstance(layer, InputLayer) and self._layers and isinstance(self._layers[0], InputLayer):
            raise ValueError(f"Sequential model '{self.name}' has already been configured to use input shape "
                             f"{self._layers[0].batch_shape}. You cannot add a different Input layer to it.")
        self._layers.append(layer)
        if rebuild:
            self._maybe_rebuild()
        else:
            self.built = False
            self._functional = None

    def pop(self, rebuild: bool = True) -> Layer:
        layer = self._layers[-1]   # (Keras 3.15's tracked list reads it first: IndexError "list index out of range")
        self._layers.pop()
        self.built = False
        self._functional = None
        if rebuild:
            self._maybe_rebuild()
        return layer

    def _maybe_rebuild(self) -> None:
        self.built = False
        self._functional = None
        if isinstance(self._layers[0], InputLayer) and len(self._layers) > 1:
            self.build(self._layers[0].batch_shape)
        elif hasattr(self._layers[0], "input_shape") and len(self._layers) > 1:
            self.build(self._layers[0].input_shape)

    def _lock_state(self) -> None:
        pass

    def _obj_type(self) -> str:
        return "Sequential"

    def build(self, input_shape: Any = None) -> None:
        from simdist.keras.models.functional import Functional
        try:
            input_shape = standardize_shape(input_shape)
        except Exception:  # noqa: BLE001 - Keras returns unbuilt on an unusable shape
            return
        if not self._layers:
            raise ValueError(f"Sequential model {self.name} cannot be built because it has no layers. Call "
                             "`model.add(layer)`.")
        if isinstance(self._layers[0], InputLayer):
            if self._layers[0].batch_shape != input_shape:
                raise ValueError(f"Sequential model '{self.name}' has already been configured to use input shape "
                                 f"{self._layers[0].batch_shape}. You cannot build it with input_shape {input_shape}")
        else:
            dtype = self._layers[0].compute_dtype
            self._layers = [InputLayer(batch_shape=input_shape, dtype=dtype)] + list(self._layers)
        inputs = self._layers[0].output
        x = inputs
        for layer in self._layers[1:]:
            try:
                x = layer(x)
            except NotImplementedError:
                return
            except TypeError as e:
                params = [p for p in inspect.signature(layer.call).parameters.values()
                          if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
                required = [p for p in params if p.default is inspect.Parameter.empty]
                if not params:
                    raise ValueError("Layers added to a Sequential model should have a single positional argument, "
                                     f"the input tensor. Layer {type(layer).__name__} has no positional "
                                     "arguments.") from e
                if len(required) > 1:
                    raise ValueError("Layers added to a Sequential model can only have a single required positional "
                                     f"argument, the input tensor. Layer {type(layer).__name__} has multiple required "
                                     f"positional arguments: {required}") from e
                raise
        self._functional = Functional(inputs=inputs, outputs=x)

    def call(self, inputs: Any, training: Any = None, mask: Any = None, **kwargs: Any) -> Any:
        if self._functional:
            return self._functional.call(inputs, training=training, mask=mask, **kwargs)
        from simdist.keras.keras_tensor import map_structure
        from simdist.keras.tensor_attributes import get_keras_mask
        for layer in self.layers:
            layer_kwargs = {}
            if layer._call_has_mask_arg:
                layer_kwargs["mask"] = mask
            if layer._call_has_training_arg and training is not None:
                layer_kwargs["training"] = training
            inputs = layer(inputs, **layer_kwargs)
            mask = map_structure(lambda t: get_keras_mask(t) if isinstance(t, tf.Tensor) else None, inputs)
        return inputs

    @property
    def layers(self) -> list[Layer]:   # type: ignore[override]
        """The layers added (the InputLayer excluded)."""
        layers = self._layers
        if layers and isinstance(layers[0], InputLayer):
            return list(layers[1:])
        return list(layers)

    @layers.setter
    def layers(self, _: Any) -> None:
        raise AttributeError("`Sequential.layers` attribute is reserved and should not be used. Use `add()` and "
                             "`pop()` to change the layers in this model.")

    def compute_output_spec(self, inputs: Any, training: Any = None, mask: Any = None,   # type: ignore[override]
                            **kwargs: Any) -> Any:
        from simdist.keras.keras_tensor import any_symbolic_tensors
        if not any_symbolic_tensors((inputs,)):
            raise NotImplementedError("the output spec of a model for concrete inputs: run it")
        if self._functional:
            return self._functional.compute_output_spec(inputs, training=training, mask=mask)
        for layer in self.layers:
            inputs = layer.compute_output_spec(inputs)
        return inputs

    def compute_output_shape(self, input_shape: Any) -> Any:
        if self._functional:
            return self._functional.compute_output_shape(input_shape)
        for layer in self.layers:
            input_shape = layer.compute_output_shape(input_shape)
        return input_shape

    @property
    def input_shape(self) -> Any:
        if self._functional:
            return self._functional.input_shape
        raise AttributeError(f"Sequential model '{self.name}' has no defined input shape yet.")

    @property
    def output_shape(self) -> Any:
        if self._functional:
            return self._functional.output_shape
        raise AttributeError(f"Sequential model '{self.name}' has no defined output shape yet.")

    @property
    def inputs(self) -> Any:
        if self._functional:
            return self._functional.inputs
        raise AttributeError(f"Sequential model '{self.name}' has no defined inputs yet.")

    @property
    def outputs(self) -> Any:
        if self._functional:
            return self._functional.outputs
        raise AttributeError(f"Sequential model '{self.name}' has no defined outputs yet.")

    @property
    def input_dtype(self) -> str:
        layers = self._layers
        if layers and isinstance(layers[0], InputLayer):
            return layers[0].dtype
        return super().input_dtype

    def get_config(self) -> dict[str, Any]:
        """Keras 3.15's: name, trainable, dtype, every layer serialized (the InputLayer too), and
        `build_input_shape` once built from a known input shape."""
        from simdist.keras import dtype_policies
        from simdist.keras.serialization import serialize_keras_object
        config: dict[str, Any] = {"name": self.name, "trainable": self.trainable,
                                  "dtype": dtype_policies.serialize(self.dtype_policy),
                                  "layers": [serialize_keras_object(l, "keras.layers") for l in self._layers]}
        if self._functional is not None:
            config["build_input_shape"] = self._layers[0].batch_shape
        return config

    @classmethod
    def from_config(cls, config: dict[str, Any], custom_objects: dict | None = None) -> "Sequential":
        """A new model from `get_config()`'s dict (Keras 3.15's Sequential.from_config): the layers
        re-made from their configs and added in order, then built from `build_input_shape`."""
        if not isinstance(config, dict) or "name" not in config:
            raise ValueError("A Sequential model configuration must be a dictionary containing the 'name' and "
                             f"'layers' keys. Received: config={config}")
        from simdist.keras.layers.layer_serialization import layer_bindings
        from simdist.keras.serialization import deserialize_keras_object
        names = layer_bindings()
        model = cls(name=config["name"])
        for layer_config in config["layers"]:
            model.add(deserialize_keras_object(layer_config, names, "layer", custom_objects, base=Layer))
        shape = config.get("build_input_shape")
        if model._functional is None and shape and isinstance(shape, (tuple, list)):
            model.build(shape)
        return model


