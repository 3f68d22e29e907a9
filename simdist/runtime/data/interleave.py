"""`Dataset.interleave`: the datasets a tf.data function returns for the input's elements, read
`block_length` elements at a time from `cycle_length` of them in turn (TF 2.21's InterleaveDataset,
and ParallelInterleaveDatasetV4 with `num_parallel_calls`; clause dataset.interleave).

The order is InterleaveDatasetOp's GetNextInternal: a cycle of `cycle_length` slots and a cursor;
an empty slot under the cursor takes the dataset of the next input element and is read at once; a
slot's block of `block_length` elements moves the cursor on; a slot whose dataset ends is emptied
and the cursor moves on; the iteration ends when the input is spent and every slot is empty. The
parallel kernel gives the same order when deterministic (observed with TF 2.21); a nondeterministic
one may give any order, and simdist gives this one. AUTOTUNE as `cycle_length` is the host's
parallelism (TF's port::MaxParallelism: runtime/host_cpu.py `parallelism`) for the sequential kernel and
the parallel kernel's ComputeCycleLength otherwise (`cycle_length_used`).
"""

from __future__ import annotations

import warnings
from typing import Any, Callable, Iterator

import numpy as np

from simdist.runtime import dtypes, errors, host_cpu
from simdist.runtime.data.resumable import lazy
from simdist.runtime.data.dataset import _UnaryDataset
from simdist.runtime.data.elements import AUTOTUNE, UNKNOWN_CARDINALITY, _call_with_element
from simdist.runtime.data.map_filter import _FunctionDataset, _probe_dataset_spec, _returned_dataset
from simdist.runtime.ops import random_graphs
from simdist.runtime.spec import flatten
from simdist.runtime.tensor import convert_to_tensor

__all__ = ["interleave"]


def _int64(value: Any) -> int:
    """An int64 scalar argument as TF's `ops.convert_to_tensor(value, dtype=int64)` takes it
    (TypeError for a float, ValueError for an int32 tensor)."""
    return int(convert_to_tensor(value, dtype=dtypes.int64).numpy())


def interleave(dataset: Any, map_func: Callable[..., Any], cycle_length: Any = None, block_length: Any = None,
               num_parallel_calls: Any = None, deterministic: Any = None) -> "_InterleaveDataset":
    """interleave_op._interleave: the sequential kernel without `num_parallel_calls` (a `deterministic`
    then only warns), else the parallel one."""
    if block_length is None:
        block_length = 1
    if cycle_length is None:
        cycle_length = AUTOTUNE
    if num_parallel_calls is None:
        if deterministic is not None:
            # (TF's warnings.warn has the default stacklevel: the warning is the library's line, not the caller's,
            # so the default filter shows it once per process; dataset.interleave)
            warnings.warn("The `deterministic` argument has no effect unless the `num_parallel_calls` argument is "
                          "specified.")
        return _InterleaveDataset(dataset, map_func, cycle_length, block_length, None)
    return _InterleaveDataset(dataset, map_func, cycle_length, block_length, num_parallel_calls)


