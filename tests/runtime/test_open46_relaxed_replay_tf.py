"""A relaxed trace serving calls of new concrete shapes without running the Python again, against TF 2.21 (the
forty-sixth session, helper open46; clause function.trace-once; simdist/tf/_function.py `Function._polymorphic`,
`_generic`, `_same_program`).

With reduce_retracing=True TF 2.21 runs a call that an existing relaxed trace covers on that trace's graph with
the call's own shapes: the Python does not run, so its side effects (here a list the Python appends the shapes
it sees to) happen once per trace. simdist replays such a trace's recording op by op on the call's tensors once
another recording of the function has shown it shape-generic (the same steps on other concrete shapes); a Python
that reads a static dimension differently per trace still runs once more (left open). Each program: the
Python's runs, the results, variable values and the tracing count after each call; and a Keras fit and evaluate
by changing batch sizes (losses and metrics to 4 decimals), whose steps replay so.
"""

from __future__ import annotations

from typing import Any

import pytest

import tf_programs
import tf_workers

pytestmark = [pytest.mark.tf, tf_workers.tf_or_golden(__file__)]


def _v(t: Any) -> Any:
    return t.numpy().tolist() if hasattr(t, "numpy") else t


def program(tf: Any, case: dict, workdir: str) -> Any:
    log: list[Any] = []
    out: dict[str, Any] = {"calls": []}
    name = case["name"]
    if name == "shape and sum":
        @tf.function(reduce_retracing=True)
        def f(x: Any) -> Any:
            log.append(list(x.shape))
            return tf.reduce_sum(x * 2.0) + tf.cast(tf.shape(x)[0], tf.float32)
        for n in [2, 3, 4, 5, 2, 7]:
            out["calls"].append([n, _v(f(tf.ones([n, 2]))), f.experimental_get_tracing_count()])
    elif name == "a variable and several outputs":
        v = tf.Variable(0.0)

        @tf.function(reduce_retracing=True)
        def g(x: Any, k: Any) -> Any:
            log.append([list(x.shape), k])
            v.assign_add(tf.reduce_mean(x))
            return tf.reduce_mean(x, axis=0) * k, tf.size(x), tf.zeros_like(x)
        for n in [4, 6, 4, 3, 12, 1]:
            r = g(tf.reshape(tf.range(n * 3, dtype=tf.float32), [n, 3]), 2.0)
            out["calls"].append([n, _v(r[0]), _v(r[1]), _v(r[2]), _v(v), g.experimental_get_tracing_count()])
    elif name == "two relaxed dimensions":
        @tf.function(reduce_retracing=True)
        def m(a: Any, b: Any) -> Any:
            log.append([list(a.shape), list(b.shape)])
            return tf.matmul(a, b), tf.reduce_max(a, axis=1)
        for r, c in [(2, 3), (2, 4), (3, 4), (5, 2), (1, 1), (2, 3)]:
            a = tf.reshape(tf.range(r * c, dtype=tf.float32), [r, c])
            res = m(a, tf.ones([c, 2]))
            out["calls"].append([[r, c], _v(res[0]), _v(res[1]), m.experimental_get_tracing_count()])
    elif name == "keras fit and evaluate by changing batch sizes":
        # (Keras 3's train and test functions are tf.function(reduce_retracing=True): the step of a new batch size
        # a relaxed trace serves replays; losses and metrics as TF's, to 4 decimals)
        keras = tf.keras
        keras.utils.set_random_seed(1)
        for sizes in [(4, 6, 4, 3), (4, 4, 6, 12, 3)]:
            model = keras.Sequential([keras.layers.Dense(3, activation="relu", kernel_initializer="ones"),
                                      keras.layers.Dense(1, kernel_initializer="ones")])
            model.compile(loss="mse", optimizer=keras.optimizers.SGD(0.01), metrics=["mae"])
            x = [[i / 10.0, (i + 1) / 10.0] for i in range(0, 24, 2)]
            y = [[1.0]] * 12
            for b in sizes:
                h = model.fit(tf.constant(x), tf.constant(y), batch_size=b, epochs=1, verbose=0, shuffle=False)
                e = model.evaluate(tf.constant(x), tf.constant(y), batch_size=b, verbose=0)
                out["calls"].append([list(sizes), b, [round(float(v[0]), 4) for v in h.history.values()],
                                     [round(float(v), 4) for v in e]])
    out["python runs"] = log
    return out


NAMES = ["shape and sum", "a variable and several outputs", "two relaxed dimensions",
         "keras fit and evaluate by changing batch sizes"]
CASES: dict[str, dict] = {n: {"strategy": "default", "name": n} for n in NAMES}


@pytest.fixture(scope="module")
def tf_results(request: Any) -> dict[int, Any]:
    return tf_programs.spawn(__file__, CASES, tf_programs.selected(request, __file__))


@pytest.mark.clause("function.trace-once")
@pytest.mark.parametrize("index", range(len(NAMES)), ids=NAMES)
def test_relaxed_trace_serves_new_shapes_as_tf(index: int, tf_results: dict[int, Any], tmp_path: Any) -> None:
    name = NAMES[index]
    got, want = tf_programs.on_simdist(program, CASES[name], str(tmp_path)), tf_results[index]
    for k in want:
        assert got[k] == want[k], f"{name}: {k}: simdist gives {got[k]}, TF 2.21 gives {want[k]}"


if __name__ == "__main__":  # TF worker
    tf_workers.serve(tf_programs.worker(CASES, program))
