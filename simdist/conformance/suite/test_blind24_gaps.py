"""Gaps the twenty-fourth blind batch of planted training bugs found (issue 29, docs/conformance.md "How
strong is the suite"): rules of the training layer that the suite stated for one spelling, one shape or one
input only (ties of the unsorted segment maximum but not of the sorted one, a custom_gradient that read only
trainable variables, a tape that watched only leaves, Embedding masks of non-negative ids, the multi-label AUC
of the Riemann sums but not of the interpolated PR curve), so that a wrong implementation of the other
spelling passed (TF 2.21 + Keras 3.15).

Each test checks a class of behaviour, not one planted bug. Every expected value is computed here with NumPy
(a transcription of TF's or Keras 3.15's rule) or is a relation TF's rule implies between two spellings (a
multi-label AUC against the AUCs of its labels), never the backend's own implementation of the same rule.
"""

from __future__ import annotations

import numpy as np
import pytest

from simdist.conformance.assertions import assert_close, assert_equal
from simdist.conformance.tolerances import Tolerance

clause = pytest.mark.clause
TOL32 = Tolerance(rtol=2e-5, atol=2e-6)


def _np(x):
    return np.asarray(x.numpy() if hasattr(x, "numpy") else x)


# -- max and min gradients share ties, in every spelling ----------------------------------------------------------
def _share_ties(x: np.ndarray, groups: list[np.ndarray], up: np.ndarray, extreme) -> np.ndarray:
    """TF's _SegmentMinOrMaxGrad / _UnsortedSegmentMinOrMaxGrad / _MinOrMaxGrad: in each group (the entries of
    one segment or one reduced slice) the entries equal to its extreme share the group's upstream gradient
    equally; the others, and entries in no group (a negative id), get 0."""
    out = np.zeros(x.shape, np.float64)
    for g, where in enumerate(groups):
        if where.size:
            vals = x[where]
            hit = where[vals == extreme(vals)]
            out[hit] = up[g] / hit.size
    return out


def _scatter_extreme_grad(x, idx, upd, up, extreme):
    """TF's _TensorScatterMinOrMaxGrad: x and the updates equal to the output share each position's gradient
    (x's indicator plus the number of equal updates scattered there)."""
    out = x.astype(np.float64).copy()
    for i, u in zip(idx, upd):
        out[i] = extreme([out[i], u])
    x_ind = (x == out).astype(np.float64)
    y_ind = (upd == out[idx]).astype(np.float64)
    ind = x_ind.copy()
    np.add.at(ind, idx, y_ind)
    return up * x_ind / ind, y_ind * (up / ind)[idx]


