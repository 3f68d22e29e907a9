"""`simdist run FILE`: run one scenario, print the summary table, write metrics.json (and the
trace, the timeline picture and the utilisation chart on request)."""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path
from typing import Any

from .interrupts import set_note
from .guard import duration as _duration
from .outputs import default_out, prepare_out_dir, progress_bar, temp_name, usage_error, write_json, write_text

PRODUCED = ("metrics.json", "trace.json", "timeline.png", "utilisation.png", "loss.png", "scenario.toml", "summary.txt")


def register(sub: Any) -> None:
    p = sub.add_parser(
        "run", help="run one scenario and show where the time went",
        description="Run a scenario file: print a summary table and write metrics.json to --out "
                    "(default out/<scenario name>). Exit 0 if the run completed, 1 if the simulated training "
                    "failed (out of memory, an unrecovered ps failure) or --check-determinism found a "
                    "difference, 2 for a bad scenario or arguments.",
        formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog="examples:\n"
               "  simdist run scenarios/mirrored_allreduce.toml --out out/quickstart --plot\n"
               "  simdist run scenarios/ps_spot_preemption.toml --seed 3 --param training.steps=200 --trace\n"
               "  simdist run scenarios/central_storage_gpus.toml --dry-run")
    p.add_argument("file", help="scenario file (.toml)")
    p.add_argument("--seed", type=int, default=None, help="root seed (default: scenario.seed)")
    p.add_argument("--out", default=None, help="output directory (default: out/<scenario name>)")
    p.add_argument("--param", action="append", default=[], metavar="KEY.PATH=VALUE",
                   help="override one value of the scenario, e.g. training.steps=10 (repeatable)")
    p.add_argument("--quick", action="store_true", help="run the file's short variant (its [quick] overrides)")
    p.add_argument("--trace", action="store_true", help="write the Chrome trace (trace.json; open in Perfetto)")
    p.add_argument("--plot", action="store_true", help="write timeline.png and utilisation.png, and loss.png for a training model (needs matplotlib)")
    p.add_argument("--check-determinism", action="store_true",
                   help="run again in this process and in a fresh interpreter (other PYTHONHASHSEED) and compare "
                        "the sha256 of metrics and trace")
    p.add_argument("--force", action="store_true", help="overwrite the output directory of a previous run")
    p.add_argument("--dry-run", action="store_true", help="parse, validate and build the cluster, estimate the "
                                                             "run's events, memory and time, then stop")
    from .guard import add_arguments
    add_arguments(p, "the run")
    p.add_argument("--quiet", action="store_true", help="print only the output paths")
    p.add_argument("--no-progress", action="store_true", help="never show a progress bar")
    p.set_defaults(func=main)


def _load(file: str, params: list[str], quick: bool = False) -> Any:
    from .loader import ScenarioError, load
    try:
        return load(file, params, quick)
    except ScenarioError as e:
        raise usage_error(str(e)) from None


def main(args: argparse.Namespace) -> int:
    if args.seed is not None and args.seed < 0:
        raise usage_error(f"--seed {args.seed}: expected an int >= 0")
    sc = _load(args.file, args.param, args.quick)
    seed = sc.seed if args.seed is None else args.seed
    from .guard import limits_from, refuse
    limits = limits_from(args)
    if args.dry_run:
        return _dry_run(sc, seed)
    refuse(sc, limits)
    outs = sc.config.get("outputs") or {}
    want_trace = args.trace or outs.get("trace", False)
    want_plot = args.plot or outs.get("plot", False)
    no_pictures = None
    if want_plot:
        from simdist.extras import have, missing_note
        if not have("matplotlib"):   # the base install: the run without its pictures, and how to get them
            want_plot = False
            no_pictures = missing_note("run", "timeline.png, utilisation.png and loss.png", "matplotlib")
    out = prepare_out_dir(args.out or default_out(sc.name), args.force, PRODUCED, "run")
    # The trace streams into a temporary name and gets its own only when the run is over: an
    # interrupted run never leaves a trace.json that looks whole (nor a half-written one).
    trace_path = temp_name(out / "trace.json") if want_trace or want_plot else None
    set_note(f"the run was not finished and {out} holds no result; rerun the same command with --force "
             "to start over")
    try:
        return _run(args, sc, seed, out, trace_path, want_trace, want_plot, no_pictures)
    finally:
        if trace_path is not None:
            trace_path.unlink(missing_ok=True)


