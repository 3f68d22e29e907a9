"""What Keras's TensorFlow backend asks of tf.distribute (keras/src/backend/tensorflow/optimizer.py),
written against simdist.tf's public strategy API.

- `maybe_merge_call(fn, strategy, *args)`: `tf.__internal__.distribute.interim.maybe_merge_call`.
  Outside any strategy it calls `fn(strategy, *args)`; under one (every simdist strategy uses
  merge calls, as TF's do without XLA) it is `get_replica_context().merge_call(fn, args)`, which
  fails with AttributeError in cross-replica context, as in TF.
- `refuse_merge_call_in_traced_cond()`: TF 2.21 traces both branches of a `tf.cond` into new
  graphs, and a MirroredReplicaContext's merge_call in one raises RuntimeError (clause
  optim.option-coverage; found by train.reference-grid).
- `all_reduce_sum(grads_and_vars)`: in a replica context, the gradients are all-reduced with
  SUM (IndexedSlices are gathered), None gradients kept in place (clause optim.mirrored-sum).
"""

from __future__ import annotations

import warnings
from typing import Any, Callable

from simdist import tf


def maybe_merge_call(fn: Callable[..., Any], strategy: Any, *args: Any, **kwargs: Any) -> Any:
    if not tf.distribute.has_strategy():
        return fn(strategy, *args, **kwargs)
    return tf.distribute.get_replica_context().merge_call(fn, args=args, kwargs=kwargs)


def filter_empty_gradients(grads_and_vars: Any) -> tuple:
    """The (gradient, variable) pairs whose gradient is not None (Keras's filter_empty_gradients)."""
    grads_and_vars = tuple(grads_and_vars)
    if not grads_and_vars:
        return grads_and_vars
    filtered = tuple((g, v) for g, v in grads_and_vars if g is not None)
    empty = [v.name for g, v in grads_and_vars if g is None]
    if not filtered:
        raise ValueError(f"No gradients provided for any variable: {([v.name for _, v in grads_and_vars],)}. "
                         f"Provided `grads_and_vars` is {grads_and_vars}.")
    if empty:
        warnings.warn(f"Gradients do not exist for variables {empty} when minimizing the loss. If you're using "
                      "`model.compile()`, did you forget to provide a `loss` argument?")
    return filtered


def all_reduce_sum(grads_and_vars: Any) -> list:
    """Keras's _all_reduce_sum_gradients: SUM across replicas in a replica context."""
    rc = tf.distribute.get_replica_context()
    if not rc:
        return list(grads_and_vars)
    grads_and_vars = list(grads_and_vars)
    filtered = filter_empty_gradients(grads_and_vars)
    reduced = rc.all_reduce(tf.distribute.ReduceOp.SUM, [g for g, _ in filtered]) if filtered else []
    out, pos = [], 0
    for g, v in grads_and_vars:
        if g is None:
            out.append((None, v))
        else:
            out.append((reduced[pos], v))
            pos += 1
    return out


_MERGE_IN_GRAPH = (
    "`merge_call` called while defining a new graph or a tf.function. This can often happen if the function "
    "`fn` passed to `strategy.run()` contains a nested `@tf.function`, and the nested `@tf.function` contains a "
    "synchronization point, such as aggregating gradients (e.g, optimizer.apply_gradients), or if the function "
    "`fn` uses a control flow statement which contains a synchronization point in the body. Such behaviors are "
    "not yet supported. Instead, please avoid nested `tf.function`s or control flow statements that may "
    "potentially cross a synchronization boundary, for example, wrap the `fn` passed to `strategy.run` or the "
    "entire `strategy.run` inside a `tf.function` or move the control flow out of `fn`. If you are subclassing a "
    "`tf.keras.Model`, please avoid decorating overridden methods `test_step` and `train_step` in `tf.function`.")


def refuse_merge_call_in_traced_cond() -> None:
    """Raise TF 2.21's RuntimeError for an optimizer `ops.cond` whose branches merge_call (gradient
    accumulation, EMA overwrite) when it is traced in a replica context of MirroredStrategy,
    CentralStorageStrategy or MultiWorkerMirroredStrategy: TF builds each branch as a new graph
    and their MirroredReplicaContext refuses a merge_call there (mirrored_run.py), whichever
    branch would run. Eagerly, or under the default strategy and OneDeviceStrategy, the cond runs."""
    if not tf.inside_function() or not tf.distribute.has_strategy() or tf.distribute.in_cross_replica_context():
        return
    kinds = tuple(k for k in (getattr(tf.distribute, "MirroredStrategy", None),
                              getattr(tf.distribute.experimental, "CentralStorageStrategy", None),
                              getattr(tf.distribute, "MultiWorkerMirroredStrategy", None)) if k is not None)
    if isinstance(tf.distribute.get_strategy(), kinds):
        raise RuntimeError(f"Exception encountered when calling Cond.call().\n\n{_MERGE_IN_GRAPH}")
