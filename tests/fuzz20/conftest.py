"""Make tests/ (tf_workers) and the earlier fuzzers' modules (tests/fuzz, fuzz2, fuzz3, fuzz4, fuzz14:
the comparison, the TF worker and the mode interpreters this fuzzer reuses) importable under any --import-mode."""

from __future__ import annotations

import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
for p in (HERE.parent, *(HERE.parent / d for d in ("fuzz", "fuzz2", "fuzz3", "fuzz4", "fuzz14")), HERE):
    if str(p) not in sys.path:
        sys.path.insert(0, str(p))
