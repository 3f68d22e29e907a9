# Source: Keras guide "Making new layers and models via subclassing"
#   (keras.io/guides/making_new_layers_and_models_via_subclassing; keras-team/keras-io,
#   guides/making_new_layers_and_models_via_subclassing.py), as TF 2.21's tf.keras (Keras 3.15) runs it.
#
# Documented output: the guide prints random-weight outputs (not comparable) and the weight counts
#   and losses below (these are).
# Changes from the guide, so that both backends compute the same numbers:
#   - `from _backend import tf` and `keras = tf.keras`; `ops` calls written with `tf`
#     (`keras.ops` is Keras's backend-neutral API; on TF it runs these same ops);
#   - inputs from one seeded NumPy generator instead of `keras.ops.ones`/random normals, and the
#     initial weights set from it (`set_weights`) before printing values;
#   - the `CustomDropout` of the "training argument" section is called with training=False and
#     training=True at rate 0 (its masks are each backend's own random stream); the VAE is left out
#     (its sampling layer is random).
# Everything else is the guide's code: `add_weight` in `__init__` and in `build`, non-trainable
#   weights, nested layers tracked as attributes, `add_loss` (cleared at each top-level call) and a
#   kernel regularizer's loss in `losses`, a custom training loop using them, `get_config`, and a
#   `keras.Model` subclass trained with `fit`.
# Clauses: keras.model.call, keras.layer.tracking.
from _backend import tf, B

import numpy as np

keras = tf.keras
rng = np.random.default_rng(0)


def seeded(layer):
  layer.set_weights([rng.standard_normal(w.shape).astype("float32") * 0.1 for w in layer.get_weights()])
  return layer


def r(a):
  return [f"{v:.5f}" for v in np.ravel(np.asarray(a))]


print("1. The Layer class: the combination of state (weights) and some computation")


class Linear(keras.layers.Layer):
  def __init__(self, units=32, input_dim=32):
    super().__init__()
    self.w = self.add_weight(
        shape=(input_dim, units),
        initializer="random_normal",
        trainable=True,
    )
    self.b = self.add_weight(shape=(units,), initializer="zeros", trainable=True)

  def call(self, inputs):
    return tf.matmul(inputs, self.w) + self.b


x = rng.random((2, 2)).astype("float32")
linear_layer = seeded(Linear(4, 2))
y = linear_layer(x)
print("  ", r(y))
print("   weights:", len(linear_layer.weights), [tuple(w.shape) for w in linear_layer.weights])

print("2. Layers can have non-trainable weights")


class ComputeSum(keras.layers.Layer):
  def __init__(self, input_dim):
    super().__init__()
    self.total = self.add_weight(
        initializer="zeros", shape=(input_dim,), trainable=False
    )

  def call(self, inputs):
    self.total.assign_add(tf.reduce_sum(inputs, axis=0))
    return self.total


x = np.ones((2, 2), dtype="float32")
my_sum = ComputeSum(2)
y = my_sum(x)
print("  ", r(y))
y = my_sum(x)
print("  ", r(y))
print("   weights:", len(my_sum.weights), "non-trainable weights:", len(my_sum.non_trainable_weights),
      "trainable_weights:", my_sum.trainable_weights)

print("3. Deferring weight creation until the shape of the inputs is known")


class Linear(keras.layers.Layer):
  def __init__(self, units=32):
    super().__init__()
    self.units = units

  def build(self, input_shape):
    self.w = self.add_weight(
        shape=(input_shape[-1], self.units),
        initializer="random_normal",
        trainable=True,
    )
    self.b = self.add_weight(
        shape=(self.units,), initializer="random_normal", trainable=True
    )

  def call(self, inputs):
    return tf.matmul(inputs, self.w) + self.b


linear_layer = Linear(32)
x = rng.random((2, 2)).astype("float32")
y = linear_layer(x)
seeded(linear_layer)
print("   built:", linear_layer.built, "sum after set_weights: %.5f" % float(np.sum(linear_layer(x))))

print("4. Layers are recursively composable")


class MLPBlock(keras.layers.Layer):
  def __init__(self):
    super().__init__()
    self.linear_1 = Linear(32)
    self.linear_2 = Linear(32)
    self.linear_3 = Linear(1)

  def call(self, inputs):
    x = self.linear_1(inputs)
    x = keras.activations.relu(x)
    x = self.linear_2(x)
    x = keras.activations.relu(x)
    return self.linear_3(x)


mlp = MLPBlock()
x = rng.random((3, 64)).astype("float32")
y = mlp(x)  # The first call to the `mlp` will create the weights
seeded(mlp)
print("   weights:", len(mlp.weights))
print("   trainable weights:", len(mlp.trainable_weights))
print("  ", r(mlp(x)))

print("5. The add_loss() method")


