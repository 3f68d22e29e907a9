"""Python and NumPy operands at their range ends beside tensors (sixtieth session, nsweep60; test_nsweep60.py): the
binary ops and their operators crossed by rule with every operand form, value class, tensor dtype and mode, bit for
bit against TF 2.21's recorded results.

What is crossed (blind77's gap program takes Python float zeros and float32/float64 subnormal Python floats through
a few operators; nothing else crossed Python or NumPy scalars at range ends):
- operators + - * / // % ** (the tensor on the left and on the right, so the reflected forms), tf.add, subtract,
  multiply, truediv, divide, floordiv, floormod, pow, maximum, minimum, squared_difference, atan2, xdivy,
  div_no_nan and the comparisons == != < >=, with the operand in each form: a Python float, int and bool, NumPy
  float16/float32/float64 and int32/int64 scalars, a 0-d tensor and a one-element list;
- values: 0.0 and -0.0 in sequences (one sign first, then the other, then the first again, each form, TF's eager
  scalar cache starting empty: `fresh`), float64's (5e-324, 1e-310), float32's (1e-40, 1e-45) and the half types'
  subnormals, values that round to a subnormal or overflow in the tensor's dtype (1e-8, 65520.0, 3.4e39), int
  extremes (2**31 - 1, -2**31, 2**63 - 1, -2**63, 2**64 - 1) and big ints into float16/bfloat16, +-inf and NaN;
- tensor dtypes float16, bfloat16, float32, float64, int8/16/32/64 and uint8/16/32/64 (where TF accepts the
  operand: the refusals' exception classes are results too);
- modes: eager, inside a tf.function (Grappler folds constant operands: x * 1, x + 0, x - (-0.0), x * 0 and their
  mirrors keep or drop zeros' signs) and the gradient w.r.t. the tensor (eager and traced);
- tf.where's scalar branches, clip_by_value's bounds, tf.fill's value, Variable.assign_add/assign_sub of a
  Python number.

Every program is recorded as host-dependent (half types' arithmetic, pow and atan2 run in the CPU's Eigen kernels):
simdist runs them under its reference model of the AVX-512 oneDNN recording host. `python -m
simdist.conformance.suite.test_nsweep60 --record` rewrites nsweep60_reference.json.gz. OPEN lists simdist's
disagreements with TF 2.21 left out of the comparison."""

from __future__ import annotations

import json
import os
from typing import Any, Callable

import numpy as np

from simdist.conformance.suite.kpaths54_cases import packed, without_open
from simdist.conformance.suite.recorded_programs import RecordedPrograms, avx512_with_onednn, bits, reference_cpu

PATH = os.path.join(os.path.dirname(__file__), "nsweep60_reference.json.gz")

REF = RecordedPrograms(PATH, host_dependent=("n-",), recording_host=avx512_with_onednn, recording_cpu=reference_cpu)

FLOATS = ("float16", "bfloat16", "float32", "float64")
INTS = ("int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64")

#: simdist's disagreements with TF 2.21 left out of the comparison: program -> case keys (docs/conformance.md,
#: "Sixtieth session ... nsweep60"; /work/wt/nsweep60_logs/detail.py over the recording). One class: a Python int
#: outside [0, 2**64) beside a uint64 tensor (and clip_by_value(uint64, -1, ...), assign_add/sub of one). TF 2.21's
#: outcome depends on the process's history: the first eager call of an op's fast path with such an operand raises
#: (`t * -1`: OverflowError "can't convert negative int to unsigned", `t + 2**64`: SystemError "... returned a result
#: with an exception set"), and the same call again, or after any other Mul/AddV2 of uint64, gives the wrapped value
#: (`t * -1` then `t * -1`: [2**64 - 3, ...]; fresh-process probe, nsweep60_logs); tf.maximum and // give values on
#: their first call. simdist raises every time (convert.py UINT64_PENDING, math.py `_uint64_overflow`).
OPEN: dict[str, tuple[str, ...]] = {
    'n-ints-uint64': (
        '-1 py', '-129 py', '-2147483648 py', '-9223372036854775808 py', '18446744073709551616 py',
    ),
    # (tf.where(cond, uint64, -1): OverflowError on the first call, then values, as above; Variable(uint64)
    # .assign_add(-1): TF 2.21's InvalidArgumentError, simdist's SystemError)
    'n-others-uint64': (
        '-1 assign', '-1 py', '-2147483648 assign', '-2147483648 py',
    ),
}


