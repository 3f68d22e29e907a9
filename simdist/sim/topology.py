"""The static cluster: Device, Host, Link, Cluster, device-name resolution and routing.

Topology objects are descriptions only; all run-time state (queues, flows, counters) lives in
a `Simulator`, so one Cluster may back any number of Simulators.

Links are full duplex: each direction of a link carries its full ``bandwidth`` independently
(direction "out" = away from the GPU/host that owns the link, "in" = towards it).

Per host the model has
- one PCIe link per GPU (GPU <-> host memory),
- one NVLink port per GPU when the host has NVLink (GPU <-> NVSwitch <-> GPU),
- one NIC (the host's network port) created by the Cluster from its ``network`` spec.

Routes (`Cluster.route`):
- same device: no links (zero cost);
- CPU <-> CPU on one host: no links (shared host memory, zero cost);
- CPU <-> GPU on one host: that GPU's PCIe link;
- GPU <-> GPU on one host: both GPUs' NVLink ports if the host has NVLink, else PCIe up from the
  source GPU and PCIe down to the destination GPU;
- across hosts: (source GPU's PCIe up) + source NIC out + destination NIC in + (destination GPU's
  PCIe down): the hosts' switch is non-blocking;
- across pods (a Cluster built with ``pod_size``: hosts grouped into pods of that many, each pod's
  switch joined to a spine by one uplink): source NIC out + source pod's uplink out + destination
  pod's uplink in + destination NIC in (+ PCIe at the ends). An uplink carries ``pod_size`` x the
  NIC bandwidth / ``oversubscription`` per direction.

A route's latency is the sum of its links' latencies. The ``nvlink`` spec of a Host and the
``network`` spec of a Cluster give the end-to-end (GPU-to-GPU, host-to-host) latency; it is split
evenly over the two ports a route crosses, so the route's sum equals the spec.
"""

from __future__ import annotations

import re
from typing import Any, Iterable, Mapping, Sequence

from . import hardware
from .units import format_bytes, parse_bandwidth, parse_bytes, parse_rate, parse_time

__all__ = ["Device", "Host", "Link", "Cluster", "UnknownDeviceError", "OUT", "IN", "MAX_GPUS_PER_HOST"]

# The most GPUs one machine holds (an HGX-2 / DGX-2 board: 16 GPUs on NVSwitch). A Host with more
# is refused: it is a modelling mistake (a 4,096-GPU "host" routes every byte over one NVSwitch),
# and a cluster of hosts (presets.gpu_cluster) is what was meant. `Host(max_gpus=N)` lifts it for
# one host (a larger hypothetical machine).
MAX_GPUS_PER_HOST = 16

OUT = 0
IN = 1

_JOB_RE = re.compile(r"^[A-Za-z0-9_]+$")


class UnknownDeviceError(KeyError, ValueError):
    """A device name that does not name a device of the cluster (a KeyError and a ValueError)."""

    def __str__(self) -> str:  # KeyError would repr() the message
        return str(self.args[0]) if self.args else ""


def _check_int(value: object, field: str, minimum: int = 0) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError(f"{field}: expected an int, got {type(value).__name__} {value!r}")
    if value < minimum:
        raise ValueError(f"{field}: expected an int >= {minimum}, got {value!r}")
    return value


class Link:
    """A full-duplex link: ``bandwidth`` bytes/s in each direction, ``latency`` seconds per crossing.

    Accepts unit strings: ``Link("pcie", "32GB/s", "2us")``. As a spec passed to Host/Cluster,
    ``name`` is the link kind used to name the per-GPU / per-host copies.
    """

    __slots__ = ("name", "bandwidth", "latency", "index", "host", "kind")

    def __init__(self, name: str, bandwidth: str | float, latency: str | float = 0.0) -> None:
        if not isinstance(name, str) or not name:
            raise ValueError(f"Link.name: expected a non-empty string, got {name!r}")
        self.name = name
        self.bandwidth = parse_bandwidth(bandwidth, field=f"Link({name!r}).bandwidth")
        if self.bandwidth <= 0:
            raise ValueError(f"Link({name!r}).bandwidth: must be > 0, got {bandwidth!r}")
        self.latency = parse_time(latency, field=f"Link({name!r}).latency")
        self.index = -1          # position in Cluster.links, set by the Cluster
        self.host: Host | None = None  # owning host, set by the Cluster
        self.kind = name

    def __repr__(self) -> str:
        return f"Link({self.name!r}, bandwidth={self.bandwidth!r}, latency={self.latency!r})"


