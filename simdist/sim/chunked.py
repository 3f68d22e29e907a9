"""Chunked execution of collective plan operations (`plans`): every chunk a network flow, every
reduction a kernel, events as they happen (the reference fidelity).

Each executor runs one operation over its ranks' devices and calls ``on_done()`` when every
rank has finished. With ``launch`` each rank first runs the collective kernel (launch overhead,
zero FLOPs, NCCL-style); later phases of a plan start already launched. Reduction arithmetic is
charged as compute on the reducing device without a further launch overhead (fused into the
collective kernel): ``bytes / 4`` FLOPs (float32 adds). Collective kernels share each device's
FIFO queue with ordinary kernels.

Ring (n ranks, chunk c = nbytes / n, ``steps`` steps of which the first ``reduce_steps`` reduce
what they receive): in step s rank i sends one chunk to rank i+1. There is no global barrier:
rank i sends step s as soon as its own send of step s-1 is done and it has received (and, while
reducing, reduced) the chunk of step s-1.
Star (reduce-to-one): every other rank sends all bytes to ranks[0] at once, which reduces them
((n-1) x bytes/4 FLOPs) and sends the result back to every rank at once.
Tree: a rank whose children's messages have all arrived reduces them (children x bytes/4 FLOPs)
and sends the result to its parent; the root's result (or, for a broadcast, its buffer) is sent
down, each rank forwarding to its children on arrival.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable

from .clock import Clock
from .kernels import KernelBook
from .flows import Flow
from .network import Network
from .topology import Device
from .trace import Route, Tracer

if TYPE_CHECKING:
    from .engine import Simulator

__all__ = ["RingExec", "StarExec", "TreeExec", "BYTES_PER_ELEMENT", "ring_paths"]

BYTES_PER_ELEMENT = 4  # reductions are charged as float32 adds


class _Instant:
    """Stands in for a Flow when a send needs no links (only ``tag`` is read)."""

    __slots__ = ("tag",)

    def __init__(self, tag: int) -> None:
        self.tag = tag


class _Exec:
    __slots__ = ("sim", "devs", "labels", "n", "nbytes", "name", "on_done", "launch", "red_label", "fast",
                 "tr", "kb", "clock", "net")

    tr: Tracer | None
    kb: KernelBook
    clock: Clock
    net: Network

    def __init__(self, sim: "Simulator", devs: list[Device], labels: list[int], nbytes: float, name: str,
                 launch: bool, on_done: Callable[[], None]) -> None:
        self.sim = sim
        self.devs = devs
        self.labels = labels   # the rank each device is in the whole collective (trace labels)
        self.n = len(devs)
        self.nbytes = nbytes
        self.name = name
        self.launch = launch
        self.on_done = on_done
        self.red_label = f"{name}:reduce"
        self.tr = sim.tracer()   # (traced: kernels booked and flows started through it, with their spans)
        self.fast = self.tr is None
        self.kb = sim.kernel_book()   # (untraced: kernels booked directly; devices and FLOPs checked once, by the collective)
        self.clock = sim.clock
        self.net = sim.network()

    def _launch(self, i: int, callback: Any) -> None:
        if self.launch:
            tr = self.tr
            if tr is None:
                end = self.kb.book(self.devs[i], 0.0, True)
            else:
                end = tr.kernel(self.devs[i], 0.0, True, self.name, self.labels[i], "collective")
            self.clock.call_at(end, callback, i)
        else:
            self.clock.call_at(self.sim.now, callback, i)

    def _reduce(self, i: int, flops: float, callback: Any) -> None:
        tr = self.tr
        if tr is None:
            end = self.kb.book(self.devs[i], flops, False)
        else:
            end = tr.kernel(self.devs[i], flops, False, self.red_label, self.labels[i], "collective")
        self.clock.call_at(end, callback, i)

    def _send(self, path: Any, i: int, nbytes: float, label: str, on_done: Any, step: int) -> None:
        sim = self.sim
        if not path.chans:  # same device / same-host CPUs: instantaneous
            sim.call_at(sim.now, lambda ev: on_done(ev._value), _Instant(i))
        else:
            tr = self.tr
            if tr is None:
                sim.start_flow(path, nbytes, on_done, i, label, self.labels[i], "collective", f',"step":{step}')
            else:
                tr.start_flow(path, nbytes, on_done, i, label, self.labels[i], "collective", tr.step(step))


class RingExec(_Exec):
    __slots__ = ("chunk", "total", "launched", "sending", "sent", "arrived", "recvd", "reducing",
                 "finished", "left", "red_flops", "rs_label", "ag_label", "paths", "half", "direct", "sent_cb",
                 "reduced_cb", "rs_pre", "ag_pre", "red_pre", "routes", "traced", "heads", "red_tail")

    rs_pre: list[str]   # traced: each rank's span prefixes (reduce-scatter, all-gather sends; reductions)
    ag_pre: list[str]
    red_pre: list[str]
    routes: list[Route]   # traced: each rank's route to the next (`Tracer.route`)
    heads: list[str]   # traced: each rank's chunk arguments but the step (`Tracer.send_head`)
    red_tail: str   # traced: a reduction span's end (`Tracer.flops_tail`)
    # per rank i: launched (collective kernel started), sending (a send in flight), sent (sends
    # completed), arrived (chunks received from rank i-1), recvd (chunks taken in, i.e. reduced if
    # needed), reducing (a reduction kernel queued), finished.

    def __init__(self, sim: "Simulator", devs: list[Device], labels: list[int], nbytes: float, name: str,
                 launch: bool, on_done: Callable[[], None], steps: int, reduce_steps: int,
                 paths: list[Any] | None = None) -> None:
        super().__init__(sim, devs, labels, nbytes, name, launch, on_done)
        n = self.n
        self.chunk = self.nbytes / n
        self.total = steps
        self.launched = [False] * n
        self.sending = [False] * n
        self.sent = [0] * n
        self.arrived = [0] * n
        self.recvd = [0] * n
        self.reducing = [False] * n
        self.finished = [False] * n
        self.left = n
        self.red_flops = self.chunk / BYTES_PER_ELEMENT
        self.rs_label = f"{self.name}:reduce_scatter"
        self.ag_label = f"{self.name}:all_gather"
        self.half = reduce_steps   # steps that reduce what they receive
        self.paths = paths if paths is not None else ring_paths(sim, devs)   # rank i -> i+1 (read only)
        fast = self.fast
        self.direct = [fast and bool(p.chans) for p in self.paths]   # untraced sends with links: to the network
        tr = self.tr
        self.traced = [tr is not None and bool(p.chans) for p in self.paths]   # traced sends with links: `Tracer.send`
        if tr is not None:   # (formatted once per rank, not per chunk)
            self.rs_pre = [tr.prefix(self.rs_label, r, "collective") for r in labels]
            self.ag_pre = [tr.prefix(self.ag_label, r, "collective") for r in labels]
            self.red_pre = [tr.prefix(self.red_label, r, "collective") for r in labels]
            self.routes = [tr.route(p) for p in self.paths]
            self.heads = [tr.send_head(r, self.chunk) for r in self.routes]
            self.red_tail = tr.flops_tail(self.red_flops)
        # (bound once; the cycle through self is broken when the ring finishes)
        self.sent_cb: Callable[[Any], None] = self._sent
        self.reduced_cb: Callable[[Any], None] = self._reduced

    def start(self) -> None:
        for i in range(self.n):
            self._launch(i, self._launched)

    def _launched(self, ev: Any) -> None:
        i = ev._value
        self.launched[i] = True
        self._advance(i)

    def _advance(self, i: int) -> None:
        """Rank i sends its next chunk if it may (own previous send done, previous chunk received
        and reduced), or finishes when it has sent and received everything."""
        s = self.sent[i]
        if s < self.total:
            if not self.sending[i] and self.launched[i] and self.recvd[i] >= s:
                self.sending[i] = True
                if self.direct[i]:  # untraced: straight to the network
                    self.net.start(self.paths[i], self.chunk, self.sent_cb, i)
                else:
                    tr = self.tr
                    if tr is not None and self.traced[i]:   # traced: the span's pieces made once
                        tr.send(self.paths[i], self.routes[i], self.chunk, self.sent_cb, i,
                                self.rs_pre[i] if s < self.half else self.ag_pre[i], self.heads[i], s)
                    else:
                        self._send(self.paths[i], i, self.chunk, self.rs_label if s < self.half else self.ag_label,
                                   self.sent_cb, s)
        elif self.recvd[i] == self.total and not self.finished[i]:
            self.finished[i] = True
            self.left -= 1
            if self.left == 0:
                self.sent_cb = self.reduced_cb = _ignore
                self.on_done()

    def _sent(self, f: Flow | _Instant) -> None:
        i = f.tag
        self.sending[i] = False
        self.sent[i] += 1
        j = i + 1 if i + 1 < self.n else 0
        self.arrived[j] += 1
        if not self.reducing[j]:
            self._pump(j)
        self._advance(i)

    def _pump(self, j: int) -> None:
        """Rank j takes in the chunks that arrived, in order; a reducing step's chunk is reduced first."""
        r = self.recvd[j]
        while r < self.arrived[j]:
            if r < self.half:
                self.recvd[j] = r
                self.reducing[j] = True
                tr = self.tr
                if tr is None:
                    self._reduce(j, self.red_flops, self.reduced_cb)
                else:   # traced: the span's prefix made once
                    self.clock.call_at(tr.kernel_p(self.devs[j], self.red_flops, False, self.red_pre[j],
                                                   self.red_tail), self.reduced_cb, j)
                return
            r += 1
        self.recvd[j] = r
        self._advance(j)

    def _reduced(self, ev: Any) -> None:
        j = ev._value
        self.reducing[j] = False
        self.recvd[j] += 1
        self._pump(j)


