"""The value-range sweep's programs (fifty-eighth session, usweep58; test_usweep58.py): elementwise math at the ends
of its value ranges, crossed by rule, recorded on TF 2.21 on an AVX-512 Xeon with oneDNN on (every program
host-dependent: simdist runs them under its reference model on any CPU).

- Every unary op of the list below in float16, bfloat16, float32 and float64 (complex64/128 where TF takes them) on
  one list of hazards per dtype: +-0, the smallest and largest subnormal, the smallest normal, the top two binades
  and the largest finite value, +-inf, NaN of both signs, and the thresholds of simdist's kernel paths (Eigen's
  clamps of tanh float/double, the logistic's 16.6355324 and -104, exp's overflow, underflow and clamp edges in
  float and double, log's sqrt(1/2) split, the float16 range, the rounding edges 2^22, 2^23, 2^52, the domain edges
  +-1 and their neighbours); each list packed into whole packets (8 and 16 lanes) and, in chunks of 7, as a scalar
  tail; values and gradients, and the packets again under tf.function.
- The binary ops with range hazards (pow, atan2, floordiv, floormod, truncatediv, truncatemod, xlogy, xlog1py,
  igamma, igammac, squared_difference, divide_no_nan, nextafter) over every pair of a smaller hazard list, float and
  integer (integer extremes; no integer zero or INT_MIN / -1 denominator: TF raises or traps).
- tf.range (fractional float ranges rising and falling, int dtypes, the dtype inferred from each argument, ranges
  near 2^24 in float32), tf.linspace (num 1, 2, many, axis, batched start/stop), round/rint half-way cases.
- tf.cast between every pair of dtypes TF takes at each source's range ends, raw Cast with Truncate, and
  tf.dtypes.saturate_cast.

Each program returns JSON (floats as the hex of their values; lists of more than 64 as digests); OPEN lists
simdist's disagreements with TF 2.21 left out of the comparison (docs/conformance.md, "Fifty-eighth session ...
usweep58")."""

from __future__ import annotations

import json
import os
from typing import Any, Callable

import numpy as np

from simdist.conformance.suite.kpaths54_cases import const, fwd_grad, packed, without_open
from simdist.conformance.suite.recorded_programs import (RecordedPrograms, avx512_with_onednn, bits, error,
                                                         reference_cpu)

PATH = os.path.join(os.path.dirname(__file__), "usweep58_reference.json.gz")

REF = RecordedPrograms(PATH, host_dependent=("u-",), recording_host=avx512_with_onednn, recording_cpu=reference_cpu)

#: simdist's disagreements with TF 2.21 on the AVX-512 oneDNN Xeon (program -> "case" or "case/field" left out).
#: (1) An exact subnormal result of normal operands (a product by a power of two, x * log(y) with x = 2^-126): TF's
#: FTZ makes it a zero of its sign, simdist keeps it (no underflow flag to note: the "Not modelled" of
#: simdist/runtime/subnormals.py and ops.subnormals): gelu, gelu_tanh and silu of -2^-126 and 1.5 * 2^-126 in the
#: tail, Log's and Square's gradients, xlogy and xdivy of 2^-126. (2) float64 Relu of a subnormal in the scalar
#: tail: TF keeps its bits (std::max), simdist flushes it (the packets flush it in both). (3) Complex gradients at
#: the range ends: the sign of a zero part (reciprocal, log, log1p, cos, cosh) and atan's last bit of complex64.
OPEN: dict[str, tuple[str, ...]] = {
    'u-unary-gelu': ('float32 t7/y', 'float64 t7/y'),
    'u-unary-gelu_tanh': ('float32 t7/y', 'float64 t7/y'),
    'u-unary-silu': ('float32 t7/y', 'float64 t7/y'),
    'u-unary-log': ('float32 t14/g0', 'complex64/g0', 'complex128/g0'),
    'u-unary-log1p': ('complex64/g0', 'complex128/g0'),
    'u-unary-square': ('float32 p/g0',),
    'u-unary-relu': ('float64 t0/y',),
    'u-unary-reciprocal': ('complex64/g0',),
    'u-unary-atan': ('complex64/g0',),
    'u-unary-cos': ('complex128/g0',),
    'u-unary-cosh': ('complex64/g0',),
    'u-binary-xlogy': ('float32/y', 'float32/g1', 'float32 traced', 'float64/y', 'float64 traced'),
    'u-binary-xdivy': ('float32/g1',),
}

