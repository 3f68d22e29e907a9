"""Core layers (keras/src/layers/core/ and activations/): Dense, Embedding, Activation, ReLU,
Softmax, Dropout, Input/InputLayer; computed as Keras's TensorFlow backend computes them."""

from __future__ import annotations

from typing import Any

from simdist import tf
from simdist.keras import constraints
from simdist.keras import activations, dtype_promotion, initializers, regularizers
from simdist.keras.layers import lora
from simdist.keras.layers.input_spec import InputSpec
from simdist.keras.layers.layer import Layer

__all__ = ["Dense"]


def matmul(x: Any, kernel: Any) -> Any:
    """Keras's ops.matmul on TF for a kernel of rank 2: both operands cast to
    `result_type(x, kernel, float)` (a float16 input and a float32 kernel meet in float32), then
    tf.matmul for rank-2 inputs or tensordot over the last axis for higher ranks, the product
    cast to `result_type(x, kernel)`. A SparseTensor input takes the backend's own matmul (its sparse-dense
    product)."""
    if isinstance(x, tf.SparseTensor):
        from simdist.keras.ops import tf_numpy  # noqa: PLC0415 - Keras's TF backend, for sparse inputs only
        return tf_numpy.matmul(x, kernel)
    k = tf.convert_to_tensor(kernel)
    x = tf.convert_to_tensor(x)
    compute = dtype_promotion.result_type(x.dtype, k.dtype, float)
    result = dtype_promotion.result_type(x.dtype, k.dtype)
    x, k = dtype_promotion.convert_to(x, compute), dtype_promotion.convert_to(k, compute)
    out = tf.matmul(x, k) if len(x.shape) == 2 else tf.tensordot(x, k, axes=[[-1], [0]])
    return dtype_promotion.convert_to(out, result)


def bias_add(x: Any, bias: Any) -> Any:
    """Keras's ops.add(x, bias) on TF (keras/src/backend/tensorflow/numpy.py `add`): both promoted to their
    result type, then a rank-1 bias matching the last axis is tf.nn.bias_add when it has a dimension above 1
    (Keras squeezes the bias's 1s away and takes BiasAdd for exactly one dimension left): a one-unit Dense's bias
    of shape (1,) is tf.add, AddV2, whose gradient sums the batch as Sum does (blind53b: bias gradients of a
    one-unit Dense a few ulp off TF 2.21 from 8 rows on, BiasAddGrad's order)."""
    (x, b), _ = dtype_promotion.promote(x, bias)
    if len(x.shape) > 1 and len(b.shape) == 1 and b.shape[0] == x.shape[-1] and b.shape[0] != 1:
        return tf.nn.bias_add(x, b)
    return tf.add(x, b)


