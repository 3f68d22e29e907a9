"""NaN, infinity and signalling-NaN bits through elementwise ops by dtype, crossed by rule (sixty-fifth session,
bsweep65; test_bsweep65.py).

What is crossed (batches 86/87's survivors and open lists: NaN bits by dtype in elementwise kernels — signalling NaNs
quieted by packets, plog's all-ones NaN, bfloat16's NaN signs, the complex sign at non-finite parts):
- b-unary-<dtype>: every unary math and activation op (tf.math, tf.nn) on vectors of each dtype's special values —
  quiet NaNs of distinct payloads and both signs, signalling NaNs (0x7f800001 / 0x7fa00000 and each dtype's
  analogue), ±inf, ±0, the smallest subnormal, the largest finite, ±1 and domain edges — at lengths 1, 7, 8, 9, 16,
  17 and 33 (packets and tails; the values rotate with the length so each lands in both), eager, and traced
  (tf.function over an argument, so Grappler rewrites but does not fold) at 9 and 33;
- b-binary-<dtype>: arithmetic, min/max, pow/atan2, the x-functions, comparisons, where and clip_by_value on pairs
  of such vectors (NaN against NaN of another payload, x against itself), eager and traced;
- b-reduce: reduce_max/min/sum/prod/mean/logsumexp and argmax/argmin of the vectors, by dtype;
- b-cast: casts between the float dtypes and to and from complex.

Values are compared by their raw bits (a NaN's payload and sign included; bfloat16 as its 16 bits, complex part by
part), refusals by error class. Every program is host-dependent (`b-`: Eigen's packet kernels on the recording
host's AVX-512 pick the NaN). `python -m simdist.conformance.suite.test_bsweep65 --record` rewrites
bsweep65_reference.json.gz. OPEN lists simdist's disagreements with TF 2.21 left out of the comparison."""

from __future__ import annotations

import json
import os
from typing import Any, Callable

import numpy as np

from simdist.conformance.suite.recorded_programs import RecordedPrograms, avx512_with_onednn, reference_cpu

PATH = os.path.join(os.path.dirname(__file__), "bsweep65_reference.json.gz")

REF = RecordedPrograms(PATH, host_dependent=("b-",), recording_host=avx512_with_onednn, recording_cpu=reference_cpu)

REAL = ("float16", "bfloat16", "float32", "float64")
COMPLEX = ("complex64", "complex128")
LENGTHS = (1, 7, 8, 9, 16, 17, 33)
TRACED = (9, 33)

#: each real dtype's special values as bit patterns: quiet NaNs (payloads, both signs), signalling NaNs, ±inf, ±0,
#: ±smallest subnormal, ±largest finite, ±1 and domain edges (0.5, -0.5, 1.5, -2, 3)
_SPECIAL = {
    "float32": (0x7FC01234, 0xFFC05678, 0x7F800001, 0x7FA00000, 0x7F800000, 0xFF800000, 0x00000000, 0x80000000,
                0x00000001, 0x80000001, 0x7F7FFFFF, 0xFF7FFFFF, 0x3F800000, 0xBF800000, 0x3F000000, 0xBF000000,
                0x3FC00000, 0xC0000000, 0x40400000, 0x7FC00000),
    "float64": (0x7FF8012340000000, 0xFFF8056780000000, 0x7FF0000000000001, 0x7FF4000000000000, 0x7FF0000000000000,
                0xFFF0000000000000, 0x0, 0x8000000000000000, 0x1, 0x8000000000000001, 0x7FEFFFFFFFFFFFFF,
                0xFFEFFFFFFFFFFFFF, 0x3FF0000000000000, 0xBFF0000000000000, 0x3FE0000000000000, 0xBFE0000000000000,
                0x3FF8000000000000, 0xC000000000000000, 0x4008000000000000, 0x7FF8000000000000),
    "float16": (0x7E12, 0xFE34, 0x7C01, 0x7D00, 0x7C00, 0xFC00, 0x0000, 0x8000, 0x0001, 0x8001, 0x7BFF, 0xFBFF,
                0x3C00, 0xBC00, 0x3800, 0xB800, 0x3E00, 0xC000, 0x4200, 0x7E00),
    "bfloat16": (0x7FC1, 0xFFC5, 0x7F81, 0x7FA0, 0x7F80, 0xFF80, 0x0000, 0x8000, 0x0001, 0x8001, 0x7F7F, 0xFF7F,
                 0x3F80, 0xBF80, 0x3F00, 0xBF00, 0x3FC0, 0xC000, 0x4040, 0x7FC0),
}
_UINT = {"float32": np.uint32, "float64": np.uint64, "float16": np.uint16, "bfloat16": np.uint16,
         "complex64": np.uint32, "complex128": np.uint64}
