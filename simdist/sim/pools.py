"""Pools: the same max-min rates at a cost independent of the flows in flight (see network.py's
module doc). A `Pool` holds the flows bottlenecked at one channel, sharing it equally, in virtual
time; the functions here are the network's pooled regime: moving a re-rated component that came
out pooled into pools (`enter_pools`, when `poolable`), a pool's completions (`pool_done`),
settling the pooled domain once per instant with the pooled rule checked where it can have broken
(`pflush`), and sending every pooled flow back to per-flow rating (`dissolve`)."""

from __future__ import annotations

from heapq import heappop, heappush
from typing import TYPE_CHECKING, Any

from .clock import Wake
from .flows import _SNAP, Flow

if TYPE_CHECKING:
    from .network import Network

__all__ = ["POOL_MIN", "Pool", "enter_pools", "poolable", "pool_done", "pflush", "dissolve"]

POOL_MIN = 256  # components of at least this many flows move into pools when they qualify

_REBASE = float(2**32)  # a pool's virtual time is rebased to 0 past this many bytes (precision)



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


def pool_done(net: Network, w: Wake) -> None:
    """A pool's earliest flows are done: they leave (as `_timer_cb` handles rated flows),
    then the pooled domain is settled once for the instant."""
    pool = w._value
    if w.g != pool.gen:
        net.stale -= 1
        return   # superseded
    pool.timer = False
    now = net.clock.now
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
    pending = net.flush_pending
    net.flush_pending = True   # one settle after all of them, as for a shared timer
    on = net.on
    pc = net.pc
    b = pool.c
    pd = net.pdirty
    busy_s, busy_since, nbytes, ntransfers = net.busy_s, net.busy_since, net.bytes, net.transfers
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
        net.inflight -= k   # (0 only with the last of them: the period ends with it)
        if net.inflight == 0 and net.period_sinks:
            net._period_end(now)
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
        net.inflight -= 1
        if net.inflight == 0 and net.period_sinks:
            net._period_end(now)
        if ms is not None:
            group = f.tag
            group[1] -= 1
            if group[1] == 0:
                group[0].succeed()
            continue
        f.pool = -1
        if f.hooked:
            net.finish_hook(f)
        f.on_done(f)
    pd[pool.c] = pd.get(pool.c, False)   # (its timer is set again at the settle)
    net.flush_pending = pending
    net._settle()


def pflush(net: Network) -> None:
    """Settle the pooled domain's changes of this instant: new shares, the pooled rule checked
    where it can have broken (else every pooled flow goes back to per-flow rating), new
    completion timers for the changed pools."""
    pd = net.pdirty
    net.pdirty = {}
    now = net.clock.now
    cap = net.cap
    pt = net.ptype
    pq = net.pq
    ver = net.pver
    hB, hN = net._hB, net._hN
    pools = net.pools
    rising: list[tuple[int, float]] = []    # pool channels whose share rose
    falling: list[tuple[int, float]] = []   # other channels whose share fell or that a flow joined
    pc = net.pc
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
        qn = top(net, hN, 1)
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
        qb = top(net, hB, -1)
        for c, q in falling:
            if q < qb:   # exact: no flow on c may have a pool share above c's
                for b, pool in pools.items():   # (pooled flows are not filed by channel)
                    if pq[b] > q and not _avoids(pool, c):
                        ok = False
                        break
                if not ok:
                    break
    if not ok:
        dissolve(net, now)
        return
    for c in pd:
        if pt[c] == 1:
            pool = pools[c]
            pool.q = pq[c]
            if pool.timer:
                net.stale += 1
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
                w = Wake(net._pool_cb, pool, pool.gen)
                pool.timer = True
                net._push(t, w)
            else:
                pool.v = 0.0
    if len(hB) + len(hN) > 4 * len(net._typed) + 64:
        net._hB = [e for e in hB if e[2] == ver[e[1]]]
        net._hN = [e for e in hN if e[2] == ver[e[1]]]
        net._hB.sort()
        net._hN.sort()


def top(net: Network, h: list[tuple[float, int, int]], sign: int) -> float:
    """The current extreme share of a lazy heap (``sign`` -1: the max-heap of pool channels;
    1: the min-heap of the others); +-inf when empty."""
    ver = net.pver
    pc = net.pc
    while h:
        q, c, v = h[0]
        if v == ver[c] and pc[c]:
            return q * sign
        heappop(h)
    return float("inf") * sign


def enter_pools(net: Network, flows: list[Flow], now: float) -> None:
    """Move a re-rated component whose filling came out pooled into pools."""
    pools = net.pools
    pt = net.ptype
    pd = net.pdirty
    on = net.on
    pc = net.pc
    for f in flows:
        if f.rate > 0.0:
            net.stale += 1   # its completion timer is superseded
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
                net._typed.append(c)
            pd[c] = True
    routed = net._pool_routes
    routed.clear()   # (a channel marked 2 may be a pool's now)
    net._routes_epoch += 1
    for f in flows:   # (the routes that now join their pool directly, as `_join` files them)
        b = f.bn
        if pt[b] == 1:
            for c in f.chans:
                if c != b and pt[c] != 2:
                    break
            else:
                routed[f.path] = b
    net.pooling = True
    pflush(net)


def poolable(net: Network, flows: list[Flow]) -> bool:
    """Whether a filled component came out pooled (see the module doc)."""
    on = net.on
    cap = net.cap
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


def dissolve(net: Network, now: float) -> None:
    """Every pooled flow back to per-flow rating (re-rated by progressive filling at the
    settle), every sticky pool mark forgotten."""
    net.dissolved += 1
    dirty = net.dirty
    back: list[Flow] = []
    for pool in net.pools.values():
        if pool.timer:
            net.stale += 1
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
    on = net.on
    for f in back:
        seq = f.seq
        for c in f.chans:
            on[c][seq] = f
    net.pools = {}
    pc = net.pc
    for c in net._typed:
        net.ptype[c] = 0
        net.pq[c] = 0.0
        pc[c] = 0
    net._typed = []
    net._pool_routes.clear()
    net._routes_epoch += 1
    net._hB = []
    net._hN = []
    net.pdirty = {}
    net.pooling = False
