"""`tf.keras.optimizers.Nadam` (keras/src/optimizers/nadam.py): Adam with Nesterov momentum.

Once per apply, before the update steps (in the replica context, on each copy):
u_product *= beta_1 * (1 - 0.5 * 0.96^(t)), t = iterations + 1 (a variable of the first model
variable's dtype, starting at 1.0). Then per variable, with u_t = beta_1 * (1 - 0.5 * 0.96^t) and
u_t1 = beta_1 * (1 - 0.5 * 0.96^(t+1)): m += (g - m) * (1 - beta_1); v += (g^2 - v) * (1 - beta_2);
m_hat = u_t1 * m / (1 - u_product * u_t1) + (1 - u_t) * g / (1 - u_product);
v_hat = v / (1 - beta_2^t); var -= m_hat * lr / (sqrt(v_hat) + epsilon).
"""

from __future__ import annotations

from typing import Any

from simdist.keras import config
from simdist.keras.optimizers import _ops as ops
from simdist.keras.optimizers.base_optimizer import Optimizer, base_args


class Nadam(Optimizer):
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
        dtype = var_list[0].dtype if var_list else config.floatx()
        super().build(var_list)
        self._momentums, self._velocities = self.add_optimizer_variables(var_list, ["momentum", "velocity"])
        self._u_product = self._make_variable(1.0, (), dtype, None, scoped=False, trainable=True, by_attribute=True)

    def _backend_update_step(self, grads: list[Any], trainable_variables: list[Any], learning_rate: Any) -> None:
        dtype = self._u_product.dtype
        decay = ops.power(0.96, ops.cast(self.iterations + 1, dtype))
        self.assign(self._u_product, self._u_product * self.beta_1 * (1.0 - 0.5 * decay))
        super()._backend_update_step(grads, trainable_variables, learning_rate)

    def update_step(self, gradient: Any, variable: Any, learning_rate: Any) -> None:
        var_dtype = variable.dtype
        lr = ops.cast(learning_rate, var_dtype)
        gradient = ops.cast(gradient, var_dtype)
        local_step = ops.cast(self.iterations + 1, var_dtype)
        next_step = ops.cast(self.iterations + 2, var_dtype)
        decay = ops.cast(0.96, var_dtype)
        beta_1 = ops.cast(self.beta_1, var_dtype)
        beta_2 = ops.cast(self.beta_2, var_dtype)
        u_t = beta_1 * (1.0 - 0.5 * ops.power(decay, local_step))
        u_t_1 = beta_1 * (1.0 - 0.5 * ops.power(decay, next_step))
        u_product_t = ops.cast(self._u_product, var_dtype)
        u_product_t_1 = u_product_t * u_t_1
        beta_2_power = ops.power(beta_2, local_step)
        m = self._momentums[self._get_variable_index(variable)]
        v = self._velocities[self._get_variable_index(variable)]
        self.assign_add(m, ops.multiply(ops.subtract(gradient, m), (1 - beta_1)))
        self.assign_add(v, ops.multiply(ops.subtract(ops.square(gradient), v), (1 - beta_2)))
        m_hat = ops.add(ops.divide(ops.multiply(u_t_1, m), 1 - u_product_t_1),
                        ops.divide(ops.multiply(1 - u_t, gradient), 1 - u_product_t))
        v_hat = ops.divide(v, (1 - beta_2_power))
        self.assign_sub(variable, ops.divide(ops.multiply(m_hat, lr), ops.add(ops.sqrt(v_hat), self.epsilon)))

    def get_config(self) -> dict[str, Any]:
        config = super().get_config()
        config.update({"beta_1": self.beta_1, "beta_2": self.beta_2, "epsilon": self.epsilon})
        return config