@clause("autodiff.op-gradients", ref="tf221")
def test_blind24_max_and_min_gradients_share_ties_in_every_spelling(tf, budget):
    """Ties of a maximum or minimum share the upstream gradient equally among the tied entries in each
    spelling TF differentiates that way: segment_max / segment_min (sorted ids), unsorted_segment_max / _min
    (a negative id gets 0), reduce_max / reduce_min along an axis and over everything, and
    tensor_scatter_nd_max / _min (x and the equal updates share); tf.maximum / tf.minimum give a tie to x
    whole (greater_equal / less_equal). Groups of one, all tied, and a unique extreme each appear."""
    x = np.array([3.0, 3.0, 1.0, 2.0, 2.0, 5.0, -1.0, -1.0, -1.0], np.float32)
    ids = np.array([0, 0, 0, 1, 1, 2, 3, 3, 3])
    uids = np.array([1, 3, 1, -1, 0, 2, 0, 3, 2])
    up4 = np.array([1.0, 10.0, 100.0, -2.0], np.float32)
    cases = ["segment_max", "segment_min", "unsorted_segment_max", "unsorted_segment_min", "reduce_max-axis1",
             "reduce_min-all", "tensor_scatter_nd_max", "tensor_scatter_nd_min", "maximum", "minimum"]
    for case in budget(cases):
        xt = tf.constant(x)
        extra = None
        if case in ("segment_max", "segment_min"):
            ext = np.max if case.endswith("max") else np.min
            op = getattr(tf.math, case)
            fn = lambda v, op=op: op(v, tf.constant(ids)) * tf.constant(up4)   # noqa: E731
            want = _share_ties(x, [np.nonzero(ids == s)[0] for s in range(4)], up4, ext)
            call = f"{case}(x={x.tolist()}, ids={ids.tolist()}) weighted by {up4.tolist()}"
        elif case.startswith("unsorted"):
            ext = np.max if case.endswith("max") else np.min
            op = getattr(tf.math, case)
            fn = lambda v, op=op: op(v, tf.constant(uids), 4) * tf.constant(up4)   # noqa: E731
            want = _share_ties(x, [np.nonzero(uids == s)[0] for s in range(4)], up4, ext)
            call = f"{case}(x={x.tolist()}, ids={uids.tolist()}, 4) weighted by {up4.tolist()}"
        elif case == "reduce_max-axis1":
            up3 = np.array([1.0, -3.0, 0.5], np.float32)
            fn = lambda v: tf.reduce_max(tf.reshape(v, [3, 3]), axis=1) * tf.constant(up3)   # noqa: E731
            want = _share_ties(x, [np.arange(3 * r, 3 * r + 3) for r in range(3)], up3, np.max)
            call = f"reduce_max(x.reshape(3, 3)={x.reshape(3, 3).tolist()}, axis=1) weighted by {up3.tolist()}"
        elif case == "reduce_min-all":
            fn = lambda v: tf.reduce_min(v) * 4.0   # noqa: E731
            want = _share_ties(x, [np.arange(x.size)], np.array([4.0]), np.min)
            call = f"reduce_min({x.tolist()}) * 4"
        elif case.startswith("tensor_scatter"):
            ext = np.max if case.endswith("max") else np.min
            idx = np.array([1, 2, 1, 6, 8])
            upd = np.array([3.0, 0.5, 4.0, -1.0, -1.0], np.float32) if ext is np.max else \
                np.array([3.0, 5.0, 1.0, -1.0, -3.0], np.float32)
            up9 = np.arange(1.0, 10.0, dtype=np.float32)
            op = getattr(tf, case)
            ut = tf.constant(upd)
            extra = ut
            fn = lambda v, u, op=op: op(v, tf.constant(idx.reshape(-1, 1)), u) * tf.constant(up9)   # noqa: E731
            want, want_u = _scatter_extreme_grad(x.astype(np.float64), idx, upd.astype(np.float64),
                                                 up9.astype(np.float64), ext)
            call = f"{case}(x={x.tolist()}, indices={idx.tolist()}, updates={upd.tolist()}) weighted by 1..9"
        else:
            y = np.array([3.0, 1.0, 1.0, 2.0, 7.0, 5.0, -1.0, 0.0, -2.0], np.float32)
            ge = x >= y if case == "maximum" else x <= y
            up9 = np.linspace(1.0, 2.0, 9).astype(np.float32)
            ut = tf.constant(y)
            extra = ut
            op = getattr(tf, case)
            fn = lambda v, u, op=op: op(v, u) * tf.constant(up9)   # noqa: E731
            want, want_u = np.where(ge, up9, 0.0), np.where(ge, 0.0, up9)
            call = f"tf.{case}(x={x.tolist()}, y={y.tolist()}) weighted by {up9.tolist()}"
        with tf.GradientTape() as tape:
            tape.watch(xt)
            if extra is None:
                out = tf.reduce_sum(fn(xt))
            else:
                tape.watch(extra)
                out = tf.reduce_sum(fn(xt, extra))
        if extra is None:
            got = _np(tape.gradient(out, xt))
        else:
            got, got_u = (_np(g) for g in tape.gradient(out, [xt, extra]))
            assert_close(got_u, np.asarray(want_u, np.float32), tolerance=TOL32, call=call,
                         what="the second input's gradient (ties shared as TF's rule)")
        assert_close(got, np.asarray(want, np.float32), tolerance=TOL32, call=call,
                     what="gradient (ties share the group's upstream gradient)")


