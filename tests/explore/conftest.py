"""The explore tests share the scenario tests' helpers (tests/scenario/scenario_helpers.py)."""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "scenario"))
