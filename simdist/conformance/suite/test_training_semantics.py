"""Training semantics end to end — clauses training.nonlinear-models, optim.state-round-trip,
ops.random-across-calls (TF 2.21 + Keras 3.15).

Non-linear models (relu, tanh, softmax, cross-entropy) are trained a few steps under each strategy
and compared with a NumPy forward/backward pass of the same network written here (float64), fed
to the optimizer references of test_training.py; the optimizer's state survives save/load and
Checkpoint round trips; random ops draw anew on each call of a tf.function.
"""

from __future__ import annotations

import tempfile

import numpy as np
import pytest

from simdist.conformance.assertions import assert_close, assert_equal, assert_true, to_numpy
from simdist.conformance.repro import Program
from simdist.conformance.tolerances import Tolerance
from simdist.conformance.suite.test_training import reference

clause = pytest.mark.clause

_rng = np.random.default_rng(2029)
W1 = (_rng.standard_normal((3, 5)) * 0.7).astype(np.float32)
B1 = (_rng.standard_normal(5) * 0.1).astype(np.float32)
W2 = (_rng.standard_normal((5, 4)) * 0.6).astype(np.float32)
B2 = (_rng.standard_normal(4) * 0.1).astype(np.float32)
W3 = (_rng.standard_normal((4, 3)) * 0.8).astype(np.float32)
XS = [(_rng.standard_normal((8, 3))).astype(np.float32) for _ in range(3)]
YS = [_rng.integers(0, 3, size=8).astype(np.int32) for _ in range(3)]


def _softmax(z: np.ndarray) -> np.ndarray:
    e = np.exp(z - z.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)


def net_gradients(params: list[np.ndarray], x: np.ndarray, y: np.ndarray, smoothing: float) -> list[np.ndarray]:
    """d(mean cross-entropy)/d(params) of logits = tanh(relu(x W1 + b1) W2 + b2) W3 over the whole batch,
    with labels one-hot smoothed as Keras does (y (1 - s) + s / classes)."""
    w1, b1, w2, b2, w3 = (p.astype(np.float64) for p in params)
    x = x.astype(np.float64)
    a1 = x @ w1 + b1
    h1 = np.maximum(a1, 0.0)
    h2 = np.tanh(h1 @ w2 + b2)
    z = h2 @ w3
    target = np.eye(3)[y] * (1 - smoothing) + smoothing / 3
    dz = (_softmax(z) - target) / len(x)
    dw3 = h2.T @ dz
    da2 = (dz @ w3.T) * (1 - h2 ** 2)
    dw2, db2 = h1.T @ da2, da2.sum(axis=0)
    da1 = (da2 @ w2.T) * (a1 > 0)
    return [x.T @ da1, da1.sum(axis=0), dw2, db2, dw3]


def reference_training(opt: str, kw: dict, smoothing: float) -> list[np.ndarray]:
    """The parameters after one optimizer step per batch of XS/YS (global batches)."""
    params = [W1, B1, W2, B2, W3]
    states: list[list[np.ndarray]] = [[] for _ in params]
    for x, y in zip(XS, YS):
        for i, g in enumerate(net_gradients(params, x, y, smoothing)):
            states[i].append(g)
        # each parameter's optimizer only depends on its own gradient sequence: replay it from the start
        params = [reference(opt, p0, gs, kw).astype(np.float64) for p0, gs in zip([W1, B1, W2, B2, W3], states)]
    return params


