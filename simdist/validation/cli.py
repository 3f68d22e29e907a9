"""`simdist validate`: the validation table of docs/validation.md, re-run on this simdist.

Prints the table (id, published, simdist, error, split) and the summary (median and max |error|
overall, on the fit and holdout halves, by kind); with ``--out DIR`` writes DIR/validation-table.md
(docs-ready markdown) and DIR/validation.png (simulated vs published, log-log). ``--fit``
re-fits the global NCCL factors on the fit half and prints them (the table still uses the
factors in simdist.sim.nccl.FACTORS). ``--hidden`` runs the hidden-set proxy instead (issue
26's third round: sources the model had not seen, outside the table and its fit). Exit code 1
when the summary breaks ``--max-median`` / ``--max-error`` (given as fractions), so CI can hold
the doc's claim.
"""

from __future__ import annotations

import argparse
import os
from typing import Any

__all__ = ["register"]


def register(sub: Any) -> None:
    p = sub.add_parser("validate", help="re-run the validation table against published measurements",
                       description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--out", metavar="DIR", help="write DIR/validation-table.md and DIR/validation.png")
    p.add_argument("--kind", action="append", choices=("collective", "compute", "training"),
                   help="only rows of this kind (repeatable)")
    p.add_argument("--hidden", action="store_true",
                   help="the hidden-set proxy (issue 26's third round) instead of the table: rows from sources "
                        "the model had not seen, kept out of the table and its fit")
    p.add_argument("--fit", action="store_true", help="re-fit the global NCCL factors on the fit half and print them")
    p.add_argument("--max-median", type=float, metavar="F", help="fail (exit 1) if the overall median |error| > F")
    p.add_argument("--max-error", type=float, metavar="F", help="fail (exit 1) if the overall max |error| > F")
    p.set_defaults(func=_run)


def _run(args: argparse.Namespace) -> int:
    from simdist.usage import UsageError
    from . import harness
    try:
        rows, missing = harness.collect(args.kind, harness.HIDDEN_MODULES if args.hidden else harness.ROW_MODULES)
    except ValueError as e:
        raise UsageError(str(e)) from e
    if not rows:
        raise UsageError("no rows to validate" + (f" (missing: {', '.join(missing)})" if missing else ""))
    results = harness.evaluate(rows)
    summary = harness.summarize(results)
    print(harness.format_table(results))
    print()
    print(harness.format_summary(summary, missing))
    if args.fit:
        factors, s = harness.fit_factors(rows)
        print(f"\nfitted on {int(s['n'])} fit rows: {factors} (median |error| {s['median']:.1%}, "
              f"max {s['max']:.1%})")
    if args.out:
        os.makedirs(args.out, exist_ok=True)
        md = os.path.join(args.out, "validation-table.md")
        with open(md, "w", encoding="utf-8") as f:
            f.write(harness.markdown(results, summary, missing))
        png = os.path.join(args.out, "validation.png")
        harness.plot(results, png)
        print(f"\nwrote {md} and {png}")
    ok = True
    overall = summary["overall"]
    if args.max_median is not None and overall["median"] > args.max_median:
        print(f"FAIL: overall median |error| {overall['median']:.1%} > {args.max_median:.1%}")
        ok = False
    if args.max_error is not None and overall["max"] > args.max_error:
        print(f"FAIL: overall max |error| {overall['max']:.1%} > {args.max_error:.1%}")
        ok = False
    return 0 if ok else 1   # (the CLI's EXIT_OK / EXIT_FAILURE: the table holds, or breaks a bound)
