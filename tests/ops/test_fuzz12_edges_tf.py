"""Rules issue 29's twelfth campaign (fz12: the third fuzzer's seeds 94-96, the first fuzzer's
stream 20261207) found wrong, each against real TensorFlow 2.21: the same call on both backends
gives the same dtype and bits, or raises the same exception class. float32/half bessel_j0/j1/y0/y1
are Eigen's float kernels (the Hankel form's phase added in float32, packets with the estimated
rsqrt and Eigen's cos/sin/log, the scalar tail with the C library's); igamma/igammac are Eigen's
Cephes series and continued fraction in the element's precision; det/slogdet are determinant_op.cc's
SLogDet over Eigen's PartialPivLU (no special case for a non-finite sum of logs); glibc's atan2/atan2f of
subnormal operands in the scalar tail; embedding_lookup's closing identity, which the tape does not record
for an integer variable's rows; Grappler's folding of AddN's constant inputs inside tf.function. Needs the `tf` extra.
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

_RNG = np.random.default_rng(1207)
_BESSEL_X = np.concatenate([
    np.array([0.0, -0.0, 1e-40, -1e-40, 1e-4, 1e-3, 0.5, 1.9, 2.0, 2.0000002, 3.0, -3.0, 7.5, 33.0, 1e3, 1e5, 3e7,
              1e10, -1e10, 3.4e38, np.inf, -np.inf, np.nan], np.float32),
    (_RNG.standard_normal(40) * 10).astype(np.float32), portable_inputs.log_uniform(_RNG, -5, 12, 40).astype(np.float32)])
_BESSEL = ("bessel_j0", "bessel_j1", "bessel_y0", "bessel_y1")
with np.errstate(over="ignore"):
    _BESSEL_X16 = _BESSEL_X.astype(np.float16)   # (3.4e38 becomes inf)
# packets whose elements are all within [-2, 2]: the Hankel branch's rsqrt estimate (the CPU's vrsqrtps table,
# ops.host-cpu) is selected away, so the golden's answers hold on every host (x > 2 in packets: see the spec)
_BESSEL_SMALL = np.concatenate([_BESSEL_X[np.abs(_BESSEL_X) <= 2], _RNG.uniform(-2, 2, 29).astype(np.float32)])


def _bessel_gradient(fn: str, x: np.ndarray) -> Callable[[Any], Any]:
    def run(tf: Any) -> Any:
        v = tf.Variable(x)
        with tf.GradientTape() as tape:
            y = getattr(tf.math.special, fn)(v)
        return tape.gradient(y, v)
    return run


SPECIAL: list[tuple[str, str, Callable[[Any], Any]]] = [
    # -- Eigen's float Bessel kernels (fz10 ext seed 91 #183, seeds 92 #228; fz12 seeds 94 #18, 95 ext #248, 96 ext #295):
    # 40 elements within [-2, 2] (5 packets), each edge value alone (the scalar tail), half (float one at a time)
    *[(f"{fn}-float32-packets", "ops.math-special",
       (lambda f: lambda tf: getattr(tf.math.special, f)(tf.constant(_BESSEL_SMALL)))(fn)) for fn in _BESSEL],
    *[(f"{fn}-float32-tail-{i}", "ops.math-special",
       (lambda f, v: lambda tf: getattr(tf.math.special, f)(tf.constant(v)))(fn, _BESSEL_X[i:i + 1]))
      for fn in _BESSEL for i in range(23)],
    *[(f"{fn}-float16", "ops.math-special",
       (lambda f: lambda tf: getattr(tf.math.special, f)(tf.constant(_BESSEL_X16)))(fn))
      for fn in _BESSEL],
    *[(f"{fn}-gradient-float32-{i}", "ops.math-special", _bessel_gradient(fn, _BESSEL_X[i:i + 7])) for fn in ("bessel_j0", "bessel_j1")
      for i in (0, 7, 14)],
]
_IG = [0.0, 1e-40, 1e-30, 1e-3, 0.1, 0.5, 1.0, 2.0, 2.5, 7.25, 30.0, 100.0, 150.0, 1e3, 1e4, 1e6, 1e10, 1e30,
       np.inf, -1.0, np.nan]
_IG_PAIRS = np.array([(a, x) for a in _IG for x in _IG], np.float64)
_IG_RANDOM = portable_inputs.log_uniform(_RNG, -3, 4, (2, 300))
IGAMMA: list[tuple[str, str, Callable[[Any], Any]]] = [
    # -- Eigen's igamma/igammac: series and continued fraction in the element's precision (fz12 seeds 94 #43,
    # 95 #34, 96 ext #31; fz4's float64 series limit; fz3_known's igammac at x = a large)
    *[(f"{fn}-{dt}-edges", "ops.special-more",
       (lambda f, d: lambda tf: getattr(tf.math, f)(tf.constant(_IG_PAIRS[:, 0], d), tf.constant(_IG_PAIRS[:, 1], d)))(fn, dt))
      for fn in ("igamma", "igammac") for dt in ("float32", "float64")],
    *[(f"{fn}-{dt}-random", "ops.special-more",
       (lambda f, d: lambda tf: getattr(tf.math, f)(tf.constant(_IG_RANDOM[0], d), tf.constant(_IG_RANDOM[1], d)))(fn, dt))
      for fn in ("igamma", "igammac") for dt in ("float32", "float64")],
]
_DET_VALS = np.array([np.nan, np.inf, -np.inf, 0.0, -0.0, 1.0, -2.0, 0.5, 1e30, 1e-40, 3.0, -7.25])


def _det_matrices(dt: str, n: int) -> np.ndarray:
    rng = np.random.default_rng(100 * n + len(dt))
    with np.errstate(all="ignore"):
        m = rng.choice(_DET_VALS, size=(60, n, n))
        if "complex" in dt:
            m = m + 1j * rng.choice(_DET_VALS, size=(60, n, n)) * (rng.random((60, n, n)) < 0.5)
        return m.astype(dt)


LINALG: list[tuple[str, str, Callable[[Any], Any]]] = [
    # -- det/slogdet: Eigen's PartialPivLU and SLogDet without a non-finite case (fz10's open class, seed 52 #125;
    # fz12 seeds 94 ext #267, 95 ext #185); 60 edge-valued matrices per dtype and size, the 1x1 subnormal pivots
    *[(f"{fn}-{dt}-{n}x{n}", "ops.linalg-more",
       (lambda f, d, k: lambda tf: getattr(tf.linalg, f)(tf.constant(_det_matrices(d, k))))(fn, dt, n),
       *((1e-5 if dt == "complex64" else 1e-13,) if "complex" in dt else ()))
      for fn in ("det", "slogdet") for dt in ("float32", "float64", "complex64", "complex128") for n in (1, 2, 3, 4)
      if n < 4 or dt in ("float32", "complex64")],   # (log|d| of 4+ float64s: Eigen's packet sum, not modelled)
    ("slogdet-float32-subnormal-pivots", "ops.linalg-more",
     lambda tf: tf.linalg.slogdet(tf.constant(np.array([[[1e-40]], [[-1e-40]], [[0.0]], [[-0.0]]], np.float32)))),
    ("slogdet-float32-singular-odd-permutation", "ops.linalg-more",
     lambda tf: tf.linalg.slogdet(tf.constant(np.array([[1.0, 2.0], [2.0, 4.0]], np.float32)))),
    ("det-float32-finite-5x5", "ops.linalg-more",
     lambda tf: tf.linalg.det(tf.constant(np.random.default_rng(5).standard_normal((20, 5, 5)).astype(np.float32)))),
]
_AT64 = [5e-324, -5e-324, 1e-310, -2e-310, np.inf, -np.inf, -1.999 * 2.0 ** -967, -(2.0 ** -966), -2.0, 1.0]
_AT32 = [1e-40, -1e-40, 1e-45, 1.1e-38, 1.0, 2.0, -1.0, np.inf, -np.inf]
ATAN2: list[tuple[str, str, Callable[[Any], Any]]] = [
    # -- glibc's atan2 (IBM) / atan2f (fdlibm) of subnormal operands in the scalar tail, each pair alone (fz12 seed 96
    # #272: atan2(5e-324, -inf) is pi): an infinite x before the far-below branch, whose bound is |x| >= 2**-966;
    # atan2f's x = 1.0 case (atanf(y) keeps a subnormal y)
    *[(f"atan2-float64-{i}-{j}", "ops.eigen-kernels",
       (lambda y, x: lambda tf: tf.math.atan2(tf.constant([y], tf.float64), tf.constant([x], tf.float64)))(y, x))
      for i, y in enumerate(_AT64[:4]) for j, x in enumerate(_AT64)],
    *[(f"atan2-float32-{i}-{j}", "ops.eigen-kernels",
       (lambda y, x: lambda tf: tf.math.atan2(tf.constant([y], tf.float32), tf.constant([x], tf.float32)))(y, x))
      for i, y in enumerate(_AT32[:4]) for j, x in enumerate(_AT32)],
]
def _lookup_gradient(fn: str, dt: str, accessed: bool, unconnected: str) -> Callable[[Any], Any]:
    def run(tf: Any) -> Any:
        v = tf.Variable(np.array([[-5], [7], [9]], dt))
        with tf.GradientTape(watch_accessed_variables=accessed) as tape:
            if not accessed:
                tape.watch(v)
            y = tf.nn.embedding_lookup(v, [2, 0]) if fn == "embedding_lookup" else tf.gather(v, [2, 0])
        g = tape.gradient(y, v, unconnected_gradients=unconnected)
        return "None" if g is None else tf.convert_to_tensor(g)
    return run


GRADIENTS: list[tuple[str, str, Callable[[Any], Any]]] = [
    # -- embedding_lookup's closing identity breaks an integer variable's gradient (fz12 seeds 94 #232, 96 #139)
    *[(f"{fn}-{dt}-{'accessed' if acc else 'watched'}-{u}", "ops.gradient-none-or-zeros", _lookup_gradient(fn, dt, acc, u))
      for fn in ("embedding_lookup", "gather") for dt in ("int32", "int64", "float32") for acc in (True, False)
      for u in ("none", "zero")],
]
def _add_n_traced(dt: str, order: str, signature: bool) -> Callable[[Any], Any]:
    def run(tf: Any) -> Any:
        with np.errstate(over="ignore"):   # (1e30 is inf in float16)
            c1, c2 = np.array([65504.0, 1.0, 3.0, 1e30], dt), np.array([-65504.0, 2.0 ** -11, -3.0, -1e30], dt)

        def f(x: Any) -> Any:
            a, b = tf.constant(c1), tf.constant(c2)
            return tf.math.add_n({"xcc": [x, a, b], "cxc": [a, x, b], "xcxc": [x, a, x, b], "xxc": [x, x, a]}[order])
        x = tf.constant(np.array([-1.0, 1.0, 2.0 ** -11, 7.0], dt))
        spec = [tf.TensorSpec([None], dt)] if signature else None
        return tf.function(f, input_signature=spec)(x), f(x)
    return run


GRAPPLER: list[tuple[str, str, Callable[[Any], Any]]] = [
    # -- PartialAssocOpConstFolding: AddN's constant inputs folded first (fz12 seed 94 #170, #227); xxc: one constant
    *[(f"add-n-{dt}-{order}-{'sig' if sig else 'traced'}", "function.grappler-rewrites", _add_n_traced(dt, order, sig))
      for dt in ("float16", "float32", "float64") for order in ("xcc", "cxc", "xcxc", "xxc") for sig in (False, True)],
]
def _igamma_grad_a(dt: str, a: np.ndarray, x: np.ndarray) -> Callable[[Any], Any]:
    def run(tf: Any) -> Any:
        v = tf.Variable(a.astype(dt))
        with tf.GradientTape() as tape:
            y = tf.math.igamma(v, tf.constant(x.astype(dt)))
        return tape.gradient(y, v)
    return run


IGAMMA += [
    # -- IgammaGradA: Eigen's derivative mode (fz12 seed 94 #43, after the values' fix)
    *[(f"igamma-grad-a-{dt}-{part}", "ops.special-more", _igamma_grad_a(dt, *pairs), 2e-4 if dt == "float32" else 1e-13)
      for dt in ("float32", "float64")
      for part, pairs in (("edges", (_IG_PAIRS[:, 0], _IG_PAIRS[:, 1])), ("random", (_IG_RANDOM[0], _IG_RANDOM[1])))],
]
CASES = SPECIAL + IGAMMA + LINALG + ATAN2 + GRADIENTS + GRAPPLER

def _parts_agree(got: np.ndarray, want: np.ndarray) -> np.ndarray:
    """edge_compare.bits_agree, complex part by part (a NaN part matching any NaN part)."""
    if got.dtype.kind == "c":
        return edge_compare.bits_agree(np.array(got.real), np.array(want.real)) & \
            edge_compare.bits_agree(np.array(got.imag), np.array(want.imag))
    return edge_compare.bits_agree(got, want)


def _parts_near(rtol: float) -> Callable[[np.ndarray, np.ndarray], np.ndarray]:
    """_parts_agree, or both (parts) finite and within rtol of |want| (the finite complex determinants: Eigen's
    complex |z|, sign and products; IgammaGradA's digamma: not transcribed to the last bit); NaN and inf must match."""
    def agree(got: np.ndarray, want: np.ndarray) -> np.ndarray:
        if got.dtype.kind == "f":
            with np.errstate(invalid="ignore", over="ignore"):
                near = np.isfinite(got) & np.isfinite(want) & (
                    np.abs(got.astype(np.float64) - want) <= rtol * np.abs(want.astype(np.float64)))
            return _parts_agree(got, want) | near
        if got.dtype.kind != "c":
            return _parts_agree(got, want)
        scale = np.abs(want.astype(np.complex128))
        with np.errstate(invalid="ignore", over="ignore"):
            near = [np.isfinite(g) & np.isfinite(w) & (np.abs(g.astype(np.float64) - w) <= rtol * scale)
                    for g, w in ((got.real, want.real), (got.imag, want.imag))]
        return _parts_agree(got, want) | (near[0] & near[1])
    return agree


EDGES = edge_compare.EdgeModule(__file__, CASES, agree=lambda case: _parts_near(case[3]) if len(case) > 3 else _parts_agree)


@pytest.fixture(scope="module")
def tf_results() -> dict[int, Any]:
    return EDGES.tf_answers()


@clause("ops.math-special")
@EDGES.parametrize("ops.math-special")
def test_special_function_kernels(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


@clause("ops.linalg-more")
@EDGES.parametrize("ops.linalg-more")
def test_determinants(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


@clause("ops.eigen-kernels")
@EDGES.parametrize("ops.eigen-kernels")
def test_atan2_tail_subnormals(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


@clause("ops.gradient-none-or-zeros")
@EDGES.parametrize("ops.gradient-none-or-zeros")
def test_integer_embedding_gradient(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


@clause("function.grappler-rewrites")
@EDGES.parametrize("function.grappler-rewrites")
def test_add_n_constants_folded_first(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


@clause("ops.special-more")
@EDGES.parametrize("ops.special-more")
def test_incomplete_gamma_kernels(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


if __name__ == "__main__":  # TF worker: python test_fuzz12_edges_tf.py 0,1,2 -> pickled results on stdout
    tf_workers.serve(EDGES.tf_worker)
