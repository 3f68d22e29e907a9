"""Keras layer mechanics on simdist: building on the first call, name uids and paths, tracking of
weights and sub-layers (lists included, locked once built), `training` propagation, autocasting,
Dropout's seeded masks (training only, the same mask on every replica as on TF), call errors."""

from __future__ import annotations

import numpy as np
import pytest

from simdist import tf

keras = tf.keras


@pytest.fixture(autouse=True)
def _clear() -> None:
    keras.backend.clear_session()


@pytest.mark.clause("keras.layer.naming")
def test_uid_names_and_paths() -> None:
    a, b, r = keras.layers.Dense(2), keras.layers.Dense(2), keras.layers.ReLU()
    assert (a.name, b.name, r.name) == ("dense", "dense_1", "re_lu"), f"got {a.name}, {b.name}, {r.name}"
    model = keras.Sequential([keras.Input((3,)), a], name="outer")
    assert a.kernel.path == "outer/dense/kernel" and a.path == "outer/dense", f"got {a.kernel.path}, {a.path}"
    b.build((None, 3))
    assert b.kernel.path == "dense_1/kernel", f"a layer built alone has no parent path; got {b.kernel.path}"
    keras.backend.clear_session()
    assert keras.layers.Dense(1).name == "dense", "clear_session restarts the uids"
    assert model.name == "outer"


@pytest.mark.clause("keras.layer.tracking")
def test_tracking_of_attributes_lists_and_lock() -> None:
    class Block(keras.layers.Layer):
        def __init__(self) -> None:
            super().__init__()
            self.parts = [keras.layers.Dense(3), keras.layers.Dense(2)]
            self.extra = {"head": keras.layers.Dense(1)}

        def build(self, input_shape: tuple) -> None:
            self.scale = self.add_weight(shape=(), initializer="ones", name="scale")
            self.count = self.add_weight(shape=(), initializer="zeros", trainable=False, name="count",
                                         dtype="int32")

        def call(self, x: object) -> object:
            for p in self.parts:
                x = p(x)
            return self.extra["head"](x) * self.scale

    block = Block()
    block(np.ones((2, 4), np.float32))
    assert [w.path for w in block.weights] == [
        "block/scale", "block/count", "block/dense/kernel", "block/dense/bias", "block/dense_1/kernel",
        "block/dense_1/bias", "block/dense_2/kernel", "block/dense_2/bias"], f"got {[w.path for w in block.weights]}"
    assert [w.name for w in block.non_trainable_weights] == ["count"]
    with pytest.raises(ValueError, match="You cannot add new elements of state"):
        block.add_weight(shape=(1,), name="late")
    block.trainable = False
    assert block.trainable_weights == [] and len(block.non_trainable_weights) == 8


@pytest.mark.clause("keras.layer.call")
def test_training_propagates_to_nested_calls() -> None:
    seen = []

    class Probe(keras.layers.Layer):
        def call(self, x: object, training: object = None) -> object:
            seen.append(training)
            return x

    class Outer(keras.layers.Layer):
        def __init__(self) -> None:
            super().__init__()
            self.inner = Probe()

        def call(self, x: object) -> object:   # (no training argument: the context carries it)
            return self.inner(x)

    outer = Outer()
    outer(np.ones((1, 2), np.float32), training=True)
    outer(np.ones((1, 2), np.float32))
    outer.inner(np.ones((1, 2), np.float32), training=False)
    # (the first call runs Outer.call once more to build its sub-layer, without training, as Keras)
    assert seen == [None, True, None, False], f"training seen by the inner layer: {seen}"


@pytest.mark.clause("keras.layer.call")
def test_float_inputs_autocast_to_the_compute_dtype_integers_untouched() -> None:
    d = keras.layers.Dense(2)
    y = d(np.ones((1, 3), np.float64))
    assert y.dtype == tf.float32, f"float64 input should be cast to float32, got {y.dtype}"
    e = keras.layers.Embedding(5, 2)
    assert e(np.array([[1, 2]], np.int64)).dtype == tf.float32
    with pytest.raises(ValueError, match="Only input tensors may be passed as positional arguments"):
        d(np.ones((1, 3), np.float32), 3)


@pytest.mark.clause("keras.layer.dropout")
def test_dropout_seeded_training_only_and_scaled() -> None:
    x = np.arange(1, 201, dtype=np.float32).reshape(10, 20)
    d = keras.layers.Dropout(0.25, seed=11)
    np.testing.assert_array_equal(d(x).numpy(), x, err_msg="inference: identity")
    y1, y2 = d(x, training=True).numpy(), d(x, training=True).numpy()
    kept = y1 != 0
    np.testing.assert_allclose(y1[kept], x[kept] / 0.75, rtol=1e-6, err_msg="kept values scaled by 1/(1-rate)")
    assert 0.1 < 1 - kept.mean() < 0.4, f"dropped fraction {1 - kept.mean()} far from 0.25"
    assert not np.array_equal(y1, y2), "the seed generator advances: the next mask differs"
    keras.backend.clear_session()
    again = keras.layers.Dropout(0.25, seed=11)
    np.testing.assert_array_equal(again(x, training=True).numpy(), y1, err_msg="same seed, same first mask")
    assert [v.path for v in again.variables] == ["seed_generator/seed_generator_state"] and again.weights == []


@pytest.mark.clause("keras.layer.dropout")
def test_dropout_replicas_share_the_mask_as_in_tf() -> None:
    cpu = tf.config.list_physical_devices("CPU")[0]
    tf.config.set_logical_device_configuration(cpu, [tf.config.LogicalDeviceConfiguration()] * 2)
    strategy = tf.distribute.MirroredStrategy(["/cpu:0", "/cpu:1"])
    with strategy.scope():
        d = keras.layers.Dropout(0.5, seed=1)
    out = strategy.run(lambda x: d(x, training=True), args=(tf.ones((4, 6)),))
    a, b = (v.numpy() for v in out.values)
    np.testing.assert_array_equal(a, b, err_msg="each replica's copy of the seed state is the same: same mask")
    np.testing.assert_array_equal(d.seed_generator.state.numpy(), [1, 1], err_msg="state advanced once")


@pytest.mark.clause("keras.layer.call")
def test_unseeded_objects_are_deterministic_from_the_session_seed() -> None:
    import simdist

    def draw() -> np.ndarray:
        keras.backend.clear_session()
        layer = keras.layers.Dense(3)
        layer.build((None, 4))
        return layer.kernel.numpy()

    simdist.reset()
    a = draw()
    simdist.reset()
    b = draw()
    simdist.configure(seed=5)
    c = draw()
    np.testing.assert_array_equal(a, b, err_msg="same root seed: same initial weights")
    assert not np.array_equal(a, c), "another root seed gives other initial weights"
    tf.random.set_seed(3)
    d1 = draw()
    tf.random.set_seed(3)
    np.testing.assert_array_equal(draw(), d1, err_msg="tf.random.set_seed restarts the seeds")
