"""A training model under multi_worker_mirrored: real values, MWMS timing, synchronous restarts.

Values: MultiWorkerMirroredStrategy with N workers x G GPUs is, numerically, G x N synchronous
replicas in global replica order (replica id = worker x G + local id) whose gradients are summed
by one all-reduce. The run computes them with the facade's MirroredStrategy over every host's
GPUs in that order (one program instead of N launched clients: the 16 x 8 scenarios would run
128 replicas through N clients' meetings); tests/scenario/test_mwms_training.py checks, on a
small case, that its weights equal those of the facade's MultiWorkerMirroredStrategy under
`simdist.launch` after the same steps. The values' own charges are discarded (`timing.collect`).

Timing: the FLOP-only engine's MWMS step (`mwms_run._FlopJob`: input copies, forward+backward,
gradient all-reduce across hosts, update), with this model's figures: the FLOPs of the first
step's values (the tally: forward+backward per replica, and the optimizer's update section per
replica), the trainable bytes all-reduced, the checkpoint bytes (every model and optimizer
variable), the input bytes per replica. Every step costs the same FLOPs (the ops do not depend on
the values), so one measurement holds for the run. Preemptions, checkpoints and restarts are `resilience.run_job`'s.

Restore: a checkpoint holds every model and optimizer variable (slots and ``iterations``) and
restores them exactly (the driver compares digests). The input iterator is not in it: TF 2.21's
tf.train.Checkpoint refuses a distributed iterator (ValueError, clause
mwms.iterator-checkpoint), so a restarted job, like TF's multi-worker custom-loop tutorial, rebuilds its
dataset: after a restart the data starts again at the first batch of the (seeded) shuffle.
"""

from __future__ import annotations

import hashlib
from typing import Any, Iterator

import numpy as np

from simdist import session
from simdist.runtime import cost
from simdist.sim.sync_faults import PreemptionTimeline
from simdist.strategies import timing

from ..mwms_run import Costs, _FlopJob
from ..resilience import policy_of, run_job
from ..run_context import RunFailure, _Ctx, fault_plan, fault_windows, replica_devices
from . import step as S
from .common import setup, shuffle_seed

__all__ = ["distributed_iterator", "run_mwms_training", "values_strategy"]


def values_strategy(tf: Any, devices: list[str]) -> Any:
    """The strategy that computes the run's values: MirroredStrategy over ``devices`` (every
    worker's GPUs, in MWMS's global replica order), all-reduce by summation."""
    return tf.distribute.MirroredStrategy(["/" + d.lstrip("/") if "/job:" in d else "/device:" + d for d in devices],
                                          cross_device_ops=tf.distribute.ReductionToOneDevice())


