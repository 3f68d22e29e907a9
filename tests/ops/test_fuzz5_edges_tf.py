"""The rules issue 29's fifth campaign of the fuzzers (tests/fuzz3/ seeds 61-63, its extended
catalogue) found wrong, each against real TensorFlow 2.21: the same call on both backends gives
the same dtype and bits, or raises the same exception class; inside a tf.function, at the same
stage (while the graph is built, or when it runs). Atan2's kernel (Eigen's patan2 in packets,
glibc's atan2 in the tail, under DAZ/FTZ), Relu6's scalar tail (subnormals and -0.0 kept),
NextAfter's conversion of non-tensor operands, the shape functions of Range, MatrixDiagV3 and
searchsorted's StridedSlice while a graph is built, allocation errors of huge outputs (Fill,
ScatterNd, DenseBincount), and tf.math's namespace. Needs the `tf` extra.
"""

from __future__ import annotations

from typing import Any, Callable

import numpy as np
import pytest

import edge_compare
import tf_workers

pytestmark = [pytest.mark.tf, tf_workers.tf_or_golden(__file__)]
clause = pytest.mark.clause


def _sig(body: str, shape: Any, dtype: str, arg: Any) -> Callable[[Any], Any]:
    """`lambda x: <body>` as a tf.function with input_signature [TensorSpec(shape, dtype)]: the
    name of the error get_concrete_function raises ("at trace: ValueError"), else its call on
    `arg`."""
    def run(tf: Any) -> Any:
        f = tf.function(eval(f"lambda x: {body}", {"tf": tf, "np": np}),  # noqa: S307 - our text
                        input_signature=[tf.TensorSpec(shape, getattr(tf, dtype))])
        try:
            f.get_concrete_function()
        except Exception as e:  # noqa: BLE001 - the class is the result
            return f"at trace: {type(e).__name__}"
        return f(tf.constant(arg, getattr(tf, dtype)))
    return run


def _sigs(body: str, shape: Any, dtype: str, arg: Any) -> Callable[[Any], Any]:
    """_sig, but the call's result is kept only as its class name, shape and dtype (values of a traced
    call are compared by the other cases)."""
    def run(tf: Any) -> Any:
        out = _sig(body, shape, dtype, arg)(tf)
        return out if isinstance(out, str) else (out.dtype.name, tuple(out.shape))
    return run


def _atan2_rows(dtype: str, n: int, seed: int) -> Callable[[Any], Any]:
    """atan2 of seeded rows of `n` elements (packets and a tail) drawn from an edge pool: zeros of
    both signs, subnormals, ones, infinities, NaN, tiny and huge normals."""
    sub = 1e-40 if dtype == "float32" else 5e-324
    tiny = 1e-38 if dtype == "float32" else 1e-307
    pool = np.array([0.0, -0.0, sub, -sub, 3 * sub, 1.0, -1.0, 2.5, -7.25, np.inf, -np.inf, np.nan, tiny, -tiny,
                     1e30, 0.1, 100.0], dtype)
    rng = np.random.default_rng(seed)
    y, x = pool[rng.integers(0, pool.size, n)], pool[rng.integers(0, pool.size, n)]
    return lambda tf: tf.math.atan2(tf.constant(y), tf.constant(x))


def _atan2_broadcast(tf: Any) -> Any:
    y = tf.constant([[0.0], [1e-40], [-0.0]], tf.float32)
    x = tf.constant([1e-40, -0.0, 1e-40, 1.0, -1e-40, 2.0, 0.0, -3.0, 1e-40], tf.float32)
    return tf.math.atan2(y, x)


