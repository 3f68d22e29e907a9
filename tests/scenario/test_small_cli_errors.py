"""Smaller CLI edges (issue 28 item 8): each refusal is exit 2 with one `simdist CMD: error:` line
saying what was wrong, and comes before anything is written."""

from __future__ import annotations

import json
import sys

import pytest
from scenario_helpers import TINY, cli, write


@pytest.fixture
def swept(tmp_path):
    sc = write(tmp_path, TINY)
    out = tmp_path / "sw"
    code, _, se = cli("sweep", str(sc), "--seeds", "0..1", "--out", str(out), "--no-progress", "--no-parquet")
    assert code == 0, se
    return sc, out


def _one_error(code: int, se: str, cmd: str) -> str:
    lines = se.strip().splitlines()
    assert code == 2 and len(lines) == 1 and lines[0].startswith(f"simdist {cmd}: error: "), (code, se)
    return lines[0]


def test_replay_of_a_run_the_sweep_does_not_have(swept, tmp_path):
    sc, out = swept
    code, so, se = cli("replay", str(sc), "--sweep", str(out), "--run", "99", "--out", str(tmp_path / "r"))
    line = _one_error(code, se, "replay")
    assert "--run 99" in line and "0..1" in line, f"should say which runs exist: {line}"
    assert "None" not in line, line


@pytest.mark.parametrize("digest", ["zz", "abc", "g" * 64])
def test_replay_refuses_a_malformed_digest_before_running(tmp_path, digest):
    sc = write(tmp_path, TINY)
    code, so, se = cli("replay", str(sc), "--digest", digest, "--seed", "0", "--out", str(tmp_path / "r"))
    line = _one_error(code, se, "replay")
    assert "64 hexadecimal" in line and digest in line, line
    assert not (tmp_path / "r").exists(), "the replay ran before the digest was checked"


def _report(tmp_path, name: str, backend: str, version: str):
    from simdist.conformance.report import build_report
    r = build_report([], backend={"name": backend, "version": version, "spec": backend, "capabilities": []},
                     hypothesis={"seed": 0, "max_examples": 1}, suite_version="x", started="t", duration=0.0,
                     unused_xfails=[], xfail_file=None)
    p = tmp_path / name
    p.write_text(json.dumps(r))
    return p


def test_conformance_matrix_refuses_simdist_report_as_tf_report(tmp_path):
    sd = _report(tmp_path, "simdist.json", "simdist", "0.1")
    code, so, se = cli("conformance-matrix", "--tf-report", str(sd), "-o", str(tmp_path / "m.md"))
    line = _one_error(code, se, "conformance-matrix")
    assert str(sd) in line and "simdist" in line, line
    assert not (tmp_path / "m.md").exists()


def test_conformance_matrix_missing_report_is_a_one_line_error(tmp_path):
    code, so, se = cli("conformance-matrix", "--tf-report", str(tmp_path / "none.json"), "-o", str(tmp_path / "m.md"))
    line = _one_error(code, se, "conformance-matrix")
    assert str(tmp_path / "none.json") in line


def test_conformance_matrix_unreadable_report_is_a_one_line_error(tmp_path):
    bad = tmp_path / "tf.json"
    bad.write_text("{not json")
    code, so, se = cli("conformance-matrix", "--tf-report", str(bad), "-o", str(tmp_path / "m.md"))
    line = _one_error(code, se, "conformance-matrix")
    assert str(bad) in line


def test_sweep_dask_without_dask_refuses_before_writing(tmp_path, monkeypatch):
    monkeypatch.setitem(sys.modules, "distributed", None)   # import distributed -> ImportError
    sc = write(tmp_path, TINY)
    out = tmp_path / "sw"
    code, so, se = cli("sweep", str(sc), "--seeds", "0..1", "--executor", "dask", "--out", str(out), "--no-progress")
    line = _one_error(code, se, "sweep")
    assert "dask" in line
    assert not out.exists() or list(out.iterdir()) == [], f"wrote {list(out.iterdir())} before refusing"
