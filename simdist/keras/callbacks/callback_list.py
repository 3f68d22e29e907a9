"""`keras.callbacks.CallbackList`: fans every hook out to the callbacks, after turning the logs
into sorted Python floats (Keras's pythonify_logs). The TensorFlow backend is not thread safe,
so Keras dispatches synchronously there; so does simdist."""

from __future__ import annotations

from typing import Any

from simdist.keras.callbacks.callback import Callback
from simdist.keras.callbacks.history import History
from simdist.keras.callbacks.progbar_logger import ProgbarLogger
from simdist.keras.utils.python_utils import pythonify_logs


def _flatten(callbacks: Any) -> list[Any]:
    if isinstance(callbacks, (list, tuple)):
        return [c for item in callbacks for c in _flatten(item)]
    return [callbacks]


class CallbackList(Callback):
    """The callbacks of one fit/evaluate/predict call, plus History and ProgbarLogger if asked."""

    def __init__(self, callbacks: Any = None, add_history: bool = False, add_progbar: bool = False,
                 model: Any = None, **params: Any) -> None:
        super().__init__()
        self.callbacks = _flatten(callbacks) if callbacks else []
        self._in_begin_end_block_count = 0
        self._add_default_callbacks(add_history, add_progbar)
        self.set_model(model)
        self.set_params(params)

    def set_params(self, params: Any) -> None:
        self.params = params
        if params:
            for callback in self.callbacks:
                callback.set_params(params)

    def _add_default_callbacks(self, add_history: bool, add_progbar: bool) -> None:
        self._progbar = None
        self._history = None
        for cb in self.callbacks:
            if isinstance(cb, ProgbarLogger):
                self._progbar = cb
            elif isinstance(cb, History):
                self._history = cb
        if self._history is None and add_history:
            self._history = History()
            self.callbacks.append(self._history)
        if self._progbar is None and add_progbar:
            self._progbar = ProgbarLogger()
            self.callbacks.append(self._progbar)

    def append(self, callback: Callback) -> None:
        self.callbacks.append(callback)

    def set_model(self, model: Any) -> None:
        if not model:
            return
        super().set_model(model)
        if self._history:
            model.history = self._history
        for callback in self.callbacks:
            callback.set_model(model)

    def _on_begin(self) -> None:
        self._in_begin_end_block_count += 1

    def _on_end(self) -> None:
        self._in_begin_end_block_count -= 1
        if self._in_begin_end_block_count < 0:
            raise ValueError("`on_xxx_end` called without corresponding `on_xxx_begin`")

    def _each(self, hook: str, *args: Any, logs: Any = None) -> None:
        """Call `hook` on every callback in order. Keras 3.15's CallbackList passes the batch hooks'
        logs by keyword (`on_train_batch_end(batch, logs=logs)`) and the epoch, begin and end hooks'
        positionally (`on_epoch_end(epoch, logs)`): a user hook must take `logs` by that name (or
        **kwargs) in the first case and may name it anything in the second (clause keras.fit.callbacks)."""
        logs = pythonify_logs(logs)
        by_name = hook.endswith(("batch_begin", "batch_end"))
        for callback in self.callbacks:
            getattr(callback, hook)(*args, logs) if not by_name else getattr(callback, hook)(*args, logs=logs)

    def on_batch_begin(self, batch: int, logs: Any = None) -> None:
        self._each("on_batch_begin", batch, logs=logs)

    def on_batch_end(self, batch: int, logs: Any = None) -> None:
        self._each("on_batch_end", batch, logs=logs)

    def on_epoch_begin(self, epoch: int, logs: Any = None) -> None:
        self._each("on_epoch_begin", epoch, logs=logs)

    def on_epoch_end(self, epoch: int, logs: Any = None) -> None:
        self._each("on_epoch_end", epoch, logs=logs)

    def on_train_batch_begin(self, batch: int, logs: Any = None) -> None:
        self._each("on_train_batch_begin", batch, logs=logs)

    def on_train_batch_end(self, batch: int, logs: Any = None) -> None:
        self._each("on_train_batch_end", batch, logs=logs)

    def on_test_batch_begin(self, batch: int, logs: Any = None) -> None:
        self._each("on_test_batch_begin", batch, logs=logs)

    def on_test_batch_end(self, batch: int, logs: Any = None) -> None:
        self._each("on_test_batch_end", batch, logs=logs)

    def on_predict_batch_begin(self, batch: int, logs: Any = None) -> None:
        self._each("on_predict_batch_begin", batch, logs=logs)

    def on_predict_batch_end(self, batch: int, logs: Any = None) -> None:
        self._each("on_predict_batch_end", batch, logs=logs)

    def on_train_begin(self, logs: Any = None) -> None:
        self._on_begin()
        self._each("on_train_begin", logs=logs)

    def on_train_end(self, logs: Any = None) -> None:
        self._each("on_train_end", logs=logs)
        self._on_end()

    def on_test_begin(self, logs: Any = None) -> None:
        self._on_begin()
        self._each("on_test_begin", logs=logs)

    def on_test_end(self, logs: Any = None) -> None:
        self._each("on_test_end", logs=logs)
        self._on_end()

    def on_predict_begin(self, logs: Any = None) -> None:
        self._on_begin()
        self._each("on_predict_begin", logs=logs)

    def on_predict_end(self, logs: Any = None) -> None:
        self._each("on_predict_end", logs=logs)
        self._on_end()
