# Source: TF tutorial "Custom training loop with Keras and MultiWorkerMirroredStrategy"
#   (tensorflow.org/tutorials/distribute/multi_worker_with_ctl; tensorflow/docs,
#   site/en/tutorials/distribute/multi_worker_with_ctl.ipynb): `mnist.py` and `main.py`, the
#   program every worker runs.
#
# Run it as the tutorial's workers do, one process per worker with its TF_CONFIG, or on simdist
# with `simdist launch --workers 2 docs/examples/tutorial_multi_worker_ctl.py` (each simulated
# worker sees its own TF_CONFIG). tests/strategies/test_multi_worker_tutorial.py runs it both ways.
#
# Documented output: none that can be compared (the tutorial trains on the downloaded MNIST).
# Changes from the tutorial, so that both backends compute the same numbers:
#   - in-memory synthetic data of MNIST's shapes (28x28 images in [0, 1], int64 labels 0-9, a
#     noisy pattern per class), 1280 training images, instead of `tf.keras.datasets.mnist`;
#     no `.shuffle(60000)` (the order of an unseeded shuffle is the backend's own);
#     10 steps per epoch instead of 70 (each worker's shard holds 10 batches of 64);
#   - the model's initial weights are set from one seeded NumPy generator (`set_weights`; TF's
#     and simdist's random initializers draw different numbers);
#   - the model computes in float64 (`set_floatx('float64')`): RMSprop's first steps divide each
#     gradient by its own root mean square, which turns float32 rounding differences between
#     TF's oneDNN kernels and NumPy into visible differences of the loss (see
#     tutorial_custom_training.py);
#   - `train_accuracy.reset_states()` is `reset_state()`: Keras 3 metrics have no
#     `reset_states` (TF 2.21 + Keras 3.15 raise AttributeError after the first epoch's line).
# Everything else is the tutorial's code: TF_CONFIG read from the environment, dataset_fn with
# InputContext sharding, distribute_datasets_from_function, RMSprop, the tf.function train step
# with strategy.run and strategy.reduce, the chief/worker checkpoint paths with
# CheckpointManager and the non-chief's temporary directory removed.
# Clauses: mwms.roles, mwms.input, mwms.collectives, mwms.variables
from _backend import tf, B  # noqa: F401  (B: the shared prelude; unused here)

import os
import json
import numpy as np
from multiprocessing import util

tf.keras.backend.set_floatx('float64')   # (not in the tutorial: see the header)

# --- mnist.py ---------------------------------------------------------------------------------
def mnist_dataset(batch_size):
  # (not in the tutorial) synthetic MNIST-shaped data instead of tf.keras.datasets.mnist
  rng = np.random.default_rng(0)
  templates = rng.random((10, 28, 28))
  y_train = rng.integers(0, 10, 1280)
  x_train = (0.5 * templates[y_train] + 0.5 * rng.random((1280, 28, 28)) * 255) // 1
  # The `x` arrays are in uint8 and have values in the range [0, 255].
  # You need to convert them to float32 with values in the range [0, 1]
  x_train = x_train / np.float32(255)
  y_train = y_train.astype(np.int64)
  train_dataset = tf.data.Dataset.from_tensor_slices(
      (x_train, y_train))   # (the tutorial's .shuffle(60000) left out: see the header)
  return train_dataset

def dataset_fn(global_batch_size, input_context):
  batch_size = input_context.get_per_replica_batch_size(global_batch_size)
  dataset = mnist_dataset(batch_size)
  dataset = dataset.shard(input_context.num_input_pipelines,
                          input_context.input_pipeline_id)
  dataset = dataset.batch(batch_size)
  return dataset

def build_cnn_model():
  model = tf.keras.Sequential([
      tf.keras.Input(shape=(28, 28)),
      tf.keras.layers.Reshape(target_shape=(28, 28, 1)),
      tf.keras.layers.Conv2D(32, 3, activation='relu'),
      tf.keras.layers.Flatten(),
      tf.keras.layers.Dense(128, activation='relu'),
      tf.keras.layers.Dense(10)
  ])
  w_rng = np.random.default_rng(1)   # (not in the tutorial) the same initial weights on both backends
  model.set_weights([w_rng.standard_normal(w.shape) * 0.05 for w in model.get_weights()])
  return model

# --- main.py ----------------------------------------------------------------------------------
per_worker_batch_size = 64
tf_config = json.loads(os.environ['TF_CONFIG'])
num_workers = len(tf_config['cluster']['worker'])
global_batch_size = per_worker_batch_size * num_workers

