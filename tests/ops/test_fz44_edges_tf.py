"""Rules behind the disagreement classes fz44 closed (fresh campaigns of session 44: fourteenth generator seeds
1420443001-, twentieth 4420261201-, fz4 4401), each against real TensorFlow 2.21: the same call on both backends gives
the same dtype and values bit for bit (a NaN matching any NaN), or raises the same exception class, eagerly, inside a
tf.function and with an input_signature the graph does not know the rank of. Needs the `tf` extra.
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


def _both(calls: tuple[str, ...], group: str) -> list[tuple[str, str, object]]:
    out = []
    for call in calls:
        out.append((call, group, _eager(call)))
        out.append((f"{call} in a tf.function", _T, _traced(call)))
    return out


def _unknown_rank(cases: tuple[tuple[str, str, str], ...]) -> list[tuple[str, str, object]]:
    """(expression of x, x's dtype, the argument): traced with a TensorSpec(None) (the graph knows no rank of x),
    then called."""
    return [(f"{expr} of an unknown-rank {dt} spec, called with {arg}", _T, _sig(expr, (None, dt), arg))
            for expr, dt, arg in cases]


# --- random_crop / stateless_random_crop (random_crop_ops.py, one body): Assert(shape >= size) runs with the graph,
# Slice's shape function at trace, before it; eagerly the Assert first (fz14 seed 1420443003 #2)
def _crop_cases() -> list[tuple[str, str, object]]:
    seed = "seed=tf.constant([5, 6])"
    return _both((
        f"tf.image.stateless_random_crop(np.array([-1], dtype=np.int64), size=np.array([2, 0], dtype=np.int64), {seed})",
        f"tf.image.stateless_random_crop(np.array([-1], dtype=np.int64), size=np.array([2], dtype=np.int64), {seed})",
        f"tf.image.stateless_random_crop(np.array([[1, 2]], dtype=np.int64), size=[1], {seed})",
        f"tf.image.stateless_random_crop(tf.ones([2, 3, 4]), size=[1, 1], {seed})",
        f"tf.image.stateless_random_crop(tf.ones([2, 3]), size=[3, 1], {seed})",
        f"tf.image.stateless_random_crop(tf.reshape(tf.range(24), [4, 6]), size=[2, 3], {seed})",
        "tf.image.stateless_random_crop(tf.reshape(tf.range(24.0), [2, 3, 4]), size=[2, 2, 2], seed=[1, 2])",
        f"tf.image.stateless_random_crop(tf.reshape(tf.range(6), [2, 3]), size=[1], {seed})",
        "tf.image.random_crop(np.array([-1], dtype=np.int64), size=np.array([2, 0], dtype=np.int64), seed=3)",
        "tf.image.random_crop(np.array([[1, 2]], dtype=np.int64), size=[1], seed=3)",
        "tf.image.random_crop(tf.ones([2, 3, 4]), size=[1, 1], seed=3)",
    ), _K)


# --- a kernel's refusal in a dry run of an unknown-rank input keeps the rank unknown (dispatch.refused `like`:
# MatrixBandPart, Cast, the scans, ReverseSequence), the unicode wrappers' "Rank of `input` must be statically known."
# (fz14 seed 1420443003 #25); GatherV2's output of an unknown-rank params is of unknown rank (fz4 seed 4401 #56);
# elementwise ops without a stacked form (AsString) keep their input's unknown dimensions
def _standin_rank_cases() -> list[tuple[str, str, object]]:
    f2 = "tf.constant([0.5, -0.0])"
    return _unknown_rank((
        ("tf.strings.unicode_split_with_offsets(tf.linalg.band_part(x, 5, 1), np.array([1, 3], np.int16))", "float32", f2),
        ("tf.strings.unicode_split_with_offsets(tf.linalg.band_part(x, 5, 1), 'UTF-8')", "float32", f2),
        ("tf.strings.unicode_decode(tf.linalg.band_part(x, 1, 1), 'UTF-8')", "string", "tf.constant(['a', 'b'])"),
        ("tf.strings.unicode_decode(tf.linalg.band_part(x, 1, 1), 'UTF-8')", "string", "tf.constant([['a', 'b']])"),
        ("tf.strings.bytes_split(tf.linalg.band_part(x, 0, 0))", "string", "tf.constant(['ab'])"),
        ("tf.linalg.band_part(x, 0, 0)", "float32", f2),
        ("tf.linalg.band_part(x, 0, 0)", "float32", "tf.constant([[0.5, -0.0], [2.0, 3.0]])"),
        ("tf.strings.unicode_decode(tf.cast(x, tf.string), 'UTF-8')", "float32", "tf.constant([0.5])"),
        ("tf.strings.unicode_decode(tf.strings.as_string(tf.math.cumsum(x, axis=5)), 'UTF-8')", "float32",
         "tf.constant([0.5])"),
        ("tf.strings.unicode_decode(tf.strings.as_string(x), 'UTF-8')", "float32", "tf.constant([0.5])"),
        ("tf.strings.unicode_decode(tf.strings.upper(x), 'UTF-8')", "string", "tf.constant(['a'])"),
        ("tf.strings.unicode_decode(tf.reverse_sequence(x, [1], seq_axis=-1, batch_axis=0), 'UTF-8')", "string",
         "tf.constant([['a']])"),
        ("tf.math.cumsum(x, axis=5)", "float32", "tf.constant([0.5])"),
        ("tf.gather(x, 0)[0]", "float64", "tf.constant([0.0], tf.float64)"),
        ("tf.gather(x, 0)[0]", "float64", "tf.constant([[0.0, 1.0]], tf.float64)"),
        ("tf.gather(x, [0, 0], axis=0)[0]", "float64", "tf.constant([0.0], tf.float64)"),
        ("tf.gather(x, 0, axis=-1)[0]", "float64", "tf.constant([[0.0, 1.0]], tf.float64)"),
        ("tf.raw_ops.GatherV2(params=x, indices=0, axis=0)[0]", "float64", "tf.constant([0.0], tf.float64)"),
        ("tf.strings.unicode_decode(tf.gather(x, [0]), 'UTF-8')", "string", "tf.constant(['a'])"),
    ))


# --- GatherNd's shape function compares indices.shape[-1] with params' rank only where the graph knows both (fz20
# sig seed 4420261201 #188)
def _gather_nd_cases() -> list[tuple[str, str, object]]:
    p = "tf.constant([[-1, 1, 2], [-1, -1, 5], [2, 7, -4], [7, 7, 2]], tf.int16)"
    out = []
    for ind in ("[0, 0, 1, 1]", "[0, 0, 1]", "[[0, 5]]", "[0, 5]", "[5]", "[[0, 0, 0]]", "[[0, 1]]"):
        expr = f"tf.raw_ops.GatherNd(params=x, indices={ind})"
        for spec in (None, [None, None], [4, None]):
            out.append((f"{expr} of a {spec} int16 spec", _T, _sig(expr, (spec, "int16"), p)))
    out.append(("tf.gather_nd(x, [0, 1, 0]) of a None int16 spec", _T, _sig("tf.gather_nd(x, [0, 1, 0])",
                                                                          (None, "int16"), p)))
    return out


# --- SparseConcat's shape function merges each part's indices rows with its values' length, the indices' columns
# across the parts and the shape vectors (fz20 seed 4420261201 #38)
def _sparse_concat_cases() -> list[tuple[str, str, object]]:
    v = "values=(tf.constant([2.5]), tf.constant([0.75]))"
    s = "shapes=[tf.constant([5], tf.int64), tf.constant([7], tf.int64)]"
    one = "tf.constant([[1]], tf.int64)"
    return _both((
        f"tf.raw_ops.SparseConcat({v}, concat_dim=0, {s}, indices=[[[-1, -1, -1], [0, 1, 1], [1, 1, 1]], "
        "tf.constant([[0, 0]], tf.int64)])",
        f"tf.raw_ops.SparseConcat({v}, concat_dim=0, {s}, indices=[[[0]], tf.constant([[0, 0]], tf.int64)])",
        f"tf.raw_ops.SparseConcat({v}, concat_dim=0, {s}, indices=[[[0]], {one}])",
        f"tf.raw_ops.SparseConcat({v}, concat_dim=0, {s}, indices=[[[0], [1]], {one}])",
        f"tf.raw_ops.SparseConcat({v}, concat_dim=0, shapes=[tf.constant([5], tf.int64), tf.constant([7, 1], tf.int64)], "
        f"indices=[[[0]], {one}])",
        f"tf.raw_ops.SparseConcat(values=(tf.constant([2.5]), tf.constant([1.0, 2.0])), concat_dim=0, {s}, "
        f"indices=[[[0]], {one}])",
        f"tf.raw_ops.SparseConcat({v}, concat_dim=0, {s}, indices=[[[0, 0]], {one}])",
        f"tf.raw_ops.SparseConcat({v}, concat_dim=0, {s}, indices=[[[0, 0], [0, 1]], tf.constant([[1, 0], [1, 1]], "
        "tf.int64)])",
        f"tf.raw_ops.SparseConcat({v}, concat_dim=1, {s}, indices=[[[0]], {one}])",
        f"tf.raw_ops.SparseConcat({v}, concat_dim=0, shapes=[tf.constant([5, 2], tf.int64), tf.constant([7, 2], "
        f"tf.int64)], indices=[[[0]], {one}])",
        "tf.sparse.concat(0, [tf.sparse.SparseTensor([[0]], [1.0], [2]), tf.sparse.SparseTensor([[0, 1]], [2.0], "
        "[2, 2])])",
    ), _K)


# --- a Python int in [2**63, 2**64) converted by a graph's make_tensor_proto is uint64 (NumPy's inference), a
# scalar as in a list; func_graph converts each returned Python value in the graph, its ValueError or TypeError
# func_graph's TypeError (fz14 seed 1420443004 #14)
def _big_int_cases() -> list[tuple[str, str, object]]:
    return _both((
        "tf.constant(18446744073709551615)", "tf.constant(9223372036854775808)", "tf.constant(-9223372036854775809)",
        "tf.convert_to_tensor(2**64 - 1)", "tf.constant([1, 18446744073709551615])", "tf.constant([2**64 - 1, 2**63])",
        "tf.get_static_value([1, 18446744073709551615])", "tf.get_static_value(18446744073709551615)",
        "(18446744073709551615, [2**63])", "[2**64]", "[-2**63 - 1]", "[2**63 - 1, -2**63]", "2**63",
        "tf.get_static_value([[[3, 0], [5, 18446744073709551615]], [[1, 2], [0, 1]]])",
    ), _C)


# --- a graph's make_tensor_proto of strings beside numbers or bools (no dtype): NumPy's string array, whose
# compat.as_bytes of a number is TypeError; eagerly "mixed types" ValueError (found by this module's own
# `reduce_any([True, 'a'])` in a tf.function)
def _mixed_string_cases() -> list[tuple[str, str, object]]:
    return _both((
        "tf.constant([True, 'a'])", "tf.constant(['a', 1])", "tf.constant(['a', 1.5])", "tf.constant([b'a', 1])",
        "tf.constant([[1], ['a']])", "tf.constant(['a', True], tf.string)", "tf.constant([1, 'a'], tf.string)",
        "tf.constant(['1', 2], tf.int32)", "tf.constant([True, 'a'], tf.bool)", "tf.constant(['a', 1j])",
        "tf.constant([np.float32(1.0), 'a'])", "tf.constant(['a', b'b'])", "tf.constant(['a', None])",
        "tf.convert_to_tensor(['a', 1], dtype_hint=tf.int32)", "tf.strings.length(['ab', 3])",
    ), _C)


# --- reduce_any/reduce_all: math_ops' _ReductionDims converts a non-tensor input without a dtype (array_ops.rank)
# before the op's bool conversion (fz14 seed 1420443004 #202)
def _reduce_bool_cases() -> list[tuple[str, str, object]]:
    return _both((
        "tf.reduce_any([[[0.001, 1.0, 1e+300], [0.0, 1.0, -1.5]]], keepdims=True)",
        "tf.reduce_all([0.001, 1e300])", "tf.reduce_any([0.001, 1.0])", "tf.reduce_any([0.001, 1e300], axis=0)",
        "tf.reduce_any([1, 2**70])", "tf.reduce_all([True, 1e300])", "tf.reduce_any([True, False])",
        "tf.reduce_all([[True], [False]], axis=None)", "tf.reduce_any(np.array([1.5]))", "tf.reduce_any(1e300)",
        "tf.reduce_all(np.array([True, False]))", "tf.reduce_any([True, 'a'])",
    ), _C)


# --- PadV2's input and a tensor constant_values share T: eagerly the tensor fixes it (a Python input converted to
# its dtype, an input tensor of another dtype the kernel's refusal), in a graph the input's own dtype first, then
# op_def_library's TypeError before the shape function (fz14 seed 1420443004 #212)
def _pad_cases() -> list[tuple[str, str, object]]:
    c5, c1 = "constant_values=tf.constant(0.5)", "constant_values=tf.constant(1)"
    return _both((
        f"tf.pad(-4, [[1, 1]], mode='constant', {c5})", f"tf.pad(-4, [[1, 1]], {c1})", f"tf.pad(-4.0, [[1, 1]], {c1})",
        f"tf.pad(tf.constant(-4), [[1, 1]], {c5})", f"tf.pad(tf.constant([-4]), [[1, 1]], {c5})",
        f"tf.pad([-4], [[1, 1]], {c5})", f"tf.pad([-4], [[0, 0]], {c5})", f"tf.pad([-4], [[1, 1]], mode='reflect', {c5})",
        f"tf.pad(np.array([1.0, 2.0]), [[1, 1]], {c5})", f"tf.pad(np.array([1.0, 2.0], np.float32), [[1, 1]], {c5})",
        "tf.pad([1.0, 2.0], [[1, 1]], constant_values=tf.constant(3))",
        "tf.pad([True], [[1, 1]], constant_values=tf.constant(3))",
        "tf.pad(['a'], [[1, 1]], constant_values=tf.constant('b'))",
        "tf.pad([1, 2], [[1, 1]], constant_values=tf.constant(0.5, tf.float64))",
        "tf.pad([1, 2], [1, 1], constant_values=tf.constant(0.5, tf.float64))",
        "tf.pad([1, 2], [[1, 1]], constant_values=tf.constant([0.5]))", "tf.pad(-4, [[1, 1]], constant_values=0.5)",
    ), _K) + [(call, _K, _eager(call)) for call in (   # (eagerly a variable is converted to T, as a Python input)
        f"tf.pad(tf.Variable([1.0, 2.0]), [[1, 1]], {c5})", f"tf.pad(tf.Variable([1, 2]), [[1, 1]], {c5})",
        "tf.pad(tf.Variable([1, 2]), [[1, 1]], constant_values=tf.constant(3))")]


# --- SegmentMax/SegmentMin of data without rows: the empty result (simdist's row fold had reshaped with -1;
# fz20 sig seed 4420261206 #71)
def _segment_cases() -> list[tuple[str, str, object]]:
    calls = []
    for op in ("Max", "Min"):
        for dt in ("bfloat16", "float16", "float32", "float64", "int32"):
            calls.append(f"tf.raw_ops.Segment{op}(data=tf.zeros([0, 1, 0], tf.{dt}), segment_ids=tf.constant([], "
                         "tf.int64))")
        calls += [f"tf.math.segment_{op.lower()}(tf.zeros([0, 3], tf.bfloat16), tf.constant([], tf.int64))",
                  f"tf.math.segment_{op.lower()}(tf.zeros([0]), tf.constant([], tf.int32))",
                  f"tf.math.segment_{op.lower()}(tf.zeros([2, 0], tf.bfloat16), tf.constant([0, 1], tf.int64))",
                  f"tf.math.segment_{op.lower()}(tf.zeros([0, 3]), tf.constant([0], tf.int64))"]
    return _both(tuple(calls), _K)


# --- float32 digamma is Eigen's digamma_impl<float> (Cephes' psi in float32: reflection, recurrence to s >= 10,
# asymptotic series), half the same on float(x) rounded; SciPy's psi had rounded the double result (found by fz44's
# sweep of unary ops over edge values: digamma(1.0) is -0.5772159 in TF, -0.5772157 from SciPy)
def _digamma_cases() -> list[tuple[str, str, object]]:
    grid = "np.arange(-2000, 3000, dtype=np.float32) / np.float32(64)"
    edges = "[0.0, -0.0, 1.0, -1.5, float('nan'), float('inf'), -float('inf'), 1e-45, -1e-38, 3.4e38, 0.5, -2.5, " \
            "1e7, 1e8, 2e8, -1e5 - 0.5, -1e-5, 123.456]"
    return _both((
        f"tf.math.digamma(tf.constant({grid}))", f"tf.math.digamma(tf.constant({edges}))",
        f"tf.math.digamma(tf.constant({grid}, tf.float16))", f"tf.math.digamma(tf.constant({edges}, tf.float16))",
        f"tf.math.polygamma(0.0, tf.constant({grid}))", f"tf.math.digamma(tf.constant({edges}, tf.float64))",
    ), _K)


CASES: list[tuple] = [
    *_crop_cases(),
    *_standin_rank_cases(),
    *_gather_nd_cases(),
    *_sparse_concat_cases(),
    *_big_int_cases(),
    *_mixed_string_cases(),
    *_reduce_bool_cases(),
    *_pad_cases(),
    *_segment_cases(),
    *_digamma_cases(),
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


if __name__ == "__main__":  # TF worker: python test_fz44_edges_tf.py 0,1,2 -> pickled results on stdout
    tf_workers.serve(EDGES.tf_worker)
