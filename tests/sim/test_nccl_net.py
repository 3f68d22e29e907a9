"""The network plugin in NCCL's model (simdist.sim.nccl_net): the latency it declares enters every
network hop of NCCL's tuner, twice with Simple (tuning.cc interLat), and the protocols it leaves
bound NCCL's choice (aws-ofi-nccl's NCCL_PROTO=simple)."""

from __future__ import annotations

import dataclasses
import math

import pytest

from simdist.sim import Simulator, collectives, nccl, nccl_net, presets

NEUTRAL = nccl.Factors()
# 2 nodes of 8 A100 (12 NVLinks, 4 NICs of 100 Gb/s), NCCL 2.20.3: the p4de rows' system.
P4DE = nccl.System(nranks=16, nodes=2, intra_bw=240e9, net_bw=50e9, arch="ampere", release="2.20.3", nics=4)
H100_4N = nccl.System(nranks=32, nodes=4, intra_bw=360e9, net_bw=400e9, arch="hopper", nvls=True, nics=32)


def _opts(system: nccl.System, nbytes: float) -> dict[tuple[str, str], nccl.Choice]:
    return {(c.algorithm, c.protocol): c for c in nccl.options("all_reduce", nbytes, system, NEUTRAL)}


@pytest.mark.parametrize("system", [P4DE, H100_4N])
def test_declared_latency_adds_to_each_network_hop_twice_with_simple(system):
    # tuning.cc: interLat = hwLat[NET][a][p] + latencyInter, + latencyInter again for Simple; the ring
    # crosses the network 2 (nNodes-1) times, the trees 2 log2(nNodes) times. (256 B: below the ring's
    # plateau, which scales its whole latency by 1.4 across nodes from 64 B a channel and rank.)
    lat = 75.0
    base, plus = _opts(system, 256), _opts(dataclasses.replace(system, net_latency=lat), 256)
    assert base.keys() == plus.keys(), f"options {sorted(plus)} with a latency, {sorted(base)} without"
    hops = {"ring": 2 * (system.nodes - 1), "tree": 2 * int(math.log2(system.nodes)),
            "nvls_tree": 2 * int(math.log2(system.nodes))}
    for (a, p), c in plus.items():
        want = hops[a] * lat * (2 if p == "Simple" else 1) * 1e-6
        got = c.latency - base[(a, p)].latency
        assert got == pytest.approx(want), f"{a}/{p}: latency +{got * 1e6:.2f} us, should be +{want * 1e6:.2f} us"
        assert c.bandwidth == pytest.approx(base[(a, p)].bandwidth), f"{a}/{p}: the latency moved the bandwidth"


def test_one_node_has_no_network_hop():
    system = nccl.System(nranks=8, nodes=1, intra_bw=240e9, arch="ampere")
    base, plus = _opts(system, 2**20), _opts(dataclasses.replace(system, net_latency=75.0), 2**20)
    for k, c in plus.items():
        assert c.latency == base[k].latency, f"{k}: one node's latency moved with the network plugin's"


def test_plugin_protocols_bound_the_choice_and_an_explicit_protocol_wins():
    simple_only = dataclasses.replace(P4DE, protocols=("Simple",))
    for nbytes in (8, 32 * 2**10, 2**20, 32 * 2**20, 2**30):
        free = nccl.choose("all_reduce", nbytes, P4DE)
        c = nccl.choose("all_reduce", nbytes, simple_only)
        want = min((o for o in nccl.options("all_reduce", nbytes, P4DE) if o.protocol == "Simple"),
                   key=lambda o: o.model_time)
        assert (c.algorithm, c.protocol) == (want.algorithm, want.protocol), \
            f"{nbytes} B with NCCL_PROTO=simple: got {c.algorithm}/{c.protocol}, should be {want.algorithm}/Simple"
        assert c.model_time >= free.model_time, f"{nbytes} B: fewer protocols made NCCL's estimate faster"
    forced = nccl.choose("all_reduce", 32 * 2**10, simple_only, protocol="LL")
    assert forced.protocol == "LL", f"an explicit protocol (the user's NCCL_PROTO) should win, got {forced.protocol}"


def test_aws_ofi_nccl_181_platforms():
    # platform-aws.c at v1.8.1-aws: latency 75 us on p4d/p4de/p5; NCCL_PROTO=simple where the endpoint
    # lacks 128-byte in-order delivery (p4de's SENDRECV), not on p5 with RDMA.
    p4de, p5 = nccl_net.plugin("aws-ofi-nccl-1.8.1/p4de"), nccl_net.plugin("aws-ofi-nccl-1.8.1/p5")
    assert (p4de.latency, p4de.protocols) == (75.0, ("Simple",)), p4de
    assert (p5.latency, p5.protocols) == (75.0, nccl.PROTOCOLS), p5
    own = nccl_net.plugin(nccl_net.DEFAULT)
    assert (own.latency, own.protocols) == (0.0, nccl.PROTOCOLS), f"net_ib.cc declares latency 0: {own}"
    with pytest.raises(ValueError, match="unknown network plugin"):
        nccl_net.plugin("no-such-plugin")
    with pytest.raises(ValueError, match="unknown network plugin"):
        nccl.Fabric(net="no-such-plugin")


def test_gpu_cluster_carries_the_plugin_to_ncclls_system():
    cl = presets.gpu_cluster(hosts=2, gpu="A100-80GB", nics=4, nccl_release="2.20.3",
                             net_plugin="aws-ofi-nccl-1.8.1/p4de")
    devs = [d for d in cl.devices() if d.kind == "GPU"]
    system = collectives.nccl_system(devs)
    assert (system.net_latency, system.protocols) == (75.0, ("Simple",)), system
    c = collectives.nccl_choice(Simulator(cl), "all_reduce", devs, 32 * 2**10)
    assert c.protocol == "Simple", f"p4de under aws-ofi-nccl 1.8.1 runs Simple only, got {c.algorithm}/{c.protocol}"
    plain = presets.gpu_cluster(hosts=2, gpu="A100-80GB", nics=4, nccl_release="2.20.3")
    s0 = collectives.nccl_system([d for d in plain.devices() if d.kind == "GPU"])
    assert (s0.net_latency, s0.protocols) == (0.0, nccl.PROTOCOLS), f"default: NCCL's own transports, got {s0}"


def test_system_rejects_bad_plugin_values():
    with pytest.raises(ValueError, match="net_latency"):
        dataclasses.replace(P4DE, net_latency=-1.0)
    with pytest.raises(ValueError, match="protocols"):
        dataclasses.replace(P4DE, protocols=("LL256",))
