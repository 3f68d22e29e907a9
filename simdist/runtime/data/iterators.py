"""Iterating a dataset: `OwnedIterator` (`iter(ds)`), `as_numpy_iterator()` and
`tf.experimental.Optional` (TF's iterator_ops.py and optional_ops.py)."""

from __future__ import annotations

from typing import Any, Iterator

import numpy as np

from simdist.runtime import context, dtypes, errors
from simdist.runtime.cost import tally
from simdist.runtime.ops import static_shapes
from simdist.runtime.data import checkpoint_state, components, graph_get_next, resources
from simdist.runtime.data.elements import _to_tensor, host_device
from simdist.runtime.spec import TensorSpec, flatten, map_structure, pack_as
from simdist.runtime.tensor import Tensor


class Optional:
    """`tf.experimental.Optional`: a value or nothing, with the value's element spec."""

    def __init__(self, value: Any, element_spec: Any, has_value: bool, device: str | None = None) -> None:
        self._value = value
        self._element_spec = element_spec
        self._has_value = has_value
        # (where the optional's variant lives, and with it OptionalGetValue's outputs: where it was made, by
        # from_value or a distributed iterator's get_next_as_optional on the caller's device, by an iterator's on
        # the iterator's; observed on TF 2.21 with two logical CPUs, clause function.output-device)
        self._device = context.current_device() if device is None else device

    @staticmethod
    def from_value(value: Any) -> "Optional":
        """The Optional holding `value`. A structure without components (`{}`, `()`, nested empties) is the
        OptionalFromValue op's attr check, as on TF 2.21: InvalidArgumentError eagerly, ValueError when a
        tf.function traces it (spec `dataset.api-surface`)."""
        if not _is_distributed(value) and not flatten(value):
            _refuse_no_components()
        tensors = map_structure(_to_tensor, value) if not _is_distributed(value) else value
        spec = map_structure(lambda t: TensorSpec(t.shape, t.dtype), tensors) if not _is_distributed(value) \
            else None
        return Optional(tensors, spec, True)

    @staticmethod
    def _no_components_error(traced: bool) -> Exception:
        """The error of `from_value` of a structure without components where AutoGraph does not convert
        the caller (Keras's do_not_convert step functions): InvalidArgumentError eagerly, op_def_library's
        plain ValueError at trace."""
        if traced:
            return ValueError(_NO_COMPONENTS_TRACED)
        return errors.InvalidArgumentError(None, None, _NO_COMPONENTS_EAGER)

    @staticmethod
    def empty(element_spec: Any) -> "Optional":
        return Optional(None, element_spec, False)

    def has_value(self, name: str | None = None) -> Tensor:
        return Tensor(np.asarray(self._has_value), dtypes.bool_)

    def get_value(self, name: str | None = None) -> Any:
        if not self._has_value:
            raise errors.InvalidArgumentError(None, None, "The given optional does not have a value.")
        mismatch = getattr(self, "_mismatch", None)
        if mismatch is not None:   # (bound to an OptionalSpec of other dtypes: tf/_signature.py, names43b)
            raise errors.InvalidArgumentError(None, None, mismatch)
        if context.in_function():
            return self._value
        from simdist.runtime.call_outputs import placed
        return placed(self._value, self._device)

    @property
    def element_spec(self) -> Any:
        return self._element_spec


_NO_COMPONENTS_EAGER = ("Length for attr 'Toutput_types' of 0 must be at least minimum 1\n\t; NodeDef: {{node "
                        "OptionalFromValue}}; Op<name=OptionalFromValue; signature=components: -> optional:variant; "
                        "attr=Toutput_types:list(type),min=1> [Op:OptionalFromValue] name: ")
_NO_COMPONENTS_TRACED = "Attr 'Toutput_types' of 'OptionalFromValue' Op passed list of length 0 less than minimum 1."


def _refuse_no_components() -> None:
    """OptionalFromValue's `Toutput_types: list(type), min=1` with no components: TF 2.21's eager
    InvalidArgumentError, marked with op_def_library's ValueError that a tf.function's trace raises."""
    from simdist.runtime.ops import trace_errors
    raise trace_errors.static(errors.InvalidArgumentError(None, None, _NO_COMPONENTS_EAGER), ValueError,
                              _NO_COMPONENTS_TRACED)


def _is_distributed(value: Any) -> bool:
    from simdist.runtime.values import contains_distributed
    return contains_distributed(value)


