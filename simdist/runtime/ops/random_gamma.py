"""`tf.random.gamma`, `tf.random.poisson`, `tf.random.stateless_gamma`, `tf.random.stateless_poisson`:
TF's kernels on TF's Philox streams, so the values are TF 2.21's bit for bit (clause
`ops.random-gamma-poisson`).

Stateful ops resolve their (seed, seed2) attrs as TF's `random_seed.get_seed` does eagerly: a global
seed with an op seed gives (global, op); a global seed alone takes the op seed from
`random.Random(global seed)` (TF's context._rng, which every seedless random op of the facade
advances: random.draw_op_seed); an op seed alone pairs it with 87654321; neither is random in TF, two
draws of the machine's root-seeded stream here. Each (op type, seed, seed2, dtypes) is one kernel
with its own Philox generator that moves on by 256 outputs per sample drawn, as TF's cached eager
kernels do; `tf.random.set_seed` restarts them all (TF clears its kernel cache). The stateless ops
take the generator from their seed pair (GenerateKey) every call.
Gradients: RandomGamma and StatelessRandomGammaV3 as TF's random_grad.py (the implicit
reparameterisation: RandomGammaGrad, then summed over the sample dimensions); the Poisson ops have
none (LookupError, StatelessRandomPoisson declared not differentiable).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from simdist.runtime import dtypes, errors, execution
from simdist.runtime.ops import dispatch, gamma_poisson, philox, trace_errors
from simdist.runtime.ops.args import dims, t as _t, tf_name
from simdist.runtime.ops.counting import no_tf_gradient
from simdist.runtime.ops.registry import NotDifferentiable, RegisterGradient, lanes, register
from simdist.runtime.tensor import Tensor, convert_to_tensor

__all__ = ["gamma", "poisson", "stateless_gamma", "stateless_poisson", "tf_seeds"]

_cur = execution._current
_MAXINT32 = 2**31 - 1
_DEFAULT_GRAPH_SEED = 87654321
# TF's Shard cost estimates per sample (random_gamma_op.cc, random_poisson_op.cc): the loop's
# arithmetic plus its Normal/Uniform/Philox calls, in their own cost units
_GAMMA_COST = 85 + 2 * 70 + 4 + 3 * 10
_POISSON_COST = 165 + 6 * 4 + 6 * 10
_POISSON_OUT = "half, float, double, int32, int64"
_HIGHEST = {"float16": 65504.0, "float32": float(np.finfo(np.float32).max), "float64": float(np.finfo(np.float64).max),
            "int32": float(2**31 - 1), "int64": float(2**63 - 1)}


def tf_seeds(op_seed: Any) -> tuple[int, int]:
    """random_seed.get_seed(op_seed): the (seed, seed2) attrs of a stateful op, eagerly or in the
    graph of a tf.function being traced (its graph seed and op-seed counter: random_graphs.py)."""
    from simdist.runtime.ops import random as _random, random_graphs
    sc = random_graphs.current()
    g = _cur.ctx.rng.get("global") if sc is None else sc.trace.seed
    if g is not None:
        s = _random.draw_op_seed() if op_seed is None else int(op_seed)
        seeds = (int(g) % _MAXINT32, s % _MAXINT32)
    elif op_seed is not None:
        seeds = (_DEFAULT_GRAPH_SEED, int(op_seed) % _MAXINT32)
    else:   # TF: nondeterministic seeds (refused under op determinism); simdist: a pair from the root seed
        if _random.determinism_required():
            raise RuntimeError(_random.SEED_REQUIRED)
        return _random.unseeded_pair()
    return (0, _MAXINT32) if seeds == (0, 0) else seeds


def _reserve(key: tuple, seed: int, seed2: int, outputs: int, kernel: Any = None) -> philox.Philox:
    """The kernel's generator before this call (GuardedPhiloxRandom::ReserveRandomOutputs): the
    kernel's stream (random._kernel: cached eager, or the traced function's), moved on by 256
    outputs per sample."""
    from simdist.runtime.ops import random as _random
    return _random._kernel(key, seed, seed2, outputs * gamma_poisson.RESERVED, kernel)


def _cast(samples: np.ndarray, dt: dtypes.DType) -> np.ndarray:
    """static_cast<T>(double): half through float, as Eigen's half(double) rounds."""
    if dt == dtypes.float16:
        return samples.astype(np.float32).astype(np.float16)
    if dt.is_integer:
        return np.where(np.isinf(samples), 0, samples).astype(dt._np)   # NumTraits<int>::infinity() is 0
    return samples.astype(dt._np)


