"""Running fuzz programs on both backends and comparing them: a persistent TF 2.21 worker
process (batched requests over a pipe), the comparison rules, and the minimizer that shrinks a
disagreeing program to the fewest steps that still disagree.

Comparison: dtypes, shapes and error classes always exactly; values of exact ops bit for bit
(any NaN matches any NaN; -0.0 and 0.0 differ); values of inexact ops, gradients and cross-replica
results within RTOL[dtype] of TF's, with an absolute floor of RTOL * max|TF's value| (norm-wise:
a summation order may move a cancelling sum by that much), non-finite entries exactly. Gradients: when both backends raise,
any classes match, and a program whose gradient sums were order-sensitive compares their dtypes
and shapes only (`_grads_differ`, docs/spec.md `ops.fuzz`).
"""

from __future__ import annotations

import os
import pickle
import struct
import subprocess
import sys
from typing import Any

import numpy as np

from catalogue import BY_NAME
from programs import Program, execute, generate, make_strategy

RTOL = {"float16": 4e-3, "bfloat16": 2e-2, "float32": 2e-5, "float64": 1e-11}
HERE = os.path.dirname(os.path.abspath(__file__))


# ---------------------------------------------------------------- the TF side

def _send(stream: Any, obj: Any) -> None:
    data = pickle.dumps(obj)
    stream.write(struct.pack("<Q", len(data)) + data)
    stream.flush()


def _recv(stream: Any) -> Any:
    head = stream.read(8)
    if len(head) < 8:
        raise EOFError("the TF worker closed its pipe")
    (n,) = struct.unpack("<Q", head)
    body = stream.read(n)
    if len(body) < n:   # it died while writing an answer (fz11: fuzz2 seed 72 #46, sequence_mask(2**31 - 2))
        raise EOFError("the TF worker died while sending an answer")
    try:
        return pickle.loads(body)
    except pickle.UnpicklingError:   # something else wrote into its pipe (fresh16: fuzz2 seed 81 #140-159):
        raise EOFError("the TF worker's answer stream is garbled") from None   # a crash: restarted, program skipped


class TFWorker:
    """Real TensorFlow in a subprocess that serves batches of programs until closed. A batch is
    submitted, then collected, so the caller can generate and run the next batch on simdist
    while TF works (`disagreements`); results come back one program at a time, so a program
    that kills TF costs only a restart and the rest of its batch."""

    def __init__(self) -> None:
        self.env = dict(os.environ, TF_CPP_MIN_LOG_LEVEL="3", PYTHONPATH=os.pathsep.join([HERE] + sys.path))
        self._pending: list[Program] = []
        self._start()

    def _start(self) -> None:
        self.proc = subprocess.Popen([sys.executable, os.path.abspath(__file__), "--worker"], stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, env=self.env, cwd=HERE)

    def submit(self, programs: list[Program]) -> None:
        """Send a batch; `collect` returns its results."""
        assert not self._pending, "collect the submitted batch first"
        self._pending = list(programs)
        if self._pending:
            try:
                _send(self.proc.stdin, self._pending)
            except BrokenPipeError:
                pass   # collect sees the dead worker and restarts it

    def collect(self) -> list[Any]:
        """TF's results of the submitted batch, in order; a program that kills TF itself (a
        segfault in a kernel) gets ("tf-died", exit code) and the worker restarts on the rest, as
        it does after a program that left TF's collectives aborted (`_collectives_healthy`)."""
        out: list[Any] = []
        todo, self._pending = self._pending, []
        while todo:
            restart = False
            try:
                for _ in range(len(todo)):
                    result, healthy = _recv(self.proc.stdout)
                    out.append(result)
                    todo = todo[1:]
                    if not healthy:   # its collectives are aborted: a fresh worker for the rest
                        restart = True
                        self.proc.wait(timeout=60)
                        break
            except (EOFError, BrokenPipeError):   # it died inside a program, which gets this answer
                if self.proc.poll() is None:   # (a garbled stream: the worker still runs, out of step)
                    self.proc.kill()
                out.append(("tf-died", self.proc.wait()))
                todo = todo[1:]
                restart = True
            if restart:
                self._start()
                if todo:
                    self._pending = []
                    _send(self.proc.stdin, todo)
        return out

    def run(self, programs: list[Program]) -> list[Any]:
        """TF's results of `programs` (submit, then collect)."""
        self.submit(programs)
        return self.collect()

    def close(self) -> None:
        if self.proc.poll() is None:
            self.proc.stdin.close()
            self.proc.wait(timeout=60)


