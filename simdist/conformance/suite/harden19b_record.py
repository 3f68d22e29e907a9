"""Record what ``test_harden19_{roundtrip,utils,callbacks}.py`` expect, on real TF 2.21 + Keras 3.15
(needs ``tensorflow``).

    nice -n 10 python -m simdist.conformance.suite.harden19b_record [--out PATH]

Runs every round-trip, keras.utils and callback case (harden19b_roundtrip, harden19b_utils,
harden19b_callbacks) through the suite's tensorflow backend, each in a fresh temporary directory,
and writes :data:`harden19b_reference.PATH` (gzip'd JSON). About 10 minutes of wall time on a
loaded 2-core host.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from typing import Any

from simdist.conformance.suite import harden19b_callbacks, harden19b_reference, harden19b_roundtrip, harden19b_utils


def record(tf: Any) -> dict[str, Any]:
    """Every case's observation on `tf`."""
    import keras  # noqa: PLC0415

    data: dict[str, Any] = {"meta": {"tensorflow": tf.__version__, "keras": keras.__version__,
                                     "tables": harden19b_reference.tables_hash()}}
    u = harden19b_utils
    data["split"] = {n: u.observe_split(tf, n) for n in sorted(u.SPLIT_CASES)}
    data["timeseries"] = {n: u.observe_timeseries(tf, n) for n in sorted(u.TIMESERIES_CASES)}
    data["pad"] = u.observe_pad(tf)
    data["categorical"] = u.observe_categorical(tf)
    data["normalize"] = u.observe_normalize(tf)
    data["misc"] = u.observe_misc(tf)
    data["callbacks"], data["roundtrip"] = {}, {}
    for name in sorted(harden19b_callbacks.CALLBACK_CASES):
        tf.keras.backend.clear_session()
        with tempfile.TemporaryDirectory(prefix="h19cb") as tmp:
            data["callbacks"][name] = harden19b_callbacks.observe_callback(tf, name, tmp)
    for name in sorted(harden19b_roundtrip.ROUNDTRIP_CASES):
        tf.keras.backend.clear_session()
        with tempfile.TemporaryDirectory(prefix="h19rt") as tmp:
            data["roundtrip"][name] = harden19b_roundtrip.observe_roundtrip(tf, name, tmp)
    return data


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    ap.add_argument("--out", default=harden19b_reference.PATH)
    args = ap.parse_args(argv)
    from simdist.conformance.backends.tf_backend import TensorFlowBackend  # noqa: PLC0415

    backend = TensorFlowBackend()
    backend.setup()
    data = record(backend.tf)
    harden19b_reference.save(data, args.out)
    print(f"wrote {args.out}: {len(data['split'])} split, {len(data['timeseries'])} timeseries, "
          f"{len(data['pad'])} pad, {len(data['callbacks'])} callback, {len(data['roundtrip'])} round-trip cases",
          file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
