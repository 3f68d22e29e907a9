"""The checkpoint-interval study (docs/tools/checkpoint_interval_study.py): Daly's formulas as the
paper states them, and simdist's multi_worker_mirrored engine agreeing with them within 15%."""

from __future__ import annotations

import importlib.util
import math

import pytest
from scenario_helpers import ROOT


def _study():
    spec = importlib.util.spec_from_file_location("ckpt_study", ROOT / "docs" / "tools" / "checkpoint_interval_study.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


S = _study()


@pytest.mark.parametrize("m_min,want_min", [(24 * 60, 117), (6 * 60, 57), (15, 9.1)])
def test_daly_tau_matches_the_papers_figures(m_min, want_min):
    # Daly (2006), figs. 3-5: delta = 5 min, R = 10 min; "the new model predicts tau_opt = ..."
    got = S.daly_tau(m_min * 60.0, 300.0) / 60.0
    assert abs(got - want_min) < 0.05 * want_min and round(got, 1 if want_min < 10 else 0) == want_min, \
        f"tau_opt={got:.2f} min, but Daly's figure gives {want_min} min (M={m_min} min, delta=5 min)"


@pytest.mark.parametrize("m,delta", [(1440.0, 5.0), (360.0, 5.0), (300.0, 20.0)])
def test_daly_time_is_minimal_near_daly_tau(m, delta):
    taus = [delta * 0.1 * k for k in range(1, 20000)]
    best = min(taus, key=lambda t: S.daly_time(t, m, delta, 10.0, 1e5))
    assert abs(best / S.daly_tau(m, delta) - 1) < 0.01, \
        f"argmin T(tau)={best:.2f}, but the higher-order estimate is {S.daly_tau(m, delta):.2f}"
    assert S.young_tau(m, delta) == pytest.approx(math.sqrt(2 * delta * m))


def test_fit_recovers_the_minimum_of_a_known_curve():
    taus = [10.0, 20.0, 40.0, 80.0, 160.0]
    tau, t = S.fit_optimum(taus, [100 + 400 / x + 0.25 * x for x in taus])
    assert tau == pytest.approx(40.0) and t == pytest.approx(120.0)
    with pytest.raises(ValueError, match="no minimum"):
        S.fit_optimum(taus, [100 - x for x in taus])


def test_simulated_completion_time_agrees_with_daly_within_15_percent(tmp_path):
    r = S.study_pair(300.0, 5.0, 250, range(4), (0.6, 1.0, 1.7), 1, tmp_path)
    for tau, got, want in zip(r["taus"], r["means"], r["daly"]):
        assert abs(got / want - 1) < 0.15, \
            f"mean completion {got:.0f} s at tau={tau:.0f} s, but Daly's T(tau) is {want:.0f} s (> 15% apart)"


@pytest.mark.slow
def test_simulated_optimum_agrees_with_daly_within_15_percent(tmp_path):
    r = S.study_pair(300.0, 5.0, 600, range(12), S.MULTIPLIERS, 2, tmp_path)
    assert abs(r["tau_err"]) < 0.15, f"simulated optimum {r['tau_sim']:.1f} s, Daly's {r['tau_daly']:.1f} s"
    assert abs(r["T_err"]) < 0.15, f"simulated T(tau*) {r['T_sim']:.0f} s, Daly's {r['T_daly']:.0f} s"
