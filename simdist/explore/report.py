"""The files of an exploration, and the report it prints.

Into the output directory:
  report.txt         what the command printed: plans run, failures by invariant, each reproducer
  explore.json       the settings, the counts, and each failure's minimal plan and commands
  plans.jsonl        every plan (baseline = plan 0): its events, status, digest and violations
  results.csv        one row per plan: plan, events, status, error, digest, violations, metrics
  histogram.png      the chosen metric over all plans (kept vs broken), the baseline marked
  junit.xml          one test case per invariant, a <failure> with the reproducer when broken
  failures/<id>/     per broken invariant: plan.toml (a ready [[faults.*]] fragment),
                     reproduce.sh (the run and replay commands), metrics.json, summary.txt,
                     trace.json, timeline.png and utilisation.png of the minimal plan
"""

from __future__ import annotations

import csv
import io
import json
import re
from pathlib import Path
from typing import Any
from xml.sax.saxutils import escape, quoteattr

from . import plans
from .driver import Exploration, Failure
from .invariants import BUILTIN

__all__ = ["PRODUCED", "write_report", "failure_id"]

PRODUCED = ("report.txt", "explore.json", "plans.jsonl", "results.csv", "histogram.png", "junit.xml")


def failure_id(exp: Exploration, f: Failure) -> str:
    """The directory name of a failure: the built-in invariant's name, predicate-<n> or check-<n>."""
    if f.invariant in BUILTIN:
        return f.invariant
    if f.invariant.startswith("predicate: "):
        return f"predicate-{list(exp.settings.invariants).index(f.invariant[len('predicate: '):]) + 1}"
    return f"check-{list(exp.settings.checks).index(f.invariant[len('check: '):]) + 1}"


def _params(exp: Exploration, events: tuple[plans.Event, ...]) -> list[str]:
    return plans.param_args(exp.job.base, exp.job.base_faults, events)


def _commands(exp: Exploration, f: Failure, quick: bool) -> tuple[str, str]:
    return plans.commands(exp.scenario.file, exp.job.seed, quick, _params(exp, f.minimal), f.row.get("digest") or None)


def _header(exp: Exploration, f: Failure) -> str:
    n0, n1 = len(f.first.events), len(f.minimal)
    how = "" if f.shrunk is None else (f" in {f.shrink_runs} runs" + ("" if f.shrunk.complete else
                                                                        ", stopped early by the budget"))
    return (f"simdist explore {exp.scenario.name}: breaks {f.invariant}\n"
            f"minimal plan: {n1} event(s), shrunk from plan {f.first.index} ({n0} event(s)){how}\n"
            f"paste in place of the scenario's [[faults.*]] entries of these kinds")


def _violation(f: Failure) -> str:
    return next((v["message"] for v in f.row.get("violations", []) if v["invariant"] == f.invariant), f.message)


def write_report(exp: Exploration, out: Path, quick: bool, plot: bool = True) -> tuple[str, list[Path]]:
    """Write every file; return (the report text, the paths written)."""
    written: list[Path] = []
    fdirs: dict[str, Path] = {}
    for f in exp.failures:
        d = out / "failures" / failure_id(exp, f)
        fdirs[f.invariant] = d
        written += _write_failure(exp, f, d, quick, plot)
    text = _text(exp, out, quick, fdirs, plot)
    _write(out / "report.txt", text + "\n")
    _write(out / "explore.json", json.dumps(_manifest(exp, quick), indent=2, sort_keys=True) + "\n")
    events = {spec.index: spec.events for spec in exp.specs}
    _write(out / "plans.jsonl", "".join(json.dumps(_plan_line(exp, r, events.get(r["plan"], ())), sort_keys=True,
                                                   separators=(",", ":")) + "\n" for r in exp.rows))
    _write(out / "results.csv", _csv(exp))
    _write(out / "junit.xml", junit_xml(exp, quick))
    written += [out / n for n in ("report.txt", "explore.json", "plans.jsonl", "results.csv", "junit.xml")]
    if plot:
        written.append(histogram(exp, out / "histogram.png"))
    return text, written


def _write(path: Path, text: str) -> None:
    from simdist.scenario.outputs import write_text
    write_text(path, text)


def _plan_line(exp: Exploration, r: dict[str, Any], events: tuple[plans.Event, ...]) -> dict[str, Any]:
    return {"plan": r["plan"], "events": plans.plan_json(events), "status": r["status"], "error": r["error"],
            "digest": r["digest"], "violations": r["violations"], "metric": r["summary"].get(exp.settings.metric)}


