"""A synchronous multi-worker job under preemptions: its steps, checkpoints, stops and restarts.

The driver (`run_job`) runs a `SyncJob` step by step on the simulator and applies the scenario's
checkpoint and restart policies (`Policy`) against the preemption notices of a
`simdist.sim.sync_faults.PreemptionTimeline`. The rules (docs/faults.md, "Synchronous jobs"):

- A step is two phases: up to its gradient all-reduce (input, forward and backward), then the
  all-reduce and the update. A worker killed before the end of a phase stops the job at the end
  of that phase: its peers wait at the collective it never joins (phase 1), or the collective it
  was part of fails (phase 2). The job stops ``detection`` seconds later (the coordination
  service's heartbeat), or ``timeout`` seconds later when that is shorter (the collective's
  ``timeout_seconds``). The step is not applied.
- Collective timeout (``timeout`` > 0, clause mwms.collective-timeout): a step whose last
  replica reaches the gradient all-reduce more than ``timeout`` after the first (a straggler)
  fails on every worker when the late one arrives; the step is not applied and the job
  restarts as after a loss (``collective_timeouts`` counts them). The all-reduce's own duration
  is not counted against the timeout here (launched programs count it).
- Checkpoints: after every ``every`` steps and/or when ``interval`` simulated seconds passed
  since the last checkpoint (or the job's (re)start), the state after the step is saved (the
  job's ``save`` charges its cost). A worker killed during a save loses that save.
- Grace period (``grace`` > 0, TF's PreemptionCheckpointHandler with a TerminationConfig): a
  notice that arrives during a step makes the job save after that step, then exit; if the kill
  comes after the save ended, the job restarts from it and loses no step.
- Restart: ``workers = "all"``: the cluster manager restarts every worker once the lost
  worker's replacement is ready: the job resumes ``delay`` after max(stop, replacement ready);
  ``"lost"``: it restarts only the lost worker, on its replacement: the job resumes at
  max(stop, replacement ready + delay). Workers lost during a restart extend it (under "all" the
  restart starts over after the latest kill). Then every worker restores the last checkpoint
  (the job's ``restore`` charges it; none before the first checkpoint: the job starts from its
  initial state, as TF's CheckpointManager finds nothing to restore). More than
  ``max_restarts`` restarts fail the run.

Accounting (summary metrics): ``restarts``, ``preemptions`` (notices), ``steps_redone`` (applied
steps a restart rolled back), ``steps_applied`` (every application, redone ones included),
``time_lost_restart_s`` (for each restart: from the moment the state was last the checkpoint's to
the end of the restore), ``time_checkpointing_s`` (saves that completed), ``checkpoints``,
``preemption_checkpoints`` and ``restore_mismatches`` (restores whose state differs from the saved
one: 0 unless simdist is wrong). The run's simulated time is the applied steps it kept +
``time_checkpointing_s`` + ``time_lost_restart_s``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Iterator, Protocol

from .run_context import RunFailure, _Ctx

__all__ = ["Policy", "SyncJob", "policy_of", "run_job"]


@dataclass(frozen=True)
class Policy:
    every: int            # checkpoint every N steps (0: not by steps)
    interval: float       # checkpoint every T simulated seconds (0: not by time)
    grace: float          # preemption notice to kill; > 0: save on notice (PreemptionCheckpointHandler)
    delay: float          # platform restart delay
    workers: str          # "all" | "lost"
    max_restarts: int
    detection: float      # from a worker's loss to the job stopping
    timeout: float = 0.0  # CommunicationOptions(timeout_seconds) of the gradient all-reduce (0: none)


def policy_of(config: dict[str, Any]) -> Policy:
    """The checkpoint and restart policy of a validated multi_worker_mirrored scenario."""
    tr = config["training"]
    rs = config["strategy"].get("restart") or {}
    return Policy(every=int(tr["checkpoint_every"]), interval=float(tr.get("checkpoint_interval") or 0.0),
                  grace=float(tr.get("grace_period") or 0.0), delay=float(rs.get("delay", 0.0)),
                  workers=rs.get("workers", "all"), max_restarts=int(rs.get("max_restarts", 100)),
                  detection=float(rs.get("detection", 0.0)),
                  timeout=float(config["strategy"].get("timeout_seconds") or 0.0))


class SyncJob(Protocol):
    """What the driver needs of a job: its step's two phases, its state, saving and restoring it."""

    def compute(self, k: int) -> Iterator[Any]: ...       # step k up to its collective (a process)
    arrivals: list[float]                                  # when each replica reached step k's collective
    def collective(self, k: int) -> Iterator[Any]: ...    # the collective and the update of step k
    def committed(self, k: int) -> None: ...               # step k (0-based) applied: record it
    def snapshot(self) -> Any: ...                         # an exact copy of the state
    def digest(self) -> str: ...                           # a digest of the current state
    def save(self, step: int) -> Iterator[Any]: ...       # write the checkpoint after `step` steps
    def restore(self, step: int, snap: Any) -> Iterator[Any]: ...   # read it back and load `snap`
    hosts: list[str]                                       # each worker's host, by worker index


