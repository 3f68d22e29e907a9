"""Keras's identifier lookup (issue 29, kget): `get` of every module of tf.keras that has it (activations,
initializers, losses, metrics, optimizers, regularizers, constraints), asked for every public name of that module
as written, lower-cased, in snake_case and upper-cased, and as a config dict ({"class_name": name, "config": {}},
also lower-cased). (`deserialize` of the same identifiers is not compared yet: simdist's differs from Keras's
deserialize_keras_object on many of them, docs/spec.md keras.config.globals.)

A planted bug in a lookup is invisible to a program that names things as Keras's examples do: a case-sensitive
match, a snake_case alias missing, a lower-cased class name that deserializes to another class, a dict config
refused. The names come from the reference's own modules (kget_record lists them), so nothing about the backend
under test chooses what is tried.

Observed (`observe`): what came back — a class (its name), a function (its name), an object (its class's name, and
for `get` of a string `serialize` of it: its class_name and registered name), None — or the error class.
Nothing here imports TensorFlow.
"""

from __future__ import annotations

import re
from typing import Any

#: The modules of tf.keras with `get` (dtype_policies has one too: left out, its quantized policies, AWQDTypePolicy
#: and kin, are not simdist's).
MODULES = ("activations", "initializers", "losses", "metrics", "optimizers", "regularizers", "constraints")
#: Public names of a module that are not things to look up.
NOT_NAMES = ("get", "serialize", "deserialize")


def snake(name: str) -> str:
    """CamelCase to snake_case as Keras writes its aliases (MeanSquaredError -> mean_squared_error)."""
    s = re.sub(r"(.)([A-Z][a-z]+)", r"\1_\2", name)
    return re.sub(r"([a-z0-9])([A-Z])", r"\1_\2", s).lower()


def identifiers(name: str) -> list[Any]:
    """The spellings tried for one public name: as written, lower, snake_case, upper (each once), then config dicts."""
    words = list(dict.fromkeys([name, name.lower(), snake(name), name.upper()]))
    return words + [{"class_name": name, "config": {}}, {"class_name": name.lower(), "config": {}}]


def describe(x: Any) -> Any:
    """What a lookup returned, as plain values."""
    if x is None:
        return None
    if isinstance(x, type):
        return ["class", x.__name__]
    if callable(x) and hasattr(x, "__name__") and not hasattr(x, "get_config"):
        return ["function", x.__name__]
    return ["object", type(x).__name__]


def _serialized(keras: Any, module: Any, obj: Any) -> Any:
    try:
        s = module.serialize(obj)
    except Exception as e:  # noqa: BLE001
        return ["error", type(e).__name__]
    if isinstance(s, dict):
        return [s.get("class_name"), s.get("registered_name")]
    return s if isinstance(s, str) else type(s).__name__


def observe(tf: Any, module_name: str, ident: Any) -> dict[str, Any]:
    """`get(ident)` of tf.keras.<module_name>: the result described, or its error class (and for get of a string
    that returned an object, serialize of that object)."""
    keras = tf.keras
    module = getattr(keras, module_name)
    out: dict[str, Any] = {}
    for fn in ("get",):
        try:
            got = getattr(module, fn)(dict(ident) if isinstance(ident, dict) else ident)
        except Exception as e:  # noqa: BLE001 - a refusal is what is observed
            out[fn] = ["error", type(e).__name__]
            continue
        out[fn] = describe(got)
        if fn == "get" and isinstance(ident, str) and out[fn] and out[fn][0] == "object":
            out["serialize"] = _serialized(keras, module, got)
    return out