def cycle_length_used(cycle_length: int, num_parallel_calls: int | None) -> int:
    """The cycle length the kernel runs with. Given: itself. AUTOTUNE: the sequential InterleaveDataset's is
    port::MaxParallelism() (P, the host's parallelism); the parallel kernel's (ParallelInterleaveDatasetV4's
    ComputeCycleLength) is min(num_parallel_calls, P), or, when num_parallel_calls is AUTOTUNE too,
    ceil(P / (kDefaultCyclePrefetchFactor 2 + 1)) — 1 on a 2-CPU host, so `interleave(f,
    num_parallel_calls=AUTOTUNE)` reads one inner dataset to its end before the next (TF 2.21 observed; clause
    dataset.interleave, dsweep65)."""
    if cycle_length != AUTOTUNE:
        return cycle_length
    cpus = host_cpu.current().parallelism
    if num_parallel_calls is None:
        return cpus
    if num_parallel_calls != AUTOTUNE:
        return min(num_parallel_calls, cpus)
    return -(-cpus // 3)


class _InterleaveDataset(_FunctionDataset):
    _KIND = "InterleaveDataset"

    def __init__(self, input_dataset: Any, map_func: Callable[..., Any], cycle_length: Any, block_length: Any,
                 num_parallel_calls: Any) -> None:
        self._trace = random_graphs.dataset_function()
        spec = _probe_dataset_spec(map_func, input_dataset, self._trace)   # (the function's TypeError first)
        cycle, block = _int64(cycle_length), _int64(block_length)
        parallel = num_parallel_calls is not None
        if parallel:
            self._KIND = "ParallelInterleaveDatasetV4"
            calls = _int64(num_parallel_calls)
            if cycle <= 0 and cycle != AUTOTUNE:
                raise errors.InvalidArgumentError(None, None, "`cycle_length` must be `tf.data.AUTOTUNE` or greater "
                                                  f"than 0 but is {cycle} [Op:ParallelInterleaveDatasetV4]")
            if block <= 0:
                raise errors.InvalidArgumentError(None, None, "`block_length` must be > 0 "
                                                  "[Op:ParallelInterleaveDatasetV4]")
            if calls <= 0 and calls != AUTOTUNE:
                raise errors.InvalidArgumentError(None, None, "num_parallel_calls must be greater than zero. "
                                                  "[Op:ParallelInterleaveDatasetV4]")
        else:
            if cycle <= 0 and cycle != AUTOTUNE:
                raise errors.InvalidArgumentError(None, None, "cycle_length must be greater than zero. "
                                                  "[Op:InterleaveDataset]")
            if block <= 0:
                raise errors.InvalidArgumentError(None, None, "block_length must be greater than zero. "
                                                  "[Op:InterleaveDataset]")
        super().__init__((input_dataset,), {"map_func": map_func, "cycle_length": cycle, "block_length": block,
                                            "num_parallel_calls": num_parallel_calls}, spec)

    def _iter_flat(self) -> Iterator[list[np.ndarray]]:
        """`block_length` elements from each of `cycle_length` open inner datasets in turn. An error is
        passed on without moving the cursor or counting in the block (InterleaveDataset's kernel: the
        next call asks the same inner iterator again, observed); the input's or the function's error
        leaves its slot to be opened again."""
        return lazy(self._steps)

    def _steps(self) -> Callable[[], list[np.ndarray]]:
        p = self._params
        fn, inp = p["map_func"], self._input
        calls = p["num_parallel_calls"]
        cycle = cycle_length_used(p["cycle_length"], None if calls is None else _int64(calls))
        block = p["block_length"]
        instance = self._instance()
        want = [s.dtype for s in self._flat_specs]
        source = inp._iter_flat()
        slots: list[Iterator[list[np.ndarray]] | None] = [None] * cycle
        st = {"cursor": 0, "taken": 0, "open": 0, "spent": False}

        def advance() -> None:
            st["taken"], st["cursor"] = 0, (st["cursor"] + 1) % cycle

        def step() -> list[np.ndarray]:
            while not st["spent"] or st["open"]:
                cursor = st["cursor"]
                current = slots[cursor]
                if current is not None:
                    try:
                        flat = next(current)
                    except StopIteration:
                        slots[cursor] = None
                        st["open"] -= 1
                        advance()
                        continue
                    st["taken"] += 1
                    if st["taken"] == block:
                        advance()
                    return flat
                if not st["spent"]:
                    try:
                        element = next(source)
                    except StopIteration:
                        st["spent"] = True
                        continue
                    with random_graphs.running(instance):
                        inner = _returned_dataset(_call_with_element(fn, inp._pack(element), self._trace))
                    got = [s.dtype for s in inner._flat_specs]
                    if got != want:
                        raise errors.InvalidArgumentError(
                            None, None, f"interleave function returned a dataset of {got} elements where its "
                            f"traced spec is {self._element_spec!r}")
                    slots[cursor] = inner._iter_flat()
                    st["open"] += 1
                else:
                    advance()
            raise StopIteration
        return step

    def _card(self) -> int:
        return UNKNOWN_CARDINALITY


__all__ += ["_InterleaveDataset"]
