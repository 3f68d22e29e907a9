"""`simdist run` start-up: parse, validate and build the cluster of the largest ready scenario
(`simdist run FILE --dry-run`, a fresh interpreter each time), side by side with
`python -c pass`. Target: the time simdist adds stays under 0.5 s.

    python benchmarks/bench_startup.py [--repeat 15] [--scenario scenarios/x.toml]

Exit status 0 when the target is met, 1 otherwise.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

from default_env import out_of_the_box

ROOT = Path(__file__).resolve().parents[1]
CLI = "import sys; from simdist.cli import main; sys.exit(main(sys.argv[1:]))"
TARGET_S = 0.5


def largest() -> Path:
    sys.path.insert(0, str(ROOT))
    from simdist.scenario import load
    best, size = None, -1
    for p in sorted((ROOT / "scenarios").glob("*.toml")):
        sc = load(p)
        # (a zoo model - [model] zoo = "transformer" - lists no variables: its size is its topology's)
        n = len(sc.topology.devices()) + len(sc.topology.links()) + len(sc.config["model"].get("variables", ()))
        if n > size:
            best, size = p, n
    assert best is not None
    return best


def timed(cmd: list[str], env: dict[str, str]) -> float:
    t0 = time.perf_counter()
    proc = subprocess.run(cmd, capture_output=True, text=True, env=env, cwd=ROOT)
    dt = time.perf_counter() - t0
    if proc.returncode != 0:
        sys.exit(f"{' '.join(cmd)} failed:\n{proc.stdout}{proc.stderr}")
    return dt


def main() -> int:
    out_of_the_box()
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--repeat", type=int, default=15)
    ap.add_argument("--scenario", default=None, help="default: the ready scenario with the most devices, links "
                                                     "and variables")
    args = ap.parse_args()
    scenario = Path(args.scenario) if args.scenario else largest()
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([str(ROOT)] + [p for p in env.get("PYTHONPATH", "").split(os.pathsep) if p])
    base_cmd = [sys.executable, "-c", "pass"]
    run_cmd = [sys.executable, "-c", CLI, "run", str(scenario), "--dry-run"]
    timed(run_cmd, env)  # warm the OS file cache once
    base, run = [], []
    for _ in range(args.repeat):      # interleaved, so both see the same machine load
        base.append(timed(base_cmd, env))
        run.append(timed(run_cmd, env))
    b, r = statistics.median(base), statistics.median(run)
    added = r - b
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print(f"simdist run {scenario.relative_to(ROOT) if scenario.is_relative_to(ROOT) else scenario} --dry-run "
          f"(parse, validate, build the cluster); median of {args.repeat}, load average {load:.2f}")
    print(f"  python -c pass          {b * 1000:7.1f} ms")
    print(f"  simdist run --dry-run   {r * 1000:7.1f} ms   ({r / b:.1f}x python -c pass)")
    print(f"  added by simdist        {added * 1000:7.1f} ms   target < {TARGET_S * 1000:.0f} ms: "
          f"{'ok' if added < TARGET_S else 'ABOVE TARGET'}")
    return 0 if added < TARGET_S else 1


if __name__ == "__main__":
    sys.exit(main())
