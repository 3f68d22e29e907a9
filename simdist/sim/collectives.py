"""All-reduce schedules, built from the engine's public kernel and flow API (`Simulator.kernel`,
`Simulator.start_flow`, `Simulator.call_at`).

Both algorithms start with one kernel launch per rank (``launch_overhead`` of each device, zero
FLOPs: the collective kernel, NCCL-style) and charge reduction arithmetic as compute on the
reducing device *without* a further launch overhead (it is fused into the collective kernel):
one FLOP per float32 element reduced, i.e. ``bytes / 4`` FLOPs. Collective kernels share the
device's FIFO queue with ordinary kernels.

``ring`` (N ranks, B bytes): the buffer is cut into N chunks of B/N bytes. In step s
(0 <= s < 2(N-1)) rank i sends one chunk to rank (i+1) mod N. The first N-1 steps are the
reduce-scatter: the receiver reduces the chunk (B/N/4 FLOPs) before forwarding it; the last N-1
are the all-gather (no arithmetic). There is no global barrier: rank i sends step s as soon as its
own send of step s-1 is done and it has received (and, in the reduce-scatter, reduced) the chunk
of step s-1. On a uniform ring with no other traffic the time is

    launch_overhead + 2(N-1) * (latency + (B/N) / bandwidth) + (N-1) * (B/N/4) / flops.

``reduce_to_one``: every other rank sends all B bytes to ``devices[0]`` at once (the flows share
the links they have in common), devices[0] reduces them ((N-1) * B/4 FLOPs), then sends B bytes
back to every other rank at once.

``all_gather`` (ring, N ranks, B bytes gathered: each rank contributes B/N): the all-gather half
of the ring above, N-1 steps of one B/N chunk per rank, no arithmetic:

    launch_overhead + (N-1) * (latency + (B/N) / bandwidth).

One rank or zero bytes: nothing to do, the event fires at once.
"""

from __future__ import annotations

import numbers
from typing import TYPE_CHECKING, Any, Iterable

from simpy.events import Event

from .network import Flow
from .topology import Device
from .trace import args_json

if TYPE_CHECKING:
    from .engine import Simulator

__all__ = ["ALGORITHMS", "all_reduce", "all_gather", "resolve_devices"]

ALGORITHMS = ("reduce_to_one", "ring")
BYTES_PER_ELEMENT = 4  # reductions are charged as float32 adds


def resolve_devices(sim: "Simulator", devices: Iterable[str | Device], field: str) -> list[Device]:
    """Devices in the given order; a set/frozenset is sorted into cluster device order (so the
    schedule never depends on hash order). A device may appear more than once (several ranks on
    one device, e.g. logical devices that share a physical one): those ranks share its kernel
    queue and exchange chunks at no cost."""
    if isinstance(devices, (str, Device)):
        raise TypeError(f"{field}: expected a list of devices, got a single device {devices!r}")
    unordered = isinstance(devices, (set, frozenset))
    out = [sim.cluster.device(d) for d in devices]
    if unordered:
        out.sort(key=lambda d: d.ordinal)
    if not out:
        raise ValueError(f"{field}: expected at least one device, got none")
    return out


def _check_bytes(nbytes: Any, field: str) -> float:
    if isinstance(nbytes, bool) or not isinstance(nbytes, numbers.Real) or not nbytes >= 0:
        raise ValueError(f"{field}: expected a number >= 0, got {nbytes!r}")
    return float(nbytes)


def all_reduce(sim: "Simulator", devices: Iterable[str | Device], nbytes: float, algorithm: str = "ring",
               name: str = "all_reduce") -> Event:
    if algorithm not in ALGORITHMS:
        raise ValueError(f"all_reduce.algorithm: unknown algorithm {algorithm!r}; known algorithms: "
                         + ", ".join(repr(a) for a in ALGORITHMS))
    devs = resolve_devices(sim, devices, "all_reduce.devices")
    b = _check_bytes(nbytes, "all_reduce.nbytes")
    sim.count_collective(algorithm)
    done = Event(sim.env)
    if len(devs) == 1 or b == 0:
        done.succeed()
        return done
    if algorithm == "ring":
        _Ring(sim, devs, b, name, algorithm, done, True).start()
    else:
        _ReduceToOne(sim, devs, b, name, algorithm, done).start()
    return done


def all_gather(sim: "Simulator", devices: Iterable[str | Device], nbytes: float, name: str = "all_gather") -> Event:
    """Every rank ends with all ``nbytes`` (each contributed nbytes/N): a ring all-gather."""
    devs = resolve_devices(sim, devices, "all_gather.devices")
    b = _check_bytes(nbytes, "all_gather.nbytes")
    sim.count_collective("all_gather")
    done = Event(sim.env)
    if len(devs) == 1 or b == 0:
        done.succeed()
        return done
    _Ring(sim, devs, b, name, "ring", done, False).start()
    return done