def _run_all(tf: Any, programs: list[Program], strategy: Any) -> list[Any]:
    out = []
    for p in programs:
        try:
            out.append(("ran", execute(tf, p, strategy)))
        except Exception as e:  # noqa: BLE001 - a crash of the harness itself is a result too
            out.append(("crashed", f"{type(e).__name__}: {e}"))
    return out


def _worker_main() -> None:
    import tensorflow as tf
    cpu = tf.config.list_physical_devices("CPU")[0]
    tf.config.set_logical_device_configuration(cpu, [tf.config.LogicalDeviceConfiguration()] * 2)
    strategy = make_strategy(tf)
    while True:
        try:
            programs = _recv(sys.stdin.buffer)
        except EOFError:
            return
        for p in programs:   # one message a program: a crash loses only the program that caused it
            result = _run_all(tf, [p], strategy)[0]
            healthy = p.mode != "dist" or _collectives_healthy(tf, strategy)
            _send(sys.stdout.buffer, (result, healthy))
            if not healthy:
                return   # the parent restarts the worker for the rest of the batch


def _collectives_healthy(tf: Any, strategy: Any) -> bool:
    """Whether TF's collectives still run after a program: a collective that failed (replicas
    all-reducing different shapes) aborts the process's collective executor for good ("Collective
    ops is aborted by: Shape mismatch ..."), and every later collective of the process fails;
    without this probe every later MirroredStrategy program would get that poisoned answer."""
    try:
        strategy.run(lambda: tf.distribute.get_replica_context().all_reduce("SUM", tf.constant(1.0)))
        return True
    except Exception:  # noqa: BLE001 - any failure means the executor is gone
        return False


def _two_cpus(tf: Any) -> Any:
    """MirroredStrategy on two logical CPUs of `tf` (real TF or simdist's facade)."""
    cpu = tf.config.list_physical_devices("CPU")[0]
    tf.config.set_logical_device_configuration(cpu, [tf.config.LogicalDeviceConfiguration()] * 2)
    return tf.distribute.MirroredStrategy(["/cpu:0", "/cpu:1"])


def _fresh_variable_scope(tf: Any) -> None:
    """Each program on the variable scope a fresh TF process has. TF 2.21's map_fn, traced in a
    tf.function (graph mode), sets the root variable scope's caching device (`varscope.set_caching_device(
    lambda op: op.device)`, map_fn_ops.py) and resets it only when it returns: its own ValueError
    ("Elements in elems must be 1+ dimensional Tensors, not scalars", e.g. tf.nn.ctc_unique_labels(2))
    leaves it set in the eager default graph's collection, and from then on every MirroredStrategy.run
    of the process raises NotImplementedError "Caching devices is not yet supported when eager execution
    is enabled." (mirrored_run enters variable_scope(captured scope)). simdist runs each program on a
    fresh state, so the worker drops the leaked scope store (spec: ops.fuzz4)."""
    from tensorflow.python.ops import variable_scope
    tf.compat.v1.get_default_graph().clear_collection(variable_scope._VARSCOPESTORE_KEY)


def _fresh_program_state(tf: Any) -> None:
    """The process state each program of the TF worker starts from, as simdist starts each one: an
    empty scalar cache (ops.scalar-cache), no global seed and an empty kernel cache (an earlier
    program's tf.random.set_seed(n) stayed the process's global seed, and TF keeps a stateful random
    kernel per (seed, seed2) and attrs, so `random_brightness(x, 2, seed=7)` drew from another seed
    pair and went on from earlier draws; set_seed(None) clears both; fz26b, fz14 seed 1420262601
    #236), and a fresh variable scope (`_fresh_variable_scope`)."""
    from tensorflow.python import pywrap_tfe
    pywrap_tfe.TFE_ClearScalarCache()
    tf.random.set_seed(None)
    _fresh_variable_scope(tf)


def serve_on_two_cpus(run_all: Any) -> None:
    """The TF worker loop of the fuzzers whose programs may run under MirroredStrategy on two CPUs
    (fuzz2-fuzz4): `run_all(tf, program, strategy)` per program, each result sent with whether
    TF's collectives still run (`_collectives_healthy`); an unhealthy worker exits to be restarted."""
    import tensorflow as tf
    tf.get_logger().setLevel("ERROR")
    strategy = _two_cpus(tf)
    while True:
        try:
            programs = _recv(sys.stdin.buffer)
        except EOFError:
            return
        for p in programs:
            _fresh_program_state(tf)
            result = run_all(tf, p, strategy)
            healthy = p.mode != "dist" or _collectives_healthy(tf, strategy)
            _send(sys.stdout.buffer, (result, healthy))
            if not healthy:
                return


