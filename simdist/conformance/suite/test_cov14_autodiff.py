"""Autodiff paths the rest of the suite never executed (cov14a: benchmarks/gradient_coverage.py over the
suite on simdist; docs/conformance.md, "Fifteenth session: suite coverage of op gradients and autodiff").

tf.gradients inside a tf.function through a tf.cond (either branch), a tf.while_loop and variable reads,
tf.hessians, a None among ys, a Python number among xs, grad_ys with a None; targets and sources that are
not tensors (TF's IsTrainable and the C tape, each error's class and wording); custom_gradient's argument
errors (no `variables` keyword, too few variable or input gradients); how the tape adds up several
gradients of one tensor (IndexedSlices with IndexedSlices, int32 with int64 indices; IndexedSlices with a
dense gradient); grad_pass_through of a function reading a variable; recompute_grad. Every expected
value is computed here from the calculus of the program (closed forms in NumPy).
"""

from __future__ import annotations

import re

import numpy as np
import pytest

from simdist.conformance.assertions import assert_close, assert_equal, assert_true, raises, to_numpy

clause = pytest.mark.clause


# -- tf.gradients inside a tf.function --------------------------------------------------------------------------
@clause("function.graph-gradients", ref="tf221")
def test_cov14a_graph_gradients_through_cond_loop_and_variables(backend, tf):
    """tf.gradients through a tf.cond (the taken branch's gradient; a variable only the other branch
    reads gets 0, as TF's If gradient gives zeros for a branch that does not use an input), through a
    tf.while_loop (x multiplied in three times: 3 x^2; a loop mixing a variable and x), and with a
    variable among xs (differentiated through its reads)."""
    v = tf.Variable(2.0)
    xv, vv = 1.5, 2.0

    @tf.function
    def through_cond(x, p):
        y = tf.cond(p, lambda: x * x * v, lambda: 3.0 * x)
        return tf.gradients(y, [x, v])

    x = tf.constant(xv)
    gx, gv = through_cond(x, tf.constant(True))
    assert_close([float(gx), float(gv)], [2 * xv * vv, xv * xv], call="tf.gradients(cond(True, x*x*v, 3x), [x, v])")
    gx, gv = through_cond(x, tf.constant(False))
    assert_close([float(gx), float(gv)], [3.0, 0.0], call="tf.gradients(cond(False, x*x*v, 3x), [x, v])")

    @tf.function
    def cube_by_loop(x):
        _, y = tf.while_loop(lambda i, a: i < 3, lambda i, a: (i + 1, a * x), [0, tf.constant(1.0)])
        return tf.gradients(y, x)[0]
    assert_close(float(cube_by_loop(x)), 3 * xv ** 2, call="tf.gradients(while_loop(a *= x, 3 times), x)")

    @tf.function
    def loop_with_variable(x):
        _, y = tf.while_loop(lambda i, a: i < 2, lambda i, a: (i + 1, a * v + x), [0, tf.constant(1.0)])
        return tf.gradients(y, [x, v])
    # y = (1 * v + x) * v + x = v^2 + x v + x: dy/dx = v + 1, dy/dv = 2 v + x
    gx, gv = loop_with_variable(x)
    assert_close([float(gx), float(gv)], [vv + 1, 2 * vv + xv], call="tf.gradients(while_loop(a = a*v + x, twice))")

    @tf.function
    def of_variable(x):
        return tf.gradients(v * v * x, [v, x]) + tf.gradients(v, [v])
    gv, gx, gvv = of_variable(x)
    assert_close([float(gv), float(gx), float(gvv)], [2 * vv * xv, vv * vv, 1.0],
                 call="tf.gradients(v*v*x, [v, x]) and tf.gradients(v, [v])")