class _Collective:
    __slots__ = ("sim", "devs", "n", "nbytes", "name", "algorithm", "done", "t0", "flow", "red_label", "fast")

    def __init__(self, sim: "Simulator", devs: list[Device], nbytes: float, name: str, algorithm: str,
                 done: Event) -> None:
        self.sim = sim
        self.devs = devs
        self.n = len(devs)
        self.nbytes = nbytes
        self.name = name
        self.algorithm = algorithm
        self.done = done
        self.t0 = sim.now
        self.red_label = f"{name}:reduce"
        self.fast = sim.trace is None
        self.flow = sim.start_flow

    def _launch(self, i: int, callback: Any) -> None:
        sim = self.sim
        sim.call_at(sim.kernel(self.devs[i], 0.0, self.name, i, "collective"), callback, i)

    def _reduce(self, i: int, flops: float, callback: Any) -> None:
        sim = self.sim
        sim.call_at(sim.kernel(self.devs[i], flops, self.red_label, i, "collective", overhead=False), callback, i)

    def _send(self, path: Any, i: int, nbytes: float, label: str, on_done: Any, step: int) -> None:
        sim = self.sim
        if not path.chans:  # same device / same-host CPUs: instantaneous
            sim.call_at(sim.now, lambda ev: on_done(ev._value), _Instant(i))
        else:
            sim.start_flow(path, nbytes, on_done, i, label, i, "collective", f',"step":{step}')

    def _finish(self) -> None:
        sim = self.sim
        if sim.trace is not None:
            h = self.devs[0].host
            assert h is not None
            sim.trace.laned(self.name, "collective", self.t0, sim.now,
                            [(("collectives", h.index), h.index + 1, "collectives", 1_000)],
                            args_json({"algorithm": self.algorithm, "bytes": self.nbytes, "ranks": self.n}))
        self.done.succeed()


class _Instant:
    """Stands in for a Flow when a send needs no links (only ``tag`` is read)."""

    __slots__ = ("tag",)

    def __init__(self, tag: int) -> None:
        self.tag = tag


class _Ring(_Collective):
    __slots__ = ("chunk", "total", "launched", "sending", "sent", "arrived", "recvd", "reducing",
                 "finished", "left", "red_flops", "rs_label", "ag_label", "paths", "half")
    # per rank i: launched (collective kernel started), sending (a send in flight), sent (sends
    # completed), arrived (chunks received from rank i-1), recvd (chunks taken in, i.e. reduced if
    # needed), reducing (a reduction kernel queued), finished.

    def __init__(self, sim: "Simulator", devs: list[Device], nbytes: float, name: str, algorithm: str,
                 done: Event, reduce: bool) -> None:
        super().__init__(sim, devs, nbytes, name, algorithm, done)
        n = self.n
        self.chunk = self.nbytes / n
        self.total = 2 * (n - 1) if reduce else n - 1   # all-gather: the second half only
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
        self.half = n - 1 if reduce else 0   # steps that reduce what they receive
        path = self.sim.path
        self.paths = [path(self.devs[i], self.devs[i + 1 if i + 1 < n else 0]) for i in range(n)]

    def start(self) -> None:
        for i in range(self.n):
            self._launch(i, self._launched)

    def _launched(self, ev: Event) -> None:
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
                path = self.paths[i]
                if self.fast and path.chans:  # untraced: straight to the network
                    self.flow(path, self.chunk, self._sent, i)
                else:
                    self._send(path, i, self.chunk, self.rs_label if s < self.half else self.ag_label,
                               self._sent, s)
        elif self.recvd[i] == self.total and not self.finished[i]:
            self.finished[i] = True
            self.left -= 1
            if self.left == 0:
                self._finish()

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
        """Rank j takes in the chunks that arrived, in order; a reduce-scatter chunk is reduced first."""
        r = self.recvd[j]
        while r < self.arrived[j]:
            if r < self.half:
                self.recvd[j] = r
                self.reducing[j] = True
                self._reduce(j, self.red_flops, self._reduced)
                return
            r += 1
        self.recvd[j] = r
        self._advance(j)

    def _reduced(self, ev: Event) -> None:
        j = ev._value
        self.reducing[j] = False
        self.recvd[j] += 1
        self._pump(j)


class _ReduceToOne(_Collective):
    __slots__ = ("root_ready", "arrived", "returned")

    def __init__(self, *a: Any) -> None:
        super().__init__(*a)
        self.root_ready = False
        self.arrived = 0
        self.returned = 0

    def start(self) -> None:
        self._launch(0, self._root_launched)
        for i in range(1, self.n):
            self._launch(i, self._launched)

    def _root_launched(self, ev: Event) -> None:
        self.root_ready = True
        self._maybe_reduce()

    def _launched(self, ev: Event) -> None:
        i = ev._value
        path = self.sim.cluster.path(self.devs[i], self.devs[0])
        self._send(path, i, self.nbytes, f"{self.name}:reduce", self._gathered, 0)

    def _gathered(self, f: Flow | _Instant) -> None:
        self.arrived += 1
        self._maybe_reduce()

    def _maybe_reduce(self) -> None:
        if self.root_ready and self.arrived == self.n - 1:
            self._reduce(0, (self.n - 1) * self.nbytes / BYTES_PER_ELEMENT, self._reduced)

    def _reduced(self, ev: Event) -> None:
        for j in range(1, self.n):
            self._send_back(j)

    def _send_back(self, j: int) -> None:
        path = self.sim.cluster.path(self.devs[0], self.devs[j])
        self._send(path, j, self.nbytes, f"{self.name}:broadcast", self._returned, 1)

    def _returned(self, f: Flow | _Instant) -> None:
        self.returned += 1
        if self.returned == self.n - 1:
            self._finish()
