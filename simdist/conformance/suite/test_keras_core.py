"""Keras's core on a backend — clauses keras.variable, keras.layer.*, keras.init.*, keras.model.*
(TF 2.21 + Keras 3.15).

Expected values come from NumPy references written here or from Keras 3.15's documented
rules (names, paths, orders); the one expected text (a summary) was observed on TF 2.21 with
Keras 3.15.1 and is quoted.
"""

from __future__ import annotations

import os
import tempfile

import numpy as np
import pytest

from simdist.conformance.assertions import assert_close, assert_equal, assert_true, assert_type_name, raises

clause = pytest.mark.clause


def _set(layer_or_model, seed: int) -> list:
    rng = np.random.default_rng(seed)
    ws = [(rng.standard_normal(tuple(w.shape)) * 0.5).astype("float32") for w in layer_or_model.weights]
    layer_or_model.set_weights(ws)
    return ws


@clause("keras.variable", ref="tf221")
def test_keras_variable_wraps_a_tf_variable(tf, keras):
    v = keras.Variable(np.zeros(3), name="v")
    assert_equal(v.dtype, "float64", call="keras.Variable(np.zeros(3))", what="dtype")
    assert_type_name(v.value, "Variable", call="keras.Variable(...)", what="v.value")
    assert_equal(v.value.name, "v:0", call="keras.Variable(..., name='v')", what="v.value.name")
    layer = keras.layers.Dense(2, kernel_initializer="ones")
    x = tf.constant([[1.0, 2.0, 3.0]])
    with tf.GradientTape() as tape:
        y = tf.reduce_sum(layer(x))
    gk, gb = tape.gradient(y, layer.trainable_variables)
    assert_close(gk, np.repeat([[1.0], [2.0], [3.0]], 2, axis=1), call="tape.gradient(y, trainable_variables)",
                 what="kernel gradient")
    assert_close(gb, [1.0, 1.0], call="tape.gradient(y, trainable_variables)", what="bias gradient")
    with tf.GradientTape() as tape:
        with raises(ValueError, match="not tf.Tensor or tf.Variable", call="tape.watch(keras_variable)"):
            tape.watch(v)


@clause("keras.layer.naming", ref="tf221")
def test_names_and_paths(keras):
    a, b = keras.layers.Dense(2), keras.layers.Dense(2)
    assert_equal((a.name, b.name), ("dense", "dense_1"), call="Dense(2), Dense(2)", what="names")
    keras.Sequential([keras.Input((3,)), a])
    assert_equal(a.kernel.path, "sequential/dense/kernel", call="Sequential([Input, Dense])", what="kernel.path")
    b.build((None, 3))
    assert_equal(b.bias.path, "dense_1/bias", call="Dense.build alone", what="bias.path")


@clause("keras.layer.tracking", ref="tf221")
def test_tracked_weights_order_and_lock(keras):
    class Block(keras.layers.Layer):
        def __init__(self):
            super().__init__()
            self.parts = [keras.layers.Dense(3), keras.layers.Dense(2)]

        def build(self, input_shape):
            self.scale = self.add_weight(shape=(), initializer="ones", name="scale")
            self.steps = self.add_weight(shape=(), initializer="zeros", trainable=False, name="steps")

        def call(self, x):
            for p in self.parts:
                x = p(x)
            return x * self.scale

    block = Block()
    block(np.ones((2, 4), np.float32))
    assert_equal([w.name for w in block.weights], ["scale", "steps", "kernel", "bias", "kernel", "bias"],
                 call="Block()(x)", what="[w.name for w in weights]")
    assert_equal([w.name for w in block.non_trainable_weights], ["steps"], call="Block()(x)",
                 what="non_trainable_weights")
    with raises(ValueError, match="You cannot add new elements of state", call="add_weight after build"):
        block.add_weight(shape=(1,), name="late")


