"""When a tf.function's Python runs: a trace get_concrete_function made serves the calls it covers, a Variable
argument of the same VariableSpec reuses the trace, against TF 2.21 (the sixty-sixth session, helper fix66t; clauses
function.trace-once, function.input-signature, function.traced-while-loop, function.xla-unsupported-ops,
function.autograph; simdist/tf/_function.py `_keep_placeholder_recording`, `_other_variables`, `_trace_arguments`,
`_concrete_key`, `_xla_call`; tf/_concrete.py `trace`; tf/_tracing_count.py `_key`'s alias ids;
runtime/ops/loops.py `_checked`/`_as_invariants`; tf/_autograph_convert.py `_header_unbound`).

Each case: a list of [label, value or [error class, message start]]; `n` labels are the Python counter (how many
times the traced Python ran), `count` labels experimental_get_tracing_count(). This module has no
`from __future__ import annotations`: its annotation case needs the annotations evaluated, as TF's factory does.
"""

import re
from typing import Any, Callable

import pytest

import tf_programs
import tf_workers

pytestmark = [pytest.mark.tf, tf_workers.tf_or_golden(__file__)]


def _v(r: Any) -> Any:
    if hasattr(r, "numpy"):
        return [r.dtype.name, r.numpy().tolist()]
    if hasattr(r, "shape") and hasattr(r, "dtype"):   # (a TensorSpec, a symbolic output)
        return ["spec", r.dtype.name, None if r.shape.rank is None else r.shape.as_list()]
    if hasattr(r, "as_list") or type(r).__name__ == "TensorShape":
        return ["shape", None if r.rank is None else r.as_list()]
    if isinstance(r, (list, tuple)):
        return [type(r).__name__] + [_v(x) for x in r]
    if isinstance(r, dict):
        return {k: _v(x) for k, x in sorted(r.items())}
    return r if r is None or isinstance(r, (bool, int, float, str)) else repr(r)


def _try(out: list, label: str, fn: Callable[[], Any]) -> None:
    try:
        out.append([label, _v(fn())])
    except Exception as e:  # noqa: BLE001 - the class and the text's start are what is compared
        text = re.sub(r"__inference_\S*", "", str(e).split("\n")[0])   # (TF's graph names)
        out.append([label, [type(e).__name__, text[:60]]])


def _concrete_then_calls(tf: Any, out: list) -> None:
    c, S, f32 = tf.constant, tf.TensorSpec, tf.float32
    for sname, sig, calls in (
            ("one", [S([], f32)], [(c(1.0),), (c(2.0),), (3.0,)]),
            ("two", [S([], f32), S([], f32)], [(c(1.0), c(2.0)), (1, 2)]),
            ("nested", [(S([2], f32), S([], tf.int32))], [((c([1.0, 2.0]), c(3)),), ((c([5.0, 6.0]), c(1)),)]),
            ("int32 matrix", [S([2, 2], tf.int32)], [(c([[1, 2], [3, 4]]),), (c([[0, 1], [1, 0]]),)])):
        n: list = []

        def body(*xs: Any) -> Any:
            n.append(1)
            leaves = tf.nest.flatten(xs)
            return [tf.reduce_sum(tf.cast(v, f32)) * 2.0 + 1.0 for v in leaves]

        f = tf.function(body, input_signature=sig)
        _try(out, f"{sname} concrete", lambda: f.get_concrete_function().structured_outputs)
        _try(out, f"{sname} n after concrete", lambda: len(n))
        for i, a in enumerate(calls):
            _try(out, f"{sname} call {i}", lambda: f(*a))
            _try(out, f"{sname} n {i}", lambda: len(n))
        _try(out, f"{sname} again concrete", lambda: f.get_concrete_function().structured_input_signature)
        _try(out, f"{sname} n end", lambda: len(n))
        _try(out, f"{sname} count", lambda: f.experimental_get_tracing_count())
    # without a signature: the concrete function of a spec serves a call of its shapes; a second
    # get_concrete_function of a covered call returns the trace made
    m: list = []

    def g(x: Any, k: Any = 2) -> Any:
        m.append(1)
        return x * float(k) + 1.0

    h = tf.function(g)
    _try(out, "spec concrete", lambda: h.get_concrete_function(S([3], f32)).structured_input_signature)
    _try(out, "spec call", lambda: h(c([1.0, 2.0, 3.0])))
    _try(out, "spec concrete again", lambda: h.get_concrete_function(c([4.0, 5.0, 6.0])).structured_input_signature)
    _try(out, "spec literal", lambda: h.get_concrete_function(S([3], f32), k=3).structured_input_signature)
    _try(out, "spec n", lambda: len(m))
    _try(out, "spec count", lambda: h.experimental_get_tracing_count())
    r: list = []

    def shape_of(x: Any) -> Any:
        r.append(1)
        return tf.shape(x)

    rel = tf.function(shape_of, reduce_retracing=True)
    for i, a in enumerate([c([1.0]), c([1.0, 2.0]), c([1.0, 2.0, 3.0])]):
        _try(out, f"relaxed call {i}", lambda: rel(a))
    _try(out, "relaxed concrete", lambda: rel.get_concrete_function(c([5.0, 6.0])).structured_input_signature)
    _try(out, "relaxed count", lambda: rel.experimental_get_tracing_count())