def program(name: str, fn: Callable[[Any], Any]) -> None:
    REF.add(name, lambda tf, mk: packed(without_open(name, json.loads(json.dumps(fn(tf))), OPEN)))


def fresh(tf: Any) -> None:
    """TF's eager scalar cache emptied, as in a new process (the backends' before_test does it for each test; the
    programs' sequences each start from it too, and `--record` runs every program in one process)."""
    if tf.__name__.startswith("simdist"):
        from simdist.runtime import scalar_cache
        scalar_cache.clear()
    else:
        from tensorflow.python import pywrap_tfe
        pywrap_tfe.TFE_ClearScalarCache()


def val(v: Any) -> Any:
    """A result: its dtype and values (floats by the hex of their exact value), a Python value as such, or the
    class of the exception raised."""
    if hasattr(v, "dtype") and hasattr(v, "numpy"):
        return [v.dtype.name, list(np.shape(v))] + bits(v)
    if isinstance(v, (bool, int, str)) or v is None:
        return v
    if isinstance(v, float):
        return float(v).hex()
    if isinstance(v, (list, tuple)):
        return [val(x) for x in v]
    return type(v).__name__


def res(fn: Callable[[], Any]) -> Any:
    try:
        return val(fn())
    except Exception as e:  # noqa: BLE001 - the class is the observation
        return f"raised {type(e).__name__}"


def ops(tf: Any) -> dict[str, Callable[[Any, Any], Any]]:
    """Every binary op the sweep crosses, as f(a, b)."""
    m = tf.math
    return {
        "+": lambda a, b: a + b, "-": lambda a, b: a - b, "*": lambda a, b: a * b, "/": lambda a, b: a / b,
        "//": lambda a, b: a // b, "%": lambda a, b: a % b, "**": lambda a, b: a ** b,
        "add": tf.add, "subtract": tf.subtract, "multiply": tf.multiply, "truediv": m.truediv, "divide": m.divide,
        "floordiv": m.floordiv, "floormod": m.floormod, "pow": tf.pow, "maximum": tf.maximum, "minimum": tf.minimum,
        "squared_difference": m.squared_difference, "atan2": m.atan2, "xdivy": m.xdivy, "div_no_nan": m.divide_no_nan,
        "==": lambda a, b: a == b, "!=": lambda a, b: a != b, "<": lambda a, b: a < b, ">=": lambda a, b: a >= b,
    }


ARITH = ("+", "-", "*", "/", "//", "%", "**", "add", "subtract", "multiply", "truediv", "divide", "floordiv",
         "floormod", "pow", "maximum", "minimum", "squared_difference", "atan2", "xdivy", "div_no_nan")
COMPARE = ("==", "!=", "<", ">=")
SHORT = ("+", "-", "*", "/", "maximum", "minimum", "multiply", "add", "==", "<")


def forms(tf: Any, v: Any, dt: str, which: tuple[str, ...]) -> dict[str, Any]:
    """The operand v in each form asked for (a form NumPy or TF cannot make is left out)."""
    out: dict[str, Any] = {}
    with np.errstate(all="ignore"):
        for f in which:
            try:
                if f == "py":
                    out[f] = v
                elif f == "int":
                    out[f] = int(v)
                elif f == "bool":
                    out[f] = bool(v)
                elif f in ("np.float16", "np.float32", "np.float64", "np.int32", "np.int64"):
                    out[f] = getattr(np, f[3:])(v)
                elif f == "tensor":
                    out[f] = tf.constant(v, dtype=dt)
                elif f == "list":
                    out[f] = [v]
            except (OverflowError, ValueError, TypeError):
                out[f] = None
    return {k: x for k, x in out.items() if x is not None or k == "py"}


def tensor(tf: Any, dt: str, values: list[Any]) -> Any:
    return tf.constant(np.asarray(values, dtype=np.float64).astype(dt) if dt != "bfloat16" else values, dtype=dt)