def _check_poisson_rates(rate: np.ndarray, dt: dtypes.DType, opname: str) -> None:
    """Rates on which TF's kernel never returns (its rejection loop cannot accept): refused."""
    r = np.asarray(rate, np.float64)
    bad = np.isnan(r) | (np.isfinite(r) & (r >= 10) & (r > _HIGHEST[dt.name]))
    if bad.any():
        v = float(r[bad].reshape(-1)[0])
        raise errors.InvalidArgumentError(None, None, f"rate {v} cannot be sampled as {dt.name}: TF's {opname} kernel "
                                          f"loops forever on it (NaN, or above the output type's largest value) "
                                          f"[Op:{opname}]")


# --- the ops -------------------------------------------------------------------------------------------------
def _gamma(alpha: np.ndarray, shape: tuple, seed: int, seed2: int, dtype: dtypes.DType,
           kernel: Any = None) -> np.ndarray:
    n = int(np.prod(shape, dtype=np.int64))
    if n == 0 or alpha.size == 0:
        return np.zeros(shape + alpha.shape, dtype._np)
    gen = _reserve(("RandomGamma", seed, seed2, dtype.name), seed, seed2, n * alpha.size, kernel)
    return _cast(gamma_poisson.gamma_samples(gen, alpha, n), dtype).reshape(shape + alpha.shape)


def _poisson(rate: np.ndarray, shape: tuple, seed: int, seed2: int, dtype: dtypes.DType,
             kernel: Any = None) -> np.ndarray:
    n = int(np.prod(shape, dtype=np.int64))
    if n == 0 or rate.size == 0:
        return np.zeros(shape + rate.shape, dtype._np)
    _check_poisson_rates(rate, dtype, "RandomPoissonV2")
    gen = _reserve(("RandomPoissonV2", seed, seed2, rate.dtype.name, dtype.name), seed, seed2, n * rate.size,
                   kernel)
    out = gamma_poisson.poisson_samples(gen, rate, n, _HIGHEST[dtype.name])
    return _cast(out, dtype).reshape(shape + rate.shape)


def _split(shape: tuple, param: np.ndarray, opname: str) -> int:
    """The stateless ops' samples per parameter: `shape` must end with the parameters' shape."""
    k = param.ndim
    if k > len(shape) or tuple(shape[len(shape) - k:]) != param.shape:
        raise errors.InvalidArgumentError(None, None, f"Shape passed in must end with broadcasted shape. [Op:{opname}]")
    return int(np.prod(shape[:len(shape) - k], dtype=np.int64))


def _seed_pair(seed: np.ndarray) -> tuple[int, int]:
    s = np.asarray(seed).reshape(-1)
    return int(s[0]), int(s[1])


def _empty(shape: tuple) -> bool:
    """StatelessRandomOpBase::Compute returns an empty output before its Fill checks the parameters'
    shape (fuzz20 sig seed 3020261202 #45: `stateless_gamma([0, 2], alpha=ones([3]))` is empty)."""
    return int(np.prod(shape, dtype=np.int64)) == 0


def _stateless_gamma(alpha: np.ndarray, seed: np.ndarray, shape: tuple, dtype: dtypes.DType) -> np.ndarray:
    if _empty(shape):
        return np.zeros(shape, dtype._np)
    n = _split(shape, alpha, "StatelessRandomGammaV3")
    if n == 0 or alpha.size == 0:
        return np.zeros(shape, dtype._np)
    out = gamma_poisson.gamma_samples(philox.stateless(*_seed_pair(seed)), alpha, n)
    return _cast(out, dtype).reshape(shape)


def _stateless_poisson(rate: np.ndarray, seed: np.ndarray, shape: tuple, dtype: dtypes.DType) -> np.ndarray:
    if _empty(shape):
        return np.zeros(shape, dtype._np)
    n = _split(shape, rate, "StatelessRandomPoisson")
    if n == 0 or rate.size == 0:
        return np.zeros(shape, dtype._np)
    _check_poisson_rates(rate, dtype, "StatelessRandomPoisson")
    out = gamma_poisson.poisson_samples(philox.stateless(*_seed_pair(seed)), rate, n, _HIGHEST[dtype.name])
    return _cast(out, dtype).reshape(shape)


