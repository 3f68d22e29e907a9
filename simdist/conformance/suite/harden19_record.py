"""Record what ``test_harden19_defaults_*.py`` expect, on real TF 2.21 + Keras 3.15 (needs ``tensorflow``).

    nice -n 10 python -m simdist.conformance.suite.harden19_record [--out PATH]

For every class harden16 enumerates (its recording's classes), TF's config at the class's defaults
(harden19_configs); then every program of harden19_layers and harden19_training run through the
suite's tensorflow backend. Writes :data:`harden19_reference.PATH` (gzip'd JSON, the same bytes for
the same data). About 3 minutes of CPU.
"""

from __future__ import annotations

import argparse
import sys
from typing import Any

from simdist.conformance.suite import harden16_reference, harden19_configs, harden19_layers, harden19_reference
from simdist.conformance.suite import harden19_training as training


def enumerated_classes() -> list[tuple[str, str]]:
    """(namespace, class) of every class harden16's recording holds, in its order, once each."""
    seen: list[tuple[str, str]] = []
    for case in harden16_reference.load()["configs"]:
        key = (case["namespace"], case["class"])
        if key not in seen:
            seen.append(key)
    return seen


def record(tf: Any) -> dict[str, Any]:
    """Every harden19 observation, on the given tf module."""
    keras = tf.keras
    log = lambda m: print(m, file=sys.stderr)   # noqa: E731
    data: dict[str, Any] = {"configs": [c for ns, name in enumerated_classes()
                                        if (c := harden19_configs.generate(keras, ns, name, log=log))]}
    data["layers"] = {n: harden19_layers.observe_layer(tf, n) for n in sorted(harden19_layers.LAYER_CASES)}
    data["losses"] = {n: training.observe_loss(tf, n) for n in sorted(training.LOSS_CASES)}
    data["metrics"] = {n: training.observe_metric(keras, n) for n in sorted(training.METRIC_CASES)}
    data["optimizers"] = {n: training.observe_optimizer(tf, n) for n in training.OPTIMIZERS}
    data["schedules"] = {n: training.observe_schedule(keras, n) for n in sorted(training.SCHEDULES)}
    data["initializers"] = {n: training.observe_initializer(keras, n) for n in sorted(training.INITIALIZERS)}
    data["regularizers"] = {n: training.observe_regularizer(tf, n) for n in training.REGULARIZERS}
    data["constraints"] = {n: training.observe_constraint(tf, n) for n in training.CONSTRAINTS}
    data["fit"] = training.observe_fit_defaults(tf)
    return data


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", default=harden19_reference.PATH)
    args = ap.parse_args(argv)
    from simdist.conformance.backends.tf_backend import TensorFlowBackend  # noqa: PLC0415

    backend = TensorFlowBackend()
    backend.setup()
    tf = backend.tf
    import keras  # noqa: PLC0415

    data = {"meta": {"tensorflow": tf.__version__, "keras": keras.__version__,
                     "tables": harden19_reference.tables_hash()}, **record(tf)}
    harden19_reference.save(data, args.out)
    print(f"wrote {args.out}: {len(data['configs'])} default configs, {len(data['layers'])} layers, "
          f"{len(data['losses'])} losses, {len(data['metrics'])} metrics, {len(data['optimizers'])} optimizers, "
          f"{len(data['initializers'])} initializers", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