def both(tf: Any, names: tuple[str, ...], t: Any, x: Any) -> dict[str, Any]:
    """Each op with the tensor on the left (`r`: t op x) and on the right (`l`: x op t)."""
    table = ops(tf)
    out = {}
    for n in names:
        f = table[n]
        out[f"{n} r"] = res(lambda: f(t, x))
        out[f"{n} l"] = res(lambda: f(x, t))
    return out


# -- 1. zeros of either sign, in sequences (the eager scalar cache's hand-on) -----------------------------------------
def zeros(tf: Any, dt: str) -> dict[str, Any]:
    """0.0 and -0.0 beside a float tensor: for each form, one sign first, then the other, then the first again, with
    the cache empty at the start of each order; Python int 0 and False; the same ops traced (no cache there)."""
    out: dict[str, Any] = {}
    t = tensor(tf, dt, [1.5, -2.0, 0.0, -0.0])
    for order in ((0.0, -0.0, 0.0), (-0.0, 0.0, -0.0)):
        for form in ("py", "np.float64", "np.float32", "np.float16", "tensor", "list"):
            fresh(tf)
            for i, z in enumerate(order):
                x = forms(tf, z, dt, (form,))[form]
                names = ARITH if form == "py" else SHORT
                out[f"{form} {order[0]!r} first #{i}"] = both(tf, names, t, x)
    fresh(tf)
    for form, z in (("int", 0), ("bool", False)):
        out[f"{form} zero"] = both(tf, SHORT, t, z)
    fresh(tf)
    out["ctor then op"] = [res(lambda: tf.constant(-0.0)), res(lambda: t * 0.0), res(lambda: tf.constant(0.0, dt)),
                           res(lambda: t * -0.0), res(lambda: tf.convert_to_tensor(-0.0, dt)),
                           res(lambda: tf.fill([2], -0.0)), res(lambda: tf.fill([2], 0.0))]
    fresh(tf)
    out["mixed types 1 1.0 True"] = [res(lambda: t * 1), res(lambda: t * 1.0), res(lambda: t * True),
                                     res(lambda: t + 0), res(lambda: t + -0.0), res(lambda: t + False)]

    def traced(a: Any) -> Any:
        return [a * 0.0, a * -0.0, -0.0 * a, a + 0.0, a + -0.0, a - 0.0, a - -0.0, 0.0 - a, -0.0 - a,
                tf.maximum(a, -0.0), tf.minimum(a, 0.0), a / -0.0, tf.math.atan2(-0.0, a), tf.pow(a, -0.0)]
    out["traced"] = res(lambda: tf.function(traced)(t))
    return out


# -- 2. Grappler's folding of constant operands inside a tf.function, and the gradients -------------------------------
def folds(tf: Any, dt: str) -> dict[str, Any]:
    """x * 1, x + 0, x - (-0.0), x * 0, x / 1, 1 * x, 0 + x, x ** 1, x ** 0 (and x ** 0.5, -0.5, 2, 3, which
    Grappler's ConvertPow makes Sqrt, Rsqrt, Square, a cube) with the constant as a Python float, int and a tensor,
    inside a tf.function over a tensor holding +-0, +-inf, NaN and plain values (Grappler folds some:
    a fold that drops the multiplication keeps -0.0 where x * 1 keeps it too, but x + 0 would make it +0); eagerly the
    same; the gradients w.r.t. the tensor of each, eager and traced."""
    out: dict[str, Any] = {}
    t = tensor(tf, dt, [-0.0, 0.0, 1.5, -np.inf, np.nan, -3.0])
    consts = {"1.0": 1.0, "1": 1, "0.0": 0.0, "-0.0": -0.0, "0": 0, "-1.0": -1.0, "0.5": 0.5, "-0.5": -0.5,
              "2.0": 2.0, "2": 2, "3.0": 3.0}
    def prog(a: Any) -> dict[str, Any]:
        r = {}
        for k, c in consts.items():
            ct = tf.constant(c, dtype=dt) if isinstance(c, float) else c
            r[f"x*{k}"] = a * c
            r[f"{k}*x"] = c * a
            r[f"x+{k}"] = a + c
            r[f"{k}+x"] = c + a
            r[f"x-{k}"] = a - c
            r[f"x/{k}"] = a / c
            r[f"x**{k}"] = a ** c
            r[f"x*t{k}"] = a * ct
            r[f"x+t{k}"] = a + ct
            r[f"t{k}-x"] = ct - a
        r["x*1*1"] = (a * 1.0) * 1.0
        r["x+0+0"] = (a + 0.0) + -0.0
        r["0*x+x"] = a * 0.0 + a
        return r
    fresh(tf)
    out["eager"] = res(lambda: [v for _, v in sorted(prog(t).items())])
    out["traced"] = res(lambda: [v for _, v in sorted(tf.function(prog)(t).items())])
    out["keys"] = sorted(prog(t))

    def grads(a: Any) -> Any:
        with tf.GradientTape(persistent=True) as g:
            g.watch(a)
            ys = prog(a)
        return [g.gradient(ys[k], a) for k in sorted(ys)]
    out["grad eager"] = res(lambda: grads(t))
    out["grad traced"] = res(lambda: tf.function(grads)(t))
    return out


