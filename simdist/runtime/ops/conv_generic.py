"""`tf.conv`: TF 2.21's generic Conv op (gen_nn_ops.conv; conv_ops_impl.h ConvOp): a 2-D or 3-D
convolution of an input with `batch_dims` leading batch dimensions (flattened into one, then
restored), HWIO / DHWIO filters, dtypes half, bfloat16, float, double and int32. The values are
Conv2D's and Conv3D's (TF launches those kernels: measured bit-identical to tf.nn.conv2d/conv3d).

The kernel's checks in its order: groups other than 1 (UnimplementedError, at kernel
construction), 2 or 3 spatial dimensions, a filter without zero dimensions, of rank 4 or 5,
strides (and dilations, when given) of spatial rank + 2, 1 in the batch and depth dimensions and
positive elsewhere, the padding, input depth equal to filter depth, the output size; an empty
output or input gives zeros of the output's shape; then CHANNELS_FIRST is the CPU launcher's
UnimplementedError (NHWC only). While tracing, TF's shape function raises ValueError first for a
spatial rank other than 2 or 3, a strides list of another length and depths that do not match
`groups`, and a padding or data_format outside the op's list is op_def_library's ValueError. EXPLICIT padding of a
3-D convolution aborts TF 2.21's process (Check failure "Eigen does not have explicit padding
enum value"): simdist raises UnimplementedError instead. No gradient is registered for Conv
(LookupError at backprop). FLOPs: 2 * output pixels * filter volume * in depth * out depth.
Clause ops.conv-generic.
"""

from __future__ import annotations

from typing import Any, Sequence

import numpy as np

from simdist.runtime import context, errors
from simdist.runtime.ops import dispatch, graph_inputs, trace_errors
from simdist.runtime.ops.args import t as _t
from simdist.runtime.ops.conv import _conv2d, window_geometry
from simdist.runtime.ops.conv3d import _conv3d, geometry3d
from simdist.runtime.ops.counting import no_tf_gradient
from simdist.runtime.ops.nn_rules import CONV, typed
from simdist.runtime.ops.registry import register, rows
from simdist.runtime.tensor import Tensor, convert_to_tensor

__all__ = ["conv"]

_OP = "Conv"


def _error(cls: type, text: str) -> errors.OpError:
    return cls(None, None, f"{text} [Op:{_OP}]")


def _out_spatial(x: Sequence[int], f: Sequence[int], strides: Sequence[int], dilations: Sequence[int],
                 padding: str, explicit: Sequence[int], nsp: int) -> tuple[int, ...]:
    if nsp == 2:
        return window_geometry(x[1:3], f[:2], strides[1:3], dilations[1:3], padding, explicit, _OP)[0]
    return geometry3d(x[1:4], f[:3], strides[1:4], dilations[1:4], padding, _OP)[0]


