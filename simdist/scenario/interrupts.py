"""Interrupts (Ctrl-C, SIGTERM) for the commands: both end the command the same way, as a
KeyboardInterrupt, so that every `finally` runs (child processes ended, temporary files removed)
and the CLI exits 130 with one line saying what was kept and how to resume (`note`).

A command states, as it goes, what an interrupt would leave behind (`set_note`); the CLI prints
the last note. Cleanup that must not itself be interrupted by a second Ctrl-C runs `shielded`."""

from __future__ import annotations

import _thread
import contextlib
import os
import signal
import sys
import threading
import time
from typing import Any, Iterator

__all__ = ["set_note", "note", "sigterm_as_interrupt", "shielded", "ignore_interrupts", "saved_handlers",
           "ignore_in_worker", "forget_handled_interrupt", "DEFAULT_NOTE"]

DEFAULT_NOTE = "nothing was written"
_note = [DEFAULT_NOTE]


def set_note(text: str) -> None:
    """What an interrupt from now on would keep, and how to resume (one clause, no full stop)."""
    _note[0] = text


def note() -> str:
    return _note[0]


def _main_thread() -> bool:
    return threading.current_thread() is threading.main_thread()


def _raise_interrupt(signum: int, frame: Any) -> None:
    raise KeyboardInterrupt(signal.Signals(signum).name)


class _Dropped:
    """An interrupt Python dropped (see `_redelivering`), owed to the main thread exactly once:
    by the thread that re-raises it soon, or, if the command's block ends first, at its end."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._owed: int | None = None

    def owe(self, signum: int) -> bool:
        """Record a dropped interrupt; True if none was owed already (start a deliverer)."""
        with self._lock:
            first = self._owed is None
            self._owed = signum
            return first

    def take(self) -> int | None:
        """The owed signal, now no longer owed (whoever takes it delivers it), or None."""
        with self._lock:
            signum, self._owed = self._owed, None
            return signum


def _interrupt_main_soon(dropped: _Dropped) -> None:
    time.sleep(0.01)   # the main thread leaves the hook first
    signum = dropped.take()
    if signum is not None:
        _thread.interrupt_main(signum)


def _redelivering(previous: Any, dropped: _Dropped) -> Any:
    """A `sys.unraisablehook` that hands a swallowed interrupt back to the main thread.

    Python runs signal handlers between any two bytecodes, so Ctrl-C can raise its
    KeyboardInterrupt inside code whose exceptions Python only reports and drops: a `gc.callbacks`
    entry (simdist/runtime/gc_phase.py runs at every collection), a `__del__`, a weakref callback.
    The interrupt was then lost and the command ran on (an exploration of 400 plans ignored its
    Ctrl-C). The same signal is simulated again (`_thread.interrupt_main`: nothing happens if the
    signal is ignored by then, during cleanup) from a short-lived thread, a moment later: called
    here, its handler would run at once, inside this hook, and be dropped again; this way it runs
    when the main thread next checks for signals, out of the hook (and, should that again be
    inside such code, this hook hands it on once more). On a loaded machine that thread may get
    its turn only after the command has finished; the interrupt is then raised as the command's
    block ends (`sigterm_as_interrupt`), so a dropped Ctrl-C always ends the command as
    interrupted (exit 130), never as a success. The delay decides only when the command stops,
    never a result."""
    def hook(unraisable: Any) -> None:
        exc = unraisable.exc_value
        if isinstance(exc, KeyboardInterrupt):
            name = exc.args[0] if exc.args and isinstance(exc.args[0], str) else ""
            signum = getattr(signal, name, signal.SIGINT) if name.startswith("SIG") else signal.SIGINT
            if dropped.owe(int(signum)):
                _thread.start_new_thread(_interrupt_main_soon, (dropped,))   # (threading's start() would wait)
            return
        previous(unraisable)
    return hook


@contextlib.contextmanager
def sigterm_as_interrupt() -> Iterator[None]:
    """Within the block SIGTERM raises KeyboardInterrupt like Ctrl-C (the default would end the
    process at once: no cleanup, pool workers orphaned, half-written files), and an interrupt
    raised where Python would drop it (a gc callback, a finalizer) is delivered again."""
    if not _main_thread():
        yield
        return
    _note[0] = DEFAULT_NOTE
    old = signal.signal(signal.SIGTERM, _raise_interrupt)
    old_hook = sys.unraisablehook
    dropped = _Dropped()
    sys.unraisablehook = _redelivering(old_hook, dropped)
    try:
        yield
    finally:   # owed no longer: if the block is ending by an exception, the command is ending anyway
        owed = dropped.take()
        sys.unraisablehook = old_hook
        signal.signal(signal.SIGTERM, old)
    if owed is not None:
        raise KeyboardInterrupt(signal.Signals(owed).name)


@contextlib.contextmanager
def shielded() -> Iterator[None]:
    """Ignore SIGINT and SIGTERM during cleanup after a first interrupt (a second Ctrl-C must not
    abandon the cleanup half-way, e.g. leave pool workers running); restored afterwards."""
    if not _main_thread():
        yield
        return
    old = {s: signal.signal(s, signal.SIG_IGN) for s in (signal.SIGINT, signal.SIGTERM)}
    try:
        yield
    finally:
        for s, h in old.items():
            signal.signal(s, h)


def ignore_interrupts() -> None:
    """Ignore SIGINT and SIGTERM from now on (a command that has been interrupted and cleaned up)."""
    if _main_thread():
        for s in (signal.SIGINT, signal.SIGTERM):
            signal.signal(s, signal.SIG_IGN)


def forget_handled_interrupt() -> None:
    """Tell CPython the interrupt was handled. A KeyboardInterrupt that ends code run by `exec` of
    a string (dataclasses and namedtuples build their methods that way, so an import interrupted
    at the wrong instant is one) sets the interpreter's "unhandled interrupt" flag even when a
    caller catches it; under `python -m` the interpreter then kills itself with SIGINT at exit
    (exit -2, not 130). Every string `exec` clears the flag when it starts (CPython's
    run_eval_code_obj), so an empty one does."""
    exec("", {})


@contextlib.contextmanager
def saved_handlers(restore: bool) -> Iterator[None]:
    """Give the SIGINT/SIGTERM handlers back after the block when ``restore`` (a caller that
    goes on running: `simdist.cli.main(argv)` called in-process); the command line's own entry
    point (argv None) exits right after, and keeps a second Ctrl-C ignored until it has."""
    if not (restore and _main_thread()):
        yield
        return
    old = {s: signal.getsignal(s) for s in (signal.SIGINT, signal.SIGTERM)}
    try:
        yield
    finally:
        for s, h in old.items():
            if h is not None:
                signal.signal(s, h)


def ignore_in_worker() -> None:
    """Pool worker initializer: the parent handles interrupts and ends its workers itself (a
    terminal's Ctrl-C reaches the whole process group; a worker dying of it mid-task would break
    the pool and print a traceback per worker)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    _die_with_parent()
    try:   # its own process group: ending the worker ends what it started (a fresh-process re-run)
        os.setpgid(0, 0)
    except (AttributeError, OSError):
        pass


