"""Draw a timeline (one row per track) from a Chrome trace written by `TraceRecorder`.

    from simdist.sim.plot import plot_trace
    plot_trace("run.trace.json", "timeline.png")

Rows are the trace's threads (devices, link lanes, collectives) grouped by process (host) in
the trace's sort order; bars are the "X" events coloured by category. Uses matplotlib's Agg
canvas directly (no pyplot state).
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

__all__ = ["plot_trace", "load_trace", "COLORS"]

COLORS = {"compute": "#4C72B0", "collective": "#DD8452", "transfer": "#55A868"}
_OTHER = "#8C8C8C"


def load_trace(trace: str | os.PathLike | dict | list) -> list[dict[str, Any]]:
    """The event list of a trace file / loaded trace (object or array format)."""
    if isinstance(trace, (str, os.PathLike)):
        with open(trace, encoding="utf-8") as fh:
            trace = json.load(fh)
    if isinstance(trace, dict):
        return list(trace.get("traceEvents", []))
    if isinstance(trace, list):
        return trace
    raise TypeError(f"plot_trace: expected a path or a loaded trace, got {type(trace).__name__}")


def plot_trace(trace: str | os.PathLike | dict | list, out: str | os.PathLike | None = None, *,
               title: str | None = None, max_tracks: int = 48, start_us: float | None = None,
               end_us: float | None = None, width: float = 12.0) -> Any:
    """Render the timeline; save it to ``out`` (PNG/SVG/PDF by extension) if given. Returns the
    matplotlib Figure. Only the first ``max_tracks`` rows are drawn."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure
    from matplotlib.patches import Patch

    events = load_trace(trace)
    pname: dict[int, str] = {}
    psort: dict[int, float] = {}
    tname: dict[tuple[int, int], str] = {}
    tsort: dict[tuple[int, int], float] = {}
    bars: dict[tuple[int, int], list[tuple[float, float, str]]] = {}
    for e in events:
        ph = e.get("ph")
        pid = e.get("pid", 0)
        if ph == "M":
            args = e.get("args", {})
            if e["name"] == "process_name":
                pname[pid] = str(args.get("name"))
            elif e["name"] == "process_sort_index":
                psort[pid] = args.get("sort_index", 0)
            elif e["name"] == "thread_name":
                tname[(pid, e["tid"])] = str(args.get("name"))
            elif e["name"] == "thread_sort_index":
                tsort[(pid, e["tid"])] = args.get("sort_index", 0)
        elif ph == "X":
            ts, dur = float(e["ts"]), float(e["dur"])
            if start_us is not None and ts + dur < start_us:
                continue
            if end_us is not None and ts > end_us:
                continue
            bars.setdefault((pid, e["tid"]), []).append((ts, dur, e.get("cat", "")))
    rows = sorted(bars, key=lambda k: (psort.get(k[0], k[0]), k[0], tsort.get(k, k[1]), k[1]))[:max_tracks]
    lo = min((b[0] for k in rows for b in bars[k]), default=0.0) if start_us is None else start_us
    hi = max((b[0] + b[1] for k in rows for b in bars[k]), default=1.0) if end_us is None else end_us
    span = max(hi - lo, 1e-9)
    scale, unit = (1e-3, "ms") if span >= 2000 else (1.0, "us")

    fig = Figure(figsize=(width, 1.2 + 0.28 * max(len(rows), 1)))
    FigureCanvasAgg(fig)
    ax = fig.add_subplot(1, 1, 1)
    labels = []
    for y, key in enumerate(rows):
        pid, tid = key
        host = pname.get(pid, f"pid {pid}")
        labels.append(f"{host.replace('/replica:0', '')} {tname.get(key, f'tid {tid}')}")
        by_cat: dict[str, list[tuple[float, float]]] = {}
        for ts, dur, cat in bars[key]:
            by_cat.setdefault(cat, []).append(((ts - lo) * scale, max(dur * scale, span * scale * 1e-4)))
        for cat in sorted(by_cat):
            ax.broken_barh(by_cat[cat], (y - 0.4, 0.8), facecolors=COLORS.get(cat, _OTHER), linewidth=0)
    ax.set_yticks(range(len(rows)))
    ax.set_yticklabels(labels, fontsize=7)
    ax.set_ylim(len(rows) - 0.5, -0.5)
    ax.set_xlim(0, span * scale)
    ax.set_xlabel(f"simulated time ({unit})" if lo == 0 else f"simulated time ({unit} since {lo * scale:.3f} {unit})")
    ax.grid(axis="x", alpha=0.3)
    cats = sorted({c for k in rows for _, _, c in bars[k]})
    ax.legend(handles=[Patch(color=COLORS.get(c, _OTHER), label=c or "other") for c in cats],
              loc="upper right", fontsize=7, framealpha=0.9)
    if title:
        ax.set_title(title, fontsize=10)
    fig.tight_layout()
    if out is not None:
        p = Path(out)
        p.parent.mkdir(parents=True, exist_ok=True)
        tmp = p.with_name(f".{p.name}.tmp")   # written whole, then renamed: never a half-written picture
        try:
            fig.savefig(tmp, dpi=150, format=p.suffix.lstrip(".") or "png")
            os.replace(tmp, p)
        except BaseException:
            tmp.unlink(missing_ok=True)
            raise
    return fig
