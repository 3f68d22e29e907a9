"""Gaps the thirty-sixth blind batch of planted training bugs found (issue 29, docs/conformance.md "How strong is
the suite"): rules of the training layer that the suite stated for one spelling, one option value or one input
only, or never, so that a wrong implementation of the other case passed (TF 2.21 + Keras 3.15).

Each test checks a class of behaviour, not one planted bug. Every expected value is computed here with NumPy or
plain Python (a transcription of TF's or Keras 3.15's rule), or is a relation TF's rule implies between two
spellings, never the backend's own implementation of the same rule.
"""

from __future__ import annotations

import numpy as np
import pytest

from simdist.conformance.assertions import to_numpy as _np   # (an ndarray of any backend's value)

clause = pytest.mark.clause


def _softmax_masked(scores: np.ndarray, mask: np.ndarray, axes: tuple[int, ...]) -> np.ndarray:
    """Softmax over `axes` with masked-out logits taking no weight (Keras adds a large negative number)."""
    s = np.where(mask, scores, -np.inf)
    s = s - s.max(axis=axes, keepdims=True)
    e = np.exp(s)
    return e / e.sum(axis=axes, keepdims=True)


# -- MultiHeadAttention over several attention axes: the mask lines up with the scores -----------------------------
@clause("keras.mha.masks", ref="tf221")
@pytest.mark.parametrize("attention_axes, shape", [((1, 2), (2, 2, 3, 4)), ((2,), (2, 2, 3, 4)), ((1,), (2, 3, 4))])
def test_blind36_multi_head_attention_mask_over_several_attention_axes(keras, attention_axes, shape):
    """MultiHeadAttention(attention_axes=...) with an attention_mask of shape (B, *query attention axes, *key
    attention axes) (plus the other axes): the mask gets the heads' axis where the scores have it (Keras
    `_masked_softmax`: expand at -len(attention_axes) * 2 - 1), so each query attends only to its unmasked keys.
    Expected output computed with NumPy from the layer's weights (einsum projections, softmax over the attention
    axes jointly, the output projection)."""
    heads, key_dim = 3, 2
    layer = keras.layers.MultiHeadAttention(num_heads=heads, key_dim=key_dim, attention_axes=attention_axes,
                                            kernel_initializer=keras.initializers.GlorotUniform(seed=7),
                                            bias_initializer=keras.initializers.RandomUniform(seed=8))
    rng = np.random.RandomState(11)
    x = rng.rand(*shape).astype("float32")
    rank = len(shape)
    att = tuple(a % rank for a in attention_axes)
    other = [a for a in range(1, rank - 1) if a not in att]
    # the mask: (B, other..., query att..., key att...) as Keras's docstring puts it
    att_sizes = [shape[a] for a in att]
    mask_shape = (shape[0], *[shape[a] for a in other], *att_sizes, *att_sizes)
    mask = rng.rand(*mask_shape) > 0.3
    flat = mask.reshape(mask.shape[: len(mask_shape) - len(att)] + (-1,))
    flat[..., 0] = True                                   # every query keeps at least one key
    mask = flat.reshape(mask_shape)
    out = _np(layer(x, x, attention_mask=mask))
    wq, bq, wk, bk, wv, bv, wo, bo = [np.asarray(w, np.float64) for w in layer.get_weights()]
    xd = x.astype(np.float64)
    q = np.einsum("...i,ihd->...hd", xd, wq) + bq
    k = np.einsum("...i,ihd->...hd", xd, wk) + bk
    v = np.einsum("...i,ihd->...hd", xd, wv) + bv
    # move to (B, other..., H, att..., D)
    def arrange(t):
        order = [0, *other, rank - 1, *att, rank]
        return np.transpose(t, order)
    q, k, v = arrange(q), arrange(k), arrange(v)
    n_lead = 1 + len(other) + 1                           # B, other..., H
    na = len(att)
    q_idx = "".join(chr(ord("i") + j) for j in range(na))
    k_idx = "".join(chr(ord("p") + j) for j in range(na))
    lead = "".join(chr(ord("a") + j) for j in range(n_lead))
    scores = np.einsum(f"{lead}{q_idx}z,{lead}{k_idx}z->{lead}{q_idx}{k_idx}", q, k) / np.sqrt(key_dim)
    m = np.expand_dims(mask, axis=1 + len(other))         # the heads' axis
    probs = _softmax_masked(scores, np.broadcast_to(m, scores.shape), tuple(range(scores.ndim - na, scores.ndim)))
    ctx = np.einsum(f"{lead}{q_idx}{k_idx},{lead}{k_idx}z->{lead}{q_idx}z", probs, v)
    # back to (B, ..., H, D) in the input's axis order
    inv = np.argsort([0, *other, rank - 1, *att, rank])
    ctx = np.transpose(ctx, inv)
    expected = np.einsum("...hd,hdo->...o", ctx, wo) + bo
    np.testing.assert_allclose(out, expected, rtol=2e-4, atol=2e-5,
                               err_msg=f"attention_axes={attention_axes}: output vs NumPy masked attention")