class Dense(lora.KernelLoRA, Layer):
    """`keras.layers.Dense(units, activation=None, use_bias=True, kernel_initializer="glorot_uniform",
    bias_initializer="zeros", ...)`: `activation(inputs @ kernel + bias)` on the last axis."""

    def __init__(self, units: int, activation: Any = None, use_bias: bool = True,
                 kernel_initializer: Any = "glorot_uniform", bias_initializer: Any = "zeros",
                 kernel_regularizer: Any = None, bias_regularizer: Any = None, activity_regularizer: Any = None,
                 kernel_constraint: Any = None, bias_constraint: Any = None, lora_rank: Any = None,
                 lora_alpha: Any = None, quantization_config: Any = None, **kwargs: Any) -> None:
        if not isinstance(units, int) or units <= 0:   # (a bool is an int: Dense(True) is one unit)
            raise ValueError(f"Received an invalid value for `units`, expected a positive integer. Received: "
                             f"units={units}")
        if quantization_config is not None:
            raise NotImplementedError("Dense(quantization_config=...): simdist's Dense does not implement "
                                      "quantization")
        super().__init__(activity_regularizer=activity_regularizer, **kwargs)
        self.units = units
        self.activation = activations.get(activation)
        self.use_bias = use_bias
        self.kernel_initializer = initializers.get(kernel_initializer)
        self.bias_initializer = initializers.get(bias_initializer)
        self.kernel_regularizer = regularizers.get(kernel_regularizer)
        self.bias_regularizer = regularizers.get(bias_regularizer)
        self.kernel_constraint = constraints.get(kernel_constraint)
        self.bias_constraint = constraints.get(bias_constraint)
        self.lora_rank = lora_rank
        self.lora_alpha = lora_alpha if lora_alpha is not None else lora_rank
        self.lora_enabled = False
        self.input_spec = InputSpec(min_ndim=2)
        self.supports_masking = True

    def build(self, input_shape: Any) -> None:
        kernel_shape = (input_shape[-1], self.units)
        self._kernel = self.add_weight(name="kernel", shape=kernel_shape, initializer=self.kernel_initializer,
                                       regularizer=self.kernel_regularizer, constraint=self.kernel_constraint)
        if self.use_bias:
            self.bias = self.add_weight(name="bias", shape=(self.units,), initializer=self.bias_initializer,
                                        regularizer=self.bias_regularizer, constraint=self.bias_constraint)
        else:
            self.bias = None
        self.input_spec = InputSpec(min_ndim=2, axes={-1: input_shape[-1]})
        self.built = True
        if self.lora_rank:
            self.enable_lora(self.lora_rank)   # (Keras 3.15: the constructor's lora_alpha becomes the rank)

    def call(self, inputs: Any, training: Any = None) -> Any:
        x = matmul(inputs, self.kernel)
        if self.bias is not None:
            x = bias_add(x, self.bias)
        if self.activation is not None:
            x = self.activation(x)
        return x

    def compute_output_shape(self, input_shape: Any) -> tuple:
        output_shape = list(input_shape)
        output_shape[-1] = self.units
        return tuple(output_shape)

    def get_config(self) -> dict[str, Any]:
        return {**super().get_config(), "units": self.units, "activation": activations.serialize(self.activation),
                "use_bias": self.use_bias, "kernel_initializer": initializers.serialize(self.kernel_initializer),
                "bias_initializer": initializers.serialize(self.bias_initializer),
                "kernel_regularizer": regularizers.serialize(self.kernel_regularizer),
                "bias_regularizer": regularizers.serialize(self.bias_regularizer),
                "kernel_constraint": constraints.serialize(self.kernel_constraint),
                "bias_constraint": constraints.serialize(self.bias_constraint),
                "quantization_config": None,   # (Keras 3.15 writes the field; simdist refuses a non-None one)
                **({"lora_rank": self.lora_rank, "lora_alpha": self.lora_alpha} if self.lora_rank else {})}


