"""Rules behind the disagreement classes fz45b closed, found by fz44b's generator (tests/fuzz44/fz44_gen.py seeds
44005-44010) and fz45b's chained-program generator (tests/fuzz45/fz45_gen.py seeds 45001-): each against real
TensorFlow 2.21, the same call on both backends gives the same dtype and values bit for bit (a NaN matching any NaN),
or raises the same exception class, eagerly and in a tf.function. Needs the `tf` extra.
"""

from __future__ import annotations

import pytest

import edge_compare
from edge_programs import eager as _eager, tape as _tape, traced as _traced
import tf_workers

pytestmark = [pytest.mark.tf, tf_workers.tf_or_golden(__file__)]
clause = pytest.mark.clause

_K = "ops.fuzz-raw"
_T = "function.trace-time-errors"
_H = "ops.host-cpu"


def _both(calls: tuple[str, ...], group: str) -> list[tuple[str, str, object]]:
    out = []
    for call in calls:
        out.append((call, group, _eager(call)))
        out.append((f"{call} in a tf.function", _T, _traced(call)))
    return out


# --- shape functions a tf.function's graph runs where eagerly the kernel refuses: TopKV2's k (MakeDimForScalarInput),
# SparseTensorDenseMatMul's inner dimensions from a_shape's known value, ReduceJoin's reduction indices, RaggedRange's
# vector lengths (the later one named first); resize_with_pad's zero size in the static shape (pad_to_bounding_box's
# _CheckAtLeast3DImage); a kernel's run-time refusal (Where of a scalar, GatherNd of a scalar params) the trace goes
# past to a later op's build error, and Where's float16 refusal a run-time error too, which a missing kernel elsewhere
# in the graph precedes; ScatterNdShapeHelper's refusal of indices or updates for an output the graph knows to be
# empty (fz44_gen seeds 44005-44009, fz45_gen seeds 45002, 45003)
def _shape_fn_cases() -> list[tuple[str, str, object]]:
    return _both((
        "tf.math.top_k([1, -2, 3], k=-1, sorted=True)", "tf.math.top_k([1, -2, 3], k=tf.constant(-1))",
        "tf.math.top_k([[1.0, 2.0]], k=0)",
        "tf.sparse.sparse_dense_matmul(tf.sparse.from_dense([[1.5, 2.0, -3.0], [4.0, 0.25, 7.0]]), "
        "tf.constant([[2.0, 1.0], [1.0, 3.0]]))",
        "tf.sparse.sparse_dense_matmul(tf.sparse.from_dense([[]]), [[1.5, 2.0, -3.0], [4.0, 0.25, 7.0]])",
        "tf.sparse.sparse_dense_matmul(tf.sparse.from_dense([[1.5, 0.0], [0.0, 7.0]]), tf.ones([3, 2]), adjoint_a=True)",
        "tf.sparse.sparse_dense_matmul(tf.sparse.from_dense([[1.5, 0.0, 2.0]]), tf.ones([2, 3]), adjoint_b=True)",
        "tf.sparse.sparse_dense_matmul(tf.sparse.from_dense([[1.5, 2.0, -3.0], [4.0, 0.25, 7.0]]), tf.ones([3, 2]))",
        "tf.sparse.sparse_dense_matmul(tf.sparse.from_dense(float('nan')), [[1.5, 2.0, -3.0], [4.0, 0.25, 7.0]])",
        "tf.strings.reduce_join('hello', axis=2, separator='')", "tf.strings.reduce_join(['a', 'b'], axis=-2)",
        "tf.strings.reduce_join([['a', 'b'], ['c', 'd']], axis=[1, 2])", "tf.strings.reduce_join([['a', 'b']], axis=-1)",
        "tf.ragged.range(np.array([9223372036854775807, -1], np.int64), [1, 0, 3]).to_tensor()",
        "tf.ragged.range([1, 2], [3, 4, 5], [1, 1, 1]).to_tensor()", "tf.ragged.range([1, 2, 3], 5, [1, 2]).to_tensor()",
        "tf.raw_ops.RaggedRange(starts=[1, 2], limits=[3, 4, 5], deltas=1)",
        "tf.image.resize_with_pad(tf.reshape(tf.range(48.0) / 47.0, [2, 2, 4, 3]), 1, 1)",
        "tf.image.resize_with_pad(tf.reshape(tf.range(24.0) / 47.0, [2, 4, 3]), 3, 1, method='nearest')",
        "tf.image.resize_with_pad(tf.reshape(tf.range(24.0) / 47.0, [2, 4, 3]), 1, 3)",
        "tf.where(3.0)", "tf.where(tf.constant(1.0, tf.float16))", "tf.where(tf.constant([1.0, 0.0], tf.float16))",
        "(tf.where(tf.constant([1.0], tf.float16)), tf.truncatemod(tf.constant([1.0], tf.bfloat16), "
        "tf.constant([3.0], tf.bfloat16)))",
        "tf.gather_nd(2.0, tf.zeros([0, 0], tf.int32))",
        "tf.scatter_nd([[0], [1]], tf.zeros([2, 4, 0]), [1, 4, 0])",
        "tf.scatter_nd([[0], [1]], tf.zeros([2, 4, 0]), tf.constant([1, 4, 0]))",
        "tf.scatter_nd(tf.zeros([0, 1], tf.int32), tf.zeros([0, 4, 0]), [1, 4, 0])",
        "tf.scatter_nd([[0]], [[1.0, 2.0]], [2, 0])",
        # einsum without a summed label: a product of the broadcast operands (a zero keeps its sign; FTZ/DAZ), and
        # one operand's transpose or diagonal moves the values (subnormals kept) (fz45_gen seed 45004)
        "tf.einsum('i,j->ij', tf.constant([2.0, 1.0]), tf.constant([-0.0, 1.0, 3.0]))",
        "tf.einsum('i,j->ij', tf.constant([2.0, 1.0], tf.float64), tf.constant([-0.0, 1.0, 3.0], tf.float64))",
        "tf.einsum('bi,bj->bij', tf.constant([[2.0, 1.0]] * 2), tf.constant([[-0.0, 1.0, 3.0]] * 2))",
        "tf.einsum('ij,ij->ij', tf.constant([[2.0, -1.0]]), tf.constant([[-0.0, 0.0]]))",
        "tf.einsum('i,j->ji', tf.constant([1e-20, 1.0]), tf.constant([1e-20, 1.0, 3.0]))",
        "tf.einsum('i,j->ij', tf.constant([1e-45, 1.0]), tf.constant([1.0, 1.0, 3.0]))",
        "tf.einsum('ij,jk->ik', tf.constant([[2.0], [1.0]]), tf.constant([[-0.0, 1.0, 3.0]]))",
        "tf.einsum('ij->ji', tf.constant([[1e-45, -1e-45], [2.0, 3.0]]))",
        "tf.einsum('...ij->...ji', tf.reshape(tf.constant([1e-45, -1e-45, 2.0, 3.0]), [1, 2, 2]))",
        "tf.einsum('ijk->kji', tf.reshape(tf.constant([1e-45, -1e-45, 2.0, 3.0]), [1, 2, 2]))",
        "tf.einsum('ii->i', tf.constant([[1e-45, -1e-45], [2.0, 3.0]]))",
        "tf.einsum('ij->j', tf.constant([[1e-45, -1e-45], [2.0, 3.0]]))",
        "tf.linalg.tensordot(tf.constant([[[[1.0], [2.0]], [[3.0], [4.0]]]]), [[0.0, -0.0], [float('nan'), float('inf')]], "
        "axes=0)",
        "tf.tensordot(tf.constant([2.0, 1.0], tf.float64), tf.constant([-0.0, 1.0], tf.float64), axes=0)",
    ), _K)


