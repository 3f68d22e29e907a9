"""`simdist sweep --plot METRIC[,METRIC...]`: each METRIC against the first swept parameter (one
panel each), one point per run, the mean per value as a line and the spread over seeds (min..max)
as a band, one line per combination of the other parameters (named in the legend and the title).
Each run's point is marked by its seed (a marker per seed, in the legend) when a sweep has at
most six seeds; with more, the points are plain and aggregated. The title gives the number of
seeds behind each point, and where that number differs between points (runs failed or lack the
metric) each mean is annotated with its own ``n``.
Categorical values (strategy names) have no order, so no line joins them: the mean is a wide
tick and the spread an error bar. A run without the metric (e.g.
time_to_accuracy_s of a run that never reached its target) is left out, and the title says how
many were.

A parameter whose values are numbers, or quantities with units ("10min", "25Gbps", "2GFLOP"), is
placed on a numeric axis at its value in SI units (logarithmic when the values span more than a
factor of 20), labelled as written; other values (strategy names) are categories in file order.
"""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any, Sequence

from simdist.scenario.table import read_table

__all__ = ["plot_sweep", "draw_sweep", "x_positions", "series"]


def x_positions(param: str, values: Sequence[Any]) -> tuple[list[float], bool, bool]:
    """(position of each value, numeric?, log scale?) for the swept key ``param``."""
    nums = [_as_number(param, v) for v in values]
    if values and all(x is not None for x in nums):
        xs = [float(x) for x in nums]  # type: ignore[arg-type]
        pos = [x for x in xs if x > 0]
        log = len(pos) == len(xs) and len(xs) > 2 and max(xs) / min(xs) > 20
        return xs, True, log
    return [float(i) for i in range(len(values))], False, False


def _as_number(param: str, v: Any) -> float | None:
    if isinstance(v, bool):
        return None
    if isinstance(v, (int, float)):
        return float(v) if math.isfinite(v) else None
    if not isinstance(v, str):
        return None
    from simdist.scenario.schema import lookup
    f = lookup(param)
    kind = f.kind if f is not None else None
    try:
        if kind == "flops":
            from simdist.scenario.values import _parse_flops
            return _parse_flops(v, param)
        if kind in ("time", "bandwidth", "bytes"):
            from simdist.scenario.values import _unit_parser
            return float(_unit_parser(kind)(v, field=param))
        return float(v)
    except ValueError:
        return None


def series(rows: list[dict[str, Any]], metric: str, x_param: str, others: Sequence[str]
           ) -> tuple[list[Any], dict[str, dict[str, list[float]]]]:
    """The x values in file order, and per group of the other parameters: per x value the mean,
    min and max of ``metric`` over the group's completed runs (NaN where a value has no run)."""
    xs_order: list[Any] = []
    for r in rows:
        if r[x_param] not in xs_order:
            xs_order.append(r[x_param])
    groups: dict[str, list[dict[str, Any]]] = {}
    for r in rows:
        groups.setdefault(json.dumps([r[p] for p in others]), []).append(r)
    out: dict[str, dict[str, list[float]]] = {}
    for key, rs in groups.items():
        stats: dict[str, list[float]] = {"mean": [], "min": [], "max": []}
        for x in xs_order:
            vals = [float(r[metric]) for r in rs if r[x_param] == x]
            stats["mean"].append(math.fsum(vals) / len(vals) if vals else math.nan)
            stats["min"].append(min(vals) if vals else math.nan)
            stats["max"].append(max(vals) if vals else math.nan)
        out[key] = stats
    return xs_order, out


def plot_sweep(out: str | Path, metric: str | Sequence[str], params: Sequence[str]) -> str:
    """Draw ``metric`` (or several: one panel each, side by side) of the sweep in ``out`` (its
    results.csv) into ``out``/sweep.png."""
    out = Path(out)
    fig = draw_sweep(read_table(out / "results.csv"), metric, params)
    path = out / "sweep.png"
    from simdist.scenario.outputs import save_figure
    return save_figure(fig, path, 130)


