"""`simdist sweep FILE`: many runs of one scenario (seeds x parameter values) into a tidy table."""

from __future__ import annotations

import argparse
import os
import time
from typing import Any

from .executors import EXECUTORS


def register(sub: Any) -> None:
    p = sub.add_parser(
        "sweep", help="run a scenario over many seeds and parameter values",
        description="Run FILE for every combination of --param values and every seed, on one core, a local "
                    "process pool or Dask, into a tidy table (results.csv, results.parquet with pyarrow, "
                    "summary.csv per parameter combination). Failed runs are recorded, not fatal. Rerunning the "
                    "same command resumes: finished runs are skipped. Results are byte-identical whichever "
                    "executor and worker count ran them. Exit 0 when every run completed, 1 when some run "
                    "failed, 2 for bad input.",
        formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog="examples:\n"
               "  simdist sweep scenarios/ps_spot_preemption.toml --seeds 0..19 --executor process\n"
               "  simdist sweep scenarios/mirrored_allreduce.toml --seeds 0..999 --param training.steps=10 \\\n"
               "      --param strategy.all_reduce=ring,reduce_to_one --executor dask --workers 2\n"
               "  simdist sweep scenarios/degraded_link.toml --executor dask --scheduler tcp://10.0.0.5:8786")
    p.add_argument("file", help="scenario file (.toml)")
    p.add_argument("--seeds", default=None, help="seeds: A..B (inclusive), a list 1,5,9, or both (default: the "
                                                  "file's [sweep].seeds, else scenario.seed)")
    p.add_argument("--param", action="append", default=[], metavar="KEY.PATH=V1,V2,...",
                   help="sweep a value of the scenario (repeatable; combined as a grid; replaces the same key of "
                        "the file's [sweep].params)")
    p.add_argument("--quick", action="store_true", help="sweep the file's short variant (its [quick] overrides)")
    p.add_argument("--executor", choices=EXECUTORS, default="serial",
                   help="serial (default), process (local process pool) or dask (distributed)")
    p.add_argument("--workers", type=int, default=None, help="worker processes (default: CPU count)")
    p.add_argument("--scheduler", default=None, metavar="ADDRESS",
                   help="Dask scheduler address (tcp://host:8786); implies --executor dask. Without it, dask "
                        "starts a LocalCluster of --workers processes")
    p.add_argument("--batch-size", type=int, default=None, help="runs per task (default: ~8 tasks per worker, "
                                                                 "at most 64 runs each)")
    p.add_argument("--out", default=None, help="output directory (default: out/<scenario name>-sweep)")
    p.add_argument("--force", action="store_true", help="discard a previous sweep in --out and start over")
    p.add_argument("--no-parquet", action="store_true", help="write CSV only")
    p.add_argument("--plot", default=None, metavar="METRIC[,METRIC...]",
                   help="also draw METRIC (e.g. examples_per_s; several, comma-separated: a panel each) against the "
                        "first swept parameter (sweep.png)")
    p.add_argument("--no-progress", action="store_true", help="never show a progress bar")
    p.add_argument("--budget", default=None, metavar="TIME",
                   help="stop taking results after this much wall time (e.g. 20s, 10min): finished runs are kept and "
                        "tabled, running ones ended; the same command resumes")
    from simdist.scenario.guard import add_arguments
    add_arguments(p, "each run (run 0 before the sweep starts, exit 2; the others by their worker: status "
                      "refused, run again when the sweep resumes)")
    p.set_defaults(func=main)


