"""tf.quantization's fake quantization (clause ops.fake-quant) and the API namespaces' names
(clause api.namespaces) and tf.version (clause api.version), TF 2.21 only.

Expected values were observed from TF 2.21 (tensorflow-cpu); tests/ops/test_fake_quant_tf.py
compares every case bit for bit.
"""

from __future__ import annotations

import numpy as np
import pytest

from simdist.conformance.assertions import assert_close, assert_equal, assert_true, to_numpy

clause = pytest.mark.clause

_X = np.array([-7.0, -1.3, 0.0, 0.01, 2.6, 6.1], np.float32)


@clause("ops.fake-quant", ref="tf221")
def test_fake_quant_values_and_gradients(tf):
    q = tf.quantization
    assert_close(to_numpy(q.fake_quant_with_min_max_args(_X)),
                 np.array([-6.023529529571533, -1.317647099494934, 0.0, 0.0, 2.588235378265381, 5.976470470428467],
                          np.float32),
                 call="fake_quant_with_min_max_args(x)")
    assert_close(to_numpy(q.fake_quant_with_min_max_vars(_X, -1.0, 1.0)),
                 np.array([-0.9960784912109375, -0.9960784912109375, 0.0, 0.007843137718737125, 1.003921627998352,
                           1.003921627998352], np.float32),
                 call="fake_quant_with_min_max_vars(x, -1, 1)")
    assert_equal(to_numpy(q.fake_quant_with_min_max_vars(_X, 0.0, 0.0)), np.zeros(6, np.float32),
                 call="fake_quant_with_min_max_vars(x, 0, 0)")
    x = tf.constant(_X)
    lo, hi = tf.Variable(-1.0), tf.Variable(1.0)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = q.fake_quant_with_min_max_vars(x, lo, hi)
    dx, dlo, dhi = tape.gradient(y, [x, lo, hi])
    assert_equal(to_numpy(dx), np.array([0, 0, 1, 1, 0, 0], np.float32), call="d fake_quant_vars / dx")
    assert_equal(float(to_numpy(dlo)), 2.0, call="d fake_quant_vars / dmin (elements below the range)")
    assert_equal(float(to_numpy(dhi)), 2.0, call="d fake_quant_vars / dmax (elements above the range)")


@clause("api.namespaces", ref="tf221")
def test_namespaces_list_only_api_names(tf):
    assert_true("keras" in dir(tf), "dir(tf) lists keras", call="dir(tf)")
    for ns in ("losses", "metrics", "optimizers"):
        mod = getattr(tf, ns)
        assert_equal(sorted(n for n in dir(mod) if not n.startswith("_")),
                     sorted(n for n in dir(getattr(tf.keras, ns)) if not n.startswith("_")),
                     call=f"dir(tf.{ns}) vs dir(tf.keras.{ns})")
    assert_true(tf.losses.MeanSquaredError is tf.keras.losses.MeanSquaredError,
                "tf.losses.MeanSquaredError is tf.keras.losses.MeanSquaredError", call="tf.losses")
    for path, name in (("io", "os"), ("io", "exists"), ("debugging", "np"), ("nest", "Any"), ("data", "DatasetV2"),
                       ("ragged", "RaggedTensor"), ("lookup", "MutableHashTable"), ("compat", "ConfigProto")):
        assert_true(not hasattr(getattr(tf, path), name), f"tf.{path} has no attribute {name!r}",
                    call=f"hasattr(tf.{path}, {name!r})")
    assert_true(callable(tf.io.gfile.exists) and tf.lookup.experimental.MutableHashTable is not None,
                "tf.io.gfile.exists and tf.lookup.experimental.MutableHashTable exist", call="tf.io.gfile")
    assert_true(not any(n in dir(tf.keras.layers) for n in ("core", "layer", "annotations")),
                "dir(tf.keras.layers) lists no implementation module", call="dir(tf.keras.layers)")


