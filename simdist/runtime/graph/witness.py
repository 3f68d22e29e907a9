"""A question answered by a run whose side effects are not the caller's: a forked copy of the process.

TF 2.21 traces a tf.function once per trace and runs that graph for every call the trace covers, its Python not
again: an input_signature's TensorSpec([None]) (or an unknown rank, or reduce_retracing's relaxed trace) serves
every concrete shape with one trace. simdist records a call on concrete values; whether that recording computes the
same for another shape is known only from a second recording, which runs the Python again, with its side effects
(a counter, a print, an appended list). `ask` runs such a second recording in a forked child and hands back its
one-bit answer, so the process's own Python state never sees that run (clause function.trace-once, "fix67t").

The child's standard output and error go to /dev/null, it leaves by os._exit (no atexit hooks, no flushed buffers),
and any exception there is the answer False. The answer does not depend on what else the process runs: the child is
a copy of the process at the call with only the calling thread, and other Python threads (a progress bar's monitor,
a dask client, a test's leftover thread) do not change it — asking only when no other thread was alive made a
program's Python run count depend on its neighbours (lead67: the fix67t differential test failed in the full run,
behind a module that had left a thread running). A lock such a thread held at the fork stays held in the child; a
child that has not answered after `ANSWER_WITHIN` seconds is killed and the question counts as not asked (None), the
one case where the answer follows time (a child stuck on such a lock), never a wrong value: not asked, the call
records its Python per concrete shape as before. Not asked (None) either inside a replica of a strategy.run (its
replicas are greenlets that switch at each collective: the child's run would wait on replicas that are the parent's),
where the platform has no fork, or when the fork fails.
"""

from __future__ import annotations

import os
import select
import signal
from typing import Callable

from simdist.runtime import execution

__all__ = ["ANSWER_WITHIN", "ask"]

#: Seconds a child may take to answer before it is taken as stuck (on a lock another thread held at the fork) and
#: killed: far above any recording's time (a recording is the call's own Python once), so only a stuck child meets it.
ANSWER_WITHIN = 300.0


def ask(question: Callable[[], bool]) -> bool | None:
    """question() run in a forked copy of this process: its answer, False when it raised; None when no fork was
    made (the module's docstring says when)."""
    if not hasattr(os, "fork") or execution.current().runner is not None:
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
        ready, _, _ = select.select([r], [], [], ANSWER_WITHIN)
        got = os.read(r, 1) if ready else None
        if got is None:   # (stuck: killed, not asked)
            os.kill(pid, signal.SIGKILL)
    finally:
        os.close(r)
        os.waitpid(pid, 0)
    return None if got is None else got == b"1"
