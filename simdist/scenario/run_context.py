"""What a scenario run carries from its start to its metrics: the run context (`_Ctx`), its
result types, and what every engine derives from the scenario (the FLOP-only model's variables,
the replica devices, the fault plan, the fault windows drawn in plots)."""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any, Callable

from .build import static_degradations
from .loader import DTYPE_BYTES, Scenario

__all__ = ["RunFailure", "RunResult", "Var", "expand_variables", "replica_devices", "fault_plan", "fault_windows"]


class RunFailure(RuntimeError):
    """The simulated training could not complete (recorded as status "failed")."""


@dataclass
class RunResult:
    metrics: dict[str, Any]

    @property
    def digest(self) -> str:
        return self.metrics["digest"]

    @property
    def status(self) -> str:
        return self.metrics["status"]

    @property
    def error(self) -> str | None:
        return self.metrics["error"]


@dataclass
class Var:
    name: str
    shape: list[int]
    dtype: str
    trainable: bool
    rows_per_example: int

    @property
    def params(self) -> int:
        return math.prod(self.shape)

    @property
    def nbytes(self) -> int:
        return self.params * DTYPE_BYTES[self.dtype]


def expand_variables(model: dict) -> list[Var]:
    out = []
    for v in model["variables"]:
        names = [v["name"]] if v["count"] == 1 else [f"{v['name']}_{k}" for k in range(v["count"])]
        out += [Var(n, list(v["shape"]), v["dtype"], v["trainable"], v.get("rows_read_per_example", 0))
                for n in names]
    return out


def _simulation_errors() -> tuple[type, ...]:
    from simdist.runtime.errors import OpError
    from simdist.sim import SimulationStalled
    return (OpError, SimulationStalled, RunFailure)


class _Ctx:
    def __init__(self, sc: Scenario, seed: int, progress: Any, detail: Any = None) -> None:
        self.sc = sc
        self.seed = seed
        self.progress = progress
        self.detail = detail
        self.sim: Any = None
        self.faults: list[dict[str, Any]] = []
        self.parts: dict[str, Any] = {"summary": {}, "steps": None, "recovery": None}
        self.coord: Any = None
        self.variables: dict[str, Any] = {}   # name -> the run's variable (parameter_server: shape-only)
        self.training: Any = None             # train.record.TrainingRecord of a training model's run

    def tick(self, n: int = 1) -> None:
        if self.progress is not None:
            self.progress(n)

    def span(self, name: str, cat: str, device: str, start: float, end: float) -> None:
        """A span on a device's trace track (checkpoints, restores)."""
        if end > start:
            self.sim.trace_span(device, name, cat, start, end)


def _fault_windows(ctx: _Ctx, targets: list[str]) -> None:
    """Record stragglers and degraded links (known in advance) for the plot."""
    f = ctx.sc.config.get("faults") or {}
    for s in f.get("stragglers") or []:
        if s["worker"] < len(targets):
            ctx.faults.append({"kind": "straggler", "target": targets[s["worker"]], "start": s["start"],
                               "end": s["end"] if s.get("end") is not None else -1.0})
    for ln in f.get("links") or []:
        ctx.faults.append({"kind": "degraded_link", "target": ln["link"], "start": ln["start"],
                           "end": ln["end"] if ln.get("end") is not None else -1.0})


def _replica_devices(sc: Scenario) -> list[str]:
    """The synchronous strategy's replica devices, full names, in replica order."""
    if "replica_full" in sc.plan:   # mirrored over the hosts of a gpu_cluster
        return list(sc.plan["replica_full"])
    return [f"{sc.plan['host']}/device:{d}" for d in sc.plan["replica_devices"]]


def _process_workers(sc: Scenario, proc: dict) -> list[int] | None:
    """The workers of the preemption process: ``workers``, or the first round(worker_fraction x
    workers), or None (all)."""
    frac = proc.get("worker_fraction")
    if frac is None:
        return proc.get("workers")
    return list(range(int(math.floor(frac * sc.plan["workers"] + 0.5))))


def _fault_plan(sc: Scenario, replicas: list[str] | None = None) -> Any:
    """The scenario's faults as a FaultPlan. Stragglers name a worker task (parameter_server)
    or, given ``replicas``, a replica index (synchronous strategies): that replica's device.
    Link degradations that last the whole run are in the cluster already (build_cluster)."""
    from simdist import faults as F
    f = sc.config.get("faults") or {}
    static = static_degradations(sc)
    proc = f.get("preemption_process")
    return F.FaultPlan(
        preemptions=[F.Preemption(worker=p["worker"], at_time=p.get("at_time"), at_closure=p.get("at_closure"),
                                  downtime=p["downtime"]) for p in f.get("preemptions") or []],
        process=F.PreemptionProcess(mtbf=proc["mtbf"], downtime=proc["downtime"], workers=_process_workers(sc, proc),
                                    random_downtime=proc["random_downtime"], start=proc["start"]) if proc else None,
        ps_failures=[F.PSFailure(ps=p["ps"], at_time=p["at_time"], downtime=p.get("downtime"))
                     for p in f.get("ps_failures") or []],
        stragglers=[F.Straggler(worker=None if replicas is not None else s["worker"], slowdown=s["slowdown"],
                                start=s["start"], end=s.get("end"),
                                device=replicas[s["worker"]] if replicas is not None else None)
                    for s in f.get("stragglers") or []],
        links=[F.LinkDegradation(link=ln["link"], bandwidth_factor=ln["bandwidth_factor"],
                                 latency_factor=ln["latency_factor"], start=ln["start"], end=ln.get("end"))
               for ln in f.get("links") or [] if ln not in static],
    )


def sync_checkpoint(ctx: _Ctx, src: str, cpu: str, state_bytes: float, step: int) -> Any:
    """A synchronous run's checkpoint (a process to drive): copy the state from ``src`` to the
    host CPU, write it to storage at training.checkpoint_bandwidth; training waits."""
    sim = ctx.sim
    t0 = sim.now
    if src != cpu:
        yield sim.transfer(src, cpu, state_bytes, "checkpoint: copy to host")
    yield sim.timeout(state_bytes / ctx.sc.config["training"]["checkpoint_bandwidth"])
    ctx.span(f"checkpoint save (step {step})", "checkpoint", cpu, t0, sim.now)
    ctx.faults.append({"kind": "checkpoint", "target": cpu, "start": t0, "end": sim.now})


replica_devices = _replica_devices
fault_plan = _fault_plan
fault_windows = _fault_windows
