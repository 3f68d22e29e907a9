"""Published measurements of NCCL collectives (nccl-tests and nccl-tests-like all-reduce/all-gather
bus bandwidth, 32 KiB to 16 GiB, one node and several) and the simdist workloads that express
them: a preset cluster of the same GPUs, NVLink, NICs and ranks, the same collective run with
``algorithm="nccl"`` (NCCL's own algorithm choice, or the one the measurement forced) on the
simulator, its simulated time turned into bus bandwidth the way nccl-tests does.

Every figure below was read from the cited page; nothing is estimated. Rows alternate between
"fit" (may be used to fit `nccl.Factors`) and "holdout" (only reported) in table order: the
first row is fit, the second holdout, and so on.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Callable

from simdist.sim import Simulator, collectives, nccl, nccl_release, presets

from .table import Citation, Measurement

__all__ = ["measurements", "hidden_measurements", "third_round_measurements", "Setup", "simulate_busbw", "busbw_from_us"]

KiB, MiB, GiB = 2**10, 2**20, 2**30


@dataclass(frozen=True)
class Setup:
    """A measured system as simdist builds it: ``hosts`` x ``gpus`` GPUs of model ``gpu`` (preset
    NVLink), ``nics`` NICs of ``network`` per host, NVLink SHARP on/off (None: the preset's).

    ``pipelined``: how the benchmark timed a call. False (per call): its timer sees each call's
    host side (launching the collective and waiting for it), simdist adds `nccl.FACTORS.overhead`
    as for any collective a program starts: a benchmark that times one call on an idle GPU, or
    nccl-tests with one thread launching several GPUs (its header: "nGpus" > 1). True: calls
    queued back to back with one launching thread per GPU (nccl-tests' header "nGpus 1", MPI
    ranks or `-t` threads; CUDA graphs; a page that says its timer hides the host side): the
    prediction is the kernels' time alone. ``net``: the network plugin NCCL loaded, where the source
    names it (`nccl_net.PLUGINS`; None: NCCL's own transports)."""

    gpu: str
    gpus: int = 8
    hosts: int = 1
    network: str = "infiniband_hdr"
    nics: int = 1
    nvls: bool | None = None
    pipelined: bool = False
    release: str | None = None
    net: str | None = None

    def describe(self) -> str:
        s = f"{self.hosts}x{self.gpus} {self.gpu}"
        if self.hosts > 1:
            s += f", {self.nics}x {self.network} per host"
        if self.nvls is False:
            s += ", NVLS off"
        if self.pipelined:
            s += ", back-to-back timing"
        if self.release is not None:
            s += f", NCCL {self.release}"
        if self.net is not None:
            s += f", {self.net}"
        return s


def simulate_busbw(setup: Setup, collective: str, nbytes: int, algorithm: str = "nccl") -> float:
    """Run ``collective`` of ``nbytes`` over every GPU of ``setup`` on the simulator; return the
    bus bandwidth nccl-tests would print (GB/s: bytes / time x busbw factor / 1e9)."""
    cluster = presets.gpu_cluster(hosts=setup.hosts, gpus_per_host=setup.gpus, gpu=setup.gpu,
                                  network=setup.network, nics=setup.nics, nvls=setup.nvls,
                                  nccl_release=setup.release, net_plugin=setup.net)
    sim = Simulator(cluster)
    devs = [d for d in cluster.devices() if d.kind == "GPU"]
    factors = replace(nccl.FACTORS, overhead=0.0) if setup.pipelined else nccl.FACTORS
    with nccl.using(factors):
        if collective == "all_reduce":
            ev = sim.all_reduce(devs, nbytes, algorithm=algorithm, name="validate")
        elif collective == "reduce_scatter":
            ev = sim.reduce_scatter(devs, nbytes, name="validate", algorithm=algorithm)
        else:
            ev = sim.all_gather(devs, nbytes, name="validate", algorithm=algorithm)
        sim.drive(ev)
    return nbytes / sim.now * nccl.bus_bandwidth_factor(collective, len(devs)) / 1e9


def _choice(setup: Setup, collective: str, nbytes: int, algorithm: str) -> str:
    cluster = presets.gpu_cluster(hosts=setup.hosts, gpus_per_host=setup.gpus, gpu=setup.gpu,
                                  network=setup.network, nics=setup.nics, nvls=setup.nvls,
                                  nccl_release=setup.release, net_plugin=setup.net)
    devs = [d for d in cluster.devices() if d.kind == "GPU"]
    c = collectives.nccl_choice(Simulator(cluster), collective, devs, nbytes, algorithm)
    return f"{c.algorithm}/{c.protocol}, {c.channels} channels"


def _size(n: int) -> str:
    for unit, v in (("GiB", GiB), ("MiB", MiB), ("KiB", KiB)):
        if n >= v and n % v == 0:
            return f"{n // v}{unit}"
    return f"{n}B"


# -- sources -------------------------------------------------------------------------------------
_ML_ENG = "https://github.com/stas00/ml-engineering/blob/master/network"
A100_SWEEP = Citation(
    "stas00/ml-engineering, network/README.md, 'Real network throughput': nccl-tests "
    "`all_reduce_perf -b 32k -e 16G -f 2 -g 8` on one 8x A100 (NVLink 3, NVSwitch) node",
    "the busbw column of the printed sweep (row of the given size)", "2023-12-15",
    f"{_ML_ENG}/README.md#real-network-throughput")
H200_SWEEP = Citation(
    "stas00/ml-engineering, network/benchmarks/results/all-reduce-8xH200.md: all_reduce_bench.py "
    "(nccl-tests' busbw) on one 8x H200 SXM node, NVSwitch, nccl 2.27.7",
    "the busbw column of the table (row of the given payload)", "2026-08-05",
    f"{_ML_ENG}/benchmarks/results/all-reduce-8xH200.md")
H200_SHARP = Citation(
    "stas00/ml-engineering, network/README.md, 'SHARP': 8x H200, nccl 2.27.7, 16GiB payload, "
    "NCCL_NVLS_ENABLE=0 (ring) and the all-gather row of the table measured on the same node",
    "'482.26GBps against 367.61GBps at a 16GiB payload'; table row 'all-gather | Ring | 361.4GBps'",
    "2026-08-04", f"{_ML_ENG}/README.md#sharp")
H100_MAINTAINER = Citation(
    "NVIDIA/nccl-tests issue #212 'H100 all reduce performance is poor', comment by sjeaugey "
    "(NCCL maintainer) on 8x H100 NVLink 4",
    "'NCCL can get an effective NVLink bandwidth of 370GB/s ... when running with NCCL_ALGO=RING'; "
    "'On 8 GPUs, you should reach a peak busBw of ~480GB/s' (NVLS, large sizes)",
    "2024-05-06", "https://github.com/NVIDIA/nccl-tests/issues/212")
A100_3NODE = Citation(
    "NVIDIA/nccl-tests issue #119 'Evaluation of NCCL test result': 3 servers x 8 A100-SXM4-40GB, "
    "4x Mellanox HDR InfiniBand per server, `all_reduce_perf -b 8 -e 128M` over 24 ranks",
    "'peak performance reaches about 96GB/s' (busbw; the sweep ends at 128MiB)", "2022-11-17",
    "https://github.com/NVIDIA/nccl-tests/issues/119")
H200_4NODE = Citation(
    "stas00/ml-engineering, network/README.md, 'Need for speed' footnote: 4-node 8x H200 "
    "p5en.48xlarge (16x 200Gbps EFA per node), nccl 2.27.7, 4GiB all-reduce over 32 ranks",
    "'NCCL_ALGO=allreduce:ring ... 364.65 ... GBps busbw'; 'NCCL_ALGO=allreduce:nvlstree ... 310.07GBps'",
    "2026-08-07", f"{_ML_ENG}/README.md")

H200_PIPELINED = Citation(
    "stas00/ml-engineering, network/benchmarks/README.md, 'How the calls are timed': nccl-tests built "
    "against nccl 2.30.7 on one 8x H200 node (NVLink 4, NVSwitch), calls timed back to back (the page: "
    "this hides the host side of each call, 20-30 us, and agrees with all_reduce_bench's queued timing "
    "within 2% outside 1-16 MiB)",
    "the nccl-tests column of the table (row of the given payload); page version 0cc3de5", "2026-10",
    f"{_ML_ENG}/benchmarks/README.md#how-the-calls-are-timed")
H200_GPU_COUNT = Citation(
    "stas00/ml-engineering, network/README.md, 'SHARP': nccl-tests all-reduce of 8GiB on 4 to 8 GPUs of "
    "one 8x H200 node (NVSwitch), the algorithm NCCL picked and the busbw for each GPU count",
    "table 'GPUs | algo NCCL picks | busbw': 4 Ring 363.3GBps, 5 NVLS 414.2, 6 NVLS 435.6, 7 NVLS 460.0, "
    "8 NVLS 473.1", "2026-08-04", f"{_ML_ENG}/README.md#sharp")
_OCI = "https://github.com/oracle-japan/ocitutorials/blob/master/tutorials/_hpc/benchmark"
OCI_A100_2NODE = Citation(
    "oracle-japan/ocitutorials, run-nccltests.md: nccl-tests `all_reduce_perf -b 10G -e 10G -g 8` on 2x "
    "BM.GPU4.8 (8x A100-SXM4-40GB, NVSwitch) over the cluster network, all 16 RDMA ports (RoCE v2, "
    "100 Gbps each per run-nccltests-ubuntu.md) per node, NCCL 2.21.5 (TensorFlow NGC 24.06)",
    "the out-of-place busbw of the printed run (its only size)", "2024-06", f"{_OCI}/run-nccltests.md")
OCI_H100_2NODE = Citation(
    "oracle-japan/ocitutorials, run-nccltests-h100.md: nccl-tests `mpirun -n 16 ... all_reduce_perf -b 1G "
    "-e 16G -f 2` on 2x BM.GPU.H100.8 (8x H100 80GB HBM3, NVSwitch) over the cluster network, all 16 RDMA "
    "ports (RoCE v2; 200 Gbps each, Oracle's BM.GPU.H100.8 shape) per node, NCCL 2.21.5",
    "the out-of-place busbw column of the printed sweep (row of the given size)", "2024-07",
    f"{_OCI}/run-nccltests-h100.md")
OCI_A100_UBUNTU = Citation(
    "oracle-japan/ocitutorials, run-nccltests-ubuntu.md: nccl-tests `mpirun -n 8 all_reduce_perf -b 10G -e 10G "
    "-t 1 -g 1` on one BM.GPU4.8 (8x A100-SXM4-40GB, NVSwitch), Ubuntu 24.04, NCCL 2.26.5 (HPC SDK 25.5)",
    "the out-of-place busbw of the printed 1-node run (its only size)", "2025-05", f"{_OCI}/run-nccltests-ubuntu.md")
NDMV4 = Citation(
    "microsoft/mscclpp, docs/performance-ndmv4.md: NCCL 2.17.1 (nccl-tests with CUDA graphs, `-G 1`, one "
    "process per GPU) on Azure NDm A100 v4 (8x A100 80GB SXM4, NVSwitch; 8x 200 Gb/s HDR InfiniBand per VM, "
    "one per GPU), 1 node and 2 nodes of 8 GPUs",
    "the in-place BusBW tables, NCCL AllReduce / NCCL AllGather columns (row of the given size)", "2023-06-05",
    "https://github.com/microsoft/mscclpp/blob/main/docs/performance-ndmv4.md")

_AZ = "https://github.com/Azure/AI-benchmarking-guide/blob/{commit}/{path}"


def _azure(vm: str, gpu: str, release: str, commit: str, path: str, date: str) -> Citation:
    return Citation(
        f"Azure/AI-benchmarking-guide, {path}: {vm} (8x {gpu}, NVSwitch), NCCL {release}; "
        "Benchmarks/NCCLBandwidth.py of the same days (5751982, 2024-09-25) runs nccl-tests "
        "`NCCL_ALGO=<algo> all_reduce_perf -b 8 -e 8G -f 2 -g 8 -n 40` for Tree, Ring, NVLS and NVLSTree "
        "and keeps the in-place busbw; the page reports the NVLS run",
        "table 'NCCL Bandwidth' (in-place busbw, NVLS algorithm), row of the given message size", date,
        _AZ.format(commit=commit, path=path))


# (issue 26's third round: sources the model had not seen, sampled by the rule before comparing)
AZ_H100 = _azure("ND H100 v5", "H100 80GB HBM3", "2.18.5", "ae0b6a7f47caee92985aafc546faf30e9d4a3ca7",
                 "Azure_Results/ND_H100_v5_results.md", "2024-09-24")
AZ_H200 = _azure("ND H200 v5", "H200 141GB", "2.20.5", "7f20e5fa3b2f9a46d8404af1f6fb14b049d6d5cc",
                 "Azure_Results/ND_H200_v5_results.md", "2024-09-24")

# (issue 26's seventeenth session, the "seventh round": sources in neither the table nor the hidden set, sampled
# by the rule and frozen with main's model before anything changed; docs/validation.md "Seventeenth session")
_AWS = ("https://github.com/aws-samples/awsome-distributed-training/blob/88c2e71b17895e2d5de10733861888c7faedf2f0/"
        "micro-benchmarks/nccl-tests/README.md")


def _aws(system: str, sweep: str) -> Citation:
    return Citation(
        f"aws-samples/awsome-distributed-training, micro-benchmarks/nccl-tests/README.md, '2. Running the NCCL Tests', "
        f"Slurm: nccl-tests `all_reduce_perf -b 8 -e {sweep} -f 2 -g 1 -c 1 -n 100` (slurm/nccl-tests.sbatch: 8 tasks "
        f"per node, one process per GPU) on 2x {system}, EFA (aws-ofi-nccl 1.8.1), NCCL 2.20.3 (the README's "
        "nccl-tests.Dockerfile build; NCCL_BUFFSIZE=8388608)",
        "the out-of-place busbw column of the example output (row of the given size)", "2024-04-19", _AWS)


AWS_P4DE = _aws("p4de.24xlarge (8x A100 80GB, NVSwitch; 4x 100 Gb/s EFA per instance, AWS's instance type)", "2G")
AWS_P5 = _aws("p5.48xlarge (8x H100 80GB, NVSwitch; 32 EFA devices per instance, `vpc.amazonaws.com/efa: 32` in the "
              "README's kubernetes/nccl-tests.yaml, 3200 Gb/s in all: AWS's instance type)", "16G")
OKE_A100 = Citation(
    "oracle-quickstart/oci-hpc-oke, README.md, 'Optional - Run the NCCL test': nccl-tests `mpirun -np 16 -npernode 8 "
    "... all_reduce_perf -b 8 -f 2 -g 1 -e 8G -c 1` (manifests/a100-nccl-test.yaml, image "
    "nccl-tests:pytorch-23.10-nccl-2.19.3-1) on 2x BM.GPU4.8 (8x A100-SXM4-40GB, NVSwitch), 16 RDMA VFs (RoCE) per "
    "node, header `nThread 1 nGpus 1`",
    "the out-of-place busbw column of the printed sweep (row of the given size)", "2024-02-13",
    "https://github.com/oracle-quickstart/oci-hpc-oke/blob/1402938d8c77b586e20ec9d40849e2177feef411/README.md")

# (issue 26's ninth session: a source in neither the table nor the hidden set, sampled by the rule
# before the model was compared with it; docs/validation.md "Ninth session: collectives")
_RV = ("https://github.com/rakshithvasudev/rakshithvasudev.github.io/blob/"
       "e4e008db99d4bbfc58f160ba620cb0e4a0ff0d63/_posts/2026-08-02-inside-nccl-allreduce.md")
RV_H100 = Citation(
    "rakshithvasudev.github.io, 'Inside NCCL's all-reduce: ring, double binary tree, or neither?', section "
    "'Watch it decide': nccl-tests `all_reduce_perf ... -g 8` (one thread launching the 8 GPUs) on one 8x H100 "
    "node (NVSwitch), NCCL 2.30.7 built from NVIDIA/nccl 5067397, in-place columns",
    "tables 'ring, protocol free (picks LL) | ring, Simple forced' (time, us; busbw where printed) and "
    "'free choice (NVLS) | best ring' (busbw), row of the given size; page version e4e008d (2026-08-18)",
    "2026-08-02", _RV)
RV_H200 = Citation(
    "rakshithvasudev.github.io, 'Inside NCCL's all-reduce: ring, double binary tree, or neither?', section "
    "'Turning both dials at once': nccl-tests on one 8x H200 node (NVSwitch), NCCL 2.30.7 (NVIDIA/nccl 5067397), "
    "the fastest measured plan per size (median of five runs at the big sizes), in-place",
    "table 'size | 1 node | 2 nodes | 4 nodes', the 1-node column (plan and busbw), row of the given size; "
    "page version e4e008d (2026-08-18)", "2026-08-02", _RV)

# (issue 26's eleventh session (2): a source in neither the table nor the hidden set, sampled by the rule
# before the model was compared with it; docs/validation.md "Eleventh session (2): LL128 rows")
_DGXC = ("https://github.com/NVIDIA/dgxc-benchmarking/blob/8e77d607c06f8c8603568ba7e49e65f8ff88c1b8/"
         "nccl/README.md")
DGXC_H100 = Citation(
    "NVIDIA/dgxc-benchmarking, nccl/README.md (DGX Cloud benchmarking recipe, 'View sample output (AllReduce "
    "excerpt)'): nccl-tests `all_reduce_perf` 8 B to 16 GiB on one 8x H100 80GB HBM3 node (DGX H100, NVSwitch), "
    "NCCL's own choice, header `nThread 1 nGpus 1` (one process per GPU); the page prints no NCCL version",
    "the out-of-place busbw column of the printed sweep (row of the given size); first published in v25.10 "
    "(8e77d60), unchanged to v26.02", "2025-12-04", _DGXC)

# (issue 26's twelfth session: a source in neither the table nor the hidden set, sampled by the rule before
# the model was compared with it; docs/validation.md "Twelfth session: collectives"). One 8x H100 80GB HBM3
# SXM5 NVSwitch host whose GPU 0 serves production: the runs use 2, 4 or 6 of the other GPUs. Every file
# prints nccl-tests' header ("nccl-library=22902": NCCL 2.29.2, the pytorch 26.02 container the scripts name).
_WH = "https://github.com/waynehacking8/nccl-collectives-bench/blob/{commit}/{path}"


def _wh(path: str, commit: str, what: str, date: str, test: str = "all_reduce_perf") -> Citation:
    return Citation(
        f"waynehacking8/nccl-collectives-bench, {path}: nccl-tests `{test}` on {what} of one 8x H100 80GB "
        "HBM3 NVSwitch host (GPU 0 serves production and is never used), NCCL 2.29.2 (header `nccl-library=22902`)",
        "the out-of-place busbw column of the committed sweep (row of the given size)", date,
        _WH.format(commit=commit, path=path))


WH_G4 = _wh("results/quiet/all_reduce.txt", "8ab7496db79ead1383ff47805c91fcf489c88406",
            "4 GPUs, `-b 8 -e 8G -f 2 -g 4 -w 5 -n 50` (one thread launching the 4 GPUs: per call), NCCL's own "
            "choice, the quiet-box re-run (every other tenant stopped)", "2026-06-01")
WH_G4_GRAPH = _wh("results/symmetric/all_reduce_reg0_graph1.txt", "207ff7554708070b28cf999aa103162ea1fe537f",
                  "4 GPUs, `-b 8 -e 16M -f 2 -g 4 -w 5 -n 50 -R 0 -G 1` (CUDA graph: timed back to back), "
                  "NCCL's own choice, no buffer registration", "2026-06-02")
WH_G2 = _wh("results/scaling_attributed/g2_auto.log", "ec97f06204de7297d1b682a4c60f0924602c677d",
            "2 GPUs, `-b 256M -e 8G -f 2 -w 5 -n 50 -g 2` (per call), NCCL's own choice (its TUNING log: ring/Simple)",
            "2026-06-02")
WH_G6 = _wh("results/scaling_attributed/g6_auto.log", "ec97f06204de7297d1b682a4c60f0924602c677d",
            "6 GPUs, `-b 256M -e 8G -f 2 -w 5 -n 50 -g 6` (per call), NCCL's own choice (its TUNING log: NVLS/Simple)",
            "2026-06-02")
# (issue 26's thirty-first session, the "eighth round": the same quiet-box run's all-gather and reduce-scatter
# sweeps, collectives no earlier row measured on this host; sampled by the rule and frozen before simdist ran on
# them; docs/validation.md "Thirty-first session: the eighth round")
WH_G4_AG = _wh("results/quiet/all_gather.txt", "8ab7496db79ead1383ff47805c91fcf489c88406",
               "4 GPUs, `-b 8 -e 8G -f 2 -g 4 -w 5 -n 50` (one thread launching the 4 GPUs: per call), NCCL's own "
               "choice, the quiet-box re-run (every other tenant stopped)", "2026-06-01", "all_gather_perf")
WH_G4_RS = _wh("results/quiet/reduce_scatter.txt", "8ab7496db79ead1383ff47805c91fcf489c88406",
               "4 GPUs, `-b 8 -e 8G -f 2 -g 4 -w 5 -n 50` (one thread launching the 4 GPUs: per call), NCCL's own "
               "choice, the quiet-box re-run (every other tenant stopped)", "2026-06-01", "reduce_scatter_perf")
EIGHTH_ROUND_SOURCES = (WH_G4_AG, WH_G4_RS)

# The NCCL release each source prints (its tuner's constants choose the algorithm and protocol,
# `nccl_release`); a source that prints none runs the newest release tagged on or before its date
# (`nccl_release.release_at`): the A100 sweep (2023-12-15) 2.19.4, the maintainer's H100 figures
# (2024-05-06) 2.21.5, the 3-node A100 run (2022-11-17) 2.15.5, the H200 GPU-count table (2026-08-04)
# 2.30.7.
_PRINTED_RELEASE = {H200_SWEEP: "2.27.7", H200_SHARP: "2.27.7", H200_4NODE: "2.27.7", H200_PIPELINED: "2.30.7",
                    OCI_A100_2NODE: "2.21.5", OCI_H100_2NODE: "2.21.5", OCI_A100_UBUNTU: "2.26.5", NDMV4: "2.17.1",
                    AZ_H100: "2.18.5", AZ_H200: "2.20.5", RV_H100: "2.30.7", RV_H200: "2.30.7",
                    WH_G4: "2.29.2", WH_G4_GRAPH: "2.29.2", WH_G4_AG: "2.29.2", WH_G4_RS: "2.29.2", WH_G2: "2.29.2", WH_G6: "2.29.2",
                    AWS_P4DE: "2.20.3", AWS_P5: "2.20.3", OKE_A100: "2.19.3"}


def release_of(cit: Citation) -> str:
    """The NCCL release a source's measurement ran: the one it prints, else the newest tagged on or
    before its date."""
    return _PRINTED_RELEASE.get(cit) or nccl_release.release_at(cit.date)


# ids of rows whose system and size another source already has: the NCCL release they ran tells them apart
_ID_TAG = {RV_H100: "-nccl230", RV_H200: "-nccl230", AWS_P4DE: "-efa", AWS_P5: "-efa", OKE_A100: "-oke"}


def busbw_from_us(nbytes: int, us: float, ranks: int = 8) -> float:
    """The all-reduce bus bandwidth (GB/s) nccl-tests prints for a time of ``us`` microseconds: a figure
    published as a time, turned into the table's unit the way nccl-tests computes it."""
    return nbytes / (us * 1e-6) * nccl.bus_bandwidth_factor("all_reduce", ranks) / 1e9


A100 = Setup("A100")
H200 = Setup("H200")
H200_RING = Setup("H200", nvls=False)
H100 = Setup("H100")
A100_IB = Setup("A100", hosts=3, network="infiniband_hdr", nics=4, pipelined=True)
H200_EFA = Setup("H200", hosts=4, network="200Gbps", nics=16)
H200_B2B = Setup("H200", pipelined=True)
H100_B2B = Setup("H100", pipelined=True)
A100_ROCE = Setup("A100", hosts=2, network="100Gbps", nics=16)
H100_ROCE = Setup("H100", hosts=2, network="200Gbps", nics=16, pipelined=True)
NDMV4_1 = Setup("A100-80GB", pipelined=True)
NDMV4_2 = Setup("A100-80GB", hosts=2, network="infiniband_hdr", nics=8, pipelined=True)
P4DE_EFA = Setup("A100-80GB", hosts=2, network="100Gbps", nics=4, pipelined=True, net="aws-ofi-nccl-1.8.1/p4de")
P5_EFA = Setup("H100", hosts=2, network="100Gbps", nics=32, pipelined=True, net="aws-ofi-nccl-1.8.1/p5")
OKE_ROCE = Setup("A100", hosts=2, network="100Gbps", nics=16, pipelined=True)

# (citation, setup, collective, bytes, published busbw GB/s, algorithm)
_ROWS: list[tuple[Citation, Setup, str, int, float, str]] = [
    (A100_SWEEP, A100, "all_reduce", 32 * KiB, 1.31, "nccl"),
    (A100_SWEEP, A100, "all_reduce", 1 * MiB, 18.00, "nccl"),
    (A100_SWEEP, A100, "all_reduce", 32 * MiB, 138.49, "nccl"),
    (A100_SWEEP, A100, "all_reduce", 1 * GiB, 229.04, "nccl"),
    (A100_SWEEP, A100, "all_reduce", 16 * GiB, 234.89, "nccl"),
    (H200_SWEEP, H200, "all_reduce", 32 * KiB, 1.44, "nccl"),
    (H200_SWEEP, H200, "all_reduce", 1 * MiB, 39.93, "nccl"),
    (H200_SWEEP, H200, "all_reduce", 32 * MiB, 275.84, "nccl"),
    (H200_SWEEP, H200, "all_reduce", 1 * GiB, 463.58, "nccl"),
    (H200_SWEEP, H200, "all_reduce", 16 * GiB, 482.26, "nccl"),
    (H200_SHARP, H200_RING, "all_reduce", 16 * GiB, 367.61, "nccl"),
    (H200_SHARP, H200, "all_gather", 16 * GiB, 361.4, "nccl"),
    (H100_MAINTAINER, H100, "all_reduce", 8 * GiB, 370.0, "nccl:ring"),
    (H100_MAINTAINER, H100, "all_reduce", 8 * GiB, 480.0, "nccl"),
    (A100_3NODE, A100_IB, "all_reduce", 128 * MiB, 96.0, "nccl"),
    (H200_4NODE, H200_EFA, "all_reduce", 4 * GiB, 364.65, "nccl:ring"),
    (H200_4NODE, H200_EFA, "all_reduce", 4 * GiB, 310.07, "nccl:nvls_tree"),
    # -- added with issue 26's second round (each sweep sampled by the rule before comparing) --
    (H200_PIPELINED, H200_B2B, "all_reduce", 32 * KiB, 3.20, "nccl"),
    (H200_PIPELINED, H200_B2B, "all_reduce", 1 * MiB, 72.45, "nccl"),
    (H200_PIPELINED, H200_B2B, "all_reduce", 32 * MiB, 298.44, "nccl"),
    (H200_PIPELINED, H200_B2B, "all_reduce", 1 * GiB, 464.00, "nccl"),
    (H200_PIPELINED, H200_B2B, "all_reduce", 16 * GiB, 480.70, "nccl"),
    (H200_GPU_COUNT, Setup("H200", gpus=4), "all_reduce", 8 * GiB, 363.3, "nccl:ring"),
    (H200_GPU_COUNT, Setup("H200", gpus=5), "all_reduce", 8 * GiB, 414.2, "nccl:nvls"),
    (H200_GPU_COUNT, Setup("H200", gpus=6), "all_reduce", 8 * GiB, 435.6, "nccl"),
    (H200_GPU_COUNT, Setup("H200", gpus=7), "all_reduce", 8 * GiB, 460.0, "nccl"),
    (H200_GPU_COUNT, Setup("H200", gpus=8), "all_reduce", 8 * GiB, 473.1, "nccl"),
    (OCI_A100_2NODE, A100_ROCE, "all_reduce", 10 * GiB, 222.88, "nccl"),
    (OCI_H100_2NODE, H100_ROCE, "all_reduce", 1 * GiB, 446.28, "nccl"),
    (OCI_H100_2NODE, H100_ROCE, "all_reduce", 16 * GiB, 464.57, "nccl"),
    (OCI_A100_UBUNTU, Setup("A100", pipelined=True), "all_reduce", 10 * GiB, 232.20, "nccl"),
    (NDMV4, NDMV4_1, "all_reduce", 1 * GiB, 231.45, "nccl"),
    (NDMV4, NDMV4_2, "all_reduce", 1 * GiB, 183.82, "nccl"),
    (NDMV4, NDMV4_2, "all_reduce", 4 * GiB, 188.18, "nccl"),
    (NDMV4, NDMV4_2, "all_gather", 1 * GiB, 177.05, "nccl"),
    (NDMV4, NDMV4_2, "all_gather", 4 * GiB, 186.01, "nccl"),
    # -- added in issue 26's ninth session: each printed column a sweep, sampled at the rule's sizes it
    # prints (32 KiB, 1 MiB, 32 MiB, 1 GiB) and its largest; `-g 8`: timed per call --
    (RV_H100, H100, "all_reduce", 1 * MiB, busbw_from_us(1 * MiB, 61.0), "nccl:ring"),
    (RV_H100, H100, "all_reduce", 8 * MiB, 186.0, "nccl:ring"),
    (RV_H100, H100, "all_reduce", 1 * MiB, busbw_from_us(1 * MiB, 112.0), "nccl:ring:Simple"),
    (RV_H100, H100, "all_reduce", 8 * MiB, 105.0, "nccl:ring:Simple"),
    (RV_H100, H100, "all_reduce", 32 * MiB, 289.0, "nccl"),
    (RV_H100, H100, "all_reduce", 4 * GiB, 475.0, "nccl"),
    (RV_H100, H100, "all_reduce", 32 * MiB, 279.0, "nccl:ring"),
    (RV_H100, H100, "all_reduce", 4 * GiB, 366.0, "nccl:ring"),
    (RV_H200, H200, "all_reduce", 1 * GiB, 461.0, "nccl"),
    (RV_H200, H200, "all_reduce", 4 * GiB, 471.0, "nccl"),
    # -- added in issue 26's eleventh session (2): the rule's sizes of NVIDIA's DGX H100 sweep (out-of-place
    # busbw; `nGpus 1`, one process per GPU: timed back to back) --
    (DGXC_H100, H100_B2B, "all_reduce", 32 * KiB, 2.97, "nccl"),
    (DGXC_H100, H100_B2B, "all_reduce", 1 * MiB, 67.04, "nccl"),
    (DGXC_H100, H100_B2B, "all_reduce", 32 * MiB, 294.69, "nccl"),
    (DGXC_H100, H100_B2B, "all_reduce", 1 * GiB, 466.33, "nccl"),
    (DGXC_H100, H100_B2B, "all_reduce", 16 * GiB, 479.90, "nccl"),
    # -- added in issue 26's twelfth session: the rule's sizes of each all-reduce sweep of NCCL's own choice in
    # waynehacking8/nccl-collectives-bench, one per (GPU count, timing mode), out-of-place busbw --
    (WH_G4, Setup("H100", gpus=4), "all_reduce", 32 * KiB, 1.96, "nccl"),
    (WH_G4, Setup("H100", gpus=4), "all_reduce", 1 * MiB, 58.79, "nccl"),
    (WH_G4, Setup("H100", gpus=4), "all_reduce", 32 * MiB, 286.29, "nccl"),
    (WH_G4, Setup("H100", gpus=4), "all_reduce", 1 * GiB, 355.35, "nccl"),
    (WH_G4, Setup("H100", gpus=4), "all_reduce", 8 * GiB, 366.18, "nccl"),
    (WH_G4_GRAPH, Setup("H100", gpus=4, pipelined=True), "all_reduce", 32 * KiB, 2.93, "nccl"),
    (WH_G4_GRAPH, Setup("H100", gpus=4, pipelined=True), "all_reduce", 1 * MiB, 65.54, "nccl"),
    (WH_G4_GRAPH, Setup("H100", gpus=4, pipelined=True), "all_reduce", 16 * MiB, 237.84, "nccl"),
    (WH_G2, Setup("H100", gpus=2), "all_reduce", 1 * GiB, 327.58, "nccl"),
    (WH_G2, Setup("H100", gpus=2), "all_reduce", 8 * GiB, 347.35, "nccl"),
    (WH_G6, Setup("H100", gpus=6), "all_reduce", 1 * GiB, 424.14, "nccl"),
    (WH_G6, Setup("H100", gpus=6), "all_reduce", 8 * GiB, 442.87, "nccl"),
]

# Issue 26's third round, the hidden-set proxy (`simdist validate --hidden`): sources the model had not
# seen, sampled by the rule before comparing, kept out of the table above (and of the factors' fit)
# while they break its bounds; docs/validation.md "The third round". NCCL_ALGO=NVLS forced; `-g 8`:
# one thread launches the 8 GPUs (per-call timing).
_HIDDEN_ROWS: list[tuple[Citation, Setup, str, int, float, str]] = [
    (AZ_H100, H100, "all_reduce", 32 * KiB, 1.71, "nccl:nvls"),
    (AZ_H100, H100, "all_reduce", 1 * MiB, 43.70, "nccl:nvls"),
    (AZ_H100, H100, "all_reduce", 32 * MiB, 295.53, "nccl:nvls"),
    (AZ_H100, H100, "all_reduce", 1 * GiB, 466.35, "nccl:nvls"),
    (AZ_H100, H100, "all_reduce", 8 * GiB, 478.87, "nccl:nvls"),
    (AZ_H200, H200, "all_reduce", 32 * KiB, 1.84, "nccl:nvls"),
    (AZ_H200, H200, "all_reduce", 1 * MiB, 52.96, "nccl:nvls"),
    (AZ_H200, H200, "all_reduce", 32 * MiB, 300.91, "nccl:nvls"),
    (AZ_H200, H200, "all_reduce", 1 * GiB, 467.58, "nccl:nvls"),
    (AZ_H200, H200, "all_reduce", 8 * GiB, 479.98, "nccl:nvls"),
]

# Issue 26's seventeenth session (the seventh round), the hidden set's next sources: the rule's sizes of three
# nccl-tests sweeps of NCCL's own choice over two nodes, out-of-place busbw; `-g 1`, one process per GPU: timed
# back to back. Frozen with main's model (9c2a77c) before any rule changed; docs/validation.md "Seventeenth session".
_SEVENTH_ROWS: list[tuple[Citation, Setup, str, int, float, str]] = [
    (AWS_P4DE, P4DE_EFA, "all_reduce", 32 * KiB, 0.27, "nccl"),
    (AWS_P4DE, P4DE_EFA, "all_reduce", 1 * MiB, 6.35, "nccl"),
    (AWS_P4DE, P4DE_EFA, "all_reduce", 32 * MiB, 40.85, "nccl"),
    (AWS_P4DE, P4DE_EFA, "all_reduce", 1 * GiB, 76.79, "nccl"),
    (AWS_P4DE, P4DE_EFA, "all_reduce", 2 * GiB, 78.33, "nccl"),
    (AWS_P5, P5_EFA, "all_reduce", 32 * KiB, 0.55, "nccl"),
    (AWS_P5, P5_EFA, "all_reduce", 1 * MiB, 15.95, "nccl"),
    (AWS_P5, P5_EFA, "all_reduce", 32 * MiB, 143.09, "nccl"),
    (AWS_P5, P5_EFA, "all_reduce", 1 * GiB, 436.95, "nccl"),
    (AWS_P5, P5_EFA, "all_reduce", 16 * GiB, 487.09, "nccl"),
    (OKE_A100, OKE_ROCE, "all_reduce", 32 * KiB, 1.24, "nccl"),
    (OKE_A100, OKE_ROCE, "all_reduce", 1 * MiB, 22.97, "nccl"),
    (OKE_A100, OKE_ROCE, "all_reduce", 32 * MiB, 139.08, "nccl"),
    (OKE_A100, OKE_ROCE, "all_reduce", 1 * GiB, 219.12, "nccl"),
    (OKE_A100, OKE_ROCE, "all_reduce", 8 * GiB, 237.94, "nccl"),
]

# Issue 26's thirty-first session (the eighth round), the hidden set's next rows: the rule's sizes (32 KiB, 1 MiB,
# 32 MiB, 1 GiB and the largest, 8 GiB) of the quiet-box all-gather and reduce-scatter sweeps of the host whose
# all-reduce sweeps the table holds, out-of-place busbw (nccl-tests' size: the all-gather's output, the
# reduce-scatter's input, over all ranks; busbw = size / time x (n-1)/n). Transcribed and committed before simdist
# ran on them (docs/validation.md "Thirty-first session: the eighth round").
_EIGHTH_ROWS: list[tuple[Citation, Setup, str, int, float, str]] = [
    (WH_G4_AG, Setup("H100", gpus=4), "all_gather", 32 * KiB, 1.04, "nccl"),
    (WH_G4_AG, Setup("H100", gpus=4), "all_gather", 1 * MiB, 28.22, "nccl"),
    (WH_G4_AG, Setup("H100", gpus=4), "all_gather", 32 * MiB, 230.47, "nccl"),
    (WH_G4_AG, Setup("H100", gpus=4), "all_gather", 1 * GiB, 327.47, "nccl"),
    (WH_G4_AG, Setup("H100", gpus=4), "all_gather", 8 * GiB, 343.53, "nccl"),
    (WH_G4_RS, Setup("H100", gpus=4), "reduce_scatter", 32 * KiB, 1.12, "nccl"),
    (WH_G4_RS, Setup("H100", gpus=4), "reduce_scatter", 1 * MiB, 30.45, "nccl"),
    (WH_G4_RS, Setup("H100", gpus=4), "reduce_scatter", 32 * MiB, 237.55, "nccl"),
    (WH_G4_RS, Setup("H100", gpus=4), "reduce_scatter", 1 * GiB, 329.22, "nccl"),
    (WH_G4_RS, Setup("H100", gpus=4), "reduce_scatter", 8 * GiB, 350.89, "nccl"),
]


def _row(cit: Citation, setup: Setup, coll: str, nbytes: int, pub: float, algorithm: str,
         split: str) -> Measurement:
    setup = replace(setup, release=setup.release or release_of(cit))
    forced = "" if algorithm == "nccl" else f", {algorithm.split(':', 1)[1].replace(':', '/')} forced"
    rid = f"nccl-{coll.replace('_', '')}-{setup.gpu.lower()}-{setup.hosts}x{setup.gpus}-{_size(nbytes)}"
    if setup.nvls is False:
        rid += "-nvls-off"
    if setup.pipelined:
        rid += "-b2b"
    rid += _ID_TAG.get(cit, "")
    if algorithm != "nccl":
        rid += "-" + algorithm.split(":", 1)[1].replace("_", "").replace(":", "-").lower()
    sim: Callable[[], float] = lambda: simulate_busbw(setup, coll, nbytes, algorithm)  # noqa: E731
    derivation = (f"{coll} of {_size(nbytes)} over {setup.describe()}{forced}; NCCL model picks "
                  f"{_choice(setup, coll, nbytes, algorithm)}")
    return Measurement(id=rid, kind="collective",
                       description=f"{coll.replace('_', '-')} busbw, {_size(nbytes)}, {setup.describe()}{forced}",
                       published=pub, unit="GB/s busbw", citation=cit, simulate=sim, split=split,  # type: ignore[arg-type]
                       derivation=derivation)


def measurements() -> list[Measurement]:
    """The collective rows of docs/validation.md, in table order."""
    return [_row(*r, "fit" if i % 2 == 0 else "holdout") for i, r in enumerate(_ROWS)]


# The table's collective rows when the third round drew the hidden rows: their halves continue the
# alternation from there, so rows the table gains later (an odd number of them too) move no hidden row.
_HIDDEN_SPLIT_OFFSET = 36


def hidden_measurements() -> list[Measurement]:
    """The hidden set's collective rows: the third round's, the seventh round's (the seventeenth session),
    then the eighth round's (the thirty-first session), their halves continuing the table's alternation as it
    stood when the third round drew its rows (`_HIDDEN_SPLIT_OFFSET`)."""
    return [_row(*r, "fit" if (_HIDDEN_SPLIT_OFFSET + i) % 2 == 0 else "holdout")
            for i, r in enumerate(_HIDDEN_ROWS + _SEVENTH_ROWS + _EIGHTH_ROWS)]


def third_round_measurements() -> list[Measurement]:
    """The third round's collective rows alone (Azure's forced-NVLS sweeps): the rows the sessions that
    studied the NVLS floor and the host side of a call report on."""
    return hidden_measurements()[:len(_HIDDEN_ROWS)]
