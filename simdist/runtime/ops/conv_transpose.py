"""tf.nn.conv2d_transpose and conv1d_transpose: TF 2.21's nn_ops.py runs the Conv2DBackpropInput
op with the input as its out_backprop and output_shape as its input_sizes (conv1d_transpose
through a unit height), so these are that op's declaration (runtime/ops/conv.py: its dtypes,
cost, stacking over replica lanes and gradient) called as TF calls it."""

from __future__ import annotations

from typing import Any

import numpy as np

from simdist.runtime import context, dtypes, errors, host_cpu
from simdist.runtime import symbolic as _symbolic
from simdist.runtime.ops import args, array, attr_rules, dispatch, graph_inputs, infer_ctx, static_shapes, trace_errors
from simdist.runtime.ops.args import shape_arg, t as _t
from simdist.runtime.ops.conv import (CONV2D_BACKPROP_INPUT, check_data_format, format_attr, normalize_padding,
                                      spatial_sequence)
from simdist.runtime.tensor import Tensor

__all__ = ["conv2d_transpose", "conv1d_transpose", "conv_transpose", "atrous_conv2d", "depthwise_conv2d_backprop_input",
           "depthwise_conv2d_backprop_filter"]


def conv2d_transpose(input: Any, filters: Any, output_shape: Any, strides: Any, padding: Any = "SAME",  # noqa: A002
                     data_format: str = "NHWC", dilations: Any = None, name: str | None = None) -> Tensor:
    """`tf.nn.conv2d_transpose` (NHWC): the gradient of conv2d with respect to its input, of
    shape output_shape; filters are [h, w, out_channels, in_channels]. NCHW: TF 2.21's oneDNN
    kernel (float32, bfloat16), the NHWC values between two transposes; the default kernel
    refuses it (InvalidArgumentError "Conv2DCustomBackpropInputOp only supports NHWC.")."""
    if data_format == "NCHW":
        from simdist.runtime.ops.conv import nchw_to_nhwc, to_channels_first, to_channels_last
        # (nn_ops.conv2d_transpose_v2 checks strides and dilations (_get_sequence: ValueError) before
        # the op runs; fz14 seed 1420261218 #130)
        st = list(nchw_to_nhwc(spatial_sequence(strides, 2, "strides", True)))
        dl = None if dilations is None else list(nchw_to_nhwc(spatial_sequence(dilations, 2, "dilations", True)))
        # (in a graph op_def_library checks input_sizes, filter and out_backprop before the attrs: an
        # int64 filter is its TypeError at trace; fz25b, seed 1420262501 #148)
        graph_inputs.check("Conv2DBackpropInput", (output_shape, filters, input))
        if context.in_function():
            x = _t(input)
        else:   # (eagerly the fast path's or the fallback's conversions come before the kernel's layout refusal: a
            # list output_shape sends the call to the fallback, whose conversion of an int8 Variable to the uint64
            # filter's T is ValueError; fz32b, fz14 seed 1420323001 #203)
            _, x = attr_rules.eager_group([filters, input], _fast_path(output_shape, filters, input, strides, padding,
                                                                       dilations))
            _eager_input_sizes(output_shape)
        # (oneDNN's layout pass leaves a Conv2DBackpropInput with padding EXPLICIT to TF's own kernel, which
        # refuses NCHW in its constructor; its oneDNN kernel takes float16 too on an AVX512-FP16 CPU; clause
        # ops.nn-nchw-explicit-backprop, fsweep61's f-transpose `explicit NCHW s1/s2`, observed)
        if not host_cpu.current().onednn(x.dtype.name, ("float32", "bfloat16", "float16")) or \
                isinstance(padding, (list, tuple)):
            raise errors.InvalidArgumentError(None, None, "Conv2DCustomBackpropInputOp only supports NHWC. "
                                              "[Op:Conv2DBackpropInput]")
        shape = output_shape._v.tolist() if isinstance(output_shape, Tensor) else list(output_shape)
        if isinstance(padding, (list, tuple)) and len(padding) == 4:
            padding = list(nchw_to_nhwc(padding))
        if len(shape) != 2:   # (2 values are the height and width in either layout: conv.backprop_input_shape)
            shape = list(nchw_to_nhwc(shape))
        return to_channels_first(conv2d_transpose(to_channels_last(x), filters, shape, st,
                                                  padding, "NHWC", dl))
    check_data_format(data_format or "NHWC", op="Conv2DBackpropInput")
    st, dl = spatial_sequence(strides, 2, "strides"), spatial_sequence(dilations, 2, "dilations")   # (TF's order)
    graph_inputs.check("Conv2DBackpropInput", (output_shape, filters, input))
    try:
        pad, explicit = normalize_padding(padding, "Conv2DBackpropInput")
    except errors.InvalidArgumentError:
        # (eagerly a padding string outside the attr's list is the NodeDef's check, after the fast path has
        # converted the inputs: `conv2d_transpose(int32 x, 1.0, ..., padding='same')` is the filter's TypeError;
        # fz37b, fz14 seed 1420373003 #117)
        if not context.in_function():
            attr_rules.eager_group([filters, input], _fast_path(output_shape, filters, input, strides, padding,
                                                                 dilations))
        raise
    format_attr("Conv2DBackpropInput", data_format or "NHWC")
    attrs = {"strides": st, "padding": pad, "explicit_paddings": explicit, "dilations": dl,
             "input_sizes": shape_arg(output_shape)}
    if context.in_function():   # (op_def_library: the filter fixes T and a Python out_backprop converts to it,
        # `[[True], [False]]` to float32 too; fz38b, fz14 seed 1420383001 #286)
        f, x = args.matching([filters, input], (), None, "Conv2DBackpropInput", ("filter", "out_backprop"))
    else:   # (filter and out_backprop share T: converted as the fast path or the fallback does; ops.attr-types)
        f, x = attr_rules.eager_group([filters, input], _fast_path(output_shape, filters, input, strides, padding,
                                                                   dilations))
        _eager_input_sizes(output_shape)
    _backprop_input_shape_fn(x, f, attrs["input_sizes"])
    try:
        return dispatch.execute(CONV2D_BACKPROP_INPUT, (f, x), attrs)
    except errors.InvalidArgumentError as e:
        # TF 2.21's x86 build runs float32 and bfloat16 through oneDNN (_MklNativeConv2DBackpropInput), which
        # fails an out_backprop of the wrong size with AbortedError; its Eigen kernels (float64, half) with this
        if "Size of out_backprop doesn't match" in str(e) and \
                host_cpu.current().onednn(x.dtype.name, ("float32", "bfloat16")):
            raise errors.AbortedError(None, None, "Operation received an exception:Status: 2, message: could not "
                                      "create a primitive descriptor for the convolution forward propagation "
                                      "primitive. [Op:Conv2DBackpropInput]") from None
        raise


