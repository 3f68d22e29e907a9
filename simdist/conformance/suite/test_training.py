"""Custom training loops with tf.keras.optimizers — clauses optim.* (TF 2.21 + Keras 3.15).

Each test's expected values come from a NumPy reference written here (Keras 3.15's update
formulas, the aggregation rules of its TensorFlow backend), never from the backend.
"""

from __future__ import annotations

import numpy as np
import pytest

from simdist.conformance.assertions import (assert_close, assert_equal, assert_true, assert_type_name,
                                            device_matches, raises)
from simdist.conformance.repro import Program

clause = pytest.mark.clause
needs_cluster = pytest.mark.requires("multi_worker")

W0 = np.array([[0.5, -1.0], [2.0, 0.25], [-0.75, 1.5]], dtype=np.float32)
GRADS = [np.array([[0.5, -0.25], [1.0, 2.0], [-1.5, 0.75]], dtype=np.float32),
         np.array([[-0.25, 0.5], [0.75, -1.0], [0.5, 0.25]], dtype=np.float32),
         np.array([[1.0, 1.0], [-0.5, 0.25], [0.25, -2.0]], dtype=np.float32)]


# -- NumPy references of Keras 3.15's update rules (float64) -------------------------------------------
def reference(name: str, w: np.ndarray, grads: list[np.ndarray], kw: dict) -> np.ndarray:
    """w after applying `grads` one after the other with optimizer `name`(**kw)."""
    w = w.astype(np.float64)
    lr = kw.get("learning_rate", 0.01)
    slots: dict[str, np.ndarray] = {}
    for t, g in enumerate(grads, 1):
        g = g.astype(np.float64)
        if kw.get("weight_decay") is not None:
            w = w - w * kw["weight_decay"] * lr
        if name == "SGD":
            mom = kw.get("momentum", 0.0)
            if mom:
                m = slots.get("m", np.zeros_like(w)) * mom - g * lr
                slots["m"] = m
                w = w + (m * mom - g * lr if kw.get("nesterov") else m)
            else:
                w = w - g * lr
        elif name in ("Adam", "AdamW"):
            b1, b2, eps = kw.get("beta_1", 0.9), kw.get("beta_2", 0.999), kw.get("epsilon", 1e-7)
            m = slots.get("m", np.zeros_like(w))
            v = slots.get("v", np.zeros_like(w))
            m = m + (g - m) * (1 - b1)
            v = v + (g * g - v) * (1 - b2)
            slots["m"], slots["v"] = m, v
            if kw.get("amsgrad"):
                v = np.maximum(slots.get("vhat", np.zeros_like(w)), v)
                slots["vhat"] = v
            alpha = lr * np.sqrt(1 - b2 ** t) / (1 - b1 ** t)
            w = w - m * alpha / (np.sqrt(v) + eps)
        elif name == "Adagrad":
            acc = slots.get("acc", np.full_like(w, kw.get("initial_accumulator_value", 0.1))) + g * g
            slots["acc"] = acc
            w = w - lr * g / np.sqrt(acc + kw.get("epsilon", 1e-7))
        elif name == "RMSprop":
            rho, eps, mom = kw.get("rho", 0.9), kw.get("epsilon", 1e-7), kw.get("momentum", 0.0)
            v = rho * slots.get("v", np.zeros_like(w)) + (1 - rho) * g * g
            slots["v"] = v
            if kw.get("centered"):
                a = rho * slots.get("a", np.zeros_like(w)) + (1 - rho) * g
                slots["a"] = a
                denom = v - a * a + eps
            else:
                denom = v + eps
            inc = lr * g / np.sqrt(denom)
            if mom > 0:
                slots["mom"] = mom * slots.get("mom", np.zeros_like(w)) + inc
                w = w - slots["mom"]
            else:
                w = w - inc
    return w


RULES = [("SGD", {"learning_rate": 0.1}), ("SGD", {"learning_rate": 0.1, "momentum": 0.9}),
         ("SGD", {"learning_rate": 0.1, "momentum": 0.5, "nesterov": True}),
         ("Adam", {"learning_rate": 0.05}), ("Adam", {"learning_rate": 0.05, "beta_1": 0.5, "amsgrad": True}),
         # beta_2 = 0.5: v falls where a gradient shrinks, so AMSGrad's running maximum differs from v
         ("Adam", {"learning_rate": 0.05, "beta_2": 0.5, "amsgrad": True}),
         ("AdamW", {"learning_rate": 0.05, "weight_decay": 0.1}),
         ("Adagrad", {"learning_rate": 0.1}), ("Adagrad", {"learning_rate": 0.1, "initial_accumulator_value": 1.0}),
         ("RMSprop", {"learning_rate": 0.01}), ("RMSprop", {"learning_rate": 0.01, "momentum": 0.5}),
         ("RMSprop", {"learning_rate": 0.01, "rho": 0.8, "centered": True}),
         ("SGD", {"learning_rate": 0.1, "weight_decay": 0.2}),
         # a large epsilon shows where each rule adds it (inside or outside the square root)
         ("Adagrad", {"learning_rate": 0.1, "epsilon": 0.5}), ("Adam", {"learning_rate": 0.05, "epsilon": 0.5}),
         ("RMSprop", {"learning_rate": 0.01, "epsilon": 0.5})]