@clause("api.version", ref="tf221")
def test_version_module(tf):
    v = tf.version
    assert_equal(v.VERSION, tf.__version__, call="tf.version.VERSION")
    assert_true(v.VERSION.startswith("2.21."), f"tf.version.VERSION={v.VERSION!r}, but should start with '2.21.'",
                call="tf.version.VERSION")
    assert_equal((v.GRAPH_DEF_VERSION, v.GRAPH_DEF_VERSION_MIN_CONSUMER, v.GRAPH_DEF_VERSION_MIN_PRODUCER),
                 (2474, 0, 0), call="tf.version.GRAPH_DEF_VERSION*")
    assert_true(isinstance(v.GIT_VERSION, str) and isinstance(v.COMPILER_VERSION, str),
                "GIT_VERSION and COMPILER_VERSION are strings", call="tf.version")


@clause("api.namespaces", ref="tf221")
def test_keras_top_level_base_classes(tf):
    """Keras 3 puts its base classes at the top (`class MyLoss(keras.Loss)`): tf.keras.Loss, Metric,
    Optimizer and Initializer are the classes of losses, metrics, optimizers and initializers, a
    subclass of tf.keras.Loss reduces its call's per-sample values by the mean, tf.keras.version()
    is Keras 3's release, tf.keras.device(name) places as tf.device(name), and FloatDTypePolicy is
    DTypePolicy's alias, serialized under its own class name."""
    k = tf.keras
    for name, ns in (("Loss", "losses"), ("Metric", "metrics"), ("Optimizer", "optimizers"),
                     ("Initializer", "initializers")):
        assert_true(getattr(k, name) is getattr(getattr(k, ns), name),
                    f"tf.keras.{name} is tf.keras.{ns}.{name}", call=f"tf.keras.{name}")

    class MeanAbs(k.Loss):
        def call(self, y_true, y_pred):
            return tf.reduce_mean(tf.abs(y_true - y_pred), axis=-1)

    y_true = np.array([[1.0, 2.0], [0.5, -1.0], [3.0, 3.0]], np.float32)
    y_pred = np.array([[0.0, 0.0], [0.5, 1.0], [2.0, 5.0]], np.float32)
    want = float(np.mean(np.mean(np.abs(y_true - y_pred), axis=-1)))
    assert_close(float(to_numpy(MeanAbs()(y_true, y_pred))), want, call="a tf.keras.Loss subclass(y_true, y_pred)")
    assert_true(k.version().startswith("3."), f"tf.keras.version()={k.version()!r}, but should be a Keras 3 release",
                call="tf.keras.version()")
    f = k.FloatDTypePolicy("mixed_bfloat16")
    assert_equal([type(f).__name__, isinstance(f, k.DTypePolicy), f.compute_dtype, f.variable_dtype],
                 ["FloatDTypePolicy", True, "bfloat16", "float32"], call="tf.keras.FloatDTypePolicy('mixed_bfloat16')",
                 what="[class, a DTypePolicy, compute dtype, variable dtype]")
    config = k.dtype_policies.serialize(f)
    back = k.dtype_policies.deserialize(config)
    assert_equal([config["class_name"], type(back).__name__, back.name],
                 ["FloatDTypePolicy", "FloatDTypePolicy", "mixed_bfloat16"],
                 call="dtype_policies.deserialize(dtype_policies.serialize(FloatDTypePolicy('mixed_bfloat16')))",
                 what="[serialized class, deserialized class, name]")
    got = k.dtype_policies.get({"module": "keras", "class_name": "DTypePolicy", "config": {"name": "float64"}})
    assert_equal([type(got).__name__, got.compute_dtype], ["DTypePolicy", "float64"],
                 call="dtype_policies.get(<a DTypePolicy config>)", what="[class, compute dtype]")
    with k.device("cpu:0"):
        t = tf.constant([1.0])
    assert_true(t.device.endswith("CPU:0"), f"a tensor made under tf.keras.device('cpu:0') is on {t.device!r}, "
                "but should be on CPU:0 (tf.device on the TF backend)", call="with tf.keras.device('cpu:0')")
