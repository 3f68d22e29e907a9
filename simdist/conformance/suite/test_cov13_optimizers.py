"""Optimizer API the suite never executed before the fourteenth session (docs/conformance.md,
"Fourteenth session: suite coverage of Keras models, trainers, optimizers"): the learning_rate
setter (float, schedule, callable), a callable learning rate, variables() order and
set_weights, apply() without variables, and the optimizer's argument errors (TF 2.21 +
Keras 3.15).

Expected values are computed here with NumPy from Keras 3.15's optimizers/base_optimizer.py and
sgd.py/adam.py rules, never with the backend's implementation.
"""

from __future__ import annotations

import warnings

import numpy as np
import pytest

from simdist.conformance.assertions import assert_close, assert_equal, assert_true, raises
from simdist.conformance.tolerances import Tolerance

clause = pytest.mark.clause
TOL32 = Tolerance(rtol=2e-6, atol=1e-7)


def _shapes(variables):
    return [tuple(int(d) for d in v.shape) for v in variables]


@clause("optim.schedules", ref="tf221")
def test_cov13_learning_rate_setter_float_schedule_and_callable(keras, tf):
    """Setting `learning_rate` to a float assigns the learning-rate variable; to a schedule
    untracks that variable (one fewer in `variables`) and the next steps use schedule(iterations);
    an optimizer made with a schedule refuses a float (TypeError); a callable learning rate is
    called at each step."""
    g = np.array([1.0, -2.0], np.float32)
    v = tf.Variable([0.5, 0.5])
    opt = keras.optimizers.SGD(0.1)
    opt.build([v])
    call = "SGD(0.1) built on one variable"
    assert_equal(len(opt.variables), 2, call=call, what="len(variables) (iterations, learning_rate)")
    opt.learning_rate = 0.05
    assert_close(float(opt.learning_rate), 0.05, call=call + ", learning_rate = 0.05", what="learning_rate")
    opt.apply_gradients([(tf.constant(g), v)])
    expected = np.array([0.5, 0.5], np.float32) - np.float32(0.05) * g
    assert_close(v.numpy(), expected, call=call + ", lr 0.05, one step", what="variable", tolerance=TOL32)
    schedule = keras.optimizers.schedules.ExponentialDecay(0.2, decay_steps=1, decay_rate=0.5)
    opt.learning_rate = schedule
    call += ", learning_rate = ExponentialDecay(0.2, 1, 0.5)"
    assert_equal(len(opt.variables), 1, call=call, what="len(variables) (the learning-rate variable untracked)")
    assert_close(float(opt.learning_rate), 0.2 * 0.5 ** 1, call=call, what="learning_rate at iterations=1")
    opt.apply_gradients([(tf.constant(g), v)])
    expected = expected - np.float32(0.1) * g
    assert_close(v.numpy(), expected, call=call + ", one step", what="variable", tolerance=TOL32)
    assert_close(float(opt.learning_rate), 0.2 * 0.5 ** 2, call=call, what="learning_rate at iterations=2")

    scheduled = keras.optimizers.SGD(schedule)
    with raises(TypeError, match="not settable", call="SGD(schedule).learning_rate = 0.1"):
        scheduled.learning_rate = 0.1

    w = tf.Variable([1.0, 1.0])
    calls = []

    def lr():
        calls.append(1)
        return 0.25

    by_callable = keras.optimizers.SGD(lr)
    by_callable.apply_gradients([(tf.constant(g), w)])
    call = "SGD(learning_rate=lambda: 0.25), one step"
    assert_close(w.numpy(), np.array([1.0, 1.0], np.float32) - np.float32(0.25) * g, call=call, what="variable",
                 tolerance=TOL32)
    assert_true(len(calls) >= 1, f"the callable was called (calls={len(calls)})", call=call)
    assert_close(float(by_callable.learning_rate), 0.25, call=call, what="learning_rate")


@clause("optim.state-round-trip", ref="tf221")
def test_cov13_variables_order_and_set_weights(keras, tf):
    """Adam's variables: iterations, learning_rate, then per model variable its momentum and
    velocity (interleaved); set_weights before build is a ValueError, with a wrong shape a
    ValueError (the weights before the bad one already assigned), else it assigns in that order and the next step starts from those slots."""
    a = tf.Variable(np.array([0.1, -0.2], np.float32))
    b = tf.Variable(np.array([[0.3], [0.4], [-0.5]], np.float32))
    opt = keras.optimizers.Adam(0.01)
    with raises(ValueError, match="not yet been built", call="Adam().set_weights before build"):
        opt.set_weights([np.zeros((), np.int64)])
    opt.build([a, b])
    call = "Adam built on a (2,) and b (3, 1)"
    assert_equal(_shapes(opt.variables), [(), (), (2,), (2,), (3, 1), (3, 1)], call=call, what="variable shapes")
    with raises(ValueError, match="shape", call=call + ": set_weights with a wrong slot shape"):
        opt.set_weights([np.int64(7), np.float32(0.01), np.zeros((3,), np.float32)])
    assert_equal(int(opt.iterations.numpy()), 7, call=call + ": set_weights failing at the third weight",
                 what="iterations (the weights before the bad one are assigned)")
    m_a, v_a = np.full((2,), 0.5, np.float32), np.full((2,), 0.25, np.float32)
    m_b, v_b = np.full((3, 1), -0.1, np.float32), np.full((3, 1), 0.04, np.float32)
    opt.set_weights([np.int64(3), np.float32(0.01), m_a, v_a, m_b, v_b])
    got = [np.asarray(v.numpy()) for v in opt.variables]
    for i, want in enumerate([3, 0.01, m_a, v_a, m_b, v_b]):
        assert_close(got[i], want, call=call + ", set_weights", what=f"variables[{i}]")
    ga = np.array([1.0, -1.0], np.float32)
    opt.apply_gradients([(tf.constant(ga), a), (tf.zeros((3, 1)), b)])
    # Keras Adam: t = iterations + 1; alpha = lr * sqrt(1 - b2^t) / (1 - b1^t)
    t = 4
    alpha = 0.01 * np.sqrt(1 - 0.999 ** t) / (1 - 0.9 ** t)
    m = m_a + (ga - m_a) * (1 - 0.9)
    v = v_a + (ga * ga - v_a) * (1 - 0.999)
    expected = np.array([0.1, -0.2]) - alpha * m / (np.sqrt(v) + 1e-7)
    assert_close(a.numpy(), expected, call=call + ", set_weights (iterations=3), one step", what="a",
                 tolerance=Tolerance(rtol=1e-5, atol=1e-6))
    assert_equal(int(opt.iterations.numpy()), 4, call=call + ", one step", what="iterations")


