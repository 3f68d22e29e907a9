"""Rules behind the disagreement classes fz44b closed, found by fz43's throwaway generator (tests/fuzz43/fz43_gen.py
seeds 43001-43004: the classes fz43b left open), each against real TensorFlow 2.21: the same call on both backends
gives the same dtype and values bit for bit (a NaN matching any NaN), or raises the same exception class, eagerly and
in a tf.function. Needs the `tf` extra.
"""

from __future__ import annotations

from typing import Any

import pytest

import edge_compare
from edge_programs import eager as _eager, traced as _traced
import tf_workers

pytestmark = [pytest.mark.tf, tf_workers.tf_or_golden(__file__)]
clause = pytest.mark.clause

_K = "ops.fuzz-raw"
_T = "function.trace-time-errors"
_C = "ops.conversion"
_V = "function.trace-once"
_H = "ops.host-cpu"


def _both(calls: tuple[str, ...], group: str) -> list[tuple[str, str, object]]:
    out = []
    for call in calls:
        out.append((call, group, _eager(call)))
        out.append((f"{call} in a tf.function", _T, _traced(call)))
    return out


# --- Reshape's shape (type attr Tshape: int32, int64, default int32) and SplitV's size_splits (Tlen: int8, int32,
# int64) converted as their generated ops convert them: a float or string list keeps its dtype, which the NodeDef
# refuses (op_def_library's TypeError in a graph); an ndarray of floats is cast on the fast path; Reshape's kernel
# takes a vector or a scalar, its shape function a vector only; SplitV's kernel wants a vector (seeds 43003, 43004)
def _shape_cases() -> list[tuple[str, str, object]]:
    return _both((
        "tf.reshape([1, 2, 3, 4], tf.constant([[1, 2], [3, 4]], tf.int64))", "tf.reshape([1, 2, 3, 4], [[2, 2]])",
        "tf.reshape([1, 2, 3, 4], [2.0, 2.0])", "tf.reshape(tf.constant([1, 2, 3, 4]), [2.0, 2.0])",
        "tf.reshape([1, 2, 3, 4], tf.constant([2.0, 2.0]))", "tf.reshape([1, 2, 3, 4], 4.0)",
        "tf.reshape(tf.constant([1, 2, 3, 4]), 4.0)", "tf.reshape([1, 2, 3, 4], float('nan'))",
        "tf.reshape([1, 2, 3, 4], 'a')", "tf.reshape(tf.constant([1, 2, 3, 4]), ['a'])",
        "tf.reshape(tf.constant([1, 2, 3, 4]), 4)", "tf.reshape(tf.constant([1]), -1)",
        "tf.reshape(tf.constant([1, 2, 3, 4]), [None, 2])", "tf.reshape(tf.constant([1, 2, 3, 4]), [2, 2.0])",
        "tf.reshape(tf.constant([1, 2, 3, 4]), np.array([2.0, 2.0]))",
        "tf.reshape(tf.constant([1, 2, 3, 4]), np.array([[2, 2]]))", "tf.reshape(tf.constant([1, 2, 3, 4]), [True, 4])",
        "tf.reshape(tf.constant([1, 2, 3, 4]), np.array([2, 2], np.uint8))",
        "tf.reshape(tf.constant([1, 2, 3, 4]), tf.constant([2, 2], tf.int16))",
        "tf.reshape(tf.constant([1, 2, 3, 4]), [tf.constant(2), -1])",
        "tf.split([], [[1.5, 2.0, -3.0], [4.0, 0.25, 7.0]])", "tf.split([1, 2, 3], [1.0, 2.0])",
        "tf.split(tf.constant([1, 2, 3]), [1, 2.0])", "tf.split(tf.constant([1, 2, 3]), [1.0, 2.0], axis=3)",
        "tf.split(tf.constant([1, 2, 3]), ['a', 'b'])", "tf.split([1, 2, 3], tf.constant([1, 2], tf.int16))",
        "tf.split([1, 2, 3], np.array([1, 2], np.uint8))", "tf.split([1, 2, 3], np.array([1, 2], np.int64))",
    ), _C) + [
        # (a matrix of sizes: eagerly the kernel's "must be 1-D"; TF 2.21's graph build aborts the process on it)
        (call, _C, _eager(call)) for call in (
            "tf.split(tf.constant([[1, 2], [3, 4]], tf.int64), [[0, 1], [2, 3]])", "tf.split([1, 2, 3], [[1, 2]])",
            "tf.split([1, 2, 3], tf.constant([[1, 2]]))")]


