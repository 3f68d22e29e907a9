"""Gaps the tenth blind batch of planted training bugs found (issue 29, docs/conformance.md "How
strong is the suite"): behaviours and options no earlier suite test set or looked at closely
enough for a wrong implementation to fail (TF 2.21 + Keras 3.15).

Each test checks a class of behaviour, not one planted bug: the seeding rules (keras.utils.
set_random_seed and keras.random's global generator, Dataset.shuffle's reshuffling, tf.data
functions' random kernels per iterator, fit's shuffle modes); gradients of lstsq, crop_and_resize,
tridiagonal_solve and sqrtm through every option; merge and pooling masks, Embedding's negative
indices, a functional model's dict inputs, causal Conv1D in both formats, the activations' options;
the correlation and top-k metrics, metrics holding metrics, EarlyStopping reused, the weight file's
variable order, gradient accumulation, EMA, overwrite_with_gradient, persistent jacobians and
Keras's dtype promotion. Every expected value is computed here with NumPy (central differences of
the backend's own forward pass, or a Python transcription of Keras 3.15's rule), never with the
backend's own implementation of the same rule.
"""

from __future__ import annotations

import os
import random
import tempfile

import numpy as np
import pytest

from simdist.conformance.assertions import assert_close, assert_equal, assert_true
from simdist.conformance.tolerances import Tolerance
from simdist.conformance.suite.values import grid as _grid

clause = pytest.mark.clause
TOL32 = Tolerance(rtol=2e-5, atol=2e-6)
TOL_FD = Tolerance(rtol=1e-5, atol=1e-7)


def _fd(f, a, h=1e-6):
    """Central differences of the real scalar function f at the float64 array a."""
    a = np.asarray(a, dtype=np.float64)
    g = np.zeros(a.shape)
    for idx in np.ndindex(*a.shape):
        e = np.zeros(a.shape)
        e[idx] = h
        g[idx] = (f(a + e) - f(a - e)) / (2 * h)
    return g


# -- seeding: keras.utils.set_random_seed and keras.random's global SeedGenerator ----------------------------
def _keras_global_draws(tf, s, n, kind):
    """Keras 3.15's rule for keras.random draws with seed=None after set_random_seed(s): the global
    SeedGenerator is made afresh with seed randint(1, 1e9) of Python's `random` (just seeded with s),
    its state [seed, 0]; each draw uses the state (as int32: floormod by 2**31 - 2) and then moves it
    to (state + 1) * 5387 % 933199 (next(ordered=False))."""
    seed = random.Random(s).randint(1, int(1e9))
    state = np.array([seed, 0], np.int64)
    out = []
    for _ in range(n):
        pair = tf.constant((state % (2**31 - 2)).astype(np.int32))
        if kind == "normal":
            out.append(np.asarray(tf.random.stateless_normal((4,), seed=pair)))
        else:
            out.append(np.asarray(tf.random.stateless_uniform((4,), seed=pair)))
        state = (state + 1) * 5387 % 933199
    return out


def _set_random_seed_restarts_the_global_generator(keras, tf, kind, draw_before):
    draw = getattr(keras.random, kind)
    if draw_before:
        draw((4,))     # the global generator exists before set_random_seed
    runs = []
    for s in (7, 7, 11):
        keras.utils.set_random_seed(s)
        runs.append([np.asarray(draw((4,))) for _ in range(3)])
    for s, got in zip((7, 7, 11), runs):
        expect = _keras_global_draws(tf, s, 3, kind)
        for i, (g, e) in enumerate(zip(got, expect)):
            assert_equal(g.tolist(), e.tolist(), call=f"keras.utils.set_random_seed({s}); keras.random.{kind}((4,)) "
                         f"draw {i} (a draw before the first set_random_seed: {draw_before})", what="out")


@clause("keras.init.seeding", ref="tf221")
def test_blind10_set_random_seed_restarts_keras_global_generator(keras, tf, budget):
    for case in budget(_grid(("kind", ["normal", "uniform"]), ("draw_before", [True, False]))):
        _set_random_seed_restarts_the_global_generator(keras, tf, **case)


# -- Dataset.shuffle: a new order each epoch unless reshuffle_each_iteration=False ---------------------------
def _shuffle_epochs(tf, kwargs, n=12):
    ds = tf.data.Dataset.range(n).shuffle(n, seed=3, **kwargs)
    epochs = [[int(x) for x in ds] for _ in range(3)]
    call = f"Dataset.range({n}).shuffle({n}, seed=3{''.join(f', {k}={v!r}' for k, v in kwargs.items())}), 3 epochs"
    for i, e in enumerate(epochs):
        assert_equal(sorted(e), list(range(n)), call=call, what=f"sorted(epoch {i})")
    reshuffle = kwargs.get("reshuffle_each_iteration", None) in (None, True)
    for i in (1, 2):
        same = epochs[i] == epochs[i - 1]
        assert_true(same != reshuffle, f"epoch {i} is {'the same order as' if same else 'another order than'} epoch "
                    f"{i - 1} ({epochs[i]} vs {epochs[i - 1]}), but reshuffle_each_iteration "
                    f"{'(default True) reshuffles' if reshuffle else '=False keeps the order'}", call=call)


@clause("dataset.shuffle", ref="tf221")
def test_blind10_dataset_shuffle_reshuffles_each_epoch_by_default(tf, budget):
    cases = [{}, {"reshuffle_each_iteration": False}, {"reshuffle_each_iteration": None},
             {"reshuffle_each_iteration": True}]
    for kwargs in budget(cases):
        _shuffle_epochs(tf, kwargs)


