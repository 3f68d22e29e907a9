"""Show what the rgrads suite family (every differentiable raw op at random valid calls, recorded on TF 2.21)
kills: plant each mutant (a catalogue id) in a private copy of the committed package and run only
``-k rgrads`` of the conformance suite against it (simdist backend; suite_kills.py's plant-and-run).

    python benchmarks/rgrads_kills.py [ID ...]      # default: the blind batches' first-contact survivors in
                                                    # simdist/runtime/ops (blind_kills.BATCHES); baseline

Prints one line per mutant, killed (with the first failing test) or survived, then the count.
"""

from __future__ import annotations

import sys

from blind_kills import BATCHES
from suite_kills import find, run


def blind_op_survivors() -> list[str]:
    """The blind batches' first-contact survivors whose mutant is in simdist/runtime/ops, in batch order."""
    out = []
    for survivors, _ in BATCHES.values():
        out += [mid for mid in survivors if find(mid, {}).path.startswith("simdist/runtime/ops/")]
    return out


def main(argv: list[str]) -> int:
    ids = argv or blind_op_survivors()
    killed = 0
    for mid in ids:
        verdict = run(None if mid == "baseline" else find(mid, {}), "rgrads", workers=2)
        killed += verdict.startswith("killed")
        print(f"{mid}: {verdict}", flush=True)
    print(f"{killed} of {len(ids)} killed", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
