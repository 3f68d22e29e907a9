"""The learning curves of training runs: ``loss.png``, loss and accuracy against simulated time.

    plot_loss(metrics, "out/run")                       # -> "out/run/loss.png"
    draw_loss([m_mirrored, m_cs], ["mirrored", "central_storage"])   # several runs on one figure

Top: the training loss of every step (thin, faint) and its running mean over ``smooth`` steps
(solid), the held-out loss at each evaluation (markers); the curves break where training resumed
from a checkpoint. Bottom: the same for accuracy, with the
target accuracy as a dashed line and the time it was reached marked. Fault windows of the runs
are shaded as on the timeline (`simdist.scenario.plot.SHADE`: preemptions and ps failures
hatched red, stragglers yellow, degraded links blue-grey, checkpoint restores purple), so a
restore's step back in the loss sits next to its cause. Artists carry gids (``loss:<label>``,
``eval-loss:<label>``, ``accuracy:<label>``, ``fault:<kind>``) for tests.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Sequence

from .plot import DPI, SHADE, _scale

__all__ = ["plot_loss", "draw_loss", "running_mean", "run_label", "runs_title"]

COLORS = ("#4C72B0", "#DD8452", "#55A868", "#C44E52", "#8172B3", "#937860")


def run_label(m: dict[str, Any]) -> str:
    """A run's legend label: what sets it apart (strategy, seed, the values overridden), not the
    scenario's name, which every run of a comparison or a sweep shares."""
    sc = m.get("scenario") or {}
    over = sc.get("overrides") or {}
    parts = [str(sc.get("strategy", "")), f"seed {m.get('seed')}"] + [f"{k}={v}" for k, v in sorted(over.items())]
    return " ".join(p for p in parts if p)


def runs_title(runs: Sequence[dict[str, Any]]) -> str:
    """What a title says of several runs: how many, what they vary (seed, strategy, each overridden
    value that differs: a sweep's parameters) and the values they share."""
    def facts(m: dict[str, Any]) -> dict[str, str]:
        sc = m.get("scenario") or {}
        f = {"strategy": str(sc.get("strategy", "")), "seed": str(m.get("seed"))}
        f.update({k: str(v) for k, v in sorted((sc.get("overrides") or {}).items())})
        return f
    all_facts = [facts(m) for m in runs]
    keys: list[str] = []
    for f in all_facts:
        keys += [k for k in f if k not in keys]
    varying = [k for k in keys if len({f.get(k, "-") for f in all_facts}) > 1]
    shared = [f"{k}={all_facts[0][k]}" for k in keys
              if k not in varying and k not in ("strategy", "seed") and all(k in f for f in all_facts)]
    text = f"{len(runs)} runs" + (f" varying {', '.join(varying)}" if varying else "")
    return text + (f"; {' '.join(shared)}" if shared else "")


def running_mean(xs: Sequence[float], n: int) -> list[float]:
    """Mean of the last ``n`` values at each position (fewer at the start)."""
    out, acc = [], 0.0
    for i, x in enumerate(xs):
        acc += x
        if i >= n:
            acc -= xs[i - n]
        out.append(acc / min(i + 1, n))
    return out


def _segments(times: Sequence[float], breaks: Sequence[float]) -> list[tuple[int, int]]:
    """Index ranges [a, b) of ``times`` between the ``breaks`` (a point at or after a break starts
    a new range): a restore from a checkpoint starts a new stretch of the curve."""
    cuts = [0]
    j = 0
    bs = sorted(breaks)
    for i, t in enumerate(times):
        while j < len(bs) and t >= bs[j]:
            if i > cuts[-1]:
                cuts.append(i)
            j += 1
    cuts.append(len(times))
    return [(a, b) for a, b in zip(cuts, cuts[1:]) if b > a]


