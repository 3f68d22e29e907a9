"""Keras's object serialization (keras/src/saving/serialization_lib.py, the part simdist needs):
the `{"module", "class_name", "config", "registered_name"}` form that losses, metrics,
regularizers, initializers and optimizers share, and the lookup that turns it back into an
object with Keras's "Could not interpret ... identifier" error."""

from __future__ import annotations

import inspect

import numpy as np
import types
from typing import Any


def exported_name(cls: type, module: str | None) -> str:
    """A built-in class's name in its config, as Keras's serialize_with_public_class writes it: the last part of its
    `keras.*` export — its own name where the module exports it, else the name the module exports it under
    (keras.layers.GroupQueryAttention's class is GroupedQueryAttention: its configs say "GroupQueryAttention", and
    `keras.layers.GroupedQueryAttention` is no attribute)."""
    import importlib
    if not module or not module.startswith("keras."):
        return cls.__name__
    try:
        mod = importlib.import_module("simdist." + module)
    except ImportError:
        return cls.__name__
    if getattr(mod, cls.__name__, None) is cls:
        return cls.__name__
    return next((n for n in dir(mod) if not n.startswith("_") and getattr(mod, n, None) is cls), cls.__name__)


def serialize_keras_object(obj: Any, module: str) -> dict[str, Any]:
    """An object with `get_config()` as Keras serializes it (a class registered with
    `register_keras_serializable` under its "package>name", module null, as Keras 3.15 writes it; a user's
    class not registered under its Python module, null for `__main__`, and its class name as registered_name,
    as Keras's serialize_with_public_class and record_object_after_serialization write it)."""
    from simdist.keras.object_registration import registered_name_or_none
    registered = registered_name_or_none(type(obj))
    if registered is None and not type(obj).__module__.startswith("simdist.keras."):
        own = type(obj).__module__
        module, registered = (None if own == "__main__" else own), type(obj).__name__
    elif registered is None and "_keras_src_module" in vars(type(obj)):
        # (a Keras class no public module exports, FeatureSpace's TFDIdentity: Keras writes its private module and
        # its class name as registered_name, and finds it again by importing that module; psweep59)
        module, registered = type(obj)._keras_src_module, type(obj).__name__
    out = {"module": None if registered and module and module.startswith("keras") and
           not module.startswith("keras.src.") else module,
           "class_name": type(obj).__name__ if registered else exported_name(type(obj), module),
           "config": _functions_serialized(obj.get_config()), "registered_name": registered}
    # a built layer's build_config (Keras: get_build_and_compile_config), from which it is built again
    # when deserialized, before any model adds it
    from simdist.keras.layers.layer import Layer, is_metric
    if isinstance(obj, Layer) and not is_metric(obj) and (module == "keras.layers" or
                                                          "_keras_src_module" in vars(type(obj))):
        build = obj.get_build_config()
        if build is not None:
            out["build_config"] = _plain(build)
    return out


def _functions_serialized(x: Any) -> Any:
    """Plain functions in a config (TextVectorization's standardize/split callables) as
    serialize_function writes them, and tensors as `{"class_name": "__tensor__", ...}`, as Keras's serialize_dict
    does for every config value."""
    if isinstance(x, dict):
        return {k: _functions_serialized(v) for k, v in x.items()}
    if isinstance(x, (list, tuple)):   # (a tuple's items too: Reshape's target_shape of a tensor dim; npsweep67)
        out = [_functions_serialized(v) for v in x]
        return tuple(out) if isinstance(x, tuple) else out
    if _is_tensor(x) or type(x).__module__ == "numpy":   # (AUC's label_weights, kopen58; npsweep67)
        return serialize_value(x)
    return serialize_function(x) if inspect.isfunction(x) else x


def serialize_value(x: Any) -> Any:
    """A config value as Keras 3.15's serialize_keras_object writes it: Python str/int/float/bool as they are (its
    PLAIN_TYPES first: a np.float64, a float subclass, is kept), a tensor as a "__tensor__" dict, a NumPy array of
    rank 1 or more as a "__numpy__" dict, any other NumPy value (a NumPy scalar, a 0-d array) as its Python item:
    LayerNormalization(epsilon=np.array(0.5)) is written 0.5, Rescaling(scale=np.array([0.5])) {"class_name":
    "__numpy__", ...} (TF 2.21 + Keras 3.15 observed, npsweep67; clause keras.saving.json-and-serialize)."""
    if isinstance(x, (str, int, float, bool)):
        return x
    if _is_tensor(x):
        return {"class_name": "__tensor__", "config": {"value": x.numpy().tolist(), "dtype": x.dtype.name}}
    if type(x).__module__ == "numpy":
        if isinstance(x, np.ndarray) and x.ndim > 0:
            return {"class_name": "__numpy__", "config": {"value": x.tolist(), "dtype": x.dtype.name}}
        return x.item()
    return x


