"""Errors TF raises while it builds a tf.function's graph, not when the graph runs.

When TF adds an op to a graph it converts and checks the operands' dtypes (op_def_library:
TypeError) and runs the op's shape function (tensorflow/core/ops/*.cc: ValueError); eagerly the
same mistakes reach the kernel and raise InvalidArgumentError. simdist runs a tf.function's
Python eagerly while it records, so an op raises its eager error and marks it with the error TF
would have raised at trace time (`static`, `shape_error`, `dtype_mismatch`, `list_mismatch`);
a tf.function whose Python is running (tracing) converts marked errors (`at_trace`). Errors
TF only finds at run time (an index out of range, integer division by zero, a repeated perm
entry) are not marked and keep their class. Clause function.trace-time-errors.
"""

from __future__ import annotations

import os
import traceback
from typing import Any, Sequence

from simdist.runtime import dtypes, errors

__all__ = ["static", "attr_minimum", "shape_error", "mark_shape", "dtype_mismatch", "list_mismatch", "at_trace",
           "shapes_text", "in_body", "not_allowed", "attr_not_allowed", "fixed_type", "fixed_input", "fixed_operand", "bad_attr",
           "string_attr", "check_string", "builds", "at_build", "at_lowering", "lowers", "unmark", "const_node_name", "list_minimum",
           "as_function"]

_ATTR = "_simdist_trace_error"
MARK = _ATTR   # (the attribute holding an error's trace-time mark, for raw_rules to leave marked errors be)
# Names of the inputs that share an op's type attr, as its OpDef names them (SelectV2's dtype
# rule sees t and e, not the condition); other ops have TF's usual binary names x, y.
_ARG_NAMES = {"MatMul": ("a", "b"), "SelectV2": ("t", "e"), "LowerBound": ("sorted_inputs", "values"),
              "UpperBound": ("sorted_inputs", "values")}
# List-input ops and their list argument's name.
_LIST_ARGS = {"ConcatV2": "values", "Pack": "values", "AddN": "inputs"}


# The first input's name in TF's OpDef, where it is not "x" (op_def_library's messages name it),
# for the ops whose type attr T simdist checks against an allowed list.
_FIRST_INPUT = {"AddN": "inputs", "ArgMax": "input", "ArgMin": "input", "Atan2": "y", "AvgPool": "value",
                "BiasAdd": "value", "Conv2D": "input", "DepthwiseConv2dNative": "input", "Elu": "features",
                "EuclideanNorm": "input", "L2Loss": "t", "LeakyRelu": "features", "LogSoftmax": "logits",
                "MatMul": "a", "Diag": "diagonal", "DiagPart": "input", "Max": "input", "Mean": "input", "Min": "input", "Prod": "input", "Sum": "input",
                "MaxPool": "input", "Polygamma": "a", "Relu": "features", "Relu6": "features", "Selu": "features",
                "Softplus": "features", "Softsign": "features", "ResizeBilinear": "images", "Softmax": "logits",
                "SoftmaxCrossEntropyWithLogits": "features", "TopKV2": "input",
                **{op: "data" for op in ("SegmentMax", "SegmentMean", "SegmentMin", "SegmentProd", "SegmentSum",
                                         "UnsortedSegmentMax", "UnsortedSegmentMin", "UnsortedSegmentProd",
                                         "UnsortedSegmentSum")}}
# TF's C type names (kernel messages) and Python dtype names (op_def_library's messages)
_PY_NAMES = {"half": "float16", "float": "float32", "double": "float64"}


def not_allowed(err: BaseException, op: str, got: dtypes.DType, allowed: str) -> Any:
    """`err` (the eager "Value for attr 'T' of ... is not in the list of allowed values"), marked
    with op_def_library._SatisfiesTypeConstraint's TypeError, which a graph build raises
    instead; `allowed` is the eager message's list (C names)."""
    names = ", ".join(_PY_NAMES.get(n.strip(), n.strip()) for n in allowed.split(","))
    return static(err, TypeError, f"Value passed to parameter '{_FIRST_INPUT.get(op, 'x')}' has DataType "
                                  f"{got.name} not in list of allowed values: {names}")


# The input a type attr other than T binds, per op (op_def_library names it in its TypeError).
_ATTR_INPUT = {"Tindices": "indices", "TI": "indices", "Taxis": "axis", "Tnumsegments": "num_segments",
               "Tidx": "indices", "Tpaddings": "paddings", "Tmultiples": "multiples", "Ta": "x", "Tb": "y", "Tperm": "perm",
               "index_type": "dims", "Tshape": "shape", "Tlen": "size_splits", "Tk": "k", "Tsegmentids": "segment_ids"}