# -- MultiHeadAttention's output shape: key and value agree except in the last size ---------------------------------
@clause("keras.mha.config", ref="tf221")
@pytest.mark.parametrize("query, value, key, output_shape, want", [
    ((2, 3, 4), (2, 5, 6), (2, 5, 8), None, (2, 3, 4)),
    ((2, 3, 4), (2, 5, 6), None, None, (2, 3, 4)),
    ((2, 3, 4), (2, 5, 6), (2, 5, 6), 7, (2, 3, 7)),
    ((2, 3, 4), (2, 5, 6), (2, 4, 6), None, ValueError),
])
def test_blind36_multi_head_attention_output_shape_key_last_size_free(keras, query, value, key, output_shape, want):
    """MultiHeadAttention.compute_output_shape(query, value, key): all dimensions of value and key but the last must
    be equal (Keras 3.15's check `value_shape[1:-1] != key_shape[1:-1]`); the key's own last size is free; the
    result is the query's shape with output_shape as its last size when given."""
    kwargs = {} if output_shape is None else {"output_shape": output_shape}
    layer = keras.layers.MultiHeadAttention(num_heads=2, key_dim=2, **kwargs)
    args = (query, value) if key is None else (query, value, key)
    if want is ValueError:
        with pytest.raises(ValueError, match="must be equal"):
            layer.compute_output_shape(*args)
        return
    got = tuple(layer.compute_output_shape(*args))
    assert got == want, f"compute_output_shape{args}: expected {want}, got {got}"


# -- keras.layers.Attention: the output's mask is the query's -----------------------------------------------------
@clause("keras.mask.propagation", ref="tf221")
@pytest.mark.parametrize("layer_name", ["Attention", "AdditiveAttention"])
@pytest.mark.parametrize("query_mask, value_mask", [
    ([[True, True, False]], [[True, False, False]]),
    ([[True, False, True]], None),
    (None, [[True, False, True]]),
])
def test_blind36_attention_output_mask_is_the_query_mask(keras, layer_name, query_mask, value_mask):
    """Attention/AdditiveAttention.compute_mask(inputs, mask=[query_mask, value_mask]) is the query's mask (None
    without one), whatever the value's mask (Keras 3.15: `mask[0]`); the same mask rides on the output of a call
    with those masks."""
    layer = getattr(keras.layers, layer_name)()
    q = np.random.RandomState(2).rand(1, 3, 2).astype("float32")
    v = np.random.RandomState(3).rand(1, 3, 2).astype("float32")
    masks = [None if query_mask is None else np.array(query_mask), None if value_mask is None else np.array(value_mask)]
    got = layer.compute_mask([q, v], mask=masks)
    if query_mask is None:
        assert got is None, f"no query mask: expected None, got {got}"
    else:
        np.testing.assert_array_equal(_np(got), np.array(query_mask),
                                      err_msg="compute_mask: expected the query's mask")


