"""`tf.RaggedTensor`: rows of different lengths as `values` (a tensor, or a RaggedTensor for more
ragged dimensions) cut by `row_splits` (int64 unless int32 is asked for: row i is
values[row_splits[i]:row_splits[i+1]]), TF's encoding (ragged_tensor.py). Its constructors from
every row-partition encoding (checked as TF's RowPartition checks them: ragged_partition.py), its
accessors (values, row_splits, flat_values, nested_row_splits, row_lengths, value_rowids,
row_starts/limits, uniform_row_length, bounding_shape, merge_dims, to_sparse, to_tensor, to_list,
numpy, with_values, with_flat_values, with_row_splits_dtype), `tf.ragged.constant` and
`tf.ragged.map_flat_values`. Ops on RaggedTensor arguments: simdist/runtime/ops/ragged_*.py.
Equality is by to_list in tests. Clauses ops.strings-ragged, ops.ragged."""

from __future__ import annotations

from typing import Any, Sequence

import numpy as np

from simdist.runtime import dtypes, errors
from simdist.runtime import ragged_partition as _rp
from simdist.runtime.symbolic import DEPTH as _SYM_DEPTH
from simdist.runtime.tensor import Tensor, TensorShape, convert_to_tensor, user_reads

__all__ = ["RaggedTensor", "RaggedTensorSpec", "constant", "is_ragged", "map_flat_values"]


def is_ragged(x: Any) -> bool:
    return isinstance(x, RaggedTensor)


