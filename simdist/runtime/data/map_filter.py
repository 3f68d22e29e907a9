"""The datasets that run a tf.data function per element: `map` (sequential and parallel),
`filter` and `flat_map`, with the output-spec probe of their functions (map's and filter's
traced once and replayed: runtime/data/functions.py)."""

from __future__ import annotations

import contextlib
import functools
import warnings
from typing import Any, Callable, Iterator

import numpy as np

from simdist.runtime import dtypes, errors, execution
from simdist.runtime import variable_creation as _creation
from simdist.runtime.ops import random_graphs
from simdist.runtime.ops import static_shapes as _static_shapes
from simdist.runtime.ops import trace_errors
from simdist.runtime.data import checkpoint_state, components, resources
from simdist.runtime.ragged_tensor import RaggedTensor, RaggedTensorSpec
from simdist.runtime.sparse_tensor import SparseTensor, SparseTensorSpec
from simdist.runtime.data.dataset import _UnaryDataset
from simdist.runtime.data.elements import (_apply, _call_with_element, _normalize_fn_output, probe_arrays,
                                           UNKNOWN_CARDINALITY, host_device)
from simdist.runtime.data.functions import DatasetFunction
from simdist.runtime.data.resumable import Steps, expand
from simdist.runtime.tensor import Tensor, TensorShape
from simdist.runtime.spec import (TensorSpec, assert_same_structure, flatten, map_structure,
                                  most_specific_compatible_shape, pack_as)


@contextlib.contextmanager
def _tracing(trace: random_graphs.Trace) -> Iterator[None]:
    """A probe call of a tf.data function, run as TF traces it: as the function's `trace` (its
    random kernels) and effect-free (an execution.Discarded collector open: tf.print writes nothing,
    as TF's trace never runs its PrintV2; its simulator charges are dropped)."""
    charges = execution.current().charges
    dropped = execution.Discarded()
    charges.append(dropped)
    try:
        with random_graphs.running(trace):
            yield
    finally:
        for i in range(len(charges) - 1, -1, -1):
            if charges[i] is dropped:
                del charges[i]
                break


def _element_function(fn: Callable[..., Any], input_dataset: DatasetV2) -> DatasetFunction:
    """The tf.data function `fn` of elements of `input_dataset` (its trace made now)."""
    return DatasetFunction(functools.partial(_apply, fn), input_dataset.element_spec,
                           random_graphs.dataset_function())


def _probe_spec(dfn: DatasetFunction, input_dataset: DatasetV2) -> Any:
    """The output spec of a tf.data function, from two probes on zero-filled elements.

    Two probes: unknown input dims 2 and values 0, then dims 3 and values 1; output dims that
    differ become None (so shapes that depend on input sizes or values come out unknown); when a
    kernel refuses a probe's values (not a shape function's error), the pair again with values 1 and
    2, then 2 and 3 (`_PROBE_FILLS`). The first probe is the function's trace (its Python runs, recorded: runtime/data/functions.py);
    the second, of the same shapes when the input spec is fully known, replays it. If a probe
    raises, the first real element is used instead and every output dim is left unknown (but those
    of an output whose op declared its shape function's shape: static_shapes.declare). The
    probes run as the function's trace (TF's tracing: its random ops draw from kernels no
    iterator uses, and the eager op-seed sequence is left alone).
    """
    device = host_device()
    # (a dataset's probe element, its SparseTensors valid ones; a scan's or reducer's state input: zeros)
    probe_flat = getattr(input_dataset, "_probe_flat", None) or \
        (lambda size, fill: probe_arrays(flatten(input_dataset.element_spec), size, fill))

    def probe(size: int, fill: int) -> Any:
        return _normalize_fn_output(dfn.probe(probe_flat(size, fill), device))

    first_error: Exception | None = None
    for k, (fill1, fill2) in enumerate(_PROBE_FILLS):
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                out1 = probe(2, fill1)
                out2 = probe(3, fill2)
            assert_same_structure(out1, out2)
            break
        except Exception as probe_error:  # noqa: BLE001 - fall back to a real element, re-raise if that fails too
            # (the fallback raises the first pair's error, of zero values: a later pair's values are the retry's
            # own, a string probe of value 1 no Example parses; parse_single_example of a missing feature keeps
            # TF's 'is required' error, test_io_parsing)
            if _creation.singleton(probe_error):   # (TF's second trace created a variable again: functions.py)
                raise
            first_error = first_error or probe_error
            if isinstance(probe_error, errors.OpError) and trace_errors.at_trace(probe_error) is None and \
                    k + 1 < len(_PROBE_FILLS):
                # (a kernel's error on the probe's values, which TF's symbolic trace never meets: `tf.image.resize`
                # to a height of an element's value 0; probes of other values may pass, open51)
                continue
            flat, out = _first_real_output(dfn, input_dataset, device, first_error)
            inputs = [(a, s) for a, s in zip(flat, flatten(input_dataset.element_spec)) if type(s) is TensorSpec]
            return map_structure(lambda t: _real_output_spec(t, inputs), out)
    leaves1, leaves2 = flatten(out1), flatten(out2)
    specs = [_common_spec(a, b) for a, b in zip(leaves1, leaves2)]
    return pack_as(out1, specs)


