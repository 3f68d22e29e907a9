"""A rule the twenty-fifth blind batch's gap tests found simdist breaking, against real TensorFlow 2.21
(docs/conformance.md, "Twenty-seventh session: a twenty-fifth blind batch"):

- tf.custom_gradient called with keyword arguments: TF's eager decorator makes only the positional arguments
  the op's inputs (grad_fn returns one gradient per positional argument; a keyword tensor or variable gets no
  gradient, None, and a variable passed by keyword is not among grad_fn's `variables`); returning a gradient
  for a keyword argument too is ValueError "custom_gradient function expected to return 1 gradients, but
  returned 2 instead." In a tf.function TF's graph-mode decorator refuses keyword arguments at once (ValueError
  "The custom_gradient decorator currently supports keywords arguments only when eager execution is
  enabled."). simdist counted keyword arguments as inputs (wanting a gradient for each) and ran them traced.

Values, shapes and error classes (and messages) compared case by case (case_results.Table). Needs the `tf` extra.
"""

from __future__ import annotations

import os
import re
from typing import Any

import pytest

import case_results
import tf_workers

pytestmark = [pytest.mark.tf, tf_workers.tf_or_golden(__file__)]


def _keyword_call(kw_kind: str, grads: int, traced: bool) -> Any:
    def case(tf: Any) -> Any:
        seen: list = []
        w = tf.Variable(2.0, name="w")

        @tf.custom_gradient
        def f(a, b=None):
            def grad_fn(up, variables=None):
                seen.append(None if variables is None else len(variables))
                outs = [up * 5.0, up * 7.0][:grads]
                if variables:
                    return outs, [up * 0.0 for _ in variables]
                return outs
            return a * b * w, grad_fn

        x = tf.constant(3.0)
        b = tf.Variable(4.0, name="b") if kw_kind == "variable" else tf.constant(4.0)

        def run() -> Any:
            with tf.GradientTape() as tape:
                tape.watch([x, b] if kw_kind == "tensor" else [x])
                y = f(x, b=b)
            return tape.gradient(y, [x, b, w])

        try:
            got = tf.function(run)() if traced else run()
        except ValueError as e:
            return ["ValueError", str(e).strip().splitlines()[-1].strip().removeprefix("ValueError: ")]
        return [[None if g is None else g for g in got], seen]
    return case


CASES = {
    "custom_gradient/keyword tensor, one gradient": _keyword_call("tensor", 1, False),
    "custom_gradient/keyword tensor, two gradients": _keyword_call("tensor", 2, False),
    "custom_gradient/keyword variable, one gradient": _keyword_call("variable", 1, False),
    "custom_gradient/keyword tensor in a tf.function": _keyword_call("tensor", 1, True),
}

TABLE = case_results.Table(__file__, CASES, re.compile(r"(?!)()"))


@pytest.fixture(scope="module")
def tf_results() -> dict[int, Any]:
    return TABLE.tf_results()


@pytest.mark.clause("autodiff.custom-gradient")
def test_custom_gradient_keyword_arguments_are_not_inputs(tf_results: dict[int, Any]) -> None:
    TABLE.check(tf_results, lambda lab: lab.startswith("custom_gradient/"))


if __name__ == "__main__":  # TF worker
    tf_workers.serve(TABLE.tf_worker)
    os._exit(0)
