"""Ready-made hosts and clusters built from the datasheet figures in `hardware`.

Preset devices run at peak x `hardware.COMPUTE_EFFICIENCY` (0.5) under the FLOP-only cost model and
carry their model's per-precision `hardware.ComputeRates` for the roofline; preset NVLink/PCIe links at
nominal x `hardware.LINK_EFFICIENCY` (0.8). Network bandwidths passed by the caller are literal.
"""

from __future__ import annotations

from typing import Mapping, Sequence

from . import hardware, nccl
from .hardware import GPUS
from .topology import Cluster, Device, Host, Link
from .units import parse_bandwidth, parse_time

__all__ = ["GPUS", "gpu_fabric", "cpu_host", "gpu_host", "gpu_cluster", "cpu_cluster", "gpu_device", "cpu_device",
           "make_cpu_host", "make_gpu_host"]


def _gpu_spec(gpu: str) -> hardware.GPUSpec:
    spec = GPUS.get(gpu) if isinstance(gpu, str) else None
    if spec is None:
        raise ValueError(f"gpu: unknown GPU model {gpu!r}; known models: {', '.join(sorted(GPUS))}")
    return spec


def gpu_device(index: int, gpu: str = "A100") -> Device:
    """One preset GPU device (sustained FLOP/s, memory, launch overhead of the model)."""
    s = _gpu_spec(gpu)
    return Device("GPU", index, flops=s.flops, memory=s.memory, launch_overhead=s.launch_overhead, rates=s.rates)


def cpu_device(index: int = 0) -> Device:
    """One preset CPU device (see `hardware.CPUSpec`)."""
    c = hardware.CPU
    return Device("CPU", index, flops=c.flops, memory=c.memory, launch_overhead=c.launch_overhead)


def make_cpu_host(cpus: int = 1, job: str = "localhost", task: int = 0) -> Host:
    """A Host with ``cpus`` preset CPU devices and no GPU."""
    return Host(job=job, task=task, cpus=[cpu_device(i) for i in range(cpus)], gpus=[])


def gpu_fabric(gpu: str = "A100", nvls: bool | None = None, nics: int = 1, nic_affinity: bool = True,
               nccl_release: str | None = None, net_plugin: str | None = None) -> nccl.Fabric:
    """The collective fabric of a preset host of ``gpu``s (`nccl.Fabric`): its generation, NVLink
    SHARP (default: on for Hopper, whose NVSwitch has it, as NCCL uses it; off before), ``nics``
    NICs, GPU-NIC affinity, the NCCL release it runs (default: `nccl_release.DEFAULT`) and the
    network plugin NCCL loads (default: NCCL's own transports; `nccl_net`)."""
    _gpu_spec(gpu)
    arch = nccl.GPU_ARCH[gpu]
    return nccl.Fabric(arch=arch, nvls=(arch == "hopper") if nvls is None else bool(nvls), nics=nics,
                       nic_affinity=nic_affinity,
                       **({} if nccl_release is None else {"release": nccl_release}),
                       **({} if net_plugin is None else {"net": net_plugin}))


def make_gpu_host(gpus: int = 8, gpu: str = "A100", job: str = "localhost", task: int = 0, cpus: int = 1,
                  max_gpus: int | None = None, fabric: nccl.Fabric | None = None) -> Host:
    """A Host with ``gpus`` GPUs of model ``gpu`` on NVLink (through an NVSwitch) and the model's PCIe
    generation (A100: PCIe 4.0), plus ``cpus`` CPU devices. More than `topology.MAX_GPUS_PER_HOST`
    (16) GPUs is an error unless ``max_gpus`` allows them (a hypothetical machine). ``fabric``:
    what NCCL's model needs beyond the links (default `gpu_fabric(gpu)`)."""
    s = _gpu_spec(gpu)
    return Host(job=job, task=task, cpus=[cpu_device(i) for i in range(cpus)],
                gpus=[gpu_device(i, gpu) for i in range(gpus)],
                pcie=Link("pcie", s.pcie_bandwidth, s.pcie_latency),
                nvlink=Link("nvlink", s.nvlink_bandwidth, s.nvlink_latency) if gpus > 1 else None, max_gpus=max_gpus,
                fabric=fabric if fabric is not None else gpu_fabric(gpu))


def cpu_host(cpus: int = 1, job: str = "localhost", task: int = 0) -> Cluster:
    """A one-host machine (a Cluster; the Host is ``.hosts[0]``) with ``cpus`` CPU devices.
    It can also be an element of ``Cluster([...])``."""
    return Cluster([make_cpu_host(cpus, job, task)])