# -- tf.custom_gradient's grad_fn gets the trainable variables read, once each --------------------------------------
@clause("autodiff.custom-gradient", ref="tf221")
def test_blind24_custom_gradient_gets_the_trainable_variables_it_read(tf, budget):
    """A custom_gradient function's grad_fn receives `variables`: the trainable variables read inside (TF's
    VariableWatcher, trainable only), each once, in the order they were made; a non-trainable variable read
    inside is not among them (a function that reads only non-trainable variables may have a grad_fn
    without `variables`). The gradients grad_fn returns for them are tape.gradient's for those variables,
    position by position."""
    cases = [("trainable and non-trainable", ["a", "n"]), ("two trainable, one read twice", ["a", "b", "a", "n"]),
             ("non-trainable only", ["n"]), ("trainable only", ["b", "a"])]
    for label, reads in budget(cases):
        a = tf.Variable(2.0, name="a")
        b = tf.Variable(-0.5, name="b")
        n = tf.Variable(3.0, name="n", trainable=False)
        var = {"a": a, "b": b, "n": n}
        made = ["a", "b"]
        want_vars = [k for k in made if k in reads]
        seen = []
        x = tf.constant(1.5)
        if want_vars:
            @tf.custom_gradient
            def f(t):
                total = t
                for k in reads:
                    total = total * var[k]

                def grad(dy, variables=None):
                    seen.append([v.name.split(":")[0] for v in variables])
                    return dy * 7.0, [dy * float(i + 1) for i in range(len(variables))]
                return total, grad
        else:
            @tf.custom_gradient
            def f(t):
                total = t
                for k in reads:
                    total = total * var[k]

                def grad(dy):
                    seen.append([])
                    return dy * 7.0
                return total, grad
        call = f"tf.custom_gradient of x * {' * '.join(reads)} ({label}; n is trainable=False)"
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = f(x) * 2.0
        grads = tape.gradient(y, [x] + [var[k] for k in want_vars])
        assert_equal(seen, [want_vars], call=call, what="the names of the variables grad_fn received")
        assert_close(float(_np(grads[0])), 14.0, tolerance=TOL32, call=call, what="d/dx (grad_fn's 7 * dy)")
        got_v = [float(_np(g)) for g in grads[1:]]
        assert_close(got_v, [2.0 * (i + 1) for i in range(len(want_vars))], tolerance=TOL32, call=call,
                     what="the variables' gradients, in the order grad_fn returned them")


