"""`tf.nn`'s ops: BiasAdd (and BiasAddGrad), dropout, embedding lookups, and the public
functions of the nn op modules in one namespace (activations, losses, conv, pooling,
normalization), as simdist/tf/nn.py exposes them.

Dropout is composed as TF 2.21 composes it (scale, a uniform draw, `>= rate`, select), so its
gradient is TF's; its draw is TF's RandomUniform (runtime/ops/random.py: TF's Philox values under
a global or op seed; without one, seeds from the machine's root seed). stateless_dropout's mask is a function of its seed pair alone: TF's mask bit
for bit (the uniform draw is TF's Philox StatelessRandomUniformV2, runtime/ops/philox.py).
"""

from __future__ import annotations

import numbers
from typing import Any, Sequence

import numpy as np

from simdist.runtime import context, dtypes, errors
from simdist.runtime.ops import args, array, dispatch, math, random, unary
from simdist.runtime.ops import trace_errors
from simdist.runtime.ops.activations import (elu, gelu, leaky_relu, log_softmax, relu, relu6, selu, sigmoid,  # noqa: F401
                                             silu, softmax, softplus, softsign, swish, tanh)
from simdist.runtime.ops.args import t as _t
from simdist.runtime.ops.conv import conv1d, conv2d, convolution, depthwise_conv2d, separable_conv2d  # noqa: F401
from simdist.runtime.ops.losses import (compute_average_loss, l2_loss, scale_regularization_loss,  # noqa: F401
                                        sigmoid_cross_entropy_with_logits, softmax_cross_entropy_with_logits,
                                        sparse_softmax_cross_entropy_with_logits, weighted_cross_entropy_with_logits)
from simdist.runtime.ops.nan_operands import first_nan
from simdist.runtime.ops.nn_rules import REAL_NUMBERS, attr_error, tf_repr, typed
from simdist.runtime.ops.normalization import batch_normalization, l2_normalize, moments  # noqa: F401
from simdist.runtime.ops.pooling import avg_pool, avg_pool2d, max_pool, max_pool2d  # noqa: F401
from simdist.runtime.ops.registry import RegisterGradient, lanes, register, rows
from simdist.runtime.tensor import Tensor, TensorShape, convert_to_tensor

__all__ = ["bias_add", "dropout", "stateless_dropout", "embedding_lookup"]

_BIAS_TYPES = REAL_NUMBERS + ", complex64, complex128"


# --- BiasAdd --------------------------------------------------------------------------------------
def _channel_axis(ndim: int, data_format: str) -> int:
    return 1 if data_format == "NCHW" else ndim - 1