def link_spec(spec: Any, field: str, default_name: str) -> Link:
    """Coerce a link spec: a Link, {"bandwidth":..., "latency":...[, "name":...]}, a
    (bandwidth, latency) pair, or a bare bandwidth (latency 0)."""
    if isinstance(spec, Link):
        return spec
    if isinstance(spec, Mapping):
        unknown = sorted(set(spec) - {"bandwidth", "latency", "name"})
        if unknown:
            raise ValueError(f"{field}: unknown key(s) {unknown}; expected 'bandwidth', 'latency', 'name'")
        if "bandwidth" not in spec:
            raise ValueError(f"{field}: missing 'bandwidth' in {dict(spec)!r}")
        name = spec.get("name", default_name)
        return Link(name, parse_bandwidth(spec["bandwidth"], field=f"{field}.bandwidth"),
                    parse_time(spec.get("latency", 0.0), field=f"{field}.latency"))
    if isinstance(spec, (tuple, list)):
        if len(spec) != 2:
            raise ValueError(f"{field}: expected (bandwidth, latency), got {spec!r}")
        return Link(default_name, parse_bandwidth(spec[0], field=f"{field}.bandwidth"),
                    parse_time(spec[1], field=f"{field}.latency"))
    if isinstance(spec, (str, int, float)) and not isinstance(spec, bool):
        return Link(default_name, parse_bandwidth(spec, field=f"{field}.bandwidth"), 0.0)
    raise TypeError(f"{field}: expected a Link, a dict, a (bandwidth, latency) pair or a bandwidth, "
                    f"got {type(spec).__name__} {spec!r}")


class Device:
    """A compute device. ``flops`` is the sustained FLOP/s charged, ``memory`` its capacity in
    bytes, ``launch_overhead`` the fixed seconds added to every kernel. Unit strings accepted.
    Omitted figures default to the preset CPU / A100 (see `hardware`). ``name`` is set by the Host.
    ``rates`` (`hardware.ComputeRates`) are the per-precision peaks the roofline cost model uses;
    a GPU whose ``flops`` is omitted gets the A100's, a device without rates is timed by ``flops``
    under either cost model (`roofline`).
    """

    __slots__ = ("kind", "index", "flops", "memory", "launch_overhead", "name", "host", "ordinal",
                 "short_name", "rates")

    def __init__(self, kind: str, index: int, flops: float | str | None = None,
                 memory: int | str | None = None, launch_overhead: float | str | None = None,
                 rates: hardware.ComputeRates | None = None) -> None:
        if not isinstance(kind, str) or kind.upper() not in ("CPU", "GPU"):
            raise ValueError(f"Device.kind: expected 'CPU' or 'GPU', got {kind!r}")
        self.kind = kind.upper()
        self.index = _check_int(index, "Device.index")
        default: Any = hardware.CPU if self.kind == "CPU" else hardware.GPUS["A100"]
        label = f"Device({self.kind}:{self.index})"
        self.flops = parse_rate(default.flops if flops is None else flops, field=f"{label}.flops")
        if self.flops <= 0:
            raise ValueError(f"{label}.flops: must be > 0, got {flops!r}")
        self.memory = parse_bytes(default.memory if memory is None else memory, field=f"{label}.memory")
        self.launch_overhead = parse_time(default.launch_overhead if launch_overhead is None
                                          else launch_overhead, field=f"{label}.launch_overhead")
        if rates is None and flops is None and self.kind == "GPU":
            rates = default.rates
        if rates is not None and not isinstance(rates, hardware.ComputeRates):
            raise TypeError(f"{label}.rates: expected a simdist.sim.hardware.ComputeRates or None, got {rates!r}")
        self.rates = rates
        self.name = ""
        self.short_name = f"{self.kind}:{self.index}"
        self.host: Host | None = None
        self.ordinal = -1  # position in Cluster.devices()

    def __repr__(self) -> str:
        return (f"Device({self.name or self.short_name!r}, flops={self.flops!r}, "
                f"memory={format_bytes(self.memory)!r}, launch_overhead={self.launch_overhead!r})")


