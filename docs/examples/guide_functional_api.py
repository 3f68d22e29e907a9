# Source: Keras guide "The Functional API" (keras.io/guides/functional_api; keras-team/keras-io,
#   guides/functional_api.py), as TF 2.21's tf.keras (Keras 3.15) runs it.
#
# Documented output: none that can be compared (MNIST and CIFAR10 downloads, random weights,
#   progress bars); the summaries' shapes and parameter counts are printed here as counts.
# Changes from the guide, so that both backends compute the same numbers:
#   - `from _backend import tf` and `keras = tf.keras`, `layers = keras.layers`;
#   - synthetic data of the guide's shapes from one seeded NumPy generator (64 MNIST-shaped images
#     instead of 60000; 16 CIFAR10-shaped images; 32 tickets), initial weights set from it
#     (`set_weights`), `fit(verbose=0, shuffle=False)`, one or two epochs, the History printed;
#   - the ticket model's text encoders are `Embedding` + `GlobalAveragePooling1D` instead of
#     `LSTM` (recurrent layers are not part of this example), and the shared-layer example's
#     `Embedding(1000, 128)` is called on two inputs exactly as in the guide;
#   - the toy ResNet is evaluated, not fitted (its Dropout's masks are each backend's own random stream);
#   - `keras.utils.plot_model` and `keras.applications.VGG19` are left out (no graphviz, no download).
# Everything else is the guide's code: the MNIST MLP (compile with SparseCategoricalCrossentropy,
#   RMSprop, fit with validation_split, evaluate), models as layers (the encoder and the
#   autoencoder, a model called inside another), the ensembling of three models, the
#   multi-input multi-output ticket model with loss dicts and loss_weights, the toy ResNet with
#   `layers.add`, and shared layers.
# Clauses: keras.model.call.
from _backend import tf, B

import numpy as np

keras = tf.keras
layers = keras.layers
rng = np.random.default_rng(0)


def seeded(model):
  model.set_weights([rng.standard_normal(w.shape).astype("float32") * 0.1 for w in model.get_weights()])
  return model


def show(history):
  for k in sorted(history.history):
    print(f"  {k}", [f"{v:.4f}" for v in history.history[k]])


print("1. Training, evaluation, and inference")
inputs = keras.Input(shape=(784,))
dense = layers.Dense(64, activation="relu")
x = dense(inputs)
x = layers.Dense(64, activation="relu")(x)
outputs = layers.Dense(10)(x)
model = seeded(keras.Model(inputs=inputs, outputs=outputs, name="mnist_model"))
print("  ", model.name, "params:", model.count_params(), "layers:", [layer.name for layer in model.layers])

x_train = rng.random((64, 784)).astype("float32")
y_train = rng.integers(0, 10, 64)
x_test, y_test = x_train[:16], y_train[:16]
model.compile(
    loss=keras.losses.SparseCategoricalCrossentropy(from_logits=True),
    optimizer=keras.optimizers.RMSprop(),
    metrics=[keras.metrics.SparseCategoricalAccuracy()],
)
history = model.fit(x_train, y_train, batch_size=16, epochs=2, validation_split=0.25, verbose=0, shuffle=False)
show(history)
test_scores = model.evaluate(x_test, y_test, verbose=0)
print("  Test loss: %.4f" % test_scores[0])
print("  Test accuracy: %.4f" % test_scores[1])

print("2. All models are callable, just like layers")
encoder_input = keras.Input(shape=(28, 28, 1), name="original_img")
x = layers.Conv2D(16, 3, activation="relu")(encoder_input)
x = layers.Conv2D(32, 3, activation="relu")(x)
x = layers.MaxPooling2D(3)(x)
x = layers.Conv2D(32, 3, activation="relu")(x)
x = layers.Conv2D(16, 3, activation="relu")(x)
encoder_output = layers.GlobalMaxPooling2D()(x)
encoder = keras.Model(encoder_input, encoder_output, name="encoder")

decoder_input = keras.Input(shape=(16,), name="encoded_img")
x = layers.Reshape((4, 4, 1))(decoder_input)
x = layers.UpSampling2D(7)(x)
decoder_output = layers.Conv2D(1, 3, padding="same", activation="relu")(x)
decoder = keras.Model(decoder_input, decoder_output, name="decoder")

autoencoder_input = keras.Input(shape=(28, 28, 1), name="img")
encoded_img = encoder(autoencoder_input)
decoded_img = decoder(encoded_img)
autoencoder = seeded(keras.Model(autoencoder_input, decoded_img, name="autoencoder"))
print("  ", autoencoder.name, "output:", autoencoder.output_shape, "params:", autoencoder.count_params(),
      "layers:", [layer.name for layer in autoencoder.layers])
images = rng.random((4, 28, 28, 1)).astype("float32")
print("  encoded sum: %.4f" % float(np.sum(encoder(images))), "decoded shape:", tuple(autoencoder(images).shape))


def get_model():
  inputs = keras.Input(shape=(128,))
  outputs = layers.Dense(1)(inputs)
  return seeded(keras.Model(inputs, outputs))


model1 = get_model()
model2 = get_model()
model3 = get_model()

inputs = keras.Input(shape=(128,))
y1 = model1(inputs)
y2 = model2(inputs)
y3 = model3(inputs)
outputs = layers.average([y1, y2, y3])
ensemble_model = keras.Model(inputs=inputs, outputs=outputs)
print("  ensemble:", [f"{v:.4f}" for v in np.ravel(ensemble_model(rng.random((3, 128)).astype("float32")))])

