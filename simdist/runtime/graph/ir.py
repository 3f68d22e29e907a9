"""The recorded graph's node IR: what graph recording makes and what the optimisations, the
replay's code generation, replica fusion (simdist.runtime.lanes) and the uniform rewrite
(simdist.runtime.uniform) read and rewrite.

A recording is a list of `Node`s in the order the call made them; a node's `ins` are indices
into that list. The kinds: CONST (a value fixed for every replay: captured or made by the call),
PURE (an op or a computed function of its inputs: `impl(*inputs)`), READ and WRITE (a plain
variable's read, and a dense or sparse write), ARG (a tensor argument of the call: a parameter
of the replay) and CHARGE (a simulator charge made again at the same point). A call's result is
a *template*: nested ("t", node, device) leaves for tensors, ("py", value) for Python values,
("obj", tensor) for tensors made outside the call, in lists, tuples, dicts, PerReplica and
Mirrored values.
"""

from __future__ import annotations

from typing import Any, Callable

__all__ = ["CONST", "PURE", "READ", "WRITE", "ARG", "CHARGE", "Node", "Untraceable", "NotRecordable", "leaves",
           "map_leaves", "has_numbers", "remap", "slots", "bind_dtypes"]

CONST, PURE, READ, WRITE, ARG, CHARGE = 0, 1, 2, 3, 4, 5


class Node:
    """One recorded step: its kind (CONST, PURE, READ, WRITE, ARG, CHARGE), its replay function
    (`impl`) and input nodes (`ins`), the value it had when recorded, its CSE key, and for reads
    and writes the variable."""

    __slots__ = ("kind", "impl", "ins", "dtype", "value", "key", "var", "write_kind", "inline", "stateful", "lane",
                 "op", "attrs", "reduce", "body", "ftz")

    def __init__(self, kind: int, impl: Any = None, ins: tuple[int, ...] = (), dtype: Any = None,
                 value: Any = None, key: Any = None, var: Any = None, write_kind: str = "",
                 stateful: bool = False) -> None:
        self.kind = kind
        self.stateful = stateful
        self.impl = impl
        self.ins = ins
        self.dtype = dtype
        self.value = value
        self.key = key
        self.var = var
        self.write_kind = write_kind
        self.inline: Any = None      # (format, *constants): the op as one expression, for the replay code
        self.lane: int | None = None # the replica whose ops it is part of (see Recorder.lane)
        self.op: Any = None          # the OpDef and attributes of an op node (for simdist.runtime.lanes)
        self.attrs: dict | None = None
        self.reduce: str | None = None   # a cross-replica reduction node: "SUM" or "MEAN" (see computed)
        # a tf.cond's or tf.while_loop's node (graph/branches.py): ("cond", the taken branch's
        # recorder, its flat outputs) or ("while",), for tf.gradients (autodiff/graph_gradients.py)
        self.body: Any = None
        # how a replay flushes its subnormal results (subnormals.replay_mode: None, "noted", "always")
        self.ftz: str | None = None


class Untraceable:
    """Why a function is run eagerly every time (see `explain`)."""

    __slots__ = ("reason", "gradients")

    def __init__(self, reason: str) -> None:
        self.reason = reason
        # its Python calls tf.gradients, which reads the recording: its calls run under a recorder
        # (whose graph is not kept) rather than as plain Python (simdist/tf/_function.py)
        self.gradients = False


class NotRecordable(Exception):
    """A value the recording cannot represent (its message says which)."""


def leaves(template: Any) -> Any:
    """The leaves of a result template: ("t", node, ...), ("py", value), ("obj", tensor)."""
    kind = template[0]
    if kind in ("t", "py", "obj"):
        yield template
    else:
        for v in ([v for _, v in template[1]] if kind is dict else template[1]):
            yield from leaves(v)


def map_leaves(template: Any, f: Callable[[Any], Any]) -> Any:
    """The template with each leaf replaced by f(leaf)."""
    kind = template[0]
    if kind in ("t", "py", "obj"):
        return f(template)
    if kind is dict:
        return (dict, [(k, map_leaves(v, f)) for k, v in template[1]])
    return (kind, [map_leaves(v, f) for v in template[1]])


def has_numbers(template: Any) -> bool:
    """Whether the template holds Python numbers or strings (tf.function returns them as tensors, a
    str as a string tensor: fz4 seed 22 #99's `x.dtype.name`)."""
    return any(leaf[0] == "py" and type(leaf[1]) in (bool, int, float, str) for leaf in leaves(template))


def remap(template: Any, alias: list[int]) -> Any:
    return map_leaves(template, lambda leaf: ("t", alias[leaf[1]]) + leaf[2:] if leaf[0] == "t" else leaf)


def slots(template: Any) -> list[int]:
    return [leaf[1] for leaf in leaves(template) if leaf[0] == "t"]


def bind_dtypes(template: Any, nodes: list[Node]) -> Any:
    """Each "t" leaf with its dtype and fixed device: a read is a tensor on its variable's device,
    as _as_tensor makes it; an op's result made under another device scope than the call's stays
    there (None: made on the device the replay runs on, as the call's own ops are)."""
    def bind(leaf: Any) -> Any:
        if leaf[0] != "t":
            return leaf
        n = nodes[leaf[1]]
        return ("t", leaf[1], n.dtype, n.var._device if n.kind == READ else leaf[2])
    return map_leaves(template, bind)
