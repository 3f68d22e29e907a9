"""How a tf.function binds its calls to the Python's parameters, against TF 2.21 (the forty-seventh session,
helper open47; clause function.input-signature; simdist/tf/_signature.py
`function_type`, `bind_literals`, `type_text`; tf/_concrete.py `specs_of`; tf/_function.py `Function._invoke`).

TF 2.21 makes a FunctionType of the Python function (core/function/polymorphism/function_type.py) and binds every
call and every get_concrete_function to it before anything traces: a declared keyword-only parameter
(`def f(x, *, k)`) is a KEYWORD_ONLY parameter of the trace (structured_input_signature's dict, the graph's
inputs in the kwargs dict's sorted order), and a call that does not bind is TypeError "Binding inputs to
tf.function failed due to `...`. ... for signature: (x, *, k)."; with an input_signature (add_type_constraints,
at decoration) a parameter the signature leaves out takes its default's Literal type, a keyword-only parameter
without a default, a parameter without a constraint or default, and entries left over are TypeErrors, and
**kwargs is dropped. Each case: a list of [label, value or [error class, message]] (the Python's runs too).
"""

from __future__ import annotations

from typing import Any, Callable

import pytest

import tf_programs
import tf_workers

pytestmark = [pytest.mark.tf, tf_workers.tf_or_golden(__file__)]


def _v(r: Any) -> Any:
    if hasattr(r, "numpy"):
        return [r.dtype.name, r.numpy().tolist()]
    if isinstance(r, (list, tuple)):
        return [_v(x) for x in r]
    if isinstance(r, dict):
        return {k: _v(x) for k, x in r.items()}
    return repr(r)


def _try(out: list, label: str, fn: Callable[[], Any]) -> None:
    try:
        out.append([label, _v(fn())])
    except Exception as e:  # noqa: BLE001 - the class and text are what is compared
        out.append([label, [type(e).__name__, str(e).split("\n")[0]]])


