"""docs/keras.md's code blocks run as they stand, alone, each in a fresh interpreter (a reader
copies them whole; issue 28: the first one needed two logical CPUs it did not create)."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
DOC = ROOT / "docs" / "keras.md"
BLOCKS = re.findall(r"^```python\n(.*?)^```$", DOC.read_text(encoding="utf-8"), flags=re.S | re.M)


def test_the_doc_has_code() -> None:
    assert BLOCKS, f"no ```python block found in {DOC}"


@pytest.mark.parametrize("i", range(len(BLOCKS)))
def test_keras_doc_block_runs_alone(i: int, tmp_path: Path) -> None:
    script = tmp_path / f"block{i}.py"
    script.write_text(BLOCKS[i], encoding="utf-8")
    p = subprocess.run([sys.executable, str(script)], cwd=tmp_path, capture_output=True, text=True, timeout=300,
                       env=dict(os.environ, PYTHONPATH=str(ROOT)))
    assert p.returncode == 0, f"docs/keras.md code block {i + 1} failed when run alone:\n{p.stderr[-3000:]}"
    assert p.stdout.strip(), f"block {i + 1} printed nothing"
