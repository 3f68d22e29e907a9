"""Gaps found by the mechanical mutation sweep (benchmarks/auto_mutants.py, twelfth session).

Each test closes a class of behaviour that a surviving AST mutant showed no suite test looked at
(docs/conformance.md, "Twelfth session: mechanical mutation sweep"). Expected values are NumPy
transcriptions of Keras 3.15's / TF 2.21's rules computed here, or relations that must hold.
"""

from __future__ import annotations

import os
import tempfile

import numpy as np
import pytest

from simdist.conformance.assertions import assert_close, assert_equal, assert_true, raises

clause = pytest.mark.clause


def _band(tf, bands, upper=False):
    """bands + 3 on the main diagonal's band row (row 0 of a lower band, the last row of an upper one)."""
    k = bands.shape[-2]
    shift = np.zeros((k, bands.shape[-1]))
    shift[k - 1 if upper else 0] = 3.0
    return bands + tf.constant(shift, tf.float64)


def _line_model(keras):
    model = keras.Sequential([keras.Input((1,)), keras.layers.Dense(1, kernel_initializer="ones")])
    model.compile(optimizer=keras.optimizers.SGD(0.1), loss="mse", metrics=["mae"])
    return model


_X = np.linspace(-1, 1, 8, dtype=np.float32).reshape(8, 1)


# -- callbacks ------------------------------------------------------------------------------------------------
@clause("keras.fit.callback-hooks", ref="tf221")
def test_automut_legacy_batch_hooks_get_the_train_batch_hooks_arguments(keras):
    """Keras 3.15's Callback.on_train_batch_begin/_end call the legacy on_batch_begin/_end with the
    same batch index and logs: a callback overriding only the legacy hooks sees what a callback
    overriding the new ones sees."""
    legacy, new = [], []

    class Legacy(keras.callbacks.Callback):
        def on_batch_begin(self, batch, logs=None):
            legacy.append(("begin", batch, sorted(logs or {})))

        def on_batch_end(self, batch, logs=None):
            legacy.append(("end", batch, sorted((logs or {}).items())))

    class New(keras.callbacks.Callback):
        def on_train_batch_begin(self, batch, logs=None):
            new.append(("begin", batch, sorted(logs or {})))

        def on_train_batch_end(self, batch, logs=None):
            new.append(("end", batch, sorted((logs or {}).items())))

    model = _line_model(keras)
    model.fit(_X, 3 * _X, batch_size=4, epochs=2, shuffle=False, verbose=0, callbacks=[Legacy(), New()])
    call = "fit(x[8], batch_size=4, epochs=2) with one callback on the legacy hooks and one on the new"
    assert_equal([(w, b) for w, b, _ in legacy], [("begin", 0), ("end", 0), ("begin", 1), ("end", 1)] * 2, call=call,
                 what="the legacy hooks' (moment, batch index)")
    assert_equal(len(legacy), len(new), call=call, what="legacy hook calls vs new hook calls")
    for (w, b, lg), (_, _, nw) in zip(legacy, new):
        if w == "end":
            assert_true(len(lg) > 0, f"on_batch_end({b}) got no logs, but should get on_train_batch_end's {nw}",
                        call=call)
            assert_equal([k for k, _ in lg], [k for k, _ in nw], call=call, what=f"on_batch_end({b})'s log keys")
            assert_close(np.array([float(v) for _, v in lg]), np.array([float(v) for _, v in nw]), call=call,
                         what=f"on_batch_end({b})'s log values")
    direct = Legacy()
    legacy.clear()
    direct.on_train_batch_begin(3, logs={"size": 4})
    direct.on_train_batch_end(3, logs={"loss": 0.5})
    assert_equal(legacy, [("begin", 3, ["size"]), ("end", 3, [("loss", 0.5)])],
                 call="cb.on_train_batch_begin(3, logs={'size': 4}); cb.on_train_batch_end(3, logs={'loss': 0.5})",
                 what="what the legacy hooks received")


