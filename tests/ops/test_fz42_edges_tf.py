"""Rules behind the disagreement classes fz42 closed (fresh campaigns of session 42: fourteenth generator seeds
1420423001-, twentieth 4220261201- and fz41's unrun 4120261204-, fz41's open compute_accidental_hits under a tape
and SparseSegmentSumWithNumSegments' 2**31 - 1 segments in a signature), each against real TensorFlow 2.21: the
same call on both backends gives the same dtype and values bit for bit (a NaN matching any NaN), or raises the same
exception class. Needs the `tf` extra.
"""

from __future__ import annotations

from typing import Any, Callable

import numpy as np
import pytest

import edge_compare
from edge_programs import eager as _eager, sig as _sig, tape as _tape, traced as _traced, var_traced as _var_traced
import tf_workers

pytestmark = [pytest.mark.tf, tf_workers.tf_or_golden(__file__)]
clause = pytest.mark.clause

_K = "ops.fuzz-raw"
_T = "function.trace-time-errors"
_C = "ops.conversion"


# --- tf.math.nextafter's eager conversion: with no tensor operand, an operand the fast path does not take (a list, a
# NumPy scalar other than np.float64) sends the call to the eager fallback, whose args_to_matching_eager keeps x1's
# own float dtype (float64 stays float64; a list holding 1e300 is the plain conversion's ValueError); on the fast
# path both are cast to T's default float32 (fz14 seed 1420423001 #209)
def _nextafter_cases() -> list[tuple[str, str, object]]:
    out = []
    a64 = "np.array([1.0, 1e300], np.float64)"
    pairs = ((a64, "[2, 0]"), ("[2, 0]", a64), (a64, "2"), (a64, "[2.0, 0.0]"), ("[1.0, 2.0]", "[2, 0]"),
             ("[1, 2]", "[2, 0]"), ("np.array([1, 2], np.int32)", "[2, 0]"), ("np.array([1, 2], np.float16)", "[2, 0]"),
             (a64, "np.array([2.0, 0.0])"), (a64, "(2, 0)"), ("[True]", "[2.0]"), ("np.float64(1.0)", "[2]"),
             ("np.float32(1.0)", "[2]"), ("[1e300]", a64), ("np.array([1, 2], np.int64)", "[2, 0]"),
             ("[[1, 2]]", a64), ("1.0", "[2.0]"), ("np.float32(1.0)", "np.float64(2.0)"), ("np.uint8(255)", "[2.0]"),
             ("np.array([1.0], np.float32)", "[2]"), ("[1.0]", "np.array([2.0], np.float64)"),
             (a64, "tf.Variable([2.0, 0.0])"), ("np.float32(1.0)", "tf.Variable([2.0], dtype=tf.float64)"),
             ("np.uint8(255)", "tf.Variable(2.0)"), ("[1.0]", "tf.Variable([2.0], dtype=tf.float64)"))
    for x1, x2 in pairs:
        call = f"tf.math.nextafter({x1}, {x2})"
        out.append((call, _C, _eager(call)))
    for x1, x2 in ((a64, "[2, 0]"), ("[2, 0]", a64), ("np.float64(1.0)", "[2]")):
        call = f"tf.math.nextafter({x1}, {x2})"
        out.append((f"{call} in a tf.function", _T, _traced(call)))
    return out


# --- ComputeAccidentalHits on the eager fast path reads a resource variable and the kernel judges its dtype
# (InvalidArgumentError), where the fallback (a list among the inputs) converts it (ValueError) (fz41's open: fz14
# seed 1420413004 #98, under a tape)
def _accidental_hits_cases() -> list[tuple[str, str, object]]:
    out = []
    for tc in ("tf.Variable([[0.0], [1.0]])", "tf.Variable([[0], [1]])", "tf.Variable([[0], [1]], dtype=tf.int64)",
               "tf.constant([[0.0], [1.0]])", "[[0.0], [1.0]]", "np.array([[0], [1]])"):
        for sc in ("np.array([0, 0, 2, 3], np.int64)", "[0, 1]", "tf.Variable([0, 1], dtype=tf.int64)",
                   "tf.Variable([0.0, 1.0])"):
            call = f"tf.nn.compute_accidental_hits({tc}, {sc}, 1, seed=1)"
            out.append((call, _K, _eager(call)))
    for tc in ("tf.Variable([[0.0], [1.0]])", "tf.Variable([[0], [1]], dtype=tf.int64)",
               "tf.Variable([[0], [1]], dtype=tf.uint64)"):
        expr = "tf.nn.compute_accidental_hits(v, np.array([0, 0, 2, 3], np.int64), 1, seed=1)"
        out.append((f"{expr} of {tc} in a tf.function", _T, _var_traced(expr, tc)))
    out.append(("compute_accidental_hits of a float32 variable under a tape", _K, _tape(
        "tf.nn.compute_accidental_hits(x, np.array([0, 0, 2, 3], np.int64), 1, seed=1)",
        "tf.Variable(tf.constant([[-0.0], [1.0], [-1.5], [1.0]]))")))
    return out


