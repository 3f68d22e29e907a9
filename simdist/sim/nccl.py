"""NCCL's cost model: which algorithm and protocol NCCL picks for a collective, and how long it
takes, following NCCL's own tuner (src/graph/tuning.cc, `ncclTopoTuneModel` and
`ncclTopoGetAlgoTime`; channel trimming from src/enqueue.cc), read at NVIDIA/nccl 5067397
(2026-06-11).

For each (algorithm, protocol) NCCL computes a latency (a base per algorithm/protocol plus a
per-hop latency of the hop's hardware: NVLink, PCI or network, a network hop also the latency its
network plugin declares, `nccl_net`) and a bus bandwidth (channels x
per-channel bandwidth, then each protocol's refinements: LL moves 8 bytes per 4 of data and is
capped by ``llMaxBw``, LL128 moves 128 per 120 and is capped per channel, Tree all-reduce is
capped per channel; NVLS reduces inside the NVSwitch), converts the bus bandwidth to an
algorithm bandwidth (ring: nRanks/nSteps, tree: 1/2), and picks the pair with the least
``latency + bytes / bandwidth``. This module does the same arithmetic on a `System` (ranks,
nodes, per-GPU NVLink/PCI bandwidth, the node's NIC bandwidth, GPU generation, NVLS) that
`collectives` derives from the simulated topology. The constants that changed between NCCL
releases come from `nccl_release` (the system's release chooses; simdist times the choice with
the default release's). What is simplified (graph search, channel counts) is listed in
docs/simulator.md.

A handful of GLOBAL factors (`Factors`) turn NCCL's selection model into a predictor of measured
times; they are fitted on the fit half of docs/validation.md's table (`simdist validate --fit`)
and are the same for every system and message size.
"""

from __future__ import annotations

import math
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Iterator

from . import nccl_net, nccl_release
from .hardware import LINK_EFFICIENCY

__all__ = ["ALGORITHMS", "PROTOCOLS", "ARCHS", "System", "Fabric", "Factors", "FACTORS", "Choice", "choose",
           "options", "bus_bandwidth_factor", "parse_algorithm", "GPU_ARCH", "using",
           "nvls_chunk", "nvls_steps", "nvls_step_latency", "nvls_graph", "net_graph"]

ALGORITHMS = ("ring", "tree", "nvls", "nvls_tree")
PROTOCOLS = ("LL", "LL128", "Simple")
ARCHS = ("volta", "ampere", "hopper")
COLLECTIVES = ("all_reduce", "all_gather", "reduce_scatter")

_P = {p: i for i, p in enumerate(PROTOCOLS)}

# -- NCCL's tuner constants (tuning.cc, ncclTunerConstantsDefaults), microseconds and GB/s --------
# Latencies, LL's share and cap, the NVLS bandwidth rule and the ring's network steps differ between
# releases: they come from `nccl_release` (the system's release). The rest is master's (5067397):
_ARCH = {"volta": 0, "ampere": 1, "hopper": 2}
# llMaxBws: [single node by GPU arch | multi-node Intel CPU] x [1 node, 2 nodes, >2 nodes]
_LL_MAX_BW_INTEL = (39.0, 39.0, 20.4)
_PER_CH_RING_LL128 = ((20.0, 20.0, 20.0), (20.0, 20.0, 20.0), (36.7, 36.7, 36.7))
_PER_CH_TREE_LL128 = ((20.0, 20.0, 20.0), (20.0, 20.0, 20.0), (36.7, 36.7, 29.0))
_PER_CH_TREE = ((26.5, 18.5, 10.0), (24.0, 23.6, 17.8), (38.7, 41.4, 36.0))
_PER_CH_NVLS_TREE = ((26.5, 18.5, 10.0), (24.0, 23.6, 17.8), (0.0, 57.7, 45.5))
_NVLS_EFFICIENCY = (0.0, 0.0, 0.85)
# Bandwidth of one NVLink as NCCL's topology search counts it (topo.h SM70/SM80/SM90_NVLINK_BW):
# a channel's share, used here to count channels.
_CHANNEL_BW = (20.0, 20.0, 20.6)
_MAX_NVLS_ARITY = 32   # device.h NCCL_MAX_NVLS_ARITY
_MAX_CHANNELS = 64     # device.h MAXCHANNELS (2.19 on; 32 before: the same counts below 16 graph channels)
# The ring graph search's speeds, GB/s per channel, on one node (search.cc speedArrayIntra, sm90SpeedArrayIntra;
# 2.21 on, which added sm90's 11: the speeds the search reaches on an NVSwitch node are in every release's array).
_SPEEDS_INTRA = (40.0, 30.0, 20.0, 18.0, 15.0, 12.0, 10.0, 9.0, 7.0, 6.0, 5.0, 4.0, 3.0)
_SPEEDS_SM90 = (60.0, 50.0, 40.0, 30.0, 24.0, 20.0, 15.0, 12.0, 11.0, 6.0, 3.0)
# ... and across nodes (search.cc speedArrayInter, sm90SpeedArrayInter; the same from 2.19 to master).
_SPEEDS_INTER = (48.0, 30.0, 28.0, 24.0, 20.0, 18.0, 15.0, 12.0, 10.0, 9.0, 7.0, 6.0, 5.0, 4.0, 3.0, 2.4, 1.2, 0.24,
                 0.12)