# --- repeat's convert_to_int_tensor(repeats) (an integer dtype, else TypeError), Squeeze's make_int axis (TypeError
# for NaN or a string, int64's range), LowerBound's kernel lookup before the dtypes' match eagerly (seeds 43003, 43004)
def _arg_cases() -> list[tuple[str, str, object]]:
    return _both((
        "tf.repeat(float('nan'), float('nan'))", "tf.repeat([1, 2], 1.5)", "tf.repeat(tf.constant([1, 2]), 2.0)",
        "tf.repeat([1, 2], 'a')", "tf.repeat([1, 2], True)", "tf.repeat(tf.constant([1, 2]), tf.constant(True))",
        "tf.repeat(tf.constant([1, 2]), np.float64(2.0))", "tf.repeat(tf.constant([1, 2]), tf.constant(2, tf.int64))",
        "tf.repeat(tf.constant([1, 2]), 1+2j)", "tf.repeat(tf.constant([1, 2]), None)",
        "tf.repeat(tf.constant([[1, 2], [3, 4]]), 2, axis=1)",
        "tf.squeeze(tf.ones([1, 2, 2, 1]), float('nan'))", "tf.squeeze(tf.ones([1, 2, 2, 1]), [float('nan')])",
        "tf.squeeze(tf.ones([1, 2, 2, 1]), 'a')", "tf.squeeze(tf.ones([1, 2, 2, 1]), [0, 'a'])",
        "tf.squeeze(tf.ones([1, 2, 2, 1]), float('inf'))", "tf.squeeze(tf.ones([1, 2, 2, 1]), 1e20)",
        "tf.squeeze(tf.ones([1, 2, 2, 1]), [0, 3.0])", "tf.squeeze(tf.ones([1, 2, 2, 1]), [None])",
        "tf.searchsorted([True, False], [1, -2, 3])", "tf.searchsorted([True, False], [True])",
        "tf.searchsorted([1, 2], [True])", "tf.searchsorted(['a', 'b'], [1])",
        "tf.searchsorted([True, False], [1], side='right')", "tf.searchsorted([1.0, 2.0], [1.5, 2.0])",
    ), _K)


# --- tf.strings.length: make_str(unit), then the input's conversion (and a graph's dtype check), then the unit's
# allowed values; tf.strings.split's sep is a string input converted with convert_to_tensor(sep, string), a scalar
# for the kernel (seeds 43003, 43004)
def _string_cases() -> list[tuple[str, str, object]]:
    return _both((
        "tf.strings.length(np.array([255, 0], np.uint8), 'hello')", "tf.strings.length(np.array([255, 0], np.uint8), 5)",
        "tf.strings.length([-float('inf'), 1e-40, 3e38], 'hello')", "tf.strings.length([1.0], 5)",
        "tf.strings.length(tf.constant([1.0]), 'hello')", "tf.strings.length(['a'], 'hello')",
        "tf.strings.length(['ab', ''], b'UTF8_CHAR')",
        "tf.strings.split(b'\\xc3\\xa9t', [])", "tf.strings.split('a  b', tf.constant(' '))", "tf.strings.split(b'\\xc3\\xa9t', tf.constant([3, 1, 2]))",
        "tf.strings.split(['a b', 'c'], ['a']).to_tensor()", "tf.strings.split(['a b', 'c'], tf.constant('a')).to_tensor()",
        "tf.strings.split(['a b', 'c'], 3).to_tensor()", "tf.strings.split(['a b', 'c'], np.array('b')).to_tensor()",
        "tf.strings.split(['a b', 'c'], [['x']]).to_tensor()", "tf.strings.split('a b', tf.constant(['a', 'b']))",
        "tf.strings.split(['a b'], ' ', maxsplit='a').to_tensor()", "tf.strings.split(['a b c'], ' ', maxsplit=1).to_tensor()",
        "tf.strings.split(tf.ragged.constant([['a b'], []]), tf.constant(' ')).flat_values",
    ), _K)


