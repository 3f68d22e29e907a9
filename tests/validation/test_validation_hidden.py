"""Issue 26's hidden-set proxy (simdist.validation.hidden, `simdist validate --hidden`): its rows are
cited and split like the table's, stay out of the table and of the factors' fit, and
docs/validation.md shows the figures this simdist computes for them."""

from __future__ import annotations

import os
import re

import pytest

from simdist.cli import main
from simdist.validation import collectives, harness, hidden, training

ROOT = os.path.join(os.path.dirname(__file__), "..", "..")
DOC = os.path.join(ROOT, "docs", "validation.md")
HIDDEN_TABLE = os.path.join(ROOT, "docs", "validation", "hidden", "validation-table.md")


@pytest.fixture(scope="module")
def results() -> list[harness.Result]:
    return harness.evaluate(hidden.measurements())


def test_hidden_rows_are_cited_split_and_apart_from_the_table():
    rows = hidden.measurements()
    ids = [m.id for m in rows]
    # 73 rows of the third round, 15 of the seventeenth session's seventh round, 10 of the thirty-first's eighth
    assert len(ids) == len(set(ids)) == 98, f"{len(ids)} rows, {len(set(ids))} distinct ids; expected 98"
    table, _ = harness.collect()
    shared = set(ids) & {m.id for m in table}
    assert not shared, f"hidden rows also in the table: {sorted(shared)}"
    assert not set(training.HIDDEN_EXPERIMENTS) & set(training.EXPERIMENTS), "a hidden experiment is in the fit rows"
    for m in rows:
        c = m.citation
        assert c.url.startswith("https://github.com/") and "/blob/" in c.url and c.date, (m.id, c)
        assert m.split in ("fit", "holdout"), (m.id, m.split)
    coll = [m for m in rows if m.kind == "collective"]
    # the halves continue the table's alternation from its 36 collective rows of the third round, whatever
    # rows the table gained since (the eleventh session (2) added five: no hidden row changes half)
    want = ["fit" if i % 2 == 0 else "holdout" for i in range(len(coll))]
    assert [m.split for m in coll] == want, f"collective halves {[m.split for m in coll]}, expected {want}"
    train = [m for m in rows if m.kind == "training"]
    assert [m.split for m in train] == ["fit" if i % 2 == 0 else "holdout" for i in range(len(train))]


def test_hidden_halves_do_not_move_when_the_table_grows(monkeypatch):
    before = [m.split for m in collectives.hidden_measurements()]
    monkeypatch.setattr(collectives, "_ROWS", collectives._ROWS + collectives._ROWS[:1])
    after = [m.split for m in collectives.hidden_measurements()]
    assert after == before, f"one more table row moved the hidden halves: {before} -> {after}"


def test_forced_nvls_rows_run_nvls():
    azure = [m for m in hidden.measurements() if m.citation in (collectives.AZ_H100, collectives.AZ_H200)]
    assert len(azure) == 10, f"{len(azure)} rows of Azure's NVLS sweeps, expected 10"
    for m in azure:
        assert m.id.endswith("-nvls") and "picks nvls/Simple" in m.derivation, (m.id, m.derivation)


def test_seventh_round_rows_are_back_to_back_two_node_sweeps_of_nccls_choice():
    new = [m for m in hidden.measurements()
           if m.citation in (collectives.AWS_P4DE, collectives.AWS_P5, collectives.OKE_A100)]
    assert len(new) == 15, f"{len(new)} seventh-round rows, expected 15 (5 sizes of 3 sweeps)"
    for m in new:
        assert m.id.endswith(("-b2b-efa", "-b2b-oke")) and "-2x8-" in m.id and "forced" not in m.description, (m.id, m.description)


def test_eighth_round_rows_are_the_4_gpu_hosts_all_gather_and_reduce_scatter_sweeps():
    new = [m for m in hidden.measurements() if m.citation in (collectives.WH_G4_AG, collectives.WH_G4_RS)]
    kinds = sorted({m.id.split("-")[1] for m in new})
    assert len(new) == 10 and kinds == ["allgather", "reducescatter"], \
        f"{len(new)} eighth-round rows of {kinds}, expected 10 (5 sizes of the all-gather and reduce-scatter sweeps)"
    for m in new:
        assert "-1x4-" in m.id and "forced" not in m.description and "back-to-back" not in m.description, \
            (m.id, m.description)
        assert "NCCL model picks ring/" in m.derivation, f"{m.id}: 4 GPUs build no NVLS graph, got {m.derivation}"
    assert not {m.id for m in new} & {m.id for m in collectives.measurements()}, "an eighth-round row is in the table"


def test_the_doc_shows_the_hidden_table_this_simdist_computes(results):
    text = open(HIDDEN_TABLE, encoding="utf-8").read()
    want = harness.markdown(results, harness.summarize(results))
    assert text == want, ("docs/validation/hidden/validation-table.md is stale: rerun "
                          "`simdist validate --hidden --out docs/validation/hidden`")


def test_the_doc_states_the_hidden_sets_summary(results):
    s = harness.summarize(results)["overall"]
    over = sum(abs(r.error) > 0.25 for r in results)
    doc = open(DOC, encoding="utf-8").read()
    claim = re.search(r"\*\*median \|error\|\s+([\d.]+)%, max ([\d.]+)%, (\d+) rows over 25%\*\*", doc)
    assert claim, ("docs/validation.md states the hidden set's summary "
                   "('**median |error| X%, max Y%, N rows over 25%**')")
    got = (f"{s['median'] * 100:.1f}", f"{s['max'] * 100:.1f}", str(over))
    assert claim.groups() == got, f"the doc says {claim.groups()}, this simdist computes {got}"


def test_cli_hidden_runs_the_proxy_not_the_table(capsys):
    assert main(["validate", "--hidden", "--kind", "collective"]) == 0
    out = capsys.readouterr().out
    assert "nccl-allreduce-h100-1x8-32KiB-nvls" in out and "nccl-allreduce-a100-1x8-1MiB " not in out, out
    assert "collective n=35" in out, out


def test_aws_rows_run_their_plugin_and_nccl_proto():
    # The AWS README's Dockerfile builds aws-ofi-nccl 1.8.1, which sets NCCL_PROTO=simple on p4de (its SENDRECV
    # endpoint lacks 128-byte in-order delivery) and not on p5 (RDMA): docs/validation.md "Eighteenth session".
    rows = {m.citation: [] for m in hidden.measurements()}
    for m in hidden.measurements():
        rows[m.citation].append(m)
    for m in rows[collectives.AWS_P4DE]:
        assert "aws-ofi-nccl-1.8.1/p4de" in m.description and "/Simple," in m.derivation, (m.id, m.derivation)
    p5 = [m.derivation.split("picks ")[1].split(",")[0] for m in rows[collectives.AWS_P5]]
    assert any(not c.endswith("/Simple") for c in p5), f"p5 keeps LL/LL128 under aws-ofi-nccl 1.8.1, got {p5}"
    for m in rows[collectives.OKE_A100]:
        assert "aws-ofi-nccl" not in m.description, f"{m.id}: OKE runs NCCL's own RoCE transport"
