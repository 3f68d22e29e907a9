"""`tf.keras.optimizers.RMSprop` (keras/src/optimizers/rmsprop.py), with momentum and centering.

v = rho * v + (1 - rho) * g^2; (centered: a = rho * a + (1 - rho) * g, denominator v - a^2 + eps,
else v + eps); increment = lr * g / sqrt(denominator); with momentum `mom = momentum * mom +
increment; var -= mom`, else `var -= increment` (a scatter_sub for IndexedSlices gradients).
"""

from __future__ import annotations

from typing import Any

from simdist.keras.optimizers import _ops as ops
from simdist.keras.optimizers.base_optimizer import Optimizer, base_args


class RMSprop(Optimizer):
    def __init__(self, learning_rate: Any = 0.001, rho: float = 0.9, momentum: float = 0.0, epsilon: float = 1e-7,
                 centered: bool = False, weight_decay: float | None = None, clipnorm: float | None = None,
                 clipvalue: float | None = None, global_clipnorm: float | None = None, use_ema: bool = False,
                 ema_momentum: float = 0.99, ema_overwrite_frequency: int | None = None,
                 loss_scale_factor: float | None = None, gradient_accumulation_steps: int | None = None,
                 name: str | None = None, **kwargs: Any) -> None:
        super().__init__(learning_rate=learning_rate, **base_args(locals()), **kwargs)
        self.rho = rho
        self.momentum = momentum
        self.epsilon = epsilon
        self.centered = centered

    def build(self, var_list: Any) -> None:
        if self.built:
            return
        super().build(var_list)
        self._velocities = self.add_optimizer_variables(var_list, "velocity")
        self._momentums: list[Any] = []
        if self.momentum > 0:
            self._momentums = self.add_optimizer_variables(var_list, "momentum")
        self._average_gradients: list[Any] = []
        if self.centered:
            self._average_gradients = self.add_optimizer_variables(var_list, "average_gradient")

    def update_step(self, gradient: Any, variable: Any, learning_rate: Any) -> None:
        lr = ops.cast(learning_rate, variable.dtype)
        gradient = ops.cast(gradient, variable.dtype)
        index = self._get_variable_index(variable)
        velocity = self._velocities[index]
        momentum = self._momentums[index] if self.momentum > 0 else None
        average_grad = self._average_gradients[index] if self.centered else None
        rho = self.rho
        self.assign(velocity, ops.add(ops.multiply(rho, velocity), ops.multiply(1 - rho, ops.square(gradient))))
        if self.centered:
            self.assign(average_grad, ops.add(ops.multiply(rho, average_grad), ops.multiply(1 - rho, gradient)))
            denominator = velocity - ops.square(average_grad) + self.epsilon
        else:
            denominator = ops.add(velocity, self.epsilon)
        increment = ops.divide(ops.multiply(lr, gradient), ops.sqrt(denominator))
        if self.momentum > 0:
            self.assign(momentum, ops.add(ops.multiply(self.momentum, momentum), increment))
            self.assign_sub(variable, momentum)
        else:
            self.assign_sub(variable, increment)

    def get_config(self) -> dict[str, Any]:
        config = super().get_config()
        config.update({"rho": self.rho, "momentum": self.momentum, "epsilon": self.epsilon,
                       "centered": self.centered})
        return config
