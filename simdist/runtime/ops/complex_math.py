"""Complex numbers' own ops (TF's math_ops): tf.complex, tf.math.real, imag, conj, angle, and
tf.abs of a complex tensor (ComplexAbs), with math_grad.py's gradients (clause ops.complex).

TF's convention for complex gradients: the gradient with respect to z of a real loss L is
dL/d(re z) + i dL/d(im z) (the conjugate Wirtinger derivative times 2); a holomorphic op's
gradient multiplies the incoming one by the conjugate of its derivative (`conj_of`).
"""

from __future__ import annotations

import math as _pymath
from typing import Any

import numpy as np

from simdist.runtime import dtypes
from simdist.runtime.ops import args, dispatch
from simdist.runtime.ops.args import t as _t
from simdist.runtime.ops.registry import RegisterGradient, binary, unary
from simdist.runtime.tensor import Tensor

__all__ = ["complex_", "real", "imag", "conj", "angle", "complex_abs", "conj_of"]

_COMPLEX = "complex64, complex128"
_PARTS = {"float32": dtypes.complex64, "float64": dtypes.complex128}


def _complex_in(name: str) -> Any:
    """The rule of Real/Imag/Angle/ComplexAbs: a complex input, its parts' dtype out (attr Tout)."""
    check = args.allowed(name, "c", _COMPLEX)

    def rule(dts: Any, attrs: Any) -> dtypes.DType:
        return check(dts, attrs).real_dtype
    return rule


def _complex_rule(dts: Any, attrs: Any) -> dtypes.DType:
    """Complex: two float32 (complex64) or float64 (complex128) parts."""
    d = args.same_dtype("Complex")(dts, attrs)
    out = _PARTS.get(d.name)
    if out is None:
        raise TypeError(f"The `real` and `imag` components have incorrect types: {dts[0].name} {dts[1].name}. They "
                        "must be consistent, and one of [tf.float32, tf.float64]")
    return out


def _complex_forward(re: np.ndarray, im: np.ndarray) -> np.ndarray:
    out = np.empty(np.broadcast_shapes(re.shape, im.shape), np.complex64 if re.dtype == np.float32 else np.complex128)
    out.real, out.imag = re, im
    return out


def _abs(z: np.ndarray) -> np.ndarray:
    """|z| as Eigen's std::abs (hypot): no overflow for parts beyond sqrt(max); the parts read under
    DAZ (complex64 abs(1e-38 + 1e-38j) is 0 in TF 2.21: 1e-38 is a float32 subnormal; fz5 ext seed
    61 #55) and a subnormal result flushed."""
    re, im = z.real, z.imag
    if z.dtype.kind == "c":
        tiny = np.finfo(re.dtype).tiny
        re, im = (np.where(np.abs(v) < tiny, v * v.dtype.type(0), v) for v in (re, im))
    with np.errstate(over="ignore", invalid="ignore"):
        out = np.hypot(re, im)
    if z.dtype.kind == "c":
        out = np.where(np.abs(out) < np.finfo(out.dtype).tiny, out * out.dtype.type(0), out)
    return out


def _angle(z: np.ndarray) -> np.ndarray:
    """std::arg of each element: the C library's atan2f/atan2 (libm.py; equal to TF 2.21 on 4,099
    complex64 and complex128 values), on every element (no packets), under the CPU's DAZ/FTZ as Atan2's
    scalar tail computes it (packet_atan2.tail: angle(1 - 1e-45j) is -1e-45, angle(1e-40 + 1e-40j) NaN;
    fz36a, function seed 3620261205 #109: simdist flushed the result and read the parts unflushed); not
    NumPy's arctan2, which is SVML's on a CPU with AVX-512 (ops.host-cpu)."""
    im, re = np.asarray(z.imag), np.asarray(z.real)
    if re.dtype in (np.float32, np.float64):
        from simdist.runtime.ops import packet_atan2
        if not re.size:
            return np.empty(re.shape, re.dtype)
        with np.errstate(all="ignore"):
            return packet_atan2.tail(np.ascontiguousarray(im).ravel(), np.ascontiguousarray(re).ravel()).reshape(
                re.shape)
    return np.arctan2(im, re)


COMPLEX = binary("Complex", _complex_forward, _complex_rule)
# (np.array, not np.ascontiguousarray, which makes a 0-d part 1-d: real of a scalar was [x]; fz5 ext seed 61 #218)
REAL = unary("Real", lambda z: np.array(z.real), _complex_in("Real"))
IMAG = unary("Imag", lambda z: np.array(z.imag), _complex_in("Imag"))
CONJ = unary("Conj", np.conjugate, args.allowed("Conj", "c", _COMPLEX + ", variant"))
ANGLE = unary("Angle", _angle, _complex_in("Angle"), subnormals="keep")   # (the kernel's DAZ/FTZ: _angle)
COMPLEX_ABS = unary("ComplexAbs", _abs, _complex_in("ComplexAbs"))


