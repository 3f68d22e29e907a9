"""Rules behind the twentieth fuzzer's classes that fz38a closed (fresh campaigns of session 38: seeds
3820261201- in every mode, and fz37a's open seed 3720261206 --mode sig), each against real TensorFlow 2.21:
the same call on both backends gives the same dtype and values bit for bit (a NaN matching any NaN), or raises
the same exception class. Needs the `tf` extra.

AdjustHue's deltas stop short of the hues TF's kernel loops forever on (a shifted hue above 2**27 in magnitude,
or infinite): TF never answers those, so simdist's refusal of them is checked on simdist alone
(`test_adjust_hue_refuses_what_tf_never_finishes`).
"""

from __future__ import annotations

import time

import pytest

import edge_compare
from edge_programs import eager as _eager, sig as _sig, tape as _tape
import tf_workers

pytestmark = [pytest.mark.tf, tf_workers.tf_or_golden(__file__)]
clause = pytest.mark.clause

_K = "ops.fuzz-raw"
_T = "function.trace-time-errors"

# --- AdjustHue brings the shifted hue into [0, 6) by float32 steps of 6 (exact below 2**25, rounding to 4 or 8
# up to 2**27): simdist's closed form of the loops against TF's, on 61 pixels of normal values
_PIXELS = ("(lambda r: np.concatenate([[[0.1, 0.5, 0.9], [0.9, 0.2, 0.3], [0.0, 0.0, 1.0], [1.0, 1.0, 1.0], "
           "[float('nan'), 0.0, 1.0], [3e38, -3e38, 0.0]], r.standard_normal((55, 3))]).astype(np.float32)"
           "[None])(np.random.default_rng(1))")
_DELTAS = (0.0, 0.5, -0.5, 1.0, -1.0, 1.5, -2.5, 1e-7, -3e-8, 1e3, -1e3, 1e6, -1e6, 2796202.75, -2796202.75,
           5592405.5, -5592405.5, 5592406.0, -5592406.0, 5592407.0, -5592407.0, 1e7, -1e7, 1.5e7, -1.5e7, 2e7, -2e7,
           22369621.0, -22369621.0, 22369622.0, -22369622.0, 22369000.0, -22369000.0, float("nan"), -1e-45)


def _hue_cases() -> list[tuple[str, str, object]]:
    return [(f"AdjustHue delta {d!r}", _K, _eager(
        f"tf.raw_ops.AdjustHue(images=tf.constant({_PIXELS}), delta=tf.constant(float({str(d)!r}), tf.float32))"))
        for d in _DELTAS]


# --- AdjustHue's subnormal channels: read as zeros (DAZ), v_min's copy keeping its bits, v_max and v_mid flushed
# (the modelled part: 24 of 600 pixels drawn from subnormals, zeros and small normals still differ, docs/spec.md)
def _hue_subnormal_cases() -> list[tuple[str, str, object]]:
    out = []
    for px in ([1e-45, 0.0, 1e-45], [0.5, 0.25, -1e-40], [1e-40, 2e-40, 0.5], [-1e-40, 0.0, 1e-40],
               [1e-40, 1e-40, 1e-40], [0.0, 1e-40, -0.0], [0.75, -1e-40, 0.25], [2e-40, 0.5, 1.0]):
        for d in (0.0, 0.3, 0.6):
            out.append((f"AdjustHue of {px} delta {d}", _K, _eager(
                f"tf.raw_ops.AdjustHue(images=tf.constant(np.array([[{px}]], np.float32)), delta={d})")))
    return out


# --- Unpack's shape function checks the axis only where the graph knows the input's rank
def _unpack_cases() -> list[tuple[str, str, object]]:
    out = []
    for spec in (None, [None, None], [1, 3]):
        for num, axis in ((3, 2), (3, -3), (2, 1), (3, 1), (0, 2)):
            out.append((f"Unpack num {num} axis {axis} of {spec} called on a [1, 3]", _T, _sig(
                f"tf.raw_ops.Unpack(value=x, num={num}, axis={axis})", (spec, "float64"),
                "tf.constant([[-3.0, 1.0, 1.0]], tf.float64)")))
    out.append(("Unpack num 1 axis 0 of None called on a scalar", _T, _sig(
        "tf.raw_ops.Unpack(value=x, num=1, axis=0)", (None, "float64"), "tf.constant(5.0, tf.float64)")))
    return out