def _die_with_parent() -> None:
    """On Linux, have the kernel end this worker when the process that forked it ends.

    The parent ends its workers itself on an interrupt (`end_process_tree`), but a signal that
    lands while the pool is still starting, or a parent killed outright, left them alive (measured:
    two sweep workers orphaned for 30 minutes under load 15). A forked worker holds the pool's
    queue and the parent's stdout/stderr pipes, so an orphan waits forever and a caller reading the
    sweep's output to EOF hangs with it. PR_SET_PDEATHSIG (prctl(2)) delivers SIGKILL at the
    parent's exit; the getppid check covers a parent that died before the call."""
    import sys
    if not sys.platform.startswith("linux"):
        return
    try:
        import ctypes
        libc = ctypes.CDLL(None, use_errno=True)
        parent = os.getppid()
        if libc.prctl(1, int(signal.SIGKILL), 0, 0, 0) != 0:   # PR_SET_PDEATHSIG = 1
            return
        if os.getppid() != parent or parent == 1:
            os._exit(1)
    except (OSError, AttributeError):
        pass


def end_process_tree(procs: list[Any], grace_s: float = 2.0) -> None:
    """Terminate pool worker processes and their process groups (`ignore_in_worker` made each
    its group's leader), then kill what is left after ``grace_s``."""
    def signal_all(sig: int) -> None:
        for p in procs:
            pid = getattr(p, "pid", None)
            if pid is None:
                continue
            try:
                os.killpg(pid, sig)
            except (ProcessLookupError, PermissionError, AttributeError, OSError):
                try:
                    os.kill(pid, sig)
                except (ProcessLookupError, OSError):
                    pass
    signal_all(signal.SIGTERM)
    for p in procs:
        p.join(timeout=grace_s)
    if any(p.is_alive() for p in procs):
        signal_all(signal.SIGKILL)
        for p in procs:
            p.join(timeout=1)
    else:   # the workers are gone; their groups may not be (a grandchild between signals)
        signal_all(signal.SIGKILL)