class RaggedTensor:
    """Rows of `values` cut at `row_splits` (see the module docstring for what it supports)."""

    __slots__ = ("_values", "_row_splits", "_uniform", "__weakref__")

    def __init__(self, values: Any, row_splits: Tensor, internal: bool = False, uniform: int | None = None) -> None:
        if not internal:
            raise ValueError("RaggedTensor constructor is private; please use one of the factory methods instead "
                             "(e.g., RaggedTensor.from_row_lengths())")
        self._values = values
        self._row_splits = row_splits
        self._uniform = uniform      # every row's length, for a dimension made from a dense one (TF's
        # uniform_row_length: the shape shows it instead of None)

    # --- factories (TF's RowPartition encodings: simdist/runtime/ragged_partition.py) ------------------------------
    @classmethod
    def _from_splits(cls, values: Any, splits: Tensor, validate: bool, name: str | None = None,
                     uniform: int | None = None) -> "RaggedTensor":
        """RaggedTensor._from_row_partition: the values' own partitions must have the same dtype; the
        last split must be the number of values."""
        if isinstance(values, RaggedTensor) and values.row_splits_dtype != splits.dtype:
            raise ValueError("Argument `row_partition` of RaggedTensor with name: partition must have same dtype as "
                             f"Argument `values`. ({splits.dtype} vs. {values.row_splits_dtype}).")
        _rp.check_nvals(splits, _nrows(values), validate)
        return cls(values, splits, internal=True, uniform=uniform)

    @staticmethod
    def _as_values(values: Any) -> Any:
        return values if isinstance(values, (Tensor, RaggedTensor)) else convert_to_tensor(values)

    @staticmethod
    def _hint(values: Any) -> Any:
        return values.row_splits_dtype if isinstance(values, RaggedTensor) else None

    @classmethod
    def from_row_splits(cls, values: Any, row_splits: Any, name: str | None = None,
                        validate: bool = True) -> "RaggedTensor":
        """Rows values[row_splits[i]:row_splits[i+1]] (row_splits: 0 first, nondecreasing, ending at len(values))."""
        vals = cls._as_values(values)
        sp = _rp.splits_from_row_splits(_rp.convert(row_splits, "row_splits", dtype_hint=cls._hint(vals)), validate)
        return cls._from_splits(vals, sp, validate, name)

    @classmethod
    def from_row_lengths(cls, values: Any, row_lengths: Any, name: str | None = None,
                         validate: bool = True) -> "RaggedTensor":
        """Rows of row_lengths[i] values each (nonnegative, summing to len(values))."""
        vals = cls._as_values(values)
        ln = _rp.convert(row_lengths, "row_lengths", dtype_hint=cls._hint(vals))
        return cls._from_splits(vals, _rp.splits_from_row_lengths(ln, validate), validate, name)

    @classmethod
    def from_row_starts(cls, values: Any, row_starts: Any, name: str | None = None,
                        validate: bool = True) -> "RaggedTensor":
        """Row i from row_starts[i] to the next start (the last to the end of values)."""
        vals = cls._as_values(values)
        st = _rp.convert(row_starts, "row_starts", dtype_hint=cls._hint(vals))
        return cls._from_splits(vals, _rp.splits_from_row_starts(st, _nrows(vals), validate), validate, name)

    @classmethod
    def from_row_limits(cls, values: Any, row_limits: Any, name: str | None = None,
                        validate: bool = True) -> "RaggedTensor":
        """Row i from the previous limit (0 for the first) to row_limits[i]."""
        vals = cls._as_values(values)
        lim = _rp.convert(row_limits, "row_limits", dtype_hint=cls._hint(vals))
        return cls._from_splits(vals, _rp.splits_from_row_limits(lim, validate), validate, name)

    @classmethod
    def from_value_rowids(cls, values: Any, value_rowids: Any, nrows: Any = None, name: str | None = None,
                          validate: bool = True) -> "RaggedTensor":
        """values[j] in row value_rowids[j] (sorted rowids; nrows rows, by default the last rowid + 1)."""
        vals = cls._as_values(values)
        ids = _rp.convert(value_rowids, "value_rowids", dtype_hint=cls._hint(vals))
        if not TensorShape([_nrows(vals)]).is_compatible_with(ids.shape):
            raise ValueError(f"Shapes {TensorShape([_nrows(vals)])} and {ids.shape} are incompatible")
        return cls._from_splits(vals, _rp.splits_from_value_rowids(ids, nrows, validate), validate, name)

    @classmethod
    def from_uniform_row_length(cls, values: Any, uniform_row_length: Any, nrows: Any = None,
                                validate: bool = True, name: str | None = None) -> "RaggedTensor":
        """Rows of uniform_row_length values each: a uniform dimension (the shape keeps its size)."""
        vals = cls._as_values(values)
        ln = _rp.convert(uniform_row_length, "uniform_row_length", dtype_hint=cls._hint(vals))
        sp, _ = _rp.splits_from_uniform(ln, _nrows(vals), nrows, validate)
        return cls._from_splits(vals, sp, validate, name, uniform=int(ln._v))

    @classmethod
    def from_nested_row_splits(cls, flat_values: Any, nested_row_splits: Sequence[Any], name: str | None = None,
                               validate: bool = True) -> "RaggedTensor":
        if isinstance(nested_row_splits, Tensor):
            raise ValueError("Argument `nested_row_splits` must be a list of Tensors. Received "
                             f"{nested_row_splits}.")
        result = flat_values
        for sp in reversed(list(nested_row_splits)):
            result = cls.from_row_splits(result, sp, validate=validate)
        return result

    @classmethod
    def from_nested_row_lengths(cls, flat_values: Any, nested_row_lengths: Sequence[Any], name: str | None = None,
                                validate: bool = True) -> "RaggedTensor":
        if isinstance(nested_row_lengths, Tensor):
            raise ValueError("Argument `nested_row_lengths` must be a list of Tensors. Received "
                             f"{nested_row_lengths}.")
        result = flat_values
        for ln in reversed(list(nested_row_lengths)):
            result = cls.from_row_lengths(result, ln, validate=validate)
        return result

    @classmethod
    def from_nested_value_rowids(cls, flat_values: Any, nested_value_rowids: Sequence[Any],
                                 nested_nrows: Sequence[Any] | None = None, name: str | None = None,
                                 validate: bool = True) -> "RaggedTensor":
        if isinstance(nested_value_rowids, Tensor):
            raise ValueError("Argument `nested_value_rowids` must be a list of Tensors. Received "
                             f"{nested_value_rowids}.")
        ids = list(nested_value_rowids)
        if nested_nrows is None:
            nrows: list[Any] = [None] * len(ids)
        else:
            if isinstance(nested_nrows, Tensor):
                raise ValueError("Argument `nested_nrows` must be a list of Tensors. Received "
                                 f"{nested_nrows}.")
            nrows = list(nested_nrows)
            if len(nrows) != len(ids):
                raise ValueError("Argument `nested_nrows` must have the same length as argument "
                                 f"`nested_value_rowids`. len(nested_nrows) = {len(nrows)} vs. "
                                 f"len(nested_values_rowids) = {len(ids)}.")
        result = flat_values
        for r, n in reversed(list(zip(ids, nrows))):
            result = cls.from_value_rowids(result, r, n, validate=validate)
        return result

    @classmethod
    def from_sparse(cls, st_input: Any, name: str | None = None,
                    row_splits_dtype: Any = dtypes.int64) -> "RaggedTensor":
        """A 2-D SparseTensor whose entries are packed left in each row, in row-major order: its
        values, rows by the first index column (TF's "right-ragged" check)."""
        from simdist.runtime.sparse_tensor import SparseTensor
        if not isinstance(st_input, SparseTensor):
            raise TypeError(f"Expected SparseTensor, got {type(st_input).__name__}")
        if st_input.indices.shape[1] is not None and int(st_input.indices.shape[1]) != 2:
            raise ValueError("rank(st_input) must be 2.")
        ind = st_input.indices._v
        ok = all(ind[k, 1] == (ind[k - 1, 1] + 1 if k and ind[k - 1, 0] == ind[k, 0] else 0) for k in range(len(ind)))
        if not ok:
            from simdist.runtime import errors as _e
            shown = ", ".join(str(int(v)) for v in ind.reshape(-1)[:3])
            raise _e.InvalidArgumentError(None, None, "Expected 'tf.Tensor(False, shape=(), dtype=bool)' to be true. "
                                          "Summarized data: b'SparseTensor is not right-ragged'\n"
                                          f"b'SparseTensor.indices ='\n{shown}, ...")
        dt = dtypes.as_dtype(row_splits_dtype)
        n = int(st_input.dense_shape._v[0])
        lengths = np.bincount(ind[:, 0].astype(np.int64), minlength=n)[:n] if len(ind) else np.zeros(n, np.int64)
        sp = _rp.as_splits_tensor(np.concatenate([[0], np.cumsum(lengths)]), dt)
        return cls(st_input.values, sp, internal=True)

    @classmethod
    def from_tensor(cls, tensor: Any, lengths: Any = None, padding: Any = None, ragged_rank: int = 1,
                    name: str | None = None, row_splits_dtype: Any = dtypes.int64) -> "RaggedTensor":
        """Each row of `tensor` whole, `ragged_rank` leading dimensions made uniform row partitions (TF
        2.21's from_uniform_row_length: the shape keeps their sizes, uniform_row_length is set); with
        `lengths` (ragged_rank 1) each row cut to its length, with `padding` the trailing values equal
        to it cut off (TF's from_tensor)."""
        from simdist.runtime.ops import array as _array
        t = tensor if isinstance(tensor, Tensor) else convert_to_tensor(tensor)
        dt = dtypes.as_dtype(row_splits_dtype)
        shape = tuple(t.shape.as_list())
        if lengths is not None and padding is not None:
            raise ValueError("Specify argument `lengths` or `padding`, but not both.")
        if not isinstance(ragged_rank, int):
            raise TypeError(f"Argument `ragged_rank` must be an int. Received {ragged_rank}.")
        if not 0 < ragged_rank < len(shape):
            raise ValueError(f"ragged_rank must be greater than 0 and less than tensor.shape.rank; got {ragged_rank}")
        if lengths is not None or padding is not None:
            if ragged_rank != 1:
                raise NotImplementedError("simdist's RaggedTensor.from_tensor takes lengths or padding with "
                                          "ragged_rank=1 only")
            nrows, ncols = shape[0], shape[1]
            if lengths is not None:
                ln = np.minimum(np.asarray(lengths._v if isinstance(lengths, Tensor) else lengths, np.int64), ncols)
            else:
                pad = np.asarray(padding._v if isinstance(padding, Tensor) else padding)
                if not TensorShape(list(pad.shape)).is_compatible_with(TensorShape(list(shape[2:]))):
                    raise ValueError(f"Shapes {TensorShape(list(pad.shape))} and {TensorShape(list(shape[2:]))} are "
                                     "incompatible")
                # (ragged_tensor.from_tensor's NotEqual kernel: under DAZ a subnormal equals a zero padding, so
                # [[1e-40, 0.0]] with padding 0.0 is an empty row; NumPy's != kept it; fz49b, fz49b_gen 49007 #18)
                from simdist.runtime.ops import math as _math
                nondefault = np.asarray(_math.not_equal(t, convert_to_tensor(pad, dtype=t.dtype))._v)
                if nondefault.ndim > 2:
                    nondefault = nondefault.reshape(nrows, ncols, -1).any(axis=2)
                ln = np.array([(np.nonzero(row)[0].max() + 1) if row.any() else 0 for row in nondefault], np.int64) \
                    if nrows else np.zeros(0, np.int64)
            keep = (np.arange(ncols)[None, :] < ln[:, None]).reshape(-1)
            flat = _array.reshape(t, [-1] + list(shape[2:]))
            vals = _array.gather(flat, convert_to_tensor(np.nonzero(keep)[0].astype(np.int64)))
            sp = _rp.as_splits_tensor(np.concatenate([[0], np.cumsum(ln)]), dt)
            return cls(vals, sp, internal=True)
        flat = _array.reshape(t, [-1] + list(shape[ragged_rank + 1:]))
        rt = cls.from_uniform(flat, shape[ragged_rank], ragged=False, dtype=dt)
        for d in range(ragged_rank - 1, 0, -1):
            rt = cls.from_uniform(rt, shape[d], ragged=False, dtype=dt)
        return rt

    @classmethod
    def from_uniform(cls, values: Any, length: int, ragged: bool = True,
                     dtype: dtypes.DType = dtypes.int64) -> "RaggedTensor":
        """Rows of `length` values each (the last cut of from_tensor is a ragged dimension, the
        ones above it uniform: TF's from_tensor keeps their sizes in the shape)."""
        n = _nrows(values) // length if length else 0
        splits = _rp.as_splits_tensor(np.arange(n + 1) * length, dtype)
        return cls(values, splits, internal=True, uniform=None if ragged else length)

    # --- structure ------------------------------------------------------------------------------------------------
    @property
    def values(self) -> Any:
        return self._values

    @property
    def row_splits(self) -> Tensor:
        return self._row_splits

    @property
    def flat_values(self) -> Tensor:
        v = self._values
        while isinstance(v, RaggedTensor):
            v = v._values
        return v

    @property
    def nested_row_splits(self) -> tuple[Tensor, ...]:
        out = [self._row_splits]
        v = self._values
        while isinstance(v, RaggedTensor):
            out.append(v._row_splits)
            v = v._values
        return tuple(out)

    @property
    def ragged_rank(self) -> int:
        return len(self.nested_row_splits)

    @property
    def dtype(self) -> dtypes.DType:
        return self.flat_values.dtype

    @property
    def row_splits_dtype(self) -> dtypes.DType:
        return self._row_splits.dtype

    @property
    def shape(self) -> TensorShape:
        return self._static_shape() if _SYM_DEPTH[0] and user_reads(1) else self._shape_of(False)

    def _static_shape(self) -> TensorShape:
        """The shape user code reads in a traced function: the outermost row splits' static length gives the row
        count (unknown after RaggedGather's: ops/composite_shapes.py)."""
        return self._shape_of(True)

    def _shape_of(self, static: bool) -> TensorShape:
        dims: list[int | None] = [self.nrows_int()]
        if static:
            from simdist.runtime.ops import static_shapes
            n = static_shapes.known_dim(self._row_splits, 0)
            dims[0] = None if n is None else n - 1
        v: Any = self
        while isinstance(v, RaggedTensor):
            dims.append(v._uniform)
            v = v._values
        return TensorShape(dims + self.flat_values.shape.as_list()[1:])

    def get_shape(self) -> TensorShape:
        return self._static_shape() if _SYM_DEPTH[0] and user_reads(1) else self._shape_of(False)

    def nrows_int(self) -> int:
        return int(self._row_splits._v.shape[0]) - 1

    def nrows(self, out_type: Any = None, name: str | None = None) -> Tensor:
        return convert_to_tensor(self.nrows_int(), dtype=out_type or self._row_splits.dtype)

    def row_lengths(self, axis: int = 1, name: str | None = None) -> Any:
        """The lengths of the rows of dimension `axis` (0: nrows; 1: a tensor; deeper: ragged)."""
        if not isinstance(axis, int):
            raise TypeError(f"axis must be an int, got {axis!r}")
        rank = self.shape.rank
        ax = axis + rank if axis < 0 else axis
        if ax == 0:
            return self.nrows()
        if ax == 1:
            s = self._row_splits._v
            return convert_to_tensor(s[1:] - s[:-1], dtype=self._row_splits.dtype)
        if isinstance(self._values, RaggedTensor):
            return self.with_values(self._values.row_lengths(ax - 1))
        from simdist.runtime.ops import array as _array
        inner = self._values.shape.as_list()
        return self.with_values(_array.fill(inner[:ax - 1], convert_to_tensor(inner[ax - 1],
                                                                             dtype=self._row_splits.dtype)))

    def row_starts(self, name: str | None = None) -> Tensor:
        """row_splits[:-1]: where each row starts in values."""
        return convert_to_tensor(self._row_splits._v[:-1], dtype=self._row_splits.dtype)

    def row_limits(self, name: str | None = None) -> Tensor:
        """row_splits[1:]: where each row ends in values."""
        return convert_to_tensor(self._row_splits._v[1:], dtype=self._row_splits.dtype)

    def value_rowids(self, name: str | None = None) -> Tensor:
        """The row of each of values' rows."""
        s = self._row_splits._v
        out = convert_to_tensor(np.repeat(np.arange(len(s) - 1), s[1:] - s[:-1]).astype(s.dtype),
                                dtype=self._row_splits.dtype)
        if _SYM_DEPTH[0]:   # (ragged_util.repeat's result: [?] in a trace, a constant's too; observed on TF 2.21)
            from simdist.runtime.ops import composite_shapes, static_shapes
            static_shapes.mark(composite_shapes.computed(out, self._row_splits), (True,))
        return out

    def nested_row_lengths(self, name: str | None = None) -> tuple[Tensor, ...]:
        out = []
        v: Any = self
        while isinstance(v, RaggedTensor):
            out.append(v.row_lengths())
            v = v._values
        return tuple(out)

    def nested_value_rowids(self, name: str | None = None) -> tuple[Tensor, ...]:
        out = []
        v: Any = self
        while isinstance(v, RaggedTensor):
            out.append(v.value_rowids())
            v = v._values
        return tuple(out)

    @property
    def uniform_row_length(self) -> Tensor | None:
        """Every row's length when the rows of this dimension are uniform (from_uniform_row_length,
        from_tensor's outer dimensions), else None."""
        return None if self._uniform is None else convert_to_tensor(self._uniform, dtype=self._row_splits.dtype)

    def bounding_shape(self, axis: Any = None, name: str | None = None, out_type: Any = None) -> Tensor:
        """The smallest dense shape holding every row: nrows, the longest row of each ragged
        dimension, flat_values' inner dimensions (`axis`: those entries)."""
        dt = dtypes.as_dtype(out_type) if out_type is not None else self._row_splits.dtype
        dims = [self.nrows_int()]
        v: Any = self
        while isinstance(v, RaggedTensor):
            s = v._row_splits._v
            dims.append(int((s[1:] - s[:-1]).max()) if len(s) > 1 else 0)
            v = v._values
        dims += [int(d) for d in v._v.shape[1:]]
        out = np.asarray(dims, dt.as_numpy_dtype)
        if axis is not None:
            out = out[np.asarray(axis._v if isinstance(axis, Tensor) else axis)]
        return convert_to_tensor(out, dtype=dt)

    def merge_dims(self, outer_axis: int, inner_axis: int) -> Any:
        """Dimensions outer_axis..inner_axis merged into one (0..last: the flat values as a 1-D
        tensor of the rows' values; TF's merge_dims)."""
        rank = self.shape.rank
        if not isinstance(outer_axis, int) or not isinstance(inner_axis, int):
            raise TypeError("outer_axis and inner_axis must be ints")
        o = outer_axis + rank if outer_axis < 0 else outer_axis
        i = inner_axis + rank if inner_axis < 0 else inner_axis
        if not 0 <= o < rank:
            raise ValueError(f"outer_axis={outer_axis} out of bounds for a tensor of rank {rank}")
        if not 0 <= i < rank:
            raise ValueError(f"inner_axis={inner_axis} out of bounds for a tensor of rank {rank}")
        if o > i:
            raise ValueError(f"Expected outer_axis ({outer_axis}) to be less than or equal to inner_axis "
                             f"({inner_axis}).")
        return merge_dims(self, o, i)

    def to_sparse(self, name: str | None = None) -> Any:
        """A SparseTensor of the values at their [row, column, ...] indices, dense_shape the
        bounding shape."""
        from simdist.runtime.sparse_tensor import SparseTensor
        idx = _ragged_indices(self)
        flat = self.flat_values
        inner = flat._v.shape[1:]
        if inner:
            grid = np.indices(inner).reshape(len(inner), -1).T
            idx = np.concatenate([np.repeat(idx, len(grid), axis=0), np.tile(grid, (len(idx), 1))], axis=1)
            from simdist.runtime.ops import array as _array
            flat = _array.reshape(flat, [-1])
        from simdist.runtime.ops import composite_shapes   # (RaggedTensorToSparse's outputs: ops.ragged)
        shape = composite_shapes.computed(self.bounding_shape(out_type=dtypes.int64), self.flat_values,
                                          *self.nested_row_splits)
        return SparseTensor(convert_to_tensor(idx.astype(np.int64).reshape(-1, self.shape.rank), dtype=dtypes.int64),
                            flat, shape)

    def with_row_splits_dtype(self, dtype: Any) -> "RaggedTensor":
        """The same rows, every partition in `dtype` (int32 or int64)."""
        dt = dtypes.as_dtype(dtype)
        if dt not in (dtypes.int32, dtypes.int64):
            raise ValueError(f"dtype must be int32 or int64; got {dt}")
        if dt == self._row_splits.dtype:
            return self
        vals = self._values.with_row_splits_dtype(dt) if isinstance(self._values, RaggedTensor) else self._values
        return RaggedTensor(vals, _rp.as_splits_tensor(self._row_splits._v, dt), internal=True,
                            uniform=self._uniform)

    def with_values(self, new_values: Any) -> "RaggedTensor":
        """The same outer partition over `new_values` (as many rows as values has)."""
        nv = new_values if isinstance(new_values, (Tensor, RaggedTensor)) else convert_to_tensor(new_values)
        if nv.shape.rank == 0:
            raise ValueError(f"Shape {nv.shape} must have rank at least 1")
        want = TensorShape([_nrows(self._values)])
        if not want.is_compatible_with(TensorShape([_nrows(nv)])):
            raise ValueError(f"Shapes {want} and {TensorShape([_nrows(nv)])} are incompatible")
        if isinstance(nv, RaggedTensor) and nv.row_splits_dtype != self.row_splits_dtype:
            raise ValueError("self and new_values have mismatched row_splits dtypes; use "
                             "RaggedTensor.with_row_splits_dtype() to convert them to compatible dtypes.")
        return RaggedTensor(nv, self._row_splits, internal=True, uniform=self._uniform)

    def consumers(self) -> list:
        """The ops that use this value (an eager value has none: [])."""
        return []

    def with_flat_values(self, new_values: Any) -> "RaggedTensor":
        if isinstance(self._values, RaggedTensor):
            return RaggedTensor(self._values.with_flat_values(new_values), self._row_splits, internal=True,
                                uniform=self._uniform)
        return RaggedTensor(new_values, self._row_splits, internal=True, uniform=self._uniform)

    # --- values -----------------------------------------------------------------------------------------------------
    def to_list(self) -> list:
        """The rows as nested Python lists (values as NumPy's tolist gives them: bytes for strings)."""
        vals = self._values.to_list() if isinstance(self._values, RaggedTensor) else self._values._v.tolist()
        s = self._row_splits._v.tolist()
        return [vals[a:b] for a, b in zip(s, s[1:])]

    def numpy(self) -> np.ndarray:
        """TF's RaggedTensor.numpy: an array of rows, of dtype object when their lengths differ."""
        values = self._values.numpy() if isinstance(self._values, RaggedTensor) else self._values._v
        s = self._row_splits._v.tolist()
        rows = [values[a:b] for a, b in zip(s, s[1:])]
        if not rows:
            return np.zeros((0, 0) + values.shape[1:], dtype=values.dtype)
        if any(len(r) != len(rows[0]) for r in rows):
            out = np.empty(len(rows), dtype=object)
            for i, r in enumerate(rows):
                out[i] = r
            return out
        return np.array(rows)

    def to_tensor(self, default_value: Any = None, name: str | None = None, shape: Any = None) -> Tensor:
        """The rows padded with `default_value` (0, False or b"") to the longest, a dense tensor;
        with `shape`, each dimension given (not None) is that size instead: rows longer are cut,
        shorter ones padded (TF's RaggedTensorToTensor; Keras's TextVectorization pads and cuts to
        output_sequence_length this way). In a traced function its static shape is the shape function's:
        the static row count and inner dimensions, the ragged dimensions unknown unless `shape` gives them."""
        out = self._to_tensor(default_value, shape)
        from simdist.runtime.ops import composite_shapes
        if composite_shapes.in_trace():
            composite_shapes.ragged_to_tensor(self, shape, out)
        return out

    def _to_tensor(self, default_value: Any, shape: Any) -> Tensor:
        flat = self.flat_values
        inner = tuple(flat.shape.as_list()[1:])
        fill = default_value if default_value is not None else (b"" if flat.dtype == dtypes.string else 0)
        depth = self.ragged_rank + 1
        dims = _dense_dims(self.to_list(), depth)
        if shape is not None:
            want = shape.as_list() if isinstance(shape, TensorShape) else list(shape)
            if len(want) != depth + len(inner):
                if _SYM_DEPTH[0]:   # (the shape function's ValueError at trace)
                    raise ValueError(f"Shapes {TensorShape(want)} and {self.shape} are incompatible")
                # (eagerly the kernel's check; TF 2.21 observed, fz55b_gen seed 56203 #198)
                text = ",".join("?" if w is None else str(int(w)) for w in want)
                raise errors.InvalidArgumentError(None, None, f"rt_input.shape and shape=[{text}] are incompatible: "
                                                  f"rt_input.rank = {depth + len(inner)} but shape.rank = {len(want)} "
                                                  "[Op:RaggedTensorToTensor]")
            dims = [d if w is None else int(w) for d, w in zip(dims, want)]
            for w, have in zip(want[depth:], inner):
                if w is not None and int(w) != have:
                    raise errors.InvalidArgumentError(None, None, "The inner " + str(len(inner)) + " dimensions of "
                                                      "output.shape=" + str(want) + " must match the inner "
                                                      f"{len(inner)} dimensions of flat_values.shape={list(inner)}")
        fill_arr = np.asarray(fill._v if isinstance(fill, Tensor) else fill)
        if fill_arr.ndim and inner and fill_arr.shape[-1] not in (1, inner[-1]):
            d_shape, f_shape = ",".join(map(str, fill_arr.shape)), ",".join(map(str, flat._v.shape))
            raise errors.InvalidArgumentError(None, None, f"default_value.shape=[{d_shape}] and "
                                              f"rt_input.flat_values.shape=[{f_shape}] are incompatible: "
                                              f"default_value.shape[-1] = {fill_arr.shape[-1]} but "
                                              f"rt_input.flat_values.shape[-1] = {inner[-1]} [Op:RaggedTensorToTensor]")
        if flat.dtype.is_floating or flat.dtype.is_complex:
            # (through ops, so a tape differentiates the flat values as RaggedTensorToTensor's gradient does)
            from simdist.runtime.ops import array as _array, scatter as _scatter
            idx = _ragged_indices(self)
            keep = np.nonzero((idx < np.asarray(dims[:depth])).all(axis=1))[0] if len(idx) else np.zeros(0, np.int64)
            base = convert_to_tensor(np.broadcast_to(fill_arr.astype(flat._v.dtype), tuple(dims) + inner).copy(),
                                     dtype=flat.dtype)
            vals = flat if len(keep) == len(idx) else _array.gather(flat, convert_to_tensor(keep.astype(np.int64)))
            return _scatter.tensor_scatter_nd_update(base, convert_to_tensor(idx[keep].astype(np.int64).reshape(
                -1, depth)), vals)
        out = np.full(tuple(dims) + inner, fill_arr, dtype=flat._v.dtype)
        _fill(out, self.to_list(), depth)
        return convert_to_tensor(out, dtype=flat.dtype)

    def __repr__(self) -> str:
        """TF's eager repr: the rows as NumPy prints numpy()'s array (one line per row of a
        uniform array), "<tf.RaggedTensor [[1, 2], [3]]>"."""
        with np.printoptions(formatter={"all": _formatter}):
            return f"<tf.RaggedTensor {_formatter(self.numpy())}>"

    def __str__(self) -> str:
        return self.__repr__()

    def __bool__(self) -> bool:
        raise TypeError("RaggedTensor may not be used as a boolean.")