# -- Reshape with -1: the other sizes must divide the input's size ---------------------------------------------------
@clause("keras.layer.arguments", ref="tf221")
@pytest.mark.parametrize("input_shape, target, want", [
    ((6,), (-1, 4), ValueError), ((6,), (-1, 3), (None, 2, 3)), ((2, 6), (5, -1), ValueError),
    ((2, 6), (4, -1, 3), (None, 4, 1, 3)), ((5,), (2, -1), ValueError), ((12,), (-1, 2, 2), (None, 3, 2, 2)),
])
def test_blind36_reshape_minus_one_needs_a_divisor(keras, input_shape, target, want):
    """keras.layers.Reshape(target) with one -1 on an input of known size: the -1 is size // (product of the other
    sizes) when that product divides the size, else Keras's ValueError ("The total size of the tensor must be
    unchanged ..."), raised when the layer is called on a symbolic input."""
    layer = keras.layers.Reshape(target)
    if want is ValueError:
        with pytest.raises(ValueError, match="total size of the tensor must be unchanged"):
            layer(keras.Input(input_shape))
        return
    got = tuple(layer(keras.Input(input_shape)).shape)
    assert got == want, f"Reshape{target} of {input_shape}: expected {want}, got {got}"
    assert tuple(layer.compute_output_shape((None, *input_shape))) == want


# -- a metric's stateless API: the state given, the state returned ---------------------------------------------------
_STATELESS = [
    ("Mean", lambda: ([np.array([1.0, 5.0], "float32")],), None),
    ("MeanSquaredError", lambda: (np.array([[1.0], [0.0]], "float32"), np.array([[0.5], [0.5]], "float32")), None),
    ("Precision", lambda: (np.array([1, 0, 1], "float32"), np.array([0.9, 0.8, 0.2], "float32")), None),
    ("AUC", lambda: (np.array([1, 0, 1, 0], "float32"), np.array([0.9, 0.6, 0.4, 0.1], "float32")), {"num_thresholds": 5}),
]


@clause("keras.metric.update-result-reset", ref="tf221")
@pytest.mark.parametrize("name, batch, kwargs", _STATELESS, ids=[s[0] for s in _STATELESS])
def test_blind36_metric_stateless_api_uses_the_state_it_is_given(keras, name, batch, kwargs):
    """Keras 3.15 Metric.stateless_update_state(metric_variables, ...) / stateless_result(metric_variables) /
    stateless_reset_state(): the first two work on the values given (one per variable, else ValueError "must be a
    list of tensors corresponding 1:1 to ...variables"), leaving the metric's own variables alone;
    stateless_reset_state returns what reset_state would write (a fresh metric's values), whatever the metric holds.
    Checked against the stateful API on a twin metric: update_state from the same state."""
    make = lambda: getattr(keras.metrics, name)(**(kwargs or {}))   # noqa: E731
    args = batch()
    metric, twin = make(), make()
    metric.update_state(*args)                  # the metric's own state: one batch
    held = [_np(v).copy() for v in metric.variables]
    twin.update_state(*args)
    twin.update_state(*args)                    # twin: two batches
    given = [_np(v) for v in twin.variables]
    new = metric.stateless_update_state(given, *args)
    twin.update_state(*args)                    # twin: three batches
    for got, want in zip(new, twin.variables):
        np.testing.assert_allclose(_np(got), _np(want), rtol=1e-6,
                                   err_msg=f"{name}.stateless_update_state: the given state updated")
    np.testing.assert_allclose(_np(metric.stateless_result([_np(v) for v in twin.variables])), _np(twin.result()),
                               rtol=1e-6, err_msg=f"{name}.stateless_result: the result of the given state")
    for got, want in zip(metric.variables, held):
        np.testing.assert_allclose(_np(got), want, err_msg=f"{name}: the metric's own variables were changed")
    fresh = make()
    fresh.update_state(*args)
    fresh.reset_state()
    for got, want in zip(metric.stateless_reset_state(), fresh.variables):
        np.testing.assert_allclose(_np(got), _np(want), err_msg=f"{name}.stateless_reset_state: the reset values")
    for call in (lambda vs: metric.stateless_update_state(vs, *args), lambda vs: metric.stateless_result(vs)):
        with pytest.raises(ValueError, match="corresponding 1:1"):
            call(given[:-1])


