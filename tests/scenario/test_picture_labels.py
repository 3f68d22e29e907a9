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


def test_sweep_points_are_marked_by_seed_with_the_seeds_in_the_legend():
    from simdist.sweep.plot import SEED_MARKERS, draw_sweep
    fig = draw_sweep(_sweep_rows(["ring", "reduce_to_one"], seeds=(3, 7)), "examples_per_s", ["strategy.all_reduce"])
    ax = fig.axes[0]
    marks = {ln.get_gid().rsplit(":", 1)[1]: (ln.get_marker(), list(ln.get_ydata()))
             for ln in ax.lines if (ln.get_gid() or "").startswith("runs:")}
    assert marks == {"seed3": (SEED_MARKERS[0], [103.0, 113.0]), "seed7": (SEED_MARKERS[1], [107.0, 117.0])}, \
        f"run points {marks}, but should be one marker per seed, each at its runs' values"
    assert {"seed 3", "seed 7"} <= set(_legend(fig)), _legend(fig)
    assert "2 seed(s) per point" in ax.get_title(), ax.get_title()


def test_sweep_points_of_many_seeds_are_aggregated_and_counted():
    from simdist.sweep.plot import draw_sweep
    fig = draw_sweep(_sweep_rows(["ring", "reduce_to_one"], seeds=range(8)), "examples_per_s", ["strategy.all_reduce"])
    ax = fig.axes[0]
    runs = [ln for ln in ax.lines if (ln.get_gid() or "").startswith("runs:")]
    assert len(runs) == 1 and len(runs[0].get_xdata()) == 16, [ln.get_gid() for ln in runs]
    assert "8 seed(s) per point" in ax.get_title() and not any("seed " in t for t in _legend(fig)), ax.get_title()


def test_sweep_points_resting_on_different_seed_counts_say_n():
    from simdist.sweep.plot import draw_sweep
    rows = _sweep_rows(["ring", "reduce_to_one"], seeds=(0, 1, 2))
    rows[0]["status"], rows[1]["examples_per_s"] = "failed", None     # ring: 1 of 3 seeds has a value
    fig = draw_sweep(rows, "examples_per_s", ["strategy.all_reduce"])
    ax = fig.axes[0]
    ns = sorted(t.get_text() for t in ax.texts if (t.get_gid() or "").startswith("n:"))
    assert ns == ["n=1", "n=3"], f"point annotations {ns}, but should be ['n=1', 'n=3']"
    assert "1..3 seeds per point (n at each)" in ax.get_title() and "1 run(s) without a value" in ax.get_title(), \
        ax.get_title()


def test_loss_title_of_several_runs_names_the_swept_parameters(trained):
    a, b = copy.deepcopy(trained[0]), copy.deepcopy(trained[0])
    a["scenario"]["overrides"] = {"data.batch_size": 16, "training.steps": 6}
    b["scenario"]["overrides"] = {"data.batch_size": 32, "training.steps": 6}
    title = draw_loss([a, b])._suptitle.get_text()
    assert "2 runs varying data.batch_size" in title and "training.steps=6" in title, title
    assert "seed" not in title, f"both runs have seed 0: the title should not say seed varies: {title}"
    single = draw_loss([a])._suptitle.get_text()
    assert "data.batch_size=16" in single, single