@clause("keras.layer.call", ref="tf221")
def test_training_propagation_and_autocast(tf, keras):
    seen = []

    class Probe(keras.layers.Layer):
        def call(self, x, training=None):
            seen.append(training)
            return x

    class Outer(keras.layers.Layer):
        def __init__(self):
            super().__init__()
            self.inner = Probe()

        def call(self, x):
            return self.inner(x)

    outer = Outer()
    outer(np.ones((1, 2), np.float32), training=True)
    outer(np.ones((1, 2), np.float32))
    # (the first call builds Outer by running its call once before the real call, without `training`)
    assert_equal(seen, [None, True, None], call="Outer()(x, training=True); Outer()(x)",
                 what="training seen inside")
    y = keras.layers.Dense(2)(np.ones((1, 3), np.float64))
    assert_equal(y.dtype.name, "float32", call="Dense(2)(float64 input)", what="output dtype")
    with raises(ValueError, match="Only input tensors may be passed as positional arguments",
                call="Dense(2)(x, 3)"):
        keras.layers.Dense(2)(np.ones((1, 3), np.float32), 3)


@clause("keras.layer.forward-and-gradients", ref="tf221")
def test_core_layers_compute_numpy_references(tf, keras):
    rng = np.random.default_rng(0)
    x = rng.standard_normal((4, 3)).astype("float32")
    dense = keras.layers.Dense(5, activation="relu")
    dense.build((None, 3))
    k, b = _set(dense, 1)
    assert_close(dense(x), np.maximum(x @ k + b, 0), call="Dense(5, relu)(x)")
    emb = keras.layers.Embedding(6, 2)
    ids = np.array([[0, 5], [5, -1]], np.int32)
    emb.build(None)
    (table,) = _set(emb, 2)
    with tf.GradientTape() as tape:
        out = emb(ids)
        loss = tf.reduce_sum(out * 2.0)
    assert_close(out, table[np.where(ids < 0, ids + 6, ids)], call="Embedding(6, 2)(ids)")
    grad = tape.gradient(loss, emb.trainable_variables)[0]
    assert_type_name(grad, "IndexedSlices", call="tape.gradient(embedding output)", what="gradient")
    dense_grad = np.zeros((6, 2), np.float32)
    for i in np.where(ids < 0, ids + 6, ids).ravel():
        dense_grad[i] += 2.0
    assert_close(tf.convert_to_tensor(grad), dense_grad, call="Embedding gradient", what="dense value")
    a, c = rng.standard_normal((2, 3)).astype("float32"), rng.standard_normal((2, 1, 3)).astype("float32")
    assert_close(keras.layers.Add()([a, c]), a[:, None, :] + c, call="Add()([(2,3), (2,1,3)])")
    assert_close(keras.layers.Concatenate(axis=1)([c, c]), np.concatenate([c, c], 1), call="Concatenate(axis=1)")
    z = rng.standard_normal((2, 3, 2, 2)).astype("float32")
    assert_close(keras.layers.Flatten()(z), z.reshape(2, -1), call="Flatten()")
    assert_close(keras.layers.Flatten(data_format="channels_first")(z), z.transpose(0, 2, 3, 1).reshape(2, -1),
                 call="Flatten(channels_first)")
    assert_close(keras.layers.Reshape((-1, 2))(z), z.reshape(2, -1, 2), call="Reshape((-1, 2))")
    with raises(ValueError, match="A `Concatenate` layer requires inputs with matching shapes",
                call="Concatenate()([(4,3), (5,2,1)])"):
        keras.layers.Concatenate()([np.ones((4, 3), np.float32), np.ones((5, 2, 1), np.float32)])


