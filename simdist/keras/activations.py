"""`keras.activations` (keras/src/activations/ and backend/tensorflow/nn.py), by function and by name.

Keras caches the logits on the outputs of `softmax` and `sigmoid` (`output._keras_logits`), and its
cross-entropy losses use them instead of the probabilities when present; simdist keeps them in
tensor_attributes.py's side table (its tensors have fixed slots), where the losses look.
"""

from __future__ import annotations

import inspect
from typing import Any, Callable

from simdist import tf
from simdist.keras.tensor_attributes import get_keras_logits, set_keras_logits


def _set_logits(output: Any, logits: Any) -> Any:
    set_keras_logits(output, logits)
    return output


def keras_logits(output: Any) -> Any:
    """The logits `output` was computed from by softmax or sigmoid (Keras's `_keras_logits`), else None."""
    return get_keras_logits(output)


def _t(x: Any) -> Any:
    return x if isinstance(x, tf.Tensor) else tf.convert_to_tensor(x)


def relu(x: Any, negative_slope: float = 0.0, max_value: float | None = None, threshold: float = 0.0) -> Any:
    """Keras's ReLU.static_call: leaky below `threshold`, clipped at `max_value`."""
    x = _t(x)
    if negative_slope != 0.0:
        if max_value is None and threshold == 0:
            return tf.nn.leaky_relu(x, alpha=negative_slope)
        negative_part: Any = tf.nn.relu(-x + threshold) if threshold != 0 else tf.nn.relu(-x)
    else:
        negative_part = 1
    clip_max = max_value is not None
    if threshold != 0:
        x = tf.where(tf.greater(x, tf.cast(threshold, x.dtype)), x, tf.zeros_like(x))
    elif max_value == 6:
        x = tf.nn.relu6(x)
        clip_max = False
    else:
        x = tf.nn.relu(x)
    if clip_max:
        x = tf.clip_by_value(x, tf.cast(0.0, x.dtype), tf.cast(max_value, x.dtype))
    if negative_slope != 0.0:
        x = x - negative_slope * negative_part
    return x


def relu6(x: Any) -> Any:
    return tf.nn.relu6(_t(x))


def leaky_relu(x: Any, negative_slope: float = 0.2) -> Any:
    return tf.nn.leaky_relu(_t(x), alpha=negative_slope)


def elu(x: Any, alpha: float = 1.0) -> Any:
    x = _t(x)
    res = tf.nn.elu(x)
    return res if alpha == 1 else tf.where(x > 0, res, alpha * res)


def selu(x: Any) -> Any:
    return tf.nn.selu(_t(x))


def gelu(x: Any, approximate: bool = False) -> Any:
    return tf.nn.gelu(_t(x), approximate=approximate)


def silu(x: Any) -> Any:
    return tf.nn.silu(_t(x))


swish = silu


def sigmoid(x: Any) -> Any:
    x = _t(x)
    return _set_logits(tf.nn.sigmoid(x), x)


def hard_sigmoid(x: Any) -> Any:
    x = _t(x)
    return tf.nn.relu6(x + tf.constant(3.0, x.dtype)) / tf.constant(6.0, x.dtype)


def hard_silu(x: Any) -> Any:
    x = _t(x)
    return x * hard_sigmoid(x)


def softmax(x: Any, axis: int | None = -1) -> Any:
    x = _t(x)
    if axis is None:
        out = tf.reshape(tf.nn.softmax(tf.reshape(x, [-1]), axis=-1), tf.shape(x))
    else:
        out = tf.nn.softmax(x, axis=axis)
    return _set_logits(out, x)


def log_softmax(x: Any, axis: int | None = -1) -> Any:
    x = _t(x)
    if axis is None:
        return tf.reshape(tf.nn.log_softmax(tf.reshape(x, [-1]), axis=-1), tf.shape(x))
    return tf.nn.log_softmax(x, axis=axis)


def softplus(x: Any) -> Any:
    return tf.math.softplus(_t(x))


def softsign(x: Any) -> Any:
    return tf.nn.softsign(_t(x))


def tanh(x: Any) -> Any:
    return tf.nn.tanh(_t(x))


def exponential(x: Any) -> Any:
    return tf.exp(_t(x))


def linear(x: Any) -> Any:
    return x