_fast_ints = attr_rules.fast_ints


def _eager_input_sizes(output_shape: Any) -> None:
    """Eagerly a list output_shape takes the op's fallback, which converts input_sizes to int32 after filter and
    out_backprop: a Python float in it is that conversion's TypeError, before any kernel — as Keras's
    Conv2DTranspose with float strides or dilations, whose computed output shape holds floats (asweep65, fix65k;
    `tf.nn.conv2d_transpose(x, w, [2, 8.0, 8.0, 2], 1)`, TF 2.21 observed)."""
    if isinstance(output_shape, (list, tuple)) and any(isinstance(d, float) for d in output_shape):
        raise TypeError(f"Cannot convert {output_shape!r} to EagerTensor of dtype int32")


def _fast_path(output_shape: Any, filters: Any, input: Any, strides: Any, padding: Any,  # noqa: A002
               dilations: Any) -> bool:
    """Whether conv2d_transpose's Conv2DBackpropInput call stays on TF's eager fast path: its
    inputs (attr_rules.fast_path_takes: no list input_sizes), strides and dilations of Python ints,
    a padding string or explicit paddings of Python ints."""
    pad_ok = isinstance(padding, str) or (isinstance(padding, (list, tuple)) and _fast_ints(padding))
    return attr_rules.fast_path_takes("Conv2DBackpropInput", (output_shape, filters, input)) and \
        _fast_ints(strides) and _fast_ints(dilations) and pad_ok