def complex_(real: Any, imag: Any, name: str | None = None) -> Tensor:  # noqa: A002
    """`tf.complex(real, imag)`: float32 parts make complex64, float64 parts complex128."""
    re, im = _t(real), _t(imag)
    if re.dtype != im.dtype or re.dtype.name not in _PARTS:   # math_ops.complex's TypeError, before the op
        raise TypeError(f"The `real` and `imag` components have incorrect types: {re.dtype.name} {im.dtype.name}. "
                        "They must be consistent, and one of [tf.float32, tf.float64]")
    from simdist.runtime.ops import raw_shapes
    raw_shapes.check("Complex", [re, im])   # (BinaryOp's "Incompatible shapes", not NumPy's ValueError)
    return dispatch.execute(COMPLEX, (re, im))


def real(input: Any, name: str | None = None) -> Tensor:  # noqa: A002
    """`tf.math.real`: the real part of a complex tensor; a real (numeric) tensor itself; bool is TypeError."""
    x = _t(input)
    if x.dtype.kind == "c":
        return dispatch.execute(REAL, (x,))
    if x.dtype.kind not in "fiu":
        raise TypeError(f"input must be a numeric tensor, but got tensor with dtype {x.dtype}")
    return x


def imag(input: Any, name: str | None = None) -> Tensor:  # noqa: A002
    """`tf.math.imag`: the imaginary part of a complex tensor; zeros_like(input) of a real one."""
    x = _t(input)
    if x.dtype.kind == "c":
        return dispatch.execute(IMAG, (x,))
    from simdist.runtime.ops.array import zeros_like
    return zeros_like(x)


def conj(x: Any, name: str | None = None) -> Tensor:
    """`tf.math.conj`: the complex conjugate; a real tensor itself (bool and string are TypeError)."""
    t = _t(x)
    if t.dtype.kind == "c":
        return dispatch.execute(CONJ, (t,))
    if t.dtype.kind not in "fiu":
        raise TypeError(f"Expected numeric or variant tensor, got dtype {t.dtype!r}.")
    return t


def angle(input: Any, name: str | None = None) -> Tensor:  # noqa: A002
    """`tf.math.angle`: atan2(imag, real) of a complex tensor; where(x < 0, pi, 0) of a real one (NaN gives 0)."""
    x = _t(input)
    if x.dtype.kind == "c":
        return dispatch.execute(ANGLE, (x,))
    from simdist.runtime.ops import math
    from simdist.runtime.ops.array import ones_like, zeros_like
    return math.where(x < 0, _pymath.pi * ones_like(x), zeros_like(x))


def complex_abs(x: Tensor) -> Tensor:
    """tf.abs of a complex tensor: ComplexAbs, of the parts' dtype."""
    return dispatch.execute(COMPLEX_ABS, (x,))


def conj_of(t: Tensor) -> Tensor:
    """conj(t) for a complex tensor, t itself otherwise: the factor TF's gradients conjugate."""
    return dispatch.execute(CONJ, (t,)) if t.dtype.kind == "c" else t


def _zeros(t: Tensor) -> Tensor:
    from simdist.runtime.ops.array import zeros_like
    return zeros_like(t)


@RegisterGradient("Real")
def _real_grad(op: Any, grad: Tensor) -> list:
    """math_grad._RealGrad: complex(grad, 0)."""
    return [complex_(grad, _zeros(grad))]


@RegisterGradient("Imag")
def _imag_grad(op: Any, grad: Tensor) -> list:
    """math_grad._ImagGrad: complex(0, grad)."""
    return [complex_(_zeros(grad), grad)]


@RegisterGradient("Complex")
def _complex_grad(op: Any, grad: Tensor) -> list:
    """math_grad._ComplexGrad: real(grad) and imag(grad), summed to each part's shape."""
    from simdist.runtime.ops.math import unbroadcast
    re, im = op.inputs
    return [unbroadcast(real(grad), re.shape), unbroadcast(imag(grad), im.shape)]


@RegisterGradient("Conj")
def _conj_grad(op: Any, grad: Tensor) -> list:
    return [conj(grad)]


@RegisterGradient("ComplexAbs")
def _complex_abs_grad(op: Any, grad: Tensor) -> list:
    """math_grad._ComplexAbsGrad: div_no_nan(complex(grad, 0) * z, complex(|z|, 0))."""
    from simdist.runtime.ops import math
    z, out = op.inputs[0], op.outputs[0]
    return [math.divide_no_nan(complex_(grad, _zeros(grad)) * z, complex_(out, _zeros(out)))]


@RegisterGradient("Angle")
def _angle_grad(op: Any, grad: Tensor) -> list:
    """math_grad._AngleGrad: -complex(grad, 0) * reciprocal(complex(imag(z), real(z)))."""
    from simdist.runtime.ops.unary import reciprocal
    z = op.inputs[0]
    w = reciprocal(complex_(imag(z), real(z)))
    return [-complex_(grad, _zeros(grad)) * w]