# -- AUC.reset_state forgets all four counts ----------------------------------------------------------------------
@clause("keras.metric.auc", ref="tf221")
@pytest.mark.parametrize("kwargs", [{}, {"curve": "PR"}, {"multi_label": True, "num_labels": 2},
                                    {"summation_method": "minoring"}], ids=["ROC", "PR", "multi-label", "minoring"])
def test_blind36_auc_after_reset_state_is_a_fresh_auc(keras, kwargs):
    """AUC(...).reset_state() zeroes true/false positives and negatives: updated after it, the metric gives what a
    fresh AUC gives on the same batch (Keras 3.15), for ROC, PR, multi-label and minoring summation."""
    rng = np.random.RandomState(5)
    shape = (6, 2) if kwargs.get("multi_label") else (6,)
    y1, p1 = (rng.rand(*shape) > 0.5).astype("float32"), rng.rand(*shape).astype("float32")
    y2 = np.array([1, 0, 1, 0, 1, 1], "float32") if not kwargs.get("multi_label") else np.tile(
        np.array([[1, 0, 1, 0, 1, 1]], "float32").T, (1, 2))
    p2 = rng.rand(*shape).astype("float32")
    metric = keras.metrics.AUC(num_thresholds=7, **kwargs)
    metric.update_state(y1, p1)
    metric.reset_state()
    for v in metric.variables:
        assert not np.any(_np(v)), f"after reset_state the variable {v.name} is {_np(v)}, expected zeros"
    metric.update_state(y2, p2)
    fresh = keras.metrics.AUC(num_thresholds=7, **kwargs)
    fresh.update_state(y2, p2)
    np.testing.assert_allclose(_np(metric.result()), _np(fresh.result()), rtol=1e-6,
                               err_msg=f"AUC({kwargs}) after reset_state vs a fresh AUC")


# -- predict keeps the structure of the model's outputs, as NumPy arrays ---------------------------------------------
@clause("keras.predict.order", ref="tf221")
@pytest.mark.parametrize("structure", ["tuple", "list", "dict", "single"])
@pytest.mark.parametrize("batch_size", [2, 8])
def test_blind36_predict_keeps_the_output_structure_as_numpy(keras, structure, batch_size):
    """Model.predict of a functional model whose outputs are a tuple, a list, a dict or one tensor returns the same
    structure (Keras 3.15: tree.map_structure_up_to over the batches' outputs), each leaf a NumPy ndarray holding
    every batch's rows in order; the values are the model's on the whole input (a relation between two
    spellings)."""
    inp = keras.Input((2,))
    a = keras.layers.Dense(1, kernel_initializer=keras.initializers.GlorotUniform(seed=1))(inp)
    b = keras.layers.Dense(3, kernel_initializer=keras.initializers.GlorotUniform(seed=2))(inp)
    outputs = {"tuple": (a, b), "list": [a, b], "dict": {"a": a, "b": b}, "single": b}[structure]
    model = keras.Model(inp, outputs)
    x = np.random.RandomState(4).rand(5, 2).astype("float32")
    got = model.predict(x, batch_size=batch_size, verbose=0)
    whole = model(x)
    if structure == "single":
        got_leaves, want_leaves = [got], [whole]
        assert isinstance(got, np.ndarray), f"predict: expected an ndarray, got {type(got).__name__}"
    elif structure == "dict":
        assert isinstance(got, dict) and sorted(got) == ["a", "b"], f"predict: expected a dict a, b, got {got!r}"
        got_leaves, want_leaves = [got["a"], got["b"]], [whole["a"], whole["b"]]
    else:
        assert type(got).__name__ == structure and len(got) == 2, \
            f"predict of a {structure} of outputs: expected a {structure} of 2, got {type(got).__name__}"
        got_leaves, want_leaves = list(got), list(whole)
    for g, w in zip(got_leaves, want_leaves):
        assert isinstance(g, np.ndarray), f"predict: expected ndarray leaves, got {type(g).__name__}"
        np.testing.assert_allclose(g, _np(w), rtol=1e-5, atol=1e-6, err_msg="predict vs the model on the whole input")


