"""Run a validated scenario on the simulator and produce its metrics document.

Two engines, chosen by ``strategy.kind``:

- synchronous (one_device, mirrored, central_storage): the runner replays TF's training step
  on the simulator directly (timing only, no NumPy values): input pipeline on the host CPU
  (prefetched one step ahead) and copies to the replicas; forward+backward on every replica;
  then
    mirrored         an all-reduce of the gradients (ring or reduce-to-one) and the update on
                     every replica;
    central_storage  every replica reads the variables from the parameter device, computes,
                     sends its gradients back; the parameter device sums them and applies the
                     update (one_device: the same with one replica and no copies).
  Each step is a ``sim.step`` (its compute/communication/idle breakdown is in the metrics).
  Checkpoints copy the variables (+ optimizer slots) to the host CPU and write them to storage
  at ``training.checkpoint_bandwidth``; training waits.
- parameter_server: the tf.distribute facade in timing-only mode: a ParameterServerStrategy
  with shape-only variables (`extended.placeholder_variable`, partitioned by the scenario's
  partitioner), a ClusterCoordinator, and one `schedule_synthetic` closure per training step
  (reads of every variable, FLOPs of the per-worker batch, writes of the trainable ones;
  embedding tables with ``rows_read_per_example`` move only the expected unique rows). Faults
  run through `simdist.faults.FaultPlan`.

Recovery from a ps failure (``faults.recovery.on_ps_failure = "restore_checkpoint"``): the
coordinator raises UnavailableError; the runner keeps the same strategy and coordinator,
waits until the failed ps task is back (its ``downtime``) plus ``restart_delay``, restores the
last checkpoint (storage read, then copies to the ps tasks), and schedules again every step
since that checkpoint (the steps completed after it are counted as ``redone_closures``).

Every random draw comes from ``sim.rng(name)`` (root seed + name): "scenario/jitter" for
compute jitter, and the fault plan's own streams.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any, Callable

from .build import build_cluster, static_degradations
from .loader import DTYPE_BYTES, Scenario, loads
from .metrics import SCHEMA_ID, digest_of

__all__ = ["RunResult", "RunFailure", "run", "run_text", "determinism_probe", "expand_variables"]


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
    def __init__(self, sc: Scenario, seed: int, progress: Any) -> None:
        self.sc = sc
        self.seed = seed
        self.progress = progress
        self.sim: Any = None
        self.faults: list[dict[str, Any]] = []
        self.parts: dict[str, Any] = {"summary": {}, "steps": None, "recovery": None}
        self.coord: Any = None
        self.variables: dict[str, Any] = {}   # name -> the run's variable (parameter_server: shape-only)

    def tick(self, n: int = 1) -> None:
        if self.progress is not None:
            self.progress(n)

    def span(self, name: str, cat: str, device: str, start: float, end: float) -> None:
        """A span on a device's trace track (checkpoints, restores): pid = host index + 1, tid = 1 +
        the device's position in its host (the trace layout documented in simdist.sim.trace)."""
        tr = self.sim.trace
        if tr is None or end <= start:
            return
        d = self.sim.cluster.device(device)
        tr.complete(name, cat, start, end - start, d.host.index + 1, d.host.devices.index(d) + 1)


def run(sc: Scenario, seed: int | None = None, *, trace: Any = None,
        progress: Callable[[int], None] | None = None,
        observe: Callable[[Any, dict[str, Any]], None] | None = None) -> RunResult:
    """Run ``sc`` with ``seed`` (default: the scenario's). ``trace``: None, a path or a text file
    object for the Chrome trace. ``progress(n)`` is called as steps complete. Errors of the
    simulated program (out of memory, an unrecovered ps failure, a deadlock) end the run with
    status "failed"; the metrics then describe the run up to the failure. ``observe(ctx,
    metrics)`` is called once the metrics are made, before the simulation is torn down (``ctx``
    has ``coord``, the ClusterCoordinator or None, and ``variables``): for audits such as
    simdist explore's; it must not change anything."""
    import simdist
    from simdist import session

    seed = sc.seed if seed is None else int(seed)
    ctx = _Ctx(sc, seed, progress)
    status, error = "ok", None
    try:
        try:
            if sc.strategy == "parameter_server":
                _run_ps(ctx, trace)
            else:
                cluster = build_cluster(sc)
                simdist.configure(cluster=cluster, seed=seed, trace=trace)
                ctx.sim = session.simulator()
                _run_sync(ctx)
        except _simulation_errors() as e:
            status, error = "failed", f"{type(e).__name__}: {e}"
            if ctx.sim is None:
                raise
        metrics = _assemble(ctx, status, error)
        if observe is not None:
            observe(ctx, metrics)
    finally:
        if ctx.sim is not None:
            ctx.sim.close()
        simdist.reset()
    return RunResult(metrics)


