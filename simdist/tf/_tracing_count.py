"""`tf.function(...).experimental_get_tracing_count()`: how many times TF would have traced the
function (docs/spec.md `function.tracing-count`).

TF traces once per distinct call type: the call bound to the Python signature with defaults
filled in, tensors (and NumPy arrays and scalars, which tf.function converts to tensors) by dtype
and shape, Variables by dtype, shape and trainable (two variables of one spec share a trace; distributed
variables likewise, as a kind of their own: a MirroredVariable and a sync-on-read one of one spec
share a trace, a plain variable of that spec does not), Python
literals by value (1, 1.0 and True are one literal), lists and tuples and dicts by their kind and
items, other objects by identity. A call whose trace raises is not counted; with an
input_signature every call shares one trace. simdist keeps the distinct keys of the calls that
returned (or traced, for get_concrete_function) in call order; the count is their number,
whatever simdist itself recorded or ran eagerly.
"""

from __future__ import annotations

import inspect
from typing import Any

import numpy as np


def call_key(fn: Any, signature: Any, args: tuple, kwargs: dict) -> Any:
    """The trace key of a call of `fn` (a function with an input_signature: one key)."""
    if signature is not None:
        return ("signature",)
    try:
        bound = inspect.signature(fn).bind(*args, **kwargs)
        bound.apply_defaults()
    except (TypeError, ValueError):
        al: dict = {}
        return (tuple(_key(a, al) for a in args), tuple((k, _key(kwargs[k], al)) for k in sorted(kwargs)))
    # (TF's monomorphic FunctionType lays the keyword parameters out as the signature orders its keyword-only ones,
    # then the **kwargs items sorted by name: function_type.py `canonicalize_to_monomorphic`; the order is what
    # reduce_retracing's relaxation walks, `call_supertype`)
    extra: Any = ()
    kw = bound.kwargs
    if kw:
        for p in bound.signature.parameters.values():
            if p.kind is p.VAR_KEYWORD:
                extra = bound.arguments.get(p.name, ())
    al = {}   # (each variable's alias id in this call: `_key`)
    return (tuple(_key(a, al) for a in bound.args),
            tuple((k, _key(kw[k], al)) for k in kw if k not in extra) + tuple((k, _key(kw[k], al))
                                                                              for k in sorted(extra)))


def _key(x: Any, al: dict | None = None) -> Any:
    """One argument's part of a call key; `al`: the call's variables' alias ids so far (id -> number)."""
    from simdist.runtime.tensor import Tensor
    from simdist.runtime.variables import ResourceVariable
    if isinstance(x, Tensor):
        return ("tensor", x.dtype.name, tuple(x.shape.as_list()))
    if isinstance(x, ResourceVariable):
        # (TF's VariableSpec: dtype, shape, trainable and alias id; observed: a trainable=False variable of one
        # spec takes its own trace; a variable made with shape=TensorShape(None) is keyed by that unknown rank:
        # asweep61's a-retrace-variables; the alias id numbers the call's distinct variables in the order they
        # come (ResourceVariable.__tf_tracing_type__'s `alias_global_id`), so f(a, b) and f(c, b) share a trace,
        # f(c, c) takes another: fix66t's probe_var.py)
        alias = None if al is None else al.setdefault(id(x), len(al))
        return ("variable", x.dtype.name, _declared(x.shape), bool(getattr(x, "trainable", True)), alias)
    from simdist.runtime.values import DistributedValues
    from simdist.runtime.variables import Variable
    if isinstance(x, DistributedValues) and isinstance(x, Variable):
        # (TF 2.21: a distributed variable's trace type is its dtype and shape, one kind for mirrored and
        # sync-on-read whatever their aggregation, another than a plain variable's)
        return ("distributed variable", x.dtype.name, _declared(x.shape))
    if isinstance(x, (np.ndarray, np.generic)):
        return ("tensor", np.asarray(x).dtype.name, np.shape(x))
    if isinstance(x, (bool, int, float, str, complex)) or x is None:
        return ("literal", x)
    if isinstance(x, (list, tuple)):
        return (type(x).__name__, tuple(_key(v, al) for v in x))
    if isinstance(x, dict):
        return ("dict", tuple((repr(k), _key(x[k], al)) for k in sorted(x, key=repr)))
    if type(x).__name__ == "TensorSpec":   # (get_concrete_function's specs)
        shape = None if x.shape.rank is None else tuple(x.shape.as_list())
        # (a named spec's trace type keeps its name: TensorSpec equality and its supertype compare names, so
        # `get_concrete_function(TensorSpec([2], name="x"))` traces again after TensorSpec([2]); fsweep66)
        return ("tensor", x.dtype.name, shape) if not x.name else ("tensor", x.dtype.name, shape, x.name)
    if hasattr(x, "dtype") and hasattr(x, "shape"):   # a distributed value or another tensor-like
        return (type(x).__name__, str(x.dtype), str(x.shape), id(x))
    return ("object", id(x))