def _forward(x: np.ndarray, f: np.ndarray, strides: tuple, padding: str, explicit_paddings: tuple,
             data_format: str, dilations: tuple, batch_dims: int, groups: int) -> np.ndarray:
    if groups != 1:
        raise _error(errors.UnimplementedError, "Grouped/Depthwise Convolutions are not supported yet.")
    nsp = x.ndim - 1 - batch_dims
    if nsp not in (2, 3):
        raise _error(errors.InvalidArgumentError, f"The input must have 2 or 3 spatial dimensions but got {nsp}")
    if f.size == 0:
        raise _error(errors.InvalidArgumentError, "filter must not have zero elements (i.e. all dimensions must be "
                                                  "non-zero)")
    lead = x.shape[:batch_dims]
    xf = x.reshape((int(np.prod(lead, dtype=np.int64)),) + x.shape[batch_dims:])
    if f.ndim not in (4, 5):
        raise _error(errors.InvalidArgumentError, f"The filter must be rank 4 or 5 but got {f.ndim}")
    if len(strides) != nsp + 2:
        raise _error(errors.InvalidArgumentError, f"Sliding window strides field must specify {nsp + 2} dimensions")
    first = data_format == "CHANNELS_FIRST"
    c_at = 1 if first else nsp + 1
    if strides[0] != 1 or strides[c_at] != 1:
        raise _error(errors.InvalidArgumentError, "Current implementation does not support strides in the batch and "
                                                  "depth dimensions.")
    sp = [i for i in range(nsp + 2) if i not in (0, c_at)]
    if any(strides[i] <= 0 for i in sp):
        raise _error(errors.InvalidArgumentError, "Spatial strides should be larger than 0.")
    if not dilations:
        dilations = (1,) * (nsp + 2)
    elif len(dilations) != nsp + 2:
        raise _error(errors.InvalidArgumentError, f"Dilation rates field must specify{nsp + 2}dimensions")
    elif dilations[0] != 1 or dilations[c_at] != 1:
        raise _error(errors.InvalidArgumentError, "Current implementation does not support dilation rates in the "
                                                  "batch and depth dimensions.")
    elif any(dilations[i] <= 0 for i in sp):
        raise _error(errors.InvalidArgumentError, "Dilated rates should be larger than 0.")
    if padding == "EXPLICIT":
        if len(explicit_paddings) != 2 * (nsp + 2):
            raise _error(errors.InvalidArgumentError, f"explicit_paddings attribute must contain {2 * (nsp + 2)} "
                                                      f"values, but got: {len(explicit_paddings)}")
        if any(p < 0 for p in explicit_paddings):
            raise _error(errors.InvalidArgumentError, "All elements of explicit_paddings must be nonnegative")
    elif explicit_paddings:
        raise _error(errors.InvalidArgumentError, "explicit_paddings attribute must be empty if the padding attribute "
                                                  "is not EXPLICIT")
    in_depth = xf.shape[c_at]
    if f.shape[-2] != in_depth:
        raise _error(errors.InvalidArgumentError, f"Input depth must be equal to filter depth: {in_depth} vs "
                                                  f"{f.shape[-2]}")
    if first:   # the shape first (as the kernel computes it), then the launcher's NHWC-only error
        perm = (0,) + tuple(range(2, nsp + 2)) + (1,)
        xl = xf.transpose(perm)
        sl, dl = tuple(strides[i] for i in perm), tuple(dilations[i] for i in perm)
        el = tuple(v for i in perm for v in explicit_paddings[2 * i:2 * i + 2]) if explicit_paddings else ()
        out_sp = _out_spatial(xl.shape, f.shape, sl, dl, padding, el, nsp)
        if xf.shape[0] * int(np.prod(out_sp)) * f.shape[-1] and xf.size:
            fmt = "NCHW" if nsp == 2 else "NCDHW"
            raise _error(errors.UnimplementedError, f"The Conv{nsp}D op currently only supports the "
                                                    f"{'NHWC' if nsp == 2 else 'NDHWC'} tensor format on the CPU. "
                                                    f"The op was given the format: {fmt}")
        out = np.zeros((xf.shape[0], f.shape[-1]) + tuple(out_sp), x.dtype)
    else:
        out_sp = _out_spatial(xf.shape, f.shape, strides, dilations, padding, explicit_paddings, nsp)
        shape = (xf.shape[0],) + tuple(out_sp) + (f.shape[-1],)
        if int(np.prod(shape)) == 0 or xf.size == 0:
            out = np.zeros(shape, x.dtype)
        elif nsp == 2:
            out = _conv2d(xf, f, tuple(strides), padding, tuple(explicit_paddings), tuple(dilations), traced=True)
        else:
            if padding == "EXPLICIT":
                raise _error(errors.UnimplementedError, "simdist: a 3-D tf.conv with EXPLICIT padding aborts TF 2.21's "
                                                        "process (Check failure: Eigen does not have explicit padding "
                                                        "enum value)")
            out = _conv3d(xf, f, tuple(strides), padding, (), tuple(dilations))
    return out.reshape(tuple(lead) + out.shape[1:])