# --- bfloat16 Xlogy/Xlog1py/Xdivy: packets of 8 return x itself where x == 0 under DAZ (±0 and subnormals kept)
_XS = "np.array([9.2e-41, -0.0, 0.0, -9.2e-41] * 12, np.float32)"
_YS = "np.array([2.5, -1.5, 0.0, 7.0, 0.0, 1e-40] * 8, np.float32)"


def _x_function_cases() -> list[tuple[str, str, object]]:
    out = []
    for op in ("Xlog1py", "Xlogy", "Xdivy"):
        for n in (48, 20, 16, 9, 3):
            out.append((f"{op} bfloat16 of {n}", _K, _eager(
                f"tf.raw_ops.{op}(x=tf.cast({_XS}[:{n}], tf.bfloat16), y=tf.cast({_YS}[:{n}], tf.bfloat16))")))
        out.append((f"{op} bfloat16 [4, 3, 4] by [1, 3, 4]", _K, _eager(
            f"tf.raw_ops.{op}(x=tf.cast({_XS}.reshape(4, 3, 4), tf.bfloat16), "
            f"y=tf.cast({_YS}[:12].reshape(1, 3, 4), tf.bfloat16))")))
    return out


# --- complex SegmentMean: Eigen's MeanReducer divides the packet columns by pdiv_complex, the tail by Smith
_CVALS = "[complex(np.nan, -np.inf), 0.25 + 0.25j, complex(1e-40, 1e300), complex(np.inf, 1), " \
         "complex(-np.inf, np.inf), complex(5e-324, 0.25), 3 - 4j, complex(np.nan, np.nan), complex(1e30, 1e30)]"


def _segment_mean_cases() -> list[tuple[str, str, object]]:
    out = []
    for ct in ("complex128", "complex64"):
        for cols in (1, 2, 3, 5, 9):
            for ids in ([1, 1, 2], [0, 0, 0], [0, 0, 1, 1, 1, 3]):
                data = (f"(lambda r: np.array({_CVALS}, np.{ct})[r.integers(0, 9, {len(ids) * cols})])"
                        f"(np.random.default_rng({cols})).reshape({len(ids)}, {cols})")
                out.append((f"SegmentMean {ct} {cols} columns ids {ids}", _K, _eager(
                    f"tf.raw_ops.SegmentMean(data=tf.constant({data}), segment_ids=tf.constant({ids}, tf.int64))")))
    return out


# --- Reverse's shape function: dims a vector, the input of its length's rank where both are known, at most rank 8
def _reverse_cases() -> list[tuple[str, str, object]]:
    out = []
    for spec, arg in (([2, None], "tf.constant(np.arange(6, dtype=np.int8).reshape(2, 3))"),
                      (None, "tf.constant(np.arange(6, dtype=np.int8).reshape(2, 3))"),
                      ([2, 3], "tf.constant(np.arange(6, dtype=np.int8).reshape(2, 3))"),
                      ([], "tf.constant(np.int8(5))"),
                      ([1] * 9, "tf.zeros([1] * 9, tf.int8)")):
        for dims in ("tf.constant([], tf.bool)", "tf.constant([True], tf.bool)", "[True, False]",
                     "tf.constant([True, False, True], tf.bool)", "tf.constant([[True, False]])", "[True] * 9"):
            out.append((f"Reverse dims {dims} of {spec} called on {arg}", _T, _sig(
                f"tf.raw_ops.Reverse(tensor=x, dims={dims})", (spec, "int8"), arg)))
    return out


# --- an eager raw op's attr given as None is None to its gradient function (the kernel took the default)
_SQ = "tf.constant([[[2.5, 7.0], [-3.0, -3.0]], [[0.001, -1.5], [0.75, 0.001]]], tf.float32)"


def _none_attr_cases() -> list[tuple[str, str, object]]:
    out = []
    # (compute_v=False is left out: a last-bit difference of the recomputed eigh's gradient, open)
    for extra in ("compute_v=None", "compute_v=True", ""):
        out.append((f"SelfAdjointEigV2({extra}) gradient", _K, _tape(
            f"tf.raw_ops.SelfAdjointEigV2(input=x{', ' + extra if extra else ''})", _SQ)))
    for extra in ("compute_uv=None", "compute_uv=True", "full_matrices=None"):
        out.append((f"Svd({extra}) gradient", _K, _tape(f"tf.raw_ops.Svd(input=x, {extra})", _SQ)))
    for extra in ("transpose_a=None", "transpose_b=None", "transpose_a=None, transpose_b=True"):
        out.append((f"MatMul({extra}) gradient", _K, _tape(f"tf.raw_ops.MatMul(a=x[0], b=x[1] * 2.0, {extra})", _SQ)))
    for extra in ("exclusive=None", "reverse=None", "exclusive=True, reverse=None"):
        out.append((f"Cumsum({extra}) gradient", _K, _tape(f"tf.raw_ops.Cumsum(x=x, axis=1, {extra})", _SQ)))
    return out


