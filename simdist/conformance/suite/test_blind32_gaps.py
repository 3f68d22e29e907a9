"""Gaps the thirty-second blind batch of planted training bugs found (issue 29, docs/conformance.md "How strong is
the suite"): rules of the training layer that the suite stated for one spelling, one option value or one input
only, or never (RandomElasticTransform's alpha and sigma on a non-square image, RandomHeight/RandomWidth's draw,
Pipeline's default training, a sublayer popped from a tracked list, an RNN's output mask, the merge layers' dtype
promotion, Sequential's unique names, LearningRateScheduler over a MultiOptimizer, dict loss_weights against
dict outputs in another order, pad_to_cardinality at the target, a namedtuple element of a tf.data function,
a Checkpoint attribute reassigned), so that a wrong implementation of the other case passed (TF 2.21 + Keras 3.15).

Each test checks a class of behaviour, not one planted bug. Every expected value is computed here with NumPy
(a transcription of TF's or Keras 3.15's rule) or is a relation TF's rule implies between two spellings, never
the backend's own implementation of the same rule.
"""

from __future__ import annotations

import numpy as np
import pytest

from simdist.conformance.assertions import assert_equal, to_numpy as _np   # (an ndarray of any backend's value)

clause = pytest.mark.clause


# -- RandomElasticTransform: alpha from the longer side, sigma from the shorter -----------------------------------------
@clause("keras.layer.image-geometric-augment", ref="tf221")
@pytest.mark.parametrize("shape", [(2, 24, 12, 1), (2, 12, 24, 1), (1, 16, 16, 2)])
@pytest.mark.parametrize("seed", [3, 11])
def test_blind32_elastic_transform_scales_alpha_and_sigma_by_the_image_sides(keras, shape, seed):
    """keras.layers.RandomElasticTransform warps the images its transformation selects with
    keras.ops.image.elastic_transform(alpha=max(h, w) * 0.1 * d, sigma=min(h, w) * 0.05 * d), d the drawn distortion
    factor, with the layer's interpolation, fill_mode and fill_value, then clips to value_range (Keras 3.15's
    random_elastic_transform.py); for a tall, a wide and a square image the layer's transform equals that call."""
    images = ((np.arange(int(np.prod(shape))) * 7.0) % 255).astype("float32").reshape(shape)
    layer = keras.layers.RandomElasticTransform(factor=1.0, scale=1.0, seed=1)
    t = dict(layer.get_random_transformation(images, training=True))
    t["apply_transform"] = np.array([True] + [False] * (shape[0] - 1))
    t["seed"] = seed
    got = _np(layer.transform_images(images, t))
    d = t["distortion_factor"]
    h, w = shape[1], shape[2]
    warped = _np(keras.ops.image.elastic_transform(images, alpha=max(h, w) * (0.1 * d), sigma=min(h, w) * (0.05 * d),
                                                   interpolation="bilinear", fill_mode="reflect", fill_value=0.0,
                                                   seed=seed))
    want = np.clip(np.where(t["apply_transform"].reshape(-1, 1, 1, 1), warped, images), 0, 255)
    assert_equal(got.shape, want.shape, call=f"RandomElasticTransform on {shape}", what="shape")
    assert np.allclose(got, want, rtol=1e-5, atol=1e-3), (
        f"RandomElasticTransform on images of shape {shape} (distortion {float(_np(d)):.4f}): expected "
        f"elastic_transform(alpha={max(h, w)} * 0.1 * d, sigma={min(h, w)} * 0.05 * d) on the selected image; the "
        f"largest difference is {float(np.max(np.abs(got - want))):.4f}")


