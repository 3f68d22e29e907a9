"""TF's OpDef-level checks of a raw-op call, and the error class of a kernel's failure (clause ops.fuzz-raw).

A `tf.raw_ops` call reaches TF's C++ op directly: no Python wrapper checks its arguments first.
Five things decide its errors before and while the kernel runs, and they are the same for every op,
so they live here once rather than on each op:

- the OpDef's attr constraints (`check_attrs`): a type attr's value outside its allowed_values
  (an inferred one, from the inputs' dtype, or one the caller gives) and an int attr below its
  minimum, or a list attr shorter than its minimum. Eagerly TF's attr validation
  (ValidateNodeDef / AttrValueHasType) raises InvalidArgumentError ("Value for attr 'T' of bool is
  not in the list of allowed values: ...", "Value for attr 'num_split' of 0 must be at least
  minimum 1", "Length for attr 'ksize' of 2 must be at least minimum 4"); a graph build raises
  op_def_library's TypeError or ValueError instead (trace_errors marks them).
- the CPU kernels TF registers (`check_kernel`, raw_kernels.json, recorded from TF 2.21's kernel
  registry by scripts/make_raw_kernels.py): an OpDef allows dtypes and attr values no CPU kernel
  takes (MatrixSetDiagV3 of strings, GatherNd with bad_indices_policy "x"). Eagerly TF's kernel
  lookup raises NotFoundError ("Could not find device for node"); in a tf.function the graph is
  built and its run raises InvalidArgumentError ("No OpKernel was registered to support Op").
- inputs of one shape (`check_shapes`): the element-wise gradient ops and AddN require equal
  shapes (SAME_SHAPE) or element counts (SAME_SIZE), where simdist's NumPy kernels broadcast.
- a channels-first layout (`layout_error`): simdist computes the default layout only; TF 2.21's
  CPU kernels of the pooling and convolution ops refuse the other one too, with their own class
  and text (CPU_LAYOUT, observed), which a raw call raises (not where oneDNN's kernel would run).
- a kernel's failure (`kernel_error`): TF's kernels fail through OpKernelContext with a Status, so
  eagerly a raw op raises an OpError, never a Python ValueError or IndexError. simdist's NumPy
  kernels assume the checks of the public function that calls them; on arguments only a raw call
  can pass, NumPy's own ValueError/IndexError/... surfaces instead. Eagerly it is TF's class,
  InvalidArgumentError (the kernel's OP_REQUIRES on its inputs), with NumPy's text. Inside a
  tf.function whose graph knows every input's dimensions a ValueError stays: TF's shape function
  raises the trace-time ValueError for such a shape mismatch (DiagPart of [2,3], AddN of [2] and
  [3]); with an unknown dimension (an input_signature's None) and for other classes it is the
  kernel's InvalidArgumentError when the graph runs. NumPy's IndexError for more indices than a
  rank, and Python's TypeError for an array where the kernel reads a scalar (SobolSample's dim
  given [-3]), are shape errors too: ValueError inside a tf.function (a shape function's
  "Shape must be rank 0").
"""

from __future__ import annotations

import json
from functools import lru_cache
from pathlib import Path
from typing import Any

import numpy as np

from simdist.runtime import context, dtypes, errors
from simdist.runtime.ops import trace_errors
from simdist.runtime.ops.args import dims_text as _dims

__all__ = ["check_attrs", "check_kernel", "check_padding", "check_shapes", "kernel_error", "layout_error", "CPU_LAYOUT", "SAME_SHAPE",
           "SAME_SIZE"]

_C_NAMES = {"float32": "float", "float64": "double", "float16": "half"}
_KERNEL_ERRORS = (ValueError, IndexError, KeyError, ZeroDivisionError, OverflowError, TypeError)


def _type_param(spec: dict[str, Any], attr: str) -> str:
    """The parameter op_def_library names for type attr `attr`: its first input's OpDef name (the
    attr's own name when no input carries it)."""
    return next((a["input"] for a in spec["args"] if "input" in a and attr in (a.get("type_attr"),
                                                                               a.get("type_list_attr"))), attr)


def _allowed_type(name: str, spec: dict[str, Any], attr: str, got: Any, allowed: list[str]) -> None:
    if not isinstance(got, dtypes.DType) or got.name in allowed:
        return
    c_list = ", ".join(_C_NAMES.get(n, n) for n in allowed)
    err = errors.InvalidArgumentError(None, None, f"Value for attr '{attr}' of {_C_NAMES.get(got.name, got.name)} is "
                                                  f"not in the list of allowed values: {c_list} [Op:{name}]")
    raise trace_errors.static(err, TypeError, f"Value passed to parameter '{_type_param(spec, attr)}' has DataType "
                                              f"{got.name} not in list of allowed values: {', '.join(allowed)}")


