"""Record what ``test_kmuse.py`` expects, on real TF 2.21 + Keras 3.15 (needs ``tensorflow``).

    nice -n 10 python -m simdist.conformance.suite.kmuse_record [--out PATH]

Every metric of harden19_training.METRIC_CASES observed by kmuse_cases.observe; a metric whose two observations
differ on TF is left out (not determined). Writes kmuse_reference.PATH.
"""

from __future__ import annotations

from typing import Any

from simdist.conformance.suite import common_record
from simdist.conformance.suite import harden19_training as training
from simdist.conformance.suite import kmuse_cases as cases
from simdist.conformance.suite import kmuse_reference as reference


def observe(tf: Any) -> dict[str, Any]:
    """The metrics and TF's observation of each."""
    names, skipped, observed = [], {}, []
    for name in sorted(training.METRIC_CASES):
        first = cases.observe(tf, name)
        if cases.observe(tf, name) != first:
            skipped[name] = "two observations differ on TF (not determined)"
            continue
        names.append(name)
        observed.append(first)
    return {"plan": names, "skipped": skipped, "observed": observed}


def _summary(data: dict[str, Any]) -> str:
    return f"{len(data['plan'])} metrics ({len(data['skipped'])} left out)"


def main(argv: list[str] | None = None) -> int:
    return common_record.recorder_main(argv, __doc__, reference, observe, _summary)


if __name__ == "__main__":
    raise SystemExit(main())