NONLINEAR_STEP = """
strategy = backend.make_strategy(kind, n) if kind != "default" else tf.distribute.get_strategy()
with strategy.scope():
    params = [tf.Variable(p) for p in (w1, b1, w2, b2, w3)]
    opt = getattr(tf.keras.optimizers, opt_name)(**opt_kw)
    if head == "logits":
        loss_fn = tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True)
    else:
        loss_fn = tf.keras.losses.CategoricalCrossentropy(label_smoothing=smoothing)

def replica_step(x, y):
    w1_, b1_, w2_, b2_, w3_ = params
    with tf.GradientTape() as tape:
        h = tf.nn.relu(tf.matmul(x, w1_) + b1_)
        h = tf.tanh(tf.matmul(h, w2_) + b2_)
        logits = tf.matmul(h, w3_)
        if head == "logits":
            loss = loss_fn(y, logits)
        else:
            loss = loss_fn(tf.one_hot(y, 3), tf.nn.softmax(logits))
    grads = tape.gradient(loss, params)
    opt.apply_gradients(zip(grads, params))
    return loss

n_rep = strategy.num_replicas_in_sync
for x_np, y_np in zip(xs, ys):
    rows = len(x_np) // n_rep
    x = strategy.experimental_distribute_values_from_function(
        lambda ctx: tf.constant(x_np[ctx.replica_id_in_sync_group * rows:(ctx.replica_id_in_sync_group + 1) * rows]))
    y = strategy.experimental_distribute_values_from_function(
        lambda ctx: tf.constant(y_np[ctx.replica_id_in_sync_group * rows:(ctx.replica_id_in_sync_group + 1) * rows]))
    strategy.run(replica_step, args=(x, y))
final = [[c.numpy() for c in strategy.experimental_local_results(p)] for p in params]
iterations = int(opt.iterations.numpy())
"""

STRATEGIES = [("default", 1), ("one_device", 1), ("mirrored", 2), ("central_storage", 2)]
OPTIMIZERS = [("SGD", {"learning_rate": 0.5, "momentum": 0.9, "nesterov": True}),
              ("Adam", {"learning_rate": 0.05}),
              ("SGD", {"learning_rate": 0.5, "clipnorm": 0.05}),
              ("SGD", {"learning_rate": 0.5, "global_clipnorm": 0.08}),
              ("SGD", {"learning_rate": 0.5, "clipvalue": 0.01})]
NAMES = ["w1", "b1", "w2", "b2", "w3"]


@clause("training.nonlinear-models", ref="tf221")
@pytest.mark.parametrize("kind,n", STRATEGIES, ids=[f"{k}{n}" for k, n in STRATEGIES])
@pytest.mark.parametrize("head,opt_i", [("logits", 0), ("probabilities", 1), ("logits", 2), ("logits", 3),
                                       ("logits", 4)],
                         ids=["sparse-logits-sgd-nesterov", "softmax-smoothing-adam", "sparse-logits-clipnorm",
                              "sparse-logits-global-clipnorm", "sparse-logits-clipvalue"])
def test_nonlinear_network_trains_like_numpy(backend, kind, n, head, opt_i):
    name, kw = OPTIMIZERS[opt_i]
    smoothing = 0.2 if head == "probabilities" else 0.0
    if {"clipnorm", "global_clipnorm", "clipvalue"} & set(kw):
        if n > 1:
            pytest.skip("clipping applies to each replica's gradient before the sum: its reference is the one-replica "
                        "one (the per-replica rule is clause optim.clipping's)")
        want = _reference_clipped(kw)
    else:
        want = reference_training(name, kw, smoothing)
    prog = Program(backend, NONLINEAR_STEP, kind=kind, n=n, w1=W1, b1=B1, w2=W2, b2=B2, w3=W3, xs=XS, ys=YS,
                   opt_name=name, opt_kw=kw, head=head, smoothing=smoothing)
    ns = prog.run()
    call = f"{kind}({n}): 3 steps of {name}({kw}) on relu/tanh/{head} cross-entropy (label_smoothing={smoothing})"
    for pname, copies, w in zip(NAMES, ns["final"], want):
        for i, c in enumerate(copies):
            assert_close(c, w, call=call, what=f"{pname} copy {i}")
    assert_equal(ns["iterations"], 3, call=call, what="optimizer.iterations")


def _reference_clipped(kw: dict) -> list[np.ndarray]:
    """SGD with clipped gradients, one replica: clipnorm rescales each gradient to norm <= clipnorm
    (tf.clip_by_norm), global_clipnorm all of them by the norm of their concatenation, clipvalue clips
    each element to [-v, v]."""
    params = [p.astype(np.float64) for p in (W1, B1, W2, B2, W3)]
    for x, y in zip(XS, YS):
        gs = net_gradients(params, x, y, 0.0)
        if "clipnorm" in kw:
            gs = [g * min(1.0, kw["clipnorm"] / np.sqrt((g * g).sum())) for g in gs]
        elif "global_clipnorm" in kw:
            norm = np.sqrt(sum((g * g).sum() for g in gs))
            gs = [g * min(1.0, kw["global_clipnorm"] / norm) for g in gs]
        else:
            gs = [np.clip(g, -kw["clipvalue"], kw["clipvalue"]) for g in gs]
        params = [p - kw["learning_rate"] * g for p, g in zip(params, gs)]
    return params