# -- tf.data functions: random kernels start afresh with each iterator, continue within one --------------------
def _dataset_function_streams(tf, fn_name):
    tf.random.set_seed(5)
    fns = {"uniform": lambda _: tf.random.uniform([]),
           "normal_seeded": lambda _: tf.random.normal([], seed=11),
           "shuffle": lambda _: tf.cast(tf.random.shuffle(tf.range(6)), tf.float32)}
    ds = tf.data.Dataset.range(4).map(fns[fn_name])
    passes = [[np.asarray(v).tolist() for v in ds] for _ in range(2)]
    call = f"tf.random.set_seed(5); Dataset.range(4).map({fn_name}), two passes"
    assert_equal(passes[1], passes[0], call=call, what="second pass (each iterator instantiates the function anew)")
    distinct = len({repr(v) for v in passes[0]})
    assert_true(distinct == 4, f"{distinct} distinct values among the 4 elements of one pass {passes[0]}, but the "
                "function's kernel continues its stream across an iterator's elements", call=call)
    rep = [np.asarray(v).tolist() for v in tf.data.Dataset.range(2).map(fns[fn_name]).repeat(2)]
    assert_true(rep[:2] != rep[2:], f"repeat(2) inside one iterator drew {rep}: the second round repeats the first, "
                "but the kernel continues across a repeat", call=f"{call}, .repeat(2)")


@clause("ops.random-in-function", ref="tf221")
def test_blind10_dataset_function_random_restarts_per_iterator(tf, budget):
    for name in budget(["uniform", "normal_seeded", "shuffle"]):
        _dataset_function_streams(tf, name)


# -- fit's shuffle modes: what each batch holds ------------------------------------------------------------------
def _fit_batches(keras, tf, shuffle, n, batch_size):
    seen: list[list[int]] = []

    class Record(keras.layers.Layer):
        def compute_output_shape(self, input_shape):
            return input_shape

        def call(self, x):
            if hasattr(x, "numpy"):
                seen.append(np.asarray(x)[:, 0].astype(int).tolist())
            return x

    keras.utils.set_random_seed(1)
    inp = keras.Input((1,))
    model = keras.Model(inp, keras.layers.Dense(1)(Record()(inp)))
    model.compile("sgd", "mse", run_eagerly=True)
    x = np.arange(n, dtype="float32").reshape(n, 1)
    model.fit(x, x, batch_size=batch_size, epochs=2, shuffle=shuffle, verbose=0)
    call = f"fit(x=arange({n}), batch_size={batch_size}, epochs=2, shuffle={shuffle!r}, run_eagerly=True)"
    blocks = [list(range(i, min(i + batch_size, n))) for i in range(0, n, batch_size)]
    assert_equal([len(b) for b in seen], [len(b) for b in blocks] * 2, call=call, what="batch sizes")
    for e in range(2):
        epoch = seen[e * len(blocks):(e + 1) * len(blocks)]
        assert_equal(sorted(i for b in epoch for i in b), list(range(n)), call=call, what=f"samples of epoch {e}")
        if shuffle is False:
            assert_equal(epoch, blocks, call=call, what=f"batches of epoch {e}")
        elif shuffle == "batch":
            assert_equal([sorted(b) for b in epoch], blocks, call=call, what=f"sorted batches of epoch {e}")
    if shuffle is not False:
        moved = [b for b, blk in zip(seen, blocks) if b != blk]
        assert_true(bool(moved), f"the batches {seen[:len(blocks)]} are in input order, but shuffle={shuffle!r} "
                    "permutes", call=call)


@clause("keras.fit.data", ref="tf221")
def test_blind10_fit_shuffle_modes_cut_every_sample_into_its_batch(keras, tf, budget):
    cases = _grid(("shuffle", [True, "batch", False]), ("n", [10, 8]))
    for case in budget(cases):
        _fit_batches(keras, tf, batch_size=4, **case)


# -- gradients of lstsq, crop_and_resize, tridiagonal_solve and sqrtm ------------------------------------------
_A_TALL = np.array([[1.2, -0.4, 0.7], [0.3, 1.5, -0.6], [-0.8, 0.2, 1.1], [0.5, 0.9, 0.4], [1.0, -1.2, 0.3]])
_W = np.array([[0.7, -1.3], [-0.2, 1.5], [1.1, 0.3], [-0.5, 0.9], [0.6, -0.8]])


def _lstsq_gradient(tf, shape, l2, batch):
    """Central differences of one matrix's solve. With `batch` copies (over 256,000 bytes and more
    matrices than min(m, n)) TF's lstsq(fast=True) runs the MatrixSolveLs kernel, whose own gradient
    (linalg_grad._MatrixSolveLsGrad) then applies, instead of the Cholesky composite's."""
    a = _A_TALL if shape == "tall" else _A_TALL.T.copy()
    m, n = a.shape
    b = np.linspace(-1.0, 1.3, m * 2).reshape(m, 2)
    w = _W[:n]

    def f(a_, b_):
        return float(np.sum(w * np.asarray(tf.linalg.lstsq(tf.constant(a_), tf.constant(b_), l2_regularizer=l2))))

    k = batch or 1
    scales = 1.0 + 0.01 * (np.arange(k) % 7)   # a few distinct matrices among the copies
    xa, xb = tf.constant(a[None] * scales[:, None, None]), tf.constant(np.broadcast_to(b, (k, m, 2)).copy())
    with tf.GradientTape() as tape:
        tape.watch([xa, xb])
        y = tf.reduce_sum(tf.constant(w) * tf.linalg.lstsq(xa, xb, l2_regularizer=l2))
    ga, gb = (np.asarray(g) for g in tape.gradient(y, [xa, xb]))
    call = f"d/d(A, B) sum(W * lstsq(A[{k}, {m}, {n}], B, l2_regularizer={l2}))"
    for i in (0, 1) if batch else (0,):
        ai = a * scales[i]
        assert_close(ga[i], _fd(lambda v: f(v, b), ai), call=call, what=f"dA[{i}]", tolerance=TOL_FD)
        assert_close(gb[i], _fd(lambda v: f(ai, v), b), call=call, what=f"dB[{i}]", tolerance=TOL_FD)


