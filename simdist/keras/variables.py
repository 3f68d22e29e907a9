"""`keras.Variable` on the TensorFlow backend (keras/src/backend/common/variables.py and
backend/tensorflow/core.py), over simdist.tf.

At construction the variable creates its backing `tf.Variable` in the current strategy's scope
(so a MirroredVariable under MirroredStrategy, an aggregating or ps-placed variable under
CentralStorage / ParameterServer), with Keras's aggregation and synchronization mapped to TF's
and the tf.Variable named by the Keras path ("sequential/dense/kernel", read back as
"sequential/dense/kernel:0" as in TF). `.value` is that tf.Variable (a cast read of it inside an
autocast scope of another float dtype), `.dtype` a string, `.shape` a TensorShape.

simdist's runtime knows the wrapper through one method, `_simdist_variable()` (the tf.Variable):
a GradientTape differentiates with respect to it (`tape.gradient(loss, model.trainable_variables)`
gives the gradients of the tf.Variables), `tf.train.Checkpoint` saves it, and conversions read it
through `_as_tensor()`. Like TF 2.21, `tape.watch(keras_variable)` is refused with ValueError
(watch `v.value`).
"""

from __future__ import annotations

from typing import Any, Callable

import numpy as np

from simdist import tf
from simdist.keras import dtype_policies as dtypes
from simdist.keras.naming import auto_name, current_path

__all__ = ["Variable", "StatelessScope", "standardize_shape", "shape_equal", "unwrap"]

_AGGREGATION = {"none": tf.VariableAggregation.NONE, "sum": tf.VariableAggregation.SUM,
                "mean": tf.VariableAggregation.MEAN,
                "only_first_replica": tf.VariableAggregation.ONLY_FIRST_REPLICA}
_SYNCHRONIZATION = {"none": tf.VariableSynchronization.NONE, "on_read": tf.VariableSynchronization.ON_READ,
                    "on_write": tf.VariableSynchronization.ON_WRITE, "auto": tf.VariableSynchronization.AUTO}


def standardize_shape(shape: Any) -> tuple:
    """A shape as a tuple of ints and Nones (Keras's standardize_shape and its errors)."""
    if not isinstance(shape, tuple):
        if shape is None:
            raise ValueError("Undefined shapes are not supported.")
        if not hasattr(shape, "__iter__"):
            raise ValueError(f"Cannot convert '{shape}' to a shape.")
        if isinstance(shape, tf.TensorShape):
            shape = shape.as_list()
    out: list[Any] = []
    for d in shape:
        if d is None:
            out.append(None)
            continue
        if isinstance(d, (str, float)):
            raise ValueError(f"Cannot convert '{shape}' to a shape. Found invalid dimension '{d}' of type "
                             f"'{type(d)}'. ")
        try:
            d = int(d)
        except Exception as e:
            raise ValueError(f"Cannot convert '{shape}' to a shape. Found invalid dimension '{d}' of type "
                             f"'{type(d)}'. ") from e
        if d < 0:
            raise ValueError(f"Cannot convert '{shape}' to a shape. Negative dimensions are not allowed.")
        out.append(d)
    return tuple(out)


def shape_equal(a: Any, b: Any) -> bool:
    """Equal shapes, None matching anything."""
    a, b = list(a), list(b)
    if len(a) != len(b):
        return False
    return all(x is None or y is None or x == y for x, y in zip(a, b))


def convert_to_tensor(x: Any, dtype: Any = None) -> Any:
    """Keras's TF-backend convert_to_tensor: tensors of another dtype are cast; ints and bools
    are converted then cast (TF would refuse floats for ints)."""
    if dtype is not None:
        dtype = dtypes.standardize_dtype(dtype)
    if not isinstance(x, tf.Tensor):
        if hasattr(x, "_as_tensor"):
            x = x._as_tensor()
        elif dtype == "bool" or (dtype is not None and dtypes.is_int_dtype(dtype)):
            return tf.cast(tf.convert_to_tensor(x), dtype)
        else:
            return tf.convert_to_tensor(x, dtype=dtype)
    if dtype is not None and dtypes.standardize_dtype(x.dtype) != dtype:
        return tf.cast(x, dtype)
    return x


