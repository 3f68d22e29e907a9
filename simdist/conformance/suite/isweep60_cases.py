"""Elementwise and reduction gradients w.r.t. every operand, at range ends (sixtieth session, isweep60;
test_isweep60.py): bit for bit against TF 2.21's recorded results.

What is crossed (nsweep60 took Python operands, constants, so never the gradient w.r.t. a second tensor; qsweep60 the
reductions' axis forms over dyadic values; nothing took ties, NaN or zero divisors through the gradients):
- *i-bin-<dtype>* (float16, bfloat16, float32, float64): every differentiable binary op of tf.math and its operator
  (+ - * / tf.add, subtract, multiply, truediv, divide, realdiv, floormod, pow/**, maximum, minimum,
  squared_difference, atan2, xdivy, xlogy, xlog1py, div_no_nan, multiply_no_nan) x the gradient w.r.t. both operands
  (one call; each alone; the same tensor as both) x broadcasting (equal shapes, a scalar on either side, a row, a
  column, a size-1 dimension on either side and on both) x values at their range ends (+-0.0 ties, equal values
  for maximum/minimum, NaN, +-inf, the dtype's subnormals, zeros in divisors, negative bases with integer and
  non-integer exponents), a non-uniform dyadic upstream, eager and inside a tf.function (Grappler's rewrites);
- *i-bin-complex*: the binary ops TF takes complex for, their gradients w.r.t. both operands (conjugates);
- *i-unary-<dtype>*: tanh, sigmoid, softplus, softsign, elu, selu, gelu (both forms), erf, erfc, lgamma, digamma,
  log1p, expm1, rsqrt, reciprocal, atan, asinh, acosh, atanh, sinh, cosh, and more, values and gradients at their
  range ends (+-0, +-inf, NaN, subnormals, poles, domain ends, tails), eager and traced;
- *i-reduce-<dtype>*: reduce_sum/mean/prod/max/min/logsumexp/variance/std/euclidean_norm x axis forms x keepdims
  over ties, NaN, +-inf and zeros, values and gradients; argmax/argmin over NaN and ties x output_type;
  cumsum/cumprod/cumulative_logsumexp exclusive x reverse with gradients; segment_* and unsorted_segment_* with
  empty segments and their gradients; reverse_sequence with seq_axis/batch_axis swapped and its gradient;
  complex reduce_prod/sum/mean and their gradients.

Every program is recorded as host-dependent (the reductions' order and the half types' packet math are the CPU's):
simdist runs them under its reference model of the AVX-512 oneDNN recording host. `python -m
simdist.conformance.suite.test_isweep60 --record` rewrites isweep60_reference.json.gz. OPEN lists simdist's
disagreements with TF 2.21 left out of the comparison."""

from __future__ import annotations

import json
import os
from typing import Any, Callable

import numpy as np

from simdist.conformance.suite.kpaths54_cases import packed, without_open
from simdist.conformance.suite.recorded_programs import RecordedPrograms, avx512_with_onednn, bits, reference_cpu

PATH = os.path.join(os.path.dirname(__file__), "isweep60_reference.json.gz")

REF = RecordedPrograms(PATH, host_dependent=("i-",), recording_host=avx512_with_onednn, recording_cpu=reference_cpu)

FLOATS = ("float16", "bfloat16", "float32", "float64")
COMPLEX = ("complex64", "complex128")

