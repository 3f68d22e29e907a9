"""Traced Grappler rewrites by dtype and value class, a tape's exposed orders, and per-replica results holding Python
values, crossed by rule (sixty-third session, esweep63; test_esweep63.py).

What is crossed (batch 83's survivors: Grappler's Square(Sub) rewrite of a shared integer Sub, the Mul-by-ones Tile
of float64/half subnormals, a spent tape's watched_variables() after a jacobian, reduce(axis=None) of per-replica
values whose later replica returns a Python value; the suite tested each rewrite mostly in float32 with ordinary
values):
- e-gr-<family>: each arithmetic-optimizer / constant-folding rewrite simdist models (simdist/runtime/ops/grappler.py,
  clause function.grappler-rewrites) written as TF users write it — Square(Sub), Mul(x, x), Mul/Add/Sub/Div by ones
  and zeros (same shape and broadcasting), ReduceDivToReciprocalMul and SqrtDivToRsqrtMul, ConvertPow, ConvertLog1p
  and ConvertExpm1, RemoveInvolution and RemoveNegation, AddOpsRewrite and SimplifyAggregation, ConstantPushDown,
  HoistCommonFactor, OptimizeMaxOrMinOfMonotonic, RemoveLogicalNot, ReplacePackWithTileReshape, the redundant
  Reshape/Squeeze and the trivial reductions — inside a tf.function (and eagerly, the kernels' own answer) × 13 dtypes
  (int8..int64, uint8..uint64, float16, bfloat16, float32, float64, complex64) × value classes (±0, subnormals, ±inf,
  NaN with payloads, the dtype's extremes and overflow) × consumer structure (the intermediate alone, fetched, read
  by another op, read by a tape): values by their raw bits (NaN payloads included), refusals by exception class;
- t-tape-<what>: GradientTape.watched_variables() after gradient, jacobian, batch_jacobian, with persistent tapes,
  watch() order against creation and read order, watch_accessed_variables=False, stop_recording, reset, nested
  tapes, a tf.function read, and the gradients' order and unconnected handling;
- d-run-<what>: MirroredStrategy of three replicas: strategy.run whose later replicas return a Python int/float/bool,
  a NumPy scalar or array, None or a nest of mixed kinds, then reduce(SUM/MEAN, axis None and 0), gather(axis 0) and
  experimental_local_results: kinds, values, refusal classes.

No program depends on the CPU: every value is an elementwise result, an exact integer or a sum of at most a few
terms in an order Grappler fixes (AddN of up to five terms), and the host's oneDNN does not take these ops in a graph
of this size. `python -m simdist.conformance.suite.test_esweep63 --record` rewrites esweep63_reference.json.gz.
OPEN lists simdist's disagreements with TF 2.21 left out of the comparison."""

from __future__ import annotations

import json
import os
from typing import Any, Callable

import numpy as np

from simdist.conformance.suite.open_cases import registrar
from simdist.conformance.suite.recorded_programs import RecordedPrograms, avx512_with_onednn, reference_cpu

PATH = os.path.join(os.path.dirname(__file__), "esweep63_reference.json.gz")

REF = RecordedPrograms(PATH, host_dependent=(), recording_host=avx512_with_onednn, recording_cpu=reference_cpu,
                       replicas=3)

#: simdist's disagreements with TF 2.21 left out of the comparison: program -> case keys (docs/conformance.md,
#: "Sixty-third session ... esweep63"; /work/wt/esweep63_logs/open2.txt: tf1.json/tf5.json against sim6.json).
#: None is a Grappler rewrite's own: each disagrees eagerly too, or is a kernel's value under a rewrite that agrees —
#: kernel NaN payloads and signs the sweep's NaN-payload inputs found, not analysed in the time:
#: (1) reduce_sum's NaN of two payloads in float16/float32/bfloat16 (e-gr-square-diff-tape: TF keeps the later one in
#:     float16/float32, the positive packet NaN in bfloat16, where the summed squares hold NaNs of both signs since
#:     fix63e's Square);
#: (2) `a * b + a * a + a * (b + b)` of complex64 traced: TF computes AddN(a * b, Square(a), a * Mul(2, b)) (every
#:     kernel agrees since fix64c; simdist's graph takes another product for a * (b + b) once SimplifyAggregation has
#:     made b + b Mul(2, b): the Mul tree's push-down/MinimizeBroadcasts meeting an aggregate's constant, not analysed);
#: Fixed by fix64c (sixty-fourth session): complex64 division, reciprocal, x/sqrt(y), log(1 + x), exp(x) - 1, pow
#: with ±inf/NaN parts (complex_div.py's x86 NaN operand order in pdiv_complex and libgcc's Smith; psqrt_complex's
#: all-ones NaN; Grappler's complex Log1p/Expm1 and Mul(Rsqrt(z), x)).
#: Fixed by the sixty-third session (no longer OPEN): `(x - y) * (x - y)` of narrow/unsigned ints (FuseSquaredDiff after
#: ReplaceMulWithSquare), `-(-x) + y` and `not(not(a < b))` (RemoveInvolution first), log/log1p's NaNs (plog's
#: all-ones NaN in packets, bfloat16's packet NaN 0x7fc0, float64's tail NaN positive), reduce(axis=0) of a later
#: replica's bool (TypeError) and float32 beside float64 replicas (AddN's InvalidArgumentError). Fixed by fix63e:
#: Max/Min reductions' NaN bits (minmax_zeros.py: the NaN Eigen's order keeps, payload and sign), bfloat16's NaN
#: signs of Exp/Sqrt/Rsqrt/Square/Tanh/Sigmoid/Reciprocal/AddN (packets 0x7fc0, tail signed: packet_math.bf16_packets,
#: math.py `_bf16_add_n_nans`), reduce_prod over one element per output (a copy), Log1p of a NaN (x's NaN or plog's
#: all-ones by path: packet_math._log1p_nans; the traced float64 log(1 + x) cases), Pow of a negative subnormal base
#: and a non-integer exponent (the negative default NaN: pow_subnormals.tail_fix).
OPEN: dict[str, tuple[str, ...]] = {
    'e-gr-add-ops': (
        'x*y+x*z+x*w complex64 traced',
    ),
    'e-gr-square-diff-tape': (
        'square sum tape bfloat16 eager', 'square sum tape bfloat16 traced', 'square sum tape float16 eager',
        'square sum tape float16 traced', 'square sum tape float32 eager', 'square sum tape float32 traced',
    ),
}