def _bias_add(x: np.ndarray, b: np.ndarray, data_format: str = "NHWC") -> np.ndarray:
    if x.ndim < 2:   # traced: the shape function's ValueError (second fuzzer, seed 6 #69)
        raise trace_errors.shape_error(f"Input tensor must be at least 2D: {_dims(x.shape)} [Op:BiasAdd]",
                                       f"Shape must be at least rank 2 but is rank {x.ndim}", "BiasAdd",
                                       (x.shape, b.shape))
    if data_format == "NCHW" and x.ndim == 2 and context.in_function():
        # BiasAddShape's WithRankAtLeast(3) for NCHW, in a graph only: the eager kernel adds a matrix's columns
        # (rgrads BiasAdd)
        raise trace_errors.shape_error("Input tensor must be at least 3D for NCHW [Op:BiasAdd]",
                                       "Shape must be at least rank 3 but is rank 2", "BiasAdd", (x.shape, b.shape))
    if b.ndim != 1:
        raise trace_errors.shape_error(f"Biases must be 1D: {_dims(b.shape)} [Op:BiasAdd]",
                                       f"Shape must be rank 1 but is rank {b.ndim}", "BiasAdd", (x.shape, b.shape))
    ax = _channel_axis(x.ndim, data_format)
    if b.shape[0] != x.shape[ax]:
        raise trace_errors.shape_error(
            f"Must provide as many biases as the {'channel' if data_format == 'NCHW' else 'last'} "
            f"dimension of the input tensor: {_dims(b.shape)} vs. {_dims(x.shape)} [Op:BiasAdd]",
            f"Dimensions must be equal, but are {x.shape[ax]} and {b.shape[0]}", "BiasAdd", (x.shape, b.shape))
    out = _bias_sum(x, b, ax)
    if out.dtype.kind == "f":
        # Eigen's `input + bias.broadcast(...)`: an x86 add keeps its first NaN operand, the input's where both are
        # NaNs; NumPy's broadcast loop takes the bias's for some elements (blind63a, test_blind84_gaps
        # kernel-merge-layers-nan-payloads: float32 (6, 5) + (5,))
        out = first_nan(out, x, b if ax == x.ndim - 1 else b.reshape((b.shape[0],) + (1,) * (x.ndim - 2)))
    elif out.dtype.name == "bfloat16" and out.size:
        # (bfloat16 through float32: the scalar tail's NaN the first NaN operand's sign, the input's before the
        # bias's; the packets' (8 lanes, flat) the positive 0x7fc0 of F32ToBf16; TF 2.21, nansweep67)
        from simdist.runtime.ops.packet_math import bf16_packet_nans
        bb = b if ax == x.ndim - 1 else b.reshape((b.shape[0],) + (1,) * (x.ndim - 2))
        wide = first_nan(out.astype(np.float32), x.astype(np.float32), bb.astype(np.float32))
        nan = np.isnan(wide)
        if nan.any():
            out = np.array(out, copy=True)
            out.view(np.uint16)[nan] = np.where(np.signbit(wide[nan]), 0xFFC0, 0x7FC0).astype(np.uint16)
            out = bf16_packet_nans(out)
    return out


def _bias_sum(x: np.ndarray, b: np.ndarray, ax: int) -> np.ndarray:
    if ax == x.ndim - 1:
        return x + b
    return x + b.reshape((b.shape[0],) + (1,) * (x.ndim - 2))


def _bias_add_grad(g: np.ndarray, data_format: str = "NHWC") -> np.ndarray:
    """The sum over every axis but the channel's; float16 accumulates in float32 and rounds once
    (TF's AccumulatorType<half>, measured bit-exact on TF 2.21; bfloat16 does not: summed as is).
    bias_op.cc's check first: a rank of at least 2 (a raw call's vector; rawfz21, seed 2020261202 #236)."""
    if g.ndim < 2:   # (a graph that knows the rank refuses it at trace: BiasAddGrad's shape function,
        # shape_fns_nn.py; of an unknown rank the kernel when the graph runs, fz20_seen's seed 2520261205 #98)
        raise errors.InvalidArgumentError(None, None, f"Input tensor must be at least 2D: {_dims(g.shape)} "
                                                      "[Op:BiasAddGrad]")
    ax = _channel_axis(g.ndim, data_format)
    axes = tuple(i for i in range(g.ndim) if i != ax)
    if g.size and int(np.prod([g.shape[i] for i in axes], dtype=np.int64)) == 1:
        # one value a channel (a one-row batch): TF 2.21 returns it as it is, a -0.0 kept, where a sum of two or more
        # starts from +0 (every dtype, NHWC and NCHW, eagerly and traced; kopen57: a Dense bias's gradient on a
        # one-row batch, tests/ops/test_bias_add_grad_one_row_tf.py)
        return np.array(g.reshape(g.shape[ax]), copy=True)
    acc = g.astype(np.float32) if g.dtype == np.float16 else g
    if ax == g.ndim - 1 and g.shape[-1] == 1 and acc.dtype.kind in "fc":
        # One channel (a one-unit Dense's bias through tf.nn.bias_add): Eigen reduces the outer axis of the
        # [rows, 1] matrix row by row from 0, one rounding a row; NumPy's reduce of the contiguous column is its
        # pairwise sum, another order from 8 rows on (blind53b's bias_probe.py: 8 and 16 rows a few ulp off)
        flat = acc.reshape(-1)
        out = (np.add.accumulate(flat)[-1:] + acc.dtype.type(0)) if flat.size else np.zeros(1, acc.dtype)
        return out.astype(g.dtype)
    if g.dtype == np.float16:
        return np.add.reduce(acc, axis=axes).astype(np.float16)
    return np.add.reduce(g, axis=axes, dtype=g.dtype)


