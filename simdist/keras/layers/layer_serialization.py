"""`keras.layers.serialize` / `keras.layers.deserialize` (keras/src/layers/__init__.py): a layer as
Keras's serialize_keras_object writes it (module "keras.layers", its config, a built layer's
build_config) and back; what does not deserialize to a Layer instance is Keras's ValueError, an
unknown class its TypeError "Could not locate class ..."."""

from __future__ import annotations

from typing import Any

__all__ = ["serialize", "deserialize"]


def layer_bindings() -> dict[str, Any]:
    """keras.layers' public names: the classes a layer config (a model's, an RNN's cell) names by its class_name,
    which Keras writes as the exported name (`serialize_keras_object`)."""
    from simdist.keras import layers as layers_mod
    return {n: getattr(layers_mod, n) for n in dir(layers_mod) if not n.startswith("_")}


def serialize(layer: Any) -> dict[str, Any]:
    """The layer's serialized dict."""
    from simdist.keras.serialization import serialize_keras_object
    return serialize_keras_object(layer, "keras.layers")


def deserialize(config: Any, custom_objects: dict | None = None) -> Any:
    """The layer a serialized dict describes (built from its build_config), found as Keras 3.15's generic
    deserialize_keras_object finds a class (serialization_lib._retrieve_class_or_fn): by its registered name
    (default: the class name) among custom objects, a custom_object_scope and the registry; else by its
    `module` when that is a Keras one (`keras.layers` ...: the module's class of that name, a class of another
    Keras module built and refused as no Layer; no such class: ValueError "... is not a KerasSaveable
    subclass"; no such module: TypeError "... its parent module ... cannot be imported"); a config without a
    module names nothing else (TypeError "Could not locate class": `{"class_name": "Dense", "config": ...}`
    is refused, as in Keras 3). What is not a class config (a name, a list, a dict without class_name and
    config) comes back from Keras's generic function as it is: ValueError "... not a `keras.layers.Layer`"."""
    import importlib
    import inspect
    from simdist.keras.layers.layer import Layer
    from simdist.keras.serialization import all_custom_objects, could_not_locate, deserialize_keras_object
    not_a_layer = ValueError("`keras.layers.deserialize` was passed a `config` object that is not a "
                             f"`keras.layers.Layer`. Received: {config}")
    if not isinstance(config, dict) or "class_name" not in config or "config" not in config:
        raise not_a_layer
    class_name, module = config["class_name"], config.get("module")
    registered = config.get("registered_name", class_name)
    custom = all_custom_objects(custom_objects).get(registered) if isinstance(registered, str) else None
    names: dict[str, Any] = {class_name: custom} if custom is not None else {}
    if custom is None:
        if not (isinstance(module, str) and (module == "keras" or module.startswith("keras."))):
            raise could_not_locate("class", class_name, config)
        try:
            mod = importlib.import_module("simdist." + module)
        except ImportError:
            raise TypeError(f"Could not deserialize class '{class_name}' because its parent module {module} cannot "
                            f"be imported. Full object config: {config}") from None
        cls = getattr(mod, class_name, None)
        if not (inspect.isclass(cls) and hasattr(cls, "from_config")):
            raise ValueError(f"Could not deserialize '{module}.{class_name}' because it is not a KerasSaveable "
                             "subclass")
        if not issubclass(cls, Layer):
            raise not_a_layer   # (another Keras module's object, e.g. an initializer: Keras builds it, then refuses it)
        names[class_name] = cls
    obj = deserialize_keras_object({**config, "registered_name": class_name}, names, "layer", custom_objects)
    if not isinstance(obj, Layer):
        raise not_a_layer
    return obj
