"""Running the fourth fuzzer's programs on both backends and comparing them. The comparison, the
TF worker's pipe protocol and the outcome kinds are the earlier fuzzers' (tests/fuzz2/fz2_run.py
and tests/fuzz3/fz3_run.py, on tests/fuzz/differ.py: dtypes, shapes and structure exactly, values
bit for bit for exact snippets (NaN matches NaN, -0.0 differs from 0.0), else within differ.RTOL,
error classes exactly); this module's own are the snippet interpreter of the five modes, the
normal form of the Python values snippets return (ints, floats, lists, ndarrays, TensorShape,
DType, dicts) and the kept answers (one file per 500 programs under .cache/fuzz4-answers).
"""

from __future__ import annotations

import hashlib
import os
import pickle
import sys
from typing import Any

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
TESTS = os.path.dirname(HERE)
for _p in (os.path.join(TESTS, "fuzz"), os.path.join(TESTS, "fuzz2"), os.path.join(TESTS, "fuzz3"), HERE):
    if _p not in sys.path:
        sys.path.insert(0, _p)

import answers  # noqa: E402
import differ  # noqa: E402
import fz2_run  # noqa: E402
import fz3_run  # noqa: E402
from fz2_run import _err  # noqa: E402
from fz4_progs import Prog4, isolate  # noqa: E402
from programs import normalise as _normalise  # noqa: E402

disagreements_of = fz2_run.disagreements_of
describe = fz2_run.describe
kind_of = fz3_run.kind_of


def normalise(tf: Any, x: Any) -> Any:
    """A comparable, backend-neutral form of what a snippet returns."""
    name = type(x).__name__
    if name == "IndexedSlices":
        return ("IndexedSlices", _normalise(tf.convert_to_tensor(x)))
    if name == "TensorShape":
        return ("TensorShape", None if x.rank is None else tuple(x.as_list()))
    if name == "DType":
        return ("DType", x.name)
    if name == "Dimension":
        return ("Dimension", x.value)
    if isinstance(x, dict):
        return ("dict", tuple((k, normalise(tf, x[k])) for k in sorted(x, key=repr)))
    if isinstance(x, (list, tuple)) or name in ("TopKV2", "TopK", "UniqueWithCounts", "Unique"):
        return (type(x).__name__ if isinstance(x, (list, tuple)) else "list", tuple(normalise(tf, v) for v in x))
    if isinstance(x, np.ndarray):
        return ("T", f"ndarray-{x.dtype.name}", x.shape, x if x.dtype.name != "bfloat16" else x.astype(np.float32))
    if isinstance(x, np.generic):
        return ("T", f"npscalar-{x.dtype.name}", (), np.asarray(x))
    if isinstance(x, float):
        return ("T", "py-float", (), np.asarray(x, np.float64))
    if isinstance(x, type) and issubclass(x, np.generic):
        return ("nptype", x.__name__)
    if isinstance(x, (bool, int, str)) or x is None:
        return ("py", type(x).__name__, x)
    if hasattr(x, "numpy") and hasattr(x, "dtype"):
        return _normalise(x)
    return ("other", name)


def _ok(tf: Any, f: Any, *a: Any, **kw: Any) -> Any:
    try:
        return ("ok", normalise(tf, f(*a, **kw)))
    except Exception as e:  # noqa: BLE001 - the error class is the result
        return _err(e)


def _scalar(text: str) -> Any:
    return eval(text, {"np": np})  # noqa: S307 - our own generated literal


