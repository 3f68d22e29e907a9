"""Running real TensorFlow in worker subprocesses for the differential tests.

A differential test module doubles as its own worker script: `python module.py 0,1,2` computes
the TF results of those cases and writes them pickled to stdout. TF runs out of process because
its collectives and in-process servers keep state that later cases would trip over.

The TF zygote. Importing TF and Keras is 3.5-5 s of CPU, most of a worker's cost, so each pytest
process starts one TF zygote (simdist/conformance/backends/tf_zygote.py) at its first live request, which imports them once
(and checks that no op ran and no thread started: TF is fork-unsafe once its runtime started), and
forks a child per request that becomes `python module.py i,j` (argv, working directory,
environment, sys.path, stdout/stderr, exit status) with a pristine TF: no op has run in it, so TF's
state is as fresh as a new interpreter's (tests/test_tf_zygote.py checks a golden module's answers
byte for byte, exit codes, output and tracebacks against fresh interpreters). A request whose
environment differs from the one the zygote imported TF with (but for PYTEST_CURRENT_TEST; e.g. a
module passing its worker a variable) replaces the zygote by one started with that environment;
`SIMDIST_TF_ZYGOTE=0` runs every request in a fresh interpreter. `stats` counts requests, restarts
and the children's CPU (tests/cpu_meter.py adds it to the file that asked).

Goldens. A module that declares `pytestmark = [pytest.mark.tf, tf_workers.tf_or_golden(__file__)]`
keeps TF's answers as a fixture in tests/goldens/ (one gzip'd pickle per module, stamped with
the SHA-256 of the module's source and of the tests/ modules it imports, where cases often live), so that a base install without TensorFlow still checks
simdist's values against TF's:
- with TensorFlow installed and the golden stale or short of cases, `spawn` runs TF live for every
  case and records the golden (commit tests/goldens/ with the test change); a current golden is
  not rewritten when TF's answers merely vary between runs;
- with TensorFlow installed and a current golden, the default run (`--tf-live slice`) asks live
  TF only for a bounded slice (the first and last case of the module's first `spawn`) in one module
  of eight (`in_live_sample`, fixed by the module's name) and checks those answers against the
  golden's, recorded from the same TF release: live TF still spot-checks the goldens in every run. Where this host's TF answers otherwise (host-dependent
  kernels: oneDNN's float16 convolutions, the CPU's vrcpps tables; simdist models the recording
  host, which a golden records since the forty-second session and is otherwise the Intel Xeon with
  AVX-512 of the older goldens: `answers_model`, used by edge_compare), the case keeps the golden's
  answer and a HostDiffersWarning names it, so that the default run gives one verdict on every
  machine. Live answers are checked with this machine's model. `--tf-live all` (the long profile,
  and what a TF upgrade needs) runs every case live; `--tf-live none` uses the goldens only;
- without TensorFlow, `spawn` returns the golden's answers if its stamp matches the module's
  source and it holds every case asked for; otherwise the module's tests are skipped, saying
  which golden is missing or stale and how to record it (run the module once with TF).
Modules whose TF answers vary from run to run (a race measured in TF) stay live-only.
"""

from __future__ import annotations

import atexit
import gzip
import hashlib
import io
import importlib.util
import os
import pickle
import subprocess
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

if TYPE_CHECKING:
    from simdist.conformance.backends.tf_zygote import Zygote

HERE = Path(__file__).resolve().parent
GOLDENS = HERE / "goldens"
HAS_TF = importlib.util.find_spec("tensorflow") is not None
_opted: set[str] = set()
LIVE_MODES = ("slice", "all", "none")
live_mode = "slice"          # set from pytest's --tf-live by tests/conftest.py
_sliced: set[str] = set()    # modules whose live slice already ran in this session
# Live TF runs as children of a per-process TF zygote unless SIMDIST_TF_ZYGOTE=0.
use_zygote = os.environ.get("SIMDIST_TF_ZYGOTE", "1") != "0"
_zygote: Zygote | None = None
# forked: requests the zygote served; restarts: zygotes replaced because a request's environment differed
# from the one the zygote imported TF with; cpu: the zygote's children's CPU seconds (the zygote reaps
# them, so they are not in this process' RUSAGE_CHILDREN).
stats: dict[str, float] = {"forked": 0, "restarts": 0, "cpu": 0.0}


