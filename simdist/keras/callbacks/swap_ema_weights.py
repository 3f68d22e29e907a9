"""`keras.callbacks.SwapEMAWeights` (Keras 3.15's swap_ema_weights.py): with an optimizer built
with `use_ema=True`, evaluation and prediction (and, with `swap_on_epoch`, the end of each
epoch until the next begins) run on the moving averages. The TensorFlow backend swaps each
variable v with its average a by arithmetic inside `strategy.extended.update`: v += a; a = v - a;
v -= a (so a swapped value is exact only where those sums are); after the last epoch with
`swap_on_epoch` the averages are set to the (swapped-in) variables. A MultiOptimizer-like
optimizer (`optimizers`) swaps those inner ones with use_ema; an optimizer without averages is
ValueError. Keras's `on_predict_end` swaps back only when the averages are not in the model, a
condition that never holds after `on_predict_begin`: predict leaves the averages in the model."""

from __future__ import annotations

from typing import Any, Callable

from simdist.keras.callbacks.callback import Callback
from simdist.keras.optimizers._variable import unwrap

__all__ = ["SwapEMAWeights"]


def _swap(optimizer: Any) -> None:
    extended = optimizer._distribution_strategy.extended
    for var, average in zip(optimizer._trainable_variables, optimizer._model_variables_moving_average):
        var, average = unwrap(var), unwrap(average)
        extended.update(var, lambda a, b: a.assign_add(b), args=(average,))
        extended.update(var, lambda a, b: b.assign(a - b), args=(average,))
        extended.update(var, lambda a, b: a.assign(a - b), args=(average,))


def _finalize(optimizer: Any) -> None:
    extended = optimizer._distribution_strategy.extended
    for var, average in zip(optimizer._trainable_variables, optimizer._model_variables_moving_average):
        var, average = unwrap(var), unwrap(average)
        extended.update(average, lambda a, b: a.assign(b), args=(var,))


class SwapEMAWeights(Callback):
    """`keras.callbacks.SwapEMAWeights(swap_on_epoch=False)`."""

    def __init__(self, swap_on_epoch: bool = False) -> None:
        super().__init__()
        self.swap_on_epoch = swap_on_epoch
        self._ema_weights_in_model = False

    def _apply_to_ema_optimizers(self, fn: Callable[[Any], None]) -> None:
        optimizer = self.model.optimizer
        if hasattr(optimizer, "inner_optimizer"):
            optimizer = optimizer.inner_optimizer
        if hasattr(optimizer, "optimizers"):
            if not any(getattr(opt, "use_ema", False) for opt in optimizer.optimizers):
                raise ValueError("SwapEMAWeights must be used when at least one inner optimizer has `use_ema=True` "
                                 "set. Received a MultiOptimizer with all inner optimizers having `use_ema=False`.")
            for opt in optimizer.optimizers:
                if getattr(opt, "use_ema", False):
                    if not hasattr(opt, "_model_variables_moving_average"):
                        raise ValueError("SwapEMAWeights must be used when `use_ema=True` is set on the optimizer. "
                                         f"Received: use_ema={opt.use_ema}")
                    fn(opt)
            return
        if not hasattr(optimizer, "_model_variables_moving_average"):
            raise ValueError("SwapEMAWeights must be used when `use_ema=True` is set on the optimizer. "
                             f"Received: use_ema={optimizer.use_ema}")
        fn(optimizer)

    def _swap_variables(self) -> None:
        self._apply_to_ema_optimizers(_swap)

    def _finalize_ema_values(self) -> None:
        self._apply_to_ema_optimizers(_finalize)

    def on_epoch_begin(self, epoch: int, logs: Any = None) -> None:
        if self.swap_on_epoch and self._ema_weights_in_model:
            self._swap_variables()
            self._ema_weights_in_model = False

    def on_epoch_end(self, epoch: int, logs: Any = None) -> None:
        if self.swap_on_epoch and not self._ema_weights_in_model:
            self._swap_variables()
            self._ema_weights_in_model = True
            if epoch == self.params["epochs"] - 1:
                self._finalize_ema_values()

    def on_test_begin(self, logs: Any = None) -> None:
        if not self._ema_weights_in_model:
            self._swap_variables()
            self._ema_weights_in_model = True

    def on_test_end(self, logs: Any = None) -> None:
        if self._ema_weights_in_model:
            self._swap_variables()
            self._ema_weights_in_model = False

    def on_predict_begin(self, logs: Any = None) -> None:
        if not self._ema_weights_in_model:
            self._swap_variables()
            self._ema_weights_in_model = True

    def on_predict_end(self, logs: Any = None) -> None:
        if not self._ema_weights_in_model:   # (Keras's condition: after on_predict_begin it never holds)
            self._swap_variables()
            self._ema_weights_in_model = False
