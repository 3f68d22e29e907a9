"""`simdist explore` at the size the issue asks for: 1,000 fault plans of a ready PS scenario on
2 cores, as fresh commands (interpreter start, baseline, determinism sample, shrinking and
report included), serial and on a 2-worker process pool side by side. Checks that both give
byte-identical results (explore.json, plans.jsonl, results.csv) and that the process pool stays
under the target of 10 minutes per 1,000 plans (scaled to --plans).

    python benchmarks/bench_explore.py                         # 1000 plans of ps_failure_checkpoint.toml
    python benchmarks/bench_explore.py --plans 200 --no-serial

Exit status 0 when the target is met (and the results agree), 1 otherwise.
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

ROOT = Path(__file__).resolve().parents[1]
CLI = "import sys; from simdist.cli import main; sys.exit(main(sys.argv[1:]))"
TARGET_S_PER_1000 = 600.0
SAME = ("explore.json", "plans.jsonl", "results.csv")


def explore(out: Path, executor: str, args: argparse.Namespace) -> tuple[float, float, str]:
    """(wall seconds, CPU seconds of the whole process tree, last line) of one `simdist explore`."""
    cmd = [sys.executable, "-c", CLI, "explore", args.scenario, "--plans", str(args.plans), "--executor", executor,
           "--out", str(out), "--no-progress", "--force", "--no-plot"]
    if executor != "serial":
        cmd += ["--workers", str(args.workers)]
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([str(ROOT)] + [p for p in env.get("PYTHONPATH", "").split(os.pathsep) if p])
    r0 = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    proc = subprocess.run(cmd, capture_output=True, text=True, env=env, cwd=ROOT)
    wall = time.perf_counter() - t0
    r1 = resource.getrusage(resource.RUSAGE_CHILDREN)
    if proc.returncode not in (0, 1):
        sys.exit(f"{executor} explore failed ({proc.returncode}):\n{proc.stdout}\n{proc.stderr}")
    cpu = (r1.ru_utime - r0.ru_utime) + (r1.ru_stime - r0.ru_stime)
    return wall, cpu, proc.stdout.strip().splitlines()[-1]


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--plans", type=int, default=1000)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--scenario", default=str(ROOT / "scenarios/ps_failure_checkpoint.toml"))
    ap.add_argument("--no-serial", action="store_true", help="only the process pool (no serial run to compare)")
    args = ap.parse_args()
    runs = ["process"] if args.no_serial else ["serial", "process"]
    res: dict[str, tuple[float, float, str]] = {}
    files: dict[str, dict[str, bytes]] = {}
    with tempfile.TemporaryDirectory(prefix="simdist-bench-") as tmp:
        for ex in runs:
            out = Path(tmp) / ex
            res[ex] = explore(out, ex, args)
            files[ex] = {n: (out / n).read_bytes() for n in SAME}
            print(f"{ex:<8} {res[ex][0]:7.1f} s wall, {res[ex][1]:7.1f} s CPU, load {os.getloadavg()[0]:.2f}: "
                  f"{res[ex][2]}", flush=True)
    same = all(files[ex] == files[runs[0]] for ex in runs)
    target = TARGET_S_PER_1000 * args.plans / 1000
    print()
    print(f"simdist explore, {args.plans} plans of {Path(args.scenario).name}, {args.workers} workers, "
          f"{os.cpu_count()} CPUs, load average {os.getloadavg()[0]:.2f}")
    print(f"{'executor':<10}{'wall s':>9}{'CPU s':>9}{'cores used':>12}{'per plan ms':>13}{'target s':>10}")
    ok = same
    for ex in runs:
        wall, cpu, _ = res[ex]
        tgt = target if ex == "process" else None
        flag = "" if tgt is None else ("  ok" if wall < tgt else "  ABOVE TARGET")
        ok = ok and (tgt is None or wall < tgt)
        print(f"{ex:<10}{wall:>9.1f}{cpu:>9.1f}{cpu / wall:>12.2f}{1000 * wall / args.plans:>13.1f}"
              f"{'' if tgt is None else f'{tgt:>10.0f}'}{flag}")
    if "serial" in res:
        print(f"process pool speed-up over serial: {res['serial'][0] / res['process'][0]:.2f}x")
    print(f"results byte-identical across executors: {'yes' if same else 'NO'}")
    print("(cores used = CPU / wall of the command's process tree: below the worker count means other work shared "
          "the machine)")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