def run_text(text: str, file: str, overrides: list, seed: int | None, trace: Any = None) -> RunResult:
    return run(loads(text, file, overrides), seed, trace=trace)


def determinism_probe(text: str, file: str, overrides: list, seed: int) -> bytes:
    """What --check-determinism compares: the metrics document and the trace, as bytes
    (module-level so that check_determinism can rerun it in a fresh interpreter)."""
    import io
    buf = io.StringIO()
    res = run(loads(text, file, overrides), seed, trace=buf)
    from .metrics import canonical
    return canonical(res.metrics).encode("utf-8") + b"\n--trace--\n" + buf.getvalue().encode("utf-8")


# ------------------------------------------------------------------------------------------ synchronous
def _jitter(ctx: _Ctx, n: int) -> list[float]:
    sigma = ctx.sc.config["training"]["compute_jitter"]
    if not sigma:
        return [1.0] * n
    return [float(x) for x in ctx.sim.rng("scenario/jitter").lognormal(0.0, sigma, size=n)]


def _straggle(ctx: _Ctx, i: int, t: float) -> float:
    f = 1.0
    for s in (ctx.sc.config.get("faults") or {}).get("stragglers") or []:
        if s["worker"] == i and s["start"] <= t and (s.get("end") is None or t < s["end"]):
            f *= s["slowdown"]
    return f


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


def _windowed_links(ctx: _Ctx) -> None:
    f = ctx.sc.config.get("faults") or {}
    static = static_degradations(ctx.sc)
    dyn = [ln for ln in f.get("links") or [] if ln not in static]
    if not dyn:
        return
    sim = ctx.sim
    set_link = getattr(sim, "set_link", None)
    if set_link is None:
        raise RunFailure("a link degradation with a start or end time needs Simulator.set_link, which this "
                         "simdist.sim does not have; use start = 0 and no end")

    def proc(ln: dict) -> Any:
        link = sim.cluster.link(ln["link"])
        bw, lat = link.bandwidth, link.latency
        yield sim.env.timeout(max(0.0, ln["start"] - sim.now))
        set_link(ln["link"], bandwidth=bw * ln["bandwidth_factor"], latency=lat * ln["latency_factor"])
        if ln.get("end") is not None:
            yield sim.env.timeout(max(0.0, ln["end"] - sim.now))
            set_link(ln["link"], bandwidth=bw, latency=lat)

    for ln in dyn:
        sim.process(proc(ln))


