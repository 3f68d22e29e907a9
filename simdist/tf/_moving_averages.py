"""`tf.train.ExponentialMovingAverage`, as TF 2.21's training/moving_averages.py runs it eagerly
and in a tf.function (clause training.moving-average).

`apply(var_list)` makes, on a variable's first call, a shadow variable (non-trainable, named
`<var>/<ema name>` made unique per client as TF's variable_scope(None, default_name) does, created
with the variable under the current strategy, so a MirroredVariable's average is mirrored) holding
the variable's value, then moves every average towards its variable:
`avg -= (avg - var) * (1 - decay)`, where decay is float32 (`min(decay, (1 + n) / (10 + n))` with
`num_updates` n) and `1 - decay` is cast to the average's dtype. In a replica context (inside
`strategy.run`, or outside any strategy scope) the update is a merge_call that reduces the
variable's values with MEAN onto the average first; in cross-replica context it updates directly
(`extended.update`). Written against the public simdist.tf API, as TF's own module is.
"""

from __future__ import annotations

from typing import Any

from simdist.runtime import execution as _execution

_FLOATS = ("bfloat16", "float16", "float32", "float64")
_COLLECTION = "moving_average_variables"   # TF's ops.GraphKeys.MOVING_AVERAGE_VARIABLES
_SCOPE_COUNTS = _execution.SCOPE_COUNTS    # TF's _VariableScopeStore.variable_scopes_count


def _tf() -> Any:
    from simdist import tf
    return tf


def _collections() -> dict[str, Any]:
    return _execution.current().client.collections


def _op_name(var: Any) -> str:
    name = var.name
    return name[:-2] if name.endswith(":0") else name


def _unique_scope(prefix: str) -> str:
    """variable_scope(None, default_name=prefix) at the root: prefix, or prefix_1, prefix_2... when
    taken (the client's scope counts, as the eager default graph keeps them for the process)."""
    counts = _collections().setdefault(_SCOPE_COUNTS, {})
    name = prefix
    if counts.get(name, 0):
        idx = 1
        while counts.get(f"{prefix}_{idx}", 0):
            idx += 1
        name = f"{prefix}_{idx}"
    counts[name] = counts.get(name, 0) + 1
    return name


class ExponentialMovingAverage:
    """Maintains moving averages of variables by exponential decay."""

    def __init__(self, decay: Any, num_updates: Any = None, zero_debias: bool = False,
                 name: str = "ExponentialMovingAverage") -> None:
        self._decay = decay
        self._num_updates = num_updates
        self._zero_debias = zero_debias   # (TF: only for tensors, which eager apply refuses)
        self._name = name
        self._averages: dict[Any, Any] = {}   # var.ref() -> its average

    @property
    def name(self) -> str:
        """The name of this ExponentialMovingAverage object."""
        return self._name

    def apply(self, var_list: Any = None) -> None:
        """Create the averages of new variables (their current values) and update every average.
        None is TF 2's `trainable_variables()` of the eager default graph: no variable."""
        tf = _tf()
        var_list = [] if var_list is None else list(var_list)
        for v in var_list:
            if isinstance(v, tf.Tensor):   # (a variable, plain or distributed, is not a tf.Tensor)
                raise TypeError("tf.train.ExponentialMovingAverage does not support non-Variable tensors when eager "
                                "execution is enabled.")
        for var in var_list:
            if var.dtype.base_dtype.name not in _FLOATS:
                raise TypeError(f"The variables must be half, float, or double: {var.name}")
            if var.ref() not in self._averages:
                with tf.init_scope():
                    initial = var.read_value()
                    name = _unique_scope(f"{_op_name(var)}/{self.name}")
                    with tf.distribute.get_strategy().extended.colocate_vars_with(var):
                        avg = tf.Variable(initial, trainable=False, name=name)
                    _collections().setdefault(_COLLECTION, []).append(var)
                self._averages[var.ref()] = avg
        decay = tf.convert_to_tensor(self._decay, dtype=tf.float32)
        if self._num_updates is not None:
            n = tf.cast(self._num_updates, tf.float32)
            decay = tf.minimum(decay, (1.0 + n) / (10.0 + n))
        for var in var_list:
            _assign_moving_average(self._averages[var.ref()], var, decay)
        return None

    def average(self, var: Any) -> Any:
        """The variable holding the average of `var`, or None when `apply` never saw it."""
        return self._averages.get(var.ref(), None)

    def average_name(self, var: Any) -> str:
        """The name of the variable that holds (or will hold) the average of `var`."""
        avg = self._averages.get(var.ref())
        if avg is not None:
            return _op_name(avg)
        return f"{_op_name(var)}/{self.name}"

    def variables_to_restore(self, moving_avg_variables: Any = None) -> dict[str, Any]:
        """{average name: variable} for `moving_avg_variables` (None: every variable any moving
        average of this client was applied to, as TF 2 eagerly has no trainable or global collection)."""
        if moving_avg_variables is None:
            moving_avg_variables = list(_collections().get(_COLLECTION, []))
        out: dict[str, Any] = {}
        seen: set[Any] = set()
        for v in moving_avg_variables:
            r = v.ref()
            if r not in seen:
                seen.add(r)
                out[self.average_name(v)] = v
        return out


def _assign_moving_average(avg: Any, value: Any, decay: Any) -> None:
    """TF's assign_moving_average(avg, value, decay, zero_debias=False)."""
    tf = _tf()
    one_minus = tf.convert_to_tensor(1.0 - decay)
    if one_minus.dtype != avg.dtype.base_dtype:
        one_minus = tf.cast(one_minus, avg.dtype.base_dtype)

    def update_fn(v: Any, val: Any) -> Any:
        return v.assign_sub((v - val) * one_minus)

    replica_context = tf.distribute.get_replica_context()
    if replica_context:
        def merge_fn(strategy: Any, v: Any, val: Any) -> Any:
            val = strategy.extended.reduce_to(tf.distribute.ReduceOp.MEAN, val, v)
            return strategy.extended.update(v, update_fn, args=(val,))
        replica_context.merge_call(merge_fn, args=(avg, value))
    else:
        tf.distribute.get_strategy().extended.update(avg, update_fn, args=(value,))
