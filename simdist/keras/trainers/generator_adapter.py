"""Keras 3.15's GeneratorDataAdapter (keras/src/trainers/data_adapters/generator_data_adapter.py):
a Python generator of batches passed to fit/evaluate/predict becomes
`tf.data.Dataset.from_generator`, its signature taken from the first two batches."""

from __future__ import annotations

import itertools
from typing import Any, Callable, Iterator

from simdist import tf
from simdist.keras.trainers.data_adapter import DataAdapter
from simdist.keras.trainers.tensor_spec import NUM_BATCHES_FOR_TENSOR_SPEC, get_tensor_spec, map_structure


def peek_and_restore(generator: Iterator[Any]) -> tuple[list[Any], Callable[[], Iterator[Any]]]:
    """The first batches and a callable that yields them again followed by the rest."""
    batches = list(itertools.islice(generator, NUM_BATCHES_FOR_TENSOR_SPEC))
    return batches, lambda: itertools.chain(batches, generator)


def check_batch_shape(x: Any, spec: Any) -> Any:
    """A batch leaf must fit the signature the first batches gave (Keras's `convert_to_tf`)."""
    shape = tf.TensorShape(getattr(x, "shape", None))
    if not spec.shape.is_compatible_with(shape):
        raise TypeError(f"Generator yielded an element of shape {tuple(shape.as_list())} where an element of shape "
                        f"{tuple(spec.shape.as_list())} was expected. Your generator provides tensors with variable "
                        "input dimensions other than the batch size. Make sure that the generator's first two "
                        "batches do not have the same dimension value wherever there is a variable input dimension.")
    return x


class GeneratorDataAdapter(DataAdapter):
    """A Python generator of `(x,)`, `(x, y)` or `(x, y, sample_weight)` batches; its length is
    unknown (the epoch ends when it is exhausted) and it is consumed once, across epochs."""

    def __init__(self, generator: Iterator[Any]) -> None:
        first_batches, self.generator = peek_and_restore(generator)
        self._first_batches = first_batches
        self._output_signature: Any = None
        if not first_batches:
            raise ValueError("When passing a Python generator to a Keras model, the generator must yield at least "
                             "one batch. Received an empty generator.")
        if not isinstance(first_batches[0], tuple):
            raise ValueError("When passing a Python generator to a Keras model, the generator must return a tuple, "
                             "either (input,) or (inputs, targets) or (inputs, targets, sample_weights). "
                             f"Received: {first_batches[0]}")

    def get_tf_dataset(self) -> Any:
        if self._output_signature is None:
            self._output_signature = get_tensor_spec(self._first_batches)
        spec = self._output_signature

        def get_tf_iterator() -> Iterator[Any]:
            for batch in self.generator():
                yield map_structure(check_batch_shape, batch, spec)

        return tf.data.Dataset.from_generator(get_tf_iterator, output_signature=spec).prefetch(tf.data.AUTOTUNE)

    @property
    def num_batches(self) -> int | None:
        return None

    @property
    def batch_size(self) -> int | None:
        return None
