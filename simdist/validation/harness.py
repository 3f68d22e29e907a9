"""The validation table: every published measurement's row run on the simulator, its error, the
summary (median and max |error| overall, on the fit and holdout halves, by kind), the markdown of
docs/validation.md and the simulated-vs-published picture; and the fit of the global factors.

Rows come from modules exposing ``measurements() -> list[Measurement]``: `collectives` and
`training`. A module that is not there (yet) is reported as missing; no row is ever invented.
"""

from __future__ import annotations

import importlib
import itertools
import math
import statistics
from dataclasses import dataclass, fields
from typing import Any, Iterable, Sequence

from .table import Measurement

__all__ = ["ROW_MODULES", "HIDDEN_MODULES", "Result", "ValidationError", "collect", "evaluate", "summarize",
           "format_table",
           "format_summary", "markdown", "plot", "fit_factors", "FIT_GRID"]

ROW_MODULES = ("simdist.validation.collectives", "simdist.validation.training")
HIDDEN_MODULES = ("simdist.validation.hidden",)   # issue 26's hidden-set proxy (`validate --hidden`)
KINDS = ("collective", "compute", "training")


class ValidationError(Exception):
    """A row that cannot be evaluated (its simulate() failed or returned no usable figure)."""


@dataclass(frozen=True)
class Result:
    """One row evaluated: the measurement, simdist's figure and the relative error."""

    m: Measurement
    simulated: float
    error: float


def collect(kinds: Iterable[str] | None = None,
            modules: Sequence[str] = ROW_MODULES) -> tuple[list[Measurement], list[str]]:
    """The rows of every row module (``kinds``: keep only those kinds) and the modules that are
    missing (a module that exists but fails to import raises: that is a bug, not a gap)."""
    rows: list[Measurement] = []
    missing: list[str] = []
    for name in modules:
        try:
            mod = importlib.import_module(name)
        except ModuleNotFoundError as e:
            if e.name == name:
                missing.append(name)
                continue
            raise
        got = mod.measurements()
        for m in got:
            if not isinstance(m, Measurement):
                raise ValidationError(f"{name}.measurements(): expected Measurement rows, got {type(m).__name__}")
        rows += got
    seen: dict[str, bool] = {}
    for m in rows:
        if m.id in seen:
            raise ValidationError(f"duplicate measurement id {m.id!r}")
        seen[m.id] = True
    if kinds is not None:
        keep = list(kinds)
        bad = [k for k in keep if k not in KINDS]
        if bad:
            raise ValueError(f"validate --kind: unknown kind(s) {bad}; known: {', '.join(KINDS)}")
        rows = [m for m in rows if m.kind in keep]
    return rows, missing


def evaluate(rows: Iterable[Measurement]) -> list[Result]:
    """Run every row's workload; a row whose simulate() raises or returns a non-positive or
    non-finite figure stops the table with a `ValidationError` naming the row."""
    out = []
    for m in rows:
        try:
            sim = m.simulate()
        except Exception as e:  # noqa: BLE001 - re-raised with the row's id
            raise ValidationError(f"{m.id}: simulate() failed: {type(e).__name__}: {e}") from e
        if isinstance(sim, bool) or not isinstance(sim, (int, float)) or not math.isfinite(sim) or sim <= 0:
            raise ValidationError(f"{m.id}: simulate() returned {sim!r}; expected a finite figure > 0 in {m.unit}")
        out.append(Result(m, float(sim), m.error(float(sim))))
    return out


def _stats(results: list[Result]) -> dict[str, float]:
    errs = [abs(r.error) for r in results]
    if not errs:
        return {"n": 0, "median": float("nan"), "max": float("nan")}
    return {"n": len(errs), "median": statistics.median(errs), "max": max(errs)}


def summarize(results: list[Result]) -> dict[str, dict[str, float]]:
    """|error| statistics: "overall", "fit", "holdout", and one entry per kind present."""
    out = {"overall": _stats(results),
           "fit": _stats([r for r in results if r.m.split == "fit"]),
           "holdout": _stats([r for r in results if r.m.split == "holdout"])}
    for k in KINDS:
        rs = [r for r in results if r.m.kind == k]
        if rs:
            out[k] = _stats(rs)
    return out


def _fmt(x: float) -> str:
    return f"{x:.4g}" if abs(x) < 1000 else f"{x:,.0f}"


def format_table(results: list[Result]) -> str:
    """The table as plain text: id, published, simdist, error, split."""
    w = max([len(r.m.id) for r in results] + [2])
    lines = [f"{'id':<{w}}  {'published':>10}  {'simdist':>10}  {'error':>7}  {'split':<7}  unit"]
    for r in results:
        lines.append(f"{r.m.id:<{w}}  {_fmt(r.m.published):>10}  {_fmt(r.simulated):>10}  {r.error:>+7.1%}  "
                     f"{r.m.split:<7}  {r.m.unit}")
    return "\n".join(lines)


