"""`tf.function(...).get_concrete_function(...)`: a trace made at once, and the ConcreteFunction
that calls it (docs/spec.md `function.concrete-function`).

TF traces the Python function when get_concrete_function is called, on placeholders of the
specs (an input_signature, or the TensorSpecs, tensors and Python values given): an error the
graph build finds (op_def_library's TypeError, a shape function's ValueError, a Python error of
the function itself) raises there; errors only a kernel finds are left to the calls. simdist
runs the Python on placeholder tensors (zeros; each unknown dimension a size, each unknown rank
a rank, the dimensions marked unknown to the graph: runtime/ops/static_shapes.py) in a dry run
that leaves no trace behind (variable writes buffered in a transaction that is dropped,
simulator charges collected and dropped, the FLOP tally and tf.random's streams restored, the
tapes set aside). A marked op error raises as TF's trace-time error when every placeholder
choice (several sizes and ranks) meets one: a shape function raises only for what no size of
an unknown dimension could satisfy. An op error that is not marked is a kernel's: the trace
succeeds and the calls meet it.

A ConcreteFunction is called with tensors (positional or by name): arguments bound to the
traced parameters (TypeError "Binding inputs to tf.function failed ..." for missing or extra
ones, a Python value other than the traced literal, or a non-tensor where the trace had a
TensorSpec, unless the function has an input_signature, whose conversions apply), a tensor of
another dtype than its spec is InvalidArgumentError ("cannot compute ... as input #i(zero-based)
was expected to be a float tensor but is a double tensor"); shapes are not checked there (the
graph's ops meet them, as kernel errors). The call runs through the Function's recorded calls.
"""

from __future__ import annotations

import copy
import inspect
import re
from typing import Any, Callable

# (size of each unknown dimension, rank of each unknown-rank input) per dry run, in order; the
# last, images of 3 x 3 pixels, for an image op whose kernel refuses a dimension of 1 (sobel_edges'
# REFLECT padding) before a later op's graph-build error (fz27b, fz14 seed 1420272701 #28); then vectors of 3
# and of 2, tried only when no earlier choice built: an unknown-rank input packed beside a [3] array, which
# every other choice's Pack refuses at run time, then reduce_join's make_bool of keepdims=1 at trace (fz41,
# fz14 seed 1420413001 #58)
_PLACEHOLDERS = ((1, 1), (2, 2), (1, 0), (3, 3), (1, 4), (3, 4), (3, 1), (2, 1))
# the placeholders' values per dry run of one choice of shapes: zeros, then (only when a run met a kernel's
# error and an input is an integer one, whose value may be a size, an index or a count) ones, twos, threes
_FILLS = (0, 1, 2, 3)


class GraphTensor:
    """A tensor of the traced graph as TF's symbolic Tensor shows it: name, shape, dtype."""

    __slots__ = ("name", "shape", "dtype")

    def __init__(self, name: str, shape: Any, dtype: Any) -> None:
        self.name, self.shape, self.dtype = name, shape, dtype

    def get_shape(self) -> Any:
        return self.shape

    def __repr__(self) -> str:
        return f"<tf.Tensor '{self.name}' shape={_shape_text(self.shape)} dtype={self.dtype.name}>"

    def __str__(self) -> str:
        return f'Tensor("{self.name}", shape={_shape_text(self.shape)}, dtype={self.dtype.name})'


class FunctionTypeView:
    """ConcreteFunction.function_type: TF 2.21's FunctionType as text (str: `(x: TensorSpec(...)) -> ...`; repr: the
    `Input Parameters: ... Output Type: ... Captures: ...` text); equal when the texts are."""

    __slots__ = ("_cf",)

    def __init__(self, cf: "ConcreteFunction") -> None:
        self._cf = cf

    def __str__(self) -> str:
        return self._cf.pretty_printed_signature(verbose=False)

    def __repr__(self) -> str:
        return self._cf.pretty_printed_signature(verbose=True)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, FunctionTypeView) and repr(self) == repr(other)

    def __hash__(self) -> int:
        return hash(repr(self))


class FuncGraphView:
    """ConcreteFunction.graph: what simdist models of TF's FuncGraph: `inputs` (ConcreteFunction.inputs: the
    arguments' placeholders, then the captures' in capture order), `outputs`, `variables`, `captures` ((captured
    object, placeholder) pairs); no operations (`get_operations` refuses)."""

    __slots__ = ("_cf",)

    def __init__(self, cf: "ConcreteFunction") -> None:
        self._cf = cf

    @property
    def inputs(self) -> list:
        return self._cf.inputs

    @property
    def outputs(self) -> list:
        return self._cf.outputs

    @property
    def variables(self) -> tuple:
        return self._cf.variables

    @property
    def captures(self) -> list:
        ins = self._cf.inputs
        return list(zip(self._cf.captured_inputs, ins[len(ins) - len(self._cf._captures):]))

    def get_operations(self) -> list:
        raise NotImplementedError(
            "simdist: ConcreteFunction.graph.get_operations() is not modelled - simdist runs a traced function's "
            "Python on values and keeps no graph of TF operations (graph.inputs, graph.outputs, graph.variables and "
            "graph.captures are)")


def _is_variable(x: Any) -> bool:
    from simdist.runtime.variables import Variable
    return isinstance(x, Variable)


def _shape_text(shape: Any) -> str:
    dims = shape.as_list() if shape.rank is not None else None
    if dims is None:
        return "<unknown>"
    return "(" + ", ".join("None" if d is None else str(d) for d in dims) + ("," if len(dims) == 1 else "") + ")"


