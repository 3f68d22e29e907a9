"""`tf.keras.optimizers.Lamb` (keras/src/optimizers/lamb.py): Adam's direction, scaled per
variable by the trust ratio.

m += (g - m) * (1 - beta_1); v += (g^2 - v) * (1 - beta_2);
update = (m / (1 - beta_1^t)) / (sqrt(v / (1 - beta_2^t)) + epsilon), t = iterations + 1;
ratio = ||var|| / ||update|| if both norms are > 0, else 1; var -= ratio * lr * update.
"""

from __future__ import annotations

from typing import Any

from simdist.keras.optimizers import _ops as ops
from simdist.keras.optimizers.base_optimizer import Optimizer, base_args


class Lamb(Optimizer):
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
        self._momentums, self._velocities = self.add_optimizer_variables(var_list, ["momentum", "velocity"])

    def update_step(self, gradient: Any, variable: Any, learning_rate: Any) -> None:
        lr = ops.cast(learning_rate, variable.dtype)
        gradient = ops.cast(gradient, variable.dtype)
        local_step = ops.cast(self.iterations + 1, variable.dtype)
        beta_1_power = ops.power(ops.cast(self.beta_1, variable.dtype), local_step)
        beta_2_power = ops.power(ops.cast(self.beta_2, variable.dtype), local_step)
        m = self._momentums[self._get_variable_index(variable)]
        v = self._velocities[self._get_variable_index(variable)]
        self.assign_add(m, ops.multiply(ops.subtract(gradient, m), 1 - self.beta_1))
        self.assign_add(v, ops.multiply(ops.subtract(ops.square(gradient), v), 1 - self.beta_2))
        m_t_hat = ops.divide(m, (1.0 - beta_1_power))
        v_sqrt = ops.add(ops.sqrt(ops.divide(v, (1.0 - beta_2_power))), self.epsilon)
        update = ops.divide(m_t_hat, v_sqrt)
        w_norm = ops.sqrt(ops.sum(ops.power(variable, 2)))
        g_norm = ops.sqrt(ops.sum(ops.power(update, 2)))
        ratio = ops.where(ops.greater(w_norm, 0), ops.where(ops.greater(g_norm, 0), (w_norm / g_norm), 1.0), 1.0)
        self.assign_sub(variable, ratio * lr * update)

    def get_config(self) -> dict[str, Any]:
        config = super().get_config()
        config.update({"beta_1": self.beta_1, "beta_2": self.beta_2, "epsilon": self.epsilon})
        return config
