"""The ring/tree channels NCCL runs on one NVSwitch node (issue 26's thirteenth session) and across
nodes (the seventeenth session: the multi-node search, one channel per NIC at the speed within its rate).

NCCL's search (src/graph/search.cc, ncclTopoCompute and ncclTopoDupChannels) builds the ring graph,
ncclTopoPostset (src/graph/connect.cc) doubles the communicator's channels, enqueue.cc's
topoGetAlgoInfo trims them for small messages, and tuning.cc prices the graph. Expected values are
computed here from those sources' arithmetic (GPU NVLink links x SMxx_NVLINK_BW, the speed arrays,
the dup rule) and from what NCCL 2.29.2 printed on 4 H100s (waynehacking8/nccl-collectives-bench,
results/scaling_attributed/g4_auto.log, commit ec97f06, 2026-06-02: "24 coll channels", and the
TUNING table's AllReduce Ring row "10.2/ 94.0 | 25.4/ 220.8 | 28.8/ 240.0").
"""

from __future__ import annotations

import math

import pytest

from simdist.sim import nccl

NEUTRAL = nccl.Factors()
KiB, MiB, GiB = 2**10, 2**20, 2**30

SM90_SPEEDS = (60.0, 50.0, 40.0, 30.0, 24.0, 20.0, 15.0, 12.0, 11.0, 6.0, 3.0)   # search.cc sm90SpeedArrayIntra
INTRA_SPEEDS = (40.0, 30.0, 20.0, 18.0, 15.0, 12.0, 10.0, 9.0, 7.0, 6.0, 5.0, 4.0, 3.0)   # speedArrayIntra


def _system(gpu: str, n: int = 8) -> nccl.System:
    # the presets' per-GPU NVLink x LINK_EFFICIENCY 0.8 (V100 150, A100 300, H100/H200 450 GB/s)
    bw, arch = {"V100": (120e9, "volta"), "A100": (240e9, "ampere"), "H100": (360e9, "hopper")}[gpu]
    return nccl.System(nranks=n, nodes=1, intra_bw=bw, arch=arch, nvls=(arch == "hopper"))


def _search(links: int, link_bw: float, speeds: tuple[float, ...], cc: int) -> tuple[int, float]:
    """search.cc pass 1 on an NVSwitch node written out: the first speed with the most bandwidth, trying
    slower speeds while the next is above 0.49 of the best; then ncclTopoDupChannels."""
    link = links * link_bw
    cands = [(math.floor(link / s), s) for s in speeds if s <= link]
    best = cands[0]
    for n, s in cands[1:]:
        if best[0] * best[1] >= link or s / best[1] <= 0.49:
            break
        if n * s > best[0] * best[1]:
            best = (n, s)
    n, s = best
    if s >= 25 and not (cc > 80 and s < 50 and n > 4):
        n, s = 2 * n, s / 2
    return n, s


@pytest.mark.parametrize("gpu, links, link_bw, speeds, cc", [
    ("H100", 18, 20.6, SM90_SPEEDS, 90),     # 370.8 GB/s: 6 x 60, dup (60 >= 50) -> 12 x 30
    ("A100", 12, 20.0, INTRA_SPEEDS, 80),    # 240 GB/s: 6 x 40 fills it, dup -> 12 x 20
    ("V100", 6, 20.0, INTRA_SPEEDS, 70),     # 120 GB/s: 3 x 40, dup -> 6 x 20
])
def test_ring_graph_is_search_cc(gpu: str, links: int, link_bw: float, speeds: tuple[float, ...], cc: int) -> None:
    want = _search(links, link_bw, speeds, cc)
    got = nccl.ring_graph(_system(gpu))
    assert got == (want[0], pytest.approx(want[1])), f"ring_graph({gpu})={got}, but should be {want} [search.cc]"


