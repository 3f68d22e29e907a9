"""bench_train.py's training step with simdist's compiled in-order FMA kernels and without, under both CPU models.

    python benchmarks/bench_train_kernels.py [--steps 200] [--repeat 3] [--baseline PATH] [--models host,reference]

The kernels (simdist/runtime/ops/_fma.c, fma_native.py) compute oneDNN's float32 product orders, which the
models run where oneDNN does (SIMDIST_HOST_CPU=host on an AVX-512 Xeon with oneDNN, and `reference`, the tests'
model). Side by side in one run, each job a fresh interpreter running bench_train.py's simdist job (the 784-256-10
MLP, global batch 256, MirroredStrategy on 4 replicas, the step in a tf.function), interleaved `--repeat` times:
for each model, the pure-Python kernels (SIMDIST_PURE_KERNELS=1) and the compiled ones; with `--baseline`, the
same job on another checkout (e.g. the code before the kernels) under each model; and bench_train's NumPy floor.
Reports the median CPU ms per step (time.process_time of the job) and wall, and per round the pure / compiled
ratio. Out of the box otherwise (default_env).
"""

from __future__ import annotations

import argparse
import os
import statistics
from typing import Any

from bench_train import JOB
from default_env import out_of_the_box
from fresh_job import run_fresh


def _job(steps: int, env: dict[str, str], backend: str = "simdist", path: list[str] | None = None) -> dict[str, Any]:
    saved = dict(os.environ)
    os.environ.update(env)
    try:
        return run_fresh(JOB, backend, steps, what=f"{backend} {env}", path=path, isolated=path is not None)
    finally:
        os.environ.clear()
        os.environ.update(saved)


def main() -> None:
    out_of_the_box()
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--steps", type=int, default=200)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--baseline", help="another checkout to run the same simdist job from (its PYTHONPATH)")
    ap.add_argument("--models", default="host,reference", help="CPU models, comma-separated (default host,reference)")
    a = ap.parse_args()
    models = a.models.split(",")
    jobs: dict[str, tuple[dict[str, str], str, list[str] | None]] = {}
    for model in models:
        if a.baseline:
            jobs[f"{model}, baseline"] = ({"SIMDIST_HOST_CPU": model}, "simdist", [a.baseline])
        jobs[f"{model}, pure kernels"] = ({"SIMDIST_HOST_CPU": model, "SIMDIST_PURE_KERNELS": "1"}, "simdist", None)
        jobs[f"{model}, compiled kernels"] = ({"SIMDIST_HOST_CPU": model}, "simdist", None)
    jobs["NumPy floor"] = ({}, "numpy", None)
    runs: dict[str, list[dict[str, Any]]] = {name: [] for name in jobs}
    for r in range(a.repeat):
        for name, (env, backend, path) in jobs.items():
            res = _job(a.steps, env, backend, path)
            runs[name].append(res)
            print(f"  round {r + 1}: {name:<28} {1e3 * res['cpu_s'] / a.steps:6.2f} ms CPU per step, "
                  f"{1e3 * res['wall_s'] / a.steps:6.2f} ms wall", flush=True)
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print(f"\ntraining step, {a.steps} steps; median of {a.repeat} interleaved runs; load average {load:.1f} at the end")
    print(f"{'job':<30} {'ms/step (CPU)':>14} {'ms/step (wall)':>15}  per round (CPU)")
    for name in jobs:
        cpu = statistics.median(x["cpu_s"] for x in runs[name]) / a.steps
        wall = statistics.median(x["wall_s"] for x in runs[name]) / a.steps
        rounds = ", ".join(f"{1e3 * x['cpu_s'] / a.steps:.2f}" for x in runs[name])
        print(f"{name:<30} {1e3 * cpu:14.2f} {1e3 * wall:15.2f}  {rounds}")
    print()
    for model in models:
        for before in ("baseline", "pure kernels"):
            if f"{model}, {before}" not in runs:
                continue
            ratios = [x["cpu_s"] / y["cpu_s"] for x, y in zip(runs[f"{model}, {before}"],
                                                             runs[f"{model}, compiled kernels"])]
            print(f"{model}: {before} / compiled kernels, CPU: {statistics.median(ratios):.2f}x "
                  f"(per round {', '.join(f'{q:.2f}' for q in ratios)})")
    same = {name: (runs[name][-1]["w1"], runs[name][-1]["w2"]) for name in jobs if name != "NumPy floor"}
    print("final weights' sums per job (the kernels must not change a bit):")
    for name, (w1, w2) in same.items():
        print(f"  {name:<30} w1 {w1!r}, w2 {w2!r}")


if __name__ == "__main__":
    main()
