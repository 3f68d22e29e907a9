"""`tf.raw_ops`: one function per registered op that is a TF raw op (clause ops.raw-ops).

Each function has TF 2.21's signature for the raw op, recorded from the installed TF into
raw_opdefs.json (scripts/make_raw_opdefs.py): keyword-only (a positional argument is TF's
TypeError), its inputs and non-inferred attrs by the Python names TF gives them, their defaults,
`name=`; the function's own name is TF's (`mat_mul`), so Python's own argument errors (a missing
or unknown keyword) read as TF's. A call checks each attr as TF's eager execute does (make_bool,
make_int, ... and their TypeError texts), converts the inputs as args_to_matching_eager does (the
inputs sharing a type attr take the first tensor's dtype, Python values that dtype or the attr's
default), and runs the op through dispatch.execute with its tensors and attrs as the op's
`raw_args` maps them (runtime/ops/raw_args.py): tapes, tf.function recording and the op's
registered gradient see it as they see the public function's call.
"""

from __future__ import annotations

import collections
import inspect
import json
from functools import lru_cache
from pathlib import Path
from typing import Any, Callable

import numpy as np

from simdist.runtime import context, dtypes, errors
from simdist.runtime.ops import (attr_rules, dispatch, graph_inputs, infer_ctx, list_inputs, onednn_padding, raw_layout,
                                 raw_rules, registry, trace_errors)
from simdist.runtime.ops.raw_args import NO_EFFECT, RawArgs
from simdist.runtime.tensor import Tensor, convert_to_tensor

__all__ = ["opdefs", "function", "binding", "bound_names", "unbound"]

_FILE = Path(__file__).with_name("raw_opdefs.json")


@lru_cache(maxsize=1)
def opdefs() -> dict[str, Any]:
    """The recorded signatures: {"count", "names", "ops": {name: {function, args, inferred, outputs}}}."""
    with open(_FILE, encoding="utf-8") as f:
        return json.load(f)


def _forward_params(op: registry.OpDef) -> tuple[int, int, bool, set[str], set[str], bool] | None:
    """(required positional, positional capacity, *args, names taking a keyword, required
    keyword-able names, **kwargs) of the op's forward; None when it has no signature."""
    fwd = op.forward
    nin = getattr(fwd, "nin", None)
    if nin is not None and callable(fwd) and type(fwd).__name__ == "ufunc":
        return nin, nin, False, set(), set(), False
    try:
        sig = inspect.signature(fwd)
    except (TypeError, ValueError):
        return None
    req = cap = 0
    star = kwvar = False
    names: set[str] = set()
    required: set[str] = set()
    for p in sig.parameters.values():
        if p.kind is p.VAR_POSITIONAL:
            star = True
        elif p.kind is p.VAR_KEYWORD:
            kwvar = True
        elif p.kind is p.KEYWORD_ONLY:
            names.add(p.name)
            if p.default is p.empty:
                required.add(p.name)
        else:
            cap += 1
            names.add(p.name)
            if p.default is p.empty:
                req += 1
                required.add(p.name)
    return req, cap, star, names, required, kwvar


@lru_cache(maxsize=1)
def _declared() -> bool:
    from simdist.runtime.ops import raw_forms, raw_forms_more, raw_forms_parsing, raw_forms_random, raw_forms_sparse
    from simdist.runtime.ops import raw_forms_strings
    raw_forms.declare()
    raw_forms_more.declare()   # (session 20's forms: after raw_forms, whose reasons they replace)
    for more in (raw_forms_random, raw_forms_sparse, raw_forms_strings, raw_forms_parsing):   # (session 28's)
        more.declare()
    return True


# Layout attrs: simdist's ops compute TF's default layout (channels last) only; a raw call accepts
# the default and refuses another value with UnimplementedError (TF's own CPU kernels refuse most
# channels-first layouts too)
LAYOUT = ("data_format",)


def binding(name: str) -> RawArgs | str:
    """The op's raw-call mapping, or why simdist has no raw form of `name`."""
    _declared()
    spec = opdefs()["ops"].get(name)
    if spec is None:
        return "it is not a TF raw op" if name not in opdefs()["names"] else "simdist does not implement the op"
    try:
        op = registry.get(name)
    except LookupError:
        # (a raw op simdist computes as a composition of its ops: runtime/ops/raw_compositions.py)
        # (or as the op's successor: runtime/ops/raw_legacy.py)
        from simdist.runtime.ops import raw_compositions, raw_functional, raw_legacy, raw_resource_ops
        composed = raw_compositions.forms().get(name) if name in raw_compositions.NAMES else None
        if composed is None and name in raw_legacy.NAMES:
            composed = raw_legacy.forms()[name]
        if composed is None and name in raw_functional.NAMES:   # (the function-calling ops)
            composed = raw_functional.forms()[name]
        if composed is None and name in raw_resource_ops.NAMES:   # (the ops over a resource handle)
            composed = raw_resource_ops.forms()[name]
        return composed if composed is not None else "simdist does not implement the op"
    if isinstance(op.raw_args, str):
        return op.raw_args
    if op.raw_args is not None:
        return op.raw_args
    handles = [a["py"] for a in spec["args"] if a.get("dtype") in ("resource", "variant")]
    if handles:   # (a variable's or a table's handle: simdist's ops take the state itself, not a handle tensor)
        return f"its input {handles[0]!r} is a resource handle, which simdist's op does not take"
    if op.bound:
        return f"its outputs are computed outside an op's forward ({op.bound})"
    params = _forward_params(op)
    if params is None:
        return "its forward has no signature to bind the raw arguments to"
    req, cap, star, names, required, kwvar = params
    inputs = [a for a in spec["args"] if "input" in a]
    attrs = {a["attr"] for a in spec["args"] if "attr" in a and a["attr"] not in NO_EFFECT}
    attrs -= {a for a in LAYOUT if a not in names}
    positional = _positional_names(op)
    if any("number_attr" in a or "type_list_attr" in a for a in inputs):
        # a list input fills the forward's *arrays: only as the op's one input
        if not star or len(inputs) != 1 or positional:
            return "its list input does not map onto the forward's arguments (no RawArgs declared)"
        rest = names
    else:
        if len(inputs) > cap and not star:
            return "its inputs do not map onto the forward's arguments (no RawArgs declared)"
        rest = names - set(positional[:len(inputs)])
    missing = (required - set(positional[:len(inputs)])) - attrs
    if missing:
        return f"its forward needs {sorted(missing)}, which the raw op's attrs do not give (no RawArgs declared)"
    for at in sorted(attrs):
        if at not in rest and not kwvar:
            return f"its attr {at!r} is not an argument of the forward (no RawArgs declared)"
    return RawArgs(attrs={at: at for at in sorted(attrs)})


