"""`tf.data` for simdist: a lazy pipeline of dataset nodes whose values are NumPy arrays.

Every transformation returns a new node that keeps its inputs (`.inputs`), TF's op name
(`.kind`, e.g. "BatchDatasetV2") and its parameters (`.params`), so the input pipeline can be
analysed and rewritten the way TF's graph rewrites do (compute_batch_size, auto-shard).
Nothing runs until the dataset is iterated; iteration is eager and single-threaded.

Elements are nested structures (tuple / namedtuple / dict / single) of `Tensor`s on the host CPU.
Dtype inference follows TF: Python ints -> int32, floats -> float32, NumPy arrays keep their dtype,
`Dataset.range` gives int64.

Deviations from TF, by design:
- `map`/`filter` functions run once per element (eager), not once at trace time. To infer the
  output spec the function is also called on two probe elements (unknown dims 2 and values 0,
  then dims 3 and values 1; output dims that differ become None); if a probe raises, the spec
  comes from the first real element with every dim unknown. A shape that depends on values in a
  way both probes miss comes out static where TF's tracing would say None.
- `shuffle` is deterministic: the permutation comes from NumPy's PCG64 seeded with
  SeedSequence([seed or a fixed name-derived root, epoch]); an unseeded shuffle uses the root
  derived from the name "simdist.data.shuffle" (so two unseeded shuffles of equally long inputs
  give the same order). `reshuffle_each_iteration` advances the epoch per new iterator. The orders
  differ from TF's Philox-based ones.
"""

from __future__ import annotations

import collections
import copy
import enum
import hashlib
import itertools
import types
import warnings
from typing import Any, Callable, Iterator

import numpy as np

from simdist.runtime import context, devices, dtypes, errors
from simdist.runtime.spec import (TensorSpec, assert_same_structure, flatten, map_structure,
                                  most_specific_compatible_shape, pack_as)
from simdist.runtime.tensor import Tensor, TensorShape, convert_to_tensor
from simdist.semantics import autoshard as _autoshard
from simdist.semantics import rebatch as _rebatch
from simdist.semantics.autoshard import SHARD_HINT, AutoShardPolicy

__all__ = ["AUTOTUNE", "INFINITE_CARDINALITY", "UNKNOWN_CARDINALITY", "Dataset", "DatasetV2", "Options",
           "Iterator", "OwnedIterator", "Optional", "TensorSpec", "ThreadingOptions", "experimental"]

AUTOTUNE = -1
INFINITE_CARDINALITY = -1
UNKNOWN_CARDINALITY = -2
_INT64_MAX = 2 ** 63 - 1
_SHUFFLE_ROOT = int.from_bytes(hashlib.sha256(b"simdist.data.shuffle").digest()[:8], "little")


def host_device() -> str:
    """Where iterated elements live: the CPU of the task the current device belongs to."""
    return devices.host_cpu(context.current_device())


# --- options ---------------------------------------------------------------------------------------
class ExternalStatePolicy(enum.Enum):
    """`tf.data.experimental.ExternalStatePolicy`."""

    WARN = 0
    IGNORE = 1
    FAIL = 2


class _OptionsBase:
    """TF's OptionsBase: a fixed set of typed properties; unset ones read as their default."""

    _FIELDS: dict[str, tuple[Any, Any]] = {}   # name -> (type or tuple of types, default or factory)
    _ALIASES: dict[str, str] = {}

    def __init__(self) -> None:
        object.__setattr__(self, "_values", {})

    def __getattr__(self, name: str) -> Any:
        name = type(self)._ALIASES.get(name, name)
        fields = type(self)._FIELDS
        if name not in fields:
            raise AttributeError(f"'{type(self).__name__}' object has no attribute '{name}'")
        values = object.__getattribute__(self, "_values")
        if name in values:
            return values[name]
        ty, default = fields[name]
        if isinstance(default, type) and issubclass(default, _OptionsBase):
            values[name] = default()            # nested options objects are created on first access
            return values[name]
        return default

    def __setattr__(self, name: str, value: Any) -> None:
        name = type(self)._ALIASES.get(name, name)
        fields = type(self)._FIELDS
        if name not in fields:
            raise AttributeError(f"Cannot set the property {name} on {type(self).__name__}.")
        ty, _ = fields[name]
        if value is not None and ty is not None and not isinstance(value, ty):
            shown = ty if not isinstance(ty, tuple) else ty[0]
            raise TypeError(f'Property "{name}" must be of type {shown}, got: {value!r} (type: {type(value)})')
        self._values[name] = value

    def _is_set(self, name: str) -> bool:
        return name in self._values

    def __eq__(self, other: object) -> bool:
        if type(other) is not type(self):
            return NotImplemented
        return all(getattr(self, n) == getattr(other, n) for n in type(self)._FIELDS)

    def __ne__(self, other: object) -> bool:
        eq = self.__eq__(other)
        return eq if eq is NotImplemented else not eq

    __hash__ = None  # type: ignore[assignment]

    def _merged_with(self, other: "_OptionsBase") -> "_OptionsBase":
        """Options of `self` overridden by whatever is set in `other` (recursively)."""
        out = type(self)()
        for name, (_, default) in type(self)._FIELDS.items():
            mine, theirs = self._values.get(name), other._values.get(name)
            if isinstance(default, type) and issubclass(default, _OptionsBase):
                if mine is not None or theirs is not None:
                    base = mine if mine is not None else default()
                    out._values[name] = base._merged_with(theirs) if theirs is not None else copy.deepcopy(base)
            elif name in other._values:
                out._values[name] = theirs
            elif name in self._values:
                out._values[name] = mine
        return out


class DistributeOptions(_OptionsBase):
    """`tf.data.experimental.DistributeOptions`: auto_shard_policy (default AUTO), num_devices."""

    _FIELDS = {"auto_shard_policy": (AutoShardPolicy, AutoShardPolicy.AUTO), "num_devices": (int, None)}


class OptimizationOptions(_OptionsBase):
    """`tf.data.experimental.OptimizationOptions` (recorded only: simdist runs no graph optimizations)."""

    _FIELDS = {n: (bool, None) for n in (
        "apply_default_optimizations", "filter_fusion", "filter_parallelization", "inject_prefetch",
        "map_and_batch_fusion", "map_and_filter_fusion", "map_fusion", "map_parallelization",
        "noop_elimination", "parallel_batch", "seq_interleave_prefetch", "shuffle_and_repeat_fusion")}


