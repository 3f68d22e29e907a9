"""Gaps the twenty-third blind batch of planted training bugs found (issue 29, docs/conformance.md "How
strong is the suite"): rules of the training layer that the suite stated for one spelling or one shape only
(a product gradient without a zero, a max_norm of rank-2 params, a Sum of rank-1 values, an accuracy of
equal ranks, a steps_per_epoch that never met the end of its data, a sparse crossentropy called through the
loss but not through keras.ops), so that a wrong implementation of the other spelling passed (TF 2.21 +
Keras 3.15).

Each test checks a class of behaviour, not one planted bug. Every expected value is computed here with NumPy
(a transcription of TF's or Keras 3.15's rule), never by the backend's own implementation of the same rule.
"""

from __future__ import annotations

import warnings

import numpy as np
import pytest

from simdist.conformance.assertions import assert_close, assert_equal
from simdist.conformance.tolerances import Tolerance

clause = pytest.mark.clause
TOL32 = Tolerance(rtol=2e-5, atol=2e-6)


def _np(x):
    return np.asarray(x.numpy() if hasattr(x, "numpy") else x)


# -- gradients of products at a zero: the product of the others ------------------------------------------------------
def _product_of_others(x: np.ndarray) -> np.ndarray:
    """d prod(x) / d x_j = prod of the other entries (exact with zeros: no division)."""
    return np.array([np.prod(np.delete(x, j)) for j in range(x.size)], np.float64)


def _segment_prod_grad(x: np.ndarray, ids: np.ndarray, upstream: np.ndarray) -> np.ndarray:
    out = np.zeros_like(x, dtype=np.float64)
    for s in range(upstream.size):
        where = np.nonzero(ids == s)[0]
        if where.size:
            out[where] = upstream[s] * _product_of_others(x[where].astype(np.float64))
    return out   # (negative ids: no segment, gradient 0)


@clause("autodiff.op-gradients", ref="tf221")
def test_blind23_product_gradients_at_a_zero_are_the_product_of_the_others(tf, budget):
    """The registered gradients of SegmentProd, UnsortedSegmentProd and Prod (reduce_prod) are exact at zeros
    (TF's _SegmentProdGrad, _UnsortedSegmentProdGrad, _ProdGrad): an entry's gradient is the upstream gradient
    times the product of the *other* entries of its segment (or reduced slice), so in a segment with exactly
    one zero the zero gets the product of the rest and the others 0, a segment with two zeros or more gets 0
    everywhere, and a segment without zeros prod / x; an entry with a negative id (unsorted) gets 0."""
    x = np.array([2.0, 0.0, 3.0, 4.0, 5.0, 0.0, 0.0, 7.0, 1.5], np.float32)
    for case in budget(["segment_prod", "unsorted_segment_prod", "reduce_prod-axis1", "reduce_prod-axis0",
                        "reduce_prod-all"]):
        xt = tf.constant(x)
        if case == "segment_prod":
            ids = np.array([0, 0, 0, 1, 1, 2, 2, 2, 3])
            up = np.array([1.0, 2.0, 3.0, -1.0], np.float32)
            fn = lambda v: tf.math.segment_prod(v, tf.constant(ids))   # noqa: E731
            want = _segment_prod_grad(x, ids, up)
            call = f"segment_prod(x={x.tolist()}, ids={ids.tolist()}) weighted by {up.tolist()}"
        elif case == "unsorted_segment_prod":
            ids = np.array([1, 0, 1, 2, 0, -1, 2, 2, 1])
            up = np.array([0.5, 2.0, -3.0, 4.0], np.float32)
            fn = lambda v: tf.math.unsorted_segment_prod(v, tf.constant(ids), 4)   # noqa: E731
            want = _segment_prod_grad(x, ids, up)
            call = f"unsorted_segment_prod(x={x.tolist()}, ids={ids.tolist()}, 4) weighted by {up.tolist()}"
        elif case == "reduce_prod-axis1":
            m = x.reshape(3, 3)
            up = np.array([1.0, -2.0, 3.0], np.float32)
            fn = lambda v: tf.reduce_prod(tf.reshape(v, [3, 3]), axis=1)   # noqa: E731
            want = np.concatenate([up[i] * _product_of_others(m[i].astype(np.float64)) for i in range(3)])
            call = f"reduce_prod(x.reshape(3, 3)={m.tolist()}, axis=1) weighted by {up.tolist()}"
        elif case == "reduce_prod-axis0":
            m = x.reshape(3, 3)
            up = np.array([2.0, 1.0, -1.0], np.float32)
            fn = lambda v: tf.reduce_prod(tf.reshape(v, [3, 3]), axis=0)   # noqa: E731
            g = np.stack([up[j] * _product_of_others(m[:, j].astype(np.float64)) for j in range(3)], axis=1)
            want = g.reshape(-1)
            call = f"reduce_prod(x.reshape(3, 3)={m.tolist()}, axis=0) weighted by {up.tolist()}"
        else:
            xs = np.array([2.0, 0.0, 3.0, 4.0], np.float32)
            xt = tf.constant(xs)
            up = np.array(1.5, np.float32)
            fn = tf.reduce_prod
            want = 1.5 * _product_of_others(xs.astype(np.float64))
            call = f"reduce_prod({xs.tolist()}) weighted by 1.5"
        with tf.GradientTape() as tape:
            tape.watch(xt)
            y = tf.reduce_sum(fn(xt) * tf.constant(up))
        got = _np(tape.gradient(y, xt))
        assert_close(got, want.astype(np.float32), tolerance=TOL32, call=call, what="gradient")


