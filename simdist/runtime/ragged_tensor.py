"""`tf.RaggedTensor`, minimal: rows of different lengths as `values` (a tensor, or a RaggedTensor
for more ragged dimensions) cut by `row_splits` (int64: row i is values[row_splits[i]:
row_splits[i+1]]), TF's encoding (ragged_tensor.py). What it has: from_row_splits (validated as
TF validates), from_row_lengths, from_nested_row_splits, from_tensor (uniform rows: their sizes
kept in the shape, as TF's uniform_row_length keeps them), values,
row_splits, flat_values, nested_row_splits, row_lengths, nrows, ragged_rank, dtype, shape (the
ragged dimensions None), to_list, to_tensor (padded with default_value; with `shape`, cut and
padded to it), numpy (TF's: an object array of row arrays when the rows differ in length),
with_flat_values, `tf.ragged.constant` and `tf.ragged.map_flat_values`.
What it has not: indexing, arithmetic and the ragged dispatch of TF's ops (tf.add, tf.concat, ... on
a RaggedTensor), row_starts/value_rowids, the uniform_row_length property, a TypeSpec: a tf.function or
strategy.run cannot take or return one (return its flat_values and row_splits), no gradients.
Equality is by to_list in tests. Clause ops.strings-ragged."""

from __future__ import annotations

from typing import Any, Sequence

import numpy as np

from simdist.runtime import dtypes, errors
from simdist.runtime.tensor import Tensor, TensorShape, convert_to_tensor

__all__ = ["RaggedTensor", "RaggedTensorSpec", "constant", "is_ragged", "map_flat_values"]


def is_ragged(x: Any) -> bool:
    return isinstance(x, RaggedTensor)


