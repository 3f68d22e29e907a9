"""`keras.layers.Hashing` (keras/src/layers/preprocessing/hashing.py): values hashed to `num_bins`
bins by `tf.strings.to_hash_bucket_fast` (FarmHash Fingerprint64 modulo the bins), or with a `salt`
(an int k is [k, k]) by `tf.strings.to_hash_bucket_strong` (SipHash-2-4 keyed by it), of their string form (integers printed by `tf.as_string`, floats cast to int64
first); with `mask_value`, bin 0 is reserved for it and the others shift by one; then encoded
as CategoryEncoding does for output_mode "one_hot" / "multi_hot" / "count"."""

from __future__ import annotations

from typing import Any

from simdist import tf
from simdist.keras.layers.category_encoding import encode_categorical_inputs
from simdist.keras.layers.layer import Layer

__all__ = ["Hashing"]


class Hashing(Layer):
    """`keras.layers.Hashing(num_bins, mask_value=None, salt=None, output_mode="int", sparse=False)`."""

    def __init__(self, num_bins: int, mask_value: Any = None, salt: Any = None, output_mode: str = "int",
                 sparse: bool = False, **kwargs: Any) -> None:
        if kwargs.get("dtype") is None:
            kwargs["dtype"] = "int64" if output_mode == "int" else "float32"
        super().__init__(**kwargs)
        if num_bins is None or num_bins <= 0:
            raise ValueError(f"The `num_bins` for `Hashing` cannot be `None` or non-positive values. Received: "
                             f"num_bins={num_bins}.")
        if output_mode == "int" and self.dtype_policy.name not in ("int32", "int64"):
            raise ValueError(f"When `output_mode=\"int\"`, `dtype` should be an integer type, 'int32' or 'in64'. "
                             f"Received: dtype={kwargs['dtype']}")
        accepted = ("int", "one_hot", "multi_hot", "count")
        if output_mode not in accepted:
            raise ValueError(f"Invalid value for argument `output_mode`. Expected one of {accepted}. Received: "
                             f"output_mode={output_mode}")
        if sparse and output_mode == "int":
            raise ValueError("`sparse` may only be true if `output_mode` is `\"one_hot\"`, `\"multi_hot\"`, or "
                             f"`\"count\"`. Received: sparse={sparse} and output_mode={output_mode}")
        self.num_bins = num_bins
        self.mask_value = mask_value
        self.strong_hash = salt is not None
        self.output_mode = output_mode
        self.sparse = sparse
        self.salt = None
        if salt is not None:
            if isinstance(salt, (tuple, list)) and len(salt) == 2:
                self.salt = list(salt)
            elif isinstance(salt, int):
                self.salt = [salt, salt]
            else:
                raise ValueError("The `salt` argument for `Hashing` can only be a tuple of size 2 integers, or a "
                                 f"single integer. Received: salt={salt}.")
        self._convert_input_args = False
        self._allow_non_tensor_positional_args = True

    def compute_output_shape(self, input_shape: Any) -> tuple:
        if self.output_mode == "int":
            return tuple(input_shape)
        if len(input_shape) == 0:
            return (self.num_bins,)
        return tuple(input_shape[:-1]) + (self.num_bins,)

    def _hash_values_to_bins(self, values: Any) -> Any:
        hash_bins = self.num_bins
        mask = None
        if self.mask_value is not None and hash_bins > 1:
            hash_bins -= 1
            mask = tf.equal(values, tf.constant(self.mask_value, dtype=values.dtype))
        if values.dtype.is_floating:
            values = tf.cast(values, "int64")
        if values.dtype != tf.string:
            values = tf.strings.as_string(values)
        if self.strong_hash:   # SipHash-2-4 keyed by the salt
            values = tf.strings.to_hash_bucket_strong(values, hash_bins, key=self.salt)
        else:
            values = tf.strings.to_hash_bucket_fast(values, hash_bins)
        if mask is not None:
            values = tf.add(values, tf.ones_like(values))
            values = tf.where(mask, tf.zeros_like(values), values)
        return values

    def call(self, inputs: Any) -> Any:
        # (Keras's tf_utils.ensure_tensor: a RaggedTensor or SparseTensor stays one; a sparse input's values are
        # hashed in place, a ragged one's by the string ops' ragged dispatch; psweep59)
        if not isinstance(inputs, (tf.Tensor, tf.RaggedTensor, tf.SparseTensor)):
            inputs = tf.convert_to_tensor(inputs)
        if self.output_mode == "one_hot" and inputs.shape[-1] == 1:
            inputs = tf.squeeze(inputs, axis=-1)
        if isinstance(inputs, tf.SparseTensor):
            indices = tf.SparseTensor(indices=inputs.indices, values=self._hash_values_to_bins(inputs.values),
                                      dense_shape=inputs.dense_shape)
        else:
            indices = self._hash_values_to_bins(inputs)
        return encode_categorical_inputs(indices, self.output_mode, self.num_bins, dtype=self.dtype, sparse=self.sparse)

    def get_config(self) -> dict[str, Any]:
        return {**super().get_config(), "num_bins": self.num_bins, "salt": self.salt, "mask_value": self.mask_value,
                "output_mode": self.output_mode, "sparse": self.sparse}
