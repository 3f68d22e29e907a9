"""Record what ``test_harden20b_trained_*.py`` expect, on real TF 2.21 + Keras 3.15 (needs ``tensorflow``).

    nice -n 10 python -m simdist.conformance.suite.harden20b_record [--out PATH]

Every case of every grid of harden20b_tables, run by harden20b_programs through the suite's
tensorflow backend, and the constructor signature of every class the grids cover (option names,
for the coverage test). Writes :data:`harden20b_reference.PATH` (gzip'd JSON, the same bytes for
the same data). About 10 minutes of CPU on a loaded host.
"""

from __future__ import annotations

import argparse
import inspect
import sys
from typing import Any

from simdist.conformance.suite import harden20b_programs as programs
from simdist.conformance.suite import harden20b_reference as reference
from simdist.conformance.suite import harden20b_tables as tables

KINDS = ("optimizers", "layers", "metrics", "losses")
NAMESPACES = {"optimizers": "optimizers", "layers": "layers", "metrics": "metrics", "losses": "losses"}


def signature(cls: Any) -> list[str]:
    """The constructor's option names (not self, *args, **kwargs), in order."""
    return [p.name for p in inspect.signature(cls.__init__).parameters.values()
            if p.name != "self" and p.kind not in (p.VAR_POSITIONAL, p.VAR_KEYWORD)]


def record(tf: Any, kinds: tuple[str, ...] = KINDS) -> dict[str, Any]:
    """The observations of every case of the given kinds' grids, and their classes' signatures."""
    keras = tf.keras
    runners = {"optimizers": programs.observe_optimizer, "layers": programs.observe_layer,
               "metrics": lambda tf_, n, c: programs.observe_metric(tf_.keras, n, c), "losses": programs.observe_loss}
    data: dict[str, Any] = {"signatures": {}}
    for kind, grids in tables.all_cases().items():
        if kind not in kinds:
            continue
        data[kind] = {}
        for name, cases in grids.items():
            print(f"{kind}.{name}: {len(cases)} cases", file=sys.stderr, flush=True)
            data[kind][name] = [runners[kind](tf, name, case) for case in cases]
            data["signatures"][f"{kind}.{name}"] = signature(getattr(getattr(keras, NAMESPACES[kind]), name))
    return data


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", default=reference.PATH)
    ap.add_argument("--kinds", nargs="+", choices=KINDS, default=list(KINDS),
                    help="re-record only these kinds into the existing recording (the others kept)")
    args = ap.parse_args(argv)
    from simdist.conformance.backends.tf_backend import TensorFlowBackend  # noqa: PLC0415

    backend = TensorFlowBackend()
    backend.setup()
    tf = backend.tf
    import keras  # noqa: PLC0415

    data = reference.load(args.out) if set(args.kinds) != set(KINDS) else {"signatures": {}}
    fresh = record(tf, tuple(args.kinds))
    data.update({k: v for k, v in fresh.items() if k != "signatures"})
    data["signatures"].update(fresh["signatures"])
    data["meta"] = {"tensorflow": tf.__version__, "keras": keras.__version__, "tables": reference.tables_hash()}
    reference.save(data, args.out)
    print(f"wrote {args.out}: " + ", ".join(f"{sum(len(v) for v in data[k].values())} {k} cases"
                                           for k in ("optimizers", "layers", "metrics", "losses")), file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
