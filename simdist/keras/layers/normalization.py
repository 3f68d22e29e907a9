"""Normalization layers (keras/src/layers/normalization/): LayerNormalization and
BatchNormalization, computed as Keras 3.15's TensorFlow backend computes them
(backend/tensorflow/nn.py `moments`, `_compute_moments_sync`, `batch_normalization`;
ops/nn.py `_layer_normalization`).

BatchNormalization across replicas, as on TF 2.21 (clauses keras.layer.batchnorm.*): its moving
mean and variance are non-trainable variables with aggregation "none". In training mode each
replica assigns them in replica context; a MirroredVariable without aggregation takes each
replica's assign on that replica's own copy, so with `synchronized=False` (statistics of the
replica's own batch) the copies drift apart, and with `synchronized=True` (statistics of the
global batch, by three all-reduces) they stay equal. Under CentralStorageStrategy with several
replicas the assign raises TF's ValueError (an AggregatingVariable needs an aggregation).
"""

from __future__ import annotations

from typing import Any

from simdist import tf
from simdist.keras import constraints
from simdist.keras import dtype_promotion, initializers, regularizers
from simdist.keras.layers.input_spec import InputSpec
from simdist.keras.layers.layer import Layer

__all__ = ["BatchNormalization", "LayerNormalization", "moments", "batch_normalization", "layer_normalization"]

_KERAS_EPSILON = 1e-7   # keras.config.epsilon()


def _compute_dtype(dtype: Any) -> Any:
    """Keras's result_type(dtype, "float32") (simdist/keras/dtype_promotion.py)."""
    return tf.as_dtype(dtype_promotion.result_type(dtype, "float32"))


def _to(x: Any, dtype: Any) -> Any:
    x = tf.convert_to_tensor(x)
    return x if x.dtype == dtype else tf.cast(x, dtype)


def _compute_moments_sync(x: Any, axes: Any, keepdims: bool) -> tuple[Any, Any]:
    """Mean and variance of the global batch: sums, sums of squares and counts all-reduced
    across the replicas (variance = E[x^2] - E[x]^2, floored at 0); outside a replica context
    (cross-replica), the local moments."""
    replica_ctx = tf.distribute.get_replica_context()
    if not replica_ctx:
        return tf.nn.moments(x, axes, keepdims=keepdims)
    local_count = tf.ones_like(x, name="count")
    local_sum = tf.reduce_sum(x, axis=axes, keepdims=True)
    local_squared_sum = tf.reduce_sum(tf.square(x), axis=axes, keepdims=True)
    local_count = tf.reduce_sum(local_count, axis=axes, keepdims=True)
    y_sum = replica_ctx.all_reduce(tf.distribute.ReduceOp.SUM, local_sum)
    y_squared_sum = replica_ctx.all_reduce(tf.distribute.ReduceOp.SUM, local_squared_sum)
    count_sum = replica_ctx.all_reduce(tf.distribute.ReduceOp.SUM, local_count)
    mean = tf.math.divide_no_nan(y_sum, count_sum)
    y_squared_mean = tf.math.divide_no_nan(y_squared_sum, count_sum)
    variance = tf.maximum(y_squared_mean - tf.square(mean), 0.0)
    if not keepdims:
        mean = tf.squeeze(mean, axes)
        variance = tf.squeeze(variance, axes)
    return mean, variance


def moments(x: Any, axes: Any, keepdims: bool = False, synchronized: bool = False) -> tuple[Any, Any]:
    """Keras's `ops.moments` on TF: float16/bfloat16 in float32 (clipped to float16's range on
    the way back, as Keras does for both); synchronized: across the replicas."""
    x = tf.convert_to_tensor(x)
    ori = x.dtype
    need_cast = ori.name in ("float16", "bfloat16")
    if need_cast:
        x = tf.cast(x, tf.float32)
    if synchronized:
        mean, variance = _compute_moments_sync(x, axes, keepdims)
    else:
        mean, variance = tf.nn.moments(x, axes, keepdims=keepdims)
    if need_cast:
        mean = tf.cast(tf.clip_by_value(mean, tf.float16.min, tf.float16.max), ori)
        variance = tf.cast(tf.clip_by_value(variance, tf.float16.min, tf.float16.max), ori)
    return mean, variance


