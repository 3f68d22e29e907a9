"""A tf.function called under a recording GradientTape with an op that has no gradient registered on the path from
its inputs to a trainable output (the fifty-fourth session, helper fz54; clause autodiff.op-gradients; fz53's OPEN
item 2, g49b seed 53003 #38). TF 2.21 builds the call's forward and backward functions at the call
(concrete_function.py `_select_forward_and_backward_functions`), and gradients_util's `_GradientsHelper` raises
LookupError "No gradient defined for operation'Unique' ..." there, before any gradient is asked; eagerly the tape
gives None. Each case: a list of [label, outcome] where an outcome is ["ok", gradient values or None] or [error
class, the message's first 40 characters]; the modes are a plain tape and MirroredStrategy(2 CPUs).run.
"""

from __future__ import annotations

from typing import Any, Callable

import numpy as np
import pytest

import tf_programs
import tf_workers

pytestmark = [pytest.mark.tf, tf_workers.tf_or_golden(__file__)]


def _bodies(tf: Any, v: Any, w: Any) -> list[tuple[str, Callable[[], Any], bool]]:
    """(label, the function's call, whether the tape is persistent)."""
    uq = tf.function(lambda x: tf.unique(tf.reshape(x, [-1]))[0])
    sig = tf.function(lambda x: tf.unique(tf.reshape(x, [-1]))[0],
                      input_signature=[tf.TensorSpec([None, None], tf.float32)])
    idx = tf.function(lambda x: tf.gather(tf.reshape(x, [-1]), tf.unique(tf.reshape(x, [-1]))[1]))
    stopped = tf.function(lambda x: tf.unique(tf.stop_gradient(tf.reshape(x, [-1])))[0] * x[0, 0])
    unused = tf.function(lambda x: [tf.unique(tf.reshape(x, [-1]))[0], x * 2.0][1])
    argmax = tf.function(lambda x: tf.cast(tf.argmax(x, axis=1), tf.float32) + x[:, 0])
    captured = tf.function(lambda: tf.unique(tf.reshape(w, [-1]))[0])
    other = tf.function(lambda x, y: tf.unique(tf.reshape(y, [-1]))[0] + tf.reduce_sum(x))
    counts = tf.function(lambda x: tf.cast(tf.unique_with_counts(tf.reshape(x, [-1]))[2], tf.float32) + x[0, 0])
    where = tf.function(lambda x: tf.gather(tf.reshape(x, [-1]), tf.where(tf.reshape(x, [-1]) > 1.5)[:, 0]))
    return [
        ("unique", lambda: uq(v), False),
        ("unique, input_signature", lambda: sig(v), False),
        ("unique, persistent tape", lambda: uq(v), True),
        ("unique's idx only", lambda: idx(v), False),
        ("unique after stop_gradient", lambda: stopped(v), False),
        ("unique unused", lambda: unused(v), False),
        ("argmax (not differentiable)", lambda: argmax(v), False),
        ("unique of a captured variable", lambda: captured(), False),
        ("unique of a constant beside a watched input", lambda: other(v, tf.constant([[1.0, 1.0]])), False),
        ("unique_with_counts' counts", lambda: counts(v), False),
        ("where's indices", lambda: where(v), False),
    ]


def _outcome(fn: Callable[[], Any]) -> list:
    try:
        g = fn()
        return ["ok", [None if x is None else np.asarray(tf_programs_values(x)).round(6).tolist() for x in g]]
    except Exception as e:  # noqa: BLE001 - the class and the start of the text are compared
        return [type(e).__name__, str(e)[:40]]


def tf_programs_values(x: Any) -> Any:
    return x.values.numpy() if hasattr(x, "values") and not hasattr(x, "numpy") else x.numpy()


def program(tf: Any, case: dict, workdir: str) -> Any:
    out: list[Any] = []
    v = tf.Variable([[1.0, 2.0], [2.0, 3.0]])
    w = tf.Variable([[4.0, 4.0], [5.0, 6.0]])
    for label, call, persistent in _bodies(tf, v, w):
        def tape_mode(call: Callable[[], Any] = call, persistent: bool = persistent) -> Any:
            with tf.GradientTape(persistent=persistent) as t:
                y = call()
            return t.gradient(tf.reduce_sum(y), [v, w])
        out.append([label, _outcome(tape_mode)])
        if case["name"] == "dist" and not persistent:
            strategy = tf.distribute.MirroredStrategy(["/cpu:0", "/cpu:1"])

            def replica(call: Callable[[], Any] = call) -> Any:
                with tf.GradientTape() as t:
                    y = call()
                g = t.gradient(tf.reduce_sum(y), [v, w])
                return [tf.zeros([2, 2]) if x is None else tf.convert_to_tensor(x) for x in g]

            def dist_mode(replica: Callable[[], Any] = replica) -> Any:
                got = strategy.run(replica)
                return [strategy.reduce("SUM", x, axis=None) for x in got]
            out.append([label + " (strategy.run)", _outcome(dist_mode)])
    return out


CASES: dict[str, dict] = {"tape": {"strategy": "default", "name": "tape"},
                          "dist": {"strategy": "default", "name": "dist"}}
NAMES = list(CASES)


@pytest.fixture(scope="module")
def tf_results(request: Any) -> dict[int, Any]:
    return tf_programs.spawn(__file__, CASES, tf_programs.selected(request, __file__))


@pytest.mark.clause("autodiff.op-gradients")
@pytest.mark.parametrize("index", range(len(NAMES)), ids=NAMES)
def test_function_backward_is_built_at_the_call(index: int, tf_results: dict[int, Any], tmp_path: Any) -> None:
    name = NAMES[index]
    got, want = tf_programs.on_simdist(program, CASES[name], str(tmp_path)), tf_results[index]
    assert [g[0] for g in got] == [w[0] for w in want], f"{name}: labels differ"
    bad = [f"{w[0]}: simdist gives {g[1]}, TF 2.21 gives {w[1]}" for g, w in zip(got, want) if g != w]
    assert not bad, "\n".join(bad)


if __name__ == "__main__":  # TF worker
    tf_workers.serve(tf_programs.worker(CASES, program))
