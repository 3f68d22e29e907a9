"""Rules behind the classes of issue 29's fresh campaigns that fz27b ran (fourteenth generator seeds
1420272701 and 1420272702, fourth generator seed 2701, third generator seed 2702 --ext8), each
against real TensorFlow 2.21: the same call on both backends gives the same dtype and values, or
raises the same exception class. Eagerly, in a tf.function (`traced`, a one-expression body;
`program`, a body of statements), and with an input_signature (`sig`: get_concrete_function on
placeholders, then a call). The `program` cases of clause function.trace-time-errors are the family
"tracing past a run-time error": TF's trace adds an op whose kernel would refuse its inputs and
goes on, so a later op's graph-build error is the call's. Needs the `tf` extra.
"""

from __future__ import annotations

import textwrap
from typing import Any, Callable

import numpy as np
import pytest

import edge_compare
from edge_programs import eager as _eager, traced as _traced, sig as _sig
import tf_workers

pytestmark = [pytest.mark.tf, tf_workers.tf_or_golden(__file__)]
clause = pytest.mark.clause

_T = "function.trace-time-errors"
_A = "ops.attr-types"
_G = "function.grappler-rewrites"


def _program(body: str, *args: str) -> Callable[[Any], Any]:
    """`body` (statements ending in a return) as a tf.function of no argument, or of the tensors
    `args` make, called once."""
    def run(tf: Any) -> Any:
        names = ", ".join(f"a{i}" for i in range(len(args)))
        env: dict[str, Any] = {"tf": tf, "np": np}
        exec(f"def f({names}):\n" + textwrap.indent(textwrap.dedent(body), "    "), env)  # noqa: S102 - our own text
        values = [eval(a, {"tf": tf, "np": np}) for a in args]  # noqa: S307 - our own text
        return tf.function(env["f"])(*values)
    return run


def _concrete(expr: str, spec: tuple[list[int] | None, str]) -> Callable[[Any], Any]:
    """get_concrete_function of `lambda x: expr` with a one-spec input_signature: its trace-time
    error, or the output's dtype name."""
    def run(tf: Any) -> Any:
        fn = eval(f"lambda x: {expr}", {"tf": tf, "np": np})  # noqa: S307 - our own text
        g = tf.function(fn, input_signature=[tf.TensorSpec(spec[0], getattr(tf, spec[1]))])
        return tf.constant(g.get_concrete_function().structured_outputs.dtype.name)
    return run


_CTC = ("tf.nn.ctc_loss([[[1, 0, -1, 3], [1, 0, 5, 1]], [[1, 2, -1, 3], [5, 5, 1, -4]]], "
        "logits=tf.ones([2, 2, 4]), label_length=tf.ones([2, 2, 4], tf.float64), "
        "logit_length=np.ones([2, 2, 4]))")