class OwnedIterator:
    """Eager iterator over a Dataset (`iter(ds)`): `next()`, `get_next()`, `get_next_as_optional()`."""
    _simdist_trackable = True   # a TF Trackable: tf.train.Checkpoint takes it (runtime/trackable.py)

    def __init__(self, dataset: DatasetV2) -> None:
        dataset._check_iterable()
        self._dataset = dataset
        self._produced = 0                       # elements returned (the position a checkpoint saves)
        # the shuffle epochs its iteration started from (its making takes them: shuffle.made_at_make)
        self._epochs: list[int] | None = checkpoint_state.epochs(dataset)
        self._it = resources.owned(dataset._iter_flat(), dataset.options(), dataset)

    # --- checkpoints (clause dataset.iterator-checkpoint) ------------------------------------------------
    def _checkpoint_state(self) -> dict[str, np.ndarray]:
        """What a tf.train.Checkpoint saves of it: its position, as the number of elements returned,
        whether it is exhausted, the shuffle epochs its iteration started from and the pipeline's node
        kinds. A pipeline whose functions made a stateful op is TF's FailedPreconditionError."""
        for node in checkpoint_state.pipeline(self._dataset):
            for name in checkpoint_state.stateful_ops(node):
                raise errors.FailedPreconditionError(None, None, f"{name} is stateful. [Op:SerializeIterator]")
        epochs = self._epochs if self._epochs is not None else checkpoint_state.epochs(self._dataset)
        return {"produced": np.asarray(self._produced, np.int64), "exhausted": np.asarray(self._it is None),
                "epochs": np.asarray(epochs, np.int64), "kinds": np.asarray(checkpoint_state.kinds(self._dataset))}

    def _restore_checkpoint_state(self, state: dict[str, np.ndarray], save_path: str) -> None:
        """Return to a saved position: a new iteration from the saved shuffle epochs, the saved number of
        elements replayed through the pipeline (their FLOPs not counted again: TF restores its buffers
        without recomputing them), exhausted if it was."""
        kinds = [str(k) for k in state["kinds"].tolist()]
        if kinds != checkpoint_state.kinds(self._dataset):
            raise errors.NotFoundError(None, None, f"Error when restoring from checkpoint or SavedModel at {save_path}: "
                                                   "Failed to restore dataset: the checkpoint's iterator was over the "
                                                   f"pipeline {kinds}, this one is over "
                                                   f"{checkpoint_state.kinds(self._dataset)}")
        epochs = [int(e) for e in state["epochs"].tolist()]
        checkpoint_state.set_epochs(self._dataset, epochs)
        it = resources.owned(self._dataset._iter_flat(), self._dataset.options())
        produced = int(state["produced"])
        flops = tally.flops
        try:
            for _ in range(produced):
                next(it)
        finally:
            tally.flops = flops
        self._it = None if bool(state["exhausted"]) else it
        self._produced, self._epochs = produced, epochs

    @property
    def element_spec(self) -> Any:
        return self._dataset.element_spec

    def __iter__(self) -> "OwnedIterator":
        return self

    def _next_flat(self) -> list[np.ndarray] | None:
        if self._it is None:
            return None
        if self._epochs is None:   # (its first pull starts the iteration: the epochs it reads, for a checkpoint)
            self._epochs = checkpoint_state.epochs(self._dataset)
        try:
            flat = next(self._it)
        except StopIteration:
            self._it = None
            return None
        self._produced += 1
        return flat

    def __next__(self) -> Any:
        if context.in_function():   # (a graph's IteratorGetNext: runtime/data/graph_get_next.py)
            graph_get_next.counted(self, 1)
        flat = self._next_flat()
        if flat is None:
            if context.in_function():
                raise graph_get_next.end(1)
            raise StopIteration
        return self._element(flat)

    def next(self) -> Any:
        return self.__next__()

    def get_next(self, name: str | None = None) -> Any:
        flat = self._next_flat()
        if flat is None:
            raise errors.OutOfRangeError(None, None, "End of sequence")
        return self._element(flat)

    def get_next_as_optional(self) -> Optional:
        flat = self._next_flat()
        if flat is None:
            return Optional.empty(self.element_spec)
        return Optional(self._element(flat), self.element_spec, True, host_device())

    def _element(self, flat: list[np.ndarray]) -> Any:
        """The next element; inside a tf.function, a graph's IteratorGetNext output: its tensors' dimensions that
        the element spec leaves unknown (a batch's size) are unknown to the graph, so an op whose shape function
        cannot see a mismatch there fails when it runs (InvalidArgumentError), not while TF builds the graph
        (clause function.trace-time-errors)."""
        element = self._dataset._pack(flat)
        if not context.in_function():
            return element
        leaves = [static_shapes.argument(t, s.shape) if isinstance(s, TensorSpec) else t
                  for t, s in zip(flatten(element), flatten(self.element_spec))]
        return pack_as(element, leaves)


Iterator = OwnedIterator


class _NumpyIterator:
    """`as_numpy_iterator()`: elements as NumPy values in the element's structure."""

    def __init__(self, dataset: DatasetV2) -> None:
        dataset._check_iterable()
        self._dataset = dataset
        self._it = resources.owned(dataset._iter_flat(), dataset.options())

    def __iter__(self) -> "_NumpyIterator":
        return self

    def __next__(self) -> Any:
        flat = next(self._it)
        if self._dataset._composite:
            spec = self._dataset.element_spec
            return pack_as(spec, components.numpy_leaves(spec, flat))
        return pack_as(self._dataset.element_spec,
                       [a[()] if a.ndim == 0 else components.read_only(a) for a in flat])

    next = __next__
