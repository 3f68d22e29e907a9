"""`keras.callbacks.LambdaCallback`: hooks from plain functions."""

from __future__ import annotations

from typing import Any

from simdist.keras.callbacks.callback import Callback


class LambdaCallback(Callback):
    """on_epoch_begin/end(epoch, logs), on_train_batch_begin/end(batch, logs), on_train_begin/end(logs), ..."""

    def __init__(self, on_epoch_begin: Any = None, on_epoch_end: Any = None, on_train_begin: Any = None,
                 on_train_end: Any = None, on_train_batch_begin: Any = None, on_train_batch_end: Any = None,
                 **kwargs: Any) -> None:
        super().__init__()
        self.__dict__.update(kwargs)
        for name, fn in (("on_epoch_begin", on_epoch_begin), ("on_epoch_end", on_epoch_end),
                         ("on_train_begin", on_train_begin), ("on_train_end", on_train_end),
                         ("on_train_batch_begin", on_train_batch_begin), ("on_train_batch_end", on_train_batch_end)):
            if fn is not None:
                setattr(self, name, fn)