_SEGMENT_IDS = ("SegmentSum", "SegmentMean", "SegmentMax", "SegmentMin", "SegmentProd", "UnsortedSegmentSum",
                "UnsortedSegmentMax", "UnsortedSegmentMin", "UnsortedSegmentProd")


def attr_not_allowed(op: str, attr: str, got: dtypes.DType, allowed: str) -> errors.InvalidArgumentError:
    """The eager InvalidArgumentError for input dtype `got` refused by type attr `attr` (GatherV2's
    Tindices, OneHot's TI, ...), marked with op_def_library's TypeError (_SatisfiesTypeConstraint:
    "Value passed to parameter 'indices' has DataType float32 not in list of allowed values: ...")
    that a graph build raises; `allowed` is the eager message's list (C names)."""
    c_name = {"float16": "half", "float32": "float", "float64": "double"}.get(got.name, got.name)
    err = errors.InvalidArgumentError(None, None, f"Value for attr '{attr}' of {c_name} is not in the list of "
                                                  f"allowed values: {allowed} [Op:{op}]")
    param = "segment_ids" if attr == "Tindices" and op in _SEGMENT_IDS else "start" if op == "Range" else \
        _ATTR_INPUT.get(attr, attr)
    names = ", ".join(_PY_NAMES.get(n.strip(), n.strip()) for n in allowed.split(","))
    return static(err, TypeError, f"Value passed to parameter '{param}' has DataType {got.name} not in list of "
                                  f"allowed values: {names}")


def fixed_type(err: BaseException, op: str, index: int, got: dtypes.DType, want: dtypes.DType) -> Any:
    """`err` (an input of a fixed dtype, e.g. LogicalAnd's or Any's bool, given another), marked
    with op_def_library's TypeError for a graph tensor (a tf.function's argument or a variable's
    value). A tensor captured from eager code raises `assert False, "Unreachable"` there instead
    (AssertionError, TF 2.21), which simdist does not tell apart."""
    names = {"Any": ("input",), "All": ("input",)}.get(op, ("x", "y"))
    name = names[index] if index < len(names) else names[-1]
    return static(err, TypeError, f"Input '{name}' of '{op}' Op has type {got.name} that does not match expected "
                                  f"type of {want.name}.")


def attr_minimum(op: str, attr: str, value: int, minimum: int) -> errors.InvalidArgumentError:
    """An int attr below its OpDef minimum: eagerly InvalidArgumentError ("Value for attr
    'num_split' of 0 must be at least minimum 1"), marked with op_def_library's ValueError ("Attr
    'num_split' of 'Split' Op passed 0 less than minimum 1."), which a graph build raises before
    the shape function runs (issue 29's fz15b)."""
    err = errors.InvalidArgumentError(None, None, f"Value for attr '{attr}' of {value} must be at least minimum "
                                                  f"{minimum} [Op:{op}]")
    return static(err, ValueError, f"Attr '{attr}' of '{op}' Op passed {value} less than minimum {minimum}.")


def list_minimum(op: str, attr: str, length: int, minimum: int) -> errors.InvalidArgumentError:
    """A list attr shorter than its OpDef minimum: eagerly InvalidArgumentError ("Length for attr
    'ksizes' of 0 must be at least minimum 4"), marked with op_def_library's ValueError ("Attr
    'ksizes' of 'ExtractImagePatches' Op passed list of length 0 less than minimum 4.") that a graph
    build raises (fz14 seed 14 #143)."""
    err = errors.InvalidArgumentError(None, None, f"Length for attr '{attr}' of {length} must be at least minimum "
                                                  f"{minimum} [Op:{op}]")
    return static(err, ValueError, f"Attr '{attr}' of '{op}' Op passed list of length {length} less than minimum "
                                   f"{minimum}.")


