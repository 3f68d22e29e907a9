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
"""

from __future__ import annotations

from heapq import heapify, heappop, heappush
from typing import Any, Callable

from .clock import LOW, Clock, Wake

__all__ = ["Flow", "Network", "Wake", "LOW"]

_COMPACT_AT = 50_000   # superseded timers tolerated in the queue before it is compacted
_SCAN_MAX = 8  # components with at most this many busy channels are filled by scanning, not a heap
_MEMO_FLOWS = 16  # components of at most this many flows have their rates remembered by routes
_MEMO_SIZE = 4096  # ... up to this many components (then the memo starts again)
_SHARE_TIMERS = True  # flows ending at the same instant (same re-rating or join) share one timer
_SNAP = 1e-9   # a flow with <= 1e-9 of its bytes left when re-rated finishes at that instant


class Flow:
    """One transfer. ``on_done(flow)`` is called when its last byte arrives."""

    __slots__ = ("seq", "path", "chans", "nbytes", "remaining", "rate", "last", "gen",
                 "on_done", "tag", "t0", "hooked", "lanes", "name", "args", "mark", "new")

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
        self.mark = 0        # the re-rating round that last gave it a rate (`new`)
        # lanes, name (the trace event's prefix), args (its tail): set by the engine only when hooked.


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

    # -- lifecycle ------------------------------------------------------------------------------
    def start(self, path: Any, nbytes: float, on_done: Callable[[Flow], None], tag: Any = None) -> Flow:
        """Issue a transfer of ``nbytes`` over ``path`` (a non-empty topology._Path) now."""
        now = self.env._now
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

    def _join(self, wake: Wake) -> None:
        """The flows' first bytes enter their routes (the end of their latency). Flows alone on
        every channel of their route once all of this event's flows have joined run at the
        route's narrowest bandwidth at once; the others are re-rated (see `_settle`). The
        ``wake`` event, already processed by SimPy, is reused as the first completion timer."""
        if wake is self._join_wake:
            self._join_wake = None
        now = self.env._now
        on = self.on
        contended = False
        alone: list[Flow] = []
        for f in wake._value:
            f.last = now
            if f.nbytes <= 0.0:
                self._finish(f, now)
                continue
            seq = f.seq
            shared = False
            for c in f.chans:  # channel c is direction c & 1 of link c >> 1
                d = on[c]
                if d:
                    shared = True
                elif not on[c ^ 1]:
                    self.busy_since[c >> 1] = now   # the link was idle in both directions
                d[seq] = f
            if shared:
                contended = True
                dirty = self.dirty
                for c in f.chans:
                    dirty[c] = True
            else:
                alone.append(f)
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
        if contended:
            self._settle()

    def _compact(self) -> None:
        """Drop superseded completion timers from the event queue (each re-rating leaves one
        behind). They would fire as no-ops, so removing them changes nothing but memory and
        time; the remaining entries keep their (time, priority, id) keys, hence their order."""
        cb = self._timer_cb
        stale = 0

        def keep(w: Any) -> bool:
            nonlocal stale
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
        flows = ev._value
        gens = ev.g
        if len(flows) == 1:
            if gens[0] != flows[0].gen:
                self.stale -= 1
                return  # superseded by a re-rating
            live = flows
        else:
            live = [f for f, g in zip(flows, gens) if g == f.gen]
            self.stale -= len(flows) - len(live)
        now = self.env._now
        on = self.on
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
                elif not on[c ^ 1]:
                    self.busy_s[li] += now - self.busy_since[li]   # the link is idle now
                self.bytes[li] += nb
                self.transfers[li] += 1
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
        return (self.inflight_since, self.env._now) if self.inflight else None

    def set_link(self, li: int, bandwidth: float | None, latency: float | None) -> None:
        """Change link ``li`` from now on: flows on it are re-rated at this instant (see `_settle`);
        a new latency applies to transfers issued from now on."""
        self.modified = True
        if latency is not None:
            self.lat[li] = latency
        if bandwidth is not None:
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
            self._push(self.env._now, Wake(self._flush, None), LOW)
        else:
            self._rerate()

    def _flush(self, ev: Wake) -> None:
        self.flush_pending = False
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
            rates = [f.new for f in flows]
        now = self.env._now
        push = self._push
        cb = self._timer_cb
        timers: dict[float, Wake] = {}   # end time -> the timer of the flows ending then
        for f, r in zip(flows, rates):
            if r != f.rate:
                if f.rate > 0.0:
                    self.stale += 1   # its pending completion timer is superseded below
                    f.remaining -= f.rate * (now - f.last)
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
        if self.stale > _COMPACT_AT and 2 * self.stale > self.clock.pending():
            self._compact()

    def _fill(self, chans: list[int], cap: list[float]) -> None:
        """Progressive filling over the component's channels ``chans``: each flow's max-min fair
        rate into ``flow.new``. Rounds take the channel with the smallest fair share
        ``remaining / unfrozen flows`` (ties: the lower channel number), freeze its unfrozen flows
        at that share, and subtract it from the other channels they cross. Small components scan
        for that channel; large ones keep a heap of (share, channel). Both pick the same channel
        and do the same arithmetic in the same order, so their rates are identical."""
        on = self.on
        self._round += 1
        rnd = self._round
        rem = self._rem
        cnt = self._cnt
        live: list[int] = []
        for c in chans:
            n = len(on[c])
            cnt[c] = n
            if n:
                rem[c] = cap[c]
                live.append(c)
        if len(live) <= _SCAN_MAX:
            live.sort()   # ascending, so the first smallest share is the lowest channel
            while live:
                best = -1
                bshare = 0.0
                for c in live:
                    sh = rem[c] / cnt[c]
                    if best < 0 or sh < bshare:
                        best = c
                        bshare = sh
                for f in on[best].values():
                    if f.mark != rnd:
                        f.mark = rnd
                        f.new = bshare
                        for c2 in f.chans:
                            r = rem[c2] - bshare
                            cnt[c2] -= 1
                            floor = cap[c2] * 1e-12
                            rem[c2] = r if r > floor else floor
                cnt[best] = 0
                live = [c for c in live if cnt[c]]
            return
        heap = [(cap[c] / cnt[c], c) for c in live]
        heapify(heap)
        while heap:
            share, c = heappop(heap)
            n = cnt[c]
            if n == 0 or share != rem[c] / n:
                continue  # stale entry
            for f in on[c].values():
                if f.mark == rnd:
                    continue
                f.mark = rnd
                f.new = share
                for c2 in f.chans:
                    r = rem[c2] - share
                    n = cnt[c2] - 1
                    cnt[c2] = n
                    floor = cap[c2] * 1e-12
                    rem[c2] = r if r > floor else floor
                    if n > 0 and c2 != c:
                        heappush(heap, (rem[c2] / n, c2))
            cnt[c] = 0

    @property
    def issued(self) -> int:
        """Transfers issued so far."""
        return self.seq

    # -- metrics --------------------------------------------------------------------------------
    def busy_until_now(self, li: int) -> float:
        b = self.busy_s[li]
        if self.on[2 * li] or self.on[2 * li + 1]:
            b += self.env._now - self.busy_since[li]
        return b
