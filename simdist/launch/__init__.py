"""`simdist launch`: run one TF program once per worker of a simulated cluster, in one process.

A MultiWorkerMirroredStrategy job is the same program started on every host with its own
`TF_CONFIG`. `launch(main, workers=N)` does that on the simulated cluster: it builds the
cluster (N hosts, chief-less `{"worker": [...]}` by default, `chief=True` adds a chief; each
host with `gpus_per_worker` GPUs, or one CPU), then runs `main` once per task as a client of a
`strategies.clients.ClientGroup` (each client its own execution context, meeting the others at
the collectives), strictly in task order. While a client runs, `os.environ` shows its own
`TF_CONFIG` (reads, writes and `os.getenv` are per client), its `print`s go to its own stream,
prefixed by its task in the combined output (`[worker 0] ...`), and Keras's globals (dtype
policy, floatx, layer-name counters, global seed generator, ...) and Python's/NumPy's global
random states are its own, as in a process of its own. See docs/multi-worker.md.
"""

from __future__ import annotations

import io
import json
import os
import random
import runpy
import sys
from collections.abc import MutableMapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Iterator, Sequence

import numpy as np

from simdist import session
from simdist.strategies import timing
from simdist.strategies.clients import ClientGroup
from simdist.usage import UsageError

__all__ = ["LaunchResult", "launch", "task_label", "tf_config"]

PORT = 2222


@dataclass
class LaunchResult:
    """What a launch gives back: each task's return value (None for a script), the combined
    prefixed stdout, the simulated seconds the job took, each failed task's exception, and
    when each task's own work ended (simulated seconds); ``cost_model``: how compute was timed
    ("roofline" or "flops", `simdist.cost_model`)."""

    results: dict[tuple[str, int], Any] = field(default_factory=dict)
    stdout: str = ""
    sim_time: float = 0.0
    errors: dict[tuple[str, int], BaseException] = field(default_factory=dict)
    end_times: dict[tuple[str, int], float] = field(default_factory=dict)
    cost_model: str = "flops"

    @property
    def ok(self) -> bool:
        return not self.errors


def task_label(task: tuple[str, int]) -> str:
    return f"{task[0]} {task[1]}"


def cluster_dict(workers: int, chief: bool) -> dict[str, list[str]]:
    """The launch's cluster spec: `worker` (and `chief`) tasks at simulated addresses."""
    out: dict[str, list[str]] = {}
    if chief:
        out["chief"] = [f"chief-0.simdist:{PORT}"]
    out["worker"] = [f"worker-{i}.simdist:{PORT}" for i in range(workers)]
    return out


def tf_config(workers: int, chief: bool, task: tuple[str, int]) -> str:
    """The TF_CONFIG a task of the launch sees (JSON, as a real worker's environment holds it)."""
    return json.dumps({"cluster": cluster_dict(workers, chief), "task": {"type": task[0], "index": task[1]}})


# --- per-client process state ------------------------------------------------------------------
_DELETED = object()


class _EnvironView(MutableMapping):
    """`os.environ` during a launch: the real environment with the running client's own
    overlay (its TF_CONFIG, and whatever it sets or deletes)."""

    def __init__(self, real: Any, overlays: list[dict[str, Any]]) -> None:
        self._real = real
        self._overlays = overlays
        self.current: int | None = None

    def _overlay(self) -> dict[str, Any]:
        return {} if self.current is None else self._overlays[self.current]

    def __getitem__(self, key: str) -> str:
        v = self._overlay().get(key)
        if v is _DELETED:
            raise KeyError(key)
        return v if v is not None else self._real[key]

    def __setitem__(self, key: str, value: str) -> None:
        if self.current is None:
            self._real[key] = value
        elif not isinstance(value, str):
            raise TypeError(f"str expected, not {type(value).__name__}")
        else:
            self._overlays[self.current][key] = value

    def __delitem__(self, key: str) -> None:
        if self.current is None:
            del self._real[key]
            return
        if key not in self:
            raise KeyError(key)
        self._overlays[self.current][key] = _DELETED

    def _keys(self) -> list[str]:
        ov = self._overlay()
        keys = [k for k in self._real if ov.get(k) is not _DELETED]
        keys += [k for k, v in ov.items() if v is not _DELETED and k not in self._real]
        return keys

    def __iter__(self) -> Iterator[str]:
        return iter(self._keys())

    def __len__(self) -> int:
        return len(self._keys())

    def copy(self) -> dict[str, str]:
        return dict(self)

    def __repr__(self) -> str:
        return f"environ({dict(self)!r})"