def _dims(shape: Sequence[int]) -> str:
    return "[" + ",".join(str(int(d)) for d in shape) + "]"


def _rank_at_least_2(attrs: dict, lane_shapes: list) -> bool:
    """BiasAddGrad of a lane of rank >= 2 sums over its batch rows (the first axis)."""
    return len(lane_shapes[0]) >= 2


BIAS_ADD = register("BiasAdd", _bias_add, typed("BiasAdd", _BIAS_TYPES), kind="nn", fusion=rows(0))


def _bias_add_sees(shapes: list, attrs: dict | None) -> bool:
    """BiasAddShape: the ranks, and the channel dimension merged with the bias's only where both
    are known (fz7 ext seed 82 #158)."""
    xs, bs = shapes[0], shapes[1]
    if xs is None:   # (WithRankAtLeast passes an unknown rank; the bias's WithRank(1) still runs; fz23b:
        return bs is not None and len(bs) != 1   # fourth generator seed 2301 #56)
    if len(xs) < 2 or (len(xs) < 3 and (attrs or {}).get("data_format", "NHWC") == "NCHW"):
        return True
    if bs is None:
        return False
    if len(bs) != 1:
        return True
    d = xs[_channel_axis(len(xs), (attrs or {}).get("data_format", "NHWC"))]
    return d is not None and bs[0] is not None and d != bs[0]


BIAS_ADD.shape_fn = _bias_add_sees
BIAS_ADD_GRAD = register("BiasAddGrad", _bias_add_grad, typed("BiasAddGrad", _BIAS_TYPES),
                         lambda arrays, out, attrs: float(arrays[0].size), kind="reduction",
                         fusion=lanes("sums over the lane's rows: no stacked form; its cross-replica sum is fused (sums)"),
                         sums=_rank_at_least_2)


def bias_add(value: Any, bias: Any, data_format: str | None = None, name: str | None = None) -> Tensor:
    """`tf.nn.bias_add`: value + bias along the last dimension (the channel one for NC...)."""
    fmt = "NHWC"
    if data_format is not None:
        if data_format.startswith("NC"):
            fmt = "NCHW"
        elif not (data_format.startswith("N") and data_format.endswith("C")):
            raise ValueError(f"`data_format` must be of the form `N...C` or `NC...`. Received: "
                             f"data_format={data_format}")
    if context.in_function():   # (nn_ops.bias_add converts value, then bias with its dtype, in a graph only)
        x = _t(value)
        b = convert_to_tensor(bias, dtype=x.dtype)
    else:   # (eagerly the generated op's: value and bias share T, a Python value takes the tensor's dtype:
        # `bias_add(-2.5, int32 tensor)` is "Cannot convert -2.5 to EagerTensor of dtype int32"; fz31b,
        # fz14 seed 1420313006 #88)
        x, b = args.matching([value, bias], op="BiasAdd", names=("value", "bias"))
    return dispatch.execute(BIAS_ADD, (x, b), {"data_format": fmt})


@RegisterGradient("BiasAdd")
def _bias_add_grad_fn(op: Any, grad: Any) -> list:
    return [grad, dispatch.execute(BIAS_ADD_GRAD, (grad,), {"data_format": op.get_attr("data_format")})]


