"""Rules issue 29's fourteenth generator (tests/fuzz14) found where TF 2.21 raises ValueError and
simdist raised another class or accepted (fz15b's share), each against real TensorFlow 2.21: the
same call on both backends gives the same dtype and bits, or raises the same exception class.
Eagerly, in a tf.function (`traced`: its first call traces) and in a tf.function with an
input_signature (`sig`: get_concrete_function traces on placeholders). Needs the `tf` extra.
"""

from __future__ import annotations

from typing import Any, Callable

import numpy as np
import pytest

import edge_compare
import tf_workers

pytestmark = [pytest.mark.tf, tf_workers.tf_or_golden(__file__)]
clause = pytest.mark.clause


def _eager(expr: str) -> Callable[[Any], Any]:
    def run(tf: Any) -> Any:
        return eval(expr, {"tf": tf, "np": np})  # noqa: S307 - our own text
    return run


def _traced(expr: str) -> Callable[[Any], Any]:
    """The expression inside a tf.function, called once (its trace runs the shape functions)."""
    def run(tf: Any) -> Any:
        return tf.function(lambda: eval(expr, {"tf": tf, "np": np}))()  # noqa: S307 - our own text
    return run


def _sig(expr: str, *specs: tuple[list[int | None] | None, str]) -> Callable[[Any], Any]:
    """get_concrete_function of `lambda x, y, ...: expr` with an input_signature of these specs,
    then (when it traces) a length-1 marker."""
    def run(tf: Any) -> Any:
        names = "xyzw"[:len(specs)]
        fn = eval(f"lambda {', '.join(names)}: {expr}", {"tf": tf, "np": np})  # noqa: S307 - our own text
        sig = [tf.TensorSpec(s, getattr(tf, d)) for s, d in specs]
        tf.function(fn, input_signature=sig).get_concrete_function()
        return tf.constant([1])
    return run


def _scatter(op: str, xs: tuple, ids: tuple, us: tuple, mode: str) -> Callable[[Any], Any]:
    """tf.tensor_scatter_nd_<op> on zeros of these shapes (indices zeros too), eagerly or traced."""
    def run(tf: Any) -> Any:
        def call() -> Any:
            return getattr(tf, f"tensor_scatter_nd_{op}")(tf.zeros(xs), tf.zeros(ids, tf.int32), tf.zeros(us))
        return tf.function(call)() if mode == "traced" else call()
    return run


# shapes (tensor, indices, updates): TF 2.21 aborts its process eagerly when the updates have fewer
# dimensions than the indices' outer ones (a CHECK in TensorShape::dim_size), so those are traced only
_SCATTER_BOTH = [((3,), (1, 1), ()), ((3,), (1, 1), (2,)), ((3,), (2, 1), (1,)), ((3,), (1,), ()), ((3,), (1,), (1,)),
                 ((3,), (), (1,)), ((), (1, 1), (1,)), ((2, 3), (1, 1), (1, 2)), ((2, 3), (1, 1), (1,)),
                 ((3,), (1, 2), (1,)), ((2, 3), (2,), (3,)), ((2, 3), (2,), ()), ((0,), (1, 1), (1,)),
                 ((0,), (0, 1), (0,)), ((2, 3), (1, 1), (1, 1, 1)), ((3,), (1, 1), (1,))]
_SCATTER_TRACED = [((2, 3, 4), (1, 1, 1, 1), (1, 1)), ((2, 3), (1, 1, 1), (1,))]