# --- a tf.Variable made on every run of a tf.function: TF's second trace of the first call (creation refused)
# creates it again, ValueError on the first call (seeds 43001, 43003, 43004)
def _variable_cases() -> list[tuple[str, str, object]]:
    return [(f"{call} in a tf.function", _V, _traced(call)) for call in (
        "tf.math.cumulative_logsumexp(tf.Variable([0.5, -0.5]))", "tf.strings.as_string(tf.Variable([0.5, -0.5]))",
        "tf.nn.softmax_cross_entropy_with_logits(tf.Variable([0.5, -0.5]), tf.constant([1.0, -1.0], tf.bfloat16))",
        "tf.nn.tanh(tf.Variable([0.5, -0.5]))", "tf.Variable(1.0) + tf.Variable(2.0)",
    )] + [("singleton: calls, Python runs, tracing count", _V, _singleton),
          ("recreated: three calls' errors, Python runs, tracing count, an outer variable", _V, _recreated)]


def _singleton(tf: Any) -> tuple:
    """A function that creates its variable once (the guard reads it): its values, how often its Python ran after
    the second and third calls (TF runs it twice on the first call; simdist once then, once more at the second
    call's recording: runtime/variable_creation.py)."""
    box: list = []
    runs = [0]

    def f(x: Any) -> Any:
        runs[0] += 1
        if not box:
            box.append(tf.Variable(2.0))
        box[0].assign_add(x)
        return box[0].read_value()
    g = tf.function(f)
    out = []
    for i in range(3):
        out.append(float(g(tf.constant(1.0)).numpy()))
        if i:
            out.append(runs[0])
    return tuple(out) + (g.experimental_get_tracing_count(),)


def _recreated(tf: Any) -> tuple:
    """A function that creates a variable on every run, writing another: each call's error class, the Python
    runs after each, the tracing count, and the other variable's value (the failed graph never ran)."""
    w = tf.Variable(10.0)
    runs = [0]

    def f() -> Any:
        runs[0] += 1
        w.assign_add(1.0)
        return tf.Variable(1.0) + w
    g = tf.function(f, autograph=False)
    out: list = []
    for _ in range(3):
        try:
            g()
            out.append("ok")
        except Exception as e:  # noqa: BLE001 - the class is the answer
            out.append(type(e).__name__)
        out.append(runs[0])
    return tuple(out) + (g.experimental_get_tracing_count(), float(w.numpy()))


# --- small float32 products on a host without oneDNN (Eigen's kernels: rounded products summed in order), as
# rgb_to_yiq of one or two pixels (seed 43004); on a oneDNN host the fused order (contraction_order.py)
def _product_cases() -> list[tuple[str, str, object]]:
    return _both((
        "tf.image.rgb_to_yiq([1.0, -2.5, 0.5])", "tf.image.rgb_to_yiq([[1.0, -2.5, 0.5], [0.3, 0.2, 0.1]])",
        "tf.image.rgb_to_yuv([1.0, -2.5, 0.5])", "tf.image.yuv_to_rgb([1.0, -2.5, 0.5])",
        "tf.linalg.matmul([[1.0, -2.5, 0.5]], [[0.299, 0.5959, 0.2115], [0.587, -0.2746, -0.5227], [0.114, -0.3213, 0.3112]])",
        "tf.linalg.matmul([[0.1, 0.7, 0.35, -1.25, 3.5, 0.3, 0.2]], tf.reshape(tf.range(-1.3, 2.2, 0.25)[:14], [7, 2]))",
        "tf.linalg.matmul([[0.3, 0.2], [0.1, 0.7], [0.35, 0.9]], [[0.299, 0.5959, 0.2115], [0.587, -0.2746, -0.5227]])",
        "tf.tensordot([0.3, 0.2, 0.1], [[0.299, 0.5959], [0.587, -0.2746], [0.114, -0.3213]], 1)",
    ), _H)