# -- tf.nn.embedding_lookup(max_norm=): the looked-up embedding is clipped whole -------------------------------------
@clause("nn.embedding-max-norm", ref="tf221")
def test_blind23_embedding_max_norm_clips_each_looked_up_embedding_whole(tf, budget):
    """max_norm clips each looked-up embedding, i.e. everything after the ids' dimensions (embedding_ops
    _clip: the L2 norm over axes rank(ids)..rank(result) - 1), whatever params' rank: for (4, 2, 3) params a
    row is a 2x3 block scaled as a whole by c / max(norm, c); ids of rank 1 and 2, params as one tensor, a
    tf.Variable, or a list of two partitions in TF's "div" layout give the same rows."""
    params = (np.arange(4 * 2 * 3, dtype=np.float32).reshape(4, 2, 3) - 7.0) / 3.0
    cases = [("tensor", np.array([1, 3, 0])), ("list of partitions", np.array([[2, 0], [3, 3]])),
             ("variable", np.array([[1], [2]])), ("tensor", np.array([[0, 2], [1, 3]]))]
    for how, ids in budget(cases):
        rows = params[ids].astype(np.float64)
        axes = tuple(range(ids.ndim, rows.ndim))
        for c in (2.5, 6.0):
            norm = np.sqrt((rows ** 2).sum(axis=axes, keepdims=True))
            want = (rows * c / np.maximum(norm, c)).astype(np.float32)
            if how == "tensor":
                p = tf.constant(params)
            elif how == "variable":
                p = tf.Variable(params)
            else:
                p = [tf.constant(params[:2]), tf.constant(params[2:])]
            got = _np(tf.nn.embedding_lookup(p, tf.constant(ids), max_norm=c))
            call = f"tf.nn.embedding_lookup(params (4, 2, 3) as a {how}, ids={ids.tolist()}, max_norm={c})"
            assert_equal(tuple(got.shape), tuple(want.shape), what="shape", call=call)
            assert_close(got, want, tolerance=TOL32, call=call, what="each embedding scaled by c / max(norm, c)")