FLOATS = ("float16", "bfloat16", "float32", "float64")
COMPLEX = ("complex64", "complex128")
INTS = ("int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64")

#: per dtype: (smallest subnormal, largest subnormal, smallest normal, largest finite) as Python floats
_RANGE = {
    "float16": (2.0**-24, 2.0**-14 - 2.0**-24, 2.0**-14, 65504.0),
    "bfloat16": (2.0**-133, 2.0**-126 - 2.0**-133, 2.0**-126, (2.0 - 2.0**-7) * 2.0**127),
    "float32": (2.0**-149, 2.0**-126 - 2.0**-149, 2.0**-126, (2.0 - 2.0**-23) * 2.0**127),
    "float64": (2.0**-1074, 2.0**-1022 - 2.0**-1074, 2.0**-1022, (2.0 - 2.0**-52) * 2.0**1023),
}
_EMAX = {"float16": 15, "bfloat16": 127, "float32": 127, "float64": 1023}

#: the kernels' thresholds (simdist/runtime/ops: packet_tanh's clamps, packet_math's logistic and log, exp's
#: overflow/underflow in float and double, the float16 range, rounding edges, the domains' edges), both signs
#: where the other sign is a path too
_THRESHOLDS = (
    1e-8, -1e-8, 1e-4, 0.25, 0.5, -0.5, 0.7071067811865476, 0.7071068, 0.75, 0.9999999, -0.9999999, 1.0, -1.0,
    1.0000001, -1.0000001, 1.5, 2.0, -2.0, 2.5, -2.5, 3.141592653589793, -3.141592653589793, 7.90738964080810547,
    -7.90738964080810547, 7.9074, 9.0, -9.0, 16.6355324, -16.6355324, 17.714196154005176, -17.714196154005176, 20.0,
    -20.0, 88.3762626647949, -88.3762626647949, 88.72283935546875, 88.7228469848, -87.33654475, -103.972077,
    -104.0, -104.5, 709.782712893384, -708.39641853226, -745.1332191019411, 1e10, -1e10, 65504.0, 65520.0,
    -65536.0, 4194304.5, 8388607.5, -8388609.0, 4503599627370495.5, 1e30, -1e30,
)


def hazards(dt: str) -> list[float]:
    """The dtype's range ends and the kernels' thresholds (Python floats, rounded into dt by `const`)."""
    tiny, sub, norm, big = _RANGE[dt]
    top = 2.0 ** _EMAX[dt]
    ends = [0.0, -0.0, tiny, -tiny, sub, -sub, norm, -norm, 1.5 * norm, big, -big, top, 1.5 * top,
            top / 2, -top / 2, 0.75 * top, float("inf"), float("-inf"), float("nan"), -float("nan")]
    return ends + list(_THRESHOLDS)


def _split(r: Any) -> Any:
    if not isinstance(r, dict):
        return r
    out = {k: v for k, v in r.items() if k != "grads"}
    for i, g in enumerate(r.get("grads", ())):
        out[f"g{i}"] = g
    return out


def program(name: str, fn: Callable[[Any, Any], Any]) -> None:
    """Register program `name`: its result without the OPEN cases, long value lists as digests."""
    REF.add(name, lambda tf, mk: packed(without_open(name, json.loads(json.dumps(fn(tf, mk))), OPEN)))