class ThreadingOptions(_OptionsBase):
    """`tf.data.ThreadingOptions` (recorded only)."""

    _FIELDS = {"max_intra_op_parallelism": (int, None), "private_threadpool_size": (int, None)}


class AutotuneOptions(_OptionsBase):
    """`tf.data.experimental.AutotuneOptions` (recorded only)."""

    _FIELDS = {"enabled": (bool, None), "cpu_budget": (int, None), "ram_budget": (int, None),
               "autotune_algorithm": (None, None)}


class Options(_OptionsBase):
    """`tf.data.Options`: `ds.with_options(o)`; `ds.options()` merges all options upstream."""

    _FIELDS = {
        "autotune": (AutotuneOptions, AutotuneOptions),
        "dataset_name": (str, None),
        "deterministic": (bool, None),
        "experimental_distribute": (DistributeOptions, DistributeOptions),
        "experimental_external_state_policy": (ExternalStatePolicy, None),
        "experimental_optimization": (OptimizationOptions, OptimizationOptions),
        "experimental_slack": (bool, None),
        "experimental_symbolic_checkpoint": (bool, None),
        "experimental_warm_start": (bool, None),
        "framework_type": (list, None),
        "threading": (ThreadingOptions, ThreadingOptions),
    }
    _ALIASES = {"experimental_deterministic": "deterministic", "experimental_threading": "threading"}

    def merge(self, options: "Options") -> "Options":
        """A new Options: self's settings overridden by those set in `options`."""
        if not isinstance(options, Options):
            raise TypeError(f"Expected `tf.data.Options`, got {type(options).__name__}")
        return self._merged_with(options)  # type: ignore[return-value]


# --- element conversion ----------------------------------------------------------------------------
def _to_tensor(value: Any) -> Tensor:
    if isinstance(value, DatasetV2):
        raise TypeError("tf.data datasets cannot be elements of another dataset in simdist "
                        f"(got {type(value).__name__})")
    try:
        return convert_to_tensor(value)
    except ValueError as e:
        if "inhomogeneous" in str(e) or "sequence" in str(e):
            raise ValueError("Can't convert non-rectangular Python sequence to Tensor.") from None
        raise


def _normalize(value: Any) -> tuple[Any, list[np.ndarray]]:
    """A structure of values -> (structure of TensorSpec, flat list of arrays). Lists become tensors."""
    tensors = map_structure(_to_tensor, value)
    spec = map_structure(lambda t: TensorSpec(t.shape, t.dtype), tensors)
    return spec, [np.asarray(t._v) for t in flatten(tensors)]


def _zeros(shape: tuple[int, ...], dtype: dtypes.DType) -> np.ndarray:
    if dtype is dtypes.string:
        return np.full(shape, b"", dtype=object)
    return np.zeros(shape, dtype=dtype.np)


def _as_array(value: Any, dtype: dtypes.DType) -> np.ndarray:
    arr = np.asarray(value._v if isinstance(value, Tensor) else value)
    if dtype is dtypes.string:
        return arr.astype(object)
    return arr.astype(dtype.np, copy=False)


def _shape_list(shape: TensorShape) -> list[int | None] | None:
    return None if shape.rank is None else shape.as_list()


def _fmt_shape(shape: tuple[int, ...]) -> str:
    return "[" + ",".join(str(d) for d in shape) + "]"


def _int_arg(value: Any, what: str = "") -> int:
    """An int64 scalar argument (Python int, NumPy integer or integer tensor), TF's TypeError otherwise."""
    if isinstance(value, Tensor):
        value = value.numpy()
    if isinstance(value, (bool, np.bool_)):
        return int(value)
    if isinstance(value, (int, np.integer)):
        return int(value)
    raise TypeError(f"Cannot convert {value!r} to EagerTensor of dtype int64")


def _bool_arg(value: Any) -> bool:
    if isinstance(value, Tensor):
        value = value.numpy()
    return bool(value)


def _cdiv(a: int, b: int) -> int:
    """C++ integer division (truncates toward zero), as TF's cardinality arithmetic uses."""
    q = abs(a) // abs(b)
    return q if (a >= 0) == (b > 0) else -q


def _cmod(a: int, b: int) -> int:
    return a - b * _cdiv(a, b)


def _unknown_or_infinite(n: int) -> bool:
    return n in (INFINITE_CARDINALITY, UNKNOWN_CARDINALITY)


def _batch_card(n: int, size: int, drop: bool) -> int:
    """TF's BatchDataset cardinality, C++ arithmetic included (odd inputs such as SHARD_HINT's -n stay odd)."""
    if _unknown_or_infinite(n):
        return n
    return _cdiv(n, size) + (0 if _cmod(n, size) == 0 or drop else 1)


def _call_with_element(fn: Callable[..., Any], element: Any) -> Any:
    """Call a tf.data function: a plain tuple element is unpacked into positional arguments (TF's rule)."""
    if type(element) is tuple:
        return fn(*element)
    return fn(element)


def _normalize_fn_output(out: Any) -> Any:
    """A map function's return value as a structure of Tensors (a top-level list becomes a tuple)."""
    if out is None:
        raise errors.InvalidArgumentError(
            None, None, "The tf.data function returned None; it must return a (nested structure of) tensors.")
    if isinstance(out, list):
        warnings.warn("The tf.data function returned a list; converting it to a tuple, as TF does.",
                      stacklevel=3)
        out = tuple(out)
    return map_structure(_to_tensor, out)


