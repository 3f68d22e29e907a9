"""The layers of docs/architecture.md hold: `lint-imports` checks pyproject's [tool.importlinter]
contracts (the `layers` contract over every room of the package, with its one documented
exception, and keras written against the facade only); the documented list and the contract's
agree; and a planted upward import breaks the contract (the check can fail)."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def _lint(root: Path) -> subprocess.CompletedProcess:
    exe = shutil.which("lint-imports")
    if exe is None:
        pytest.fail("lint-imports is not installed: `pip install -e .[dev]` installs import-linter")
    return subprocess.run([exe, "--no-cache"], cwd=root, capture_output=True, text=True,
                          env={"PYTHONPATH": str(root), "PATH": str(Path(sys.executable).parent)})


def _layers_contract() -> dict:
    cfg = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    layers = [c for c in cfg["tool"]["importlinter"]["contracts"] if c["type"] == "layers"]
    assert len(layers) == 1, f"expected one layers contract in pyproject.toml, found {len(layers)}"
    return layers[0]


def test_import_contracts_hold() -> None:
    proc = _lint(ROOT)
    assert proc.returncode == 0, f"import contracts broken (lint-imports exit {proc.returncode}):\n{proc.stdout[-3000:]}"


def test_layers_contract_covers_every_room_with_one_exception() -> None:
    c = _layers_contract()
    assert c.get("exhaustive") is True, "the layers contract must be exhaustive: every room takes a place"
    assert c["containers"] == ["simdist"]
    assert c.get("ignore_imports") == ["simdist.tf -> simdist.keras"], (
        f"the only documented exception is the facade's lazy tf.keras; pyproject ignores {c.get('ignore_imports')}")
    listed = {name.strip() for layer in c["layers"] for name in layer.split("|")}
    rooms = {p.stem if p.suffix == ".py" else p.name for p in (ROOT / "simdist").iterdir()
             if (p.suffix == ".py" and p.stem != "__init__") or (p.is_dir() and (p / "__init__.py").exists())}
    assert rooms == listed, f"rooms not in the layers contract: {sorted(rooms - listed)}; " \
                            f"listed but absent: {sorted(listed - rooms)}"


def test_architecture_doc_states_the_contracts_order() -> None:
    doc = (ROOT / "docs" / "architecture.md").read_text(encoding="utf-8")
    m = re.search(r"<!-- layers:[^\n]*-->\n```\n(.*?)```", doc, re.S)
    assert m, "docs/architecture.md lost its layers list (the block after the '<!-- layers: ... -->' marker)"
    documented = [" | ".join(p.strip() for p in line[:45].split("|")) for line in m.group(1).splitlines()]
    contract = [" | ".join(p.strip() for p in layer.split("|")) for layer in _layers_contract()["layers"]]
    assert documented == contract, f"docs/architecture.md lists {documented}, pyproject's contract {contract}"


def test_an_upward_import_breaks_the_contract(tmp_path: Path) -> None:
    """sim importing the strategies (a room far above it) must fail lint-imports."""
    shutil.copytree(ROOT / "simdist", tmp_path / "simdist", ignore=shutil.ignore_patterns("__pycache__", "*.so"))
    shutil.copy(ROOT / "pyproject.toml", tmp_path / "pyproject.toml")
    with open(tmp_path / "simdist" / "sim" / "units.py", "a", encoding="utf-8") as fh:
        fh.write("\nimport simdist.strategies.base  # planted upward import\n")
    proc = _lint(tmp_path)
    assert proc.returncode != 0, "lint-imports passed with sim importing the strategies"
    assert "simdist.sim.units -> simdist.strategies.base" in proc.stdout, proc.stdout[-2000:]
