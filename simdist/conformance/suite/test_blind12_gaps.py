"""Gaps the twelfth blind batch of planted training bugs found (issue 29, docs/conformance.md "How
strong is the suite"): behaviours and options no earlier suite test set or looked at closely
enough for a wrong implementation to fail (TF 2.21 + Keras 3.15).

Each test checks a class of behaviour, not one planted bug. Every expected value is computed here
with NumPy (or a Python transcription of TF's or Keras 3.15's rule), never with the backend's own
implementation of the same rule.
"""

from __future__ import annotations

import numpy as np
import pytest

from simdist.conformance.assertions import assert_close, assert_equal, assert_true, raises
from simdist.conformance.tolerances import Tolerance

clause = pytest.mark.clause
TOL32 = Tolerance(rtol=2e-5, atol=2e-6)


def _f32(*shape, seed=0, lo=-1.0, hi=1.0):
    return np.random.default_rng(seed).uniform(lo, hi, shape).astype(np.float32)


# -- EarlyStopping's restore_best_weights, with and without stopping ------------------------------------------
def _diverging_sgd_weights(x, y, w0, lr, epochs):
    """The weights after each epoch of full-batch SGD on mse for Dense(1, use_bias=False), and the
    loss each epoch logs (the loss at the weights before its step)."""
    w, weights, losses = w0.astype(np.float64), [], []
    for _ in range(epochs):
        err = x @ w - y
        losses.append(float(np.mean(err ** 2)))
        w = w - lr * (2.0 / len(x)) * x.T @ err
        weights.append(w.copy())
    return weights, losses


@clause("keras.callback.early-stopping", ref="tf221")
def test_blind12_early_stopping_restores_the_best_weights_at_the_end_of_every_fit(keras, budget):
    """Keras 3.15's EarlyStopping(restore_best_weights=True) sets the best epoch's weights back in
    on_train_end whenever it recorded any, whether it stopped training or fit ran all its epochs;
    with restore_best_weights=False the last epoch's weights stay."""
    x = np.array([[1.0], [2.0], [-1.0], [0.5]], np.float32)
    y = np.array([[0.5], [1.0], [-0.2], [0.1]], np.float32)
    w0 = np.array([[0.3]], np.float32)
    lr = 0.9     # lr * curvature > 2: the loss grows every epoch, so the best epoch is the first
    for patience, restore in budget([(10, True), (1, True), (10, False)]):
        model = keras.Sequential([keras.Input((1,)), keras.layers.Dense(1, use_bias=False)])
        model.set_weights([w0])
        model.compile(optimizer=keras.optimizers.SGD(lr), loss="mse")
        es = keras.callbacks.EarlyStopping(monitor="loss", patience=patience, restore_best_weights=restore)
        hist = model.fit(x, y, batch_size=4, epochs=4, shuffle=False, verbose=0, callbacks=[es])
        weights, losses = _diverging_sgd_weights(x, y, w0, lr, 4)
        ran = len(hist.history["loss"])
        call = f"fit 4 epochs, EarlyStopping(monitor='loss', patience={patience}, restore_best_weights={restore})"
        assert_equal(ran, 4 if patience == 10 else 2, call=call, what="epochs run")
        assert_close(hist.history["loss"], losses[:ran], call=call, what="History loss", tolerance=TOL32)
        best = int(np.argmin(losses[:ran]))
        expected = weights[best] if restore else weights[ran - 1]
        assert_close(model.get_weights()[0], expected, call=call, what="kernel after fit", tolerance=TOL32)


# -- History across fits ---------------------------------------------------------------------------------------
@clause("keras.fit.callbacks", ref="tf221")
def test_blind12_a_history_passed_to_several_fits_keeps_every_epochs_logs(keras):
    """History.on_train_begin resets `epoch` only: one History passed to two fits holds both fits'
    logs, one entry per epoch, and its `epoch` list the second fit's epochs."""
    x = _f32(6, 2, seed=1)
    y = _f32(6, 1, seed=2)
    model = keras.Sequential([keras.Input((2,)), keras.layers.Dense(1)])
    model.compile(optimizer=keras.optimizers.SGD(0.1), loss="mse")
    history = keras.callbacks.History()
    model.fit(x, y, batch_size=3, epochs=2, verbose=0, shuffle=False, callbacks=[history])
    first = list(history.history["loss"])
    model.fit(x, y, batch_size=3, epochs=5, initial_epoch=2, verbose=0, shuffle=False, callbacks=[history])
    call = "one History in fit(epochs=2) then fit(epochs=5, initial_epoch=2)"
    assert_equal(len(first), 2, call=call, what="len(history['loss']) after the first fit")
    assert_equal(len(history.history["loss"]), 5, call=call, what="len(history['loss']) after both fits")
    assert_close(history.history["loss"][:2], first, call=call, what="the first fit's losses")
    assert_equal(list(history.epoch), [2, 3, 4], call=call, what="history.epoch")


