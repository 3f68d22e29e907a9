"""NCCL's model (simdist.sim.nccl) against NCCL's own rules and logged choices, and the
simulator's algorithm="nccl" collectives."""

from __future__ import annotations

import pytest

from simdist.sim import Simulator, collectives, nccl, presets

H200 = nccl.System(nranks=8, nodes=1, intra_bw=360e9, arch="hopper", nvls=True)
A100 = nccl.System(nranks=8, nodes=1, intra_bw=240e9, arch="ampere")
NEUTRAL = nccl.Factors()


def _opt(system: nccl.System, coll: str, nbytes: float, algo: str, proto: str) -> nccl.Choice:
    got = [c for c in nccl.options(coll, nbytes, system, NEUTRAL) if (c.algorithm, c.protocol) == (algo, proto)]
    assert got, f"{algo}/{proto} missing from the options for {coll} on {system}"
    return got[0]


@pytest.mark.parametrize("nbytes, expected", [
    (32 * 2**10, ("ring", "LL")), (256 * 2**10, ("ring", "LL")), (2**20, ("ring", "LL")),
    (2 * 2**20, ("nvls", "Simple")), (64 * 2**20, ("nvls", "Simple")), (16 * 2**30, ("nvls", "Simple")),
])
def test_h200_choice_matches_nccls_logged_switch(nbytes, expected):
    # NCCL 2.27.7 on 8x H200 logs "Algo RING proto LL up to a 1MiB payload and Algo NVLS proto
    # SIMPLE from 2MiB up" (stas00/ml-engineering network/README.md, SHARP section, 2026-08-04).
    c = nccl.choose("all_reduce", nbytes, H200)
    assert (c.algorithm, c.protocol) == expected, f"{nbytes} B: expected {expected}, got {c.algorithm}/{c.protocol}"


def test_ring_latency_is_base_plus_a_hop_per_step():
    # tuning.cc: latency = baseLat[ring][p] + nsteps * hwLat[NVLINK][ring][p]; 2(n-1) = 14 steps.
    for proto, base, hop in (("LL", 6.6, 0.6), ("LL128", 14.0, 1.9), ("Simple", 8.4, 3.4)):
        c = _opt(A100, "all_reduce", 2**20, "ring", proto)
        assert c.latency == pytest.approx((base + 14 * hop) * 1e-6), f"ring/{proto}: latency {c.latency}"


def test_protocol_bandwidths_follow_ncclls_refinements():
    big = 2**30
    simple = _opt(A100, "all_reduce", big, "ring", "Simple")
    ll128 = _opt(A100, "all_reduce", big, "ring", "LL128")
    ll = _opt(A100, "all_reduce", big, "ring", "LL")
    ratio = 8 / 14   # nRanks / nSteps: bus -> algorithm bandwidth
    assert simple.bandwidth == pytest.approx(240e9 * ratio), "Simple: the links' bandwidth"
    assert ll128.bandwidth == pytest.approx(240e9 * 0.92 * ratio), "LL128: 120/128 of it (0.92 in tuning.cc)"
    assert ll.bandwidth == pytest.approx(87.7e9 * ratio), "LL: half the links, capped by Ampere's llMaxBw 87.7 GB/s"


def test_nvls_graph_has_one_channel_per_gpu_and_runs_nvls_channels():
    # search.cc: the NVLS graph's min and max channels are the node's GPU count, so tuning.cc's
    # NVLS bus bandwidth carries (n-1)/n of it and its algorithm bandwidth does not depend on n;
    # the kernel runs comm->nvlsChannels channels, 16 on Hopper (transport/nvls.cc).
    algbw = {}
    for n in (4, 5, 6, 7, 8):
        system = nccl.System(nranks=n, nodes=1, intra_bw=360e9, arch="hopper", nvls=True)
        c = _opt(system, "all_reduce", 8 * 2**30, "nvls", "Simple")
        assert c.channels == 16, f"{n} GPUs: NVLS runs NCCL_NVLS_NCHANNELS=16 channels on Hopper, got {c.channels}"
        bus = 360e9 * 0.85 * (n - 1) / n * 2.0   # nvlsEfficiency 0.85, AllReduce pipelines 2 ops
        assert c.bandwidth == pytest.approx(bus * n / (2 * (n - 1))), \
            f"{n} GPUs: NVLS algbw {c.bandwidth:.4g}, expected {bus * n / (2 * (n - 1)):.4g}"
        algbw[n] = c.bandwidth
    assert len({round(v) for v in algbw.values()}) == 1, f"NVLS algbw must not depend on the GPU count: {algbw}"
    one = nccl.System(nranks=1 * 2, nodes=2, intra_bw=360e9, net_bw=400e9, arch="hopper", nvls=True)
    assert not [c for c in nccl.options("all_reduce", 2**30, one) if c.algorithm.startswith("nvls")], \
        "NVLS needs at least 2 channels: one GPU per node has none"


