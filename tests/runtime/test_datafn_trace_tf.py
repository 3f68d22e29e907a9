"""tf.data functions traced once, as TF 2.21 traces them (clause dataset.function-trace): the
Python of a map/filter/reduce function runs once (at `map`/`filter`, or the reduce call), not
per element nor per iterator, also with num_parallel_calls, for a tf.function passed as the
function and for iteration inside a tf.function; its arguments are graph tensors (not executing
eagerly, `.numpy()` fails, a Python `if` on one fails in code AutoGraph cannot convert); graph
ops in it (a variable's assign_add) run per element; an output shape that depends on the input's
values is None in the element spec. Each program runs on simdist and on TF (a subprocess:
tf_workers.spawn; this module is its worker); the observations must be equal.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import tf_workers

pytestmark = [pytest.mark.tf, tf_workers.tf_or_golden(__file__)]


def _vals(ds: Any) -> list[Any]:
    return [np.asarray(x).tolist() for x in ds]


def _error(call: Any) -> str:
    try:
        call()
    except Exception as e:  # noqa: BLE001 - the observation is the exception's class
        return type(e).__name__
    return "none"


def _spec(s: Any) -> Any:
    return [s.shape.as_list() if s.shape.rank is not None else None, s.dtype.name]


def _map_runs(tf: Any) -> Any:
    runs = []

    def f(x: Any) -> Any:
        runs.append(1)
        return x * 2
    ds = tf.data.Dataset.range(5).map(f)
    at_build = len(runs)
    first = _vals(ds)
    second = _vals(ds)
    return {"at_build": at_build, "after_two_passes": len(runs), "first": first, "second": second}


def _parallel_map_runs(tf: Any) -> Any:
    runs = []

    def f(x: Any, y: Any) -> Any:
        runs.append(1)
        return x + y, x * y
    ds = tf.data.Dataset.from_tensor_slices((np.arange(6.0, dtype=np.float32), np.ones(6, np.float32) * 3))
    m = ds.map(f, num_parallel_calls=2)
    vals = [[np.asarray(a).tolist(), np.asarray(b).tolist()] for a, b in m]
    return {"runs": len(runs), "vals": vals, "spec": [_spec(s) for s in m.element_spec]}


def _filter_reduce_runs(tf: Any) -> Any:
    runs = {"filter": 0, "reduce": 0}

    def pred(x: Any) -> Any:
        runs["filter"] += 1
        return x % 3 != 0

    def red(s: Any, x: Any) -> Any:
        runs["reduce"] += 1
        return s + x
    ds = tf.data.Dataset.range(10).filter(pred)
    kept = _vals(ds)
    total = ds.reduce(tf.constant(0, tf.int64), red)
    return {"kept": kept, "total": np.asarray(total).tolist(), "filter_runs": runs["filter"],
            "reduce_runs": runs["reduce"]}


def _function_as_map(tf: Any) -> Any:
    runs = []

    @tf.function
    def f(x: Any) -> Any:
        runs.append(1)
        return tf.cast(x, tf.float32) / 4.0
    ds = tf.data.Dataset.range(4).map(f)
    return {"vals": [_vals(ds), _vals(ds)], "runs": len(runs)}


def _iterated_in_function(tf: Any) -> Any:
    runs = []

    def f(x: Any) -> Any:
        runs.append(1)
        return x + 1
    ds = tf.data.Dataset.range(4).map(f)

    @tf.function
    def total() -> Any:
        s = tf.constant(0, tf.int64)
        for x in ds:
            s += x
        return s
    return {"totals": [np.asarray(total()).tolist(), np.asarray(total()).tolist()], "runs": len(runs)}


def _arguments(tf: Any) -> Any:
    seen = {}

    def f(x: Any, y: Any) -> Any:
        seen["eager"] = tf.executing_eagerly()
        seen["shapes"] = [x.shape.as_list(), y.shape.as_list()]
        seen["numpy"] = _error(lambda: x.numpy())
        return x
    ds = tf.data.Dataset.from_tensor_slices((np.zeros((3, 2), np.float32), np.zeros((3, 4, 1), np.int32))).map(f)
    return {**seen, "vals": _vals(ds)}


def _numpy_in_map(tf: Any) -> Any:
    return _error(lambda: tf.data.Dataset.range(3).map(lambda x: x.numpy()))


def _if_on_argument(tf: Any) -> Any:
    """AutoGraph converts a Python `if` on a tensor into tf.cond; code without source (exec'd)
    is not converted, and the `if` fails."""
    def g(x: Any) -> Any:
        if x > 2:
            return x * 10
        return x
    ns = {"tf": tf}
    exec("def h(x):\n    if x > 2:\n        return x * 10\n    return x\n", ns)  # noqa: S102 - code without a source file
    ds = tf.data.Dataset.range(5)
    return {"converted": _vals(ds.map(g)), "unconverted": _error(lambda: ds.map(ns["h"]))}


def _value_dependent_shape(tf: Any) -> Any:
    runs = []

    def f(x: Any) -> Any:
        runs.append(1)
        r = tf.range(4, dtype=tf.int64)
        return tf.boolean_mask(r, r < x), tf.fill([3], x), tf.where(r < x)
    m = tf.data.Dataset.range(4).map(f)
    vals = [[np.asarray(t).tolist() for t in e] for e in m]
    return {"spec": [_spec(s) for s in m.element_spec], "vals": vals, "runs": len(runs)}


def _graph_ops_per_element(tf: Any) -> Any:
    """A variable's assign_add in the function is a graph op: it runs for every element; a
    Python list append runs once."""
    v = tf.Variable(0, dtype=tf.int64)
    log = []

    def f(x: Any) -> Any:
        log.append(1)
        v.assign_add(1)
        return x + v.read_value()
    ds = tf.data.Dataset.range(3).map(f)
    vals = _vals(ds) + _vals(ds)
    return {"vals": vals, "counter": np.asarray(v.read_value()).tolist(), "appends": len(log)}


def _captured_variable(tf: Any) -> Any:
    """The function reads a captured variable's value when an element is computed."""
    v = tf.Variable(1.0)
    ds = tf.data.Dataset.range(3).map(lambda x: tf.cast(x, tf.float32) * v)
    first = _vals(ds)
    v.assign(2.5)
    return {"first": first, "after_assign": _vals(ds)}


def _dict_elements(tf: Any) -> Any:
    runs = []

    def f(d: Any) -> Any:
        runs.append(1)
        return {"s": tf.reduce_sum(d["a"], axis=-1), "n": -d["b"]}
    ds = tf.data.Dataset.from_tensor_slices({"a": np.arange(12.0).reshape(4, 3), "b": np.arange(4)}).map(f)
    vals = [{k: np.asarray(v).tolist() for k, v in sorted(e.items())} for e in ds]
    return {"vals": vals, "runs": len(runs), "spec": {k: _spec(s) for k, s in sorted(ds.element_spec.items())}}


def _build_errors(tf: Any) -> Any:
    """Op errors TF's trace of the function finds (a shape function's ValueError, op_def_library's TypeError) are
    raised when the dataset is made, as those classes; one that depends on an element's value is the kernel's
    InvalidArgumentError when the element is read (kfit, thirty-first session)."""
    programs = {
        "map reshape -10": lambda: tf.data.Dataset.range(3).map(lambda x: tf.reshape(tf.range(10), [-10, 1])),
        "flat_map reshape -10": lambda: tf.data.Dataset.range(1).flat_map(
            lambda x: tf.data.Dataset.from_tensor_slices(tf.reshape(tf.range(10), [-10, -1]))),
        "map slice of float size": lambda: tf.data.Dataset.range(3).map(lambda x: tf.slice(tf.range(10), [0], [10.0])),
        "flat_map slice of float size": lambda: tf.data.Dataset.range(1).flat_map(
            lambda x: tf.data.Dataset.from_tensor_slices(tf.slice(tf.range(10), [0], [10.0]))),
        "map add of [2] and [3]": lambda: tf.data.Dataset.range(3).map(lambda x: tf.zeros([2]) + tf.zeros([3])),
        "filter reshape -3": lambda: tf.data.Dataset.range(3).filter(lambda x: tf.reshape(x > 0, [-3, 1])[0, 0]),
    }
    out = {name: _error(make) for name, make in programs.items()}
    late = tf.data.Dataset.range(3).map(lambda x: tf.reshape(tf.range(x + 1), [2]))
    out["value-dependent reshape, at build"] = "none"
    out["value-dependent reshape, read"] = _error(lambda: _vals(late))
    return out


def _iterator_element_in_function(tf: Any) -> Any:
    """Inside a tf.function, `next(iterator)` is the graph's IteratorGetNext: its tensors' dimensions the element
    spec leaves unknown (a batch's size) are unknown to the graph, so a broadcast that fails only because of them
    fails when the graph runs (InvalidArgumentError), not at trace (ValueError)."""
    ds = tf.data.Dataset.from_tensor_slices((np.ones(10, "float32"), np.ones((10, 2), "float32"))).batch(32)
    fixed = tf.data.Dataset.from_tensor_slices((np.ones(10, "float32"), np.ones((10, 2), "float32"))).batch(
        5, drop_remainder=True)

    def product(it: Any) -> Any:
        y, w = next(it)
        return y * w

    return {"unknown batch": _error(lambda: tf.function(product)(iter(ds))),
            "known batch": _error(lambda: tf.function(product)(iter(fixed)))}


PROGRAMS = [("map-runs", _map_runs), ("parallel-map-runs", _parallel_map_runs),
            ("filter-reduce-runs", _filter_reduce_runs), ("function-as-map", _function_as_map),
            ("iterated-in-function", _iterated_in_function), ("arguments", _arguments),
            ("numpy-in-map", _numpy_in_map), ("if-on-argument", _if_on_argument),
            ("value-dependent-shape", _value_dependent_shape), ("graph-ops-per-element", _graph_ops_per_element),
            ("captured-variable", _captured_variable), ("dict-elements", _dict_elements),
            ("build-errors", _build_errors), ("iterator-element-in-function", _iterator_element_in_function)]


def _tf_worker(indices: list[int]) -> dict[int, Any]:
    import warnings

    import tensorflow as tf
    warnings.simplefilter("ignore")
    return {k: PROGRAMS[k][1](tf) for k in indices}


@pytest.fixture(scope="module")
def tf_results() -> dict[int, Any]:
    return tf_workers.spawn(__file__, list(range(len(PROGRAMS))))


def _same(got: Any, want: Any, where: str) -> None:
    if isinstance(want, dict):
        assert sorted(got) == sorted(want), f"{where}: keys {sorted(got)}, but TF 2.21 has {sorted(want)}"
        for key in want:
            _same(got[key], want[key], f"{where}.{key}")
    elif isinstance(want, list):
        assert isinstance(got, list) and len(got) == len(want), \
            f"{where}: {got!r}, but TF 2.21 gives {len(want)} items: {want!r}"
        for i, (g, w) in enumerate(zip(got, want)):
            _same(g, w, f"{where}[{i}]")
    else:
        assert type(got) is type(want) and got == want, f"{where}: {got!r}, but TF 2.21 gives {want!r}"


@pytest.mark.clause("dataset.function-trace")
@pytest.mark.parametrize("k", range(len(PROGRAMS)), ids=[n for n, _ in PROGRAMS])
def test_datafn_traced_once_as_tf(k: int, tf_results: dict[int, Any]) -> None:
    import simdist
    from simdist import tf
    simdist.reset()
    _same(PROGRAMS[k][1](tf), tf_results[k], PROGRAMS[k][0])


if __name__ == "__main__":  # TF worker
    import os
    tf_workers.serve(_tf_worker)
    os._exit(0)