num_epochs = 3
num_steps_per_epoch = 10   # (the tutorial: 70)

# Checkpoint saving and restoring
def _is_chief(task_type, task_id, cluster_spec):
  return (task_type is None
          or task_type == 'chief'
          or (task_type == 'worker'
              and task_id == 0
              and 'chief' not in cluster_spec.as_dict()))

def _get_temp_dir(dirpath, task_id):
  base_dirpath = 'workertemp_' + str(task_id)
  temp_dir = os.path.join(dirpath, base_dirpath)
  tf.io.gfile.makedirs(temp_dir)
  return temp_dir

def write_filepath(filepath, task_type, task_id, cluster_spec):
  dirpath = os.path.dirname(filepath)
  base = os.path.basename(filepath)
  if not _is_chief(task_type, task_id, cluster_spec):
    dirpath = _get_temp_dir(dirpath, task_id)
  return os.path.join(dirpath, base)

checkpoint_dir = os.path.join(util.get_temp_dir(), 'ckpt')

# Define Strategy
strategy = tf.distribute.MultiWorkerMirroredStrategy()

with strategy.scope():
  # Model building/compiling need to be within `strategy.scope()`.
  multi_worker_model = build_cnn_model()

  multi_worker_dataset = strategy.distribute_datasets_from_function(
      lambda input_context: dataset_fn(global_batch_size, input_context))
  optimizer = tf.keras.optimizers.RMSprop(learning_rate=0.001)
  train_accuracy = tf.keras.metrics.SparseCategoricalAccuracy(
      name='train_accuracy')

@tf.function
def train_step(iterator):
  """Training step function."""

  def step_fn(inputs):
    """Per-Replica step function."""
    x, y = inputs
    with tf.GradientTape() as tape:
      predictions = multi_worker_model(x, training=True)
      per_batch_loss = tf.keras.losses.SparseCategoricalCrossentropy(
          from_logits=True,
          reduction=tf.keras.losses.Reduction.NONE)(y, predictions)
      loss = tf.nn.compute_average_loss(
          per_batch_loss, global_batch_size=global_batch_size)

    grads = tape.gradient(loss, multi_worker_model.trainable_variables)
    optimizer.apply_gradients(
        zip(grads, multi_worker_model.trainable_variables))
    train_accuracy.update_state(y, predictions)

    return loss

  per_replica_losses = strategy.run(step_fn, args=(next(iterator),))
  return strategy.reduce(
      tf.distribute.ReduceOp.SUM, per_replica_losses, axis=None)

epoch = tf.Variable(
    initial_value=tf.constant(0, dtype=tf.dtypes.int64), name='epoch')
step_in_epoch = tf.Variable(
    initial_value=tf.constant(0, dtype=tf.dtypes.int64),
    name='step_in_epoch')

task_type, task_id, cluster_spec = (strategy.cluster_resolver.task_type,
                                    strategy.cluster_resolver.task_id,
                                    strategy.cluster_resolver.cluster_spec())

checkpoint = tf.train.Checkpoint(
    model=multi_worker_model, epoch=epoch, step_in_epoch=step_in_epoch)

write_checkpoint_dir = write_filepath(checkpoint_dir, task_type, task_id,
                                      cluster_spec)
checkpoint_manager = tf.train.CheckpointManager(
    checkpoint, directory=write_checkpoint_dir, max_to_keep=1)

# Restoring the checkpoint
latest_checkpoint = tf.train.latest_checkpoint(checkpoint_dir)
if latest_checkpoint:
  checkpoint.restore(latest_checkpoint)

# Resume our CTL training
while epoch.numpy() < num_epochs:
  iterator = iter(multi_worker_dataset)
  total_loss = 0.0
  num_batches = 0

  while step_in_epoch.numpy() < num_steps_per_epoch:
    total_loss += train_step(iterator)
    num_batches += 1
    step_in_epoch.assign_add(1)

  train_loss = total_loss / num_batches
  print('Epoch: %d, accuracy: %f, train_loss: %f.'
                %(epoch.numpy(), train_accuracy.result(), train_loss))

  train_accuracy.reset_state()   # (the tutorial: reset_states(), gone in Keras 3; see the header)

  checkpoint_manager.save()
  if not _is_chief(task_type, task_id, cluster_spec):
    tf.io.gfile.rmtree(write_checkpoint_dir)

  epoch.assign_add(1)
  step_in_epoch.assign(0)