def program(tf: Any, case: dict, workdir: str) -> Any:
    out: list[Any] = []
    log: list[Any] = []
    name = case["name"]
    x = tf.constant([1.0, 2.0])
    if name == "keyword-only parameters":
        @tf.function
        def f(x: Any, *, k: Any) -> Any:
            log.append([list(x.shape), k if not hasattr(k, "shape") else ["tensor", list(k.shape)]])
            return x * k
        _try(out, "call k=2.0", lambda: f(x, k=2.0))
        _try(out, "call k=3.0", lambda: f(x, k=3.0))
        _try(out, "call k=tensor", lambda: f(x, k=tf.constant(3.0)))
        _try(out, "call k=2.0 again", lambda: f(x, k=2.0))
        _try(out, "call k positionally", lambda: f(x, 2.0))
        _try(out, "call without k", lambda: f(x))
        _try(out, "tracing count", lambda: f.experimental_get_tracing_count())
        _try(out, "gcf without k", lambda: f.get_concrete_function(tf.TensorSpec([None])))
        _try(out, "gcf k positionally", lambda: f.get_concrete_function(tf.TensorSpec([None]), 2.0))
        c = f.get_concrete_function(tf.TensorSpec([None]), k=tf.TensorSpec([]))
        _try(out, "spec k: structured_input_signature", lambda: c.structured_input_signature)
        _try(out, "spec k: inputs", lambda: [[i.name, i.shape.as_list()] for i in c.inputs])
        _try(out, "spec k: pretty", lambda: c.pretty_printed_signature())
        _try(out, "spec k: c(x, k=t)", lambda: c(x, k=tf.constant(5.0)))
        _try(out, "spec k: c(x, t)", lambda: c(x, tf.constant(5.0)))
        _try(out, "spec k: c(x, k=5.0)", lambda: c(x, k=5.0))
        _try(out, "spec k: c(x)", lambda: c(x))
        c2 = f.get_concrete_function(tf.TensorSpec([None]), k=2.0)
        _try(out, "literal k: structured_input_signature", lambda: c2.structured_input_signature)
        _try(out, "literal k: c2(x, k=2.0)", lambda: c2(x, k=2.0))
        _try(out, "literal k: c2(x)", lambda: c2(x))
        _try(out, "literal k: c2(x, k=3.0)", lambda: c2(x, k=3.0))

        @tf.function
        def g(x: Any, *, k: Any = 4.0) -> Any:
            return x * k
        _try(out, "default k: call", lambda: g(x))
        _try(out, "default k: call k=t", lambda: g(x, k=tf.constant(2.0)))
        _try(out, "default k: gcf", lambda: g.get_concrete_function(tf.TensorSpec([None])).structured_input_signature)
        _try(out, "default k: gcf k=spec", lambda: g.get_concrete_function(
            tf.TensorSpec([None]), k=tf.TensorSpec([])).structured_input_signature)

        @tf.function
        def h(x: Any, *, z: Any, a: Any, **kw: Any) -> Any:
            return x * z * a * kw["b"] * kw["a0"]
        c3 = h.get_concrete_function(tf.TensorSpec([None]), z=tf.TensorSpec([]), a=2.0, b=tf.TensorSpec([]), a0=3.0)
        _try(out, "declared and ** keywords: structured_input_signature", lambda: c3.structured_input_signature)
        _try(out, "declared and ** keywords: pretty", lambda: c3.pretty_printed_signature())
        _try(out, "declared and ** keywords: inputs", lambda: [i.name for i in c3.inputs])
        _try(out, "declared and ** keywords: flat call", lambda: c3(x, tf.constant(2.0), tf.constant(5.0)))
        _try(out, "declared and ** keywords: by name", lambda: c3(x, z=tf.constant(2.0), b=tf.constant(5.0)))

        @tf.function
        def one(x: Any) -> Any:
            return x
        _try(out, "one parameter: two arguments", lambda: one(1.0, 2.0))
        _try(out, "one parameter: unknown keyword", lambda: one(1.0, y=2.0))
        _try(out, "one parameter: none", lambda: one())
        _try(out, "one parameter: tracing count", lambda: one.experimental_get_tracing_count())
    elif name == "an input_signature's parameters":
        @tf.function(input_signature=[tf.TensorSpec([None])])
        def q(x: Any, y: Any = 3.0) -> Any:
            return x * y
        _try(out, "default y: int tensor", lambda: q(tf.constant([1], tf.int32)))
        _try(out, "default y: y=4.0", lambda: q(x, y=4.0))
        _try(out, "default y: y=3.0", lambda: q(x, y=3.0))
        _try(out, "default y: positional 4.0", lambda: q(x, 4.0))
        _try(out, "default y: gcf", lambda: q.get_concrete_function().structured_input_signature)

        def missing() -> Any:
            @tf.function(input_signature=[tf.TensorSpec([None])])
            def r(x: Any, y: Any) -> Any:
                return x
            return r
        _try(out, "no constraint for y", lambda: missing() and "made")

        def extra() -> Any:
            @tf.function(input_signature=[tf.TensorSpec([None]), tf.TensorSpec([None])])
            def r(x: Any) -> Any:
                return x
            return r
        _try(out, "an extra constraint", lambda: extra() and "made")

        def kwonly() -> Any:
            @tf.function(input_signature=[tf.TensorSpec([None])])
            def r(x: Any, *, k: Any) -> Any:
                return x
            return r
        _try(out, "keyword-only without a default", lambda: kwonly() and "made")

        @tf.function(input_signature=[tf.TensorSpec([None])])
        def h(x: Any, *, k: Any = 4.0) -> Any:
            log.append(list(x.shape))
            return x * k
        _try(out, "keyword-only default: call", lambda: h(x))
        _try(out, "keyword-only default: k=2.0", lambda: h(x, k=2.0))
        _try(out, "keyword-only default: k=4.0", lambda: h(x, k=4.0))
        _try(out, "keyword-only default: k=tensor", lambda: h(x, k=tf.constant(4.0)))
        _try(out, "keyword-only default: tracing count", lambda: h.experimental_get_tracing_count())

        @tf.function(input_signature=[tf.TensorSpec([None])])
        def h2(x: Any, *, k: Any = 4.0) -> Any:
            return x * k
        _try(out, "keyword-only default: gcf", lambda: h2.get_concrete_function().structured_input_signature)

        @tf.function(input_signature=[tf.TensorSpec([None])])
        def hk(x: Any, **kw: Any) -> Any:
            return x
        _try(out, "**kw dropped: call", lambda: hk(x))
        _try(out, "**kw dropped: z=2.0", lambda: hk(x, z=2.0))
    out.append(["python runs", log])
    return out


NAMES = ["keyword-only parameters", "an input_signature's parameters"]
CASES: dict[str, dict] = {n: {"strategy": "default", "name": n} for n in NAMES}


@pytest.fixture(scope="module")
def tf_results(request: Any) -> dict[int, Any]:
    return tf_programs.spawn(__file__, CASES, tf_programs.selected(request, __file__))


@pytest.mark.clause("function.input-signature")
@pytest.mark.parametrize("index", range(len(NAMES)), ids=NAMES)
def test_function_binding_as_tf(index: int, tf_results: dict[int, Any], tmp_path: Any) -> None:
    name = NAMES[index]
    got, want = tf_programs.on_simdist(program, CASES[name], str(tmp_path)), tf_results[index]
    assert [g[0] for g in got] == [w[0] for w in want], f"{name}: labels differ"
    for g, w in zip(got, want):
        assert g == w, f"{name}: {w[0]}: simdist gives {g[1]}, TF 2.21 gives {w[1]}"


if __name__ == "__main__":  # TF worker
    tf_workers.serve(tf_programs.worker(CASES, program))
