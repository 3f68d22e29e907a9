"""The [explore] table: validated with the scenario, every problem reported before any run."""

from __future__ import annotations

import pytest
from scenario_helpers import ROOT, TINY, cli, write

from simdist.scenario import ScenarioError, load, loads

PS = (ROOT / "scenarios/planted/ps_planted_violation.toml").read_text()


def _issues(text: str) -> list[str]:
    with pytest.raises(ScenarioError) as ei:
        loads(text, "x.toml")
    return [str(i) for i in ei.value.issues]


def test_every_problem_of_the_table_at_once_with_its_line():
    text = PS.replace('invariants = ["retries <= 1"]',
                      'invariants = ["retries <= 1", "retires >= 3", "retries >= 0"]\nwindow = ["5s", "1s"]') \
             .replace('checks = ["planted_checks:ps_failure_while_worker_down"]', 'checks = ["not a ref"]') \
             .replace("links = { rate = 0.5 }", 'links = { rate = 0.5, names = ["ps/replica:0/task:9/nic"] }')
    issues = _issues(text)
    assert len(issues) == 5, issues
    line = text.splitlines().index('window = ["5s", "1s"]') + 1
    assert f"x.toml:{line}: explore.window: 5.0 is above 1.0" in issues[0]
    joined = "\n".join(issues)
    assert "explore.invariants[1]: 'retires >= 3': no metric 'retires'" in joined and "did you mean 'retries'" in joined
    assert "explore.invariants[2]: 'retries >= 0' cannot fail" in joined
    assert "explore.checks[0]: 'not a ref' is not 'module:function'" in joined
    assert "explore.links.names[0]: 'ps/replica:0/task:9/nic' is not a link of the cluster" in joined


def test_kinds_and_units_follow_the_schema_and_the_strategy():
    issues = _issues(TINY + '\n[explore]\npreemptions = { rate = 1.0 }\nstragglers = { slowdown = [0.5, 2] }\n'
                            'ps_failures = { rate = 0.0 }\n')
    joined = "\n".join(issues)
    assert "explore.preemptions: mirrored has no workers to preempt" in joined
    assert "explore.stragglers.slowdown[0]: 0.5 is below the minimum" in joined
    assert "explore.ps_failures" not in joined             # rate 0: nothing is drawn, nothing to refuse
    assert len(issues) == 2, issues
    sc = loads(TINY + '\n[explore]\nwindow = ["10ms", "2s"]\nlinks = { names = ["nvlink:GPU:1"] }\n', "t.toml")
    ex = sc.config["explore"]
    assert ex["window"] == [0.01, 2.0] and ex["links"]["names"] == ["/job:localhost/replica:0/task:0/nvlink:GPU:1"]
    assert ex["plans"] == 200 and ex["base_faults"] == "keep" and ex["max_wall_time"] == 60.0


def test_the_table_does_not_change_the_scenario_digest():
    bare = loads(PS[:PS.index("[explore]")] + PS[PS.index("[quick]"):], "a.toml")
    assert bare.digest == loads(PS, "b.toml").digest


def test_cli_rejects_a_bad_predicate_before_any_run(tmp_path):
    f = write(tmp_path, PS.replace('"retries <= 1"', '"retires <= 1"'), "p.toml")
    code, out, err = cli("explore", str(f), "--out", str(tmp_path / "o"), "--no-progress")
    assert code == 2, (out, err)
    assert "explore.invariants[0]: 'retires <= 1': no metric 'retires'" in err and "did you mean 'retries'" in err
    assert not (tmp_path / "o").exists()


def test_a_metric_the_runs_do_not_write_is_an_error_before_the_plans_run(tmp_path):
    # step_time_mean_s is a summary metric, but only synchronous strategies write it
    f = write(tmp_path, PS.replace('"retries <= 1"', '"step_time_mean_s <= 1"'), "p.toml")
    (tmp_path / "planted_checks.py").write_text((ROOT / "scenarios/planted/planted_checks.py").read_text())
    code, out, err = cli("explore", str(f), "--quick", "--plans", "5", "--out", str(tmp_path / "o"),
                         "--no-progress", "--executor", "serial")
    assert code == 2, (out, err)
    assert "this scenario's runs do not write 'step_time_mean_s'" in err and "retries" in err
    assert not (tmp_path / "o" / "plans.jsonl").exists()


def test_a_check_that_cannot_be_imported_is_an_error_before_any_run(tmp_path):
    f = write(tmp_path, PS.replace("planted_checks:ps_failure_while_worker_down", "planted_checks:ps_failure"),
              "p.toml")
    (tmp_path / "planted_checks.py").write_text((ROOT / "scenarios/planted/planted_checks.py").read_text())
    code, out, err = cli("explore", str(f), "--quick", "--out", str(tmp_path / "o"), "--no-progress")
    assert code == 2, (out, err)
    assert "planted_checks has no 'ps_failure'; did you mean 'ps_failure_while_worker_down'?" in err


def test_ready_scenario_tables_load():
    sc = load(ROOT / "scenarios/ps_failure_checkpoint.toml")
    assert sc.config["explore"]["invariants"] == ["redone_closures < 200"]
    assert sc.config["explore"]["ps_failures"] == {"rate": 1.0, "max": 1}