# -- Sum and Mean metrics: each sample's inner axes reduced (sum for Sum, mean for Mean) -------------------------------
@clause("keras.metric.sample-weight", ref="tf221")
def test_blind23_reduction_metrics_reduce_each_samples_inner_axes(keras, budget):
    """Keras 3.15's reduce_to_samplewise_values: values of rank > 1 are reduced to one per sample over their
    inner axes (beyond the sample weights' rank) with the metric's own reduction, ops.sum for Sum and ops.mean
    for Mean, after weighting: Sum of (2, 3) values is their total, Sum with (2,) or (2, 1) weights the total
    of w_i * v_ij, with (2, 3) weights the total of w_ij * v_ij; Mean divides the total of the per-sample
    means of w * v by the sum of the per-sample mean weights. A (2, 2, 2) value reduces the same way."""
    v = np.array([[1.0, 2.0, 6.0], [-4.0, 5.0, 0.5]], np.float32)
    w1 = np.array([2.0, 0.5], np.float32)
    w2 = np.array([[1.0, 0.0, 3.0], [0.5, 2.0, 1.0]], np.float32)
    v3 = np.arange(8, dtype=np.float32).reshape(2, 2, 2) - 2.5
    cases = [("none", v, None), ("(2,)", v, w1), ("(2, 1)", v, w1.reshape(2, 1)), ("(2, 3)", v, w2),
             ("rank-3 none", v3, None), ("rank-3 (2,)", v3, w1)]
    for name, values, w in budget(cases):
        vv = values.astype(np.float64)
        if w is None:
            wfull = np.ones_like(vv)
            per_sample_w = np.ones(vv.shape[0])
        else:
            wf = w.astype(np.float64)
            wfull = np.broadcast_to(wf.reshape(wf.shape + (1,) * (vv.ndim - wf.ndim)), vv.shape)
            per_sample_w = wf.reshape(wf.shape[0], -1).mean(axis=1) if wf.ndim > 1 and wf.shape[1] > 1 \
                else wf.reshape(-1)
        prod = (vv * wfull).reshape(vv.shape[0], -1)
        want_sum = prod.sum()
        want_mean = prod.mean(axis=1).sum() / per_sample_w.sum()
        for cls, want in (("Sum", want_sum), ("Mean", want_mean)):
            m = getattr(keras.metrics, cls)()
            m.update_state(values, sample_weight=w)
            assert_close(_np(m.result()), np.float32(want), tolerance=TOL32,
                         call=f"keras.metrics.{cls}().update_state(values {values.shape}, sample_weight {name})")


# -- accuracy metrics: labels and predictions brought to the same rank ------------------------------------------------
@clause("keras.metric.accuracy", ref="tf221")
def test_blind23_accuracy_metrics_match_label_and_prediction_ranks(keras, budget):
    """Accuracy and BinaryAccuracy first bring y_true and y_pred to the same rank (Keras's
    squeeze_or_expand_to_same_rank: a trailing 1 squeezed off the longer one), so (n,) labels against (n, 1)
    predictions compare sample by sample (never a broadcast (n, n) table), in either order, through the
    metric classes and through compile(metrics=[...]) and evaluate of a model with a (n, 1) output."""
    y = np.array([1.0, 2.0, 3.0, 0.0, 5.0], np.float32)
    p = np.array([1.0, 0.0, 3.0, 0.0, 4.0], np.float32)
    yb = np.array([1.0, 0.0, 1.0, 1.0, 0.0], np.float32)
    pb = np.array([0.9, 0.2, 0.4, 0.7, 0.6], np.float32)
    for case in budget(["Accuracy (n,) vs (n, 1)", "Accuracy (n, 1) vs (n,)", "BinaryAccuracy (n,) vs (n, 1)",
                        "Accuracy in compile"]):
        if case.startswith("Accuracy (n,) vs"):
            m = keras.metrics.Accuracy()
            m.update_state(y, p.reshape(-1, 1))
            got, want = _np(m.result()), np.mean(y == p)
        elif case.startswith("Accuracy (n, 1)"):
            m = keras.metrics.Accuracy()
            m.update_state(y.reshape(-1, 1), p)
            got, want = _np(m.result()), np.mean(y == p)
        elif case.startswith("BinaryAccuracy"):
            m = keras.metrics.BinaryAccuracy()
            m.update_state(yb, pb.reshape(-1, 1))
            got, want = _np(m.result()), np.mean(yb == (pb > 0.5))
        else:
            model = keras.Sequential([keras.Input((1,)), keras.layers.Dense(1, kernel_initializer="ones",
                                                                            use_bias=False)])
            model.compile("sgd", "mse", metrics=[keras.metrics.Accuracy()])
            logs = model.evaluate(p.reshape(-1, 1), y, batch_size=5, verbose=0, return_dict=True)
            got, want = np.asarray(logs["accuracy"]), np.mean(y == p)
        assert_close(got, np.float32(want), tolerance=TOL32, call=case, what="the fraction of equal samples")


# -- fit(steps_per_epoch=) over a finite input: the next epoch starts a new pass where the data ends -------------------
def _sgd_epochs(xs: np.ndarray, k: int, epochs: int, lr: float) -> tuple[list[float], float]:
    """Keras 3.15's epoch iterator over a finite input of n batches with steps_per_epoch=k: the iterator
    carries over from epoch to epoch; an epoch ends after k steps or when the data runs out (a shorter epoch),
    and once all n batches are used the next epoch starts a new pass. A 1-unit linear model y = w x (w = 1)
    with mse against 0 and SGD(lr): each step w -= lr * 2 w x^2; the epoch's loss is its steps' mean loss."""
    w, pos, losses = 1.0, 0, []
    for _ in range(epochs):
        step_losses = []
        for _ in range(k):
            if pos >= xs.size:
                break
            x = float(xs[pos])
            step_losses.append((w * x) ** 2)
            w -= lr * 2.0 * w * x * x
            pos += 1
        if pos >= xs.size:
            pos = 0
        losses.append(float(np.mean(step_losses)) if step_losses else float("nan"))
    return losses, w


