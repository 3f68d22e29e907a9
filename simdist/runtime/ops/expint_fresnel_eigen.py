"""TF 2.21's Expint, FresnelCos and FresnelSin kernels: Eigen::internal::expint_op, fresnel_cos_op and
fresnel_sin_op (tensorflow/core/kernels/special_math/special_math_op_misc_impl.h in the wheel's headers),
Cephes' expi and fresnl rewritten for Eigen, scalar only (no packet path), in the element's own type on a
thread with DAZ/FTZ (clause ops.math-special).

Each polynomial is Horner's rule (ppolevl: a product then a sum, each rounded in the type, no fused
multiply-add), and the C library's logf/expf/sinf/cosf (log/exp/sin/cos for float64) are called element by
element (libm.py). Expint: NaN below 0; below 2 ``x·(A(x)/B(x)) + EUL + log(x)`` (left to right); from 2
on, in six intervals (2, 4, 8, 16, 32, 64), ``w = 1/x``, ``f = w·(P(w)/Q(w)) + 1``, ``exp(x)·w·f``. The
Fresnel integrals: ±0.5 beyond |x| > 36974; for x² < 2.5625 ``(|x|·CN(x⁴))/CD(x⁴)`` and
``(|x|³·SN(x⁴))/SD(x⁴)``; otherwise the auxiliary functions f and g of u = t², t = 1/(π·x²) and
``½ ± (f·s - g·c)·y`` (``½ - (f·c + g·s)·y`` for sin) with c, s the cosine and sine of π/2·x² and
y = 1/(π·x); the sign of x applied last. SciPy's values (the float32 ones rounded from double) differed
from TF's in the last bit of float32 fresnel_cos(-2.5), fresnel_sin(1.0) and expint(1.5) (fz44_gen seed
44006; fz47b).
"""

from __future__ import annotations

import numpy as np

from simdist.runtime.ops import libm
from simdist.runtime.ops.dawson import polevl
from simdist.runtime.subnormals import flushed as _ftz   # (subnormals as zeros of their sign: DAZ/FTZ)

__all__ = ["expint", "fresnel_cos", "fresnel_sin"]

_EUL = 0.5772156649015329
_E1A = (-5.350447357812542947283E0, 2.185049168816613393830E2, -4.176572384826693777058E3,
        5.541176756393557601232E4, -3.313381331178144034309E5, 1.592627163384945414220E6)
_E1B = (1.0, -5.250547959112862969197E1, 1.259616186786790571525E3, -1.756549581973534652631E4,
        1.493062117002725991967E5, -7.294949239640527645655E5, 1.592627163384945429726E6)