# -- mode="auto" on validation metrics -------------------------------------------------------------------------
@clause("keras.callback.monitor", ref="tf221")
def test_blind12_auto_mode_takes_a_val_metrics_direction_from_its_metric(keras, budget):
    """mode="auto" strips "val_" and asks the compiled metric for its direction: accuracy is
    maximised, mae minimised; each callback's `best` is the best of the logged values."""
    x = _f32(8, 3, seed=3)
    y = (x.sum(axis=1, keepdims=True) > 0).astype(np.float32)
    for monitor, pick in budget([("val_accuracy", max), ("val_mae", min), ("val_loss", min)]):
        keras.backend.clear_session()
        model = keras.Sequential([keras.Input((3,)), keras.layers.Dense(1, activation="sigmoid")])
        model.compile(optimizer=keras.optimizers.SGD(0.5), loss="binary_crossentropy", metrics=["accuracy", "mae"])
        es = keras.callbacks.EarlyStopping(monitor=monitor, patience=100, mode="auto")
        rl = keras.callbacks.ReduceLROnPlateau(monitor=monitor, patience=100, mode="auto")
        hist = model.fit(x, y, batch_size=4, epochs=4, verbose=0, shuffle=False, validation_data=(x[::-1], y[::-1]),
                         callbacks=[es, rl])
        values = hist.history[monitor]
        call = f"fit with EarlyStopping/ReduceLROnPlateau(monitor={monitor!r}, mode='auto')"
        assert_close(float(es.best), pick(values), call=call, what="EarlyStopping.best")
        assert_close(float(rl.best), pick(values), call=call, what="ReduceLROnPlateau.best")


# -- Dropout: active only with training=True -------------------------------------------------------------------
@clause("keras.layer.dropout", ref="tf221")
def test_blind12_dropout_drops_only_when_training_is_true(keras, tf):
    """Dropout passes its input through when `training` is not given or None (a direct call of the
    layer, of its `call` or of a model), is False, or in predict; with training=True it zeroes entries and scales the rest by
    1 / (1 - rate)."""
    x = np.ones((4, 50), np.float32)
    layer = keras.layers.Dropout(0.5, seed=1)
    model = keras.Sequential([keras.Input((50,)), layer])
    for what, out in [("layer(x)", layer(x)), ("layer(x, training=False)", layer(x, training=False)),
                      ("layer(x, training=None)", layer(x, training=None)), ("layer.call(x)", layer.call(x)),
                      ("layer.call(x, training=None)", layer.call(x, training=None)),
                      ("model(x)", model(x)), ("model(x, training=None)", model(x, training=None)),
                      ("model.call(x, training=None)", model.call(x, training=None)),
                      ("model.predict(x)", model.predict(x, verbose=0))]:
        assert_equal(np.asarray(out), x, call=f"Dropout(0.5): {what}", what=what)
    out = np.asarray(layer(x, training=True))
    kept = out != 0
    assert_true(0 < kept.sum() < out.size, f"Dropout(0.5)(x, training=True) kept {kept.sum()} of {out.size} entries, "
                "but should keep some and drop some", call="Dropout(0.5)(ones((4, 50)), training=True)")
    assert_close(out[kept], np.full(int(kept.sum()), 2.0, np.float32), call="Dropout(0.5)(x, training=True)",
                 what="the kept entries (scaled by 1 / (1 - rate))")


# -- go_backwards: the sequences stay in reading order ---------------------------------------------------------
@clause("keras.rnn.layers", ref="tf221")
def test_blind12_go_backwards_returns_the_sequence_in_the_order_it_was_read(keras, budget):
    """A go_backwards layer reads the steps last to first and returns its sequence in that reading
    order (output[:, i] is the state after i + 1 steps of the reversed input), its last output the
    state after the first step; Bidirectional flips the backward sequence back to time order."""
    x = _f32(2, 4, 3, seed=4)
    k = _f32(3, 2, seed=5)
    rk = _f32(2, 2, seed=6) * 0.5
    b = np.array([0.1, -0.2], np.float32)

    def simple_rnn(seq):
        h, outs = np.zeros((seq.shape[0], 2)), []
        for t in range(seq.shape[1]):
            h = np.tanh(seq[:, t] @ k + h @ rk + b)
            outs.append(h)
        return np.stack(outs, axis=1)

    backwards = simple_rnn(x[:, ::-1])
    for case in budget(["sequences", "last", "bidirectional"]):
        if case == "bidirectional":
            layer = keras.layers.Bidirectional(keras.layers.SimpleRNN(2, return_sequences=True))
        else:
            layer = keras.layers.SimpleRNN(2, go_backwards=True, return_sequences=case == "sequences")
        model = keras.Sequential([keras.Input((4, 3)), layer])
        if case == "bidirectional":
            layer.forward_layer.set_weights([k, rk, b])
            layer.backward_layer.set_weights([k, rk, b])
            expected = np.concatenate([simple_rnn(x), backwards[:, ::-1]], axis=-1)
        else:
            layer.set_weights([k, rk, b])
            expected = backwards if case == "sequences" else backwards[:, -1]
        call = ("Bidirectional(SimpleRNN(2, return_sequences=True))" if case == "bidirectional"
                else f"SimpleRNN(2, go_backwards=True, return_sequences={case == 'sequences'})")
        assert_close(np.asarray(model(x)), expected, call=call, tolerance=TOL32)


# -- Dense and convolutions: bias before activation, strides per axis ------------------------------------------
@clause("keras.layer.forward-and-gradients", ref="tf221")
def test_blind12_dense_adds_its_bias_before_the_activation(keras, budget):
    """Dense computes activation(x @ kernel + bias), so a negative bias moves the ReLU kink and a
    bias under sigmoid/tanh is squashed with the rest."""
    x = _f32(5, 3, seed=7)
    k = _f32(3, 4, seed=8)
    b = np.array([-0.5, 0.25, 1.0, -2.0], np.float32)
    acts = {"relu": lambda z: np.maximum(z, 0), "sigmoid": lambda z: 1 / (1 + np.exp(-z)), "tanh": np.tanh}
    for name in budget(list(acts)):
        layer = keras.layers.Dense(4, activation=name)
        layer.build((None, 3))
        layer.set_weights([k, b])
        expected = acts[name](x.astype(np.float64) @ k + b)
        assert_close(np.asarray(layer(x)), expected, call=f"Dense(4, activation={name!r}) with a bias",
                     tolerance=TOL32)


