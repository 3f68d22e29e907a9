"""A tf.function-decorated method of a tf.Module (the custom training loop's `@tf.function def
train_step(self, x)`), which the whole suite never ran before session 23 (simdist/tf/_function.py
`Function.__get__` and `__getstate__` were never executed; cov23b; docs/conformance.md,
"Twenty-third session: suite coverage of autodiff, gradients and tf.function").

TF 2.21 (polymorphic_function.py `Function.__get__`: a bound Function per instance, kept in a
weak descriptor cache): the class attribute is the Function itself; an instance's attribute is the
same bound Function on every access and another one per instance, each with its own traces (its
Python side effects once per instance and input signature, its own tracing count; the class's
Function counts none), each reading its own instance's state. A copy of a Function (copy.copy)
is a Function that calls the same Python. The values expected are computed here from the program.
"""

from __future__ import annotations

import copy

import pytest

from simdist.conformance.assertions import assert_equal, assert_true, raises

clause = pytest.mark.clause


@clause("function.trace-once", ref="tf221")
def test_cov23b_tf_function_method_traces_per_instance(backend, tf):
    """Two instances of a tf.Module whose `step` is a tf.function: each traces once per input shape
    (the Python's side effect), accumulates into its own Variable, and counts its own traces."""
    traces = []

    class Scaler(tf.Module):
        def __init__(self, k: float) -> None:
            super().__init__()
            self.k = k
            self.v = tf.Variable(0.0)

        @tf.function
        def step(self, x):
            traces.append((self.k, tuple(x.shape)))
            self.v.assign_add(tf.reduce_sum(x) * self.k)
            return self.v * 1.0

    a, b = Scaler(2.0), Scaler(3.0)
    assert_equal([type(Scaler.step).__name__, Scaler.step is Scaler.step, a.step is a.step, a.step is b.step],
                 ["Function", True, True, False], call="Scaler.step, a.step, b.step identities")
    x2, x3 = tf.constant([1.0, 2.0]), tf.constant([1.0, 2.0, 3.0])
    got = [float(a.step(x2)), float(a.step(x2)), float(b.step(x2)), float(a.step(x3)), float(b.step(x=x2))]
    # a: 0 + 3*2 = 6, + 6 = 12, + 6*2 = 24; b: 0 + 3*3 = 9, + 9 = 18
    assert_equal(got, [6.0, 12.0, 9.0, 24.0, 18.0], call="a.step(x2), a.step(x2), b.step(x2), a.step(x3), b.step(x=x2)")
    assert_equal(traces, [(2.0, (2,)), (3.0, (2,)), (2.0, (3,))], call="the Python's side effects (one per trace)")
    assert_equal([a.step.experimental_get_tracing_count(), b.step.experimental_get_tracing_count(),
                  Scaler.step.experimental_get_tracing_count()], [2, 1, 0], call="tracing counts of a, b and the class")
    assert_equal([float(a.v), float(b.v)], [24.0, 18.0], call="each instance's Variable")


@clause("function.trace-once", ref="tf221")
def test_cov23b_tf_function_copy_shares_traces(backend, tf):
    """copy.copy of a traced tf.function is a Function sharing the original's traces (TF's shallow
    copy shares its function cache and tracing count): the copy's call of the traced signature runs no
    Python, and a new signature traced through the copy counts for both."""
    seen = []

    def double(x):
        seen.append(tuple(x.shape))
        return x * 2

    f = tf.function(double)
    first = float(f(tf.constant(3.0)))
    g = copy.copy(f)
    assert_true(type(g).__name__ == "Function" and g is not f, f"copy.copy(f) is {type(g).__name__} "
                f"(is f: {g is f}), but should be another Function", call="copy.copy(f)")
    got = [first, float(g(tf.constant(4.0)))]
    assert_equal([got, seen, f.experimental_get_tracing_count(), g.experimental_get_tracing_count()],
                 [[6.0, 8.0], [()], 1, 1], call="f(3.), copy.copy(f)(4.): values, Python runs, tracing counts")
    g(tf.constant([1.0]))
    assert_equal([seen, f.experimental_get_tracing_count(), g.experimental_get_tracing_count()],
                 [[(), (1,)], 2, 2], call="copy.copy(f)([1.]): a new trace, counted by both")


@clause("function.trace-once", ref="tf221")
def test_tf_function_deepcopy_copies_only_an_untraced_function(backend, tf):
    """copy.deepcopy deep-copies the function cache, whose traces hold FuncGraphs, which cannot be
    pickled: an untraced tf.function copies (with no traces of its own), a traced one, by a call or by
    get_concrete_function, is TypeError; a tf.Module whose method was traced deep-copies (the method's
    per-instance function is not part of the instance)."""
    f = tf.function(lambda x: x * 2)
    g = copy.deepcopy(f)
    assert_equal([float(g(tf.constant(2.0))), g.experimental_get_tracing_count(), f.experimental_get_tracing_count()],
                 [4.0, 1, 0], call="copy.deepcopy(untraced f)(2.): value, tracing counts of the copy and of f")
    for how, trace in (("a call", lambda h: h(tf.constant(1.0))),
                       ("get_concrete_function", lambda h: h.get_concrete_function(tf.TensorSpec([None], tf.float32)))):
        h = tf.function(lambda x: x + 1)
        trace(h)
        with raises(TypeError, match="FuncGraph", call=f"copy.deepcopy(f traced by {how})"):
            copy.deepcopy(h)

    class Scale(tf.Module):
        @tf.function
        def apply(self, x):
            return x * 3

    m = Scale()
    m.apply(tf.constant(1.0))
    m2 = copy.deepcopy(m)
    assert_equal(float(m2.apply(tf.constant(2.0))), 6.0, call="copy.deepcopy(module with a traced method).apply(2.)")