@clause("optim.update-rules", ref="tf221")
@pytest.mark.parametrize("name,kw", RULES, ids=[f"{n}-{'-'.join(f'{k}={v}' for k, v in kw.items())}"
                                                 for n, kw in RULES])
def test_update_rules(backend, name, kw):
    prog = Program(backend, """
w = tf.Variable(w0)
opt = getattr(tf.keras.optimizers, name)(**kw)
for g in grads:
    returned = opt.apply_gradients([(tf.constant(g), w)])
result = w.numpy()
iterations = int(opt.iterations.numpy())
""", name=name, kw=kw, w0=W0, grads=GRADS)
    ns = prog.run()
    expected = reference(name, W0, GRADS, kw)
    prog.expect("result", expected)
    call = f"{name}({kw}) after {len(GRADS)} apply_gradients"
    assert_close(ns["result"], expected, call=call, what="w")
    assert_equal(ns["iterations"], len(GRADS), call=call, what="optimizer.iterations")
    assert_true(ns["returned"] is ns["opt"].iterations, f"{call}: apply_gradients returned {ns['returned']!r}, "
                "but Keras returns optimizer.iterations", call=call)


@clause("optim.update-rules", ref="tf221")
def test_loss_scale_factor_scales_the_loss_and_unscales_the_gradients(backend):
    """SGD(0.1, loss_scale_factor=4): scale_loss multiplies the loss by 4 and apply_gradients divides
    the gradients by 4 before the update, so the step is the unscaled one (Keras 3.15's
    BaseOptimizer.apply)."""
    prog = Program(backend, """
w = tf.Variable(w0)
opt = tf.keras.optimizers.SGD(0.1, loss_scale_factor=4.0)
with tf.GradientTape() as tape:
    loss = opt.scale_loss(tf.reduce_sum(w * tf.constant(x0)))
grads = tape.gradient(loss, [w])
opt.apply_gradients(zip(grads, [w]))
scaled = float(loss.numpy())
result = w.numpy()
""", w0=W0, x0=GRADS[0])
    ns = prog.run()
    call = "SGD(0.1, loss_scale_factor=4.0): apply_gradients of d(scale_loss(sum(w * x)))/dw"
    assert_close(ns["scaled"], 4.0 * float(np.sum(W0.astype(np.float64) * GRADS[0])), call=call,
                 what="scale_loss(loss)")
    assert_close(ns["result"], W0.astype(np.float64) - 0.1 * GRADS[0], call=call, what="w")


@clause("optim.update-rules", ref="tf221")
@pytest.mark.parametrize("how", ["var_names", "var_list"])
def test_exclude_from_weight_decay_skips_those_variables(backend, how):
    """SGD(0.1, weight_decay=0.5) with `b` excluded (by a name pattern or by the variable): `w` decays
    (`w -= w * 0.5 * 0.1` before its step), `b` takes only its gradient step."""
    prog = Program(backend, """
w = tf.Variable(w0, name="kernel")
b = tf.Variable([1.0, -2.0], name="bias")
opt = tf.keras.optimizers.SGD(0.1, weight_decay=0.5)
if how == "var_names":
    opt.exclude_from_weight_decay(var_names=["bias"])
else:
    opt.exclude_from_weight_decay(var_list=[b])
opt.apply_gradients([(tf.constant(g0), w), (tf.constant([0.5, 0.25]), b)])
result = [w.numpy(), b.numpy()]
""", w0=W0, g0=GRADS[0], how=how)
    ns = prog.run()
    call = f"SGD(0.1, weight_decay=0.5).exclude_from_weight_decay({how}=[b]); one apply_gradients"
    w0 = W0.astype(np.float64)
    assert_close(ns["result"][0], w0 - w0 * 0.5 * 0.1 - 0.1 * GRADS[0], call=call, what="w (decayed)")
    assert_close(ns["result"][1], np.array([1.0, -2.0]) - 0.1 * np.array([0.5, 0.25]), call=call,
                 what="b (excluded: no decay)")


@clause("optim.update-rules", ref="tf221")
def test_optimizer_api(backend):
    prog = Program(backend, """
w = tf.Variable(w0, name="w")
b = tf.Variable([0.0, 1.0], name="b")
opt = tf.keras.optimizers.Adam(0.01, beta_1=0.8, clipnorm=1.0)
opt.build([w, b])
names = [v.name for v in opt.variables]
dtypes = [str(v.dtype) for v in opt.variables]
opt.apply([tf.constant(g0), tf.constant([1.0, 1.0])])      # without variables: the built ones, in order
config = opt.get_config()
clone = tf.keras.optimizers.Adam.from_config(config)
sgd_iterations = tf.keras.optimizers.SGD(0.1).apply_gradients([(tf.constant([1.0, 1.0]), b)])
""", w0=W0, g0=GRADS[0])
    ns = prog.run()
    call = "Adam(0.01, beta_1=0.8, clipnorm=1.0).build([w, b])"
    assert_equal(ns["names"], ["iteration", "learning_rate", "w_0_momentum", "w_0_velocity", "b_0_momentum",
                               "b_0_velocity"], call=call, what="[v.name for v in optimizer.variables]")
    assert_equal(ns["dtypes"], ["int64", "float32"] + ["float32"] * 4, call=call, what="optimizer variable dtypes")
    cfg = ns["config"]
    for key, want in (("beta_1", 0.8), ("clipnorm", 1.0), ("amsgrad", False), ("weight_decay", None)):
        assert_equal(cfg[key], want, call="get_config()", what=f"config[{key!r}]")
    assert_close(cfg["learning_rate"], 0.01, call="get_config()", what="config['learning_rate']")
    assert_equal(ns["clone"].beta_1, 0.8, call="Adam.from_config(config)", what="beta_1")
    assert_equal(int(ns["opt"].iterations.numpy()), 1, call="opt.apply(grads)", what="iterations")
    assert_equal(int(ns["sgd_iterations"].numpy()), 1, call="SGD.apply_gradients", what="the returned iterations")