def _csv(exp: Exploration) -> str:
    from simdist.scenario.metrics import SUMMARY_METRICS
    from simdist.scenario.table import fmt
    present = {k for r in exp.rows for k in r["summary"]}
    metrics = [k for k in SUMMARY_METRICS if k in present] + sorted(present - set(SUMMARY_METRICS))
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(["plan", "events", "status", "error", "digest", "violations"] + metrics)
    for r in exp.rows:
        names = ";".join(sorted({v["invariant"] for v in r["violations"]}))
        w.writerow([r["plan"], r["events"], r["status"], fmt(r["error"]), r["digest"], names]
                   + [fmt(r["summary"].get(m)) for m in metrics])
    return buf.getvalue()


def _manifest(exp: Exploration, quick: bool) -> dict[str, Any]:
    sc = exp.scenario
    fails = []
    for f in exp.failures:
        run_cmd, replay_cmd = _commands(exp, f, quick)
        fails.append({"invariant": f.invariant, "id": failure_id(exp, f), "plans": len(f.plans),
                      "first_plans": f.plans[:20], "shrunk_from": f.first.index,
                      "minimal": plans.plan_json(f.minimal), "message": _violation(f),
                      "shrink_runs": f.shrink_runs,
                      "shrink_complete": bool(f.shrunk and f.shrunk.complete),
                      "digest": f.row.get("digest"), "params": _params(exp, f.minimal),
                      "run": run_cmd, "replay": replay_cmd})
    return {"schema": "simdist.explore/1", "scenario": {"name": sc.name, "file": sc.file, "digest": sc.digest,
                                                       "quick": quick, "seed": exp.job.seed},
            "settings": exp.settings.manifest(), "plans_run": len(exp.specs), "budget_hit": exp.budget_hit,
            "baseline": {"digest": exp.rows[0]["digest"], "summary": exp.rows[0]["summary"]},
            "status": _status_counts(exp), "broken": exp.broken(), "determinism": exp.determinism,
            "failures": fails}


def _status_counts(exp: Exploration) -> dict[str, int]:
    out = {"ok": 0, "failed": 0, "limit": 0, "error": 0}
    for r in exp.rows:
        out[r["status"]] = out.get(r["status"], 0) + 1
    return out


def _text(exp: Exploration, out: Path, quick: bool, fdirs: dict[str, Path], plot: bool) -> str:
    s, c = exp.settings, _status_counts(exp)
    lines = [f"explore {exp.scenario.name}: {len(exp.specs)} fault plan(s) (seed {s.seed}, up to {s.max_events} "
             f"events each) and the baseline (plan 0: no drawn faults)"
             + (f"; the budget stopped it after {len(exp.specs)} of {s.plans}" if exp.budget_hit else "")]
    lines.append(f"runs: {c['ok']} ok, {c['failed']} failed with a documented error, {c['limit']} stopped by a "
                 f"limit, {c['error']} internal error(s)")
    d = exp.determinism
    if d["sample"]:
        lines.append(f"determinism: plans {', '.join(map(str, d['sample']))} re-run in a fresh process "
                     f"(PYTHONHASHSEED={d['hash_seed']}): "
                     + ("identical" if not d["mismatches"] else f"DIFFERENT for {d['mismatches']}"))
    broken = exp.broken()
    w = max(len(k) for k in broken)
    lines += ["", f"{'invariant':<{w}}  plans broken", f"{'-' * w}  ------------"]
    lines += [f"{k:<{w}}  {v}" for k, v in broken.items()]
    for f in exp.failures:
        run_cmd, replay_cmd = _commands(exp, f, quick)
        lines += ["", f"FAILED {f.invariant}: {len(f.plans)} of {len(exp.rows)} plans (first: plan {f.plans[0]})",
                  f"  {_header(exp, f).splitlines()[1]}"]
        lines += [f"    {plans.describe(e)}" for e in f.minimal] or ["    (no events: the scenario as written)"]
        lines.append(f"  it gives: {_violation(f)}")
        lines += ["  as TOML:"] + [f"    {ln}" if ln else "" for ln in plans.toml_fragment(
            exp.job.base, exp.job.base_faults, f.minimal).rstrip("\n").splitlines()]
        lines.append(f"  reproduce (byte for byte): {replay_cmd}")
        lines.append(f"  with trace and timeline:   {run_cmd}")
        lines.append(f"  files: {fdirs[f.invariant]}/")
    lines.append("")
    if plot:
        lines.append(f"histogram: {out / 'histogram.png'} ({s.metric})")
    lines.append(f"junit:     {out / 'junit.xml'}")
    lines.append(f"plans:     {out / 'results.csv'}, {out / 'plans.jsonl'}")
    n = sum(1 for f in exp.failures)
    lines.append(f"explore: {'FAILED: ' + str(n) + ' invariant(s) broken' if n else 'ok: every invariant kept'} "
                 f"({exp.wall_s:.1f} s)")
    return "\n".join(lines)


