"""Rules behind the twentieth fuzzer's classes that fz40 closed (fresh campaigns of session 40: seeds
4020261201- and 1420403001-), and the programs of fz20_known.py entries found stale, each against real
TensorFlow 2.21: the same call on both backends gives the same dtype and values bit for bit (a NaN matching any
NaN), or raises the same exception class. Needs the `tf` extra.
"""

from __future__ import annotations

from typing import Any, Callable

import numpy as np
import pytest

import edge_compare
from edge_programs import eager as _eager, sig as _sig, tape as _tape, traced as _traced
import tf_workers

pytestmark = [pytest.mark.tf, tf_workers.tf_or_golden(__file__)]
clause = pytest.mark.clause

_K = "ops.fuzz-raw"
_T = "function.trace-time-errors"


def _tape2(expr: str, a: str, b: str) -> Callable[[Any], Any]:
    """The expression of watched `a` and `b` under a GradientTape, and its gradients (both)."""
    def run(tf: Any) -> Any:
        x, y = eval(a, {"tf": tf, "np": np}), eval(b, {"tf": tf, "np": np})  # noqa: S307 - our own text
        with tf.GradientTape(persistent=True) as tape:
            tape.watch(x)
            tape.watch(y)
            out = eval(expr, {"tf": tf, "np": np, "a": x, "b": y})  # noqa: S307 - our own text
        return [out, tape.gradient(out, [x, y])]
    return run


# --- GatherNd's kernel refuses a scalar params first, whatever the indices' shape: indices of depth 0 ([0], [2, 0])
# gather whole params of a vector, yet of a scalar they are "params must be at least a vector" eagerly and when a
# graph runs (GatherNdShape passes them: the refusal is the kernel's)
def _gather_nd_cases() -> list[tuple[str, str, object]]:
    out = []
    for p in ("tf.constant(4.0, tf.bfloat16)", "tf.constant(7, tf.int64)", "tf.constant([1.0, 2.0])",
              "tf.constant([[1, 2]], tf.int32)", "tf.zeros([0])", "tf.constant(True)"):
        for ind in ("tf.constant([], tf.int64)", "tf.zeros([2, 0], tf.int32)", "tf.zeros([0, 0], tf.int32)",
                    "tf.zeros([0, 1], tf.int32)", "tf.constant([0])", "tf.constant(0)"):
            call = f"tf.raw_ops.GatherNd(params={p}, indices={ind})"
            out.append((f"GatherNd params {p} indices {ind}", _K, _eager(call)))
            out.append((f"GatherNd params {p} indices {ind} in a tf.function", _T, _traced(call)))
            out.append((f"tf.gather_nd params {p} indices {ind}", _K, _eager(f"tf.gather_nd({p}, {ind})")))
    for spec in ([], None, [2]):
        out.append((f"GatherNd of a {spec} params spec, indices [0]", _T, _sig(
            "tf.raw_ops.GatherNd(params=x, indices=tf.constant([], tf.int64))", (spec, "float32"),
            "tf.constant(4.0)" if spec != [2] else "tf.constant([4.0, 5.0])")))
    return out


# --- fz20_known.py entries whose programs agree on this code (removed from the list): oneDNN's NCHW
# Conv2DBackpropFilter with a filter_sizes of two elements under a tape (tape seed 2920261205 #140)
def _conv_filter_sizes_cases() -> list[tuple[str, str, object]]:
    out = []
    x2 = "[[4.0, -0.0, 0.75, -0.5], [-0.5, 7.0, 0.75, 0.25], [-1.0, 0.75, 1.0, 2.5], [0.75, 2.5, 0.5, 4.0]]"
    x3 = "[[0.0, 0.75, 7.0, -1.0], [-0.5, 4.0, 0.5, 7.0], [-3.0, -1.0, 0.001, -0.5], [-0.5, 7.0, 1.0, -0.0]]"
    for dt in ("bfloat16", "float32", "float64"):
        # (oneDNN's NHWC kernel of a rank-2 input aborts TF's process, a CHECK in GetTensorDimIndex: not compared)
        for fmt in ("NCHW", "NHWC") if dt == "float64" else ("NCHW",):
            for fs in ("[4, 4]", "[3]", "[1, 1, 1, 1]"):
                call = (f"tf.raw_ops.Conv2DBackpropFilter(strides=[1, 3, 2, 1], use_cudnn_on_gpu=False, input=x[0], "
                        f"data_format='{fmt}', dilations=[1, 2, 1, 1], out_backprop=x[1], "
                        f"filter_sizes=tf.constant({fs}, tf.int32), padding='VALID')")
                src = f"tf.constant([{x2}, {x3}], tf.{dt})"
                out.append((f"Conv2DBackpropFilter {dt} {fmt} filter_sizes {fs} under a tape", _K, _tape(call, src)))
                out.append((f"Conv2DBackpropFilter {dt} {fmt} filter_sizes {fs}", _K, _eager(
                    f"(lambda x: {call})({src})")))
    return out


