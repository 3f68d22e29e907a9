"""What Keras's TensorFlow backend asks of tf.distribute (keras/src/backend/tensorflow/optimizer.py),
written against simdist.tf's public strategy API.

- `maybe_merge_call(fn, strategy, *args)`: `tf.__internal__.distribute.interim.maybe_merge_call`.
  Outside any strategy it calls `fn(strategy, *args)`; under one (every simdist strategy uses
  merge calls, as TF's do without XLA) it is `get_replica_context().merge_call(fn, args)`, which
  fails with AttributeError in cross-replica context, as in TF.
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