#: simdist's disagreements with TF 2.21 left out of the comparison: program -> case keys (docs/conformance.md,
#: "Sixtieth session ... isweep60"; /work/wt/isweep60_logs/detail.py over the recording). All are traced only: TF
#: 2.21's traced result differs from its own eager one, simdist's equals its eager one (eager cases all agree).
#: (1) the gradients of Erf, Erfc, Erfinv, Ndtri (and bfloat16 gelu approximate) inside a tf.function: 1 ulp off
#: where the upstream is not a power of two (elements with upstream 3.0 and 1.5): TF multiplies grad *
#: constant * exp(...) in another order after Grappler (which rewrite: not found in the time); (2) the gradient
#: w.r.t. y of complex multiply_no_nan inside a tf.function, and complex reduce_prod's gradient along axis 0 traced:
#: one imaginary zero's sign (TF -0.0, simdist +0.0).
_GRAPPLER_ERF = ("traced erf", "traced erfc")
OPEN: dict[str, tuple[str, ...]] = {
    "i-unary-float16": _GRAPPLER_ERF,
    "i-unary-bfloat16": _GRAPPLER_ERF + ("traced gelu approx",),
    "i-unary-float32": _GRAPPLER_ERF + ("traced erfinv",),
    "i-unary-float64": _GRAPPLER_ERF + ("traced erfinv", "traced ndtri"),
    "i-bin-complex64": ("traced mul_no_nan eq", "traced mul_no_nan y-scalar 2"),
    "i-bin-complex128": ("traced mul_no_nan eq", "traced mul_no_nan col"),
    "i-creduce-complex64": ("traced prod plain 0",),
    "i-creduce-complex128": ("traced prod plain 0",),
}


def program(name: str, fn: Callable[[Any], Any]) -> None:
    REF.add(name, lambda tf, mk: packed(without_open(name, json.loads(json.dumps(fn(tf))), OPEN)))


def val(v: Any) -> Any:
    """A result: dtype, shape and values (floats by the hex of their exact value; complex as [re, im] pairs), None
    as such, a list element-wise."""
    if v is None:
        return None
    if isinstance(v, (list, tuple)):
        return [val(x) for x in v]
    if hasattr(v, "values") and hasattr(v, "indices") and hasattr(v, "dense_shape"):
        return ["slices", val(v.indices), val(v.values)]
    if hasattr(v, "dtype") and hasattr(v, "numpy"):
        a = np.asarray(v.numpy())
        if a.dtype.kind == "c":
            vals = [[float(z.real).hex(), float(z.imag).hex()] for z in a.ravel()]
        else:
            vals = bits(v)
        return [v.dtype.name, list(a.shape)] + vals
    if isinstance(v, float):
        return float(v).hex()
    return v


def guard(r: dict[str, Any], errs: list[str], key: str, thunk: Callable[[], Any]) -> None:
    """r[key] = thunk(), or the exception's class noted in errs (inside a tf.function: at trace time); a key whose
    op raised eagerly is not traced (a kernel's refusal in a graph fails the whole call)."""
    if key in getattr(errs, "skip", ()):
        return
    try:
        r[key] = thunk()
    except Exception as e:  # noqa: BLE001 - the class is the observation
        errs.append(f"{key}: {type(e).__name__}")


def res(fn: Callable[[], Any]) -> Any:
    try:
        return val(fn())
    except Exception as e:  # noqa: BLE001 - the class is the observation
        return f"raised {type(e).__name__}"


def modes(tf: Any, make: Callable[[list[str]], Callable[..., dict[str, Any]]], *args: Any) -> dict[str, Any]:
    """make(errs)'s program run eagerly and inside a tf.function over args: each result by key, and the keys whose
    op raised (their exception classes, in errs)."""
    out: dict[str, Any] = {}
    skip: set[str] = set()
    for mode in ("eager", "traced"):
        errs = Errs()
        errs.skip = skip
        run = make(errs)
        try:
            rr = (run if mode == "eager" else tf.function(run))(*args)
        except Exception as e:  # noqa: BLE001 - the class is the observation
            out[f"{mode} raised"] = type(e).__name__
            continue
        for k in sorted(rr):
            out[f"{mode} {k}"] = res(lambda: rr[k])
        out[f"{mode} errors"] = sorted(errs)
        skip = {e.rpartition(": ")[0] for e in errs}
    return out


class Errs(list):  # type: ignore[type-arg]
    """The keys whose op raised, as "key: class"; skip: the keys not to run (those that raised eagerly)."""
    skip: set[str] = set()