@pytest.mark.parametrize("nbytes, chunk", [
    # enqueue.cc (NCCL_ALGO_NVLS): 128 KiB, halved to 64/32/16 KiB below 64/8/2 x ops x chunk, where
    # ops = 16 channels x 8 heads = 128: thresholds 64 x 128 x 128 KiB = 1 GiB, 8 x 128 x 64 KiB = 64 MiB,
    # 2 x 128 x 32 KiB = 8 MiB.
    (32 * 2**10, 16384), (8 * 2**20 - 1, 16384), (8 * 2**20, 32768), (64 * 2**20 - 1, 32768),
    (64 * 2**20, 65536), (2**30 - 1, 65536), (2**30, 131072), (16 * 2**30, 131072),
])
def test_nvls_chunk_follows_enqueue(nbytes, chunk):
    got = nccl.nvls_chunk(nbytes, 16, 8)
    assert got == chunk, f"nvls_chunk({nbytes}, 16 channels, 8 heads)={got}, but should be {chunk} [enqueue.cc]"


@pytest.mark.parametrize("nbytes, steps", [
    # loops of 16 x 8 x chunk bytes, 8 head steps each: 32 KiB and 1 MiB fit one 2 MiB loop; 32 MiB
    # is 8 loops of 4 MiB (32 KiB chunks); 1 GiB is 64 loops of 16 MiB (128 KiB chunks).
    (32 * 2**10, 8), (2**20, 8), (32 * 2**20, 64), (2**30, 512),
])
def test_nvls_time_is_tuner_latency_bandwidth_and_chunk_steps(nbytes, steps):
    c = _opt(H200, "all_reduce", nbytes, "nvls", "Simple")
    assert nccl.nvls_steps(nbytes, 16, 8) == steps, f"nvls_steps({nbytes})={nccl.nvls_steps(nbytes, 16, 8)}, " \
        f"but should be {steps}"
    # tuning.cc: hwLat[NVLINK][NVLS][SIMPLE] 25 us; NVLS algbw 360 GB/s x 0.85 x 7/8 x 2 x 8/14; a step
    # adds hwLat[NVLINK][RING][SIMPLE] / NCCL_STEPS = 3.4 / 8 us.
    algbw = 360e9 * 0.85 * 7 / 8 * 2 * 8 / 14
    expected = 25e-6 + nbytes / algbw + steps * 3.4e-6 / 8
    assert c.latency == pytest.approx(25e-6), f"NVLS latency {c.latency}, but should be 25 us [tuning.cc]"
    assert c.time == pytest.approx(expected, rel=1e-9), \
        f"NVLS time {c.time * 1e6:.3f} us for {nbytes} B, but should be {expected * 1e6:.3f} us"


def test_a_two_node_tree_runs_nvlink_at_up_to_twice_the_network():
    # search.cc "increase bwIntra for trees (2 nodes or collnet)" up to 2x bwInter, and tuning.cc
    # prices 1-2 node algorithms at bwIntra; from 3 nodes on the tree is network-bound again.
    def tree_bw(nodes: int, net: float, nics: int = 1) -> float:
        system = nccl.System(nranks=8 * nodes, nodes=nodes, intra_bw=240e9, net_bw=net, arch="ampere", nics=nics)
        return _opt(system, "all_reduce", 2**30, "tree", "Simple").bandwidth
    # channels of the multi-node search (nccl.net_graph) on one NIC of 200 GB/s: 10 x 20 GB/s (the most
    # bandwidth within the GPU's 240 GB/s of NVLink); of 100 GB/s: 2 x 48 (20 is below 0.49 x 48)
    nch = 10
    assert tree_bw(2, 200e9) == pytest.approx(min(240e9 * 0.92, nch * 23.6e9) * 0.5), \
        "2 nodes: NVLink side 240 GB/s (< 2 x 200), x0.92, capped per channel, x1/2 to algbw"
    assert tree_bw(2, 100e9) == pytest.approx(min(200e9 * 0.92, 2 * 23.6e9) * 0.5), \
        "2 nodes at 100 GB/s of NICs: the NVLink side is capped at twice the network (200 GB/s), 2 channels"
    assert tree_bw(2, 100e9, nics=4) == pytest.approx(min(200e9 * 0.92, 4 * 23.6e9) * 0.5), \
        "2 nodes, 4 NICs of 25 GB/s (4 x 24 GB/s channels): capped per channel"
    assert tree_bw(2, 100e9, nics=8) == pytest.approx(min(200e9 * 0.92, 8 * 23.6e9) * 0.5), \
        "2 nodes, 8 NICs of 12.5 GB/s (8 x 12 GB/s channels): the NVLink side at twice the network (200 GB/s)"
    assert tree_bw(3, 200e9) == pytest.approx(min(200e9 * 0.92, nch * 17.8e9) * 0.5), \
        "3 nodes: the network's 200 GB/s, Ampere's >2-node per-channel tree cap 17.8 GB/s"


