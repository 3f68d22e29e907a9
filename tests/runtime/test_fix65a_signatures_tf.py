"""Tensor defaults and TensorSpec arguments in a tf.function's binding, against TF 2.21 (the sixty-fifth session,
helper fix65a; clause function.input-signature; simdist/tf/_signature.py `_default_spec`, `derived_signature`,
`bind`, `_as_nested`; tf/_concrete.py `specs_of`; tf/_function.py `_refuse_specs`).

With an input_signature, a parameter it leaves out whose default is a tensor is constrained by that tensor's
TensorSpec (add_type_constraints: trace_type.from_value), and Function.input_signature is to_input_signature (the
constraints in parameter order up to the first that is not a TensorSpec): `g(x, y=tf.constant(5.0), z=2.0)` with
one spec has two, structured_input_signature lists `y` and `z`'s literal; `h(x, z=2.0, y=tf.constant(5.0))` keeps
one but lists `y` after `2.0` and casts a call's `y` to its spec all the same. A namedtuple for a tuple entry is
cast to a plain tuple. A call given a TensorSpec traces on it and fails converting it to the graph's input
(ValueError), the trace counted. Each case: a list of [label, value or [error class, message]].
"""

from __future__ import annotations

import collections
import re
from typing import Any, Callable

import pytest

import tf_programs
import tf_workers

pytestmark = [pytest.mark.tf, tf_workers.tf_or_golden(__file__)]

Pair = collections.namedtuple("Pair", ["a", "b"])


def _v(r: Any) -> Any:
    if hasattr(r, "numpy"):
        return [type(r).__name__ if hasattr(r, "_fields") else r.dtype.name, r.numpy().tolist()]
    if hasattr(r, "shape") and hasattr(r, "dtype"):   # (a TensorSpec)
        return ["spec", r.dtype.name, None if r.shape.rank is None else r.shape.as_list(), r.name]
    if isinstance(r, (list, tuple)):
        return [type(r).__name__] + [_v(x) for x in r]
    if isinstance(r, dict):
        return {k: _v(x) for k, x in sorted(r.items())}
    return repr(r)


def _try(out: list, label: str, fn: Callable[[], Any]) -> None:
    try:
        out.append([label, _v(fn())])
    except Exception as e:  # noqa: BLE001 - the class and the text's start are what is compared
        text = re.sub(r"<class '[\w.]*\.(\w+)'>", r"<class '\1'>", str(e).split("\n")[0])   # (the module path)
        out.append([label, [type(e).__name__, text[:160]]])


def program(tf: Any, case: dict, workdir: str) -> Any:
    out: list[Any] = []
    c, S, f32 = tf.constant, tf.TensorSpec, tf.float32
    name = case["name"]
    if name == "tensor defaults":
        def g(x: Any, y: Any = c(5.0), z: float = 2.0) -> Any:
            return x + y
        def h(x: Any, z: float = 2.0, y: Any = c(5.0)) -> Any:
            return x + y
        def k(x: Any, y: Any = c([1, 2])) -> Any:
            return x, y
        for label, fn in (("g", g), ("h", h), ("k", k)):
            f = tf.function(fn, input_signature=[S([], f32)])
            _try(out, f"{label} input_signature", lambda: list(f.input_signature))
            _try(out, f"{label} structured", lambda: f.get_concrete_function().structured_input_signature)
            _try(out, f"{label} call", lambda: f(c(1.0)))
            _try(out, f"{label} call y", lambda: f(c(1.0), y=c(2.0)))
            _try(out, f"{label} call y int32", lambda: f(c(1.0), y=c(2)))
            _try(out, f"{label} count", lambda: f.experimental_get_tracing_count())
        f = tf.function(h, input_signature=[S([], f32)])
        _try(out, "h positional y int32", lambda: f(c(1.0), 2.0, c(1)))
        _try(out, "h positional y", lambda: f(c(1.0), 2.0, c(3.0)))
    elif name == "namedtuples and specs as arguments":
        def p(x: Any) -> Any:
            return x
        f = tf.function(p, input_signature=[(S([], f32), S([], f32))])
        _try(out, "namedtuple for a tuple entry", lambda: f(Pair(c(1.0), c(2.0))))
        _try(out, "list for a tuple entry", lambda: f([c(1.0), c(2.0)]))
        q = tf.function(lambda x: x * 2)
        _try(out, "spec argument", lambda: q(S([], tf.int32)))
        _try(out, "spec argument count", lambda: q.experimental_get_tracing_count())
        _try(out, "spec in a tuple", lambda: q((S([2], f32), c(1.0))))
        _try(out, "count after", lambda: q.experimental_get_tracing_count())
    return out


NAMES = ["tensor defaults", "namedtuples and specs as arguments"]
CASES: dict[str, dict] = {n: {"strategy": "default", "name": n} for n in NAMES}


@pytest.fixture(scope="module")
def tf_results(request: Any) -> dict[int, Any]:
    return tf_programs.spawn(__file__, CASES, tf_programs.selected(request, __file__))


@pytest.mark.clause("function.input-signature")
@pytest.mark.parametrize("index", range(len(NAMES)), ids=NAMES)
def test_tensor_defaults_and_spec_arguments_as_tf(index: int, tf_results: dict[int, Any], tmp_path: Any) -> None:
    name = NAMES[index]
    got, want = tf_programs.on_simdist(program, CASES[name], str(tmp_path)), tf_results[index]
    assert [g[0] for g in got] == [w[0] for w in want], f"{name}: labels differ"
    for g, w in zip(got, want):
        assert g == w, f"{name}: {w[0]}: simdist gives {g[1]}, TF 2.21 gives {w[1]}"


if __name__ == "__main__":  # TF worker
    tf_workers.serve(tf_programs.worker(CASES, program))
