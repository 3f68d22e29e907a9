"""keras.ops functions whose TF backend composes several TF ops, crossed by rule (sixty-third session, qsweep63;
test_qsweep63.py), bit for bit against TF 2.21's recorded results, refusals by exception class.

Why: batch 82's keras.ops survivors (logaddexp2 by pow2, cdist by the Gram expansion, deg2rad regrouped, corrcoef's
normalizer) were functions Keras's TF backend (keras/src/backend/tensorflow/numpy.py, math.py, nn.py) writes as a
chain of TF ops and which the suite compared to a tolerance: a regrouped chain moves the last bits only. osweep61
took keras.ops' reductions (mean ... nanmean, quantile, average), activations, image and norm functions; this module
takes the rest of the composed functions, each over hazard values and its options:
- q-bin-<dt>: the binary functions logaddexp, logaddexp2, hypot, arctan2, heaviside, nextafter, fmod, mod,
  floor_divide, fmax, fmin, ldexp, isclose (default, rtol/atol off their defaults, equal_nan), allclose, divide_no_nan
  over every pair of a hazard list (±0, ± the smallest subnormal, ±1, ±inf, NaN, huge values, ...) and over seeded
  uniform operands; broadcasting scalar/row/column forms; the eager tape's gradients of the differentiable ones;
  traced (a tf.function) for the chains;
- q-un-<dt>: deg2rad, rad2deg, sinc, signbit, i0, exp2, log2, log10, cbrt, reciprocal, square, sign, trunc, fabs,
  round × decimals 0, 1, 2, 3, -1, -2, nan_to_num × nan/posinf/neginf, isposinf/isneginf/isreal, real/imag/conj/angle,
  diff × n × axis, trapezoid × x/dx/axis, nancumsum/nancumprod × axis, over the hazards and seeded operands, eager,
  traced and their gradients;
- q-int: the same unary functions and the binary ones over int8/int16/int32/int64/uint8/uint32/bool (Keras promotes
  most to floatx; gcd/lcm/ldexp's integer rules; round's negative decimals over integers);
- q-lin-<dt>: cdist (ranks 2 and 3, one row, equal points), kron, outer, inner, vdot, tensordot (axes 0, 1, 2, pairs),
  cross (3- and 2-vectors, axisa/axisb/axisc, axis), trace/diagonal (offsets, axes of rank 3), diag/diagflat (k),
  tri/tril/triu (k, M, dtype), corrcoef (one, two, five rows, a constant row, rank 1), correlate (valid, same, full;
  operands of each length order), vander (N, increasing), and the gradients of cdist/corrcoef/kron/cross;
- q-nan-<dt>: the nan-reductions (nansum, nanprod, nanmax, nanmin, nanargmax, nanargmin, nanmean, nanvar, nanstd,
  nanmedian, nanpercentile, nanquantile × method) and percentile/ptp over data with NaN, all-NaN rows, ±inf, axis
  None/int/negative/tuple and keepdims;
- q-gen: linspace/logspace/geomspace × num 0, 1, 2, 7, 50 × endpoint × base × dtype × axis × array ends × retstep;
  histogram (bins, range, ties at edges), bincount (weights, minlength, sparse), digitize, searchsorted × side, the
  window functions bartlett/hamming/hanning/blackman/kaiser × lengths 0, 1, 2, 5, 12 × beta;
- q-nn-<dt>: normalize × order 1, 2, 3, inf × axis × epsilon (a zero vector), rms_normalization × scale × axis ×
  epsilon, layer_normalization × gamma/beta × axis × epsilon × rms_scaling, moments × axes × keepdims × synchronized,
  batch_normalization × offset/scale None × axis × epsilon, log_softmax/softmax × axis tuples, logsumexp over rows
  with ±inf;
- q-xent-<dt>: categorical/sparse categorical/binary crossentropy over normalized and unnormalized probabilities,
  exact 0 and 1 (the clip's ends), logits ±30/±100, one-hot and soft targets, the logits shortcut of a softmax/sigmoid
  output (keras.ops' and tf.nn's, eager and traced), axis 1 and 0, labels (b,), (b, 1), (b, t), (b, t, 1) and int8,
  shape and rank mismatches, and the gradients;
- q-spec: every function above on KerasTensors (float32 with an unknown batch, float16, int32 rank 3, int8, bool,
  float64 with an unknown middle dimension, uint8; binary ones also beside a Python int): the output spec's shape and
  dtype, or the refusal's class (Keras's compute_output_spec);
- q-model: a named Keras layer applying a chain of these functions inside model.predict (jit_compile=False) and
  model(x), and the same functions inside tf.function.

Every program is host-dependent (half-type packet math, the float32 contractions oneDNN orders and Eigen's vector
transcendental paths are the CPU's): simdist runs them under its reference model of the AVX-512 oneDNN recording
host. `python -m simdist.conformance.suite.test_qsweep63 --record` rewrites qsweep63_reference.json.gz. OPEN lists
simdist's disagreements with TF 2.21 left out of the comparison."""

from __future__ import annotations

import json
import os
from typing import Any, Callable

import numpy as np

from simdist.conformance.suite.kpaths54_cases import packed, without_open
from simdist.conformance.suite.osweep61_cases import image, modes, res, specials
from simdist.conformance.suite.recorded_programs import RecordedPrograms, avx512_with_onednn, reference_cpu, rng

PATH = os.path.join(os.path.dirname(__file__), "qsweep63_reference.json.gz")

REF = RecordedPrograms(PATH, host_dependent=("q-",), recording_host=avx512_with_onednn, recording_cpu=reference_cpu)

FLOATS = ("float16", "bfloat16", "float32", "float64")

#: simdist's disagreements with TF 2.21 left out of the comparison: program -> case keys (docs/conformance.md,
#: "Sixty-third session ... qsweep63").
#: - float64 correlate (every mode): Keras writes it as tf.nn.conv1d of one channel, which TF 2.21 runs as Eigen's
#:   SpatialConvolution contraction; some outputs are one ulp off (osweep61's open ssim class, Eigen's contraction order
#:   for one input channel, not modelled; float32 (oneDNN), float16 and bfloat16 agree);
#: - float32 tensordot traced ((5, 3)·(4, 3) over axes ([1], [1]): the graph's transposed MatMul, eager agrees;
#:   of the family esweep57 left open: a traced float64 (3, 9)·(5, 9)^T product, float32 transpose_b products);
#: - a functional model whose layer calls keras.ops.corrcoef: TF 2.21's Keras infers the layer's output in a scratch
#:   FuncGraph, where corrcoef's `if tf.rank(x) == 0` is a symbolic tensor's bool (OperatorNotAllowedInGraphError);
#:   simdist's compute_output_spec runs the call eagerly on zeros (keras_tensor.py), so the model builds and runs.
OPEN: dict[str, tuple[str, ...]] = {
    "q-lin-float64": ("correlate even", "correlate full", "correlate full equal", "correlate full swapped",
                      "correlate same", "correlate same equal", "correlate same swapped", "correlate valid"),
    "q-lin-float32": ("tensordot modes fn",),
    "q-model": ("functional corrcoef",),
}


#: the programs' unpacked results by name (for probes comparing case by case)
RAW: dict[str, Callable[[Any], Any]] = {}


def program(name: str, fn: Callable[[Any], Any]) -> None:
    RAW[name] = fn
    REF.add(name, lambda tf, mk: packed(without_open(name, json.loads(json.dumps(fn(tf))), OPEN)))


