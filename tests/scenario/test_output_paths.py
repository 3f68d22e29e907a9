"""Output paths are checked before any work (exit 2 naming the path and the reason, not exit 3
after the run); a scenario's name never puts its default output outside out/; `gate` writes no
file into the working directory unless asked (issue 28 items 3 and 8)."""

from __future__ import annotations

import json

import pytest
from scenario_helpers import TINY, cli, write


@pytest.fixture
def afile(tmp_path):
    f = tmp_path / "afile"
    f.write_text("not a directory")
    return f


def _refused_before_work(code: int, so: str, se: str, path: str) -> None:
    assert code == 2, f"exit {code} (expected 2: bad input); stderr: {se}"
    assert path in se and "Traceback" not in se and len(se.strip().splitlines()) == 1, se
    assert "metrics:" not in so and "sweep " not in so, f"the work ran before the path was refused:\n{so}"


@pytest.mark.parametrize("cmd", ["run", "sweep", "explore"])
def test_out_under_a_file_is_refused_before_the_work(tmp_path, afile, cmd):
    sc = write(tmp_path, TINY)
    extra = {"run": [], "sweep": ["--seeds", "0..1", "--no-progress"],
             "explore": ["--plans", "2", "--executor", "serial", "--no-plot", "--no-progress"]}[cmd]
    code, so, se = cli(cmd, str(sc), "--out", str(afile / "sub"), *extra)
    _refused_before_work(code, so, se, str(afile / "sub"))


def test_gate_junit_under_a_file_is_refused_before_the_comparison(tmp_path, afile):
    sc = write(tmp_path, TINY)
    assert cli("run", str(sc), "--out", str(tmp_path / "a"), "--quiet")[0] == 0
    m = str(tmp_path / "a" / "metrics.json")
    code, so, se = cli("gate", m, "--baseline", m, "--junit", str(afile / "g.xml"))
    assert code == 2 and str(afile / "g.xml") in se, (code, se)
    assert "gate:" not in so, f"the comparison ran before the path was refused:\n{so}"


def test_gate_writes_no_file_into_the_working_directory_by_default(tmp_path, monkeypatch):
    sc = write(tmp_path, TINY)
    assert cli("run", str(sc), "--out", str(tmp_path / "a"), "--quiet")[0] == 0
    work = tmp_path / "cwd"
    work.mkdir()
    monkeypatch.chdir(work)
    m = str(tmp_path / "a" / "metrics.json")
    code, so, se = cli("gate", m, "--baseline", m)
    assert code == 0, se
    assert list(work.iterdir()) == [], f"gate wrote {list(work.iterdir())} into the working directory"


def test_conformance_report_under_a_file_is_refused_before_the_suite(tmp_path, afile):
    code, so, se = cli("conformance", "--backend", "simdist", "--report", str(afile / "r.json"), "-k", "nothing")
    assert code == 2 and str(afile / "r.json") in se and "simdist conformance: error:" in se, (code, se)


@pytest.mark.parametrize("name", ["../../x", "../up", "a/b"])
def test_a_scenario_name_cannot_write_outside_out(tmp_path, monkeypatch, name):
    work = tmp_path / "deep" / "cwd"
    work.mkdir(parents=True)
    monkeypatch.chdir(work)
    sc = write(tmp_path, TINY.replace('name = "tiny"', f"name = {json.dumps(name)}"))
    code, so, se = cli("run", str(sc), "--quiet")
    created = sorted(str(p.relative_to(tmp_path)) for p in tmp_path.rglob("*") if p.name == "metrics.json")
    assert created == [] or all(c.startswith("deep/cwd/out/") for c in created), \
        f"scenario name {name!r} wrote {created} (outside out/)"
    assert code == 2 and "--out" in se, (code, se)