# The two probes' values (sizes 2 and 3), then others when a kernel refuses a probe's values.
_PROBE_FILLS = ((0, 1), (1, 2), (2, 3))
# Real elements a spec probe tries, at most, when the function (or the input) fails on the first ones.
_REAL_PROBES = 8


def _first_real_output(dfn: DatasetFunction, input_dataset: Any, device: str, probe_error: Exception) -> Any:
    """(The first real element the function does not fail on, flat; its output on it): the function's output on
    the first real element it does not fail on (an element whose own
    computation fails, or on which the function fails, is TF's error at iteration, not at build:
    `range(n).map(check_numerics failing at 0).ignore_errors()` builds); the probe's error when none
    of the first `_REAL_PROBES` elements does, or the input is empty (no pass of the input:
    checkpoint_state.kept_epochs)."""
    with checkpoint_state.kept_epochs(input_dataset):
        return _first_real_output_of(dfn, input_dataset, device, probe_error)


def _first_real_output_of(dfn: DatasetFunction, input_dataset: Any, device: str, probe_error: Exception) -> Any:
    it = input_dataset._iter_flat()
    for _ in range(_REAL_PROBES):
        try:
            flat = next(it)
        except StopIteration:
            break
        except errors.OpError:
            continue
        try:
            return flat, _normalize_fn_output(dfn.probe(flat, device))
        except errors.OpError:
            continue
    raise built(probe_error)


def built(err: BaseException) -> BaseException:
    """The error a tf.data transformation raises at build for its function's `err`: TF traces the function into a
    graph when the dataset is made, so an op error its graph build finds (op_def_library's TypeError, a shape
    function's ValueError: trace_errors' marks) is raised as that, with TF's "in user code:" frame; any other
    as it is (clause dataset.function-trace)."""
    traced = trace_errors.at_trace(err)
    return err if traced is None else traced.with_traceback(err.__traceback__)


def _real_output_spec(t: Any, inputs: list[tuple[Any, Any]]) -> Any:
    """An output's spec from a real element: an input the function returns as it is (its array, unchanged) keeps the
    input's spec (the labels zipped with the paths a loader maps), any other output `_unknown_dims_spec`'s."""
    v = getattr(t, "_v", None)
    for a, spec in inputs:
        if v is a:
            return spec
    return _unknown_dims_spec(t)


def _unknown_dims_spec(t: Any) -> Any:
    """An output's spec from a real element: its dims unknown (but a declared shape's)."""
    if isinstance(t, SparseTensor):
        return SparseTensorSpec([None] * t.shape.rank, t.dtype)
    if isinstance(t, RaggedTensor):
        return RaggedTensorSpec([None] * t.shape.rank, t.dtype, t.ragged_rank, t.row_splits_dtype)
    # (a declared shape, else the dimensions an op marked unknown as such and the others known: a decoded image's
    # channels; a tensor without marks keeps none, its shape possibly depending on the element's values)
    marked = _static_shapes.unknown(t) and not _static_shapes.rank_unknown(t)
    return TensorSpec(_static_shapes.declared(t) or (_static_shapes.known_shape(t) if marked else None)
                      or [None] * t.ndim, t.dtype)


def _common_spec(a: Any, b: Any) -> Any:
    """The spec of an output leaf from its two probes (dims that differ unknown)."""
    def kind(t: Any) -> str:
        return "SparseTensor" if isinstance(t, SparseTensor) else "RaggedTensor" if isinstance(t, RaggedTensor) \
            else "Tensor"
    if kind(a) != kind(b):
        raise TypeError(f"The tf.data function returned a {kind(a)} on one trace and a {kind(b)} on another")
    shape = most_specific_compatible_shape(a.shape, b.shape)
    flags = _static_shapes.unknown(a)   # (the recording probe's output: the dims its graph does not know, blind55)
    if flags is not None and shape.rank == len(flags) and not isinstance(a, (SparseTensor, RaggedTensor)):
        shape = TensorShape(None if _static_shapes.rank_unknown(a) else
                            [None if f else d for d, f in zip(shape.as_list(), flags)])
    if isinstance(a, SparseTensor):
        return SparseTensorSpec(shape, a.dtype)
    if isinstance(a, RaggedTensor):
        return RaggedTensorSpec(shape, a.dtype, a.ragged_rank, a.row_splits_dtype)
    return TensorSpec(shape, a.dtype)


