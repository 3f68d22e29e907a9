"""Simulated worker processes: the simulator-side service behind the PS coordinator (and, next, the
synchronous multi-worker strategies).

A `WorkerPool` runs one SimPy process per worker task. Each takes a unit of work from its client
when the worker is up and the client has work, runs the unit's simulated execution (a generator of
engine events: transfers, compute) at simulated time, and hands it back when it ends. Faults reach
a worker through its process: a preemption (`preemption.WorkerPreemptionHandler`) interrupts it,
the unit it was running is given back to the client to run again, and the worker stays down for
the downtime; the client may interrupt a worker itself (`interrupt`: cancel the running unit, a
parameter server that failed under it). It uses the engine's public API only (`Simulator`, its
`Clock`, SimPy's public events).

The client (strategies/cluster.py for ParameterServerStrategy) provides, as `WorkerClient` states:
what work there is (`has_work`, `take`), how a unit runs (`run`), what happens to a unit that
stops (`drop`, `requeue`, `interrupted`), and what follows a worker's going down and coming back
(`worker_down`, `worker_up`: per-worker iterators are aborted and rebuilt), and what a parameter
server's failure means to the program (`ps_failed`).
"""

from __future__ import annotations

from typing import Any, Generator, Protocol

import simpy

from .clock import Signal

__all__ = ["Preempted", "WorkerClient", "WorkerPool"]


class Preempted(Exception):
    """Raised by a unit's execution when its worker is preempted part-way (a preemption planned at
    a closure count): the worker goes down for ``downtime`` seconds and the unit runs again."""

    def __init__(self, downtime: float) -> None:
        super().__init__(downtime)
        self.downtime = downtime


class WorkerClient(Protocol):
    """What a `WorkerPool` asks of the strategy that gives it work."""

    def has_work(self) -> bool:
        """Whether a unit is waiting to be taken (a worker that is up takes it)."""

    def take(self, w: int) -> Any:
        """Take the next unit for worker ``w`` (called only when `has_work`)."""

    def run(self, w: int, unit: Any) -> Generator[Any, Any, None]:
        """The unit's execution on worker ``w``: a generator of engine events (may raise `Preempted`)."""

    def drop(self, w: int) -> Any:
        """Worker ``w`` no longer runs its unit: return it (None when it ran none)."""

    def requeue(self, unit: Any) -> None:
        """A unit lost to a preemption: run it again (TF's at-least-once rule)."""

    def interrupted(self, w: int, unit: Any, kind: str, payload: Any) -> None:
        """The client's own interrupt ``(kind, payload)`` reached worker ``w``, which ran ``unit`` (or None)."""

    def device(self, w: int) -> str:
        """The device worker ``w`` computes on (its running kernels are cut short by a preemption)."""

    def worker_down(self, w: int) -> None:
        """Worker ``w`` has just gone down."""

    def worker_up(self, w: int) -> None:
        """Worker ``w`` is back."""

    def ps_failed(self, task: int, at: float) -> Any:
        """Parameter server ``task`` failed at ``at``: apply it; return the outage (``.down``)."""


class WorkerPool:
    """``num_workers`` worker processes on simulator ``sim`` taking work from ``client``.

    `start` starts the processes (after the client can answer); `notify` wakes idle workers when
    work or a worker's state changed; `interrupt(w, kind, payload)` interrupts worker ``w``'s
    process with the client's own cause. ``faults`` (a `preemption.WorkerPreemptionHandler`) owns
    which workers are down and takes a worker down (`go_down`)."""

    def __init__(self, sim: Any, num_workers: int, client: WorkerClient, faults: Any) -> None:
        self.sim = sim
        self.env: simpy.Environment = sim.env
        self.clock = sim.clock
        self.num_workers = num_workers
        self.client = client
        self.faults = faults
        self.signal = Signal(self.env)
        self.procs: list[simpy.Process] = []
        self.running_since: dict[int, float] = {}   # worker -> when its running unit started

    def start(self) -> None:
        """Start one process per worker, in worker order."""
        for w in range(self.num_workers):
            self.procs.append(self.env.process(self._loop(w)))

    def notify(self) -> None:
        """Wake the idle workers: there may be work, or a worker came back."""
        self.signal.notify()

    def interrupt(self, w: int, kind: str, payload: Any) -> None:
        """Interrupt worker ``w``'s process with ``(kind, payload)``."""
        self.procs[w].interrupt((kind, payload))

    def _loop(self, w: int) -> Any:
        client, faults, clock = self.client, self.faults, self.clock
        down = faults.down
        while True:
            try:
                while down[w] or not client.has_work():
                    yield self.signal.wait()
                unit = client.take(w)
                self.running_since[w] = clock.now
                try:
                    yield from client.run(w, unit)
                except Preempted as p:
                    client.drop(w)
                    self._lose(w, unit)
                    yield from faults.go_down(w, p.downtime)
                client.drop(w)
                self.signal.notify()
            except simpy.Interrupt as intr:
                kind, payload = intr.cause
                running = client.drop(w)
                if kind == "preempt":
                    if running is not None:
                        self.sim.preempt_device(client.device(w))
                        self._lose(w, running)
                    yield from faults.go_down(w, payload)
                else:
                    client.interrupted(w, running, kind, payload)

    def _lose(self, w: int, unit: Any) -> None:
        """``unit`` was lost to a preemption of worker ``w``: the client runs it again; the time it
        had run is lost work."""
        self.client.requeue(unit)
        self.faults.lost_work(self.env.now - self.running_since[w])