def fixed_input(value: Any, dt: dtypes.DType, op: str, arg: str) -> Any:
    """A tensor `value` for an input of fixed dtype `dt` (a raw op's `float` input): the same
    tensor when its dtype is `dt`; else convert_to_tensor's ValueError eagerly, marked with
    op_def_library's TypeError that a graph build raises for a graph tensor. (For a tensor captured
    from eager code TF 2.21 raises `assert False, "Unreachable"` there instead, AssertionError;
    simdist does not tell captured tensors apart, as `fixed_type`.) The ValueError's text ends with the
    tensor's repr, as Tensor.__tf_tensor__'s (TF 2.21 framework/tensor.py; amut38)."""
    if value.dtype == dt:
        return value
    err = ValueError(f"Tensor conversion requested dtype {dt.name} for Tensor with dtype {value.dtype.name}: "
                     f"{value!r}")
    return static(err, TypeError, f"Input '{arg}' of '{op}' Op has type {value.dtype.name} that does not match "
                                  f"expected type of {dt.name}.")


def fixed_operand(value: Any, dt: dtypes.DType, op: str, arg: str) -> Any:
    """An argument for an input of fixed dtype `dt` as TF's generated wrapper takes it: a Python
    or NumPy value converted with `dt`; a tensor of another dtype refused (the eager fast path
    falls back to convert_to_tensor: ValueError "Tensor conversion requested dtype float32 for
    Tensor with dtype float16"; traced op_def_library's TypeError; `fixed_input`)."""
    from simdist.runtime import context
    from simdist.runtime.tensor import Tensor, convert_to_tensor
    if not isinstance(value, Tensor) and hasattr(value, "_as_tensor") and context.in_function():
        value = convert_to_tensor(value)   # (a graph types a variable as the tensor it reads: TypeError; fz23b)
    if isinstance(value, Tensor):
        t = fixed_input(value, dt, op, arg)
        if isinstance(t, Tensor):
            return t
        raise t
    return convert_to_tensor(value, dtype=dt)


def bad_attr(err: BaseException, op: str, attr: str, value: str, allowed: str) -> Any:
    """`err` (the eager "Value for attr 'padding' of ..." error), marked with op_def_library's
    ValueError for a string attr outside the op's list while tracing."""
    return static(err, ValueError, f"Attr '{attr}' of '{op}' Op passed string '{value}' not in: {allowed}.")


def string_attr(op: str, attr: str, value: Any, allowed: Sequence[str], tagged: bool = True) -> errors.InvalidArgumentError:
    """A string attr outside its OpDef's allowed values, one rule for every op: eagerly the
    NodeDef's InvalidArgumentError ("Value for attr 'padding' of "same" is not in the list of
    allowed values: "SAME", "VALID" [Op:Conv3D]"; `tagged` False: without the op's tag), marked
    with op_def_library's ValueError (_SatisfiesAllowedStringsConstraint: "Attr 'padding' of
    'Conv3D' Op passed string 'same' not in: "SAME", "VALID".") that a graph build raises after
    the inputs' types and the attrs before it in the OpDef (fz33b's open #38, fz34b)."""
    quoted = ", ".join(f'"{a}"' for a in allowed)
    err = errors.InvalidArgumentError(None, None, f"Value for attr '{attr}' of \"{value}\" is not in the list of "
                                                  f"allowed values: {quoted}" + (f" [Op:{op}]" if tagged else ""))
    return bad_attr(err, op, attr, value, quoted)


def check_string(op: str, attr: str, value: Any, allowed: Sequence[str], tagged: bool = True) -> str:
    """`value` when `allowed` holds it, else raises `string_attr`'s error."""
    if value not in allowed:
        raise string_attr(op, attr, value, allowed, tagged)
    return str(value)


_KERNEL_ONLY = [False]
_SHAPE_FN_ONLY = "_simdist_shape_fn_only"


def shape_fn_only(err: BaseException) -> BaseException:
    """err marked as one only the op's shape function raises (the kernel computes where the graph does not see
    it: a VALID window longer than an input dimension the graph does not know gives an empty output)."""
    setattr(err, _SHAPE_FN_ONLY, True)
    return err


def kernel_only() -> bool:
    """Whether the kernel runs without its shape function's checks (dispatch's rerun of such an error)."""
    return _KERNEL_ONLY[0]


WINDOW_DIM = "_simdist_window_dim"