# --- a stand-in of a kernel's refusal deferred by the retry of a tf.function call (pruning.py) feeds a stateless op:
# no cost rule reads its shape (SparseSegmentSumWithNumSegments' OOM of 2**31 - 1 segments, fz41's open: sig seed
# 4120261202 #35), and that op gives stand-ins too, so TF's pruning of both is followed (threefry's refused counter,
# fz14 seed 1420423001 #99)
def _pruned_cases() -> list[tuple[str, str, object]]:
    out = []
    seg = ("tf.raw_ops.SparseSegmentSumWithNumSegments(segment_ids=tf.constant([0, 1], tf.int64), "
           "indices=tf.constant([0, 1], tf.int32), num_segments=tf.constant(2147483647, tf.int32), data={})")
    for data in ("tf.ones([2, 300, 1])", "tf.constant(np.ones((2, 300, 1), np.uint64))"):
        call = seg.format(data)
        out.append((call, _K, _eager(call)))
        out.append((f"{call} in a tf.function", _T, _traced(call)))
        out.append((f"{call} unused in a tf.function", _T, _traced(f"({call}, tf.constant(1))[1]")))
        out.append((f"{call} of a signature", _T, _sig(seg.format("x"), ([2, 300, 1], "float32"),
                                                       "tf.ones([2, 300, 1])")))
    for fn in ("tf.random.stateless_normal(shape=np.array([1, 2, 2], dtype=np.int64), "
               "seed=tf.constant([1, 2], tf.int32), alg='threefry')",
               "tf.random.stateless_uniform(shape=[2], seed=[1, 2], alg='threefry')",
               "tf.random.stateless_truncated_normal(shape=[2], seed=[1, 2], alg='threefry')",
               "tf.random.stateless_uniform(shape=[2], seed=[1, 2], alg='threefry', dtype=tf.int32, minval=0, maxval=5)",
               "tf.random.stateless_uniform(shape=[2], seed=[1, 2], alg='threefry', dtype=tf.int64, minval=None, "
               "maxval=None)",
               "tf.random.stateless_normal(shape=[2], seed=[1, 2], alg='philox')"):
        out.append((fn, _K, _eager(fn)))
        out.append((f"{fn} in a tf.function", _T, _traced(fn)))
        out.append((f"{fn} unused in a tf.function", _T, _traced(f"({fn}, tf.shape(np.array([0, 2], np.uint16)))[1]")))
        out.append((f"{fn} + 1 unused in a tf.function", _T, _traced(f"({fn} + 1, tf.constant(1))[1]")))
        out.append((f"{fn} assigned to a variable in a tf.function", _T, _var_assign(fn)))
    return out


def _var_assign(expr: str) -> Callable[[Any], Any]:
    """A float variable assigned the expression's value inside a tf.function (a stateful op reading it), then read."""
    def run(tf: Any) -> Any:
        v = tf.Variable(tf.zeros([2, 2]) if "[1, 2, 2]" in expr else tf.zeros([2]))
        def f() -> Any:
            v.assign(tf.cast(eval(expr, {"tf": tf, "np": np}), tf.float32))  # noqa: S307 - our own text
            return tf.constant(1)
        return [tf.function(f, autograph=False)(), v.read_value()]
    return run


