"""Tensors a tf.function closes over are arguments of its graph to Grappler, named by their first use, against TF
2.21 (clause function.grappler-rewrites, "captures").

TF 2.21 runs a tf.function with every tensor it closes over as an `_Arg` of the optimized graph, small ones too
(FuncGraph shows them as Const nodes, the runtime graph as arguments: RunMetadata's post-optimization graph), so
constant folding never folds them or what is computed from them: an AddN of a tape's gradient terms `w * ones` is no
PartialAssocOpConstFolding split however many such terms it has. Each capture is named where an op first takes it,
under the op's scope with the op's input name (`mul/y` for `x * w`, `MatMul/b`), and at run time as an argument
(`mul_y`): that name places it in Grappler's canonical orders (an AddN's inputs sorted by name; AddOpsRewrite's
leaves). simdist took such terms as constants and split them out (the sum of the captured coefficients added first)
and gave a capture no name (the AddN kept the tape's order): `tape.gradient` of `sum(x * w) + sum(x * v) +
sum((x * x) * 4)` inside a tf.function summed x's terms in another order than TF (fix61d's open item; 10 of 10
programs of the tape class differed).

Each case is a list of [label, outcome]; an outcome is a value's [class, dtype, shape, bytes as hex] or [error class].
"""

from __future__ import annotations

from typing import Any, Callable

import numpy as np
import pytest

import labelled_outcomes
import tf_programs
import tf_workers

pytestmark = [pytest.mark.tf, tf_workers.tf_or_golden(__file__)]

# x's gradient terms: 4x (twice) near 2**25 and the coefficients (small), so every order of the sum shows
_BASE = [2**23, 2**23 + 1, 3 * 2**22 + 3, 2**23 - 1, 2**22 + 5, 1.5 * 2**23, 2**23 + 3]
_W = [1.0, 3.0, 5.0, 0.75, 7.0, 2.5, 1.25]
_V = [2.5, 1.75, 3.0, 1.25, 0.5, 6.0, 3.5]
_R = [1.0, 2.0, 0.5]


def _val(x: Any) -> Any:
    if hasattr(x, "numpy") and hasattr(x, "dtype"):
        a = np.asarray(x.numpy())
        return ["tensor", x.dtype.name, list(a.shape), a.tobytes().hex()]
    return [type(x).__name__, str(x)]


def _try(out: list, label: str, fn: Callable[[], Any]) -> None:
    try:
        out.append([label, _val(fn())])
    except Exception as e:  # noqa: BLE001 - the class is what is compared
        out.append([label, [type(e).__name__]])


def _losses(tf: Any, W: Any, V: Any, R: Any) -> dict[str, Callable[[Any], Any]]:
    s = tf.reduce_sum
    return {
        "xW+xV+xx": lambda x: s(x * W) + s(x * V) + s((x * x) * 4.0),
        "xWR+xV+xx": lambda x: s((x * W) * R) + s(x * V) + s((x * x) * 4.0),
        "slice+xV+xx": lambda x: s(x[:7] * 12.0) + s(x * V) + s((x * x) * 4.0),
        "xW+slice+xx": lambda x: s(x * W) + s(x[:7] * 12.0) + s((x * x) * 4.0),
        "xWR+slice+xx": lambda x: s((x * W) * R) + s(x[:7] * 12.0) + s((x * x) * 4.0),
        "xx+xW+xV": lambda x: s((x * x) * 4.0) + s(x * W) + s(x * V),
        "Wx+Vx+xx": lambda x: s(W * x) + s(V * x) + s((x * x) * 4.0),
        "xW+xV+3x+xx": lambda x: s(x * W) + s(x * V) + s(x * 3.0) + s((x * x) * 4.0),
        "2sum(xW)+xV+xx": lambda x: s(x * W) * 2.0 + s(x * V) + s((x * x) * 4.0),
        "mean(xW)+xV+xx": lambda x: tf.reduce_mean(x * W) + s(x * V) + s((x * x) * 4.0),
        "matvec": lambda x: s(tf.linalg.matvec(tf.reshape(W, [4, 5]), x[:5])) + s(x * V) + s((x * x) * 4.0),
    }