# -- RandomHeight / RandomWidth: the factor is drawn from [1 + lower, 1 + upper) ---------------------------------------
@clause("keras.layer.image-geometric-augment", ref="tf221")
@pytest.mark.parametrize("cls, axis", [("RandomHeight", 1), ("RandomWidth", 2)])
@pytest.mark.parametrize("factor", [0.5, 0.2, (-0.4, 0.3), (0.1, 0.6)])
def test_blind32_random_height_width_draw_from_one_plus_the_bounds(keras, cls, axis, factor):
    """keras.layers.RandomHeight/RandomWidth(factor, seed=s) in training resize the one axis to
    int32(u * size), u the layer's first draw keras.random.uniform((), 1 + lower, 1 + upper) from SeedGenerator(s);
    a number f means the bounds (-f, f) (Keras 3.15's legacy layers), so the layers shrink as well as enlarge."""
    lower, upper = factor if isinstance(factor, tuple) else (-factor, factor)
    size = 10
    got, want = [], []
    for seed in range(8):
        layer = getattr(keras.layers, cls)(factor, seed=seed)
        got.append(int(layer(np.ones((1, size, size, 1), "float32"), training=True).shape[axis]))
        u = _np(keras.random.uniform((), minval=1.0 + lower, maxval=1.0 + upper,
                                     seed=keras.random.SeedGenerator(seed))).astype(np.float32)
        want.append(int(u * np.float32(size)))
    assert_equal(got, want, call=f"keras.layers.{cls}({factor!r}, seed=0..7) on a {size}x{size} image",
                 what="resized sides")


# -- Pipeline: its layers run in training unless told otherwise ---------------------------------------------------------
@clause("keras.layer.pipeline", ref="tf221")
@pytest.mark.parametrize("make", ["Dropout", "GaussianNoise", "GaussianDropout"])
def test_blind32_pipeline_runs_its_layers_in_training_by_default(keras, make):
    """keras.layers.Pipeline.call(inputs, training=True, mask=None): called without `training`, each layer that takes
    one runs in training (Keras 3.15's pipeline.py default), as with training=True; training=False is inference."""
    build = {"Dropout": lambda: keras.layers.Dropout(0.5, seed=3),
             "GaussianNoise": lambda: keras.layers.GaussianNoise(1.0, seed=3),
             "GaussianDropout": lambda: keras.layers.GaussianDropout(0.5, seed=3)}[make]
    x = np.ones((4, 8), "float32")
    default = _np(keras.layers.Pipeline([build()])(x))
    trained = _np(keras.layers.Pipeline([build()])(x, training=True))
    inference = _np(keras.layers.Pipeline([build()])(x, training=False))
    assert not np.array_equal(trained, x), f"Pipeline([{make}])(x, training=True) returned x unchanged"
    assert np.array_equal(default, trained), (
        f"Pipeline([{make}])(x) without training: expected the training output {trained.ravel()[:6].tolist()}..., "
        f"got {default.ravel()[:6].tolist()}...")
    assert np.array_equal(inference, x), f"Pipeline([{make}])(x, training=False) changed x"


# -- a layer's weights follow the sublayers its containers hold ----------------------------------------------------------
@clause("keras.layer.tracking", ref="tf221")
@pytest.mark.parametrize("how", ["list.pop", "list.pop(0)", "list.remove", "dict.pop"])
def test_blind32_removed_sublayers_leave_the_owner_weights(keras, how):
    """A sublayer taken out of a layer's list or dict attribute (pop, remove) after the build is untracked (Keras
    3.15's tracking.py TrackedList/TrackedDict): the owner's weights are then exactly those of the sublayers its
    containers still hold."""
    class Block(keras.layers.Layer):
        def __init__(self):
            super().__init__()
            self.parts = [keras.layers.Dense(2, name="p0"), keras.layers.Dense(3, name="p1")]
            self.named = {"a": keras.layers.Dense(4, name="d0"), "b": keras.layers.Dense(5, name="d1")}

        def call(self, x):
            y = x
            for p in self.parts:
                y = p(y)
            return [y] + [self.named[k](x) for k in sorted(self.named)]

    block = Block()
    block(np.ones((1, 4), "float32"))
    if how == "list.pop":
        block.parts.pop()
    elif how == "list.pop(0)":
        block.parts.pop(0)
    elif how == "list.remove":
        block.parts.remove(block.parts[1])
    else:
        block.named.pop("a")
    held = list(block.parts) + [block.named[k] for k in block.named]
    want = sorted(tuple(int(d) for d in w.shape) for layer in held for w in layer.weights)
    got = sorted(tuple(int(d) for d in w.shape) for w in block.weights)
    assert_equal(got, want, call=f"a built layer's weights after {how}", what="weight shapes")
    assert_equal(len(block.trainable_weights), len(want), call=f"a built layer after {how}",
                 what="len(trainable_weights)")