_SPEEDS_INTER_SM90 = (48.0, 45.0, 42.0, 40.0, 30.0, 24.0, 22.0, 20.0, 17.5, 15.0, 12.0, 6.0, 3.0, 2.4, 1.2, 0.24, 0.12)
# topo.cc: a PCIe link's bandwidth is width x (GT/s x 7.5) / 80 GB/s (kvDictPciGen, "values in 100Mbps per lane"):
# 24 GB/s for Gen4 x16, 48 for Gen5 x16, 3/4 of the raw 2 x GT/s per direction of an x16 slot.
_PCI_NCCL_SHARE = 0.75
# One NVLink's rate per direction (NVLink 2, 3 and 4 alike: V100 6 links = 150 GB/s, A100 12 = 300, H100 and
# H200 18 = 450, the datasheets): how many links NCCL's topology counts for a GPU's NVLink bandwidth.
_NVLINK_LINK_BW = 25e9
_NET_OVERHEAD_US = 1.0   # getNetOverhead, Intel x86 host
# Tree correction factors (tuning.cc treeCorrectionFactor), by protocol, for log2(bytes/64) = 0..23.
_TREE_CORRECTION = (
    (1.0, 1.0, 1.0, 1.0, .9, .8, .7, .7, .7, .7, .6, .5, .4, .4, .5, .6, .7, .8, .9, 1.0, 1.0, 1.0, 1.0, 1.0),
    (1.0, 1.0, 1.0, 1.0, 1.0, .9, .8, .8, .8, .7, .6, .6, .6, .6, .6, .6, .8, .9, .9, .9, .9, 1.0, 1.0, 1.0),
    (.9, .9, .9, .9, .9, .9, .9, .8, .7, .6, .6, .5, .5, .5, .5, .6, .7, .8, .7, .7, .8, .9, .9, .9),
)
# NVLS at run time (not in NCCL's tuner): the kernel runs ``comm->nvlsChannels`` channels, 16 on
# Hopper (src/transport/nvls.cc: NCCL_NVLS_NCHANNELS default 16 in 2.17-2.26, NVLS_NCHANNELS_SM90
# from 2.27), each moving the node's nHeads (= its GPU count, connect.cc) chunks per loop; a chunk is
# NCCL_NVLS_CHUNKSIZE (128 KiB) shrunk for smaller messages (enqueue.cc, the NCCL_ALGO_NVLS branch of
# the chunk-size code: 64, 32, 16 KiB below 64, 8, 2 x channels x heads x chunk bytes).
_NVLS_RUN_CHANNELS = (0, 0, 16)
_NVLS_CHUNK = 131072
_NCCL_STEPS = 8   # device.h / devcomm.h: Simple-protocol steps in flight per channel
# Threads per channel and bytes per thread below which NCCL runs fewer channels (enqueue.cc:
# maxThreads, NCCL_{LL,LL128,SIMPLE}_THREAD_THRESHOLD; ring LL's threshold is x nRanks).
_MAX_THREADS = (512, 640, 512)
_THREAD_THRESHOLD = (8, 8, 64)


@dataclass(frozen=True)
class Factors:
    """The global factors that make NCCL's selection model a predictor of measured times.

    - ``overhead``: seconds added to every collective: the host side of launching a collective
      and waiting for it (what a benchmark's timer sees and NCCL's model leaves out).
    - ``net_efficiency``: the share of a NIC's line rate a collective sustains.
    - ``nvls_efficiency``: multiplies NCCL's own NVLS bandwidth (its model is for ranking, and
      overestimates what NVLink SHARP delivers); for NVLS-tree it multiplies both stages of the
      pipeline, the NVSwitch reduction and the network tree (one kernel moves every chunk through
      both, so the tree's network stage runs at the NVLS kernel's delivered rate too).
    - ``ramp_bytes``: with the Simple protocol on ring, tree and NVLS-tree, bytes per channel at
      which a channel reaches half its bandwidth (Simple moves large chunks with a
      synchronisation each: medium messages do not fill the pipeline; a Hockney n_1/2 per
      channel, the same for every system). Single-node NVLS steps through its own chunks
      instead (`nvls_steps`).
    - ``nvls_step``: multiplies what each single-node NVLS chunk step costs (`nvls_step_latency`,
      simdist's reading of NCCL's constants); 1.0 in `FACTORS`: not fitted (docs/validation.md,
      "Eleventh session (2)", weighed it as a fifth factor and left it out)."""

    overhead: float = 0.0
    net_efficiency: float = 1.0
    nvls_efficiency: float = 1.0
    ramp_bytes: float = 0.0
    nvls_step: float = 1.0


# Fitted on the fit half of docs/validation.md (`simdist validate --fit`); see that page.
FACTORS = Factors(overhead=20e-6, net_efficiency=0.9, nvls_efficiency=0.9, ramp_bytes=262144.0)


