"""The forced-NVLS floor (simdist.validation.nvls_floor; docs/validation.md "Fifteenth session: the NVLS
floor"): each candidate moves an NVLS time by what its source reading says (expected values from NCCL's
constants, computed here), none moves NCCL's choice or a non-NVLS row, none beats simdist's rule on the
table's fit half, and the doc shows the tables this simdist computes."""

from __future__ import annotations

import math
import os

import pytest

from simdist.sim import nccl
from simdist.validation import collectives, nvls_floor

DOC = os.path.join(os.path.dirname(__file__), "..", "..", "docs", "validation.md")
KiB, MiB = 2**10, 2**20


def _us_per_call(setup: collectives.Setup, nbytes: int) -> float:
    busbw = collectives.simulate_busbw(setup, "all_reduce", nbytes, "nccl:nvls")
    return nbytes * nccl.bus_bandwidth_factor("all_reduce", setup.gpus) / (busbw * 1e9) * 1e6


def test_nvls_latency_per_release_is_nccls_tuning_constant():
    # tuning.cc: baseLat[NVLS][SIMPLE] 23 us in 2.18.5; hwLat[NVLINK][NVLS][SIMPLE] 23 us in 2.20.5, 25 us in 2.21.5
    # and 2.30.7; 40 us (baseLat) in 2.17.1.
    for release, want in (("2.17.1", 40.0), ("2.18.5", 23.0), ("2.20.5", 23.0), ("2.21.5", 25.0), ("2.30.7", 25.0)):
        got = nvls_floor.nvls_latency(release) * 1e6
        assert math.isclose(got, want), f"nvls_latency({release!r})={got} us, but should be {want} us (tuning.cc)"


@pytest.mark.parametrize("gpus,nbytes", [(8, 32 * KiB), (8, 1 * MiB), (8, 32 * MiB), (5, 32 * MiB)])
def test_each_candidate_moves_the_nvls_time_by_its_source_reading(gpus, nbytes):
    setup = collectives.Setup("H200", gpus=gpus, release="2.20.5")
    step = 3.4 / 8   # hwLat[NVLINK][RING][SIMPLE] over NCCL_STEPS, us
    heads, channels = gpus, 16   # nHeads: the node's GPUs (connect.cc); NCCL_NVLS_NCHANNELS 16 (nvls.cc)
    chunk = nccl.nvls_chunk(nbytes, channels, heads)
    loops = max(1, math.ceil(nbytes / (channels * heads * chunk)))
    want = {"simdist": 0.0,
            "release_latency": -(25.0 - 23.0),
            "first_loop_in_latency": -heads * step,
            "nccl_floor": -(25.0 - 23.0) - heads * step,
            "nccl_step_count": loops * 8 * step - loops * heads * step}
    with nvls_floor.applied("simdist"):
        base = _us_per_call(setup, nbytes)
    for name in nvls_floor.CANDIDATES:
        with nvls_floor.applied(name):
            got = _us_per_call(setup, nbytes) - base
        assert math.isclose(got, want[name], abs_tol=1e-6), (
            f"candidate {name} moved the {nbytes} B forced-NVLS all-reduce on {gpus} H200s (NCCL 2.20.5) by {got:.4f} us, "
            f"but should move it by {want[name]:.4f} us")


def test_candidates_leave_choices_and_other_rows_and_restore_the_model():
    setup = collectives.Setup("H200", release="2.20.5")
    ring = collectives.simulate_busbw(setup, "all_reduce", 32 * MiB, "nccl:ring")
    auto = {n: collectives._choice(setup, "all_reduce", n, "nccl") for n in (32 * KiB, 1 * MiB, 32 * MiB, 1 << 30)}
    for name in nvls_floor.CANDIDATES:
        with nvls_floor.applied(name):
            assert collectives.simulate_busbw(setup, "all_reduce", 32 * MiB, "nccl:ring") == ring, (
                f"candidate {name} changed a ring all-reduce; it must time NVLS only")
            for n, c in auto.items():
                got = collectives._choice(setup, "all_reduce", n, "nccl")
                assert got == c, f"candidate {name} changed NCCL's choice at {n} B: {got}, but should stay {c}"
    assert nccl.options.__module__ == "simdist.sim.nccl", "applied() did not restore nccl.options"
    with pytest.raises(ValueError, match="unknown candidate 'x'"):
        with nvls_floor.applied("x"):
            pass


def test_no_candidate_beats_simdists_rule_on_the_fit_half():
    pts = {n: nvls_floor.evaluate(n) for n in nvls_floor.CANDIDATES}
    base = pts["simdist"].fit_mean
    for name, p in pts.items():
        assert p.fit_mean >= base - 1e-12, (
            f"candidate {name}: fit-half mean |error| {p.fit_mean:.4%} < simdist's {base:.4%}; the doc says none is better")
    assert pts["release_latency"].fit_mean == base, "the table has no NVLS row under a release whose NVLS latency differs"


def test_two_hidden_rows_need_a_kernel_below_nccls_own_estimate():
    fl = {f.id: f for f in nvls_floor.floors()}
    assert sorted(fl) == sorted(["nccl-allreduce-h100-1x8-32KiB-nvls", "nccl-allreduce-h100-1x8-1MiB-nvls",
                                 "nccl-allreduce-h200-1x8-32KiB-nvls", "nccl-allreduce-h200-1x8-1MiB-nvls"]), sorted(fl)
    below = sorted(i for i, f in fl.items() if f.kernel_bound < f.nccl_estimate)
    assert below == ["nccl-allreduce-h200-1x8-1MiB-nvls", "nccl-allreduce-h200-1x8-32KiB-nvls"], (
        f"rows whose 25% bound leaves a kernel below NCCL's own estimate: {below}, but the doc names the two H200 rows")
    f = fl["nccl-allreduce-h200-1x8-32KiB-nvls"]
    published_us = 32 * KiB * 2 * 7 / 8 / (1.84 * 1e3)   # the row's busbw, 1.84 GB/s
    assert math.isclose(f.published * 1e6, published_us, rel_tol=1e-9), (f.published, published_us)
    assert f.kernel_bound < f.nccl_latency, (
        f"H200 32 KiB: within 25% needs a kernel <= {f.kernel_bound * 1e6:.1f} us, which the doc says is below NCCL "
        f"2.20.5's NVLS latency alone ({f.nccl_latency * 1e6:.0f} us)")


def _doc() -> str:
    with open(DOC, encoding="utf-8") as fh:
        return fh.read()


def test_doc_shows_the_tables_this_simdist_computes():
    doc = _doc()
    held = [nvls_floor.evaluate(n) for n in nvls_floor.CANDIDATES]
    for table in (nvls_floor.floors_report(), nvls_floor.report(held), nvls_floor.moved_report(held)):
        assert table in doc, f"docs/validation.md lacks this table (python -m simdist.validation.nvls_floor):\n{table}"


@pytest.mark.slow   # the documented refit once per candidate
def test_doc_shows_the_refitted_table_this_simdist_computes():
    table = nvls_floor.report([nvls_floor.refit(n) for n in nvls_floor.CANDIDATES])
    assert table in _doc(), f"docs/validation.md lacks the refitted table:\n{table}"
