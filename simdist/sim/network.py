"""Transfers over links with max-min fair bandwidth sharing.

A transfer over a route first waits the route's latency (sum of its links' latencies), then
becomes a *flow* that occupies one direction ("channel") of every link on the route until its
bytes have been sent. Each channel's bandwidth is shared by the flows on it; flow rates are the
**max-min fair** allocation (progressive filling: repeatedly take the channel with the smallest
fair share ``remaining capacity / unfrozen flows``, give that share to its unfrozen flows, and
subtract it from the other channels they cross). For one link this is processor sharing: k flows
get bandwidth/k each.

Rates are recomputed whenever a flow starts or ends, for the connected component of channels and
flows it touches:
- a flow that starts on channels nobody else uses gets the route's minimum bandwidth at once;
- a flow that ends on channels nobody else uses changes nothing;
- otherwise the channels are marked dirty and are re-rated once the flow set of this simulated
  instant is final: at once when no other event is due at this instant, else by one
  re-computation queued at this instant with priority LOW (2), i.e. after every NORMAL event at
  it, so flows that start or end together are re-rated once. (Max-min fair rates depend only on
  the flow set, so when the re-rating runs within the instant changes nothing but cost.)
The rates of a component depend only on its flows' routes and the link capacities, so those of
small components (<= 16 flows) are remembered by routes until a capacity changes (set_link).
Flows whose first byte enters the network at the same instant (same start, same route latency)
share one join event, and flows given the same end time by one join or re-rating share one
completion timer (handled flow by flow, in the order separate timers would have run). A flow whose
rate changes gets a new completion timer (its entry in the old one is ignored by generation
count). All iteration is over lists and insertion-ordered dicts keyed by a flow sequence number,
never over sets or id()-keyed containers.

**Pools: the same max-min rates at a cost independent of the flows in flight.** When a re-rating
covers a large component (>= `POOL_MIN` flows) and progressive filling found it *pooled* — every
flow bottlenecked at a channel all of whose flows are bottlenecked there (rate ``capacity / n``,
processor sharing), and that channel's ``capacity / n`` the smallest on each flow's route — the
component's flows move into per-channel pools (`Pool`): a pool keeps a virtual time ``v`` (bytes
each of its flows has sent), each flow the ``v`` at which it is done, and the pool one completion
timer for its earliest flow. A flow joining or leaving a pool changes its pool's share and timer
and the flow counts of its other channels, nothing else: no other flow's state is touched. At the
end of the instant the pooled rule is checked only where it can have broken (a pool whose share
rose above the smallest share of a non-pool channel of the domain, a non-pool channel whose share
fell below the largest pool share: global bounds from two lazy heaps, exact scans of that channel
otherwise); if it broke, or a new flow does not fit (no pool or two pools on its route, or a
channel shared with non-pooled flows), every pooled flow goes back to the per-flow model above
and is re-rated by progressive filling (which may pool again). Pools and progressive filling
give the same rates; finish times differ in rounding only (virtual time vs. per-flow remaining
bytes: tests/sim/test_pools.py checks 1e-9 relative on random workloads). A channel that was a
pool's stays one while empty, so lockstep rounds (every worker reads at once, then writes) join
their pools directly.

**Pooled flows are counted, not filed; batches.** A channel's dict (`on`) holds its rated flows;
its pooled flows are a count (`pc`), so joining or leaving a pool touches no dict. While pools
exist, the transfers of one `start_group` call (a PS closure's reads or writes: `group_done`,
one route latency) join as one `Batch`: each that joins a pool its route joined before stays a
member of the pool's node — the pair (batch, its plan's entry for it) in the node's flat list —
with no `Flow` and nothing allocated; the channels all of a batch's members cross are counted
once per batch, and a pool's own channel once per node when its members leave. Members that join as rated flows, and every
pooled flow when the pools dissolve, become `Flow`s, back in their channels' dicts in join order
(the order they would have kept there), so the per-flow model sees what it saw before: the same
rates, times, events and order (tests/sim/test_batches.py against a `Flow` each).
"""

from __future__ import annotations

from heapq import heappop, heappush
from typing import Any, Callable, final

from . import sharing
from .clock import LOW, Clock, Wake

__all__ = ["Flow", "Batch", "Network", "Wake", "LOW", "group_done"]

_COMPACT_AT = 50_000   # superseded timers tolerated in the queue before it is compacted
POOL_MIN = 256  # components of at least this many flows move into pools when they qualify
_REBASE = float(2**32)  # a pool's virtual time is rebased to 0 past this many bytes (precision)
_MEMO_FLOWS = 16  # components of at most this many flows have their rates remembered by routes
_MEMO_SIZE = 4096  # ... up to this many components (then the memo starts again)
_SHARE_TIMERS = True  # flows ending at the same instant (same re-rating or join) share one timer
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


# A pool node's entries are pairs in one flat list: (flow, None) for a Flow, (batch, its plan's
# member entry: see `_member`) for a Batch member.
def _chans(x: Any, ms: Any) -> tuple[int, ...]:
    """The channels of a pool node's entry."""
    return x.chans if ms is None else x.paths[ms[3]].chans