def _formatter(x: Any) -> str:
    """ragged_tensor._formatter: an array through array2string, an empty one as its list."""
    if isinstance(x, np.ndarray):
        return np.array2string(x, separator=", ") if x.size != 0 else repr(x.tolist())
    return str(x)


def _nrows(v: Any) -> int:
    return v.nrows_int() if isinstance(v, RaggedTensor) else int(v._v.shape[0]) if v._v.ndim else 0


def merge_dims(value: Any, outer_axis: int, inner_axis: int) -> Any:
    """ragged_tensor.merge_dims: value[outer_axis..inner_axis] as one dimension (value dense or
    ragged; the axes already checked)."""
    from simdist.runtime.ops import array as _array
    if outer_axis == inner_axis:
        return value
    while outer_axis == 0 and isinstance(value, RaggedTensor):
        value = value.values
        inner_axis -= 1
        if inner_axis == 0:
            return value
    if not isinstance(value, RaggedTensor):
        old = value.shape.as_list()
        return _array.reshape(value, old[:outer_axis] + [-1] + old[inner_axis + 1:])
    if outer_axis > 1:
        return value.with_values(merge_dims(value.values, outer_axis - 1, inner_axis - 1))
    new_values, new_splits = value.values, value.row_splits._v
    for axis in range(outer_axis, inner_axis):
        if isinstance(new_values, RaggedTensor):
            new_splits = new_values.row_splits._v[new_splits]
            new_values = new_values.values
        else:
            cut = inner_axis - axis + 1
            old = new_values.shape.as_list()
            new_values = _array.reshape(new_values, [-1] + old[cut:])
            new_splits = new_splits * int(np.prod(old[1:cut]))
            break
    return RaggedTensor.from_row_splits(new_values, _rp.as_splits_tensor(new_splits, value.row_splits_dtype))