@clause("keras.callback.model-checkpoint", ref="tf221")
@pytest.mark.parametrize("weights_only", [True, False])
def test_automut_checkpoint_creates_the_directories_of_its_path(keras, weights_only):
    """ModelCheckpoint(filepath) whose directory does not exist yet creates it (Keras 3.15's
    _save_model: makedirs(dirname(filepath))) and saves there at each epoch end."""
    suffix = ".weights.h5" if weights_only else ".keras"
    model = _line_model(keras)
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "a", "b", "ckpt_{epoch}" + suffix)
        model.fit(_X, 3 * _X, batch_size=4, epochs=2, verbose=0,
                  callbacks=[keras.callbacks.ModelCheckpoint(path, save_weights_only=weights_only)])
        got = sorted(os.listdir(os.path.join(tmp, "a", "b")))
    assert_equal(got, [f"ckpt_1{suffix}", f"ckpt_2{suffix}"], call=f"ModelCheckpoint('<tmp>/a/b/ckpt_{{epoch}}{suffix}', "
                 f"save_weights_only={weights_only}) over 2 epochs", what="files in the new directory")


# -- layers and functional models ----------------------------------------------------------------------------
_OPERATORS = [
    ("x + c", lambda t, c: t + c, lambda x, c: x + c),
    ("c + x", lambda t, c: c + t, lambda x, c: c + x),
    ("x - c", lambda t, c: t - c, lambda x, c: x - c),
    ("c - x", lambda t, c: c - t, lambda x, c: c - x),
    ("x * c", lambda t, c: t * c, lambda x, c: x * c),
    ("c * x", lambda t, c: c * t, lambda x, c: c * x),
    ("x / c", lambda t, c: t / c, lambda x, c: x / c),
    ("c / x", lambda t, c: c / t, lambda x, c: c / x),
    ("x ** 2", lambda t, c: t ** 2, lambda x, c: x ** 2),
    ("-x", lambda t, c: -t, lambda x, c: -x),
]


@clause("keras.model.call", ref="tf221")
@pytest.mark.parametrize("name,sym,ref", _OPERATORS, ids=[o[0] for o in _OPERATORS])
def test_automut_keras_tensor_operators_compute_their_operation(keras, name, sym, ref):
    """A Python operator on a functional model's KerasTensor records that operation with its
    operands in order (reflected operators put the constant first): the model computes it."""
    x = np.array([[0.5, -2.0, 4.0], [1.5, 3.0, -0.25]], dtype=np.float32)
    c = np.float32(3.0)
    inp = keras.Input((3,))
    model = keras.Model(inp, sym(inp, 3.0))
    got = np.asarray(model(x))
    assert_close(got, ref(x, c), call=f"keras.Model(inp, {name.replace('c', '3.0')})(x)", what="out")


@clause("keras.layer.call", ref="tf221")
def test_automut_a_built_dense_layer_checks_the_last_axis_of_its_input(keras):
    """Dense sets an InputSpec on the last axis when built (Keras 3.15: min_ndim=2,
    axes={-1: input_dim}): a call with another last dimension raises ValueError naming axis -1;
    other leading shapes pass."""
    layer = keras.layers.Dense(2)
    layer(np.ones((4, 3), np.float32))
    out = layer(np.ones((2, 5, 3), np.float32))
    assert_equal(tuple(out.shape), (2, 5, 2), call="Dense(2) built on (4, 3), called on (2, 5, 3)", what="out.shape")
    with raises(ValueError, match="axis -1", call="Dense(2) built on (4, 3), called on (2, 4)"):
        layer(np.ones((2, 4), np.float32))


