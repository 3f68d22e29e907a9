"""Make tests/ (tf_workers), tests/fuzz/ (differ), tests/fuzz2/ (fz2_run) and tests/fuzz3/ (fz3_run) importable under any --import-mode."""

from __future__ import annotations

import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
for p in (HERE.parent, HERE.parent / "fuzz", HERE.parent / "fuzz2", HERE.parent / "fuzz3", HERE):
    if str(p) not in sys.path:
        sys.path.insert(0, str(p))
