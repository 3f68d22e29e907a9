"""Datasets of several inputs: `zip` and `concatenate`."""

from __future__ import annotations

from typing import Any, Callable, Iterator

import numpy as np

from simdist.runtime import errors
from simdist.runtime.data.dataset import DatasetV2
from simdist.runtime.data.elements import INFINITE_CARDINALITY, UNKNOWN_CARDINALITY
from simdist.runtime.data.resumable import Steps, lazy
from simdist.runtime.spec import (TensorSpec, assert_same_structure, flatten, map_structure,
                                  most_specific_compatible_shape, pack_as)


class _ZipDataset(DatasetV2):
    _KIND = "ZipDataset"

    def __init__(self, datasets: Any) -> None:
        if isinstance(datasets, list):
            raise TypeError("Invalid input to `zip`. Inputs are expected to be (nested) structures of "
                            "`tf.data.Dataset` objects. Python `list` is not supported and you should use "
                            "`tuple` instead.")
        leaves = flatten(datasets)
        for d in leaves:
            if not isinstance(d, DatasetV2):
                raise TypeError("Invalid input to `zip`. Inputs are expected to be (nested) structures of "
                                f"`tf.data.Dataset` objects but encountered object of type {type(d)}.")
        spec = pack_as(datasets, [d.element_spec for d in leaves])
        super().__init__(tuple(leaves), {"structure": map_structure(lambda _: None, datasets)}, spec)

    def _iter_flat(self) -> Iterator[list[np.ndarray]]:
        """One element of each input in turn; an input's error is passed on once every input gave its
        element (the others' lost: ZipDataset's kernel updates one status over all inputs, observed),
        and the next call goes on."""
        return lazy(self._steps)

    def _steps(self) -> Callable[[], list[np.ndarray]]:
        its = [d._iter_flat() for d in self._inputs]
        done = [False]

        def step() -> list[np.ndarray]:
            if done[0]:
                raise StopIteration
            out: list[np.ndarray] = []
            error = None
            for it in its:
                try:
                    out.extend(next(it))
                except StopIteration:
                    done[0] = True
                    raise
                except errors.OpError as e:   # (every input still gives its element: they stay aligned)
                    error = error or e
            if error is not None:
                raise error
            return out
        return step

    def _card(self) -> int:
        result = INFINITE_CARDINALITY
        for d in self._inputs:
            n = d._card()
            if n == UNKNOWN_CARDINALITY:
                return n
            if n != INFINITE_CARDINALITY and (result == INFINITE_CARDINALITY or n < result):
                result = n
        return result


class _ConcatenateDataset(DatasetV2):
    _KIND = "ConcatenateDataset"

    def __init__(self, first: DatasetV2, second: DatasetV2) -> None:
        a, b = first.element_spec, second.element_spec
        try:
            assert_same_structure(a, b)
            ok = all(x.dtype == y.dtype and type(x) is type(y) for x, y in zip(flatten(a), flatten(b)))
        except ValueError:
            ok = False
        if not ok:
            raise TypeError(f"Incompatible dataset elements:\n  {a!r} vs.   {b!r}")
        # each leaf the common supertype of its two specs (a SparseTensorSpec stays one)
        spec = pack_as(a, [type(x)(most_specific_compatible_shape(x.shape, y.shape), x.dtype)
                           for x, y in zip(flatten(a), flatten(b))])
        super().__init__((first, second), {}, spec)

    def _iter_flat(self) -> Iterator[list[np.ndarray]]:
        """The first input's elements, then the second's; errors passed on, the iteration going on."""
        state: dict[str, Any] = {"k": -1, "it": iter(())}

        def step() -> list[np.ndarray]:
            while True:
                try:
                    return next(state["it"])
                except StopIteration:
                    if state["k"] == 1:
                        raise
                    state["k"] += 1
                    state["it"] = self._inputs[state["k"]]._iter_flat()
        return Steps(step)

    def _card(self) -> int:
        n, m = self._inputs[0]._card(), self._inputs[1]._card()
        if INFINITE_CARDINALITY in (n, m):
            return INFINITE_CARDINALITY
        if UNKNOWN_CARDINALITY in (n, m):
            return UNKNOWN_CARDINALITY
        return n + m
