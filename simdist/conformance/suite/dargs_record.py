"""Plan and record what ``test_dargs.py`` expects, on real TF 2.21 (needs ``tensorflow``).

    nice -n 10 python -m simdist.conformance.suite.dargs_record [--out PATH]

The plan: each method of dargs_cases' REQUIRED table, its required arguments alone, then each argument of TF's
signature (SKIP aside) at dargs_cases.int_variants or negated. A variant whose two observations on TF differ is
left out (not determined). Writes dargs_reference.PATH.
"""

from __future__ import annotations

import inspect
from typing import Any

from simdist.conformance.suite import dargs_cases as cases
from simdist.conformance.suite import dargs_reference as reference
from simdist.conformance.suite import common_record


def plan(tf: Any) -> tuple[list[dict[str, Any]], dict[str, str]]:
    """(the variants, those left out with why), from TF's signatures."""
    out: list[dict[str, Any]] = []
    skipped: dict[str, str] = {}
    required = cases._required(tf)
    for method in sorted(required):
        owner = tf.data.Dataset if method in cases.STATIC else tf.data.Dataset.range(1)
        variants: list[dict[str, Any]] = [{}]
        for p in inspect.signature(getattr(owner, method)).parameters.values():
            if p.name in cases.SKIP or p.kind in (p.VAR_POSITIONAL, p.VAR_KEYWORD):
                continue
            req = p.default is inspect.Parameter.empty
            if isinstance(p.default, bool):
                variants.append({p.name: not p.default})
            elif (req and p.name in cases.REQUIRED_INTS) or (isinstance(p.default, int) and not req) \
                    or (p.default is None and p.name in cases.OPTIONAL_INTS):
                variants += [{p.name: v} for v in cases.int_variants(None if req else p.default, req)]
        for kw in variants:
            if cases.observe(tf, method, kw) != cases.observe(tf, method, kw):
                skipped[f"{method}{kw}"] = "two observations differ on TF (not determined)"
                continue
            out.append({"method": method, "kwargs": kw})
    return out, skipped


def observe(tf: Any) -> dict[str, Any]:
    """The plan and TF's observation of each variant."""
    variants, skipped = plan(tf)
    return {"plan": variants, "skipped": skipped,
            "observed": [cases.observe(tf, v["method"], v["kwargs"]) for v in variants]}


def _summary(data: dict[str, Any]) -> str:
    methods = len({v["method"] for v in data["plan"]})
    return f"{len(data['plan'])} variants of {methods} methods ({len(data['skipped'])} left out)"


def main(argv: list[str] | None = None) -> int:
    return common_record.recorder_main(argv, __doc__, reference, observe, _summary)


if __name__ == "__main__":
    raise SystemExit(main())
