"""Batching: `batch`, `padded_batch` and `unbatch` (with TF's BatchDataset cardinality arithmetic)."""

from __future__ import annotations

import functools
from typing import TYPE_CHECKING, Any, Callable, Iterator

import numpy as np

from simdist.runtime import dtypes, errors
from simdist.runtime.data import components, resources
from simdist.runtime.data.resumable import Steps, expand
from simdist.runtime.data.dataset import _flatten_shapes, _UnaryDataset
from simdist.runtime.data.elements import (_as_array, _cdiv, _cmod, _fmt_shape, _int_arg, UNKNOWN_CARDINALITY,
                                           _unknown_or_infinite)
from simdist.runtime.data.sources import _TensorSliceDataset
from simdist.runtime.ragged_tensor import RaggedTensorSpec
from simdist.runtime.sparse_tensor import SparseTensorSpec
from simdist.runtime.spec import TensorSpec, flatten, map_structure, pack_as
from simdist.runtime.tensor import Tensor, TensorShape

if TYPE_CHECKING:
    from simdist.runtime.data.dataset import DatasetV2


def _batch_card(n: int, size: int, drop: bool) -> int:
    """TF's BatchDataset cardinality, C++ arithmetic included (odd inputs such as SHARD_HINT's -n stay odd)."""
    if _unknown_or_infinite(n):
        return n
    return _cdiv(n, size) + (0 if _cmod(n, size) == 0 or drop else 1)


class _BatchDataset(_UnaryDataset):
    _KIND = "BatchDatasetV2"

    def __init__(self, input_dataset: DatasetV2, batch_size: int, drop_remainder: bool,
                 num_parallel_calls: Any = None) -> None:
        # The element spec comes first (TF's _BatchDataset: a negative static dim of drop_remainder's spec is
        # TensorShape's ValueError), the kernel's size check after it (data.api-surface, dsweep65).
        dim = batch_size if drop_remainder else None
        spec = map_structure(lambda s: s._batch(dim), input_dataset.element_spec)
        if batch_size <= 0:
            raise errors.InvalidArgumentError(None, None, "Batch size must be greater than zero.")
        super().__init__((input_dataset,), {"batch_size": batch_size, "drop_remainder": drop_remainder,
                                            "num_parallel_calls": num_parallel_calls}, spec)

    @property
    def _batch_size(self) -> Any:
        """TF's BatchDataset attribute (an int64 scalar tensor), which Keras's split_dataset reads."""
        from simdist.runtime.tensor import convert_to_tensor
        from simdist.runtime import dtypes
        return convert_to_tensor(self._params["batch_size"], dtype=dtypes.int64)

    def _iter_flat(self) -> Iterator[list[np.ndarray]]:
        _check_parallel_batch_calls(self._params["num_parallel_calls"])
        size, drop = self._params["batch_size"], self._params["drop_remainder"]
        src = self._input
        if type(src) is _TensorSliceDataset and src._arrays:
            # Batches of slices are copies of consecutive rows: the arrays np.stack would build
            # from the rows one by one (the same values, dtype and layout), without a Python
            # step per row.
            return _slice_batches(src._arrays, size, drop)
        stack = _stack if not src._composite else functools.partial(_stack_composite, specs=flatten(src.element_spec))
        return _batches(src, size, drop, stack, fusable=True)

    def _card(self) -> int:
        return _batch_card(self._input._card(), self._params["batch_size"], self._params["drop_remainder"])


def _check_parallel_batch_calls(calls: Any) -> None:
    """batch(num_parallel_calls=n) with n 0, or below -1: TF 2.21 builds the ParallelBatchDataset (its kernel does
    not check n) and its iteration never ends (0: no worker ever runs) or ends the process (-2, -3: the thread pool's
    reserve aborts); simdist refuses the first element with InvalidArgumentError instead of giving batches TF never
    gives (clause dataset.api-surface, dsweep65)."""
    if calls is None:
        return
    n = _int_arg(calls, "num_parallel_calls")
    if n == 0 or n < -1:
        raise errors.InvalidArgumentError(None, None, f"batch: num_parallel_calls={n}: TF 2.21's ParallelBatchDataset "
                                          "never produces an element (0: it hangs; below -1: the process aborts); "
                                          "use None, tf.data.AUTOTUNE or a count > 0")