def _crop_and_resize_gradient(tf, method):
    img = np.linspace(-1.0, 2.0, 2 * 5 * 6 * 2).reshape(2, 5, 6, 2).astype(np.float32)
    boxes = tf.constant([[0.1, 0.05, 0.9, 0.8], [0.2, 0.3, 0.7, 1.0]], tf.float32)
    w = np.linspace(0.5, -1.5, 2 * 4 * 3 * 2).reshape(2, 4, 3, 2).astype(np.float32)
    x = tf.constant(img)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.reduce_sum(tf.constant(w) * tf.image.crop_and_resize(x, boxes, [1, 0], [4, 3], method=method))
    # the op is linear in the image: its gradient is the transpose of its forward map, read column by column
    expect = np.zeros(img.shape, np.float64)
    for idx in np.ndindex(*img.shape):
        e = np.zeros(img.shape, np.float32)
        e[idx] = 1.0
        expect[idx] = float(np.sum(w * np.asarray(tf.image.crop_and_resize(tf.constant(e), boxes, [1, 0], [4, 3],
                                                                            method=method))))
    assert_close(tape.gradient(y, x), expect, call=f"d/dimage sum(W * crop_and_resize(image, boxes, method={method!r}))",
                 what="dimage", tolerance=TOL32)


def _tridiagonal_solve_gradient(tf, pivoting):
    diags = np.array([[0.4, -0.7, 0.9, 0.3], [3.0, 2.5, 4.0, 3.5], [0.6, 1.1, -0.5, 0.2]])
    rhs = np.array([[1.0, -0.5], [0.3, 2.0], [-1.2, 0.7], [0.8, 0.1]])
    w = np.array([[0.5, -1.0], [1.5, 0.2], [-0.7, 0.9], [1.1, -0.3]])

    def f(d, r):
        return float(np.sum(w * np.asarray(tf.linalg.tridiagonal_solve(tf.constant(d), tf.constant(r),
                                                                        partial_pivoting=pivoting))))

    xd, xr = tf.constant(diags), tf.constant(rhs)
    with tf.GradientTape() as tape:
        tape.watch([xd, xr])
        y = tf.reduce_sum(tf.constant(w) * tf.linalg.tridiagonal_solve(xd, xr, partial_pivoting=pivoting))
    gd, gr = tape.gradient(y, [xd, xr])
    call = f"tridiagonal_solve(compact diagonals (unsymmetric), rhs, partial_pivoting={pivoting})"
    # the superdiagonal's last and the subdiagonal's first entries are not read
    mask = np.ones(diags.shape)
    mask[0, -1] = mask[2, 0] = 0.0
    assert_close(np.asarray(gd) * mask, _fd(lambda v: f(v, rhs), diags) * mask, call=call, what="ddiagonals",
                 tolerance=TOL_FD)
    assert_close(gr, _fd(lambda v: f(diags, v), rhs), call=call, what="drhs", tolerance=TOL_FD)


def _sqrtm_gradient(tf, n):
    base = np.array([[2.0, 0.3, -0.2, 0.1], [0.5, 1.8, 0.4, -0.3], [-0.1, 0.2, 2.4, 0.6], [0.3, -0.4, 0.1, 1.6]])
    a = base[:n, :n]
    w = np.arange(1.0, n * n + 1).reshape(n, n) * np.where(np.arange(n * n).reshape(n, n) % 3 == 0, -1.0, 0.5)
    x = tf.constant(a)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.reduce_sum(tf.constant(w) * tf.linalg.sqrtm(x))
    expect = _fd(lambda v: float(np.sum(w * np.asarray(tf.linalg.sqrtm(tf.constant(v))))), a)
    assert_close(tape.gradient(y, x), expect, call=f"d/dA sum(W * sqrtm(A)) for an unsymmetric {n}x{n} A with an "
                 "unsymmetric W", what="dA", tolerance=TOL_FD)


@clause("ops.linalg-lstsq", ref="tf221")
def test_blind10_lstsq_gradients_for_both_shapes(tf, budget):
    for case in budget(_grid(("batch", [4000, None]), ("shape", ["tall", "wide"]), ("l2", [0.0, 0.3]))):
        _lstsq_gradient(tf, **case)


@clause("autodiff.op-gradients", ref="tf221")
def test_blind10_more_gradients_through_their_options(tf, budget):
    cases = [("crop_and_resize", {"method": "nearest"}), ("crop_and_resize", {"method": "bilinear"}),
             ("tridiagonal_solve", {"pivoting": True}), ("tridiagonal_solve", {"pivoting": False}),
             ("sqrtm", {"n": 3}), ("sqrtm", {"n": 4})]
    run = {"crop_and_resize": _crop_and_resize_gradient, "tridiagonal_solve": _tridiagonal_solve_gradient,
           "sqrtm": _sqrtm_gradient}
    for name, kw in budget(cases):
        run[name](tf, **kw)


# -- merge layers: their masks, and inputs of lower rank -------------------------------------------------------
_M1 = np.array([[True, False, True, False], [False, False, True, True]])
_M2 = np.array([[True, True, False, False], [False, True, False, True]])


