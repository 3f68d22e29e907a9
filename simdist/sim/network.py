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

Where the parts live: this module is the network (max-min fair rating of flows by progressive
filling, their joins, completion timers, link accounting); `flows.py` is one transfer (`Flow`,
`group_done`); `pools.py` is the pooled regime (`Pool` and the functions that enter, settle,
complete and dissolve pools, called with the network); `batches.py` is a group's transfers
joining as one (`BatchPlan`, `Batch`).
"""

from __future__ import annotations

from heapq import heappush
from typing import Any, Callable

from . import sharing
from .batches import Batch, _interned, _member, _plan
from .clock import LOW, Clock, Wake
from .flows import _EXACT, _SNAP, Flow, group_done
from .pools import POOL_MIN, Pool, dissolve, enter_pools, pflush, pool_done, poolable

__all__ = ["Flow", "Batch", "Network", "Wake", "LOW", "group_done"]

_COMPACT_AT = 50_000   # superseded timers tolerated in the queue before it is compacted
_MEMO_FLOWS = 16  # components of at most this many flows have their rates remembered by routes
_MEMO_SIZE = 4096  # ... up to this many components (then the memo starts again)
_SHARE_TIMERS = True  # flows ending at the same instant (same re-rating or join) share one timer


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
                    dissolve(self, now)
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
        """A pool's completion timer (`pools.pool_done`)."""
        pool_done(self, w)


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
                dissolve(self, self.clock.now)   # pooled shares assumed the old capacity
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
                pflush(self)
            if self.dirty:
                self._rerate()

    def _flush(self, ev: Wake) -> None:
        self.flush_pending = False
        self._apply()

    def _apply(self) -> None:
        if self.pdirty:
            pflush(self)   # (may send the pooled flows back to rating: then dirty)
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
            if n >= self.pool_min and poolable(self, flows):
                enter_pools(self, flows, self.clock.now)
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
