"""tf.data.Dataset's method arguments at their edges (issue 29, dargs): every transformation of TF 2.21's Dataset that a
small integer dataset can take, built with its required arguments (`REQUIRED`) and then with each argument, one at a
time, at values that pick another branch: an int at 0, 1, -1, 2 and its default + 1 (a required count or size at
0, 1, -1, 2 and 8), a bool negated, an optional count (`OPTIONAL_INTS`) at 1, 2, 0 and -1.

A planted bug in tf.data often sits where only an unusual argument goes: a window's stride beyond its size, a shard
index at the last shard, a batch with drop_remainder over an exact multiple, sample_from_datasets with
stop_on_empty_dataset, a repeat of 0, a take of -1. The arguments come from the reference's own signatures
(dargs_record reads them), so nothing about the backend under test chooses what is tried.

Observed (`observe`): the error class of the call or of the iteration, or the dataset's cardinality and its first
`LIMIT` elements (nested datasets, a window's, as their element lists). The global seed is set before each build.
Nothing here imports TensorFlow.
"""

from __future__ import annotations

from typing import Any, Callable

import numpy as np

#: Elements read from a dataset (and from each nested one).
LIMIT = 24
#: The global seed set before each build (shuffle's, sample_from_datasets' draws).
SEED = 5


def _required(tf: Any) -> dict[str, dict[str, Callable[[], Any]]]:
    """method -> its required arguments, each built on demand (functions and datasets are TF objects)."""
    ds = tf.data.Dataset
    return {
        "batch": {"batch_size": lambda: 3},
        "bucket_by_sequence_length": {"element_length_func": lambda: (lambda x: tf.cast(x, tf.int32)),
                                      "bucket_boundaries": lambda: [3], "bucket_batch_sizes": lambda: [2, 2]},
        "choose_from_datasets": {"datasets": lambda: [ds.range(3), ds.range(10, 14)],
                                 "choice_dataset": lambda: ds.from_tensor_slices(np.array([0, 1, 1, 0, 1], np.int64))},
        "concatenate": {"dataset": lambda: ds.range(20, 23)},
        "enumerate": {},
        "filter": {"predicate": lambda: (lambda x: x % 2 == 0)},
        "flat_map": {"map_func": lambda: (lambda x: ds.from_tensors(x).repeat(2))},
        "group_by_window": {"key_func": lambda: (lambda x: x % 2), "reduce_func": lambda: (lambda k, w: w.batch(5)),
                            "window_size": lambda: 2},
        "interleave": {"map_func": lambda: (lambda x: ds.from_tensors(x).repeat(3))},
        "map": {"map_func": lambda: (lambda x: x * 2)},
        "padded_batch": {"batch_size": lambda: 3},
        "prefetch": {"buffer_size": lambda: 2},
        "repeat": {},
        "sample_from_datasets": {"datasets": lambda: [ds.range(3), ds.range(10, 14)]},
        "scan": {"initial_state": lambda: tf.constant(0, tf.int64), "scan_func": lambda: (lambda s, x: (s + x, s))},
        "shard": {"num_shards": lambda: 3, "index": lambda: 1},
        "shuffle": {"buffer_size": lambda: 3},
        "skip": {"count": lambda: 2},
        "take": {"count": lambda: 3},
        "take_while": {"predicate": lambda: (lambda x: x < 4)},
        "unique": {},
        "window": {"size": lambda: 3},
    }


#: The methods taking the datasets themselves (called on tf.data.Dataset, not on the source).
STATIC = ("choose_from_datasets", "sample_from_datasets")
#: Required ints varied too, and the optional counts (default None) tried.
REQUIRED_INTS = ("batch_size", "count", "buffer_size", "size", "num_shards", "index", "window_size")
OPTIONAL_INTS = ("shift", "cycle_length", "block_length", "count")
#: Arguments never varied: labels, parallelism and determinism hints (no effect on the elements TF gives in order).
SKIP = ("name", "num_parallel_calls", "deterministic", "synchronous", "use_unbounded_threadpool")


def int_variants(default: int | None, required: bool) -> list[int]:
    """The values tried for an int argument."""
    if required:
        return [0, 1, -1, 2, 8]
    if default is None:
        return [1, 2, 0, -1]
    return sorted({0, -1, 1, 2, default + 1} - {default})


def _plain(tf: Any, x: Any) -> Any:
    if hasattr(x, "element_spec") and hasattr(x, "take"):
        return {"dataset": [_plain(tf, e) for e in x.take(LIMIT)]}
    if isinstance(x, (tuple, list)):
        return [_plain(tf, e) for e in x]
    if isinstance(x, dict):
        return {k: _plain(tf, v) for k, v in sorted(x.items())}
    a = np.asarray(x.numpy() if hasattr(x, "numpy") else x)
    return {"dtype": a.dtype.name, "shape": list(a.shape), "values": a.reshape(-1).tolist()}


def observe(tf: Any, method: str, kwargs: dict[str, Any]) -> dict[str, Any]:
    """The method called on range(7) (a STATIC one on tf.data.Dataset) with its required arguments, overridden by
    `kwargs`: the error class of the call or of the iteration, or the cardinality and the first LIMIT elements."""
    tf.random.set_seed(SEED)
    args = {k: make() for k, make in _required(tf)[method].items()}
    args.update(kwargs)
    try:
        fn = getattr(tf.data.Dataset, method) if method in STATIC else getattr(tf.data.Dataset.range(7), method)
        out = fn(**args)
    except Exception as e:  # noqa: BLE001 - a refusal is what is observed
        return {"call": type(e).__name__}
    try:
        card = int(out.cardinality())
        elements = [_plain(tf, e) for e in out.take(LIMIT)]
    except Exception as e:  # noqa: BLE001
        return {"iterate": type(e).__name__}
    return {"cardinality": card, "elements": elements}