# GPU generation of each preset model (hardware.GPUS), for NCCL's per-generation constants.
GPU_ARCH = {"V100": "volta", "A100": "ampere", "A100-40GB": "ampere", "A100-80GB": "ampere", "H100": "hopper",
            "H200": "hopper"}


@dataclass(frozen=True)
class Fabric:
    """A host's collective fabric beyond its links: GPU generation (``arch``), whether its
    NVSwitch does NVLink SHARP (``nvls``; NCCL uses it on Hopper NVSwitch systems), its NICs
    (``nics``; their bandwidth together is the host's NIC link, rail-optimised), whether each
    GPU shares a PCIe switch with a NIC (``nic_affinity``), the NCCL release installed
    (``release``, "major.minor.patch"; default `nccl_release.DEFAULT`) and the network plugin NCCL
    loads (``net``, a name of `nccl_net.PLUGINS`: the latency it declares, the protocols it leaves)."""

    arch: str = "ampere"
    nvls: bool = False
    nics: int = 1
    nic_affinity: bool = True
    release: str = nccl_release.DEFAULT
    net: str = nccl_net.DEFAULT

    def __post_init__(self) -> None:
        nccl_release.tuner(self.release)   # (a clear error for a release simdist does not model)
        nccl_net.plugin(self.net)
        if self.arch not in _ARCH:
            raise ValueError(f"nccl.Fabric.arch: unknown GPU generation {self.arch!r}; known: {', '.join(ARCHS)}")
        if isinstance(self.nics, bool) or not isinstance(self.nics, int) or self.nics < 1:
            raise ValueError(f"nccl.Fabric.nics: expected an int >= 1, got {self.nics!r}")
        if self.nvls and self.arch != "hopper":
            raise ValueError(f"nccl.Fabric.nvls: NVLink SHARP needs Hopper NVSwitches, got arch={self.arch!r}")


@dataclass(frozen=True)
class System:
    """What NCCL's tuner sees of a communicator.

    ``nranks`` ranks on ``nodes`` nodes (``nranks / nodes`` per node); ``intra`` the GPUs' link
    inside a node ("nvlink" or "pci") and ``intra_bw`` its sustained per-GPU, per-direction
    bandwidth in bytes/s; ``net_bw`` the node's NIC bandwidth per direction in bytes/s (all its
    NICs together; rail-optimised: every GPU reaches a NIC of its own rail without crossing
    another's); ``arch`` the GPU generation; ``nvls`` whether the node's NVSwitch does NVLink
    SHARP; ``nic_affinity`` whether each GPU shares a PCIe switch with a NIC (NCCL then enables
    LL128 across nodes); ``release`` the NCCL release it runs (`nccl_release`: its tuner's
    constants choose the algorithm and protocol); ``nics`` the node's NICs (``net_bw`` is their sum) and
    ``pci_bw`` a GPU's PCIe rate per direction (bytes/s, the x16 slot's raw rate; 0: not known), which
    set the channels of NCCL's multi-node ring and tree graphs (`net_graph`); ``net_latency`` the
    microseconds the network plugin declares (`nccl_net`: added to every network hop, twice with
    Simple) and ``protocols`` those it leaves NCCL to choose from (NCCL_PROTO)."""

    nranks: int
    nodes: int
    intra_bw: float
    net_bw: float = 0.0
    intra: str = "nvlink"
    arch: str = "ampere"
    nvls: bool = False
    nic_affinity: bool = True
    release: str = nccl_release.DEFAULT
    nics: int = 1
    pci_bw: float = 0.0
    net_latency: float = 0.0
    protocols: tuple[str, ...] = PROTOCOLS

    def __post_init__(self) -> None:
        nccl_release.tuner(self.release)
        if not self.net_latency >= 0 or not self.protocols or any(p not in PROTOCOLS for p in self.protocols):
            raise ValueError(f"nccl.System: expected net_latency >= 0 and protocols among {PROTOCOLS}, got "
                             f"net_latency={self.net_latency!r} protocols={self.protocols!r}")
        if isinstance(self.nics, bool) or not isinstance(self.nics, int) or self.nics < 1:
            raise ValueError(f"nccl.System.nics: expected an int >= 1, got {self.nics!r}")
        if self.nranks < 1 or self.nodes < 1 or self.nranks % self.nodes:
            raise ValueError(f"nccl.System: expected nranks a multiple of nodes >= 1, got nranks={self.nranks} "
                             f"nodes={self.nodes}")
        if self.arch not in _ARCH:
            raise ValueError(f"nccl.System.arch: unknown GPU generation {self.arch!r}; known: {', '.join(ARCHS)}")
        if self.intra not in ("nvlink", "pci"):
            raise ValueError(f"nccl.System.intra: expected 'nvlink' or 'pci', got {self.intra!r}")
        if not self.intra_bw > 0 or (self.nodes > 1 and not self.net_bw > 0):
            raise ValueError(f"nccl.System: bandwidths must be > 0 (intra_bw={self.intra_bw!r}, "
                             f"net_bw={self.net_bw!r} with {self.nodes} nodes)")

    @property
    def ppn(self) -> int:
        return self.nranks // self.nodes


