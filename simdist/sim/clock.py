"""The one owner of absolute-time scheduling on SimPy's event queue.

SimPy schedules by delay (``env.timeout(d)`` fires at ``now + d``). The simulator needs events at
exact absolute times (a kernel's computed end, a flow's last byte), so that back-to-back work lines
up without rounding drift, and bare internal wake-ups that skip `simpy.Event`'s construction on the
hot path. Both need SimPy's private heap (``env._queue``, entries ``(time, priority, insertion id,
event)``) and id counter (``env._eid``); this module is the only one that touches them. Everyone
else (engine, network, collectives, the PS coordinator) schedules through a `Clock`.

Order of equal-time events: (time, priority, insertion id), as SimPy's own. `NORMAL` (1) is
SimPy's; `LOW` (2) runs after every NORMAL event of the same instant (the network's re-rating).
"""

from __future__ import annotations

import gc
from heapq import heapify, heappop, heappush
from typing import Any, Callable

import simpy
from simpy.core import URGENT, EventPriority, StopSimulation
from simpy.events import PENDING, Event

__all__ = ["Clock", "Wake", "Signal", "NORMAL", "LOW", "relaxed_gc"]

NORMAL = 1
LOW = 2
GC_GEN0 = 100_000   # the cyclic GC's first threshold while simulating (see relaxed_gc)


class _RelaxedGC:
    """While simulating, the cyclic GC's first threshold is at least `GC_GEN0` allocations.
    A large run keeps hundreds of thousands of flows, routes and events alive; with Python's
    default (700) the collector ran often and its full passes took ~40% of a 1,024-worker PS
    run's CPU time (docs/benchmarks.md). The simulator makes little cyclic garbage (flows and
    wake-ups are freed by reference counting), so collecting less often changes memory by at
    most the garbage of 100,000 allocations. The previous thresholds are restored on exit.
    (A class, not a generator context manager: it is entered on every drive.)"""

    __slots__ = ("old",)

    def __enter__(self) -> None:
        old = self.old = gc.get_threshold()
        if old[0] < GC_GEN0:
            gc.set_threshold(GC_GEN0, old[1], old[2])

    def __exit__(self, *exc: object) -> None:
        old = self.old
        if old[0] < GC_GEN0:
            gc.set_threshold(*old)


def relaxed_gc() -> _RelaxedGC:
    """A context in which the GC collects less often (see `_RelaxedGC`)."""
    return _RelaxedGC()


class Wake:
    """A bare internal event: what SimPy's ``Environment.step`` reads from a queued event
    (``callbacks``, ``_ok``), plus a value and, for the network's completion timers, the list of
    the flows' generations (``g``). For the simulator's own wake-ups, which user code never sees
    or yields, so it skips simpy.Event's construction."""

    __slots__ = ("callbacks", "_ok", "_value", "g")

    callbacks: Any   # (a list of callbacks; None once processed, as SimPy's)
    _ok: bool
    _value: Any
    g: Any

    def __init__(self, callback: Callable[["Wake"], None], value: Any, g: Any = 0) -> None:
        self.callbacks = [callback]
        self._ok = True
        self._value = value
        self.g = g


class Signal:
    """A re-armable wake-up for processes that wait for a condition (the PS workers waiting for
    work): `notify()` triggers the current event, at most once; `wait()` gives the event to yield,
    a fresh one once the last has fired. Waiters re-check their condition when it fires."""

    __slots__ = ("env", "event")

    env: Any
    event: Event

    def __init__(self, env: simpy.Environment) -> None:
        self.env = env
        self.event = env.event()

    def notify(self) -> None:
        """Wake the waiters (once per event: notifying twice before they run wakes them once)."""
        if self.event._value is PENDING:   # (not `triggered`, a property: this runs once per closure)
            self.event.succeed()

    def wait(self) -> Event:
        """The event to yield to be woken by the next `notify`."""
        if self.event.triggered:
            self.event = self.env.event()
        return self.event