def main(args: argparse.Namespace) -> int:
    from simdist.scenario.loader import ScenarioError, load, parse_override
    from simdist.scenario.outputs import progress_bar, usage_error

    if args.scheduler:
        args.executor = "dask"
    if args.workers is not None and args.workers < 1:
        raise usage_error(f"--workers {args.workers}: expected >= 1")
    if args.batch_size is not None and args.batch_size < 1:
        raise usage_error(f"--batch-size {args.batch_size}: expected >= 1")
    params = []
    for spec in args.param:
        try:
            params.append(parse_override(spec, many=True))
        except ValueError as e:
            raise usage_error(str(e)) from None
    from simdist.scenario.guard import limits_from, refuse
    limits = limits_from(args)
    from .plan import make_plan
    try:
        sc = load(args.file, quick=args.quick)
        plan = make_plan(sc, args.seeds, params)
    except ScenarioError as e:
        raise usage_error(str(e)) from None
    except ValueError as e:
        raise usage_error(f"--seeds {args.seeds}: {e}") from None
    budget = None
    if args.budget is not None:
        from simdist.sim.units import parse_time
        try:
            budget = float(parse_time(args.budget, field="--budget"))
        except ValueError as e:
            raise usage_error(str(e)) from None
        if not budget > 0:
            raise usage_error(f"--budget {args.budget}: expected a time > 0")
    plot_metrics = [m.strip() for m in args.plot.split(",") if m.strip()] if args.plot else []
    if args.plot:
        from simdist.scenario.metrics import SUMMARY_METRICS
        for metric in plot_metrics or [args.plot]:
            if metric not in SUMMARY_METRICS:
                from simdist.suggest import did_you_mean
                raise usage_error(f"--plot {metric}: not a summary metric{did_you_mean(metric, SUMMARY_METRICS)} "
                                  f"(one of {', '.join(SUMMARY_METRICS)})")
        if not plan.grid:
            raise usage_error("--plot needs at least one swept --param")
    # The first run is checked here (a sweep of oversized runs is refused before anything is
    # written); every run is checked again by its worker before it runs (status "refused").
    first = plan.runs[0]
    refuse(sc.with_overrides(first.overrides()) if first.params else sc, limits,
           f"run 0 of the sweep (seed {first.seed}{''.join(f', {k}={v}' for k, v in first.params)}): ")
    from simdist.scenario.outputs import default_out
    out = args.out or default_out(sc.name, "-sweep")
    from .executors import check_available
    check_available(args.executor)   # before sweep.json is written
    from .driver import run_sweep
    bar = None if args.no_progress else progress_bar(len(plan.runs), "run", f"sweep {sc.name}")
    t0 = time.perf_counter()
    try:
        res = run_sweep(plan, out, args.executor, args.workers, args.batch_size, args.scheduler, args.force,
                        progress=bar.update if bar is not None else None, parquet=not args.no_parquet,
                        budget=budget, limits=limits)
    finally:
        if bar is not None:
            bar.close()
    wall = time.perf_counter() - t0
    c = res.counts
    n = len(res.rows)
    workers = 1 if args.executor == "serial" else (args.workers or os.cpu_count() or 1)
    print(f"sweep {sc.name}: {n} runs ({len(plan.grid) and len(plan.runs) // len(plan.seeds)} parameter "
          f"combination(s) x {len(plan.seeds)} seed(s)); {res.ran} ran now, {res.skipped} already done; "
          f"{c.get('ok', 0)} ok, {c.get('failed', 0)} failed, {c.get('error', 0)} error"
          f"{', %d refused by the guard rails' % c['refused'] if c.get('refused') else ''}; "
          f"{args.executor} x {workers}, {wall:.1f} s")
    if res.budget_hit:
        print(f"sweep {sc.name}: the --budget of {args.budget} ended the sweep with {n} of {res.planned} runs finished "
              f"(kept in {res.out / 'runs.jsonl'}); run the same command again to resume")
    _print_summary(res.out)
    for f in res.files:
        print(f"wrote {f}")
    from simdist.extras import have, missing_note
    if not args.no_parquet and not have("pyarrow"):
        print(missing_note("sweep", "results.parquet", "pyarrow"))
    if args.plot and not have("matplotlib"):
        print(missing_note("sweep", "sweep.png", "matplotlib"))
    elif args.plot:
        from .plot import plot_sweep
        print(f"wrote {plot_sweep(res.out, plot_metrics, plan.param_names)}")
    bad = [r for r in res.rows if r["status"] != "ok"]
    for r in bad[:5]:
        print(f"  run {r['run']} seed {r['seed']} {r['params']}: {r['status']}: {r['error']}")
    if len(bad) > 5:
        print(f"  ... {len(bad) - 5} more (see results.csv)")
    return 0 if not bad else 1


def _print_summary(out: Any) -> None:
    import csv
    path = out / "summary.csv"
    with open(path, encoding="utf-8") as fh:
        rows = list(csv.DictReader(fh))
    if not rows:
        return
    head = [k for k in rows[0] if not k.endswith((":p50", ":p95")) and ":" not in k] + \
        [k for k in ("examples_per_s:mean", "simulated_time_s:mean", "step_time_mean_s:mean") if k in rows[0]]
    widths = {h: max(len(h), *(len(_short(r[h])) for r in rows)) for h in head}
    print("  ".join(h.ljust(widths[h]) for h in head))
    for r in rows[:30]:
        print("  ".join(_short(r[h]).ljust(widths[h]) for h in head))
    if len(rows) > 30:
        print(f"... {len(rows) - 30} more groups in summary.csv")


def _short(v: str) -> str:
    try:
        f = float(v)
    except ValueError:
        return v
    if f.is_integer() and abs(f) < 1e12 and "." not in v:
        return v
    return f"{f:.6g}"
