"""`keras.callbacks.History`: what `fit` returns; `.history[name]` is one value per epoch."""

from __future__ import annotations

from typing import Any

from simdist.keras.callbacks.callback import Callback


class History(Callback):
    """Records each epoch's logs (train metrics, then val_* ones) in `self.history`."""

    def __init__(self) -> None:
        super().__init__()
        self.history: dict[str, list[Any]] = {}
        # (Keras 3.15 sets `epoch` in on_train_begin only: before fit it is an AttributeError)

    def on_train_begin(self, logs: Any = None) -> None:
        self.epoch = []

    def on_epoch_end(self, epoch: int, logs: Any = None) -> None:
        self.epoch.append(epoch)
        for k, v in (logs or {}).items():
            self.history.setdefault(k, []).append(v)
        self.model.history = self