def run_on_simdist(programs: list, run_all: Any) -> list[Any]:
    """simdist's side of the same programs: `run_all(tf, program, strategy)`, a MirroredStrategy
    program on a fresh simulation with two CPUs. TF answers on this machine (live, or kept under
    this machine's CPU signature: answers.py), so simdist models this machine's CPU here
    (clause ops.host-cpu); generation, which runs candidate calls on simdist too, keeps whatever
    model is in force (the tests pin the reference one), so a seed's programs are the same on
    every machine."""
    import simdist
    from simdist import tf
    from simdist.runtime import host_cpu, scalar_cache
    out = []
    with host_cpu.using("host"):
        for p in programs:
            strategy = None
            if p.mode == "dist":
                simdist.reset()
                strategy = _two_cpus(tf)
            # as the TF worker: each program on an empty scalar cache, emptied after the strategy is made (the TF
            # worker made its strategy once, before its first program, so the collective ordering tokens' (0.0, CPU:i)
            # entries are gone when a replica converts -0.0: fz67, fz14 seed 1420673001 #28)
            scalar_cache.clear()
            tf.random.set_seed(None)   # ... and on no global seed, the random kernels' streams restarted
            out.append(run_all(tf, p, strategy))
    return out


class ScriptWorker(TFWorker):
    """A TFWorker whose worker is another fuzzer's module (`SCRIPT --worker`), importing from `PATHS`."""

    SCRIPT = ""
    PATHS: tuple[str, ...] = ()

    def _start(self) -> None:
        env = dict(os.environ, TF_CPP_MIN_LOG_LEVEL="3", PYTHONPATH=os.pathsep.join(list(self.PATHS) + sys.path))
        self.proc = subprocess.Popen([sys.executable, self.SCRIPT, "--worker"], stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, env=env,
                                     cwd=os.path.dirname(self.SCRIPT))


class _OrderProbe:
    """Watches simdist's gradient aggregation (backprop.aggregate) during one program: `hit` when
    some sum of three or more dense float gradients of one tensor could move by more than the
    comparison's tolerance with the order of its terms alone ((n - 1) * eps * max|term| above
    RTOL * max|sum|, e.g. terms of +-FLT_MAX that cancel and absorb the others). TF adds them in
    the order its tape walk reaches them, which follows a std::unordered_map's iteration order."""

    def __init__(self) -> None:
        from simdist.runtime.autodiff import backprop
        self.module, self.original, self.hit = backprop, backprop.aggregate, False

    def __enter__(self) -> "_OrderProbe":
        self.hit = False
        self.module.aggregate = self._aggregate
        return self

    def __exit__(self, *exc: Any) -> None:
        self.module.aggregate = self.original

    def _aggregate(self, grads: list[Any]) -> Any:
        if not self.hit and len(grads) >= 3:
            self.hit = _order_sensitive(grads)
        return self.original(grads)


def _order_sensitive(grads: list[Any]) -> bool:
    from simdist.runtime.tensor import Tensor
    if not all(isinstance(g, Tensor) and g.dtype.name in RTOL for g in grads):
        return False
    arrs = [np.asarray(g.numpy(), np.float64) for g in grads]
    if any(a.shape != arrs[0].shape for a in arrs) or not arrs[0].size:
        return False
    terms = np.stack(arrs)
    finite = np.isfinite(terms)
    big = np.max(np.where(finite, np.abs(terms), 0.0), axis=0)
    with np.errstate(invalid="ignore", over="ignore"):
        total = np.abs(np.sum(terms, axis=0))
    scale = float(np.max(total[np.isfinite(total)], initial=0.0))
    name = grads[0].dtype.name
    eps, rtol = float(np.finfo(name).eps), RTOL[name]
    return bool(np.any((len(grads) - 1) * eps * big > rtol * scale + float(np.finfo(name).tiny)))