def _write_failure(exp: Exploration, f: Failure, d: Path, quick: bool, plot: bool) -> list[Path]:
    """The minimal plan's files: rerun with its trace (same metrics: the trace is output only)."""
    from simdist.scenario.metrics import summary_table
    from simdist.scenario.outputs import write_json
    from .worker import PlanSpec, run_plan
    d.mkdir(parents=True, exist_ok=True)
    trace = d / "trace.json"
    row, metrics = run_plan(exp.job, PlanSpec(-1, f.minimal), trace=str(trace))
    written = []
    if metrics is not None:
        write_json(d / "metrics.json", metrics)
        _write(d / "summary.txt", summary_table(metrics) + "\n")
        written += [d / "metrics.json", d / "summary.txt", trace]
        if plot:
            from simdist.scenario.plot import plot_run
            written += [Path(p) for p in plot_run(trace, metrics, d)]
    _write(d / "plan.toml", plans.toml_fragment(exp.job.base, exp.job.base_faults, f.minimal, _header(exp, f)))
    run_cmd, replay_cmd = _commands(exp, f, quick)
    _write(d / "reproduce.sh", "#!/bin/sh\n# " + _header(exp, f).replace("\n", "\n# ") +
           f"\n# it gives: {_violation(f)}\n\n# the same metrics, byte for byte (sha256 checked):\n{replay_cmd}\n\n"
           f"# the run with its trace and timeline:\n{run_cmd}\n")
    return written + [d / "plan.toml", d / "reproduce.sh"]


# ---------------------------------------------------------------------------------------------- pictures, junit
def histogram(exp: Exploration, path: Path) -> Path:
    """The metric over every plan that produced metrics: plans that kept every invariant, and those that broke one."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    from simdist.scenario.metrics import SUMMARY_METRICS
    m = exp.settings.metric
    kept = [r["summary"][m] for r in exp.rows if m in r["summary"] and not r["violations"]]
    bad = [r["summary"][m] for r in exp.rows if m in r["summary"] and r["violations"]]
    fig = Figure(figsize=(7.5, 4.2))
    FigureCanvasAgg(fig)
    ax = fig.add_subplot(1, 1, 1)
    vals = kept + bad
    bins = 30 if len(set(vals)) > 1 else 1
    ax.hist([kept, bad], bins=bins, stacked=True, color=["#4c78a8", "#e45756"],
            label=[f"kept every invariant ({len(kept)})", f"broke one ({len(bad)})"])
    base = exp.rows[0]["summary"].get(m)
    if base is not None:
        ax.axvline(base, color="black", linestyle="--", linewidth=1, label=f"baseline {base:.6g}")
    unit = SUMMARY_METRICS.get(m, ("",))[0]
    ax.set_xlabel(m + (f" ({unit})" if unit else ""))
    ax.set_ylabel("plans")
    ax.set_title(f"{exp.scenario.name}: {m} over {len(vals)} runs (plans + baseline, seed {exp.settings.seed})",
                 fontsize=10)
    ax.legend(fontsize=8)
    ax.grid(alpha=0.3)
    fig.tight_layout()
    from simdist.scenario.outputs import save_figure
    save_figure(fig, path, 130)
    return path


def junit_xml(exp: Exploration, quick: bool) -> str:
    """One test case per invariant; a broken one carries its count and the minimal reproducer."""
    broken = exp.broken()
    by_name = {f.invariant: f for f in exp.failures}
    n_fail = sum(1 for k in broken if broken[k])
    suite = f"simdist explore: {exp.scenario.name}"
    cls = "simdist.explore." + re.sub(r"[^A-Za-z0-9_]+", "_", exp.scenario.name)
    out = ['<?xml version="1.0" encoding="UTF-8"?>',
           f'<testsuites name="simdist explore" tests="{len(broken)}" failures="{n_fail}" errors="0">',
           f'  <testsuite name={quoteattr(suite)} tests="{len(broken)}" failures="{n_fail}" errors="0" skipped="0">']
    for name, count in broken.items():
        f = by_name.get(name)
        if f is None:
            out.append(f"    <testcase classname={quoteattr(cls)} name={quoteattr(name)}/>")
            continue
        _, replay_cmd = _commands(exp, f, quick)
        msg = f"{count} of {len(exp.rows)} plans break it; minimal plan of {len(f.minimal)} event(s): {_violation(f)}"
        body = "\n".join([msg] + [plans.describe(e) for e in f.minimal] + [f"reproduce: {replay_cmd}"])
        out.append(f"    <testcase classname={quoteattr(cls)} name={quoteattr(name)}>")
        out.append(f"      <failure message={quoteattr(msg)} type=\"invariant\">{escape(body)}</failure>")
        out.append("    </testcase>")
    out += ["  </testsuite>", "</testsuites>", ""]
    return "\n".join(out)
