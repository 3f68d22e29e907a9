# Source: Keras guide "Customizing what happens in `fit()` with TensorFlow"
#   (keras.io/guides/custom_train_step_in_tensorflow; keras-team/keras-io,
#   guides/custom_train_step_in_tensorflow.py), as TF 2.21's tf.keras (Keras 3.15) runs it.
#
# Documented output: none that can be compared (random data, random initial weights, progress bars).
# Changes from the guide, so that both backends compute the same numbers:
#   - `from _backend import tf` and `keras = tf.keras` instead of `import keras` (the same Keras 3.15 on TF);
#   - the random data come from one seeded NumPy generator, 256 samples instead of 1000, and the
#     models' initial weights are set from it (`set_weights`); `fit(verbose=0)` and the History
#     (and evaluate's results) printed instead of the progress bars; 3 epochs; `shuffle=False`
#     (a shuffled order is the backend's own);
#   - the GAN part of the guide is left out (it needs MNIST and a generator network).
# Everything else is the guide's code: a `keras.Model` subclass with `train_step` (GradientTape,
#   `compute_loss`, `optimizer.apply`, the compiled metrics) built with the functional API as
#   `CustomModel(inputs, outputs)`; the lower-level version with its own loss tracker, metric and
#   `metrics` property; sample_weight unpacked in `train_step`; and `test_step` for `evaluate`.
# Clauses: keras.model.functional-subclass, keras.model.call.
from _backend import tf, B

import numpy as np

keras = tf.keras
rng = np.random.default_rng(0)


def seeded(model):
  model.set_weights([rng.standard_normal(w.shape).astype("float32") * 0.1 for w in model.get_weights()])
  return model


def show(history):
  for k in sorted(history.history):
    print(f"  {k}", [f"{v:.5f}" for v in history.history[k]])


x = rng.random((256, 32)).astype("float32")
y = rng.random((256, 1)).astype("float32")

print("1. A first simple example")


class CustomModel(keras.Model):
  def train_step(self, data):
    # Unpack the data. Its structure depends on your model and
    # on what you pass to `fit()`.
    x, y = data

    with tf.GradientTape() as tape:
      y_pred = self(x, training=True)  # Forward pass
      # Compute the loss value
      # (the loss function is configured in `compile()`)
      loss = self.compute_loss(y=y, y_pred=y_pred)

    # Compute gradients
    trainable_vars = self.trainable_variables
    gradients = tape.gradient(loss, trainable_vars)

    # Update weights
    self.optimizer.apply(gradients, trainable_vars)

    # Update metrics (includes the metric that tracks the loss)
    for metric in self.metrics:
      if metric.name == "loss":
        metric.update_state(loss)
      else:
        metric.update_state(y, y_pred)

    # Return a dict mapping metric names to current value
    return {m.name: m.result() for m in self.metrics}


# Construct and compile an instance of CustomModel
inputs = keras.Input(shape=(32,))
outputs = keras.layers.Dense(1)(inputs)
model = seeded(CustomModel(inputs, outputs))
model.compile(optimizer="adam", loss="mse", metrics=["mae"])
print("  class:", type(model).__name__, "functional base:", type(model).__mro__[1].__name__,
      "layers:", [layer.name for layer in model.layers])
show(model.fit(x, y, epochs=3, verbose=0, shuffle=False))

print("2. Going lower-level")


class CustomModel(keras.Model):
  def __init__(self, *args, **kwargs):
    super().__init__(*args, **kwargs)
    self.loss_tracker = keras.metrics.Mean(name="loss")
    self.mae_metric = keras.metrics.MeanAbsoluteError(name="mae")
    self.loss_fn = keras.losses.MeanSquaredError()

  def train_step(self, data):
    x, y = data

    with tf.GradientTape() as tape:
      y_pred = self(x, training=True)  # Forward pass
      # Compute our own loss
      loss = self.loss_fn(y, y_pred)

    # Compute gradients
    trainable_vars = self.trainable_variables
    gradients = tape.gradient(loss, trainable_vars)

    # Update weights
    self.optimizer.apply(gradients, trainable_vars)

    # Compute our own metrics
    self.loss_tracker.update_state(loss)
    self.mae_metric.update_state(y, y_pred)
    return {
        "loss": self.loss_tracker.result(),
        "mae": self.mae_metric.result(),
    }

  @property
  def metrics(self):
    # We list our `Metric` objects here so that `reset_states()` can be
    # called automatically at the start of each epoch
    # or at the start of `evaluate()`.
    return [self.loss_tracker, self.mae_metric]


# Construct an instance of CustomModel
inputs = keras.Input(shape=(32,))
outputs = keras.layers.Dense(1)(inputs)
model = seeded(CustomModel(inputs, outputs))

# We don't pass a loss or metrics here.
model.compile(optimizer="adam")

# Just use `fit` as usual -- you can use callbacks, etc.
show(model.fit(x, y, epochs=3, verbose=0, shuffle=False))

print("3. Supporting sample_weight & class_weight")


class CustomModel(keras.Model):
  def train_step(self, data):
    # Unpack the data. Its structure depends on your model and
    # on what you pass to `fit()`.
    if len(data) == 3:
      x, y, sample_weight = data
    else:
      sample_weight = None
      x, y = data

    with tf.GradientTape() as tape:
      y_pred = self(x, training=True)  # Forward pass
      # Compute the loss value.
      # The loss function is configured in `compile()`.
      loss = self.compute_loss(
          y=y,
          y_pred=y_pred,
          sample_weight=sample_weight,
      )

    # Compute gradients
    trainable_vars = self.trainable_variables
    gradients = tape.gradient(loss, trainable_vars)

    # Update weights
    self.optimizer.apply(gradients, trainable_vars)

    # Update the metrics.
    # Metrics are configured in `compile()`.
    for metric in self.metrics:
      if metric.name == "loss":
        metric.update_state(loss)
      else:
        metric.update_state(y, y_pred, sample_weight=sample_weight)

    # Return a dict mapping metric names to current value.
    # Note that it will include the loss (tracked in self.metrics).
    return {m.name: m.result() for m in self.metrics}


# Construct and compile an instance of CustomModel
inputs = keras.Input(shape=(32,))
outputs = keras.layers.Dense(1)(inputs)
model = seeded(CustomModel(inputs, outputs))
model.compile(optimizer="adam", loss="mse", metrics=["mae"])

# You can now use sample_weight argument
sw = rng.random((256, 1)).astype("float32")
show(model.fit(x, y, sample_weight=sw, epochs=3, verbose=0, shuffle=False))

print("4. Providing your own evaluation step")


class CustomModel(keras.Model):
  def test_step(self, data):
    # Unpack the data
    x, y = data
    # Compute predictions
    y_pred = self(x, training=False)
    # Updates the metrics tracking the loss
    loss = self.compute_loss(y=y, y_pred=y_pred)
    # Update the metrics.
    for metric in self.metrics:
      if metric.name == "loss":
        metric.update_state(loss)
      else:
        metric.update_state(y, y_pred)
    # Return a dict mapping metric names to current value.
    # Note that it will include the loss (tracked in self.metrics).
    return {m.name: m.result() for m in self.metrics}


# Construct an instance of CustomModel
inputs = keras.Input(shape=(32,))
outputs = keras.layers.Dense(1)(inputs)
model = seeded(CustomModel(inputs, outputs))
model.compile(loss="mse", metrics=["mae"])

# Evaluate with our custom test_step
result = model.evaluate(x, y, verbose=0)
print("  evaluate:", [f"{v:.5f}" for v in result])
