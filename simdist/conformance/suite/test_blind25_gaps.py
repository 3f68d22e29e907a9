"""Gaps the twenty-fifth blind batch of planted training bugs found (issue 29, docs/conformance.md "How
strong is the suite"): rules of the training layer that the suite stated for one spelling, one option value or
one input only (ExponentialMovingAverage without num_updates, save_freq counted with one batch per callback
call, ...), so that a wrong implementation of the other spelling passed (TF 2.21 + Keras 3.15).

Each test checks a class of behaviour, not one planted bug. Every expected value is computed here with NumPy
(a transcription of TF's or Keras 3.15's rule) or is a relation TF's rule implies between two spellings, never
the backend's own implementation of the same rule.
"""

from __future__ import annotations

import json
import os
import tempfile

import numpy as np
import pytest

from simdist.conformance.assertions import assert_close, assert_equal, to_numpy
from simdist.conformance.tolerances import Tolerance

clause = pytest.mark.clause
TOL32 = Tolerance(rtol=2e-5, atol=2e-6)


def _np(x):
    return np.asarray(x.numpy() if hasattr(x, "numpy") else x)


# -- ExponentialMovingAverage's decay with num_updates -----------------------------------------------------------
def _ema_decay(decay: float, n) -> np.float32:
    """TF's moving_averages.py: decay as float32; with num_updates n, min(decay, (1 + n) / (10 + n)) in float32."""
    d = np.float32(decay)
    if n is None:
        return d
    n = np.float32(n)
    return np.minimum(d, (np.float32(1.0) + n) / (np.float32(10.0) + n))


@clause("training.moving-average", ref="tf221")
def test_blind25_moving_average_decay_is_capped_by_num_updates(tf, budget):
    """tf.train.ExponentialMovingAverage(decay, num_updates=n) moves each average with
    min(decay, (1 + n) / (10 + n)): the cap governs while n is small, decay once (1 + n) / (10 + n) exceeds it;
    n may be a Python int, a constant tensor or a variable that counts the steps (read at each apply); without
    num_updates decay alone. avg -= (avg - v) * (1 - decay), in the average's dtype (float32 and float64)."""
    cases = [("int 1000", 0.5, "int", 1000), ("int 0", 0.9, "int", 0), ("int 2, decay 0.99", 0.99, "int", 2),
             ("tensor 5", 0.95, "tensor", 5), ("variable counting from 0", 0.999, "variable", 0),
             ("variable counting from 200", 0.75, "variable", 200), ("no num_updates", 0.6, None, None)]
    for label, decay, kind, n0 in budget(cases):
        for dt in ("float32", "float64"):
            v = tf.Variable(np.array([1.0, -2.0], dt))
            if kind == "int":
                nu = n0
            elif kind == "tensor":
                nu = tf.constant(n0)
            elif kind == "variable":
                nu = tf.Variable(n0, dtype=tf.int64)
            else:
                nu = None
            ema = tf.train.ExponentialMovingAverage(decay, num_updates=nu)
            ema.apply([v])
            want = np.array([1.0, -2.0], dt)
            n = n0
            for step, value in enumerate(([3.0, 0.5], [-1.0, 4.0], [2.0, 2.0])):
                if kind == "variable":
                    nu.assign_add(1)
                    n = n0 + step + 1
                v.assign(np.array(value, dt))
                ema.apply([v])
                d = _ema_decay(decay, n)
                one_minus = np.asarray(np.float32(1.0) - d).astype(dt)
                want = want - (want - np.array(value, dt)) * one_minus
                assert_close(_np(ema.average(v)), want.astype(dt),
                             tolerance=TOL32, call=f"ExponentialMovingAverage({decay}, num_updates={label}) on a {dt} "
                                                   f"variable, apply #{step + 2}",
                             what="the average (decay = min(decay, (1 + n) / (10 + n)))")


# -- save_freq counts the batches between callback calls --------------------------------------------------------
def _checkpoint_saves(ends: list[list[int]], freq: int) -> list[tuple[int, int]]:
    """Keras 3.15's ModelCheckpoint._should_save_on_batch: the batches since the last call are end - last
    (end + 1 when the index did not grow: the first call, a new epoch); a save when the count reaches freq."""
    out, last, seen = [], None, 0
    for epoch, batch_ends in enumerate(ends):
        for b in batch_ends:
            seen += b + 1 if last is None or b <= last else b - last
            last = b
            if seen >= freq:
                seen = 0
                out.append((epoch, b))
    return out