@RegisterGradient("BiasAddGrad")
def _bias_add_grad_grad(op: Any, grad: Any) -> list:
    """TF's _BiasAddGradGrad: the bias gradient tiled back over the input's shape (a broadcast)."""
    shape = op.inputs[0].shape.as_list()
    ax = _channel_axis(len(shape), op.get_attr("data_format"))
    expanded = array.reshape(grad, [d if i == ax else 1 for i, d in enumerate(shape)])
    return [array.broadcast_to(expanded, shape)]


# --- dropout ------------------------------------------------------------------------------------------------
def _noise_shape(x: Tensor, noise_shape: Any) -> list[int]:
    """TF's _get_noise_shape: None means x's shape; None dims of a same-rank noise_shape take x's."""
    xs = x.shape.as_list()
    if noise_shape is None:
        return xs
    if isinstance(noise_shape, Tensor):
        noise_shape = noise_shape._v.tolist()
    dims = list(noise_shape)
    from simdist.runtime.ops import static_shapes
    known = static_shapes.known_shape(x) if context.in_function() else xs
    if known is not None and len(dims) == len(known):
        dims = [xd if d is None else d for d, xd in zip(dims, known)]
        if any(d is None for d in dims):   # (a TensorShape that x's unknown dimensions leave partial: its conversion
            # for the uniform's shape; gsweep63 g-dropout-noise "equal None unknown dims")
            raise ValueError(f"Cannot convert a partially known TensorShape {tuple(dims)} to a Tensor.")
    elif any(d is None for d in dims):   # (the list itself, another rank's or x's rank unknown: converting None is
        # ValueError eagerly, TypeError in a graph (make_tensor_proto); gsweep63 "lower None", "all None unknown rank")
        if context.in_function():
            raise TypeError(f"Failed to convert elements of {dims} to Tensor. Consider casting elements to a "
                            "supported type. See https://www.tensorflow.org/api_docs/python/tf/dtypes for supported "
                            "TF dtypes.")
        raise ValueError("Attempt to convert a value (None) with an unsupported type (<class 'NoneType'>) to a "
                         "Tensor.")
    return [int(d) for d in dims]


def _check_rate(rate: Any) -> None:
    if isinstance(rate, numbers.Real) and not isinstance(rate, bool) and (rate < 0 or rate >= 1):
        raise ValueError(f"`rate` must be a scalar tensor or a float in the range [0, 1). Received: rate={rate}")


def _dropout(x: Any, rate: Any, noise_shape: Any, sample: Any) -> Tensor:
    """TF's _dropout: x / (1 - rate) where uniform(noise_shape) >= rate, else 0."""
    _check_rate(rate)
    x = _t(x)
    if not x.dtype.is_floating:
        raise ValueError(f"`x.dtype` must be a floating point tensor as `x` will be scaled. Received: "
                         f"x_dtype={tf_repr(x.dtype)}")
    is_number = isinstance(rate, numbers.Real) and not isinstance(rate, bool)
    if is_number and rate == 0:
        return x
    if isinstance(rate, Tensor):
        if rate.ndim != 0:
            raise ValueError(f"Shape {rate.shape} must have rank 0")
        if rate.dtype != x.dtype:
            # (TF's `rate_dtype.is_compatible_with(x_dtype)` holds only for the same base dtype, so its
            # cast branch never runs for two value dtypes: a float32 rate with float64 x is refused;
            # fz20: fz14 seed 1420261219 #474)
            raise ValueError(f"`x.dtype` must be compatible with `rate.dtype`. Received: "
                             f"x.dtype={tf_repr(x.dtype)} and rate.dtype={tf_repr(rate.dtype)}")
        ret = math.truediv(x, math.subtract(array.constant(1, dtype=x.dtype), rate))
    elif is_number:
        ret = math.multiply(x, convert_to_tensor(1 / (1 - rate), dtype=x.dtype))
    else:
        raise ValueError(f"`rate` must be a scalar or scalar tensor. Received: rate={rate}")
    shape = _noise_shape(x, noise_shape)
    keep_mask = math.greater_equal(sample(shape, x.dtype), rate)
    xs = x.shape.as_list()
    try:
        np.broadcast_shapes(tuple(shape), tuple(xs))
    except ValueError:
        err = errors.InvalidArgumentError(None, None, f"condition {_dims(shape)}, then {_dims(xs)}, and else [] must "
                                          "be broadcastable [Op:SelectV2]")
        kx = _select_known(x, shape)
        if kx is None:   # (a dimension the graph does not know: the kernel's error when it runs)
            return dispatch.refused(err, x.dtype, xs, pruned=True)
        raise trace_errors.mark_shape(err, trace_errors.broadcast_text(shape, kx), "SelectV2",
                                      (shape, kx, [])) from None
    out = math.where(keep_mask, ret, array.constant(0, dtype=x.dtype))
    if context.in_function():
        _set_shape(out, x)
    return out


