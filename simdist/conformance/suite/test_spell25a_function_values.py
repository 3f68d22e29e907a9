"""Spelling sweep 25 (issue 29): tf.function arguments and distributed values written every way.

- a tf.function's arguments as a dict (keys inserted unsorted and sorted), a list, a tuple, keywords and
  positions, Python numbers (each value its own trace; 1 and True one) and tensors, on the first and later
  calls, a captured variable assigned between calls, and an input_signature: each call equals the Python run
  eagerly (a dict's values by key; the order the Python sees is the first trace's, as TF 2.21 keys a dict by
  its sorted keys and replays that trace);
- MirroredStrategy with 1 and 2 replicas: values made by experimental_distribute_values_from_function (each
  replica's ValueContext), by strategy.run and a plain tensor, read by experimental_local_results,
  Strategy.gather (axis 0 and 1) and Strategy.reduce (SUM and MEAN spelled as ReduceOp and as strings, axis
  None, 0 and -1), against NumPy's sums and concatenations of the replicas' components (a plain tensor is
  every replica's component: Strategy.reduce runs reduce_sum of it in each replica first).
"""

from __future__ import annotations

import numpy as np
import pytest

from simdist.conformance.assertions import assert_close, assert_equal, assert_true, to_numpy
from simdist.conformance.tolerances import Tolerance

clause = pytest.mark.clause
TOL = Tolerance(rtol=1e-6, atol=1e-6)


@clause("function.trace-once")
def test_spell25a_function_argument_spellings_equal_the_eager_call(tf):
    """f(d) = (stack(d.values()), d['b'] - 2 d['a']) for dicts inserted b-then-a and a-then-b, called on a
    fresh tf.function each way first and the other way second; g(x, k) = x * k + n with k a Python int, float,
    bool and a tensor, positionally and by keyword, twice each with other values; h reading a variable assigned
    between calls; s with an input_signature of [None] called on lengths 2 and 3: every call equals NumPy."""
    def f(d):
        return tf.stack(list(d.values())), d["b"] - 2.0 * d["a"]

    for first, second in (("b-then-a", "a-then-b"), ("a-then-b", "b-then-a")):
        tf_f = tf.function(f)
        order = None
        for n, (spelled, a, b) in enumerate(((first, 1.5, 10.0), (second, -2.0, 4.0), (first, 3.0, -1.0))):
            d = {"b": tf.constant(b), "a": tf.constant(a)} if spelled == "b-then-a" else \
                {"a": tf.constant(a), "b": tf.constant(b)}
            values, diff = tf_f(d)
            call = f"tf.function f(dict inserted {spelled}), call {n + 1} (first call inserted {first})"
            assert_close(diff, b - 2.0 * a, tolerance=TOL, what="d['b'] - 2 d['a']", call=call)
            want = [b, a] if (order or spelled) == "b-then-a" else [a, b]
            assert_close(values, want, tolerance=TOL, what="stack(list(d.values()))", call=call)
            order = order or first

    @tf.function
    def g(x, k, n=1.0):
        return x * k + n

    x = tf.constant([1.0, -2.0])
    for k in (3, 5, 2.5, True, 1, tf.constant(4.0), tf.constant(-1.5)):
        kv = float(to_numpy(k)) if hasattr(k, "numpy") else float(k)
        want = np.array([1.0, -2.0]) * kv + 1.0
        assert_close(g(x, k), want, tolerance=TOL, call=f"g(x, k={k!r}) positional")
        assert_close(g(x=x, k=k), want, tolerance=TOL, call=f"g(x=x, k={k!r}) by keyword")
        assert_close(g(x, k, 0.5), want - 0.5, tolerance=TOL, call=f"g(x, k={k!r}, 0.5)")
        assert_close(g(x, k, n=tf.constant(2.0)), want + 1.0, tolerance=TOL, call=f"g(x, k={k!r}, n=tensor 2.0)")

    v = tf.Variable(2.0)

    @tf.function
    def h(t):
        return t * v

    for val in (2.0, -3.0, 0.5):
        v.assign(val)
        assert_close(h(x), np.array([1.0, -2.0]) * val, tolerance=TOL, call=f"h(x) = x * v after v.assign({val})")

    @tf.function(input_signature=[tf.TensorSpec([None], tf.float32)])
    def s(t):
        return tf.reduce_sum(t * t) * v

    for arr in ([1.0, 2.0], [1.0, 2.0, -3.0], [0.5, 0.5]):
        assert_close(s(tf.constant(arr)), float(np.sum(np.square(arr)) * 0.5), tolerance=TOL,
                     call=f"s({arr}) with input_signature [None]")