#: complex values as (real, imaginary) indices into the part dtype's _SPECIAL
_CPAIRS = ((0, 6), (6, 0), (4, 1), (5, 0), (1, 6), (0, 7), (4, 4), (5, 12), (6, 6), (7, 7), (12, 13), (2, 12),
           (12, 3), (10, 10), (8, 6), (6, 4), (0, 1), (4, 0), (7, 5), (1, 4))
_PART = {"complex64": "float32", "complex128": "float64"}


def _start(n: int, shift: int, aligned: bool) -> int:
    """The first element's index into the special values: rotated by the length (so each value lands in packets and
    in tails across the lengths) or, `aligned`, from the list's start (the NaNs at the front of every length)."""
    return shift if aligned else n + shift


def _bits_vec(dt: str, n: int, shift: int, aligned: bool) -> np.ndarray:
    """n values of dt's special list (bit patterns), element i the (i + start)-th, cyclically."""
    vals = _SPECIAL[_PART.get(dt, dt)]
    m, s = len(vals), _start(n, shift, aligned)
    return np.array([vals[(i + s) % m] for i in range(n)], dtype=_UINT[dt])


def make(tf: Any, dt: str, n: int, shift: int = 0, aligned: bool = False) -> Any:
    """A length-n tensor of dtype dt from the special values (exact bits, by bitcast from unsigned integers)."""
    if dt in _PART:
        part = _PART[dt]
        vals = _SPECIAL[part]
        s = _start(n, shift, aligned)
        pairs = [_CPAIRS[(i + s) % len(_CPAIRS)] for i in range(n)]
        re = tf.bitcast(tf.constant(np.array([vals[a] for a, _ in pairs], _UINT[dt])), getattr(tf, part))
        im = tf.bitcast(tf.constant(np.array([vals[b] for _, b in pairs], _UINT[dt])), getattr(tf, part))
        return tf.complex(re, im)
    u = _bits_vec(dt, n, shift, aligned)
    src = tf.constant(u.view(np.int16) if u.dtype == np.uint16 else u)
    return tf.bitcast(src, getattr(tf, dt))


def raw(t: Any) -> Any:
    """A tensor's dtype and values as the hex of their bytes (each element's bits; complex part by part,
    bfloat16 as its 16 bits)."""
    a = np.asarray(t.numpy() if hasattr(t, "numpy") else t)
    return f"{a.dtype.name}{list(a.shape)}:{np.ascontiguousarray(a).tobytes().hex()}"


def attempt(fn: Callable[[], Any]) -> Any:
    """fn()'s raw bits, or "raised <class>"."""
    try:
        return raw(fn())
    except Exception as e:  # noqa: BLE001 - the class is the observation
        return f"raised {type(e).__name__}"


#: simdist's disagreements with TF 2.21 left out of the comparison: program -> case keys (docs/conformance.md,
#: "Sixty-fifth session ... bsweep65", "... fix65c" and "Sixty-sixth session ... fix66n"). None left: complex
#: DivNoNan's packets (fix66n: the x.im product takes y's operand first, complex_div `_pdiv`) and traced complex
#: `x * 2` (fix66n: a Python operand's Const is `mul/y`, graph_names.name_literal, which Grappler's canonical order
#: puts first) are fixed, as were float64 Prod of 40 elements and bfloat16 Xlogy of a subnormal x (fix65n).
OPEN: dict[str, tuple[str, ...]] = {}


