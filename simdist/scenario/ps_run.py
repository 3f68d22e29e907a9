"""The parameter_server engine: a ParameterServerStrategy and its ClusterCoordinator on the
scenario's cluster, scheduling one function per training step, with checkpoints and the recovery
from ps failures (see `simdist.scenario.runner`).

`PSJob` is the job (cluster, strategy, coordinator, checkpoint I/O, the scheduling loop with its
recovery); what each step does is its workload's: `run_ps` schedules timing-only steps of a
FLOP-only model (`schedule_synthetic`), `simdist.scenario.train.ps` real training steps.
"""

from __future__ import annotations

import math
from typing import Any, Callable

from .build import build_cluster, cost_model
from .run_context import RunFailure, _Ctx, expand_variables, fault_plan

__all__ = ["PSJob", "run_ps", "partitioner"]

CHIEF_CPU = "/job:chief/replica:0/task:0/device:CPU:0"


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


def partitioner(tf: Any, p: dict | None) -> Any:
    """The scenario's strategy.partitioner as a tf.distribute partitioner (None: no partitioning)."""
    if not p or p["kind"] == "none":
        return None
    parts = tf.distribute.experimental.partitioners
    if p["kind"] == "fixed":
        return parts.FixedShardsPartitioner(num_shards=p["num_shards"])
    if p["kind"] == "min_size":
        return parts.MinSizePartitioner(min_shard_bytes=p["min_shard_bytes"], max_shards=p["max_shards"])
    return parts.MaxSizePartitioner(max_shard_bytes=p["max_shard_bytes"], max_shards=p.get("max_shards"))