# --- fz44_gen seeds 44001-44003 (round two): einsum's operand count before the dtypes, UnsortedSegmentSum's string
# refusal (a ragged reduce_sum of strings), the random ops' shape type attr, linspace's integer num, ragged.range's
# dtype assert and rank, ragged.boolean_mask of a scalar, SparseTensorDenseMatMul's shape function,
# stateless_categorical's int32 num_samples
def _round_two_cases() -> list[tuple[str, str, object]]:
    return _both((
        "tf.linalg.einsum('ij->ji', tf.ones([2, 2]), np.array([1.0, 2.0], np.float64))",
        "tf.einsum('ij,jk->ik', tf.ones([2, 2]), tf.ones([2, 2], tf.float64))",
        "tf.math.reduce_sum(tf.ragged.constant([['a', 'b'], ['c']]), axis=0)",
        "tf.math.unsorted_segment_sum(['a', 'b'], [0, 0], 1)", "tf.math.unsorted_segment_sum([1.5, 2.0], [0, 0], 1)",
        "tf.random.stateless_truncated_normal([2.5], seed=(7, 0))", "tf.random.stateless_normal(tf.constant([2.0]), seed=(7, 0))",
        "tf.random.stateless_uniform([2.0, 1.0], seed=(7, 0))", "tf.random.stateless_uniform(2.0, seed=(7, 0))",
        "tf.random.stateless_uniform(['a'], seed=(7, 0))",
        "tf.random.stateless_uniform([2.5], seed=(7, 0), minval=0, maxval=10, dtype=tf.int32)",
        "tf.random.stateless_uniform(np.array([2], np.int64), seed=(7, 0))",
        "tf.random.stateless_categorical([[1.0, 2.0]], 2.5, seed=(7, 0))",
        "tf.linspace(0.0, 1.0, 4.0)", "tf.linspace(0.0, 1.0, tf.constant(4.0))", "tf.linspace(0.0, 1.0, np.int64(4))",
        "tf.signal.linear_to_mel_weight_matrix(num_mel_bins=4.0, num_spectrogram_bins=5, sample_rate=8000)",
        "tf.ragged.range([True, False], [1, 0, 3]).to_tensor()", "tf.ragged.range(np.array([1, 2], np.int16), 4).to_tensor()",
        "tf.ragged.range(tf.constant([[3, 1], [2, 5]]), 4).to_tensor()", "tf.ragged.range([1, 2], 4.5).to_tensor()",
        "tf.ragged.boolean_mask(2.5, tf.constant([True, False])).to_tensor()",
        "tf.ragged.boolean_mask([1, 2], [True, False]).to_tensor()",
        "tf.sparse.sparse_dense_matmul(tf.sparse.from_dense(tf.ones([2, 3, 4])), tf.ones([4, 2]))",
        "tf.sparse.sparse_dense_matmul(tf.sparse.from_dense(tf.ones([2, 3])), tf.ones([3]))",
        "tf.sparse.sparse_dense_matmul(tf.sparse.from_dense([[1.0, 0.0, 2.0]]), tf.ones([3, 2]))",
    ), _K)


# --- TF's own float32 LRN on a host without oneDNN (band-matrix sums, Eigen's rsqrt or reciprocal packet; seed 44001)
def _lrn_cases() -> list[tuple[str, str, object]]:
    return _both((
        "tf.nn.local_response_normalization(tf.reshape(tf.range(16.0) / 5.0, [1, 4, 4, 1]), depth_radius=5)",
        "tf.nn.local_response_normalization(tf.reshape(tf.range(48.0) / 47.0, [2, 2, 4, 3]), depth_radius=1)",
        "tf.nn.local_response_normalization(tf.reshape(tf.range(48.0) / 47.0, [2, 2, 4, 3]), depth_radius=2, beta=1.0,"
        " bias=2.0, alpha=0.5)",
        "tf.nn.local_response_normalization(tf.reshape(tf.range(-8.0, 16.0) / 3.0, [1, 2, 4, 3]), depth_radius=0)",
    ), _H)


CASES: list[tuple] = [
    *_shape_cases(),
    *_arg_cases(),
    *_string_cases(),
    *_variable_cases(),
    *_product_cases(),
    *_round_two_cases(),
    *_lrn_cases(),
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


@clause("ops.conversion")
@EDGES.parametrize("ops.conversion")
def test_conversion(k: int, tf_results: dict[int, object]) -> None:
    EDGES.check(k, tf_results)


@clause("function.trace-once")
@EDGES.parametrize("function.trace-once")
def test_variables_made_in_a_function(k: int, tf_results: dict[int, object]) -> None:
    EDGES.check(k, tf_results)


@clause("ops.host-cpu")
@EDGES.parametrize("ops.host-cpu")
def test_small_products_order(k: int, tf_results: dict[int, object]) -> None:
    EDGES.check(k, tf_results)


def test_every_case_has_a_test() -> None:
    untested = EDGES.untested()
    assert not untested, f"cases of groups {untested} have no test function above"


if __name__ == "__main__":  # TF worker: python test_fz44b_edges_tf.py 0,1,2 -> pickled results on stdout
    tf_workers.serve(EDGES.tf_worker)
