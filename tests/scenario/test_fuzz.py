"""Fuzz: every ready scenario, mutated (types, extremes such as 1e-300/1e300/NaN/inf, deep nesting,
huge strings, unknown keys, bad UTF-8, TOML edge cases, --param values), gives either exit 2 with
a clear error (``simdist run: error: ...``, one line per problem, no traceback) or a clean run
(exit 0, or 1 when the simulated training itself failed), never exit 3.

The default run draws 25 examples; ``-m slow`` draws 3000. A mutation that
validates is also run for real (``--quick``) when its cluster is small enough to keep the test
fast (at most 64 devices); validation itself is exercised on every example.
"""

from __future__ import annotations

import math
from pathlib import Path

import pytest
from fuzz_helpers import EXTREMES, RAW_VALUES, emit, leaves, parse, schema_paths, set_path
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from scenario_helpers import ROOT, SCENARIOS, cli

DOCS = {p.name: parse(p.read_text(encoding="utf-8")) for p in SCENARIOS}
PATHS = schema_paths()

values = st.one_of(
    st.sampled_from(EXTREMES),
    st.integers(min_value=-(2**70), max_value=2**70),
    st.floats(allow_nan=True, allow_infinity=True),
    st.text(max_size=40),
    st.builds(lambda n, u: f"{n}{u}", st.floats(allow_nan=True, allow_infinity=True) | st.integers(-10**30, 10**30),
              st.sampled_from(["s", "ms", "us", "min", "h", "GB/s", "Gbps", "KiB", "GiB", "GFLOP", "TFLOPS", "x"])),
    st.lists(st.integers(-5, 2**40) | st.text(max_size=5), max_size=4),
    st.dictionaries(st.text(min_size=1, max_size=8), st.integers(-3, 3), max_size=3),
)


@st.composite
def mutations(draw) -> tuple[str, dict, str, bytes | None, list[str]]:
    """(scenario name, document, description, raw file bytes or None, --param list)."""
    name = draw(st.sampled_from(sorted(DOCS)))
    doc = DOCS[name]
    paths = PATHS + [p for p, _ in leaves(doc)]
    kind = draw(st.sampled_from(["value", "value", "value", "raw", "delete", "unknown", "deep", "bytes", "param"]))
    path = draw(st.sampled_from(paths))
    if kind == "value":
        v = draw(values)
        return name, doc, f"{path} = {v!r:.60}", emit(set_path(doc, path, v)).encode(), []
    if kind == "raw":
        raw = draw(st.sampled_from(RAW_VALUES))
        return name, doc, f"{path} = {raw[:40]} (raw)", emit(doc, (path, raw)).encode(), []
    if kind == "delete":
        return name, doc, f"del {path}", emit(set_path(doc, path, None, delete=True)).encode(), []
    if kind == "unknown":
        key = path + draw(st.sampled_from(["z", "_", "s", ".extra", "[0]"]))
        return name, doc, f"{key} = 1", emit(set_path(doc, key.replace("[0]", ""), 1)).encode(), []
    if kind == "deep":
        depth = draw(st.sampled_from([17, 40, 200, 600, 2000]))
        raw = "[" * depth + "1" + "]" * depth
        return name, doc, f"{path} nested {depth} deep", emit(doc, (path, raw)).encode(), []
    if kind == "bytes":
        text = emit(doc).encode()
        at = draw(st.integers(0, len(text)))
        junk = draw(st.sampled_from([b"\xff", b"\xc3", b"\xed\xa0\x80", b"\x00", b"\xef\xbb\xbf", b"\r", b"\"", b"["]))
        cut = draw(st.booleans())
        return name, doc, f"bytes {junk!r} at {at}{' (truncated)' if cut else ''}", \
            text[:at] + junk + (b"" if cut else text[at:]), []
    v = draw(values)
    shown = v if isinstance(v, str) else repr(v) if not isinstance(v, float) or math.isfinite(v) else str(v)
    return name, doc, f"--param {path}={shown!s:.60}", emit(doc).encode(), [f"{path}={shown}"]


def _small(file: Path, params: list[str]) -> bool:
    from simdist.scenario import load
    sc = load(file, params, quick=True)
    return sc.topology is not None and len(sc.topology.devices()) <= 64


def check(tmp: Path, m: tuple[str, dict, str, bytes | None, list[str]]) -> None:
    name, _, what, data, params = m
    f = tmp / name
    f.write_bytes(data or b"")
    extra = sum((["--param", p] for p in params), [])
    code, out, err = cli("run", str(f), "--quick", "--dry-run", *extra)
    assert code in (0, 2), f"{name} with {what}: --dry-run exited {code}:\n{err[-2000:]}"
    assert "Traceback" not in err and "internal error" not in err, f"{name} with {what}:\n{err[-2000:]}"
    if code == 2:
        lines = err.rstrip("\n").splitlines()
        assert lines and lines[0].startswith("simdist run: error: "), f"{name} with {what}: {err[:500]!r}"
        assert all(ln.startswith(("simdist run: error: ", "  ")) for ln in lines), \
            f"{name} with {what}: every problem is one line: {err[:1000]!r}"
        return
    if not _small(f, params):
        return
    code, out, err = cli("run", str(f), "--quick", "--out", str(tmp / "o"), "--force", "--quiet", "--no-progress",
                         *extra)
    assert code in (0, 1, 2), f"{name} with {what}: the run exited {code}:\n{err[-2000:]}"
    assert "Traceback" not in err and "internal error" not in err, f"{name} with {what}:\n{err[-2000:]}"


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture,
                                                                  HealthCheck.too_slow])
