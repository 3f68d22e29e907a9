"""`keras.mixed_precision.LossScaleOptimizer` (keras/src/optimizers/loss_scale_optimizer.py, Keras
3.15 on TensorFlow): dynamic loss scaling around an inner optimizer.

`scale_loss(loss)` multiplies the loss by `dynamic_scale` (`initial_scale`, 2**15, before the
first step). `apply(grads)` then, as the TF backend's `_tf_apply` does (clause
keras.mixed-precision.loss-scale):
- outside any strategy: if every gradient is finite, the gradients are divided by the scale and
  handed to the inner optimizer, and `step_counter` counts the step, doubling the scale (and
  restarting the count) when it reaches `dynamic_growth_steps` - 1; otherwise the step is skipped
  (the inner optimizer's variables and `iterations` do not move), the scale halves and the count
  restarts;
- under a strategy (TF's strategies use merge calls): the decision is made in a merge call from
  the *first replica's* local gradients (before any all-reduce), then every replica takes the
  same branch; the finite branch runs in each replica (the inner optimizer all-reduces and
  updates as usual) and each replica counts the step in its own copy of `step_counter`; the
  non-finite branch updates the scale and count in cross-replica context.
Its own variables are `iteration` and `learning_rate` (an unused base optimizer's: 0), then
`step_counter` (int64) and `dynamic_scale` (float32); `variables` lists them, then the inner
optimizer's.
"""

from __future__ import annotations

from typing import Any, Sequence

from simdist import tf
from simdist.keras.optimizers import _ops as ops
from simdist.keras.optimizers.base_optimizer import Optimizer
from simdist.keras.naming import name_scope
from simdist.keras.optimizers._variable import OptimizerVariable
from simdist.keras.tracking import no_tracking

__all__ = ["LossScaleOptimizer"]

_BASE_DEFAULTS = {"weight_decay": None, "clipnorm": None, "global_clipnorm": None, "clipvalue": None,
                  "use_ema": False, "ema_momentum": 0.99, "ema_overwrite_frequency": None,
                  "loss_scale_factor": None, "gradient_accumulation_steps": None}