class StatelessScope:
    """`keras.StatelessScope(state_mapping=None, collect_losses=False, initialize_variables=True)`: inside, Keras
    variables read the values `state_mapping` gives them ((variable, value) pairs, each value converted to its
    variable's dtype and of its shape) and their writes are kept in the scope (`get_current_value`) instead of
    applied; with `collect_losses`, layers' add_loss goes to `losses` (Keras's backend/common/stateless_scope.py).
    A layer's first call also runs its `call` once in such a scope to build its sub-layers, without side effects."""

    _stack: list["StatelessScope"] = []

    def __init__(self, state_mapping: Any = None, collect_losses: bool = False,
                 initialize_variables: bool = True) -> None:
        self.collect_losses = collect_losses
        self.initialize_variables = initialize_variables
        self.losses: list[Any] = []
        self.state_mapping: dict[int, Any] = {}
        for k, v in state_mapping or {}:
            if not isinstance(k, Variable):
                raise ValueError("Invalid reference variable in StatelessScope: all keys in argument `mapping` must "
                                 f"be Variable instances. Received instead: {k}")
            if isinstance(v, Variable):
                v = tf.cast(v.value, k.dtype)
            else:
                v = convert_to_tensor(v, dtype=k.dtype)
            if tuple(k.shape) != tuple(v.shape):
                raise ValueError("Invalid variable value in StatelessScope: all values in argument `mapping` must be "
                                 "tensors with a shape that matches the corresponding variable shape. For variable "
                                 f"{k}, received invalid value {v} with shape {v.shape}.")
            self.state_mapping[id(k)] = v

    def __enter__(self) -> "StatelessScope":
        StatelessScope._stack.append(self)
        return self

    def __exit__(self, *exc: object) -> None:
        StatelessScope._stack.remove(self)

    def add_loss(self, loss: Any) -> None:
        self.losses.append(loss)

    def add_update(self, update: tuple[Any, Any]) -> None:
        variable, value = update
        self.state_mapping[id(variable)] = value

    def get_current_value(self, variable: Any) -> Any:
        return self.state_mapping.get(id(variable), None)


def get_stateless_scope() -> StatelessScope | None:
    return StatelessScope._stack[-1] if StatelessScope._stack else None


def _is_sharded(value: Any) -> bool:
    """Whether a tf.Variable-like value is a ShardedVariable (ParameterServerStrategy with a
    variable_partitioner): TF's public shape of one is a `variables` list of shards and no `device`."""
    return isinstance(getattr(value, "variables", None), list) and not hasattr(value, "device")


def unwrap(v: Any) -> Any:
    """The tf.Variable behind a Keras variable, else v itself."""
    resolve = getattr(v, "_simdist_variable", None)
    return resolve() if resolve is not None else v


