"""Make tests/ (tf_workers, tf_programs), tests/fuzz45 (the harness fz51d_gen reuses) and this directory importable
under any --import-mode."""

from __future__ import annotations

import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
for p in (HERE.parent, HERE.parent / "fuzz45", HERE):
    if str(p) not in sys.path:
        sys.path.insert(0, str(p))