def _select_known(x: Tensor, noise: list[int]) -> list[int | None] | None:
    """x's shape as SelectV2's shape function sees it beside the keep mask's (the noise shape, a
    constant), when it sees that they do not broadcast (a pair of known sizes that differ, neither
    1); None when it cannot (a dimension of x the graph does not know: an input_signature [None]
    with noise_shape (0,) builds, and the kernel refuses when the graph runs: fz31b, fz14 seed
    1420313001 #137). Eagerly x's shape."""
    from simdist.runtime.ops import static_shapes
    kx = static_shapes.known_shape(x) if context.in_function() else x.shape.as_list()
    if kx is None:
        return None
    for a, b in zip(reversed(noise), reversed(kx)):
        if b is not None and a != b and a != 1 and b != 1:
            return kx
    return None


def _set_shape(out: Tensor, x: Tensor) -> None:
    """_dropout's `ret.set_shape(x.get_shape())` in a graph: the result (the noise shape broadcast
    with x's) must merge with x's static shape, else MergeShapes' ValueError at trace (fz14 seed
    1420262402 #216: a scalar x and noise_shape [2, 3])."""
    from simdist.runtime.ops import static_shapes
    ko, kx = static_shapes.known_shape(out), static_shapes.known_shape(x)
    if ko is None or kx is None:
        return
    if len(ko) != len(kx):
        raise ValueError(f"Shapes must be equal rank, but are {len(ko)} and {len(kx)}")
    for i, (a, b) in enumerate(zip(ko, kx)):
        if a is not None and b is not None and a != b:
            raise ValueError(f"Dimension {i} in both shapes must be equal, but are {a} and {b}. Shapes are "
                             f"{_dims(ko)} and {_dims(kx)}.")


def dropout(x: Any, rate: Any, noise_shape: Any = None, seed: int | None = None, name: str | None = None) -> Tensor:
    """`tf.nn.dropout` (v2): each element kept with probability 1 - rate and scaled by
    1 / (1 - rate); noise_shape broadcasts the keep/drop decisions. Deterministic under the
    root seed (`simdist.configure(seed=...)`), `tf.random.set_seed` and `seed`; under a global or
    op seed the values are TF's (RandomUniform's Philox draw, clause ops.random-bits)."""
    def sample(shape: list[int], dt: dtypes.DType) -> Tensor:
        return random.uniform(shape, dtype=dt, seed=seed)
    return _dropout(x, rate, noise_shape, sample)


def stateless_dropout(x: Any, rate: Any, seed: Any, rng_alg: Any = None, noise_shape: Any = None,
                      name: str | None = None) -> Tensor:
    """`tf.nn.experimental.stateless_dropout`: dropout whose mask depends only on `seed` (a pair
    of ints): the same seed gives the same mask, whatever the global seed: TF's mask (its Philox
    uniform draw). The draw is TF's sampler, `stateless_random_uniform(seed=seed, alg=rng_alg)`, called after
    _dropout's checks of x and rate: its algorithm's errors (an unknown name's ValueError, ThreeFry's counter error
    on CPU) come from it (TF 2.21, nn_ops.stateless_dropout)."""
    def sample(shape: list[int], dt: dtypes.DType) -> Tensor:
        return random.stateless_uniform(list(shape), seed, dtype=dt, alg=rng_alg)
    return _dropout(x, rate, noise_shape, sample)


