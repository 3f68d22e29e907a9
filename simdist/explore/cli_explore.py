"""`simdist explore FILE`: random fault plans against invariants, each failure shrunk to a minimal
reproducer (see simdist.explore and docs/failure-injection.md)."""

from __future__ import annotations

import argparse
import os
import shutil
import sys
from typing import Any

from simdist.sweep.executors import EXECUTORS


def register(sub: Any) -> None:
    p = sub.add_parser(
        "explore", help="random fault plans against invariants, failures shrunk to a minimal reproducer",
        description="Draw N random fault plans (preemptions, ps failures, stragglers, degraded links; rates and "
                    "windows from the scenario's [explore] table) for FILE's cluster, run them on a process pool "
                    "(or serially, or on Dask), and check the invariants: no function lost or applied twice, "
                    "every RemoteValue resolved with a documented error, determinism in a fresh process, the run "
                    "ends; plus the file's metric predicates and Python checks. Each broken invariant is shrunk to "
                    "a minimal plan, printed as a [[faults.*]] fragment with the command that reproduces it byte "
                    "for byte. Exit 0 when every invariant held, 1 when one broke, 2 for bad input.",
        formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog="examples:\n"
               "  simdist explore scenarios/ps_failure_checkpoint.toml --plans 1000\n"
               "  simdist explore scenarios/ps_spot_preemption.toml --quick --plans 200 --seed 3 --executor serial\n"
               "  simdist explore scenarios/ps_embedding.toml --budget 10min --metric examples_per_s")
    p.add_argument("file", help="scenario file (.toml)")
    p.add_argument("--plans", type=int, default=None, help="fault plans to draw (default: [explore] plans, else 200)")
    p.add_argument("--seed", type=int, default=None,
                   help="root seed of the plan draws (default: [explore] seed, else 0); the runs use scenario.seed")
    p.add_argument("--out", default=None, help="output directory (default: out/<scenario name>-explore)")
    p.add_argument("--executor", choices=EXECUTORS, default="process",
                   help="process (default: a local pool of --workers), serial, or dask")
    p.add_argument("--workers", type=int, default=None, help="worker processes (default: CPU count)")
    p.add_argument("--scheduler", default=None, metavar="ADDRESS", help="Dask scheduler address (implies dask)")
    p.add_argument("--batch-size", type=int, default=None, help="plans per executor task")
    p.add_argument("--budget", default=None, metavar="TIME",
                   help="wall-clock limit of the whole command, e.g. 10min: plans stop at 80%% of it, shrinking "
                        "uses the rest (the report says when it cut the exploration short)")
    p.add_argument("--metric", default=None, help="summary metric of the histogram (default: [explore] metric, "
                                                  "else examples_per_s)")
    p.add_argument("--quick", action="store_true", help="explore the file's short variant (its [quick] overrides)")
    p.add_argument("--no-plot", action="store_true", help="skip histogram.png and the failures' timelines")
    p.add_argument("--force", action="store_true", help="overwrite a previous exploration in --out")
    p.add_argument("--no-progress", action="store_true", help="never show a progress bar")
    from simdist.scenario.guard import add_arguments
    add_arguments(p, "each run (checked once, on the fault-free scenario every plan adds faults to)")
    p.set_defaults(func=main)