@clause("optim.update-rules", ref="tf221")
def test_optimizer_argument_errors(backend, tf):
    with raises(ValueError, match="Only one of `clipnorm`, `clipvalue` and `global_clipnorm`",
                call="SGD(clipnorm=1.0, clipvalue=1.0)"):
        tf.keras.optimizers.SGD(0.1, clipnorm=1.0, clipvalue=1.0)
    with raises(ValueError, match="weight_decay", call="AdamW(weight_decay=None)"):
        tf.keras.optimizers.AdamW(0.1, weight_decay=None)
    with raises(ValueError, match="momentum", call="SGD(momentum=2.0)"):
        tf.keras.optimizers.SGD(0.1, momentum=2.0)
    with raises(ValueError, match="learning_rate", call="SGD(learning_rate=1)"):
        tf.keras.optimizers.SGD(1)
    w = tf.Variable([1.0, 2.0])
    other = tf.Variable([1.0])
    opt = tf.keras.optimizers.SGD(0.1)
    opt.apply_gradients([(tf.constant([1.0, 1.0]), w)])
    with raises(ValueError, match="Unknown variable", call="apply_gradients on a variable it was not built with"):
        opt.apply_gradients([(tf.constant([1.0]), other)])
    with raises(ValueError, match="No gradients provided", call="apply_gradients([(None, w)])"):
        opt.apply_gradients([(None, w)])