def _backprop_input_shape_fn(x: Tensor, f: Tensor, input_sizes: Any) -> None:
    """Conv2DBackpropInput's shape function inside a tf.function (ValueError at trace, before the
    kernel): out_backprop of rank 4, then the filter of rank 4, then input_sizes of 4 or 2 values."""
    if not context.in_function():
        return
    op = "Conv2DBackpropInput"
    # (op_def_library's type checks come first: the filter, the first input of T, fixes it; fz14 seed
    # 1420262001 #87, an int8 filter through conv1d_transpose; rawfz21)
    allowed = ("float16", "bfloat16", "float32", "float64", "int32")
    if f.dtype.name not in allowed:
        raise TypeError(f"Value passed to parameter 'filter' has DataType {f.dtype.name} not in list of allowed "
                        f"values: {', '.join(allowed)}")
    if x.dtype != f.dtype:
        raise TypeError(f"Input 'out_backprop' of '{op}' Op has type {x.dtype.name} that does not match type "
                        f"{f.dtype.name} of argument 'filter'.")
    n = len(input_sizes)
    shapes = [[n], f.shape.as_list(), x.shape.as_list()]
    for t, what in ((x, "input"), (f, "filter")):
        if not static_shapes.rank_unknown(t) and t.ndim != 4:
            raise trace_errors.shape_error(f"{what} must be 4-dimensional{t.shape.as_list()} [Op:{op}]",
                                           f"Shape must be rank 4 but is rank {t.ndim}", op, shapes)
    if n not in (4, 2):
        raise trace_errors.shape_error(f"input_sizes must be 4-dimensional, got: {n} [Op:{op}]",
                                       f"Conv2DBackpropInput requires input_sizes to contain 4 values or 2 values, "
                                       f"but got: {n}", op, shapes)


def conv1d_transpose(input: Any, filters: Any, output_shape: Any, strides: Any, padding: Any = "SAME",  # noqa: A002
                     data_format: str = "NWC", dilations: Any = None, name: str | None = None) -> Tensor:
    """`tf.nn.conv1d_transpose` (NWC): conv2d_transpose over the input with a unit height inserted
    (NCW: at axis 2, through the NCHW conv2d_transpose, as TF)."""
    if data_format == "NCW":
        st = spatial_sequence(strides, 1, "stride", True)
        dl = spatial_sequence(dilations, 1, "dilations", True)
        x = array.expand_dims(_t(input), 2)
        f = array.expand_dims(_t(filters), 0)
        _conv1d_input_sizes(output_shape, 2, x.dtype)
        shp = list(shape_arg(output_shape))
        out = conv2d_transpose(x, f, shp[:2] + [1] + shp[2:], [1, *st], padding, "NCHW", [1, *dl])
        return array.squeeze(out, [2])
    if data_format not in (None, "NWC"):
        raise ValueError(f"`data_format` must be 'NWC' or 'NCW'. Received: data_format={data_format}")
    st = spatial_sequence(strides, 1, "stride")
    dl = spatial_sequence(dilations, 1, "dilations")
    x = array.expand_dims(_t(input), 1)
    f = array.expand_dims(_t(filters), 0)
    _conv1d_input_sizes(output_shape, 1, x.dtype)
    shp = list(shape_arg(output_shape))
    # (nn_ops.conv1d_transpose passes `[1] + strides` and `[1] + dilations` as _get_sequence gives them: strides
    # [1, 2, 2] are [1, 1, 2, 2], the kernel's batch-and-depth refusal; fz34b, fz14 seed 1420343001 #219)
    out = conv2d_transpose(x, f, shp[:1] + [1] + shp[1:], [1, *st], padding, "NHWC", [1, *dl])
    return array.squeeze(out, [1])