def batch_normalization(x: Any, mean: Any, variance: Any, axis: int, offset: Any = None, scale: Any = None,
                        epsilon: float = 1e-3) -> Any:
    """Keras's `ops.batch_normalization` on TF: the statistics reshaped to broadcast along
    `axis` (unless it is -1), then `tf.nn.batch_normalization`."""
    if axis != -1:
        shape = [1] * len(x.shape)
        shape[axis] = mean.shape[0]
        mean = tf.reshape(mean, shape)
        variance = tf.reshape(variance, shape)
        if offset is not None:
            offset = tf.reshape(offset, shape)
        if scale is not None:
            scale = tf.reshape(scale, shape)
    return tf.nn.batch_normalization(x=x, mean=mean, variance=variance, offset=offset, scale=scale,
                                     variance_epsilon=epsilon)


def layer_normalization(x: Any, gamma: Any = None, beta: Any = None, axis: Any = -1,
                        epsilon: float | None = None, rms_scaling: bool = False) -> Any:
    """Keras's `ops.layer_normalization`: x * inv + (beta - mean * inv) with inv = gamma / sqrt(var + eps), the
    moments over `axis`, computed in at least float32; with the deprecated `rms_scaling`, x / sqrt(var + eps) * gamma
    (the variance, not the mean square, as Keras 3.15 computes it; no beta)."""
    if epsilon is None:
        epsilon = _KERAS_EPSILON
    x = tf.convert_to_tensor(x)
    original = x.dtype
    x = _to(x, _compute_dtype(original))
    if gamma is not None:
        gamma = _to(gamma, x.dtype)
    if beta is not None:
        beta = _to(beta, x.dtype)
    input_shape = x.shape.as_list()
    ndims = len(input_shape)
    broadcast_shape = [1] * ndims
    axis = sorted([axis] if isinstance(axis, int) else axis)
    for dim in axis:
        broadcast_shape[dim] = input_shape[dim]

    def _broadcast(v: Any) -> Any:
        if v is not None and len(v.shape) != ndims and axis != [ndims - 1]:
            return tf.reshape(v, broadcast_shape)
        return v

    if rms_scaling:
        import warnings  # noqa: PLC0415

        from simdist.keras.ops import tf_numpy  # noqa: PLC0415 - Keras's backend var (float32 at least)

        warnings.warn("You passed `rms_scaling=True`, which is deprecated. This argument incorrectly scales the input "
                      "by the variance, not the root mean square. To correctly use RMS Normalization, please use "
                      "`keras.ops.rms_normalization` / `keras.ops.nn.rms_normalization` instead.")

        outputs = x * tf.math.rsqrt(tf_numpy.var(x, axis=axis, keepdims=True) + epsilon)
        if gamma is not None:
            outputs = outputs * tf.cast(_broadcast(gamma), x.dtype)
        return _to(outputs, original)
    mean, variance = moments(x, axes=axis, keepdims=True)
    gamma, beta = _broadcast(gamma), _broadcast(beta)
    inv = tf.math.rsqrt(variance + epsilon)
    if gamma is not None:
        inv = inv * gamma
    res = -mean * inv
    if beta is not None:
        res = res + beta
    outputs = x * inv + res
    return _to(outputs, original)


