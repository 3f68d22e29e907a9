"""`Dataset.rejection_resample(class_func, target_dist, initial_dist=None, seed=None)` and
`tf.data.experimental.rejection_resample`: TF 2.21's composition (dataset_ops.py rejection_resample,
_filter_ds, _estimate_initial_dist_ds, _calculate_acceptance_probs_with_mixing), transcribed over
simdist's datasets and ops (clause dataset.rejection-resample).

Elements become `(class_func(x), x)`. The acceptance probabilities a_i = (r_i - m) / (max r - m) with
r = target / (initial + tiny(float32)) and m = min r; an element of class c passes a filter with
`random_uniform([], seed=seed) < a_c`; the result samples the input itself with probability m and the
filtered stream otherwise (sample_from_datasets(seed=seed, stop_on_empty_dataset=True), the weights a
dataset of [(m, 1 - m)]). A static initial_dist with min(target / initial) == 1 is the input mapped,
== 0 the filtered stream alone. Without initial_dist the distribution is estimated as the classes are
seen: counts from 10 per class, updated per batch of 32 class values (scan over batch(32), unbatch).
The seeded random_uniform and sample_from_datasets draw TF's streams (clauses ops.random-in-function,
dataset.sample-choose), so a seeded resample gives TF's elements. Difference: TF prints "Proportion
of examples rejected by sampler is high" (a Print in a cond, the first 10 times) when over half the
examples would be rejected; simdist does not print it.
"""

from __future__ import annotations

from typing import Any, Callable

import numpy as np

from simdist.runtime import dtypes
from simdist.runtime.tensor import Tensor, convert_to_tensor

__all__ = ["rejection_resample"]

_TINY = float(np.finfo(np.float32).tiny)


def _acceptance_and_mixing(initial: Tensor, target: Tensor) -> tuple[Tensor, Tensor]:
    """_calculate_acceptance_probs_with_mixing: (a_i, m)."""
    from simdist.runtime.ops import math as math_ops
    ratio = target / (initial + _TINY)
    max_ratio, min_ratio = math_ops.reduce_max(ratio), math_ops.reduce_min(ratio)
    return (ratio - min_ratio) / (max_ratio - min_ratio), min_ratio


def _estimate_initial_dist_ds(target: Tensor, class_values_ds: Any, batch: int = 32, smoothing: int = 10) -> Any:
    """_estimate_initial_dist_ds: the running class distribution, one row per element."""
    from simdist.runtime.ops import array, generators, math as math_ops, slicing
    num_classes = int(target.shape[0])

    def update(seen: Tensor, c: Tensor) -> tuple[Tensor, Tensor]:
        seen = seen + math_ops.reduce_sum(generators.one_hot(c, num_classes, dtype=dtypes.int64), 0)
        dist = math_ops.cast(math_ops.truediv(seen, math_ops.reduce_sum(seen)), dtypes.float32)
        return seen, slicing.tile(array.expand_dims(dist, 0), [batch, 1])
    start = array.fill([num_classes], np.int64(smoothing))
    return class_values_ds.batch(batch).scan(start, update).unbatch()


def rejection_resample(dataset: Any, class_func: Callable[..., Any], target_dist: Any, initial_dist: Any = None,
                       seed: Any = None) -> Any:
    """The resampled dataset of (class, element) pairs."""
    from simdist.runtime.data.combine import _ZipDataset
    from simdist.runtime.data.dataset import DatasetV2
    from simdist.runtime.ops import array, math as math_ops, random as random_ops
    target = math_ops.cast(convert_to_tensor(target_dist), dtypes.float32)
    if initial_dist is not None:
        initial = math_ops.cast(convert_to_tensor(initial_dist), dtypes.float32)
        accept, prob_original = _acceptance_and_mixing(initial, target)
        initial_ds = DatasetV2.from_tensors(initial).repeat()
        accept_ds = DatasetV2.from_tensors(accept).repeat()
        prob_original_ds = DatasetV2.from_tensors(prob_original).repeat()
    else:
        initial_ds = _estimate_initial_dist_ds(target, dataset.map(class_func))
        both = initial_ds.map(lambda initial: _acceptance_and_mixing(initial, target))
        accept_ds = both.map(lambda a, _: a)
        prob_original_ds = both.map(lambda _, m: m)

    def gather_and_copy(accept_prob: Tensor, data: Any) -> tuple[Any, Any, Any]:
        class_val = class_func(*data) if isinstance(data, tuple) else class_func(data)
        return class_val, array.gather(accept_prob, class_val), data

    def keep(unused_class: Any, p: Tensor, unused_data: Any) -> Tensor:
        return random_ops.uniform([], seed=seed, dtype=p.dtype) < p

    accept_ds = _ZipDataset((accept_ds, initial_ds)).map(lambda a, _: a)   # (_filter_ds' warning map)
    filtered = (_ZipDataset((accept_ds, dataset)).map(gather_and_copy).filter(keep)
                .map(lambda class_value, _, data: (class_value, data)).prefetch(3))

    def add_class_value(*x: Any) -> tuple[Any, Any]:
        return (class_func(*x), x[0]) if len(x) == 1 else (class_func(*x), x)

    static = None
    if initial_dist is not None:
        static = float(np.min(np.asarray(target._v, np.float32) / np.asarray(initial._v, np.float32)))
    if static == 1:
        return dataset.map(add_class_value)
    if static == 0:
        return filtered
    return DatasetV2.sample_from_datasets([dataset.map(add_class_value), filtered],
                                          weights=prob_original_ds.map(lambda prob: ((prob, 1.0 - prob),)),   # (TF: a list, made a tuple)
                                          seed=seed, stop_on_empty_dataset=True)


def experimental_rejection_resample(class_func: Callable[..., Any], target_dist: Any, initial_dist: Any = None,
                                    seed: Any = None) -> Callable[[Any], Any]:
    """tf.data.experimental.rejection_resample: a transformation for `Dataset.apply`."""
    return lambda dataset: dataset.rejection_resample(class_func, target_dist, initial_dist, seed)