def _avoids(pool: "Pool", c: int) -> bool:
    """Whether none of ``pool``'s flows crosses channel ``c``."""
    for node in pool.heap:
        lst = node[2]
        for k in range(0, len(lst), 2):
            if c in _chans(lst[k], lst[k + 1]):
                return False
    return True


class Pool:
    """The flows bottlenecked at one channel, sharing it equally (rate ``q = capacity / n``):
    ``v`` is the bytes each has sent since the pool's origin, as of time ``t``; ``heap`` holds
    (v at which they are done, first flow's seq, their entries: see `_chans`); ``gen`` numbers
    its completion timer."""

    __slots__ = ("c", "v", "t", "q", "heap", "gen", "timer", "last", "nflows")

    def __init__(self, c: int, now: float) -> None:
        self.c = c
        self.v = 0.0
        self.t = now
        self.q = 0.0
        # (Nodes typed Any: a compiled build unboxes tuples it knows the shape of, and a new box is
        # a new object; `_pool_cb` tells `last` by its list, which stays one object.)
        self.heap: list[Any] = []   # flows done at the same v share a node
        self.gen = 0
        self.timer = False   # a completion timer of generation `gen` is queued
        self.last: Any = None   # the node pushed last, if still queued
        self.nflows = 0   # entries that are Flows (the others are Batch members)

    def add(self, f: Flow, left: float) -> None:
        self.nflows += 1
        tag = self.v + left
        last = self.last
        if last is not None and last[0] == tag:
            last[2].append(f)
            last[2].append(None)
        else:
            self.last = last = (tag, f.seq, [f, None])
            heappush(self.heap, last)

    def advance(self, now: float) -> None:
        if self.t != now:
            self.v += self.q * (now - self.t)
            self.t = now