# -- an RNN's output mask: the input mask with return_sequences, None without -------------------------------------------
@clause("keras.mask.propagation", ref="tf221")
@pytest.mark.parametrize("cls", ["SimpleRNN", "LSTM", "GRU"])
@pytest.mark.parametrize("return_sequences", [False, True])
@pytest.mark.parametrize("return_state", [False, True])
def test_blind32_rnn_output_mask_follows_return_sequences(keras, cls, return_sequences, return_state):
    """keras.layers.RNN.compute_mask(inputs, mask) (Keras 3.15's rnn.py): the input mask when return_sequences, else
    None; with return_state, a list of that and one None per state. The mask a masked call attaches agrees."""
    x = np.ones((2, 3, 4), "float32")
    mask = np.array([[True, True, False], [True, False, False]])
    layer = getattr(keras.layers, cls)(2, return_sequences=return_sequences, return_state=return_state)
    layer.build((2, 3, 4))
    got = layer.compute_mask(x, mask)
    n_states = 2 if cls == "LSTM" else 1
    out_mask = mask if return_sequences else None
    want = [out_mask] + [None] * n_states if return_state else out_mask
    call = f"{cls}(return_sequences={return_sequences}, return_state={return_state}).compute_mask"
    if return_state:
        assert isinstance(got, (list, tuple)) and len(got) == len(want), f"{call}: expected {len(want)} masks, got {got!r}"
        pairs = list(zip(got, want))
    else:
        pairs = [(got, want)]
    for g, w in pairs:
        if w is None:
            assert g is None, f"{call}: expected no mask, got {_np(g).tolist()}"
        else:
            assert g is not None, f"{call}: expected the input mask {w.tolist()}, got None"
            assert_equal(_np(g).tolist(), w.tolist(), call=call, what="mask")


# -- a model's layer names are unique ------------------------------------------------------------------------------------
@clause("keras.model.config", ref="tf221")
@pytest.mark.parametrize("how", ["Sequential([...])", "Sequential.add", "Sequential.add after Input"])
def test_blind32_a_model_refuses_two_layers_of_one_name(keras, how):
    """Two different layers of one name in one Sequential model are ValueError (Keras 3.15's Sequential.add: "should
    have unique names"), whether given to the constructor or added one by one, with or without an Input; distinct
    names build. (A functional Model of two such layers builds on TF 2.21: not a rule of this test.)"""
    def build(second):
        if how == "Sequential([...])":
            return keras.Sequential([keras.layers.Dense(2, name="d"), keras.layers.Dense(3, name=second)])
        model = keras.Sequential([keras.Input((4,))] if how.endswith("Input") else [])
        model.add(keras.layers.Dense(2, name="d"))
        model.add(keras.layers.Dense(3, name=second))
        return model
    assert_equal(len(build("e").layers), 2, call=f"{how} with layers 'd' and 'e'", what="len(layers)")
    with pytest.raises(ValueError):
        build("d")


# -- the merge layers promote their inputs to one dtype ------------------------------------------------------------------
_MERGE = {"Add": lambda a, b: a + b, "Subtract": lambda a, b: a - b, "Multiply": lambda a, b: a * b,
          "Maximum": np.maximum, "Minimum": np.minimum}


@clause("keras.layer.forward-and-gradients", ref="tf221")
@pytest.mark.parametrize("name", sorted(_MERGE))
@pytest.mark.parametrize("dtypes", [("int8", "uint8"), ("uint8", "int16"), ("int16", "uint16"), ("uint8", "uint16")])
def test_blind32_merge_layers_promote_mixed_integer_inputs(keras, name, dtypes):
    """keras.layers.Add/Subtract/Multiply/Maximum/Minimum of two integer inputs of different dtypes compute in their
    Keras result_type (keras.backend.result_type: int8 and uint8 meet in int16), the values those of the exact
    integer arithmetic."""
    a = np.array([[1, 7, 100], [3, 0, 5]], dtypes[0])
    b = np.array([[200, 2, 100], [4, 9, 1]], dtypes[1])
    out = getattr(keras.layers, name)()([a, b])
    want_dtype = keras.backend.result_type(*dtypes)
    got_dtype = out.dtype if isinstance(out.dtype, str) else out.dtype.name
    call = f"keras.layers.{name}()([{dtypes[0]}, {dtypes[1]}])"
    assert_equal(got_dtype, want_dtype, call=call, what="dtype")
    want = _MERGE[name](a.astype(np.int64), b.astype(np.int64)).astype(want_dtype)
    assert_equal(_np(out).tolist(), want.tolist(), call=call, what="values")


