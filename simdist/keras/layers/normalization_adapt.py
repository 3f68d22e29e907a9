"""`keras.layers.Normalization` (keras/src/layers/preprocessing/normalization.py): standardizes
inputs feature-wise, `(x - mean) / max(sqrt(variance), epsilon)` (`invert=True`: `mean + x *
max(sqrt(variance), epsilon)`), with mean and variance either given or learnt by `adapt(data)`:
over the axes not in `axis`, by NumPy for an ndarray (np.mean, np.var), by tf ops for a tensor,
and batch by batch for a Dataset or an iterable of batches (running mean and the
lack-of-fit-sum-of-squares variance update, as Keras). Clause keras.layer.normalization-adapt."""

from __future__ import annotations

import itertools
import math
from typing import Any

import numpy as np

from simdist import tf
from simdist.keras.layers.layer import Layer

__all__ = ["Normalization"]

EPSILON = 1e-7   # keras.config.epsilon()


def _var(x: Any, axis: Any) -> Any:
    """Keras's `ops.var` on TF: tf.math.reduce_variance in at least float32."""
    x = tf.convert_to_tensor(x)
    compute = x.dtype if x.dtype in (tf.float32, tf.float64) else tf.float32
    return tf.math.reduce_variance(tf.cast(x, compute) if x.dtype != compute else x, axis=axis)


def _mean(x: Any, axis: Any) -> Any:
    x = tf.convert_to_tensor(x)
    compute = x.dtype if x.dtype in (tf.float32, tf.float64) else tf.float32
    return tf.reduce_mean(tf.cast(x, compute) if x.dtype != compute else x, axis=axis)


def _first(batch: Any) -> Any:
    """Keras's _extract_batch: x of an (x, y) or (x, y, w) batch."""
    return batch[0] if isinstance(batch, tuple) else batch


