"""Rules behind the disagreement classes fz45 closed (fresh campaigns of session 45: fourteenth generator seeds
1420453001-, twentieth 4520261201-; and fz44's open float32 erfinv), each against real TensorFlow 2.21: the same
call on both backends gives the same dtype and values bit for bit (a NaN matching any NaN), or raises the same
exception class, eagerly, inside a tf.function and with an input_signature. Needs the `tf` extra.
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
_C = "ops.conversion"
_E = "ops.eigen-kernels"


def _both(calls: tuple[str, ...], group: str) -> list[tuple[str, str, object]]:
    out = []
    for call in calls:
        out.append((call, group, _eager(call)))
        out.append((f"{call} in a tf.function", _T, _traced(call)))
    return out


# --- embedding_lookup's max_norm is embedding_ops._clip: clip_by_norm(params, max_norm, axes), which casts a tensor
# max_norm to the rows' dtype after maximum(max_norm, 0) (fz14 seed 1420453001 #281: a float32 max_norm beside
# float64 params; simdist had converted it with the rows' dtype, ValueError)
def _embedding_cases() -> list[tuple[str, str, object]]:
    p64 = "tf.constant([[3.0, 4.0], [0.5, -1.0], [float('inf'), 1.0]], tf.float64)"
    p32 = "tf.constant([[3.0, 4.0], [0.5, -1.0]])"
    return _both((
        f"tf.nn.embedding_lookup({p64}, ids=[0, 1], max_norm=tf.constant(0.5))",
        f"tf.nn.embedding_lookup({p64}, ids=[[0], [2]], max_norm=tf.constant(2.0))",
        f"tf.nn.embedding_lookup({p64}, ids=1, max_norm=tf.constant(0.5))",
        f"tf.nn.embedding_lookup({p64}, ids=[0, 1], max_norm=np.float32(0.5))",
        f"tf.nn.embedding_lookup({p64}, ids=[0, 1], max_norm=tf.constant(-1.0))",
        f"tf.nn.embedding_lookup({p64}, ids=[0, 1], max_norm=-1.0)",
        f"tf.nn.embedding_lookup({p64}, ids=[0, 1], max_norm=tf.constant(2))",
        f"tf.nn.embedding_lookup({p32}, ids=[0, 1], max_norm=tf.constant(1.0, tf.float64))",
        f"tf.nn.embedding_lookup({p32}, ids=[1, 0], max_norm=tf.constant([1.0, 2.0]))",
        f"tf.nn.embedding_lookup({p32}, ids=[0], max_norm=2)",
        "tf.nn.embedding_lookup(tf.constant([float('inf'), -1.0], tf.float64), ids=[1], max_norm=tf.constant(0.5))",
        "tf.nn.embedding_lookup(tf.constant([float('inf'), -1.0], tf.float64), ids=[2], max_norm=tf.constant(0.5))",
    ), _K) + [
        ("embedding_lookup(x, [1], max_norm=float32 0.5) of a [None] float64 spec", _T,
         _sig("tf.nn.embedding_lookup(x, ids=[1], max_norm=tf.constant(0.5))", ([None], "float64"),
              "tf.constant([2.0, -1.0], tf.float64)")),
        ("embedding_lookup(x, [2], max_norm=float32 0.5) of a [None] float64 spec", _T,
         _sig("tf.nn.embedding_lookup(x, ids=[2], max_norm=tf.constant(0.5))", ([None], "float64"),
              "tf.constant([2.0, -1.0], tf.float64)")),
    ]


# --- TopKV2: its type attrs (T, Tk of k, index_type) are checked before the kernel's and the shape function's rank
# checks, and k converts as the generated op converts a Tk input (fz14 seed 1420453001 #248: top_k of a scalar with
# index_type=np.float32 in a signature, TypeError in TF, the rank's ValueError in simdist)
def _top_k_cases() -> list[tuple[str, str, object]]:
    x = "tf.constant([1.0, 3.0, 2.0])"
    conversions = _both(tuple(f"tf.math.top_k({x}, k={k})" for k in (
        "1.5", "2.0", "tf.constant(1.5)", "tf.constant(2, tf.int8)", "tf.constant(2, tf.int16)",
        "tf.constant(2, tf.int64)", "np.float32(2)", "np.int8(2)", "'a'", "True", "[2]", "np.array([2])",
        "tf.constant([2])")), _C)
    order = _both((
        "tf.nn.top_k(tf.constant(1.0), index_type=np.float32)", "tf.nn.top_k(tf.constant(1.0), index_type=tf.int8)",
        "tf.nn.top_k(tf.constant(1.0), index_type=tf.int16)", "tf.nn.top_k(tf.constant([1.0, 2.0]), index_type=tf.int8)",
        "tf.nn.top_k(tf.constant(1.0), k=tf.constant(1.5))", "tf.nn.top_k(tf.constant(1.0), k=1.5)",
        "tf.nn.top_k(tf.constant([1.0]), k=3, index_type=tf.uint8)", "tf.nn.top_k(tf.constant(1.0), k=-1)",
        "tf.nn.top_k(tf.constant([1.0, 2.0]), k=tf.constant(2, tf.int16), index_type=tf.int16)",
        "tf.nn.top_k(tf.constant([1.0, 2.0]), k=np.float64(1.0), index_type=tf.int64)",
        "tf.nn.top_k(tf.constant(1.0), k=[2])", "tf.nn.top_k(tf.constant(1.0), k=tf.constant([[1]]))",
        "tf.nn.top_k(tf.constant([1.0, 2.0]), k=[])",
    ), _K)
    sigs = [
        ("top_k(x, index_type=np.float32) of a [] float16 spec", _T,
         _sig("tf.nn.top_k(x, index_type=np.float32)", ([], "float16"), "tf.constant(1.0, tf.float16)")),
        ("top_k(x, index_type=np.float32) of an unknown-rank float32 spec", _T,
         _sig("tf.nn.top_k(x, index_type=np.float32)", (None, "float32"), "tf.constant([1.0])")),
        ("top_k(x, k=float32 1.5) of a [] float32 spec", _T,
         _sig("tf.nn.top_k(x, k=tf.constant(1.5))", ([], "float32"), "tf.constant(1.0)")),
        ("top_k(x, k=2) of a [] float32 spec", _T, _sig("tf.nn.top_k(x, k=2)", ([], "float32"), "tf.constant(1.0)")),
    ]
    return conversions + order + sigs


# --- LinSpace writes flat(0) = start before its loop from 1 (sequence_ops.cc): an infinite start or step keeps
# start, where start + 0 * step is NaN (fz20 sig seed 4520261202 #61)
def _linspace_cases() -> list[tuple[str, str, object]]:
    calls = []   # (signed zeros made by ops: TF's eager scalar cache answers tf.constant(0.0) after -0.0 with -0.0)
    for s, e, n in (("float('inf')", "NZ", 7), ("float('inf')", "PZ", 3), ("PZ", "float('inf')", 3),
                    ("-float('inf')", "float('inf')", 2), ("-float('inf')", "float('inf')", 4),
                    ("float('nan')", "1.0", 3), ("1.0", "float('nan')", 3), ("3e38", "-3e38", 3), ("1.0", "2.0", 4),
                    ("0.1", "0.7", 5), ("2.5", "-1.0", 1)):
        for dt in ("float32", "float64"):
            start, stop = (f"tf.zeros([], tf.{dt}) * {-1 if v == 'NZ' else 1}" if v in ("NZ", "PZ") else
                           f"tf.constant({v}, tf.{dt})" for v in (s, e))
            calls.append(f"tf.raw_ops.LinSpace(start={start}, stop={stop}, num={n})")
    calls += ["tf.linspace(tf.constant(float('inf')), tf.zeros([]) * -1, 7)",
              "tf.linspace(tf.constant(-float('inf')), tf.constant(float('inf')), 4)"]
    return _both(tuple(calls), _K) + [
        ("LinSpace(start=inf, stop=-0.0, num) of a [] int32 spec num", _T,
         _sig("tf.raw_ops.LinSpace(start=tf.constant(float('inf')), stop=tf.zeros([]) * -1, num=x)", ([], "int32"),
              "tf.constant(7)"))]


# --- UnsortedSegmentJoin checks num_segments >= 0 before the segment ids' rank and dimensions (fz20 tape seed
# 4520261207 #99: a scalar input with rank-1 ids and num_segments -3 is InvalidArgumentError, not OutOfRangeError)
def _segment_join_cases() -> list[tuple[str, str, object]]:
    s0, v = "tf.constant(b'a')", "tf.constant([b'a', b'b', b'c'])"
    calls = tuple(f"tf.raw_ops.UnsortedSegmentJoin(inputs={x}, segment_ids=tf.constant({ids}), num_segments={n}, "
                  f"separator='x')" for x, ids, n in (
                      (s0, "[0]", -3), (s0, "[[0, 0], [0, 0]]", -1), (s0, "[0]", 0), (s0, "0", 2), (s0, "0", -1),
                      (v, "[0, 1, 0]", -1), (v, "[0, 1, 0]", 0), (v, "[0, 1]", 2), (v, "[0, 1]", -2),
                      (v, "[0, 1, 0]", 2), (v, "[0, 5, 0]", 2), (v, "[0, -1, 0]", 2)))
    calls += ("tf.strings.unsorted_segment_join(tf.constant([b'a', b'b']), [[0, 1]], -1)",
              "tf.strings.unsorted_segment_join(tf.constant(b'a'), [0], tf.constant(-3, tf.int64))")
    return [(call, _K, _eager(call)) for call in calls]


# --- Erfinv and Ndtri are Eigen's generic_ndtri in the kernel's type: float32 in SIMD packets (plog_float, the
# vrcpps reciprocal) on the first (n // 8) * 8 elements and logf on the tail, float64 on the scalar path (glibc's
# log) (fz44's open class: float32 erfinv(0.5) 0.4769363 in TF, SciPy's double ndtri rounded 0.47693628)
def _ndtri_cases() -> list[tuple[str, str, object]]:
    grid = "np.arange(-1000, 1001, dtype=np.float32) / np.float32(1000)"
    pgrid = "np.arange(0, 2049, dtype=np.float32) / np.float32(2048)"
    tiny = "np.ldexp(np.float32(1), np.arange(-125, 0, dtype=np.int32))"
    near1 = "np.float32(1) - np.ldexp(np.float32(1), np.arange(-24, 0, dtype=np.int32))"
    edges = "[0.0, -0.0, 0.5, -0.5, 1.0, -1.0, 0.001, 0.25, 0.75, 0.999, -0.999, 1.5, float('nan'), 1e-40]"
    calls = []
    for dt in ("float32", "float64"):
        calls += [f"tf.math.erfinv(tf.constant({grid}, tf.{dt}))", f"tf.math.ndtri(tf.constant({pgrid}, tf.{dt}))",
                  f"tf.math.ndtri(tf.constant({tiny}, tf.{dt}))", f"tf.math.ndtri(tf.constant({near1}, tf.{dt}))",
                  f"tf.math.erfinv(tf.constant({near1}, tf.{dt}))", f"tf.math.erfinv(tf.constant({edges}, tf.{dt}))",
                  f"tf.math.ndtri(tf.constant({edges}, tf.{dt}))"]
        for n in (1, 3, 7, 9, 13):   # (tails, and packets beside a tail)
            calls.append(f"tf.math.erfinv(tf.constant(({grid})[::37][:{n}], tf.{dt}))")
            calls.append(f"tf.math.ndtri(tf.constant(({tiny})[::3][:{n}], tf.{dt}))")
    calls += ["tf.math.erfinv(tf.constant(0.5))", "tf.math.erfinv(tf.constant([0.5, -0.9, 0.999]))",
              "tf.math.erfcinv(tf.constant(np.arange(1, 200, dtype=np.float32) / np.float32(100)))",
              "tf.math.ndtri(tf.constant(0.01))", "tf.math.ndtri(tf.constant(0.99, tf.float64))"]
    return [(call, _E, _eager(call)) for call in calls] + \
        [(f"{call} in a tf.function", _T, _traced(call)) for call in calls[:4]]


# --- BesselI0/I0e/I1/I1e are Eigen's generic_i0e/i1e Chebyshev series (and exp(|x|) times them), BesselK0/K0e/K1/K1e
# its generic_k0e/k1e (with i0/i1 and log below 2), in the kernel's type: float32 and half in packets (the vrsqrtps rsqrt, pexp_float) and a tail (1 / sqrt, expf), float64 on the
# scalar path (fz44's open class: float32 bessel_i0e(1.0) 0.46575963 in TF, 0.46575961 from SciPy)
def _bessel_i_cases() -> list[tuple[str, str, object]]:
    grid = "np.arange(-1600, 1601, dtype=np.float32) / np.float32(64)"
    wide = "np.arange(-900, 901, 7, dtype=np.float32)"
    edges = "[0.0, -0.0, 1.0, -1.0, 8.0, -8.0, 8.5, 88.0, 89.0, 100.0, 1e-3, float('inf'), -float('inf'), " \
            "float('nan'), 1e-30]"
    calls = []
    for op in ("bessel_i0", "bessel_i0e", "bessel_i1", "bessel_i1e", "bessel_k0", "bessel_k0e", "bessel_k1", "bessel_k1e"):
        for dt in ("float32", "float64", "float16"):
            calls += [f"tf.math.special.{op}(tf.constant({grid}, tf.{dt}))",
                      f"tf.math.special.{op}(tf.constant({wide}, tf.{dt}))",
                      f"tf.math.special.{op}(tf.constant({edges}, tf.{dt}))"]
        for n in (1, 5, 9):
            calls.append(f"tf.math.special.{op}(tf.constant(({grid})[::41][:{n}]))")
    calls += ["tf.math.bessel_i0e(tf.constant(1.0))", "tf.math.bessel_i1e(tf.constant([0.5, -2.5, 9.0]))"]
    return [(call, _E, _eager(call)) for call in calls] + \
        [(f"{call} in a tf.function", _T, _traced(call)) for call in calls[:3]]


CASES: list[tuple] = [
    *_embedding_cases(),
    *_top_k_cases(),
    *_linspace_cases(),
    *_segment_join_cases(),
    *_ndtri_cases(),
    *_bessel_i_cases(),
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


@clause("ops.eigen-kernels")
@EDGES.parametrize("ops.eigen-kernels")
def test_eigen_kernels(k: int, tf_results: dict[int, object]) -> None:
    EDGES.check(k, tf_results)


def test_every_case_has_a_test() -> None:
    untested = EDGES.untested()
    assert not untested, f"cases of groups {untested} have no test function above"


if __name__ == "__main__":  # TF worker: python test_fz45_edges_tf.py 0,1,2 -> pickled results on stdout
    tf_workers.serve(EDGES.tf_worker)