def _merge_masks(keras, tf, layer_name, masks):
    layer = getattr(keras.layers, layer_name)()
    xs = [tf.constant(np.full((2, 4, 3), float(i + 1), np.float32)) for i in range(len(masks))]
    got = layer.compute_mask(xs, [None if m is None else tf.constant(m) for m in masks])
    call = f"{layer_name}().compute_mask(3 inputs (2, 4, 3), masks {['None' if m is None else 'given' for m in masks]})"
    if any(m is None for m in masks):
        assert_true(got is None, f"the mask is {got}, but is None unless every input has one", call=call)
        return
    expect = np.logical_or.reduce(np.stack(masks))
    assert_equal(np.asarray(got).tolist(), expect.tolist(), call=call, what="mask (the inputs' masks OR-ed)")


def _concatenate_masks(keras, tf, axis, masks):
    shapes = {-1: [(2, 4, 3), (2, 4, 2)], 1: [(2, 4, 3), (2, 4, 3)]}[axis]
    xs = [tf.constant(np.ones(s, np.float32)) for s in shapes]
    layer = keras.layers.Concatenate(axis=axis)
    got = layer.compute_mask(xs, [None if m is None else tf.constant(m) for m in masks])
    # Keras 3.15: each input's mask (all True without one) broadcast to its input's shape, concatenated
    # along `axis`, then any() over the last axis
    full = [np.ones(s, bool) if m is None else np.broadcast_to(m[..., None], s) for m, s in zip(masks, shapes)]
    expect = np.any(np.concatenate(full, axis=axis), axis=-1)
    assert_equal(np.asarray(got).tolist(), expect.tolist(), what="mask",
                 call=f"Concatenate(axis={axis}).compute_mask(inputs {shapes}, masks "
                 f"{['None' if m is None else 'given' for m in masks]})")


def _merge_lower_rank(keras, tf, layer_name):
    a = np.arange(24, dtype=np.float32).reshape(2, 3, 4) / 7
    b = np.array([[1.0, -2.0, 0.5, 3.0], [0.25, 4.0, -1.0, 2.0]], np.float32)
    got = getattr(keras.layers, layer_name)()([tf.constant(a), tf.constant(b)])
    bb = b[:, None, :]   # Keras inserts the missing axes after the batch axis
    expect = {"Add": a + bb, "Average": (a + bb) / 2}[layer_name]
    assert_close(got, expect, call=f"{layer_name}()([x (2, 3, 4), y (2, 4)])", what="out", tolerance=TOL32)


@clause("keras.mask.propagation", ref="tf221")
def test_blind10_merge_layers_or_their_masks_and_align_lower_ranks(keras, tf, budget):
    cases = [("merge", {"layer_name": n, "masks": ms}) for n in ("Add", "Average")
             for ms in ([_M1, _M2], [_M1, _M2, _M1 & _M2], [_M1, None])]
    cases += [("concat", {"axis": ax, "masks": ms}) for ax in (-1, 1) for ms in ([_M1, _M2], [_M1, None])]
    cases += [("rank", {"layer_name": n}) for n in ("Add", "Average")]
    run = {"merge": _merge_masks, "concat": _concatenate_masks, "rank": _merge_lower_rank}
    for name, kw in budget(cases):
        run[name](keras, tf, **kw)


# -- GlobalAveragePooling1D with a mask, both data formats ------------------------------------------------------
def _masked_gap1d(keras, tf, data_format, keepdims):
    x = np.arange(2 * 5 * 3, dtype=np.float32).reshape(2, 5, 3) / 4 - 2.0   # (batch, steps, features)
    mask = np.array([[True, False, True, True, False], [False, True, True, False, False]])
    inp = x if data_format == "channels_last" else np.transpose(x, (0, 2, 1))
    layer = keras.layers.GlobalAveragePooling1D(data_format=data_format, keepdims=keepdims)
    got = layer(tf.constant(inp), mask=tf.constant(mask))
    expect = (x * mask[..., None]).sum(1) / mask.sum(1, keepdims=True)
    if keepdims:
        expect = expect[:, None, :] if data_format == "channels_last" else expect[:, :, None]
    assert_close(got, expect, call=f"GlobalAveragePooling1D(data_format={data_format!r}, keepdims={keepdims})(x, "
                 "mask (batch, steps))", what="out", tolerance=TOL32)


@clause("keras.layer.global-pooling-1d", ref="tf221")
def test_blind10_masked_global_average_pooling_in_both_formats(keras, tf, budget):
    for case in budget(_grid(("data_format", ["channels_first", "channels_last"]), ("keepdims", [False, True]))):
        _masked_gap1d(keras, tf, **case)


# -- Embedding's negative indices, a functional model's dict inputs ---------------------------------------------
@clause("keras.layer.call", ref="tf221")
def test_blind10_embedding_wraps_negative_indices(keras, tf, budget):
    for n in budget([5, 7]):
        table = np.arange(n * 2, dtype=np.float32).reshape(n, 2)
        layer = keras.layers.Embedding(n, 2, embeddings_initializer=keras.initializers.Constant(table))
        ids = np.array([[-1, -n, 0, n - 1], [-2, 1, -(n - 1), 2]])
        assert_equal(np.asarray(layer(tf.constant(ids))).tolist(), table[ids % n].tolist(),
                     call=f"Embedding({n}, 2)({ids.tolist()})", what="out (index i < 0 reads row n + i)")


@clause("keras.model.call", ref="tf221")
def test_blind10_functional_dict_inputs_go_by_input_name(keras, tf, budget):
    for names in budget([("b_in", "a_in"), ("zeta", "alpha", "mid")]):
        inputs = [keras.Input((k + 1,), name=nm) for k, nm in enumerate(names)]
        model = keras.Model(inputs, keras.layers.Concatenate()(inputs))
        feed = {nm: np.full((2, k + 1), 10.0 * (k + 1), np.float32) for k, nm in enumerate(names)}
        shuffled = {k: feed[k] for k in sorted(feed)}
        expect = np.concatenate([feed[nm] for nm in names], axis=1)
        assert_equal(np.asarray(model(shuffled)).tolist(), expect.tolist(), what="out",
                     call=f"Model(Inputs named {list(names)} -> Concatenate)(a dict in sorted key order)")


