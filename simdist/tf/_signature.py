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


from simdist.runtime import type_specs as _type_specs  # noqa: E402


def _as_composite(value: Any, spec: Any, args: tuple, kwargs: dict) -> Any:
    """An argument for a composite-spec entry, as TF 2.21's binding treats it (observed; spec api.namespaces
    names43b): NoneTensorSpec makes any value None; IndexedSlicesSpec reads the value's components (no
    `dense_shape`: the AttributeError's text) and casts values and indices to the spec's component specs;
    OptionalSpec needs an Optional (TF reads its `_variant_tensor`; the element spec is not checked);
    TensorArraySpec refuses anything else with TensorArraySpec._to_components' TypeError, and a TensorArray
    with the ValueError TF 2.21 gives (its traced signature binds the TensorArray to no input)."""
    from simdist.runtime.data import Optional
    from simdist.runtime.ops.tensor_array import TensorArray
    from simdist.runtime.spec import TensorSpec
    if isinstance(spec, _type_specs.NoneTensorSpec):
        return None
    if isinstance(spec, _type_specs.IndexedSlicesSpec):
        try:
            value.dense_shape  # noqa: B018 - TF's _to_components reads it first
        except AttributeError as e:
            raise _fail(str(e), args, kwargs) from None
        vs, ind = spec._component_specs()[:2]
        _as_spec(value.values, TensorSpec(vs.shape, vs.dtype), args, kwargs)
        _as_spec(value.indices, TensorSpec(ind.shape, ind.dtype), args, kwargs)
        return value
    if isinstance(spec, _type_specs.OptionalSpec):
        if not isinstance(value, Optional):
            raise _fail(f"'{type(value).__name__}' object has no attribute '_variant_tensor'", args, kwargs)
        # (TF binds the variant as it is; the function's get_value checks the dtypes: OptionalGetValue's
        # InvalidArgumentError for the first component whose dtype differs)
        from simdist.runtime.convert import _CPP_NAMES
        from simdist.runtime.spec import flatten
        want = [s.dtype for s in flatten(spec._element_spec) if hasattr(s, "dtype")]
        have = [s.dtype for s in flatten(value._element_spec) if hasattr(s, "dtype")]
        bad = [k for k, (w, h) in enumerate(zip(want, have)) if w != h]
        if bad and value._has_value:
            k = bad[0]
            bound = Optional(value._value, spec._element_spec, True)
            bound._mismatch = (f"The given optional does not match the expected type for component {k}. "  # type: ignore[attr-defined]
                               f"Expected: {_CPP_NAMES.get(want[k].name, want[k].name)}. "
                               f"Actual: {_CPP_NAMES.get(have[k].name, have[k].name)}.")
            return bound
        return value
    if isinstance(spec, _type_specs.TensorArraySpec):
        if not isinstance(value, TensorArray):
            raise _fail(f"Expected value to be a TensorArray, but got: `{type(value)}`", args, kwargs)
        raise ValueError(f"Signature specifies 0 arguments, got: 1. Expected inputs: []. (TF 2.21 binds a "
                         f"TensorArraySpec entry of an input_signature, {spec!r}, to no graph input, and so "
                         "refuses the TensorArray it is given)")
    return value


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
        elif isinstance(specs[i], _type_specs.TypeSpec):
            out_args[i] = _as_composite(v, specs[i], args, kwargs)
    out_kwargs = dict(kwargs)
    names = [p.name for p in params]
    for k, v in kwargs.items():
        i = names.index(k) if k in names else -1
        if 0 <= i < len(specs) and isinstance(specs[i], TensorSpec):
            out_kwargs[k] = _as_spec(v, specs[i], args, kwargs)
        elif 0 <= i < len(specs) and isinstance(specs[i], _type_specs.TypeSpec):
            out_kwargs[k] = _as_composite(v, specs[i], args, kwargs)
    return tuple(out_args), out_kwargs
