"""Rules behind the disagreement classes fz41 closed (fresh campaigns of session 41: fourteenth generator seeds
1420413001-, twentieth 4120261201-) and the open items of fz40 it took (#160: the raw ND FFTs' list conversion),
each against real TensorFlow 2.21: the same call on both backends gives the same dtype and values bit for bit (a
NaN matching any NaN), or raises the same exception class. Needs the `tf` extra.
"""

from __future__ import annotations

import pytest

import edge_compare
from edge_programs import eager as _eager, sig as _sig, traced as _traced
import tf_workers

pytestmark = [pytest.mark.tf, tf_workers.tf_or_golden(__file__)]
clause = pytest.mark.clause

_K = "ops.fuzz-raw"
_T = "function.trace-time-errors"


# --- the raw tf.fftnd/ifftnd/rfftnd/irfftnd convert their input as the generated op does: an input that is no
# fast-path value (a list) sends the call to the eager fallback, whose args_to_matching_eager converts it alone
# first (a list holding 1e300 is "Can't convert Python sequence with a value out of range for a double-precision
# float." ValueError before fft_length and axes), kept when its dtype is allowed; on the fast path (tensors,
# ndarrays, Python numbers) an ndarray is cast to the type attr's default (fz40 #160: fz14 seed 1420403004 #160)
def _fft_cases() -> list[tuple[str, str, object]]:
    out = []
    inputs = ("[1e+300, 65504.0, -1.5]", "[1.0, 2.0, -1.5]", "[1, 2]", "[True]", "[1j, 2]", "[]", "['a']",
              "np.array([1e300])", "np.array([1, 2])", "np.array([1.0, 2.0], np.float16)", "np.array([1.0, 2j])",
              "np.float64(2.0)", "1e300", "2", "np.array([True])")
    lengths = (("[2]", "[-1]"), ("tf.constant([2])", "tf.constant([-1])"), ("[2, 3]", "-1"))
    for op in ("rfftnd", "fftnd", "irfftnd", "ifftnd"):
        for x in inputs:
            for fl, ax in lengths:
                call = f"tf.{op}({x}, fft_length={fl}, axes={ax})"
                out.append((call, _K, _eager(call)))
        for x in ("[1e300]", "[1, 2]", "np.array([1e300])"):
            call = f"tf.{op}({x}, fft_length=[2], axes=[0])"
            out.append((f"{call} in a tf.function", _T, _traced(call)))
    return out


# --- tf.signal.frame's num_frames divides by frame_step: 0 is FloorDiv's run-time error; in a graph the ops after
# it are built first, so stft's float check of the signal and its fft_length's rank come at trace (fz14 seed
# 1420413002 #269)
def _frame_cases() -> list[tuple[str, str, object]]:
    out = []
    for sig in ("[True, True, False]", "[1.0, 2.0, 3.0]", "tf.constant([[1.0, 2.0, 3.0]], tf.float64)",
                "tf.constant([1, 2, 3])"):
        for fft in ("(0,)", "4", "None", "[[4]]"):
            call = f"tf.signal.stft({sig}, frame_length=3, frame_step=0, fft_length={fft})"
            out.append((call, _K, _eager(call)))
            out.append((f"{call} in a tf.function", _T, _traced(call)))
        for pad in ("False", "True"):
            call = f"tf.signal.frame({sig}, frame_length=2, frame_step=0, pad_end={pad})"
            out.append((call, _K, _eager(call)))
            out.append((f"{call} in a tf.function", _T, _traced(call)))
            out.append((f"{call} then ~", _T, _traced(f"~{call}")))
    out.append(("stft of a [None] spec, frame_step 0, fft_length (0,)", _T, _sig(
        "tf.signal.stft(x, frame_length=3, frame_step=0, fft_length=(0,))", ([None], "float32"),
        "tf.constant([1.0, 2.0, 3.0])")))
    return out