class Embedding(Layer):
    """`keras.layers.Embedding(input_dim, output_dim, embeddings_initializer="uniform")`: rows of
    the `embeddings` matrix gathered by index (negative indices count from the end, as Keras's
    `ops.take`); the matrix is read whole then gathered, so its gradient is IndexedSlices, as TF's."""

    def __init__(self, input_dim: int, output_dim: int, embeddings_initializer: Any = "uniform",
                 embeddings_regularizer: Any = None, embeddings_constraint: Any = None, mask_zero: bool = False,
                 weights: Any = None, lora_rank: Any = None, lora_alpha: Any = None, quantization_config: Any = None,
                 **kwargs: Any) -> None:
        for arg, value in (("input_dim", input_dim), ("output_dim", output_dim)):
            if not isinstance(value, int) or isinstance(value, bool) or value <= 0:
                raise ValueError(f"`{arg}` must be a positive integer. Received: {arg}={value} "
                                 f"(of type {type(value).__name__}).")
        if quantization_config is not None:
            raise NotImplementedError("Embedding(quantization_config=...): not implemented by simdist")
        if kwargs.pop("input_length", None) is not None:
            import warnings
            warnings.warn("Argument `input_length` is deprecated. Just remove it.")
        super().__init__(**kwargs)
        self.input_dim = input_dim
        self.output_dim = output_dim
        self.embeddings_initializer = initializers.get(embeddings_initializer)
        self.embeddings_regularizer = regularizers.get(embeddings_regularizer)
        self.embeddings_constraint = constraints.get(embeddings_constraint)
        self.mask_zero = mask_zero
        self.supports_masking = mask_zero
        self.autocast = False
        self.lora_rank = lora_rank
        self.lora_alpha = lora_alpha if lora_alpha is not None else lora_rank
        self.lora_enabled = False
        if weights is not None:
            self.build()
            if not (isinstance(weights, list) and len(weights) == 1):
                weights = [weights]
            self.set_weights(weights)

    def build(self, input_shape: Any = None) -> None:
        if self.built:
            return
        self._embeddings = self.add_weight(shape=(self.input_dim, self.output_dim),
                                           initializer=self.embeddings_initializer, name="embeddings",
                                           regularizer=self.embeddings_regularizer,
                                           constraint=self.embeddings_constraint, trainable=True)
        self.built = True
        if self.lora_rank:
            self.enable_lora(self.lora_rank)   # (Keras 3.15: the constructor's lora_alpha becomes the rank)

    @property
    def embeddings(self) -> Any:
        """The embeddings variable, or with LoRA the merged table (simdist/keras/layers/lora.py)."""
        if not self.built:
            raise AttributeError("You must build the layer before accessing `embeddings`.")
        if self.lora_enabled:
            return lora.merged(self, self._embeddings, self.lora_embeddings_a, self.lora_embeddings_b)
        return self._embeddings

    def enable_lora(self, rank: int, lora_alpha: Any = None, a_initializer: Any = "he_uniform",
                    b_initializer: Any = "zeros") -> None:
        """Keras's Embedding.enable_lora: trainable lora_embeddings_a (input_dim, rank) and lora_embeddings_b (rank,
        output_dim), the table frozen."""
        lora.enable(self, rank, lora_alpha, a_initializer, b_initializer, base="_embeddings",
                    names=("lora_embeddings_a", "lora_embeddings_b"), constraint=self.embeddings_constraint,
                    refusal="Lora is incompatible with embedding constraints. In order to enable lora on this layer, "
                            "remove the `embeddings_constraint` argument.", regularizer=self.embeddings_regularizer)

    @property
    def _saves_own_variables(self) -> bool:
        """With LoRA the layer writes its variable itself (the merged table)."""
        return self.lora_enabled

    def save_own_variables(self, store: Any) -> None:
        lora.save(store, [self.embeddings])

    def load_own_variables(self, store: Any) -> None:
        lora.load(self, store, [self._embeddings] if self.built else [], ("lora_embeddings_a", "lora_embeddings_b"))

    def call(self, inputs: Any) -> Any:
        if inputs.dtype not in (tf.int32, tf.int64):
            inputs = tf.cast(inputs, tf.int32)
        table = tf.convert_to_tensor(self.embeddings)
        n = tf.cast(tf.shape(table)[0], inputs.dtype)
        indices = tf.where(inputs < 0, inputs + n, inputs)
        out = tf.gather(table, indices, axis=0)
        return out if out.dtype.name == self.compute_dtype else tf.cast(out, self.compute_dtype)

    def compute_mask(self, inputs: Any, mask: Any = None) -> Any:
        """With mask_zero, True where the index is not 0 (clause keras.mask.propagation)."""
        if not self.mask_zero:
            return None
        return tf.not_equal(inputs, tf.zeros_like(inputs))

    def compute_output_shape(self, input_shape: Any) -> tuple:
        return (*input_shape, self.output_dim)

    def get_config(self) -> dict[str, Any]:
        return {**super().get_config(), "input_dim": self.input_dim, "output_dim": self.output_dim,
                "embeddings_initializer": initializers.serialize(self.embeddings_initializer),
                "embeddings_regularizer": regularizers.serialize(self.embeddings_regularizer),
                "activity_regularizer": regularizers.serialize(self.activity_regularizer),
                "embeddings_constraint": constraints.serialize(self.embeddings_constraint), "mask_zero": self.mask_zero,
                "quantization_config": None,
                **({"lora_rank": self.lora_rank, "lora_alpha": self.lora_alpha} if self.lora_rank else {})}


