"""`tf.math.special`'s own kernels (TF 2.21's special_math_ops.py): the Bessel functions
bessel_j0/j1/y0/y1 (first and second kind), bessel_k0/k0e/k1/k1e (modified, second kind),
Dawson's integral dawsn, the exponential integral expint (Ei), the Fresnel integrals
fresnel_cos/fresnel_sin and Spence's function spence. Each is one elementwise declaration
(stacked over replica lanes, one FLOP per element, not exact for the uniform rewrite) with its
gradient as math_grad.py registers it (docs/spec.md `ops.math-special`).

Values are SciPy's (float32 may differ from Eigen's in the last bits; float16 is computed in
float32 and rounded), except expint and the Fresnel integrals: Eigen's expint_op and fresnel_*_op in the
kernel's type (expint_fresnel_eigen.py, fz47b), float32/half bessel_j0/j1/y0/y1: Eigen's float kernels
(bessel_float.py), bessel_k0/k0e/k1/k1e: Eigen's kernels in every dtype (bessel_k_eigen.py, fz45), dawsn: Eigen's dawsn_op in the kernel's type (dawson.py; +0.5/|x| for
x <= -1e9, as TF's kernel), and spence: TF's spence_op (spence_eigen.py). Dtypes: every op def lists bfloat16, half, float and double (others:
InvalidArgumentError); the CPU kernels are half, float and double for the Bessel functions and
float and double for dawsn, expint, the Fresnel integrals and spence (others: NotFoundError).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from simdist.runtime import subnormals as _sn
from simdist.runtime.ops import bessel_k_eigen, dispatch, expint_fresnel_eigen
from simdist.runtime.ops.args import t as _t
from simdist.runtime.ops.dawson import dawsn as dawsn_kernel
from simdist.runtime.ops.spence_eigen import spence as spence_kernel
from simdist.runtime.ops.bessel_float import bessel_j0_float, bessel_j1_float, bessel_y0_float, bessel_y1_float
from simdist.runtime.ops.registry import RegisterGradient, unary
from simdist.runtime.ops.special_more import _F32_F64, _HALF_UP, _OPDEF_FLOATS, _elementwise, _kernel_rule, _sp
from simdist.runtime.tensor import Tensor

__all__ = ["bessel_j0", "bessel_j1", "bessel_y0", "bessel_y1", "bessel_k0", "bessel_k0e", "bessel_k1", "bessel_k1e",
           "dawsn", "expint", "fresnel_cos", "fresnel_sin", "spence"]


def _decl(name: str, fn: Any, kernels: tuple[str, ...]) -> Any:
    return unary(name, _elementwise(fn), _kernel_rule(name, _OPDEF_FLOATS, kernels))


def _expint(a: np.ndarray) -> np.ndarray:
    """Eigen's Ei (expint_op transcribed: expint_fresnel_eigen.py): NaN for x < 0 and for x = +inf."""
    return expint_fresnel_eigen.expint(a)


def _eigen_float(fn: Any, name: str) -> Any:
    """Eigen's float kernel `fn` (bessel_float.py) for float32 (in packets and a tail) and for half
    (converted to float one element at a time), SciPy's for float64."""
    def forward(a: np.ndarray) -> np.ndarray:
        if a.dtype == np.float64:   # (x < 0: Eigen's -inf for y0/y1, SciPy's NaN)
            with np.errstate(all="ignore"):
                out = getattr(_sp(), name)(a)
                return np.where(a < 0, -np.inf, out) if name[0] == "y" else out
        return fn(a.astype(np.float32), packets=a.dtype == np.float32).astype(a.dtype)
    forward.__name__ = name
    return forward


def _bessel(name: str, fn: Any, short: str) -> Any:
    """The op of an Eigen float kernel, which reads its subnormal inputs under DAZ itself (the tail's
    y1 passes the original to logf): a subnormal input's result is recomputed from the original."""
    forward = _eigen_float(fn, short)

    def fix(arrays: Any, flushed: Any, out: np.ndarray, attrs: Any) -> np.ndarray:
        if arrays[0].dtype == np.float64:   # (SciPy's, on the flushed input: FTZ on its result)
            return np.where(np.abs(out) < np.finfo(np.float64).tiny, out * 0.0, out)
        return forward(arrays[0])
    return unary(name, forward, _kernel_rule(name, _OPDEF_FLOATS, _HALF_UP), subnormals=_sn.Fixed(short, fix))