def hazards(dt: str) -> np.ndarray:
    """osweep61's special values and a few more: the largest finite value's neighbourhood and values whose squares
    overflow or underflow in the dtype (hypot's, cdist's and normalize's scaled paths)."""
    sq_big = {"float16": 300.0, "bfloat16": 2.0e19, "float32": 2.0e19, "float64": 1.0e154}[dt]
    sq_small = {"float16": 2.0 ** -13, "bfloat16": 2.0e-20, "float32": 2.0e-20, "float64": 1.0e-160}[dt]
    return np.array(specials(dt) + [sq_big, -sq_big, sq_small, -sq_small, 180.0, 57.25, 0.1, 1.0 / 3.0])


def seeded(name: str, shape: tuple[int, ...], lo: float, hi: float) -> np.ndarray:
    """Seeded uniform values (RandomState arithmetic only)."""
    return rng(name).uniform(lo, hi, size=shape)


def pairs(tf: Any, dt: str) -> tuple[Any, Any]:
    h = hazards(dt)
    a = np.repeat(h, len(h))
    b = np.tile(h, len(h))
    return tf.constant(a, dtype=dt), tf.constant(b, dtype=dt)


# -- 1. binary composed functions -------------------------------------------------------------------------------------
BINARY: dict[str, Callable[[Any, Any, Any], Any]] = {
    "logaddexp": lambda k, a, b: k.logaddexp(a, b),
    "logaddexp2": lambda k, a, b: k.logaddexp2(a, b),
    "hypot": lambda k, a, b: k.hypot(a, b),
    "arctan2": lambda k, a, b: k.arctan2(a, b),
    "heaviside": lambda k, a, b: k.heaviside(a, b),
    "nextafter": lambda k, a, b: k.nextafter(a, b),
    "fmod": lambda k, a, b: k.fmod(a, b),
    "mod": lambda k, a, b: k.mod(a, b),
    "floor_divide": lambda k, a, b: k.floor_divide(a, b),
    "fmax": lambda k, a, b: k.fmax(a, b),
    "fmin": lambda k, a, b: k.fmin(a, b),
    "divide_no_nan": lambda k, a, b: k.divide_no_nan(a, b),
    "isclose": lambda k, a, b: k.isclose(a, b),
    "isclose tol": lambda k, a, b: k.isclose(a, b, rtol=0.25, atol=0.5),
    "isclose zero tol": lambda k, a, b: k.isclose(a, b, rtol=0.0, atol=0.0),
    "isclose equal_nan": lambda k, a, b: k.isclose(a, b, equal_nan=True),
}
DIFFERENTIABLE = ("logaddexp", "logaddexp2", "hypot", "arctan2")


def _binary(dt: str) -> Callable[[Any], Any]:
    def run(tf: Any) -> Any:
        k = tf.keras.ops
        out: dict[str, Any] = {}
        a, b = pairs(tf, dt)
        u = tf.constant(seeded(f"q-bin-u/{dt}", (3, 40), -6.0, 6.0), dtype=dt)
        v = tf.constant(seeded(f"q-bin-v/{dt}", (3, 40), -6.0, 6.0), dtype=dt)
        w = tf.constant(seeded(f"q-bin-w/{dt}", (3, 40), -60.0, 60.0), dtype=dt)
        for name, f in BINARY.items():
            out[f"{name} hazards"] = res(lambda f=f: f(k, a, b))
            out[f"{name} seeded"] = res(lambda f=f: f(k, u, v))
            out[f"{name} wide"] = res(lambda f=f: f(k, w, u))
            out[f"{name} row"] = res(lambda f=f: f(k, u, v[0]))
            out[f"{name} column"] = res(lambda f=f: f(k, u[:, :1], v))
            out[f"{name} scalar"] = res(lambda f=f: f(k, u, tf.constant(0.75, dt)))
        for name in DIFFERENTIABLE:
            f = BINARY[name]
            modes(tf, out, f"{name} modes", (lambda f: lambda x: f(k, x, v))(f), u, traced=True, grad=True)
            modes(tf, out, f"{name} modes wide", (lambda f: lambda x: f(k, x, u))(f), w, traced=False, grad=True)
        out["ldexp"] = res(lambda: k.ldexp(u, tf.constant(np.arange(-60, 60).reshape(3, 40) % 9 - 4, "int32")))
        out["ldexp hazards"] = res(lambda: k.ldexp(a, tf.constant(np.arange(a.shape[0]) % 7 - 3, "int32")))
        out["ldexp far"] = res(lambda: k.ldexp(u, tf.constant(np.arange(120).reshape(3, 40) * 11 % 300 - 150,
                                                                "int32")))
        out["allclose"] = res(lambda: k.allclose(u, u + tf.constant(1e-3, dt)))
        out["allclose tol"] = res(lambda: k.allclose(u, u + tf.constant(1e-3, dt), rtol=0.0, atol=1e-2))
        out["allclose nan"] = res(lambda: k.allclose(a, a, equal_nan=True))
        out["allclose nan off"] = res(lambda: k.allclose(a, a))
        out["logaddexp2 fn hazards"] = res(lambda: tf.function(lambda x, y: k.logaddexp2(x, y))(a, b))
        out["hypot fn hazards"] = res(lambda: tf.function(lambda x, y: k.hypot(x, y))(a, b))
        out["logaddexp fn hazards"] = res(lambda: tf.function(lambda x, y: k.logaddexp(x, y))(a, b))
        return out
    return run


for _dt in FLOATS:
    program(f"q-bin-{_dt}", _binary(_dt))


# -- 2. unary composed functions --------------------------------------------------------------------------------------
UNARY: dict[str, Callable[[Any, Any], Any]] = {
    "deg2rad": lambda k, x: k.deg2rad(x),
    "rad2deg": lambda k, x: k.rad2deg(x),
    "sinc": lambda k, x: k.sinc(x),
    "signbit": lambda k, x: k.signbit(x),
    "i0": lambda k, x: k.i0(x),
    "exp2": lambda k, x: k.exp2(x),
    "log2": lambda k, x: k.log2(x),
    "log10": lambda k, x: k.log10(x),
    "cbrt": lambda k, x: k.cbrt(x),
    "reciprocal": lambda k, x: k.reciprocal(x),
    "square": lambda k, x: k.square(x),
    "sign": lambda k, x: k.sign(x),
    "trunc": lambda k, x: k.trunc(x),
    "fabs": lambda k, x: k.fabs(x),
    "round": lambda k, x: k.round(x),
    "round 1": lambda k, x: k.round(x, 1),
    "round 2": lambda k, x: k.round(x, 2),
    "round 3": lambda k, x: k.round(x, 3),
    "round -1": lambda k, x: k.round(x, -1),
    "round -2": lambda k, x: k.round(x, -2),
    "nan_to_num": lambda k, x: k.nan_to_num(x),
    "nan_to_num set": lambda k, x: k.nan_to_num(x, nan=1.5, posinf=7.0, neginf=-7.0),
    "nan_to_num posinf": lambda k, x: k.nan_to_num(x, posinf=100.0),
    "nan_to_num neginf": lambda k, x: k.nan_to_num(x, nan=-0.0, neginf=-3.0),
    "isposinf": lambda k, x: k.isposinf(x),
    "isneginf": lambda k, x: k.isneginf(x),
    "isreal": lambda k, x: k.isreal(x),
    "real": lambda k, x: k.real(x),
    "imag": lambda k, x: k.imag(x),
    "conj": lambda k, x: k.conj(x),
    "angle": lambda k, x: k.angle(x),
}
GRADS = ("deg2rad", "rad2deg", "sinc", "exp2", "log2", "log10", "cbrt", "round 2", "i0")


