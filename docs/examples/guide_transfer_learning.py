# Source: Keras guide "Transfer learning & fine-tuning" (keras.io/guides/transfer_learning;
#   keras-team/keras-io, guides/transfer_learning.py), as TF 2.21's tf.keras (Keras 3.15) runs it.
#
# Documented output: the weight counts of the "trainable" sections (the same here); the training
#   runs are not comparable (downloaded Xception weights and cats-vs-dogs images, progress bars).
# Changes from the guide, so that both backends compute the same numbers:
#   - `from _backend import tf` and `keras = tf.keras`, `layers = keras.layers`;
#   - the pre-trained base is a small convolutional model with BatchNormalization (Conv2D,
#     BatchNormalization, ReLU, GlobalAveragePooling2D inside a functional model), "pre-trained"
#     for one epoch on synthetic data, instead of `keras.applications.Xception(weights="imagenet")`
#     (a download); synthetic 32x32x3 images of two classes from one seeded NumPy generator instead of
#     cats_vs_dogs; no data augmentation (random) and Dropout(0.2) kept at rate 0 for the same reason;
#   - `fit(verbose=0, shuffle=False)`, 2 epochs each, the History printed.
# What the guide says and TF 2.21 + Keras 3.15 does not: "the batchnorm layers will not update their
#   batch statistics" after `base_model.trainable = True`. They do: Keras 3.15's Functional.call
#   passes the `training=True` of `fit` to every layer that takes `training`, over the
#   `training=False` recorded when the base was called (functional.py operation_fn), so the
#   unfrozen BatchNormalization trains in training mode and updates its moving statistics
#   ("moving statistics unchanged: False" below; simdist does the same, clause
#   keras.functional.training-override). While the base is frozen its BatchNormalization runs in
#   inference mode whatever `training` says (Keras: `training and self.trainable`).
# Everything else is the guide's code: `trainable` on a Dense and on a BatchNormalization layer,
#   trainable weights becoming non-trainable, `trainable` set recursively on a nested model, the
#   frozen base called with `training=False` (its BatchNormalization stays in inference mode and its
#   moving statistics do not change), and fine-tuning after `base_model.trainable = True` with a
#   recompile and a low learning rate (the BatchNormalization still in inference mode).
# Clauses: keras.functional.training-override, keras.model.call.
from _backend import tf, B

import numpy as np

keras = tf.keras
layers = keras.layers
rng = np.random.default_rng(0)


def r(a):
  return [f"{v:.4f}" for v in np.ravel(np.asarray(a))]


print("1. Layers & models have three weight attributes")
layer = keras.layers.Dense(3)
layer.build((None, 4))  # Create the weights

print("   weights:", len(layer.weights))
print("   trainable_weights:", len(layer.trainable_weights))
print("   non_trainable_weights:", len(layer.non_trainable_weights))

layer = keras.layers.BatchNormalization()
layer.build((None, 4))  # Create the weights

print("   weights:", len(layer.weights))
print("   trainable_weights:", len(layer.trainable_weights))
print("   non_trainable_weights:", len(layer.non_trainable_weights))

print("2. Set layer.trainable to False to freeze it")
layer = keras.layers.Dense(3)
layer.build((None, 4))  # Create the weights
layer.trainable = False  # Freeze the layer

print("   weights:", len(layer.weights))
print("   trainable_weights:", len(layer.trainable_weights))
print("   non_trainable_weights:", len(layer.non_trainable_weights))

# Make a model with 2 layers
layer1 = keras.layers.Dense(3, activation="relu")
layer2 = keras.layers.Dense(3, activation="sigmoid")
model = keras.Sequential([keras.Input(shape=(3,)), layer1, layer2])
model.set_weights([rng.standard_normal(w.shape).astype("float32") for w in model.get_weights()])

# Freeze the first layer
layer1.trainable = False

# Keep a copy of the weights of layer1 for later reference
initial_layer1_weights_values = layer1.get_weights()

# Train the model
model.compile(optimizer="adam", loss="mse")
model.fit(rng.random((2, 3)), rng.random((2, 3)), verbose=0)

# Check that the weights of layer1 have not changed during training
final_layer1_weights_values = layer1.get_weights()
np.testing.assert_allclose(initial_layer1_weights_values[0], final_layer1_weights_values[0])
np.testing.assert_allclose(initial_layer1_weights_values[1], final_layer1_weights_values[1])
print("   layer2 kernel after one step:", r(layer2.get_weights()[0])[:3])

print("3. Recursive setting of the trainable attribute")
inner_model = keras.Sequential(
    [
        keras.Input(shape=(3,)),
        keras.layers.Dense(3, activation="relu"),
        keras.layers.Dense(3, activation="relu"),
    ]
)

