"""Grappler's rewrites of a recorded call, none of which changes a value: constant folding (ops
whose inputs are all constants), common-subexpression elimination (identical pure ops on the same
inputs computed once) and dead-op pruning (pure ops whose results nobody uses)."""

from __future__ import annotations

from typing import Any

import numpy as np

from simdist.runtime.graph.ir import CHARGE, CONST, PURE, READ, WRITE, Node, remap, slots

__all__ = ["merge_identical", "Plan", "plan"]


def merge_identical(nodes: list[Node]) -> tuple[list[int], list[bool]]:
    """Grappler's CSE and constant folding, over recorded nodes: (per node, the node whose value
    it is; per node, whether it is a constant or folded into one). Identical pure ops on the same
    values are computed once; ops whose inputs are all constants are folded (their eager value is
    the constant). The ops' and writes' inputs are rewritten to the nodes they alias."""
    alias = list(range(len(nodes)))
    const = [n.kind == CONST for n in nodes]
    seen: dict[Any, int] = {}
    for i, n in enumerate(nodes):
        if n.kind != PURE:
            continue
        n.ins = tuple(alias[j] for j in n.ins)
        if n.stateful:
            continue                     # (a random draw: computed anew by every replay)
        if all(const[j] for j in n.ins):
            const[i] = True              # folded: its eager value is the constant
            continue
        key = (n.key, n.ins)
        j = seen.get(key)
        if j is None:
            seen[key] = i
        else:
            alias[i] = j                 # computed once
    for n in nodes:
        if n.kind == WRITE:
            n.ins = tuple(alias[j] for j in n.ins)
    return alias, const


class Plan:
    """A recorded call optimised: its steps in order, each node's constant value (None: computed
    by a step), the nodes folded into constants, and its result template over the kept nodes.

    Steps: (PURE, node, impl, *ins), (READ, node, var), (CHARGE, node, fn) and (WRITE, operand,
    var, kind, *more operands)."""

    __slots__ = ("steps", "env0", "folded", "template")

    def __init__(self, steps: list[tuple], env0: list[Any], folded: set[int], template: Any) -> None:
        self.steps = steps
        self.env0 = env0
        self.folded = folded
        self.template = template


def plan(nodes: list[Node], template: Any) -> Plan:
    """The steps that replay the recorded nodes: merged (merge_identical), pruned to what the
    reads, writes, charges, random draws and the result need, constants bound."""
    alias, const = merge_identical(nodes)
    template = remap(template, alias)
    # Live nodes: reads and writes (their traffic is observable), what writes and outputs use.
    live = [n.kind in (READ, WRITE, CHARGE) or n.stateful for n in nodes]
    for i in slots(template):
        live[i] = True
    for i in range(len(nodes) - 1, -1, -1):
        if live[i] and alias[i] == i and not const[i]:
            for j in nodes[i].ins:
                live[j] = True
    env0: list[Any] = [None] * len(nodes)
    folded: set[int] = set()
    steps: list[tuple] = []
    for i, n in enumerate(nodes):
        if not live[i] or alias[i] != i:
            continue
        if const[i]:
            v = n.value
            if n.kind != CONST or n.key is None:    # computed in the call: a private read-only copy
                v = np.array(v, copy=True)
                v.flags.writeable = False
                folded.add(i)
            env0[i] = v
        elif n.kind == PURE:
            steps.append((PURE, i, n.impl) + n.ins)
        elif n.kind == READ:
            steps.append((READ, i, n.var))
        elif n.kind == CHARGE:
            steps.append((CHARGE, i, n.impl))
        elif n.kind == WRITE:
            steps.append((WRITE, n.ins[0], n.var, n.write_kind) + n.ins[1:])
        # (an ARG node is a parameter of the replay)
    return Plan(steps, env0, folded, template)