def _backup_saves(ends: list[list[int]], freq: int) -> list[tuple[int, int]]:
    """Keras 3.15's BackupAndRestore._should_save_on_batch: as ModelCheckpoint's, but the last batch seen
    starts at 0 and returns to 0 at each epoch's end (so a first call at batch b > 0 counts b, not b + 1)."""
    out, seen = [], 0
    for epoch, batch_ends in enumerate(ends):
        last = 0
        for b in batch_ends:
            seen += b + 1 if b <= last else b - last
            last = b
            if seen >= freq:
                seen = 0
                out.append((epoch, b))
    return out


@clause("keras.callback.model-checkpoint", ref="tf221")
def test_blind25_save_freq_counts_every_batch_of_a_multi_step_execution(keras, budget):
    """With steps_per_execution = k, fit calls on_train_batch_end once per k batches with the last batch's
    index; ModelCheckpoint(save_freq=n) and BackupAndRestore(save_freq=n) count the batches between two calls
    (the index difference), not the calls, across epochs: ModelCheckpoint's files are named by those
    end batches (a short last execution still reports step + k - 1); BackupAndRestore's training_metadata.json records the batch of each save (read after every
    batch by a later callback). Exact multiples, a remainder, k = 1 and freq below k are among the cases."""
    x = np.linspace(-1.0, 1.0, 18, dtype=np.float32).reshape(9, 2)
    y = np.linspace(0.5, -0.5, 9, dtype=np.float32).reshape(9, 1)
    cases = [(2, 3, 2), (3, 4, 2), (2, 1, 1), (1, 3, 2), (3, 6, 2), (4, 3, 1)]
    for spe, freq, epochs in budget(cases):
        # (Keras's epoch iterator reports step + k - 1 as a call's end, past the data for a short last one)
        ends = [[s + spe - 1 for s in range(0, 9, spe)] for _ in range(epochs)]
        call = (f"fit(9 rows, batch_size=1, epochs={epochs}) compiled with steps_per_execution={spe}, "
                f"save_freq={freq}")
        with tempfile.TemporaryDirectory() as d:
            model = keras.Sequential([keras.Input((2,)), keras.layers.Dense(1, kernel_initializer="ones")])
            model.compile(optimizer=keras.optimizers.SGD(0.01), loss="mse", steps_per_execution=spe)
            ckpt = keras.callbacks.ModelCheckpoint(os.path.join(d, "m-{epoch}-{batch}.weights.h5"),
                                                   save_weights_only=True, save_freq=freq)
            backup_dir = os.path.join(d, "backup")
            backup = keras.callbacks.BackupAndRestore(backup_dir, save_freq=freq, delete_checkpoint=False)
            seen_meta: list = []

            def read_meta(batch, logs=None):
                path = os.path.join(backup_dir, "training_metadata.json")
                seen_meta.append(json.load(open(path)) if os.path.exists(path) else None)
                if os.path.exists(path):
                    os.remove(path)

            model.fit(x, y, batch_size=1, epochs=epochs, shuffle=False, verbose=0,
                      callbacks=[ckpt, backup, keras.callbacks.LambdaCallback(on_train_batch_end=read_meta)])
            want_files = sorted(f"m-{e + 1}-{b + 1}.weights.h5" for e, b in _checkpoint_saves(ends, freq))
            got_files = sorted(f for f in os.listdir(d) if f.endswith(".weights.h5"))
            assert_equal(got_files, want_files, call=f"{call}: ModelCheckpoint('m-{{epoch}}-{{batch}}.weights.h5')",
                         what="files written (the batch count is the index difference between calls)")
            saves = set(_backup_saves(ends, freq))
            want_meta = [{"epoch": e, "batch": b} if (e, b) in saves else None
                         for e, batch_ends in enumerate(ends) for b in batch_ends]
            assert_equal(seen_meta, want_meta, call=f"{call}: BackupAndRestore(dir)",
                         what="training_metadata.json after each callback call (None: no save at that call)")