def rerun_kernel_only(err: BaseException, fn: Any, tensors: Sequence[Any]) -> Any:
    """fn() with the shape-function-only checks off, where err is one of them and the graph does not know the
    dimensions it read: the input's spatial dimension (NHWC: 1 + err's WINDOW_DIM) or the filter's (a second
    input of rank 4: its dimension WINDOW_DIM); err then is not a trace-time error and the kernel's result
    stands (TF 2.21: an AvgPool of an input_signature's [1, 0, ?, 2] NCHW input traces and computes an empty
    output when called); None otherwise."""
    from simdist.runtime.ops import static_shapes
    dim = getattr(err, WINDOW_DIM, None)
    if not getattr(err, _SHAPE_FN_ONLY, False) or dim is None or not tensors:
        return None
    x = static_shapes.known_shape(tensors[0])
    seen = x is not None and len(x) == 4 and x[1 + dim] is not None
    if seen and len(tensors) > 1:
        f = static_shapes.known_shape(tensors[1])
        seen = f is not None and len(f) == 4 and f[dim] is not None
    if seen:
        return None
    unmark(err)
    _KERNEL_ONLY[0] = True
    try:
        return fn()
    finally:
        _KERNEL_ONLY[0] = False


def unmark(err: BaseException) -> None:
    """err without its trace-time mark: TF raises it as it is, when the graph runs."""
    setattr(err, _ATTR, False)


def static(err: BaseException, cls: type, text: str) -> Any:
    """`err`, marked as an error TF raises as `cls(text)` while it builds the graph."""
    setattr(err, _ATTR, (cls, text))
    return err


def _dims(shape: Sequence[int | None] | None) -> str:
    """A shape as TF's messages print it: "[4,?,0]" (? for a dimension the graph does not know,
    ? alone for a shape of unknown rank)."""
    if shape is None:
        return "?"
    return "[" + ",".join("?" if d is None else str(int(d)) for d in shape) + "]"


def shapes_text(shapes: Sequence[Sequence[int]]) -> str:
    """Input shapes as TF's shape-inference messages list them: "[2,3], [1]"."""
    return ", ".join(_dims(s) for s in shapes)


def mark_shape(err: BaseException, text: str, op: str, shapes: Sequence[Sequence[int]]) -> Any:
    """`err` marked with the shape function's ValueError: `text` for the node and its input shapes."""
    return static(err, ValueError, f"{text} for '{{{{node {op}}}}}' with input shapes: {shapes_text(shapes)}.")


def shape_error(eager: str, text: str, op: str, shapes: Sequence[Sequence[int]]) -> errors.InvalidArgumentError:
    """The eager InvalidArgumentError(`eager`), marked with the shape function's ValueError."""
    return mark_shape(errors.InvalidArgumentError(None, None, eager), text, op, shapes)


def dtype_mismatch(err: BaseException, op: str, index: int, want: dtypes.DType, got: dtypes.DType,
                   all_dtypes: Sequence[dtypes.DType] | None = None) -> Any:
    """`err` marked with op_def_library's TypeError for input `index` of dtype `got` where the
    first input's `want` fixed the type attr (a list input: the list's dtypes)."""
    if op in _LIST_ARGS and all_dtypes is not None:
        return list_mismatch(err, op, all_dtypes)
    names = _ARG_NAMES.get(op, ("x", "y"))
    if index >= len(names):
        return err
    return static(err, TypeError, f"Input '{names[index]}' of '{op}' Op has type {got.name} that does not match "
                                  f"type {want.name} of argument '{names[0]}'.")


def list_mismatch(err: BaseException, op: str, dts: Sequence[dtypes.DType]) -> Any:
    """`err` marked with op_def_library's TypeError for a list input whose dtypes differ."""
    return static(err, TypeError, f"Tensors in list passed to '{_LIST_ARGS[op]}' of '{op}' Op have types "
                                  f"[{', '.join(d.name for d in dts)}] that don't all match.")


_BUILD = "_simdist_graph_build"


def at_build(err: BaseException) -> Any:
    """`err`, marked as an error TF raises as it is while it builds the graph (its class kept: the
    Switch node's InvalidArgumentError for a cond predicate that is not a bool)."""
    setattr(err, _BUILD, True)
    return err


_LOWERING = "_simdist_graph_lowering"


def at_lowering(err: BaseException) -> Any:
    """`err`, marked as an error of the graph's lowering at its first run (cond_v2's If and while_v2's While
    become Switch/LoopCond nodes there, of every branch, taken or not): the trace succeeds and is counted, the call
    raises it, also from a branch its run does not take (`lowers`; tsweep65)."""
    setattr(err, _LOWERING, True)
    return err


def lowers(err: BaseException) -> bool:
    """Whether `err` is an error of the graph's lowering (`at_lowering`)."""
    return getattr(err, _LOWERING, False)


def builds(err: BaseException) -> bool:
    """Whether TF raises `err` while it builds a graph (so also from a branch a traced tf.cond
    does not take), rather than when the graph runs."""
    mark = getattr(err, _ATTR, None)
    if mark is False:     # (unmarked: a shape function cannot see it, static_shapes.unseen)
        return False
    return (mark is not None or getattr(err, _BUILD, False)
            or (isinstance(err, errors.OpError) and _attr_list(err) is not None))


