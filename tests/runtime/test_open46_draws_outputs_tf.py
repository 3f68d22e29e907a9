"""tf.random.Generator's shape argument and tf.function's returned values that are no tensor, against TF 2.21
(the forty-sixth session, helper open46; clauses ops.random-generator and function.operation-results;
simdist/runtime/ops/random_generator.py `Generator._prepare`, `_draw_shape`, `_draw_vector`; simdist/tf/_function.py
`_other_output`).

A Generator's normal, uniform (float and int), truncated_normal and uniform_full_int convert the shape (an empty
list or tuple int64), skip the counter by its product (RngReadAndSkip), then the stateless V2 kernel refuses a
shape dtype other than int32/int64 and a shape that is no vector; binomial's StatefulRandomBinomial checks before
it skips. Eagerly InvalidArgumentError with the counter moved; in a tf.function the shape function's ValueError
(op_def_library's TypeError for the dtype) at trace time, the counter untouched. A tf.function returning a set,
a generator, a slice, Ellipsis, a TensorSpec or an object nothing converts is func_graph's TypeError; dict views
and a range come back lists; a defaultdict a dict; a deque the output TraceType's TypeError. Each call: ok with
the result's shape and dtype (or its structure), or the error's class, and the generator's state after.
"""

from __future__ import annotations

import collections
from typing import Any

import numpy as np
import pytest

import tf_programs
import tf_workers

pytestmark = [pytest.mark.tf, tf_workers.tf_or_golden(__file__)]


def _attempt(f: Any) -> Any:
    try:
        return ["ok", f()]
    except Exception as e:  # noqa: BLE001 - the class is the observable
        return ["error", type(e).__name__]


def _shapes(tf: Any) -> list[tuple[str, Any]]:
    return [("int 3", 3), ("np.int32(3)", np.int32(3)), ("0-d array", np.array(3)),
            ("0-d int64 tensor", tf.constant(3, tf.int64)), ("float 2.0", 2.0), ("[2.0]", [2.0]),
            ("[[2]] tensor", tf.constant([[2]])), ("()", ()), ("[]", []), ("TensorShape([])", tf.TensorShape([])),
            ("empty int32 array", np.zeros((0,), np.int32)), ("[2, 3]", [2, 3]), ("(2,)", (2,)),
            ("int32 vector tensor", tf.constant([2, 3])), ("TensorShape([2])", tf.TensorShape([2])),
            ("[tensor, 3]", [tf.constant(2), 3]), ("string", "ab"), ("[2, -1]", [2, -1])]


def _draw(tf: Any, g: Any, method: str, shape: Any) -> Any:
    if method == "binomial":
        return g.binomial(shape, counts=1.0, probs=0.5)
    if method == "uniform int":
        return g.uniform(shape, minval=0, maxval=10, dtype=tf.int32)
    return getattr(g, method)(shape)


def _shape_dtype(r: Any) -> Any:
    return [list(r.shape), r.dtype.name]


class _Obj:
    pass


def program(tf: Any, case: dict, workdir: str) -> Any:
    out: dict[str, Any] = {}
    if case["part"] == "generator":
        for method in ("normal", "uniform", "uniform int", "truncated_normal", "uniform_full_int", "binomial"):
            for name, shape in _shapes(tf):
                g = tf.random.Generator.from_seed(7)
                out[f"{method} {name} eager"] = [_attempt(lambda: _shape_dtype(_draw(tf, g, method, shape))),
                                                 g.state.numpy().tolist()]
                f = tf.function(lambda: _draw(tf, g, method, shape))
                out[f"{method} {name} traced"] = [_attempt(lambda: _shape_dtype(f())), g.state.numpy().tolist()]
        return out
    NT = collections.namedtuple("NT", "a b")
    o = _Obj()
    bodies = {"set": lambda x: {1, 2}, "frozenset": lambda x: frozenset([1]), "empty set": lambda x: set(),
              "dict_keys": lambda x: {"a": x}.keys(), "dict_values": lambda x: {"a": x}.values(),
              "dict_items": lambda x: {"a": x}.items(), "range": lambda x: range(3),
              "deque": lambda x: collections.deque([x]), "generator": lambda x: (i for i in [x]),
              "object": lambda x: o, "namedtuple": lambda x: NT(x, 1),
              "OrderedDict": lambda x: collections.OrderedDict(b=x, a=2), "str": lambda x: "s",
              "bytes": lambda x: b"s", "complex": lambda x: 1j, "set in a list": lambda x: [x, {1}],
              "set in a dict": lambda x: {"k": {1}}, "slice": lambda x: slice(1, 2), "Ellipsis": lambda x: ...,
              "TensorSpec": lambda x: tf.TensorSpec([2]), "defaultdict": lambda x: collections.defaultdict(int, a=x),
              "None": lambda x: None, "empty tuple": lambda x: ()}

    def describe(r: Any) -> Any:
        if hasattr(r, "numpy"):
            return ["tensor", r.dtype.name, repr(r.numpy().tolist())]
        if isinstance(r, dict):
            return [type(r).__name__, [[repr(k), describe(v)] for k, v in r.items()]]
        if isinstance(r, (list, tuple)):
            return [type(r).__name__, [describe(v) for v in r]]
        return [type(r).__name__]
    for name, body in bodies.items():
        f = tf.function(body)
        out[name] = _attempt(lambda: describe(f(tf.constant(1.0))))
    return out


NAMES = ["generator", "outputs"]
CASES: dict[str, dict] = {n: {"strategy": "default", "part": n} for n in NAMES}


@pytest.fixture(scope="module")
def tf_results(request: Any) -> dict[int, Any]:
    return tf_programs.spawn(__file__, CASES)


def _compare(index: int, tf_results: dict[int, Any], workdir: str) -> None:
    name = NAMES[index]
    got, want = tf_programs.on_simdist(program, CASES[name], workdir), tf_results[index]
    assert sorted(got) == sorted(want), f"{name}: simdist's calls {sorted(got)}, TF 2.21's {sorted(want)}"
    bad = [k for k in want if got[k] != want[k]]
    assert not bad, f"{name}: " + "; ".join(f"{k}: simdist gives {got[k]}, TF 2.21 gives {want[k]}" for k in bad)


@pytest.mark.clause("ops.random-generator")
def test_generator_draw_shapes_as_tf(tf_results: dict[int, Any], tmp_path: Any) -> None:
    _compare(0, tf_results, str(tmp_path))


@pytest.mark.clause("function.operation-results")
def test_function_outputs_as_tf(tf_results: dict[int, Any], tmp_path: Any) -> None:
    _compare(1, tf_results, str(tmp_path))


if __name__ == "__main__":  # TF worker
    tf_workers.serve(tf_programs.worker(CASES, program))