# -- causal Conv1D in both formats, with dilations --------------------------------------------------------------
def _causal_conv1d(keras, tf, data_format, dilation):
    x = np.linspace(-1.0, 1.5, 2 * 7 * 3).reshape(2, 7, 3).astype(np.float32)   # (batch, steps, channels)
    kernel = np.linspace(0.8, -0.6, 3 * 3 * 2).reshape(3, 3, 2).astype(np.float32)
    layer = keras.layers.Conv1D(2, 3, padding="causal", dilation_rate=dilation, data_format=data_format,
                                use_bias=False, kernel_initializer=keras.initializers.Constant(kernel))
    got = np.asarray(layer(tf.constant(x if data_format == "channels_last" else np.transpose(x, (0, 2, 1)))))
    pad = np.concatenate([np.zeros((2, dilation * 2, 3), np.float32), x], axis=1)
    expect = np.stack([sum(pad[:, t + k * dilation, :] @ kernel[k] for k in range(3)) for t in range(7)], axis=1)
    if data_format == "channels_first":
        expect = np.transpose(expect, (0, 2, 1))
    assert_close(got, expect, call=f"Conv1D(2, 3, padding='causal', dilation_rate={dilation}, "
                 f"data_format={data_format!r})", what="out", tolerance=TOL32)


@clause("keras.layer.conv1d", ref="tf221")
def test_blind10_causal_conv1d_pads_the_steps_in_both_formats(keras, tf, budget, onednn_float32):
    for case in budget(_grid(("data_format", ["channels_first", "channels_last"]), ("dilation", [1, 2]))):
        _causal_conv1d(keras, tf, **case)


# -- keras.activations with their options -----------------------------------------------------------------------
_XA = np.array([-3.0, -1.2, -0.4, 0.0, 0.3, 1.1, 2.5], np.float64)


def _np_activation(name, kw, x):
    sig = lambda v: 1.0 / (1.0 + np.exp(-v))  # noqa: E731
    alpha = kw.get("alpha", 1.0)
    table = {
        "elu": lambda: np.where(x > 0, x, alpha * (np.exp(x) - 1.0)),
        "celu": lambda: np.maximum(x, 0.0) + alpha * (np.exp(np.minimum(x, 0.0) / alpha) - 1.0),
        "leaky_relu": lambda: np.where(x > 0, x, kw.get("negative_slope", 0.2) * x),
        "hard_sigmoid": lambda: np.clip(x / 6.0 + 0.5, 0.0, 1.0),
        "hard_silu": lambda: x * np.clip(x / 6.0 + 0.5, 0.0, 1.0),
        "log_sigmoid": lambda: np.log(sig(x)),
        "mish": lambda: x * np.tanh(np.log1p(np.exp(x))),
        "softsign": lambda: x / (1.0 + np.abs(x)),
    }
    return table[name]()


def _softmax_axis_none(keras, tf, name):
    x = np.arange(6, dtype=np.float32).reshape(2, 3) / 3 - 0.4
    got = getattr(keras.activations, name)(tf.constant(x), axis=None)
    z = np.exp(x - x.max())
    expect = z / z.sum() if name == "softmax" else np.log(z / z.sum())
    assert_close(got, expect, call=f"keras.activations.{name}(x (2, 3), axis=None)", what="out (over every element)",
                 tolerance=TOL32)


@clause("keras.layer.forward-and-gradients", ref="tf221")
def test_blind10_activations_apply_their_options(keras, tf, budget):
    cases = [("elu", {"alpha": 0.5}), ("elu", {"alpha": 2.0}), ("elu", {}), ("celu", {"alpha": 0.5}),
             ("celu", {"alpha": 3.0}), ("leaky_relu", {"negative_slope": 0.05}), ("leaky_relu", {}),
             ("hard_sigmoid", {}), ("hard_silu", {}), ("log_sigmoid", {}), ("mish", {}), ("softsign", {}),
             ("softmax", None), ("log_softmax", None)]
    for name, kw in budget(cases):
        if kw is None:
            _softmax_axis_none(keras, tf, name)
            continue
        got = getattr(keras.activations, name)(tf.constant(_XA), **kw)
        assert_close(got, _np_activation(name, kw, _XA), call=f"keras.activations.{name}(x, **{kw}) at {_XA.tolist()}",
                     what="out", tolerance=Tolerance(rtol=1e-6, atol=1e-9))


# -- correlation metrics -------------------------------------------------------------------------------------------
def _np_correlation(kind, t, p, axis):
    tm, pm = t.mean(axis=axis, keepdims=True), p.mean(axis=axis, keepdims=True)
    if kind == "pearson":
        per = np.mean((t - tm) / t.std(axis=axis, keepdims=True) * (p - pm) / p.std(axis=axis, keepdims=True),
                      axis=axis)
    else:   # Keras 3.15's concordance: the prediction's mean subtracted from both factors of the covariance
        covar = (t - pm) * (p - pm)
        norm = t.var(axis=axis, keepdims=True) + p.var(axis=axis, keepdims=True) + (tm - pm) ** 2
        per = np.mean(2 * covar / (norm + 1e-7), axis=axis)
    return per.mean()


