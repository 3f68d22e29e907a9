"""Record what ``test_kreuse.py`` expects, on real TF 2.21 + Keras 3.15 (needs ``tensorflow``).

    nice -n 10 python -m simdist.conformance.suite.kreuse_record [--out PATH]

Runs every case of kreuse_cases.cases() (in a fresh temporary directory each, after keras.backend.clear_session())
and writes kreuse_reference.PATH.
"""

from __future__ import annotations

import tempfile
from typing import Any

from simdist.conformance.suite import kreuse_cases as cases
from simdist.conformance.suite import kreuse_reference as reference
from simdist.conformance.suite import common_record


def observe_all(tf: Any) -> dict[str, Any]:
    """Every case observed on `tf`."""
    out = {}
    for name in cases.cases():
        tf.keras.backend.clear_session()
        with tempfile.TemporaryDirectory(prefix="kreuse_") as d:
            out[name] = cases.observe(tf, name, d)
    return {"observed": out}


def _summary(data: dict[str, Any]) -> str:
    return f"{len(data['observed'])} cases"


def main(argv: list[str] | None = None) -> int:
    return common_record.recorder_main(argv, __doc__, reference, observe_all, _summary)


if __name__ == "__main__":
    raise SystemExit(main())
