"""`tf.keras.optimizers.Ftrl` (keras/src/optimizers/ftrl.py): follow the regularized leader.

l2 = l2_regularization_strength + beta / (2 * lr); g' = g + 2 * l2_shrinkage * var;
n' = n + g^2; linear += g' - (n'^(-p) - n^(-p)) / lr * var (p = learning_rate_power);
var = (clip(linear, -l1, l1) - linear) / (n'^(-p) / lr + 2 * l2); n = n'.
The accumulator starts at `initial_accumulator_value`.
"""

from __future__ import annotations

from typing import Any

from simdist.keras.optimizers import _ops as ops
from simdist.keras.optimizers.base_optimizer import Optimizer, base_args


class Ftrl(Optimizer):
    def __init__(self, learning_rate: Any = 0.001, learning_rate_power: float = -0.5,
                 initial_accumulator_value: float = 0.1, l1_regularization_strength: float = 0.0,
                 l2_regularization_strength: float = 0.0, l2_shrinkage_regularization_strength: float = 0.0,
                 beta: float = 0.0, weight_decay: float | None = None, clipnorm: float | None = None,
                 clipvalue: float | None = None, global_clipnorm: float | None = None, use_ema: bool = False,
                 ema_momentum: float = 0.99, ema_overwrite_frequency: int | None = None,
                 loss_scale_factor: float | None = None, gradient_accumulation_steps: int | None = None,
                 name: str | None = None, **kwargs: Any) -> None:
        super().__init__(learning_rate=learning_rate, **base_args(locals()), **kwargs)
        for arg, value in (("initial_accumulator_value", initial_accumulator_value),
                           ("l1_regularization_strength", l1_regularization_strength),
                           ("l2_regularization_strength", l2_regularization_strength),
                           ("l2_shrinkage_regularization_strength", l2_shrinkage_regularization_strength)):
            if value < 0.0:
                raise ValueError(f"`{arg}` needs to be positive or zero. Received: {arg}={value}.")
            if arg == "initial_accumulator_value" and learning_rate_power > 0.0:
                raise ValueError("`learning_rate_power` needs to be negative or zero. Received: "
                                 f"learning_rate_power={learning_rate_power}.")
        self.learning_rate_power = learning_rate_power
        self.initial_accumulator_value = initial_accumulator_value
        self.l1_regularization_strength = l1_regularization_strength
        self.l2_regularization_strength = l2_regularization_strength
        self.l2_shrinkage_regularization_strength = l2_shrinkage_regularization_strength
        self.beta = beta

    def build(self, var_list: Any) -> None:
        if self.built:
            return
        super().build(var_list)
        self._accumulators, self._linears = self.add_optimizer_variables(
            var_list, ["accumulator", "linear"], initializer=[float(self.initial_accumulator_value), "zeros"])

    def update_step(self, gradient: Any, variable: Any, learning_rate: Any) -> None:
        lr = ops.cast(learning_rate, variable.dtype)
        gradient = ops.cast(gradient, variable.dtype)
        accum = self._accumulators[self._get_variable_index(variable)]
        linear = self._linears[self._get_variable_index(variable)]
        lr_power = self.learning_rate_power
        l2_reg = self.l2_regularization_strength + self.beta / (2.0 * lr)
        grad_to_use = ops.add(gradient, ops.multiply(2 * self.l2_shrinkage_regularization_strength, variable))
        new_accum = ops.add(accum, ops.square(gradient))
        self.assign_add(linear, ops.subtract(grad_to_use, ops.multiply(
            ops.divide(ops.subtract(ops.power(new_accum, -lr_power), ops.power(accum, -lr_power)), lr), variable)))
        quadratic = ops.add(ops.divide(ops.power(new_accum, (-lr_power)), lr), 2 * l2_reg)
        linear_clipped = ops.clip(linear, -self.l1_regularization_strength, self.l1_regularization_strength)
        self.assign(variable, ops.divide(ops.subtract(linear_clipped, linear), quadratic))
        self.assign(accum, new_accum)

    def get_config(self) -> dict[str, Any]:
        config = super().get_config()
        config.update({"learning_rate_power": self.learning_rate_power,
                       "initial_accumulator_value": self.initial_accumulator_value,
                       "l1_regularization_strength": self.l1_regularization_strength,
                       "l2_regularization_strength": self.l2_regularization_strength,
                       "l2_shrinkage_regularization_strength": self.l2_shrinkage_regularization_strength,
                       "beta": self.beta})
        return config
