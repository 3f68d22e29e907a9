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
    from simdist.runtime.variables import Variable
    if isinstance(value, DistributedValues) and not isinstance(value, Variable):
        return value
    # (a distributed variable, MirroredVariable or SyncOnReadVariable, is a Variable: its spec is checked as any
    # variable's, else a (5, 5) one bound a TensorSpec([None, 3]) inside strategy.run; fz52b)
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
    # (a Variable is read at the call: TF 2.21 traces an input_signature function on its specs' placeholders, so the
    # Python sees a tensor of the spec, never the variable (no `assign` on it), and every variable of the spec runs
    # the one trace; clause function.input-signature)
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


def _as_nested(value: Any, spec: Any, args: tuple, kwargs: dict, signature: str | None = None) -> Any:
    """An argument for an input_signature entry that nests TensorSpecs in a tuple or a dict (TF 2.21's FunctionType
    casts it item by item, observed: tsweep58): a tuple entry takes a tuple of its length (a list is TypeError), a
    dict entry a dict of its keys; each TensorSpec leaf is bound as a top-level one (`_as_spec`: its dtype and shape
    checked, the dimensions it leaves unknown unknown to the graph). A list entry takes a list only (fix61a)."""
    from simdist.runtime.spec import TensorSpec
    if isinstance(spec, TensorSpec):
        return _as_spec(value, spec, args, kwargs, signature)
    if isinstance(spec, _type_specs.TypeSpec):
        return _as_composite(value, spec, args, kwargs)
    if isinstance(spec, dict):
        if not isinstance(value, dict) or set(value) != set(spec):
            raise _fail(f"Can not cast {value!r} to a dict of keys {sorted(spec)}", args, kwargs, signature)
        return type(value)((k, _as_nested(value[k], spec[k], args, kwargs, signature)) for k in value)
    if isinstance(spec, (tuple, list)) and not hasattr(spec, "_fields"):
        # (trace_type default_types List.cast / Tuple.cast: a list entry takes a list only, a tuple entry a tuple;
        # fix61a, tests/runtime/test_autograph_truth_tf.py `test_list_and_tuple_signature_entries`)
        # A namedtuple is a tuple there: Tuple.cast gives a plain tuple of its items (tsweep65, TF 2.21 observed).
        kind = "tuple" if isinstance(spec, tuple) else "list"
        if not isinstance(value, tuple if kind == "tuple" else list):
            raise _fail(f"Can not cast {value!r} to {kind} type.", args, kwargs, signature)
        if len(value) != len(spec):
            # (List.cast's message takes len() of its components' Tuple, itself an error: TF 2.21's text)
            why = f"Expected {value} to have length of {len(spec)}" if kind == "tuple" else \
                "object of type 'Tuple' has no len()"
            raise _fail(why, args, kwargs, signature)
        return (tuple if kind == "tuple" else type(value))(_as_nested(v, sp, args, kwargs, signature)
                                                           for v, sp in zip(value, spec))
    return value


def _nests_specs(spec: Any) -> bool:
    from simdist.runtime.spec import TensorSpec
    if isinstance(spec, dict):
        return any(isinstance(v, TensorSpec) or _nests_specs(v) for v in spec.values())
    if isinstance(spec, (tuple, list)) and not hasattr(spec, "_fields"):
        return any(isinstance(v, TensorSpec) or _nests_specs(v) for v in spec)
    return False


