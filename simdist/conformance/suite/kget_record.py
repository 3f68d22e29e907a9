"""Plan and record what ``test_kget.py`` expects, on real TF 2.21 + Keras 3.15 (needs ``tensorflow``).

    nice -n 10 python -m simdist.conformance.suite.kget_record [--out PATH]

The plan: for each module of kget_cases.MODULES, its public names on TF 2.21 (classes and functions, not submodules
or NOT_NAMES), each spelled as kget_cases.identifiers gives. Writes kget_reference.PATH.
"""

from __future__ import annotations

import inspect
from typing import Any

from simdist.conformance.suite import kget_cases as cases
from simdist.conformance.suite import kget_reference as reference
from simdist.conformance.suite import common_record


def plan(tf: Any) -> dict[str, list[str]]:
    """Each module's public names on TF."""
    out = {}
    for m in cases.MODULES:
        module = getattr(tf.keras, m)
        out[m] = sorted(n for n in dir(module) if not n.startswith("_") and n not in cases.NOT_NAMES
                        and not inspect.ismodule(getattr(module, n)))
    return out


def observe(tf: Any) -> dict[str, Any]:
    """The plan and TF's answer to each identifier."""
    names = plan(tf)
    observed = {m: {n: [cases.observe(tf, m, i) for i in cases.identifiers(n)] for n in names[m]}
                for m in cases.MODULES}
    return {"plan": names, "observed": observed}


def _summary(data: dict[str, Any]) -> str:
    return f"{sum(len(v) for v in data['plan'].values())} names in {len(data['plan'])} modules"


def main(argv: list[str] | None = None) -> int:
    return common_record.recorder_main(argv, __doc__, reference, observe, _summary)


if __name__ == "__main__":
    raise SystemExit(main())
