"""`tf.keras.optimizers.schedules`: learning-rate schedules of Keras 3.15
(keras/src/optimizers/schedules/learning_rate_schedule.py), computed with simdist.tf ops.

A schedule is called with the optimizer's `iterations` (int64) before each update; the
optimizer casts the result to each variable's dtype.
"""

from __future__ import annotations

import math
from typing import Any

from simdist import tf
from simdist.keras.optimizers import _ops as ops



def _check_steps(arg: str, value: Any) -> None:
    if value <= 0:
        raise ValueError(f"Argument `{arg}` must be > 0. Received: {arg}={value}")


def _named(call: Any) -> Any:
    """Keras's built-in schedules compute their value inside `ops.name_scope(self.name)`: a name that is not a
    string or contains '/' raises ValueError when the schedule is called (observed on TF 2.21 for every built-in
    schedule; clause optim.schedules)."""
    def wrapped(self: Any, step: Any) -> Any:
        from simdist.keras.naming import name_scope  # noqa: PLC0415 - naming imports the facade
        name_scope(self.name)   # validates the name as Keras's name_scope does
        return call(self, step)
    wrapped.__name__, wrapped.__doc__, wrapped.__qualname__ = call.__name__, call.__doc__, call.__qualname__
    return wrapped


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
        _check_steps("decay_steps", decay_steps)

    @_named
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

    @_named
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


class PolynomialDecay(LearningRateSchedule):
    """(initial - end) * (1 - step / decay_steps)^power + end, step capped at decay_steps; with
    `cycle`, decay_steps is multiplied by ceil(step / decay_steps) (1 at step 0) instead."""

    def __init__(self, initial_learning_rate: Any, decay_steps: Any, end_learning_rate: Any = 0.0001,
                 power: Any = 1.0, cycle: bool = False, name: str = "PolynomialDecay") -> None:
        super().__init__()
        self.initial_learning_rate = initial_learning_rate
        self.decay_steps = decay_steps
        self.end_learning_rate = end_learning_rate
        self.power = power
        self.cycle = cycle
        self.name = name
        _check_steps("decay_steps", decay_steps)

    @_named
    def __call__(self, step: Any) -> Any:
        initial_learning_rate = ops.convert_to_tensor(self.initial_learning_rate)
        dtype = initial_learning_rate.dtype
        end_learning_rate = ops.cast(self.end_learning_rate, dtype)
        power = ops.cast(self.power, dtype)
        global_step_recomp = ops.cast(step, dtype)
        decay_steps_recomp = ops.cast(self.decay_steps, dtype)
        if self.cycle:
            multiplier = ops.where(ops.equal(global_step_recomp, 0), 1.0,
                                   ops.ceil(global_step_recomp / self.decay_steps))
            decay_steps_recomp = ops.multiply(decay_steps_recomp, multiplier)
        else:
            global_step_recomp = ops.minimum(global_step_recomp, decay_steps_recomp)
        p = ops.divide(global_step_recomp, decay_steps_recomp)
        return ops.add(ops.multiply(initial_learning_rate - end_learning_rate, ops.power(1 - p, power)),
                       end_learning_rate)

    def get_config(self) -> dict:
        return {"initial_learning_rate": self.initial_learning_rate, "decay_steps": self.decay_steps,
                "end_learning_rate": self.end_learning_rate, "power": self.power, "cycle": self.cycle,
                "name": self.name}


class InverseTimeDecay(LearningRateSchedule):
    """initial_learning_rate / (1 + decay_rate * step / decay_steps), the quotient floored if `staircase`."""

    def __init__(self, initial_learning_rate: Any, decay_steps: Any, decay_rate: Any, staircase: bool = False,
                 name: str = "InverseTimeDecay") -> None:
        super().__init__()
        self.initial_learning_rate = initial_learning_rate
        self.decay_steps = decay_steps
        self.decay_rate = decay_rate
        self.staircase = staircase
        self.name = name
        _check_steps("decay_steps", decay_steps)

    @_named
    def __call__(self, step: Any) -> Any:
        initial_learning_rate = ops.convert_to_tensor(self.initial_learning_rate)
        dtype = initial_learning_rate.dtype
        decay_steps = ops.cast(self.decay_steps, dtype)
        decay_rate = ops.cast(self.decay_rate, dtype)
        p = ops.cast(step, dtype) / decay_steps
        if self.staircase:
            p = ops.floor(p)
        denom = ops.add(ops.cast(1, dtype), ops.multiply(decay_rate, p))
        return ops.divide(initial_learning_rate, denom)

    def get_config(self) -> dict:
        return {"initial_learning_rate": self.initial_learning_rate, "decay_steps": self.decay_steps,
                "decay_rate": self.decay_rate, "staircase": self.staircase, "name": self.name}


