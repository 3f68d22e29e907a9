"""Survey: run programs without minimizing and count disagreements by (op, kind), with one
example each: python tests/fuzz/survey.py SEED START N"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))
from differ import TFWorker, describe, disagreements  # noqa: E402
from known import key_of  # noqa: E402

seed, start, n = map(int, sys.argv[1:4])
w = TFWorker()
seen: dict = {}
for p, where in disagreements(w, seed, list(range(start, start + n))):
    k = key_of(p, where)
    if k not in seen:
        print(k, f"seed={seed} index={p.index} mode={p.mode}", describe(p, where)[:400], flush=True)
    seen[k] = seen.get(k, 0) + 1
w.close()
print("COUNTS", sorted(seen.items(), key=lambda kv: -kv[1]))