@clause("keras.layer.dropout", ref="tf221")
def test_automut_attention_dropout_follows_the_layers_seed(keras):
    """MultiHeadAttention(dropout, seed) hands its seed to its attention-dropout layer: two layers
    with the same seed and the same weights drop the same scores in training (equal outputs), a
    different seed drops others, and inference ignores the dropout."""
    rng = np.random.default_rng(5)
    q = rng.standard_normal((2, 4, 3)).astype(np.float32)
    v = rng.standard_normal((2, 5, 3)).astype(np.float32)

    def run(seed, training):
        mha = keras.layers.MultiHeadAttention(num_heads=2, key_dim=3, dropout=0.5, seed=seed,
                                              kernel_initializer=keras.initializers.GlorotUniform(seed=1))
        return np.asarray(mha(q, v, training=training))

    call = "MultiHeadAttention(num_heads=2, key_dim=3, dropout=0.5, seed=S)(q, v, training=True)"
    a, b, c = run(7, True), run(7, True), run(8, True)
    assert_close(a, b, call=call, what="out with seed 7 twice")
    assert_true(not np.allclose(a, c), "seeds 7 and 8 gave the same training output: the dropout ignores the seed",
                call=call)
    assert_close(run(7, False), run(8, False), call=call.replace("True", "False"), what="inference outputs, seeds 7 vs 8")


@clause("keras.model.call", ref="tf221")
@pytest.mark.parametrize("declared,given", [((3,), (2, 3, 1)), ((3, 1), (2, 3))])
def test_automut_functional_inputs_accept_a_trailing_axis_of_one(keras, declared, given):
    """A functional model's input spec lets a trailing axis of size 1 be added or dropped (Keras
    3.15: allow_last_axis_squeeze): called with such an input it computes what it computes on the
    declared shape."""
    x = np.array([[0.5, -2.0, 4.0], [1.5, 3.0, -0.25]], dtype=np.float32)
    inp = keras.Input(declared)
    out = inp * 2.0 + 1.0
    model = keras.Model(inp, out)
    want = (x * 2.0 + 1.0).reshape((2,) + declared)
    got = np.asarray(model(x.reshape(given)))
    assert_close(got, want, call=f"keras.Model(Input({declared}), 2x+1)(x of shape {given})", what="out")


# -- metrics --------------------------------------------------------------------------------------------------
@clause("keras.metric.option-coverage", ref="tf221")
@pytest.mark.parametrize("num_thresholds", [3, 5, 8])
def test_automut_auc_spaces_its_thresholds_evenly(keras, num_thresholds):
    """AUC(num_thresholds=n): thresholds i/(n-1) for i = 1..n-2 between -epsilon and 1+epsilon
    (Keras 3.15); the ROC area is the trapezoid sum over those thresholds of (FPR, TPR), a
    prediction counting as positive when it is > the threshold."""
    eps = 1e-7
    want_t = np.array([0.0 - eps] + [(i + 1) / (num_thresholds - 1) for i in range(num_thresholds - 2)] + [1.0 + eps])
    y = np.array([0, 0, 1, 1, 0, 1], dtype=np.float32)
    p = np.array([0.1, 0.6, 0.4, 0.8, 0.3, 0.55], dtype=np.float32)
    m = keras.metrics.AUC(num_thresholds=num_thresholds)
    call = f"AUC(num_thresholds={num_thresholds})"
    assert_close(np.array(m.thresholds, dtype=np.float64), want_t, call=call, what="thresholds")
    m.update_state(y, p)
    pos = p[None, :] > want_t.astype(np.float32)[:, None]
    tp, fp = (pos & (y == 1)).sum(1), (pos & (y == 0)).sum(1)
    fn, tn = ((~pos) & (y == 1)).sum(1), ((~pos) & (y == 0)).sum(1)
    tpr, fpr = tp / (tp + fn), fp / (fp + tn)
    want = np.sum((fpr[:-1] - fpr[1:]) * (tpr[:-1] + tpr[1:]) / 2)
    assert_close(np.asarray(m.result()), np.float32(want), call=f"{call}.update_state(y, p).result()", what="ROC AUC")


