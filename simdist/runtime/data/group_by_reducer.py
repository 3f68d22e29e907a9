"""`tf.data.experimental.group_by_reducer(key_func, reducer)` and `tf.data.experimental.Reducer`:
one output per key, the key's elements folded by the reducer (TF 2.21's experimental/ops/grouping.py
and GroupByReducerDatasetOp; clause dataset.experimental-extras).

`key_func(element)` must give an int64 scalar (ValueError at build); a key's state starts as
`init_func(key)`, `reduce_func(state, element)` gives the new state (its dtypes those of the initial
state: TypeError; its spec relaxed to a fixed point as scan's), and `finalize_func(state)` (a tuple
state unpacked into arguments) gives the key's output. The kernel reads the whole input first, then
finalizes the keys in ascending order (its std::map). Cardinality is UNKNOWN.
"""

from __future__ import annotations

import functools
from typing import Any, Callable, Iterator

import numpy as np

from simdist.runtime import dtypes
from simdist.runtime.data import checkpoint_state
from simdist.runtime.data.elements import UNKNOWN_CARDINALITY, _apply, _normalize_fn_output, host_device
from simdist.runtime.data.functions import DatasetFunction
from simdist.runtime.data.map_filter import _FunctionDataset, _probe_spec
from simdist.runtime.ops import random_graphs
from simdist.runtime.spec import TensorSpec, flatten, map_structure, most_specific_compatible_shape, pack_as

__all__ = ["Reducer", "group_by_reducer", "_GroupByReducerDataset"]


class Reducer:
    """tf.data.experimental.Reducer: `init_func(key) -> state`, `reduce_func(state, element) -> state`,
    `finalize_func(state) -> output`."""

    def __init__(self, init_func: Callable[..., Any], reduce_func: Callable[..., Any],
                 finalize_func: Callable[..., Any]) -> None:
        self._init_func = init_func
        self._reduce_func = reduce_func
        self._finalize_func = finalize_func

    @property
    def init_func(self) -> Callable[..., Any]:
        return self._init_func

    @property
    def reduce_func(self) -> Callable[..., Any]:
        return self._reduce_func

    @property
    def finalize_func(self) -> Callable[..., Any]:
        return self._finalize_func


class _Input:
    """What `_probe_spec` reads of a function's input: its spec, and a first real input (made by
    `first`) for its fallback."""

    def __init__(self, spec: Any, first: Callable[[], list[np.ndarray]]) -> None:
        self.element_spec, self._first = spec, first

    def _iter_flat(self) -> Iterator[list[np.ndarray]]:
        yield self._first()


def _zeros_of(specs: list[TensorSpec]) -> list[np.ndarray]:
    from simdist.runtime.data.elements import probe_arrays
    return probe_arrays(specs, 1, 0)


class _GroupByReducerDataset(_FunctionDataset):
    _KIND = "GroupByReducerDataset"

    def __init__(self, input_dataset: Any, key_func: Callable[..., Any], reducer: Reducer) -> None:
        trace = random_graphs.dataset_function()
        key_fn = DatasetFunction(functools.partial(_apply, key_func), input_dataset.element_spec, trace)
        key_spec = _probe_spec(key_fn, input_dataset)
        if not (isinstance(key_spec, TensorSpec) and key_spec.dtype == dtypes.int64 and key_spec.shape.rank == 0):
            raise ValueError("Invalid `key_func`. Expected `key_func` to return a scalar tf.int64 tensor, but "
                             f"instead `key_func` has output types={map_structure(lambda s: s.dtype, key_spec)} "
                             f"and shapes={map_structure(lambda s: s.shape, key_spec)}.")
        scalar = TensorSpec([], dtypes.int64)
        init_fn = DatasetFunction(functools.partial(_apply, reducer.init_func), scalar, trace)
        init_spec = _probe_spec(init_fn, _Input(scalar, lambda: [np.asarray(0, np.int64)]))
        state_spec = init_spec
        while True:
            reduce_fn = DatasetFunction(lambda both: reducer.reduce_func(both[0], both[1]),
                                        (state_spec, input_dataset.element_spec), trace)
            specs = flatten(state_spec)
            with checkpoint_state.kept_epochs(input_dataset):   # a probe is no pass of the input
                new = _probe_spec(reduce_fn, _Input((state_spec, input_dataset.element_spec),
                                                    lambda: _zeros_of(specs) + next(input_dataset._iter_flat())))
            old, got = flatten(state_spec), flatten(new)
            if [s.dtype for s in old] != [s.dtype for s in got]:
                raise TypeError(f"Invalid `reducer`. The element types for the new state "
                                f"{map_structure(lambda s: s.dtype, new)} do not match the element types of the old "
                                f"state {map_structure(lambda s: s.dtype, init_spec)}.")
            weak = [most_specific_compatible_shape(a.shape, b.shape) for a, b in zip(old, got)]
            if all(a.shape.rank is None or (w.rank is not None and a.shape.as_list() == w.as_list())
                   for a, w in zip(old, weak)):
                break
            state_spec = pack_as(state_spec, [TensorSpec(w, a.dtype) for a, w in zip(old, weak)])
        finalize_fn = DatasetFunction(functools.partial(_apply, reducer.finalize_func), state_spec, trace)
        specs = flatten(state_spec)
        spec = _probe_spec(finalize_fn, _Input(state_spec, lambda: _zeros_of(specs)))
        self._trace = trace
        self._fns = (key_fn, init_fn, reduce_fn, finalize_fn)
        super().__init__((input_dataset,), {"key_func": key_func, "reducer": reducer}, spec)

    def _iter_flat(self) -> Iterator[list[np.ndarray]]:
        key_fn, init_fn, reduce_fn, finalize_fn = self._fns
        instance = self._instance()
        device = host_device()
        states: dict[int, list[np.ndarray]] = {}
        for flat in self._input._iter_flat():
            key_t = _normalize_fn_output(key_fn.call(flat, instance, device))
            key = int(np.asarray(key_t._v))
            if key not in states:
                init = _normalize_fn_output(init_fn.call([np.asarray(key, np.int64)], instance, device))
                states[key] = [np.asarray(t._v) for t in flatten(init)]
            new = _normalize_fn_output(reduce_fn.call(states[key] + flat, instance, device))
            states[key] = [np.asarray(t._v) for t in flatten(new)]
        for key in sorted(states):
            out = _normalize_fn_output(finalize_fn.call(states[key], instance, device))
            yield [np.asarray(t._v) for t in flatten(out)]

    def _card(self) -> int:
        return UNKNOWN_CARDINALITY


def group_by_reducer(key_func: Callable[..., Any], reducer: Reducer) -> Callable[[Any], Any]:
    """tf.data.experimental.group_by_reducer: a transformation for `Dataset.apply`."""
    return lambda dataset: _GroupByReducerDataset(dataset, key_func, reducer)