def check_attrs(name: str, spec: dict[str, Any], vals: dict[str, Any]) -> None:
    """Raise TF's error for an attr value outside the OpDef's constraints (the module's docstring),
    in the OpDef's order: the given attrs, then the attrs inferred from the inputs. A graph build
    (inside a tf.function) converts the inputs first (op_def_library._apply_op_helper: the inferred
    type attrs' TypeError before the given attrs' minimums; fuzz20 seed 2020261201 #74)."""
    graph = context.in_function()
    if graph:
        _inferred(name, spec, vals)
    for a in _opdef_order(name, spec["args"]):
        at = a.get("attr")
        if at is None or at not in vals:
            continue
        v = vals[at]
        if graph and a["type"] == "string" and a.get("allowed") and v not in a["allowed"]:
            # (a graph build: op_def_library checks a string's allowed values in the OpDef's attr order too, after
            # the wrapper's conversions: MaxPoolWithArgmax's Targmax float64 is TypeError beside padding 'BOGUS';
            # fz36a, function seed 3620261217 #50; eagerly after the inputs' conversions: raw_ops._eager_strings)
            raise string_not_allowed(name, at, v, a["allowed"])
        if a["type"] == "type" and a.get("allowed"):
            _allowed_type(name, spec, at, v, a["allowed"])
        elif a["type"] == "int" and "minimum" in a and isinstance(v, int) and v < a["minimum"]:
            raise trace_errors.attr_minimum(name, at, v, a["minimum"])
        elif a["type"].startswith("list(") and "minimum" in a and isinstance(v, (list, tuple)) and \
                len(v) < a["minimum"]:
            raise trace_errors.list_minimum(name, at, len(v), a["minimum"])
    _inferred(name, spec, vals)