def run_simdist(programs: list[Program]) -> list[Any]:
    """simdist's results; a "grad" program whose gradient sums were order-sensitive (_OrderProbe)
    ends in ("grads", result, "order-sensitive"). TF answers on this machine (live, or kept under
    this machine's CPU signature), so simdist models this machine's CPU here, as run_on_simdist
    (clause ops.host-cpu; the tests pin the reference model for generation)."""
    from simdist.runtime import host_cpu
    with host_cpu.using("host"):
        return _run_simdist(programs)


def _run_simdist(programs: list[Program]) -> list[Any]:
    import simdist
    from simdist import tf
    out = []
    probe = _OrderProbe()
    for p in programs:
        strategy = None
        if p.mode == "dist":
            simdist.reset()
            cpu = tf.config.list_physical_devices("CPU")[0]
            tf.config.set_logical_device_configuration(cpu, [tf.config.LogicalDeviceConfiguration()] * 2)
            strategy = make_strategy(tf)
        with probe:
            res = _run_all(tf, [p], strategy)[0]
        if probe.hit and res[0] == "ran" and p.mode == "grad":
            res = ("ran", res[1][:-1] + [res[1][-1] + ("order-sensitive",)])
        out.append(res)
    return out


# ---------------------------------------------------------------- comparison

def _fmt(x: Any) -> str:
    if isinstance(x, tuple) and x and x[0] == "T":
        return f"{x[1]}{list(x[2])} {np.array2string(x[3].ravel()[:12], precision=8)}"
    if isinstance(x, tuple) and x and x[0] == "err":
        return f"raises {x[1]}"
    if isinstance(x, tuple) and x and x[0] == "ok":
        return _fmt(x[1])
    if isinstance(x, tuple) and x and x[0] == "list":
        return "[" + ", ".join(_fmt(v) for v in x[1]) + "]"
    return repr(x)


def _values_differ(g: np.ndarray, w: np.ndarray, exact: bool, rtol_floor: float = 0.0) -> bool:
    if w.dtype.kind == "c" and g.dtype == w.dtype:   # complex: real and imaginary parts, each as a float
        return _values_differ(np.ascontiguousarray(g.real), np.ascontiguousarray(w.real), exact, rtol_floor) or \
            _values_differ(np.ascontiguousarray(g.imag), np.ascontiguousarray(w.imag), exact, rtol_floor)
    if w.dtype.kind != "f" and w.dtype.name != "bfloat16":
        return not np.array_equal(g, w)
    gf, wf = g.astype(np.float64), w.astype(np.float64)
    both_nan = np.isnan(gf) & np.isnan(wf)
    if exact:
        width = f"u{w.dtype.itemsize}"
        return not bool(np.all(both_nan | (g.view(width) == w.view(width))))
    rtol = max(RTOL.get(w.dtype.name, 1e-5), rtol_floor)
    finite = np.isfinite(wf)
    if not np.array_equal(np.isfinite(gf), finite) or not np.all(both_nan | ~np.isnan(wf) & (gf == wf) | finite):
        return True
    scale = float(np.max(np.abs(wf[finite]))) if finite.any() else 0.0
    return not bool(np.all(np.abs(gf[finite] - wf[finite]) <= rtol * np.abs(wf[finite]) + rtol * scale
                           + np.finfo(w.dtype).tiny))


def diff(got: Any, want: Any, exact: bool, rtol_floor: float = 0.0) -> bool:
    """Whether two normalised results disagree (inexact values within max(RTOL[dtype], rtol_floor))."""
    if isinstance(want, tuple) and want and want[0] == "T":
        if not (isinstance(got, tuple) and got and got[0] == "T" and got[1:3] == want[1:3]):
            return True
        return _values_differ(got[3], want[3], exact, rtol_floor)
    if isinstance(want, tuple) and isinstance(got, tuple):
        if len(got) != len(want):
            return True
        return any(diff(g, w, exact, rtol_floor) for g, w in zip(got, want))
    return bool(got != want)


