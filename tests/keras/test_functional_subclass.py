"""A subclass of keras.Model called with inputs and outputs becomes functional, as in Keras 3.15
(models/model.py: Model.__init__ -> inject_functional_model_class): Functional takes Model's
place among the class's bases, the model runs its graph, and its overridden train_step/test_step
are what fit/evaluate run. The values against TF 2.21 are in docs/examples/guide_customizing_fit.py
(tests/test_examples.py)."""

from __future__ import annotations

import numpy as np
import pytest

import simdist
from simdist import tf

keras = tf.keras


def _fresh() -> None:
    simdist.reset()
    keras.backend.clear_session()


@pytest.mark.clause("keras.model.functional-subclass")
def test_subclass_becomes_functional_and_runs_its_graph() -> None:
    _fresh()
    from simdist.keras.models.functional import Functional

    class CustomModel(keras.Model):
        pass

    inputs = keras.Input((3,))
    dense = keras.layers.Dense(2)
    model = CustomModel(inputs, dense(inputs))
    assert CustomModel.__bases__ == (Functional,), f"bases {CustomModel.__bases__}, but should be (Functional,)"
    assert [layer.name for layer in model.layers] == ["input_layer", "dense"], [l.name for l in model.layers]
    second = CustomModel(inputs, dense(inputs))   # a second instance: the class is already functional
    assert (model.name, second.name) == ("custom_model", "custom_model_1"), (model.name, second.name)
    x = np.arange(6, dtype="float32").reshape(2, 3)
    want = x @ np.asarray(dense.kernel) + np.asarray(dense.bias)
    got = np.asarray(model(x))
    assert np.allclose(got, want, rtol=1e-6), f"model(x)={got}, but should be {want} (x @ kernel + bias)"


@pytest.mark.clause("keras.model.functional-subclass")
def test_overridden_steps_are_what_fit_and_evaluate_run() -> None:
    _fresh()
    calls: list[str] = []

    class CustomModel(keras.Model):
        def train_step(self, data):
            calls.append("train")
            return super().train_step(data)

        def test_step(self, data):
            calls.append("test")
            return super().test_step(data)

    inputs = keras.Input((3,))
    model = CustomModel(inputs, keras.layers.Dense(1)(inputs))
    model.compile(optimizer="sgd", loss="mse")
    x, y = np.ones((8, 3), "float32"), np.ones((8, 1), "float32")
    model.fit(x, y, batch_size=4, epochs=1, verbose=0)
    model.evaluate(x, y, batch_size=4, verbose=0)
    # The overridden steps are what fit and evaluate run, as tf.functions: their Python runs when
    # the step is recorded (traced, on TF 2.21: the same ['train', 'test'] there), not per batch
    # (tests/keras/test_fit_step_traces_tf.py counts them against TF).
    assert calls == ["train", "test"], f"steps run: {calls}, but should be 1 train (recorded) then 1 test"


@pytest.mark.clause("keras.model.functional-subclass")
def test_own_init_and_from_config_give_the_subclass_back() -> None:
    _fresh()

    class WithInit(keras.Model):
        def __init__(self, *args, **kwargs):
            super().__init__(*args, **kwargs)
            self.tracker = keras.metrics.Mean(name="extra")

    inputs = keras.Input((3,))
    model = WithInit(inputs, keras.layers.Dense(2)(inputs), name="wi")
    assert model.tracker.name == "extra" and model.name == "wi"
    again = WithInit.from_config(model.get_config())
    assert type(again) is WithInit and [l.name for l in again.layers] == [l.name for l in model.layers], \
        f"from_config gave {type(again).__name__} with layers {[l.name for l in again.layers]}"


@pytest.mark.clause("keras.functional.training-override")
def test_outer_training_overrides_a_recorded_training_false() -> None:
    """Keras 3.15 (functional.py operation_fn): the `training` a functional model is called with
    is passed to every layer that takes it, over the `training=False` recorded at graph build, so
    an unfrozen BatchNormalization inside `base(inputs, training=False)` updates its statistics
    in fit (TF 2.21's run: docs/examples/guide_transfer_learning.py, "moving statistics
    unchanged: False"); a frozen one (trainable=False) stays in inference mode."""
    _fresh()
    inner_in = keras.Input((2,))
    bn = keras.layers.BatchNormalization()
    base = keras.Model(inner_in, bn(inner_in))
    outer_in = keras.Input((2,))
    model = keras.Model(outer_in, base(outer_in, training=False))
    x = np.array([[1.0, 2.0], [3.0, 6.0]], "float32")
    model(x, training=True)
    mean = np.asarray(bn.moving_mean)
    want = 0.01 * x.mean(axis=0)   # momentum 0.99 from zeros
    assert np.allclose(mean, want, rtol=1e-6), f"moving_mean={mean}, but should be {want} (training=True passed down)"
    base.trainable = False
    model(x * 10, training=True)
    assert np.array_equal(np.asarray(bn.moving_mean), mean), "a frozen BatchNormalization updated its statistics"
    model(x, training=None)
    assert np.array_equal(np.asarray(bn.moving_mean), mean), "training=None updated the statistics"
