"""The Simulator: a SimPy environment plus the cluster's run-time state and cost model.

Event primitives (each returns a SimPy event to ``yield`` from a process, or to pass to `drive`):
- ``compute``: a kernel on a device. Each device runs one kernel at a time, first come first
  served: a kernel starts at max(now, the end of the device's previous kernel) and lasts
  ``flops / device.flops + device.launch_overhead``. (A "busy until" time per device, not a
  simpy.Resource: one event per kernel.)
- ``transfer``: bytes over the route between two devices (see `network` for fair sharing);
  ``transfers``: several at once, one event for the last arrival.
- ``all_reduce``: a collective schedule (see `collectives`).
- ``timeout``, ``all_of``, ``process``.

Tie-break rule: SimPy processes events in order of (time, priority, insertion id). Kernel and
transfer completions are NORMAL (1); bandwidth re-computation is LOW (2), after every NORMAL
event of the same instant. Insertion ids follow the order in which the program issued the
operations; the simulator itself never schedules in set or id() order (device-name sets given to
collectives are sorted into cluster device order). So equal-time events run in program order.

Times are absolute: events are pushed at the exact computed end time (not now + delay), so
back-to-back kernels line up without rounding drift.
"""

from __future__ import annotations

import types
import weakref
from typing import Any, Callable, Generator, Iterable

import numpy as np
import simpy
from simpy.core import StopSimulation
from simpy.events import Event

from . import collectives as _collectives, roofline as _roofline
from .clock import Clock, Wake, relaxed_gc
from .memory import MemoryTracker
from .kernels import KernelBook
from .metrics import StepRecord
from .flows import Flow, group_done
from .network import Network
from .rng import Streams, check_seed
from .topology import Cluster, Device, Host, Link
from .trace import TraceRecorder, Tracer, _label
from .units import parse_bandwidth, parse_time

__all__ = ["Simulator", "SimulationStalled", "PROGRESS_EVERY"]

PROGRESS_EVERY = 1 << 16   # drive(progress=...): events between two progress calls


class SimulationStalled(RuntimeError):
    """`Simulator.drive` ran out of events before the awaited event happened (a deadlock)."""


class Prepared(list):
    """Transfers routed and checked by `Simulator.prepare`: (path, nbytes, name) each. Not to be
    changed afterwards: the network keeps a plan of it (`network.BatchPlan`)."""


def _check_amount(value: Any, call: str, name: str | None, field: str) -> None:
    """A transfer's bytes or a kernel's FLOPs: a number >= 0 (not NaN, not a bool)."""
    try:
        ok = value >= 0.0  # False for NaN
    except TypeError:
        ok = False
    if not ok or isinstance(value, bool):
        raise ValueError(f"{call}({name!r}).{field}: expected a number >= 0, got {value!r}")


class _Step:
    """`Simulator.step`'s context manager (a class: entered once per training step)."""

    __slots__ = ("sim", "name", "rec")

    def __init__(self, sim: "Simulator", name: str) -> None:
        self.sim = sim
        self.name = name
        self.rec: StepRecord | None = None

    def __enter__(self) -> StepRecord:
        rec = self.rec = self.sim._open_step(self.name)
        return rec

    def __exit__(self, *exc: object) -> None:
        rec = self.rec
        if rec is not None:
            self.rec = None
            self.sim._close_step(rec)


