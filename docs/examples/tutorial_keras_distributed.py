# Source: TF tutorial "Distributed training with Keras"
#   (tensorflow.org/tutorials/distribute/keras; tensorflow/docs,
#   site/en/tutorials/distribute/keras.ipynb): model.fit under MirroredStrategy.
#
# Documented output: none that can be compared (MNIST downloaded with TensorFlow Datasets, random
#   initial weights, Keras's progress bars with wall-clock times).
# Changes from the tutorial, so that both backends compute the same numbers:
#   - in-memory synthetic data of MNIST's shapes (28x28x1 images in [0, 1], 10 classes; a noisy
#     pattern per class), 512 training and 128 test images, instead of tfds; no `.shuffle`
#     (an unseeded shuffle's order is the backend's own) and no `.cache()`; 3 epochs instead of 12;
#   - two named replicas (the tutorial's `MirroredStrategy()` auto-detects the GPUs);
#   - the model's initial weights are set from one seeded NumPy generator (`set_weights`);
#   - no TensorBoard callback, `fit(verbose=0)`, and the History printed instead of the progress
#     bars (they hold wall-clock times);
#   - the checkpoint file name ends in `.weights.h5`: Keras 3 refuses `save_weights_only=True` with
#     the tutorial's "ckpt_{epoch}" ("the filepath provided must end in `.weights.h5`"), and
#     `load_weights` takes that file (Keras 3 reads no TF checkpoint prefix); the SavedModel export
#     at the end of the tutorial is left out.
# Clauses: keras.model.strategy-capture, keras.compile.scope, keras.fit.enters-scope (the model made in the
#   scope captures the strategy; compile and fit enter its scope), keras.fit.callbacks, keras.fit.data.
from _backend import tf, B

import os
import tempfile

import numpy as np

B.setup(gpus=2)

rng = np.random.default_rng(0)
templates = rng.random((10, 28, 28, 1), dtype=np.float32)


def make_images(n):
  labels = rng.integers(0, 10, n).astype(np.int64)
  noise = rng.random((n, 28, 28, 1), dtype=np.float32)
  return (0.5 * templates[labels] + 0.5 * noise).astype(np.float32), labels


(train_images, train_labels), (test_images, test_labels) = make_images(512), make_images(128)

strategy = tf.distribute.MirroredStrategy(B.devices("GPU:0", "GPU:1"))
print('Number of devices: {}'.format(strategy.num_replicas_in_sync))

BUFFER_SIZE = 10000
BATCH_SIZE_PER_REPLICA = 64
BATCH_SIZE = BATCH_SIZE_PER_REPLICA * strategy.num_replicas_in_sync

train_dataset = tf.data.Dataset.from_tensor_slices((train_images, train_labels)).batch(BATCH_SIZE)
eval_dataset = tf.data.Dataset.from_tensor_slices((test_images, test_labels)).batch(BATCH_SIZE)

with strategy.scope():
  model = tf.keras.Sequential([
      tf.keras.layers.Conv2D(32, 3, activation='relu', input_shape=(28, 28, 1)),
      tf.keras.layers.MaxPooling2D(),
      tf.keras.layers.Flatten(),
      tf.keras.layers.Dense(64, activation='relu'),
      tf.keras.layers.Dense(10)
  ])
  w_rng = np.random.default_rng(1)   # (not in the tutorial) the same initial weights on both backends
  model.set_weights([(w_rng.standard_normal(w.shape) * 0.05).astype(np.float32) for w in model.get_weights()])

  model.compile(loss=tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True),
                optimizer=tf.keras.optimizers.Adam(),
                metrics=['accuracy'])

# Define the checkpoint directory to store the checkpoints.
checkpoint_dir = tempfile.mkdtemp()
# Define the name of the checkpoint files.
checkpoint_prefix = os.path.join(checkpoint_dir, "ckpt_{epoch}.weights.h5")


# Define a function for decaying the learning rate.
def decay(epoch):
  if epoch < 1:
    return 1e-3
  elif epoch >= 1 and epoch < 2:
    return 1e-4
  else:
    return 1e-5


# Define a callback for printing the learning rate at the end of each epoch.
class PrintLR(tf.keras.callbacks.Callback):
  def on_epoch_end(self, epoch, logs=None):
    print('\nLearning rate for epoch {} is {}'.format(epoch + 1, model.optimizer.learning_rate.numpy()))


callbacks = [
    tf.keras.callbacks.ModelCheckpoint(filepath=checkpoint_prefix,
                                       save_weights_only=True),
    tf.keras.callbacks.LearningRateScheduler(decay),
    PrintLR()
]

EPOCHS = 3

history = model.fit(train_dataset, epochs=EPOCHS, callbacks=callbacks, verbose=0)
for key in sorted(history.history):
  print(key, ["%.4g" % v for v in history.history[key]])
print("checkpoints:", sorted(os.listdir(checkpoint_dir)))

model.load_weights(os.path.join(checkpoint_dir, "ckpt_{}.weights.h5".format(EPOCHS)))

eval_loss, eval_acc = model.evaluate(eval_dataset, verbose=0)

print('Eval loss: {:.4f}, Eval accuracy: {:.4f}'.format(eval_loss, eval_acc))