def test_rules_on_which_algorithms_and_protocols_exist():
    pci = nccl.System(nranks=4, nodes=1, intra_bw=24e9, intra="pci", arch="ampere")
    assert not [c for c in nccl.options("all_reduce", 2**20, pci) if c.protocol == "LL128"], \
        "NCCL enables LL128 only over NVLink"
    assert not [c for c in nccl.options("all_reduce", 2**20, A100) if c.algorithm.startswith("nvls")], \
        "NVLS needs Hopper NVSwitches"
    assert {c.algorithm for c in nccl.options("all_gather", 2**20, H200)} == {"ring"}, \
        "all-gather: ring only (tree is all-reduce only; NVLS all-gather not modelled)"
    two = nccl.System(nranks=16, nodes=2, intra_bw=360e9, net_bw=400e9, arch="hopper", nvls=True)
    algos = {c.algorithm for c in nccl.options("all_reduce", 2**30, two)}
    assert "nvls" not in algos and "nvls_tree" in algos, f"across nodes NVLS runs as NVLS-tree, got {algos}"
    assert "nvls_tree" not in {c.algorithm for c in nccl.options("all_reduce", 2**30, H200)}, \
        "NVLS-tree is disabled on one node"


def test_explicit_override_and_errors():
    c = nccl.choose("all_reduce", 16 * 2**30, H200, algorithm="ring")
    assert (c.algorithm, c.protocol) == ("ring", "Simple"), f"NCCL_ALGO=ring at 16GiB: got {c}"
    c = nccl.choose("all_reduce", 16 * 2**30, H200, protocol="LL")
    assert c.protocol == "LL", f"NCCL_PROTO=LL: got {c}"
    with pytest.raises(ValueError, match="no algorithm/protocol for all_reduce with algorithm='nvls'"):
        nccl.choose("all_reduce", 2**20, A100, algorithm="nvls")
    with pytest.raises(ValueError, match="unknown NCCL algorithm 'butterfly'"):
        nccl.parse_algorithm("nccl:butterfly")
    with pytest.raises(ValueError, match="unknown NCCL protocol 'LL64'"):
        nccl.parse_algorithm("nccl:ring:LL64")
    assert nccl.parse_algorithm("nccl:auto:LL128") == (None, "LL128")
    with pytest.raises(ValueError, match="NVLink SHARP needs Hopper"):
        nccl.Fabric(arch="ampere", nvls=True)
    with pytest.raises(ValueError, match="nranks a multiple of nodes"):
        nccl.System(nranks=10, nodes=3, intra_bw=1e9, net_bw=1e9)


def test_small_messages_run_on_fewer_channels():
    # enqueue.cc: ring LL drops channels while bytes < channels x 512 threads x 8 x nRanks.
    c = _opt(A100, "all_reduce", 32 * 2**10, "ring", "LL")
    assert c.channels == 1, f"32KiB ring/LL over 8 ranks fits one channel (32KiB each), got {c.channels}"
    c = _opt(A100, "all_reduce", 2**30, "ring", "LL")
    assert c.channels == 24, (f"1GiB: every channel of the communicator (the search's 6 x 40 GB/s ring graph, "
                              f"duplicated to 12 x 20 and doubled by ncclTopoPostset: 24), got {c.channels}")


def _gpus(cluster):
    return [d for d in cluster.devices() if d.kind == "GPU"]