class LayerNormalization(Layer):
    """`keras.layers.LayerNormalization(axis=-1, epsilon=1e-3, center=True, scale=True, ...)`:
    each example normalized over `axis` (an int or a list), then scaled by gamma and shifted by
    beta (weights of the normalized axes' shape)."""

    supports_masking = True

    def __init__(self, axis: Any = -1, epsilon: float = 1e-3, center: bool = True, scale: bool = True,
                 beta_initializer: Any = "zeros", gamma_initializer: Any = "ones", beta_regularizer: Any = None,
                 gamma_regularizer: Any = None, beta_constraint: Any = None, gamma_constraint: Any = None,
                 **kwargs: Any) -> None:
        rms_scaling = kwargs.pop("rms_scaling", False)
        if rms_scaling:
            import warnings  # noqa: PLC0415

            warnings.warn("You passed `rms_scaling=True`, which is deprecated. This argument incorrectly scales the "
                          "input by the variance, not the root mean square. To correctly use RMS Normalization, please "
                          "use `keras.layers.RMSNormalization` instead.")
        super().__init__(**kwargs)
        if isinstance(axis, (list, tuple)):
            self.axis: Any = list(axis)
        elif isinstance(axis, int):
            self.axis = axis
        else:
            raise TypeError("Expected an int or a list/tuple of ints for the argument 'axis', but received: %r"
                            % (axis,))
        self.epsilon = epsilon
        self.center = center
        self.scale = scale
        self.rms_scaling = rms_scaling
        self.beta_initializer = initializers.get(beta_initializer)
        self.gamma_initializer = initializers.get(gamma_initializer)
        self.beta_regularizer = regularizers.get(beta_regularizer)
        self.gamma_regularizer = regularizers.get(gamma_regularizer)
        self.beta_constraint = constraints.get(beta_constraint)
        self.gamma_constraint = constraints.get(gamma_constraint)
        self.autocast = False

    def build(self, input_shape: Any) -> None:
        if isinstance(self.axis, (list, tuple)):
            self.axis = sorted(self.axis)
            shape = tuple(input_shape[dim] for dim in self.axis)
        else:
            shape = (input_shape[self.axis],)
            self.axis = [self.axis]
        if self.scale or self.rms_scaling:
            self.gamma = self.add_weight(name="gamma", shape=shape, initializer=self.gamma_initializer,
                                         regularizer=self.gamma_regularizer, constraint=self.gamma_constraint,
                                         trainable=True, autocast=False)
        else:
            self.gamma = None
        if self.center and not self.rms_scaling:
            self.beta = self.add_weight(name="beta", shape=shape, initializer=self.beta_initializer,
                                        regularizer=self.beta_regularizer, constraint=self.beta_constraint,
                                        trainable=True, autocast=False)
        else:
            self.beta = None

    def call(self, inputs: Any) -> Any:
        outputs = layer_normalization(inputs, self.gamma, self.beta, self.axis, self.epsilon,
                                      rms_scaling=self.rms_scaling)
        return _to(outputs, tf.as_dtype(self.compute_dtype))

    def compute_output_shape(self, input_shape: Any) -> Any:
        axes = [self.axis] if isinstance(self.axis, int) else self.axis
        for axis in axes:
            if axis >= len(input_shape) or axis < -len(input_shape):
                raise ValueError(f"Axis {axis} is out of bounds for input shape {input_shape}. Received: "
                                 f"axis={self.axis}")
        return input_shape

    def get_config(self) -> dict[str, Any]:
        return {**super().get_config(), "axis": self.axis, "epsilon": self.epsilon, "center": self.center,
                "scale": self.scale, "rms_scaling": self.rms_scaling,
                "beta_initializer": initializers.serialize(self.beta_initializer),
                "gamma_initializer": initializers.serialize(self.gamma_initializer),
                "beta_regularizer": regularizers.serialize(self.beta_regularizer),
                "gamma_regularizer": regularizers.serialize(self.gamma_regularizer),
                "beta_constraint": constraints.serialize(self.beta_constraint),
                "gamma_constraint": constraints.serialize(self.gamma_constraint)}


