"""tf.nn functions TF 2.21 composes of other ops in Python (nn_ops.py, array_ops.py, ctc_ops.py):
required_space_to_batch_paddings, with_space_to_batch, pool, atrous_conv2d_transpose and
collapse_repeated, composed of the same ops in the same order, so their values, dtypes and
gradients are those ops' (SpaceToBatchND, MaxPool..., Conv2DBackpropInput, BatchToSpaceND).
Shapes are static in simdist (eager values), so TF's constant-folded branches are the ones taken.
"""

from __future__ import annotations

from typing import Any, Callable

import numpy as np

from simdist.runtime import context, dtypes, errors
from simdist.runtime import symbolic as _symbolic
from simdist.runtime.ops import array, dispatch, static_shapes
from simdist.runtime.ops.args import t as _t
from simdist.runtime.tensor import Tensor, TensorShape, convert_to_tensor

__all__ = ["required_space_to_batch_paddings", "with_space_to_batch", "pool", "atrous_conv2d_transpose",
           "collapse_repeated"]


def _ints(value: Any, what: str) -> np.ndarray:
    """`convert_to_tensor(value, int32)` as TF's wrappers do (Python floats refused, an empty list
    int32, a NumPy float array cast as make_tensor_proto's astype: inf is int32's minimum; fz14 seed
    1420262201 #237), as int64 values. A tensor of another dtype is convert_to_tensor's ValueError, as TF's (a float32
    or int64 input_shape; fz66, fz62gen seed 66401 #2)."""
    return np.asarray(convert_to_tensor(value, dtype=dtypes.int32, name=what)._v).astype(np.int64)


def _int32(a: np.ndarray) -> Tensor:
    return array.constant(np.asarray(a, np.int32).reshape(-1, 2), dtype=dtypes.int32)


def required_space_to_batch_paddings(input_shape: Any, block_shape: Any, base_paddings: Any = None,
                                     name: str | None = None) -> tuple[Tensor, Tensor]:
    """`tf.required_space_to_batch_paddings`: (paddings, crops), int32 [N, 2]: base_paddings with
    each end padding grown by the least amount that makes block_shape divide the padded size;
    crops [0, that amount]."""
    shape = _ints(input_shape, "input_shape")   # (converted first, as array_ops does)
    block = _ints(block_shape, "block_shape")
    if block.ndim != 1:
        raise ValueError(f"Shape {list(block.shape)} must have rank 1")
    n = block.shape[0]
    if n == 0:
        return _int32(np.zeros([0, 2])), _int32(np.zeros([0, 2]))
    if shape.shape != (n,):
        raise ValueError(f"Shapes {TensorShape(list(shape.shape))} and [{n}] are incompatible")
    base = np.zeros([n, 2], np.int64) if base_paddings is None else _ints(base_paddings, "base_paddings")
    if base.shape != (n, 2):
        raise ValueError(f"Shapes {TensorShape(list(base.shape))} and [{n}, 2] are incompatible")
    from simdist.runtime.ops import graph_constants
    if np.any(block == 0) and not graph_constants.python_constant(input_shape, block_shape, base_paddings):
        # (array_ops computes in NumPy when tensor_util.constant_value knows all three, where a
        # block of 0 gives 0 (NumPy's integer `% 0`); with ops, FloorMod's error: fz14 seed 14 #523)
        raise errors.InvalidArgumentError(None, None, "Integer division by zero [Op:FloorMod]")
    full = shape + base[:, 0] + base[:, 1]
    safe = np.where(block == 0, 1, block)
    extra = np.where(block == 0, 0, (safe - np.mod(full, safe)) % safe)
    paddings = np.stack([base[:, 0], base[:, 1] + extra], axis=1)
    crops = np.stack([np.zeros(n, np.int64), extra], axis=1)
    return _int32(paddings), _int32(crops)


def _adjust(orig: np.ndarray, fill: int, spatial_dims: list[int]) -> np.ndarray:
    """TF's _with_space_to_batch_adjust: orig[i] at row spatial_dims[i] - 1, `fill` in between."""
    out = np.full((spatial_dims[-1],) + orig.shape[1:], fill, dtype=np.int64)
    for i, d in enumerate(spatial_dims):
        out[d - 1] = orig[i]
    return out


