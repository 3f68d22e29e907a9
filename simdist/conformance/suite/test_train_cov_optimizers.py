"""Every tf.keras optimizer × every option, a few steps against Keras 3.15's rule in NumPy —
clause optim.option-coverage (TF 2.21 + Keras 3.15).

The references below transcribe keras-team/keras (v3.15) in float64:
- keras/src/optimizers/base_optimizer.py: `BaseOptimizer.apply` (loss_scale_factor unscaling,
  then `_backend_apply_gradients`: gradient accumulation, `_clip_gradients`,
  `_apply_weight_decay`, the update step, then `_update_model_variables_moving_average` and the
  `ema_overwrite_frequency` overwrite; `iterations += 1` last), `_clip_by_norm`,
  `clip_by_global_norm`, `_get_current_learning_rate` (a schedule is called with `iterations`);
- keras/src/backend/tensorflow/optimizer.py: `TFOptimizer._apply_weight_decay`
  (`v -= v * wd * lr`, the current learning rate);
- keras/src/optimizers/{sgd,adam,adamw,adagrad,rmsprop}.py: each `update_step`.
Two variables (a matrix and a vector) so per-tensor and global clipping differ; the gradients are
large enough that every clip is active. Nothing expected here comes from the backend.
"""

from __future__ import annotations

import numpy as np
import pytest

from simdist.conformance.assertions import assert_close, assert_equal, raises
from simdist.conformance.repro import Program

clause = pytest.mark.clause

W0 = np.array([[0.5, -1.0], [2.0, 0.25], [-0.75, 1.5]], dtype=np.float32)
B0 = np.array([1.0, -2.0], dtype=np.float32)
GW = [np.array([[0.5, -0.25], [1.0, 2.0], [-1.5, 0.75]], dtype=np.float32),
      np.array([[-0.25, 0.5], [0.75, -1.0], [0.5, 0.25]], dtype=np.float32),
      np.array([[1.0, 1.0], [-0.5, 0.25], [0.25, -2.0]], dtype=np.float32),
      np.array([[0.125, -0.5], [0.25, 0.5], [-1.0, 0.75]], dtype=np.float32)]
GB = [np.array([1.5, -0.5], dtype=np.float32), np.array([-0.25, 2.0], dtype=np.float32),
      np.array([0.75, 0.5], dtype=np.float32), np.array([-1.0, 0.25], dtype=np.float32)]

BASE_LR = {"SGD": 0.1, "Adam": 0.05, "AdamW": 0.05, "Adagrad": 0.1, "RMSprop": 0.01}
# name -> that optimizer's own options, each alone (beyond its defaults)
OWN = {"SGD": [{}, {"momentum": 0.9}, {"momentum": 0.5, "nesterov": True}],
       "Adam": [{}, {"beta_1": 0.5}, {"beta_2": 0.5}, {"epsilon": 0.5}, {"amsgrad": True, "beta_2": 0.5}],
       "AdamW": [{}, {"weight_decay": 0.3}, {"amsgrad": True, "beta_2": 0.5}],
       "Adagrad": [{}, {"initial_accumulator_value": 1.0}, {"epsilon": 0.5}],
       "RMSprop": [{}, {"rho": 0.5}, {"momentum": 0.5}, {"centered": True, "rho": 0.8}, {"epsilon": 0.5},
                   {"centered": True, "momentum": 0.5}]}
# options of the base optimizer, applied to every optimizer
COMMON = [{"weight_decay": 0.2}, {"clipnorm": 1.0}, {"clipvalue": 0.6}, {"global_clipnorm": 1.5},
          {"loss_scale_factor": 4.0}, {"use_ema": True, "ema_momentum": 0.5},
          {"use_ema": True, "ema_momentum": 0.8, "ema_overwrite_frequency": 2},
          {"gradient_accumulation_steps": 2}, {"schedule": "exponential"}, {"schedule": "piecewise"},
          {"clipnorm": 1.0, "weight_decay": 0.1}]