def main(args: argparse.Namespace) -> int:
    from simdist.scenario.loader import ScenarioError, load
    from simdist.extras import have, missing_note
    from simdist.scenario.outputs import MARKER, default_out, prepare_out_dir, progress_bar, usage_error
    from simdist.sim.units import parse_time
    from .driver import ExploreError, explore
    from .report import PRODUCED, write_report

    if args.scheduler:
        args.executor = "dask"
    for flag, v, lo in (("--plans", args.plans, 1), ("--seed", args.seed, 0), ("--workers", args.workers, 1),
                        ("--batch-size", args.batch_size, 1)):
        if v is not None and v < lo:
            raise usage_error(f"{flag} {v}: expected an int >= {lo}")
    from simdist.scenario.guard import limits_from
    limits = limits_from(args)
    budget = None
    if args.budget is not None:
        try:
            budget = parse_time(args.budget, field="--budget")
        except ValueError as e:
            raise usage_error(str(e)) from None
        if budget <= 0:
            raise usage_error(f"--budget {args.budget}: expected a time > 0")
    try:
        sc = load(args.file, quick=args.quick)
    except ScenarioError as e:
        raise usage_error(str(e)) from None
    if args.metric is not None:
        from .config import known_metrics
        if args.metric not in known_metrics():
            import difflib
            close = difflib.get_close_matches(args.metric, known_metrics(), n=1, cutoff=0.5)
            raise usage_error(f"--metric {args.metric}: not a summary metric" +
                              (f"; did you mean '{close[0]}'?" if close else ""))
    # Every plan runs this scenario with faults added: faults change neither the model nor the
    # cluster, so its memory estimate is each run's; its time estimate adds the most work a drawn
    # plan's faults can make the run redo (estimate_faults.worst_plan). One check before the first
    # run; nothing is written when it refuses.
    _refuse_worst_plan(sc, limits, args)
    from simdist.sweep.executors import check_available
    check_available(args.executor)
    plot = not args.no_plot
    no_pictures = None
    if plot and not have("matplotlib"):   # the base install: the report without its pictures, and how to get them
        plot = False
        no_pictures = missing_note("explore", "histogram.png and the failures' timelines", "matplotlib")
    out = prepare_out_dir(args.out or default_out(sc.name, "-explore"), args.force, PRODUCED, "explore")
    if args.force and (out / "failures").is_dir() and (out / MARKER).exists():
        shutil.rmtree(out / "failures")
    from simdist.scenario.interrupts import set_note
    set_note(f"the exploration was not finished and {out} holds no report; rerun the same command with --force to "
             "start over")
    total = args.plans or (sc.config.get("explore") or {}).get("plans", 200)
    bar = None if args.no_progress else progress_bar(total, "plan", f"explore {sc.name}")
    try:
        exp = explore(sc, plans_n=args.plans, seed=args.seed, metric=args.metric, executor=args.executor,
                      workers=args.workers, batch_size=args.batch_size, scheduler=args.scheduler, budget=budget,
                      progress=bar.update if bar is not None else None)
    except ExploreError as e:
        raise usage_error(str(e)) from None
    finally:
        if bar is not None:
            bar.close()
    text, _ = write_report(exp, out, args.quick, plot)
    workers = 1 if args.executor == "serial" else (args.workers or os.cpu_count() or 1)
    print(text.replace("\nexplore: ", f"\n{args.executor} x {workers}\nexplore: ", 1))
    if no_pictures:
        print(no_pictures)
    sys.stdout.flush()
    return 1 if exp.failures else 0


def _refuse_worst_plan(sc: Any, limits: Any, args: argparse.Namespace) -> None:
    """Refuse (usage error, exit 2) when the scenario every plan runs is over the memory limit, or
    when its time estimate with the most work a plan's faults can add is over the time limit."""
    from simdist.scenario.build import build_cluster
    from simdist.scenario.estimate import estimate
    from simdist.scenario.estimate_faults import add_redo, worst_plan
    from simdist.scenario.guard import Limits, refusal
    from simdist.scenario.outputs import usage_error
    from .config import settings
    e = estimate(sc, build_cluster(sc))
    if (sc.config.get("explore") or {}).get("base_faults", "keep") == "drop":   # plans replace the file's faults
        e = add_redo(e, sc, (-e["redo"][0], -e["redo"][1]))
    why = refusal(sc, Limits(limits.memory, 0.0), e) if limits.memory != 0 else None
    if why:
        raise usage_error("the scenario every plan runs: " + why)
    s = settings(sc, 1.0, args.plans, args.seed, args.metric)   # (rates and caps do not depend on the baseline)
    worst = worst_plan(sc, s.rates, s.caps, s.max_events)
    lo, hi = worst["steps"]
    what = "the scenario every plan runs"
    if hi > 0:
        e = add_redo(e, sc, worst["steps"])
        unit = "functions" if sc.strategy == "parameter_server" else "steps"
        faults = ", ".join(f"{n} {k}" for k, n in worst["faults"].items())
        what += f", with the most a plan's faults can add ({faults}: {lo:g} to {hi:g} {unit} redone)"
    why = refusal(sc, Limits(0, limits.time), e)
    if why:
        raise usage_error(what + ": " + why)