#: the smallest positive subnormal (or one near it) of each dtype
SUB = {"float16": 6e-8, "bfloat16": 1e-39, "float32": 1e-40, "float64": 5e-324, "complex64": 1e-40,
       "complex128": 5e-324}
#: a dyadic upstream, non-uniform
UP = (1.0, -0.5, 2.0, 0.25, -1.0, 1.5, 0.75, -2.0, 0.5, 3.0, -0.25, 1.25)


def const(tf: Any, dt: str, values: Any, shape: tuple[int, ...]) -> Any:
    a = np.asarray(values, dtype=np.float64).reshape(shape)
    if dt in COMPLEX:
        return tf.constant(a.astype(dt), dtype=dt)
    return tf.constant(a.astype(np.float32) if dt == "bfloat16" else a.astype(dt), dtype=dt)


def xy_pool(dt: str) -> tuple[list[float], list[float]]:
    """x and y of 12 values each, ties at the same positions (max/min), +-0 of both signs against each other, NaN,
    +-inf, subnormals, zero divisors, negative bases beside integer and non-integer exponents."""
    s = SUB[dt]
    inf, nan = float("inf"), float("nan")
    x = [0.0, -0.0, 1.5, -2.0, nan, inf, -inf, s, 3.0, -2.0, 2.0, 0.0]
    y = [-0.0, 0.0, 1.5, -2.0, 1.0, -inf, 0.5, s, 3.0, 0.5, 2.0, nan]
    return x, y


def binops(tf: Any, dt: str) -> dict[str, Callable[[Any, Any], Any]]:
    """The binary ops (one name per kernel: tf.add, multiply, truediv, pow and floormod are the operators' ops)."""
    m = tf.math
    ops: dict[str, Callable[[Any, Any], Any]] = {
        "*": lambda a, b: a * b, "/": lambda a, b: a / b, "**": lambda a, b: a ** b,
        "squared_difference": m.squared_difference, "div_no_nan": m.divide_no_nan, "mul_no_nan": m.multiply_no_nan,
        "xdivy": m.xdivy, "xlogy": m.xlogy,
    }
    if dt not in COMPLEX:
        ops.update({"+": lambda a, b: a + b, "-": lambda a, b: a - b, "realdiv": tf.realdiv,
                    "%": lambda a, b: a % b, "maximum": tf.maximum, "minimum": tf.minimum,
                    "atan2": m.atan2, "xlog1py": m.xlog1py})
    return ops


#: broadcasting forms: name -> (x's shape, y's shape) over the pools (a scalar takes the pool's element noted)
FORMS: dict[str, tuple[tuple[int, ...], tuple[int, ...]]] = {
    "eq": ((3, 4), (3, 4)), "y-scalar": ((3, 4), ()), "x-scalar": ((), (3, 4)), "row": ((3, 4), (4,)),
    "col": ((3, 4), (3, 1)), "x-size1": ((1, 4), (3, 4)), "y-size1": ((3, 4), (1, 4)), "both-size1": ((3, 1), (1, 4)),
}


#: the forms each dtype takes (the half types' and complex's short, for the module's cost)
FORMS_OF = {"float32": ("eq", "y-scalar", "x-scalar", "col", "x-size1", "both-size1"),
            "float64": ("eq", "y-scalar", "x-scalar", "row", "y-size1"),
            "float16": ("eq", "y-scalar", "col"), "bfloat16": ("eq", "y-scalar", "row"),
            "complex64": ("eq", "y-scalar"), "complex128": ("eq", "col")}


def take(pool: list[float], shape: tuple[int, ...], offset: int) -> list[float]:
    n = int(np.prod(shape)) if shape else 1
    return [pool[(offset + i) % len(pool)] for i in range(n)]