@clause("function.graph-gradients", ref="tf221")
def test_cov14a_graph_gradients_arguments(backend, tf):
    """tf.hessians (x.shape + x.shape), a None among ys (AttributeError: TF reads its `.op`), a Python
    number among xs (converted to a constant: None), grad_ys with a None entry (ones for that y)."""
    xs = np.array([1.0, 2.0])

    @tf.function
    def hess(x):
        return tf.hessians(tf.reduce_sum(x * x * x) + x[0] * x[1], x)[0]
    assert_close(hess(tf.constant(xs)), np.diag(6 * xs) + np.array([[0.0, 1.0], [1.0, 0.0]]),
                 call="tf.hessians(sum(x^3) + x0 x1, x)")

    with raises(AttributeError, match=re.escape("'NoneType' object has no attribute 'op'"),
                call="tf.gradients([2x, None], x) in a tf.function"):
        tf.function(lambda x: tf.gradients([x * 2.0, None], x))(tf.constant(1.5))

    gx, gc = tf.function(lambda x: tf.gradients(x * 2.0, [x, 3.0]))(tf.constant(1.5))
    assert_close(float(gx), 2.0, call="tf.gradients(2x, [x, 3.0]): x")
    assert_true(gc is None, f"the gradient of a Python number among xs is {gc!r}, but should be None",
                call="tf.gradients(2x, [x, 3.0])")

    g = tf.function(lambda x: tf.gradients([x * 2.0, x * x], x, grad_ys=[tf.constant(0.5), None])[0])
    assert_close(float(g(tf.constant(1.5))), 0.5 * 2.0 + 2 * 1.5,
                 call="tf.gradients([2x, x^2], x, grad_ys=[0.5, None])")


# -- targets and sources that are not tensors -------------------------------------------------------------------
def _non_tensors(tf):
    """(label, value, error class, message pattern): backprop_util.IsTrainable's dtypes.as_dtype, then
    logging.vlog's `t.dtype` for a non-trainable DataType enum, then the C tape's `_id`."""
    return [
        ("'abc'", "abc", TypeError, re.escape("Cannot convert the argument `type_value`: 'abc' to a TensorFlow DType.")),
        ("2.5", 2.5, TypeError, re.escape("Cannot convert the argument `type_value`: 2.5 to a TensorFlow DType.")),
        ("0", 0, TypeError, re.escape("Cannot convert the argument `type_value`: 0 to a TensorFlow DType.")),
        ("object()", object(), TypeError, "Cannot convert the argument `type_value`: <object object at"),
        ("3 (DT_INT32)", 3, AttributeError, re.escape("'int' object has no attribute 'dtype'")),
        ("'int32'", "int32", AttributeError, re.escape("'str' object has no attribute 'dtype'")),
        ("ndarray", np.ones(2), AttributeError, re.escape("'numpy.ndarray' object has no attribute '_id'")),
        ("1.0 (DT_FLOAT)", 1.0, AttributeError, re.escape("'float' object has no attribute '_id'")),
        ("True", True, AttributeError, re.escape("'bool' object has no attribute '_id'")),
        ("np.float64(1.0)", np.float64(1.0), AttributeError,
         re.escape("'numpy.float64' object has no attribute '_id'")),
        ("'float32'", "float32", AttributeError, re.escape("'str' object has no attribute '_id'")),
        ("'float32_ref'", "float32_ref", AttributeError, re.escape("'str' object has no attribute '_id'")),
        ("np.float32 (a type)", np.float32, AttributeError,
         re.escape("type object 'numpy.float32' has no attribute '_id'")),
        ("tf.float32", tf.float32, AttributeError, re.escape("'DType' object has no attribute '_id'")),
    ]


@clause("autodiff.targets", ref="tf221")
@pytest.mark.parametrize("role", ["target", "source"])
def test_cov14a_non_tensor_targets_and_sources(backend, tf, role):
    """A target or source that is neither a tensor nor a variable: TypeError where dtypes.as_dtype cannot
    read it, AttributeError 'dtype' for a non-trainable dtype it reads (vlog's argument), AttributeError
    '_id' for the rest (the C tape), each with Python's own wording for the value's type."""
    x = tf.constant(1.5)
    for label, value, cls, pattern in _non_tensors(tf):
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = x * 2.0
        with raises(cls, match=pattern, call=f"tape.gradient with {label} as a {role}"):
            if role == "target":
                tape.gradient(value, x)
            else:
                tape.gradient(y, [x, value])


