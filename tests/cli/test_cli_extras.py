"""The base install (issue 28 item 6): without the optional extras (matplotlib, pyarrow) every
command still does its work and says, in one line, what the extra would add."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "scenario"))
from scenario_helpers import TINY, cli, write  # noqa: E402


@pytest.fixture
def base_install(monkeypatch):
    """As without the `plot` and `sweep` extras: importing matplotlib or pyarrow fails."""
    for name in ("matplotlib", "pyarrow"):
        monkeypatch.setitem(sys.modules, name, None)


def test_run_plot_without_matplotlib_runs_and_says_how_to_get_the_pictures(tmp_path, base_install):
    f = write(tmp_path, TINY)
    code, out, err = cli("run", str(f), "--plot", "--out", str(tmp_path / "o"), "--no-progress", "--quiet")
    assert code == 0, f"expected the run to complete without matplotlib, got {code}\n{out}\n{err}"
    assert (tmp_path / "o" / "metrics.json").is_file()
    assert not (tmp_path / "o" / "timeline.png").exists()
    assert "pip install 'simdist[plot]'" in out and "timeline.png" in out, out


def test_sweep_without_matplotlib_and_pyarrow_writes_its_table_and_says_what_is_missing(tmp_path, base_install):
    f = write(tmp_path, TINY)
    code, out, err = cli("sweep", str(f), "--seeds", "0", "--param", "training.steps=2,3", "--plot",
                         "simulated_time_s", "--out", str(tmp_path / "o"), "--no-progress")
    assert code == 0, f"expected the sweep to complete without the extras, got {code}\n{out}\n{err}"
    assert (tmp_path / "o" / "results.csv").is_file() and not (tmp_path / "o" / "sweep.png").exists()
    assert "sweep.png skipped: it needs matplotlib (pip install 'simdist[plot]')" in out, out
    assert "results.parquet skipped: it needs pyarrow (pip install 'simdist[sweep]')" in out, out