CASES: list[tuple[str, str, Callable[[Any], Any]]] = [
    # -- Atan2's kernel: patan2 in packets, glibc's atan2 in the tail (seed 61 #25, fz3_known's float64 class)
    *[(f"atan2-{dt}-{n}-{s}", "ops.eigen-kernels", _atan2_rows(dt, n, s))
      for dt in ("float32", "float64") for n, s in ((8, 1), (8, 2), (16, 3), (3, 4), (11, 5), (5, 6), (40, 7))],
    ("atan2-broadcast", "ops.eigen-kernels", _atan2_broadcast),
    ("atan2-nan-beside-subnormal-tail", "ops.eigen-kernels",
     lambda tf: tf.math.atan2(np.array([1 / 3, float("nan"), 1e-40], np.float64), tf.constant([5e-324, 5e-324, float("nan")],
                                                                                           tf.float64))),
    ("atan2-nan-beside-subnormal-tail-float32", "ops.eigen-kernels",
     lambda tf: tf.math.atan2(tf.constant([float("nan"), 1e-40, 2.0]), tf.constant([1e-40, float("nan"), 1e-40]))),
    ("atan2-half", "ops.eigen-kernels",
     lambda tf: tf.math.atan2(tf.constant([1.0, -0.0, 6e-8, 2.5], tf.float16), tf.constant([1.0, -1.0, 6e-8, 0.0],
                                                                                             tf.float16))),
    # -- shape functions while a graph is built (seed 61 #247, #285, #294)
    ("range-delta-zero-traced", "function.trace-time-errors", _sig("tf.range(1, 3, 0)", [], "int16", 3)),
    ("range-delta-zero-eager", "function.trace-time-errors", lambda tf: tf.range(1, 3, 0)),
    ("diag-scalar-traced", "function.trace-time-errors", _sig("tf.linalg.diag(x, k=-2)", [], "int16", 4)),
    ("diag-unknown-rank-traced", "function.trace-time-errors", _sig("tf.linalg.diag(x, k=-2)", None, "int16", 4)),
    ("diag-scalar-eager", "function.trace-time-errors", lambda tf: tf.linalg.diag(tf.constant(4, tf.int16), k=-2)),
    ("searchsorted-scalar-values-traced", "function.trace-time-errors",
     _sig("tf.searchsorted(tf.constant([float('inf')]), x)", [], "float32", 2.0)),
    ("searchsorted-scalar-sequence-traced", "function.trace-time-errors",
     _sig("tf.searchsorted(x, [1.0])", [], "float32", 2.0)),
    ("searchsorted-unknown-rank-traced", "function.trace-time-errors",
     _sig("tf.searchsorted(tf.constant([1.0]), x)", None, "float32", 2.0)),
    ("searchsorted-scalar-eager", "function.trace-time-errors",
     lambda tf: tf.searchsorted(tf.constant([1.0]), tf.constant(2.0))),
    # -- outputs too large to allocate (seed 61 #234, seed 62 #100, seed 63 #56)
    ("confusion-matrix-huge-label", "ops.argument-errors",
     lambda tf: tf.math.confusion_matrix(np.array([4611686018427387904], np.int64), [0])),
    ("confusion-matrix-2-40", "ops.argument-errors",
     lambda tf: tf.math.confusion_matrix(np.array([2**40], np.int64), [0])),
    ("confusion-matrix-oom", "ops.argument-errors",
     lambda tf: tf.math.confusion_matrix(np.array([2**31 + 5], np.int64), [0])),
    ("zeros-too-many-elements", "ops.argument-errors", lambda tf: tf.zeros([2**40, 2**40])),
    ("ones-too-many-elements", "ops.argument-errors", lambda tf: tf.ones([2**62, 4])),
    ("zeros-oom", "ops.argument-errors", lambda tf: tf.zeros([2**31, 2**31])),
    ("fill-oom", "ops.argument-errors", lambda tf: tf.fill([2**31, 2**31], 1)),
    ("bincount-oom-before-negative-check", "ops.argument-errors",
     lambda tf: tf.math.bincount(np.array([4611686018427387904, 1, -1], np.int64), minlength=5)),
    ("bincount-oom-rank-2", "ops.argument-errors",
     lambda tf: tf.math.bincount(np.array([[2**40, 1], [2, 3]], np.int64), axis=-1)),
    ("bincount-oom-minlength", "ops.argument-errors",
     lambda tf: tf.math.bincount(np.array([3, 1], np.int64), minlength=2**40)),
    ("bincount-maxlength-caps", "ops.argument-errors",
     lambda tf: tf.math.bincount(np.array([2**62, 1], np.int64), maxlength=10)),
    # -- categorical samplers: dtype int32/int64 only (ValueError), float logits only (NotFoundError); ext seed 61 #39, #49
    ("stateless-categorical-int16-dtype", "ops.argument-errors",
     lambda tf: tf.random.stateless_categorical(tf.constant([[0.5, 1.0]]), 1, seed=[1, 2], dtype=tf.int16)),
    ("stateless-categorical-int16-dtype-traced", "ops.argument-errors",
     _sigs("tf.random.stateless_categorical(x, 1, seed=[1, 2], dtype=tf.int16)", [1, 2], "float32", [[0.5, 1.0]])),
    ("stateless-categorical-uint16-logits", "ops.argument-errors",
     lambda tf: tf.random.stateless_categorical(np.array([[1, 7]], np.uint16), 1, seed=[1, 2])),
    ("categorical-int16-dtype", "ops.argument-errors",
     lambda tf: tf.random.categorical(tf.constant([[0.5, 1.0]]), 2, seed=3, dtype=tf.int16)),
    ("categorical-int-logits", "ops.argument-errors", lambda tf: tf.random.categorical(np.array([[1, 2]]), 2, seed=3)),
    # -- tf.math has no `complex` in TF 2.21 (tf.complex only; ext seed 61 #48)
    ("math-complex-missing", "ops.argument-errors",
     lambda tf: tf.math.complex(tf.constant(0.0, tf.float64), tf.constant(1.0, tf.float64))),
    ("complex-exists", "ops.argument-errors",
     lambda tf: tf.complex(tf.constant(0.0, tf.float64), tf.constant(1.0, tf.float64))),
]

