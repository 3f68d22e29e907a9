"""`keras.callbacks.BackupAndRestore` (Keras 3.15.1, keras/src/callbacks/backup_and_restore.py).

Backs the training state up to `backup_dir` ("latest.weights.h5": the model's and the built
optimizer's variables; "training_metadata.json": {"epoch", "batch"}) at the end of each epoch or
every `save_freq` batches, and restores it when the next `fit` begins. What Keras 3.15 restores
(clauses keras.backup-and-restore.*): the weights and optimizer state of the last backup, and the
epoch to start from (`model._initial_epoch`, the number of epochs *finished* at the backup). The
"batch" it records is never read: a backup made mid-epoch resumes at the start of that epoch with
the mid-epoch weights, so the epoch's first batches are trained again (Keras 3.15 does not resume
mid-epoch, unlike tf.keras 2's callback). Saving and loading cost simulated time through
`save_weights`/`load_weights` (the variables' copies to and from the host's storage).
"""

from __future__ import annotations

import json
import os
import shutil
from typing import Any

from simdist.keras.callbacks.callback import Callback

__all__ = ["BackupAndRestore"]


class BackupAndRestore(Callback):
    """Back up the model and optimizer to `backup_dir` each epoch (or each `save_freq` batches)
    and restore them, with the epoch to resume from, when the next `fit` begins."""

    def __init__(self, backup_dir: Any, save_freq: Any = "epoch", double_checkpoint: bool = False,
                 delete_checkpoint: bool = True) -> None:
        super().__init__()
        self.save_freq = save_freq
        self.double_checkpoint = double_checkpoint
        self.delete_checkpoint = delete_checkpoint
        self._batches_seen_since_last_saving = 0
        self._last_batch_seen = 0
        self._current_epoch = 0
        if not backup_dir:
            raise ValueError("Empty `backup_dir` argument passed")
        self.backup_dir = backup_dir
        self._weights_path = os.path.join(str(backup_dir), "latest.weights.h5")
        self._training_metadata_path = os.path.join(str(backup_dir), "training_metadata.json")
        self._prev_weights_path = f"{self._weights_path}.bkp"
        self._prev_training_metadata_path = f"{self._training_metadata_path}.bkp"
        # (Keras's own check: `False`, which its docstring offers, and bools in general pass it as ints)
        if save_freq != "epoch" and not isinstance(save_freq, int):
            raise ValueError("Invalid value for argument `save_freq`. "
                             f"Received: save_freq={save_freq}. "
                             "Expected either 'epoch' or an integer value.")

    def on_train_begin(self, logs: Any = None) -> None:
        try:
            self._load_model()
        except OSError:
            # the weights file may be damaged: the previous backup (double_checkpoint), if any
            if not os.path.exists(self._prev_weights_path):
                raise
            shutil.copyfile(self._prev_weights_path, self._weights_path)
            if os.path.exists(self._prev_training_metadata_path):
                shutil.copyfile(self._prev_training_metadata_path, self._training_metadata_path)
            elif os.path.exists(self._training_metadata_path):
                os.remove(self._training_metadata_path)
            self._load_model()

    def _load_model(self) -> None:
        """The training state of the last backup, if there is one."""
        if not self.model.built:
            raise ValueError("To use the BackupAndRestore callback, you model must be built before you call `fit()`. "
                             f"Model {self.model} is unbuilt. You can build it beforehand by calling it on a batch "
                             "of data.")
        if os.path.exists(self._weights_path):
            optimizer = self.model.optimizer
            if optimizer is not None and not optimizer.built:
                optimizer.build(self.model.trainable_variables)   # so its variables load too
            self.model.load_weights(self._weights_path)
        if os.path.exists(self._training_metadata_path):
            with open(self._training_metadata_path, encoding="utf-8") as f:
                training_metadata = json.loads(f.read())
            self.model._initial_epoch = training_metadata["epoch"]

    def on_epoch_end(self, epoch: int, logs: Any = None) -> None:
        self._current_epoch = epoch + 1
        self._last_batch_seen = 0
        if self.save_freq == "epoch":
            self._save_model()

    def on_train_batch_end(self, batch: int, logs: Any = None) -> None:
        if self._should_save_on_batch(batch):
            self._save_model()

    def _save_model(self) -> None:
        """Write the backup (keeping the previous one as ".bkp" with double_checkpoint)."""
        os.makedirs(str(self.backup_dir), exist_ok=True)
        if self.double_checkpoint and os.path.exists(self._weights_path):
            shutil.copyfile(self._weights_path, self._prev_weights_path)
        if self.double_checkpoint and os.path.exists(self._training_metadata_path):
            shutil.copyfile(self._training_metadata_path, self._prev_training_metadata_path)
        self.model.save_weights(filepath=self._weights_path, overwrite=True)
        with open(self._training_metadata_path, "w", encoding="utf-8") as f:
            f.write(json.dumps({"epoch": self._current_epoch, "batch": self._last_batch_seen}))

    def _should_save_on_batch(self, batch: int) -> bool:
        """Every `save_freq` batches (counting across epochs; steps_per_execution aware)."""
        if self.save_freq == "epoch":
            return False
        if batch <= self._last_batch_seen:   # a new epoch
            add_batches = batch + 1
        else:
            add_batches = batch - self._last_batch_seen
        self._batches_seen_since_last_saving += add_batches
        self._last_batch_seen = batch
        if self._batches_seen_since_last_saving >= self.save_freq:
            self._batches_seen_since_last_saving = 0
            return True
        return False

    def on_train_end(self, logs: Any = None) -> None:
        if self.delete_checkpoint and os.path.exists(str(self.backup_dir)):
            shutil.rmtree(str(self.backup_dir))
