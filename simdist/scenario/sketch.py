"""A sketch of a scenario's cluster: hosts, devices and link names, built from the config with the
same naming rules as `simdist.sim.topology` but without the simulator (so validation stays cheap)."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Sequence

__all__ = ["HostSketch", "Topology", "sketch", "resolve_link"]


@dataclass
class HostSketch:
    job: str
    task: int
    cpus: int
    gpus: int

    @property
    def name(self) -> str:
        return f"/job:{self.job}/replica:0/task:{self.task}"

    def devices(self) -> list[str]:
        return [f"CPU:{i}" for i in range(self.cpus)] + [f"GPU:{i}" for i in range(self.gpus)]

    def links(self) -> list[str]:
        out = [f"{self.name}/pcie:GPU:{i}" for i in range(self.gpus)]
        if self.gpus > 1:
            out += [f"{self.name}/nvlink:GPU:{i}" for i in range(self.gpus)]
        return out + [f"{self.name}/nic"]


@dataclass
class Topology:
    """Hosts, devices and link names of a scenario's cluster, without building it (same order and
    names as `simdist.sim.topology.Cluster`; tests check they agree)."""

    hosts: list[HostSketch]

    def jobs(self) -> dict[str, int]:
        out: dict[str, int] = {}
        for h in self.hosts:
            out[h.job] = out.get(h.job, 0) + 1
        return out

    def links(self) -> list[str]:
        return [ln for h in self.hosts for ln in h.links()]

    def devices(self) -> list[str]:
        return [f"{h.name}/device:{d}" for h in self.hosts for d in h.devices()]


def sketch(cluster: dict) -> Topology:
    preset = cluster.get("preset")
    if preset == "gpu_host":
        return Topology([HostSketch("localhost", 0, cluster["cpus"], cluster["gpus"])])
    if preset == "cpu_cluster":
        jobs = cluster["jobs"]
        return Topology([HostSketch(j, t, cluster["cpus_per_host"], 0) for j in sorted(jobs) for t in range(jobs[j])])
    return Topology([HostSketch(h["job"], t, h["cpus"], h["gpus"]) for h in cluster.get("host") or []
                     for t in range(h["tasks"])])


def resolve_link(name: str, names: Sequence[str]) -> str | list[str]:
    """A full link name from a full name or a unique suffix (``nvlink:GPU:3``); a list of the
    candidates (empty or several) when it does not name exactly one link."""
    if name in names:
        return name
    cands = [n for n in names if n.endswith(name) and (name.startswith("/") or n[-len(name) - 1] in "/:")]
    return cands[0] if len(cands) == 1 else cands


def _short_device(d: str) -> str | None:
    """"GPU:0", "/gpu:0", "/device:GPU:0", "gpu:0" -> "GPU:0"."""
    m = re.match(r"^(?:/?device:)?/?(cpu|gpu):([0-9]+)$", d.strip(), re.IGNORECASE)
    if not m:
        return None
    return f"{m.group(1).upper()}:{int(m.group(2))}"
