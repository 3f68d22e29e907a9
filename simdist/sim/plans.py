"""Collectives as pure plans: phases of operations over ranks, no simulator state.

A plan is a tuple of phases; a phase's operations run concurrently and the next phase starts
when all of them have finished. Operations:

- `Ring`: a ring over ``ranks`` (indices into the collective's device list) of a ``nbytes``
  buffer cut into ``len(ranks)`` chunks: ``all_reduce`` (2(n-1) steps, the first n-1 reduce what
  they receive), ``reduce_scatter`` (n-1 steps, all reducing) or ``all_gather`` (n-1 steps, none).
- `Star`: reduce-to-one: every other rank sends ``nbytes`` to ``ranks[0]``, which reduces them
  and sends the result back.
- `Tree`: a binary tree over ``ranks`` (root ``ranks[0]``, children of position p at 2p+1 and
  2p+2), whole ``nbytes`` messages: ``all_reduce`` reduces up the tree then broadcasts down,
  ``broadcast`` only sends down.

The same plan is executed chunk by chunk (`chunked`, events per transfer) or analytically
(`analytic`, arithmetic per phase). `transfer_count` is what the chunked execution issues.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

__all__ = ["Ring", "Star", "Tree", "Plan", "all_reduce_plan", "all_gather_plan", "reduce_scatter_plan", "broadcast_plan",
           "transfer_count", "ALL_REDUCE_ALGORITHMS"]

ALL_REDUCE_ALGORITHMS = ("hierarchical", "reduce_to_one", "ring", "tree")


@dataclass(frozen=True)
class Ring:
    ranks: tuple[int, ...]
    nbytes: float
    kind: str = "all_reduce"   # all_reduce | reduce_scatter | all_gather

    @property
    def steps(self) -> int:
        n = len(self.ranks)
        return 2 * (n - 1) if self.kind == "all_reduce" else n - 1

    @property
    def reduce_steps(self) -> int:
        return 0 if self.kind == "all_gather" else len(self.ranks) - 1

    @property
    def chunk(self) -> float:
        return self.nbytes / len(self.ranks)


@dataclass(frozen=True)
class Star:
    ranks: tuple[int, ...]
    nbytes: float


@dataclass(frozen=True)
class Tree:
    ranks: tuple[int, ...]
    nbytes: float
    kind: str = "all_reduce"   # all_reduce | broadcast


Op = Ring | Star | Tree
Plan = tuple[tuple[Op, ...], ...]


def all_reduce_plan(algorithm: str, hosts: Sequence[int], nbytes: float) -> Plan:
    """The plan of an all-reduce of ``nbytes`` over ranks whose hosts are ``hosts`` (one entry
    per rank, e.g. host indices). ``hierarchical`` (NCCL-style 2D): a reduce-scatter ring inside
    each host, an all-reduce ring of each 1/G shard across hosts among the ranks of the same local
    position (G rings at once), an all-gather ring inside each host; it needs every host to hold
    the same number G of ranks, G > 1 and more than one host, and is a plain ring otherwise."""
    n = len(hosts)
    everyone = tuple(range(n))
    if algorithm == "ring":
        return ((Ring(everyone, nbytes, "all_reduce"),),)
    if algorithm == "reduce_to_one":
        return ((Star(everyone, nbytes),),)
    if algorithm == "tree":
        return ((Tree(everyone, nbytes, "all_reduce"),),)
    if algorithm == "hierarchical":
        groups: dict[int, list[int]] = {}
        for r, h in enumerate(hosts):
            groups.setdefault(h, []).append(r)
        local = list(groups.values())
        g = len(local[0])
        if len(local) < 2 or g < 2 or any(len(x) != g for x in local):
            return ((Ring(everyone, nbytes, "all_reduce"),),)
        return (tuple(Ring(tuple(x), nbytes, "reduce_scatter") for x in local),
                tuple(Ring(tuple(x[k] for x in local), nbytes / g, "all_reduce") for k in range(g)),
                tuple(Ring(tuple(x), nbytes, "all_gather") for x in local))
    raise ValueError(f"all_reduce.algorithm: unknown algorithm {algorithm!r}; known algorithms: "
                     + ", ".join(repr(a) for a in ALL_REDUCE_ALGORITHMS))


def all_gather_plan(n: int, nbytes: float) -> Plan:
    return ((Ring(tuple(range(n)), nbytes, "all_gather"),),)


def reduce_scatter_plan(n: int, nbytes: float) -> Plan:
    return ((Ring(tuple(range(n)), nbytes, "reduce_scatter"),),)


def broadcast_plan(n: int, nbytes: float) -> Plan:
    return ((Tree(tuple(range(n)), nbytes, "broadcast"),),)


def transfer_count(plan: Plan) -> int:
    """Transfers a chunked execution of ``plan`` issues."""
    total = 0
    for phase in plan:
        for op in phase:
            n = len(op.ranks)
            if isinstance(op, Ring):
                total += n * op.steps
            elif isinstance(op, Star):
                total += 2 * (n - 1)
            else:
                total += (2 if op.kind == "all_reduce" else 1) * (n - 1)
    return total
