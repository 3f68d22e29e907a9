"""The devices' kernel queues: per-device booking state and arithmetic (compiled with the
simulator's hot modules, see `_native`).

Each device runs one kernel at a time, first come first served: a kernel starts at max(now, the
end of the device's previous kernel) and lasts ``flops * slowdown / device.flops`` plus the
device's launch overhead (unless omitted). `KernelBook.book` books one and returns its end;
the open steps (``with sim.step(...)``) receive its interval. The Simulator owns one book and
keeps its public API (`Simulator.compute`, `kernel`, tracing) in pure Python around it;
chunked collectives call `KernelBook.book` directly when tracing is off.
"""

from __future__ import annotations

from typing import Any

from .clock import Clock
from .metrics import StepRecord

__all__ = ["KernelBook"]


class KernelBook:
    """Booking state of ``n`` devices (by ordinal): busy-until time, busy seconds, kernels
    booked; the latest end of any kernel; straggler windows (``slow[o]``: (factor, start, end
    or None) windows of device o, or None); the open steps' records (``steps``, shared with the
    Simulator and the network). ``last_start`` is the start of the kernel booked last."""

    __slots__ = ("clock", "busy_until", "busy_s", "kernels", "max_busy", "slow", "steps", "last_start")

    clock: Clock
    busy_until: list[float]
    busy_s: list[float]
    kernels: list[int]
    max_busy: float
    slow: Any   # list[list[tuple[float, float, float | None]] | None] | None
    steps: list[StepRecord]
    last_start: float

    def __init__(self, clock: Clock, n: int) -> None:
        self.clock = clock   # (its `now` is the current time)
        self.busy_until = [0.0] * n
        self.busy_s = [0.0] * n
        self.kernels = [0] * n
        self.max_busy = 0.0
        self.slow = None
        self.steps = []
        self.last_start = 0.0

    def book(self, d: Any, flops: float, overhead: Any) -> float:
        """Book a kernel of ``flops`` FLOPs (checked by the caller) on Device ``d``; returns its
        end time (its start is then in ``last_start``). ``overhead``: whether to add the device's
        launch overhead (any truth value, as the caller's)."""
        o: int = d.ordinal
        now: float = self.clock.now
        bu = self.busy_until[o]
        start = bu if bu > now else now
        rate: float = d.flops   # (Device figures are floats: units.parse_rate, parse_time)
        slow = self.slow
        if slow is not None and slow[o] is not None:
            f = 1.0
            for k, a, b in slow[o]:
                if a <= start and (b is None or start < b):
                    f *= k
            dur = flops * f / rate
        else:
            dur = flops / rate
        if overhead:
            lo: float = d.launch_overhead
            dur += lo
        end = start + dur
        self.busy_until[o] = end
        if end > self.max_busy:
            self.max_busy = end
        self.busy_s[o] += dur
        self.kernels[o] += 1
        if self.steps:
            for st in self.steps:
                st.add_compute(start, end)
        self.last_start = start
        return end