def _ragged_indices(rt: "RaggedTensor") -> np.ndarray:
    """The [row, col, ...] index of each flat value (ragged dimensions only)."""
    s = rt._row_splits._v
    rows = np.repeat(np.arange(len(s) - 1), s[1:] - s[:-1])
    cols = np.arange(int(s[-1])) - np.repeat(s[:-1], s[1:] - s[:-1]) if len(s) else np.zeros(0, np.int64)
    top = np.stack([rows, cols], axis=1).astype(np.int64) if len(rows) else np.zeros((0, 2), np.int64)
    if isinstance(rt._values, RaggedTensor):
        inner = _ragged_indices(rt._values)
        # (each flat value's row of rt._values is its inner index's first entry, at any depth: a ragged_rank-3
        # tensor's flat values are not the values' rows; fz55b)
        owner = inner[:, 0]
        return np.concatenate([top[owner].reshape(-1, top.shape[1]), inner[:, 1:]], axis=1)
    return top


def _dense_dims(rows: list, depth: int) -> list[int]:
    dims = [len(rows)] + [0] * (depth - 1)

    def walk(x: list, d: int) -> None:
        for r in x:
            if d < depth:
                dims[d] = max(dims[d], len(r))
                if d + 1 < depth:
                    walk(r, d + 1)
    walk(rows, 1)
    return dims


