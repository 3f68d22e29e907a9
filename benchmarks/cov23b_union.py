"""The whole suite's coverage with the cov23b modules added, without a second whole-suite run on a
loaded machine: the lead's branch-coverage data of the whole suite at main 670eaa67 (paths under a
snapshot of that commit) united with a coverage run of the cov23b modules alone on this branch.

    python benchmarks/cov23b_union.py LEAD_DATA SNAPSHOT_ROOT MINE_DATA OUT_DATA

Arcs of files this branch did not change are copied; for a changed file each line number is moved
to its place in the branch's text (difflib's matching blocks of the two texts; an arc with an endpoint
on a changed line is dropped, so a changed file's figure is a lower bound). Then
`coverage report --data-file=OUT_DATA` reads the union.
"""

from __future__ import annotations

import difflib
import subprocess
import sys
from pathlib import Path

from coverage import CoverageData

ROOT = Path(__file__).resolve().parents[1]


def _line_map(old: str, new: str) -> dict[int, int]:
    a, b = old.splitlines(), new.splitlines()
    out: dict[int, int] = {}
    for blk in difflib.SequenceMatcher(None, a, b, autojunk=False).get_matching_blocks():
        for i in range(blk.size):
            out[blk.a + i + 1] = blk.b + i + 1
    return out


def main(lead: str, snapshot: str, mine: str, out: str) -> None:
    src = CoverageData(basename=lead)
    src.read()
    rev = subprocess.run(["git", "-C", snapshot, "rev-parse", "HEAD"], capture_output=True, text=True,
                         check=True).stdout.strip()
    dst = CoverageData(basename=out)
    arcs: dict[str, set] = {}
    for f in sorted(src.measured_files()):
        rel = Path(f).relative_to(snapshot).as_posix()
        new_path = ROOT / rel
        if not new_path.exists():
            continue
        old_text = subprocess.run(["git", "-C", snapshot, "show", f"{rev}:{rel}"], capture_output=True,
                                  text=True).stdout
        new_text = new_path.read_text()
        got = src.arcs(f) or []
        if old_text == new_text:
            moved = set(got)
        else:
            m = _line_map(old_text, new_text)
            moved = set()
            for a, b in got:
                ma = -m[-a] if a < 0 and -a in m else m.get(a) if a > 0 else None
                mb = -m[-b] if b < 0 and -b in m else m.get(b) if b > 0 else None
                if ma is not None and mb is not None:
                    moved.add((ma, mb))
        arcs[str(new_path)] = moved
    m2 = CoverageData(basename=mine)
    m2.read()
    for f in m2.measured_files():
        arcs.setdefault(f, set()).update(m2.arcs(f) or [])
    dst.add_arcs({k: sorted(v) for k, v in arcs.items()})
    dst.write()


if __name__ == "__main__":
    main(*sys.argv[1:5])
