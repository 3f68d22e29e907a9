"""The dataset base, `tf.data.Dataset` (TF's dataset_ops.py): the node every transformation makes,
its methods (which build the kinds defined in the sibling modules), and the unary and options nodes."""

from __future__ import annotations

import copy
import types
from typing import Any, Callable, Iterator

import numpy as np

from simdist.runtime import dtypes
from simdist.runtime.data import components
from simdist.runtime.data.elements import (AUTOTUNE, _bool_arg, host_device, INFINITE_CARDINALITY, _INT64_MAX, _int_arg,
                                           _normalize_fn_output, probe_arrays, _to_tensor,
                                           UNKNOWN_CARDINALITY)
from simdist.runtime.data.iterators import _NumpyIterator, OwnedIterator
from simdist.runtime.data.options import Options
from simdist.runtime.ragged_tensor import RaggedTensorSpec
from simdist.runtime.sparse_tensor import SparseTensorSpec
from simdist.runtime.spec import TensorSpec, flatten, map_structure, pack_as
from simdist.runtime.tensor import Tensor
from simdist.runtime.type_specs import TypeSpec


def _truthy(spec: Any) -> bool:
    """Python truth of TF's output_types and output_shapes structures built from a signature: a lone
    TensorShape is true when its rank is known, a tuple or dict when it is not empty."""
    if isinstance(spec, TensorSpec):
        return spec.shape.rank is not None
    return bool(spec)


