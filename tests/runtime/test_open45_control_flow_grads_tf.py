"""Gradients through a tf.while_loop, tf.cond and tf.switch_case inside and around a tf.function against TF 2.21
(the forty-fifth session, helper open45; clause function.graph-gradients; simdist/runtime/autodiff/graph_gradients.py
`_add_loop`, simdist/runtime/ops/branches.py `Captures`, `zeros_for`, simdist/runtime/ops/loops.py).

In a graph, TF's While and If ops take every tensor their body, cond or branches capture as inputs: while_v2's
gradient gives each trainable input a gradient (zeros when the loop runs no iteration), cond_v2's gives a capture
that a branch not taken differentiates zeros in the taken branch's gradient. So `x^k` by a loop with k = 0
(maximum_iterations=0, or a cond false at the start) has gradient zeros under tf.gradients, under a tape inside the
function and under a tape around it, where eagerly (a Python loop the tape sees op by op) it is None; a tf.cond or
switch_case whose taken branch does not differentiate x gives zeros inside a function, None eagerly. Each case with
unconnected_gradients NONE and ZERO.
"""

from __future__ import annotations

from typing import Any

import pytest

import tf_programs
import tf_workers

pytestmark = [pytest.mark.tf, tf_workers.tf_or_golden(__file__)]


def _show(g: Any) -> Any:
    if g is None:
        return None
    if isinstance(g, (list, tuple)):
        return [_show(v) for v in g]
    return [g.dtype.name, g.numpy().tolist()]


def _loop(tf: Any, x: Any, k: Any, mode: str) -> Any:
    if mode == "maximum_iterations":
        return tf.while_loop(lambda i, v: i < 10, lambda i, v: [i + 1, v * x], [0, tf.ones_like(x)],
                             maximum_iterations=k)[1]
    return tf.while_loop(lambda i, v: i < k, lambda i, v: [i + 1, v * x], [0, tf.ones_like(x)])[1]


def _gradient(tf: Any, c: dict) -> Any:
    x = tf.constant([2.0, 3.0])
    u = tf.UnconnectedGradients.ZERO if c["unconnected"] == "zero" else tf.UnconnectedGradients.NONE
    how = c["via"]
    if c["form"] == "while":
        mode, k = c["loop"], c["k"]
        forward = lambda x: _loop(tf, x, k, mode)  # noqa: E731
        if how == "tensor k":
            return tf.function(lambda x, k: tf.gradients(_loop(tf, x, k, mode), x, unconnected_gradients=u))(
                x, tf.constant(k))
        arg = x
    else:
        if c["form"] == "cond":
            forward = lambda p: tf.cond(p, lambda: x * x, lambda: tf.ones_like(x))  # noqa: E731
        elif c["form"] == "cond neither branch":
            forward = lambda p: tf.cond(p, lambda: tf.ones_like(x), lambda: tf.ones_like(x) * 2.0)  # noqa: E731
        else:
            forward = lambda i: tf.switch_case(i, [lambda: x * x, lambda: tf.ones_like(x), lambda: x * 3.0])  # noqa: E731
        arg = tf.constant(c["taken"] == 0) if c["form"] != "switch_case" else tf.constant(c["taken"])
    if how == "tf.gradients":
        return tf.function(lambda a: tf.gradients(forward(a), x, unconnected_gradients=u))(arg)
    if how == "tape in the function":
        def f(a: Any) -> Any:
            with tf.GradientTape() as t:
                t.watch(x)
                v = forward(a)
            return t.gradient(v, x, unconnected_gradients=u)
        return tf.function(f)(arg)
    if how == "tape around the function":
        fwd = tf.function(forward)
        with tf.GradientTape() as t:
            t.watch(x)
            v = fwd(arg)
        return t.gradient(v, x, unconnected_gradients=u)
    with tf.GradientTape() as t:   # eagerly
        t.watch(x)
        v = forward(arg)
    return t.gradient(v, x, unconnected_gradients=u)


CASES: dict[str, dict] = {}
for _mode in ("maximum_iterations", "cond"):
    for _k in (0, 1, 2):
        for _via in ("tf.gradients", "tape in the function", "tape around the function", "eagerly"):
            for _u in ("none", "zero"):
                CASES[f"while {_mode}={_k} {_via} {_u}"] = {"form": "while", "loop": _mode, "k": _k, "via": _via,
                                                            "unconnected": _u}
    for _k in (0, 2):
        CASES[f"while {_mode}={_k} tensor k none"] = {"form": "while", "loop": _mode, "k": _k, "via": "tensor k",
                                                      "unconnected": "none"}
for _form, _taken in (("cond", (0, 1)), ("cond neither branch", (0, 1)), ("switch_case", (0, 1, 2))):
    for _t in _taken:
        for _via in ("tf.gradients", "tape in the function", "tape around the function", "eagerly"):
            for _u in ("none", "zero"):
                CASES[f"{_form} taken={_t} {_via} {_u}"] = {"form": _form, "taken": _t, "via": _via, "unconnected": _u}
for _c in CASES.values():
    _c["strategy"] = "default"
NAMES = list(CASES)


def program(tf: Any, case: dict, workdir: str) -> Any:
    try:
        return ["ok", _show(_gradient(tf, case))]
    except Exception as e:  # noqa: BLE001 - the class is the observable
        return ["error", type(e).__name__]


@pytest.fixture(scope="module")
def tf_results(request: Any) -> dict[int, Any]:
    return tf_programs.spawn(__file__, CASES, tf_programs.selected(request, __file__))


@pytest.mark.clause("function.graph-gradients")
@pytest.mark.parametrize("index", range(len(NAMES)), ids=NAMES)
def test_control_flow_gradients_as_tf(index: int, tf_results: dict[int, Any], tmp_path: Any) -> None:
    name = NAMES[index]
    got, want = tf_programs.on_simdist(program, CASES[name], str(tmp_path)), tf_results[index]
    assert got == want, f"{name}: simdist gives {got}, TF 2.21 gives {want}"


if __name__ == "__main__":  # TF worker
    tf_workers.serve(tf_programs.worker(CASES, program))