def _rate_rule(opname: str, attr: str) -> Any:
    def rule(dts: Any, attrs: Any) -> dtypes.DType:
        if dts[0].name not in ("float16", "float32", "float64", "int32", "int64"):
            raise errors.InvalidArgumentError(None, None, f"Value for attr '{attr}' of {tf_name(dts[0])} is not in the "
                                              f"list of allowed values: {_POISSON_OUT} [Op:{opname}]")
        return attrs["dtype"]
    return rule


def _gamma_rule(dts: Any, attrs: Any) -> dtypes.DType:
    return dts[0]


def _grad_rule(dts: Any, attrs: Any) -> dtypes.DType:
    for d in dts:
        if d.name not in ("float32", "float64"):
            raise errors.InvalidArgumentError(None, None, f"Value for attr 'T' of {tf_name(d)} is not in the list of "
                                              "allowed values: float, double [Op:RandomGammaGrad]")
    if dts[0] != dts[1]:
        raise errors.InvalidArgumentError(None, None, f"cannot compute RandomGammaGrad as input #1(zero-based) was "
                                          f"expected to be a {tf_name(dts[0])} tensor but is a {tf_name(dts[1])} "
                                          "tensor [Op:RandomGammaGrad]")
    return dts[0]


def _gamma_grad_values(alpha: np.ndarray, sample: np.ndarray) -> np.ndarray:
    """d sample / d alpha of a Gamma(alpha, 1) draw, implicitly: -(d igamma / d alpha) / (d igamma / d x),
    in float64 (igamma's alpha derivative as `ops.special-more`'s IgammaGradA computes it)."""
    from simdist.runtime.ops import libm
    from simdist.runtime.ops.special_more import _igamma_grad_a
    import scipy.special as sp
    a, x = np.broadcast_arrays(np.asarray(alpha, np.float64), np.asarray(sample, np.float64))
    with np.errstate(all="ignore"):
        # (the C library's exp and log: NumPy's float64 ones are dispatched per CPU, ops.host-cpu)
        dens = libm.elementwise("exp", -x + (a - 1) * libm.elementwise("log", x) - sp.gammaln(a))
        r = -_igamma_grad_a(a, x) / dens
    # Eigen's igamma_generic_impl<SAMPLE_DERIVATIVE> first: a zero sample is 0 whatever alpha (NaN too),
    # then a negative sample or alpha <= 0 NaN (rawfz21, seed 2020261202 #139)
    # Eigen's igamma_series_impl (x <= 1 or x <= alpha) and igammac_cf_impl (negated) return 0 where
    # log(x^a e^-x / Gamma) underflows below -log(T's max), lgamma(a + 1) and lgamma(a) respectively:
    # a large alpha at x = 1 is 0, a large x the continued fraction's -0 (observed on TF 2.21, float32
    # and float64; fuzz20 seed 2620261204 #69)
    t = np.result_type(alpha, sample)
    maxlog = np.log(np.finfo(t if np.dtype(t).kind == "f" else np.float64).max, dtype=np.float64)
    with np.errstate(all="ignore"):
        cf = (x > 1) & (x > a)
        logax = a * np.log(x) - x - np.where(cf, sp.gammaln(a), sp.gammaln(a + 1))
    r = np.where((logax < -maxlog) & (x > 0), np.where(cf, -0.0, 0.0), r)
    # (a NaN logax from infinite inputs: 0 too, the continued fraction's -0; observed)
    r = np.where(np.isnan(logax) & (x > 0) & ~np.isnan(a) & ~np.isnan(x), np.where(cf, -0.0, 0.0), r)
    r = np.where((x < 0) | (a <= 0), np.nan, r)
    r = np.where((a == np.inf) & (x > 0) & (x < np.inf), 0.0, r)   # (igamma_series_impl's terms vanish: observed 0)
    r = np.where(x == 0, 0.0, r)
    return r.astype(np.result_type(alpha, sample))