# -- 3. subnormals, values that round to a subnormal or overflow, +-inf and NaN ---------------------------------------
SMALL = (5e-324, -5e-324, 1e-310, 1e-40, -1e-45, 1e-45, 1.1754942e-38, 1.1754944e-38, 1e-8, 6e-8, -3e-8, 3e-5,
         6.1e-5, 9.2e-41)
LARGE = (65504.0, 65520.0, -65520.0, 65519.99, 3.3895313892515355e38, 3.4e38, 3.4e39, -3.4e39, 1e309)
SPECIAL = (float("inf"), float("-inf"), float("nan"))
#: the values whose gradients are taken (a subnormal of each type, one rounding to a subnormal, overflows, non-finites)
GRAD_VALUES = (5e-324, 1e-40, -1e-45, 1.1754942e-38, 6e-8, 3e-5, 65520.0, 3.4e39, float("inf"), float("-inf"))


def ranges(tf: Any, dt: str, values: tuple[float, ...]) -> dict[str, Any]:
    """Each value in each form beside a float tensor, through the ops (Python floats through all of
    them, the other forms through the short list); a traced program of the same ops over Python floats; the gradients
    of the product, quotients, maximum, pow, xdivy and atan2 w.r.t. the tensor (GRAD_VALUES and NaN), eager and
    traced."""
    out: dict[str, Any] = {}
    t = tensor(tf, dt, [1.0, -3.0, 0.5, 1e-3, 0.0, 2.0])
    for v in values:
        fresh(tf)
        fs = forms(tf, v, dt, ("py", "np.float64", "np.float32", "np.float16", "tensor", "list"))
        for form, x in fs.items():
            out[f"{v!r} {form}"] = both(tf, ARITH + COMPARE if form == "py" else SHORT, t, x)

    def traced(a: Any) -> Any:
        return [[a * v, v * a, a + v, a - v, a / v, v / a, tf.maximum(a, v), tf.minimum(a, v), a < v,
                 a == v, tf.pow(a, v), tf.math.squared_difference(a, v)] for v in values]
    out["traced"] = res(lambda: tf.function(traced)(t))

    def grads(a: Any) -> Any:
        r = []
        for v in (v for v in values if v in GRAD_VALUES or v != v):
            with tf.GradientTape(persistent=True) as g:
                g.watch(a)
                ys = [a * v, a / v, v / a, tf.maximum(a, v), a ** v, tf.math.xdivy(a, v), tf.math.atan2(a, v)]
            r.append([g.gradient(y, a) for y in ys])
        return r
    out["grad eager"] = res(lambda: grads(t))
    out["grad traced"] = res(lambda: tf.function(grads)(t))
    return out


# -- 4. int extremes and big ints, beside every dtype -----------------------------------------------------------------
INT_VALUES = (2**31 - 1, -2**31, 2**31, 2**63 - 1, -2**63, 2**64 - 1, 2**64, 127, 128, -129, 255, 256, -1, 65504,
              65520, 2**24 + 1, 2**53 + 1)
INT_OPS = ("+", "-", "*", "//", "%", "maximum", "==", "<")