# ParseSequenceExampleV2 of rank-3 string inputs and a context_dense_defaults of an input_signature's [1] (sig seed
# 3120261211 #144): TF's shape function refuses it at trace
_PSE_CALL = (
    "tf.raw_ops.ParseSequenceExampleV2(context_dense_defaults=[x], feature_list_ragged_keys=tf.reshape(tf.constant("
    "[b'a', b'\\t', b' x y ', b'\\t', b'\\t', b'123'], tf.string), [1, 2, 3]), Nfeature_list_dense=0, "
    "feature_list_sparse_keys=tf.reshape(tf.constant([b' x y ', b'123', b'nan', b'\\t', b'', b' x y '], tf.string), "
    "[1, 2, 3]), feature_list_dense_missing_assumed_empty=tf.zeros([1, 2, 3], tf.bool), serialized=tf.reshape("
    "tf.constant([b'123', b'e', b'', b'-4.5', b'AbC', b'nan'], tf.string), {ser}), context_ragged_keys="
    "tf.reshape(tf.constant([b' x y '], tf.string), [1]), debug_name=tf.reshape(tf.constant([b'AbC', b'nan', b'123', "
    "b'AbC', b'a', b''], tf.string), {ser}), context_dense_keys=tf.reshape(tf.constant([b'123', b'AbC', b'a', b'a', "
    "b'\\t', b' x y '], tf.string), [1, 2, 3]), context_sparse_keys=tf.reshape(tf.constant([b'nan', b'123', b'-4.5', "
    "b' x y ', b'-4.5', b'e'], tf.string), [1, 2, 3]), Ncontext_sparse=3, feature_list_dense_keys=tf.reshape("
    "tf.constant([b'e', b'e', b'\\t', b'a', b'nan', b' x y '], tf.string), [1, 2, 3]))")


def _parse_sequence_cases() -> list[tuple[str, str, object]]:
    out = []
    for ser in ("[1, 2, 3]", "[6]"):
        call = _PSE_CALL.format(ser=ser)
        for spec in ([1], None, [None]):
            out.append((f"ParseSequenceExampleV2 serialized {ser} defaults of {spec}", _T, _sig(
                call, (spec, "int64"), "tf.constant([2], tf.int64)")))
        out.append((f"ParseSequenceExampleV2 serialized {ser} in a tf.function", _T, _traced(
            call.replace("[x]", "[tf.constant([2], tf.int64)]"))))
    return out


# complex64 MatMul(transpose_b=True) of 3x4 operands full of inf and NaN parts under a tape (seed 3120261201 #226)
_MM_A = ("[complex(float('inf'), -1.0), complex(0.5, -3.0), complex(7.0, -3.4e+38), complex(0.0, 0.25), "
         "complex(float('nan'), float('nan')), complex(float('nan'), float('inf')), complex(float('nan'), "
         "-float('inf')), complex(0.0, 1.0), complex(-1.0, -3.4e+38), complex(-float('inf'), 0.0), complex(0.25, -1.5), "
         "complex(float('nan'), float('inf'))]")
_MM_B = ("[complex(65504.0, -3.0), complex(0.75, 3.0e+38), complex(float('nan'), float('inf')), complex(float('nan'), "
         "float('inf')), complex(0.0, 0.0), complex(float('inf'), 65504.0), complex(-0.0, -1.5), complex(0.0, 7.0), "
         "complex(float('nan'), float('nan')), complex(0.0, 2.5), complex(-float('inf'), 7.0), complex(float('nan'), "
         "-float('inf'))]")


def _matmul_grad_cases() -> list[tuple[str, str, object]]:
    out = []
    for dt in ("complex64", "complex128"):
        a = f"tf.constant(np.array({_MM_A}, np.{dt}).reshape((3, 4)))"
        b = f"tf.constant(np.array({_MM_B}, np.{dt}).reshape((3, 4)))"
        out.append((f"MatMul {dt} transpose_b of fuzz20 seed 3120261201 #226 under a tape", _K, _tape2(
            "tf.raw_ops.MatMul(a=a, b=b, transpose_b=True)", a, b)))
        out.append((f"MatMul {dt} transpose_b grad_a of fuzz20 seed 3120261201 #226", _K, _tape2(
            "tf.raw_ops.MatMul(a=a, b=b, transpose_b=True, grad_a=True)", a, b)))
    return out


# float64 MatrixSolveLs of 4x4 systems with an l2_regularizer under a tape (seed 3220261209 #63's class)
def _solve_ls_cases() -> list[tuple[str, str, object]]:
    out = []
    for k in range(6):
        m = f"tf.constant(np.random.default_rng({k}).standard_normal((4, 4)))"
        r = f"tf.constant(np.random.default_rng({k + 10}).standard_normal((4, {1 + k % 3})))"
        for l2 in ("0.0", "0.5", "2.0"):
            for fast in (True, False):
                out.append((f"MatrixSolveLs float64 4x4 #{k} l2 {l2} fast {fast} under a tape", _K, _tape2(
                    f"tf.raw_ops.MatrixSolveLs(matrix=a, rhs=b, l2_regularizer=tf.constant({l2}, tf.float64), "
                    f"fast={fast})", m, r)))
    return out


CASES: list[tuple] = [
    *_gather_nd_cases(),
    *_conv_filter_sizes_cases(),
    *_parse_sequence_cases(),
    *_matmul_grad_cases(),
    *_solve_ls_cases(),
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


if __name__ == "__main__":  # TF worker: python test_fz40_edges_tf.py 0,1,2 -> pickled results on stdout
    tf_workers.serve(EDGES.tf_worker)