def _conv1d_input_sizes(output_shape: Any, start: int, dtype: dtypes.DType) -> None:
    """nn_ops.conv1d_transpose's input_sizes of a list (or NumPy) output_shape: `concat([shape[:start], [1],
    shape[start:]], 0)`, each piece converted on its own. Eagerly ConcatV2 converts the later pieces to the first's
    dtype: a float after Python ints is "Cannot convert [5.0] to EagerTensor of dtype int32" (TypeError), and a float
    first makes a float input_sizes the kernel refuses (InvalidArgumentError "... was expected to be a int32 tensor
    but is a float tensor"); in a graph pieces of several dtypes are ConcatV2's TypeError and a float input_sizes
    op_def_library's (TF 2.21 observed, /work/wt/fix66n_logs/p_ct.py; asweep65's probe3.py)."""
    from simdist.runtime.tensor import convert_to_tensor
    if isinstance(output_shape, Tensor) or not isinstance(output_shape, (list, tuple, np.ndarray)):
        return
    shape = list(output_shape)
    pieces = [shape[:start], [1], shape[start:]]
    if context.in_function():
        kinds = [convert_to_tensor(p).dtype for p in pieces]
        if len({k.name for k in kinds}) > 1:
            raise TypeError(f"Tensors in list passed to 'values' of 'ConcatV2' Op have types "
                            f"[{', '.join(k.name for k in kinds)}] that don't all match.")
        if kinds[0] is not dtypes.int32:
            raise TypeError(f"Value passed to parameter 'input_sizes' has DataType {kinds[0].name} not in list of "
                            "allowed values: int32")
        return
    first = convert_to_tensor(pieces[0]).dtype
    for p in pieces[1:]:
        convert_to_tensor(p, dtype=first)
    if first is not dtypes.int32:
        kernel = "_MklNativeConv2DBackpropInput" if host_cpu.current().onednn(
            dtype.name, ("float32", "bfloat16", "float16")) else "Conv2DBackpropInput"
        raise errors.InvalidArgumentError(None, None, f"cannot compute {kernel} as input #0(zero-based) was expected "
                                          f"to be a int32 tensor but is a {args.tf_name(first)} tensor "
                                          "[Op:Conv2DBackpropInput]")


def conv_transpose(input: Any, filters: Any, output_shape: Any, strides: Any, padding: Any = "SAME",  # noqa: A002
                   data_format: Any = None, dilations: Any = None, name: str | None = None) -> Tensor:
    """`tf.nn.conv_transpose`: conv1d_transpose, conv2d_transpose or conv3d_transpose by
    len(output_shape) (3, 4 or 5)."""
    if isinstance(output_shape, Tensor):
        n = int(output_shape.shape[0]) - 2
    elif hasattr(output_shape, "__len__"):
        n = len(output_shape) - 2
    else:
        raise ValueError(f"`output_shape` must be a tensor or sized collection. Received: output_shape={output_shape}")
    if not 1 <= n <= 3:
        raise ValueError(f"`output_shape` must be of length 3, 4 or 5. Received: output_shape={output_shape} of "
                         f"length {n + 2}.")
    if n == 3:
        from simdist.runtime.ops.conv3d import conv3d_transpose
        return conv3d_transpose(input, filters, output_shape, strides, padding=padding,
                                data_format=data_format or "NDHWC", dilations=dilations)
    fn = conv1d_transpose if n == 1 else conv2d_transpose
    return fn(input, filters, output_shape, strides, padding=padding, data_format=data_format, dilations=dilations)