# -- fit's shuffle: "batch" shuffles inside each batch, True across them, False not at all -----------------------------
@clause("keras.fit.data", ref="tf221")
@pytest.mark.parametrize("shuffle", ["batch", True, False])
def test_blind36_fit_shuffle_modes_of_array_inputs(tf, keras, shuffle):
    """fit(x, batch_size=4, shuffle=...) of 8 arrays rows (Keras 3.15 array_data_adapter): shuffle=False gives rows
    0-3 then 4-7 in order; shuffle="batch" gives the same two blocks in that order, each block's rows permuted
    (under a fixed seed at least one of six batches is out of order: the chance all six come out sorted is 24**-6);
    shuffle=True mixes the rows across batches (seeded: at least one batch is not a block). Read from a custom
    train_step run eagerly."""
    keras.utils.set_random_seed(4)
    seen = []

    class Recorder(keras.Model):
        def __init__(self):
            super().__init__()
            self.dense = keras.layers.Dense(1)

        def call(self, x):
            return self.dense(x)

        def train_step(self, data):
            x, _ = data
            seen.append(np.asarray(x)[:, 0].astype(int).tolist())
            return {"n": tf.constant(0.0)}

    model = Recorder()
    model.compile(optimizer="sgd", loss="mse", run_eagerly=True)
    x = np.stack([np.arange(8), np.arange(8)], 1).astype("float32")
    model.fit(x, np.zeros((8, 1), "float32"), batch_size=4, shuffle=shuffle, epochs=3, verbose=0)
    assert len(seen) == 6, f"expected 6 batches (2 per epoch), got {seen}"
    blocks = [sorted(b) == list(range(4 * (i % 2), 4 * (i % 2) + 4)) for i, b in enumerate(seen)]
    if shuffle is False:
        assert seen == [[0, 1, 2, 3], [4, 5, 6, 7]] * 3, f"shuffle=False: expected the rows in order, got {seen}"
    elif shuffle == "batch":
        assert all(blocks), f"shuffle='batch': expected each batch to hold its block's rows, got {seen}"
        assert any(b != sorted(b) for b in seen), f"shuffle='batch': expected the rows shuffled in a batch, got {seen}"
    else:
        assert not all(blocks), f"shuffle=True: expected rows mixed across batches, got {seen}"