# -- custom_gradient's errors; gradient_pass_through; recompute_grad ---------------------------------------
@clause("autodiff.custom-gradient", ref="tf221")
def test_cov14a_custom_gradient_argument_errors(backend, tf):
    """A custom gradient whose function reads a variable needs a grad_fn taking `variables` (TypeError at
    the call), must return one gradient per variable and one per input (ValueError at backprop)."""
    v = tf.Variable(2.0)
    x = tf.constant(1.5)

    @tf.custom_gradient
    def no_variables_kw(a):
        return a * v, lambda dy: dy * v
    with raises(TypeError, match="grad_fn must accept keyword argument 'variables', since function uses variables",
                call="custom_gradient reading a variable, grad_fn(dy)"):
        with tf.GradientTape() as tape:
            tape.watch(x)
            tape.gradient(no_variables_kw(x), x)

    @tf.custom_gradient
    def too_few_variable_grads(a):
        return a * v, lambda dy, variables=None: (dy * v, [])
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = too_few_variable_grads(x)
    with raises(ValueError, match=re.escape("Must return gradient for each variable from @custom_gradient grad_fn."),
                call="custom_gradient returning [] for one variable"):
        tape.gradient(y, [x, v])

    @tf.custom_gradient
    def two_inputs(a, b):
        return a * b, lambda dy: dy
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = two_inputs(x, x)
    with raises(ValueError, match=re.escape("custom_gradient function expected to return 2 gradients, but returned "
                                            "1 instead."), call="custom_gradient of (a, b) returning one gradient"):
        tape.gradient(y, x)


@clause("autodiff.custom-gradient", ref="tf221")
def test_cov14a_grad_pass_through_and_recompute_grad(backend, tf):
    """grad_pass_through(f) of an f reading a variable: f's value, the upstream gradient for the input and
    None for the variable; recompute_grad(f): f's value and gradients (sin(x) x w)."""
    w = tf.Variable(3.0)
    xv, wv = 1.5, 3.0
    x = tf.constant(xv)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.grad_pass_through(lambda t: tf.round(t * w))(x)
    gx, gw = tape.gradient(y, [x, w])
    call = "grad_pass_through(lambda t: round(t * w))(x)"
    assert_close(float(y), np.round(xv * wv), call=call)
    assert_close(float(gx), 1.0, call=call, what="d/dx")
    assert_true(gw is None, f"d/dw is {gw!r}, but should be None", call=call)

    f = tf.recompute_grad(lambda t: tf.sin(t) * t * w)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = f(x)
    gx, gw = tape.gradient(y, [x, w])
    call = "recompute_grad(lambda t: sin(t) * t * w)(x)"
    assert_close([float(y), float(gx), float(gw)],
                 [np.sin(xv) * xv * wv, (np.cos(xv) * xv + np.sin(xv)) * wv, np.sin(xv) * xv], call=call)