def _tape_terms(tf: Any, out: list, dtype: str) -> None:
    n = 20
    x = tf.constant(np.resize(np.array(_BASE, np.float64), n), dtype)
    W, V = (tf.constant(np.resize(np.array(a), n), dtype) for a in (_W, _V))
    R = tf.constant(np.resize(np.array(_R), n), dtype)
    for label, loss in _losses(tf, W, V, R).items():
        def grad(x: Any, loss: Any = loss) -> Any:
            with tf.GradientTape() as tape:
                tape.watch(x)
                y = loss(x)
            return tape.gradient(y, x)
        _try(out, f"{label} eager", lambda: grad(x))
        _try(out, f"{label} traced", lambda: tf.function(grad)(x))
        _try(out, f"{label} traced, W an argument", lambda: tf.function(
            lambda x, w: grad(x, lambda x: loss(x) + tf.reduce_sum(x * w)))(x, W))


def _forward(tf: Any, out: list, dtype: str) -> None:
    big = tf.constant([2.0**24, -(2.0**24), 2.0**25, 1.0], dtype)
    one = tf.constant([1.0, 1.0, 3.0, 2.0**24], dtype)
    half = tf.constant([0.5, 3.0, -1.0, -(2.0**24)], dtype)
    x = tf.constant([1.0, -1.0, 1.5, 2.0**23], dtype)
    progs = {
        "x + big + one": lambda x: x + big + one,
        "big + x + one": lambda x: big + x + one,
        "one + big + x + half": lambda x: one + big + x + half,
        "x + (big + one)": lambda x: x + (big + one),
        "add_n([x, big, one])": lambda x: tf.add_n([x, big, one]),
        "add_n([big, x, one, half])": lambda x: tf.add_n([big, x, one, half]),
        "tf.add chain": lambda x: tf.add(tf.add(x, big), one),
        "big * one + x": lambda x: big * one + x,
        "x * big * half": lambda x: x * big * half,
        "big * x * half": lambda x: big * x * half,
        "x / big + one": lambda x: x / big + one,
        "sum of squares": lambda x: tf.square(big) + tf.square(x) + tf.square(one),
    }
    for label, fn in progs.items():
        _try(out, f"{label} eager", lambda: fn(x))
        _try(out, f"{label} traced", lambda: tf.function(fn)(x))


PROGRAMS = {"tape float32": (_tape_terms, "float32"), "tape float64": (_tape_terms, "float64"),
            "tape bfloat16": (_tape_terms, "bfloat16"),
            "forward float32": (_forward, "float32"), "forward float64": (_forward, "float64")}


def program(tf: Any, case: dict, workdir: str) -> Any:
    out: list[Any] = []
    fn, dtype = PROGRAMS[case["name"]]
    fn(tf, out, dtype)
    return out


CASES: dict[str, dict] = {name: {"strategy": "default", "name": name} for name in PROGRAMS}
NAMES = list(CASES)


@pytest.fixture(scope="module")
def tf_results(request: Any) -> dict[int, Any]:
    return tf_programs.spawn(__file__, CASES, tf_programs.selected(request, __file__))


@pytest.mark.clause("function.grappler-rewrites")
@pytest.mark.parametrize("index", range(len(NAMES)), ids=NAMES)
def test_captured_tensors_are_graph_arguments_named_by_their_first_use(index: int, tf_results: dict[int, Any],
                                                                       tmp_path: Any) -> None:
    name = NAMES[index]
    got, want = tf_programs.on_simdist(program, CASES[name], str(tmp_path)), tf_results[index]
    labelled_outcomes.assert_as_tf(name, got, want)


if __name__ == "__main__":  # TF worker
    tf_workers.serve(tf_programs.worker(CASES, program))
