"""Plan and record what ``test_kbase.py`` expects, on real TF 2.21 + Keras 3.15 (needs ``tensorflow``).

    nice -n 10 python -m simdist.conformance.suite.kbase_record [--out PATH]

The plan comes from TF's own layer classes: each layer of kbase_cases.BASES in its base configuration, then each
of its constructor arguments at kbase_cases.constructor_values; each layer of kargs' plan (its required arguments,
input shape and kind; kargs_reference) with each typed None-defaulted argument at kbase_cases.typed_none_values. A
layer whose base gives two different observations on TF is left out (not determined). Writes kbase_reference.PATH.
"""

from __future__ import annotations

from typing import Any

from simdist.conformance.suite import common_record, kargs_reference
from simdist.conformance.suite import kbase_cases as cases
from simdist.conformance.suite import kbase_reference as reference


def plan(tf: Any) -> tuple[list[dict[str, Any]], dict[str, str]]:
    """(the variants, the layers left out with why), from TF's layer classes."""
    out: list[dict[str, Any]] = []
    skipped: dict[str, str] = {}
    for name, (kwargs, _, _) in sorted(cases.BASES.items()):
        base = {"layer": name, "kwargs": kwargs}
        first = cases.observe(tf, base)
        if "out" not in first or cases.observe(tf, base) != first:
            skipped[name] = f"the base is refused on TF ({first})" if "out" not in first else "two calls differ on TF"
            continue
        out.append(base)
        for arg, values in cases.constructor_values(getattr(tf.keras.layers, name), kwargs):
            out += [{"layer": name, "kwargs": {**kwargs, arg: v}} for v in values]
    seen: set[str] = set()
    for v in kargs_reference.load()["plan"]:
        if v["layer"] in seen:
            continue
        seen.add(v["layer"])
        for arg, values in cases.typed_none_values(getattr(tf.keras.layers, v["layer"])):
            out += [{**v, "kwargs": {**v["kwargs"], arg: x}} for x in values if arg not in v["kwargs"]]
    return out, skipped


def observe(tf: Any) -> dict[str, Any]:
    """The plan and TF's observation of each variant."""
    variants, skipped = plan(tf)
    return {"plan": variants, "skipped": skipped, "observed": [cases.observe(tf, v) for v in variants]}


def _summary(data: dict[str, Any]) -> str:
    return (f"{len(data['plan'])} variants of {len({v['layer'] for v in data['plan']})} layers "
            f"({len(data['skipped'])} left out)")


def main(argv: list[str] | None = None) -> int:
    return common_record.recorder_main(argv, __doc__, reference, observe, _summary)


if __name__ == "__main__":
    raise SystemExit(main())