BESSEL_J0 = _bessel("BesselJ0", bessel_j0_float, "j0")
BESSEL_J1 = _bessel("BesselJ1", bessel_j1_float, "j1")
BESSEL_Y0 = _bessel("BesselY0", bessel_y0_float, "y0")
BESSEL_Y1 = _bessel("BesselY1", bessel_y1_float, "y1")
BESSEL_K0 = _decl("BesselK0", bessel_k_eigen.bessel_k0, _HALF_UP)
BESSEL_K0E = _decl("BesselK0e", bessel_k_eigen.bessel_k0e, _HALF_UP)
BESSEL_K1 = _decl("BesselK1", bessel_k_eigen.bessel_k1, _HALF_UP)
BESSEL_K1E = _decl("BesselK1e", bessel_k_eigen.bessel_k1e, _HALF_UP)
DAWSN = _decl("Dawsn", dawsn_kernel, _F32_F64)   # (Eigen's dawsn_op, transcribed: dawson.py)
EXPINT = _decl("Expint", _expint, _F32_F64)


def _fresnel(part: int) -> Any:
    """Eigen's fresnel_sin_op (part 0) or fresnel_cos_op (part 1), transcribed (expint_fresnel_eigen.py):
    beyond |x| > 36974 the integral is ±0.5 (SciPy's asymptotic series gave 0.4999951 at 65504, NaN at
    -1e300; observed on TF 2.21, fuzz20 seed 2220261202 #161)."""
    return expint_fresnel_eigen.fresnel_cos if part else expint_fresnel_eigen.fresnel_sin


FRESNEL_COS = _decl("FresnelCos", _fresnel(1), _F32_F64)
FRESNEL_SIN = _decl("FresnelSin", _fresnel(0), _F32_F64)
SPENCE = _decl("Spence", spence_kernel, _F32_F64)   # (Eigen's spence_op, transcribed: spence_eigen.py)


def _call(op: Any, x: Any) -> Tensor:
    return dispatch.execute(op, (_t(x),))


def bessel_j0(x: Any, name: str | None = None) -> Tensor:
    """`tf.math.special.bessel_j0`: the Bessel function of the first kind of order 0."""
    return _call(BESSEL_J0, x)


def bessel_j1(x: Any, name: str | None = None) -> Tensor:
    """`tf.math.special.bessel_j1`: the Bessel function of the first kind of order 1."""
    return _call(BESSEL_J1, x)


def bessel_y0(x: Any, name: str | None = None) -> Tensor:
    """`tf.math.special.bessel_y0`: the Bessel function of the second kind of order 0."""
    return _call(BESSEL_Y0, x)


def bessel_y1(x: Any, name: str | None = None) -> Tensor:
    """`tf.math.special.bessel_y1`: the Bessel function of the second kind of order 1."""
    return _call(BESSEL_Y1, x)


def bessel_k0(x: Any, name: str | None = None) -> Tensor:
    """`tf.math.special.bessel_k0`: the modified Bessel function of the second kind of order 0."""
    return _call(BESSEL_K0, x)


def bessel_k0e(x: Any, name: str | None = None) -> Tensor:
    """`tf.math.special.bessel_k0e`: exp(x) * bessel_k0(x)."""
    return _call(BESSEL_K0E, x)


def bessel_k1(x: Any, name: str | None = None) -> Tensor:
    """`tf.math.special.bessel_k1`: the modified Bessel function of the second kind of order 1."""
    return _call(BESSEL_K1, x)


def bessel_k1e(x: Any, name: str | None = None) -> Tensor:
    """`tf.math.special.bessel_k1e`: exp(x) * bessel_k1(x)."""
    return _call(BESSEL_K1E, x)


def dawsn(x: Any, name: str | None = None) -> Tensor:
    """`tf.math.special.dawsn`: Dawson's integral exp(-x^2) * integral_0^x exp(t^2) dt."""
    return _call(DAWSN, x)


