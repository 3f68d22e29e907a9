"""The `name=` argument of the facade's public functions inside a tf.function (clause function.symbolic-tensors,
node names).

TF's public functions hand `name` to the op they make (`gen_math_ops._sum(input, axis, keep_dims, name=name)`), so
inside a tf.function `tf.reduce_sum(x, name="loss")` is the node `loss` (`loss_1` when the name is in use), and a
later unnamed reduce_sum is `Sum`, not `Sum_1`. Grappler orders an AddN's inputs by their nodes' names
(runtime/ops/grappler.py `_by_name`), so a name ignored is a wrong order and another last bit. Most simdist
implementations name their nodes by type and ignore `name` (163 of the 214 functions of the fz54b table, each
traced with `name=` on both backends, were named otherwise). `install` wraps every public function whose `name`
parameter defaults to None (the op-name convention; a required `name`, as tf.summary's tag, is another thing) in
graph_names.first_op_named: the call's first node takes the name unless the function names its own nodes (its
scope or a given name cancels it: tf/_scopes.py's functions, tf.identity, tf.concat ...). One wrapper per function
(`tf.abs is tf.math.abs`); outside a tf.function the wrapper calls the function and nothing else.
"""

from __future__ import annotations

import functools
import inspect
import types
from typing import Any, Callable

from simdist.runtime import facade_calls, graph_names

__all__ = ["install"]

_DONE: dict[int, Callable[..., Any] | None] = {}   # (looked up by the function's id, never iterated)


def _name_at(fn: Callable[..., Any]) -> int | None:
    """The position of fn's optional `name` parameter (None: it has none, or a required one)."""
    try:
        params = list(inspect.signature(fn).parameters.values())
    except (TypeError, ValueError):
        return None
    for i, p in enumerate(params):
        if p.name == "name":
            return i if p.default is None and p.kind in (p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY) else None
    return None


def _named(fn: Callable[..., Any], at: int, keyword_only: bool) -> Callable[..., Any]:
    @functools.wraps(fn)
    def with_given_name(*args: Any, **kwargs: Any) -> Any:
        if not graph_names.state():
            return fn(*args, **kwargs)
        name = kwargs.get("name") if keyword_only or len(args) <= at else args[at]
        if name is None:
            return fn(*args, **kwargs)
        with graph_names.first_op_named(name):
            return fn(*args, **kwargs)
    with_given_name._simdist_given_name = True   # type: ignore[attr-defined]
    return with_given_name


# (its frames are not the user's: tf.constant and the symbolic tensors' checks read their caller's frame)
facade_calls.wrapper_frames_skipped(_named(lambda name=None: None, 0, False))


def install(modules: dict[str, dict]) -> None:
    """Wrap, in every namespace of `modules` (module name -> its namespace), each public function with an optional
    `name` parameter that tf/_scopes.py has not wrapped (those open their own scope by that name)."""
    for ns in modules.values():
        for key, v in list(ns.items()):
            if key.startswith("_") or type(v) is not types.FunctionType or getattr(v, "_simdist_scoped", False) \
                    or getattr(v, "_simdist_given_name", False):
                continue
            if id(v) not in _DONE:
                at = _name_at(v)
                kw_only = at is not None and \
                    inspect.signature(v).parameters["name"].kind is inspect.Parameter.KEYWORD_ONLY
                _DONE[id(v)] = None if at is None else _named(v, at, kw_only)
            w = _DONE[id(v)]
            if w is not None:
                ns[key] = w