def _windows(runs: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
    seen, out = set(), []
    for m in runs:
        for f in m.get("faults", []):
            key = (f["kind"], round(f["start"], 12), round(f["end"], 12))
            if f["kind"] in SHADE and key not in seen:
                seen.add(key)
                out.append(f)
    return out


def draw_loss(runs: Sequence[dict[str, Any]], labels: Sequence[str] | None = None, smooth: int | None = None,
              title: str | None = None, width: float = 11.0, shade: bool = True) -> Any:
    """The Figure (Agg canvas) of one or several training runs' metrics documents (``shade``: draw
    their fault windows)."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure
    from matplotlib.lines import Line2D
    from matplotlib.patches import Patch

    runs = [m for m in runs if m.get("training")]
    if not runs:
        raise ValueError("no training run to draw (metrics without a 'training' section: a FLOP-only model)")
    labels = list(labels) if labels is not None else [run_label(m) for m in runs]
    span = max(max(m["summary"]["simulated_time_s"] for m in runs), 1e-12)
    scale, unit = _scale(span)
    fig = Figure(figsize=(width, 6.4))
    FigureCanvasAgg(fig)
    ax1 = fig.add_subplot(2, 1, 1)
    ax2 = fig.add_subplot(2, 1, 2, sharex=ax1)
    handles: list[Any] = []
    for i, (m, label) in enumerate(zip(runs, labels)):
        color = COLORS[i % len(COLORS)]
        tr = m["training"]
        st, ev = tr["steps"], tr["evals"]
        ts = [t * scale for t in st["time_s"]]
        n = smooth or max(1, len(ts) // 50)
        breaks = [e["resumed_at"] for e in ((m.get("recovery") or {}).get("events") or [])]
        ets = [t * scale for t in ev["time_s"]]
        for ax, key, name in ((ax1, "loss", "loss"), (ax2, "accuracy", "accuracy")):
            for a, b in _segments(st["time_s"], breaks):
                ax.plot(ts[a:b], st[key][a:b], color=color, linewidth=0.5, alpha=0.25, gid=f"{name}-steps:{label}")
                ax.plot(ts[a:b], running_mean(st[key][a:b], n), color=color, linewidth=1.8, gid=f"{name}:{label}")
            for a, b in _segments(ev["time_s"], breaks):
                ax.plot(ets[a:b], ev[key][a:b], "o--", color=color, markersize=3.5, linewidth=0.8, alpha=0.9,
                        gid=f"eval-{name}:{label}")
        handles.append(Line2D([0], [0], color=color, linewidth=1.8, label=label))
        tta = tr.get("time_to_accuracy_s")
        if tta is not None:
            what = f"{label}: target reached at {tta * scale:.3g} {unit}"
            ax2.axvline(tta * scale, color=color, linewidth=0.8, linestyle=":", gid=f"reached:{label}", label=what)
            handles.append(Line2D([0], [0], color=color, linewidth=0.8, linestyle=":", label=what))
    targets = sorted({m["training"]["target_accuracy"] for m in runs if m["training"].get("target_accuracy")})
    for t in targets:
        ax2.axhline(t, color="#555555", linewidth=0.8, linestyle="--", gid="target")
    kinds: list[str] = []
    for f in _windows(runs) if shade else []:
        color, alpha, _ = SHADE[f["kind"]]
        hatch = "//" if f["kind"] in ("preemption", "ps_failure") else None
        for ax in (ax1, ax2):
            ax.axvspan(f["start"] * scale, max(f["end"], f["start"]) * scale, facecolor=color, edgecolor=color,
                       alpha=alpha * 0.6, linewidth=0, hatch=hatch, zorder=0, gid=f"fault:{f['kind']}")
        if f["kind"] not in kinds:
            kinds.append(f["kind"])
    handles += [Line2D([0], [0], color="#333333", linewidth=0.5, alpha=0.4, label="each step"),
                Line2D([0], [0], color="#333333", marker="o", linestyle="--", markersize=3.5, linewidth=0.8,
                       label="held-out evaluation")]
    if targets:
        handles.append(Line2D([0], [0], color="#555555", linestyle="--", linewidth=0.8, label="target accuracy"))
    handles += [Patch(facecolor=SHADE[k][0], alpha=SHADE[k][1] + 0.1, label=SHADE[k][2],
                      hatch="//" if k in ("preemption", "ps_failure") else None) for k in kinds]
    ax1.set_ylabel("loss")
    ax1.set_ylim(bottom=0)
    ax2.set_ylabel("accuracy")
    ax2.set_ylim(0, 1.0)
    ax2.set_xlabel(f"simulated time ({unit})")
    ax2.set_xlim(0, span * scale)
    for ax in (ax1, ax2):
        ax.grid(alpha=0.3)
    ax1.legend(handles=handles, loc="lower center", bbox_to_anchor=(0.5, 1.0), ncol=min(len(handles), 6), fontsize=7,
               frameon=False)
    m0 = runs[0]
    fig.suptitle(title or f"{m0['scenario']['name']}: loss and accuracy vs simulated time"
                 + (f" ({labels[0]})" if len(runs) == 1 else f" ({runs_title(runs)})"), fontsize=10)
    fig.tight_layout()
    return fig


def plot_loss(metrics: dict[str, Any], out_dir: str | Path) -> str:
    """Write loss.png for a training run into ``out_dir``; returns its path."""
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    path = out / "loss.png"
    from .outputs import save_figure
    return save_figure(draw_loss([metrics]), path, DPI)
