"""Guard rails on the sweep and replay commands (issue 28 item 4): a run whose estimate exceeds the
memory or time limit is refused with the estimate and the flag that overrides it, never run —
run 0 by `simdist sweep` before anything is written, every other run by its worker (status
"refused", run again when the sweep resumes), and `simdist replay`'s run before --out is touched."""

from __future__ import annotations

from scenario_helpers import TINY, cli, write

from simdist.scenario import load
from simdist.scenario.guard import Limits
from simdist.sweep import make_plan, run_sweep

# measured by simdist.scenario.estimate: TINY needs 62,929,848 B at 3 steps, 63,226,848 B at 300
BETWEEN = 63_000_000


def test_a_worker_refuses_a_run_over_the_limit_and_a_resume_with_a_larger_limit_runs_it(tmp_path):
    sc = load(write(tmp_path, TINY))
    plan = make_plan(sc, "0..1", [("training.steps", [3, 300])])
    res = run_sweep(plan, tmp_path / "s", "serial", parquet=False, limits=Limits(memory=BETWEEN))
    got = [(r["params"]["training.steps"], r["status"]) for r in res.rows]
    assert got == [(3, "ok"), (3, "ok"), (300, "refused"), (300, "refused")], \
        f"statuses {got}, but should be the 3-step runs ok and the 300-step runs refused"
    why = res.rows[2]["error"]
    assert "the run needs ~" in why and "more than the --memory-limit of" in why and "--memory-limit 0" in why, why
    again = run_sweep(plan, tmp_path / "s", "serial", parquet=False, limits=Limits(memory=0))
    assert again.skipped == 2 and again.ran == 2 and [r["status"] for r in again.rows] == ["ok"] * 4, \
        f"resume: skipped {again.skipped}, ran {again.ran}, statuses {[r['status'] for r in again.rows]}; " \
        "should skip the 2 finished runs and run the 2 refused ones"


def test_the_sweep_command_reports_refused_runs(tmp_path):
    f = write(tmp_path, TINY)
    code, out, err = cli("sweep", str(f), "--param", "training.steps=3,300", "--memory-limit", str(BETWEEN),
                         "--out", str(tmp_path / "o"), "--no-progress", "--no-parquet")
    assert code == 1, (code, out, err)
    assert "1 ok, 0 failed, 0 error, 1 refused by the guard rails" in out and "refused: the run needs ~" in out, out


def test_a_sweep_whose_first_run_is_oversized_is_refused_before_anything_is_written(tmp_path):
    f = write(tmp_path, TINY)
    out = tmp_path / "o"
    code, so, err = cli("sweep", str(f), "--param", "training.steps=1000000000", "--memory-limit", "0",
                        "--out", str(out), "--no-progress")
    assert code == 2, f"exit {code}, but should be 2 (refused)\n{so}\n{err}"
    assert "run 0 of the sweep (seed 1, training.steps=1000000000)" in err and "--time-limit 0 for no limit" in err, err
    assert not out.exists(), "a refused sweep should write nothing"
    code, _, err = cli("sweep", str(f), "--time-limit", "never", "--out", str(out), "--no-progress")
    assert code == 2 and "--time-limit" in err, err


def test_replay_refuses_an_oversized_run_before_touching_out(tmp_path):
    f = write(tmp_path, TINY)
    out = tmp_path / "r"
    code, so, err = cli("replay", str(f), "--seed", "1", "--digest", "0" * 64, "--param", "training.steps=1000000000",
                        "--memory-limit", "0", "--out", str(out))
    assert code == 2, f"exit {code}, but should be 2 (refused)\n{so}\n{err}"
    assert "more than the --time-limit of 1 h" in err and "--time-limit DURATION to allow it" in err, err
    assert not out.exists()
    code, so, err = cli("replay", str(f), "--seed", "1", "--digest", "0" * 64, "--memory-limit", "1KiB",
                        "--out", str(out))
    assert code == 2 and "more than the --memory-limit of 1" in err and "--memory-limit 0 to run anyway" in err, err
    assert not out.exists()