def _key(module_file: str) -> str:
    return str(Path(module_file).resolve())


def golden_path(module_file: str) -> Path:
    """tests/goldens/<path under tests/, slashes as '__'>.pkl.gz"""
    rel = Path(module_file).resolve().relative_to(HERE).with_suffix("")
    return GOLDENS / (rel.as_posix().replace("/", "__") + ".pkl.gz")


def _test_imports(path: Path) -> list[Path]:
    """The modules of the tests/ tree that `path` imports (`import x`, `from x import y`), found
    beside it or at the top of tests/ as pytest's import path finds them."""
    import ast
    found: list[Path] = []
    for node in ast.walk(ast.parse(path.read_bytes(), str(path))):
        names = [a.name for a in node.names] if isinstance(node, ast.Import) else (
            [node.module] if isinstance(node, ast.ImportFrom) and node.module and not node.level else [])
        for name in names:
            top = name.split(".")[0]
            for where in (path.parent, HERE):
                candidate = where / f"{top}.py"
                if candidate.exists() and candidate.name != "tf_workers.py":
                    found.append(candidate.resolve())
                    break
    return found


def source_stamp(module_file: str) -> str:
    """SHA-256 over the module's source and the sources of the tests/ modules it imports,
    transitively (its cases often live there: tests/ops/op_specs.py …), so a golden goes stale when
    any of them changes."""
    digest = hashlib.sha256()
    for path in import_closure(module_file):
        digest.update(path.relative_to(HERE).as_posix().encode() + b"\0" + path.read_bytes() + b"\0")
    return digest.hexdigest()


def import_closure(module_file: str | Path) -> list[Path]:
    """The module and the tests/ modules it imports, transitively, in the order a golden's stamp
    reads them (breadth first, each once)."""
    seen: list[Path] = []
    todo = [Path(module_file).resolve()]
    while todo:
        path = todo.pop(0)
        if path in seen:
            continue
        seen.append(path)
        todo.extend(sorted(_test_imports(path)))
    return seen


def _load(module_file: str) -> dict[str, Any] | None:
    path = golden_path(module_file)
    if not path.exists():
        return None
    with gzip.open(path, "rb") as f:
        return pickle.load(f)


# The release that recorded the goldens written before each golden named its own (all of them:
# this machine's only TF); a golden recorded since carries "release" itself.
LEGACY_RELEASE = "tensorflow-cpu 2.21.0, keras 3.15.1"


def installed_release() -> str | None:
    """'tensorflow-cpu 2.21.0, keras 3.15.1' for the installed TF (None without TF)."""
    import importlib.metadata as md
    names = []
    for dist in ("tensorflow", "tensorflow-cpu", "keras"):
        try:
            names.append(f"{dist} {md.version(dist)}")
        except md.PackageNotFoundError:
            continue
    return ", ".join(names) if HAS_TF and names else None


def golden_state(module_file: str) -> str | None:
    """None when the module's golden is current, else why it cannot be used."""
    g = _load(module_file)
    rel = golden_path(module_file).relative_to(HERE.parent)
    if g is None:
        return f"no golden {rel}"
    if g["stamp"] != source_stamp(module_file):
        return f"golden {rel} is stale (the module changed since it was recorded)"
    release = installed_release()
    recorded = g.get("release", LEGACY_RELEASE)
    if release is not None and recorded != release:
        return f"golden {rel} was recorded with {recorded}, but {release} is installed"
    return None


