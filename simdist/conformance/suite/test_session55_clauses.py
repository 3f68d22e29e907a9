"""Clauses the fifty-fifth session's helpers added from TF 2.21's runs, checked on any backend: distributed values as
op inputs (values.per-replica-conversion, dist55), an XLA-compiled call reading a variable on another device
(function.xla-resource-device, kfuzz55), and a regularizer made in a subclassed model's first call
(keras.reg.scratch-graph-constant, kfuzz55). Each expectation is TF 2.21's observed behaviour (the helpers'
differential tests: tests/strategies/test_dist55_values_tf.py, tests/keras/test_kfuzz55_tf.py)."""

from __future__ import annotations

import numpy as np
import pytest

from simdist.conformance.assertions import assert_equal, raises, to_numpy

clause = pytest.mark.clause


@clause("values.per-replica-conversion", ref="tf221")
def test_a_per_replica_converts_to_the_current_replicas_component(backend, tf):
    """In a replica context a PerReplica an op reads is that replica's component; outside one it is ValueError."""
    strategy = backend.make_strategy("mirrored", 2)
    pr = strategy.run(lambda: tf.cast(tf.distribute.get_replica_context().replica_id_in_sync_group, tf.float32) + 1.0)
    out = strategy.run(lambda: tf.cast(pr, tf.float64) * 2.0)
    got = [(to_numpy(v).dtype.name, float(to_numpy(v))) for v in strategy.experimental_local_results(out)]
    assert_equal(got, [("float64", 2.0), ("float64", 4.0)], what="each replica's cast of its own component",
                 call="strategy.run(lambda: tf.cast(per_replica, tf.float64) * 2.0)")
    with raises(ValueError, match="PerReplica object while not inside a replica context",
                call="tf.cast(per_replica, tf.float64) in cross-replica context"):
        tf.cast(pr, tf.float64)


@clause("function.xla-resource-device", ref="tf221")
def test_an_xla_call_refuses_a_variable_on_another_device(backend, tf):
    """A jit-compiled tf.function reading a variable placed on /cpu:1 runs under /cpu:1 and is InvalidArgumentError
    ("Trying to access resource ... located in device ...") under /cpu:0; without jit_compile it runs on both."""
    backend.make_strategy("mirrored", 2)   # (two logical CPUs)
    with tf.device("/cpu:1"):
        w = tf.Variable(tf.ones((2,)), name="w_xla")

    @tf.function(jit_compile=True)
    def g():
        return tf.reduce_sum(w * 2.0)

    @tf.function
    def plain():
        return tf.reduce_sum(w * 2.0)
    with tf.device("/cpu:1"):
        assert_equal(float(to_numpy(g())), 4.0, what="value", call="jit tf.function under /cpu:1")
    with tf.device("/cpu:0"):
        assert_equal(float(to_numpy(plain())), 4.0, what="value", call="plain tf.function under /cpu:0")
        with raises(tf.errors.InvalidArgumentError, match="located in device",
                    call="jit tf.function under /cpu:0 reading a /cpu:1 variable"):
            g()


@clause("keras.reg.scratch-graph-constant", ref="tf221")
def test_an_l1_regularizer_made_in_a_first_call_is_out_of_scope_later(backend, tf):
    """A sublayer built inside a subclassed model's first call makes its L1 regularizer (constructed in build) in
    Keras's scratch graph:
    reading the model's losses afterwards is TypeError "... is out of scope"; an L2 regularizer (a Python float
    factor) reads fine."""
    L = tf.keras.layers

    def model(reg):
        class RC(L.Layer):
            def build(self, input_shape):
                self.gain = self.add_weight(shape=(input_shape[-1], input_shape[-1]), initializer="ones",
                                            regularizer=reg(), name="gain")

            def call(self, t):
                return tf.matmul(t, self.gain)

        class Net(tf.keras.Model):
            def __init__(self):
                super().__init__()
                self.a, self.b = L.Dense(3, name="a55"), RC(name="rc55")

            def call(self, h):
                return self.b(self.a(h))
        m = Net()
        m(np.ones((4, 3), np.float32))
        return m
    l2 = model(lambda: tf.keras.regularizers.L2(0.01))
    assert_equal(len(l2.losses), 1, what="number of losses", call="L2 regularizer made in the first call")
    with raises(TypeError, match="out of scope", call="tf.add_n(model.losses) of an L1 regularizer made in the "
                                                      "first call"):
        tf.add_n(model(lambda: tf.keras.regularizers.L1(0.01)).losses)