# --- small float32 products on a host without oneDNN (TF's Eigen kernel: two accumulators over k's even and odd
# terms, an odd k's last term after their sum; rows in blocks of six, a last block of one or two rows unfused), in
# MatMul with any transposes, a batch of one, einsum, tensordot and a product's gradient; a batch of two or more small
# products in order with rounded products (fz45_gen seeds 45001, 45002)
_A = "tf.reshape(tf.range({n}.0) / 7.0 - 1.1, {s})"


def _product_cases() -> list[tuple[str, str, object]]:
    calls = []
    for m, k, n in ((2, 4, 2), (2, 5, 3), (3, 4, 2), (4, 4, 4), (4, 3, 2), (5, 6, 4), (7, 4, 2), (8, 6, 4),
                    (6, 9, 8), (13, 10, 3), (14, 17, 5), (3, 64, 2)):
        a = _A.format(n=m * k, s=[m, k])
        b = f"tf.reshape(tf.range({k * n}.0) / 3.0 - 2.3, [{k}, {n}])"
        calls.append(f"tf.linalg.matmul({a}, {b})")
    calls += [
        f"tf.linalg.matmul({_A.format(n=20, s=[4, 5])}, tf.reshape(tf.range(15.0) / 3.0 - 2.3, [3, 5]), transpose_b=True)",
        f"tf.linalg.matmul({_A.format(n=20, s=[5, 4])}, tf.reshape(tf.range(15.0) / 3.0 - 2.3, [5, 3]), transpose_a=True)",
        f"tf.linalg.matmul({_A.format(n=12, s=[3, 4])}, tf.reshape(tf.range(8.0) / 3.0 - 2.3, [2, 4]), transpose_a=False, "
        "transpose_b=True)",
        f"tf.linalg.matmul({_A.format(n=24, s=[1, 4, 6])}, tf.reshape(tf.range(18.0) / 3.0 - 2.3, [1, 6, 3]))",
        f"tf.einsum('ij,jk->ik', {_A.format(n=21, s=[3, 7])}, tf.reshape(tf.range(14.0) / 3.0 - 2.3, [7, 2]))",
        f"tf.einsum('bij,jk->bik', {_A.format(n=20, s=[1, 4, 5])}, tf.reshape(tf.range(15.0) / 3.0 - 2.3, [5, 3]))",
        f"tf.tensordot({_A.format(n=8, s=[1, 2, 4])}, tf.reshape(tf.range(8.0) / 3.0 - 2.3, [4, 2]), axes=1)",
        "tf.linalg.matmul([[0.1, 0.3, -0.7, 1.1], [2.2, 0.5, 123.456, 1e-3]], [[0.3, 1.1], [-0.7, 0.1], [2.2, 0.3], "
        "[1e-3, -1.5]])",
        "tf.linalg.matmul([[float('inf'), 1.0], [2.0, -3.0], [0.5, 3e38]], [[3e38, 1.0], [2.0, -1.0]])",
        # a batch of two or more small products: in order, rounded products (y not transposed)
        f"tf.linalg.matmul({_A.format(n=24, s=[2, 3, 4])}, tf.reshape(tf.range(24.0) / 3.0 - 2.3, [2, 4, 3]))",
        f"tf.einsum('bij,bjk->bik', {_A.format(n=40, s=[4, 2, 5])}, tf.reshape(tf.range(40.0) / 3.0 - 2.3, [4, 5, 2]))",
        f"tf.linalg.matmul({_A.format(n=30, s=[2, 3, 5])}, tf.reshape(tf.range(10.0) / 3.0 - 2.3, [5, 2]))",
        f"tf.linalg.matmul({_A.format(n=30, s=[2, 5, 3])}, tf.reshape(tf.range(24.0) / 3.0 - 2.3, [2, 3, 8]), "
        "transpose_a=True)",
        f"{_A.format(n=42, s=[3, 2, 7])} @ tf.reshape(tf.range(28.0) / 3.0 - 2.3, [7, 4])",
        "tf.einsum('bij,bjk->bik', tf.constant([[[3e38, 1.0, float('inf')], [2.0, -1.5, 0.3]], [[float('nan'), 1.0, "
        "2.0], [-float('inf'), 0.5, 3e38]]]), tf.reshape(tf.range(12.0) / 3.0 - 2.3, [2, 3, 2]))",
        "tf.einsum('ij,jk->ik', tf.constant([[3e38, 1.0, float('inf')], [2.0, -1.5, 0.3]]), "
        "tf.reshape(tf.range(6.0) / 3.0 - 2.3, [3, 2]))",
    ]
    cases = _both(tuple(calls), _H)
    src = _A.format(n=20, s=[4, 5])
    cases.append(("the gradient of sum(x @ b) for x [4, 5], b [5, 3]", _H,
                  _tape("tf.reduce_sum(tf.linalg.matmul(x, tf.reshape(tf.range(15.0) / 3.0 - 2.3, [5, 3])) ** 2)", src)))
    return cases