def _unary(dt: str) -> Callable[[Any], Any]:
    def run(tf: Any) -> Any:
        k = tf.keras.ops
        out: dict[str, Any] = {}
        h = tf.constant(hazards(dt), dtype=dt)
        u = tf.constant(seeded(f"q-un-u/{dt}", (3, 24), -8.0, 8.0), dtype=dt)
        w = tf.constant(seeded(f"q-un-w/{dt}", (2, 24), -400.0, 400.0), dtype=dt)
        for name, f in UNARY.items():
            out[f"{name} hazards"] = res(lambda f=f: f(k, h))
            out[f"{name} seeded"] = res(lambda f=f: f(k, u))
            out[f"{name} wide"] = res(lambda f=f: f(k, w))
            out[f"{name} scalar"] = res(lambda f=f: f(k, tf.constant(2.5, dt)))
        for name in GRADS:
            f = UNARY[name]
            modes(tf, out, f"{name} modes", (lambda f: lambda x: f(k, x))(f), u, traced=True, grad=True)
        m = tf.constant(seeded(f"q-un-m/{dt}", (4, 7), -3.0, 3.0), dtype=dt)
        for n in (1, 2, 3, 0):
            for ax in (-1, 0):
                out[f"diff {n} {ax}"] = res(lambda n=n, ax=ax: k.diff(m, n=n, axis=ax))
        out["diff hazards"] = res(lambda: k.diff(h))
        out["diff 7"] = res(lambda: k.diff(m, n=7))
        modes(tf, out, "diff modes", lambda x: k.diff(x, n=2), m, traced=True, grad=True)
        xs = tf.constant(np.sort(seeded(f"q-un-xs/{dt}", (7,), 0.0, 5.0)), dtype=dt)
        out["trapezoid"] = res(lambda: k.trapezoid(m))
        out["trapezoid dx"] = res(lambda: k.trapezoid(m, dx=0.3))
        out["trapezoid x"] = res(lambda: k.trapezoid(m, x=xs))
        out["trapezoid axis 0"] = res(lambda: k.trapezoid(m, axis=0))
        out["trapezoid hazards"] = res(lambda: k.trapezoid(h))
        modes(tf, out, "trapezoid modes", lambda y: k.trapezoid(y, x=xs), m, traced=True, grad=True)
        mn = tf.where(tf.constant(np.arange(28).reshape(4, 7) % 5 == 2), tf.constant(float("nan"), dt), m)
        for ax in (None, 0, 1, -1):
            out[f"nancumsum {ax}"] = res(lambda ax=ax: k.nancumsum(mn, axis=ax))
            out[f"nancumprod {ax}"] = res(lambda ax=ax: k.nancumprod(mn / 2, axis=ax))
        out["nancumsum hazards"] = res(lambda: k.nancumsum(h))
        return out
    return run


for _dt in FLOATS:
    program(f"q-un-{_dt}", _unary(_dt))


INTS = ("int8", "int16", "int32", "int64", "uint8", "uint32", "bool")


def _ints(tf: Any) -> Any:
    k = tf.keras.ops
    out: dict[str, Any] = {}
    for dt in INTS:
        if dt == "bool":
            vals = np.array([0, 1, 1, 0, 1, 0, 0, 1, 1, 1, 0, 1], dtype=bool)
        elif dt.startswith("uint"):
            vals = np.array([0, 1, 2, 3, 7, 45, 90, 100, 127, 180, 200, 255])
        else:
            vals = np.array([0, 1, -1, 3, -7, 45, -90, 100, 127, -128, 180, 15])
            if dt != "int8":
                vals[-2] = 1000
        x = tf.constant(vals.astype(dt) if dt != "bool" else vals)
        y = tf.constant(vals[::-1].astype(dt) if dt != "bool" else vals[::-1])
        for name, f in UNARY.items():
            out[f"{dt} {name}"] = res(lambda f=f: f(k, x))
        for name, f in BINARY.items():
            if name in ("fmod", "mod", "floor_divide") and dt != "bool":
                yy = tf.where(tf.equal(y, tf.zeros_like(y)), tf.ones_like(y), y)
                out[f"{dt} {name}"] = res(lambda f=f, yy=yy: f(k, x, yy))
            else:
                out[f"{dt} {name}"] = res(lambda f=f: f(k, x, y))
        out[f"{dt} gcd"] = res(lambda: k.gcd(x, y))
        out[f"{dt} lcm"] = res(lambda: k.lcm(x, y))
        out[f"{dt} ldexp"] = res(lambda: k.ldexp(x, tf.constant(3)))
        out[f"{dt} ldexp float"] = res(lambda: k.ldexp(tf.constant(1.5), x))
        out[f"{dt} diff"] = res(lambda: k.diff(x, n=2))
        out[f"{dt} trapezoid"] = res(lambda: k.trapezoid(x))
        out[f"{dt} nancumsum"] = res(lambda: k.nancumsum(x))
        out[f"{dt} corrcoef"] = res(lambda: k.corrcoef(tf.reshape(x, (3, 4))))
        out[f"{dt} cdist"] = res(lambda: k.cdist(tf.reshape(x, (3, 4)), tf.reshape(y, (3, 4))))
        out[f"{dt} kron"] = res(lambda: k.kron(x[:3], y[:4]))
        out[f"{dt} vdot"] = res(lambda: k.vdot(x, y))
        out[f"{dt} cross"] = res(lambda: k.cross(tf.reshape(x, (4, 3)), tf.reshape(y, (4, 3))))
        out[f"{dt} trace"] = res(lambda: k.trace(tf.reshape(x, (3, 4)), offset=1))
        out[f"{dt} vander"] = res(lambda: k.vander(x[:4]))
        out[f"{dt} nanvar"] = res(lambda: k.nanvar(x))
        out[f"{dt} nanmedian"] = res(lambda: k.nanmedian(x))
        out[f"{dt} nanpercentile"] = res(lambda: k.nanpercentile(x, 30.0))
        out[f"{dt} normalize"] = res(lambda: k.normalize(tf.reshape(x, (3, 4))))
        out[f"{dt} logsumexp"] = res(lambda: k.logsumexp(x))
    for a, b in ((0, 0), (12, 18), (-12, 18), (2 ** 31 - 1, 2), (-2 ** 31, 6), (7, -0)):
        out[f"gcd/lcm {a} {b}"] = res(lambda a=a, b=b: [k.gcd(tf.constant(a), tf.constant(b)),
                                                        k.lcm(tf.constant(a), tf.constant(b))])
    out["round int -1"] = res(lambda: k.round(tf.constant([15, 25, -15, 1234, -5]), -1))
    out["round int -2 int64"] = res(lambda: k.round(tf.constant([150, 250, -149, 12345], "int64"), -2))
    out["round int 2"] = res(lambda: k.round(tf.constant([15, 25, -15], "int8"), 2))
    return out


program("q-int", _ints)


