"""`Dataset.random`, `sample_from_datasets` and `choose_from_datasets` (TF 2.21's data/ops/random_op.py,
sample_from_datasets_op.py, choose_from_datasets_op.py, directed_interleave_op.py and their
kernels; clause dataset.sample-choose).

`random(seed)` yields the uint32 outputs of PhiloxRandom(seed, seed2) one at a time as int64
(RandomDatasetOp's SingleSampleAdapter; (seed, seed2) = random_seed.get_seed(seed): the op-seed
rule of every stateful random op, runtime/ops/random_gamma.py `tf_seeds`). `sample_from_datasets`
is built as TF builds it: a selector `random(seed).batch(2).map(squeeze(stateless_multinomial(
log(weights), 1, seed=pair)))` (one categorical draw per element, seeded by two consecutive random
words) read by a DirectedInterleave; so a seeded sample gives TF's exact order. DirectedInterleave
(GetNextInternal): each selector element names the input to read; an exhausted input is dropped and
the selector asked again, or with `stop_on_empty_dataset` the iteration ends; it ends when the
selector ends or every input is exhausted; an index outside [0, n) is InvalidArgumentError
"Selector index out of range". Cardinality: INFINITE when an input is infinite, else UNKNOWN.

Differences: an unseeded `random` / `sample_from_datasets` is seeded from simdist's root seed (TF:
nondeterministic); `rerandomize_each_iteration=True` is not modelled (NotImplementedError: TF draws
new seeds per iteration from its seed generator).
"""

from __future__ import annotations

from typing import Any, Iterator

import numpy as np

from simdist.runtime import dtypes, errors
from simdist.runtime.data.dataset import DatasetV2
from simdist.runtime.data.elements import INFINITE_CARDINALITY, UNKNOWN_CARDINALITY
from simdist.runtime.ops import philox
from simdist.runtime.spec import TensorSpec, flatten, pack_as
from simdist.runtime.tensor import Tensor, convert_to_tensor

__all__ = ["random", "sample_from_datasets", "choose_from_datasets"]


class _RandomDataset(DatasetV2):
    _KIND = "RandomDataset"

    def __init__(self, seed: int, seed2: int) -> None:
        super().__init__((), {"seed": seed, "seed2": seed2}, TensorSpec([], dtypes.int64))

    def _iter_flat(self) -> Iterator[list[np.ndarray]]:
        gen = philox.seeded(self._params["seed"], self._params["seed2"])
        while True:
            for word in gen.next():
                yield [np.asarray(word, np.int64)]

    def _card(self) -> int:
        return INFINITE_CARDINALITY


def random(seed: Any = None, rerandomize_each_iteration: Any = None) -> _RandomDataset:
    """`Dataset.random`: PhiloxRandom(random_seed.get_seed(seed))'s uint32 outputs as int64."""
    from simdist.runtime.ops.random_gamma import tf_seeds
    if rerandomize_each_iteration:
        raise NotImplementedError("simdist's Dataset.random does not model rerandomize_each_iteration=True (TF's "
                                  "seed generator draws new seeds per iteration)")
    s, s2 = tf_seeds(None if seed is None else int(convert_to_tensor(seed, dtype=dtypes.int64).numpy()))
    return _RandomDataset(s, s2)


class _DirectedInterleaveDataset(DatasetV2):
    _KIND = "DirectedInterleaveDataset"

    def __init__(self, selector: DatasetV2, datasets: list[DatasetV2], stop_on_empty_dataset: bool) -> None:
        first = datasets[0].element_spec
        specs = flatten(first)
        for i, d in enumerate(datasets[1:]):
            try:
                other = flatten(d.element_spec)
                if len(other) != len(specs) or type(d.element_spec) is not type(first):
                    raise TypeError
                merged = [a.most_specific_common_supertype([b]) for a, b in zip(specs, other)]
                if any(m is None for m in merged):
                    raise TypeError
                specs = merged
            except (TypeError, ValueError):
                raise TypeError(f"Invalid `datasets`. `datasets` must have compatible element specs.\n Dataset 0 "
                                f"element_spec={first!r}.\nDataset {i + 1} element_spec={d.element_spec!r}.") from None
        super().__init__((selector, *datasets), {"stop_on_empty_dataset": bool(stop_on_empty_dataset)},
                         pack_as(first, specs))

    def _iter_flat(self) -> Iterator[list[np.ndarray]]:
        selector, *inputs = self._inputs
        its: list[Iterator[list[np.ndarray]] | None] = [d._iter_flat() for d in inputs]
        active = len(its)
        for choice in selector._iter_flat():
            k = int(choice[0])
            if k < 0 or k >= len(its):
                raise errors.InvalidArgumentError(None, None, f"Selector index out of range: {k} >= {len(its)} "
                                                  "[Op:IteratorGetNext]")
            it = its[k]
            if it is None:
                continue
            flat = next(it, None)
            if flat is not None:
                yield flat
                continue
            if self._params["stop_on_empty_dataset"]:
                return
            its[k] = None
            active -= 1
            if active == 0:
                return

    def _card(self) -> int:
        for d in self._inputs[1:]:
            if d._card() == INFINITE_CARDINALITY:
                return INFINITE_CARDINALITY
        return UNKNOWN_CARDINALITY