def operands(tf: Any, dt: str) -> dict[str, tuple[Any, Any]]:
    """The broadcast forms' operand pairs: scalars each of several values (0.0, -0.0, 2.0 (a tie), -2.0 (a negative
    base), NaN, inf)."""
    px, py = xy_pool(dt)
    out: dict[str, tuple[Any, Any]] = {}
    for f, (sx, sy) in FORMS.items():
        if f not in FORMS_OF[dt]:
            continue
        if f == "y-scalar":
            for k, off in (("0", 0), ("2", 10))[dt in COMPLEX or dt in ("float16", "bfloat16"):]:
                out[f"{f} {k}"] = (const(tf, dt, take(px, sx, 0), sx), const(tf, dt, take(py, sy, off), sy))
        elif f == "x-scalar":
            for k, off in (("-2", 3),):
                out[f"{f} {k}"] = (const(tf, dt, take(px, sx, off), sx), const(tf, dt, take(py, sy, 0), sy))
        else:
            out[f] = (const(tf, dt, take(px, sx, 0), sx), const(tf, dt, take(py, sy, 0 if f == "eq" else 2), sy))
    return out


def bin_program(dt: str) -> Callable[[Any], Any]:
    def fn(tf: Any) -> dict[str, Any]:
        pairs = operands(tf, dt)
        ops = binops(tf, dt)
        names = sorted(pairs)

        def make(errs: list[str]) -> Callable[..., dict[str, Any]]:
            def run(*ts: Any) -> dict[str, Any]:
                r: dict[str, Any] = {}
                for i, f in enumerate(names):
                    x, y = ts[i], ts[len(names) + i]
                    for name, op in ops.items():
                        def one() -> Any:
                            with tf.GradientTape(persistent=True) as g:
                                g.watch(x)
                                g.watch(y)
                                z = op(x, y)
                                same = op(x, x)
                            n = int(np.prod(z.shape.as_list())) if z.shape.rank else 1
                            u = tf.cast(tf.reshape(tf.constant(UP[:n], tf.float64), z.shape), z.dtype)
                            return [z, g.gradient(z, [x, y], output_gradients=u),
                                    g.gradient(z, y, output_gradients=u), same, g.gradient(same, x)]
                        guard(r, errs, f"{name} {f}", one)
                return r
            return run
        return modes(tf, make, *([pairs[n][0] for n in names] + [pairs[n][1] for n in names]))
    return fn


for _dt in FLOATS + COMPLEX:
    program(f"i-bin-{_dt}", bin_program(_dt))


# -- unary ops' values and gradients at their range ends ------------------------------------------------------------
def unary_ops(tf: Any) -> dict[str, Callable[[Any], Any]]:
    m, nn = tf.math, tf.nn
    return {
        "tanh": tf.tanh, "sigmoid": tf.sigmoid, "softplus": nn.softplus, "softsign": nn.softsign, "elu": nn.elu,
        "selu": nn.selu, "gelu": lambda a: nn.gelu(a), "gelu approx": lambda a: nn.gelu(a, approximate=True),
        "erf": m.erf, "erfc": m.erfc, "lgamma": m.lgamma, "digamma": m.digamma, "log1p": m.log1p, "expm1": m.expm1,
        "rsqrt": m.rsqrt, "reciprocal": m.reciprocal, "atan": m.atan, "asinh": m.asinh, "acosh": m.acosh,
        "atanh": m.atanh, "sinh": m.sinh, "cosh": m.cosh, "exp": m.exp, "log": m.log, "sqrt": m.sqrt,
        "square": m.square, "abs": m.abs, "neg": m.negative, "sign": m.sign, "relu": nn.relu, "relu6": nn.relu6,
        "leaky_relu": lambda a: nn.leaky_relu(a, 0.2), "log_sigmoid": m.log_sigmoid, "asin": m.asin,
        "acos": m.acos, "tan": m.tan, "sin": m.sin, "cos": m.cos, "erfinv": m.erfinv, "ndtri": m.ndtri,
        "silu": nn.silu,
    }


