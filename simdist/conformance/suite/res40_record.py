"""Record what ``test_res40.py`` expects, on real TF 2.21 (needs ``tensorflow``).

    nice -n 10 python -m simdist.conformance.suite.res40_record [--out PATH]
"""

from __future__ import annotations

from typing import Any

from simdist.conformance.suite import common_record
from simdist.conformance.suite import res40_cases as cases
from simdist.conformance.suite import res40_reference as reference


def observe(tf: Any) -> dict[str, Any]:
    """Every case observed on TF."""
    return {"observed": {name: cases.observe(tf, name) for name, _, _ in cases.CASES}}


def main(argv: list[str] | None = None) -> int:
    return common_record.recorder_main(argv, __doc__, reference, observe,
                                       lambda data: f"{len(data['observed'])} cases")


if __name__ == "__main__":
    raise SystemExit(main())
