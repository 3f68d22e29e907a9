"""`tf.keras.optimizers.SGD` (keras/src/optimizers/sgd.py): plain, momentum and Nesterov.

With momentum the update is `m = momentum * m - lr * g; var += m` (Nesterov:
`var += momentum * m - lr * g` with the new m); without, `var -= lr * g`, a scatter_sub of the
rows for IndexedSlices gradients (with momentum, `m * momentum - g * lr` is dense).
"""

from __future__ import annotations

from typing import Any

from simdist.keras.optimizers import _ops as ops
from simdist.keras.optimizers.base_optimizer import Optimizer, base_args


class SGD(Optimizer):
    def __init__(self, learning_rate: Any = 0.01, momentum: float = 0.0, nesterov: bool = False,
                 weight_decay: float | None = None, clipnorm: float | None = None, clipvalue: float | None = None,
                 global_clipnorm: float | None = None, use_ema: bool = False, ema_momentum: float = 0.99,
                 ema_overwrite_frequency: int | None = None, loss_scale_factor: float | None = None,
                 gradient_accumulation_steps: int | None = None, name: str | None = None, **kwargs: Any) -> None:
        super().__init__(learning_rate=learning_rate, **base_args(locals()), **kwargs)
        if not isinstance(momentum, float) or momentum < 0 or momentum > 1:
            raise ValueError("`momentum` must be a float between [0, 1].")
        self.momentum = momentum
        self.nesterov = nesterov

    def build(self, variables: Any) -> None:
        if self.built:
            return
        super().build(variables)
        self.momentums: list[Any] = []
        if self.momentum != 0:
            self.momentums = self.add_optimizer_variables(variables, "momentum")

    def update_step(self, gradient: Any, variable: Any, learning_rate: Any) -> None:
        learning_rate = ops.cast(learning_rate, variable.dtype)
        gradient = ops.cast(gradient, variable.dtype)
        m = self.momentums[self._get_variable_index(variable)] if self.momentum != 0 else None
        if m is not None:
            momentum = ops.cast(self.momentum, variable.dtype)
            self.assign(m, ops.subtract(ops.multiply(m, momentum), ops.multiply(gradient, learning_rate)))
            if self.nesterov:
                self.assign_add(variable, ops.subtract(ops.multiply(m, momentum),
                                                       ops.multiply(gradient, learning_rate)))
            else:
                self.assign_add(variable, m)
        else:
            self.assign_sub(variable, ops.multiply(gradient, learning_rate))

    def get_config(self) -> dict[str, Any]:
        config = super().get_config()
        config.update({"momentum": self.momentum, "nesterov": self.nesterov})
        return config
