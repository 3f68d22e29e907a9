"""Regression gate: compare the metrics of a current run (or sweep) with a baseline.

Inputs are a metrics.json (or a run directory holding one) or a sweep table (results.csv,
results.parquet, or a sweep directory). A sweep is compared per parameter combination on the
mean over its successful runs. A metric regresses when it moves in its bad direction (see
`metrics.SUMMARY_METRICS`: time and bytes are better lower, throughput higher) by more than its
tolerance; neutral metrics are compared only when named in the tolerances. A run or group that
completed in the baseline but failed (or is missing) in the current one is a regression too.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from xml.sax.saxutils import escape, quoteattr

from .metrics import SUMMARY_METRICS, direction, format_value

__all__ = ["Tolerance", "Row", "load_side", "same_scenario", "compare", "parse_tolerances", "junit_xml", "diff_table"]


@dataclass(frozen=True)
class Tolerance:
    value: float
    relative: bool = True

    def allows(self, base: float, cur: float) -> bool:
        """Whether a move from base to cur in the bad direction is within the tolerance."""
        delta = abs(cur - base)
        if self.relative:
            if base == 0:
                return delta <= 1e-12
            return delta <= self.value * abs(base) * (1 + 1e-12)
        return delta <= self.value * (1 + 1e-12)

    def __str__(self) -> str:
        return f"{self.value * 100:g}%" if self.relative else f"±{self.value:g}"


def parse_tolerance(text: str) -> Tolerance:
    t = text.strip()
    try:
        if t.endswith("%"):
            v = float(t[:-1]) / 100.0
            rel = True
        else:
            v = float(t)
            rel = False
    except ValueError:
        raise ValueError(f"tolerance {text!r}: expected a percentage like 5% or an absolute number like 0.01") from None
    if not math.isfinite(v) or v < 0:
        raise ValueError(f"tolerance {text!r}: must be >= 0")
    return Tolerance(v, rel)


def parse_tolerances(specs: list[str]) -> dict[str, Tolerance]:
    """``["examples_per_s=5%,simulated_time_s=2%", "bytes_transferred=0"]`` -> {metric: Tolerance}."""
    out: dict[str, Tolerance] = {}
    for spec in specs:
        for part in [p for p in spec.split(",") if p.strip()]:
            if "=" not in part:
                raise ValueError(f"--tolerance {part!r}: expected metric=5% (or metric=0.01 absolute)")
            name, _, val = part.partition("=")
            name = name.strip()
            if name not in SUMMARY_METRICS and name != "*":
                from simdist.suggest import did_you_mean
                raise ValueError(f"--tolerance {part}: unknown metric {name}{did_you_mean(name, SUMMARY_METRICS)} "
                                 f"(metrics are {', '.join(SUMMARY_METRICS)}, or * for the default)")
            out[name] = parse_tolerance(val)
    return out


@dataclass
class Side:
    kind: str                                   # "run" or "sweep"
    path: str
    groups: dict[str, dict[str, Any]]           # group label -> {"metrics": {...}, "ok": bool, "runs", "failed"}
    order: list[str]
    scenario: str | None = None                 # scenario name, when the input records it
    digest: str | None = None                   # sha256 of the validated scenario (run: with its overrides)

    def describe(self) -> str:
        if self.scenario is None:
            return "an unknown scenario"
        return f"scenario {self.scenario}" + (f" (sha256 {self.digest[:12]})" if self.digest else "")


def same_scenario(a: Side, b: Side) -> str | None:
    """None when ``a`` and ``b`` come from the same scenario (or a side does not say); else why not."""
    if a.scenario is None or b.scenario is None:
        return None
    if a.scenario != b.scenario or (a.digest and b.digest and a.digest != b.digest):
        what = "a different scenario" if a.scenario != b.scenario else "the same scenario with other values"
        return f"{a.path} is {a.describe()} but the baseline {b.path} is {b.describe()}: {what}"
    return None


def _find(path: Path) -> tuple[str, Path]:
    if path.is_dir():
        for name, kind in (("metrics.json", "run"), ("results.parquet", "sweep"), ("results.csv", "sweep")):
            if (path / name).exists():
                return kind, path / name
        raise ValueError(f"{path}: no metrics.json or results.csv in this directory")
    if not path.exists():
        raise ValueError(f"{path}: no such file or directory")
    if path.suffix == ".json":
        return "run", path
    if path.suffix in (".csv", ".parquet"):
        return "sweep", path
    raise ValueError(f"{path}: expected a metrics.json, a sweep results.csv/.parquet or a directory holding one")


def load_side(path: str | Path) -> Side:
    kind, p = _find(Path(path))
    if kind == "run":
        try:
            doc = json.loads(p.read_text(encoding="utf-8"))
        except (OSError, json.JSONDecodeError) as e:
            raise ValueError(f"{p}: not a readable metrics.json ({e})") from None
        if not isinstance(doc, dict) or "summary" not in doc:
            raise ValueError(f"{p}: not a simdist metrics.json (no 'summary')")
        sc = doc.get("scenario") if isinstance(doc.get("scenario"), dict) else {}
        label = sc.get("name", "run")
        ok = doc.get("status") == "ok"
        return Side("run", str(p), {label: {"metrics": dict(doc["summary"]), "ok": ok, "runs": 1,
                                            "failed": 0 if ok else 1}}, [label], sc.get("name"), sc.get("digest"))
    from .table import read_table
    try:
        rows = read_table(p)
    except Exception as e:  # noqa: BLE001 - any unreadable table is bad input
        raise ValueError(f"{p}: not a readable sweep table ({type(e).__name__}: {e})") from None
    if not rows or "status" not in rows[0]:
        raise ValueError(f"{p}: not a simdist sweep table (no rows or no 'status' column)")
    cols = list(rows[0])
    i0, i1 = cols.index("seed") + 1, cols.index("status")
    params = cols[i0:i1]
    metrics = [c for c in cols[cols.index("digest") + 1:]]
    groups: dict[str, dict[str, Any]] = {}
    order: list[str] = []
    for r in rows:
        label = ", ".join(f"{k}={r[k]}" for k in params) or "all"
        g = groups.get(label)
        if g is None:
            g = groups[label] = {"rows": [], "runs": 0, "failed": 0}
            order.append(label)
        g["runs"] += 1
        if r["status"] == "ok":
            g["rows"].append(r)
        else:
            g["failed"] += 1
    for g in groups.values():
        m = {}
        for c in metrics:
            xs = [float(r[c]) for r in g["rows"] if isinstance(r.get(c), (int, float))]
            if xs:
                m[c] = math.fsum(xs) / len(xs)
        g["metrics"] = m
        g["ok"] = g["failed"] == 0
        del g["rows"]
    name = digest = None
    manifest = p.parent / "sweep.json"
    if manifest.is_file():
        try:
            man = json.loads(manifest.read_text(encoding="utf-8"))
            name, digest = man.get("scenario"), man.get("scenario_digest")
        except (OSError, json.JSONDecodeError):
            pass
    return Side("sweep", str(p), groups, order, name, digest)


@dataclass
class Row:
    group: str
    metric: str
    baseline: float | None
    current: float | None
    tolerance: str
    verdict: str            # ok | improved | regression | missing | failed
    message: str = ""

    @property
    def failed(self) -> bool:
        return self.verdict in ("regression", "missing", "failed")

    @property
    def change(self) -> str:
        if self.baseline is None or self.current is None:
            return ""
        if self.baseline == 0:
            return "0" if self.current == 0 else "new"
        return f"{(self.current - self.baseline) / abs(self.baseline) * 100:+.2f}%"


def compare(current: Side, baseline: Side, tolerances: dict[str, Tolerance], default: Tolerance,
            metrics: list[str] | None = None) -> list[Row]:
    if current.kind != baseline.kind:
        raise ValueError(f"cannot compare a {current.kind} ({current.path}) with a {baseline.kind} "
                         f"({baseline.path}): give two metrics.json files or two sweep tables")
    rows: list[Row] = []
    single = current.kind == "run"
    for label in baseline.order:
        b = baseline.groups[label]
        c = current.groups.get(label)
        if c is None and single and len(current.groups) == 1:
            c = next(iter(current.groups.values()))   # two runs of differently named scenarios
        if c is None:
            rows.append(Row(label, "*", None, None, "", "missing", f"group {label!r} is not in the current results"))
            continue
        if c["failed"] > b["failed"]:
            rows.append(Row(label, "failed_runs", float(b["failed"]), float(c["failed"]), "0", "failed",
                            f"{c['failed']} of {c['runs']} run(s) failed (baseline: {b['failed']})"))
        names = metrics or [m for m in SUMMARY_METRICS if m in b["metrics"] and
                            (direction(m) != "neutral" or m in tolerances)]
        for m in names:
            tol = tolerances.get(m, tolerances.get("*", default))
            bv, cv = b["metrics"].get(m), c["metrics"].get(m)
            if bv is None:
                continue
            if cv is None:
                rows.append(Row(label, m, bv, None, str(tol), "missing", "not in the current results"))
                continue
            d = direction(m)
            worse = (cv > bv) if d == "lower" else (cv < bv) if d == "higher" else (cv != bv)
            better = (cv < bv) if d == "lower" else (cv > bv) if d == "higher" else False
            if worse and not tol.allows(bv, cv):
                verdict = "regression"
            elif better and not tol.allows(bv, cv):
                verdict = "improved"
            else:
                verdict = "ok"
            rows.append(Row(label, m, bv, cv, str(tol), verdict))
    return rows


def diff_table(rows: list[Row], only_changes: bool = False) -> str:
    shown = [r for r in rows if not only_changes or r.verdict != "ok" or r.change not in ("", "+0.00%", "0")]
    if not shown:
        return "(no metrics changed)"
    head = ("group", "metric", "baseline", "current", "change", "tolerance", "verdict")
    data = [(r.group, r.metric, "" if r.baseline is None else format_value(r.metric, r.baseline),
             "" if r.current is None else format_value(r.metric, r.current), r.change, r.tolerance,
             r.verdict.upper() if r.failed else r.verdict) for r in shown]
    single_group = len({r.group for r in shown}) == 1
    if single_group:
        head = head[1:]
        data = [d[1:] for d in data]
    w = [max(len(h), *(len(d[i]) for d in data)) for i, h in enumerate(head)]
    lines = ["  ".join(h.ljust(w[i]) for i, h in enumerate(head)), "  ".join("-" * x for x in w)]
    lines += ["  ".join(d[i].ljust(w[i]) for i in range(len(head))) for d in data]
    return "\n".join(lines)


def junit_xml(rows: list[Row], current: str, baseline: str) -> str:
    failures = sum(1 for r in rows if r.failed)
    out = ['<?xml version="1.0" encoding="UTF-8"?>',
           f'<testsuites name="simdist gate" tests="{len(rows)}" failures="{failures}" errors="0">',
           f'  <testsuite name={quoteattr("simdist gate: " + current + " vs " + baseline)} tests="{len(rows)}" '
           f'failures="{failures}" errors="0" skipped="0">']
    for r in rows:
        name = quoteattr(r.metric)
        cls = quoteattr(r.group)
        if r.failed:
            msg = r.message or (f"{r.metric} {r.verdict}: {r.baseline!r} -> {r.current!r} ({r.change}; tolerance "
                                f"{r.tolerance})")
            out.append(f"    <testcase classname={cls} name={name}>")
            out.append(f"      <failure message={quoteattr(msg)} type={quoteattr(r.verdict)}>{escape(msg)}</failure>")
            out.append("    </testcase>")
        else:
            out.append(f"    <testcase classname={cls} name={name}/>")
    out += ["  </testsuite>", "</testsuites>", ""]
    return "\n".join(out)