_BASE = np.array([[1.0, -2.0, 0.5], [3.0, 0.25, -1.0]], np.float32)


@clause("values-from-function")
@clause("reduce.axis-batch")
@clause("gather.concat")
@pytest.mark.parametrize("replicas", [1, 2])
def test_spell25a_distributed_values_every_spelling(backend, tf, replicas):
    """MirroredStrategy(n): values_from_function gives replica r the component BASE * (r + 1) + n, with
    ValueContext(r, n); experimental_local_results lists them; strategy.run(x * 2) doubles them; gather along
    axis 0 and 1 concatenates them; reduce SUM/MEAN (ReduceOp; the values' also as strings) over axis None, 0
    and -1 of the values, of run's result and of a plain tensor (every replica's component) equal NumPy's; the default
    strategy's values_from_function is the value for ValueContext(0, 1)."""
    strategy = backend.make_strategy("mirrored", replicas)
    seen = []

    def value_fn(ctx):
        seen.append((ctx.replica_id_in_sync_group, ctx.num_replicas_in_sync))
        return tf.constant(_BASE * (ctx.replica_id_in_sync_group + 1) + ctx.num_replicas_in_sync)

    pr = strategy.experimental_distribute_values_from_function(value_fn)
    assert_equal(sorted(seen), [(r, replicas) for r in range(replicas)], what="ValueContext (id, num_replicas)",
                 call=f"experimental_distribute_values_from_function, MirroredStrategy({replicas})")
    comps = [(_BASE * (r + 1) + replicas).astype(np.float64) for r in range(replicas)]
    local = strategy.experimental_local_results(pr)
    assert_equal(len(local), replicas, what="len(local results)", call="experimental_local_results(values)")
    for r, c in enumerate(local):
        assert_close(c, comps[r], tolerance=TOL, what=f"component {r}", call="experimental_local_results(values)")
    doubled = strategy.run(lambda t: t * 2.0, args=(pr,))
    for axis in (0, 1):
        assert_close(strategy.gather(pr, axis=axis), np.concatenate(comps, axis), tolerance=TOL,
                     call=f"gather(values, axis={axis}), MirroredStrategy({replicas})")
    plain = tf.constant(_BASE)
    sources = {"values": (pr, comps), "run(x * 2)": (doubled, [2 * c for c in comps]),
               "a plain tensor": (plain, [_BASE.astype(np.float64)] * replicas)}
    ops = {"SUM": (tf.distribute.ReduceOp.SUM, "SUM"), "MEAN": (tf.distribute.ReduceOp.MEAN, "MEAN")}
    for sname, (value, cs) in sources.items():
        for opname, spellings in ops.items():
            # (a plain tensor not over axis None: reduce.plain-value, MEAN returns it, SUM of several replicas
            # refuses it; TF's reduces along an axis are traced functions: a few per source)
            for axis in {"values": (None, 0, -1), "run(x * 2)": (None, -1), "a plain tensor": (0,)}[sname]:
                if axis is None:
                    want = np.sum(cs, axis=0) if opname == "SUM" else np.mean(cs, axis=0)
                else:
                    total = np.sum([c.sum(axis) for c in cs], axis=0)
                    count = sum(c.shape[axis] for c in cs)
                    want = total if opname == "SUM" else total / count
                for op in (spellings if sname == "values" else spellings[:1]):
                    call = f"reduce({op!r}, {sname}, axis={axis}), MirroredStrategy({replicas})"
                    assert_close(strategy.reduce(op, value, axis=axis), want, tolerance=TOL, call=call)
    default = tf.distribute.get_strategy()
    got = default.experimental_distribute_values_from_function(
        lambda ctx: (ctx.replica_id_in_sync_group, ctx.num_replicas_in_sync))
    assert_true(tuple(int(v) for v in got) == (0, 1),
                f"the default strategy's ValueContext is {got}, but should be (0, 1)",
                call="default strategy experimental_distribute_values_from_function")