def atrous_conv2d(value: Any, filters: Any, rate: Any, padding: Any, name: str | None = None) -> Tensor:
    """`tf.nn.atrous_conv2d`: tf.nn.convolution with dilation_rate [rate, rate] (NHWC)."""
    from simdist.runtime.ops.conv import convolution
    # (TF passes dilation_rate=np.broadcast_to(rate, (2,)) to convolution_internal as it is: a
    # graph tensor or a Variable read in a tf.function refuses NumPy first; fz20: seed 1420261219 #373)
    _symbolic.check_numpy_read(rate)
    return convolution(value, filters, padding=padding, dilations=list(np.broadcast_to(np.asarray(rate), (2,))))


def _depthwise_attrs(strides: Any, padding: Any, dilations: Any, data_format: Any, op: str) -> dict:
    check_data_format(data_format or "NHWC", op=op)
    if not isinstance(strides, (list, tuple)) or len(strides) != 4:
        raise errors.InvalidArgumentError(None, None, "Sliding window strides field must specify 4 dimensions "
                                          f"[Op:{op}]")
    pad, explicit = normalize_padding(padding, op)
    format_attr(op, data_format or "NHWC")
    dl = tuple(int(v) for v in dilations) if dilations is not None else (1, 1, 1, 1)
    return {"strides": tuple(int(v) for v in strides), "padding": pad, "explicit_paddings": explicit, "dilations": dl}


# TF 2.21's x86 CPU build runs the depthwise backprops of these dtypes through oneDNN
_ONEDNN_DTYPES = ("float32", "bfloat16")
_ONEDNN_SOURCE = {"DepthwiseConv2dNativeBackpropInput": "mkl_conv_grad_input_ops.cc:546",
                  "DepthwiseConv2dNativeBackpropFilter": "mkl_conv_grad_filter_ops.cc:685"}


def _depthwise_backprop(op_def: Any, inputs: tuple, attrs: dict, dtype: Any, op: str) -> Tensor:
    """TF 2.21's CPU depthwise backprops (clause ops.nn-more): every kernel computes as if each
    dilation were 1 (the out_backprop size follows the undilated filter); an out_backprop of the
    wrong size is InvalidArgumentError in Eigen's kernels and AbortedError in oneDNN's
    (float32, bfloat16: "could not create a primitive descriptor")."""
    attrs = {**attrs, "dilations": (1, 1, 1, 1)}
    try:
        return dispatch.execute(op_def, inputs, attrs)
    except errors.InvalidArgumentError as e:
        if "out_backprop doesn't match" in str(e) and host_cpu.current().onednn(dtype.name, _ONEDNN_DTYPES):
            raise errors.AbortedError(None, None, "Operation received an exception:Status: 2, message: could not "
                                      "create a primitive descriptor for the convolution forward propagation "
                                      "primitive. Run workload with environment variable ONEDNN_VERBOSE=all to get "
                                      "additional diagnostic information., in file "
                                      f"tensorflow/core/kernels/mkl/{_ONEDNN_SOURCE[op]} [Op:{op}]") from None
        raise


def _onednn_strides(g: Tensor, strides: Any, data_format: Any, op: str) -> None:
    """oneDNN's depthwise backprop kernels (float32, bfloat16) check in their constructor
    (MklConvBackpropCommonOp) that the batch and depth strides are 1, before Compute's checks:
    strides[0] and strides[1] for NCHW (a two-entry list too), strides[0] and strides[3] for NHWC
    ("Current implementation does not yet support strides in the batch and depth dimensions.";
    fz26b, fz14 seed 1420262602 #3). NHWC with fewer than four entries reads past the list in TF
    (not modelled: the default kernel's "Sliding window strides field must specify 4 dimensions")."""
    if not host_cpu.current().onednn(g.dtype.name, _ONEDNN_DTYPES) or not isinstance(strides, (list, tuple)):
        return
    nchw = data_format == "NCHW"
    if len(strides) == 4 or (nchw and len(strides) >= 2):
        n, c = strides[0], strides[1] if nchw else strides[3]
        if n != 1 or c != 1:
            raise errors.InvalidArgumentError(None, None, "Current implementation does not yet support strides in "
                                              f"the batch and depth dimensions. [Op:{op}]")


