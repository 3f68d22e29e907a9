"""`tf.keras.optimizers.Adafactor` (keras/src/optimizers/adafactor.py): factored second moments.

t = iterations + 1; lr = min(lr, 1/sqrt(t)) when `relative_step` and the learning rate is not a
schedule or callable; rho = min(lr, 1/sqrt(t)); alpha = max(epsilon_2, rms(var)) * rho;
G = g^2 + epsilon_1; beta_2 = 1 - t^beta_2_decay. For a variable of rank >= 2:
r = beta_2 * r + (1 - beta_2) * mean(G, -1); c = beta_2 * c + (1 - beta_2) * mean(G, -2);
v = (r / mean(r, -1))[..., None] * c[..., None, :]; otherwise v = beta_2 * v + (1 - beta_2) * G.
u = g / sqrt(v); var -= alpha * u / max(1, rms(u) / clip_threshold) (rms(x) = sqrt(mean(x^2))).
Keras's build makes r and c (named after the variable) for rank >= 2, and two int32 scalar
placeholders (`backend.Variable(0)`) otherwise, then the velocity slot.
"""

from __future__ import annotations

from typing import Any

from simdist.keras.optimizers import _ops as ops
from simdist.keras.optimizers.base_optimizer import Optimizer, base_args


class Adafactor(Optimizer):
    def __init__(self, learning_rate: Any = 0.001, beta_2_decay: float = -0.8, epsilon_1: float = 1e-30,
                 epsilon_2: float = 1e-3, clip_threshold: float = 1.0, relative_step: bool = True,
                 weight_decay: float | None = None, clipnorm: float | None = None, clipvalue: float | None = None,
                 global_clipnorm: float | None = None, use_ema: bool = False, ema_momentum: float = 0.99,
                 ema_overwrite_frequency: int | None = None, loss_scale_factor: float | None = None,
                 gradient_accumulation_steps: int | None = None, name: str | None = None, **kwargs: Any) -> None:
        super().__init__(learning_rate=learning_rate, **base_args(locals()), **kwargs)
        self.beta_2_decay = beta_2_decay
        self.epsilon_1 = epsilon_1
        self.epsilon_2 = epsilon_2
        self.clip_threshold = clip_threshold
        self.relative_step = relative_step

    def build(self, var_list: Any) -> None:
        if self.built:
            return
        super().build(var_list)
        self._r: list[Any] = []
        self._c: list[Any] = []
        self._v: list[Any] = []
        for var in var_list:
            overwrite = getattr(var, "overwrite_with_gradient", False)
            if len(var.shape) < 2:
                # Keras: placeholders, so that r and c are indexed like the variables
                self._r.append(self._make_variable(0, (), "int32", var.name, scoped=False, by_attribute=True))
                self._c.append(self._make_variable(0, (), "int32", var.name, scoped=False, by_attribute=True))
            elif overwrite:
                self._r.append(None)
                self._c.append(None)
            else:
                shape = tuple(var.shape)
                self._r.append(self.add_variable(shape=shape[:-1], dtype=var.dtype, name=var.name))
                self._c.append(self.add_variable(shape=shape[:-2] + shape[-1:], dtype=var.dtype, name=var.name))
            self._v.append(None if overwrite else self.add_variable_from_reference(var, name="velocity"))

    def _rms(self, x: Any) -> Any:
        return ops.sqrt(ops.mean(ops.square(x)))

    def update_step(self, gradient: Any, variable: Any, learning_rate: Any) -> None:
        lr = ops.cast(learning_rate, variable.dtype)
        gradient = ops.cast(gradient, variable.dtype)
        epsilon_2 = ops.cast(self.epsilon_2, variable.dtype)
        one = ops.cast(1.0, variable.dtype)
        local_step = ops.cast(self.iterations + 1, variable.dtype)
        if not callable(self._learning_rate) and self.relative_step:
            lr = ops.minimum(lr, 1 / ops.sqrt(local_step))
        index = self._get_variable_index(variable)
        r, c, v = self._r[index], self._c[index], self._v[index]
        rho_t = ops.minimum(lr, 1 / ops.sqrt(local_step))
        alpha_t = ops.maximum(epsilon_2, self._rms(variable)) * rho_t
        regulated_grad_square = ops.add(ops.square(gradient), self.epsilon_1)
        beta_2_t = ops.subtract(1, ops.power(local_step, self.beta_2_decay))
        if len(variable.shape) >= 2:
            self.assign(r, ops.add(ops.multiply(beta_2_t, r),
                                   ops.multiply(ops.subtract(1, beta_2_t), ops.mean(regulated_grad_square, axis=-1))))
            self.assign(c, ops.add(ops.multiply(beta_2_t, c),
                                   ops.multiply(ops.subtract(1, beta_2_t), ops.mean(regulated_grad_square, axis=-2))))
            self.assign(v, ops.multiply(ops.expand_dims(ops.divide(r, ops.mean(r, axis=-1, keepdims=True)), axis=-1),
                                        ops.expand_dims(c, -2)))
        else:
            self.assign(v, ops.add(ops.multiply(beta_2_t, v),
                                   ops.multiply(ops.subtract(1, beta_2_t), regulated_grad_square)))
        u_t = ops.divide(gradient, ops.sqrt(v))
        u_t_hat = ops.divide(u_t, ops.maximum(one, ops.divide(self._rms(u_t), self.clip_threshold)))
        self.assign_sub(variable, ops.multiply(alpha_t, u_t_hat))

    def get_config(self) -> dict[str, Any]:
        config = super().get_config()
        config.update({"beta_2_decay": self.beta_2_decay, "epsilon_1": self.epsilon_1, "epsilon_2": self.epsilon_2,
                       "clip_threshold": self.clip_threshold, "relative_step": self.relative_step})
        return config
