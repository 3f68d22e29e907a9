"""Analytic execution of collective plan operations (`plans`): the timing computed phase by phase
with arithmetic, booked ahead on the simulator, one wake-up per phase instead of events per chunk.

Every transfer of a phase is given, at the phase's start, the latency of its route and the rate
``min over its channels of capacity / (flows in flight there + the phase's own transfers
there)``. On an uncontended topology (no other flow on the plan's links, each channel carrying
one of the phase's transfers at a time, as a ring has) that is exactly the rate the network
model gives a flow alone on its route, and the ring recurrence below does the chunked model's
arithmetic in its order, so the finish time is bit-identical to `chunked`'s, and so are the
devices' busy times and kernel counts and the links' bytes, transfer counts and busy times
(tests/sim/test_analytic.py). Where the chunked model shares links dynamically (rings that share
a NIC, a tree's children sending to one parent, other traffic) the analytic rates are the static
shares at the phase's start: traffic that starts or ends on those links while the phase runs
changes neither the phase's times nor (since its transfers are not flows) the others' rates.
`docs/simulator.md` lists the differences measured against `chunked`.

Ring recurrence (rank i sends to i+1; c = chunk, r_i its edge's rate, l_i its latency, d_i the
reduction time of a chunk on rank i's device, L_i the time rank i is ready):
  send start  S[i,0] = L_i;  S[i,s] = max(A[i,s-1], T[i,s-1])
  arrival     A[i,s] = (S[i,s] + l_i) + c / r_i
  taken in    T[i,s] = max(A[i-1,s], T[i,s-1]) + d_i   (reducing steps; T[i,-1] = device busy-until)
              T[i,s] = max(A[i-1,s], T[i,s-1])         (other steps)
and the phase ends at max over ranks of max(A[i,last], T[i,last]). It is vectorised over the
ranks (and over the rings of a phase with the same shape): 2(n-1) NumPy steps for n ranks. When
the ranks' inputs repeat every q ranks (hosts alike), the steps run on q ranks (`_period`).
Only the recurrence runs step by step; the links' byte and busy counters and the open step's
intervals (running maxima and sums in step order) are booked a block of steps at a time
(`_Links`, `_book_block`): the same adds in the same order, a few NumPy calls per step.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np

from .chunked import BYTES_PER_ELEMENT, children
from .plans import Ring, Star, Tree
from .topology import Device

if TYPE_CHECKING:
    from .engine import Simulator

__all__ = ["run_phase"]

# An open step's breakdown gets every transfer's and kernel's interval up to this many per ring
# group (then, per step, the span from the first start to the last end: an upper bound).
_EXACT_INTERVALS = 200_000
# A ring's per-step rows are booked in blocks of at most about this many float64s per array.
_BLOCK_ELEMENTS = 1 << 18


class _Book:
    """What a phase books ahead, gathered and handed to the simulator once."""

    def __init__(self, sim: "Simulator") -> None:
        self.sim = sim
        self.links: dict[int, int] = {}        # link index -> slot
        self.lbytes: list[float] = []
        self.lbusy: list[float] = []
        self.ltransfers: list[int] = []
        self.count = 0
        self.total = 0.0
        self.compute: list[tuple[float, float]] = []
        self.inflight: list[tuple[float, float]] = []
        self.periods: dict[int, list[tuple[float, float]]] = {}   # slot -> whole-message transfers on it

    def slots(self, link_ids: tuple[int, ...]) -> list[int]:
        out = []
        for li in link_ids:
            k = self.links.get(li)
            if k is None:
                k = self.links[li] = len(self.lbytes)
                b, busy = self.sim.link_counters([li])
                self.lbytes.append(b[0])
                self.lbusy.append(busy[0])
                self.ltransfers.append(0)
            out.append(k)
        return out

    def finish(self) -> None:
        for k, iv in self.periods.items():   # a link is busy while some transfer is on it: the union
            iv.sort()
            a, b = iv[0]
            for x, y in iv[1:]:
                if x > b:
                    self.lbusy[k] += b - a
                    a, b = x, y
                elif y > b:
                    b = y
            self.lbusy[k] += b - a
        ids = list(self.links)
        self.sim.book_transfers(ids, self.lbytes, self.lbusy, self.ltransfers, self.count, self.total)
        if self.compute or self.inflight:
            self.sim.record_intervals(self.compute, self.inflight)


def _also(sim: "Simulator", paths: list[Any]) -> dict[int, int]:
    """How many of a phase's transfers cross each channel."""
    also: dict[int, int] = {}
    for p in paths:
        for c in p.chans:
            also[c] = also.get(c, 0) + 1
    return also