@clause("optim.update", ref="tf221")
def test_cov13_apply_without_variables_uses_the_built_ones(keras, tf):
    """apply(grads) without variables updates the variables the optimizer was built on; unbuilt,
    or with another number of gradients, it is a ValueError."""
    v1 = tf.Variable([1.0, 2.0])
    v2 = tf.Variable([3.0])
    opt = keras.optimizers.SGD(0.5)
    with raises(ValueError, match="built", call="SGD().apply([g]) unbuilt"):
        opt.apply([tf.constant([1.0, 1.0])])
    opt.build([v1, v2])
    opt.apply([tf.constant([1.0, -1.0]), tf.constant([2.0])])
    call = "SGD(0.5).build([v1, v2]); apply([g1, g2])"
    assert_close(v1.numpy(), np.array([0.5, 2.5], np.float32), call=call, what="v1")
    assert_close(v2.numpy(), np.array([2.0], np.float32), call=call, what="v2")
    assert_equal(int(opt.iterations.numpy()), 1, call=call, what="iterations")
    with raises(ValueError, match="gradients", call=call + ", then apply([g1])"):
        opt.apply([tf.constant([1.0, -1.0])])


@clause("optim.option-coverage", ref="tf221")
def test_cov13_optimizer_argument_errors_and_decay_warning(keras, tf):
    """Keras 3.15: an unknown keyword is a ValueError; `decay` is accepted with a warning and
    ignored; gradient_accumulation_steps below 2 is a ValueError."""
    with raises(ValueError, match="not recognized", call="SGD(foo=1)"):
        keras.optimizers.SGD(0.1, foo=1)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        opt = keras.optimizers.SGD(0.1, decay=0.5)
    assert_true(any("decay" in str(w.message) for w in caught),
                f"a warning names `decay` (got {[str(w.message) for w in caught]})", call="SGD(decay=0.5)")
    v = tf.Variable([1.0])
    opt.apply_gradients([(tf.constant([1.0]), v)])
    opt.apply_gradients([(tf.constant([1.0]), v)])
    assert_close(v.numpy(), np.array([1.0 - 0.1 - 0.1], np.float32), call="SGD(0.1, decay=0.5), two steps",
                 what="variable (decay ignored)")
    with raises(ValueError, match="gradient_accumulation_steps", call="SGD(gradient_accumulation_steps=1)"):
        keras.optimizers.SGD(0.1, gradient_accumulation_steps=1)


@clause("optim.update-rules", ref="tf221")
def test_cov13_exclude_from_weight_decay_after_build_takes_effect(keras, tf):
    """Keras 3.15's exclude_from_weight_decay checks `self._built`, which its optimizers never
    set: called after build (even after a step) it is accepted, replaces the earlier exclusions,
    and the next steps skip the decay of the variables it names."""
    bias = tf.Variable([1.0, 2.0], name="bias")
    kernel = tf.Variable([1.0, 2.0], name="kernel")
    opt = keras.optimizers.SGD(0.1, weight_decay=0.5)
    opt.exclude_from_weight_decay(var_list=[kernel])
    zeros = [(tf.zeros([2]), bias), (tf.zeros([2]), kernel)]
    opt.apply_gradients(zeros)
    decay = 1.0 - 0.5 * 0.1   # var -= var * wd * lr, the gradient zero
    call = "SGD(0.1, weight_decay=0.5), exclude kernel, one step"
    assert_close(bias.numpy(), np.array([1.0, 2.0]) * decay, call=call, what="bias", tolerance=TOL32)
    assert_close(kernel.numpy(), np.array([1.0, 2.0]), call=call, what="kernel", tolerance=TOL32)
    opt.exclude_from_weight_decay(var_names=["bias"])
    opt.apply_gradients(zeros)
    call += ", then exclude_from_weight_decay(var_names=['bias']) after build, one more step"
    assert_close(bias.numpy(), np.array([1.0, 2.0]) * decay, call=call, what="bias (now excluded)", tolerance=TOL32)
    assert_close(kernel.numpy(), np.array([1.0, 2.0]) * decay, call=call, what="kernel (no longer excluded)",
                 tolerance=TOL32)
