"""The layers of docs/architecture.md hold: `lint-imports` checks pyproject's [tool.importlinter]
contracts (runtime is the bottom layer; semantics are pure; the simulator never imports the
facade or the strategies; keras only the facade)."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def test_import_contracts_hold() -> None:
    exe = shutil.which("lint-imports")
    if exe is None:
        pytest.fail("lint-imports is not installed: `pip install -e .[dev]` installs import-linter")
    proc = subprocess.run([exe, "--no-cache"], cwd=ROOT, capture_output=True, text=True,
                          env={"PYTHONPATH": str(ROOT), "PATH": str(Path(sys.executable).parent)})
    assert proc.returncode == 0, f"import contracts broken (lint-imports exit {proc.returncode}):\n{proc.stdout[-3000:]}"
