"""Batches: the transfers of one `Network.start_group` call (a PS closure's reads or writes: the
same route latency, `group_done` as their `on_done`) joining as one entry, worked out once per
transfer list (`BatchPlan`); while pools exist, members that join a pool stay in its nodes with no
`Flow` each (see network.py's module doc)."""

from __future__ import annotations

from typing import Any, final

from .flows import _EXACT, Flow, group_done
from .pools import Pool

__all__ = ["Batch", "BatchPlan"]


class BatchPlan:
    """What `start_group` and `_join` need of a transfer list, worked out once per list (kept on
    it: a prepared list is not changed after `Simulator.prepare`): its transfers with links, their
    latency (None: not one latency > 0, so no Batch), the channels all of them cross (`common`)
    and each one's others (`own`), their bytes' exact sum (`total`, see __init__), and the pools
    its members joined, valid while the network's routes epoch is ``epoch``."""

    __slots__ = ("paths", "sizes", "lat", "common", "own", "net", "epoch", "pools", "members", "total")

    def __init__(self, moves: Any) -> None:
        self.paths = [p for p, _, _ in moves if p.chans]
        self.sizes = [float(b) for p, b, _ in moves if p.chans]
        lats = {p.latency for p in self.paths}
        self.lat = lats.pop() if len(lats) == 1 and min(lats) > 0.0 else None
        # The sizes' sum when they are whole numbers of bytes summing to at most 2**53 (else
        # None): adding it at once to a whole count gives exactly what adding them one by one
        # does while that stays within 2**53 (every partial sum is then an integer a float holds).
        whole = all(0.0 <= b <= _EXACT and b.is_integer() for b in self.sizes)
        total = sum(int(b) for b in self.sizes) if whole else None
        self.total = float(total) if total is not None and total <= _EXACT else None
        first = self.paths[0].chans if self.paths else ()
        self.common = tuple(c for c in first if all(c in p.chans for p in self.paths))
        self.own = [_interned(tuple([c for c in p.chans if c not in self.common])) for p in self.paths]
        self.net: Any = None
        self.epoch = -1
        self.pools: list[Pool] = []
        # with pools: each member's entry (see `_member`)
        self.members: list[tuple] = []


_TUPLES: dict[tuple[int, ...], tuple[int, ...]] = {}


def _interned(t: tuple[int, ...]) -> tuple[int, ...]:
    """One tuple object per channel tuple (plans of 10,000 workers hold millions of them)."""
    return _TUPLES.setdefault(t, t)


def _plan(moves: Any) -> BatchPlan:
    plan = getattr(moves, "_netplan", None)
    if plan is None:
        plan = BatchPlan(moves)
        try:
            moves._netplan = plan
        except AttributeError:   # (a plain list: worked out each time)
            pass
    return plan


@final   # (no subclasses: `type(f) is Batch` tells Flows from Batches, also to the type checker)
class Batch:
    """The transfers of one `Network.start_group` call (``group_done`` as their `on_done`, the
    same route latency), queued to join as one entry of their join event. Those that join a pool
    there stay in its nodes as members (the pair: this batch, its plan's entry for member i), with
    no `Flow` and no channel-dict entry each: a lockstep round of 65,536 transfers spent most of
    its time making, filing and freeing those (docs/benchmarks.md). A member becomes a `Flow`
    (``flow(i)``, join number ``jn0 + i``) when it joins as a rated flow, or when the pools
    dissolve."""

    __slots__ = ("plan", "paths", "sizes", "seq0", "tag", "t0", "jn0")

    def __init__(self, plan: BatchPlan, seq0: int, tag: Any, t0: float) -> None:
        self.plan = plan
        self.paths = plan.paths
        self.sizes = plan.sizes
        self.seq0 = seq0     # member i's flow sequence number is seq0 + i
        self.tag = tag
        self.t0 = t0
        self.jn0 = 0   # its first member's join number, when its members join pools

    def flow(self, i: int) -> Flow:
        return Flow(self.seq0 + i, self.paths[i], self.sizes[i], group_done, self.tag, self.t0)

    def flows(self) -> list[Flow]:
        return [self.flow(i) for i in range(len(self.paths))]


def _member(nb: float, others: tuple[int, ...], own: tuple[int, ...], i: int) -> tuple:
    """A plan's entry for member i: (bytes, its channels but its pool's, its own channels (not
    the plan's common ones), i, then the only channel of ``others`` and of ``own``, each -1 when
    there are not exactly one: the hot loops' case, taken without an inner loop)."""
    return (nb, others, own, i, others[0] if len(others) == 1 else -1, own[0] if len(own) == 1 else -1)