def _run_sync(ctx: _Ctx) -> None:
    sc, sim = ctx.sc, ctx.sim
    cfg, plan, kind = sc.config, sc.plan, sc.strategy
    host = plan["host"]

    def full(d: str) -> str:
        return f"{host}/device:{d}"

    devs = [full(d) for d in plan["replica_devices"]]
    n = len(devs)
    cpu = full("CPU:0")
    model, tr = cfg["model"], cfg["training"]
    variables = expand_variables(model)
    var_bytes = sum(v.nbytes for v in variables)
    grad_bytes = sum(v.nbytes for v in variables if v.trainable)
    n_train = sum(v.params for v in variables if v.trainable)
    slots = model["optimizer_slots"]
    per_replica = model["global_batch"] // n
    fwd_bwd = model["flops_per_example"] * per_replica
    update = model["update_flops_per_param"] * n_train
    in_flops = model["input_flops_per_example"] * model["global_batch"]
    in_bytes = model["example_bytes"] * per_replica
    algorithm = plan.get("all_reduce", "ring")
    pd = full(plan["parameter_device"]) if kind != "mirrored" else None
    steps = tr["steps"]
    every = tr["checkpoint_every"]
    state_bytes = var_bytes * (1 + slots)

    _fault_windows(ctx, devs)
    _windowed_links(ctx)

    # memory: variables (+ optimizer slots) where they live, gradients (and variable copies) on replicas
    if kind == "mirrored":
        for d in devs:
            sim.allocate(d, state_bytes + grad_bytes, "variables, optimizer slots and gradients")
    else:
        assert pd is not None
        sim.allocate(pd, state_bytes, "variables and optimizer slots")
        for d in devs:
            sim.allocate(d, grad_bytes + (var_bytes if d != pd else 0), "gradients and variable copies")

    def input_proc() -> Any:
        if in_flops:
            yield sim.compute(cpu, in_flops, "input pipeline")
        moves = [sim.transfer(cpu, d, in_bytes, "input", replica=i) for i, d in enumerate(devs)
                 if d != cpu and in_bytes]
        if moves:
            yield sim.all_of(moves)

    pending = [sim.process(input_proc())]

    def step_proc(k: int) -> Any:
        yield pending[0]
        pending[0] = sim.process(input_proc()) if k + 1 < steps else None
        t = sim.now
        jit = _jitter(ctx, n)
        factors = [jit[i] * _straggle(ctx, i, t) for i in range(n)]
        if kind == "mirrored":
            yield sim.all_of([sim.compute(d, fwd_bwd * factors[i], "forward+backward", replica=i)
                              for i, d in enumerate(devs)])
            if n > 1 and grad_bytes:
                yield sim.all_reduce(devs, grad_bytes, algorithm=algorithm, name="all-reduce gradients")
            yield sim.all_of([sim.compute(d, update, "apply gradients", replica=i) for i, d in enumerate(devs)])
        else:
            reads = [sim.transfer(pd, d, var_bytes, "read variables", replica=i) for i, d in enumerate(devs)
                     if d != pd and var_bytes]
            if reads:
                yield sim.all_of(reads)
            yield sim.all_of([sim.compute(d, fwd_bwd * factors[i], "forward+backward", replica=i)
                              for i, d in enumerate(devs)])
            grads = [sim.transfer(d, pd, grad_bytes, "gradients", replica=i) for i, d in enumerate(devs)
                     if d != pd and grad_bytes]
            if grads:
                yield sim.all_of(grads)
            yield sim.compute(pd, (n - 1) * n_train + update, "aggregate and apply gradients")

    def checkpoint_proc(step: int) -> Any:
        t0 = sim.now
        src = devs[0] if kind == "mirrored" else pd
        if src != cpu:
            yield sim.transfer(src, cpu, state_bytes, "checkpoint: copy to host")
        yield sim.timeout(state_bytes / tr["checkpoint_bandwidth"])
        ctx.span(f"checkpoint save (step {step})", "checkpoint", cpu, t0, sim.now)
        ctx.faults.append({"kind": "checkpoint", "target": cpu, "start": t0, "end": sim.now})

    ckpts = 0
    ckpt_time = 0.0
    for k in range(steps):
        with sim.step(f"step {k}"):
            sim.drive(step_proc(k))
        ctx.tick()
        if every and (k + 1) % every == 0:
            t0 = sim.now
            sim.drive(checkpoint_proc(k + 1))
            ckpts += 1
            ckpt_time += sim.now - t0
    ctx.parts["summary"].update({"checkpoints": ckpts, "checkpoint_time_s": ckpt_time})
    ctx.parts["completed"] = steps
    ctx.parts["examples_per_step"] = model["global_batch"]
    ctx.parts["compute_devices"] = devs