class Activation(Layer):
    """`keras.layers.Activation(activation)`: an activation function (or its name) as a layer."""

    def __init__(self, activation: Any, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.activation = activations.get(activation)
        self.supports_masking = True
        self._build_at_init()

    def call(self, inputs: Any) -> Any:
        return self.activation(inputs)

    def compute_output_shape(self, input_shape: Any) -> Any:
        return input_shape

    def get_config(self) -> dict[str, Any]:
        return {**super().get_config(), "activation": activations.serialize(self.activation)}


class ReLU(Layer):
    """`keras.layers.ReLU(max_value=None, negative_slope=0.0, threshold=0.0)`."""

    def __init__(self, max_value: float | None = None, negative_slope: float = 0.0, threshold: float = 0.0,
                 **kwargs: Any) -> None:
        super().__init__(**kwargs)
        if max_value is not None and max_value < 0.0:
            raise ValueError(f"max_value of a ReLU layer cannot be a negative value. Received: max_value={max_value}")
        if negative_slope is None or negative_slope < 0.0:
            raise ValueError("negative_slope of a ReLU layer cannot be None or a negative value. Received: "
                             f"negative_slope={negative_slope}")
        if threshold is None or threshold < 0.0:
            raise ValueError(f"threshold of a ReLU layer cannot be None or a negative value. Received: "
                             f"threshold={threshold}")
        self.max_value = max_value
        self.negative_slope = negative_slope
        self.threshold = threshold
        self.supports_masking = True
        self._build_at_init()

    def call(self, inputs: Any) -> Any:
        return activations.relu(inputs, negative_slope=self.negative_slope, max_value=self.max_value,
                                threshold=self.threshold)

    def compute_output_shape(self, input_shape: Any) -> Any:
        return input_shape

    def get_config(self) -> dict[str, Any]:
        return {**super().get_config(), "max_value": self.max_value, "negative_slope": self.negative_slope,
                "threshold": self.threshold}


def _check_mask_broadcasts(mask_shape: Any, input_shape: Any) -> None:
    """Keras 3.15's Softmax.call check: the mask has no more dimensions than the inputs and each of
    its trailing dimensions is 1 or the input's (ValueError otherwise; unknown dimensions pass)."""
    m, i = list(mask_shape), list(input_shape)
    if len(m) > len(i):
        raise ValueError("The `mask` must be broadcastable to `inputs` and must not have more dimensions. "
                         f"Received: inputs.shape={input_shape}, mask.shape={mask_shape}")
    for m_dim, i_dim in zip(m[::-1], i[::-1]):
        if m_dim is not None and i_dim is not None and m_dim != 1 and m_dim != i_dim:
            raise ValueError("The `mask` must be broadcastable to `inputs`. Each mask dimension must be 1 or match "
                             f"the corresponding input dimension. Received: inputs.shape={input_shape}, "
                             f"mask.shape={mask_shape}")


class Softmax(Layer):
    """`keras.layers.Softmax(axis=-1)`; `mask` (True: keep) sets masked logits to a large negative
    number and their outputs to 0."""

    def __init__(self, axis: Any = -1, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.axis = axis
        self.supports_masking = True
        self._build_at_init()

    def call(self, inputs: Any, mask: Any = None) -> Any:
        if mask is not None:
            mask = tf.convert_to_tensor(mask)
            _check_mask_broadcasts(mask.shape, inputs.shape)
            if mask.dtype != tf.bool:
                mask = tf.greater(mask, tf.cast(0.5, mask.dtype))
            big = -3e4 if inputs.dtype.name == "float16" else -1e9   # (Keras's _large_negative_number)
            inputs = tf.where(mask, inputs, tf.cast(big, inputs.dtype))
        if isinstance(self.axis, (tuple, list)):
            if len(self.axis) > 1:
                outputs = tf.exp(inputs - tf.reduce_logsumexp(inputs, axis=list(self.axis), keepdims=True))
            else:
                outputs = activations.softmax(inputs, axis=self.axis[0])
        else:
            outputs = activations.softmax(inputs, axis=self.axis)
        if mask is not None:
            outputs = tf.where(mask, outputs, tf.zeros_like(outputs))
        return outputs

    def compute_output_shape(self, input_shape: Any) -> Any:
        return input_shape

    def get_config(self) -> dict[str, Any]:
        return {**super().get_config(), "axis": self.axis}


class Dropout(Layer):
    """`keras.layers.Dropout(rate, noise_shape=None, seed=None)`: in training only, zeroes inputs
    with probability `rate` and scales the rest by 1/(1-rate); the mask comes from the layer's
    SeedGenerator (state [seed, n], advanced per call)."""

    def __init__(self, rate: float, noise_shape: Any = None, seed: int | None = None, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        if not 0 <= rate <= 1:
            raise ValueError(f"Invalid value received for argument `rate`. Expected a float value between 0 and 1. "
                             f"Received: rate={rate}")
        self.rate = rate
        self.seed = seed
        self.noise_shape = self._validate_noise_shape(noise_shape)
        if rate > 0:
            from simdist.keras.random import SeedGenerator
            self.seed_generator = SeedGenerator(seed)
        self.supports_masking = True
        self._build_at_init()

    @staticmethod
    def _validate_noise_shape(noise_shape: Any) -> Any:
        if noise_shape is None:
            return None
        if isinstance(noise_shape, str):
            raise ValueError("Invalid value received for argument `noise_shape`. Expected a tuple or list of integers. "
                             f"Received: noise_shape={noise_shape}")
        try:
            noise_shape = tuple(noise_shape)
        except TypeError:
            raise ValueError("Invalid value received for argument `noise_shape`. Expected an iterable of integers "
                             f"(e.g., a tuple or list). Received: noise_shape={noise_shape}") from None
        for i, dim in enumerate(noise_shape):
            if dim is not None:
                if not isinstance(dim, int):
                    raise ValueError("Invalid value received for argument `noise_shape`. Expected all elements to be "
                                     f"integers or None. Received element at index {i}: {dim} (type: "
                                     f"{type(dim).__name__})")
                if dim <= 0:
                    raise ValueError("Invalid value received for argument `noise_shape`. Expected all dimensions to "
                                     f"be positive integers or None. Received negative or zero value at index {i}: "
                                     f"{dim}")
        return noise_shape

    def call(self, inputs: Any, training: bool = False) -> Any:
        if training and self.rate > 0:
            from simdist.keras import random
            return random.dropout(inputs, self.rate, noise_shape=self.noise_shape, seed=self.seed_generator)
        return inputs

    def compute_output_shape(self, input_shape: Any) -> Any:
        return input_shape

    def get_config(self) -> dict[str, Any]:
        return {**super().get_config(), "rate": self.rate, "seed": self.seed, "noise_shape": self.noise_shape}


class InputLayer(Layer):
    """The layer behind `keras.Input`: holds the input KerasTensor of a functional graph."""

    def __init__(self, shape: Any = None, batch_size: int | None = None, dtype: Any = None, sparse: Any = None,
                 ragged: Any = None, batch_shape: Any = None, input_tensor: Any = None, optional: bool = False,
                 name: str | None = None, **kwargs: Any) -> None:
        from simdist.keras import dtype_policies
        from simdist.keras.keras_tensor import KerasTensor, Node
        from simdist.keras.variables import standardize_shape
        super().__init__(name=name)
        if "input_shape" in kwargs:
            import warnings
            warnings.warn("Argument `input_shape` is deprecated. Use `shape` instead.")
            shape = kwargs.pop("input_shape")
        if "batch_input_shape" in kwargs:
            batch_shape = kwargs.pop("batch_input_shape")
        if input_tensor is not None:
            if not isinstance(input_tensor, KerasTensor):
                raise ValueError(f"Argument `input_tensor` must be a KerasTensor. Received invalid type: "
                                 f"input_tensor={input_tensor} (of type {type(input_tensor)})")
            batch_shape = input_tensor.shape
            dtype = input_tensor.dtype
        else:
            if shape is not None and batch_shape is not None:
                raise ValueError("You cannot pass both `shape` and `batch_shape` at the same time.")
            if batch_size is not None and batch_shape is not None:
                raise ValueError("You cannot pass both `batch_size` and `batch_shape` at the same time.")
            if shape is None and batch_shape is None:
                raise ValueError("You must pass a `shape` argument.")
            if shape is not None:
                shape = standardize_shape(shape)
                batch_shape = (batch_size,) + shape
        self._batch_shape = standardize_shape(batch_shape)
        self._dtype = dtype_policies.standardize_dtype(dtype)
        self.sparse = bool(sparse)   # (the TF backend supports both: SUPPORTS_SPARSE/RAGGED_TENSORS)
        self.ragged = bool(ragged)
        if input_tensor is None:
            input_tensor = KerasTensor(shape=batch_shape, dtype=dtype, sparse=sparse, ragged=ragged, name=name)
        self._input_tensor = input_tensor
        Node(operation=self, call_args=(), call_kwargs={}, outputs=input_tensor)
        self.built = True
        self.optional = optional

    def call(self) -> None:
        return None

    @property
    def batch_shape(self) -> tuple:
        return self._batch_shape

    @property
    def dtype(self) -> str:   # type: ignore[override]
        return self._dtype

    def get_config(self) -> dict[str, Any]:
        return {"batch_shape": self.batch_shape, "dtype": self.dtype, "sparse": self.sparse, "ragged": self.ragged,
                "name": self.name, "optional": self.optional}


def Input(shape: Any = None, batch_size: int | None = None, dtype: Any = None, sparse: Any = None,  # noqa: N802
          ragged: Any = None, batch_shape: Any = None, name: str | None = None, tensor: Any = None,
          optional: bool = False) -> Any:
    """`keras.Input(shape)`: a symbolic input tensor (a KerasTensor made by an InputLayer)."""
    layer = InputLayer(shape=shape, batch_size=batch_size, dtype=dtype, sparse=sparse, ragged=ragged,
                       batch_shape=batch_shape, name=name, input_tensor=tensor, optional=optional)
    return layer.output


__all__ += ["Embedding", "Activation", "ReLU", "Softmax", "Dropout", "InputLayer", "Input"]