@clause("keras.fit.data", ref="tf221")
def test_blind23_fit_steps_per_epoch_starts_a_new_pass_where_the_data_ends(tf, keras, budget):
    """fit(steps_per_epoch=k) over an input of n batches (a finite tf.data dataset, or arrays) keeps one
    iterator across epochs and starts a new pass when the last batch has been used: with n = 4 and k = 2 the
    epochs see batches 0-1, 2-3, 0-1; with n = 3 and k = 2: 0-1, then 2 alone (the data ran out: a one-step
    epoch), then 0-1. The per-epoch losses and the final kernel follow that order (a 1-unit linear model, mse
    against 0, SGD)."""
    lr = 0.05
    for how, n, k in budget([("dataset", 4, 2), ("arrays", 4, 2), ("dataset", 3, 2), ("dataset", 6, 3)]):
        xs = (np.arange(n, dtype=np.float32) + 1.0) / 2.0
        want_losses, want_w = _sgd_epochs(xs, k, 3, lr)
        model = keras.Sequential([keras.Input((1,)), keras.layers.Dense(1, kernel_initializer="ones",
                                                                        use_bias=False)])
        model.compile(keras.optimizers.SGD(lr), "mse")
        x, y = xs.reshape(n, 1), np.zeros((n, 1), np.float32)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            if how == "dataset":
                h = model.fit(tf.data.Dataset.from_tensor_slices((x, y)).batch(1), epochs=3, steps_per_epoch=k,
                              verbose=0)
            else:
                h = model.fit(x, y, batch_size=1, epochs=3, steps_per_epoch=k, shuffle=False, verbose=0)
        call = f"fit({how} of {n} batches of 1, steps_per_epoch={k}, epochs=3)"
        assert_close(np.asarray(h.history["loss"], np.float32), np.asarray(want_losses, np.float32),
                     tolerance=Tolerance(rtol=1e-4, atol=1e-6), call=call, what="per-epoch losses")
        assert_close(_np(model.layers[0].kernel).reshape(()), np.float32(want_w),
                     tolerance=Tolerance(rtol=1e-4, atol=1e-6), call=call, what="final kernel")


# -- sparse categorical crossentropy: trailing-1 labels squeezed in every spelling ------------------------------------
@clause("keras.loss.shapes", ref="tf221")
def test_blind23_sparse_crossentropy_squeezes_unit_label_axis_in_every_spelling(keras, budget):
    """Sparse labels may carry a trailing axis of 1 at any rank: (b, t, 1) labels against (b, t, classes)
    predictions are squeezed to (b, t) by keras.ops.sparse_categorical_crossentropy (the backend op),
    keras.losses.sparse_categorical_crossentropy and the SparseCategoricalCrossentropy class, with
    probabilities and with logits alike: -log p[label] per position (the class averages them)."""
    labels = np.array([[[1], [0], [2]], [[3], [3], [0]]], np.int32)
    rng = np.random.default_rng(23)
    logits = rng.normal(size=(2, 3, 4)).astype(np.float32)
    probs = np.exp(logits) / np.exp(logits).sum(-1, keepdims=True)
    lab = labels[..., 0]
    want = -np.log(np.take_along_axis(probs.astype(np.float64), lab[..., None], -1)[..., 0])
    for spelling, from_logits in budget([("keras.ops", False), ("keras.ops", True), ("keras.losses", False),
                                         ("class", True)]):
        pred = logits if from_logits else probs
        call = f"{spelling} sparse_categorical_crossentropy(labels (2, 3, 1), (2, 3, 4), from_logits={from_logits})"
        if spelling == "keras.ops":
            got = _np(keras.ops.sparse_categorical_crossentropy(labels, pred, from_logits=from_logits))
        elif spelling == "keras.losses":
            got = _np(keras.losses.sparse_categorical_crossentropy(labels, pred, from_logits=from_logits))
        else:
            got = _np(keras.losses.SparseCategoricalCrossentropy(from_logits=from_logits)(labels, pred))
            assert_close(got, np.float32(want.mean()), tolerance=Tolerance(rtol=1e-5, atol=1e-6), call=call,
                         what="mean loss")
            continue
        assert_equal(tuple(got.shape), (2, 3), what="loss shape", call=call)
        assert_close(got, want.astype(np.float32), tolerance=Tolerance(rtol=1e-5, atol=1e-6), call=call)


