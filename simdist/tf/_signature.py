"""A tf.function's `input_signature` at call time (docs/spec.md `function.input-signature`): the
call's arguments are bound to the Python function's parameters, and each one whose signature
entry is a TensorSpec becomes a tensor of that spec, as TF 2.21's function_type binding does.

A tensor (or Variable) must have the spec's dtype and a shape compatible with it; a Python value
is converted to the spec's dtype; a NumPy array is cast to it. Anything else, too many
arguments, or a failed conversion is TypeError("Binding inputs to tf.function failed due to
`...`"), raised before the function runs or traces. Entries that are not TensorSpecs (nested
structures) and distributed values pass through unchanged.
"""

from __future__ import annotations

import inspect
from typing import Any, Callable


def _spec_text(shape: Any, dtype: Any) -> str:
    dims = shape.as_list() if shape.rank is not None else None
    shown = "<unknown>" if dims is None else "(" + ", ".join("None" if d is None else str(d) for d in dims) + \
        ("," if len(dims) == 1 else "") + ")"
    return f"TensorSpec(shape={shown}, dtype=tf.{dtype.name}, name=None)"


def _fail(why: str, args: tuple, kwargs: dict, signature: str | None = None) -> TypeError:
    """function_type_utils' binding TypeError (`signature`: a ConcreteFunction's, which TF names)."""
    tail = "" if signature is None else f" for signature: {signature}"
    return TypeError(f"Binding inputs to tf.function failed due to `{why}`. Received args: {args!r} and kwargs: "
                     f"{kwargs!r}{tail}.")


def _as_spec(value: Any, spec: Any, args: tuple, kwargs: dict, signature: str | None = None) -> Any:
    import numpy as np

    from simdist.runtime.values import DistributedValues
    from simdist.runtime.tensor import Tensor, convert_to_tensor
    if isinstance(value, DistributedValues):
        return value
    if isinstance(value, Tensor) or hasattr(value, "_as_tensor"):
        t = value if isinstance(value, Tensor) else value._as_tensor()
    elif isinstance(value, np.ndarray):
        try:
            t = convert_to_tensor(value.astype(spec.dtype.as_numpy_dtype))
        except (TypeError, ValueError) as e:
            raise _fail(str(e), args, kwargs, signature) from None
    else:
        try:
            t = convert_to_tensor(value, dtype=spec.dtype)
        except (TypeError, ValueError) as e:
            raise _fail(str(e), args, kwargs, signature) from None
    if t.dtype != spec.dtype or not spec.shape.is_compatible_with(t.shape):
        raise _fail(f"Can not cast {_spec_text(t.shape, t.dtype)} to {_spec_text(spec.shape, spec.dtype)}",
                    args, kwargs, signature)
    if not isinstance(value, Tensor) and hasattr(value, "_as_tensor"):
        return value      # (a Variable: passed as it is)
    # (its dimensions the spec leaves unknown, unknown to the graph: runtime/ops/static_shapes.py)
    from simdist.runtime.ops import static_shapes
    return static_shapes.argument(t, spec.shape)


def bind(fn: Callable[..., Any], signature: Any, args: tuple, kwargs: dict) -> tuple[tuple, dict]:
    """`args` and `kwargs` with each argument a TensorSpec entry names made a tensor of that spec."""
    from simdist.runtime.spec import TensorSpec
    specs = list(signature)
    try:
        params = [p for p in inspect.signature(fn).parameters.values()
                  if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
    except (TypeError, ValueError):
        return args, kwargs
    if len(args) > len(specs) and len(args) > len(params):
        raise _fail("too many positional arguments", args, kwargs)
    out_args = list(args)
    for i, v in enumerate(args[:len(specs)]):
        if isinstance(specs[i], TensorSpec):
            out_args[i] = _as_spec(v, specs[i], args, kwargs)
    out_kwargs = dict(kwargs)
    names = [p.name for p in params]
    for k, v in kwargs.items():
        i = names.index(k) if k in names else -1
        if 0 <= i < len(specs) and isinstance(specs[i], TensorSpec):
            out_kwargs[k] = _as_spec(v, specs[i], args, kwargs)
    return tuple(out_args), out_kwargs