# -- Generator.from_key_counter: the state is the counter, then the key ------------------------------------------
@clause("ops.random-generator", ref="tf221")
def test_blind25_generator_state_from_key_and_counter(tf, budget):
    """tf.random.Generator.from_key_counter(key, counter, alg) and reset_from_key_counter make the state
    counter + [key] (Philox: a counter of two words; ThreeFry: one), so `state` reads that vector, `key` the
    key, and every (Philox) draw equals that of Generator.from_state(counter + [key], alg); a second spelling
    of the same state (reset_from_key_counter on another generator) draws the same. (TF's CPU kernels refuse
    ThreeFry draws: its states only.)"""
    cases = [("philox", 5, [7, 0]), ("philox", 0, [0, 3]), ("philox", 123456789, [1, 2]), ("threefry", 9, [4]),
             ("threefry", 2, [0])]
    for alg, key, counter in budget(cases):
        call = f"Generator.from_key_counter(key={key}, counter={counter}, alg={alg!r})"
        g = tf.random.Generator.from_key_counter(key=key, counter=counter, alg=alg)
        assert_equal(_np(g.state).tolist(), counter + [key], call=call, what="state (the counter, then the key)")
        assert_equal(int(_np(g.key)), key, call=call, what="key")
        ref = tf.random.Generator.from_state(counter + [key], alg=alg)
        other = tf.random.Generator.from_seed(1, alg=alg)
        other.reset_from_key_counter(key=key, counter=counter)
        assert_equal(_np(other.state).tolist(), counter + [key], call=f"reset_from_key_counter(key={key}, "
                     f"counter={counter}) of a {alg} generator", what="state")
        for draw in ("uniform", "normal") if alg == "philox" else ():   # (TF's CPU: no ThreeFry kernel)
            want = _np(getattr(ref, draw)([4]))
            assert_equal(_np(getattr(g, draw)([4])), want, call=f"{call}.{draw}([4])",
                         what=f"the draw (Generator.from_state({counter + [key]}).{draw}'s)")
            assert_equal(_np(getattr(other, draw)([4])), want, call=f"reset_from_key_counter; .{draw}([4])",
                         what="the draw")


# -- tf.custom_gradient's variables: those read that are not arguments -------------------------------------------
@clause("autodiff.custom-gradient", ref="tf221")
def test_blind25_custom_gradient_variables_exclude_its_arguments(tf, budget):
    """A variable passed to a custom_gradient function is an argument, not one of grad_fn's `variables`, whether
    it is passed positionally, inside a list, or by keyword (a keyword argument gets no gradient at all, None);
    the variables grad_fn receives are the trainable ones read inside that are not arguments. The gradient of
    a positional variable is grad_fn's own input gradient; of a variable read inside, grad_fn's variable
    gradient."""
    cases = ["positional, reads another", "positional, reads only itself", "in a list, reads another",
             "keyword, reads another"]
    for case in budget(cases):
        v = tf.Variable(3.0, name="v")
        w = tf.Variable(2.0, name="w")
        seen: list = []
        reads_w = case != "positional, reads only itself"

        def make(read):
            @tf.custom_gradient
            def f(*args, **kwargs):
                val = read(args, kwargs)

                def grad_fn(up, variables=None):
                    seen.append(None if variables is None else [x.name.split(":")[0] for x in variables])
                    first = [up * 5.0] if not kwargs else [up * 5.0]
                    if variables:
                        return first, [up * 11.0 for _ in variables]
                    return first
                return val, grad_fn
            return f

        x = tf.constant(1.5)
        with tf.GradientTape() as tape:
            tape.watch(x)
            if case.startswith("positional"):
                y = make(lambda a, k: a[0] * (w if reads_w else 1.0) * 4.0)(v)
                want_v = 5.0
            elif case.startswith("in a list"):
                y = make(lambda a, k: a[0][0] * w * 4.0)([v])
                want_v = 5.0
            else:
                y = make(lambda a, k: a[0] * k["b"] * w)(x, b=v)
                want_v = None
        grads = tape.gradient(y, [v, w])
        call = f"tf.custom_gradient with variable v {case} (w read inside: {reads_w})"
        assert_equal(seen, [["w"] if reads_w else None], call=call,
                     what="grad_fn's variables (the variables read that are not arguments)")
        got_v = None if grads[0] is None else float(_np(grads[0]))
        assert_equal(got_v, want_v, call=call, what="d/dv (grad_fn's input gradient; None for a keyword argument)")
        if reads_w:
            assert_equal(float(_np(grads[1])), 11.0, call=call, what="d/dw (grad_fn's variable gradient)")


