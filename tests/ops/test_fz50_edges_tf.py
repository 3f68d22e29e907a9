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


CASES: list[tuple] = [
    *_proto_cases(),
    *_rsqrt_cases(),
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


def test_every_case_has_a_test() -> None:
    untested = EDGES.untested()
    assert not untested, f"cases of groups {untested} have no test function above"


if __name__ == "__main__":  # TF worker: python test_fz50_edges_tf.py 0,1,2 -> pickled results on stdout
    tf_workers.serve(EDGES.tf_worker)
