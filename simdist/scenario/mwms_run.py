"""The multi_worker_mirrored engine for FLOP-only models: MultiWorkerMirroredStrategy's training
step on N hosts x G GPUs in simulated time, under preemptions, checkpoints and restarts.

A step (as `sync_run` times mirrored): each host's CPU makes its replicas' share of the global
batch and copies it to them (prefetched one step ahead); forward+backward on every replica; the
gradient all-reduce across every replica of every host with the scenario's algorithm (ring,
hierarchical, nccl, ...); the update on every replica. The step's two phases (up to the
all-reduce, then the rest) are what `resilience.run_job` needs to stop the job at the collective
a lost worker never joins. A checkpoint copies the state (variables + optimizer slots) from the
chief's first GPU to its CPU and writes it at ``training.checkpoint_bandwidth``; a restore reads it
back at that bandwidth on every worker and copies it to each GPU. The job's state is its step
count (a FLOP-only model has no values): a restore must bring back exactly the saved count.
A step's figures are a `Costs` (`flop_costs`: the [model] table's); a training model's run
(train/mwms.py) reuses the job with its model's measured figures and real values.
"""

from __future__ import annotations

from typing import Any, Iterator

from simdist.sim.roofline import Kernel
from simdist.sim.sync_faults import PreemptionTimeline

from .resilience import policy_of, run_job
from .run_context import _Ctx, expand_variables, fault_plan, fault_windows, replica_devices, sync_checkpoint

__all__ = ["Costs", "flop_costs", "run_mwms", "worker_hosts"]


def worker_hosts(sc: Any) -> list[str]:
    """Each worker's host name, by worker (task) index."""
    return list(dict.fromkeys(d.split("/device:")[0] for d in replica_devices(sc)))


class Costs:
    """What one MWMS step and checkpoint cost: bytes all-reduced, checkpoint bytes, FLOPs per
    replica (forward+backward) and per device (update), input FLOPs and bytes per step."""

    def __init__(self, grad_bytes: float, state_bytes: float, fwd_bwd: float, update: float, in_flops: float,
                 in_bytes: float, mm_dtype: str, update_bytes: float, roofline: bool) -> None:
        self.grad_bytes, self.state_bytes, self.fwd_bwd, self.update = grad_bytes, state_bytes, fwd_bwd, update
        self.in_flops, self.in_bytes, self.mm_dtype, self.update_bytes = in_flops, in_bytes, mm_dtype, update_bytes
        self.roofline = roofline   # FLOPs are converted to roofline time (FLOP-only models' figures)


def flop_costs(sc: Any, n: int, roofline: bool) -> Costs:
    """The costs of a FLOP-only model's step over ``n`` replicas (its [model] figures)."""
    model = sc.config["model"]
    variables = expand_variables(model)
    var_bytes = sum(v.nbytes for v in variables)
    grad_bytes = sum(v.nbytes for v in variables if v.trainable)
    n_train = sum(v.params for v in variables if v.trainable)
    per_replica = model["global_batch"] // n
    mm_dtype = max(((v.nbytes, v.dtype) for v in variables if v.trainable), default=(0, "float32"))[1]
    return Costs(grad_bytes, var_bytes * (1 + model["optimizer_slots"]), model["flops_per_example"] * per_replica,
                 model["update_flops_per_param"] * n_train, model["input_flops_per_example"] * model["global_batch"],
                 model["example_bytes"] * per_replica, mm_dtype,
                 grad_bytes + 2 * grad_bytes * (1 + model["optimizer_slots"]), roofline)


