"""A tf.function called inside another's trace keeps its own trace, against TF 2.21 (the sixty-sixth session,
helper fix66u; clause function.trace-once, "nested calls"; simdist/runtime/graph/nested.py, tf/_function.py
`_nested_call`): the inner function's Python runs once per inner signature, not once per outer trace; the trace
serves later outer traces, a cond's branch, a tape inside the outer function and the inner's own eager calls, and
an eager trace serves the calls inside an outer one; variable reads and assigns of the inner body run again.

Each case: a list of [label, value or [error class, message start]]; the `n`, `m`, `p`, `q`, `r`, `s`, `g` labels
are the Python counters (how many times each traced Python ran) with experimental_get_tracing_count().
"""

import functools
import re
from typing import Any, Callable

import pytest

import tf_programs
import tf_workers

pytestmark = [pytest.mark.tf, tf_workers.tf_or_golden(__file__)]


def _v(r: Any) -> Any:
    if hasattr(r, "numpy"):
        return [r.dtype.name, r.numpy().tolist()]
    if isinstance(r, (list, tuple)):
        return [type(r).__name__] + [_v(x) for x in r]
    if isinstance(r, dict):
        return {k: _v(x) for k, x in sorted(r.items())}
    return r if r is None or isinstance(r, (bool, int, float, str)) else repr(r)


def _record(out: list, label: str, fn: Callable[[], Any]) -> None:
    try:
        out.append([label, _v(fn())])
    except Exception as e:  # noqa: BLE001 - the class and the text's start are what is compared
        text = re.sub(r"__inference_\S*", "", str(e).split("\n")[0])   # (TF's graph names)
        out.append([label, [type(e).__name__, text[:60]]])


def _across_traces(tf: Any, out: list) -> Any:
    c = tf.constant
    _try = functools.partial(_record, out)
    # 1. repeated inner calls, outer retraced on new shapes, inner eager after; structured results
    n_in, n_out = [], []

    @tf.function
    def inner(x, scale=2):
        n_in.append(1)
        return {"a": x * scale, "b": (tf.reduce_sum(x), x + 1)}

    @tf.function
    def outer(x):
        n_out.append(1)
        r = inner(x)
        s = inner(x * 3)
        t = inner(x, 3)
        return r["a"] + s["b"][1] + t["a"]
    for k, a in enumerate([c([1.0, 2.0]), c([3.0, 4.0]), c([1.0, 2.0, 3.0]), c([5.0, 6.0])]):
        _try(f"outer {k}", lambda: outer(a))
        _try(f"n {k}", lambda: [len(n_in), len(n_out), inner.experimental_get_tracing_count(),
                                outer.experimental_get_tracing_count()])
    _try("inner eager", lambda: inner(c([7.0, 8.0])))
    _try("inner eager 3", lambda: inner(c([7.0, 8.0]), 3))
    _try("n eager", lambda: [len(n_in), inner.experimental_get_tracing_count()])
    # 2. inner traced eagerly first, then called inside a new outer
    m = []

    @tf.function
    def sq(x):
        m.append(1)
        return tf.square(x) - 1.0
    _try("sq eager", lambda: sq(c(3.0)))

    @tf.function
    def use_sq(x):
        return sq(x) + sq(x + 1.0)
    _try("use_sq", lambda: use_sq(c(2.0)))
    _try("use_sq 2", lambda: use_sq(c(5.0)))
    _try("m", lambda: [len(m), sq.experimental_get_tracing_count()])


