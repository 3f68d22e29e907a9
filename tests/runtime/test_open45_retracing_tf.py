"""tf.function's trace dispatch and `reduce_retracing` against TF 2.21 (the forty-fifth session, helper open45;
clause function.trace-once; simdist/tf/_tracing_count.py `dispatch`).

TF 2.21 runs a call on the trace whose type equals the call's, else on the most specific trace whose parameters
are supertypes of the call's (a get_concrete_function trace of TensorSpec([None, 2]) takes every [n, 2] call);
else it traces, with reduce_retracing (or the deprecated experimental_relax_shapes) the call's type relaxed against
every earlier trace in turn (each parameter's most specific common supertype: unequal dimensions None, unequal
ranks an unknown rank; dtypes, literals, lengths and keys must be equal). Each case is a sequence of calls: the
tracing count, the (dtype, shape) views the Python saw at its traces in order, and the results. simdist runs the
Python once per new concrete shape (a recording per shape: docs/spec.md function.trace-once), so its views are
compared without repeats: each must be a view TF traced, in TF's order.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import tf_programs
import tf_workers

pytestmark = [pytest.mark.tf, tf_workers.tf_or_golden(__file__)]


def _view(x: Any) -> Any:
    if isinstance(x, (list, tuple)):
        return [type(x).__name__, [_view(v) for v in x]]
    if isinstance(x, dict):
        return ["dict", [[k, _view(x[k])] for k in sorted(x)]]
    if hasattr(x, "shape") and hasattr(x, "dtype"):
        s = x.shape
        return [x.dtype.name, None if s.rank is None else list(s.as_list())]
    return ["literal", repr(x)]


def _calls(tf: Any, name: str) -> tuple[list, dict]:
    """(the calls as (args, kwargs) makers, the tf.function options and a spec traced first, if any)."""
    T = lambda *s, d=None: tf.zeros(s, d or tf.float32)  # noqa: E731
    one = lambda *xs: [((lambda x=x: (x(),)), {}) for x in xs]  # noqa: E731
    opts: dict = {"reduce_retracing": True}
    if name == "sizes":
        calls = one(*[(lambda n=n: T(n, 2)) for n in (4, 6, 4, 3, 12)])
    elif name == "sizes without reduce_retracing":
        calls, opts = one(*[(lambda n=n: T(n, 2)) for n in (4, 6, 4, 3, 12)]), {}
    elif name == "experimental_relax_shapes":
        calls, opts = one(*[(lambda n=n: T(n, 2)) for n in (4, 6, 3)]), {"experimental_relax_shapes": True}
    elif name == "both dimensions":
        calls = one(*[(lambda s=s: T(*s)) for s in [(4, 2), (4, 3), (5, 2), (5, 3), (4, 2)]])
    elif name == "ranks":
        calls = one(*[(lambda s=s: T(*s)) for s in [(4,), (4, 2), (3,), (4, 2, 1), ()]])
    elif name == "dtypes":
        calls = one(*[(lambda s=s, d=d: T(s, d=d)) for s, d in
                      [(4, tf.float32), (5, tf.int32), (6, tf.float32), (7, tf.int32), (8, tf.float64)]])
    elif name == "two arguments":
        calls = [((lambda a=a, b=b: (T(a), T(b))), {}) for a, b in [(2, 3), (4, 3), (5, 6), (2, 3)]]
    elif name == "a literal":
        calls = [((lambda n=n, k=k: (T(n), k)), {}) for n, k in [(2, 1), (3, 1), (4, 2), (5, 2), (6, 1)]]
    elif name == "a tuple":
        calls = one(*[(lambda a=a, b=b: (T(a), T(b))) for a, b in [(2, 3), (4, 3), (5, 5), (6, 7)]])
    elif name == "lists of two lengths":
        calls = one(*[(lambda s=s: [T(n) for n in s]) for s in [(2, 3), (4, 3), (5,), (6,), (7, 8)]])
    elif name == "a dict":
        calls = one(*[(lambda a=a, b=b: {"a": T(a), "b": T(b)}) for a, b in [(2, 3), (4, 3), (5, 5)]])
    elif name == "keywords":
        calls = [((lambda n=n: (T(n),)), {"y": (lambda n=n: T(n + 1))}) for n in (2, 3, 4, 5)]
    elif name == "numpy arrays":
        calls = one(*[(lambda n=n: np.zeros([n, 2], np.float32)) for n in (4, 6, 4, 3)])
    elif name == "numpy and tensors":
        calls = one(*[(lambda i=i, n=n: np.zeros([n, 2], np.float32) if i % 2 else T(n, 2))
                      for i, n in enumerate((4, 6, 4, 3))])
    elif name == "None and tensors":
        calls = one(*[(lambda x=x: None if x is None else T(x)) for x in (None, 2, 3, None)])
    elif name == "variables":
        vs = [tf.Variable(tf.zeros([n])) for n in (2, 3, 4)]
        calls = one(*[(lambda v=v: v) for v in vs])
    elif name == "python floats":
        calls = one(*[(lambda x=x: x) for x in (1.0, 2.0, 1.0)])
    elif name == "the first relaxation covers the rest":
        calls = one(*[(lambda s=s: T(*s)) for s in [(2, 3), (3, 4), (2, 4), (5, 3), (7, 7)]])
    else:
        raise KeyError(name)
    return calls, opts


def _spec(tf: Any, name: str) -> Any:
    return {"a traced spec takes the calls": (tf.TensorSpec([None, 2], tf.float32), {}),
            "a spec of *args": (tf.TensorSpec([None, 2], tf.float32), {}),
            "an unknown-rank spec": (tf.TensorSpec(None, tf.float32), {}),
            "a static spec then reduce_retracing": (tf.TensorSpec([4, 2], tf.float32), {"reduce_retracing": True}),
            "a spec relaxed further": (tf.TensorSpec([None, 2], tf.float32), {"reduce_retracing": True})}.get(name)


def program(tf: Any, case: dict, workdir: str) -> Any:
    name = case["name"]
    views: list = []

    def body(*a: Any, **k: Any) -> Any:
        views.append([_view(list(a)), _view(k)])
        flat = [t for t in tf.nest.flatten([list(a), k]) if hasattr(t, "dtype")]
        return tf.add_n([tf.reduce_sum(tf.cast(t, tf.float32)) for t in flat]) if flat else tf.constant(0.0)
    spec = _spec(tf, name)
    if spec is not None:
        shapes = {"a traced spec takes the calls": [(4, 2), (6, 2), (4, 2), (3, 2)],
                  "a spec of *args": [(4, 2), (6, 2)],
                  "an unknown-rank spec": [(4, 2), (4,), (3, 3, 3)],
                  "a static spec then reduce_retracing": [(4, 2), (6, 2), (4, 2), (3, 2)],
                  "a spec relaxed further": [(4, 3), (6, 3), (4, 3), (3, 3)]}[name]
        calls = [((lambda s=s: (tf.ones(s),)), {}) for s in shapes]

        def one(x: Any) -> Any:
            return body(x)
        f = tf.function(body if name == "a spec of *args" else one, **spec[1])
        f.get_concrete_function(spec[0])
    else:
        calls, opts = _calls(tf, name)
        f = tf.function(body, **opts)
    results = []
    for a, k in calls:
        try:
            results.append(float(f(*a(), **{n: m() for n, m in k.items()})))
        except Exception as e:  # noqa: BLE001 - the class is the observable
            results.append(type(e).__name__)
    return {"count": f.experimental_get_tracing_count(), "views": views, "results": results}


NAMES = ["sizes", "sizes without reduce_retracing", "experimental_relax_shapes", "both dimensions", "ranks", "dtypes",
         "two arguments", "a literal", "a tuple", "lists of two lengths", "a dict", "keywords", "numpy arrays",
         "numpy and tensors", "None and tensors", "variables", "python floats", "the first relaxation covers the rest",
         "a traced spec takes the calls", "an unknown-rank spec", "a static spec then reduce_retracing",
         "a spec relaxed further", "a spec of *args"]
CASES: dict[str, dict] = {n: {"strategy": "default", "name": n} for n in NAMES}


@pytest.fixture(scope="module")
def tf_results(request: Any) -> dict[int, Any]:
    return tf_programs.spawn(__file__, CASES, tf_programs.selected(request, __file__))


def _distinct(views: list) -> list:
    out: list = []
    for v in views:
        if v not in out:
            out.append(v)
    return out


@pytest.mark.clause("function.trace-once")
@pytest.mark.parametrize("index", range(len(NAMES)), ids=NAMES)
def test_trace_dispatch_and_relaxation_as_tf(index: int, tf_results: dict[int, Any], tmp_path: Any) -> None:
    name = NAMES[index]
    got, want = tf_programs.on_simdist(program, CASES[name], str(tmp_path)), tf_results[index]
    assert got["count"] == want["count"], \
        f"{name}: simdist counts {got['count']} traces ({got['views']}), TF 2.21 {want['count']} ({want['views']})"
    # (a Variable keeps its own shape in the Python; simdist's Python run for a third variable, which TF's relaxed
    # trace takes without tracing, sees its shape: compared by the count alone)
    assert name == "variables" or _distinct(got["views"]) == want["views"], \
        f"{name}: the Python of simdist's traces saw {got['views']}, TF 2.21's {want['views']}"
    assert got["results"] == want["results"], f"{name}: simdist returned {got['results']}, TF 2.21 {want['results']}"


if __name__ == "__main__":  # TF worker
    tf_workers.serve(tf_programs.worker(CASES, program))
