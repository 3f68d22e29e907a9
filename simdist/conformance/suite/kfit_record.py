"""Plan and record what ``test_kfit.py`` expects, on real TF 2.21 + Keras 3.15 (needs ``tensorflow``).

    nice -n 10 python -m simdist.conformance.suite.kfit_record [--out PATH]

The plan comes from TF's own signatures (kfit_cases): for each method of DATA and each data kind it takes, the base
call, then every parameter of the method's signature that EDGES lists set to each of its values (one at a time;
a value equal to the base call's is skipped), then the pairs of PAIRS whose arguments the method takes. Each case is observed twice (a case
whose observations differ on TF is left out: not determined). Writes kfit_reference.PATH.
"""

from __future__ import annotations

import argparse
import inspect
import sys
from typing import Any

from simdist.conformance.suite import kfit_cases as cases
from simdist.conformance.suite import observations
from simdist.conformance.suite import kfit_reference as reference
from simdist.conformance.suite import reference_store


def plan(tf: Any) -> list[dict[str, Any]]:
    """The cases: {"method", "kind", "args"} in order, from TF's signatures."""
    out: list[dict[str, Any]] = []
    for method, kinds in cases.DATA.items():
        params = [p.name for p in list(inspect.signature(getattr(tf.keras.Model, method)).parameters.values())[1:]]
        for kind in kinds:
            base = cases.base_args(method, kind)
            out.append({"method": method, "kind": kind, "args": base})
            for name in params:
                for v in cases.EDGES.get(name, []):
                    if base.get(name) != v:
                        out.append({"method": method, "kind": kind, "args": {**base, name: v}})
            out += [{"method": method, "kind": kind, "args": {**base, **pair}} for pair in cases.PAIRS
                    if all(name in params for name in pair)]
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", default=reference.PATH)
    args = ap.parse_args(argv)

    def observe(tf: Any) -> dict[str, Any]:
        return observations.observed_twice(plan(tf), lambda c: cases.observe(tf, c["method"], c["args"]))

    data = reference_store.record(lambda d: reference.save(d, args.out), reference.tables_hash(), observe)
    kept, skipped = data["plan"], data["skipped"]
    print(f"wrote {args.out}: {len(kept)} cases ({len(skipped)} left out)", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