def _schedule_lr(kind: str | None, base: float, step: int) -> float:
    """keras/src/optimizers/schedules/learning_rate_schedule.py: ExponentialDecay(base, 2, 0.5) and
    PiecewiseConstantDecay([1, 2], [base, base/2, base/4]) at `step` (= iterations)."""
    if kind is None:
        return base
    if kind == "exponential":
        return base * 0.5 ** (step / 2)
    return base if step <= 1 else base / 2 if step <= 2 else base / 4


def _update(name: str, kw: dict, lr: float, t: int, g: np.ndarray, w: np.ndarray, s: dict) -> np.ndarray:
    """One `update_step` of `name` (t = iterations + 1, Adam's local_step)."""
    if name == "SGD":
        mom = kw.get("momentum", 0.0)
        if not mom:
            return w - g * lr
        m = s.get("m", np.zeros_like(w)) * mom - g * lr
        s["m"] = m
        return w + (m * mom - g * lr if kw.get("nesterov") else m)
    if name in ("Adam", "AdamW"):
        b1, b2, eps = kw.get("beta_1", 0.9), kw.get("beta_2", 0.999), kw.get("epsilon", 1e-7)
        m = s.get("m", np.zeros_like(w))
        v = s.get("v", np.zeros_like(w))
        m = m + (g - m) * (1 - b1)
        v = v + (g * g - v) * (1 - b2)
        s["m"], s["v"] = m, v
        if kw.get("amsgrad"):
            v = np.maximum(s.get("vhat", np.zeros_like(w)), v)
            s["vhat"] = v
        alpha = lr * np.sqrt(1 - b2 ** t) / (1 - b1 ** t)
        return w - m * alpha / (np.sqrt(v) + eps)
    if name == "Adagrad":
        acc = s.get("acc", np.full_like(w, kw.get("initial_accumulator_value", 0.1))) + g * g
        s["acc"] = acc
        return w - lr * g / np.sqrt(acc + kw.get("epsilon", 1e-7))
    rho, eps, mom = kw.get("rho", 0.9), kw.get("epsilon", 1e-7), kw.get("momentum", 0.0)
    v = rho * s.get("v", np.zeros_like(w)) + (1 - rho) * g * g
    s["v"] = v
    if kw.get("centered"):
        a = rho * s.get("a", np.zeros_like(w)) + (1 - rho) * g
        s["a"] = a
        denom = v - a * a + eps
    else:
        denom = v + eps
    inc = lr * g / np.sqrt(denom)
    if mom > 0:
        s["mom"] = mom * s.get("mom", np.zeros_like(w)) + inc
        return w - s["mom"]
    return w - inc


def _clip(kw: dict, grads: list[np.ndarray]) -> list[np.ndarray]:
    if kw.get("clipnorm"):
        c = kw["clipnorm"]
        return [g * c / max(np.sqrt(np.sum(g * g)), c) for g in grads]
    if kw.get("global_clipnorm"):
        c = kw["global_clipnorm"]
        norm = np.sqrt(sum(np.sum(g * g) for g in grads))
        return [g * c * min(1.0 / norm, 1.0 / c) for g in grads]
    if kw.get("clipvalue"):
        c = kw["clipvalue"]
        return [np.clip(g, -c, c) for g in grads]
    return grads


def _replica_grads(it: int, replicas: int) -> list[list[np.ndarray]]:
    """Replica r's gradients at step `it`: those of step (it + r) % 4 (different directions)."""
    return [[GW[(it + r) % len(GW)].astype(np.float64), GB[(it + r) % len(GB)].astype(np.float64)]
            for r in range(replicas)]