class PSJob:
    """The simulated job: configure the session with the scenario's cluster and fault plan, join
    as the chief, make the strategy (`start` then makes the coordinator)."""

    def __init__(self, ctx: _Ctx, trace: Any) -> None:
        import simdist
        from simdist import session, tf

        self.ctx, self.tf = ctx, tf
        sc = ctx.sc
        plan = sc.plan
        self.nw, self.nps = plan["workers"], plan["ps"]
        cluster = build_cluster(sc)
        simdist.configure(cluster=cluster, seed=ctx.seed, trace=trace, faults=fault_plan(sc),
                          cost_model=cost_model(sc))
        session.set_local_task("chief", 0)
        self.sim = ctx.sim = session.simulator()
        spec = tf.train.ClusterSpec({"chief": ["chief0:2222"],
                                     "worker": [f"worker{i}:2222" for i in range(self.nw)],
                                     "ps": [f"ps{i}:2222" for i in range(self.nps)]})
        resolver = tf.distribute.cluster_resolver.SimpleClusterResolver(spec, rpc_layer="grpc")
        self.strategy = tf.distribute.experimental.ParameterServerStrategy(
            resolver, variable_partitioner=partitioner(tf, sc.config["strategy"].get("partitioner")))
        self.coord: Any = None

    def start(self, examples_per_step: int) -> Any:
        """Make the ClusterCoordinator (after the variables: its workers start at once)."""
        ctx = self.ctx
        self.coord = ctx.coord = self.tf.distribute.experimental.coordinator.ClusterCoordinator(self.strategy)
        ctx.parts["examples_per_step"] = examples_per_step
        ctx.parts["compute_devices"] = [f"/job:worker/replica:0/task:{w}/device:{ctx.sc.plan['worker_device']}"
                                        for w in range(self.nw)]
        return self.coord

    # -- checkpoints ----------------------------------------------------------------------------------
    def _storage(self, nbytes: float) -> Any:
        return self.sim.timeout(nbytes / self.ctx.sc.config["training"]["checkpoint_bandwidth"])

    def save_proc(self, moves: list[tuple[str, int, str]], state_bytes: float) -> Any:
        """Copy each (ps device, bytes, variable name) to the chief, then write the state to storage."""
        sim, ctx = self.sim, self.ctx
        t0 = sim.now
        transfers = [sim.transfer(d, CHIEF_CPU, b, f"checkpoint save {n}") for d, b, n in moves]
        if transfers:
            yield sim.all_of(transfers)
        yield self._storage(state_bytes)
        ctx.span("checkpoint save", "checkpoint", CHIEF_CPU, t0, sim.now)
        ctx.faults.append({"kind": "checkpoint", "target": CHIEF_CPU, "start": t0, "end": sim.now})

    def restore_proc(self, moves: list[tuple[str, int, str]], state_bytes: float) -> Any:
        """Read the state from storage, then copy each part back to its ps task."""
        sim, ctx = self.sim, self.ctx
        t0 = sim.now
        yield self._storage(state_bytes)
        transfers = [sim.transfer(CHIEF_CPU, d, b, f"checkpoint restore {n}") for d, b, n in moves]
        if transfers:
            yield sim.all_of(transfers)
        ctx.span("checkpoint restore", "checkpoint", CHIEF_CPU, t0, sim.now)
        ctx.faults.append({"kind": "restore", "target": CHIEF_CPU, "start": t0, "end": sim.now})

    # -- the loop -------------------------------------------------------------------------------------
    def run(self, schedule: Callable[[int], None], moves: list[tuple[str, int, str]], state_bytes: float,
            pause_at: Callable[[], int] | None = None, on_pause: Callable[[], None] | None = None,
            on_saved: Callable[[int], None] | None = None, on_restored: Callable[[int], None] | None = None) -> None:
        """Schedule ``training.steps`` functions (``schedule(k)``), in chunks of checkpoint_every
        with a checkpoint after each; on a ps failure with restore_checkpoint, wait for the ps,
        restore the last checkpoint and schedule again every step since. While joining, the
        simulation pauses when ``pause_at()`` functions have committed and calls ``on_pause()``
        (an observer: evaluations); ``on_saved(step)`` runs after a checkpoint, ``on_restored(step)``
        after a restore."""
        ctx, sim, coord, tf = self.ctx, self.sim, self.coord, self.tf
        cfg = ctx.sc.config
        tr = cfg["training"]
        fcfg = cfg.get("faults") or {}

        def completed() -> int:
            return int(coord.metrics()["closures"]["completed"])

        def join() -> None:
            if on_pause is not None:
                while True:   # an observer's pauses: progress is ticked at each
                    at = pause_at()
                    reached = coord.run_until(lambda: coord.commit_count() >= at)
                    if ctx.progress is not None:
                        ctx.tick(coord.commit_count() - state["ticked"])
                        state["ticked"] = coord.commit_count()
                    if not reached:
                        break
                    on_pause()
                coord.join()
                return
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

        state = {"ticked": 0}

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
                        sim.drive(self.save_proc(moves, state_bytes))
                    finally:
                        ckpt_time += sim.now - t0
                    coord.done()          # a ps that failed during the save makes the checkpoint invalid
                    ckpts += 1
                    last_ckpt = done + chunk
                    if on_saved is not None:
                        on_saved(last_ckpt)
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
                sim.drive(self.restore_proc(moves, state_bytes))
                ckpt_time += sim.now - t0
                rec_events.append({"failed_at": failed_at, "resumed_at": sim.now, "restored_step": last_ckpt,
                                   "lost_closures": lost})
                rec_doc["recoveries"] = len(rec_events)
                rec_doc["redone_closures"] += lost
                rec_doc["recovery_time_s"] += sim.now - failed_at
                ctx.parts["recovery"] = rec_doc
                done = last_ckpt
                ctx.parts["completed"] = done
                if on_restored is not None:
                    on_restored(last_ckpt)
                if len(rec_events) > 100:
                    raise RunFailure("more than 100 ps failures recovered in one run; giving up") from None
            ctx.parts["summary"].update({"checkpoints": ckpts, "checkpoint_time_s": ckpt_time})
        ctx.parts["summary"].update({"checkpoints": ckpts, "checkpoint_time_s": ckpt_time})


def run_ps(ctx: _Ctx, trace: Any) -> None:
    """A FLOP-only model under ParameterServerStrategy: shape-only variables (partitioned by the
    scenario's partitioner) and one `schedule_synthetic` closure per step (reads of every
    variable, FLOPs of the per-worker batch, writes of the trainable ones; embedding tables with
    ``rows_read_per_example`` move only the expected unique rows)."""
    job = PSJob(ctx, trace)
    sc, sim, strategy = ctx.sc, job.sim, job.strategy
    model, tr = sc.config["model"], sc.config["training"]
    variables = expand_variables(model)
    per_worker = model["global_batch"] // job.nw
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
    coord = job.start(per_worker)
    flops = model["flops_per_example"] * per_worker
    sigma = tr["compute_jitter"]
    jit = sim.rng("scenario/jitter") if sigma else None

    def schedule(k: int) -> None:
        f = flops * (float(jit.lognormal(0.0, sigma)) if jit is not None else 1.0)
        coord.schedule_synthetic(flops=f, reads=reads, writes=writes, name="train_step")

    moves = [(s.device, int(s.nbytes) * (1 + slots), s.name) for s in shards_all if s.nbytes]
    job.run(schedule, moves, state_bytes)