class _FunctionDataset(_UnaryDataset):
    """A dataset node that runs a traced tf.data function on each element."""

    _trace: random_graphs.Trace

    def _instance(self) -> random_graphs.Trace:
        """The function's instance in the running iterator resource (its random kernels)."""
        return resources.instance(self._trace, lambda: random_graphs.instantiate(self._trace))


class _MapDataset(_FunctionDataset):
    _KIND = "MapDataset"

    def __init__(self, input_dataset: DatasetV2, map_func: Callable[..., Any],
                 num_parallel_calls: Any = None) -> None:
        self._fn = _element_function(map_func, input_dataset)
        self._trace = self._fn.trace
        spec = _probe_spec(self._fn, input_dataset)
        super().__init__((input_dataset,), {"map_func": map_func, "num_parallel_calls": num_parallel_calls},
                         spec)

    def _iter_flat(self) -> Iterator[list[np.ndarray]]:
        """A resumable iterator (resumable.Steps): an element whose function fails raises, and the
        next call maps the next element, as MapDataset's kernel does."""
        call = self._fn.call
        spec = self._element_spec
        # the common outputs checked without the general structure walk: one tensor, or a flat
        # tuple of tensors, of the spec's dtypes
        single = type(spec) is TensorSpec
        flat_tuple = type(spec) is tuple and all(type(s) is TensorSpec for s in spec)
        dts = [s.dtype for s in self._flat_specs]
        source = self._input._iter_flat()
        instance: list[random_graphs.Trace] = []   # (made at the first element: inside the iterator resource)

        def step() -> list[np.ndarray]:
            flat = next(source)
            if not instance:
                instance.append(self._instance())
            out = call(flat, instance[0], host_device())
            if single and type(out) is Tensor and out.dtype is dts[0]:
                return [np.asarray(out._v)]
            if flat_tuple and type(out) is tuple and len(out) == len(dts) and \
                    all(type(t) is Tensor and t.dtype is d for t, d in zip(out, dts)):
                return [np.asarray(t._v) for t in out]
            return self._checked(out)
        return Steps(step)

    def _checked(self, out: Any) -> list[np.ndarray]:
        """A function output in the general case: its structure and dtypes checked against the spec."""
        out = _normalize_fn_output(out)
        try:
            assert_same_structure(self._element_spec, out)
        except ValueError as e:
            raise errors.InvalidArgumentError(None, None, f"map function returned a different structure "
                                                          f"than when traced: {e}") from None
        leaves = flatten(out)
        for t, s in zip(leaves, flatten(self._element_spec)):
            if t.dtype != s.dtype or isinstance(t, SparseTensor) != isinstance(s, SparseTensorSpec) or \
                    isinstance(t, RaggedTensor) != isinstance(s, RaggedTensorSpec):
                raise errors.InvalidArgumentError(
                    None, None, f"map function returned a {t.dtype.name} {type(t).__name__} where its traced "
                    f"output spec is {s!r}")
        return [a for t in leaves for a in components.leaf_arrays(t)]

    def _card(self) -> int:
        return self._input._card()


class _ParallelMapDataset(_MapDataset):
    _KIND = "ParallelMapDatasetV2"

    def __init__(self, input_dataset: DatasetV2, map_func: Callable[..., Any], num_parallel_calls: Any = None) -> None:
        super().__init__(input_dataset, map_func, num_parallel_calls)   # (the function traced first, as TF's)
        # (ParallelMapDatasetV2's kernel: 0 or a negative count other than AUTOTUNE is InvalidArgumentError when the
        # dataset is made, eagerly; in a tf.function when the graph runs. TF 2.21 observed, blind63b)
        from simdist.runtime.data.elements import AUTOTUNE, _int_arg
        calls = _int_arg(num_parallel_calls, "num_parallel_calls")
        if calls <= 0 and calls != AUTOTUNE:
            raise errors.InvalidArgumentError(None, None, "num_parallel_calls must be greater than zero. "
                                              "[Op:ParallelMapDatasetV2]")