print("3. Models with multiple inputs and outputs")
num_tags = 12  # Number of unique issue tags
num_words = 10000  # Size of vocabulary obtained when preprocessing text data
num_departments = 4  # Number of departments for predictions

title_input = keras.Input(shape=(None,), name="title")  # Variable-length sequence of ints
body_input = keras.Input(shape=(None,), name="body")  # Variable-length sequence of ints
tags_input = keras.Input(shape=(num_tags,), name="tags")  # Binary vectors of size `num_tags`

# Embed each word in the title into a 64-dimensional vector
title_features = layers.Embedding(num_words, 64)(title_input)
# Embed each word in the text into a 64-dimensional vector
body_features = layers.Embedding(num_words, 64)(body_input)

# Reduce sequence of embedded words in the title into a single vector (the guide: LSTM(128))
title_features = layers.GlobalAveragePooling1D()(title_features)
# Reduce sequence of embedded words in the body into a single vector (the guide: LSTM(32))
body_features = layers.GlobalAveragePooling1D()(body_features)

# Merge all available features into a single large vector via concatenation
x = layers.concatenate([title_features, body_features, tags_input])

# Stick a logistic regression for priority prediction on top of the features
priority_pred = layers.Dense(1, name="priority")(x)
# Stick a department classifier on top of the features
department_pred = layers.Dense(num_departments, name="department")(x)

# Instantiate an end-to-end model predicting both priority and department
model = seeded(keras.Model(
    inputs=[title_input, body_input, tags_input],
    outputs={"priority": priority_pred, "department": department_pred},
))
print("  params:", model.count_params(), "outputs:", model.output_names)
model.compile(
    optimizer=keras.optimizers.RMSprop(1e-3),
    loss={
        "priority": keras.losses.BinaryCrossentropy(from_logits=True),
        "department": keras.losses.CategoricalCrossentropy(from_logits=True),
    },
    loss_weights={"priority": 1.0, "department": 0.2},
)

# Dummy input data
title_data = rng.integers(0, num_words, size=(32, 10))
body_data = rng.integers(0, num_words, size=(32, 100))
tags_data = rng.integers(0, 2, size=(32, num_tags)).astype("float32")

# Dummy target data
priority_targets = rng.random(size=(32, 1))
dept_targets = rng.integers(0, 2, size=(32, num_departments))

show(model.fit(
    {"title": title_data, "body": body_data, "tags": tags_data},
    {"priority": priority_targets, "department": dept_targets},
    epochs=2,
    batch_size=8,
    verbose=0, shuffle=False,
))

print("4. A toy ResNet model")
inputs = keras.Input(shape=(32, 32, 3), name="img")
x = layers.Conv2D(32, 3, activation="relu")(inputs)
x = layers.Conv2D(64, 3, activation="relu")(x)
block_1_output = layers.MaxPooling2D(3)(x)

x = layers.Conv2D(64, 3, activation="relu", padding="same")(block_1_output)
x = layers.Conv2D(64, 3, activation="relu", padding="same")(x)
block_2_output = layers.add([x, block_1_output])

x = layers.Conv2D(64, 3, activation="relu", padding="same")(block_2_output)
x = layers.Conv2D(64, 3, activation="relu", padding="same")(x)
block_3_output = layers.add([x, block_2_output])

x = layers.Conv2D(64, 3, activation="relu")(block_3_output)
x = layers.GlobalAveragePooling2D()(x)
x = layers.Dense(256, activation="relu")(x)
x = layers.Dropout(0.5)(x)
outputs = layers.Dense(10)(x)

model = keras.Model(inputs, outputs, name="toy_resnet")
model.set_weights([rng.standard_normal(w.shape).astype("float32") * 0.05 for w in model.get_weights()])
print("  ", model.name, "params:", model.count_params())
x_train = rng.random((16, 32, 32, 3)).astype("float32")
y_train = keras.utils.to_categorical(rng.integers(0, 10, 16), 10)
model.compile(
    optimizer=keras.optimizers.RMSprop(1e-3),
    loss=keras.losses.CategoricalCrossentropy(from_logits=True),
    metrics=["acc"],
)
# the guide fits it for one epoch: Dropout's masks are each backend's own random stream, so here it
# is evaluated (Dropout inactive) instead
print("  evaluate: %.4f" % model.evaluate(x_train, y_train, verbose=0)[0])

print("5. Shared layers")
# Embedding for 1000 unique words mapped to 128-dimensional vectors
shared_embedding = layers.Embedding(1000, 128)

# Variable-length sequence of integers
text_input_a = keras.Input(shape=(None,), dtype="int32")

# Variable-length sequence of integers
text_input_b = keras.Input(shape=(None,), dtype="int32")

# Reuse the same layer to encode both inputs
encoded_input_a = shared_embedding(text_input_a)
encoded_input_b = shared_embedding(text_input_b)
shared = seeded(keras.Model([text_input_a, text_input_b], [encoded_input_a, encoded_input_b]))
a, b = shared([np.array([[1, 2, 3]]), np.array([[3, 2, 1]])])
print("  shared weights:", len(shared.weights), "same vectors:", bool(np.array_equal(np.asarray(a)[0, 2], np.asarray(b)[0, 0])))
