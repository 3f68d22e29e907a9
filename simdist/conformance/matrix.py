"""Build docs/conformance-matrix.md from real runs of the suite: simdist beside one or more TensorFlow releases.

    simdist conformance-matrix --run [--python PATH ...] [--profile default] [-o docs/conformance-matrix.md]
    simdist conformance-matrix --tf-report tf-2.15.json --tf-report tf-2.21.json --simdist-report simdist.json
    python -m simdist.conformance.matrix ...   (the same)

``--run`` runs the suite against simdist (this interpreter) and against real TensorFlow once per
``--python PATH`` (an interpreter with some TensorFlow release installed, e.g. a venv made by
scripts/make_tf_venvs.sh; default: this interpreter). Each run is its own process, so their
runtimes cannot interfere; every interpreter runs the suite of *this* checkout (it goes first on
its PYTHONPATH), so all columns test the same clauses. The JSON reports stay in ``--reports-dir``
(default: a new temporary directory, printed). Without ``--run`` it renders reports made earlier.

The matrix has a row per clause: what the documents say, simdist's verdicts (against the
documents and against TF 2.21) and each TensorFlow release's verdict against the documents,
marked where that release behaves differently from TF 2.21; below it, every test whose outcome
changes between the TensorFlow releases (the changes between versions, named), and the places
where TensorFlow deviates from its own documentation.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any, Sequence

from simdist.conformance import SUITE_VERSION
from simdist.conformance.clauses import CLAUSES
from simdist.conformance.report import _md   # escapes | and newlines, truncates to n

#: Observations of TF 2.21 that correct the reference semantics (tf-2.21-semantics.md), per clause.
OBSERVATIONS = {
    "dataset.partial-batch-split": "Observed: CentralStorageStrategy drops a final step in which some replica has "
                                   "no data (range(6).batch(4), OFF: only [0,1]|[2,3]; [4,5] is lost) where "
                                   "MirroredStrategy gives that replica an empty batch; tf-2.21-semantics.md §3 says "
                                   "CentralStorage pads like Mirrored.",
    "coord.ps-failure": "Observed: the UnavailableError reaches join(), but one of TF 2.21's coordinator worker "
                        "threads dies with an internal AssertionError ('There is no inflight closures to "
                        "mark_failed.') while handling the ps failure (pytest reports it as an unhandled thread "
                        "exception).",
    "gather.dense-only": "Observed: gather of a PerReplica of IndexedSlices densifies them (no NotImplementedError); "
                        "tf-2.21-semantics.md §2 lists NotImplementedError without this distinction.",
}

_LABEL = {"pass": "pass", "fail": "FAIL", "xfail": "deviates", "skip": "skipped", "n/a": "—"}

_WHOLE = sys.maxsize   # _md's n for cells that are never cut
REFERENCE = "2.21"     # the TensorFlow release the tf221 tests encode


def package_root() -> Path:
    """The directory holding this checkout's `simdist` package (put first on other interpreters' path)."""
    return Path(__file__).resolve().parents[2]


def run_backend(backend: str, report: Path, profile: str, extra: Sequence[str] = (),
                python: str | None = None) -> int:
    cmd = [python or sys.executable, "-m", "simdist.conformance", "--backend", backend, "--report", str(report),
           "--profile", profile, "-q", *extra]
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([str(package_root())] + ([env["PYTHONPATH"]] if env.get("PYTHONPATH") else []))
    print("+", " ".join(cmd), flush=True)
    return subprocess.call(cmd, env=env)


def _version_key(v: str) -> tuple:
    out = []
    for part in v.replace("-", ".").split("."):
        out.append((0, int(part), "") if part.isdigit() else (1, 0, part))
    return tuple(out)


def _is_reference(report: dict[str, Any]) -> bool:
    return str(report["backend"]["version"]).startswith(REFERENCE + ".")


def _cell(entry: dict[str, Any]) -> str:
    v = entry["verdict"]
    counts = entry.get("counts", {})
    label = _LABEL.get(v, v)
    if v == "skip":
        return label
    if v in ("pass", "xfail", "fail") and counts.get("skipped"):
        label += f" ({counts['skipped']} skipped)"
    return label


def _skip_reasons(report: dict[str, Any], cid: str) -> list[str]:
    out = set()
    for t in report["tests"]:
        if t["outcome"] == "skipped" and any(c == cid for c, _ in t["clauses"]):
            out.add(t["message"])
    return sorted(out)


def _deviations(report: dict[str, Any], cid: str) -> list[str]:
    out: list[str] = []
    for t in report["tests"]:
        if t["outcome"] in ("xfailed", "failed", "xpassed") and any(c == cid and r in ("doc", "both")
                                                                   for c, r in t["clauses"]):
            text = t.get("deviation") or t["message"]
            if text and text not in out:
                out.append(text)
    return out


def _failures(report: dict[str, Any], cid: str) -> list[str]:
    return [f"`{t['nodeid'].split('::')[-1]}`: {t['message']}" for t in report["tests"]
            if t["outcome"] in ("failed", "error", "xpassed") and any(c == cid for c, _ in t["clauses"])]


def _tf_cell(report: dict[str, Any], cid: str, documented: bool) -> str:
    """A TensorFlow release's verdict against the documents, and whether it behaves as TF 2.21."""
    c = report["clauses"][cid]
    cell = _cell(c["doc"]) if documented else "—"
    tf = c["tf221"]["verdict"]
    if tf not in ("pass", "n/a", "xfail"):
        cell += ("; TF 2.21 tests: " if _is_reference(report) else "; differs from 2.21: ") + _cell(c["tf221"])
    return cell