class Host:
    """A machine: CPUs, GPUs, one PCIe link per GPU, optionally NVLink ports.

    ``cpus``/``gpus`` are a count (default devices, see `Device`) or a list of Devices.
    ``pcie`` is the per-GPU PCIe link spec (default: PCIe 4.0 x16 x LINK_EFFICIENCY, 2 us);
    ``nvlink`` the GPU-to-GPU NVLink spec (bandwidth per GPU per direction, end-to-end latency)
    or None. ``fabric``: what NCCL's tuner needs beyond the links (`nccl.Fabric`), or None.
    """

    def __init__(self, job: str = "localhost", task: int = 0, cpus: int | Sequence[Device] = 1,
                 gpus: int | Sequence[Device] = 0, pcie: Any = None, nvlink: Any = None,
                 max_gpus: int | None = None, fabric: Any = None) -> None:
        if not isinstance(job, str) or not _JOB_RE.match(job):
            raise ValueError(f"Host.job: expected a name of letters, digits and '_', got {job!r}")
        self.job = job
        self.task = _check_int(task, "Host.task")
        self.name = f"/job:{job}/replica:0/task:{self.task}"
        self.cpus = self._devices(cpus, "CPU", "Host.cpus")
        self.gpus = self._devices(gpus, "GPU", "Host.gpus")
        self.max_gpus = MAX_GPUS_PER_HOST if max_gpus is None else _check_int(max_gpus, "Host.max_gpus", 1)
        if len(self.gpus) > self.max_gpus:
            raise ValueError(
                f"Host {self.name}: {len(self.gpus)} GPUs on one host, but the limit is {self.max_gpus}"
                + (" (no real machine has more: an HGX-2 / DGX-2)" if max_gpus is None else " (Host.max_gpus)")
                + f". Spread them over hosts, e.g. presets.gpu_cluster(hosts={-(-len(self.gpus) // 8)}, "
                f"gpus_per_host=8), or pass Host(..., max_gpus={len(self.gpus)}) to model a larger hypothetical "
                f"machine")
        if not self.cpus and not self.gpus:
            raise ValueError(f"Host {self.name}: needs at least one device (cpus={cpus!r}, gpus={gpus!r})")
        self.devices: list[Device] = self.cpus + self.gpus
        for d in self.devices:
            if d.host is not None:
                raise ValueError(f"Host {self.name}: device {d.short_name} already belongs to host "
                                 f"{d.host.name}; create a new Device")
            d.host = self
            d.name = f"{self.name}/device:{d.short_name}"
        pcie_spec = link_spec(pcie if pcie is not None else Link("pcie", *hardware.PCIE),
                              "Host.pcie", "pcie")
        self.pcie_spec = pcie_spec
        self.pcie: list[Link] = [Link(f"{self.name}/{pcie_spec.kind}:GPU:{g.index}", pcie_spec.bandwidth,
                                      pcie_spec.latency) for g in self.gpus]
        for ln in self.pcie:
            ln.kind = pcie_spec.kind
        self.nvlink: list[Link] | None = None
        self.nvlink_spec: Link | None = None
        if nvlink is not None:
            nv = link_spec(nvlink, "Host.nvlink", "nvlink")
            self.nvlink_spec = nv
            self.nvlink = [Link(f"{self.name}/{nv.kind}:GPU:{g.index}", nv.bandwidth, nv.latency / 2.0)
                           for g in self.gpus]
            for ln in self.nvlink:
                ln.kind = nv.kind
        self.nic: Link | None = None  # set by the Cluster
        # what NCCL's tuner needs beyond the links (GPU generation, NVLS, NICs): an `nccl.Fabric`,
        # set by the presets; None: `nccl.Fabric()`'s defaults
        self.fabric = fabric
        self.index = -1
        self.cluster: Cluster | None = None

    def copy(self) -> "Host":
        """A new Host with the same job, task, devices and links (not attached to any Cluster)."""
        def dup(d: Device) -> Device:
            return Device(d.kind, d.index, d.flops, d.memory, d.launch_overhead)
        return Host(self.job, self.task, cpus=[dup(d) for d in self.cpus], gpus=[dup(d) for d in self.gpus],
                    pcie=self.pcie_spec, nvlink=self.nvlink_spec, max_gpus=self.max_gpus, fabric=self.fabric)

    @staticmethod
    def _devices(spec: int | Sequence[Device], kind: str, field: str) -> list[Device]:
        if isinstance(spec, bool):
            raise TypeError(f"{field}: expected a count or a list of Device, got {spec!r}")
        if isinstance(spec, int):
            _check_int(spec, field)
            return [Device(kind, i) for i in range(spec)]
        if isinstance(spec, (list, tuple)):
            out = list(spec)
            seen: dict[int, bool] = {}
            for d in out:
                if not isinstance(d, Device):
                    raise TypeError(f"{field}: expected Device objects, got {type(d).__name__} {d!r}")
                if d.kind != kind:
                    raise ValueError(f"{field}: expected {kind} devices, got a {d.kind} device ({d.short_name})")
                if d.index in seen:
                    raise ValueError(f"{field}: duplicate device index {d.kind}:{d.index}")
                seen[d.index] = True
            return sorted(out, key=lambda d: d.index)
        raise TypeError(f"{field}: expected a count or a list of Device, got {type(spec).__name__} {spec!r}")

    def __repr__(self) -> str:
        return f"Host({self.name!r}, cpus={len(self.cpus)}, gpus={len(self.gpus)})"


