"""`tf.keras.optimizers.ScheduleFreeAdamW` (keras/src/optimizers/schedule_free_adamw.py).

The momentum slot z starts as a copy of the variable (built that way; zeros when the build runs
inside a tf.function, whose variable-creating trace TF discards). With t = iterations + 1,
lr scaled by min(t / warmup_steps, 1) when warmup_steps > 0: v += (g^2 - v)(1 - beta_2);
z -= lr * g / (sqrt(v / (1 - beta_2^t)) + epsilon); x = (y - (1 - beta_1) * z_old) / beta_1;
x' = (1 - 1/t) x + z / t; y = (1 - beta_1) z + beta_1 x'. As in Keras 3.15, `z_old` is the
momentum variable itself (`momentum.value`), read after its update: it is the new z.
"""

from __future__ import annotations

from typing import Any

from simdist import tf
from simdist.keras.optimizers import _ops as ops
from simdist.keras.optimizers.base_optimizer import Optimizer, base_args


class ScheduleFreeAdamW(Optimizer):
    def __init__(self, learning_rate: Any = 0.0025, beta_1: float = 0.9, beta_2: float = 0.999,
                 epsilon: float = 1e-8, warmup_steps: int = 0, weight_decay: float | None = None,
                 clipnorm: float | None = None, clipvalue: float | None = None, global_clipnorm: float | None = None,
                 use_ema: bool = False, ema_momentum: float = 0.99, ema_overwrite_frequency: int | None = None,
                 loss_scale_factor: float | None = None, gradient_accumulation_steps: int | None = None,
                 name: str | None = None, **kwargs: Any) -> None:
        super().__init__(learning_rate=learning_rate, **base_args(locals()), **kwargs)
        self.beta_1 = beta_1
        self.beta_2 = beta_2
        self.epsilon = epsilon
        self.warmup_steps = warmup_steps

    def build(self, var_list: Any) -> None:
        if self.built:
            return
        super().build(var_list)
        self._momentums, self._velocities = self.add_optimizer_variables(var_list, ["momentum", "velocity"])
        if tf.inside_function():
            # Built lazily inside a tf.function (the first apply of a traced step; Keras's fit
            # without a strategy): TF traces that call twice, and the first trace, which created
            # the variables, only keeps their initializers: this copy is lost, the momenta stay 0.
            return
        for momentum, var in zip(self._momentums, var_list):
            if momentum is not None:
                self.assign(momentum, tf.identity(ops.convert_to_tensor(var)))

    def update_step(self, gradient: Any, variable: Any, learning_rate: Any) -> None:
        lr = ops.cast(learning_rate, variable.dtype)
        gradient = ops.cast(gradient, variable.dtype)
        local_step = ops.cast(self.iterations + 1, variable.dtype)
        beta_1 = ops.cast(self.beta_1, variable.dtype)
        beta_2 = ops.cast(self.beta_2, variable.dtype)
        epsilon = ops.cast(self.epsilon, variable.dtype)
        if self.warmup_steps > 0:
            warmup_steps = ops.cast(self.warmup_steps, variable.dtype)
            lr = lr * ops.minimum(local_step / warmup_steps, 1.0)
        var_index = self._get_variable_index(variable)
        momentum = self._momentums[var_index]
        velocity = self._velocities[var_index]
        momentum_old = momentum.value          # the variable, not a snapshot (Keras 3.15)
        bias_correction_2 = 1 - ops.power(beta_2, local_step)
        self.assign_add(velocity, ops.multiply(ops.subtract(ops.square(gradient), velocity), 1 - beta_2))
        denom = ops.add(ops.sqrt(velocity / bias_correction_2), epsilon)
        self.assign_sub(momentum, ops.divide(ops.multiply(lr, gradient), denom))
        weight = 1.0 / local_step
        x_old = ops.divide(ops.subtract(variable, ops.multiply(1 - beta_1, momentum_old)), beta_1)
        x_new = ops.add(ops.multiply(1 - weight, x_old), ops.multiply(weight, momentum))
        y_new = ops.add(ops.multiply(1 - beta_1, momentum), ops.multiply(beta_1, x_new))
        self.assign(variable, y_new)

    def get_config(self) -> dict[str, Any]:
        config = super().get_config()
        config.update({"beta_1": self.beta_1, "beta_2": self.beta_2, "epsilon": self.epsilon,
                       "warmup_steps": self.warmup_steps})
        return config
