"""`keras.layers.CategoryEncoding` (keras/src/layers/preprocessing/category_encoding.py) and Keras's
`encode_categorical_inputs` (utils/numerical_utils.py) on TF: integer category indices to
one-hot, multi-hot or count vectors of `num_tokens` slots. Inputs of rank <= 2 in "multi_hot" /
"count" mode (and "one_hot", which Keras sends the same way) go through `tf.math.bincount(minlength =
maxlength = depth, axis=-1)`, which ignores indices >= depth; larger ranks through one_hot. A
RaggedTensor of rank 2 (TextVectorization's split tokens) counts each row the same way (TF's
RaggedBincount); in "one_hot" mode each of its values becomes a one-hot row (tf.one_hot's ragged
dispatch: a ragged [batch, None, depth] result). With `sparse=True` the same paths give tf.SparseTensor
results as Keras's TF backend does: tf.sparse.bincount (tf_utils.sparse_bincount, dense shape (depth,) or
(batch, depth)) on the fast path, the backend's sparse one_hot / multi_hot otherwise."""

from __future__ import annotations

from typing import Any

from simdist import tf
from simdist.keras.layers.layer import Layer

__all__ = ["CategoryEncoding", "encode_categorical_inputs"]


def _sparse_bincount(inputs: Any, depth: int, binary_output: bool, dtype: Any, count_weights: Any) -> Any:
    """Keras's tf_utils.sparse_bincount: tf.sparse.bincount over the last axis, its values cast to `dtype`, its dense
    shape (depth,) or (rows, depth)."""
    result = tf.cast(tf.sparse.bincount(inputs, weights=count_weights, minlength=depth, maxlength=depth, axis=-1,
                                        binary_output=binary_output), dtype)
    shape = (depth,) if len(inputs.shape) == 1 else (tf.shape(result)[0], depth)
    return tf.SparseTensor(indices=result.indices, values=result.values, dense_shape=shape)


def _tf_encode(inputs: Any, output_mode: str, depth: int, dtype: Any, count_weights: Any, sparse: bool = False) -> Any:
    """Keras's tf_utils.tf_encode_categorical_inputs: a bincount over the last axis (sparse: _sparse_bincount)."""
    original_shape = inputs.shape
    if len(inputs.shape) == 0:
        inputs = tf.expand_dims(inputs, -1)
    if output_mode == "one_hot" and inputs.shape[-1] != 1:
        inputs = tf.expand_dims(inputs, -1)
    if len(inputs.shape) > 2:
        raise ValueError(f"When output_mode is not `'int'`, maximum supported output rank is 2. Received output_mode "
                         f"{output_mode} and input shape {original_shape}, which would result in output rank "
                         f"{len(inputs.shape)}.")
    binary_output = output_mode in ("multi_hot", "one_hot")
    if sparse:
        return tf.cast(_sparse_bincount(inputs, depth, binary_output, dtype, count_weights), dtype)
    result = tf.math.bincount(inputs, weights=count_weights, minlength=depth, maxlength=depth, dtype=dtype, axis=-1,
                              binary_output=binary_output)
    # (Keras's dense_bincount sets the result's shape (depth,) or (batch, depth): a TensorShape of depth, whose
    # Dimension refuses a NumPy float or bool num_tokens with TypeError where the bincount took it; TF 2.21 + Keras
    # 3.15 observed, npsweep67)
    result.set_shape(tf.TensorShape((depth,) if len(inputs.shape) == 1 else (inputs.shape.as_list()[0], depth)))
    return tf.cast(result, dtype)


def encode_categorical_inputs(inputs: Any, output_mode: str, depth: int, dtype: Any = "float32",
                              count_weights: Any = None, sparse: bool = False) -> Any:
    """Keras's encode_categorical_inputs (TF backend; `sparse`: tf.SparseTensor outputs)."""
    if output_mode == "int":
        return tf.cast(inputs, dtype)
    if isinstance(inputs, tf.RaggedTensor):
        if sparse and not (len(inputs.shape) <= 2 and output_mode in ("multi_hot", "count")):
            return _slow_encode(inputs, output_mode, depth, dtype, count_weights, sparse)
        if output_mode == "one_hot":
            return tf.ragged.map_flat_values(tf.one_hot, inputs, depth, dtype=dtype)
        if len(inputs.shape) <= 2 and output_mode in ("multi_hot", "count") and count_weights is None:
            return _tf_encode(inputs, output_mode, depth, dtype, count_weights, sparse)
        raise NotImplementedError(f"simdist's encode_categorical_inputs of a RaggedTensor of shape {inputs.shape} "
                                  f"(output_mode={output_mode}): only rank 2 without count_weights")
    if not isinstance(inputs, tf.SparseTensor):
        inputs = tf.convert_to_tensor(inputs)
    if len(inputs.shape) == 0:
        inputs = tf.expand_dims(inputs, -1)
    if len(inputs.shape) <= 2 and output_mode in ("multi_hot", "count"):
        try:
            return _tf_encode(inputs, output_mode, depth, dtype, count_weights, sparse)
        except ValueError:
            pass
    return _slow_encode(inputs, output_mode, depth, dtype, count_weights, sparse)


