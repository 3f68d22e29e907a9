"""Guard rails on `simdist explore` (issue 28 item 4): the scenario every plan runs is checked
against the memory and time limits before the first run; refused, nothing runs or is written."""

from __future__ import annotations

from scenario_helpers import ROOT, cli

SCENARIO = ROOT / "scenarios/ps_failure_checkpoint.toml"


def test_explore_refuses_a_scenario_over_the_memory_limit(tmp_path):
    out = tmp_path / "e"
    code, so, err = cli("explore", str(SCENARIO), "--quick", "--plans", "2", "--executor", "serial",
                        "--memory-limit", "1KiB", "--out", str(out), "--no-progress")
    assert code == 2, f"exit {code}, but should be 2 (refused)\n{so}\n{err}"
    assert "the scenario every plan runs: the run needs ~" in err and "--memory-limit 0 to run anyway" in err, err
    assert not out.exists(), "a refused exploration should write nothing"


def test_explore_refuses_a_scenario_over_the_time_limit(tmp_path):
    out = tmp_path / "e"
    code, so, err = cli("explore", str(SCENARIO), "--plans", "2", "--executor", "serial", "--time-limit", "1ms",
                        "--out", str(out), "--no-progress")
    assert code == 2 and "more than the --time-limit of" in err and "--time-limit 0 for no limit" in err, (code, err)
    assert not out.exists()
    code, _, err = cli("explore", str(SCENARIO), "--time-limit=-1s", "--out", str(out))
    assert code == 2 and "--time-limit" in err, err
