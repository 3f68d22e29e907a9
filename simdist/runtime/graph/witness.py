"""A question answered by a run whose side effects are not the caller's: a forked copy of the process.

TF 2.21 traces a tf.function once per trace and runs that graph for every call the trace covers, its Python not
again: an input_signature's TensorSpec([None]) (or an unknown rank, or reduce_retracing's relaxed trace) serves
every concrete shape with one trace. simdist records a call on concrete values; whether that recording computes the
same for another shape is known only from a second recording, which runs the Python again, with its side effects
(a counter, a print, an appended list). `ask` runs such a second recording in a forked child and hands back its
one-bit answer, so the process's own Python state never sees that run (clause function.trace-once, "fix67t").

The child's standard output and error go to /dev/null, it leaves by os._exit (no atexit hooks, no flushed buffers),
and any exception there is the answer False. Nothing in the answer depends on time or scheduling: the child is an
exact copy of the process at the call. Not asked (None) where a fork is unsafe or absent: another Python thread runs
(a lock it holds would stay held in the child), a replica of a strategy.run is running (its replicas are greenlets
that switch at each collective: the child's run would wait on replicas that are the parent's), the platform has no
fork, or the fork fails.
"""

from __future__ import annotations

import os
import threading
from typing import Callable

from simdist.runtime import execution

__all__ = ["ask"]


def ask(question: Callable[[], bool]) -> bool | None:
    """question() run in a forked copy of this process: its answer, False when it raised; None when no fork was
    made (the module's docstring says when)."""
    if not hasattr(os, "fork") or threading.active_count() != 1 or execution.current().runner is not None:
        return None
    r, w = os.pipe()
    try:
        pid = os.fork()
    except OSError:   # (no memory or process left for a copy: not asked)
        os.close(r)
        os.close(w)
        return None
    if pid == 0:   # (the child: answer, then leave without running anything of the parent's)
        answer = b"0"
        try:
            os.close(r)
            null = os.open(os.devnull, os.O_WRONLY)
            os.dup2(null, 1)
            os.dup2(null, 2)
            answer = b"1" if question() else b"0"
        except BaseException:  # noqa: BLE001 - any failure of the child's run is the answer False
            answer = b"0"
        finally:
            try:
                os.write(w, answer)
            finally:
                os._exit(0)
    os.close(w)
    try:
        got = os.read(r, 1)
    finally:
        os.close(r)
        os.waitpid(pid, 0)
    return got == b"1"
