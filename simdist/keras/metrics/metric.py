"""`keras.metrics.Metric` (keras/src/metrics/metric.py, Keras 3.15).

A metric keeps its state in Keras variables it creates with `add_variable`: non-trainable,
`aggregation="sum"` by default and `synchronization="on_read"`. On the TensorFlow backend the
backing tf.Variable is made by the current strategy, so a metric created in a MirroredStrategy's
scope has SyncOnReadVariables: `update_state` inside `strategy.run` changes each replica's own
copy, and `result()` read in cross-replica context sees the copies summed (clause
keras.metric.cross-replica). Under CentralStorage the state is one AggregatingVariable (updates in
replica context are merged by SUM), under OneDevice and the default strategy a plain variable.
"""

from __future__ import annotations

from typing import Any

from simdist.keras import config, dtype_policies
from simdist.keras.losses import _ops as ops
from simdist.keras.naming import auto_name, name_scope
from simdist.keras.tracking import Tracker
from simdist.keras.variables import StatelessScope, Variable
from simdist.keras.keras_saveable import KerasSaveable


class Metric(KerasSaveable):
    """Base class of Keras metrics: subclasses create their state in `__init__` with
    `add_variable`, and implement `update_state(...)` and `result()`."""

    _keras_metric = True   # (layers track metrics by this mark)

    def __init__(self, dtype: Any = None, name: str | None = None) -> None:
        self.name = name or auto_name(type(self).__name__)
        self._dtype_policy = dtype_policies.get(dtype or config.floatx())
        self._dtype = self._dtype_policy.compute_dtype
        self._metrics: list[Metric] = []
        self._variables: list[Variable] = []
        self._tracker = Tracker({"variables": (lambda x: isinstance(x, Variable), self._variables),
                                 "metrics": (lambda x: isinstance(x, Metric), self._metrics)})

    def reset_state(self) -> None:
        """Set every state variable to zeros (called between epochs)."""
        for v in self.variables:
            v.assign(ops.cast(_zeros(v.shape, v.dtype), v.dtype))

    def update_state(self, *args: Any, **kwargs: Any) -> None:
        """Accumulate statistics."""
        raise NotImplementedError

    def result(self) -> Any:
        """The current value (a scalar tensor or a dict of them)."""
        raise NotImplementedError

    # --- the stateless API (Keras 3's metric.py): the state passed in and returned, the variables untouched ---------
    def _check_state_length(self, metric_variables: Any) -> None:
        if len(metric_variables) != len(self.variables):
            raise ValueError(f"Argument `metric_variables` must be a list of tensors corresponding 1:1 to "
                             f"{self.__class__.__name__}().variables. Received list with length "
                             f"{len(metric_variables)}, but expected {len(self.variables)} variables.")

    def _state_after(self, scope: Any) -> list[Any]:
        """Each variable's value the scope wrote, else the variable itself (Keras returns it so)."""
        out = []
        for v in self.variables:
            new = scope.get_current_value(v)
            out.append(v if new is None else new)
        return out

    def stateless_update_state(self, metric_variables: Any, *args: Any, **kwargs: Any) -> list[Any]:
        """update_state on `metric_variables` (one value per variable) in a StatelessScope: the new values (a
        variable the update did not write is returned as itself)."""
        self._check_state_length(metric_variables)
        with StatelessScope(state_mapping=list(zip(self.variables, metric_variables))) as scope:
            self.update_state(*args, **kwargs)
        return self._state_after(scope)

    def stateless_result(self, metric_variables: Any) -> Any:
        """result() of the state `metric_variables`."""
        self._check_state_length(metric_variables)
        with StatelessScope(state_mapping=list(zip(self.variables, metric_variables))):
            return self.result()

    def stateless_reset_state(self) -> list[Any]:
        """The state reset_state would write."""
        with StatelessScope() as scope:
            self.reset_state()
        return self._state_after(scope)

    @property
    def dtype(self) -> str:
        return self._dtype

    def add_variable(self, shape: Any, initializer: Any, dtype: Any = None, aggregation: str = "sum",
                     name: str | None = None) -> Variable:
        """A state variable: non-trainable, synchronization "on_read", under the metric's name scope."""
        self._check_super_called()
        from simdist.keras import initializers
        with name_scope(self.name.replace("/", ">"), caller=self):
            variable = Variable(initializer=initializers.get(initializer), shape=shape, dtype=dtype, trainable=False,
                                aggregation=aggregation, synchronization="on_read", name=name)
        self._tracker.add_to_store("variables", variable)
        return variable

    def add_weight(self, shape: Any = (), initializer: Any = None, dtype: Any = None, name: str | None = None) -> Any:
        return self.add_variable(shape=shape, initializer=initializer, dtype=dtype, name=name)

    @property
    def variables(self) -> list[Variable]:
        out = list(self._variables)
        for m in self._metrics:
            out.extend(m.variables)
        return out

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        """update_state(...) then result()."""
        self._check_super_called()
        self.update_state(*args, **kwargs)
        return self.result()

    def get_config(self) -> dict[str, Any]:
        return {"name": self.name, "dtype": self.dtype}

    @classmethod
    def from_config(cls, config_: dict[str, Any]) -> "Metric":
        return cls(**config_)

    def __setattr__(self, name: str, value: Any) -> None:
        tracker = self.__dict__.get("_tracker")
        if tracker is not None:
            value = tracker.track(value)
        object.__setattr__(self, name, value)

    def _check_super_called(self) -> None:
        if "_tracker" not in self.__dict__:
            raise RuntimeError("You forgot to call `super().__init__()` in the `__init__()` method. Go add it!")

    def __repr__(self) -> str:
        return f"<{type(self).__name__} name={self.name}>"

    __str__ = __repr__


def _zeros(shape: Any, dtype: Any) -> Any:
    from simdist import tf
    return tf.zeros(shape, dtype=dtype)
