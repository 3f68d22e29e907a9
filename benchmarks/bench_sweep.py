"""Sweep executors side by side: the same 1,000-seed sweep on serial, a 2-worker process pool and
a 2-worker Dask LocalCluster, each as a fresh `simdist sweep` command (interpreter start,
imports, cluster start-up and shutdown included). Checks that the three tables are
byte-identical and prints the speed-ups against the targets (process >= 1.7x, Dask >= 1.5x).

    python benchmarks/bench_sweep.py                      # 1000 seeds, 2 workers
    python benchmarks/bench_sweep.py --seeds 200 --repeat 2

Exit status 0 when both targets are met (and the tables agree), 1 otherwise.
"""

from __future__ import annotations

import argparse
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from default_env import out_of_the_box

ROOT = Path(__file__).resolve().parents[1]
CLI = "import sys; from simdist.cli import main; sys.exit(main(sys.argv[1:]))"
TARGETS = {"process": 1.7, "dask": 1.5}


def sweep(out: Path, executor: str, args: argparse.Namespace) -> tuple[float, float]:
    """(wall seconds, CPU seconds of the whole process tree) of one `simdist sweep` command."""
    cmd = [sys.executable, "-c", CLI, "sweep", args.scenario, "--seeds", f"0..{args.seeds - 1}",
           "--executor", executor, "--out", str(out), "--no-progress", "--force"]
    for p in args.param:
        cmd += ["--param", p]
    if executor != "serial":
        cmd += ["--workers", str(args.workers)]
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([str(ROOT)] + [p for p in env.get("PYTHONPATH", "").split(os.pathsep) if p])
    r0 = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    proc = subprocess.run(cmd, capture_output=True, text=True, env=env, cwd=ROOT)
    wall = time.perf_counter() - t0
    r1 = resource.getrusage(resource.RUSAGE_CHILDREN)
    if proc.returncode != 0:
        sys.exit(f"{executor} sweep failed ({proc.returncode}):\n{proc.stdout}\n{proc.stderr}")
    return wall, (r1.ru_utime - r0.ru_utime) + (r1.ru_stime - r0.ru_stime)


def main() -> int:
    out_of_the_box()
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--seeds", type=int, default=1000)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--repeat", type=int, default=1, help="rounds (serial, process, dask each round); best kept")
    ap.add_argument("--scenario", default=str(ROOT / "scenarios/mirrored_allreduce.toml"))
    ap.add_argument("--param", action="append", default=None,
                    help="sweep parameters (default: training.steps=30 and all_reduce=ring: one ~50 ms run per seed)")
    args = ap.parse_args()
    if args.param is None:
        args.param = ["training.steps=30", "strategy.all_reduce=ring"]
    best: dict[str, float] = {}
    cpu: dict[str, float] = {}
    with tempfile.TemporaryDirectory(prefix="simdist-bench-") as tmp:
        tables: dict[str, bytes] = {}
        for r in range(args.repeat):
            for ex in ("serial", "process", "dask"):
                out = Path(tmp) / ex
                t, c = sweep(out, ex, args)
                if t < best.get(ex, float("inf")):
                    best[ex], cpu[ex] = t, c
                tables[ex] = (out / "results.csv").read_bytes()
                print(f"round {r + 1}: {ex:<8} {t:7.2f} s wall, {c:7.2f} s CPU, load {os.getloadavg()[0]:.2f}",
                      flush=True)
        same = tables["serial"] == tables["process"] == tables["dask"]
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print()
    print(f"simdist sweep, {args.seeds} seeds of {Path(args.scenario).name} ({' '.join(args.param)}), "
          f"{args.workers} workers, {os.cpu_count()} CPUs, load average {load:.2f}")
    print(f"{'executor':<10}{'wall s':>9}{'CPU s':>9}{'cores used':>12}{'per run ms':>12}{'speed-up':>10}{'target':>8}")
    ok = same
    for ex in ("serial", "process", "dask"):
        sp = best["serial"] / best[ex]
        tgt = TARGETS.get(ex)
        flag = "" if tgt is None else ("  ok" if sp >= tgt else "  BELOW TARGET")
        ok = ok and (tgt is None or sp >= tgt)
        print(f"{ex:<10}{best[ex]:>9.2f}{cpu[ex]:>9.2f}{cpu[ex] / best[ex]:>12.2f}{1000 * best[ex] / args.seeds:>12.1f}{sp:>9.2f}x"
              f"{'' if tgt is None else f'{tgt:>7.1f}x'}{flag}")
    print(f"tables byte-identical across executors: {'yes' if same else 'NO'}")
    print("(cores used = CPU / wall of the command's process tree: below the worker count means other work shared "
          "the machine)")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