_PACKAGE = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def at_trace(err: BaseException) -> BaseException | None:
    """The error a tracing tf.function raises for `err`: TF's trace-time ValueError/TypeError,
    with TF's "in user code:" frame (the innermost frame outside simdist), or None when TF
    raises `err` as it is."""
    mark = getattr(err, _ATTR, None)
    if mark is False:     # (unmarked: a shape function cannot see it, static_shapes.unseen)
        return None
    if mark is None:
        mark = _attr_list(err)
        if mark is None:
            return _no_kernel(err)
    cls, text = mark
    where = ""
    user = [f for f in traceback.extract_tb(err.__traceback__) if not os.path.abspath(f.filename).startswith(_PACKAGE)]
    if user:
        f = user[-1]
        line = (f.line or "").strip()
        where = f"    File \"{f.filename}\", line {f.lineno}, in {f.name}  *\n" + (f"        {line}\n" if line else "") + "\n"
    body = f"{cls.__name__}: {text}".replace("\n", "\n    ")
    out = cls(f"in user code:\n\n{where}    {body}\n")
    out._simdist_unframed = text   # (the message a function AutoGraph does not convert raises: tf/_function.py)
    return out


def in_body(err: BaseException) -> BaseException | None:
    """The error TF's op call raises for `err` inside a tracing tf.function's Python (op_def_library's TypeError, a
    shape function's ValueError: `cls(text)` of its mark, the mark kept for the function's boundary, `at_trace`), or
    None when TF raises nothing while it builds (a kernel's error, raised when the graph runs)."""
    mark = getattr(err, _ATTR, None)
    if mark is False:
        return None
    if mark is None:
        mark = _attr_list(err)
        if mark is None:
            return None
    cls, text = mark
    if isinstance(err, cls) and str(err) == text:
        return None
    out = cls(text)
    setattr(out, _ATTR, mark)
    return out


_PY_NAMES = {"float": "float32", "double": "float64", "half": "float16"}


def _attr_list(err: BaseException) -> tuple[type, str] | None:
    """An input of another dtype than its op takes (eagerly "cannot compute InTopKV2 as input #0
    (zero-based) was expected to be a float tensor but is a bool tensor"), or a type attr outside
    the op def's list (eagerly InvalidArgumentError "Value for attr
    'out_idx' of int16 is not in the list of allowed values: int32, int64"): while TF builds the
    graph, op_def_library checks it first and raises TypeError ("Value passed to parameter ...
    has DataType int16 not in list of allowed values: int32, int64"; clause
    function.trace-time-errors). None for other errors. (The parameter TF names is the input or
    attr bound to the type attr; this names the attr.)"""
    import re
    if not isinstance(err, errors.InvalidArgumentError):
        return None
    m = re.match(r"cannot compute (\w+) as input #(\d+)\(zero-based\) was expected to be a (\w+) tensor but is a (\w+) "
                 r"tensor", str(err).strip())
    if m is not None:   # an input of a fixed or already fixed type: op_def_library's TypeError
        op = re.search(r"\[Op:(\w+)\]", str(err))   # the op, not its (oneDNN) kernel
        return TypeError, (f"Input #{m.group(2)} of '{op.group(1) if op else m.group(1)}' Op has type {_PY_NAMES.get(m.group(4), m.group(4))} "
                           f"that does not match expected type of {_PY_NAMES.get(m.group(3), m.group(3))}.")
    s = re.match(r"Value for attr '(\w+)' of \"(.*?)\" is not in the list of allowed values: ((?:\"[^\"]*\"(?:, )?)+)",
                 str(err).strip())
    op = re.search(r"\[Op:(\w+)\]|\{\{node (\w+)\}\}", str(err))
    if s is not None and op is not None:   # a string attr outside its list: op_def_library's ValueError (fz34b)
        return ValueError, (f"Attr '{s.group(1)}' of '{op.group(1) or op.group(2)}' Op passed string '{s.group(2)}' "
                            f"not in: {s.group(3)}.")
    m = re.match(r"Value for attr '(\w+)' of (\w+) is not in the list of allowed values: ([\w, ]+?)(?: \[Op:\w+\])?$",
                 str(err).strip())
    if m is None:
        return None
    names = ", ".join(_PY_NAMES.get(n, n) for n in m.group(3).split(", "))
    got = _PY_NAMES.get(m.group(2), m.group(2))
    return TypeError, (f"Value passed to parameter for attr '{m.group(1)}' has DataType {got} not in list of allowed "
                       f"values: {names}")