# -- tf.function's tracing count: the call bound with its defaults ---------------------------------------------------
@clause("function.tracing-count", ref="tf221")
def test_blind23_tracing_count_binds_calls_with_their_defaults(tf, budget):
    """TF keys a call by the Python signature bound to it *with the defaults filled in*: f(x), f(x, 2),
    f(x, k=2), f(x=x) and f(x, scale=1.0) of `def f(x, k=2, *, scale=1.0)` are one trace; a non-default value
    (k=3, positional or keyword alike) is a second, and a method called on one object with and without its
    default a single trace too."""
    for case in budget(["function", "method"]):
        t = tf.constant([1.0, 2.0])
        if case == "function":
            @tf.function
            def f(x, k=2, *, scale=1.0):
                return x * k * scale
            calls = [((t,), {}), ((t, 2), {}), ((t,), {"k": 2}), ((), {"x": t}), ((t,), {"scale": 1.0}),
                     ((t, 3), {}), ((t,), {"k": 3}), ((t, 2), {"scale": 1.0})]
            counts = []
            for args, kwargs in calls:
                f(*args, **kwargs)
                counts.append(f.experimental_get_tracing_count())
            assert_equal(counts, [1, 1, 1, 1, 1, 2, 2, 2], what="tracing count after each call",
                         call="f(x, k=2, *, scale=1.0): f(x), f(x, 2), f(x, k=2), f(x=x), f(x, scale=1.0), "
                              "f(x, 3), f(x, k=3), f(x, 2, scale=1.0)")
        else:
            class M(tf.Module):
                @tf.function
                def g(self, x, k=2):
                    return x * k
            m = M()
            m.g(t)
            m.g(t, 2)
            m.g(t, k=2)
            assert_equal(m.g.experimental_get_tracing_count(), 1, what="tracing count",
                         call="tf.Module method g(self, x, k=2): m.g(x), m.g(x, 2), m.g(x, k=2)")


# -- Generator.split: each new generator is keyed by the parent's next int64 draw ------------------------------------
@clause("ops.random-generator", ref="tf221")
def test_blind23_generator_split_keys_new_generators_by_the_parents_draws(tf, budget):
    """Generator.split(count) draws count int64 keys with uniform_full_int and makes each new generator's
    state [0, 0, key] (counter zero, the key in the key slot): a split generator draws what
    Generator.from_state([0, 0, key], "philox") draws; make_seeds(count) gives the same keys over a row of
    zeros; and the parent advances as if it had made that draw."""
    for count in budget([2, 3]):
        parent = tf.random.Generator.from_seed(7)
        start = _np(parent.state).copy()     # (a NumPy copy: from_state of the variable itself shares it)
        twin = tf.random.Generator.from_state(start, parent.algorithm)
        other = tf.random.Generator.from_state(start, parent.algorithm)
        keys = _np(twin.uniform_full_int([count], tf.int64))
        subs = parent.split(count)
        seeds = _np(other.make_seeds(count))
        call = f"Generator.from_seed(7).split({count})"
        assert_equal(seeds.tolist(), [keys.tolist(), [0] * count], what="make_seeds: keys over zeros",
                     call=f"Generator.from_seed(7).make_seeds({count})")
        assert_equal(_np(parent.state).tolist(), _np(twin.state).tolist(), what="parent state after split",
                     call=call)
        for i, sub in enumerate(subs):
            assert_equal(_np(sub.state).tolist(), [0, 0, int(keys[i])], what=f"state of generator {i}", call=call)
            ref = tf.random.Generator.from_state([0, 0, int(keys[i])], "philox")
            assert_close(_np(sub.normal([4])), _np(ref.normal([4])), tolerance=Tolerance(rtol=0, atol=0),
                         call=call + f": generator {i}.normal([4]) vs from_state([0, 0, key {i}])")
            assert_close(_np(sub.uniform([3])), _np(ref.uniform([3])), tolerance=Tolerance(rtol=0, atol=0),
                         call=call + f": generator {i}.uniform([3]) vs from_state([0, 0, key {i}])")