def _tape(tf: Any, prog: Prog4, f: Any, xs: list[Any], s: Any) -> Any:
    var = [x for x, (_, _, v) in zip(xs, prog.inputs) if v]
    watched = [xs[k] for k in prog.watched]
    sources = var + watched
    if not sources:
        return _ok(tf, f, *xs, s=s)
    if prog.sources == "dict":
        src: Any = {f"s{k}": v for k, v in enumerate(sources)}
    elif prog.sources == "single" and len(sources) == 1:
        src = sources[0]
    elif prog.sources == "tuple":
        src = tuple(sources)
    else:
        src = list(sources)
    how = getattr(tf.UnconnectedGradients, prog.unconnected)
    try:
        with tf.GradientTape(persistent=prog.persistent) as tape:
            for w in watched:
                tape.watch(w)
            y = f(*xs, s=s)
    except Exception as e:  # noqa: BLE001
        return _err(e)
    res = ("ok", normalise(tf, y))
    out = [("first", _ok(tf, tape.gradient, y, src, unconnected_gradients=how))]
    if prog.persistent:
        out.append(("again", _ok(tf, tape.gradient, y, src, unconnected_gradients=how)))
    return ("grad", res, ("ok", tuple(out)))


def _function(tf: Any, prog: Prog4, f: Any, xs: list[Any]) -> Any:
    g = tf.function(f)
    out = [_ok(tf, g, *xs, s=_scalar(s)) for s in prog.svals]
    out.append(_ok(tf, lambda: g.experimental_get_tracing_count()))
    return ("calls", tuple(out))


def _dist(tf: Any, prog: Prog4, fn: Any, xs: list[Any], strategy: Any) -> Any:
    """fz3_run._dist with this module's normal form: strategy.run, the local results, reduce
    SUM/MEAN over axis None (and 0), gather along axis 0."""
    try:
        out = strategy.run(fn, args=tuple(xs))
    except Exception as e:  # noqa: BLE001
        return _err(e)
    local = strategy.experimental_local_results(out)
    cross: list[Any] = [("local", normalise(tf, local))]
    if all(hasattr(v, "dtype") and hasattr(v, "shape") for v in local):
        rank = len(local[0].shape)
        for how, axis in (("SUM", None), ("MEAN", None)) + ((("SUM", 0), ("MEAN", 0)) if rank else ()):
            cross.append((f"{how}{axis}", _ok(tf, lambda: strategy.reduce(how, out, axis=axis))))
        if rank:
            cross.append(("gather", _ok(tf, lambda: strategy.gather(out, axis=0))))
    return ("dist", tuple(cross))


def _one(tf: Any, prog: Prog4, k: int, xs: list[Any], strategy: Any) -> Any:
    ns: dict[str, Any] = {"tf": tf, "np": np}
    exec(prog.function_text(k), ns)  # noqa: S102 - our own generated text
    f = ns["f"]
    s = _scalar(prog.svals[0])
    with np.errstate(all="ignore"):
        if prog.mode == "eager":
            return _ok(tf, f, *xs, s=s)
        if prog.mode == "function":
            return _function(tf, prog, f, xs)
        if prog.mode == "sig":
            return fz3_run._sig(tf, prog, lambda *a: f(*a, s=s), xs)
        if prog.mode == "tape":
            return _tape(tf, prog, f, xs, s)
        return _dist(tf, prog, lambda *a: f(*a, s=s), xs, strategy)


def _run_all(tf: Any, prog: Prog4, strategy: Any) -> Any:
    try:
        xs = fz3_run._inputs(tf, prog, strategy)
        out = []
        for k in range(len(prog.exprs)):
            try:
                out.append(_one(tf, prog, k, xs, strategy))
            except Exception as e:  # noqa: BLE001 - an error outside the guarded calls (e.g. in tf.function)
                out.append(("harness", type(e).__name__))
        return ("ran", out)
    except Exception as e:  # noqa: BLE001 - a crash of the harness itself is a result too
        return ("crashed", f"{type(e).__name__}: {e}")


def _worker_main() -> None:
    differ.serve_on_two_cpus(_run_all)


class TFWorker4(differ.ScriptWorker):
    """differ.TFWorker serving this module's programs."""

    SCRIPT = os.path.abspath(__file__)
    PATHS = (HERE, os.path.join(TESTS, "fuzz"), os.path.join(TESTS, "fuzz2"), os.path.join(TESTS, "fuzz3"))


def run_simdist(programs: list[Prog4]) -> list[Any]:
    return differ.run_on_simdist(programs, _run_all)