CASES: list[tuple[str, str, Callable[[Any], Any]]] = [
    # -- FFT/IFFT 1-3D: spectral_ops.cc's WithRankAtLeast (fz14 seed 14 #292, #714, seed 1420261202 #81)
    *[(f"{op} rank {r} {how}", "ops.signal-fft",
       (_traced if how == "traced" else _eager)(f"tf.signal.{op}(tf.zeros({[2] * r}, tf.complex64))"))
      for op in ("fft", "ifft", "fft2d", "ifft2d", "fft3d", "ifft3d") for r in (0, 1, 2) for how in ("eager", "traced")],
    ("fft3d sig [None, None]", "ops.signal-fft", _sig("tf.signal.fft3d(x)", ([None, None], "complex64"))),
    ("fft3d sig [None, None, None]", "ops.signal-fft", _sig("tf.signal.fft3d(x)", ([None, None, None], "complex64"))),
    ("fft sig unknown rank", "ops.signal-fft", _sig("tf.signal.fft(x)", (None, "complex64"))),
    ("fft sig []", "ops.signal-fft", _sig("tf.signal.fft(x)", ([], "complex64"))),
    # -- TensorScatter*: the kernel's checks in order, the shape function's at trace (fz14 seed 14 #183, #453,
    # #533, #661, seed 1420261202 #61, #168)
    *[(f"tensor_scatter_nd_{op} {xs} {ids} {us} {mode}", "function.trace-time-errors", _scatter(op, xs, ids, us, mode))
      for xs, ids, us in _SCATTER_BOTH for op in ("add", "update", "max") for mode in ("eager", "traced")],
    *[(f"tensor_scatter_nd_{op} {xs} {ids} {us} traced", "function.trace-time-errors",
       _scatter(op, xs, ids, us, "traced")) for xs, ids, us in _SCATTER_TRACED for op in ("sub", "min")],
    ("tensor_scatter_nd_min sig updates [None, 2]", "function.trace-time-errors",
     _sig("tf.tensor_scatter_nd_min(x, [[0]], y)", ([3], "float32"), ([None, 2], "float32"))),
    ("tensor_scatter_nd_min sig updates [2, None]", "function.trace-time-errors",
     _sig("tf.tensor_scatter_nd_min(x, [[0]], y)", ([3], "float32"), ([2, None], "float32"))),
    ("tensor_scatter_nd_sub sig tensor unknown rank", "function.trace-time-errors",
     _sig("tf.tensor_scatter_nd_sub(x, [[0]], y)", (None, "float32"), ([1, 3], "float32"))),
    # -- the LU family's static checks (linalg_impl.lu_reconstruct_assertions, _lu_solve_assertions;
    # fz14 seed 14 #57, #67, seed 1420261202 #467 ...)
    *[(f"{call} {how}", "ops.linalg-lu", (_traced if how == "traced" else _eager)(call)) for call in (
        "tf.linalg.lu_reconstruct(tf.constant([2, 3, 0]), (0,))",
        "tf.linalg.lu_reconstruct(tf.eye(2), [[0, 1]])",
        "tf.linalg.lu_reconstruct([[1.0, 2.0, 3.0]], [0])",
        "tf.linalg.lu_reconstruct(np.int64(3), perm=[1, 0])",
        "tf.linalg.lu_matrix_inverse(1.0, ())",
        "tf.linalg.lu_matrix_inverse(np.ones([4, 1, 1, 2], np.float32), tf.constant([3, 2, 1, 0]))",
        "tf.linalg.lu_matrix_inverse([[4.0]], [0])",
        "tf.linalg.lu_solve(tf.constant([1.0, 2.0, 3.0]), tf.constant([0]), tf.constant(0, tf.uint16))",
        "tf.linalg.lu_solve(tf.eye(2), [0, 1], [1.0, 2.0])",
        "tf.linalg.lu_solve(tf.eye(2), [0, 1], [[1.0, 2.0]])",
        "tf.linalg.lu_solve(tf.eye(2), [0, 1], [[1], [2]])",
        "tf.linalg.lu_solve(tf.eye(2)[None], [[1, 0]], [[1.0], [2.0]])") for how in ("eager", "traced")],
    ("lu_solve sig rhs [None]", "ops.linalg-lu", _sig("tf.linalg.lu_solve(x, [0, 1], y)", ([2, 2], "float32"),
                                                      ([None], "float32"))),
    ("lu_solve sig rhs [None, 1]", "ops.linalg-lu", _sig("tf.linalg.lu_solve(x, [0, 1], y)", ([2, 2], "float32"),
                                                         ([None, 1], "float32"))),
    ("lu_reconstruct sig [None, 2, 3]", "ops.linalg-lu", _sig("tf.linalg.lu_reconstruct(x, y)", ([None, 2, 3], "float32"),
                                                              ([None, 2], "int32"))),
    ("lu_reconstruct sig [2, None, 3]", "ops.linalg-lu", _sig("tf.linalg.lu_reconstruct(x, y)", ([2, None, 3], "float32"),
                                                              ([2, 3], "int32"))),
]