def _fill(out: np.ndarray, rows: list, depth: int) -> None:
    """Rows into `out` (rows and values beyond its dimensions cut off)."""
    for i, r in enumerate(rows[:out.shape[0]]):
        if depth > 2:
            _fill(out[i], r, depth - 1)
        elif len(r):
            r = r[:out.shape[1]]
            out[i, :len(r)] = np.asarray(r, dtype=out.dtype).reshape((len(r),) + out.shape[2:])


def _leaves_and_splits(pylist: Any, depth: int, splits: list[list[int]], leaves: list) -> None:
    for row in pylist:
        if depth == 0:
            leaves.append(row)
        else:
            if not isinstance(row, (list, tuple, np.ndarray)):
                raise ValueError("all scalar values must have the same nesting depth")
            splits[len(splits) - depth].append(splits[len(splits) - depth][-1] + len(row))
            _leaves_and_splits(row, depth - 1, splits, leaves)


def _depth(x: Any) -> int:
    d = 0
    while isinstance(x, (list, tuple, np.ndarray)):
        if not len(x):
            return d + 1
        x = x[0]
        d += 1
    return d


def constant(pylist: Any, dtype: Any = None, ragged_rank: int | None = None, inner_shape: Any = None,
             name: str | None = None, row_splits_dtype: Any = dtypes.int64) -> Any:
    """`tf.ragged.constant`: nested Python lists of any row lengths as a RaggedTensor (ragged_rank:
    every level but the innermost scalars and `inner_shape`'s dimensions, unless given; 0: a dense
    tensor). Leaves at another depth: ValueError "all scalar values must have the same nesting
    depth"; inner values of different shapes: "inner values have inconsistent shape"."""
    inner = tuple(int(d) for d in inner_shape) if inner_shape is not None else None
    depth = _depth(pylist)
    rank = max(0, depth - 1 - len(inner or ())) if ragged_rank is None else int(ragged_rank)
    if depth == 0 or rank == 0:
        return convert_to_tensor(pylist, dtype=dtype)
    splits: list[list[int]] = [[0] for _ in range(rank)]
    leaves: list = []
    _leaves_and_splits([pylist], rank + 1, [[0]] + splits, leaves)
    shapes = [np.shape(v) for v in leaves]
    if any(sh != shapes[0] for sh in shapes):
        if ragged_rank is None and inner is None:
            raise ValueError("all scalar values must have the same nesting depth")
        raise ValueError("inner values have inconsistent shape")
    if inner is not None and leaves and shapes[0] != inner:
        raise ValueError(f"Too many elements provided. Needed at most {int(np.prod(inner))}, but received "
                         f"{int(np.prod(shapes[0]))}" if np.prod(shapes[0]) > np.prod(inner) else
                         "inner values have inconsistent shape")
    empty = np.zeros((0,) + (inner or ()), np.float32)
    flat = convert_to_tensor(leaves if leaves else empty, dtype=dtype)
    rsd = dtypes.as_dtype(row_splits_dtype)
    return RaggedTensor.from_nested_row_splits(flat, [_rp.as_splits_tensor(np.asarray(s), rsd) for s in splits],
                                               validate=False)


