"""Run one Python program as every task of a local TF 2.21 multi-worker cluster (facts tool).

Each task is its own process with its own ``TF_CONFIG`` (localhost ports picked free), as a real
MultiWorkerMirroredStrategy job runs. Used by the fact scripts beside it; the results are
recorded in docs/reference/mwms-tf-2.21.md. Wall-clock timings here are observations of real
TF, printed for the reference, never used by simdist.

    python docs/tools/mwms_facts/cluster.py PROGRAM.py --workers 2 [--chief] [--timeout 120] [-- ARGS]

Every child is killed (SIGKILL, by pid) when the run ends or times out.
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import socket
import subprocess
import sys
import threading
import time
from dataclasses import dataclass, field


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("localhost", 0))
        return s.getsockname()[1]


def make_cluster(workers: int, chief: bool = False) -> dict[str, list[str]]:
    spec: dict[str, list[str]] = {}
    if chief:
        spec["chief"] = [f"localhost:{free_port()}"]
    spec["worker"] = [f"localhost:{free_port()}" for _ in range(workers)]
    return spec


def tasks_of(spec: dict[str, list[str]]) -> list[tuple[str, int]]:
    return [(job, i) for job in ("chief", "worker") for i in range(len(spec.get(job, ())))]


@dataclass
class Task:
    job: str
    index: int
    proc: subprocess.Popen
    lines: list[tuple[float, str]] = field(default_factory=list)
    t0: float = 0.0
    ended: float | None = None

    @property
    def name(self) -> str:
        return f"{self.job}:{self.index}"


def _pump(task: Task) -> None:
    assert task.proc.stdout is not None
    for line in task.proc.stdout:
        task.lines.append((time.monotonic() - task.t0, line.rstrip("\n")))
    task.proc.wait()
    task.ended = time.monotonic() - task.t0


def start_task(program: str, spec: dict, job: str, index: int, args: list[str],
               env_extra: dict[str, str] | None = None, t0: float | None = None,
               tf_config: dict | None = None) -> Task:
    env = dict(os.environ)
    env.update({"CUDA_VISIBLE_DEVICES": "", "TF_CPP_MIN_LOG_LEVEL": env.get("TF_CPP_MIN_LOG_LEVEL", "1"),
                "PYTHONUNBUFFERED": "1"})
    env["TF_CONFIG"] = json.dumps(tf_config if tf_config is not None
                                  else {"cluster": spec, "task": {"type": job, "index": index}})
    if env_extra:
        env.update(env_extra)
    proc = subprocess.Popen([sys.executable, program, *args], stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT, text=True, env=env)
    task = Task(job, index, proc, t0=time.monotonic() if t0 is None else t0)
    threading.Thread(target=_pump, args=(task,), daemon=True).start()
    return task


def kill(task: Task) -> None:
    if task.proc.poll() is None:
        os.kill(task.proc.pid, signal.SIGKILL)
        task.proc.wait()


def wait_all(tasks: list[Task], timeout: float) -> bool:
    """Wait for every task; kill the rest after ``timeout`` seconds. True if all ended."""
    deadline = time.monotonic() + timeout
    for t in tasks:
        left = deadline - time.monotonic()
        try:
            t.proc.wait(timeout=max(left, 0.01))
        except subprocess.TimeoutExpired:
            pass
    all_ended = all(t.proc.poll() is not None for t in tasks)
    for t in tasks:
        kill(t)
    time.sleep(0.2)  # let the pumps drain
    return all_ended


def report(tasks: list[Task], grep: tuple[str, ...] = ()) -> None:
    for t in tasks:
        print(f"=== {t.name} exit={t.proc.returncode} ended_at={t.ended if t.ended is None else round(t.ended, 1)}s")
        for ts, line in t.lines:
            if not grep or any(g in line for g in grep):
                print(f"  [{ts:7.1f}s] {line}")


def run(program: str, workers: int, chief: bool = False, args: list[str] | None = None,
        timeout: float = 120.0, grep: tuple[str, ...] = ()) -> list[Task]:
    spec = make_cluster(workers, chief)
    t0 = time.monotonic()
    tasks = [start_task(program, spec, job, i, list(args or ()), t0=t0) for job, i in tasks_of(spec)]
    ok = wait_all(tasks, timeout)
    if not ok:
        print(f"(timeout after {timeout}s: remaining tasks killed)")
    report(tasks, grep)
    return tasks


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("program")
    p.add_argument("--workers", type=int, default=2)
    p.add_argument("--chief", action="store_true")
    p.add_argument("--timeout", type=float, default=120.0)
    p.add_argument("--grep", action="append", default=[])
    p.add_argument("args", nargs="*")
    a = p.parse_args()
    run(a.program, a.workers, a.chief, a.args, a.timeout, tuple(a.grep))


if __name__ == "__main__":
    main()
