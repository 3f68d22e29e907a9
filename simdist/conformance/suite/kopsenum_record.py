"""Plan and record what ``test_kopsenum.py`` expects, on real TF 2.21 + Keras 3.15 (needs ``tensorflow``).

    nice -n 10 python -m simdist.conformance.suite.kopsenum_record [--out PATH]

The plan: for each function of kops23's table, kopsenum_cases.option_values of TF's function for its first case. A
variant whose two observations on TF differ is left out (not determined). Writes kopsenum_reference.PATH.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from simdist.conformance.suite import kops23_cases
from simdist.conformance.suite import kopsenum_cases as cases
from simdist.conformance.suite import kopsenum_reference as reference
from simdist.conformance.suite import reference_store


def plan(keras: Any) -> tuple[list[dict[str, Any]], dict[str, str]]:
    """(the variants, those left out with why)."""
    out, skipped = [], {}
    for fn, base in cases.bases().items():
        for option, value in cases.option_values(kops23_cases._resolve(keras, fn), base):
            json.dumps(value)
            entry = {"base": kops23_cases.key(base), "option": option, "value": value}
            case = cases.variant(entry)
            if kops23_cases.observe(keras, case) != kops23_cases.observe(keras, case):
                skipped[case.label] = "two observations differ on TF (not determined)"
                continue
            out.append(entry)
    return out, skipped


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", default=reference.PATH)
    args = ap.parse_args(argv)

    def observe(tf: Any) -> dict[str, Any]:
        variants, skipped = plan(tf.keras)
        return {"plan": variants, "skipped": skipped,
                "observed": [kops23_cases.observe(tf.keras, cases.variant(v)) for v in variants]}

    data = reference_store.record(lambda d: reference.save(d, args.out), reference.tables_hash(), observe)
    print(f"wrote {args.out}: {len(data['plan'])} variants of {len({v['base'] for v in data['plan']})} functions "
          f"({len(data['skipped'])} left out)", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