class _Driver:
    def __init__(self, ctx: _Ctx, job: SyncJob, steps: int, policy: Policy, timeline: Any,
                 acct: dict[str, Any]) -> None:
        self.ctx, self.sim, self.job, self.steps, self.p, self.timeline = ctx, ctx.sim, job, steps, policy, timeline
        self.k = self.high = 0
        self.ckpt = (0, job.snapshot(), job.digest())   # step 0: the initial state (nothing saved)
        self.t_safe = 0.0          # since when the state is the last checkpoint's
        self.t_ref = 0.0           # the checkpoint interval counts from here
        self.noticed: list[Any] = []   # notices that arrived and have not stopped the job yet
        self.acct = acct
        acct.update({"restarts": 0, "preemptions": 0, "steps_redone": 0, "steps_applied": 0,
                     "time_lost_restart_s": 0.0, "time_checkpointing_s": 0.0, "checkpoints": 0,
                     "preemption_checkpoints": 0, "restore_mismatches": 0, "collective_timeouts": 0})

    # -- notices ----------------------------------------------------------------------------------
    def _arrived(self) -> None:
        for n in self.timeline.pop_until(self.sim.now):
            self.noticed.append(n)
            self.acct["preemptions"] += 1
            self.ctx.faults.append({"kind": "preemption", "target": self.job.hosts[n.worker], "start": n.at,
                                    "end": n.ready})

    def _killed(self) -> list[Any]:
        """The noticed workers already killed (their kill is before now)."""
        now = self.sim.now
        return [n for n in self.noticed if n.kill < now]

    # -- the run ----------------------------------------------------------------------------------
    def run(self) -> dict[str, Any]:
        sim, job = self.sim, self.job
        while self.k < self.steps:
            k = self.k
            with sim.step(f"step {k}"):
                sim.drive(job.compute(k), progress=self.ctx.detail)
                self._arrived()
                lost = self._killed()
                late = self._late() if not lost else None
                if late is not None:
                    self.acct["collective_timeouts"] += 1
                    self._restart(sim.now, list(self.noticed), late)
                    continue
                if not lost:
                    sim.drive(job.collective(k), progress=self.ctx.detail)
                    self._arrived()
                    lost = self._killed()
            if lost:
                self._stop(lost, f"worker {lost[0].worker} lost during step {k + 1}")
                continue
            self.k = k + 1
            self.acct["steps_applied"] += 1
            job.committed(k)
            if self.k > self.high:   # progress counts steps reached for the first time
                self.high = self.k
                self.ctx.tick()
            if self.noticed and self.p.grace > 0:   # PreemptionCheckpointHandler: save, then exit
                self._preemption_save()
                continue
            if self._due():
                self._periodic_save()
        return self.acct

    def _late(self) -> str | None:
        """Clause mwms.collective-timeout: the gradient all-reduce times out when its last
        replica arrives more than ``timeout`` after the first (TF 2.21: DeadlineExceededError on
        the waiting workers at first + timeout, the abort at once on the late one when it
        arrives, which is now): the step is not applied and the job stops now."""
        t = self.p.timeout
        arr = self.job.arrivals if t else ()
        if not arr or max(arr) - min(arr) <= t:
            return None
        last = max(range(len(arr)), key=lambda i: arr[i])
        return (f"step {self.k + 1}'s all-reduce timed out (replica {last} arrived {max(arr) - min(arr):.6g}s after "
                f"the first; timeout_seconds = {t:g})")

    def _due(self) -> bool:
        p = self.p
        if p.every and self.k % p.every == 0:
            return True
        return bool(p.interval) and self.sim.now - self.t_ref >= p.interval

    def _save(self, why: str) -> bool:
        """Save the state after self.k steps; True if no worker was killed during the save."""
        t0 = self.sim.now
        self.sim.drive(self.job.save(self.k))
        self._arrived()
        if self._killed():
            return False
        self.ckpt = (self.k, self.job.snapshot(), self.job.digest())
        self.acct["checkpoints"] += 1
        self.acct["time_checkpointing_s"] += self.sim.now - t0
        self.t_safe = self.t_ref = self.sim.now
        return True

    def _periodic_save(self) -> None:
        if not self._save("periodic"):
            lost = self._killed()
            self._stop(lost, f"worker {lost[0].worker} lost during the checkpoint save at step {self.k}")

    def _preemption_save(self) -> None:
        n = self.noticed[0]
        if self._save("preemption"):
            self.acct["preemption_checkpoints"] += 1
            # the workers exit after the save; the job is down until the killed worker is replaced
            self._restart(self.sim.now, list(self.noticed), f"preemption notice for worker {n.worker} (saved at "
                                                             f"step {self.k})")
        else:
            lost = self._killed()
            self._stop(lost, f"worker {lost[0].worker} killed before its grace-period save ended")

    # -- stopping and restarting ------------------------------------------------------------------
    def _stop(self, lost: list[Any], why: str) -> None:
        sim, p = self.sim, self.p
        wait = min(p.detection, p.timeout) if p.timeout else p.detection   # the first of heartbeat and timeout
        if wait:
            sim.drive(_wait(sim, wait))
        self._restart(sim.now, list(self.noticed), why)

    def _restart(self, stop: float, lost: list[Any], why: str) -> None:
        sim, p, job = self.sim, self.p, self.job
        while True:
            self.acct["restarts"] += 1
            if self.acct["restarts"] > p.max_restarts:
                raise RunFailure(f"the job stopped more than strategy.restart.max_restarts = {p.max_restarts} times "
                                 f"(the last: {why}); raise max_restarts or checkpoint more often")
            self.acct["steps_redone"] += self.k - self.ckpt[0]
            self.k = self.ckpt[0]
            resume = self._resume_time(stop, lost)
            while True:   # workers lost while the job is down extend the restart
                more = self.timeline.pop_until(resume)
                if not more:
                    break
                for n in more:
                    self.acct["preemptions"] += 1
                    self.ctx.faults.append({"kind": "preemption", "target": job.hosts[n.worker], "start": n.at,
                                            "end": n.ready})
                lost = lost + more
                resume = self._resume_time(max(stop, max(n.kill for n in more)) if p.workers == "all" else stop, lost)
            self.noticed = []
            t0 = sim.now
            sim.drive(_wait(sim, resume - sim.now))
            self.ctx.faults.append({"kind": "restart", "target": "job", "start": t0, "end": sim.now})
            for h in dict.fromkeys(job.hosts):
                self.ctx.span(f"restart ({why})", "downtime", f"{h}/device:CPU:0", t0, sim.now)
            step, snap, digest = self.ckpt
            sim.drive(job.restore(step, snap))
            if job.digest() != digest:
                self.acct["restore_mismatches"] += 1
            self._arrived()
            killed = self._killed()
            if killed:   # lost during the restore: stop again
                stop, lost, why = sim.now, list(self.noticed), f"worker {killed[0].worker} lost during the restore"
                continue
            self.acct["time_lost_restart_s"] += sim.now - self.t_safe
            self.t_safe = self.t_ref = sim.now
            return

    def _resume_time(self, stop: float, lost: list[Any]) -> float:
        ready = max(n.ready for n in lost) if lost else stop
        if self.p.workers == "all":
            return max(stop, ready) + self.p.delay
        return max(stop, ready + self.p.delay)


def _wait(sim: Any, seconds: float) -> Iterator[Any]:
    if seconds > 0:
        yield sim.timeout(seconds)


def run_job(ctx: _Ctx, job: SyncJob, steps: int, policy: Policy, timeline: Any,
            into: dict[str, Any] | None = None) -> dict[str, Any]:
    """Run ``steps`` steps of ``job`` to the end under ``policy`` and the notices of ``timeline``;
    the accounting (summary metrics), kept up to date in ``into`` (so a failed run has it too).
    RunFailure after too many restarts."""
    return _Driver(ctx, job, steps, policy, timeline, {} if into is None else into).run()
