"""Keras's object serialization (keras/src/saving/serialization_lib.py, the part simdist needs):
the `{"module", "class_name", "config", "registered_name"}` form that losses, metrics,
regularizers, initializers and optimizers share, and the lookup that turns it back into an
object with Keras's "Could not interpret ... identifier" error."""

from __future__ import annotations

import inspect
from typing import Any


def serialize_keras_object(obj: Any, module: str) -> dict[str, Any]:
    """An object with `get_config()` as Keras serializes it (a class registered with
    `register_keras_serializable` under its "package>name", module null, as Keras 3.15 writes it)."""
    from simdist.keras.object_registration import registered_name_or_none
    registered = registered_name_or_none(type(obj))
    out = {"module": None if registered else module, "class_name": type(obj).__name__,
           "config": _functions_serialized(obj.get_config()), "registered_name": registered}
    # a built layer's build_config (Keras: get_build_and_compile_config), from which it is built again
    # when deserialized, before any model adds it
    from simdist.keras.layers.layer import Layer, is_metric
    if isinstance(obj, Layer) and not is_metric(obj) and module == "keras.layers":
        build = obj.get_build_config()
        if build is not None:
            out["build_config"] = _plain(build)
    return out


def _functions_serialized(x: Any) -> Any:
    """Plain functions in a config (TextVectorization's standardize/split callables) as
    serialize_function writes them, as Keras's serialize_dict does for every config value."""
    if isinstance(x, dict):
        return {k: _functions_serialized(v) for k, v in x.items()}
    if isinstance(x, list):
        return [_functions_serialized(v) for v in x]
    return serialize_function(x) if inspect.isfunction(x) else x


def _plain(x: Any) -> Any:
    """Shapes as lists (what Keras's serialize_dict gives)."""
    if isinstance(x, dict):
        return {k: _plain(v) for k, v in x.items()}
    if isinstance(x, (list, tuple)):
        return [_plain(v) for v in x]
    return x


def deserialize_keras_object(config: Any, objects: dict[str, Any], kind: str, custom_objects: dict | None = None,
                             base: type | None = None, instantiate_names: bool = False) -> Any:
    """The object a serialized dict (or a registered name) describes.

    `objects`: the module's names; `kind`: "loss", "metric"... for the error message; `base`: the
    class a dict's `class_name` must name (else the identifier is refused); `instantiate_names`:
    a name that resolves to a class gives an instance with default arguments (regularizers)."""
    from simdist.keras.object_registration import scope_objects
    lookup = dict(objects)
    lookup.update(custom_objects or {})
    lookup.update(scope_objects())
    if isinstance(config, str):
        obj = lookup.get(config)
        if obj is None:
            raise ValueError(f"Could not interpret {kind} identifier: {config}")
        return obj() if instantiate_names and inspect.isclass(obj) else obj
    if isinstance(config, dict) and "class_name" in config:
        from simdist.keras.object_registration import get_registered_object
        registered = config.get("registered_name")
        cls = (get_registered_object(registered, custom_objects) if isinstance(registered, str) else None) \
            or lookup.get(config["class_name"]) or get_registered_object(config["class_name"], custom_objects)
        if cls is None or (base is not None and not (inspect.isclass(cls) and issubclass(cls, base))):
            raise ValueError(f"Could not interpret {kind} identifier: {config}")
        inner = dict(config.get("config") or {})
        takes_objects = custom_objects and "custom_objects" in inspect.signature(cls.from_config).parameters
        obj = cls.from_config(inner, custom_objects=custom_objects) if takes_objects else cls.from_config(inner)
        build = config.get("build_config")
        if build and hasattr(obj, "build_from_config") and not getattr(obj, "built", True):
            obj.build_from_config(build)   # (Keras's deserialize_keras_object builds a layer from its build_config)
        return obj
    raise ValueError(f"Could not interpret {kind} identifier: {config}")


def get_keras_object(identifier: Any, objects: dict[str, Any], kind: str,
                     deserialize: Any) -> Any:
    """Keras's `<module>.get`: None -> None; a dict -> `deserialize(dict)`; a name -> the
    module's object of that name; a class is instantiated with its defaults, a callable
    returned as is; anything else -> ValueError "Could not interpret <kind> identifier"."""
    if identifier is None:
        return None
    if isinstance(identifier, dict):
        obj = deserialize(identifier)
    elif isinstance(identifier, str):
        obj = objects.get(identifier, None)
    else:
        obj = identifier
    if callable(obj):
        return obj() if inspect.isclass(obj) else obj
    raise ValueError(f"Could not interpret {kind} identifier: {identifier}")


def serialize_function(fn: Any) -> Any:
    """A plain function as Keras 3.15's serialize_keras_object writes it (its public-class path
    for the `function` class): `{"module": "builtins", "class_name": "function", "config": <the
    registered name, else __name__>, "registered_name": "function"}`; anything else (a Loss
    object, a string) unchanged."""
    if not inspect.isfunction(fn):
        return fn
    from simdist.keras.object_registration import get_registered_name
    return {"module": "builtins", "class_name": "function", "config": get_registered_name(fn),
            "registered_name": "function"}


def function_objects(*modules: Any) -> dict[str, Any]:
    """The plain functions of `modules`, by attribute name and by `__name__` (mae and
    mean_absolute_error both find the one function)."""
    out: dict[str, Any] = {}
    for module in modules:
        for attr, fn in vars(module).items():
            if inspect.isfunction(fn):
                out.setdefault(attr, fn)
                out.setdefault(fn.__name__, fn)
    return out


def deserialize_function(config: Any, objects: dict[str, Any]) -> Any:
    """The function `serialize_function` wrote (or named): looked up by name in the custom-object
    scope, the registry, then `objects` (Keras's ValueError "Could not interpret ..." if none)."""
    if callable(config):
        return config
    name = config.get("config") if isinstance(config, dict) else config
    from simdist.keras.object_registration import get_registered_object
    fn = get_registered_object(name, module_objects=objects) if isinstance(name, str) else None
    if fn is None:
        raise ValueError(f"Could not interpret function identifier: {config}")
    return fn