@clause("keras.metric.option-coverage", ref="tf221")
@pytest.mark.parametrize("thresholds", [[0.0, 0.25, 0.5, 0.75, 1.0], [0.0, 0.5, 1.0], [0.1, 0.5, 0.9]],
                         ids=["even5", "even3", "uneven"])
@pytest.mark.parametrize("name", ["TruePositives", "FalsePositives", "TrueNegatives", "FalseNegatives", "Precision",
                                  "Recall"])
def test_automut_confusion_metrics_count_at_each_threshold(keras, name, thresholds):
    """The confusion-count metrics with a list of thresholds count, per threshold t, the weighted
    samples whose prediction is > t; evenly spaced lists (0 .. 1, Keras's bucketed fast path)
    count as the others do. Precision = TP/(TP+FP), Recall = TP/(TP+FN) per threshold."""
    y = np.array([0, 1, 1, 0, 1, 0, 1], dtype=np.float32)
    p = np.array([0.1, 0.3, 0.6, 0.8, 0.45, 0.9, 0.95], dtype=np.float32)
    w = np.array([1.0, 2.0, 0.5, 1.5, 1.0, 3.0, 0.25], dtype=np.float32)
    t = np.array(thresholds, dtype=np.float32)[:, None]
    pos, true = p[None, :] > t, y[None, :] == 1
    tp, fp = (w * (pos & true)).sum(1), (w * (pos & ~true)).sum(1)
    tn, fn = (w * (~pos & ~true)).sum(1), (w * (~pos & true)).sum(1)
    with np.errstate(invalid="ignore", divide="ignore"):
        want = {"TruePositives": tp, "FalsePositives": fp, "TrueNegatives": tn, "FalseNegatives": fn,
                "Precision": np.nan_to_num(tp / (tp + fp)), "Recall": np.nan_to_num(tp / (tp + fn))}[name]
    m = getattr(keras.metrics, name)(thresholds=thresholds)
    m.update_state(y, p, sample_weight=w)
    assert_close(np.asarray(m.result()), want.astype(np.float32),
                 call=f"{name}(thresholds={thresholds}).update_state(y, p, sample_weight=w).result()", what="per threshold")


@clause("keras.model.call", ref="tf221")
@pytest.mark.parametrize("form", ["Model(inp, out)", "Model(inp, outputs=out)", "Model(inputs=inp, outputs=out)"])
def test_automut_every_functional_constructor_form_builds_the_graph(keras, form):
    """keras.Model takes the functional graph's inputs and outputs positionally, as inputs plus
    outputs=, or both by keyword (Keras 3.15's functional_init_arguments): each builds the same
    functional model, whose layers and outputs follow the graph."""
    inp = keras.Input((3,))
    out = keras.layers.Dense(2, kernel_initializer="ones", bias_initializer="zeros")(inp)
    model = {"Model(inp, out)": lambda: keras.Model(inp, out),
             "Model(inp, outputs=out)": lambda: keras.Model(inp, outputs=out),
             "Model(inputs=inp, outputs=out)": lambda: keras.Model(inputs=inp, outputs=out)}[form]()
    x = np.array([[1.0, 2.0, 3.0], [-1.0, 0.5, 0.25]], dtype=np.float32)
    assert_equal([type(layer).__name__ for layer in model.layers], ["InputLayer", "Dense"], call=form,
                 what="model.layers' classes")
    assert_close(np.asarray(model(x)), np.repeat(x.sum(1, keepdims=True), 2, axis=1), call=f"{form}(x)", what="out")