# -- several gradients of one tensor -------------------------------------------------------------------------
@clause("autodiff.indexed-slices", ref="tf221")
def test_cov14a_tape_adds_up_indexed_slices_and_dense_gradients(backend, tf):
    """Two gathers of one tensor: their IndexedSlices concatenated (indices in the order the tape meets
    them, int32 indices cast to int64 next to int64 ones; repeated rows kept); a gather and a dense use:
    one dense tensor (the slices scattered and added)."""
    xs = np.array([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]])
    x = tf.constant(xs)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.reduce_sum(tf.gather(x, tf.constant([2, 0])) * 2.0) + tf.reduce_sum(
            tf.gather(x, tf.constant([0], tf.int64)))
    g = tape.gradient(y, x)
    call = "tape.gradient(sum(2 gather(x, [2, 0] int32)) + sum(gather(x, [0] int64)), x)"
    assert_true(isinstance(g, tf.IndexedSlices), f"gradient is {type(g).__name__}, but should be IndexedSlices",
                call=call)
    assert_equal(g.indices.dtype.name, "int64", call=call, what="indices.dtype")
    idx = to_numpy(g.indices).tolist()
    assert_equal(sorted(idx), [0, 0, 2], call=call, what="sorted(indices)")
    vals = to_numpy(g.values)
    want_rows = {0: [], 2: []}
    for i, row in zip(idx, vals.tolist()):
        want_rows[i].append(row)
    assert_equal(sorted(want_rows[0]), [[1.0, 1.0], [2.0, 2.0]], call=call, what="values of row 0")
    assert_close(tf.convert_to_tensor(g), [[3.0, 3.0], [0.0, 0.0], [2.0, 2.0]], call=call, what="dense gradient")

    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.reduce_sum(tf.gather(x, [2, 0])) + tf.reduce_sum(x * x)
    g = tape.gradient(y, x)
    call = "tape.gradient(sum(gather(x, [2, 0])) + sum(x * x), x)"
    assert_true(not isinstance(g, tf.IndexedSlices), "gradient is IndexedSlices, but should be dense", call=call)
    assert_close(g, 2 * xs + np.array([[1.0, 1.0], [0.0, 0.0], [1.0, 1.0]]), call=call)


# -- the tape's own argument errors ----------------------------------------------------------------------------
@clause("autodiff.persistent", ref="tf221")
def test_cov14a_tape_state_errors(backend, tf):
    """GradientTape's state errors (backprop.py): stop_recording on a tape that is not recording
    (RuntimeError), a second gradient/jacobian/batch_jacobian of a non-persistent tape (RuntimeError),
    jacobian/batch_jacobian with experimental_use_pfor=False on a non-persistent tape (RuntimeError),
    batch_jacobian of mismatched first dimensions (ValueError); a persistent tape's jacobian without
    pfor (d(x*x)/dx: 2x on the diagonal). (Re-entering a recording tape and a None inside a list of
    output_gradients are left out: in this sequence TF 2.21's process aborts in imperative_grad.)"""
    x = tf.constant([[1.0, 2.0], [3.0, 4.0]])
    with raises(RuntimeError, match="Trying to stop recording a tape which is not recording",
                call="GradientTape().stop_recording() before the tape was entered"):
        with tf.GradientTape().stop_recording():
            pass

    def fresh(**kw):
        t = tf.GradientTape(**kw)
        with t:
            t.watch(x)
            y = x * x
        return t, y
    t, y = fresh()
    t.gradient(y, x)
    for name, again in (("gradient", lambda: t.gradient(y, x)), ("jacobian", lambda: t.jacobian(y, x)),
                        ("batch_jacobian", lambda: t.batch_jacobian(y, x))):
        with raises(RuntimeError, match="A non-persistent GradientTape can only be used to ?compute one set of gradients",
                    call=f"a non-persistent tape's {name} after its gradient"):
            again()
    for name in ("jacobian", "batch_jacobian"):
        t, y = fresh()
        with raises(RuntimeError, match=f"GradientTape must be created with persistent=True to compute the {name} "
                                        "with eager execution enabled",
                    call=f"non-persistent tape.{name}(y, x, experimental_use_pfor=False)"):
            getattr(t, name)(y, x, experimental_use_pfor=False)
    t, y = fresh(persistent=True)
    with raises(ValueError, match=re.escape("Need first dimension of target shape ((2, 2)) and source shape ((3, 2)) to "
                                            "match."), call="batch_jacobian(y[2, 2], source[3, 2])"):
        t.batch_jacobian(y, tf.ones([3, 2]))
    jac = t.jacobian(y, x, experimental_use_pfor=False)
    want = np.zeros((2, 2, 2, 2))
    for i in range(2):
        for j in range(2):
            want[i, j, i, j] = 2 * float(x[i, j])
    assert_close(jac, want, call="persistent tape.jacobian(x * x, x, experimental_use_pfor=False)")

