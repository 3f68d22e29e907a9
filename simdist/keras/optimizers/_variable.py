"""The optimizer's own variables (iterations, learning rate, slots), shaped like Keras 3's
`keras.Variable` on the TensorFlow backend: a wrapper whose `.value` is the `tf.Variable` the
current strategy created (plain, mirrored, aggregating), with Keras's `name`/`path`, string
dtype and `assign*` semantics (`assign_add(x)` is `assign(self + x)`, a read then a write, as in
keras/src/backend/common/variables.py).

Model variables are duck-typed (see `unwrap`): anything whose `.value` is a `tf.Variable` is a
Keras variable, whatever package made it.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from simdist import tf

_AGGREGATION = {"none": tf.VariableAggregation.NONE, "sum": tf.VariableAggregation.SUM,
                "mean": tf.VariableAggregation.MEAN, "only_first_replica": tf.VariableAggregation.ONLY_FIRST_REPLICA}


def unwrap(v: Any) -> Any:
    """The tf.Variable behind a Keras variable (anything whose `.value` is a tf.Variable), else v."""
    if isinstance(v, tf.Variable):
        return v
    inner = getattr(v, "value", None)
    if inner is not None and not callable(inner) and (isinstance(inner, tf.Variable) or hasattr(inner, "variables")):
        return inner
    return v


def dtype_name(dt: Any) -> str:
    return tf.as_dtype(dt).name


class OptimizerVariable:
    """A Keras-style variable owning a tf.Variable created in the current strategy's scope."""

    def __init__(self, initial_value: Any, shape: Any, dtype: Any, name: str, scope: str,
                 aggregation: str = "none") -> None:
        if aggregation not in _AGGREGATION:
            raise ValueError("Invalid value for argument `aggregation`. Expected one of `None`, `'none'`, `'mean'`, "
                             f"`'sum'`, `'only_first_replica'`. Received: aggregation={aggregation}")
        self._name = name
        self._path = f"{scope}/{name}" if scope else name
        self._aggregation = aggregation
        self._value = tf.Variable(initial_value, dtype=dtype, trainable=False, name=self._path,
                                  aggregation=_AGGREGATION[aggregation])
        self._shape = tf.TensorShape(shape)

    # Keras variable API -------------------------------------------------------------------
    @property
    def value(self) -> Any:
        return self._value

    @property
    def name(self) -> str:
        return self._name

    @property
    def path(self) -> str:
        return self._path

    @property
    def dtype(self) -> str:
        return dtype_name(self._value.dtype)

    @property
    def shape(self) -> Any:
        return self._shape

    @property
    def ndim(self) -> int:
        return len(self._shape)

    @property
    def trainable(self) -> bool:
        return False

    @property
    def aggregation(self) -> str:
        return self._aggregation

    @property
    def synchronization(self) -> str:
        return "auto"

    overwrite_with_gradient = False
    constraint = None
    regularizer = None

    def numpy(self) -> np.ndarray:
        return np.asarray(self._value.numpy())

    def assign(self, value: Any) -> Any:
        t = tf.convert_to_tensor(value)
        if t.dtype != self._value.dtype:
            t = tf.cast(t, self._value.dtype)
        if list(t.shape) != list(self._shape):
            raise ValueError("The shape of the target variable and the shape of the target value in "
                             f"`variable.assign(value)` must match. variable.shape={self._shape}, Received: "
                             f"value.shape={t.shape}. Target variable: {self}")
        self._value.assign(t)
        return t

    def assign_add(self, value: Any) -> Any:
        return self.assign(self + value)

    def assign_sub(self, value: Any) -> Any:
        return self.assign(self - value)

    # Tensor protocol (simdist's `_as_tensor`, TF's `__tf_tensor__`) and operators -------------
    def _as_tensor(self) -> Any:
        return tf.convert_to_tensor(self._value)

    def __array__(self, dtype: Any = None, copy: Any = None) -> np.ndarray:
        arr = self.numpy()
        return arr if dtype is None else arr.astype(dtype)

    def __int__(self) -> int:
        return int(self.numpy())

    def __float__(self) -> float:
        return float(self.numpy())

    def __bool__(self) -> bool:
        raise TypeError("A Keras Variable cannot be used as a boolean.")

    def __getitem__(self, idx: Any) -> Any:
        return self._as_tensor()[idx]

    def __neg__(self) -> Any:
        return -self._as_tensor()

    def __add__(self, o: Any) -> Any:
        return self._as_tensor() + o

    def __radd__(self, o: Any) -> Any:
        return o + self._as_tensor()

    def __sub__(self, o: Any) -> Any:
        return self._as_tensor() - o

    def __rsub__(self, o: Any) -> Any:
        return o - self._as_tensor()

    def __mul__(self, o: Any) -> Any:
        return self._as_tensor() * o

    def __rmul__(self, o: Any) -> Any:
        return o * self._as_tensor()

    def __truediv__(self, o: Any) -> Any:
        return self._as_tensor() / o

    def __floordiv__(self, o: Any) -> Any:
        return tf.math.floordiv(self._as_tensor(), o)

    def __mod__(self, o: Any) -> Any:
        return tf.math.floormod(self._as_tensor(), o)

    def __lt__(self, o: Any) -> Any:
        return self._as_tensor() < o

    def __le__(self, o: Any) -> Any:
        return self._as_tensor() <= o

    def __gt__(self, o: Any) -> Any:
        return self._as_tensor() > o

    def __ge__(self, o: Any) -> Any:
        return self._as_tensor() >= o

    __hash__ = object.__hash__

    def __repr__(self) -> str:
        return f"<Variable path={self._path}, shape={tuple(self._shape.as_list())}, dtype={self.dtype}, " \
               f"value={self.numpy()}>"
