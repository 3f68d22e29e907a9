"""Keras 3.15's data-adapter choice and epoch iterator for the TensorFlow backend
(keras/src/trainers/data_adapters/__init__.py `get_data_adapter`, epoch_iterator.py and
TFEpochIterator): which adapter reads fit/evaluate/predict's `x`, and the (begin_step,
end_step, iterator) executions of one epoch over the dataset distributed by the strategy."""

from __future__ import annotations

import contextlib
import types
import warnings
from typing import Any, Iterator

from simdist import tf
from simdist.keras import config as keras_config
from simdist.keras.trainers.data_adapter import ArrayDataAdapter, DataAdapter, TFDatasetAdapter, \
    can_convert_arrays, is_tf_dataset
from simdist.keras.trainers.generator_adapter import GeneratorDataAdapter
from simdist.keras.trainers.py_dataset import PyDataset, PyDatasetAdapter


def _is_distributed_dataset(x: Any) -> bool:
    return not isinstance(x, tf.data.Dataset) and is_tf_dataset(x)


def get_data_adapter(x: Any, y: Any = None, sample_weight: Any = None, batch_size: int | None = None,
                     steps_per_epoch: int | None = None, shuffle: Any = False,
                     class_weight: dict | None = None) -> DataAdapter:
    if isinstance(x, DataAdapter):
        return x
    if can_convert_arrays((x, y, sample_weight)):
        return ArrayDataAdapter(x, y, sample_weight=sample_weight, class_weight=class_weight, shuffle=shuffle,
                                batch_size=batch_size, steps=steps_per_epoch)
    if is_tf_dataset(x):
        if y is not None:
            _raise_unsupported_arg("y", "the targets", "tf.data.Dataset")
        if sample_weight is not None:
            _raise_unsupported_arg("sample_weights", "the sample weights", "tf.data.Dataset")
        if shuffle:
            warnings.warn("`shuffle=True` was passed, but will be ignored since the data `x` was provided as a "
                          "tf.data.Dataset. The Dataset is expected to already be shuffled (via "
                          "`.shuffle(buffer_size)`).", stacklevel=2)
        return TFDatasetAdapter(x, class_weight=class_weight)
    if isinstance(x, PyDataset):
        if y is not None:
            _raise_unsupported_arg("y", "the targets", "PyDataset")
        if sample_weight is not None:
            _raise_unsupported_arg("sample_weights", "the sample weights", "PyDataset")
        if getattr(x, "num_batches", None) is None and shuffle:
            warnings.warn("`shuffle=True` was passed, but will be ignored since the data `x` was provided as an "
                          "infinite PyDataset. The PyDataset is expected to already be shuffled.", stacklevel=2)
        return PyDatasetAdapter(x, class_weight=class_weight, shuffle=shuffle)
    if isinstance(x, types.GeneratorType):
        if y is not None:
            _raise_unsupported_arg("y", "the targets", "generator")
        if sample_weight is not None:
            _raise_unsupported_arg("sample_weights", "the sample weights", "generator")
        if class_weight is not None:
            raise ValueError("Argument `class_weight` is not supported for Python generator inputs. "
                             f"Received: class_weight={class_weight}")
        if shuffle:
            warnings.warn("`shuffle=True` was passed, but will be ignored since the data `x` was provided as a "
                          "generator. The generator is expected to yield already-shuffled data.", stacklevel=2)
        return GeneratorDataAdapter(x)
    if any(isinstance(v, (tf.SparseTensor, tf.RaggedTensor)) for v in tf.nest.flatten((x, y, sample_weight))):
        # (Keras slices them as arrays: array_slicing.py's TensorflowSparseWrapper and ragged slicing)
        raise NotImplementedError("simdist's fit/evaluate/predict do not slice SparseTensor or RaggedTensor arrays "
                                  "as Keras's ArrayDataAdapter does; pass a tf.data.Dataset of them instead "
                                  "(tf.data.Dataset.from_tensor_slices((x, y)).batch(batch_size))")
    raise ValueError(f"Unrecognized data type: x={x} (of type {type(x)})")


def _raise_unsupported_arg(arg_name: str, arg_description: str, input_type: str) -> None:
    raise ValueError(f"When providing `x` as a {input_type}, `{arg_name}` should not be passed. Instead, "
                     f"{arg_description} should be included as part of the {input_type}.")


