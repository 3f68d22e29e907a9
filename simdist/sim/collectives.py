"""Collectives: all-reduce (ring, tree, hierarchical, reduce-to-one), all-gather, reduce-scatter and broadcast,
as plans (`plans`) executed chunked (`chunked`: a flow per chunk, the reference) or analytically
(`analytic`: arithmetic per phase, one wake-up per phase).

Every collective starts with one collective kernel per rank (``launch_overhead``, zero FLOPs)
and charges reduction arithmetic as compute on the reducing device without a further launch
overhead (fused into the collective kernel): one FLOP per float32 element, ``bytes / 4``.
Phases of a plan (hierarchical: reduce-scatter in each host, all-reduce across hosts,
all-gather in each host) follow each other; within a phase nothing waits for a global barrier.

``ring`` all-reduce (N ranks, B bytes, chunks of B/N, 2(N-1) steps, the first N-1 reduce): on a
uniform ring with no other traffic the time is

    launch_overhead + 2(N-1) * (latency + (B/N) / bandwidth) + (N-1) * (B/N/4) / flops.

``all_gather`` (B bytes gathered, B/N from each rank): N-1 steps of the ring, no arithmetic:
``launch_overhead + (N-1) * (latency + (B/N) / bandwidth)``. ``reduce_scatter`` (B bytes reduced, each
rank ends with its B/N): the same N-1 steps, each reducing what it receives. ``broadcast``: B bytes down a binary
tree from devices[0]. One rank or zero bytes: nothing to do, the event fires at once.

``nccl`` (all-reduce, all-gather, reduce-scatter; also ``nccl:<algorithm>[:<protocol>]`` to force NCCL_ALGO /
NCCL_PROTO): the collective as NCCL runs it, timed by NCCL's own tuning model (`nccl`: ring, tree,
NVLS and NVLS-tree, protocols LL / LL128 / Simple, channels, the hosts' NICs) with the global
factors fitted in docs/validation.md. Every rank's collective kernel runs from when it is ready
until the last rank is ready plus the model's time (a collective synchronises its ranks; a
straggler window stretches its rank's kernel, and the collective ends with it); the collective
loads no simulated link (its time is the model's, whatever else runs), at every fidelity.

Fidelity (``Simulator(collectives=...)``, or per call): ``chunked``, ``analytic``, or ``auto``
(default): chunked while the plan issues at most `AUTO_CHUNKED_MAX` transfers (every ready
scenario's collectives), analytic above. Analytic equals chunked to the last bit on uncontended
topologies (see `analytic`); a plan with two ranks on one device, or a device with a straggler
window, always runs chunked (the analytic arithmetic assumes a device per rank and no slowdown).
"""

from __future__ import annotations

import numbers
from typing import TYPE_CHECKING, Any, Callable, Iterable

from simpy.events import Event

from . import analytic, chunked, nccl, nccl_net, plans
from .hardware import LINK_EFFICIENCY
from .topology import Device
from .trace import args_json

if TYPE_CHECKING:
    from .engine import Simulator

__all__ = ["ALGORITHMS", "FIDELITIES", "AUTO_CHUNKED_MAX", "all_reduce", "all_gather", "reduce_scatter", "broadcast",
           "resolve_devices", "plan_for", "nccl_system", "nccl_choice"]

ALGORITHMS = plans.ALL_REDUCE_ALGORITHMS + ("nccl",)   # and "nccl:<algorithm>[:<protocol>]"
FIDELITIES = ("analytic", "auto", "chunked")
AUTO_CHUNKED_MAX = 20_000   # `auto`: plans issuing more transfers than this run analytically
BYTES_PER_ELEMENT = chunked.BYTES_PER_ELEMENT


def resolve_devices(sim: "Simulator", devices: Iterable[str | Device], field: str) -> list[Device]:
    """Devices in the given order; a set/frozenset is sorted into cluster device order (so the
    schedule never depends on hash order). A device may appear more than once (several ranks on
    one device, e.g. logical devices that share a physical one): those ranks share its kernel
    queue and exchange chunks at no cost."""
    if isinstance(devices, (str, Device)):
        raise TypeError(f"{field}: expected a list of devices, got a single device {devices!r}")
    unordered = isinstance(devices, (set, frozenset))
    out = [sim.cluster.device(d) for d in devices]
    if unordered:
        out.sort(key=lambda d: d.ordinal)
    if not out:
        raise ValueError(f"{field}: expected at least one device, got none")
    return out


