"""Keras 3.15's custom-object registry (keras/src/saving/object_registration.py), exported by
TF 2.21 as `tf.keras.utils.register_keras_serializable` (tf.keras has no `saving` module):
a class registered under "package>name" is found again by that name when a config or a
`.keras` file is loaded."""

from __future__ import annotations

import inspect
import threading
from typing import Any, Callable

__all__ = ["register_keras_serializable", "get_registered_name", "get_registered_object", "get_custom_objects",
           "CustomObjectScope", "custom_object_scope"]

# the registry: name -> object, object -> name (dicts keyed by name and by object; lookups only, never iterated
# into results)
_OBJECTS: dict[str, Any] = {}
_NAMES: dict[Any, str] = {}
# the objects of the innermost `custom_object_scope`, per thread (Keras's global_state is thread-local)
_SCOPE = threading.local()


class CustomObjectScope:
    """`with custom_object_scope({"name": obj}):` makes `obj` findable by `name` while deserializing
    (before the registry); the scope replaces the enclosing one's objects and restores them on exit."""

    def __init__(self, custom_objects: dict | None) -> None:
        self.custom_objects = custom_objects or {}
        self.backup: dict | None = None

    def __enter__(self) -> "CustomObjectScope":
        self.backup = dict(getattr(_SCOPE, "objects", {}))
        _SCOPE.objects = dict(self.custom_objects)
        return self

    def __exit__(self, *args: Any) -> None:
        _SCOPE.objects = dict(self.backup or {})


custom_object_scope = CustomObjectScope


def scope_objects() -> dict[str, Any]:
    """The innermost custom_object_scope's objects (empty outside one)."""
    return dict(getattr(_SCOPE, "objects", {}))


def register_keras_serializable(package: str = "Custom", name: str | None = None) -> Callable[[Any], Any]:
    """Decorator: register a class (with `get_config`) or function as "package>name"."""
    def decorator(arg: Any) -> Any:
        class_name = name if name is not None else arg.__name__
        registered_name = f"{package}>{class_name}"
        if inspect.isclass(arg) and not hasattr(arg, "get_config"):
            raise ValueError("Cannot register a class that does not have a get_config() method.")
        _OBJECTS[registered_name] = arg
        _NAMES[arg] = registered_name
        return arg
    return decorator


def get_registered_name(obj: Any) -> str:
    """The name `obj` is registered under, else its Python name."""
    return _NAMES.get(obj, getattr(obj, "__name__", str(obj)))


def registered_name_or_none(obj: Any) -> str | None:
    """The registered name of a registered class, None for any other."""
    return _NAMES.get(obj)


def get_registered_object(name: str, custom_objects: dict | None = None, module_objects: dict | None = None) -> Any:
    """The object under `name`, looked up as Keras 3.15 does: the innermost custom_object_scope,
    the registry, `custom_objects`, `module_objects`; else None."""
    scope = getattr(_SCOPE, "objects", {})
    if name in scope:
        return scope[name]
    if name in _OBJECTS:
        return _OBJECTS[name]
    if custom_objects and name in custom_objects:
        return custom_objects[name]
    if module_objects and name in module_objects:
        return module_objects[name]
    return None


def get_custom_objects() -> dict[str, Any]:
    """The live registry dict (Keras returns the global dict itself: entries added to it are found)."""
    return _OBJECTS