# --- a linear-algebra op whose CPU kernel is missing for a half (or bfloat16) input adds its node in a graph first:
# its shape function's checks are the trace's ValueError, the missing kernel the graph run's (fz14 seed 1420423002
# #163: tf.linalg.solve(np.float16(1.0), -1); Cholesky's, fz41)
def _linalg_cases() -> list[tuple[str, str, object]]:
    out = []
    xs = ("tf.constant([1.0, 2.0], tf.{})", "tf.constant([[1.0, 2.0]], tf.{})", "tf.constant([[4.0]], tf.{})",
          "tf.constant(1.0, tf.{})")
    fns = ("tf.linalg.solve(X, X)", "tf.linalg.triangular_solve(X, X)", "tf.linalg.cholesky_solve(X, X)",
           "tf.linalg.svd(X)", "tf.linalg.eigh(X)", "tf.linalg.eigvalsh(X)", "tf.linalg.lu(X)")
    for f in fns:
        for dt in ("float16", "bfloat16", "float32"):
            for x in xs:
                call = f.replace("X", x.format(dt))
                out.append((call, _K, _eager(call)))
                out.append((f"{call} in a tf.function", _T, _traced(call)))
    for call in ("tf.linalg.solve(matrix=np.float16(1.0), rhs=-1)", "tf.linalg.solve(np.float32(1.0), -1)",
                 "tf.linalg.solve(np.array([[1, 2]], np.float16), [[1.0]])"):
        out.append((call, _K, _eager(call)))
        out.append((f"{call} in a tf.function", _T, _traced(call)))
    out.append(("solve of a float16 scalar and a [1, None, 4, None] spec", _T, _sig(
        "tf.linalg.solve(matrix=np.float16(1.0), rhs=x)", ([1, None, 4, None], "float16"),
        "tf.zeros([1, 1, 4, 1], tf.float16)")))
    return out


# --- nce_loss and sampled_softmax_loss in a graph: the sampler's kernel refuses its true classes only when the graph
# runs; the wrapper's Python goes on, so a later op's build error wins (the lookup of a scalar weights: GatherV2's
# rank ValueError; inputs.dtype of a list: AttributeError), else the sampler's error (fz14 seed 1420423002 #211)
def _sampled_loss_cases() -> list[tuple[str, str, object]]:
    out = []
    for loss in ("nce_loss", "sampled_softmax_loss"):
        for w in ("float('nan')", "tf.ones([2, 2])", "tf.ones([2])"):
            for inputs in ("[[4.0, 0.0]]", "tf.constant([[4.0, 0.0]])"):
                for labels, nt in (("np.array([[1, 2]])", 2), ("np.array([[1, 1]])", 2), ("[[5]]", 1)):
                    if w == "tf.ones([2, 2])" and "[[1, 1]]" in labels:
                        continue   # (a loss of valid arguments: TF's sampler draws without a global seed)
                    call = (f"tf.nn.{loss}(weights={w}, biases=tf.zeros([2]), labels={labels}, inputs={inputs}, "
                            f"num_sampled=1, num_classes=2, num_true={nt})")
                    out.append((call, _K, _eager(call)))
                    out.append((f"{call} in a tf.function", _T, _traced(call)))
    return out


# --- central_crop of an image whose rank the graph does not know: the rank read is None, the trace's ValueError,
# before _CheckAtLeast3DImage's run-time assert (fz14 seed 1420423003 #63)
def _central_crop_cases() -> list[tuple[str, str, object]]:
    out = []
    for frac in ("1e-6", "0.5", "1.0", "0.0"):
        expr = f"tf.image.central_crop(x, {frac})"
        for spec, arg in ((None, "tf.ones([2, 2], tf.int32)"), (None, "tf.ones([4, 4, 1], tf.int32)"),
                          ([None, None], "tf.ones([2, 2], tf.int32)"), ([None, None, 1], "tf.ones([4, 4, 1], tf.int32)"),
                          ([4, 4, 1], "tf.ones([4, 4, 1], tf.int32)")):
            out.append((f"{expr} of a {spec} spec, called with {arg}", _T, _sig(expr, (spec, "int32"), arg)))
        call = f"tf.image.central_crop(tf.ones([2, 2], tf.int32), {frac})"
        out.append((call, _K, _eager(call)))
        out.append((f"{call} in a tf.function", _T, _traced(call)))
    return out


# --- MaxPool's dtype check (its T list: bool is refused) comes before the CPU kernel's NCHW refusal (fz14 seed
# 1420423004 #148)
def _max_pool_cases() -> list[tuple[str, str, object]]:
    out = []
    for x in ("tf.constant([[True, False], [True, True]])", "tf.zeros([1, 1, 2, 2], tf.bool)",
              "tf.zeros([1, 1, 2, 2], tf.int32)", "tf.zeros([1, 1, 2, 2], tf.complex64)",
              "tf.zeros([1, 1, 2, 2], tf.uint32)"):
        for ks, st in (("np.array([2, 2], dtype=np.int64)", "(3,)"), ("2", "1")):
            call = f"tf.nn.max_pool2d({x}, {ks}, {st}, 'SAME', data_format='NCHW')"
            out.append((call, _K, _eager(call)))
            out.append((f"{call} in a tf.function", _T, _traced(call)))
    for spec in (None, [None, None], [1, 1, 2, 2]):
        expr = "tf.nn.max_pool2d(x, np.array([2, 2], dtype=np.int64), (3,), 'SAME', data_format='NCHW')"
        out.append((f"{expr} of a {spec} bool spec", _T, _sig(expr, (spec, "bool"), "tf.zeros([1, 1, 2, 2], tf.bool)")))
    return out