def _relu6_rows(dtype: str, n: int, seed: int) -> Callable[[Any], Any]:
    """relu6 of a seeded row of `n` elements holding subnormals of both signs, -0.0, NaN and 6."""
    sub = {"float32": 1e-40, "float64": 5e-324, "bfloat16": 1e-40, "float16": 6e-8}[dtype]
    pool = [sub, -sub, -0.0, 0.0, 6.0, 7.0, -1.0, 0.5, float("nan"), 3 * sub]
    rng = np.random.default_rng(seed)
    row = [pool[k] for k in rng.integers(0, len(pool), n)]
    return lambda tf: tf.nn.relu6(tf.constant(row, getattr(tf, dtype)))


def _relu6_grad(tf: Any) -> Any:
    x = tf.Variable(tf.constant([5e-324, -5e-324, 3.0, 5e-324, 1.0, 0.0], tf.float64))
    with tf.GradientTape() as tape:
        y = tf.nn.relu6(x)
    return y, tape.gradient(y, x)


def _nextafter_numpy(x1: Any, x2: Any) -> Callable[[Any], Any]:
    """tf.math.nextafter of non-tensor operands, after a first call (TF's first call in a process
    takes the slow path, which keeps NumPy's float64)."""
    def run(tf: Any) -> Any:
        tf.math.nextafter(np.array([1.0]), np.array([2.0]))
        return tf.math.nextafter(x1, x2)
    return run


