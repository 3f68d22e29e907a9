"""Binomial draws on TF's Philox streams, bit for bit: `tf.random.stateless_binomial`
(StatelessRandomBinomial) and `tf.random.Generator.binomial` (StatefulRandomBinomial); clause
ops.random-generator.

random_binomial_op.cc: output i (i = batch · samples_per_batch + sample, written at
sample · num_batches + batch) draws from the generator skipped by 256·i (BTRS, when
count·p ≥ 10 in the parameters' dtype) or 42·i (binomial inversion: geometric gaps
ceil(log u / log1p(−p)) summed until they exceed the count). p > 0.5 draws count − X(1 − p);
count ≤ 0 or p ≤ 0 gives 0, p ≥ 1 the count, NaN p NaN. Uniforms are
UniformDistribution<double> pairs handed out last first; log, log1p, sqrt and floor are the C
library's (Python's math). The stateful kernel reads the generator's state and advances its
counter by 256 · (num_batches · 2 · 100 · (samples_per_batch + 3) / 4). FLOPs: ~300 per sample.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from simdist.runtime import context, dtypes, errors
from simdist.runtime.ops import dispatch, philox
from simdist.runtime.ops.args import shape_arg, tf_name
from simdist.runtime.ops.registry import NotDifferentiable, register
from simdist.runtime.tensor import Tensor, convert_to_tensor

__all__ = ["stateless_binomial", "binomial_samples", "stateful_skip"]

_TAIL = (0.0810614667953272, 0.0413406959554092, 0.0276779256849983, 0.02079067210376509, 0.0166446911898211,
         0.0138761288230707, 0.0118967099458917, 0.0104112652619720, 0.00925546218271273, 0.00833056343336287)


def _log(x: float) -> float:
    if x == 0.0:
        return -math.inf
    if x < 0.0 or math.isnan(x):
        return math.nan
    return math.log(x)


class _Uniforms:
    """UNIFORM(X) of the kernel: a pair of doubles per Philox output, handed out last first."""

    __slots__ = ("gen", "pair")

    def __init__(self, gen: philox.Philox) -> None:
        self.gen = gen
        self.pair: list[float] = []

    def __call__(self) -> float:
        if not self.pair:
            self.pair = list(philox.uniform_pair(self.gen.next()))
        return self.pair.pop()


def _inversion(count: float, prob: float, gen: philox.Philox) -> float:
    unif = _Uniforms(gen)
    geom_sum, num = 0.0, 0
    denom = math.log1p(-prob)
    while True:
        u = unif()
        geom = math.ceil(_log(u) / denom) if u != 0.0 else math.inf
        geom_sum += geom
        if geom_sum > count:
            return float(num)
        num += 1


def _tail(k: float) -> float:
    if k <= 9:
        return _TAIL[int(k)]
    kp1sq = (k + 1) * (k + 1)
    return (1.0 / 12 - (1.0 / 360 - 1.0 / 1260 / kp1sq) / kp1sq) / (k + 1)


def _btrs(count: float, prob: float, gen: philox.Philox) -> float:
    stddev = math.sqrt(count * prob * (1 - prob))
    b = 1.15 + 2.53 * stddev
    a = -0.0873 + 0.0248 * b + 0.01 * prob
    c = count * prob + 0.5
    v_r = 0.92 - 4.2 / b
    r = prob / (1 - prob)
    alpha = (2.83 + 5.1 / b) * stddev
    m = math.floor((count + 1) * prob)
    unif = _Uniforms(gen)
    while True:
        u = unif()
        v = unif()
        u = u - 0.5
        us = 0.5 - abs(u)
        k = math.floor((2 * a / us + b) * u + c) if us != 0.0 else math.copysign(math.inf, u)
        if us >= 0.07 and v <= v_r:
            return float(k)
        if k < 0 or k > count:
            continue
        v = _log(v * alpha / (a / (us * us) + b))
        upper = ((m + 0.5) * _log((m + 1) / (r * (count - m + 1))) + (count + 1) * _log((count - m + 1) / (count - k + 1))
                 + (k + 0.5) * _log(r * (count - k + 1) / (k + 1)) + _tail(m) + _tail(count - m) - _tail(k)
                 - _tail(count - k))
        if v <= upper:
            return float(k)


def binomial_samples(gen: philox.Philox, counts: np.ndarray, probs: np.ndarray, shape: tuple[int, ...],
                     out_dtype: np.dtype) -> np.ndarray:
    """RandomBinomialFunctor: the [shape] samples of the broadcast (counts, probs) batch."""
    bshape = np.broadcast_shapes(counts.shape, probs.shape)
    cb, pb = np.broadcast_to(counts, bshape).reshape(-1), np.broadcast_to(probs, bshape).reshape(-1)
    num_batches = int(np.prod(bshape, dtype=np.int64)) if bshape else 1
    total = int(np.prod(shape, dtype=np.int64)) if shape else 1
    spb = total // num_batches if num_batches else 0
    tdt = counts.dtype.type
    out = np.empty(total, np.float64)
    for i in range(total):
        batch, sample = divmod(i, spb)
        count, prob = cb[batch], pb[batch]
        dcount = float(count)
        g = gen.copy()
        if dcount <= 0.0 or prob <= 0:
            val = 0.0
        elif prob >= 1:
            val = dcount
        elif prob <= tdt(0.5):
            dp = float(prob)
            if count * prob >= tdt(10):
                g.skip(256 * i)
                val = _btrs(dcount, dp, g)
            else:
                g.skip(42 * i)
                val = _inversion(dcount, dp, g)
        elif prob > tdt(0.5):
            dq = float(tdt(1) - prob)
            if count * (tdt(1) - prob) >= tdt(10):
                g.skip(256 * i)
                val = dcount - _btrs(dcount, dq, g)
            else:
                g.skip(42 * i)
                val = dcount - _inversion(dcount, dq, g)
        else:
            val = math.nan
        out[sample * num_batches + batch] = val
    if np.dtype(out_dtype).kind in "iu":
        with np.errstate(invalid="ignore"):
            return np.trunc(out).astype(out_dtype).reshape(shape)
    return out.astype(out_dtype).reshape(shape)


def _check(shape: tuple[int, ...], counts: np.ndarray, probs: np.ndarray, op: str) -> None:
    """The kernels' checks in their order (random_binomial_op.cc): the shape (tensor::MakeShape), then
    the parameters' broadcast and the shape's suffix."""
    for d in shape:
        if d < 0:
            raise errors.InvalidArgumentError(None, None, f"Dimension {d} must be >= 0 [Op:{op}]")
    try:
        bshape = np.broadcast_shapes(counts.shape, probs.shape)
    except ValueError:
        raise errors.InvalidArgumentError(None, None, "counts and probs must have compatible batch dimensions: "
                                          f"{list(counts.shape)} vs. {list(probs.shape)} [Op:{op}]") from None
    if len(bshape) > len(shape) or tuple(shape[len(shape) - len(bshape):]) != tuple(bshape):
        raise errors.InvalidArgumentError(None, None, f"Shape passed in must end with broadcasted shape. [Op:{op}]")


def _stateless(seed: np.ndarray, counts: np.ndarray, probs: np.ndarray, shape: tuple, dtype: dtypes.DType) -> np.ndarray:
    _check(shape, counts, probs, "StatelessRandomBinomial")
    s = [int(v) for v in np.asarray(seed).reshape(-1)]
    return binomial_samples(philox.stateless(s[0], s[1]), counts, probs, shape, dtype._np)


_T = ("half", "float", "double", "int32", "int64")


def _rule(name: str) -> Any:
    def rule(dts: Any, attrs: Any) -> dtypes.DType:
        t = dts[-2]
        if tf_name(t) not in _T and t.name not in ("float16", "float32", "float64", "int32", "int64"):
            raise errors.InvalidArgumentError(None, None, f"Value for attr 'T' of {tf_name(t)} is not in the list of "
                                              f"allowed values: half, float, double, int32, int64 [Op:{name}]")
        if context.in_function():
            # (op_def_library builds the node before any kernel is sought: probs must have counts' T,
            # then the dtype attr its list, both TypeError at trace; the missing int32/int64 kernel
            # only when the graph runs; fz30b, fz14 seed 1420303008 #135)
            if dts[-1] != t:
                raise TypeError(f"Input 'probs' of '{name}' Op has type {dts[-1].name} that does not match type "
                                f"{t.name} of argument 'counts'.")
            if attrs["dtype"].name not in ("float16", "float32", "float64", "int32", "int64"):
                raise TypeError(f"Value passed to parameter for attr 'dtype' has DataType {attrs['dtype'].name} not "
                                "in list of allowed values: float16, float32, float64, int32, int64")
        out = attrs["dtype"]   # (the NodeDef's attr lists before the kernel lookup, eagerly too)
        if out.name not in ("float16", "float32", "float64", "int32", "int64"):
            raise errors.InvalidArgumentError(None, None, f"Value for attr 'dtype' of {tf_name(out)} is not in the list "
                                              f"of allowed values: half, float, double, int32, int64 [Op:{name}]")
        if t.name in ("int32", "int64"):   # allowed by the op, no CPU kernel (T: half, float, double)
            if name == "StatefulRandomBinomial":
                # (placed by its resource input, the kernel lookup on that device fails: InvalidArgumentError "No
                # OpKernel was registered", where the stateless op has no device at all; TF 2.21 observed, blind53)
                raise errors.InvalidArgumentError(
                    None, None, f"No OpKernel was registered to support Op '{name}' used by {{{{node {name}}}}} with "
                    f"these attrs: [T=DT_{t.name.upper()}, dtype=DT_{out.name.upper()}] [Op:{name}]")
            raise errors.NotFoundError(None, None, f"Could not find device for node: {{{{node {name}}}}} = {name}"
                                       f"[T=DT_{t.name.upper()}] [Op:{name}]")
        if dts[-1] != t:
            raise errors.InvalidArgumentError(None, None, f"cannot compute {name} as input #{len(dts) - 1}(zero-based) "
                                              f"was expected to be a {t.name} tensor but is a {dts[-1].name} tensor "
                                              f"[Op:{name}]")
        return out
    return rule


STATELESS_BINOMIAL = register("StatelessRandomBinomial", _stateless, _rule("StatelessRandomBinomial"),
                              lambda arrays, out, a: 300.0 * np.asarray(out).size, kind="random")
NotDifferentiable("StatelessRandomBinomial")


def _stateful(state: np.ndarray, counts: np.ndarray, probs: np.ndarray, shape: tuple,
              dtype: dtypes.DType) -> np.ndarray:
    _check(shape, counts, probs, "StatefulRandomBinomial")
    s = [int(v) & ((1 << 64) - 1) for v in state.tolist()]
    gen = philox.Philox((s[2] & 0xFFFFFFFF, s[2] >> 32), s[0] | (s[1] << 64))
    return binomial_samples(gen, counts, probs, shape, dtype._np)


STATEFUL_BINOMIAL = register("StatefulRandomBinomial", _stateful, _rule("StatefulRandomBinomial"),
                             lambda arrays, out, a: 300.0 * np.asarray(out).size, kind="random")
NotDifferentiable("StatefulRandomBinomial")


def stateful_skip(shape: tuple[int, ...], counts: Tensor, probs: Tensor) -> int:
    """The outputs StatefulRandomBinomial reserves (its counter moves 256 times this)."""
    bshape = np.broadcast_shapes(tuple(counts.shape.as_list()), tuple(probs.shape.as_list()))
    num_batches = int(np.prod(bshape, dtype=np.int64)) if bshape else 1
    total = int(np.prod(shape, dtype=np.int64)) if shape else 1
    spb = total // num_batches if num_batches else 0
    return num_batches * 2 * 100 * (spb + 3) // 4


def _params(counts: Any, probs: Any) -> tuple[Tensor, Tensor]:
    """TF's wrapper: probs converted with a float32 hint, counts with probs' dtype as the hint."""
    p = probs if isinstance(probs, Tensor) else _convert(probs, dtypes.float32)
    c = counts if isinstance(counts, Tensor) else _convert(counts, p.dtype)
    return c, p


def _convert(value: Any, hint: dtypes.DType) -> Tensor:
    """convert_to_tensor with a dtype hint (TF's preferred_dtype, as convert_to_tensor models it:
    eagerly a NumPy array takes the hint too, `probs=np.array([1, 3], np.uint64)` is float32)."""
    return convert_to_tensor(value, dtype_hint=hint)


def stateless_binomial(shape: Any, seed: Any, counts: Any, probs: Any, output_dtype: Any = dtypes.int32,
                       name: str | None = None) -> Tensor:
    """`tf.random.stateless_binomial`: Binomial(counts, probs) draws of `shape` from the seed pair."""
    from simdist.runtime.ops.random import _seed
    shp = shape_arg(shape)
    c, p = _params(counts, probs)
    s = _seed(seed, "StatelessRandomBinomial")
    out_dt = dtypes.as_dtype(output_dtype)
    try:
        return dispatch.execute(STATELESS_BINOMIAL, (s, c, p), {"shape": shp, "dtype": out_dt})
    except errors.NotFoundError as e:
        # (the missing int32/int64 kernel is looked up when the graph runs: a dry run of the traced Python goes
        # on with an output of the shape and dtype asked for, so a later op's graph-build error is the trace's,
        # approx_max_k's int64 TypeError; fz32b, fz14_known's seed 14 #119)
        if not dispatch.deferred_kernel(e):
            raise
        return dispatch.refused(e, out_dt, list(shp))
