"""Rules behind the classes of issue 29's campaigns that fz35b ran (fresh seeds 1420353001..3 of the
fourteenth generator, 3501 and 3502 of the fourth), each against real TensorFlow 2.21: the same call
on both backends gives the same dtype and values (bit for bit), or raises the same exception class.
Eagerly and in a tf.function (`traced`, a one-expression body). Needs the `tf` extra.
"""

from __future__ import annotations

from typing import Any, Callable

import numpy as np
import pytest

import edge_compare
from edge_programs import eager as _eager, traced as _traced
import tf_workers

pytestmark = [pytest.mark.tf, tf_workers.tf_or_golden(__file__)]
clause = pytest.mark.clause

_C = "ops.conversion"
_AT = "ops.attr-types"
_T = "function.trace-time-errors"
_R = "ops.random-arguments"

_V = "tf.Variable(np.array([0.0, 0.0, 0.0999755859375], np.float16))"   # (the fourth generator's #96 variable)
_H = "tf.constant(2.5, tf.float16)"
_H3 = "tf.constant([1.0, 2.0, 3.0], tf.float16)"


def _both(expr: str) -> list[tuple[str, Callable[[Any], Any]]]:
    """(suffix, program) eagerly and traced."""
    return [("", _eager(expr)), (" traced", _traced(expr))]


def _of_v(expr: str) -> Callable[[Any], Any]:
    """`expr` eagerly, of a float16 variable `v` of 3 made first."""
    def run(tf: Any) -> Any:
        v = eval(_V, {"tf": tf, "np": np})  # noqa: S307 - our own text
        tf.constant(1.0) + 1.0   # (a first op: TF's very first call in a process takes the slow path)
        return eval(expr, {"tf": tf, "np": np, "v": v})  # noqa: S307 - our own text
    return run


def _of_v_traced(expr: str) -> Callable[[Any], Any]:
    """`expr` of the variable `v` inside a tf.function (AutoGraph off), called once."""
    def run(tf: Any) -> Any:
        v = eval(_V, {"tf": tf, "np": np})  # noqa: S307 - our own text
        return tf.function(lambda: eval(expr, {"tf": tf, "np": np, "v": v}), autograph=False)()  # noqa: S307
    return run


# tf.stack of a list holding a variable: array_ops.stack's whole-list conversion (autopacking), its Python axis
# checks with TF's operators, and Pack's fast path or eager fallback by the axis' type (fourth generator seed 3501 #96)
_STACK_OF_V = [
    ("stack([1, v], axis=tf.constant(0))", "tf.stack([1, v], axis=tf.constant(0))"),
    ("stack([1, v], axis=tf.Variable(0))", "tf.stack([1, v], axis=tf.Variable(0))"),
    ("stack([1, v], axis=tf.constant(1))", "tf.stack([1, v], axis=tf.constant(1))"),
    ("stack([ndarray float32, v], axis=tf.constant(1))", "tf.stack([np.float32([1, 2, 3]), v], axis=tf.constant(1))"),
    ("stack([ndarray float16, v], axis=tf.constant(1))", "tf.stack([np.float16([1, 2, 3]), v], axis=tf.constant(1))"),
    ("stack([v, 2], axis=tf.constant(-1))", "tf.stack([v, 2], axis=tf.constant(-1))"),
    ("stack([1, v], axis=0.7)", "tf.stack([1, v], axis=0.7)"),
    ("stack([v, 1.5], axis=np.float32(0.9))", "tf.stack([v, 1.5], axis=np.float32(0.9))"),
    ("stack([float16 [3], v], axis=tf.constant(1.9))", f"tf.stack([{_H3}, v], axis=tf.constant(1.9))"),
    ("stack([1, v], axis=tf.constant(1.9))", "tf.stack([1, v], axis=tf.constant(1.9))"),
    ("stack([v, 1.5], axis=np.int64(1))", "tf.stack([v, 1.5], axis=np.int64(1))"),
    ("stack([1, v], axis=tf.constant(True))", "tf.stack([1, v], axis=tf.constant(True))"),
    ("stack([1, v], axis=tf.constant([1]))", "tf.stack([1, v], axis=tf.constant([1]))"),
    ("stack([float16 [3], v], axis=tf.constant(1, uint8))", f"tf.stack([{_H3}, v], axis=tf.constant(1, tf.uint8))"),
    ("stack([[1.0, 2.0, 3.0], v])", "tf.stack([[1.0, 2.0, 3.0], v])"),
    ("stack([v, [1.0, 2.0, 3.0]])", "tf.stack([v, [1.0, 2.0, 3.0]])"),
]

