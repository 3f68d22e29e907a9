"""`keras.utils.serialize_keras_object` / `deserialize_keras_object` (keras/src/saving/serialization_lib.py),
for what simdist's Keras serializes: plain values, lists, tuples (as lists) and dicts element by
element (a tuple stays a tuple, as in Keras); layers, models, initializers, regularizers, constraints, optimizers, losses, metrics and
dtype policies as their modules serialize them ({"module", "class_name", "config",
"registered_name"}, a layer's or model's build/compile config); Keras's activation functions as
{"module": "builtins", "class_name": "function", "config": name, "registered_name": "function"}.
A Python lambda is Keras's `{"class_name": "__lambda__", "config": {"value": func_dump(fn)}}` (with Keras's
warning), loaded only outside safe mode: `safe_mode=False` of the loading call, or
`keras.config.enable_unsafe_deserialization()`, the global switch kept here with Keras's SafeModeScope (an
explicit scope wins over the argument, as in Keras's serialization_lib). Other objects (NumPy arrays, tensors,
bytes, other user functions) are refused with NotImplementedError. Clause keras.layer.lambda-serialization."""

from __future__ import annotations

import inspect
import types
import warnings
from typing import Any

from simdist.keras.safe_mode import SafeModeScope, enable_unsafe_deserialization, in_safe_mode

__all__ = ["SafeModeScope", "deserialize_keras_object", "enable_unsafe_deserialization", "in_safe_mode",
           "serialize_keras_object"]

_LAMBDA_REFUSED = ("Requested the deserialization of a Python lambda. This carries a potential risk of arbitrary "
                   "code execution and thus it is disallowed by default. If you trust the source of the artifact, "
                   "you can override this error by passing `safe_mode=False` to the loading function, or calling "
                   "`keras.config.enable_unsafe_deserialization().")

_PLAIN = (str, int, float, bool)

#: Keras's private modules whose unexported classes a .keras file names (serialization.py writes a class's
#: `_keras_src_module`), and simdist's module holding them (Keras's _retrieve_class_or_fn imports a "keras.src.*"
#: module and takes the class of that name from it)
KERAS_SRC_MODULES = {"keras.src.layers.preprocessing.feature_space": "simdist.keras.utils.feature_space"}


def _kinds() -> list[tuple[type, Any, str]]:
    """(base class, serialize function, module name) per kind, most specific first."""
    from simdist.keras import constraints, dtype_policies, initializers, losses, metrics, optimizers, regularizers
    from simdist.keras.layers.layer import Layer
    from simdist.keras.layers.layer_serialization import serialize as serialize_layer
    from simdist.keras.losses.loss import Loss
    from simdist.keras.metrics.metric import Metric
    from simdist.keras.models.keras_file import serialize_model
    from simdist.keras.models.model import Model
    from simdist.keras.optimizers.base_optimizer import Optimizer
    return [(Model, serialize_model, ""), (Metric, metrics.serialize, "keras.metrics"),
            (Layer, serialize_layer, "keras.layers"), (Loss, losses.serialize, "keras.losses"),
            (Optimizer, optimizers.serialize, "keras.optimizers"),
            (initializers.Initializer, initializers.serialize, "keras.initializers"),
            (regularizers.Regularizer, regularizers.serialize, "keras.regularizers"),
            (constraints.Constraint, constraints.serialize, "keras.constraints"),
            (dtype_policies.DTypePolicy, dtype_policies.serialize, "keras")]


def serialize_keras_object(obj: Any) -> Any:
    """`obj` as Keras serializes it (JSON-ready)."""
    if obj is None or isinstance(obj, _PLAIN):
        return obj
    if isinstance(obj, (list, tuple)):
        items = [serialize_keras_object(x) for x in obj]
        return tuple(items) if isinstance(obj, tuple) else items   # (Keras keeps a tuple a tuple)
    if isinstance(obj, dict):
        return {k: serialize_keras_object(v) for k, v in obj.items()}
    for base, serialize, _ in _kinds():
        if isinstance(obj, base):
            return serialize(obj)
    from simdist.keras import activations
    if isinstance(obj, types.FunctionType) and obj.__name__ == "<lambda>":
        from simdist.keras.utils.python_utils import func_dump
        try:
            source = inspect.getsource(obj)
        except (OSError, TypeError):
            source = "<source not available>"
        warnings.warn("The object being serialized includes a `lambda`. This is unsafe. In order to reload the "
                      "object, you will have to pass `safe_mode=False` to the loading function. Please avoid using "
                      "`lambda` in the future, and use named Python functions instead. This is the `lambda` being "
                      f"serialized: {source}", stacklevel=2)
        return {"class_name": "__lambda__", "config": {"value": func_dump(obj)}}
    if inspect.isfunction(obj):   # (Keras: {"module": "builtins", "class_name": "function", "config": its registered
        # name, else its __name__, "registered_name": "function"}; Keras's public functions are written so too)
        from simdist.keras.serialization import serialize_function
        return serialize_function(obj)
    raise NotImplementedError(f"keras.utils.serialize_keras_object({obj!r}): simdist serializes Keras layers, "
                              "models, initializers, regularizers, constraints, optimizers, losses, metrics, dtype "
                              "policies, activations and plain values only")


