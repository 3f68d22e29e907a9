"""`tf.conv2d_backprop_filter_v2` and `tf.conv2d_backprop_input_v2` (TF 2.21's Conv2DBackpropFilterV2
and Conv2DBackpropInputV2 ops, which take the filter / input tensor itself where the V1 ops take its
shape): TF 2.21 registers no kernel for either on any device. Eagerly every call with valid attrs
and an allowed dtype is NotFoundError ("Could not find device for node ... <no registered
kernels>"), before the inputs' dtypes are compared; in a tf.function operands of different dtypes
are op_def_library's TypeError while the graph is built, and the run is InvalidArgumentError ("No
OpKernel was registered to support Op ..."). A dtype outside the op's list (FilterV2: half,
bfloat16, float, double; InputV2: those and int32) is the attr error (TypeError while tracing),
checked before padding and data_format (outside their lists: InvalidArgumentError, op_def_library's
ValueError while tracing); strides and dilations not lists are TypeError. Neither op has a
gradient registered (LookupError). FLOPs: 0 (nothing is computed). Clause ops.conv-generic.
"""

from __future__ import annotations

from typing import Any

from simdist.runtime import dtypes, errors
from simdist.runtime.ops import attr_rules, dispatch, trace_errors
from simdist.runtime.ops.args import matching, no_kernel, zero_flops
from simdist.runtime.ops.counting import no_tf_gradient
from simdist.runtime.ops.nn_rules import CONV, FLOATS
from simdist.runtime.ops.registry import lanes, register
from simdist.runtime.tensor import Tensor

__all__ = ["conv2d_backprop_filter_v2", "conv2d_backprop_input_v2"]

_NAMES = {"half": "float16", "float": "float32", "double": "float64"}
_ARGS = ("input", "filter", "out_backprop")


def _attr_text(attrs: dict) -> str:
    """The node's attrs after T, as TF's NotFoundError lists them (alphabetical)."""
    def ints(v: Any) -> str:
        return "[" + ", ".join(str(i) for i in v) + "]"
    return (f", data_format=\"{attrs['data_format']}\", dilations={ints(attrs['dilations'])}, "
            f"explicit_paddings={ints(attrs['explicit_paddings'])}, padding=\"{attrs['padding']}\", "
            f"strides={ints(attrs['strides'])}, use_cudnn_on_gpu={'true' if attrs['use_cudnn_on_gpu'] else 'false'}")


def _rule(name: str, allowed: str) -> Any:
    ok = {_NAMES.get(n.strip(), n.strip()) for n in allowed.split(",")}

    def rule(dts: Any, attrs: Any) -> dtypes.DType:
        d0 = dts[0]
        if d0.name not in ok:
            raise trace_errors.attr_not_allowed(name, "T", d0, allowed)
        for attr, options in (("padding", '"SAME", "VALID", "EXPLICIT"'), ("data_format", '"NHWC", "NCHW"')):
            value = attrs[attr]
            if value not in options.replace('"', "").split(", "):
                raise trace_errors.bad_attr(errors.InvalidArgumentError(
                    None, None, f"Value for attr '{attr}' of \"{value}\" is not in the list of allowed values: "
                                f"{options} [Op:{name}]"), name, attr, value, options)
        err = no_kernel(name, d0, _attr_text(attrs))
        for i in (1, 2):
            if dts[i] != d0:
                raise trace_errors.static(err, TypeError, f"Input '{_ARGS[i]}' of '{name}' Op has type "
                                                          f"{dts[i].name} that does not match type {d0.name} of "
                                                          f"argument '{_ARGS[0]}'.")
        raise err
    return rule


def _never(*arrays: Any, **attrs: Any) -> Any:
    raise AssertionError("simdist: a kernel-less op's dtype rule raises before its forward")


_LANES = lanes("no kernel: the op always raises")
FILTER_V2 = register("Conv2DBackpropFilterV2", _never, _rule("Conv2DBackpropFilterV2", FLOATS), zero_flops,
                     kind="contraction", fusion=_LANES)
INPUT_V2 = register("Conv2DBackpropInputV2", _never, _rule("Conv2DBackpropInputV2", CONV), zero_flops,
                    kind="contraction", fusion=_LANES)
no_tf_gradient("Conv2DBackpropFilterV2")
no_tf_gradient("Conv2DBackpropInputV2")


