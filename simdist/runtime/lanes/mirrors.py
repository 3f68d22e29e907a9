"""Mirrored copies in a fused graph: read as one, and updated once when their writes are the same."""

from __future__ import annotations

from typing import Any

import numpy as np

from simdist.runtime import variables
from simdist.runtime.graph.ir import CONST, PURE, READ, WRITE, Node, slots
from simdist.runtime.graph.optimize import merge_identical


def alias_mirror_reads(out: list[Node], template: Any, groups: dict[tuple[int, ...], int],
                        group_vars: list[tuple[Any, ...]]) -> None:
    """Reads of a MirroredVariable's copies (the update of each copy in the merge reads its own
    copy of the learning rate) as one read: the first, made before any copy is written, stands
    for the later ones until a copy is written. The ops that used them then have the same
    inputs and are computed once (the graph's CSE). The copies join the guard's groups."""
    returned = set(slots(template))
    canon: dict[int, int] = {}          # id(mirror set) -> the read standing for its copies
    written: set[int] = set()
    redirect: dict[int, int] = {}
    for i, n in enumerate(out):
        if redirect and any(j in redirect for j in n.ins):
            n.ins = tuple(redirect.get(j, j) for j in n.ins)
        mirrors = getattr(n.var, "_mirrors", None) if n.kind in (READ, WRITE) else None
        if mirrors is None:
            continue
        key = id(mirrors)
        if n.kind == WRITE:
            canon.pop(key, None)
            written.add(key)
        elif key in canon and i not in returned:
            # (no longer a read: an unused node the graph drops)
            out[i] = Node(PURE, identity, (canon[key],), n.dtype, n.value, key=("mirror-read",))
            redirect[i] = canon[key]
        elif key not in written and key not in canon:
            canon[key] = i
            gkey = tuple(id(v) for v in mirrors)
            if gkey not in groups:
                groups[gkey] = len(group_vars)
                group_vars.append(mirrors)


def identity(a: np.ndarray) -> np.ndarray:
    return a


def value_numbers(out: list[Node]) -> list[int]:
    """Per node, the node whose value it is once the graph's CSE merged identical ops
    (graph.merge_identical, which also points the nodes' inputs at those)."""
    return merge_identical(out)[0]


def keeps(out: list[Node], group_vars: list[tuple[Any, ...]]) -> list[bool]:
    """Per guard group: whether the replay's writes keep its copies equal (each copy receives
    the same writes of the same values, by value numbering of the fused nodes)."""
    vn = value_numbers(out)
    writes: dict[int, list[Any]] = {}
    for n in out:
        if n.kind == WRITE:
            writes.setdefault(id(n.var), []).append((n.write_kind, tuple(vn[j] for j in n.ins)))
    return [all(writes.get(id(v), []) == writes.get(id(vs[0]), []) for v in vs) for vs in group_vars]


def share_mirror_writes(out: list[Node], group_vars: list[tuple[Any, ...]]) -> None:
    """A guard group's copies, equal when the replay starts, each written once with the same
    write of the same value and not read after it (an optimizer's update of a mirrored weight):
    the first copy is written, the others take its buffer (ResourceVariable._share) instead of
    computing the same bytes again."""
    vn = value_numbers(out)
    for vs in group_vars:
        ids = [id(v) for v in vs]
        at: dict[int, list[int]] = {}
        for i, n in enumerate(out):
            if n.kind in (READ, WRITE) and id(n.var) in ids:
                at.setdefault(id(n.var), []).append(i)
        writes = [[i for i in at.get(k, []) if out[i].kind == WRITE] for k in ids]
        if any(len(w) != 1 for w in writes):
            continue
        first = min(w[0] for w in writes)
        if any(out[i].kind == READ and i > first for k in ids for i in at.get(k, [])):
            continue
        leader = out[writes[ids.index(id(out[first].var))][0]]
        sig = (leader.write_kind, tuple(vn[j] for j in leader.ins))
        if leader.write_kind in variables.SCATTER_KINDS or \
                any((out[w[0]].write_kind, tuple(vn[j] for j in out[w[0]].ins)) != sig for w in writes):
            continue
        twin = len(out)
        out.append(Node(CONST, value=leader.var, key="twin"))
        for w in writes:
            i = w[0]
            if i != first:
                out[i] = Node(WRITE, ins=(twin,), var=out[i].var, write_kind="share")
