"""`keras.layers.Wrapper` (keras/src/layers/core/wrapper.py): the base of layers that wrap
another layer (TimeDistributed): it holds `layer`, builds it on its own build if not built, and
serializes it in its config."""

from __future__ import annotations

from typing import Any

from simdist.keras.layers.layer import Layer

__all__ = ["Wrapper"]


class Wrapper(Layer):
    """`keras.layers.Wrapper(layer)`."""

    def __init__(self, layer: Any, **kwargs: Any) -> None:
        if not isinstance(layer, Layer):
            raise ValueError(f"Layer {layer} supplied to Wrapper isn't a supported layer type. Please ensure wrapped "
                             "layer is a valid Keras layer.")
        super().__init__(**kwargs)
        self.layer = layer

    def build(self, input_shape: Any = None) -> None:
        if not self.layer.built:
            self.layer.build(input_shape)
            self.layer.built = True
        self.built = True

    def get_config(self) -> dict[str, Any]:
        from simdist.keras.serialization import serialize_keras_object
        return {**super().get_config(), "layer": serialize_keras_object(self.layer, "keras.layers")}

    @classmethod
    def from_config(cls, config: dict[str, Any], custom_objects: dict | None = None) -> "Wrapper":
        from simdist.keras.layers.rnn import _cell_names
        from simdist.keras.serialization import deserialize_keras_object
        config = dict(config)
        layer = deserialize_keras_object(config.pop("layer"), _cell_names(), "layer", custom_objects, base=Layer)
        return cls(layer, **config)
