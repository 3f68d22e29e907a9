"""Pictures of a run: a timeline (one row per device) and a utilisation chart.

    plot_run(trace_path, metrics, "out/run")   # -> ["out/run/timeline.png", "out/run/utilisation.png"]

Timeline rows are the devices of the trace (grouped by host). On each row: compute kernels
(blue), communication touching that device (orange: transfers and collectives whose source or
destination it is, drawn in the lower band so overlap with compute stays visible), checkpoint
I/O (purple), time the device was down (preempted worker, failed ps: dark red, from the trace's
`downtime` spans; never counted as communication) and time it was not busy (grey; "idle" is the
summary's word for time with nothing running anywhere). A ps applying optimizer updates
computes. Intervals narrower than two pixels are not widened: they are summed per two-pixel
column, drawn as a bar as high as the share of the column they cover (`split_short`). Fault windows from the
metrics are shaded: preemptions and ps failures (hatched red), stragglers (yellow), degraded
links (blue-grey), checkpoint restores. Synchronous runs get a tick at each step's start.

When a run has more devices than rows fit (``max_rows``), consecutive devices of the same job
and kind are grouped into one row that shows, per time bin, the share of its devices computing,
communicating or down; a note under the title says so. Nothing is dropped: the utilisation chart
counts every device of the run.

matplotlib is imported here only (Agg canvas, no pyplot state).
"""

from __future__ import annotations

import json
import math
import os
import re
from pathlib import Path
from typing import Any

__all__ = ["plot_run", "timeline_rows", "display_rows", "utilisation", "draw_timeline", "draw_utilisation"]

C_COMPUTE = "#4C72B0"
C_COMM = "#DD8452"
C_CKPT = "#8172B3"
C_DOWN = "#7B1E1E"
C_IDLE = "#E6E6E6"
C_EDGE = "#9A9A9A"
SHADE = {"preemption": ("#C44E52", 0.28, "preempted (window)"), "ps_failure": ("#8B0000", 0.30, "ps failed (window)"),
         "straggler": ("#E5C100", 0.30, "straggler"), "degraded_link": ("#5F7A8A", 0.22, "degraded link"),
         "restore": ("#8172B3", 0.25, "checkpoint restore"),
         "restart": ("#7B1E1E", 0.18, "job restarting (every worker)")}
KINDS = ("compute", "comm", "ckpt", "down")
# A device's grey: it is neither computing nor communicating (waiting for others). Not "idle":
# the summary's idle_fraction is the share of step time with nothing running anywhere.
NOT_BUSY = "not busy (waiting)"


def summary_line(metrics: dict[str, Any]) -> str:
    """The summary's step-time shares, worded as summary.txt words them (one definition of idle)."""
    s = metrics["summary"]
    parts = [(k, label) for k, label in (("compute_fraction", "some device computing"),
                                         ("communication_fraction", "only communicating"),
                                         ("idle_fraction", "idle (nothing running)")) if s.get(k) is not None]
    if not parts:   # (a parameter-server run has no synchronous steps to share out)
        return ""
    return "share of step time (summary.txt): " + ", ".join(f"{label} {100 * s[k]:.1f}%" for k, label in parts)
DPI = 130


def _merge(iv: list[tuple[float, float]]) -> list[tuple[float, float]]:
    out: list[list[float]] = []
    for a, b in sorted(iv):
        if out and a <= out[-1][1]:
            out[-1][1] = max(out[-1][1], b)
        else:
            out.append([a, b])
    return [(a, b) for a, b in out]


def _category(cat: str, name: str) -> str:
    if cat in ("compute", "update"):   # a ps applying the optimizer update computes
        return "compute"
    if cat == "checkpoint" or name.startswith("checkpoint"):
        return "ckpt"
    if cat == "downtime":
        return "down"
    return "comm"