def _conv2d_valid(x, k, sh, sw):
    n, h, w, _ = x.shape
    kh, kw, _, co = k.shape
    oh, ow = (h - kh) // sh + 1, (w - kw) // sw + 1
    out = np.zeros((n, oh, ow, co))
    for i in range(oh):
        for j in range(ow):
            patch = x[:, i * sh:i * sh + kh, j * sw:j * sw + kw, :].astype(np.float64)
            out[:, i, j, :] = np.tensordot(patch, k, axes=([1, 2, 3], [0, 1, 2]))
    return out


@clause("keras.layer.conv2d", ref="tf221")
def test_blind12_conv2d_strides_each_axis_by_its_own_stride(keras, budget):
    """Conv2D(strides=(sh, sw)) steps the rows by sh and the columns by sw (valid padding)."""
    x = _f32(1, 7, 8, 2, seed=9)
    k = _f32(3, 2, 2, 3, seed=10)
    for strides in budget([(1, 2), (2, 1), (3, 2)]):
        layer = keras.layers.Conv2D(3, (3, 2), strides=strides, use_bias=False)
        layer.build((None, 7, 8, 2))
        layer.set_weights([k])
        expected = _conv2d_valid(x, k, *strides)
        out = np.asarray(layer(x))
        call = f"Conv2D(3, (3, 2), strides={strides}) on (1, 7, 8, 2)"
        assert_equal(out.shape, expected.shape, call=call, what="out.shape")
        assert_close(out, expected, call=call, tolerance=TOL32)


# -- LayerNormalization with trained gamma and beta --------------------------------------------------------------
@clause("keras.layer.layernorm", ref="tf221")
def test_blind12_layer_normalization_scales_then_shifts(keras, budget):
    """LayerNormalization gives gamma * (x - mean) / sqrt(var + eps) + beta, for gamma and beta away
    from their initial ones and zeros, over one axis and over two."""
    x = _f32(3, 4, 5, seed=11, lo=-2, hi=3)
    for axis in budget([-1, [1, 2]]):
        shape = (5,) if axis == -1 else (4, 5)
        gamma = _f32(*shape, seed=12, lo=0.5, hi=2.0)
        beta = _f32(*shape, seed=13)
        layer = keras.layers.LayerNormalization(axis=axis, epsilon=1e-3)
        layer.build((None, 4, 5))
        layer.set_weights([gamma, beta])
        axes = (2,) if axis == -1 else (1, 2)
        xd = x.astype(np.float64)
        mean, var = xd.mean(axis=axes, keepdims=True), xd.var(axis=axes, keepdims=True)
        expected = gamma * (xd - mean) / np.sqrt(var + 1e-3) + beta
        assert_close(np.asarray(layer(x)), expected, call=f"LayerNormalization(axis={axis}) with gamma, beta set",
                     tolerance=Tolerance(rtol=1e-4, atol=1e-5))


# -- "sum_over_batch_size" over losses with more than one entry per sample --------------------------------------
@clause("keras.loss.reductions", ref="tf221")
def test_blind12_sum_over_batch_size_divides_by_every_loss_entry(keras, budget):
    """The default reduction divides the (weighted) sum by the number of loss entries, not by the
    batch size: per-step losses of sequence targets average over batch * steps."""
    rng = np.random.default_rng(14)
    logits = rng.normal(size=(3, 4, 5)).astype(np.float32)
    labels = rng.integers(0, 5, size=(3, 4))
    yt = rng.normal(size=(3, 4, 2)).astype(np.float32)
    yp = rng.normal(size=(3, 4, 2)).astype(np.float32)
    sw = np.array([[1.0, 0.5, 0.0, 2.0], [1.0, 1.0, 1.0, 1.0], [0.0, 3.0, 1.0, 0.5]], np.float32)
    ls = logits.astype(np.float64) - logits.max(-1, keepdims=True)
    ls = ls - np.log(np.exp(ls).sum(-1, keepdims=True))
    scce = -np.take_along_axis(ls, labels[..., None], -1)[..., 0]
    mse = ((yt.astype(np.float64) - yp) ** 2).mean(-1)
    for name, weighted in budget([("scce", False), ("scce", True), ("mse", False), ("mse", True)]):
        if name == "scce":
            loss = keras.losses.SparseCategoricalCrossentropy(from_logits=True)
            per, args = scce, (labels, logits)
        else:
            loss = keras.losses.MeanSquaredError()
            per, args = mse, (yt, yp)
        got = loss(*args, sample_weight=sw) if weighted else loss(*args)
        expected = (per * sw).sum() / per.size if weighted else per.sum() / per.size
        call = f"{type(loss).__name__}()(y of shape {args[0].shape}{', sample_weight (3, 4)' if weighted else ''})"
        assert_close(float(got), expected, call=call, tolerance=TOL32)