def unary_values(dt: str) -> list[float]:
    s = SUB[dt]
    inf, nan = float("inf"), float("nan")
    return [0.0, -0.0, s, -s, 1.0, -1.0, 0.5, -0.5, 1e-4, -1e-4, 3.0, -3.0, 9.0, -9.0, 20.0, -20.0, 50.0, -50.0,
            100.0, -100.0, 1e4, -2.0, -2.5, inf, -inf, nan, 0.99951171875, -0.99951171875, 1.00048828125, 2e-3]


def unary_program(dt: str) -> Callable[[Any], Any]:
    def fn(tf: Any) -> dict[str, Any]:
        vals = unary_values(dt)
        x = const(tf, dt, vals, (len(vals),))
        u = const(tf, dt, [UP[i % len(UP)] for i in range(len(vals))], (len(vals),))
        ops = unary_ops(tf)

        def make(errs: list[str]) -> Callable[..., dict[str, Any]]:
            def run(a: Any) -> dict[str, Any]:
                r: dict[str, Any] = {}
                for name, op in ops.items():
                    def one() -> Any:
                        with tf.GradientTape() as g:
                            g.watch(a)
                            y = op(a)
                        return [y, g.gradient(y, a, output_gradients=u)]
                    guard(r, errs, name, one)
                return r
            return run
        return modes(tf, make, x)
    return fn


for _dt in FLOATS:
    program(f"i-unary-{_dt}", unary_program(_dt))


# -- reductions and their gradients ---------------------------------------------------------------------------------
def reduce_inputs(dt: str) -> dict[str, list[float]]:
    s = SUB[dt]
    inf, nan = float("inf"), float("nan")
    return {
        "ties": [1.5, -2.0, 1.5, 0.0, -0.0, 3.0, 3.0, -2.0, 0.25, -0.0, 0.0, 1.5],
        "nan": [1.0, nan, -2.0, 0.5, 3.0, 3.0, nan, -1.0, 0.0, 2.0, -0.5, 0.75],
        "inf": [inf, 1.0, -inf, 2.0, -0.5, inf, 0.0, 1.0, -1.0, 0.5, -inf, 2.0],
        "zeros": [0.0, 2.0, -3.0, 0.0, 1.5, 0.0, -0.0, 0.5, 4.0, -0.0, 0.0, -1.0],
        "offset": [1000.0 + v for v in (0.125, -0.25, 0.5, 0.0, 0.375, -0.125, 0.25, 0.75, -0.5, 0.625, 0.0, 1.0)],
        "tiny": [s, -s, 2 * s, 1.0, s, 0.0, -s, 3 * s, 0.5, s, s, -0.0],
    }


AXES: dict[str, Any] = {"None": None, "0": 0, "-1": -1}


def upstream(tf: Any, y: Any, extra: tuple[float, ...] = ()) -> Any:
    """A non-uniform dyadic upstream of y's shape and dtype (its shape at run time: a segment op's rows are)."""
    vals = tf.tile(tf.constant(UP + extra, tf.float64), [8])
    return tf.cast(tf.reshape(vals[:tf.size(y)], tf.shape(y)), y.dtype)


def grad_of(tf: Any, f: Callable[[Any], Any], x: Any, extra: tuple[float, ...] = ()) -> Callable[[], Any]:
    """[f(x), its gradient w.r.t. x of a non-uniform upstream] (dense)."""
    def one() -> Any:
        with tf.GradientTape() as g:
            g.watch(x)
            y = f(x)
        dx = g.gradient(y, x, output_gradients=upstream(tf, y, extra))
        return [y, None if dx is None else tf.convert_to_tensor(dx)]
    return one


