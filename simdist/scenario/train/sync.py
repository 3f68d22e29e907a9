"""A training model under a synchronous strategy (one_device, mirrored, central_storage): the
custom training loop of TF's tutorial on the facade, on the scenario's simulated host.

Each step: the next global batch of the shuffled, repeated training split from
``strategy.experimental_distribute_dataset`` (its input pipeline and copies to the replicas are
charged), ``strategy.run`` of the train step (forward, backward, the optimizer's update with the
strategy's gradient aggregation: all-reduce under Mirrored, the parameter device under
CentralStorage), then ``strategy.reduce`` of the loss and of the correct predictions. Every step
is a ``sim.step`` (its compute/communication/idle breakdown is in the metrics). Checkpoints are
charged as for FLOP-only models; evaluations are not charged (see `step.evaluate`).
"""

from __future__ import annotations

from typing import Any

from ..run_context import RunFailure, _Ctx, fault_windows, replica_devices, sync_checkpoint
from . import step as S
from .common import setup, shuffle_seed

__all__ = ["run_sync_training", "make_strategy"]


def make_strategy(tf: Any, sc: Any) -> Any:
    """The scenario's synchronous strategy on its host's devices."""
    plan = sc.plan
    devs = ["/device:" + d for d in plan["replica_devices"]]
    if sc.strategy == "one_device":
        return tf.distribute.OneDeviceStrategy(devs[0])
    if sc.strategy == "central_storage":
        return tf.distribute.experimental.CentralStorageStrategy(devs, parameter_device="/device:" +
                                                                 plan["parameter_device"])
    algorithm = plan.get("all_reduce", "ring")
    ops = {"ring": tf.distribute.NcclAllReduce(), "reduce_to_one": tf.distribute.ReductionToOneDevice()}
    return tf.distribute.MirroredStrategy(devs, cross_device_ops=ops.get(algorithm, algorithm))


def run_sync_training(ctx: _Ctx) -> None:
    from simdist import tf

    sc, sim = ctx.sc, ctx.sim
    tr = sc.config["training"]
    devs = replica_devices(sc)
    fault_windows(ctx, devs)
    strategy = make_strategy(tf, sc)
    run = setup(tf, ctx, strategy, ps=False)
    data, model, opt, record = run.data, run.model, run.optimizer, run.record
    gb = int(sc.config["data"]["batch_size"])
    ds = tf.data.Dataset.from_tensor_slices((data.train_inputs(), data.y_train))
    ds = ds.shuffle(len(data.y_train), seed=shuffle_seed(ctx)).repeat().batch(gb, drop_remainder=True)
    it = iter(strategy.experimental_distribute_dataset(ds))
    variables = run.variables

    def replica(inputs: Any, labels: Any) -> Any:
        return S.replica_step(tf, model, opt, variables, inputs, labels, gb)

    host = sc.plan["host"]
    cpu = f"{host}/device:CPU:0"
    src = devs[0] if sc.strategy == "mirrored" else f"{host}/device:{sc.plan['parameter_device']}"
    state_bytes = sum(int(S.tf_variable(v).nbytes) for v in run.checkpoint_variables())
    steps, every, eval_every = tr["steps"], tr["checkpoint_every"], tr["eval_every"]
    ctx.parts["examples_per_step"] = gb
    ctx.parts["compute_devices"] = devs
    ctx.parts["completed"] = 0
    test_inputs = data.test_inputs()
    record.add_eval(0, sim.now, *S.evaluate(tf, model, test_inputs, data.y_test))
    ckpts = 0
    ckpt_time = 0.0
    for k in range(steps):
        with sim.step(f"step {k}"):
            inputs, labels = next(it)
            loss, correct = strategy.run(replica, args=(inputs, labels))
            loss = strategy.reduce("SUM", loss, axis=None)
            correct = strategy.reduce("SUM", correct, axis=None)
        lv = float(loss.numpy())
        if lv != lv or lv in (float("inf"), float("-inf")):
            raise RunFailure(f"the training loss diverged ({lv}) at step {k + 1}; lower training.learning_rate")
        record.add_step(k + 1, sim.now, lv, float(correct.numpy()) / gb)
        ctx.parts["completed"] = k + 1
        ctx.tick()
        if (k + 1) % eval_every == 0 or k + 1 == steps:
            record.add_eval(k + 1, sim.now, *S.evaluate(tf, model, test_inputs, data.y_test))
        if every and (k + 1) % every == 0:
            t0 = sim.now
            sim.drive(sync_checkpoint(ctx, src, cpu, state_bytes, k + 1))
            ckpts += 1
            ckpt_time += sim.now - t0
    ctx.parts["summary"].update({"checkpoints": ckpts, "checkpoint_time_s": ckpt_time})