# A layer that creates an activity regularization loss
class ActivityRegularizationLayer(keras.layers.Layer):
  def __init__(self, rate=1e-2):
    super().__init__()
    self.rate = rate

  def call(self, inputs):
    self.add_loss(self.rate * tf.reduce_mean(inputs))
    return inputs


class OuterLayer(keras.layers.Layer):
  def __init__(self):
    super().__init__()
    self.activity_reg = ActivityRegularizationLayer(1e-2)

  def call(self, inputs):
    return self.activity_reg(inputs)


layer = OuterLayer()
assert len(layer.losses) == 0  # No losses yet since the layer has never been called

_ = layer(np.zeros((1, 1), dtype="float32"))
assert len(layer.losses) == 1  # We created one loss value

# `layer.losses` gets reset at the start of each __call__
_ = layer(np.zeros((1, 1), dtype="float32"))
assert len(layer.losses) == 1  # This is the loss created during the call above
print("   losses after two calls:", len(layer.losses))


class OuterLayerWithKernelRegularizer(keras.layers.Layer):
  def __init__(self):
    super().__init__()
    self.dense = keras.layers.Dense(
        32, kernel_regularizer=keras.regularizers.l2(1e-3)
    )

  def call(self, inputs):
    return self.dense(inputs)


layer = OuterLayerWithKernelRegularizer()
_ = layer(np.zeros((1, 1), dtype="float32"))
seeded(layer)
_ = layer(np.zeros((1, 1), dtype="float32"))

# This is `1e-3 * sum(layer.dense.kernel ** 2)`,
# created by the `kernel_regularizer` above.
print("   regularization loss:", r(layer.losses))

# The losses are meant to be taken into account when writing custom training loops.
inputs = keras.Input(shape=(3,))
x = keras.layers.Dense(8, activation="relu")(inputs)
x = ActivityRegularizationLayer(1e-2)(x)
outputs = keras.layers.Dense(1)(x)
model = seeded(keras.Model(inputs, outputs))
optimizer = keras.optimizers.SGD(learning_rate=1e-2)
loss_fn = keras.losses.MeanSquaredError()
data_x = rng.random((4, 8, 3)).astype("float32")
data_y = rng.random((4, 8, 1)).astype("float32")
for x_batch_train, y_batch_train in zip(data_x, data_y):
  with tf.GradientTape() as tape:
    logits = model(x_batch_train)  # Logits for this minibatch
    # Loss value for this minibatch
    loss_value = loss_fn(y_batch_train, logits)
    # Add extra losses created during this forward pass:
    loss_value += sum(model.losses)

  grads = tape.gradient(loss_value, model.trainable_weights)
  optimizer.apply(grads, model.trainable_weights)
  print("   step loss: %.5f" % float(loss_value), "extra losses:", len(model.losses))

print("6. You can optionally enable serialization on your layers")


class Linear(keras.layers.Layer):
  def __init__(self, units=32, **kwargs):
    super().__init__(**kwargs)
    self.units = units

  def build(self, input_shape):
    self.w = self.add_weight(
        shape=(input_shape[-1], self.units),
        initializer="random_normal",
        trainable=True,
    )
    self.b = self.add_weight(
        shape=(self.units,), initializer="random_normal", trainable=True
    )

  def call(self, inputs):
    return tf.matmul(inputs, self.w) + self.b

  def get_config(self):
    config = super().get_config()
    config.update({"units": self.units})
    return config


layer = Linear(64)
config = layer.get_config()
print("  ", {k: config[k] for k in sorted(config) if k != "name"})
new_layer = Linear.from_config(config)
print("   from_config units:", new_layer.units)

print("7. Privileged training argument in the call() method")


class CustomDropout(keras.layers.Layer):
  def __init__(self, rate, **kwargs):
    super().__init__(**kwargs)
    self.rate = rate

  def call(self, inputs, training=None):
    if training:
      return tf.nn.dropout(inputs, rate=self.rate)
    return inputs


x = rng.random((2, 3)).astype("float32")
print("   inference:", r(CustomDropout(0.5)(x, training=False)))
print("   training, rate 0:", r(CustomDropout(0.0)(x, training=True)))

print("8. The Model class")


class MLP(keras.Model):
  def __init__(self, **kwargs):
    super().__init__(**kwargs)
    self.block = MLPBlock()
    self.classifier = keras.layers.Dense(1)

  def call(self, inputs):
    return self.classifier(self.block(inputs))


mlp = MLP()
x = rng.random((16, 5)).astype("float32")
y = rng.random((16, 1)).astype("float32")
mlp(x)
seeded(mlp)
print("   weights:", len(mlp.weights), [w.path for w in mlp.weights][:3])
mlp.compile(optimizer=keras.optimizers.Adam(1e-3), loss="mse")
history = mlp.fit(x, y, batch_size=4, epochs=2, verbose=0, shuffle=False)
print("   loss", r(history.history["loss"]))
