"""`map` (sequential and parallel) and `filter`, with the output-spec probe of their functions."""

from __future__ import annotations

import warnings
from typing import Any, Callable, Iterator

import numpy as np

from simdist.runtime import dtypes, errors
from simdist.runtime.data.dataset import _UnaryDataset
from simdist.runtime.data.elements import _call_with_element, _normalize_fn_output, UNKNOWN_CARDINALITY, _zeros
from simdist.runtime.spec import (TensorSpec, assert_same_structure, flatten, map_structure,
                                  most_specific_compatible_shape, pack_as)


def _probe_spec(fn: Callable[..., Any], input_dataset: DatasetV2, what: str) -> Any:
    """Infer the output spec of a tf.data function by calling it on zero-filled elements.

    Two probes: unknown input dims 2 and values 0, then dims 3 and values 1; output dims that
    differ become None (so shapes that depend on input sizes or values come out unknown). If a
    probe raises, the first real element is used instead and every output dim is left unknown.
    """
    in_specs = flatten(input_dataset.element_spec)

    def probe(size: int, fill: int) -> Any:
        arrays = []
        for s in in_specs:
            dims = (size,) if s.shape.rank is None else tuple(size if d is None else d for d in s.shape.as_list())
            arr = _zeros(dims, s.dtype)
            if fill:
                arr[...] = b"a" if s.dtype is dtypes.string else fill
            arrays.append(arr)
        return _normalize_fn_output(_call_with_element(fn, input_dataset._pack(arrays)))

    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            out1 = probe(2, 0)
            out2 = probe(3, 1)
        assert_same_structure(out1, out2)
    except Exception as probe_error:  # noqa: BLE001 - fall back to a real element, re-raise if that fails too
        try:
            first = next(input_dataset._iter_flat())
        except StopIteration:
            raise probe_error from None
        out = _normalize_fn_output(_call_with_element(fn, input_dataset._pack(first)))
        return map_structure(lambda t: TensorSpec([None] * t.ndim, t.dtype), out)
    leaves1, leaves2 = flatten(out1), flatten(out2)
    specs = [TensorSpec(most_specific_compatible_shape(a.shape, b.shape), a.dtype) for a, b in zip(leaves1, leaves2)]
    return pack_as(out1, specs)


class _MapDataset(_UnaryDataset):
    _KIND = "MapDataset"

    def __init__(self, input_dataset: DatasetV2, map_func: Callable[..., Any],
                 num_parallel_calls: Any = None) -> None:
        spec = _probe_spec(map_func, input_dataset, "map")
        super().__init__((input_dataset,), {"map_func": map_func, "num_parallel_calls": num_parallel_calls},
                         spec)

    def _iter_flat(self) -> Iterator[list[np.ndarray]]:
        fn = self._params["map_func"]
        inp = self._input
        for flat in inp._iter_flat():
            out = _normalize_fn_output(_call_with_element(fn, inp._pack(flat)))
            try:
                assert_same_structure(self._element_spec, out)
            except ValueError as e:
                raise errors.InvalidArgumentError(None, None, f"map function returned a different structure "
                                                              f"than when traced: {e}") from None
            leaves = flatten(out)
            for t, s in zip(leaves, self._flat_specs):
                if t.dtype != s.dtype:
                    raise errors.InvalidArgumentError(
                        None, None, f"map function returned a {t.dtype.name} tensor where its traced output "
                        f"spec is {s!r}")
            yield [np.asarray(t._v) for t in leaves]

    def _card(self) -> int:
        return self._input._card()


class _ParallelMapDataset(_MapDataset):
    _KIND = "ParallelMapDatasetV2"


class _FilterDataset(_UnaryDataset):
    _KIND = "FilterDataset"

    def __init__(self, input_dataset: DatasetV2, predicate: Callable[..., Any]) -> None:
        spec = _probe_spec(predicate, input_dataset, "filter")
        if not (isinstance(spec, TensorSpec) and spec.dtype == dtypes.bool_ and spec.shape.rank == 0):
            raise ValueError("Invalid `predicate`. `predicate` must return a `tf.bool` scalar tensor, but its "
                             f"return type is {spec!r}.")
        super().__init__((input_dataset,), {"predicate": predicate}, input_dataset.element_spec)

    def _iter_flat(self) -> Iterator[list[np.ndarray]]:
        fn = self._params["predicate"]
        inp = self._input
        for flat in inp._iter_flat():
            keep = _normalize_fn_output(_call_with_element(fn, inp._pack(flat)))
            if bool(np.asarray(keep._v)):
                yield flat

    def _card(self) -> int:
        return UNKNOWN_CARDINALITY