class Clock:
    """Absolute-time scheduling on ``env`` (a simpy.Environment)."""

    __slots__ = ("env", "_q", "_eid", "push")

    env: Any
    _q: list[tuple[Any, Any, Any, Any]]   # (SimPy's heap of (time, priority, id, event))
    _eid: Any
    push: Callable[..., None]

    def __init__(self, env: simpy.Environment) -> None:
        self.env = env
        q: list[tuple[Any, Any, Any, Any]] = env._queue
        eid: Any = env._eid
        self._q = q
        self._eid = eid

        def push(t: float, event: Any, priority: int = NORMAL, heappush: Any = heappush, nxt: Any = next) -> None:
            """Queue ``event`` (a simpy Event already triggered, or a `Wake`) to be processed at
            absolute time ``t`` (>= now). (A closure over the heap: the hot path.)"""
            heappush(q, (t, priority, nxt(eid), event))

        self.push = push

    @property
    def now(self) -> float:
        return self.env._now

    # -- scheduling -------------------------------------------------------------------------------
    def at(self, t: float, value: Any = None, event: Event | None = None) -> Event:
        """A successful event (``event``, else a new one) processed at absolute time ``t``."""
        ev = Event(self.env) if event is None else event
        ev._ok = True
        ev._value = value
        heappush(self._q, (t, NORMAL, next(self._eid), ev))
        return ev

    def call_at(self, t: float, callback: Callable[[Wake], None], value: Any = None,
                priority: int = NORMAL) -> Wake:
        """Call ``callback(wake)`` at absolute time ``t`` (``wake._value`` is ``value``)."""
        w = Wake(callback, value)
        heappush(self._q, (t, priority, next(self._eid), w))
        return w

    # -- queue state --------------------------------------------------------------------------------
    def due_now(self) -> bool:
        """Whether another event is queued for the current instant."""
        q = self._q
        return bool(q) and q[0][0] <= self.env._now

    def pending(self) -> int:
        """Events still queued."""
        return len(self._q)

    @property
    def events(self) -> int:
        """Events scheduled so far (read off SimPy's insertion-id counter)."""
        r = repr(self._eid)  # "count(n)": the next id, i.e. the number scheduled so far
        return int(r[r.index("(") + 1:r.index(")")].split(",")[0])

    def compact(self, keep: Callable[[Any], bool]) -> None:
        """Drop queued events for which ``keep(event)`` is false (superseded no-op wake-ups).
        The others keep their (time, priority, id) keys, hence their order."""
        q = self._q
        live = [e for e in q if keep(e[3])]
        heapify(live)
        q[:] = live

    def entries(self) -> list[Any]:
        """The queued events, in heap (not time) order: for bookkeeping such as `compact`'s."""
        return [e[3] for e in self._q]

    # -- running ---------------------------------------------------------------------------------------
    def run_while(self, more: Callable[[], bool], stalled: Callable[[], BaseException]) -> None:
        """Process events while ``more()``; raise ``stalled()`` when none is left first. SimPy's
        `Environment.step`, inlined: this loop runs once per event of a coordinator run."""
        with relaxed_gc():
            self._run_while(more, stalled)

    def _steps(self) -> None:
        """SimPy's `Environment.step`, inlined, until the queue is empty (then it returns) or a
        callback stops the simulation (StopSimulation propagates, with SimPy's re-queueing of
        the event's later callbacks): no method call per event, which raw SimPy pays (about
        0.15 us, 5% of a chunked collective's cost per event)."""
        env = self.env
        q = self._q
        callbacks: list[Any]   # (declared for a compiled build: a list, not any iterable)
        while q:
            env._now, _, _, event = heappop(q)
            callbacks, event.callbacks = event.callbacks, None
            try:
                for callback in callbacks:
                    callback(event)
            except StopSimulation:
                event.callbacks = callbacks[callbacks.index(callback) + 1:]
                env.schedule(event, EventPriority(-1))
                raise
            if not event._ok and not hasattr(event, "_defused"):
                exc = type(event._value)(*event._value.args)
                exc.__cause__ = event._value
                raise exc

    def run_until(self, until: Event) -> Any:
        """``env.run(until=until)`` for an event not yet processed (`_steps`): the same stop,
        the same errors, the same events. `Simulator.drive` runs every synchronous step so."""
        until.callbacks.append(StopSimulation.callback)
        try:
            self._steps()
        except StopSimulation as stop:
            return stop.args[0]
        raise RuntimeError(f'No scheduled events left but "until" event was not triggered: {until}')

    def run(self, until: float | None = None) -> Any:
        """``env.run(until)`` for ``until`` None (until no event is left) or a time (`_steps`):
        the same stop event (URGENT, scheduled as SimPy schedules it), the same errors."""
        env = self.env
        if until is None:
            try:
                self._steps()
            except StopSimulation as stop:
                return stop.args[0]
            return None
        at = until if isinstance(until, int) else float(until)
        if at <= env.now:
            raise ValueError(f"until ({at}) must be greater than the current simulation time")
        ev = Event(env)
        ev._ok = True
        ev._value = None
        env.schedule(ev, URGENT, at - env.now)
        return self.run_until(ev)

    def _run_while(self, more: Callable[[], bool], stalled: Callable[[], BaseException]) -> None:
        env = self.env
        q = self._q
        callbacks: list[Any]
        while more():
            if not q:
                raise stalled()
            env._now, _, _, event = heappop(q)
            callbacks, event.callbacks = event.callbacks, None
            try:
                for callback in callbacks:
                    callback(event)
            except StopSimulation:
                event.callbacks = callbacks[callbacks.index(callback) + 1:]
                env.schedule(event, EventPriority(-1))
                raise
            if not event._ok and not hasattr(event, "_defused"):
                exc = type(event._value)(*event._value.args)
                exc.__cause__ = event._value
                raise exc
