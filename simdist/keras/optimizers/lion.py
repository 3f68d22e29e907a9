"""`tf.keras.optimizers.Lion` (keras/src/optimizers/lion.py).

var -= lr * sign(beta_1 * m + (1 - beta_1) * g); then m = beta_2 * m + (1 - beta_2) * g.
beta_1 must be in (0, 1].
"""

from __future__ import annotations

from typing import Any

from simdist.keras.optimizers import _ops as ops
from simdist.keras.optimizers.base_optimizer import Optimizer, base_args


class Lion(Optimizer):
    def __init__(self, learning_rate: Any = 0.001, beta_1: float = 0.9, beta_2: float = 0.99,
                 weight_decay: float | None = None, clipnorm: float | None = None, clipvalue: float | None = None,
                 global_clipnorm: float | None = None, use_ema: bool = False, ema_momentum: float = 0.99,
                 ema_overwrite_frequency: int | None = None, loss_scale_factor: float | None = None,
                 gradient_accumulation_steps: int | None = None, name: str | None = None, **kwargs: Any) -> None:
        super().__init__(learning_rate=learning_rate, **base_args(locals()), **kwargs)
        self.beta_1 = beta_1
        self.beta_2 = beta_2
        if beta_1 <= 0 or beta_1 > 1:
            raise ValueError("Argument `beta_1` must be in the [0, 1] range. Otherwise, the optimizer degenerates "
                             f"to SignSGD. Received: beta_1={beta_1}.")

    def build(self, var_list: Any) -> None:
        if self.built:
            return
        super().build(var_list)
        self._momentums = self.add_optimizer_variables(var_list, "momentum")

    def update_step(self, gradient: Any, variable: Any, learning_rate: Any) -> None:
        lr = ops.cast(learning_rate, variable.dtype)
        gradient = ops.cast(gradient, variable.dtype)
        beta_1 = ops.cast(self.beta_1, variable.dtype)
        beta_2 = ops.cast(self.beta_2, variable.dtype)
        m = self._momentums[self._get_variable_index(variable)]
        self.assign_sub(variable, ops.multiply(lr, ops.sign(ops.add(ops.multiply(m, beta_1),
                                                                    ops.multiply(gradient, (1.0 - beta_1))))))
        self.assign(m, ops.add(ops.multiply(m, beta_2), ops.multiply(gradient, (1.0 - beta_2))))

    def get_config(self) -> dict[str, Any]:
        config = super().get_config()
        config.update({"beta_1": self.beta_1, "beta_2": self.beta_2})
        return config
