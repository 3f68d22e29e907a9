"""keras.Variable on simdist: the backing tf.Variable per strategy, paths and names, dtype and
assign rules, and the runtime protocol (tape gradients, optimizer updates, checkpoints)."""

from __future__ import annotations

import numpy as np
import pytest

from simdist import tf

keras = tf.keras


@pytest.fixture(autouse=True)
def _clear() -> None:
    keras.backend.clear_session()


@pytest.mark.clause("keras.variable")
def test_variable_from_array_keeps_dtype_and_auto_names() -> None:
    v = keras.Variable(np.zeros(3))
    w = keras.Variable(1.0)
    assert (v.name, w.name) == ("variable", "variable_1"), f"expected Keras's uid names, got {v.name}, {w.name}"
    assert v.dtype == "float64" and w.dtype == "float32", f"got {v.dtype}, {w.dtype}"
    assert isinstance(v.value, tf.Variable) and v.value.name == "variable:0", f"got {v.value!r}"


@pytest.mark.clause("keras.variable")
def test_variable_assign_shape_mismatch_raises() -> None:
    v = keras.Variable(np.zeros((2, 2), np.float32))
    with pytest.raises(ValueError, match="The shape of the target variable"):
        v.assign(np.zeros(3, np.float32))
    v.assign(np.ones((2, 2)))   # float64 values are cast to the variable's dtype
    assert v.numpy().dtype == np.float32 and v.numpy().sum() == 4.0, f"got {v.numpy()!r}"


@pytest.mark.clause("keras.variable")
def test_variable_name_with_slash_and_bad_aggregation_raise() -> None:
    with pytest.raises(ValueError, match="cannot contain character `/`"):
        keras.Variable(1.0, name="a/b")
    with pytest.raises(ValueError, match="Invalid value for argument `aggregation`"):
        keras.Variable(1.0, aggregation="max")
    with pytest.raises(ValueError, match="the `shape` argument should be specified"):
        keras.Variable(keras.initializers.Zeros())


@pytest.mark.clause("keras.variable")
def test_variable_under_mirrored_is_mirrored() -> None:
    cpu = tf.config.list_physical_devices("CPU")[0]
    tf.config.set_logical_device_configuration(cpu, [tf.config.LogicalDeviceConfiguration()] * 2)
    strategy = tf.distribute.MirroredStrategy(["/cpu:0", "/cpu:1"])
    with strategy.scope():
        v = keras.Variable(np.ones(3, np.float32), name="w")
    assert type(v.value).__name__ == "MirroredVariable", f"got {type(v.value).__name__}"


@pytest.mark.clause("keras.variable")
def test_tape_gradient_with_respect_to_keras_variables() -> None:
    layer = keras.layers.Dense(2, kernel_initializer="ones")
    x = tf.constant([[1.0, 2.0, 3.0]])
    with tf.GradientTape() as tape:
        y = tf.reduce_sum(layer(x))
    gk, gb = tape.gradient(y, layer.trainable_variables)
    np.testing.assert_allclose(gk.numpy(), np.repeat([[1.0], [2.0], [3.0]], 2, axis=1), err_msg="kernel gradient")
    np.testing.assert_allclose(gb.numpy(), [1.0, 1.0], err_msg="bias gradient")
    watched = tape.watched_variables()
    assert [w.name for w in watched] == ["dense/kernel:0", "dense/bias:0"], f"got {[w.name for w in watched]}"


@pytest.mark.clause("keras.variable")
def test_tape_watch_of_keras_variable_is_refused_as_in_tf() -> None:
    v = keras.Variable(np.ones(2, np.float32))
    with tf.GradientTape() as tape:
        with pytest.raises(ValueError, match="not tf.Tensor or tf.Variable or ExtensionType"):
            tape.watch(v)
        tape.watch(v.value)
        y = tf.reduce_sum(v * 3.0)
    np.testing.assert_allclose(tape.gradient(y, v).numpy(), [3.0, 3.0])


@pytest.mark.clause("keras.variable")
def test_optimizer_variables_are_keras_variables_with_paths() -> None:
    opt = keras.optimizers.Adam(0.01)
    layer = keras.layers.Dense(2)
    layer.build((None, 3))
    with tf.GradientTape() as tape:
        y = tf.reduce_sum(layer(tf.ones((1, 3))))
    opt.apply_gradients(zip(tape.gradient(y, layer.trainable_variables), layer.trainable_variables))
    assert all(isinstance(v, keras.Variable) for v in opt.variables)
    assert [v.path for v in opt.variables][:4] == ["adam/iteration", "adam/learning_rate",
                                                   "adam/dense_kernel_momentum", "adam/dense_kernel_velocity"], \
        f"got {[v.path for v in opt.variables]}"


@pytest.mark.clause("keras.variable")
def test_checkpoint_saves_keras_variables(tmp_path) -> None:
    layer = keras.layers.Dense(2)
    layer.build((None, 3))
    ckpt = tf.train.Checkpoint(layer=layer.weights)
    path = ckpt.write(str(tmp_path / "c"))
    before = [w.numpy().copy() for w in layer.weights]
    for w in layer.weights:
        w.assign(np.zeros(w.shape.as_list(), np.float32))
    ckpt.read(path)
    for b, w in zip(before, layer.weights):
        np.testing.assert_array_equal(w.numpy(), b, err_msg=w.path)
