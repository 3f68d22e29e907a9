"""What Keras 3.15's ops layer (keras/src/ops/{numpy,nn,math,linalg,core}.py) imports from the
rest of Keras, on simdist: the transcribed modules op_*.py import these names.

The ops layer's functions check their arguments, then either make a symbolic call (when
`any_symbolic_tensors`) or run the backend function. Here `any_symbolic_tensors` is False but
inside :func:`keras_output_spec`, which simdist/keras/ops/dispatch.py calls on KerasTensors: the
function's own symbolic branch then runs, and `Operation.symbolic_call` answers Keras's
`compute_output_spec` of the op class — the output spec TF 2.21 + Keras 3.15 give a functional
model (dispatch.py records the node; the node runs the eager branch). `Operation` is otherwise the
base of Keras's op classes for their eager `call` (some functions instantiate a class and call
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


class _SpecState:
    """Whether a keras_output_spec is running (depth), and whether its function took its symbolic
    branch (any_symbolic_tensors answered True) and reached symbolic_call."""
    depth = 0
    branched = False
    called = False


def any_symbolic_tensors(args: Any = None, kwargs: Any = None) -> bool:
    """Whether the transcribed function takes its symbolic branch: only inside keras_output_spec,
    on KerasTensor arguments (see the module docstring)."""
    if not _SpecState.depth:
        return False
    from simdist.keras.keras_tensor import any_symbolic_tensors as symbolic
    if symbolic(args, kwargs):
        _SpecState.branched = True
        return True
    return False


def in_output_spec() -> bool:
    """Whether a keras_output_spec is running (an op called inside one answers its spec, no node)."""
    return _SpecState.depth > 0


#: keras_output_spec's answer for a function that takes no symbolic branch (its caller probes instead).
NO_SPEC = object()


def keras_output_spec(fn: Callable[..., Any], args: Any, kwargs: Any) -> Any:
    """Keras's output spec of the transcribed `fn(*args, **kwargs)` on KerasTensors: the function's
    symbolic branch, its op class's compute_output_spec; an error raised on that branch is Keras's
    and propagates. NO_SPEC when the function takes no symbolic branch (it has none, or failed
    before reaching it): then the caller runs the eager function on probe tensors."""
    saved = (_SpecState.branched, _SpecState.called)
    _SpecState.depth += 1
    _SpecState.branched = _SpecState.called = False
    try:
        out = fn(*args, **kwargs)
        return out if _SpecState.called else NO_SPEC
    except Exception:
        if _SpecState.branched or _SpecState.called:
            raise
        return NO_SPEC
    finally:
        _SpecState.depth -= 1
        _SpecState.branched, _SpecState.called = saved


def keras_export(*names: Any, **kwargs: Any) -> Callable[[Any], Any]:
    return lambda obj: obj


def _identity_decorator(fn: Callable[..., Any]) -> Callable[..., Any]:
    return fn


def _inject_argument_info_in_traceback(fn: Callable[..., Any], object_name: str | None = None) -> Callable[..., Any]:
    """Keras's wrapper (utils/traceback_utils.py): an exception `fn` raises comes back as the same class with
    "Exception encountered when calling <object_name>." and the call's arguments (Cond.__call__ uses it, so a
    cond's branch error, symbolic or eager, reads as TF 2.21's: cov48)."""
    from simdist.keras.traceback_utils import call_with_argument_info

    def error_handler(*args: Any, **kwargs: Any) -> Any:
        return call_with_argument_info(fn, object_name or fn.__name__, *args, **kwargs)
    return error_handler


def _is_traceback_filtering_enabled() -> bool:
    from simdist.keras.traceback_utils import is_traceback_filtering_enabled
    return is_traceback_filtering_enabled()


traceback_utils = SimpleNamespace(filter_traceback=_identity_decorator,
                                  is_traceback_filtering_enabled=_is_traceback_filtering_enabled,
                                  inject_argument_info_in_traceback=_inject_argument_info_in_traceback)
serialization_lib = SimpleNamespace(serialize_keras_object=lambda obj: obj,
                                    deserialize_keras_object=lambda obj, **kw: obj)


class Operation:
    """Keras's Operation as the transcribed op classes need it: `op(*args)` runs `op.call(*args)`,
    or inside keras_output_spec on KerasTensors `op.symbolic_call(*args)` (Keras's dispatch)."""

    def __init__(self, name: str | None = None, **kwargs: Any) -> None:
        self.name = name

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        call_fn = self.symbolic_call if any_symbolic_tensors(args, kwargs) else self.call
        if _is_traceback_filtering_enabled():
            # (Keras's Operation.__call__: an error of an op called as `Op(...)(x)`, symbolic or eager, is wrapped
            # "Exception encountered when calling Pad.call()." with its arguments; the ops that call their backend
            # function or `.symbolic_call` directly raise unwrapped, as on TF 2.21: cov48)
            call_fn = _inject_argument_info_in_traceback(call_fn, f"{type(self).__name__}.call()")
        return call_fn(*args, **kwargs)

    def symbolic_call(self, *args: Any, **kwargs: Any) -> Any:
        """Keras's output spec (keras_output_spec records no node: dispatch.py does)."""
        _SpecState.called = True
        return self.compute_output_spec(*args, **kwargs)


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
    compute_output_spec=lambda fn, *a, **k: _probe_spec(fn, *a, **k),
    is_int_dtype=lambda d: standardize_dtype(d) in INT_TYPES, is_float_dtype=lambda d: standardize_dtype(d) in FLOAT_TYPES,
    config=config)


def _probe_spec(fn: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
    """keras.src.backend.compute_output_spec (some compute_output_spec trace the backend function):
    simdist's probe of the eager function (simdist/keras/keras_tensor.py), outside any keras_output_spec."""
    from simdist.keras.keras_tensor import compute_output_spec
    depth, _SpecState.depth = _SpecState.depth, 0
    try:
        return compute_output_spec(fn, *args, **kwargs)
    finally:
        _SpecState.depth = depth


class _KerasSrcOps:
    """keras.src.ops as Keras's own modules call it (op_image.py, backend_utils.py's vectorize): the
    public keras.ops (simdist's), plus what keras.src.ops holds beyond it (operation_utils'
    broadcast_shapes), which TF's tf.keras.ops does not export."""

    def __getattr__(self, name: str) -> Any:
        if name == "broadcast_shapes":
            from simdist.keras.ops import op_utils
            return op_utils.broadcast_shapes
        import importlib
        return getattr(importlib.import_module("simdist.keras.ops"), name)


def __getattr__(name: str) -> Any:
    """operation_utils (op_utils.py) imports this module, so its names are looked up lazily;
    `ops` (keras.src.ops, which op_image.py and backend_utils.py call) is _KerasSrcOps."""
    if name == "ops":
        return _KerasSrcOps()
    if name in ("operation_utils", "broadcast_shapes", "reduce_shape"):
        from simdist.keras.ops import op_utils
        return op_utils if name == "operation_utils" else getattr(op_utils, name)
    raise AttributeError(name)
