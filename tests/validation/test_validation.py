"""The validation harness (simdist.validation.harness, `simdist validate`) and the table's claims."""

from __future__ import annotations

import os
import re
import sys
import types

import pytest

from simdist.cli import main
from simdist.sim import nccl
from simdist.validation import harness
from simdist.validation.table import Citation, Measurement

CIT = Citation("a test", "nowhere", "2026-01-01")
DOC = os.path.join(os.path.dirname(__file__), "..", "..", "docs", "validation.md")


def _m(id: str, published: float, sim: float, split: str = "fit", kind: str = "collective") -> Measurement:
    return Measurement(id=id, kind=kind, description=id, published=published, unit="x", citation=CIT,  # type: ignore[arg-type]
                       simulate=lambda: sim, split=split)  # type: ignore[arg-type]


def test_errors_and_summary_are_computed_right():
    rows = [_m("a", 100, 110, "fit"), _m("b", 100, 80, "holdout"), _m("c", 200, 190, "fit"),
            _m("d", 10, 10, "holdout", kind="training")]
    res = harness.evaluate(rows)
    assert [round(r.error, 12) for r in res] == [0.1, -0.2, -0.05, 0.0]
    s = harness.summarize(res)
    assert s["overall"] == {"n": 4, "median": pytest.approx(0.075), "max": pytest.approx(0.2)}, s["overall"]
    assert s["fit"] == {"n": 2, "median": pytest.approx(0.075), "max": pytest.approx(0.1)}, s["fit"]
    assert s["holdout"] == {"n": 2, "median": pytest.approx(0.1), "max": pytest.approx(0.2)}, s["holdout"]
    assert s["training"]["n"] == 1 and s["collective"]["n"] == 3, s
    text = harness.format_table(res)
    assert "+10.0%" in text and "-20.0%" in text, text
    md = harness.markdown(res, s, ["simdist.validation.nothing"])
    assert "| `b` |" in md and "missing: no rows" in md, md


def test_a_broken_row_names_itself():
    def boom() -> float:
        raise ZeroDivisionError("division by zero")
    bad = Measurement(id="bad-row", kind="collective", description="", published=1.0, unit="x", citation=CIT,
                      simulate=boom, split="fit")
    with pytest.raises(harness.ValidationError, match=r"bad-row: simulate\(\) failed: ZeroDivisionError"):
        harness.evaluate([_m("ok", 1, 1), bad])
    with pytest.raises(harness.ValidationError, match=r"neg: simulate\(\) returned -1.0; expected a finite"):
        harness.evaluate([_m("neg", 1, -1.0)])


def test_missing_row_module_is_reported_not_invented(monkeypatch):
    mod = types.ModuleType("simdist_test_rows")
    mod.measurements = lambda: [_m("x", 1, 1)]  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "simdist_test_rows", mod)
    rows, missing = harness.collect(modules=("simdist_test_rows", "simdist_test_absent_rows"))
    assert [m.id for m in rows] == ["x"] and missing == ["simdist_test_absent_rows"], (rows, missing)
    mod.measurements = lambda: [_m("x", 1, 1), _m("x", 2, 2)]  # type: ignore[attr-defined]
    with pytest.raises(harness.ValidationError, match="duplicate measurement id 'x'"):
        harness.collect(modules=("simdist_test_rows",))
    with pytest.raises(ValueError, match=r"unknown kind\(s\) \['network'\]"):
        harness.collect(kinds=["network"])


def test_collective_rows_are_cited_and_split_in_halves():
    rows, _ = harness.collect(kinds=["collective"])
    assert len(rows) >= 15, f"at least 15 collective measurements, got {len(rows)}"
    for m in rows:
        assert m.citation.source and m.citation.where and re.match(r"\d{4}-\d{2}(-\d{2})?$", m.citation.date), m
        assert m.published > 0 and m.derivation, m
    fit = sum(m.split == "fit" for m in rows)
    assert abs(fit - (len(rows) - fit)) <= 1, f"fit/holdout halves: {fit} fit of {len(rows)}"