class BatchNormalization(Layer):
    """`keras.layers.BatchNormalization(axis=-1, momentum=0.99, epsilon=1e-3, center=True,
    scale=True, ..., synchronized=False)`: in training mode (and while trainable) the batch's
    statistics normalize the input and move the moving statistics
    (moving = moving * momentum + batch * (1 - momentum)); in inference the moving ones do."""

    supports_masking = True

    def __init__(self, axis: int = -1, momentum: float = 0.99, epsilon: float = 1e-3, center: bool = True,
                 scale: bool = True, beta_initializer: Any = "zeros", gamma_initializer: Any = "ones",
                 moving_mean_initializer: Any = "zeros", moving_variance_initializer: Any = "ones",
                 beta_regularizer: Any = None, gamma_regularizer: Any = None, beta_constraint: Any = None,
                 gamma_constraint: Any = None, renorm: bool = False, renorm_clipping: Any = None,
                 renorm_momentum: float = 0.99, synchronized: bool = False, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.axis = int(axis)
        self.synchronized = synchronized
        self.momentum = float(momentum)
        self.epsilon = float(epsilon)
        self.center = center
        self.scale = scale
        self.beta_initializer = initializers.get(beta_initializer)
        self.gamma_initializer = initializers.get(gamma_initializer)
        self.moving_mean_initializer = initializers.get(moving_mean_initializer)
        self.moving_variance_initializer = initializers.get(moving_variance_initializer)
        self.beta_regularizer = regularizers.get(beta_regularizer)
        self.gamma_regularizer = regularizers.get(gamma_regularizer)
        self.beta_constraint = constraints.get(beta_constraint)
        self.gamma_constraint = constraints.get(gamma_constraint)
        self.renorm = renorm
        if renorm:
            renorm_clipping = renorm_clipping or {}
            keys = ["rmax", "rmin", "dmax"]
            if set(renorm_clipping) - set(keys):
                raise ValueError(f"Received invalid keys for `renorm_clipping` argument: {renorm_clipping}. "
                                 f"Supported values: {keys}.")
            rmax, rmin, dmax = (renorm_clipping.get(k) for k in keys)
            if rmax is not None and rmin is not None and rmax < rmin:
                raise ValueError("rmax should be greater than rmin in the `renorm_clipping` argument. Received: "
                                 "rmax={rmax}, rmin={rmin}.")
            if dmax is not None and dmax < 0:
                raise ValueError("dmax should be non-negative in the `renorm_clipping` argument. Received: "
                                 "dmax={dmax}.")
        self.renorm_clipping = renorm_clipping
        self.renorm_momentum = renorm_momentum
        self.gamma: Any = None
        self.beta: Any = None
        self.moving_mean: Any = None
        self.moving_variance: Any = None
        self._reduction_axes: Any = None

    def build(self, input_shape: Any) -> None:
        shape = (input_shape[self.axis],)
        if self.scale:
            self.gamma = self.add_weight(shape=shape, name="gamma", initializer=self.gamma_initializer,
                                         regularizer=self.gamma_regularizer, constraint=self.gamma_constraint,
                                         trainable=True, autocast=False)
        if self.center:
            self.beta = self.add_weight(shape=shape, name="beta", initializer=self.beta_initializer,
                                        regularizer=self.beta_regularizer, constraint=self.beta_constraint,
                                        trainable=True, autocast=False)
        self.moving_mean = self.add_weight(shape=shape, name="moving_mean", initializer=self.moving_mean_initializer,
                                           trainable=False, autocast=False)
        self.moving_variance = self.add_weight(shape=shape, name="moving_variance",
                                               initializer=self.moving_variance_initializer, trainable=False,
                                               autocast=False)
        if self.renorm:
            variance_init = self.moving_variance_initializer

            def moving_stddev_initializer(shape: Any, dtype: Any = None) -> Any:
                return tf.sqrt(variance_init.clone()(shape, dtype=dtype))

            self.moving_stddev = self.add_weight(shape=shape, name="moving_stddev",
                                                 initializer=moving_stddev_initializer, trainable=False,
                                                 autocast=False)
            self.renorm_mean = self.add_weight(shape=shape, name="renorm_mean",
                                               initializer=self.moving_mean_initializer.clone(), trainable=False,
                                               autocast=False)
            self.renorm_stddev = self.add_weight(shape=shape, name="renorm_stddev",
                                                 initializer=moving_stddev_initializer, trainable=False,
                                                 autocast=False)
        self.input_spec = InputSpec(ndim=len(input_shape), axes={self.axis: input_shape[self.axis]})
        reduction_axes = list(range(len(input_shape)))
        del reduction_axes[self.axis]
        self._reduction_axes = reduction_axes

    def compute_output_shape(self, input_shape: Any) -> Any:
        for axis in [self.axis]:
            if axis >= len(input_shape) or axis < -len(input_shape):
                raise ValueError(f"Axis {axis} is out of bounds for input shape {input_shape}. Received: "
                                 f"axis={self.axis}")
        return input_shape

    def call(self, inputs: Any, training: Any = None, mask: Any = None) -> Any:
        if mask is not None:
            mask = tf.convert_to_tensor(mask)
            if len(mask.shape) != len(inputs.shape) - 1:
                raise ValueError("The mask provided should be one dimension less than the inputs. Received: "
                                 f"mask.shape={tuple(mask.shape.as_list())}, "
                                 f"inputs.shape={tuple(inputs.shape.as_list())}")
        inputs = _to(inputs, _compute_dtype(tf.convert_to_tensor(inputs).dtype))
        moving_mean = _to(self.moving_mean, inputs.dtype)
        moving_variance = _to(self.moving_variance, inputs.dtype)
        gamma = _to(self.gamma, inputs.dtype) if self.scale else None
        beta = _to(self.beta, inputs.dtype) if self.center else None
        if training and self.trainable:
            mean, variance = self._moments(inputs, mask)
            if self.renorm:
                r, d, mean, variance = self._renorm_correction_and_moments(mean, variance)
                gamma, beta = self._compose_transforms(r, d, gamma, beta, inputs.dtype)
                self._update_renorm_statistics(mean, variance)
            else:
                self.moving_mean.assign(moving_mean * self.momentum + mean * (1.0 - self.momentum))
                self.moving_variance.assign(moving_variance * self.momentum + variance * (1.0 - self.momentum))
        else:
            mean, variance = moving_mean, moving_variance
        outputs = batch_normalization(x=inputs, mean=mean, variance=variance, axis=self.axis, offset=beta,
                                      scale=gamma, epsilon=self.epsilon)
        return _to(outputs, tf.as_dtype(self.compute_dtype))

    def _moments(self, inputs: Any, mask: Any) -> tuple[Any, Any]:
        if mask is None:
            return moments(inputs, axes=self._reduction_axes, synchronized=self.synchronized)
        m = tf.broadcast_to(tf.expand_dims(mask, axis=-1), tf.shape(inputs))
        m = tf.cast(m, tf.bool)
        masked_inputs = tf.where(m, inputs, tf.zeros_like(inputs))
        masked_input_sum = tf.reduce_sum(masked_inputs, self._reduction_axes, keepdims=True)
        sum_of_weights = tf.reduce_sum(tf.cast(m, inputs.dtype), self._reduction_axes, keepdims=True)
        mean = masked_input_sum / (sum_of_weights + _KERAS_EPSILON)
        difference = tf.where(m, inputs - mean, tf.zeros_like(inputs))
        weighted_distsq = tf.reduce_sum(tf.square(difference), self._reduction_axes, keepdims=True)
        variance = weighted_distsq / (sum_of_weights + _KERAS_EPSILON)
        return tf.squeeze(mean), tf.squeeze(variance)

    # --- batch renormalization (Keras's, ported as written) ------------------------------------------
    def _renorm_correction_and_moments(self, mean: Any, variance: Any) -> tuple[Any, Any, Any, Any]:
        stddev = tf.sqrt(variance + self.epsilon)
        renorm_mean = _to(self.renorm_mean, mean.dtype)
        renorm_stddev = tf.maximum(_to(self.renorm_stddev, mean.dtype),
                                   tf.sqrt(tf.cast(self.epsilon, mean.dtype)))
        r = tf.divide(stddev, renorm_stddev)
        d = tf.divide(tf.subtract(mean, renorm_mean), renorm_stddev)
        rmin, rmax, dmax = (self.renorm_clipping.get(k) for k in ("rmin", "rmax", "dmax"))
        if rmin is not None:
            r = tf.maximum(r, rmin)
        if rmax is not None:
            r = tf.minimum(r, rmax)
        if dmax is not None:
            d = tf.clip_by_value(d, -dmax, dmax)
        return r, d, mean, variance

    def _compose_transforms(self, r: Any, d: Any, gamma: Any, beta: Any, dtype: Any) -> tuple[Any, Any]:
        r, d = tf.stop_gradient(r), tf.stop_gradient(d)
        if gamma is not None:
            effective_gamma = tf.multiply(r, gamma)
            effective_beta = tf.multiply(d, gamma)
        else:
            effective_gamma, effective_beta = tf.cast(r, dtype), tf.cast(d, dtype)
        if beta is not None:
            effective_beta = tf.add(effective_beta, beta)
        return effective_gamma, effective_beta

    def _update_renorm_statistics(self, mean: Any, variance: Any) -> None:
        stddev = tf.sqrt(variance + self.epsilon)
        renorm_mean = _to(self.renorm_mean, mean.dtype)
        renorm_stddev = _to(self.renorm_stddev, mean.dtype)
        self.renorm_mean.assign(renorm_mean * self.renorm_momentum + mean * (1.0 - self.renorm_momentum))
        self.renorm_stddev.assign(renorm_stddev * self.renorm_momentum + stddev * (1.0 - self.renorm_momentum))
        moving_mean = _to(self.moving_mean, mean.dtype)
        moving_stddev = _to(self.moving_stddev, mean.dtype)
        self.moving_mean.assign(moving_mean * self.momentum + mean * (1.0 - self.momentum))
        new_moving_stddev = moving_stddev * self.momentum + stddev * (1.0 - self.momentum)
        self.moving_stddev.assign(new_moving_stddev)
        self.moving_variance.assign(tf.nn.relu(new_moving_stddev * new_moving_stddev - self.epsilon))

    def get_config(self) -> dict[str, Any]:
        return {**super().get_config(), "axis": self.axis, "momentum": self.momentum, "epsilon": self.epsilon,
                "center": self.center, "scale": self.scale,
                "beta_initializer": initializers.serialize(self.beta_initializer),
                "gamma_initializer": initializers.serialize(self.gamma_initializer),
                "moving_mean_initializer": initializers.serialize(self.moving_mean_initializer),
                "moving_variance_initializer": initializers.serialize(self.moving_variance_initializer),
                "beta_regularizer": regularizers.serialize(self.beta_regularizer),
                "gamma_regularizer": regularizers.serialize(self.gamma_regularizer),
                "beta_constraint": constraints.serialize(self.beta_constraint),
                "gamma_constraint": constraints.serialize(self.gamma_constraint),
                "synchronized": self.synchronized, "renorm": self.renorm, "renorm_clipping": self.renorm_clipping,
                "renorm_momentum": self.renorm_momentum}