class Network:
    """Run-time state of every link of a cluster (capacities, flows, counters)."""

    def __init__(self, clock: Clock, links: list[Any], finish_hook: Callable[[Flow], None]) -> None:
        self.env = clock.env
        self.clock = clock
        self._push = clock.push
        self.cap = [float(ln.bandwidth) for ln in links for _ in (0, 1)]
        self.on: list[dict[int, Flow]] = [{} for _ in range(2 * len(links))]
        nl = len(links)
        self.busy_since = [0.0] * nl
        self.busy_s = [0.0] * nl
        self.bytes = [0.0] * nl
        self.transfers = [0] * nl
        self.dirty: dict[int, bool] = {}
        self.flush_pending = False
        self.seq = 0          # transfers issued so far (each flow's sequence number)
        self.issued_bytes = 0.0
        self.flushes = 0
        self.finish_hook = finish_hook  # called before on_done when flow.hooked
        # Transfers in flight (issued, last byte not yet arrived). Each period with some transfer in
        # flight is appended as (start, end) to the `.transfers` of every record in `period_sinks`
        # (the simulator's open steps) when it ends.
        self.inflight = 0
        self.inflight_since = 0.0
        self.period_sinks: list[Any] = []
        # Run-time link changes (set_link): current latency per link; `modified` switches the hot
        # path from the routes' cached static figures to these.
        self.lat = [float(ln.latency) for ln in links]
        self.modified = False
        self.stale = 0   # superseded completion timers still in the event queue
        nc = len(self.cap)
        self._rem = [0.0] * nc   # progressive filling's scratch: capacity left per channel,
        self._cnt = [0] * nc     # and flows not yet frozen per channel
        self._round = 0
        self._memo: dict[tuple, tuple[float, ...]] = {}   # routes of a component -> its flows' rates
        self._join_at = -1.0     # joins due at this time, issued at `_join_now`, share `_join_wake`
        self._join_now = -1.0
        self._join_wake: Wake | None = None
        # Pools (see the module doc): ptype[c] is 1 for a pool's channel, 2 for a channel crossed
        # by pooled flows, 0 otherwise; pq[c] the share a pooled-domain channel had at the last
        # pooled flush; pdirty the pooled-domain channels changed since (True: a flow joined).
        self.pool_min = POOL_MIN
        self.pooling = False
        self.pools: dict[int, Pool] = {}
        self.ptype = [0] * nc
        self.pq = [0.0] * nc
        self.pver = [0] * nc
        self.pdirty: dict[int, bool] = {}
        self._typed: list[int] = []
        self._hB: list[tuple[float, int, int]] = []   # (-share, channel, version): pool channels
        self._hN: list[tuple[float, int, int]] = []   # (share, channel, version): other pooled-domain channels
        self.dissolved = 0   # times the pooled flows went back to per-flow rating
        # Pooled flows are not in the channel dicts `on` (those hold the rated flows): pc[c]
        # counts them per channel, so a channel's flows are len(on[c]) + pc[c]. Join numbers
        # (`_jn`) put them back into the dicts in join order when the pools dissolve, as they were.
        self.pc = [0] * nc
        self._jn = 0
        # route -> the pool channel its flows joined, while no channel mark changed (see `_join`);
        # a mark that is cleared or may become a pool's clears it (in place: `_join` holds it).
        self._pool_routes: dict[Any, int] = {}
        self._routes_epoch = 0   # counts the clearings of _pool_routes (a BatchPlan's pools are of one)
        self.batching = True   # start_group's transfers join as a Batch (False: a Flow each)

    # -- lifecycle ------------------------------------------------------------------------------
    def start(self, path: Any, nbytes: float, on_done: Callable[[Flow], None], tag: Any = None) -> Flow:
        """Issue a transfer of ``nbytes`` over ``path`` (a non-empty topology._Path) now."""
        now = self.clock.now
        self.seq += 1
        self.issued_bytes += nbytes
        f = Flow(self.seq, path, nbytes, on_done, tag, now)
        if self.inflight == 0:
            self.inflight_since = now
        self.inflight += 1
        if self.modified:
            lat = 0.0
            for li in path.link_ids:
                lat += self.lat[li]
        else:
            lat = path.latency
        if lat > 0.0:
            t = now + lat
            if t == self._join_at and now == self._join_now and self._join_wake is not None:
                self._join_wake._value.append(f)   # same instant, same join time: one event
            else:
                wake = self._join_wake = Wake(self._join, [f])
                self._join_at = t
                self._join_now = now
                self._push(t, wake)
        else:
            wake = Wake(self._join, [f])
            wake.callbacks = None
            self._join(wake)
        return f

    def start_group(self, moves: Any, on_done: Callable[[Flow], None], group: list) -> None:
        """`start` for every (path, nbytes, name) of ``moves`` whose path has links, in order,
        each tagged ``group`` after counting it in ``group[1]``: the engine's untraced
        `transfers` of a prepared list in one call (the PS coordinator's per-closure traffic)."""
        now = self.clock.now
        if self.pooling and self.batching and on_done is group_done and not self.modified:
            # While pools exist (their transfers will likely join them), one Batch when every
            # transfer with links has the same latency (> 0): the same counts, sequence numbers
            # and join time as a Flow each below.
            plan = _plan(moves)
            lat = plan.lat
            if lat is not None:
                sizes = plan.sizes
                k = len(sizes)
                group[1] += k
                seq0 = self.seq + 1
                self.seq += k
                issued = self.issued_bytes
                tot = plan.total
                if tot is not None and issued.is_integer() and issued <= _EXACT - tot:
                    issued += tot   # (exact: the sum below, whose partial sums are integers < 2**53)
                else:
                    for nbytes in sizes:
                        issued += nbytes
                self.issued_bytes = issued
                if self.inflight == 0:
                    self.inflight_since = now
                self.inflight += k
                b = Batch(plan, seq0, group, now)
                t = now + lat
                jw = self._join_wake
                if t == self._join_at and now == self._join_now and jw is not None:
                    jw._value.append(b)   # same instant, same join time: one event
                else:
                    jw = self._join_wake = Wake(self._join, [b])
                    self._join_at = t
                    self._join_now = now
                    self._push(t, jw)
                return
        jw = self._join_wake if self._join_now == now else None
        jat = self._join_at
        modified = self.modified
        for path, nbytes, _ in moves:
            if not path.chans:
                continue
            group[1] += 1
            self.seq = seq = self.seq + 1
            self.issued_bytes += nbytes
            f = Flow(seq, path, nbytes, on_done, group, now)
            n = self.inflight
            if n == 0:
                self.inflight_since = now
            self.inflight = n + 1
            if modified:
                lat = 0.0
                for li in path.link_ids:
                    lat += self.lat[li]
            else:
                lat = path.latency
            if lat > 0.0:
                t = now + lat
                if t == jat and jw is not None and jw is self._join_wake:
                    jw._value.append(f)   # same instant, same join time: one event
                else:
                    jw = self._join_wake = Wake(self._join, [f])
                    self._join_at = jat = t
                    self._join_now = now
                    self._push(t, jw)
            else:
                wake = Wake(self._join, [f])
                wake.callbacks = None
                self._join(wake)

    def _join(self, wake: Wake) -> None:
        """The flows' first bytes enter their routes (the end of their latency). Flows alone on
        every channel of their route once all of this event's flows have joined run at the
        route's narrowest bandwidth at once; the others are re-rated (see `_settle`). The
        ``wake`` event, already processed by SimPy, is reused as the first completion timer."""
        if wake is self._join_wake:
            self._join_wake = None
        now = self.clock.now
        on = self.on
        contended = False
        pooled = False
        alone: list[Flow] = []
        pt = self.ptype
        pc = self.pc
        busy_since = self.busy_since
        routed = self._pool_routes
        pools, pd = self.pools, self.pdirty
        items: list[Any] = wake._value
        f: Flow | Batch   # (declared for a compiled build: a Flow past the Batch branch)
        t: Any   # (a channel's pool mark, then a time)
        jn = self._jn   # (join numbers: stored back before anything that may start flows)
        lo = 0   # (where to look for the next batch to expand: after the last one expanded)
        for f in items:
            if type(f) is Batch:
                if self.pooling:
                    # Every member into the pool its route joined before (`routed`: all of its
                    # channels marked, so nothing on them can make it rated or dissolve the pools),
                    # as a member of the pool's node, in order. The plan keeps those pools while
                    # no mark changed (the routes epoch).
                    plan = f.plan
                    if plan.net is not self or plan.epoch != self._routes_epoch:
                        plan.epoch = -1
                        bs = [routed.get(path, -1) for path in plan.paths]
                        if min(bs) >= 0 and min(plan.sizes) > 0.0:
                            plan.pools = [pools[b] for b in bs]
                            plan.members = [_member(nb, _interned(tuple([c for c in p.chans if c != b])), oc, i)
                                            for i, (p, b, nb, oc) in enumerate(zip(plan.paths, bs, plan.sizes, plan.own))]
                            plan.net = self
                            plan.epoch = self._routes_epoch
                    if plan.epoch >= 0:
                        # The channels every member crosses (not a pool's: a route has one pool)
                        # counted for all at once; a pool's channel is marked as each member's
                        # turn comes (the order of the pools' timers).
                        k = len(plan.pools)
                        for c in plan.common:
                            if not pc[c] and not on[c] and not pc[c ^ 1] and not on[c ^ 1]:
                                busy_since[c >> 1] = now   # the link was idle in both directions
                            pc[c] += k
                            pd[c] = True
                        seq = f.seq0
                        f.jn0 = jn + 1   # (member i's join number: jn0 + i)
                        jn += k
                        for pool, ms in zip(plan.pools, plan.members):
                            if pool.t != now:
                                pool.v += pool.q * (now - pool.t)
                                pool.t = now
                            tag = pool.v + ms[0]
                            last = pool.last
                            if last is not None and last[0] == tag:
                                lst = last[2]
                                lst += (f, ms)   # (one step for the pair: cheaper than two appends)
                            else:
                                pool.last = last = (tag, seq + ms[3], [f, ms])
                                heappush(pool.heap, last)
                            c = ms[5]
                            if c >= 0:   # (its one own channel: the loop below without the loop)
                                if not pc[c] and not on[c] and not pc[c ^ 1] and not on[c ^ 1]:
                                    busy_since[c >> 1] = now   # the link was idle in both directions
                                pc[c] += 1
                                pd[c] = True
                                continue
                            for c in ms[2]:
                                if not pc[c] and not on[c] and not pc[c ^ 1] and not on[c ^ 1]:
                                    busy_since[c >> 1] = now   # the link was idle in both directions
                                pc[c] += 1
                                pd[c] = True
                        pooled = True
                        continue
                j = items.index(f, lo) + 1   # (a Flow each, next in this loop)
                flows = f.flows()
                items[j:j] = flows
                lo = j + len(flows)
                continue
            f.last = now
            if f.nbytes <= 0.0:
                self._jn = jn
                self._finish(f, now)
                jn = self._jn
                pools, pd = self.pools, self.pdirty   # (its on_done may have started and joined flows)
                continue
            jn += 1
            f.jn = jn
            if self.pooling:
                # `_join_pooled`, inlined (a lockstep round joins hundreds of thousands of flows
                # into pools here): into the pool on its route if it fits, else as a rated flow.
                b = -1
                rated = inpool = False
                for c in f.chans:
                    t = pt[c]
                    if t == 1:
                        b = c if b == -1 else -2   # (two pools on its route: -2)
                    if pc[c]:
                        inpool = True    # (pooled flows are on marked channels only)
                    if on[c]:
                        if t:
                            inpool = True
                        else:
                            rated = True
                if b == -1 and not inpool:   # nothing pooled on its route: a rated flow
                    for c in f.chans:
                        pt[c] = 0   # (sticky marks of empty channels: forgotten)
                    routed.clear()
                    self._routes_epoch += 1
                elif b < 0 or rated:
                    self._dissolve(now)
                    pools, pd = self.pools, self.pdirty
                else:
                    pool = pools[b]
                    if pool.t != now:
                        pool.v += pool.q * (now - pool.t)
                        pool.t = now
                    tag = pool.v + f.nbytes
                    last = pool.last
                    if last is not None and last[0] == tag:
                        last[2].append(f)   # done at the same v as the flow before it: one heap node
                        last[2].append(None)
                    else:
                        pool.last = last = (tag, f.seq, [f, None])
                        heappush(pool.heap, last)
                    pool.nflows += 1
                    f.pool = b
                    for c in f.chans:
                        if not pc[c] and not on[c] and not pc[c ^ 1] and not on[c ^ 1]:
                            busy_since[c >> 1] = now   # the link was idle in both directions
                        pc[c] += 1
                        if pt[c] == 0:
                            pt[c] = 2
                            self._typed.append(c)
                        pd[c] = True
                    routed[f.path] = b   # (every channel of its route is marked now)
                    pooled = True
                    continue
            seq = f.seq
            shared = False
            for c in f.chans:  # channel c is direction c & 1 of link c >> 1
                d = on[c]
                if d:
                    shared = True
                elif not on[c ^ 1] and not pc[c ^ 1]:
                    busy_since[c >> 1] = now   # the link was idle in both directions
                d[seq] = f
            if shared:
                contended = True
                dirty = self.dirty
                for c in f.chans:
                    dirty[c] = True
            else:
                alone.append(f)
        self._jn = jn
        if alone:
            timers: dict[float, Wake] = {}
            push = self._push
            for f in alone:
                if contended:
                    for c in f.chans:
                        if len(on[c]) > 1:
                            break
                    else:
                        c = -1
                    if c >= 0:
                        continue   # a later flow of this event joined its channels: re-rated below
                r = f.path.bandwidth  # alone on every channel: the route's narrowest link
                if self.modified:
                    cap = self.cap
                    r = min([cap[c] for c in f.chans])
                f.rate = r
                t = now + f.nbytes / r
                w = timers.get(t) if _SHARE_TIMERS else None
                if w is not None:
                    w._value.append(f)
                    w.g.append(f.gen)
                elif wake.callbacks is None:
                    timers[t] = wake      # SimPy set callbacks to None before calling us: reuse it
                    wake.callbacks = [self._timer_cb]
                    wake._value = [f]
                    wake.g = [f.gen]
                    push(t, wake)
                else:
                    w = timers[t] = Wake(self._timer_cb, [f], [f.gen])
                    push(t, w)
        if contended or pooled or self.dirty:   # (dirty: pooled flows went back to rating)
            self._settle()

    # -- pools ------------------------------------------------------------------------------------
    def _pool_cb(self, w: Wake) -> None:
        """A pool's earliest flows are done: they leave (as `_timer_cb` handles rated flows),
        then the pooled domain is settled once for the instant."""
        pool = w._value
        if w.g != pool.gen:
            self.stale -= 1
            return   # superseded
        pool.timer = False
        now = self.clock.now
        pool.advance(now)
        heap = pool.heap
        v = pool.v
        done: list[Any] = []
        while heap:
            node = heap[0]
            left = node[0] - v
            first = node[2]
            if left > (first[0].nbytes if first[1] is None else first[1][0]) * _SNAP and now + left / pool.q > now:
                break
            heappop(heap)
            last = pool.last
            if last is not None and last[2] is node[2]:   # (node is pool.last; by its list, which a
                pool.last = None                            # compiled build keeps one object: see Pool)
            done += node[2]
        pending = self.flush_pending
        self.flush_pending = True   # one settle after all of them, as for a shared timer
        on = self.on
        pc = self.pc
        b = pool.c
        pd = self.pdirty
        busy_s, busy_since, nbytes, ntransfers = self.busy_s, self.busy_since, self.bytes, self.transfers
        if not pool.nflows:
            # Batch members only (the lockstep rounds' case): the pool's own channel, which every
            # one of them crosses, counted for all at once — its bytes added member by member, in
            # order, as below — then each member's other channels; their group counts down as
            # group_done does. The same arithmetic and order as the loop below (a group's event
            # only queues itself: nothing starts or ends a flow in between).
            lb = b >> 1
            x = nbytes[lb]
            it = iter(done)
            for bt, ms in zip(it, it):
                nb = ms[0]
                x += nb
                c = ms[4]
                if c >= 0:   # (its one channel but the pool's: the loop below without the loop)
                    n = pc[c] - 1
                    pc[c] = n
                    if c not in pd:
                        pd[c] = False
                    li = c >> 1
                    if not n and not on[c] and not pc[c ^ 1] and not on[c ^ 1]:
                        busy_s[li] += now - busy_since[li]   # the link is idle now
                    nbytes[li] += nb
                    ntransfers[li] += 1
                else:
                    for c in ms[1]:
                        n = pc[c] - 1
                        pc[c] = n
                        if c not in pd:
                            pd[c] = False
                        li = c >> 1
                        if not n and not on[c] and not pc[c ^ 1] and not on[c ^ 1]:
                            busy_s[li] += now - busy_since[li]   # the link is idle now
                        nbytes[li] += nb
                        ntransfers[li] += 1
                group = bt.tag
                n = group[1] - 1
                group[1] = n
                if not n:
                    group[0].succeed()
            k = len(done) >> 1
            nbytes[lb] = x
            ntransfers[lb] += k
            n = pc[b] = pc[b] - k
            if b not in pd:
                pd[b] = False
            if not n and not on[b] and not pc[b ^ 1] and not on[b ^ 1]:
                busy_s[lb] += now - busy_since[lb]   # the link is idle now
            self.inflight -= k   # (0 only with the last of them: the period ends with it)
            if self.inflight == 0 and self.period_sinks:
                self._period_end(now)
            done = []
        it = iter(done)
        for f, ms in zip(it, it):
            if ms is not None:   # a Batch member: as a Flow below, with group_done inlined
                nb = ms[0]
                chans = f.paths[ms[3]].chans
            else:
                pool.nflows -= 1
                nb = f.nbytes
                chans = f.chans
            for c in chans:
                n = pc[c] - 1
                pc[c] = n
                li = c >> 1
                if c not in pd:
                    pd[c] = False
                if not n and not on[c] and not pc[c ^ 1] and not on[c ^ 1]:
                    busy_s[li] += now - busy_since[li]   # the link is idle now
                nbytes[li] += nb
                ntransfers[li] += 1
            self.inflight -= 1
            if self.inflight == 0 and self.period_sinks:
                self._period_end(now)
            if ms is not None:
                group = f.tag
                group[1] -= 1
                if group[1] == 0:
                    group[0].succeed()
                continue
            f.pool = -1
            if f.hooked:
                self.finish_hook(f)
            f.on_done(f)
        pd[pool.c] = pd.get(pool.c, False)   # (its timer is set again at the settle)
        self.flush_pending = pending
        self._settle()

    def _pflush(self) -> None:
        """Settle the pooled domain's changes of this instant: new shares, the pooled rule checked
        where it can have broken (else every pooled flow goes back to per-flow rating), new
        completion timers for the changed pools."""
        pd = self.pdirty
        self.pdirty = {}
        now = self.clock.now
        cap = self.cap
        pt = self.ptype
        pq = self.pq
        ver = self.pver
        hB, hN = self._hB, self._hN
        pools = self.pools
        rising: list[tuple[int, float]] = []    # pool channels whose share rose
        falling: list[tuple[int, float]] = []   # other channels whose share fell or that a flow joined
        pc = self.pc
        for c, joined in pd.items():
            n = pc[c]   # (a marked channel holds pooled flows only)
            q = cap[c] / n if n else 0.0
            old = pq[c]
            pq[c] = q
            v = ver[c] = ver[c] + 1
            if pt[c] == 1:
                if n:
                    heappush(hB, (-q, c, v))
                    if q > old:
                        rising.append((c, q))
            elif n:
                heappush(hN, (q, c, v))
                if joined or q < old:
                    falling.append((c, q))
        ok = True
        if rising:
            qn = self._top(hN, 1)
            for c, q in rising:
                if q > qn:   # exact: every flow of pool c must still have it as its narrowest share
                    for node in pools[c].heap:
                        lst = node[2]
                        for k in range(0, len(lst), 2):
                            for c2 in _chans(lst[k], lst[k + 1]):
                                if c2 != c and pq[c2] < q:
                                    ok = False
                                    break
                            if not ok:
                                break
                        if not ok:
                            break
                if not ok:
                    break
        if ok and falling:
            qb = self._top(hB, -1)
            for c, q in falling:
                if q < qb:   # exact: no flow on c may have a pool share above c's
                    for b, pool in pools.items():   # (pooled flows are not filed by channel)
                        if pq[b] > q and not _avoids(pool, c):
                            ok = False
                            break
                    if not ok:
                        break
        if not ok:
            self._dissolve(now)
            return
        for c in pd:
            if pt[c] == 1:
                pool = pools[c]
                pool.q = pq[c]
                if pool.timer:
                    self.stale += 1
                pool.gen += 1
                pool.timer = False
                if pool.heap:
                    if pool.v > _REBASE:
                        v0 = pool.v
                        pool.heap = [(tag - v0, sq, fs) for tag, sq, fs in pool.heap]   # (order kept)
                        pool.v = 0.0
                        pool.last = None
                    left = pool.heap[0][0] - pool.v
                    t = now + left / pool.q if left > 0.0 else now
                    w = Wake(self._pool_cb, pool, pool.gen)
                    pool.timer = True
                    self._push(t, w)
                else:
                    pool.v = 0.0
        if len(hB) + len(hN) > 4 * len(self._typed) + 64:
            self._hB = [e for e in hB if e[2] == ver[e[1]]]
            self._hN = [e for e in hN if e[2] == ver[e[1]]]
            self._hB.sort()
            self._hN.sort()

    def _top(self, h: list[tuple[float, int, int]], sign: int) -> float:
        """The current extreme share of a lazy heap (``sign`` -1: the max-heap of pool channels;
        1: the min-heap of the others); +-inf when empty."""
        ver = self.pver
        pc = self.pc
        while h:
            q, c, v = h[0]
            if v == ver[c] and pc[c]:
                return q * sign
            heappop(h)
        return float("inf") * sign

    def _enter_pools(self, flows: list[Flow], now: float) -> None:
        """Move a re-rated component whose filling came out pooled into pools."""
        pools = self.pools
        pt = self.ptype
        pd = self.pdirty
        on = self.on
        pc = self.pc
        for f in flows:
            if f.rate > 0.0:
                self.stale += 1   # its completion timer is superseded
                f.remaining -= f.rate * (now - f.last)
            f.last = now
            f.gen += 1
            f.rate = 0.0
            b = f.bn
            pool = pools.get(b)
            if pool is None:
                pool = pools[b] = Pool(b, now)
            pool.advance(now)
            pool.add(f, f.remaining if f.remaining > f.nbytes * _SNAP else 0.0)
            f.pool = b
            seq = f.seq
            for c in f.chans:
                del on[c][seq]   # (counted as pooled instead: see pc)
                pc[c] += 1
                if pt[c] == 0:
                    pt[c] = 1 if c == b else 2
                    self._typed.append(c)
                pd[c] = True
        routed = self._pool_routes
        routed.clear()   # (a channel marked 2 may be a pool's now)
        self._routes_epoch += 1
        for f in flows:   # (the routes that now join their pool directly, as `_join` files them)
            b = f.bn
            if pt[b] == 1:
                for c in f.chans:
                    if c != b and pt[c] != 2:
                        break
                else:
                    routed[f.path] = b
        self.pooling = True
        self._pflush()

    def _poolable(self, flows: list[Flow]) -> bool:
        """Whether a filled component came out pooled (see the module doc)."""
        on = self.on
        cap = self.cap
        frozen: dict[int, int] = {}
        for f in flows:
            frozen[f.bn] = frozen.get(f.bn, 0) + 1
        for c, k in frozen.items():
            if k != len(on[c]):
                return False
        for f in flows:
            b = f.bn
            qb = cap[b] / len(on[b])
            for c in f.chans:
                if c != b and cap[c] / len(on[c]) < qb:
                    return False
        return True

    def _dissolve(self, now: float) -> None:
        """Every pooled flow back to per-flow rating (re-rated by progressive filling at the
        settle), every sticky pool mark forgotten."""
        self.dissolved += 1
        dirty = self.dirty
        back: list[Flow] = []
        for pool in self.pools.values():
            if pool.timer:
                self.stale += 1
                pool.timer = False
            pool.gen += 1
            if pool.heap:
                pool.advance(now)
                v = pool.v
                for tag, _, fs in sorted(pool.heap, key=lambda e: e[1]):
                    left = tag - v
                    it = iter(fs)
                    for f, ms in zip(it, it):
                        if ms is not None:   # a Batch member becomes the Flow it stood for
                            i = ms[3]
                            bt = f
                            f = bt.flow(i)
                            f.jn = bt.jn0 + i
                        f.remaining = left if left > 0.0 else 0.0
                        f.rate = 0.0    # (no timer: the re-rating gives it one)
                        f.last = now
                        f.pool = -1
                        for c in f.chans:
                            dirty[c] = True
                        back.append(f)
        # Back into their channels' dicts in join order: each dict as it would have been had
        # they stayed in it (the order progressive filling visits them in).
        back.sort(key=lambda f: f.jn)
        on = self.on
        for f in back:
            seq = f.seq
            for c in f.chans:
                on[c][seq] = f
        self.pools = {}
        pc = self.pc
        for c in self._typed:
            self.ptype[c] = 0
            self.pq[c] = 0.0
            pc[c] = 0
        self._typed = []
        self._pool_routes.clear()
        self._routes_epoch += 1
        self._hB = []
        self._hN = []
        self.pdirty = {}
        self.pooling = False

    def _compact(self) -> None:
        """Drop superseded completion timers from the event queue (each re-rating leaves one
        behind). They would fire as no-ops, so removing them changes nothing but memory and
        time; the remaining entries keep their (time, priority, id) keys, hence their order."""
        cb = self._timer_cb
        pcb = self._pool_cb
        stale = 0

        def keep(w: Any) -> bool:
            nonlocal stale
            if type(w) is Wake and w.callbacks is not None and w.callbacks[0] == pcb:
                return w.g == w._value.gen
            if type(w) is Wake and w.callbacks is not None and w.callbacks[0] == cb:
                n = 0
                for f, g in zip(w._value, w.g):
                    if g != f.gen:
                        n += 1
                if n == len(w.g):
                    return False   # every flow of this timer was re-rated since
                stale += n
            return True

        self.clock.compact(keep)
        self.stale = stale

    def _timer_cb(self, ev: Wake) -> None:
        """Flows whose last byte arrives now (one timer per re-rating and end time). Each is
        handled as if it had its own timer, in order; while later ones are still to come, a
        re-rating waits (as `_settle` would, seeing their timers due), then runs as `_settle`
        decides, or not at all if every channel it concerns is empty by then."""
        flows: list[Flow] = ev._value
        gens: list[int] = ev.g
        if len(flows) == 1:
            if gens[0] != flows[0].gen:
                self.stale -= 1
                return  # superseded by a re-rating
            live = flows
        else:
            for f, g in zip(flows, gens):
                if g != f.gen:   # (some were re-rated since: keep the others)
                    live = [f for f, g in zip(flows, gens) if g == f.gen]
                    self.stale -= len(flows) - len(live)
                    break
            else:
                live = flows   # (the usual case: no list built)
        now = self.clock.now
        on = self.on
        pc = self.pc
        busy_s, busy_since, nbytes, ntransfers = self.busy_s, self.busy_since, self.bytes, self.transfers
        last = live[-1] if live else None
        # While later flows of this timer are still to come, a re-rating waits (as it would for
        # their own timers, due now): pending, unless that was already so before this timer.
        defer = len(live) > 1 and not self.flush_pending
        if defer:
            self.flush_pending = True
        for f in live:
            if defer and f is last and not self.dirty:
                self.flush_pending = defer = False   # nothing waits: the last one settles as usual
            nb = f.nbytes
            seq = f.seq
            contended = False
            for c in f.chans:
                d = on[c]
                del d[seq]
                li = c >> 1
                if d:
                    contended = True
                    self.dirty[c] = True
                elif not on[c ^ 1] and not pc[c ^ 1]:
                    busy_s[li] += now - busy_since[li]   # the link is idle now
                nbytes[li] += nb
                ntransfers[li] += 1
            if contended and not self.flush_pending:
                self._settle()
            self.inflight -= 1
            if self.inflight == 0 and self.period_sinks:
                self._period_end(now)
            if f.hooked:
                self.finish_hook(f)
            f.on_done(f)
        if defer:
            self.flush_pending = False
            for c in self.dirty:
                if on[c]:
                    self._settle()   # at once if nothing else is due now (the LOW event would be next)
                    return
            self.dirty = {}   # every flow it concerned has ended: nothing to re-rate

    def _finish(self, f: Flow, now: float) -> None:
        self.inflight -= 1
        if self.inflight == 0 and self.period_sinks:
            self._period_end(now)
        if f.hooked:
            self.finish_hook(f)
        f.on_done(f)

    def _period_end(self, now: float) -> None:
        period = (self.inflight_since, now)
        for rec in self.period_sinks:
            rec.transfers.append(period)

    def open_period(self) -> tuple[float, float] | None:
        """The in-flight period still open now, as (start, now), or None."""
        return (self.inflight_since, self.clock.now) if self.inflight else None

    def set_link(self, li: int, bandwidth: float | None, latency: float | None) -> None:
        """Change link ``li`` from now on: flows on it are re-rated at this instant (see `_settle`);
        a new latency applies to transfers issued from now on."""
        self.modified = True
        if latency is not None:
            self.lat[li] = latency
        if bandwidth is not None:
            if self.pooling and (self.ptype[2 * li] or self.ptype[2 * li + 1]):
                self._dissolve(self.clock.now)   # pooled shares assumed the old capacity
            self._memo.clear()   # remembered rates assumed the old capacities
            for c in (2 * li, 2 * li + 1):
                self.cap[c] = bandwidth
                if self.on[c]:
                    self.dirty[c] = True
            if self.dirty:
                self._settle()

    # -- fair sharing ---------------------------------------------------------------------------
    def _settle(self) -> None:
        """Re-rate the dirty channels now if nothing else is due at this instant (the flow set
        is final), else once, after this instant's other events (a LOW-priority event)."""
        if self.flush_pending:
            return
        if self.clock.due_now():
            self.flush_pending = True
            self._push(self.clock.now, Wake(self._flush, None), LOW)
        else:   # `_apply`, inlined (two calls per re-rating saved on the hot path)
            if self.pdirty:
                self._pflush()
            if self.dirty:
                self._rerate()

    def _flush(self, ev: Wake) -> None:
        self.flush_pending = False
        self._apply()

    def _apply(self) -> None:
        if self.pdirty:
            self._pflush()   # (may send the pooled flows back to rating: then dirty)
        if self.dirty:
            self._rerate()

    def _rerate(self) -> None:
        self.flushes += 1
        seen = self.dirty   # becomes the component's channels, in discovery order
        self.dirty = {}
        on = self.on
        # Connected component of the dirty channels (channels <-> flows), breadth first (the
        # loop also visits the channels appended while it runs).
        chans = list(seen)
        flows: list[Flow] = []
        self._round += 1
        rnd = self._round
        for c in chans:
            for f in on[c].values():
                if f.mark != rnd:
                    f.mark = rnd
                    flows.append(f)
                    for c2 in f.chans:
                        if c2 not in seen:
                            seen[c2] = True
                            chans.append(c2)
        if not flows:
            return
        cap = self.cap
        n = len(flows)
        if n == 1:   # progressive filling of one flow: its narrowest channel
            rates: Any = (min([cap[c] for c in flows[0].chans]),)
        elif n <= _MEMO_FLOWS:
            # The rates are a function of the component's routes alone (and the capacities, which
            # only set_link changes), and small components recur: remember them by routes.
            key = tuple([f.chans for f in flows])
            rates = self._memo.get(key)
            if rates is None:
                self._fill(chans, cap)
                if len(self._memo) >= _MEMO_SIZE:
                    self._memo.clear()
                rates = self._memo[key] = tuple([f.new for f in flows])
        else:
            self._fill(chans, cap)
            if n >= self.pool_min and self._poolable(flows):
                self._enter_pools(flows, self.clock.now)
                return
            rates = [f.new for f in flows]
        now = self.clock.now
        push = self._push
        cb = self._timer_cb
        timers: dict[float, Wake] = {}   # end time -> the timer of the flows ending then
        stale = 0
        for f, r in zip(flows, rates):
            old = f.rate
            if r != old:
                if old > 0.0:
                    stale += 1   # its pending completion timer is superseded below
                    f.remaining -= old * (now - f.last)
                f.last = now
                f.rate = r
                g = f.gen = f.gen + 1
                left = f.remaining
                if left <= f.nbytes * _SNAP:
                    f.remaining = 0.0
                    t = now
                else:
                    t = now + left / r
                w = timers.get(t) if _SHARE_TIMERS else None
                if w is None:
                    timers[t] = w = Wake(cb, [f], [g])
                    push(t, w)
                else:
                    w._value.append(f)
                    w.g.append(g)
        if stale:
            self.stale += stale
            if self.stale > _COMPACT_AT and 2 * self.stale > self.clock.pending():
                self._compact()

    def _fill(self, chans: list[int], cap: list[float]) -> None:
        """Progressive filling of the component ``chans`` (`sharing.fill`): ``flow.new``, ``flow.bn``."""
        self._round += 1
        sharing.fill(chans, self.on, cap, self._rem, self._cnt, self._round)

    @property
    def issued(self) -> int:
        """Transfers issued so far."""
        return self.seq

    # -- metrics --------------------------------------------------------------------------------
    def busy_until_now(self, li: int) -> float:
        b = self.busy_s[li]
        if self.on[2 * li] or self.on[2 * li + 1] or self.pc[2 * li] or self.pc[2 * li + 1]:
            b += self.clock.now - self.busy_since[li]
        return b
