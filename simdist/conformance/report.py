"""The conformance report: results keyed by clause, with two verdicts per clause.

Each test carries one or more ``clause(ID, ref=...)`` markers. ``ref`` says what the test
holds the backend to:

* ``"both"`` (default): behaviour the documents state and TF 2.21 shows alike;
* ``"doc"``: the documented behaviour (TF 2.21 may deviate from it);
* ``"tf221"``: TF 2.21's observed behaviour, where it deviates from or adds to the documents.

Per clause the report gives a ``doc`` verdict (from tests with ref doc/both) and a ``tf221``
verdict (from tests with ref tf221/both). A verdict is ``fail`` if any of its tests failed
or errored, else ``xfail`` if any is a listed known deviation, else ``pass`` if any passed,
else ``skip`` if all were skipped, else ``n/a`` (no test of that kind: e.g. the ``doc``
verdict of a clause that only TF 2.21 defines).
"""

from __future__ import annotations

import json
import platform
import sys
from dataclasses import asdict, dataclass, field
from typing import Any

from simdist.conformance.clauses import CLAUSES

REPORT_FORMAT = 1
COLUMNS = ("doc", "tf221")
OUTCOMES = ("passed", "failed", "error", "skipped", "xfailed", "xpassed")


@dataclass
class TestResult:
    __test__ = False  # not a pytest test class

    nodeid: str
    clauses: list[tuple[str, str]]
    outcome: str = "passed"          # one of OUTCOMES
    duration: float = 0.0
    message: str = ""                # failure/skip/xfail reason, short
    repro: str | None = None
    longrepr: str | None = None
    deviation: str | None = None     # the xfail file's reason, when the test is a listed deviation


def verdict(outcomes: list[str]) -> str:
    if not outcomes:
        return "n/a"
    if any(o in ("failed", "error", "xpassed") for o in outcomes):
        return "fail"
    if any(o == "xfailed" for o in outcomes):
        return "xfail"
    if any(o == "passed" for o in outcomes):
        return "pass"
    return "skip"


def _counts(outcomes: list[str]) -> dict[str, int]:
    return {o: outcomes.count(o) for o in OUTCOMES if outcomes.count(o)}


def build_report(results: list[TestResult], *, backend: dict[str, Any], hypothesis: dict[str, Any],
                 suite_version: str, started: str, duration: float, unused_xfails: list[dict[str, Any]],
                 xfail_file: str | None, exitstatus: int | None = None,
                 selection: dict[str, Any] | None = None) -> dict[str, Any]:
    # each (clause, column)'s results in run order, found in one pass (a scan per clause was 506 x 2 passes over
    # the ~7,600 results of a whole run: 8 s of the suite's 200 s, 2026-12-05)
    by_column: dict[tuple[str, str], list[TestResult]] = {}
    for r in results:
        for col in COLUMNS:
            for cid in dict.fromkeys(c for c, ref in r.clauses if ref == col or ref == "both"):
                by_column.setdefault((cid, col), []).append(r)
    clauses: dict[str, Any] = {}
    for cid, clause in CLAUSES.items():
        entry: dict[str, Any] = {"area": clause.area, "documented": clause.documented,
                                 "sources": list(clause.sources), "text": clause.text}
        for col in COLUMNS:
            tests = by_column.get((cid, col), [])
            outs = [r.outcome for r in tests]
            v = verdict(outs)
            if col == "doc" and not clause.documented and v == "n/a":
                v = "n/a"
            entry[col] = {
                "verdict": v,
                "counts": _counts(outs),
                "tests": [r.nodeid for r in tests],
                "notes": sorted({f"{r.nodeid.split('::')[-1]}: {r.message}" for r in tests
                                 if r.outcome in ("failed", "error", "xfailed", "xpassed", "skipped")
                                 and r.message}),
            }
        clauses[cid] = entry
    unknown = sorted({c for r in results for c, _ in r.clauses if c not in CLAUSES})
    unmarked = [r.nodeid for r in results if not r.clauses]
    test_counts = _counts([r.outcome for r in results])
    summary = {
        "clauses": len(CLAUSES),
        "tests": test_counts,
        **{col: _counts_verdicts([clauses[c][col]["verdict"] for c in clauses]) for col in COLUMNS},
        "untested_clauses": sorted(c for c in clauses
                                   if clauses[c]["doc"]["verdict"] == "n/a" and clauses[c]["tf221"]["verdict"] == "n/a"),
        "unknown_clause_ids": unknown,
        "unmarked_tests": unmarked,
    }
    return {
        "format": REPORT_FORMAT,
        "suite": {"name": "simdist-conformance", "version": suite_version},
        "backend": backend,
        "hypothesis": hypothesis,
        "environment": {"python": sys.version.split()[0], "platform": platform.platform()},
        "started": started,
        "duration_s": round(duration, 3),
        "exitstatus": exitstatus,
        "selection": selection or {},
        "xfail_file": xfail_file,
        "summary": summary,
        "clauses": clauses,
        "tests": [asdict(r) for r in results],
        "unused_xfails": unused_xfails,
    }