@pytest.mark.parametrize("n", [2, 4, 6, 8])
def test_communicator_runs_24_channels_on_hopper(n: int) -> None:
    # 12 graph channels doubled by ncclTopoPostset: NCCL 2.29.2 logged "24 coll channels" on 4 H100s
    c = nccl.choose("all_reduce", 8 * GiB, _system("H100", n), algorithm="ring", protocol="Simple", factors=NEUTRAL)
    assert c.channels == 24, f"ring/Simple at 8 GiB on {n} H100s runs {c.channels} channels, but should be 24"


def test_tuner_prices_the_graph_as_nccl_2_29_2_printed() -> None:
    # 4 H100s, AllReduce Ring: LL 10.2 us / 94.0 GB/s, LL128 25.4 / 220.8 (min(360 x 0.92, 12 x 36.7)), Simple 28.8 / 240.0
    h = _system("H100", 4)
    for proto, lat, bw in (("LL", 10.2, 94.0), ("LL128", 25.4, 220.8), ("Simple", 28.8, 240.0)):
        c = nccl.choose("all_reduce", 8 * GiB, h, algorithm="ring", protocol=proto, factors=NEUTRAL)
        assert (round(c.latency * 1e6, 1), round(c.bandwidth / 1e9, 1)) == (lat, bw), \
            f"ring/{proto}: ({c.latency * 1e6:.2f} us, {c.bandwidth / 1e9:.2f} GB/s), but NCCL printed ({lat}, {bw})"


@pytest.mark.parametrize("gpu, n, nbytes, proto, run", [
    ("H100", 8, 32 * KiB, "LL", 1),       # 32 KiB < 2 x 512 threads x 8 x 8 ranks
    ("H100", 4, 32 * KiB, "LL", 2),       # 512 x 8 x 4 = 16 KiB per channel
    ("A100", 8, 32 * KiB, "LL", 1),
    ("H100", 8, 32 * KiB, "LL128", 6),    # 640 x 8 = 5 KiB per channel
    ("H100", 8, 1 * MiB, "LL", 24),       # 32 KiB per channel: every channel
])
def test_trimmed_channels_deliver_nccls_formula_on_their_share(gpu: str, n: int, nbytes: int, proto: str,
                                                                run: int) -> None:
    s = _system(gpu, n)
    graph_ch, _ = nccl.ring_graph(s)
    comm_ch = 2 * graph_ch
    share = run / comm_ch
    bus = s.intra_bw / 1e9 * share        # the graph's nChannels x bwIntra on the channels that run
    ll_max = {"hopper": 141.0, "ampere": 87.7}[s.arch]   # tuning.cc llMaxBws, one node (2.21 on)
    if proto == "LL":
        bus = min(ll_max, bus * 0.5)
    else:
        bus = min(bus * 0.92, graph_ch * share * 36.7 if s.arch == "hopper" else graph_ch * share * 20.0)
    want = bus * n / (2 * (n - 1)) * 1e9
    c = nccl.choose("all_reduce", nbytes, s, algorithm="ring", protocol=proto, factors=NEUTRAL)
    assert c.channels == run, f"{gpu} x{n} ring/{proto} {nbytes} B: runs {c.channels} channels, but should be {run}"
    assert c.bandwidth == pytest.approx(want, rel=1e-12), \
        f"{gpu} x{n} ring/{proto} {nbytes} B: bandwidth {c.bandwidth / 1e9:.4f} GB/s, but should be {want / 1e9:.4f}"


# search.cc speedArrayInter / sm90SpeedArrayInter (the same from 2.19 to master)
INTER_SPEEDS = (48.0, 30.0, 28.0, 24.0, 20.0, 18.0, 15.0, 12.0, 10.0, 9.0, 7.0, 6.0, 5.0, 4.0, 3.0, 2.4, 1.2, 0.24, 0.12)
SM90_INTER_SPEEDS = (48.0, 45.0, 42.0, 40.0, 30.0, 24.0, 22.0, 20.0, 17.5, 15.0, 12.0, 6.0, 3.0, 2.4, 1.2, 0.24, 0.12)