def _variables(tf: Any, out: list) -> Any:
    c = tf.constant
    _try = functools.partial(_record, out)
    # 3. inner reads a captured variable; the variable changes; a new outer trace reuses the inner trace
    v = tf.Variable([1.0, 2.0])
    p = []

    @tf.function
    def readv(x):
        p.append(1)
        return x * v

    @tf.function
    def outer_v(x):
        return readv(x) + 1.0
    _try("outer_v", lambda: outer_v(c([1.0, 1.0])))
    v.assign([10.0, 20.0])
    _try("outer_v again", lambda: outer_v(c([2.0, 2.0])))
    _try("outer_v new shape", lambda: outer_v(c([[2.0, 2.0]])))
    _try("outer_v int", lambda: outer_v(c([2, 2])))
    _try("readv eager", lambda: readv(c([3.0, 3.0])))
    _try("p", lambda: [len(p), readv.experimental_get_tracing_count(), outer_v.experimental_get_tracing_count()])
    # 4. inner writes a variable
    w = tf.Variable(0.0)
    q = []

    @tf.function
    def bump(x):
        q.append(1)
        w.assign_add(x)
        return w.read_value()

    @tf.function
    def outer_w(x):
        return bump(x) + bump(x * 2.0)
    _try("outer_w", lambda: outer_w(c(1.0)))
    _try("outer_w 2", lambda: outer_w(c(1.0)))
    _try("outer_w new", lambda: outer_w(c([1.0])))
    _try("q", lambda: [len(q), w.numpy().tolist(), bump.experimental_get_tracing_count()])


def _branches_tapes(tf: Any, out: list) -> Any:
    c = tf.constant
    _try = functools.partial(_record, out)
    # 5. a Python argument, a random op, a cond inside the outer
    r = []

    @tf.function
    def scaled(x, k):
        r.append(k)
        return x * k

    @tf.function
    def outer_k(x):
        a = scaled(x, 2) + scaled(x, 3) + scaled(x, 2)
        return tf.cond(tf.reduce_sum(x) > 0, lambda: scaled(x, 2) + a, lambda: scaled(x, 5) - a)
    _try("outer_k", lambda: outer_k(c(1.0)))
    _try("outer_k neg", lambda: outer_k(c(-1.0)))
    _try("outer_k new", lambda: outer_k(c([1.0])))
    _try("r", lambda: [r, scaled.experimental_get_tracing_count()])
    tf.random.set_seed(5)
    s = []

    @tf.function
    def noisy(x):
        s.append(1)
        return x + tf.random.stateless_uniform([2], seed=[1, 2])

    @tf.function
    def outer_n(x):
        return noisy(x) * noisy(x)
    _try("outer_n", lambda: outer_n(c([1.0, 2.0])))
    _try("outer_n new", lambda: outer_n(c([[1.0, 2.0]])))
    _try("s", lambda: [len(s), noisy.experimental_get_tracing_count()])
    # 6. a gradient through the nested call
    g = []

    @tf.function
    def cube(x):
        g.append(1)
        return x * x * x

    @tf.function
    def outer_g(x):
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = cube(x) + cube(x * 2.0)
        return tape.gradient(y, x)
    _try("outer_g", lambda: outer_g(c(1.5)))
    _try("outer_g new", lambda: outer_g(c([1.5, 2.0])))
    _try("g", lambda: [len(g), cube.experimental_get_tracing_count()])


def program(tf: Any, case: dict, workdir: str) -> Any:
    out: list[Any] = []
    {"inner traces across outer traces": _across_traces, "variables read and written": _variables,
     "python arguments, branches, random ops, tapes": _branches_tapes}[case["name"]](tf, out)
    return out


NAMES = ["inner traces across outer traces", "variables read and written",
         "python arguments, branches, random ops, tapes"]
CASES: dict = {n: {"strategy": "default", "name": n} for n in NAMES}


@pytest.fixture(scope="module")
def tf_results(request: Any) -> dict:
    return tf_programs.spawn(__file__, CASES, tf_programs.selected(request, __file__))


@pytest.mark.clause("function.trace-once")
@pytest.mark.parametrize("index", range(len(NAMES)), ids=NAMES)
def test_nested_functions_as_tf(index: int, tf_results: dict, tmp_path: Any) -> None:
    name = NAMES[index]
    got, want = tf_programs.on_simdist(program, CASES[name], str(tmp_path)), tf_results[index]
    assert [g[0] for g in got] == [w[0] for w in want], f"{name}: labels differ"
    for g, w in zip(got, want):
        assert g == w, f"{name}: {w[0]}: simdist gives {g[1]}, TF 2.21 gives {w[1]}"


if __name__ == "__main__":  # TF worker
    tf_workers.serve(tf_programs.worker(CASES, program))