def tf_or_golden(module_file: str) -> Any:
    """The module's skip mark: run with TF, or (without TF) from a current golden."""
    _opted.add(_key(module_file))
    why = None if HAS_TF else golden_state(module_file)
    return pytest.mark.skipif(why is not None, reason=(
        f"real TensorFlow is not installed and {why}: record it by running this module once where "
        f"TensorFlow is installed (pip install -e .[tf])"))


def _golden_answers(module_file: str, indices: list[int]) -> dict[int, Any]:
    why = golden_state(module_file)
    g = _load(module_file)
    missing = [] if g is None else [i for i in indices if i not in g["results"]]
    if why is not None or missing:
        pytest.skip(f"real TensorFlow is not installed and {why or f'the golden lacks cases {missing[:5]}'}")
    assert g is not None
    return {i: g["results"][i] for i in indices}


class _PlainOnly(pickle.Unpickler):
    """Refuses answers that would need TensorFlow or Keras to unpickle (a base install has neither)."""

    def find_class(self, module: str, name: str) -> Any:
        if module.split(".")[0] in ("tensorflow", "keras", "tf_keras"):
            raise AssertionError(f"a golden must hold plain Python/NumPy values, but TF's answers pickle "
                                 f"{module}.{name}: convert it in the module's worker")
        return super().find_class(module, name)


def _refresh(module_file: str, results: dict[int, Any], replace: bool = False) -> None:
    stamp = source_stamp(module_file)
    g = _load(module_file)
    release = installed_release()
    current = g is not None and g["stamp"] == stamp and g.get("release", LEGACY_RELEASE) == release
    merged = dict(g["results"]) if current else {}
    # A current golden only gains the cases it lacks: answers TF varies from run to run (timings,
    # temporary paths) must not rewrite the file on every live run.
    added = {i: r for i, r in results.items() if replace or i not in merged}
    if current and not added:
        return
    merged.update(added)
    # the CPU whose TF gave the answers (oneDNN on or off, the vrcpps tables): simdist is checked with its model
    # (`answers_model`); a golden gaining cases keeps its host, one recorded afresh takes this machine's
    host = g.get("host") if current and not replace and g is not None else this_host()
    data = pickle.dumps({"stamp": stamp, "release": release, "host": host, "results": dict(sorted(merged.items()))},
                        protocol=4)
    _PlainOnly(io.BytesIO(data)).load()
    GOLDENS.mkdir(exist_ok=True)
    path = golden_path(module_file)
    tmp = path.with_suffix(".tmp")
    with gzip.GzipFile(tmp, "wb", mtime=0) as f:   # mtime 0: the same answers give the same bytes
        f.write(data)
    os.replace(tmp, path)
    _golden_hosts.pop(_key(module_file), None)


# One golden module in LIVE_SAMPLE_EVERY asks live TF for its slice in the default run. A live answer that differs
# from the golden's only warns (HostDiffersWarning: the golden stands), so the slice is a spot check of the goldens
# against this machine's TF, and asking it of all ~440 modules cost about a tenth of the default run's CPU
# (measured 2026-12-06: +0.8 CPU s per module, 17 modules of tests/ops 29 s -> 43 s). The sample is fixed by the
# modules' names (deterministic); `--tf-live all` asks live TF for every case of every module.
LIVE_SAMPLE_EVERY = 8


def in_live_sample(module_file: str) -> bool:
    """Whether a golden module takes part in the default run's live slice (by its golden's name, the same on
    every checkout)."""
    name = golden_path(module_file).name
    return int(hashlib.sha256(name.encode()).hexdigest(), 16) % LIVE_SAMPLE_EVERY == 0


def _usable(module_file: str, indices: list[int]) -> bool:
    g = _load(module_file)
    return golden_state(module_file) is None and g is not None and all(i in g["results"] for i in indices)