def _attrs(op: str, strides: Any, padding: Any, use_cudnn_on_gpu: Any, explicit_paddings: Any, data_format: Any,
           dilations: Any, inputs: tuple = ()) -> dict:
    # (the generated wrapper's checks in its order: strides, padding, use_cudnn_on_gpu's make_bool
    # (1 is TypeError "Expected bool for argument 'use_cudnn_on_gpu' not 1."; fz23b, fz14 seed
    # 1420262302 #127), explicit_paddings, data_format, dilations)
    # (None stands for an attr's default in the wrapper)
    use_cudnn_on_gpu = True if use_cudnn_on_gpu is None else use_cudnn_on_gpu
    explicit_paddings = [] if explicit_paddings is None else explicit_paddings
    data_format = "NHWC" if data_format is None else data_format
    dilations = [1, 1, 1, 1] if dilations is None else dilations
    # (eagerly the fast path reads the list attrs first where it takes the call: a 0-d tensor for one is
    # SetOpAttrList's MemoryError, attr_rules.sized_list; fz66, fz62gen seed 66407 #1)
    attr_rules.fast_path_takes({"conv2d_backprop_input_v2": "Conv2DBackpropInputV2",
                                "conv2d_backprop_filter_v2": "Conv2DBackpropFilterV2"}[op], inputs,
                               strides=strides, use_cudnn_on_gpu=use_cudnn_on_gpu, padding=padding,
                               explicit_paddings=explicit_paddings, data_format=data_format, dilations=dilations)
    for arg, v in (("strides", strides), ("padding", padding), ("use_cudnn_on_gpu", use_cudnn_on_gpu),
                   ("explicit_paddings", explicit_paddings), ("data_format", data_format), ("dilations", dilations)):
        if arg == "padding" or arg == "data_format":
            attr_rules.make_str(v, arg)
        elif arg == "use_cudnn_on_gpu":
            attr_rules.make_bool(v, arg)
        elif not isinstance(v, (list, tuple)) and not attr_rules.sequence_attr_taken(v, inputs):   # (an empty
            # ndarray eagerly: the fast path's list, fz14 seed 1420261219 #268)
            raise TypeError(f"Expected list for '{arg}' argument to '{op}' Op, not {v!r}.")
    return {"strides": [int(v) for v in strides], "padding": padding, "use_cudnn_on_gpu": bool(use_cudnn_on_gpu),
            "explicit_paddings": [int(v) for v in explicit_paddings], "data_format": data_format,
            "dilations": [int(v) for v in dilations]}


def _call(opdef: Any, pyname: str, input: Any, filter: Any, out_backprop: Any, strides: Any,  # noqa: A002
          padding: Any, use_cudnn_on_gpu: Any, explicit_paddings: Any, data_format: Any, dilations: Any) -> Tensor:
    attrs = _attrs(pyname, strides, padding, use_cudnn_on_gpu, explicit_paddings, data_format, dilations,
                   (input, filter, out_backprop))
    # (input, filter and out_backprop share the attr T: a Python value beside a tensor is converted
    # to its dtype before T's list is checked, `out_backprop=[[0.5]]` beside uint64 tensors is
    # TypeError "Cannot convert ... to EagerTensor of dtype uint64"; fz14 seed 1420261217 #21)
    x, f, dy = matching((input, filter, out_backprop))
    from simdist.runtime import context
    if context.in_function() and x.dtype.name in ("float16", "bfloat16", "float32", "float64") and \
            x.dtype == f.dtype == dy.dtype:
        # (a graph: after op_def_library's T, the shape function (a rank-4 input or filter) at trace, before the
        # missing kernel is looked up when the graph runs; fz31b, fz14 seed 1420313007 #15)
        from simdist.runtime.ops import infer_ctx
        infer_ctx.check(opdef.name, {"input": x, "filter": f, "out_backprop": dy}, attrs)
    return dispatch.execute(opdef, (x, f, dy), attrs)


def conv2d_backprop_filter_v2(input: Any, filter: Any, out_backprop: Any, strides: Any, padding: Any,  # noqa: A002
                              use_cudnn_on_gpu: bool = True, explicit_paddings: Any = (), data_format: str = "NHWC",
                              dilations: Any = (1, 1, 1, 1), name: str | None = None) -> Tensor:
    """`tf.conv2d_backprop_filter_v2`: no kernel in TF 2.21 (NotFoundError; see the module)."""
    return _call(FILTER_V2, "conv2d_backprop_filter_v2", input, filter, out_backprop, strides, padding,
                 use_cudnn_on_gpu, explicit_paddings, data_format, dilations)


def conv2d_backprop_input_v2(input: Any, filter: Any, out_backprop: Any, strides: Any, padding: Any,  # noqa: A002
                             use_cudnn_on_gpu: bool = True, explicit_paddings: Any = (), data_format: str = "NHWC",
                             dilations: Any = (1, 1, 1, 1), name: str | None = None) -> Tensor:
    """`tf.conv2d_backprop_input_v2`: no kernel in TF 2.21 (NotFoundError; see the module)."""
    return _call(INPUT_V2, "conv2d_backprop_input_v2", input, filter, out_backprop, strides, padding,
                 use_cudnn_on_gpu, explicit_paddings, data_format, dilations)