@dataclass(frozen=True)
class Choice:
    """One (algorithm, protocol) for a collective: the channels it runs, its latency (s) and
    effective algorithm bandwidth (bytes/s), simdist's predicted ``time`` (s) for the message and
    NCCL's own estimate ``model_time`` (s), by which NCCL chooses."""

    algorithm: str
    protocol: str
    channels: int
    latency: float
    bandwidth: float
    time: float
    model_time: float


def bus_bandwidth_factor(collective: str, nranks: int) -> float:
    """nccl-tests' busbw / algbw: 2(n-1)/n for all-reduce, (n-1)/n for all-gather/reduce-scatter."""
    if collective == "all_reduce":
        return 2.0 * (nranks - 1) / nranks
    return (nranks - 1) / nranks


def _log2i(n: int) -> int:
    return n.bit_length() - 1 if n > 0 else -1


def _channels(system: System, ring_bus_gbs: float) -> int:
    """Channels of the ring/tree graph NCCL's tuner counts: on one NVSwitch node the search's graph
    (`ring_graph`); across NVLink nodes the multi-node search's (`net_graph`); on PCI, the per-GPU
    bandwidth over one link's channel bandwidth, at least 2 (simdist's simplification)."""
    if system.intra == "nvlink":
        return ring_graph(system)[0] if system.nodes == 1 else net_graph(system)[0]
    return max(2, int(math.ceil(ring_bus_gbs / _CHANNEL_BW[_ARCH[system.arch]] - 1e-9)))


def net_graph(system: System) -> tuple[int, float]:
    """(channels, per-channel bwInter GB/s) of the ring/tree graph NCCL's search builds across NVLink
    nodes (src/graph/search.cc ncclTopoCompute, read at v2.20.3 and master; topo.cc for the rates).

    Every channel leaves the node through a NIC and takes its speed ``s`` of that NIC (the NIC's line
    rate, ``speed`` Mb/s / 8000 GB/s) and of each GPU's NVLink. The search starts at the fastest speed of
    the inter-node speed array within ``maxBw``, a GPU's best path to a NIC (the NIC's rate, at most its
    PCIe link's, `_PCI_NCCL_SHARE`), and keeps the graph of the most bandwidth: ``floor(nic / s)``
    channels a NIC, at most MAXCHANNELS/2 (init.cc ringGraph.maxChannels; MAXCHANNELS is 32 until 2.24, 64 from
    2.25.1) and within a GPU's NVLink (its links x 20/20.6 GB/s); a
    slower speed replaces it only with strictly more bandwidth, and the search stops below half the
    best speed. No channel doubling: ncclTopoDupChannels needs ``s >= 25``. 2 nodes of 8 A100 with 16
    NICs of 100 Gb/s: 16 x 12 GB/s; with 8 HDR NICs: 8 x 24; with 4 NICs of 100 Gb/s: 4 x 12."""
    arch = _ARCH[system.arch]
    nic = system.net_bw / system.nics / 1e9
    max_bw = min(nic, system.pci_bw * _PCI_NCCL_SHARE / 1e9) if system.pci_bw > 0 else nic
    links = max(1, round(system.intra_bw / (LINK_EFFICIENCY * _NVLINK_LINK_BW)))
    total = links * _CHANNEL_BW[arch]
    speeds = _SPEEDS_INTER_SM90 if arch >= 2 else _SPEEDS_INTER
    max_ch = (64 if nccl_release.parse(system.release) >= (2, 25, 0) else 32) // 2   # device.h MAXCHANNELS / 2
    i = next((k for k, sp in enumerate(speeds) if sp <= max_bw + 1e-9), len(speeds) - 1)
    best_n, best_s = 0, 0.0
    while i < len(speeds):
        sp = speeds[i]
        if best_n and sp / best_s <= 0.49:
            break
        n = min(max_ch, system.nics * int(nic / sp + 1e-9), int(total / sp + 1e-9))
        if n >= 1 and n * sp > best_n * best_s + 1e-9:
            best_n, best_s = n, sp
        i += 1
    return max(1, best_n), best_s


def _comm_channels(system: System, graph_channels: int) -> int:
    """The channels a ring/tree collective may run on (``comm->nChannels``): on one NVSwitch node
    ncclTopoPostset (src/graph/connect.cc) duplicates the graph's channels once more,
    ``min(MAXCHANNELS, 2 x nChannels)``; elsewhere simdist keeps the graph's count."""
    if system.nodes == 1 and system.intra == "nvlink":
        return min(_MAX_CHANNELS, 2 * graph_channels)
    return graph_channels


