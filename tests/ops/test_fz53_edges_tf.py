"""Rules behind the disagreement classes fz53 closed (session 53: the fourteenth, twentieth, fourth, second and third
generators' new seeds, and the throwaway generators fz48b-fz51b at seeds 53001-53004), each against real TensorFlow
2.21: the same call on both backends gives the same dtype and values bit for bit (a NaN matching any NaN), or raises
the same exception class, eagerly and in a tf.function. Needs the `tf` extra.
"""

from __future__ import annotations

import pytest

import edge_compare
from edge_programs import eager as _eager, traced as _traced
import tf_workers

pytestmark = [pytest.mark.tf, tf_workers.tf_or_golden(__file__)]
clause = pytest.mark.clause


def _both(calls: tuple[str, ...], group: str) -> list[tuple[str, str, object]]:
    out = []
    for call in calls:
        out.append((call, group, _eager(call)))
        out.append((f"{call} in a tf.function", group, _traced(call)))
    return out


# --- The FFT kernels' subnormals: every transformed axis of length 1 makes DUCC's plan a copy, which keeps a subnormal
# input's bits; a longer axis computes under DAZ/FTZ part by part (complex parts read as zeros, subnormal results
# written as zeros). g47b seed 52003 #26: rfft([[-2.625], [-1e-45]], fft_length=[1]) keeps -1e-45 on TF 2.21.
_C = "tf.complex(tf.constant({re}, tf.float32), tf.constant({im}, tf.float32))"


def _fft_cases() -> list[tuple[str, str, object]]:
    calls = (
        "tf.signal.rfft(tf.constant([[-2.625], [-1e-45]], tf.float32), fft_length=[1])",
        "tf.signal.rfft(tf.constant([[1e-40, 5.0]], tf.float32), fft_length=[1])",
        "tf.signal.rfft(tf.constant([1e-40, 2e-40], tf.float32), fft_length=[2])",
        "tf.signal.rfft(tf.constant([1e-40], tf.float32), fft_length=[2])",
        "tf.signal.rfft(tf.constant([5e-324, 1.0], tf.float64), fft_length=[1])",
        "tf.signal.rfft(tf.constant([5e-324, 0.0], tf.float64), fft_length=[2])",
        "tf.signal.rfft(tf.constant([2e-38, 1.5e-38], tf.float32))",
        "tf.signal.rfft(tf.constant([3e-308, 2.5e-308], tf.float64))",
        "tf.signal.fft(tf.reshape(" + _C.format(re="[1e-40, 1.0]", im="[2e-40, 0.0]") + ", [2, 1]))",
        "tf.signal.ifft(tf.reshape(" + _C.format(re="[1e-40, 1.0]", im="[2e-40, 0.0]") + ", [2, 1]))",
        "tf.signal.fft(" + _C.format(re="[1e-40, 1.0]", im="[2e-40, 0.0]") + ")",
        "tf.signal.fft(" + _C.format(re="[1e-40, 0.0]", im="[0.0, 0.0]") + ")",
        "tf.signal.ifft(" + _C.format(re="[1e-40, 0.0]", im="[0.0, 0.0]") + ")",
        "tf.signal.fft(" + _C.format(re="[2e-38, 1.5e-38]", im="[1.0, 1.0]") + ")",
        "tf.signal.irfft(tf.reshape(" + _C.format(re="[1e-40, 1.0]", im="[2e-40, 0.0]") + ", [2, 1]), fft_length=[1])",
        "tf.signal.irfft(" + _C.format(re="[[1e-40, 1.0]]", im="[[2e-40, 0.0]]") + ", fft_length=[1])",
        "tf.signal.irfft(" + _C.format(re="[[1e-40, 0.0]]", im="[[0.0, 0.0]]") + ", fft_length=[2])",
        "tf.signal.irfft(" + _C.format(re="[[2e-38, 1.5e-38]]", im="[[0.0, 0.0]]") + ", fft_length=[2])",
        "tf.signal.rfft2d(tf.constant([[1e-40]], tf.float32), fft_length=[1, 1])",
        "tf.signal.rfft2d(tf.constant([[1e-40], [0.0]], tf.float32), fft_length=[2, 1])",
        "tf.signal.fft2d(tf.reshape(" + _C.format(re="[1e-40]", im="[2e-40]") + ", [1, 1]))",
        "tf.signal.fft3d(tf.reshape(" + _C.format(re="[1e-40]", im="[2e-40]") + ", [1, 1, 1]))",
        "tf.signal.ifft2d(tf.reshape(" + _C.format(re="[1e-40]", im="[2e-40]") + ", [1, 1]))",
        "tf.signal.irfft2d(tf.reshape(" + _C.format(re="[1e-40]", im="[2e-40]") + ", [1, 1]), fft_length=[1, 1])",
        "tf.abs(tf.signal.rfft(tf.constant([[1e-40]], tf.float32), fft_length=[1]))",
    )
    return _both(calls, "ops.signal-fft")


