"""The complex kernels issue 29's sixth fuzzer campaign (fz6: tests/fuzz3 seeds 71-73 with its
extended catalogue) found wrong, each against real TensorFlow 2.21, compared bit for bit part by
part (a NaN part matches any NaN part): complex division (RealDiv, DivNoNan, Reciprocal, the mean's
final division) as Eigen's pdiv_complex in SIMD packets and libgcc's __divsc3/__divdc3 in the scalar
tail, under DAZ/FTZ; the elementwise complex functions (complex_unary.py: Eigen's complex_sqrt,
complex_rsqrt, complex_log and plog_complex, expm1/log1p/logistic for complex, glibc's cexp, csin, ...)
and Square (Mul's product). Needs the `tf` extra.
"""

from __future__ import annotations

from typing import Any, Callable

import numpy as np
import pytest

import edge_compare
import portable_inputs
import tf_workers

pytestmark = [pytest.mark.tf, tf_workers.tf_or_golden(__file__)]
clause = pytest.mark.clause

_POOL = [0.0, -0.0, 1.5, -2.0, 3.0, 0.1, -7.25, np.inf, -np.inf, np.nan, 1e-40, -1e-40, 5e-324, 1e-310, 1e30, 3e38,
         1e308, -1e308, 1e-30, 1e-300, 1e154, 1e-160, 2.0 ** 60, 1e10]


def _rows(dtype: str, n: int, seed: int, k: int = 2, subnormals: bool = True) -> list[np.ndarray]:
    """k rows of n complex numbers whose parts are drawn from an edge pool (zeros of both signs,
    subnormals unless told not to, infinities, NaN, tiny and huge normals) or are standard normals
    times 2**e."""
    rng = np.random.default_rng(seed)
    pool = np.array([v for v in _POOL if subnormals or not 0 < abs(v) < 1e-38])
    rows = []
    for _ in range(k):
        z = np.empty(n, dtype)
        with np.errstate(all="ignore"):
            parts = [np.where(rng.random(n) < 0.6, pool[rng.integers(0, len(pool), n)],
                              rng.standard_normal(n) * portable_inputs.pow2(rng.integers(-20, 20, n))) for _ in range(2)]
            z.real, z.imag = parts
        rows.append(z)
    return rows


def _binary(fn: str, dtype: str, n: int, seed: int) -> Callable[[Any], Any]:
    x, y = _rows(dtype, n, seed)
    return lambda tf: getattr(tf.math, fn)(tf.constant(x), tf.constant(y))


def _unary(fn: str, dtype: str, n: int, seed: int, subnormals: bool = True) -> Callable[[Any], Any]:
    (x,) = _rows(dtype, n, seed, 1, subnormals)
    return lambda tf: getattr(tf.math, fn)(tf.constant(x))


def _each(fn: str, dtype: str, n: int, seed: int) -> Callable[[Any], Any]:
    """fn of each element alone (one-element tensors: the scalar tail only)."""
    x, y = _rows(dtype, n, seed)
    return lambda tf: [getattr(tf.math, fn)(tf.constant(x[i:i + 1]), tf.constant(y[i:i + 1])) for i in range(n)]


_DT = ("complex64", "complex128")
DIVISION: list[tuple[str, str, Callable[[Any], Any]]] = [
    *[(f"truediv-{dt}-{n}-{s}", "ops.complex", _binary("truediv", dt, n, s))
      for dt in _DT for n, s in ((3, 1), (7, 2), (101, 3))],
    *[(f"truediv-tail-{dt}", "ops.complex", _each("truediv", dt, 60, 4)) for dt in _DT],
    *[(f"divide-no-nan-{dt}-{n}", "ops.complex", _binary("divide_no_nan", dt, n, 5)) for dt in _DT for n in (5, 40)],
    *[(f"reciprocal-{dt}", "ops.complex", _unary("reciprocal", dt, 41, 6)) for dt in _DT],
    ("divide-no-nan-scalar-divisor", "ops.complex",
     lambda tf: tf.math.divide_no_nan(tf.constant([complex(np.inf, 1.0), complex(1.0, 2.0), complex(3.0, 0.0)],
                                                  tf.complex64), tf.constant(complex(0.0, 1e-40), tf.complex64))),
    ("divide-no-nan-subnormal-divisor", "ops.complex",
     lambda tf: tf.math.divide_no_nan(tf.constant([complex(2.0, 1.0)] * 5, tf.complex64),
                                      tf.constant([complex(1e-40, 0.0), complex(0.0, -1e-41), complex(1e-40, 1.0),
                                                   complex(-0.0, 0.0), complex(1.0, 0.0)], tf.complex64))),
    *[(f"reduce-mean-{dt}-{s}", "ops.complex",
       (lambda x: lambda tf: (tf.math.reduce_mean(tf.constant(x)), tf.math.reduce_mean(tf.constant(x.reshape(4, 5)), 1),
                              tf.math.reduce_mean(tf.constant(x.reshape(4, 5)), 0)))(_rows(dt, 20, s, 1)[0]))
      for dt in _DT for s in (7, 8)],
]
CASES = DIVISION

_UNARY = ("sqrt", "rsqrt", "log", "exp", "expm1", "log1p", "sigmoid", "square", "sin", "cos", "tan", "tanh", "sinh",
          "cosh", "asin", "acos", "atan", "asinh", "acosh", "atanh")