class Variable:
    """`keras.Variable(initializer, shape=None, dtype=None, trainable=True, autocast=True,
    aggregation="none", synchronization="auto", name=None)`."""
    _simdist_trackable = True   # a TF Trackable: tf.train.Checkpoint takes it (runtime/trackable.py)
    # converted by `__tf_tensor__(dtype)` as an op's operand: another dtype is a ValueError (runtime/ops/math.py _operand)
    _converts_with_dtype = True

    def __init__(self, initializer: Any, shape: Any = None, dtype: Any = None, trainable: bool = True,
                 autocast: bool = True, aggregation: str | None = "none", synchronization: str | None = "auto",
                 name: str | None = None, **kwargs: Any) -> None:
        name = name or auto_name(type(self).__name__)
        if not isinstance(name, str) or "/" in name:
            raise ValueError(f"Argument `name` must be a string and cannot contain character `/`. Received: "
                             f"name={name}")
        if aggregation not in (None, "none", "mean", "sum", "only_first_replica"):
            raise ValueError("Invalid value for argument `aggregation`. Expected one of `None`, `'none'`, `'mean'`, "
                             f"`'sum'`, `'only_first_replica'`. Received: aggregation={aggregation}")
        if synchronization not in (None, "none", "on_read", "on_write", "auto"):
            raise ValueError("Invalid value for argument `synchronization`. Expected one of `None`, `'none'`, "
                             f"`'on_read'`, `'on_write'`, `'auto'`. Received: synchronization={synchronization}")
        self._name = name
        parent = current_path()
        self._path = f"{parent}/{name}" if parent else name
        self._trainable = bool(trainable)
        self._autocast = bool(autocast)
        self._aggregation = aggregation or "none"
        self._synchronization = synchronization or "none"
        self._overwrite_with_gradient = False
        self._regularizer: Any = None
        self._constraint: Any = None
        if isinstance(initializer, str):
            from simdist.keras import initializers
            initializer = initializers.get(initializer)
        if callable(initializer):
            if shape is None:
                raise ValueError("When creating a Variable from an initializer, the `shape` argument should be "
                                 f"specified. Received: initializer={initializer} and shape={shape}")
            self._dtype = dtypes.standardize_dtype(dtype)
            self._shape = self._validate_shape(shape)
            # (Keras's TF backend hands tf.Variable the initializer's value itself: a float64 array becomes float32)
            init_fn: Callable[[], Any] = lambda: initializer(self._shape, dtype=self._dtype)  # noqa: E731
            self._value = self._make(init_fn)
        else:
            value = convert_to_tensor(initializer, dtype=dtype)
            self._dtype = dtypes.standardize_dtype(value.dtype if dtype is None else dtype)
            self._value = self._make(value)
            self._shape = self._validate_shape(self._value.shape)

    def _make(self, initial_value: Any) -> Any:
        """The tf.Variable, created by the current strategy."""
        if isinstance(initial_value, tf.Variable):
            return initial_value
        return tf.Variable(initial_value, dtype=self._dtype, trainable=self._trainable, name=self._name,
                           aggregation=_AGGREGATION[self._aggregation],
                           synchronization=_SYNCHRONIZATION[self._synchronization])

    def _validate_shape(self, shape: Any) -> tuple:
        shape = standardize_shape(shape)
        if None in shape:
            raise ValueError("Shapes used to initialize variables must be fully-defined (no `None` dimensions). "
                             f"Received: shape={shape} for variable path='{self._path}'")
        return shape

    # The runtime protocol ------------------------------------------------------------------
    def _simdist_variable(self) -> Any:
        """The tf.Variable this Keras variable stands for (simdist's tape and checkpoints use it)."""
        return self._value

    def _maybe_autocast(self, value: Any) -> Any:
        scope = dtypes.get_autocast_scope()
        if self._autocast and scope is not None:
            return scope.maybe_cast(value)
        return value

    def _as_tensor(self) -> Any:
        return tf.convert_to_tensor(self.value)

    # Keras variable API ----------------------------------------------------------------------
    @property
    def value(self) -> Any:
        """The tf.Variable (read and cast to the autocast scope's dtype inside one)."""
        if StatelessScope._stack:
            pending = StatelessScope._stack[-1].get_current_value(self)
            if pending is not None:
                return self._maybe_autocast(pending)
        return self._maybe_autocast(self._value)

    @property
    def name(self) -> str:
        return self._name

    @property
    def handle(self) -> Any:
        """The tf.Variable's resource handle (Keras 3's TF backend variable forwards `handle` to it; clause
        ops.resource-handles)."""
        return self._value.handle

    @property
    def path(self) -> str:
        return self._path

    @property
    def dtype(self) -> str:
        scope = dtypes.get_autocast_scope()
        if self._autocast and scope is not None and scope.dtype is not None and dtypes.is_float_dtype(self._dtype):
            return dtypes.standardize_dtype(scope.dtype)
        return self._dtype

    @property
    def shape(self) -> Any:
        return tf.TensorShape(list(self._shape))

    @property
    def ndim(self) -> int:
        return len(self._shape)

    @property
    def trainable(self) -> bool:
        return self._trainable

    @trainable.setter
    def trainable(self, value: bool) -> None:
        self._trainable = bool(value)

    @property
    def autocast(self) -> bool:
        return self._autocast

    @property
    def aggregation(self) -> str:
        return self._aggregation

    @property
    def synchronization(self) -> str:
        return self._synchronization

    @property
    def device(self) -> Any:
        return getattr(self._value, "device", None)

    @property
    def overwrite_with_gradient(self) -> bool:
        return self._overwrite_with_gradient

    @overwrite_with_gradient.setter
    def overwrite_with_gradient(self, value: bool) -> None:
        if not isinstance(value, bool):
            raise TypeError(f"`overwrite_with_gradient` must be a boolean. Received: {value}")
        self._overwrite_with_gradient = value

    @property
    def regularizer(self) -> Any:
        return self._regularizer

    @regularizer.setter
    def regularizer(self, value: Any) -> None:
        if value is not None and not callable(value):
            raise ValueError("Invalid value for attribute `regularizer`. Expected a callable (such as a "
                             f"`keras.regularizers.Regularizer` instance) or `None`. Received: regularizer={value}")
        self._regularizer = value

    @property
    def constraint(self) -> Any:
        return self._constraint

    @constraint.setter
    def constraint(self, value: Any) -> None:
        if value is not None and not callable(value):
            raise ValueError("Invalid value for attribute `constraint`. Expected a callable (such as a "
                             f"`keras.constraints.Constraint` instance) or `None`. Received: constraint={value}")
        self._constraint = value

    def numpy(self) -> np.ndarray:
        """The value's numpy(), as Keras's TF backend gives it (backend/tensorflow/core.py): a NumPy scalar
        for a 0-d variable (`optimizer.iterations.numpy()` is np.int64(0)), an array otherwise."""
        return tf.convert_to_tensor(self.value).numpy()

    def assign(self, value: Any) -> Any:
        """Write `value` (cast to the variable's dtype; its shape must match)."""
        value = convert_to_tensor(value, dtype=self._dtype)
        if not shape_equal(value.shape.as_list(), self._shape):
            raise ValueError("The shape of the target variable and the shape of the target value in "
                             f"`variable.assign(value)` must match. variable.shape={self.shape}, Received: "
                             f"value.shape={value.shape}. Target variable: {self}")
        if StatelessScope._stack:
            StatelessScope._stack[-1].add_update((self, value))
            return value
        self._value.assign(value if value.dtype == self._value.dtype else tf.cast(value, self._value.dtype))
        return value

    def assign_add(self, value: Any) -> Any:
        """`assign(self + value)`: a read then a write, as Keras does."""
        return self.assign(self + value)

    def assign_sub(self, value: Any) -> Any:
        return self.assign(self - value)

    # Conversions and operators (Keras's: on `self.value`, with Keras's dtype promotion) -----------
    def __array__(self, dtype: Any = None, copy: Any = None) -> np.ndarray:
        if _is_sharded(self._value):
            # Keras reads `self.value.__array__`, which TF's ShardedVariable lacks (so np.asarray of
            # a partitioned Keras variable and save_weights fail on TF 2.21: clause keras.variable.sharded)
            raise AttributeError(f"'{type(self._value).__name__}' object has no attribute '__array__'")
        arr = np.asarray(self.numpy())
        return arr if dtype is None else arr.astype(dtype)

    def __int__(self) -> int:
        if self.ndim > 0:
            raise TypeError(f"Only scalar arrays can be converted to Python scalars. Got: shape={self.shape}")
        return int(self.numpy())

    def __float__(self) -> float:
        if self.ndim > 0:
            raise TypeError(f"Only scalar arrays can be converted to Python scalars. Got: shape={self.shape}")
        return float(self.numpy())

    def __bool__(self) -> bool:
        raise TypeError("A Keras Variable cannot be used as a boolean.")

    def __getitem__(self, idx: Any) -> Any:
        return self._as_tensor()[idx]

    def __neg__(self) -> Any:
        return -self._as_tensor()

    def __pos__(self) -> Any:
        return self.value

    def __abs__(self) -> Any:
        return tf.abs(self._as_tensor())

    def __eq__(self, other: Any) -> Any:   # type: ignore[override]  (elementwise, as Keras's)
        return _binary("equal", self, other)

    def __ne__(self, other: Any) -> Any:   # type: ignore[override]
        return _binary("not_equal", self, other)

    def __lt__(self, other: Any) -> Any:
        return _binary("less", self, other)

    def __le__(self, other: Any) -> Any:
        return _binary("less_equal", self, other)

    def __gt__(self, other: Any) -> Any:
        return _binary("greater", self, other)

    def __ge__(self, other: Any) -> Any:
        return _binary("greater_equal", self, other)

    def __add__(self, other: Any) -> Any:
        return _binary("add", self, other)

    def __radd__(self, other: Any) -> Any:
        return _binary("add", other, self)

    def __sub__(self, other: Any) -> Any:
        return _binary("subtract", self, other)

    def __rsub__(self, other: Any) -> Any:
        return _binary("subtract", other, self)

    def __mul__(self, other: Any) -> Any:
        return _binary("multiply", self, other)

    def __rmul__(self, other: Any) -> Any:
        return _binary("multiply", other, self)

    def __truediv__(self, other: Any) -> Any:
        return _binary("divide", self, other)

    def __rtruediv__(self, other: Any) -> Any:
        return _binary("divide", other, self)

    def __floordiv__(self, other: Any) -> Any:
        return _binary("floordiv", self, other)

    def __rfloordiv__(self, other: Any) -> Any:
        return _binary("floordiv", other, self)

    def __mod__(self, other: Any) -> Any:
        return _binary("floormod", self, other)

    def __rmod__(self, other: Any) -> Any:
        return _binary("floormod", other, self)

    def __pow__(self, other: Any) -> Any:
        return _binary("pow", self, other)

    def __rpow__(self, other: Any) -> Any:
        return _binary("pow", other, self)

    def __matmul__(self, other: Any) -> Any:
        return _binary("matmul", self, other)

    def __rmatmul__(self, other: Any) -> Any:
        return _binary("matmul", other, self)

    # Keras 3.15's KerasVariable: `&`, `|`, `^` are backend.numpy's logical_and/or/xor (bool results, also of
    # integers), `~` is the value's own (bitwise on integers), round() is backend.numpy.round
    def __and__(self, other: Any) -> Any:
        return _backend_numpy().logical_and(self.value, other)

    def __rand__(self, other: Any) -> Any:
        return _backend_numpy().logical_and(other, self.value)

    def __or__(self, other: Any) -> Any:
        return _backend_numpy().logical_or(self.value, other)

    def __ror__(self, other: Any) -> Any:
        return _backend_numpy().logical_or(other, self.value)

    def __xor__(self, other: Any) -> Any:
        return _backend_numpy().logical_xor(self.value, other)

    def __rxor__(self, other: Any) -> Any:
        return _backend_numpy().logical_xor(other, self.value)

    def __invert__(self) -> Any:
        return self.value.__invert__()

    def __round__(self, ndigits: int | None = None) -> Any:
        return _backend_numpy().round(self.value, decimals=ndigits or 0)

    __hash__ = object.__hash__

    def __repr__(self) -> str:
        try:
            value = f", value={self._value.numpy()}"
        except Exception:  # noqa: BLE001 - e.g. a ps task that is down: show what can be shown
            value = ""
        return f"<Variable path={self._path}, shape={self.shape}, dtype={self.dtype}{value}>"