# -- max pooling's second-order gradient reads the first tied maximum ----------------------------------------------
def _first_max_positions(x: np.ndarray, ksize: tuple, strides: tuple, padding: str) -> list:
    """For each output window of an N-spatial-dims max pool (x: [batch, *spatial, channels]): the input index
    of the first position, in row-major window order, holding the window's maximum (padding excluded)."""
    import itertools
    spatial = x.shape[1:-1]
    outs, pads = [], []
    for L, k, s in zip(spatial, ksize, strides):
        o = (L - k) // s + 1 if padding == "VALID" else -(-L // s)
        outs.append(o)
        pads.append(max((o - 1) * s + k - L, 0) // 2 if padding == "SAME" else 0)
    res = []
    for n in range(x.shape[0]):
        for c in range(x.shape[-1]):
            for o in itertools.product(*[range(v) for v in outs]):
                pos = []
                for off in itertools.product(*[range(k) for k in ksize]):
                    p = tuple(oi * s - pd + f for oi, s, pd, f in zip(o, strides, pads, off))
                    if all(0 <= pi < L for pi, L in zip(p, spatial)):
                        pos.append(p)
                vals = [x[(n,) + p + (c,)] for p in pos]
                best = pos[int(np.argmax(np.array(vals) == max(vals)))]
                res.append(((n,) + o + (c,), (n,) + best + (c,)))
    return res


@clause("autodiff.higher-order", ref="tf221")
def test_blind25_max_pool_gradient_of_gradient_reads_the_first_tied_maximum(tf, budget):
    """The gradient of max pooling's gradient with respect to the upstream gradient (MaxPoolGradGrad,
    MaxPool3DGradGrad) takes, for each window, the value at the first position in row-major window order
    holding the window's maximum: ties go to the first. Checked for max_pool1d, max_pool2d (VALID, SAME,
    overlapping windows) and max_pool3d, each with several tied maxima, and for the 2-D first-order gradient,
    which gives each window's upstream gradient to that same first maximum."""
    rng = np.random.default_rng(25)
    cases = [("2d VALID 2x2/2", (1, 4, 4, 2), (2, 2), (2, 2), "VALID"),
             ("2d SAME 3x3/2 overlapping", (1, 5, 5, 1), (3, 3), (2, 2), "SAME"),
             ("1d VALID 3/1", (2, 6, 1), (3,), (1,), "VALID"),
             ("3d VALID 2x2x2/2", (1, 2, 4, 4, 1), (2, 2, 2), (2, 2, 2), "VALID")]
    for label, shape, ksize, strides, padding in budget(cases):
        x = rng.integers(0, 3, shape).astype(np.float32)   # values 0, 1, 2: many ties
        c = rng.uniform(1.0, 2.0, shape).astype(np.float32) * np.arange(1, x.size + 1, dtype=np.float32).reshape(shape)
        pool = {1: tf.nn.max_pool1d, 2: tf.nn.max_pool2d, 3: tf.nn.max_pool3d}[len(ksize)]
        xt, ct = tf.constant(x), tf.constant(c)
        pairs = _first_max_positions(x, ksize, strides, padding)
        out_shape = tuple(int(d) for d in pool(xt, list(ksize), list(strides), padding).shape)
        w = tf.constant(rng.uniform(0.5, 1.5, out_shape).astype(np.float32))
        with tf.GradientTape() as t2:
            t2.watch(w)
            with tf.GradientTape() as t1:
                t1.watch(xt)
                y = tf.reduce_sum(pool(xt, list(ksize), list(strides), padding) * w)
            gx = t1.gradient(y, xt)
            z = tf.reduce_sum(gx * ct)
        gw = _np(t2.gradient(z, w))
        want = np.zeros(out_shape, np.float32)
        for o, p in pairs:
            want[o] = c[p]
        call = f"max_pool ({label}) of integer-valued x (ties): d/dw sum(d/dx sum(pool(x) * w) * c)"
        assert_close(gw, want, tolerance=TOL32, call=call, what="the gradient of the gradient (c at each window's "
                                                                "first maximum)")
        if len(ksize) == 2:
            want_x = np.zeros(shape, np.float32)
            wn = _np(w)
            for o, p in pairs:
                want_x[p] += wn[o]
            assert_close(_np(gx), want_x, tolerance=TOL32, call=f"max_pool ({label}): d/dx sum(pool(x) * w)",
                         what="the first-order gradient (each window's w to its first maximum)")


# -- Attention's causal mask combines with the value mask ----------------------------------------------------------
def _softmax(s: np.ndarray) -> np.ndarray:
    e = np.exp(s - s.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)


@clause("keras.layer.forward-and-gradients", ref="tf221")
def test_blind25_attention_masks_combine_causal_value_and_query(keras, budget):
    """Attention and AdditiveAttention: a key position is attended when the value mask allows it and, with
    use_causal_mask, when it is not after the query position (both at once: the value mask still applies
    under the causal mask); masked scores are lowered by 1e9 before the softmax; a query mask zeroes its
    rows of the output. Scores: q·kᵀ (Attention), Σ scale·tanh(q + k) (AdditiveAttention, its `scale` weight).
    Checked with return_attention_scores, with and without a separate key."""
    rng = np.random.default_rng(7)
    q = rng.uniform(-1.0, 1.0, (2, 4, 3)).astype(np.float32)
    v = rng.uniform(-1.0, 1.0, (2, 4, 3)).astype(np.float32)
    k = rng.uniform(-1.0, 1.0, (2, 4, 3)).astype(np.float32)
    v_mask = np.array([[False, True, True, True], [True, False, True, False]])
    q_mask = np.array([[True, True, False, True], [True, True, True, True]])
    cases = [("Attention", True, True, False, False), ("Attention", True, False, False, False),
             ("Attention", False, True, False, False), ("Attention", True, True, True, True),
             ("AdditiveAttention", True, True, False, True)]
    for kind, causal, use_v, use_q, with_key in budget(cases):
        layer = getattr(keras.layers, kind)()
        inputs = [q, v, k] if with_key else [q, v]
        mask = [q_mask if use_q else None, v_mask if use_v else None]
        out, weights = layer(inputs, mask=mask if (use_q or use_v) else None, use_causal_mask=causal,
                             return_attention_scores=True)
        key = k if with_key else v
        if kind == "Attention":
            scores = q @ np.swapaxes(key, -1, -2)
        else:
            scale = _np(layer.scale)
            scores = (scale * np.tanh(q[:, :, None, :] + key[:, None, :, :])).sum(-1)
        allowed = np.ones(scores.shape, bool)
        if use_v:
            allowed &= v_mask[:, None, :]
        if causal:
            allowed &= np.tril(np.ones((4, 4), bool))[None]
        want_w = _softmax(np.where(allowed, scores, scores - 1e9))
        want = want_w @ v
        if use_q:
            want = np.where(q_mask[:, :, None], want, 0.0)
        call = (f"{kind}()(inputs={'[q, v, k]' if with_key else '[q, v]'}, value mask {use_v}, query mask {use_q}, "
                f"use_causal_mask={causal})")
        assert_close(_np(weights), want_w.astype(np.float32), tolerance=TOL32, call=call,
                     what="attention scores (the softmax over allowed keys)")
        assert_close(_np(out), want.astype(np.float32), tolerance=TOL32, call=call, what="output")


# -- a tf.function method runs on the object it is called through ---------------------------------------------------
@clause("function.trace-once", ref="tf221")
def test_blind25_function_method_runs_on_its_own_object(tf, budget):
    """A tf.function method called through an object runs with that object's attributes: two instances, a
    shallow copy (copy.copy) or a deep copy (copy.deepcopy) made after the original's first call, and an
    instance of a subclass each get their own results, and the original keeps its own afterwards."""
    import copy

    class Scale:
        def __init__(self, k):
            self.k = k

        @tf.function
        def apply(self, x):
            return x * self.k + 1.0

    class Sub(Scale):
        pass

    cases = ["copy.copy", "second instance", "copy.deepcopy", "subclass instance"]
    for case in budget(cases):
        a = Scale(2.0)
        x = tf.constant([1.0, -3.0])
        first = _np(a.apply(x))
        if case == "second instance":
            b = Scale(5.0)
        elif case == "copy.copy":
            b = copy.copy(a)
            b.k = 5.0
        elif case == "copy.deepcopy":
            b = copy.deepcopy(a)
            b.k = 5.0
        else:
            b = Sub(5.0)
        call = f"@tf.function method of Scale(k): a = Scale(2.0), a.apply(x), then b ({case}) with k = 5"
        assert_close(first, np.array([3.0, -5.0], np.float32), call=call, what="a.apply(x) = x * 2 + 1")
        assert_close(_np(b.apply(x)), np.array([6.0, -14.0], np.float32), call=call, what="b.apply(x) = x * 5 + 1")
        assert_close(_np(a.apply(x)), np.array([3.0, -5.0], np.float32), call=call,
                     what="a.apply(x) again (the original's own k)")


# -- keras.random takes int seeds modulo int32 max - 1 -----------------------------------------------------------
@clause("keras.random.distributions", ref="tf221")
def test_blind25_keras_random_seeds_wrap_at_int32_max_minus_one(tf, keras, budget):
    """keras.random on TensorFlow draws with the stateless op of seed pair [s, 0] (a SeedGenerator: its
    state) taken modulo 2**31 - 2 (int32 max - 1, floormod) and cast to int32: a seed s and s + 2**31 - 2 draw the
    same values, 2**31 - 2 draws as 0, -1 as 2**31 - 3; every draw equals tf.random.stateless_<op> of that seed
    pair. Checked for uniform, normal, truncated_normal and randint with int seeds and SeedGenerators."""
    m = 2 ** 31 - 2
    cases = [3, 0, m - 1, 12345]
    for s in budget(cases):
        for seed in (s, s + m):
            pair = tf.constant([seed % m, 0], tf.int32)
            for name, kw in (("uniform", {}), ("normal", {}), ("truncated_normal", {}),
                             ("randint", {"minval": 0, "maxval": 100})):
                got = _np(getattr(keras.random, name)((5,), seed=seed, **kw))
                if name == "randint":
                    want = _np(tf.random.stateless_uniform((5,), seed=pair, minval=0, maxval=100, dtype=tf.int32))
                else:
                    want = _np(getattr(tf.random, f"stateless_{name}")((5,), seed=pair))
                assert_equal(got, want, call=f"keras.random.{name}((5,), seed={seed})",
                             what=f"the draw (tf.random.stateless_{name} of seed [{seed % m}, 0])")
            gen = keras.random.SeedGenerator(seed)
            got = _np(keras.random.uniform((3,), seed=gen))
            want = _np(tf.random.stateless_uniform((3,), seed=pair))
            assert_equal(got, want, call=f"keras.random.uniform((3,), seed=SeedGenerator({seed}))",
                         what=f"the first draw (stateless_uniform of [{seed % m}, 0])")
    neg = _np(keras.random.uniform((4,), seed=-1))
    assert_equal(neg, _np(tf.random.stateless_uniform((4,), seed=tf.constant([m - 1, 0], tf.int32))),
                 call="keras.random.uniform((4,), seed=-1)", what=f"the draw (seed [{m - 1}, 0]: floormod)")


# -- CheckpointManager: no second checkpoint at the step it last saved ---------------------------------------------
def _manager_ref(steps, interval, checks, numbers):
    """TF's CheckpointManager.save with checkpoint_interval: None at the last saved step (whatever
    check_interval), None while step < last + interval (check_interval only); otherwise the checkpoint
    number given, or the save counter's next."""
    out, last, counter = [], None, 0
    for s, check, num in zip(steps, checks, numbers):
        if last is not None and (s == last or (check and s < last + interval)):
            out.append(None)
            continue
        last = s
        counter += 1
        out.append(counter if num is None else num)
    return out


@clause("checkpoint.manager", ref="tf221")
def test_blind25_checkpoint_manager_never_saves_twice_at_one_step(tf, budget):
    """CheckpointManager(step_counter, checkpoint_interval=n).save returns None at the step it last saved,
    with check_interval=False too and with an explicit checkpoint_number (save_counter unchanged); at a new
    step check_interval=False saves whatever the interval; the first save always saves."""
    cases = [([0, 0, 0, 1], 5, [True, False, False, False], [None] * 4),
             ([2, 2, 3, 3, 9], 2, [False, False, False, True, True], [None, None, 7, None, None]),
             ([1, 4, 4, 5, 5], 3, [True, True, False, True, False], [None, None, 30, None, 50])]
    for steps, interval, checks, numbers in budget(cases):
        step = tf.Variable(0, dtype=tf.int64)
        ckpt = tf.train.Checkpoint(step=step, v=tf.Variable(1.0))
        manager = tf.train.CheckpointManager(ckpt, tempfile.mkdtemp(), max_to_keep=None, step_counter=step,
                                             checkpoint_interval=interval)
        got = []
        for s, check, num in zip(steps, checks, numbers):
            step.assign(s)
            p = manager.save(checkpoint_number=num, check_interval=check)
            got.append(None if p is None else int(os.path.basename(str(p)).split("-")[-1]))
        want = _manager_ref(steps, interval, checks, numbers)
        call = (f"CheckpointManager(checkpoint_interval={interval}) at steps {steps}, check_interval {checks}, "
                f"checkpoint_number {numbers}")
        assert_equal(got, want, call=call, what="checkpoint numbers saved (None: no save)")
        assert_equal(int(_np(ckpt.save_counter)), sum(g is not None for g in want), call=call, what="save_counter")