class _FlopJob:
    def __init__(self, ctx: _Ctx, costs: Costs | None = None) -> None:
        sc, sim = ctx.sc, ctx.sim
        self.ctx, self.sim = ctx, sim
        plan = sc.plan
        self.devs = devs = replica_devices(sc)
        self.hosts = worker_hosts(sc)
        n = len(devs)
        self.tr = sc.config["training"]
        c = costs if costs is not None else flop_costs(sc, n, sim.cost_model == "roofline")
        self.grad_bytes, self.state_bytes, self.fwd_bwd = c.grad_bytes, c.state_bytes, c.fwd_bwd
        self.in_bytes = c.in_bytes
        self.algorithm = plan.get("all_reduce", "ring")
        self.feeders = plan["input_cpus"]
        self.share = {h: c.in_flops * self.feeders.count(h) / n for h in dict.fromkeys(self.feeders)}
        update = c.update
        kern = Kernel(update, c.update_bytes, "float32", "elementwise")
        mm_dtype = c.mm_dtype
        self.work = (lambda d, f: sim.kernel_flops(d, Kernel(f, 0.0, mm_dtype, "matmul"))) if c.roofline \
            else (lambda d, f: f)
        self.update_work = (lambda d: sim.kernel_flops(d, kern)) if c.roofline else (lambda d: update)
        self.sigma = self.tr.get("compute_jitter") or 0.0
        self.pending: Any = None
        self.step_count = 0
        self.timed = bool(sc.config["strategy"].get("timeout_seconds"))
        self.arrivals: list[float] = []   # (with a timeout) when each replica reached the last step's all-reduce
        for d in devs:
            sim.allocate(d, self.state_bytes + self.grad_bytes, "variables, optimizer slots and gradients")

    # -- one step ----------------------------------------------------------------------------------
    def _feed(self, h: str) -> Iterator[Any]:
        sim = self.sim
        if self.share[h]:
            yield sim.compute(h, self.share[h], "input pipeline")
        moves = [sim.transfer(h, d, self.in_bytes, "input", replica=i) for i, d in enumerate(self.devs)
                 if self.feeders[i] == h and self.in_bytes]
        if moves:
            yield sim.all_of(moves)

    def _input(self) -> Iterator[Any]:
        yield self.sim.all_of([self.sim.process(self._feed(h)) for h in self.share])

    def compute(self, k: int) -> Iterator[Any]:
        sim, devs = self.sim, self.devs
        if self.pending is None:
            self.pending = sim.process(self._input())
        yield self.pending
        self.pending = sim.process(self._input())   # the next step's input, prefetched
        n = len(devs)
        factors = [float(x) for x in sim.rng("scenario/jitter").lognormal(0.0, self.sigma, size=n)] \
            if self.sigma else [1.0] * n
        kernels = [sim.compute(d, self.work(d, self.fwd_bwd * factors[i]), "forward+backward", replica=i)
                   for i, d in enumerate(devs)]
        if not self.timed:
            yield sim.all_of(kernels)
            return
        self.arrivals = [0.0] * n

        def arrive(i: int, ev: Any) -> Iterator[Any]:
            yield ev
            self.arrivals[i] = sim.now
        yield sim.all_of([sim.process(arrive(i, ev)) for i, ev in enumerate(kernels)])

    def collective(self, k: int) -> Iterator[Any]:
        sim, devs = self.sim, self.devs
        if len(devs) > 1 and self.grad_bytes:
            yield sim.all_reduce(devs, self.grad_bytes, algorithm=self.algorithm, name="all-reduce gradients")
        yield sim.all_of([sim.compute(d, self.update_work(d), "apply gradients", replica=i)
                          for i, d in enumerate(devs)])

    def committed(self, k: int) -> None:
        self.step_count = k + 1
        self.ctx.parts["completed"] = self.step_count

    # -- state ------------------------------------------------------------------------------------
    def snapshot(self) -> int:
        return self.step_count

    def digest(self) -> str:
        return f"step {self.step_count}"

    def save(self, step: int) -> Iterator[Any]:
        yield from sync_checkpoint(self.ctx, self.devs[0], f"{self.hosts[0]}/device:CPU:0", self.state_bytes, step)

    def restore(self, step: int, snap: int) -> Iterator[Any]:
        sim = self.sim
        self.pending = None   # the restarted workers' input pipelines start afresh
        if step > 0:
            t0 = sim.now
            yield sim.timeout(self.state_bytes / self.tr["checkpoint_bandwidth"])
            moves = [sim.transfer(self.feeders[i], d, self.state_bytes, "checkpoint: restore to device", replica=i)
                     for i, d in enumerate(self.devs)]
            if moves:
                yield sim.all_of(moves)
            for h in self.hosts:
                self.ctx.span(f"checkpoint restore (step {step})", "checkpoint", f"{h}/device:CPU:0", t0, sim.now)
            self.ctx.faults.append({"kind": "restore", "target": f"{self.hosts[0]}/device:CPU:0", "start": t0,
                                    "end": sim.now})
        self.step_count = snap


def run_mwms(ctx: _Ctx) -> None:
    """Run a FLOP-only multi_worker_mirrored scenario (the session is configured, ctx.sim set)."""
    sc, sim = ctx.sc, ctx.sim
    job = _FlopJob(ctx)
    fault_windows(ctx, job.devs)
    policy = policy_of(sc.config)
    timeline = PreemptionTimeline(sim.rng, len(job.hosts), fault_plan(sc, job.devs), policy.grace)
    steps = sc.config["training"]["steps"]
    ctx.parts["examples_per_step"] = sc.config["model"]["global_batch"]
    ctx.parts["compute_devices"] = job.devs
    ctx.parts["completed"] = 0
    acct = run_job(ctx, job, steps, policy, timeline, into=ctx.parts["summary"])
    ctx.parts["summary"]["checkpoint_time_s"] = acct["time_checkpointing_s"]
