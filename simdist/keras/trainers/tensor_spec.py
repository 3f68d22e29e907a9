"""The common `tf.TensorSpec` of a few peeked batches (Keras 3.15's data_adapter_utils
`get_tensor_spec`): the signature a Python generator or PyDataset is wrapped in when it becomes
a `tf.data.Dataset`."""

from __future__ import annotations

from typing import Any

import numpy as np

from simdist import tf

NUM_BATCHES_FOR_TENSOR_SPEC = 2   # keras/src/trainers/data_adapters/data_adapter_utils.py


def _leaves_spec(*tensors: Any) -> Any:
    x = tensors[0]
    if not hasattr(x, "shape"):
        x = np.array(x)
    rank = len(x.shape)
    if rank < 1:
        raise ValueError("When passing a dataset to a Keras model, the arrays must be at least rank 1. "
                         f"Received: {x} of rank {len(x.shape)}.")
    shapes = []
    for t in tensors:
        shape = t.shape if hasattr(t, "shape") else np.shape(t)
        if len(shape) != rank:
            raise ValueError("When passing a dataset to a Keras model, the corresponding arrays in each batch must "
                             f"have the same rank. Received: {x} and {t}")
        shapes.append(list(shape))
    merged = [dims[0] if all(d == dims[0] for d in dims) else None for dims in zip(*shapes)]
    merged[0] = None     # convert_to_tf_tensor_spec(batch_axis_to_none=True)
    dtype = x.dtype if isinstance(x.dtype, tf.DType) else tf.as_dtype(np.dtype(x.dtype))
    return tf.TensorSpec(shape=merged, dtype=dtype)


def _map_structure(fn: Any, *structures: Any) -> Any:
    """Keras's tree.map_structure over batches of one structure (dicts by sorted key, tuples and
    lists kept); a structure that differs between batches is ValueError."""
    first = structures[0]
    if isinstance(first, dict):
        for s in structures[1:]:
            if not isinstance(s, dict) or sorted(s) != sorted(first):
                raise ValueError(f"The batches' structures differ: {first!r} and {s!r}")
        return {k: _map_structure(fn, *(s[k] for s in structures)) for k in sorted(first)}
    if isinstance(first, (list, tuple)):
        for s in structures[1:]:
            if not isinstance(s, (list, tuple)) or len(s) != len(first):
                raise ValueError(f"The batches' structures differ: {first!r} and {s!r}")
        return type(first)(_map_structure(fn, *parts) for parts in zip(*structures))
    if first is None:
        raise ValueError("simdist does not support None entries in the batches of a Python generator or "
                         "PyDataset (Keras wraps them in tf.experimental.Optional); yield (x,) or (x, y) instead.")
    return fn(*structures)


def get_tensor_spec(batches: list[Any]) -> Any:
    """The common TensorSpec structure of `batches`: a dimension that differs between them is None,
    the batch dimension always None."""
    return _map_structure(_leaves_spec, *batches)


def map_structure(fn: Any, batch: Any, spec: Any) -> Any:
    """`fn(leaf, leaf_spec)` over a batch and its spec."""
    return _map_structure(fn, batch, spec)