class ConcreteFunction:
    """One trace of a tf.function: its signature, its outputs' structure, and a call."""

    def __init__(self, function: Any, params: list[str], bound: dict[str, Any], outputs: Any,
                 kwonly: frozenset = frozenset(), shown: dict[str, Any] | None = None,
                 own: dict[str, Any] | None = None, posonly: frozenset = frozenset()) -> None:
        self._function = function
        self._params = params            # the traced parameters, in order
        self._kwonly = kwonly            # those passed by keyword: a `**kwargs` entry (TF's KEYWORD_ONLY)
        self._bound = bound              # parameter -> TensorSpec (named after it) or a Python value
        self._shown = shown or {}        # parameter -> the VariableSpec its signature shows (a variable argument)
        self._own = own or {}            # parameter -> its specs with their own names (None: unnamed), as given
        self._posonly = posonly          # the POSITIONAL_ONLY parameters (TF's, when *args are traced)
        self.structured_outputs = outputs
        self.name = f"__inference_{getattr(function.python_function, '__name__', 'f')}"

    @property
    def structured_input_signature(self) -> tuple[tuple, dict]:
        """((each positional parameter's TensorSpec or Python value), {each keyword one's}), as TF gives it."""
        shown = lambda p: self._shown.get(p, self._bound[p])   # noqa: E731
        return (tuple(shown(p) for p in self._params if p not in self._kwonly),
                {p: shown(p) for p in self._params if p in self._kwonly})

    def _flat_params(self) -> list[str]:
        """The parameters in the graph's input order: the positional ones, then the keyword-only ones sorted by
        name (TF flattens the call's kwargs dict, which nest sorts: `def f(x, *, z, **kw)` with b in kw takes x,
        b, z; observed on TF 2.21)."""
        return [p for p in self._params if p not in self._kwonly] + sorted(p for p in self._params if p in self._kwonly)

    @property
    def inputs(self) -> list[GraphTensor]:
        """The graph's placeholders, one per TensorSpec leaf, in the flat order (nest's: a dict's keys sorted), each
        named after its TensorSpec's own name, else its parameter's, made unique in the order TF makes them
        (parameters in the flat order, a dict's leaves in its insertion order: 'z:0', 'z_1:0'); TF 2.21 observed,
        clause function.input-signature (conc58)."""
        from simdist.runtime import dtypes
        from simdist.runtime.tensor import TensorShape
        names = _input_names(self._params, self._bound, self._own)
        # (a variable argument is its resource handle: a scalar of dtype resource; fsweep66)
        return [GraphTensor(f"{names[(p, i)]}:0", TensorShape([]), dtypes.resource) if p in self._shown else
                GraphTensor(f"{names[(p, i)]}:0", s.shape, s.dtype) for p in self._flat_params()
                for i, s in enumerate(_leaves(self._bound[p]))] + \
            [GraphTensor(f"{name}:0", TensorShape([]), dtypes.resource) if _is_variable(c) else
             GraphTensor(f"{name}:0", c.shape, c.dtype) for c, name in self._captures]

    # (the graph's captures in capture order: (a variable or an eager tensor, its placeholder's name), TF 2.21's
    # FuncGraph.captures; graph_names.capture_variable and name_captures name them; fix67t)
    _captures: tuple = ()

    _variables: tuple = ()
    _trace_key: Any = None   # (the Function's key of this trace, when get_concrete_function keeps it: `__call__`)

    @property
    def variables(self) -> tuple:
        """The variables the trace captured (read), in the order first read: FuncGraph.variables (TF 2.21; a
        variable passed as an argument is an input, not among them; fsweep66)."""
        return self._variables

    @property
    def captured_inputs(self) -> list:
        """What the graph captured, in capture order: a variable's resource handle, an eager tensor the Python closes
        over as itself (FuncGraph.external_captures; fsweep66's f-methods, fix67t)."""
        if not self._captures:
            return [v.handle for v in self._variables]
        return [c.handle if _is_variable(c) else c for c, _ in self._captures]

    @property
    def trainable_variables(self) -> tuple:
        """The captured variables whose `trainable` is true (an int32 one too), in the same order."""
        return tuple(v for v in self._variables if getattr(v, "trainable", True))

    @property
    def outputs(self) -> list[GraphTensor]:
        """The graph's output tensors, flattened."""
        return [t for t in _flatten(self.structured_outputs) if isinstance(t, GraphTensor)]

    @property
    def output_shapes(self) -> Any:
        """TF's `getattr(x, "shape", TensorShape(None))` of each output leaf: a None output's is TensorShape(None)."""
        from simdist.runtime.tensor import TensorShape
        return _map(lambda t: t.shape, self.structured_outputs, lambda x: TensorShape(None))

    @property
    def output_dtypes(self) -> Any:
        return _map(lambda t: t.dtype, self.structured_outputs)

    def pretty_printed_signature(self, verbose: bool = True) -> str:
        """TF's FunctionType text: its repr (parameters, output type, captures) when verbose, else
        its str, `(x: TensorSpec(...), k: Literal[3]) -> Dict[['s', TensorSpec(...)]]`."""
        if not verbose:
            return self._signature_text()
        kind = lambda p: "KEYWORD_ONLY" if p in self._kwonly else (   # noqa: E731
            "POSITIONAL_ONLY" if p in self._posonly else "POSITIONAL_OR_KEYWORD")
        lines = ["Input Parameters:"] + [f"  {p} ({kind(p)}): {self._param_text(p)}" for p in self._params]
        return "\n".join(lines + ["Output Type:", f"  {_type_text(self.structured_outputs)}", "Captures:"] +
                         (self._capture_lines() or ["  None"]))

    def _capture_lines(self) -> list[str]:
        """FunctionType's captures, one line each in capture order: the captured object's Python id (host-dependent,
        as TF's) and its type, a variable's a resource TensorSpec of shape () (fix67t)."""
        from simdist.runtime import dtypes
        from simdist.runtime.spec import TensorSpec
        from simdist.runtime.tensor import TensorShape
        return [f"  {id(c)}: " + _spec_text(TensorSpec(TensorShape([]), dtypes.resource) if _is_variable(c)
                                             else TensorSpec(c.shape, c.dtype)) for c, _ in self._captures]

    @property
    def function_type(self) -> "FunctionTypeView":
        """TF's FunctionType of the trace, as far as simdist models it: its str is the one-line signature
        (pretty_printed_signature(verbose=False)), its repr the verbose text (fix67t; blind66a's prog4)."""
        return FunctionTypeView(self)

    @property
    def graph(self) -> "FuncGraphView":
        """The trace's graph, as far as simdist models it: its inputs (the arguments' placeholders, then the
        captures'), outputs and variables; get_operations() refuses (simdist keeps no graph of operations: fix67t)."""
        return FuncGraphView(self)

    def _param_text(self, p: str) -> str:
        """A parameter's type as TF's FunctionType writes it: its specs with their own names (name='second', else
        name=None), nested ones as Tuple[...], List[...], Dict[[key, ...], ...] in the given order."""
        if p in self._shown:   # (a variable argument: its VariableSpec; fsweep66)
            return repr(self._shown[p])
        return _input_type_text(self._own.get(p, self._bound[p]), self._bound[p])

    def _signature_text(self) -> str:
        parts = [f"{p}: {self._param_text(p)}" for p in self._params if p not in self._kwonly]
        if any(p in self._posonly for p in self._params):
            parts.append("/")   # (TF 2.21 with traced *args: every positional parameter is POSITIONAL_ONLY)
        kw = [f"{p}: {self._param_text(p)}" for p in self._params if p in self._kwonly]
        ins = ", ".join(parts + (["*"] + kw if kw else []))
        return f"({ins}) -> {_type_text(self.structured_outputs)}"

    def __repr__(self) -> str:
        return f"<ConcreteFunction {self._signature_text()} at 0x{id(self):X}>"

    def __str__(self) -> str:
        return f"ConcreteFunction {self.pretty_printed_signature()}"

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        # TF's _call_impl: the structured signature first, then the flat one (the tensors alone)
        try:
            values = self._structured(args, kwargs)
        except TypeError as structured:
            try:
                values = self._flat(args, kwargs)
            except TypeError as flat:
                raise TypeError(f"{structured}\nFallback to flat signature also failed due to: {flat}") from None
        for i, p in enumerate(self._params):
            spec = self._bound[p]
            v = values[p]
            if p in self._shown and _as_tensor(v) is v:
                # (a tensor where the trace took a variable's resource handle: the call's dtype check; fsweep66)
                from simdist.runtime import errors
                raise errors.InvalidArgumentError(
                    None, None, f"cannot compute {self.name} as input #{i}(zero-based) was expected to be a "
                                f"resource tensor but is a {_c_name(v.dtype)} tensor [Op:{self.name}]")
            if _is_spec(spec) and _as_tensor(v) is not None and _as_tensor(v).dtype != spec.dtype:
                from simdist.runtime import errors
                raise errors.InvalidArgumentError(
                    None, None, f"cannot compute {self.name} as input #{i}(zero-based) was expected to be a "
                                f"{_c_name(spec.dtype)} tensor but is a {_c_name(_as_tensor(v).dtype)} tensor "
                                f"[Op:{self.name}]")
        call = tuple(values[p] for p in self._params)
        f = self._function
        # (the graph is built: every error of a call is the graph's run-time error, none is re-raised
        # as a trace-time one; unknown dimensions as the specs have them)
        marked = _marked(call, [self._bound[p] for p in self._params])
        from simdist.runtime import facade_calls
        # (this trace serves the call, whatever concrete shapes its specs leave open: Function._polymorphic; fix67t)
        serving = f.__dict__.get("_serving")
        if self._trace_key is not None:
            f._serving = (self._trace_key, ("concrete function", "a call"))
        try:
            with facade_calls.graph_built():
                out = f._call(tuple(m for p, m in zip(self._params, marked) if p not in self._kwonly),
                              {p: m for p, m in zip(self._params, marked) if p in self._kwonly})
        finally:
            f._serving = serving
        from simdist.runtime import context
        if context._function_depth:   # (inside a function: the outermost call places the outputs)
            return out
        from simdist.runtime.call_outputs import on_call_device
        return on_call_device(out)

    def _structured(self, args: tuple, kwargs: dict) -> dict[str, Any]:
        """function_type_utils.bind_function_inputs: every parameter bound as Python binds it (the
        literals too: they have no default), then each cast to its type (a literal by ==, TF's
        Literal.cast; a tensor checked against its TensorSpec's dtype and shape, anything else
        converted to it); the traced literals are called."""
        sig = self._signature_text()
        params = inspect.Signature([inspect.Parameter(p, inspect.Parameter.KEYWORD_ONLY if p in self._kwonly else
                                                      inspect.Parameter.POSITIONAL_ONLY if p in self._posonly else
                                                      inspect.Parameter.POSITIONAL_OR_KEYWORD)
                                    for p in self._params])
        try:
            bound = params.bind(*args, **kwargs).arguments
        except TypeError as e:
            raise _binding(str(e), args, kwargs, sig) from None
        values = {}
        for p in self._params:
            spec, v = self._bound[p], bound[p]
            if _leaves(spec) and not _is_spec(spec):   # (nested specs: cast item by item, _signature._as_nested)
                from simdist.tf import _signature
                values[p] = _signature._as_nested(v, spec, args, kwargs, signature=sig)
                continue
            if not _is_spec(spec):
                try:
                    same = _same_literal(v, spec)
                except Exception as e:  # noqa: BLE001 - TF's `value == self.value` raising (an array's truth)
                    raise _binding(str(e), args, kwargs, sig) from None
                if not same:
                    raise _binding(f"Can not cast {v!r} to Literal[{spec!r}]", args, kwargs, sig)
                values[p] = spec      # (the graph holds the traced literal)
            else:   # (TensorSpec.cast: a tensor of another dtype or an incompatible shape fails here)
                from simdist.tf import _signature
                cast = _signature._as_spec(v, spec, args, kwargs, signature=sig)
                values[p] = v if _as_tensor(v) is not None else cast
        return values

    def _flat(self, args: tuple, kwargs: dict) -> dict[str, Any]:
        """ConcreteFunction._call_with_flat_signature: the TensorSpec parameters alone, each given a
        tensor or Variable (positionally or by name); the literals as traced."""
        kw = [t.name[:-2] for t in self.inputs[:len(self.inputs) - len(self._captures)]]   # (the arguments')
        head = f"{getattr(self._function.python_function, '__name__', 'f')}({', '.join(kw)})"
        if len(args) > len(kw):
            raise TypeError(f"{head} takes {len(kw)} positional arguments, got {len(args)}.")
        args, kwargs = list(args), dict(kwargs)
        for k in kw[len(args):]:
            if k not in kwargs:
                missing = sorted(set(kw) - set(kw[:len(args)] + list(kwargs)))
                raise TypeError(f"{head} missing required arguments: {', '.join(missing)}.")
            args.append(kwargs.pop(k))
        if kwargs:
            positional = set(kw[:len(args)])
            for k in kwargs:
                if k in positional:
                    raise TypeError(f"{head} got two values for '{k}'.")
            raise TypeError(f"{head} got unexpected keyword arguments: {', '.join(sorted(kwargs))}.")
        for i, a in enumerate(args):
            if _as_tensor(a) is None:
                raise TypeError(f"{head}: expected argument #{i}(zero-based) to be a Tensor; got "
                                f"{type(a).__name__} ({a}).")
        flat = iter(args)
        return {p: _pack(self._bound[p], flat) if _leaves(self._bound[p]) else self._bound[p]
                for p in self._flat_params()}