RELU6_NEXTAFTER: list[tuple[str, str, Callable[[Any], Any]]] = [
    # -- Relu6's scalar tail keeps subnormals and -0.0, its packets give +0.0 (seed 62 #191, #240; fz3_known's
    #    float64 class from seed 53 #57)
    *[(f"relu6-{dt}-{n}-{s}", "ops.subnormals", _relu6_rows(dt, n, s))
      for dt in ("float32", "float64", "bfloat16", "float16") for n, s in ((1, 1), (3, 2), (6, 3), (8, 4), (13, 5))],
    ("relu6-gradient-tail", "ops.subnormals", _relu6_grad),
    ("relu-bfloat16-negative-zero", "ops.subnormals", lambda tf: tf.nn.relu(tf.constant([-0.0, 1e-40, -1e-40],
                                                                                       tf.bfloat16))),
    # -- NextAfter's fast path converts non-tensors to its default T, float32 (seed 62 #29)
    ("nextafter-numpy-float64", "ops.conversion",
     _nextafter_numpy(np.array([[-0.001, -np.inf], [-2.0, -0.0]]), np.array([[-np.inf, 3.0], [-1.0, np.inf]]))),
    ("nextafter-numpy-huge", "ops.conversion", _nextafter_numpy(np.array([1e300]), np.array([2.0]))),
    ("nextafter-numpy-int", "ops.conversion", _nextafter_numpy(np.array([1, 2]), np.array([2.0, 1.0]))),
    ("nextafter-list-and-numpy", "ops.conversion", _nextafter_numpy([1.5], np.array([2.0]))),
    ("nextafter-numpy-scalars", "ops.conversion", _nextafter_numpy(np.float64(1.5), np.float64(2.0))),
    ("nextafter-tensor-keeps-float64", "ops.conversion",
     lambda tf: tf.math.nextafter(tf.constant([1.5], tf.float64), np.array([2.0]))),
    ("nextafter-traced-keeps-float64", "ops.conversion",
     lambda tf: tf.function(lambda: tf.math.nextafter(np.array([1.5]), np.array([2.0])))()),
]
CASES += RELU6_NEXTAFTER


MORE: list[tuple[str, str, Callable[[Any], Any]]] = [
    # -- float32 Xlogy of a subnormal y in the scalar tail: glibc's logf under DAZ (seed 63 #291, #133)
    *[(f"xlogy-subnormal-{n}", "ops.subnormals",
       lambda tf, n=n: tf.math.xlogy(tf.constant([-0.001, 2.5, 1e10, -2.0, 0.0, 1e-40, 3.0, -1.0, 1.0, 2.0, 0.5][:n]),
                                     tf.constant([1e-40, -0.0, 3.0, 6e-8, 1e-40, 1e-40, -1e-40, 2e-39, 1e-40, 1e-40,
                                                  -1e-40][:n]))) for n in (1, 4, 8, 11)],
    ("xlogy-subnormal-float64", "ops.subnormals",
     lambda tf: tf.math.xlogy(tf.constant([-0.001, 2.5, 1e10], tf.float64), tf.constant([5e-324, 1.0, -5e-324],
                                                                                        tf.float64))),
    # -- confusion_matrix squeezes a last dimension of 1 (remove_squeezable_dimensions; seed 63 #13)
    ("confusion-matrix-squeeze-labels", "ops.argument-errors",
     lambda tf: tf.math.confusion_matrix(tf.constant([[0], [4], [2]]), [2, 0, 1], 5)),
    ("confusion-matrix-squeeze-predictions", "ops.argument-errors",
     lambda tf: tf.math.confusion_matrix([2, 0, 1], tf.constant([[0], [3], [2]]), 5)),
    ("confusion-matrix-no-squeeze", "ops.argument-errors",
     lambda tf: tf.math.confusion_matrix(tf.constant([[0, 1], [4, 1], [2, 2]]), [2, 0, 1], 5)),
    ("confusion-matrix-squeeze-traced", "function.trace-time-errors",
     _sigs("tf.math.confusion_matrix(x, [2, 0, 1], 5)", [None, 1], "int32", [[0], [4], [2]])),
    ("confusion-matrix-squeeze-traced-negative", "function.trace-time-errors",
     _sigs("tf.math.confusion_matrix(x, [2, 0, 1], 5)", [None, 1], "int32", [[0], [4], [-2]])),
    # -- Pack of an unknown-rank value (seed 63 #130) and Cross with unknown dimensions (seed 63 #204)
    *[(f"stack-unknown-rank-axis-{ax}", "function.trace-time-errors",
       _sigs(f"tf.stack([x, np.array([[2.5, 1.0, 0.3, 0.0]], np.float32)], axis={ax})", None, "float32",
             [[1.0, 2.0, 3.0, 4.0]])) for ax in (1, 0, 2, 3, -1)],
    ("cross-unknown-dimension-traced", "function.trace-time-errors",
     _sigs("tf.linalg.cross(x, np.array([[[1e10]]], np.float32))", [4, None, 0], "float32", np.zeros([4, 2, 0]))),
    ("cross-unknown-dimension-3-traced", "function.trace-time-errors",
     _sigs("tf.linalg.cross(x, np.array([[[1e10, 1, 2]]], np.float32))", [4, None, 3], "float32", np.zeros([4, 2, 3]))),
    # -- softmax_cross_entropy_with_logits: _move_dim_to_end's errors come first (seed 63 #3, ext seed 61 #69)
    *[(f"xent-axis-{ax}-labels-{lab}-{where}", "function.trace-time-errors",
       _sigs(f"tf.nn.softmax_cross_entropy_with_logits(labels=tf.constant({lab}, tf.float64), logits=x, axis={ax})",
             sig, "float64", [[0.0, 1.0]]) if where == "traced" else
       (lambda tf, ax=ax, lab=lab: tf.nn.softmax_cross_entropy_with_logits(
           labels=tf.constant(lab, tf.float64), logits=tf.constant([[0.0, 1.0]], tf.float64), axis=ax)))
      for ax, lab, sig in ((3, 0.75, [1, None]), (0, 0.25, [1, None]), (-3, 0.5, [None, None]),
                           (0, [[0.5, 0.5]], [1, 2]), (1, [[0.5, 0.5]], [1, 2]))
      for where in ("traced", "eager")],
]
CASES += MORE


