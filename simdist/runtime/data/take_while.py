"""`Dataset.take_while`: the input's elements while a tf.data predicate holds (TF 2.21's
data/ops/take_while_op.py and TakeWhileDataset; clause dataset.scan-take-while-unique).

The predicate is traced as `filter`'s and must return a scalar bool (ValueError at build); the
iteration ends at the first element it refuses. Cardinality is UNKNOWN.
"""

from __future__ import annotations

from typing import Any, Callable, Iterator

import numpy as np

from simdist.runtime import dtypes
from simdist.runtime.data.elements import UNKNOWN_CARDINALITY, _normalize_fn_output, host_device
from simdist.runtime.data.map_filter import _element_function, _FunctionDataset, _probe_spec
from simdist.runtime.data.resumable import Ended, expand
from simdist.runtime.spec import TensorSpec
from simdist.runtime.tensor import Tensor

__all__ = ["_TakeWhileDataset"]


class _TakeWhileDataset(_FunctionDataset):
    _KIND = "TakeWhileDataset"

    def __init__(self, input_dataset: Any, predicate: Callable[..., Any]) -> None:
        self._fn = _element_function(predicate, input_dataset)
        self._trace = self._fn.trace
        spec = _probe_spec(self._fn, input_dataset)
        if not isinstance(spec, TensorSpec):   # (TF reads `is_compatible_with` of the returned structure)
            raise AttributeError(f"'{type(spec).__name__}' object has no attribute 'is_compatible_with'")
        if not (spec.dtype == dtypes.bool_ and spec.shape.rank == 0):
            raise ValueError("Invalid `predicate`. `predicate` must return a `tf.bool` scalar tensor but its return "
                             f"type is{spec!r}.")
        super().__init__((input_dataset,), {"predicate": predicate}, input_dataset.element_spec)

    def _iter_flat(self) -> Iterator[list[np.ndarray]]:
        """The elements until the predicate refuses one; an error is passed on and the next call goes on
        (TakeWhileDataset's kernel)."""
        call = self._fn.call
        instance: list[Any] = []

        def handle(flat: list[np.ndarray]) -> list[list[np.ndarray]]:
            if not instance:
                instance.append(self._instance())
            keep = call(flat, instance[0], host_device())
            if type(keep) is not Tensor:
                keep = _normalize_fn_output(keep)
            if not bool(np.asarray(keep._v)):
                raise Ended
            return [flat]
        return expand(self._input._iter_flat, handle)

    def _card(self) -> int:
        return UNKNOWN_CARDINALITY