# --- the dataset base -------------------------------------------------------------------------------
class DatasetV2:
    """`tf.data.Dataset`: a node of a lazy input pipeline.

    `kind` is TF's op name, `inputs` the upstream datasets, `params` the op's parameters.
    """

    _KIND = "Dataset"

    def __init__(self, inputs: tuple["DatasetV2", ...], params: dict[str, Any], element_spec: Any) -> None:
        self._inputs = tuple(inputs)
        self._params = dict(params)
        self._element_spec = element_spec
        self._flat_specs: list[TensorSpec] = flatten(element_spec)

    # --- pipeline introspection ---------------------------------------------------------------------
    @property
    def kind(self) -> str:
        return self._KIND

    @property
    def inputs(self) -> tuple["DatasetV2", ...]:
        return self._inputs

    @property
    def params(self) -> types.MappingProxyType:
        return types.MappingProxyType(self._params)

    @property
    def element_spec(self) -> Any:
        return self._element_spec

    def _with_inputs(self, inputs: tuple["DatasetV2", ...]) -> "DatasetV2":
        """A copy of this node reading from other inputs (same kind, params and element spec)."""
        node = copy.copy(self)
        node._inputs = tuple(inputs)
        node._reset_state()
        return node

    def _reset_state(self) -> None:
        """Forget per-dataset iteration state (shuffle epochs, caches) in a copy."""

    def __repr__(self) -> str:
        return f"<{type(self).__name__} element_spec={self._element_spec!r}>"

    def __bool__(self) -> bool:
        return True

    # --- iteration -----------------------------------------------------------------------------------
    def _iter_flat(self) -> Iterator[list[np.ndarray]]:
        """Yield each element as the flat list of its component arrays (flatten order)."""
        raise NotImplementedError

    def _check_iterable(self) -> None:
        """Errors TF raises when an iterator is created (not at the first element)."""
        for inp in self._inputs:
            inp._check_iterable()

    def _pack(self, flat: list[np.ndarray], device: str | None = None) -> Any:
        device = host_device() if device is None else device
        leaves = [Tensor(a, s.dtype, device) for a, s in zip(flat, self._flat_specs)]
        return pack_as(self._element_spec, leaves)

    def __iter__(self) -> "OwnedIterator":
        return OwnedIterator(self)

    def as_numpy_iterator(self) -> "_NumpyIterator":
        """Iterate elements as NumPy values (scalars as NumPy scalars, strings as bytes)."""
        return _NumpyIterator(self)

    # --- cardinality -------------------------------------------------------------------------------
    def _card(self) -> int:
        raise NotImplementedError

    def cardinality(self) -> Tensor:
        """Number of elements as an int64 scalar tensor; -1 infinite, -2 unknown (like TF)."""
        return Tensor(np.asarray(self._card(), dtype=np.int64), dtypes.int64)

    def __len__(self) -> int:
        n = self._card()
        if n == INFINITE_CARDINALITY:
            raise TypeError("The dataset is infinite.")
        if n == UNKNOWN_CARDINALITY:
            raise TypeError("The dataset length is unknown.")
        return n

    # --- options -----------------------------------------------------------------------------------
    def options(self) -> Options:
        """The options of this pipeline: every upstream `with_options`, later ones overriding."""
        out = Options()
        for inp in self._inputs:
            out = out.merge(inp.options())
        own = self._params.get("options") if self._KIND == "OptionsDataset" else None
        if own is not None:
            out = out.merge(own)
        return out

    def with_options(self, options: Options, name: str | None = None) -> "DatasetV2":
        if not isinstance(options, Options):
            raise TypeError(f"`options` must be a `tf.data.Options`, got {type(options).__name__}")
        return _OptionsDataset(self, options)

    # --- sources -----------------------------------------------------------------------------------
    @staticmethod
    def range(*args: Any, output_type: Any = dtypes.int64, name: str | None = None) -> "DatasetV2":
        """`range(stop)`, `range(start, stop[, step])` like Python's, as int64 scalars by default."""
        if not 1 <= len(args) <= 3:
            raise ValueError("Invalid arguments to `range`: expected 1 to 3 arguments, got %d" % len(args))
        ints = [_int_arg(a) for a in args]
        start, stop, step = (0, ints[0], 1) if len(ints) == 1 else (ints + [1])[:3] if len(ints) == 2 else ints
        return _RangeDataset(start, stop, step, dtypes.as_dtype(output_type))

    @staticmethod
    def from_tensor_slices(tensors: Any, name: str | None = None) -> "DatasetV2":
        """One element per row (dim 0) of each component; all components need the same dim 0."""
        return _TensorSliceDataset(tensors)

    @staticmethod
    def from_tensors(tensors: Any, name: str | None = None) -> "DatasetV2":
        """A single element: the given structure."""
        return _TensorDataset(tensors)

    @staticmethod
    def from_generator(generator: Callable[..., Any], output_types: Any = None, output_shapes: Any = None,
                       args: Any = None, output_signature: Any = None, name: str | None = None) -> "DatasetV2":
        """Elements yielded by `generator(*args)`, called anew for every iteration."""
        if not callable(generator):
            raise TypeError("`generator` must be a Python callable.")
        if output_signature is not None:
            if output_types is not None or output_shapes is not None:
                raise TypeError("The `output_types` and `output_shapes` arguments must not be specified if "
                                "`output_signature` is specified.")
            for s in flatten(output_signature):
                if not isinstance(s, TensorSpec):
                    raise TypeError(f"`output_signature` must contain objects that are subclass of "
                                    f"`tf.TypeSpec` but found {type(s)} which is not.")
            spec = output_signature
        else:
            if output_types is None:
                raise TypeError("To specify the output signature you need to provide either the "
                                "`output_signature` argument or the `output_types` argument.")
            if output_shapes is None:
                spec = map_structure(lambda t: TensorSpec(None, t), output_types)
            else:
                flat_t, flat_s = flatten(output_types), _flatten_shapes(output_shapes, output_types)
                spec = pack_as(output_types, [TensorSpec(s, t) for t, s in zip(flat_t, flat_s)])
        return _FlatMapDataset(generator, tuple(args) if args is not None else (), spec)

    @staticmethod
    def zip(*args: Any, datasets: Any = None, name: str | None = None) -> "DatasetV2":
        """Zip a (nested) structure of datasets; stops with the shortest."""
        if datasets is not None:
            if args:
                raise TypeError("Both `*args` and `datasets` cannot be set.")
            structure = datasets
        elif len(args) == 1:
            structure = args[0]
        elif not args:
            raise TypeError("Must pass at least one dataset to `zip`.")
        else:
            structure = tuple(args)
        return _ZipDataset(structure)

    # --- transformations ---------------------------------------------------------------------------
    def batch(self, batch_size: Any, drop_remainder: Any = False, num_parallel_calls: Any = None,
              deterministic: Any = None, name: str | None = None) -> "DatasetV2":
        return _BatchDataset(self, _int_arg(batch_size), _bool_arg(drop_remainder), num_parallel_calls)

    def padded_batch(self, batch_size: Any, padded_shapes: Any = None, padding_values: Any = None,
                     drop_remainder: Any = False, name: str | None = None) -> "DatasetV2":
        """Batch, padding each component to `padded_shapes` (unknown dims: the longest in the batch)."""
        return _PaddedBatchDataset(self, _int_arg(batch_size), padded_shapes, padding_values,
                                   _bool_arg(drop_remainder))

    def unbatch(self, name: str | None = None) -> "DatasetV2":
        return _UnbatchDataset(self)

    def rebatch(self, batch_size: Any, drop_remainder: bool = False, name: str | None = None) -> "DatasetV2":
        """Rebatch into `batch_size` (an int or a list cycled through): like unbatch().batch(n)."""
        sizes = [int(b) for b in np.atleast_1d(np.asarray(batch_size._v if isinstance(batch_size, Tensor)
                                                          else batch_size))]
        return _RebatchDataset(self, sizes, bool(drop_remainder))

    def repeat(self, count: Any = None, name: str | None = None) -> "DatasetV2":
        return _RepeatDataset(self, -1 if count is None else _int_arg(count))

    def shard(self, num_shards: Any, index: Any, name: str | None = None) -> "DatasetV2":
        return _ShardDataset(self, _int_arg(num_shards), _int_arg(index))

    def map(self, map_func: Callable[..., Any], num_parallel_calls: Any = None, deterministic: Any = None,
            synchronous: Any = None, use_unbounded_threadpool: bool = False, name: str | None = None) -> "DatasetV2":
        if num_parallel_calls is None:
            return _MapDataset(self, map_func)
        return _ParallelMapDataset(self, map_func, num_parallel_calls)

    def filter(self, predicate: Callable[..., Any], name: str | None = None) -> "DatasetV2":
        return _FilterDataset(self, predicate)

    def take(self, count: Any, name: str | None = None) -> "DatasetV2":
        return _TakeDataset(self, _int_arg(count))

    def skip(self, count: Any, name: str | None = None) -> "DatasetV2":
        return _SkipDataset(self, _int_arg(count))

    def prefetch(self, buffer_size: Any, name: str | None = None) -> "DatasetV2":
        return _PrefetchDataset(self, _int_arg(buffer_size))

    def cache(self, filename: str = "", name: str | None = None) -> "DatasetV2":
        if filename:
            raise NotImplementedError("simdist datasets cache in memory only (filename must be '')")
        return _CacheDataset(self)

    def shuffle(self, buffer_size: Any, seed: Any = None, reshuffle_each_iteration: Any = None,
                name: str | None = None) -> "DatasetV2":
        return _ShuffleDataset(self, _int_arg(buffer_size), None if seed is None else _int_arg(seed),
                               True if reshuffle_each_iteration is None else bool(reshuffle_each_iteration))

    def enumerate(self, start: Any = 0, name: str | None = None) -> "DatasetV2":
        """(index, element) pairs, index int64 from `start` (TF builds it as zip(range, self))."""
        return _ZipDataset((_RangeDataset(_int_arg(start), _INT64_MAX, 1, dtypes.int64), self))

    def concatenate(self, dataset: "DatasetV2", name: str | None = None) -> "DatasetV2":
        return _ConcatenateDataset(self, dataset)

    def apply(self, transformation_func: Callable[["DatasetV2"], "DatasetV2"]) -> "DatasetV2":
        out = transformation_func(self)
        if not isinstance(out, DatasetV2):
            raise TypeError("`transformation_func` must return a `tf.data.Dataset` object. "
                            f"Got {type(out)}.")
        return out

    def reduce(self, initial_state: Any, reduce_func: Callable[[Any, Any], Any], name: str | None = None) -> Any:
        """Fold the elements into a state: `state = reduce_func(state, element)`."""
        state = map_structure(_to_tensor, initial_state)
        for flat in self._iter_flat():
            state = _normalize_fn_output(reduce_func(state, self._pack(flat)))
        return state


