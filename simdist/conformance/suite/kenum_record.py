"""Plan and record what ``test_kenum.py`` expects, on real TF 2.21 + Keras 3.15 (needs ``tensorflow``).

    nice -n 10 python -m simdist.conformance.suite.kenum_record [--out PATH]

The plan comes from TF's own classes (kenum_cases.documented_values): every layer of kargs' plan (its required
arguments, input shape and kind; kargs_reference) and the string layers of STRING_LAYERS, every loss of
harden19_training.LOSS_CASES and metric of METRIC_CASES; for each, its default configuration, then each documented
value of each string or None-defaulted argument, and each sequence-valued default reversed
(kenum_cases.reordered_values), and each list harden20b's grids give a metric's option reversed (grid_sequences). A
class whose default configuration gives two different observations on TF is left out (not determined). Writes
kenum_reference.PATH.
"""

from __future__ import annotations

from typing import Any

from simdist.conformance.suite import harden19_training as training
from simdist.conformance.suite import kargs_reference
from simdist.conformance.suite import kenum_cases as cases
from simdist.conformance.suite import kenum_reference as reference
from simdist.conformance.suite import common_record


def _bases() -> list[dict[str, Any]]:
    """Each class's default variant: kargs' layers, the string layers, the losses, the metrics."""
    out, seen = [], set()
    for v in kargs_reference.load()["plan"]:
        if v["layer"] not in seen:
            seen.add(v["layer"])
            out.append({"kind": "layer", "cls": v["layer"], "kwargs": v["kwargs"], "shape": v["shape"],
                        "input": v["kind"]})
    out += [{"kind": "string_layer", "cls": n, "kwargs": {}} for n in sorted(cases.STRING_LAYERS)]
    out += [{"kind": "loss", "cls": n, "kwargs": {}} for n in sorted(training.LOSS_CASES)]
    out += [{"kind": "metric", "cls": n, "kwargs": {}} for n in sorted(training.METRIC_CASES)]
    return out


def plan(tf: Any) -> tuple[list[dict[str, Any]], dict[str, str]]:
    """(the variants, the classes left out with why), from TF's classes."""
    spaces = {"layer": "layers", "string_layer": "layers", "loss": "losses", "metric": "metrics"}
    out: list[dict[str, Any]] = []
    skipped: dict[str, str] = {}
    for base in _bases():
        cls = getattr(getattr(tf.keras, spaces[base["kind"]]), base["cls"], None)
        if cls is None:
            skipped[base["cls"]] = "not in TF 2.21's tf.keras"
            continue
        values = (cases.documented_values(cls) + cases.reordered_values(cls)
                  + cases.grid_sequences(base["kind"], base["cls"]))
        if not values:
            continue
        if cases.observe(tf, base) != cases.observe(tf, base):
            skipped[base["cls"]] = "two observations differ on TF (not determined)"
            continue
        out.append(base)
        for name, words in values:
            out += [{**base, "kwargs": {**base["kwargs"], name: w}} for w in words]
    return out, skipped


def observe(tf: Any) -> dict[str, Any]:
    """The plan and TF's observation of each variant."""
    variants, skipped = plan(tf)
    return {"plan": variants, "skipped": skipped, "observed": [cases.observe(tf, v) for v in variants]}


def _summary(data: dict[str, Any]) -> str:
    classes = len({v["cls"] for v in data["plan"]})
    return f"{len(data['plan'])} variants of {classes} classes ({len(data['skipped'])} left out)"


def main(argv: list[str] | None = None) -> int:
    return common_record.recorder_main(argv, __doc__, reference, observe, _summary)


if __name__ == "__main__":
    raise SystemExit(main())