FIT_PROGRAM = """
strategy = backend.make_strategy(kind, n) if kind != "default" else tf.distribute.get_strategy()
order = []
with strategy.scope():
    inputs = tf.keras.Input((3,))
    h = tf.keras.layers.Dense(5, activation="relu")(inputs)
    h = tf.keras.layers.Dense(4, activation="tanh")(h)
    out = tf.keras.layers.Dense(3, use_bias=False)(h)
    model = tf.keras.Model(inputs, out)
    model.set_weights([w1, b1, w2, b2, w3])
    model.compile(optimizer=tf.keras.optimizers.SGD(0.5, momentum=0.9, nesterov=True),
                  loss=tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True), metrics=["accuracy"])
cbs = [tf.keras.callbacks.LambdaCallback(on_epoch_end=lambda e, logs: order.append(("a", e))),
       tf.keras.callbacks.LambdaCallback(on_epoch_end=lambda e, logs: order.append(("b", e)))]
hist = model.fit(np.concatenate([x_all, x_val]), np.concatenate([y_all, y_val]), batch_size=8, epochs=1,
                 shuffle=False, validation_split=val_split, callbacks=cbs, verbose=0)
final = model.get_weights()
val_loss = hist.history["val_loss"][0]
"""


@clause("training.nonlinear-models", ref="tf221")
@pytest.mark.parametrize("kind,n", [("default", 1), ("mirrored", 2)], ids=["default1", "mirrored2"])
def test_fit_of_a_nonlinear_model_matches_numpy(backend, kind, n):
    """fit(shuffle=False, validation_split) trains on the first samples in order (batches of 8) and
    validates on the last ones; callbacks run in the order given."""
    x_val = XS[0][:6] * -1.5
    y_val = YS[1][:6]
    n_train = 3 * 8
    val_split = 6 / (n_train + 6)
    prog = Program(backend, FIT_PROGRAM, kind=kind, n=n, w1=W1, b1=B1, w2=W2, b2=B2, w3=W3,
                   x_all=np.concatenate(XS), y_all=np.concatenate(YS), x_val=x_val, y_val=y_val, val_split=val_split)
    ns = prog.run()
    want = reference_training("SGD", OPTIMIZERS[0][1], 0.0)
    call = f"{kind}({n}): fit(shuffle=False, validation_split={val_split:.3f}) of a relu/tanh network, 3 batches of 8"
    for pname, got, w in zip(NAMES, ns["final"], want):
        assert_close(got, w, call=call, what=pname)
    w1, b1, w2, b2, w3 = want
    z = np.tanh(np.maximum(x_val @ w1 + b1, 0) @ w2 + b2) @ w3
    lse = np.log(np.exp(z - z.max(-1, keepdims=True)).sum(-1)) + z.max(-1)
    assert_close(np.float64(ns["val_loss"]), np.mean(lse - z[np.arange(6), y_val]), call=call, what="val_loss")
    assert_equal(ns["order"], [("a", 0), ("b", 0)], call=call, what="the callbacks' on_epoch_end calls")


# -- optim.state-round-trip ---------------------------------------------------------------------------
ROUND_TRIP = """
import os

def make():
    inputs = tf.keras.Input((3,))
    h = tf.keras.layers.Dense(5, activation="relu")(inputs)
    out = tf.keras.layers.Dense(3)(h)
    m = tf.keras.Model(inputs, out)
    m.set_weights([w1, b1, w2[:, :3], b2[:3]])
    m.compile(optimizer=tf.keras.optimizers.Adam(0.05),
              loss=tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True))
    return m

a = make()
a.fit(xs[0], ys[0], batch_size=4, epochs=1, shuffle=False, verbose=0)
if how == "weights":
    path = os.path.join(tmp, "m.weights.h5")
    a.save_weights(path)
    b = make()
    b.optimizer.build(b.trainable_variables)
    b.load_weights(path)
else:
    ckpt = tf.train.Checkpoint(model=a, optimizer=a.optimizer)
    path = ckpt.save(os.path.join(tmp, "ckpt"))
    b = make()
    b.optimizer.build(b.trainable_variables)
    tf.train.Checkpoint(model=b, optimizer=b.optimizer).restore(path)
restored_iterations = int(b.optimizer.iterations.numpy())
slots_a = [np.array(v.numpy()) for v in a.optimizer.variables]
slots_b = [np.array(v.numpy()) for v in b.optimizer.variables]
a.fit(xs[1], ys[1], batch_size=4, epochs=1, shuffle=False, verbose=0)
b.fit(xs[1], ys[1], batch_size=4, epochs=1, shuffle=False, verbose=0)
after_a, after_b = a.get_weights(), b.get_weights()
"""


