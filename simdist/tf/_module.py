"""`tf.Module`: a named container whose variables are found by walking its attributes."""

from __future__ import annotations

import contextlib
import re
from typing import Any


#: TF 2.21's module.py: an upper-case letter after a lower-case one or a digit, or one (not first)
#: followed by a lower-case letter, starts a word: "HTTPServer2Thing" -> "http_server2_thing".
_CAMEL_TO_SNAKE = re.compile(r"((?<=[a-z0-9])[A-Z]|(?!^)[A-Z](?=[a-z]))")


def _snake(name: str) -> str:
    """TF's camel_to_snake: a Module's default name from its class name."""
    return _CAMEL_TO_SNAKE.sub(r"_\1", name).lower()


class Module:
    _simdist_trackable = True   # a TF Trackable: tf.train.Checkpoint takes it (runtime/trackable.py)
    def __init__(self, name: str | None = None) -> None:
        self._name = name if name is not None else _snake(type(self).__name__)
        from simdist.runtime import name_scopes
        # (TF: the scope is made once, below the scope the module is made in; entering it later is absolute)
        self._scope_name = name_scopes._current() + self._name + "/"

    @property
    def name(self) -> str:
        return self._name

    @property
    def name_scope(self) -> contextlib.AbstractContextManager:
        """TF's `tf.name_scope(<the scope made at __init__>)`: a variable made inside is "<module>/<name>:0"."""
        from simdist.runtime import name_scopes
        return name_scopes.name_scope(getattr(self, "_scope_name", self._name + "/"))

    def _flatten(self, predicate: Any) -> tuple:
        out: list[Any] = []
        _flatten_module(self, predicate, {id(self)}, out)
        return tuple(out)

    @property
    def variables(self) -> tuple:
        from simdist.runtime.variables import Variable
        return self._flatten(lambda o: isinstance(o, Variable))

    @property
    def trainable_variables(self) -> tuple:
        return tuple(v for v in self.variables if getattr(v, "trainable", True))

    @property
    def non_trainable_variables(self) -> tuple:
        return tuple(v for v in self.variables if not getattr(v, "trainable", True))

    @property
    def submodules(self) -> tuple:
        return self._flatten(lambda o: isinstance(o, Module))

    @classmethod
    def with_name_scope(cls, method: Any) -> Any:
        return method


def _flatten_module(module: Module, predicate: Any, seen: set[int], out: list[Any]) -> None:
    """TF 2.21's module._flatten_module: the module's own leaves first (its attributes in sorted name order,
    each flattened as tf.nest does: a dict's values by sorted key, lists and tuples in order, a sharded
    variable's shards), each object once, what `predicate` accepts appended; then each submodule met among
    those leaves, in that order, the same way (observed: a module's own variables come before its
    submodules', whatever the attribute names). A module-level function: a nested function calling itself
    is a reference cycle that would keep the variables found alive until Python's cyclic collector runs."""
    submodules: list[Module] = []
    for k in sorted(vars(module)):
        for leaf in _leaves(vars(module)[k]):
            if id(leaf) in seen:
                continue
            seen.add(id(leaf))
            if predicate(leaf):
                out.append(leaf)
            if isinstance(leaf, Module):
                submodules.append(leaf)
    for sub in submodules:
        _flatten_module(sub, predicate, seen, out)


def _leaves(obj: Any) -> list[Any]:
    """tf.nest.flatten of one attribute's value (a sharded variable contributes its shards, as in TF)."""
    from simdist.runtime.sharded import ShardedVariable
    if isinstance(obj, ShardedVariable):
        return list(obj.variables)
    if isinstance(obj, dict):
        return [leaf for k in sorted(obj, key=str) for leaf in _leaves(obj[k])]
    if isinstance(obj, (list, tuple)):
        return [leaf for v in obj for leaf in _leaves(v)]
    return [obj]
