"""tf.name_scope, tf.get_current_name_scope and tf.init_scope: the name scope of the code running
now, as TF 2.21 keeps it (observed):

- executing eagerly, `with tf.name_scope("a")` enters "a/" below the current scope (a name ending
  in "/" is absolute, "" returns to the root); names are not validated, a non-string name is
  ValueError; `get_current_name_scope()` is the scope without its trailing "/";
- a tf.function's Python starts at the root scope (its graph's), whatever scope the call is in;
- `tf.init_scope()` lifts into the eager context at the current scope and pauses the gradient
  tapes (ops inside are not recorded: their results get no gradient).
Inside a tf.function a scope is a graph's: validated and made unique (`a`, `a_1`) with the nodes'
names (runtime/graph_names.py), which name the graph's tensors. The stack is per thread — in simdist
per execution context, so each replica of a strategy.run has its own (runtime/execution.py) — and
each entry remembers the tf.function depth it was entered at, so a function call sees only the
scopes entered inside it. A replica starts as TF's replica thread does (mirrored_run
_MirroredReplicaThread): in a graph at the caller's scope, replica i > 0 below it in
`replica_i/`; executing eagerly at the root (`replica_entry`); and a collective's merge runs in
replica 0's scope at the call (merge_call's captured_name_scope: `entered`).
"""

from __future__ import annotations

from contextlib import contextmanager
from typing import Any, Iterator

from simdist.runtime import execution

__all__ = ["name_scope", "get_current_name_scope", "init_scope", "replica_entry", "current_of", "entered"]


def _stack() -> list[tuple[int, str]]:
    """The running thread's (or replica's) scopes: its execution context's."""
    return execution._current.ctx.scopes


def _depth() -> int:
    from simdist.runtime import context
    return context._function_depth


def _current() -> str:
    """The current scope with its trailing "/" ("" at the root)."""
    depth = _depth()
    for d, scope in reversed(_stack()):
        if d == depth:
            return scope
    return ""


def get_current_name_scope() -> str:
    """`tf.get_current_name_scope()`: "a/b" inside name_scope("a") and name_scope("b")."""
    return _current().rstrip("/") if _current() else ""


class name_scope:  # noqa: N801 - TF's name
    """`tf.name_scope(name)`: a context manager entering `name` below the current scope; `as`
    gives the new scope with its trailing "/"."""

    def __init__(self, name: Any) -> None:
        if not isinstance(name, str):
            raise ValueError("name for name_scope must be a string.")
        self._name = name
        self._entry: tuple[int, str] | None = None

    @property
    def name(self) -> str:
        return self._name

    def __enter__(self) -> str:
        name = self._name
        if not name:
            scope = ""
        elif name.endswith("/"):
            scope = name
        elif _depth():   # (a graph's scope: validated and made unique, runtime/graph_names.py)
            from simdist.runtime import context, graph_names
            scope = (_current() + name if context.executing_eagerly() else
                     graph_names.scope_name(_current(), name)) + "/"
        else:
            scope = _current() + name + "/"
        self._entry = (_depth(), scope)
        _stack().append(self._entry)
        return scope

    def __exit__(self, *exc: object) -> None:
        stack = _stack()
        for i in range(len(stack) - 1, -1, -1):
            if stack[i] is self._entry:
                del stack[i]
                break


class init_scope:  # noqa: N801 - TF's name
    """`tf.init_scope()`: the current name scope taken as absolute, with the gradient tapes of the
    current context paused (executing eagerly, simdist's ops already run eagerly)."""

    def __enter__(self) -> None:
        from simdist.runtime import execution
        c = execution.current()
        self._saved = (c.tapes, c.observers)
        tapes = c.tapes
        c.tapes = []
        c.observers = [o for o in c.observers if not any(o is t for t in tapes)]
        self._scope = name_scope(_current() or "")
        self._scope.__enter__()
        from simdist.runtime import context
        self._lift = context.lifted()
        self._lift.__enter__()
        return None

    def __exit__(self, *exc: object) -> None:
        from simdist.runtime import execution
        self._lift.__exit__(*exc)
        self._scope.__exit__(*exc)
        c = execution.current()
        c.tapes, c.observers = self._saved


def replica_entry(i: int) -> tuple[int, str] | None:
    """The scope replica `i` of a strategy.run starts in, made in the caller's context: in a function's
    graph the caller's scope, `replica_i/` below it for i > 0 (absolute, not made unique); eagerly none."""
    from simdist.runtime import context
    depth = _depth()
    if not depth or context.executing_eagerly():
        return None
    return (depth, _current() + (f"replica_{i}/" if i else ""))


def current_of(c: Any) -> tuple[int, str]:
    """Execution context `c`'s current scope as an entry (its depth's, with the trailing "/")."""
    depth = _depth()
    for d, scope in reversed(c.scopes):
        if d == depth:
            return (depth, scope)
    return (depth, "")


@contextmanager
def entered(entry: tuple[int, str]) -> Iterator[None]:
    """Run in `entry`'s scope (absolute) in the current context."""
    stack = _stack()
    stack.append(entry)
    try:
        yield
    finally:
        for i in range(len(stack) - 1, -1, -1):
            if stack[i] is entry:
                del stack[i]
                break
