"""Keras's object names and variable paths (keras/src/utils/naming.py, backend/common/name_scope.py).

Names: one per-process counter per snake-cased prefix, shared by every Keras object (layers,
models, variables, optimizers): the first Dense is "dense", then "dense_1", ...;
`clear_session()` (keras.backend / keras.utils) restarts them.
Paths: a stack of name scopes opened by layers as they build and call; a variable's path is the
open scopes' names joined by "/" then its own name ("sequential/dense/kernel").
"""

from __future__ import annotations

import collections
import re
from typing import Any

__all__ = ["auto_name", "uniquify", "to_snake_case", "get_uid", "reset_uids", "name_scope", "current_path"]

_uids: collections.defaultdict[str, int] = collections.defaultdict(int)


def to_snake_case(name: str) -> str:
    """Keras's snake case: "Dense" -> "dense", "RMSprop" -> "rm_sprop", "InputLayer" -> "input_layer"."""
    name = re.sub(r"\W+", "", name)
    name = re.sub("(.)([A-Z][a-z]+)", r"\1_\2", name)
    return re.sub("([a-z])([A-Z])", r"\1_\2", name).lower()


def uniquify(name: str) -> str:
    """`name` the first time, then `name_1`, `name_2`, ..."""
    unique = f"{name}_{_uids[name]}" if name in _uids else name
    _uids[name] += 1
    return unique


def auto_name(prefix: str) -> str:
    """A unique snake-cased name for an object of class `prefix`."""
    return uniquify(to_snake_case(prefix))


def get_uid(prefix: str = "") -> int:
    """`keras.backend.get_uid`: 1, 2, ... per prefix."""
    _uids[prefix] += 1
    return _uids[prefix]


def reset_uids() -> None:
    _uids.clear()


class name_scope:  # noqa: N801 - Keras's name
    """A sub-namespace for variable paths. Re-entering the scope its caller already has open
    adds nothing (Keras's `deduplicate`); a caller that knows where it was first used (its
    `_parent_path`) reopens that path whatever is open now."""

    _stack: list["name_scope"] = []

    def __init__(self, name: str, caller: Any = None, deduplicate: bool = True,
                 override_parent: str | None = None) -> None:
        if not isinstance(name, str) or "/" in name:
            raise ValueError("Argument `name` must be a string and cannot contain character `/`. "
                             f"Received: name={name}")
        self.name = name
        self.caller = caller
        self.deduplicate = deduplicate
        self.override_parent = override_parent
        if override_parent is None and deduplicate and getattr(caller, "_parent_path", None) is not None:
            self.override_parent = caller._parent_path
        self._pop_on_exit = False

    def __enter__(self) -> "name_scope":
        stack = name_scope._stack
        if self.deduplicate and stack:
            top = stack[-1]
            if self.caller is not None and self.caller is top.caller and self.name == top.name:
                return self
        stack.append(self)
        self._pop_on_exit = True
        # (Keras's TF backend name_scope also enters tf.name_scope(name): summaries written inside a
        # layer's call are tagged "<model>/<layer>/<name>", as on TF; clause summary.event-files)
        from simdist import tf
        self._tf_name_scope = tf.name_scope(self.name)
        self._tf_name_scope.__enter__()
        return self

    def __exit__(self, *exc: object) -> None:
        if self._pop_on_exit and name_scope._stack:
            name_scope._stack.pop()
            scope = getattr(self, "_tf_name_scope", None)
            if scope is not None:
                self._tf_name_scope = None
                scope.__exit__(*exc)


def current_path() -> str:
    """The open name scopes joined by "/" ("" when none is open)."""
    parts: list[str] = []
    for entry in name_scope._stack:
        if entry.override_parent is not None:
            parts = [p for p in entry.override_parent.split("/") if p]
        parts.append(entry.name)
    return "/".join(parts)