def format_summary(summary: dict[str, dict[str, float]], missing: Sequence[str] = ()) -> str:
    lines = []
    for k, s in summary.items():
        if s["n"]:
            lines.append(f"{k:<10} n={int(s['n']):<3} median |error| {s['median']:.1%}   max |error| {s['max']:.1%}")
        else:
            lines.append(f"{k:<10} n=0")
    for name in missing:
        lines.append(f"missing    {name}: module not present, its rows are not in this table")
    return "\n".join(lines)


def markdown(results: list[Result], summary: dict[str, dict[str, float]], missing: Sequence[str] = ()) -> str:
    """docs/validation.md's generated part: the summary, then the table with citations."""
    out = ["| | n | median \\|error\\| | max \\|error\\| |", "|---|---:|---:|---:|"]
    for k, s in summary.items():
        if s["n"]:
            out.append(f"| {k} | {int(s['n'])} | {s['median']:.1%} | {s['max']:.1%} |")
    for name in missing:
        out.append(f"| `{name}` | missing: no rows | | |")
    out += ["", "| id | what | published | simdist | error | split | source (where, date) | workload |",
            "|---|---|---:|---:|---:|---|---|---|"]
    for r in results:
        c = r.m.citation
        src = f"[{c.source}]({c.url})" if c.url else c.source
        out.append(f"| `{r.m.id}` | {r.m.description} | {_fmt(r.m.published)} {r.m.unit} | {_fmt(r.simulated)} | "
                   f"{r.error:+.1%} | {r.m.split} | {src}: {c.where} ({c.date}) | {r.m.derivation} |")
    return "\n".join(out) + "\n"


def plot(results: list[Result], path: str) -> None:
    """Simulated vs published, log-log, one point per row (colour by kind, hollow = holdout), the
    y = x line and a +-10% band; written to ``path`` (PNG)."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    fig, ax = plt.subplots(figsize=(6.4, 6.0), dpi=120)
    xs = [r.m.published for r in results] + [r.simulated for r in results]
    lo, hi = min(xs) / 1.5, max(xs) * 1.5
    line = [lo, hi]
    ax.fill_between(line, [v * 0.9 for v in line], [v * 1.1 for v in line], color="0.85", label="±10%")
    ax.plot(line, line, color="0.3", lw=1, label="y = x")
    colors = {"collective": "tab:blue", "compute": "tab:orange", "training": "tab:green"}
    for kind in KINDS:
        for split in ("fit", "holdout"):
            rs = [r for r in results if r.m.kind == kind and r.m.split == split]
            if rs:
                ax.scatter([r.m.published for r in rs], [r.simulated for r in rs], s=28,
                           facecolors=colors[kind] if split == "fit" else "none", edgecolors=colors[kind],
                           label=f"{kind} ({split})")
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlim(lo, hi)
    ax.set_ylim(lo, hi)
    ax.set_xlabel("published")
    ax.set_ylabel("simdist")
    ax.set_title("simdist vs published measurements (each in its own unit)")
    ax.legend(loc="upper left", fontsize=8)
    fig.tight_layout()
    fig.savefig(path, metadata={"Software": None})
    plt.close(fig)


# The grid `fit_factors` searches (nccl.Factors fields): a few values each, documented in
# docs/validation.md. overhead in seconds, ramp_bytes in bytes.
FIT_GRID: dict[str, tuple[float, ...]] = {
    "overhead": (10e-6, 15e-6, 20e-6, 25e-6, 30e-6, 35e-6),
    "net_efficiency": (0.8, 0.85, 0.9, 0.95, 1.0),
    "nvls_efficiency": (0.7, 0.75, 0.8, 0.85, 0.9, 0.95, 1.0),
    "ramp_bytes": (0.0, 262144.0, 524288.0, 1048576.0, 2097152.0),
}


def fit_factors(rows: Iterable[Measurement], grid: dict[str, tuple[float, ...]] | None = None) -> tuple[Any, dict]:
    """The `nccl.Factors` on ``grid`` that minimise the mean |error| over the "fit" collective rows
    (ties: the smaller max |error|, then grid order); returns (factors, their summary on those
    rows). The mean, not the max: one row the model cannot reach must not drag every factor."""
    from simdist.sim import nccl
    g = FIT_GRID if grid is None else grid
    names = [f.name for f in fields(nccl.Factors)]
    unknown = sorted(set(g) - set(names))
    if unknown:
        raise ValueError(f"fit grid: unknown factor(s) {unknown}; known: {', '.join(names)}")
    fit_rows = [m for m in rows if m.split == "fit" and m.kind == "collective"]
    if not fit_rows:
        raise ValidationError("fit: no collective rows in the fit half")
    keys = [k for k in names if k in g]
    best: tuple[tuple[float, float], Any, dict] | None = None
    for values in itertools.product(*[g[k] for k in keys]):
        f = nccl.Factors(**dict(zip(keys, values)))
        with nccl.using(f):
            res = evaluate(fit_rows)
        s = _stats(res)
        score = (round(statistics.fmean([abs(r.error) for r in res]), 12), round(s["max"], 12))
        if best is None or score < best[0]:
            best = (score, f, s)
    assert best is not None
    return best[1], best[2]