# -- a tape watching a tensor it already records keeps the tensor's history ------------------------------------------
@clause("autodiff.watch", ref="tf221")
def test_blind24_watching_a_recorded_tensor_keeps_its_history(tf, budget):
    """tape.watch of a tensor the tape already records (the output of an op on a watched tensor, alone or in
    a list, twice) adds nothing: the tensor keeps its history, so the gradient with respect to the leaf
    still flows through it, and the gradient with respect to the tensor itself is its own (TF's tape
    `Watch` leaves a known tensor's entry as it is). Watching a leaf twice, or a variable already read,
    changes nothing either."""
    xv = np.array([1.0, -2.0, 0.5], np.float32)
    cases = ["op output", "op output in a list", "op output twice", "leaf twice", "variable read then watched",
             "inner tape watches the outer's output"]
    for case in budget(cases):
        x = tf.constant(xv)
        call = f"GradientTape: y = 2 x, z = sum(y * y) + sum(x), then watch ({case}); x = {xv.tolist()}"
        if case == "variable read then watched":
            v = tf.Variable(xv)
            with tf.GradientTape() as tape:
                y = v * 2.0
                tape.watch(v)
                z = tf.reduce_sum(y * y) + tf.reduce_sum(v)
            got = _np(tape.gradient(z, v))
            assert_close(got, 8.0 * xv + 1.0, tolerance=TOL32, call=call, what="dz/dv = 8 v + 1")
            continue
        if case == "inner tape watches the outer's output":
            with tf.GradientTape() as outer:
                outer.watch(x)
                y = x * 2.0
                with tf.GradientTape() as inner:
                    inner.watch(y)
                    z = tf.reduce_sum(y * y) + tf.reduce_sum(x)
                gy = inner.gradient(z, y)
                w = tf.reduce_sum(gy)
            assert_close(_np(gy), 4.0 * xv, tolerance=TOL32, call=call, what="inner dz/dy = 2 y")
            assert_close(_np(outer.gradient(w, x)), np.full(3, 4.0, np.float32), tolerance=TOL32, call=call,
                         what="outer d(sum(dz/dy))/dx = 4")
            continue
        with tf.GradientTape(persistent=True) as tape:
            tape.watch(x)
            if case == "leaf twice":
                tape.watch(x)
            y = x * 2.0
            if case == "op output":
                tape.watch(y)
            elif case == "op output in a list":
                tape.watch([x, y])
            elif case == "op output twice":
                tape.watch(y)
                tape.watch(y)
            z = tf.reduce_sum(y * y) + tf.reduce_sum(x)
        assert_close(_np(tape.gradient(z, x)), 8.0 * xv + 1.0, tolerance=TOL32, call=call,
                     what="dz/dx = 8 x + 1 (through y)")
        if case != "leaf twice":
            assert_close(_np(tape.gradient(z, y)), 4.0 * xv, tolerance=TOL32, call=call, what="dz/dy = 2 y")


# -- Embedding(mask_zero=True) masks exactly the zero ids ------------------------------------------------------------
@clause("keras.mask.propagation", ref="tf221")
def test_blind24_embedding_mask_is_every_nonzero_id(tf, budget):
    """Embedding(mask_zero=True)'s mask is ids != 0 (Keras's compute_mask: ops.not_equal(inputs, 0)): a
    negative id (looked up from the end, as ops.take wraps it) is unmasked like a positive one; for int32 and
    int64 ids of rank 1 and 2, and through a model where GlobalAveragePooling1D averages the unmasked steps
    only."""
    keras = tf.keras
    table = (np.arange(10, dtype=np.float32).reshape(5, 2) - 4.0) / 2.0
    cases = [("int32", [[-1, 0, 2, 3], [0, -4, 1, 0]]), ("int64", [[0, -2, -5, 4]]), ("int32", [3, 0, -1]),
             ("pooled", [[-1, 0, 2, 0], [4, -3, 0, 1]])]
    for how, ids_list in budget(cases):
        ids = np.array(ids_list)
        want_mask = ids != 0
        call = f"Embedding(5, 2, mask_zero=True) of {how} ids {ids.tolist()}"
        if how == "pooled":
            inp = keras.Input((4,), dtype="int32")
            emb = keras.layers.Embedding(5, 2, mask_zero=True)
            out = keras.layers.GlobalAveragePooling1D()(emb(inp))
            model = keras.Model(inp, out)
            emb.set_weights([table])
            got = _np(model(tf.constant(ids, tf.int32)))
            rows = table[ids % 5].astype(np.float64)
            w = want_mask[..., None].astype(np.float64)
            want = (rows * w).sum(axis=1) / w.sum(axis=1)
            assert_close(got, want.astype(np.float32), tolerance=TOL32, call=call + " -> GlobalAveragePooling1D",
                         what="the mean of the unmasked steps' embeddings (negative ids from the end)")
            continue
        emb = keras.layers.Embedding(5, 2, mask_zero=True)
        t = tf.constant(ids, getattr(tf, how))
        emb(t)   # (builds the layer)
        emb.set_weights([table])
        got_mask = _np(emb.compute_mask(t))
        assert_equal(got_mask.tolist(), want_mask.tolist(), call=call, what="compute_mask (ids != 0)")
        assert_close(_np(emb(t)), table[ids % 5], tolerance=TOL32, call=call,
                     what="the looked-up rows (a negative id from the end)")