def _no_kernel(err: BaseException) -> BaseException | None:
    """An op with no CPU kernel for its dtype: eagerly NotFoundError ("Could not find device for
    node: {{node RealDiv}} = RealDiv[T=DT_INT32]"); in a tf.function the graph is built and its
    run fails to place the node: InvalidArgumentError ("No OpKernel was registered to support Op
    'RealDiv' used by {{node RealDiv}} with these attrs: [T=DT_INT32]"). None for other errors."""
    import re
    text = str(err)
    m = re.search(r"Could not find device for node: \{\{node (\w+)\}\} = \w+\[([^\]]*)\]", text)
    if not isinstance(err, errors.NotFoundError) or m is None:
        return None
    return errors.InvalidArgumentError(None, None, f"No OpKernel was registered to support Op '{m.group(1)}' used by "
                                                   f"{{{{node {m.group(1)}}}}} with these attrs: [{m.group(2)}]")


def broadcast_text(sa: Sequence[int], sb: Sequence[int]) -> str:
    """The broadcasting shape function's message for shapes that do not broadcast: the first
    pair of right-aligned dimensions (from the left) that differ with neither 1."""
    n = max(len(sa), len(sb))
    pa = [1] * (n - len(sa)) + list(sa)
    pb = [1] * (n - len(sb)) + list(sb)
    for a, b in zip(pa, pb):
        if a != b and a != 1 and b != 1:
            return f"Dimensions must be equal, but are {a} and {b}"
    return "Dimensions must be equal"


def merge_refusal(a: Sequence[int | None] | None, b: Sequence[int | None] | None) -> str | None:
    """InferenceContext::Merge's refusal of two shapes as a graph knows them (None for an unknown rank, a
    dimension None where unknown), or None when they merge."""
    if a is None or b is None:
        return None
    if len(a) != len(b):
        return f"Shapes must be equal rank, but are {len(a)} and {len(b)}"
    for d, (x, y) in enumerate(zip(a, b)):
        if x is not None and y is not None and x != y:
            return f"Dimension {d} in both shapes must be equal, but are {x} and {y}. Shapes are {_dims(a)} and {_dims(b)}."
    return None


def merge_text(s0: Sequence[int], s1: Sequence[int]) -> str:
    """InferenceContext::Merge's message for two known shapes of one rank that differ."""
    for d, (a, b) in enumerate(zip(s0, s1)):
        if a is not None and b is not None and a != b:   # (an unknown dimension merges with any: fz5 seed 63 #204)
            return (f"Dimension {d} in both shapes must be equal, but are {a} and {b}. "
                    f"Shapes are {_dims(s0)} and {_dims(s1)}.")
    return "Shapes are not equal"


_NODE_NAME = r"^[A-Za-z0-9.][A-Za-z0-9_.\\/>-]*$"


def const_node_name(name: Any) -> None:
    """Inside a tf.function, the name of a Const node TF creates with Graph.create_op directly
    (constant_op.constant, convert_to_tensor of a non-tensor, shape/size/rank folded to a
    constant), which TF's Operation validates: `name=''` is ValueError when the graph is built
    (op_def_library's generated ops scope an empty name away; issue 29's fz10, third fuzzer ext
    seeds 92 #44, 93 #204, seed 93 #79)."""
    import re
    from simdist.runtime import context
    if name is None or not context._function_depth or re.match(_NODE_NAME, str(name)):
        return
    raise ValueError(f"`{name}` is not a valid node name. Accepted names conform to Regex "
                     f"/re.compile('{_NODE_NAME}')/")


def as_function(fn: Any, *args: Any) -> Any:
    """fn(*args) run as TF runs a library function decorated with @def_function.function (image_ops'
    non_max_suppression_padded_v2): inside a tf.function call, so graph semantics apply and an op
    error TF finds while it builds the graph is raised as TF's trace-time ValueError/TypeError
    (`at_trace`), even when the caller is eager."""
    from simdist.runtime import context
    try:
        with context.in_function_call():
            return fn(*args)
    except Exception as e:  # noqa: BLE001 - re-raised as it is unless TF raises it at trace
        traced = at_trace(e)
        if traced is None:
            raise
        raise traced.with_traceback(e.__traceback__) from None
