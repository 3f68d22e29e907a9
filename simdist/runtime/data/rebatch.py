"""Rebatching for tf.distribute: `Dataset.rebatch` (RebatchDatasetV2: batch sizes cycling) and the
legacy RebatchDataset (every batch split in R pieces), with their kernels' rules.

Sources: TF's `data/ops/rebatch_op.py`, `data/experimental/ops/distribute.py` and the kernel
`rebatch_dataset_op.cc`. The distribution rules that decide *when* to rebatch stay in
`simdist.semantics.rebatch`."""

from __future__ import annotations

from typing import Any, Iterator

import numpy as np

from simdist.runtime import dtypes, errors
from simdist.runtime.data.dataset import _UnaryDataset
from simdist.runtime.data.elements import _shape_list, UNKNOWN_CARDINALITY
from simdist.runtime.spec import flatten, map_structure


def legacy_split_bounds(batch_dim: int, num_replicas: int) -> list[tuple[int, int]]:
    """Rows of each of the R pieces of one batch of b rows (clause dataset.partial-batch-split).

    m = ceil(b / R); piece k = rows [min(k*m, b), min((k+1)*m, b)); pieces can be empty
    (b=4, R=3 -> [0,2), [2,4), [4,4)).
    """
    m = -(-batch_dim // num_replicas) if batch_dim > 0 else 0
    return [(min(k * m, batch_dim), min((k + 1) * m, batch_dim)) for k in range(num_replicas)]


def iter_legacy_rebatch(batches: Iterable[list[np.ndarray]], num_replicas: int) -> Iterator[list[np.ndarray]]:
    """Legacy rebatch: every input batch becomes R outputs, each component sliced on its own.

    A scalar component raises InvalidArgumentError (TF's kernel message). Clause
    dataset.partial-batch-split.
    """
    for comps in batches:
        for i, c in enumerate(comps):
            if np.ndim(c) == 0:
                raise errors.InvalidArgumentError(
                    None, None,
                    "Cannot rebatch dataset: All components must have at least one dimension. Perhaps your "
                    f"input dataset is not batched? Component {i} is scalar.")
        bounds = [legacy_split_bounds(c.shape[0], num_replicas) for c in comps]
        for k in range(num_replicas):
            yield [c[b[k][0]:b[k][1]] for c, b in zip(comps, bounds)]


def legacy_rebatch_dim(dim0: int | None, num_replicas: int) -> int | None:
    """Static batch dim after legacy rebatch: dim0 / R if dim0 is known and divisible, else None.

    `dim0` is the component's static dim 0; pass it only for a component of rank >= 1 (a scalar
    spec raises ValueError in `check_rebatch_rank`). Clause dataset.partial-batch-split.
    """
    if dim0 is not None and dim0 % num_replicas == 0:
        return dim0 // num_replicas
    return None


def check_rebatch_rank(component_shapes: Sequence[Any], legacy: bool) -> None:
    """Reject datasets with scalar components before rebatching (TF's Python-side ValueErrors).

    Clause dataset.rebatch: only batched datasets can be split across replicas.
    """
    for shape in component_shapes:
        if shape is not None and len(shape) < 1:
            if legacy:
                raise ValueError(
                    "Invalid `input_dataset`. Expected a dataset whose elements have rank >= 1 but found a "
                    "dataset whose elements are scalars. Fix the issue by adding the `batch` transformation "
                    "to the dataset.")
            raise ValueError(
                "Invalid `batch_sizes`. Expected dataset with rank of >= 1 but found a dataset with scalar "
                "elements. Fix the issue by adding the `batch` transformation to the dataset.")


def rebatch_v2_static_dim(batch_sizes: Sequence[int], input_batch_dims: Sequence[int | None],
                          drop_remainder: bool) -> int | None:
    """Static batch dim after RebatchV2 (TF's `_RebatchDataset._compute_static_batch_dim`).

    Known only if all batch sizes are equal and no partial batch can form: drop_remainder, or
    the known input batch dims are all multiples of it. Unknown input dims alone give None.
    Clause dataset.partial-batch-split.
    """
    sizes = list(batch_sizes)
    if not sizes or any(s != sizes[0] for s in sizes):
        return None
    size = sizes[0]
    if drop_remainder:
        return size
    known = [d for d in input_batch_dims if d is not None]
    if not known:
        return None
    if any(d != known[0] for d in known):
        raise ValueError(f"Invalid `input_dataset.` The batch dimension of component 0 is {known[0]}, while "
                         f"the batch dimension of component i is {np.asarray(known)}.")
    if size == 0 or known[0] % size != 0:
        return None
    return size


def empty_batch_shape(shape: Any) -> tuple[int, ...]:
    """Shape of the empty output RebatchV2 emits for a batch size of 0: dim 0 and unknown dims -> 0.

    Clause dataset.partial-batch-split (a replica whose share of the global batch is 0 gets an
    empty batch).
    """
    if shape is None:
        return (0,)
    dims = [0 if d is None else int(d) for d in shape]
    if dims:
        dims[0] = 0
    return tuple(dims)


def iter_rebatch_v2(batches: Iterable[list[np.ndarray]], batch_sizes: Sequence[int], drop_remainder: bool,
                    output_shapes: Sequence[Any], output_dtypes: Sequence[Any]) -> Iterator[list[np.ndarray]]:
    """RebatchV2 = unbatch().batch(n) with n cycling through `batch_sizes` (clause dataset.partial-batch-split).

    Slices are concatenated across input batches; the final output may be short (dropped with
    drop_remainder); a desired size of 0 emits an empty batch (shape from `output_shapes`, NumPy
    dtype from `output_dtypes`) until the input is exhausted; no other empty output is produced.
    """
    sizes = list(batch_sizes)
    if any(s < 0 for s in sizes):
        # (RebatchDatasetV2's kernel does not check its sizes: TF 2.21's iteration of a negative size ends the
        # process (SIGSEGV, observed for rebatch(-1)); simdist refuses at the first element instead; dsweep65)
        raise errors.InvalidArgumentError(None, None, f"rebatch: batch sizes must be >= 0, got {sizes} (TF 2.21's "
                                          "RebatchDatasetV2 crashes the process here)")
    it = iter(batches)
    current: list[np.ndarray] | None = None
    offset = 0
    exhausted = False
    index = 0
    while not exhausted:
        desired = sizes[index]
        index = (index + 1) % len(sizes)
        got = 0
        pieces: list[list[np.ndarray]] = []
        while got < desired:
            if current is None:
                try:
                    current = next(it)
                except StopIteration:
                    exhausted = True
                    break
                _validate_v2_input(current)
                offset = 0
            n = current[0].shape[0]
            end = min(offset + desired - got, n)
            pieces.append([c[offset:end] for c in current])
            got += end - offset
            offset = end
            if offset == n:
                current = None
        if (got == 0 and desired > 0) or (drop_remainder and got < desired):
            return
        if desired == 0:
            yield [np.zeros(empty_batch_shape(s), dtype=dt) for s, dt in zip(output_shapes, output_dtypes)]
            continue
        if len(pieces) == 1:
            yield pieces[0]
        else:
            yield [np.concatenate([p[i] for p in pieces], axis=0) for i in range(len(pieces[0]))]


def _validate_v2_input(comps: list[np.ndarray]) -> None:
    for i, c in enumerate(comps):
        if np.ndim(c) == 0:
            raise errors.InvalidArgumentError(None, None,
                                              "Input element must have a non-scalar value in each component.")
        if c.shape[0] != comps[0].shape[0]:
            raise errors.InvalidArgumentError(
                None, None,
                "Input element must have the same batch size in each component. Component 0 had size "
                f"{comps[0].shape[0]} but component {i} had size, {c.shape[0]}.")


def _iter_rebatch_rows(input_dataset: Any, batch_sizes: Sequence[int], drop_remainder: bool) -> Iterator[list[np.ndarray]]:
    """RebatchV2 of elements with RaggedTensor (or SparseTensor) leaves: TF's normalize_to_dense makes each leaf one
    batched variant, so the kernel splits and joins whole rows — unbatch().batch(n), n cycling through
    `batch_sizes` (a ragged_batch rebatched across replicas keeps its rows; simdist split the leaves' flat values
    and row splits as if they were dense components: clause dataset.partial-batch-split, dsweep65)."""
    from simdist.runtime.data.batching import _UnbatchDataset, _stack_composite
    sizes = list(batch_sizes)
    if any(n < 0 for n in sizes):
        raise errors.InvalidArgumentError(None, None, f"rebatch: batch sizes must be >= 0, got {sizes} (TF 2.21's "
                                          "RebatchDatasetV2 crashes the process here)")
    rows_ds = _UnbatchDataset(input_dataset)
    specs = flatten(rows_ds.element_spec)
    rows = rows_ds._iter_flat()
    index, spent = 0, False
    while not spent:
        want = sizes[index]
        index = (index + 1) % len(sizes)
        group: list[list[np.ndarray]] = []
        while len(group) < want:
            try:
                group.append(next(rows))
            except StopIteration:
                spent = True
                break
        if (not group and want > 0) or (drop_remainder and len(group) < want):
            return
        if not group:   # (a size of 0: an empty batch, as the dense path's)
            yield _empty_rows_batch(specs)
            continue
        yield _stack_composite(group, specs)


def _iter_legacy_rows(input_dataset: Any, num_replicas: int) -> Iterator[list[np.ndarray]]:
    """Legacy rebatch of elements with RaggedTensor leaves: each input batch's rows split into R pieces
    (legacy_split_bounds), whole rows, as `_iter_rebatch_rows` (dsweep65)."""
    from simdist.runtime.data.batching import _UnbatchDataset, _stack_composite
    rows_ds = _UnbatchDataset(input_dataset)
    specs = flatten(rows_ds.element_spec)
    for flat in input_dataset._iter_flat():
        rows = rows_ds._rows_composite(flat)
        for lo, hi in legacy_split_bounds(len(rows), num_replicas):
            yield _stack_composite(rows[lo:hi], specs) if hi > lo else _empty_rows_batch(specs)


def _empty_rows_batch(specs: list[Any]) -> list[np.ndarray]:
    """A batch of no rows of the row specs `specs` (dense leaves: dim 0 and unknown dims 0)."""
    from simdist.runtime.data import components
    from simdist.runtime.ragged_tensor import RaggedTensorSpec
    out: list[np.ndarray] = []
    for spec in specs:
        if isinstance(spec, RaggedTensorSpec):
            out.extend(components.batch_ragged([], spec))
        else:
            out.append(np.zeros(empty_batch_shape([None] + (_shape_list(spec.shape) or [])),
                                dtype=object if spec.dtype is dtypes.string else spec.dtype.np))
    return out


class _RebatchDataset(_UnaryDataset):
    """RebatchDatasetV2: unbatch().batch(n) with n cycling through `batch_sizes` (`Dataset.rebatch`)."""

    _KIND = "RebatchDatasetV2"

    def __init__(self, input_dataset: DatasetV2, batch_sizes: list[int], drop_remainder: bool = False,
                 element_spec: Any = None) -> None:
        if element_spec is None:
            shapes = [_shape_list(s.shape) for s in flatten(input_dataset.element_spec)]
            check_rebatch_rank(shapes, legacy=False)
            dims = [s[0] if s is not None else None for s in shapes]
            new_dim = rebatch_v2_static_dim(batch_sizes, dims, drop_remainder)
            element_spec = map_structure(lambda s: s._unbatch()._batch(new_dim) if s.shape.rank is not None
                                         else s, input_dataset.element_spec)
        super().__init__((input_dataset,), {"batch_sizes": tuple(batch_sizes), "drop_remainder": drop_remainder},
                         element_spec)

    def _iter_flat(self) -> Iterator[list[np.ndarray]]:
        p = self._params
        if self._input._composite:
            return _iter_rebatch_rows(self._input, p["batch_sizes"], p["drop_remainder"])
        shapes = [_shape_list(s.shape) for s in self._flat_specs]
        np_dtypes = [object if s.dtype is dtypes.string else s.dtype.np for s in self._flat_specs]
        return iter_rebatch_v2(self._input._iter_flat(), p["batch_sizes"], p["drop_remainder"],
                                        shapes, np_dtypes)

    def _card(self) -> int:
        return UNKNOWN_CARDINALITY


class _LegacyRebatchDataset(_UnaryDataset):
    """Legacy RebatchDataset: every input batch split into `num_replicas` pieces (ceil-sized, maybe empty)."""

    _KIND = "RebatchDataset"

    def __init__(self, input_dataset: DatasetV2, num_replicas: int, element_spec: Any = None) -> None:
        if element_spec is None:
            shapes = [_shape_list(s.shape) for s in flatten(input_dataset.element_spec)]
            check_rebatch_rank(shapes, legacy=True)
            element_spec = map_structure(
                lambda s: s if s.shape.rank is None
                else s._unbatch()._batch(legacy_rebatch_dim(s.shape[0], num_replicas)),
                input_dataset.element_spec)
        super().__init__((input_dataset,), {"num_replicas": num_replicas}, element_spec)

    def _iter_flat(self) -> Iterator[list[np.ndarray]]:
        if self._input._composite:
            return _iter_legacy_rows(self._input, self._params["num_replicas"])
        return iter_legacy_rebatch(self._input._iter_flat(), self._params["num_replicas"])

    def _card(self) -> int:
        return UNKNOWN_CARDINALITY