def deserialize_keras_object(config: Any, custom_objects: dict | None = None, safe_mode: bool = True,
                             **kwargs: Any) -> Any:
    """The object a serialized config describes (plain values as they are)."""
    ambient = in_safe_mode()   # (Keras: a SafeModeScope or the global switch wins over the argument)
    safe_mode = ambient if ambient is not None else safe_mode
    if config is None or isinstance(config, _PLAIN):
        return config
    if isinstance(config, (list, tuple)):
        items = [deserialize_keras_object(x, custom_objects, safe_mode) for x in config]
        return tuple(items) if isinstance(config, tuple) else items
    if not isinstance(config, dict):
        raise TypeError(f"Could not parse config: {config}")
    if "class_name" not in config or "config" not in config:
        return {k: deserialize_keras_object(v, custom_objects, safe_mode) for k, v in config.items()}
    module, class_name = config.get("module"), config["class_name"]
    if class_name == "__lambda__":
        if safe_mode:
            raise ValueError(_LAMBDA_REFUSED)
        from simdist.keras.utils.python_utils import func_load
        return func_load(config["config"]["value"])
    if class_name == "function":
        # (Keras's _retrieve_class_or_fn for a function: custom objects, a keras module's export, the built-in
        # modules for "builtins"; else TypeError "Could not locate function")
        from simdist.keras.serialization import retrieve_function
        fn_name = config["config"]
        if not isinstance(fn_name, str):
            raise TypeError(f"Expected 'config' to be a non-null str fora function classname,\ninstead got "
                            f"{type(fn_name)}\nFull config: {config}")
        return retrieve_function(fn_name, config, custom_objects)
    if "compile_config" in config or class_name in ("Sequential", "Functional", "Model"):
        from simdist.keras.models.keras_file import deserialize_model
        with SafeModeScope(safe_mode):
            return deserialize_model(config, custom_objects=custom_objects)
    import importlib
    from simdist.keras.serialization import all_custom_objects, could_not_locate
    registered = config.get("registered_name", class_name)
    custom = all_custom_objects(custom_objects).get(registered) if isinstance(registered, str) else None
    if custom is not None:   # (Keras: the registered/custom object first, by registered_name)
        with SafeModeScope(safe_mode):
            return custom.from_config(config["config"] if config["config"] is not None else {})
    own = KERAS_SRC_MODULES.get(module) if isinstance(module, str) else None
    found = getattr(importlib.import_module(own), class_name, None) if own else None
    if found is not None and "_keras_src_module" in vars(found):
        with SafeModeScope(safe_mode):
            return found.from_config(config["config"])
    target = module if isinstance(module, str) and (module == "keras" or module.startswith("keras.")) else None
    if target is not None:
        if target == "keras":
            from simdist.keras import dtype_policies
            return dtype_policies.get(config)
        try:
            mod = importlib.import_module("simdist." + target)
        except ImportError:
            raise TypeError(f"Could not deserialize class '{class_name}' because its parent module {module} cannot "
                            f"be imported. Full object config: {config}") from None
        if getattr(mod, class_name, None) is None:   # (Keras: custom objects count by registered_name only,
            # above; a keras.* module path names its own objects: a custom class there is refused)
            raise ValueError(f"Could not deserialize '{module}.{class_name}' because it is not a KerasSaveable "
                             "subclass")
        with SafeModeScope(safe_mode):
            obj = mod.deserialize(config, custom_objects=custom_objects)
            exported = getattr(mod, class_name, None)
            if isinstance(obj, str) and isinstance(exported, type) and hasattr(exported, "from_config"):
                # Keras's _retrieve_class_or_fn finds a "keras.*" class by its export path (api_export), where
                # the module's own deserialize looks its objects up by name: keras.optimizers.deserialize does
                # not know Lamb (not in ALL_OBJECTS_DICT: the name comes back as a str), the generic path
                # builds it (a .keras file's compile config, LossScaleOptimizer's inner optimizer)
                return exported.from_config(config["config"])
            return obj
    raise could_not_locate("class", class_name, config)