def _doc_claims() -> dict[str, float]:
    """The bounds docs/validation.md claims for the collective table ("median <= X%", "max <= Y%")."""
    text = open(DOC, encoding="utf-8").read()
    got = re.search(r"CI holds: median \|error\| <= (\d+(?:\.\d+)?)%, max \|error\| <= (\d+(?:\.\d+)?)%", text)
    assert got, "docs/validation.md states the bounds CI holds"
    return {"median": float(got.group(1)) / 100, "max": float(got.group(2)) / 100}


def test_the_table_meets_the_bounds_the_doc_claims():
    claims = _doc_claims()
    rows, _ = harness.collect(kinds=["collective"])
    s = harness.summarize(harness.evaluate(rows))
    for part in ("overall", "fit", "holdout"):
        assert s[part]["median"] <= claims["median"], f"{part}: median |error| {s[part]['median']:.1%} > claim"
        assert s[part]["max"] <= claims["max"], f"{part}: max |error| {s[part]['max']:.1%} > claim"


def test_the_doc_shows_the_table_this_simdist_computes():
    rows, _ = harness.collect(kinds=["collective"])
    res = harness.evaluate(rows)
    text = open(DOC, encoding="utf-8").read().splitlines()
    for line in harness.markdown(res, harness.summarize(res)).splitlines():
        assert line in text, (f"docs/validation.md's collective table is stale (no line {line!r}): rerun "
                              "`simdist validate --kind collective --out docs/validation` and paste the table")


def test_only_the_rows_the_doc_names_are_over_25_percent():
    text = open(DOC, encoding="utf-8").read()
    got = re.search(r"Rows over 25%: ((?:`[^`]+`(?:, )?)+)\.", text)
    assert got, "docs/validation.md names the collective rows over 25% ('Rows over 25%: `id`, ...')"
    named = set(re.findall(r"`([^`]+)`", got.group(1)))
    rows, _ = harness.collect(kinds=["collective"])
    over = {r.m.id for r in harness.evaluate(rows) if abs(r.error) > 0.25}
    assert over == named, f"rows over 25%: {sorted(over)}, but the doc names {sorted(named)}"


def test_back_to_back_rows_are_predicted_without_the_host_overhead():
    from dataclasses import replace
    from simdist.validation.collectives import Setup, simulate_busbw
    per_call, b2b = Setup("H200"), Setup("H200", pipelined=True)
    n, factor = 32 * 2**10, nccl.bus_bandwidth_factor("all_reduce", 8)
    t_call = n * factor / (simulate_busbw(per_call, "all_reduce", n) * 1e9)
    t_b2b = n * factor / (simulate_busbw(b2b, "all_reduce", n) * 1e9)
    assert t_call - t_b2b == pytest.approx(nccl.FACTORS.overhead, rel=1e-9), \
        f"per call {t_call * 1e6:.2f} us, back to back {t_b2b * 1e6:.2f} us: should differ by the overhead"
    with nccl.using(replace(nccl.FACTORS, overhead=0.0)):
        assert simulate_busbw(per_call, "all_reduce", n) == pytest.approx(simulate_busbw(b2b, "all_reduce", n)), \
            "with no overhead the two timings agree"
    assert "back-to-back timing" in b2b.describe() and "back-to-back" not in per_call.describe()


@pytest.mark.slow   # (~25 s: the whole grid)
def test_fitted_factors_are_the_ones_in_use():
    rows, _ = harness.collect(kinds=["collective"])
    factors, _ = harness.fit_factors(rows)
    assert factors == nccl.FACTORS, f"refitting gives {factors}, simdist uses {nccl.FACTORS}"