class DatasetV2:
    """`tf.data.Dataset`: a node of a lazy input pipeline.

    `kind` is TF's op name, `inputs` the upstream datasets, `params` the op's parameters.
    """
    _simdist_trackable = True   # a TF Trackable: tf.train.Checkpoint takes it (runtime/trackable.py)

    _KIND = "Dataset"

    def __init__(self, inputs: tuple["DatasetV2", ...], params: dict[str, Any], element_spec: Any) -> None:
        self._inputs = tuple(inputs)
        self._params = dict(params)
        self._element_spec = element_spec
        # the specs of the flat components (a SparseTensor leaf has three: components.py)
        self._flat_specs: list[TensorSpec] = components.flat_component_specs(element_spec)
        self._composite = components.has_composite(element_spec)
        # dataset-valued leaves (a window's DatasetSpec, passed on by take/skip/prefetch...): no dtype
        self._nested = any(not hasattr(s, "dtype") for s in self._flat_specs)

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

    def _probe_flat(self, size: int, fill: int) -> list[Any]:
        """A probe element of this dataset, flat (a function's spec probe: map_filter.py)."""
        if not self._composite:
            return probe_arrays(self._flat_specs, size, fill)
        return components.probe_flat(self._element_spec, size, fill, probe_arrays)

    def _check_iterable(self) -> None:
        """Errors TF raises when an iterator is created (not at the first element)."""
        for inp in self._inputs:
            inp._check_iterable()

    def _elements_device(self) -> str | None:
        """The device the elements live on when it is not the host CPU (copy_to_device's target,
        kept by the nodes that pass elements through unchanged), else None."""
        return None

    def _pack(self, flat: list[np.ndarray], device: str | None = None) -> Any:
        if device is None:
            device = self._elements_device() or host_device()
        if self._nested:
            from simdist.runtime.data.window import nested_leaf
            leaves = [nested_leaf(a, s) if not hasattr(s, "dtype") else Tensor(a, s.dtype, device)
                      for a, s in zip(flat, self._flat_specs)]
        else:
            leaves = [Tensor(a, s.dtype, device) for a, s in zip(flat, self._flat_specs)]
        if self._composite:
            return components.pack(self._element_spec, leaves)
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
        names = ("stop",) if len(args) == 1 else ("start", "stop", "step")
        ints = [_int_arg(a, w) for a, w in zip(args, names)]
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
                if not isinstance(s, (TensorSpec, RaggedTensorSpec, SparseTensorSpec)):
                    if isinstance(s, TypeSpec):
                        raise NotImplementedError(f"from_generator: simdist's datasets carry tensors, "
                                                  f"SparseTensors and RaggedTensors, not {s!r}")
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
        # TF's from_generator_op: checks and converts each element as output_types/output_shapes say
        # when every leaf is a TensorSpec and both structures are truthy (an unknown-rank TensorShape
        # alone is not), else as normalize_element + are_compatible against the signature
        legacy = all(isinstance(s, TensorSpec) for s in flatten(spec)) and _truthy(spec)
        return _FlatMapDataset(generator, tuple(args) if args is not None else (), spec, legacy)

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
        return _BatchDataset(self, _int_arg(batch_size, "batch_size"), _bool_arg(drop_remainder), num_parallel_calls)

    def padded_batch(self, batch_size: Any, padded_shapes: Any = None, padding_values: Any = None,
                     drop_remainder: Any = False, name: str | None = None) -> "DatasetV2":
        """Batch, padding each component to `padded_shapes` (unknown dims: the longest in the batch)."""
        return _PaddedBatchDataset(self, _int_arg(batch_size, "batch_size"), padded_shapes, padding_values,
                                   _bool_arg(drop_remainder))

    def ragged_batch(self, batch_size: Any, drop_remainder: Any = False, row_splits_dtype: Any = dtypes.int64,
                     name: str | None = None) -> "DatasetV2":
        """Batches whose components of unknown dims are RaggedTensors (ragged_batch.py)."""
        from simdist.runtime.data.ragged_batch import ragged_batch
        return ragged_batch(self, batch_size, drop_remainder, row_splits_dtype)

    def sparse_batch(self, batch_size: Any, row_shape: Any, name: str | None = None) -> "DatasetV2":
        """Up to `batch_size` dense elements as one SparseTensor of dense shape [n] + `row_shape`."""
        from simdist.runtime.data.sparse_batch import sparse_batch
        return sparse_batch(self, batch_size, row_shape)

    def unbatch(self, name: str | None = None) -> "DatasetV2":
        return _UnbatchDataset(self)

    def rebatch(self, batch_size: Any, drop_remainder: bool = False, name: str | None = None) -> "DatasetV2":
        """Rebatch into `batch_size` (an int or a list cycled through): like unbatch().batch(n)."""
        if isinstance(batch_size, Tensor) and batch_size.dtype != dtypes.int64:
            # (rebatch_op: convert_to_tensor(batch_sizes, dtype=int64) of an int32 tensor; dsweep65)
            raise ValueError(f"batch_sizes: Tensor conversion requested dtype int64 for Tensor with dtype "
                             f"{batch_size.dtype.name}: {batch_size!r}")
        sizes = [int(b) for b in np.atleast_1d(np.asarray(batch_size._v if isinstance(batch_size, Tensor)
                                                          else batch_size))]
        return _RebatchDataset(self, sizes, bool(drop_remainder))

    def repeat(self, count: Any = None, name: str | None = None) -> "DatasetV2":
        return _RepeatDataset(self, -1 if count is None else _int_arg(count, "count"))

    def shard(self, num_shards: Any, index: Any, name: str | None = None) -> "DatasetV2":
        return _ShardDataset(self, _int_arg(num_shards, "num_shards"), _int_arg(index, "index"))

    def map(self, map_func: Callable[..., Any], num_parallel_calls: Any = None, deterministic: Any = None,
            synchronous: Any = None, use_unbounded_threadpool: bool = False, name: str | None = None) -> "DatasetV2":
        if num_parallel_calls is None:
            return _MapDataset(self, map_func)
        return _ParallelMapDataset(self, map_func, num_parallel_calls)

    def filter(self, predicate: Callable[..., Any], name: str | None = None) -> "DatasetV2":
        return _FilterDataset(self, predicate)

    def flat_map(self, map_func: Callable[..., Any], name: str | None = None) -> "DatasetV2":
        """The elements of the datasets `map_func` returns for each element, in order."""
        return _FlatMapFnDataset(self, map_func)

    def interleave(self, map_func: Callable[..., Any], cycle_length: Any = None, block_length: Any = None,
                   num_parallel_calls: Any = None, deterministic: Any = None, name: str | None = None) -> "DatasetV2":
        """The datasets `map_func` returns, `block_length` elements from each of `cycle_length` in turn."""
        return _interleave(self, map_func, cycle_length, block_length, num_parallel_calls, deterministic)

    def scan(self, initial_state: Any, scan_func: Callable[[Any, Any], Any], name: str | None = None) -> "DatasetV2":
        """`scan_func(state, element) -> (new_state, output)` over the elements, from `initial_state`."""
        return _ScanDataset(self, initial_state, scan_func)

    def take_while(self, predicate: Callable[..., Any], name: str | None = None) -> "DatasetV2":
        """The elements up to (not including) the first one `predicate` refuses."""
        return _TakeWhileDataset(self, predicate)

    def unique(self, name: str | None = None) -> "DatasetV2":
        """The elements without repeats, in first-seen order (int32, int64 or string; one component)."""
        return _UniqueDataset(self)

    @staticmethod
    def counter(start: Any = 0, step: Any = 1, dtype: Any = dtypes.int64, name: str | None = None) -> "DatasetV2":
        """`start`, `start + step`, ... forever (TF builds it as a scan over `from_tensors(0).repeat()`)."""
        return _counter(start, step, dtype)

    def group_by_window(self, key_func: Callable[..., Any], reduce_func: Callable[..., Any], window_size: Any = None,
                        window_size_func: Callable[..., Any] | None = None, name: str | None = None) -> "DatasetV2":
        """Group elements by `key_func`; each full (or, at the end, partial) group goes to `reduce_func`."""
        from simdist.runtime.data.group_by_window import group_by_window
        return group_by_window(self, key_func, reduce_func, window_size, window_size_func)

    def bucket_by_sequence_length(self, element_length_func: Callable[..., Any], bucket_boundaries: Any,
                                  bucket_batch_sizes: Any, padded_shapes: Any = None, padding_values: Any = None,
                                  pad_to_bucket_boundary: bool = False, no_padding: bool = False,
                                  drop_remainder: bool = False, name: str | None = None) -> "DatasetV2":
        """Batch elements by length bucket (group_by_window over the bucket id, padded_batch per window)."""
        from simdist.runtime.data.group_by_window import bucket_by_sequence_length
        return bucket_by_sequence_length(self, element_length_func, bucket_boundaries, bucket_batch_sizes,
                                         padded_shapes, padding_values, pad_to_bucket_boundary, no_padding,
                                         drop_remainder)

    @staticmethod
    def list_files(file_pattern: Any, shuffle: Any = None, seed: Any = None, name: str | None = None) -> "DatasetV2":
        """The files matching `file_pattern`, sorted; shuffled unless `shuffle=False`."""
        from simdist.runtime.data.readers import list_files
        return list_files(file_pattern, shuffle, seed)

    @staticmethod
    def random(seed: Any = None, rerandomize_each_iteration: Any = None, name: str | None = None) -> "DatasetV2":
        """PhiloxRandom's uint32 outputs for `seed` (random_seed.get_seed's pair), as int64, forever."""
        return _sampling.random(seed, rerandomize_each_iteration)

    @staticmethod
    def sample_from_datasets(datasets: Any, weights: Any = None, seed: Any = None, stop_on_empty_dataset: bool = False,
                             rerandomize_each_iteration: Any = None) -> "DatasetV2":
        """Elements of `datasets` drawn at random with `weights` (TF's seeded selector: the same order)."""
        return _sampling.sample_from_datasets(datasets, weights, seed, stop_on_empty_dataset,
                                              rerandomize_each_iteration)

    @staticmethod
    def choose_from_datasets(datasets: Any, choice_dataset: Any, stop_on_empty_dataset: bool = True) -> "DatasetV2":
        """Elements of `datasets` in the order `choice_dataset`'s int64 indices name."""
        return _sampling.choose_from_datasets(datasets, choice_dataset, stop_on_empty_dataset)

    def get_single_element(self, name: str | None = None) -> Any:
        """The dataset's only element (InvalidArgumentError when it has none or more than one)."""
        return _get_single_element(self)

    def window(self, size: Any, shift: Any = None, stride: Any = 1, drop_remainder: Any = False,
               name: str | None = None) -> "DatasetV2":
        """Windows of `size` elements every `shift`, `stride` apart, each component a dataset."""
        return _window(self, size, shift, stride, drop_remainder)

    def ignore_errors(self, log_warning: Any = False, name: str | None = None) -> "DatasetV2":
        """The elements without those whose computation raised an error (logged with `log_warning`)."""
        from simdist.runtime.data.ignore_errors import _IgnoreErrorsDataset
        return _IgnoreErrorsDataset(self, log_warning)

    def save(self, path: Any, compression: Any = None, shard_func: Callable[..., Any] | None = None,
             checkpoint_args: Any = None) -> None:
        """Write the dataset to the directory `path` in TF's format (save_load.py)."""
        from simdist.runtime.data.save_load import save
        save(self, path, compression, shard_func, checkpoint_args)

    @staticmethod
    def load(path: Any, element_spec: Any = None, compression: Any = None,
             reader_func: Callable[["DatasetV2"], "DatasetV2"] | None = None, wait: bool = False) -> "DatasetV2":
        """The dataset a `save` (simdist's or TF's) wrote to `path`."""
        from simdist.runtime.data.save_load import load
        return load(path, element_spec, compression, reader_func, wait)

    def rejection_resample(self, class_func: Callable[..., Any], target_dist: Any, initial_dist: Any = None,
                           seed: Any = None, name: str | None = None) -> "DatasetV2":
        """(class, element) pairs resampled to `target_dist` (TF's composition: rejection_resample.py)."""
        from simdist.runtime.data.rejection_resample import rejection_resample
        return rejection_resample(self, class_func, target_dist, initial_dist, seed)

    def snapshot(self, path: Any, compression: Any = "AUTO", reader_func: Any = None,
                 shard_func: Callable[..., Any] | None = None, name: str | None = None) -> "DatasetV2":
        """The elements, written to `path` on a first complete pass and read from there after (snapshot.py)."""
        from simdist.runtime.data.snapshot import snapshot
        return snapshot(self, path, compression, reader_func, shard_func)

    def take(self, count: Any, name: str | None = None) -> "DatasetV2":
        return _TakeDataset(self, _int_arg(count, "count"))

    def skip(self, count: Any, name: str | None = None) -> "DatasetV2":
        return _SkipDataset(self, _int_arg(count, "count"))

    def prefetch(self, buffer_size: Any, name: str | None = None) -> "DatasetV2":
        if buffer_size is None:   # (prefetch_op._PrefetchDataset: None is AUTOTUNE; dsweep65)
            buffer_size = AUTOTUNE
        size = _int_arg(buffer_size, "buffer_size")
        if not isinstance(buffer_size, (int, type(None))):
            # (TF passes `legacy_autotune=(buffer_size == AUTOTUNE)` to the op, whose bool attr refuses NumPy's
            # np.False_ and a tensor's comparison: TypeError after the int64 conversion; TF 2.21 observed, blind61b)
            shown = "np.False_" if size != -1 else "np.True_"
            if isinstance(buffer_size, Tensor):
                shown = f"<tf.Tensor: shape=(), dtype=bool, numpy={size == -1}>"
            raise TypeError(f"Expected bool for argument 'legacy_autotune' not {shown}.")
        return _PrefetchDataset(self, size)

    def cache(self, filename: str = "", name: str | None = None) -> "DatasetV2":
        if filename:
            from simdist.runtime.data.file_cache import _FileCacheDataset
            return _FileCacheDataset(self, str(filename))
        return _CacheDataset(self)

    def shuffle(self, buffer_size: Any, seed: Any = None, reshuffle_each_iteration: Any = None,
                name: str | None = None) -> "DatasetV2":
        """A buffer shuffle with TF's order for its seeds (clause dataset.shuffle): the (seed, seed2)
        pair is resolved now, as TF's get_seed at construction (a global seed alone draws an op seed)."""
        from simdist.runtime.ops.random_gamma import tf_seeds
        if isinstance(seed, Tensor) and seed.dtype == dtypes.bool_:   # (random_seed.get_seed's int32 bound, TF 2.21)
            raise TypeError("Cannot convert 2147483647 to EagerTensor of dtype bool")
        op_seed = None if seed is None else _int_arg(seed)
        return _ShuffleDataset(self, _int_arg(buffer_size, "buffer_size"), op_seed,
                               True if reshuffle_each_iteration is None else bool(reshuffle_each_iteration),
                               tf_seeds(op_seed))

    def enumerate(self, start: Any = 0, name: str | None = None) -> "DatasetV2":
        """(index, element) pairs, index int64 from `start` (TF builds it as zip(range, self))."""
        return _ZipDataset((_RangeDataset(_int_arg(start, "start"), _INT64_MAX, 1, dtypes.int64), self))

    def concatenate(self, dataset: "DatasetV2", name: str | None = None) -> "DatasetV2":
        return _ConcatenateDataset(self, dataset)

    def apply(self, transformation_func: Callable[["DatasetV2"], "DatasetV2"]) -> "DatasetV2":
        out = transformation_func(self)
        if not isinstance(out, DatasetV2):
            raise TypeError("`transformation_func` must return a `tf.data.Dataset` object. "
                            f"Got {type(out)}.")
        return out

    def reduce(self, initial_state: Any, reduce_func: Callable[[Any, Any], Any], name: str | None = None) -> Any:
        """Fold the elements into a state: `state = reduce_func(state, element)` (reduce_func a
        tf.data function: its random ops seeded as a graph's, one iterator resource)."""
        from simdist.runtime.data import resources
        from simdist.runtime.data.functions import DatasetFunction
        from simdist.runtime.ops import random_graphs
        state = map_structure(_to_tensor, initial_state)
        trace = random_graphs.dataset_function()
        instance = random_graphs.instantiate(trace)
        fn = DatasetFunction(lambda both: reduce_func(*both), (state, self._element_spec), trace)
        kinds = [t.dtype for t in flatten(state)]
        _check_reduce_state(fn, state, self)
        for flat in resources.owned(self._iter_flat()):
            leaves = flatten(state)
            if fn is None or [t.dtype for t in leaves] != kinds:   # (a new state structure: its own function)
                fn = DatasetFunction(lambda both: reduce_func(*both), (state, self._element_spec), trace)
                kinds = [t.dtype for t in leaves]
            arrays = [np.asarray(t._v) for t in leaves] + flat
            state = _normalize_fn_output(fn.call(arrays, instance, host_device()))
        return state


