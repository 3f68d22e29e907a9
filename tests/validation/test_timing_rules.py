"""The eleventh session's evidence on the collective rows (simdist.validation.timing_rules;
docs/validation.md "Eleventh session"): the rules re-time exactly what the table simulates, the
table's fit half prefers simdist's per-call rule (host side added to the kernel) to nccl-tests'
overlapped one, NCCL's tuner picks ring/LL128 for the H100 8 MiB ring row whatever the ring
graph's bandwidth, an LL128 latency factor would be set by one fit row (on the eleventh session's 46
rows and on the whole table since the eleventh session (2) added NVIDIA's DGX H100 sweep), and the doc
shows the tables this simdist computes."""

from __future__ import annotations

import math
import os

import pytest

from simdist.sim import nccl
from simdist.validation import collectives, timing_rules as tr

DOC = os.path.join(os.path.dirname(__file__), "..", "..", "docs", "validation.md")


def test_the_sum_rule_is_what_the_table_simulates():
    sims = {m.id: m for m in collectives.measurements() + collectives.hidden_measurements()}
    for r in tr.rows() + tr.rows(hidden=True):
        want = sims[r.id].simulate()
        got = tr.busbw(r, tr.SUM.time(r))
        assert math.isclose(got, want, rel_tol=1e-12), f"{r.id}: sum rule gives {got} GB/s, but the table simulates {want}"
        assert r.split == sims[r.id].split, f"{r.id}: split {r.split}, but the table's is {sims[r.id].split}"


def test_the_fit_half_prefers_the_sum_rule():
    s = tr.fit("sum")
    assert (s.rule.host, s.rule.ramp) == (nccl.FACTORS.overhead, nccl.FACTORS.ramp_bytes), (
        f"sum rule refitted to host {s.rule.host}, ramp {s.rule.ramp}, but simdist's fitted factors are "
        f"{nccl.FACTORS.overhead}, {nccl.FACTORS.ramp_bytes}")
    m = tr.fit("max")
    assert m.fit_mean > s.fit_mean + 0.003, (
        f"max(host, kernel) fitted: fit-half mean |error| {m.fit_mean:.4f}, but the doc says it is worse than the "
        f"sum rule's {s.fit_mean:.4f}")
    g = tr.fit("max", gaps=tr.GAP_GRID)
    assert g.fit_mean >= s.fit_mean - 1e-12, (
        f"max(host, kernel + gap) fitted: fit-half mean |error| {g.fit_mean:.4f}, better than the sum rule's "
        f"{s.fit_mean:.4f}")
    # the best overlap rule is the sum rule in disguise: the gap is the overhead and the host never binds
    assert g.rule.gap == nccl.FACTORS.overhead and g.rule.host <= g.rule.gap, f"max rule with gap fitted to {g.rule}"


@pytest.mark.parametrize("bus_gbs", [240.0, 320.0, 352.0, 360.0, 384.0, 480.0])
def test_nccl_picks_ring_ll128_at_8mib_on_h100_whatever_the_ring_graph(bus_gbs):
    # the ring graph's channels x bwIntra on an 8x H100 NVSwitch node: 12 x 20 to 24 x 20 GB/s
    system = nccl.System(nranks=8, nodes=1, intra_bw=bus_gbs * 1e9, arch="hopper", nvls=True, release="2.30.7")
    c = nccl.choose("all_reduce", 8 * 2**20, system, algorithm="ring")
    times = {o.protocol: o.model_time for o in nccl.options("all_reduce", 8 * 2**20, system) if o.algorithm == "ring"}
    assert c.protocol == "LL128", (
        f"ring protocol at 8 MiB with a {bus_gbs} GB/s ring graph is {c.protocol} (model times {times}), but should "
        "be LL128")


def test_an_ll128_latency_factor_is_set_by_one_fit_row():
    ll128_fit = [r.id for r in tr.rows() if r.split == "fit" and tr._choice(r, nccl.FACTORS.ramp_bytes).protocol == "LL128"]
    assert ll128_fit == ["nccl-allreduce-h100-1x8-32MiB-nccl230-ring"], f"LL128 fit rows: {ll128_fit}"
    f = tr.fit("sum", ll128=tr.LL128_GRID)
    err = tr.evaluate(f.rule, tr.rows())
    assert abs(err[ll128_fit[0]]) < 0.005, (
        f"LL128 factor fitted to {f.rule.ll128}: its one fit row is at {err[ll128_fit[0]]:+.2%}, but the doc says the "
        "fit zeroes it")
    assert f.rule.ll128 < 1.0 and f.fit_mean < tr.fit("sum").fit_mean, f"LL128 fit: {f}"


def test_the_ll128_rows_are_faster_than_simdists_kernel_alone():
    # whatever the timing rule (a host side added or overlapped), a call is at least the kernel: both LL128
    # rows of the table took less than simdist's LL128 kernel with NCCL's tuner latency
    room = tr.ll128_room()
    assert [r.id for r, *_ in room] == ["nccl-allreduce-h100-1x8-8MiB-nccl230-ring",
                                        "nccl-allreduce-h100-1x8-32MiB-nccl230-ring"], [r.id for r, *_ in room]
    for r, measured, kernel, left in room:
        c = tr._choice(r, nccl.FACTORS.ramp_bytes)
        assert measured < kernel and 0 < left < c.latency, (
            f"{r.id}: measured {measured * 1e6:.1f} us, simdist's kernel {kernel * 1e6:.1f} us (latency "
            f"{c.latency * 1e6:.1f}), room for a latency {left * 1e6:.1f} us; the doc says the kernel alone is slower")


def test_doc_shows_the_tables_this_simdist_computes():
    with open(DOC, encoding="utf-8") as fh:
        doc = fh.read()
    # the eleventh session's tables on its 46 rows, and the eleventh session (2)'s on its 51
    assert len(tr.rows()[:tr.ELEVENTH_TABLE_ROWS]) == 46 and len(tr.rows()) > 51, len(tr.rows())
    for table, section in ((None, "Eleventh session"), (tr.rows()[:tr.ELEVENTH_2_TABLE_ROWS], "Eleventh session (2)")):
        report = tr.report(table)
        assert report in doc, (f"docs/validation.md '{section}' does not hold `python -m simdist.validation.timing_rules`'s "
                               "output:\n" + report)