# -- 3. contractions and matrix functions -----------------------------------------------------------------------------
def _lin(dt: str) -> Callable[[Any], Any]:
    def run(tf: Any) -> Any:
        k = tf.keras.ops
        out: dict[str, Any] = {}

        def t(name: str, shape: tuple[int, ...], lo: float = -3.0, hi: float = 3.0) -> Any:
            return tf.constant(seeded(f"q-lin-{name}/{dt}", shape, lo, hi), dtype=dt)

        x, y = t("x", (5, 3)), t("y", (4, 3))
        x3, y3 = t("x3", (2, 5, 6)), t("y3", (2, 4, 6))
        out["cdist"] = res(lambda: k.cdist(x, y))
        out["cdist self"] = res(lambda: k.cdist(x, x))
        out["cdist rank 3"] = res(lambda: k.cdist(x3, y3))
        out["cdist one row"] = res(lambda: k.cdist(x[:1], y))
        out["cdist far"] = res(lambda: k.cdist(x * 1000.0, y))
        out["cdist huge"] = res(lambda: k.cdist(tf.constant(hazards(dt)[:36].reshape(12, 3), dt), y))
        out["cdist 1-d"] = res(lambda: k.cdist(x[0], y))
        out["cdist dims"] = res(lambda: k.cdist(x, x3[0]))
        modes(tf, out, "cdist modes", lambda a: k.cdist(a, y), x, traced=True, grad=True)
        out["cdist self grad"] = res(lambda: _grad(tf, lambda a: k.cdist(a, a), x))
        a1, b1 = t("a1", (4,)), t("b1", (3,))
        out["kron 1-d"] = res(lambda: k.kron(a1, b1))
        out["kron 2-d"] = res(lambda: k.kron(x[:2], y[:3]))
        out["kron mixed ranks"] = res(lambda: k.kron(a1, x))
        out["kron 3-d"] = res(lambda: k.kron(x3[:, :2, :2], y[:2]))
        modes(tf, out, "kron modes", lambda a: k.kron(a, y[:2]), x[:2], traced=True, grad=True)
        out["outer"] = res(lambda: k.outer(a1, b1))
        out["outer matrices"] = res(lambda: k.outer(x[:2], y[:2]))
        out["inner"] = res(lambda: k.inner(a1[:3], b1))
        out["inner matrices"] = res(lambda: k.inner(x, y))
        out["inner scalar"] = res(lambda: k.inner(tf.constant(2.5, dt), x))
        out["vdot"] = res(lambda: k.vdot(x, t("xv", (5, 3))))
        out["vdot long"] = res(lambda: k.vdot(t("l1", (37,)), t("l2", (37,))))
        out["vdot hazards"] = res(lambda: k.vdot(tf.constant(hazards(dt), dt), tf.constant(hazards(dt)[::-1], dt)))
        for ax in (0, 1, 2, ([1], [0]), ([0, 1], [1, 0]), ([2], [2]), (1, 1)):
            out[f"tensordot {ax}"] = res(lambda ax=ax: k.tensordot(x3, t("td", (6, 3, 6))[:, :, :], axes=ax)
                                         if ax != ([2], [2]) else k.tensordot(x3, y3, axes=ax))
        modes(tf, out, "tensordot modes", lambda a: k.tensordot(a, y, axes=([1], [1])), x, traced=True, grad=True)
        c1, c2 = t("c1", (4, 3)), t("c2", (4, 3))
        d1, d2 = t("d1", (4, 2)), t("d2", (4, 2))
        out["cross 3"] = res(lambda: k.cross(c1, c2))
        out["cross 2"] = res(lambda: k.cross(d1, d2))
        out["cross 2x3"] = res(lambda: k.cross(d1, c2))
        out["cross 3x2"] = res(lambda: k.cross(c1, d2))
        out["cross broadcast"] = res(lambda: k.cross(c1, c2[0]))
        out["cross axisa"] = res(lambda: k.cross(tf.transpose(c1), c2, axisa=0))
        out["cross axisb"] = res(lambda: k.cross(c1, tf.transpose(c2), axisb=0))
        out["cross axisc"] = res(lambda: k.cross(c1, c2, axisc=0))
        out["cross axis"] = res(lambda: k.cross(tf.transpose(c1), tf.transpose(c2), axis=0))
        out["cross 4"] = res(lambda: k.cross(t("e1", (2, 4)), t("e2", (2, 4))))
        out["cross hazards"] = res(lambda: k.cross(tf.constant(hazards(dt)[:36].reshape(12, 3), dt),
                                                   tf.constant(hazards(dt)[4:40].reshape(12, 3), dt)))
        modes(tf, out, "cross modes", lambda a: k.cross(a, c2), c1, traced=True, grad=True)
        sq, cube = t("sq", (5, 5)), t("cube", (3, 4, 5))
        for off in (0, 1, -1, 3, -4, 6):
            out[f"trace {off}"] = res(lambda off=off: k.trace(sq, offset=off))
            out[f"diagonal {off}"] = res(lambda off=off: k.diagonal(sq, offset=off))
            out[f"diag {off}"] = res(lambda off=off: k.diag(sq, k=off))
            out[f"diag 1-d {off}"] = res(lambda off=off: k.diag(a1, k=off))
            out[f"diagflat {off}"] = res(lambda off=off: k.diagflat(x[:2], k=off))
            out[f"tril {off}"] = res(lambda off=off: k.tril(cube, k=off))
            out[f"triu {off}"] = res(lambda off=off: k.triu(x, k=off))
            out[f"tri {off}"] = res(lambda off=off: k.tri(4, 6, k=off, dtype=dt))
        for a1_, a2_ in ((0, 1), (1, 2), (0, 2), (2, 0), (-1, -2), (1, -1)):
            out[f"trace axes {a1_} {a2_}"] = res(lambda a1_=a1_, a2_=a2_: k.trace(cube, 1, a1_, a2_))
            out[f"diagonal axes {a1_} {a2_}"] = res(lambda a1_=a1_, a2_=a2_: k.diagonal(cube, -1, a1_, a2_))
        out["tri square"] = res(lambda: k.tri(3))
        out["tri int"] = res(lambda: k.tri(3, 2, -1, dtype="int32"))
        out["tril 1-d"] = res(lambda: k.tril(a1))
        modes(tf, out, "trace modes", lambda a: k.trace(a, offset=1), sq, traced=True, grad=True)
        rows = t("rows", (5, 9))
        out["corrcoef 5"] = res(lambda: k.corrcoef(rows))
        out["corrcoef 2"] = res(lambda: k.corrcoef(rows[:2]))
        out["corrcoef 1"] = res(lambda: k.corrcoef(rows[:1]))
        out["corrcoef rank 1"] = res(lambda: k.corrcoef(rows[0]))
        out["corrcoef scalar"] = res(lambda: k.corrcoef(rows[0, 0]))
        out["corrcoef constant row"] = res(lambda: k.corrcoef(tf.concat([rows[:2], tf.ones((1, 9), dt)], 0)))
        out["corrcoef offset"] = res(lambda: k.corrcoef(rows + tf.constant(100.0, dt)))
        out["corrcoef two samples"] = res(lambda: k.corrcoef(rows[:, :2]))
        out["corrcoef one sample"] = res(lambda: k.corrcoef(rows[:, :1]))
        out["corrcoef long"] = res(lambda: k.corrcoef(t("long", (3, 70))))
        modes(tf, out, "corrcoef modes", lambda a: k.corrcoef(a), rows[:3], traced=True, grad=True)
        s1, s2 = t("s1", (9,)), t("s2", (4,))
        for mode in ("valid", "same", "full"):
            out[f"correlate {mode}"] = res(lambda mode=mode: k.correlate(s1, s2, mode=mode))
            out[f"correlate {mode} swapped"] = res(lambda mode=mode: k.correlate(s2, s1, mode=mode))
            out[f"correlate {mode} equal"] = res(lambda mode=mode: k.correlate(s1, s1, mode=mode))
            out[f"correlate {mode} one"] = res(lambda mode=mode: k.correlate(s1, s2[:1], mode=mode))
        out["correlate even"] = res(lambda: k.correlate(t("s3", (8,)), s2, mode="same"))
        out["correlate bad mode"] = res(lambda: k.correlate(s1, s2, mode="other"))
        for n in (None, 0, 1, 3, 6):
            for inc in (False, True):
                out[f"vander {n} {inc}"] = res(lambda n=n, inc=inc: k.vander(s2, N=n, increasing=inc))
        out["vander hazards"] = res(lambda: k.vander(tf.constant(hazards(dt), dt), N=4))
        return out
    return run


def _grad(tf: Any, f: Callable[[Any], Any], x: Any) -> Any:
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = f(x)
    return tape.gradient(y, x)


for _dt in FLOATS:
    program(f"q-lin-{_dt}", _lin(_dt))