Dataset = DatasetV2


def _check_reduce_state(fn: Any, state: Any, dataset: DatasetV2) -> None:
    """Dataset.reduce's trace-time check (dataset_ops.reduce, before any element is read, an empty dataset's too):
    the new state's dtypes must be the initial state's, else TypeError (TF 2.21 observed; clause dataset.api-surface,
    dsweep65)."""
    from simdist.runtime.data.map_filter import _probe_spec
    from simdist.runtime.data.scan import _StateAndElement
    state_spec = map_structure(lambda t: TensorSpec(t.shape, t.dtype), state)
    try:
        out = flatten(_probe_spec(fn, _StateAndElement(state_spec, [np.asarray(t._v) for t in flatten(state)],
                                                       dataset)))
    except Exception:  # noqa: BLE001 - a function that fails on its probes fails again on the first element, as before
        return
    old = [t.dtype for t in flatten(state)]
    new = [getattr(o, "dtype", None) for o in out]
    if len(new) == len(old) and new != old:
        raise TypeError(f"The element types for the new state must match the initial state. Expected "
                        f"{map_structure(lambda t: t.dtype, state)} but got {pack_as(state, new) if len(new) else new}.")


def _flatten_shapes(shapes: Any, types_: Any) -> list[Any]:
    """Shapes given alongside `output_types`: a shape may be a list/tuple of dims at a leaf position."""
    if isinstance(types_, dict):
        return [s for k in sorted(types_) for s in _flatten_shapes(shapes[k], types_[k])]
    if isinstance(types_, tuple):
        return [s for sh, t in zip(shapes, types_) for s in _flatten_shapes(sh, t)]
    return [shapes]


