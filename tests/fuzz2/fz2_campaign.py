"""A campaign of the second fuzzer: programs START..START+N of stream SEED, one progress line per
batch, each disagreeing tree minimized (alone, eagerly when it still disagrees there) and printed
with its reproducer, then the counts by (callable at the tree's root, kind):

    python tests/fuzz2/fz2_campaign.py SEED START N [--batch 20] [--mode eager|function|grad|dist]

Exit status 1 when any program disagrees.
"""
from __future__ import annotations

import argparse
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))
from fz2_run import TFWorker2, describe, disagreements_of, kind_of, minimize, run_simdist  # noqa: E402
from fz2_trees import Prog, generate  # noqa: E402


def root_of(expr: str) -> str:
    """The callable at a tree's root: `tf.math.add(...)` -> math.add; an operator -> its symbol."""
    m = re.match(r"tf\.([\w.]+)\(", expr)
    if m and _closing(expr, m.end() - 1) == len(expr) - 1:
        return m.group(1)
    if expr.startswith("(") and _closing(expr, 0) == len(expr) - 1:
        depth, i = 0, 1
        for i, c in enumerate(expr[1:], 1):   # the operator at depth 1
            depth += c in "([" and 1 or -(c in ")]")
            if depth == 0 and c == " ":
                return "operator " + expr[i + 1:].split(" ", 1)[0]
        return "operator " + expr[1]
    if expr.startswith("abs("):
        return "operator abs()"
    return "index" if expr.endswith("]") else "attribute"


def _closing(s: str, k: int) -> int:
    depth = 0
    for i in range(k, len(s)):
        depth += {"(": 1, "[": 1, ")": -1, "]": -1}.get(s[i], 0)
        if depth == 0:
            return i
    return -1


def stream(worker: TFWorker2, seed: int, indices: list[int], mode: str | None, batch: int,
           generate=generate, run_simdist=run_simdist, disagreements_of=disagreements_of):
    """(program, tree, simdist's outcome, TF's outcome) of each disagreement; TF runs batch k while
    simdist runs it and generates batch k + 1. The third fuzzer passes its own generator, runner and
    comparison (tests/fuzz3/fz3_campaign.py)."""
    chunks = [indices[lo:lo + batch] for lo in range(0, len(indices), batch)]
    if not chunks:
        return
    progs = [generate(seed, i, mode) for i in chunks[0]]
    worker.submit(progs)
    for k in range(len(chunks)):
        got = run_simdist(progs)
        following = [generate(seed, i, mode) for i in chunks[k + 1]] if k + 1 < len(chunks) else []
        want = worker.collect()
        for p, g, w in zip(progs, got, want):
            for t, a, b in disagreements_of(p, g, w):
                yield p, t, a, b
        worker.submit(following)
        progs = following


def failures_of(disagreements, worker, seed: int, known_key, minimize=minimize, describe=describe
                ) -> tuple[list[str], dict]:
    """The test's verdict on a stream of disagreements: a minimised reproducer of each one, except
    those `known_key(program, tree, got, want)` files under an open class (it returns the class's
    key, counted, or None). Shared with the third fuzzer, which passes its own functions."""
    failures: list[str] = []
    known: dict = {}
    for p, t, got, want in disagreements:
        key = known_key(p, t, got, want)
        if key is not None:
            known[key] = known.get(key, 0) + 1
            continue
        small, sg, sw = minimize(p, t, worker) if t >= 0 else (p, None, None)
        if sg is None:
            small, sg, sw = p, got, want
        else:
            t = 0
        failures.append(f"program seed={seed} index={p.index} mode={p.mode}: {describe(small, t, sg, sw)}\n{small.source()}")
    return failures, known


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("seed", type=int)
    ap.add_argument("start", type=int)
    ap.add_argument("n", type=int)
    ap.add_argument("--batch", type=int, default=20)
    ap.add_argument("--mode")
    a = ap.parse_args()
    w = TFWorker2()
    counts: dict = {}
    done = 0
    try:
        for lo in range(a.start, a.start + a.n, a.batch):
            idx = list(range(lo, min(lo + a.batch, a.start + a.n)))
            for p, t, g, want in stream(w, a.seed, idx, a.mode, a.batch):
                key = (root_of(p.exprs[t]) if t >= 0 else "program", kind_of(g, want), p.mode)
                counts[key] = counts.get(key, 0) + 1
                if counts[key] <= 2:
                    small, sg, sw = minimize(p, t, w) if t >= 0 else (p, g, want)
                    if sg is None:
                        small, sg, sw, t2 = p, g, want, t
                    else:
                        t2 = 0
                    print(f"DISAGREE {key} seed={a.seed} index={p.index}: {describe(small, t2, sg, sw)}\n"
                          f"--- reproducer ---\n{small.source()}\n", flush=True)
            done += len(idx)
            print(f"PROGRESS programs={done} disagreements={sum(counts.values())}", flush=True)
    finally:
        w.close()
    print("COUNTS", sorted(counts.items(), key=lambda kv: -kv[1]))
    return 1 if counts else 0


if __name__ == "__main__":
    sys.exit(main())