def ring_graph(system: System) -> tuple[int, float]:
    """(channels, per-channel bwIntra GB/s) of the ring graph NCCL's search builds on one NVSwitch
    node (src/graph/search.cc, ncclTopoCompute; the same from 2.18 to 2.30.7).

    Every ring channel takes its speed ``s`` of each GPU's NVSwitch link (its NVLinks x 20/20.6 GB/s,
    topo.h SMxx_NVLINK_BW). Pass 1 starts at the fastest speed of the GPU's speed array within that
    link and keeps the fastest graph of the most bandwidth: ``floor(link / s)`` channels (at most
    MAXCHANNELS/2), stopping when they fill the link or the next speed is below half the best; a slower
    speed replaces it only with strictly more bandwidth. ncclTopoDupChannels then doubles the channels
    at half the speed when ``s >= 25`` (not on Hopper or later when ``s < 50`` with more than 4
    channels); pass 2 cannot raise the speed of that many channels within the link. 8 H100/H200:
    6 x 60 -> 12 x 30 GB/s; 8 A100: 6 x 40 -> 12 x 20; V100: 3 x 40 -> 6 x 20."""
    arch = _ARCH[system.arch]
    links = max(1, round(system.intra_bw / (LINK_EFFICIENCY * _NVLINK_LINK_BW)))   # (a slower custom link: one)
    link = links * _CHANNEL_BW[arch]
    speeds = _SPEEDS_SM90 if arch >= 2 else _SPEEDS_INTRA
    i = next((k for k, sp in enumerate(speeds) if sp <= link + 1e-9), len(speeds) - 1)
    best_n, best_s = 0, 0.0
    while True:
        s = speeds[i]
        n = min(_MAX_CHANNELS // 2, int(link / s + 1e-9))
        if n >= 1 and n * s > best_n * best_s + 1e-9:
            best_n, best_s = n, s
        if best_n * best_s >= link - 1e-9:
            break
        if i + 1 >= len(speeds) or (best_n and speeds[i + 1] / best_s <= 0.49):
            break
        i += 1
    n, s = best_n, best_s
    cc_min = (70, 80, 90)[arch]
    if s >= 25.0 and not (cc_min > 80 and s < 50.0 and n > 4):
        dup = min(2 * n, _MAX_CHANNELS // 2)
        s /= -(-dup // n)
        n = dup
    return n, s


def _nvls_channels(system: System) -> int:
    """NCCL's NVLS graph has one channel per GPU of the node, each a GPU pulling from the
    NVSwitch (search.cc: min/maxChannels = the node's GPU count, at most NCCL_MAX_NVLS_ARITY 32);
    its channels share the GPU's NVLink, so NVLS's bus bandwidth carries the (n-1)/n of the
    node's GPU count n and its algorithm bandwidth does not depend on n."""
    return min(_MAX_NVLS_ARITY, system.ppn)


def nvls_graph(system: System, tuner: nccl_release.Tuner) -> tuple[float, float] | None:
    """Per-channel (bwIntra, bwInter), GB/s, of the NVLS graph NCCL's search builds on one node, which
    its tuner ranks NVLS by; None where simdist does not model the release's search (`nccl_release`).

    search.cc (ncclTopoCompute, ncclTopoSearchTryNvls, from 2.18 to master): one channel per GPU of
    the node, all of one speed ``s`` from the release's ``sm90SpeedArrayIntra``; each channel loads
    every GPU's NVSwitch link with ``s`` and its head GPU's with ``2 s``, so the search settles on the
    fastest speed with ``(n + 1) s`` within a GPU's NVLink bandwidth (its links x 20.6 GB/s, topo.h
    SM90_NVLINK_BW). Pass 2 then raises bwInter (no constraint on one node) a speed at a time while
    it is below ``2 s``."""
    speeds = tuner.nvls_speeds
    if speeds is None:
        return None
    n = system.ppn
    links = round(system.intra_bw / (LINK_EFFICIENCY * _NVLINK_LINK_BW))
    link_gbs = links * _CHANNEL_BW[_ARCH[system.arch]]
    i = next((k for k, sp in enumerate(speeds) if (n + 1) * sp <= link_gbs + 1e-9), len(speeds) - 1)
    intra = speeds[i]
    while i > 0 and speeds[i] < 2 * intra:
        i -= 1
    return intra, speeds[i]


def _model(collective: str, algorithm: str, protocol: str, system: System,
           factors: Factors, tuner: nccl_release.Tuner, ranking: bool = False,
           run_share: float = 1.0) -> tuple[float, float, int] | None:
    """(latency us, algorithm bandwidth GB/s, channels it may run on) of NCCL's model, or None where
    NCCL does not run this (algorithm, protocol) for this collective and system. ``ranking``: NCCL's
    own estimate, by which it chooses (single-node NVLS at its graph's bandwidth, `nvls_graph`);
    otherwise simdist's delivered NVLS bandwidth (the GPU's NVLink share: the kernel runs its own 16
    channels, whatever speed the search settled on). ``run_share``: ring and tree on that share of
    their channels (enqueue.cc trims channels for small messages): NCCL's bandwidth formula with the
    graph's channels scaled by it, before the protocol's caps (LL's ``llMaxBw`` stays the whole GPU's)."""
    a, p, pi = algorithm, protocol, _P[protocol]
    arch = _ARCH[system.arch]
    n, nodes, ppn = system.nranks, system.nodes, system.ppn
    if collective != "all_reduce" and a in ("tree", "nvls_tree"):
        return None
    if a in ("nvls", "nvls_tree") and (p != "Simple" or not system.nvls or arch < 2 or not tuner.nvls):
        return None
    if a == "nvls" and nodes > 1:
        return None   # NVLS across nodes needs CollNet (SHARP switches): not modelled
    if a == "nvls" and collective != "all_reduce":
        return None   # NCCL's NVLS all-gather/reduce-scatter: not modelled
    if a == "nvls_tree" and (nodes == 1 or not tuner.nvls_tree):
        return None
    if p == "LL128" and (system.intra != "nvlink" or (nodes > 1 and not system.nic_affinity)):
        return None   # NCCL enables LL128 only on NVLink and NIC paths within a PCIe switch
    index2 = min(nodes, 3) - 1
    intra_gbs = system.intra_bw / 1e9
    net_gbs = system.net_bw * factors.net_efficiency / 1e9
    bus = intra_gbs if nodes == 1 else min(intra_gbs, net_gbs)
    nch = _nvls_channels(system) if a in ("nvls", "nvls_tree") else _channels(system, bus)
    if a in ("ring", "tree") and run_share != 1.0:
        bus *= run_share
        intra_gbs *= run_share
        net_gbs *= run_share
        nch_cap: float = nch * run_share
    else:
        nch_cap = nch
    if nch < 2 and a in ("nvls", "nvls_tree"):
        return None   # NVLS needs at least 2 channels (tuning.cc)
    nsteps = 2 * (n - 1) if collective == "all_reduce" else n - 1
    ll_max = tuner.ll_max_bw_1node[arch] if nodes == 1 else _LL_MAX_BW_INTEL[index2]
    ratio = tuner.nvls_ratio
    graph = nvls_graph(system, tuner) if ranking and a == "nvls" else None
    if graph is not None:
        # NCCL's ranking: the search's graph (one channel per GPU at bwIntra, bwInter). Until 2.27 its bus
        # bandwidth is channels x min(bwIntra, bwInter) and its algorithm bandwidth that x the ratio; from 2.28
        # channels x min(bwIntra x nvlsEfficiency x (nCh-1)/nCh x 2, bwInter) x nRanks/nSteps (tuning.cc).
        g_intra, g_inter = graph
        if ratio is not None:
            bw = nch * min(g_intra, g_inter) * ratio / (n / nsteps)   # (undone by the ring's conversion below)
        else:
            bw = nch * min(g_intra * _NVLS_EFFICIENCY[arch] * (nch - 1) / nch * 2.0, g_inter)
    elif a in ("nvls", "nvls_tree") and ratio is not None:
        # Until 2.27 NCCL's NVLS bandwidth is the graph's (per channel: its NVLink share; NVLS-tree
        # also at most the network's, halved beyond 2 nodes) times a constant bus-to-algorithm ratio.
        per_ch = intra_gbs / nch * factors.nvls_efficiency
        if a == "nvls_tree":
            per_ch = min(per_ch, net_gbs / nch * (1 if nodes <= 2 else 0.5) * factors.nvls_efficiency)
        bw = nch * per_ch * ratio / (n / nsteps)   # (undone by the ring's conversion below)
    elif a in ("nvls", "nvls_tree"):
        per_ch = intra_gbs / nch * _NVLS_EFFICIENCY[arch] * (nch - 1) / nch * 2.0 * factors.nvls_efficiency
        if a == "nvls_tree":
            per_net = net_gbs / nch * (2 if nodes <= 2 else 1) * factors.nvls_efficiency
            per_ch = min(per_ch, per_net, _PER_CH_NVLS_TREE[arch][index2])
        bw = nch * per_ch
    else:
        bw = bus
        if a == "ring" and p == "LL":
            share = tuner.ring_ll_share
            if share == 0.25 and nodes == 1 and collective != "all_reduce":
                share = 1.0 / 3.0   # (before 2.21: 1/4 for all-reduce or across nodes, else 1/3)
            bw = min(ll_max, bw * share)
        if a == "ring" and p == "LL128":
            bw = min(bw * 0.92, nch_cap * _PER_CH_RING_LL128[arch][index2])
        if a == "tree":
            if nodes == 2:
                # On 2 nodes the tree's graph may run its NVLink side at up to twice the network
                # rate (search.cc "increase bwIntra for trees (2 nodes or collnet)") and the tuner
                # takes that intra bandwidth (tuning.cc: nNodes <= 2 ? bwIntra : bwInter).
                bw = min(intra_gbs, 2.0 * net_gbs)
            bw = min(bw * 0.92, nch_cap * _PER_CH_TREE[arch][index2])
            if p == "LL":
                bw = min(bw / 3.8, ll_max)
            if p == "LL128":
                bw = min(bw * (7.0 / 9.0 if nodes == 1 else 120.0 / 128.0), nch_cap * _PER_CH_TREE_LL128[arch][index2])
    bw *= (n / nsteps) if a != "tree" else 0.5   # bus -> algorithm bandwidth
    intra_lat = tuner.hw_lat[system.intra][a][pi]
    if nodes > 1 and p == "LL":
        intra_lat *= tuner.ll_net_intra
    inter_lat = tuner.hw_lat["net"]["tree" if ppn == 1 else a][pi]
    if nodes > 1:
        # The network plugin's declared latency, once more with Simple ("the flush extra latency"):
        # tuning.cc interLat, `nccl_net`.
        inter_lat += system.net_latency * (2 if p == "Simple" else 1)
    lat = tuner.base_lat[a][pi]
    if a == "ring":
        net_overhead = 0.0
        if nodes > 1:
            net_overhead = _NET_OVERHEAD_US * (3 if p == "Simple" else 1)
        intra_lat = max(intra_lat, net_overhead)
        inter_steps = 0 if nodes == 1 else (2 * (nodes - 1) if collective == "all_reduce" else nodes - 1)
        if nodes > 1 and collective == "all_reduce" and tuner.inter_steps_2n:
            inter_steps = 2 * nodes   # (before 2.23)
        lat += (nsteps - inter_steps) * intra_lat + inter_steps * inter_lat
    elif a == "tree":
        lat += 2 * ((ppn - 1) * intra_lat + _log2i(nodes) * inter_lat)
    elif a == "nvls":
        lat += intra_lat   # (baseLat is 0 for NVLS from 2.19; 2.18 put its 23 us there)
    else:
        lat += intra_lat + 2 * _log2i(nodes) * inter_lat
    return lat, bw, (nch if a in ("nvls", "nvls_tree") else _comm_channels(system, nch))


def _nccl_time(collective: str, algorithm: str, protocol: str, system: System, nbytes: float, lat: float,
               bw: float, nch: int) -> tuple[float, float]:
    """NCCL's ncclTopoGetAlgoTime: (latency us, algorithm bandwidth GB/s) for this message (tree
    correction factors, the ring plateau latency across nodes)."""
    pi = _P[protocol]
    if algorithm == "tree" and collective == "all_reduce":
        log_size = _log2i(int(nbytes) >> 6)
        if 0 <= log_size < 23:
            bw *= _TREE_CORRECTION[pi][log_size]
    if algorithm == "ring" and protocol == "Simple" and system.nodes > 1 and collective == "all_reduce" \
            and nbytes / (nch * system.nranks) >= 64:
        lat *= 1.9 if _ARCH[system.arch] == 0 else 1.4   # plateau effect of ring (tuning.cc)
    return lat, bw


def _run_channels(algorithm: str, protocol: str, system: System, nbytes: float, nch: int) -> int:
    """The channels NCCL runs the collective on: enqueue.cc drops channels while the message gives
    each fewer than threads x threshold bytes (ring and tree; NVLS keeps its own)."""
    run = nch
    if algorithm in ("ring", "tree"):
        pi = _P[protocol]
        threshold = _THREAD_THRESHOLD[pi] * (system.nranks if algorithm == "ring" and protocol == "LL" else 1)
        per_channel = _MAX_THREADS[pi] * threshold
        while run > 1 and nbytes < run * per_channel:
            run -= 1
    return run


def nvls_chunk(nbytes: float, channels: int, heads: int) -> int:
    """NCCL's NVLS chunk size for a message (enqueue.cc, NCCL_ALGO_NVLS): 128 KiB, halved to 64,
    32 and 16 KiB while the message is below 64, 8 and 2 x (channels x heads) chunks."""
    chunk = _NVLS_CHUNK
    ops = channels * heads
    for mult, smaller in ((64, 65536), (8, 32768), (2, 16384)):
        if nbytes < mult * ops * chunk and chunk > smaller:
            chunk = smaller
    return chunk


def nvls_steps(nbytes: float, channels: int, heads: int) -> int:
    """Chunk steps each NVLS channel runs: one per head in every loop of channels x heads x chunk
    bytes (a partial last loop still steps through every head), at least one loop."""
    chunk = nvls_chunk(nbytes, channels, heads)
    loops = max(1, math.ceil(nbytes / (channels * heads * chunk)))
    return loops * heads


def nvls_step_latency() -> float:
    """Seconds each NVLS chunk step adds: one Simple-protocol step's NVLink latency (tuning.cc
    hwLat[NVLINK][RING][SIMPLE], 3.4 us) shared by the NCCL_STEPS (8) steps a channel keeps in
    flight."""
    return nccl_release.tuner(nccl_release.DEFAULT).hw_lat["nvlink"]["ring"][_P["Simple"]] / _NCCL_STEPS * 1e-6


_NEUTRAL = Factors()


def options(collective: str, nbytes: float, system: System, factors: Factors | None = None) -> list[Choice]:
    """Every (algorithm, protocol) NCCL would consider, in NCCL's order, each with NCCL's own time
    estimate (``model_time``, what it selects by: the tuner of ``system.release``) and simdist's
    predicted time (``time``: the channels NCCL actually runs, the global ``factors``, default
    `FACTORS` read at the call, the default release's constants)."""
    if factors is None:
        factors = FACTORS
    if collective not in COLLECTIVES:
        raise ValueError(f"nccl: unknown collective {collective!r}; known: {', '.join(COLLECTIVES)}")
    # The system's release chooses (its tuner's constants); simdist's calibrated model times what was
    # chosen with the default release's constants and the fitted factors, whatever the release (the
    # constants rank; the kernels' delivered times are what the factors were fitted to: predicting
    # with each row's release made the fit half worse, docs/validation.md "Tenth session").
    chooser = nccl_release.tuner(system.release)
    predictor = nccl_release.tuner(nccl_release.DEFAULT)
    out = []
    for a in ALGORITHMS:
        for p in PROTOCOLS:
            m = _model(collective, a, p, system, _NEUTRAL, chooser, ranking=True)
            if m is None:
                continue
            lat, bw = _nccl_time(collective, a, p, system, nbytes, *m)
            model_time = (lat + nbytes / (1000.0 * bw)) * 1e-6
            lat, bw, nch = _model(collective, a, p, system, factors, predictor)  # type: ignore[misc]
            lat, bw = _nccl_time(collective, a, p, system, nbytes, lat, bw, nch)
            if a == "nvls":
                # NVLS's own pipeline (not the ring's Simple ramp): its run-time channels, each
                # stepping through chunks of NCCL's NVLS chunk size, every step a share of a
                # Simple step's latency; the bandwidth is the tuner's (its graph's channels).
                run = _NVLS_RUN_CHANNELS[_ARCH[system.arch]]
                eff = bw
                steps = nvls_steps(nbytes, run, system.ppn)
                t = (lat + nbytes / (1000.0 * eff)) * 1e-6 + steps * nvls_step_latency() * factors.nvls_step \
                    + factors.overhead
            else:
                run = _run_channels(a, p, system, nbytes, nch)
                eff = bw
                if run < nch:
                    # NCCL's formula on the channels that run (LL's cap is the whole GPU's, not per channel).
                    _, bw_run, _ = _model(collective, a, p, system, factors, predictor,  # type: ignore[misc]
                                          run_share=run / nch)
                    _, eff = _nccl_time(collective, a, p, system, nbytes, lat, bw_run, nch)
                if factors.ramp_bytes > 0 and p == "Simple":
                    per_ch = nbytes / run
                    eff *= per_ch / (per_ch + factors.ramp_bytes)
                t = (lat + nbytes / (1000.0 * eff)) * 1e-6 + factors.overhead
            out.append(Choice(a, p, run, lat * 1e-6, eff * 1e9, t, model_time))
    return out


def choose(collective: str, nbytes: float, system: System, algorithm: str | None = None,
           protocol: str | None = None, factors: Factors | None = None) -> Choice:
    """NCCL's choice for ``collective`` of ``nbytes`` on ``system``: the (algorithm, protocol)
    with the least NCCL model time, or the least within an explicit ``algorithm`` and/or
    ``protocol`` (NCCL_ALGO / NCCL_PROTO; without one, within the protocols the network plugin
    leaves, ``system.protocols``); ties go to NCCL's order (ring, tree, nvls, nvls_tree;
    LL, LL128, Simple). Its ``time`` is simdist's prediction for what was chosen."""
    if algorithm is not None and algorithm not in ALGORITHMS:
        raise ValueError(f"nccl: unknown algorithm {algorithm!r}; known: {', '.join(ALGORITHMS)}")
    if protocol is not None and protocol not in PROTOCOLS:
        raise ValueError(f"nccl: unknown protocol {protocol!r}; known: {', '.join(PROTOCOLS)}")
    best: Choice | None = None
    for c in options(collective, nbytes, system, factors):
        if (algorithm is not None and c.algorithm != algorithm) or (protocol is not None and c.protocol != protocol):
            continue
        if protocol is None and c.protocol not in system.protocols:
            continue
        if best is None or c.model_time < best.model_time:
            best = c
    if best is None:
        raise ValueError(f"nccl: no algorithm/protocol for {collective} with algorithm={algorithm!r} "
                         f"protocol={protocol!r} on {system}")
    return best


def parse_algorithm(spec: str) -> tuple[str | None, str | None]:
    """A simulator algorithm name "nccl", "nccl:<algorithm>" or "nccl:<algorithm>:<protocol>"
    (``<algorithm>`` may be "auto") -> (algorithm or None, protocol or None)."""
    parts = spec.split(":")
    if parts[0] != "nccl" or len(parts) > 3:
        raise ValueError(f"nccl: expected 'nccl', 'nccl:<algorithm>' or 'nccl:<algorithm>:<protocol>', got {spec!r}")
    algo = parts[1] if len(parts) > 1 and parts[1] != "auto" else None
    proto = parts[2] if len(parts) > 2 else None
    if algo is not None and algo not in ALGORITHMS:
        raise ValueError(f"{spec!r}: unknown NCCL algorithm {algo!r}; known: auto, {', '.join(ALGORITHMS)}")
    if proto is not None and proto not in PROTOCOLS:
        raise ValueError(f"{spec!r}: unknown NCCL protocol {proto!r}; known: {', '.join(PROTOCOLS)}")
    return algo, proto


@contextmanager
def using(factors: Factors) -> Iterator[None]:
    """Within the block, `FACTORS` is ``factors`` (for fitting them: every simulated NCCL
    collective started inside uses them)."""
    global FACTORS
    saved = FACTORS
    FACTORS = factors
    try:
        yield
    finally:
        FACTORS = saved