def expint(x: Any, name: str | None = None) -> Tensor:
    """`tf.math.special.expint`: the exponential integral Ei(x)."""
    return _call(EXPINT, x)


def fresnel_cos(x: Any, name: str | None = None) -> Tensor:
    """`tf.math.special.fresnel_cos`: integral_0^x cos(pi/2 t^2) dt."""
    return _call(FRESNEL_COS, x)


def fresnel_sin(x: Any, name: str | None = None) -> Tensor:
    """`tf.math.special.fresnel_sin`: integral_0^x sin(pi/2 t^2) dt."""
    return _call(FRESNEL_SIN, x)


def spence(x: Any, name: str | None = None) -> Tensor:
    """`tf.math.special.spence`: Spence's function integral_1^x log(t) / (1 - t) dt."""
    return _call(SPENCE, x)


# --- gradients (math_grad.py) ----------------------------------------------------------------------------
def _m() -> Any:
    from simdist.runtime.ops import math
    return math


@RegisterGradient("BesselJ0")
def _j0_grad(op: Any, grad: Any) -> list:
    return [grad * -bessel_j1(op.inputs[0])]


@RegisterGradient("BesselJ1")
def _j1_grad(op: Any, grad: Any) -> list:
    m = _m()
    x, y = op.inputs[0], op.outputs[0]
    return [grad * m.where(m.equal(x, 0.0), m.cast(0.5, x.dtype), bessel_j0(x) - m.divide(y, x))]


@RegisterGradient("BesselY0")
def _y0_grad(op: Any, grad: Any) -> list:
    return [grad * -bessel_y1(op.inputs[0])]


@RegisterGradient("BesselY1")
def _y1_grad(op: Any, grad: Any) -> list:
    x, y = op.inputs[0], op.outputs[0]
    return [grad * (bessel_y0(x) - _m().divide(y, x))]


@RegisterGradient("BesselK0")
def _k0_grad(op: Any, grad: Any) -> list:
    return [grad * -bessel_k1(op.inputs[0])]


@RegisterGradient("BesselK0e")
def _k0e_grad(op: Any, grad: Any) -> list:
    x, y = op.inputs[0], op.outputs[0]
    return [grad * (y - bessel_k1e(x))]


@RegisterGradient("BesselK1")
def _k1_grad(op: Any, grad: Any) -> list:
    x, y = op.inputs[0], op.outputs[0]
    return [grad * (-bessel_k0(x) - _m().divide(y, x))]


@RegisterGradient("BesselK1e")
def _k1e_grad(op: Any, grad: Any) -> list:
    from simdist.runtime.ops.unary import reciprocal
    x, y = op.inputs[0], op.outputs[0]
    return [grad * (y * (1.0 - reciprocal(x)) - bessel_k0e(x))]


@RegisterGradient("Dawsn")
def _dawsn_grad(op: Any, grad: Any) -> list:
    x, y = op.inputs[0], op.outputs[0]
    return [grad * (1.0 - 2 * x * y)]


@RegisterGradient("Expint")
def _expint_grad(op: Any, grad: Any) -> list:
    from simdist.runtime.ops.unary import exp
    x = op.inputs[0]
    return [grad * exp(x) / x]


@RegisterGradient("FresnelCos")
def _fresnel_cos_grad(op: Any, grad: Any) -> list:
    from simdist.runtime.ops.special import cos
    from simdist.runtime.ops.unary import square
    return [grad * cos((np.pi / 2.0) * square(op.inputs[0]))]


@RegisterGradient("FresnelSin")
def _fresnel_sin_grad(op: Any, grad: Any) -> list:
    from simdist.runtime.ops.special import sin
    from simdist.runtime.ops.unary import square
    return [grad * sin((np.pi / 2.0) * square(op.inputs[0]))]


@RegisterGradient("Spence")
def _spence_grad(op: Any, grad: Any) -> list:
    from simdist.runtime.ops import array
    from simdist.runtime.ops.unary import log
    m = _m()
    x = op.inputs[0]
    partial = log(x) / (1 - x)
    partial = m.where(m.equal(x, 1.0), -array.ones_like(x), partial)
    return [grad * partial]