# (upper bound of the interval, numerator, denominator) for x >= 2
_EI = (
    (4.0, (1.981808503259689673238E-2, -1.271645625984917501326E0, -2.088160335681228318920E0,
           2.755544509187936721172E0, -4.409507048701600257171E-1, 4.665623805935891391017E-2,
           -1.545042679673485262580E-3, 7.059980605299617478514E-5),
     (1.0, 1.476498670914921440652E0, 5.629177174822436244827E-1, 1.699017897879307263248E-1,
      2.291647179034212017463E-2, 4.450150439728752875043E-3, 1.727439612206521482874E-4,
      3.953167195549672482304E-5)),
    (8.0, (-1.373215375871208729803E0, -7.084559133740838761406E-1, 1.580806855547941010501E0,
           -2.601500427425622944234E-1, 2.994674694113713763365E-2, -1.038086040188744005513E-3,
           4.371064420753005429514E-5, 2.141783679522602903795E-6),
     (1.0, 8.585231423622028380768E-1, 4.483285822873995129957E-1, 7.687932158124475434091E-2,
      2.449868241021887685904E-2, 8.832165941927796567926E-4, 4.590952299511353531215E-4,
      -4.729848351866523044863E-6, 2.665195537390710170105E-6)),
    (16.0, (-2.106934601691916512584E0, 1.732733869664688041885E0, -2.423619178935841904839E-1,
            2.322724180937565842585E-2, 2.372880440493179832059E-4, -8.343219561192552752335E-5,
            1.363408795605250394881E-5, -3.655412321999253963714E-7, 1.464941733975961318456E-8,
            6.176407863710360207074E-10),
     (1.0, -2.298062239901678075778E-1, 1.105077041474037862347E-1, -1.566542966630792353556E-2,
      2.761106850817352773874E-3, -2.089148012284048449115E-4, 1.708528938807675304186E-5,
      -4.459311796356686423199E-7, 1.394634930353847498145E-8, 6.150865933977338354138E-10)),
    (32.0, (-2.458119367674020323359E-1, -1.483382253322077687183E-1, 7.248291795735551591813E-2,
            -1.348315687380940523823E-2, 1.342775069788636972294E-3, -7.942465637159712264564E-5,
            2.644179518984235952241E-6, -4.239473659313765177195E-8),
     (1.0, -1.044225908443871106315E-1, -2.676453128101402655055E-1, 9.695000254621984627876E-2,
      -1.601745692712991078208E-2, 1.496414899205908021882E-3, -8.462452563778485013756E-5,
      2.728938403476726394024E-6, -4.239462431819542051337E-8)),
    (64.0, (1.212561118105456670844E-1, -5.823133179043894485122E-1, 2.348887314557016779211E-1,
            -3.040034318113248237280E-2, 1.510082146865190661777E-3, -2.523137095499571377122E-5),
     (1.0, -1.002252150365854016662E0, 2.928709694872224144953E-1, -3.337004338674007801307E-2,
      1.560544881127388842819E-3, -2.523137093603234562648E-5)),
    (np.inf, (-7.657847078286127362028E-1, 6.886192415566705051750E-1, -2.132598113545206124553E-1,
              3.346107552384193813594E-2, -3.076541477344756050249E-3, 1.747119316454907477380E-4,
              -6.103711682274170530369E-6, 1.218032765428652199087E-7, -1.086076102793290233007E-9),
     (1.0, -1.888802868662308731041E0, 1.066691687211408896850E0, -2.751915982306380647738E-1,
      3.930852688233823569726E-2, -3.414684558602365085394E-3, 1.866844370703555398195E-4,
      -6.345146083130515357861E-6, 1.239754287483206878024E-7, -1.086076102793126632978E-9)),
)
_CN = (-4.98843114573573548651E-8, 9.50428062829859605134E-6, -6.45191435683965050962E-4,
       1.88843319396703850064E-2, -2.05525900955013891793E-1, 9.99999999999999998822E-1)
_CD = (3.99982968972495980367E-12, 9.15439215774657478799E-10, 1.25001862479598821474E-7,
       1.22262789024179030997E-5, 8.68029542941784300606E-4, 4.12142090722199792936E-2, 1.00000000000000000118E0)
_SN = (-2.99181919401019853726E3, 7.08840045257738576863E5, -6.29741486205862506537E7, 2.54890880573376359104E9,
       -4.42979518059697779103E10, 3.18016297876567817986E11)
_SD = (1.0, 2.81376268889994315696E2, 4.55847810806532581675E4, 5.17343888770096400730E6,
       4.19320245898111231129E8, 2.24411795645340920940E10, 6.07366389490084639049E11)
_FN = (4.21543555043677546506E-1, 1.43407919780758885261E-1, 1.15220955073585758835E-2, 3.45017939782574027900E-4,
       4.63613749287867322088E-6, 3.05568983790257605827E-8, 1.02304514164907233465E-10,
       1.72010743268161828879E-13, 1.34283276233062758925E-16, 3.76329711269987889006E-20)
_FD = (1.0, 7.51586398353378947175E-1, 1.16888925859191382142E-1, 6.44051526508858611005E-3,
       1.55934409164153020873E-4, 1.84627567348930545870E-6, 1.12699224763999035261E-8,
       3.60140029589371370404E-11, 5.88754533621578410010E-14, 4.52001434074129701496E-17,
       1.25443237090011264384E-20)
_GN = (5.04442073643383265887E-1, 1.97102833525523411709E-1, 1.87648584092575249293E-2, 6.84079380915393090172E-4,
       1.15138826111884280931E-5, 9.82852443688422223854E-8, 4.45344415861750144738E-10,
       1.08268041139020870318E-12, 1.37555460633261799868E-15, 8.36354435630677421531E-19,
       1.86958710162783235106E-22)
