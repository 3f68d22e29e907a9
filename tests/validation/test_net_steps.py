"""NCCL's network pipeline step by step on the AWS EFA sweeps (simdist.validation.net_steps; docs/validation.md
"Nineteenth session (2): the EFA step cost"): the chunk a step carries is NCCL 2.20.3's rule (expected values
worked through enqueue.cc's loops here), a step's message takes aws-ofi-nccl's eager or rendezvous path by its
size, the credit cycle is 2 L + t over NCCL_STEPS slots, and the doc shows the table this simdist computes."""

from __future__ import annotations

import math
import os

import pytest

from simdist.validation import net_latency, net_steps

DOC = os.path.join(os.path.dirname(__file__), "..", "..", "docs", "validation.md")
KiB, MiB, GiB = 2**10, 2**20, 2**30


# enqueue.cc computeCollChunkInfo on 2 nodes x 8 GPUs (16 ranks). LL128: step 4,915,200 / 8 = 614,400, chunk
# 614,400 / 16 x 15 = 576,000; nstepsLL128 = 1 + log2(2) + 0.1 x 8 = 2.8; halve while bytes / (channels x chunk)
# < 2.8 x 64 / 8 = 22.4 and chunk > 131072 (576,000 -> 288,000 -> 144,000 -> 72,000), then while < 2.8 x 16 / 8 = 5.6
# and chunk > 32768: 1 MiB / 16 ch. = 65,536 B a channel: 72,000 -> 36,000 -> 18,000; 4 MiB: 262,144 / 36,000 = 7 >= 5.6.
# Simple: NCCL_BUFFSIZE 8 MiB / 8 = 1 MiB, no halving for tree. LL: 524,288 / 8 / 2 = 32,768. NVLS-tree (8 ch. x 8
# heads = 64 ops, cap = the step on < 4 nodes): 128 MiB < 32 x 64 x 1 MiB -> 256 KiB, < 16 x 64 x 256 KiB -> 128 KiB,
# not < 4 x 64 x 128 KiB; 1 GiB < 32 x 64 x 1 MiB -> 256 KiB, not < 16 x 64 x 256 KiB.
@pytest.mark.parametrize("algorithm,protocol,nbytes,channels,want", [
    ("tree", "LL128", 1 * MiB, 16, 18000),
    ("tree", "LL128", 4 * MiB, 16, 36000),
    ("tree", "LL128", 16 * MiB, 16, 72000),
    ("tree", "LL128", 32 * MiB, 16, 72000),
    ("tree", "LL128", 64 * GiB, 16, 576000),
    ("tree", "Simple", 32 * KiB, 1, 1 * MiB),
    ("tree", "Simple", 1 * GiB, 4, 1 * MiB),
    ("tree", "LL", 32 * KiB, 8, 32768),
    ("nvls_tree", "Simple", 128 * MiB, 8, 131072),
    ("nvls_tree", "Simple", 1 * GiB, 8, 262144),
])
def test_chunk_is_nccls_rule(algorithm, protocol, nbytes, channels, want):
    got = net_steps.chunk_bytes(algorithm, protocol, nbytes, channels, 16, 2, net_steps.AWS_BUFFSIZE)
    assert got == want, f"chunk_bytes({algorithm}/{protocol}, {nbytes} B, {channels} ch.) = {got}, but should be {want}"


def test_chunk_refuses_what_it_does_not_model():
    with pytest.raises(ValueError, match="no chunk rule for nvls/Simple"):
        net_steps.chunk_bytes("nvls", "Simple", MiB, 16, 8, 1)


def test_wire_bytes_follow_the_protocols_lines():
    assert net_steps.wire_bytes("LL", 4096) == 8192, "LL: a 16-byte line carries 8 data bytes"
    assert net_steps.wire_bytes("LL128", 72000) == 76800, "LL128: a 128-byte line carries 120 data bytes"
    assert net_steps.wire_bytes("Simple", 1000) == 1000


def test_steps_take_the_plugins_paths_and_the_credit_cycle():
    p5 = {s.nbytes: s for s in net_steps.steps("p5")}
    assert p5[32 * KiB].path == "eager" and p5[32 * KiB].wire == 8192, (
        f"p5 32 KiB: {p5[32 * KiB].path} {p5[32 * KiB].wire} B, but an 8 KiB LL message is eager (<= eager_max_size)")
    assert p5[1 * MiB].path == "rendezvous", f"p5 1 MiB: {p5[1 * MiB].path}, but a 19,200 B LL128 message waits for its ctrl"
    assert all(s.path == "send/recv" for s in net_steps.steps("p4de")), "p4de runs aws-ofi-nccl's SENDRECV protocol"
    for s in p5.values():
        want = (2 * 21.85 + s.transfer_us) / 8
        assert math.isclose(s.bound_us, want), f"p5 {s.nbytes} B: bound {s.bound_us} us, but should be (2L + t)/8 = {want}"
        one_rail = s.wire <= net_steps.ROUND_ROBIN
        assert math.isclose(s.rail_gbs, 12.5 * 0.9 * (1 if one_rail else 4)), (
            f"p5 {s.nbytes} B: rail {s.rail_gbs} GB/s, but a {s.wire:.0f} B message moves on "
            f"{'one EFA device' if one_rail else 'the GPU’s 4 rails'} at net_efficiency 0.9")


def test_no_sweep_size_binds_the_credit_cycle():
    # The documented finding: with 8 slots a connection and the measured L, no connection of either sweep needs
    # longer a step than simdist's bandwidth already gives it (or it has no more steps than slots).
    for which in ("p4de", "p5"):
        for s in net_steps.steps(which):
            assert not s.binding, (f"{which} {s.nbytes} B: the credit cycle binds ({s.messages} steps, bound "
                                   f"{s.bound_us:.2f} us > simdist's {s.period_us:.2f} us a step); the doc says none does")


def test_latency_is_the_published_one_where_there_is_one():
    assert net_steps.latency_us("p5") == net_latency.MEASURED["aws-ofi-nccl-1.8.1/p5"] == 21.85
    assert net_steps.latency_us("p4de") == net_latency.NEAREST["aws-ofi-nccl-1.8.1/p4de"] == 18.27


def test_doc_shows_the_table_this_simdist_computes():
    with open(DOC, encoding="utf-8") as fh:
        doc = fh.read()
    table = net_steps.report()
    assert table in doc, f"docs/validation.md does not hold net_steps.report() as computed:\n{table}"
