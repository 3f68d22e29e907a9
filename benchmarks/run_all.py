"""Run every benchmark, one after another, each printing its side-by-side ratios.

    python benchmarks/run_all.py [--quick] [--no-tf] [--only NAME ...]

--quick shrinks the long runs (the 512-GPU simulator cases, the 1,024-worker timing-only PS run,
the 1,000-seed sweep, the 1,000-plan exploration) so the whole set takes minutes instead of about an hour; the figures in
docs/benchmarks.md come from full runs. Exit status: non-zero if any benchmark failed.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent

# name -> (full arguments, --quick arguments)
BENCHMARKS: dict[str, tuple[list[str], list[str]]] = {
    "foundation": ([], ["--repeat", "3"]),
    "sim": ([], ["--quick", "--reps", "3"]),
    "ps": ([], ["--big-workers", "256", "--big-ps", "64", "--big-closures", "2000"]),
    "sweep": ([], ["--seeds", "200"]),
    "startup": ([], ["--repeat", "5"]),
    "explore": ([], ["--plans", "200"]),
    "conv": ([], ["--repeat", "5"]),
    "train": ([], ["--repeat", "3", "--steps", "100"]),
    "keras": ([], ["--repeat", "1"]),
    "input": ([], ["--examples", "1024", "--repeat", "1"]),
    "ps_reread": ([], ["--steps", "100", "--repeat", "1"]),
}
TAKES_NO_TF = {"foundation", "ps", "conv", "train", "keras"}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="shorter runs (minutes, not an hour)")
    ap.add_argument("--no-tf", action="store_true", help="skip the TensorFlow side (no tf extra installed)")
    ap.add_argument("--only", nargs="+", choices=sorted(BENCHMARKS), help="run only these")
    args = ap.parse_args()
    failed = []
    for name in args.only or list(BENCHMARKS):
        full, quick = BENCHMARKS[name]
        cmd = [sys.executable, str(HERE / f"bench_{name}.py"), *(quick if args.quick else full)]
        if args.no_tf and name in TAKES_NO_TF:
            cmd.append("--no-tf")
        print(f"\n=== {name}: {' '.join(cmd[1:])}", flush=True)
        if subprocess.run(cmd).returncode != 0:
            failed.append(name)
    if failed:
        print(f"\nfailed: {', '.join(failed)}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