def _tiled(vals: list[float], n: int) -> np.ndarray:
    return np.array((vals * (n // len(vals) + 1))[:n], dtype=np.float64)


def _complex(tf: Any, vals: list[float], dt: str) -> Any:
    """Complex hazards: each real hazard paired with another one (shifted by 7) as imaginary part."""
    re = np.array(vals, dtype=np.float64)
    im = np.roll(re, 7)
    ft = "float32" if dt == "complex64" else "float64"
    return tf.complex(tf.constant(re.astype(ft)), tf.constant(im.astype(ft)))


# -- unary ops ----------------------------------------------------------------------------------------------------
def _unary_ops(tf: Any) -> dict[str, Callable[[Any], Any]]:
    m, n = tf.math, tf.nn
    return {
        "reciprocal": m.reciprocal, "rsqrt": m.rsqrt, "sqrt": m.sqrt, "exp": m.exp, "expm1": m.expm1, "log": m.log,
        "log1p": m.log1p, "log_sigmoid": m.log_sigmoid, "sigmoid": m.sigmoid, "tanh": m.tanh,
        "softplus": m.softplus, "softsign": n.softsign, "elu": n.elu, "selu": n.selu,
        "gelu": lambda x: n.gelu(x, approximate=False), "gelu_tanh": lambda x: n.gelu(x, approximate=True),
        "silu": n.silu, "erf": m.erf, "erfc": m.erfc, "erfinv": m.erfinv, "ndtri": m.ndtri, "lgamma": m.lgamma,
        "digamma": m.digamma, "sin": m.sin, "cos": m.cos, "tan": m.tan, "asin": m.asin, "acos": m.acos,
        "atan": m.atan, "sinh": m.sinh, "cosh": m.cosh, "asinh": m.asinh, "acosh": m.acosh, "atanh": m.atanh,
        "square": m.square, "abs": m.abs, "sign": m.sign, "round": m.round, "rint": m.rint, "floor": m.floor,
        "ceil": m.ceil, "is_nan": m.is_nan, "is_inf": m.is_inf, "is_finite": m.is_finite,
        "reciprocal_no_nan": m.reciprocal_no_nan, "bessel_i0e": m.bessel_i0e, "bessel_i1e": m.bessel_i1e,
        "neg": m.negative, "relu": n.relu, "relu6": n.relu6,
    }


#: the unary ops TF takes complex inputs for (a smaller hazard case each)
_COMPLEX_OPS = ("reciprocal", "rsqrt", "sqrt", "exp", "expm1", "log", "log1p", "sigmoid", "tanh", "sin", "cos",
                "tan", "asin", "acos", "atan", "sinh", "cosh", "asinh", "acosh", "atanh", "square", "abs", "sign",
                "reciprocal_no_nan", "neg")

#: packets: the hazards tiled to whole packets of 8 and 16 lanes (96 values); tail: chunks of 7 (a float32/half
#: packet's tail under 8 and 16 lanes; float64's 4-lane packet and a 3-element tail)
_PACKET_N, _CHUNK = 96, 7


def _unary_case(tf: Any, op: str, dt: str, out: dict[str, Any]) -> None:
    """out["<dt> p"]: the hazards in whole packets, value and gradient; "<dt> t<i>": chunk i of the hazards as a
    tail; "<dt> traced": the packets under tf.function."""
    fn = _unary_ops(tf)[op]
    vals = hazards(dt)
    x = const(tf, _tiled(vals, _PACKET_N), dt)
    out[f"{dt} p"] = _split(fwd_grad(tf, fn, [x], name=f"u{op}{dt}"))
    for i in range(0, len(vals), _CHUNK):
        out[f"{dt} t{i}"] = _split(fwd_grad(tf, fn, [const(tf, np.array(vals[i:i + _CHUNK]), dt)],
                                            name=f"t{op}{i}"))
    f = tf.function(fn)
    out[f"{dt} traced"] = error(lambda: bits(f(x)))


for _op in ("reciprocal", "rsqrt", "sqrt", "exp", "expm1", "log", "log1p", "log_sigmoid", "sigmoid", "tanh",
            "softplus", "softsign", "elu", "selu", "gelu", "gelu_tanh", "silu", "erf", "erfc", "erfinv", "ndtri",
            "lgamma", "digamma", "sin", "cos", "tan", "asin", "acos", "atan", "sinh", "cosh", "asinh", "acosh",
            "atanh", "square", "abs", "sign", "round", "rint", "floor", "ceil", "is_nan", "is_inf", "is_finite",
            "reciprocal_no_nan", "bessel_i0e", "bessel_i1e", "neg", "relu", "relu6"):
    def _unary(tf: Any, mk: Any, op: str = _op) -> Any:
        out: dict[str, Any] = {}
        for dt in FLOATS:
            out[dt] = error(lambda: _unary_case(tf, op, dt, out))   # (None, or the class of an error)
        if op in _COMPLEX_OPS:
            fn = _unary_ops(tf)[op]
            for dt in COMPLEX:
                vals = hazards("float32" if dt == "complex64" else "float64")
                out[dt] = error(lambda: _split(fwd_grad(tf, fn, [_complex(tf, vals, dt)], name=f"c{op}{dt}")))
        return out
    program(f"u-unary-{_op}", _unary)


# -- binary ops over every pair of hazards --------------------------------------------------------------------------
_BIN_HAZARDS = (0.0, -0.0, "tiny", "-tiny", "norm", "big", "-big", "inf", "-inf", "nan", 0.5, -0.5, 1.0, -1.0,
                1.5, 2.0, -2.0, 2.5, -3.0, 7.0, 0.9999999, 1e-4, 20.0, -88.5, 1e10, 3.141592653589793)


def _bin_vals(dt: str) -> list[float]:
    tiny, _, norm, big = _RANGE[dt]
    sub = {"tiny": tiny, "-tiny": -tiny, "norm": norm, "big": big, "-big": -big, "inf": float("inf"),
           "-inf": float("-inf"), "nan": float("nan")}
    return [sub[v] if isinstance(v, str) else v for v in _BIN_HAZARDS]


def _binary_ops(tf: Any) -> dict[str, Callable[[Any, Any], Any]]:
    m = tf.math
    return {"pow": m.pow, "atan2": m.atan2, "floordiv": m.floordiv, "floormod": m.floormod,
            "truncatediv": tf.truncatediv, "truncatemod": tf.truncatemod, "xlogy": m.xlogy, "xlog1py": m.xlog1py,
            "igamma": m.igamma, "igammac": m.igammac, "squared_difference": m.squared_difference,
            "divide_no_nan": m.divide_no_nan, "nextafter": m.nextafter, "xdivy": m.xdivy, "maximum": m.maximum,
            "minimum": m.minimum, "multiply_no_nan": m.multiply_no_nan}


_NO_GRAD = ("truncatediv", "truncatemod", "nextafter")
#: integer numerators and denominators at the extremes (no zero denominator, no INT_MIN / -1: TF raises or traps)
_INT_BINARY = ("pow", "floordiv", "floormod", "truncatediv", "truncatemod", "squared_difference", "maximum",
               "minimum")


def _int_pairs(op: str, dt: str) -> tuple[np.ndarray, np.ndarray]:
    info = np.iinfo(dt)
    lo, hi = int(info.min), int(info.max)
    xs = [0, 1, 5, 7, hi, hi - 1, 100] + ([-1, -5, -7, lo, lo + 1, -100] if lo < 0 else [2, 3])
    if op == "pow":
        ys = [0, 1, 2, 3, 7, info.bits - 1, info.bits]
    else:
        ys = [1, 2, 3, 7, hi, hi - 1] + ([-2, -3, -7, lo, lo + 1] if lo < 0 else [5, 6])
    a = np.array([x for x in xs for _ in ys], dtype=object).astype(dt)
    b = np.array([y for _ in xs for y in ys], dtype=object).astype(dt)
    return a, b


for _op in ("pow", "atan2", "floordiv", "floormod", "truncatediv", "truncatemod", "xlogy", "xlog1py", "igamma",
            "igammac", "squared_difference", "divide_no_nan", "nextafter", "xdivy", "maximum", "minimum",
            "multiply_no_nan"):
    def _binary(tf: Any, mk: Any, op: str = _op) -> Any:
        fn = _binary_ops(tf)[op]
        out: dict[str, Any] = {}
        for dt in FLOATS:
            v = _bin_vals(dt)
            a = np.array([x for x in v for _ in v])
            b = np.array([y for _ in v for y in v])
            xa, xb = error(lambda: const(tf, a, dt)), error(lambda: const(tf, b, dt))
            if op in _NO_GRAD:
                out[dt] = error(lambda: {"y": bits(fn(xa, xb))})
            else:
                out[dt] = error(lambda: _split(fwd_grad(tf, fn, [xa, xb], name=f"b{op}{dt}")))
            # a tail: the last 7 pairs alone
            out[f"{dt} tail"] = error(lambda: bits(fn(xa[-_CHUNK:], xb[-_CHUNK:])))
            out[f"{dt} traced"] = error(lambda: bits(tf.function(fn)(xa, xb)))
            # a scalar zero (a tensor and a Python number) on either side of 19 hazards: the broadcast paths
            x19 = error(lambda: const(tf, np.array(v[:19]), dt))
            for side in ("x by 0", "0 by x", "x by 0.0", "-0 by x"):
                z: Any = {"x by 0": lambda: tf.zeros([], dt), "0 by x": lambda: tf.zeros([], dt),
                          "x by 0.0": lambda: 0.0, "-0 by x": lambda: const(tf, np.array(-0.0), dt)}[side]
                pair = (lambda: (x19, z())) if side.startswith("x") else (lambda: (z(), x19))
                out[f"{dt} {side}"] = error(lambda: _rbits(fn(*pair())))
        if op in _INT_BINARY:
            for dt in INTS:
                ia, ib = _int_pairs(op, dt)
                out[dt] = error(lambda: bits(fn(tf.constant(ia), tf.constant(ib))))
        return out
    program(f"u-binary-{_op}", _binary)


# -- tf.range, tf.linspace, round/rint half-way cases ----------------------------------------------------------------
def _rbits(t: Any) -> Any:
    return {"dtype": t.dtype.name, "shape": list(t.shape), "y": bits(t)}


#: (start, limit, delta, dtype or None): fractional float ranges rising and falling, int dtypes, empty ranges
_RANGES: tuple[tuple[Any, Any, Any, Any], ...] = (
    (0.0, 10.0, 0.1, "float32"), (0.1, 3.3, 0.1, "float32"), (1.0, -2.0, -0.3, "float32"), (-1.7, 1.7, 0.35, "float64"),
    (0.0, 10.0, 0.1, "float64"), (0.5, 100.0, 0.7, "float16"), (0.1, 2.0, 0.1, "bfloat16"), (3.0, 3.0, 0.5, "float32"),
    (3.0, 1.0, 0.5, "float32"), (0.0, 1.0, 1.0 / 3.0, "float32"), (-3.0, 4.0, 2.0, "int32"), (10, -10, -3, "int64"),
    (0, 5, 1, "int16"), (0, 5, 2, "int8"), (1, 7, 2, "uint16"), (2, 9, 3, "uint32"), (-5, 5, 1, "bfloat16"),
    (16777200.0, 16777240.0, 1.0, "float32"), (16777215.5, 16777230.0, 0.75, "float32"),
    (16777216.0, 16777200.0, -1.5, "float32"), (9007199254740980.0, 9007199254740996.0, 1.0, "float64"),
    (1e-45, 1e-44, 1e-45, "float32"), (0.0, 1.0, 0.0625, "float16"),
)


def _ranges(tf: Any, mk: Any) -> Any:
    out: dict[str, Any] = {}
    for i, (s, lim, d, dt) in enumerate(_RANGES):
        out[f"{i} {s} {lim} {d} {dt}"] = error(lambda: _rbits(tf.range(s, lim, d, dtype=dt)))
        out[f"{i} tensors"] = error(lambda: _rbits(tf.range(tf.constant(s, dt), tf.constant(lim, dt),
                                                            tf.constant(d, dt))))
    # the dtype inferred from each argument (Python numbers and tensors of each dtype in each place)
    args = {"i": 2, "f": 2.5, "t32": "int32", "t64": "int64", "f16": "float16", "f32": "float32", "f64": "float64"}
    for a, b, c in (("i", "i", "i"), ("f", "i", "i"), ("i", "f", "i"), ("i", "i", "f"), ("t64", "i", "i"),
                    ("i", "t64", "i"), ("i", "i", "t64"), ("i", "f64", "i"), ("f16", "f", "i"), ("i", "f32", "f"),
                    ("t32", "f64", "i"), ("f64", "t32", "i"), ("i", "f16", "i"), ("f", "f", "f32")):
        def val(k: str, v: float) -> Any:
            x = args[k]
            return x if not isinstance(x, str) else tf.constant(v, x)
        out[f"infer {a} {b} {c}"] = error(lambda: _rbits(tf.range(val(a, 0), val(b, 7), val(c, 1))))
    out["limit only 5"] = error(lambda: _rbits(tf.range(5)))
    out["limit only 2.5"] = error(lambda: _rbits(tf.range(2.5)))
    out["delta 0"] = error(lambda: _rbits(tf.range(0, 5, 0)))
    out["wrong way"] = error(lambda: _rbits(tf.range(0.0, -5.0, 1.0)))
    out["traced"] = error(lambda: _rbits(tf.function(lambda s, lim: tf.range(s, lim, 0.1))(
        tf.constant(0.3), tf.constant(4.2))))
    return out


program("u-range", _ranges)


def _linspaces(tf: Any, mk: Any) -> Any:
    out: dict[str, Any] = {}
    for dt in FLOATS:
        for s, e in ((0.0, 1.0), (-3.3, 7.1), (1e-3, 1e3), (5.0, -5.0), (0.1, 0.1)):
            for num in (1, 2, 3, 7, 17, 100):
                out[f"{dt} {s} {e} {num}"] = error(lambda: _rbits(tf.linspace(tf.constant(s, dt),
                                                                                tf.constant(e, dt), num)))
    out["num 0"] = error(lambda: _rbits(tf.linspace(0.0, 1.0, 0)))
    starts = np.array([[0.0, 1.5, -2.0], [10.0, 0.1, 3.0]])
    stops = np.array([[1.0, -1.5, 2.0], [11.0, 0.7, 3.0]])
    for dt in ("float32", "float64"):
        for num in (1, 2, 5):
            for axis in (0, 1, 2, -1):
                out[f"batched {dt} {num} {axis}"] = error(lambda: _rbits(tf.linspace(
                    tf.constant(starts, dt), tf.constant(stops, dt), num, axis=axis)))
        out[f"broadcast {dt}"] = error(lambda: _rbits(tf.linspace(tf.constant(starts[0], dt),
                                                                  tf.constant(2.0, dt), 4)))
    out["traced"] = error(lambda: _rbits(tf.function(lambda s, e: tf.linspace(s, e, 9))(
        tf.constant(0.3), tf.constant(4.2))))
    out["int num tensor"] = error(lambda: _rbits(tf.linspace(0.0, 1.0, tf.constant(4, tf.int64))))
    out["int start"] = error(lambda: _rbits(tf.linspace(0, 10, 6)))
    return out


program("u-linspace", _linspaces)

_HALFWAY = (0.5, -0.5, 1.5, -1.5, 2.5, -2.5, 3.5, 0.49999997, -0.49999997, 0.5000001, 1022.5, -1023.5, 4194304.5,
            8388607.5, -8388607.5, 8388609.0, 16777217.0, 4503599627370495.5, -4503599627370495.5, 4503599627370497.0,
            0.0, -0.0, 1e-40, -1e-40, 65504.0, 2047.5, 1e38, float("inf"), float("-inf"), float("nan"))


def _rounding(tf: Any, mk: Any) -> Any:
    out: dict[str, Any] = {}
    v = np.array(_HALFWAY)
    for dt in FLOATS:
        for name, fn in (("round", tf.math.round), ("rint", tf.math.rint), ("floor", tf.math.floor),
                         ("ceil", tf.math.ceil), ("keras round", tf.keras.ops.round)):
            x = const(tf, v, dt)
            out[f"{name} {dt}"] = error(lambda: bits(fn(x)))
            out[f"{name} {dt} tail"] = error(lambda: bits(fn(x[:5])))
    for dt in ("int32", "int64"):
        out[f"round {dt}"] = error(lambda: bits(tf.math.round(tf.constant([-3, 0, 7, 2**31 - 1], dt))))
    return out


program("u-rounding", _rounding)


# -- casts between every pair at the range ends -------------------------------------------------------------------
CAST_DTYPES = ("bool",) + INTS + FLOATS + COMPLEX


def _source(tf: Any, dt: str) -> Any:
    """A tensor of dtype dt at its range ends (and a few middle values)."""
    if dt == "bool":
        return tf.constant([True, False, True])
    if dt in INTS:
        info = np.iinfo(dt)
        lo, hi = int(info.min), int(info.max)
        vals = [0, 1, 2, 127, 128, 255, 256, 32767, 32768, 65535, 65536, 2**24 + 1, 2**31 - 1, 2**53 + 1,
                2**63 - 1, 2**64 - 1, hi, hi - 1, lo, lo + 1, -1, -129, -32769, -(2**31) - 1, 16777217,
                2**62 + 2**38 + 1, 2049, 257]
        vals = [x for x in vals if lo <= x <= hi]
        return tf.constant(np.array(vals, dtype=object).astype(dt))
    base = hazards("float64" if dt in ("float64", "complex128") else "float32") + [
        127.9, 128.5, -128.5, 255.5, 256.0, -129.0, 32767.5, 65535.9, 65536.0, 2147483520.0, 2147483648.0,
        -2147483904.0, 4294967296.0, 9.223372036854775e18, 9.3e18, 1.8446744073709552e19, -0.99, 0.99,
        1.00048828125, 1.000732421875, 65519.99, 5.960464477539063e-08, 2.9802322387695312e-08, 1.0000000596046448]
    if dt in COMPLEX:
        return _complex(tf, base, dt)
    return const(tf, np.array(base), dt)


def _casts_from(tf: Any, src: str) -> Any:
    out: dict[str, Any] = {}
    x = _source(tf, src)
    for dst in CAST_DTYPES:
        y = error(lambda: tf.cast(x, dst))
        if isinstance(y, str):
            out[dst] = y
        elif dst in COMPLEX:
            out[dst] = [bits(tf.math.real(y)), bits(tf.math.imag(y))]
        else:
            out[dst] = bits(y)
    for dst in ("uint8", "int8", "int16", "uint16", "int32", "uint32", "int64", "uint64", "float16", "bfloat16",
                "float32", "float64"):
        out[f"saturate {dst}"] = error(lambda: bits(tf.dtypes.saturate_cast(x, dst)))
    if src in ("float32", "float64"):
        for dst in ("float16", "bfloat16", "float32"):
            out[f"truncate {dst}"] = error(lambda: bits(tf.raw_ops.Cast(x=x, DstT=dst, Truncate=True)))
    if src in FLOATS:
        for dst in ("float16", "bfloat16", "float32", "float64"):
            out[f"grad {dst}"] = error(lambda: _split(fwd_grad(tf, lambda t: tf.cast(t, dst), [x],
                                                               name=f"cast{src}{dst}")))
    out["traced"] = error(lambda: bits(tf.function(lambda t: tf.cast(t, "int32"))(x)))
    return out


for _src in CAST_DTYPES:
    program(f"u-cast-{_src}", lambda tf, mk, src=_src: _casts_from(tf, src))