def first_disagreement(prog: Program, got: Any, want: Any) -> tuple[str, Any, Any] | None:
    """(where, simdist's result, TF's result) of the first disagreement, or None."""
    if want[0] == "tf-died":   # TF's own crash (a segfault in a kernel): nothing to compare
        return None
    if want[0] != "ran" or got[0] != "ran":
        same = got[0] == want[0] and got[1].split(":")[0] == want[1].split(":")[0]
        return None if same else ("the program", got, want)
    g, w = got[1], want[1]
    if prog.mode == "dist":
        (_, g0, g1), (_, w0, w1) = g[0], w[0]
        for rid, gs, ws in ((0, g0, w0), (1, g1, w1)):
            for k, (a, b) in enumerate(zip(gs, ws)):
                if diff(a, b, _exact(prog, k)):
                    return (f"replica {rid}, step {k}", a, b)
        cross_g, cross_w = g[1:], w[1:]
        if len(cross_g) != len(cross_w):
            return ("cross-replica results", cross_g, cross_w)
        for i, (a, b) in enumerate(zip(cross_g, cross_w)):
            if diff(a, b, False):
                return (f"strategy.{'experimental_local_results' if a[0] == 'local' else a[0]} of returned value {i // 4}",
                        a[1], b[1])
        return None
    for k, (a, b) in enumerate(zip(g, w)):
        if k == len(prog.steps):
            return ("the gradients", a[1], b[1]) if _grads_differ(a, b, _narrowest_rtol(w[:k])) else None
        if diff(a, b, _exact(prog, k)):
            return (f"step {k}", a, b)
    return None


def _narrowest_rtol(results: list[Any]) -> float:
    """The tolerance of the narrowest float dtype among a program's step results (TF's): a
    gradient reaching a float64 input through a cast from float32 (or float16) carries that
    dtype's rounding, so a last-bit difference of a float32 kernel (Eigen's polynomial sin
    against the C library's, seed 20261130 #17300) is within it, not within float64's."""
    names: list[str] = []

    def walk(x: Any) -> None:
        if isinstance(x, tuple) and x[:1] == ("T",):
            names.append(x[1])
        elif isinstance(x, tuple):
            for v in x:
                walk(v)
    for r in results:
        walk(r)
    return max([RTOL[n] for n in names if n in RTOL], default=0.0)


def _grads_differ(got: Any, want: Any, rtol_floor: float = 0.0) -> bool:
    """The gradients compared: as any result, except (1) when both backends raise, the class may
    differ (it is the first failing op TF's tape walk reaches, in a std::unordered_map's iteration
    order), (2) order-sensitive sums (_OrderProbe) compare dtypes and shapes only, and (3) values
    within the tolerance of the narrowest float dtype the program computed in (`_narrowest_rtol`)."""
    g, w = got[1], want[1]
    if g[:1] == ("err",) and w[:1] == ("err",):
        return False
    if got[2:] == ("order-sensitive",):
        return _structure(g) != _structure(w)
    return diff(g, w, False, rtol_floor)


def _structure(x: Any) -> Any:
    if isinstance(x, tuple) and x[:1] == ("T",):
        return x[:3]
    if isinstance(x, tuple):
        return tuple(_structure(v) for v in x)
    return x


def _exact(prog: Program, k: int) -> bool:
    name = prog.steps[k][0]
    return name in BY_NAME and BY_NAME[name].exact


def describe(prog: Program, where: tuple[str, Any, Any]) -> str:
    loc, got, want = where
    line = ""
    if loc.startswith("step") or ", step" in loc:
        k = int(loc.rsplit(" ", 1)[1])
        line = " `" + prog.source().splitlines()[3 + len(prog.inputs) + len(prog.inputs2) + k] + "`"
    return f"{loc}{line}: simdist gives {_fmt(got)}, but TF 2.21 gives {_fmt(want)}"


def poisoned(result: Any) -> bool:
    """Whether TF's result reports an aborted collective executor ("Collective ops is aborted
    by: ..."): once one MirroredStrategy collective fails in a TF process, every later collective
    of that process fails so, and a kept answer of that kind (from a run before the worker
    restarted on aborted collectives) may belong to an earlier program: it is asked again."""
    def text(x: Any) -> str:
        if isinstance(x, str):
            return x
        if isinstance(x, (tuple, list)):
            return " ".join(text(v) for v in x)
        return ""
    return isinstance(result, tuple) and "Collective ops is aborted" in text(result)


