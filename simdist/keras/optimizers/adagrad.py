"""`tf.keras.optimizers.Adagrad` (keras/src/optimizers/adagrad.py).

acc += g^2; var -= lr * g / sqrt(acc + epsilon). For IndexedSlices gradients both updates are
sparse: acc gets a scatter_add of the squared rows (a repeated row adds the square of each
occurrence, not the square of their sum) and var a scatter_sub.
"""

from __future__ import annotations

from typing import Any

from simdist.keras import initializers
from simdist.keras.optimizers import _ops as ops
from simdist.keras.optimizers.base_optimizer import Optimizer, base_args


class Adagrad(Optimizer):
    def __init__(self, learning_rate: Any = 0.001, initial_accumulator_value: float = 0.1, epsilon: float = 1e-7,
                 weight_decay: float | None = None, clipnorm: float | None = None, clipvalue: float | None = None,
                 global_clipnorm: float | None = None, use_ema: bool = False, ema_momentum: float = 0.99,
                 ema_overwrite_frequency: int | None = None, loss_scale_factor: float | None = None,
                 gradient_accumulation_steps: int | None = None, name: str | None = None, **kwargs: Any) -> None:
        super().__init__(learning_rate=learning_rate, **base_args(locals()), **kwargs)
        self.initial_accumulator_value = initial_accumulator_value
        self.epsilon = epsilon

    def build(self, var_list: Any) -> None:
        if self.built:
            return
        super().build(var_list)
        self._accumulators = self.add_optimizer_variables(var_list, "accumulator",
                                                          initializer=initializers.Constant(self.initial_accumulator_value))
        # (Keras's Constant: `ops.cast(value) * ones`, so a list broadcasts, None is convert_to_tensor's
        # ValueError and a str the Cast's UnimplementedError; asweep65, fix65k)

    def update_step(self, gradient: Any, variable: Any, learning_rate: Any) -> None:
        lr = ops.cast(learning_rate, variable.dtype)
        gradient = ops.cast(gradient, variable.dtype)
        accumulator = self._accumulators[self._get_variable_index(variable)]
        self.assign_add(accumulator, ops.square(gradient))
        self.assign_sub(variable, ops.divide(ops.multiply(lr, gradient),
                                             ops.sqrt(ops.add(accumulator, self.epsilon))))

    def get_config(self) -> dict[str, Any]:
        config = super().get_config()
        config.update({"initial_accumulator_value": self.initial_accumulator_value, "epsilon": self.epsilon})
        return config