def reduce_program(dt: str) -> Callable[[Any], Any]:
    def fn(tf: Any) -> dict[str, Any]:
        m = tf.math
        reds = {"sum": m.reduce_sum, "mean": m.reduce_mean, "prod": m.reduce_prod, "max": m.reduce_max,
                "min": m.reduce_min, "logsumexp": m.reduce_logsumexp, "variance": m.reduce_variance,
                "std": m.reduce_std, "euclidean_norm": m.reduce_euclidean_norm}
        inputs = reduce_inputs(dt)
        names = {"float32": ["inf", "nan", "offset", "ties"], "float64": ["nan", "offset", "zeros"]}.get(
            dt, ["nan", "ties", "tiny"])

        def make(errs: list[str]) -> Callable[..., dict[str, Any]]:
            def run(*xs: Any) -> dict[str, Any]:
                r: dict[str, Any] = {}
                for iname, x in zip(names, xs):
                    for rname, red in reds.items():
                        for aname, ax in AXES.items():
                            for kd in (False, True):
                                if kd and aname == "0":
                                    continue
                                guard(r, errs, f"{rname} {iname} axis={aname} kd={kd}",
                                      grad_of(tf, lambda t, red=red, ax=ax, kd=kd: red(t, axis=ax, keepdims=kd), x))
                    for ot in (tf.int32, tf.int64):
                        for ax in (0, 1, -1):
                            guard(r, errs, f"argmax {iname} {ax} {ot.name}",
                                  lambda: m.argmax(x, axis=ax, output_type=ot))
                            guard(r, errs, f"argmin {iname} {ax} {ot.name}",
                                  lambda: m.argmin(x, axis=ax, output_type=ot))
                    guard(r, errs, f"argmax {iname} default", lambda: m.argmax(x))
                    guard(r, errs, f"argmin {iname} default", lambda: m.argmin(x))
                return r
            return run
        return modes(tf, make, *[const(tf, dt, inputs[n], (3, 4)) for n in names])
    return fn


for _dt in FLOATS:
    program(f"i-reduce-{_dt}", reduce_program(_dt))


def scan_segment_program(dt: str) -> Callable[[Any], Any]:
    def fn(tf: Any) -> dict[str, Any]:
        m = tf.math
        inf, nan = float("inf"), float("nan")
        xa = const(tf, dt, [1.5, -2.0, 0.0, 0.5, -0.0, 3.0, 2.0, -1.0, 0.25, 0.0, -0.5, 1.0], (3, 4))
        xn = const(tf, dt, [1.0, nan, -2.0, 0.5, inf, 3.0, -inf, -1.0, 0.0, 2.0, -0.5, 0.75], (3, 4))
        xr = const(tf, dt, [0.5, -1.0, 2.0, 1.5, 0.25, -0.75, 1.0, 0.0, 3.0, -2.0, 0.5, 1.25, -0.5, 2.5, 0.75],
                   (3, 5))
        scans = (("cumsum", m.cumsum), ("cumprod", m.cumprod), ("cumulative_logsumexp", m.cumulative_logsumexp))
        segs = (("segment_sum", m.segment_sum), ("segment_mean", m.segment_mean), ("segment_max", m.segment_max),
                ("segment_min", m.segment_min), ("segment_prod", m.segment_prod))
        usegs = (("unsorted_segment_sum", m.unsorted_segment_sum), ("unsorted_segment_mean", m.unsorted_segment_mean),
                 ("unsorted_segment_max", m.unsorted_segment_max), ("unsorted_segment_min", m.unsorted_segment_min),
                 ("unsorted_segment_prod", m.unsorted_segment_prod),
                 ("unsorted_segment_sqrt_n", m.unsorted_segment_sqrt_n))
        def make(errs: list[str]) -> Callable[..., dict[str, Any]]:
            def run(xa: Any, xn: Any, xr: Any) -> dict[str, Any]:
                r: dict[str, Any] = {}
                for iname, x in (("plain", xa), ("nonfinite", xn)):
                    for sname, sc in scans:
                        for ax in (0, -1):
                            for ex in (False, True):
                                for rv in (False, True):
                                    guard(r, errs, f"{sname} {iname} ax={ax} ex={ex} rv={rv}", grad_of(
                                        tf, lambda t, sc=sc, ax=ax, ex=ex, rv=rv: sc(t, axis=ax, exclusive=ex,
                                                                                     reverse=rv), x))
                    # sorted ids with an empty segment (1); unsorted ids with empty ones and a dropped -1
                    for sname, sf in segs:
                        guard(r, errs, f"{sname} {iname}", grad_of(tf, lambda t, sf=sf: sf(t, tf.constant([0, 0, 2])),
                                                                   x))
                    for sname, sf in usegs:
                        for ids, nseg in (([3, 0, 3], 5), ([-1, 1, 1], 2)):
                            guard(r, errs, f"{sname} {iname} n={nseg}", grad_of(
                                tf, lambda t, sf=sf, ids=ids, nseg=nseg: sf(t, tf.constant(ids), nseg), x))
                # reverse_sequence: seq_axis and batch_axis both ways, lengths 0, full and partial
                for sa, ba, lens in ((1, 0, [2, 0, 5]), (0, 1, [3, 1, 0, 2, 3]), (-1, 0, [4, 1, 3]),
                                     (0, -1, [2, 2, 0, 3, 1])):
                    guard(r, errs, f"reverse_sequence seq={sa} batch={ba}", grad_of(
                        tf, lambda t, sa=sa, ba=ba, lens=lens: tf.reverse_sequence(
                            t, tf.constant(lens, tf.int64), seq_axis=sa, batch_axis=ba), xr, (0.125, 0.375, -0.75)))
                return r
            return run
        return modes(tf, make, xa, xn, xr)
    return fn


