"""TF 2.21's float kernels bit for bit (issue 29): the elementwise ops whose CPU kernels run
Eigen's packet math (a polynomial or double-word algorithm of its own) on the packets of a tensor
and the C library's function on the scalar tail, against real TF 2.21 on seeded inputs: float32
and float64 Pow (generic_pow; integer exponents 2, 3, -1, -2, 0.5, generic and wide ones, as a
scalar or a tensor, broadcast, every tail length, the C standard's special values, gradients, the
approximate gelu's x³), float64 Tanh (ptanh_double), float32 Exp (pexp_float), float32 and
float64 Log (plog_float, plog_double), Sigmoid (Eigen's logistic functor, every float dtype),
Log1p and Expm1 (Kahan's formulas on those), Softplus and log_sigmoid (float16/bfloat16 too), Erf and
Erfc (generic_fast_erf/erfc; the exact gelu), float32 Sin and Cos (psincos_float), Atan, float32
Reciprocal and Rsqrt (this CPU's vrcpps/vrsqrtps tables and a Newton step), and Tan (the C
library's on every element). Every value is compared bit for bit (any NaN matches any NaN). Needs the `tf` extra (or
its golden). Clause ops.eigen-kernels.
"""

from __future__ import annotations

from typing import Any, Callable

import numpy as np
import pytest

import edge_compare
import portable_inputs
import tf_workers

pytestmark = [pytest.mark.tf, tf_workers.tf_or_golden(__file__)]
clause = pytest.mark.clause

EIGEN = "ops.eigen-kernels"
_N = 4099   # 512 packets of 8 float32 (1024 of 4 float64) and a tail of 3


def _bases(dt: str, seed: int, n: int = _N) -> np.ndarray:
    """Bases across magnitudes: uniform in [-10, 10], |x| log-uniform in [1e-12, 1e12] of either
    sign, and near 1 (where pow's log2 is smallest)."""
    rng = np.random.default_rng(seed)
    k = n // 3
    mags = portable_inputs.exp(rng.uniform(float(portable_inputs.log(1e-12)), float(portable_inputs.log(1e12)), k)) * rng.choice(
        [-1.0, 1.0], k)
    return np.concatenate([rng.uniform(-10, 10, k), mags, rng.uniform(0.5, 2.0, n - 2 * k)]).astype(dt)


def _exponents(kind: str, dt: str, seed: int, n: int = _N) -> np.ndarray:
    rng = np.random.default_rng(seed)
    if kind == "int":
        return rng.integers(-8, 9, n).astype(dt)
    return rng.uniform(-5, 5, n).astype(dt) if kind == "real" else rng.uniform(-40, 40, n).astype(dt)


_SPECIAL = {"float32": [0.0, -0.0, np.inf, -np.inf, np.nan, 1.0, -1.0, 2.0, -2.0, 0.5, -0.5, 3.0, -3.0, 1e10, -1e10,
                        3e38, -3e38, 1e9, 1e-5, 200.0, -200.0, 7e8, 2e9],
            "float64": [0.0, -0.0, np.inf, -np.inf, np.nan, 1.0, -1.0, 2.0, -2.0, 0.5, -0.5, 3.0, -3.0, 1e10, -1e10,
                        1e300, -1e300, 1e9, 1e-5, 1100.0, -1100.0, 7e8, 2e9, 1e17]}


def _special_grid(dt: str) -> tuple[np.ndarray, np.ndarray]:
    """Every pair (x, y) of the special values: pow's signs, zeros, infinities, NaN, 1 and 0 rules."""
    x, y = np.meshgrid(np.array(_SPECIAL[dt], dt), np.array(_SPECIAL[dt], dt))
    return x.ravel(), y.ravel()


def _c(tf: Any, a: np.ndarray) -> Any:
    return tf.constant(a)


def _pow_grads(tf: Any, x: np.ndarray, y: np.ndarray) -> Any:
    """[x ** y, d/dx, d/dy] of sum(x ** y * (1, 2, 3, ...)) (the gradients call Pow again)."""
    vx, vy = tf.Variable(x), tf.Variable(y)
    with tf.GradientTape() as tape:
        z = tf.pow(vx, vy)
        loss = tf.reduce_sum(z * tf.reshape(tf.range(1, tf.size(z) + 1, dtype=z.dtype), tf.shape(z)))
    return [z] + [tf.convert_to_tensor(g) for g in tape.gradient(loss, [vx, vy])]