@clause("optim.state-round-trip", ref="tf221")
@pytest.mark.parametrize("how", ["weights", pytest.param("checkpoint", marks=pytest.mark.requires("checkpoint"))])
def test_optimizer_state_survives_a_round_trip(backend, how):
    with tempfile.TemporaryDirectory() as tmp:
        prog = Program(backend, ROUND_TRIP, w1=W1, b1=B1, w2=W2, b2=B2, xs=XS, ys=YS, how=how, tmp=tmp)
        ns = prog.run()
    call = f"Adam-compiled model trained 2 steps, {'save_weights/load_weights' if how == 'weights' else 'Checkpoint'}" \
           " into a fresh compiled model with a built optimizer"
    assert_equal(ns["restored_iterations"], 2, call=call, what="restored optimizer.iterations")
    assert_equal(len(ns["slots_b"]), len(ns["slots_a"]), call=call, what="number of optimizer variables")
    for i, (sa, sb) in enumerate(zip(ns["slots_a"], ns["slots_b"])):
        assert_close(sb, sa, call=call, what=f"optimizer.variables[{i}] after restore")
    for i, (wa, wb) in enumerate(zip(ns["after_a"], ns["after_b"])):
        assert_close(wb, wa, call=call + ", then 2 more steps on both", what=f"weight {i}")


# -- ops.random-across-calls --------------------------------------------------------------------------
RANDOM = """
tf.random.set_seed(7)

@tf.function
def draw():
    return tf.random.uniform([4], seed=3), tf.random.normal([3])

first = [[t.numpy() for t in draw()] for _ in range(3)]
eager = [tf.random.uniform([4], seed=11).numpy() for _ in range(2)]
tf.random.set_seed(7)
again = [[t.numpy() for t in draw()] for _ in range(3)]
"""


@clause("ops.random-across-calls", ref="tf221")
def test_random_ops_draw_anew_on_each_call(backend, tf):
    ns = Program(backend, RANDOM).run()
    first, again, eager = ns["first"], ns["again"], ns["eager"]
    call = "tf.function drawing uniform(seed=3) and normal() called 3 times after set_seed(7)"
    for k, what in ((0, "uniform([4], seed=3)"), (1, "normal([3])")):
        draws = [f[k] for f in first]
        assert_true(not np.array_equal(draws[0], draws[1]) and not np.array_equal(draws[1], draws[2]),
                    f"{call}: {what} gave the same values on two calls ({draws}); TF draws anew on each call",
                    call=call)
        for i in range(3):
            assert_close(again[i][k], first[i][k], call=call + ", then again after set_seed(7)",
                         what=f"{what} on call {i}")
    assert_true(not np.array_equal(eager[0], eager[1]),
                f"two eager calls of uniform([4], seed=11) gave the same values {eager[0]}; TF's kernel counter "
                "advances", call="tf.random.uniform([4], seed=11) twice")


# -- function.replay-diverging-copies -----------------------------------------------------------------
REPLAY = """
strategy = backend.make_strategy("mirrored", 2)
with strategy.scope():
    v = tf.Variable(0.0)
    s = tf.Variable(0.0, synchronization=tf.VariableSynchronization.ON_READ,
                    aggregation=tf.VariableAggregation.SUM)

@tf.function
def step(k):
    def fn():
        rid = tf.distribute.get_replica_context().replica_id_in_sync_group
        inc = tf.cast(rid + 1, tf.float32) * k
        v.assign_add(inc)
        s.assign_add(inc * 10.0)
        return v.read_value()
    return strategy.run(fn)

reads = [[float(x.numpy()) for x in strategy.experimental_local_results(step(tf.constant(k)))] for k in ks]
v_copies = [float(c.numpy()) for c in strategy.experimental_local_results(v)]
s_copies = [float(c.numpy()) for c in strategy.experimental_local_results(s)]
s_read = float(s.read_value().numpy())
"""