#: Left out of the programs altogether (not recorded; each observed on TF 2.21, /work/wt/esweep63_logs/tf2.json):
#: (1) strategy.gather of per-replica values mixing a tensor with a Python number, bool, string, None or a NumPy
#:     value: TF 2.21 AttributeError / ValueError (a NumPy array beside tensors: gathered), simdist
#:     InvalidArgumentError / ValueError (blind83's open (3)); not comparable in one process either, as a failed
#:     gather (a float32 beside a float64 tensor: InternalError) aborts TF's collective executor and later gathers
#:     of the same strategy raise CancelledError/InternalError.
OPEN_UNRECORDED = ("gather of mixed kinds",)


program = registrar(REF, OPEN)   # register a program: its result without the OPEN cases


INTS = ("int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64")
FLOATS = ("float16", "bfloat16", "float32", "float64")
DTYPES = INTS + FLOATS + ("complex64",)


def _raw(a: Any) -> Any:
    """A value as JSON: a tensor's dtype, shape and its elements' raw bits (NaN payloads included); nests mapped."""
    if isinstance(a, (list, tuple)):
        return [_raw(x) for x in a]
    if isinstance(a, dict):
        return {str(k): _raw(v) for k, v in sorted(a.items())}
    if a is None:
        return None
    n = np.asarray(a.numpy() if hasattr(a, "numpy") else a)
    name = n.dtype.name
    if n.dtype.kind in "fc" or name == "bfloat16":
        flat = n.reshape(-1)
        if n.dtype.kind == "c":
            flat = flat.view(np.float32 if n.dtype.itemsize == 8 else np.float64)
        vals = flat.view(f"u{flat.dtype.itemsize}").tolist()
    elif n.dtype.kind in "OSU":
        vals = [x.decode() if isinstance(x, bytes) else str(x) for x in n.reshape(-1).tolist()]
    else:
        vals = n.reshape(-1).tolist()
    return [name, list(n.shape), vals]


def _err(fn: Callable[[], Any]) -> Any:
    try:
        return _raw(fn())
    except Exception as e:  # noqa: BLE001 - the class is the observation
        return f"raised {type(e).__name__}"


def _nan(dt: str, payload: int, neg: bool = False) -> Any:
    """A quiet NaN of float dtype `dt` with a payload (its sign bit set when `neg`)."""
    import ml_dtypes
    if dt == "float64":
        return np.array([0x7FF8000000000000 | payload | (1 << 63 if neg else 0)], np.uint64).view(np.float64)[0]
    if dt == "float32" or dt == "complex64":
        return np.array([0x7FC00000 | payload | (1 << 31 if neg else 0)], np.uint32).view(np.float32)[0]
    if dt == "float16":
        return np.array([0x7E00 | payload | (1 << 15 if neg else 0)], np.uint16).view(np.float16)[0]
    return np.array([0x7FC0 | payload | (1 << 15 if neg else 0)], np.uint16).view(ml_dtypes.bfloat16)[0]


