"""The twentieth session's evidence on the training rows (simdist.validation.breakdown; docs/validation.md
"Twentieth session: the training rows"): the breakdown of every row over 15% adds up to the simulated
step and says what the doc says dominates it, the published multi-node BERT lines carry a
per-optimizer-step cost that does not grow with the node count, the same program runs slower per GPU
on a DGX-1 than on a DGX-2, and the doc shows the tables this simdist computes."""

from __future__ import annotations

import math
import os

import pytest

from simdist.validation import breakdown, training

DOC = os.path.join(os.path.dirname(__file__), "..", "..", "docs", "validation.md")

# the rows over 15% when the session started (docs/validation.md "Twentieth session: the training rows")
OVER_15 = ["gpt2-1558m-h100-8gpu-bf16", "bert-a100-32node-s512-tf32", "bert-tf1-v100-16g-4gpu-s128-amp",
           "bert-tf1-v100-16g-8gpu-s128-fp32", "bert-tf1-v100-16g-8gpu-s512-amp", "bert-tf1-v100-32g-4gpu-s512-amp",
           "bert-tf1-a100-32node-s128-amp", "bert-tf1-a100-32node-s512-amp", "bert-tf1-a100-32node-s512-tf32"]


@pytest.fixture(scope="module")
def rows() -> list[training.Experiment]:
    return breakdown.over(0.15)


def test_the_rows_over_15_percent_are_the_docs(rows):
    got = [e.id for e in rows]
    assert got == OVER_15, f"rows over 15%: {got}, but the doc breaks down {OVER_15}"


def test_the_parts_add_up_to_the_simulated_throughput(rows):
    for e in rows:
        b = breakdown.breakdown(e)
        per_example = e.seq if e.model == "gpt2" else 1
        got = e.batch * e.gpus * e.accumulation * per_example / b.step
        want = training.simulate(e)
        assert math.isclose(got, want, rel_tol=1e-9), f"{e.id}: the breakdown gives {got}, but simulate gives {want}"
        assert math.isclose(sum(b.shares().values()), 1.0, rel_tol=1e-12), f"{e.id}: shares {b.shares()}"


def test_compute_bound_kernels_dominate_and_the_all_reduce_is_small(rows):
    for e in rows:
        b = breakdown.breakdown(e)
        sh = b.shares()
        assert b.dominant() == "compute-bound kernels" and sh["compute-bound kernels"] > 0.5, (
            f"{e.id}: dominated by {b.dominant()} ({sh}), but the doc says compute-bound kernels, over half the step")
        assert sh["all-reduce"] < 0.03, f"{e.id}: all-reduce {sh['all-reduce']:.2%} of the step, the doc says < 3%"
        if e.hosts == 1 and e.gpu == "V100":
            assert sh["all-reduce"] < 1e-3, f"{e.id}: all-reduce {sh['all-reduce']:.3%}, the doc says < 0.1%"


def test_the_published_step_cost_does_not_grow_with_the_node_count():
    lines = {(c.program, c.seq, c.mixed): c for c in breakdown.step_cost_lines()}
    assert len(lines) == 8, f"{len(lines)} multi-node BERT lines, expected 8 (TF1 and TF2, seq 128/512, 2 precisions)"
    for key in (("tf2", 128, True), ("tf2", 512, True)):
        c = lines[key]
        costs = [d for _, _, d, _ in c.cells]
        sims = [s for _, _, _, s in c.cells]
        assert [n for n, *_ in c.cells] == [1, 2, 8, 32], f"{key}: node counts {[n for n, *_ in c.cells]}"
        # every cell, 1 node (NVLink only) to 32 nodes, within 0.6x-1.6x of the line's C, and > 2.5x simdist's
        assert all(0.6 * c.cost < d < 1.6 * c.cost for d in costs), (
            f"{key}: per-cell step costs {[round(d * 1e3) for d in costs]} ms, but the doc says all within "
            f"0.6-1.6x of C = {c.cost * 1e3:.0f} ms")
        assert all(d > 2.5 * s for d, s in zip(costs, sims)), (
            f"{key}: published step costs {[round(d * 1e3) for d in costs]} ms, simdist's "
            f"{[round(s * 1e3) for s in sims]} ms: the doc says > 2.5x in every cell")
        # the 1-node cell (no network) carries it as well as the 32-node one
        assert costs[0] > 0.6 * costs[-1], f"{key}: 1 node {costs[0] * 1e3:.0f} ms, 32 nodes {costs[-1] * 1e3:.0f} ms"


def test_the_same_program_is_slower_per_gpu_on_a_dgx1():
    pairs = breakdown.same_batch_pairs()
    bert = [p for p in pairs if p.what.startswith("bert")]
    cnn = [p for p in pairs if not p.what.startswith("bert")]
    assert len(bert) == 11 and len(cnn) == 6, f"{len(bert)} BERT and {len(cnn)} CNN pairs, expected 11 and 6"
    assert all(0.06 < p.slower < 0.14 for p in bert), (
        f"TF1 BERT, DGX-1 32GB against DGX-2: {[f'{p.slower:+.1%}' for p in bert]}, the doc says +6% to +14% each")
    assert all(-0.01 < p.slower < 0.05 for p in cnn), (
        f"ConvNets, DGX-1 against DGX-2: {[f'{p.slower:+.1%}' for p in cnn]}, the doc says -1% to +5% each")


def test_the_dgx1_diagnostic_is_what_the_doc_says():
    slow, before, after, b16, a16 = breakdown.dgx1_diagnostic()
    assert 0.08 < slow < 0.095, f"the TF1 BERT pairs' mean DGX-1 slowdown is {slow:.2%}, the doc says 8.8%"
    assert before == "8.0% / 30.4% (2)" and after == "6.8% / 19.9% (0)", (
        f"hidden training rows {before} -> {after}, but the doc says 8.0% / 30.4% (2) -> 6.8% / 19.9% (0)")
    assert b16 == "13.1% / 30.4% (2)" and a16 == "4.8% / 19.9% (0)", f"DGX-1 16GB {b16} -> {a16}"


def test_the_doc_shows_the_breakdown_tables_this_simdist_computes():
    doc = open(DOC, encoding="utf-8").read()
    tables = breakdown.report().split("\n\n")
    assert len(tables) == 4, f"breakdown.report() gave {len(tables)} tables, expected 4"
    for t in tables:
        assert t.strip() + "\n" in doc, ("docs/validation.md's 'Twentieth session: the training rows' table starting "
                                         f"{t[:60]!r} is stale: paste `python -m simdist.validation.breakdown`'s tables")