def _slice_batches(arrays: list[np.ndarray], size: int, drop: bool) -> Iterator[list[np.ndarray]]:
    n = arrays[0].shape[0]
    stop = n - n % size if drop else n
    for start in range(0, stop, size):
        yield [a[start:start + size].copy() for a in arrays]


def _fused(src: DatasetV2) -> bool:
    """Whether TF runs `src.batch(...)` as one MapAndBatchDataset: `src` a map (sequential or parallel)
    and the pipeline's map_and_batch_fusion option not False (a default static optimization)."""
    from simdist.runtime.data.map_filter import _MapDataset
    if not isinstance(src, _MapDataset):
        return False
    opts = resources.options()
    return opts is None or opts.experimental_optimization.map_and_batch_fusion is not False


def _batches(src: DatasetV2, size: int, drop: bool, make: Callable[[list[list[np.ndarray]]], list[np.ndarray]],
             fusable: bool) -> Iterator[list[np.ndarray]]:
    """The batches of `src`'s elements, resumable after an element's error as TF's kernels are
    (clause dataset.ignore-errors). BatchDataset: an input error is raised at once and the elements
    already taken for that batch are lost, the next batch starting after the failed element.
    MapAndBatchDataset (a map then a batch, fused: `_fused`): a failed element takes its place in the
    batch, the batch's first error is raised once the batch is complete (or the input ends), so the
    whole batch is lost. After the input's end: no more batches."""
    state: dict[str, Any] = {"done": False, "fused": None, "it": None}

    def step() -> list[np.ndarray]:
        if state["done"]:
            raise StopIteration
        if state["fused"] is None:   # (at the first call: inside the iterator resource, its input opened then)
            state["fused"] = fusable and _fused(src)
            state["it"] = src._iter_flat()
        it = state["it"]
        buf: list[list[np.ndarray]] = []
        taken, first_error = 0, None
        while taken < size:
            try:
                flat = next(it)
            except StopIteration:
                state["done"] = True
                break
            except errors.OpError as e:
                if not state["fused"]:
                    raise
                first_error = first_error or e
                taken += 1
                continue
            buf.append(flat)
            taken += 1
        if first_error is not None:
            raise first_error
        if not buf or (drop and len(buf) < size):
            state["done"] = True
            raise StopIteration
        return make(buf, fused=True) if state["fused"] else make(buf)
    return Steps(step)


def _stack(rows: list[list[np.ndarray]], offset: int = 0, fused: bool = False) -> list[np.ndarray]:
    """Each component of the rows stacked (`offset`: the number of the first component in messages).
    BatchDataset (CopyBatch) refuses an element whose shape differs from the first's; a fused
    MapAndBatchDataset (`fused`) copies each element flat into a batch of the first element's shape
    (batch_util::CopyElementToSlice), refusing only a different number of elements."""
    out = []
    for i in range(len(rows[0])):
        first = rows[0][i].shape
        for k, r in enumerate(rows[1:], start=1):
            if r[i].shape != first and not fused:
                raise errors.InvalidArgumentError(
                    None, None, f"Cannot batch tensors with different shapes in component {i + offset}. First element "
                    f"had shape {_fmt_shape(first)} and element {k} had shape {_fmt_shape(r[i].shape)}.")
            if r[i].shape != first and r[i].size != rows[0][i].size:
                raise errors.InvalidArgumentError(
                    None, None, "Cannot add tensor to the batch: number of elements does not match. Shapes are: "
                    f"[tensor]: {_fmt_shape(r[i].shape)}, [batch]: {_fmt_shape(first)}")
        out.append(np.stack([r[i].reshape(first) for r in rows]))
    return out


