"""`Dataset.group_by_window` and `Dataset.bucket_by_sequence_length` (TF 2.21's
data/ops/group_by_window_op.py, dataset_ops.py `bucket_by_sequence_length` and
GroupByWindowDatasetOp; clause dataset.group-by-window).

`key_func` (traced, as map's) gives each element an int64 key; elements gather per key; when a
key's group reaches `window_size_func(key)` elements (or `window_size`), `reduce_func(key,
window)` is called on it (the window a dataset of the group's elements) and the returned dataset's
elements are yielded before the input is read on; when the input ends, the partial groups are
reduced in ascending key order (the kernel's std::map). The element spec is the returned
datasets'; cardinality UNKNOWN. Exactly one of window_size / window_size_func (ValueError);
key_func and window_size_func must return int64 scalars (ValueError at build).
"""

from __future__ import annotations

import contextlib

import warnings
from typing import Any, Callable, Iterator

import numpy as np

from simdist.runtime import dtypes, errors
from simdist.runtime.data.elements import UNKNOWN_CARDINALITY, host_device, _normalize_fn_output
from simdist.runtime.data.functions import DatasetFunction
from simdist.runtime.data.map_filter import (_element_function, _FunctionDataset, _probe_spec, _returned_dataset,
                                             _tracing)
from simdist.runtime.data.window import _VariantDataset
from simdist.runtime.ops import random_graphs
from simdist.runtime.spec import (TensorSpec, assert_same_structure, flatten, most_specific_compatible_shape,
                                  pack_as)
from simdist.runtime.tensor import Tensor, convert_to_tensor

__all__ = ["group_by_window", "bucket_by_sequence_length"]

_KEY = TensorSpec([], dtypes.int64)


def _int64_scalar(spec: Any) -> bool:
    return isinstance(spec, TensorSpec) and spec.dtype == dtypes.int64 and spec.shape.is_compatible_with([])


def group_by_window(dataset: Any, key_func: Callable[..., Any], reduce_func: Callable[..., Any],
                    window_size: Any = None, window_size_func: Callable[..., Any] | None = None) -> "_GroupByWindowDataset":
    """group_by_window_op._group_by_window: a constant `window_size` becomes a constant function."""
    if (window_size is not None and window_size_func) or not (window_size is not None or window_size_func):
        raise ValueError("Either the `window_size` argument or the `window_size_func` argument must be specified.")
    if window_size is not None:
        size = convert_to_tensor(window_size, dtype=dtypes.int64)

        def window_size_func(unused_key: Any) -> Any:
            return size
    return _GroupByWindowDataset(dataset, key_func, reduce_func, window_size_func)


_PROBING: list[bool] = []


def probing() -> bool:
    """Whether reduce_func is being traced (its spec probed) rather than run on a window."""
    return bool(_PROBING)


@contextlib.contextmanager
def _probe() -> Iterator[None]:
    _PROBING.append(True)
    try:
        yield
    finally:
        _PROBING.pop()

class _GroupByWindowDataset(_FunctionDataset):
    _KIND = "GroupByWindowDataset"

    def __init__(self, input_dataset: Any, key_func: Callable[..., Any], reduce_func: Callable[..., Any],
                 window_size_func: Callable[..., Any]) -> None:
        from simdist.runtime.data.sources import _RangeDataset
        self._key_fn = _element_function(lambda *a: convert_to_tensor(key_func(*a), dtype=dtypes.int64),
                                         input_dataset)
        if not _int64_scalar(_probe_spec(self._key_fn, input_dataset)):
            raise ValueError("Invalid `key_func`. `key_func` must return a single `tf.int64` scalar tensor but its "
                             f"return type is {_probe_spec(self._key_fn, input_dataset)!r}.")
        self._size_fn = DatasetFunction(lambda k: convert_to_tensor(window_size_func(k), dtype=dtypes.int64), _KEY,
                                        random_graphs.dataset_function())
        keys = _RangeDataset(0, 1, 1, dtypes.int64)
        if not _int64_scalar(_probe_spec(self._size_fn, keys)):
            raise ValueError("Invalid `window_size_func`. `window_size_func` must return a single `tf.int64` scalar "
                             "tensor.")
        self._trace = random_graphs.dataset_function()
        spec = self._reduce_spec(reduce_func, input_dataset)
        super().__init__((input_dataset,), {"key_func": key_func, "reduce_func": reduce_func,
                                            "window_size_func": window_size_func}, spec)

    def _reduce_spec(self, reduce_func: Callable[..., Any], input_dataset: Any) -> Any:
        """The returned datasets' spec: two probes (windows of one probe element), merged as map's. The probes are
        TF's trace: a run-time check of reduce_func (`probing()` true) does not fire in them."""
        specs = []
        for size, fill in ((2, 0), (3, 1)):
            window = _VariantDataset([input_dataset._probe_flat(size, fill)], input_dataset.element_spec)
            for k in dict.fromkeys((fill, 0)):
                # (a kernel's refusal of the probe key's value, which TF's symbolic key never meets — a gather of
                # the key from one bucket's batch sizes, bucket_by_sequence_length with no boundaries — retries
                # the probe with key 0; dsweep65)
                key = Tensor(np.asarray(k, np.int64), dtypes.int64)
                try:
                    with _tracing(self._trace), warnings.catch_warnings(), _probe():
                        warnings.simplefilter("ignore")
                        specs.append(_returned_dataset(reduce_func(key, window)).element_spec)
                    break
                except errors.OpError:
                    if k == 0:
                        raise
        assert_same_structure(specs[0], specs[1])
        return pack_as(specs[0], [TensorSpec(most_specific_compatible_shape(a.shape, b.shape), a.dtype)
                                  for a, b in zip(flatten(specs[0]), flatten(specs[1]))])

    def _reduce(self, key: int, group: list[list[np.ndarray]], instance: Any) -> Iterator[list[np.ndarray]]:
        window = _VariantDataset(group, self._input.element_spec)
        reduce_func = self._params["reduce_func"]
        try:
            with random_graphs.running(instance):
                out = _returned_dataset(reduce_func(Tensor(np.asarray(key, np.int64), dtypes.int64), window))
        except errors.OpError as e:
            # (GroupByWindowDataset's iterator runs reduce_func as a captured function and passes its error on as
            # InternalError naming the code and the function; observed on TF 2.21 for an assertion in it)
            raise errors.InternalError(None, None, f"Got error code {errors.code_name(e.error_code)} "
                                       f"and message: {{\n{e.message}\n}} \nfrom running user-defined function "
                                       f"__inference_Dataset_group_by_window_{getattr(reduce_func, '__name__', 'fn')}"
                                       ": ") from None
        got = [s.dtype for s in out._flat_specs]
        if got != [s.dtype for s in self._flat_specs]:
            raise errors.InvalidArgumentError(None, None, f"reduce_func returned a dataset of {got} elements where "
                                              f"its traced spec is {self._element_spec!r}")
        yield from out._iter_flat()

    def _iter_flat(self) -> Iterator[list[np.ndarray]]:
        instance = self._instance()
        key_instance = random_graphs.instantiate(self._key_fn.trace)
        size_instance = random_graphs.instantiate(self._size_fn.trace)
        groups: dict[int, list[list[np.ndarray]]] = {}
        for flat in self._input._iter_flat():
            key = int(np.asarray(_normalize_fn_output(self._key_fn.call(flat, key_instance, host_device()))._v))
            group = groups.setdefault(key, [])
            group.append(flat)
            size = int(np.asarray(_normalize_fn_output(self._size_fn.call(
                [np.asarray(key, np.int64)], size_instance, host_device()))._v))
            if size <= 0:
                raise errors.InvalidArgumentError(None, None, f"Window size must be greater than zero, but got {size}.")
            if len(group) == size:
                del groups[key]
                yield from self._reduce(key, group, instance)
        for key in sorted(groups):
            yield from self._reduce(key, groups[key], instance)

    def _card(self) -> int:
        return UNKNOWN_CARDINALITY