def _run(args: argparse.Namespace, sc: Any, seed: int, out: Path, trace_path: Path | None, want_trace: bool,
         want_plot: bool, no_pictures: str | None) -> int:
    from .runner import run
    bar = None if args.no_progress else progress_bar(sc.config["training"]["steps"], "step", sc.name)
    try:
        postfix = getattr(bar, "set_postfix_str", None)   # (a tqdm bar; a log's line progress has none)
        result = run(sc, seed, trace=str(trace_path) if trace_path else None,
                     progress=bar.update if bar is not None else None,
                     detail=(lambda ev: postfix(f"{ev:,} events into this step", refresh=True))
                     if postfix is not None else None)
    finally:
        if bar is not None:
            bar.close()
    m = result.metrics
    write_json(out / "metrics.json", m)
    set_note(f"{out / 'metrics.json'} was written (the run finished) and some of its other files may be missing; "
             "rerun the same command with --force to write them all")
    write_text(out / "scenario.toml", sc.text)
    from .metrics import summary_table
    table = summary_table(m)
    write_text(out / "summary.txt", table + "\n")
    pictures: list[str] = []
    if want_plot and trace_path is not None:
        from .plot import plot_run
        pictures = plot_run(trace_path, m, out)
        if m.get("training"):
            from .plot_loss import plot_loss
            pictures.append(plot_loss(m, out))
    if want_trace and trace_path is not None:
        os.replace(trace_path, out / "trace.json")
    if not args.quiet:
        print(table)
        print()
    print(f"metrics:  {out / 'metrics.json'}  (sha256 {m['digest'][:16]})")
    if want_trace:
        print(f"trace:    {out / 'trace.json'}  (open in https://ui.perfetto.dev)")
    for pic in pictures:
        print(f"{'timeline:' if pic.endswith('timeline.png') else 'loss:    ' if pic.endswith('loss.png') else 'chart:   '} "
              f"{pic}")
    if no_pictures:
        print(no_pictures)
    code = 0 if result.status == "ok" else 1
    if result.status != "ok":
        print(f"simdist run: the simulated training failed: {result.error}", file=sys.stderr)
    if args.check_determinism:
        code = max(code, _check(sc, seed))
    return code


def _check(sc: Any, seed: int) -> int:
    from simdist.sim import DeterminismError, check_determinism
    from .runner import determinism_probe
    t0 = time.perf_counter()
    try:
        h = check_determinism(determinism_probe, sc.text, sc.file, list(sc.overrides), seed, fresh_process=True)
    except DeterminismError as e:
        print(f"determinism: FAILED: {e}", file=sys.stderr)
        return 1
    print(f"determinism: ok (3 runs, one in a fresh interpreter with another PYTHONHASHSEED; sha256 {h[:16]}; "
          f"{time.perf_counter() - t0:.1f} s)")
    return 0


def _dry_run(sc: Any, seed: int) -> int:
    from simdist.sim.units import format_bytes
    from .build import build_cluster
    from .runner import expand_variables
    from .schema import is_training_model
    cluster = build_cluster(sc)
    training = is_training_model(sc.config["model"])
    vs = [] if training else expand_variables(sc.config["model"])
    print(f"scenario {sc.name}: valid (sha256 {sc.digest[:16]})")
    print(f"  cluster   {len(cluster.hosts)} host(s), {len(cluster.devices())} devices, {len(cluster.links)} links")
    from .describe import cluster_lines
    for line in cluster_lines(cluster):
        print(line)
    print(f"  strategy  {sc.strategy}, {sc.plan['replicas']} {'workers' if sc.strategy == 'parameter_server' else 'replicas'}")
    if training:
        m, d, facts = sc.config["model"], sc.config["data"], sc.plan["training"]
        print(f"  model     {m.get('zoo') or m.get('function')} (tf.keras), trained on {facts['source']}: "
              f"{facts['train']:,} training / {facts['test']:,} held-out examples, {facts['classes']} classes, "
              f"batch {d['batch_size']}")
    else:
        print(f"  model     {len(vs)} variables, {sum(v.params for v in vs):,} parameters, "
              f"{format_bytes(sum(v.nbytes for v in vs))}")
    print(f"  training  {sc.config['training']['steps']} steps, seed {seed}")
    from .estimate import estimate
    e = estimate(sc, cluster)
    lo, hi = e["events"]
    wlo, whi = e["wall_s"]
    print(f"  estimate  {_approx(lo)}{'' if hi == lo else ' to ' + _approx(hi)} events, "
          f"~{format_bytes(e['memory_bytes'])} peak memory, ~{_duration(wlo)}"
          f"{'' if whi <= 1.5 * wlo else ' to ' + _duration(whi)} on the project's machine")
    if e["collective"]:
        print(f"            {e['collective']}")
    t = e.get("training")
    if t:
        print(f"            model {t['parameters']:,} parameters: {format_bytes(t['model_bytes'])} with gradients, "
              f"optimizer slots and the strategy's copies; activations {format_bytes(t['activation_bytes'])}; data "
              f"{format_bytes(t['data_bytes'])}")
    from .memory_check import available_bytes
    have = available_bytes()
    if have is not None and e["memory_bytes"] > have:
        print(f"            more than the {format_bytes(have)} available: `simdist run` will refuse it "
              "(--memory-limit 0 runs it anyway)")
    return 0


def _approx(n: float) -> str:
    for unit, k in (("G", 1e9), ("M", 1e6), ("k", 1e3)):
        if n >= k:
            return f"~{n / k:.3g}{unit}"
    return f"~{int(n)}"