def test_simulated_nccl_collective_takes_the_models_time():
    cluster = presets.gpu_cluster(hosts=2, gpus_per_host=8, gpu="H100", network="infiniband_ndr", nics=8)
    assert cluster.hosts[0].nic.bandwidth == pytest.approx(8 * 50e9), "8 NDR NICs: the host link carries 8 x 50 GB/s"
    for fidelity in ("chunked", "analytic"):
        sim = Simulator(cluster, collectives=fidelity)
        devs = _gpus(cluster)
        want = collectives.nccl_choice(sim, "all_reduce", devs, 2**30)
        sim.drive(sim.all_reduce(devs, 2**30, algorithm="nccl"))
        assert sim.now == pytest.approx(want.time, rel=1e-12), f"{fidelity}: expected {want.time}, got {sim.now}"
        assert sim.metrics()["collectives"] == {"nccl": 1}, sim.metrics()["collectives"]


def test_ranks_start_together_and_finish_together():
    cluster = presets.gpu_host(gpus=4, gpu="A100")
    sim = Simulator(cluster)
    devs = _gpus(cluster)
    sim.compute(devs[2], devs[2].flops * 1e-3, overhead=False)   # GPU 2 busy for 1 ms
    want = collectives.nccl_choice(sim, "all_reduce", devs, 2**20).time
    ev = sim.all_reduce(devs, 2**20, algorithm="nccl")
    sim.drive(ev)
    assert sim.now == pytest.approx(1e-3 + want, rel=1e-12), f"expected 1 ms + {want}, got {sim.now}"
    _, busy = sim.kernel_state(devs)
    assert all(b == pytest.approx(1e-3 + want, rel=1e-12) for b in busy), f"every rank busy until the end: {busy}"


def test_nccl_all_gather_and_bad_inputs():
    cluster = presets.gpu_host(gpus=8, gpu="H200")
    sim = Simulator(cluster)
    devs = _gpus(cluster)
    want = collectives.nccl_choice(sim, "all_gather", devs, 2**30)
    assert want.algorithm == "ring", want
    sim.drive(sim.all_gather(devs, 2**30, algorithm="nccl"))
    assert sim.now == pytest.approx(want.time, rel=1e-12)
    with pytest.raises(ValueError, match="all_gather.algorithm: unknown algorithm 'tree'"):
        sim.all_gather(devs, 10, algorithm="tree")
    rs = collectives.nccl_choice(Simulator(cluster), "reduce_scatter", devs, 2**30)
    assert rs.algorithm == "ring", rs
    s1 = Simulator(cluster)
    s1.drive(s1.reduce_scatter(devs, 2**30, algorithm="nccl"))
    assert s1.now == pytest.approx(rs.time, rel=1e-12), f"expected NCCL's reduce-scatter time {rs.time}, got {s1.now}"
    assert s1.metrics()["collectives"] == {"reduce_scatter": 1}, s1.metrics()["collectives"]
    with pytest.raises(ValueError, match="reduce_scatter.algorithm: unknown algorithm 'tree'"):
        s1.reduce_scatter(devs, 10, algorithm="tree")
    cpu = presets.cpu_cluster({"worker": 2})
    s2 = Simulator(cpu)
    with pytest.raises(ValueError, match="NCCL runs on GPUs"):
        s2.all_reduce([d for d in cpu.devices()], 10, algorithm="nccl")
    uneven = presets.gpu_cluster(hosts=2, gpus_per_host=4)
    s3 = Simulator(uneven)
    with pytest.raises(ValueError, match=r"same number of ranks, got \[1, 4\]"):
        s3.all_reduce(_gpus(uneven)[:5], 10, algorithm="nccl")


def test_many_nodes_small_messages_take_the_tree():
    # NCCL's tree latency grows with log2(nodes), the ring's with 2(n-1) steps: at 512 ranks on
    # 64 nodes a small all-reduce is a tree (NCCL 2.4's motivation for trees).
    big = nccl.System(nranks=512, nodes=64, intra_bw=240e9, net_bw=200e9, arch="ampere")
    c = nccl.choose("all_reduce", 8, big)
    assert c.algorithm == "tree", f"8 B over 512 ranks: expected tree, got {c.algorithm}/{c.protocol}"
    ring = nccl.choose("all_reduce", 8, big, algorithm="ring")
    assert ring.latency > 10 * c.latency, (ring.latency, c.latency)


def test_intra_and_inter_node_traffic_overlap():
    # NCCL's ring across nodes is one pipeline through NVLink and the NICs: its bandwidth is the
    # narrower of the two (not the two phases one after another, as the link-level
    # "hierarchical" plan runs them).
    f = nccl.Factors(net_efficiency=1.0)
    two = nccl.System(nranks=16, nodes=2, intra_bw=240e9, net_bw=100e9, arch="ampere")
    c = nccl.choose("all_reduce", 16 * 2**30, two, algorithm="ring", protocol="Simple", factors=f)
    assert c.bandwidth == pytest.approx(100e9 * 16 / 30), f"ring bus bandwidth = min(NVLink, NICs): {c.bandwidth}"