def bucket_by_sequence_length(dataset: Any, element_length_func: Callable[..., Any], bucket_boundaries: list[int],
                              bucket_batch_sizes: list[int], padded_shapes: Any = None, padding_values: Any = None,
                              pad_to_bucket_boundary: bool = False, no_padding: bool = False,
                              drop_remainder: bool = False) -> Any:
    """dataset_ops.bucket_by_sequence_length: group_by_window keyed by the length's bucket (the first
    [min, max) range of [INT32_MIN] + boundaries / boundaries + [INT32_MAX] holding it), windows of
    the bucket's batch size, each window padded_batch'ed (batch'ed with no_padding)."""
    from simdist.runtime.ops import array, math
    from simdist.runtime.spec import map_structure
    if len(bucket_batch_sizes) != len(bucket_boundaries) + 1:
        raise ValueError("`len(bucket_batch_sizes)` must equal `len(bucket_boundaries) + 1` but "
                         f"`len(bucket_batch_sizes)={len(bucket_batch_sizes)}` and "
                         f"`len(bucket_boundaries)={len(bucket_boundaries)}`.")
    batch_sizes = convert_to_tensor(list(bucket_batch_sizes), dtype=dtypes.int64)
    boundaries = list(bucket_boundaries)
    lows = [int(np.iinfo(np.int32).min)] + boundaries
    highs = boundaries + [int(np.iinfo(np.int32).max)]

    def element_to_bucket_id(*args: Any) -> Any:
        seq_length = element_length_func(*args)
        cond = math.logical_and(math.less_equal(lows, seq_length), math.less(seq_length, highs))
        return math.reduce_min(math.where(cond))

    def window_size_fn(bucket_id: Any) -> Any:
        return array.gather(batch_sizes, bucket_id)

    def batching_fn(bucket_id: Any, grouped: Any) -> Any:
        out = _batching_fn(bucket_id, grouped)
        if drop_remainder and probing():
            # (TF's trace: the batch size is gathered by the key's placeholder, so the batches have no static batch
            # dimension even with drop_remainder; tsweep56)
            out._element_spec = map_structure(lambda s: s._unbatch()._batch(None), out.element_spec)
        return out

    def _batching_fn(bucket_id: Any, grouped: Any) -> Any:
        batch_size = window_size_fn(bucket_id)
        if no_padding:
            return grouped.batch(batch_size, drop_remainder=drop_remainder)
        filler = None
        if pad_to_bucket_boundary:
            k = int(np.asarray(bucket_id._v))
            if k >= len(bucket_batch_sizes) - 1 and probing():
                k = len(bucket_batch_sizes) - 2   # (TF's trace: its assert_less runs only with the window)
            elif k >= len(bucket_batch_sizes) - 1:
                raise errors.InvalidArgumentError(None, None, "assertion failed: [When pad_to_bucket_boundary=True, "
                                                  "elements must have length < max(bucket_boundaries).]")
            filler = bucket_boundaries[k] - 1
        shapes = padded_shapes if padded_shapes is not None else map_structure(lambda s: s.shape,
                                                                                grouped.element_spec)
        shapes = map_structure(lambda sh: [filler if d is None else d for d in TensorSpec(sh).shape.as_list()],
                               shapes)
        return grouped.padded_batch(batch_size, shapes, padding_values, drop_remainder=drop_remainder)
    return group_by_window(dataset, element_to_bucket_id, batching_fn, window_size_func=window_size_fn)