# --- UnravelIndex's kernel: the indices' rank, then their emptiness ("received empty tensor indices"), then the
# dims; a raw call with [] reaches it (fz20 seed 4120261209 #128)
def _unravel_cases() -> list[tuple[str, str, object]]:
    out = []
    for ind, dims in (("[]", "[2]"), ("[[]]", "[2]"), ("[]", "[[2]]"), ("[]", "[0]"), ("[]", "[-1]"),
                      ("tf.zeros([0, 2], tf.int32)", "[2]"), ("[[1]]", "[[2]]"), ("tf.zeros([0], tf.int64)", "[2]"),
                      ("[1]", "[]")):
        for call in (f"tf.raw_ops.UnravelIndex(indices={ind}, dims={dims})", f"tf.unravel_index({ind}, {dims})"):
            out.append((call, _K, _eager(call)))
            out.append((f"{call} in a tf.function", _T, _traced(call)))
    return out


# --- Bitcast's shape function at trace: to a wider type the last dimension, where known, must be the ratio of the
# sizes (sig seed 4120261210 #123)
def _bitcast_cases() -> list[tuple[str, str, object]]:
    out = []
    for spec, ty, arg in (([1, 3, None, 2], "complex128", "tf.zeros([1, 3, 3, 2], tf.int32)"),
                          ([None], "complex128", "tf.zeros([4], tf.int32)"), ([None], "complex128", "tf.zeros([3], tf.int32)"),
                          ([2, 4], "complex128", "tf.zeros([2, 4], tf.int32)"), ([2, 4], "int8", "tf.zeros([2, 4], tf.int32)"),
                          (None, "complex128", "tf.zeros([2, 4], tf.int32)"), ([], "int64", "tf.zeros([], tf.int32)"),
                          ([3], "int64", "tf.zeros([3], tf.int32)"), ([None, 2], "int64", "tf.zeros([5, 2], tf.int32)"),
                          ([None, 3], "int64", "tf.zeros([5, 3], tf.int32)")):
        expr = f"tf.raw_ops.Bitcast(type=tf.{ty}, input=x)"
        out.append((f"{expr} of a {spec} spec, called with {arg}", _T, _sig(expr, (spec, "int32"), arg)))
    return out


# --- a first call that a stateless op's kernel refused, retried past it (pruning.py), whose Python then raises its
# own error: the trace's, so TF counts no trace (fz14 seed 1420423003 #201)
def _tracing_count(body: str) -> Callable[[Any], Any]:
    def run(tf: Any) -> Any:
        def f(s: Any) -> Any:
            return eval(body, {"tf": tf, "np": np})  # noqa: S307 - our own text
        g = tf.function(f)
        out: list[Any] = []
        for s in ("0", "0", "1"):
            try:
                g(s)
                out.append("ok")
            except Exception as e:  # noqa: BLE001 - the class is the answer
                out.append(type(e).__name__)
        return [out, g.experimental_get_tracing_count()]
    return run


def _count_cases() -> list[tuple[str, str, object]]:
    seg = "tf.math.segment_min(data=np.array([[[9223372036854775807]], [[3]]], dtype=np.int64), segment_ids=[0])"
    return [(f"tracing count of {b}", _T, _tracing_count(b)) for b in (
        f"tf.linalg.eig({seg})", f"tf.linalg.eigvals({seg})", f"({seg}, tf.constant(1))[1]", f"{seg} + 'a'",
        f"({seg}, tf.linalg.eig(tf.constant([[1]], tf.int64)))[1]", "tf.linalg.eig(tf.constant([[1]], tf.int64))")]


CASES: list[tuple] = [
    *_nextafter_cases(),
    *_accidental_hits_cases(),
    *_pruned_cases(),
    *_linalg_cases(),
    *_sampled_loss_cases(),
    *_central_crop_cases(),
    *_max_pool_cases(),
    *_unravel_cases(),
    *_bitcast_cases(),
    *_count_cases(),
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


def test_every_case_has_a_test() -> None:
    untested = EDGES.untested()
    assert not untested, f"cases of groups {untested} have no test function above"


if __name__ == "__main__":  # TF worker: python test_fz42_edges_tf.py 0,1,2 -> pickled results on stdout
    tf_workers.serve(EDGES.tf_worker)