# -- 4. the nan-reductions --------------------------------------------------------------------------------------------
def _nans(dt: str) -> Callable[[Any], Any]:
    def run(tf: Any) -> Any:
        k = tf.keras.ops
        out: dict[str, Any] = {}
        m = seeded(f"q-nan-m/{dt}", (4, 6, 5), -4.0, 4.0)
        r = rng(f"q-nan-mask/{dt}")
        m[r.uniform(0, 1, m.shape) < 0.25] = float("nan")
        m[0, 0, :] = float("nan")      # an all-NaN row
        m[1, 2, 1] = float("inf")
        m[2, 3, 4] = -float("inf")
        m[3, 1, :] = [float("nan"), 1.5, 1.5, -0.0, 0.0]
        x = tf.constant(m, dtype=dt)
        fns = ("nansum", "nanprod", "nanmax", "nanmin", "nanargmax", "nanargmin", "nanmean", "nanvar", "nanstd",
               "nanmedian", "ptp")
        for fn in fns:
            f = getattr(k, fn)
            axes = (((None, False), (-1, True), ((0, 2), False)) if fn == "nanmedian" else
                    ((None, False), (0, False), (-1, True), (1, False), ((0, 2), False), ((-1, -2), True)))
            for ax, kd in axes:
                out[f"{fn} {ax} {kd}"] = res(lambda f=f, ax=ax, kd=kd: f(x if fn != "nanprod" else x / 3, axis=ax,
                                                                          keepdims=kd))
            out[f"{fn} omitted"] = res(lambda f=f: f(x))
        for fn in ("nanvar", "nanstd", "nanmean", "nanmedian", "nansum"):
            modes(tf, out, f"{fn} modes", (lambda f: lambda v: f(v, axis=-1))(getattr(k, fn)), x[1:],
                  traced=True, grad=fn not in ("nanmedian",))
        # (nanpercentile/nanquantile/nanmedian cost ~20 ms a call on simdist: every method at one q, the ends at two)
        for method in ("linear", "lower", "higher", "midpoint", "nearest"):
            out[f"nanpercentile 30 {method}"] = res(lambda method=method: k.nanpercentile(x, 30.0, axis=-1,
                                                                                          method=method))
        for q, method in ((0.0, "linear"), (1.0, "nearest"), (0.5, "midpoint")):
            out[f"nanquantile {q} {method}"] = res(lambda q=q, method=method: k.nanquantile(
                x, q, axis=1, method=method, keepdims=True))
        for q in (0.0, 30.0, 50.0, 100.0):
            for method in ("linear", "lower", "higher", "midpoint", "nearest"):
                out[f"percentile {q} {method}"] = res(lambda q=q, method=method: k.percentile(
                    x[1:], q, axis=0, method=method))
        out["nanpercentile vec"] = res(lambda: k.nanpercentile(x, tf.constant([10.0, 90.0], "float64")))
        out["nanquantile out of range"] = res(lambda: k.nanquantile(x, 1.5))
        out["percentile None"] = res(lambda: k.percentile(x, 25.0))
        out["nanvar offset"] = res(lambda: k.nanvar(x + tf.constant(500.0, dt), axis=0))
        return out
    return run


for _dt in FLOATS:
    program(f"q-nan-{_dt}", _nans(_dt))


# -- 5. generators, histograms, counting, windows ---------------------------------------------------------------------
def _gen(tf: Any) -> Any:
    k = tf.keras.ops
    out: dict[str, Any] = {}
    for dt in FLOATS + ("int32", None):
        for num in (0, 1, 2, 7, 50):
            for ep in (True, False):
                out[f"linspace {dt} {num} {ep}"] = res(lambda dt=dt, num=num, ep=ep: k.linspace(
                    -1.3, 2.9, num, endpoint=ep, dtype=dt))
                out[f"logspace {dt} {num} {ep}"] = res(lambda dt=dt, num=num, ep=ep: k.logspace(
                    -1.3, 2.9, num, endpoint=ep, dtype=dt))
                out[f"geomspace {dt} {num} {ep}"] = res(lambda dt=dt, num=num, ep=ep: k.geomspace(
                    0.3, 700.0, num, endpoint=ep, dtype=dt))
        for base in (2, 2.5, 10.0):
            out[f"logspace {dt} base {base}"] = res(lambda dt=dt, base=base: k.logspace(0.0, 5.0, 6, base=base,
                                                                                        dtype=dt))
        out[f"geomspace {dt} negative"] = res(lambda dt=dt: k.geomspace(-2.0, -512.0, 10, dtype=dt))
        out[f"geomspace {dt} falling"] = res(lambda dt=dt: k.geomspace(1000.0, 1.0, 4, dtype=dt))
    st, sp = tf.constant([0.0, 1.0, -2.5]), tf.constant([1.0, 11.0, 3.5])
    for ax in (0, 1, -1):
        out[f"linspace arrays {ax}"] = res(lambda ax=ax: k.linspace(st, sp, 5, axis=ax))
        out[f"logspace arrays {ax}"] = res(lambda ax=ax: k.logspace(st, sp, 4, axis=ax))
        out[f"geomspace arrays {ax}"] = res(lambda ax=ax: k.geomspace(st + 1.0, sp, 4, axis=ax))
    out["linspace retstep"] = res(lambda: k.linspace(0.0, 1.0, 7, retstep=True))
    out["linspace retstep no endpoint"] = res(lambda: k.linspace(0.0, 1.0, 7, endpoint=False, retstep=True))
    out["linspace retstep 1"] = res(lambda: k.linspace(2.0, 5.0, 1, retstep=True))
    out["linspace ints"] = res(lambda: k.linspace(0, 10, 4))
    out["linspace float64 ends"] = res(lambda: k.linspace(tf.constant(0.1, "float64"), 0.7, 9))
    out["linspace fn"] = res(lambda: tf.function(lambda a: k.linspace(a, 3.0, 6))(tf.constant(0.2)))
    xs = tf.constant(seeded("q-gen-hist", (40,), -2.0, 5.0))
    edges = tf.constant([-2.0, -1.0, 0.0, 0.0, 1.0, 1.5, 5.0, 2.0])
    for bins in (1, 3, 10, 7):
        out[f"histogram {bins}"] = res(lambda bins=bins: k.histogram(xs, bins=bins))
        out[f"histogram {bins} range"] = res(lambda bins=bins: k.histogram(xs, bins=bins, range=(-1.0, 2.0)))
    out["histogram edges"] = res(lambda: k.histogram(edges, bins=7))
    out["histogram float64"] = res(lambda: k.histogram(tf.constant(seeded("q-gen-h64", (30,), 0, 1), "float64"), 4))
    out["histogram ints"] = res(lambda: k.histogram(tf.constant([1, 2, 2, 3, 9, 0]), bins=3))
    out["histogram empty range"] = res(lambda: k.histogram(xs, bins=4, range=(1.0, 1.0)))
    ids = tf.constant([0, 3, 3, 1, 7, 3, 0])
    wts = tf.constant([0.5, 1.25, -2.0, 3.0, 0.1, 0.3, 7.0])
    out["bincount"] = res(lambda: k.bincount(ids))
    out["bincount weights"] = res(lambda: k.bincount(ids, weights=wts))
    out["bincount weights float64"] = res(lambda: k.bincount(ids, weights=tf.cast(wts, "float64")))
    out["bincount weights int"] = res(lambda: k.bincount(ids, weights=tf.constant([1, 2, 3, 4, 5, 6, 7])))
    out["bincount minlength"] = res(lambda: k.bincount(ids, minlength=10))
    out["bincount minlength short"] = res(lambda: k.bincount(ids, minlength=3))
    out["bincount 2-d"] = res(lambda: k.bincount(tf.reshape(ids[:6], (2, 3)), minlength=5))
    out["bincount sparse"] = res(lambda: k.convert_to_numpy(k.bincount(ids, sparse=True)).tolist())
    out["bincount int8"] = res(lambda: k.bincount(tf.constant([1, 1, 2], "int8")))
    bins = tf.constant([-1.0, 0.0, 0.5, 2.0])
    vals = tf.constant([-3.0, -1.0, -0.0, 0.0, 0.25, 0.5, 1.0, 2.0, 9.0, float("nan"), float("inf")])
    out["digitize"] = res(lambda: k.digitize(vals, bins))
    out["digitize list"] = res(lambda: k.digitize(vals, [0.0, 1.0]))
    out["digitize int"] = res(lambda: k.digitize(tf.constant([0, 1, 5, 9]), [1, 5]))
    out["digitize 2-d"] = res(lambda: k.digitize(tf.reshape(vals[:10], (2, 5)), bins))
    for side in ("left", "right"):
        out[f"searchsorted {side}"] = res(lambda side=side: k.searchsorted(bins, vals, side=side))
        out[f"searchsorted {side} int"] = res(lambda side=side: k.searchsorted(
            tf.constant([1, 3, 3, 7]), tf.constant([0, 3, 4, 8]), side=side))
    out["searchsorted bad side"] = res(lambda: k.searchsorted(bins, vals, side="middle"))
    out["searchsorted 2-d"] = res(lambda: k.searchsorted(tf.reshape(bins, (2, 2)), tf.reshape(vals[:4], (2, 2))))
    for n in (0, 1, 2, 5, 12, 33):
        for fn in ("bartlett", "hamming", "hanning", "blackman"):
            out[f"{fn} {n}"] = res(lambda fn=fn, n=n: getattr(k, fn)(n))
        for beta in (0.0, 5.0, 14.0):
            out[f"kaiser {n} {beta}"] = res(lambda n=n, beta=beta: k.kaiser(n, beta))
    return out