# -- CholeskyGrad reads the lower triangle of its upstream gradient ------------------------------------------------
@clause("ops.linalg-more", ref="tf221")
@pytest.mark.parametrize("n", [2, 3, 5])
def test_blind36_cholesky_grad_reads_the_lower_triangle_of_grad(tf, n):
    """tf.raw_ops.CholeskyGrad(l, grad): the gradient with respect to A = L L^T of a loss whose gradient with
    respect to L is the lower triangle of `grad` (its upper part ignored): 0.5 (X + X^T) with
    X = L^-T Phi(L^T tril(grad)) L^-1, Phi the lower triangle with the diagonal halved (Murray 2016, the blocked
    algorithm TF's kernel runs). Computed with NumPy in float64."""
    rng = np.random.RandomState(n)
    m = rng.rand(n, n)
    a = m @ m.T + n * np.eye(n)
    low = np.linalg.cholesky(a)
    g = rng.rand(n, n) * 2 - 1                               # a full upstream gradient, upper part included
    got = _np(tf.raw_ops.CholeskyGrad(l=tf.constant(low), grad=tf.constant(g)))
    inv = np.linalg.inv(low)
    phi = np.tril(low.T @ np.tril(g))
    phi[np.diag_indices(n)] *= 0.5
    x = inv.T @ phi @ inv
    expected = 0.5 * (x + x.T)
    np.testing.assert_allclose(got, expected, rtol=1e-9, atol=1e-12, err_msg=f"CholeskyGrad n={n} vs NumPy")


# -- sample_from_datasets / choose_from_datasets: the element_spec is the inputs' common supertype -------------------
@clause("dataset.sample-choose", ref="tf221")
@pytest.mark.parametrize("shapes, want", [([[2], [3]], [None]), ([[2], [2]], [2]), ([[None, 3], [2, 3]], [None, 3]),
                                          ([[2, 3], [2, 4], [2, 3]], [2, None])])
@pytest.mark.parametrize("how", ["sample", "choose"])
def test_blind36_sampled_datasets_spec_is_the_common_supertype(tf, shapes, want, how):
    """sample_from_datasets / choose_from_datasets of datasets whose element shapes differ: the element_spec's shape
    is the most specific shape compatible with every input (TF 2.21's DirectedInterleaveDataset: a dimension that
    differs is None), and every element comes through with its own shape."""
    def source(shape):
        concrete = [2 if d is None else d for d in shape]
        if None not in shape:
            return tf.data.Dataset.from_tensors(tf.zeros(concrete))
        return tf.data.Dataset.from_generator(lambda: iter([np.zeros(concrete, "float32")]),
                                              output_signature=tf.TensorSpec(shape, tf.float32))
    inputs = [source(s) for s in shapes]
    if how == "sample":
        ds = tf.data.Dataset.sample_from_datasets(inputs, seed=3)
    else:
        ds = tf.data.Dataset.choose_from_datasets(inputs, tf.data.Dataset.range(len(inputs)))
    assert ds.element_spec.shape.as_list() == want, \
        f"{how} of shapes {shapes}: expected element_spec shape {want}, got {ds.element_spec.shape.as_list()}"
    got = sorted(tuple(e.shape.as_list()) for e in ds)
    expected = sorted(tuple(2 if d is None else d for d in s) for s in shapes)
    assert got == expected, f"{how}: expected elements of shapes {expected}, got {got}"


# -- a model's config holding NumPy scalars is written as plain JSON numbers ---------------------------------------
@clause("keras.saving.json-and-serialize", ref="tf221")
@pytest.mark.parametrize("value", [np.float32(0.25), np.float64(0.5), 0.25])
def test_blind36_model_json_of_numpy_scalar_arguments(keras, value, tmp_path):
    """Model.to_json / Model.save of a model whose layer was given a NumPy scalar argument (Dropout(rate)): the JSON
    holds a plain number equal to it (Keras 3.15's json encoder converts NumPy scalars), and the saved model loads
    back with that rate."""
    import json
    model = keras.Sequential([keras.Input((2,)), keras.layers.Dropout(value, name="drop")])
    layers = json.loads(model.to_json())["config"]["layers"]
    rate = [layer for layer in layers if layer["class_name"] == "Dropout"][0]["config"]["rate"]
    assert isinstance(rate, float) and rate == float(value), f"to_json: expected rate {float(value)}, got {rate!r}"
    path = str(tmp_path / "m.keras")
    model.save(path)
    loaded = keras.models.load_model(path)
    assert float(loaded.get_layer("drop").rate) == float(value), "the loaded model's Dropout rate"
