"""tf.cond, tf.switch_case, tf.case, tf.while_loop and tf.gradients inside tf.function against real
TensorFlow 2.21 (clauses function.traced-branches, function.traced-while-loop and
function.graph-gradients).

Each program builds its tf.functions with the backend's `tf`, calls them several times and
returns plain values: the results of every call, the Python side effects its branches and loop
bodies logged (TF traces every branch and the loop's cond and body once per input signature),
the variables it wrote, or the error a call raised (class, and TF's words for the errors TF
raises while it builds a graph). TF's answers come from a TF 2.21 subprocess (tests/tf_workers.py)
or this module's golden. Needs the `tf` extra.
"""

from __future__ import annotations

import re
from typing import Any, Callable

import numpy as np
import pytest

import tf_workers

pytestmark = [pytest.mark.tf, tf_workers.tf_or_golden(__file__)]
clause = pytest.mark.clause

_TRACED = re.compile(r"^\s*(\w+Error): (.*)$", re.S | re.M)


# Names of graph tensors and nodes (TF's graph's, which simdist does not have) and what a shape
# function's message adds after the node: left out of the comparison.
_NAMES = [(re.compile(r" for '\{\{node .*$"), ""), (re.compile(r"Loop var \S+ enters"), "Loop var <var> enters"),
          (re.compile(r"\S+ type should remain"), "<var> type should remain"),
          (re.compile(r"Input tensor `[^`]*`"), "Input tensor `<var>`"),
          (re.compile(r"'while/LoopCond[^']*'"), "'while/LoopCond'")]


def _error(e: BaseException) -> tuple[str, str]:
    """(class, first line of TF's words): a trace-time error's text after "in user code:"'s frame;
    a run-time error's first line without TF's decorations; graph names left out (_NAMES)."""
    msg = str(e)
    first = None
    if msg.startswith("in user code:"):
        m = _TRACED.search(msg)
        if m:
            first = m.group(2).strip().split("\n")[0].strip()
    if first is None:
        lines = [ln for ln in msg.split("\n") if "assertion failed:" in ln] or msg.split("\n")
        first = re.sub(r"^\{\{function_node [^}]*\}\}\s*", "", lines[0].strip()).strip()
        first = re.sub(r"\s*\[Op:[\w<>]+\].*$", "", first)
    for pattern, repl in _NAMES:
        first = pattern.sub(repl, first)
    return type(e).__name__, first


def _plain(x: Any) -> Any:
    """A result as plain Python/NumPy: tensors as arrays (with their dtype name), structures kept."""
    if x is None or isinstance(x, (bool, int, float, str)):
        return x
    if isinstance(x, dict):
        return {k: _plain(v) for k, v in sorted(x.items())}
    if isinstance(x, (list, tuple)):
        return type(x)(_plain(v) for v in x)
    return (np.asarray(x).tolist(), x.dtype.name)


def _calls(f: Callable[..., Any], args: list[tuple]) -> list[Any]:
    out = []
    for a in args:
        try:
            out.append(_plain(f(*a)))
        except Exception as e:  # noqa: BLE001 - the error is the result
            out.append(("raised",) + _error(e))
    return out


# --- tf.cond / tf.switch_case / tf.case ---------------------------------------------------------------
def cond_side_effects(tf: Any) -> Any:
    log: list[str] = []

    @tf.function
    def f(x: Any) -> Any:
        def yes() -> Any:
            log.append("true")
            return x * 2.0

        def no() -> Any:
            log.append("false")
            return x - 1.0
        return tf.cond(x > 0, yes, no)
    c = tf.constant
    return {"values": _calls(f, [(c(1.0),), (c(-1.0),), (c(3.0),), (c(-4.0),)]), "log": log}


def cond_eager_side_effects(tf: Any) -> Any:
    log: list[str] = []
    x = tf.constant(2.0)
    out = tf.cond(x > 0, lambda: log.append("true") or x, lambda: log.append("false") or -x)
    return {"value": _plain(out), "log": log}


def cond_variable_writes(tf: Any) -> Any:
    v = tf.Variable(1.0)
    f = tf.function(lambda x: tf.cond(x > 0, lambda: v.assign_add(10.0), lambda: v.assign_sub(1.0)))
    seen = []
    for a in (1.0, -1.0, -1.0, 2.0):
        seen.append((_plain(f(tf.constant(a))), float(v.numpy())))
    return seen