_LANES = lanes("a kernel's Philox stream is one generator per (op, seeds, dtype): lanes draw in program order")
GAMMA = register("RandomGamma", _gamma, _gamma_rule, lambda a, out, at: float(out.size * _GAMMA_COST), stateful=True,
                 kind="random", fusion=_LANES)
POISSON = register("RandomPoissonV2", _poisson, _rate_rule("RandomPoissonV2", "R"),
                   lambda a, out, at: float(out.size * _POISSON_COST), stateful=True, kind="random", fusion=_LANES)
STATELESS_GAMMA = register("StatelessRandomGammaV3", _stateless_gamma, _gamma_rule,
                           lambda a, out, at: float(out.size * _GAMMA_COST), kind="random")
STATELESS_POISSON = register("StatelessRandomPoisson", _stateless_poisson, _rate_rule("StatelessRandomPoisson", "Rtype"),
                             lambda a, out, at: float(out.size * _POISSON_COST), kind="random")
GAMMA_GRAD = register("RandomGammaGrad", lambda a, s: _gamma_grad_values(a, s), _grad_rule,
                      lambda a, out, at: float(out.size * 40), kind="elementwise")
no_tf_gradient("RandomPoissonV2")
no_tf_gradient("RandomGammaGrad")
NotDifferentiable("StatelessRandomPoisson")


def _alpha_grad(alpha: Tensor, sample: Tensor, grad: Tensor, sample_dims: int) -> Tensor:
    """random_grad.py: sum over the sample dimensions of grad * RandomGammaGrad(alpha, sample)."""
    from simdist.runtime.ops import array, math
    if sample_dims < 0:
        # (add_leading_unit_dimensions' ones([num_sample_dimensions]): a shape shorter than alpha's rank, as a
        # StatelessRandomGammaV2 of shape [0] and a [2, 3, 2] alpha computes, is Fill's InvalidArgumentError
        # "Dimension -2 must be >= 0"; fz43, twentieth generator tape seed 4320261203 #89, observed on TF 2.21)
        array.ones([sample_dims], dtype=dtypes.int32)
    a = array.reshape(alpha, [1] * sample_dims + alpha.shape.as_list())
    partial = dispatch.execute(GAMMA_GRAD, (a, sample))
    return math.reduce_sum(grad * partial, axis=list(range(sample_dims)))


@RegisterGradient("RandomGamma")
def _random_gamma_grad(op: Any, grad: Any) -> list:
    return [_alpha_grad(op.inputs[0], op.outputs[0], grad, len(op.get_attr("shape")))]


@RegisterGradient("StatelessRandomGammaV3")
def _stateless_gamma_grad(op: Any, grad: Any) -> list:
    alpha = op.inputs[0]
    return [_alpha_grad(alpha, op.outputs[0], grad, len(op.get_attr("shape")) - alpha.ndim), None]


# --- the facade ------------------------------------------------------------------------------------------------
def _shown(s: Tensor, opname: str) -> str:
    """How the kernel shows a `shape` that is not a vector: RandomGamma's random_gamma_op.cc by the tensor's
    DebugString (": Tensor<type: int32 shape: [1,1] values: [2]>", SummarizeValue(3)), the Poisson and stateless
    kernels by its shape (" [1,1]")."""
    if opname != "RandomGamma":
        return f" {dims(s.shape.as_list())}"
    from simdist.runtime.ops.summarize_value import summarize_value
    return (f": Tensor<type: {tf_name(s.dtype)} shape: {dims(s.shape.as_list())} values: "
            f"{summarize_value(np.asarray(s._v), 3, False)}>")


def _shape(shape: Any, opname: str, int32: bool = False) -> tuple[int, ...]:
    """The `shape` argument as TF converts it and its kernel checks it (a vector, no negative
    dimension): a Python value to int32; a tensor kept (shape_tensor: int64 too), or with `int32`
    converted to int32 as random_gamma and random_poisson_v2 do (`ops.convert_to_tensor(shape,
    dtype=int32)`: an int64 tensor is the conversion's ValueError)."""
    s = convert_to_tensor(shape, dtype=dtypes.int32) if int32 or not isinstance(shape, Tensor) else shape
    if s.dtype not in (dtypes.int32, dtypes.int64):
        raise errors.InvalidArgumentError(None, None, f"Value for attr 'S' of {tf_name(s.dtype)} is not in the list of "
                                          f"allowed values: int32, int64 [Op:{opname}]")
    if s.ndim != 1:   # (the shape function's ValueError while a tf.function is traced)
        raise trace_errors.shape_error(f"shape must be a vector of {{int32,int64}}, got shape{_shown(s, opname)} "
                                       f"[Op:{opname}]",
                                       f"Shape must be rank 1 but is rank {s.ndim}", opname, (s.shape.as_list(),))
    out = tuple(int(v) for v in s._v.tolist())
    for d in out:
        if d < 0:
            raise errors.InvalidArgumentError(None, None, f"Dimension {d} must be >= 0 [Op:{opname}]")
    return out