def mish(x: Any) -> Any:
    x = _t(x)
    return x * tf.nn.tanh(tf.math.softplus(x))


def log_sigmoid(x: Any) -> Any:
    x = _t(x)
    return -tf.math.softplus(-x)


def celu(x: Any, alpha: float = 1.0) -> Any:
    x = _t(x)
    # expm1, as Keras's TF backend (nn.celu): exp(...) - 1 loses ~4e-5 of a value ~1e-3 in float32
    return tf.maximum(x, 0.0) + alpha * tf.math.expm1(tf.minimum(x, 0.0) / alpha)


hard_swish = hard_silu


def glu(x: Any, axis: int = -1) -> Any:
    """Gated linear unit: `a * sigmoid(b)`, `x` split in two halves `a`, `b` along `axis`."""
    x = _t(x)
    if x.shape[axis] % 2 != 0:
        raise ValueError(f"axis size must be divisible by 2. Received: x.shape={tuple(x.shape)} with axis={axis}")
    x1, x2 = tf.split(x, num_or_size_splits=2, axis=axis)
    return x1 * tf.sigmoid(x2)


def hard_tanh(x: Any) -> Any:
    """`x` clipped to [-1, 1]."""
    return tf.clip_by_value(_t(x), clip_value_min=-1.0, clip_value_max=1.0)


def hard_shrink(x: Any, threshold: float = 0.5) -> Any:
    """`x` where `|x| > threshold`, else 0."""
    x = _t(x)
    return tf.where(tf.abs(x) > threshold, x, tf.zeros_like(x))


def soft_shrink(x: Any, threshold: float = 0.5) -> Any:
    """`x - threshold` above `threshold`, `x + threshold` below `-threshold`, else 0."""
    x = _t(x)
    return tf.where(x > threshold, x - threshold, tf.where(x < -threshold, x + threshold, tf.zeros_like(x)))


def sparse_plus(x: Any) -> Any:
    """0 for x <= -1, (x + 1)**2 / 4 for -1 < x < 1, x from 1 (tf.pow, as Keras's TF backend)."""
    x = _t(x)
    return tf.where(x <= -1, tf.zeros_like(x), tf.where(x < 1, (1 / 4) * tf.pow(x + 1, 2), x))


def sparse_sigmoid(x: Any) -> Any:
    """0 for x <= -1, 1 for x >= 1, (x + 1) / 2 between."""
    x = _t(x)
    return tf.where(x <= -1, tf.constant(0.0, dtype=x.dtype),
                    tf.where(x >= 1, tf.constant(1.0, dtype=x.dtype), 0.5 * (x + 1)))


def squareplus(x: Any, b: float = 4) -> Any:
    """`(x + sqrt(x**2 + b)) / 2`."""
    x = _t(x)
    b = tf.convert_to_tensor(b, dtype=x.dtype)
    return (x + tf.sqrt(tf.square(x) + b)) / 2


def tanh_shrink(x: Any) -> Any:
    """`x - tanh(x)`."""
    x = _t(x)
    return x - tf.math.tanh(x)


def threshold(x: Any, threshold: float, default_value: float) -> Any:
    """`x` where `x > threshold`, else `default_value`."""
    x = _t(x)
    return tf.where(x > threshold, x, default_value)


def sparsemax(x: Any, axis: int = -1) -> Any:
    """Keras's TF sparsemax: `max(x - tau, 0)`, tau from the descending sort's cumulative sums over
    the support `{k : sorted_k - (cumsum_k - 1) / k > 0}`."""
    logits = _t(x)
    logits_sorted = tf.sort(logits, direction="DESCENDING", axis=axis)
    logits_cumsum = tf.cumsum(logits_sorted, axis=axis)
    r = tf.range(1, tf.shape(logits)[axis] + 1, dtype=logits.dtype)
    r_shape = [1] * len(logits.shape)
    r_shape[axis] = -1
    r = tf.reshape(r, r_shape)
    support = logits_sorted - (logits_cumsum - 1) / r > 0
    logits_cumsum_safe = tf.where(support, logits_cumsum, tf.zeros_like(logits_cumsum))
    k = tf.reduce_sum(tf.cast(support, logits.dtype), axis=axis, keepdims=True)
    tau = (tf.reduce_sum(logits_cumsum_safe, axis=axis, keepdims=True) - 1) / k
    return tf.maximum(logits - tau, tf.constant(0.0, logits.dtype))