def cond_captures(tf: Any) -> Any:
    """Branches computing from the arguments and from tensors the function made before the
    cond, and one returning an argument as it is, replayed with other arguments."""
    @tf.function
    def f(x: Any, y: Any) -> Any:
        s = x * y + 1.0
        return tf.cond(tf.reduce_sum(x) > 0, lambda: (s * 2.0, y), lambda: (s - y, x))
    c = tf.constant
    args = [(c([1.0, 2.0]), c([3.0, 4.0])), (c([-1.0, -2.0]), c([3.0, 5.0])), (c([4.0, 1.0]), c([0.5, 0.25])),
            (c([-4.0, 1.0]), c([2.0, 2.0]))]
    return _calls(f, args)


def cond_nested(tf: Any) -> Any:
    log: list[str] = []

    @tf.function
    def f(x: Any) -> Any:
        return tf.cond(x > 0, lambda: log.append("a") or x + 1.0,
                       lambda: tf.cond(x < -5.0, lambda: log.append("b") or x * 10.0,
                                       lambda: log.append("c") or x * 0.5))
    c = tf.constant
    return {"values": _calls(f, [(c(1.0),), (c(-10.0),), (c(-1.0),), (c(7.0),)]), "log": log}


def cond_python_values(tf: Any) -> Any:
    f = tf.function(lambda x: tf.cond(x > 0, lambda: 1, lambda: 2))
    g = tf.function(lambda x: tf.cond(x > 0, lambda: 1.5, lambda: x))
    h = tf.function(lambda x: tf.cond(x > 0, lambda: [x], lambda: [x * 2.0]))
    k = tf.function(lambda x: tf.cond(x > 0, lambda: None, lambda: None))
    c = tf.constant
    return [_calls(f, [(c(1.0),), (c(-1.0),)]), _calls(g, [(c(1.0),), (c(-1.0),)]),
            _calls(h, [(c(1.0),), (c(-1.0),)]), _calls(k, [(c(1.0),)])]


def _one_call(tf: Any, program: Callable[[Any], Any], arg: Any = None) -> Any:
    x = tf.constant(-1.0) if arg is None else arg
    return _calls(tf.function(program), [(x,)])[0]


def cond_errors(tf: Any) -> Any:
    def untaken_reshape(x: Any) -> Any:
        return tf.cond(x > 0, lambda: tf.reshape(tf.ones([6]), [5]), lambda: x)

    def nested_reshape(x: Any) -> Any:
        return tf.cond(x > 0, lambda: x, lambda: tf.cond(x < -5, lambda: x, lambda: tf.reshape(x, [2])))

    def untaken_assert(x: Any) -> Any:
        def fails() -> Any:
            tf.debugging.Assert(x < 0, [x])
            return x
        return tf.cond(x > 0, lambda: x, fails)
    programs = [
        lambda x: tf.cond(x > 0, lambda: x, lambda: tf.cast(x, tf.int32)),        # dtypes
        lambda x: tf.cond(x > 0, lambda: (x, x), lambda: x),                        # counts: AssertionError
        lambda x: tf.cond(x > 0, lambda: (x, x), lambda: [x, x]),                   # structure
        lambda x: tf.cond(x > 0, lambda: {"a": x}, lambda: {"b": x}),               # dict keys
        lambda x: tf.cond(x > 0, lambda: None, lambda: x),                          # None against a tensor
        lambda x: tf.cond(x > 0, lambda: 1, lambda: x),                             # a Python int is int32
        untaken_reshape,                                                            # shape function, untaken
        nested_reshape,
        untaken_assert,                                                             # a kernel error untaken
        lambda x: tf.cond(x > 0, lambda: tf.gather(tf.constant([1.0, 2.0]), 5), lambda: x),
        lambda x: tf.cond(x > 0, lambda: tf.zeros([2, 3]), lambda: tf.zeros([2, 4])) + tf.zeros([5]),
        lambda x: tf.cond(x > 0, lambda: tf.zeros([2, 3]), lambda: tf.zeros([3])),  # ranks differ: allowed
    ]
    return [_one_call(tf, p) for p in programs]