def _own_nchw_backprop(g: Tensor, op: str, kw: dict[str, Any]) -> Tensor | None:
    """NCHW depthwise backprops: oneDNN's float32/bfloat16 kernels compute them (the NHWC values
    between transposes: None here); TF's own kernels (every dtype where oneDNN is off, float64 and
    half everywhere) are the raw op's: the NodeDef's padding and T, the constructor's strides
    (equal row and column strides, then the batch and depth ones: InvalidArgumentError), Compute's
    sizes and dimensions, an empty output, and only then the CPU refusal of the layout
    (UnimplementedError "Depthwise convolution on CPU is only supported for NHWC format"); observed
    on TF 2.21 with oneDNN off (fz47: fz14 tape seed 1420473001 #232, `padding='same'` with NCHW;
    simdist had refused the layout before every check)."""
    if host_cpu.current().onednn(g.dtype.name, _ONEDNN_DTYPES):
        return None
    from simdist.runtime.ops import raw_ops
    return raw_ops.function(op)(**{k: v for k, v in kw.items() if v is not None})


def _node_attrs(op: str, t: Tensor, padding: Any) -> None:
    """The NodeDef's validation before the kernel's constructor reads the strides: eagerly TF checks
    padding's allowed strings, then T's allowed dtypes (InvalidArgumentError each); while tracing
    op_def_library checks T's input type first (TypeError), then padding (ValueError). So
    `depthwise_conv2d_backprop_input(..., int64 filter, strides=[2, 0], padding="same")` is the padding
    attr's error, not the strides' (fz14 seed 1420292904 #30)."""
    from simdist.runtime.ops import raw_ops, raw_rules
    spec = raw_ops.opdefs()["ops"][op]
    allowed = '"SAME", "VALID", "EXPLICIT"'

    def check_padding() -> None:
        if isinstance(padding, str) and padding not in ("SAME", "VALID", "EXPLICIT"):
            err = errors.InvalidArgumentError(None, None, f"Value for attr 'padding' of \"{padding}\" is not in the list "
                                              f"of allowed values: {allowed} [Op:{op}]")
            raise trace_errors.bad_attr(err, op, "padding", padding, allowed)
    if not context.in_function():
        check_padding()
    raw_rules.check_attrs(op, spec, {"T": t.dtype})
    check_padding()


# (the depthwise backprops' default dilations, TF 2.21's gen_nn_ops default; never mutated)
_UNIT_DILATIONS = [1, 1, 1, 1]


