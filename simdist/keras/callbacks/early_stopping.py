"""`keras.callbacks.EarlyStopping` (Keras 3.15): stop when the monitored quantity has not
improved by `min_delta` for `patience` epochs; optionally restore the best epoch's weights."""

from __future__ import annotations

import warnings
from typing import Any

from simdist.keras.callbacks.monitor_callback import MonitorCallback
from simdist.keras.io_utils import print_msg


class EarlyStopping(MonitorCallback):
    """Sets `model.stop_training` after `patience` epochs without improvement."""

    def __init__(self, monitor: str = "val_loss", min_delta: float = 0, patience: int = 0, verbose: int = 0,
                 mode: str = "auto", baseline: Any = None, restore_best_weights: bool = False,
                 start_from_epoch: int = 0) -> None:
        super().__init__(monitor, mode, min_delta=min_delta)
        self.patience = patience
        self.verbose = verbose
        self.baseline = baseline
        self.wait = 0
        self.stopped_epoch = 0
        self.restore_best_weights = restore_best_weights
        self.best_weights: Any = None
        self.start_from_epoch = start_from_epoch
        # (Keras 3.15 sets best_epoch in on_train_begin only: before fit it is an AttributeError)

    def on_train_begin(self, logs: Any = None) -> None:
        self.wait = 0
        self.stopped_epoch = 0
        self.best = None
        self.best_weights = None
        self.best_epoch = 0

    def on_epoch_end(self, epoch: int, logs: Any = None) -> None:
        if self.monitor_op is None:
            self._set_monitor_op()
        current = self.get_monitor_value(logs)
        if current is None or epoch < self.start_from_epoch:
            return
        if self.restore_best_weights and self.best_weights is None:
            self.best_weights = self.model.get_weights()
            self.best_epoch = epoch
        self.wait += 1
        if self._is_improvement(current, self.best):
            self.best = current
            self.best_epoch = epoch
            if self.restore_best_weights:
                self.best_weights = self.model.get_weights()
            if self.baseline is None or self._is_improvement(current, self.baseline):
                self.wait = 0
            return
        if self.wait >= self.patience and epoch > 0:
            self.stopped_epoch = epoch
            self.model.stop_training = True

    def on_train_end(self, logs: Any = None) -> None:
        if self.stopped_epoch > 0 and self.verbose > 0:
            print_msg(f"Epoch {self.stopped_epoch + 1}: early stopping")
        if self.restore_best_weights and self.best_weights is not None:
            if self.verbose > 0:
                print_msg(f"Restoring model weights from the end of the best epoch: {self.best_epoch + 1}.")
            self.model.set_weights(self.best_weights)

    def get_monitor_value(self, logs: Any) -> Any:
        logs = logs or {}
        value = logs.get(self.monitor)
        if value is None:
            warnings.warn(f"Early stopping conditioned on metric `{self.monitor}` which is not available. "
                          f"Available metrics are: {','.join(list(logs.keys()))}", stacklevel=2)
        return value