def timeline_rows(events: list[dict[str, Any]]) -> tuple[list[dict[str, Any]], float]:
    """Rows (one per device with activity) with merged compute / comm / ckpt / down intervals in
    seconds, and the end time. Row keys: name (full device name), host, job, short, label, and
    the four interval lists; `step_starts` (on the first row only) lists synchronous step starts."""
    pname: dict[int, str] = {}
    tname: dict[tuple[int, int], str] = {}
    for e in events:
        if e.get("ph") == "M":
            if e["name"] == "process_name":
                pname[e["pid"]] = str(e["args"]["name"])
            elif e["name"] == "thread_name":
                tname[(e["pid"], e["tid"])] = str(e["args"]["name"])
    rows: dict[str, dict[str, Any]] = {}
    order: dict[str, tuple[int, int]] = {}

    def row(dev: str) -> dict[str, Any]:
        r = rows.get(dev)
        if r is None:
            host, _, short = dev.rpartition("/device:")
            m = re.match(r"/job:([^/]+)/replica:\d+/task:(\d+)", host)
            hlabel = f"{m.group(1)}:{m.group(2)}" if m else host
            r = rows[dev] = {"name": dev, "host": host, "job": m.group(1) if m else host, "short": short,
                             "label": f"{hlabel} {short}" if hlabel != "localhost:0" else short,
                             **{k: [] for k in KINDS}}
        return r

    for (pid, tid), name in tname.items():
        if tid < 1000 and pid in pname:
            dev = f"{pname[pid]}/device:{name}"
            order[dev] = (pid, tid)
    seen_comm: set[tuple[Any, ...]] = set()
    first_compute: dict[str, list[tuple[str, float]]] = {}
    end = 0.0
    for e in events:
        if e.get("ph") != "X":
            continue
        t0 = float(e["ts"]) * 1e-6
        t1 = t0 + float(e["dur"]) * 1e-6
        end = max(end, t1)
        pid, tid = e.get("pid"), e.get("tid")
        cat = e.get("cat", "")
        args = e.get("args") or {}
        if tid is not None and tid < 1000 and pid in pname:
            dev = f"{pname[pid]}/device:{tname.get((pid, tid), f'tid{tid}')}"
            key = _category(cat, str(e.get("name", "")))
            row(dev)[key].append((t0, t1))
            if key == "compute":
                first_compute.setdefault(dev, []).append((str(e.get("name", "")), t0))
        elif "src" in args and "dst" in args:
            k = (e["name"], e["ts"], e["dur"], args["src"], args["dst"])
            if k in seen_comm:
                continue
            seen_comm.add(k)
            key = "ckpt" if str(e["name"]).startswith("checkpoint") else "comm"
            for dev in (args["src"], args["dst"]):
                row(dev)[key].append((t0, t1))
    out = []
    for dev in sorted(rows, key=lambda d: order.get(d, (1 << 30, 0)) + (d,)):  # type: ignore[operator]
        r = rows[dev]
        for k in KINDS:
            r[k] = _merge(r[k])
        out.append(r)
    return out, end