program("q-gen", _gen)


# -- 6. ops.nn normalizations -----------------------------------------------------------------------------------------
def _nn(dt: str) -> Callable[[Any], Any]:
    def run(tf: Any) -> Any:
        k = tf.keras.ops
        out: dict[str, Any] = {}
        x = seeded(f"q-nn-x/{dt}", (3, 4, 6), -3.0, 3.0)
        x[0, 0, :] = 0.0             # a zero vector (normalize's epsilon)
        x[1, 1, :] = 2.0             # a constant row (zero variance)
        x[2, 2, :] *= 1000.0
        t = tf.constant(x, dtype=dt)
        h = tf.constant(hazards(dt)[:36].reshape(6, 6), dtype=dt)
        for order in (1, 2, 3, float("inf")):
            for ax in (-1, 0, (1, 2)):
                out[f"normalize {order} {ax}"] = res(lambda order=order, ax=ax: k.normalize(t, axis=ax, order=order))
        out["normalize epsilon"] = res(lambda: k.normalize(t, epsilon=1e-3))
        out["normalize hazards"] = res(lambda: k.normalize(h))
        modes(tf, out, "normalize modes", lambda v: k.normalize(v), t, traced=True, grad=True)
        modes(tf, out, "normalize 1 modes", lambda v: k.normalize(v, order=1, axis=1), t, traced=False, grad=True)
        g = tf.constant(seeded(f"q-nn-g/{dt}", (6,), 0.5, 2.0), dtype=dt)
        b = tf.constant(seeded(f"q-nn-b/{dt}", (6,), -1.0, 1.0), dtype=dt)
        for eps in (None, 1e-3, 0.5):
            out[f"rms {eps}"] = res(lambda eps=eps: k.rms_normalization(t, epsilon=eps))
            out[f"rms scale {eps}"] = res(lambda eps=eps: k.rms_normalization(t, scale=g, epsilon=eps))
            out[f"layer {eps}"] = res(lambda eps=eps: k.layer_normalization(t, epsilon=eps))
            out[f"layer gamma beta {eps}"] = res(lambda eps=eps: k.layer_normalization(t, g, b, epsilon=eps))
        out["rms axis 1"] = res(lambda: k.rms_normalization(t, axis=1))
        out["rms axes"] = res(lambda: k.rms_normalization(t, axis=(1, 2)))
        out["layer axis 1"] = res(lambda: k.layer_normalization(t, axis=1))
        out["layer axes"] = res(lambda: k.layer_normalization(t, axis=(-2, -1)))
        out["layer gamma only"] = res(lambda: k.layer_normalization(t, gamma=g))
        out["layer beta only"] = res(lambda: k.layer_normalization(t, beta=b))
        out["layer rms_scaling"] = res(lambda: k.layer_normalization(t, g, b, rms_scaling=True))
        out["layer hazards"] = res(lambda: k.layer_normalization(h))
        modes(tf, out, "rms modes", lambda v: k.rms_normalization(v, scale=g), t, traced=True, grad=True)
        modes(tf, out, "layer modes", lambda v: k.layer_normalization(v, g, b), t, traced=True, grad=True)
        for axes in ([0], [1], [2], [0, 1], [0, 2], [-1], [0, 1, 2]):
            for kd in (False, True):
                out[f"moments {axes} {kd}"] = res(lambda axes=axes, kd=kd: k.moments(t, axes, keepdims=kd))
        out["moments synchronized"] = res(lambda: k.moments(t, [0, 1], synchronized=True))
        out["moments hazards"] = res(lambda: k.moments(h, [0]))
        out["moments offset"] = res(lambda: k.moments(t + tf.constant(300.0, dt), [2]))
        modes(tf, out, "moments modes", lambda v: k.moments(v, [0, 2]), t, traced=True, grad=True)
        mean = tf.constant(seeded(f"q-nn-mean/{dt}", (6,), -1.0, 1.0), dtype=dt)
        var = tf.constant(seeded(f"q-nn-var/{dt}", (6,), 0.0, 2.0), dtype=dt)
        mean4, var4 = mean[:4], var[:4]
        for off, sc in ((None, None), (b, None), (None, g), (b, g)):
            key = f"batchnorm {off is not None} {sc is not None}"
            out[key] = res(lambda off=off, sc=sc: k.batch_normalization(t, mean, var, -1, offset=off, scale=sc))
        out["batchnorm axis 1"] = res(lambda: k.batch_normalization(t, mean4, var4, 1, offset=b[:4]))
        out["batchnorm epsilon"] = res(lambda: k.batch_normalization(t, mean, var, -1, epsilon=0.25))
        out["batchnorm zero var"] = res(lambda: k.batch_normalization(t, mean, var * 0, -1, epsilon=0.0))
        modes(tf, out, "batchnorm modes", lambda v: k.batch_normalization(v, mean, var, -1, b, g), t, traced=True,
              grad=True)
        for ax in (-1, 0, 1, (1, 2), (0, 2), None):
            out[f"log_softmax {ax}"] = res(lambda ax=ax: k.log_softmax(t, axis=ax))
            out[f"softmax {ax}"] = res(lambda ax=ax: k.softmax(t, axis=ax))
        out["log_softmax hazards"] = res(lambda: k.log_softmax(h))
        out["softmax hazards"] = res(lambda: k.softmax(h))
        out["logsumexp hazards"] = res(lambda: k.logsumexp(h, axis=-1))
        out["logsumexp hazards 0"] = res(lambda: k.logsumexp(h, axis=0, keepdims=True))
        modes(tf, out, "log_softmax modes", lambda v: k.log_softmax(v, axis=(1, 2)), t, traced=True, grad=True)
        return out
    return run


for _dt in FLOATS:
    program(f"q-nn-{_dt}", _nn(_dt))