@given(m=mutations())
def test_mutated_scenarios_fail_cleanly_or_run(tmp_path, m):
    check(tmp_path, m)


@pytest.mark.slow
@settings(max_examples=3000, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture,
                                                                    HealthCheck.too_slow])
@given(m=mutations())
def test_mutated_scenarios_fail_cleanly_or_run_long(tmp_path, m):
    check(tmp_path, m)


_EXTREMES = [
    ("training.checkpoint_bandwidth", 1e-300), ("training.compute_jitter", 1e300), ("cluster.network", 1e-300),
    ("model.flops_per_example", 1e300), ("faults.preemption_process.mtbf", 1e-300), ("training.steps", 2**63 - 1),
    ("cluster.gpu_flops", 5e-324), ("model.example_bytes", "9" * 1_000_000 + "GB"), ("scenario.name", "../.."),
    ("faults.preemption_process.downtime", 0),
]
# Paths whose extreme value is valid, so the whole scenario runs: on a scenario that trains a Keras model (train_*)
# that is a training run of 2-17 s (the transformer's 17 s, the others' 2-7 s: 41 s of the default run for 9 pairs,
# 2026-12-06). The default run keeps them on the other scenarios and on one training scenario (the quickest);
# -m slow runs every pair.
_VALID_EXTREMES = {"training.steps", "scenario.name", "faults.preemption_process.downtime"}
_TRAINING_KEPT = "train_mirrored_vs_cs.toml"


def _trains_long(name: str, path: str) -> bool:
    return name.startswith("train_") and name != _TRAINING_KEPT and path in _VALID_EXTREMES


@pytest.mark.parametrize("name,path,value", [
    pytest.param(name, path, value, id=f"{path}-{str(value)[:12]}-{name}",
                 marks=pytest.mark.slow if _trains_long(name, path) else ())
    for name in sorted(DOCS) for path, value in _EXTREMES])
def test_known_extremes_are_refused_or_run(tmp_path, name, path, value):
    """The values that used to crash (exit 3) after passing validation, on every ready scenario."""
    doc = DOCS[name]
    check(tmp_path, (name, doc, f"{path} = {str(value)[:40]}", emit(set_path(doc, path, value)).encode(), []))


@pytest.mark.parametrize("raw", ["9" * 30, "[" * 1000 + "]" * 1000, "'\uff15ms'", "1979-05-27T07:32:00Z"],
                         ids=["int-beyond-64-bits", "nested-1000-deep", "full-width-digit", "datetime"])
def test_toml_edge_cases_are_clear_errors(tmp_path, raw):
    doc = DOCS["mirrored_allreduce.toml"]
    f = tmp_path / "s.toml"
    text = emit(doc, ("scenario.seed", raw))
    f.write_text(text, encoding="utf-8")
    line = next(i for i, ln in enumerate(text.splitlines(), 1) if ln.startswith("seed = "))
    code, _, err = cli("run", str(f), "--dry-run")
    assert code == 2 and err.startswith("simdist run: error: ") and "Traceback" not in err, (code, err[:500])
    assert f"s.toml:{line}: " in err.split("\n")[0], f"the error does not name line {line}: {err[:300]}"


def test_a_preemption_process_that_would_never_let_a_function_finish_is_refused():
    """mtbf shorter than one function's compute (or below 1 s for a FLOP-only model; below 1 ms for any)
    made the run go on for ever."""
    for mtbf, rule in (("1s", "shorter than the compute of one scheduled function"), ("0.5s", "must be >= 1 s"),
                       (1e-300, "must be >= 0.001")):
        code, _, err = cli("run", str(ROOT / "scenarios/ps_spot_preemption.toml"), "--quick", "--dry-run",
                           "--param", f"faults.preemption_process.mtbf={mtbf}",
                           "--param", "faults.preemption_process.downtime=0")
        assert code == 2 and rule in err, (mtbf, code, err)


def test_a_quick_key_that_is_no_key_path_is_a_clear_error(tmp_path):
    """Found by the long fuzz run: a [quick] key such as "[training.steps" hit an assert (exit 3)."""
    doc = set_path(DOCS["mirrored_allreduce.toml"], "quick", {"[training.steps": 5})
    f = tmp_path / "s.toml"
    f.write_text(emit(doc), encoding="utf-8")
    code, _, err = cli("run", str(f), "--quick", "--dry-run")
    assert code == 2 and "'[training.steps' is not a key path" in err and "internal error" not in err, err