# -- gradients: tf.where's branches, broadcast operands of lower rank ---------------------------------------------
@clause("autodiff.op-gradients", ref="tf221")
def test_blind12_where_gives_each_branch_the_gradient_where_it_was_chosen(tf, budget):
    """d sum(w * where(c, x, y)): x gets w where c is True, y where it is False, each summed over
    the axes it was broadcast along."""
    c = np.array([[True, False, True], [False, False, True]])
    w = _f32(2, 3, seed=15)
    for xs, ys in budget([((2, 3), (2, 3)), ((2, 3), (3,)), ((1, 3), (2, 1))]):
        x = tf.constant(_f32(*xs, seed=16))
        y = tf.constant(_f32(*ys, seed=17))
        with tf.GradientTape(persistent=True) as tape:
            tape.watch([x, y])
            out = tf.reduce_sum(tf.constant(w) * tf.where(tf.constant(c), x, y))
        gx, gy = tape.gradient(out, [x, y])
        ex = np.where(c, w, 0.0)
        ey = np.where(c, 0.0, w)
        ex = ex.sum(axis=0, keepdims=True) if xs[0] == 1 else ex
        ey = ey.sum(axis=0) if ys == (3,) else (ey.sum(axis=1, keepdims=True) if ys == (2, 1) else ey)
        call = f"d sum(w * where(c, x{xs}, y{ys}))"
        assert_close(np.asarray(gx), ex, call=call, what="dx", tolerance=TOL32)
        assert_close(np.asarray(gy), ey, call=call, what="dy", tolerance=TOL32)


@clause("autodiff.op-gradients", ref="tf221")
def test_blind12_operands_of_lower_rank_sum_their_gradient_over_the_leading_axes(tf, budget):
    """x (2, 3, 4) op b: a b of shape (4,), (3, 4) or (1, 4) gets the gradient summed over the axes
    it was extended or broadcast along, for +, -, *, / and maximum."""
    x = _f32(2, 3, 4, seed=18, lo=0.5, hi=2.0)
    w = _f32(2, 3, 4, seed=19)
    ops = {"add": (lambda a, b: a + b, lambda a, b: (np.ones_like(a), np.ones_like(a))),
           "sub": (lambda a, b: a - b, lambda a, b: (np.ones_like(a), -np.ones_like(a))),
           "mul": (lambda a, b: a * b, lambda a, b: (np.broadcast_to(b, a.shape), a)),
           "div": (lambda a, b: a / b, lambda a, b: (1 / np.broadcast_to(b, a.shape), -a / b ** 2))}
    for name, bshape in budget([(n, s) for n in ops for s in [(4,), (3, 4), (1, 4)]]):
        b = _f32(*bshape, seed=20, lo=0.5, hi=2.0)
        fn, dfn = ops[name]
        xt, bt = tf.constant(x), tf.constant(b)
        with tf.GradientTape() as tape:
            tape.watch([xt, bt])
            out = tf.reduce_sum(tf.constant(w) * fn(xt, bt))
        gx, gb = tape.gradient(out, [xt, bt])
        dx, db = dfn(x.astype(np.float64), b.astype(np.float64))
        full_db = w * db
        lead = tuple(range(3 - len(bshape)))
        eb = full_db.sum(axis=lead) if lead else full_db
        if bshape == (1, 4):
            eb = eb.sum(axis=0, keepdims=True)
        call = f"d sum(w * (x(2, 3, 4) {name} b{bshape}))"
        assert_close(np.asarray(gx), w * dx, call=call, what="dx", tolerance=TOL32)
        assert_close(np.asarray(gb), eb, call=call, what="db", tolerance=Tolerance(rtol=1e-4, atol=1e-5))


# -- GradientTape.watched_variables -------------------------------------------------------------------------------
@clause("autodiff.watch", ref="tf221")
def test_blind12_watched_variables_lists_each_variable_once(tf):
    """A variable read several times (and watched explicitly as well) is listed once by
    watched_variables(), and its gradient sums every read."""
    a, b, c = tf.Variable(1.0), tf.Variable(2.0), tf.Variable(3.0)
    with tf.GradientTape() as tape:
        y = b * a + a * a + b
        tape.watch(a)
        y = y + c * b
    got = tape.watched_variables()
    call = "tape over b * a + a * a + b, watch(a), + c * b"
    assert_equal(len(got), 3, call=call, what="len(watched_variables())")
    assert_true(all(any(v is w for v in got) for w in (a, b, c)),
                f"watched_variables() holds {[float(v.numpy()) for v in got]}, but should hold a, b and c once each "
                "(values 1.0, 2.0, 3.0)", call=call)
    grads = tape.gradient(y, [a, b, c])
    assert_close([float(g) for g in grads], [2.0 + 2.0, 1.0 + 1.0 + 3.0, 2.0], call=call, what="gradients")