@clause("keras.layer.dropout", ref="tf221")
def test_dropout_training_only_and_same_mask_on_replicas(backend, tf, keras):
    x = np.arange(1, 201, dtype=np.float32).reshape(10, 20)
    d = keras.layers.Dropout(0.25, seed=11)
    assert_close(d(x), x, call="Dropout(0.25)(x)", what="inference output")
    y = d(x, training=True).numpy()
    kept = y != 0
    assert_close(y[kept], x[kept] / 0.75, call="Dropout(0.25)(x, training=True)", what="kept values")
    assert_true(0.1 < 1 - kept.mean() < 0.4, f"dropped fraction {1 - kept.mean()} far from 0.25",
                call="Dropout(0.25)(x, training=True)")
    strategy = backend.make_strategy("mirrored", 2)
    with strategy.scope():
        dm = keras.layers.Dropout(0.5, seed=1)
    out = strategy.run(lambda t: dm(t, training=True), args=(tf.ones((4, 6)),))
    first, second = (v.numpy() for v in strategy.experimental_local_results(out))
    assert_equal(first, second, call="strategy.run(Dropout(0.5)(x, training=True))", what="replica 1's mask")


@clause("keras.init.names", ref="tf221")
def test_initializer_names(keras):
    for name, cls in (("glorot_uniform", "GlorotUniform"), ("GlorotNormal", "GlorotNormal"),
                      ("he_normal", "HeNormal"), ("zeros", "Zeros"), ("one", "Ones"), ("normal", "RandomNormal"),
                      ("uniform", "RandomUniform")):
        assert_equal(type(keras.initializers.get(name)).__name__, cls, call=f"initializers.get({name!r})",
                     what="class")
    with raises(ValueError, match="Could not interpret initializer identifier", call="initializers.get('nope')"):
        keras.initializers.get("nope")


@clause("keras.init.distributions", ref="tf221")
def test_variance_scaling_laws(keras):
    fan_in, fan_out = 300, 200
    g = np.asarray(keras.initializers.GlorotUniform(seed=1)((fan_in, fan_out)))
    limit = np.sqrt(6 / (fan_in + fan_out))
    assert_true(np.abs(g).max() <= limit, f"GlorotUniform beyond ±{limit}", call="GlorotUniform()((300, 200))")
    assert_true(abs(g.std() - limit / np.sqrt(3)) < 0.03 * limit / np.sqrt(3),
                f"GlorotUniform std {g.std()} vs {limit / np.sqrt(3)}", call="GlorotUniform()((300, 200))")
    h = np.asarray(keras.initializers.HeNormal(seed=2)((fan_in, fan_out)))
    std = np.sqrt(2 / fan_in)
    assert_true(np.abs(h).max() <= 2 * std / 0.87962566103423978 + 1e-6, "HeNormal beyond its truncation",
                call="HeNormal()((300, 200))")
    assert_true(abs(h.std() - std) < 0.03 * std, f"HeNormal std {h.std()} vs {std}", call="HeNormal()((300, 200))")


@clause("keras.init.seeding", ref="tf221")
def test_initializer_repeatability(keras):
    seeded, unseeded, other = (keras.initializers.GlorotUniform(seed=7), keras.initializers.HeNormal(),
                               keras.initializers.HeNormal())
    assert_equal(np.asarray(seeded((5, 4))), np.asarray(seeded((5, 4))), call="GlorotUniform(seed=7) twice")
    assert_equal(np.asarray(unseeded((5, 4))), np.asarray(unseeded((5, 4))), call="HeNormal() twice")
    assert_true(not np.array_equal(np.asarray(unseeded((5, 4))), np.asarray(other((5, 4)))),
                "two unseeded initializers gave the same values", call="HeNormal(), HeNormal()")


def _functional(keras):
    a, b = keras.Input((3,), name="a"), keras.Input((2,), name="b")
    x = keras.layers.Concatenate()([a, b])
    shared = keras.layers.Dense(2)
    y = shared(x)
    z = keras.layers.Add()([y, shared(keras.layers.Dense(5)(x))])
    return keras.Model([a, b], [y, z])