def _correlation_metric(keras, tf, kind, axis):
    t = np.array([[0.1, 0.9, 0.4, 0.3, 0.8], [1.5, 0.2, 0.7, 1.1, 0.0], [0.3, 0.3, 0.9, 0.5, 1.2],
                  [2.0, 1.0, 0.5, 0.1, 0.6]])
    p = np.array([[0.3, 1.1, 0.2, 0.6, 1.4], [1.0, 0.6, 0.9, 0.8, -0.3], [0.9, 0.1, 1.3, 0.4, 0.7],
                  [1.2, 1.6, 0.2, 0.5, 0.9]])
    cls = {"pearson": keras.metrics.PearsonCorrelation, "concordance": keras.metrics.ConcordanceCorrelation}[kind]
    m = cls(axis=axis)
    m.update_state(tf.constant(t, tf.float32), tf.constant(p, tf.float32))
    assert_close(m.result(), _np_correlation(kind, t, p, axis), call=f"{cls.__name__}(axis={axis}) on (4, 5) values",
                 what="result", tolerance=TOL32)


@clause("keras.metric.hinge-correlation", ref="tf221")
def test_blind10_correlation_metrics_against_numpy(keras, tf, budget):
    for case in budget(_grid(("kind", ["concordance", "pearson"]), ("axis", [-1, 0]))):
        _correlation_metric(keras, tf, **case)


# -- top-k accuracy: ties and non-finite scores -------------------------------------------------------------------
_SCORES = np.array([[0.1, np.nan, 0.5, 0.2], [0.1, np.inf, 0.5, 0.2], [0.1, -np.inf, 0.5, 0.2],
                    [0.3, 0.3, 0.3, 0.1], [0.9, 0.2, 0.4, 0.4], [0.1, 0.2, 0.5, 0.7]], np.float32)
_LABELS = np.array([2, 2, 2, 2, 3, 0])


def _top_k(keras, tf, k, sparse):
    finite = np.all(np.isfinite(_SCORES), axis=1)
    target = _SCORES[np.arange(len(_LABELS)), _LABELS]
    above = np.sum(np.nan_to_num(_SCORES, nan=-np.inf) > target[:, None], axis=1)
    expect = (finite & (above < k)).astype(np.float32)   # TF's in_top_k: ties count for the target
    if sparse:
        got = keras.metrics.sparse_top_k_categorical_accuracy(tf.constant(_LABELS), tf.constant(_SCORES), k=k)
    else:
        got = keras.metrics.top_k_categorical_accuracy(tf.constant(np.eye(4, dtype=np.float32)[_LABELS]),
                                                       tf.constant(_SCORES), k=k)
    name = "sparse_top_k_categorical_accuracy" if sparse else "top_k_categorical_accuracy"
    assert_equal(np.asarray(got).tolist(), expect.tolist(), what="out (0 for a row with a NaN or infinite score)",
                 call=f"{name}(labels {_LABELS.tolist()}, scores with NaN/inf/-inf rows and ties, k={k})")


@clause("keras.metric.top-k", ref="tf221")
def test_blind10_top_k_accuracy_with_ties_and_non_finite_scores(keras, tf, budget):
    for case in budget(_grid(("k", [1, 2]), ("sparse", [True, False]))):
        _top_k(keras, tf, **case)


# -- a metric that holds metrics: its variables and reset_state include theirs --------------------------------------
@clause("keras.metric.update-result-reset", ref="tf221")
def test_blind10_metric_holding_metrics_resets_them(keras, tf, budget):
    for inner_names in budget([("Mean",), ("Mean", "Sum")]):
        class Outer(keras.metrics.Metric):
            def __init__(self, **kw):
                super().__init__(**kw)
                self.inners = [getattr(keras.metrics, n)() for n in inner_names]
                self.total = self.add_variable(shape=(), initializer="zeros", name="total")

            def update_state(self, values):
                for m in self.inners:
                    m.update_state(values)
                self.total.assign(self.total + tf.reduce_sum(values))

            def result(self):
                return sum(m.result() for m in self.inners) + self.total

        m = Outer()
        call = f"a Metric holding {list(inner_names)} and a variable"
        expect_vars = 1 + 2 * len(inner_names)   # Mean: total and count; Sum: total
        expect_vars -= sum(1 for n in inner_names if n == "Sum")
        assert_equal(len(m.variables), expect_vars, call=call, what="len(variables)")
        m.update_state(tf.constant([1.0, 3.0]))
        expect = sum({"Mean": 2.0, "Sum": 4.0}[n] for n in inner_names) + 4.0
        assert_close(m.result(), expect, call=call, what="result after update_state([1, 3])", tolerance=TOL32)
        m.reset_state()
        assert_close(m.result(), 0.0, call=call, what="result after reset_state()", tolerance=TOL32)


# -- EarlyStopping reused: on_train_begin forgets the last fit ------------------------------------------------------
def _early_stopping_reference(runs, patience):
    """Keras 3.15's EarlyStopping(monitor="loss", mode="min", min_delta=0) over each run's losses:
    (stopped epoch or None) per run; on_train_begin resets wait and best."""
    out = []
    for losses in runs:
        wait, best, stopped = 0, None, None
        for epoch, cur in enumerate(losses):
            wait += 1
            if best is None or cur < best:
                best, wait = cur, 0
                continue
            if wait >= patience and epoch > 0:
                stopped = epoch
                break
        out.append(stopped)
    return out


@clause("keras.callback.early-stopping", ref="tf221")
def test_blind10_early_stopping_reused_starts_afresh(keras, tf, budget):
    cases = [([1.0, 0.5, 0.2, 0.3], [3.0, 2.0, 1.5, 1.4, 1.3]), ([0.4, 0.3, 0.35, 0.36, 0.2], [0.9, 0.8, 0.85, 0.7])]
    for runs in budget(cases):
        model = keras.Sequential([keras.Input((2,)), keras.layers.Dense(1)])
        es = keras.callbacks.EarlyStopping(monitor="loss", patience=2)
        es.set_model(model)
        expect = _early_stopping_reference(runs, 2)
        for r, losses in enumerate(runs):
            model.stop_training = False
            es.on_train_begin()
            stopped = None
            for epoch, loss in enumerate(losses):
                es.on_epoch_end(epoch, {"loss": loss})
                if model.stop_training:
                    stopped = epoch
                    break
            assert_equal(stopped, expect[r], what=f"the epoch run {r} stops at (None: never)",
                         call=f"one EarlyStopping(monitor='loss', patience=2) over two fits' losses {list(runs)}")