def gpu_host(gpus: int = 8, gpu: str = "A100", job: str = "localhost", task: int = 0, cpus: int = 1,
             nvls: bool | None = None) -> Cluster:
    """A one-host machine (a Cluster; the Host is ``.hosts[0]``) with ``gpus`` GPUs of model ``gpu``
    on NVLink and the model's PCIe generation (A100: PCIe 4.0), plus ``cpus`` CPUs; ``nvls``:
    NVLink SHARP for NCCL collectives (default: on for H100/H200). It can also be an element of
    ``Cluster([...])``."""
    return Cluster([make_gpu_host(gpus, gpu, job, task, cpus, fabric=gpu_fabric(gpu, nvls))])


def gpu_cluster(hosts: int = 1, gpus_per_host: int = 8, gpu: str = "A100", network: str | float = "100Gbps",
                latency: str | float | None = None, job: str | None = None, pod_size: int | None = None,
                oversubscription: float = 1.0, spine_latency: str | float = "1us", nics: int = 1,
                nvls: bool | None = None, nic_affinity: bool = True, nccl_release: str | None = None,
                net_plugin: str | None = None) -> Cluster:
    """``hosts`` identical `gpu_host`s (``gpus_per_host`` GPUs on NVLink each) joined by a switch:
    ``network`` per NIC per direction (a bandwidth, or a name from `hardware.NETWORKS`:
    "infiniband_hdr", "infiniband_ndr", "roce_100g", "ethernet_100g", ...) with ``latency``
    host-to-host (default: the named network's, else 2 us RDMA). With ``pod_size``, hosts are
    grouped into pods of that many, each pod's switch joined to a spine by an uplink of
    ``pod_size`` x NIC bandwidth / ``oversubscription`` per direction (``spine_latency`` more
    between pods). Hosts are ``job`` tasks 0..hosts-1; job defaults to "localhost" for one host and
    "worker" for several.

    ``nics`` NICs of ``network`` each per host (DGX A100/H100: 8, one per GPU; one per GPU pair:
    4): the host's network link carries their sum, as a rail-optimised fabric gives every GPU its
    own NIC's rail. ``nvls``, ``nic_affinity``, ``nccl_release`` and ``net_plugin``: see `gpu_fabric` (they matter
    to ``algorithm="nccl"`` collectives only)."""
    if isinstance(hosts, bool) or not isinstance(hosts, int) or hosts < 1:
        raise ValueError(f"gpu_cluster.hosts: expected an int >= 1, got {hosts!r}")
    fabric = gpu_fabric(gpu, nvls, nics, nic_affinity, nccl_release, net_plugin)
    jb = job if job is not None else ("localhost" if hosts == 1 else "worker")
    if isinstance(network, str) and network in hardware.NETWORKS:
        network, named_latency = hardware.NETWORKS[network]
    else:
        named_latency = hardware.RDMA_LATENCY
    lat = parse_time(latency if latency is not None else named_latency, field="gpu_cluster.latency")
    per_host = parse_bandwidth(network, field="gpu_cluster.network") * nics
    return Cluster([make_gpu_host(gpus_per_host, gpu, job=jb, task=t, fabric=fabric) for t in range(hosts)],
                   network={"bandwidth": per_host, "latency": lat}, pod_size=pod_size,
                   oversubscription=oversubscription, spine_latency=spine_latency)


def cpu_cluster(jobs: Mapping[str, int | Sequence[str]] | None = None, network: str | float = "25Gbps",
                latency: str | float = hardware.ETHERNET_LATENCY, cpus_per_host: int = 1) -> Cluster:
    """One CPU host per task of each job (e.g. ParameterServerStrategy's chief/worker/ps), on
    Ethernet of ``network`` per NIC with ``latency`` host-to-host (default 50 us, kernel TCP).

    ``jobs`` maps job name to a task count or to a list of addresses (a ClusterSpec dict). Hosts are
    ordered by job name, then task (TF's ClusterSpec order), so device order never depends on the
    dict's order. Default: {"chief": 1, "ps": 1, "worker": 2}.
    """
    if jobs is None:
        jobs = {"worker": 2, "ps": 1, "chief": 1}
    if not isinstance(jobs, Mapping) or not jobs:
        raise ValueError(f"cpu_cluster.jobs: expected a non-empty mapping of job -> task count, got {jobs!r}")
    hosts: list[Host] = []
    for job in sorted(jobs):
        n = jobs[job]
        if isinstance(n, (list, tuple)):
            n = len(n)
        if isinstance(n, bool) or not isinstance(n, int) or n < 0:
            raise ValueError(f"cpu_cluster.jobs[{job!r}]: expected a task count >= 0 or a list of addresses, "
                             f"got {jobs[job]!r}")
        for t in range(n):
            hosts.append(make_cpu_host(cpus_per_host, job=job, task=t))
    lat = parse_time(latency, field="cpu_cluster.latency")
    return Cluster(hosts, network={"bandwidth": network, "latency": lat})
