"""A campaign of the third fuzzer: programs START..START+N of stream SEED, one progress line per
batch, each disagreeing call minimized (alone, eagerly when it still disagrees there) and printed
with its reproducer, then the counts by (callable, kind, mode):

    python tests/fuzz3/fz3_campaign.py SEED START N [--batch 20] [--mode eager|sig|tape|dist] [--ext | --ext8]

--ext draws the programs with the extended catalogue (fz3_ops.EXT_OPS: complex numbers, tf.random,
tf.image, Eigen's newer kernels; another stream of the same seed); --ext8 with it and the eleventh
session's ops (fz3_ops.EXT8_OPS: fingerprint, the CTC decoders, fractional pools, eigh_tridiagonal,
logm, stateless_sample_distorted_bounding_box, is_symbolic_tensor; a third stream).

Exit status 1 when any program disagrees.
"""
from __future__ import annotations

import argparse
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))
from fz3_calls import generate  # noqa: E402
from fz3_run import TFWorker3, describe, disagreements_of, kind_of, minimize, run_simdist  # noqa: E402

import fz2_campaign  # noqa: E402  (on the path fz3_run sets up)


def root_of(expr: str) -> str:
    """The callable a call names: `tf.math.add(...)` -> math.add."""
    m = re.match(r"tf\.([\w.]+)\(", expr)
    return m.group(1) if m else expr[:20]


def stream(worker: TFWorker3, seed: int, indices: list[int], mode: str | None, batch: int, ext: int = 0):
    """(program, call, simdist's outcome, TF's outcome) of each disagreement: the second fuzzer's
    pipelined stream with this generator (its extended catalogue with `ext`), runner and comparison."""
    def gen(s: int, i: int, m: str | None) -> object:
        return generate(s, i, m, ext=ext)
    return fz2_campaign.stream(worker, seed, indices, mode, batch, generate=gen, run_simdist=run_simdist,
                               disagreements_of=disagreements_of)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("seed", type=int)
    ap.add_argument("start", type=int)
    ap.add_argument("n", type=int)
    ap.add_argument("--batch", type=int, default=20)
    ap.add_argument("--mode")
    ap.add_argument("--show", type=int, default=2, help="reproducers printed per class")
    ap.add_argument("--ext", action="store_const", const=1, default=0,
                    help="the extended catalogue (fz3_ops.EXT_OPS)")
    ap.add_argument("--ext8", action="store_const", const=2, dest="ext",
                    help="the extended catalogue with the eleventh session's ops (EXT_OPS + EXT8_OPS, another stream)")
    a = ap.parse_args()
    w = TFWorker3()
    counts: dict = {}
    done = 0
    try:
        idx = list(range(a.start, a.start + a.n))
        for p, t, g, want in stream(w, a.seed, idx, a.mode, a.batch, a.ext):
            key = (root_of(p.exprs[t]) if t >= 0 else "program", kind_of(g, want), p.mode)
            counts[key] = counts.get(key, 0) + 1
            if counts[key] <= a.show:
                small, sg, sw = minimize(p, t, w) if t >= 0 else (p, g, want)
                if sg is None:
                    small, sg, sw, t2 = p, g, want, t
                else:
                    t2 = 0
                print(f"DISAGREE {key} seed={a.seed} index={p.index}: {describe(small, t2, sg, sw)}\n"
                      f"--- reproducer ---\n{small.source()}\n", flush=True)
            done += 1
    finally:
        w.close()
    print(f"PROGRAMS {a.n} DISAGREEMENTS {sum(counts.values())}")
    print("COUNTS", sorted(counts.items(), key=lambda kv: -kv[1]))
    return 1 if counts else 0


if __name__ == "__main__":
    sys.exit(main())