class CosineDecay(LearningRateSchedule):
    """Without `warmup_target`: lr0 * ((1 - alpha) * 0.5 * (1 + cos(pi * s / decay_steps)) + alpha),
    s = min(step, decay_steps). With it: a linear warmup from initial_learning_rate to warmup_target
    over warmup_steps (step < warmup_steps), then that cosine decay from warmup_target over
    step - warmup_steps, step capped at decay_steps + warmup_steps."""

    def __init__(self, initial_learning_rate: Any, decay_steps: Any, alpha: Any = 0.0, name: str = "CosineDecay",
                 warmup_target: Any = None, warmup_steps: Any = 0) -> None:
        super().__init__()
        self.initial_learning_rate = initial_learning_rate
        self.decay_steps = decay_steps
        self.alpha = alpha
        self.name = name
        self.warmup_steps = warmup_steps
        self.warmup_target = warmup_target
        _check_steps("decay_steps", decay_steps)

    def _decay_function(self, step: Any, decay_steps: Any, decay_from_lr: Any, dtype: Any) -> Any:
        completed_fraction = ops.divide(step, decay_steps)
        pi = ops.convert_to_tensor(math.pi, dtype)
        cosine_decayed = 0.5 * (1.0 + ops.cos(ops.multiply(pi, completed_fraction)))
        decayed = (1 - self.alpha) * cosine_decayed + self.alpha
        return ops.multiply(decay_from_lr, decayed)

    def _warmup_function(self, step: Any, warmup_steps: Any, warmup_target: Any, initial_learning_rate: Any) -> Any:
        completed_fraction = step / warmup_steps
        total_step_delta = warmup_target - initial_learning_rate
        return total_step_delta * completed_fraction + initial_learning_rate

    @_named
    def __call__(self, step: Any) -> Any:
        initial_learning_rate = ops.convert_to_tensor(self.initial_learning_rate)
        dtype = initial_learning_rate.dtype
        decay_steps = ops.cast(self.decay_steps, dtype)
        global_step_recomp = ops.cast(step, dtype)
        if self.warmup_target is None:
            global_step_recomp = ops.minimum(global_step_recomp, decay_steps)
            return self._decay_function(global_step_recomp, decay_steps, initial_learning_rate, dtype)
        warmup_target = ops.cast(self.warmup_target, dtype)
        warmup_steps = ops.cast(self.warmup_steps, dtype)
        global_step_recomp = ops.minimum(global_step_recomp, decay_steps + warmup_steps)
        return tf.cond(global_step_recomp < warmup_steps,
                       lambda: self._warmup_function(global_step_recomp, warmup_steps, warmup_target,
                                                     initial_learning_rate),
                       lambda: self._decay_function(global_step_recomp - warmup_steps, decay_steps, warmup_target,
                                                    dtype))

    def get_config(self) -> dict:
        return {"initial_learning_rate": self.initial_learning_rate, "decay_steps": self.decay_steps,
                "alpha": self.alpha, "name": self.name, "warmup_target": self.warmup_target,
                "warmup_steps": self.warmup_steps}