def _stack_composite(rows: list[list[np.ndarray]], specs: list[Any], fused: bool = False) -> list[np.ndarray]:
    """A batch of elements with SparseTensor leaves: each sparse leaf's three components combined as
    DeserializeSparse does (components.batch_sparse), the dense components stacked (`_stack`; its
    component numbers those of the flat list)."""
    out: list[np.ndarray] = []
    i = 0
    for spec in specs:
        if isinstance(spec, SparseTensorSpec):
            out.extend(components.batch_sparse([r[i:i + 3] for r in rows], spec.dtype))
            i += 3
        elif isinstance(spec, RaggedTensorSpec):
            w = components.width(spec)
            out.extend(components.batch_ragged([r[i:i + w] for r in rows], spec))
            i += w
        else:
            out.extend(_stack([[r[i]] for r in rows], i, fused))
            i += 1
    return out


def _can_pad_to(padded: TensorShape, component: TensorShape) -> bool:
    """TF's `_is_padded_shape_compatible_with`: same rank (when both are known) and no known
    padded dim smaller than the component's known dim (a larger one pads)."""
    if padded.rank is None or component.rank is None:
        return True
    if padded.rank != component.rank:
        return False
    return all(p is None or c is None or p >= c for p, c in zip(padded.as_list(), component.as_list()))


def _padded_shape(p: Any) -> TensorShape:
    """One component's `padded_shapes` entry as TF's padded_batch_op._padded_shape_to_tensor reads it: a sequence
    (or TensorShape, or 1-D tensor) of dimensions, None or -1 unknown; a scalar integer n >= 0 (a Python or NumPy
    int, or a scalar tensor) is the singleton shape [n], as `tf.TensorShape(n)` is, and a negative scalar is TF's
    ValueError (clause dataset.batching)."""
    p = p.numpy().tolist() if isinstance(p, Tensor) else p
    if isinstance(p, (int, np.integer)) and not isinstance(p, bool):
        if p < 0:
            raise ValueError(f"Padded shape {int(p)} must be a `tf.int64` vector tensor, but its shape was ().")
        p = [int(p)]
    return TensorShape(None if p is None else [None if d is None or int(d) < 0 else int(d) for d in p])


def _padding_value(value: Any, dtype: dtypes.DType) -> Any:
    """A given padding value as TF's _padding_value_to_tensor takes it: converted as convert_to_tensor infers (a
    Python int is int32, a float float32), a scalar, of exactly the component's dtype (else TypeError)."""
    from simdist.runtime.tensor import convert_to_tensor
    t = convert_to_tensor(value)
    if t.shape.rank != 0:
        raise ValueError(f"Invalid `padding_values`. `padding_values` values should be scalars, but got {t.shape}.")
    if t.dtype != dtype:
        raise TypeError(f"Invalid `padding_values`. `padding_values` values should be of the same type as the "
                        f"corresponding input component, but got {t.dtype!r} for an input of type {dtype!r}.")
    return _as_array(t, dtype)[()]