def _c_name(dtype: Any) -> str:
    return {"float16": "half", "float32": "float", "float64": "double"}.get(dtype.name, dtype.name)


def _binding(why: str, args: tuple, kwargs: dict, signature: str | None = None) -> TypeError:
    """function_type_utils' binding TypeError (a ConcreteFunction's call names its signature)."""
    tail = "" if signature is None else f" for signature: {signature}"
    return TypeError(f"Binding inputs to tf.function failed due to `{why}`. Received args: {args!r} and kwargs: "
                     f"{kwargs!r}{tail}.")


def _same_literal(a: Any, b: Any) -> bool:
    """TF's Literal.cast: NaN matches NaN, anything else by == (so 2.0 and 2, True and 1 match)."""
    if _is_nan(a) and _is_nan(b):
        return True
    return bool(a == b)


def _is_nan(x: Any) -> bool:
    return isinstance(x, float) and x != x


def _is_spec(x: Any) -> bool:
    from simdist.runtime.spec import TensorSpec
    return isinstance(x, TensorSpec)


def _as_tensor(v: Any) -> Any:
    """v as a tensor when it is one (or a Variable), else None."""
    from simdist.runtime.tensor import Tensor
    if isinstance(v, Tensor):
        return v
    return v._as_tensor() if hasattr(v, "_as_tensor") and hasattr(v, "dtype") else None