class _Path:
    """A resolved route: links (in order), channel ids (link.index*2 + direction), total latency."""

    __slots__ = ("links", "chans", "latency", "link_ids", "src", "dst", "bandwidth", "trace_info")

    def __init__(self, src: Device, dst: Device, hops: list[tuple[Link, int]]) -> None:
        self.src = src
        self.dst = dst
        # (one loop, no generator expressions: a 10,000-worker PS job routes 2 M of these)
        links, chans, ids = [], [], []
        lat = 0.0
        bw = float("inf")
        for ln, d in hops:
            links.append(ln)
            i = ln.index
            chans.append(i * 2 + d)
            ids.append(i)
            lat += ln.latency
            if ln.bandwidth < bw:
                bw = ln.bandwidth
        self.links = tuple(links)
        self.chans = tuple(chans)
        self.link_ids = tuple(ids)
        self.latency = lat
        self.bandwidth = bw
        self.trace_info: Any = None  # cached by the Simulator's trace writer


class Cluster:
    """Hosts joined by a network. ``network`` is the host-to-host link spec (bandwidth per NIC
    per direction, end-to-end latency); default 25 Gb/s Ethernet with 50 us latency.

    ``hosts`` may contain one-host Clusters (as the ``presets.*_host`` functions return); a Host
    that already belongs to another Cluster is copied, so hosts can be reused across clusters.
    """

    def __init__(self, hosts: Host | Sequence[Host | "Cluster"], network: Any = None, pod_size: int | None = None,
                 oversubscription: float = 1.0, spine_latency: float | str = 0.0) -> None:
        if isinstance(hosts, Host):
            hosts = [hosts]
        if not isinstance(hosts, (list, tuple)) or not hosts:
            raise ValueError(f"Cluster.hosts: expected a non-empty list of Host, got {hosts!r}")
        flat: list[Host] = []
        for h in hosts:
            if isinstance(h, Cluster):  # e.g. presets.gpu_host(): take its hosts
                flat.extend(h.hosts)
            elif isinstance(h, Host):
                flat.append(h)
            else:
                raise TypeError(f"Cluster.hosts: expected Host objects, got {type(h).__name__} {h!r}")
        # A Host already part of another Cluster is copied (its run-time indices are per cluster).
        hosts = [h.copy() if h.cluster is not None else h for h in flat]
        seen: dict[tuple[str, int], bool] = {}
        for h in hosts:
            key = (h.job, h.task)
            if key in seen:
                raise ValueError(f"Cluster.hosts: duplicate host job={h.job!r} task={h.task}")
            seen[key] = True
        net = link_spec(network if network is not None else ("25Gbps", hardware.ETHERNET_LATENCY),
                        "Cluster.network", "nic")
        self.network = net
        self.hosts: list[Host] = list(hosts)
        self.links: list[Link] = []
        self._devices: list[Device] = []
        if pod_size is not None:
            _check_int(pod_size, "Cluster.pod_size", 1)
            if isinstance(oversubscription, bool) or not isinstance(oversubscription, (int, float)) \
                    or not oversubscription >= 1.0:
                raise ValueError(f"Cluster.oversubscription: expected a factor >= 1, got {oversubscription!r}")
        self.pod_size = pod_size
        self.pod_of: list[int] = [hi // pod_size if pod_size else 0 for hi in range(len(self.hosts))]
        self.uplinks: list[Link] = []
        spine_lat = parse_time(spine_latency, field="Cluster.spine_latency")
        for hi, h in enumerate(self.hosts):
            h.cluster = self
            h.index = hi
            h.nic = Link(f"{h.name}/{net.kind}", net.bandwidth, net.latency / 2.0)
            h.nic.kind = net.kind
            for ln in h.pcie + (h.nvlink or []) + [h.nic]:
                ln.index = len(self.links)
                ln.host = h
                self.links.append(ln)
            if pod_size and hi % pod_size == 0:   # the pod's uplink, listed with its first host
                members = min(pod_size, len(self.hosts) - hi)
                up = Link(f"{h.name}/uplink:pod{hi // pod_size}", net.bandwidth * members / oversubscription,
                          spine_lat / 2.0)
                up.kind = "uplink"
                up.index = len(self.links)
                up.host = h
                self.links.append(up)
                self.uplinks.append(up)
            for d in h.devices:
                d.ordinal = len(self._devices)
                self._devices.append(d)
        self._by_name: dict[str, Device] = {d.name: d for d in self._devices}
        self._link_by_name: dict[str, Link] = {ln.name: ln for ln in self.links}
        self._resolved: dict[str, Device] = dict(self._by_name)
        self._paths: dict[tuple[int, int], _Path] = {}

    # -- lookup ---------------------------------------------------------------------------------
    def devices(self) -> list[Device]:
        """All devices: host order, then CPUs then GPUs by index."""
        return list(self._devices)

    def host(self, job: str, task: int = 0) -> Host:
        for h in self.hosts:
            if h.job == job and h.task == task:
                return h
        known = ", ".join(f"{h.job}:{h.task}" for h in self.hosts)
        raise UnknownDeviceError(f"no host job={job!r} task={task!r} in the cluster; known hosts: {known}")

    def link(self, name: str) -> Link:
        try:
            return self._link_by_name[name]
        except KeyError:
            raise UnknownDeviceError(f"unknown link {name!r}; known links: "
                                     + _listing([ln.name for ln in self.links])) from None

    def device(self, name: str | Device) -> Device:
        """Resolve a canonical or partial TF device name ("/gpu:0", "GPU:0", "/job:ps/task:0/device:CPU:0").

        Without job and task the name is resolved against the first host; a job without task means
        task 0; a name without device means that host's CPU:0. Kind is case-insensitive.
        """
        d = self._resolved.get(name) if isinstance(name, str) else None
        if d is not None:
            return d
        if isinstance(name, Device):
            if name.host is not None and name.host.cluster is self:
                return name
            raise UnknownDeviceError(f"device {name!r} is not part of this cluster")
        if not isinstance(name, str):
            raise TypeError(f"device: expected a device name string, got {type(name).__name__} {name!r}")
        d = self._parse(name)
        self._resolved[name] = d
        return d

    def _unknown(self, name: str, why: str = "") -> UnknownDeviceError:
        extra = f" ({why})" if why else ""
        return UnknownDeviceError(f"unknown device {name!r}{extra}; known devices: "
                                  + _listing([d.name for d in self._devices]))

    def _parse(self, name: str) -> Device:
        job: str | None = None
        task: int | None = None
        kind: str | None = None
        index: int | None = None
        try:
            for part in name.strip().split("/"):
                if not part:
                    continue
                key, _, val = part.partition(":")
                low = key.lower()
                if low == "job":
                    job = val
                elif low == "replica":
                    if int(val) != 0:
                        raise self._unknown(name, "only replica:0 exists")
                elif low == "task":
                    task = int(val)
                elif low == "device":
                    k, _, i = val.partition(":")
                    kind, index = k.upper(), (int(i) if i else 0)
                elif low in ("cpu", "gpu"):
                    kind, index = low.upper(), (int(val) if val else 0)
                else:
                    raise self._unknown(name, f"cannot parse {part!r}")
        except ValueError as e:
            if isinstance(e, UnknownDeviceError):
                raise
            raise self._unknown(name, "cannot parse it") from None
        if job is None and task is None:
            host = self.hosts[0]
        else:
            jb = job if job is not None else self.hosts[0].job
            tk = task if task is not None else 0
            host = next((h for h in self.hosts if h.job == jb and h.task == tk), None)
            if host is None:
                raise self._unknown(name, f"no host job={jb!r} task={tk}")
        if kind is None:
            kind, index = "CPU", 0
        for d in host.devices:
            if d.kind == kind and d.index == index:
                return d
        raise self._unknown(name)

    # -- routing --------------------------------------------------------------------------------
    def route(self, src: str | Device, dst: str | Device) -> list[Link]:
        """The links a transfer from ``src`` to ``dst`` crosses, in order (see module doc)."""
        return list(self.path(src, dst).links)

    def path(self, src: str | Device, dst: str | Device) -> _Path:
        """`route` plus the directed channels and total latency (cached per device pair)."""
        s = self.device(src)
        t = self.device(dst)
        key = (s.ordinal, t.ordinal)
        p = self._paths.get(key)
        if p is None:
            p = _Path(s, t, self._hops(s, t))
            self._paths[key] = p
        return p

    def _hops(self, s: Device, t: Device) -> list[tuple[Link, int]]:
        if s is t:
            return []
        hs, ht = s.host, t.host
        assert hs is not None and ht is not None
        if hs is ht:
            if s.kind == "CPU" and t.kind == "CPU":
                return []
            if s.kind == "CPU":
                return [(hs.pcie[hs.gpus.index(t)], IN)]
            if t.kind == "CPU":
                return [(hs.pcie[hs.gpus.index(s)], OUT)]
            if hs.nvlink is not None:
                return [(hs.nvlink[hs.gpus.index(s)], OUT), (hs.nvlink[hs.gpus.index(t)], IN)]
            return [(hs.pcie[hs.gpus.index(s)], OUT), (hs.pcie[hs.gpus.index(t)], IN)]
        hops: list[tuple[Link, int]] = []
        if s.kind == "GPU":
            hops.append((hs.pcie[hs.gpus.index(s)], OUT))
        assert hs.nic is not None and ht.nic is not None
        hops.append((hs.nic, OUT))
        if self.pod_size and self.pod_of[hs.index] != self.pod_of[ht.index]:
            hops.append((self.uplinks[self.pod_of[hs.index]], OUT))
            hops.append((self.uplinks[self.pod_of[ht.index]], IN))
        hops.append((ht.nic, IN))
        if t.kind == "GPU":
            hops.append((ht.pcie[ht.gpus.index(t)], IN))
        return hops

    def __repr__(self) -> str:
        return f"Cluster(hosts={len(self.hosts)}, devices={len(self._devices)}, links={len(self.links)})"


def _listing(names: Iterable[str], limit: int = 16) -> str:
    names = list(names)
    if len(names) <= limit:
        return ", ".join(names)
    return ", ".join(names[:limit]) + f", ... ({len(names) - limit} more)"