def test_cli_prints_writes_and_checks(tmp_path, capsys):
    code = main(["validate", "--kind", "collective", "--out", str(tmp_path), "--max-error", "0.0001"])
    out = capsys.readouterr().out
    assert code == 1 and "FAIL: overall max |error|" in out, (code, out)
    assert "median |error|" in out and "holdout" in out, out
    assert (tmp_path / "validation-table.md").read_text().startswith("| | n |")
    assert (tmp_path / "validation.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert main(["validate", "--kind", "collective", "--max-median", "0.5"]) == 0


@pytest.mark.parametrize("nbytes, steps", [(32 * 2**10, 8), (2**20, 8), (32 * 2**20, 64), (2**30, 512)])
def test_nvls_rows_are_timed_by_nccls_latency_bandwidth_and_chunk_steps(nbytes, steps):
    # A forced-NVLS all-reduce on the simulated 8x H200 node, timed per call: the 20 us host overhead,
    # NCCL's NVLS latency (tuning.cc hwLat[NVLINK][NVLS][SIMPLE] 25 us), bytes over NCCL's NVLS
    # algorithm bandwidth (NVLink 450 GB/s x 0.8 preset efficiency x nvlsEfficiency 0.85 x 7/8 x 2
    # x 8/14, x the fitted nvls_efficiency), and per chunk step a Simple hop's NVLink latency (3.4
    # us) over NCCL_STEPS (8): 16 channels x 8 heads per loop, enqueue.cc's chunk for the size.
    from simdist.validation.collectives import Setup, simulate_busbw
    algbw = 450e9 * 0.8 * 0.85 * 7 / 8 * 2 * 8 / 14 * nccl.FACTORS.nvls_efficiency
    expected = nccl.FACTORS.overhead + 25e-6 + nbytes / algbw + steps * 3.4e-6 / 8
    got = nbytes * nccl.bus_bandwidth_factor("all_reduce", 8) / (simulate_busbw(Setup("H200"), "all_reduce", nbytes,
                                                                                 "nccl:nvls") * 1e9)
    assert got == pytest.approx(expected, rel=1e-9), \
        f"NVLS all-reduce of {nbytes} B took {got * 1e6:.3f} us, but should take {expected * 1e6:.3f} us"
    with nccl.using(nccl.Factors(overhead=nccl.FACTORS.overhead, net_efficiency=nccl.FACTORS.net_efficiency,
                                 nvls_efficiency=nccl.FACTORS.nvls_efficiency, ramp_bytes=0.0)):
        no_ramp = nbytes * nccl.bus_bandwidth_factor("all_reduce", 8) / (
            simulate_busbw(Setup("H200"), "all_reduce", nbytes, "nccl:nvls") * 1e9)
    assert no_ramp == pytest.approx(got, rel=1e-12), "the Simple ramp (ring, tree, NVLS-tree) must not time NVLS"


def test_busbw_from_us_is_nccl_tests_formula():
    # nccl-tests' all-reduce busbw: bytes / time x 2(n-1)/n; 1 MiB in 61 us on 8 ranks.
    from simdist.validation.collectives import busbw_from_us
    want = 1048576 / 61e-6 * 2 * 7 / 8 / 1e9
    got = busbw_from_us(2**20, 61.0)
    assert got == pytest.approx(want, rel=1e-12), f"busbw_from_us(1 MiB, 61 us)={got}, but should be {want}"
    assert busbw_from_us(2**20, 61.0, ranks=2) == pytest.approx(1048576 / 61e-6 / 1e9, rel=1e-12), \
        "on 2 ranks the factor 2(n-1)/n is 1"


# The ninth session's rows as rakshithvasudev.github.io's post (page e4e008d) prints them: the H100
# node's per-call tables (times in us, busbw in GB/s where the post gives one) and the H200 node's
# 1-node column; the algorithm each column ran.
_POST_H100 = [
    ("nccl-allreduce-h100-1x8-1MiB-nccl230-ring", 2**20, ("us", 61.0), "nccl:ring"),
    ("nccl-allreduce-h100-1x8-8MiB-nccl230-ring", 8 * 2**20, ("GB/s", 186.0), "nccl:ring"),
    ("nccl-allreduce-h100-1x8-1MiB-nccl230-ring-simple", 2**20, ("us", 112.0), "nccl:ring:Simple"),
    ("nccl-allreduce-h100-1x8-8MiB-nccl230-ring-simple", 8 * 2**20, ("GB/s", 105.0), "nccl:ring:Simple"),
    ("nccl-allreduce-h100-1x8-32MiB-nccl230", 32 * 2**20, ("GB/s", 289.0), "nccl"),
    ("nccl-allreduce-h100-1x8-4GiB-nccl230", 4 * 2**30, ("GB/s", 475.0), "nccl"),
    ("nccl-allreduce-h100-1x8-32MiB-nccl230-ring", 32 * 2**20, ("GB/s", 279.0), "nccl:ring"),
    ("nccl-allreduce-h100-1x8-4GiB-nccl230-ring", 4 * 2**30, ("GB/s", 366.0), "nccl:ring"),
    ("nccl-allreduce-h200-1x8-1GiB-nccl230", 2**30, ("GB/s", 461.0), "nccl"),
    ("nccl-allreduce-h200-1x8-4GiB-nccl230", 4 * 2**30, ("GB/s", 471.0), "nccl"),
]


def test_ninth_session_rows_are_transcribed_as_cited():
    from simdist.validation import collectives
    rows = {m.id: m for m in collectives.measurements()}
    got_ids = [m.id for m in collectives.measurements() if "nccl230" in m.id]
    assert got_ids == [r[0] for r in _POST_H100], f"ninth-session rows {got_ids}, expected {[r[0] for r in _POST_H100]}"
    first = [m.id for m in collectives.measurements()].index(_POST_H100[0][0])
    for i, (rid, nbytes, (unit, figure), algorithm) in enumerate(_POST_H100):
        m = rows[rid]
        want = nbytes / (figure * 1e-6) * 2 * 7 / 8 / 1e9 if unit == "us" else figure
        assert m.published == pytest.approx(want, rel=1e-12), f"{rid}: published={m.published}, but the post gives {want}"
        assert m.split == ("fit" if (first + i) % 2 == 0 else "holdout"), f"{rid}: split {m.split}"
        if algorithm == "nccl":
            assert "forced" not in m.description, f"{rid}: NCCL's own choice, but described as {m.description!r}"
        else:
            forced = algorithm.split(":", 1)[1].replace(":", "/") + " forced"
            assert forced in m.description, f"{rid}: described as {m.description!r}, should say {forced!r}"
        assert "e4e008db99d4bbfc58f160ba620cb0e4a0ff0d63" in m.citation.url and m.citation.date == "2026-08-02", m.citation
        assert ("H200" in m.citation.source) == ("h200" in rid), (rid, m.citation.source)


# The eleventh session (2)'s rows as NVIDIA/dgxc-benchmarking's nccl/README.md (8e77d60) prints them: the
# out-of-place busbw of the rule's sizes of its 8 B to 16 GiB sweep on one 8x H100 node, and NCCL's choice.
_DGXC_H100 = [
    ("nccl-allreduce-h100-1x8-32KiB-b2b", 32 * 2**10, 2.97, "ring/LL"),
    ("nccl-allreduce-h100-1x8-1MiB-b2b", 2**20, 67.04, "ring/LL"),
    ("nccl-allreduce-h100-1x8-32MiB-b2b", 32 * 2**20, 294.69, "nvls/Simple"),
    ("nccl-allreduce-h100-1x8-1GiB-b2b", 2**30, 466.33, "nvls/Simple"),
    ("nccl-allreduce-h100-1x8-16GiB-b2b", 16 * 2**30, 479.90, "nvls/Simple"),
]


def test_eleventh_session_2_rows_are_transcribed_as_cited():
    from simdist.validation import collectives
    ms = collectives.measurements()
    ids = [m.id for m in ms]
    first = ids.index(_DGXC_H100[0][0])
    assert ids[first:first + len(_DGXC_H100)] == [r[0] for r in _DGXC_H100], ids[first:]
    for i, (rid, nbytes, busbw, choice) in enumerate(_DGXC_H100):
        m = ms[first + i]
        assert m.published == busbw, f"{rid}: published={m.published}, but the README prints {busbw}"
        assert m.split == ("fit" if (first + i) % 2 == 0 else "holdout"), f"{rid}: split {m.split}"
        # `nGpus 1` with one process per GPU: timed back to back; no NCCL version printed: the release of its date
        assert "back-to-back timing" in m.description and "NCCL 2.28.9" in m.description, m.description
        assert f"picks {choice}," in m.derivation, f"{rid}: {m.derivation!r}, NCCL's choice should be {choice}"
        c = m.citation
        assert "8e77d607c06f8c8603568ba7e49e65f8ff88c1b8" in c.url and c.date == "2025-12-04", c
        assert "NVIDIA/dgxc-benchmarking" in c.source and "out-of-place" in c.where, c


# Issue 26's twelfth session: waynehacking8/nccl-collectives-bench, the rule's sizes of each all-reduce sweep of
# NCCL's own choice (out-of-place busbw as committed); the choice where the run logged it (NCCL_DEBUG_SUBSYS=
# TUNING, 256 MiB to 8 GiB: "Algo RING proto SIMPLE" on 2 and 4 GPUs, "Algo NVLS proto SIMPLE" on 6).
_WH = [
    ("nccl-allreduce-h100-1x4-32KiB", 32 * 2**10, 1.96, None, "8ab7496"),
    ("nccl-allreduce-h100-1x4-1MiB", 2**20, 58.79, None, "8ab7496"),
    ("nccl-allreduce-h100-1x4-32MiB", 32 * 2**20, 286.29, None, "8ab7496"),
    ("nccl-allreduce-h100-1x4-1GiB", 2**30, 355.35, "ring/Simple", "8ab7496"),
    ("nccl-allreduce-h100-1x4-8GiB", 8 * 2**30, 366.18, "ring/Simple", "8ab7496"),
    ("nccl-allreduce-h100-1x4-32KiB-b2b", 32 * 2**10, 2.93, None, "207ff75"),
    ("nccl-allreduce-h100-1x4-1MiB-b2b", 2**20, 65.54, None, "207ff75"),
    ("nccl-allreduce-h100-1x4-16MiB-b2b", 16 * 2**20, 237.84, None, "207ff75"),
    ("nccl-allreduce-h100-1x2-1GiB", 2**30, 327.58, "ring/Simple", "ec97f06"),
    ("nccl-allreduce-h100-1x2-8GiB", 8 * 2**30, 347.35, "ring/Simple", "ec97f06"),
    ("nccl-allreduce-h100-1x6-1GiB", 2**30, 424.14, "nvls/Simple", "ec97f06"),
    ("nccl-allreduce-h100-1x6-8GiB", 8 * 2**30, 442.87, "nvls/Simple", "ec97f06"),
]


def test_twelfth_session_rows_are_transcribed_as_cited():
    from simdist.validation import collectives
    ms = collectives.measurements()
    ids = [m.id for m in ms]
    first = ids.index(_WH[0][0])
    assert ids[first:first + len(_WH)] == [r[0] for r in _WH], ids[first:]
    for i, (rid, nbytes, busbw, choice, commit) in enumerate(_WH):
        m = ms[first + i]
        assert m.published == busbw, f"{rid}: published={m.published}, but the committed sweep prints {busbw}"
        assert m.split == ("fit" if (first + i) % 2 == 0 else "holdout"), f"{rid}: split {m.split}"
        # every file's header: nccl-library=22902; `-g N` timed per call, the CUDA-graph sweep (-G 1) back to back
        assert "NCCL 2.29.2" in m.description, m.description
        assert ("back-to-back timing" in m.description) == rid.endswith("-b2b"), m.description
        if choice is not None:
            assert f"picks {choice}," in m.derivation, f"{rid}: {m.derivation!r}, NCCL logged {choice}"
        c = m.citation
        assert commit in c.url and "waynehacking8/nccl-collectives-bench" in c.source, c
        assert "out-of-place" in c.where and c.date.startswith("2026-06-0"), c