CASES: list[tuple[str, str, Callable[[Any], Any]]] = [
    *[(name, _C, _of_v(expr)) for name, expr in _STACK_OF_V],
    *[(f"{name} traced", _C, _of_v_traced(expr)) for name, expr in _STACK_OF_V if "tf.constant(True)" not in expr
      and "tf.constant(0)" not in expr and "Variable(0)" not in expr],
    *[(f"{name}{s}", _C, run) for name, expr in (
        ("stack([1, float16])", f"tf.stack([1, {_H}])"),
        ("stack([[float16], [1]])", f"tf.stack([[{_H}], [1]])"),
        ("stack([[float16], [1]], axis=1)", f"tf.stack([[{_H}], [1]], axis=1)"),
        ("stack([[1, float16], [float16, 2]], axis=-1)", f"tf.stack([[1, {_H}], [{_H}, 2]], axis=-1)"),
        ("stack([np.int64(3), float16])", f"tf.stack([np.int64(3), {_H}])"),
        ("stack([1e40, float16])", f"tf.stack([1e40, {_H}])"),
        ("stack([1e40, float16], axis=-1)", f"tf.stack([1e40, {_H}], axis=-1)"),
        ("stack([float16, [1, 2]])", f"tf.stack([{_H}, [1, 2]])"),
        ("stack([float16, 'a'])", f"tf.stack([{_H}, 'a'])"),
        ("stack([int32, float16])", f"tf.stack([tf.constant(1), {_H}])"),
        ("convert_to_tensor([1, float16])", f"tf.convert_to_tensor([1, {_H}])"),
        ("convert_to_tensor([[float16, float16], [1]])", f"tf.convert_to_tensor([[{_H}, {_H}], [1]])"),
        # -- range converts each argument alone, then casts to the widest (seed 1420353001 #87)
        ("range(np.float64(0.1), delta=1e-6)", "tf.range(start=np.float64(0.1), delta=1e-6)"),
        ("range(0, np.float64(1.0), 0.1)", "tf.range(0, np.float64(1.0), 0.1)"),
        ("range(np.float16(0.1), 1, 0.3)", "tf.range(np.float16(0.1), 1, 0.3)"),
        ("range(1, 2.5, np.float64(0.1))", "tf.range(1, 2.5, np.float64(0.1))"),
        ("range(np.float64(0.5), 2**31 + 3)", "tf.range(np.float64(2**31 - 0.5), 2**31 + 3)"),
        # -- meshgrid multiplies with the operator, a logical and for bool (seed 1420353001 #97)
        ("meshgrid(True)", "tf.meshgrid(True)"),
        ("meshgrid([True, False], [False])", "tf.meshgrid([True, False], [False])"),
        ("meshgrid([True], [False, True], indexing='ij')", "tf.meshgrid([True], [False, True], indexing='ij')"),
    ) for s, run in _both(expr)],
    # -- the attrs a generated op checks before its inputs' conversion and its kernel (seeds 1420353001 #118, #159,
    # 1420353002 #204)
    *[(f"{name}{s}", _AT, run) for name, expr in (
        ("uint32 scalar @ bfloat16 scalar", "tf.constant(np.uint32(7)) @ tf.constant(0.001, dtype=tf.bfloat16)"),
        ("bfloat16 @ int32", "tf.constant([[0.001]], tf.bfloat16) @ tf.constant([[7]])"),
        ("float64 @ bfloat16", "tf.constant([[7.0]], tf.float64) @ tf.constant([[0.001]], tf.bfloat16)"),
        ("float16 @ bfloat16", "tf.constant([[7.0]], tf.float16) @ tf.constant([[0.001]], tf.bfloat16)"),
        ("int8 @ bfloat16", "tf.constant([[7]], tf.int8) @ tf.constant([[0.001]], tf.bfloat16)"),
        ("float32 @ bfloat16", "tf.constant([[7.0, -0.5]]) @ tf.constant([[0.001], [3.0]], tf.bfloat16)"),
        ("bfloat16 @ float32 (transpose_b)", "tf.linalg.matmul(tf.constant([[0.001, 2.0]], tf.bfloat16), "
                                             "tf.constant([[3.0, 0.25], [1.5, -1.0]]), transpose_b=True)"),
        ("as_string([[-0.0, 1e300]], scientific=1)", "tf.strings.as_string([[-0.0, 1e300]], precision=3, "
                                                     "scientific=1, shortest=1)"),
        ("as_string([1e300], width=2.5)", "tf.strings.as_string([1e300], width=2.5)"),
        ("as_string([1.5], fill=3)", "tf.strings.as_string([1.5], fill=3)"),
        ("space_to_batch_nd(complex64, TensorShape([]), float32 [])",
         "tf.space_to_batch_nd(tf.constant(complex(1e-40, 3e+38), dtype=np.complex64), tf.TensorShape([]), "
         "tf.constant([]))"),
        ("space_to_batch_nd(complex64, [], int32 [])",
         "tf.space_to_batch_nd(tf.constant(complex(1, 2), dtype=np.complex64), [], tf.constant([], tf.int32))"),
        ("space_to_batch_nd(complex64, float32 block, [])",
         "tf.space_to_batch_nd(tf.constant(complex(1, 2), dtype=np.complex64), tf.constant([]), [])"),
        ("batch_to_space(complex64 [4, 1, 1, 1], [2, 2], float32 crops)",
         "tf.batch_to_space(tf.ones([4, 1, 1, 1], tf.complex64), [2, 2], tf.constant([[0.0, 0.0], [0.0, 0.0]]))"),
    ) for s, run in _both(expr)],
    # -- an input's type before the attrs' list lengths; StridedSlice's vectors (seeds 1420353001 #54, 1420353002 #146)
    *[(f"{name}{s}", _T, run) for name, expr in (
        ("extract_volume_patches(complex64, ksizes=[])", "tf.extract_volume_patches(tf.constant(np.complex64(2.5 - "
                                                         "1.5j)), ksizes=[], strides=(), padding='SAME')"),
        ("extract_volume_patches(float32, ksizes=[])", "tf.extract_volume_patches(tf.constant([1.0, 2.0]), ksizes=[], "
                                                       "strides=(), padding='SAME')"),
        ("extract_volume_patches(bool, ksizes=[1] * 5, strides=3)",
         "tf.extract_volume_patches(tf.ones([1, 2, 2, 2, 1], tf.bool), ksizes=[1] * 5, strides=3, padding='SAME')"),
        ("strided_slice(begin=[[0]], end=[0])", "tf.strided_slice([[[0, 1], [0, -1]], [[0, -2147483648], [1, -1]]], "
                                                "begin=[[0]], end=[0])"),
        ("strided_slice(begin=[[1]], end=[[2]])", "tf.strided_slice([1, 2, 3], begin=[[1]], end=[[2]])"),
        ("strided_slice(strides=[[1]])", "tf.strided_slice([1, 2, 3], begin=[1], end=[2], strides=[[1]])"),
        ("strided_slice(begin=tf.constant(1), end=[2])", "tf.strided_slice([1, 2, 3], begin=tf.constant(1), end=[2])"),
        ("strided_slice(begin=[1], end=[2])", "tf.strided_slice([1, 2, 3], begin=[1], end=[2])"),
    ) for s, run in _both(expr)],
    # -- random bounds of any shape broadcast through `rnd * (maxval - minval) + minval` (seed 1420353001 #168)
    *[(f"{name}{s}", _R, run) for name, expr in (
        ("stateless_uniform([], maxval=float16 [1])", "tf.random.stateless_uniform([], minval=False, "
                                                      "maxval=np.array([0.5], dtype=np.float16), seed=[1, 2])"),
        ("stateless_uniform([2], minval=[0.0, 1.0])", "tf.random.stateless_uniform([2], minval=[0.0, 1.0], "
                                                      "maxval=2.0, seed=[3, 4])"),
        ("stateless_random_saturation(upper=float16 [1])",
         "tf.image.stateless_random_saturation(tf.ones([1, 1, 2, 3]), 0.5, upper=np.array([0.9], dtype=np.float16), "
         "seed=[1, 2])"),
        ("stateless_random_saturation(int32 image, upper=float16 [1])",
         "tf.image.stateless_random_saturation(tf.constant([[[[5], [5], [3], [-2147483648]]]]), False, "
         "upper=np.array([0.5], dtype=np.float16), seed=tf.constant([1, 2], tf.int32))"),
    ) for s, run in _both(expr)],
]

EDGES = edge_compare.EdgeModule(__file__, CASES, agree=lambda case: edge_compare.parts_agree)


@pytest.fixture(scope="module")
def tf_results() -> dict[int, Any]:
    return EDGES.tf_answers()


@clause("ops.conversion")
@EDGES.parametrize("ops.conversion")
def test_stack_range_and_meshgrid_conversions(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


@clause("ops.attr-types")
@EDGES.parametrize("ops.attr-types")
def test_attrs_before_inputs_and_kernels(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


@clause("function.trace-time-errors")
@EDGES.parametrize("function.trace-time-errors")
def test_input_types_and_slice_vectors(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


@clause("ops.random-arguments")
@EDGES.parametrize("ops.random-arguments")
def test_random_bounds_of_any_shape(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


def test_every_case_has_a_test() -> None:
    untested = EDGES.untested()
    assert not untested, f"cases of groups {untested} have no test function above"


if __name__ == "__main__":  # TF worker: python test_fz35b_edges_tf.py 0,1,2 -> pickled results on stdout
    tf_workers.serve(EDGES.tf_worker)
