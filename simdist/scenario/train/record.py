"""What a training run learned, against simulated time: the per-step series, the evaluations on
the held-out split, and the summary metrics made of them.

- step series: for each completed step (synchronous) or scheduled function (parameter_server, in
  the order their updates committed), its simulated end time, the mean loss and the accuracy of
  its training batch, and (parameter_server) its staleness;
- evaluations: every ``training.eval_every`` steps (or committed functions), after a checkpoint
  restore, and at the end: loss and accuracy of the current model on the held-out split;
- ``final_loss`` / ``final_accuracy``: the last evaluation (the trained model on held-out data);
  ``time_to_accuracy_s``: the simulated time of the first evaluation whose accuracy is at least
  ``training.target_accuracy`` (absent when no evaluation reached it); ``time_to_loss_s``: the
  same for the first evaluation whose loss is at most ``training.target_loss`` (with the target,
  metrics.json's training section has ``target_loss`` and ``time_to_loss_s``);
- staleness (parameter_server): a function that read the variables when ``commits_before``
  updates had committed and committed its own as the ``commit``-th has staleness
  ``commit - 1 - commits_before``: the updates other functions committed between its reads and its
  commit. ``staleness_mean`` / ``staleness_max`` summarise it.
"""

from __future__ import annotations

import math
from typing import Any

__all__ = ["TrainingRecord"]


class TrainingRecord:
    def __init__(self, info: dict[str, Any], target: float | None, staleness: bool,
                 target_loss: float | None = None) -> None:
        self.info = info
        self.target = target
        self.target_loss = target_loss
        self.with_staleness = staleness
        self.step: list[int] = []
        self.time_s: list[float] = []
        self.loss: list[float] = []
        self.accuracy: list[float] = []
        self.staleness: list[int] = []
        self.evals: dict[str, list[Any]] = {"step": [], "time_s": [], "loss": [], "accuracy": []}

    def add_step(self, step: int, t: float, loss: float, accuracy: float, staleness: int | None = None) -> None:
        self.step.append(int(step))
        self.time_s.append(float(t))
        self.loss.append(_finite(loss))
        self.accuracy.append(float(accuracy))
        if self.with_staleness:
            self.staleness.append(int(staleness or 0))

    def add_eval(self, step: int, t: float, loss: float, accuracy: float) -> None:
        e = self.evals
        if e["step"] and e["step"][-1] == step and e["time_s"][-1] == t:
            return   # the same model at the same time: evaluated already
        e["step"].append(int(step))
        e["time_s"].append(float(t))
        e["loss"].append(_finite(loss))
        e["accuracy"].append(float(accuracy))

    def time_to_accuracy(self) -> float | None:
        if self.target is None:
            return None
        for t, a in zip(self.evals["time_s"], self.evals["accuracy"]):
            if a >= self.target:
                return t
        return None

    def time_to_loss(self) -> float | None:
        if self.target_loss is None:
            return None
        for t, loss in zip(self.evals["time_s"], self.evals["loss"]):
            if loss <= self.target_loss:
                return t
        return None

    def summary(self) -> dict[str, float]:
        out: dict[str, float] = {}
        if self.evals["loss"]:
            out["final_loss"] = self.evals["loss"][-1]
            out["final_accuracy"] = self.evals["accuracy"][-1]
        tta = self.time_to_accuracy()
        if tta is not None:
            out["time_to_accuracy_s"] = tta
        ttl = self.time_to_loss()
        if ttl is not None:
            out["time_to_loss_s"] = ttl
        if self.with_staleness and self.staleness:
            out["staleness_mean"] = math.fsum(self.staleness) / len(self.staleness)
            out["staleness_max"] = float(max(self.staleness))
        return out

    def doc(self) -> dict[str, Any]:
        steps: dict[str, Any] = {"step": self.step, "time_s": self.time_s, "loss": self.loss,
                                 "accuracy": self.accuracy}
        if self.with_staleness:
            steps["staleness"] = self.staleness
        out = dict(self.info, target_accuracy=self.target, time_to_accuracy_s=self.time_to_accuracy(),
                   steps=steps, evals=self.evals)
        if self.target_loss is not None:
            out.update(target_loss=self.target_loss, time_to_loss_s=self.time_to_loss())
        return out


def _finite(x: float) -> float:
    """A loss that diverged to inf/NaN is recorded as 1e300 / -1 (metrics.json has no NaN)."""
    x = float(x)
    if math.isnan(x):
        return -1.0
    return x if math.isfinite(x) else 1e300