def _devices(sim: "Simulator", devices: Iterable[str | Device], field: str) -> list[Device]:
    """`resolve_devices`, remembered per list or tuple of names (or devices) in the simulator's
    plan cache: the same collective recurs every training step. A new list each time (callers
    may keep it)."""
    key: Any = None
    if type(devices) is list or type(devices) is tuple:
        try:
            key = ("devices", tuple(devices))
            hash(key)
        except TypeError:   # (an unhashable entry: resolve_devices says what is wrong with it)
            key = None
    if key is not None:
        got = sim.collective_plans.get(key)
        if got is not None:
            return list(got[0])
    devs = resolve_devices(sim, devices, field)
    if key is not None:
        _remember(sim, key, (tuple(devs),))
    return devs


def _remember(sim: "Simulator", key: tuple, value: tuple) -> None:
    if len(sim.collective_plans) >= 256:
        sim.collective_plans.clear()
    sim.collective_plans[key] = value


def _check_bytes(nbytes: Any, field: str) -> float:
    t = type(nbytes)
    if (t is float or t is int) and nbytes >= 0:   # (the common case checked inline)
        return float(nbytes)
    if isinstance(nbytes, bool) or not isinstance(nbytes, numbers.Real) or not nbytes >= 0:
        raise ValueError(f"{field}: expected a number >= 0, got {nbytes!r}")
    return float(nbytes)


def check_fidelity(fidelity: Any, field: str) -> str:
    if fidelity not in FIDELITIES:
        raise ValueError(f"{field}: unknown fidelity {fidelity!r}; known: " + ", ".join(repr(f) for f in FIDELITIES))
    return fidelity


def plan_for(kind: str, devs: list[Device], nbytes: float, algorithm: str = "ring") -> plans.Plan:
    """The plan of a collective over ``devs`` (see `plans`)."""
    if kind == "all_reduce":
        return plans.all_reduce_plan(algorithm, [d.host.index for d in devs], nbytes)  # type: ignore[union-attr]
    if kind == "all_gather":
        return plans.all_gather_plan(len(devs), nbytes)
    if kind == "reduce_scatter":
        return plans.reduce_scatter_plan(len(devs), nbytes)
    return plans.broadcast_plan(len(devs), nbytes)


def _is_nccl(algorithm: Any) -> bool:
    return isinstance(algorithm, str) and (algorithm == "nccl" or algorithm.startswith("nccl:"))


def all_reduce(sim: "Simulator", devices: Iterable[str | Device], nbytes: float, algorithm: str = "ring",
               name: str = "all_reduce", fidelity: str | None = None, own_stream: bool = False) -> Event:
    if _is_nccl(algorithm):
        nccl.parse_algorithm(algorithm)
    elif algorithm not in ALGORITHMS:
        raise ValueError(f"all_reduce.algorithm: unknown algorithm {algorithm!r}; known algorithms: "
                         + ", ".join(repr(a) for a in ALGORITHMS) + ", 'nccl:<algorithm>[:<protocol>]'")
    devs = _devices(sim, devices, "all_reduce.devices")
    b = _check_bytes(nbytes, "all_reduce.nbytes")
    if _is_nccl(algorithm):
        return _start_nccl(sim, "all_reduce", algorithm, devs, b, name, own_stream)
    return _start(sim, "all_reduce", algorithm, algorithm, devs, b, name, fidelity)


def all_gather(sim: "Simulator", devices: Iterable[str | Device], nbytes: float, name: str = "all_gather",
               fidelity: str | None = None, algorithm: str = "ring") -> Event:
    """Every rank ends with all ``nbytes`` (each contributed nbytes/N): a ring all-gather, or
    NCCL's (``algorithm="nccl"``, see the module doc)."""
    return _ring_or_nccl(sim, "all_gather", devices, nbytes, name, fidelity, algorithm)