class _PaddedBatchDataset(_UnaryDataset):
    _KIND = "PaddedBatchDatasetV2"

    def __init__(self, input_dataset: DatasetV2, batch_size: int, padded_shapes: Any, padding_values: Any,
                 drop_remainder: bool) -> None:
        in_spec = input_dataset.element_spec
        in_specs = flatten(in_spec)
        for s in in_specs:
            if not isinstance(s, TensorSpec):
                raise TypeError("`padded_batch` is only supported for datasets that produce tensor elements but "
                                "type spec of elements in the input dataset is not a subclass of TensorSpec: "
                                f"`{s!r}`.")
        if padded_shapes is None:
            for s in in_specs:
                if s.shape.rank is None:
                    raise ValueError("You must provide `padded_shapes` argument because component "
                                     f"{in_specs.index(s)} has unknown rank.")
            shapes = [s.shape for s in in_specs]
        else:
            raw = _flatten_shapes(padded_shapes, in_spec) if isinstance(in_spec, (tuple, dict)) else [padded_shapes]
            shapes = []
            for p, s in zip(raw, in_specs):
                shape = _padded_shape(p)
                if not _can_pad_to(shape, s.shape):
                    raise ValueError(f"The padded shape {shape} is not compatible with the shape {s.shape} of the "
                                     "corresponding input component.")
                shapes.append(shape)
        if padding_values is None:
            pads = [_as_array(b"" if s.dtype is dtypes.string else 0, s.dtype)[()] for s in in_specs]
        else:
            given = flatten(padding_values) if isinstance(in_spec, (tuple, dict)) else [padding_values]
            if len(given) != len(in_specs):   # TF's nest.map_structure_up_to refuses it when built (wsweep60)
                raise ValueError(f"The two structures don't have the same sequence length. Input structure has length "
                                 f"{len(in_specs)}, while shallow structure has length {len(given)}.")
            pads = [_padding_value(p, s.dtype) for p, s in zip(given, in_specs)]
        dim = batch_size if drop_remainder else None
        spec = pack_as(in_spec, [TensorSpec(TensorShape([dim]).concatenate(sh), s.dtype)
                                 for sh, s in zip(shapes, in_specs)])
        if batch_size <= 0:   # (the kernel's check, after the Python spec's: as batch's)
            raise errors.InvalidArgumentError(None, None, "Batch size must be greater than zero.")
        super().__init__((input_dataset,), {"batch_size": batch_size, "drop_remainder": drop_remainder,
                                            "padded_shapes": tuple(shapes), "padding_values": tuple(pads)}, spec)

    def _iter_flat(self) -> Iterator[list[np.ndarray]]:
        size, drop = self._params["batch_size"], self._params["drop_remainder"]
        src = self._input
        if type(src) is _TensorSliceDataset and src._arrays and self._pads_nothing(src._arrays):
            # Batches of slices that need no padding are copies of consecutive rows (as batch's).
            return _slice_batches(src._arrays, size, drop)
        return _batches(src, size, drop, self._pad, fusable=False)

    def _pads_nothing(self, arrays: list[np.ndarray]) -> bool:
        """Whether rows of `arrays` (all of one shape) come out of `_pad` unchanged: every padded
        dim unknown or equal to the row's."""
        for shape, a in zip(self._params["padded_shapes"], arrays):
            if shape.rank is not None and any(d is not None and d != r for d, r in zip(shape.as_list(), a.shape[1:])):
                return False
        return True

    def _pad(self, rows: list[list[np.ndarray]]) -> list[np.ndarray]:
        out = []
        for i, (shape, pad, spec) in enumerate(zip(self._params["padded_shapes"], self._params["padding_values"],
                                                   self._flat_specs)):
            comps = [r[i] for r in rows]
            rank = comps[0].ndim
            dims = shape.as_list() if shape.rank is not None else [None] * rank
            target = tuple(d if d is not None else max(c.shape[k] for c in comps) for k, d in enumerate(dims))
            arr = np.full((len(comps),) + target, pad, dtype=object if spec.dtype is dtypes.string else spec.dtype.np)
            for j, c in enumerate(comps):
                if c.ndim != len(target) or any(a > t for a, t in zip(c.shape, target)):
                    raise errors.DataLossError(None, None, "Attempted to pad to a smaller size than the input element.")
                arr[(j,) + tuple(slice(0, a) for a in c.shape)] = c
            out.append(arr)
        return out

    def _card(self) -> int:
        return _batch_card(self._input._card(), self._params["batch_size"], self._params["drop_remainder"])