def _declared(shape: Any) -> Any:
    """A variable's declared shape as a key's shape (a tuple, None for an unknown rank)."""
    return None if shape.rank is None else tuple(shape.as_list())


def _relax_shape(a: Any, b: Any) -> Any:
    """TensorShape.most_specific_common_supertype as a key's shape (a tuple, None for an unknown rank):
    equal dimensions kept, unequal ones None, ranks that differ (or an unknown one) an unknown rank."""
    if a is None or b is None or len(a) != len(b):
        return None
    return tuple(x if x == y else None for x, y in zip(a, b))


def _covers_shape(a: Any, b: Any) -> bool:
    """Whether shape `a` is a supertype of shape `b` (TensorShape.is_subtype_of, b of a)."""
    if a is None:
        return True
    return b is not None and len(a) == len(b) and all(x is None or x == y for x, y in zip(a, b))


_SHAPED = {"tensor": 2, "variable": 2, "distributed variable": 2}   # (the kinds whose shape relaxes: its index)


def supertype(a: Any, b: Any) -> Any:
    """The most specific common supertype of two trace keys (TF 2.21's TraceType
    `most_specific_common_supertype`), None when there is none: a TensorSpec's (and a VariableSpec's)
    shapes relax dimension by dimension when the rest (dtype, trainable) is equal; lists, tuples and dicts
    of one length and keys relax item by item; anything else (literals, None, objects) only when equal."""
    if type(a) is tuple and type(b) is tuple and a and b and type(a[0]) is str and a[0] == b[0]:
        kind = a[0]
        i = _SHAPED.get(kind)
        if i is not None and len(a) == len(b):
            if a[:i] + a[i + 1:] != b[:i] + b[i + 1:]:
                return None
            return a[:i] + (_relax_shape(a[i], b[i]),) + a[i + 1:]
        if kind in ("list", "tuple") and len(a[1]) == len(b[1]):
            items = [supertype(x, y) for x, y in zip(a[1], b[1])]
            return None if any(v is None for v in items) else (kind, tuple(items))
        if kind == "dict" and [k for k, _ in a[1]] == [k for k, _ in b[1]]:
            items = [supertype(x, y) for (_, x), (_, y) in zip(a[1], b[1])]
            return None if any(v is None for v in items) else \
                ("dict", tuple((k, v) for (k, _), v in zip(a[1], items)))
    return a if a == b else None


def covers(a: Any, b: Any) -> bool:
    """Whether trace key `a` is a supertype of `b` (a call of `b` can run `a`'s trace)."""
    if type(a) is tuple and type(b) is tuple and a and b and type(a[0]) is str and a[0] == b[0]:
        kind = a[0]
        if kind == "tensor" and len(a) == 4 and len(b) == 3:
            # (TensorSpec.is_subtype_of: `not self.name or self.name == other.name`, so a named spec's trace
            # takes an unnamed spec's or a tensor's call, never a call of another name)
            return a[1] == b[1] and _covers_shape(a[2], b[2])
        i = _SHAPED.get(kind)
        if i is not None and len(a) == len(b):
            return a[:i] + a[i + 1:] == b[:i] + b[i + 1:] and _covers_shape(a[i], b[i])
        if kind in ("list", "tuple") and len(a[1]) == len(b[1]):
            return all(covers(x, y) for x, y in zip(a[1], b[1]))
        if kind == "dict" and [k for k, _ in a[1]] == [k for k, _ in b[1]]:
            return all(covers(x, y) for (_, x), (_, y) in zip(a[1], b[1]))
    return a == b


def _call_parts(key: Any) -> Any:
    """A call key's parameters as one list of (name, key) (positional ones by index), or None when the
    key is no call's (an input signature's one key, the no-creation trace)."""
    if type(key) is not tuple or len(key) != 2 or type(key[0]) is not tuple or type(key[1]) is not tuple:
        return None
    return [(i, k) for i, k in enumerate(key[0])] + list(key[1])


def call_supertype(a: Any, b: Any) -> Any:
    """FunctionType.most_specific_common_subtype of call key `a` (the call) with `b` (a trace), as TF 2.21
    computes it (function_type.py): functions are contravariant in their parameters, so it walks the call's
    parameters in order, taking each one's common supertype with the trace's parameter at the same index —
    None at the first whose name (a positional one's index, a keyword's name) differs or whose types have
    none; and IndexError when the trace has fewer parameters than the call (its `list(...)[i]`, reached
    before any name is compared: reduce_retracing's refusal of a call with more *args or **kwargs than an
    earlier trace whose leading parameters relax; clause function.trace-once). A trace with more parameters
    than the call relaxes the call's own ones."""
    pa, pb = _call_parts(a), _call_parts(b)
    if pa is None or pb is None:
        return a if a == b else None
    items = []
    for i, (name, x) in enumerate(pa):
        if i >= len(pb):
            raise IndexError("list index out of range")
        other, y = pb[i]
        if other != name:
            return None
        v = supertype(x, y)
        if v is None:
            return None
        items.append(v)
    n = len(a[0])
    return (tuple(items[:n]), tuple((name, v) for (name, _), v in zip(a[1], items[n:])))