def switch_case_programs(tf: Any) -> Any:
    log: list[int] = []

    def branch(k: int) -> Callable[[], Any]:
        return lambda: log.append(k) or tf.constant(float(k))
    f = tf.function(lambda i: tf.switch_case(i, [branch(0), branch(1), branch(2)]))
    values = _calls(f, [(tf.constant(1),), (tf.constant(2),), (tf.constant(7),), (tf.constant(0),)])
    i0 = tf.constant(0)
    errors = [
        _one_call(tf, lambda i: tf.switch_case(i, [lambda: tf.constant(1.0), lambda: tf.constant(1)]), i0),
        _one_call(tf, lambda i: tf.switch_case(i, [lambda: tf.constant(1.0), lambda: tf.constant(1.0),
                                                   lambda: (tf.constant(1.0), tf.constant(2.0))]), i0),
        _one_call(tf, lambda i: tf.switch_case(i, [lambda: {"a": tf.constant(1.0)}, lambda: {"b": tf.constant(1.0)}]),
                  i0),
        _one_call(tf, lambda i: tf.switch_case(i, [lambda: tf.constant(1.0), lambda: tf.reshape(tf.ones([6]), [5])]),
                  i0),
    ]
    return {"values": values, "log": log, "errors": errors}


def case_programs(tf: Any) -> Any:
    log: list[str] = []
    g = tf.function(lambda x: tf.case([(x > 0, lambda: log.append("a") or x), (x < -5, lambda: log.append("b") or -x)],
                                      default=lambda: log.append("d") or x * 0))
    c = tf.constant
    values = _calls(g, [(c(1.0),), (c(-10.0),), (c(-1.0),)])
    error = _one_call(tf, lambda x: tf.case([(x > 0, lambda: x)], default=lambda: tf.constant(1)))
    return {"values": values, "log": log, "error": error}


def under_tape_and_in_run(tf: Any) -> Any:
    """A tape around calls of functions holding a tf.cond and a tf.while_loop, and a tf.cond in
    the replica function of a MirroredStrategy's run inside a tf.function."""
    v = tf.Variable(2.0)
    f = tf.function(lambda x: tf.cond(x > 0, lambda: v * x * x, lambda: tf.sin(x) * v))
    w = tf.function(lambda x: tf.while_loop(lambda i, y: i < 3, lambda i, y: (i + 1, y * x),
                                            [0, tf.constant(1.0)])[1])
    out: list[Any] = []
    for fn, a in ((f, 1.5), (f, -0.5), (f, 2.0), (w, 2.0), (w, 3.0)):
        x = tf.constant(a)
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = fn(x)
        out.append((_plain(y), _grads(tape.gradient(y, [x, v]))))
    strategy = tf.distribute.MirroredStrategy(["/cpu:0"])

    @tf.function
    def step(x: Any) -> Any:
        r = strategy.run(lambda x: tf.cond(tf.reduce_sum(x) > 0, lambda: x * 2.0, lambda: x - 1.0), args=(x,))
        return strategy.reduce("SUM", r, axis=None)
    out.append([_plain(step(tf.constant(a))) for a in ([1.0, 2.0], [-1.0, -2.0], [3.0, -1.0])])
    return out


def tape_watches_both_branches(tf: Any) -> Any:
    """A tape around a tf.function's cond watches the variables both branches read; the one read
    only by the branch not taken gets a zero gradient (TF's If takes both as inputs)."""
    a = tf.Variable(1.0, name="a")
    b = tf.Variable(2.0, name="b")
    f = tf.function(lambda x: tf.cond(x > 0, lambda: a * x, lambda: b * x))
    out = []
    for val in (1.0, -1.0, 2.0):
        with tf.GradientTape() as tape:
            y = f(tf.constant(val))
        out.append((sorted(v.name for v in tape.watched_variables()), _plain(y), _grads(tape.gradient(y, [a, b]))))
    with tf.GradientTape() as tape:
        tf.cond(tf.constant(1.0) > 0, lambda: a * 2.0, lambda: b * 3.0)
    out.append(sorted(v.name for v in tape.watched_variables()))
    return out