# -- weight files ---------------------------------------------------------------------------------------------
def _nested_model(keras, seed):
    class Block(keras.layers.Layer):
        def __init__(self, **kw):
            super().__init__(**kw)
            init = keras.initializers.RandomNormal(seed=seed)
            self.chain = [keras.layers.Dense(3, kernel_initializer=init), keras.layers.Dense(2, kernel_initializer=init)]
            self.side = {"skip": keras.layers.Dense(2, kernel_initializer=init, bias_initializer=init)}

        def call(self, x):
            h = x
            for layer in self.chain:
                h = layer(h)
            return h + self.side["skip"](x)

    inp = keras.Input((4,))
    return keras.Model(inp, Block()(inp))


@clause("keras.model.save-weights", ref="tf221")
def test_automut_weight_files_hold_layers_nested_in_lists_and_dicts(keras):
    """save_weights walks a layer's lists and dicts of sub-layers (Keras 3.15's container
    traversal): the .weights.h5 file holds every variable, and load_weights into a model built
    with other initial values gives back the saved weights."""
    import h5py

    src, dst = _nested_model(keras, 1), _nested_model(keras, 2)
    assert_true(any(not np.allclose(a, b) for a, b in zip(src.get_weights(), dst.get_weights())),
                "the two models start with equal weights: the round trip would prove nothing", call="set-up")
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "m.weights.h5")
        src.save_weights(path)
        with h5py.File(path, "r") as f:
            shapes = []
            f.visititems(lambda name, obj: shapes.append(obj.shape) if isinstance(obj, h5py.Dataset) else None)
        dst.load_weights(path)
    call = "save_weights / load_weights of a model whose layer holds Dense layers in a list and a dict"
    assert_equal(sorted(shapes), sorted(tuple(w.shape) for w in src.weights), call=call, what="the file's datasets' shapes")
    for i, (a, b) in enumerate(zip(dst.get_weights(), src.get_weights())):
        assert_close(a, b, call=call, what=f"weight {i} after load_weights")


# -- optimizers -----------------------------------------------------------------------------------------------
@clause("optim.option-coverage", ref="tf221")
def test_automut_apply_gradients_skips_none_gradients_and_rejects_all_none(keras, tf):
    """optimizer.apply_gradients drops the pairs whose gradient is None, with a warning naming
    them ("Gradients do not exist for variables"), and updates the others; when every gradient is
    None it raises ValueError "No gradients provided for any variable"."""
    import warnings

    opt = keras.optimizers.SGD(0.5)
    a = tf.Variable([1.0, 2.0], name="a")
    b = tf.Variable([3.0], name="b")
    call = "SGD(0.5).apply_gradients([([0.2, -0.4], a), (None, b)])"
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        opt.apply_gradients([(tf.constant([0.2, -0.4]), a), (None, b)])
    assert_close(np.asarray(a), np.array([1.0 - 0.1, 2.0 + 0.2], np.float32), call=call, what="a")
    assert_close(np.asarray(b), np.array([3.0], np.float32), call=call, what="b (no gradient: unchanged)")
    texts = [str(w.message) for w in caught]
    assert_true(any("Gradients do not exist for variables" in t for t in texts),
                f"warnings {texts}, but one should say 'Gradients do not exist for variables'", call=call)
    with raises(ValueError, match="No gradients provided for any variable", call="apply_gradients([(None, a)])"):
        opt.apply_gradients([(None, a)])


@clause("keras.model.call", ref="tf221")
def test_automut_a_built_models_config_records_each_layers_build_input(keras):
    """Sequential.get_config() serializes each built layer with its build_config (Keras 3.15's
    serialize_keras_object: {"input_shape": the shape it was built on}); an unbuilt model's
    layers have none. Sequential.from_config of the built one comes back built with the same
    weight shapes."""
    built = keras.Sequential([keras.Input((3,)), keras.layers.Dense(2), keras.layers.Dense(4)])
    unbuilt = keras.Sequential([keras.layers.Dense(2)])
    cfg = built.get_config()
    got = [None if "build_config" not in entry else [list(entry["build_config"]["input_shape"])]
           for entry in cfg["layers"] if entry["class_name"] == "Dense"]
    call = "Sequential([Input((3,)), Dense(2), Dense(4)]).get_config()['layers']"
    assert_equal(got, [[[None, 3]], [[None, 2]]], call=call, what="the Dense entries' build_config input_shape")
    assert_equal(["build_config" in e for e in unbuilt.get_config()["layers"]], [False],
                 call="Sequential([Dense(2)]).get_config()['layers']", what="'build_config' present")
    again = keras.Sequential.from_config(cfg)
    assert_equal([tuple(w.shape) for w in again.weights], [(3, 2), (2,), (2, 4), (4,)],
                 call="Sequential.from_config(that config)", what="weight shapes")


