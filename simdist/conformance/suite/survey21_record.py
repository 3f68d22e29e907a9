"""Record what ``test_survey21_*.py`` expect, on real TF 2.21 + Keras 3.15 (needs ``tensorflow``).

    nice -n 10 python -m simdist.conformance.suite.survey21_record [--out PATH] [--only NAME ...]

Runs every case of survey21_cases twice on the real tf (a case must give the same output both times:
its randomness is seeded) and writes :data:`survey21_reference.PATH` with each case's output and the
hash of its source.
"""

from __future__ import annotations

import argparse
import sys
from typing import Any

from simdist.conformance.suite import survey21_cases as cases
from simdist.conformance.suite import survey21_reference as reference


def record(tf: Any, only: list[str] | None = None) -> dict[str, Any]:
    """Every case's output (or those whose name contains one of `only`) on the given (real) tf module."""
    out: dict[str, Any] = {}
    for family, table in sorted(cases.FAMILIES.items()):
        for name, fn in table:
            if only and not any(o in name for o in only):
                continue
            first = reference.observe(tf, fn)
            again = reference.observe(tf, fn)
            if reference.differences(again, first):
                raise SystemExit(f"{family}/{name}: two runs on TF differ: not deterministic")
            if isinstance(first, dict) and "error" in first:
                print(f"{family}/{name}: {first['error']}", file=sys.stderr)
            out[f"{family}/{name}"] = {"hash": reference.case_hash(fn), "observed": first}
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", default=reference.PATH)
    ap.add_argument("--only", nargs="*", help="re-record the cases whose names contain one of these, keep the rest")
    args = ap.parse_args(argv)
    from simdist.conformance.backends.tf_backend import TensorFlowBackend  # noqa: PLC0415

    backend = TensorFlowBackend()
    backend.setup()
    tf = backend.tf
    import keras  # noqa: PLC0415

    got = record(tf, args.only)
    if args.only:
        names = {f"{f}/{n}" for f, t in cases.FAMILIES.items() for n, _ in t}
        got = {**{k: v for k, v in reference.load(args.out)["cases"].items() if k in names}, **got}
    data = {"meta": {"tensorflow": tf.__version__, "keras": keras.__version__}, "cases": dict(sorted(got.items()))}
    reference.save(data, args.out)
    print(f"wrote {args.out}: {len(data['cases'])} cases", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