def bind(fn: Callable[..., Any], signature: Any, args: tuple, kwargs: dict, ftype: list[tuple] | None = None,
         text: str | None = None) -> tuple[tuple, dict]:
    """`args` and `kwargs` with each argument a TensorSpec entry names made a tensor of that spec. `ftype` and
    `text`: the function's FunctionType (`function_type`) and its text, which the binding errors name."""
    from simdist.runtime.spec import TensorSpec
    if ftype is not None:
        args, kwargs = bind_literals(ftype, text, args, kwargs)
    specs = list(signature)
    try:
        params = [p for p in inspect.signature(fn).parameters.values()
                  if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
    except (TypeError, ValueError):
        return args, kwargs
    if len(args) > len(specs) and len(args) > len(params):
        raise _fail("too many positional arguments", args, kwargs, text)
    out_args = list(args)
    for i, v in enumerate(args[:len(specs)]):
        if isinstance(specs[i], TensorSpec):
            out_args[i] = _as_spec(v, specs[i], args, kwargs, text)
        elif isinstance(specs[i], _type_specs.TypeSpec):
            out_args[i] = _as_composite(v, specs[i], args, kwargs)
        elif _nests_specs(specs[i]):
            out_args[i] = _as_nested(v, specs[i], args, kwargs, text)
    out_kwargs = dict(kwargs)
    names = [p.name for p in params]
    # (a parameter a TensorSpec covers that the call leaves out: TF 2.21 binds its default and casts it to the spec as
    # any argument (function_type_utils canonicalization, then the FunctionType's cast), so the Python sees a tensor of
    # the spec in the one trace, and a default the spec refuses (None, another shape) is the call's TypeError)
    for i, p in enumerate(params[:len(specs)]):
        if i < len(args) or p.name in kwargs or p.default is p.empty or not isinstance(specs[i], TensorSpec):
            continue
        value = _as_spec(p.default, specs[i], args, kwargs, text)
        if i == len(out_args):
            out_args.append(value)
        else:
            out_kwargs[p.name] = value
    for k, v in kwargs.items():
        i = names.index(k) if k in names else -1
        if 0 <= i < len(specs) and isinstance(specs[i], TensorSpec):
            out_kwargs[k] = _as_spec(v, specs[i], args, kwargs, text)
        elif 0 <= i < len(specs) and isinstance(specs[i], _type_specs.TypeSpec):
            out_kwargs[k] = _as_composite(v, specs[i], args, kwargs)
        elif 0 <= i < len(specs) and _nests_specs(specs[i]):
            out_kwargs[k] = _as_nested(v, specs[i], args, kwargs, text)
    # (a tensor default past the derived input_signature, after a Python default: its TensorSpec constraint casts
    # the argument too; add_type_constraints, tsweep65/fix65a)
    for n, _, _, c in ftype or ():
        i = names.index(n) if n in names else -1
        if i < len(specs) or not isinstance(c, TensorSpec):
            continue
        if i < len(out_args):
            out_args[i] = _as_spec(out_args[i], c, args, kwargs, text)
        elif n in out_kwargs:
            out_kwargs[n] = _as_spec(out_kwargs[n], c, args, kwargs, text)
    return tuple(out_args), out_kwargs


# -- TF's FunctionType of a function with an input_signature (core/function/polymorphism/function_type.py
# `add_type_constraints`, made when tf.function wraps the Python: clause function.input-signature, open47) ------

class _Literal:
    """The type constraint TF gives a parameter the input_signature leaves out and whose default is a Python
    literal (trace_type.from_value of the default: Literal[value]); the call must pass an equal value."""
    __slots__ = ("value",)

    def __init__(self, value: Any) -> None:
        self.value = value

    def __repr__(self) -> str:
        return f"Literal[{self.value!r}]"


_LITERALS = (bool, int, float, str, type(None))
_DEFAULT = "<captured_default_value>"


def function_type(fn: Callable[..., Any], signature: Any) -> list[tuple] | None:
    """TF 2.21's add_type_constraints: the parameters (name, kind, optional, constraint) a function with an
    input_signature binds its calls to, or its TypeError at decoration. `self` takes no constraint; **kwargs is
    dropped (a keyword the signature does not name is refused); *args takes every entry left, as positional-only
    parameters a_0, a_1, ... (and the named parameters before it become positional-only); each other parameter
    takes the next entry, else its default's type (a Python literal: Literal[value]), else "input_signature
    missing type constraint for y"; a keyword-only parameter without a default is "Since input_signature is
    defined, keyword-only parameter `k` must have a default value"; entries left over are "input_signature
    contains N extra type constraints." None when the Python has no signature inspect reads."""
    try:
        params = list(inspect.signature(fn).parameters.values())
    except (TypeError, ValueError):
        return None
    constraints = list(signature)
    var_pos = any(p.kind is p.VAR_POSITIONAL for p in params)
    out: list[tuple] = []
    for p in params:
        kind = p.POSITIONAL_ONLY if var_pos and p.kind is p.POSITIONAL_OR_KEYWORD else p.kind
        optional = p.default is not p.empty
        if p.name == "self":
            out.append((p.name, kind, optional, None))
        elif p.kind is p.VAR_KEYWORD:
            continue
        elif p.kind is p.VAR_POSITIONAL:
            for i in range(len(constraints)):
                out.append((f"{p.name}_{i}", p.POSITIONAL_ONLY, False, constraints.pop(0)))
        else:
            if p.kind is p.KEYWORD_ONLY and not optional:
                raise TypeError(f"Since input_signature is defined, keyword-only parameter `{p.name}` must have a "
                                "default value")
            if constraints:
                out.append((p.name, kind, optional, constraints.pop(0)))
            elif optional:
                out.append((p.name, kind, optional, _Literal(p.default) if isinstance(p.default, _LITERALS)
                            else _default_spec(p.default)))
            else:
                raise TypeError(f"input_signature missing type constraint for {p.name}")
    if constraints:
        raise TypeError(f"input_signature contains {len(constraints)} extra type constraints.")
    return out



def _default_spec(default: Any) -> Any:
    """trace_type.from_value of a default the input_signature leaves out: a tensor's TensorSpec of its shape and
    dtype (so a call passing another is refused, and the derived input_signature lists it), else the value."""
    from simdist.runtime.spec import TensorSpec
    from simdist.runtime.tensor import Tensor
    if isinstance(default, Tensor):
        return TensorSpec(default.shape, default.dtype)
    return default


def derived_signature(signature: Any, ftype: list[tuple] | None) -> Any:
    """TF 2.21's Function.input_signature (function_type_utils.to_input_signature of the FunctionType): the
    parameters' constraints in order up to the first that is not a TensorSpec, so a tensor default right after the
    given specs adds its own (`f(x, y=tf.constant(5.0))` with one spec: two, structured_input_signature lists `y`,
    calls cast `y` against it); a tuple whatever sequence was given (to_input_signature's `tuple(...)`: a list
    `[TensorSpec(...)]` reads back `(TensorSpec(...),)`; fix66t, probe_sig.py) (tsweep65)."""
    from simdist.runtime.spec import TensorSpec
    if not ftype:
        return tuple(signature)
    given = [c for n, _, _, c in ftype if n != "self"]
    extra = []
    for c in given[len(list(signature)):]:
        if not isinstance(c, TensorSpec):
            break
        extra.append(c)
    return tuple(signature) + tuple(extra)


def trace_refusal(ftype: list[tuple] | None, text: str | None) -> str | None:
    """Why every trace of a function with this input_signature FunctionType fails, or None. TF traces with the
    signature re-laid as positional arguments (tracing_compilation.py `_maybe_define_function`: `args =
    (*input_signature, *args[len(input_signature):])`, the input_signature being function_type_utils'
    to_input_signature: the parameters' TensorSpec constraints in order, up to the first that is not one). A
    TensorSpec constraint on a keyword-only parameter (`f(x, *, k=4.0)` with two specs) is then one positional
    argument more than the parameters take: get_concrete_function() and every call are the binding's TypeError "too
    many positional arguments" and the Python never runs (clause function.input-signature)."""
    from simdist.runtime.spec import TensorSpec
    if not ftype:
        return None

    def tensor_like(c: Any) -> bool:
        leaves = _nest_leaves(c)
        return bool(leaves) and all(isinstance(x, TensorSpec) or (hasattr(x, "shape") and hasattr(x, "dtype")
                                                                  and not isinstance(x, type)) for x in leaves)
    constraints = 0
    for name, _, _, c in ftype:
        if name == "self":
            continue
        if type(c) is _Literal or c is None or not tensor_like(c):
            break
        constraints += 1
    positional = sum(1 for name, kind, _, _ in ftype if name != "self"
                     and kind in (inspect.Parameter.POSITIONAL_ONLY, inspect.Parameter.POSITIONAL_OR_KEYWORD))
    if constraints <= positional:
        return None
    return f"Binding inputs to tf.function failed due to `too many positional arguments`. for signature: {text}."


def _nest_leaves(c: Any) -> list[Any]:
    if isinstance(c, dict):
        return [x for k in sorted(c, key=str) for x in _nest_leaves(c[k])]
    if isinstance(c, (list, tuple)):
        return [x for v in c for x in _nest_leaves(v)]
    return [c]


class _Shown:
    """A default or constraint as inspect's signature text shows it (its repr)."""
    __slots__ = ("text",)

    def __init__(self, text: str) -> None:
        self.text = text

    def __repr__(self) -> str:
        return self.text


def _as_signature(ftype: list[tuple], typed: bool) -> inspect.Signature:
    """`ftype` as an inspect.Signature (TF's FunctionType is one): each optional parameter's default
    <captured_default_value>, each constraint its annotation when `typed`. ValueError if inspect refuses it."""
    return inspect.Signature([inspect.Parameter(
        n, k, default=_Shown(_DEFAULT) if opt else inspect.Parameter.empty,
        annotation=_Shown(_constraint_text(c)) if typed and c is not None else inspect.Parameter.empty)
        for n, k, opt, c in ftype])


def _constraint_text(c: Any) -> str:
    """A parameter's constraint as TF's FunctionType writes it: a list of specs `List[...]`, a tuple `Tuple[...]`
    (trace_type default_types; fix61a), anything else its repr."""
    if isinstance(c, list):
        return "List[" + ", ".join(_constraint_text(v) for v in c) + "]"
    if isinstance(c, tuple) and not hasattr(c, "_fields"):
        return "Tuple[" + ", ".join(_constraint_text(v) for v in c) + "]"
    return repr(c)


def type_text(fn: Callable[..., Any], ftype: list[tuple] | None = None) -> str | None:
    """TF's FunctionType text, which its binding TypeError names ("... for signature: (x, *, k)."): of
    `ftype` (an input_signature's, `function_type`), or of the Python function itself (no constraints)."""
    try:
        if ftype is None:
            params = inspect.signature(fn).parameters.values()
            ftype = [(p.name, p.kind, p.default is not p.empty, None) for p in params]
        return str(_as_signature(ftype, True))
    except (TypeError, ValueError):
        return None


def bind_literals(ftype: list[tuple], text: str | None, args: tuple, kwargs: dict) -> tuple[tuple, dict]:
    """The call bound to `ftype` as TF binds it (inspect's TypeErrors: a missing argument, too many, a keyword
    the signature does not name, **kwargs being dropped), then each parameter given a Python value where its
    constraint is a Literal (a default the input_signature leaves out) checked by == (TF's Literal.cast: "Can
    not cast 2.0 to Literal[4.0]"; a tensor there is "Parameter `k` was expected to be of type Literal[4.0] but
    is TensorSpec(...)"). Returns the call without its Literal arguments (trailing positional ones, keyword ones):
    they equal the defaults, which the Python then receives, so `h(x)` and `h(x, k=4.0)` are one call of one trace,
    as TF's canonical form of both is."""
    from simdist.tf import _concrete
    try:
        sig = _as_signature(ftype, False)
    except ValueError:
        return args, kwargs
    try:
        bound = sig.bind(*args, **kwargs).arguments
    except TypeError as e:
        raise _fail(str(e), args, kwargs, text) from None
    for n, _, _, c in ftype:
        if type(c) is not _Literal or n not in bound:
            continue
        v = bound[n]
        t = _concrete._as_tensor(v)
        if t is not None:
            raise TypeError(f"Parameter `{n}` was expected to be of type {c!r} but is {_spec_text(t.shape, t.dtype)}")
        try:
            same = _concrete._same_literal(v, c.value)
        except Exception as e:  # noqa: BLE001 - TF's `value == self.value` raising (an array's truth)
            raise _fail(str(e), args, kwargs, text) from None
        if not same:
            raise _fail(f"Can not cast {v!r} to {c!r}", args, kwargs, text)
    literal = {n for n, _, _, c in ftype if type(c) is _Literal}
    if literal & set(kwargs):
        kwargs = {k: v for k, v in kwargs.items() if k not in literal}
    names = [n for n, _, _, _ in ftype]
    while args and len(args) <= len(names) and names[len(args) - 1] in literal:
        args = args[:-1]
    return args, kwargs