# -- a multi-label AUC is the (weighted) mean of its labels' AUCs, for every curve and summation ---------------------
@clause("keras.metric.auc", ref="tf221")
def test_blind24_multi_label_auc_is_the_weighted_mean_of_the_labels_aucs(tf, budget):
    """AUC(multi_label=True) keeps one confusion matrix per label and returns the mean of the labels' AUCs,
    or with label_weights sum(auc * w) / sum(w) (Keras's AUC.result and interpolate_pr_auc): for every curve
    and summation method (the interpolated PR curve has its own code) it equals that mean of
    AUC(multi_label=False) on each label's column; one label is that label's AUC."""
    keras = tf.keras
    y = np.array([[0, 1, 1], [1, 1, 0], [1, 0, 0], [0, 0, 1], [1, 1, 1], [0, 0, 0]], np.float32)
    p = np.array([[0.2, 0.9, 0.6], [0.7, 0.6, 0.1], [0.4, 0.3, 0.2], [0.5, 0.1, 0.8], [0.9, 0.35, 0.55],
                  [0.1, 0.2, 0.3]], np.float32)
    cases = [("PR", "interpolation", None), ("PR", "interpolation", [1.0, 3.0, 0.5]),
             ("ROC", "interpolation", None), ("PR", "minoring", [2.0, 0.0, 1.0]), ("ROC", "majoring", None),
             ("PR", "interpolation", "one label")]
    for curve, method, weights in budget(cases):
        cols = [1] if weights == "one label" else [0, 1, 2]
        lw = None if weights == "one label" else weights
        each = []
        for j in cols:
            m1 = keras.metrics.AUC(num_thresholds=7, curve=curve, summation_method=method)
            m1.update_state(y[:, j], p[:, j])
            each.append(float(_np(m1.result())))
        w = np.ones(len(cols)) if lw is None else np.array(lw, np.float64)
        want = float((np.array(each) * w).sum() / w.sum())
        m = keras.metrics.AUC(num_thresholds=7, curve=curve, summation_method=method, multi_label=True,
                              label_weights=lw)
        m.update_state(y[:, cols], p[:, cols])
        got = float(_np(m.result()))
        call = (f"AUC(num_thresholds=7, curve={curve!r}, summation_method={method!r}, multi_label=True, "
                f"label_weights={lw}) of labels {cols}")
        assert_close(got, want, tolerance=TOL32, call=call,
                     what=f"the weighted mean of the labels' own AUCs {np.round(each, 5).tolist()}")


# -- create_rng_state: seed words low first, a short vector zero-padded on the left ------------------------------------
def _rng_state(seed, size: int = 3) -> list[int]:
    """TF's random_ops_util / stateful_random_ops._make_1d_state: a Python int chopped into 64-bit words, low
    word first; a vector taken as int64 words; cut to `size` and zero-padded on the *left* (so a short seed
    fills the key, not the counter)."""
    if isinstance(seed, int):
        words = []
        for _ in range(size):
            words.append(seed & (2 ** 64 - 1))
            seed >>= 64
    else:
        words = [int(v) & (2 ** 64 - 1) for v in np.asarray(seed).reshape(-1).tolist()]
    words = words[:size]
    words = [0] * (size - len(words)) + words
    return [w - 2 ** 64 if w >= 2 ** 63 else w for w in words]


