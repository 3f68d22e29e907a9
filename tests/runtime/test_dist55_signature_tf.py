"""A variable argument in a concrete function's structured_input_signature, against TF 2.21 (fifty-fifth session,
dist55; clause function.input-signature; simdist/tf/_concrete.py `VariableSpec`, `variable_specs`).

TF 2.21 shows a plain variable passed to `get_concrete_function` as `VariableSpec(shape=..., dtype=...,
trainable=..., alias_id=...)` (no name; the alias id numbers the call's distinct variables in argument order, a
variable passed twice shares one); simdist showed the TensorSpec it traces with, named after the parameter. Each
case: a list of [label, repr of the signature or [error class, message]].
"""

from __future__ import annotations

from typing import Any

import pytest

import tf_programs
import tf_workers

pytestmark = [pytest.mark.tf, tf_workers.tf_or_golden(__file__)]


def program(tf: Any, case: dict, workdir: str) -> Any:
    v = tf.Variable(1.0)
    w = tf.Variable([1, 2], trainable=False)
    f = tf.function(lambda a, b=None, c=None: a)
    out = []
    for label, args in [("one variable", (v,)), ("two variables", (v, w)), ("one variable twice", (v, v)),
                        ("a tensor, then a variable", (tf.constant(1.0), v)), ("a variable and a number", (v, 2.0)),
                        ("the second variable first", (w, v, v))]:
        try:
            out.append([label, repr(f.get_concrete_function(*args).structured_input_signature)])
        except Exception as e:  # noqa: BLE001 - the class and text are what is compared
            out.append([label, [type(e).__name__, str(e)]])
    return out


CASES: dict[str, dict] = {"variable_spec": {"strategy": "other", "name": "variable_spec"}}
NAMES = list(CASES)


@pytest.fixture(scope="module")
def tf_results(request: Any) -> dict[int, Any]:
    return tf_programs.spawn(__file__, CASES, tf_programs.selected(request, __file__))


@pytest.mark.clause("function.input-signature")
@pytest.mark.parametrize("index", [0])
def test_a_variable_argument_shows_its_variable_spec(index: int, tf_results: dict[int, Any], tmp_path: Any) -> None:
    got, want = tf_programs.on_simdist(program, CASES["variable_spec"], str(tmp_path)), tf_results[index]
    bad = [f"{w[0]}: TF {w[1]!r}, simdist {g[1]!r}" for g, w in zip(got, want) if g != w]
    assert len(got) == len(want) and not bad, "signatures differ from TF 2.21's:\n" + "\n".join(bad)


if __name__ == "__main__":  # TF worker
    tf_workers.serve(tf_programs.worker(CASES, program))
