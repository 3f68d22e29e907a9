"""`keras.layers.HashedCrossing` (keras/src/layers/preprocessing/hashed_crossing.py) on TF: two or more
integer or string features of shape (), (batch,) or (batch, 1) crossed by `tf.sparse.cross_hashed`
(FarmHash fingerprints joined by FingerprintCat64, modulo `num_bins`), densified and brought back
to the inputs' rank; output_mode "int" (int64) or "one_hot"."""

from __future__ import annotations

from typing import Any

from simdist import tf
from simdist.keras.layers.argument_validation import validate_string_arg
from simdist.keras.layers.category_encoding import encode_categorical_inputs
from simdist.keras.layers.index_lookup import ensure_tensor
from simdist.keras.layers.layer import Layer

__all__ = ["HashedCrossing"]


class HashedCrossing(Layer):
    """`keras.layers.HashedCrossing(num_bins, output_mode="int", sparse=False)`."""

    def __init__(self, num_bins: int, output_mode: str = "int", sparse: bool = False, name: str | None = None,
                 dtype: Any = None, **kwargs: Any) -> None:
        if output_mode == "int" and dtype is None:
            dtype = "int64"
        super().__init__(name=name, dtype=dtype)
        validate_string_arg(output_mode, allowable_strings=("int", "one_hot"), caller_name=self.__class__.__name__,
                            arg_name="output_mode")
        self.num_bins = num_bins
        self.output_mode = output_mode
        self.sparse = sparse
        self._allow_non_tensor_positional_args = True
        self._convert_input_args = False
        self.supports_jit = False

    def compute_output_shape(self, input_shape: Any) -> tuple:
        if not len(input_shape) == 2 or not isinstance(input_shape[0], tuple) or not isinstance(input_shape[1],
                                                                                                tuple):
            raise ValueError(f"Expected as input a list/tuple of 2 tensors. Received input_shape={input_shape}")
        if input_shape[0][-1] != input_shape[1][-1]:
            raise ValueError(f"Expected the two input tensors to have identical shapes. Received "
                             f"input_shape={input_shape}")
        if self.output_mode == "int":
            return tuple(input_shape[0])
        if self.output_mode == "one_hot" and input_shape[0][-1] != 1:
            return tuple(input_shape[0]) + (self.num_bins,)
        return tuple(input_shape[0])[:-1] + (self.num_bins,)

    def call(self, inputs: Any) -> Any:
        self._check_at_least_two_inputs(inputs)
        inputs = [ensure_tensor(x) for x in inputs]
        self._check_input_shape_and_type(inputs)
        first_shape = tuple(inputs[0].shape)
        rank = len(first_shape)
        if rank < 2:
            inputs = [tf.expand_dims(x, -1) for x in inputs]
        if rank < 1:
            inputs = [tf.expand_dims(x, -1) for x in inputs]
        outputs = tf.sparse.to_dense(tf.sparse.cross_hashed(inputs, self.num_bins))
        if rank == 1:
            outputs = tf.squeeze(outputs, axis=1)
        elif rank == 0:
            outputs = tf.reshape(outputs, [])
        outputs = encode_categorical_inputs(outputs, output_mode=self.output_mode, depth=self.num_bins,
                                            dtype=self.compute_dtype, sparse=self.sparse)
        return outputs

    def get_config(self) -> dict[str, Any]:
        return {"num_bins": self.num_bins, "output_mode": self.output_mode, "sparse": self.sparse, "name": self.name,
                "dtype": self.dtype}

    def _check_at_least_two_inputs(self, inputs: Any) -> None:
        if not isinstance(inputs, (list, tuple)):
            raise ValueError(f"`HashedCrossing` should be called on a list or tuple of inputs. Received: "
                             f"inputs={inputs}")
        if len(inputs) < 2:
            raise ValueError(f"`HashedCrossing` should be called on at least two inputs. Received: inputs={inputs}")

    def _check_input_shape_and_type(self, inputs: list) -> None:
        first_shape = tuple(inputs[0].shape)
        rank = len(first_shape)
        if rank > 2 or (rank == 2 and first_shape[-1] != 1):
            raise ValueError("All `HashedCrossing` inputs should have shape `()`, `(batch_size)` or `(batch_size, 1)`. "
                             f"Received: inputs={inputs}")
        if not all(tuple(x.shape) == first_shape for x in inputs[1:]):
            raise ValueError(f"All `HashedCrossing` inputs should have equal shape. Received: inputs={inputs}")
        if any(isinstance(x, tf.SparseTensor) for x in inputs):
            raise ValueError(f"All `HashedCrossing` inputs should be dense tensors. Received: inputs={inputs}")
        if not all(tf.as_dtype(x.dtype).is_integer or x.dtype == tf.string for x in inputs):
            raise ValueError(f"All `HashedCrossing` inputs should have an integer or string dtype. Received: "
                             f"inputs={inputs}")