def _spec_text(s: Any) -> str:
    if not _is_spec(s):
        return f"Literal[{s!r}]"
    name = "None" if s.name is None else repr(s.name)
    return f"TensorSpec(shape={_shape_text(s.shape)}, dtype=tf.{s.dtype.name}, name={name})"


def _input_type_text(own: Any, bound: Any) -> str:
    """An input's trace type as TF's FunctionType writes it (`own`: the specs as given, their own names)."""
    if _is_spec(own):
        return _spec_text(own)
    if _is_spec(bound):   # (a tensor given: its spec has no name of its own)
        from simdist.runtime.spec import TensorSpec
        return _spec_text(TensorSpec(bound.shape, bound.dtype))
    if isinstance(bound, dict) and isinstance(own, dict):
        return "Dict[" + ", ".join(f"[{k!r}, {_input_type_text(own[k], bound[k])}]" for k in own) + "]"
    if isinstance(bound, (list, tuple)) and not hasattr(bound, "_fields") and _leaves(bound):
        items = ", ".join(_input_type_text(o, b) for o, b in zip(own, bound))
        return ("List[" if isinstance(bound, list) else "Tuple[") + items + "]"
    return f"Literal[{bound!r}]"


def _input_names(params: list[str], bound: dict[str, Any], own: dict[str, Any]) -> dict[tuple[str, int], str]:
    """(parameter, leaf index in nest's order) -> its placeholder's name: the spec's own name, else the parameter's,
    made unique in the order TF's trace makes the placeholders (ConcreteFunction.inputs): the parameters in their
    FunctionType's order (declared keyword-only ones as declared, `def f(a, *, k, K)` makes k then K_1, though the
    inputs list K_1 before k; fsweep66)."""
    used: dict[str, int] = {}
    names: dict[tuple[str, int], str] = {}
    for p in params:
        for i, spec in _creation_leaves(bound[p], own.get(p, bound[p])):
            name = spec.name if spec is not None and spec.name else p
            # (a name that is no valid node name, `_a`, `-q`, `x:0`: TF warns and the op takes its type's default
            # name, Placeholder, Placeholder_1, ...; fsweep66)
            names[(p, i)] = _unique_name(name if _VALID_NODE_NAME.match(name) else "Placeholder", used)
    return names


# ops.Graph's _VALID_OP_NAME_REGEX: a placeholder named otherwise is named after its op type
_VALID_NODE_NAME = re.compile(r"^[A-Za-z0-9.][A-Za-z0-9_.\\/>-]*$")


def _leaves(v: Any) -> list[Any]:
    """The TensorSpecs of an input's specs (a TensorSpec, or tuples, lists and dicts of them) in nest's order
    (a dict's keys sorted)."""
    if _is_spec(v):
        return [v]
    if isinstance(v, dict):
        return [y for k in sorted(v) for y in _leaves(v[k])]
    if isinstance(v, (list, tuple)) and not hasattr(v, "_fields"):
        return [y for x in v for y in _leaves(x)]
    return []


def _creation_leaves(v: Any, own: Any) -> list[tuple[int, Any]]:
    """(index in nest's order, the spec as given or None) of each leaf in the order TF's trace makes its
    placeholders: a dict's in its insertion order (observed: blind53, conc58)."""
    order: list[tuple[Any, ...]] = []

    def walk(x: Any, o: Any, path: tuple) -> None:
        if _is_spec(x):
            order.append((path, o if _is_spec(o) else None))
        elif isinstance(x, dict):
            for k in x:
                walk(x[k], o[k] if isinstance(o, dict) else None, path + (k,))
        elif isinstance(x, (list, tuple)) and not hasattr(x, "_fields"):
            for i, y in enumerate(x):
                walk(y, o[i] if isinstance(o, (list, tuple)) else None, path + (i,))
    walk(v, own, ())
    nest_order = []

    def paths(x: Any, path: tuple) -> None:
        if _is_spec(x):
            nest_order.append(path)
        elif isinstance(x, dict):
            for k in sorted(x):
                paths(x[k], path + (k,))
        elif isinstance(x, (list, tuple)) and not hasattr(x, "_fields"):
            for i, y in enumerate(x):
                paths(y, path + (i,))
    paths(v, ())
    return [(nest_order.index(path), o) for path, o in order]


def _pack(v: Any, flat: Any) -> Any:
    """v's structure with each TensorSpec leaf replaced by the next of `flat` (nest's order)."""
    if _is_spec(v):
        return next(flat)
    if isinstance(v, dict):
        done = {k: _pack(v[k], flat) for k in sorted(v)}
        return type(v)((k, done[k]) for k in v)
    if isinstance(v, (list, tuple)) and not hasattr(v, "_fields"):
        return type(v)(_pack(x, flat) for x in v)
    return v


def _unique_name(name: str, used: dict[str, int]) -> str:
    """ops.Graph.unique_name: a name taken (case-insensitively) gets `_1`, `_2`, ... ."""
    key = name.lower()
    i = used.get(key, 0)
    used[key] = i + 1
    if i > 0:
        base = key
        while key in used:
            key = f"{base}_{i}"
            i += 1
        used[key] = 1
        name = f"{name}_{i - 1}"
    return name


