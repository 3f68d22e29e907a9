"""A campaign of the twentieth fuzzer (raw ops from their OpDefs): programs START..START+N of root
seed SEED, TF's answers kept under .cache/fuzz20-answers, each disagreeing snippet minimized and
printed with its reproducer, then the counts by (snippet label, kind, mode):

    python tests/fuzz20/fz20_campaign.py SEED START N [--batch 20] [--mode M] [--show 2] [--no-keep] [--no-minimize]

The runner, TF worker, comparison and minimizer are the fourteenth fuzzer's (tests/fuzz14/fz14_run.py); simdist's
side of each batch runs under an address-space limit (SIMDIST_ADDRESS_LIMIT: a program that would take more is a
MemoryError outcome).
Exit status 1 when any snippet outside tests/fuzz20/fz20_known.py disagrees.
"""
from __future__ import annotations

import argparse
import os
import resource
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
TESTS = os.path.dirname(HERE)
for _p in (os.path.join(TESTS, "fuzz14"), HERE, os.path.dirname(TESTS)):
    if _p not in sys.path:
        sys.path.insert(0, _p)
from fz14_run import KeptWorker14, describe, disagreements_of, kind_of, minimize, run_simdist  # noqa: E402

import fz2_campaign  # noqa: E402  (on the path fz14_run sets up)
from fz20_known import known_key  # noqa: E402
from fz20_progs import generate  # noqa: E402

ANSWERS_DIR = os.path.join(os.path.dirname(TESTS), ".cache", "fuzz20-answers")
# The address space simdist's side of a batch may use (RLIMIT_AS, soft): a program that would take more (seed
# 3720261203 --mode tape #21: a float64 gradient of 2**31 - 1 segments, 16 GB) gets its MemoryError as its
# outcome instead of the kernel's OOM killer ending the campaign. TF's worker is started outside it (its
# answer for such a program is ("tf-died", ...), not compared). docs/spec.md `ops.fuzz-raw`, fz38a.
SIMDIST_ADDRESS_LIMIT = 6 * 2 ** 30


def run_simdist_limited(programs: list) -> list:
    """fz14_run.run_simdist(programs) under SIMDIST_ADDRESS_LIMIT (the previous soft limit restored after, so
    the TF worker, which the runner may restart between batches, inherits none)."""
    soft, hard = resource.getrlimit(resource.RLIMIT_AS)
    limit = SIMDIST_ADDRESS_LIMIT if hard == resource.RLIM_INFINITY else min(SIMDIST_ADDRESS_LIMIT, hard)
    resource.setrlimit(resource.RLIMIT_AS, (limit, hard))
    try:
        return run_simdist(programs)
    finally:
        resource.setrlimit(resource.RLIMIT_AS, (soft, hard))


def stream(worker: KeptWorker14, seed: int, indices: list[int], mode: str | None, batch: int):
    """(program, snippet, simdist's outcome, TF's outcome) of each disagreement: the second
    fuzzer's pipelined stream with this generator and fz14's runner and comparison."""
    return fz2_campaign.stream(worker, seed, indices, mode, batch, generate=generate, run_simdist=run_simdist_limited,
                               disagreements_of=disagreements_of)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("seed", type=int)
    ap.add_argument("start", type=int)
    ap.add_argument("n", type=int)
    ap.add_argument("--batch", type=int, default=20)
    ap.add_argument("--mode")
    ap.add_argument("--show", type=int, default=2, help="reproducers printed per class")
    ap.add_argument("--no-keep", action="store_true", help="ask TF for every program (no kept answers)")
    ap.add_argument("--no-minimize", action="store_true", help="print each class's program as it is (TF is not asked)")
    a = ap.parse_args()
    w = KeptWorker14(ANSWERS_DIR, keep=not a.no_keep)
    counts: dict = {}
    known: dict = {}
    try:
        for p, t, g, want in stream(w, a.seed, list(range(a.start, a.start + a.n)), a.mode, a.batch):
            key = (p.labels[t] if t >= 0 else "program", kind_of(g, want), p.mode)
            if known_key(p, t, g, want) is not None:
                known[key] = known.get(key, 0) + 1
                continue
            counts[key] = counts.get(key, 0) + 1
            if counts[key] <= a.show:
                small, sg, sw = minimize(p, t, w) if t >= 0 and not a.no_minimize else (p, None, None)
                t2 = 0
                if sg is None:
                    small, sg, sw, t2 = p, g, want, t
                print(f"DISAGREE {key} seed={a.seed} index={p.index}: {describe(small, t2, sg, sw)}\n"
                      f"--- reproducer ---\n{small.source()}\n", flush=True)
    finally:
        w.close()
    print(f"PROGRAMS {a.n} DISAGREEMENTS {sum(counts.values())} CLASSES {len(counts)} KNOWN {sum(known.values())}")
    print("COUNTS", sorted(counts.items(), key=lambda kv: -kv[1]))
    print("KNOWN", sorted(known.items(), key=lambda kv: -kv[1]))
    return 1 if counts else 0


if __name__ == "__main__":
    sys.exit(main())
