"""`keras.layers.Discretization` (keras/src/layers/preprocessing/discretization.py): bucket
indices of float inputs by `bin_boundaries` (TF's Bucketize: index i where boundaries[i-1] <= x
< boundaries[i]), optionally encoded one-hot / multi-hot / count; `adapt(data)` with `num_bins`
learns the boundaries from Keras's approximate quantile summaries (NumPy, transcribed)."""

from __future__ import annotations

from typing import Any

import numpy as np

from simdist import tf
from simdist.keras.layers.category_encoding import encode_categorical_inputs
from simdist.keras.layers.layer import Layer
from simdist.keras.ops.shim import bucketize_operands

__all__ = ["Discretization", "summarize", "merge_summaries", "compress_summary", "get_bin_boundaries"]


def summarize(values: np.ndarray, epsilon: float) -> np.ndarray:
    """Keras's summarize: every step-th sorted value, weighted by the step."""
    values = np.sort(np.reshape(values, [-1]))
    step = max(np.size(values) / (1.0 / epsilon), 1)
    boundaries = values[int(step - 1)::int(step)]
    return np.stack([boundaries, np.ones_like(boundaries) * step])


def compress_summary(summary: np.ndarray, epsilon: float) -> np.ndarray:
    """Keras's compress_summary: the summary resampled at the quantiles epsilon, 2·epsilon, …"""
    if summary.shape[1] * epsilon < 1:
        return summary
    percents = epsilon + np.arange(0.0, 1.0, epsilon)
    cum_weights = summary[1].cumsum()
    cum_weight_percents = cum_weights / cum_weights[-1]
    new_bins = np.interp(percents, cum_weight_percents, summary[0])
    cum_weights = np.interp(percents, cum_weight_percents, cum_weights)
    new_weights = cum_weights - np.concatenate((np.array([0]), cum_weights[:-1]))
    return np.stack((new_bins, new_weights)).astype("float32")


def merge_summaries(prev_summary: np.ndarray, next_summary: np.ndarray, epsilon: float) -> np.ndarray:
    merged = np.concatenate((prev_summary, next_summary), axis=1)
    merged = np.take(merged, np.argsort(merged[0]), axis=1)
    return compress_summary(merged, epsilon)


def get_bin_boundaries(summary: np.ndarray, num_bins: int) -> np.ndarray:
    return compress_summary(summary, 1.0 / num_bins)[0, :-1]


