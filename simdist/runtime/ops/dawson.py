"""TF 2.21's Dawsn kernel: Eigen::internal::dawsn_op (tensorflow/core/kernels/special_math/
special_math_op_misc_impl.h in the wheel's headers), Cephes' dawsn in the kernel's own type.

|x| < 3.25: x·AN(x²)/AD(x²); |x| < 6.25 and |x| < 1e9: ½(1/x + z/x²) with z a rational in 1/x²;
otherwise `half / x` — of the signed x, which the kernel then negates for x < 0 like every branch,
so dawsn(x) is +0.5/|x| for x <= -1e9 (Dawson's integral is odd: SciPy's -0.5/|x|) and +0 at -inf.
Each polynomial is Horner's rule (ppolevl) with every multiply and add rounded in the type (the
scalar functor: no packets, no FMA), under DAZ/FTZ (ops.subnormals). Clause ops.math-special.
"""

from __future__ import annotations

import numpy as np

from simdist.runtime.subnormals import flushed as _ftz   # (subnormals as zeros of their sign: DAZ/FTZ)

__all__ = ["dawsn"]

_AN = (1.13681498971755972054E-11, 8.49262267667473811108E-10, 1.94434204175553054283E-8,
       9.53151741254484363489E-7, 3.07828309874913200438E-6, 3.52513368520288738649E-4,
       -8.50149846724410912031E-4, 4.22618223005546594270E-2, -9.17480371773452345351E-2,
       9.99999999999999994612E-1)
_AD = (2.40372073066762605484E-11, 1.48864681368493396752E-9, 5.21265281010541664570E-8,
       1.27258478273186970203E-6, 2.32490249820789513991E-5, 3.25524741826057911661E-4,
       3.48805814657162590916E-3, 2.79448531198828973716E-2, 1.58874241960120565368E-1,
       5.74918629489320327824E-1, 1.00000000000000000539E0)
_BN = (5.08955156417900903354E-1, -2.44754418142697847934E-1, 9.41512335303534411857E-2,
       -2.18711255142039025206E-2, 3.66207612329569181322E-3, -4.23209114460388756528E-4,
       3.59641304793896631888E-5, -2.14640351719968974225E-6, 9.10010780076391431042E-8,
       -2.40274520828250956942E-9, 3.59233385440928410398E-11)
_BD = (1.0, -6.31839869873368190192E-1, 2.36706788228248691528E-1, -5.31806367003223277662E-2,
       8.48041718586295374409E-3, -9.47996768486665330168E-4, 7.81025592944552338085E-5,
       -4.55875153252442634831E-6, 1.89100358111421846170E-7, -4.91324691331920606875E-9,
       7.18466403235734541950E-11)
_CN = (-5.90592860534773254987E-1, 6.29235242724368800674E-1, -1.72858975380388136411E-1,
       1.64837047825189632310E-2, -4.86827613020462700845E-4)
_CD = (1.0, -2.69820057197544900361E0, 1.73270799045947845857E0, -3.93708582281939493482E-1,
       3.44278924041233391079E-2, -9.73655226040941223894E-4)



def polevl(x: np.ndarray, coeffs: tuple[float, ...]) -> np.ndarray:
    """Eigen's ppolevl: Horner's rule from the highest coefficient, x·p + c rounded twice (under FTZ); the one
    copy the Cephes-derived float kernels (dawson, expint/fresnel, the float32 Bessel functions) share."""
    t = x.dtype.type
    p = np.full_like(x, t(coeffs[0]))
    for c in coeffs[1:]:
        p = _ftz(_ftz(p * x) + t(c))
    return p


def _tail(ax: np.ndarray, num: tuple[float, ...], den: tuple[float, ...]) -> np.ndarray:
    """Intervals 2 and 3: half · (1/x² · (N(1/x²) / (x · D(1/x²))) + 1/x)."""
    t = ax.dtype.type
    inv = _ftz(t(1) / ax)
    inv2 = _ftz(inv * inv)
    z = _ftz(polevl(inv2, num) / _ftz(ax * polevl(inv2, den)))
    return _ftz(t(0.5) * _ftz(_ftz(inv2 * z) + inv))


def dawsn(a: np.ndarray) -> np.ndarray:
    """Dawsn of a float32 or float64 array, as TF 2.21's CPU kernel computes it."""
    x = _ftz(np.asarray(a))
    t = x.dtype.type
    with np.errstate(all="ignore"):
        ax = np.abs(x)
        x2 = _ftz(ax * ax)
        one = _ftz(_ftz(ax * polevl(x2, _AN)) / polevl(x2, _AD))
        out = np.where(ax < t(3.25), one,
                       np.where(ax < t(6.25), _tail(ax, _BN, _BD),
                                np.where(ax < t(1.0e9), _tail(ax, _CN, _CD), _ftz(t(0.5) / x))))
        return np.where(x < t(0), -out, out).astype(x.dtype, copy=False)