class _UnaryDataset(DatasetV2):
    @property
    def _input(self) -> DatasetV2:
        return self._inputs[0]


class _OptionsDataset(_UnaryDataset):
    _KIND = "OptionsDataset"

    def __init__(self, input_dataset: DatasetV2, options: Options) -> None:
        super().__init__((input_dataset,), {"options": options}, input_dataset.element_spec)

    def _iter_flat(self) -> Iterator[list[np.ndarray]]:
        return self._input._iter_flat()

    def _elements_device(self) -> str | None:
        return self._input._elements_device()

    def _card(self) -> int:
        return self._input._card()


# The kinds subclass DatasetV2, whose methods build them: imported once the base is defined.
from simdist.runtime.data.batching import _BatchDataset, _PaddedBatchDataset, _UnbatchDataset  # noqa: E402
from simdist.runtime.data.buffering import _CacheDataset, _PrefetchDataset  # noqa: E402
from simdist.runtime.data.combine import _ConcatenateDataset, _ZipDataset  # noqa: E402
from simdist.runtime.data.counting import _RepeatDataset, _SkipDataset, _TakeDataset  # noqa: E402
from simdist.runtime.data.map_filter import _FilterDataset, _FlatMapFnDataset, _MapDataset, _ParallelMapDataset  # noqa: E402,E501
from simdist.runtime.data.interleave import interleave as _interleave  # noqa: E402
from simdist.runtime.data.rebatch import _RebatchDataset  # noqa: E402
from simdist.runtime.data import sampling as _sampling  # noqa: E402
from simdist.runtime.data.scan import _ScanDataset, counter as _counter  # noqa: E402
from simdist.runtime.data.single_element import get_single_element as _get_single_element  # noqa: E402
from simdist.runtime.data.take_while import _TakeWhileDataset  # noqa: E402
from simdist.runtime.data.unique import _UniqueDataset  # noqa: E402
from simdist.runtime.data.window import window as _window  # noqa: E402
from simdist.runtime.data.shard import _ShardDataset  # noqa: E402
from simdist.runtime.data.shuffle import _ShuffleDataset  # noqa: E402
from simdist.runtime.data.sources import (_FlatMapDataset, _RangeDataset, _TensorDataset,  # noqa: E402
                                         _TensorSliceDataset)