def _tanh_grad(tf: Any, x: np.ndarray) -> Any:
    v = tf.Variable(x)
    with tf.GradientTape() as tape:
        y = tf.tanh(v)
        loss = tf.reduce_sum(y * y)
    return [y, tape.gradient(loss, v)]


def _sigmoid_grad(tf: Any, x: np.ndarray) -> Any:
    v = tf.Variable(x)
    with tf.GradientTape() as tape:
        y = tf.math.sigmoid(v)
        loss = tf.reduce_sum(y * y)
    return [y, tape.gradient(loss, v)]


_UNARY = {"log1p": lambda tf: tf.math.log1p, "expm1": lambda tf: tf.math.expm1,
          "softplus": lambda tf: tf.math.softplus, "log_sigmoid": lambda tf: tf.math.log_sigmoid}
_UNARY_SPECIALS = [np.nan, np.inf, -np.inf, 0.0, -0.0, -1.0, -0.99999, 1e-9, -1e-9, 1e-30, 15.0, 16.0, -15.0,
                   -16.0, 36.0, 37.0, -36.0, -37.0, 88.0, 89.0, -104.0, 709.0, 710.0, -745.0, -2.0, 3e38]


def _unary_case(tf: Any, name: str, dt: str, part: str) -> Any:
    """name's op on _EXP32 (in [-90, 90] and near 0: "wide"), on its heads of lengths 1-17 ("tails")
    or on the special values (the thresholds of softplus, the ends of exp and log1p)."""
    fn = _UNARY[name](tf)
    x = _EXP32.astype(dt) * (1 if name != "log1p" else 0.02)
    if part == "wide":
        return fn(_c(tf, x))
    if part == "tails":
        return [fn(_c(tf, x[:n] / 9)) for n in (1, 3, 4, 7, 9, 17)]
    return fn(_c(tf, np.array(_UNARY_SPECIALS, np.float64).astype(dt)))


def _half_case(tf: Any, name: str, dt: str) -> Any:
    """name's op on float16/bfloat16 values of _EXP32 (bfloat16 carried as float32 both ways)."""
    fn = {"exp": tf.exp, "log": tf.math.log, "log1p": tf.math.log1p, "expm1": tf.math.expm1}[name]
    x = _EXP32[:2003] / (8 if name != "log" else 1)
    x = np.abs(x) if name == "log" else x
    return [tf.cast(fn(tf.cast(_c(tf, x[:n]), getattr(tf, dt))), tf.float32) for n in (2003, 5)]


def _pow_cases(dt: str, seed: int) -> list[tuple[str, str, Callable[[Any], Any]]]:
    b = _bases(dt, seed)
    pos = np.abs(b)
    cases: list[tuple[str, str, Callable[[Any], Any]]] = []
    for c in (2.0, 3.0, 0.5, -1.0, -2.0):
        cases.append((f"pow-{dt}-scalar-{c:g}", EIGEN, lambda tf, c=c: tf.pow(_c(tf, b), tf.constant(c, dt))))
    cases += [
        (f"pow-{dt}-tensor-3", EIGEN, lambda tf: tf.pow(_c(tf, b), _c(tf, np.full(_N, 3.0, dt)))),
        (f"pow-{dt}-operator-cube", EIGEN, lambda tf: _c(tf, b) ** 3),
        *[(f"pow-{dt}-{kind}", EIGEN, lambda tf, kind=kind: tf.pow(_c(tf, b if kind == "int" else pos),
                                                                   _c(tf, _exponents(kind, dt, seed + 1))))
          for kind in ("int", "real", "wide")],
        (f"pow-{dt}-negative-bases-real", EIGEN, lambda tf: tf.pow(_c(tf, b), _c(tf, _exponents("real", dt, seed + 2)))),
        (f"pow-{dt}-specials", EIGEN, lambda tf: tf.pow(*[_c(tf, a) for a in _special_grid(dt)])),
        (f"pow-{dt}-specials-tail", EIGEN, lambda tf: tf.pow(*[_c(tf, a[:-3]) for a in _special_grid(dt)])),
        (f"pow-{dt}-tail-lengths", EIGEN, lambda tf: [tf.pow(_c(tf, pos[:n]), _c(tf, _exponents("real", dt, seed)[:n]))
                                                      for n in (1, 3, 4, 7, 8, 9, 17)]),
        (f"pow-{dt}-broadcast", EIGEN, lambda tf: [
            tf.pow(_c(tf, pos[:63].reshape(7, 9)), _c(tf, _exponents("real", dt, seed)[:9])),
            tf.pow(_c(tf, pos[:9].reshape(9, 1)), _c(tf, _exponents("real", dt, seed)[:7].reshape(1, 7))),
            tf.pow(tf.constant(1.5, dt), _c(tf, _exponents("wide", dt, seed)[:13]))]),
        (f"pow-{dt}-gradient", EIGEN, lambda tf: _pow_grads(tf, pos[:501] + np.asarray(0.25, dt),
                                                            _exponents("real", dt, seed + 3)[:501])),
        (f"pow-{dt}-in-function", EIGEN, lambda tf: tf.function(lambda a, e: tf.pow(a, e), autograph=False)(
            _c(tf, pos[:999]), _c(tf, _exponents("real", dt, seed + 4)[:999]))),
    ]
    return cases


