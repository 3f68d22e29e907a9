"""A rule the twenty-fourth blind batch's observability programs found simdist breaking, against real
TensorFlow 2.21 (docs/conformance.md, "Twenty-sixth session: a twenty-fourth blind batch"):

- GradientTape.jacobian(experimental_use_pfor=False) of an empty target: TF's for_loop runs no iteration and
  stacks (0,)-shaped outputs, reshaped to the target's shape, whose set_shape(target.shape + source.shape)
  raises ValueError "Tensor's shape ... is not compatible with supplied shape ..." for the first source of
  rank 1 or more (a scalar source gets an empty result): simdist returned zeros of the full shape. With several
  sources TF 2.21 fails before that, packing the loop's outputs (ValueError "Could not pack sequence ..."): the
  class is compared there, not the message.

Values, dtypes, shapes and error classes compared case by case (case_results.Table). Needs the `tf` extra.
"""

from __future__ import annotations

import os
import re
from typing import Any

import pytest

import case_results
import tf_workers

pytestmark = [pytest.mark.tf, tf_workers.tf_or_golden(__file__)]


def _empty_jacobian(t_shape: tuple, s_shapes: list[tuple], pfor: bool) -> Any:
    def case(tf: Any) -> Any:
        xs = [tf.ones(s) for s in s_shapes]
        with tf.GradientTape(persistent=True) as tape:
            tape.watch(xs)
            y = tf.zeros(t_shape) * tf.add_n([tf.reduce_sum(x) for x in xs])
        try:
            out = tape.jacobian(y, xs, experimental_use_pfor=pfor)
        except ValueError as e:   # (several sources: TF's for_loop fails packing its outputs first; the class only)
            return ["ValueError", str(e) if len(s_shapes) == 1 else ""]
        return [[o.shape.as_list() for o in out], out]
    return case


CASES = {
    "jacobian/empty (0,) target of a (3,) source, for_loop": _empty_jacobian((0,), [(3,)], False),
    "jacobian/empty (0,) target of a (2, 2) source, for_loop": _empty_jacobian((0,), [(2, 2)], False),
    "jacobian/empty (2, 0) target of a (3,) source, for_loop": _empty_jacobian((2, 0), [(3,)], False),
    "jacobian/empty (0,) target of a scalar source, for_loop": _empty_jacobian((0,), [()], False),
    "jacobian/empty (0,) target of a scalar and a (1,) source, for_loop": _empty_jacobian((0,), [(), (1,)], False),
    "jacobian/empty (0, 2) target of a (3,) source, pfor": _empty_jacobian((0, 2), [(3,)], True),
}

TABLE = case_results.Table(__file__, CASES, re.compile(r"(?!)()"))


@pytest.fixture(scope="module")
def tf_results() -> dict[int, Any]:
    return TABLE.tf_results()


@pytest.mark.clause("autodiff.jacobian")
def test_jacobian_of_an_empty_target_without_pfor_refuses_shaped_sources(tf_results: dict[int, Any]) -> None:
    TABLE.check(tf_results, lambda lab: lab.startswith("jacobian/"))


if __name__ == "__main__":  # TF worker
    tf_workers.serve(TABLE.tf_worker)
    os._exit(0)