CASES: list[tuple[str, str, Any]] = [
    # parallel_stack builds in a get_concrete_function trace (1420272701 #16, #58)
    ("parallel_stack of an argument, get_concrete_function", _T, _sig(
        "tf.parallel_stack((x,))", ([4], "uint64"), "tf.constant([3, 2, 7, 3], tf.uint64)")),
    ("parallel_stack of a float16 scalar, get_concrete_function", _T, _sig(
        "tf.parallel_stack([np.float16(0.001)])", ([4], "uint64"), "tf.constant([3, 2, 7, 3], tf.uint64)")),
    ("parallel_stack eagerly", _T, _eager("tf.parallel_stack([tf.constant(1.0)])")),
    # sobel_edges of an unknown rank: Shape's length unknown, Pool's/conv's checks at the right rank (#28)
    ("sobel_edges of an unknown-rank uint64 argument, get_concrete_function", _T, _concrete(
        "tf.image.sobel_edges(x)", (None, "uint64"))),
    ("sobel_edges of an unknown-rank float32 argument, get_concrete_function", _T, _concrete(
        "tf.image.sobel_edges(x)", (None, "float32"))),
    ("Shape of an unknown-rank argument, sliced at -1", _T, _sig(
        "tf.shape(x)[-1]", (None, "float32"), "tf.constant(2.0)")),
    # stack checks the axis against the first value's rank before Pack converts the list (#46)
    ("stack of mixed dtypes, axis 1 beyond a scalar's, traced", _T, _program(
        "return tf.stack((np.float64(-1.0), tf.constant([[5, 1], [0, -4]], tf.int16), x), axis=1)",
        "tf.ones([2, 2], tf.float64)")),
    ("stack of mixed dtypes, axis 0, traced", _T, _program(
        "return tf.stack((np.float64(-1.0), tf.constant([[5, 1], [0, -4]], tf.int16), x), axis=0)",
        "tf.ones([2, 2], tf.float64)")),
    ("stack of a scalar and a matrix, axis 1", _T, _eager("tf.stack((np.float64(-1.0), tf.ones([2, 2], tf.float64)), "
                                                          "axis=1)")),
    # MatrixSolveLs's shape function at trace: an rhs of rank 0 (#91)
    ("lstsq of a scalar rhs, unknown-rank matrix, get_concrete_function", _T, _sig(
        "tf.linalg.lstsq(x, tf.constant(0.001), fast=False)", (None, "float32"), "tf.constant(4.0)")),
    ("lstsq of a scalar matrix and rhs", _T, _eager("tf.linalg.lstsq(tf.constant(4.0), tf.constant(0.001), "
                                                    "fast=False)")),
    ("lstsq of [2, 2] and [3, 1], fast=False, traced", _T, _traced(
        "tf.linalg.lstsq(tf.ones([2, 2]), tf.ones([3, 1]), fast=False)")),
    ("lstsq of [2, 2] and [3, 1], fast=False", _T, _eager("tf.linalg.lstsq(tf.ones([2, 2]), tf.ones([3, 1]), "
                                                          "fast=False)")),
    # the 3-D pools' missing float16 kernels after Pool3DShape in a graph (#120)
    ("max_pool3d of a float16 scalar, traced", _T, _traced("tf.nn.max_pool3d(tf.constant(2.5, tf.float16), [3], "
                                                           "(0,), 'VALID')")),
    ("max_pool3d of a float16 scalar", _T, _eager("tf.nn.max_pool3d(tf.constant(2.5, tf.float16), [3], (0,), "
                                                  "'VALID')")),
    ("max_pool3d of a float16 [1, 3, 3, 3, 1], traced", _T, _traced(
        "tf.nn.max_pool3d(tf.zeros([1, 3, 3, 3, 1], tf.float16), 2, 1, 'VALID')")),
    ("avg_pool3d of a float64 [1, 3, 3, 3, 1], traced", _T, _traced(
        "tf.nn.avg_pool3d(tf.zeros([1, 3, 3, 3, 1], tf.float64), 2, 1, 'VALID')")),
    # repeat stacks a scalar into a vector first (#181)
    ("repeat of a scalar, axis -1", _T, _eager("tf.repeat(input=-2.5, repeats=5, axis=-1)")),
    ("repeat of a scalar, axis -1, traced", _T, _traced("tf.math.reduce_variance(tf.repeat(input=-2.5, repeats=5, "
                                                        "axis=-1))")),
    ("repeat of a scalar, axis 1", _T, _eager("tf.repeat(input=-2.5, repeats=5, axis=1)")),
    ("repeat of a scalar, repeats [2]", _T, _eager("tf.repeat(input=-2.5, repeats=[2], axis=0)")),
    # ctc_loss: _ilabel_to_state's concat of rank-3 labels before label_length's one_hot (#250)
    ("ctc_loss of rank-3 labels, float label_length", _T, _eager(_CTC)),
    ("ctc_loss of rank-3 labels, float label_length, traced", _T, _traced(_CTC)),
    # the segment ops' type attr before their shapes (1420272702 #64, #115)
    ("segment_sum of a bool scalar, traced", _T, _traced("tf.math.segment_sum(False, [0])")),
    ("segment_sum of a bool scalar", _T, _eager("tf.math.segment_sum(False, [0])")),
    ("unsorted_segment_sqrt_n of a bool scalar, traced", _T, _traced(
        "tf.math.unsorted_segment_sqrt_n(np.bool_(True), np.array([0], np.int64), 2)")),
    ("unsorted_segment_sqrt_n of a bool scalar", _T, _eager(
        "tf.math.unsorted_segment_sqrt_n(np.bool_(True), np.array([0], np.int64), 2)")),
    # AvgPool's input type before its padding attr (#280)
    ("avg_pool of uint16, padding 'same', NCHW, traced", _T, _program(
        "return tf.nn.avg_pool(x, [4, 4, 1, 4], strides=[2, 0], padding='same', data_format='NCHW')",
        "tf.zeros([4, 4, 1, 4], tf.uint16)")),
    ("avg_pool of float32, padding 'same', NCHW, traced", _T, _program(
        "return tf.nn.avg_pool(x, [4, 4, 1, 4], strides=[2, 0], padding='same', data_format='NCHW')",
        "tf.zeros([4, 4, 1, 4])")),
    # boolean_mask's compatibility on the static shapes (fourth generator seed 2701 #196)
    ("boolean_mask of a [None, 1] argument, mask [True, False]", _T, _sig(
        "tf.boolean_mask(x, np.array([True, False]))", ([None, 1], "float64"), "tf.constant([[1e10]], tf.float64)")),
    ("boolean_mask of a [None, 1] argument, mask [False, True]", _T, _sig(
        "tf.boolean_mask(x, np.array([False, True]))", ([None, 1], "float64"), "tf.constant([[1e10]], tf.float64)")),
    ("boolean_mask of a [1, 1] tensor, mask [True, False]", _T, _eager(
        "tf.boolean_mask(tf.constant([[1e10]], tf.float64), np.array([True, False]))")),
    # tracing past a run-time error: the kernel's refusal, then a later op's graph-build error
    ("mod by -2**63 of uint8, then rfftnd of uint16 (fz14_known's mod>rfftnd)", _T, _program("""
        y = tf.math.mod(x, -(2 ** 63))
        return tf.signal.rfftnd(tf.constant([1, 2], tf.uint16))
        """, "tf.constant([1, 2], tf.uint8)")),
    ("as_string of int64 with a precision, then stft (fz14_known's as_string>stft)", _T, _program("""
        y = tf.as_string(np.array([1, 2], np.int64), precision=5)
        return tf.signal.stft(np.int16(1), np.int64(2), 2)
        """)),
    ("as_string of int64 with a precision, then stft, a Variable argument", _T, _program("""
        y = tf.as_string(np.array([1, -1, 2, 1], np.int64), precision=5)
        return tf.signal.stft(np.int16(1), np.int64(2), 2)
        """, "tf.Variable(1.0)")),
    ("assert_equal's Operation returned, a Variable argument (fresh seed 1420272703 #5)", _T, _program(
        "return tf.assert_equal(x=tf.constant([[2, 0]], tf.int64), y=[[-4, 0]])", "tf.Variable(1.0)")),
    ("a Variable argument assigned, then a later build error", _T, _program("""
        a0.assign(5.0)
        return a0 + tf.as_string(np.array([1], np.int64), precision=5)
        """, "tf.Variable(1.0)")),
    ("as_string of int64 with a precision, traced", _T, _traced("tf.as_string(np.array([1, 2], np.int64), "
                                                                "precision=5)")),
    ("as_string of int64 with a precision", _T, _eager("tf.as_string(np.array([1, 2], np.int64), precision=5)")),
    ("unique_with_counts of a matrix, then erf (fz14_known's unique_with_counts>erf)", _T, _program("""
        y = tf.unique_with_counts(x)
        return tf.math.erf(y)
        """, "tf.constant([[1.0, 2.0]])")),
    ("unique_with_counts of a scalar, then bool - y (fz14_known's unique_with_counts>-)", _T, _program("""
        y = tf.unique_with_counts(x)
        return tf.constant(True) - y[0]
        """, "tf.constant(1.0)")),
    ("rgb_to_yuv of a [None, 2] argument, then ^ (fz14_known's rgb_to_yuv>^)", _T, _sig(
        "tf.image.rgb_to_yuv(x) ^ False", ([None, 2], "float32"), "tf.ones([1, 2])")),
    ("rgb_to_yuv of a [None, 2] argument", _T, _sig("tf.image.rgb_to_yuv(x)", ([None, 2], "float32"),
                                                    "tf.ones([1, 2])")),
    ("matmul of a [None, None] argument by [3, 3], then ^", _T, _program(
        "return tf.matmul(x, tf.ones([3, 3])) ^ 1", "tf.ones([1, 2])")),
    ("embedding_lookup of int32 params, an id out of range, max_norm, traced", _T, _traced(
        "tf.nn.embedding_lookup(params=np.array([-1], dtype=np.int32), ids=[-1], max_norm=-1.0)")),
    ("embedding_lookup of int32 params, an id out of range, max_norm", _T, _eager(
        "tf.nn.embedding_lookup(params=np.array([-1], dtype=np.int32), ids=[-1], max_norm=-1.0)")),
    ("sobel_edges of a uint16 matrix, then @, traced", _T, _program(
        "return tf.image.sobel_edges(x) @ True", "tf.constant([[2, 5, 5], [1, 5, 7], [3, 7, 7]], tf.uint16)")),
    ("sobel_edges of a uint16 matrix", _T, _eager("tf.image.sobel_edges(tf.constant([[2, 5, 5], [1, 5, 7]], "
                                                  "tf.uint16))")),
    ("sobel_edges of a complex128 [2, 1, 2, 3] image, traced", _T, _traced(
        "tf.image.sobel_edges(tf.constant(np.ones([2, 1, 2, 3]), tf.complex128))")),
    ("sobel_edges of a complex128 [2, 1, 2, 3] image", _T, _eager(
        "tf.image.sobel_edges(tf.constant(np.ones([2, 1, 2, 3]), tf.complex128))")),
    # MaxPool's rank check at trace before the default kernel's NCHW refusal (fresh seed 1420272703 #44)
    ("max_pool1d of an int64 matrix, NCHW, traced", _T, _program(
        "return tf.nn.max_pool1d(x, tf.TensorShape([3]), [3], 'SAME', data_format='NCHW')",
        "tf.constant([[1, 2, 3], [4, 5, 6]], tf.int64)")),
    ("max_pool1d of an int64 matrix, NCHW", _T, _eager(
        "tf.nn.max_pool1d(tf.constant([[1, 2, 3], [4, 5, 6]], tf.int64), [3], [3], 'SAME', data_format='NCHW')")),
    # Substr's eager fallback for an np.int64 len (1420272701 #31, 1420272702 #142)
    ("substr of an int16 tensor, np.int64 len", _A, _eager(
        "tf.strings.substr(tf.constant([0], tf.int16), pos=5, len=np.int64(2))")),
    ("substr of an int16 tensor, int len", _A, _eager("tf.strings.substr(tf.constant([0], tf.int16), pos=5, len=2)")),
    ("substr of a string tensor, np.int64 len", _A, _eager(
        "tf.strings.substr(tf.constant(['abcdef']), pos=1, len=np.int64(2))")),
    # where: a Python e beside a NumPy t (fourth generator seed 2701 #64)
    ("where(True, np.float64(1.0), -1.5)", _A, _eager("tf.where(True, np.float64(1.0), -1.5)")),
    ("where(True, np.float32(1.0), -1.5)", _A, _eager("tf.where(True, np.float32(1.0), -1.5)")),
    # the fast path sizes a 0-d ndarray list attr: std::bad_alloc (1420272701 #279)
    ("to_hash_bucket_strong of a 0-d float16 key", _A, _eager(
        "tf.strings.to_hash_bucket_strong(input=tf.constant(['a']), num_buckets=0, key=np.array(0.0, np.float16))")),
    ("to_hash_bucket_strong of a 0-d int64 key", _A, _eager(
        "tf.strings.to_hash_bucket_strong(tf.constant(['a']), 2, key=np.array(1, np.int64))")),
    ("to_hash_bucket_strong of a 1-d float16 key", _A, _eager(
        "tf.strings.to_hash_bucket_strong(tf.constant(['a']), 2, key=np.array([1.0, 2.0], np.float16))")),
    # SimplifyAggregation: x + x of complex is Mul(2, x) in a graph (third generator seed 2702 #40)
    ("complex128 x + x of nan+0j and -inf-2j, sig", _G, _sig(
        "x + x", ([3], "complex128"), "tf.constant([complex(float('nan'), 0), complex(-np.inf, -2), 1 + 1j], "
                                      "tf.complex128)")),
    ("complex64 add_n([x, x, x]) of nan+0j, sig", _G, _sig(
        "tf.add_n([x, x, x])", ([2], "complex64"), "tf.constant([complex(float('nan'), 0), 1 + 1j], tf.complex64)")),
    ("complex128 x + x of nan+0j eagerly", _G, _eager(
        "(lambda x: x + x)(tf.constant([complex(float('nan'), 0)], tf.complex128))")),
    # IsZeros under DAZ: a float32/float64 subnormal constant is a zero, a float16 one is not (fresh seed
    # 1420272703 #21)
    ("float32 [0.0, -0.0, 1e-40] - x, sig", _G, _sig(
        "tf.constant([0.0, -0.0, 1e-40]) - x", ([3], "float32"), "tf.constant([0.0, 2.5, -3.0])")),
    ("float32 1e-40 + x, sig", _G, _sig("tf.constant([1e-40, 1e-40]) + x", ([2], "float32"),
                                       "tf.constant([-0.0, 1.0])")),
    ("float64 [5e-324, 0.0] - x, sig", _G, _sig(
        "tf.constant([5e-324, 0.0], tf.float64) - x", ([2], "float64"), "tf.constant([0.0, 2.5], tf.float64)")),
    ("float16 [1e-5, 0.0] - x, sig", _G, _sig(
        "tf.constant([1e-5, 0.0], tf.float16) - x", ([2], "float16"), "tf.constant([0.0, 2.5], tf.float16)")),
    ("float32 x + x of nan, sig", _G, _sig("x + x", ([2], "float32"), "tf.constant([float('nan'), -np.inf])")),
]