def _flops(a: Any, out: Any, at: dict) -> float:
    f = a[1]
    if out.size == 0 or f.ndim < 4:
        return 0.0
    return 2.0 * (out.size // f.shape[-1]) * float(np.prod(f.shape[:-1])) * f.shape[-1]


CONV_OP = register(_OP, _forward, typed(_OP, CONV), _flops, kind="contraction", fusion=rows(0))
no_tf_gradient(_OP)


def _shape_errors(x: Tensor, f: Tensor, batch_dims: int, groups: int, strides: tuple) -> None:
    """TF's Conv shape function (ConvShapeImpl) while tracing: ValueError for a spatial rank other
    than 2 or 3, a strides list of another length and depths that do not match `groups`."""
    if not context.in_function():
        return
    nsp = x.ndim - 1 - batch_dims
    if nsp not in (2, 3):
        raise ValueError("Input tensor must be rank 4 or 5, excluding extra batch dimensions, but got: "
                         f"{x.ndim - batch_dims + 1}")
    if f.ndim not in (4, 5):   # (ConvShapeImpl's filter rank, before the strides; it prints the input's)
        raise ValueError(f"Filter tensor must be rank 4 or 5, but got: {nsp + 2}")
    if f.ndim != nsp + 2:
        raise ValueError("Input tensor rank must be the same as filter rank.")
    if len(strides) != nsp + 2:
        raise ValueError(f"Stride attribute should contain {nsp + 2} values, but got: {len(strides)}")
    if f.ndim == nsp + 2:
        in_depth, f_in, out_depth = x.shape[-1], f.shape[-2], f.shape[-1]
        if in_depth is not None and f_in is not None and (f_in == 0 or in_depth % f_in or in_depth // f_in != groups):
            raise ValueError(f"Input depth divided by filter input depth does not match with groups parameter "
                             f"({groups})")
        if out_depth is not None and out_depth % groups:
            raise ValueError(f"Number of groups should divide output depth for 'Conv' Op: {out_depth} vs {groups}")


def _ints(value: Any, name: str, inputs: tuple = ()) -> tuple[int, ...]:
    """A list(int) attr as the generated wrapper takes it: a list or tuple; eagerly also what TF's
    fast path reads as one (an empty ndarray, a range: attr_rules; fz14 seed 1420261219 #115) when
    no input sends the call to the fallback (attr_rules.sequence_attr_taken)."""
    from simdist.runtime.ops import attr_rules
    if not isinstance(value, (list, tuple)) and not attr_rules.sequence_attr_taken(value, inputs):
        if not context.in_function() and all(attr_rules.check_one_input(x) for x in inputs):
            attr_rules.sized_list(value)   # (the fast path's SetOpAttrList: a 0-d tensor is MemoryError; fz66)
        raise TypeError(f"Expected list for '{name}' argument to 'conv' Op, not {value!r}.")
    return tuple(int(v) for v in value)


def conv(input: Any, filter: Any, strides: Any, padding: str, explicit_paddings: Any = (),  # noqa: A002
         data_format: str = "CHANNELS_LAST", dilations: Any = (), batch_dims: int = 1, groups: int = 1,
         name: str | None = None) -> Tensor:
    """`tf.conv`: the raw Conv op (strides a list of spatial rank + 2; padding SAME, VALID or
    EXPLICIT with explicit_paddings; data_format CHANNELS_LAST or CHANNELS_FIRST)."""
    st = _ints(strides, "strides", (input, filter))
    ex = _ints(explicit_paddings, "explicit_paddings", (input, filter))
    dl = _ints(dilations, "dilations", (input, filter))
    if not context.in_function():
        # (eagerly the fast path converts the inputs first, the first tensor fixing T, and its
        # fallback converts them before the kernel validates the attrs: `filter=nan` beside a bool
        # input is TypeError whatever padding says; fz28b, fz14 seed 1420282802 #87)
        # (a NumPy integer batch_dims or groups sends the call to the fallback, whose convert_to_tensor of -1
        # beside a uint64 input is convert.py's SystemError, where the fast path's is the pending OverflowError;
        # fz46, fz14 seed 1420463004 #58: `tf.conv(uint64 x, -1, ..., batch_dims=np.int64(2))`)
        from simdist.runtime.ops import attr_rules
        fast = attr_rules.fast_path_takes(_OP, (input, filter), batch_dims=batch_dims, groups=groups)
        attr_rules.eager_group([input, filter], fast)
        for attr, value in (("batch_dims", batch_dims), ("groups", groups)):
            if value is not None:
                # (the wrapper's make_int of each attr before the kernel validates padding and data_format: a
                # vector batch_dims is TypeError beside padding 'same'; fz66, fz62gen seed 66411 #4)
                attr_rules.make_int(value, attr)
    for attr, value, allowed in (("padding", padding, '"SAME", "VALID", "EXPLICIT"'),
                                 ("data_format", data_format, '"CHANNELS_FIRST", "CHANNELS_LAST"')):
        if value not in allowed.replace('"', "").split(", "):
            graph_inputs.check(_OP, (input, filter))   # (a graph: the inputs before the attrs)
            raise trace_errors.bad_attr(_error(errors.InvalidArgumentError, f"Value for attr '{attr}' of \"{value}\" "
                                                                            f"is not in the list of allowed values: "
                                                                            f"{allowed}"), _OP, attr, value, allowed)
    graph_inputs.check(_OP, (input, filter))   # (a graph: op_def_library's inputs before the shape function)
    if context.in_function():   # (op_def_library: a value for the filter converts to the input's T)
        x = _t(input)
        f = _t(filter) if isinstance(filter, Tensor) or hasattr(filter, "_as_tensor") else \
            convert_to_tensor(filter, dtype=x.dtype)
    else:   # (eagerly the first tensor fixes T, a Python value converts to it: True beside complex64 is
        # TypeError; fz14 seed 1420262402 #57)
        from simdist.runtime.ops import attr_rules
        x, f = attr_rules.eager_group([input, filter], fast)
        x, f = _t(x), _t(f)
    _shape_errors(x, f, int(batch_dims), int(groups), st)
    attrs = {"strides": st, "padding": padding, "explicit_paddings": ex, "data_format": data_format,
             "dilations": dl, "batch_dims": int(batch_dims), "groups": int(groups)}
    return dispatch.execute(CONV_OP, (x, f), attrs)