def with_space_to_batch(input: Any, dilation_rate: Any, padding: Any, op: Callable[..., Any],  # noqa: A002
                        filter_shape: Any = None, spatial_dims: Any = None, data_format: Any = None) -> Tensor:
    """`tf.nn.with_space_to_batch`: op(input, num_spatial_dims, padding) when every rate is 1;
    else op on the SpaceToBatchND of the input (padded so the rate divides it; SAME adds the
    dilated filter's padding) with "VALID", then BatchToSpaceND with the crops."""
    x = _t(input)
    if isinstance(dilation_rate, Tensor) and dilation_rate.dtype != dtypes.int32:
        # (_WithSpaceToBatch: convert_to_tensor(dilation_rate, int32) of a tensor of another dtype;
        # fz20: fz14 seed 1420262001 #225)
        raise ValueError(f"dilation_rate: Tensor conversion requested dtype int32 for Tensor with dtype "
                         f"{dilation_rate.dtype.name}: "
                         f"{dilation_rate!r}")
    rate = _ints(dilation_rate, "dilation_rate")
    if rate.ndim != 1:
        raise ValueError(f"`dilation_rate.shape.rank` must be 1. Received: dilation_rate={rate} of rank {rate.ndim}")
    n = rate.shape[0]
    start = 2 if data_format is not None and data_format.startswith("NC") else 1
    dims = list(range(start, n + start)) if spatial_dims is None else [int(d) for d in spatial_dims]
    if sorted(set(dims)) != dims or any(d < 1 for d in dims):
        raise ValueError("`spatial_dims` must be a monotonically increasing sequence of positive integers. "
                         f"Received: spatial_dims={dims}")
    want_rank = dims[-1] if start == 2 else dims[-1] + 1
    if not static_shapes.rank_unknown(x) and x.ndim < want_rank:   # (input_shape.with_rank_at_least: the graph's
        # shape, so an unknown rank passes; fz46, fz14 seed 1420463001 #251)
        raise ValueError(f"`input.shape.rank` must be at least {want_rank}. Received: input.shape="
                         f"{static_shapes.static_shape(x)} with rank {x.ndim}")
    if np.any(rate < 1):
        raise ValueError(f"`dilation_rate` must be positive. Received: dilation_rate={rate}")
    if np.all(rate == 1):
        return op(x, n, padding)
    if static_shapes.rank_unknown(x) and x.ndim < want_rank:
        # (a rank the graph does not know: SpaceToBatchND refuses the value when the graph runs; a dry run's
        # stand-in of a lower rank goes on past it, of the input's unknown rank; fz46)
        err = errors.InvalidArgumentError(None, None, f"input rank should be >= {n + 1} instead of {x.ndim} "
                                                      "[Op:SpaceToBatchND]")
        # (the stand-in goes on through the op and BatchToSpaceND, whose shape functions give the result's rank
        # and the op's channels: depthwise_conv2d of an unknown rank by [3, 3, 3, 2] with rate 2 is
        # [None, None, None, 6] in TF's trace; fix64s)
        x = dispatch.refused(err, x.dtype, x.shape.as_list() + [1] * (want_rank - x.ndim), pruned=True, like=x)
    if padding == "SAME":
        if filter_shape is None:
            raise ValueError(f"`filter_shape` must be specified for `padding='SAME'`. Received: filter_shape="
                             f"{filter_shape} and padding={padding}")
        if isinstance(filter_shape, (list, tuple)) and any(d is None for d in filter_shape):
            # (a filter_shape the graph does not know in full, depthwise_conv2d's shape(filter): constant_value
            # gives None, so the call computes the paddings from shape(filter) of the `filter` _WithSpaceToBatch
            # passes, None: make_tensor_proto's ValueError at trace; TF 2.21, fix64s)
            raise ValueError("None values not supported.")
        extra = (_ints(filter_shape, "filter_shape")[:n] - 1) * rate
        base = np.stack([extra // 2, extra - extra // 2], axis=1)
    elif padding == "VALID":
        base = np.zeros([n, 2], np.int64)
    else:
        raise ValueError(f"`padding` must be one of 'SAME' or 'VALID'. Received: padding={padding}")
    shp = x.shape.as_list()
    pads, crops = required_space_to_batch_paddings([shp[d] for d in dims], rate, base)
    from simdist.runtime.ops.space_batch import batch_to_space, space_to_batch_nd
    block = _adjust(rate[:, None], 1, dims)[:, 0]
    converted = space_to_batch_nd(x, block, _adjust(pads._v, 0, dims))
    known = static_shapes.known_shape(x)
    unknown_spatial = known is None or any(known[d] is None for d in dims if d < len(known))
    r = op(converted, n, "VALID")
    try:
        result = batch_to_space(r, block, _adjust(crops._v, 0, dims))
    except errors.InvalidArgumentError as e:
        if not unknown_spatial:
            raise
        # (crops from a dry run's probe sizes past the op's stand-in (a window larger than the probe): sizes TF's
        # graph does not know; a stand-in of the result, its spatial dimensions marked unknown below)
        shp_r = r.shape.as_list()
        shape = [shp_r[0] // max(int(np.prod(block)), 1)] + [max(shp_r[d] * int(block[d - 1]), 0) if 1 <= d <= len(
            block) else shp_r[d] for d in range(1, len(shp_r))]
        result = dispatch.refused(e, r.dtype, shape)
        static_shapes.carry(r, result)   # (the op's unknown batch and channels: BatchToSpaceND's shape function)
    if unknown_spatial:
        # (an input spatial size the graph does not know: TF's paddings and crops are computed from shape(input),
        # not constants, so BatchToSpaceND's result has every spatial dimension unknown; `depthwise_conv2d` of
        # [2, 7, None, 3] with rate 2 is [2, None, None, 6]; fix64s)
        for d in dims:
            result = static_shapes.also_unknown(result, d)
    return result


def pool(input: Any, window_shape: Any, pooling_type: str, strides: Any = None, padding: str = "VALID",  # noqa: A002
         data_format: Any = None, dilations: Any = None, name: str | None = None) -> Tensor:
    """`tf.nn.pool`: N-D (1-3) max or average pooling through max_pool/avg_pool/max_pool3d/
    avg_pool3d, dilated windows through with_space_to_batch, with TF's argument checks."""
    from simdist.runtime.ops.pooling import avg_pool_any_rank, max_pool_any_rank
    from simdist.runtime.ops.pooling3d import avg_pool3d, max_pool3d
    # (nn_ops.pool's first step names its scope "%s_pool" % pooling_type.lower(): a pooling_type without `lower` (a
    # tensor, a number, None) is that AttributeError before any other check; fz63, fz62gen seeds 63402-63404)
    pooling_type.lower()
    x = _t(input)
    if isinstance(window_shape, Tensor) and context.in_function():   # (`len(window_shape)` of a graph tensor)
        raise _symbolic._error("len", "SymbolicTensor")
    nsp = len(window_shape)
    window = [int(w) for w in window_shape]
    if not 1 <= nsp <= 3:
        raise ValueError(f"`len(window_shape)` must be 1, 2, or 3. Received: window_shape={window_shape} of length "
                         f"{nsp}")
    if x.ndim != nsp + 2:
        raise ValueError(f"Shape {x.shape} must have rank {nsp + 2}")
    rate = np.array([1] * nsp if dilations is None else list(dilations), np.int32)
    if len(rate) != nsp:
        raise ValueError(f"`len(dilation_rate)` should be {nsp}. Received: dilation_rate={dilations} of length "
                         f"{len(rate)}")
    if np.any(rate < 1):
        raise ValueError(f"all values of `dilation_rate` must be positive. Received: dilation_rate={rate}")
    st = np.array([1] * nsp if strides is None else list(strides), np.int32)
    if len(st) != nsp:
        raise ValueError(f"`len(strides)` should be {nsp}. Received: strides={strides} of length {len(st)}")
    if np.any(st < 1):
        raise ValueError(f"all values of `strides` must be positive. Received: strides={st}")
    if np.any(st > 1) and np.any(rate > 1):
        raise ValueError(f"`strides > 1` not supported in conjunction with `dilation_rate > 1`. Received: "
                         f"strides={st} and dilation_rate={rate}")
    if padding == "SAME" and np.any(rate > 1):
        raise ValueError(f"pooling with 'SAME' padding is not implemented for `dilation_rate` > 1. Received: "
                         f"padding={padding} and dilation_rate={rate}")
    if np.any(st > np.array(window)):
        raise ValueError(f"`strides` > `window_shape` not supported due to inconsistency between CPU and GPU "
                         f"implementations. Received: strides={st} and window_shape={window_shape}")
    ops = {("MAX", 1): max_pool_any_rank, ("MAX", 2): max_pool_any_rank, ("MAX", 3): max_pool3d,
           ("AVG", 1): avg_pool_any_rank, ("AVG", 2): avg_pool_any_rank, ("AVG", 3): avg_pool3d}
    if (pooling_type, nsp) not in ops:
        raise ValueError(f"{nsp}-D {pooling_type} pooling is not supported.")
    fn = ops[(pooling_type, nsp)]
    if data_format is not None and data_format.startswith("NC"):
        if np.any(rate > 1):
            return _channels_first_dilated(fn, x, window, st, rate, padding, data_format, nsp)
        # TF's pool: the window and strides of the channels-first op ([1, 1] + window), no dilation
        if nsp == 1:
            from simdist.runtime.ops import nn_more
            fn1 = nn_more.max_pool1d if pooling_type == "MAX" else nn_more.avg_pool1d
            return fn1(x, window, [int(v) for v in st], padding, data_format)
        return fn(x, [1, 1] + window, [1, 1] + [int(v) for v in st], padding, data_format)
    if nsp == 1 and data_format not in (None, "NWC"):
        raise ValueError(f"data_format must be either 'NWC' or 'NCW'. Received: data_format={data_format}")
    ksize = [1] + window + [1]
    kstrides = [1] + [int(s) for s in st] + [1]
    if nsp == 1:
        ksize, kstrides = [1] + ksize, [1] + kstrides

    def op(converted: Tensor, _: int, converted_padding: str) -> Tensor:
        if nsp == 1:
            converted = array.expand_dims(converted, 1)
        result = fn(converted, ksize, kstrides, converted_padding)
        return array.squeeze(result, [1]) if nsp == 1 else result

    return with_space_to_batch(x, rate, padding, op, filter_shape=window, spatial_dims=range(1, nsp + 1))


def _channels_first_dilated(fn: Callable[..., Any], x: Tensor, window: list, st: Any, rate: Any, padding: str,
                            data_format: str, nsp: int) -> Tensor:
    """A dilated channels-first tf.nn.pool as TF's nn_ops.pool builds it (clause ops.nn-pool-window-forms): the
    window and strides [1, 1] + spatial, with_space_to_batch over the spatial dimensions from 2 (the channel's
    block 1), the pool op in the format (a 1-D one expanded at axis 2 and pooled as NCHW), so the channels-first
    op's own rules follow: oneDNN's float32 AvgPool computes, a float64 one or a MaxPool's eager gradient is the
    layout's InvalidArgumentError, a float64 AvgPool3D has no kernel (NotFoundError) (fsweep61's
    `pool ... NC* w2 s1 d2 VALID`, observed on TF 2.21)."""
    ksize = [1, 1] + list(window)
    kstrides = [1, 1] + [int(s) for s in st]
    fmt = data_format
    if nsp == 1:
        if data_format != "NCW":
            raise ValueError(f"data_format must be either 'NWC' or 'NCW'. Received: data_format={data_format}")
        fmt, ksize, kstrides = "NCHW", [1] + ksize, [1] + kstrides

    def op(converted: Tensor, _: int, converted_padding: str) -> Tensor:
        if nsp == 1:
            converted = array.expand_dims(converted, 2)
        result = fn(converted, ksize, kstrides, converted_padding, data_format=fmt)
        return array.squeeze(result, [2]) if nsp == 1 else result

    return with_space_to_batch(x, rate, padding, op, filter_shape=window, spatial_dims=range(2, nsp + 2))


def atrous_conv2d_transpose(value: Any, filters: Any, output_shape: Any, rate: int, padding: str,
                            name: str | None = None) -> Tensor:
    """`tf.nn.atrous_conv2d_transpose` (NHWC): conv2d_transpose for rate 1; else SpaceToBatchND
    by rate, Conv2DBackpropInput (VALID) and BatchToSpaceND with TF's pads and crops."""
    from simdist.runtime.ops import dispatch
    from simdist.runtime.ops.conv import CONV2D_BACKPROP_INPUT
    from simdist.runtime.ops.conv_transpose import conv2d_transpose
    from simdist.runtime.ops.space_batch import batch_to_space, space_to_batch_nd
    v, f = _t(value), _t(filters)
    # (TF reads `value.get_shape().dims[3]` and `filters.get_shape()[3]` first: a value of rank
    # below 4 is the list's IndexError, a filter of rank below 4 TensorShape's tuple's; fz15c)
    if v.ndim < 4:
        raise IndexError("list index out of range")
    if f.ndim < 4:
        raise IndexError("tuple index out of range")
    if v.shape[3] != f.shape[3]:
        raise ValueError("`value` channel count must be compatible with `filters` input channel count. Received: "
                         f"value.shape={v.shape} with channel count {v.shape[3]} and filters.shape={f.shape} with "
                         f"input channel count {f.shape[3]}.")
    if rate < 1:
        raise ValueError(f"`rate` cannot be less than one. Received: rate={rate}")
    if rate == 1:
        return conv2d_transpose(v, f, output_shape, strides=[1, 1, 1, 1], padding=padding, data_format="NHWC")
    out = [int(d) for d in (output_shape._v.tolist() if isinstance(output_shape, Tensor) else output_shape)]
    if len(out) != 4:
        raise ValueError(f"`output_shape` must have shape (4,). Received: output_shape=({len(out)},)")
    # (only a list, tuple or ndarray output_shape meets the channel check: a tensor goes on to the
    # Conv2DBackpropInput node, whose types come first; fz39b, fourteenth generator seed 1420393003 #269)
    if isinstance(output_shape, (list, tuple, np.ndarray)) and f.shape[2] != out[3]:
        raise ValueError("`output_shape` channel count must be compatible with `filters` output channel count. "
                         f"Received: output_shape={list(out)} with channel count {out[3]} and filters.shape="
                         f"{f.shape} with output channel count {f.shape[3]}.")
    if padding == "SAME":
        fh, fw = f.shape.as_list()[:2]
        ph, pw = fh + (fh - 1) * (rate - 1) - 1, fw + (fw - 1) * (rate - 1) - 1
        pt, pb, pl, pr = ph // 2, ph - ph // 2, pw // 2, pw - pw // 2
    elif padding == "VALID":
        pt = pb = pl = pr = 0
    else:
        raise ValueError(f"`padding` must be either 'VALID' or 'SAME'. Received: padding={padding}")
    in_h, in_w = out[1] + pt + pb, out[2] + pl + pr
    eb, er = (rate - in_h % rate) % rate, (rate - in_w % rate) % rate
    if isinstance(output_shape, Tensor):   # (TF's pads are then int32 tensor arithmetic: a NumPy float rate converts)
        eb, er = int(eb), int(er)
    # (array_ops.space_to_batch and batch_to_space take `np.array([rate, rate], dtype=np.int64)`: a NumPy
    # float rate is its integer; fz39b, fourteenth generator seed 1420393003 #269)
    block = np.array([rate, rate], dtype=np.int64)
    v = space_to_batch_nd(v, block, [[0, eb], [0, er]])
    rate = int(block[0])
    sizes = (rate * rate * out[0], (in_h + eb) // rate, (in_w + er) // rate, out[3])
    if v.dtype != f.dtype:   # (gen_nn_ops.conv2d_backprop_input's: out_backprop is input #2 and shares T with the
        # filter; op_def_library's TypeError in a graph)
        from simdist.runtime import context
        from simdist.runtime.ops import args
        if context.in_function():
            args.matching([f, v], (), None, "Conv2DBackpropInput", ("filter", "out_backprop"))
        raise args.dtype_error("Conv2DBackpropInput", 2, f.dtype, v.dtype)
    v = dispatch.execute(CONV2D_BACKPROP_INPUT, (f, v), {"strides": (1, 1, 1, 1), "padding": "VALID",
                                                        "explicit_paddings": (), "dilations": (1, 1, 1, 1),
                                                        "input_sizes": sizes})
    return batch_to_space(v, block, [[pt, pb + eb], [pl, pr + er]])


def collapse_repeated(labels: Any, seq_length: Any, name: str | None = None) -> tuple[Tensor, Tensor]:
    """`tf.nn.collapse_repeated`: each row's runs of a repeated label merged into one, within the
    row's seq_length; (collapsed labels [batch, new max length], new lengths int32)."""
    from simdist.runtime.ops import math
    from simdist.runtime.ops.array import boolean_mask, ones_like, range_, reshape
    from simdist.runtime.ops.generators import sequence_mask
    from simdist.runtime.ops.scatter import scatter_nd
    lab, sl = _t(labels), _t(seq_length)
    label_mask = array.concat([ones_like(lab[:, :1], dtypes.bool_), math.not_equal(lab[:, 1:], lab[:, :-1])], axis=1)
    maxlen = lab.shape[1]
    label_mask = math.logical_and(label_mask, sequence_mask(sl, maxlen=maxlen))
    new_seq_len = math.reduce_sum(math.cast(label_mask, dtypes.int32), axis=1)
    new_maxlen = math.reduce_max(new_seq_len)
    idx_mask = sequence_mask(new_seq_len, maxlen=new_maxlen)
    flat_labels = reshape(lab, [-1])
    flat_label_mask = reshape(label_mask, [-1])
    flat_idx_mask = reshape(idx_mask, [-1])
    idx = range_(flat_idx_mask.shape[0])
    flat = scatter_nd(array.expand_dims(boolean_mask(idx, flat_idx_mask), axis=1),
                      boolean_mask(flat_labels, flat_label_mask), array.shape(flat_idx_mask))
    return reshape(flat, [lab.shape[0], new_maxlen]), math.cast(new_seq_len, sl.dtype)
