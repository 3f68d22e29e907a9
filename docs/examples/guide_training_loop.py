# Source: Keras guide "Writing a training loop from scratch in TensorFlow"
#   (keras.io/guides/writing_a_custom_training_loop_in_tensorflow; keras-team/keras-io,
#   guides/writing_a_custom_training_loop_in_tensorflow.py), as TF 2.21's tf.keras (Keras 3.15) runs it.
#
# Documented output: none that can be compared (MNIST download, random weights, wall-clock times).
# Changes from the guide, so that both backends compute the same numbers:
#   - `from _backend import tf` and `keras = tf.keras`;
#   - synthetic data of MNIST's shapes (784 features, 10 classes) from one seeded NumPy generator,
#     256 training and 64 validation samples, batches of 64, no `.shuffle` (an unseeded shuffle's
#     order is the backend's own); 2 epochs; initial weights set from the generator;
#   - the loss and metrics printed every 2 steps with 5 decimals and no wall-clock time;
# Everything else is the guide's code: the functional model, the SGD optimizer, the
#   SparseCategoricalCrossentropy loss, the loop with GradientTape and `optimizer.apply`, the
#   metrics updated and reset per epoch, the validation loop, the same steps in a `tf.function`,
#   and `add_loss` from an ActivityRegularizationLayer summed into the loss.
# Clauses: keras.model.call.
from _backend import tf, B

import numpy as np

keras = tf.keras
rng = np.random.default_rng(0)


def get_model():
  inputs = keras.Input(shape=(784,), name="digits")
  x1 = keras.layers.Dense(64, activation="relu")(inputs)
  x2 = keras.layers.Dense(64, activation="relu")(x1)
  outputs = keras.layers.Dense(10, name="predictions")(x2)
  model = keras.Model(inputs=inputs, outputs=outputs)
  model.set_weights([rng.standard_normal(w.shape).astype("float32") * 0.05 for w in model.get_weights()])
  return model


x_train = rng.random((256, 784)).astype("float32")
y_train = rng.integers(0, 10, 256)
x_val = rng.random((64, 784)).astype("float32")
y_val = rng.integers(0, 10, 64)

batch_size = 64
train_dataset = tf.data.Dataset.from_tensor_slices((x_train, y_train)).batch(batch_size)
val_dataset = tf.data.Dataset.from_tensor_slices((x_val, y_val)).batch(batch_size)

print("1. Using the GradientTape: a first end-to-end example")
model = get_model()
# Instantiate an optimizer.
optimizer = keras.optimizers.SGD(learning_rate=1e-3)
# Instantiate a loss function.
loss_fn = keras.losses.SparseCategoricalCrossentropy(from_logits=True)

epochs = 2
for epoch in range(epochs):
  print(f"Start of epoch {epoch}")
  # Iterate over the batches of the dataset.
  for step, (x_batch_train, y_batch_train) in enumerate(train_dataset):
    # Open a GradientTape to record the operations run
    # during the forward pass, which enables auto-differentiation.
    with tf.GradientTape() as tape:
      # Run the forward pass of the layer.
      logits = model(x_batch_train, training=True)  # Logits for this minibatch
      # Compute the loss value for this minibatch.
      loss_value = loss_fn(y_batch_train, logits)

    # Use the gradient tape to automatically retrieve
    # the gradients of the trainable variables with respect to the loss.
    grads = tape.gradient(loss_value, model.trainable_weights)

    # Run one step of gradient descent by updating
    # the value of the variables to minimize the loss.
    optimizer.apply(grads, model.trainable_weights)

    if step % 2 == 0:
      print(f"Training loss (for 1 batch) at step {step}: {float(loss_value):.5f}")
      print(f"Seen so far: {(step + 1) * batch_size} samples")

print("2. Low-level handling of metrics, speeding-up with tf.function")
model = get_model()
optimizer = keras.optimizers.SGD(learning_rate=1e-3)
loss_fn = keras.losses.SparseCategoricalCrossentropy(from_logits=True)
train_acc_metric = keras.metrics.SparseCategoricalAccuracy()
val_acc_metric = keras.metrics.SparseCategoricalAccuracy()


@tf.function
def train_step(x, y):
  with tf.GradientTape() as tape:
    logits = model(x, training=True)
    loss_value = loss_fn(y, logits)
  grads = tape.gradient(loss_value, model.trainable_weights)
  optimizer.apply(grads, model.trainable_weights)
  train_acc_metric.update_state(y, logits)
  return loss_value


@tf.function
def test_step(x, y):
  val_logits = model(x, training=False)
  val_acc_metric.update_state(y, val_logits)


for epoch in range(epochs):
  print(f"Start of epoch {epoch}")
  for step, (x_batch_train, y_batch_train) in enumerate(train_dataset):
    loss_value = train_step(x_batch_train, y_batch_train)
    if step % 2 == 0:
      print(f"Training loss (for 1 batch) at step {step}: {float(loss_value):.5f}")

  # Display metrics at the end of each epoch.
  train_acc = train_acc_metric.result()
  print(f"Training acc over epoch: {float(train_acc):.4f}")
  # Reset training metrics at the end of each epoch
  train_acc_metric.reset_state()

  # Run a validation loop at the end of each epoch.
  for x_batch_val, y_batch_val in val_dataset:
    test_step(x_batch_val, y_batch_val)

  val_acc = val_acc_metric.result()
  val_acc_metric.reset_state()
  print(f"Validation acc: {float(val_acc):.4f}")

print("3. Low-level handling of losses tracked by the model")


class ActivityRegularizationLayer(keras.layers.Layer):
  def call(self, inputs):
    self.add_loss(1e-2 * tf.reduce_sum(inputs))
    return inputs


inputs = keras.Input(shape=(784,), name="digits")
x = keras.layers.Dense(64, activation="relu")(inputs)
# Insert activity regularization as a layer
x = ActivityRegularizationLayer()(x)
x = keras.layers.Dense(64, activation="relu")(x)
outputs = keras.layers.Dense(10, name="predictions")(x)

model = keras.Model(inputs=inputs, outputs=outputs)
model.set_weights([rng.standard_normal(w.shape).astype("float32") * 0.05 for w in model.get_weights()])
optimizer = keras.optimizers.SGD(learning_rate=1e-3)


@tf.function
def train_step(x, y):
  with tf.GradientTape() as tape:
    logits = model(x, training=True)
    loss_value = loss_fn(y, logits)
    # Add any extra losses created during the forward pass.
    loss_value += sum(model.losses)
  grads = tape.gradient(loss_value, model.trainable_weights)
  optimizer.apply(grads, model.trainable_weights)
  train_acc_metric.update_state(y, logits)
  return loss_value


for step, (x_batch_train, y_batch_train) in enumerate(train_dataset):
  loss_value = train_step(x_batch_train, y_batch_train)
  print(f"Training loss (for 1 batch) at step {step}: {float(loss_value):.5f}")
print(f"Training acc: {float(train_acc_metric.result()):.4f}")