@clause("function.replay-diverging-copies", ref="tf221")
def test_replayed_step_keeps_each_replicas_copy(backend):
    ks = [1.0, 2.0, 3.0]
    ns = Program(backend, REPLAY, ks=ks).run()
    call = ("MirroredStrategy(2): a tf.function step run 3 times (k = 1, 2, 3) where replica r adds (r+1)*k to a "
            "MirroredVariable (aggregation NONE) and 10*(r+1)*k to an ON_READ SUM variable")
    totals = np.cumsum(ks)
    want_reads = [[(r + 1) * t for r in range(2)] for t in totals]
    assert_close(np.array(ns["reads"]), np.array(want_reads), call=call, what="each replica's read after each call")
    assert_close(np.array(ns["v_copies"]), np.array(want_reads[-1]), call=call, what="the MirroredVariable's copies")
    assert_close(np.array(ns["s_copies"]), 10 * np.array(want_reads[-1]), call=call, what="the ON_READ copies")
    assert_close(np.float64(ns["s_read"]), 10 * sum(want_reads[-1]), call=call, what="the ON_READ variable read (SUM)")


SCHEDULED_FIT = """
inputs = tf.keras.Input((3,))
h = tf.keras.layers.Dense(5, activation="relu")(inputs)
h = tf.keras.layers.Dense(4, activation="tanh")(h)
out = tf.keras.layers.Dense(3, use_bias=False)(h)
model = tf.keras.Model(inputs, out)
model.set_weights([w1, b1, w2, b2, w3])
model.compile(optimizer=tf.keras.optimizers.SGD(0.01),
              loss=tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True))
sched = tf.keras.callbacks.LearningRateScheduler(lambda epoch, lr: rates[epoch])
hist = model.fit(x, y, batch_size=8, epochs=len(rates), shuffle=False, callbacks=[sched], verbose=0)
final = model.get_weights()
logged = hist.history["learning_rate"]
"""


@clause("keras.fit.callbacks", ref="tf221")
def test_learning_rate_scheduler_sets_each_epochs_rate(backend):
    """LearningRateScheduler(schedule) calls schedule(epoch, lr) before epoch `epoch` (from 0): one SGD
    step per epoch of a relu/tanh network with the rate of that epoch, against NumPy."""
    rates = [0.5, 1.5, 0.25]
    ns = Program(backend, SCHEDULED_FIT, w1=W1, b1=B1, w2=W2, b2=B2, w3=W3, x=XS[0], y=YS[0], rates=rates).run()
    params = [p.astype(np.float64) for p in (W1, B1, W2, B2, W3)]
    for lr in rates:
        params = [p - lr * g for p, g in zip(params, net_gradients(params, XS[0], YS[0], 0.0))]
    call = f"fit(epochs=3, LearningRateScheduler(epoch -> {rates}[epoch])) of a relu/tanh network, one batch"
    assert_close(np.array(ns["logged"]), np.array(rates), call=call, what="history['learning_rate']")
    for pname, got, w in zip(NAMES, ns["final"], params):
        assert_close(got, w, call=call, what=pname, tolerance=Tolerance(rtol=1e-4, atol=1e-5))