def _counts_verdicts(vs: list[str]) -> dict[str, int]:
    out: dict[str, int] = {}
    for v in vs:
        out[v] = out.get(v, 0) + 1
    return dict(sorted(out.items()))


def write_json(report: dict[str, Any], path: str) -> None:
    """Written whole under a temporary name, then renamed: an interrupted suite never leaves a
    truncated report."""
    import os
    tmp = f"{path}.tmp"
    try:
        with open(tmp, "w", encoding="utf-8") as f:
            json.dump(report, f, indent=2, sort_keys=False)
            f.write("\n")
        os.replace(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise


_MD_ESC = str.maketrans({"|": "\\|", "\n": " "})


def _md(s: str, n: int = 160) -> str:
    s = s.translate(_MD_ESC)
    return s if len(s) <= n else s[: n - 1] + "…"


def to_markdown(report: dict[str, Any]) -> str:
    b = report["backend"]
    h = report["hypothesis"]
    lines = [
        f"# Conformance report: {b['name']} {b['version']}",
        "",
        f"- suite {report['suite']['version']}, started {report['started']}, {report['duration_s']} s",
        f"- backend spec `{b['spec']}`, capabilities: {', '.join(b['capabilities']) or 'none'}",
        f"- hypothesis profile `{h.get('profile')}`, seed {h.get('seed')}, max_examples {h.get('max_examples')}",
        f"- tests: {_fmt_counts(report['summary']['tests'])}",
        f"- documented verdicts: {_fmt_counts(report['summary']['doc'])}; "
        f"TF 2.21 verdicts: {_fmt_counts(report['summary']['tf221'])}",
        "",
        "| clause | documented | TF 2.21 | notes |",
        "|---|---|---|---|",
    ]
    for cid, c in report["clauses"].items():
        notes = "; ".join(c["doc"]["notes"] + [n for n in c["tf221"]["notes"] if n not in c["doc"]["notes"]])
        lines.append(f"| `{cid}` | {c['doc']['verdict']} | {c['tf221']['verdict']} | {_md(notes, 300)} |")
    failing = [t for t in report["tests"] if t["outcome"] in ("failed", "error", "xpassed")]
    if failing:
        lines += ["", "## Failures", ""]
        for t in failing:
            lines += [f"### {t['nodeid']}", "", f"{t['outcome']}: {_md(t['message'], 2000)}", ""]
            if t.get("repro"):
                lines += ["```python", t["repro"].rstrip(), "```", ""]
    if report.get("unused_xfails"):
        lines += ["", "## Unused xfail entries", ""]
        lines += [f"- line {u['line']}: `{u['selector']}` ({u['reason']})" for u in report["unused_xfails"]]
    return "\n".join(lines) + "\n"


def _fmt_counts(d: dict[str, int]) -> str:
    return ", ".join(f"{v} {k}" for k, v in d.items()) or "none"