def _check_datasets(datasets: Any) -> list[DatasetV2]:
    if not datasets:
        raise ValueError("Invalid `datasets`. `datasets` should not be empty.")
    return list(datasets)


def sample_from_datasets(datasets: Any, weights: Any = None, seed: Any = None, stop_on_empty_dataset: bool = False,
                         rerandomize_each_iteration: Any = None) -> DatasetV2:
    """sample_from_datasets_op._sample_from_datasets: a seeded categorical selector over `datasets`."""
    from simdist.runtime.ops import array, random as random_ops, unary
    datasets = _check_datasets(datasets)
    if isinstance(weights, DatasetV2):
        logits_ds = weights.map(lambda *p: unary.log(p))   # (TF: log of the argument tuple, [1, n] for one vector)

        def varying(logits: Tensor, pair: Tensor) -> Tensor:
            return array.squeeze(random_ops.stateless_categorical(logits, 1, seed=pair), axis=[0, 1])
        from simdist.runtime.data.combine import _ZipDataset
        selector = _ZipDataset((logits_ds, random(seed, rerandomize_each_iteration).batch(2))).map(varying)
        return _DirectedInterleaveDataset(selector, datasets, stop_on_empty_dataset)
    if weights is None:
        logits = convert_to_tensor([[1.0] * len(datasets)])
    else:
        if isinstance(weights, Tensor):
            if not weights.shape.is_compatible_with([len(datasets)]):
                raise ValueError("Invalid `weights`. The shape of `weights` should be compatible with "
                                 f"`[len(datasets)]` but is {weights.shape}.")
        else:
            if len(datasets) != len(weights):
                raise ValueError("Invalid `weights`. `weights` should have the same length as `datasets` but got "
                                 f"`len(weights)={len(weights)}` vs. `len(datasets)={len(datasets)}`.")
            kept = [(d, w) for d, w in zip(datasets, weights) if w > 0]
            datasets, weights = ([d for d, _ in kept], [w for _, w in kept]) if kept else ([datasets[0].take(0)], [1.])
        weights = convert_to_tensor(weights)
        if weights.dtype not in (dtypes.float32, dtypes.float64):
            raise TypeError("Invalid `weights`. `weights` type must be either `tf.float32` or `tf.float64` but is "
                            f"<dtype: '{weights.dtype.name}'>.")
        logits = array.expand_dims(unary.log(weights), 0)
    if len(datasets) == 1:
        return datasets[0]

    def constant(pair: Tensor) -> Tensor:
        return array.squeeze(random_ops.stateless_categorical(logits, 1, seed=pair), axis=[0, 1])
    selector = random(seed, rerandomize_each_iteration).batch(2).map(constant)
    return _DirectedInterleaveDataset(selector, datasets, stop_on_empty_dataset)


def choose_from_datasets(datasets: Any, choice_dataset: Any, stop_on_empty_dataset: bool = True) -> DatasetV2:
    """choose_from_datasets_op._choose_from_datasets: `choice_dataset`'s int64 scalars pick the input."""
    datasets = _check_datasets(datasets)
    if not isinstance(choice_dataset, DatasetV2):
        raise TypeError("Invalid `choice_dataset`. `choice_dataset` should be a `tf.data.Dataset` but is "
                        f"{type(choice_dataset)}.")
    spec = choice_dataset.element_spec
    if not (isinstance(spec, TensorSpec) and spec.dtype == dtypes.int64 and spec.shape.is_compatible_with([])):
        raise TypeError("Invalid `choice_dataset`. Elements of `choice_dataset` must be scalar `tf.int64` tensors "
                        f"but are {spec!r}.")
    return _DirectedInterleaveDataset(choice_dataset, datasets, stop_on_empty_dataset)