@clause("keras.model.call", ref="tf221")
def test_functional_model_computes_its_graph(keras, tf, onednn_float32):
    model = _functional(keras)
    k2, b2, k1, b1 = _set(model, 3)   # weights order: dense_1 (the deeper Dense(5)), then the shared dense
    rng = np.random.default_rng(4)
    xa, xb = rng.standard_normal((4, 3)).astype("float32"), rng.standard_normal((4, 2)).astype("float32")
    cat = np.concatenate([xa, xb], 1)
    y_ref = cat @ k1 + b1
    z_ref = y_ref + ((cat @ k2 + b2) @ k1 + b1)
    y, z = model([xa, xb])
    assert_close(y, y_ref, call="Model([a, b], [y, z])([xa, xb])", what="y")
    assert_close(z, z_ref, call="Model([a, b], [y, z])([xa, xb])", what="z")
    y2, _ = model({"a": xa, "b": xb})
    assert_close(y2, y_ref, call="model({'a': xa, 'b': xb})", what="y")


@clause("keras.model.weights-order", ref="tf221")
def test_functional_weights_order(keras):
    model = _functional(keras)
    assert_equal([w.path for w in model.weights], ["dense_1/kernel", "dense_1/bias", "dense/kernel", "dense/bias"],
                 call="Model with a shared Dense", what="[w.path for w in weights]")
    assert_equal([l.name for l in model.layers], ["a", "b", "concatenate", "dense_1", "dense", "add"],
                 call="Model with a shared Dense", what="[l.name for l in layers]")


# Observed with TF 2.21 + Keras 3.15.1 (model.summary(line_length=76)).
SUMMARY = """Model: "sequential"
┏━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━┳━━━━━━━━━━━━━━━━━━━━━━━━┳━━━━━━━━━━━━━━━┓
┃ Layer (type)                    ┃ Output Shape           ┃       Param # ┃
┡━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━╇━━━━━━━━━━━━━━━━━━━━━━━━╇━━━━━━━━━━━━━━━┩
│ dense (Dense)                   │ (None, 4)              │            16 │
├─────────────────────────────────┼────────────────────────┼───────────────┤
│ dropout (Dropout)               │ (None, 4)              │             0 │
├─────────────────────────────────┼────────────────────────┼───────────────┤
│ out (Dense)                     │ (None, 2)              │            10 │
└─────────────────────────────────┴────────────────────────┴───────────────┘
 Total params: 26 (104.00 B)
 Trainable params: 26 (104.00 B)
 Non-trainable params: 0 (0.00 B)
"""


@clause("keras.model.summary", ref="tf221")
def test_sequential_summary_text(keras):
    model = keras.Sequential([keras.Input((3,)), keras.layers.Dense(4, activation="relu"), keras.layers.Dropout(0.1),
                              keras.layers.Dense(2, name="out")])
    lines = []
    model.summary(line_length=76, print_fn=lambda s, **kw: lines.append(s))
    assert_equal("".join(lines), SUMMARY, call="model.summary(line_length=76)", what="text")


@clause("keras.model.save-weights", ref="tf221")
def test_save_and_load_weights_round_trip(keras):
    import h5py
    model = keras.Sequential([keras.Input((3,)), keras.layers.Dense(4), keras.layers.Dense(2, name="out")])
    ws = _set(model, 5)
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "m.weights.h5")
        model.save_weights(path)
        with h5py.File(path, "r") as f:
            names = []
            f.visit(names.append)
        assert_equal(sorted(names), ["layers", "layers/dense", "layers/dense/vars", "layers/dense/vars/0",
                                     "layers/dense/vars/1", "layers/dense_1", "layers/dense_1/vars",
                                     "layers/dense_1/vars/0", "layers/dense_1/vars/1", "vars"],
                     call="model.save_weights(path)", what="the file's groups")
        _set(model, 6)
        model.load_weights(path)
        for got, want in zip(model.get_weights(), ws):
            assert_close(got, want, call="model.load_weights(path)", what="weights")
        with raises(ValueError, match=r"The filename must end in `\.weights\.h5`", call="save_weights('m.h5')"):
            model.save_weights(os.path.join(d, "m.h5"))