@clause("keras.loss.epsilon-clipping", ref="tf221")
@pytest.mark.parametrize("eps", [1e-3, 0.05])
def test_automut_crossentropies_clip_at_the_configured_epsilon(keras, eps):
    """keras.config.epsilon() is 1e-7 by default; the probability crossentropies clip their
    predictions to [epsilon, 1 - epsilon] with the epsilon configured when they run
    (set_epsilon): -log(eps) for a target of 1 predicted 0, -log(1 - (1 - eps)) the other way."""
    assert_close(np.float64(keras.config.epsilon()), np.float64(1e-7), call="keras.config.epsilon()", what="default")
    y = np.array([[1.0], [0.0]], dtype=np.float32)
    p = np.array([[0.0], [1.0]], dtype=np.float32)
    keras.config.set_epsilon(eps)
    try:
        got = np.asarray(keras.losses.binary_crossentropy(y, p))
        got_cce = np.asarray(keras.losses.categorical_crossentropy(np.array([[1.0, 0.0]], np.float32),
                                                                   np.array([[0.0, 1.0]], np.float32)))
    finally:
        keras.config.set_epsilon(1e-7)
    e32 = np.float32(eps)
    want = -np.log(np.array([e32, np.float32(1) - (np.float32(1) - e32)], np.float32))
    assert_close(got, want, call=f"set_epsilon({eps}); binary_crossentropy([[1], [0]], [[0], [1]])", what="out")
    assert_close(got_cce, -np.log(np.array([e32], np.float32)),
                 call=f"set_epsilon({eps}); categorical_crossentropy([[1, 0]], [[0, 1]])", what="out")


# -- gradients ------------------------------------------------------------------------------------------------
_BANDED = {
    "bands_broadcast_over_rhs_batch": ((2, 3), (2, 3, 2), {}),
    "rhs_broadcast_over_bands_batch": ((2, 2, 3), (3, 2), {}),
    "upper_adjoint_bands_batch_of_one": ((1, 2, 3), (2, 3, 1), {"lower": False, "adjoint": True}),
}


@clause("autodiff.op-gradients", ref="tf221")
@pytest.mark.parametrize("case", list(_BANDED))
def test_automut_banded_solve_gradient_sums_over_broadcast_batches(tf, case):
    """banded_triangular_solve with bands and rhs of different batch shapes (broadcast): the
    gradient of each input has that input's shape, summed over the batch axes it was broadcast
    along; against float64 central differences of the backend's own forward pass."""
    from simdist.conformance.suite.test_gradient_table import check_order

    sb, sr, kw = _BANDED[case]
    rng = np.random.default_rng(11)
    xs = [rng.uniform(-1.0, 1.0, size=sb), rng.uniform(-1.0, 1.0, size=sr)]
    upper = kw.get("lower", True) is False
    check_order(tf, f"banded_triangular_solve[{case}]",
                lambda tf_, b, r: tf_.linalg.banded_triangular_solve(_band(tf_, b, upper), r, **kw), xs, rng)


