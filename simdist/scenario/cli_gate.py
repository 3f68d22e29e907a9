"""`simdist gate CURRENT --baseline BASELINE`: fail CI when a metric regressed beyond tolerance."""

from __future__ import annotations

import argparse
from typing import Any


def register(sub: Any) -> None:
    p = sub.add_parser(
        "gate", help="compare metrics (or sweep tables) with a baseline; exit 1 on a regression",
        description="Compare CURRENT with BASELINE: two metrics.json files (or run directories) or two sweep "
                    "tables (results.csv / results.parquet / sweep directories; compared per parameter "
                    "combination on the mean over successful runs). Prints a diff table, writes a JUnit XML "
                    "report on request (--junit), and exits 0 if nothing regressed, 1 on a regression (a metric worse than its "
                    "tolerance in its bad direction, or runs that failed or are missing), 2 for bad input.",
        formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog="examples:\n"
               "  simdist gate out/pr/metrics.json --baseline baselines/metrics.json\n"
               "  simdist gate out/pr-sweep --baseline baselines/sweep --tolerance examples_per_s=2%,simulated_time_s=2%\n"
               "  simdist gate out/pr --baseline baselines/pr --tolerance '*=0' --junit reports/gate.xml")
    p.add_argument("current", help="metrics.json, results.csv/.parquet, or a run/sweep directory")
    p.add_argument("--baseline", required=True, help="the same kind of input to compare against")
    p.add_argument("--tolerance", action="append", default=[], metavar="METRIC=5%,...",
                   help="per-metric tolerance: a percentage (5%%) or an absolute amount (0.01); '*' sets the "
                        "default; naming a neutral metric (e.g. preemptions) gates it in both directions")
    p.add_argument("--default-tolerance", default="5%", help="tolerance of metrics not named (default 5%%)")
    p.add_argument("--metrics", default=None, help="compare only these metrics (comma-separated)")
    p.add_argument("--junit", default=None, metavar="PATH",
                   help="also write a JUnit XML report to PATH (default: none; nothing is written into the working "
                        "directory unless asked)")
    p.add_argument("--only-changes", action="store_true", help="list only the metrics that changed")
    p.add_argument("--allow-different-scenario", action="store_true",
                   help="compare even when CURRENT and BASELINE come from different scenarios (name or sha256); "
                        "by default that is refused (exit 2)")
    p.set_defaults(func=main)


def main(args: argparse.Namespace) -> int:
    from .gate import compare, diff_table, junit_xml, load_side, parse_tolerance, parse_tolerances, same_scenario
    from .metrics import SUMMARY_METRICS
    from .outputs import check_file_path, usage_error, write_text
    junit = None if args.junit in (None, "-") else check_file_path(args.junit, "--junit")   # before any work
    try:
        tolerances = parse_tolerances(args.tolerance)
        default = parse_tolerance(args.default_tolerance)
        metrics = None
        if args.metrics:
            metrics = [m.strip() for m in args.metrics.split(",") if m.strip()]
            bad = [m for m in metrics if m not in SUMMARY_METRICS]
            if bad:
                from simdist.suggest import did_you_mean
                raise ValueError(f"--metrics: unknown metric {bad[0]}{did_you_mean(bad[0], SUMMARY_METRICS)} "
                                 f"(metrics are {', '.join(SUMMARY_METRICS)})")
        cur = load_side(args.current)
        base = load_side(args.baseline)
        differ = same_scenario(cur, base)
        if differ and not args.allow_different_scenario:
            raise ValueError(f"{differ} (rule: a gate compares runs of one scenario; refresh the baseline, or pass "
                             "--allow-different-scenario to compare anyway)")
        rows = compare(cur, base, tolerances, default, metrics)
    except ValueError as e:
        raise usage_error(str(e)) from None
    print(f"gate: {cur.path} vs baseline {base.path}")
    if differ:
        print(f"gate: note: {differ} (compared anyway: --allow-different-scenario)")
    print(diff_table(rows, args.only_changes))
    failed = [r for r in rows if r.failed]
    improved = [r for r in rows if r.verdict == "improved"]
    if junit is not None:
        write_text(junit, junit_xml(rows, cur.path, base.path))
        print(f"junit: {junit}")
    if failed:
        print(f"gate: FAILED: {len(failed)} regression(s) of {len(rows)} checks: "
              + ", ".join(f"{r.metric}" + (f" [{r.group}]" if len({x.group for x in rows}) > 1 else "")
                          for r in failed[:8]) + (" ..." if len(failed) > 8 else ""))
        return 1
    print(f"gate: passed ({len(rows)} checks" + (f", {len(improved)} improved" if improved else "") + ")")
    return 0
