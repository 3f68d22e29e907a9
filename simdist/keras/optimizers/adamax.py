"""`tf.keras.optimizers.Adamax` (keras/src/optimizers/adamax.py): Adam with the infinity norm.

m += (g - m) * (1 - beta_1); u = max(beta_2 * u, |g|);
var -= lr * m / ((1 - beta_1^t) * (u + epsilon)), t = iterations + 1.
"""

from __future__ import annotations

from typing import Any

from simdist.keras.optimizers import _ops as ops
from simdist.keras.optimizers.base_optimizer import Optimizer, base_args


class Adamax(Optimizer):
    def __init__(self, learning_rate: Any = 0.001, beta_1: float = 0.9, beta_2: float = 0.999,
                 epsilon: float = 1e-7, weight_decay: float | None = None, clipnorm: float | None = None,
                 clipvalue: float | None = None, global_clipnorm: float | None = None, use_ema: bool = False,
                 ema_momentum: float = 0.99, ema_overwrite_frequency: int | None = None,
                 loss_scale_factor: float | None = None, gradient_accumulation_steps: int | None = None,
                 name: str | None = None, **kwargs: Any) -> None:
        super().__init__(learning_rate=learning_rate, **base_args(locals()), **kwargs)
        self.beta_1 = beta_1
        self.beta_2 = beta_2
        self.epsilon = epsilon

    def build(self, var_list: Any) -> None:
        if self.built:
            return
        super().build(var_list)
        self._m, self._u = self.add_optimizer_variables(var_list, ["momentum", "norm"])

    def update_step(self, gradient: Any, variable: Any, learning_rate: Any) -> None:
        lr = ops.cast(learning_rate, variable.dtype)
        gradient = ops.cast(gradient, variable.dtype)
        local_step = ops.cast(self.iterations + 1, variable.dtype)
        beta_1_power = ops.power(ops.cast(self.beta_1, variable.dtype), local_step)
        m = self._m[self._get_variable_index(variable)]
        u = self._u[self._get_variable_index(variable)]
        self.assign_add(m, ops.multiply(ops.subtract(gradient, m), (1 - self.beta_1)))
        self.assign(u, ops.maximum(ops.multiply(self.beta_2, u), ops.abs(gradient)))
        self.assign_sub(variable, ops.divide(ops.multiply(lr, m),
                                             ops.multiply((1 - beta_1_power), ops.add(u, self.epsilon))))

    def get_config(self) -> dict[str, Any]:
        config = super().get_config()
        config.update({"beta_1": self.beta_1, "beta_2": self.beta_2, "epsilon": self.epsilon})
        return config
