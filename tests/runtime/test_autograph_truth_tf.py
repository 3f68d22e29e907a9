"""The truth of a graph tensor that AutoGraph leaves to Python, against real TensorFlow 2.21 (session 61's helper
fix61a; clause function.autograph, "Python's truth in converted code").

AutoGraph converts the truth an `if`, `while`, `and`, `or`, `not` or `a if c else b` takes of a tensor (tf.cond,
tf.while_loop, logical_not), but not an explicit `bool(t)` (bool is not among py_builtins' converted builtins), an
`assert t` (asserts.py runs only with the optional Feature.ASSERT_STATEMENTS, which tf.function does not ask for)
nor the `if` clause of a comprehension (comprehensions stay Python): a graph tensor's truth there is TF's
OperatorNotAllowedInGraphError at trace time, with AutoGraph on as off, whatever value the call would have had; a
Python value's truth, a `bool` the function rebinds, and a static shape's assert are Python's. simdist computed the
truth of the eager value it runs on (an `assert` on a false value: AssertionError; a true one: the call's value).
Each case: a list of [label, outcome]; an outcome is [phase, value or error class] with the tracing count after it.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import tf_programs
import tf_workers

pytestmark = [pytest.mark.tf, tf_workers.tf_or_golden(__file__)]


def _bodies(tf: Any) -> dict[str, Any]:
    c = tf.constant
    v = tf.Variable(1.0)

    def bool_in_ifexp(x):
        return c(1.0) if bool(x > 0.0) else c(0.0)

    def bool_assigned(x):
        y = bool(x > 0.0)
        return x if y else -x

    def bool_of_arg_in_if(x):
        if bool(x):
            return x
        return -x

    def bool_of_python(x):
        return c(1.0) if bool(1) else x

    def bool_rebound(x):
        bool = lambda t: True   # noqa: E731
        return x if bool(x) else -x

    def helper(x):
        return bool(x)

    def bool_in_callee(x):
        return x if helper(x > 0.0) else -x

    def assert_tensor(x):
        assert x > 0.0, "x must be positive"
        return x * 2.0

    def assert_variable(x):
        assert v > 0.0
        return x

    def assert_static(x):
        assert x.shape.rank == 0
        return x * 3.0

    def comprehension_if(x):
        return tf.add_n([x for i in range(3) if x > 0.0])

    def comprehension_python_if(x):
        return tf.add_n([x * float(i) for i in range(4) if i % 2])

    def plain_if(x):
        if x > 0.0:
            return x
        return -x

    return {k: f for k, f in locals().items() if callable(f) and k not in ("c", "helper", "v")}


def _py_shapes(tf: Any) -> list:
    """py_function's and numpy_function's outputs inside a tf.function: their static shapes (unknown rank in TF,
    an input func returns as it is too, while the input keeps its own), what ops on them infer, the values, and a
    gradient through a py_function that returns its input (clause ops.function-utilities)."""
    out: list[Any] = []

    def py(t):
        return t * 2.0

    @tf.function
    def shapes(x):
        a = tf.py_function(py, [x], tf.float32)
        b = tf.numpy_function(lambda t: t, [x], tf.float32)
        c = tf.py_function(lambda t: (t, t + 1.0), [x], [tf.float32, tf.float32])
        d = tf.numpy_function(lambda t: (t, t + 1), [x], [tf.float32, tf.float32])
        seen = [str(v.shape) for v in (a, b, c[0], c[1], d[0], d[1], x)]
        seen += [str((a + x).shape), str(tf.reshape(a, [-1, 1]).shape), str(tf.reduce_sum(b).shape)]
        out.append(seen)
        return a + b + c[0]

    @tf.function
    def grad(x):
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = tf.py_function(lambda t: t, [x], tf.float32) * 3.0
        return tape.gradient(y, x)
    vals = [np.asarray(shapes(tf.constant([1.0, 2.0])).numpy()).tobytes().hex(),
            np.asarray(grad(tf.constant([1.0, 2.0])).numpy()).tobytes().hex(),
            str(tf.py_function(py, [tf.constant([1.0])], tf.float32).shape)]
    return [["py shapes", out], ["py values", vals]]


def _signature_kinds(tf: Any) -> list:
    """input_signature entries of a list and of a tuple of TensorSpecs, for a named parameter, two, and *args, called
    with a list and a tuple (eagerly, after a call of the other kind, and on the concrete function): a list entry
    takes a list only, a tuple entry a tuple only (trace_type's List.cast / Tuple.cast), else the binding TypeError
    with TF's message; a value of another length too."""
    S = tf.TensorSpec([None], tf.float32)
    c = tf.constant
    out: list[Any] = []

    def va(*a):
        return tf.add_n([tf.reduce_sum(x) for x in tf.nest.flatten(a)])

    def named(x):
        return tf.add_n([tf.reduce_sum(v) for v in tf.nest.flatten(x)])

    def two(x, y):
        return tf.add_n([tf.reduce_sum(v) for v in tf.nest.flatten((x, y))])

    def show(label: str, f: Any, *a: Any) -> None:
        try:
            out.append([label, np.asarray(f(*a).numpy()).tobytes().hex()])
        except Exception as e:  # noqa: BLE001 - the class and message are what is compared
            out.append([label, [type(e).__name__, str(e)]])
    lst, tup = [c([1.0]), c([2.0])], (c([1.0]), c([2.0]))
    for sk, sig in (("list", [S, S]), ("tuple", (S, S))):
        for vk, v in (("list", lst), ("tuple", tup)):
            show(f"*args {sk} entry, {vk}", tf.function(va, input_signature=[sig]), v)
            show(f"named {sk} entry, {vk}", tf.function(named, input_signature=[sig]), v)
            show(f"two {sk} entry, {vk}", tf.function(two, input_signature=[sig, S]), v, c([1.0]))
            show(f"named {sk} entry, concrete, {vk}",
                 tf.function(named, input_signature=[sig]).get_concrete_function(), v)
        f = tf.function(va, input_signature=[sig])
        show(f"*args {sk} entry, first call", f, lst if sk == "list" else tup)
        show(f"*args {sk} entry, then the other kind", f, tup if sk == "list" else lst)
        show(f"named {sk} entry, three items", tf.function(named, input_signature=[sig]),
             type(sig)([c([1.0]), c([2.0]), c([3.0])]))
    return out


def _iterator_end(tf: Any) -> list:
    """A tf.data iterator's end inside a tf.function (clause dataset.api-surface), AutoGraph on and off:
    next(it) and next(it, default) across calls (OutOfRangeError, the default never taken), a Python `for` over a
    dataset and over iter(dataset) of 3, 32, 33 and 40 elements (AutoGraph's loop; with AutoGraph off TF's ValueError
    at trace), two loops in one function, a distributed dataset's iterator with next(it, default)."""
    out: list[Any] = []

    def o(fn: Any) -> Any:
        try:
            r = fn()
            return np.asarray(r.numpy()).tolist()
        except Exception as e:  # noqa: BLE001 - the class and message are what is compared
            if type(e).__name__ == "OutOfRangeError":   # (TF's text is "Graph execution error: ..." around it)
                return [type(e).__name__, "End of sequence" in str(e)]
            return [type(e).__name__, str(e).split("\n")[0]]

    def with_default(i):
        return next(i, tf.constant(-1, tf.int64))

    def step(i):
        return next(i)

    def loop(ds):
        t = tf.constant(0, tf.int64)
        for b in ds:
            t += b
        return t

    def loop_iter(ds):
        t = tf.constant(0, tf.int64)
        for b in iter(ds):
            t += b
        return t

    def two_loops(ds):
        t = tf.constant(0, tf.int64)
        for b in ds:
            t += b
        for b in ds:
            t += b
        return t
    s = tf.distribute.MirroredStrategy(["/cpu:0"])
    for ag in (True, False):
        f = tf.function(with_default, autograph=ag)
        it = iter(tf.data.Dataset.range(2))
        out.append([f"{ag} next default", [o(lambda: f(it)) for _ in range(4)]])
        f = tf.function(step, autograph=ag)
        it = iter(tf.data.Dataset.range(2))
        out.append([f"{ag} next", [o(lambda: f(it)) for _ in range(4)]])
        for n in (3, 32, 33, 40):
            out.append([f"{ag} for {n}", o(lambda: tf.function(loop, autograph=ag)(tf.data.Dataset.range(n)))])
            out.append([f"{ag} for iter {n}",
                        o(lambda: tf.function(loop_iter, autograph=ag)(tf.data.Dataset.range(n)))])
        out.append([f"{ag} two loops", o(lambda: tf.function(two_loops, autograph=ag)(tf.data.Dataset.range(3)))])
        d = s.experimental_distribute_dataset(tf.data.Dataset.range(4).batch(2))
        f = tf.function(with_default, autograph=ag)
        it = iter(d)
        out.append([f"{ag} distributed next default", [o(lambda: f(it)) for _ in range(3)]])
    return out


def program(tf: Any, case: dict, workdir: str) -> Any:
    if case["name"] == "iterator_end":
        return _iterator_end(tf)
    if case["name"] == "py_shapes":
        return _py_shapes(tf)
    if case["name"] == "signature_kinds":
        return _signature_kinds(tf)
    out: list[Any] = []
    for name, fn in _bodies(tf).items():
        for ag in (True, False):
            for arg in (2.0, -2.0):
                f = tf.function(fn, autograph=ag)
                x = tf.constant(arg)
                try:
                    f.get_concrete_function(x)
                    try:
                        got = ["run", np.asarray(f(x).numpy()).tobytes().hex()]
                    except Exception as e:  # noqa: BLE001 - the class is what is compared
                        got = ["run", type(e).__name__]
                except Exception as e:  # noqa: BLE001
                    got = ["trace", type(e).__name__]
                out.append([f"{name} autograph={ag} x={arg}", got + [f.experimental_get_tracing_count()]])
    return out


CASES: dict[str, dict] = {n: {"strategy": "default", "name": n} for n in ("truth", "py_shapes", "signature_kinds", "iterator_end")}
NAMES = list(CASES)


@pytest.fixture(scope="module")
def tf_results(request: Any) -> dict[int, Any]:
    return tf_programs.spawn(__file__, CASES, tf_programs.selected(request, __file__))


def _check(name: str, tf_results: dict[int, Any], tmp_path: Any) -> None:
    got, want = tf_programs.on_simdist(program, CASES[name], str(tmp_path)), tf_results[NAMES.index(name)]
    assert [g[0] for g in got] == [w[0] for w in want], f"{name}: labels differ"
    bad = [f"{w[0]}: TF {w[1]!r}, simdist {g[1]!r}" for g, w in zip(got, want) if g[1] != w[1]]
    assert not bad, f"{name}: {len(bad)} of {len(want)} outcomes differ from TF 2.21:\n" + "\n".join(bad[:12])


@pytest.mark.clause("function.autograph")
@pytest.mark.parametrize("index", [NAMES.index("truth")])
def test_python_truth_of_a_graph_tensor_in_converted_code(index: int, tf_results: dict[int, Any],
                                                           tmp_path: Any) -> None:
    _check("truth", tf_results, tmp_path)


@pytest.mark.clause("ops.function-utilities")
@pytest.mark.parametrize("index", [NAMES.index("py_shapes")])
def test_py_function_outputs_have_unknown_rank_in_a_function(index: int, tf_results: dict[int, Any],
                                                             tmp_path: Any) -> None:
    _check("py_shapes", tf_results, tmp_path)



@pytest.mark.clause("function.input-signature")
@pytest.mark.parametrize("index", [NAMES.index("signature_kinds")])
def test_list_and_tuple_signature_entries(index: int, tf_results: dict[int, Any], tmp_path: Any) -> None:
    _check("signature_kinds", tf_results, tmp_path)



@pytest.mark.clause("dataset.api-surface")
@pytest.mark.parametrize("index", [NAMES.index("iterator_end")])
def test_an_iterators_end_inside_a_function(index: int, tf_results: dict[int, Any], tmp_path: Any) -> None:
    _check("iterator_end", tf_results, tmp_path)


if __name__ == "__main__":  # TF worker
    tf_workers.serve(tf_programs.worker(CASES, program))