def asserts_in_function(tf: Any) -> Any:
    """A failing tf.Assert inside a tf.function (the Assert kernel's message), and tf.case's
    asserts there: exclusive=True with several true predicates, no default with none."""
    def wrap(data: Callable[[Any], Any], **kw: Any) -> Any:
        def f(x: Any) -> Any:
            tf.debugging.Assert(x[0] < 0, data(x), **kw)
            return x
        return tf.function(f)
    x = tf.constant([1.0, 2.5, 3.0, 4.0])
    programs = [
        wrap(lambda x: ["x is", x]),
        wrap(lambda x: [x, "and", tf.constant([True, False]), tf.constant(7)], summarize=10),
        wrap(lambda x: [tf.constant([[1, 2], [3, 4]])]),
        wrap(lambda x: [tf.constant(1.5), tf.constant(-0.25, tf.float64), tf.constant(1e10)]),
        wrap(lambda x: [tf.constant([1 / 3]), tf.zeros([2, 2, 2]), tf.constant([0.1], tf.float64),
                        tf.constant(1 / 3, tf.float64), tf.constant([float("nan"), float("inf")])]),
        wrap(lambda x: [tf.zeros([2, 2, 2])], summarize=10),
    ]
    out = [_calls(p, [(x,)])[0] for p in programs]
    ex = tf.function(lambda x: tf.case([(x > 0, lambda: x), (x > -1, lambda: x * 2.0)], default=lambda: x * 3.0,
                                       exclusive=True))
    nd = tf.function(lambda x: tf.case([(x > 0, lambda: x), (x > -1, lambda: x * 2.0)]))
    for fn in (ex, nd):
        got = _calls(fn, [(tf.constant(a),) for a in (1.0, -0.5, -3.0)])
        # (TF names the predicates' graph tensors in exclusive's message: compared up to there)
        out.append([r[:2] + (r[2].split(" more than")[0],) if r[0] == "raised" else r for r in got])
    return out


# --- tf.while_loop -------------------------------------------------------------------------------------
def while_traces_once(tf: Any) -> Any:
    log: list[str] = []

    def cond(v: Any) -> Any:
        log.append("cond")
        return v < 10.0

    def body(v: Any) -> Any:
        log.append("body")
        return v + 1.5
    f = tf.function(lambda x: tf.while_loop(cond, body, [x]))
    c = tf.constant
    return {"values": _calls(f, [(c(1.0),), (c(3.0),), (c(20.0),), (c(-2.0),)]), "log": log}


def while_zero_iterations_first(tf: Any) -> Any:
    """The first call runs no iteration: the body is traced all the same, and later calls loop."""
    log: list[str] = []
    f = tf.function(lambda x: tf.while_loop(lambda v: v < 5.0, lambda v: log.append("body") or v * 2.0, [x]))
    c = tf.constant
    return {"values": _calls(f, [(c(9.0),), (c(1.0),), (c(0.5),)]), "log": log}


def while_state_and_captures(tf: Any) -> Any:
    """Two loop variables, a tensor captured from before the loop, a variable written each
    iteration and maximum_iterations, over several calls."""
    v = tf.Variable(0.0)

    @tf.function
    def f(x: Any, n: Any) -> Any:
        w = x * 0.5 + 1.0

        def body(i: Any, acc: Any) -> Any:
            v.assign_add(1.0)
            return i + 1, acc * w + tf.cast(i, tf.float32)
        return tf.while_loop(lambda i, acc: i < n, body, (tf.constant(0), x), maximum_iterations=6)
    c = tf.constant
    out = []
    for a in [(c(1.0), c(3)), (c(2.0), c(10)), (c(-1.0), c(0)), (c(0.5), c(4))]:
        out.append((_calls(f, [a])[0], float(v.numpy())))
    return out


def while_with_cond_inside(tf: Any) -> Any:
    log: list[str] = []

    def body(i: Any, s: Any) -> Any:
        s = tf.cond(i % 2 == 0, lambda: log.append("even") or s + 1.0, lambda: log.append("odd") or s * 2.0)
        return i + 1, s
    f = tf.function(lambda n: tf.while_loop(lambda i, s: i < n, body, [tf.constant(0), tf.constant(1.0)]))
    return {"values": _calls(f, [(tf.constant(5),), (tf.constant(2),), (tf.constant(7),)]), "log": log}


