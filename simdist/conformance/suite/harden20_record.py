"""Record what ``test_harden20_edges_*.py`` expect, on real TF 2.21 + Keras 3.15 (needs ``tensorflow``).

    nice -n 10 python -m simdist.conformance.suite.harden20_record [--out PATH] [--only NAME ...]

``--only`` re-records the named targets into the existing recording (the others kept as recorded; every
target's observation is deterministic, which the tests check on the tensorflow backend) and drops
targets no longer in the table.

For every target of harden20_cases: the constants of TF's own source (harden20_edges, run on real TF's
tf.keras and tf.nn), the edge inputs derived from them, and TF's observation of the target on them.
Writes :data:`harden20_reference.PATH` (gzip'd JSON, the same bytes for the same data).
"""

from __future__ import annotations

import argparse
import sys
from typing import Any

from simdist.conformance.suite import harden20_cases as cases
from simdist.conformance.suite import harden20_reference as reference


def record(tf: Any, names: list[str] | None = None) -> dict[str, Any]:
    """Every target's constants, edges and observation, on the given (real) tf module."""
    out: dict[str, Any] = {}
    for t in cases.TARGETS:
        if names and t.name not in names:
            continue
        e = cases.derive_edges(tf, t)
        try:
            obs: Any = cases.observe(tf, t, e)
        except Exception as err:  # noqa: BLE001 - a refusal is recorded as its class
            obs = {"error": type(err).__name__}
            print(f"{t.name}: {type(err).__name__}: {str(err)[:200]}", file=sys.stderr)
        out[t.name] = {"edges": e, "observed": obs}
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", default=reference.PATH)
    ap.add_argument("--only", nargs="*")
    args = ap.parse_args(argv)
    from simdist.conformance.backends.tf_backend import TensorFlowBackend  # noqa: PLC0415

    backend = TensorFlowBackend()
    backend.setup()
    tf = backend.tf
    import keras  # noqa: PLC0415

    targets = record(tf, args.only)
    if args.only:
        kept = {t.name for t in cases.TARGETS}
        targets = {**{k: v for k, v in reference.load(args.out)["targets"].items() if k in kept}, **targets}
    data = {"meta": {"tensorflow": tf.__version__, "keras": keras.__version__, "tables": reference.tables_hash()},
            "targets": targets}
    reference.save(data, args.out)
    print(f"wrote {args.out}: {len(data['targets'])} targets", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