# -- LearningRateScheduler sets every optimizer a MultiOptimizer holds ---------------------------------------------------
@clause("optim.multi-optimizer", ref="tf221")
@pytest.mark.parametrize("n_layers", [1, 2, 3])
def test_blind32_lr_scheduler_sets_every_inner_optimizer(keras, n_layers):
    """With a MultiOptimizer, keras.callbacks.LearningRateScheduler sets the learning rate of each of its optimizers
    at each epoch's start (Keras 3.15's learning_rate_scheduler.py loops over `optimizer.optimizers`); after a
    two-epoch fit every inner optimizer holds schedule(1, ...)."""
    keras.utils.set_random_seed(0)
    names = [f"l{i}" for i in range(n_layers)]
    model = keras.Sequential([keras.Input((2,))] + [keras.layers.Dense(2, name=n) for n in names])
    inner = {n: keras.optimizers.SGD(0.1 * (i + 1)) for i, n in enumerate(names)}
    model.compile(optimizer=keras.optimizers.MultiOptimizer(lambda v: inner[v.path.split("/")[-2]]), loss="mse")
    schedule = lambda epoch, lr: 0.01 * (epoch + 3)  # noqa: E731
    model.fit(np.ones((4, 2), np.float32), np.ones((4, 2), np.float32), epochs=2, verbose=0,
              callbacks=[keras.callbacks.LearningRateScheduler(schedule)])
    got = [round(float(_np(inner[n].learning_rate)), 6) for n in names]
    assert_equal(got, [round(float(np.float32(0.04)), 6)] * n_layers,
                 call=f"LearningRateScheduler over a MultiOptimizer of {n_layers} optimizers, two epochs",
                 what="inner learning rates")


# -- dict loss_weights pair with dict outputs by name --------------------------------------------------------------------
@clause("keras.compile.loss-weights", ref="tf221")
@pytest.mark.parametrize("order", [("z", "a", "m"), ("m", "z", "a"), ("a", "m", "z")])
def test_blind32_dict_loss_weights_pair_with_outputs_by_name(keras, order):
    """For a model with dict outputs, compile(loss={...}, loss_weights={...}) weights each output's loss by the weight
    of its own key, whatever the insertion order of the outputs, the losses and the weights (Keras 3.15's
    CompileLoss pairs both by sorted key): the total is sum(w[k] * loss[k])."""
    inp = keras.Input((2,))
    init = {"z": "ones", "a": "zeros", "m": keras.initializers.Constant(0.5)}
    outputs = {k: keras.layers.Dense(1, kernel_initializer=init[k], name=k)(inp) for k in order}
    model = keras.Model(inp, outputs)
    weights = {"z": 1.0, "a": 10.0, "m": 100.0}
    model.compile(loss={k: "mse" for k in reversed(order)}, loss_weights={k: weights[k] for k in order},
                  optimizer="sgd")
    x = np.ones((2, 2), np.float32)
    targets = {"z": np.zeros((2, 1), np.float32), "a": np.ones((2, 1), np.float32),
               "m": np.full((2, 1), 3.0, np.float32)}
    logs = model.evaluate(x, targets, verbose=0, return_dict=True)
    want = sum(weights[k] * float(logs[f"{k}_loss"]) for k in weights)
    assert np.isclose(float(logs["loss"]), want, rtol=1e-5), (
        f"outputs in the order {order}, loss_weights {weights}: expected the total sum(w[k] * {{k}}_loss) = {want}, "
        f"got {float(logs['loss'])} (per-output losses {[round(float(logs[f'{k}_loss']), 4) for k in order]})")