def while_errors(tf: Any) -> Any:
    one = tf.ones([1])
    programs = [
        lambda x: tf.while_loop(lambda v: v < 10, lambda v: tf.cast(v, tf.int32) + 1, [x]),
        lambda x: tf.while_loop(lambda v: tf.reduce_sum(v) < 10, lambda v: tf.concat([v, v], 0), [one]),
        lambda x: tf.while_loop(lambda v: tf.reduce_sum(v) < 10, lambda v: tf.concat([v, v], 0), [one],
                                shape_invariants=[tf.TensorShape([None])]),
        lambda x: tf.while_loop(lambda v: tf.reduce_sum(v) < 10, lambda v: tf.concat([v, v], 0), [one],
                                shape_invariants=[tf.TensorShape([2])]),
        lambda x: tf.while_loop(lambda v: tf.reduce_sum(v) < 10, lambda v: tf.reshape(v, [1, 1]), [one]),
        lambda x: tf.while_loop(lambda a, b: a < 10, lambda a, b: (a + 1,), [x, x]),
        lambda x: tf.while_loop(lambda a: a < 10, lambda a: a + 1, [0]),
        lambda x: tf.while_loop(lambda a: a < 10, lambda a: 11.0, [x]),
        lambda x: tf.while_loop(lambda v: v, lambda v: v - 1, [tf.constant(3)]),
        lambda x: tf.while_loop(lambda v: v < 100.0, lambda v: v + 1.0, [x], maximum_iterations=5),
    ]
    out = []
    for p in programs:
        r = _one_call(tf, p, tf.constant(1.0))
        # (TF's structure message is nest's; simdist's nest words it otherwise: class only)
        out.append(r[:2] if r[0] == "raised" and r[1] == "ValueError" and "structure" in r[2] else r)
    return out


# --- tf.gradients ---------------------------------------------------------------------------------------
def _grads(r: Any) -> Any:
    return [None if t is None else _plain(t) for t in r] if isinstance(r, list) else _plain(r)


def gradients_in_function(tf: Any) -> Any:
    c = tf.constant
    x = c([1.0, 2.0, 3.0])
    v = tf.Variable([1.0, 2.0])

    def stop(x: Any) -> Any:
        a = x * x
        return tf.gradients(a * 3.0 + x, x, stop_gradients=[a])

    def second(x: Any) -> Any:
        g = tf.gradients(tf.reduce_sum(x ** 3), x)[0]
        return tf.gradients(tf.reduce_sum(g), x)
    programs = [
        lambda x: tf.gradients(tf.reduce_sum(x * x), x),
        lambda x: tf.gradients([x * x, tf.sin(x)], [x]),
        lambda x: tf.gradients(x * x, x, grad_ys=tf.constant([1.0, 0.5, 2.0])),
        lambda x: tf.gradients(x * 2.0, [x, tf.constant(1.0)]),
        lambda x: tf.gradients(x * 2.0, [x, tf.constant(1.0)], unconnected_gradients=tf.UnconnectedGradients.ZERO),
        stop,
        lambda x: tf.gradients(tf.reduce_sum(v * v * x[0]), [v, x]),
        lambda x: tf.gradients(tf.cast(tf.constant(3), tf.float32) * x, [tf.constant(3)]),
        lambda x: tf.gradients(x, x),
        lambda x: tf.gradients(tf.matmul(tf.reshape(x, [1, 3]), tf.ones([3, 2])), x),
        lambda x: tf.gradients([x, x * 2.0], x, grad_ys=[tf.ones([3]), tf.ones([3]) * 3.0]),
        second,
        lambda x: tf.gradients(tf.reduce_sum(x), "a"),
        lambda x: tf.gradients(None, x),
    ]
    @tf.custom_gradient
    def scaled(x: Any) -> Any:
        def grad(dy: Any) -> Any:
            return dy * 100.0
        return x * 2.0, grad
    programs.append(lambda x: tf.gradients(tf.reduce_sum(scaled(x) * x), x))
    out: list[Any] = []
    for p in programs:
        try:
            out.append(_grads(tf.function(p)(x)))
        except Exception as e:  # noqa: BLE001 - the error is the result
            out.append(("raised",) + _error(e))
    try:
        tf.gradients(x, x)
        out.append("eager tf.gradients returned")
    except Exception as e:  # noqa: BLE001 - the error is the result
        out.append(("raised",) + _error(e))
    return out