@clause("autodiff.watch", ref="tf221")
def test_blind12_watched_variables_in_creation_order(tf):
    """watched_variables() lists the variables in the order they were made, whatever order the tape
    read or watched them in (TF 2.21 keeps them in a set ordered by the handle's id): made c, a, b,
    read b, a, c: listed c, a, b; one made while the tape runs comes after the older ones; explicit
    watches with watch_accessed_variables=False too; custom_gradient hands its grad_fn each variable
    the function read once (TF's eager path takes them through a set: no fixed order)."""
    c, a, b = tf.Variable(1.0, name="c"), tf.Variable(2.0, name="a"), tf.Variable(3.0, name="b")
    cases = []
    with tf.GradientTape() as tape:
        _ = b * a * c
    cases.append(("read b, a, c", tape.watched_variables(), [c, a, b]))
    with tf.GradientTape() as tape:
        y = b * 1.0
        d = tf.Variable(4.0, name="d")
        _ = y + d + c
    cases.append(("read b, then d made and read, then c", tape.watched_variables(), [c, b, d]))
    with tf.GradientTape(watch_accessed_variables=False) as tape:
        tape.watch(b)
        tape.watch(c)
        tape.watch(a)
    cases.append(("watch(b), watch(c), watch(a) without accessed-variable watching",
                  tape.watched_variables(), [c, a, b]))
    seen = []

    @tf.custom_gradient
    def f(x):
        def grad(dy, variables=None):
            seen.extend(variables)
            return dy, [tf.ones_like(v) for v in variables]
        return x * b + a + c, grad

    x = tf.constant(1.0)
    with tf.GradientTape() as tape:
        tape.watch(x)
        out = f(x)
    tape.gradient(out, [x, a, b, c])
    # TF's eager custom_gradient collects them through a Python set of references (hashed by the
    # object's address: custom_gradient.py _eager_mode_decorator), so their order is not fixed.
    assert_true(len(seen) == 3 and {id(v) for v in seen} == {id(v) for v in (a, b, c)},
                f"custom_gradient's grad_fn got variables {[v.name for v in seen]}, but should get "
                "each of a, b, c once", call="custom_gradient's variables, read b, a, c")
    for call, got, want in cases:
        assert_true(len(got) == len(want) and all(g is w for g, w in zip(got, want)),
                    f"watched order {[v.name for v in got]}, but should be {[v.name for v in want]} "
                    "(the order the variables were made)", call=call)


# -- optimizers: constraints after the update; a schedule's config ------------------------------------------------
@clause("optim.update-rules", ref="tf221")
def test_blind12_constraints_project_the_updated_weights(keras, tf, budget):
    """The optimizer applies each variable's constraint (any callable) after updating it: the
    weights leave every step inside the constraint's set (clipped at 0, columns rescaled to a
    maximum norm, columns normalised)."""
    x = _f32(6, 3, seed=21)
    y = _f32(6, 2, seed=22, lo=-3, hi=3)
    k0 = _f32(3, 2, seed=23)
    lr = 0.5

    def col_norm(w):
        return tf.sqrt(tf.reduce_sum(tf.square(w), axis=0, keepdims=True))

    def nonneg(w):
        return np.maximum(w, 0)

    def max_norm(w):
        n = np.sqrt((w ** 2).sum(axis=0, keepdims=True))
        return w * np.clip(n, 0, 0.5) / (1e-7 + n)

    def unit_norm(w):
        return w / (1e-7 + np.sqrt((w ** 2).sum(axis=0, keepdims=True)))

    cases = [("relu (non-negative)", lambda: (lambda w: tf.nn.relu(w)), nonneg),
             ("max norm 0.5", lambda: (lambda w: w * tf.clip_by_value(col_norm(w), 0.0, 0.5) / (1e-7 + col_norm(w))),
              max_norm),
             ("unit norm", lambda: (lambda w: w / (1e-7 + col_norm(w))), unit_norm)]
    for name, make, ref in budget(cases):
        layer = keras.layers.Dense(2, use_bias=False, kernel_constraint=make())
        model = keras.Sequential([keras.Input((3,)), layer])
        model.set_weights([k0])
        model.compile(optimizer=keras.optimizers.SGD(lr), loss="mse")
        w = k0.astype(np.float64)
        for _ in range(2):
            w = ref(w - lr * (2.0 / y.size) * x.T @ (x @ w - y))
        model.fit(x, y, batch_size=6, epochs=2, shuffle=False, verbose=0)
        assert_close(model.get_weights()[0], w, call=f"Dense(kernel_constraint={name}), 2 SGD steps",
                     what="kernel", tolerance=Tolerance(rtol=1e-4, atol=1e-5))


@clause("optim.config-round-trip", ref="tf221")
def test_blind12_a_schedule_keeps_its_options_through_get_config(keras, budget):
    """A learning-rate schedule's get_config holds every option, so from_config (alone or inside an
    optimizer's config) gives the same learning rates step by step."""
    sched = keras.optimizers.schedules
    cases = [("ExponentialDecay(staircase=True)", lambda: sched.ExponentialDecay(0.5, 3, 0.5, staircase=True),
              lambda s: 0.5 * 0.5 ** np.floor(s / 3)),
             ("ExponentialDecay", lambda: sched.ExponentialDecay(0.5, 3, 0.5), lambda s: 0.5 * 0.5 ** (s / 3)),
             ("PiecewiseConstantDecay", lambda: sched.PiecewiseConstantDecay([2, 5], [1.0, 0.5, 0.1]),
              lambda s: 1.0 if s <= 2 else (0.5 if s <= 5 else 0.1))]
    for name, make, ref in budget(cases):
        s = make()
        again = type(s).from_config(s.get_config())
        opt = keras.optimizers.SGD.from_config(keras.optimizers.SGD(learning_rate=s).get_config())
        for step in range(8):
            expected = ref(step)
            call = f"{name} at step {step}"
            assert_close(float(again(step)), expected, call=call, what="from_config(get_config())(step)")
            opt.iterations.assign(step)
            assert_close(float(opt.learning_rate), expected, call=call,
                         what="SGD.from_config(SGD(schedule).get_config()).learning_rate")