def _slow_encode(inputs: Any, output_mode: str, depth: int, dtype: Any, count_weights: Any, sparse: bool) -> Any:
    """encode_categorical_inputs' path past the bincount one: Keras's TF backend's one_hot and multi_hot (which
    convert the input to int64 first; dense or, with `sparse`, SparseTensor results) and a count as the sum of the
    one-hot rows, weighted by count_weights."""
    from simdist.keras.ops import tf_nn, tf_numpy  # noqa: PLC0415 - the Keras backend

    if output_mode == "multi_hot":
        return tf_nn.multi_hot(inputs, depth, dtype=dtype, sparse=sparse)
    if output_mode == "one_hot":
        if len(inputs.shape) > 1 and inputs.shape[-1] == 1:
            inputs = tf_numpy.reshape(inputs, tuple(inputs.shape[:-1]))
        return tf_nn.one_hot(inputs, depth, dtype=dtype, sparse=sparse)
    if count_weights is not None:
        dtype = count_weights.dtype
    one_hot = tf_nn.one_hot(inputs, depth, dtype=dtype, sparse=sparse)
    if count_weights is not None:
        one_hot = one_hot * tf_numpy.expand_dims(count_weights, -1)
    return tf_numpy.sum(one_hot, axis=1 if len(inputs.shape) > 1 else 0)


class CategoryEncoding(Layer):
    """`keras.layers.CategoryEncoding(num_tokens, output_mode="multi_hot")`: "one_hot", "multi_hot"
    ("binary" is its deprecated name) or "count" (optionally weighted by `count_weights`)."""

    def __init__(self, num_tokens: int | None = None, output_mode: str = "multi_hot", sparse: bool = False,
                 **kwargs: Any) -> None:
        super().__init__(**kwargs)
        if output_mode == "binary":
            output_mode = "multi_hot"
        if output_mode not in ("count", "one_hot", "multi_hot"):
            raise ValueError(f"Unknown arg for output_mode: {output_mode}")
        if num_tokens is None:
            raise ValueError("num_tokens must be set to use this layer. If the number of tokens is not known "
                             "beforehand, use the IntegerLookup layer instead.")
        if num_tokens < 1:
            raise ValueError(f"`num_tokens` must be >= 1. Received: num_tokens={num_tokens}.")
        self.num_tokens = num_tokens
        self.output_mode = output_mode
        self.sparse = sparse
        self._convert_input_args = False
        self._allow_non_tensor_positional_args = True   # (Keras's TFDataLayer)

    def compute_output_shape(self, input_shape: Any) -> tuple:
        if input_shape is not None and len(input_shape) == 0:
            return (self.num_tokens,)
        if self.output_mode == "one_hot":
            if input_shape[-1] != 1 or len(input_shape) == 1:
                return tuple(input_shape) + (self.num_tokens,)
            return tuple(input_shape[:-1]) + (self.num_tokens,)
        return tuple(input_shape[:-1]) + (self.num_tokens,)

    def call(self, inputs: Any, count_weights: Any = None) -> Any:
        # (the backend's convert_to_tensor: a SparseTensor or RaggedTensor stays one, cast)
        from simdist.keras.ops.shim import convert_to_tensor  # noqa: PLC0415

        if count_weights is not None:
            if self.output_mode != "count":
                raise ValueError(f"`count_weights` is not used when `output_mode` is not `'count'`. Received "
                                 f"`count_weights={count_weights}`.")
            count_weights = convert_to_tensor(count_weights, dtype=self.compute_dtype)
        return encode_categorical_inputs(convert_to_tensor(inputs), self.output_mode, self.num_tokens,
                                         dtype=self.dtype, count_weights=count_weights, sparse=self.sparse)

    def get_config(self) -> dict[str, Any]:
        return {**super().get_config(), "num_tokens": self.num_tokens, "output_mode": self.output_mode}
