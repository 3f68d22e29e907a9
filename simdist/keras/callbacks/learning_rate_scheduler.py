"""`keras.callbacks.LearningRateScheduler` (Keras 3.15): sets the optimizer's learning rate to
`schedule(epoch, lr)` (or `schedule(epoch)`) at the start of every epoch and logs it as
`learning_rate` at the end."""

from __future__ import annotations

from typing import Any, Callable

import numpy as np

from simdist.keras.callbacks.callback import Callback
from simdist.keras.io_utils import print_msg


def _as_float(x: Any) -> float:
    return float(x.numpy() if hasattr(x, "numpy") else np.asarray(x))


def log_learning_rates(optimizer: Any, logs: dict) -> None:
    """logs["learning_rate"] (or "learning_rate_<name>" per optimizer of a multi-optimizer), as
    Keras 3's LearningRateScheduler and ReduceLROnPlateau write it at each epoch's end."""
    optimizers = getattr(optimizer, "optimizers", None)
    if optimizers is not None:
        for opt in optimizers:
            logs[f"learning_rate_{opt.name}"] = _as_float(opt.learning_rate)
    else:
        logs["learning_rate"] = _as_float(optimizer.learning_rate)


class LearningRateScheduler(Callback):
    """Learning rate per epoch from a Python function."""

    def __init__(self, schedule: Callable[..., Any], verbose: int = 0) -> None:
        super().__init__()
        self.schedule = schedule
        self.verbose = verbose

    def _update_optimizer_lr(self, optimizer: Any, epoch: int) -> Any:
        if not hasattr(optimizer, "learning_rate"):
            raise ValueError('Optimizer must have a "learning_rate" attribute.')
        try:
            learning_rate = self.schedule(epoch, _as_float(optimizer.learning_rate))
        except TypeError:  # Support for old API for backward compatibility
            learning_rate = self.schedule(epoch)
        if not isinstance(learning_rate, (float, np.float32, np.float64)):
            raise ValueError(f"The output of the `schedule` function should be a float. Got: {learning_rate}")
        optimizer.learning_rate = learning_rate
        return learning_rate

    def on_epoch_begin(self, epoch: int, logs: Any = None) -> None:
        optimizers = getattr(self.model.optimizer, "optimizers", None)
        if optimizers is not None:
            for opt in optimizers:
                lr = self._update_optimizer_lr(opt, epoch)
                if self.verbose > 0:
                    print_msg(f"\nEpoch {epoch + 1}: LearningRateScheduler setting {opt.name} learning rate to {lr}.")
        else:
            lr = self._update_optimizer_lr(self.model.optimizer, epoch)
            if self.verbose > 0:
                print_msg(f"\nEpoch {epoch + 1}: LearningRateScheduler setting learning rate to {lr}.")

    def on_epoch_end(self, epoch: int, logs: Any = None) -> None:
        log_learning_rates(self.model.optimizer, logs if logs is not None else {})