def _positional_names(op: registry.OpDef) -> list[str]:
    try:
        return [p.name for p in inspect.signature(op.forward).parameters.values()
                if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
    except (TypeError, ValueError):
        return []


@lru_cache(maxsize=1)
def _registry_complete() -> bool:
    """Import every op module, so that the answers below do not depend on what was imported before.

    An op is registered when its module is imported; `from simdist import tf` imports them all, but
    a caller of `bound_names` that had not (a tool, a test) got the ops of the modules it happened to
    import (200 of 399), and the cache kept that answer for the process."""
    import importlib
    import pkgutil

    from simdist.runtime import ops as package
    for name in sorted(m.name for m in pkgutil.walk_packages(package.__path__, package.__name__ + ".")):
        importlib.import_module(name)
    return True


@lru_cache(maxsize=None)
def bound_names() -> tuple[str, ...]:
    """The raw ops simdist implements (sorted), whichever op modules the caller imported."""
    _registry_complete()
    return tuple(sorted(n for n in opdefs()["ops"] if isinstance(binding(n), RawArgs)))


def eager_refused() -> tuple[str, ...]:
    """The bound raw ops with an attr of type "tensor" (ImageSummary), every eager call of which TF 2.21 refuses
    (tensor_attrs.eager_refusal): no recorded eager call can succeed; their differential modules call them in a
    tf.function."""
    return tuple(n for n in bound_names() if any(a.get("type") == "tensor" for a in opdefs()["ops"][n]["args"]))


def unbound() -> dict[str, str]:
    """Registered ops that are TF raw ops without a raw form: name -> why."""
    _registry_complete()
    out = {}
    for n in sorted(opdefs()["ops"]):
        b = binding(n)
        if isinstance(b, str):
            out[n] = b
    return out


# --- attr checks (TF's tensorflow/python/eager/execute.py make_*) ------------------------------------

def _make_bool(v: Any, arg: str) -> bool:
    if not isinstance(v, bool):
        raise TypeError(f"Expected bool for argument '{arg}' not {v!r}.")
    return v


def _make_int(v: Any, arg: str) -> int:
    if isinstance(v, str):
        raise TypeError(f"Expected int for argument '{arg}' not {v!r}.")
    try:
        return int(v)
    except (ValueError, TypeError):
        raise TypeError(f"Expected int for argument '{arg}' not {v!r}.") from None


def _make_float(v: Any, arg: str) -> float:
    import numbers   # (TF's compat.real_types: numbers.Real, NumPy's integers and floats; a bool is Real)
    if not isinstance(v, numbers.Real):
        raise TypeError(f"Expected float for argument '{arg}' not {v!r}.")
    return float(v)


def _make_str(v: Any, arg: str) -> str:
    if not isinstance(v, (str, bytes)):
        raise TypeError(f"Expected string for argument '{arg}' not {v!r}.")
    return v.decode() if isinstance(v, bytes) else v


def _make_type(v: Any, arg: str) -> dtypes.DType:
    if v is None:   # (TF's make_type: dtypes.as_dtype(None) is a TypeError; simdist's as_dtype reads it as a default)
        raise TypeError(f"Expected DataType for argument '{arg}' not None.")
    try:
        return dtypes.as_dtype(v)
    except (TypeError, ValueError, KeyError):
        raise TypeError(f"Expected DataType for argument '{arg}' not {v!r}.") from None


def _make_shape(v: Any, arg: str) -> tuple | None:
    from simdist.runtime.tensor import TensorShape
    try:
        s = TensorShape(v)
    except TypeError as e:
        raise TypeError(f"Error converting {arg} to a TensorShape: {e}.") from None
    except ValueError as e:
        raise ValueError(f"Error converting {arg} to a TensorShape: {e}.") from None
    return None if s.rank is None else tuple(s.as_list())


def _make_tensor(v: Any, arg: str) -> np.ndarray:
    from simdist.runtime.ops import tensor_attrs
    return tensor_attrs.make_tensor(v, arg)


def _make_func(v: Any, arg: str) -> Any:
    from simdist.runtime.ops import raw_functional
    return raw_functional.make_func(v, arg)


_SCALAR = {"bool": _make_bool, "int": _make_int, "float": _make_float, "string": _make_str, "type": _make_type,
           "shape": _make_shape, "tensor": _make_tensor, "func": _make_func}


def _attr_value(v: Any, a: dict[str, Any], fname: str, fast: bool = True, op: str = "", listed: bool = True) -> Any:
    """The attr's value checked and converted as TF's raw-op wrapper does (None: the attr's
    default, as the generated wrappers read it); `listed` False: a string attr's allowed values
    are not checked (the wrapper's make_str only; op_def_library checks the list later)."""
    if v is None and not a.get("required"):
        v = _default_value(a)
    kind = a["type"]
    arg = a["py"]
    if v is None and kind.startswith("list(") and not context.in_function() and fast:
        # (TF's eager fast path reads None as an empty list: then the attr's minimum, if any, refuses it;
        # an input the fast path does not take sends the call to the fallback, whose make_* list check
        # refuses None: rawfz21, seed 2020261202 #277)
        v = ()
    if kind == "shape" and fast and isinstance(v, (list, tuple)) and not context.in_function():
        v = _fast_path_shape(v, op)
    if kind.startswith("list("):
        if fast and not context.in_function():
            attr_rules.sized_list(v)   # (the fast path's SetOpAttrList: a 0-d array or tensor is MemoryError)
            if kind == "list(int)" and not isinstance(v, (list, tuple)) and attr_rules.sequence_attr_taken(v):
                v = list(v)   # (the fast path reads any sequence of Python ints: a TensorShape, a range; fz33b,
                # `tf.nn.dilation2d(x, f, TensorShape([1, 1, 1, 1]), ...)` eagerly)
        if not isinstance(v, (list, tuple)):
            raise TypeError(f"Expected list for '{arg}' argument to '{fname}' Op, not {v!r}.")
        make = _SCALAR[kind[5:-1]]
        return tuple(make(x, arg) for x in v)
    out = _SCALAR[kind](v, arg)
    allowed = a.get("allowed")
    if kind == "string" and allowed and listed and out not in allowed:
        raise raw_rules.string_not_allowed(op, a["attr"], out, allowed)
    return out


def _fast_path_refuses(v: Any, a: dict[str, Any]) -> bool:
    """Whether TF's eager fast path gives up on an attr value and sends the call to the wrapper's
    fallback: a float attr given anything but a Python float (an int, a bool, a NumPy float32 or int64; a float
    subclass such as np.float64 passes: observed on TF 2.21 through the error class of a fixed-dtype input given a
    tensor of another dtype, the fallback's ValueError against EagerExecute's InvalidArgumentError); a list(int) holding a float (SetOpAttrList parses each item as a Python int), where
    the fallback's make_int truncates it and its list checks refuse a None beside it (TypeError
    "Expected list for 'strides' argument to 'max_pool3d' Op, not None."; observed on TF 2.21,
    fuzz20 seed 2920261201 #110)."""
    import numbers
    if a["type"] == "float" and v is not None and not isinstance(v, float):
        return True   # (a float attr given anything but a Python float: an int default such as BlockLSTMV2's cell_clip=0)
    return a["type"] == "list(int)" and isinstance(v, (list, tuple)) and \
        any(isinstance(x, numbers.Real) and not isinstance(x, numbers.Integral) for x in v)


def _fast_path_shape(v: list | tuple, op: str) -> list | tuple:
    """A shape attr given as a Python list or tuple, as TF's eager fast path reads it
    (pywrap_tfe_src.cc SetOpAttrScalar): -1 an unknown dimension; a smaller value the NodeDef's
    InvalidArgumentError "Shape [-2,2] has dimensions with values below -1 (where -1 means
    unknown)". (Observed on TF 2.21: `EnsureShape(shape=[-1, 2])` eagerly; a NumPy array, a call
    on the fallback path and a tf.function take make_shape's ValueError, as before.)"""
    import numbers
    if not all(d is None or (isinstance(d, numbers.Integral) and not isinstance(d, bool)) for d in v):
        return v
    if any(d is not None and d < -1 for d in v):
        text = ",".join("-1" if d is None else str(int(d)) for d in v)
        raise errors.InvalidArgumentError(None, None, f"Shape [{text}] has dimensions with values below -1 (where -1 "
                                                      f"means unknown) [Op:{op}]")
    return type(v)(None if d is not None and d == -1 else d for d in v)


# --- inputs (TF's args_to_matching_eager) ------------------------------------------------------------

def _convert_group(values: list[Any], allowed: list[str] | None, default: str | None,
                   graph: bool = False, fast: bool = False) -> list[Tensor]:
    """Values sharing one type attr: the first tensor's dtype for all; without a tensor, the first
    value's own conversion (if its dtype is allowed) or the attr's default, then that dtype. In a graph
    (`graph`) the default comes first: op_def_library converts Python values with the attr's default as
    their preferred dtype (RaggedGather's [[0, 2, 5]] splits are int64 in a tf.function, int32 eagerly;
    observed on TF 2.21). On the eager fast path (`fast`) the first tensor or resource variable fixes the
    dtype (MaybeGetDTypeForAttr) and a variable passes as it is, read, so a tensor of another dtype beside
    it is the kernel's "cannot compute ... as input #1" (`Dilation2D(input=int32 variable, filter=int8
    tensor)`; fz37b, fz14 seed 1420373005 #59), where the fallback converts the variable (ValueError)."""
    on_fast = fast and not graph and any(hasattr(v, "_as_tensor") and not isinstance(v, Tensor) for v in values) \
        and any(isinstance(v, Tensor) for v in values)
    if on_fast:
        dtype = next(v.dtype for v in values if isinstance(v, Tensor) or hasattr(v, "_as_tensor"))
    else:
        dtype = next((v.dtype for v in values if isinstance(v, Tensor)), None)
    if dtype is None and _fast_path_variable(values):
        dtype = next(v.dtype for v in values if hasattr(v, "_as_tensor"))
    if dtype is None and fast and not graph and default is not None and \
            all(type(v) in (bool, int, float, complex) for v in values):
        # (the fast path with no tensor to take the type attr from converts Python values with the attr's
        # default: `tf.raw_ops.FFT(input=True)`, `tf.fftnd(True, np.array([3]), axes=0)` are TypeError "Cannot
        # convert True to EagerTensor of dtype complex64"; fz37b, fz14 seed 1420373006 #273)
        dtype = dtypes.as_dtype(default)
    out = []
    for v in values:
        if isinstance(v, Tensor):
            out.append(v)
            continue
        if on_fast and hasattr(v, "_as_tensor"):
            out.append(convert_to_tensor(v))   # (ReadVariableOp, its own dtype)
            continue
        if dtype is None:
            t = None
            if graph and default is not None:
                try:
                    t = convert_to_tensor(v, dtype=default)
                except (TypeError, ValueError):
                    t = None
                if t is not None and allowed and t.dtype.name not in allowed:
                    t = None
            if t is None and allowed:
                t = convert_to_tensor(v)
                if t.dtype.name not in allowed:
                    t = None
            if t is None:
                t = convert_to_tensor(v, dtype_hint=default)
            dtype = t.dtype
            out.append(t)
        else:
            out.append(convert_to_tensor(v, dtype=dtype))
    return out


def _fast_path_variable(values: list[Any]) -> bool:
    """Eagerly, TF's fast path (TFE_Py_FastPathExecute) takes a type attr from a variable as from a
    tensor and converts NumPy arrays and Python numbers beside it to that dtype (`SelectV2(t=int32 array, e=float32
    variable)` is float32); a list or a NumPy scalar sends the call to the fallback, which converts
    the first value on its own (fz21, fourth generator seed 2101 #57). Not in a tf.function."""
    from simdist.runtime import context
    if context.in_function() or not any(hasattr(v, "_as_tensor") and not isinstance(v, Tensor) for v in values):
        return False
    import numpy as np
    return all(type(v) in (int, float) or isinstance(v, (Tensor, np.ndarray)) or hasattr(v, "_as_tensor")
               for v in values)


def _graph_group(members: list[tuple[str, int | None, Any]], info: dict[str, Any], op: str) -> None:
    """op_def_library's inference of a type attr while a graph is built, where the eager fast path
    takes the first tensor's dtype: the first input fixes it, a Python value by its own conversion
    (the attr's default preferred), checked against the allowed types; a later tensor of another
    dtype is its TypeError (Slice(begin=[0], size=int64 tensor); rawfz21, seed 2020261201 #215)."""
    if not members or isinstance(members[0][2], Tensor) or not any(isinstance(x, Tensor) for _, _, x in members):
        return
    first, i0, v = members[0]
    listed = next((x for name, i, x in members if name == first and i is not None and isinstance(x, Tensor)), None) \
        if i0 is not None else None
    if listed is not None:   # (a list input: its Python values take the dtype of its first Tensor, as
        # op_def_library's _apply_op_helper converts them: ConcatOffset(shape=([2, 4, 4], an int64 tensor)); fz31a,
        # sig seed 3120261207 #197)
        for name, _, x in members:
            if name != first and isinstance(x, Tensor) and x.dtype != listed.dtype:
                raise TypeError(f"Input '{name}' of '{op}' Op has type {x.dtype.name} that does not match type "
                                f"{listed.dtype.name} of argument '{first}'.")
        return
    allowed = info.get("allowed")
    try:
        t = _graph_convert(v, allowed if info.get("default") is not None else None, info.get("default"))
    except (TypeError, ValueError):
        return
    if allowed and t.dtype.name not in allowed:
        raise TypeError(f"Value passed to parameter '{first}' has DataType {t.dtype.name} not in list of allowed "
                        f"values: {', '.join(allowed)}")
    for name, _, x in members[1:]:
        if isinstance(x, Tensor) and x.dtype != t.dtype:
            raise TypeError(f"Input '{name}' of '{op}' Op has type {x.dtype.name} that does not match type "
                            f"{t.dtype.name} of argument '{first}'.")


def _graph_convert(v: Any, allowed: list[str] | None, default: str | None) -> Tensor:
    """op_def_library's conversion of the Python value that comes first for a type attr: an attr with a
    default and allowed types takes the value's own conversion if that dtype is allowed, and the default
    only otherwise (MatrixBandPart(num_lower=2, num_upper=an int32 tensor) builds: 2 is int32 though
    Tindex defaults to int64; fz32a, sig seed 3220261202 #36); without allowed types, the default preferred."""
    if allowed:
        try:
            own = convert_to_tensor(v)
        except TypeError:
            own = None
        if own is not None and own.dtype.name in allowed:
            return own
    return convert_to_tensor(v, dtype_hint=default)


def _given(v: Any) -> bool:
    """Whether an input's value gives its type attr a dtype (an empty list gives none)."""
    return v is not None and not (isinstance(v, (list, tuple)) and len(v) == 0)


def _inputs(spec: dict[str, Any], kw: dict[str, Any], vals: dict[str, Any], fname: str, op: str,
            fast: bool = True) -> dict[str, Any]:
    """Each OpDef input converted (a list input as a list of Tensors), by OpDef name; `fast`: whether TF's eager fast
    path takes the call (else the wrapper's fallback converts each fixed-dtype input to its dtype)."""
    inferred = spec["inferred"]
    groups: dict[str, list[tuple[str, int | None, Any]]] = {}
    out: dict[str, Any] = {}
    for a in spec["args"]:
        if "input" not in a:
            continue
        v = kw[a["py"]]
        listed = "number_attr" in a or "type_list_attr" in a
        if listed:
            v = _as_list(v, a["py"], fname)
            if "number_attr" in a:
                n = a["number_attr"]
                if n in vals and vals[n] != len(v):
                    raise ValueError(f"List argument '{a['py']}' to '{fname}' Op with length {len(v)} must match "
                                     f"length {vals[n]} of argument '{_number_source(spec, n)}'.")
                vals[n] = len(v)
                minimum = inferred.get(n, {}).get("minimum", 0)
                if len(v) < minimum:   # eagerly the NodeDef's attr check (an empty list: no T for the
                    # kernel lookup); a graph build op_def_library's ValueError (rawfz21, seed 2020261201 #185)
                    t_attr = a.get("type_attr", "T")
                    if not v:   # (T from another input of it, a default or the caller: list_inputs.empty_list)
                        typed = t_attr in vals or "default" in inferred.get(t_attr, {}) or any(
                            b is not a and b.get("type_attr") == t_attr and _given(kw.get(b["py"]))
                            for b in spec["args"] if "input" in b)
                        raise list_inputs.empty_list(op, a["py"], typed, n, t_attr, minimum)
                    text = f"Value for attr '{n}' of {len(v)} must be at least minimum {minimum}"
                    raise trace_errors.static(errors.InvalidArgumentError(None, None, f"{text} [Op:{op}]"), ValueError,
                                              f"List argument '{a['py']}' to '{op}' Op with length {len(v)} shorter "
                                              f"than minimum length {minimum}.")
        if "type_attr" in a:
            items = v if listed else [v]
            groups.setdefault(a["type_attr"], []).extend((a["input"], i if listed else None, x)
                                                          for i, x in enumerate(items))
            out[a["input"]] = [None] * len(v) if listed else None
        elif "type_list_attr" in a:
            out[a["input"]] = [x if isinstance(x, Tensor) else convert_to_tensor(x) for x in v]
            vals[a["type_list_attr"]] = tuple(t.dtype for t in out[a["input"]])
        else:
            want = dtypes.as_dtype(a["dtype"])
            items = v if listed else [v]
            # (the fast path passes a tensor as it is, for EagerExecute's "cannot compute" (_check_dtypes); the
            # wrapper's fallback converts it to the input's dtype: convert_to_tensor's ValueError for another)
            fallback = not fast and not context.in_function()
            if want is dtypes.resource and fast and not context.in_function():
                # (a variable for a handle input: the fast path reads it, for EagerExecute's "cannot compute ... was
                # expected to be a resource tensor but is a float tensor"; observed on TF 2.21)
                items = [x._as_tensor() if hasattr(x, "_as_tensor") and not isinstance(x, Tensor) else x
                         for x in items]
            ts = [x if isinstance(x, Tensor) and not fallback else convert_to_tensor(x, dtype=want) for x in items]
            out[a["input"]] = ts if listed else ts[0]
    for attr, members in groups.items():
        info = inferred.get(attr, {})
        given = vals.get(attr)   # (a type attr TF lets the caller give: the inputs take it)
        if given is not None:
            ts = [x if isinstance(x, Tensor) else convert_to_tensor(x, dtype=given) for _, _, x in members]
        else:
            if context.in_function():
                _graph_group(members, info, op)
            ts = _convert_group([x for _, _, x in members], info.get("allowed"), info.get("default"),
                                context.in_function(), fast)
            if ts:
                vals[attr] = ts[0].dtype
        for (name, i, _), t in zip(members, ts):
            if i is None:
                out[name] = t
            else:
                out[name][i] = t
    return out


def _as_list(v: Any, arg: str, fname: str) -> list[Any]:
    """A list input's values: TF's eager fast path takes any sequence (a tensor or an array of rank
    >= 1 as its rows); anything else, and inside a tf.function anything but a list or tuple (the
    generated wrapper's graph branch: op_def_library is never reached), is the wrapper's TypeError."""
    if isinstance(v, (list, tuple)):
        return list(v)
    shape = getattr(v, "shape", None)
    if shape is not None and len(shape) >= 1 and not context.in_function():
        return list(v)
    raise TypeError(f"Expected list for '{arg}' argument to '{fname}' Op, not {v!r}.")


def _number_source(spec: dict[str, Any], n: str) -> str:
    return next(a["py"] for a in spec["args"] if a.get("number_attr") == n)


def _check_dtypes(name: str, spec: dict[str, Any], inputs: dict[str, Any], vals: dict[str, Any]) -> None:
    """A tensor input whose dtype is not its argument's: TF's "cannot compute Op as input #i" (where the
    attr's value is one the OpDef allows: type_attr_first.py)."""
    from simdist.runtime.ops import args as _args, type_attr_first
    k = 0
    for a in spec["args"]:
        if "input" not in a:
            continue
        v = inputs[a["input"]]
        items = v if isinstance(v, list) else [v]
        want = None
        if "type_attr" in a:
            want = vals.get(a["type_attr"])
        elif "dtype" in a:
            want = dtypes.as_dtype(a["dtype"])
        for t in items:
            if want is not None and t.dtype != want:
                first = type_attr_first.refusal(name, k, want) if "type_attr" in a else None
                if first is not None:   # (the NodeDef's allowed values before the kernel's input types)
                    raise first
                raise errors.InvalidArgumentError(
                    None, None, f"cannot compute {name} as input #{k}(zero-based) was expected to be a "
                    f"{_args.tf_name(want)} tensor but is a {_args.tf_name(t.dtype)} tensor [Op:{name}] name: ")
            k += 1


def _static(v: Any) -> Any:
    """An input's value as Python, as simdist's ops hold such attrs: a scalar as a number, an
    array as nested tuples (an attr of simdist's op that is an input of TF's)."""
    if isinstance(v, list):
        return tuple(_static(x) for x in v)
    a = dispatch.static_value(v).tolist()
    return _tuples(a)


def _tuples(a: Any) -> Any:
    return tuple(_tuples(x) for x in a) if isinstance(a, list) else a


def call(name: str, kw: dict[str, Any]) -> Any:
    """Run raw op `name` on the keyword arguments of its TF signature."""
    spec = opdefs()["ops"][name]
    b = binding(name)
    assert isinstance(b, RawArgs), b
    fname = spec["function"]
    from simdist.runtime.ops import raw_legacy
    if name in raw_legacy.GRAPH_REMOVED and context.in_function():
        # (a deprecated op in a graph: the wrapper's make_* conversions of the attrs, then op_def_library's
        # first check, before any input and before a string attr's allowed values (_ExtractAttrProto):
        # fuzz20 sig seeds 2920261203 #59, 2920261205 #22, function seed 3220261212 #190)
        for a in spec["args"]:
            if "attr" in a:
                _attr_value(kw[a["py"]], a, fname, False, name, listed=False)
        raw_legacy.refuse_in_graph(name)
    vals: dict[str, Any] = {}
    fast = not any((isinstance(kw[a["py"]], (list, tuple)) and not _fast_list(kw[a["py"]], a))
                   or (isinstance(kw[a["py"]], np.generic) and type(kw[a["py"]]) is not np.float64)
                   or isinstance(kw[a["py"]], (str, bytes))   # (a Python string: the fallback converts it)
                   for a in spec["args"] if "input" in a)   # (pywrap_tfe_src.cc's CheckOneInput)
    fast = fast and not any(_fast_path_refuses(kw[a["py"]], a) for a in spec["args"] if "attr" in a)
    # (a graph: op_def_library checks the inputs' types before the attrs' allowed values; the
    # wrapper's make_* TypeErrors, which come first in TF, are of the same class)
    graph_inputs.check(name, [kw[a["py"]] for a in spec["args"] if "input" in a])
    # (every attr's make_* conversion comes before any string attr's allowed values: the wrapper converts them all
    # first, the eager fallback and the graph path alike; fz35a, sig seed 3520261219 #56: CudnnRNNCanonicalToParams'
    # dropout 'x' is TypeError beside a direction 'BOGUS')
    for a in spec["args"]:
        if "attr" in a and a.get("allowed"):
            for b2 in spec["args"]:
                if "attr" in b2:
                    _attr_value(kw[b2["py"]], b2, fname, fast, name, listed=False)
            break
    for a in spec["args"]:   # (a string's allowed values are checked after the inputs' conversions: below)
        if "attr" in a:
            vals[a["attr"]] = _attr_value(kw[a["py"]], a, fname, fast, name, listed=False)
    for a in spec["args"]:   # (eagerly, TF's runtime sets no tensor attr: tensor_attrs.eager_refusal)
        if a.get("type") == "tensor" and not context.in_function():
            from simdist.runtime.ops import tensor_attrs
            raise tensor_attrs.eager_refusal(name, a["attr"])
    inputs = _inputs(spec, kw, vals, fname, name, fast)
    if not context.in_function():
        _eager_strings(name, spec, vals)
    _check_dtypes(name, spec, inputs, vals)
    raw_rules.check_attrs(name, spec, vals)
    infer_ctx.check(name, inputs, vals)   # (in a tf.function: the op's shape function, as TF adds the op)
    try:
        raw_rules.check_kernel(name, vals, any(t.dtype is dtypes.resource for v in inputs.values()
                                               for t in (v if isinstance(v, list) else [v])))
    except errors.InvalidArgumentError:   # (a graph: its shape checks at trace come before the missing kernel)
        _trace_checks(name, b, inputs, vals)
        raise
    raw_rules.check_shapes(name, spec, inputs)
    empty = raw_rules.onednn_empty_result(name, inputs, vals)
    if empty is not None:
        return empty
    # (attrs passed as None: TF's eager fast path records them so for the gradient; registry.RecordedAttrs)
    nones = frozenset(a["attr"] for a in spec["args"]
                      if "attr" in a and kw[a["py"]] is None and not a.get("required")) \
        if fast and not context.in_function() else frozenset()
    try:
        return _run(name, spec, b, inputs, vals, nones)
    except Exception as e:
        tf_err = raw_rules.kernel_error(name, e, inputs)
        if tf_err is None:
            raise
        raise tf_err from e


def _eager_strings(name: str, spec: dict[str, Any], vals: dict[str, Any]) -> None:
    """Eagerly, a string attr outside its OpDef's allowed values: the NodeDef's InvalidArgumentError, which TF 2.21
    raises when it runs the op, after the fast path or the fallback has converted every input (a conversion's
    TypeError comes first: `Dilation2D(input=int32, filter=1.0, padding='same')` is "Cannot convert 1.0 to
    EagerTensor of dtype int32", observed; fz47 seed 1420473003 #86). Among several invalid attrs TF's order is its
    NodeDef's attr map's, which changes from process to process (observed on TF 2.21: MaxPool's strides of length 3
    beside padding 'same' names either); the class is InvalidArgumentError whichever comes first."""
    for a in spec["args"]:
        at = a.get("attr")
        if at in vals and a["type"] == "string" and a.get("allowed") and vals[at] not in a["allowed"]:
            raise raw_rules.string_not_allowed(name, at, vals[at], a["allowed"])


def _fast_list(v: list | tuple, a: dict[str, Any]) -> bool:
    """Whether TF's eager fast path takes a Python list for input `a` (CheckInputsOk): only a list input's, each
    item an EagerTensor, an ndarray or a Python number (CheckOneInput); a list for a single input, or a list
    holding a string or a nested list, sends the call to the fallback. (Session 37: SparseCrossHashed's
    num_buckets given int32 beside lists of tensors is EagerExecute's InvalidArgumentError, observed; simdist
    had sent every list to the fallback, a convert_to_tensor ValueError.)"""
    if "number_attr" not in a and "type_list_attr" not in a:
        return False
    return all(isinstance(x, (Tensor, np.ndarray)) or (isinstance(x, (int, float)) and not isinstance(x, np.generic))
               for x in v)


def _trace_checks(name: str, b: RawArgs, inputs: dict[str, Any], vals: dict[str, Any]) -> None:
    """Inside a tf.function, the raw call's checks a graph makes when it adds the op (its RawArgs
    check, the op's trace_shape), whose marked errors TF raises at trace time, before a run finds the
    kernel missing (raw_rules.check_kernel)."""
    if b.via is not None:
        return
    if b.check is not None:
        b.check({**inputs, **vals})
    op = registry.get(name)
    if op.trace_shape is not None:
        from simdist.runtime.ops import shape_checks, static_shapes
        order = b.inputs if b.inputs is not None else list(inputs)
        ts = [t for n in order for t in (inputs[n] if isinstance(inputs[n], list) else [inputs[n]])]
        shape_checks.check(name, op.trace_shape, [static_shapes.known_shape(t) for t in ts], vals)


def _run(name: str, spec: dict[str, Any], b: RawArgs, inputs: dict[str, Any], vals: dict[str, Any],
         nones: frozenset = frozenset()) -> Any:
    """The raw call's op run on its checked inputs and attrs (`nones`: the attrs the call passed as None)."""
    every = {**inputs, **vals}
    if b.check is not None:
        b.check(every)
    vals = onednn_padding.as_read(name, vals)   # (oneDNN's eager forward convolutions: no CheckValidPadding)
    raw_rules.check_padding(name, vals)
    onednn = raw_layout.applies(name, vals.get("data_format"), vals.get("T"))
    if onednn and not raw_layout.declined(name, vals):   # (oneDNN's channels-first pools)
        raw_layout.check(name, inputs, vals)
        last_inputs, last_vals = raw_layout.to_last(name, inputs, vals)
        return raw_layout.back(name, _run(name, spec, b, last_inputs, last_vals))
    for a in spec["args"]:
        taken = b.via is None and b.attrs is not None and a.get("attr") in b.attrs
        if a.get("attr") in LAYOUT and not taken and vals[a["attr"]] != a.get("default"):
            own = raw_layout.own_kernel(name, inputs, vals)   # (TF's own kernel's output before its refusal)
            if own is not None:
                return _outputs(name, spec, own, vals)
            raw_rules.before_layout(name, every, vals[a["attr"]], vals.get("T"))
            err = raw_rules.layout_error(name, vals[a["attr"]], a.get("default"),
                                         None if onednn or name in raw_layout.DEFAULT_ONLY or
                                         raw_layout.declined(name, vals) else vals.get("T"))
            outs, t = spec["outputs"], vals.get("T")
            if isinstance(t, dtypes.DType) and len(outs) == 1 and "number_attr" not in outs[0] \
                    and "type_list_attr" not in outs[0]:
                # (the kernel's refusal, of a stateless op: a tf.function that does not use its result prunes it;
                # `tf.raw_ops.MaxPool3D(..., data_format="NCDHW")` unused on the AVX2 host, observed)
                return dispatch.layout_refused(err, t, (), [x for v in inputs.values()
                                                            for x in (v if isinstance(v, list) else [v])])
            raise err
    if b.via is not None:
        out = b.via(**{a.get("input", a.get("attr")): every[a.get("input", a.get("attr"))] for a in spec["args"]})
        from simdist.runtime.ops import raw_gradients
        return _outputs(name, spec, raw_gradients.as_registered(name, inputs, out), vals)
    order = b.inputs if b.inputs is not None else [a["input"] for a in spec["args"] if "input" in a]
    tensors: list[Tensor] = []
    for n in order:
        v = inputs[n]
        tensors.extend(v if isinstance(v, list) else [v])
    attrs = {}
    if b.attrs is None:
        attrs = {a["attr"]: vals[a["attr"]] for a in spec["args"]
                 if "attr" in a and a["attr"] not in NO_EFFECT and a["attr"] not in LAYOUT}
    else:
        for k, src in b.attrs.items():
            if callable(src):
                attrs[k] = src(every)
            elif src in inputs:
                attrs[k] = _static(inputs[src])
            else:
                attrs[k] = vals[src]
    if nones & attrs.keys():
        attrs = registry.RecordedAttrs(attrs, {k: None for k in sorted(nones & attrs.keys())})
    op = registry.get(name)
    if op.kind == "elementwise":   # (TF's kernels' shape checks: NumPy's broadcasting is not theirs)
        from simdist.runtime.ops import raw_shapes
        tensors = raw_shapes.check(name, tensors)
    out = dispatch.execute(op, tensors, attrs or None)
    return _outputs(name, spec, out, vals)


def _outputs(name: str, spec: dict[str, Any], out: Any, vals: dict[str, Any]) -> Any:
    """The op's results as TF's raw op returns them: one tensor, a list (a list output), or a
    namedtuple named after the op with the OpDef's output names."""
    outs = spec["outputs"]
    if not outs:   # (an op without outputs, NoOp: None eagerly, the Operation in a tf.function, which a
        # tf.function cannot return: TypeError; fuzz20 sig seed 2920261203 #138)
        from simdist.runtime.graph_op import op_result
        return op_result(name, name)
    flat = list(out) if isinstance(out, (tuple, list)) else [out]
    if len(outs) == 1 and "number_attr" not in outs[0] and "type_list_attr" not in outs[0]:
        return flat[0] if len(flat) == 1 else out
    grouped: list[Any] = []
    k = 0
    for o in outs:
        if "number_attr" in o or "type_list_attr" in o:
            n = vals[o["number_attr"]] if "number_attr" in o else len(vals[o["type_list_attr"]])
            grouped.append(flat[k:k + n])
            k += n
        else:
            grouped.append(flat[k])
            k += 1
    if len(outs) == 1:
        return grouped[0]
    return _tuple_type(name, tuple(o["name"] for o in outs))(*grouped)


@lru_cache(maxsize=None)
def _tuple_type(name: str, fields: tuple[str, ...]) -> Any:
    return collections.namedtuple(name, fields)


def _default_value(a: dict[str, Any]) -> Any:
    if "default_dtype" in a:
        return dtypes.as_dtype(a["default_dtype"])
    d = a.get("default")
    return list(d) if isinstance(d, list) else d


@lru_cache(maxsize=None)
def function(name: str) -> Callable[..., Any]:
    """`tf.raw_ops.<name>`: AttributeError when simdist has no raw form of it."""
    b = binding(name)
    if not isinstance(b, RawArgs):
        if name not in opdefs()["names"]:
            raise AttributeError(f"module 'tf.raw_ops' has no attribute '{name}'")
        raise AttributeError(f"tf.raw_ops.{name}: simdist does not implement the raw op {name} ({b})")
    spec = opdefs()["ops"][name]
    fname = spec["function"]
    defaults: dict[str, Any] = {}
    params = []
    for i, a in enumerate(spec["args"]):
        if a.get("required"):
            params.append(a["py"])
        else:
            defaults[f"_d{i}"] = _default_value(a)
            params.append(f"{a['py']}=_d{i}")
    keys = [a["py"] for a in spec["args"]] + ["name"]
    src = (f"def {fname}({', '.join(params + ['name=None'])}):\n"
           f"    return _call(_name, {{{', '.join(repr(k) + ': ' + k for k in keys[:-1])}}})\n")
    scope: dict[str, Any] = {"_call": call, "_name": name, **defaults}
    exec(src, scope)  # noqa: S102 - a function with TF's exact signature, so Python's argument errors are TF's
    inner = scope[fname]

    def raw_op(*args: Any, **kwargs: Any) -> Any:
        if args:
            raise TypeError(f"{fname} only takes keyword args (possible keys: {keys}). Please pass these args as "
                            "kwargs instead.")
        return inner(**kwargs)

    raw_op.__name__ = raw_op.__qualname__ = fname
    raw_op.__signature__ = inspect.signature(inner)  # type: ignore[attr-defined]
    how = f"simdist's op {name}" if name in registry._OPS else "a composition of simdist's ops"
    raw_op.__doc__ = f"TF's raw op {name}, computed by {how} (clause ops.raw-ops)."
    return raw_op
