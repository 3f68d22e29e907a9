# Source: TF tutorial "Custom training with tf.distribute.Strategy"
#   (tensorflow.org/tutorials/distribute/custom_training; tensorflow/docs,
#   site/en/tutorials/distribute/custom_training.ipynb): the custom-training-loop parts.
#
# Documented output: none that can be compared (the tutorial prints per-epoch loss and accuracy of a
#   randomly initialised model on the downloaded Fashion-MNIST).
# Changes from the tutorial, so that both backends compute the same numbers:
#   - in-memory synthetic data of Fashion-MNIST's shapes (28x28x1 images in [0, 1], 10 classes),
#     512 training and 128 test images (a noisy pattern per class), instead of the download; 3 epochs instead of 10;
#   - the two replicas are named (the tutorial's `MirroredStrategy()` auto-detects the GPUs);
#   - the model's initial weights are set from one seeded NumPy generator (`set_weights`);
#   - no `.shuffle(BUFFER_SIZE)`: the order of an unseeded shuffle is the backend's own;
#   - the checkpoint directory is a temporary directory;
#   - `optimizer.build(model.trainable_variables)` after creating Adam: as written, the tutorial fails
#     on TF 2.21 + Keras 3.15 with InvalidArgumentError "You must feed a value for placeholder tensor"
#     (Adam's slots are created inside the tf.function of the first step; clause optim.build-in-function);
#   - the model computes in float64 (`tf.keras.backend.set_floatx('float64')`, and the loop inside
#     tf.function starts its sum as a float64 tensor and divides by a float64 count: with float32,
#     TF's autograph loop refuses to add the float64 losses to `0.0`). In float32 the two backends
#     sum in different orders (TF's oneDNN kernels, simdist's NumPy): the first gradients differ by
#     a few ulps, and Adam, whose step is about g/(|g| + 3e-6) in the first steps, turns such
#     differences in the weights with tiny gradients into differences of 1e-7 in the weights; 30
#     steps later the printed 4-decimal losses differ (Test Loss 2.2848 on TF, 2.2849 on simdist at
#     epoch 3; accuracy 19.53 against 19.73 in the last loop). In float64 the runs agree to 1e-15.
# Everything else is the tutorial's code: Sequential CNN with L2 regularizers, loss with
# reduction NONE + tf.nn.compute_average_loss + tf.nn.scale_regularization_loss, Adam, Keras
# metrics updated inside strategy.run, tf.train.Checkpoint save and restore, and the two other
# ways to iterate (an iterator with a fixed number of steps, a loop inside tf.function). The loop
# with an iterator prints `epoch + 1` of the previous loop ("Epoch 3" three times), as the tutorial does.
# Clauses: keras.reg.layer-losses, keras.loss.reduction-legacy, optim.build-in-function, optim.floatx,
#   checkpoint.latest.
from _backend import tf, B

import os
import tempfile

import numpy as np

B.setup(gpus=2)
tf.keras.backend.set_floatx('float64')   # (not in the tutorial: see the header)

rng = np.random.default_rng(0)
templates = rng.random((10, 28, 28, 1), dtype=np.float32)   # one pattern per class, plus noise


def make_images(n):
  labels = rng.integers(0, 10, n).astype(np.uint8)
  noise = rng.random((n, 28, 28, 1), dtype=np.float32)
  return (0.5 * templates[labels] + 0.5 * noise).astype(np.float32), labels


(train_images, train_labels), (test_images, test_labels) = make_images(512), make_images(128)

strategy = tf.distribute.MirroredStrategy(B.devices("GPU:0", "GPU:1"))
print('Number of devices: {}'.format(strategy.num_replicas_in_sync))

BUFFER_SIZE = len(train_images)
BATCH_SIZE_PER_REPLICA = 64
GLOBAL_BATCH_SIZE = BATCH_SIZE_PER_REPLICA * strategy.num_replicas_in_sync
EPOCHS = 3

train_dataset = tf.data.Dataset.from_tensor_slices((train_images, train_labels)).batch(GLOBAL_BATCH_SIZE)
test_dataset = tf.data.Dataset.from_tensor_slices((test_images, test_labels)).batch(GLOBAL_BATCH_SIZE)

train_dist_dataset = strategy.experimental_distribute_dataset(train_dataset)
test_dist_dataset = strategy.experimental_distribute_dataset(test_dataset)


def create_model():
  regularizer = tf.keras.regularizers.L2(1e-5)
  model = tf.keras.Sequential([
      tf.keras.layers.Conv2D(32, 3, activation='relu', kernel_regularizer=regularizer),
      tf.keras.layers.MaxPooling2D(),
      tf.keras.layers.Conv2D(64, 3, activation='relu', kernel_regularizer=regularizer),
      tf.keras.layers.MaxPooling2D(),
      tf.keras.layers.Flatten(),
      tf.keras.layers.Dense(64, activation='relu', kernel_regularizer=regularizer),
      tf.keras.layers.Dense(10, kernel_regularizer=regularizer)
    ])
  model.build((None, 28, 28, 1))
  w_rng = np.random.default_rng(1)   # (not in the tutorial) the same initial weights on both backends
  model.set_weights([(w_rng.standard_normal(w.shape) * 0.05).astype(np.float32) for w in model.get_weights()])
  return model


checkpoint_dir = tempfile.mkdtemp()
checkpoint_prefix = os.path.join(checkpoint_dir, "ckpt")

