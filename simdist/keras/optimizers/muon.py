"""`tf.keras.optimizers.Muon` (keras/src/optimizers/muon.py): momentum orthogonalized by
Newton-Schulz for 2-D variables, AdamW for the others.

A variable takes the AdamW path when it is not 2-D, or (exclude_embeddings) its path contains
"embedding", or a regex of `exclude_layers` matches its path; it then gets a velocity slot beside
its momentum. Muon path: m += g + (momentum - 1) * m; g' = g + momentum * m (Nesterov) else m;
update = NS5(g'): transpose when rows > columns, x /= (||x||_F + 1e-7), `ns_steps` times
A = x x^T, B = b A + (c A) A, x = a x + B x, transpose back; var -= lr * update * sqrt(max(rows,
cols)) * rms_rate (without the factor when rms_rate is None). AdamW path: Adam with
lr * adam_lr_ratio. Weight decay (`var -= var * wd * lr`, adam_weight_decay for the AdamW path)
is Muon's own: a plain assign per variable, no merge call.
"""

from __future__ import annotations

import re
from typing import Any

from simdist import tf
from simdist.keras.optimizers import _ops as ops
from simdist.keras.optimizers.base_optimizer import Optimizer


class Muon(Optimizer):
    def __init__(self, learning_rate: Any = 0.001, adam_beta_1: float = 0.9, adam_beta_2: float = 0.999,
                 adam_weight_decay: float | None = 0.004, epsilon: float = 1e-7, weight_decay: float | None = 0.004,
                 clipnorm: float | None = None, clipvalue: float | None = None, global_clipnorm: float | None = None,
                 use_ema: bool = False, ema_momentum: float = 0.99, ema_overwrite_frequency: int | None = None,
                 loss_scale_factor: float | None = None, gradient_accumulation_steps: int | None = None,
                 name: str | None = None, exclude_layers: list[str] | None = None, exclude_embeddings: bool = True,
                 muon_a: float = 3.4445, muon_b: float = -4.7750, muon_c: float = 2.0315, adam_lr_ratio: float = 1,
                 momentum: float = 0.95, ns_steps: int = 5, nesterov: bool = True, rms_rate: float | None = 0.2,
                 **kwargs: Any) -> None:
        super().__init__(learning_rate=learning_rate, name=name, weight_decay=weight_decay, clipnorm=clipnorm,
                         clipvalue=clipvalue, global_clipnorm=global_clipnorm, use_ema=use_ema,
                         ema_momentum=ema_momentum, ema_overwrite_frequency=ema_overwrite_frequency,
                         loss_scale_factor=loss_scale_factor,
                         gradient_accumulation_steps=gradient_accumulation_steps, **kwargs)
        self.adam_beta_1 = adam_beta_1
        self.adam_beta_2 = adam_beta_2
        self.epsilon = epsilon
        self.muon_a = muon_a
        self.muon_b = muon_b
        self.muon_c = muon_c
        self.adam_lr_ratio = adam_lr_ratio
        self.momentum = momentum
        self.ns_steps = ns_steps
        self.nesterov = nesterov
        self.exclude_embeddings = exclude_embeddings
        self.exclude_layers = exclude_layers or []
        self.adam_weight_decay = adam_weight_decay
        self.rms_rate = rms_rate

    def _should_use_adamw(self, variable: Any) -> bool:
        if len(variable.shape) != 2:
            return True
        if self.exclude_embeddings and "embedding" in variable.path.lower():
            return True
        return any(re.search(keyword, variable.path) for keyword in self.exclude_layers)

    def build(self, var_list: Any) -> None:
        if self.built:
            return
        super().build(var_list)
        self.momentums: list[Any] = [None] * len(var_list)
        self.adam_velocities: list[Any] = [None] * len(var_list)
        for var in var_list:
            if getattr(var, "overwrite_with_gradient", False):
                continue
            index = self._get_variable_index(var)
            self.momentums[index] = self.add_variable_from_reference(var, name="momentum")
            if self._should_use_adamw(var):
                self.adam_velocities[index] = self.add_variable_from_reference(var, name="velocity")

    def update_step(self, gradient: Any, variable: Any, learning_rate: Any) -> None:
        index = self._get_variable_index(variable)
        m, v = self.momentums[index], self.adam_velocities[index]
        if v is not None:
            self._adamw_update_step(gradient, variable, learning_rate * self.adam_lr_ratio, m, v)
        else:
            self._muon_update_step(gradient, variable, learning_rate, m)

    def _muon_update_step(self, gradient: Any, variable: Any, lr: Any, m: Any) -> None:
        self.assign_add(m, ops.add(gradient, m * (self.momentum - 1)))
        g = ops.add(gradient, self.momentum * m) if self.nesterov else m
        update = self.zeropower_via_newtonschulz5(g, self.ns_steps)
        self.assign_sub(variable, self.lr_adjust(lr * update))

    def _adamw_update_step(self, gradient: Any, variable: Any, learning_rate: Any, m: Any, v: Any) -> None:
        lr = ops.cast(learning_rate, variable.dtype)
        gradient = ops.cast(gradient, variable.dtype)
        local_step = ops.cast(self.iterations + 1, variable.dtype)
        beta_1_power = ops.power(ops.cast(self.adam_beta_1, variable.dtype), local_step)
        beta_2_power = ops.power(ops.cast(self.adam_beta_2, variable.dtype), local_step)
        alpha = lr * ops.sqrt(1 - beta_2_power) / (1 - beta_1_power)
        self.assign_add(m, ops.multiply(ops.subtract(gradient, m), 1 - self.adam_beta_1))
        self.assign_add(v, ops.multiply(ops.subtract(ops.square(gradient), v), 1 - self.adam_beta_2))
        self.assign_sub(variable, ops.divide(ops.multiply(m, alpha), ops.add(ops.sqrt(v), self.epsilon)))

    @staticmethod
    def transpose_last_axis(x: Any) -> Any:
        order = list(range(len(x.shape)))
        order[-2], order[-1] = order[-1], len(order) - 2
        return tf.transpose(x, order)

    def lr_adjust(self, x: Any) -> Any:
        if self.rms_rate is None:
            return x
        # Keras: ops.sqrt(ops.maximum(rows, cols)): an int32 maximum, its sqrt in float32
        return x * tf.sqrt(tf.cast(tf.maximum(x.shape[0], x.shape[1]), tf.float32)) * self.rms_rate

    def zeropower_via_newtonschulz5(self, x: Any, steps: int) -> Any:
        x = ops.convert_to_tensor(x)
        shape = tuple(x.shape)
        if len(shape) < 2:
            raise ValueError(f"Expected gradient or momentum to have at least 2 dimensions. Received: shape={shape}")
        a, b, c = self.muon_a, self.muon_b, self.muon_c
        if shape[-2] > shape[-1]:
            x = self.transpose_last_axis(x)
        x = x / (tf.sqrt(tf.reduce_sum(x * x, axis=(-2, -1), keepdims=True)) + 1e-7)
        for _ in range(steps):
            temp_a = tf.matmul(x, self.transpose_last_axis(x))
            temp_b = b * temp_a + tf.matmul(c * temp_a, temp_a)
            x = a * x + tf.matmul(temp_b, x)
        if shape[-2] > shape[-1]:
            x = self.transpose_last_axis(x)
        return x

    def _apply_weight_decay(self, variables: list[Any]) -> None:
        """Muon's own: `variable.assign(variable - variable * wd * lr)`, adam_weight_decay on the
        AdamW path, in whatever context apply runs (no merge call)."""
        for variable in variables:
            if not self._use_weight_decay(variable):
                continue
            value = self.adam_weight_decay if self._should_use_adamw(variable) else self.weight_decay
            if value is None:
                continue
            wd = ops.cast(value, variable.dtype)
            lr = ops.cast(self.learning_rate, variable.dtype)
            variable.assign(variable - variable * wd * lr)

    def get_config(self) -> dict[str, Any]:
        config = super().get_config()
        config.update({"adam_beta_1": self.adam_beta_1, "adam_beta_2": self.adam_beta_2, "epsilon": self.epsilon,
                       "exclude_layers": self.exclude_layers, "muon_a": self.muon_a, "muon_b": self.muon_b,
                       "muon_c": self.muon_c, "adam_lr_ratio": self.adam_lr_ratio, "momentum": self.momentum,
                       "ns_steps": self.ns_steps, "nesterov": self.nesterov,
                       "exclude_embeddings": self.exclude_embeddings, "adam_weight_decay": self.adam_weight_decay,
                       "rms_rate": self.rms_rate})
        return config