# -- 6b. the crossentropies (ops.nn: normalization, clipping, the logits shortcut) --------------------------------------
def _xent(dt: str) -> Callable[[Any], Any]:
    def run(tf: Any) -> Any:
        k = tf.keras.ops
        out: dict[str, Any] = {}
        r = rng(f"q-xent/{dt}")
        logits = seeded(f"q-xent-l/{dt}", (4, 5), -4.0, 4.0)
        logits[0, :] = [30.0, -30.0, 0.0, 100.0, -100.0]
        lg = tf.constant(logits, dtype=dt)
        p = seeded(f"q-xent-p/{dt}", (4, 5), 0.0, 1.0)
        p[1, :] = [0.0, 1.0, 0.0, 0.0, 0.0]           # exact 0 and 1 (the clip's two ends)
        p[2, :] = [0.0, 0.5, 0.25, 0.25, 0.0]
        probs = tf.constant(p / p.sum(axis=1, keepdims=True), dtype=dt)
        unnorm = tf.constant(p * 1.3 + 0.05, dtype=dt)   # rows not summing to 1 (cce renormalizes)
        onehot = tf.constant(np.eye(5)[r.randint(0, 5, size=4)], dtype=dt)
        soft = tf.constant(seeded(f"q-xent-s/{dt}", (4, 5), 0.0, 0.4), dtype=dt)
        labels = tf.constant(r.randint(0, 5, size=4))
        lg3 = tf.constant(seeded(f"q-xent-l3/{dt}", (2, 5, 3), -3.0, 3.0), dtype=dt)
        t3 = tf.constant(np.eye(5)[r.randint(0, 5, size=(2, 3))].transpose(0, 2, 1), dtype=dt)
        cce, scce, bce = k.categorical_crossentropy, k.sparse_categorical_crossentropy, k.binary_crossentropy
        for tname, tgt in (("onehot", onehot), ("soft", soft)):
            for oname, o in (("probs", probs), ("unnorm", unnorm)):
                out[f"cce {tname} {oname}"] = res(lambda tgt=tgt, o=o: cce(tgt, o))
                out[f"bce {tname} {oname}"] = res(lambda tgt=tgt, o=o: bce(tgt, o))
            out[f"cce {tname} logits"] = res(lambda tgt=tgt: cce(tgt, lg, from_logits=True))
            out[f"bce {tname} logits"] = res(lambda tgt=tgt: bce(tgt, lg, from_logits=True))
            out[f"cce {tname} softmax"] = res(lambda tgt=tgt: cce(tgt, k.softmax(lg)))
            out[f"cce {tname} softmax fn"] = res(lambda tgt=tgt: tf.function(lambda v: cce(tgt, k.softmax(v)))(lg))
            out[f"cce {tname} tf softmax fn"] = res(lambda tgt=tgt: tf.function(
                lambda v: cce(tgt, tf.nn.softmax(v)))(lg))
            out[f"bce {tname} sigmoid fn"] = res(lambda tgt=tgt: tf.function(lambda v: bce(tgt, tf.sigmoid(v)))(lg))
            out[f"bce {tname} sigmoid"] = res(lambda tgt=tgt: bce(tgt, k.sigmoid(lg)))
        out["cce axis 1"] = res(lambda: cce(t3, tf.nn.softmax(lg3, axis=1), axis=1))
        out["cce axis 1 unnorm"] = res(lambda: cce(t3, tf.abs(lg3) + 0.1, axis=1))
        out["cce axis 1 logits"] = res(lambda: cce(t3, lg3, from_logits=True, axis=1))
        out["cce axis 0 logits"] = res(lambda: cce(onehot, lg, from_logits=True, axis=0))
        out["cce rank mismatch"] = res(lambda: cce(onehot[0], probs))
        out["cce shape mismatch"] = res(lambda: cce(onehot[:, :4], probs[:, :4] * 0 + probs[:, 1:]))
        out["cce target dim 1"] = res(lambda: cce(onehot[:, :1], probs))
        out["cce output dim 1"] = res(lambda: cce(onehot, probs[:, :1]))
        out["cce logits dim 1"] = res(lambda: cce(onehot[:1], lg, from_logits=True))
        out["bce target dim 1"] = res(lambda: bce(onehot[:, :1], probs))
        out["bce output dim 1"] = res(lambda: bce(onehot, probs[:, :1]))
        for lname, lab in (("(b,)", labels), ("(b,1)", labels[:, None]), ("int8", tf.cast(labels, "int8"))):
            out[f"scce {lname} probs"] = res(lambda lab=lab: scce(lab, probs))
            out[f"scce {lname} logits"] = res(lambda lab=lab: scce(lab, lg, from_logits=True))
            out[f"scce {lname} softmax fn"] = res(lambda lab=lab: tf.function(lambda v: scce(lab, k.softmax(v)))(lg))
        l3 = tf.constant(r.randint(0, 3, size=(2, 5)))
        out["scce (b,t)"] = res(lambda: scce(l3, lg3, from_logits=True))
        out["scce (b,t,1)"] = res(lambda: scce(l3[..., None], lg3, from_logits=True))
        out["scce (b,t) probs"] = res(lambda: scce(l3, tf.nn.softmax(lg3)))
        out["scce axis 0"] = res(lambda: scce(labels, lg, from_logits=True, axis=0))
        out["scce axis 1"] = res(lambda: scce(labels, lg, from_logits=True, axis=1))
        out["scce shape mismatch"] = res(lambda: scce(labels[:3], lg, from_logits=True))
        out["bce rank mismatch"] = res(lambda: bce(onehot[0], probs))
        out["bce exact ends"] = res(lambda: bce(tf.constant([[0.0, 1.0, 1.0, 0.0]], dt),
                                                tf.constant([[0.0, 1.0, 0.0, 1.0]], dt)))
        modes(tf, out, "cce grad", lambda v: cce(soft, v), unnorm, traced=True, grad=True)
        modes(tf, out, "cce logits grad", lambda v: cce(soft, v, from_logits=True), lg, traced=True, grad=True)
        modes(tf, out, "scce grad", lambda v: scce(labels, v), probs, traced=True, grad=True)
        modes(tf, out, "scce logits grad", lambda v: scce(labels, v, from_logits=True), lg, traced=False, grad=True)
        modes(tf, out, "bce grad", lambda v: bce(soft, v), probs, traced=True, grad=True)
        modes(tf, out, "bce logits grad", lambda v: bce(soft, v, from_logits=True), lg, traced=True, grad=True)
        return out
    return run


for _dt in FLOATS:
    program(f"q-xent-{_dt}", _xent(_dt))


# -- 6c. symbolic calls: each function's output spec on KerasTensors --------------------------------------------------
def spec(v: Any) -> Any:
    """A symbolic result: its shape and dtype (item by item for a sequence)."""
    if isinstance(v, (list, tuple)):
        return [spec(x) for x in v]
    return [list(v.shape), str(v.dtype)]


def sres(fn: Callable[[], Any]) -> Any:
    try:
        return spec(fn())
    except Exception as e:  # noqa: BLE001 - the class is the observation
        return f"raised {type(e).__name__}"