class Simulator:
    """A deterministic simulation of ``cluster``.

    ``seed`` is the root of every random stream (`rng`). ``trace`` is None (off), a path (a Chrome
    trace is streamed there), a file object, or a `TraceRecorder`.
    """

    def __init__(self, cluster: Cluster, seed: int = 0, trace: Any = None, collectives: str = "auto",
                 cost_model: str = "flops", tf32: bool = True) -> None:
        if isinstance(cluster, Host):
            cluster = Cluster([cluster])
        if not isinstance(cluster, Cluster):
            raise TypeError(f"Simulator.cluster: expected a simdist.sim.Cluster (or a Host), "
                            f"got {type(cluster).__name__}")
        self.seed = check_seed(seed, "Simulator.seed")
        self.collective_fidelity = _collectives.check_fidelity(collectives, "Simulator.collectives")
        self.cost_model = _roofline.check_cost_model(cost_model, "Simulator.cost_model")
        if not isinstance(tf32, bool):
            raise TypeError(f"Simulator.tf32: expected a bool, got {tf32!r}")
        self.tf32 = tf32   # float32 matmuls on TF32 tensor cores where the device has them (TF's default)
        self.env = simpy.Environment()
        self.clock = Clock(self.env)
        self.cluster = cluster
        self._devices = cluster.devices()
        nd = len(self._devices)
        kb = self._kbook = KernelBook(self.clock, nd)   # the devices' kernel queues (`kernels`)
        self._busy_until = kb.busy_until   # (the book's lists, shared: updated in place)
        self._busy_s = kb.busy_s
        self._kernels = kb.kernels
        self._degraded: dict[int, list[tuple[int, float, float]]] = {}   # link -> active windows (degrade_link)
        self._link_windows = 0   # degrade_link windows given so far (each one's number)
        self._pid = [d.host.index + 1 for d in self._devices]  # type: ignore[union-attr]
        self._tid = [d.host.devices.index(d) + 1 for d in self._devices]  # type: ignore[union-attr]
        self._track = [f'{p},"tid":{t}' for p, t in zip(self._pid, self._tid)]  # trace: device tracks
        self._net = Network(self.clock, cluster.links, self._flow_finished)
        self._mem = MemoryTracker(nd)
        self._streams = Streams(self.seed)
        self._open_steps: list[StepRecord] = kb.steps
        self._net.period_sinks = self._open_steps  # transfer in-flight periods go to the open steps
        self._steps: list[dict[str, Any]] = []
        self._pair_paths: dict[tuple[str, str], Any] = {}   # transfers(): route per (src, dst) name pair
        self._collectives: dict[str, int] = {}
        self.collective_plans: dict[tuple, tuple] = {}   # collectives: (plan, transfers) by (kind, algorithm, bytes, ranks)
        if trace is None or isinstance(trace, TraceRecorder):
            self.trace: TraceRecorder | None = trace
        else:
            self.trace = TraceRecorder(trace)
        self._tracer: Tracer | None = None   # the traced hot paths (kernels', transfers' spans)
        if self.trace is not None:
            self.trace.bind(cluster)
            if self.trace.path is not None:  # a file we opened: finish it even if close() is forgotten
                weakref.finalize(self, self.trace.close)
            self._tracer = Tracer(self.trace, self.clock, kb, self._net, self._track)
            self._net.finish_hook = self._tracer.finished
        self._closed = False

    # -- clock ----------------------------------------------------------------------------------
    @property
    def now(self) -> float:
        """Simulated seconds since the start."""
        return float(self.clock.now)

    def call_at(self, t: float, callback: Callable[[Wake], None], value: Any = None) -> None:
        """Call ``callback(wake)`` at absolute simulated time ``t`` >= now (``wake._value`` is
        ``value``): a bare wake-up for schedules built on the simulator (collectives)."""
        self.clock.call_at(t, callback, value)

    @property
    def closed(self) -> bool:
        """Whether `close` was called (the trace is finished)."""
        return self._closed

    def device(self, name: str | Device) -> Device:
        return self.cluster.device(name)

    def path(self, src: str | Device, dst: str | Device) -> Any:
        """The route from ``src`` to ``dst`` (``.links``, ``.chans``, ``.latency``), for `start_flow`."""
        return self.cluster.path(src, dst)

    # -- compute --------------------------------------------------------------------------------
    def compute(self, device: str | Device, flops: float, name: str = "compute", replica: int | None = None,
                category: str = "compute", *, overhead: bool = True) -> Event:
        """A kernel of ``flops`` FLOPs on ``device``; the event fires when it ends (FIFO per device).
        ``overhead=False`` omits the device's launch overhead (e.g. work fused into another kernel)."""
        d = self.cluster.device(device)
        t = type(flops)
        if not ((t is float or t is int) and flops >= 0.0):   # (the common case checked inline)
            _check_amount(flops, "compute", name, "flops")
        elif self.trace is None:   # untraced: the kernel book alone
            return self.clock.at(self._kbook.book(d, flops, overhead))
        return self.clock.at(self._kernel(d, flops, overhead, name, replica, category))

    def compute_kernel(self, device: str | Device, kernel: _roofline.Kernel, name: str = "compute",
                       replica: int | None = None, category: str = "compute", *, overhead: bool = True) -> Event:
        """`compute` for a kernel described by its FLOPs, bytes, dtype and kind (`roofline.Kernel`),
        timed by the simulator's cost model: ``"flops"`` charges ``kernel.flops`` as `compute`
        does; ``"roofline"`` charges the roofline time on the device's `hardware.ComputeRates`
        (a device without rates: its FLOP/s, as `compute`). The kernel book and the trace see the
        FLOPs that take that time at the device's nominal FLOP/s."""
        return self.compute(device, self.kernel_flops(device, kernel), name, replica, category, overhead=overhead)

    def kernel_flops(self, device: str | Device, kernel: _roofline.Kernel) -> float:
        """The FLOPs `compute` is charged for ``kernel`` under the cost model: ``kernel.flops``
        (FLOP model, or a device without rates), else its roofline seconds x the device's FLOP/s."""
        d = self.cluster.device(device)
        if self.cost_model == "flops" or d.rates is None:
            return kernel.flops
        return _roofline.kernel_seconds(d.rates, kernel, self.tf32) * d.flops

    def kernel(self, device: str | Device, flops: float, name: str = "compute", replica: int | None = None,
               category: str = "compute", *, overhead: bool = True) -> float:
        """Book a kernel as `compute` does, without an event: returns its end time (for schedules
        that wake up once for many kernels, e.g. collectives, with `call_at`)."""
        d = self.cluster.device(device)
        _check_amount(flops, "compute", name, "flops")
        return self._kernel(d, flops, overhead, name, replica, category)

    def kernel_booker(self) -> Callable[[Device, float, bool, str, int | None, str], float]:
        """`kernel` for a schedule's hot loop: ``book(device, flops, overhead, name, replica,
        category) -> end time``, taking a Device of this cluster and FLOPs already checked (no
        name lookup, no check): what chunked collectives call for every reduction."""
        return self._kernel if self._tracer is None else self._tracer.kernel

    def tracer(self) -> Tracer | None:
        """The traced hot paths (`trace.Tracer`: kernels' and transfers' spans), None untraced:
        for schedules that trace each kernel and transfer themselves (chunked collectives)."""
        return self._tracer

    def kernel_book(self) -> KernelBook:
        """The devices' kernel queues (`kernels.KernelBook`): ``book(device, flops, overhead) ->
        end time`` books an untraced kernel as `kernel_booker`'s function does, without a
        trace span (for schedules that check ``trace is None`` first, e.g. chunked collectives)."""
        return self._kbook

    def network(self) -> Network:
        """The network model: its ``start(path, nbytes, on_done, tag)`` is what `flow_starter`
        returns untraced (for schedules that check ``trace is None`` first, e.g. chunked collectives)."""
        return self._net

    def compute_then_transfers(self, device: str | Device, flops: float, name: str,
                               moves: list[tuple[str | Device, str | Device, float, str | None]],
                               gate: Callable[[], bool] | None = None) -> Event:
        """`compute(device, flops, name)`, then at its end `transfers(moves)` (if ``gate()``, when
        given, is still true then); the event fires when the last transfer has arrived. The
        same kernel, transfers and event order as yielding the two in turn, with one wake-up
        less (the coordinator's write-back after a closure's compute)."""
        d = self.cluster.device(device)
        t = type(flops)
        if not ((t is float or t is int) and flops >= 0.0):   # (the common case checked inline)
            _check_amount(flops, "compute", name, "flops")
        end = self._kernel(d, flops, True, name, None, "compute")
        ev = Event(self.env)
        self.clock.call_at(end, self._then_transfers, (ev, moves, gate))
        return ev

    def _then_transfers(self, wake: Any) -> None:
        ev, moves, gate = wake._value
        if gate is None or gate():
            self.transfers(moves, event=ev)

    def _kernel(self, d: Device, flops: float, overhead: bool, name: str, replica: int | None,
                category: str) -> float:
        """Book a kernel on ``d``; returns its end time."""
        # (checked numbers: a float or int as is, others, e.g. NumPy scalars, as the float they equal)
        if self._tracer is not None:
            return self._tracer.kernel(d, flops, overhead, name, replica, category)
        return self._kbook.book(d, flops if type(flops) is float or type(flops) is int else float(flops), overhead)

    # -- booking ahead (schedules that compute their timing arithmetically) ------------------------
    def kernel_state(self, devices: list[Device]) -> tuple[list[float], list[float]]:
        """(busy seconds so far, busy-until time) of each device: the starting point of a schedule
        that books its kernels ahead (`book_kernels`), e.g. an analytic collective."""
        return [self._busy_s[d.ordinal] for d in devices], [self._busy_until[d.ordinal] for d in devices]

    def book_kernels(self, devices: list[Device], busy_s: list[float], busy_until: list[float], kernels: int,
                     spans: list[tuple[float, float]] | None = None, name: str = "collective",
                     labels: list[int] | None = None, category: str = "collective") -> None:
        """Account kernels a schedule computed ahead: each device's busy seconds and busy-until time
        become the given ones (computed from `kernel_state`, busy-until never earlier than now),
        ``kernels`` more kernels each; with tracing, one span per device (``spans[i]``)."""
        for i, d in enumerate(devices):
            o = d.ordinal
            self._busy_s[o] = busy_s[i]
            end = busy_until[i]
            if end > self._busy_until[o]:
                self._busy_until[o] = end
            if end > self._kbook.max_busy:
                self._kbook.max_busy = end
            self._kernels[o] += kernels
            if self.trace is not None and spans is not None:
                a, b = spans[i]
                if b > a:
                    rep = labels[i] if labels is not None else None
                    prefix = TraceRecorder.prefix(_label(name, rep), category)
                    self.trace.event_raw(prefix, a, b, self._track[o], "}")

    @property
    def has_open_steps(self) -> bool:
        """Whether a ``with sim.step(...)`` block is open (its breakdown collects intervals)."""
        return bool(self._open_steps)

    def record_intervals(self, compute: list[tuple[float, float]], transfers: list[tuple[float, float]]) -> None:
        """Kernel and transfer in-flight intervals a schedule computed ahead, for the open steps'
        compute/communication breakdown."""
        for st in self._open_steps:
            for a, b in compute:
                st.add_compute(a, b)
            st.transfers.extend(transfers)

    def link_counters(self, link_ids: list[int]) -> tuple[list[float], list[float]]:
        """(bytes carried, busy seconds) of each link (by index): the starting point of a schedule
        that books its transfers ahead (`book_transfers`)."""
        net = self._net
        return [net.bytes[i] for i in link_ids], [net.busy_s[i] for i in link_ids]

    def book_transfers(self, link_ids: list[int], nbytes: list[float], busy_s: list[float], transfers: list[int],
                       count: int, total_bytes: float) -> None:
        """Account transfers a schedule computed ahead: each link's bytes and busy seconds become
        the given ones, ``transfers[i]`` more transfers on link ``link_ids[i]``; ``count``
        transfers of ``total_bytes`` in all for ``metrics()["transfers"]``."""
        net = self._net
        for i, li in enumerate(link_ids):
            net.bytes[li] = nbytes[i]
            net.busy_s[li] = busy_s[i]
            net.transfers[li] += transfers[i]
        net.seq += count
        net.issued_bytes += total_bytes

    def path_share(self, path: Any, also: dict[int, int]) -> tuple[float, float]:
        """(latency, rate) of ``path`` now: its current latency and the narrowest share
        ``capacity / (flows in flight + also.get(channel, 0))`` along it (``also``: flows a
        schedule adds itself, this one included). ``(0, inf)`` for a path without links."""
        if not path.chans:
            return 0.0, float("inf")
        net = self._net
        if net.modified:
            lat = 0.0
            for li in path.link_ids:
                lat += net.lat[li]
        else:
            lat = path.latency
        cap, on, pc = net.cap, net.on, net.pc
        rate = min([cap[c] / (len(on[c]) + pc[c] + also.get(c, 1)) for c in path.chans])
        return lat, rate

    def preempt_device(self, device: str | Device) -> float:
        """Cut ``device``'s booked kernels short at the current time (its worker was preempted):
        the device is free from now on and its busy time drops by the discarded part, which is
        returned. The cut kernels' trace spans keep their booked length."""
        d = self.cluster.device(device)
        o = d.ordinal
        now = self.clock.now
        cut = self._busy_until[o] - now
        if cut <= 0.0:
            return 0.0
        self._busy_until[o] = now
        self._busy_s[o] -= cut
        return cut

    # -- transfers ------------------------------------------------------------------------------
    def transfer(self, src: str | Device, dst: str | Device, nbytes: float, name: str | None = None,
                 replica: int | None = None, category: str = "transfer") -> Event:
        """Send ``nbytes`` from ``src`` to ``dst``; the event fires when the last byte arrives.
        Same device (or two CPUs of one host): zero time."""
        path = self._pair_paths.get((src, dst)) if type(src) is str and type(dst) is str else None
        if path is None:   # (routed once per name pair, as `transfers` does)
            path = self.cluster.path(src, dst)
            if type(src) is str and type(dst) is str:
                self._pair_paths[(src, dst)] = path
        t = type(nbytes)
        if not ((t is int or t is float) and nbytes >= 0.0):
            _check_amount(nbytes, "transfer", name, "nbytes")
        if not path.chans:
            return self.clock.at(self.clock.now)
        ev = Event(self.env)
        self.start_flow(path, float(nbytes), self._transfer_done, ev, name, replica, category)
        return ev

    def flow_starter(self) -> Callable[..., Flow]:
        """`start_flow` for a schedule's hot loop: ``start(path, nbytes, on_done, tag)``; without
        tracing, the network's own start (nothing to label), one call less per flow."""
        return self._net.start if self._tracer is None else self.start_flow

    @staticmethod
    def _transfer_done(f: Flow) -> None:
        f.tag.succeed()

    def prepare(self, moves: Iterable[tuple[str | Device, str | Device, float, str | None]]) -> "Prepared":
        """``(src, dst, nbytes, name)`` transfers checked and routed once, for `transfers` to
        start again and again (the coordinator's per-closure traffic of a recorded function)."""
        out = Prepared()
        for src, dst, nbytes, name in moves:
            _check_amount(nbytes, "transfer", name, "nbytes")
            out.append((self.cluster.path(src, dst), float(nbytes), name))
        return out

    def transfers(self, moves: Iterable[tuple[str | Device, str | Device, float, str | None]] | "Prepared",
                  category: str = "transfer", event: Event | None = None) -> Event:
        """Start every ``(src, dst, nbytes, name)`` transfer now (or every transfer of a `prepare`d
        list); the one returned event (``event`` if given) fires when the last of them has
        arrived. Same timing and trace as `transfer` each, joined by `all_of`, without an event
        per transfer (the coordinator's hot path)."""
        env = self.env
        ev = Event(env) if event is None else event
        group = [ev, 0]   # the event, transfers still in flight
        traced = self.trace is not None
        if type(moves) is Prepared and not traced:   # (the coordinator's hot path)
            self._net.start_group(moves, group_done, group)
            if group[1] == 0:
                self.clock.at(self.clock.now, None, ev)
            return ev
        start = self._net.start
        done = self._group_done
        if type(moves) is Prepared:
            if traced:
                for path, nbytes, name in moves:
                    if path.chans:
                        group[1] += 1
                        self.start_flow(path, nbytes, done, group, name, None, category)
            else:
                self._net.start_group(moves, done, group)
            moves = ()
        paths = self._pair_paths
        for src, dst, nbytes, name in moves:
            path = paths.get((src, dst)) if type(src) is str and type(dst) is str else None
            if path is None:
                path = self.cluster.path(src, dst)
                if type(src) is str and type(dst) is str:
                    paths[(src, dst)] = path
            t = type(nbytes)
            if not ((t is int or t is float) and nbytes >= 0.0):
                _check_amount(nbytes, "transfer", name, "nbytes")
            if path.chans:
                group[1] += 1
                if traced:
                    self.start_flow(path, float(nbytes), done, group, name, None, category)
                else:
                    start(path, float(nbytes), done, group)
        if group[1] == 0:
            self.clock.at(self.clock.now, None, ev)
        return ev

    _group_done = staticmethod(group_done)   # (a pooled Batch member runs it inline: see network)

    def start_flow(self, path: Any, nbytes: float, on_done: Callable[[Flow], None], tag: Any = None,
                   name: str | None = None, replica: int | None = None, category: str = "transfer",
                   args: str = "") -> Flow:
        """Start ``nbytes`` (a float >= 0, not checked here) over ``path`` (a non-empty route from
        `path`) now; ``on_done(flow)`` is called when its last byte arrives (``flow.tag`` is
        ``tag``). ``name``/``replica``/``category`` label its trace event, ``args`` is extra JSON
        for it (``',"step":3'``). The bare flow API under `transfer`, for schedules such as
        collectives that react to each arrival without an event per flow."""
        if self._tracer is not None:
            return self._tracer.start_flow(path, nbytes, on_done, tag, name, replica, category, args)
        return self._net.start(path, nbytes, on_done, tag)

    def _flow_finished(self, f: Flow) -> None:
        """The network's finish hook untraced (traced, the `Tracer`'s): nothing to do."""

    # -- hardware faults ----------------------------------------------------------------------------
    def slow_device(self, device: str | Device, slowdown: float, start: float | str = 0.0,
                    end: float | str | None = None) -> None:
        """A straggler: kernels on ``device`` that start in [start, end) (end None: for good) take
        ``slowdown`` times their FLOP time (the launch overhead is unchanged); overlapping windows
        multiply. Applies to every kernel booked on the device, whichever strategy booked it."""
        d = self.cluster.device(device)
        where = f"slow_device({d.name!r})"
        if isinstance(slowdown, bool) or not isinstance(slowdown, (int, float)) or not slowdown >= 1.0:
            raise ValueError(f"{where}.slowdown: expected a factor >= 1, got {slowdown!r}")
        a, b = self._window(where, start, end)
        slow = self._kbook.slow
        if slow is None:
            slow = self._kbook.slow = [None] * len(self._devices)
        ws = slow[d.ordinal]
        if ws is None:
            ws = slow[d.ordinal] = []
        ws.append((float(slowdown), a, b))

    def degrade_link(self, link: str | Link, bandwidth_factor: float = 1.0, latency_factor: float = 1.0,
                     start: float | str = 0.0, end: float | str | None = None) -> None:
        """A degraded link: from ``start`` (or now, if later) to ``end`` (None: for good) ``link``
        runs at ``bandwidth_factor`` of its nominal bandwidth and ``latency_factor`` times its
        nominal latency (`set_link` at those instants; transfers in flight are re-rated).
        Overlapping windows on one link compose: while several are active the link runs at its
        nominal bandwidth times the product of their bandwidth factors (and nominal latency times
        the product of their latency factors), in the order the windows were given; when the
        last one ends the nominal figures come back (as overlapping stragglers multiply)."""
        ln = self.cluster.link(link.name if isinstance(link, Link) else link)
        where = f"degrade_link({ln.name!r})"
        for field, v in (("bandwidth_factor", bandwidth_factor), ("latency_factor", latency_factor)):
            if isinstance(v, bool) or not isinstance(v, (int, float)) or not v > 0:
                raise ValueError(f"{where}.{field}: expected a number > 0, got {v!r}")
        a, b = self._window(where, start, end)
        now = self.clock.now
        self._link_windows += 1
        window = (self._link_windows, float(bandwidth_factor), float(latency_factor))
        self.clock.call_at(a if a > now else now, lambda _w: self._link_window(ln, window, True))
        if b is not None:
            self.clock.call_at(b if b > now else now, lambda _w: self._link_window(ln, window, False))

    def _link_window(self, ln: Link, window: tuple[int, float, float], begins: bool) -> None:
        """A degradation window of ``ln`` begins or ends: the link runs at its nominal figures
        times the product of the factors of the windows active now (by window number)."""
        active = self._degraded.setdefault(ln.index, [])
        if begins:
            active.append(window)
            active.sort()
        else:
            active.remove(window)
        bw, lat = ln.bandwidth, ln.latency
        if active:
            fb = fl = 1.0
            for _, kb, kl in active:
                fb *= kb
                fl *= kl
            bw, lat = bw * fb, lat * fl
        self.set_link(ln.name, bandwidth=bw, latency=lat)

    @staticmethod
    def _window(where: str, start: float | str, end: float | str | None) -> tuple[float, float | None]:
        a = parse_time(start, field=f"{where}.start")
        b = None if end is None else parse_time(end, field=f"{where}.end")
        if not a >= 0.0:
            raise ValueError(f"{where}.start: expected a time >= 0, got {start!r}")
        if b is not None and not b > a:
            raise ValueError(f"{where}.end: expected a time after start ({a!r} s), got {end!r}")
        return a, b

    def set_link(self, link: str | Link, bandwidth: float | str | None = None,
                 latency: float | str | None = None) -> None:
        """Change a link's bandwidth (each direction) and/or latency from now on, e.g. a degraded
        link. Transfers in flight are re-rated at once; a new latency applies to transfers issued
        afterwards. The Cluster's Link keeps its nominal figures (see `link_state` for the current ones)."""
        ln = self.cluster.link(link.name if isinstance(link, Link) else link)
        bw = None if bandwidth is None else parse_bandwidth(bandwidth, field=f"set_link({ln.name!r}).bandwidth")
        if bw is not None and bw <= 0:
            raise ValueError(f"set_link({ln.name!r}).bandwidth: must be > 0, got {bandwidth!r}")
        lat = None if latency is None else parse_time(latency, field=f"set_link({ln.name!r}).latency")
        self._net.set_link(ln.index, bw, lat)

    def link_state(self, link: str | Link) -> dict[str, float]:
        """A link's current {"bandwidth": bytes/s per direction, "latency": s} (after set_link)."""
        ln = self.cluster.link(link.name if isinstance(link, Link) else link)
        return {"bandwidth": self._net.cap[2 * ln.index], "latency": self._net.lat[ln.index]}

    # -- trace ------------------------------------------------------------------------------------
    def trace_span(self, device: str | Device, name: str, category: str, start: float, end: float,
                   args: dict[str, Any] | None = None) -> None:
        """A span on ``device``'s trace track (e.g. a worker's downtime, a checkpoint); nothing
        when tracing is off or the trace is finished."""
        if self.trace is None or self._closed:
            return
        d = self.cluster.device(device)
        self.trace.complete(name, category, start, end - start, self._pid[d.ordinal], self._tid[d.ordinal],
                            args if args is not None else {})

    # -- collectives ----------------------------------------------------------------------------
    def count_collective(self, kind: str) -> None:
        """Count one collective of ``kind`` in ``metrics()["collectives"]``."""
        self._collectives[kind] = self._collectives.get(kind, 0) + 1

    def all_reduce(self, devices: Iterable[str | Device], nbytes: float, algorithm: str = "ring",
                   name: str = "all_reduce", fidelity: str | None = None, own_stream: bool = False) -> Event:
        """All-reduce ``nbytes`` across ``devices`` with ``algorithm`` ("ring", "tree",
        "hierarchical" or "reduce_to_one"), chunked or analytic (``fidelity``; default: the
        simulator's ``collectives``), or as NCCL runs it ("nccl", "nccl:<algorithm>[:<protocol>]",
        NCCL's tuning model); see `collectives` for the schedules and what they charge.
        ``own_stream`` (NCCL only): beside the ranks' compute, not queued behind it."""
        return _collectives.all_reduce(self, devices, nbytes, algorithm, name, fidelity, own_stream)

    def all_gather(self, devices: Iterable[str | Device], nbytes: float, name: str = "all_gather",
                   fidelity: str | None = None, algorithm: str = "ring") -> Event:
        """All-gather across ``devices``: each rank contributes ``nbytes``/N and ends with all
        ``nbytes`` (a ring, N-1 steps, no arithmetic; or "nccl": NCCL's model; see `collectives`)."""
        return _collectives.all_gather(self, devices, nbytes, name, fidelity, algorithm)

    def reduce_scatter(self, devices: Iterable[str | Device], nbytes: float, name: str = "reduce_scatter",
                       fidelity: str | None = None, algorithm: str = "ring") -> Event:
        """Reduce-scatter across ``devices``: each rank contributes ``nbytes`` and ends with its
        ``nbytes``/N of the sum (a ring, N-1 reducing steps; or "nccl": NCCL's model; see `collectives`)."""
        return _collectives.reduce_scatter(self, devices, nbytes, name, fidelity, algorithm)

    def broadcast(self, devices: Iterable[str | Device], nbytes: float, name: str = "broadcast",
                  fidelity: str | None = None) -> Event:
        """``devices[0]`` sends ``nbytes`` to every other rank, down a binary tree."""
        return _collectives.broadcast(self, devices, nbytes, name, fidelity)

    def has_slowdowns(self, devices: Iterable[Device]) -> bool:
        """Whether a straggler window (`slow_device`) applies to any of ``devices``."""
        slow = self._kbook.slow
        return slow is not None and any(slow[d.ordinal] is not None for d in devices)

    # -- composition ----------------------------------------------------------------------------
    def timeout(self, seconds: float | str) -> Event:
        """An event ``seconds`` (a number or "50us") from now."""
        return self.env.timeout(parse_time(seconds, field="timeout.seconds"))

    def all_of(self, events: Iterable[Event]) -> Event:
        """An event that fires when every event in ``events`` has."""
        return simpy.AllOf(self.env, list(events))

    def process(self, generator: Generator[Event, Any, Any]) -> simpy.Process:
        """Start a SimPy process (a generator yielding events)."""
        return self.env.process(generator)

    def drive(self, what: Generator[Event, Any, Any] | Event,
              progress: Callable[[int], None] | None = None) -> Any:
        """Advance the clock until ``what`` (a process generator or an event) is done; return its
        value, or raise the exception raised inside it. For synchronous callers (strategies).
        ``progress(events)``, if given, is called every `PROGRESS_EVERY` events processed (a long
        step's progress; the same events in the same order either way)."""
        env = self.env
        if env.active_process is not None:
            raise RuntimeError("sim.drive() called from inside a simulated process; yield the event instead")
        if isinstance(what, Event):
            ev = what
            if ev.env is not env:
                raise ValueError("sim.drive(): the event belongs to another Simulator")
        elif isinstance(what, types.GeneratorType):
            ev = env.process(what)
        else:
            raise TypeError(f"sim.drive(): expected a generator or a SimPy event, got {type(what).__name__} {what!r}")
        if ev.callbacks is None:  # already processed
            if ev._ok:
                return ev._value
            raise ev._value
        if progress is not None:
            return self._drive_counting(ev, progress)
        try:
            with relaxed_gc():
                return self.clock.run_until(ev)
        except RuntimeError as e:
            if not ev.triggered and not self.clock.pending() and "until" in str(e):
                raise SimulationStalled(f"sim.drive(): nothing left to simulate at t={self.now!r}s but the awaited "
                                        f"event never happened (deadlock?): {ev!r}") from None
            raise self._original(e) from None
        except Exception as e:
            raise self._original(e) from None

    def _drive_counting(self, ev: Event, progress: Callable[[int], None]) -> Any:
        """`env.run(until=ev)` with a count: the same stop (SimPy's StopSimulation callback, which
        re-queues the event's other callbacks), so the same events are scheduled."""
        count = 0
        every = PROGRESS_EVERY

        def more() -> bool:
            nonlocal count
            count += 1
            if count % every == 0:
                progress(count)
            return True

        def stalled() -> BaseException:
            return SimulationStalled(f"sim.drive(): nothing left to simulate at t={self.now!r}s but the awaited "
                                     f"event never happened (deadlock?): {ev!r}")
        ev.callbacks.append(StopSimulation.callback)
        try:
            self.clock.run_while(more, stalled)
        except StopSimulation as stop:
            return stop.args[0]
        except SimulationStalled:
            raise
        except Exception as e:
            raise self._original(e) from None
        raise AssertionError("unreachable: run_while returns only by an exception here")

    @staticmethod
    def _original(e: BaseException) -> BaseException:
        # SimPy re-raises an unhandled process failure as a copy whose __cause__ is the original.
        c = e.__cause__
        if c is not None and type(c) is type(e) and c.args == e.args:
            return c
        return e

    def run(self, until: float | str | None = None) -> None:
        """Run until no events are left, or until simulated time ``until`` (seconds or "10ms")."""
        with relaxed_gc():
            self.clock.run(None if until is None else parse_time(until, field="run.until"))

    # -- memory ---------------------------------------------------------------------------------
    def allocate(self, device: str | Device, nbytes: int | float | str, what: str) -> int:
        """Reserve ``nbytes`` on ``device``; ResourceExhaustedError if it exceeds the capacity.
        Returns the bytes in use there afterwards."""
        d = self.cluster.device(device)
        used = self._mem.allocate(d, nbytes, what)
        if self.trace is not None:
            self._trace_memory(d, used)
        return used

    def free(self, device: str | Device, nbytes: int | float | str, what: str) -> int:
        """Release ``nbytes`` on ``device``; returns the bytes still in use."""
        d = self.cluster.device(device)
        used = self._mem.free(d, nbytes, what)
        if self.trace is not None:
            self._trace_memory(d, used)
        return used

    def memory_in_use(self, device: str | Device) -> int:
        return self._mem.in_use[self.cluster.device(device).ordinal]

    def _trace_memory(self, d: Device, used: int) -> None:
        assert self.trace is not None
        o = d.ordinal
        self.trace.counter(f"memory {d.short_name}", self.clock.now, self._pid[o], self._tid[o], bytes=used)

    # -- randomness -----------------------------------------------------------------------------
    def rng(self, name: str) -> np.random.Generator:
        """The random stream ``name`` (same Generator object for the same name; see `rng`)."""
        return self._streams.get(name)

    # -- steps & metrics ------------------------------------------------------------------------
    def step(self, name: str) -> "_Step":
        """Mark a training step: work issued inside is attributed to it in ``metrics()["steps"]``
        (``with sim.step(name) as record:``; the step opens when the block is entered)."""
        return _Step(self, name)

    def _open_step(self, name: str) -> StepRecord:
        rec = StepRecord(str(name), self.now)
        max_busy = self._kbook.max_busy
        if max_busy > rec.start:  # kernels booked earlier still run: devices busy until then
            rec.add_compute(rec.start, max_busy)
        self._open_steps.append(rec)
        return rec

    def _close_step(self, rec: StepRecord) -> None:
        self._open_steps.remove(rec)
        rec.end = self.now
        period = self._net.open_period()
        if period is not None:
            rec.transfers.append(period)
        self._steps.append(rec.summary())

    def metrics(self) -> dict[str, Any]:
        """JSON-serialisable run metrics with keys in sorted order (see docs/simulator.md)."""
        now = self.now
        net = self._net

        def frac(x: float) -> float:
            return x / now if now > 0 else 0.0

        devices = {}
        memory = {}
        for d in sorted(self._devices, key=lambda d: d.name):
            o = d.ordinal
            busy = self._busy_s[o] - max(0.0, self._busy_until[o] - now)
            devices[d.name] = {"busy_fraction": frac(busy), "busy_s": busy, "kernels": self._kernels[o]}
            memory[d.name] = {"capacity_bytes": d.memory, "in_use_bytes": self._mem.in_use[o],
                              "peak_bytes": self._mem.peak[o]}
        links = {}
        for ln in sorted(self.cluster.links, key=lambda ln: ln.name):
            i = ln.index
            busy = net.busy_until_now(i)
            links[ln.name] = {"busy_fraction": frac(busy), "busy_s": busy, "bytes": net.bytes[i],
                              "transfers": net.transfers[i]}
        return {
            "collectives": {k: self._collectives[k] for k in sorted(self._collectives)},
            "devices": devices,
            "events": self.events,
            "links": links,
            "memory": memory,
            "seed": self.seed,
            "simulated_time_s": now,
            "steps": [dict(st) for st in self._steps],
            "transfers": {"bytes": self._net.issued_bytes, "count": self._net.issued},
        }

    @property
    def events(self) -> int:
        """Events scheduled on the SimPy queue so far."""
        return self.clock.events

    # -- lifetime -------------------------------------------------------------------------------
    def close(self) -> None:
        """Flush and finish the trace (idempotent)."""
        if not self._closed:
            self._closed = True
            if self.trace is not None:
                self.trace.close()

    def __enter__(self) -> "Simulator":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __repr__(self) -> str:
        return f"Simulator({self.cluster!r}, seed={self.seed}, now={self.now!r})"