class LossScaleOptimizer(Optimizer):
    """`LossScaleOptimizer(inner_optimizer, initial_scale=2.0**15, dynamic_growth_steps=2000, name=None)`."""

    def __init__(self, inner_optimizer: Optimizer, initial_scale: float = 2.0 ** 15,
                 dynamic_growth_steps: int = 2000, name: str | None = None, **kwargs: Any) -> None:
        if not kwargs.pop("dynamic", True):
            raise ValueError("LossScaleOptimizer no longer supports `dynamic=False`. Instead, simply set "
                             "`loss_scale_factor` directly on the `inner_optimizer`.")
        for arg, default in _BASE_DEFAULTS.items():
            if arg not in kwargs:
                continue
            value = kwargs.pop(arg)
            if (default is None and value is not None) or value != default:
                raise ValueError(f"LossScaleOptimizer does not support `{arg}`. Instead, set `{arg}` on the "
                                 "`inner_optimizer`.")
        if kwargs:
            raise ValueError(f"LossScaleOptimizer does not support arguments: `{'`, `'.join(kwargs.keys())}`.")
        if not isinstance(inner_optimizer, Optimizer):
            # Keras fails on `inner_optimizer.loss_scale_factor = None`: TF raises AttributeError.
            raise AttributeError(f"LossScaleOptimizer(inner_optimizer={inner_optimizer!r}): expected a "
                                 f"keras.optimizers.Optimizer instance ('{type(inner_optimizer).__name__}' object "
                                 "has no attribute 'loss_scale_factor')")
        super().__init__(learning_rate=0.0, name=name)
        self.inner_optimizer = inner_optimizer
        self.initial_scale = initial_scale
        self.dynamic_growth_steps = dynamic_growth_steps
        self.inner_optimizer.loss_scale_factor = None


    def stateless_apply(self, optimizer_variables: Any, grads: Any, trainable_variables: Any) -> Any:
        """Keras's LossScaleOptimizer.stateless_apply: unbuilt is its own ValueError; built, finite gradients reach
        the inner optimizer's, which the TF backend refuses (ValueError). (Non-finite gradients, for which TF 2.21
        returns the variables without reaching the inner optimizer, are refused the same way here.)"""
        if not self.built:
            raise ValueError(f"To call `stateless_apply`, {self.__class__.__name__} must be built (i.e. its variables "
                             "must have been created). You can build it via `optimizer.build(trainable_variables)`.")
        return self.inner_optimizer.stateless_apply(optimizer_variables, grads, trainable_variables)
    def build(self, var_list: Sequence[Any]) -> None:
        # Keras: @tracking.no_automatic_dependency_tracking, so the variables the inner optimizer's build keeps
        # in attributes (Nadam's u_product, Adafactor's placeholders) are none of its `variables`
        with no_tracking():
            self.step_counter = self.add_variable(shape=(), dtype="int64", initializer="zeros", name="step_counter")
            self.dynamic_scale = self.add_variable(shape=(), dtype="float32", initializer=float(self.initial_scale),
                                                   name="dynamic_scale")
            self.inner_optimizer.build(var_list)
            super().build(var_list)

    @property
    def variables(self) -> list[OptimizerVariable]:
        return self._variables[:] + list(self.inner_optimizer.variables)

    # --- applying ----------------------------------------------------------------------------------
    def apply(self, grads: Sequence[Any], trainable_variables: Sequence[Any] | None = None) -> None:
        if not self.built:
            with name_scope(self.name, caller=self):   # Keras: the inner optimizer's slots under this optimizer's name
                self.build(list(trainable_variables) if trainable_variables is not None else [])
            self.built = True
        if tf.distribute.in_cross_replica_context():
            raise ValueError("apply() must be called in a replica context.")
        grads = list(grads)
        if not tf.distribute.has_strategy():
            self._common_apply(grads, trainable_variables)
            return
        # TF's merge-call path: replica 0's local verdict decides for every replica.
        finite = tf.distribute.get_replica_context().merge_call(
            lambda strategy, verdicts: strategy.experimental_local_results(verdicts)[0],
            args=(self.check_finite(grads),))
        if bool(finite):
            self._stateful_handle_finite_grads(grads, trainable_variables)
        else:
            tf.distribute.get_replica_context().merge_call(lambda strategy: self._stateful_handle_non_finite_grads())

    def _common_apply(self, grads: list[Any], trainable_variables: Any) -> None:
        if bool(self.check_finite(grads)):
            self._stateful_handle_finite_grads(grads, trainable_variables)
        else:
            self._stateful_handle_non_finite_grads()

    def _stateful_handle_finite_grads(self, grads: list[Any], trainable_variables: Any) -> None:
        scale = self.dynamic_scale
        tvs = trainable_variables or self._trainable_variables
        unscaled = [g if g is None or getattr(v, "overwrite_with_gradient", False) else ops.divide(g, scale)
                    for g, v in zip(grads, tvs)]
        self.inner_optimizer.apply(unscaled, trainable_variables=trainable_variables)
        if int(self.step_counter.numpy()) == self.dynamic_growth_steps - 1:
            self.step_counter.assign(0)
            self.dynamic_scale.assign(ops.multiply(self.dynamic_scale, 2.0))
        else:
            self.step_counter.assign_add(1)

    def _stateful_handle_non_finite_grads(self) -> None:
        self.step_counter.assign(0)
        self.dynamic_scale.assign(ops.multiply(self.dynamic_scale, 0.5))

    def check_finite(self, grads: Sequence[Any]) -> Any:
        """True when every element of every gradient is finite (slices: their values)."""
        verdicts = []
        for g in grads:
            if g is None:
                continue
            values = g.values if isinstance(g, tf.IndexedSlices) else g
            verdicts.append(tf.reduce_all(tf.math.is_finite(values)))
        return tf.reduce_all(tf.stack(verdicts)) if verdicts else tf.constant(True)

    # --- the inner optimizer's state ---------------------------------------------------------------
    @property
    def learning_rate(self) -> Any:
        return self.inner_optimizer.learning_rate

    @learning_rate.setter
    def learning_rate(self, learning_rate: Any) -> None:
        if getattr(self, "inner_optimizer", None) is None:     # (the base constructor's own 0.0)
            Optimizer.learning_rate.fset(self, learning_rate)   # type: ignore[attr-defined]
            return
        self.inner_optimizer.learning_rate = learning_rate

    @property
    def iterations(self) -> OptimizerVariable:
        return self.inner_optimizer.iterations

    def scale_loss(self, loss: Any) -> Any:
        scale = self.dynamic_scale if self.built else self.initial_scale
        return ops.multiply(loss, scale)

    def finalize_variable_values(self, var_list: Sequence[Any]) -> None:
        self.inner_optimizer.finalize_variable_values(var_list)

    def get_config(self) -> dict[str, Any]:
        from simdist.keras.optimizers import serialize
        return {"name": self.name, "inner_optimizer": serialize(self.inner_optimizer),
                "initial_scale": self.initial_scale, "dynamic_growth_steps": self.dynamic_growth_steps}

    @classmethod
    def from_config(cls, config: dict[str, Any], custom_objects: dict | None = None) -> "LossScaleOptimizer":
        from simdist.keras.utils.keras_object_serialization import deserialize_keras_object
        # (Keras pops the inner optimizer from the caller's dict: the config given no longer holds it afterwards,
        # observed on TF 2.21, cksweep56 `from_config`)
        inner = config.pop("inner_optimizer")   # (a copy: deserialize lower-cases a dict's class_name in place)
        # (Keras: serialization_lib.deserialize_keras_object, which finds keras.optimizers.Lamb by its export)
        inner = deserialize_keras_object(dict(inner) if isinstance(inner, dict) else inner, custom_objects=custom_objects)
        return cls(inner, **config)
