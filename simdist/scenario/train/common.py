"""What the synchronous and the parameter-server training runs share: the data, the model and
its optimizer built in the strategy's scope, the record, and the run's facts for metrics.json."""

from __future__ import annotations

import math
from typing import Any

from . import step as S
from .data import TrainingData, prepare
from .record import TrainingRecord
from .zoo import build

__all__ = ["Setup", "setup", "shuffle_seed", "worker_shuffle_seeds"]


class Setup:
    """The data, model, optimizer and record of one training run."""

    def __init__(self, data: TrainingData, model: Any, optimizer: Any, record: TrainingRecord,
                 variables: list[Any]) -> None:
        self.data, self.model, self.optimizer, self.record = data, model, optimizer, record
        self.variables = variables          # what the tape differentiates and the optimizer updates

    def checkpoint_variables(self) -> list[Any]:
        return S.all_variables(self.model, self.optimizer)


def setup(tf: Any, ctx: Any, strategy: Any, ps: bool) -> Setup:
    """Prepare the data (stream data/split), build the model (Keras's seeded initializers) and its optimizer
    in ``strategy``'s scope, build the optimizer's slots there too, start the record."""
    sc, sim = ctx.sc, ctx.sim
    cfg = sc.config
    facts = sc.plan["training"]
    images = cfg["model"].get("zoo") == "cnn"
    data = prepare(cfg, facts, sim.rng("data/split"), images)
    tr = cfg["training"]
    # Keras's global state (object names, the global seed generator) starts afresh, as in a new
    # process: a run's names and initial weights depend on its scenario and seed only.
    tf.keras.backend.clear_session()
    precision = cfg["model"].get("mixed_precision") or "float32"
    previous = tf.keras.mixed_precision.global_policy()
    with strategy.scope():
        # (the layers take the global policy when made: set it for the build only)
        tf.keras.mixed_precision.set_global_policy(precision)
        try:
            model = build(tf, cfg["model"], data.input_shape, data.num_classes, data.buckets, sc.file)
        finally:
            tf.keras.mixed_precision.set_global_policy(previous)
        optimizer = S.make_optimizer(tf, tr, precision)
        variables = S.train_variables(model)
        optimizer.build(variables)
    params = int(sum(math.prod(int(d) for d in S.tf_variable(v).shape) for v in model.variables))
    d = cfg["data"]
    info = {"model": cfg["model"].get("zoo") or cfg["model"]["function"], "parameters": params,
            "mixed_precision": precision,
            "optimizer": tr["optimizer"], "learning_rate": tr["learning_rate"], "batch_size": d["batch_size"],
            "eval_every": tr["eval_every"],
            "data": {"source": d.get("dataset") or d.get("path"), "sha256": facts["sha256"], "train": len(data.y_train),
                     "test": len(data.y_test), "classes": data.num_classes, "input_shape": list(data.input_shape),
                     "categorical_buckets": data.buckets}}
    record = TrainingRecord(info, tr.get("target_accuracy"), staleness=ps, target_loss=tr.get("target_loss"))
    ctx.training = record
    ctx.variables = {getattr(v, "path", None) or v.name: v for v in model.variables}
    return Setup(data, model, optimizer, record, variables)


def shuffle_seed(ctx: Any) -> int:
    """The seed of the training split's shuffle (stream data/shuffle of the root seed)."""
    return int(ctx.sim.rng("data/shuffle").integers(0, 2 ** 31 - 1))


def worker_shuffle_seeds(ctx: Any, workers: int) -> list[int]:
    """Each parameter-server worker's shuffle seed (stream data/shuffle/worker{i} of the root seed)."""
    return [int(ctx.sim.rng(f"data/shuffle/worker{i}").integers(0, 2 ** 31 - 1)) for i in range(workers)]