# -- fit: stop_training set in a batch hook -----------------------------------------------------------------------
@clause("keras.fit.callback-hooks", ref="tf221")
def test_blind12_stop_training_set_in_a_batch_hook_stops_after_that_batch(keras, budget):
    """fit looks at model.stop_training after every batch: a callback setting it in
    on_train_batch_end (or TerminateOnNaN on a NaN loss) ends fit after that batch."""
    x = _f32(8, 2, seed=24)
    y = _f32(8, 1, seed=25)
    for stop_at in budget([1, 0, 2]):
        seen = []

        class Stop(keras.callbacks.Callback):
            def on_train_batch_end(self, batch, logs=None):
                seen.append(batch)
                if batch == stop_at:
                    self.model.stop_training = True

        model = keras.Sequential([keras.Input((2,)), keras.layers.Dense(1)])
        model.compile(optimizer=keras.optimizers.SGD(0.1), loss="mse")
        hist = model.fit(x, y, batch_size=2, epochs=3, shuffle=False, verbose=0, callbacks=[Stop()])
        call = f"fit(8 samples, batch_size=2, epochs=3), stop_training=True at batch {stop_at}"
        assert_equal(seen, list(range(stop_at + 1)), call=call, what="batches run")
        assert_equal(int(model.optimizer.iterations.numpy()), stop_at + 1, call=call, what="optimizer.iterations")
        assert_equal(len(hist.history["loss"]), 1, call=call, what="epochs in History")
    # TerminateOnNaN: the second batch's targets are NaN
    yn = y.copy()
    yn[2:4] = np.nan
    seen = []

    class Count(keras.callbacks.Callback):
        def on_train_batch_end(self, batch, logs=None):
            seen.append(batch)

    model = keras.Sequential([keras.Input((2,)), keras.layers.Dense(1)])
    model.compile(optimizer=keras.optimizers.SGD(0.1), loss="mse")
    model.fit(x, yn, batch_size=2, epochs=2, shuffle=False, verbose=0,
              callbacks=[Count(), keras.callbacks.TerminateOnNaN()])
    assert_equal(seen, [0, 1], call="fit with TerminateOnNaN, NaN targets in the second batch", what="batches run")


# -- tf.data: prefetch and cache hand out every element; cardinalities -------------------------------------------
@clause("dataset.batching", ref="tf221")
def test_blind12_prefetch_and_cache_hand_out_every_element(tf, budget):
    """prefetch(k) yields every element whatever k (0, 1, 2, AUTOTUNE, more than the dataset);
    cache() replays only a complete first pass: a pass stopped early (take, an iterator left
    behind) is discarded, and the next pass reads the input again."""
    r = tf.data.Dataset.range
    for n, k in budget([(5, 2), (0, 1), (1, 1), (5, 0), (5, 1), (5, 10), (5, -1), (7, 3)]):
        ds = r(n).prefetch(tf.data.AUTOTUNE if k == -1 else k)
        got = [int(v) for v in ds]
        assert_equal(got, list(range(n)), call=f"range({n}).prefetch({'AUTOTUNE' if k == -1 else k})")
    cached = r(5).map(lambda v: v * 2).cache()
    first = [int(v) for v in cached.take(2)]
    it = iter(cached)
    next(it)
    full = [int(v) for v in cached]
    again = [int(v) for v in cached]
    call = "ds = range(5).map(x * 2).cache(); list(ds.take(2)); one next(iter(ds)); list(ds) twice"
    assert_equal(first, [0, 2], call=call, what="list(ds.take(2))")
    assert_equal(full, [0, 2, 4, 6, 8], call=call, what="the first full pass")
    assert_equal(again, [0, 2, 4, 6, 8], call=call, what="the replayed pass")


@clause("dataset.batching", ref="tf221")
def test_blind12_zip_take_skip_and_concatenate_cardinalities_and_specs(tf, budget):
    """cardinality(): zip stops at its shortest finite input; take(k) of an infinite dataset has k
    elements; skip(k) past the end leaves 0 (skip(-1) too); concatenate adds. concatenate's element
    spec is the most specific shape compatible with both sides (a dimension that differs is None).
    Each is checked against the elements the dataset yields."""
    r = tf.data.Dataset.range
    INF = -1   # tf.data.INFINITE_CARDINALITY
    cases = [("zip(range(3), range(7))", lambda: tf.data.Dataset.zip((r(3), r(7))), 3),
             ("zip(range(7), range(3))", lambda: tf.data.Dataset.zip((r(7), r(3))), 3),
             ("zip(range(4), range(2).repeat())", lambda: tf.data.Dataset.zip((r(4), r(2).repeat())), 4),
             ("range(5).repeat().take(3)", lambda: r(5).repeat().take(3), 3),
             ("range(5).take(10)", lambda: r(5).take(10), 5),
             ("range(5).skip(10)", lambda: r(5).skip(10), 0),
             ("range(5).skip(2)", lambda: r(5).skip(2), 3),
             ("range(5).skip(-1)", lambda: r(5).skip(-1), 0),
             ("range(3).concatenate(range(4))", lambda: r(3).concatenate(r(4)), 7),
             ("range(3).repeat()", lambda: r(3).repeat(), INF)]
    for name, make, n in budget(cases):
        ds = make()
        assert_equal(int(ds.cardinality()), n, call=f"{name}.cardinality()")
        if n != INF:
            assert_equal(sum(1 for _ in ds), n, call=name, what="elements yielded")
    a = tf.data.Dataset.from_tensor_slices(np.zeros((4, 3), np.float32)).batch(2)
    b = tf.data.Dataset.from_tensor_slices(np.zeros((6, 3), np.float32)).batch(3, drop_remainder=True)
    for name, ds, shape in [("batch(2) + batch(3, drop_remainder=True)", a.concatenate(b), [None, 3]),
                            ("batch(3, drop) + batch(3, drop)", b.concatenate(b), [3, 3]),
                            ("batch(3, drop) + batch(2)", b.concatenate(a), [None, 3])]:
        assert_equal(ds.element_spec.shape.as_list(), shape, call=f"{name}: concatenate(...).element_spec.shape")