def gradients_replayed(tf: Any) -> Any:
    """tf.gradients of a function called with other values (replays), and through a tf.cond."""
    c = tf.constant
    f = tf.function(lambda x, w: tf.gradients(tf.reduce_sum(tf.tanh(tf.matmul(x, w))), [x, w]))
    out = [_grads(f(c([[1.0, 2.0]]), c([[0.5], [-0.25]]))), _grads(f(c([[3.0, -1.0]]), c([[0.1], [0.2]])))]

    @tf.function
    def g(x: Any, y: Any) -> Any:
        z = tf.cond(x[0] > 0, lambda: x * y + tf.sin(x), lambda: x * x * y)
        return tf.gradients(tf.reduce_sum(z * 2.0), [x, y])

    @tf.function
    def h(x: Any, y: Any) -> Any:
        z = tf.cond(x[0] > 0, lambda: tf.tanh(x * y), lambda: x * 3.0)
        return tf.gradients(tf.reduce_sum(z * 2.0), [x, y])
    for fn in (g, h):
        for a in ([1.0, 2.0], [-1.0, 3.0], [2.0, 0.5], [-2.0, 1.0]):
            out.append(_grads(fn(c(a), c([0.5, -1.0]))))
    return out


def gradients_hessians(tf: Any) -> Any:
    x = tf.constant([1.0, 2.0, 3.0])
    m = tf.constant([[1.0, 2.0], [3.0, 4.0]])
    f = tf.function(lambda x: tf.hessians(tf.reduce_sum(x ** 3) + x[0] * x[1], x))
    g = tf.function(lambda m, x: tf.hessians(tf.reduce_sum(tf.sin(m) * m) + tf.reduce_sum(x * x), [m, x]))
    out = [_grads(f(x)), _grads(g(m, x))]
    try:
        tf.hessians(x, x)
        out.append("eager tf.hessians returned")
    except Exception as e:  # noqa: BLE001 - the error is the result
        out.append(("raised",) + _error(e))
    return out


def gradients_through_loops(tf: Any) -> Any:
    """tf.gradients through a tf.while_loop (iteration counts varying over calls, zero included),
    and with respect to a variable read inside a while_loop's body and inside a tf.cond branch."""
    c = tf.constant

    @tf.function
    def w(x: Any, n: Any) -> Any:
        i, y = tf.while_loop(lambda i, y: i < n, lambda i, y: (i + 1, tf.sin(y) * x), [0, x])
        return y, tf.gradients(y, x)
    out: list[Any] = [_grads(list(w(c(a), c(k)))) for a, k in ((2.0, 3), (0.5, 5), (1.5, 0))]
    v = tf.Variable(3.0)

    @tf.function
    def w3(x: Any) -> Any:
        i, y = tf.while_loop(lambda i, y: i < 4, lambda i, y: (i + 1, y * v + x), [0, x], maximum_iterations=3)
        return tf.gradients(y * y, [x, v])
    out.append(_grads(w3(c(0.5))))
    u = tf.Variable(2.0)

    @tf.function
    def f(x: Any) -> Any:
        return tf.gradients(tf.cond(x > 0, lambda: u * x * x, lambda: tf.sin(x)), [x, u])
    out.extend(_grads(f(c(a))) for a in (1.5, -0.5, 2.0))
    return out


