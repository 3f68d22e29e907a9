"""Record what ``test_harden16_*.py`` expect, on real TF 2.21 + Keras 3.15 (needs ``tensorflow``).

    nice -n 10 python -m simdist.conformance.suite.harden16_record [--out PATH]

Generates the config round-trip cases (harden16_configs: every class of simdist's tf.keras
namespaces that TF has, with TF's get_config) and runs every hooks, bookkeeping and shape case
(harden16_observe) through the suite's tensorflow backend, then writes
:data:`harden16_reference.PATH` (gzip'd JSON, the same bytes for the same data). About 3 minutes
of CPU.
"""

from __future__ import annotations

import argparse
import sys
from typing import Any

from simdist.conformance.suite import harden16_configs, harden16_observe, harden16_reference


def record_configs(keras: Any, names: dict[str, list[str]]) -> list[dict[str, Any]]:
    """The config cases of every class in `names` TF has (aliases once, under their class's name)."""
    cases = []
    for ns, classes in names.items():
        module = harden16_configs.resolve(keras, *ns.rsplit(".", 1)) if "." in ns else getattr(keras, ns)
        for name in classes:
            key = f"{ns}.{name}"
            obj = getattr(module, name, None)
            if key in harden16_configs.SKIP or obj is None:
                print(f"{key}: {'skipped' if obj is not None else 'not in TF 2.21'}", file=sys.stderr)
                continue
            if obj.__name__ != name and hasattr(module, obj.__name__):
                continue   # an alias: recorded under the class's own name
            log = lambda m: print(m, file=sys.stderr)   # noqa: E731
            first = harden16_configs.generate(keras, ns, name, log=log)
            if first:
                cases.append(first)
                second = harden16_configs.generate(keras, ns, name, log=log, reverse=True)
                if second and set(second["kwargs"]) != set(first["kwargs"]):
                    cases.append(second)
    return cases


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", default=harden16_reference.PATH)
    args = ap.parse_args(argv)
    from simdist import tf as simdist_tf  # noqa: PLC0415
    from simdist.conformance.backends.tf_backend import TensorFlowBackend  # noqa: PLC0415

    names = {ns: harden16_configs.class_names(simdist_tf.keras, ns) for ns in harden16_configs.NAMESPACES}
    backend = TensorFlowBackend()
    backend.setup()
    tf = backend.tf
    import keras  # noqa: PLC0415

    data: dict[str, Any] = {"meta": {"tensorflow": tf.__version__, "keras": keras.__version__,
                                     "tables": harden16_observe.case_tables_hash()}}
    data["configs"] = record_configs(tf.keras, names)
    data["hooks"], data["bookkeeping"], data["shapes"] = {}, {}, {}
    for name in harden16_observe.HOOK_CASES:
        tf.keras.backend.clear_session()
        data["hooks"][name] = harden16_observe.observe_hooks(tf, name)
    data["progbar"] = {str(v): harden16_observe.observe_progbar_order(tf.keras, v)
                       for v in harden16_observe.PROGBAR_VERBOSITY}
    for name in harden16_observe.BOOK_CASES:
        tf.keras.backend.clear_session()
        data["bookkeeping"][name] = harden16_observe.observe_bookkeeping(tf.keras, name)
    for name in harden16_observe.SHAPE_CASES:
        data["shapes"][name] = harden16_observe.observe_shape(tf.keras, name)
    harden16_reference.save(data, args.out)
    print(f"wrote {args.out}: {len(data['configs'])} config cases, {len(data['hooks'])} hooks, "
          f"{len(data['bookkeeping'])} bookkeeping, {len(data['shapes'])} shape cases", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
