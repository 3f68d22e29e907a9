"""The eighth session's DGX-1 scaling evidence (simdist.validation.scaling; docs/validation.md
"Eighth session: DGX-1 scaling"): the DGX-1 ring bandwidth derived from its whitepaper's topology,
that simdist's gradient all-reduce is too small a share of the V100 TF1 rows for any communication
rule to move them, the published per-GPU micro-batch excess the doc states, and that the doc shows
the tables this simdist computes."""

from __future__ import annotations

import math
import os

import pytest

from simdist.sim import hardware
from simdist.validation import scaling, training

DOC = os.path.join(os.path.dirname(__file__), "..", "..", "docs", "validation.md")


def test_dgx1_ring_bandwidth_follows_from_the_topology():
    # 8 GPUs: three rings of single 25 GB/s links, each run both ways: all six links
    assert scaling.dgx1_ring_bandwidth(8) == 6 * 25e9 == hardware.GPUS["V100"].nvlink_per_direction, (
        f"8-GPU DGX-1 ring bandwidth {scaling.dgx1_ring_bandwidth(8)}, but should be 6 x 25 GB/s, the V100 preset's")
    # 4 GPUs (one quad): >= 6 links cross between the quads over 4 edges, so a GPU keeps 4 links in its quad
    assert scaling.dgx1_ring_bandwidth(4) == 4 * 25e9, (
        f"4-GPU DGX-1 ring bandwidth {scaling.dgx1_ring_bandwidth(4)}, but should be 4 x 25 GB/s")
    with pytest.raises(ValueError, match=r"gpus=2.*4 \(one quad\) or 8"):
        scaling.dgx1_ring_bandwidth(2)


def test_phases_give_the_rows_throughput():
    for e in (training.HIDDEN_EXPERIMENTS[2], training.HIDDEN_EXPERIMENTS[10], training.EXPERIMENTS[0]):
        micro, reduce, update = training.phases(e)
        got = e.batch * e.gpus * e.accumulation / (micro * e.accumulation + reduce + update)
        want = training.simulate(e)
        assert math.isclose(got, want, rel_tol=1e-12), f"{e.id}: phases give {got}, but simulate gives {want}"
        assert (reduce > 0.0) == (e.gpus > 1), f"{e.id}: all-reduce {reduce} s on {e.gpus} GPU(s)"


def test_no_communication_rule_can_move_the_v100_tf1_rows():
    rows = [e for e in training.HIDDEN_EXPERIMENTS if e.gpu == "V100" and e.gpus > 1]
    assert len(rows) == 28, f"{len(rows)} multi-GPU V100 TF1 rows, expected 28"
    worst = max(rows, key=scaling.comm_share)
    share = scaling.comm_share(worst)
    assert share < 1e-3, f"{worst.id}: all-reduce share {share:.4%}, but the doc says every V100 TF1 row is < 0.1%"


def test_published_excess_per_micro_batch_as_the_doc_states():
    rows = scaling.excess_rows()
    a100 = [d for x in rows if x.program == "tf1" and x.table == "DGX A100" for _, d in x.more]
    assert len(a100) == 8 and max(abs(d) for d in a100) < 2.5e-3, (
        f"TF1 DGX A100 excess {[round(d * 1e3, 1) for d in a100]} ms, but the doc says 8 cells within 2.5 ms")
    v100 = [d for x in rows if x.program == "tf1" and x.table.startswith("DGX-") for _, d in x.more]
    assert len(v100) == 25, f"{len(v100)} multi-GPU cells in the TF1 V100 tables with a 1-GPU cell, expected 25"
    mean = scaling.v100_tf1_mean_excess()
    assert math.isclose(mean, sum(v100) / len(v100)) and 0.015 < mean < 0.020, (
        f"the TF1 V100 tables' mean excess is {mean * 1e3:.1f} ms, but the doc says 17.4 ms")


@pytest.fixture(scope="module")
def cands() -> list[tuple[str, str, str, str]]:
    return scaling.candidates()


@pytest.fixture(scope="module")
def report(cands) -> str:
    return scaling.report(cands)


def test_the_doc_shows_the_scaling_tables_this_simdist_computes(report):
    doc = open(DOC, encoding="utf-8").read()
    tables = report.split("\n\n")
    assert len(tables) == 2, f"scaling.report() gave {len(tables)} tables, expected 2"
    for t in tables:
        assert t.strip() + "\n" in doc, ("docs/validation.md's 'Eighth session: DGX-1 scaling' table starting "
                                         f"{t[:60]!r} is stale: paste `python -m simdist.validation.scaling`'s tables")


def test_the_candidates_leave_main_unchanged_and_the_rows_the_doc_says(cands):
    rows = {name: (all_rows, g16, moved) for name, all_rows, g16, moved in cands}
    base = rows["none (main's model)"]
    assert base[2] == "0.00%", f"the baseline moved a row by {base[2]}"
    quad = rows["DGX-1 4-GPU ring at the quad's 100 GB/s"]
    assert quad[:2] == base[:2] and float(quad[2].rstrip("%")) < 0.05, (
        f"the DGX-1 quad bandwidth gives {quad}, but the doc says it moves no row by 0.05% (base {base})")
