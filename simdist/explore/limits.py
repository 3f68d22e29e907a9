"""Stop a run that does not end: a watchdog thread checks the wall clock and the simulated clock
of the run in progress and, past a limit, raises `LimitExceeded` in the running thread.

The simulation itself is not touched (no extra event on its queue, which would change the
`events` metric and so the run's digest): the watchdog polls the session's simulator clock from
another thread and interrupts with ``PyThreadState_SetAsyncExc``, which works in the main
thread of a process-pool worker as in a Dask worker's thread. `LimitExceeded` derives from
BaseException so that no ``except Exception`` on the way (an application error handler in the
coordinator) mistakes it for an error of the simulated program.
"""

from __future__ import annotations

import ctypes
import threading
import time
from typing import Any, Callable

__all__ = ["LimitExceeded", "watch"]


class LimitExceeded(BaseException):
    """A run passed its wall-clock or simulated-time limit (the message says which)."""


def _clock() -> float | None:
    from simdist import session
    sim = getattr(session._m, "sim", None)   # the running simulation's, without creating one
    return None if sim is None else float(sim.now)


class watch:
    """``with watch(max_wall_s, max_sim_s): run(...)``: raises LimitExceeded in this thread when
    the run inside takes longer than ``max_wall_s`` seconds of wall time or its simulated clock
    passes ``max_sim_s``. ``reason`` says which limit stopped it."""

    POLL_S = 0.05

    def __init__(self, max_wall_s: float, max_sim_s: float, clock: Callable[[], float | None] = _clock) -> None:
        self.max_wall_s, self.max_sim_s, self.clock = max_wall_s, max_sim_s, clock
        self.reason: str | None = None
        self._stop = threading.Event()
        self._target = threading.get_ident()
        self._thread: threading.Thread | None = None

    def __enter__(self) -> "watch":
        self._t0 = time.monotonic()
        self._thread = threading.Thread(target=self._run, name="simdist-explore-watchdog", daemon=True)
        self._thread.start()
        return self

    def _run(self) -> None:
        while not self._stop.wait(self.POLL_S):
            wall = time.monotonic() - self._t0
            now = self.clock()
            if wall > self.max_wall_s:
                self.reason = (f"did not end within the wall-time limit of {self.max_wall_s:g} s"
                               + (f" (simulated clock at {now:.6g} s)" if now is not None else ""))
            elif now is not None and now > self.max_sim_s:
                self.reason = f"simulated clock passed the limit of {self.max_sim_s:.6g} s (at {now:.6g} s)"
            if self.reason is not None:
                ctypes.pythonapi.PyThreadState_SetAsyncExc(ctypes.c_ulong(self._target),
                                                           ctypes.py_object(LimitExceeded))
                return

    def __exit__(self, *exc: Any) -> None:
        self._stop.set()
        assert self._thread is not None
        self._thread.join()
        if self.reason is not None and exc[0] is None:
            # the limit fired as the run was ending: clear a pending async exception, report it anyway
            ctypes.pythonapi.PyThreadState_SetAsyncExc(ctypes.c_ulong(self._target), None)
