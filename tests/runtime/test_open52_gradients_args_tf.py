"""tf.gradients and tf.hessians inside a tf.function called with a MirroredVariable argument, outside and inside
MirroredStrategy.run (the fifty-second session, helper open52; clause function.graph-gradients): simdist records such a
call as one with a plain variable argument, so its tf.gradients has the recorded graph it needs; it had run the call
eagerly and raised RuntimeError where TF computes the gradient, and where TF's tf.hessians of a variable raises
ValueError "None values not supported." (its second gradient is None; fz51b's left-open class). Each case: a list of
[label, per-replica values] or [label, error class].
"""

from __future__ import annotations

from typing import Any, Callable

import numpy as np
import pytest

import tf_programs
import tf_workers

pytestmark = [pytest.mark.tf, tf_workers.tf_or_golden(__file__)]


def _try(out: list, label: str, st: Any, fn: Callable[[], Any]) -> None:
    try:
        r = fn()
        out.append([label, [np.asarray(v).tolist() for v in st.experimental_local_results(r)]])
    except BaseException as e:  # noqa: BLE001 - the class is what is compared
        out.append([label, type(e).__name__])


def program(tf: Any, case: dict, workdir: str) -> Any:
    st = tf.distribute.MirroredStrategy(["/cpu:0", "/cpu:1"])
    with st.scope():
        w = tf.Variable([1.0, 2.0, 3.0])
    out: list[Any] = []
    grad = tf.function(lambda a: tf.gradients(tf.reduce_sum(a ** 3), a)[0])
    hess = tf.function(lambda a: tf.hessians(tf.reduce_sum(a ** 3), a)[0])
    _try(out, "gradients, variable argument", st, lambda: grad(w))
    _try(out, "gradients, variable argument, second call", st, lambda: grad(w))
    _try(out, "gradients in run, variable argument", st, lambda: st.run(grad, args=(w,)))
    _try(out, "hessians, variable argument", st, lambda: hess(w))
    _try(out, "hessians in run, variable argument", st, lambda: st.run(lambda: tf.function(
        lambda a: tf.hessians(tf.reduce_sum(a ** 3), a)[0])(w)))
    _try(out, "hessians in run, tensor argument", st, lambda: st.run(hess, args=(tf.constant([1.0, 2.0]),)))
    _try(out, "hessians in run, captured variable", st, lambda: st.run(tf.function(
        lambda: tf.hessians(tf.reduce_sum(w ** 3), w)[0])))
    return out


NAMES = ["mirrored_variable_arguments"]
CASES: dict[str, dict] = {n: {"strategy": "mirrored2", "name": n} for n in NAMES}


@pytest.fixture(scope="module")
def tf_results(request: Any) -> dict[int, Any]:
    return tf_programs.spawn(__file__, CASES, tf_programs.selected(request, __file__))


@pytest.mark.clause("function.graph-gradients")
@pytest.mark.parametrize("index", range(len(NAMES)), ids=NAMES)
def test_gradients_of_variable_arguments_as_tf(index: int, tf_results: dict[int, Any], tmp_path: Any) -> None:
    name = NAMES[index]
    got, want = tf_programs.on_simdist(program, CASES[name], str(tmp_path)), tf_results[index]
    assert [g[0] for g in got] == [w[0] for w in want], f"{name}: labels differ"
    bad = [f"{w[0]}: simdist gives {g[1]}, TF 2.21 gives {w[1]}" for g, w in zip(got, want) if g != w]
    assert not bad, f"{name}: " + "; ".join(bad)


if __name__ == "__main__":  # TF worker
    tf_workers.serve(tf_programs.worker(CASES, program))
