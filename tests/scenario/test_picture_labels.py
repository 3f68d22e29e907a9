"""loss.png and sweep.png say which run is which (issue 28 item 7): loss curves are labelled by
what sets the runs apart (not the scenario name they share), the time-to-accuracy line is
labelled, sweep pictures name the swept parameters, and categorical x values are points, not
lines joining unordered categories."""

from __future__ import annotations

import copy
import json
from pathlib import Path

import pytest

from simdist.scenario.plot_loss import draw_loss

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def trained(tmp_path_factory):
    from simdist.scenario import load
    from simdist.scenario.runner import run
    sc = load(ROOT / "scenarios/train_mirrored_vs_cs.toml", ["training.steps=6"], quick=True)
    return [run(sc, seed).metrics for seed in (0, 1)]


def _legend(fig) -> list[str]:
    return [t.get_text() for ax in fig.axes if ax.get_legend() for t in ax.get_legend().get_texts()]


def test_loss_legend_labels_runs_not_the_scenario(trained):
    fig = draw_loss(trained)
    legend = _legend(fig)
    name = trained[0]["scenario"]["name"]
    assert name not in legend, f"the legend labels runs by the scenario name they share: {legend}"
    assert any("seed 0" in t for t in legend) and any("seed 1" in t for t in legend), legend


def test_time_to_accuracy_line_is_labelled(trained):
    m = copy.deepcopy(trained[0])
    m["training"]["time_to_accuracy_s"] = m["summary"]["simulated_time_s"] / 2
    fig = draw_loss([m])
    lines = [ln for ax in fig.axes for ln in ax.lines if (ln.get_gid() or "").startswith("reached:")]
    assert lines and not lines[0].get_label().startswith("_"), "the time-to-accuracy line has no label"
    assert any("target reached" in t for t in _legend(fig)), _legend(fig)


def _sweep_rows(values: list, seeds=(0, 1)) -> list[dict]:
    rows = []
    for i, v in enumerate(values):
        for s in seeds:
            rows.append({"run": len(rows), "seed": s, "status": "ok", "strategy.all_reduce": v,
                         "examples_per_s": 100.0 + 10 * i + s})
    return rows


def test_sweep_categorical_values_are_points_and_the_parameter_is_named():
    from simdist.sweep.plot import draw_sweep
    fig = draw_sweep(_sweep_rows(["ring", "reduce_to_one"]), "examples_per_s", ["strategy.all_reduce"])
    ax = fig.axes[0]
    joined = [ln for ln in ax.lines if len(ln.get_xdata()) > 1 and ln.get_linestyle() not in ("None", "", " ")]
    assert not joined, f"categorical x values joined by lines: {[ln.get_label() for ln in joined]}"
    texts = [ax.get_title(), ax.get_xlabel(), fig._suptitle.get_text() if fig._suptitle else ""]
    assert any("strategy.all_reduce" in t for t in texts), texts
    ticks = [t.get_text() for t in ax.get_xticklabels()]
    assert "ring" in ticks and "reduce_to_one" in ticks, ticks