class _Output(io.TextIOBase):
    """`sys.stdout` during a launch: each client's text, line by line, prefixed by its task,
    in the order the lines are completed (deterministic, as the scheduling is)."""

    def __init__(self, labels: list[str], echo: Callable[[str], Any] | None, outside: Any) -> None:
        self._labels = labels
        self._partial = [""] * len(labels)
        self._echo = echo
        self._outside = outside
        self.lines: list[str] = []
        self.current: int | None = None

    def writable(self) -> bool:
        return True

    def write(self, s: str) -> int:
        i = self.current
        if i is None:
            return self._outside.write(s)
        text = self._partial[i] + s
        *done, self._partial[i] = text.split("\n")
        for line in done:
            self._emit(f"[{self._labels[i]}] {line}\n")
        return len(s)

    def _emit(self, line: str) -> None:
        self.lines.append(line)
        if self._echo is not None:
            self._echo(line)

    def flush(self) -> None:
        pass

    def close_all(self) -> None:
        for i, rest in enumerate(self._partial):
            if rest:
                self._emit(f"[{self._labels[i]}] {rest}\n")
                self._partial[i] = ""


class _ClientGlobals:
    """Process-wide state a real worker process keeps to itself, swapped at each switch:
    Python's and NumPy's global random states (each client starts from its own, seeded from the
    root seed and its task's label: `simdist.sim.rng.global_states`; a TF worker process's are
    seeded from OS entropy, so a run without any seed is reproducible here, and a program's own
    `np.random.seed(s)` still gives Keras's draws) and,
    once Keras is loaded, Keras's globals (`simdist.keras.process_state`: dtype policy, floatx,
    name counters and scopes, global seed generator, traced-step depth; each client starts from
    a fresh Keras's, as a new process does)."""

    def __init__(self, labels: list[str], seed: int) -> None:
        from simdist.sim.rng import global_states
        n = len(labels)
        states = [global_states(seed, f"launch/process-globals/{label}") for label in labels]
        self.py = [py for py, _ in states]
        self.np = [npst for _, npst in states]
        self.keras: list[Any] = [None] * n
        self.active: int | None = None
        self.outside: Any = None
        self.outside_random: tuple[Any, Any] | None = None
        self.outside_taken = False

    @staticmethod
    def _keras() -> Any:
        if "simdist.keras" not in sys.modules:
            return None
        from simdist.keras import process_state
        return process_state

    def switch(self, i: int | None) -> None:
        if i == self.active:
            return
        ks = self._keras()
        if self.active is not None:
            self.py[self.active] = random.getstate()
            self.np[self.active] = np.random.get_state()
            if ks is not None:
                self.keras[self.active] = ks.capture()
        elif not self.outside_taken:
            self.outside = ks.capture() if ks is not None else None
            self.outside_random = (random.getstate(), np.random.get_state())
            self.outside_taken = True
        if i is not None:
            random.setstate(self.py[i])
            np.random.set_state(self.np[i])
            if ks is not None:
                if self.keras[i] is None:
                    self.keras[i] = ks.fresh()
                ks.install(self.keras[i])
        else:   # back to the launcher: its own random states and Keras state (a fresh one if Keras came later)
            if self.outside_random is not None:
                random.setstate(self.outside_random[0])
                np.random.set_state(self.outside_random[1])
            if ks is not None:
                ks.install(self.outside if self.outside is not None else ks.fresh())
        self.active = i


# --- the cluster ---------------------------------------------------------------------------------
def _cluster_fits(tasks: list[tuple[str, int]], gpus: int) -> bool:
    have = {(h.job, h.task): h for h in session.cluster().hosts}
    return all(t in have and len(have[t].gpus) == gpus for t in tasks)


def _build_cluster(tasks: list[tuple[str, int]], gpus: int) -> Any:
    """One host per task: CPU hosts on 25 Gb/s Ethernet (presets.cpu_cluster), or hosts of
    `gpus` A100s on NVLink joined by a 100 Gb/s RDMA network (presets.gpu_cluster's)."""
    from simdist.sim import presets
    from simdist.sim.topology import Cluster
    if gpus == 0:
        jobs: dict[str, int] = {}
        for job, _ in tasks:
            jobs[job] = jobs.get(job, 0) + 1
        return presets.cpu_cluster(jobs=jobs)
    from simdist.sim import hardware
    from simdist.sim.units import parse_bandwidth
    hosts = [presets.make_gpu_host(gpus, job=job, task=t) for job, t in tasks]
    return Cluster(hosts, network={"bandwidth": parse_bandwidth("100Gbps", field="launch.network"),
                                   "latency": hardware.RDMA_LATENCY})