# -- optim.schedules ----------------------------------------------------------------------------------------
@clause("optim.schedules", ref="tf221")
def test_schedules_follow_iterations(backend):
    prog = Program(backend, """
S = tf.keras.optimizers.schedules
exp = S.ExponentialDecay(0.1, decay_steps=2, decay_rate=0.5)
stair = S.ExponentialDecay(0.1, decay_steps=2, decay_rate=0.5, staircase=True)
piece = S.PiecewiseConstantDecay([1, 3], [0.1, 0.05, 0.01])
values = [[float(s(tf.constant(k, tf.int64))) for k in range(5)] for s in (exp, stair, piece)]
w = tf.Variable([1.0])
opt = tf.keras.optimizers.SGD(piece)
lrs = []
for _ in range(5):
    lrs.append(float(opt.learning_rate))
    opt.apply_gradients([(tf.constant([1.0]), w)])
final = w.numpy()
config = tf.keras.optimizers.SGD(exp).get_config()["learning_rate"]
""")
    ns = prog.run()
    exp = [0.1 * 0.5 ** (k / 2) for k in range(5)]
    stair = [0.1 * 0.5 ** (k // 2) for k in range(5)]
    piece = [0.1, 0.1, 0.05, 0.05, 0.01]
    for got, want, what in zip(ns["values"], (exp, stair, piece), ("ExponentialDecay", "staircase", "Piecewise")):
        assert_close(np.array(got), np.array(want), call=f"{what}(step) for steps 0..4", what="learning rate")
    assert_close(np.array(ns["lrs"]), np.array(piece), call="SGD(PiecewiseConstantDecay).learning_rate per step",
                 what="learning_rate before each step")
    assert_close(ns["final"], np.array([1.0 - sum(piece)]), call="5 steps of SGD with the schedule", what="w")
    assert_equal(ns["config"]["class_name"], "ExponentialDecay", call="get_config() of a scheduled optimizer",
                 what="config['learning_rate']['class_name']")


# -- optim.mirrored-sum / optim.css-aggregation -----------------------------------------------------------------
SUM_STEP = """
strategy = backend.make_strategy(kind, n)
with strategy.scope():
    w = tf.Variable(w0)
    opt = tf.keras.optimizers.SGD(0.1, momentum=0.5)
x = strategy.experimental_distribute_values_from_function(lambda ctx: tf.constant(xs[ctx.replica_id_in_sync_group]))

def replica_step(x):
    with tf.GradientTape() as tape:
        # per-example loss sum(x_i * w), averaged over the global batch (tf.nn.compute_average_loss)
        loss = tf.reduce_sum(tf.matmul(x, w)) / global_batch
    grads = tape.gradient(loss, [w])
    opt.apply_gradients(zip(grads, [w]))

for _ in range(2):
    strategy.run(replica_step, args=(x,))
copies = [c.numpy() for c in strategy.experimental_local_results(w)]
momentum = opt.variables[-1]
slot_kind = type(momentum.value).__name__
slot_copies = [c.numpy() for c in strategy.experimental_local_results(momentum.value)]
slot_devices = [c.device for c in strategy.experimental_local_results(momentum.value)]
iterations = int(opt.iterations.numpy())
"""


def _sum_program(backend, kind: str, n: int) -> tuple[Program, np.ndarray]:
    xs = [np.full((2, 3), k + 1.0, dtype=np.float32) for k in range(n)]
    global_batch = 2 * n
    prog = Program(backend, SUM_STEP, kind=kind, n=n, w0=W0, xs=xs, global_batch=global_batch)
    # the gradient of the global-batch average: the sum of the replicas' gradients
    g = sum(np.tile(x.sum(axis=0)[:, None], (1, 2)) for x in xs) / global_batch
    return prog, reference("SGD", W0, [g, g], {"learning_rate": 0.1, "momentum": 0.5})


@clause("optim.mirrored-sum", ref="both")
@pytest.mark.parametrize("n", [2, 4])
def test_mirrored_sums_gradients_across_replicas(backend, n):
    prog, expected = _sum_program(backend, "mirrored", n)
    ns = prog.run()
    call = f"MirroredStrategy({n}): 2 steps of SGD(momentum) inside strategy.run"
    for i, c in enumerate(ns["copies"]):
        assert_close(c, expected, call=call, what=f"w copy {i}")
    assert_type_name(ns["momentum"].value, "MirroredVariable", call=call, what="the momentum slot")
    assert_equal(len(ns["slot_copies"]), n, call=call, what="copies of the momentum slot")
    assert_equal(ns["iterations"], 2, call=call, what="optimizer.iterations (once per step, not per replica)")


@clause("optim.css-aggregation", ref="both")
def test_central_storage_sums_and_updates_once(backend):
    prog, expected = _sum_program(backend, "central_storage", 2)
    ns = prog.run()
    call = "CentralStorageStrategy(2): 2 steps of SGD(momentum) inside strategy.run"
    assert_close(ns["copies"][0], expected, call=call, what="w")
    assert_type_name(ns["momentum"].value, "AggregatingVariable", call=call, what="the momentum slot")
    assert_true(all(device_matches(d, "/device:CPU:0") for d in ns["slot_devices"]),
                f"{call}: the slot is on {ns['slot_devices']}, but should be on the parameter device CPU:0", call=call)
    assert_equal(ns["iterations"], 2, call=call, what="optimizer.iterations")


@clause("optim.mirrored-sum", ref="tf221")
def test_cross_replica_apply_gradients_fails(backend):
    prog = Program(backend, """
strategy = backend.make_strategy("mirrored", 2)
with strategy.scope():
    w = tf.Variable([1.0, 2.0])
    opt = tf.keras.optimizers.SGD(0.1)
    opt.apply_gradients([(tf.constant([1.0, 1.0]), w)])
""")
    with raises(AttributeError, match="merge_call", call="apply_gradients in cross-replica context (scope, no run)"):
        prog.run()


# -- optim.sparse-updates / optim.sparse-all-reduce ------------------------------------------------------------
@clause("optim.sparse-updates", ref="tf221")
def test_sparse_gradients_update_rows(backend):
    prog = Program(backend, """
emb0 = np.arange(12, dtype=np.float32).reshape(6, 2)
results = {}
for name, make in (("sgd", lambda: tf.keras.optimizers.SGD(0.1)), ("adagrad", lambda: tf.keras.optimizers.Adagrad(0.1)),
                   ("adam", lambda: tf.keras.optimizers.Adam(0.1))):
    emb = tf.Variable(emb0)
    opt = make()
    with tf.GradientTape() as tape:
        loss = tf.reduce_sum(tf.gather(emb, tf.constant([1, 4, 1])) * tf.constant([[1.0], [2.0], [3.0]]))
    g = tape.gradient(loss, emb)
    opt.apply_gradients([(g, emb)])
    results[name] = (type(g).__name__, emb.numpy(), [v.numpy() for v in opt.variables[2:]])
""")
    ns = prog.run()
    emb0 = np.arange(12, dtype=np.float64).reshape(6, 2)
    rows = {1: [1.0, 3.0], 4: [2.0]}       # the gradient's rows, repeated row 1 twice
    kind, sgd, _ = ns["results"]["sgd"]
    assert_equal(kind, "IndexedSlices", call="tape.gradient of tf.gather on a variable", what="type(gradient)")
    want = emb0.copy()
    for r, vals in rows.items():
        want[r] -= 0.1 * sum(vals)
    assert_close(sgd, want, call="SGD on IndexedSlices", what="emb")
    _, ada, (acc,) = ns["results"]["adagrad"]
    want_acc = np.full((6, 2), 0.1)
    for r, vals in rows.items():
        want_acc[r] += sum(v * v for v in vals)   # each occurrence squared, then added (scatter_add)
    assert_close(acc, want_acc, call="Adagrad on IndexedSlices (repeated row 1)", what="accumulator")
    want = emb0.copy()
    for r, vals in rows.items():
        want[r] -= sum(0.1 * v / np.sqrt(want_acc[r] + 1e-7) for v in vals)
    assert_close(ada, want, call="Adagrad on IndexedSlices", what="emb (untouched rows unchanged)")
    _, adam, (m, v) = ns["results"]["adam"]
    dense, squares = np.zeros((6, 2)), np.zeros((6, 2))
    for r, vals in rows.items():
        dense[r] = sum(vals)
        squares[r] = sum(x * x for x in vals)   # square(g) squares the slices' values before g^2 - v densifies
    assert_close(m, 0.1 * dense, call="Adam on IndexedSlices (densified: g - m)", what="momentum")
    assert_close(v, 0.001 * squares, call="Adam on IndexedSlices (squared rows, then densified)", what="velocity")


@clause("optim.sparse-all-reduce", ref="tf221")
@pytest.mark.parametrize("kind", ["mirrored", "central_storage"])
def test_all_reduce_gathers_indexed_slices(backend, kind):
    prog = Program(backend, """
strategy = backend.make_strategy(kind, 2)

def fn():
    ctx = tf.distribute.get_replica_context()
    rid = ctx.replica_id_in_sync_group
    g = tf.IndexedSlices(tf.ones([2, 2]) * tf.cast(rid + 1, tf.float32), tf.constant([0, 3]) + rid,
                         tf.constant([5, 2]))
    return ctx.all_reduce(op, [g, tf.cast(rid, tf.float32) + 10.0])

out = strategy.experimental_local_results(strategy.run(fn))
slices = [o[0] for o in out]
dense = [o[1].numpy() for o in out]
""", kind=kind, op="SUM")
    for op, scale in (("SUM", 1.0), ("MEAN", 0.5)):
        prog.params["op"] = op
        ns = prog.run()
        call = f"{kind}(2): all_reduce({op}, [IndexedSlices, tensor])"
        for k, s in enumerate(ns["slices"]):
            assert_type_name(s, "IndexedSlices", call=call, what=f"replica {k}'s result")
            assert_equal(np.asarray(s.indices.numpy()), np.array([0, 3, 1, 4]), call=call, what="indices")
            assert_close(s.values.numpy(), scale * np.array([[1, 1], [1, 1], [2, 2], [2, 2]], dtype=np.float32),
                         call=call, what="values")
        assert_close(np.array(ns["dense"]), np.array([21.0, 21.0]) * scale, call=call, what="the dense leaf")


# -- optim.slot-placement ------------------------------------------------------------------------------------------
@clause("optim.slot-placement", ref="both")
@needs_cluster
def test_pss_slots_colocate_with_their_variables(backend):
    prog = Program(backend, """
cluster = backend.make_ps_cluster(workers=2, ps=2)
strategy = cluster.strategy
with strategy.scope():
    a = tf.Variable([1.0, 2.0], name="a")
    b = tf.Variable([3.0, 4.0], name="b")
    opt = tf.keras.optimizers.Adam(0.1)
    opt.build([a, b])
placed = {v.name: v.value.device for v in opt.variables}
var_devices = {"a": a.device, "b": b.device}
""")
    ns = prog.run()
    call = "Adam built in a ParameterServerStrategy scope"
    for var in ("a", "b"):
        for slot in ("momentum", "velocity"):
            got = ns["placed"][f"{var}_0_{slot}"]
            assert_true(got == ns["var_devices"][var], f"{call}: {var}'s {slot} is on {got}, but should be with {var} "
                        f"on {ns['var_devices'][var]}", call=call)


@clause("optim.slot-placement", ref="both")
@clause("optim.pss-updates", ref="both")
@needs_cluster
def test_pss_training_step_updates_ps_variables(backend):
    prog = Program(backend, """
cluster = backend.make_ps_cluster(workers=2, ps=2)
strategy = cluster.strategy
coordinator = cluster.coordinator
with strategy.scope():
    w = tf.Variable(w0, name="w")
    opt = tf.keras.optimizers.SGD(0.1, momentum=0.5)
    opt.build([w])

@tf.function
def step(g):
    def replica(g):
        with tf.GradientTape() as tape:
            loss = tf.reduce_sum(w * g)          # its gradient is g
        opt.apply_gradients([(tape.gradient(loss, w), w)])
    strategy.run(replica, args=(g,))

for g in grads:
    coordinator.schedule(step, args=(tf.constant(g),))
    coordinator.join()
result = w.numpy()
iterations = int(opt.iterations.numpy())
slot_device = opt.variables[-1].value.device
""", w0=W0, grads=GRADS)
    ns = prog.run()
    call = "3 scheduled SGD(momentum) steps, joined one at a time"
    assert_close(ns["result"], reference("SGD", W0, GRADS, {"learning_rate": 0.1, "momentum": 0.5}), call=call,
                 what="w")
    assert_equal(ns["iterations"], 3, call=call, what="optimizer.iterations")
    assert_true(ns["slot_device"] == ns["w"].device, f"{call}: the momentum is on {ns['slot_device']}, "
                f"but should be with w on {ns['w'].device}", call=call)


@clause("optim.pss-updates", ref="tf221")
@needs_cluster
def test_pss_apply_gradients_needs_strategy_run(backend):
    prog = Program(backend, """
cluster = backend.make_ps_cluster(workers=1, ps=1)
strategy = cluster.strategy
coordinator = cluster.coordinator
with strategy.scope():
    w = tf.Variable([1.0, 2.0])
    opt = tf.keras.optimizers.SGD(0.1)
    opt.build([w])

@tf.function
def step():
    opt.apply_gradients([(tf.constant([1.0, 1.0]), w)])

coordinator.schedule(step)
coordinator.join()
""")
    with raises(AttributeError, call="apply_gradients in a scheduled function without strategy.run"):
        prog.run()


# -- optim.build-in-function ----------------------------------------------------------------------------------------
@clause("optim.build-in-function", ref="tf221")
def test_slots_built_inside_tf_function_under_mirrored(backend):
    prog = Program(backend, """
strategy = backend.make_strategy("mirrored", 2)
with strategy.scope():
    w = tf.Variable([1.0, 2.0])
    opt = tf.keras.optimizers.Adam(0.1)

@tf.function
def step():
    strategy.run(lambda: opt.apply_gradients([(tf.constant([1.0, 1.0]), w)]))

step()
""")
    with raises(tf_errors(backend).InvalidArgumentError, match="You must feed a value for placeholder tensor",
                call="Adam's first apply_gradients inside tf.function under MirroredStrategy (no build())"):
        prog.run()


@clause("optim.build-in-function", ref="tf221")
def test_tf_function_step_after_build_sums(backend):
    prog = Program(backend, """
strategy = backend.make_strategy("mirrored", 2)
with strategy.scope():
    w = tf.Variable([1.0, 2.0])
    opt = tf.keras.optimizers.Adam(0.1)
    opt.build([w])

@tf.function
def step():
    strategy.run(lambda: opt.apply_gradients([(tf.constant([1.0, 1.0]), w)]))

step()
result = w.numpy()
m = opt.variables[2].numpy()
""")
    ns = prog.run()
    call = "Adam.build, then apply_gradients inside tf.function on 2 replicas"
    assert_close(ns["m"], np.array([0.2, 0.2]), call=call, what="momentum (the summed gradient 2.0 times 0.1)")
    assert_close(ns["result"], np.array([0.9, 1.9]), call=call, what="w")


def tf_errors(backend):
    return backend.tf.errors


# -- optim.clipping ------------------------------------------------------------------------------------------------
@clause("optim.clipping", ref="tf221")
def test_clipping_applies_to_each_replicas_gradients(backend):
    prog = Program(backend, """
strategy = backend.make_strategy("mirrored", 2)
with strategy.scope():
    w = tf.Variable([0.0, 0.0])
    opt = tf.keras.optimizers.SGD(1.0, clipnorm=1.0)

def step():
    rid = tf.cast(tf.distribute.get_replica_context().replica_id_in_sync_group, tf.float32)
    g = tf.stack([3.0 + rid, 4.0])       # norms 5 and about 5.66: each clipped to 1 first
    opt.apply_gradients([(g, w)])

strategy.run(step)
result = w.numpy()
""")
    ns = prog.run()
    g0, g1 = np.array([3.0, 4.0]), np.array([4.0, 4.0])
    expected = -(g0 / np.linalg.norm(g0) + g1 / np.linalg.norm(g1))
    assert_close(ns["result"], expected, call="SGD(1.0, clipnorm=1.0) on 2 replicas",
                 what="w (clipped per replica, then summed)")


@clause("optim.clipping", ref="tf221")
def test_clipping_of_indexed_slices(backend):
    prog = Program(backend, """
out = {}
for key, kw in (("clipnorm", {"clipnorm": 1.0}), ("global_clipnorm", {"global_clipnorm": 1.0}),
                ("clipvalue", {"clipvalue": 0.5})):
    emb = tf.Variable(np.zeros((4, 2), np.float32))
    opt = tf.keras.optimizers.SGD(1.0, **kw)
    with tf.GradientTape() as tape:
        loss = tf.reduce_sum(tf.gather(emb, tf.constant([1, 1, 3])) * 3.0)
    opt.apply_gradients([(tape.gradient(loss, emb), emb)])
    out[key] = emb.numpy()
""")
    ns = prog.run()
    norm = np.sqrt(3 * 9.0 * 2)   # over the slices' values: three rows of [3, 3]
    want = np.zeros((4, 2))
    want[1], want[3] = -2 * 3.0 / norm, -3.0 / norm
    assert_close(ns["out"]["clipnorm"], want, call="SGD(clipnorm=1) on IndexedSlices", what="emb")
    assert_close(ns["out"]["global_clipnorm"], want, call="SGD(global_clipnorm=1) on IndexedSlices", what="emb")
    want = np.zeros((4, 2))
    want[1], want[3] = -1.0, -0.5
    assert_close(ns["out"]["clipvalue"], want, call="SGD(clipvalue=0.5) on IndexedSlices", what="emb")


# -- optim.update (strategy.extended.update) ---------------------------------------------------------------------
@clause("optim.update", ref="tf221")
def test_extended_update_runs_on_each_copy(backend):
    prog = Program(backend, """
strategy = backend.make_strategy("mirrored", 2)
with strategy.scope():
    v = tf.Variable([1.0, 1.0])
    m = tf.Variable([0.0, 0.0])

def replica():
    rid = tf.cast(tf.distribute.get_replica_context().replica_id_in_sync_group, tf.float32)

    def merge(strategy, delta):
        def fn(var, d):
            m.assign_add(d)          # the copy of m being updated with var's copy
            return var.assign_sub(m)
        return strategy.extended.update(v, fn, args=(delta,), group=False)
    return tf.distribute.get_replica_context().merge_call(merge, args=(tf.stack([rid, 1.0]),))

strategy.run(replica)
v_copies = [c.numpy() for c in strategy.experimental_local_results(v)]
m_copies = [c.numpy() for c in strategy.experimental_local_results(m)]
""")
    ns = prog.run()
    call = "extended.update(v, fn, args=(PerReplica delta,)) in a merge_call on 2 replicas"
    for i, (vv, mm) in enumerate(zip(ns["v_copies"], ns["m_copies"])):
        d = np.array([float(i), 1.0])
        assert_close(mm, d, call=call, what=f"m copy {i} (updated only at copy {i})")
        assert_close(vv, np.array([1.0, 1.0]) - d, call=call, what=f"v copy {i}")


# -- optim.scatter (variable scatter methods) ----------------------------------------------------------------------
@clause("optim.sparse-updates", ref="tf221")
def test_variable_scatter_methods(backend, tf):
    v = tf.Variable(np.zeros((4, 2), np.float32))
    v.scatter_add(tf.IndexedSlices(tf.ones([3, 2]), tf.constant([0, 2, 0])))
    v.scatter_sub(tf.IndexedSlices(tf.ones([1, 2]), tf.constant([1])))
    v.scatter_update(tf.IndexedSlices(tf.constant([[5.0, 5.0], [7.0, 7.0]]), tf.constant([3, 3])))
    v.scatter_nd_add(tf.constant([[0, 1]]), tf.constant([10.0]))
    assert_equal(v.numpy(), np.array([[2, 12], [-1, -1], [1, 1], [7, 7]], dtype=np.float32),
                 call="scatter_add/sub/update/nd_add", what="v")
    with raises(tf.errors.InvalidArgumentError, match=r"indices\[0\] = 4 is not in \[0, 4\)",
                call="scatter_add at row 4 of 4"):
        v.scatter_add(tf.IndexedSlices(tf.ones([1, 2]), tf.constant([4])))
    with raises(TypeError, match="sparse_delta", call="scatter_add(dense tensor)"):
        v.scatter_add(tf.ones([4, 2]))


# -- pss.sharded-gather: lookups of a sharded embedding (the training model's first layer) ---------------------
@clause("pss.sharded-gather", ref="tf221")
@needs_cluster
def test_gather_and_lookup_on_a_sharded_embedding(backend):
    prog = Program(backend, """
P = tf.distribute.experimental.partitioners
cluster = backend.make_ps_cluster(workers=1, ps=2, variable_partitioner=P.FixedShardsPartitioner(2))
with cluster.strategy.scope():
    emb = tf.Variable(np.arange(40, dtype=np.float32).reshape(10, 4))
ids = tf.constant([7, 2, 9, 0, 5, 4])
gathered = tf.gather(emb, ids).numpy()[:, 0] / 4
looked_up = tf.nn.embedding_lookup(emb, ids).numpy()[:, 0] / 4
with tf.GradientTape() as tape:
    loss = tf.reduce_sum(tf.nn.embedding_lookup(emb, tf.constant([1, 3, 1])))
grads = tape.gradient(loss, emb.variables)
kinds = [type(g).__name__ for g in grads]
rows = [g.indices.numpy().tolist() for g in grads]
""")
    ns = prog.run()
    assert_equal(ns["gathered"], np.array([2, 0, 4, 7, 9, 5], dtype=np.float32),
                 call="tf.gather(sharded 10 rows in 2, [7, 2, 9, 0, 5, 4])", what="rows (shard 0's, then shard 1's)")
    assert_equal(ns["looked_up"], np.array([7, 2, 9, 0, 5, 4], dtype=np.float32),
                 call="tf.nn.embedding_lookup(sharded, [7, 2, 9, 0, 5, 4])", what="rows")
    assert_equal(ns["kinds"], ["IndexedSlices", "IndexedSlices"], call="tape.gradient(loss, emb.variables)",
                 what="gradient types")
    assert_equal(ns["rows"], [[1, 3, 1], []], call="tape.gradient(loss, emb.variables)",
                 what="each shard's gradient rows (local indices; none in shard 1)")


# -- function.trace-once -----------------------------------------------------------------------------------------
@clause("function.trace-once", ref="tf221")
def test_distributed_step_traces_once_per_input_signature(backend):
    prog = Program(backend, """
strategy = backend.make_strategy("mirrored", 2)
with strategy.scope():
    w = tf.Variable([1.0, 2.0, 3.0])
    opt = tf.keras.optimizers.SGD(0.5)
    opt.build([w])
traces = []

@tf.function
def step(x):
    traces.append(1)
    def replica_step(v):
        with tf.GradientTape() as tape:
            loss = tf.reduce_sum(v * w)
        opt.apply_gradients([(tape.gradient(loss, w), w)])
        return loss
    return strategy.reduce("SUM", strategy.run(replica_step, args=(x,)), axis=None)

data = np.ones((10, 3), dtype=np.float32)
ds = strategy.experimental_distribute_dataset(tf.data.Dataset.from_tensor_slices(data).batch(4))
losses = [float(step(x).numpy()) for x in ds]
result = w.numpy()
n_traces = len(traces)
""")
    ns = prog.run()
    call = "a Mirrored training step in tf.function over batches of 4, 4 and 2 rows on 2 replicas"
    assert_equal(ns["n_traces"], 2, call=call, what="Python runs of the body (one per batch shape)")
    # the loss is (rows in the batch) * sum(w); each step subtracts 0.5 * (rows in the batch) from every weight
    assert_close(ns["losses"], np.array([24.0, 0.0, -12.0]), call=call, what="losses")
    assert_close(ns["result"], np.array([-4.0, -3.0, -2.0]), call=call, what="w")


# -- function.trace-under-tape-and-in-run ------------------------------------------------------------------------
@clause("function.trace-under-tape-and-in-run", ref="tf221")
def test_function_traces_once_under_a_tape_and_once_per_replica_in_run(backend):
    prog = Program(backend, """
strategy = backend.make_strategy("mirrored", 2)
with strategy.scope():
    v = tf.Variable([0.5, -1.0])
traces = []

@tf.function
def g(x):
    traces.append(1)
    return x * v + 1.0

def step(x):
    with tf.GradientTape() as tape:
        y = tf.reduce_sum(g(x * 1.0))
    return tape.gradient(y, v)

run_grads = [[c.numpy().tolist() for c in strategy.experimental_local_results(
    strategy.run(step, args=(tf.constant([1.0, 3.0]),)))] for _ in range(3)]
in_run = len(traces)
traces.clear()
w = tf.Variable([2.0, -1.0])

@tf.function
def f(x):
    traces.append(1)
    h = x * w
    return tf.reduce_sum(h * h)

tape_grads = []
for k in range(3):
    with tf.GradientTape() as tape:
        y = f(tf.constant([1.0, 2.0]) * float(k + 1))
    tape_grads.append(tape.gradient(y, w).numpy().tolist())
f(tf.constant([1.0, 2.0]))
under_tape = len(traces)
""")
    ns = prog.run()
    call = "a tf.function called 3 times under the replica's tape in MirroredStrategy.run on 2 replicas"
    assert_equal(ns["in_run"], 2, call=call, what="Python runs of the body (one per replica)")
    # d/dv sum(x * v + 1) = x on each replica
    assert_close(np.array(ns["run_grads"]), np.array([[[1.0, 3.0]] * 2] * 3), call=call, what="gradients")
    call = "f(x) = sum((x * w)^2) called under a tape for x = k * [1, 2], k = 1, 2, 3, then without"
    assert_equal(ns["under_tape"], 1, call=call, what="Python runs of the body")
    # d/dw = 2 x^2 w = [4 k^2, -8 k^2] for w = [2, -1]
    assert_close(np.array(ns["tape_grads"]), np.array([[4.0 * k * k, -8.0 * k * k] for k in (1, 2, 3)]),
                 call=call, what="gradients")


# -- function.graph-rewrites -------------------------------------------------------------------------------------
@clause("function.graph-rewrites", ref="tf221")
def test_graph_updates_with_uniform_tensors_round_as_elementwise_arithmetic(backend):
    """A tf.function updating variables with `fill + scalar`-style tensors (what graph rewrites such
    as broadcast sinking may turn into scalar arithmetic) gives each element's IEEE result, bit for bit."""
    prog = Program(backend, """
k = tf.Variable(0.1)
w = tf.Variable(np.linspace(-1.0, 1.0, 64 * 64, dtype=np.float32).reshape(64, 64))
u = tf.Variable(tf.ones([64, 64]))
z = tf.Variable(tf.zeros([64, 64]))

@tf.function
def step():
    c = k.read_value()
    w.assign_add(tf.ones([64, 64]) * c + c * 3.0)
    u.assign_sub(tf.fill([64, 64], 1.0 / 3.0) / (c + 0.7) - c)
    z.assign(tf.maximum(tf.zeros([64, 64]) - c, tf.fill([64, 64], -0.5)))
    k.assign_add(0.2)

for _ in range(6):
    step()
result = {"w": w.numpy(), "u": u.numpy(), "z": z.numpy()}
""")
    ns = prog.run()
    f = np.float32
    k = f(0.1)
    w = np.linspace(-1.0, 1.0, 64 * 64, dtype=f).reshape(64, 64)
    u, z = np.ones((64, 64), f), np.zeros((64, 64), f)
    for _ in range(6):       # the same ops on whole float32 arrays, one IEEE rounding per element and op
        w = w + (np.ones((64, 64), f) * k + k * f(3.0))
        u = u - (np.full((64, 64), f(1.0 / 3.0)) / (k + f(0.7)) - k)
        z = np.maximum(np.zeros((64, 64), f) - k, np.full((64, 64), f(-0.5)))
        k = k + f(0.2)
    call = "6 calls of a tf.function whose updates are uniform tensors combined with a scalar read from a variable"
    for name, want in (("w", w), ("u", u), ("z", z)):
        got = np.asarray(ns["result"][name])
        assert_equal(got, want, call=call, what=name)
        assert_true(got.dtype == want.dtype and got.tobytes() == want.tobytes(),
                    f"{name}'s bits differ from the elementwise float32 result's (dtype {got.dtype})", call=call)