def without_open(name: str, out: dict[str, Any]) -> dict[str, Any]:
    """Program `name`'s result without its OPEN cases."""
    for key in OPEN.get(name, ()):
        out.pop(key, None)
    return out


def program(name: str, fn: Callable[[Any, Any], Any]) -> None:
    """Register program `name`: its result without the OPEN cases."""
    REF.add(name, lambda tf, mk: without_open(name, json.loads(json.dumps(fn(tf, mk)))))


def unary_ops(tf: Any) -> dict[str, Callable[[Any], Any]]:
    """Every unary elementwise op of the sweep (a refusal for a dtype is an observation)."""
    m, nn = tf.math, tf.nn
    return {
        "abs": m.abs, "neg": m.negative, "sign": m.sign, "square": m.square, "sqrt": m.sqrt, "rsqrt": m.rsqrt,
        "reciprocal": m.reciprocal, "reciprocal_no_nan": m.reciprocal_no_nan, "exp": m.exp, "expm1": m.expm1,
        "log": m.log, "log1p": m.log1p, "sin": m.sin, "cos": m.cos, "tan": m.tan, "asin": m.asin, "acos": m.acos,
        "atan": m.atan, "sinh": m.sinh, "cosh": m.cosh, "tanh": m.tanh, "asinh": m.asinh, "acosh": m.acosh,
        "atanh": m.atanh, "sigmoid": m.sigmoid, "log_sigmoid": m.log_sigmoid, "erf": m.erf, "erfc": m.erfc,
        "erfinv": m.erfinv, "ndtri": m.ndtri, "lgamma": m.lgamma, "digamma": m.digamma, "ceil": m.ceil,
        "floor": m.floor, "round": m.round, "rint": m.rint, "softplus": m.softplus, "softsign": nn.softsign,
        "relu": nn.relu, "relu6": nn.relu6, "elu": nn.elu, "selu": nn.selu, "leaky_relu": nn.leaky_relu,
        "gelu": nn.gelu, "gelu_tanh": lambda x: nn.gelu(x, approximate=True), "silu": nn.silu,
        "is_nan": m.is_nan, "is_inf": m.is_inf, "is_finite": m.is_finite, "real": m.real, "imag": m.imag,
        "conj": m.conj, "angle": m.angle, "x*x": lambda x: x * x, "x+x": lambda x: x + x, "x*2": lambda x: x * 2,
        "1/x": lambda x: 1 / x, "x-x": lambda x: x - x, "0-x": lambda x: 0 - x,
    }


def binary_ops(tf: Any) -> dict[str, Callable[[Any, Any], Any]]:
    """Every binary elementwise op of the sweep."""
    m = tf.math
    return {
        "add": m.add, "sub": m.subtract, "mul": m.multiply, "div": m.truediv, "div_no_nan": m.divide_no_nan,
        "mul_no_nan": m.multiply_no_nan, "maximum": m.maximum, "minimum": m.minimum, "pow": m.pow, "atan2": m.atan2,
        "squared_difference": m.squared_difference, "floormod": m.floormod, "floordiv": m.floordiv, "xlogy": m.xlogy,
        "xdivy": m.xdivy, "xlog1py": m.xlog1py, "nextafter": m.nextafter, "equal": m.equal, "less": m.less,
        "greater_equal": m.greater_equal, "not_equal": m.not_equal,
        "where": lambda x, y: tf.where(m.less(x, y), x, y),
        "clip": lambda x, y: tf.clip_by_value(x, -1.0, 1.0) if x.dtype.is_floating else tf.clip_by_value(x, x, y),
    }