@pytest.mark.parametrize("gpu, nics, nic_gbs, pcie_raw, release, want", [
    # 2 nodes of 8 A100 (PCIe Gen4: 24 GB/s in NCCL's topology) with 16 NICs of 100 Gb/s: 16 x 12 GB/s
    ("A100", 16, 12.5, 32e9, "2.19.3", (16, 12.0)),
    # 8 HDR NICs (25 GB/s), the PCIe path (24) starts the search at 24: one channel a NIC
    ("A100", 8, 25.0, 32e9, "2.17.1", (8, 24.0)),
    # 4 NICs of 100 Gb/s (p4de): 4 x 12
    ("A100", 4, 12.5, 32e9, "2.20.3", (4, 12.0)),
    # H100 (PCIe Gen5: 48) with 8 NICs of 400 Gb/s: 48 fits 7 channels in the GPU's 18 x 20.6 GB/s of NVLink
    # (336), 45 fits 8 (360, more), 24 fits 15 (360, not more): 8 x 45
    ("H100", 8, 50.0, 64e9, "2.21.5", (8, 45.0)),
    # 32 NICs of 100 Gb/s (p5): MAXCHANNELS/2 = 16 until 2.24, 32 from 2.25.1 (the NVLink holds 30 x 12)
    ("H100", 32, 12.5, 64e9, "2.20.3", (16, 12.0)),
    ("H100", 32, 12.5, 64e9, "2.25.1", (30, 12.0)),
])
def test_multi_node_channels_are_the_net_search(gpu: str, nics: int, nic_gbs: float, pcie_raw: float, release: str,
                                                want: tuple[int, float]) -> None:
    intra, arch, links, ch_bw = {"A100": (240e9, "ampere", 12, 20.0), "H100": (360e9, "hopper", 18, 20.6)}[gpu]
    s = nccl.System(nranks=16, nodes=2, intra_bw=intra, net_bw=nics * nic_gbs * 1e9, arch=arch, nvls=(arch == "hopper"),
                    release=release, nics=nics, pci_bw=pcie_raw)
    got = nccl.net_graph(s)
    # the same search written out: start at the fastest speed within min(NIC, PCIe x 3/4), keep strictly more
    # bandwidth, stop below 0.49 of the best speed
    speeds = SM90_INTER_SPEEDS if arch == "hopper" else INTER_SPEEDS
    max_bw = min(nic_gbs, pcie_raw * 0.75 / 1e9)
    cap = 16 if release < "2.25" else 32
    best = (0, 0.0)
    for sp in (x for x in speeds if x <= max_bw):
        if best[0] and sp / best[1] <= 0.49:
            break
        n = min(cap, nics * math.floor(nic_gbs / sp + 1e-9), math.floor(links * ch_bw / sp + 1e-9))
        if n * sp > best[0] * best[1] + 1e-9:
            best = (n, sp)
    assert best == want, f"the written-out search gives {best}, the case says {want}"
    assert got == (want[0], pytest.approx(want[1])), f"net_graph({gpu}, {nics} NICs, {release})={got}, but should be {want}"
    c = nccl.choose("all_reduce", 8 * GiB, s, algorithm="ring", protocol="Simple", factors=NEUTRAL)
    assert c.channels == want[0], f"2 nodes ring/Simple runs {c.channels} channels, but should be {want[0]} [search.cc]"


def test_a_link_below_one_nvlink_still_runs() -> None:
    # a custom host whose NVLink is below one link's rate: one graph channel at the link's speed, 2 run channels
    slow = nccl.System(nranks=4, nodes=1, intra_bw=8e9, arch="ampere")
    assert nccl.ring_graph(slow) == (1, 20.0), f"ring_graph(8 GB/s)={nccl.ring_graph(slow)}, but should be (1, 20.0)"
    c = nccl.choose("all_reduce", 4 * KiB, slow, protocol="Simple")
    assert c.channels == 1 and c.time > 0, f"4 KiB ring/Simple on a slow link: {c}"