# ------------------------------------------------------------------------------------------ parameter server
class _RowSlice:
    """The rows of one ps variable (shard) that a closure reads or writes (sparse embedding
    lookups): the variable itself for placement and faults, with fewer bytes."""

    __slots__ = ("_var", "nbytes")

    def __init__(self, var: Any, nbytes: int) -> None:
        self._var = var
        self.nbytes = nbytes

    def __getattr__(self, name: str) -> Any:
        return getattr(self._var, name)


def _unique_rows(total_rows: int, lookups: int) -> float:
    """Expected distinct rows hit by ``lookups`` uniform draws from ``total_rows`` rows."""
    if total_rows <= 0 or lookups <= 0:
        return 0.0
    return total_rows * -math.expm1(lookups * math.log1p(-1.0 / total_rows)) if total_rows > 1 else 1.0


def _partitioner(tf: Any, p: dict | None) -> Any:
    if not p or p["kind"] == "none":
        return None
    parts = tf.distribute.experimental.partitioners
    if p["kind"] == "fixed":
        return parts.FixedShardsPartitioner(num_shards=p["num_shards"])
    if p["kind"] == "min_size":
        return parts.MinSizePartitioner(min_shard_bytes=p["min_shard_bytes"], max_shards=p["max_shards"])
    return parts.MaxSizePartitioner(max_shard_bytes=p["max_shard_bytes"], max_shards=p.get("max_shards"))


def _fault_plan(sc: Scenario) -> Any:
    from simdist import faults as F
    f = sc.config.get("faults") or {}
    static = static_degradations(sc)
    proc = f.get("preemption_process")
    return F.FaultPlan(
        preemptions=[F.Preemption(worker=p["worker"], at_time=p.get("at_time"), at_closure=p.get("at_closure"),
                                  downtime=p["downtime"]) for p in f.get("preemptions") or []],
        process=F.PreemptionProcess(mtbf=proc["mtbf"], downtime=proc["downtime"], workers=proc.get("workers"),
                                    random_downtime=proc["random_downtime"], start=proc["start"]) if proc else None,
        ps_failures=[F.PSFailure(ps=p["ps"], at_time=p["at_time"], downtime=p.get("downtime"))
                     for p in f.get("ps_failures") or []],
        stragglers=[F.Straggler(worker=s["worker"], slowdown=s["slowdown"], start=s["start"], end=s.get("end"))
                    for s in f.get("stragglers") or []],
        links=[F.LinkDegradation(link=ln["link"], bandwidth_factor=ln["bandwidth_factor"],
                                 latency_factor=ln["latency_factor"], start=ln["start"], end=ln.get("end"))
               for ln in f.get("links") or [] if ln not in static],
    )


def _watch_downtime(ctx: _Ctx, coord: Any) -> None:
    """Record worker downtime windows for the plot. Stopgap: wraps the coordinator's (private)
    `_go_down` on this instance until the coordinator reports its preemption events itself."""
    orig = getattr(coord, "_go_down", None)
    if orig is None:
        return
    sim = ctx.sim

    def go_down(w: int, downtime: float) -> Any:
        rec = None
        if not coord._down[w]:
            # open until the worker is back (a window still open when the run ends closes at its end)
            rec = {"kind": "preemption", "target": f"/job:worker/replica:0/task:{w}", "start": sim.now, "end": -1.0}
            ctx.faults.append(rec)
        try:
            yield from orig(w, downtime)
        finally:
            if rec is not None:
                rec["end"] = sim.now

    coord._go_down = go_down