def test_a_straggler_stretches_the_collective_and_steps_see_it():
    cluster = presets.gpu_host(gpus=4, gpu="A100")
    sim = Simulator(cluster)
    devs = _gpus(cluster)
    t = collectives.nccl_choice(sim, "all_reduce", devs, 2**24).time
    with sim.step("s") as rec:
        sim.drive(sim.all_reduce(devs, 2**24, algorithm="nccl"))
    assert rec.compute_intervals() == ([], []), f"an NCCL collective is no compute: {rec.compute_intervals()}"
    assert rec.transfers == [(0.0, pytest.approx(t, rel=1e-12))] * 4, \
        f"the open step sees each rank's collective kernel as communication: {rec.transfers}"
    slow = Simulator(cluster)
    slow.slow_device(devs[1], 2.0)
    with slow.step("s") as srec:
        slow.drive(slow.all_reduce(devs, 2**24, algorithm="nccl"))
    assert slow.now > sim.now * 1.5, f"a 2x straggler stretches its kernel: {slow.now} vs {sim.now}"
    got = srec.summary()
    assert (got["compute_s"], got["communication_s"]) == (0.0, pytest.approx(slow.now, rel=1e-12)), \
        f"the stretched collective is communication, not compute: {got}"


@pytest.mark.parametrize("own_stream", [False, True])
def test_step_breakdown_counts_nccl_collectives_as_communication(own_stream):
    # A step of 1 ms of compute on every GPU, then the gradients' NCCL all-reduce: the breakdown
    # splits it 1 ms compute / the collective's time communication (before: all of it compute).
    # own_stream (the packs TF overlaps with the backward pass): the overlapped part is compute
    # (some device computes), the rest communication.
    cluster = presets.gpu_host(gpus=8, gpu="A100")
    sim = Simulator(cluster)
    devs = _gpus(cluster)
    t = collectives.nccl_choice(sim, "all_reduce", devs, 2**30).time
    assert t > 1e-3, f"the test needs a collective longer than the compute, got {t}"
    with sim.step("s") as rec:
        ends = [sim.compute(d, d.flops * 1e-3, overhead=False) for d in devs]
        if own_stream:
            ar = sim.all_reduce(devs, 2**30, algorithm="nccl", own_stream=True)
            sim.drive(sim.all_of(ends + [ar]))
        else:
            sim.drive(sim.all_of(ends))
            sim.drive(sim.all_reduce(devs, 2**30, algorithm="nccl"))
    got = rec.summary()
    want_comm = t - 1e-3 if own_stream else t
    assert got["compute_s"] == pytest.approx(1e-3, rel=1e-12), f"compute_s={got['compute_s']}, but should be 1 ms: {got}"
    assert got["communication_s"] == pytest.approx(want_comm, rel=1e-9), \
        f"communication_s={got['communication_s']}, but should be {want_comm} (the NCCL all-reduce): {got}"
    assert got["idle_s"] == pytest.approx(0.0, abs=1e-15), got


def test_traced_nccl_and_analytic_collectives_write_valid_json(tmp_path):
    import json
    cluster = presets.gpu_host(gpus=4, gpu="H100")
    devs = _gpus(cluster)
    for algorithm, fidelity in (("nccl", "auto"), ("ring", "analytic")):
        path = tmp_path / f"{algorithm}.json"
        sim = Simulator(cluster, trace=str(path), collectives=fidelity)
        sim.drive(sim.all_reduce(devs, 2**24, algorithm=algorithm))
        sim.close()
        doc = json.loads(path.read_text())
        events = doc["traceEvents"] if isinstance(doc, dict) else doc
        spans = [e for e in events if e.get("cat") == "collective" and e.get("name") == "all_reduce"]
        assert spans and spans[-1]["args"]["algorithm"] == algorithm, spans
    assert spans[-1]["args"].get("fidelity") == "analytic"


def test_every_gpu_preset_has_an_nccl_generation() -> None:
    """A preset GPU without an NCCL architecture would fail when its host is built (KeyError)."""
    from simdist.sim import hardware, nccl
    missing = sorted(set(hardware.GPUS) - set(nccl.GPU_ARCH))
    assert not missing, f"GPU presets {missing} have no entry in nccl.GPU_ARCH (volta/ampere/hopper)"