def _parts_agree(got: np.ndarray, want: np.ndarray) -> np.ndarray:
    """bits_agree, complex values part by part (a NaN part matching any NaN part)."""
    if got.dtype.kind != "c":
        return edge_compare.bits_agree(got, want)
    return edge_compare.bits_agree(np.ascontiguousarray(got.real), np.ascontiguousarray(want.real)) & \
        edge_compare.bits_agree(np.ascontiguousarray(got.imag), np.ascontiguousarray(want.imag))


EDGES = edge_compare.EdgeModule(__file__, CASES, agree=lambda case: _parts_agree)


@pytest.fixture(scope="module")
def tf_results() -> dict[int, Any]:
    return EDGES.tf_answers()


@clause("function.trace-time-errors")
@EDGES.parametrize("function.trace-time-errors")
def test_trace_time_errors(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


@clause("ops.attr-types")
@EDGES.parametrize("ops.attr-types")
def test_fast_path_and_fallback(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


@clause("function.grappler-rewrites")
@EDGES.parametrize("function.grappler-rewrites")
def test_aggregation_rewrite(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


def test_every_case_has_a_test() -> None:
    untested = EDGES.untested()
    assert not untested, f"cases of groups {untested} have no test function above"


if __name__ == "__main__":  # TF worker: python test_fz27b_edges_tf.py 0,1,2 -> pickled results on stdout
    tf_workers.serve(EDGES.tf_worker)