class Discretization(Layer):
    """`keras.layers.Discretization(bin_boundaries=None, num_bins=None, epsilon=0.01, output_mode="int")`."""

    def __init__(self, bin_boundaries: Any = None, num_bins: int | None = None, epsilon: float = 0.01,
                 output_mode: str = "int", sparse: bool = False, dtype: Any = None, name: str | None = None) -> None:
        super().__init__(name=name, dtype=dtype)
        if sparse and output_mode == "int":
            raise ValueError("`sparse=True` may only be used if `output_mode` is `'one_hot'`, `'multi_hot'`, or "
                             f"`'count'`. Received: sparse={sparse} and output_mode={output_mode}")
        if output_mode not in ("int", "one_hot", "multi_hot", "count"):
            raise ValueError("Unknown value for `output_mode` argument of Discretization. Allowed values are: ('int', "
                             f"'one_hot', 'multi_hot', 'count'). Received: output_mode={output_mode}")
        if num_bins is not None and num_bins < 0:
            raise ValueError(f"`num_bins` must be greater than or equal to 0. Received: `num_bins={num_bins}`")
        if num_bins is not None and bin_boundaries is not None:
            raise ValueError(f"Both `num_bins` and `bin_boundaries` should not be set. Received: `num_bins={num_bins}` "
                             f"and `bin_boundaries={bin_boundaries}`")
        if num_bins is None and bin_boundaries is None:
            raise ValueError("You need to set either `num_bins` or `bin_boundaries`.")
        self.bin_boundaries = bin_boundaries
        self.num_bins = num_bins
        self.epsilon = epsilon
        self.output_mode = output_mode
        self.sparse = sparse
        self.summary = None if bin_boundaries else np.array([[], []], dtype="float32")
        self._allow_non_tensor_positional_args = True   # (Keras's TFDataLayer)

    @property
    def input_dtype(self) -> str:
        return "float32"

    @property
    def output_dtype(self) -> str:
        return self.compute_dtype if self.output_mode != "int" else "int32"

    def adapt(self, data: Any, steps: int | None = None) -> None:
        if self.num_bins is None:
            raise ValueError("Cannot adapt a Discretization layer that has been initialized with `bin_boundaries`, "
                             "use `num_bins` instead.")
        self.reset_state()
        if isinstance(data, tf.data.Dataset):
            if steps is not None:
                data = data.take(steps)
            for batch in data:
                self.update_state(batch)
        elif hasattr(data, "__iter__") and not isinstance(data, (np.ndarray, tf.Tensor)):
            for i, batch in enumerate(data):
                if steps is not None and i >= steps:
                    break
                self.update_state(batch)
        else:
            self.update_state(data)
        self.finalize_state()

    def update_state(self, data: Any) -> None:
        data = np.array(data).astype("float32")
        self.summary = merge_summaries(summarize(data, self.epsilon), self.summary, self.epsilon)

    def finalize_state(self) -> None:
        if self.num_bins is None:
            return
        self.bin_boundaries = get_bin_boundaries(self.summary, self.num_bins).tolist()

    def reset_state(self) -> None:
        if self.num_bins is None:
            return
        self.summary = np.array([[], []], dtype="float32")

    def compute_output_shape(self, input_shape: Any) -> Any:
        if self.output_mode == "int":
            return input_shape
        depth = len(self.bin_boundaries) + 1 if self.bin_boundaries is not None else self.num_bins
        if self.output_mode == "one_hot":
            if input_shape and input_shape[-1] == 1 and len(input_shape) > 1:
                return tuple(input_shape[:-1]) + (depth,)
            return tuple(input_shape) + (depth,)
        if input_shape and len(input_shape) >= 2:
            return (input_shape[0],) + tuple(input_shape[2:]) + (depth,)
        return (depth,)

    def compute_output_spec(self, inputs: Any) -> Any:
        """Keras's: the output shape, in output_dtype (int32 bucket indices in "int" mode)."""
        from simdist.keras.keras_tensor import KerasTensor
        return KerasTensor(self.compute_output_shape(inputs.shape), dtype=self.output_dtype)

    def call(self, inputs: Any) -> Any:
        if self.bin_boundaries is None:
            raise ValueError("You need to either pass the `bin_boundaries` argument at construction time or call "
                             "`adapt(dataset)` before you can start using the `Discretization` layer.")
        x = tf.convert_to_tensor(inputs)
        if x.dtype.name in ("bool", "int8", "int16", "uint8", "uint16"):
            x = tf.cast(x, tf.int32)
        elif x.dtype.name == "uint32":
            x = tf.cast(x, tf.int64)
        elif x.dtype.name in ("bfloat16", "float16"):
            x = tf.cast(x, tf.float32)
        # TF's Bucketize: the number of boundaries <= x, i.e. searchsorted(side="right"), compared in
        # Bucketize's types (float32 boundaries; an integer input converted to float: shim.bucketize_operands)
        bins, flat = bucketize_operands(x, self.bin_boundaries)
        indices = tf.reshape(tf.searchsorted(bins, flat, side="right"), tf.shape(x))
        return encode_categorical_inputs(indices, self.output_mode, len(self.bin_boundaries) + 1,
                                         dtype=self.output_dtype, sparse=self.sparse)

    def get_config(self) -> dict[str, Any]:
        return {"bin_boundaries": self.bin_boundaries, "num_bins": self.num_bins, "epsilon": self.epsilon,
                "output_mode": self.output_mode, "sparse": self.sparse, "name": self.name, "dtype": self.dtype}

    @classmethod
    def from_config(cls, config: dict[str, Any], custom_objects: Any = None) -> "Discretization":
        if config.get("bin_boundaries") is not None and config.get("num_bins") is not None:
            config = dict(config)
            bin_boundaries = config.pop("bin_boundaries")
            layer = cls(**config)
            layer.bin_boundaries = bin_boundaries
            return layer
        return cls(**config)
