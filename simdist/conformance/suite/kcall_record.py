"""Plan and record what ``test_kcall.py`` expects, on real TF 2.21 + Keras 3.15 (needs ``tensorflow``).

    nice -n 10 python -m simdist.conformance.suite.kcall_record [--out PATH]

The plan comes from TF's own layer classes (kcall_cases.call_variants): every layer of kargs' plan (its required
arguments, input shape and kind; kargs_reference) and the attention layers of ATTENTION, in the default
configuration, called plainly (with compute_mask asked) and with each call-argument variant. A variant whose two
observations on TF differ is left out (not determined). Writes kcall_reference.PATH.
"""

from __future__ import annotations

from typing import Any

from simdist.conformance.suite import kargs_reference
from simdist.conformance.suite import kcall_cases as cases
from simdist.conformance.suite import kcall_reference as reference
from simdist.conformance.suite import common_record


def plan(tf: Any) -> tuple[list[dict[str, Any]], dict[str, str]]:
    """(the variants, the variants left out with why), from TF's layer classes."""
    bases, seen = [], set()
    for v in kargs_reference.load()["plan"]:
        if v["layer"] not in seen:
            seen.add(v["layer"])
            bases.append({"layer": v["layer"], "kwargs": v["kwargs"], "shape": v["shape"], "kind": v["kind"]})
    bases += [{"layer": n, "kwargs": kw, "shape": list(cases.QUERY), "kind": "attention"}
              for n, kw in sorted(cases.ATTENTION.items())]
    out: list[dict[str, Any]] = []
    skipped: dict[str, str] = {}
    for base in bases:
        calls = cases.call_variants(getattr(tf.keras.layers, base["layer"]), 2 if base["kind"] == "attention" else 1)
        for call in [{}] + calls:
            variant = {**base, "call": call}
            if cases.observe(tf, variant) != cases.observe(tf, variant):
                skipped[f"{base['layer']}{call}"] = "two observations differ on TF (not determined)"
                continue
            out.append(variant)
    return out, skipped


def observe(tf: Any) -> dict[str, Any]:
    """The plan and TF's observation of each variant."""
    variants, skipped = plan(tf)
    return {"plan": variants, "skipped": skipped, "observed": [cases.observe(tf, v) for v in variants]}


def _summary(data: dict[str, Any]) -> str:
    layers = len({v["layer"] for v in data["plan"]})
    return f"{len(data['plan'])} variants of {layers} layers ({len(data['skipped'])} left out)"


def main(argv: list[str] | None = None) -> int:
    return common_record.recorder_main(argv, __doc__, reference, observe, _summary)


if __name__ == "__main__":
    raise SystemExit(main())