# -- the weight file: each layer's trainable variables first, then the non-trainable ones -----------------------------
def _h5_vars(path):
    import h5py
    groups = {}
    with h5py.File(path, "r") as f:
        def visit(name, obj):
            if isinstance(obj, h5py.Group) and name.endswith("vars") and len(obj.keys()):
                groups[name] = [np.asarray(obj[str(i)]).tolist() for i in range(len(obj.keys()))]
        f.visititems(visit)
    return groups


@clause("keras.model.save-weights", ref="tf221")
def test_blind10_weight_file_lists_trainable_variables_first(keras, tf, budget):
    for kind in budget(["custom", "batchnorm"]):
        if kind == "custom":
            class Counted(keras.layers.Layer):
                def build(self, input_shape):
                    self.count = self.add_weight(shape=(3,), initializer=keras.initializers.Constant(7.0),
                                                 trainable=False, name="count")
                    self.w = self.add_weight(shape=(2,), initializer=keras.initializers.Constant(1.5), name="w")

                def call(self, x):
                    return x * self.w

            layer = Counted(name="counted")
            expect = [[1.5, 1.5], [7.0, 7.0, 7.0]]
        else:
            layer = keras.layers.BatchNormalization(name="bn", gamma_initializer=keras.initializers.Constant(2.0),
                                                    beta_initializer=keras.initializers.Constant(-1.0),
                                                    moving_mean_initializer=keras.initializers.Constant(0.25),
                                                    moving_variance_initializer=keras.initializers.Constant(4.0))
            expect = [[2.0, 2.0], [-1.0, -1.0], [0.25, 0.25], [4.0, 4.0]]
        model = keras.Sequential([keras.Input((2,)), layer])
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, "m.weights.h5")
            model.save_weights(path)
            groups = _h5_vars(path)
            # the model's only variables are the layer's: one non-empty vars group
            assert_equal([groups[k] for k in sorted(groups)], [expect], what=f"the vars groups {sorted(groups)}",
                         call=f"save_weights of a Sequential with one {kind} layer")
            fresh = keras.Sequential([keras.Input((2,)), type(layer).from_config(layer.get_config())
                                      if kind == "batchnorm" else Counted(name="counted")])
            fresh.build((None, 2))
            fresh.load_weights(path)
            got = [np.asarray(v).tolist() for v in fresh.layers[0].trainable_weights + fresh.layers[0].non_trainable_weights]
            assert_equal(got, expect, call=f"load_weights into a fresh {kind} layer", what="trainable + non-trainable weights")