@clause("keras.loss.epsilon-clipping", ref="tf221")
def test_categorical_crossentropy_renormalises_probabilities(backend, tf):
    """Probabilities that do not sum to 1 are divided by their sum before the log (and the gradient
    flows through that division)."""
    p = np.array([[0.2, 0.3, 0.9], [0.05, 0.05, 0.1], [0.5, 0.25, 0.25]])
    t = np.array([[0.0, 0.0, 1.0], [0.2, 0.3, 0.5], [1.0, 0.0, 0.0]])
    pt = tf.constant(p, dtype=tf.float64)
    with tf.GradientTape() as tape:
        tape.watch(pt)
        loss = tf.keras.losses.categorical_crossentropy(tf.constant(t, dtype=tf.float64), pt)
    g = tape.gradient(loss, pt)
    q = p / p.sum(axis=1, keepdims=True)
    call = "keras.losses.categorical_crossentropy(t, p) with rows of p summing to 1.4, 0.2 and 1.0"
    assert_close(loss, -(t * np.log(q)).sum(axis=1), call=call, what="loss per sample")
    s = p.sum(axis=1, keepdims=True)
    # d/dp_j of -sum_i t_i (log p_i - log s) = -t_j / p_j + sum(t) / s
    assert_close(g, -t / p + t.sum(axis=1, keepdims=True) / s, call=call, what="d/dp")


# -- function.rewrite-bits ---------------------------------------------------------------------------------
_REWRITE_BITS = """
f = np.float32
N = 32 * 32   # at least the uniform-value rewrite's 1,024 elements
# 0.0, -0.0, two NaN payloads, inf, -inf, 1, -1; built from bits (np.float32 scalars below, not Python
# floats: TF's eager scalar cache would hand -0.0 the 0.0 converted first)
x = tf.constant(np.tile(np.array(BITS, np.uint32), N // 8).view(np.float32).reshape(32, 32))
mixed = tf.constant(np.tile(np.array([0, 0x80000000], np.uint32), N // 2).view(np.float32).reshape(32, 32))
nans = tf.constant(np.tile(np.array(NANS, np.uint32), N // 4).view(np.float32).reshape(32, 32))

def body(x, mixed, nans):
    pz, nz, one = tf.constant(f(0.0)), tf.constant(f(-0.0)), tf.constant(f(1.0))
    return {
        "x + -0": x + nz, "x - 0": x - pz, "x * 1": x * one, "x * -0": x * nz,
        "fold -0 + 0": nz + pz, "fold -0 * 0": nz * pz, "fold -0 - 0": nz - pz, "fold 1 / -0": one / nz,
        "-zeros": -tf.zeros([32, 32]),
        "fill(-0) + -0": tf.fill([32, 32], nz) + nz, "fill(-0) * x": tf.fill([32, 32], nz) * x,
        "fill(-0) - 0": tf.fill([32, 32], nz) - pz,
        "mixed * 1": mixed * one, "mixed + -0": mixed + nz, "mixed * -1": mixed * -one,
        "nans * 2": nans * 2.0, "nans + x": nans + x,
        "fill(inf) - fill(inf)": tf.fill([32, 32], f(np.inf)) - tf.fill([32, 32], f(np.inf)),
    }

def bits(d):
    return {k: np.asarray(v.numpy()).view(np.uint32).copy() for k, v in d.items()}

eager = bits(body(x, mixed, nans))
traced = tf.function(body)
calls = [bits(traced(x, mixed, nans)) for _ in range(3)]   # the trace, then replays

w = tf.Variable(-tf.zeros([32, 32]))
nzc = tf.constant(f(-0.0))

@tf.function
def update():
    w.assign_add(mixed)                          # -0.0 + 0.0 and -0.0 + -0.0, element by element
    w.assign_add(tf.fill([32, 32], nzc) + nzc)   # a uniform -0.0 added: every sign kept
    return w.read_value()

updates = [np.asarray(update().numpy()).view(np.uint32).copy() for _ in range(3)]
result = {"eager": eager, "calls": calls, "updates": updates}
"""
_BITS = [0x00000000, 0x80000000, 0x7FC00001, 0xFFC0BEEF, 0x7F800000, 0xFF800000, 0x3F800000, 0xBF800000]
_NANS = [0x7FC00001, 0x7FC00002, 0xFFC00003, 0x7FC0ABCD]