def _run_ps(ctx: _Ctx, trace: Any) -> None:
    import simdist
    from simdist import session, tf

    sc = ctx.sc
    cfg, plan = sc.config, sc.plan
    nw, nps = plan["workers"], plan["ps"]
    model, tr = cfg["model"], cfg["training"]
    fcfg = cfg.get("faults") or {}
    cluster = build_cluster(sc)
    simdist.configure(cluster=cluster, seed=ctx.seed, trace=trace, faults=_fault_plan(sc))
    session.set_local_task("chief", 0)
    sim = ctx.sim = session.simulator()
    spec = tf.train.ClusterSpec({"chief": ["chief0:2222"], "worker": [f"worker{i}:2222" for i in range(nw)],
                                 "ps": [f"ps{i}:2222" for i in range(nps)]})
    resolver = tf.distribute.cluster_resolver.SimpleClusterResolver(spec, rpc_layer="grpc")
    strategy = tf.distribute.experimental.ParameterServerStrategy(
        resolver, variable_partitioner=_partitioner(tf, cfg["strategy"].get("partitioner")))
    variables = expand_variables(model)
    per_worker = model["global_batch"] // nw
    with strategy.scope():
        made = [(v, strategy.extended.placeholder_variable(name=v.name, shape=v.shape, dtype=v.dtype))
                for v in variables]
    ctx.variables = {v.name: pv for v, pv in made}
    reads: list[Any] = []
    writes: list[Any] = []
    shards_all: list[Any] = []
    for v, pv in made:
        shards = list(getattr(pv, "variables", None) or [pv])
        shards_all += shards
        for s in shards:
            if v.rows_per_example:
                rows = int(s.shape[0])
                row_bytes = s.nbytes // max(rows, 1)
                frac = rows / v.shape[0]
                nbytes = int(math.ceil(_unique_rows(rows, int(round(v.rows_per_example * per_worker * frac)))
                                       * row_bytes))
                item: Any = _RowSlice(s, nbytes)
            else:
                item = s
            reads.append(item)
            if v.trainable:
                writes.append(item)
    slots = model["optimizer_slots"]
    state_bytes = sum(int(s.nbytes) for s in shards_all) * (1 + slots)
    coord = ctx.coord = tf.distribute.experimental.coordinator.ClusterCoordinator(strategy)
    _watch_downtime(ctx, coord)
    ctx.parts["examples_per_step"] = per_worker
    ctx.parts["compute_devices"] = [f"/job:worker/replica:0/task:{w}/device:{plan['worker_device']}"
                                    for w in range(nw)]
    chief_cpu = "/job:chief/replica:0/task:0/device:CPU:0"
    flops = model["flops_per_example"] * per_worker
    sigma = tr["compute_jitter"]
    jit = sim.rng("scenario/jitter") if sigma else None

    def schedule(k: int) -> None:
        f = flops * (float(jit.lognormal(0.0, sigma)) if jit is not None else 1.0)
        coord.schedule_synthetic(flops=f, reads=reads, writes=writes, name="train_step")

    def storage(nbytes: float) -> Any:
        return sim.timeout(nbytes / tr["checkpoint_bandwidth"])

    def save_proc() -> Any:
        t0 = sim.now
        moves = [sim.transfer(s.device, chief_cpu, int(s.nbytes) * (1 + slots), f"checkpoint save {s.name}")
                 for s in shards_all if s.nbytes]
        if moves:
            yield sim.all_of(moves)
        yield storage(state_bytes)
        ctx.span("checkpoint save", "checkpoint", chief_cpu, t0, sim.now)
        ctx.faults.append({"kind": "checkpoint", "target": chief_cpu, "start": t0, "end": sim.now})

    def restore_proc() -> Any:
        t0 = sim.now
        yield storage(state_bytes)
        moves = [sim.transfer(chief_cpu, s.device, int(s.nbytes) * (1 + slots), f"checkpoint restore {s.name}")
                 for s in shards_all if s.nbytes]
        if moves:
            yield sim.all_of(moves)
        ctx.span("checkpoint restore", "checkpoint", chief_cpu, t0, sim.now)
        ctx.faults.append({"kind": "restore", "target": chief_cpu, "start": t0, "end": sim.now})

    def completed() -> int:
        return int(coord.metrics()["closures"]["completed"])

    def join() -> None:
        if ctx.progress is None:
            coord.join()
            return
        last = completed()
        events = 0
        while not coord.done():
            events += 1
            if events % 512 == 0:
                now = completed()
                if now > last:
                    ctx.tick(now - last)
                    last = now
        coord.join()
        now = completed()
        if now > last:
            ctx.tick(now - last)

    ps_failures = fcfg.get("ps_failures") or []
    for p in ps_failures:
        ctx.faults.append({"kind": "ps_failure", "target": f"/job:ps/replica:0/task:{p['ps']}",
                           "start": p["at_time"],
                           "end": p["at_time"] + p["downtime"] if p.get("downtime") is not None else -1.0})
    rec = fcfg.get("recovery") or {}
    restore = rec.get("on_ps_failure") == "restore_checkpoint"
    unavailable = tf.errors.UnavailableError
    target = tr["steps"]
    every = tr["checkpoint_every"]
    done = last_ckpt = 0
    ckpts = 0
    ckpt_time = 0.0
    rec_events: list[dict[str, Any]] = []
    rec_doc = {"recoveries": 0, "redone_closures": 0, "recovery_time_s": 0.0, "events": rec_events}
    if restore:
        ctx.parts["recovery"] = rec_doc
    ctx.parts["completed"] = 0
    while done < target:
        chunk = min(every, target - done) if every else target - done
        before = completed()
        try:
            for k in range(chunk):
                schedule(done + k)
            join()
            if every and (done + chunk) % every == 0:
                t0 = sim.now
                try:
                    sim.drive(save_proc())
                finally:
                    ckpt_time += sim.now - t0
                coord.done()          # a ps that failed during the save makes the checkpoint invalid
                ckpts += 1
                last_ckpt = done + chunk
            done += chunk
            ctx.parts["completed"] = done
        except unavailable:
            if not restore:
                raise
            noticed = sim.now
            happened = [p["at_time"] for p in ps_failures if p["at_time"] <= noticed + 1e-12]
            failed_at = max(happened) if happened else noticed
            lost = completed() - before + (done - last_ckpt)
            back = [p["at_time"] + p["downtime"] for p in ps_failures if p["at_time"] <= noticed + 1e-12]
            wait = max([b - sim.now for b in back] + [0.0]) + rec.get("restart_delay", 0.0)
            if wait > 0:
                sim.drive(sim.timeout(wait))
            t0 = sim.now
            sim.drive(restore_proc())
            ckpt_time += sim.now - t0
            rec_events.append({"failed_at": failed_at, "resumed_at": sim.now, "restored_step": last_ckpt,
                               "lost_closures": lost})
            rec_doc["recoveries"] = len(rec_events)
            rec_doc["redone_closures"] += lost
            rec_doc["recovery_time_s"] += sim.now - failed_at
            ctx.parts["recovery"] = rec_doc
            done = last_ckpt
            ctx.parts["completed"] = done
            if len(rec_events) > 100:
                raise RunFailure("more than 100 ps failures recovered in one run; giving up") from None
        ctx.parts["summary"].update({"checkpoints": ckpts, "checkpoint_time_s": ckpt_time})
    ctx.parts["summary"].update({"checkpoints": ckpts, "checkpoint_time_s": ckpt_time})