def reduce_scatter(sim: "Simulator", devices: Iterable[str | Device], nbytes: float, name: str = "reduce_scatter",
                   fidelity: str | None = None, algorithm: str = "ring") -> Event:
    """Every rank contributes ``nbytes`` and ends with its nbytes/N of the sum: a ring reduce-scatter,
    or NCCL's (``algorithm="nccl"``, see the module doc)."""
    return _ring_or_nccl(sim, "reduce_scatter", devices, nbytes, name, fidelity, algorithm)


def _ring_or_nccl(sim: "Simulator", kind: str, devices: Iterable[str | Device], nbytes: float, name: str,
                  fidelity: str | None, algorithm: str) -> Event:
    """An all-gather or reduce-scatter: the ring of `plans`, or NCCL's model."""
    if _is_nccl(algorithm):
        nccl.parse_algorithm(algorithm)
    elif algorithm != "ring":
        raise ValueError(f"{kind}.algorithm: unknown algorithm {algorithm!r}; known algorithms: 'ring', "
                         f"'nccl', 'nccl:<algorithm>[:<protocol>]'")
    devs = _devices(sim, devices, f"{kind}.devices")
    b = _check_bytes(nbytes, f"{kind}.nbytes")
    if _is_nccl(algorithm):
        return _start_nccl(sim, kind, algorithm, devs, b, name)
    return _start(sim, kind, kind, "ring", devs, b, name, fidelity)


def broadcast(sim: "Simulator", devices: Iterable[str | Device], nbytes: float, name: str = "broadcast",
              fidelity: str | None = None) -> Event:
    """devices[0] sends ``nbytes`` to every other rank, down a binary tree."""
    devs = _devices(sim, devices, "broadcast.devices")
    b = _check_bytes(nbytes, "broadcast.nbytes")
    return _start(sim, "broadcast", "broadcast", "tree", devs, b, name, fidelity)


def nccl_system(devs: list[Device]) -> nccl.System:
    """What NCCL's tuner sees of a communicator over ``devs``: ranks, hosts, the GPUs' NVLink
    (else PCIe) bandwidth, the host's NIC link (all its NICs) and its `nccl.Fabric`."""
    counts: dict[int, int] = {}
    for d in devs:
        if d.kind != "GPU":
            raise ValueError(f"algorithm 'nccl': NCCL runs on GPUs, got {d.short_name} of {d.host.name}")  # type: ignore[union-attr]
        h = d.host
        assert h is not None
        counts[h.index] = counts.get(h.index, 0) + 1
    per = sorted(set(counts.values()))
    if len(per) > 1:
        raise ValueError(f"algorithm 'nccl': every host must hold the same number of ranks, got {per} ranks "
                         f"on the {len(counts)} hosts")
    h0 = devs[0].host
    assert h0 is not None
    fabric = h0.fabric if h0.fabric is not None else nccl.Fabric()
    nodes = len(counts)
    if h0.nvlink:
        intra, bw = "nvlink", min(ln.bandwidth for ln in h0.nvlink)
    else:
        intra, bw = "pci", min(ln.bandwidth for ln in h0.pcie)
    net = h0.nic.bandwidth if (nodes > 1 and h0.nic is not None) else 0.0
    pci = min(ln.bandwidth for ln in h0.pcie) / LINK_EFFICIENCY if h0.pcie else 0.0
    plugin = nccl_net.plugin(fabric.net)
    return nccl.System(nranks=len(devs), nodes=nodes, intra_bw=bw, net_bw=net, intra=intra, arch=fabric.arch,
                       nvls=fabric.nvls, nic_affinity=fabric.nic_affinity, release=fabric.release,
                       nics=fabric.nics, pci_bw=pci, net_latency=plugin.latency, protocols=plugin.protocols)


def nccl_choice(sim: "Simulator", kind: str, devices: Iterable[str | Device], nbytes: float,
                algorithm: str = "nccl") -> nccl.Choice:
    """NCCL's (algorithm, protocol, channels, time) for this collective on the simulated cluster:
    what ``all_reduce``/``all_gather(..., algorithm="nccl")`` charges."""
    devs = _devices(sim, devices, f"{kind}.devices")
    algo, proto = nccl.parse_algorithm(algorithm)
    return nccl.choose(kind, _check_bytes(nbytes, f"{kind}.nbytes"), nccl_system(devs), algo, proto)