def _prepare_machine(tasks: list[tuple[str, int]], gpus: int, seed: int) -> None:
    """A configured cluster holding every task (with `gpus` GPUs each) is kept, with its fault
    plan (stragglers, slow links); otherwise the default one is built. A fresh clock, `seed`."""
    cl = session.cluster() if _cluster_fits(tasks, gpus) else _build_cluster(tasks, gpus)
    session.reconfigure(cl, seed)


# --- the launch ----------------------------------------------------------------------------------
def _check(main: Any, workers: Any, gpus_per_worker: Any, chief: Any, args: Any, seed: Any) -> None:
    if isinstance(workers, bool) or not isinstance(workers, int) or workers < 1:
        raise UsageError(f"launch: workers={workers!r}: expected an int >= 1")
    if isinstance(gpus_per_worker, bool) or not isinstance(gpus_per_worker, int) or gpus_per_worker < 0:
        raise UsageError(f"launch: gpus_per_worker={gpus_per_worker!r}: expected an int >= 0")
    if not isinstance(chief, bool):
        raise UsageError(f"launch: chief={chief!r}: expected True or False")
    if isinstance(args, (str, bytes)) or not all(isinstance(a, str) for a in args):
        raise UsageError(f"launch: args={args!r}: expected a sequence of strings")
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise UsageError(f"launch: seed={seed!r}: expected an int")
    if not callable(main):
        if not isinstance(main, (str, os.PathLike)):
            raise UsageError(f"launch: main={main!r}: expected a callable or the path of a Python script")
        if not Path(main).is_file():
            raise UsageError(f"launch: script {str(main)!r} does not exist")


def launch(main: Any, *, workers: int, gpus_per_worker: int = 0, chief: bool = False, args: Sequence[str] = (),
           seed: int = 0) -> LaunchResult:
    """Run `main` once per task of a simulated MultiWorkerMirroredStrategy cluster (`workers`
    workers, plus a chief with `chief`), each with its own TF_CONFIG. `main`: a callable (called
    with no arguments) or the path of a script (run as `__main__`, sys.argv = [script, *args])."""
    return _launch(main, workers=workers, gpus_per_worker=gpus_per_worker, chief=chief, args=args, seed=seed)


def _launch(main: Any, *, workers: int, gpus_per_worker: int = 0, chief: bool = False, args: Sequence[str] = (),
            seed: int = 0, echo: Callable[[str], Any] | None = None) -> LaunchResult:
    _check(main, workers, gpus_per_worker, chief, args, seed)
    tasks = ([("chief", 0)] if chief else []) + [("worker", i) for i in range(workers)]
    _prepare_machine(tasks, gpus_per_worker, seed)
    sim = session.simulator()
    overlays = [{"TF_CONFIG": tf_config(workers, chief, t)} for t in tasks]
    env = _EnvironView(os.environ, overlays)
    out = _Output([task_label(t) for t in tasks], echo, sys.stdout)
    globs = _ClientGlobals([task_label(t) for t in tasks], seed)
    timelines = [timing.Timeline(sim) for _ in tasks]

    def on_switch(i: int | None) -> None:
        env.current = i
        out.current = i
        globs.switch(i)

    def on_round() -> None:   # (at `clients.settle` and at the end)
        pending = [e for e in (tl.pending() for tl in timelines) if e is not None]
        if pending:
            sim.drive(sim.all_of(pending))

    group = ClientGroup(tasks, on_switch=on_switch, on_round=on_round)
    for c, tl in zip(group.clients, timelines):
        c.ctx.client.timeline = tl
        c.ctx.client.rng["root"] = int(seed)
    if callable(main):
        mains = [main] * len(tasks)
    else:
        path = str(main)
        mains = [lambda: _run_script(path)] * len(tasks)
    saved_env, saved_out, saved_argv, saved_path = os.environ, sys.stdout, sys.argv, list(sys.path)
    os.environ = env  # type: ignore[assignment]
    sys.stdout = out
    if not callable(main):
        sys.argv = [str(main), *args]
        sys.path.insert(0, str(Path(main).resolve().parent))   # (as `python script.py` does)
    try:
        group.run(mains)
    finally:
        os.environ = saved_env
        sys.stdout, sys.argv = saved_out, saved_argv
        sys.path[:] = saved_path
        globs.switch(None)
        out.close_all()
    on_round()
    result = LaunchResult(stdout="".join(out.lines), sim_time=float(sim.now), cost_model=session.cost_model())
    for t, c, tl in zip(tasks, group.clients, timelines):
        result.results[t] = c.value
        result.end_times[t] = tl.end
        if c.error is not None:
            result.errors[t] = c.error
    return result


def _run_script(path: str) -> None:
    """A script as `python path` runs it: as __main__; exit(0) is a normal end."""
    try:
        runpy.run_path(path, run_name="__main__")
    except SystemExit as e:
        if e.code not in (None, 0):
            raise
    return None