# -- an int attr below its minimum (op_def_library: ValueError when a graph is built), then SpaceToDepth's and
# DepthToSpace's shape functions (rank 4, divisibility, by data_format) before the kernel's lookup (fz14 seed 14 #32,
# #574, seed 1420261202 #27, #48, #378 ...)
_DEPTH = [
    "tf.nn.space_to_depth(tf.zeros([1, 2, 2, 1]), 1)", "tf.nn.depth_to_space(tf.zeros([1, 2, 2, 4]), 1)",
    "tf.nn.space_to_depth(tf.zeros([1, 2, 2, 1], tf.uint32), 1, data_format='NCHW')",
    "tf.nn.space_to_depth(tf.zeros([2, 2, 1]), 2)", "tf.nn.depth_to_space(tf.zeros([1, 2, 2]), 2)",
    "tf.nn.space_to_depth(tf.constant(0, tf.uint32), 2, data_format='NCHW')",
    "tf.nn.space_to_depth(tf.zeros([1, 3, 2, 1]), 2)", "tf.nn.space_to_depth(tf.zeros([1, 2, 3, 1]), 2)",
    "tf.nn.depth_to_space(tf.zeros([1, 2, 2, 3]), 2)", "tf.nn.depth_to_space(tf.zeros([1, 2, 2, 8]), 2)",
    "tf.nn.space_to_depth(tf.zeros([1, 2, 2, 1]), 2, data_format='NCHW')",
    "tf.nn.space_to_depth(tf.zeros([1, 1, 2, 2]), 2, data_format='NCHW')",
    "tf.nn.depth_to_space(tf.zeros([1, 3, 2, 2]), 2, data_format='NCHW')",
    "tf.nn.space_to_depth(tf.reshape(tf.range(16.0), [1, 4, 4, 1]), 2)",
    "tf.split(0, 0)", "tf.split(tf.zeros([3]), -2)", "tf.split(tf.zeros([3]), 0, axis=5)", "tf.split(tf.zeros([4]), 2)",
]
CASES += [
    *[(f"{call} {how}", "nn.attr-minimum", (_traced if how == "traced" else _eager)(call))
      for call in _DEPTH for how in ("eager", "traced")],
    ("space_to_depth sig [None, 3, None, 1]", "nn.attr-minimum",
     _sig("tf.nn.space_to_depth(x, 2)", ([None, 3, None, 1], "float32"))),
    ("space_to_depth sig [None, None, None, 1]", "nn.attr-minimum",
     _sig("tf.nn.space_to_depth(x, 2)", ([None, None, None, 1], "float32"))),
    ("space_to_depth sig unknown rank", "nn.attr-minimum", _sig("tf.nn.space_to_depth(x, 2)", (None, "float32"))),
    ("depth_to_space sig [None, 2, 2, None]", "nn.attr-minimum",
     _sig("tf.nn.depth_to_space(x, 2)", ([None, 2, 2, None], "float32"))),
    ("depth_to_space sig [None, 2, 2, 6]", "nn.attr-minimum",
     _sig("tf.nn.depth_to_space(x, 2)", ([None, 2, 2, 6], "float32"))),
    ("split sig num 0", "nn.attr-minimum", _sig("tf.split(x, 0)", ([None], "float32"))),
]

# -- the raw FFTND ops convert fft_length and axes (int32) before they fail to find a kernel (fz14 seed 1420261202
# #106, #114, #287, #640)
CASES += [(f"{call} {how}", "ops.signal-fft", (_traced if how == "traced" else _eager)(call)) for call in (
    "tf.ifftnd(-1, [], None)", "tf.fftnd(np.float64(-0.0), (2, 3), None)",
    "tf.rfftnd(tf.zeros([3]), tf.constant([3], tf.int32), axes=None, Tcomplex=tf.uint64)",
    "tf.fftnd(tf.zeros([2], tf.complex64), [2], [0.5])", "tf.fftnd(tf.zeros([2], tf.complex64), None, [0])",
    "tf.irfftnd(tf.zeros([2], tf.complex64), [2], [0])", "tf.fftnd(tf.zeros([2], tf.complex64), [2], [0])")
    for how in ("eager", "traced")]

# -- pinv's and matrix_rank's _maybe_validate_matrix (matrix_rank converts with dtype_hint float32; fz14 seed
# 1420261202 #143, ...)
CASES += [(f"{call} {how}", "ops.linalg-lu", (_traced if how == "traced" else _eager)(call)) for call in (
    "tf.linalg.matrix_rank(-3.0)", "tf.linalg.matrix_rank(np.array(5, dtype=np.int64), tol=2)",
    "tf.linalg.matrix_rank(np.array([[1, 2], [2, 4]]))", "tf.linalg.matrix_rank(tf.constant([[5]], tf.int64))",
    "tf.linalg.pinv([1.0, 2.0])", "tf.linalg.pinv(tf.constant([[1, 2]]))", "tf.shape(tf.linalg.pinv([[1.0, 2.0]]))")
    for how in ("eager", "traced")]
CASES += [("matrix_rank sig unknown rank", "ops.linalg-lu", _sig("tf.linalg.matrix_rank(x)", (None, "float32"))),
          ("pinv sig [None]", "ops.linalg-lu", _sig("tf.linalg.pinv(x)", ([None], "float32")))]

EDGES = edge_compare.EdgeModule(__file__, CASES)


@pytest.fixture(scope="module")
def tf_results() -> dict[int, Any]:
    return EDGES.tf_answers()


@clause("ops.signal-fft")
@EDGES.parametrize("ops.signal-fft")
def test_fft_rank_at_trace(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


@clause("function.trace-time-errors")
@EDGES.parametrize("function.trace-time-errors")
def test_tensor_scatter_shapes(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


@clause("ops.linalg-lu")
@EDGES.parametrize("ops.linalg-lu")
def test_lu_static_checks(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


@clause("function.trace-time-errors")
@EDGES.parametrize("nn.attr-minimum")
def test_attr_minimum_and_depth_shapes(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


def test_every_case_has_a_test() -> None:
    untested = EDGES.untested()
    assert not untested, f"cases of groups {untested} have no test function above"


if __name__ == "__main__":  # TF worker: python test_fz15b_edges_tf.py 0,1,2 -> pickled results on stdout
    tf_workers.serve(EDGES.tf_worker)
