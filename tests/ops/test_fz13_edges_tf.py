"""Rules issue 29's fz13 (fourteenth session: the first fuzzer's slow profile re-run, and the open
classes of tests/fuzz3/fz3_known.py and tests/fuzz4/fz4_known.py) found wrong, each against real
TensorFlow 2.21: the same calls on both backends give the same dtypes and bits (a NaN matches any
NaN), or raise the same exception class. Needs the `tf` extra.
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

_S32, _S64 = 1e-40, 1e-310     # subnormal float32 / float64
_EXPONENTS = [0.5, -0.5, -1.0, 0.25, -0.1, 1.0, 3.0, -3.0, 2.0, 0.01, -0.01, 0.0, np.inf, -np.inf, np.nan]


def _pow_pairs(dtype: str) -> tuple[np.ndarray, np.ndarray]:
    """Operand pairs of Pow holding subnormals: a subnormal exponent beside zeros, infinities, NaN,
    negative and positive bases; a subnormal base (both signs) under every exponent of _EXPONENTS."""
    s = _S32 if dtype == "float32" else _S64
    xs = [0.0, -0.0, 0.0, -0.0, np.inf, -np.inf, np.nan, -2.0, 2.0, 0.5, 1.0, -1.0, s, -s, s]
    ys = [s, -s, -s, s, s, -s, s, s, -s, s, s, s, s, -s, -s]
    for sign in (1.0, -1.0):
        xs += [sign * s] * len(_EXPONENTS)
        ys += _EXPONENTS
    return np.array(xs, dtype), np.array(ys, dtype)


def _pow_elementwise(dtype: str, lanes: int) -> Callable[[Any], Any]:
    """Each pair as its own Pow of one element (the C library's tail), stacked, and as one Pow of
    the pairs each repeated `lanes` times (Eigen's packets, whose lanes read subnormals as zeros)."""
    def run(tf: Any) -> Any:
        x, y = _pow_pairs(dtype)
        one = tf.stack([tf.pow(tf.constant(a), tf.constant(b)) for a, b in zip(x, y)])
        packed = tf.pow(tf.constant(np.repeat(x, lanes)), tf.constant(np.repeat(y, lanes)))
        return one, packed
    return run


def _pow_tails(dtype: str) -> Callable[[Any], Any]:
    """Pows of n = 1..11 elements (every split into packets and a scalar tail) of one pattern."""
    def run(tf: Any) -> Any:
        x, y = _pow_pairs(dtype)
        return tuple(tf.pow(tf.constant(x[3:3 + n]), tf.constant(y[3:3 + n])) for n in range(1, 12))
    return run


def _pow_broadcast(dtype: str) -> Callable[[Any], Any]:
    """A subnormal scalar exponent and a subnormal scalar base beside vectors of 10 (broadcast: the
    tail is the result's last elements)."""
    def run(tf: Any) -> Any:
        s = _S32 if dtype == "float32" else _S64
        v = tf.constant(np.array([0.0, -0.0, 2.0, -2.0, np.inf, 0.5, -1.0, 0.0, -0.0, 3.0], dtype))
        e = tf.constant(np.array([0.5, -0.5, 2.0, 3.0, -1.0, 0.25, 0.01, -3.0, 1.0, -0.1], dtype))
        return tf.pow(v, tf.constant(s, dtype)), tf.pow(tf.constant(-s, dtype), e), tf.pow(tf.constant(s, dtype), e)
    return run


def _pow_tape(dtype: str) -> Callable[[Any], Any]:
    """pow(0, 1e-40) under a tape (fz12 seed 92 #259's call): the value and both gradients."""
    def run(tf: Any) -> Any:
        s = _S32 if dtype == "float32" else _S64
        x = tf.Variable(np.array([0.0, s, 2.0, 1e-30, -0.0], dtype))
        e = tf.Variable(np.array([s, s, s, 0.0, -s], dtype))
        with tf.GradientTape() as tape:
            y = tf.pow(x, e)
        gx, ge = tape.gradient(y, [x, e])
        return y, gx, ge
    return run


def _pow_traced(dtype: str) -> Callable[[Any], Any]:
    """The tail pairs through a tf.function with arguments (the same kernel, replayed)."""
    def run(tf: Any) -> Any:
        x, y = _pow_pairs(dtype)
        f = tf.function(lambda a, b: tf.pow(a, b))
        return tuple(f(tf.constant(x[k:k + 3]), tf.constant(y[k:k + 3])) for k in range(0, len(x) - 3, 3))
    return run


_CX_PARTS = [0.0, -0.0, 1.5, -2.0, 3.0, 0.1, -7.25, np.inf, -np.inf, np.nan, 1e-40, -1e-40, 1e-310, 1e30, 3e38,
             1e308, 1e-30, 1e-300, 1e-160, 1e10, 1e-20]


def _cx_values(dtype: str, n: int, seed: int) -> np.ndarray:
    rng = np.random.default_rng(seed)
    pool = np.array(_CX_PARTS)
    z = np.empty(n, dtype)
    with np.errstate(all="ignore"):
        parts = [np.where(rng.random(n) < 0.5, pool[rng.integers(0, len(pool), n)],
                          rng.standard_normal(n) * portable_inputs.pow2(rng.integers(-20, 20, n))) for _ in range(2)]
        z.real, z.imag = parts
    return z


def _sign_gradient(dtype: str, seed: int, traced: bool = False) -> Callable[[Any], Any]:
    """tf.math.sign of a complex Variable under a tape, times a complex weight: the value and the
    gradient (TF's complex sign is DivNoNan(x, Cast(ComplexAbs(x))), fz10 ext seed 91 #101)."""
    def run(tf: Any) -> Any:
        z = _cx_values(dtype, 19, seed)
        x = tf.Variable(z)
        w = tf.constant(np.array(2 - 1j, dtype))

        def step() -> Any:
            with tf.GradientTape() as tape:
                y = tf.math.sign(x) * w
            return y, tape.gradient(y, x)
        return tf.function(step)() if traced else step()
    return run


CASES: list[tuple[str, str, Callable[[Any], Any]]] = [
    # -- Pow of subnormals: Eigen's packets read them as zeros, glibc's tail by their bits (fz12 seed 92 #259)
    ("pow-float32-elementwise", "ops.subnormals", _pow_elementwise("float32", 8)),
    ("pow-float64-elementwise", "ops.subnormals", _pow_elementwise("float64", 4)),
    ("pow-float32-tails", "ops.subnormals", _pow_tails("float32")),
    ("pow-float64-tails", "ops.subnormals", _pow_tails("float64")),
    ("pow-float32-broadcast", "ops.subnormals", _pow_broadcast("float32")),
    ("pow-float64-broadcast", "ops.subnormals", _pow_broadcast("float64")),
    ("pow-float32-tape", "ops.subnormals", _pow_tape("float32")),
    ("pow-float64-tape", "ops.subnormals", _pow_tape("float64")),
    ("pow-float32-traced", "ops.subnormals", _pow_traced("float32")),
    ("pow-float64-traced", "ops.subnormals", _pow_traced("float64")),
    # -- complex Sign's gradient, through TF's composite (fz10 ext seed 91 #101)
    ("sign-gradient-complex64", "ops.complex", _sign_gradient("complex64", 1)),
    ("sign-gradient-complex128", "ops.complex", _sign_gradient("complex128", 2)),
    ("sign-gradient-complex64-more", "ops.complex", _sign_gradient("complex64", 3)),
    ("sign-gradient-complex128-traced", "ops.complex", _sign_gradient("complex128", 4, traced=True)),
]

def _parts_agree(got: np.ndarray, want: np.ndarray) -> np.ndarray:
    """bits_agree, of the real and of the imaginary parts apart for complex values (a NaN part
    matches any NaN part)."""
    if got.dtype.kind != "c":
        return edge_compare.bits_agree(got, want)
    return (edge_compare.bits_agree(got.real.copy(), want.real.copy())
            & edge_compare.bits_agree(got.imag.copy(), want.imag.copy()))


EDGES = edge_compare.EdgeModule(__file__, CASES, agree=lambda case: _parts_agree)


@pytest.fixture(scope="module")
def tf_results() -> dict[int, Any]:
    return EDGES.tf_answers()


@clause("ops.subnormals")
@EDGES.parametrize("ops.subnormals")
def test_pow_of_subnormals(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


@clause("ops.complex")
@EDGES.parametrize("ops.complex")
def test_complex_sign_gradient(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


def test_every_group_is_tested() -> None:
    assert not EDGES.untested(), f"groups without a test function: {EDGES.untested()}"


if __name__ == "__main__":  # TF worker: python test_fz13_edges_tf.py 0,1,2 -> pickled results on stdout
    tf_workers.serve(EDGES.tf_worker)