# --- float32 Softmax on a host without oneDNN (Eigen's SoftmaxEigenImpl): the row sums' inverse is a [batch] tensor
# TF's Reciprocal computes, preciprocal packets (the CPU's estimate and a Newton step) on the first (n // 8) * 8 rows,
# 1 / x on the tail: softmax of two equal logits is 0.49999997 in a batch of 8 rows or more (fz45_gen seed 45003)
def _softmax_cases() -> list[tuple[str, str, object]]:
    calls = []
    for rows, c in ((24, 2), (8, 2), (9, 3), (16, 5), (7, 4), (31, 9), (12, 1)):
        calls.append(f"tf.nn.softmax(tf.reshape(tf.range({rows * c}.0) / 7.0 - tf.math.floor(tf.range({rows * c}.0) "
                     f"/ 5.0), [{rows}, {c}]))")
    calls += ["tf.nn.softmax(tf.reshape(tf.constant([1.1, 1.1, 0.3, 0.5] * 12), [4, 3, 2, 2]))",
              "tf.nn.softmax(tf.reshape(tf.constant([1.1, 1.1, 0.3, 0.5] * 12), [4, 3, 2, 2]), axis=1)",
              "tf.nn.softmax(tf.reshape(tf.constant([0.25, -1.5, 2.0, 0.0] * 6, tf.float64), [12, 2]))"]
    cases = _both(tuple(calls), _H)
    cases.append(("the gradient of softmax's weighted sum, 24 rows of 2", _H,
                  _tape("tf.reduce_sum(tf.nn.softmax(x) * tf.reshape(tf.range(48.0) / 5.0, [24, 2]))",
                        "tf.reshape(tf.range(48.0) / 7.0 - tf.math.floor(tf.range(48.0) / 5.0), [24, 2])")))
    return cases