# ------------------------------------------------------------------------------------------ metrics
def _quantile(sorted_xs: list[float], q: float) -> float:
    if not sorted_xs:
        return 0.0
    pos = q * (len(sorted_xs) - 1)
    lo = int(math.floor(pos))
    hi = min(lo + 1, len(sorted_xs) - 1)
    return sorted_xs[lo] + (sorted_xs[hi] - sorted_xs[lo]) * (pos - lo)


def _assemble(ctx: _Ctx, status: str, error: str | None) -> dict[str, Any]:
    sc, sim = ctx.sc, ctx.sim
    sm = sim.metrics()
    now = sm["simulated_time_s"]
    parts = ctx.parts
    summary: dict[str, Any] = {"simulated_time_s": now}
    completed = int(parts.get("completed", 0))
    if status != "ok" and sc.strategy != "parameter_server":
        completed = len(sm["steps"])
    summary["steps_completed"] = completed
    summary["examples_per_s"] = completed * parts.get("examples_per_step", 0) / now if now > 0 else 0.0
    steps_doc = None
    if sc.strategy != "parameter_server":
        steps = sm["steps"]
        times = sorted(s["end"] - s["start"] for s in steps)
        comp = sum(s["compute_s"] for s in steps)
        comm = sum(s["communication_s"] for s in steps)
        idle = sum(s["idle_s"] for s in steps)
        total = sum(times)
        steps_doc = {"count": len(steps), "compute_s": comp, "communication_s": comm, "idle_s": idle,
                     "time_s": {"mean": total / len(times) if times else 0.0, "p50": _quantile(times, 0.5),
                                "p95": _quantile(times, 0.95), "max": times[-1] if times else 0.0}}
        summary.update({"step_time_mean_s": steps_doc["time_s"]["mean"], "step_time_p50_s": steps_doc["time_s"]["p50"],
                        "step_time_p95_s": steps_doc["time_s"]["p95"], "step_time_max_s": steps_doc["time_s"]["max"],
                        "compute_fraction": comp / total if total else 0.0,
                        "communication_fraction": comm / total if total else 0.0,
                        "idle_fraction": idle / total if total else 0.0})
    devices = {name: {"busy_fraction": d["busy_fraction"], "busy_s": d["busy_s"], "kernels": d["kernels"],
                      "peak_memory_bytes": sm["memory"][name]["peak_bytes"]} for name, d in sm["devices"].items()}
    compute = parts.get("compute_devices") or []
    busy = [devices[d]["busy_fraction"] for d in compute if d in devices]
    summary["device_busy_mean"] = sum(busy) / len(busy) if busy else 0.0
    summary["device_busy_min"] = min(busy) if busy else 0.0
    links = {name: {"busy_fraction": ln["busy_fraction"], "busy_s": ln["busy_s"], "bytes": ln["bytes"],
                    "transfers": ln["transfers"]} for name, ln in sm["links"].items()}
    summary["link_busy_max"] = max((ln["busy_fraction"] for ln in links.values()), default=0.0)
    summary["bytes_transferred"] = sm["transfers"]["bytes"]
    summary["peak_memory_bytes"] = max((d["peak_memory_bytes"] for d in devices.values()), default=0)
    summary.update(parts["summary"])
    cm = ctx.coord.metrics() if ctx.coord is not None else None
    if cm is not None:
        summary.update({"closures_scheduled": cm["closures"]["scheduled"],
                        "closures_completed": cm["closures"]["completed"],
                        "closures_failed": cm["closures"]["failed"],
                        "closures_cancelled": cm["closures"]["cancelled"],
                        "retries": cm["retries"], "preemptions": cm["preemptions"], "lost_work_s": cm["lost_work_s"],
                        "worker_downtime_s": cm["worker_downtime_s"], "ps_bytes": cm["ps_bytes"],
                        "ps_failures": cm["ps_failures"]})
    rec = parts.get("recovery")
    if rec is not None:
        summary.update({"recoveries": rec["recoveries"], "redone_closures": rec["redone_closures"],
                        "recovery_time_s": rec["recovery_time_s"]})
    for k, v in list(summary.items()):
        if isinstance(v, float) and v.is_integer() and k in ("steps_completed", "checkpoints"):
            summary[k] = int(v)
    faults = []
    for f in sorted(ctx.faults, key=lambda f: (f["start"], f["kind"], f["target"])):
        end = f["end"] if f["end"] >= 0 else now
        faults.append({"kind": f["kind"], "target": f["target"], "start": f["start"], "end": max(end, f["start"])})
    doc = {
        "schema": SCHEMA_ID,
        "scenario": {"name": sc.name, "digest": sc.digest, "strategy": sc.strategy,
                     "overrides": {p: v for p, v in sc.overrides}},
        "seed": ctx.seed,
        "status": status,
        "error": error,
        "summary": {k: summary[k] for k in sorted(summary)},
        "steps": steps_doc,
        "coordinator": cm,
        "recovery": rec,
        "devices": devices,
        "links": links,
        "collectives": sm["collectives"],
        "transfers": sm["transfers"],
        "events": sm["events"],
        "faults": faults,
    }
    doc["digest"] = digest_of(doc)
    return doc