_GRADIENTS = {
    # x in and out of [-0.5, 0.5], never at a bound: the incoming gradient passes inside only
    "clip_by_value_both_sides": (lambda tf, x: tf.clip_by_value(x, -0.5, 0.5),
                                 lambda rng: np.array([[-1.2, -0.3, 0.1], [0.7, 0.45, -0.9]]), "float64"),
    # data of one row gathered twice: the gradient scatters back into that row
    "sparse_segment_sum_one_row": (lambda tf, x: tf.sparse.segment_sum(x, [0, 0], [0, 1]),
                                   lambda rng: rng.uniform(-1, 1, (1, 3)), "float64"),
    "sparse_segment_mean_one_row": (lambda tf, x: tf.sparse.segment_mean(x, [0, 0, 0], [0, 0, 1]),
                                    lambda rng: rng.uniform(-1, 1, (1, 3)), "float64"),
    "sparse_segment_sqrt_n_one_row": (lambda tf, x: tf.sparse.segment_sqrt_n(x, [0, 0, 0], [0, 1, 1]),
                                      lambda rng: rng.uniform(-1, 1, (1, 2)), "float64"),
    # a batch of 3 without include_batch_in_index: each image's argmax indexes its own image (with 2
    # images an offset of the wrong sign still lands on the right row: -16 wraps to +16 of 32)
    "max_pool_with_argmax_batch3": (lambda tf, x: tf.square(tf.nn.max_pool_with_argmax(x, 2, 2, "VALID")[0]),
                                    lambda rng: (rng.permutation(48).reshape(3, 4, 4, 1) * 0.13 - 3.0), "float32"),
}


@clause("autodiff.op-gradients", ref="tf221")
@pytest.mark.parametrize("case", list(_GRADIENTS))
def test_automut_more_gradients_match_central_differences(tf, case):
    """Gradients at inputs the gradient table did not reach (values beyond both clip bounds, a
    one-row data tensor under sparse segment ops, a batch of three under max_pool_with_argmax):
    the tape's gradient of sum(R * f(x)) against central differences of the backend's forward
    (float32 with h = 1e-2 on a piecewise quadratic where TF has no float64 kernel)."""
    from simdist.conformance.suite.test_gradient_table import TOL32, check_order

    fn, make, dtype = _GRADIENTS[case]
    rng = np.random.default_rng(17)
    x = np.asarray(make(rng), dtype=np.float64)
    if dtype == "float32":
        check_order(tf, case, fn, [x], rng, dtype="float32", h=1e-2, tolerance=TOL32)
    else:
        check_order(tf, case, fn, [x], rng)


@clause("keras.model.call", ref="tf221")
def test_automut_sequential_keeps_its_name_and_trainable(keras):
    """Sequential(layers, trainable, name) keeps the name and the trainable flag it was given."""
    model = keras.Sequential([keras.Input((2,)), keras.layers.Dense(1)], trainable=False, name="my_stack")
    assert_equal(model.name, "my_stack", call="Sequential([...], trainable=False, name='my_stack')", what="name")
    assert_equal(len(model.trainable_weights), 0, call="Sequential([...], trainable=False)",
                 what="len(trainable_weights)")


@clause("optim.option-coverage", ref="tf221")
@pytest.mark.parametrize("name", ["SGD", "Adam", "RMSprop"])
def test_automut_optimizer_variables_are_not_trainable(keras, tf, name):
    """An optimizer's own variables (iterations, learning rate, slots such as momentum or
    velocity) are non-trainable Keras variables (Keras 3.15's add_variable: trainable=False)."""
    kw = {"momentum": 0.9} if name in ("SGD", "RMSprop") else {}
    opt = getattr(keras.optimizers, name)(0.1, **kw)
    v = tf.Variable([1.0, 2.0])
    opt.apply_gradients([(tf.constant([0.5, -0.5]), v)])
    flags = [bool(x.trainable) for x in opt.variables]
    assert_true(len(flags) >= 2 and not any(flags),
                f"trainable flags {flags}, but every optimizer variable should be non-trainable",
                call=f"{name}(0.1, {kw}).apply_gradients(...); [v.trainable for v in opt.variables]")
