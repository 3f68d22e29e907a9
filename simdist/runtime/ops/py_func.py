"""tf.numpy_function and tf.py_function: a Python function called on the inputs' values, as TF
2.21 runs them executing eagerly (script_ops.py), observed:

- numpy_function(func, inp, Tout) calls func with NumPy arrays and converts what it returns with
  convert_to_tensor (its own dtype: a float64 array stays float64, a Python float is float32,
  whatever Tout says); a list Tout gives a list; an exception raised by func propagates as is; it
  is not differentiable (its outputs get no gradient);
- py_function(func, inp, Tout) calls func with tensors and converts each output to its Tout dtype
  (a tensor of another dtype is InvalidArgumentError, an exception raised by func UnknownError);
  the ops func runs are seen by the tapes, so gradients flow through them.
Both run their Python on every call of a tf.function that holds them, as TF's PyFunc kernels do:
the call is not recorded (dispatch.unrecordable) and runs eagerly each time. Not matched: inside a
tf.function TF gives py_function's outputs an unknown static shape and checks numpy_function's
dtypes against Tout; simdist, which runs the function's Python on values, gives the eager results.
"""

from __future__ import annotations

from typing import Any, Callable

import numpy as np

from simdist.runtime import context, dtypes, errors
from simdist.runtime.ops import dispatch, static_shapes
from simdist.runtime.tensor import Tensor, convert_to_tensor

__all__ = ["numpy_function", "py_function", "kernel_error"]


def kernel_error(e: BaseException) -> errors.OpError:
    """The status TF's PyFunc kernel makes of a Python exception (py_func.cc, observed through
    tf.data's from_generator and py_function): ValueError and TypeError -> InvalidArgumentError,
    StopIteration -> OutOfRangeError, MemoryError -> ResourceExhaustedError, NotImplementedError ->
    UnimplementedError, anything else (an OpError too) -> UnknownError; the message starts with the
    exception's class name."""
    cls = (errors.InvalidArgumentError if isinstance(e, (ValueError, TypeError)) else
           errors.OutOfRangeError if isinstance(e, StopIteration) else
           errors.ResourceExhaustedError if isinstance(e, MemoryError) else
           errors.UnimplementedError if isinstance(e, NotImplementedError) else errors.UnknownError)
    text = e.message if isinstance(e, errors.OpError) else str(e) if not isinstance(e, KeyError) else repr(e.args[0])
    return cls(None, None, f"{type(e).__name__}: {text}")


def _inputs(inp: Any) -> list:
    from simdist.runtime.ops.args import t as _t
    if inp is None:
        return []
    return [_t(x) if isinstance(x, Tensor) or hasattr(x, "value") else convert_to_tensor(x)
            for x in (inp if isinstance(inp, (list, tuple)) else [inp])]


def numpy_function(func: Callable[..., Any], inp: Any, Tout: Any, stateful: bool = True,  # noqa: N803
                   name: str | None = None) -> Any:
    """`tf.numpy_function`: func(*arrays), each output converted by its own dtype."""
    from simdist.runtime.ops import xla_unsupported
    xla_unsupported.check_python_callback("PyFunc")
    dispatch.unrecordable("it calls tf.numpy_function, whose Python TF runs on every call")
    if stateful:
        context.note_stateful_op("PyFunc")   # (TF's op; PyFuncStateless otherwise: dataset.iterator-checkpoint)
    from simdist.runtime import symbolic
    args = [np.asarray(dispatch.raw(x)) for x in _inputs(inp)]
    if not context.in_function():
        with symbolic.eager():
            out = func(*args)
        if isinstance(Tout, (list, tuple)):
            outs = out if isinstance(out, (list, tuple)) else [out]
            return [convert_to_tensor(np.asarray(o) if isinstance(o, np.generic) else o) for o in outs]
        return convert_to_tensor(out)
    try:   # (inside a tf.function: the PyFunc kernel's statuses and its check of each output's dtype)
        with symbolic.eager():
            out = func(*args)
    except Exception as e:  # noqa: BLE001 - the kernel turns any exception into a status
        raise kernel_error(e) from e
    listed = isinstance(Tout, (list, tuple))
    douts = [dtypes.as_dtype(d) for d in (Tout if listed else [Tout])]
    outs = (out if isinstance(out, (list, tuple)) else [out]) if listed else [out]
    if len(outs) != len(douts):
        raise errors.InvalidArgumentError(None, None, f"The function returned {len(outs)} values, but expected "
                                          f"{len(douts)}")
    got = []
    for i, (o, d) in enumerate(zip(outs, douts)):
        a = np.asarray(dispatch.raw(o) if isinstance(o, Tensor) else o)
        t = convert_to_tensor(a)
        if t.dtype != d:
            raise errors.InvalidArgumentError(None, None, f"{i}-th value returned by pyfunc is {t.dtype.name}, "
                                              f"but expects {d.name}")
        got.append(static_shapes.mark_rank_unknown(t))   # (the PyFunc op's outputs: shape unknown to the graph)
    return got if listed else got[0]


def py_function(func: Callable[..., Any], inp: Any = None, Tout: Any = None, name: str | None = None) -> Any:
    """`tf.py_function`: func(*tensors), each output converted to its Tout dtype."""
    from simdist.runtime.ops import xla_unsupported
    xla_unsupported.check_python_callback("EagerPyFunc")
    dispatch.unrecordable("it calls tf.py_function, whose Python TF runs on every call")
    context.note_stateful_op("EagerPyFunc")   # (TF's op; stateful: dataset.iterator-checkpoint)
    from simdist.runtime import symbolic
    try:
        with symbolic.eager():   # (func reads its tensors as eager ones, also inside a tf.function; the
            out = func(*_inputs(inp))   # tensors themselves, so a tape differentiates through func's ops)
    except Exception as e:  # noqa: BLE001 - the kernel turns any exception into a status
        raise kernel_error(e) from e
    ins = [id(x) for x in _inputs(inp)]
    if isinstance(Tout, (list, tuple)):
        outs = [] if out is None else out if isinstance(out, (list, tuple)) else [out]
        if len(outs) != len(Tout):
            raise errors.InvalidArgumentError(None, None, f"The function returned {len(outs)} values, but expected "
                                              f"{len(Tout)}")
        return [_unknown_rank(_convert(o, dtypes.as_dtype(d)), ins) for o, d in zip(outs, Tout)]
    if Tout is None:
        return None
    return _unknown_rank(_convert(out, dtypes.as_dtype(Tout)), ins)


def _unknown_rank(t: Tensor, inputs: list[int]) -> Tensor:
    """t, an output of the EagerPyFunc op, whose shape the graph does not know (TF 2.21: rank None inside a
    tf.function; clause function.autograph); an input func returned as it is is passed through an identity (so a
    tape still differentiates through it, and the input keeps its shape)."""
    if not context.in_function():
        return t
    if id(t) in inputs:
        from simdist.runtime.ops import array
        t = array.identity(t)
    return static_shapes.mark_rank_unknown(t)


def _convert(value: Any, dt: dtypes.DType) -> Tensor:
    if isinstance(value, Tensor) and value.dtype != dt:
        raise errors.InvalidArgumentError(None, None, f"ValueError: Tensor conversion requested dtype {dt.name} for "
                                          f"Tensor with dtype {value.dtype.name}")
    return value if isinstance(value, Tensor) else convert_to_tensor(value, dtype=dt)