def _start_nccl(sim: "Simulator", kind: str, algorithm: str, devs: list[Device], nbytes: float,
                name: str, own_stream: bool = False) -> Event:
    """``own_stream``: the collective runs on its own stream, beside the ranks' compute kernels
    (it neither waits for them nor holds their devices): the gradient packs TF overlaps with the
    backward pass (strategies/timing.PackChain). Otherwise a rank's kernel queues on its device."""
    sim.count_collective(kind if kind != "all_reduce" else algorithm.split(":")[0])
    done = Event(sim.env)
    if len(devs) == 1 or nbytes == 0:
        done.succeed()
        return done
    key = ("nccl", kind, algorithm, nbytes, tuple([d.ordinal for d in devs]))
    cached = sim.collective_plans.get(key)
    if cached is None:   # (the same collective recurs every training step)
        algo, proto = nccl.parse_algorithm(algorithm)
        cached = (nccl.choose(kind, nbytes, nccl_system(devs), algo, proto),)
        _remember(sim, key, cached)
    choice: nccl.Choice = cached[0]
    now = sim.now
    if own_stream:
        args = {"algorithm": algorithm, "nccl": f"{choice.algorithm}/{choice.protocol}", "channels": choice.channels,
                "bytes": nbytes, "ranks": len(devs), "stream": "own"}
        if sim.has_open_steps:   # (communication in the step breakdown, beside the compute it overlaps)
            sim.record_intervals([], [(now, now + choice.time)])
        sim.call_at(now + choice.time, _NcclDone(sim, devs, name, args, now, done))
        return done
    busy_s, busy = sim.kernel_state(devs)
    starts = [b if b > now else now for b in busy]
    end = max(starts) + choice.time   # every rank's kernel lasts until the collective ends
    if sim.has_slowdowns(devs):   # a straggler window stretches its rank's kernel (and the end)
        ends = []
        kb = sim.kernel_book()
        steps, kb.steps = kb.steps, []   # (the kernels are communication: not the steps' compute)
        try:
            for i, d in enumerate(devs):
                dur = end - starts[i] - d.launch_overhead
                ends.append(sim.kernel(d, dur * d.flops if dur > 0 else 0.0, name, i, "collective"))
        finally:
            kb.steps = steps
        spans = [(starts[i], e) for i, e in enumerate(ends)]
        end = max(ends)
    else:
        spans = [(a, end) for a in starts]
        sim.book_kernels(devs, [b + end - a for b, a in zip(busy_s, starts)], [end] * len(devs), 1, spans, name,
                         list(range(len(devs))), "collective")
    if sim.has_open_steps:   # the step breakdown: an NCCL kernel moves data, it is communication
        sim.record_intervals([], spans)
    args = {"algorithm": algorithm, "nccl": f"{choice.algorithm}/{choice.protocol}", "channels": choice.channels,
            "bytes": nbytes, "ranks": len(devs)}
    sim.call_at(end, _NcclDone(sim, devs, name, args, now, done))
    return done


class _NcclDone:
    """Ends an NCCL-model collective: its trace span, then its event."""

    __slots__ = ("sim", "devs", "name", "args", "t0", "done")

    def __init__(self, sim: "Simulator", devs: list[Device], name: str, args: dict, t0: float, done: Event) -> None:
        self.sim, self.devs, self.name, self.args, self.t0, self.done = sim, devs, name, args, t0, done

    def __call__(self, wake: Any) -> None:
        sim = self.sim
        if sim.trace is not None:
            h = self.devs[0].host
            assert h is not None
            sim.trace.laned(self.name, "collective", self.t0, sim.now,
                            [(("collectives", h.index), h.index + 1, "collectives", 1_000)], args_json(self.args))
        self.done.succeed()