Dataset = DatasetV2


def _flatten_shapes(shapes: Any, types_: Any) -> list[Any]:
    """Shapes given alongside `output_types`: a shape may be a list/tuple of dims at a leaf position."""
    if isinstance(types_, dict):
        return [s for k in sorted(types_) for s in _flatten_shapes(shapes[k], types_[k])]
    if isinstance(types_, tuple):
        return [s for sh, t in zip(shapes, types_) for s in _flatten_shapes(sh, t)]
    return [shapes]


# --- iterators --------------------------------------------------------------------------------------
class Optional:
    """`tf.experimental.Optional`: a value or nothing, with the value's element spec."""

    def __init__(self, value: Any, element_spec: Any, has_value: bool) -> None:
        self._value = value
        self._element_spec = element_spec
        self._has_value = has_value

    @staticmethod
    def from_value(value: Any) -> "Optional":
        tensors = map_structure(_to_tensor, value) if not _is_distributed(value) else value
        spec = map_structure(lambda t: TensorSpec(t.shape, t.dtype), tensors) if not _is_distributed(value) \
            else None
        return Optional(tensors, spec, True)

    @staticmethod
    def empty(element_spec: Any) -> "Optional":
        return Optional(None, element_spec, False)

    def has_value(self, name: str | None = None) -> Tensor:
        return Tensor(np.asarray(self._has_value), dtypes.bool_)

    def get_value(self, name: str | None = None) -> Any:
        if not self._has_value:
            raise errors.InvalidArgumentError(None, None, "The given optional does not have a value.")
        return self._value

    @property
    def element_spec(self) -> Any:
        return self._element_spec


def _is_distributed(value: Any) -> bool:
    from simdist.runtime.values import contains_distributed
    return contains_distributed(value)


class OwnedIterator:
    """Eager iterator over a Dataset (`iter(ds)`): `next()`, `get_next()`, `get_next_as_optional()`."""

    def __init__(self, dataset: DatasetV2) -> None:
        dataset._check_iterable()
        self._dataset = dataset
        self._it = dataset._iter_flat()

    @property
    def element_spec(self) -> Any:
        return self._dataset.element_spec

    def __iter__(self) -> "OwnedIterator":
        return self

    def _next_flat(self) -> list[np.ndarray] | None:
        if self._it is None:
            return None
        try:
            return next(self._it)
        except StopIteration:
            self._it = None
            return None

    def __next__(self) -> Any:
        flat = self._next_flat()
        if flat is None:
            raise StopIteration
        return self._dataset._pack(flat)

    def next(self) -> Any:
        return self.__next__()

    def get_next(self, name: str | None = None) -> Any:
        flat = self._next_flat()
        if flat is None:
            raise errors.OutOfRangeError(None, None, "End of sequence")
        return self._dataset._pack(flat)

    def get_next_as_optional(self) -> Optional:
        flat = self._next_flat()
        if flat is None:
            return Optional.empty(self.element_spec)
        return Optional(self._dataset._pack(flat), self.element_spec, True)


Iterator = OwnedIterator


