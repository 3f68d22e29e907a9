"""Plan and record what ``test_kopsenum.py`` expects, on real TF 2.21 + Keras 3.15 (needs ``tensorflow``).

    nice -n 10 python -m simdist.conformance.suite.kopsenum_record [--out PATH]

The plan: for each function of kops23's table, kopsenum_cases.option_values of TF's function for its first case. A
variant whose two observations on TF differ is left out (not determined). Writes kopsenum_reference.PATH.
"""

from __future__ import annotations

import json
from typing import Any

from simdist.conformance.suite import kops23_cases
from simdist.conformance.suite import kopsenum_cases as cases
from simdist.conformance.suite import kopsenum_reference as reference
from simdist.conformance.suite import common_record


def plan(keras: Any) -> tuple[list[dict[str, Any]], dict[str, str]]:
    """(the variants, those left out with why)."""
    out, skipped = [], {}
    for fn, base in cases.bases().items():
        for option, value in cases.option_values(kops23_cases._resolve(keras, fn), base):
            json.dumps(value)   # (the recording holds the value as JSON: an unencodable one fails here, at planning)
            entry = {"base": kops23_cases.key(base), "option": option, "value": value}
            case = cases.variant(entry)
            if kops23_cases.observe(keras, case) != kops23_cases.observe(keras, case):
                skipped[case.label] = "two observations differ on TF (not determined)"
                continue
            out.append(entry)
    return out, skipped


def observe(tf: Any) -> dict[str, Any]:
    """The plan and TF's observation of each variant."""
    variants, skipped = plan(tf.keras)
    return {"plan": variants, "skipped": skipped,
            "observed": [kops23_cases.observe(tf.keras, cases.variant(v)) for v in variants]}


def _summary(data: dict[str, Any]) -> str:
    functions = len({v["base"] for v in data["plan"]})
    return f"{len(data['plan'])} variants of {functions} functions ({len(data['skipped'])} left out)"


def main(argv: list[str] | None = None) -> int:
    return common_record.recorder_main(argv, __doc__, reference, observe, _summary)


if __name__ == "__main__":
    raise SystemExit(main())