def disagreements(worker: TFWorker, seed: int, indices: list[int], mode: str | None = None,
                  batch: int = 25, answers: Any = None) -> Any:
    """(program, first disagreement) for each program of `indices` that disagrees, in batches:
    while TF runs batch k, simdist runs batch k and generates batch k + 1 (2 cores, 2 processes).
    With `answers` (answers.Answers), TF is asked only for programs it has no kept answer for,
    and its new answers are kept."""
    chunks = [indices[lo:lo + batch] for lo in range(0, len(indices), batch)]
    if not chunks:
        return

    def submit(progs: list[Program]) -> list[Any]:
        kept = [answers.get(p) if answers is not None else None for p in progs]
        kept = [None if k is not None and poisoned(k) else k for k in kept]   # asked again, in a fresh process
        worker.submit([p for p, k in zip(progs, kept) if k is None])
        return kept

    progs = [generate(seed, i, mode) for i in chunks[0]]
    kept = submit(progs)
    for k in range(len(chunks)):
        got = run_simdist(progs)
        following = [generate(seed, i, mode) for i in chunks[k + 1]] if k + 1 < len(chunks) else []
        live = iter(worker.collect())
        want = [next(live) if a is None else a for a in kept]
        if answers is not None:
            for p, a, w in zip(progs, kept, want):
                if a is None:
                    answers.put(p, w)
            answers.flush()
        found = [(p, first_disagreement(p, g, w)) for p, g, w in zip(progs, got, want)]
        yield from ((p, where) for p, where in found if where is not None)   # the caller may minimize on the worker
        kept = submit(following)
        progs = following


# ---------------------------------------------------------------- minimizing

def _refs(a: Any) -> list[int]:
    if a[0] == "v":
        return [a[1]]
    if a[0] == "vl":
        return [r[1] for r in a[1]]
    return []


def _step_refs(step: tuple) -> list[int]:
    out = []
    for a in list(step[1]) + list(step[2].values()):
        out += _refs(a)
    return out


def subset(prog: Program, keep: list[int], mode: str | None = None) -> Program:
    """The program with only steps `keep` (each kept step's references must be kept) and the
    inputs they use, references renumbered."""
    n = len(prog.inputs)
    used_inputs = sorted({r for k in keep for r in _step_refs(prog.steps[k]) if r < n})
    slot = {old: new for new, old in enumerate(used_inputs)}
    slot.update({n + old: len(used_inputs) + new for new, old in enumerate(keep)})

    def re(a: Any) -> Any:
        if a[0] == "v":
            return ("v", slot[a[1]], a[2])
        if a[0] == "vl":
            return ("vl", [re(r) for r in a[1]])
        return a
    steps = [(prog.steps[k][0], tuple(re(a) for a in prog.steps[k][1]), {key: re(v) for key, v in prog.steps[k][2].items()})
             for k in keep]
    mode = mode or prog.mode
    return Program(prog.seed, prog.index, mode, [prog.inputs[i] for i in used_inputs],
                   [prog.inputs2[i] for i in used_inputs] if mode == "dist" else [], steps)


def _closure_without(prog: Program, keep: list[int], drop: int) -> list[int]:
    n, gone = len(prog.inputs), {drop}
    for k in keep:
        if k in gone:
            continue
        if any(r - n in gone for r in _step_refs(prog.steps[k]) if r >= n):
            gone.add(k)
    return [k for k in keep if k not in gone]


def _ancestors(prog: Program, k: int) -> list[int]:
    n, need, todo = len(prog.inputs), {k}, [k]
    while todo:
        for r in _step_refs(prog.steps[todo.pop()]):
            if r >= n and r - n not in need:
                need.add(r - n)
                todo.append(r - n)
    return sorted(need)


def minimize(prog: Program, worker: TFWorker, budget: int = 300) -> tuple[Program, tuple[str, Any, Any]]:
    """The smallest program found that still disagrees, and its disagreement."""
    def check(p: Program) -> tuple[str, Any, Any] | None:
        return first_disagreement(p, run_simdist([p])[0], worker.run([p])[0])

    where = check(prog)
    assert where is not None, "the program no longer disagrees"
    best = prog
    loc = where[0]
    if loc.startswith("step ") or ", step " in loc:
        k = int(loc.rsplit(" ", 1)[1])
        for mode in (["eager", prog.mode] if prog.mode != "eager" else ["eager"]):
            cand = subset(prog, _ancestors(prog, k), mode)
            w = check(cand)
            if w is not None:
                best, where = cand, w
                break
    i = len(best.steps) - 1
    while i >= 0 and budget > 0:
        keep = _closure_without(best, list(range(len(best.steps))), i)
        if keep:
            budget -= 1
            cand = subset(best, keep)
            w = check(cand)
            if w is not None:
                best, where = cand, w
                i = min(i, len(best.steps))
        i -= 1
    return best, where


if __name__ == "__main__" and sys.argv[1:] == ["--worker"]:
    _worker_main()
