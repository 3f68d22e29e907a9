"""Make this fuzzer's modules (ftr_vocab, ftr_progs, ftr_known, fz_train_campaign) importable under any --import-mode."""

from __future__ import annotations

import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
if str(HERE) not in sys.path:
    sys.path.insert(0, str(HERE))
