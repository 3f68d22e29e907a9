"""One trace serves every concrete shape its specs leave open: a tf.function's Python runs once per trace, not once per
concrete shape, against TF 2.21 (the sixty-seventh session, helper fix67t; clause function.trace-once; simdist/tf/
_function.py `_polymorphic`/`_witnessed`, runtime/graph/witness.py, tf/_concrete.py `trace`'s stand-in recording).

Each case: a list of [label, value or [error class, message start]]; `n` labels are the Python counter (how many
times the traced Python ran), `count` labels experimental_get_tracing_count(), `seen` labels what the Python saw of
its argument's static shape at its runs.
"""

import re
from typing import Any, Callable

import numpy as np
import pytest

import tf_programs
import tf_workers

pytestmark = [pytest.mark.tf, tf_workers.tf_or_golden(__file__)]


def _v(r: Any) -> Any:
    if hasattr(r, "numpy"):
        a = np.asarray(r.numpy())
        if a.dtype.kind == "f":   # (bits: NaN payloads and signed zeros)
            return [r.dtype.name, list(a.shape), a.view(np.dtype(f"u{a.dtype.itemsize}")).ravel().tolist()]
        return [r.dtype.name, list(a.shape), a.ravel().tolist()]
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


def _shape_text(t: Any) -> Any:
    return None if t.shape.rank is None else t.shape.as_list()


def _signatures(tf: Any, out: list) -> None:
    """input_signature specs with an unknown dimension, an unknown rank and two unknown dimensions, with and without
    get_concrete_function first: each call's value and the counters."""
    c, S, f32 = tf.constant, tf.TensorSpec, tf.float32
    vectors = [c([1.0, 2.0]), c([3.0, 4.0, 5.0]), c([0.5]), c([6.0, 7.0, 8.0, 9.0, 10.0]), c([1.5, 2.5])]
    for sname, sig, calls, concrete in (
            ("none-dim", [S([None], f32)], [(v,) for v in vectors], True),
            ("none-dim first call", [S([None], f32)], [(v,) for v in vectors], False),
            ("unknown rank", [S(None, f32)], [(c(2.0),), (c([1.0, 2.0]),), (c([[1.0], [3.0]]),), (c(4.0),)], True),
            ("two unknown", [S([None, None], f32)], [(c([[1.0, 2.0]]),), (c([[1.0], [2.0], [3.0]]),),
                                                      (c(np.arange(12.0, dtype=np.float32).reshape(3, 4)),)], False)):
        n: list = []

        def body(x: Any) -> Any:
            n.append(_shape_text(x))
            # (a mean over the unknown dimension, a shape read at run time, a product and a sum of constants)
            return [tf.reduce_mean(x) * 2.0 + 1.0, tf.cast(tf.size(x), f32) * x - 0.5, tf.reduce_sum(x * x)]

        f = tf.function(body, input_signature=sig)
        if concrete:
            _try(out, f"{sname} concrete", lambda: len(f.get_concrete_function().outputs))
        for i, a in enumerate(calls):
            _try(out, f"{sname} call {i}", lambda: f(*a))
            _try(out, f"{sname} n {i}", lambda: len(n))
        _try(out, f"{sname} seen", lambda: list(n))
        _try(out, f"{sname} count", lambda: f.experimental_get_tracing_count())


def _relaxed(tf: Any, out: list) -> None:
    """reduce_retracing: [1], [2] trace (the second relaxed to [None]); [3], [4], [6] run the relaxed trace, the
    Python not again; a print per trace in a list."""
    c = tf.constant
    n: list = []

    def body(x: Any, scale: Any = 3.0) -> Any:
        n.append(_shape_text(x))
        return tf.reduce_max(x) * scale + tf.reduce_sum(x)

    f = tf.function(body, reduce_retracing=True)
    for i, v in enumerate(([1.0], [1.0, 2.0], [4.0, 5.0, 6.0], [1.0, 1.0, 1.0, 8.0], [2.0] * 6)):
        _try(out, f"relaxed call {i}", lambda: f(c(v)))
        _try(out, f"relaxed n {i}", lambda: len(n))
    _try(out, "relaxed seen", lambda: list(n))
    _try(out, "relaxed count", lambda: f.experimental_get_tracing_count())
    # (a keyword Python float is part of the trace key: another value traces again)
    _try(out, "relaxed other scale", lambda: f(c([1.0, 2.0, 3.0]), scale=0.5))
    _try(out, "relaxed n other scale", lambda: len(n))