class CosineDecayRestarts(LearningRateSchedule):
    """SGDR: cosine decays that restart. Period i lasts first_decay_steps * t_mul^i steps and
    starts at lr0 * m_mul^i; within it lr0 * ((1 - alpha) * 0.5 * m_mul^i * (1 + cos(pi * f)) + alpha),
    f the fraction of the period done (found with a log when t_mul != 1, a floor when t_mul == 1)."""

    def __init__(self, initial_learning_rate: Any, first_decay_steps: Any, t_mul: Any = 2.0, m_mul: Any = 1.0,
                 alpha: Any = 0.0, name: str = "SGDRDecay") -> None:
        super().__init__()
        self.initial_learning_rate = initial_learning_rate
        self.first_decay_steps = first_decay_steps
        self._t_mul = t_mul
        self._m_mul = m_mul
        self.alpha = alpha
        self.name = name
        _check_steps("first_decay_steps", first_decay_steps)

    @_named
    def __call__(self, step: Any) -> Any:
        initial_learning_rate = ops.convert_to_tensor(self.initial_learning_rate)
        dtype = initial_learning_rate.dtype
        first_decay_steps = ops.cast(self.first_decay_steps, dtype)
        alpha = ops.cast(self.alpha, dtype)
        t_mul = ops.cast(self._t_mul, dtype)
        m_mul = ops.cast(self._m_mul, dtype)
        completed_fraction = ops.cast(step, dtype) / first_decay_steps

        def compute_step(completed_fraction: Any, geometric: bool = False) -> tuple[Any, Any]:
            if geometric:
                i_restart = ops.floor(ops.log(ops.cast(1.0 - completed_fraction * (1.0 - t_mul), dtype))
                                      / ops.log(t_mul))
                sum_r = ops.divide(1.0 - ops.power(t_mul, i_restart), (1.0 - t_mul))
                completed_fraction = ops.divide(ops.subtract(completed_fraction, sum_r), ops.power(t_mul, i_restart))
            else:
                i_restart = ops.floor(completed_fraction)
                completed_fraction -= i_restart
            return i_restart, completed_fraction

        i_restart, completed_fraction = tf.cond(ops.equal(t_mul, 1.0),
                                                lambda: compute_step(completed_fraction, geometric=False),
                                                lambda: compute_step(completed_fraction, geometric=True))
        m_fac = ops.power(m_mul, i_restart)
        cosine_decayed = 0.5 * m_fac * (1.0 + ops.cos(ops.multiply(ops.convert_to_tensor(math.pi, dtype),
                                                                   completed_fraction)))
        decayed = ops.add(ops.multiply((1 - alpha), cosine_decayed), alpha)
        return ops.multiply(initial_learning_rate, decayed)

    def get_config(self) -> dict:
        return {"initial_learning_rate": self.initial_learning_rate, "first_decay_steps": self.first_decay_steps,
                "t_mul": self._t_mul, "m_mul": self._m_mul, "alpha": self.alpha, "name": self.name}


_BUILTIN = {"ExponentialDecay": ExponentialDecay, "PiecewiseConstantDecay": PiecewiseConstantDecay,
            "PolynomialDecay": PolynomialDecay, "InverseTimeDecay": InverseTimeDecay, "CosineDecay": CosineDecay,
            "CosineDecayRestarts": CosineDecayRestarts}


def serialize(schedule: LearningRateSchedule) -> dict:
    """Keras's serialized form: module, class name, config."""
    return {"module": "keras.optimizers.schedules", "class_name": type(schedule).__name__,
            "config": schedule.get_config(), "registered_name": None}


def deserialize(config: dict, custom_objects: dict | None = None) -> LearningRateSchedule | str:
    """The schedule a `serialize` dict describes (built-in classes, or those in custom_objects). A
    class name that is neither comes back as that name, a str, as on TF 2.21 (Keras's
    deserialize_keras_object takes it for an object "already deserialized"; clause optim.schedules)."""
    name = config.get("class_name")
    classes = dict(_BUILTIN, **(custom_objects or {}))
    if name not in classes:
        return name
    return classes[name].from_config(config.get("config", {}))


from simdist.keras import _api  # noqa: E402

__all__ = [   # TF 2.21's tf.keras.optimizers.schedules names simdist has (one a line; clause api.namespaces)
    "CosineDecay",
    "CosineDecayRestarts",
    "ExponentialDecay",
    "InverseTimeDecay",
    "LearningRateSchedule",
    "PiecewiseConstantDecay",
    "PolynomialDecay",
    "deserialize",
    "serialize",
]
__dir__ = _api.dir_of(__name__)
