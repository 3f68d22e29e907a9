"""`DataLayer` (keras/src/layers/preprocessing/data_layer.py): a layer safe in a tf.data
pipeline. Its `backend` is Keras's TensorFlow backend (the transcribed simdist/keras/ops/tf_*.py
modules and keras.random), which is also what Keras's DynamicBackend switches to under
`ds.map(layer)`; there, as in Keras, the inputs are first converted to the compute dtype."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

from simdist import tf
from simdist.keras import random
from simdist.keras.layers.layer import Layer
from simdist.keras.ops import shim, tf_core, tf_image, tf_math, tf_nn, tf_numpy

__all__ = ["DataLayer", "TF_BACKEND"]

TF_BACKEND = SimpleNamespace(
    name="tensorflow", _backend="tensorflow", numpy=tf_numpy, image=tf_image, math=tf_math, nn=tf_nn,
    core=tf_core, random=random, cast=tf_core.cast, shape=tf_core.shape, convert_to_tensor=shim.convert_to_tensor)


class DataLayer(Layer):
    """A single-input layer whose `call` uses `self.backend` ops (Keras's TF backend)."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.backend = TF_BACKEND
        self._allow_non_tensor_positional_args = True

    def __call__(self, inputs: Any, **kwargs: Any) -> Any:
        if not tf.executing_eagerly() and not _is_symbolic(inputs):
            # Keras: in a TF graph (a tf.data map, a tf.function) every input becomes a tensor of
            # the compute dtype and the layer's own conversion is skipped.
            inputs = tf.nest.map_structure(lambda x: shim.convert_to_tensor(x, dtype=self.compute_dtype), inputs)
            switched = self._convert_input_args
            self._convert_input_args = False
            try:
                return super().__call__(inputs, **kwargs)
            finally:
                if switched:
                    self._convert_input_args = True
        return super().__call__(inputs, **kwargs)

    def _get_seed_generator(self, backend: Any = None) -> Any:
        if not hasattr(self, "seed") or not hasattr(self, "generator"):
            raise ValueError("The `seed` and `generator` variable must be set in the `__init__` method before "
                             "calling `_get_seed_generator()`.")
        return self.generator


def _is_symbolic(inputs: Any) -> bool:
    from simdist.keras.keras_tensor import KerasTensor
    return any(isinstance(x, KerasTensor) for x in tf.nest.flatten(inputs))
