"""Rules behind the disagreement classes fz50 closed (session 50: the fourteenth, twentieth, fourth, second and third
generators' new seeds, and the throwaway generators fz47b-fz49b at seeds 50001-50003), each against real TensorFlow
2.21: the same call on both backends gives the same dtype and values bit for bit (a NaN matching any NaN; a NaN's sign
compared through tf.bitcast), or raises the same exception class, eagerly and in a tf.function. Needs the `tf` extra.
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


# --- A TensorProto converted inside a tf.function: a graph's make_tensor_proto returns it as it is, so the Const holds
# its value and dtype whatever dtype tf.constant asks; convert_to_tensor with another dtype or preferred dtype is
# RuntimeError "returned incompatible dtype". Eagerly ValueError "unsupported type" (fz14 seed 1420503001 #183:
# `tf.linalg.l2_normalize(tf.make_tensor_proto(...), dim=1)` in a tf.function computes on TF 2.21).
_P = "tf.make_tensor_proto([[2.5, -1.5, 5e-324, 7.0], [65504.0, -0.0, 2.5, -0.0], [1e+300, -1.0, 7.0, -1.5]])"
_PI = "tf.make_tensor_proto([1, 2, 3])"


def _proto_cases() -> list[tuple[str, str, object]]:
    calls = (f"tf.linalg.l2_normalize({_P}, dim=1)", f"tf.add({_P}, 1.0)", f"tf.convert_to_tensor({_P})",
             f"tf.reduce_sum({_P}, 1)", f"tf.constant({_P}, tf.float64)", f"tf.constant({_P}, shape=[12])",
             f"tf.convert_to_tensor({_P}, tf.float64)", f"tf.convert_to_tensor({_P}, dtype_hint=tf.float64)",
             f"tf.add(tf.constant(1.0, tf.float64), {_P})", f"tf.add({_PI}, 1)",
             f"tf.add({_PI}, tf.constant(1, tf.int64))", "tf.strings.upper(tf.make_tensor_proto(['a', 'b']))",
             f"tf.stack([{_PI}, {_PI}])", f"tf.shape({_P})")
    return _both(calls, "ops.tensor-proto")


# --- float32 Rsqrt's packets: vrsqrtps of a negative number is the real indefinite -NaN, of a NaN that NaN (its sign
# kept), and the Newton step keeps it; float16 converts it with its sign, bfloat16's F32ToBf16 packet makes every NaN
# +NaN (0x7FC0); the scalar tail's 1/sqrt gives -NaN for a negative (seen beside #183's values in a tf.function).
_V = ("[-1.5, -1.0, 2.0, float('nan'), -float('nan'), -0.0, 0.0, -float('inf'), float('inf'), -1e-40, 1e-40, 4.0, "
      "-3.0, 9.0, -2.5, 1.0, -7.0]")


def _rsqrt_cases() -> list[tuple[str, str, object]]:
    calls = []
    for dt, bits in (("float32", "int32"), ("float16", "int16"), ("bfloat16", "int16")):
        for n in (8, 17):
            calls.append(f"tf.bitcast(tf.math.rsqrt(tf.cast(tf.constant({_V}[:{n}]), tf.{dt})), tf.{bits})")
    return _both(tuple(calls), "ops.eigen-kernels")


# --- MatrixLogarithm reads subnormal parts as zeros and flushes its result's (DAZ/FTZ), and a 1x1 zero (a flushed
# subnormal too) is -inf+nanj in complex64, nan+nanj in complex128 (fz3 --ext8 seed 5001 #66: the batch's second
# matrix [[1, -0.001-0.001j], [0, 1e-40]] has no logarithm on TF 2.21; simdist gave its log with -92.1).
def _logm_cases() -> list[tuple[str, str, object]]:
    calls = []
    for dt, tiny in (("complex64", "1e-40"), ("complex128", "1e-310")):
        for m in (f"[[1, -0.001-0.001j], [0, {tiny}]]", f"[[1, 0], [0, {tiny}]]", f"[[{tiny}]]", "[[0j]]",
                  f"[[complex(2.0, {tiny})]]", f"[[2, {tiny}], [0, 3]]"):
            calls.append(f"tf.linalg.logm(tf.constant(np.array({m}, np.{dt})))")
    return _both(tuple(calls), "ops.linalg-logm")


# --- BinaryOp's broadcast of more than 5 dimensions after BCast groups them (runs of one pattern of which side is 1;
# dimensions 1 on both sides dropped): UnimplementedError "Broadcast between [3,1,3,1,2,1] and [1,2,1,2,1,2] is not
# supported yet." eagerly and when a tf.function's graph runs (fz49b_gen seed 50001 #5: tnp.kron of two 3-D arrays).
def _t(shape: list[int], dt: str = "float32") -> str:
    n = 1
    for d in shape:
        n *= d
    return f"tf.cast(tf.reshape(tf.range({n}) % 5, {shape}), tf.{dt})"


def _bcast_cases() -> list[tuple[str, str, object]]:
    pairs = (([3, 1, 3, 1, 2, 1], [1, 2, 1, 2, 1, 2]), ([3, 1, 3, 1, 2, 1], [3, 2, 3, 2, 2, 2]),
             ([2, 1, 2, 1, 2, 1], [1, 2, 1, 2, 1, 1]), ([2, 1, 2, 1, 2, 1, 1], [1, 2, 1, 2, 1, 2, 1]),
             ([2, 1, 2, 1, 2], [1, 2, 1, 2, 1]), ([2, 3, 1, 1, 2, 1], [1, 1, 4, 5, 1, 2]),
             ([2, 2, 2, 2, 2, 2], [1, 1, 1, 1, 1, 2]), ([2, 1, 2, 1, 2, 1, 2], [1, 2, 1, 2, 1, 2, 1]))
    calls = []
    for a, b in pairs:
        calls += [f"tf.math.add({_t(a)}, {_t(b)})", f"tf.math.less({_t(a)}, {_t(b)})",
                  f"tf.math.logical_and({_t(a, 'bool')}, {_t(b, 'bool')})"]
    calls += [f"tf.math.pow({_t([3, 1, 3, 1, 2, 1])}, {_t([1, 2, 1, 2, 1, 2])})",
              f"tf.math.floordiv({_t([3, 1, 3, 1, 2, 1], 'int32')}, 1 + {_t([1, 2, 1, 2, 1, 2], 'int32')})",
              f"{_t([3, 1, 3, 1, 2, 1])} * {_t([1, 2, 1, 2, 1, 2])}",
              f"tf.raw_ops.SquaredDifference(x={_t([3, 1, 3, 1, 2, 1])}, y={_t([1, 2, 1, 2, 1, 2])})",
              f"tf.experimental.numpy.kron({_t([3, 3, 2])}, {_t([2, 2, 2])})",
              f"tf.where({_t([3, 1, 3, 1, 2, 1], 'bool')}, {_t([3, 1, 3, 1, 2, 1])}, {_t([1, 2, 1, 2, 1, 2])})"]
    return _both(tuple(calls), "ops.shape-errors")


# --- Eagerly the fast path reads a float-list attr's items as Python floats: a float64 ndarray's np.float64 items are
# (fractional_avg_pool computes), an int or float32 ndarray's are not, so the call takes the fallback, whose list check
# is TypeError "Expected list for 'pooling_ratio'" before any kernel check (fz14 seed 1420503003 #37).
def _fractional_cases() -> list[tuple[str, str, object]]:
    calls = []
    for fn in ("fractional_avg_pool", "fractional_max_pool"):
        for dt in ("int32", "int64", "float32", "float64"):
            calls.append(f"tf.nn.{fn}(value=np.ones([1, 4, 4, 1], np.float32), "
                         f"pooling_ratio=np.array([1, 2, 2, 1], np.{dt}), seed=1)[0]")
        calls.append(f"tf.nn.{fn}(value=np.array([-1, 2, 2, 0], np.int64), "
                     "pooling_ratio=np.array([-1, 5, 3, 5], np.int32))")
    return [(c, "ops.argument-errors", _eager(c)) for c in calls]


# --- TensorStridedSliceUpdate's gradient is array_grad's: the value's part is the slice of the upstream gradient
# summed over BroadcastGradientArgs(slice shape, value's shape)'s axes with keepdims, then reshaped to the value's
# shape, which fails where the kernel's fitting (leading ones dropped) let an empty or non-broadcasting slice through
# (fuzz20 seed 5020261202 #79: a [1, 0, 1, 2, 1] slice beside a [3, 2, 1] value is Reshape's InvalidArgumentError).
def _tssu_grad_cases() -> list[tuple[str, str, object]]:
    upd = ("tf.raw_ops.TensorStridedSliceUpdate(input=x, begin=tf.constant({b}, tf.int32), end=tf.constant({e}, "
           "tf.int32), strides=tf.constant({s}, tf.int32), value=v, shrink_axis_mask={sh}, new_axis_mask={na})")
    cases = []
    for b, e, st, sh, na, vshape in (([0, 2, 1], [2, -1, -1], [-2, -2, -1], 1, 5, [3, 2, 1]),
                                     ([0, 2, 1], [2, -1, -1], [-2, -2, -1], 1, 5, [2, 1]),
                                     ([0], [0], [1], 0, 0, [2, 1]),
                                     ([0], [2], [1], 0, 0, [1, 1, 2, 1])):
        body = upd.format(b=b, e=e, s=st, sh=sh, na=na)
        cases.append((f"the gradient of {body} of x [3, 2, 1], v {vshape}", "ops.raw-ops",
                      _grad_of(body, vshape)))
    return cases


def _grad_of(body: str, vshape: list[int]):
    def run(tf):
        import numpy as np
        x = tf.constant(np.arange(6, dtype=np.float32).reshape((3, 2, 1)))
        v = tf.constant(np.arange(int(np.prod(vshape)), dtype=np.float32).reshape(vshape) + 10)
        with tf.GradientTape() as t:
            t.watch([x, v])
            y = eval(body, {"tf": tf, "x": x, "v": v})  # noqa: S307 - our own text
        return [y, t.gradient(y, [x, v])]
    return run


CASES: list[tuple] = [
    *_proto_cases(),
    *_rsqrt_cases(),
    *_logm_cases(),
    *_bcast_cases(),
    *_fractional_cases(),
    *_tssu_grad_cases(),
]


EDGES = edge_compare.EdgeModule(__file__, CASES, agree=lambda case: case[3] if len(case) > 3 else edge_compare.parts_agree)


@pytest.fixture(scope="module")
def tf_results() -> dict[int, object]:
    return EDGES.tf_answers()


@clause("ops.tensor-proto")
@EDGES.parametrize("ops.tensor-proto")
def test_tensor_proto_in_a_graph(k: int, tf_results: dict[int, object]) -> None:
    EDGES.check(k, tf_results)


@clause("ops.eigen-kernels")
@EDGES.parametrize("ops.eigen-kernels")
def test_rsqrt_packet_nan_sign(k: int, tf_results: dict[int, object]) -> None:
    EDGES.check(k, tf_results)


@clause("ops.linalg-logm")
@EDGES.parametrize("ops.linalg-logm")
def test_logm_flushes_subnormals(k: int, tf_results: dict[int, object]) -> None:
    EDGES.check(k, tf_results)


@clause("ops.shape-errors")
@EDGES.parametrize("ops.shape-errors")
def test_broadcast_of_more_than_five_groups(k: int, tf_results: dict[int, object]) -> None:
    EDGES.check(k, tf_results)


@clause("ops.argument-errors")
@EDGES.parametrize("ops.argument-errors")
def test_fractional_pool_ratio_arrays(k: int, tf_results: dict[int, object]) -> None:
    EDGES.check(k, tf_results)


@clause("ops.raw-ops")
@EDGES.parametrize("ops.raw-ops")
def test_strided_slice_update_gradient(k: int, tf_results: dict[int, object]) -> None:
    EDGES.check(k, tf_results)


def test_every_case_has_a_test() -> None:
    untested = EDGES.untested()
    assert not untested, f"cases of groups {untested} have no test function above"


if __name__ == "__main__":  # TF worker: python test_fz50_edges_tf.py 0,1,2 -> pickled results on stdout
    tf_workers.serve(EDGES.tf_worker)
