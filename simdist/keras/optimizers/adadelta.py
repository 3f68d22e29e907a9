"""`tf.keras.optimizers.Adadelta` (keras/src/optimizers/adadelta.py).

acc_g = rho * acc_g + (1 - rho) * g^2; delta = -sqrt(acc_d + eps) * g / sqrt(acc_g + eps);
acc_d = rho * acc_d + (1 - rho) * delta^2; var += lr * delta.
"""

from __future__ import annotations

from typing import Any

from simdist.keras.optimizers import _ops as ops
from simdist.keras.optimizers.base_optimizer import Optimizer, base_args


class Adadelta(Optimizer):
    def __init__(self, learning_rate: Any = 0.001, rho: float = 0.95, epsilon: float = 1e-7,
                 weight_decay: float | None = None, clipnorm: float | None = None, clipvalue: float | None = None,
                 global_clipnorm: float | None = None, use_ema: bool = False, ema_momentum: float = 0.99,
                 ema_overwrite_frequency: int | None = None, loss_scale_factor: float | None = None,
                 gradient_accumulation_steps: int | None = None, name: str | None = None, **kwargs: Any) -> None:
        super().__init__(learning_rate=learning_rate, **base_args(locals()), **kwargs)
        self.rho = rho
        self.epsilon = epsilon

    def build(self, var_list: Any) -> None:
        if self.built:
            return
        super().build(var_list)
        self._accumulated_grads, self._accumulated_delta_vars = self.add_optimizer_variables(
            var_list, ["accumulated_grad", "accumulated_delta_var"])

    def update_step(self, grad: Any, variable: Any, learning_rate: Any) -> None:
        lr = ops.cast(learning_rate, variable.dtype)
        grad = ops.cast(grad, variable.dtype)
        rho = self.rho
        accumulated_grad = self._accumulated_grads[self._get_variable_index(variable)]
        accumulated_delta_var = self._accumulated_delta_vars[self._get_variable_index(variable)]

        def rms(x: Any) -> Any:
            return ops.sqrt(ops.add(x, self.epsilon))

        self.assign(accumulated_grad, ops.add(rho * accumulated_grad, ops.multiply(1 - rho, ops.square(grad))))
        delta_var = ops.negative(ops.divide(ops.multiply(rms(accumulated_delta_var), grad), rms(accumulated_grad)))
        self.assign(accumulated_delta_var, ops.add(ops.multiply(rho, accumulated_delta_var),
                                                   ops.multiply(1 - rho, ops.square(delta_var))))
        self.assign_add(variable, ops.multiply(lr, delta_var))

    def get_config(self) -> dict[str, Any]:
        config = super().get_config()
        config.update({"rho": self.rho, "epsilon": self.epsilon})
        return config
