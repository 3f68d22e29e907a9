"""Rules behind the disagreement classes fz52 closed (session 52: the fourteenth, twentieth, fourth, second and third
generators' new seeds, and the throwaway generators fz47b, fz50b, fz51b at seeds 52001-52003), each against real
TensorFlow 2.21: the same call on both backends gives the same dtype and values bit for bit, or raises the same
exception class, eagerly and in a tf.function. Needs the `tf` extra.
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


# --- A reduction's Python float axis eagerly: the fast path converts every input (the axis with Tidx's int32:
# TypeError "Cannot convert 1.0 to EagerTensor of dtype int32") before the op's attr T, or Any/All's bool input, is
# checked (fourth generator seed 5201 #25: `tf.reduce_all(float16, axis=1.0)` under a tape).
_H = "tf.constant([[1.0, 0.0], [2.5, -1.0]], tf.float16)"
_S = "tf.constant([['a', 'b']])"
_B = "tf.constant([[True, False]])"


def _float_axis_cases() -> list[tuple[str, str, object]]:
    calls = (f"tf.reduce_all({_H}, axis=1.0)", f"tf.reduce_any({_H}, axis=1.0)", f"tf.reduce_all({_H}, axis=1)",
             f"tf.reduce_sum({_S}, axis=1.0)", f"tf.reduce_prod({_S}, axis=1.0)", f"tf.reduce_max({_B}, axis=1.0)",
             f"tf.reduce_mean({_B}, axis=1.0)", f"tf.reduce_sum({_S}, axis=[1.0])", f"tf.reduce_all({_B}, axis=1.0)",
             f"tf.reduce_sum({_H}, axis=1.0)", f"tf.math.reduce_euclidean_norm({_S}, axis=1.0)")
    return _both(calls, "ops.conversion")


CASES: list[tuple] = [
    *_float_axis_cases(),
]


EDGES = edge_compare.EdgeModule(__file__, CASES, agree=lambda case: case[3] if len(case) > 3 else edge_compare.parts_agree)


@pytest.fixture(scope="module")
def tf_results() -> dict[int, object]:
    return EDGES.tf_answers()


@clause("ops.conversion")
@EDGES.parametrize("ops.conversion")
def test_reduction_float_axis_converts_first(k: int, tf_results: dict[int, object]) -> None:
    EDGES.check(k, tf_results)


def test_every_case_has_a_test() -> None:
    untested = EDGES.untested()
    assert not untested, f"cases of groups {untested} have no test function above"


if __name__ == "__main__":  # TF worker: python test_fz52_edges_tf.py 0,1,2 -> pickled results on stdout
    tf_workers.serve(EDGES.tf_worker)
