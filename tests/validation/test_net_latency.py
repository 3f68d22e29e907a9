"""The network plugin's two latencies (simdist.validation.net_latency; docs/validation.md "Nineteenth session:
the rows still over 25%"): each candidate moves an EFA call by its latency difference on NCCL's crossings
(expected values from tuning.cc's arithmetic, computed here), none moves NCCL's choice, a table row or a
network without a plugin term, and the doc shows the tables this simdist computes."""

from __future__ import annotations

import math
import os

import pytest

from simdist.sim import nccl
from simdist.validation import collectives, net_latency

DOC = os.path.join(os.path.dirname(__file__), "..", "..", "docs", "validation.md")
KiB, MiB = 2**10, 2**20


@pytest.mark.parametrize("which,nbytes", [("p5", 32 * KiB), ("p5", 1 * MiB), ("p4de", 32 * KiB), ("p4de", 32 * MiB)])
def test_each_candidate_moves_an_efa_call_by_its_latency_on_nccls_crossings(which, nbytes):
    plugin = {"p4de": "aws-ofi-nccl-1.8.1/p4de", "p5": "aws-ofi-nccl-1.8.1/p5"}[which]
    choice = collectives._choice(net_latency._setup(which), "all_reduce", nbytes, "nccl")
    # 2 nodes: a tree crosses the network 2 x log2(2) = 2 times; tuning.cc adds the plugin's latency once
    # more with Simple ("the flush extra latency").
    algo, proto = choice.split(",")[0].split("/")
    assert algo == "tree", f"{which} {nbytes} B: NCCL's choice {choice}; this test's crossing count is the tree's"
    per_crossing = 2 if proto == "Simple" else 1
    with net_latency.applied("declared"):
        base = net_latency.per_call_us(which, nbytes)
    for name in net_latency.CANDIDATES:
        want = 2 * per_crossing * (net_latency.delivered(name, plugin) - 75.0)
        with net_latency.applied(name):
            got = net_latency.per_call_us(which, nbytes) - base
        assert math.isclose(got, want, abs_tol=1e-6), (
            f"candidate {name} moved the {nbytes} B all-reduce on {which} ({choice}) by {got:.4f} us, "
            f"but should move it by {want:.4f} us")


def test_measured_latencies_are_the_published_figures():
    assert net_latency.delivered("measured", "aws-ofi-nccl-1.8.1/p5") == 21.85, "p5.48xlarge osu_latency, 8 B"
    assert net_latency.delivered("measured", "aws-ofi-nccl-1.8.1/p4de") == 75.0, (
        "no p4d/p4de osu_latency is published: 'measured' keeps the declared figure")
    assert net_latency.delivered("measured_nearest", "aws-ofi-nccl-1.8.1/p4de") == 18.27, "c5n.18xlarge, 8 B"
    assert net_latency.delivered("choice_only", "aws-ofi-nccl-1.8.1/p5") == 0.0
    for name in net_latency.CANDIDATES:
        assert net_latency.delivered(name, "nccl") == 0.0, f"{name}: NCCL's own transports declare no latency"


def test_candidates_leave_choices_other_networks_and_restore_the_model():
    sizes = (8, 32 * KiB, 1 * MiB, 32 * MiB, 1 << 30)
    choices = {(w, n): collectives._choice(net_latency._setup(w), "all_reduce", n, "nccl")
               for w in ("p4de", "p5", "oke") for n in sizes}
    oke = {n: net_latency.per_call_us("oke", n) for n in sizes}
    for name in net_latency.CANDIDATES:
        with net_latency.applied(name):
            for (w, n), c in choices.items():
                got = collectives._choice(net_latency._setup(w), "all_reduce", n, "nccl")
                assert got == c, f"candidate {name} changed NCCL's choice on {w} at {n} B: {got}, but should stay {c}"
            for n, t in oke.items():
                got = net_latency.per_call_us("oke", n)
                assert got == t, f"candidate {name} moved the OKE RoCE call at {n} B ({got} us, was {t}); no plugin term there"
    assert nccl.options.__module__ == "simdist.sim.nccl", "applied() did not restore nccl.options"
    with pytest.raises(ValueError, match="unknown candidate 'x'"):
        with net_latency.applied("x"):
            pass


def test_no_candidate_moves_a_table_row():
    base = net_latency.evaluate("declared")
    table = {m.id for m in collectives.measurements()}
    for name in net_latency.CANDIDATES[1:]:
        p = net_latency.evaluate(name)
        moved = sorted(i for i in table if p.errors[i] != base.errors[i])
        assert not moved, f"candidate {name} moved table rows {moved}; no table row runs a plugin that declares a latency"
        assert (p.table_fit, p.table_holdout) == (base.table_fit, base.table_holdout)


def test_doc_shows_the_tables_this_simdist_computes():
    with open(DOC, encoding="utf-8") as fh:
        doc = fh.read()
    held = [net_latency.evaluate(n) for n in net_latency.CANDIDATES]
    for table in (net_latency.report(held), net_latency.rows_report(held), net_latency.sweep_report(),
                  net_latency.oke_report()):
        assert table in doc, f"docs/validation.md lacks this table (python -m simdist.validation.net_latency):\n{table}"