def _start(sim: "Simulator", kind: str, counted: str, algorithm: str, devs: list[Device], nbytes: float,
           name: str, fidelity: str | None) -> Event:
    fid = check_fidelity(fidelity, f"{kind}.fidelity") if fidelity is not None else sim.collective_fidelity
    sim.count_collective(counted)
    done = Event(sim.env)
    if len(devs) == 1 or nbytes == 0:
        done.succeed()
        return done
    key = (kind, algorithm, nbytes, tuple([d.ordinal for d in devs]))
    cached = sim.collective_plans.get(key)
    if cached is None:   # (the same collective recurs every training step)
        plan = plan_for(kind, devs, nbytes, algorithm)
        cached = (plan, plans.transfer_count(plan), {})
        _remember(sim, key, cached)
    plan, transfers, paths = cached
    if fid == "auto":
        fid = "chunked" if transfers <= AUTO_CHUNKED_MAX else "analytic"
    if fid == "analytic" and (len({d.ordinal for d in devs}) < len(devs) or sim.has_slowdowns(devs)):
        fid = "chunked"
    _Run(sim, devs, plan, nbytes, name, algorithm, done, fid == "analytic", paths).start()
    return done


class _Run:
    """One collective: its plan's phases in turn, then the collective's trace span and event."""

    __slots__ = ("sim", "devs", "plan", "nbytes", "name", "algorithm", "done", "analytic", "t0", "phase",
                 "left", "paths")

    def __init__(self, sim: "Simulator", devs: list[Device], plan: plans.Plan, nbytes: float, name: str,
                 algorithm: str, done: Event, analytic: bool, paths: dict[tuple[int, int], list[Any]]) -> None:
        self.sim = sim
        self.devs = devs
        self.plan = plan
        self.nbytes = nbytes
        self.name = name
        self.algorithm = algorithm
        self.done = done
        self.analytic = analytic
        self.t0 = sim.now
        self.phase = 0
        self.left = 0
        self.paths = paths   # ring operations' routes by (phase, operation), kept with the plan

    def start(self) -> None:
        if self.analytic:
            sim = self.sim
            ready = [sim.kernel(d, 0.0, self.name, i, "collective") for i, d in enumerate(self.devs)]
            self._analytic_phase(ready)
        else:
            self._chunked_phase()

    # -- chunked: each operation calls back when done; the phase when all have --------------------
    def _chunked_phase(self) -> None:
        ops = self.plan[self.phase]
        launch = self.phase == 0
        on_done: Callable[[], None] = self._finish if len(self.plan) == 1 and len(ops) == 1 else self._op_done
        self.left = len(ops)
        for k, op in enumerate(ops):
            ds = [self.devs[r] for r in op.ranks]
            labels = list(op.ranks)
            if isinstance(op, plans.Ring):
                paths = self.paths.get((self.phase, k))
                if paths is None:
                    paths = self.paths[(self.phase, k)] = chunked.ring_paths(self.sim, ds)
                ex: Any = chunked.RingExec(self.sim, ds, labels, op.nbytes, self.name, launch, on_done, op.steps,
                                           op.reduce_steps, paths)
            elif isinstance(op, plans.Star):
                ex = chunked.StarExec(self.sim, ds, labels, op.nbytes, self.name, launch, on_done)
            else:
                ex = chunked.TreeExec(self.sim, ds, labels, op.nbytes, self.name, launch, on_done,
                                      op.kind == "all_reduce")
            ex.start()

    def _op_done(self) -> None:
        self.left -= 1
        if self.left == 0:
            self.phase += 1
            if self.phase == len(self.plan):
                self._finish()
            else:
                self._chunked_phase()

    # -- analytic: a phase booked ahead, one wake-up at its end ------------------------------------
    def _analytic_phase(self, ready: list[float]) -> None:
        end = analytic.run_phase(self.sim, self.devs, self.plan[self.phase], ready, self.name)
        self.sim.call_at(end, self._analytic_next, end)

    def _analytic_next(self, wake: Any) -> None:
        self.phase += 1
        if self.phase == len(self.plan):
            self._finish()
        else:
            now = self.sim.now
            self._analytic_phase([now] * len(self.devs))

    def _finish(self) -> None:
        sim = self.sim
        if sim.trace is not None:
            h = self.devs[0].host
            assert h is not None
            args = {"algorithm": self.algorithm, "bytes": self.nbytes, "ranks": len(self.devs)}
            if self.analytic:
                args["fidelity"] = "analytic"
            sim.trace.laned(self.name, "collective", self.t0, sim.now,
                            [(("collectives", h.index), h.index + 1, "collectives", 1_000)], args_json(args))
        self.done.succeed()