CASES: list[tuple[str, Callable[[Any], Any]]] = [
    ("cond-side-effects", cond_side_effects),
    ("cond-eager-side-effects", cond_eager_side_effects),
    ("cond-variable-writes", cond_variable_writes),
    ("cond-captures", cond_captures),
    ("cond-nested", cond_nested),
    ("cond-python-values", cond_python_values),
    ("cond-errors", cond_errors),
    ("switch-case", switch_case_programs),
    ("case", case_programs),
    ("under-tape-and-in-run", under_tape_and_in_run),
    ("tape-watches-both-branches", tape_watches_both_branches),
    ("asserts-in-function", asserts_in_function),
    ("while-traces-once", while_traces_once),
    ("while-zero-iterations-first", while_zero_iterations_first),
    ("while-state-and-captures", while_state_and_captures),
    ("while-with-cond-inside", while_with_cond_inside),
    ("while-errors", while_errors),
    ("gradients", gradients_in_function),
    ("gradients-replayed", gradients_replayed),
    ("gradients-hessians", gradients_hessians),
    ("gradients-through-loops", gradients_through_loops),
]
_BRANCHES = [k for k, (name, _) in enumerate(CASES) if not name.startswith(("while", "gradients"))]
_GRADIENTS = [k for k, (name, _) in enumerate(CASES) if name.startswith("gradients")]
_LOOPS = [k for k, (name, _) in enumerate(CASES) if name.startswith("while")]


def _tf_worker(indices: list[int]) -> dict[int, Any]:
    import tensorflow as tf
    return {k: CASES[k][1](tf) for k in indices}


@pytest.fixture(scope="module")
def tf_results() -> dict[int, Any]:
    return tf_workers.spawn(__file__, list(range(len(CASES))))


# Cases whose float values go through kernels that round otherwise than TF's (sin/cos/tanh and
# their gradients' sums: ops-level fidelity, not this module's): compared to rtol 1e-6.
_ROUNDED = {"gradients-replayed", "under-tape-and-in-run", "gradients-hessians", "gradients-through-loops"}


def _same(got: Any, want: Any, rtol: float) -> bool:
    """got == want, floats within rtol (a value is (nested list, dtype name))."""
    if rtol == 0.0 or type(got) is not type(want):
        return bool(got == want)
    if isinstance(got, tuple) and len(got) == 2 and isinstance(got[1], str) and got[1].startswith("float"):
        return got[1] == want[1] and np.allclose(got[0], want[0], rtol=rtol, atol=0.0)
    if isinstance(got, (list, tuple)):
        return len(got) == len(want) and all(_same(a, b, rtol) for a, b in zip(got, want))
    return bool(got == want)


def _compare(k: int, tf_results: dict[int, Any]) -> None:
    from simdist import tf
    name, program = CASES[k]
    got, want = program(tf), tf_results[k]
    assert _same(got, want, 1e-6 if name in _ROUNDED else 0.0), \
        f"{name}: simdist gives\n{got!r}\nbut TF 2.21 gives\n{want!r}"


@clause("function.traced-branches")
@pytest.mark.parametrize("k", _BRANCHES, ids=[CASES[k][0] for k in _BRANCHES])
def test_traced_branches_as_tf(k: int, tf_results: dict[int, Any]) -> None:
    _compare(k, tf_results)


@clause("function.traced-while-loop")
@pytest.mark.parametrize("k", _LOOPS, ids=[CASES[k][0] for k in _LOOPS])
def test_traced_while_loop_as_tf(k: int, tf_results: dict[int, Any]) -> None:
    _compare(k, tf_results)


@clause("function.graph-gradients")
@pytest.mark.parametrize("k", _GRADIENTS, ids=[CASES[k][0] for k in _GRADIENTS])
def test_graph_gradients_as_tf(k: int, tf_results: dict[int, Any]) -> None:
    _compare(k, tf_results)


@clause("function.traced-branches")
def test_traced_branches_record_once() -> None:
    """The functions whose branches and loops depend on their arguments replay a recorded graph
    (simdist only: TF has no such notion; the side-effect logs above are its observable part)."""
    from simdist import tf
    from simdist.runtime.graph import explain
    f = tf.function(lambda x: tf.cond(x > 0, lambda: x * 2.0, lambda: x - 1.0))
    g = tf.function(lambda x: tf.while_loop(lambda v: v < 10.0, lambda v: v + 1.0, [x]))
    for fn in (f, g):
        fn(tf.constant(1.0))
        fn(tf.constant(-1.0))
        assert explain(fn).startswith("replays a recorded graph"), f"explain: {explain(fn)!r}, but should replay"


if __name__ == "__main__":
    tf_workers.serve(_tf_worker)