class _UnbatchDataset(_UnaryDataset):
    _KIND = "UnbatchDataset"

    def __init__(self, input_dataset: DatasetV2) -> None:
        specs = flatten(input_dataset.element_spec)
        for s in specs:
            if isinstance(s, SparseTensorSpec) and s.shape.rank == 0:
                raise ValueError("Unbatching a sparse tensor is only supported for rank >= 1. Obtained input: "
                                 f"a SparseTensor of spec {s!r}.")
        if any(s.shape.rank == 0 for s in specs):
            raise ValueError("Cannot unbatch an input with scalar components.")
        self._leaf_specs = specs
        known = None   # TF's unbatch_op merges the components' static leading dims when it is built
        for s in specs:
            # (its `_flat_shapes`: a SparseTensor's or RaggedTensor's flat component is a variant of unknown
            # shape there, so only dense components' rows are compared at build; blind55)
            dim = s.shape[0] if s.shape.rank and not isinstance(s, (SparseTensorSpec, RaggedTensorSpec)) else None
            if dim is not None and known is not None and dim != known:
                raise ValueError("`unbatch()` is only supported for datasets of elements whose components have a "
                                 f"matching leading dimension. Encountered both {known} and {dim}.")
            known = dim if dim is not None else known
        spec = map_structure(lambda s: s._unbatch() if isinstance(s, (SparseTensorSpec, RaggedTensorSpec)) else
                             TensorSpec(s.shape[1:] if s.shape.rank is not None else None, s.dtype),
                             input_dataset.element_spec)
        super().__init__((input_dataset,), {}, spec)

    def _iter_flat(self) -> Iterator[list[np.ndarray]]:
        """Each input element's rows; an input's error is passed on and the next call goes on
        (UnbatchDataset's kernel)."""
        return expand(self._input._iter_flat, self._rows_composite if self._input._composite else self._rows)

    def _rows(self, flat: list[np.ndarray]) -> list[list[np.ndarray]]:
        for i, c in enumerate(flat):
            if c.ndim == 0:
                raise errors.InvalidArgumentError(
                    None, None, "Input element must have a non-scalar value in each component.")
            if c.shape[0] != flat[0].shape[0]:
                raise errors.InvalidArgumentError(
                    None, None, "Input element must have the same batch size in each component. Component "
                    f"0 had size {flat[0].shape[0]} but component {i} had size, {c.shape[0]}.")
        return [[c[j, ...] for c in flat] for j in range(flat[0].shape[0] if flat else 0)]

    def _card(self) -> int:
        n = self._input._card()
        if _unknown_or_infinite(n):
            return n
        # UnbatchDatasetOp: the first component whose output shape knows its leading dimension gives the rows per
        # element (a SparseTensor's variant has none, a RaggedTensor's has its rows; observed on TF 2.21, blind55)
        dims = [s.shape[0] for s in flatten(self._input.element_spec)
                if s.shape.rank and not isinstance(s, SparseTensorSpec) and s.shape[0] is not None]
        # (a known leading dimension of 0 is taken, and gives UNKNOWN: the kernel multiplies only by a size > 0;
        # TF 2.21 observed, dsweep65)
        return n * dims[0] if dims and dims[0] > 0 else UNKNOWN_CARDINALITY

    def _rows_composite(self, flat: list[np.ndarray]) -> list[list[np.ndarray]]:
        """Rows of an element with SparseTensor leaves: a sparse leaf split along its dense_shape[0]
        (components.unbatch_sparse), a dense one by its rows; every leaf's batch size must agree."""
        parts: list[Any] = []
        sizes: list[int] = []
        i = 0
        for spec in self._leaf_specs:
            if isinstance(spec, SparseTensorSpec):
                parts.append(components.unbatch_sparse(*flat[i:i + 3]))
                sizes.append(int(flat[i + 2][0]))
                i += 3
            elif isinstance(spec, RaggedTensorSpec) and spec.ragged_rank:
                w = components.width(spec)
                parts.append(components.unbatch_ragged(flat[i:i + w], spec))
                sizes.append(len(parts[-1]))
                i += w
            else:
                c = flat[i]
                if c.ndim == 0:
                    raise errors.InvalidArgumentError(
                        None, None, "Input element must have a non-scalar value in each component.")
                parts.append(c)
                sizes.append(c.shape[0])
                i += 1
        for k, n in enumerate(sizes):
            if n != sizes[0]:
                raise errors.InvalidArgumentError(
                    None, None, "Input element must have the same batch size in each component. Component "
                    f"0 had size {sizes[0]} but component {k} had size, {n}.")
        rows = []
        for j in range(sizes[0] if sizes else 0):
            row: list[np.ndarray] = []
            for spec, p in zip(self._leaf_specs, parts):
                if isinstance(spec, SparseTensorSpec) or (isinstance(spec, RaggedTensorSpec) and spec.ragged_rank):
                    row.extend(p[j])
                else:
                    row.append(p[j, ...])
            rows.append(row)
        return rows