# -- optimizers: gradient accumulation's iterations, EMA, overwrite_with_gradient ---------------------------------------
def _np_adam_steps(grads, lr=0.1, b1=0.9, b2=0.999, eps=1e-7, accumulate=None):
    """Keras 3.15's Adam over a list of gradients; with gradient_accumulation_steps k, every k-th apply
    updates with the mean of the last k gradients at step (completed cycles) + 1, the others only
    accumulate. Returns the variable (from zeros) after each apply and optimizer.iterations."""
    var = np.zeros_like(grads[0])
    m, v = np.zeros_like(var), np.zeros_like(var)
    acc = np.zeros_like(var)
    its, out, raw, updates = [], [], 0, 0
    for g in grads:
        if accumulate and (raw + 1) % accumulate != 0:
            acc = acc + g
        else:
            if accumulate:
                g = (g + acc) / accumulate
                acc = np.zeros_like(var)
            t = updates + 1
            m = m + (g - m) * (1 - b1)
            v = v + (g * g - v) * (1 - b2)
            alpha = lr * np.sqrt(1 - b2 ** t) / (1 - b1 ** t)
            var = var - m * alpha / (np.sqrt(v) + eps)
            updates += 1
        raw += 1
        its.append(raw // accumulate if accumulate else raw)
        out.append(var.copy())
    return out, its


def _accumulating_adam(keras, tf, accumulate):
    grads = [np.array([1.0, -2.0, 0.5]), np.array([0.3, 0.4, -1.5]), np.array([-0.7, 1.0, 2.0]),
             np.array([2.0, 0.1, -0.2]), np.array([0.5, -0.5, 1.0])]
    kw = {"gradient_accumulation_steps": accumulate} if accumulate else {}
    opt = keras.optimizers.Adam(0.1, **kw)
    var = keras.Variable(np.zeros(3, np.float32))
    expect, its = _np_adam_steps(grads, accumulate=accumulate)
    call = f"Adam(0.1{', gradient_accumulation_steps=' + str(accumulate) if accumulate else ''}).apply, 5 times"
    for i, g in enumerate(grads):
        opt.apply([tf.constant(g, tf.float32)], [var])
        assert_equal(int(opt.iterations), its[i], call=call, what=f"iterations after apply {i + 1}")
        assert_close(var, expect[i], call=call, what=f"variable after apply {i + 1}", tolerance=TOL32)


def _ema(keras, tf, momentum):
    grads = [np.array([1.0, -2.0]), np.array([0.5, 0.5]), np.array([-1.0, 3.0])]
    opt = keras.optimizers.SGD(0.5, use_ema=True, ema_momentum=momentum)
    var = keras.Variable(np.zeros(2, np.float32))
    x, avg = np.zeros(2), None
    for i, g in enumerate(grads):
        opt.apply([tf.constant(g, tf.float32)], [var])
        x = x - 0.5 * g
        avg = x.copy() if i == 0 else momentum * avg + (1 - momentum) * x   # the first step copies the variable
    call = f"SGD(0.5, use_ema=True, ema_momentum={momentum}): 3 applies, then finalize_variable_values"
    assert_close(var, x, call=call, what="variable before finalize", tolerance=TOL32)
    opt.finalize_variable_values([var])
    assert_close(var, avg, call=call, what="variable after finalize (its moving average)", tolerance=TOL32)


def _overwrite_with_gradient(keras, tf, opt_name):
    opt = getattr(keras.optimizers, opt_name)(0.1)
    scale = keras.Variable(np.zeros(3, np.float32))
    scale.overwrite_with_gradient = True
    w = keras.Variable(np.ones(3, np.float32))
    g = np.array([1.0, 2.0, -3.0], np.float32)
    for step in range(2):
        opt.apply([tf.constant(g * (step + 1)), tf.constant(g)], [scale, w])
        assert_close(scale, g * (step + 1), call=f"{opt_name}(0.1).apply to a variable with overwrite_with_gradient=True",
                     what=f"that variable after apply {step + 1} (the gradient itself)", tolerance=TOL32)
    if opt_name == "SGD":
        assert_close(w, 1.0 - 2 * 0.1 * g, call="SGD(0.1).apply beside an overwrite_with_gradient variable",
                     what="the other variable after 2 applies", tolerance=TOL32)


@clause("optim.update-rules", ref="tf221")
def test_blind10_optimizer_options_accumulation_ema_overwrite(keras, tf, budget):
    cases = [("acc", {"accumulate": 2}), ("acc", {"accumulate": 3}), ("acc", {"accumulate": None}),
             ("ema", {"momentum": 0.9}), ("ema", {"momentum": 0.5}),
             ("owg", {"opt_name": "SGD"}), ("owg", {"opt_name": "Adam"})]
    run = {"acc": _accumulating_adam, "ema": _ema, "owg": _overwrite_with_gradient}
    for name, kw in budget(cases):
        run[name](keras, tf, **kw)


# -- a persistent tape's jacobians leave it usable ----------------------------------------------------------------------
@clause("autodiff.jacobian", ref="tf221")
def test_blind10_persistent_tape_survives_its_jacobians(tf, budget):
    for order in budget([("jacobian", "gradient", "batch_jacobian", "jacobian"),
                         ("batch_jacobian", "jacobian", "gradient")]):
        xv = np.array([[1.0, -2.0, 0.5], [3.0, 0.25, -1.0]])
        x = tf.constant(xv)
        with tf.GradientTape(persistent=True) as tape:
            tape.watch(x)
            y = x * x * x
        d = 3 * xv ** 2
        call = f"a persistent tape's {' then '.join(order)} of y = x**3, x (2, 3)"
        for what in order:
            if what == "gradient":
                assert_close(tape.gradient(y, x), d, call=call, what="gradient", tolerance=TOL_FD)
            elif what == "jacobian":
                expect = np.zeros((2, 3, 2, 3))
                for i, j in np.ndindex(2, 3):
                    expect[i, j, i, j] = d[i, j]
                assert_close(tape.jacobian(y, x), expect, call=call, what="jacobian", tolerance=TOL_FD)
            else:
                expect = np.stack([np.diag(d[i]) for i in range(2)])
                assert_close(tape.batch_jacobian(y, x), expect, call=call, what="batch_jacobian", tolerance=TOL_FD)


# -- Keras's dtype promotion: the least upper bound on Keras 3.15's lattice ---------------------------------------------
_LATTICE = {   # keras/src/backend/common/dtypes.py _type_promotion_lattice (Keras 3.15)
    "bool": ["int"], "uint8": ["int16", "uint16"], "uint16": ["int32", "uint32"], "uint32": ["int64", "uint64"],
    "uint64": ["float"], "int": ["uint8", "int8", "complex64"], "int8": ["int16"], "int16": ["int32"],
    "int32": ["int64"], "int64": ["float"], "float": ["bfloat16", "float16"], "bfloat16": ["float32"],
    "float16": ["float32"], "float32": ["float64", "complex64"], "float64": ["complex128"],
    "complex64": ["complex128"], "complex128": []}


def _upper(node):
    out, stack = {node}, [node]
    while stack:
        for n in _LATTICE[stack.pop()]:
            if n not in out:
                out.add(n)
                stack.append(n)
    return out


def _lub(a, b):
    common = _upper(a) & _upper(b)
    least = [c for c in sorted(common) if common <= _upper(c)]
    assert len(least) == 1, f"the lattice transcription has no least upper bound of {a} and {b}: {least}"
    return least[0]


@clause("keras.ops.dtype-promotion", ref="tf221")
def test_blind10_result_type_is_the_least_upper_bound(keras, budget):
    names = ["bool", "uint8", "uint16", "uint32", "int8", "int16", "int32", "int64", "bfloat16", "float16",
             "float32", "float64"]
    pairs = [(a, b) for i, a in enumerate(names) for b in names[i + 1:]]
    groups = budget([pairs[k::4] for k in range(4)])
    for group in groups:
        bad = [(a, b, keras.backend.result_type(a, b), _lub(a, b)) for a, b in group
               if keras.backend.result_type(a, b) != _lub(a, b)]
        assert_true(not bad, "result_type(a, b) differs from the least upper bound on Keras 3.15's lattice for "
                    + "; ".join(f"({a}, {b}): {g}, but should be {e}" for a, b, g, e in bad),
                    call="keras.backend.result_type over pairs of dtypes")