def spawn(module_file: str, indices: list[int], timeout: float = 900, fresh: bool = False) -> dict[int, Any]:
    """TF results of `indices` from a fresh `python module_file i,j,k` process, or from the
    module's golden (see the module docstring: without TF, or beside a live slice). `fresh`: ask
    live TF whatever the golden holds and let these answers replace the golden's (a module
    re-asking cases whose first answers were artifacts of sharing a TF process)."""
    golden = _key(module_file) in _opted
    if golden and not HAS_TF:
        return _golden_answers(module_file, indices)
    if fresh:
        _live_answered.add(_key(module_file))
        return _run_live(module_file, indices, timeout, record=golden, replace=True)
    if golden and live_mode != "all" and indices and _usable(module_file, indices):
        out = _golden_answers(module_file, indices)
        key = _key(module_file)
        if live_mode == "slice" and key not in _sliced and in_live_sample(module_file):
            _sliced.add(key)
            live = sorted({indices[0], indices[-1]})
            try:
                answers = _run_live(module_file, live, timeout)
            except TFCrashed as crash:
                # TF itself died on a case on this host (oneDNN's pooling dies of SIGFPE on some CPUs for a
                # window larger than its input, which the reference host answers with ValueError): a host
                # difference, as a different answer is; the golden stands
                for i in live:
                    _host_differs(module_file, i, f" (TF died of signal {crash.signal})")
                answers = {}
            for i, answer in answers.items():
                if pickle.dumps(answer, protocol=4) != pickle.dumps(out[i], protocol=4):
                    _host_differs(module_file, i)
        return out
    _live_answered.add(_key(module_file))
    return _run_live(module_file, indices, timeout, record=golden)


_live_answered: set[str] = set()


def answered_live(module_file: str) -> bool:
    """Whether `spawn` took the module's TF answers from live TF on this machine (a live-only module, or
    --tf-live all, or a stale golden) rather than from its golden."""
    return _key(module_file) in _live_answered


def this_host() -> dict[str, Any]:
    """This machine's CPU as a golden records it (host_cpu.CPUModel's fields but the name)."""
    import dataclasses

    from simdist.runtime import host_cpu
    model = dataclasses.asdict(host_cpu.detect())
    model.pop("name")
    model["flags"] = list(model["flags"])
    return model


def answers_model(module_file: str) -> Any:
    """The CPU model to check simdist with against the module's TF answers: this machine's where TF answered
    live; the golden's recording host where it records one (goldens since the forty-second session); else the
    model in force (the tests' "reference": the Intel Xeon the older goldens were recorded on). TF's answers
    follow the CPU (ops.host-cpu), so simdist models the CPU that gave them."""
    from simdist.runtime import host_cpu
    if answered_live(module_file):
        return host_cpu.detect()
    key = _key(module_file)
    if key not in _golden_hosts:
        g = _load(module_file)
        _golden_hosts[key] = dict(g["host"]) if g is not None and g.get("host") else None
    h = _golden_hosts[key]
    if h is None:
        return host_cpu.current()
    h = dict(h)
    return host_cpu.CPUModel("golden host", h.pop("vendor"), tuple(h.pop("flags")), **h)


_golden_hosts: dict[str, dict[str, Any] | None] = {}   # a golden's recording host, read once per module


class HostDiffersWarning(UserWarning):
    """Live TF on this machine answered a golden's case otherwise than the machine that recorded it."""


class TFCrashed(RuntimeError):
    """The TF worker died of a signal (TF itself crashed on one of the cases)."""

    def __init__(self, message: str, signal: int) -> None:
        super().__init__(message)
        self.signal = signal


def _host_differs(module_file: str, index: int, how: str = "") -> None:
    """A live slice's answer differs from the golden's, recorded by the same TF release: TF's value
    depends on the host here (oneDNN's float16/bfloat16 kernels follow the CPU's instruction set,
    Eigen's float32 reciprocal and rsqrt packets its vrcpps/vrsqrtps tables, a kernel may read
    uninitialised memory). simdist models the recording host (docs/spec.md ops.eigen-kernels), so
    the case keeps the golden's answer, and the run says so."""
    import warnings
    warnings.warn(HostDiffersWarning(
        f"{os.path.basename(module_file)} case {index}: live TF on this host differs{how} from the golden recorded "
        f"with the same release on the reference host; simdist is checked against the golden's answer"),
        stacklevel=3)


