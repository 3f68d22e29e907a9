"""`simdist replay FILE --seed N`: rerun one run of a sweep exactly and check its sha256."""

from __future__ import annotations

import argparse
import json
import os
from pathlib import Path
from typing import Any


def register(sub: Any) -> None:
    p = sub.add_parser(
        "replay", help="reproduce one run of a sweep and check its hash",
        description="Rerun the run of a sweep with this seed (and --param values, when the sweep had several "
                    "parameter combinations) and compare the sha256 of its metrics with the one the sweep "
                    "recorded (or with --digest). Writes that run's outputs to --out so it can be inspected "
                    "(--trace, --plot). Exit 0 when the hash matches, 1 when it does not, 2 for bad input.",
        formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog="examples:\n"
               "  simdist replay scenarios/ps_spot_preemption.toml --seed 7 \\\n"
               "      --param faults.preemption_process.mtbf=10min --plot\n"
               "  simdist replay scenarios/mirrored_allreduce.toml --run 12 --sweep out/mirrored-allreduce-sweep")
    p.add_argument("file", help="the scenario file the sweep ran")
    p.add_argument("--seed", type=int, default=None, help="the run's seed")
    p.add_argument("--quick", action="store_true", help="the sweep ran with --quick")
    p.add_argument("--run", type=int, default=None, help="or: the run's row number in results.csv")
    p.add_argument("--param", action="append", default=[], metavar="KEY.PATH=VALUE",
                   help="the run's value of a swept parameter (repeatable)")
    p.add_argument("--sweep", default=None, metavar="DIR",
                   help="the sweep directory (default: out/<scenario name>-sweep)")
    p.add_argument("--digest", default=None, help="expected sha256 (instead of looking it up in --sweep)")
    p.add_argument("--out", default=None, help="where to write the run (default: out/<name>-replay-<run>)")
    p.add_argument("--trace", action="store_true", help="write the Chrome trace")
    p.add_argument("--plot", action="store_true", help="write timeline.png and utilisation.png")
    p.add_argument("--force", action="store_true", help="overwrite --out")
    p.add_argument("--quiet", action="store_true", help="do not print the run's summary table")
    from simdist.scenario.guard import add_arguments
    add_arguments(p, "the run")
    p.set_defaults(func=main)


def _rows(sweep: Path) -> list[dict[str, Any]]:
    journal = sweep / "runs.jsonl"
    from simdist.scenario.table import Journal
    return list(Journal(journal).read().values()) if journal.exists() else []