def _nan_order(tf: Any, out: list) -> None:
    """The product of two NaNs of different payloads under a [None] signature, with get_concrete_function first:
    TF's one trace names its placeholders `a` and `b`, and Grappler's canonical order (the input names sorted) picks
    the NaN the kernel keeps, on every shape the trace serves."""
    S, f32 = tf.TensorSpec, tf.float32
    n: list = []

    def body(b: Any, a: Any) -> Any:
        n.append(1)
        return b * a

    f = tf.function(body, input_signature=[S([None], f32), S([None], f32)])
    _try(out, "nan concrete", lambda: len(f.get_concrete_function().outputs))
    q1 = np.array([0x7FC00001] * 3, np.uint32).view(np.float32)
    q2 = np.array([0x7FC00002] * 3, np.uint32).view(np.float32)
    for k in (1, 2, 3):
        _try(out, f"nan call {k}", lambda: f(tf.constant(q1[:k]), tf.constant(q2[:k])))
    _try(out, "nan n", lambda: len(n))


def _concrete_apis(tf: Any, out: list) -> None:
    """A concrete function's captures (variables' handles named after the op that first read them, an eager tensor
    the Python closes over), its function_type and graph views, Function.pretty_printed_concrete_signatures (ids
    stripped), and get_concrete_function of a narrower spec or a tensor under a [None, 4] signature (the signature's
    own concrete function, the Python not run again)."""
    S, f32 = tf.TensorSpec, tf.float32
    v = tf.Variable(2.0)
    w = tf.Variable([[1.0], [2.0]])
    c = tf.constant([1.0, 2.0])
    n: list = []

    def body(x: Any, k: Any = 2) -> Any:
        n.append(1)
        return tf.matmul(x, w) * v + c + tf.cast(tf.shape(x)[0], f32)

    f = tf.function(body)
    strip = lambda text: re.sub(r"\d{8,}", "ID", text)   # noqa: E731 - (captured objects' Python ids)
    cf = f.get_concrete_function(S([None, 2]))
    _try(out, "inputs", lambda: [[t.name, t.dtype.name] for t in cf.inputs])
    _try(out, "captured", lambda: [t.dtype.name for t in cf.captured_inputs])
    _try(out, "graph inputs", lambda: [t.name for t in cf.graph.inputs])
    _try(out, "graph outputs", lambda: [t.name for t in cf.graph.outputs])
    _try(out, "function_type str", lambda: str(cf.function_type))
    _try(out, "function_type repr", lambda: strip(repr(cf.function_type)))
    _try(out, "call", lambda: cf(tf.constant([[1.0, 1.0], [0.5, 2.0]])))
    _try(out, "second concrete", lambda: len(f.get_concrete_function(S([3, 2]), k=3).inputs))
    _try(out, "pretty all", lambda: strip(f.pretty_printed_concrete_signatures()))
    _try(out, "pretty all short", lambda: f.pretty_printed_concrete_signatures(verbose=False))
    _try(out, "n", lambda: len(n))
    g = tf.function(body, input_signature=[S([None, 2])])
    cg = g.get_concrete_function()
    _try(out, "sig narrower is", lambda: g.get_concrete_function(S([1, 2])) is cg)
    _try(out, "sig tensor is", lambda: g.get_concrete_function(tf.constant([[1.0, 2.0]])) is cg)
    _try(out, "sig wrong dtype", lambda: g.get_concrete_function(S([1, 2], tf.int32)))
    _try(out, "sig pretty", lambda: strip(g.pretty_printed_concrete_signatures()))
    _try(out, "sig n", lambda: len(n))
    _try(out, "sig count", lambda: g.experimental_get_tracing_count())
    # (a product chain Grappler rewrites on the finished graph: the outputs' static shapes are the trace's, [None])
    h = tf.function(lambda x, *, z, a: x * z * a * 3.0)
    ch = h.get_concrete_function(S([None], f32), z=S([], f32), a=2.0)
    _try(out, "chain output_shapes", lambda: ch.output_shapes.as_list())
    _try(out, "chain call", lambda: ch(tf.constant([1.0, 2.0, 3.0]), z=tf.constant(0.5)))


def program(tf: Any, case: dict, workdir: str) -> Any:
    out: list[Any] = []
    {"signatures": _signatures, "relaxed": _relaxed, "nan order": _nan_order,
     "concrete apis": _concrete_apis}[case["name"]](tf, out)
    return out


NAMES = ["signatures", "relaxed", "nan order", "concrete apis"]
CASES: dict = {n: {"strategy": "default", "name": n} for n in NAMES}


@pytest.fixture(scope="module")
def tf_results(request: Any) -> dict:
    return tf_programs.spawn(__file__, CASES, tf_programs.selected(request, __file__))


@pytest.mark.clause("function.trace-once")
@pytest.mark.parametrize("index", range(len(NAMES)), ids=NAMES)
def test_one_trace_any_shape_as_tf(index: int, tf_results: dict, tmp_path: Any) -> None:
    name = NAMES[index]
    got, want = tf_programs.on_simdist(program, CASES[name], str(tmp_path)), tf_results[index]
    assert [g[0] for g in got] == [w[0] for w in want], f"{name}: labels differ"
    for g, w in zip(got, want):
        assert g == w, f"{name}: {w[0]}: simdist gives {g[1]}, TF 2.21 gives {w[1]}"


if __name__ == "__main__":  # TF worker
    tf_workers.serve(tf_programs.worker(CASES, program))