def run_phase(sim: "Simulator", devs: list[Device], ops: tuple, ready: list[float], name: str) -> float:
    """Book a phase's operations ahead from the ranks' ready times ``ready`` (index: rank);
    return the time the phase ends."""
    book = _Book(sim)
    paths = []
    edges: list[tuple[Any, list[tuple[Any, Any]]]] = []
    for op in ops:
        ds = [devs[r] for r in op.ranks]
        n = len(ds)
        if isinstance(op, Ring):
            e = [(ds[i], ds[i + 1 if i + 1 < n else 0]) for i in range(n)]
            pe = [sim.path(a, b) for a, b in e]
            paths += pe
            edges.append((op, pe))
        elif isinstance(op, Star):
            up = [sim.path(ds[i], ds[0]) for i in range(1, n)]
            down = [sim.path(ds[0], ds[i]) for i in range(1, n)]
            paths += up
            edges.append((op, [up, down]))
        else:
            up = [sim.path(ds[p], ds[(p - 1) // 2]) for p in range(1, n)]
            down = [sim.path(ds[(p - 1) // 2], ds[p]) for p in range(1, n)]
            paths += up if op.kind == "all_reduce" else down
            edges.append((op, [up, down]))
    also = _also(sim, paths)
    end = 0.0
    rings: dict[tuple, list[tuple[Ring, list[Any]]]] = {}
    for op, pe in edges:
        if isinstance(op, Ring):
            rings.setdefault((len(op.ranks), op.steps, op.reduce_steps, op.chunk), []).append((op, pe))
        elif isinstance(op, Star):
            end = max(end, _star(sim, devs, op, pe, also, ready, book, name))
        else:
            down_also = _also(sim, pe[1]) if op.kind == "all_reduce" else also
            end = max(end, _tree(sim, devs, op, pe, also, down_also, ready, book, name))
    for group in rings.values():
        end = max(end, _rings(sim, devs, group, also, ready, book, name))
    book.finish()
    return end


def _rings(sim: "Simulator", devs: list[Device], group: list[tuple[Ring, list[Any]]], also: dict[int, int],
           ready: list[float], book: _Book, name: str) -> float:
    """Rings of one shape, vectorised: arrays are (rings, ranks)."""
    op0 = group[0][0]
    R, n, steps, K, chunk = len(group), len(op0.ranks), op0.steps, op0.reduce_steps, op0.chunk
    ranks = [op.ranks for op, _ in group]
    ds = [[devs[r] for r in rk] for rk in ranks]
    flat = [d for row in ds for d in row]
    lat = np.empty((R, n))
    cb = np.empty((R, n))
    for a, (_, pe) in enumerate(group):
        for i, p in enumerate(pe):
            lat[a, i], rate = sim.path_share(p, also)
            cb[a, i] = chunk / rate
    red = np.array([[(chunk / BYTES_PER_ELEMENT) / d.flops for d in row] for row in ds])
    L = np.array([[ready[r] for r in rk] for rk in ranks])
    busy0, until0 = sim.kernel_state(flat)
    busy = np.array(busy0, dtype=np.float64).reshape(R, n)
    T = np.array(until0).reshape(R, n) if K else np.full((R, n), -np.inf)
    # links: for each link crossed, the (ring, rank) edges crossing it (one per direction, here)
    link_edges: dict[int, list[int]] = {}
    for a, (_, pe) in enumerate(group):
        for i, p in enumerate(pe):
            for li in p.link_ids:
                link_edges.setdefault(li, []).append(a * n + i)
    lids = list(link_edges)
    slots = book.slots(tuple(lids))
    # Ranks whose inputs repeat with period q (hosts alike, ready alike) compute alike at every
    # step (the recurrence is elementwise, plus a shift by one rank around the ring): the
    # recurrence runs on the first q ranks of each ring, and each result stands for its period.
    q = _period(n, (lat, cb, red, L, busy, T))
    full: Any = (lambda x: x) if q == n else (lambda x: np.tile(x, (1, n // q)))
    if q < n:
        lat, cb, red, L, busy, T = (x[:, :q].copy() for x in (lat, cb, red, L, busy, T))
    # Link classes: links crossed by the same reduced edges, in the same order, from the same
    # counters get the same updates; each class is computed once.
    classes: dict[tuple, int] = {}
    cls_of: list[int] = []
    cls_edges: list[tuple[int, ...]] = []
    cls_bytes: list[float] = []
    cls_busy: list[float] = []
    for k, li in enumerate(lids):
        key = (tuple((e // n) * q + e % n % q for e in link_edges[li]), book.lbytes[slots[k]], book.lbusy[slots[k]])
        c = classes.get(key)
        if c is None:
            c = classes[key] = len(cls_edges)
            cls_edges.append(key[0])
            cls_bytes.append(key[1])
            cls_busy.append(key[2])
        cls_of.append(c)
    per_link = np.array([len(e) for e in cls_edges], dtype=np.int64)
    most = int(per_link.max()) if len(per_link) else 0
    single = np.flatnonzero(per_link == 1)
    double = np.flatnonzero(per_link >= 2)   # (more than two: busy counts the first two's union)
    s1 = np.array([cls_edges[k][0] for k in single], dtype=np.int64)
    d1 = np.array([cls_edges[k][0] for k in double], dtype=np.int64)
    d2 = np.array([cls_edges[k][1] for k in double], dtype=np.int64)
    lbytes = np.array(cls_bytes)
    sbusy = np.array([cls_busy[k] for k in single])
    dbusy = np.array([cls_busy[k] for k in double])
    # bytes per link, grouped by the number of the step's transfers crossing it: each group a
    # contiguous array that gets `chunk` added that many times per step (the chunked model's
    # order of adds, without a masked add over every link per step)
    by_count = [(c, np.flatnonzero(per_link == c)) for c in range(1, most + 1)]
    by_count = [(c, idx, lbytes[idx]) for c, idx in by_count if len(idx)]
    slast = np.full(len(single), -np.inf)   # per link: the end of the busy time counted so far
    dlast = np.full(len(double), -np.inf)
    track = sim.has_open_steps
    exact_intervals = R * n * steps <= _EXACT_INTERVALS
    # The recurrence is sequential in the steps; the link bookkeeping and the step intervals are
    # not (running maxima and sums in step order), so each step's J, A (and S, start, T when
    # tracked) go to a block of rows, and a block is booked at once (`_Links.block`): a handful
    # of NumPy calls per step instead of dozens, the same arithmetic in the same order.
    width = R * q
    rows = max(1, min(steps, _BLOCK_ELEMENTS // max(1, width * (5 if track else 2), most * len(lbytes))))
    links = _Links(s1, d1, d2, sbusy, slast, dbusy, dlast, by_count, chunk)
    A = L.copy()
    Ar = np.empty((R, q))
    start = np.empty((R, q))
    S = np.empty((R, q))
    first = None
    Tred = T
    b = rows
    Jb = Ab = Sb = STb = TTb = np.empty((0, R, q))
    s0 = 0
    for s in range(steps):
        if b == rows:
            if s:
                _book_block(links, book, Jb, Ab, Sb, STb, TTb, b, s0, K, track, exact_intervals, full)
            b, s0 = 0, s
            Jb, Ab = np.empty((rows, R, q)), np.empty((rows, R, q))
            if track:
                Sb, STb, TTb = np.empty((rows, R, q)), np.empty((rows, R, q)), np.empty((rows, R, q))
        if track:
            S = Sb[b]
        if s == 0:
            S[...] = L
        else:
            np.maximum(A, T, out=S)
        J = Jb[b]
        np.add(S, lat, out=J)
        A = Ab[b]
        np.add(J, cb, out=A)
        Ar[:, 1:] = A[:, :-1]   # rank i receives what rank i-1 sent
        Ar[:, 0] = A[:, -1]
        if s < K:
            if track:
                start = STb[b]
                np.maximum(Ar, T, out=start)
                T = TTb[b]
                np.add(start, red, out=T)
            else:
                np.maximum(Ar, T, out=start)
                T = start + red
            busy += red
            Tred = T
            if first is None:
                first = start.copy()
        else:
            T = np.maximum(Ar, T)
        b += 1
    if steps:
        _book_block(links, book, Jb, Ab, Sb, STb, TTb, b, s0, K, track, exact_intervals, full)
    sbusy, dbusy = links.sbusy, links.dbusy
    for (_, idx, _), lb in zip(by_count, links.lbytes):
        lbytes[idx] = lb
    lbusy = np.empty(len(cls_edges))
    lbusy[single] = sbusy
    lbusy[double] = dbusy
    done = np.maximum(A, T)
    end = float(done.max())
    for k, slot in enumerate(slots):
        c = cls_of[k]
        book.lbytes[slot] = float(lbytes[c])
        book.lbusy[slot] = float(lbusy[c])
        book.ltransfers[slot] += steps * int(per_link[c])
    book.count += R * n * steps
    book.total += R * n * steps * chunk
    if K:
        Tred = full(Tred)
        spans = list(zip(full(first).ravel().tolist(), Tred.ravel().tolist())) if first is not None else None
        sim.book_kernels(flat, full(busy).ravel().tolist(), Tred.ravel().tolist(), K, spans, f"{name}:reduce",
                         [r for rk in ranks for r in rk])
    return end


class _Links:
    """A ring group's link counters, booked a block of steps at a time: per link class, the bytes
    (``chunk`` added once per transfer crossing, as each arrival adds), and the busy time (the
    union of the step's transfers on it: one per direction on a ring) of links crossed by one
    edge (``s1``) or two (``d1``, ``d2``: more than two count the first two's union), each with
    the end of the busy time counted so far (``slast``, ``dlast``)."""

    def __init__(self, s1: np.ndarray, d1: np.ndarray, d2: np.ndarray, sbusy: np.ndarray, slast: np.ndarray,
                 dbusy: np.ndarray, dlast: np.ndarray, by_count: list, chunk: float) -> None:
        self.s1, self.d1, self.d2 = s1, d1, d2
        self.sbusy, self.slast, self.dbusy, self.dlast = sbusy, slast, dbusy, dlast
        self.counts = [c for c, _, _ in by_count]
        self.lbytes = [lb for _, _, lb in by_count]
        self.chunk = chunk

    def block(self, J: np.ndarray, A: np.ndarray) -> None:
        """Book the steps whose transfer starts on the link (J) and arrivals (A) are the rows of
        (steps, edges) arrays, in step order: the same adds, in the same order, as a step at a time."""
        rows = J.shape[0]
        for k, c in enumerate(self.counts):
            self.lbytes[k] = _added(self.lbytes[k], self.chunk, rows * c)
        if len(self.s1):
            j, a = J[:, self.s1], A[:, self.s1]
            self.sbusy, self.slast = _busy(j, a, self.sbusy, self.slast)
        if len(self.d1):
            j1, a1, j2, a2 = J[:, self.d1], A[:, self.d1], J[:, self.d2], A[:, self.d2]
            overlap = (j2 <= a1) & (j1 <= a2)
            early = j1 <= j2
            # two busy periods per step, in time order (where the two transfers overlap, one:
            # the second is [hi, hi], which adds exactly 0.0)
            hi = np.where(overlap, np.maximum(a1, a2), np.where(early, a1, a2))
            lo = np.empty((2 * rows, j1.shape[1]))
            up = np.empty((2 * rows, j1.shape[1]))
            lo[0::2] = np.minimum(j1, j2)
            up[0::2] = hi
            lo[1::2] = np.where(overlap, hi, np.maximum(j1, j2))
            up[1::2] = np.where(overlap, hi, np.where(early, a2, a1))
            self.dbusy, self.dlast = _busy(lo, up, self.dbusy, self.dlast)


def _added(x: np.ndarray, chunk: float, times: int) -> np.ndarray:
    """x + chunk + chunk + ... (``times`` adds, one after another: float sums depend on the order)."""
    seq = np.empty((times + 1, len(x)))
    seq[0] = x
    seq[1:] = chunk
    return np.add.accumulate(seq, axis=0)[-1].copy()


def _busy(lo: np.ndarray, hi: np.ndarray, busy: np.ndarray, last: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Add the busy periods [lo, hi] (rows in time order) to links counted up to ``last``: each
    adds all of it (hi - lo, as the chunked model adds a period) when it starts after what was
    counted, else what is new; returns (busy, last) after the rows."""
    upto = np.maximum.accumulate(np.vstack([last[None, :], hi]), axis=0)   # max is exact in any order
    prev = upto[:-1]
    inc = np.where(lo >= prev, hi - lo, np.maximum(hi - prev, 0.0))
    seq = np.vstack([busy[None, :], inc])
    return np.add.accumulate(seq, axis=0)[-1].copy(), upto[-1].copy()


def _book_block(links: _Links, book: _Book, Jb: np.ndarray, Ab: np.ndarray, Sb: np.ndarray, STb: np.ndarray,
                TTb: np.ndarray, rows: int, s0: int, K: int, track: bool, exact: bool, full: Any) -> None:
    """Book rows ``[0, rows)`` of a block whose first row is step ``s0``: the links' counters and,
    in an open step, the transfers' and reductions' intervals (each one, or per step the span)."""
    links.block(Jb[:rows].reshape(rows, -1), Ab[:rows].reshape(rows, -1))
    if not track:
        return
    red = max(0, min(rows, K - s0))   # this block's reducing steps come first
    if exact:
        for b in range(red):
            book.compute += zip(full(STb[b]).ravel().tolist(), full(TTb[b]).ravel().tolist())
        for b in range(rows):
            book.inflight += zip(full(Sb[b]).ravel().tolist(), full(Ab[b]).ravel().tolist())
    else:
        if red:
            book.compute += zip(STb[:red].reshape(red, -1).min(axis=1).tolist(),
                                TTb[:red].reshape(red, -1).max(axis=1).tolist())
        book.inflight += zip(Sb[:rows].reshape(rows, -1).min(axis=1).tolist(),
                             Ab[:rows].reshape(rows, -1).max(axis=1).tolist())


def _period(n: int, arrays: tuple[np.ndarray, ...]) -> int:
    """The smallest q dividing n such that every (rings, n) array repeats every q ranks, bit for
    bit (n when none does)."""
    bits = [np.ascontiguousarray(x, dtype=np.float64).view(np.uint64) for x in arrays]   # (-0.0 is not 0.0)
    for q in range(1, n // 2 + 1):
        if n % q:
            continue
        m = n // q
        if all((b.reshape(b.shape[0], m, q) == b[:, None, :q]).all() for b in bits):
            return q
    return n


def _send(sim: "Simulator", book: _Book, path: Any, t: float, nbytes: float, also: dict[int, int]) -> float:
    """A whole-message transfer started at t: its arrival, booked."""
    lat, rate = sim.path_share(path, also)
    j = t + lat
    a = j + nbytes / rate
    if path.chans:
        for k in book.slots(path.link_ids):
            book.lbytes[k] += nbytes
            book.periods.setdefault(k, []).append((j, a))
            book.ltransfers[k] += 1
        book.count += 1
        book.total += nbytes
        if sim.has_open_steps:
            book.inflight.append((t, a))
    return a


def _reduce(sim: "Simulator", book: _Book, dev: Device, at: float, flops: float, name: str, label: int) -> float:
    """A reduction kernel booked at ``at`` (after whatever the device has queued): its end."""
    (busy,), (until,) = sim.kernel_state([dev])
    start = until if until > at else at
    dur = flops / dev.flops
    end = start + dur
    sim.book_kernels([dev], [busy + dur], [end], 1, [(start, end)], f"{name}:reduce", [label])
    if sim.has_open_steps:
        book.compute.append((start, end))
    return end


def _star(sim: "Simulator", devs: list[Device], op: Star, pe: list, also: dict[int, int], ready: list[float],
          book: _Book, name: str) -> float:
    up, down = pe
    r = op.ranks
    arrivals = [_send(sim, book, up[i - 1], ready[r[i]], op.nbytes, also) for i in range(1, len(r))]
    at = max([ready[r[0]]] + arrivals)
    red = _reduce(sim, book, devs[r[0]], at, (len(r) - 1) * op.nbytes / BYTES_PER_ELEMENT, name, r[0])
    down_also = _also(sim, down)
    return max(_send(sim, book, down[i - 1], red, op.nbytes, down_also) for i in range(1, len(r)))


def _tree(sim: "Simulator", devs: list[Device], op: Tree, pe: list, up_also: dict[int, int],
          down_also: dict[int, int], ready: list[float], book: _Book, name: str) -> float:
    up, down = pe
    r = op.ranks
    n = len(r)
    if op.kind == "all_reduce":
        arrive = [0.0] * n      # when position p's message reaches its parent
        result = 0.0
        for p in range(n - 1, -1, -1):
            ch = children(p, n)
            t = ready[r[p]]
            if ch:
                t = _reduce(sim, book, devs[r[p]], max([t] + [arrive[c] for c in ch]),
                            len(ch) * op.nbytes / BYTES_PER_ELEMENT, name, r[p])
            if p:
                arrive[p] = _send(sim, book, up[p - 1], t, op.nbytes, up_also)
            else:
                result = t
    else:
        result = ready[r[0]]
    got = [0.0] * n
    got[0] = result
    end = result
    for p in range(1, n):
        got[p] = _send(sim, book, down[p - 1], got[(p - 1) // 2], op.nbytes, down_also)
        end = max(end, got[p])
    return end