def depthwise_conv2d_backprop_input(input_sizes: Any, filter: Any, out_backprop: Any, strides: Any,  # noqa: A002
                                    padding: Any, data_format: str = "NHWC", dilations: Any = _UNIT_DILATIONS,
                                    name: str | None = None) -> Tensor:
    """`tf.nn.depthwise_conv2d_backprop_input` (DepthwiseConv2dNativeBackpropInput): the gradient of
    depthwise_conv2d_native with respect to an input of input_sizes."""
    from simdist.runtime.ops.conv import DEPTHWISE_BACKPROP_INPUT
    op = "DepthwiseConv2dNativeBackpropInput"
    # (the wrapper's make_*: ops.attr-types)
    attr_rules.check(op, (input_sizes, filter, out_backprop), strides=strides, padding=padding, data_format=data_format,
                     dilations=dilations)
    # (filter and out_backprop share T: a NumPy value beside a tensor is cast to its dtype, args.matching)
    f, g = args.matching([filter, out_backprop], op=op, names=("filter", "out_backprop"))
    # (an int32 input: 2.5 is TypeError. A tensor of another dtype: traced op_def_library's TypeError;
    # eagerly, when the call leaves the fast path (a list filter: fz14 seed 1420261219 #279), the
    # fallback's convert_to_tensor ValueError before the kernel's checks, else the kernel's error (#134))
    if isinstance(input_sizes, Tensor) and context.in_function():
        input_sizes = trace_errors.fixed_operand(input_sizes, dtypes.int32, op, "input_sizes")
    elif isinstance(input_sizes, Tensor) and not attr_rules.fast_path_takes(
            op, (input_sizes, filter, out_backprop), strides=strides, padding=padding, data_format=data_format,
            dilations=dilations):
        attr_rules.fallback_conversion(input_sizes, dtypes.int32)
    else:
        input_sizes = args.fixed_input(input_sizes, dtypes.int32)
        if isinstance(input_sizes, Tensor) and input_sizes.dtype != dtypes.int32:
            # (the kernel's input types before its oneDNN primitive: a float32 input_sizes is
            # InvalidArgumentError "cannot compute ... as input #0", fz31b)
            raise args.dtype_error(op, 0, dtypes.int32, input_sizes.dtype)
    # (a graph: the shape function reads input_sizes as a shape of rank 4 before any kernel check;
    # fz28b, fz14 seed 1420282802 #179), after op_def_library's input types (a bool filter's TypeError;
    # fz33b, fz14 seed 1420333001 #237)
    graph_inputs.check(op, (input_sizes, f, g))
    infer_ctx.check(op, {"input_sizes": _t(input_sizes), "filter": f, "out_backprop": g}, {})
    _node_attrs(op, g, padding)
    _onednn_strides(g, strides, data_format, op)
    if data_format == "NCHW":
        own = _own_nchw_backprop(g, op, dict(input_sizes=input_sizes, filter=f, out_backprop=g, strides=strides,
                                             padding=padding, data_format=data_format, dilations=dilations))
        if own is not None:
            return own
        from simdist.runtime.ops.conv import nchw_to_nhwc, to_channels_first, to_channels_last
        sizes = list(nchw_to_nhwc(list(shape_arg(input_sizes))))
        st = list(nchw_to_nhwc(strides)) if isinstance(strides, (list, tuple)) and len(strides) == 4 else strides
        dl = None if dilations is None else list(nchw_to_nhwc(dilations))
        return to_channels_first(depthwise_conv2d_backprop_input(sizes, f, to_channels_last(g), st, padding, "NHWC",
                                                                 dl))
    attrs = _depthwise_attrs(strides, padding, dilations, data_format, op)
    attrs["input_sizes"] = shape_arg(input_sizes)
    return _depthwise_backprop(DEPTHWISE_BACKPROP_INPUT, (f, g), attrs, g.dtype, op)