@clause("ops.random-generator", ref="tf221")
def test_blind24_rng_state_of_every_seed_spelling(tf, budget):
    """tf.random.create_rng_state(seed, "philox") is TF's 1-D state of size 3: an int's 64-bit words low word
    first, a vector's entries (longer ones cut, shorter ones zero-padded on the left); Generator.from_seed and
    reset_from_seed of the same seed hold that state, so their draws equal those of Generator.from_state of
    it (the counter advanced by 256 per value)."""
    cases = [[5, 7], [9], 3, [1, 2, 3, 4], 2 ** 64 + 5, [0, 0, 11], -2]
    for seed in budget(cases):
        want = _rng_state(seed)
        call = f"tf.random.create_rng_state({seed!r}, 'philox')"
        st = _np(tf.random.create_rng_state(seed, "philox")).astype(np.int64).tolist()
        assert_equal(st, want, call=call, what="state words [counter low, counter high, key]")
        g = tf.random.Generator.from_seed(seed)
        h = tf.random.Generator.from_state(np.array(want, np.int64), "philox")
        k = tf.random.Generator.from_seed(0)
        k.reset_from_seed(seed)
        assert_equal(_np(g.state).astype(np.int64).tolist(), want, call=f"Generator.from_seed({seed!r})",
                     what="state")
        a, b, c = (_np(gen.uniform([4])) for gen in (g, h, k))
        assert_close(a, b, tolerance=TOL32, call=f"Generator.from_seed({seed!r}).uniform([4])",
                     what="the draws of Generator.from_state(create_rng_state(seed))")
        assert_close(c, b, tolerance=TOL32, call=f"reset_from_seed({seed!r}) then uniform([4])",
                     what="the draws of Generator.from_state(create_rng_state(seed))")


# -- clipping non-finite gradients: global_clipnorm makes every gradient NaN -----------------------------------------
def _keras_clip(grads: list[np.ndarray], how: str, c: float) -> list[np.ndarray]:
    """Keras 3.15's BaseOptimizer._clip_gradients in NumPy: clipnorm per tensor (ops.clip_by_norm: x * c /
    max(norm, c), a zero tensor kept), global_clipnorm (every tensor times c * min(1 / norm, 1 / c) plus
    norm - norm, so a non-finite global norm makes every gradient NaN), clipvalue (clip to [-c, c])."""
    with np.errstate(all="ignore"):
        g64 = [g.astype(np.float64) for g in grads]
        if how == "clipnorm":
            out = []
            for g in g64:
                l2 = np.sqrt((g * g).sum())
                out.append(g * c / max(l2, c) if l2 > 0 or np.isnan(l2) else g)
            return out
        if how == "global_clipnorm":
            norm = np.sqrt(sum((g * g).sum() for g in g64))
            scale = c * min(1.0 / norm if norm else np.inf, 1.0 / c) + (norm - norm)
            if np.isnan(norm):
                scale = np.nan
            return [g * scale for g in g64]
        return [np.clip(g, -c, c) for g in g64]


@clause("optim.clipping", ref="tf221")
def test_blind24_clipping_options_with_non_finite_and_boundary_gradients(tf, budget):
    """One SGD(0.1) step under each clipping option, with an inf or NaN gradient entry, all-zero gradients and a
    global norm exactly at the clip: global_clipnorm turns *every* gradient NaN when the global norm is not
    finite (Keras's clip_by_global_norm adds norm - norm), clipnorm clips each tensor alone (its inf entry
    NaN, its finite entries 0, the other tensor by its own norm), clipvalue clips inf to the bound; the
    tf.clip_by_global_norm op spelling also gives all NaN (and the norm inf)."""
    cases = [("global_clipnorm", 1.0, [[np.inf, 1.0], [2.0]]), ("global_clipnorm", 1.0, [[np.nan, 1.0], [2.0]]),
             ("global_clipnorm", 5.0, [[3.0, 4.0], [0.0]]), ("global_clipnorm", 1.0, [[0.0, 0.0], [0.0]]),
             ("clipnorm", 1.0, [[np.inf, 1.0], [3.0]]), ("clipvalue", 0.5, [[np.inf, -1.0], [0.25]]),
             ("op", 1.0, [[np.inf, 1.0], [2.0]])]
    v0 = [np.array([1.0, 2.0], np.float32), np.array([3.0], np.float32)]
    for how, c, gl in budget(cases):
        grads = [np.array(g, np.float32) for g in gl]
        call = f"{how}={c} of gradients {gl}"
        if how == "op":
            clipped, norm = tf.clip_by_global_norm([tf.constant(g) for g in grads], c)
            want = _keras_clip(grads, "global_clipnorm", c)
            for got, w in zip(clipped, want):
                assert_equal(np.isnan(_np(got)).tolist(), np.isnan(w).tolist(), call="tf.clip_by_global_norm: " + call,
                             what="which entries are NaN (a non-finite global norm: all)")
            assert_equal(float(_np(norm)), float("inf"), call="tf.clip_by_global_norm: " + call, what="the norm")
            continue
        vs = [tf.Variable(v) for v in v0]
        opt = tf.keras.optimizers.SGD(0.1, **{how: c})
        opt.apply_gradients(zip([tf.constant(g) for g in grads], vs))
        want = [v - 0.1 * g for v, g in zip(v0, _keras_clip(grads, how, c))]
        for got, w in zip(vs, want):
            got = _np(got).astype(np.float64)
            assert_equal(np.isnan(got).tolist(), np.isnan(w).tolist(), call=f"SGD(0.1, {how}={c}) step, {call}",
                         what="which variable entries are NaN")
            keep = ~np.isnan(w)
            assert_close(got[keep], w[keep], tolerance=TOL32, call=f"SGD(0.1, {how}={c}) step, {call}",
                         what="the finite entries: v - 0.1 * clipped gradient")