# --- UnsortedSegmentJoin allocates its output before it reads the segment ids: num_segments 2**31 - 1 of a [4, 3]
# input is ResourceExhaustedError at once (fz20 seed 5120261205 #18: simdist built the strings for minutes).
def _join_cases() -> list[tuple[str, str, object]]:
    call = ("tf.raw_ops.UnsortedSegmentJoin(separator='a', inputs=tf.reshape(tf.constant([b'a'] * 12), [4, 3]), "
            "num_segments={n}, segment_ids=tf.constant({ids}, tf.int32))")
    return _both(tuple(call.format(n=n, ids=ids) for n, ids in ((2147483647, [0, 2, 2, 2]), (2147483647, [0, 2, 2, -1]),
                                                                   (3, [0, 2, 2, 2]))), "ops.argument-errors")


# --- An int attr given a tensor: op_def_library's _MakeInt refuses it in a graph (TypeError "Expected int for argument
# 'rounds' not <tf.Tensor ...>"), after the inputs and before the shape function; eagerly it is read as its value
# (fz14 seed 1420503010 #112: tf.random_index_shuffle(..., rounds=tf.constant(2)) in a tf.function).
def _attr_cases() -> list[tuple[str, str, object]]:
    return _both(("tf.random_index_shuffle(-1, seed=(3, 4), max_index=0, rounds=tf.constant(2))",
                  "tf.random_index_shuffle(1, seed=(3, 4, 5), max_index=5, rounds=tf.constant(4))",
                  "tf.random_index_shuffle(1, seed=(3, 4), max_index=5, rounds=4)"), "ops.argument-errors")


# --- float32 MatMul x [m, k] @ y [k, 1] on a host where oneDNN does not run float32: Eigen's matrix-vector kernel adds
# the rounded products in order for k <= 14 with m * k <= 64 too (g50b seed 53002 #59: [3, 4] @ [4, 1] one ulp off).
def _gemv_cases() -> list[tuple[str, str, object]]:
    mk = "tf.constant(np.sin(np.arange({n}) * 1.37 + {s}).astype(np.float32).reshape({shape}))"
    calls = tuple(f"tf.matmul({mk.format(n=m * k, s=0.25, shape=[m, k])}, {mk.format(n=k, s=1.5, shape=[k, 1])})"
                  for m, k in ((3, 4), (8, 8), (5, 12), (4, 14), (2, 9), (16, 4), (6, 10), (2, 14)))
    return _both(calls, "ops.host-cpu")


CASES: list[tuple] = [
    *_fft_cases(),
    *_join_cases(),
    *_attr_cases(),
    *_gemv_cases(),
]


EDGES = edge_compare.EdgeModule(__file__, CASES, agree=lambda case: case[3] if len(case) > 3 else edge_compare.parts_agree)


@pytest.fixture(scope="module")
def tf_results() -> dict[int, object]:
    return EDGES.tf_answers()


@clause("ops.signal-fft")
@EDGES.parametrize("ops.signal-fft")
def test_fft_subnormals(k: int, tf_results: dict[int, object]) -> None:
    EDGES.check(k, tf_results)


@clause("ops.argument-errors")
@EDGES.parametrize("ops.argument-errors")
def test_segment_join_allocates_first(k: int, tf_results: dict[int, object]) -> None:
    EDGES.check(k, tf_results)


@clause("ops.host-cpu")
@EDGES.parametrize("ops.host-cpu")
def test_small_matrix_vector_products(k: int, tf_results: dict[int, object]) -> None:
    EDGES.check(k, tf_results)


def test_every_case_has_a_test() -> None:
    untested = EDGES.untested()
    assert not untested, f"cases of groups {untested} have no test function above"


if __name__ == "__main__":  # TF worker: python test_fz53_edges_tf.py 0,1,2 -> pickled results on stdout
    tf_workers.serve(EDGES.tf_worker)