class _NumpyIterator:
    """`as_numpy_iterator()`: elements as NumPy values in the element's structure."""

    def __init__(self, dataset: DatasetV2) -> None:
        dataset._check_iterable()
        self._dataset = dataset
        self._it = dataset._iter_flat()

    def __iter__(self) -> "_NumpyIterator":
        return self

    def __next__(self) -> Any:
        flat = next(self._it)
        return pack_as(self._dataset.element_spec, [a[()] if a.ndim == 0 else a for a in flat])

    next = __next__


# --- sources -----------------------------------------------------------------------------------------
class _RangeDataset(DatasetV2):
    _KIND = "RangeDataset"

    def __init__(self, start: int, stop: int, step: int, output_type: dtypes.DType) -> None:
        if step == 0:
            raise errors.InvalidArgumentError(None, None, "step must be a non-zero integer.")
        super().__init__((), {"start": start, "stop": stop, "step": step, "output_type": output_type},
                         TensorSpec([], output_type))
        self._dt = output_type.np

    def _iter_flat(self) -> Iterator[list[np.ndarray]]:
        p = self._params
        for v in range(p["start"], p["stop"], p["step"]):
            yield [np.asarray(v, dtype=self._dt)]

    def _card(self) -> int:
        p = self._params
        return len(range(p["start"], p["stop"], p["step"]))


class _TensorSliceDataset(DatasetV2):
    _KIND = "TensorSliceDataset"

    def __init__(self, tensors: Any) -> None:
        spec, arrays = _normalize(tensors)
        for a in arrays:
            if a.ndim == 0:
                raise ValueError("Unbatching a tensor is only supported for rank >= 1")
        for a in arrays[1:]:
            if a.shape[0] != arrays[0].shape[0]:
                raise ValueError(f"Dimensions {arrays[0].shape[0]} and {a.shape[0]} are not compatible")
        row_spec = map_structure(lambda s: TensorSpec(s.shape[1:], s.dtype), spec)
        super().__init__((), {"tensors": arrays}, row_spec)
        self._arrays = arrays

    def _iter_flat(self) -> Iterator[list[np.ndarray]]:
        n = self._arrays[0].shape[0] if self._arrays else 0
        for i in range(n):
            yield [a[i, ...] for a in self._arrays]

    def _card(self) -> int:
        return int(self._arrays[0].shape[0]) if self._arrays else 0


class _TensorDataset(DatasetV2):
    _KIND = "TensorDataset"

    def __init__(self, tensors: Any) -> None:
        spec, arrays = _normalize(tensors)
        super().__init__((), {"tensors": arrays}, spec)
        self._arrays = arrays

    def _iter_flat(self) -> Iterator[list[np.ndarray]]:
        yield list(self._arrays)

    def _card(self) -> int:
        return 1


class _FlatMapDataset(DatasetV2):
    """`from_generator` (TF builds it as a FlatMapDataset around a GeneratorDataset)."""

    _KIND = "FlatMapDataset"

    def __init__(self, generator: Callable[..., Any], args: tuple, spec: Any) -> None:
        super().__init__((), {"generator": generator, "args": args}, spec)

    def _iter_flat(self) -> Iterator[list[np.ndarray]]:
        p = self._params
        for value in p["generator"](*p["args"]):
            yield self._convert(value)

    def _convert(self, value: Any) -> list[np.ndarray]:
        spec = self._element_spec
        if isinstance(value, list) and isinstance(spec, tuple):
            value = tuple(value)
        try:
            assert_same_structure(spec, value) if isinstance(spec, (tuple, dict)) else None
            leaves = flatten(value) if isinstance(spec, (tuple, dict)) else [value]
        except (ValueError, TypeError):
            raise errors.InvalidArgumentError(
                None, None, "TypeError: `generator` yielded an element that did not match the expected "
                f"structure. The expected structure was {map_structure(lambda s: s.dtype, spec)}, but the "
                f"yielded element was {value}.") from None
        out = []
        for leaf, s in zip(leaves, self._flat_specs):
            try:
                arr = _as_array(leaf, s.dtype) if s.dtype is not dtypes.string else _to_tensor(leaf)._v
            except (ValueError, TypeError):
                raise errors.InvalidArgumentError(
                    None, None, "TypeError: `generator` yielded an element that could not be converted to the "
                    f"expected type. The expected type was {s.dtype.name}, but the yielded element was "
                    f"{leaf}.") from None
            if not s.shape.is_compatible_with(arr.shape):
                raise errors.InvalidArgumentError(
                    None, None, f"TypeError: `generator` yielded an element of shape {TensorShape(arr.shape)} "
                    f"where an element of shape {s.shape} was expected.")
            out.append(arr)
        return out

    def _card(self) -> int:
        return UNKNOWN_CARDINALITY


# --- unary transformations -------------------------------------------------------------------------
class _UnaryDataset(DatasetV2):
    @property
    def _input(self) -> DatasetV2:
        return self._inputs[0]


class _BatchDataset(_UnaryDataset):
    _KIND = "BatchDatasetV2"

    def __init__(self, input_dataset: DatasetV2, batch_size: int, drop_remainder: bool,
                 num_parallel_calls: Any = None) -> None:
        if batch_size <= 0:
            raise errors.InvalidArgumentError(None, None, "Batch size must be greater than zero.")
        dim = batch_size if drop_remainder else None
        spec = map_structure(lambda s: s._batch(dim), input_dataset.element_spec)
        super().__init__((input_dataset,), {"batch_size": batch_size, "drop_remainder": drop_remainder,
                                            "num_parallel_calls": num_parallel_calls}, spec)

    def _iter_flat(self) -> Iterator[list[np.ndarray]]:
        size, drop = self._params["batch_size"], self._params["drop_remainder"]
        src = self._input
        if type(src) is _TensorSliceDataset and src._arrays:
            # Batches of slices are copies of consecutive rows: the arrays np.stack would build
            # from the rows one by one (the same values, dtype and layout), without a Python
            # step per row.
            n = src._arrays[0].shape[0]
            stop = n - n % size if drop else n
            for start in range(0, stop, size):
                yield [a[start:start + size].copy() for a in src._arrays]
            return
        buf: list[list[np.ndarray]] = []
        for flat in self._input._iter_flat():
            buf.append(flat)
            if len(buf) == size:
                yield _stack(buf)
                buf = []
        if buf and not drop:
            yield _stack(buf)

    def _card(self) -> int:
        return _batch_card(self._input._card(), self._params["batch_size"], self._params["drop_remainder"])