class RaggedTensorSpec:
    """`tf.RaggedTensorSpec(shape, dtype, ragged_rank, row_splits_dtype)`: the type of a RaggedTensor
    (a ragged_rank of 0 types a dense tensor, as TF's does), for tf.data elements (clause
    dataset.ragged-batch)."""

    __slots__ = ("shape", "dtype", "ragged_rank", "row_splits_dtype")

    def __init__(self, shape: Any = None, dtype: Any = dtypes.float32, ragged_rank: int | None = None,
                 row_splits_dtype: Any = dtypes.int64) -> None:
        self.shape = shape if isinstance(shape, TensorShape) else TensorShape(shape)
        self.dtype = dtypes.as_dtype(dtype)
        self.row_splits_dtype = dtypes.as_dtype(row_splits_dtype)
        rank = self.shape.rank
        if ragged_rank is None:
            if rank is None:
                raise ValueError("Must specify ragged_rank or a shape with a known rank.")
            ragged_rank = rank - 1
        if rank is not None and not 0 <= ragged_rank < max(rank, 1):
            raise ValueError(f"ragged_rank must be less than rank ({rank}), got {ragged_rank}")
        self.ragged_rank = int(ragged_rank)

    @classmethod
    def from_value(cls, value: Any) -> "RaggedTensorSpec":
        return cls(value.shape, value.dtype, value.ragged_rank, value.row_splits_dtype)

    @property
    def value_type(self) -> type:
        return RaggedTensor

    @property
    def flat_values_spec(self) -> None:
        """The flat values' spec when one was given (simdist: never: None, TF's default)."""
        return None

    def is_compatible_with(self, spec_or_value: Any) -> bool:
        """Whether a RaggedTensor or RaggedTensorSpec fits: same dtype, ragged_rank, row_splits
        dtype, a compatible shape (a dense tensor: False)."""
        other = RaggedTensorSpec.from_value(spec_or_value) if isinstance(spec_or_value, RaggedTensor) \
            else spec_or_value
        if not isinstance(other, RaggedTensorSpec):
            return False
        return (other.dtype, other.ragged_rank, other.row_splits_dtype) == \
            (self.dtype, self.ragged_rank, self.row_splits_dtype) and self.shape.is_compatible_with(other.shape)

    def is_subtype_of(self, other: Any) -> bool:
        """Whether `other` is as specific or less (its known dimensions are this one's)."""
        if not isinstance(other, RaggedTensorSpec) or (other.dtype, other.ragged_rank, other.row_splits_dtype) != \
                (self.dtype, self.ragged_rank, self.row_splits_dtype):
            return False
        if other.shape.rank is None:
            return True
        if self.shape.rank != other.shape.rank:
            return False
        return all(b is None or a == b for a, b in zip(self.shape.as_list(), other.shape.as_list()))

    def most_specific_common_supertype(self, others: Any) -> "RaggedTensorSpec | None":
        """The spec every one of them is a subtype of (dimensions that differ unknown), or None."""
        dims = self.shape.as_list() if self.shape.rank is not None else None
        for o in others:
            if not isinstance(o, RaggedTensorSpec) or (o.dtype, o.ragged_rank, o.row_splits_dtype) != \
                    (self.dtype, self.ragged_rank, self.row_splits_dtype):
                return None
            od = o.shape.as_list() if o.shape.rank is not None else None
            dims = None if dims is None or od is None or len(od) != len(dims) else \
                [a if a == b else None for a, b in zip(dims, od)]
        return RaggedTensorSpec(dims, self.dtype, self.ragged_rank, self.row_splits_dtype)

    def to_tensors(self, value: Any) -> list:
        """The value's component tensors: flat_values, then each nested row_splits."""
        return [value.flat_values] + list(value.nested_row_splits)

    def from_tensors(self, tensors: Any) -> "RaggedTensor":
        """A RaggedTensor from an iterator of its components (to_tensors' order)."""
        flat = next(tensors)
        return RaggedTensor.from_nested_row_splits(flat, [next(tensors) for _ in range(self.ragged_rank)],
                                                   validate=False)

    def _batch(self, batch_size: int | None) -> "RaggedTensorSpec":
        return RaggedTensorSpec(TensorShape([batch_size]).concatenate(self.shape), self.dtype, self.ragged_rank + 1,
                                self.row_splits_dtype)

    def _unbatch(self) -> "RaggedTensorSpec":
        if self.shape.rank == 0:
            raise ValueError("Slicing dataset elements is not supported for rank 0.")
        return RaggedTensorSpec(self.shape[1:] if self.shape.rank is not None else None, self.dtype,
                                max(self.ragged_rank - 1, 0), self.row_splits_dtype)

    def __eq__(self, other: Any) -> bool:
        return isinstance(other, RaggedTensorSpec) and (other.shape, other.dtype, other.ragged_rank,
                                                        other.row_splits_dtype) == \
            (self.shape, self.dtype, self.ragged_rank, self.row_splits_dtype)

    def __hash__(self) -> int:
        return hash((self.shape, self.dtype, self.ragged_rank, self.row_splits_dtype))

    def __repr__(self) -> str:
        dims = self.shape.as_list() if self.shape.rank is not None else None
        return f"RaggedTensorSpec(TensorShape({dims}), tf.{self.dtype.name}, {self.ragged_rank}, " \
               f"tf.{self.row_splits_dtype.name})"