# -- Sequential's layers; Reshape with -1; functional rank matching --------------------------------------------------
@clause("keras.layer.tracking", ref="tf221")
def test_blind12_sequential_layers_are_the_added_layers(keras, budget):
    """Sequential.layers lists the layers added, without the InputLayer, whether the model was given
    an Input, an input shape later, or nothing (unbuilt)."""
    for how in budget(["no input", "Input", "built later", "add one by one"]):
        keras.backend.clear_session()
        d1, d2 = keras.layers.Dense(3, name="first"), keras.layers.Dense(1, name="second")
        if how == "Input":
            model = keras.Sequential([keras.Input((2,)), d1, d2])
        elif how == "add one by one":
            model = keras.Sequential()
            model.add(keras.Input((2,)))
            model.add(d1)
            model.add(d2)
        else:
            model = keras.Sequential([d1, d2])
            if how == "built later":
                model.build((None, 2))
        names = [layer.name for layer in model.layers]
        call = f"Sequential([Dense(name='first'), Dense(name='second')]) [{how}]"
        assert_equal(names, ["first", "second"], call=call, what="[l.name for l in model.layers]")
        assert_equal(model.get_layer(index=0).name, "first", call=call, what="get_layer(index=0).name")
        if how != "no input":
            out = model(np.ones((4, 2), np.float32))
            assert_equal(tuple(out.shape), (4, 1), call=call, what="model(ones((4, 2))).shape")


@clause("keras.layer.call", ref="tf221")
def test_blind12_reshape_resolves_minus_one_per_example(keras, budget):
    """Reshape(target_shape) reshapes each example: a -1 is resolved from the example's size, the
    batch axis kept apart."""
    x = np.arange(2 * 3 * 4, dtype=np.float32).reshape(2, 3, 4)
    for target, shape in budget([((-1, 2), (2, 6, 2)), ((4, -1), (2, 4, 3)), ((-1,), (2, 12)), ((2, -1, 3), (2, 2, 2, 3))]):
        out = np.asarray(keras.layers.Reshape(target)(x))
        call = f"Reshape({target})(x of shape (2, 3, 4))"
        assert_equal(out.shape, shape, call=call, what="out.shape")
        assert_equal(out, x.reshape(shape), call=call)


@clause("keras.model.call", ref="tf221")
def test_blind12_functional_models_match_an_input_rank_by_its_last_axis_only(keras):
    """A functional model given an input of one rank more whose last axis is 1 squeezes that axis
    only (a batch of one stays a batch), and one of one rank less expands it when the Input's last
    axis is 1."""
    inp = keras.Input((4,))
    model = keras.Model(inp, keras.layers.Dense(2, kernel_initializer="ones")(inp))
    x = np.arange(4, dtype=np.float32).reshape(1, 4)
    for what, arr in [("(1, 4, 1)", x[..., None]), ("(1, 4)", x)]:
        out = np.asarray(model(arr))
        call = f"Model(Input((4,)) -> Dense(2, ones)) on {what}"
        assert_equal(out.shape, (1, 2), call=call, what="out.shape")
        assert_close(out, np.full((1, 2), 6.0, np.float32), call=call)
    inp1 = keras.Input((1,))
    model1 = keras.Model(inp1, keras.layers.Dense(2, kernel_initializer="ones")(inp1))
    out = np.asarray(model1(np.array([3.0], np.float32)))
    assert_equal(out.shape, (1, 2), call="Model(Input((1,)) -> Dense(2)) on shape (1,)", what="out.shape")


# -- layer inputs: arrays cast to the compute dtype; auto names; summary counts -----------------------------------
@clause("keras.layer.call", ref="tf221")
def test_blind12_layers_cast_float_array_inputs_to_their_compute_dtype(keras, tf, budget):
    """A layer (or a model) called on a NumPy float64 array computes in its own dtype:
    the output is float32 for a float32 layer and float16 under mixed_float16; integer inputs are
    not cast."""
    x64 = np.array([[0.5, -1.0, 2.0]], np.float64)
    for policy in budget(["float32", "mixed_float16"]):
        keras.mixed_precision.set_global_policy(policy)
        try:
            want = "float32" if policy == "float32" else "float16"
            for name, layer, arg in [("Dense(2)", keras.layers.Dense(2), x64),
                                     ("Activation('relu')", keras.layers.Activation("relu"), x64),
                                     ("Sequential([Dense(2)])", keras.Sequential([keras.Input((3,)),
                                                                                 keras.layers.Dense(2)]), x64)]:
                out = layer(arg)
                assert_equal(tf.as_dtype(out.dtype).name, want, call=f"{name} under {policy} on float64 input",
                             what="out.dtype")
            out = keras.layers.Embedding(5, 2)(np.array([[1, 4]], np.int64))
            assert_equal(tf.as_dtype(out.dtype).name, want, call=f"Embedding under {policy}", what="out.dtype")
        finally:
            keras.mixed_precision.set_global_policy("float32")