def _stack(rows: list[list[np.ndarray]]) -> list[np.ndarray]:
    out = []
    for i in range(len(rows[0])):
        first = rows[0][i].shape
        for k, r in enumerate(rows[1:], start=1):
            if r[i].shape != first:
                raise errors.InvalidArgumentError(
                    None, None, f"Cannot batch tensors with different shapes in component {i}. First element "
                    f"had shape {_fmt_shape(first)} and element {k} had shape {_fmt_shape(r[i].shape)}.")
        out.append(np.stack([r[i] for r in rows]))
    return out


class _PaddedBatchDataset(_UnaryDataset):
    _KIND = "PaddedBatchDatasetV2"

    def __init__(self, input_dataset: DatasetV2, batch_size: int, padded_shapes: Any, padding_values: Any,
                 drop_remainder: bool) -> None:
        if batch_size <= 0:
            raise errors.InvalidArgumentError(None, None, "Batch size must be greater than zero.")
        in_spec = input_dataset.element_spec
        in_specs = flatten(in_spec)
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
                p = p.numpy().tolist() if isinstance(p, Tensor) else p
                shape = TensorShape(None if p is None else [None if d is None or int(d) < 0 else int(d) for d in p])
                if not shape.is_compatible_with(s.shape):
                    raise ValueError(f"The padded shape {shape} is not compatible with the shape {s.shape} of the "
                                     "corresponding input component.")
                shapes.append(shape)
        if padding_values is None:
            pads = [b"" if s.dtype is dtypes.string else 0 for s in in_specs]
        elif isinstance(in_spec, (tuple, dict)):
            pads = flatten(padding_values)
        else:
            pads = [padding_values]
        pads = [_as_array(p, s.dtype)[()] for p, s in zip(pads, in_specs)]
        dim = batch_size if drop_remainder else None
        spec = pack_as(in_spec, [TensorSpec(TensorShape([dim]).concatenate(sh), s.dtype)
                                 for sh, s in zip(shapes, in_specs)])
        super().__init__((input_dataset,), {"batch_size": batch_size, "drop_remainder": drop_remainder,
                                            "padded_shapes": tuple(shapes), "padding_values": tuple(pads)}, spec)

    def _iter_flat(self) -> Iterator[list[np.ndarray]]:
        size, drop = self._params["batch_size"], self._params["drop_remainder"]
        src = self._input
        if type(src) is _TensorSliceDataset and src._arrays:
            # Batches of slices are copies of consecutive rows: the arrays np.stack would build
            # from the rows one by one (the same values, dtype and layout), without a Python
            # step per row.
            n = src._arrays[0].shape[0]
            stop = n - n % size if drop else n
            for start in range(0, stop, size):
                yield [a[start:start + size].copy() for a in src._arrays]
            return
        buf: list[list[np.ndarray]] = []
        for flat in self._input._iter_flat():
            buf.append(flat)
            if len(buf) == size:
                yield self._pad(buf)
                buf = []
        if buf and not drop:
            yield self._pad(buf)

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
        if any(s.shape.rank == 0 for s in specs):
            raise ValueError("Cannot unbatch an input with scalar components.")
        spec = map_structure(lambda s: TensorSpec(s.shape[1:] if s.shape.rank is not None else None, s.dtype),
                             input_dataset.element_spec)
        super().__init__((input_dataset,), {}, spec)

    def _iter_flat(self) -> Iterator[list[np.ndarray]]:
        for flat in self._input._iter_flat():
            for i, c in enumerate(flat):
                if c.ndim == 0:
                    raise errors.InvalidArgumentError(
                        None, None, "Input element must have a non-scalar value in each component.")
                if c.shape[0] != flat[0].shape[0]:
                    raise errors.InvalidArgumentError(
                        None, None, "Input element must have the same batch size in each component. Component "
                        f"0 had size {flat[0].shape[0]} but component {i} had size, {c.shape[0]}.")
            for j in range(flat[0].shape[0] if flat else 0):
                yield [c[j, ...] for c in flat]

    def _card(self) -> int:
        n = self._input._card()
        if _unknown_or_infinite(n):
            return n
        dims = [s.shape[0] if s.shape.rank else None for s in flatten(self._input.element_spec)]
        if dims and all(d is not None and d == dims[0] for d in dims):
            return n * dims[0]
        return UNKNOWN_CARDINALITY


class _RepeatDataset(_UnaryDataset):
    _KIND = "RepeatDataset"

    def __init__(self, input_dataset: DatasetV2, count: int) -> None:
        super().__init__((input_dataset,), {"count": count}, input_dataset.element_spec)

    def _iter_flat(self) -> Iterator[list[np.ndarray]]:
        count = self._params["count"]
        epoch = 0
        while count < 0 or epoch < count:
            produced = False
            for flat in self._input._iter_flat():
                produced = True
                yield flat
            epoch += 1
            if not produced:
                return

    def _card(self) -> int:
        n, count = self._input._card(), self._params["count"]
        if count < 0:
            return 0 if n == 0 else INFINITE_CARDINALITY
        if count == 0:
            return 0
        if _unknown_or_infinite(n):
            return n
        return n * count


class _ShardDataset(_UnaryDataset):
    _KIND = "ShardDataset"

    def __init__(self, input_dataset: DatasetV2, num_shards: int, index: int,
                 require_non_empty: bool = False) -> None:
        _autoshard.check_shard_args(num_shards, index)
        super().__init__((input_dataset,), {"num_shards": num_shards, "index": index,
                                            "require_non_empty": require_non_empty}, input_dataset.element_spec)

    def _check_iterable(self) -> None:
        if self._params["num_shards"] == SHARD_HINT:
            raise errors.FailedPreconditionError(
                None, None, "`tf.data.Dataset.shard(SHARD_HINT, ...)` can only be used in "
                "`tf.distribute.Strategy.experimental_distribute_dataset()` with "
                "`tf.data.experimental.AutoShardPolicy.HINT` policy, or tf.data service with "
                "`tf.data.experimental.service.ShardingPolicy.HINT` processing mode.")
        super()._check_iterable()

    def _iter_flat(self) -> Iterator[list[np.ndarray]]:
        n, index = self._params["num_shards"], self._params["index"]
        self._check_iterable()
        check_first = self._params["require_non_empty"]
        it = self._input._iter_flat()
        for pos, flat in enumerate(it):
            if not _autoshard.shard_keeps(pos, n, index):
                continue
            if check_first:
                check_first = False
                seen = pos + 1
                if seen < n:
                    seen += sum(1 for _ in itertools.islice(it, n - seen))
                    if seen < n:
                        raise _autoshard.shard_too_small_error(seen, n)
                    yield flat
                    # continue after the first round: positions now start at n
                    for pos2, flat2 in enumerate(it, start=n):
                        if _autoshard.shard_keeps(pos2, n, index):
                            yield flat2
                    return
            yield flat

    def _card(self) -> int:
        n = self._input._card()
        shards, index = self._params["num_shards"], self._params["index"]
        if _unknown_or_infinite(n):
            return n
        # With SHARD_HINT (-1) TF 2.21 reports -n (C++ arithmetic), which later ops keep transforming.
        return _cdiv(n, shards) + (1 if index < _cmod(n, shards) else 0)


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