def general_dropout(x: Any, rate: Any, uniform_sampler: Any, noise_shape: Any = None, name: str | None = None) -> Tensor:
    """`tf.nn.experimental.general_dropout`: dropout whose keep/drop draws come from
    `uniform_sampler(shape=noise_shape, dtype=x.dtype)` (TF's _dropout with the caller's sampler;
    the shape as TF's _get_noise_shape gives it: `tf.shape(x)` for None, a TensorShape for a
    noise shape of x's rank, else the noise shape as given)."""
    def sample(shape: list[int], dt: dtypes.DType) -> Tensor:
        if noise_shape is None:
            given: Any = array.constant(list(shape), dtype=dtypes.int32)
        elif _t(x).ndim == len(shape):
            given = TensorShape(list(shape))
        else:
            given = noise_shape
        return uniform_sampler(shape=given, dtype=dt)
    return _dropout(x, rate, noise_shape, sample)


# --- embedding lookups ------------------------------------------------------------------------------------
def _clip_rows(values: Tensor, ids_rank: int, max_norm: Any) -> Tensor:
    """TF's embedding_ops._clip: clip_ops.clip_by_norm(params, max_norm, axes) over the embedding's
    own axes, so max_norm follows clip_by_norm's rules (a tensor or array is cast to the values'
    dtype after maximum(max_norm, 0): a float32 max_norm clips float64 rows, as in TF 2.21, where
    simdist had converted it with the rows' dtype, ValueError; fz45, fz14 seed 1420453001 #281)."""
    from simdist.runtime.ops.clip import clip_by_norm
    axes = list(range(ids_rank, values.ndim))
    return clip_by_norm(values, max_norm, axes=axes)


def _div_partitions(params: Sequence[Any]) -> Any:
    """A list of partitions in TF's "div" layout (the first N % P hold one extra row): their
    concatenation, which the ids index directly."""
    sizes = [int(_t(p).shape[0]) if not hasattr(p, "shape") else int(p.shape[0]) for p in params]
    total, parts = sum(sizes), len(sizes)
    want = [total // parts + (1 if i < total % parts else 0) for i in range(parts)]
    if sizes != want:
        raise ValueError(f"simdist: embedding_lookup on a list of {parts} partitions needs TF's 'div' layout (rows "
                         f"{want}), got rows {sizes}")
    return array.concat([_t(p) for p in params], 0)


def embedding_lookup(params: Any, ids: Any, max_norm: Any = None, name: str | None = None) -> Tensor:
    """`tf.nn.embedding_lookup` (v2): the rows of params at ids (shape ids.shape + params.shape[1:]);
    a ShardedVariable's shards each gather their rows, stitched back in the ids' order (unlike
    tf.gather's shard order: clause pss.sharded-gather), a list of partitions is read in TF's
    "div" layout; max_norm clips each embedding's L2 norm."""
    if isinstance(params, (list, tuple)):
        if not params:
            raise ValueError("Length of `params` must be greater than 0. Received: params=[]")
        params = params[0] if len(params) == 1 else _div_partitions(params)
    ids_t = _t(ids)
    if not ids_t.dtype.is_integer or ids_t.dtype.name in ("int8", "uint8", "uint16"):
        raise attr_error("GatherV2", ids_t.dtype, "int16, int32, int64", attr="Tindices")
    if hasattr(params, "_gather_rows"):
        out = params._gather_rows(ids_t)
        return out if max_norm is None else _clip_rows(out, ids_t.ndim, max_norm)
    out = array.gather(params, ids_t)
    out = out if max_norm is None else _clip_rows(out, ids_t.ndim, max_norm)
    # TF closes with array_ops.identity: the tape does not record it for an integer result, so an
    # integer variable's rows have no gradient (None; tf.gather alone gives IndexedSlices)
    return array.identity(out)