def _named(v: Any, name: str, path: tuple = ()) -> Any:
    """The specs of an input named as TF's structured_input_signature shows them (func_graph's
    convert_structure_to_signature): a spec's own name when it differs from its parameter's, else the path joined
    by `_` (`x`, `pair_0`, `d_b`) and sanitized by tensor.sanitize_spec_name (lower case, each character that is
    not alphanumeric `_`, `tensor_` before a name that does not start with a letter): `X` shows `x`, `_a`
    `tensor__a`, dict key `K-1` `d_k_1`, a spec named `p` inside parameter `p` `p_0` (fsweep66; conc58)."""
    from simdist.runtime.spec import TensorSpec
    if _is_spec(v):
        user = v.name or name   # (the placeholder's _user_specified_name: its spec's name, else the parameter's)
        shown = user if user != name else _sanitize_spec_name("_".join(str(p) for p in (name,) + path))
        return TensorSpec(v.shape, v.dtype, shown)
    if isinstance(v, dict):
        return type(v)((k, _named(x, name, path + (k,))) for k, x in v.items())
    if isinstance(v, (list, tuple)) and not hasattr(v, "_fields"):
        return type(v)(_named(x, name, path + (i,)) for i, x in enumerate(v))
    return v


def _sanitize_spec_name(name: str) -> str:
    """tensor.sanitize_spec_name (TF 2.21): lower case, non-alphanumeric characters `_`, `tensor_` before a name
    not starting with a letter, "unknown" for an empty one."""
    if not name:
        return "unknown"
    swapped = "".join(c if c.isalnum() else "_" for c in name.lower())
    return swapped if swapped[0].isalpha() else "tensor_" + swapped


def _as_specs(v: Any) -> Any:
    """A get_concrete_function argument's specs: each TensorSpec as given (its own name), each tensor's and
    ndarray's TensorSpec (no name; a tensor's static shape, its dimensions a graph or a relaxed trace does not
    know None: `Function._trace_arguments`), inside tuples, lists and dicts too; other values as they are."""
    import numpy as np

    from simdist.runtime.dtypes import as_dtype
    from simdist.runtime.spec import TensorSpec
    if _is_spec(v):
        return v
    t = _as_tensor(v)
    if t is not None:
        from simdist.runtime.ops import static_shapes
        return TensorSpec(static_shapes.static_shape(t), t.dtype)
    if isinstance(v, (np.ndarray, np.generic)):
        # (a NumPy scalar too: TF's trace type of np.float32(1.0) is TensorSpec((), float32), a placeholder, never a
        # literal; fsweep66)
        return TensorSpec(np.shape(v), as_dtype(v.dtype))
    if type(v) is dict:
        out = {k: _as_specs(x) for k, x in v.items()}
        return out if _leaves(out) else v
    if type(v) in (list, tuple):
        items = [_as_specs(x) for x in v]
        return type(v)(items) if _leaves(items) else v
    return v


def _type_text(x: Any) -> str:
    """The trace type of an output structure as TF's default_types write it: TensorSpec(...) for a
    tensor, Dict[[key, type], ...], NamedTuple's `Name[[field, type], ...]`, List[...], Tuple[...],
    Literal[value] for anything else."""
    if isinstance(x, GraphTensor):
        return f"TensorSpec(shape={_shape_text(x.shape)}, dtype=tf.{x.dtype.name}, name=None)"
    if isinstance(x, dict):
        return "Dict[" + ", ".join(f"[{k!r}, {_type_text(v)}]" for k, v in x.items()) + "]"
    if isinstance(x, tuple) and hasattr(x, "_fields"):
        return f"{type(x).__name__}[" + ", ".join(f"[{k!r}, {_type_text(v)}]" for k, v in zip(x._fields, x)) + "]"
    if isinstance(x, list):
        return "List[" + ", ".join(_type_text(v) for v in x) + "]"
    if isinstance(x, tuple):
        return "Tuple[" + ", ".join(_type_text(v) for v in x) + "]"
    return f"Literal[{x!r}]"


def _flatten(x: Any) -> list[Any]:
    if isinstance(x, dict):
        return [y for k in sorted(x) for y in _flatten(x[k])]
    if isinstance(x, (list, tuple)):
        return [y for v in x for y in _flatten(v)]
    return [x]


def _map(fn: Callable[[Any], Any], x: Any, other: Callable[[Any], Any] | None = None) -> Any:
    """fn of each GraphTensor leaf (`other` of any other leaf: else kept)."""
    if isinstance(x, dict):
        return type(x)((k, _map(fn, v, other)) for k, v in x.items())
    if isinstance(x, tuple) and hasattr(x, "_fields"):
        return type(x)(*[_map(fn, v, other) for v in x])
    if isinstance(x, (list, tuple)):
        return type(x)(_map(fn, v, other) for v in x)
    return fn(x) if isinstance(x, GraphTensor) else (x if other is None else other(x))


def _marked(values: tuple, specs: list[Any]) -> tuple:
    """The call's tensors as fresh aliases whose dimensions unknown to their specs are marked
    (runtime/ops/static_shapes.py): the Python that records sees what TF's graph knows."""
    from simdist.runtime.ops import static_shapes
    return tuple(static_shapes.argument(v, s.shape) if _is_spec(s) and _as_tensor(v) is v else v
                 for v, s in zip(values, specs))


class VariableSpec:
    """What TF 2.21's structured_input_signature shows for a plain variable argument (resource_variable_ops
    VariableSpec: shape, dtype, trainable and alias_id, the variable's index among the distinct variables of the
    call in argument order, one variable passed twice sharing it; no name). Display only: simdist traces the
    parameter as a tensor of the variable's shape and dtype (clause function.input-signature)."""

    __slots__ = ("shape", "dtype", "trainable", "alias_id")

    def __init__(self, shape: Any, dtype: Any, trainable: bool, alias_id: int) -> None:
        self.shape, self.dtype, self.trainable, self.alias_id = shape, dtype, trainable, alias_id

    def __eq__(self, other: object) -> bool:
        return isinstance(other, VariableSpec) and (self.shape, self.dtype, self.trainable, self.alias_id) == (
            other.shape, other.dtype, other.trainable, other.alias_id)

    def __hash__(self) -> int:
        return hash((tuple(self.shape.as_list()) if self.shape.rank is not None else None, self.dtype.name,
                     self.trainable, self.alias_id))

    def __repr__(self) -> str:
        return (f"VariableSpec(shape={_shape_text(self.shape)}, dtype=tf.{self.dtype.name}, "
                f"trainable={self.trainable}, alias_id={self.alias_id})")


