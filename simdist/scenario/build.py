"""Build the simulated cluster of a validated scenario (`simdist.sim.Cluster`).

Hosts are built with the figures `simdist.sim.presets` uses (`simdist.sim.hardware`), so a preset
cluster is the same as the preset's (tested), and device and link overrides (gpu_flops, pcie, ...)
slot in as explicit `Device`/`Link` specs. Link degradations that last the whole run
(start 0, no end) are applied here, to the topology, so every engine sees them; windowed ones
are applied at run time by the engine.
"""

from __future__ import annotations

from typing import Any

from .loader import Scenario

__all__ = ["build_cluster", "static_degradations"]


def static_degradations(sc: Scenario) -> list[dict[str, Any]]:
    """The scenario's link degradations that hold for the whole run."""
    links = ((sc.config.get("faults") or {}).get("links")) or []
    return [ln for ln in links if ln["start"] == 0 and ln.get("end") is None]


def build_cluster(sc: Scenario) -> Any:
    from simdist.sim import hardware, presets
    from simdist.sim.topology import Cluster, Device, Host, Link

    cl = sc.config["cluster"]
    gpu = hardware.GPUS[cl["gpu"]]
    # (a gpu_flops override leaves the GPUs without datasheet rates: the roofline times them by it)
    gpu_kw = dict(flops=cl.get("gpu_flops", gpu.flops), memory=cl.get("gpu_memory", gpu.memory),
                  launch_overhead=gpu.launch_overhead, rates=None if "gpu_flops" in cl else gpu.rates)
    cpu_kw = dict(flops=cl.get("cpu_flops", hardware.CPU.flops), memory=hardware.CPU.memory,
                  launch_overhead=hardware.CPU.launch_overhead)
    pcie = cl.get("pcie")
    nvlink = cl.get("nvlink")
    pcie_spec = Link("pcie", pcie["bandwidth"], pcie["latency"]) if pcie else Link("pcie", gpu.pcie_bandwidth,
                                                                                   gpu.pcie_latency)
    nv_spec = Link("nvlink", nvlink["bandwidth"], nvlink["latency"]) if nvlink else Link(
        "nvlink", gpu.nvlink_bandwidth, gpu.nvlink_latency)

    fabric = presets.gpu_fabric(cl["gpu"])   # (NCCL's model: the GPU generation, NVLink SHARP on Hopper)

    def host(job: str, task: int, cpus: int, gpus: int) -> Host:
        return Host(job=job, task=task, cpus=[Device("CPU", i, **cpu_kw) for i in range(cpus)],
                    gpus=[Device("GPU", i, **gpu_kw) for i in range(gpus)], pcie=pcie_spec,
                    nvlink=nv_spec if gpus > 1 else None, max_gpus=cl.get("max_gpus_per_host"),
                    fabric=fabric if gpus else None)

    assert sc.topology is not None
    hosts = [host(h.job, h.task, h.cpus, h.gpus) for h in sc.topology.hosts]
    network = {"bandwidth": cl.get("network", 25e9 / 8), "latency": cl.get("latency", hardware.ETHERNET_LATENCY)}
    cluster = Cluster(hosts, network=network, pod_size=cl.get("pod_size"),
                      oversubscription=cl.get("oversubscription") or 1.0)
    by_name = {ln.name: ln for ln in cluster.links}
    for d in static_degradations(sc):
        ln = by_name[d["link"]]
        ln.bandwidth = ln.bandwidth * d["bandwidth_factor"]
        ln.latency = ln.latency * d["latency_factor"]
    return cluster


def cost_model(sc: Scenario) -> str:
    """The scenario's compute cost model: cluster.cost_model, else "roofline" (the validated
    model, docs/validation.md) when the cluster has GPUs with their model's datasheet rates, else
    "flops" (a CPU-only cluster, or GPUs given by a gpu_flops override: nothing else to time
    them by)."""
    cl = sc.config["cluster"]
    given = cl.get("cost_model")
    if given:
        return given
    has_gpus = sc.topology is not None and any(h.gpus for h in sc.topology.hosts)
    return "roofline" if has_gpus and "gpu_flops" not in cl else "flops"