def _spec(tf: Any) -> Any:
    keras = tf.keras
    k = keras.ops
    out: dict[str, Any] = {}
    kt = keras.KerasTensor
    inputs = {"f32 (None, 5)": kt((None, 5), "float32"), "f16 (3, 4)": kt((3, 4), "float16"),
              "i32 (2, 3, 4)": kt((2, 3, 4), "int32"), "i8 (6,)": kt((6,), "int8"), "bool (4, 4)": kt((4, 4), "bool"),
              "f64 (2, None, 3)": kt((2, None, 3), "float64"), "u8 (5,)": kt((5,), "uint8")}
    for iname, x in inputs.items():
        for name, f in UNARY.items():
            out[f"{name} {iname}"] = sres(lambda f=f, x=x: f(k, x))
        for name, f in BINARY.items():
            out[f"{name} {iname}"] = sres(lambda f=f, x=x: f(k, x, x))
            out[f"{name} {iname} py"] = sres(lambda f=f, x=x: f(k, x, 2))
        for name, f in (("diff", lambda x: k.diff(x)), ("diff 2 0", lambda x: k.diff(x, n=2, axis=0)),
                        ("trapezoid", lambda x: k.trapezoid(x)), ("nancumsum", lambda x: k.nancumsum(x)),
                        ("nancumprod 0", lambda x: k.nancumprod(x, axis=0)), ("corrcoef", lambda x: k.corrcoef(x)),
                        ("nanvar", lambda x: k.nanvar(x, axis=-1)), ("nanstd keep", lambda x: k.nanstd(x, keepdims=True)),
                        ("nanmedian", lambda x: k.nanmedian(x, axis=0)), ("nansum", lambda x: k.nansum(x)),
                        ("nanprod", lambda x: k.nanprod(x, axis=-1, keepdims=True)),
                        ("nanargmax", lambda x: k.nanargmax(x, axis=-1)), ("nanmax", lambda x: k.nanmax(x, axis=0)),
                        ("nanpercentile", lambda x: k.nanpercentile(x, 30.0, axis=-1)),
                        ("nanquantile vec", lambda x: k.nanquantile(x, [0.1, 0.9], axis=0)),
                        ("percentile", lambda x: k.percentile(x, 50.0)), ("digitize", lambda x: k.digitize(x, [0, 1])),
                        ("digitize tensor bins", lambda x: k.digitize(x, k.convert_to_tensor([0.0, 1.0]))),
                        ("searchsorted", lambda x: k.searchsorted(k.convert_to_tensor([0.0, 1.0, 2.0]), x)),
                        ("histogram", lambda x: k.histogram(x, bins=3)), ("bincount", lambda x: k.bincount(x)),
                        ("trace", lambda x: k.trace(x)), ("diagonal", lambda x: k.diagonal(x, 1)),
                        ("diag", lambda x: k.diag(x)), ("diagflat", lambda x: k.diagflat(x, 1)),
                        ("tril", lambda x: k.tril(x, -1)), ("triu", lambda x: k.triu(x, 1)),
                        ("kron", lambda x: k.kron(x, x)), ("outer", lambda x: k.outer(x, x)),
                        ("inner", lambda x: k.inner(x, x)), ("vdot", lambda x: k.vdot(x, x)),
                        ("tensordot 1", lambda x: k.tensordot(x, x, axes=1)),
                        ("tensordot 0", lambda x: k.tensordot(x, x, axes=0)),
                        ("cdist", lambda x: k.cdist(x, x)), ("cross", lambda x: k.cross(x, x)),
                        ("vander", lambda x: k.vander(x, 3)), ("correlate", lambda x: k.correlate(x, x)),
                        ("correlate full", lambda x: k.correlate(x, x, mode="full")),
                        ("normalize", lambda x: k.normalize(x)), ("normalize 1 0", lambda x: k.normalize(x, 0, 1)),
                        ("rms", lambda x: k.rms_normalization(x)), ("layer", lambda x: k.layer_normalization(x)),
                        ("moments", lambda x: k.moments(x, [0])),
                        ("moments keep", lambda x: k.moments(x, [-1], keepdims=True)),
                        ("log_softmax", lambda x: k.log_softmax(x)), ("logsumexp", lambda x: k.logsumexp(x, -1)),
                        ("cce", lambda x: k.categorical_crossentropy(x, x)),
                        ("scce", lambda x: k.sparse_categorical_crossentropy(x[..., 0], x)),
                        ("bce", lambda x: k.binary_crossentropy(x, x)),
                        ("isclose", lambda x: k.isclose(x, x)), ("allclose", lambda x: k.allclose(x, x)),
                        ("ldexp", lambda x: k.ldexp(x, 2)), ("gcd", lambda x: k.gcd(x, x)),
                        ("lcm", lambda x: k.lcm(x, 3))):
            out[f"{name} {iname}"] = sres(lambda f=f, x=x: f(x))
    out["linspace"] = sres(lambda: k.linspace(inputs["f32 (None, 5)"], 3.0, 4))
    out["linspace axis -1"] = sres(lambda: k.linspace(0.0, inputs["f64 (2, None, 3)"], 4, axis=-1))
    out["logspace"] = sres(lambda: k.logspace(inputs["f16 (3, 4)"], 3.0, 5, endpoint=False))
    out["geomspace"] = sres(lambda: k.geomspace(1.0, inputs["f16 (3, 4)"], 3))
    out["bincount minlength"] = sres(lambda: k.bincount(inputs["i8 (6,)"], minlength=9))
    out["bincount weights"] = sres(lambda: k.bincount(inputs["u8 (5,)"], weights=kt((5,), "float16")))
    out["batchnorm"] = sres(lambda: k.batch_normalization(kt((2, 3, 4), "float16"), kt((4,), "float16"),
                                                          kt((4,), "float16"), -1))
    return out


program("q-spec", _spec)


# -- 7. inside a Keras model's call -----------------------------------------------------------------------------------
def _model(tf: Any) -> Any:
    keras = tf.keras
    k = keras.ops
    out: dict[str, Any] = {}

    def chain(x: Any) -> Any:
        a = k.logaddexp2(x, k.flip(x, axis=-1))
        b = k.hypot(x, k.deg2rad(x))
        c = k.cdist(x, x * 0.5)
        e = k.round(k.rad2deg(x), 2)
        f = k.normalize(x, order=1) + k.sinc(x)
        g = k.log_softmax(x) + k.rms_normalization(x)
        h = k.layer_normalization(x, rms_scaling=False) + k.nan_to_num(k.log2(x))
        return k.concatenate([a, b, c, e, f, g, h], axis=-1)

    class Chain(keras.layers.Layer):
        def call(self, x: Any) -> Any:
            return chain(x)

    class Corr(keras.layers.Layer):
        def call(self, x: Any) -> Any:
            return k.corrcoef(x)

    class CorrModel(keras.Model):
        def call(self, x: Any) -> Any:
            return k.corrcoef(x) + k.cdist(x, x)

    x = tf.constant(seeded("q-model-x", (4, 4), -2.0, 2.0), "float32")
    inp = keras.Input((4,), batch_size=4, name="q_in")
    model = keras.Model(inp, Chain(name="q_chain")(inp), name="q_model")
    model.compile(jit_compile=False)
    out["call"] = res(lambda: model(x))
    out["predict"] = res(lambda: tf.constant(model.predict(x, batch_size=4, verbose=0)))
    out["predict batches"] = res(lambda: tf.constant(model.predict(tf.concat([x, x * 3.0], 0), batch_size=4,
                                                                   verbose=0)))
    out["fn"] = res(lambda: tf.function(lambda v: model(v))(x))
    out["fn autograph off"] = res(lambda: tf.function(chain, autograph=False)(x))
    layer = Chain(name="q_chain_h", dtype="float16")
    out["float16 layer"] = res(lambda: layer(tf.cast(x, "float16")))
    layer_m = Chain(name="q_chain_m", dtype="mixed_bfloat16")
    out["mixed_bfloat16 layer"] = res(lambda: layer_m(x))
    out["functional corrcoef"] = res(lambda: keras.Model(inp, Corr(name="q_corr")(inp), name="q_corr_model")(x))
    cm = CorrModel(name="q_corr_sub")
    cm.compile(jit_compile=False)
    out["subclassed corrcoef call"] = res(lambda: cm(x))
    out["subclassed corrcoef predict"] = res(lambda: tf.constant(cm.predict(x, batch_size=4, verbose=0)))
    return out


program("q-model", _model)