def deserialize_value(x: Any) -> Any:
    """serialize_value's inverse, as Keras's deserialize_keras_object reads "__tensor__" (convert_to_tensor of the
    value with its dtype) and "__numpy__" (np.array of the value with its dtype) dicts; anything else as it is."""
    if isinstance(x, dict) and x.get("class_name") in ("__tensor__", "__numpy__"):
        inner = x.get("config") or {}
        if x["class_name"] == "__numpy__":
            return np.array(inner["value"], dtype=inner["dtype"])
        from simdist import tf
        return tf.convert_to_tensor(inner["value"], dtype=inner["dtype"])
    return x


def _is_tensor(x: Any) -> bool:
    from simdist import tf
    return tf.is_tensor(x) and hasattr(x, "numpy") and not isinstance(x, tf.Variable)


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
        return from_config(obj, {}, config) if instantiate_names and inspect.isclass(obj) else obj
    if isinstance(config, dict) and "class_name" in config:
        from simdist.keras.object_registration import get_registered_object
        registered = config.get("registered_name")
        cls = (get_registered_object(registered, custom_objects) if isinstance(registered, str) else None) \
            or lookup.get(config["class_name"]) or get_registered_object(config["class_name"], custom_objects)
        if cls is None or (base is not None and not (inspect.isclass(cls) and issubclass(cls, base))):
            raise ValueError(f"Could not interpret {kind} identifier: {config}")
        inner = dict(config.get("config") or {})
        takes_objects = custom_objects and "custom_objects" in inspect.signature(cls.from_config).parameters
        obj = from_config(cls, inner, config, custom_objects if takes_objects else None)
        build = config.get("build_config")
        if build and hasattr(obj, "build_from_config") and not getattr(obj, "built", True):
            obj.build_from_config(build)   # (Keras's deserialize_keras_object builds a layer from its build_config)
        return obj
    raise ValueError(f"Could not interpret {kind} identifier: {config}")


def from_config(cls: Any, inner: dict[str, Any], config: Any, custom_objects: dict | None = None) -> Any:
    """`cls.from_config(inner)` (with `custom_objects` when given) as Keras's deserialize_keras_object calls it:
    a TypeError of the call (a required argument the config lacks: `keras.metrics.deserialize("IoU")`) comes back
    as Keras's TypeError "<class> could not be deserialized properly. ...", naming the config and the cause."""
    try:
        return cls.from_config(inner, custom_objects=custom_objects) if custom_objects else cls.from_config(inner)
    except TypeError as e:
        raise TypeError(f"{cls} could not be deserialized properly. Please ensure that components that are Python "
                        "object instances (layers, models, etc.) returned by `get_config()` are explicitly "
                        f"deserialized in the model's `from_config()` method.\n\nconfig={config}.\n\nException "
                        f"encountered: {e}") from e


_LOCATE = ("Could not locate {kind} '{name}'. Make sure custom classes and functions are decorated with "
           "`@keras.saving.register_keras_serializable()`. If they are already decorated, make sure they are all "
           "imported so that the decorator is run before trying to load them. Full object config: {config}")
# Keras's serialization_lib.BUILTIN_MODULES, in a fixed order (Keras iterates a frozenset; a name found in two of
# them is the same function there)
BUILTIN_MODULES = ("activations", "constraints", "initializers", "losses", "metrics", "optimizers", "regularizers")


def could_not_locate(kind: str, name: Any, config: Any) -> TypeError:
    """Keras's TypeError for a class or function that neither custom_objects, a custom_object_scope, the
    registry nor a `keras.*` module names (serialization_lib._retrieve_class_or_fn)."""
    return TypeError(_LOCATE.format(kind=kind, name=name, config=config))


def all_custom_objects(custom_objects: dict | None) -> dict[str, Any]:
    """Keras's merged lookup for deserialize_keras_object: the call's custom_objects, then the innermost
    custom_object_scope's, then the registry's ({**custom_objects, **scope, **registry}: a later one wins)."""
    from simdist.keras.object_registration import get_custom_objects, scope_objects
    return {**(custom_objects or {}), **scope_objects(), **get_custom_objects()}


def _public(module: str, name: str) -> Any:
    """simdist's `keras.<module>.<name>` if the module exports it (its __all__), else None."""
    import importlib
    try:
        mod = importlib.import_module("simdist." + module)
    except ImportError:
        return None
    if name in getattr(mod, "__all__", ()):
        obj = getattr(mod, name, None)
        # (tf.keras's legacy aliases, `tf.keras.metrics.mse`, are no Keras 3 export paths: api_export registers
        # a function under its own name only, so "keras.metrics.mse" finds nothing there)
        return None if inspect.isfunction(obj) and obj.__name__ != name else obj
    # (Keras 3's export names are more than tf.keras's: keras.losses.mean_squared_error is one; a module's object
    # under its own name stands for it)
    obj = getattr(mod, "ALL_OBJECTS_DICT", {}).get(name)
    return obj if getattr(obj, "__name__", None) == name else None


