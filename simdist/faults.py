"""Fault plans: worker preemption, parameter-server failure, stragglers and degraded links.

Attach a plan with `simdist.configure(cluster=..., faults=FaultPlan(...), seed=...)`. Hardware
faults (stragglers, degraded links) are applied by the simulator itself (`apply_hardware`, when
the session builds it), so they hold for every strategy; worker preemptions and ps failures are
carried out by the ClusterCoordinator of a ParameterServerStrategy. Every random draw comes from
the run's root seed through a named stream, so a plan is deterministic. See docs/faults.md.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any, Sequence

from simdist.sim.units import parse_time


def _time(value: float | str | None, where: str, allow_none: bool = False) -> float | None:
    if value is None:
        if allow_none:
            return None
        raise ValueError(f"{where}: a time is required")
    t = parse_time(value, field=where)
    if not t >= 0 or math.isinf(t):
        raise ValueError(f"{where}: expected a finite time >= 0, got {value!r}")
    return t


def _index(value: int, where: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise ValueError(f"{where}: expected a task index >= 0, got {value!r}")
    return value


@dataclass(frozen=True)
class Preemption:
    """Worker `worker` goes down for `downtime` seconds, either at simulated time `at_time` or
    halfway through the compute of the `at_closure`-th function started cluster-wide (1-based)
    if it runs on that worker (else as soon as that worker next computes).

    `notice` (with `at_time` only): the platform's advance notice, the SIGTERM a
    `tf.distribute.experimental.PreemptionCheckpointHandler` watches for, delivered to the worker
    at `at_time - notice` (0: none, the worker is killed without warning). ParameterServerStrategy
    workers have no handler and ignore it (docs/faults.md)."""

    worker: int
    at_time: float | str | None = None
    at_closure: int | None = None
    downtime: float | str = 1.0
    notice: float | str = 0.0

    def __post_init__(self) -> None:
        _index(self.worker, "Preemption.worker")
        if (self.at_time is None) == (self.at_closure is None):
            raise ValueError(f"Preemption(worker={self.worker}): give exactly one of at_time or at_closure")
        if self.at_time is not None:
            object.__setattr__(self, "at_time", _time(self.at_time, "Preemption.at_time"))
        if self.at_closure is not None and (not isinstance(self.at_closure, int) or self.at_closure < 1):
            raise ValueError(f"Preemption.at_closure: expected an int >= 1, got {self.at_closure!r}")
        object.__setattr__(self, "downtime", _time(self.downtime, "Preemption.downtime"))
        notice = _time(self.notice, "Preemption.notice")
        if notice and self.at_time is None:
            raise ValueError(f"Preemption(worker={self.worker}): notice={self.notice!r} needs at_time (a notice is "
                             "delivered at at_time - notice)")
        if notice and notice > self.at_time:   # type: ignore[operator]
            raise ValueError(f"Preemption(worker={self.worker}): notice={self.notice!r} is longer than at_time="
                             f"{self.at_time!r}: the notice would come before the run starts")
        object.__setattr__(self, "notice", notice)


@dataclass(frozen=True)
class PreemptionProcess:
    """Random preemptions: each listed worker (None = all) runs for an exponential time with mean
    `mtbf`, then is down for `downtime` (fixed, or exponential with that mean if
    `random_downtime`), repeatedly. Draws come from the stream "faults/worker{i}"."""

    mtbf: float | str
    downtime: float | str
    workers: Sequence[int] | None = None
    random_downtime: bool = False
    start: float | str = 0.0

    def __post_init__(self) -> None:
        m = _time(self.mtbf, "PreemptionProcess.mtbf")
        if not m:
            raise ValueError("PreemptionProcess.mtbf: expected a time > 0")
        object.__setattr__(self, "mtbf", m)
        object.__setattr__(self, "downtime", _time(self.downtime, "PreemptionProcess.downtime"))
        object.__setattr__(self, "start", _time(self.start, "PreemptionProcess.start"))
        if self.workers is not None:
            object.__setattr__(self, "workers", tuple(_index(w, "PreemptionProcess.workers[]")
                                                      for w in self.workers))


@dataclass(frozen=True)
class PSFailure:
    """Parameter server `ps` fails at `at_time`: its variables' values are lost. It restarts
    after `downtime` (None: never) with uninitialised variables, until a checkpoint restore or
    an assign gives them values. The coordinator raises UnavailableError, as TF 2.21 does."""

    ps: int
    at_time: float | str
    downtime: float | str | None = None

    def __post_init__(self) -> None:
        _index(self.ps, "PSFailure.ps")
        object.__setattr__(self, "at_time", _time(self.at_time, "PSFailure.at_time"))
        object.__setattr__(self, "downtime", _time(self.downtime, "PSFailure.downtime", allow_none=True))


@dataclass(frozen=True)
class Straggler:
    """Kernels that start between `start` and `end` (None: forever) take `slowdown` times their
    FLOP time on every device of worker task `worker` (host /job:worker/replica:0/task:<worker>),
    or, with `worker=None`, on the device named `device` (e.g. "GPU:1" for a MirroredStrategy
    replica)."""

    worker: int | None
    slowdown: float
    start: float | str = 0.0
    end: float | str | None = None
    device: str | None = None

    def __post_init__(self) -> None:
        if (self.worker is None) == (self.device is None):
            raise ValueError(f"Straggler(worker={self.worker!r}, device={self.device!r}): give exactly one of "
                             "worker or device")
        if self.worker is not None:
            _index(self.worker, "Straggler.worker")
        elif not isinstance(self.device, str) or not self.device:
            raise ValueError(f"Straggler.device: expected a device name, got {self.device!r}")
        if not (isinstance(self.slowdown, (int, float)) and self.slowdown >= 1.0):
            raise ValueError(f"Straggler.slowdown: expected a factor >= 1, got {self.slowdown!r}")
        object.__setattr__(self, "start", _time(self.start, "Straggler.start"))
        object.__setattr__(self, "end", _time(self.end, "Straggler.end", allow_none=True))

    def devices(self, cluster: Any) -> list[Any]:
        """The simdist.sim Devices it slows in ``cluster`` (an error naming it if there are none)."""
        if self.device is not None:
            return [cluster.device(self.device)]
        for h in cluster.hosts:
            if h.job == "worker" and h.task == self.worker:
                return list(h.devices)
        raise ValueError(f"Straggler.worker={self.worker}: the cluster has no host /job:worker/replica:0/task:"
                         f"{self.worker}; configure a cluster with that worker (e.g. presets.cpu_cluster(jobs="
                         f"{{'worker': {self.worker + 1}, ...}})), or name a device with device=<name>")


@dataclass(frozen=True)
class LinkDegradation:
    """Link `link` (a name from the cluster, e.g. "/job:worker/replica:0/task:1/nic") runs at
    `bandwidth_factor` of its bandwidth and `latency_factor` times its latency between `start`
    and `end` (None: forever)."""

    link: str
    bandwidth_factor: float = 1.0
    latency_factor: float = 1.0
    start: float | str = 0.0
    end: float | str | None = None

    def __post_init__(self) -> None:
        if not (0 < self.bandwidth_factor):
            raise ValueError(f"LinkDegradation.bandwidth_factor: expected > 0, got {self.bandwidth_factor!r}")
        if not (self.latency_factor > 0):
            raise ValueError(f"LinkDegradation.latency_factor: expected > 0, got {self.latency_factor!r}")
        object.__setattr__(self, "start", _time(self.start, "LinkDegradation.start"))
        object.__setattr__(self, "end", _time(self.end, "LinkDegradation.end", allow_none=True))


@dataclass(frozen=True)
class FaultPlan:
    """Everything that goes wrong in a run."""

    preemptions: Sequence[Preemption] = field(default_factory=tuple)
    process: PreemptionProcess | None = None
    ps_failures: Sequence[PSFailure] = field(default_factory=tuple)
    stragglers: Sequence[Straggler] = field(default_factory=tuple)
    links: Sequence[LinkDegradation] = field(default_factory=tuple)

    def __post_init__(self) -> None:
        for name, kind in (("preemptions", Preemption), ("ps_failures", PSFailure), ("stragglers", Straggler),
                           ("links", LinkDegradation)):
            items = tuple(getattr(self, name))
            for i, it in enumerate(items):
                if not isinstance(it, kind):
                    raise TypeError(f"FaultPlan.{name}[{i}]: expected a {kind.__name__}, got {it!r}")
            object.__setattr__(self, name, items)

    def validate(self, num_workers: int, num_ps: int, link_names: Sequence[str] = ()) -> None:
        """Check task indices and link names against a cluster; errors name the offending entry."""
        for i, p in enumerate(self.preemptions):
            if p.worker >= num_workers:
                raise ValueError(f"FaultPlan.preemptions[{i}].worker={p.worker}: the cluster has {num_workers} "
                                 "workers")
        if self.process is not None and self.process.workers is not None:
            for w in self.process.workers:
                if w >= num_workers:
                    raise ValueError(f"FaultPlan.process.workers: worker {w} does not exist ({num_workers} workers)")
        for i, f in enumerate(self.ps_failures):
            if f.ps >= num_ps:
                raise ValueError(f"FaultPlan.ps_failures[{i}].ps={f.ps}: the cluster has {num_ps} ps tasks")
        for i, s in enumerate(self.stragglers):
            if s.worker is not None and s.worker >= num_workers:
                raise ValueError(f"FaultPlan.stragglers[{i}].worker={s.worker}: the cluster has {num_workers} "
                                 "workers")
        names = list(link_names)
        for i, ln in enumerate(self.links):
            if names and ln.link not in names:
                near = [n for n in names if ln.link.split("/")[-1] in n][:4]
                raise ValueError(f"FaultPlan.links[{i}].link={ln.link!r} is not a link of the cluster; e.g. "
                                 f"{near or names[:4]}")

    def hardware_targets(self, cluster: Any) -> tuple[list[list[Any]], list[Any]]:
        """The devices each straggler slows and the link each degradation names, in ``cluster``
        (a simdist.sim.Cluster); an error naming the entry if one does not exist there."""
        devs = []
        for i, s in enumerate(self.stragglers):
            try:
                devs.append(s.devices(cluster))
            except (KeyError, ValueError) as e:
                raise ValueError(f"FaultPlan.stragglers[{i}]: {e}") from None
        links = []
        for i, ln in enumerate(self.links):
            try:
                links.append(cluster.link(ln.link))
            except KeyError:
                names = [x.name for x in cluster.links]
                near = [n for n in names if ln.link.split("/")[-1] in n][:4]
                raise ValueError(f"FaultPlan.links[{i}].link={ln.link!r} is not a link of the cluster; e.g. "
                                 f"{near or names[:4]}") from None
        return devs, links

    def apply_hardware(self, sim: Any) -> None:
        """Hand the plan's stragglers and link degradations to ``sim`` (a simdist.sim.Simulator),
        which applies them to every kernel and transfer, whichever strategy issued it."""
        devs, links = self.hardware_targets(sim.cluster)
        for s, ds in zip(self.stragglers, devs):
            for d in ds:
                sim.slow_device(d, s.slowdown, s.start, s.end)
        for ln, link in zip(self.links, links):
            sim.degrade_link(link, ln.bandwidth_factor, ln.latency_factor, ln.start, ln.end)