# --- StringSplitV2's whitespace split (sep empty) with maxsplit: once maxsplit tokens are taken the rest, its leading
# whitespace stripped, is the last piece, an empty one too; maxsplit 0 keeps the string whole (fz44_gen seeds 44006,
# 44008-44010); ragged reduce_mean sums first, so a string or bool ragged tensor is UnsortedSegmentSum's refusal
# (seed 44010)
def _string_cases() -> list[tuple[str, str, object]]:
    strs = "['AbC', ' x y ', '', ' ', 'a  b\\tc\\n', 'a b ', ' lead', 'x\\x0by', 'a,b,,c']"
    calls = [f"tf.strings.split({strs}, sep={sep}, maxsplit={ms}).to_tensor('?')"
             for sep in ("''", "None", "','") for ms in (-1, 0, 1, 2, 3)]
    calls += ["tf.strings.split(tf.constant(['1.5', 'nan', '-3']), sep='', maxsplit=1)",
              "tf.math.reduce_mean(tf.ragged.constant([['a', 'b'], ['c']]), axis=0)",
              "tf.math.reduce_mean(tf.ragged.constant([[True], [False, True]]), axis=1)",
              "tf.math.reduce_variance(tf.ragged.constant([['a', 'b'], ['c']]), axis=1)",
              "tf.math.reduce_mean(tf.ragged.constant([[1, 2], [3]]), axis=1)",
              "tf.math.reduce_mean(tf.ragged.constant([[1 + 1j, 2], [3]]), axis=1)"]
    return _both(tuple(calls), _K)


CASES: list[tuple] = [
    *_shape_fn_cases(),
    *_string_cases(),
    *_product_cases(),
    *_softmax_cases(),
]


EDGES = edge_compare.EdgeModule(__file__, CASES, agree=lambda case: case[3] if len(case) > 3 else edge_compare.parts_agree)


@pytest.fixture(scope="module")
def tf_results() -> dict[int, object]:
    return EDGES.tf_answers()


@clause("ops.fuzz-raw")
@EDGES.parametrize("ops.fuzz-raw")
def test_raw_kernel_checks(k: int, tf_results: dict[int, object]) -> None:
    EDGES.check(k, tf_results)


@clause("function.trace-time-errors")
@EDGES.parametrize("function.trace-time-errors")
def test_trace_time_errors(k: int, tf_results: dict[int, object]) -> None:
    EDGES.check(k, tf_results)


@clause("ops.host-cpu")
@EDGES.parametrize("ops.host-cpu")
def test_small_products_order(k: int, tf_results: dict[int, object]) -> None:
    EDGES.check(k, tf_results)


def test_every_case_has_a_test() -> None:
    untested = EDGES.untested()
    assert not untested, f"cases of groups {untested} have no test function above"


if __name__ == "__main__":  # TF worker: python test_fz45b_edges_tf.py 0,1,2 -> pickled results on stdout
    tf_workers.serve(EDGES.tf_worker)
