"""`keras.callbacks.ModelCheckpoint` (Keras 3.15): save the model (`.keras`) or its weights
(`save_weights_only=True`, `.weights.h5`; whole-model `.keras` files through `model.save`,
models/keras_file.py; legacy `.h5` model files are refused at construction) every epoch or every `save_freq` batches, optionally only
when the monitored quantity improved (`save_best_only`). The path may hold `{epoch}`, `{batch}`
and any logged name (`{val_loss:.2f}`), formatted as Keras does.

Saving goes through the model: `model.save_weights(path)` / `model.save(path)`. simdist also
accepts a `tf.train.Checkpoint` (`checkpoint=`, a simdist extension documented in docs/keras.md):
then each save is `checkpoint.write(path)` (the path without extension check), which charges the
simulated copies of every variable to the chief as simdist's Checkpoint does, and restores with
`checkpoint.restore(path)`. Clause keras.callbacks.model-checkpoint.
"""

from __future__ import annotations

import os
import warnings
from typing import Any

import numpy as np

from simdist.keras.callbacks.monitor_callback import MonitorCallback
from simdist.keras.io_utils import print_msg


class ModelCheckpoint(MonitorCallback):
    """Saves the model or its weights during fit."""

    def __init__(self, filepath: Any, monitor: str = "val_loss", verbose: int = 0, save_best_only: bool = False,
                 save_weights_only: bool = False, mode: str = "auto", save_freq: Any = "epoch",
                 initial_value_threshold: Any = None, checkpoint: Any = None) -> None:
        super().__init__(monitor, mode, initial_value_threshold)
        self.verbose = verbose
        self.filepath = os.fspath(filepath)
        self.save_best_only = save_best_only
        self.save_weights_only = save_weights_only
        self.save_freq = save_freq
        self.checkpoint = checkpoint
        self._batches_seen_since_last_saving = 0
        self._last_batch_seen: int | None = None
        self._current_epoch = 0
        if self.save_freq != "epoch" and not isinstance(self.save_freq, int):
            raise ValueError(f"Unrecognized save_freq: {self.save_freq}. Expected save_freq are 'epoch' or integer "
                             "values")
        if checkpoint is not None:
            return
        if save_weights_only:
            if not self.filepath.endswith(".weights.h5"):
                raise ValueError("When using `save_weights_only=True` in `ModelCheckpoint`, the filepath provided "
                                 "must end in `.weights.h5` (Keras weights format). Received: "
                                 f"filepath={self.filepath}")
        elif not any(self.filepath.endswith(ext) for ext in (".keras", ".h5")):
            raise ValueError("The filepath provided must end in `.keras` (Keras model format). Received: "
                             f"filepath={self.filepath}")
        elif not self.filepath.endswith(".keras"):
            # Keras would save a legacy HDF5 model file here; simdist does not write that format, so
            # refuse now rather than fail after the first epoch.
            raise ValueError(f"ModelCheckpoint({self.filepath!r}): simdist does not write legacy `.h5` whole-model "
                             "files; use a path ending in `.keras`, or save_weights_only=True with `.weights.h5`")

    def on_train_batch_end(self, batch: int, logs: Any = None) -> None:
        if self._should_save_on_batch(batch):
            self._save_model(epoch=self._current_epoch, batch=batch, logs=logs)

    def on_epoch_begin(self, epoch: int, logs: Any = None) -> None:
        self._current_epoch = epoch

    def on_epoch_end(self, epoch: int, logs: Any = None) -> None:
        if self.monitor_op is None:
            self._set_monitor_op()
        if self.save_freq == "epoch":
            self._save_model(epoch=epoch, batch=None, logs=logs)

    def _should_save_on_batch(self, batch: int) -> bool:
        if self.save_freq == "epoch":
            return False
        if self._last_batch_seen is None or batch <= self._last_batch_seen:
            add_batches = batch + 1
        else:
            add_batches = batch - self._last_batch_seen
        self._batches_seen_since_last_saving += add_batches
        self._last_batch_seen = batch
        if self._batches_seen_since_last_saving >= self.save_freq:
            self._batches_seen_since_last_saving = 0
            return True
        return False

    def _should_save_model(self, epoch: int, batch: int | None, logs: Any, filepath: str) -> bool:
        logs = logs or {}
        if not self.save_best_only:
            if self.verbose > 0:
                print_msg(f"\nEpoch {epoch + 1}: saving model to {filepath}")
            return True
        current = logs.get(self.monitor)
        if current is None:
            warnings.warn(f"Can save best model only with {self.monitor} available.", stacklevel=2)
            return True
        if isinstance(current, np.ndarray) and len(current.shape) > 0:
            warnings.warn(f"Can save best model only when `monitor` is a scalar value. Received: {current}. Falling "
                          "back to `save_best_only=False`.", stacklevel=2)
            return True
        best_str = "None" if self.best is None else f"{self.best:.5f}"
        if self._is_improvement(current, self.best):
            if self.verbose > 0:
                print_msg(f"\nEpoch {epoch + 1}: {self.monitor} improved from {best_str} to {current:.5f}, saving "
                          f"model to {filepath}")
            self.best = current
            return True
        if self.verbose > 0:
            print_msg(f"\nEpoch {epoch + 1}: {self.monitor} did not improve from {best_str}")
        return False

    def _save_model(self, epoch: int, batch: int | None, logs: Any) -> None:
        filepath = self._get_file_path(epoch, batch, logs)
        try:
            if self._should_save_model(epoch, batch, logs, filepath):
                dirname = os.path.dirname(filepath)
                if dirname and not os.path.exists(dirname):
                    os.makedirs(dirname, exist_ok=True)
                if self.checkpoint is not None:
                    self.checkpoint.write(filepath)
                elif self.save_weights_only:
                    self.model.save_weights(filepath, overwrite=True)
                else:
                    self.model.save(filepath, overwrite=True)
                if self.verbose > 0:
                    print_msg(f"\nEpoch {epoch + 1}: finished saving model to {filepath}")
        except IsADirectoryError:
            raise IOError("Please specify a non-directory filepath for ModelCheckpoint. Filepath used is an existing "
                          f"directory: {filepath}")
        except IOError as e:
            if "is a directory" in str(e.args[0]).lower():
                raise IOError("Please specify a non-directory filepath for ModelCheckpoint. Filepath used is an "
                              f"existing directory: f{filepath}")
            raise

    def _get_file_path(self, epoch: int, batch: int | None, logs: Any) -> str:
        logs = logs or {}
        try:
            if batch is None or "batch" in logs:
                return self.filepath.format(epoch=epoch + 1, **logs)
            return self.filepath.format(epoch=epoch + 1, batch=batch + 1, **logs)
        except KeyError as e:
            raise KeyError(f'Failed to format this callback filepath: "{self.filepath}". Reason: {e}')