def split_short(iv: list[tuple[float, float]], scale: float, min_w: float
                ) -> tuple[list[tuple[float, float]], list[tuple[float, float]]]:
    """Merged intervals (seconds) as drawn: ``(long, cols)``. ``long``: (x, width) in plot units of
    the intervals at least ``min_w`` wide; ``cols``: (x, share) of each ``min_w``-wide column that
    shorter intervals touch, share = the part of the column they cover. Sum of widths plus
    sum of share x min_w = the intervals' total length (times ``scale``): nothing is widened."""
    long: list[tuple[float, float]] = []
    acc: dict[int, float] = {}
    for a, b in iv:
        x0, x1 = a * scale, b * scale
        if x1 - x0 >= min_w:
            long.append((x0, x1 - x0))
            continue
        c = int(x0 // min_w)
        while x0 < x1:
            edge = (c + 1) * min_w
            part = min(x1, edge) - x0
            if part > 0:
                acc[c] = acc.get(c, 0.0) + part
            x0, c = edge, c + 1
    return long, [(c * min_w, min(1.0, v / min_w)) for c, v in sorted(acc.items())]


def step_starts(events: list[dict[str, Any]], rows: list[dict[str, Any]]) -> list[float]:
    """Starts of the steps of a synchronous run: the compute kernels named ``forward+backward[replica 0]``
    (the first kernel of each step); [] for other runs."""
    return sorted(float(e["ts"]) * 1e-6 for e in events
                  if e.get("ph") == "X" and e.get("cat") == "compute" and
                  str(e.get("name", "")).startswith("forward+backward[replica 0]"))


# -- grouping -----------------------------------------------------------------------------------------
def display_rows(rows: list[dict[str, Any]], max_rows: int) -> list[dict[str, Any]]:
    """The rows to draw: ``rows`` as they are when they fit, else consecutive rows of the same job and
    device kind grouped into chunks of equal size (the smallest size that fits ``max_rows``). Each
    display row has ``members`` (the device rows it stands for) and a ``label``."""
    if len(rows) <= max_rows:
        return [dict(r, members=[r]) for r in rows]
    runs: list[list[dict[str, Any]]] = []
    for r in rows:
        kind = re.sub(r"\d+$", "", r["short"])
        if runs and runs[-1][0]["job"] == r["job"] and re.sub(r"\d+$", "", runs[-1][0]["short"]) == kind:
            runs[-1].append(r)
        else:
            runs.append([r])
    size = 1
    while sum(math.ceil(len(run) / size) for run in runs) > max_rows and size < len(rows):
        size += 1
    out = []
    for run in runs:
        for i in range(0, len(run), size):
            chunk = run[i:i + size]
            if len(chunk) == 1:
                out.append(dict(chunk[0], members=chunk))
                continue
            out.append({"name": chunk[0]["name"], "host": None, "job": chunk[0]["job"], "members": chunk,
                        "label": f"{_short_label(chunk[0])} .. {_short_label(chunk[-1])} ({len(chunk)})",
                        **{k: [] for k in KINDS}})
    return out


def _short_label(r: dict[str, Any]) -> str:
    return r["label"]


def _shares(members: list[dict[str, Any]], span: float, nb: int) -> dict[str, list[float]]:
    """Per time bin: the share of ``members`` computing, communicating only, down, in checkpoint I/O."""
    out = {k: [0.0] * nb for k in ("compute", "comm", "down", "ckpt")}
    for r in members:
        parts = {"down": r["down"], "compute": _subtract(r["compute"], r["down"]),
                 "ckpt": _subtract(r["ckpt"], _merge(r["compute"] + r["down"]))}
        parts["comm"] = _subtract(r["comm"], _merge(r["compute"] + r["down"] + r["ckpt"]))
        for k, iv in parts.items():
            _accumulate(iv, out[k], span, nb)
    width = span / nb
    n = max(len(members), 1)
    return {k: [min(1.0, v / (n * width)) for v in vals] for k, vals in out.items()}


def _accumulate(iv: list[tuple[float, float]], acc: list[float], span: float, nb: int) -> None:
    for a, b in iv:
        i0 = min(int(a / span * nb), nb - 1)
        i1 = min(int(b / span * nb), nb - 1)
        for i in range(i0, i1 + 1):
            lo, hi = max(a, span * i / nb), min(b, span * (i + 1) / nb)
            if hi > lo:
                acc[i] += hi - lo


def utilisation(rows: list[dict[str, Any]], span: float, nb: int = 120) -> dict[str, Any]:
    """The utilisation chart's data over every device that computes at some point in the run (all
    rows, never only the drawn ones): per time bin the share computing, communicating only (no
    compute at the same time), down, and idle; ``devices`` is how many devices that is."""
    busy = [r for r in rows if r["compute"]] or rows
    sh = _shares(busy, span, nb)
    idle = [max(0.0, 1 - c - m - d) for c, m, d in zip(sh["compute"], sh["comm"], sh["down"])]
    return {"devices": len(busy), "edges": [span * i / nb for i in range(nb + 1)], "compute": sh["compute"],
            "comm": sh["comm"], "down": sh["down"], "idle": idle}


# -- drawing ----------------------------------------------------------------------------------------
def _load(trace: str | os.PathLike) -> list[dict[str, Any]]:
    with open(trace, encoding="utf-8") as fh:
        return list(json.load(fh).get("traceEvents", []))


def _rows_for(f: dict[str, Any], rows: list[dict[str, Any]]) -> list[int]:
    """Indices of the (display) rows a fault window belongs on."""
    tgt = f["target"]

    def hit(r: dict[str, Any], pred: Any) -> bool:
        return any(pred(m) for m in r.get("members", [r]))

    if f["kind"] in ("preemption", "ps_failure"):
        return [i for i, r in enumerate(rows) if hit(r, lambda m: m["host"] == tgt)]
    if f["kind"] == "restart":   # a synchronous job's restart stops every worker
        return list(range(len(rows)))
    if f["kind"] == "degraded_link":
        host, _, link = tgt.rpartition("/")
        m = re.search(r"GPU:\d+$", link)
        if m:
            dev = f"{host}/device:{m.group(0)}"
            return [i for i, r in enumerate(rows) if hit(r, lambda x: x["name"] == dev)]
        return [i for i, r in enumerate(rows) if hit(r, lambda x: x["host"] == host)]
    return [i for i, r in enumerate(rows) if hit(r, lambda x: x["name"] == tgt)]


def _scale(span: float) -> tuple[float, str]:
    return (1.0, "s") if span >= 2 else (1e3, "ms") if span >= 2e-3 else (1e6, "us")


def draw_timeline(rows: list[dict[str, Any]], metrics: dict[str, Any], end: float, max_rows: int = 40,
                  width: float = 13.0, steps: list[float] | None = None) -> Any:
    """The timeline Figure (Agg canvas). Artists carry gids ``<kind>:<row label>`` (kind: compute,
    comm, ckpt, down, share-compute, ...) and ``fault:<kind>`` so tests can read what was drawn."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure
    from matplotlib.patches import Patch

    span = max(end, float(metrics["summary"]["simulated_time_s"])) or 1.0
    scale, unit = _scale(span)
    shown = display_rows(rows, max_rows)
    grouped = len(shown) < len(rows)
    fig = Figure(figsize=(width, 2.2 + 0.32 * max(len(shown), 1)))
    FigureCanvasAgg(fig)
    ax = fig.add_subplot(1, 1, 1)
    # Two pixels: intervals at least this wide are drawn at their real width; shorter ones (a ~20 ms
    # transfer in a 10-minute run) are summed per 2-pixel column and drawn as a bar whose height
    # is the share of that column they cover, so the ink on a row is the time the trace says
    # (widening each to a pixel made a row 3% busy look 100% busy).
    min_w = span * scale * 2.0 / (width * DPI * 0.85)

    def draw(iv: list[tuple[float, float]], y0: float, h: float, color: str, gid: str, z: int) -> None:
        long, cols = split_short(iv, scale, min_w)
        ax.broken_barh(long, (y0, h), facecolors=color, linewidth=0, zorder=z, gid=gid)
        if cols:
            from matplotlib.collections import PolyCollection
            bottom = y0 + h   # the axis is inverted: the band's lower edge
            verts = [[(x, bottom), (x + min_w, bottom), (x + min_w, bottom - h * s), (x, bottom - h * s)]
                     for x, s in cols]
            ax.add_collection(PolyCollection(verts, facecolors=color, linewidths=0, zorder=z,
                                             gid=gid.replace(":", "-short:", 1)))

    nb = 400
    xs = [span * scale * (i + 0.5) / nb for i in range(nb)]
    for y, r in enumerate(shown):
        ax.broken_barh([(0, span * scale)], (y - 0.4, 0.8), facecolors=C_IDLE, linewidth=0, zorder=1,
                       gid=f"idle:{r['label']}")
        if len(r["members"]) == 1:
            draw(r["compute"], y - 0.4, 0.8, C_COMPUTE, f"compute:{r['label']}", 2)
            draw(r["ckpt"], y - 0.4, 0.8, C_CKPT, f"ckpt:{r['label']}", 2)
            draw(r["down"], y - 0.4, 0.8, C_DOWN, f"down:{r['label']}", 2)
            draw(r["comm"], y + 0.05, 0.35, C_COMM, f"comm:{r['label']}", 3)
        else:   # a group: stacked shares per time bin, from the bottom of the band up
            sh = _shares(r["members"], span, nb)
            base = [y + 0.4] * nb
            for key, color in (("compute", C_COMPUTE), ("comm", C_COMM), ("ckpt", C_CKPT), ("down", C_DOWN)):
                top = [b - 0.8 * v for b, v in zip(base, sh[key])]
                ax.fill_between(xs, base, top, step="mid", color=color, linewidth=0, zorder=2,
                                gid=f"share-{key}:{r['label']}")
                base = top
    kinds_shown: list[str] = []
    for f in metrics.get("faults", []):
        if f["kind"] not in SHADE:
            continue
        color, alpha, _ = SHADE[f["kind"]]
        idx = _rows_for(f, shown)
        a, b = f["start"] * scale, max(f["end"] - f["start"], 0.0) * scale
        for y in idx:
            ax.broken_barh([(a, max(b, min_w))], (y - 0.5, 1.0), facecolors=color, alpha=alpha, linewidth=0,
                           zorder=4, hatch="//" if f["kind"] in ("preemption", "ps_failure") else None,
                           gid=f"fault:{f['kind']}")
        if idx and f["kind"] not in kinds_shown:
            kinds_shown.append(f["kind"])
    if steps and len(steps) <= 400:
        for t in steps:
            ax.axvline(t * scale, color="#555555", linewidth=0.6, alpha=0.35, zorder=5, gid="step")
    ax.set_yticks(range(len(shown)))
    ax.set_yticklabels([r["label"] for r in shown], fontsize=7)
    ax.set_ylim(len(shown) - 0.5, -0.5)
    ax.set_xlim(0, span * scale)
    ax.set_xlabel(f"simulated time ({unit})")
    ax.grid(axis="x", alpha=0.3, zorder=0)
    handles = [Patch(facecolor=C_COMPUTE, label="compute"), Patch(facecolor=C_COMM, label="communication"),
               Patch(facecolor=C_IDLE, edgecolor=C_EDGE, label=NOT_BUSY)]
    if any(r["ckpt"] for r in rows):
        handles.append(Patch(facecolor=C_CKPT, label="checkpoint I/O"))
    if any(r["down"] for r in rows):
        handles.append(Patch(facecolor=C_DOWN, label="down"))
    handles += [Patch(facecolor=SHADE[k][0], alpha=SHADE[k][1] + 0.2, edgecolor=C_EDGE, label=SHADE[k][2],
                      hatch="//" if k in ("preemption", "ps_failure") else None) for k in kinds_shown]
    if steps and len(steps) <= 400:
        from matplotlib.lines import Line2D
        handles.append(Line2D([0], [0], color="#555555", linewidth=0.8, alpha=0.6, label="step start"))
    ax.legend(handles=handles, loc="lower center", bbox_to_anchor=(0.5, 1.0), ncol=min(len(handles), 8),
              fontsize=7, frameon=False)
    title = f"{metrics['scenario']['name']}: timeline (seed {metrics['seed']})"
    if grouped:
        fig.text(0.5, 0.005, f"{len(rows)} devices do not fit in {max_rows} rows: consecutive devices of a job are "
                             f"grouped (a grouped row shows the share of its devices computing, communicating or "
                             f"down per time bin)", ha="center", va="bottom", fontsize=7, style="italic",
                 gid="grouping-note")
    fig.suptitle(title, fontsize=10)
    fig.tight_layout(rect=(0, 0.03 if grouped else 0, 1, 1))
    return fig


def draw_utilisation(rows: list[dict[str, Any]], metrics: dict[str, Any], end: float, max_rows: int = 40,
                     width: float = 13.0) -> Any:
    """The utilisation Figure: shares over time of every computing device of the run, and the busy
    fraction of each device (or group of devices) and of the busiest links."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure
    from matplotlib.patches import Patch

    span = max(end, float(metrics["summary"]["simulated_time_s"])) or 1.0
    scale, unit = _scale(span)
    u = utilisation(rows, span)
    fig = Figure(figsize=(width, 4.4))
    FigureCanvasAgg(fig)
    ax1 = fig.add_subplot(1, 2, 1)
    e = u["edges"]
    xs = [(e[i] + e[i + 1]) / 2 * scale for i in range(len(e) - 1)]
    layers = [(u["compute"], C_COMPUTE, "compute"), (u["comm"], C_COMM, "communication only")]
    if any(u["down"]):
        layers.append((u["down"], C_DOWN, "down"))
    layers.append((u["idle"], C_IDLE, NOT_BUSY))
    polys = ax1.stackplot(xs, *[v for v, _, _ in layers], colors=[c for _, c, _ in layers],
                          labels=[lab for _, _, lab in layers])
    for p, (_, _, lab) in zip(polys, layers):
        p.set_gid(f"util:{lab}")
    handles = [Patch(facecolor=c, edgecolor=C_EDGE if c == C_IDLE else None, label=lab) for _, c, lab in layers]
    shaded = []
    # preempted workers are the "down" layer; a ps failure stalls every worker: its window is hatched
    for f in metrics.get("faults", []):
        if f["kind"] == "ps_failure":
            ax1.axvspan(f["start"] * scale, f["end"] * scale, facecolor="none", edgecolor=SHADE[f["kind"]][0],
                        hatch="//", alpha=0.35, linewidth=0, gid=f"fault:{f['kind']}")
            if f["kind"] not in shaded:
                shaded.append(f["kind"])
    handles += [Patch(facecolor="none", edgecolor=SHADE[k][0], hatch="//", label=SHADE[k][2]) for k in shaded]
    ax1.set_xlim(0, span * scale)
    ax1.set_ylim(0, 1)
    ax1.set_xlabel(f"simulated time ({unit})")
    ax1.set_ylabel(f"share of the {u['devices']} computing devices")
    ax1.legend(handles=handles, loc="lower center", bbox_to_anchor=(0.5, 1.0), ncol=3, fontsize=7, frameon=False)
    ax2 = fig.add_subplot(1, 2, 2)
    shown = display_rows(rows, max_rows)
    devs = []
    for r in shown:
        fr = [metrics["devices"].get(m["name"], {}).get("busy_fraction", 0.0) for m in r["members"]]
        devs.append((r["label"] + (" mean" if len(fr) > 1 else ""), sum(fr) / len(fr)))
    links = busiest_links(metrics, 8)
    labels = [d for d, _ in devs] + [_short_link(n_) for n_, _ in links]
    vals = [v for _, v in devs] + [v for _, v in links]
    colors = [C_COMPUTE] * len(devs) + [C_COMM] * len(links)
    ax2.barh(range(len(vals)), [100 * v for v in vals], color=colors)
    ax2.set_yticks(range(len(vals)))
    ax2.set_yticklabels(labels, fontsize=6)
    ax2.invert_yaxis()
    ax2.set_xlim(0, 100)
    ax2.set_xlabel("busy (% of the run)")
    ax2.set_title("devices (compute) and busiest links", fontsize=9)
    fig.suptitle(f"{metrics['scenario']['name']}: utilisation (seed {metrics['seed']})", fontsize=10)
    fig.text(0.5, 0.005, summary_line(metrics), ha="center", va="bottom", fontsize=7, gid="summary-fractions")
    fig.tight_layout(rect=(0, 0.04, 1, 1))
    return fig


def plot_run(trace: str | os.PathLike, metrics: dict[str, Any], out_dir: str | os.PathLike,
             max_rows: int = 40, width: float = 13.0) -> list[str]:
    """Write timeline.png and utilisation.png for a run into ``out_dir``; returns their paths."""
    events = _load(trace)
    rows, end = timeline_rows(events)
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    timeline = out / "timeline.png"
    from .outputs import save_figure
    save_figure(draw_timeline(rows, metrics, end, max_rows, width, step_starts(events, rows)), timeline, DPI)
    util = out / "utilisation.png"
    save_figure(draw_utilisation(rows, metrics, end, max_rows, width), util, DPI)
    return [str(timeline), str(util)]


def link_class(name: str) -> str:
    """A link's class from its name: ``.../nvlink:GPU:0`` -> "nvlink", ``.../pcie:GPU:3`` -> "pcie"."""
    leaf = name.rstrip("/").rsplit("/", 1)[-1]
    return leaf.split(":", 1)[0]


def busiest_links(metrics: dict[str, Any], n: int) -> list[tuple[str, float]]:
    """Up to ``n`` (link, busy fraction) pairs for the chart: the busiest link of every class that
    carried traffic first (so NVLink, which carries a ring all-reduce, is never crowded out by
    eight slightly busier PCIe links), then the busiest of the rest; busiest first."""
    used = sorted(((k, d["busy_fraction"]) for k, d in metrics["links"].items() if d["bytes"]),
                  key=lambda kv: (-kv[1], kv[0]))
    picked: list[tuple[str, float]] = []
    classes: set[str] = set()
    for k, f in used:
        if link_class(k) not in classes:
            classes.add(link_class(k))
            picked.append((k, f))
    picked = picked[:n]
    picked += [kv for kv in used if kv not in picked][:n - len(picked)]
    return sorted(picked, key=lambda kv: (-kv[1], kv[0]))


def _subtract(a: list[tuple[float, float]], b: list[tuple[float, float]]) -> list[tuple[float, float]]:
    """Parts of the (merged) intervals ``a`` not covered by the (merged) intervals ``b``."""
    out = []
    j = 0
    for x0, x1 in a:
        cur = x0
        while j < len(b) and b[j][1] <= cur:
            j += 1
        k = j
        while k < len(b) and b[k][0] < x1:
            if b[k][0] > cur:
                out.append((cur, b[k][0]))
            cur = max(cur, b[k][1])
            k += 1
        if cur < x1:
            out.append((cur, x1))
    return out


def _short_link(name: str) -> str:
    m = re.match(r"/job:([^/]+)/replica:\d+/task:(\d+)/(.*)", name)
    if not m:
        return name
    host = f"{m.group(1)}:{m.group(2)}"
    return m.group(3) if host == "localhost:0" else f"{host} {m.group(3)}"