def _unary(dt: str) -> Callable[[Any, Any], Any]:
    def run(tf: Any, mk: Any) -> dict[str, Any]:
        ops = unary_ops(tf)
        out: dict[str, Any] = {}
        for n in LENGTHS:
            x, xa = make(tf, dt, n), make(tf, dt, n, aligned=True)
            for name, f in ops.items():
                out[f"{name} {n}"] = attempt(lambda: f(x))
                out[f"{name} {n} a"] = attempt(lambda: f(xa))
        for n in TRACED:
            x = make(tf, dt, n)
            for name, f in ops.items():
                fn = tf.function(f)
                out[f"{name} {n} traced"] = attempt(lambda: fn(x))
        for shift in (0, 2):   # 0-d tensors: a negative quiet NaN and a signalling NaN
            x = tf.reshape(make(tf, dt, 1, shift, aligned=True), [])
            for name, f in ops.items():
                out[f"{name} 0-d {shift}"] = attempt(lambda: f(x))
        return out
    return run


def _binary(dt: str) -> Callable[[Any, Any], Any]:
    def run(tf: Any, mk: Any) -> dict[str, Any]:
        ops = binary_ops(tf)
        out: dict[str, Any] = {}
        for n in LENGTHS:
            x, y = make(tf, dt, n), make(tf, dt, n, shift=7)
            xa, ya = make(tf, dt, n, aligned=True), make(tf, dt, n, shift=3, aligned=True)
            for name, f in ops.items():
                out[f"{name} {n}"] = attempt(lambda: f(x, y))
                out[f"{name} {n} yx"] = attempt(lambda: f(y, x))
                out[f"{name} {n} a"] = attempt(lambda: f(xa, ya))
        for n in TRACED:
            x, y = make(tf, dt, n), make(tf, dt, n, shift=7)
            for name, f in ops.items():
                fn = tf.function(f)
                out[f"{name} {n} traced"] = attempt(lambda: fn(x, y))
        for sx, sy in ((0, 3), (2, 1), (4, 9)):   # 0-d tensors: NaN against NaN, inf against a subnormal
            x, y = (tf.reshape(make(tf, dt, 1, s, aligned=True), []) for s in (sx, sy))
            for name, f in ops.items():
                out[f"{name} 0-d {sx} {sy}"] = attempt(lambda: f(x, y))
        return out
    return run


def _reduce(tf: Any, mk: Any) -> dict[str, Any]:
    out: dict[str, Any] = {}
    ops = {"max": tf.reduce_max, "min": tf.reduce_min, "sum": tf.reduce_sum, "prod": tf.reduce_prod,
           "mean": tf.reduce_mean, "logsumexp": tf.reduce_logsumexp,
           "argmax": lambda x: tf.argmax(x, 0), "argmin": lambda x: tf.argmin(x, 0)}
    for dt in REAL + COMPLEX:
        for n in LENGTHS + (2, 3, 20, 40):
            for shift in (0, 1):
                x = make(tf, dt, n, shift)
                for name, f in ops.items():
                    out[f"{name} {dt} {n} {shift}"] = attempt(lambda: f(x))
        for n in TRACED:
            x = make(tf, dt, n)
            for name, f in ops.items():
                out[f"{name} {dt} {n} traced"] = attempt(lambda: tf.function(f)(x))
    return out


def _cast(tf: Any, mk: Any) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for dt in REAL + COMPLEX:
        for n in (1, 7, 9, 17, 33):
            x, xa = make(tf, dt, n), make(tf, dt, n, aligned=True)
            for to in REAL + COMPLEX:
                out[f"{dt} {to} {n}"] = attempt(lambda: tf.cast(x, getattr(tf, to)))
                out[f"{dt} {to} {n} a"] = attempt(lambda: tf.cast(xa, getattr(tf, to)))
            if n == 1:
                x0 = tf.reshape(make(tf, dt, 1, 2, aligned=True), [])
                for to in REAL + COMPLEX:
                    out[f"{dt} {to} 0-d"] = attempt(lambda: tf.cast(x0, getattr(tf, to)))
            if n == 33:
                for to in REAL + COMPLEX:
                    out[f"{dt} {to} {n} traced"] = attempt(lambda: tf.function(lambda v: tf.cast(v, getattr(tf, to)))(x))
    return out


for _dt in REAL + COMPLEX:
    program(f"b-unary-{_dt}", _unary(_dt))
    program(f"b-binary-{_dt}", _binary(_dt))
program("b-reduce", _reduce)
program("b-cast", _cast)
