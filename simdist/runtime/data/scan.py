"""`Dataset.scan` and `Dataset.counter`: a tf.data function carrying a state across the elements
(TF 2.21's data/ops/scan_op.py ScanDataset and counter_op.py; clause dataset.scan-take-while-unique).

`scan_func(state, element)` returns `(new_state, output)`; the element is passed as one argument
(a tuple element is not unpacked further). The state spec starts as the initial state's and is
relaxed to the most specific shape compatible with the new state's until it no longer changes
(scan_op.py's fixed point), so a growing state comes out with None dims. The new state must keep
the initial state's dtypes (TypeError "Invalid `scan_func`. The element types for the new state
must match the initial state."). Cardinality is the input's (preserve_cardinality).
"""

from __future__ import annotations

from typing import Any, Callable, Iterator

import numpy as np

from simdist.runtime import dtypes, errors
from simdist.runtime.data.resumable import expand
from simdist.runtime.data.dataset import _UnaryDataset
from simdist.runtime.data.elements import _normalize_fn_output, _to_tensor, host_device
from simdist.runtime.data.functions import DatasetFunction
from simdist.runtime.data.map_filter import _FunctionDataset, _probe_spec
from simdist.runtime.ops import random_graphs
from simdist.runtime.spec import (TensorSpec, flatten, map_structure, most_specific_compatible_shape, pack_as)
from simdist.runtime.tensor import convert_to_tensor

__all__ = ["_ScanDataset", "counter"]


class _StateAndElement:
    """What `_probe_spec` reads of an input: the (state, element) structure, and a first real
    (state, element) for its fallback."""

    def __init__(self, state_spec: Any, state: list[np.ndarray], input_dataset: Any) -> None:
        self.element_spec = (state_spec, input_dataset.element_spec)
        self._state, self._input = state, input_dataset

    def _iter_flat(self) -> Iterator[list[np.ndarray]]:
        for flat in self._input._iter_flat():
            yield list(self._state) + flat
            return


def _scan_call(scan_func: Callable[..., Any]) -> Callable[[Any], Any]:
    def invoke(both: Any) -> Any:
        return scan_func(both[0], both[1])
    return invoke


class _ScanDataset(_FunctionDataset):
    _KIND = "ScanDataset"

    def __init__(self, input_dataset: Any, initial_state: Any, scan_func: Callable[..., Any]) -> None:
        state = map_structure(_to_tensor, initial_state)
        state_spec = map_structure(lambda t: TensorSpec(t.shape, t.dtype), state)
        arrays = [np.asarray(t._v) for t in flatten(state)]
        trace = random_graphs.dataset_function()
        while True:
            fn = DatasetFunction(_scan_call(scan_func), (state_spec, input_dataset.element_spec), trace)
            out = _probe_spec(fn, _StateAndElement(state_spec, arrays, input_dataset))
            if not (isinstance(out, tuple) and len(out) == 2):
                raise TypeError("Invalid `scan_func`. `scan_func` should return a pair consisting of new state and "
                                f"the output value but its return type is {out!r}.")
            new_state, spec = out
            old, new = flatten(state_spec), flatten(new_state)
            if len(old) != len(new):
                raise TypeError("Invalid `scan_func`. The element classes for the new state must match the "
                                f"initial state. Expected {state_spec!r}, got {new_state!r}.")
            if [s.dtype for s in old] != [s.dtype for s in new]:
                raise TypeError("Invalid `scan_func`. The element types for the new state must match the initial "
                                f"state. Expected {map_structure(lambda s: s.dtype, state_spec)}, got "
                                f"{map_structure(lambda s: s.dtype, new_state)}.")
            weak = [most_specific_compatible_shape(a.shape, b.shape) for a, b in zip(old, new)]
            if all(a.shape.rank is None or (w.rank is not None and a.shape.as_list() == w.as_list())
                   for a, w in zip(old, weak)):
                break
            state_spec = pack_as(state_spec, [TensorSpec(w, a.dtype) for a, w in zip(old, weak)])
        self._fn, self._trace = fn, trace
        self._state_spec, self._state_arrays = state_spec, arrays
        super().__init__((input_dataset,), {"initial_state": arrays, "scan_func": scan_func}, spec)

    def _iter_flat(self) -> Iterator[list[np.ndarray]]:
        """scan_func over the elements; an input's error is passed on, the state unchanged, and the next
        call goes on (ScanDataset's kernel)."""
        call = self._fn.call
        instance: list[Any] = []
        state = list(self._state_arrays)
        state_specs = flatten(self._state_spec)

        def handle(flat: list[np.ndarray]) -> list[list[np.ndarray]]:
            nonlocal state
            if not instance:
                instance.append(self._instance())
            new_state, out = _normalize_fn_output(call(state + flat, instance[0], host_device()))
            leaves = flatten(new_state)
            for t, s in zip(leaves, state_specs):
                if not s.shape.is_compatible_with(t.shape):
                    raise errors.InvalidArgumentError(None, None, f"The shape of the new state {t.shape} is not "
                                                      f"compatible with the state's shape {s.shape} [Op:ScanDataset]")
            state = [np.asarray(t._v) for t in leaves]
            return [[np.asarray(t._v) for t in flatten(out)]]
        return expand(self._input._iter_flat, handle)

    def _card(self) -> int:
        return self._input._card()


def counter(start: Any = 0, step: Any = 1, dtype: Any = dtypes.int64) -> _UnaryDataset:
    """`Dataset.counter`: counter_op.py's `from_tensors(0).repeat(None).scan(start, (s + step, s))`,
    `start` and `step` converted to `dtype` (infinite cardinality)."""
    from simdist.runtime.data.counting import _RepeatDataset
    from simdist.runtime.data.sources import _TensorDataset
    dt = dtypes.as_dtype(dtype)
    start_t = convert_to_tensor(start, dtype=dt)
    step_t = convert_to_tensor(step, dtype=dt)
    return _ScanDataset(_RepeatDataset(_TensorDataset(0), -1), start_t, lambda state, _: (state + step_t, state))