class _TakeDataset(_UnaryDataset):
    _KIND = "TakeDataset"

    def __init__(self, input_dataset: DatasetV2, count: int) -> None:
        super().__init__((input_dataset,), {"count": count}, input_dataset.element_spec)

    def _iter_flat(self) -> Iterator[list[np.ndarray]]:
        count = self._params["count"]
        it = self._input._iter_flat()
        return it if count < 0 else itertools.islice(it, count)

    def _card(self) -> int:
        n, count = self._input._card(), self._params["count"]
        if n == UNKNOWN_CARDINALITY:
            return n
        if n == INFINITE_CARDINALITY:
            return count
        if count == -1:
            return n
        return min(n, count)   # TF returns a negative count < -1 as is


class _SkipDataset(_UnaryDataset):
    _KIND = "SkipDataset"

    def __init__(self, input_dataset: DatasetV2, count: int) -> None:
        super().__init__((input_dataset,), {"count": count}, input_dataset.element_spec)

    def _iter_flat(self) -> Iterator[list[np.ndarray]]:
        count = self._params["count"]
        it = self._input._iter_flat()
        if count < 0:
            for _ in it:
                pass
            return iter(())
        return itertools.islice(it, count, None)

    def _card(self) -> int:
        n, count = self._input._card(), self._params["count"]
        if _unknown_or_infinite(n):
            return n
        if count < 0:
            return 0
        return max(0, n - count)


class _PrefetchDataset(_UnaryDataset):
    """Prefetch: reads `buffer_size` elements ahead of the consumer (AUTOTUNE reads 1 ahead).

    TF fills the buffer on a background thread; simdist fills it synchronously when an element is
    handed out, so upstream side effects happen in the same order, deterministically.
    """

    _KIND = "PrefetchDataset"

    def __init__(self, input_dataset: DatasetV2, buffer_size: int) -> None:
        if buffer_size < -1:
            raise errors.InvalidArgumentError(
                None, None, "buffer_size must be >= 0 or set buffer_size to be -1 for auto-tuning")
        super().__init__((input_dataset,), {"buffer_size": buffer_size}, input_dataset.element_spec)

    def _iter_flat(self) -> Iterator[list[np.ndarray]]:
        size = self._params["buffer_size"]
        return _read_ahead(self._input._iter_flat(), 1 if size == AUTOTUNE else size)

    def _card(self) -> int:
        return self._input._card()


def _read_ahead(it: Iterator[Any], ahead: int) -> Iterator[Any]:
    """Yield from `it`, keeping `ahead` more elements pulled than handed out."""
    if ahead <= 0:
        yield from it
        return
    buf: collections.deque = collections.deque()
    done = False
    while True:
        while not done and len(buf) < ahead + 1:
            try:
                buf.append(next(it))
            except StopIteration:
                done = True
        if not buf:
            return
        yield buf.popleft()


class _OptionsDataset(_UnaryDataset):
    _KIND = "OptionsDataset"

    def __init__(self, input_dataset: DatasetV2, options: Options) -> None:
        super().__init__((input_dataset,), {"options": options}, input_dataset.element_spec)

    def _iter_flat(self) -> Iterator[list[np.ndarray]]:
        return self._input._iter_flat()

    def _card(self) -> int:
        return self._input._card()


class _CacheDataset(_UnaryDataset):
    """In-memory cache: the first complete pass is recorded and replayed by later iterations."""

    _KIND = "CacheDatasetV2"

    def __init__(self, input_dataset: DatasetV2) -> None:
        super().__init__((input_dataset,), {"filename": ""}, input_dataset.element_spec)
        self._cache: list[list[np.ndarray]] | None = None

    def _reset_state(self) -> None:
        self._cache = None

    def _iter_flat(self) -> Iterator[list[np.ndarray]]:
        if self._cache is not None:
            yield from self._cache
            return
        seen = []
        for flat in self._input._iter_flat():
            seen.append(flat)
            yield flat
        self._cache = seen

    def _card(self) -> int:
        return self._input._card()


class _ShuffleDataset(_UnaryDataset):
    _KIND = "ShuffleDatasetV3"

    def __init__(self, input_dataset: DatasetV2, buffer_size: int, seed: int | None,
                 reshuffle_each_iteration: bool) -> None:
        if buffer_size <= 0 and buffer_size != UNKNOWN_CARDINALITY:
            raise errors.InvalidArgumentError(None, None,
                                              "buffer_size must be greater than zero or UNKNOWN_CARDINALITY")
        super().__init__((input_dataset,), {"buffer_size": buffer_size, "seed": seed,
                                            "reshuffle_each_iteration": reshuffle_each_iteration},
                         input_dataset.element_spec)
        self._epoch = 0

    def _reset_state(self) -> None:
        self._epoch = 0

    def _iter_flat(self) -> Iterator[list[np.ndarray]]:
        p = self._params
        root = _SHUFFLE_ROOT if p["seed"] is None else p["seed"] % (2 ** 64)
        epoch = self._epoch if p["reshuffle_each_iteration"] else 0
        self._epoch += 1
        rng = np.random.Generator(np.random.PCG64(np.random.SeedSequence([root, epoch])))
        size = p["buffer_size"] if p["buffer_size"] > 0 else None
        buf: list[list[np.ndarray]] = []
        it = self._input._iter_flat()
        for flat in it:
            buf.append(flat)
            if size is not None and len(buf) >= size:
                break
        for flat in it:
            k = int(rng.integers(len(buf)))
            yield buf[k]
            buf[k] = flat
        while buf:
            k = int(rng.integers(len(buf)))
            buf[k], buf[-1] = buf[-1], buf[k]
            yield buf.pop()

    def _card(self) -> int:
        return self._input._card()