def ints(tf: Any, dt: str) -> dict[str, Any]:
    """Python ints at the ends of int32/int64/uint64 and of each narrow type (and big ones into the half types),
    True, beside a tensor of dtype dt, through + - * // % maximum == <, on either side; np.int32/np.int64 scalars and
    one-element lists of a few; the same ops traced, each value its own function (a refusal at tracing is a result)."""
    out: dict[str, Any] = {}
    signed = not dt.startswith("uint")
    t = tensor(tf, dt, [3, -2, 7, 1] if signed else [3, 2, 7, 1])
    for v in INT_VALUES + (True,):
        out[f"{v!r} py"] = both(tf, INT_OPS, t, v)
    for v in (2**31 - 1, -2**31, 2**63 - 1, -1):
        for form, x in forms(tf, v, dt, ("np.int32", "np.int64", "list")).items():
            out[f"{v!r} {form}"] = both(tf, ("+", "*", "maximum", "=="), t, x)
    for v in (2**31 - 1, -2**31, 2**63 - 1, -2**63, 2**64 - 1, 65520, 2**24 + 1, -1):
        def traced(a: Any, v: int = v) -> Any:
            return [a + v, v - a, a * v, tf.maximum(a, v), a == v]
        out[f"{v!r} traced"] = res(lambda: tf.function(traced)(t))
    return out


# -- 5. tf.where's scalar branches, clip_by_value's bounds, tf.fill, assign_add/assign_sub ----------------------------
def others(tf: Any, dt: str) -> dict[str, Any]:
    out: dict[str, Any] = {}
    isf = dt in FLOATS
    t = tensor(tf, dt, [1.5, -2.0, 0.0, -0.0] if isf else [3, 0, 7, 1])
    cond = tf.constant([True, False, True, False])
    vals: tuple[Any, ...] = ((0.0, -0.0, 1e-40, 5e-324, 65520.0, 3.4e39, float("inf"), float("nan"), 2**31 - 1, -1)
                             if isf else (0, -1, 2**31 - 1, -2**31, 2**63 - 1, 2**64 - 1, 255, 256, 0.0, 1.5, True))
    fresh(tf)
    for v in vals:
        fs = forms(tf, v, dt, ("py", "np.float32", "np.float64", "np.int64")) if isf else forms(
            tf, v, dt, ("py", "np.int32", "np.int64"))
        for form, x in fs.items():
            out[f"{v!r} {form}"] = [
                res(lambda: tf.where(cond, t, x)), res(lambda: tf.where(cond, x, t)),
                res(lambda: tf.clip_by_value(t, x, x)),
                res(lambda: tf.clip_by_value(t, 1 if dt.startswith("uint") else -1, x)),
                res(lambda: tf.clip_by_value(t, x, 1e9 if isf else 100)),
                res(lambda: tf.fill([2], x)), res(lambda: tf.fill([2], tf.cast(x, dt)) if isf else None),
            ]
    for v in vals:
        def upd(v: Any = v) -> Any:
            var = tf.Variable(t)
            a = var.assign_add(v)
            r = [tf.identity(a)]
            b = var.assign_sub(v)
            r.append(tf.identity(b))
            r.append(var.read_value())
            return r
        out[f"{v!r} assign"] = res(upd)
    fresh(tf)
    if isf:   # a zero variable's assign_add of the other sign, after the cache took one
        def signs() -> Any:
            var = tf.Variable(tensor(tf, dt, [0.0, -0.0]))
            r = [tf.identity(var.assign_add(0.0)), tf.identity(var.assign_add(-0.0)), tf.identity(var.assign_sub(0.0)),
                 tf.identity(var.assign_sub(-0.0))]
            w = tf.Variable(tensor(tf, dt, [-0.0, -0.0]))
            r += [tf.identity(w.assign_add(-0.0)), tf.identity(w.assign_sub(0.0)), tf.identity(w.assign_add(1e-40))]
            return r
        out["zero assign"] = res(signs)
    return out


for _dt in FLOATS:
    program(f"n-zeros-{_dt}", lambda tf, dt=_dt: zeros(tf, dt))
    program(f"n-folds-{_dt}", lambda tf, dt=_dt: folds(tf, dt))
    program(f"n-small-{_dt}", lambda tf, dt=_dt: ranges(tf, dt, SMALL))
    program(f"n-large-{_dt}", lambda tf, dt=_dt: ranges(tf, dt, LARGE + SPECIAL))
for _dt in FLOATS + INTS:
    program(f"n-ints-{_dt}", lambda tf, dt=_dt: ints(tf, dt))
    program(f"n-others-{_dt}", lambda tf, dt=_dt: others(tf, dt))
