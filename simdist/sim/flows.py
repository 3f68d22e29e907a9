"""One transfer on the simulated network (`Flow`), and the `on_done` of a group's transfers
(`group_done`). The network (network.py) rates flows by max-min fair sharing, pools them
(pools.py) and joins a group's transfers as one batch (batches.py)."""

from __future__ import annotations

from typing import Any, Callable

__all__ = ["Flow", "group_done"]

_EXACT = 2.0 ** 53   # floats hold every integer up to this one exactly

_SNAP = 1e-9   # a flow with <= 1e-9 of its bytes left when re-rated finishes at that instant



class Flow:
    """One transfer. ``on_done(flow)`` is called when its last byte arrives."""

    __slots__ = ("seq", "path", "chans", "nbytes", "remaining", "rate", "last", "gen",
                 "on_done", "tag", "t0", "hooked", "lanes", "name", "args", "mark", "new", "bn", "pool", "jn")

    # (declared for compiled builds, whose classes take no attributes not declared)
    chans: tuple[int, ...]   # its route's channels (``path.chans``)
    new: float   # its rate from the last progressive filling (`sharing.fill`)
    bn: int      # the channel it was frozen at there (its bottleneck)
    jn: int      # its join number
    lanes: Any   # the trace's lanes, name (event prefix) and args (tail): set by the engine when hooked
    name: str
    args: str

    def __init__(self, seq: int, path: Any, nbytes: float, on_done: Callable[["Flow"], None], tag: Any,
                 t0: float) -> None:
        self.seq = seq
        self.path = path
        self.chans = path.chans
        self.nbytes = nbytes
        self.remaining = nbytes
        self.rate = 0.0
        self.last = t0
        self.gen = 0
        self.on_done = on_done
        self.tag = tag
        self.t0 = t0
        self.hooked = False  # True when the engine traces it: see Network.finish_hook
        self.mark = 0        # the re-rating round that last gave it a rate (`new`, bottleneck `bn`)
        self.pool = -1       # the channel whose Pool it is in, or -1 (rated one by one)
        # jn: its join number (the order of its channels' flows), set when it joins.
        # lanes, name (the trace event's prefix), args (its tail): set by the engine only when hooked.


def group_done(f: Any) -> None:
    """The `on_done` of a `Network.start_group` transfer: one fewer of its group (``f.tag``,
    ``[event, transfers in flight]``) in flight; the group's event succeeds with the last."""
    group = f.tag
    group[1] -= 1
    if group[1] == 0:
        group[0].succeed()
