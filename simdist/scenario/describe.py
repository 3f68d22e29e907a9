"""What `simdist run --dry-run` shows of a scenario's cluster: every host with its devices, and every
link by the full name `[[faults.links]]` takes (a unique suffix such as "nvlink:GPU:3" works too)."""

from __future__ import annotations

from typing import Any

from simdist.sim.units import format_bandwidth, format_bytes, format_rate, format_time

__all__ = ["cluster_lines"]


def cluster_lines(cluster: Any, max_hosts: int = 12) -> list[str]:
    """Lines describing ``cluster`` (a `simdist.sim.topology.Cluster`); hosts beyond ``max_hosts``
    are summarised per job, never silently dropped."""
    out = []
    hosts = list(cluster.hosts)
    shown = hosts if len(hosts) <= max_hosts else hosts[: max_hosts - 1]
    for h in shown:
        devs = [*h.cpus, *h.gpus]
        kinds = []
        for kind, group in (("CPU", h.cpus), ("GPU", h.gpus)):
            if group:
                d = group[0]
                kinds.append(f"{len(group)} {kind} ({format_rate(d.flops)}"
                             + (f", {format_bytes(d.memory)}" if kind == "GPU" else "") + ")")
        out.append(f"    host {h.name}: {', '.join(kinds) or 'no devices'}; devices "
                   f"{', '.join(d.short_name for d in devs)}")
    if len(shown) < len(hosts):
        rest = hosts[len(shown):]
        jobs: dict[str, int] = {}
        for h in rest:
            jobs[h.job] = jobs.get(h.job, 0) + 1
        out.append(f"    ... {len(rest)} more host(s) of the same kind: "
                   + ", ".join(f"{n} of job {j}" for j, n in jobs.items()))
    out.append("    links (name: bandwidth per direction, latency; a unique suffix also names a link in "
               "[[faults.links]]):")
    links = list(cluster.links)
    shown_links = links if len(links) <= 4 * max_hosts else links[: 4 * max_hosts]
    for ln in shown_links:
        out.append(f"      {ln.name}: {format_bandwidth(ln.bandwidth)}, {format_time(ln.latency)}")
    if len(shown_links) < len(links):
        out.append(f"      ... {len(links) - len(shown_links)} more: one nic per host "
                   f"(/job:J/replica:0/task:T/nic), as above")
    return out