def call_covers(a: Any, b: Any) -> bool:
    """Whether the trace of call key `a` takes a call of key `b` (every parameter of `a` a supertype)."""
    pa, pb = _call_parts(a), _call_parts(b)
    if pa is None or pb is None or len(a[0]) != len(b[0]) or [n for n, _ in a[1]] != [n for n, _ in b[1]]:
        return a == b
    return all(covers(x, y) for (_, x), (_, y) in zip(pa, pb))


def dispatch(seen: list[Any], key: Any, reduce_retracing: bool) -> Any:
    """The trace key a call of `key` runs (TF 2.21's function_cache): an equal trace's; else the most specific
    trace whose parameters are supertypes of the call's (type_dispatch.TypeDispatchTable.dispatch: the
    earliest of equally specific ones); else a new trace, whose key with `reduce_retracing` is the call's
    relaxed against every earlier trace in turn (`try_generalizing_function_type`: each common supertype that
    exists replaces it), so a second batch size traces [None, 2] and later sizes run that trace."""
    if key in seen:
        return key
    best = None
    for other in seen:
        if call_covers(other, key) and (best is None or call_covers(best, other)):
            best = other
    if best is not None:
        return best
    if reduce_retracing:
        for other in seen:
            relaxed = call_supertype(key, other)
            if relaxed is not None:
                key = relaxed
    return key


def relaxed_arguments(fn: Any, args: tuple, kwargs: dict, concrete: Any, key: Any) -> tuple[tuple, dict]:
    """The call's arguments as the trace of `key` sees them (`concrete`: the call's own key): each tensor
    whose trace shape has unknown dimensions (or an unknown rank) a fresh alias marked so
    (runtime/ops/static_shapes.py `argument`), bound as `call_key` binds them; a Variable keeps its own
    shape (TF's trace reads the variable's); unchanged when the keys are equal."""
    if key == concrete or _call_parts(key) is None:
        return args, kwargs
    try:
        binding = inspect.signature(fn).bind(*args, **kwargs)
        binding.apply_defaults()   # (as call_key binds)
        a, k = binding.args, binding.kwargs
    except (TypeError, ValueError):
        a, k = args, kwargs
    if len(a) != len(key[0]):
        return args, kwargs
    names = dict(key[1])
    return (tuple(_relaxed(v, s) for v, s in zip(a, key[0])),
            {n: (_relaxed(v, names[n]) if n in names else v) for n, v in k.items()})


def _relaxed(x: Any, key: Any) -> Any:
    from simdist.runtime.tensor import Tensor
    if type(key) is not tuple or not key:
        return x
    if key[0] == "tensor" and type(x).__name__ == "TensorSpec":
        # (get_concrete_function's spec under a relaxed trace: the trace's shape, its own name; fsweep66)
        shape = key[2]
        if shape is not None and None not in shape:
            return x
        from simdist.runtime.tensor import TensorShape
        return type(x)(TensorShape(None if shape is None else list(shape)), x.dtype, x.name)
    if key[0] == "tensor" and isinstance(x, Tensor):
        shape = key[2]
        if shape is not None and None not in shape:
            return x
        from simdist.runtime.ops import static_shapes
        from simdist.runtime.tensor import TensorShape
        return static_shapes.argument(x, TensorShape(None if shape is None else list(shape)))
    if key[0] in ("list", "tuple") and isinstance(x, (list, tuple)) and len(x) == len(key[1]):
        items = [_relaxed(v, s) for v, s in zip(x, key[1])]
        if all(i is v for i, v in zip(items, x)):
            return x
        return type(x)(*items) if hasattr(x, "_fields") else type(x)(items)
    if key[0] == "dict" and isinstance(x, dict):
        subs = dict(key[1])
        items = {k: _relaxed(v, subs.get(repr(k))) for k, v in x.items()}
        if all(items[k] is v for k, v in x.items()):
            return x
        return type(x)(items) if type(x) is not dict and _rebuildable(x) else items
    return x


def _rebuildable(x: dict) -> bool:
    """Whether type(x)(a dict) makes a dict of x's kind (an OrderedDict does; a defaultdict does not)."""
    try:
        type(x)({})
    except TypeError:
        return False
    return True


def note(seen: list[Any], key: Any) -> None:
    """Count `key` if no earlier trace has an equal key (a list: keys compare with ==, which
    makes the literals 1, 1.0 and True one)."""
    if key not in seen:
        seen.append(key)
