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

    @property
    def name(self) -> str:
        return self._name

    @property
    def name_scope(self) -> contextlib.AbstractContextManager:
        return contextlib.nullcontext()

    def _flatten(self, predicate: Any) -> tuple:
        seen: set[int] = set()
        out: list[Any] = []
        for k in sorted(vars(self)):
            _walk(vars(self)[k], predicate, seen, out)
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


def _walk(obj: Any, predicate: Any, seen: set[int], out: list[Any]) -> None:
    """Append to out what predicate accepts in obj, depth first in sorted attribute order, each
    object once (a module function: a nested function calling itself is a reference cycle that
    would keep the variables found alive until Python's cyclic collector runs)."""
    if id(obj) in seen:
        return
    seen.add(id(obj))
    from simdist.runtime.sharded import ShardedVariable
    if isinstance(obj, ShardedVariable):   # a sharded variable contributes its shards, as in TF
        for v in obj.variables:
            _walk(v, predicate, seen, out)
        return
    if predicate(obj):
        out.append(obj)
    if isinstance(obj, Module):
        for k in sorted(vars(obj)):
            _walk(vars(obj)[k], predicate, seen, out)
    elif isinstance(obj, dict):
        for k in sorted(obj, key=str):
            _walk(obj[k], predicate, seen, out)
    elif isinstance(obj, (list, tuple)):
        for v in obj:
            _walk(v, predicate, seen, out)