def _ieee_expected() -> dict[str, np.ndarray]:
    """The same expressions on whole NumPy float32 arrays: one IEEE operation per element (x86's
    NaN rules: a NaN operand's payload is kept, quieted; inf - inf is the default NaN 0xFFC00000)."""
    f = np.float32
    n = 32 * 32
    x = np.tile(np.array(_BITS, np.uint32), n // 8).view(f).reshape(32, 32)
    mixed = np.tile(np.array([0, 0x80000000], np.uint32), n // 2).view(f).reshape(32, 32)
    nans = np.tile(np.array(_NANS, np.uint32), n // 4).view(f).reshape(32, 32)
    pz, nz, one = f(0.0), f(-0.0), f(1.0)
    full = np.full((32, 32), nz, f)
    with np.errstate(all="ignore"):
        out = {
            "x + -0": x + nz, "x - 0": x - pz, "x * 1": x * one, "x * -0": x * nz,
            "fold -0 + 0": np.array(nz + pz), "fold -0 * 0": np.array(nz * pz), "fold -0 - 0": np.array(nz - pz),
            "fold 1 / -0": np.array(one / nz),
            "-zeros": -np.zeros((32, 32), f),
            "fill(-0) + -0": full + nz, "fill(-0) * x": full * x, "fill(-0) - 0": full - pz,
            "mixed * 1": mixed * one, "mixed + -0": mixed + nz, "mixed * -1": mixed * -one,
            "nans * 2": nans * f(2.0), "nans + x": nans + x,
            "fill(inf) - fill(inf)": np.full((32, 32), np.inf, f) - np.full((32, 32), np.inf, f),
        }
    return {k: np.asarray(v, f).view(np.uint32) for k, v in out.items()}


def _hexes(a: np.ndarray) -> list[str]:
    return [hex(int(v)) for v in np.asarray(a).ravel()[:8]]


@clause("function.rewrite-bits", ref="tf221")
def test_graph_rewrites_keep_every_bit(backend):
    """A tf.function fed values equal in value but not in bits (0.0 and -0.0, NaN payloads, inf)
    and expressions that tempt constant folding, CSE and the uniform-value rewrite gives, on its
    trace and on each replay, the eager call's bits, which are each element's IEEE result."""
    prog = Program(backend, _REWRITE_BITS, BITS=_BITS, NANS=_NANS)
    ns = prog.run()
    r = ns["result"]
    want = _ieee_expected()
    for k, bits_eager in r["eager"].items():
        assert_true(np.array_equal(bits_eager, want[k]),
                    f"eager `{k}` bits {_hexes(bits_eager)}, but should be {_hexes(want[k])} (IEEE, element by element)",
                    call=f"eager {k}")
        for i, c in enumerate(r["calls"]):
            assert_true(np.array_equal(c[k], bits_eager),
                        f"call {i} of the tf.function: `{k}` bits {_hexes(c[k])}, but the eager call's are "
                        f"{_hexes(bits_eager)}", call=f"tf.function(body) call {i}")
    w = np.tile(np.array([0, 0x80000000], np.uint32), 512).reshape(32, 32)   # -0+0 = 0, -0+-0 = -0, then + -0 keeps both
    for i, u in enumerate(r["updates"]):
        assert_true(np.array_equal(u, w), f"the variable's bits after call {i}: {_hexes(u)}, but should be {_hexes(w)}",
                    call=f"update() call {i}: w += mixed zeros; w += fill(-0.0) + -0.0")


# -- function.grappler-rewrites ----------------------------------------------------------------------
@clause("function.grappler-rewrites", ref="tf221")
def test_traced_division_by_a_constant_is_a_reciprocal_multiply(tf):
    """Grappler's ReduceDivToReciprocalMul: inside a tf.function `x / 3.0` is `x * (1/3)` with
    the reciprocal rounded to float32, which differs from the division in the last bit for some
    x; eagerly it is the division."""
    x = np.linspace(1.0, 2.0, 257, dtype=np.float32)
    div = x / np.float32(3.0)
    mul = x * (np.float32(1.0) / np.float32(3.0))
    assert_true(bool(np.any(div.view(np.uint32) != mul.view(np.uint32))),
                "the inputs must tell x / 3 from x * (1/3) somewhere (a vacuous case otherwise)", call="setup")
    eager = to_numpy(tf.constant(x) / 3.0)
    assert_equal(eager.view(np.uint32), div.view(np.uint32), call="eager x / 3.0 (bits)")
    traced = to_numpy(tf.function(lambda t: t / 3.0)(tf.constant(x)))
    assert_equal(traced.view(np.uint32), mul.view(np.uint32), call="tf.function(lambda t: t / 3.0) (bits)")