# --- the epoch iterator -----------------------------------------------------------------------------
class EpochIterator:
    """Keras's TFEpochIterator: yields (begin_step, end_step, iterator) per execution, over a
    dataset distributed by the strategy."""

    def __init__(self, x: Any, y: Any = None, sample_weight: Any = None, batch_size: int | None = None,
                 steps_per_epoch: int | None = None, shuffle: Any = False, class_weight: dict | None = None,
                 steps_per_execution: int = 1, distribute_strategy: Any = None) -> None:
        max_steps_per_epoch = keras_config.max_steps_per_epoch()   # (Keras: keras.config.set_max_steps_per_epoch)
        if max_steps_per_epoch:
            if not steps_per_epoch or max_steps_per_epoch < steps_per_epoch:
                warnings.warn("Limiting steps_per_epoch to %d" % max_steps_per_epoch)
                steps_per_epoch = max_steps_per_epoch
        self.steps_per_epoch = steps_per_epoch
        self.steps_per_execution = steps_per_execution
        self._current_iterator: Any = None
        self._epoch_iterator: Any = None
        self._steps_seen = 0
        self.data_adapter = get_data_adapter(x=x, y=y, sample_weight=sample_weight, batch_size=batch_size,
                                             steps_per_epoch=steps_per_epoch, shuffle=shuffle,
                                             class_weight=class_weight)
        self._num_batches = self.data_adapter.num_batches
        self._distribute_strategy = distribute_strategy or tf.distribute.get_strategy()
        dataset = self.data_adapter.get_tf_dataset()
        self.element_key = _element_key(dataset)
        if not _is_distributed_dataset(dataset):
            dataset = self._distribute_strategy.experimental_distribute_dataset(dataset)
        self._distributed_dataset = dataset

    def _get_iterator(self) -> Any:
        return self._distributed_dataset

    def _interrupted_warning(self) -> None:
        warnings.warn("Your input ran out of data; interrupting training. Make sure that your dataset or generator "
                      "can generate at least `steps_per_epoch * epochs` batches. You may need to use the "
                      "`.repeat()` function when building your dataset.", stacklevel=2)

    def reset(self) -> None:
        self._current_iterator = None
        self._num_batches = self.data_adapter.num_batches
        self._steps_seen = 0
        self._epoch_iterator = None
        self.data_adapter.on_epoch_end()

    def _enumerate_iterator(self) -> Iterator[tuple[int, int, Any]]:
        self.data_adapter.on_epoch_begin()
        steps_per_epoch = self.steps_per_epoch or self._num_batches or -1
        if steps_per_epoch > 0:
            if self._current_iterator is None or self.steps_per_epoch is None:
                self._current_iterator = iter(self._get_iterator())
                self._steps_seen = 0
            for step in range(0, steps_per_epoch, self.steps_per_execution):
                if self._num_batches and self._steps_seen >= self._num_batches:
                    if self.steps_per_epoch:
                        self._interrupted_warning()
                    break
                self._steps_seen += self.steps_per_execution
                yield step, step + self.steps_per_execution - 1, self._current_iterator
            if self._num_batches and self._steps_seen >= self._num_batches:
                self._current_iterator = iter(self._get_iterator())
                self._steps_seen = 0
        else:
            iterator = iter(self._get_iterator())
            step = -self.steps_per_execution
            while True:
                step += self.steps_per_execution
                self._steps_seen = step + self.steps_per_execution
                yield step, step + self.steps_per_execution - 1, iterator
        self.data_adapter.on_epoch_end()

    def __iter__(self) -> "EpochIterator":
        self._epoch_iterator = self._enumerate_iterator()
        return self

    def __next__(self) -> tuple[int, int, Any]:
        return next(self._epoch_iterator)

    @contextlib.contextmanager
    def catch_stop_iteration(self) -> Iterator[None]:
        """An exhausted input ends the epoch (records the batch count if it was unknown)."""
        try:
            yield
        except (StopIteration, tf.errors.OutOfRangeError):
            if self._num_batches is None:
                self._num_batches = self._steps_seen
            self._interrupted_warning()
            self._current_iterator = None
            self.data_adapter.on_epoch_end()

    def traced_static_batch(self, function: Any) -> bool:
        """Whether the traced `function` (the model's train or test function) sees a static batch size for
        this iterator's elements: `static_batch`, after tf.function's reduce_retracing, which Keras 3.15's
        functions use. A call whose element type no trace of the same element structure covers is traced
        with the most specific common supertype of it and the earlier traces' (the batch dimension None
        when their sizes differ); a call a trace covers runs the most specific one. So once the function has
        traced batches of 4, a fit or evaluate by 6s (or one with a partial batch) runs with the batch
        dimension unknown, and batches of 4 later keep their static trace (observed on TF 2.21 + Keras 3.15: a
        custom train_step or test_step reading x.shape; kfuzz42). The traces are kept on the function,
        which compile replaces."""
        static = self.static_batch
        size = self.data_adapter.batch_size if static else None
        traces = function.__dict__.setdefault("_simdist_batch_traces", {}).setdefault(self.element_key, [])
        if size in traces:
            return static
        if None in traces:
            return False
        traces.append(None if traces else size)
        return static and len(traces) == 1

    @property
    def static_batch(self) -> bool:
        """Whether the traced step's inputs have a static batch size (simdist.keras.traced.data_batches):
        arrays batched without a partial last batch, split evenly over the strategy's replicas."""
        a = self.data_adapter
        if not isinstance(a, ArrayDataAdapter) or a.has_partial_batch:
            return False
        return a.batch_size % self._distribute_strategy.num_replicas_in_sync == 0

    @property
    def num_batches(self) -> int | None:
        if self.steps_per_epoch:
            return self.steps_per_epoch
        return self._num_batches


def _element_key(dataset: Any) -> str | None:
    """The structure, dtypes and non-batch dimensions of a dataset's elements: what decides whether two
    element types have a common supertype for tf.function (their batch sizes aside); None when unknown."""
    spec = getattr(dataset, "element_spec", None)
    if spec is None:
        return None
    leaves = []
    for s in tf.nest.flatten(spec):
        shape = getattr(s, "shape", None)
        dims = None if shape is None or shape.rank is None else tuple(shape.as_list()[1:])
        leaves.append((type(s).__name__, str(getattr(s, "dtype", None)), dims))
    return repr((tf.nest.map_structure(lambda _: 0, spec), leaves))