def retrieve_function(name: str, config: dict[str, Any], custom_objects: dict | None) -> Any:
    """The function a {"class_name": "function", "config": name, "module", "registered_name"} dict names, as
    Keras's _retrieve_class_or_fn finds it: custom objects (call, scope, registry) by the name; a "keras.*"
    module's export; for module "builtins" the name in one of the built-in modules (activations, losses...), then
    a custom object registered as "<package>>name"; else TypeError "Could not locate function"."""
    merged = all_custom_objects(custom_objects)
    if merged.get(name) is not None:
        return merged[name]
    module = config.get("module")
    if isinstance(module, str) and (module == "keras" or module.startswith("keras.")):
        obj = _public(module, name)
        if obj is not None:
            return obj
        import importlib
        try:   # (Keras then imports the module and takes its KerasSaveable class of that name: never a function)
            importlib.import_module("simdist." + module)
        except ImportError:
            raise TypeError(f"Could not deserialize function '{name}' because its parent module {module} cannot be "
                            f"imported. Full object config: {config}") from None
        raise ValueError(f"Could not deserialize '{module}.{name}' because it is not a KerasSaveable subclass")
    if module == "builtins":
        for mod in BUILTIN_MODULES:
            obj = _public("keras." + mod, name)
            if obj is not None:
                return obj
        if ">" not in name:
            for custom_name, obj in merged.items():
                if custom_name.endswith(">" + name):
                    return obj
    raise could_not_locate("function", name, config)


def deserialize_with_module_objects(config: Any, module_objects: dict[str, Any],
                                    custom_objects: dict | None) -> tuple[bool, Any]:
    """Keras 3.15's deserialize_keras_object with `module_objects` (what losses/metrics/activations/initializers/
    regularizers/constraints/optimizers.deserialize call), the part before the module's own objects are built:
    returns (True, result) when that part decides, (False, None) when `config` names one of `module_objects`
    (the module builds it). A name in custom_objects, a custom_object_scope or the registry is that object; a dict
    whose class_name, registered_name or str config is one of them goes to the generic
    deserialize_keras_object (the class is built from its config, the function looked up); a dict without class_name is ValueError
    "Unknown `config` as a `dict`"; one whose module is null (a custom class saved from `__main__`) is TypeError
    "Cannot deserialize object of type"; any other name not among `module_objects` comes back as that name, a str
    (Keras takes it for an object already deserialized: `<module>.get` then refuses it as not callable)."""
    merged = all_custom_objects(custom_objects)
    if config is None:
        return True, None
    if isinstance(config, str) and merged.get(config) is not None:
        return True, merged[config]
    if not isinstance(config, (str, dict)):
        return False, None
    key: Any = config
    if isinstance(config, dict):
        if "class_name" not in config:
            raise ValueError(f"Unknown `config` as a `dict`, config={config}")
        inner = config.get("config")
        if merged and (config["class_name"] in merged or config.get("registered_name") in merged
                       or (isinstance(inner, str) and inner in merged)):
            from simdist.keras.utils.keras_object_serialization import deserialize_keras_object as generic
            return True, generic(config, custom_objects)
        if config["class_name"] == "function":
            key = config.get("config") if config.get("module") == "builtins" else config.get("registered_name")
        else:
            if config.get("module", "_") is None:
                name = config["class_name"]
                raise TypeError(f"Cannot deserialize object of type `{name}`. If `{name}` is a custom class, please "
                                "register it using the `@keras.saving.register_keras_serializable()` decorator.")
            key = config["class_name"]
    if key not in module_objects:
        return True, key
    fn = module_objects[key]
    if isinstance(fn, types.FunctionType):
        return True, _public_function(fn, key, config if isinstance(config, dict) else None, custom_objects)
    return False, None


def _public_function(fn: Any, key: str, config: dict | None, custom_objects: dict | None) -> Any:
    """A function of a module's objects found by `key`, as Keras 3.15 resolves it again (serialize_with_public_fn,
    then _retrieve_class_or_fn): a dict of class "function" by its own module ("builtins": the built-in modules'
    exports; else its registered name); a name by the function's public module (a loss function that is also a
    metric: keras.metrics), where only its own name is exported, so an alias ("mse", "bce", "swish") is Keras's
    ValueError "Could not deserialize 'keras.metrics.mse' because it is not a KerasSaveable subclass"."""
    if config is not None and config.get("class_name") == "function":
        module = config.get("module")
        full = {"module": module, "class_name": "function", "config": key, "registered_name": key}
        return retrieve_function(key, full, custom_objects)
    if key == fn.__name__:
        return fn
    import importlib
    own = "keras." + fn.__module__.split(".")[2]   # (simdist.keras.<module>...)
    metrics = importlib.import_module("simdist.keras.metrics")
    public = "keras.metrics" if own == "keras.losses" and any(v is fn for v in vars(metrics).values()) else own
    raise ValueError(f"Could not deserialize '{public}.{key}' because it is not a KerasSaveable subclass")


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