ALL_OBJECTS_DICT: dict[str, Callable[..., Any]] = {
    f.__name__: f for f in (relu, relu6, leaky_relu, elu, selu, gelu, silu, sigmoid, hard_sigmoid, hard_silu, softmax,
                            log_softmax, softplus, softsign, tanh, exponential, linear, mish, log_sigmoid, celu, glu,
                            hard_shrink, hard_tanh, soft_shrink, sparse_plus, sparse_sigmoid, sparsemax, squareplus,
                            tanh_shrink, threshold)}
ALL_OBJECTS_DICT["swish"] = silu
ALL_OBJECTS_DICT["hard_swish"] = hard_silu


#: the names keras/src/activations/__init__.py's globals() hold (its serialize writes a function of such a name as
#: the bare name: tf.nn.relu is "relu", tf.nn.silu, named swish, a function dict)
_MODULE_GLOBALS = frozenset(n for n in ALL_OBJECTS_DICT if n not in ("swish", "hard_swish")) | frozenset((
    "ALL_OBJECTS", "ALL_OBJECTS_DICT", "activations", "deserialize", "get", "keras_export", "object_registration",
    "serialization_lib", "serialize", "types"))


def serialize(activation: Callable[..., Any]) -> Any:
    """An activation as Keras serializes it (keras.saving.json-and-serialize): a function whose registered name (else its
    __name__) is one of the activations module's global names is that name — the built-ins and any other function
    so named (tf.nn.relu, tf.nn.gelu, tf.math.sigmoid); any other function Keras's function dict."""
    for name, fn in ALL_OBJECTS_DICT.items():
        if fn is activation and name not in ("swish", "hard_swish"):
            return name
    if inspect.isfunction(activation):   # (a user's function: Keras's {"module": "builtins", "class_name": "function"...})
        from simdist.keras.serialization import serialize_function
        out = serialize_function(activation)
        return out["config"] if out["config"] in _MODULE_GLOBALS else out
    return getattr(activation, "__name__", str(activation))


def deserialize(config: Any, custom_objects: dict | None = None) -> Callable[..., Any]:
    """The activation a name or serialized dict names (Keras's deserialize_keras_object with module_objects: an
    unknown name comes back as a str)."""
    from simdist.keras.serialization import deserialize_with_module_objects
    decided, out = deserialize_with_module_objects(config, ALL_OBJECTS_DICT, custom_objects)
    if decided:
        return out
    if isinstance(config, dict):
        config = config.get("config", config.get("class_name"))
    fn = (custom_objects or {}).get(config) or ALL_OBJECTS_DICT.get(config)
    if fn is None:
        raise ValueError(f"Could not interpret activation function identifier: {config}")
    return fn


def get(identifier: Any) -> Callable[..., Any]:
    """An activation from None (linear), a name ("relu"), a config dict or a callable."""
    if identifier is None:
        return linear
    if isinstance(identifier, dict):   # (Keras: the generic deserialize_keras_object, not this module's)
        from simdist.keras.utils.keras_object_serialization import deserialize_keras_object
        obj: Any = deserialize_keras_object(identifier)
    elif isinstance(identifier, str):
        obj = ALL_OBJECTS_DICT.get(identifier, None)
    else:
        obj = identifier
    if callable(obj):
        return obj
    raise ValueError(f"Could not interpret activation function identifier: {identifier}")


from simdist.keras import _api  # noqa: E402

__all__ = [   # TF 2.21's tf.keras.activations names simdist has (one a line; clause api.namespaces)
    "celu",
    "deserialize",
    "elu",
    "exponential",
    "gelu",
    "get",
    "glu",
    "hard_shrink",
    "hard_sigmoid",
    "hard_silu",
    "hard_swish",
    "hard_tanh",
    "leaky_relu",
    "linear",
    "log_sigmoid",
    "log_softmax",
    "mish",
    "relu",
    "relu6",
    "selu",
    "serialize",
    "sigmoid",
    "silu",
    "soft_shrink",
    "softmax",
    "softplus",
    "softsign",
    "sparse_plus",
    "sparse_sigmoid",
    "sparsemax",
    "squareplus",
    "swish",
    "tanh",
    "tanh_shrink",
    "threshold",
]
__dir__ = _api.dir_of(__name__)