for _dt in ("float32", "float64", "float16"):
    program(f"i-scan-{_dt}", scan_segment_program(_dt))


def complex_reduce_program(dt: str) -> Callable[[Any], Any]:
    def fn(tf: Any) -> dict[str, Any]:
        m = tf.math
        re = [1.5, -2.0, 0.5, 0.0, 1.0, -0.5, 2.0, 0.25, -1.0, 0.75, 0.0, 1.25]
        im = [0.5, 1.0, -1.5, 0.0, 2.0, 0.25, -0.5, 1.0, 0.0, -2.0, 0.5, -0.75]
        x = tf.cast(tf.complex(const(tf, "float64", re, (3, 4)), const(tf, "float64", im, (3, 4))), dt)
        xz = tf.cast(tf.complex(const(tf, "float64", [0.0, 1.0, 2.0, -1.0, 0.0, 0.0, 1.5, 0.5, -0.5, 2.0, 1.0, 0.0],
                                      (3, 4)), const(tf, "float64", [0.0] * 3 + [1.0] * 9, (3, 4))), dt)

        def make(errs: list[str]) -> Callable[..., dict[str, Any]]:
            def run(x: Any, xz: Any) -> dict[str, Any]:
                r: dict[str, Any] = {}
                for iname, t in (("plain", x), ("zeros", xz)):
                    for rname, red in (("prod", m.reduce_prod), ("sum", m.reduce_sum), ("mean", m.reduce_mean)):
                        for aname, ax in (("None", None), ("0", 0), ("1", 1), ("[0,1]", [0, 1])):
                            def one(red: Any = red, ax: Any = ax, t: Any = t) -> Any:
                                with tf.GradientTape() as g:
                                    g.watch(t)
                                    y = red(t, axis=ax)
                                re_ = tf.math.real(y)
                                u = tf.cast(tf.complex(tf.ones_like(re_, tf.float64) * 0.5,
                                                       -tf.ones_like(re_, tf.float64)), y.dtype)
                                return [y, g.gradient(y, t, output_gradients=u)]
                            guard(r, errs, f"{rname} {iname} {aname}", one)
                    for sname, sc in (("cumsum", m.cumsum), ("cumprod", m.cumprod)):
                        for ex in (False, True):
                            for rv in (False, True):
                                guard(r, errs, f"{sname} {iname} ex={ex} rv={rv}", grad_of(
                                    tf, lambda v, sc=sc, ex=ex, rv=rv: sc(v, axis=1, exclusive=ex, reverse=rv), t))
                return r
            return run
        return modes(tf, make, x, xz)
    return fn


for _dt in COMPLEX:
    program(f"i-creduce-{_dt}", complex_reduce_program(_dt))