def _float_params(alpha: Any, beta: Any, dtype: Any, finfo: bool = True) -> tuple[dtypes.DType, Tensor, Tensor]:
    """alpha and beta converted to `dtype`, alpha broadcast to their common shape (TF's order: the
    conversions, BroadcastArgs, then np.finfo of the dtype: ValueError for a non-float one; with
    `finfo` False the caller checks the dtype)."""
    from simdist.runtime.ops import array, array_more
    dt = dtypes.as_dtype(dtype)
    a = convert_to_tensor(alpha, dtype=dt)
    b = convert_to_tensor(1 if beta is None else beta, dtype=dt)
    bshape = array_more.broadcast_dynamic_shape(np.asarray(a.shape.as_list(), np.int32),
                                                np.asarray(b.shape.as_list(), np.int32))
    ab = a if a.shape.as_list() == bshape._v.tolist() else array.broadcast_to(a, bshape)
    if finfo and dt not in (dtypes.float16, dtypes.float32, dtypes.float64) and dt.kind != "c":
        # (np.finfo takes a complex dtype, its real part's: the op's attr check refuses it next. bfloat16 is
        # ml_dtypes' type, which np.finfo takes or refuses by the installed NumPy and ml_dtypes (NumPy 2.4.6 with
        # ml_dtypes 0.7.0 takes it, and TF 2.21 goes on to RandomGamma's attr check; the goldens' reference host
        # refused it): TF's wrapper calls np.finfo, and so does simdist; fz33b, fz14 seed 1420333002 #256)
        if dt != dtypes.bfloat16:
            raise ValueError(f"data type {_np_type_name(dt)} not inexact")
        try:
            np.finfo(dt._np)
        except ValueError:
            raise ValueError(f"data type {_np_type_name(dt)} not inexact") from None
    return dt, ab, b


def _gamma_v3_dtype(dt: dtypes.DType, op: str = "StatelessRandomGammaV3", attr: str = "dtype") -> None:
    """StatelessRandomGammaV3's attr dtype, RandomGamma's T (half, float, double; a complex dtype
    passes the wrapper's np.finfo: fz14 seed 1420262402 #26): eagerly InvalidArgumentError,
    traced op_def_library's TypeError naming alpha, the input that carries it."""
    if dt in (dtypes.float16, dtypes.float32, dtypes.float64):
        return
    err = errors.InvalidArgumentError(None, None, f"Value for attr '{attr}' of {tf_name(dt)} is not in the list of "
                                                  f"allowed values: half, float, double [Op:{op}]")
    raise trace_errors.static(err, TypeError, f"Value passed to parameter 'alpha' has DataType {dt.name} not in list "
                                              "of allowed values: float16, float32, float64")


def _np_type_name(dt: dtypes.DType) -> str:
    if dt == dtypes.bfloat16:
        return "<class 'ml_dtypes.bfloat16'>"
    return f"<class 'numpy.{np.dtype(dt._np).name}'>" if dt._np is not None else repr(dt.name)


def _scaled(raw: Tensor, beta: Tensor, dt: dtypes.DType) -> Tensor:
    """maximum(finfo(dtype).tiny, raw / beta), as TF's Python wrapper (RealDiv, Maximum)."""
    from simdist.runtime.ops import math
    tiny = convert_to_tensor(np.asarray(np.finfo(dt._np).tiny, dt._np))
    return math.maximum(tiny, math.divide(raw, beta))