_EXP32 = np.concatenate([np.random.default_rng(2913).uniform(-90, 90, 3000),
                         np.random.default_rng(2914).normal(size=1099)]).astype(np.float32)
_TANH64 = np.concatenate([np.random.default_rng(2911).uniform(-20, 20, 3000),
                          np.random.default_rng(2912).normal(size=1099) * 1e-2])

_ERF64 = np.concatenate([np.random.default_rng(2915).uniform(-6, 6, 2000),
                         np.random.default_rng(2916).uniform(-30, 30, 1000),
                         np.random.default_rng(2917).normal(size=1099) * 1e-2])
_ERF_OPS = {"erf": lambda tf: tf.math.erf, "erfc": lambda tf: tf.math.erfc}
_ERF_CASES = (("erfc", "float32"), ("erfc", "float64"), ("erf", "float64"))
_ERF_SPECIALS = [np.nan, np.inf, -np.inf, 0.0, -0.0, 1.0, -1.0, 0.9999999, 1.0000001, 11.0, -11.0, 12.0, 9.2,
                 9.3, -9.3, 26.5, 26.6, 27.3, 28.0, -28.0, 29.0, 1e-20, -1e-30, 1e30, -1e30, 1.3e154, 1.35e154,
                 -1.35e154, 1e300, 0.5, -3.5]

_TRIG = np.concatenate([np.random.default_rng(2918).uniform(-10, 10, 2000),
                        np.random.default_rng(2919).uniform(-3e4, 3e4, 1000),
                        portable_inputs.exp(np.random.default_rng(2920).uniform(-20, 40, 1099)) * np.where(
                            np.random.default_rng(2921).random(1099) < 0.5, -1.0, 1.0)])
_TRIG_OPS = {"sin": lambda tf: tf.math.sin, "cos": lambda tf: tf.math.cos, "atan": lambda tf: tf.math.atan}
_TRIG_CASES = (("sin", "float32"), ("cos", "float32"), ("atan", "float32"), ("atan", "float64"))
_TRIG_SPECIALS = [np.nan, np.inf, -np.inf, 0.0, -0.0, 1.0, -1.0, 0.99999994, 1.0000001, 25966.0, 25965.998,
                  18838.0, 18837.998, 1e-39, -1e-39, 1.5707964, 3.1415927, 1e38, -3e38, 1e-20, 8.6e37, 7.0, -7.0,
                  1e30, 100000.0]

_HALVES = np.arange(65536, dtype=np.uint16).view(np.float16)[np.isfinite(np.arange(65536, dtype=np.uint16).view(
    np.float16))]


def _every_value(dt: str) -> np.ndarray:
    """Every finite float16 or bfloat16 value, as float32 (exact)."""
    import ml_dtypes
    bits = np.arange(65536, dtype=np.uint16)
    x = bits.view(np.float16 if dt == "float16" else ml_dtypes.bfloat16).astype(np.float32)
    return x[np.isfinite(x)]