# -- pad_to_cardinality: up to the target, an equal cardinality unpadded -------------------------------------------------
@clause("dataset.experimental-extras", ref="tf221")
@pytest.mark.parametrize("n, target", [(0, 2), (1, 1), (2, 2), (3, 5), (3, 2)])
def test_blind32_pad_to_cardinality_pads_up_to_the_target(tf, n, target):
    """tf.data.experimental.pad_to_cardinality(target) of a dict dataset of n elements gives the n elements with
    valid=True, then target - n zero elements with valid=False (none when n == target); n > target is ValueError
    (TF 2.21's pad_to_cardinality.py)."""
    ds = tf.data.Dataset.from_tensor_slices({"x": np.arange(1, n + 1, dtype=np.int64)})
    if n > target:
        with pytest.raises(ValueError):
            ds.apply(tf.data.experimental.pad_to_cardinality(target))
        return
    got = [(int(_np(e["x"])), bool(_np(e["valid"]))) for e in ds.apply(tf.data.experimental.pad_to_cardinality(target))]
    want = [(i, True) for i in range(1, n + 1)] + [(0, False)] * (target - n)
    assert_equal(got, want, call=f"pad_to_cardinality({target}) of {n} elements", what="(x, valid) elements")


# -- a tf.data function unpacks a plain tuple only -----------------------------------------------------------------------
@clause("dataset.function-trace", ref="tf221")
@pytest.mark.parametrize("method", ["map", "filter", "flat_map"])
def test_blind32_dataset_functions_unpack_plain_tuples_only(tf, method):
    """A tf.data function (map, filter, flat_map ...) is called with a plain tuple element's components as separate
    arguments and with any other structure, a namedtuple included, as one argument (TF 2.21's
    structured_function: `type(args) is tuple`)."""
    import collections
    point = collections.namedtuple("Point", "x y")
    xs, ys = np.array([1.0, -2.0, 3.0], np.float32), np.array([10.0, 20.0, 30.0], np.float32)
    named = tf.data.Dataset.from_tensor_slices(point(xs, ys))
    plain = tf.data.Dataset.from_tensor_slices((xs, ys))
    if method == "map":
        got = [float(_np(v)) for v in named.map(lambda p: p.x + p.y)]
        tup = [float(_np(v)) for v in plain.map(lambda a, b: a + b)]
        want = (xs + ys).tolist()
    elif method == "filter":
        got = [float(_np(e.y)) for e in named.filter(lambda p: p.x > 0)]
        tup = [float(_np(e[1])) for e in plain.filter(lambda a, b: a > 0)]
        want = ys[xs > 0].tolist()
    else:
        got = [float(_np(v)) for v in named.flat_map(lambda p: tf.data.Dataset.from_tensors(p.x * p.y))]
        tup = [float(_np(v)) for v in plain.flat_map(lambda a, b: tf.data.Dataset.from_tensors(a * b))]
        want = (xs * ys).tolist()
    assert_equal(got, want, call=f"Dataset.{method} of namedtuple elements", what="values")
    assert_equal(tup, want, call=f"Dataset.{method} of plain tuple elements", what="values")


# -- a Checkpoint attribute reads its latest assignment ------------------------------------------------------------------
@clause("checkpoint.restore-status", ref="tf221")
@pytest.mark.parametrize("sequence", [("plain", "variable"), ("variable", "plain"), ("variable", "variable"),
                                      ("plain", "plain", "variable"), ("variable", "plain", "variable")])
def test_blind32_checkpoint_attribute_reads_its_latest_assignment(tf, tmp_path, sequence):
    """An attribute of tf.train.Checkpoint reads back the value last assigned to it, a trackable or a plain Python
    value, whatever was assigned before (TF 2.21's sticky attribute assignment); when the last is a variable, a save
    holds it and a restore into a fresh Checkpoint with a variable under that name gives its value."""
    ckpt = tf.train.Checkpoint()
    last = None
    for i, kind in enumerate(sequence):
        last = tf.Variable(float(i) + 0.5) if kind == "variable" else i + 100
        setattr(ckpt, "x", last)
    got = ckpt.x
    if sequence[-1] == "plain":
        assert_equal(got, last, call=f"Checkpoint.x after assigning {sequence}", what="value")
        return
    assert got is last, f"Checkpoint.x after assigning {sequence}: expected the last variable, got {got!r}"
    path = ckpt.save(str(tmp_path / "ckpt"))
    fresh = tf.Variable(-1.0)
    tf.train.Checkpoint(x=fresh).restore(path)
    assert_equal(float(_np(fresh)), float(_np(last)), call=f"restore of Checkpoint.x saved after {sequence}",
                 what="restored value")