def _run_live(module_file: str, indices: list[int], timeout: float, record: bool = False,
              replace: bool = False) -> dict[int, Any]:
    env = dict(os.environ, TF_CPP_MIN_LOG_LEVEL="3", PYTHONPATH=os.pathsep.join(sys.path))
    argv = [module_file, ",".join(map(str, indices))]
    code, out, err = run_worker(argv, os.path.dirname(module_file), env, timeout)
    if code != 0:
        text = f"TF worker for {os.path.basename(module_file)} failed (exit {code}):\n{err.decode(errors='replace')[-3000:]}"
        raise TFCrashed(text, -code) if code < 0 else RuntimeError(text)
    results = pickle.loads(out)
    if record:
        _refresh(module_file, results, replace)
    return results


_zygote_children_cpu = [0.0]   # the current zygote's children's CPU seconds


def close_zygote() -> None:
    """End this process' zygote. Reaping it adds its own CPU and its children's (already counted in
    stats["cpu"]) to RUSAGE_CHILDREN: stats["cpu"] gives the latter back, so RUSAGE_CHILDREN plus
    stats["cpu"] keeps counting each CPU second once."""
    global _zygote
    if _zygote is not None:
        _zygote.close()
        _zygote = None
        stats["cpu"] -= _zygote_children_cpu[0]
        _zygote_children_cpu[0] = 0.0


def run_worker(argv: list[str], cwd: str, env: dict[str, str], timeout: float) -> tuple[int, bytes, bytes]:
    """(exit code, stdout, stderr) of `python *argv` in `cwd` with `env`: a child of this process'
    TF zygote (simdist/conformance/backends/tf_zygote.py) when it can serve `env`, else a fresh
    interpreter."""
    global _zygote
    # imported here, not at the top: a worker process (`python module.py`) must not import simdist for it
    from simdist.conformance.backends import tf_zygote
    if use_zygote and tf_zygote.FORK_OK:
        if _zygote is not None and not _zygote.serves(env):
            # another environment than the zygote imported TF with (a module passing its worker a
            # variable): a zygote for this one, as a fresh process would import TF with it
            close_zygote()
            stats["restarts"] += 1
        if _zygote is None:
            _zygote = tf_zygote.Zygote(env, cwd=str(HERE))
            atexit.register(close_zygote)
        code, out, err, cpu = _zygote.run(argv, cwd, env, timeout)
        stats["forked"] += 1
        stats["cpu"] += cpu
        _zygote_children_cpu[0] += cpu
        return code, out, err
    proc = subprocess.run([sys.executable, *argv], capture_output=True, env=env, cwd=cwd, timeout=timeout)
    return proc.returncode, proc.stdout, proc.stderr


def serve(worker: Any) -> None:
    """The worker side: parse the indices from argv, write `worker(indices)` pickled to stdout."""
    out = worker([int(x) for x in sys.argv[1].split(",") if x])
    sys.stdout.buffer.write(pickle.dumps(out))
    sys.stdout.flush()


def skip_unless_golden_fits_this_cpu() -> None:
    """Skip a case simdist checks with this machine's CPU model (host_cpu.using("host")) when TF's answers come
    from the golden and this CPU's oneDNN default differs from the golden's host (an Intel Xeon whose TF runs
    oneDNN; on an AVX2-only AMD EPYC TF 2.21 leaves it off): only live TF answers for this machine there."""
    import pytest

    from simdist.runtime import host_cpu
    if live_mode != "all" and host_cpu.detect().onednn_enabled != host_cpu.REFERENCE.onednn_enabled:
        pytest.skip("this CPU's oneDNN default differs from the golden's host: run with --tf-live all to check it")