_GD = (1.0, 1.47495759925128324529E0, 3.37748989120019970451E-1, 2.53603741420338795122E-2,
       8.14679107184306179049E-4, 1.27545075667729118702E-5, 1.04314589657571990585E-7,
       4.60680728146520428211E-10, 1.10273215066240270757E-12, 1.38796531259578871258E-15,
       8.39158816283118707363E-19, 1.86958710162783236342E-22)


def _c(name: str, x: np.ndarray) -> np.ndarray:
    """The C library's `name` (float32: its f form) on each element."""
    # (reshaped: np.ascontiguousarray makes a 0-d array 1-d)
    return libm.elementwise(name + "f" if x.dtype == np.float32 else name, np.ascontiguousarray(x)).reshape(x.shape)


def expint(a: np.ndarray) -> np.ndarray:
    """Ei of a float32 or float64 array, as TF 2.21's CPU kernel computes it."""
    x = _ftz(np.asarray(a))
    t = x.dtype.type
    one = t(1)
    with np.errstate(all="ignore"):
        small = _ftz(polevl(x, _E1A) / polevl(x, _E1B))
        out = _ftz(_ftz(_ftz(x * small) + t(_EUL)) + _c("log", x))
        w = _ftz(one / x)
        ex = _c("exp", x)
        lo = t(2)
        for hi, num, den in _EI:
            f = _ftz(polevl(w, num) / polevl(w, den))
            f = _ftz(_ftz(w * f) + one)
            out = np.where((x >= lo) & (x < t(hi)) if hi != np.inf else (x >= lo) | np.isnan(x),
                           _ftz(_ftz(ex * w) * f), out)
            lo = t(hi)
        return np.where(x < t(0), t(np.nan), out).astype(x.dtype, copy=False)


def _asymp(ax: np.ndarray, use_sin: bool) -> np.ndarray:
    t = ax.dtype.type
    one, pi = t(1), t(np.pi)
    x2 = _ftz(ax * ax)
    tt = _ftz(one / _ftz(pi * x2))
    u = _ftz(tt * tt)
    f = _ftz(one - _ftz(u * _ftz(polevl(u, _FN) / polevl(u, _FD))))
    g = _ftz(_ftz(tt * polevl(u, _GN)) / polevl(u, _GD))
    z = _ftz(t(1.5707963267948966) * x2)
    c, s = _c("cos", z), _c("sin", z)
    y = _ftz(one / _ftz(pi * ax))
    if use_sin:
        inter = _ftz(_ftz(f * c) + _ftz(g * s))
        return _ftz(t(0.5) - _ftz(inter * y))
    inter = _ftz(_ftz(f * s) - _ftz(g * c))
    return _ftz(t(0.5) + _ftz(inter * y))


def _fresnel(a: np.ndarray, use_sin: bool) -> np.ndarray:
    x = _ftz(np.asarray(a))
    t = x.dtype.type
    with np.errstate(all="ignore"):
        ax = np.abs(x)
        x2 = _ftz(x * x)
        x4 = _ftz(x2 * x2)
        if use_sin:
            near = _ftz(_ftz(_ftz(ax * x2) * polevl(x4, _SN)) / polevl(x4, _SD))
        else:
            near = _ftz(_ftz(ax * polevl(x4, _CN)) / polevl(x4, _CD))
        out = np.where(x2 < t(2.5625), near, _asymp(ax, use_sin))
        out = np.where(ax > t(36974.0), t(0.5), out)
        return np.where(x < t(0), -out, out).astype(x.dtype, copy=False)


def fresnel_cos(a: np.ndarray) -> np.ndarray:
    """FresnelCos of a float32 or float64 array, as TF 2.21's CPU kernel computes it."""
    return _fresnel(a, False)


def fresnel_sin(a: np.ndarray) -> np.ndarray:
    """FresnelSin of a float32 or float64 array, as TF 2.21's CPU kernel computes it."""
    return _fresnel(a, True)