# --- multi-input transformations ---------------------------------------------------------------------
class _ZipDataset(DatasetV2):
    _KIND = "ZipDataset"

    def __init__(self, datasets: Any) -> None:
        if isinstance(datasets, list):
            raise TypeError("Invalid input to `zip`. Inputs are expected to be (nested) structures of "
                            "`tf.data.Dataset` objects. Python `list` is not supported and you should use "
                            "`tuple` instead.")
        leaves = flatten(datasets)
        for d in leaves:
            if not isinstance(d, DatasetV2):
                raise TypeError("Invalid input to `zip`. Inputs are expected to be (nested) structures of "
                                f"`tf.data.Dataset` objects but encountered object of type {type(d)}.")
        spec = pack_as(datasets, [d.element_spec for d in leaves])
        super().__init__(tuple(leaves), {"structure": map_structure(lambda _: None, datasets)}, spec)

    def _iter_flat(self) -> Iterator[list[np.ndarray]]:
        for parts in zip(*(d._iter_flat() for d in self._inputs)):
            yield [a for p in parts for a in p]

    def _card(self) -> int:
        result = INFINITE_CARDINALITY
        for d in self._inputs:
            n = d._card()
            if n == UNKNOWN_CARDINALITY:
                return n
            if n != INFINITE_CARDINALITY and (result == INFINITE_CARDINALITY or n < result):
                result = n
        return result


class _ConcatenateDataset(DatasetV2):
    _KIND = "ConcatenateDataset"

    def __init__(self, first: DatasetV2, second: DatasetV2) -> None:
        a, b = first.element_spec, second.element_spec
        try:
            assert_same_structure(a, b)
            ok = all(x.dtype == y.dtype for x, y in zip(flatten(a), flatten(b)))
        except ValueError:
            ok = False
        if not ok:
            raise TypeError(f"Incompatible dataset elements:\n  {a!r} vs.   {b!r}")
        spec = pack_as(a, [TensorSpec(most_specific_compatible_shape(x.shape, y.shape), x.dtype)
                           for x, y in zip(flatten(a), flatten(b))])
        super().__init__((first, second), {}, spec)

    def _iter_flat(self) -> Iterator[list[np.ndarray]]:
        yield from self._inputs[0]._iter_flat()
        yield from self._inputs[1]._iter_flat()

    def _card(self) -> int:
        n, m = self._inputs[0]._card(), self._inputs[1]._card()
        if INFINITE_CARDINALITY in (n, m):
            return INFINITE_CARDINALITY
        if UNKNOWN_CARDINALITY in (n, m):
            return UNKNOWN_CARDINALITY
        return n + m


# --- rebatching (tf.distribute) ----------------------------------------------------------------------
class _RebatchDataset(_UnaryDataset):
    """RebatchDatasetV2: unbatch().batch(n) with n cycling through `batch_sizes` (`Dataset.rebatch`)."""

    _KIND = "RebatchDatasetV2"

    def __init__(self, input_dataset: DatasetV2, batch_sizes: list[int], drop_remainder: bool = False,
                 element_spec: Any = None) -> None:
        if element_spec is None:
            shapes = [_shape_list(s.shape) for s in flatten(input_dataset.element_spec)]
            _rebatch.check_rebatch_rank(shapes, legacy=False)
            dims = [s[0] if s is not None else None for s in shapes]
            new_dim = _rebatch.rebatch_v2_static_dim(batch_sizes, dims, drop_remainder)
            element_spec = map_structure(lambda s: s._unbatch()._batch(new_dim) if s.shape.rank is not None
                                         else s, input_dataset.element_spec)
        super().__init__((input_dataset,), {"batch_sizes": tuple(batch_sizes), "drop_remainder": drop_remainder},
                         element_spec)

    def _iter_flat(self) -> Iterator[list[np.ndarray]]:
        p = self._params
        shapes = [_shape_list(s.shape) for s in self._flat_specs]
        np_dtypes = [object if s.dtype is dtypes.string else s.dtype.np for s in self._flat_specs]
        return _rebatch.iter_rebatch_v2(self._input._iter_flat(), p["batch_sizes"], p["drop_remainder"],
                                        shapes, np_dtypes)

    def _card(self) -> int:
        return UNKNOWN_CARDINALITY


class _LegacyRebatchDataset(_UnaryDataset):
    """Legacy RebatchDataset: every input batch split into `num_replicas` pieces (ceil-sized, maybe empty)."""

    _KIND = "RebatchDataset"

    def __init__(self, input_dataset: DatasetV2, num_replicas: int, element_spec: Any = None) -> None:
        if element_spec is None:
            shapes = [_shape_list(s.shape) for s in flatten(input_dataset.element_spec)]
            _rebatch.check_rebatch_rank(shapes, legacy=True)
            element_spec = map_structure(
                lambda s: s if s.shape.rank is None
                else s._unbatch()._batch(_rebatch.legacy_rebatch_dim(s.shape[0], num_replicas)),
                input_dataset.element_spec)
        super().__init__((input_dataset,), {"num_replicas": num_replicas}, element_spec)

    def _iter_flat(self) -> Iterator[list[np.ndarray]]:
        return _rebatch.iter_legacy_rebatch(self._input._iter_flat(), self._params["num_replicas"])

    def _card(self) -> int:
        return UNKNOWN_CARDINALITY


# --- pipeline utilities (used by tf.distribute's input pipeline) -----------------------------------
def replicate(dataset: DatasetV2) -> DatasetV2:
    """A structural copy of the whole pipeline with fresh iteration state (TF's `distribute.replicate`)."""
    return dataset._with_inputs(tuple(replicate(i) for i in dataset._inputs))


def component_shapes(dataset: DatasetV2) -> list[list[int | None] | None]:
    """Static shapes of the flattened components (None = unknown rank)."""
    return [_shape_list(s.shape) for s in flatten(dataset.element_spec)]


def cardinality(dataset: DatasetV2) -> Tensor:
    """`tf.data.experimental.cardinality(dataset)`."""
    return dataset.cardinality()


experimental = types.SimpleNamespace(
    AUTOTUNE=AUTOTUNE,
    INFINITE_CARDINALITY=INFINITE_CARDINALITY,
    UNKNOWN_CARDINALITY=UNKNOWN_CARDINALITY,
    SHARD_HINT=SHARD_HINT,
    AutoShardPolicy=AutoShardPolicy,
    AutotuneOptions=AutotuneOptions,
    DistributeOptions=DistributeOptions,
    ExternalStatePolicy=ExternalStatePolicy,
    OptimizationOptions=OptimizationOptions,
    ThreadingOptions=ThreadingOptions,
    Optional=Optional,
    cardinality=cardinality,
)