def minimize(prog: Prog4, k: int, worker: Any, run: Any = None, isolate_: Any = isolate) -> tuple[Prog4, Any, Any]:
    """Snippet k alone (eagerly when it still disagrees there), with the outcomes that disagree.
    `run` and `isolate_`: another fuzzer's simdist runner and snippet isolation (fz14 reuses this)."""
    run = run_simdist if run is None else run
    for mode in dict.fromkeys(["eager" if prog.mode != "dist" else "dist", prog.mode]):
        cand = isolate_(prog, k, mode)
        found = disagreements_of(cand, run([cand])[0], worker.run([cand])[0])
        if found:
            return cand, found[0][1], found[0][2]
    return prog, None, None


# ---------------------------------------------------------------- kept answers

ANSWERS_DIR = os.path.join(os.path.dirname(TESTS), ".cache", "fuzz4-answers")


def program_key(prog: Prog4, release: str) -> str:
    """SHA-256 of everything TF's answer depends on (mode, inputs' bytes, snippets, options) and TF's release."""
    h = hashlib.sha256(release.encode())
    h.update(prog.mode.encode())
    h.update(b"scalar-cache-cleared")   # (TF's worker now empties its scalar cache per program)
    if prog.mode == "dist":
        h.update(b"dist-normal-form-2")   # (the local results' normal form changed: older answers are stale)
    for a, dt, var in prog.inputs:
        h.update(f"{a.dtype.str}{a.shape}{dt}{var}".encode() + a.tobytes())
    for a in prog.inputs2:
        h.update(f"{a.dtype.str}{a.shape}".encode() + a.tobytes())
    h.update(pickle.dumps(prog.steps, protocol=4))
    return h.hexdigest()


class Answers4(answers.Answers):
    """answers.Answers keyed by this fuzzer's program content."""

    def key(self, prog: Any) -> str:
        return program_key(prog, self.release)


class KeptWorker:
    """A TFWorker4 behind kept answers: `submit`/`collect` (the campaign's stream) ask TF only for
    programs without a kept answer and keep TF's new ones; `run` (the minimizer's subsets, which
    share their program's index) always asks TF. The worker process starts only when TF is asked
    (a run whose answers are all kept needs no TensorFlow)."""

    def __init__(self, directory: str = ANSWERS_DIR, keep: bool = True, release: str | None = None) -> None:
        self._worker: TFWorker4 | None = None
        self.kept = Answers4(directory) if keep else None
        if self.kept is not None and release is not None:   # TF's release told (no TF here), this host's CPU
            self.kept.release = f"{release} on {answers.host_signature()}"
        self._batch: list[Prog4] = []
        self._have: list[Any] = []

    @property
    def worker(self) -> TFWorker4:
        if self._worker is None:
            self._worker = TFWorker4()
        return self._worker

    def submit(self, programs: list[Prog4]) -> None:
        self._batch = list(programs)
        self._have = [self.kept.get(p) if self.kept else None for p in self._batch]
        missing = [p for p, a in zip(self._batch, self._have) if a is None]
        if missing:
            self.worker.submit(missing)

    def collect(self) -> list[Any]:
        fresh = iter(self.worker.collect() if any(a is None for a in self._have) else [])
        out = []
        for p, a in zip(self._batch, self._have):
            if a is None:
                a = next(fresh)
                if self.kept:
                    self.kept.put(p, a)
            out.append(a)
        if self.kept:
            self.kept.flush()
        self._batch, self._have = [], []
        return out

    def run(self, programs: list[Prog4]) -> list[Any]:
        return self.worker.run(programs)

    def close(self) -> None:
        if self._worker is not None:
            import subprocess
            try:
                self._worker.close()
            except subprocess.TimeoutExpired:   # (a loaded machine: TF's shutdown may take longer)
                self._worker.proc.kill()
                self._worker.proc.wait()


if __name__ == "__main__" and sys.argv[1:] == ["--worker"]:
    _worker_main()
