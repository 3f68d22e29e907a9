"""Running the fourteenth fuzzer's programs on both backends and comparing them: the comparison,
pipe protocol, normal form and kept answers are the fourth fuzzer's (tests/fuzz4/fz4_run.py, on
fz2_run/fz3_run/differ), the tape mode the third's (fz3_run._tape: nested tapes, persistent,
watch_accessed_variables); this module's own are the dispatch of the modes over fz14's programs,
the worker's entry point and where the answers are kept (.cache/fuzz14-answers).
"""

from __future__ import annotations

import os
import sys
from typing import Any

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
TESTS = os.path.dirname(HERE)
_DIRS = tuple(os.path.join(TESTS, d) for d in ("fuzz", "fuzz2", "fuzz3", "fuzz4")) + (HERE,)
for _p in _DIRS:
    if _p not in sys.path:
        sys.path.insert(0, _p)

import differ  # noqa: E402
import fz3_run  # noqa: E402
import fz4_run  # noqa: E402
from fz14_progs import Prog14, isolate  # noqa: E402

disagreements_of = fz4_run.disagreements_of
describe = fz4_run.describe
kind_of = fz4_run.kind_of
ANSWERS_DIR = os.path.join(os.path.dirname(TESTS), ".cache", "fuzz14-answers")


def _one(tf: Any, prog: Prog14, k: int, xs: list[Any], strategy: Any) -> Any:
    ns: dict[str, Any] = {"tf": tf, "np": np}
    exec(prog.function_text(k), ns)  # noqa: S102 - our own generated text
    f = ns["f"]
    s = fz4_run._scalar(prog.svals[0])
    with np.errstate(all="ignore"):
        if prog.mode == "eager":
            return fz4_run._ok(tf, f, *xs, s=s)
        if prog.mode == "function":
            return fz4_run._function(tf, prog, f, xs)
        if prog.mode == "sig":
            return fz3_run._sig(tf, prog, lambda *a: f(*a, s=s), xs)
        if prog.mode == "tape":
            return fz3_run._tape(tf, prog, lambda *a: f(*a, s=s), xs)
        return fz4_run._dist(tf, prog, lambda *a: f(*a, s=s), xs, strategy)


def _run_all(tf: Any, prog: Prog14, strategy: Any) -> Any:
    try:
        xs = fz3_run._inputs(tf, prog, strategy)
        out = []
        for k in range(len(prog.exprs)):
            try:
                out.append(_one(tf, prog, k, xs, strategy))
            except Exception as e:  # noqa: BLE001 - an error outside the guarded calls (e.g. tracing)
                out.append(("harness", type(e).__name__))
        return ("ran", out)
    except Exception as e:  # noqa: BLE001 - a crash of the harness itself is a result too
        return ("crashed", f"{type(e).__name__}: {e}")


class _TimedReader:
    """The worker's stdout for differ's reader: a read that has not returned after `seconds`
    kills the worker (a kernel that runs for minutes on a drawn argument: differ.TFWorker then
    records ("tf-died", -9) for that program, which is not compared, and restarts on the rest)."""

    def __init__(self, stream: Any, proc: Any, seconds: float) -> None:
        self.stream, self.proc, self.seconds = stream, proc, seconds

    def read(self, n: int) -> bytes:
        import threading
        timer = threading.Timer(self.seconds, self.proc.kill)
        timer.start()
        try:
            return self.stream.read(n)
        finally:
            timer.cancel()

    def close(self) -> None:
        self.stream.close()


class TFWorker14(differ.ScriptWorker):
    """differ.TFWorker serving this module's programs, each given at most TIMEOUT seconds."""

    SCRIPT = os.path.abspath(__file__)
    PATHS = _DIRS
    TIMEOUT = 120.0

    def _start(self) -> None:
        super()._start()
        self.proc.stdout = _TimedReader(self.proc.stdout, self.proc, self.TIMEOUT)


class KeptWorker14(fz4_run.KeptWorker):
    """fz4_run.KeptWorker over TFWorker14, its answers under ANSWERS_DIR unless told."""

    def __init__(self, directory: str = ANSWERS_DIR, keep: bool = True, release: str | None = None) -> None:
        super().__init__(directory, keep, release)

    @property
    def worker(self) -> TFWorker14:  # type: ignore[override]
        if self._worker is None:
            self._worker = TFWorker14()
        return self._worker


def run_simdist(programs: list[Prog14]) -> list[Any]:
    return differ.run_on_simdist(programs, _run_all)


def minimize(prog: Prog14, k: int, worker: Any) -> tuple[Prog14, Any, Any]:
    """Snippet k alone (eagerly when it still disagrees there), with the outcomes that disagree."""
    return fz4_run.minimize(prog, k, worker, run_simdist, isolate)


if __name__ == "__main__" and sys.argv[1:] == ["--worker"]:
    differ.serve_on_two_cpus(_run_all)