def _backend_numpy() -> Any:
    from simdist.keras.ops import tf_numpy   # (keras/src/backend/tensorflow/numpy.py's port; imported late: it uses us)
    return tf_numpy


def _operand(x: Any) -> Any:
    return x._as_tensor() if isinstance(x, Variable) else x


#: each operator's backend.numpy function (Keras 3.15's KerasVariable: `backend.numpy.<fn>(self.value, other)`)
_KERAS_NUMPY = {"add": "add", "subtract": "subtract", "multiply": "multiply", "divide": "true_divide",
                "floordiv": "floor_divide", "floormod": "mod", "pow": "power", "matmul": "matmul", "equal": "equal",
                "not_equal": "not_equal", "less": "less", "less_equal": "less_equal", "greater": "greater",
                "greater_equal": "greater_equal"}


def _binary(name: str, a: Any, b: Any) -> Any:
    """Keras's operator: backend.numpy's function of the operands, with its own promotion — a Python number weak
    in add/subtract/multiply/comparisons (the other operand's dtype), converted first (strong: int32/float32) in
    mod, floor_divide and power, true_divide in `result_type(a, b, float)`, an int8 matmul in int32 (clause
    keras.variable; ysweep62)."""
    x, y = _operand(a), _operand(b)
    return getattr(_backend_numpy(), _KERAS_NUMPY[name])(x, y)
