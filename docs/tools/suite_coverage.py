"""Where a planted bug of the training layer cannot be caught by the conformance suite: the lines and branch arcs of
simdist's training layer (ops, autodiff, tf.data, tf.function, Keras, strategies' values) that no suite test runs
on the simdist backend, by file, the biggest gap first, as docs/suite-coverage.md shows:

    python docs/tools/suite_coverage.py run [DATAFILE]       # the whole suite under coverage.py (--branch); ~1-2 h
    python docs/tools/suite_coverage.py report [DATAFILE]    # docs/suite-coverage.md (by area and file) and
                                                              # .suite-coverage-detail.md (every missed line and arc)

A line no test runs holds bugs the suite cannot see; a branch never taken, an option, size or dtype no test feeds.
The simulator's timing, the CLI, the scenario runner and the suite itself are left out (not the training layer).
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
DOC = ROOT / "docs" / "suite-coverage.md"
DETAIL = ROOT / ".suite-coverage-detail.md"   # (1 MB and more: regenerated, not kept in git)
BY_AREA = (("simdist/runtime/ops", "op kernels, gradients, Grappler"), ("simdist/runtime/data", "tf.data"),
           ("simdist/runtime/autodiff", "tapes"), ("simdist/runtime", "the rest of the runtime"),
           ("simdist/keras/applications", "keras.applications"), ("simdist/keras", "Keras"),
           ("simdist/strategies", "strategies' values"), ("simdist/semantics", "reduce/gather rules"),
           ("simdist/tf", "the tf facade's own modules"))
AREAS = ("simdist/runtime", "simdist/keras", "simdist/tf", "simdist/strategies", "simdist/semantics")
LEFT_OUT = ("simdist/sim/", "simdist/strategies/worker", "simdist/strategies/timing", "simdist/cli",
            "simdist/conformance/", "simdist/scenario", "simdist/validation")


def run(data: Path) -> int:
    """The conformance suite on the simdist backend under coverage.py with branch coverage (seed 0)."""
    return subprocess.call([sys.executable, "-m", "coverage", "run", "--branch", "--source=simdist",
                            f"--data-file={data}", "-m", "pytest", "simdist/conformance/suite", "-p",
                            "simdist.conformance.plugin", "--backend", "simdist", "-q", "-p", "no:cacheprovider",
                            "--hypothesis-seed", "0", "-W", "ignore"], cwd=ROOT)


def _runs(lines: list[int]) -> list[tuple[int, int]]:
    out: list[list[int]] = []
    for n in lines:
        if out and n == out[-1][1] + 1:
            out[-1][1] = n
        else:
            out.append([n, n])
    return [(a, b) for a, b in out]


def report(data: Path) -> tuple[str, str]:
    """docs/suite-coverage.md's text (totals by area, then by file) and the detail: each file's missed lines and
    arcs with their source."""
    import coverage
    cov = coverage.Coverage(data_file=str(data))
    cov.load()
    rows, detail = [], {}
    for f in sorted(cov.get_data().measured_files()):
        p = Path(f).resolve()
        try:
            rel = p.relative_to(ROOT).as_posix()
        except ValueError:   # (measured in another checkout: matched by its path below simdist/)
            parts = p.as_posix().split("/simdist/", 1)
            if len(parts) != 2:
                continue
            rel, p = "simdist/" + parts[1], ROOT / "simdist" / parts[1]
        if not rel.startswith(AREAS) or rel.startswith(LEFT_OUT) or not p.exists():
            continue
        an = cov._analyze(f)
        arcs = an.missing_branch_arcs()
        nums = an.numbers
        rows.append((rel, nums.n_statements, nums.n_missing, nums.n_branches,
                     sum(len(v) for k, v in arcs.items() if k not in an.missing)))
        detail[rel] = (sorted(an.missing), arcs, p.read_text(encoding="utf-8").splitlines())
    rows.sort(key=lambda r: (-(r[2] + r[4]), r[0]))
    tot = [sum(r[i] for r in rows) for i in range(1, 5)]
    head = ["# Where the conformance suite cannot see a planted bug", "",
            "The lines and branch arcs of simdist's training layer that no conformance-suite test runs on the simdist "
            "backend (`python docs/tools/suite_coverage.py run`, then `report`; coverage.py with branch coverage, "
            "hypothesis seed 0). A bug planted on a missed line survives the suite for certain; on a branch never "
            "taken, it survives unless another path shows it. `report` also writes every missed line and arc with "
            "its source to .suite-coverage-detail.md (not kept in git): the list a sweep starts from.", "",
            f"Totals: {tot[0]} statements, {tot[1]} missed ({100 * tot[1] / max(tot[0], 1):.1f}%); {tot[2]} branch "
            f"points, {tot[3]} arcs never taken where the line runs.", "",
            "| area | files | statements | missed lines | missed % | arcs never taken |", "|---|---|---|---|---|---|"]
    taken: set[str] = set()
    for prefix, what in BY_AREA:
        r = [x for x in rows if x[0].startswith(prefix + "/") and x[0] not in taken]
        taken.update(x[0] for x in r)
        st, mi = sum(x[1] for x in r), sum(x[2] for x in r)
        head.append(f"| {prefix} ({what}) | {len(r)} | {st} | {mi} | {100 * mi / max(st, 1):.1f} | "
                    f"{sum(x[4] for x in r)} |")
    head += ["", "| file | statements | missed lines | branch points | arcs never taken |", "|---|---|---|---|---|"]
    head += [f"| {r[0]} | {r[1]} | {r[2]} | {r[3]} | {r[4]} |" for r in rows]
    out = ["# Every missed line and branch arc (docs/tools/suite_coverage.py report)", ""]
    for r in rows:
        missing, arcs, src = detail[r[0]]
        if not missing and not r[4]:
            continue
        out.append(f"## {r[0]}")
        for a, b in _runs(missing):
            text = src[a - 1].strip()[:100].replace("`", "'")
            out.append(f"- line {a}: `{text}`" if a == b else f"- lines {a}-{b}: `{text}`")
        for n in sorted(k for k in arcs if k not in missing):
            to = ", ".join("exit" if t < 0 else str(t) for t in arcs[n])
            out.append(f"- line {n} never goes to {to}: `{src[n - 1].strip()[:100].replace('`', chr(39))}`")
        out.append("")
    return "\n".join(head) + "\n", "\n".join(out) + "\n"


if __name__ == "__main__":
    mode = sys.argv[1] if len(sys.argv) > 1 else "report"
    data = Path(sys.argv[2]) if len(sys.argv) > 2 else ROOT / ".suite.coverage"
    if mode == "run":
        sys.exit(run(data))
    doc, more = report(data)
    DOC.write_text(doc, encoding="utf-8")
    DETAIL.write_text(more, encoding="utf-8")
    print(f"wrote {DOC.relative_to(ROOT)} and {DETAIL.relative_to(ROOT)}")