def variable_specs(params: list[str], values: dict[str, Any]) -> dict[str, VariableSpec]:
    """The VariableSpec of each parameter bound to a plain (not distributed) variable, alias ids in order."""
    from simdist.runtime.values import DistributedValues
    from simdist.runtime.variables import Variable
    aliases: dict[int, int] = {}
    out = {}
    for p in params:
        v = values.get(p)
        if isinstance(v, Variable) and not isinstance(v, DistributedValues):
            alias = aliases.setdefault(id(v), len(aliases))   # (identity only: ids never order anything)
            out[p] = VariableSpec(v.shape, v.dtype, bool(v.trainable), alias)
    return out


def specs_of(function: Any, args: tuple, kwargs: dict) -> tuple[list[str], dict[str, Any], frozenset, dict, dict,
                                                                 frozenset]:
    """The parameters and their specs for get_concrete_function(*args, **kwargs): the
    input_signature (arguments, if any, must bind to it), else each tensor's TensorSpec, each
    TensorSpec, each Python value as a literal, tuples, lists and dicts of them as such structures of specs;
    specs named after their parameters (`_named`); also the specs as given (their own names) and the
    POSITIONAL_ONLY parameters (every positional one when *args are traced: TF 2.21 observed, conc58)."""
    from simdist.runtime.spec import TensorSpec
    fn = function.python_function
    try:
        sig = inspect.signature(fn)
    except (TypeError, ValueError):
        sig = None
    names = [p.name for p in sig.parameters.values() if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)] \
        if sig is not None else [f"arg{i}" for i in range(len(args))]
    if function.input_signature is not None:
        specs = list(function.input_signature)
        star = [p.name for p in sig.parameters.values() if p.kind is p.VAR_POSITIONAL] if sig is not None else []
        if star and len(names) < len(specs):   # (`def f(*a)`: TF names the specs a_0, a_1, ...)
            names = names + [f"{star[0]}_{i}" for i in range(len(specs) - len(names))]
        if args or kwargs:
            given = list(args) + [kwargs[n] for n in names[len(args):len(specs)] if n in kwargs]
            if len(given) != len(specs) or len(args) > len(specs):
                raise _binding(f"missing a required argument: '{names[len(given)]}'" if len(given) < len(specs)
                               else "too many positional arguments", args, kwargs)
            for g, s in zip(given, specs):
                shape, dtype = (g.shape, g.dtype) if isinstance(g, TensorSpec) or _as_tensor(g) is not None \
                    else (None, None)
                if dtype is not None and (dtype != s.dtype or not s.shape.is_compatible_with(shape)):
                    raise _binding(f"Can not cast {_spec_text(TensorSpec(shape, dtype))} to {_spec_text(s)}",
                                   args, kwargs)
        out = {n: _named(s, n) for n, s in zip(names, specs)}
        own = dict(zip(names, specs))
        posonly = frozenset(names) if star else frozenset()
        # (the parameters the signature leaves out, each bound to its default: TF's FunctionType gives them the
        # default's Literal type, so structured_input_signature shows the value, a keyword-only one in the dict)
        kwonly = set()
        from simdist.tf import _signature
        for n, kind, _, c in function.__dict__.get("_ftype") or ():
            if type(c) is _signature._Literal and n not in out:
                out[n] = c.value
                if kind is inspect.Parameter.KEYWORD_ONLY:
                    kwonly.add(n)
            elif isinstance(c, TensorSpec) and n not in out and n != "self" and \
                    kind is not inspect.Parameter.KEYWORD_ONLY:
                # (a tensor default after a literal one: its TensorSpec constraint is a placeholder of the graph,
                # structured_input_signature lists it in its place; tsweep65)
                out[n] = _named(c, n)
                own[n] = c
        return list(out), out, frozenset(kwonly), {}, own, posonly
    kwonly: set[str] = set()
    if sig is not None:
        try:
            b = sig.bind(*args, **kwargs)
        except TypeError as e:   # (TF names the Python's FunctionType: "... for signature: (x, *, k).")
            from simdist.tf import _signature
            raise _binding(str(e), args, kwargs, _signature.type_text(fn)) from None
        b.apply_defaults()
        values = dict(b.arguments)
        names = [n for n in names if n in values]
        star = [p.name for p in sig.parameters.values() if p.kind is p.VAR_POSITIONAL]
        # (a declared *args makes every positional parameter POSITIONAL_ONLY, given extra arguments or not:
        # `def f(a, *args)` traced on one spec is `(a: ..., /)`; fsweep66)
        posonly = frozenset(names) if star else frozenset()
        if star and values.get(star[0]):
            # (`def f(*a)`: each positional argument past the named ones is a parameter of its own, a_0, a_1, ...,
            # passed positionally after them; simdist passed none of them until open45)
            for i, v in enumerate(values.pop(star[0])):
                values[f"{star[0]}_{i}"] = v
                names.append(f"{star[0]}_{i}")
            posonly = frozenset(n for n in names if n not in kwonly)
        # (`def f(x, *, k)`: each declared keyword-only parameter, in its order, given or defaulted: TF 2.21's
        # FunctionType keeps them KEYWORD_ONLY, structured_input_signature's dict; simdist dropped them until the
        # forty-seventh session, so the Python ran without k: open47)
        for p in sig.parameters.values():
            if p.kind is p.KEYWORD_ONLY and p.name in values:
                names.append(p.name)
                kwonly.add(p.name)
        kwstar = [p.name for p in sig.parameters.values() if p.kind is p.VAR_KEYWORD]
        if kwstar and values.get(kwstar[0]):
            # (`def f(x, **kw)`: each keyword argument is a keyword-only parameter of its own, named by its key, in
            # sorted order after the positional ones: TF 2.21's FunctionType, observed (blind51); simdist dropped
            # them until the forty-sixth session, so the Python saw no `kw` entries)
            extra = values.pop(kwstar[0])
            for k in sorted(extra):
                values[k] = extra[k]
                names.append(k)
                kwonly.add(k)
    else:
        values = dict(zip(names, args))
        posonly = frozenset()
    own = {n: _as_specs(values[n]) for n in names}
    bound = {n: _named(own[n], n) for n in names}
    return names, bound, frozenset(kwonly), variable_specs(names, values), own, posonly