def distributed_iterator(strategy: Any, dataset: Any, workers: int) -> Iterator[Any]:
    """Per-replica batches as MultiWorkerMirroredStrategy's ``experimental_distribute_dataset``
    gives them to ``workers`` workers (clause mwms.autoshard, DATA): each global batch of the
    (batched) ``dataset`` is rebatched into one piece per replica, worker w takes pieces w, w + W,
    w + 2W, ... and its local replica l the l-th of them: global replica w x G + l gets piece
    l x W + w. Read from the dataset's own iterator, so no simulated input charges (the MWMS
    timing charges each host's input instead)."""
    from simdist import tf
    n = strategy.num_replicas_in_sync
    local = n // workers
    piece_of = [(r % local) * workers + r // local for r in range(n)]
    for batch in iter(dataset):
        arrays = tf.nest.map_structure(lambda t: np.asarray(t.numpy()), batch)
        size = len(tf.nest.flatten(arrays)[0]) // n

        def value_fn(ctx: Any, arrays: Any = arrays, size: int = size) -> Any:
            p = piece_of[ctx.replica_id_in_sync_group]
            return tf.nest.map_structure(lambda a: tf.constant(a[p * size:(p + 1) * size]), arrays)

        yield strategy.experimental_distribute_values_from_function(value_fn)


class _TrainJob(_FlopJob):
    """`resilience.SyncJob` of a training model: each step's values, then its MWMS timing."""

    def __init__(self, ctx: _Ctx, tf: Any, strategy: Any, run: Any, costs: Costs) -> None:
        super().__init__(ctx, costs)
        self.tf, self.strategy, self.run = tf, strategy, run
        self.record = run.record
        self.ckpt_vars = run.checkpoint_variables()
        self.gb = int(ctx.sc.config["data"]["batch_size"])
        ds = tf.data.Dataset.from_tensor_slices((run.data.train_inputs(), run.data.y_train))
        self.dataset = ds.shuffle(len(run.data.y_train), seed=shuffle_seed(ctx)).repeat().batch(
            self.gb, drop_remainder=True)
        self.iterator = self._new_iterator()
        self.eval_every = int(self.tr["eval_every"])
        self.out: tuple[float, float] | None = None
        self.measured = False

    def _new_iterator(self) -> Any:
        return distributed_iterator(self.strategy, self.dataset, len(self.hosts))

    def values(self) -> tuple[float, float]:
        """Run one step's values (the strategy's own simulated charges discarded): (loss, accuracy)."""
        tf, run = self.tf, self.run

        def replica(inputs: Any, labels: Any) -> Any:
            return S.replica_step(tf, run.model, run.optimizer, run.variables, inputs, labels, self.gb)

        with timing.collect([]):
            inputs, labels = next(self.iterator)
            loss, correct = self.strategy.run(replica, args=(inputs, labels))
            loss = self.strategy.reduce("SUM", loss, axis=None)
            correct = self.strategy.reduce("SUM", correct, axis=None)
        lv = float(loss.numpy())
        if lv != lv or lv in (float("inf"), float("-inf")):
            raise RunFailure(f"the training loss diverged ({lv}) at step {self.step_count + 1}; lower "
                             "training.learning_rate")
        return lv, float(correct.numpy()) / self.gb

    def compute(self, k: int) -> Iterator[Any]:
        t0, u0 = cost.tally.flops, cost.tally.update
        self.out = self.values()
        if not self.measured:   # the step's FLOPs, from the tally of the first step's values
            n = len(self.devs)
            upd = cost.tally.update - u0
            self.fwd_bwd = max(0.0, cost.tally.flops - t0 - upd) / n
            self.update_work = (lambda d, f=upd / n: f)
            self.measured = True
        yield from super().compute(k)

    def committed(self, k: int) -> None:
        super().committed(k)
        assert self.out is not None
        self.record.add_step(k + 1, self.sim.now, *self.out)
        if (k + 1) % self.eval_every == 0 or k + 1 == self.tr["steps"]:
            self.evaluate(k + 1)

    def evaluate(self, step: int) -> None:
        d = self.run.data
        self.record.add_eval(step, self.sim.now, *S.evaluate(self.tf, self.run.model, d.test_inputs(), d.y_test))

    # -- state ------------------------------------------------------------------------------------
    def snapshot(self) -> tuple[int, list[np.ndarray]]:
        return self.step_count, [np.array(v.numpy(), copy=True) for v in self.ckpt_vars]

    def digest(self) -> str:
        h = hashlib.sha256(str(self.step_count).encode())
        for v in self.ckpt_vars:
            a = np.ascontiguousarray(v.numpy())
            h.update(f"{a.dtype}{a.shape}".encode())
            h.update(a.tobytes())
        return h.hexdigest()

    def restore(self, step: int, snap: Any) -> Iterator[Any]:
        count, arrays = snap
        yield from super().restore(step, count)
        for v, a in zip(self.ckpt_vars, arrays):
            v.assign(a)
        self.iterator = self._new_iterator()   # TF 2.21 does not checkpoint the iterator: the data starts over
        self.evaluate(count)


def _byte_costs(run: Any, gb: int, n: int) -> Costs:
    """The model's MWMS byte figures: trainable bytes all-reduced, checkpoint bytes (every model
    and optimizer variable), input bytes per replica. FLOPs are set from the first step's tally."""
    train = [S.tf_variable(v) for v in run.variables]
    grad_bytes = float(sum(int(v.nbytes) for v in train))
    state_bytes = float(sum(int(S.tf_variable(v).nbytes) for v in run.checkpoint_variables()))
    x = run.data.train_inputs()
    first = [np.asarray(a)[:1] for a in (x if isinstance(x, tuple) else (x,))]
    in_bytes = float(sum(a.nbytes for a in first)) * (gb // n)
    # (roofline False: under the roofline cost model the tally already holds each op's roofline time)
    return Costs(grad_bytes, state_bytes, 0.0, 0.0, 0.0, in_bytes, "float32", 3.0 * state_bytes, False)


def run_mwms_training(ctx: _Ctx) -> None:
    """Train the scenario's model under multi_worker_mirrored (the session is configured)."""
    from simdist import tf

    sc, sim = ctx.sc, ctx.sim
    devs = replica_devices(sc)
    fault_windows(ctx, devs)
    session.set_local_task("worker", 0)   # the program is worker 0's (MWMS's chief when chief-less)
    strategy = values_strategy(tf, devs)
    run = setup(tf, ctx, strategy, ps=False)
    gb = int(sc.config["data"]["batch_size"])
    costs = _byte_costs(run, gb, len(devs))
    job = _TrainJob(ctx, tf, strategy, run, costs)
    policy = policy_of(sc.config)
    timeline = PreemptionTimeline(sim.rng, len(job.hosts), fault_plan(sc, devs), policy.grace)
    ctx.parts["examples_per_step"] = gb
    ctx.parts["compute_devices"] = devs
    ctx.parts["completed"] = 0
    job.evaluate(0)
    acct = run_job(ctx, job, int(sc.config["training"]["steps"]), policy, timeline, into=ctx.parts["summary"])
    ctx.parts["summary"]["checkpoint_time_s"] = acct["time_checkpointing_s"]