def _variable_arguments(tf: Any, out: list) -> None:
    c = tf.constant
    n: list = []

    def step(v: Any, x: Any) -> Any:
        n.append(1)
        v.assign_add(x)
        return v * 2.0 + x

    f = tf.function(step)
    a, b = tf.Variable(1.5), tf.Variable(2.5)
    for label, var, x in (("a", a, 1.0), ("b", b, 1.0), ("b again", b, 2.0), ("a again", a, 2.0)):
        _try(out, f"step {label}", lambda: f(var, c(x)))
        _try(out, f"step {label} vars", lambda: [a.numpy().item(), b.numpy().item(), len(n),
                                                 f.experimental_get_tracing_count()])
    g_ = tf.Variable(10.0)
    m: list = []

    def with_capture(v: Any) -> Any:
        m.append(1)
        v.assign_add(1.0)
        return v + g_

    h = tf.function(with_capture)
    _try(out, "capture same", lambda: h(g_))
    e = tf.Variable(3.0)
    _try(out, "capture other", lambda: h(e))
    _try(out, "capture vars", lambda: [g_.numpy().item(), e.numpy().item(), len(m)])
    k: list = []

    def two(p: Any, q: Any) -> Any:
        k.append(1)
        p.assign(q * 3.0)
        return p + q

    t = tf.function(two)
    d, w = tf.Variable(7.0), tf.Variable([1.0, 2.0])
    for label, args in (("a b", (a, b)), ("d b", (d, b)), ("d d", (d, d)), ("w w", (w, w))):
        _try(out, f"two {label}", lambda: t(*args))
        _try(out, f"two {label} n", lambda: [len(k), t.experimental_get_tracing_count()])


def _signatures_jit_loops(tf: Any, out: list) -> None:
    c, S, f32 = tf.constant, tf.TensorSpec, tf.float32

    def ident(x: Any, y: Any = 2.0) -> Any:
        return x

    for label, sig in (("list", [S([], f32)]), ("tuple", (S([], f32),)), ("nested", [[S([], f32), S([], f32)]])):
        _try(out, f"input_signature {label}", lambda: tf.function(ident, input_signature=sig).input_signature)
    for label, fn, args in (
            ("string result", lambda x: (x * 2.0, tf.constant("a")), (c(1.0),)),
            ("string argument", lambda x, s: x * 2.0, (c(1.0), c("abc"))),
            ("python string result", lambda x: "abc", (c(1.0),))):
        j = tf.function(fn, jit_compile=True)
        _try(out, f"jit {label}", lambda: j(*args))
        _try(out, f"jit {label} again", lambda: j(*args))
        _try(out, f"jit {label} count", lambda: j.experimental_get_tracing_count())
    v = tf.Variable(1.0)

    def writes_then_string(x: Any) -> Any:
        v.assign_add(x)
        return tf.constant("done")

    _try(out, "jit string after a write", lambda: tf.function(writes_then_string, jit_compile=True)(c(5.0)))
    _try(out, "jit variable after", lambda: v.numpy().item())

    def make(T: Any) -> Any:
        def loop(x: T) -> Any:
            i = tf.constant(0)
            while i < x:
                i += 1
            return i
        return loop

    _try(out, "annotation of the enclosing scope", lambda: tf.function(make(int))(c(5)))
    seen: list = []

    def invariant(x: Any) -> Any:
        r = tf.while_loop(lambda v: tf.abs(tf.reduce_sum(v)) < 100.0, lambda v: v * 2.0, [tf.reshape(x, [1])],
                          shape_invariants=[tf.TensorShape([2])])
        seen.append(r[0].shape)
        return r

    def growing(x: Any) -> Any:
        return tf.while_loop(lambda v: tf.abs(tf.reduce_sum(v)) < 100.0, lambda v: tf.concat([v, v], 0)[:2] * 2.0,
                             [tf.reshape(x, [1])], shape_invariants=[tf.TensorShape([2])])

    def too_long(x: Any) -> Any:
        return tf.while_loop(lambda v: tf.abs(tf.reduce_sum(v)) < 100.0, lambda v: tf.concat([v, v], 0),
                             [tf.reshape(x, [1])], shape_invariants=[tf.TensorShape([2])])

    for label, fn in (("invariant", invariant), ("growing", growing), ("too long", too_long)):
        f = tf.function(fn)
        for x in (1.0, -3.0):
            _try(out, f"{label} {x} static", lambda: [o.shape for o in f.get_concrete_function(c(x)).outputs])
            _try(out, f"{label} {x}", lambda: f(c(x)))
    _try(out, "invariant python view", lambda: seen[0])


def program(tf: Any, case: dict, workdir: str) -> Any:
    out: list[Any] = []
    {"concrete function then calls": _concrete_then_calls, "variable arguments": _variable_arguments,
     "signatures, jit, loops": _signatures_jit_loops}[case["name"]](tf, out)
    return out


NAMES = ["concrete function then calls", "variable arguments", "signatures, jit, loops"]
CASES: dict = {n: {"strategy": "default", "name": n} for n in NAMES}


@pytest.fixture(scope="module")
def tf_results(request: Any) -> dict:
    return tf_programs.spawn(__file__, CASES, tf_programs.selected(request, __file__))


@pytest.mark.clause("function.trace-once")
@pytest.mark.parametrize("index", range(len(NAMES)), ids=NAMES)
def test_trace_reuse_as_tf(index: int, tf_results: dict, tmp_path: Any) -> None:
    name = NAMES[index]
    got, want = tf_programs.on_simdist(program, CASES[name], str(tmp_path)), tf_results[index]
    assert [g[0] for g in got] == [w[0] for w in want], f"{name}: labels differ"
    for g, w in zip(got, want):
        assert g == w, f"{name}: {w[0]}: simdist gives {g[1]}, TF 2.21 gives {w[1]}"


if __name__ == "__main__":  # TF worker
    tf_workers.serve(tf_programs.worker(CASES, program))