class StarExec(_Exec):
    __slots__ = ("root_ready", "arrived", "returned")

    def __init__(self, sim: "Simulator", devs: list[Device], labels: list[int], nbytes: float, name: str,
                 launch: bool, on_done: Callable[[], None]) -> None:
        super().__init__(sim, devs, labels, nbytes, name, launch, on_done)
        self.root_ready = False
        self.arrived = 0
        self.returned = 0

    def start(self) -> None:
        self._launch(0, self._root_launched)
        for i in range(1, self.n):
            self._launch(i, self._launched)

    def _root_launched(self, ev: Any) -> None:
        self.root_ready = True
        self._maybe_reduce()

    def _launched(self, ev: Any) -> None:
        i = ev._value
        path = self.sim.path(self.devs[i], self.devs[0])
        self._send(path, i, self.nbytes, f"{self.name}:reduce", self._gathered, 0)

    def _gathered(self, f: Flow | _Instant) -> None:
        self.arrived += 1
        self._maybe_reduce()

    def _maybe_reduce(self) -> None:
        if self.root_ready and self.arrived == self.n - 1:
            self._reduce(0, (self.n - 1) * self.nbytes / BYTES_PER_ELEMENT, self._reduced)

    def _reduced(self, ev: Any) -> None:
        for j in range(1, self.n):
            self._send_back(j)

    def _send_back(self, j: int) -> None:
        path = self.sim.path(self.devs[0], self.devs[j])
        self._send(path, j, self.nbytes, f"{self.name}:broadcast", self._returned, 1)

    def _returned(self, f: Flow | _Instant) -> None:
        self.returned += 1
        if self.returned == self.n - 1:
            self.on_done()