def _not_of(name: str) -> Callable[[Any], Any]:
    """logical_not(comparison) inside a tf.function (the comparison used by nothing else), on NaN."""
    def run(tf: Any) -> Any:
        a, b = tf.constant([1.0, np.nan, 3.0, 2.0]), tf.constant([2.0, 1.0, np.nan, 2.0])
        return tf.function(lambda x, y: tf.logical_not(getattr(tf.math, name)(x, y)))(a, b)
    return run


GRAPPLER: list[tuple[str, str, Callable[[Any], Any]]] = [
    # -- Grappler's RemoveLogicalNotStage (second fuzzer seed 32 #51)
    *[(f"logical-not-of-{name}-traced", "function.grappler-rewrites", _not_of(name))
      for name in ("less", "less_equal", "greater", "greater_equal", "equal", "not_equal")],
    ("logical-not-of-variable-comparison-traced", "function.grappler-rewrites",
     lambda tf: (lambda v: tf.function(lambda: tf.logical_not(v <= 2.0))())(tf.Variable([1.0, np.nan]))),
    ("logical-not-of-constant-comparison-traced", "function.grappler-rewrites",
     lambda tf: tf.function(lambda: tf.logical_not(tf.constant([np.nan]) <= 2.0))()),
]
CASES += GRAPPLER


def _complex_sign_rows(dtype: str, seed: int) -> Callable[[Any], Any]:
    """tf.math.sign of 60 complex numbers whose parts come from an edge pool (zeros of both signs,
    subnormals, values whose square underflows or overflows, infinities, NaN)."""
    pool = [0.0, -0.0, 1.0, -1.0, 1e-160, 3e-154, 1e154, 1e300, 1e308, -1e308, np.inf, -np.inf, np.nan, 1e-40,
            5e-324, 2.5, 1e-300, 1e30, 1e-20, 1e20, 3.0, 1e-38, 1e19]
    rng = np.random.default_rng(seed)
    re, im = (np.array(pool)[rng.integers(0, len(pool), 60)] for _ in range(2))
    z = np.empty(60, dtype)
    with np.errstate(over="ignore"):
        z.real, z.imag = re, im
    return lambda tf: tf.math.sign(tf.constant(z))