def main(args: argparse.Namespace) -> int:
    from simdist.scenario.loader import ScenarioError, load, parse_override
    from .plan import make_plan
    from simdist.scenario.outputs import default_out, prepare_out_dir, temp_name, usage_error

    from simdist.scenario.guard import limits_from, refuse
    limits = limits_from(args)
    try:
        sc = load(args.file, quick=args.quick)
    except ScenarioError as e:
        raise usage_error(str(e)) from None
    fixed = []
    for spec in args.param:
        try:
            fixed.append(parse_override(spec))
        except ValueError as e:
            raise usage_error(str(e)) from None
    sweep = Path(args.sweep or default_out(sc.name, "-sweep"))
    expected = args.digest
    if expected is not None:
        import re
        if not re.fullmatch(r"[0-9a-f]{64}", expected):
            raise usage_error(f"--digest {expected}: expected a sha256 as 64 hexadecimal digits (lower case), as "
                              "metrics.json's `digest` or results.csv's `digest` column holds it")
    spec_params: list[tuple[str, Any]] = list(fixed)
    seed = args.seed
    label = ""
    if expected is None:
        if not (sweep / "sweep.json").exists():
            raise usage_error(f"--sweep {sweep}: no sweep.json there; give the sweep directory with --sweep or the "
                              "expected hash with --digest")
        manifest = json.loads((sweep / "sweep.json").read_text(encoding="utf-8"))
        grid = [(k, v) for k, v in manifest.get("params", {}).items()]
        try:
            plan = make_plan(sc, manifest.get("seeds"), grid)
        except (ScenarioError, ValueError) as e:
            raise usage_error(f"the sweep in {sweep} does not fit {args.file}: {e}") from None
        if manifest.get("scenario_digest") != sc.digest:
            raise usage_error(f"{args.file} changed since the sweep in {sweep} ran (sha256 "
                              f"{manifest.get('scenario_digest', '')[:12]} vs {sc.digest[:12]}); replay needs the "
                              "same file")
        if args.run is not None:
            cands = [plan.runs[args.run]] if 0 <= args.run < len(plan.runs) else []
            if not cands:
                raise usage_error(f"--run {args.run}: the sweep in {sweep} has runs 0..{len(plan.runs) - 1} (the `run` "
                                  "column of its results.csv)")
        else:
            if seed is None:
                raise usage_error("give --seed N (with --param for swept values) or --run N")
            want = dict(fixed)
            cands = plan.runs.find(seed, want)
        if not cands:
            shown = " ".join(f"{k}={v}" for k, v in fixed) or "no --param values"
            raise usage_error(f"no run of the sweep in {sweep} has seed {seed} and {shown}")
        if len(cands) > 1:
            opts = "; ".join(" ".join(f"--param {k}={v}" for k, v in r.params) for r in cands[:6])
            raise usage_error(f"{'more than 6' if len(cands) > 6 else len(cands)} runs have seed {seed}; pick one "
                              f"with {opts}")
        spec = cands[0]
        rows = {r["run_id"]: r for r in _rows(sweep)}
        if spec.run_id not in rows:
            raise usage_error(f"run {spec.index} (seed {spec.seed}) has not finished in {sweep}; resume the sweep "
                              "first")
        expected = rows[spec.run_id]["digest"]
        if not expected:
            raise usage_error(f"run {spec.index} ended with status {rows[spec.run_id]['status']!r} and no hash: "
                              f"{rows[spec.run_id]['error']}")
        spec_params, seed, label = list(spec.params), spec.seed, str(spec.index)
    elif seed is None:
        raise usage_error("give --seed N with --digest")
    try:
        run_sc = sc.with_overrides(spec_params) if spec_params else sc
    except ScenarioError as e:
        raise usage_error(str(e)) from None
    refuse(run_sc, limits)   # before --out is touched
    out = prepare_out_dir(args.out or default_out(sc.name, f"-replay-{label or seed}"), args.force,
                          ("metrics.json", "trace.json", "timeline.png", "utilisation.png", "loss.png", "summary.txt"),
                          "replay")
    from simdist.scenario.interrupts import set_note
    set_note(f"the replay was not finished and {out} holds no result; rerun the same command with --force")
    trace_path = temp_name(out / "trace.json") if args.trace or args.plot else None
    try:
        return _replay(args, sc, run_sc, seed, out, trace_path, expected, spec_params)
    finally:
        if trace_path is not None:
            trace_path.unlink(missing_ok=True)


def _replay(args: argparse.Namespace, sc: Any, run_sc: Any, seed: int, out: Path, trace_path: Path | None,
            expected: str, spec_params: list[tuple[str, Any]]) -> int:
    from simdist.scenario.outputs import write_json, write_text
    from simdist.scenario.runner import run
    res = run(run_sc, seed, trace=str(trace_path) if trace_path else None)
    write_json(out / "metrics.json", res.metrics)
    from simdist.scenario.metrics import summary_table
    table = summary_table(res.metrics)
    write_text(out / "summary.txt", table + "\n")
    pictures: list[str] = []
    if args.plot and trace_path is not None:
        from simdist.scenario.plot import plot_run
        pictures = plot_run(trace_path, res.metrics, out)
        if res.metrics.get("training"):
            from simdist.scenario.plot_loss import plot_loss
            pictures.append(plot_loss(res.metrics, out))
    if args.trace and trace_path is not None:
        os.replace(trace_path, out / "trace.json")   # whole: an interrupted replay leaves no trace.json
    params = " ".join(f"{k}={v}" for k, v in spec_params)
    print(f"replay {sc.name} seed {seed}{' ' + params if params else ''}: status {res.status}")
    if not args.quiet:
        print(table)
        print()
    print(f"metrics:  {out / 'metrics.json'}")
    if args.trace:
        print(f"trace:    {out / 'trace.json'}  (open in https://ui.perfetto.dev)")
    for pic in pictures:
        print(f"{'timeline:' if pic.endswith('timeline.png') else 'loss:    ' if pic.endswith('loss.png') else 'chart:   '} "
              f"{pic}")
    if res.digest == expected:
        print(f"hash: ok (sha256 {res.digest})")
        return 0
    print(f"hash: MISMATCH: expected {expected}, got {res.digest}")
    return 1
