"""The recorders' shared command line (kcall, kenum, kopsenum, kget, kreuse, dargs): `--out PATH`, the recording made
by reference_store.record, and one summary line. Named `*_record.py` as the recorders are: tests/conformance/
tf_suite_record.py leaves recorders out of the suite modules' stamps, so a change here re-runs no module against TF."""

from __future__ import annotations

import argparse
import sys
from typing import Any, Callable

from simdist.conformance.suite.reference_store import record


def recorder_main(argv: list[str] | None, doc: str, reference: Any, observe: Callable[[Any], dict[str, Any]],
                  summary: Callable[[dict[str, Any]], str]) -> int:
    """A recorder module's `main`: `--out PATH` (default `reference.PATH`), `record` with `reference.save` and
    `reference.tables_hash()`, then "wrote PATH: <summary(data)>" on stderr."""
    ap = argparse.ArgumentParser(description=doc.splitlines()[0])
    ap.add_argument("--out", default=reference.PATH)
    args = ap.parse_args(argv)
    data = record(lambda d: reference.save(d, args.out), reference.tables_hash(), observe)
    print(f"wrote {args.out}: {summary(data)}", file=sys.stderr)
    return 0
