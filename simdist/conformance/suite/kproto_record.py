"""Record what ``test_kproto.py`` expects, on real TF 2.21 + Keras 3.15 (needs ``tensorflow``).

    nice -n 10 python -m simdist.conformance.suite.kproto_record [--out PATH]

The plan is kargs': every layer of kargs_reference's plan in its default configuration (the first variant
recorded for it), with the input shape and kind it accepts on TF. Each is observed twice (a layer whose two
observations differ is left out: not determined on TF). Writes kproto_reference.PATH.
"""

from __future__ import annotations

import argparse
import sys
from typing import Any

from simdist.conformance.suite import kargs_cases
from simdist.conformance.suite import kargs_reference
from simdist.conformance.suite import kproto_cases as cases
from simdist.conformance.suite import kproto_reference as reference
from simdist.conformance.suite import reference_store


def plan() -> list[dict[str, Any]]:
    """kargs' default configuration of each layer, in its order."""
    seen: set[str] = set()
    out = []
    for v in kargs_reference.load()["plan"]:
        if v["layer"] not in seen:
            seen.add(v["layer"])
            out.append({"layer": v["layer"], "kwargs": v["kwargs"], "shape": v["shape"], "kind": v["kind"]})
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", default=reference.PATH)
    args = ap.parse_args(argv)

    def observe(tf: Any) -> dict[str, Any]:
        layers, observed, skipped = [], [], {}
        for v in plan():
            args_ = (tf, v["layer"], kargs_cases.as_kwargs(v["kwargs"]), tuple(v["shape"]), v["kind"])
            first = cases.observe(*args_)
            if cases.observe(*args_) != first:
                skipped[v["layer"]] = "two observations differ on TF (not determined)"
                continue
            layers.append(v)
            observed.append(first)
        return {"plan": layers, "skipped": skipped, "observed": observed}

    data = reference_store.record(lambda d: reference.save(d, args.out), reference.tables_hash(), observe)
    layers, skipped = data["plan"], data["skipped"]
    print(f"wrote {args.out}: {len(layers)} layers ({len(skipped)} left out)", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