class _FilterDataset(_FunctionDataset):
    _KIND = "FilterDataset"

    def __init__(self, input_dataset: DatasetV2, predicate: Callable[..., Any]) -> None:
        self._fn = _element_function(predicate, input_dataset)
        self._trace = self._fn.trace
        spec = _probe_spec(self._fn, input_dataset)
        if not (isinstance(spec, TensorSpec) and spec.dtype == dtypes.bool_ and spec.shape.rank == 0):
            raise ValueError("Invalid `predicate`. `predicate` must return a `tf.bool` scalar tensor, but its "
                             f"return type is {spec!r}.")
        super().__init__((input_dataset,), {"predicate": predicate}, input_dataset.element_spec)

    def _iter_flat(self) -> Iterator[list[np.ndarray]]:
        """A resumable iterator (resumable.Steps), as `_MapDataset`'s."""
        call = self._fn.call
        source = self._input._iter_flat()
        instance: list[random_graphs.Trace] = []

        def step() -> list[np.ndarray]:
            while True:
                flat = next(source)
                if not instance:
                    instance.append(self._instance())
                keep = call(flat, instance[0], host_device())
                if type(keep) is not Tensor:
                    keep = _normalize_fn_output(keep)
                if bool(np.asarray(keep._v)):
                    return flat
        return Steps(step)

    def _card(self) -> int:
        return UNKNOWN_CARDINALITY


class _FlatMapFnDataset(_FunctionDataset):
    """`flat_map(map_func)`: the elements of the dataset `map_func` returns for each element, in
    order (TF's FlatMapDataset; its function traced once, its element spec the returned
    dataset's, merged over two probes as `map`'s)."""

    _KIND = "FlatMapDataset"

    def __init__(self, input_dataset: DatasetV2, map_func: Callable[..., Any]) -> None:
        self._trace = random_graphs.dataset_function()
        spec = _probe_dataset_spec(map_func, input_dataset, self._trace)
        super().__init__((input_dataset,), {"map_func": map_func}, spec)

    def _iter_flat(self) -> Iterator[list[np.ndarray]]:
        """The returned datasets' elements in turn; an error (the input's, the function's or an inner
        dataset's) is passed on and the next call goes on where it was (FlatMapDataset's kernel)."""
        fn = self._params["map_func"]
        inp = self._input
        instance: list[Any] = []

        def handle(flat: list[np.ndarray]) -> Iterator[list[np.ndarray]]:
            if not instance:
                instance.append(self._instance())
            with random_graphs.running(instance[0]):
                inner = _returned_dataset(_call_with_element(fn, inp._pack(flat), self._trace))
            got = [s.dtype for s in inner._flat_specs]
            if got != [s.dtype for s in self._flat_specs]:
                raise errors.InvalidArgumentError(None, None, f"flat_map function returned a dataset of {got} "
                                                  f"elements where its traced spec is {self._element_spec!r}")
            return inner._iter_flat()
        return expand(inp._iter_flat, handle)

    def _card(self) -> int:
        return UNKNOWN_CARDINALITY


def _returned_dataset(out: Any) -> DatasetV2:
    from simdist.runtime.data.dataset import DatasetV2
    if not isinstance(out, DatasetV2):   # (TF 2.21 fails reading the returned value's dataset name)
        raise AttributeError(f"'{type(out).__name__}' object has no attribute '_name'")
    return out


def _probe_dataset_spec(fn: Callable[..., Any], input_dataset: DatasetV2, trace: random_graphs.Trace) -> Any:
    """The element spec of the datasets a flat_map function returns: `_probe_spec`'s two probes
    on the returned datasets' specs."""
    from simdist.runtime.data.dataset import DatasetV2
    specs = []
    for size, fill in ((2, 0), (3, 1)):
        arrays = input_dataset._probe_flat(size, fill)
        with _tracing(trace), warnings.catch_warnings():
            warnings.simplefilter("ignore")
            try:
                ds = _returned_dataset(_call_with_element(fn, input_dataset._pack(arrays), trace))
            except AttributeError:
                raise
            except Exception:  # noqa: BLE001 - a probe value the function refuses: the spec of a real element
                with checkpoint_state.kept_epochs(input_dataset):
                    first = next(input_dataset._iter_flat())
                try:
                    ds = _returned_dataset(_call_with_element(fn, input_dataset._pack(first), trace))
                except Exception as e:  # noqa: BLE001 - raised as the build raises it
                    raise built(e) from None
                return map_structure(lambda s: TensorSpec([None] * (s.shape.rank or 0) if s.shape.rank is not None
                                                          else None, s.dtype), ds.element_spec)
        assert isinstance(ds, DatasetV2)
        specs.append(ds.element_spec)
    assert_same_structure(specs[0], specs[1])
    merged = [TensorSpec(most_specific_compatible_shape(a.shape, b.shape), a.dtype)
              for a, b in zip(flatten(specs[0]), flatten(specs[1]))]
    return pack_as(specs[0], merged)
