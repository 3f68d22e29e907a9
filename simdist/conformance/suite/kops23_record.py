"""Record what ``test_kops23_*.py`` expect, on real TF 2.21 + Keras 3.15 (needs ``tensorflow``).

    nice -n 10 python -m simdist.conformance.suite.kops23_record [--out PATH]

Every case of kops23_cases.CASES (keras.ops and tf.keras.backend calls) observed eagerly and on
KerasTensors through the suite's tensorflow backend. Writes :data:`kops23_reference.PATH` (gzip'd
JSON, the same bytes for the same data). About 15 s of CPU.
"""

from __future__ import annotations

import argparse
import sys

from simdist.conformance.suite import kops23_cases, kops23_reference


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", default=kops23_reference.PATH)
    args = ap.parse_args(argv)
    from simdist.conformance.backends.tf_backend import TensorFlowBackend  # noqa: PLC0415

    backend = TensorFlowBackend()
    backend.setup()
    tf = backend.tf
    import keras  # noqa: PLC0415

    cases = {kops23_cases.key(c): kops23_cases.observe(tf.keras, c) for c in kops23_cases.CASES}
    data = {"meta": {"tensorflow": tf.__version__, "keras": keras.__version__,
                     "tables": kops23_reference.tables_hash()}, "cases": cases}
    kops23_reference.save(data, args.out)
    print(f"wrote {args.out}: {len(cases)} cases", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
