"""Three rules the blind batch 27's gap tests found simdist breaking (docs/conformance.md, "Twenty-ninth session:
a twenty-seventh blind batch"), against real TensorFlow 2.21:

- tf.debugging.assert_all_finite runs CheckNumerics for its check only and returns its input
  (verify_tensor_all_finite_v2's with_dependencies), so a gradient through it is not checked: simdist returned
  CheckNumerics' output, whose gradient fails on a non-finite value (as check_numerics' own does);
- tf.Module.variables (trainable_variables, submodules) lists a module's own leaves, in sorted attribute order,
  before any submodule's (TF's _flatten_module recurses into the submodules it met only after): simdist walked
  each submodule where it met it, depth first;
- a tf.function traces once per variable dtype, shape and trainable (TF's VariableSpec): simdist's
  experimental_get_tracing_count ignored trainable.

Values, names, counts and error classes compared case by case (case_results.Table). Needs the `tf` extra.
"""

from __future__ import annotations

import os
import re
from typing import Any

import numpy as np
import pytest

import case_results
import tf_workers

pytestmark = [pytest.mark.tf, tf_workers.tf_or_golden(__file__)]


def _finite_gradient(name: str, x0: list, fn: str) -> Any:
    def case(tf: Any) -> Any:
        x = tf.Variable(np.array(x0))
        with tf.GradientTape() as tape:
            checked = getattr(tf.debugging, name)(x, "msg")
            y = tf.sqrt(checked) if fn == "sqrt" else checked * 2.0
        return tape.gradient(y, x)
    return case


def _finite_in_function(tf: Any) -> Any:
    @tf.function
    def f(x):
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = tf.sqrt(tf.debugging.assert_all_finite(x, "msg"))
        return y, tape.gradient(y, x)
    return list(f(tf.constant([0.0, 4.0], tf.float64)))


def _finite_check(tf: Any) -> Any:
    return tf.debugging.assert_all_finite(tf.constant([1.0, np.inf]), "bad value")


def _modules(kind: str) -> Any:
    def case(tf: Any) -> Any:
        class Inner(tf.Module):
            def __init__(self, name, deeper=None):
                super().__init__(name=name)
                self.w = tf.Variable(0.0, name=name + "_w")
                if deeper is not None:
                    self.a_deeper = deeper

        class M(tf.Module):
            def __init__(self):
                super().__init__(name="m")
                self.a_sub = Inner("s", Inner("ss"))
                self.b = tf.Variable(1.0, name="b")
                self.c = [Inner("l"), tf.Variable(2.0, name="c", trainable=False)]

        class N(tf.Module):
            def __init__(self):
                super().__init__(name="n")
                self.m = M()
                self.z = tf.Variable(3.0, name="z")
        obj = M() if kind == "M" else N()
        return [[v.name for v in obj.variables], [v.name for v in obj.trainable_variables],
                [s.name for s in obj.submodules]]
    return case


def _traces(tf: Any) -> Any:
    f = tf.function(lambda v: v * 2)
    counts = []
    for make in (lambda: tf.Variable(1.0), lambda: tf.Variable(2.0, trainable=False),
                 lambda: tf.Variable(3.0, trainable=False), lambda: tf.Variable(4.0),
                 lambda: tf.Variable([1.0, 2.0], trainable=False), lambda: tf.Variable([1.0, 2.0])):
        f(make())
        counts.append(f.experimental_get_tracing_count())
    return counts


def _cases() -> dict[str, Any]:
    return {
        "finite/check_numerics gradient of sqrt at 0": _finite_gradient("check_numerics", [0.0, 4.0], "sqrt"),
        "finite/assert_all_finite gradient of sqrt at 0": _finite_gradient("assert_all_finite", [0.0, 4.0], "sqrt"),
        "finite/assert_all_finite gradient, finite": _finite_gradient("assert_all_finite", [1.0, 4.0], "double"),
        "finite/assert_all_finite in a tf.function": _finite_in_function,
        "finite/assert_all_finite of an inf": _finite_check,
        "module/a module holding submodules": _modules("M"),
        "module/a module two deep": _modules("N"),
        "function/traces of variables by trainable": _traces,
    }


TABLE = case_results.Table(__file__, _cases(), re.compile(r"(never)(?!)"))


@pytest.fixture(scope="module")
def tf_results() -> dict[int, Any]:
    return TABLE.tf_results()


@pytest.mark.clause("ops.check-numerics-callback")
def test_assert_all_finite_leaves_the_gradient_unchecked_as_on_tf(tf_results: dict[int, Any]) -> None:
    TABLE.check(tf_results, lambda lab: lab.startswith("finite/"))


@pytest.mark.clause("keras.layer.tracking")
def test_module_variables_own_leaves_before_submodules_as_on_tf(tf_results: dict[int, Any]) -> None:
    TABLE.check(tf_results, lambda lab: lab.startswith("module/"))


@pytest.mark.clause("function.tracing-count")
def test_tracing_count_of_variables_by_trainable_as_on_tf(tf_results: dict[int, Any]) -> None:
    TABLE.check(tf_results, lambda lab: lab.startswith("function/"))


if __name__ == "__main__":  # TF worker
    tf_workers.serve(TABLE.tf_worker)
    os._exit(0)