def reference(name: str, kw: dict, steps: int, replicas: int = 1) -> dict[str, list[np.ndarray]]:
    """The variables after `steps` applies (and, with use_ema, the moving averages). With several
    replicas (MirroredStrategy, the TF backend's path): each replica's gradients are unscaled and
    clipped on that replica, then summed (optim.mirrored-sum), then decay and the update run once."""
    base = BASE_LR[name]
    wd = kw.get("weight_decay", 0.004 if name == "AdamW" else None)
    vs = [W0.astype(np.float64), B0.astype(np.float64)]
    slots: list[dict] = [{}, {}]
    acc = [np.zeros_like(v) for v in vs]
    avg = [np.zeros_like(v) for v in vs]
    accum = kw.get("gradient_accumulation_steps")
    for it in range(steps):                              # it = optimizer.iterations before this apply
        if replicas > 1:
            per = _replica_grads(it, replicas)
            if kw.get("loss_scale_factor"):
                per = [[g / kw["loss_scale_factor"] for g in gs] for gs in per]
            per = [_clip(kw, gs) for gs in per]
            grads = [sum(gs[i] for gs in per) for i in range(2)]
            clip_kw: dict = {}                                  # clipped per replica already
        else:
            grads = [GW[it].astype(np.float64), GB[it].astype(np.float64)]
            if kw.get("loss_scale_factor"):
                grads = [g / kw["loss_scale_factor"] for g in grads]
            clip_kw = kw
        lr = _schedule_lr(kw.get("schedule"), base, it)
        update = True
        if accum:
            update = (it + 1) % accum == 0
            if update:
                grads = [(g + a) / accum for g, a in zip(grads, acc)]
                acc = [np.zeros_like(v) for v in vs]
            else:
                acc = [a + g for a, g in zip(acc, grads)]
        if update:
            grads = _clip(clip_kw, grads)
            if wd is not None:
                vs = [v - v * wd * lr for v in vs]
            # Adam's local_step is `self.iterations + 1`, and with accumulation `iterations` is
            # `_iterations // gradient_accumulation_steps` (BaseOptimizer.iterations)
            t = (it // accum if accum else it) + 1
            vs = [_update(name, kw, lr, t, g, v, s) for g, v, s in zip(grads, vs, slots)]
        if kw.get("use_ema"):
            m = 0.0 if it == 0 else kw.get("ema_momentum", 0.99)
            avg = [m * a + (1 - m) * v for a, v in zip(avg, vs)]
            freq = kw.get("ema_overwrite_frequency")
            if freq and (it + 1) % freq == 0:
                vs = [a.copy() for a in avg]
    return {"variables": vs, "averages": avg}


CASES = [(n, kw) for n, own in OWN.items() for kw in own] + [(n, kw) for n in OWN for kw in COMMON]
STEPS = 4


def _id(name: str, kw: dict) -> str:
    return name + ("-" + "-".join(f"{k}={v}" for k, v in kw.items()) if kw else "-defaults")


@clause("optim.option-coverage", ref="tf221")
@pytest.mark.parametrize("name,kw", CASES, ids=[_id(n, k) for n, k in CASES])
def test_optimizer_option_steps(backend, name, kw):
    """`STEPS` apply_gradients on [w (3x2), b (2,)]; w, b and iterations after each, and with
    use_ema the averages `finalize_variable_values` writes."""
    args = {k: v for k, v in kw.items() if k != "schedule"}
    prog = Program(backend, """
S = tf.keras.optimizers.schedules
lr = {None: base_lr, "exponential": S.ExponentialDecay(base_lr, decay_steps=2, decay_rate=0.5),
      "piecewise": S.PiecewiseConstantDecay([1, 2], [base_lr, base_lr / 2, base_lr / 4])}[schedule]
w = tf.Variable(w0, name="w")
b = tf.Variable(b0, name="b")
opt = getattr(tf.keras.optimizers, name)(learning_rate=lr, **args)
trace = []
for gw, gb in zip(grads_w, grads_b):
    opt.apply_gradients([(tf.constant(gw), w), (tf.constant(gb), b)])
    trace.append([w.numpy(), b.numpy(), int(opt.iterations.numpy())])
if args.get("use_ema"):
    opt.finalize_variable_values([w, b])
final = [w.numpy(), b.numpy()]
""", name=name, args=args, base_lr=BASE_LR[name], schedule=kw.get("schedule"), w0=W0, b0=B0,
        grads_w=GW[:STEPS], grads_b=GB[:STEPS])
    ns = prog.run()
    call = f"tf.keras.optimizers.{name}(learning_rate={kw.get('schedule') or BASE_LR[name]}, {args})"
    for k in range(1, STEPS + 1):
        ref = reference(name, kw, k)
        got_w, got_b, iters = ns["trace"][k - 1]
        assert_close(got_w, ref["variables"][0], call=call, what=f"w after {k} apply_gradients")
        assert_close(got_b, ref["variables"][1], call=call, what=f"b after {k} apply_gradients")
        accum = kw.get("gradient_accumulation_steps")
        assert_equal(iters, k // accum if accum else k, call=call,
                     what=f"optimizer.iterations after {k} apply_gradients")
    if kw.get("use_ema"):
        ref = reference(name, kw, STEPS)
        assert_close(ns["final"][0], ref["averages"][0], call=call + "; finalize_variable_values([w, b])",
                     what="w (its moving average)")
        assert_close(ns["final"][1], ref["averages"][1], call=call + "; finalize_variable_values([w, b])",
                     what="b (its moving average)")


@clause("optim.option-coverage", ref="tf221")
def test_base_option_argument_errors(backend, tf):
    """Keras 3.15's BaseOptimizer.__init__ checks: accumulation steps >= 2, ema_momentum in [0, 1],
    ema_overwrite_frequency an integer >= 1 or None."""
    for kw, match in (({"gradient_accumulation_steps": 1}, "`gradient_accumulation_steps` must be an integer >= 2"),
                      ({"use_ema": True, "ema_momentum": 1.5}, "`ema_momentum` must be in the range"),
                      ({"use_ema": True, "ema_overwrite_frequency": 0.5},
                       "`ema_overwrite_frequency` must be an integer >= 1 or None")):
        with raises(ValueError, match=match, call=f"SGD(0.1, **{kw})"):
            tf.keras.optimizers.SGD(0.1, **kw)


FX = np.linspace(-1.0, 1.0, 20, dtype=np.float32).reshape(10, 2)
FY = (FX @ np.array([[1.5], [-0.5]], dtype=np.float32) + 0.25).astype(np.float32)


def _fit_reference(kw: dict, epochs: int, batch: int) -> list[np.ndarray]:
    """A Dense(1) (zeros) trained by fit(shuffle=False) with SGD(0.1, **kw) on MSE: [kernel, bias]
    after fit (which ends with finalize_variable_values: the averages under use_ema)."""
    vs = [np.zeros((2, 1)), np.zeros(1)]
    acc = [np.zeros_like(v) for v in vs]
    avg = [np.zeros_like(v) for v in vs]
    accum = kw.get("gradient_accumulation_steps")
    it = 0
    for _ in range(epochs):
        for s in range(0, len(FX), batch):
            x, y = FX[s:s + batch].astype(np.float64), FY[s:s + batch].astype(np.float64)
            err = x @ vs[0] + vs[1] - y
            grads = [2 * x.T @ err / err.size, 2 * np.sum(err, axis=0) / err.size]
            update = True
            if accum:
                update = (it + 1) % accum == 0
                if update:
                    grads = [(g + a) / accum for g, a in zip(grads, acc)]
                    acc = [np.zeros_like(v) for v in vs]
                else:
                    acc = [a + g for a, g in zip(acc, grads)]
            if update:
                vs = [v - 0.1 * g for v, g in zip(vs, grads)]
            if kw.get("use_ema"):
                m = 0.0 if it == 0 else kw["ema_momentum"]
                avg = [m * a + (1 - m) * v for a, v in zip(avg, vs)]
            it += 1
    return avg if kw.get("use_ema") else vs


FIT_CASES = [{"use_ema": True, "ema_momentum": 0.5}, {"gradient_accumulation_steps": 2},
             {"gradient_accumulation_steps": 3}]


@clause("optim.option-coverage", ref="tf221")
@pytest.mark.parametrize("kw", FIT_CASES, ids=[_id("SGD", k) for k in FIT_CASES])
def test_fit_with_ema_or_accumulation(backend, kw):
    """model.fit (a traced train step, replayed) with SGD(0.1, **kw), batch_size=2 over 10 samples,
    2 epochs: the weights after fit (EMA: the averages fit's end writes into the model)."""
    ns = Program(backend, """
model = tf.keras.Sequential([tf.keras.Input((2,)), tf.keras.layers.Dense(1, kernel_initializer="zeros")])
model.compile(optimizer=tf.keras.optimizers.SGD(0.1, **kw), loss="mse")
model.fit(x, y, batch_size=2, epochs=2, shuffle=False, verbose=0)
result = [v.numpy() for v in model.weights]
iterations = int(np.asarray(model.optimizer.iterations))
""", kw=kw, x=FX, y=FY).run()
    ref = _fit_reference(kw, 2, 2)
    call = f"model.fit(x, y, batch_size=2, epochs=2, shuffle=False) with SGD(0.1, {kw})"
    assert_close(ns["result"][0], ref[0], call=call, what="kernel after fit")
    assert_close(ns["result"][1], ref[1], call=call, what="bias after fit")
    accum = kw.get("gradient_accumulation_steps")
    assert_equal(ns["iterations"], 10 // accum if accum else 10, call=call, what="optimizer.iterations after fit")


MIRRORED = [("SGD", {"momentum": 0.9}), ("SGD", {"clipnorm": 1.0}), ("SGD", {"clipvalue": 0.6}),
            ("SGD", {"global_clipnorm": 1.5}), ("Adam", {"weight_decay": 0.2}), ("Adam", {"clipnorm": 1.0}),
            ("Adam", {"loss_scale_factor": 4.0}), ("RMSprop", {"centered": True, "global_clipnorm": 1.5}),
            ("Adagrad", {"schedule": "piecewise"})]


@clause("optim.option-coverage", ref="tf221")
@pytest.mark.parametrize("name,kw", MIRRORED, ids=[_id(n, k) for n, k in MIRRORED])
def test_optimizer_options_under_mirrored(backend, name, kw):
    """MirroredStrategy(2), `apply_gradients` inside strategy.run with different gradients per
    replica, 3 steps: clipping and unscaling happen per replica before the SUM all-reduce, weight
    decay and the update once per step on every copy."""
    args = {k: v for k, v in kw.items() if k != "schedule"}
    steps = 3
    prog = Program(backend, """
S = tf.keras.optimizers.schedules
strategy = backend.make_strategy("mirrored", 2)
with strategy.scope():
    lr = {None: base_lr, "piecewise": S.PiecewiseConstantDecay([1, 2], [base_lr, base_lr / 2, base_lr / 4])}[schedule]
    w = tf.Variable(w0, name="w")
    b = tf.Variable(b0, name="b")
    opt = getattr(tf.keras.optimizers, name)(learning_rate=lr, **args)
    opt.build([w, b])
def step(gw, gb):
    opt.apply_gradients([(gw, w), (gb, b)])
trace = []
for k in range(steps):
    gw = strategy.experimental_distribute_values_from_function(lambda ctx: tf.constant(grads_w[k][ctx.replica_id_in_sync_group]))
    gb = strategy.experimental_distribute_values_from_function(lambda ctx: tf.constant(grads_b[k][ctx.replica_id_in_sync_group]))
    strategy.run(step, args=(gw, gb))
    trace.append([[c.numpy() for c in strategy.experimental_local_results(w)],
                  [c.numpy() for c in strategy.experimental_local_results(b)], int(opt.iterations.numpy())])
""", name=name, args=args, base_lr=BASE_LR[name], schedule=kw.get("schedule"), w0=W0, b0=B0, steps=steps,
        grads_w=[[g[0].astype(np.float32) for g in _replica_grads(k, 2)] for k in range(steps)],
        grads_b=[[g[1].astype(np.float32) for g in _replica_grads(k, 2)] for k in range(steps)])
    ns = prog.run()
    call = f"MirroredStrategy(2): tf.keras.optimizers.{name}(learning_rate={kw.get('schedule') or BASE_LR[name]}, {args})"
    for k in range(1, steps + 1):
        ref = reference(name, kw, k, replicas=2)
        ws, bs, iters = ns["trace"][k - 1]
        for r in range(2):
            assert_close(ws[r], ref["variables"][0], call=call, what=f"replica {r}'s copy of w after {k} steps")
            assert_close(bs[r], ref["variables"][1], call=call, what=f"replica {r}'s copy of b after {k} steps")
        assert_equal(iters, k, call=call, what=f"optimizer.iterations after {k} steps")