def _splits(row_splits: Any) -> Tensor:
    t = row_splits if isinstance(row_splits, Tensor) else convert_to_tensor(row_splits, dtype=dtypes.int64)
    if t.dtype not in (dtypes.int32, dtypes.int64):
        raise ValueError(f"row_splits must have dtype int32 or int64, got {t.dtype.name}")
    if t.shape.rank != 1:
        raise ValueError(f"Shape {t.shape} must have rank 1")
    return t


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

    # --- factories ------------------------------------------------------------------------------------------------
    @classmethod
    def from_row_splits(cls, values: Any, row_splits: Any, name: str | None = None,
                        validate: bool = True) -> "RaggedTensor":
        """Rows values[row_splits[i]:row_splits[i+1]] (row_splits: 0 first, nondecreasing, ending at len(values))."""
        vals = values if isinstance(values, (Tensor, RaggedTensor)) else convert_to_tensor(values)
        sp = _splits(row_splits)
        if validate:
            s = sp._v.tolist()
            n = _nrows(vals)
            why = ("Arguments to from_row_splits do not form a valid RaggedTensor:zero" if not s or s[0] != 0 else
                   "Arguments to from_row_splits do not form a valid RaggedTensor:monotonic"
                   if any(b < a for a, b in zip(s, s[1:])) else
                   "Arguments to _from_row_partition do not form a valid RaggedTensor" if s[-1] != n else "")
            if why:
                raise errors.InvalidArgumentError(None, None, why)
        return cls(vals, sp, internal=True)

    @classmethod
    def from_row_lengths(cls, values: Any, row_lengths: Any, name: str | None = None,
                         validate: bool = True) -> "RaggedTensor":
        lengths = np.asarray(row_lengths.numpy() if isinstance(row_lengths, Tensor) else row_lengths, np.int64)
        if (lengths < 0).any():
            raise errors.InvalidArgumentError(None, None, "Arguments to from_row_lengths do not form a valid "
                                              "RaggedTensor:nonnegative")
        splits = np.concatenate([[0], np.cumsum(lengths)]).astype(np.int64)
        return cls.from_row_splits(values, splits, validate=validate)

    @classmethod
    def from_nested_row_splits(cls, flat_values: Any, nested_row_splits: Sequence[Any], name: str | None = None,
                               validate: bool = True) -> "RaggedTensor":
        result = flat_values
        for sp in reversed(list(nested_row_splits)):
            result = cls.from_row_splits(result, sp, validate=validate)
        return result

    @classmethod
    def from_tensor(cls, tensor: Any, lengths: Any = None, padding: Any = None, ragged_rank: int = 1,
                    name: str | None = None, row_splits_dtype: Any = dtypes.int64) -> "RaggedTensor":
        """Each row of `tensor` whole (uniform rows), `ragged_rank` leading dimensions made ragged."""
        if lengths is not None or padding is not None:
            raise NotImplementedError("simdist's RaggedTensor.from_tensor takes no lengths or padding")
        t = tensor if isinstance(tensor, Tensor) else convert_to_tensor(tensor)
        shape = tuple(t.shape.as_list())
        if not 0 < ragged_rank < len(shape):
            raise ValueError(f"ragged_rank must be greater than 0 and less than tensor.shape.rank; got {ragged_rank}")
        flat = convert_to_tensor(t._v.reshape((-1,) + shape[ragged_rank + 1:]), dtype=t.dtype)
        rt = cls.from_uniform(flat, shape[ragged_rank])
        for d in range(ragged_rank - 1, 0, -1):
            rt = cls.from_uniform(rt, shape[d], ragged=False)
        return rt

    @classmethod
    def from_uniform(cls, values: Any, length: int, ragged: bool = True) -> "RaggedTensor":
        """Rows of `length` values each (the last cut of from_tensor is a ragged dimension, the
        ones above it uniform: TF's from_tensor keeps their sizes in the shape)."""
        n = _nrows(values) // length if length else 0
        splits = convert_to_tensor(np.arange(n + 1, dtype=np.int64) * length, dtype=dtypes.int64)
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
        dims: list[int | None] = [self.nrows_int()]
        v: Any = self
        while isinstance(v, RaggedTensor):
            dims.append(v._uniform)
            v = v._values
        return TensorShape(dims + self.flat_values.shape.as_list()[1:])

    def get_shape(self) -> TensorShape:
        return self.shape

    def nrows_int(self) -> int:
        return int(self._row_splits._v.shape[0]) - 1

    def nrows(self, out_type: Any = None, name: str | None = None) -> Tensor:
        return convert_to_tensor(self.nrows_int(), dtype=out_type or self._row_splits.dtype)

    def row_lengths(self, axis: int = 1, name: str | None = None) -> Tensor:
        if axis != 1:
            raise NotImplementedError("simdist's RaggedTensor.row_lengths takes axis=1 only")
        s = self._row_splits._v
        return convert_to_tensor(s[1:] - s[:-1], dtype=self._row_splits.dtype)

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
        output_sequence_length this way)."""
        flat = self.flat_values
        inner = tuple(flat.shape.as_list()[1:])
        fill = default_value if default_value is not None else (b"" if flat.dtype == dtypes.string else 0)
        depth = self.ragged_rank + 1
        dims = _dense_dims(self.to_list(), depth)
        if shape is not None:
            want = shape.as_list() if isinstance(shape, TensorShape) else list(shape)
            if len(want) != depth + len(inner):
                raise ValueError(f"Shapes {TensorShape(want)} and {self.shape} are incompatible")
            dims = [d if w is None else int(w) for d, w in zip(dims, want)]
            for w, have in zip(want[depth:], inner):
                if w is not None and int(w) != have:
                    raise errors.InvalidArgumentError(None, None, "The inner " + str(len(inner)) + " dimensions of "
                                                      "output.shape=" + str(want) + " must match the inner "
                                                      f"{len(inner)} dimensions of flat_values.shape={list(inner)}")
        out = np.full(tuple(dims) + inner, fill, dtype=flat._v.dtype)
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
    every level but the innermost scalars, unless given; a scalar or flat list stays a tensor)."""
    if inner_shape is not None:
        raise NotImplementedError("simdist's tf.ragged.constant takes no inner_shape")
    depth = _depth(pylist)
    rank = depth - 1 if ragged_rank is None else int(ragged_rank)
    if depth == 0 or rank == 0:
        return convert_to_tensor(pylist, dtype=dtype)
    splits: list[list[int]] = [[0] for _ in range(rank)]
    leaves: list = []
    _leaves_and_splits([pylist], rank + 1, [[0]] + splits, leaves)
    flat = convert_to_tensor(leaves if leaves else np.zeros((0,) + (), np.float32), dtype=dtype)
    return RaggedTensor.from_nested_row_splits(flat, [np.asarray(s, np.int64) for s in splits], validate=False)


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