def _unary_grad(tf: Any, fn: Callable[[Any], Any], x: Any) -> Any:
    """[fn(x), d/dx sum(fn(x) * (1, 2, 3, ...))] on a variable (a tensor argument inside tf.function)."""
    v = tf.Variable(x) if isinstance(x, np.ndarray) else x
    with tf.GradientTape() as tape:
        tape.watch(v)
        y = fn(v)
        loss = tf.reduce_sum(y * tf.reshape(tf.range(1, tf.size(y) + 1, dtype=y.dtype), tf.shape(y)))
    return [y, tf.convert_to_tensor(tape.gradient(loss, v))]


CASES: list[tuple[str, str, Callable[[Any], Any]]] = [
    *_pow_cases("float32", 2901),
    *_pow_cases("float64", 2902),
    ("gelu-approximate-float32", EIGEN, lambda tf: tf.nn.gelu(_c(tf, _bases("float32", 2903)[:2001]), approximate=True)),
    # -- float64 Tanh: ptanh_double in packets of 4, the C library's tanh in the tail
    ("tanh-float64-wide", EIGEN, lambda tf: tf.tanh(_c(tf, _TANH64))),
    ("tanh-float64-tail-lengths", EIGEN, lambda tf: [tf.tanh(_c(tf, _TANH64[:n])) for n in (1, 2, 3, 4, 5, 9)]),
    ("tanh-float64-specials", EIGEN, lambda tf: tf.tanh(_c(tf, np.array(
        [np.nan, -np.nan, np.inf, -np.inf, 0.0, -0.0, 17.7, 17.72, -17.72, 40.0, 1e-9, -1e-300], np.float64)))),
    ("tanh-float64-gradient", EIGEN, lambda tf: _tanh_grad(tf, _TANH64[:403])),
    ("tanh-float64-in-function", EIGEN, lambda tf: tf.function(lambda a: tf.nn.tanh(a), autograph=False)(
        _c(tf, _TANH64[:1001]))),
    # -- float32 Exp (pexp_float; float64's is ops.packet-paths) and float32/float64 Log (plog_float, plog_double)
    ("exp-float32-wide", EIGEN, lambda tf: tf.exp(_c(tf, _EXP32))),
    ("exp-float32-tail-lengths", EIGEN, lambda tf: [tf.exp(_c(tf, _EXP32[:n])) for n in (1, 3, 7, 8, 9, 17)]),
    ("exp-float32-specials", EIGEN, lambda tf: tf.exp(_c(tf, np.array(
        [np.nan, np.inf, -np.inf, 0.0, -0.0, 88.72, 88.73, 89.0, -87.0, -87.5, -103.0, -104.5, 87.5, 1e-8, -1e-8,
         0.5], np.float32)))),
    *[(f"log-{dt}-wide", EIGEN, lambda tf, dt=dt: tf.math.log(_c(tf, np.abs(_bases(dt, 2904))))) for dt in ("float32", "float64")],
    *[(f"log-{dt}-tail-lengths", EIGEN, lambda tf, dt=dt: [tf.math.log(_c(tf, np.abs(_bases(dt, 2905))[:n]))
                                                           for n in (1, 3, 4, 5, 7, 9)]) for dt in ("float32", "float64")],
    *[(f"log-{dt}-specials", EIGEN, lambda tf, dt=dt: tf.math.log(_c(tf, np.array(
        [np.nan, np.inf, -np.inf, 0.0, -0.0, -1.0, 1.0, 0.7071067, 0.7071068, 1.4142135, 1e30, 1e-30, 2.0, 0.5, 3.0,
         np.finfo(dt).max], dt)))) for dt in ("float32", "float64")],
    # -- Sigmoid: scalar_logistic_op<float> (exp(x/2) squared) and its scalar operator; float64 pexp_double's e/(1+e);
    # float16/bfloat16 through float32's pexp in packets of 8, rounded, then e / (1 + e) in the half type
    *[(f"sigmoid-{dt}-wide", EIGEN, lambda tf, dt=dt: tf.math.sigmoid(_c(tf, _EXP32.astype(dt))))
      for dt in ("float32", "float64", "float16")],
    ("sigmoid-bfloat16-wide", EIGEN, lambda tf: tf.cast(tf.math.sigmoid(tf.cast(_c(tf, _EXP32[:2003]), tf.bfloat16)),
                                                        tf.float32)),
    *[(f"sigmoid-{dt}-tail-lengths", EIGEN, lambda tf, dt=dt: [tf.math.sigmoid(_c(tf, _EXP32[:n].astype(dt) / 9))
                                                               for n in (1, 3, 4, 7, 8, 9, 17)])
      for dt in ("float32", "float64", "float16")],
    *[(f"sigmoid-{dt}-specials", EIGEN, lambda tf, dt=dt: tf.math.sigmoid(_c(tf, np.array(
        [np.nan, np.inf, -np.inf, 0.0, -0.0, 16.6, 16.7, 40.0, -103.0, -104.5, -87.5, 1e-8, -1e-8, 0.5, 709.0,
         -745.5], np.float64).astype(dt)))) for dt in ("float32", "float64")],
    ("sigmoid-float32-gradient", EIGEN, lambda tf: _sigmoid_grad(tf, _EXP32[:403] / 9)),
    # -- Log1p, Expm1 (generic_log1p/generic_expm1 on plog/pexp), Softplus (exp, then log1p) and log_sigmoid
    *[(f"{name}-{dt}-{part}", EIGEN, lambda tf, name=name, dt=dt, part=part: _unary_case(tf, name, dt, part))
      for name in ("log1p", "expm1", "softplus", "log_sigmoid") for dt in ("float32", "float64")
      for part in ("wide", "tails", "specials")],
    # -- float32 Erf: generic_fast_erf<float> on every element (packets and tail alike; the exact gelu is Erfc's: not modelled)
    ("erf-float32-wide", EIGEN, lambda tf: tf.math.erf(_c(tf, _EXP32 / 20))),
    ("erf-float32-tail-lengths", EIGEN, lambda tf: [tf.math.erf(_c(tf, _EXP32[:n] / 30)) for n in (1, 3, 9)]),
    ("erf-float32-specials", EIGEN, lambda tf: tf.math.erf(_c(tf, np.array(
        [np.nan, np.inf, -np.inf, 0.0, -0.0, 3.9, 4.0, 4.1, -4.0, 1e-20, 1e-3, 0.5], np.float32)))),
    # -- Erfc (float32, float64) and float64 Erf: generic_fast_erfc/erf, pexp and (float32) vrcpps + Newton in
    # packets, the C library's expf/exp and a division in the tail; the exact gelu is 0.5·x·erfc(-x/√2)
    *[(f"{name}-{dt}-wide", EIGEN, lambda tf, name=name, dt=dt: _ERF_OPS[name](tf)(_c(tf, _ERF64.astype(dt))))
      for name, dt in _ERF_CASES],
    *[(f"{name}-{dt}-tail-lengths", EIGEN, lambda tf, name=name, dt=dt: [
        _ERF_OPS[name](tf)(_c(tf, _ERF64[start:start + n].astype(dt))) for n in (1, 2, 3, 5, 7, 9, 17)
        for start in (0, 2000)])
      for name, dt in _ERF_CASES],
    *[(f"{name}-{dt}-specials", EIGEN, lambda tf, name=name, dt=dt: [_ERF_OPS[name](tf)(_c(tf, np.array(
        _ERF_SPECIALS, np.float64).astype(dt)[:k])) for k in (len(_ERF_SPECIALS), 21)]) for name, dt in _ERF_CASES],
    *[(f"{name}-{dt}-gradient", EIGEN, lambda tf, name=name, dt=dt: _unary_grad(tf, _ERF_OPS[name](tf),
                                                                               _ERF64[:1003].astype(dt)))
      for name, dt in _ERF_CASES],
    *[(f"gelu-exact-{dt}", EIGEN, lambda tf, dt=dt: [tf.nn.gelu(_c(tf, _ERF64.astype(dt) * 2)),
                                                     _unary_grad(tf, tf.nn.gelu, _ERF64[:1001].astype(dt) * 3)])
      for dt in ("float32", "float64")],
    *[(f"gelu-exact-{dt}-in-function", EIGEN, lambda tf, dt=dt: tf.function(
        lambda a: tf.nn.gelu(a), autograph=False)(_c(tf, _ERF64[:999].astype(dt) * 3)))
      for dt in ("float32", "float64")],
    *[(f"{name}-{dt}-gradient-in-function", EIGEN, lambda tf, name=name, dt=dt: tf.function(
        lambda a: _unary_grad(tf, _ERF_OPS[name](tf), a), autograph=False)(_c(tf, _ERF64[:999].astype(dt))))
      for name, dt in _ERF_CASES],
    # -- float32 Sin/Cos (psincos_float: the non-FMA reduction, Payne-Hanek above 25966 / 18838), Atan float32 and
    # float64 (generic_atan; float32's 1/|x| is vrcpps + Newton) in packets, the C library's in the tail
    *[(f"{name}-{dt}-wide", EIGEN, lambda tf, name=name, dt=dt: _TRIG_OPS[name](tf)(_c(tf, _TRIG.astype(dt))))
      for name, dt in _TRIG_CASES],
    *[(f"{name}-{dt}-tail-lengths", EIGEN, lambda tf, name=name, dt=dt: [
        _TRIG_OPS[name](tf)(_c(tf, _TRIG[start:start + n].astype(dt))) for n in (1, 3, 5, 7, 9, 17)
        for start in (0, 3000)]) for name, dt in _TRIG_CASES],
    *[(f"{name}-{dt}-specials", EIGEN, lambda tf, name=name, dt=dt: [_TRIG_OPS[name](tf)(_c(tf, np.array(
        _TRIG_SPECIALS, np.float64).astype(dt)[:k])) for k in (len(_TRIG_SPECIALS), 19)]) for name, dt in _TRIG_CASES],
    *[(f"{name}-{dt}-gradient", EIGEN, lambda tf, name=name, dt=dt: _unary_grad(tf, _TRIG_OPS[name](tf),
                                                                               _TRIG[:1003].astype(dt)))
      for name, dt in _TRIG_CASES],
    *[(f"{name}-{dt}-gradient-in-function", EIGEN, lambda tf, name=name, dt=dt: tf.function(
        lambda a: _unary_grad(tf, _TRIG_OPS[name](tf), a), autograph=False)(_c(tf, _TRIG[:999].astype(dt))))
      for name, dt in _TRIG_CASES],
    *[(f"{name}-{dt}", EIGEN, lambda tf, name=name, dt=dt: [tf.cast(_TRIG_OPS[name](tf)(tf.cast(
        _c(tf, _TRIG[:n].astype(np.float32) / 64), getattr(tf, dt))), tf.float32) for n in (2003, 5)])
      for name in ("sin", "cos") for dt in ("float16", "bfloat16")],
    ("sin-cos-atan-float16-every-value", EIGEN, lambda tf: [tf.cast(f(tf.constant(_HALVES)), tf.float32) for f in (
        tf.math.sin, tf.math.cos, tf.math.atan)]),
    # -- float16/bfloat16 Softplus and log_sigmoid: the half types' exp and log1p, the threshold from Eigen's epsilon
    *[(f"softplus-log-sigmoid-{dt}-every-value", EIGEN, lambda tf, dt=dt: [
        tf.cast(f(tf.cast(_c(tf, x), getattr(tf, dt))), tf.float32) for f in (tf.math.softplus, tf.math.log_sigmoid)
        for x in (_every_value(dt), _every_value(dt)[-4803:-4798])]) for dt in ("float16", "bfloat16")],
    # -- float32 Reciprocal (scalar_inverse_op: vrcpps + a Newton step in packets, 1 / x in the tail); float16
    ("reciprocal-float32", EIGEN, lambda tf: [tf.math.reciprocal(_c(tf, _TRIG.astype(np.float32))), *[
        tf.math.reciprocal(_c(tf, np.array(_TRIG_SPECIALS, np.float32)[:k])) for k in (len(_TRIG_SPECIALS), 19)],
        tf.math.reciprocal(_c(tf, np.array([2.0] * 9 + [1.0, -4.0, 0.25, 1024.0, 2.0 ** -100, 2.0 ** 126, 3.0,
                                            2.0 ** 125, 1.5 * 2.0 ** 125, 2.0 ** -126, 3e-39, 2.0], np.float32)))]),
    ("reciprocal-float32-gradient", EIGEN, lambda tf: _unary_grad(tf, tf.math.reciprocal,
                                                                  _TRIG[:1003].astype(np.float32))),
    ("reciprocal-float16", EIGEN, lambda tf: tf.cast(tf.math.reciprocal(tf.cast(_c(tf, _TRIG[:2003] / 100),
                                                                                tf.float16)), tf.float32)),
    # -- float32 Rsqrt (scalar_rsqrt_op: vrsqrtps + a Newton step in packets, 1 / sqrt(x) in the tail)
    ("rsqrt-float32", EIGEN, lambda tf: [tf.math.rsqrt(_c(tf, np.abs(_TRIG).astype(np.float32))), *[
        tf.math.rsqrt(_c(tf, np.abs(_TRIG[:n]).astype(np.float32))) for n in (1, 3, 7, 9, 17)],
        tf.math.rsqrt(_c(tf, np.array(_TRIG_SPECIALS + [4.0] * 8 + [2.0, -0.0, 0.25, 3e-39, -3e-39, 3e38, 1.2e-38],
                                      np.float32)))]),
    *[(f"rsqrt-{dt}-every-value", EIGEN, lambda tf, dt=dt: [tf.cast(tf.math.rsqrt(tf.cast(_c(tf, x), getattr(tf, dt))),
                                                                  tf.float32) for x in (_every_value(dt),
                                                                                        _every_value(dt)[:13])])
      for dt in ("float16", "bfloat16")],
    *[(f"rsqrt-{dt}-gradient", EIGEN, lambda tf, dt=dt: _unary_grad(tf, tf.math.rsqrt, np.abs(_TRIG[:1003]).astype(dt)))
      for dt in ("float32", "float64")],
    ("rsqrt-float32-in-function", EIGEN, lambda tf: tf.function(
        lambda a: [tf.math.rsqrt(a), a ** -0.5, 3.0 / tf.sqrt(a)], autograph=False)(
            _c(tf, np.abs(_TRIG[:999]).astype(np.float32)))),
    ("layer-normalization-float32", EIGEN, lambda tf: tf.nn.batch_normalization(
        _c(tf, _TRIG[:4096].reshape(64, 64).astype(np.float32)), *tf.nn.moments(
            _c(tf, _TRIG[:4096].reshape(64, 64).astype(np.float32)), axes=[1], keepdims=True), None, None, 1e-3)),
    # -- Tan: no packet function in Eigen: the C library's tanf/tan on every element
    *[(f"tan-{dt}", EIGEN, lambda tf, dt=dt: [tf.math.tan(_c(tf, (_EXP32 * 3).astype(dt))), tf.math.tan(_c(tf, np.array(
        [np.nan, np.inf, -np.inf, 0.0, -0.0, 1.5707963, 1e10, -3e5, 1e-20], dt)))]) for dt in ("float32", "float64")],
    # -- float16/bfloat16 Exp, Log, Log1p, Expm1: float32's packet functions on packets of 8, rounded
    *[(f"{name}-{dt}", EIGEN, lambda tf, name=name, dt=dt: _half_case(tf, name, dt))
      for name in ("exp", "log", "log1p", "expm1") for dt in ("float16", "bfloat16")],
]
EDGES = edge_compare.EdgeModule(__file__, CASES)


@pytest.fixture(scope="module")
def tf_results() -> dict[int, Any]:
    return EDGES.tf_answers()


@clause("ops.eigen-kernels")
@EDGES.parametrize(EIGEN)
def test_eigen_kernels_bit_for_bit(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


def test_every_case_has_a_test() -> None:
    untested = EDGES.untested()
    assert not untested, f"cases of clauses {untested} have no test function above"


if __name__ == "__main__":  # TF worker: python test_eigen_kernels_tf.py 0,1,2 -> pickled results on stdout
    tf_workers.serve(EDGES.tf_worker)
