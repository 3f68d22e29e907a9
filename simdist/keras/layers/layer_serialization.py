"""`keras.layers.serialize` / `keras.layers.deserialize` (keras/src/layers/__init__.py): a layer as
Keras's serialize_keras_object writes it (module "keras.layers", its config, a built layer's
build_config) and back; what does not deserialize to a Layer instance is Keras's ValueError, an
unknown class its TypeError "Could not locate class ..."."""

from __future__ import annotations

from typing import Any

__all__ = ["serialize", "deserialize"]


def serialize(layer: Any) -> dict[str, Any]:
    """The layer's serialized dict."""
    from simdist.keras.serialization import serialize_keras_object
    return serialize_keras_object(layer, "keras.layers")


def deserialize(config: Any, custom_objects: dict | None = None) -> Any:
    """The layer a serialized dict describes (built from its build_config)."""
    from simdist.keras.layers.layer import Layer
    from simdist.keras.layers.rnn import _cell_names
    from simdist.keras.object_registration import get_registered_object, scope_objects
    from simdist.keras.serialization import deserialize_keras_object
    names = {**_cell_names(), **(custom_objects or {}), **scope_objects()}
    if isinstance(config, dict) and "class_name" in config:
        registered = config.get("registered_name")
        known = (isinstance(registered, str) and get_registered_object(registered, custom_objects) is not None) \
            or config["class_name"] in names or get_registered_object(config["class_name"], custom_objects)
        module = config.get("module")
        if not known and isinstance(module, str) and module.startswith("keras.") and module != "keras.layers":
            # (another Keras module's object, e.g. an initializer: Keras builds it, then refuses it)
            import importlib
            try:
                other = getattr(importlib.import_module("simdist." + module), config["class_name"], None)
            except ImportError:
                other = None
            if other is not None:
                raise ValueError("`keras.layers.deserialize` was passed a `config` object that is not a "
                                 f"`keras.layers.Layer`. Received: {config}")
        if not known:
            raise TypeError(f"Could not locate class '{config['class_name']}'. Make sure custom classes and functions "
                            "are decorated with `@keras.saving.register_keras_serializable()`. If they are already "
                            "decorated, make sure they are all imported so that the decorator is run before trying "
                            f"to load them. Full object config: {config}")
    obj = names.get(config) if isinstance(config, str) else deserialize_keras_object(config, names, "layer",
                                                                                      custom_objects)
    if not isinstance(obj, Layer):
        raise ValueError("`keras.layers.deserialize` was passed a `config` object that is not a `keras.layers.Layer`. "
                         f"Received: {config}")
    return obj