@clause("keras.model.errors", ref="tf221")
def test_model_misuse_errors(keras):
    model = keras.Sequential([keras.Input((3,)), keras.layers.Dense(4)])
    with raises(ValueError, match="with a weight list of length 1, but the layer was expecting 2 weights",
                call="set_weights([one array])"):
        model.set_weights([np.ones((3, 4), np.float32)])
    with raises(ValueError, match="Only instances of `keras.Layer` can be added", call="Sequential.add('dense')"):
        model.add("dense")
    with raises(ValueError, match="No such layer: nope", call="get_layer('nope')"):
        model.get_layer("nope")


@clause("keras.model.strategy-capture")
def test_model_created_in_scope_captures_the_strategy(backend, tf, keras):
    strategy = backend.make_strategy("mirrored", 2)
    with strategy.scope():
        model = keras.Sequential([keras.Input((3,)), keras.layers.Dense(2)])
    assert_true(model.distribute_strategy is strategy, "model.distribute_strategy is not the strategy of its scope",
                call="Sequential(...) inside strategy.scope()")
    for w in model.weights:
        assert_type_name(w.value, "MirroredVariable", call="Sequential(...) inside MirroredStrategy.scope()",
                         what=f"{w.path}.value")
    outside = keras.Sequential([keras.Input((3,)), keras.layers.Dense(2)])
    assert_true(outside.distribute_strategy is tf.distribute.get_strategy(),
                "a model made outside any scope should have the default strategy", call="Sequential(...)")


@clause("keras.init.seeding", ref="tf221")
def test_set_random_seed_makes_unseeded_objects_draw_from_pythons_random(keras):
    """Keras 3.15: keras.utils.set_random_seed seeds Python's `random`, and an unseeded
    initializer takes `random.randint(1, 1e9)` from it as its seed (make_default_seed): the same
    program after the same call gives the same weights, and consuming Python's `random` between
    the call and the initializer changes them."""
    import random
    shape = (4, 3)
    keras.utils.set_random_seed(3)
    expected_seed = random.randint(1, int(1e9))
    keras.utils.set_random_seed(3)
    unseeded = np.asarray(keras.initializers.HeNormal()(shape))
    assert_equal(unseeded, np.asarray(keras.initializers.HeNormal(seed=expected_seed)(shape)),
                 call="set_random_seed(3); HeNormal()(shape)",
                 what="values (should be HeNormal(seed=random.randint(1, 1e9)) after random.seed(3))")
    keras.utils.set_random_seed(3)
    random.random()
    shifted = np.asarray(keras.initializers.HeNormal()(shape))
    assert_true(not np.array_equal(unseeded, shifted), "an unseeded initializer ignored Python's `random` after "
                "set_random_seed", call="set_random_seed(3); random.random(); HeNormal()(shape)")

    def build_and_fit():
        keras.utils.set_random_seed(11)
        model = keras.Sequential([keras.Input((4,)), keras.layers.Dense(5, activation="relu"),
                                  keras.layers.Dropout(0.5), keras.layers.Dense(1)])
        model.compile(optimizer="sgd", loss="mse")
        x = np.linspace(-1, 1, 40, dtype="float32").reshape(10, 4)
        history = model.fit(x, x.sum(1), batch_size=4, epochs=2, shuffle=True, verbose=0)
        return [np.asarray(w) for w in model.get_weights()], history.history["loss"]

    (w1, h1), (w2, h2) = build_and_fit(), build_and_fit()
    assert_equal(w1, w2, call="set_random_seed(11); Sequential(Dense, Dropout, Dense).fit(shuffle=True), twice",
                 what="trained weights")
    assert_equal(h1, h2, call="the same fit twice", what="loss history")