COMPLEX: list[tuple[str, str, Callable[[Any], Any]]] = [
    # -- complex Sign: 0 where |z|**2 flushes to zero, else C's complex division z / (|z|, 0) (ext seed 61)
    *[(f"complex-sign-{dt}-{s}", "ops.complex", _complex_sign_rows(dt, s))
      for dt in ("complex64", "complex128") for s in (1, 2, 3)],
]


def _complex_pair_rows(fn: str, dtype: str, n: int, seed: int) -> Callable[[Any], Any]:
    """tf.math.<fn> of two rows of `n` complex numbers (packets and a tail) from an edge pool."""
    pool = [0.0, -0.0, 1.0, -1.0, 1e-160, 1e154, 1e300, -1e308, np.inf, -np.inf, np.nan, 1e-40, 5e-324, 2.5, 1e30,
            1e20, 3.0, -7.25, 1e-38]
    rng = np.random.default_rng(seed)
    z = [np.empty(n, dtype) for _ in range(2)]
    with np.errstate(all="ignore"):
        for w in z:
            w.real, w.imag = (np.array(pool)[rng.integers(0, len(pool), n)] for _ in range(2))
    return lambda tf: getattr(tf.math, fn)(tf.constant(z[0]), tf.constant(z[1]))


def _complex_mul_rows(dtype: str, n: int, seed: int) -> Callable[[Any], Any]:
    return _complex_pair_rows("multiply", dtype, n, seed)


COMPLEX += [
    # -- complex Mul: textbook product in packets, Annex G's recovery in the tail, DAZ/FTZ (ext seed 61 #1, #20, #130)
    *[(f"complex-mul-{dt}-{n}-{s}", "ops.complex", _complex_mul_rows(dt, n, s))
      for dt in ("complex64", "complex128") for n, s in ((3, 1), (7, 2), (90, 3))],
    *[(f"complex-squared-difference-{dt}-{n}", "ops.complex", _complex_pair_rows("squared_difference", dt, n, 9))
      for dt in ("complex64", "complex128") for n in (3, 40)],
    ("complex-mul-scalar-broadcast", "ops.complex",
     lambda tf: tf.math.multiply(tf.constant([complex(6e-8, 0)] * 5 + [complex(1e-40, -0.0)] * 4, tf.complex64),
                                 tf.constant(complex(np.inf, -np.inf), tf.complex64))),
]


def _complex_abs_rows(dtype: str, seed: int) -> Callable[[Any], Any]:
    """tf.math.abs of 60 complex numbers with subnormal, tiny and huge parts."""
    pool = [0.0, -0.0, 1.0, -1.0, 1e-160, 3e-154, 1e154, 1e300, 1e308, np.inf, -np.inf, np.nan, 1e-40, 5e-324, 2.5,
            1e-300, 1e30, 1e-38, 1e-310]
    rng = np.random.default_rng(seed)
    z = np.empty(60, dtype)
    with np.errstate(all="ignore"):
        z.real, z.imag = (np.array(pool)[rng.integers(0, len(pool), 60)] for _ in range(2))
    return lambda tf: tf.math.abs(tf.constant(z))