def _opdef_order(name: str, args: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The raw op's arguments with its attrs in the OpDef's order where attr_types records it (the Python
    signature's order may differ: MaxPoolWithArgmax's padding before Targmax), else as given."""
    from simdist.runtime.ops.attr_types import ATTR_TYPES
    order = {n: i for i, (n, _, _) in enumerate(ATTR_TYPES.get(name, ()))}
    if not order:
        return args
    return sorted(args, key=lambda a: order.get(a.get("attr", ""), len(order)))


def string_not_allowed(op: str, attr: str, value: str, allowed: list[str]) -> Exception:
    """A string attr's value outside its OpDef's list: the NodeDef's InvalidArgumentError eagerly,
    op_def_library's ValueError in a graph build (fuzzer 20 seed 2320261202 #101, #109)."""
    quoted = ", ".join(f'"{x}"' for x in allowed)
    err = errors.InvalidArgumentError(None, None, f"Value for attr '{attr}' of \"{value}\" is not in the list "
                                      f"of allowed values: " + quoted)
    return trace_errors.bad_attr(err, op, attr, value, quoted) if op else err


def _inferred(name: str, spec: dict[str, Any], vals: dict[str, Any]) -> None:
    """The inferred type attrs' allowed values; a list(type) attr's (SparseCross's sparse_types) each
    element in turn (fuzz20 function seed 3320261201 #232: a complex128 value is TF 2.21's TypeError
    in a graph, InvalidArgumentError eagerly, before the kernel's checks), in the order of the inputs
    that carry them (the record keeps them sorted by name: SparseCross's sparse_types before dense_types)."""
    carried = [a.get("type_attr") or a.get("type_list_attr") for a in spec["args"] if "input" in a]
    order = [at for at in dict.fromkeys(carried) if at in spec["inferred"]]
    for at, info in [(at, spec["inferred"][at]) for at in order + [x for x in spec["inferred"] if x not in order]]:
        if info.get("type") == "type" and info.get("allowed") and at in vals:
            _allowed_type(name, spec, at, vals[at], info["allowed"])
        elif info.get("type") == "list(type)" and info.get("allowed") and isinstance(vals.get(at), (list, tuple)):
            for dt in vals[at]:
                _allowed_type(name, spec, at, dt, info["allowed"])


@lru_cache(maxsize=1)
def _kernels() -> dict[str, list[dict[str, list[str]]]]:
    with open(Path(__file__).with_name("raw_kernels.json"), encoding="utf-8") as f:
        return json.load(f)["kernels"]


def _value_name(v: Any) -> Any:
    if isinstance(v, dtypes.DType):
        return v.name
    if isinstance(v, (list, tuple)):
        return [_value_name(x) for x in v]
    return v


def _satisfies(kernel: dict[str, list[str]], vals: dict[str, Any]) -> bool:
    for attr, allowed in kernel.items():
        v = _value_name(vals.get(attr))
        if v is None or not allowed:   # (an int or bool constraint the record could not read: ApproxTopK's)
            continue
        if not all(x in allowed for x in (v if isinstance(v, list) else [v])):
            return False
    return True


def kernel_constrains(name: str, attr: str) -> bool:
    """Whether every CPU kernel recorded for `name` constrains `attr` (a NodeDef without it then
    fails the kernel lookup's KernelAttrsMatch: "OpKernel 'DynamicStitch' has constraint on attr
    'T' not in NodeDef '[N=0]'"; ShapeN's CPU kernel constrains only out_type)."""
    ks = _kernels().get(name)
    return bool(ks) and all(attr in k for k in ks)


def check_kernel(name: str, vals: dict[str, Any], pinned: bool = False) -> None:
    """Raise TF's error when no CPU kernel of `name` takes the call's attrs (the module's
    docstring); an op the record does not hold passes. `pinned`: the op takes a resource handle, which
    places it on the handle's device, so eagerly too the kernel lookup's InvalidArgumentError "No OpKernel
    was registered ..." is raised, not placement's NotFoundError (AssignAddVariableOp of a bool value;
    observed on TF 2.21, clause ops.resource-handles)."""
    ks = _kernels().get(name)
    if ks is None or any(_satisfies(k, vals) for k in ks):
        return
    if name == "AccumulateNV2" and context.in_function():   # (a graph pass rewrites it: raw_legacy `_accumulate_n`)
        return
    shown = ", ".join(f"{k}={_value_name(v)}" for k, v in sorted(vals.items()) if not isinstance(v, (list, tuple)))
    if context.in_function() or pinned:
        raise errors.InvalidArgumentError(None, None, f"No OpKernel was registered to support Op '{name}' used by "
                                                      f"{{{{node {name}}}}} with these attrs: [{shown}]")
    raise errors.NotFoundError(None, None, f"Could not find device for node: {{{{node {name}}}}} = {name}[{shown}]\n"
                                           f"All kernels registered for op {name}: ... [Op:{name}]")


# TF 2.21's CPU kernels that refuse a channels-first data_format when they are built (before any
# shape check of the kernel), with their class and text (observed eagerly and in a tf.function).
_POOL = "Default {}Op only supports NHWC on device type CPU"
CPU_LAYOUT: dict[str, tuple[type, str]] = {
    "AvgPool": (errors.InvalidArgumentError, _POOL.format("AvgPooling")),
    "MaxPool": (errors.InvalidArgumentError, _POOL.format("MaxPooling")),
    "AvgPoolGrad": (errors.InvalidArgumentError, _POOL.format("AvgPoolingGrad")),
    "MaxPoolGrad": (errors.InvalidArgumentError, _POOL.format("MaxPoolingGrad")),
    "MaxPoolGradGrad": (errors.InvalidArgumentError, _POOL.format("MaxPoolingGradGrad")),
    "MaxPoolV2": (errors.InvalidArgumentError, "MaxPoolingV2Op only supports NHWC or NCHW_VECT_C. Got: NCHW"),
    "MaxPoolGradV2": (errors.InvalidArgumentError, _POOL.format("MaxPoolingGrad")),
    "MaxPoolGradGradV2": (errors.InvalidArgumentError, _POOL.format("MaxPoolingGradGrad")),
    "AvgPool3D": (errors.InvalidArgumentError, "Default Pooling3DOp only supports NDHWC on device type CPU"),
    "MaxPool3D": (errors.InvalidArgumentError, "Default Pooling3DOp only supports NDHWC on device type CPU"),
    "AvgPool3DGrad": (errors.InvalidArgumentError, "Default AvgPooling3dGradOp only supports NDHWC on device type CPU"),
    "MaxPool3DGrad": (errors.InvalidArgumentError, "Default MaxPooling3dGradOp only supports NDHWC on device type CPU"),
    "MaxPool3DGradGrad": (errors.InvalidArgumentError,
                          "Default MaxPooling3dGradGradOp only supportsNDHWC on CPU device type"),
    "Conv2D": (errors.UnimplementedError, "The Conv2D op currently only supports the NHWC tensor format on the CPU. "
                                          "The op was given the format: NCHW"),
    "Conv2DBackpropInput": (errors.InvalidArgumentError, "Conv2DCustomBackpropInputOp only supports NHWC."),
    "Conv2DBackpropFilter": (errors.InvalidArgumentError, "Conv2DCustomBackpropFilterOp only supports NHWC."),
    "Conv3D": (errors.InvalidArgumentError, "CPU implementation of Conv3D currently only supports the NHWC tensor "
                                            "format."),
    "Conv3DBackpropInputV2": (errors.InvalidArgumentError, "Conv3DBackpropInputOpV2 only supports NDHWC on the CPU."),
    "Conv3DBackpropFilterV2": (errors.InvalidArgumentError, "Conv3DBackpropFilterOpV2 only supports NDHWC on the CPU."),
    **{op: (errors.UnimplementedError, "Depthwise convolution on CPU is only supported for NHWC format")
       for op in ("DepthwiseConv2dNative", "DepthwiseConv2dNativeBackpropInput",
                  "DepthwiseConv2dNativeBackpropFilter")},
}


# Ops whose kernel requires its inputs of type T to have one shape (TF's BinaryElementWiseOp and AddN:
# "Inputs to operation X of type X must have the same size and shape"), where simdist's NumPy kernel
# would broadcast; their shape function merges the shapes (a trace-time ValueError for known ones).
SAME_SHAPE = frozenset({"AddN", "ReluGrad", "Relu6Grad", "EluGrad", "SeluGrad", "SoftsignGrad", "LeakyReluGrad",
                        "SoftplusGrad"})   # (SoftplusGrad: MergeBothInputsShapeFn too; fz31a, sig seed 3120261207 #132)
# Ops whose kernel requires its two inputs to hold as many elements (the cwise gradient ops: "The two
# arguments to a cwise op must have same number of elements"); their shape function takes the first
# input's shape, so a graph finds it only when it runs.
SAME_SIZE = frozenset({"SigmoidGrad", "TanhGrad"})




def check_shapes(name: str, spec: dict[str, Any], inputs: dict[str, Any]) -> None:
    """Raise the kernel's error (marked with the shape function's trace-time ValueError where it
    finds it) for inputs of a SAME_SHAPE or SAME_SIZE op that TF refuses and simdist's kernel
    would broadcast."""
    if name not in SAME_SHAPE and name not in SAME_SIZE:
        return
    ts: list[Any] = []
    for a in spec["args"]:
        if "input" in a and a.get("type_attr") == "T":
            v = inputs[a["input"]]
            ts.extend(v if isinstance(v, list) else [v])
    from simdist.runtime.ops import static_shapes
    for i, t in enumerate(ts[1:], 1):
        a, b = tuple(ts[0].shape), tuple(t.shape)
        if name in SAME_SIZE:
            na, nb = int(np.prod(a, dtype=np.int64)), int(np.prod(b, dtype=np.int64))
            if na != nb:
                raise errors.InvalidArgumentError(None, None, "The two arguments to a cwise op must have same number "
                                                              f"of elements, got {na} and {nb} [Op:{name}]")
            continue
        if a != b:
            err = errors.InvalidArgumentError(None, None, f"Inputs to operation {name} of type {name} must have the "
                                                          f"same size and shape.  Input 0: {_dims(a)} != input {i}: "
                                                          f"{_dims(b)} [Op:{name}]")
            known = [static_shapes.known_shape(x) for x in ts]
            text = trace_errors.merge_refusal(known[0], known[i])
            raise trace_errors.mark_shape(err, text, name, known) if text is not None else err


def check_padding(name: str, vals: dict[str, Any]) -> None:
    """The 2-D convolution kernels' CheckValidPadding (their constructors, before a channels-first
    refusal; their shape functions in a graph): a raw call's explicit_paddings against its padding
    and data_format (conv.check_valid_padding; rawfz21, seed 20202612010 #36, 2020261202 #146)."""
    if "explicit_paddings" not in vals or "padding" not in vals or \
            not name.startswith(("Conv2D", "DepthwiseConv2dNative")):
        return
    first = vals.get("data_format") == "NCHW"
    st = list(vals.get("strides") or ())
    _init_conv2d_parameters(name, vals, first)
    if name == "DepthwiseConv2dNative" and _depthwise_constructor(vals, first):
        return
    if len(st) == 4:   # (the constructors' stride checks come first: those errors stay the op's)
        n, c, h, w = (st[0], st[1], st[2], st[3]) if first else (st[0], st[3], st[1], st[2])
        if name.startswith("Depthwise"):   # (depthwise_conv_op.cc's constructor, before the NHWC refusal;
            # a graph's shape function checks the padding at trace first, the kernel the strides when it runs;
            # oneDNN's backprops (float32, bfloat16) take unequal ones: fz27a)
            t = vals.get("T")
            from simdist.runtime import host_cpu
            from simdist.runtime.ops import raw_layout
            onednn = isinstance(t, dtypes.DType) and host_cpu.current().onednn_supports(t.name)
            onednn_bp = name != "DepthwiseConv2dNative" and onednn and not raw_layout.declined(name, vals)
            batch_depth = "Current implementation does not yet support strides in the batch and depth dimensions."
            text = ("Current implementation only supports equal length strides in the row and column dimensions."
                    if h != w and not onednn_bp else batch_depth if n != 1 or c != 1 else None)
            cls = errors.InvalidArgumentError
            if name == "DepthwiseConv2dNative" and onednn and (n != 1 or c != 1):
                # (oneDNN's forward, MklConvOp's constructor: the batch and channel strides first, as
                # UnimplementedError; it has no equal row/column check: NCHW computes, NHWC aborts
                # "could not create a primitive", not modelled; fz28a, fresh seed 2820261205 #62)
                text, cls = batch_depth, errors.UnimplementedError
            if text is not None:
                if context.in_function() and name == "DepthwiseConv2dNative":
                    from simdist.runtime.ops import conv
                    conv.check_valid_padding(vals["padding"], list(vals["explicit_paddings"] or ()), 4, name,
                                             channels_first=first)
                raise cls(None, None, f"{text} [Op:{name}]")
        if n != 1 or c != 1:
            return
    _check_valid_padding(name, vals, first)
    own_depthwise_dilations(name, vals)


def _check_valid_padding(name: str, vals: dict[str, Any], first: bool) -> None:
    """conv.check_valid_padding, which oneDNN's eager forward convolutions never run (onednn_padding.py; fz35a)."""
    from simdist.runtime.ops import conv, onednn_padding
    if not onednn_padding.unchecked(name, vals):
        conv.check_valid_padding(vals["padding"], list(vals["explicit_paddings"] or ()), 4, name, channels_first=first)


def _depthwise_constructor(vals: dict[str, Any], first: bool) -> bool:
    """DepthwiseConv2dNative's list checks, observed on TF 2.21 (fz32a; simdist computed all of these). oneDNN's
    MklConvOp (float32, bfloat16): strides of 4 or 5, dilations of as many ("Sliding window dilations field must
    specify 4 dimensions", "Dilation rates field must specify 5 dimensions"), the batch and channel strides
    (UnimplementedError) then dilations of 1, then at Compute the row and column dilations positive ("Dilated
    rates should be larger than 0.") and strides ("Stride must be > 0, but got 0"); unequal row and column
    strides compute (NHWC [1, 1, 2, 1] and NCHW alike). TF's own kernel (float64, half):
    strides of 4, the stride rules below (check_padding), then any dilation other than 1 is UnimplementedError
    "Current kernel implementation does not support dilations, received [2 1 1 1]", before its NHWC refusal.
    True where the forward's remaining checks are settled here (oneDNN's: no equal-strides check)."""
    from simdist.runtime import host_cpu
    t = vals.get("T")
    st, dl = list(vals.get("strides") or ()), list(vals.get("dilations") or ())
    op = "DepthwiseConv2dNative"
    if not (isinstance(t, dtypes.DType) and host_cpu.current().onednn_supports(t.name)):
        if len(st) != 4:
            raise errors.InvalidArgumentError(None, None, f"Sliding window strides field must specify 4 dimensions "
                                                          f"[Op:{op}]")
        return False
    if len(st) not in (4, 5):
        raise errors.InvalidArgumentError(None, None, f"Sliding window strides field must specify 4 or 5 dimensions "
                                                      f"[Op:{op}]")
    if len(dl) != len(st):
        text = ("Sliding window dilations field must specify 4 dimensions" if len(st) == 4 else
                "Dilation rates field must specify 5 dimensions")
        raise errors.InvalidArgumentError(None, None, f"{text} [Op:{op}]")
    if len(st) != 4:
        return False
    at = (0, 1, 2, 3) if first else (0, 3, 1, 2)   # (N, C, H, W)
    n, c, h, w = (st[i] for i in at)
    if n != 1 or c != 1:
        return False   # (the batch and channel strides' UnimplementedError: check_padding)
    dn, dc, dh, dw = (dl[i] for i in at)
    if dn != 1 or dc != 1:
        raise errors.InvalidArgumentError(None, None, "Current implementation does not yet support dilations in the "
                                                      f"batch and depth dimensions. [Op:{op}]")
    _check_valid_padding(op, vals, first)
    if dh < 1 or dw < 1:
        raise errors.InvalidArgumentError(None, None, f"Dilated rates should be larger than 0. [Op:{op}]")
    for v in (h, w):
        if v <= 0:
            raise errors.InvalidArgumentError(None, None, f"Stride must be > 0, but got {v} [Op:{op}]")
    return True


def own_depthwise_dilations(name: str, vals: dict[str, Any]) -> None:
    """TF's own DepthwiseConv2dNative kernel (not oneDNN's dtypes) computes no dilation: any other than 1 is
    its UnimplementedError, before its NHWC refusal (observed on TF 2.21; fz32a)."""
    from simdist.runtime import host_cpu
    t = vals.get("T")
    if name != "DepthwiseConv2dNative" or (isinstance(t, dtypes.DType) and host_cpu.current().onednn_supports(t.name)):
        return
    dl = list(vals.get("dilations") or ())
    if any(d != 1 for d in dl):
        raise errors.UnimplementedError(None, None, "Current kernel implementation does not support dilations, received "
                                                    f"[{' '.join(str(d) for d in dl)}] [Op:{name}]")


def onednn_empty_result(name: str, inputs: dict[str, Any], vals: dict[str, Any]) -> Any:
    """oneDNN's DepthwiseConv2dNativeBackpropFilter (float32, bfloat16 here) returns a zero-size
    filter gradient of filter_sizes' shape before any check but its constructor's batch and channel
    strides (InvalidArgumentError): filter_sizes [2, 0, 0] with NCHW and strides [1, 1, 3, 1] is an
    empty [2, 0, 0] tensor (observed on TF 2.21, float64 and float16 raise; fuzz20 seed 2520261204 #49).
    None where the op computes as usual."""
    from simdist.runtime import host_cpu
    if name != "DepthwiseConv2dNativeBackpropFilter":
        return None
    t = vals.get("T")
    if not (isinstance(t, dtypes.DType) and host_cpu.current().onednn_supports(t.name)):
        return None
    sizes = np.asarray(inputs["filter_sizes"]).reshape(-1)
    if sizes.size == 0 or np.all(sizes != 0) or np.any(sizes < 0):
        return None
    st = list(vals.get("strides") or ())
    first = vals.get("data_format") == "NCHW"
    if len(st) == 4 and (st[0] != 1 or (st[1] if first else st[3]) != 1):
        raise errors.InvalidArgumentError(None, None, "Current implementation does not yet support strides in the "
                                                      f"batch and depth dimensions. [Op:{name}]")
    from simdist.runtime.ops import array
    return array.zeros([int(v) for v in sizes], t)


def _init_conv2d_parameters(name: str, vals: dict[str, Any], first: bool) -> None:
    """The 2-D convolution kernels' constructor checks of strides and dilations, which come before
    CheckValidPadding and a channels-first refusal (observed on TF 2.21; fuzz20 seeds 2620261204 #11,
    #150). TF's own kernels: Conv2D's and Conv2DCustomBackpropInputOp's InitConv2DParameters (conv_ops.cc)
    checks the strides' batch and channel (at the layout's places, UnimplementedError), the row and
    column strides positive, then the dilations' batch and channel (UnimplementedError);
    Conv2DCustomBackpropFilterOp the same with InvalidArgumentError throughout; both backprops refuse
    NCHW first. oneDNN's kernels (float32, bfloat16 here; a backprop with EXPLICIT padding stays TF's
    own, raw_layout.declined): the strides' batch and channel (UnimplementedError for Conv2D, the
    backprops' MklConvBackpropCommonOp InvalidArgumentError), then the
    dilations' (InvalidArgumentError), before the positive strides and the layout. (oneDNN's Conv2D
    also takes an empty explicit_paddings with EXPLICIT padding; not modelled.) The backprops check the
    dilations' length (4) after the strides' batch and channel (TF's own: after the positive strides too)."""
    from simdist.runtime import host_cpu
    from simdist.runtime.ops import raw_layout
    if name not in ("Conv2D", "Conv2DBackpropInput", "Conv2DBackpropFilter"):
        return
    t = vals.get("T")
    onednn = (isinstance(t, dtypes.DType) and host_cpu.current().onednn_supports(t.name)
              and not raw_layout.declined(name, vals))
    if name != "Conv2D" and first and not onednn:
        return   # (Conv2DCustomBackprop*Op refuses NCHW before it reads its parameters)
    st, dl = list(vals.get("strides") or ()), list(vals.get("dilations") or ())
    if name == "Conv2D":   # (the lists' lengths first, before a channels-first refusal: oneDNN's MklConvOp its
        # strides of 4 or 5, TF's InitConv2DParameters its dilations, then its strides, of 4; fz31a, eager seed
        # 3120261204 #186: strides of 3 with NCHW, simdist's layout refusal)
        text = None
        if onednn and len(st) not in (4, 5):
            text = "Sliding window strides field must specify 4 or 5 dimensions"
        elif onednn and len(st) == 5:
            text = "Dilation rates field must specify 5 dimensions" if len(dl) != 5 else None
        elif len(dl) != 4:
            text = "Sliding window dilations field must specify 4 dimensions"
        elif len(st) != 4:
            text = "Sliding window strides field must specify 4 dimensions"
        if text is not None:
            raise errors.InvalidArgumentError(None, None, f"{text} [Op:{name}]")
    if len(st) != 4:
        return

    def nchw(v: list[int]) -> tuple[int, int, int, int]:
        return (v[0], v[1], v[2], v[3]) if first else (v[0], v[3], v[1], v[2])
    sn, sc, sh, sw = nchw(st)
    filt = name == "Conv2DBackpropFilter" and not onednn
    # (oneDNN's backprops, MklConvBackpropCommonOp's constructor, refuse them as InvalidArgumentError, its Conv2D
    # as UnimplementedError; observed on an AVX512-FP16 Xeon, thirty-fifth session)
    unimpl = errors.InvalidArgumentError if filt or (onednn and name != "Conv2D") else errors.UnimplementedError
    if sn != 1 or sc != 1:
        raise unimpl(None, None, f"Current implementation does not yet support strides in the batch and depth "
                                 f"dimensions. [Op:{name}]")
    if len(dl) != 4:
        # (the backprops read their dilations after the strides: TF's own kernels after the positive strides too,
        # oneDNN's before its dilations' batch and channel; observed on TF 2.21, fz37a, eager seed 3720261204 #10)
        if not onednn and (sh <= 0 or sw <= 0):
            raise errors.InvalidArgumentError(None, None, "Row and column strides should be larger than 0. "
                                                          f"[Op:{name}]")
        raise errors.InvalidArgumentError(None, None, f"Sliding window dilations field must specify 4 dimensions "
                                                      f"[Op:{name}]")
    dn, dc, _, _ = nchw(dl)
    dilation = (errors.InvalidArgumentError if onednn or filt else errors.UnimplementedError)(
        None, None, f"Current implementation does not yet support dilations in the batch and depth dimensions. "
                    f"[Op:{name}]")
    if onednn and (dn != 1 or dc != 1):
        raise dilation
    if onednn:
        return
    if sh <= 0 or sw <= 0:
        raise errors.InvalidArgumentError(None, None, f"Row and column strides should be larger than 0. [Op:{name}]")
    if dn != 1 or dc != 1:
        raise dilation


def _onednn_nchw_depths(name: str, x: Any, f: Any) -> None:
    """oneDNN's NCHW depthwise backprops check the input's depth (x's second of 4) a multiple of the filter's
    (f's third of 4) before simdist's refusal of the layout ("input depth must be evenly divisible by filter
    depth: 4 vs 3"; fz32a, eager seed 3220261204 #41, observed on TF 2.21)."""
    if len(x) == 4 and len(f) == 4 and int(f[2]) > 0 and int(x[1]) % int(f[2]) != 0:
        raise errors.InvalidArgumentError(None, None, "input depth must be evenly divisible by filter depth: "
                                                      f"{int(x[1])} vs {int(f[2])} [Op:{name}]")


def before_layout(name: str, inputs: dict[str, Any], data_format: str, dtype: Any = None) -> None:
    """The checks TF's depthwise kernels make in Compute before their CPU refusal of a channels-first
    layout (depthwise_conv_op.cc, depthwise_conv_grad_op.cc's EXTRACT_AND_VERIFY_DIMENSIONS; TF 2.21's
    texts; fuzz20 tape seed 2420261203 #161): the sizes input a vector of non-negative values, the
    ranks, DepthwiseConv2dNative's depths. (An empty output, which TF returns before the refusal,
    stays the refusal here; where TF runs oneDNN's kernel for the dtype, layout_error's stands.)"""
    from simdist.runtime import host_cpu
    if name == "MaxPool3DGradGrad":
        _max_pool3d_grad_grad_checks(inputs, data_format)
        return
    if name in ("Conv3DBackpropInputV2", "Conv3DBackpropFilterV2") and data_format == "NCDHW" and \
            isinstance(dtype, dtypes.DType) and host_cpu.current().onednn_supports(dtype.name):
        st = list(inputs.get("strides") or ())   # (oneDNN's constructor, MklConvBackpropCommonOp: the strides'
        if len(st) == 5 and (st[0] != 1 or st[1] != 1):   # batch and channel; fuzz20 seed 2720261201 #33)
            raise errors.InvalidArgumentError(None, None, "Current implementation does not yet support strides in "
                                                          f"the batch and depth dimensions. [Op:{name}]")
        return
    from simdist.runtime.ops import raw_layout
    onednn = (isinstance(dtype, dtypes.DType) and host_cpu.current().onednn_supports(dtype.name)
              and not raw_layout.declined(name, inputs))   # (EXPLICIT padding: TF's own backprops; fz39a)
    if name == "DepthwiseConv2dNativeBackpropInput" and onednn and data_format == "NCHW":
        # (oneDNN's MklConvCustomBackpropInputOp first checks out_backprop's rank, 4 or 5, in a text that
        # names input_sizes: observed, fuzz20 tape seed 2920261202 #116; with a 4-D out_backprop, sizes
        # or a filter of other ranks abort TF's process, not modelled)
        n = len(inputs["out_backprop"].shape)
        if n not in (4, 5):
            raise errors.InvalidArgumentError(None, None, f"input_sizes must be 4 or 5-dimensional, got: {n} "
                                                          f"[Op:{name}]")
        _onednn_nchw_depths(name, np.asarray(inputs["input_sizes"]).reshape(-1), list(inputs["filter"].shape))
        return
    if name == "DepthwiseConv2dNativeBackpropFilter" and onednn and data_format == "NCHW":
        _onednn_nchw_depths(name, np.asarray(inputs["input"].shape), np.asarray(inputs["filter_sizes"]).reshape(-1))
        return
    if not name.startswith("DepthwiseConv2dNative") or onednn:
        return

    def bad(text: str) -> errors.InvalidArgumentError:
        return errors.InvalidArgumentError(None, None, f"{text} [Op:{name}]")

    def shape(n: str) -> list:
        return list(inputs[n].shape)
    if name == "DepthwiseConv2dNative":
        x, f = shape("input"), shape("filter")
        if len(x) != 4:
            raise bad(f"input must be 4-dimensional{_dims(x)}")
        if len(f) != 4:
            raise bad(f"filter must be 4-dimensional: {_dims(f)}")
        depth = x[1] if data_format == "NCHW" else x[3]
        if depth != f[2]:
            raise bad(f"input and filter must have the same depth: {depth} vs {f[2]}")
        return
    grad_input = name.endswith("Input")
    sizes_name = "input_sizes" if grad_input else "filter_sizes"
    sizes = np.asarray(inputs[sizes_name])
    label = "Conv2DBackpropInput" if grad_input else "Conv2DBackpropFilter"
    if sizes.ndim != 1:
        raise bad(f"{label}: {sizes_name} input must be 1-dim, not {sizes.ndim}")
    for i, v in enumerate(sizes.tolist()):
        if grad_input and v < 0:
            raise bad(f"Dimension {i} of input_sizes must be >= 0")
    x = list(sizes.tolist()) if grad_input else shape("input")
    f = shape("filter") if grad_input else list(sizes.tolist())
    what = "DepthwiseConv2DBackpropInput" if grad_input else "DepthwiseConv2DBackpropFilter"
    for dims, arg in ((x, "input"), (f, "filter"), (shape("out_backprop"), "out_backprop")):
        if len(dims) != 4:
            raise bad(f"{what}: {arg} must be 4-dimensional")


def _max_pool3d_grad_grad_checks(inputs: dict[str, Any], data_format: str) -> None:
    """MaxPooling3dGradGradOp's checks before its refusal of NCDHW on the CPU (observed on TF 2.21
    for float32 and bfloat16, which no oneDNN kernel takes; fuzz20 seed 2620261201 #74): its
    constructor's batch and channel (at the layout's place) refusals, then Compute's three ranks."""
    ksize, strides = inputs.get("ksize"), inputs.get("strides")
    if ksize is None or strides is None:
        return
    c = 1 if data_format == "NCDHW" else 4
    if ksize[0] != 1 or strides[0] != 1:
        raise errors.UnimplementedError(None, None, "Pooling is not yet supported on the batch dimension. "
                                                    "[Op:MaxPool3DGradGrad]")
    if ksize[c] != 1 or strides[c] != 1:
        raise errors.UnimplementedError(None, None, "MaxPooling3dGradGrad is not yet supported on the depth "
                                                    "dimension. [Op:MaxPool3DGradGrad]")
    for n, what in (("orig_input", "tensor_in"), ("orig_output", "tensor_out"), ("grad", "out_grad_backprop")):
        if len(inputs[n].shape) != 5:
            raise errors.InvalidArgumentError(None, None, f"{what} must be 5-dimensional [Op:MaxPool3DGradGrad]")


def layout_error(name: str, given: str, default: str, dtype: Any = None) -> errors.OpError:
    """The error of raw op `name` called with data_format `given` other than its default (simdist
    computes the default layout only): TF's own CPU kernel's refusal where it has one (CPU_LAYOUT),
    else simdist's UnimplementedError. Where TF would run oneDNN's kernel for the dtype (the modelled
    CPU's onednn_supports: float32 on the reference Xeon), which may take the layout, simdist's
    UnimplementedError stands: CPU_LAYOUT was observed with TF's own kernels only."""
    from simdist.runtime import host_cpu
    cls, text = CPU_LAYOUT.get(name, (None, None))
    # (oneDNN's kernels take NCHW/NCDHW only: NCHW_VECT_C reaches TF's own kernel, whose refusal it is;
    # fuzz20 tape seed 2520261202 #113)
    from simdist.runtime.ops import raw_layout
    onednn = (isinstance(dtype, dtypes.DType) and host_cpu.current().onednn(dtype.name, raw_layout.registered(name))
              and given in ("NCHW", "NCDHW"))
    if cls is None or onednn:
        return errors.UnimplementedError(None, None, f"simdist computes {name} in the {default} layout only, not "
                                                     f"data_format={given!r} [Op:{name}]")
    return cls(None, None, f"{text} [Op:{name}]")


def kernel_error(name: str, e: BaseException, inputs: dict[str, Any]) -> BaseException | None:
    """The error TF's kernel raises where simdist's raised `e` on `inputs` (the module's
    docstring), or None when `e` stands (a TF error already, or a trace-time ValueError inside a
    tf.function)."""
    if isinstance(e, errors.OpError) or not isinstance(e, _KERNEL_ERRORS) or getattr(e, trace_errors.MARK, None):
        return None
    if isinstance(e, UnicodeDecodeError):   # (a kernel message quoting bytes that are not UTF-8: TF's Python
        return None                         # fails to decode its status, UnicodeDecodeError; fz46, DecodeWav)
    if context.in_function() and _shape_error(e) and _all_known(inputs) and not _has_shape_fn(name):
        return None if isinstance(e, ValueError) else ValueError(str(e))
    return errors.InvalidArgumentError(None, None, f"{e} [Op:{name}]")


def _has_shape_fn(name: str) -> bool:
    """Whether the op carries its transcribed shape function (infer_ctx), which ran when the graph
    added it: what it did not refuse, the kernel refuses when the graph runs."""
    from simdist.runtime.ops import infer_ctx
    return infer_ctx.has(name)


def _all_known(inputs: dict[str, Any]) -> bool:
    """Whether the traced graph knows every dimension of every input (a shape function can only
    find a mismatch among known dimensions: with an unknown one the kernel finds it at run time)."""
    from simdist.runtime.ops import static_shapes
    for v in inputs.values():
        for t in v if isinstance(v, list) else [v]:
            shape = static_shapes.known_shape(t)
            if shape is None or None in shape:
                return False
    return True


def _shape_error(e: BaseException) -> bool:
    """Whether NumPy's error is about the inputs' shapes (what a shape function checks): a
    ValueError (broadcasting, reshape, matmul dimensions), or indexing with more indices than
    the array's rank."""
    return isinstance(e, (ValueError, TypeError)) or \
        (isinstance(e, IndexError) and str(e).startswith("too many indices"))
