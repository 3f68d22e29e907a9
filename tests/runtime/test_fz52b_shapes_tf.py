"""Static shapes and control flow inside a tf.function whose input_signature leaves dimensions unknown, against
real TensorFlow 2.21 (the fifty-second session's generator tests/fuzz52b/fz52b_gen.py, helper fz52b): the shape user
code reads of a tf.cond / tf.switch_case / tf.case result while the function traces is the most specific shape
compatible with every branch's (clause function.traced-branches). Each case: a list of [label, value]; a value is the
`str(t.shape)` read inside the trace, or the concrete function's output shapes.
"""

from __future__ import annotations

from typing import Any

import pytest

import tf_programs
import tf_workers

pytestmark = [pytest.mark.tf, tf_workers.tf_or_golden(__file__)]


def _shapes(fn: Any) -> list:
    return [None if t.shape.rank is None else t.shape.as_list() for t in fn.get_concrete_function().structured_outputs]


def program(tf: Any, case: dict, workdir: str) -> Any:
    out: list[Any] = []
    seen: list[Any] = []
    name = case["name"]
    if name == "cond_shapes":
        @tf.function(input_signature=[tf.TensorSpec([3, None], tf.float32)])
        def f(x: Any) -> Any:
            a = x + 1.0
            r = [tf.cond(tf.reduce_sum(x) > 0, lambda: a, lambda: a),                       # (3, None) both
                 tf.cond(tf.reduce_sum(x) > 0, lambda: x * 2.0, lambda: -x),                 # (3, None) both
                 tf.cond(tf.reduce_sum(x) > 0, lambda: x[:, :1], lambda: x[:, :2]),          # (3, 1) / (3, None)
                 tf.cond(tf.reduce_sum(x) > 0, lambda: x[:1], lambda: x[1:]),               # (1, None) / (2, None)
                 tf.cond(tf.reduce_sum(x) > 0, lambda: tf.reshape(x, [-1]), lambda: x),     # ranks differ
                 tf.switch_case(tf.shape(x)[0] % 3, [lambda: x + 1.0, lambda: x * 0.0]),
                 tf.case([(tf.reduce_sum(x) > 0, lambda: x * 3.0)], default=lambda: x)]
            seen.extend(str(t.shape) for t in r)
            return r
        f(tf.constant([[1.0, -2.0], [0.5, 0.25], [3.0, 1.0]]))
        out.append(["traced", seen[:7]])   # (the first trace: simdist's get_concrete_function runs the Python again)
        out.append(["outputs", _shapes(f)])
    return out


NAMES = ["cond_shapes"]
CASES: dict[str, dict] = {n: {"strategy": "default", "name": n} for n in NAMES}


@pytest.fixture(scope="module")
def tf_results(request: Any) -> dict[int, Any]:
    return tf_programs.spawn(__file__, CASES, tf_programs.selected(request, __file__))


@pytest.mark.clause("function.traced-branches")
@pytest.mark.parametrize("index", range(len(NAMES)), ids=NAMES)
def test_shapes_as_tf(index: int, tf_results: dict[int, Any], tmp_path: Any) -> None:
    name = NAMES[index]
    got, want = tf_programs.on_simdist(program, CASES[name], str(tmp_path)), tf_results[index]
    assert [g[0] for g in got] == [w[0] for w in want], f"{name}: labels differ"
    for g, w in zip(got, want):
        assert g == w, f"{name}: {w[0]}: simdist gives {g[1]}, TF 2.21 gives {w[1]}"


if __name__ == "__main__":  # TF worker
    tf_workers.serve(tf_programs.worker(CASES, program))
