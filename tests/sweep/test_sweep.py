"""Sweeps: identical tables whichever executor ran them, resumable, failures recorded per run."""

from __future__ import annotations

import json

import pytest
from scenario_helpers import ROOT, TINY, cli, write

from simdist.scenario import load, loads
from simdist.sweep import make_plan, run_sweep
from simdist.sweep.executors import batches, default_batch_size
from simdist.scenario.table import read_table

MIRRORED = ROOT / "scenarios/mirrored_allreduce.toml"


def _files(d):
    return {name: (d / name).read_bytes() for name in ("results.csv", "summary.csv", "results.parquet")
            if (d / name).exists()}


def test_plan_order_ids_and_validation():
    sc = load(MIRRORED, quick=True)
    plan = make_plan(sc, "0..2", [("cluster.gpus", [2, 4])])
    assert [(dict(r.params)["strategy.all_reduce"], dict(r.params)["cluster.gpus"], r.seed) for r in plan.runs][:4] == \
        [("ring", 2, 0), ("ring", 2, 1), ("ring", 2, 2), ("ring", 4, 0)]
    assert len(plan.runs) == 2 * 2 * 3 and len({r.run_id for r in plan.runs}) == 12
    assert list(make_plan(sc, "0..2", [("cluster.gpus", [2, 4])]).runs) == list(plan.runs)
    from simdist.scenario import ScenarioError
    with pytest.raises(ScenarioError) as ei:
        make_plan(sc, "0", [("cluster.gpus", [3, "x"]), ("training.steps", [0])])
    text = str(ei.value)
    assert "global_batch" in text and "cluster.gpus" in text and "training.steps" in text


def test_batching():
    assert default_batch_size(1000, 2) == 63 and default_batch_size(5, 2) == 1
    assert [len(b) for b in batches(list(range(10)), 4)] == [4, 4, 2]


@pytest.mark.slow
def test_serial_process_and_dask_give_identical_tables_slow(tmp_path):
    _identical(tmp_path, seeds="0..11", dask=True)


@pytest.mark.slow
def test_dask_on_an_existing_scheduler_by_address(tmp_path):
    distributed = pytest.importorskip("distributed")
    sc = load(MIRRORED, quick=True)
    plan = make_plan(sc, "0..5")
    run_sweep(plan, tmp_path / "serial", "serial")
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None) as lc:
        res = run_sweep(plan, tmp_path / "remote", "dask", scheduler=lc.scheduler_address, batch_size=2)
    assert res.counts["ok"] == len(plan.runs)
    assert _files(tmp_path / "serial") == _files(tmp_path / "remote")


def test_serial_process_and_dask_give_identical_tables(tmp_path):
    _identical(tmp_path, seeds="0..3", dask=True)


def _identical(tmp_path, seeds, dask):
    sc = load(ROOT / "scenarios/ps_spot_preemption.toml", [("training.steps", 24)], quick=True)
    plan = make_plan(sc, seeds, [("faults.preemption_process.mtbf", ["30s", "120s"])])
    ser = run_sweep(plan, tmp_path / "serial", "serial")
    pro = run_sweep(plan, tmp_path / "process", "process", workers=2, batch_size=3)
    assert ser.counts["ok"] == len(plan.runs)
    assert _files(tmp_path / "serial") == _files(tmp_path / "process")
    if dask:
        pytest.importorskip("distributed")
        run_sweep(plan, tmp_path / "dask", "dask", workers=2, batch_size=2)
        assert _files(tmp_path / "serial") == _files(tmp_path / "dask")
    rows = read_table(tmp_path / "serial" / "results.csv")
    assert [r["run"] for r in rows] == list(range(len(plan.runs)))
    assert {r["faults.preemption_process.mtbf"] for r in rows} == {"30s", "120s"}
    assert all(len(r["digest"]) == 64 for r in rows)