def trace(function: Any, args: tuple, kwargs: dict, variables: dict | None = None,
          record: list | None = None) -> ConcreteFunction:
    """get_concrete_function: the dry runs of the module's docstring, a ConcreteFunction or the
    trace-time error. `variables`: parameters bound to these Variables instead of placeholders
    (a call's own variables, `build_error`). `record`: a list that receives (signature, recording)
    when the first dry run, on placeholders of fully known shapes, was recorded and ran as a call on
    values would (`_recorded_cleanly`): TF's one trace, which the calls of those shapes then replay
    without running the Python again (clause function.trace-once)."""
    from simdist.runtime import context, errors, symbolic
    from simdist.runtime.ops import dispatch, trace_errors
    params, bound, kwonly, shown, own, posonly = specs_of(function, args, kwargs)

    def run_python(*flat: Any) -> Any:   # (the keyword-only parameters passed by keyword)
        return function._traced_python()(*[v for p, v in zip(params, flat) if p not in kwonly],
                                        **{p: v for p, v in zip(params, flat) if p in kwonly})
    if variables:
        bound = {**bound, **{p: v for p, v in variables.items() if p in bound}}
    recording: list = []
    if record is not None and not variables:   # (unknown dimensions too: the stand-ins' recording, fix67t)
        def recorded_python(*flat: Any) -> Any:   # (the first dry run: recorded as a call of these tensors)
            return function._placeholder_recording(tuple(v for p, v in zip(params, flat) if p not in kwonly),
                                                   {p: v for p, v in zip(params, flat) if p in kwonly}, recording)
    else:
        recorded_python = None
    first: BaseException | None = None
    outputs: Any = None     # (None: every dry run met a kernel's error, which hides the outputs' shapes)
    standin_outputs: Any = None   # (the first run completed on stand-ins: their shapes are the shape functions')
    variables_read: list = []     # (the variables the built run read: FuncGraph.variables)
    captured: list = []           # (its captures: FuncGraph.captures, `ConcreteFunction._captures`)
    built = False
    tried = set()
    tried_runs: list = []
    fills = _FILLS if any(s.dtype.is_integer for p in params for s in _leaves(bound[p])) else (0,)
    names = _input_names(params, bound, own)

    def placeholders(size: int, rank: int, fill: int) -> list[Any]:
        """Each parameter's placeholders (its specs' structure), noted as graph inputs with their names (a Python
        repr of one is TF's `<tf.Tensor 'p:0' shape=(None,) ...>`: conc58)."""
        from simdist.runtime import symbolic
        out = []
        for p in params:
            made = [_placeholder(s, size, rank, fill) for s in _leaves(bound[p])]
            for i, t in enumerate(made):
                symbolic.note(t, names[(p, i)])
            out.append(_pack(bound[p], iter(made)) if made else bound[p])
        _graph_inputs([v for p, v in zip(params, out) if not _leaves(bound[p])])
        return out
    for size, rank in _PLACEHOLDERS:
        key = tuple(_placeholder_shape(s, size, rank) for p in params for s in _leaves(bound[p]))
        if key in tried:
            continue
        tried.add(key)
        for fill in fills:
            # (the placeholders' values are probes: a kernel's error on zeros (`tf.range(1, n, 2)`, a
            # `tf.transpose` perm or a `tf.image.resize` size of an int placeholder), which TF's symbolic
            # trace never meets, tells nothing of the graph: the same shapes with other values may build)
            standins = dispatch.STANDINS[0]
            answers = context.placeholder_answers()
            first_run = recorded_python is not None and not tried_runs
            tried_runs.append(1)
            try:
                try:
                    reads: list = []
                    caught: list = []
                    out = dry_run(recorded_python if first_run else run_python, placeholders(size, rank, fill),
                                  reads, caught)
                except symbolic.EndlessDryRun:
                    if fill:
                        raise
                    # (a Python loop that zeros never end, `while x < 10: x *= 2`, which TF traces once as a
                    # tf.while_loop: ones of the same shapes may end it, else another placeholder)
                    reads, caught = [], []
                    out = dry_run(run_python, placeholders(size, rank, 1), reads, caught)
            except symbolic.EndlessDryRun:
                break
            except Exception as e:  # noqa: BLE001 - classified below
                traced = (trace_errors.at_trace(e) or e) if trace_errors.builds(e) else None
                if traced is not None and fill:
                    # (a shape function's error on a probe value, not on zeros: the value is the probe's, which
                    # the graph does not know; a ConjugateTranspose perm argument of twos is out of range, TF's
                    # trace checks no perm it cannot see; fz35a)
                    continue
                if traced is not None:
                    first = first or traced.with_traceback(e.__traceback__)
                    break
                if isinstance(e, errors.OpError):
                    # (a kernel's error: the graph builds as far as this run went, but the ops after it
                    # were not run; other values or another placeholder may reach them or show the outputs)
                    continue
                if not any(not s.shape.is_fully_defined() for p in params for s in _leaves(bound[p])):
                    raise
                # (a Python error of this placeholder's shape, `x[0, ..., 1]` of a rank-1 choice for an
                # unknown rank: TF's trace knows no rank, another choice may build; fz4 seed 43 #191)
                first = first or e
                break
            if dispatch.STANDINS[0] != standins:
                # (a run that went on past a kernel's run-time error, on stand-ins of the shapes the ops' shape
                # functions give: the outputs if no run completes without them)
                if standin_outputs is None:
                    standin_outputs = _describe(out)
                continue
            outputs = _describe(out)
            variables_read = reads
            captured = caught
            built = True
            if first_run and context.placeholder_answers() == answers and not symbolic._dry_truths[0] and recording:
                record.append(recording[-1])
            break
        if built:
            break
    if not built and first is None and standin_outputs is not None:
        outputs, built = standin_outputs, True
    if not built and first is not None:   # (a shape function's error some run reached, none completing)
        raise first
    cf = ConcreteFunction(function, params, bound, outputs, kwonly, shown, own, posonly)
    cf._variables = _distinct_variables(variables_read)
    cf._captures = tuple(captured)
    return cf


def _distinct_variables(reads: list) -> tuple:
    """The variables read, each once in the order first read (a distributed variable's component read as its
    container), as FuncGraph.variables lists the captured ones."""
    out: list = []
    for v in reads:
        owner = getattr(v, "_distributed_container", None)
        owner = v if owner is None else owner
        if all(o is not owner for o in out):
            out.append(owner)
    return tuple(out)


