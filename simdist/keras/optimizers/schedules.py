"""`tf.keras.optimizers.schedules`: learning-rate schedules of Keras 3.15
(keras/src/optimizers/schedules/learning_rate_schedule.py), computed with simdist.tf ops.

A schedule is called with the optimizer's `iterations` (int64) before each update; the
optimizer casts the result to each variable's dtype.
"""

from __future__ import annotations

from typing import Any

from simdist import tf
from simdist.keras.optimizers import _ops as ops

__all__ = ["LearningRateSchedule", "ExponentialDecay", "PiecewiseConstantDecay", "serialize", "deserialize"]


class LearningRateSchedule:
    """Base class: subclasses implement `__call__(step)` (and `get_config` to be serialized)."""

    def __call__(self, step: Any) -> Any:
        raise NotImplementedError(f"Learning rate schedule '{self.__class__.__name__}' must override "
                                  "`__call__(self, step)`.")

    def get_config(self) -> dict:
        raise NotImplementedError(f"Learning rate schedule '{self.__class__.__name__}' must override "
                                  "`get_config()` in order to be serializable.")

    @classmethod
    def from_config(cls, config: dict) -> "LearningRateSchedule":
        return cls(**config)


class ExponentialDecay(LearningRateSchedule):
    """initial_learning_rate * decay_rate ** (step / decay_steps), the exponent floored if `staircase`."""

    def __init__(self, initial_learning_rate: Any, decay_steps: Any, decay_rate: Any, staircase: bool = False,
                 name: str = "ExponentialDecay") -> None:
        super().__init__()
        self.initial_learning_rate = initial_learning_rate
        self.decay_steps = decay_steps
        self.decay_rate = decay_rate
        self.staircase = staircase
        self.name = name
        if self.decay_steps <= 0:
            raise ValueError(f"Argument `decay_steps` must be > 0. Received: decay_steps={self.decay_steps}")

    def __call__(self, step: Any) -> Any:
        initial_learning_rate = ops.convert_to_tensor(self.initial_learning_rate)
        dtype = initial_learning_rate.dtype
        decay_steps = ops.cast(self.decay_steps, dtype)
        decay_rate = ops.cast(self.decay_rate, dtype)
        p = ops.cast(step, dtype) / decay_steps
        if self.staircase:
            p = ops.floor(p)
        return ops.multiply(initial_learning_rate, ops.power(decay_rate, p))

    def get_config(self) -> dict:
        return {"initial_learning_rate": self.initial_learning_rate, "decay_steps": self.decay_steps,
                "decay_rate": self.decay_rate, "staircase": self.staircase, "name": self.name}


class PiecewiseConstantDecay(LearningRateSchedule):
    """values[0] while step <= boundaries[0], values[i] while boundaries[i-1] < step <= boundaries[i],
    values[-1] after the last boundary (a sum of indicator * value, as Keras computes it)."""

    def __init__(self, boundaries: list, values: list, name: str = "PiecewiseConstant") -> None:
        super().__init__()
        if len(boundaries) != len(values) - 1:
            raise ValueError("The length of boundaries should be 1 less than the length of values. Received: "
                             f"boundaries={boundaries} of length {len(boundaries)}, and values={values} of length "
                             f"{len(values)}.")
        self.boundaries = boundaries
        self.values = values
        self.name = name

    def __call__(self, step: Any) -> Any:
        boundaries = [ops.convert_to_tensor(x) for x in self.boundaries]
        values = [ops.convert_to_tensor(x) for x in self.values]
        step = ops.convert_to_tensor(step)
        boundaries = [b if b.dtype == step.dtype else ops.cast(b, step.dtype) for b in boundaries]
        result_dtype = values[0].dtype
        result = tf.constant(0, dtype=result_dtype)
        result += ops.cast(step <= boundaries[0], result_dtype) * values[0]
        result += ops.cast(step > boundaries[-1], result_dtype) * values[-1]
        for low, high, value in zip(boundaries[:-1], boundaries[1:], values[1:-1]):
            in_range = ops.cast(tf.logical_and(step > low, step <= high), result_dtype)
            result += in_range * value
        return result

    def get_config(self) -> dict:
        return {"boundaries": self.boundaries, "values": self.values, "name": self.name}


_BUILTIN = {"ExponentialDecay": ExponentialDecay, "PiecewiseConstantDecay": PiecewiseConstantDecay}


def serialize(schedule: LearningRateSchedule) -> dict:
    """Keras's serialized form: module, class name, config."""
    return {"module": "keras.optimizers.schedules", "class_name": type(schedule).__name__,
            "config": schedule.get_config(), "registered_name": None}


def deserialize(config: dict, custom_objects: dict | None = None) -> LearningRateSchedule:
    """The schedule a `serialize` dict describes (built-in classes, or those in custom_objects)."""
    name = config.get("class_name")
    classes = dict(_BUILTIN, **(custom_objects or {}))
    if name not in classes:
        raise ValueError(f"Could not locate class '{name}'. Make sure custom classes are decorated with "
                         f"`@keras.saving.register_keras_serializable()`. Full object config: {config}")
    return classes[name].from_config(config.get("config", {}))