# --- DrawBoundingBoxesV2's kernel refuses an image of rank 3 when the graph runs; a later op's build error (Invert's
# type list, AddV2's conversion) comes first at trace (fz14 seed 1420413002 #34)
def _draw_boxes_cases() -> list[tuple[str, str, object]]:
    out = []
    boxes = "np.array([[[3e+38]], [[float('inf')]], [[-3.0]], [[-3.0]]], dtype=np.float64)"
    for img in ("[[[7.0]], [[-3.0]], [[0.0]], [[0.0]]]", "tf.zeros([2, 2, 1])", "tf.zeros([1, 2, 2, 1])",
                "tf.zeros([1, 2, 2, 2])"):
        for bx in ("1e-40", boxes, "[[[0.0, 0.0, 1.0, 1.0]]]"):
            call = f"tf.image.draw_bounding_boxes({img}, {bx}, np.array([[1.0, 0.0, 0.0, 1.0]]))"
            out.append((call, _K, _eager(call)))
            out.append((f"~{call} in a tf.function", _T, _traced(f"~{call}")))
            out.append((f"{call} + 'a' in a tf.function", _T, _traced(f"{call} + 'a'")))
            out.append((f"{call} in a tf.function", _T, _traced(call)))
    return out


# --- UnsortedSegmentJoin's shape function at trace: MergePrefix(inputs, segment_ids), num_segments a scalar, not
# negative where known; a list of number tensors converts to string through autopacking's Cast of each, which
# fails only when the graph runs (fz14 seed 1420413001 #25)
def _segment_join_cases() -> list[tuple[str, str, object]]:
    out = []
    lists = ("[tf.constant([[1], [5], [1]], dtype=np.uint64), tf.constant([[-1.5], [-1e-45], [-0.0]], dtype='float64'), "
             "tf.constant([[5], [2], [-1]], dtype='int64')]",
             "[tf.constant([1]), tf.constant([2])]", "[tf.constant([1.0]), tf.constant([2.0])]",
             "[tf.constant(['a']), tf.constant(['b'])]", "[['a', 'b'], ['c', 'd']]", "tf.constant([['a'], ['b'], ['c']])",
             "tf.constant([1.0, 2.0])")
    for x in lists:
        for ids, num in (("[0]", "2"), ("[0, 0]", "2"), ("[0, 1, 0]", "2"), ("[[0]]", "1"), ("[0, 0]", "-1"),
                         ("[0, 0]", "[2]")):
            call = f"tf.strings.unsorted_segment_join({x}, segment_ids={ids}, num_segments={num})"
            out.append((call, _K, _eager(call)))
            out.append((f"{call} in a tf.function", _T, _traced(call)))
    return out


# --- get_concrete_function of an unknown-rank input packed beside a [3] (or [2]) array: each placeholder choice of
# another shape fails Pack at run time, the vector of 3 builds and reaches reduce_join's make_bool of keepdims=1
# (fz14 seed 1420413001 #58)
def _reduce_join_cases() -> list[tuple[str, str, object]]:
    out = []
    for other in ("np.array([2, 2, 5], dtype=np.uint8)", "np.array([-4, 2], dtype=np.int8)", "[1.0, 2.0, 3.0]"):
        for keep in ("1", "True", "np.bool_(True)"):
            expr = f"tf.strings.reduce_join((x, {other}), keepdims={keep}, separator=' ')"
            for spec in (None, [None], [3]):
                out.append((f"{expr} of a {spec} spec", _T, _sig(expr, (spec, "float32"),
                                                                 "tf.constant([1.0, 2.0, 3.0])")))
    return out


# --- Cholesky's shape function (rank at least 2, square) runs at trace, before a half input's missing kernel, which
# only the graph's run finds (fz14 seed 1420413003 #261)
def _cholesky_cases() -> list[tuple[str, str, object]]:
    out = []
    for dt in ("float16", "bfloat16", "float32", "float64", "int32"):
        for x in ("[-0.0, -1.0, 0.25]", "[[1.0, 2.0]]", "[[4.0]]", "2.0", "[[[1.0, 2.0, 3.0]]]"):
            call = f"tf.linalg.cholesky(tf.constant({x}, tf.{dt}))"
            out.append((call, _K, _eager(call)))
            out.append((f"{call} in a tf.function", _T, _traced(call)))
    return out


CASES: list[tuple] = [
    *_cholesky_cases(),
    *_fft_cases(),
    *_frame_cases(),
    *_draw_boxes_cases(),
    *_segment_join_cases(),
    *_reduce_join_cases(),
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


def test_every_case_has_a_test() -> None:
    untested = EDGES.untested()
    assert not untested, f"cases of groups {untested} have no test function above"


if __name__ == "__main__":  # TF worker: python test_fz41_edges_tf.py 0,1,2 -> pickled results on stdout
    tf_workers.serve(EDGES.tf_worker)