def build_error(function: Any, args: tuple, kwargs: dict) -> BaseException | None:
    """The graph-build error (a TypeError, ValueError or AttributeError) TF's trace of this call raises, found by
    the dry runs of get_concrete_function, or None. Asked when a first call met a kernel's error:
    TF builds the whole graph before it runs, so a build error of a later op wins (fz4 seed 32
    #26: `x ** x - 0.5` of int32, Sub's conversion of 0.5, not Pow's negative-exponent error). A
    call with a Variable argument, or to a function with **kwargs or (without an input_signature)
    *args, is not asked (the dry runs bind named parameters only). A Variable given as a parameter
    itself is passed to the dry runs as it is (their writes are dropped): fz27b, fz14 seed
    1420272703 #5; a Variable inside a structure is not asked."""
    from simdist.runtime import errors
    from simdist.runtime.tensor import Tensor
    try:   # (*args/**kwargs parameters: the dry runs would not bind the call's arguments)
        sig = inspect.signature(function.python_function)
        params = sig.parameters.values()
    except (TypeError, ValueError):
        return None
    if any(p.kind is p.VAR_KEYWORD or (p.kind is p.VAR_POSITIONAL and function.input_signature is None)
           for p in params):
        return None   # (an input_signature names *args' specs a_0, a_1, ...: specs_of binds them)
    def is_variable(v: Any) -> bool:
        return hasattr(v, "_as_tensor") and not isinstance(v, Tensor)
    variables: dict = {}
    if any(is_variable(v) for v in _flatten([list(args), kwargs])):
        if function.input_signature is not None:
            return None
        try:
            given = sig.bind(*args, **kwargs).arguments
        except TypeError:
            return None
        variables = {n: v for n, v in given.items() if is_variable(v)}
        if any(is_variable(v) for n, v in given.items() if n not in variables for v in _flatten([v])):
            return None
    try:
        trace(function, args, kwargs, variables)
    except errors.OpError:
        return None
    except (TypeError, ValueError, AttributeError) as e:
        # (an AttributeError of the traced Python is the trace's too: TF's call traces again and raises
        # it, where the kernel's error of an earlier op would come only when the graph runs;
        # `safe_embedding_lookup_sparse(..., sparse_ids=[[2.5]])` after a refused scatter, fz31b,
        # fz14_known's tensor_scatter_nd_update>safe_embedding_lookup_sparse, seed 1420262601 #33)
        return e
    except Exception:  # noqa: BLE001 - a dry run's own failure says nothing of TF's graph
        return None
    return None


def _placeholder_shape(spec: Any, size: int, rank: int) -> tuple[int, ...]:
    dims = spec.shape.as_list() if spec.shape.rank is not None else [None] * rank
    return tuple(size if d is None else d for d in dims)


def _placeholder(spec: Any, size: int, rank: int, fill: int = 0) -> Any:
    """Zeros (or `fill`) of the spec's dtype, unknown dimensions `size` long (marked unknown to the graph)."""
    if not _is_spec(spec):
        return spec
    import numpy as np

    from simdist.runtime.ops import static_shapes
    from simdist.runtime.tensor import Tensor
    from simdist.runtime.ops import graph_constants
    t = Tensor(np.full(_placeholder_shape(spec, size, rank), fill, spec.dtype.as_numpy_dtype), spec.dtype)
    return graph_constants.argument(static_shapes.argument(t, spec.shape))


def _describe(out: Any) -> Any:
    """The traced outputs as GraphTensors ('Identity:0', 'Identity_1:0', ...) in TF's order, with
    the dimensions the graph does not know as None."""
    from simdist.runtime.ops import static_shapes
    from simdist.runtime.tensor import Tensor, TensorShape
    count = [0]

    def one(x: Any) -> Any:
        t = _as_tensor(x)
        if t is None or not isinstance(t, Tensor):
            return x
        shape = static_shapes.known_shape(t)
        name = "Identity:0" if count[0] == 0 else f"Identity_{count[0]}:0"
        count[0] += 1
        return GraphTensor(name, TensorShape(shape), t.dtype)
    return _walk(one, out)


def _walk(fn: Callable[[Any], Any], x: Any) -> Any:
    """fn over x's leaves in TF's nest order (dict keys sorted), rebuilt in x's own structure."""
    if isinstance(x, dict):
        done = {k: _walk(fn, x[k]) for k in sorted(x)}
        return type(x)((k, done[k]) for k in x)
    if isinstance(x, tuple) and hasattr(x, "_fields"):
        return type(x)(*[_walk(fn, v) for v in x])
    if isinstance(x, (list, tuple)):
        return type(x)(_walk(fn, v) for v in x)
    return fn(x)


def _graph_inputs(values: list[Any]) -> list[Any]:
    """The placeholders, marked as the graph's input tensors (runtime/symbolic.py)."""
    from simdist.runtime import symbolic
    from simdist.tf._function import _mark_arguments
    _mark_arguments(tuple(values), {}, symbolic.note)
    return values


def dry_run(fn: Callable[..., Any], args: list[Any], reads: list | None = None, captures: list | None = None) -> Any:
    """fn(*args) as a trace: its variable writes, simulator charges, FLOPs and random draws
    undone, the tapes not watching, inside a tf.function's context (nested tf.functions run as
    Python). `reads`: a list that receives each variable the Python reads, in order; `captures`: one that
    receives the graph's captures, (an eager tensor or a variable, its placeholder's name), in capture order."""
    from simdist.runtime import context, cost, execution, symbolic, variables
    from simdist.runtime.ops import pruning
    from simdist.strategies import timing
    from simdist.tf._function import _outputs_to_tensors
    c = execution.current()
    tapes, observers = c.tapes, c.observers
    rng = copy.deepcopy(c.rng)
    tally = cost.tally.snapshot()
    run_flops = timing.run_flops_accum[0]
    c.tapes, c.observers = [], []
    symbolic._dry_truths[0] = 0
    context._variable_reads.append([] if reads is None else reads)
    try:
        with context.in_function_call(), context.placeholder_run(), variables.transaction(), \
                timing.collect(execution.Discarded()):
            out = fn(*args)
            pruning.check(out)   # (an output a deferred shape error poisoned: dispatch.deferred_value_error)
            if captures is not None:
                from simdist.runtime import graph_names
                captures.extend(graph_names.captures())
            return _outputs_to_tensors(out)
    finally:
        context._variable_reads.pop()
        c.tapes, c.observers = tapes, observers
        c.rng.clear()
        c.rng.update(rng)
        cost.tally.flops, cost.tally.backward, cost.tally.update = tally
        timing.run_flops_accum[0] = run_flops
