"""Record what ``test_rargs.py`` expects, on real TF 2.21 + Keras 3.15 (needs ``tensorflow``).

    nice -n 10 python -m simdist.conformance.suite.rargs_record [--out PATH]

The plan, from TF's signatures: each FUNCS entry's base call, then every parameter of the function's signature
that the entry or rargs_cases.COMMON lists, set to each of its edge values one at a time, in each mode. Each case
is observed twice (one whose two observations differ is left out: not determined by its seeds on TF). Writes
rargs_reference.PATH.
"""

from __future__ import annotations

import argparse
import inspect
import sys
from typing import Any

from simdist.conformance.suite import observations
from simdist.conformance.suite import rargs_cases as cases
from simdist.conformance.suite import rargs_reference as reference
from simdist.conformance.suite import reference_store


def plan(tf: Any) -> list[dict[str, Any]]:
    """The cases: {"fn", "args", "mode"} in order."""
    out: list[dict[str, Any]] = []
    for path, (base, edges) in cases.FUNCS.items():
        params = list(inspect.signature(cases._resolve(tf, path)).parameters)
        variants = [base]
        for name in params:
            for v in edges.get(name, []) + cases.COMMON.get(name, []) * (name in base):
                if base.get(name, "<unset>") != v and (path, name, v) not in cases.ABORTS:
                    variants.append({**base, name: v})
        out += [{"fn": path, "args": args, "mode": mode} for args in variants for mode in cases.MODES]
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", default=reference.PATH)
    args = ap.parse_args(argv)

    def observe(tf: Any) -> dict[str, Any]:
        return observations.observed_twice(plan(tf), lambda c: cases.observe(tf, c["fn"], c["args"], c["mode"]))

    data = reference_store.record(lambda d: reference.save(d, args.out), reference.tables_hash(), observe)
    kept, skipped = data["plan"], data["skipped"]
    print(f"wrote {args.out}: {len(kept)} cases ({len(skipped)} left out)", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