class TreeExec(_Exec):
    """Binary tree over positions 0..n-1: parent of p is (p-1)//2."""

    __slots__ = ("reduce", "launched", "waiting", "received", "left")

    def __init__(self, sim: "Simulator", devs: list[Device], labels: list[int], nbytes: float, name: str,
                 launch: bool, on_done: Callable[[], None], reduce: bool) -> None:
        super().__init__(sim, devs, labels, nbytes, name, launch, on_done)
        n = self.n
        self.reduce = reduce
        self.launched = [False] * n
        self.waiting = [len(children(p, n)) for p in range(n)]   # children's messages still to come
        self.received = [False] * n
        self.left = n - 1   # ranks still to receive the result

    def start(self) -> None:
        for i in range(self.n):
            self._launch(i, self._launched)

    def _launched(self, ev: Any) -> None:
        p = ev._value
        self.launched[p] = True
        if self.reduce:
            self._up(p)
        elif p == 0:
            self._down(0)

    def _up(self, p: int) -> None:
        """Rank p reduces its children's messages once they and its own launch are in, then
        sends up (the root turns around and sends down)."""
        if not self.launched[p] or self.waiting[p]:
            return
        k = len(children(p, self.n))
        if k:
            self._reduce(p, k * self.nbytes / BYTES_PER_ELEMENT, self._reduced)
        else:
            self._reduced_at(p)

    def _reduced(self, ev: Any) -> None:
        self._reduced_at(ev._value)

    def _reduced_at(self, p: int) -> None:
        if p == 0:
            self._down(0)
        else:
            self._send(self.sim.path(self.devs[p], self.devs[(p - 1) // 2]), p, self.nbytes,
                       f"{self.name}:reduce", self._arrived_up, 0)

    def _arrived_up(self, f: Flow | _Instant) -> None:
        parent = (f.tag - 1) // 2
        self.waiting[parent] -= 1
        self._up(parent)

    def _down(self, p: int) -> None:
        for c in children(p, self.n):
            self._send(self.sim.path(self.devs[p], self.devs[c]), c, self.nbytes, f"{self.name}:broadcast",
                       self._arrived_down, 1)
        if self.n == 1:
            self.on_done()

    def _arrived_down(self, f: Flow | _Instant) -> None:
        c = f.tag
        self.received[c] = True
        self.left -= 1
        if self.left == 0:
            self.on_done()
        else:
            self._down(c)


def _ignore(x: Any) -> None:
    """A finished ring's callbacks (none is called: every send and reduction has ended)."""


def ring_paths(sim: "Simulator", devs: list[Device]) -> list[Any]:
    """The route from each rank of a ring to the next."""
    path = sim.cluster.path
    n = len(devs)
    return [path(devs[i], devs[i + 1 if i + 1 < n else 0]) for i in range(n)]


def children(p: int, n: int) -> list[int]:
    return [c for c in (2 * p + 1, 2 * p + 2) if c < n]
