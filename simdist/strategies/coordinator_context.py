"""`tf.distribute.coordinator.experimental_get_current_worker_index` (TF's coordinator_context.py):
the index of the worker a ClusterCoordinator's scheduled function or per-worker `dataset_fn` runs
on (clause coord.worker-index).

TF captures the index as a value of the call (`capture_call_time_value`): a function traced once
reads, on every call, the worker that call runs on. simdist's WorkerIndex op does the same: it is
stateful, so a recorded function call never folds it and each replay reads the worker of its own
call (the worker's frame sets the PS extended's `_current_worker`, worker.py and per_worker.py)."""

from __future__ import annotations

import numpy as np

from simdist.runtime import context, dtypes
from simdist.runtime.ops import dispatch
from simdist.runtime.ops.registry import NotDifferentiable, lanes, register
from simdist.runtime.tensor import Tensor

MESSAGE = ("Cannot retrieve the worker index. `get_worker_idx_and_num_workers` should be called from within a "
           "tf.function being executed on a worker. This method should only be called from either a dataset_fn "
           "that is passed into `ClusterCoordinator.create_per_worker_dataset`, or a tf.function that is passed "
           "into `ClusterCoordinator.schedule`.")


def _extended() -> object:
    return getattr(context.get_strategy(), "_extended", None)


def _worker_index() -> np.ndarray:
    w = getattr(_extended(), "_current_worker", None)
    if w is None:
        raise RuntimeError(MESSAGE)   # (TF: when the call runs outside a worker's dispatch context)
    return np.array(w, np.int64)


WORKER_INDEX = register("WorkerIndex", _worker_index, lambda dts, attrs: dtypes.int64,
                        lambda arrays, out, attrs: 0.0, stateful=True, kind="custom",
                        fusion=lanes("reads the worker its call runs on: one value per call"))
NotDifferentiable("WorkerIndex")


def get_current_worker_index() -> Tensor:
    """The worker index (an int64 scalar) inside a function a ClusterCoordinator runs on a worker;
    RuntimeError where TF raises it: eagerly, and in a function that runs elsewhere. A per-worker
    `dataset_fn` counts as traced (TF wraps it in a tf.function; simdist runs its Python per worker)."""
    if not (context.in_function() or getattr(_extended(), "_in_dataset_fn", False)):
        raise RuntimeError(MESSAGE)
    return dispatch.execute(WORKER_INDEX, ())