def depthwise_conv2d_backprop_filter(input: Any, filter_sizes: Any, out_backprop: Any, strides: Any,  # noqa: A002
                                     padding: Any, data_format: str = "NHWC", dilations: Any = _UNIT_DILATIONS,
                                     name: str | None = None) -> Tensor:
    """`tf.nn.depthwise_conv2d_backprop_filter` (DepthwiseConv2dNativeBackpropFilter): the gradient
    of depthwise_conv2d_native with respect to a filter of filter_sizes."""
    from simdist.runtime.ops.conv import DEPTHWISE_BACKPROP_FILTER
    op = "DepthwiseConv2dNativeBackpropFilter"
    # (the wrapper's make_*: ops.attr-types)
    attr_rules.check(op, (input, filter_sizes, out_backprop), strides=strides, padding=padding, data_format=data_format,
                     dilations=dilations)
    x, g = args.matching([input, out_backprop], op=op, names=("input", "out_backprop"))   # (T shared)
    if isinstance(filter_sizes, Tensor) and not attr_rules.fast_path_takes(
            op, (input, filter_sizes, out_backprop), strides=strides, padding=padding, data_format=data_format,
            dilations=dilations) and not context.in_function():
        # (a call the fast path does not take, a NumPy uint8 out_backprop: the fallback's
        # convert_to_tensor(filter_sizes, int32) is ValueError for a float32 tensor; fz31b, fz14 seed
        # 1420313002 #60; backprop_input's input_sizes alike)
        attr_rules.fallback_conversion(filter_sizes, dtypes.int32)
    filter_sizes = args.fixed_input(filter_sizes, dtypes.int32)   # (an int32 input: [[1.0]] is TypeError)
    if isinstance(filter_sizes, Tensor) and filter_sizes.dtype != dtypes.int32:
        # (the op's input types are checked before its kernel looks at the format: a float32
        # filter_sizes is InvalidArgumentError before NCHW's UnimplementedError; fz21, fz14 seed 1420262101 #212)
        raise trace_errors.fixed_type(args.dtype_error(op, 1, dtypes.int32, filter_sizes.dtype), op, 1,
                                      filter_sizes.dtype, dtypes.int32)
    # (a graph: the shape function reads filter_sizes as a shape of rank 4 before the kernel's strides
    # check: `filter_sizes=[[[-1], [-1], [-1]]], strides=()` is ValueError "Shape must be rank 1 but is
    # rank 3" at trace; fz28b, fz14 seed 1420282802 #179), after op_def_library's input types (an int64 input's
    # TypeError "Value passed to parameter 'input' has DataType int64"), and the NodeDef's padding and T before the
    # kernel's strides, as backprop_input (fz49, fz14 function seed 1420493003 #24)
    graph_inputs.check(op, (x, filter_sizes, g))
    infer_ctx.check(op, {"input": x, "filter_sizes": _t(filter_sizes), "out_backprop": g}, {})
    _node_attrs(op, g, padding)
    _onednn_strides(g, strides, data_format, op)
    if data_format == "NCHW":
        own = _own_nchw_backprop(g, op, dict(input=x, filter_sizes=filter_sizes, out_backprop=g, strides=strides,
                                             padding=padding, data_format=data_format, dilations=dilations))
        if own is not None:
            return own
        from simdist.runtime.ops.conv import nchw_to_nhwc, to_channels_last
        st = list(nchw_to_nhwc(strides)) if isinstance(strides, (list, tuple)) and len(strides) == 4 else strides
        dl = None if dilations is None else list(nchw_to_nhwc(dilations))
        return depthwise_conv2d_backprop_filter(to_channels_last(x), filter_sizes, to_channels_last(g), st, padding,
                                                "NHWC", dl)
    attrs = _depthwise_attrs(strides, padding, dilations, data_format, op)
    fs = np.asarray(filter_sizes._v if isinstance(filter_sizes, Tensor) else filter_sizes)
    if fs.ndim != 1:
        # (the kernel's check after the type attrs (eagerly "Value for attr 'T' of int64"); a graph's
        # shape function reads filter_sizes as a shape vector; fz23b: fz14 seed 1420262301 #278)
        DEPTHWISE_BACKPROP_FILTER.dtype((x.dtype, g.dtype), attrs)
        raise trace_errors.shape_error(
            f"Conv2DBackpropFilter: filter_sizes input must be 1-dim, not {fs.ndim} [Op:{op}]",
            f"Shape must be rank 1 but is rank {fs.ndim}", op, (x.shape.as_list(), list(fs.shape),
                                                                g.shape.as_list()))
    attrs["filter_sizes"] = shape_arg(filter_sizes)
    return _depthwise_backprop(DEPTHWISE_BACKPROP_FILTER, (x, g), attrs, g.dtype, op)