# -- tf.function binds the omitted defaults: a NumPy default is a tensor inside --------------------------------------
@clause("function.symbolic-tensors", ref="tf221")
def test_blind24_function_binds_numpy_defaults_as_tensors(tf, budget):
    """A tf.function canonicalizes each call with its defaults bound (FunctionType), so a NumPy default of a
    parameter the call leaves out reaches the Python as a tensor of the default's dtype, exactly as the same
    NumPy value passed explicitly does; a Python number default stays a Python value. For a function, a
    tf.Module method, a keyword-only parameter and an element of a tuple default."""
    cases = ["function, omitted", "method, omitted", "keyword-only, omitted", "function, passed explicitly",
             "tuple default"]
    for case in budget(cases):
        seen = []

        def note(v):
            seen.append((bool(tf.is_tensor(v)), v.dtype.name if tf.is_tensor(v) else type(v).__name__))

        if case == "method, omitted":
            class Scaler(tf.Module):
                @tf.function
                def __call__(self, x, y=np.array([1.0, 2.0], np.float32), k=2.0):
                    note(y)
                    note(k)
                    return x * y * k
            out = Scaler()(tf.constant(2.0))
            want_seen, want_out = [(True, "float32"), (False, "float")], [4.0, 8.0]
        elif case == "keyword-only, omitted":
            @tf.function
            def f(x, *, y=np.float64(3.0)):
                note(y)
                return x * tf.cast(y, tf.float32) * 2.0
            out = f(tf.constant([2.0, 4.0]))
            want_seen, want_out = [(True, "float64")], [12.0, 24.0]
        elif case == "tuple default":
            @tf.function
            def f(x, w=(np.int32(3), 1.5)):
                note(w[0])
                note(w[1])
                return x * tf.cast(w[0], tf.float32) * w[1]
            out = f(tf.constant([2.0, 4.0]))
            want_seen, want_out = [(True, "int32"), (False, "float")], [9.0, 18.0]
        else:
            @tf.function
            def f(x, y=np.array([1.0, 2.0], np.float32), k=2.0):
                note(y)
                note(k)
                return x * y * k
            out = f(tf.constant(2.0)) if case == "function, omitted" else \
                f(tf.constant(2.0), np.array([1.0, 2.0], np.float32))
            want_seen, want_out = [(True, "float32"), (False, "float")], [4.0, 8.0]
        call = f"a tf.function's defaults ({case})"
        assert_equal(seen[:len(want_seen)], want_seen, call=call,
                     what="(is a tensor, dtype or Python type) of each default inside the traced Python")
        assert_close(_np(out), np.array(want_out, np.float32), tolerance=TOL32, call=call, what="result")
