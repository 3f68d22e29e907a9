"""A training model under ParameterServerStrategy: TF's PS custom training loop on the facade.

The model and optimizer are built in the strategy's scope (variables on the ps tasks, the
embedding tables split by the scenario's partitioner); each worker gets its own dataset through
``ClusterCoordinator.create_per_worker_dataset`` of ``strategy.distribute_datasets_from_function``
(batch_size / workers examples per step). As in TF 2.21, the dataset function gets the same
``InputContext(num_input_pipelines=1, input_pipeline_id=0)`` on every worker, so sharding by it
does nothing; a real job's workers each shuffle the whole training split with their own
(unseeded, hence different) shuffle. Here worker i shuffles with the seed drawn from the stream
``data/shuffle/worker{i}`` of the root seed: each worker reads its own order, and a seed gives
the same orders on every run. ``create_per_worker_dataset`` calls the function once per worker,
in worker order; a worker rebuilt after a preemption restarts its own stream.
Each step is a ``tf.function`` scheduled with the per-worker iterator: ``strategy.run`` of the
train step on whichever worker takes it, reading the variables committed at that moment and
committing its updates when its writes reach the ps tasks (asynchronous training: see
docs/faults.md). Preemptions, ps failures, stragglers and degraded links come from the fault
plan; `simdist.scenario.ps_run.PSJob` schedules, checkpoints and recovers.

A checkpoint holds the values of every model and optimizer variable (kept by the runner in
memory; its I/O is charged as for FLOP-only models) and a restore assigns them back once the
failed ps is up again. Evaluations run every ``eval_every`` committed functions (and at each
checkpoint, after a restore and at the end) on the chief, reading the committed variables: a sidecar evaluator,
not charged. The step series are the completed functions in commit order, at their commit
times, with their staleness (`record`).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ..ps_run import PSJob
from ..run_context import RunFailure, _Ctx
from . import step as S
from .common import setup, worker_shuffle_seeds

__all__ = ["run_ps_training"]


def run_ps_training(ctx: _Ctx, trace: Any) -> None:
    job = PSJob(ctx, trace)
    tf, sim, strategy = job.tf, job.sim, job.strategy
    sc = ctx.sc
    tr = sc.config["training"]
    run = setup(tf, ctx, strategy, ps=True)
    data, model, opt, record = run.data, run.model, run.optimizer, run.record
    per_worker = int(sc.config["data"]["batch_size"]) // job.nw
    coord = job.start(per_worker)
    inputs, labels = data.train_inputs(), data.y_train
    seeds = worker_shuffle_seeds(ctx, job.nw)
    n_train = len(labels)
    built: list[int] = []

    def dataset_fn(input_context: Any) -> Any:
        worker = len(built)   # called once per worker, in worker order (create_per_worker_dataset)
        if worker >= len(seeds):
            raise RuntimeError(f"simdist: the dataset function was called {worker + 1} times for {len(seeds)} workers")
        built.append(worker)
        ds = tf.data.Dataset.from_tensor_slices((inputs, labels))
        return ds.shuffle(n_train, seed=seeds[worker]).repeat().batch(per_worker, drop_remainder=True)

    per_worker_ds = coord.create_per_worker_dataset(lambda: strategy.distribute_datasets_from_function(dataset_fn))
    iterator = iter(per_worker_ds)
    variables = run.variables

    def replica(batch_inputs: Any, batch_labels: Any) -> Any:
        return S.replica_step(tf, model, opt, variables, batch_inputs, batch_labels, per_worker)

    @tf.function
    def train_step(it: Any) -> Any:
        batch_inputs, batch_labels = next(it)
        return strategy.run(replica, args=(batch_inputs, batch_labels))

    remotes: list[Any] = []

    def schedule(k: int) -> None:
        remotes.append(coord.schedule(train_step, args=(iterator,)))

    test_inputs, test_labels = data.test_inputs(), data.y_test
    every = tr["eval_every"]
    state = {"next": every}

    def evaluate() -> None:
        try:
            loss, acc = S.evaluate(tf, model, test_inputs, test_labels)
        except tf.errors.OpError:   # a ps is down (or back, not yet restored): nothing to read
            return
        record.add_eval(coord.commit_count(), sim.now, loss, acc)

    def on_pause() -> None:   # every `every` committed steps
        state["next"] = (coord.commit_count() // every + 1) * every
        evaluate()

    saved: list[Any] = []
    ckpt_vars = run.checkpoint_variables()

    def on_saved(step: int) -> None:   # (no function runs now: the model is the checkpoint's)
        saved[:] = [np.array(v.numpy(), copy=True) for v in ckpt_vars]
        evaluate()

    def on_restored(step: int) -> None:
        if not saved:
            raise RunFailure("a ps failed before the first checkpoint: nothing to restore (rule: checkpoint_every "
                             "small enough that a checkpoint precedes the failure)")
        for v, value in zip(ckpt_vars, saved):
            v.assign(value)
        evaluate()

    moves = [(v.device, int(v.nbytes), v.name) for v in ckpt_vars if int(v.nbytes)]
    state_bytes = sum(int(v.nbytes) for v in ckpt_vars)
    record.add_eval(0, sim.now, *S.evaluate(tf, model, test_inputs, test_labels))
    try:
        job.run(schedule, moves, state_bytes, pause_at=lambda: state["next"], on_pause=on_pause, on_saved=on_saved,
                on_restored=on_restored)
    finally:
        _series(coord, remotes, record, per_worker)
    evaluate()


def _series(coord: Any, remotes: list[Any], record: Any, per_worker: int) -> None:
    """The completed functions in commit order: time, loss, batch accuracy, staleness."""
    timeline = coord.closure_timeline()
    if len(timeline) != len(remotes):
        raise RuntimeError(f"simdist: {len(timeline)} closures on the coordinator, {len(remotes)} scheduled by the "
                           "training run")
    done = [(t["commit"], t, rv) for t, rv in zip(timeline, remotes) if t["state"] == "completed"]
    for commit, t, rv in sorted(done, key=lambda e: e[0]):
        loss, correct = rv.fetch()
        lv = float(np.asarray(loss))
        if lv != lv or lv in (float("inf"), float("-inf")):
            raise RunFailure(f"the training loss diverged ({lv}) at committed step {commit}; lower "
                             "training.learning_rate")
        record.add_step(commit, t["end"], lv, float(np.asarray(correct)) / per_worker,
                        commit - 1 - t["commits_before"])