def map_flat_values(op: Any, *args: Any, **kwargs: Any) -> Any:
    """`tf.ragged.map_flat_values(op, *args, **kwargs)`: `op` applied to the flat_values of the
    RaggedTensor arguments (others passed as they are), the result given their row partitions
    (TF's ragged_functional_ops: the ragged arguments must share them; the result must keep the
    flat_values' row count)."""
    ragged = [a for a in list(args) + list(kwargs.values()) if isinstance(a, RaggedTensor)]
    if not ragged:
        return op(*args, **kwargs)
    splits = [[s._v.tolist() for s in r.nested_row_splits] for r in ragged]
    if any(s != splits[0] for s in splits[1:]):
        raise errors.InvalidArgumentError(None, None, "Input RaggedTensors have mismatched row partitions.")
    nrows = {_nrows(r.flat_values) for r in ragged}
    if len(nrows) != 1:
        raise ValueError(f"Input RaggedTensors' flat_values must all have the same outer-dimension size.  Got sizes: "
                         f"{nrows}")
    flat = op(*[a.flat_values if isinstance(a, RaggedTensor) else a for a in args],
              **{k: v.flat_values if isinstance(v, RaggedTensor) else v for k, v in kwargs.items()})
    flat = flat if isinstance(flat, Tensor) else convert_to_tensor(flat)
    if _nrows(flat) != nrows.pop():
        raise ValueError("tf.ragged.map_flat_values requires that the output of `op` have the same outer-dimension "
                         "size as flat_values of any ragged inputs. (output shape: "
                         f"{flat.shape}; expected outer dimension size: {_nrows(ragged[0].flat_values)})")
    return ragged[0].with_flat_values(flat)
