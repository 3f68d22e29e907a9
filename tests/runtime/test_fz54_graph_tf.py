"""Trace-time errors win over an earlier op's kernel error in a tf.function (the fifty-fourth session, helper fz54;
clause function.trace-time-errors). TF builds the whole graph before any kernel runs: a shape function's ValueError,
a dtype TypeError or the Python's own error anywhere in the body is the call's, whatever kernel error an earlier op's
value would raise (GatherV2's index out of range here); an op nothing needs is pruned and its kernel never runs.
simdist runs kernels as it traces: a retry of the call goes on past the failed kernel with a stand-in carrying the op's
static shape and dtype (runtime/ops/pruning.py), whose value alone raises. Each body runs twice: with a tensor argument,
and with a dict holding a tf.Variable (which the dry runs of get_concrete_function do not take: the retry path, as the
fz45-family generators call). Each case: a list of [label, ["ok", values] or [error class]] (the class only: simdist
frames an autograph=False trace error with "in user code", TF 2.21 does not; noted in fz54_logs).
"""

from __future__ import annotations

from typing import Any, Callable

import numpy as np
import pytest

import tf_programs
import tf_workers

pytestmark = [pytest.mark.tf, tf_workers.tf_or_golden(__file__)]


def _bodies(tf: Any) -> list[tuple[str, Callable[[Any], Any]]]:
    b = tf.constant([[1.0], [2.0]], tf.bfloat16)

    def bad(x: Any) -> Any:   # (the kernel refuses index 5 at run time; its static shape is [2, 2])
        return tf.gather(x, [1, 5], axis=1)

    def g50b_43(x: Any) -> Any:   # (g50b seed 53002 #43 minimized: TF's Pack TypeError, not GatherV2's error)
        g = tf.cast(tf.cast(tf.gather(x, [1, 2, 1, -2], axis=1), tf.int8), tf.bfloat16)
        w = tf.where(g > 0, tf.nn.sigmoid(g - 4.0), 0.0 * -0.25)
        c = tf.cond(tf.size(w) > 3, lambda: tf.clip_by_value(w, -1.0, 1.0), lambda: -w)
        m = tf.matmul(c, tf.ones([4, 1], tf.bfloat16)) - -1.5
        return tf.clip_by_global_norm([tf.reduce_sum(x), m], 5.0)

    def cond_of(x: Any, false_fn: Callable[[Any], Any]) -> Any:
        g = bad(x)
        return tf.cond(tf.reduce_sum(g) > 0, lambda: g, lambda: false_fn(g))

    def loop_of(x: Any) -> Any:
        return tf.while_loop(lambda i, a: tf.reduce_sum(a) < 100.0, lambda i, a: (i + 1, a * 2.0), (0, bad(x)))
    return [
        ("g50b #43", g50b_43),
        ("reshape", lambda x: tf.reshape(bad(x), [5])),
        ("matmul", lambda x: tf.matmul(bad(x), tf.ones([3, 3]))),
        ("concat", lambda x: tf.concat([bad(x), x], axis=0)),
        ("reduce then reshape", lambda x: tf.reshape(tf.reduce_sum(bad(x), axis=0), [3])),
        ("dtype", lambda x: bad(x) + tf.constant(1, tf.int32)),
        ("python error", lambda x: bad(x) + {}["missing"]),
        ("static shape in Python", lambda x: tf.zeros([bad(x).shape[0], bad(x).shape[1] + 1]) + bad(x)),
        ("shape read, unused", lambda x: x + float(bad(x).shape[1])),
        ("size, unused", lambda x: x + tf.cast(tf.size(bad(x)), tf.float32)),
        ("unused", lambda x: [bad(x), x + 1.0][1]),
        ("used", lambda x: bad(x) * 2.0),
        ("boolean_mask then reshape", lambda x: tf.reshape(tf.boolean_mask(bad(x), bad(x) > 0), [3])),
        ("cond branch shape", lambda x: cond_of(x, lambda g: tf.matmul(g, x[:1]))),
        ("cond branch dtype", lambda x: cond_of(x, lambda g: tf.cast(g, tf.int32))),
        ("cond used", lambda x: cond_of(x, lambda g: g * 2.0)),
        ("cond unused", lambda x: [cond_of(x, lambda g: g * 2.0), x * 2.0][1]),
        ("cond then reshape", lambda x: tf.reshape(cond_of(x, lambda g: g * 2.0), [3])),
        ("cond then dtype", lambda x: cond_of(x, lambda g: g * 2.0) + tf.constant([1, 2], tf.int32)),
        ("while unused", lambda x: [loop_of(x), x + 1.0][1]),
        ("while then reshape", lambda x: tf.reshape(loop_of(x)[1], [7])),
        ("while used", lambda x: loop_of(x)[1]),
    ]


def _outcome(fn: Callable[[], Any]) -> list:
    try:
        return ["ok", [np.asarray(t.numpy(), np.float64).round(6).tolist() for t in _flat(fn())]]
    except Exception as e:  # noqa: BLE001 - the class is what is compared
        return [type(e).__name__]


def _flat(x: Any) -> list:
    return [y for v in x for y in _flat(v)] if isinstance(x, (list, tuple)) else [x]


def program(tf: Any, case: dict, workdir: str) -> Any:
    out: list[Any] = []
    for label, body in _bodies(tf):
        x = tf.constant([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
        out.append([label + " (tensor)", _outcome(lambda: tf.function(body, autograph=False)(x))])
        v = tf.Variable([1.0, 2.0])

        def with_variable(d: dict, body: Callable[[Any], Any] = body) -> Any:
            return body(d["x"])
        out.append([label + " (dict with a Variable)",
                    _outcome(lambda: tf.function(with_variable, autograph=False)({"x": x, "v": v}))])
    return out


CASES: dict[str, dict] = {"bodies": {"strategy": "default", "name": "bodies"}}
NAMES = list(CASES)


@pytest.fixture(scope="module")
def tf_results(request: Any) -> dict[int, Any]:
    return tf_programs.spawn(__file__, CASES, tf_programs.selected(request, __file__))


@pytest.mark.clause("function.trace-time-errors")
@pytest.mark.parametrize("index", range(len(NAMES)), ids=NAMES)
def test_trace_errors_win_over_kernel_errors(index: int, tf_results: dict[int, Any], tmp_path: Any) -> None:
    name = NAMES[index]
    got, want = tf_programs.on_simdist(program, CASES[name], str(tmp_path)), tf_results[index]
    assert [g[0] for g in got] == [w[0] for w in want], f"{name}: labels differ"
    bad = [f"{w[0]}: simdist gives {g[1]}, TF 2.21 gives {w[1]}" for g, w in zip(got, want) if g != w]
    assert not bad, "\n".join(bad)


if __name__ == "__main__":  # TF worker
    tf_workers.serve(tf_programs.worker(CASES, program))
