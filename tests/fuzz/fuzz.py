"""Run N random programs from a seed on simdist and on real TF 2.21 and print every
disagreement, minimized, with a reproducer:

    python tests/fuzz/fuzz.py --seed 1 -n 500 [--mode eager|grad|dist] [--no-minimize]

Exit status 1 when any program disagrees.
"""

from __future__ import annotations

import argparse
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))

from differ import TFWorker, describe, disagreements, minimize  # noqa: E402


def fuzz(seed: int, count: int, start: int = 0, mode: str | None = None, batch: int = 20,
         worker: TFWorker | None = None, minimized: bool = True, out=sys.stdout) -> list[str]:
    """Run programs start..start+count of stream `seed`; return one report per disagreement."""
    own = worker is None
    worker = worker or TFWorker()
    reports = []
    try:
        for p, where in disagreements(worker, seed, list(range(start, start + count)), mode, batch):
            small, small_where = minimize(p, worker) if minimized else (p, where)
            report = (f"program seed={seed} index={p.index} mode={p.mode} ({len(p.steps)} steps; minimized to "
                      f"{len(small.steps)}): {describe(small, small_where)}\n--- reproducer ---\n{small.source()}\n")
            reports.append(report)
            print(report, file=out, flush=True)
    finally:
        if own:
            worker.close()
    return reports


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("-n", type=int, default=100)
    ap.add_argument("--start", type=int, default=0)
    ap.add_argument("--mode", choices=["eager", "grad", "dist"])
    ap.add_argument("--no-minimize", action="store_true")
    a = ap.parse_args()
    reports = fuzz(a.seed, a.n, a.start, a.mode, minimized=not a.no_minimize)
    print(f"{a.n} programs from seed {a.seed}: {len(reports)} disagree")
    return 1 if reports else 0


if __name__ == "__main__":
    sys.exit(main())