with strategy.scope():
  # Set reduction to `NONE` so you can do the reduction yourself.
  loss_object = tf.keras.losses.SparseCategoricalCrossentropy(
      from_logits=True,
      reduction=tf.keras.losses.Reduction.NONE)
  def compute_loss(labels, predictions, model_losses):
    per_example_loss = loss_object(labels, predictions)
    loss = tf.nn.compute_average_loss(per_example_loss)
    if model_losses:
      loss += tf.nn.scale_regularization_loss(tf.add_n(model_losses))
    return loss

with strategy.scope():
  test_loss = tf.keras.metrics.Mean(name='test_loss')

  train_accuracy = tf.keras.metrics.SparseCategoricalAccuracy(
      name='train_accuracy')
  test_accuracy = tf.keras.metrics.SparseCategoricalAccuracy(
      name='test_accuracy')

# A model, an optimizer, and a checkpoint must be created under `strategy.scope`.
with strategy.scope():
  model = create_model()

  optimizer = tf.keras.optimizers.Adam(learning_rate=0.001)
  # (not in the tutorial) TF 2.21 + Keras 3 needs the slots built before the first step runs
  # inside tf.function under MirroredStrategy; see clause optim.build-in-function.
  optimizer.build(model.trainable_variables)

  checkpoint = tf.train.Checkpoint(optimizer=optimizer, model=model)


def train_step(inputs):
  images, labels = inputs

  with tf.GradientTape() as tape:
    predictions = model(images, training=True)
    loss = compute_loss(labels, predictions, model.losses)

  gradients = tape.gradient(loss, model.trainable_variables)
  optimizer.apply_gradients(zip(gradients, model.trainable_variables))

  train_accuracy.update_state(labels, predictions)
  return loss

def test_step(inputs):
  images, labels = inputs

  predictions = model(images, training=False)
  t_loss = loss_object(labels, predictions)

  test_loss.update_state(t_loss)
  test_accuracy.update_state(labels, predictions)


# `run` replicates the provided computation and runs it
# with the distributed input.
@tf.function
def distributed_train_step(dataset_inputs):
  per_replica_losses = strategy.run(train_step, args=(dataset_inputs,))
  return strategy.reduce(tf.distribute.ReduceOp.SUM, per_replica_losses,
                         axis=None)

@tf.function
def distributed_test_step(dataset_inputs):
  return strategy.run(test_step, args=(dataset_inputs,))

for epoch in range(EPOCHS):
  # TRAIN LOOP
  total_loss = 0.0
  num_batches = 0
  for x in train_dist_dataset:
    total_loss += distributed_train_step(x)
    num_batches += 1
  train_loss = total_loss / num_batches

  # TEST LOOP
  for x in test_dist_dataset:
    distributed_test_step(x)

  if epoch % 2 == 0:
    checkpoint.save(checkpoint_prefix)

  template = ("Epoch {}, Loss: {:.4f}, Accuracy: {:.2f}, Test Loss: {:.4f}, "
              "Test Accuracy: {:.2f}")
  print(template.format(epoch + 1, float(train_loss),
                         float(train_accuracy.result() * 100), float(test_loss.result()),
                         float(test_accuracy.result() * 100)))

  test_loss.reset_state()
  train_accuracy.reset_state()
  test_accuracy.reset_state()

# Restore the latest checkpoint and test
eval_accuracy = tf.keras.metrics.SparseCategoricalAccuracy(
    name='eval_accuracy')

new_model = create_model()
new_optimizer = tf.keras.optimizers.Adam(learning_rate=0.001)

test_dataset = tf.data.Dataset.from_tensor_slices((test_images, test_labels)).batch(GLOBAL_BATCH_SIZE)

@tf.function
def eval_step(images, labels):
  predictions = new_model(images, training=False)
  eval_accuracy(labels, predictions)

checkpoint = tf.train.Checkpoint(optimizer=new_optimizer, model=new_model)
checkpoint.restore(tf.train.latest_checkpoint(checkpoint_dir))

for images, labels in test_dataset:
  eval_step(images, labels)

print('Accuracy after restoring the saved model without strategy: {:.2f}'.format(
    float(eval_accuracy.result() * 100)))

# Alternate ways of iterating over a dataset: using iterators
for _ in range(EPOCHS):
  total_loss = 0.0
  num_batches = 0
  train_iter = iter(train_dist_dataset)

  for _ in range(2):
    total_loss += distributed_train_step(next(train_iter))
    num_batches += 1
  average_train_loss = total_loss / num_batches

  template = ("Epoch {}, Loss: {:.4f}, Accuracy: {:.2f}")
  print(template.format(epoch + 1, float(average_train_loss), float(train_accuracy.result() * 100)))
  train_accuracy.reset_state()

# Iterating inside a tf.function
@tf.function
def distributed_train_epoch(dataset):
  total_loss = tf.constant(0.0, dtype=tf.float64)   # (the tutorial: 0.0; see the header)
  num_batches = 0
  for x in dataset:
    per_replica_losses = strategy.run(train_step, args=(x,))
    total_loss += strategy.reduce(
      tf.distribute.ReduceOp.SUM, per_replica_losses, axis=None)
    num_batches += 1
  return total_loss / tf.cast(num_batches, dtype=tf.float64)

for epoch in range(EPOCHS):
  train_loss = distributed_train_epoch(train_dist_dataset)

  template = ("Epoch {}, Loss: {:.4f}, Accuracy: {:.2f}")
  print(template.format(epoch + 1, float(train_loss), float(train_accuracy.result() * 100)))

  train_accuracy.reset_state()