# --- the depthwise backprops' depth rules: TF's own kernels (float64) want equal depths, oneDNN's (float32, bfloat16)
# the grouped convolution's divisibility, a divisible mismatch aborting at the primitive (float16: host-dependent)
_DW_DEPTHS = (([4, 1, 2, 4], [4, 1, 2, 4], 16), ([4, 1, 2, 4], [1, 1, 2, 4], 8), ([4, 1, 2, 4], [1, 1, 2, 3], 6),
              ([4, 1, 2, 4], [1, 1, 3, 1], 3), ([4, 1, 2, 6], [1, 1, 4, 1], 4), ([4, 1, 2, 4], [1, 1, 1, 1], 1),
              ([4, 1, 2, 4], [1, 1, 4, 1], 5), ([4, 1, 2, 2], [1, 1, 4, 1], 4), ([4, 1, 2, 4], [1, 1, 4, 2], 8))


def _depthwise_backprop_cases() -> list[tuple[str, str, object]]:
    out = []
    for dt in ("float32", "bfloat16", "float64"):
        for ish, fs, depth in _DW_DEPTHS:
            for st in ("[1, 1, 1, 1]", "[1, 2, 2, 1]"):
                rows, cols = (1, 1) if st == "[1, 2, 2, 1]" else (1, 2)
                ob = f"tf.ones([4, {rows}, {cols}, {depth}], tf.{dt})"
                out.append((f"DepthwiseConv2dNativeBackpropFilter {dt} input {ish} filter {fs} strides {st}", _K, _eager(
                    f"tf.raw_ops.DepthwiseConv2dNativeBackpropFilter(input=tf.ones({ish}, tf.{dt}), filter_sizes={fs}, "
                    f"out_backprop={ob}, strides={st}, padding='SAME')")))
                out.append((f"DepthwiseConv2dNativeBackpropInput {dt} input {ish} filter {fs} strides {st}", _K, _eager(
                    f"tf.raw_ops.DepthwiseConv2dNativeBackpropInput(input_sizes={ish}, filter=tf.ones({fs}, tf.{dt}), "
                    f"out_backprop={ob}, strides={st}, padding='SAME')")))
    return out


CASES: list[tuple] = [
    *_depthwise_backprop_cases(),
    *_none_attr_cases(),
    *_reverse_cases(),
    *_hue_cases(),
    *_hue_subnormal_cases(),
    *_unpack_cases(),
    *_x_function_cases(),
    *_segment_mean_cases(),
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


@clause("ops.fuzz-raw")
@pytest.mark.parametrize("delta", [1e8, -1e8, 22369624.0, -22369624.0, 3.4e38, -3.4e38, float("inf"), float("-inf")])
def test_adjust_hue_refuses_what_tf_never_finishes(delta: float) -> None:
    """A shifted hue beyond 2**27 (observed: TF 2.21's AdjustHue did not return within 60 s for deltas of
    1e8, -1e8, 1e30, 3.4e38, -3.4e38, +-inf, +-22369624) is simdist's InvalidArgumentError, at once (it
    looped forever too, fz37a's seed 3720261206 --mode sig #35); 22369624 * 6 is 2**27 + 16 in float32,
    where a step of 6 rounds back (2**27 itself steps to 2**27 - 8)."""
    from simdist import tf
    start = time.process_time()
    with pytest.raises(tf.errors.InvalidArgumentError, match="never brings into"):
        tf.raw_ops.AdjustHue(images=tf.constant([[[0.1, 0.5, 0.9]]]), delta=tf.constant(delta, tf.float32))
    assert time.process_time() - start < 5, "expected the refusal at once, got a long run"


if __name__ == "__main__":  # TF worker: python test_fz38a_edges_tf.py 0,1,2 -> pickled results on stdout
    tf_workers.serve(EDGES.tf_worker)