def test_resume_skips_finished_runs_and_gives_the_same_table(tmp_path):
    sc = load(MIRRORED, quick=True)
    plan = make_plan(sc, "0..5")
    full = run_sweep(plan, tmp_path / "a", "serial")
    assert full.ran == 12 and full.skipped == 0
    b = tmp_path / "b"
    run_sweep(plan, b, "serial")
    lines = (b / "runs.jsonl").read_text().splitlines()
    (b / "runs.jsonl").write_text("\n".join(lines[:5]) + "\n" + lines[5][: len(lines[5]) // 2])  # torn last line
    res = run_sweep(plan, b, "process", workers=2)
    assert res.skipped == 5 and res.ran == 7
    assert _files(tmp_path / "a") == _files(b)
    again = run_sweep(plan, b, "serial")
    assert again.ran == 0 and again.skipped == 12
    # more seeds later: only the new ones run
    bigger = run_sweep(make_plan(sc, "0..7"), b, "serial")
    assert bigger.ran == 4 and len(bigger.rows) == 16


def test_a_different_scenario_does_not_resume_into_the_same_directory(tmp_path):
    sc = load(MIRRORED, quick=True)
    run_sweep(make_plan(sc, "0"), tmp_path / "s", "serial")
    other = make_plan(sc.with_overrides([("model.global_batch", 512)]), "0")
    from simdist.cli import UsageError
    with pytest.raises(UsageError, match="different scenario"):
        run_sweep(other, tmp_path / "s", "serial")
    res = run_sweep(other, tmp_path / "s", "serial", force=True)
    assert res.ran == 2


def test_failures_are_recorded_per_run_and_the_sweep_goes_on(tmp_path):
    sc = loads(TINY, "t.toml")
    plan = make_plan(sc, "0..1", [("cluster.gpu_memory", ["1MiB", "80GiB"])])
    res = run_sweep(plan, tmp_path / "s", "serial")
    assert res.counts == {"ok": 2, "failed": 2, "error": 0}
    rows = read_table(tmp_path / "s" / "results.csv")
    assert [r["status"] for r in rows] == ["failed", "failed", "ok", "ok"]
    assert "ResourceExhaustedError" in rows[0]["error"]
    summ = (tmp_path / "s" / "summary.csv").read_text().splitlines()
    assert summ[0].startswith("cluster.gpu_memory,runs,ok,failed") and len(summ) == 3


def test_sweep_cli_end_to_end(tmp_path):
    out = tmp_path / "s"
    code, so, se = cli("sweep", str(MIRRORED), "--quick", "--seeds", "0..2", "--param", "cluster.gpus=2,4",
                       "--out", str(out), "--executor", "process", "--workers", "2", "--plot", "examples_per_s")
    assert code == 0, se
    assert "12 runs" in so and "results.csv" in so and (out / "sweep.png").exists()
    manifest = json.loads((out / "sweep.json").read_text())
    assert manifest["params"]["cluster.gpus"] == [2, 4] and manifest["seeds"] == "0..2"
    code, so, _ = cli("sweep", str(MIRRORED), "--quick", "--seeds", "0..2", "--param", "cluster.gpus=2,4",
                      "--out", str(out))
    assert code == 0 and "0 ran now, 12 already done" in so
    # failures make the exit code 1, bad input 2
    tiny = write(tmp_path, TINY)
    code, so, _ = cli("sweep", str(tiny), "--seeds", "0", "--param", 'cluster.gpu_memory=1MiB,80GiB', "--out",
                      str(tmp_path / "f"))
    assert code == 1 and "failed" in so
    code, _, se = cli("sweep", str(tiny), "--seeds", "9..1", "--out", str(tmp_path / "g"))
    assert code == 2 and "--seeds" in se
    code, _, se = cli("sweep", str(tiny), "--param", "cluster.gpus=3", "--out", str(tmp_path / "h"))
    assert code == 2 and "global_batch" in se


def test_gate_on_sweep_tables(tmp_path):
    # "current" is the same sweep on a cluster whose GPU:1 NVLink port got slower
    link = '\n[[faults.links]]\nlink = "nvlink:GPU:1"\nbandwidth_factor = {}\n'
    grid = [("strategy.all_reduce", ["ring", "reduce_to_one"])]
    text = TINY.replace("shape = [1024, 1024]", "shape = [8192, 8192]")
    base, slow = loads(text + link.format(1.0), "t.toml"), loads(text + link.format(0.1), "t.toml")
    run_sweep(make_plan(base, "0..1", grid), tmp_path / "base", "serial")
    run_sweep(make_plan(base, "0..1", grid), tmp_path / "same", "serial")
    run_sweep(make_plan(slow, "0..1", grid), tmp_path / "slow", "serial")
    code, so, _ = cli("gate", str(tmp_path / "slow"), "--baseline", str(tmp_path / "base"), "--junit",
                      str(tmp_path / "j.xml"), "--allow-different-scenario")
    assert code == 1 and "strategy.all_reduce=ring" in so and "REGRESSION" in so
    code, so, _ = cli("gate", str(tmp_path / "same" / "results.csv"), "--baseline", str(tmp_path / "base"),
                      "--junit", "-")
    assert code == 0
    code, _, se = cli("gate", str(tmp_path / "same"), "--baseline", str(ROOT / "docs"), "--junit", "-")
    assert code == 2
    # a run that completed in the baseline but fails now is a regression
    oom = loads(text + '\n', "t.toml", ['cluster.gpu_memory="1MiB"'])
    run_sweep(make_plan(oom, "0..1", grid), tmp_path / "oom", "serial")
    code, so, _ = cli("gate", str(tmp_path / "oom"), "--baseline", str(tmp_path / "base"), "--junit", "-",
                      "--allow-different-scenario")
    assert code == 1 and "FAILED" in so


# --- sweep.png and the table's failed rows -----------------------------------------------------------
def test_numeric_parameters_are_placed_by_value_and_the_spread_is_drawn():
    from simdist.sweep.plot import draw_sweep, x_positions
    pos, numeric, log = x_positions("faults.preemption_process.mtbf", ["30min", "10min", "2h"])
    assert numeric and pos == [1800.0, 600.0, 7200.0] and not log
    assert x_positions("strategy.all_reduce", ["ring", "reduce_to_one"])[:2] == ([0.0, 1.0], False)
    assert x_positions("training.steps", [10, 100, 1000])[2], "values spanning 100x get a log axis"
    table = [{"status": "ok", "seed": s, "training.checkpoint_every": ce, "simulated_time_s": t}
             for ce, ts in ((800, [300.0, 320.0]), (50, [440.0, 460.0]), (200, [340.0, 350.0]))
             for s, t in enumerate(ts)]
    table.append({"status": "failed", "seed": 9, "training.checkpoint_every": 50, "simulated_time_s": None})
    fig = draw_sweep(table, "simulated_time_s", ["training.checkpoint_every"])
    ax = fig.axes[0]
    (mean,) = [ln for ln in ax.lines if (ln.get_gid() or "").startswith("mean:")]
    assert list(mean.get_xdata()) == [50.0, 200.0, 800.0], "x must be the values, in increasing order"
    assert list(mean.get_ydata()) == [450.0, 345.0, 310.0]
    (band,) = [c for c in ax.collections if (c.get_gid() or "").startswith("band:")]
    ys = band.get_paths()[0].vertices[:, 1]
    assert min(ys) == 300.0 and max(ys) == 460.0, "the band must span min..max over seeds"
    ticks = dict(zip(ax.get_xticks(), (t.get_text() for t in ax.get_xticklabels())))
    assert ticks == {800.0: "800", 50.0: "50", 200.0: "200"}, ticks   # each value labelled at its position


def test_failed_runs_leave_metric_cells_empty(tmp_path):
    from simdist.scenario.table import read_table
    oom = loads(TINY, "t.toml", ['cluster.gpu_memory="1MiB"'])
    run_sweep(make_plan(oom, "0..1", []), tmp_path / "oom", "serial")
    rows = read_table(tmp_path / "oom" / "results.csv")
    assert rows and all(r["status"] == "failed" for r in rows)
    for r in rows:
        vals = {k: v for k, v in r.items() if k in ("simulated_time_s", "examples_per_s", "compute_fraction")}
        assert vals and all(v is None for v in vals.values()), f"a failed run has metric values {vals}"


def test_the_plan_is_lazy_run_i_is_computed_from_i_and_rows_map_back():
    """Run i of a 10^7-run plan is its combination's mixed-radix digits and its seed's position,
    in the order itertools.product + seeds ascending gives; a row maps back to its index."""
    import itertools
    sc = load(MIRRORED, quick=True)
    grid = [("cluster.gpus", [2, 4]), ("training.steps", [1, 2, 3])]
    plan = make_plan(sc, "0..2,5,9..10", grid)
    want = [(tuple(zip(["strategy.all_reduce", "cluster.gpus", "training.steps"], c)), s)
            for c in itertools.product(["ring", "reduce_to_one"], [2, 4], [1, 2, 3]) for s in (0, 1, 2, 5, 9, 10)]
    got = [(r.params, r.seed) for r in plan.runs]
    assert got == want, f"plan order {got[:3]}..., but should be {want[:3]}... (product of values, then seeds)"
    for r in plan.runs:
        assert plan.runs[r.index] == r and plan.runs.locate(dict(r.params), r.seed) == r, f"run {r.index} round trip"
    assert plan.runs.locate({"cluster.gpus": 2, "training.steps": 1, "strategy.all_reduce": "ring"}, 3) is None
    assert plan.runs.locate({"cluster.gpus": 2.0, "training.steps": 1, "strategy.all_reduce": "ring"}, 0) is None
    big = make_plan(sc, "0..2499999", [("training.steps", [1, 2])])   # x 2 all_reduce values in the file
    assert len(big.runs) == 10_000_000, f"len={len(big.runs)}, but should be 10,000,000"
    last = big.runs[-1]
    assert (dict(last.params), last.seed, last.index) == \
        ({"strategy.all_reduce": "reduce_to_one", "training.steps": 2}, 2_499_999, 9_999_999), last
    assert big.manifest()["seeds"] == "0..2499999" and big.manifest()["runs"] == 10_000_000


def test_a_ten_million_run_sweep_with_a_budget_starts_at_once_in_bounded_memory(tmp_path):
    """10^7 planned runs (5M seeds x 2 values) with a tiny --budget: the sweep runs its first
    batch, stops at the budget and tables what finished, its peak Python allocation a few MiB
    (listing the plan's RunSpecs alone would take gigabytes). Resuming skips the finished runs."""
    import tracemalloc
    f = write(tmp_path, TINY)
    sc = load(f)
    tracemalloc.start()
    try:
        plan = make_plan(sc, "0..4999999", [("training.steps", [1, 2])])
        res = run_sweep(plan, tmp_path / "big", "serial", batch_size=2, budget=1e-9, parquet=False)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert res.budget_hit and res.planned == 10_000_000 and res.ran == 2 and len(res.rows) == 2, \
        f"budget_hit={res.budget_hit} planned={res.planned} ran={res.ran} rows={len(res.rows)}, but should be " \
        "True, 10,000,000, 2, 2 (one batch of 2, then the budget)"
    assert peak < 64 * 2**20, f"peak traced memory {peak / 2**20:.1f} MiB, but should stay under 64 MiB"
    assert [r["run"] for r in res.rows] == [0, 1] and [r["seed"] for r in res.rows] == [0, 1]
    again = run_sweep(plan, tmp_path / "big", "serial", batch_size=2, budget=1e-9, parquet=False)
    assert again.skipped == 2 and [r["run"] for r in again.rows] == [0, 1, 2, 3], \
        f"resume: skipped {again.skipped}, rows {[r['run'] for r in again.rows]}, but should be 2, [0, 1, 2, 3]"
    manifest = json.loads((tmp_path / "big" / "sweep.json").read_text())
    assert manifest["runs"] == 10_000_000 and manifest["seeds"] == "0..4999999", manifest


def test_a_ten_million_run_sweep_on_the_command_line_is_accepted_and_budgeted(tmp_path):
    f = write(tmp_path, TINY)
    code, out, err = cli("sweep", str(f), "--seeds", "0..4999999", "--param", "training.steps=1,2", "--budget", "1ns",
                         "--batch-size", "1", "--out", str(tmp_path / "o"), "--no-progress", "--no-parquet")
    assert code == 0, (code, err)
    assert "with 1 of 10000000 runs finished" in out, out


def test_a_budget_stops_the_sweep_keeps_finished_runs_and_the_same_command_resumes(tmp_path):
    """--budget ends a sweep between results (its workers ended), the tables hold the finished runs,
    and a rerun finishes the rest: the final table equals an unbudgeted sweep's."""
    sc = load(MIRRORED, quick=True)
    plan = make_plan(sc, "0..5")
    cut = run_sweep(plan, tmp_path / "cut", "serial", batch_size=1, budget=1e-9)
    assert cut.budget_hit, "a budget of 1 ns should end the sweep after its first result"
    assert 1 <= len(cut.rows) < len(plan.runs), f"{len(cut.rows)} runs kept, expected 1..{len(plan.runs) - 1}"
    assert (tmp_path / "cut" / "results.csv").read_text().count("\n") == len(cut.rows) + 1, \
        "results.csv should table exactly the finished runs"
    rest = run_sweep(plan, tmp_path / "cut", "serial", batch_size=1)
    assert not rest.budget_hit and rest.skipped == len(cut.rows) and len(rest.rows) == len(plan.runs), \
        f"resume: skipped {rest.skipped} (expected {len(cut.rows)}), {len(rest.rows)} rows (expected {len(plan.runs)})"
    whole = run_sweep(plan, tmp_path / "whole", "serial", batch_size=1)
    assert (tmp_path / "cut" / "results.csv").read_text() == (tmp_path / "whole" / "results.csv").read_text(), \
        "a budgeted sweep resumed to the end should give the same table as one run whole"


def test_sweep_budget_on_the_command_line(tmp_path):
    code, so, se = cli("sweep", str(MIRRORED), "--quick", "--seeds", "0..3", "--batch-size", "1", "--budget", "1ns",
                       "--out", str(tmp_path / "b"), "--no-progress", "--no-parquet")
    assert code == 0, se
    assert "--budget of 1ns ended the sweep" in so and "run the same command again to resume" in so, so
    code, _, se = cli("sweep", str(MIRRORED), "--quick", "--seeds", "0", "--budget", "0s", "--out", str(tmp_path / "z"))
    assert code == 2 and "--budget 0s: expected a time > 0" in se, se


def test_a_pool_fed_a_few_batches_at_a_time_gives_the_serial_table(tmp_path):
    """The process pool is fed lazily (at most IN_FLIGHT batches per worker outstanding): with many
    more batches than that, every run is done once and the table equals the serial one."""
    from simdist.sweep.executors import IN_FLIGHT
    sc = load(MIRRORED, quick=True)
    plan = make_plan(sc, "0..5")
    assert len(plan.runs) > 2 * IN_FLIGHT * 2, "the plan must outnumber the batches in flight"
    ser = run_sweep(plan, tmp_path / "serial", "serial", parquet=False)
    pro = run_sweep(plan, tmp_path / "process", "process", workers=2, batch_size=1, parquet=False)
    assert pro.ran == len(plan.runs) and [r["run"] for r in pro.rows] == list(range(len(plan.runs))), \
        f"process pool ran {pro.ran} runs, rows {[r['run'] for r in pro.rows]}; should run each of {len(plan.runs)} once"
    assert _files(tmp_path / "serial") == _files(tmp_path / "process")
