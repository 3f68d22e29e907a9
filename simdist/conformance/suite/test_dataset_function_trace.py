"""tf.data functions are traced once (TF 2.21's data/ops/structured_function.py): the Python of a
map/filter/reduce function runs when the dataset is made (reduce: when it is called), not per
element or per pass; its arguments are graph tensors; graph ops in it run per element; an
output dimension that depends on the input's values is None in the element spec. Every
expected value below is a rule of that file or of a run of TF 2.21.
"""

from __future__ import annotations

import numpy as np
import pytest

from simdist.conformance.assertions import assert_equal

clause = pytest.mark.clause


@clause("dataset.function-trace", ref="tf221")
def test_map_filter_reduce_python_runs_once(tf):
    runs = {"map": 0, "parallel": 0, "filter": 0, "reduce": 0}

    def counted(name, fn):
        def f(*args):
            runs[name] += 1
            return fn(*args)
        return f

    ds = tf.data.Dataset.range(6)
    mapped = ds.map(counted("map", lambda x: x * 3))
    parallel = ds.map(counted("parallel", lambda x: x + 1), num_parallel_calls=2)
    kept = ds.filter(counted("filter", lambda x: x % 2 == 0))
    assert_equal(dict(runs), {"map": 1, "parallel": 1, "filter": 1, "reduce": 0},
                 call="range(6).map(f) / map(f, num_parallel_calls=2) / filter(f)", what="Python runs at build")
    passes = [[int(np.asarray(v)) for v in d] for d in (mapped, mapped, parallel, parallel, kept, kept)]
    total = int(np.asarray(ds.reduce(tf.constant(0, tf.int64), counted("reduce", lambda s, x: s + x))))
    assert_equal(passes, [[0, 3, 6, 9, 12, 15]] * 2 + [[1, 2, 3, 4, 5, 6]] * 2 + [[0, 2, 4]] * 2,
                 call="two passes of each dataset", what="elements")
    assert_equal(total, 15, call="range(6).reduce(0, s + x)", what="result")
    assert_equal(dict(runs), {"map": 1, "parallel": 1, "filter": 1, "reduce": 1},
                 call="two passes of each dataset and a reduce", what="Python runs")


@clause("dataset.function-trace", ref="tf221")
def test_arguments_are_graph_tensors_and_graph_ops_run_per_element(tf):
    def reads_value(x):
        return x.numpy()
    try:
        tf.data.Dataset.range(3).map(reads_value)
        got = "no error"
    except AttributeError:
        got = "AttributeError"
    assert_equal(got, "AttributeError", call="range(3).map(lambda x: x.numpy())", what="error at build")

    v = tf.Variable(0, dtype=tf.int64)
    appends = []

    def f(x):
        appends.append(1)
        v.assign_add(1)
        return x * 10 + v.read_value()
    ds = tf.data.Dataset.range(3).map(f)
    vals = [int(np.asarray(e)) for e in ds] + [int(np.asarray(e)) for e in ds]
    assert_equal(vals, [1, 12, 23, 4, 15, 26], call="range(3).map(v.assign_add(1); x * 10 + v), two passes",
                 what="elements")
    assert_equal(int(np.asarray(v.read_value())), 6, call="the variable after two passes", what="value")
    assert_equal(len(appends), 1, call="the map function's Python list append", what="runs")


@clause("dataset.function-trace", ref="tf221")
def test_value_dependent_output_dimension_is_unknown(tf):
    def f(x):
        r = tf.range(4, dtype=tf.int64)
        return tf.boolean_mask(r, r < x), tf.fill([2], x)
    ds = tf.data.Dataset.range(3).map(f)
    shapes = [s.shape.as_list() for s in ds.element_spec]
    assert_equal(shapes, [[None], [2]], call="range(3).map(boolean_mask(range(4), range(4) < x), fill([2], x))",
                 what="element_spec shapes")
    vals = [[np.asarray(a).tolist(), np.asarray(b).tolist()] for a, b in ds]
    assert_equal(vals, [[[], [0, 0]], [[0], [1, 1]], [[0, 1], [2, 2]]], call="its elements", what="values")