@clause("keras.layer.naming", ref="tf221")
def test_blind12_automatic_names_count_from_one_per_prefix(keras):
    """After clear_session the first object of a class is named by its snake-cased class name, the
    next ones with _1, _2, ... (one counter per prefix)."""
    names = [keras.layers.Dense(1).name for _ in range(3)]
    names += [keras.layers.Conv2D(1, 1).name, keras.layers.Dense(1).name, keras.layers.Conv2D(1, 1).name]
    assert_equal(names, ["dense", "dense_1", "dense_2", "conv2d", "dense_3", "conv2d_1"], call="clear_session(); "
                 "Dense() x 3, Conv2D, Dense, Conv2D", what="names")


@clause("keras.model.summary", ref="tf221")
def test_blind12_summary_totals_count_the_built_optimizers_variables(keras):
    """model.summary()'s Total params is trainable + non-trainable + the built optimizer's
    variables, and the optimizer's line appears once the optimizer is built."""
    model = keras.Sequential([keras.Input((3,)), keras.layers.Dense(4), keras.layers.BatchNormalization(),
                              keras.layers.Dense(1)])
    model.compile(optimizer=keras.optimizers.Adam(0.01), loss="mse")
    model.fit(_f32(8, 3, seed=26), _f32(8, 1, seed=27), batch_size=4, epochs=1, verbose=0)
    lines = []
    model.summary(print_fn=lambda s, **kw: lines.append(s))
    text = "\n".join(lines)

    def count(label):
        import re
        m = re.search(label + r":\s*([\d,]+)", text)
        assert_true(m is not None, f"no '{label}' line in the summary:\n{text}", call="model.summary()")
        return int(m.group(1).replace(",", ""))

    trainable = 3 * 4 + 4 + 4 + 4 + 4 * 1 + 1
    non_trainable = 4 + 4
    optimizer = 2 + 2 * trainable            # iterations, learning_rate, two slots per trainable weight
    call = "Dense(4), BatchNormalization, Dense(1) fitted once with Adam: model.summary()"
    assert_equal(count("Trainable params"), trainable, call=call, what="Trainable params")
    assert_equal(count("Non-trainable params"), non_trainable, call=call, what="Non-trainable params")
    assert_equal(count("Optimizer params"), optimizer, call=call, what="Optimizer params")
    assert_equal(count("Total params"), trainable + non_trainable + optimizer, call=call, what="Total params")


# -- keras.Variable arithmetic, reflected operators ----------------------------------------------------------------
@clause("keras.variable", ref="tf221")
def test_blind12_variable_operators_keep_the_operand_order(keras):
    """keras.Variable's operators compute on its value, the reflected ones (number op variable) with
    the number on the left."""
    w = np.array([2.0, 4.0, -3.0], np.float32)
    v = keras.Variable(w)
    cases = [("1.0 / v", lambda: 1.0 / v, 1.0 / w), ("v / 2.0", lambda: v / 2.0, w / 2.0),
             ("10.0 - v", lambda: 10.0 - v, 10.0 - w), ("v - 10.0", lambda: v - 10.0, w - 10.0),
             ("2.0 ** v", lambda: 2.0 ** v, 2.0 ** w), ("v ** 2.0", lambda: v ** 2.0, w ** 2.0),
             ("7.0 // v", lambda: 7.0 // v, 7.0 // w), ("7.0 % v", lambda: 7.0 % v, np.mod(7.0, w)),
             ("3.0 * v", lambda: 3.0 * v, 3.0 * w), ("1.0 + v", lambda: 1.0 + v, 1.0 + w)]
    for name, fn, expected in cases:
        assert_close(np.asarray(fn()), expected.astype(np.float32), call=f"keras.Variable([2, 4, -3]): {name}")


# -- metrics under a two-replica strategy: state summed over the replicas -------------------------------------------
@clause("keras.metric.cross-replica", ref="tf221")
def test_blind12_metric_state_sums_over_the_replicas(backend, keras, tf):
    """A metric made in a MirroredStrategy(2) scope and updated inside `run` reads, in cross-replica
    context, its state summed over the replicas: Sum gives the total of both replicas' values,
    TruePositives their count, Mean the mean of all values."""
    strategy = backend.make_strategy("mirrored", 2)
    with strategy.scope():
        s, tp, mean = keras.metrics.Sum(), keras.metrics.TruePositives(), keras.metrics.Mean()

    def step():
        rid = tf.cast(tf.distribute.get_replica_context().replica_id_in_sync_group, tf.float32)
        values = tf.stack([rid + 1.0, rid + 3.0])                     # replica 0: 1, 3; replica 1: 2, 4
        s.update_state(values)
        mean.update_state(values)
        tp.update_state(tf.constant([1.0, 1.0, 0.0]), tf.stack([1.0, rid, 1.0]))   # replica 0: 1, replica 1: 2

    strategy.run(step)
    call = "Sum/TruePositives/Mean made in MirroredStrategy(2).scope(), updated in run, read outside"
    assert_close(float(s.result()), 1.0 + 3.0 + 2.0 + 4.0, call=call, what="Sum.result()")
    assert_close(float(tp.result()), 3.0, call=call, what="TruePositives.result()")
    assert_close(float(mean.result()), (1.0 + 3.0 + 2.0 + 4.0) / 4, call=call, what="Mean.result()")