def draw_sweep(table: list[dict[str, Any]], metric: str | Sequence[str], params: Sequence[str]) -> Any:
    """The Figure (artists' gids: ``mean:<group>``, ``band:<group>``, ``runs:<group>`` (or
    ``runs:<group>:seed<S>`` when points are marked by seed), ``n:<group>`` for a point's seed count;
    with several metrics, prefixed ``<metric>/``)."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    metrics = [metric] if isinstance(metric, str) else list(metric)
    fig = Figure(figsize=(7.5 if len(metrics) == 1 else 4.6 * len(metrics), 4.4))
    FigureCanvasAgg(fig)
    for k, m in enumerate(metrics):
        _panel(fig.add_subplot(1, len(metrics), k + 1), table, m, params, "" if len(metrics) == 1 else f"{m}/")
    fig.tight_layout()
    return fig


SEED_MARKERS = ("o", "s", "^", "D", "v", "P")   # points marked by seed up to this many seeds


def _panel(ax: Any, table: list[dict[str, Any]], metric: str, params: Sequence[str], gid: str) -> None:
    from simdist.scenario.metrics import SUMMARY_METRICS

    rows = [r for r in table if r["status"] == "ok" and _finite(r.get(metric))]
    x_param, others = params[0], list(params[1:])
    xs_order, stats = series(rows, metric, x_param, others)
    pos, numeric, log = x_positions(x_param, xs_order)
    order = sorted(range(len(xs_order)), key=lambda i: pos[i])
    ngroups = len(stats)
    seeds = sorted({r["seed"] for r in rows})
    by_seed = 1 < len(seeds) <= len(SEED_MARKERS)
    counts = {(json.dumps([r[p] for p in others]), json.dumps(r[x_param])): 0 for r in rows}
    for r in rows:
        counts[(json.dumps([r[p] for p in others]), json.dumps(r[x_param]))] += 1
    uneven = len(set(counts.values())) > 1
    for gi, (key, st) in enumerate(stats.items()):
        label = ", ".join(f"{p}={v}" for p, v in zip(others, json.loads(key))) or None
        jitter = 0.0 if numeric else (gi - (ngroups - 1) / 2) * 0.08
        if numeric:   # a line through ordered values, the spread as a band
            line = ax.plot([pos[i] for i in order], [st["mean"][i] for i in order], "-", linewidth=2, label=label,
                           gid=f"{gid}mean:{key}")[0]
            color = line.get_color()
            ax.fill_between([pos[i] for i in order], [st["min"][i] for i in order], [st["max"][i] for i in order],
                            color=color, alpha=0.15, linewidth=0, gid=f"{gid}band:{key}")
        else:   # categories have no order between them: no line joins them; the mean as a bar-like tick
            xs = [pos[i] + jitter for i in order]
            means = [st["mean"][i] for i in order]
            line = ax.plot(xs, means, linestyle="none", marker="_", markersize=22, markeredgewidth=2.5, label=label,
                           gid=f"{gid}mean:{key}")[0]
            color = line.get_color()
            ax.errorbar(xs, means, yerr=[[m - st["min"][i] for m, i in zip(means, order)],
                                         [st["max"][i] - m for m, i in zip(means, order)]],
                        fmt="none", ecolor=color, alpha=0.5, capsize=4, gid=f"{gid}band:{key}")
        rs = [r for r in rows if json.dumps([r[p] for p in others]) == key]
        for si, seed in enumerate(seeds if by_seed else [None]):
            mine = [r for r in rs if seed is None or r["seed"] == seed]
            ax.plot([pos[xs_order.index(r[x_param])] + jitter for r in mine], [r[metric] for r in mine],
                    SEED_MARKERS[si] if by_seed else "o", color=color, alpha=0.5 if by_seed else 0.35,
                    markersize=5 if by_seed else 4, linestyle="none",
                    gid=f"{gid}runs:{key}" + (f":seed{seed}" if by_seed else ""))
        if uneven:   # points rest on different numbers of seeds: say how many at each
            for i in order:
                n = counts.get((key, json.dumps(xs_order[i])), 0)
                if n:
                    ax.annotate(f"n={n}", (pos[i] + jitter, st["mean"][i]), textcoords="offset points",
                                xytext=(4, 4), fontsize=6, color=color, gid=f"{gid}n:{key}")
    if log:
        ax.set_xscale("log")
    ax.set_xticks(pos)
    ax.set_xticklabels([str(x) for x in xs_order])
    ax.minorticks_off()
    ax.set_xlabel(x_param)
    unit = SUMMARY_METRICS.get(metric, ("",))[0]
    ax.set_ylabel(metric + (f" ({unit})" if unit else ""))
    ax.grid(alpha=0.3)
    handles, _ = ax.get_legend_handles_labels()
    if by_seed:
        from matplotlib.lines import Line2D
        handles += [Line2D([0], [0], marker=m, color="#555555", linestyle="none", markersize=5, label=f"seed {s}")
                    for m, s in zip(SEED_MARKERS, seeds)]
    if handles:
        ax.legend(handles=handles, fontsize=7)
    missing = len([r for r in table if r["status"] == "ok"]) - len(rows)
    how = "line = mean, band = min..max" if numeric else "tick = mean, bar = min..max"
    ns = sorted(set(counts.values()))
    per = (f"{ns[0]} seed(s) per point" if len(ns) == 1 else f"{ns[0]}..{ns[-1]} seeds per point (n at each)") \
        if ns else "no run with a value"
    ax.set_title(f"{metric} vs {x_param}" + (f" (per {', '.join(others)})" if others else "")
                 + f"\n({per}; {how} over seeds"
                 + (f"; {missing} run(s) without a value" if missing else "") + ")", fontsize=9)


def _finite(v: Any) -> bool:
    return isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v)
