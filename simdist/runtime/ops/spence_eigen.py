"""TF 2.21's Spence kernel (tensorflow/core/kernels/special_math/special_math_op_misc_impl.h `spence_op`,
clause ops.math-special): Cephes' spence rewritten for Eigen, scalar only (no packet path), in the
element's own precision on a thread with DAZ/FTZ. y = x below 2, else 1/x; w = 1/y - 1 above 1.5, -y below
0.5, else y - 1; spence = -w · (P(w) / Q(w)) by Horner's rule (ppolevl: each step a product then a sum,
no fused multiply-add), then -log(y) · log1p(-y) + π²/6 - spence below y = 0.5 and -½ log(y)² - spence
above x = 1.5, with the C library's logf/log1pf (log/log1p for float64). x < 0 is NaN, x = 0 π²/6,
x = 1 zero. Under FTZ 1/x of x >= 2**126 is 0, so float32 spence(3e38) is NaN (-log 0 · log1p(-0)).
Bit for bit with TF 2.21 on 4,016 float32 and float64 probes (uniform on [0, 3], e^[-30, 30] and the
special values), where SciPy's float32-rounded spence differed in the last bits of 1,099 (fz33a).
"""

from __future__ import annotations

import numpy as np

__all__ = ["spence"]

_A = (4.65128586073990045278E-5, 7.31589045238094711071E-3, 1.33847639578309018650E-1, 8.79691311754530315341E-1,
      2.71149851196553469920E0, 4.25697156008121755724E0, 3.29771340985225106936E0, 1.00000000000000000126E0)
_B = (6.90990488912553276999E-4, 2.54043763932544379113E-2, 2.82974860602568089943E-1, 1.41172597751831069617E0,
      3.63800533345137075418E0, 5.03278880143316990390E0, 3.54771340985225096217E0, 9.99999999999999998740E-1)


def _ftz(v: np.ndarray) -> np.ndarray:
    """Subnormals as zeros of their sign (the kernel thread's DAZ/FTZ)."""
    return np.where(np.abs(v) < np.finfo(v.dtype).tiny, v * v.dtype.type(0), v).astype(v.dtype, copy=False)


def _polevl(w: np.ndarray, coef: tuple[float, ...]) -> np.ndarray:
    t = w.dtype.type
    acc = np.full(w.shape, t(coef[0]))
    for c in coef[1:]:
        acc = _ftz(_ftz(acc * w) + t(c))
    return acc


def spence(x: np.ndarray) -> np.ndarray:
    """spence_op on each element of a float32 or float64 array, in its dtype."""
    from simdist.runtime.ops import libm
    x = _ftz(np.asarray(x))
    t = x.dtype.type
    f32 = x.dtype == np.float32
    with np.errstate(all="ignore"):
        y = np.where(x < t(2), x, _ftz(t(1) / x))
        w = _ftz(np.where(t(1.5) < y, _ftz(t(1) / y) - t(1), np.where(y < t(0.5), -y, y - t(1))))
        out = _ftz(-w * _ftz(_polevl(w, _A) / _polevl(w, _B)))
        # (reshaped: a 0-d input stays a scalar; function seed 3320261205 #142)
        z = libm.elementwise("logf" if f32 else "log", np.ascontiguousarray(y)).reshape(y.shape)
        l1 = libm.elementwise("log1pf" if f32 else "log1p", np.ascontiguousarray(_ftz(-y))).reshape(y.shape)
        pi2o6 = t(np.pi * np.pi / 6.0)
        out = np.where(y < t(0.5), _ftz(_ftz(_ftz(-z * l1) + pi2o6) - out), out)
        out = np.where(t(1.5) < x, _ftz(_ftz(_ftz(-t(0.5) * z) * z) - out), out)
        return np.where(x < 0, t(np.nan), np.where(x == 0, pi2o6, np.where(x == 1, t(0), out))).astype(x.dtype)