# glibc's csin, ..., catanh return a subnormal part unchanged where DAZ classifies it as zero, which
# simdist flushes (not modelled): their rows hold no subnormal parts
_GLIBC = frozenset(_UNARY[8:])
UNARY: list[tuple[str, str, Callable[[Any], Any]]] = [
    # -- Eigen's complex_sqrt/rsqrt/log/expm1/log1p/logistic, glibc's cexp/csin/..., under DAZ/FTZ; Log's packets
    *[(f"{fn}-{dt}-{n}", "ops.complex", _unary(fn, dt, n, 20 + i, fn not in _GLIBC)) for i, fn in enumerate(_UNARY)
      for dt in _DT for n in (3, 24)],
    ("log-packets-huge-and-tiny", "ops.complex",
     lambda tf: tf.math.log(tf.constant(np.array([complex(0, 3e38), complex(3e38, 0), complex(0, 1e-30),
                                                  complex(0, 1e-40), complex(1e-40, 1e-40), complex(3.0, 0.5),
                                                  complex(np.inf, np.inf), complex(-0.0, 1e-40)], np.complex64)))),
    ("sqrt-negative-zero-imag", "ops.complex",
     lambda tf: tf.math.sqrt(tf.constant([complex(-2.0, -0.0)] * 3, tf.complex128))),
    ("atan2-subnormal-y-negative-x", "ops.complex",
     lambda tf: tf.math.atan2(tf.constant([1e-310, -1e-310, 5e-324], tf.float64), tf.constant([-2.0, -2.0, -1e300],
                                                                                              tf.float64))),
]
CASES = CASES + UNARY


def _reductions(dtype: str, seed: int) -> Callable[[Any], Any]:
    (x,) = _rows(dtype, 37, seed, 1)
    return lambda tf: (tf.math.reduce_prod(tf.constant(x)), tf.math.reduce_prod(tf.constant(x.reshape(37, 1)), 0),
                       tf.math.reduce_prod(tf.constant(x[:3])), tf.math.reduce_sum(tf.constant(x)),
                       tf.math.reduce_mean(tf.constant(x[:1].reshape(()))), tf.math.reduce_mean(tf.constant(x[:5])))


REDUCE_ADD: list[tuple[str, str, Callable[[Any], Any]]] = [
    # -- complex Add/Sub part by part under DAZ/FTZ; Prod: packets' products textbook, scalar steps Annex G,
    #    one element per output copied; the mean of nothing is 0
    *[(f"add-{dt}-{s}", "ops.complex", _binary("add", dt, 37, 100 + s)) for dt in _DT for s in (0, 1)],
    *[(f"subtract-{dt}-{s}", "ops.complex", _binary("subtract", dt, 37, 102 + s)) for dt in _DT for s in (0, 1)],
    *[(f"reductions-{dt}-{s}", "ops.complex", _reductions(dt, 110 + s)) for dt in _DT for s in range(3)],
    ("reduce-mean-of-nothing", "ops.complex",
     lambda tf: (tf.math.reduce_mean(tf.zeros([1, 1, 0], tf.complex64), keepdims=True),
                 tf.math.reduce_mean(tf.zeros([2, 0], tf.complex128), 1))),
]
CASES = CASES + REDUCE_ADD

BINARY: list[tuple[str, str, Callable[[Any], Any]]] = [
    # -- Pow: glibc's cpow on every element; xlogy/xdivy/xlog1py: Log's/Div's kernels and the product
    *[(f"pow-{dt}-{n}-{s}", "ops.complex", _binary("pow", dt, n, 130 + s)) for dt in _DT for n, s in ((3, 0), (24, 1))],
    *[(f"{fn}-{dt}-{n}", "ops.complex", _binary(fn, dt, n, 140 + i)) for i, fn in enumerate(("xlogy", "xdivy", "xlog1py"))
      for dt in _DT for n in (3, 24)],
]
CASES = CASES + BINARY


def _grad(fn: str, dtype: str, seed: int) -> Callable[[Any], Any]:
    """The gradient of sum(re(fn(v)) + im(fn(v))) for a complex Variable v of 6 modest values."""
    rng = np.random.default_rng(seed)
    z = np.empty(6, dtype)
    z.real, z.imag = rng.standard_normal(6) * 0.6, rng.standard_normal(6) * 0.6

    def run(tf: Any) -> Any:
        v = tf.Variable(z)
        with tf.GradientTape() as tape:
            y = getattr(tf.math, fn)(v)
            loss = tf.reduce_sum(tf.math.real(y) + tf.math.imag(y))
        return tape.gradient(loss, v)
    return run


GRADIENTS: list[tuple[str, str, Callable[[Any], Any]]] = [
    # -- math_grad.py conjugates the input (or output) of the inverse functions' gradients (fz6 ext seed 72 #155)
    *[(f"grad-{fn}-{dt}", "ops.complex", _grad(fn, dt, 160 + i))
      for i, fn in enumerate(("atan", "asin", "acos", "asinh", "acosh", "atanh")) for dt in _DT],
]
CASES = CASES + GRADIENTS


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


@clause("ops.complex")
@EDGES.parametrize("ops.complex")
def test_complex_kernels(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


if __name__ == "__main__":  # TF worker: python test_fuzz6_complex_tf.py 0,1,2 -> pickled results on stdout
    tf_workers.serve(EDGES.tf_worker)