COMPLEX += [
    # -- Complex packs the parts' bits, subnormals kept (ext seed 61 #57, #173)
    ("complex-keeps-subnormal-parts", "ops.complex",
     lambda tf: tf.complex(tf.constant([5e-324, 1.0, -5e-324, 2.0, 0.0], tf.float64),
                           tf.constant([1e-310, 5e-324, 3.0, -1e-310, 5e-324], tf.float64))),
    ("complex64-keeps-subnormal-parts", "ops.complex",
     lambda tf: tf.complex(tf.constant([1e-40, 1.0, -0.0, 2.0, 0.0], tf.float32),
                           tf.constant([1e-40, 0.0, 2.0, 3.0, 1e-41], tf.float32))),
    ("complex-parts-of-subnormals", "ops.complex",
     lambda tf: (lambda z: (tf.math.real(z), tf.math.imag(z), tf.math.conj(z)))(
         tf.complex(tf.constant([5e-324, -5e-324], tf.float64), tf.constant([1e-310, 3.0], tf.float64)))),
    ("real-imag-of-a-scalar", "ops.complex",
     lambda tf: (lambda z: (tf.math.real(z), tf.math.imag(z)))(tf.constant(complex(1e-40, -2.0), tf.complex128))),
    ("real-of-a-scalar-traced", "ops.complex",
     lambda tf: tf.function(lambda z: tf.math.real(z), input_signature=[tf.TensorSpec([], tf.complex128)])(
         tf.constant(complex(-2.0, 1.0), tf.complex128))),
    # -- Bitcast takes complex64/complex128 (ext seed 61 #121, 62 #239)
    ("bitcast-int64-to-complex64", "ops.complex",
     lambda tf: tf.bitcast(tf.constant([-9223372036854775807, 3], tf.int64), tf.complex64)),
    ("bitcast-int64-scalar-to-complex64", "ops.complex", lambda tf: tf.bitcast(tf.constant(3, tf.int64), tf.complex64)),
    ("bitcast-complex128-to-float64", "ops.complex",
     lambda tf: tf.bitcast(tf.constant([complex(1.5, -2.0)], tf.complex128), tf.float64)),
    ("bitcast-complex64-to-uint8", "ops.complex",
     lambda tf: tf.bitcast(tf.constant([complex(1.5, -2.0)], tf.complex64), tf.uint8)),
    ("bitcast-float64-pair-to-complex128", "ops.complex",
     lambda tf: tf.bitcast(tf.constant([[1.0, 2.0]], tf.float64), tf.complex128)),
    ("bitcast-float32-to-complex128-refused", "ops.complex",
     lambda tf: tf.bitcast(tf.constant([1.0, 2.0], tf.float32), tf.complex128)),
    # -- ComplexAbs reads the parts under DAZ (ext seed 61 #55)
    *[(f"complex-abs-{dt}-{s}", "ops.complex", _complex_abs_rows(dt, s)) for dt in ("complex64", "complex128")
      for s in (1, 2)],
]
CASES += COMPLEX

def _parts_agree(got: np.ndarray, want: np.ndarray) -> np.ndarray:
    """bits_agree of the real and of the imaginary parts (a NaN part matches any NaN part)."""
    if got.dtype.kind != "c":
        return edge_compare.bits_agree(got, want)
    return (edge_compare.bits_agree(got.real.copy(), want.real.copy())
            & edge_compare.bits_agree(got.imag.copy(), want.imag.copy()))


EDGES = edge_compare.EdgeModule(__file__, CASES, agree=lambda case: _parts_agree)


@pytest.fixture(scope="module")
def tf_results() -> dict[int, Any]:
    return EDGES.tf_answers()


@clause("ops.eigen-kernels")
@EDGES.parametrize("ops.eigen-kernels")
def test_atan2_kernel(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


@clause("function.trace-time-errors")
@EDGES.parametrize("function.trace-time-errors")
def test_shape_functions_at_trace(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


@clause("ops.subnormals")
@EDGES.parametrize("ops.subnormals")
def test_subnormal_tails(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


@clause("ops.conversion")
@EDGES.parametrize("ops.conversion")
def test_nextafter_operands(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


@clause("function.grappler-rewrites")
@EDGES.parametrize("function.grappler-rewrites")
def test_logical_not_rewrite(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


@clause("ops.complex")
@EDGES.parametrize("ops.complex")
def test_complex_kernels(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


@clause("ops.argument-errors")
@EDGES.parametrize("ops.argument-errors")
def test_allocation_errors_and_namespace(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


if __name__ == "__main__":  # TF worker: python test_fuzz5_edges_tf.py 0,1,2 -> pickled results on stdout
    tf_workers.serve(EDGES.tf_worker)