def values(dt: str, which: int = 0) -> np.ndarray:
    """Twelve values of dtype `dt` over its classes: ±0, ones, small, subnormals, ±inf, NaNs with payloads, extremes
    (ints: min, max, their neighbours, -1). `which` 1 gives a second operand of the same classes in another order."""
    import ml_dtypes
    if dt in INTS:
        info = np.iinfo(dt)
        v = [0, 1, 3, 7, info.max, info.max - 1, info.min, info.min + 1 if info.min else 2, 5, 2, 100 % (info.max + 1),
             info.max // 3]
        if info.min < 0:
            v[8], v[9] = -1, -5
        out = np.array(v, dtype=dt)
    elif dt == "complex64":
        re = np.array([0.0, -0.0, 1.0, 2.5, 5e-42, np.inf, 3.0, -1.5, 1e38, 0.5, 2.0, 4.0], np.float32)
        im = np.array([0.0, 1.0, -0.0, 0.5, 1.0, 0.0, -3e-40, 2.0, 1e38, np.nan, 1.0, -2.0], np.float32)
        out = (re + 1j * im).astype(np.complex64)
    else:
        npdt = ml_dtypes.bfloat16 if dt == "bfloat16" else np.dtype(dt)
        sub = {"float16": 3e-8, "bfloat16": 1e-39, "float32": 5e-42, "float64": 5e-320}[dt]
        big = {"float16": 60000.0, "bfloat16": 3e38, "float32": 3e38, "float64": 1.5e308}[dt]
        v = [0.0, -0.0, 1.0, -2.5, sub, -3 * sub, np.inf, -np.inf, 0.0, big, 3.0, 0.5]
        out = np.array(v, dtype=np.float64).astype(npdt)
        out[8] = _nan(dt, 0x15, neg=True)
    if which:
        out = out[[3, 11, 0, 6, 2, 8, 1, 9, 4, 10, 5, 7]].copy()
        if dt in FLOATS:
            out[1] = _nan(dt, 0x2A)
    return out


def _cross(tf: Any, forms: dict[str, Callable[..., Any]], dts: tuple[str, ...], args: Callable[[str], tuple],
           eager: bool = True) -> dict[str, Any]:
    """Each form × dtype: traced (a fresh tf.function per case) and, with `eager`, eagerly."""
    out: dict[str, Any] = {}
    for dt in dts:
        xs = [tf.constant(v) for v in args(dt)]
        for name, fn in forms.items():
            out[f"{name} {dt} traced"] = _err(lambda: tf.function(fn)(*xs))
            if eager:
                out[f"{name} {dt} eager"] = _err(lambda: fn(*xs))
    return out


def _two(dt: str) -> tuple:
    return values(dt), values(dt, 1)


# -- 1. Grappler's rewrites by dtype, value class and consumers ------------------------------------------------------
def _square_diff(tf: Any, mk: Any) -> Any:
    """FuseSquaredDiff (Square(Sub) → SquaredDifference where the Sub has no other consumer and the dtype has the
    kernel) and Mul(x, x): alone, the Sub fetched, read twice, read by Abs/Neg/a Cast, a Square of a Sub of a
    constant, x*x of a Sub, in every dtype."""
    sq = tf.square
    forms = {"square alone": lambda a, b: sq(a - b),
             "square fetched": lambda a, b: (lambda d: (sq(d), d))(a - b),
             "square twice": lambda a, b: (lambda d: sq(d) + d)(a - b),
             "square abs consumer": lambda a, b: (lambda d: (sq(d), tf.abs(d)))(a - b),
             "square neg consumer": lambda a, b: (lambda d: (sq(d), -d))(a - b),
             "square two squares": lambda a, b: (lambda d: (sq(d), sq(d)))(a - b),
             "square of sub const": lambda a, b: sq(a - tf.constant(values(a.dtype.name)[2])),
             "square of subtract": lambda a, b: tf.math.square(tf.subtract(b, a)),
             "mul self": lambda a, b: a * a,
             "mul self of sub": lambda a, b: (lambda d: d * d)(a - b),
             "mul self of sub fetched": lambda a, b: (lambda d: (d * d, d))(a - b)}
    return _cross(tf, forms, DTYPES, _two)


program("e-gr-square-diff", _square_diff)


def _square_diff_tape(tf: Any, mk: Any) -> Any:
    """Square(Sub) and Mul(x, x) read by a tape inside the tf.function (the Sub feeds the gradient too), in the float
    and complex dtypes: the value and both gradients."""
    def grads(form: Callable[..., Any]) -> Callable[..., Any]:
        def f(a: Any, b: Any) -> Any:
            with tf.GradientTape(persistent=True) as t:
                t.watch([a, b])
                y = form(a, b)
            return y, t.gradient(y, a), t.gradient(y, b)
        return f
    forms = {"square tape": grads(lambda a, b: tf.square(a - b)),
             "mul self tape": grads(lambda a, b: (lambda d: d * d)(a - b)),
             "square sum tape": grads(lambda a, b: tf.reduce_sum(tf.square(a - b)))}
    return _cross(tf, forms, FLOATS + ("complex64",), _two)


program("e-gr-square-diff-tape", _square_diff_tape)


def _identities(tf: Any, mk: Any) -> Any:
    """SimplifyArithmeticOperations and ReplaceMulWithBroadcastByTile: x*ones, ones*x (same shape, broadcasting to
    [12, 3] and from a [1] ones), x+zeros, zeros+x, x-zeros, zeros-x, x/ones, ones/x, x*zeros, x-x, a fill/ones_like
    operand, in every dtype over its value classes."""
    def o(x: Any, shape: Any = None) -> Any:
        return tf.ones(x.shape if shape is None else shape, x.dtype)

    def z(x: Any) -> Any:
        return tf.zeros(x.shape, x.dtype)
    col = lambda x: tf.reshape(x, [12, 1])  # noqa: E731
    forms = {"x*ones": lambda x, y: x * o(x), "ones*x": lambda x, y: o(x) * x,
             "x*ones bcast": lambda x, y: col(x) * o(x, [1, 3]), "ones*x bcast": lambda x, y: o(x, [1, 3]) * col(x),
             "x*ones [1]": lambda x, y: x * o(x, [1]), "x*ones_like": lambda x, y: x * tf.ones_like(y),
             "x*fill": lambda x, y: col(x) * tf.fill([1, 2], tf.constant(1, x.dtype)),
             "x+zeros": lambda x, y: x + z(x), "zeros+x": lambda x, y: z(x) + x, "x-zeros": lambda x, y: x - z(x),
             "zeros-x": lambda x, y: z(x) - x, "x/ones": lambda x, y: x / o(x), "ones/x": lambda x, y: o(x) / x,
             "x*zeros": lambda x, y: x * z(x), "zeros*x": lambda x, y: z(x) * x,
             "x-x": lambda x, y: x - x, "x+zeros bcast": lambda x, y: col(x) + tf.zeros([1, 2], x.dtype),
             "x*ones fetched": lambda x, y: (lambda w: (w * o(w), w))(x + y)}
    return _cross(tf, forms, DTYPES, _two)


program("e-gr-identities", _identities)


def _divisions(tf: Any, mk: Any) -> Any:
    """ReduceDivToReciprocalMul (x / c), `ones / y`, SqrtDivToRsqrtMul (x / sqrt(y), the Sqrt also read elsewhere),
    Xdivy and MulNoNan by a constant, floordiv/truediv/mod by constants, in every dtype."""
    def c(x: Any, v: float) -> Any:
        return tf.constant(v, x.dtype) if x.dtype.is_floating or x.dtype.is_complex else tf.constant(int(v), x.dtype)
    forms = {"x/3": lambda x, y: x / c(x, 3), "x/0.1": lambda x, y: x / c(x, 0.1), "x/-0": lambda x, y: x / c(x, -0.0),
             "x/7 vec": lambda x, y: x / tf.fill([12], c(x, 7)), "x/y": lambda x, y: x / y,
             "realdiv/3": lambda x, y: tf.math.divide(x, c(x, 3)), "x/sqrt(y)": lambda x, y: x / tf.sqrt(y),
             "x/sqrt(y) shared": lambda x, y: (lambda s: (x / s, s))(tf.sqrt(y)),
             "xdivy c": lambda x, y: tf.math.xdivy(x, c(x, 3)), "mul_no_nan c": lambda x, y: tf.math.multiply_no_nan(
                 x, c(x, 3)), "mul_no_nan 0": lambda x, y: tf.math.multiply_no_nan(x, c(x, 0)),
             "floordiv 3": lambda x, y: x // c(x, 3), "mod 3": lambda x, y: tf.math.floormod(x, c(x, 3)),
             "div_no_nan 3": lambda x, y: tf.math.divide_no_nan(x, c(x, 3)),
             "reciprocal(reciprocal)": lambda x, y: tf.math.reciprocal(tf.math.reciprocal(x))}
    return _cross(tf, forms, DTYPES, _two)


program("e-gr-divisions", _divisions)


def _powers(tf: Any, mk: Any) -> Any:
    """ConvertPow (pow by constant 0, 0.5, 1, 2, 3, -1, -0.5, and by a non-uniform constant), ConvertLog1p (log(1 +
    x), log(x + 1), with the Add shared) and ConvertExpm1 (exp(x) - 1), in every dtype."""
    def c(x: Any, v: float) -> Any:
        return tf.constant(v, x.dtype) if x.dtype.is_floating or x.dtype.is_complex else tf.constant(int(v), x.dtype)
    forms: dict[str, Any] = {f"pow {p}": (lambda p: lambda x, y: tf.pow(x, c(x, p)))(p)
                             for p in (0, 0.5, 1, 2, 3, -1, -0.5)}
    forms["pow vec2"] = lambda x, y: tf.pow(x, tf.fill([12], c(x, 2)))
    forms["pow mixed"] = lambda x, y: tf.pow(x, tf.constant(values(x.dtype.name)[[2, 1] * 6]))
    forms["x**2 fetched"] = lambda x, y: (lambda w: (w ** 2, w))(x + y)
    forms["log(1+x)"] = lambda x, y: tf.math.log(c(x, 1) + x)
    forms["log(x+1)"] = lambda x, y: tf.math.log(x + c(x, 1))
    forms["log(x+1) shared"] = lambda x, y: (lambda w: (tf.math.log(w), w))(x + c(x, 1))
    forms["log(x+2)"] = lambda x, y: tf.math.log(x + c(x, 2))
    forms["exp(x)-1"] = lambda x, y: tf.exp(x) - c(x, 1)
    forms["exp(x)-1 shared"] = lambda x, y: (lambda e: (e - c(x, 1), e))(tf.exp(x))
    return _cross(tf, forms, FLOATS + ("complex64", "int32", "int64", "int8", "uint8"), _two)


program("e-gr-powers", _powers)


def _negations(tf: Any, mk: Any) -> Any:
    """RemoveInvolution (-(-x), conj(conj(x)), ~~x, not(not(p))), RemoveNegation (a + (-b), (-a) + b, a - (-b), with
    the Neg shared), abs(-x), in every dtype."""
    forms = {"--x": lambda a, b: -(-a), "a+(-b)": lambda a, b: a + (-b), "(-a)+b": lambda a, b: (-a) + b,
             "a-(-b)": lambda a, b: a - (-b), "a+(-b) shared": lambda a, b: (lambda n: (a + n, n))(-b),
             "a-(-b) shared": lambda a, b: (lambda n: (a - n, n))(-b), "abs(-a)": lambda a, b: tf.abs(-a),
             "conj(conj)": lambda a, b: tf.math.conj(tf.math.conj(a)),
             "~~a": lambda a, b: tf.bitwise.invert(tf.bitwise.invert(a)),
             "not not": lambda a, b: tf.logical_not(tf.logical_not(a < b)),
             "-(a-b)": lambda a, b: -(a - b), "(-a)*(-b)": lambda a, b: (-a) * (-b)}
    return _cross(tf, forms, DTYPES, _two)


program("e-gr-negations", _negations)


def _add_ops(tf: Any, mk: Any) -> Any:
    """AddOpsRewrite (chains of Add of one shape to AddN; of broadcast shapes, the smallest added first),
    SimplifyAggregation (a + a + a, AddN of one input repeated), HoistCommonFactorOutOfAggregation (x*y + x*z,
    y/x + z/x), add_n's order, with the values that make order show (±inf, NaN payloads, overflow, subnormals)."""
    col = lambda x: tf.reshape(x, [12, 1])  # noqa: E731
    row = lambda x: tf.reshape(x[:3], [1, 3])  # noqa: E731
    forms = {"a+b+a+b": lambda a, b: a + b + a + b, "a+(b+(a+b))": lambda a, b: a + (b + (a + b)),
             "b+a+a": lambda a, b: b + a + a, "a+a+a": lambda a, b: a + a + a,
             "add_n a a a": lambda a, b: tf.add_n([a, a, a]), "add_n b a b a": lambda a, b: tf.add_n([b, a, b, a]),
             "bcast chain": lambda a, b: col(a) + row(b) + col(b) + row(a),
             "bcast chain shared": lambda a, b: (lambda s: (s + col(b) + row(a), s))(col(a) + row(b)),
             "chain shared": lambda a, b: (lambda s: (s + a + b, s))(a + b),
             "x*y+x*z": lambda a, b: a * b + a * a, "y*x+z*x": lambda a, b: b * a + a * a,
             "y/x+z/x": lambda a, b: b / a + a / a, "x*y+x*z shared": lambda a, b: (lambda p: (p + a * a, p))(a * b),
             "x*y+x*z+x*w": lambda a, b: a * b + a * a + a * (b + b)}
    return _cross(tf, forms, DTYPES, _two)


program("e-gr-add-ops", _add_ops)


def _push_down(tf: Any, mk: Any) -> Any:
    """ConstantPushDown and PartialAssocOpConstFolding: (x + c1) + c2, c1 + (x + c2), (x * c1) * c2, c1 * (c2 * x),
    (x - c1) + c2, c1 - (x - c2), (x / c1) * c2, a broadcasting constant, with constants that round or overflow
    when folded (subnormal, large), and the inner op shared; in every dtype."""
    def c(x: Any, i: int) -> Any:
        return tf.constant(values(x.dtype.name)[i])
    forms = {"(x+c)+c": lambda x, y: (x + c(x, 9)) + c(x, 10), "c+(x+c)": lambda x, y: c(x, 4) + (x + c(x, 4)),
             "(x*c)*c": lambda x, y: (x * c(x, 10)) * c(x, 11), "c*(c*x)": lambda x, y: c(x, 4) * (c(x, 11) * x),
             "(x*big)*big": lambda x, y: (x * c(x, 9)) * c(x, 9), "(x-c)+c": lambda x, y: (x - c(x, 3)) + c(x, 10),
             "c-(x-c)": lambda x, y: c(x, 10) - (x - c(x, 11)), "(x+c)-c": lambda x, y: (x + c(x, 2)) - c(x, 9),
             "(x/c)*c": lambda x, y: (x / c(x, 10)) * c(x, 10),
             "(x+c)+c shared": lambda x, y: (lambda s: (s + c(x, 10), s))(x + c(x, 9)),
             "(x+cv)+cv": lambda x, y: (x + tf.constant(values(x.dtype.name, 1))) + c(x, 2),
             "(x*y)*c*c": lambda x, y: x * y * c(x, 10) * c(x, 11),
             "(c+x)+y+c": lambda x, y: c(x, 2) + x + y + c(x, 10)}
    return _cross(tf, forms, DTYPES, _two)


program("e-gr-push-down", _push_down)


def _monotonic(tf: Any, mk: Any) -> Any:
    """OptimizeMaxOrMinOfMonotonic (reduce_max/min, argmax/argmin, maximum of an elementwise monotonic op: exp, neg,
    sigmoid, floor, sqrt, tanh...), with the inner op shared, over NaN, ±inf, ±0; RemoveLogicalNot of comparisons
    over NaN; in the float, int and complex dtypes."""
    forms: dict[str, Any] = {}
    for op in ("exp", "negative", "sigmoid", "floor", "sqrt", "tanh", "ceil", "log", "abs"):
        for red in ("reduce_max", "reduce_min", "argmax", "argmin"):
            forms[f"{red}({op})"] = (lambda op, red: lambda x, y: getattr(tf.math, red)(getattr(tf.math, op)(x)))(
                op, red)
    forms["reduce_max(exp) shared"] = lambda x, y: (lambda e: (tf.reduce_max(e), e))(tf.exp(x))
    forms["reduce_max(-x) axis"] = lambda x, y: tf.reduce_max(-tf.reshape(x, [3, 4]), axis=1)
    for cmp in ("less", "less_equal", "greater", "greater_equal", "equal", "not_equal"):
        forms[f"not {cmp}"] = (lambda cmp: lambda x, y: tf.logical_not(getattr(tf.math, cmp)(x, y)))(cmp)
    return _cross(tf, forms, FLOATS + ("int32", "int8", "uint8", "int64"), _two)


program("e-gr-monotonic", _monotonic)


def _shapes(tf: Any, mk: Any) -> Any:
    """ReplacePackWithTileReshape (stack of one tensor repeated, along axes 0/1/-1), RemoveRedundantReshape
    (reshape to its own shape, reshape of reshape), Squeeze of nothing, SimplifyReduction (reductions over size-1
    axes, over no axes, keepdims), ones_like of a computed value, an Identity chain, in every dtype."""
    m = lambda x: tf.reshape(x, [3, 1, 4])  # noqa: E731
    forms = {"stack x x x": lambda x, y: tf.stack([x, x, x]), "stack axis 1": lambda x, y: tf.stack([x, x], axis=1),
             "stack [x,y,x]": lambda x, y: tf.stack([x, y, x]), "stack 1": lambda x, y: tf.stack([x]),
             "reshape same": lambda x, y: tf.reshape(x, [12]), "reshape twice": lambda x, y: tf.reshape(m(x), [12]),
             "squeeze none": lambda x, y: tf.squeeze(m(x), axis=1),
             "sum size-1 axis": lambda x, y: tf.reduce_sum(m(x), axis=1),
             "prod size-1 axis": lambda x, y: tf.reduce_prod(m(x), axis=1),
             "max size-1 keep": lambda x, y: tf.reduce_max(m(x), axis=1, keepdims=True),
             "mean size-1": lambda x, y: tf.reduce_mean(m(x), axis=[1]),
             "sum no axes": lambda x, y: tf.reduce_sum(x, axis=[]),
             "min size-1 neg axis": lambda x, y: tf.reduce_min(m(x), axis=-2),
             "ones_like(x*y)": lambda x, y: tf.ones_like(x * y), "identity chain": lambda x, y: tf.identity(
                 tf.identity(x) + tf.identity(y))}
    return _cross(tf, forms, DTYPES, _two)


program("e-gr-shapes", _shapes)


def _overflow(tf: Any, mk: Any) -> Any:
    """Rewrites whose order changes an integer's wrap or a float's overflow: (x + max) - max, x * 2 * 2 with x near
    the extremes, a + b + c as AddN, sums of a constant pushed past the extremes, pow 2 of the extremes, in every
    integer dtype and float16/bfloat16."""
    def c(x: Any, v: Any) -> Any:
        return tf.constant(v, x.dtype)

    def mx(x: Any) -> Any:
        return tf.constant(np.iinfo(x.dtype.name).max if x.dtype.is_integer else np.finfo(np.float16).max
                           if x.dtype.name == "float16" else 3e38, x.dtype)
    forms = {"(x+max)-max": lambda x, y: (x + mx(x)) - mx(x), "(x*2)*2": lambda x, y: (x * c(x, 2)) * c(x, 2),
             "x+max+x": lambda x, y: x + mx(x) + x, "max+x+y": lambda x, y: mx(x) + x + y,
             "square(x)": lambda x, y: tf.square(x), "pow 2": lambda x, y: tf.pow(x, c(x, 2)),
             "square(x-y)": lambda x, y: tf.square(x - y), "(x-y)*(x-y)": lambda x, y: (x - y) * (x - y),
             "-x": lambda x, y: -x, "--x+y": lambda x, y: -(-x) + y, "x*y*3": lambda x, y: x * y * c(x, 3)}
    return _cross(tf, forms, INTS + ("float16", "bfloat16"), _two)


program("e-gr-overflow", _overflow)


# -- 2. the tape's exposed orders -------------------------------------------------------------------------------------
def _names(vs: Any) -> list:
    return [v.name for v in vs]


def _grads(gs: Any) -> Any:
    return [None if g is None else _raw(g) for g in gs]


def _tape_orders(tf: Any, mk: Any) -> Any:
    """watched_variables() in every order the API exposes: variables made a, b, c, d, e and read in another order,
    some watched first (one watched twice, a list watched), a non-trainable one read and one watched; then gradient /
    jacobian / batch_jacobian / nothing, on persistent and spent tapes: the names before and after, the gradients
    (unconnected ones as None and as zeros)."""
    out: dict[str, Any] = {}
    reads = {"made order": "abcde", "reversed": "edcba", "interleaved": "cadbe", "repeated": "bcbab"}
    watches = {"none": "", "d": "d", "e then a": "ea", "list ca": ["c", "a"], "twice b": "bb"}
    for rname, order in reads.items():
        for wname, watch in watches.items():
            for how in ("gradient", "jacobian", "batch_jacobian", "none"):
                for persistent in (False, True):
                    vs = {k: tf.Variable([[1.0 + i, 2.0 - i]], name=k) for i, k in enumerate("abcde")}
                    vs["e"] = tf.Variable([[0.5, 1.5]], name="e", trainable=False)
                    with tf.GradientTape(persistent=persistent) as t:
                        if isinstance(watch, list):
                            t.watch([vs[k] for k in watch])
                        else:
                            for k in watch:
                                t.watch(vs[k])
                        before = _names(t.watched_variables())
                        y = tf.zeros([1, 2])
                        for j, k in enumerate(order):
                            y = y + vs[k] * float(j + 1)
                        y = y * vs[order[0]]
                    src = [vs[k] for k in "abcde"]
                    if how == "gradient":
                        res: Any = _grads(t.gradient(y, src))
                        res2: Any = _grads(t.gradient(y, src, unconnected_gradients="zero")) if persistent else None
                    elif how == "jacobian":
                        res, res2 = _grads(t.jacobian(y, src[:3])), None
                    elif how == "batch_jacobian":
                        res, res2 = _grads([t.batch_jacobian(y, vs["a"])]), None
                    else:
                        res = res2 = None
                    out[f"{rname} watch {wname} {how} p{int(persistent)}"] = [
                        before, _names(t.watched_variables()), res, res2]
    return out


program("t-tape-orders", _tape_orders)


def _tape_controls(tf: Any, mk: Any) -> Any:
    """watch_accessed_variables=False with watch() in several orders, stop_recording around reads, reset() then
    other reads, nested tapes (outer and inner watched_variables, the inner's gradient recorded by the outer), a
    variable read inside a tf.function, a tensor watched (not a variable), watching inside stop_recording: names in
    order, gradients."""
    out: dict[str, Any] = {}

    def mkv() -> dict:
        return {k: tf.Variable(1.0 + i, name=k) for i, k in enumerate("pqrs")}
    for order in ("pqrs", "srqp", "qsp"):
        v = mkv()
        with tf.GradientTape(watch_accessed_variables=False) as t:
            for k in order:
                t.watch(v[k])
            y = v["p"] * v["q"] + v["s"] * v["r"]
        out[f"no auto watch {order}"] = [_names(t.watched_variables()),
                                         _grads(t.gradient(y, [v[k] for k in "pqrs"]))]
    v = mkv()
    with tf.GradientTape(persistent=True) as t:
        a = v["s"] * 2.0
        with t.stop_recording():
            b = v["p"] * v["q"]
            n1 = _names(t.watched_variables())
            t.watch(v["r"])
        y = a + b + v["q"] * v["r"]
    out["stop_recording"] = [n1, _names(t.watched_variables()), _grads(t.gradient(y, [v[k] for k in "pqrs"]))]
    v = mkv()
    with tf.GradientTape(persistent=True) as t:
        y = v["r"] * v["q"]
        n1 = _names(t.watched_variables())
        t.reset()
        n2 = _names(t.watched_variables())
        y = v["s"] * v["p"] + v["q"]
    out["reset"] = [n1, n2, _names(t.watched_variables()), _grads(t.gradient(y, [v[k] for k in "pqrs"]))]
    v = mkv()
    with tf.GradientTape(persistent=True) as outer:
        outer.watch(v["s"])
        with tf.GradientTape() as inner:
            inner.watch(v["q"])
            y = v["r"] * v["q"] * v["p"]
        ni = _names(inner.watched_variables())
        gi = inner.gradient(y, [v["p"], v["q"]])
        z = gi[0] * v["s"]
    out["nested"] = [ni, _names(outer.watched_variables()), _grads(gi),
                     _grads(outer.gradient(z, [v[k] for k in "pqrs"]))]
    v = mkv()
    f = tf.function(lambda: v["r"] * v["p"] + v["s"])
    with tf.GradientTape() as t:
        y = f() + v["q"]
    out["tf.function read"] = [_names(t.watched_variables()), _grads(t.gradient(y, [v[k] for k in "pqrs"]))]
    v = mkv()
    x = tf.constant(3.0)
    with tf.GradientTape(persistent=True) as t:
        t.watch(x)
        t.watch([v["s"], x, v["p"]])
        y = x * v["q"] + v["p"]
    out["tensor watched"] = [_names(t.watched_variables()), _grads(t.gradient(y, [x, v["p"], v["q"], v["s"]])),
                             _grads(t.gradient(y, {"x": x, "s": v["s"]}).values())]
    v = mkv()
    with tf.GradientTape() as t:
        y = v["q"] + v["p"]
        g = None
    g = t.gradient(y, [v["p"], v["q"]])
    out["spent"] = [_names(t.watched_variables()), _grads(g)]
    try:
        t.gradient(y, [v["p"]])
        out["spent again"] = "no error"
    except Exception as e:  # noqa: BLE001
        out["spent again"] = f"raised {type(e).__name__}"
    v = mkv()
    with tf.GradientTape(persistent=True) as t:
        y = tf.stack([v["s"] * v["p"], v["q"] * v["r"], v["p"] + v["r"]])
    out["jacobian then names"] = [_grads([t.jacobian(y, v["p"]), t.jacobian(y, v["r"])]),
                                  _names(t.watched_variables())]
    out["jacobian list"] = _grads(t.jacobian(y, [v["r"], v["s"], v["q"]]))
    return out


program("t-tape-controls", _tape_controls)


# -- 3. per-replica results holding Python values ---------------------------------------------------------------------
def _desc(v: Any) -> Any:
    """A value's kind and contents, as JSON: tensors by raw bits, Python and NumPy values by type and value,
    distributed values by their class name and their components, nests recursively."""
    if v is None:
        return None
    if isinstance(v, (bool, int, float, str)):
        return [type(v).__name__, repr(v)]
    if isinstance(v, np.generic):
        return ["np " + v.dtype.name, repr(v.item())]
    if isinstance(v, np.ndarray):
        return ["ndarray"] + _raw(v)
    if isinstance(v, (list, tuple)):
        return [type(v).__name__, [_desc(x) for x in v]]
    if isinstance(v, dict):
        return ["dict", {str(k): _desc(x) for k, x in sorted(v.items())}]
    if hasattr(v, "values") and type(v).__name__ in ("PerReplica", "Mirrored", "DistributedValues"):
        return [type(v).__name__, [_desc(x) for x in v.values]]
    if hasattr(v, "numpy") and hasattr(v, "dtype"):
        return ["tensor"] + _raw(v)
    return type(v).__name__


def _derr(fn: Callable[[], Any]) -> Any:
    try:
        return _desc(fn())
    except Exception as e:  # noqa: BLE001 - the class is the observation
        return f"raised {type(e).__name__}"


def _kinds(tf: Any) -> dict[str, Callable[[int], Any]]:
    """What a later replica (id i > 0) returns, beside replica 0's tensor of the same shape where one fits."""
    return {"tensor": lambda i: tf.constant([1.5 * i, -0.0]), "float": lambda i: 2.5 + i, "int": lambda i: 3 + i,
            "bool": lambda i: i > 1, "np float32": lambda i: np.float32(0.25 * i), "np float64": lambda i: np.float64(i),
            "np int64": lambda i: np.int64(7 * i), "np array": lambda i: np.array([i, 1.0], np.float32),
            "None": lambda i: None, "string": lambda i: "s", "list mixed": lambda i: [tf.constant([float(i)]), 1.0 * i],
            "dict mixed": lambda i: {"a": tf.constant([float(i)]), "b": i}, "tuple none": lambda i: (tf.constant(
                [float(i)]), None), "int same": lambda i: 3,
            "float64 tensor": lambda i: tf.constant([i, 2.0], tf.float64)}


def _first(tf: Any, kind: str) -> Any:
    """Replica 0's value: a tensor for the scalars and arrays, the same nest of tensors for the nests."""
    return {"list mixed": lambda: [tf.constant([0.5]), tf.constant(0.0)],
            "dict mixed": lambda: {"a": tf.constant([0.5]), "b": tf.constant(0)},
            "tuple none": lambda: (tf.constant([0.5]), None), "int same": lambda: 3,
            "None": lambda: tf.constant([0.5, 1.0]), "string": lambda: tf.constant("t")}.get(
        kind, lambda: tf.constant([0.5, 1.0]))()


def _run_mixed(tf: Any, mk: Any) -> Any:
    """strategy.run whose replica 0 returns a tensor (or nest of tensors) and whose later replicas return another kind;
    the run's result, experimental_local_results, reduce SUM/MEAN with axis None and 0, gather on axis 0."""
    s = mk()
    out: dict[str, Any] = {}
    for kind, later in _kinds(tf).items():
        def fn(kind: str = kind, later: Callable[[int], Any] = later) -> Any:
            i = int(tf.distribute.get_replica_context().replica_id_in_sync_group)
            return _first(tf, kind) if i == 0 else later(i)
        try:
            res = s.run(fn)
        except Exception as e:  # noqa: BLE001
            out[f"{kind} run"] = f"raised {type(e).__name__}"
            continue
        out[f"{kind} run"] = _desc(res)
        out[f"{kind} local"] = _derr(lambda: s.experimental_local_results(res))
        for op in ("SUM", "MEAN"):
            for axis in (None, 0):
                out[f"{kind} reduce {op} axis {axis}"] = _derr(lambda: s.reduce(op, res, axis=axis))
        if kind == "tensor":   # (a gather of mixed kinds: OPEN_UNRECORDED)
            out[f"{kind} gather 0"] = _derr(lambda: s.gather(res, axis=0))
    return out


program("d-run-mixed", _run_mixed)


def _values_mixed(tf: Any, mk: Any) -> Any:
    """experimental_distribute_values_from_function whose later replicas give Python/NumPy values, then reduce
    (SUM/MEAN, axis None and 0), gather, local results — and the same values all of one Python kind (int, float,
    bool, NumPy scalar, None) in every replica."""
    s = mk()
    out: dict[str, Any] = {}
    kinds = _kinds(tf)
    for kind, later in kinds.items():
        try:
            pv = s.experimental_distribute_values_from_function(
                lambda ctx, kind=kind, later=later: _first(tf, kind) if ctx.replica_id_in_sync_group == 0
                else later(ctx.replica_id_in_sync_group))
        except Exception as e:  # noqa: BLE001
            out[f"{kind} values"] = f"raised {type(e).__name__}"
            continue
        out[f"{kind} values"] = _desc(pv)
        for op in ("SUM", "MEAN"):
            for axis in (None, 0):
                out[f"{kind} reduce {op} axis {axis}"] = _derr(lambda: s.reduce(op, pv, axis=axis))
        if kind == "tensor":
            out[f"{kind} gather 0"] = _derr(lambda: s.gather(pv, axis=0))
    for kind in ("float", "int", "bool", "np float32", "np int64", "None"):
        try:
            pv = s.experimental_distribute_values_from_function(lambda ctx, kind=kind: kinds[kind](
                ctx.replica_id_in_sync_group + 1))
        except Exception as e:  # noqa: BLE001
            out[f"all {kind} values"] = f"raised {type(e).__name__}"
            continue
        out[f"all {kind} values"] = _desc(pv)
        out[f"all {kind} local"] = _derr(lambda: s.experimental_local_results(pv))
        for op in ("SUM", "MEAN"):
            out[f"all {kind} reduce {op}"] = _derr(lambda: s.reduce(op, pv, axis=None))
    return out


program("d-values-mixed", _values_mixed)


def _run_all_python(tf: Any, mk: Any) -> Any:
    """strategy.run whose every replica returns a Python or NumPy value (equal in all, or by replica), a nest of
    them, or nothing; then reduce(SUM/MEAN, None and 0), gather, experimental_local_results."""
    s = mk()
    out: dict[str, Any] = {}
    forms = {"int 3": lambda i: 3, "float by id": lambda i: 0.5 * i, "bool": lambda i: True, "None": lambda i: None,
             "np float32 by id": lambda i: np.float32(i), "tuple": lambda i: (1, 2.0), "dict": lambda i: {"k": i},
             "list tensor float": lambda i: [tf.constant(float(i)), 2.0], "np array": lambda i: np.ones([2], np.int32)}
    for name, f in forms.items():
        def fn(f: Callable[[int], Any] = f) -> Any:
            return f(int(tf.distribute.get_replica_context().replica_id_in_sync_group))
        try:
            res = s.run(fn)
        except Exception as e:  # noqa: BLE001
            out[f"{name} run"] = f"raised {type(e).__name__}"
            continue
        out[f"{name} run"] = _desc(res)
        out[f"{name} local"] = _derr(lambda: s.experimental_local_results(res))
        for op in ("SUM", "MEAN"):
            for axis in (None, 0):
                out[f"{name} reduce {op} axis {axis}"] = _derr(lambda: s.reduce(op, res, axis=axis))
        out[f"{name} gather 0"] = _derr(lambda: s.gather(res, axis=0))
    return out


program("d-run-all-python", _run_all_python)


def _custom_gradient_variables(tf: Any, mk: Any) -> Any:
    """tf.custom_gradient whose forward reads variables in another order than they were made (and one twice, one
    non-trainable): the `variables` its grad_fn receives (their names as a set: TF 2.21's order of them is not stable
    across a process's history — u, v, w alone in a process, u, w, v after the module's other programs under pytest,
    /work/wt/esweep63_logs/tfrec2.out) and the gradients the tape then gives each variable (each by its name, so
    independent of that order), eagerly and inside a tf.function."""
    out: dict[str, Any] = {}
    for mode in ("eager", "traced"):
        vs = {k: tf.Variable(1.0 + i, name=k) for i, k in enumerate("uvwz")}
        vs["z"] = tf.Variable(0.5, name="z", trainable=False)
        seen: list = []

        @tf.custom_gradient
        def f(x: Any) -> Any:
            y = x * vs["w"] + vs["u"] * vs["z"] + vs["v"] * vs["w"]

            def grad(dy: Any, variables: Any = None) -> Any:
                seen.append(sorted(v.name for v in variables))
                return dy * 2.0, [dy * float(10 ** "uvwz".index(v.name[0])) for v in variables]
            return y, grad

        def run() -> Any:
            x = tf.constant(3.0)
            with tf.GradientTape() as t:
                y = f(x)
            return t.gradient(y, [vs[k] for k in "uvwz"])
        g = tf.function(run)() if mode == "traced" else run()
        out[mode] = [seen[-1] if seen else None, _grads(g)]
    return out


program("t-tape-custom-gradient", _custom_gradient_variables)
