"""`keras.layers.Pipeline` (Keras 3.15's pipeline.py): a list of layers applied in turn (each
given `training` when its call takes it and the pipeline's is not None, and the mask the previous
output carries); inputs are not converted, so a dict or a tf.data element passes through; the
config is the serialized layers and the name."""

from __future__ import annotations

from typing import Any

from simdist import tf
from simdist.keras.layers.layer import Layer

__all__ = ["Pipeline"]


class Pipeline(Layer):
    """`keras.layers.Pipeline(layers, name=None)`."""

    def __init__(self, layers: list, name: str | None = None) -> None:
        super().__init__(name=name)
        self._pipeline_layers = layers
        self._convert_input_args = False
        self._allow_non_tensor_positional_args = True

    @property
    def layers(self) -> list:
        return self._pipeline_layers

    def call(self, inputs: Any, training: Any = True, mask: Any = None) -> Any:
        outputs = inputs
        for layer in self._pipeline_layers:
            kwargs: dict[str, Any] = {}
            if layer._call_has_mask_arg:
                kwargs["mask"] = mask
            if layer._call_has_training_arg and training is not None:
                kwargs["training"] = training
            outputs = layer(inputs, **kwargs)
            inputs = outputs
            mask = tf.nest.map_structure(lambda kt: getattr(kt, "_keras_mask", None), outputs)
        return outputs

    @classmethod
    def from_config(cls, config: dict[str, Any]) -> "Pipeline":
        from simdist.keras.utils.keras_object_serialization import deserialize_keras_object
        layers = config.get("layers")
        if not isinstance(layers, (list, tuple)):
            raise ValueError("`Pipeline` config must contain a `layers` key mapping to a list of serialized layers. "
                             f"Received config with layers={layers}.")
        return cls(**{**config, "layers": [deserialize_keras_object(x) for x in layers]})

    def get_config(self) -> dict[str, Any]:
        from simdist.keras.utils.keras_object_serialization import serialize_keras_object
        return {"layers": serialize_keras_object(self._pipeline_layers), "name": self.name}