def _outcomes(report: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return {t["nodeid"]: t for t in report["tests"]}


def version_changes(tf_reports: list[dict[str, Any]]) -> list[tuple[str, str, list[tuple[str, str, str]]]]:
    """Tests whose outcome differs between the TensorFlow releases: (clause ids, test id,
    [(version, outcome, message)]), in suite order."""
    if len(tf_reports) < 2:
        return []
    per = [(_version(r), _outcomes(r)) for r in tf_reports]
    order: list[str] = []
    for r in tf_reports:
        for t in r["tests"]:
            if t["nodeid"] not in order:
                order.append(t["nodeid"])
    out = []
    for nodeid in order:
        seen = [(v, o.get(nodeid)) for v, o in per]
        kinds = {_norm(t["outcome"]) if t else "not run" for _, t in seen}
        if len(kinds) > 1:
            clauses = next(t["clauses"] for _, t in seen if t)
            ids = ", ".join(sorted({c for c, _ in clauses}))
            out.append((ids, nodeid, [(v, t["outcome"] if t else "not run", (t or {}).get("message", ""))
                                      for v, t in seen]))
    return out


def _norm(outcome: str) -> str:
    return "error" if outcome == "failed" else outcome


def _version(report: dict[str, Any]) -> str:
    return str(report["backend"]["version"])


def render(tf_reports: list[dict[str, Any]] | dict[str, Any], sd_report: dict[str, Any] | None, command: str) -> str:
    if isinstance(tf_reports, dict):
        tf_reports = [tf_reports]
    tf_reports = sorted(tf_reports, key=lambda r: _version_key(_version(r)))
    ref = next((r for r in reversed(tf_reports) if _is_reference(r)), tf_reports[-1])
    versions = [_version(r) for r in tf_reports]
    lines = [
        "# Conformance matrix",
        "",
        f"<!-- generated by `{command}`; do not edit by hand -->",
        "",
        f"Generated by `{command}` from real runs of the conformance suite {SUITE_VERSION}:",
        "",
    ]
    for r in tf_reports:
        b = r["backend"]
        keras = f"Keras {b['details']['keras']}, " if b["details"].get("keras") else ""
        lines.append(f"- TensorFlow {b['version']} (`--backend tensorflow`, {keras}{b['details'].get('logical_cpus', '?')} "
                     f"logical CPUs, capabilities {', '.join(b['capabilities'])}): started {r['started']}, "
                     f"{r['duration_s']:.0f} s, hypothesis seed {r['hypothesis']['seed']}, "
                     f"max_examples {r['hypothesis']['max_examples']}; tests {json.dumps(r['summary']['tests'])}.")
    if sd_report is not None:
        sdb = sd_report["backend"]
        lines.append(f"- simdist {sdb['version']} (`--backend simdist`, capabilities {', '.join(sdb['capabilities'])}): "
                     f"started {sd_report['started']}, {sd_report['duration_s']:.0f} s, hypothesis seed "
                     f"{sd_report['hypothesis']['seed']}, max_examples {sd_report['hypothesis']['max_examples']}; "
                     f"tests {json.dumps(sd_report['summary']['tests'])}.")
    lines += [
        "",
        "Columns: **documented** is what the documents claim (sources: CSS24/CSS20 = CentralStorageStrategy "
        "r2.4/r2.0 docs, ODS = OneDeviceStrategy docs, PSS = ParameterServerStrategy r2.4 docs, API = TF 2.21's API "
        "reference; \"TF 2.21 only\" marks clauses that only TF 2.21's observed behaviour defines). **simdist** gives "
        "two verdicts: against the documents / against TF 2.21. Each **TF** column is that release's verdict against "
        "the documents; `differs from 2.21` means some of the clause's TF 2.21 tests fail on that release (the "
        "behaviour changed between versions: see \"Changes between TensorFlow versions\" below). All TensorFlow "
        "columns use the same known-deviation file (TF 2.21's), so a documented-behaviour test that a release passes "
        "while 2.21 deviates shows as FAIL (XPASS) there. "
        "`deviates` = a known deviation listed in the backend's xfail file (the test fails as expected); "
        "`skipped` = the backend lacks a capability the tests need (never counted as a pass); `—` = no claim of that "
        "kind.",
        "",
        "| clause | documented | simdist (doc / TF 2.21) | " + " | ".join(f"TF {v}" for v in versions) + " | notes |",
        "|---|---|---|" + "---|" * len(versions) + "---|",
    ]
    changes = version_changes(tf_reports)
    changed_clauses: dict[str, int] = {}
    for ids, _, _ in changes:
        for cid in ids.split(", "):
            changed_clauses[cid] = changed_clauses.get(cid, 0) + 1
    deviations: list[tuple[str, str]] = []
    for cid, clause in CLAUSES.items():
        text = clause.text[len("TF 2.21: "):] if clause.text.startswith("TF 2.21: ") else clause.text
        documented = (f"{text} ({', '.join(clause.sources)})" if clause.documented else f"TF 2.21 only: {text}")
        tf_cells = [_tf_cell(r, cid, clause.documented) if cid in r["clauses"] else "not in this run"
                    for r in tf_reports]
        if sd_report is not None and cid in sd_report["clauses"]:
            sdc = sd_report["clauses"][cid]
            sd_cell = f"{_cell(sdc['doc']) if clause.documented else '—'} / {_cell(sdc['tf221'])}"
        else:
            sd_cell = "not run"
        notes: list[str] = []
        devs = _deviations(ref, cid) if clause.documented and cid in ref["clauses"] else []
        for d in devs:
            notes.append(f"TF {_version(ref)} deviates: " + d)
            deviations.append((cid, d))
        if cid in changed_clauses:
            notes.append(f"changes between TF versions: {changed_clauses[cid]} test(s), see below")
        if cid in OBSERVATIONS:
            notes.append(OBSERVATIONS[cid])
        if cid in ref["clauses"] and (ref["clauses"][cid]["doc"]["verdict"] == "skip"
                                      or ref["clauses"][cid]["tf221"]["verdict"] == "skip"):
            notes += [f"TF skipped: {r}" for r in _skip_reasons(ref, cid)]
        if sd_report is not None:
            fails = _failures(sd_report, cid)
            if fails:
                notes.append(f"simdist fails {len(fails)} test(s)")
        notes_md = _md("; ".join(notes), _WHOLE)
        lines.append(f"| `{cid}` | {_md(documented, 218)} | {sd_cell} | " + " | ".join(tf_cells)
                     + f" | {notes_md} |")
    if len(tf_reports) > 1:
        lines += ["", "## Changes between TensorFlow versions", ""]
        if not changes:
            lines.append("None: every test has the same outcome on " + ", ".join(versions) + ".")
        else:
            lines.append("Every test whose outcome is not the same on all of " + ", ".join(versions)
                         + " (outcome per version; the message of the first one that is not a pass), grouped by "
                         "why it changed (simdist/conformance/version_notes.py: each reason found in the "
                         "release's source):")
            lines += _explained_changes(changes, _version(ref))
    lines += ["", f"## Where TensorFlow {_version(ref)} deviates from its own documentation", ""]
    lines += [f"{i}. `{cid}` — {_md(text, _WHOLE)}" for i, (cid, text) in enumerate(deviations, 1)]
    lines += ["", "## TF 2.21 observations that correct the reference semantics", "",
              "Behaviour the suite measured on TF 2.21 that differs from ../shared/reference/tf-2.21-semantics.md "
              "(the tf221 tests encode what TF 2.21 does):", ""]
    lines += [f"- `{cid}` — {_md(text, _WHOLE)}" for cid, text in OBSERVATIONS.items()]
    tf_fail = [(t["nodeid"], t["message"]) for t in ref["tests"] if t["outcome"] in ("failed", "error", "xpassed")]
    if tf_fail:
        lines += ["", f"## Unexpected TensorFlow {_version(ref)} failures", ""]
        lines += [f"- `{n}`: {_md(m, _WHOLE)}" for n, m in tf_fail]
    if sd_report is not None:
        sd_fail = [t for t in sd_report["tests"] if t["outcome"] in ("failed", "error", "xpassed")]
        lines += ["", "## simdist failures", ""]
        if not sd_fail:
            lines.append("None.")
        for t in sd_fail:
            clauses = ", ".join(f"{c}@{r}" for c, r in t["clauses"])
            lines.append(f"- `{t['nodeid']}` ({clauses}): {_md(t['message'], 400)}")
    lines += ["", "## Totals", ""]
    for name, rep in [(f"TensorFlow {_version(r)}", r) for r in tf_reports] + [("simdist", sd_report)]:
        if rep is None:
            continue
        s = rep["summary"]
        lines.append(f"- {name}: tests {json.dumps(s['tests'])}; clause verdicts vs documents {json.dumps(s['doc'])}, "
                     f"vs TF 2.21 {json.dumps(s['tf221'])}")
    return "\n".join(lines) + "\n"


def _change_line(ids: str, nodeid: str, per: list[tuple[str, str, str]]) -> str:
    outcomes = ", ".join(f"{v} {o}" for v, o, _ in per)
    msg = next((m for _, o, m in per if o not in ("passed",) and m), "")
    return f"- `{ids}` — `{nodeid}`: {outcomes}." + (f" {_md(msg, 400)}" if msg else "")


def _explained_changes(changes: list[tuple[str, str, list[tuple[str, str, str]]]], newest: str) -> list[str]:
    """The changes grouped under the version note that explains each (in the notes' order), then
    the ones no note explains."""
    from .version_notes import NOTES, explain
    groups: dict[Any, list[str]] = {}
    for ids, nodeid, per in changes:
        ref_outcome = next((_norm(o) for v, o, _ in per if v == newest), None)
        differing = [v for v, o, _ in per if v != newest and _norm(o) != ref_outcome]
        note = explain(ids.split(", "), nodeid, differing)
        groups.setdefault(note, []).append(_change_line(ids, nodeid, per))
    out: list[str] = []
    for note in [n for n in NOTES if n in groups] + ([None] if None in groups else []):
        items = groups[note]
        if note is None:
            out += ["", f"### Not explained ({len(items)} test(s))", "",
                    "No note in simdist/conformance/version_notes.py covers these: each is a finding to "
                    "investigate.", ""]
        else:
            out += ["", f"### {note.title} ({len(items)} test(s))", "", _md(note.text, _WHOLE), ""]
        out += items
    return out


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--run", action="store_true", help="run the suite on simdist and on each TensorFlow first")
    p.add_argument("--python", action="append", metavar="PATH",
                   help="with --run: an interpreter with TensorFlow installed, one TF column each "
                        "(repeat; default: this interpreter)")
    p.add_argument("--profile", default="default", choices=("default", "ci", "thorough"))
    p.add_argument("--tf-report", action="append", metavar="FILE.json",
                   help="JSON report of a tensorflow run (repeat for several releases)")
    p.add_argument("--simdist-report", help="JSON report of a simdist run")
    p.add_argument("-o", "--output", default="docs/conformance-matrix.md")
    p.add_argument("--reports-dir", help="where --run keeps its JSON reports (default: a temporary directory)")


def command_line(args: argparse.Namespace, prog: str) -> str:
    """The command that regenerates the same matrix (recorded in its header)."""
    parts = [prog]
    if args.run:
        parts.append("--run")
    for py in args.python or []:
        parts += ["--python", py]
    if args.profile != "default":
        parts += ["--profile", args.profile]
    for rep in args.tf_report or []:
        parts += ["--tf-report", rep]
    if args.simdist_report:
        parts += ["--simdist-report", args.simdist_report]
    parts += ["-o", args.output]
    if args.reports_dir:
        parts += ["--reports-dir", args.reports_dir]
    return " ".join(parts)


def main(argv: Sequence[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m simdist.conformance.matrix", description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    add_arguments(p)
    args = p.parse_args(argv)
    from simdist.usage import UsageError
    try:
        return run(args, command_line(args, "python -m simdist.conformance.matrix"))
    except UsageError as e:
        print(f"simdist conformance-matrix: error: {e}", file=sys.stderr)
        return 2


def _tf_version_of(python: str) -> str:
    out = subprocess.run([python, "-c", "import tensorflow as tf; print(tf.__version__)"], capture_output=True,
                         text=True, env=dict(os.environ, TF_CPP_MIN_LOG_LEVEL="3"))
    if out.returncode != 0:
        from simdist.usage import UsageError
        raise UsageError(f"--python {python}: cannot import tensorflow: {out.stderr.strip()[-500:]}")
    return out.stdout.strip().splitlines()[-1]


def _read_report(path: Path, flag: str, backend: str) -> dict[str, Any]:
    """A conformance JSON report of ``backend``, or a one-line usage error naming the file."""
    from simdist.usage import UsageError
    try:
        report = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as e:
        raise UsageError(f"{flag} {path}: not a readable conformance report ({e})") from None
    b = report.get("backend") if isinstance(report, dict) else None
    if not isinstance(b, dict) or not all(k in report for k in ("clauses", "summary", "tests")):
        raise UsageError(f"{flag} {path}: not a conformance report (made by `simdist conformance --report`)")
    if b.get("name") != backend:
        raise UsageError(f"{flag} {path}: a report of the {b.get('name')!r} backend; {flag} takes a report of the "
                         f"{backend!r} backend")
    return report


def run(args: argparse.Namespace, command: str) -> int:
    out = Path(args.output)
    from simdist.scenario.outputs import check_file_path
    check_file_path(out, "-o")
    if args.run:
        import tempfile  # noqa: PLC0415

        reports = Path(args.reports_dir or tempfile.mkdtemp(prefix="conformance-matrix-"))
        reports.mkdir(parents=True, exist_ok=True)
        print(f"reports in {reports}")
    else:
        reports = Path(args.reports_dir or ".")
    sd_path = Path(args.simdist_report) if args.simdist_report else reports / "simdist.json"
    if args.run:
        tf_paths = []
        for py in args.python or [sys.executable]:
            path = reports / f"tensorflow-{_tf_version_of(py)}.json"
            run_backend("tensorflow", path, args.profile, python=py)
            tf_paths.append(path)
        run_backend("simdist", sd_path, args.profile)
    elif args.tf_report:
        tf_paths = [Path(p) for p in args.tf_report]
    else:
        tf_paths = sorted(reports.glob("tensorflow*.json"))
    from simdist.usage import UsageError
    missing = [p for p in tf_paths if not p.exists()]
    if not tf_paths or missing:
        raise UsageError(f"no TensorFlow report at {', '.join(map(str, missing)) or reports}; use --run or --tf-report")
    tf_reports = [_read_report(p, "--tf-report", "tensorflow") for p in tf_paths]
    sd_report = _read_report(sd_path, "--simdist-report", "simdist") if sd_path.exists() else None
    from simdist.scenario.outputs import write_text
    write_text(out, render(tf_reports, sd_report, command))
    print(f"wrote {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