class Normalization(Layer):
    """`keras.layers.Normalization(axis=-1, mean=None, variance=None, invert=False)`."""

    def __init__(self, axis: Any = -1, mean: Any = None, variance: Any = None, invert: bool = False,
                 **kwargs: Any) -> None:
        super().__init__(**kwargs)
        if axis is None:
            axis = ()
        elif isinstance(axis, int):
            axis = (axis,)
        else:
            axis = tuple(axis)
        self.axis = axis
        self.input_mean = mean
        self.input_variance = variance
        self.invert = invert
        self.supports_masking = True
        self._build_input_shape: Any = None
        self.mean: Any = None
        self._allow_non_tensor_positional_args = True   # (Keras's TFDataLayer)
        if (mean is not None) != (variance is not None):
            raise ValueError("When setting values directly, both `mean` and `variance` must be set. Received: "
                             f"mean={mean} and variance={variance}")
        if mean is not None:
            if np.shape(mean) != np.shape(variance):
                raise ValueError("When setting values directly, `mean` and `variance` must have the same shape. "
                                 f"Received: mean shape {np.shape(mean)} and variance shape {np.shape(variance)}")
            if len(np.shape(mean)) > len(self.axis):
                raise ValueError(f"The rank of `mean` must be less than or equal to the number of axes "
                                 f"({len(self.axis)}). Received: mean shape {np.shape(mean)} for axis {self.axis}")

    def build(self, input_shape: Any) -> None:
        if input_shape is None:
            return
        input_shape = tuple(input_shape)
        ndim = len(input_shape)
        self._build_input_shape = input_shape
        if any(a < -ndim or a >= ndim for a in self.axis):
            raise ValueError(f"All `axis` values must be in the range [-ndim, ndim). Received inputs with ndim={ndim}, "
                             f"while axis={self.axis}")
        self._keep_axis = tuple(sorted(d if d >= 0 else d + ndim for d in self.axis))
        for d in self._keep_axis:
            if input_shape[d] is None:
                raise ValueError(f"All `axis` values to be kept must have a known shape. Received axis={self.axis}, "
                                 f"inputs.shape={input_shape}, with unknown axis at index {d}")
        self._reduce_axis = tuple(d for d in range(ndim) if d not in self._keep_axis)
        self._broadcast_shape = [input_shape[d] if d in self._keep_axis else 1 for d in range(ndim)]
        self._mean_and_var_shape = tuple(input_shape[d] for d in self._keep_axis)
        if self.input_mean is None:
            self.adapt_mean = self.add_weight(name="mean", shape=self._mean_and_var_shape, initializer="zeros",
                                              trainable=False)
            self.adapt_variance = self.add_weight(name="variance", shape=self._mean_and_var_shape,
                                                  initializer="ones", trainable=False)
            self.count = self.add_weight(name="count", shape=(), dtype="int64", initializer="zeros", trainable=False)
            self.built = True
            self.finalize_state()
            return
        mean = tf.convert_to_tensor(self.input_mean)
        variance = tf.convert_to_tensor(self.input_variance)
        if len(mean.shape) != 0:
            expanded = [1] * ndim
            for i in range(1, len(mean.shape) + 1):
                expanded[self._keep_axis[-i]] = mean.shape[-i]
            mean = tf.reshape(mean, expanded)
            variance = tf.reshape(variance, expanded)
        self.mean = tf.cast(tf.broadcast_to(mean, self._broadcast_shape), self.compute_dtype)
        self.variance = tf.cast(tf.broadcast_to(variance, self._broadcast_shape), self.compute_dtype)
        self.built = True

    def adapt(self, data: Any) -> None:
        """Learns mean and variance from an ndarray, a tensor, a Dataset or an iterable of batches."""
        batches: Any = None
        if isinstance(data, np.ndarray) or isinstance(data, tf.Tensor):
            input_shape = tuple(data.shape)
        elif isinstance(data, tf.data.Dataset):
            spec = data.element_spec
            input_shape = tuple((spec[0] if isinstance(spec, tuple) else spec).shape)
            if len(input_shape) == 1:
                data = data.batch(128)
                spec = data.element_spec
                input_shape = tuple((spec[0] if isinstance(spec, tuple) else spec).shape)
            batches = data
        elif hasattr(data, "__iter__"):
            it = iter(data)
            first = next(it, None)
            if first is None:
                raise ValueError("adapt() received an empty iterable (no batches). Expected at least one batch. Pass a "
                                 "non-empty iterable of arrays or tensors, e.g. layer.adapt([x]) or "
                                 "layer.adapt(list_of_batches).")
            first = _first(first)
            if getattr(first, "shape", None) is None:
                raise TypeError("adapt() expects an iterable that yields arrays or tensors with a `.shape` attribute "
                                f"(e.g. numpy arrays or backend tensors). Got an element of type "
                                f"{type(first).__name__}.")
            input_shape = tuple(first.shape)
            batches = itertools.chain([first], it)
        else:
            raise TypeError(f"Unsupported data type: {type(data)}. `adapt` supports `np.ndarray`, backend tensors, "
                            "`tf.data.Dataset`, `keras.utils.PyDataset`, and iterables of batches (e.g. list, "
                            "generator).")
        if not self.built:
            self.build(input_shape)
        else:
            for d in self._keep_axis:
                if input_shape[d] != self._build_input_shape[d]:
                    raise ValueError(f"The layer was built with input_shape={self._build_input_shape}, but adapt() is "
                                     f"being called with data with an incompatible shape, data.shape={input_shape}")
        if isinstance(data, np.ndarray):
            total_mean: Any = np.mean(data, axis=self._reduce_axis)
            total_var: Any = np.var(data, axis=self._reduce_axis)
        elif batches is None:
            total_mean = _mean(data, self._reduce_axis)
            total_var = _var(data, self._reduce_axis)
        else:
            total_mean, total_var = self._adapt_batches(batches)
        self.adapt_mean.assign(total_mean)
        self.adapt_variance.assign(total_var)
        self.finalize_state()

    def _adapt_batches(self, batches: Any) -> tuple[Any, Any]:
        total_mean: Any = tf.zeros(self._mean_and_var_shape)
        total_var: Any = tf.zeros(self._mean_and_var_shape)
        total_count = 0
        for batch in batches:
            batch = _first(batch)
            # Keras's convert_to_tensor casts a tensor of another dtype (a float64 Dataset into a float32 layer)
            batch = (tf.cast(batch, self.compute_dtype) if isinstance(batch, tf.Tensor)
                     else tf.convert_to_tensor(batch, dtype=self.compute_dtype))
            for d in self._keep_axis:
                if batch.shape[d] is not None and batch.shape[d] != self._build_input_shape[d]:
                    raise ValueError(f"adapt() yielded a batch with incompatible shape. Expected "
                                     f"{self._build_input_shape}, got {tuple(batch.shape)}.")
            batch_mean = _mean(batch, self._reduce_axis)
            batch_var = _var(batch, self._reduce_axis)
            batch_count = math.prod(batch.shape[d] for d in self._reduce_axis) if self._reduce_axis else 1
            total_count += batch_count
            batch_weight = float(batch_count) / total_count
            existing_weight = 1.0 - batch_weight
            new_total_mean = total_mean * existing_weight + batch_mean * batch_weight
            total_var = ((total_var + (total_mean - new_total_mean) ** 2) * existing_weight
                         + (batch_var + (batch_mean - new_total_mean) ** 2) * batch_weight)
            total_mean = new_total_mean
        return total_mean, total_var

    def finalize_state(self) -> None:
        if self.input_mean is not None or not self.built:
            return
        self.mean = tf.cast(tf.reshape(self.adapt_mean, self._broadcast_shape), self.compute_dtype)
        self.variance = tf.cast(tf.reshape(self.adapt_variance, self._broadcast_shape), self.compute_dtype)

    def _after_variables_loaded(self) -> None:
        """Keras's load_own_variables: the mean and variance used come from the loaded variables."""
        self.finalize_state()

    def call(self, inputs: Any) -> Any:
        if self.mean is None:
            raise ValueError("You must call `.build(input_shape)` on the layer before using it.")
        from simdist.keras import ops   # (Keras's backend.numpy functions, with their dtype rules: an int32
        # compute dtype's sqrt and quotient are float32, as Keras computes them; keras.layer.arguments, asweep65)
        inputs = tf.convert_to_tensor(inputs, dtype=self.compute_dtype)
        denom = ops.maximum(ops.sqrt(self.variance), EPSILON)
        if self.invert:
            return ops.add(self.mean, ops.multiply(inputs, denom))
        return ops.divide(ops.subtract(inputs, self.mean), denom)

    def compute_output_shape(self, input_shape: Any) -> Any:
        return input_shape

    def get_config(self) -> dict[str, Any]:
        return {**super().get_config(), "axis": self.axis, "invert": self.invert,
                "mean": np.array(self.input_mean).tolist(), "variance": np.array(self.input_variance).tolist()}

    def get_build_config(self) -> dict[str, Any] | None:
        if self._build_input_shape:
            return {"input_shape": self._build_input_shape}
        return None

    def build_from_config(self, config: dict[str, Any] | None) -> None:
        if config:
            self.build(config["input_shape"])
