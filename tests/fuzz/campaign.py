"""A long fuzzing run with progress: programs START..START+N of stream SEED in batches, one
line per batch (programs run so far, disagreements by open/new class), the new ones described:

    python tests/fuzz/campaign.py SEED START N [--batch 50] [--answers DIR | --live]

TF's answers are kept in (and read from) answers.DEFAULT_DIR, so a second campaign over the same
programs asks TF only for programs whose text changed; `--live` asks TF for every program.

Exit status 1 when a disagreement outside tests/fuzz/known.py was found.
"""
import argparse
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))
from differ import TFWorker, describe, disagreements  # noqa: E402
from answers import DEFAULT_DIR, Answers  # noqa: E402
from known import key_of, open_class  # noqa: E402


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("seed", type=int)
    ap.add_argument("start", type=int)
    ap.add_argument("n", type=int)
    ap.add_argument("--batch", type=int, default=50)
    ap.add_argument("--answers", default=DEFAULT_DIR, help="directory of TF's kept answers")
    ap.add_argument("--live", action="store_true", help="ask TF for every program (keep nothing)")
    a = ap.parse_args()
    w = TFWorker()
    answers = None if a.live else Answers(a.answers)
    known: dict = {}
    new: dict = {}
    try:
        for lo in range(a.start, a.start + a.n, a.batch):
            idx = list(range(lo, min(lo + a.batch, a.start + a.n)))
            for p, where in disagreements(w, a.seed, idx, answers=answers):
                if open_class(p, where) is not None:
                    k = key_of(p, where)
                    known[k] = known.get(k, 0) + 1
                    continue
                k = key_of(p, where)
                if k not in new:
                    print(f"NEW {k} seed={a.seed} index={p.index} mode={p.mode}: {describe(p, where)[:600]}", flush=True)
                new[k] = new.get(k, 0) + 1
            print(f"PROGRESS seed={a.seed} programs={idx[-1] - a.start + 1} new={sum(new.values())} "
                  f"known={sum(known.values())}" + (f" kept-answers={answers.hits}" if answers else ""), flush=True)
    finally:
        w.close()
    print("NEW", sorted(new.items(), key=lambda kv: -kv[1]))
    print("KNOWN", sorted(known.items(), key=lambda kv: -kv[1]))
    return 1 if new else 0


if __name__ == "__main__":
    sys.exit(main())
