"""What Keras 3.15's ops layer (keras/src/ops/{numpy,nn,math,linalg,core}.py) imports from the
rest of Keras, on simdist: the transcribed modules op_*.py import these names.

The ops layer's functions check their arguments, then either record a symbolic call (when
`any_symbolic_tensors`) or run the backend function. Here `any_symbolic_tensors` is always
False: a transcribed function is the eager branch, and simdist/keras/ops/__init__.py records
calls on KerasTensors itself (an `Operation` node whose output spec comes from running the eager
branch on probe tensors, as every other simdist op on KerasTensors). `Operation` is the base of
Keras's op classes here only for their eager `call` (some functions instantiate a class and call
it: `Pad(...)(x)`)."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any, Callable

from simdist import tf
from simdist.keras import config as _config
from simdist.keras import dtype_promotion
from simdist.keras.keras_tensor import KerasTensor
from simdist.keras.ops import tf_core, tf_linalg, tf_math, tf_nn, tf_numpy
from simdist.keras.ops.backend_utils import (canonicalize_axes, canonicalize_axis, check_conv_input_channels,
                                             check_conv_transpose_input_channels,
                                             compute_conv_transpose_output_shape, slice_along_axis,
                                             to_tuple_or_list)
from simdist.keras.ops.shim import FLOAT_TYPES, INT_TYPES, convert_to_tensor, dtypes, standardize_dtype, tree

__all__ = ["KerasTensor", "Operation", "any_symbolic_tensors", "backend", "broadcast_shapes", "canonicalize_axes",
           "canonicalize_axis", "check_conv_input_channels", "check_conv_transpose_input_channels",
           "compute_conv_transpose_output_shape", "config", "dtypes", "is_continuous_axis", "keras_export",
           "operation_utils", "reduce_shape", "result_type", "serialization_lib", "slice_along_axis",
           "standardize_data_format", "to_tuple_or_list", "traceback_utils", "tree"]


def any_symbolic_tensors(args: Any = None, kwargs: Any = None) -> bool:
    """Always False in the transcribed ops layer (see the module docstring)."""
    return False


def keras_export(*names: Any, **kwargs: Any) -> Callable[[Any], Any]:
    return lambda obj: obj


def _identity_decorator(fn: Callable[..., Any]) -> Callable[..., Any]:
    return fn


traceback_utils = SimpleNamespace(filter_traceback=_identity_decorator,
                                  is_traceback_filtering_enabled=lambda: False)
serialization_lib = SimpleNamespace(serialize_keras_object=lambda obj: obj,
                                    deserialize_keras_object=lambda obj, **kw: obj)


class Operation:
    """Keras's Operation as the transcribed op classes need it eagerly: `op(*args)` runs
    `op.call(*args)`."""

    def __init__(self, name: str | None = None, **kwargs: Any) -> None:
        self.name = name

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        return self.call(*args, **kwargs)

    def symbolic_call(self, *args: Any, **kwargs: Any) -> Any:
        raise RuntimeError("the transcribed ops layer never calls symbolic_call (any_symbolic_tensors is False)")


def standardize_data_format(data_format: Any) -> str:
    from simdist.keras.layers.argument_validation import standardize_data_format as f
    return f(data_format)


def is_continuous_axis(axis: Any) -> bool:
    """keras/src/utils/python_utils.py's: consecutive axes (in either direction)."""
    if isinstance(axis, int) or len(axis) <= 1:
        return True
    step = axis[1] - axis[0]
    if step not in (1, -1):
        return False
    return all(axis[i + 1] - axis[i] == step for i in range(len(axis) - 1))


result_type = dtype_promotion.result_type
config = SimpleNamespace(floatx=_config.floatx, epsilon=_config.epsilon, backend=lambda: "tensorflow",
                         image_data_format=_config.image_data_format)   # (adaptive pools with data_format=None)


def _is_tensor(x: Any) -> bool:
    return isinstance(x, tf.Tensor)


class _Backend(SimpleNamespace):
    """keras.src.backend as the ops layer reads it (`image` looked up on use: tf_image.py imports
    keras.random, which the other modules do not need)."""

    def __getattr__(self, name: str) -> Any:
        if name == "image":
            from simdist.keras.ops import tf_image
            return tf_image
        raise AttributeError(name)


backend = _Backend(
    numpy=tf_numpy, nn=tf_nn, math=tf_math, linalg=tf_linalg, core=tf_core, KerasTensor=KerasTensor,
    standardize_dtype=standardize_dtype, convert_to_tensor=convert_to_tensor, is_tensor=_is_tensor,
    floatx=_config.floatx, epsilon=_config.epsilon, result_type=result_type, backend=lambda: "tensorflow",
    cast=tf_core.cast, shape=tf_core.shape, convert_to_numpy=tf_core.convert_to_numpy,
    any_symbolic_tensors=any_symbolic_tensors, standardize_data_format=standardize_data_format,
    is_int_dtype=lambda d: standardize_dtype(d) in INT_TYPES, is_float_dtype=lambda d: standardize_dtype(d) in FLOAT_TYPES,
    config=config)


def __getattr__(name: str) -> Any:
    """operation_utils (op_utils.py) imports this module, so its names are looked up lazily;
    `ops` (keras.src.ops, which op_image.py calls) is simdist's keras.ops."""
    if name == "ops":
        import importlib
        return importlib.import_module("simdist.keras.ops")
    if name in ("operation_utils", "broadcast_shapes", "reduce_shape"):
        from simdist.keras.ops import op_utils
        return op_utils if name == "operation_utils" else getattr(op_utils, name)
    raise AttributeError(name)