model = keras.Sequential(
    [
        keras.Input(shape=(3,)),
        inner_model,
        keras.layers.Dense(3, activation="sigmoid"),
    ]
)

model.trainable = False  # Freeze the outer model

assert inner_model.trainable == False  # All layers in `model` are now frozen
assert inner_model.layers[0].trainable == False  # `trainable` is propagated recursively
print("   frozen:", inner_model.trainable, inner_model.layers[0].trainable, len(model.trainable_weights))

print("4. The typical transfer-learning workflow")


def make_base():
  inputs = keras.Input(shape=(32, 32, 3))
  x = layers.Conv2D(8, 3, use_bias=False)(inputs)
  x = layers.BatchNormalization()(x)
  x = layers.ReLU()(x)
  x = layers.Conv2D(8, 3, strides=2)(x)
  x = layers.BatchNormalization()(x)
  x = layers.ReLU()(x)
  return keras.Model(inputs, x, name="base")


images = rng.random((32, 32, 32, 3)).astype("float32")
labels = rng.integers(0, 2, (32, 1)).astype("float32")
templates = rng.random((2, 32, 32, 3)).astype("float32")
images = (0.5 * images + 0.5 * templates[labels[:, 0].astype(int)]).astype("float32")

# "pre-train" the base on another task (the guide downloads Xception's ImageNet weights)
base_model = make_base()
base_model.set_weights([rng.standard_normal(w.shape).astype("float32") * 0.2 if w.ndim > 1 else w
                        for w in base_model.get_weights()])
pretrain = keras.Sequential([base_model, layers.GlobalAveragePooling2D(), layers.Dense(4)])
pretrain.compile(optimizer=keras.optimizers.SGD(1e-4),
                 loss=keras.losses.SparseCategoricalCrossentropy(from_logits=True))
pretrain.fit(images, rng.integers(0, 4, 32), batch_size=8, epochs=1, verbose=0, shuffle=False)

# Freeze the base_model
base_model.trainable = False
moving_before = [w.copy() for w in base_model.get_weights()]
bn = base_model.layers[2]
bn_stats_before = [np.asarray(bn.moving_mean).copy(), np.asarray(bn.moving_variance).copy()]

# Create new model on top
inputs = keras.Input(shape=(32, 32, 3))
# The base model contains batchnorm layers. We want to keep them in inference mode
# when we unfreeze the base model for fine-tuning, so we make sure that the
# base_model is running in inference mode here.
x = base_model(inputs, training=False)
x = keras.layers.GlobalAveragePooling2D()(x)
x = keras.layers.Dropout(0.0)(x)  # Regularize with dropout (the guide: 0.2; see the header)
outputs = keras.layers.Dense(1)(x)
model = keras.Model(inputs, outputs)
model.layers[-1].set_weights([rng.standard_normal((8, 1)).astype("float32") * 0.1, np.zeros(1, "float32")])
print("   trainable weights:", len(model.trainable_weights), "non-trainable:", len(model.non_trainable_weights))

model.compile(
    optimizer=keras.optimizers.Adam(),
    loss=keras.losses.BinaryCrossentropy(from_logits=True),
    metrics=[keras.metrics.BinaryAccuracy()],
)
history = model.fit(images, labels, batch_size=8, epochs=2, verbose=0, shuffle=False)
for k in sorted(history.history):
  print(f"   {k}", r(history.history[k]))
print("   base unchanged (moving statistics included):",
      all(np.array_equal(a, b) for a, b in zip(moving_before, base_model.get_weights())))

print("5. Fine-tuning")
# Unfreeze the base_model. Note that it keeps running in inference mode
# since we passed `training=False` when calling it. This means that
# the batchnorm layers will not update their batch statistics.
# This prevents the batchnorm layers from undoing all the training
# we've done so far.
base_model.trainable = True
print("   trainable weights:", len(model.trainable_weights), "non-trainable:", len(model.non_trainable_weights))

model.compile(
    optimizer=keras.optimizers.Adam(1e-5),  # Low learning rate
    loss=keras.losses.BinaryCrossentropy(from_logits=True),
    metrics=[keras.metrics.BinaryAccuracy()],
)
history = model.fit(images, labels, batch_size=8, epochs=2, verbose=0, shuffle=False)
for k in sorted(history.history):
  print(f"   {k}", r(history.history[k]))
after = base_model.get_weights()
print("   moving statistics unchanged:",
      all(np.array_equal(np.asarray(v), b) for v, b in zip([bn.moving_mean, bn.moving_variance], bn_stats_before)),
      "kernels changed:", not np.array_equal(after[0], moving_before[0]))
print("   predictions:", [f"{v:.4f}" for v in np.ravel(model.predict(images[:4], verbose=0))])
