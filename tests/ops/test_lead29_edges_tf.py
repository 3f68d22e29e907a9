"""Three classes a fresh fourteenth-generator seed left open (fz14 seed 1420282804 #31, #34, #91), against
real TensorFlow 2.21, with their neighbours: an eager op's fallback conversion when an input is a list or a
NumPy scalar and a variable is not an eager tensor (execute.args_to_matching_eager: T from the first value,
so `betainc(1.0, [..], float64 variable)` is the variable's ValueError), a variable's own conversion text
for another dtype; NextAfter's float32 cast of complex and bool NumPy operands (NPY_ARRAY_FORCECAST, eager
and traced); tf.random.uniform's bounds as random_ops converts them (tensor and array bounds broadcast
against the draw, RandomUniformInt's 0-D checks, False as zero and True as one), which random_contrast's
NumPy upper reaches. Values bit for bit, dtypes, shapes and error classes. Needs the `tf` extra.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import edge_compare
from edge_programs import eager as _eager, traced as _traced
import tf_workers

pytestmark = [pytest.mark.tf, tf_workers.tf_or_golden(__file__)]
clause = pytest.mark.clause

_C = "ops.conversion"
_N = "ops.special-more"
_R = "ops.random-bits"
_E = "ops.linalg-spectral"
_EIG_OPEN = "eig phases, open"
_T = "function.trace-time-errors"
_X3 = "tf.constant(np.arange(36).reshape(3, 4, 3), tf.int64)"
_DW = ("tf.nn.depthwise_conv2d_backprop_input({sizes}, filter=tf.constant({f}, dtype='{dt}'), out_backprop=np.array({g}, "
       "dtype=np.{dt}), strides={st}, padding='{pad}', data_format='{fmt}')")


def _herm(n: int, dt: str, seed: int, scale: float = 1.0) -> str:
    """The text of a seeded random Hermitian (symmetric for a real dtype) n x n matrix."""
    rng = np.random.default_rng(seed)
    a = rng.standard_normal((n, n))
    if dt.startswith("complex"):
        a = a + 1j * rng.standard_normal((n, n))
    a = (a + a.conj().T) * scale
    return f"np.array({a.tolist()!r}, np.{dt})"


def _eigh_cases() -> list[tuple[str, str, Any]]:
    """tf.linalg.eigh of random Hermitian matrices of orders 2-8 in each dtype, one scaled by 1e3 and one
    by 1e-3, a diagonal one and one with a repeated eigenvalue, eagerly and in a tf.function."""
    out: list[tuple[str, str, Any]] = []
    for i, (n, dt, scale) in enumerate([(2, "float32", 1.0), (3, "float32", 1e3), (5, "float32", 1.0),
                                        (8, "float32", 1e-3), (3, "float64", 1.0), (6, "float64", 1.0),
                                        (4, "complex64", 1.0), (7, "complex128", 1.0), (5, "complex128", 1e3)]):
        out.append((f"eigh of a {n}x{n} {dt} matrix x{scale:g}", _E, _eager(f"tf.linalg.eigh({_herm(n, dt, 100 + i, scale)})")))
    out.append(("eigh of a 4x4 float32 matrix, traced", _E, _traced(f"tf.linalg.eigh({_herm(4, 'float32', 120)})")))
    out.append(("eigh of a batch of 3x3 float64 matrices", _E, _eager(
        f"tf.linalg.eigh(np.stack([{_herm(3, 'float64', 121)}, {_herm(3, 'float64', 122)}]))")))
    out.append(("eigh of a diagonal matrix", _E, _eager("tf.linalg.eigh(np.diag(np.array([3.0, -1.0, 2.0], np.float32)))")))
    out.append(("eigh with a repeated eigenvalue", _E, _eager(
        "tf.linalg.eigh(np.array([[2.0, 0.0, 0.0], [0.0, 2.0, 1.0], [0.0, 1.0, 2.0]], np.float64))")))
    # non-finite and degenerate inputs, decided by the solver as TF's (the lower triangle only)
    for label, m in (("a NaN above the diagonal", "[[1.0, np.nan], [2.0, 3.0]], np.float32"),
                     ("a NaN below the diagonal", "[[1.0, 2.0], [np.nan, 3.0]], np.float32"),
                     ("inf on the diagonal", "[[np.inf, 1.0], [1.0, 2.0]]"),
                     ("inf below the diagonal", "[[1.0, 0.0], [np.inf, 2.0]]"),
                     ("entries near float32's max", "[[1e38, 0.0], [1e38, 1e38]], np.float32"),
                     ("zeros", "np.zeros((3, 3))")):
        out.append((f"eigh of {label}", _E, _eager(f"tf.linalg.eigh(np.array({m}))")))
    out.append(("eigh reads the lower triangle", _E, _eager(
        "tf.linalg.eigh(np.array([[1.0, 9.0, 9.0], [0.5, 2.0, 9.0], [0.25, -1.0, 3.0]], np.float32))")))
    return out


def _mat(m: int, n: int, dt: str, seed: int, scale: float = 1.0) -> str:
    """The text of a seeded random m x n matrix."""
    rng = np.random.default_rng(seed)
    a = rng.standard_normal((m, n))
    if dt.startswith("complex"):
        a = a + 1j * rng.standard_normal((m, n))
    return f"np.array({(a * scale).tolist()!r}, np.{dt})"


def _eig_cases() -> list[tuple[str, str, Any]]:
    """tf.linalg.eig of random real matrices (Eigen's EigenSolver in TF: the real Schur form's order, hqr2's
    vectors), orders 2-7, both dtypes, an upper triangular one, a batch, eigvals, in a tf.function."""
    out: list[tuple[str, str, Any]] = []
    for i, (n, dt) in enumerate([(2, "float32"), (3, "float32"), (5, "float32"), (4, "float64"), (6, "float64"),
                                 (7, "float64")]):
        # (the 7x7 matrix's second and third complex pairs come out with other phases: `test_eig_phases_open`)
        out.append((f"eig of a {n}x{n} {dt} matrix", _EIG_OPEN if n == 7 else _E,
                    _eager(f"tf.linalg.eig({_mat(n, n, dt, 300 + i)})")))
    out.append(("eig of an upper triangular matrix", _E, _eager(
        "tf.linalg.eig(np.array([[1.0, 2.0, 3.0], [0.0, -1.0, 0.5], [0.0, 0.0, 2.0]], np.float64))")))
    out.append(("eig of a rotation (a complex pair)", _E, _eager(
        "tf.linalg.eig(np.array([[0.0, -1.0], [1.0, 0.0]], np.float32))")))
    out.append(("eig of a batch", _E, _eager(f"tf.linalg.eig(np.stack([{_mat(3, 3, 'float64', 310)}, "
                                               f"{_mat(3, 3, 'float64', 311)}]))")))
    out.append(("eig of a zero matrix (the Schur U's vectors)", _E, _eager("tf.linalg.eig(np.zeros((3, 3)))")))
    out.append(("eig of [[-0.0]]", _E, _eager("tf.linalg.eig(np.array([[-0.0]], np.float32))")))
    out.append(("eigvals of a real matrix", _E, _eager(f"tf.linalg.eigvals({_mat(5, 5, 'float32', 312)})")))
    out.append(("eig, traced", _E, _traced(f"tf.linalg.eig({_mat(4, 4, 'float32', 313)})")))
    return out


def _svd_cases() -> list[tuple[str, str, Any]]:
    """tf.linalg.svd of random matrices below 16 columns (Eigen's JacobiSVD in TF): square, tall and wide,
    thin and full, each dtype, values only, a batch, a float32 variable (fz14 seed 1420282801 #293), in a
    tf.function."""
    out: list[tuple[str, str, Any]] = []
    for i, (m, n, dt, full) in enumerate([(2, 2, "float32", False), (4, 2, "float32", False), (4, 2, "float32", True),
                                          (3, 5, "float32", False), (3, 5, "float64", True), (6, 4, "float64", False),
                                          (5, 5, "float64", False), (4, 3, "complex64", False), (3, 4, "complex128", True),
                                          (5, 5, "complex128", False), (8, 15, "float64", False)]):
        out.append((f"svd of a {m}x{n} {dt} matrix{', full' if full else ''}", _E, _eager(
            f"tf.linalg.svd({_mat(m, n, dt, 200 + i)}, full_matrices={full})")))
    out.append(("svd of a matrix holding NaN", _E, _eager("tf.linalg.svd(np.array([[1.0, np.nan], [2.0, 3.0]], np.float32))")))
    out.append(("svd of a matrix holding inf, values only", _E, _eager(
        "tf.linalg.svd(np.array([[np.inf, 1.0], [1.0, 2.0]]), compute_uv=False)")))
    out.append(("svd of a zero 3x2 matrix, full", _E, _eager("tf.linalg.svd(np.zeros((3, 2)), full_matrices=True)")))
    out.append(("svd with a tie of singular values", _E, _eager("tf.linalg.svd(np.eye(3, dtype=np.float32) * 2.0)")))
    out.append(("svd values only", _E, _eager(f"tf.linalg.svd({_mat(5, 3, 'float32', 220)}, compute_uv=False)")))
    out.append(("svd of a batch", _E, _eager(
        f"tf.linalg.svd(np.stack([{_mat(3, 2, 'float64', 221)}, {_mat(3, 2, 'float64', 222)}]))")))
    out.append(("svd of a float32 variable", _E, _eager(f"tf.linalg.svd(tf.Variable({_mat(4, 2, 'float32', 223)}))")))
    out.append(("svd, traced", _E, _traced(f"tf.linalg.svd({_mat(4, 3, 'float32', 224)})")))
    # tf.norm's matrix 2-norm: the largest singular value, the axes moved last and back
    b = _mat(6, 4, "float32", 225)
    for axis, keep in (("[-2, -1]", False), ("[1, 2]", True), ("[0, 2]", False), ("[2, 0]", False), ("(1, 2)", False)):
        out.append((f"norm ord=2 axis={axis} keepdims={keep}", _E, _eager(
            f"tf.norm(np.reshape({b}, [2, 3, 4]), ord=2, axis={axis}, keepdims={keep})")))
    out.append(("norm ord=2 of a complex matrix", _E, _eager(
        f"tf.norm({_mat(3, 4, 'complex64', 226)}, ord=2, axis=[0, 1])")))
    out.append(("norm ord=2.0, traced", _E, _traced(f"tf.norm({_mat(3, 3, 'float64', 227)}, ord=2.0, axis=[-2, -1])")))
    out.append(("norm ord=2 with an axis out of range", _E, _eager(
        f"tf.norm(np.reshape({b}, [2, 3, 4]), ord=2, axis=[1, 3])")))
    return out

_V = "tf.Variable(np.array([0.001, 2.5, 0.5]))"
_CX = "np.array([complex(4.0, 2.5), complex(7.0, 5e-324)], dtype=np.complex64)"


def _seeded(expr: str) -> str:
    return f"(tf.random.set_seed(5), {expr})[1]"


def _traced_seeded(expr: str) -> Any:
    """The expression inside a tf.function, the global seed set before (not inside: a seed set while
    tracing is fz14_known's graph-seed class)."""
    def run(tf: Any) -> Any:
        tf.random.set_seed(5)
        return tf.function(lambda: eval(expr, {"tf": tf, "np": np}), autograph=False)()  # noqa: S307
    return run


CASES: list[tuple[str, str, Any]] = [
    ("betainc, a Python float, a list, a float64 variable", _C, _eager(f"tf.math.betainc(1.0, [65504.0, 0.001, -3.0], {_V})")),
    ("betainc, a Python float, a float16 NumPy scalar, a float64 variable", _C, _eager(
        f"tf.math.betainc(1.0, np.float16(1.0), {_V})")),
    ("betainc, a Python int first, a float list, a variable", _C, _eager(f"tf.math.betainc(1, [1.0], {_V})")),
    ("betainc, np.float64 first, a list, a variable", _C, _eager(f"tf.math.betainc(np.float64(1), [1.0], {_V})")),
    ("betainc, Python floats and a variable (the fast path)", _C, _eager(f"tf.math.betainc(1.0, 2.0, {_V})")),
    ("betainc, a list, a tensor, a variable", _C, _eager(
        f"tf.math.betainc([1.0, 2.0, 3.0], tf.constant([2.0, 2.0, 2.0], tf.float64), {_V})")),
    ("igamma, a list and a float64 variable", _C, _eager(f"tf.math.igamma([1.0], {_V})")),
    ("igamma, an int list and a float64 variable", _C, _eager(f"tf.math.igamma([1], {_V})")),
    ("convert_to_tensor of a float64 variable to float32", _C, _eager(f"tf.convert_to_tensor({_V}, tf.float32)")),
    ("squared_difference, a list beside a float64 variable", _C, _eager(f"tf.math.squared_difference([[1.0]], {_V})")),
    ("nextafter of complex64 arrays, eager", _N, _eager(
        f"tf.math.nextafter({_CX}, np.array([complex(-1.0, -1.5), 0j], dtype=np.complex64))")),
    ("nextafter of complex64 arrays, traced", _N, _traced(
        f"tf.math.nextafter({_CX}, np.array([complex(-1.0, -1.5), 0j], dtype=np.complex64))")),
    ("nextafter, a complex128 NumPy scalar and a Python float", _N, _eager("tf.math.nextafter(np.complex128(1+2j), 3.0)")),
    ("nextafter, a Python float and a complex array", _N, _eager(f"tf.math.nextafter(2.0, {_CX})")),
    ("nextafter, a float32 scalar and a complex array, traced", _N, _traced(f"tf.math.nextafter(np.float32(1), {_CX})")),
    ("nextafter of a bool array, eager", _N, _eager("tf.math.nextafter(np.array([True, False]), np.array([2.0], np.float32))")),
    ("nextafter of a bool array and a float64 array, traced", _N, _traced(
        "tf.math.nextafter(np.array([True]), np.array([1.0]))")),
    ("uniform, an array maxval", _R, _eager(_seeded("tf.random.uniform([2], 1.0, np.array([2.0, 5.0]), seed=7)"))),
    ("uniform, an array maxval, traced", _R, _traced_seeded("tf.random.uniform([2], 1.0, np.array([2.0, 5.0]), seed=7)")),
    ("uniform, a tensor minval, traced", _R, _traced_seeded(
        "tf.random.uniform([2, 2], tf.constant([1.0, 2.0]), 3.0, seed=19)")),
    ("uniform, True and an int array", _R, _eager(_seeded("tf.random.uniform([2], True, np.array([2]), seed=8)"))),
    ("uniform, False and a column array (broadcast)", _R, _eager(_seeded(
        "tf.random.uniform([2], False, np.array([[2], [3]]), seed=9)"))),
    ("uniform, a tensor minval", _R, _eager(_seeded("tf.random.uniform([2], tf.constant([1.0, 2.0]), 3.0, seed=10)"))),
    ("uniform, maxval True (one)", _R, _eager(_seeded("tf.random.uniform([2], 0, True, seed=11)"))),
    ("uniform, minval False (zero)", _R, _eager(_seeded("tf.random.uniform([2], False, 2.0, seed=12)"))),
    ("uniform, float64 bounds of a list", _R, _eager(_seeded(
        "tf.random.uniform([2], [0.5, 1.5], 4.0, dtype=tf.float64, seed=13)"))),
    ("uniform, an array minval not broadcasting", _R, _eager(_seeded(
        "tf.random.uniform([3], np.array([1.0, 2.0]), 3.0, seed=14)"))),
    ("uniform int, an array maxval", _R, _eager(_seeded("tf.random.uniform([], 0, np.array([2]), dtype=tf.int64, seed=15)"))),
    ("uniform int, an array minval", _R, _eager(_seeded("tf.random.uniform([], np.array([0]), 2, dtype=tf.int32, seed=16)"))),
    ("uniform int, scalar array bounds", _R, _eager(_seeded(
        "tf.random.uniform([3], np.array(1), np.array(9), dtype=tf.int32, seed=17)"))),
    ("random_contrast of an int64 [1] image, NumPy upper", _R, _eager(
        "tf.image.random_contrast(tf.constant([2], tf.int64), True, np.array([2], dtype=np.int64))")),
    ("random_contrast, a [1] upper", _R, _eager(
        "tf.image.random_contrast(tf.ones([2, 2, 3]), 0.5, np.array([2.0]), seed=1)")),
    ("random_contrast, scalar bounds", _R, _eager(_seeded(
        "tf.image.random_contrast(tf.reshape(tf.range(12.0), [2, 2, 3]), 0.5, 2.0, seed=18)"))),
    # a fresh fz14 seed after the merges (1420292904): pooling a rank-3 input in any data_format goes through
    # max_pool1d / avg_pool1d (#7); the depthwise backprop's NodeDef attrs before its strides (#30)
    ("avg_pool of an int64 rank-3 input, NCHW", _T, _eager(
        f"tf.nn.avg_pool({_X3}, ksize=[3, 4, 3], strides=[3, 4, 3], padding='VALID', data_format='NCHW')")),
    ("avg_pool of an int64 rank-3 input, NCHW, traced", _T, _traced(
        f"tf.nn.avg_pool({_X3}, ksize=[3, 4, 3], strides=[3, 4, 3], padding='VALID', data_format='NCHW')")),
    ("avg_pool of a float rank-3 input, NWC", _T, _eager(
        f"tf.nn.avg_pool(tf.cast({_X3}, tf.float32), ksize=2, strides=1, padding='VALID', data_format='NWC')")),
    ("max_pool of a float rank-3 input, NCW", _T, _eager(
        f"tf.nn.max_pool(tf.cast({_X3}, tf.float32), ksize=2, strides=1, padding='SAME', data_format='NCW')")),
    ("max_pool of a float rank-3 input, NCHW", _T, _eager(
        f"tf.nn.max_pool(tf.cast({_X3}, tf.float32), ksize=2, strides=1, padding='VALID', data_format='NCHW')")),
    ("depthwise backprop input, padding 'same', int64, strides [2, 0]", _T, _eager(_DW.format(
        sizes="2 ** 31", f=-4, dt="int64", g=5, st=[2, 0], pad="same", fmt="NCHW"))),
    ("depthwise backprop input, int64, two strides", _T, _eager(_DW.format(
        sizes=[1, 2, 2, 1], f=-4, dt="int64", g=5, st=[1, 1], pad="SAME", fmt="NHWC"))),
    ("depthwise backprop input, padding 'same', int64, traced", _T, _traced(_DW.format(
        sizes=[1, 2, 2, 1], f=-4, dt="int64", g=5, st=[1, 1, 1, 1], pad="same", fmt="NHWC"))),
    ("depthwise backprop input, padding 'same', float32", _T, _eager(_DW.format(
        sizes=[1, 2, 2, 1], f=-4.0, dt="float32", g=5.0, st=[1, 1, 1, 1], pad="same", fmt="NHWC"))),
] + _eigh_cases() + _svd_cases() + _eig_cases()


# (Betainc's values: SciPy's incomplete beta beside Eigen's continued fraction, within 1e-12, as the
# special-function modules compare them; eigh's: Eigen's order of operations but not its SIMD pairings, so
# within rounding (1e-4 relative, 1e-5 absolute for unit vectors), which keeps every sign and phase
# a test; everything else bit for bit)
def _agree(case: tuple) -> Any:
    if "betainc" in case[0]:
        return edge_compare.within(1e-12)
    if case[1] in (_E, _EIG_OPEN):
        return _parts_within
    return edge_compare.parts_agree


_WITHIN = edge_compare.within(1e-4, atol_ratio=1e-1)


def _parts_within(got: np.ndarray, want: np.ndarray) -> np.ndarray:
    """`_WITHIN` part by part for complex values."""
    if got.dtype.kind == "c":
        return _WITHIN(got.real.copy(), want.real.copy()) & _WITHIN(got.imag.copy(), want.imag.copy())
    return _WITHIN(got, want)


EDGES = edge_compare.EdgeModule(__file__, CASES, agree=_agree)


@pytest.fixture(scope="module")
def tf_results() -> dict[int, Any]:
    return EDGES.tf_answers()


@clause("ops.conversion")
@EDGES.parametrize("ops.conversion")
def test_fallback_conversion(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


@clause("ops.special-more")
@EDGES.parametrize("ops.special-more")
def test_nextafter_casts(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


@clause("ops.random-bits")
@EDGES.parametrize("ops.random-bits")
def test_uniform_bounds(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


@clause("ops.linalg-spectral")
@EDGES.parametrize("ops.linalg-spectral")
def test_eigh_svd_and_eig_vectors(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


@clause("ops.linalg-spectral")
@pytest.mark.xfail(strict=True, reason="open: a real matrix's complex eigenvector pairs take their phases from the "
                   "2x2 blocks of the real Schur form, which the Francis iterations leave rotated by rounding-"
                   "sensitive amounts; simdist's Householder products run in order where Eigen's SIMD kernels pair "
                   "terms otherwise (about 1 matrix in 10 of orders 5-7; docs/spec.md ops.linalg-spectral)")
@EDGES.parametrize(_EIG_OPEN)
def test_eig_phases_open(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


@clause("function.trace-time-errors")
@EDGES.parametrize(_T)
def test_attr_order(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


def test_every_case_has_a_test() -> None:
    untested = EDGES.untested()
    assert not untested, f"cases of groups {untested} have no test function above"


if __name__ == "__main__":  # TF worker: python test_lead29_edges_tf.py 0,1,2 -> pickled results on stdout
    tf_workers.serve(EDGES.tf_worker)
