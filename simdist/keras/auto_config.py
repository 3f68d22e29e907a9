"""Keras 3.15's automatic config of a layer whose class does not implement get_config (keras/src/ops/operation.py
`Operation.__new__` and `Operation.get_config`, clause keras.layer.arguments).

`Operation.__new__` binds the constructor's arguments to `cls.__init__`'s signature (defaults applied, `**kwargs`
items spread, self and `name` dropped) and keeps them as the object's `_auto_config` only when every flattened value
is a str, int, float, bool or None; a call the signature refuses, positional-only parameters or `*args` given values
keep none (the last two remembered for the error's wording). `Operation.get_config` gives {"name": ...} plus those
arguments when the object's get_config is the default one (python_utils.default: Layer's, which Keras's ELU,
Identity, TFDConcat and every user subclass without its own inherit), dropping `name` when `__init__` takes neither
`name` nor `**kwargs`, and raises NotImplementedError where no auto config was kept; a class with its own get_config
gets {"name": ...} alone. Keras's Model.__new__ calls `super().__new__(cls)` without the arguments, so a subclassed
model's automatic config is its constructor's defaults (`M(units=5)` of `units=2` says 2) or, with a required
parameter, none (get_config's NotImplementedError). So `class A(Layer): def __init__(self, units=3, **kw)` has {"name", "units": 3, "trainable",
"dtype"}, A(np.float32(2)) and A(activation=tf.nn.relu) refuse get_config (TF 2.21 observed,
/work/wt/fix66n_logs/p_auto.py).
"""

from __future__ import annotations

import functools
import inspect
import textwrap
from typing import Any, Callable

__all__ = ["SerializableDict", "default", "is_default", "record", "operation_config"]

_SUPPORTED = (str, int, float, bool, type(None))

_EXAMPLE = """
            class CustomLayer(keras.layers.Layer):
                def __init__(self, arg1, arg2, **kwargs):
                    super().__init__(**kwargs)
                    self.arg1 = arg1
                    self.arg2 = arg2

                def get_config(self):
                    config = super().get_config()
                    config.update({
                        "arg1": self.arg1,
                        "arg2": self.arg2,
                    })
                    return config
            """


class SerializableDict:
    """Keras's serialization_lib.SerializableDict: the kept arguments (`config`), held in an object of its own, which
    TF's attribute tracking does not wrap (a plain dict attribute of a layer would be a checkpoint dependency)."""

    __slots__ = ("config",)

    def __init__(self, **config: Any) -> None:
        self.config = config


def default(method: Callable[..., Any]) -> Callable[..., Any]:
    """Mark a base class's get_config as Keras's python_utils.default does (`_is_default`)."""
    method._is_default = True   # type: ignore[attr-defined]
    return method


def is_default(method: Any) -> bool:
    """Whether `method` (a bound get_config) is a default one: the object's class does not implement its own."""
    return getattr(method, "_is_default", False)


@functools.lru_cache(maxsize=None)
def _signature(init: Any) -> tuple[inspect.Signature, inspect.FullArgSpec, bool]:
    sig = inspect.signature(init)
    spec = inspect.getfullargspec(init)
    positional_only = any(p.kind == inspect.Parameter.POSITIONAL_ONLY for n, p in sig.parameters.items()
                          if n != spec.args[0])
    return sig, spec, positional_only


def _flat(value: Any) -> list[Any]:
    """keras.tree.flatten's leaves: lists and tuples in order, dicts by sorted key."""
    if isinstance(value, dict):
        return [leaf for k in sorted(value) for leaf in _flat(value[k])]
    if isinstance(value, (list, tuple)):
        return [leaf for v in value for leaf in _flat(v)]
    return [value]


def record(cls: type, args: tuple, kwargs: dict[str, Any]) -> tuple[SerializableDict | None, bool]:
    """Operation.__new__'s auto config of `cls(*args, **kwargs)`: (the arguments kept, or None; whether
    positional-only or variadic arguments were the reason)."""
    try:
        sig, spec, positional_only = _signature(cls.__init__)
    except (TypeError, ValueError):
        return None, False
    try:
        bound = sig.bind(None, *args, **kwargs)
    except TypeError:
        return None, False
    if positional_only:
        return None, True
    bound.apply_defaults()
    kept = dict(bound.arguments)
    kept |= kept.pop(spec.varkw, {}) if spec.varkw else {}
    kept.pop(spec.args[0])
    kept.pop("name", None)
    if spec.varargs is not None and len(kept.pop(spec.varargs)) > 0:
        return None, True
    try:
        if not all(isinstance(v, _SUPPORTED) for v in _flat(kept)):
            return None, False
    except (TypeError, RecursionError):
        return None, False
    return SerializableDict(**kept), False


def operation_config(obj: Any) -> dict[str, Any]:
    """Operation.get_config of obj (a layer): {"name"}, with the auto config where obj's get_config is the default."""
    config: dict[str, Any] = {"name": obj.name}
    if not is_default(obj.get_config):
        return config
    auto = getattr(obj, "_auto_config", None)
    if auto is not None:
        config.update(auto.config)
        params = inspect.signature(obj.__init__).parameters
        has_kwargs = "kwargs" in params and params["kwargs"].kind == inspect.Parameter.VAR_KEYWORD
        if "name" not in params and not has_kwargs:
            config.pop("name", None)
        return config
    if getattr(obj, "_auto_config_error_args", False):
        raise NotImplementedError(textwrap.dedent(f"""
            Object {type(obj).__name__} was created by passing
            positional only or variadic positional arguments (e.g.,
            `*args`) to `__init__()`, which is not supported by the
            automatic config generation. Please remove all positional
            only and variadic arguments from `__init__()`
            or override `get_config()` and `from_config()` to make
            the object serializatble.

            Example:

            {_EXAMPLE}"""))
    raise NotImplementedError(textwrap.dedent(f"""
            Object {type(obj).__name__} was created by passing
            non-serializable argument values in `__init__()`,
            and therefore the object must override `get_config()` in
            order to be serializable. Please implement `get_config()`.

            Example:

            {_EXAMPLE}"""))
