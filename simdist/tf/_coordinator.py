"""tf.train.Coordinator (names44, clause api.namespaces): TF 2.21's training/coordinator.py, which coordinates the
program's own Python threads (no TF op runs in it).

Transcribed: request_stop (the first exception reported is kept, a clean-stop type — OutOfRangeError by default —
is not one; after join a reported exception is raised at once), clear_stop, should_stop, stop_on_exception,
wait_for_stop, register_thread, join (wait for the threads or a stop request, then a grace period for the threads
still alive, then the kept exception or RuntimeError "Coordinator stopped with threads still running: <names>",
logged instead with ignore_live_threads), joined, raise_requested_exception. The waits are on the host's threads,
as TF's are (wait_for_stop's timeout, join's doubling sleeps up to stop_grace_period_secs): they produce no value,
only whether a thread that never stops is reported; the stragglers are listed in registration order, then the
order of `threads` (TF lists them in a set's order).
"""

from __future__ import annotations

import contextlib
import logging
import sys
import threading
import time
from typing import Any

_log = logging.getLogger("tensorflow")


class Coordinator:
    """tf.train.Coordinator(clean_stop_exception_types=None)."""

    def __init__(self, clean_stop_exception_types: Any = None) -> None:
        if clean_stop_exception_types is None:
            from simdist.runtime import errors
            clean_stop_exception_types = (errors.OutOfRangeError,)
        self._clean_stop_exception_types = tuple(clean_stop_exception_types)
        self._lock = threading.Lock()
        self._stop_event = threading.Event()
        self._exc_info_to_raise: Any = None
        self._joined = False
        self._registered_threads: dict = {}   # (insertion-ordered: TF's set)

    def _filter_exception(self, ex: Any) -> Any:
        ex2 = ex[1] if isinstance(ex, tuple) else ex
        if isinstance(ex2, self._clean_stop_exception_types):
            ex = None
        return ex

    def request_stop(self, ex: Any = None) -> None:
        with self._lock:
            ex = self._filter_exception(ex)
            if self._joined:
                if isinstance(ex, tuple):
                    _, ex_instance, _ = ex
                    raise ex_instance
                if ex is not None:
                    _, ex_instance, _ = sys.exc_info()
                    raise ex_instance
            if not self._stop_event.is_set():
                if ex and self._exc_info_to_raise is None:
                    if isinstance(ex, tuple):
                        _log.info("Error reported to Coordinator: %s", str(ex[1]), exc_info=ex)
                        self._exc_info_to_raise = ex
                    else:
                        _log.info("Error reported to Coordinator: %s, %s", type(ex), str(ex))
                        self._exc_info_to_raise = sys.exc_info()
                    if (len(self._exc_info_to_raise) != 3 or not self._exc_info_to_raise[0]
                            or not self._exc_info_to_raise[1]):
                        try:
                            # (TF formats the tuple itself with %: a 3-tuple is %'s TypeError "not all arguments
                            # converted during string formatting", raised past the except; kept)
                            raise ValueError("ex must be a tuple or sys.exc_info must return the current exception: "
                                             "%s" % self._exc_info_to_raise)
                        except ValueError:
                            self._exc_info_to_raise = sys.exc_info()
                self._stop_event.set()

    def clear_stop(self) -> None:
        with self._lock:
            self._joined = False
            self._exc_info_to_raise = None
            if self._stop_event.is_set():
                self._stop_event.clear()

    def should_stop(self) -> bool:
        return self._stop_event.is_set()

    @contextlib.contextmanager
    def stop_on_exception(self) -> Any:
        try:
            yield
        except:  # noqa: E722 - TF's bare except: any exception requests the stop
            self.request_stop(ex=sys.exc_info())

    def wait_for_stop(self, timeout: Any = None) -> bool:
        return self._stop_event.wait(timeout)

    def register_thread(self, thread: Any) -> None:
        with self._lock:
            self._registered_threads[thread] = None

    def join(self, threads: Any = None, stop_grace_period_secs: float = 120, ignore_live_threads: bool = False) -> None:
        with self._lock:
            ordered = dict(self._registered_threads)
            if threads is not None:
                for t in threads:
                    ordered[t] = None
            threads = list(ordered)
        while any(t.is_alive() for t in threads) and not self.wait_for_stop(1.0):
            pass
        stop_wait_secs = 0.001
        while any(t.is_alive() for t in threads) and stop_grace_period_secs >= 0.0:
            time.sleep(stop_wait_secs)
            stop_grace_period_secs -= stop_wait_secs
            stop_wait_secs = 2 * stop_wait_secs
            stop_wait_secs = max(min(stop_wait_secs, stop_grace_period_secs), 0.001)
        stragglers = [t.name for t in threads if t.is_alive()]
        with self._lock:
            self._joined = True
            self._registered_threads = {}
            if self._exc_info_to_raise:
                _, ex_instance, _ = self._exc_info_to_raise
                raise ex_instance
            if stragglers:
                if ignore_live_threads:
                    _log.info("Coordinator stopped with threads still running: %s", " ".join(stragglers))
                else:
                    raise RuntimeError("Coordinator stopped with threads still running: %s" % " ".join(stragglers))

    @property
    def joined(self) -> bool:
        return self._joined

    def raise_requested_exception(self) -> None:
        with self._lock:
            if self._exc_info_to_raise:
                _, ex_instance, _ = self._exc_info_to_raise
                raise ex_instance