def gamma(shape: Any, alpha: Any, beta: Any = None, dtype: Any = dtypes.float32, seed: Any = None,
          name: str | None = None) -> Tensor:
    """`tf.random.gamma`: shape + broadcast(alpha, beta).shape draws of Gamma(alpha, rate beta)."""
    shp = _shape(shape, "RandomGamma", int32=True)
    dt, ab, b = _float_params(alpha, beta, dtype)
    _gamma_v3_dtype(dt, "RandomGamma", "T")
    from simdist.runtime.ops import random as _random
    raw = dispatch.execute(GAMMA, (ab,), {"shape": shp, **_random._seed_attrs(seed), "dtype": dt})
    return _scaled(raw, b, dt)


def poisson(shape: Any, lam: Any, dtype: Any = dtypes.float32, seed: Any = None, name: str | None = None) -> Tensor:
    """`tf.random.poisson`: shape + lam.shape Poisson(lam) counts of `dtype`."""
    shp = _shape(shape, "RandomPoissonV2", int32=True)
    lt = _t(lam)
    dt = _out_dtype(dtype, "RandomPoissonV2")
    from simdist.runtime.ops import random as _random
    return dispatch.execute(POISSON, (lt,), {"shape": shp, **_random._seed_attrs(seed), "dtype": dt})


def _out_dtype(dtype: Any, opname: str) -> dtypes.DType:
    dt = dtypes.as_dtype(dtype)
    if dt.name not in _HIGHEST:
        raise errors.InvalidArgumentError(None, None, f"Value for attr 'dtype' of {tf_name(dt)} is not in the list of "
                                          f"allowed values: {_POISSON_OUT} [Op:{opname}]")
    return dt


def stateless_gamma(shape: Any, seed: Any, alpha: Any, beta: Any = None, dtype: Any = dtypes.float32,
                    name: str | None = None) -> Tensor:
    """`tf.random.stateless_gamma`: `shape` draws (ending with alpha and beta's broadcast shape), a
    pure function of the seed pair."""
    from simdist.runtime.ops import random as _random
    shp = _shape(shape, "StatelessRandomGammaV3")
    dt, ab, b = _float_params(alpha, beta, dtype, finfo=False)
    s = _random._seed(seed, "StatelessRandomGammaV3")
    _gamma_v3_dtype(dt)   # the op's attr check, before the wrapper's np.finfo (TF 2.21)
    _divisor_broadcasts(shp, b)
    raw = dispatch.execute(STATELESS_GAMMA, (ab, s), {"shape": shp, "dtype": dt})
    return _scaled(raw, b, dt)


def _divisor_broadcasts(shape: tuple[int, ...], beta: Tensor) -> None:
    """A beta that does not broadcast with the samples' `shape`: eagerly the kernel's check (`shape` must end
    with alpha and beta's broadcast shape) raises InvalidArgumentError; a trace does not run the kernel (the
    op's shape function gives `shape`) and stops at the wrapper's RealDiv(samples, beta), whose shape function
    raises ValueError (TF 2.21, run: stateless_gamma([5], seed, 2.0, beta=[1., 4.]))."""
    bshape = tuple(beta.shape.as_list())
    try:
        np.broadcast_shapes(shape, bshape)
    except ValueError:
        raise trace_errors.shape_error("Shape passed in must end with broadcasted shape. [Op:StatelessRandomGammaV3]",
                                       _broadcast_text(shape, bshape), "RealDiv", (shape, bshape)) from None


def _broadcast_text(a: tuple[int, ...], b: tuple[int, ...]) -> str:
    """The broadcasting shape function's message for the first pair of trailing dimensions that differ."""
    for da, db in zip(reversed(a), reversed(b)):
        if da != db and da != 1 and db != 1:
            return f"Dimensions must be equal, but are {da} and {db}"
    return "Incompatible shapes"


def stateless_poisson(shape: Any, seed: Any, lam: Any, dtype: Any = dtypes.int32, name: str | None = None) -> Tensor:
    """`tf.random.stateless_poisson`: `shape` counts (ending with lam's shape), a pure function of
    the seed pair."""
    from simdist.runtime.ops import random as _random
    shp = _shape(shape, "StatelessRandomPoisson")
    lt = _t(lam)
    dt = _out_dtype(dtype, "StatelessRandomPoisson")
    s = _random._seed(seed, "StatelessRandomPoisson")
    return dispatch.execute(STATELESS_POISSON, (lt, s), {"shape": shp, "dtype": dt})

