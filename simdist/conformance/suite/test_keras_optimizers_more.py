"""The tf.keras optimizers, schedules and constraints beyond SGD/Adam/AdamW/Adagrad/RMSprop and
Exponential/PiecewiseConstant decay: Nadam, Adamax, Adadelta, Ftrl, Lion, Lamb, Adafactor,
ScheduleFreeAdamW, Muon; PolynomialDecay, InverseTimeDecay, CosineDecay (warmup), CosineDecayRestarts;
keras.constraints (TF 2.21 + Keras 3.15). Clauses optim.update-rules, optim.schedules,
keras.constraints.

The references are NumPy transcriptions, in float64, of keras-team/keras v3.15:
keras/src/optimizers/{nadam,adamax,adadelta,ftrl,lion,lamb,adafactor,schedule_free_adamw,muon}.py
(`update_step`, Nadam's `_backend_update_step`), base_optimizer.py (weight decay
`var -= var * wd * lr` before the step; `iterations + 1` as the step count),
schedules/learning_rate_schedule.py and constraints/constraints.py. Nothing expected here comes
from a backend.
"""

from __future__ import annotations

import math
import re

import numpy as np
import pytest

from simdist.conformance.assertions import assert_close, assert_equal, assert_true, raises
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
STEPS = 4

LR = {"Nadam": 0.05, "Adamax": 0.05, "Adadelta": 1.0, "Ftrl": 0.1, "Lion": 0.01, "Lamb": 0.05, "Adafactor": 0.8,
      "ScheduleFreeAdamW": 0.05}
# name -> (option sets, each alone beyond the defaults; the slot names Keras gives, in order)
OWN = {"Nadam": ([{}, {"beta_1": 0.5}, {"beta_2": 0.5, "epsilon": 0.1}, {"weight_decay": 0.2}],
                 ["momentum", "velocity"]),
       "Adamax": ([{}, {"beta_1": 0.5}, {"beta_2": 0.5}, {"epsilon": 0.5}, {"weight_decay": 0.2}],
                  ["momentum", "norm"]),
       "Adadelta": ([{}, {"rho": 0.5}, {"epsilon": 0.01}, {"weight_decay": 0.2}],
                    ["accumulated_grad", "accumulated_delta_var"]),
       "Ftrl": ([{}, {"learning_rate_power": -0.25}, {"initial_accumulator_value": 0.5},
                 {"l1_regularization_strength": 0.05}, {"l2_regularization_strength": 0.1},
                 {"l2_shrinkage_regularization_strength": 0.1}, {"beta": 0.5}, {"weight_decay": 0.2}],
                ["accumulator", "linear"]),
       "Lion": ([{}, {"beta_1": 0.5}, {"beta_2": 0.5}, {"weight_decay": 0.2}], ["momentum"]),
       "Lamb": ([{}, {"beta_1": 0.5}, {"beta_2": 0.5}, {"epsilon": 0.5}, {"weight_decay": 0.2}],
                ["momentum", "velocity"]),
       # (Adafactor's own variables are listed by _adafactor_variables)
       "Adafactor": ([{}, {"relative_step": False}, {"clip_threshold": 0.5}, {"epsilon_2": 0.1},
                      {"beta_2_decay": -0.5}, {"epsilon_1": 1e-3}, {"weight_decay": 0.2}], []),
       "ScheduleFreeAdamW": ([{}, {"warmup_steps": 3}, {"beta_1": 0.5}, {"beta_2": 0.5}, {"epsilon": 0.1},
                              {"weight_decay": 0.2}], ["momentum", "velocity"])}
DEFAULTS = {"Nadam": {"beta_1": 0.9, "beta_2": 0.999, "epsilon": 1e-7},
            "Adamax": {"beta_1": 0.9, "beta_2": 0.999, "epsilon": 1e-7},
            "Adadelta": {"rho": 0.95, "epsilon": 1e-7},
            "Ftrl": {"learning_rate_power": -0.5, "initial_accumulator_value": 0.1, "l1_regularization_strength": 0.0,
                     "l2_regularization_strength": 0.0, "l2_shrinkage_regularization_strength": 0.0, "beta": 0.0},
            "Lion": {"beta_1": 0.9, "beta_2": 0.99},
            "Lamb": {"beta_1": 0.9, "beta_2": 0.999, "epsilon": 1e-7},
            "Adafactor": {"beta_2_decay": -0.8, "epsilon_1": 1e-30, "epsilon_2": 1e-3, "clip_threshold": 1.0,
                          "relative_step": True},
            "ScheduleFreeAdamW": {"beta_1": 0.9, "beta_2": 0.999, "epsilon": 1e-8, "warmup_steps": 0}}


def _update(name: str, o: dict, lr: float, t: int, g: np.ndarray, w: np.ndarray, s: dict,
            shared: dict) -> np.ndarray:
    """One `update_step` of `name` on w (t = iterations + 1); s: this variable's slots (updated),
    shared: Nadam's u_product (already advanced for this apply)."""
    z = np.zeros_like(w)
    if name == "Nadam":
        b1, b2, eps = o["beta_1"], o["beta_2"], o["epsilon"]
        u_t, u_t1 = b1 * (1 - 0.5 * 0.96 ** t), b1 * (1 - 0.5 * 0.96 ** (t + 1))
        up = shared["u_product"]
        m = s.get("momentum", z) + (g - s.get("momentum", z)) * (1 - b1)
        v = s.get("velocity", z) + (g * g - s.get("velocity", z)) * (1 - b2)
        s["momentum"], s["velocity"] = m, v
        m_hat = u_t1 * m / (1 - up * u_t1) + (1 - u_t) * g / (1 - up)
        v_hat = v / (1 - b2 ** t)
        return w - m_hat * lr / (np.sqrt(v_hat) + eps)
    if name == "Adamax":
        b1, b2, eps = o["beta_1"], o["beta_2"], o["epsilon"]
        m = s.get("momentum", z) + (g - s.get("momentum", z)) * (1 - b1)
        u = np.maximum(b2 * s.get("norm", z), np.abs(g))
        s["momentum"], s["norm"] = m, u
        return w - lr * m / ((1 - b1 ** t) * (u + eps))
    if name == "Adadelta":
        rho, eps = o["rho"], o["epsilon"]
        acc_g = rho * s.get("accumulated_grad", z) + (1 - rho) * g * g
        acc_d = s.get("accumulated_delta_var", z)
        delta = -np.sqrt(acc_d + eps) * g / np.sqrt(acc_g + eps)
        s["accumulated_grad"], s["accumulated_delta_var"] = acc_g, rho * acc_d + (1 - rho) * delta * delta
        return w + lr * delta
    if name == "Ftrl":
        p = o["learning_rate_power"]
        n = s.get("accumulator", np.full_like(w, o["initial_accumulator_value"]))
        lin = s.get("linear", z)
        l1 = o["l1_regularization_strength"]
        l2 = o["l2_regularization_strength"] + o["beta"] / (2.0 * lr)
        g_use = g + 2 * o["l2_shrinkage_regularization_strength"] * w
        n_new = n + g * g
        lin = lin + g_use - (n_new ** -p - n ** -p) / lr * w
        quadratic = n_new ** -p / lr + 2 * l2
        s["accumulator"], s["linear"] = n_new, lin
        return (np.clip(lin, -l1, l1) - lin) / quadratic
    if name == "Lion":
        b1, b2 = o["beta_1"], o["beta_2"]
        m = s.get("momentum", z)
        direction = m * b1 + g * (1 - b1)
        assert np.all(np.abs(direction) > 1e-4), "Lion reference: a sign argument too close to 0 for float32"
        s["momentum"] = m * b2 + g * (1 - b2)
        return w - lr * np.sign(direction)
    if name == "Adafactor":
        return _adafactor(o, lr, t, g, w, s)
    if name == "ScheduleFreeAdamW":
        return _schedule_free(o, lr, t, g, w, s)
    b1, b2, eps = o["beta_1"], o["beta_2"], o["epsilon"]            # Lamb
    m = s.get("momentum", z) + (g - s.get("momentum", z)) * (1 - b1)
    v = s.get("velocity", z) + (g * g - s.get("velocity", z)) * (1 - b2)
    s["momentum"], s["velocity"] = m, v
    update = (m / (1 - b1 ** t)) / (np.sqrt(v / (1 - b2 ** t)) + eps)
    w_norm, g_norm = np.sqrt(np.sum(w * w)), np.sqrt(np.sum(update * update))
    ratio = w_norm / g_norm if w_norm > 0 and g_norm > 0 else 1.0
    return w - ratio * lr * update


def _rms(x: np.ndarray) -> float:
    return float(np.sqrt(np.mean(x * x)))


def _adafactor(o: dict, lr: float, t: int, g: np.ndarray, w: np.ndarray, s: dict) -> np.ndarray:
    """Adafactor's step: r, c (rank >= 2) or v directly, then the clipped, scaled update. The
    learning rate is a float, so `relative_step`'s min(lr, 1/sqrt(t)) changes nothing that
    rho = min(lr, 1/sqrt(t)) does not already do."""
    if o["relative_step"]:
        lr = min(lr, 1 / math.sqrt(t))
    rho = min(lr, 1 / math.sqrt(t))
    alpha = max(o["epsilon_2"], _rms(w)) * rho
    big_g = g * g + o["epsilon_1"]
    beta_2 = 1 - t ** o["beta_2_decay"]
    if w.ndim >= 2:
        s["r"] = beta_2 * s.get("r", np.zeros(w.shape[:-1])) + (1 - beta_2) * big_g.mean(axis=-1)
        s["c"] = beta_2 * s.get("c", np.zeros(w.shape[:-2] + w.shape[-1:])) + (1 - beta_2) * big_g.mean(axis=-2)
        s["velocity"] = (s["r"] / s["r"].mean(axis=-1, keepdims=True))[..., None] * s["c"][..., None, :]
    else:
        s["velocity"] = beta_2 * s.get("velocity", np.zeros_like(w)) + (1 - beta_2) * big_g
    u = g / np.sqrt(s["velocity"])
    return w - alpha * u / max(1.0, _rms(u) / o["clip_threshold"])


def _schedule_free(o: dict, lr: float, t: int, g: np.ndarray, y: np.ndarray, s: dict) -> np.ndarray:
    """ScheduleFreeAdamW's step; s["momentum"] (z) starts as the variable's value at build. Keras
    reads `momentum.value` for z_old, the variable itself, after z's update: so z_old is the new z."""
    b1, b2, eps = o["beta_1"], o["beta_2"], o["epsilon"]
    if o["warmup_steps"] > 0:
        lr = lr * min(t / o["warmup_steps"], 1.0)
    s["velocity"] = s.get("velocity", np.zeros_like(y)) + (g * g - s.get("velocity", np.zeros_like(y))) * (1 - b2)
    s["momentum"] = s["momentum"] - lr * g / (np.sqrt(s["velocity"] / (1 - b2 ** t)) + eps)
    z = s["momentum"]
    x_old = (y - (1 - b1) * z) / b1
    x_new = (1 - 1 / t) * x_old + z / t
    return (1 - b1) * z + b1 * x_new


def _adafactor_variables(prefix: str, slots: list[dict]) -> list[tuple[str, object]]:
    """Adafactor's variables after iteration and learning_rate: per model variable r and c named
    after it (int32 zero placeholders for w's rank < 2), then its velocity slot."""
    out: list[tuple[str, object]] = []
    for var_name, s in zip(("w", "b"), slots):
        if "r" in s:
            out += [(f"{prefix}/{var_name}:0", s["r"]), (f"{prefix}/{var_name}:0", s["c"])]
        else:
            out += [(f"{prefix}/{var_name}:0", 0), (f"{prefix}/{var_name}:0", 0)]
        out.append(("velocity", s["velocity"]))
    return out


def reference(name: str, kw: dict, grads: list[list[np.ndarray]]) -> tuple[list, list, dict]:
    """[w, b] after each apply of `grads` (one [gw, gb] per step), the slots and Nadam's u_product."""
    o = dict(DEFAULTS[name], **kw)
    lr, wd = LR[name], kw.get("weight_decay")
    vs = [W0.astype(np.float64), B0.astype(np.float64)]
    slots: list[dict] = [{}, {}]
    if name == "ScheduleFreeAdamW":        # its momentum starts as a copy of the variable (build)
        slots = [{"momentum": v.copy()} for v in vs]
    shared = {"u_product": 1.0}
    trace = []
    for it, gs in enumerate(grads):
        t = it + 1
        if name == "Nadam":
            shared["u_product"] *= o["beta_1"] * (1 - 0.5 * 0.96 ** t)
        if wd is not None:
            vs = [v - v * wd * lr for v in vs]
        vs = [_update(name, o, lr, t, g.astype(np.float64), v, s, shared) for g, v, s in zip(gs, vs, slots)]
        trace.append(vs)
    return trace, slots, shared


def _id(name: str, kw: dict) -> str:
    return name + ("-" + "-".join(f"{k}={v}" for k, v in kw.items()) if kw else "-defaults")


CASES = [(n, kw) for n, (opts, _) in OWN.items() for kw in opts]

_STEPS_PROGRAM = """
w = tf.Variable(w0, name="w")
b = tf.Variable(b0, name="b")
opt = getattr(tf.keras.optimizers, name)(learning_rate=lr, **kw)
trace = []
for gw, gb in zip(grads_w, grads_b):
    opt.apply_gradients([(tf.constant(gw), w), (tf.constant(gb), b)])
    trace.append([w.numpy(), b.numpy(), int(opt.iterations.numpy())])
slots = [(v.path, np.asarray(v.numpy())) for v in opt.variables]
config = opt.get_config()
again = type(opt).from_config(config).get_config()
"""


@clause("optim.update-rules", ref="tf221")
@pytest.mark.parametrize("name,kw", CASES, ids=[_id(n, k) for n, k in CASES])
def test_optimizers_more_steps_slots_and_config(backend, name, kw):
    """`STEPS` apply_gradients on [w (3x2), b (2,)]: w, b and iterations after each; then every
    optimizer variable (path and value: iteration, learning_rate, the slots interleaved per model
    variable, Nadam's u_product last) and a get_config/from_config round trip."""
    ns = Program(backend, _STEPS_PROGRAM, name=name, kw=kw, lr=LR[name], w0=W0, b0=B0,
                 grads_w=GW[:STEPS], grads_b=GB[:STEPS]).run()
    call = f"tf.keras.optimizers.{name}(learning_rate={LR[name]}, **{kw})"
    trace, slots, shared = reference(name, kw, [[GW[k], GB[k]] for k in range(STEPS)])
    for k in range(STEPS):
        got_w, got_b, iters = ns["trace"][k]
        assert_close(got_w, trace[k][0], call=call, what=f"w after {k + 1} apply_gradients")
        assert_close(got_b, trace[k][1], call=call, what=f"b after {k + 1} apply_gradients")
        assert_equal(iters, k + 1, call=call, what=f"optimizer.iterations after {k + 1} apply_gradients")
    slot_names = OWN[name][1]
    prefix = ns["slots"][0][0].split("/")[0]
    want = [(f"{prefix}/iteration", STEPS), (f"{prefix}/learning_rate", LR[name])]
    if name == "Adafactor":
        want += _adafactor_variables(prefix, slots)
    for var_slots in slots if name != "Adafactor" else []:
        want += [(n, var_slots[n]) for n in slot_names]
    if name == "Nadam":
        want.append(("u_product", shared["u_product"]))
    got = ns["slots"]
    assert_equal(len(got), len(want), call=call, what=f"len(optimizer.variables) ({[p for p, _ in got]})")
    for (path, value), (want_name, want_value) in zip(got, want):
        if want_name == "u_product":   # an auto-named backend.Variable: "variable", "variable_1", ...
            assert_true(path.startswith(f"{prefix}/variable"), f"Nadam's u_product variable path={path!r}, but "
                        f"should be '{prefix}/variable' (or '_<n>' after it)", call=call)
        elif "/" in want_name:
            assert_equal(path, want_name, call=call, what="optimizer variable path")
        else:
            assert_true(path.endswith("_" + want_name), f"optimizer variable path {path!r}, but should end with "
                        f"'_{want_name}' (Keras's add_variable_from_reference name)", call=call)
        assert_close(value, want_value, call=call, what=f"{path} after {STEPS} applies")
    config, again = ns["config"], ns["again"]
    for key, value in dict(DEFAULTS[name], **{k: v for k, v in kw.items()}).items():
        assert_true(key in config and np.isclose(config[key], value, rtol=1e-6, atol=0.0),
                    f"get_config()[{key!r}]={config.get(key)!r}, but should be {value!r}", call=call)
    assert_true(np.isclose(config["learning_rate"], LR[name], rtol=1e-6),
                f"get_config()['learning_rate']={config['learning_rate']!r}, but should be {LR[name]!r}", call=call)
    assert_equal(again, config, call=call, what="from_config(get_config()).get_config()")


MIRRORED = [("Nadam", {}), ("Adamax", {"weight_decay": 0.2}), ("Adadelta", {}), ("Ftrl", {"beta": 0.5}),
            ("Lion", {}), ("Lamb", {}), ("Adafactor", {}), ("ScheduleFreeAdamW", {"warmup_steps": 2})]


def _replica_grads(k: int, r: int) -> list[np.ndarray]:
    """Replica r's gradients at step k: those of step (k + r) % 4."""
    return [GW[(k + r) % len(GW)], GB[(k + r) % len(GB)]]


@clause("optim.update-rules", ref="tf221")
@pytest.mark.parametrize("name,kw", MIRRORED, ids=[_id(n, k) for n, k in MIRRORED])
def test_optimizers_more_under_mirrored(backend, name, kw):
    """MirroredStrategy(2), apply_gradients inside strategy.run with different gradients per
    replica, 3 steps: every copy of w and b follows the rule on the replicas' summed gradients."""
    steps = 3
    ns = Program(backend, """
strategy = backend.make_strategy("mirrored", 2)
with strategy.scope():
    w = tf.Variable(w0, name="w")
    b = tf.Variable(b0, name="b")
    opt = getattr(tf.keras.optimizers, name)(learning_rate=lr, **kw)
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
""", name=name, kw=kw, lr=LR[name], w0=W0, b0=B0, steps=steps,
        grads_w=[[_replica_grads(k, r)[0] for r in range(2)] for k in range(steps)],
        grads_b=[[_replica_grads(k, r)[1] for r in range(2)] for k in range(steps)]).run()
    summed = [[sum(_replica_grads(k, r)[i].astype(np.float64) for r in range(2)) for i in range(2)]
              for k in range(steps)]
    trace, _, _ = reference(name, kw, summed)
    call = f"MirroredStrategy(2): tf.keras.optimizers.{name}(learning_rate={LR[name]}, **{kw})"
    for k in range(steps):
        ws, bs, iters = ns["trace"][k]
        for r in range(2):
            assert_close(ws[r], trace[k][0], call=call, what=f"replica {r}'s copy of w after {k + 1} steps")
            assert_close(bs[r], trace[k][1], call=call, what=f"replica {r}'s copy of b after {k + 1} steps")
        assert_equal(iters, k + 1, call=call, what=f"optimizer.iterations after {k + 1} steps")


FIT_X = np.linspace(-1.0, 1.0, 24, dtype=np.float32).reshape(8, 3)
FIT_Y = (FIT_X @ np.array([[1.5], [-0.5], [2.0]], dtype=np.float32) + 0.25).astype(np.float32)
FIT = [(n, {}) for n in OWN]


def _fit_reference(name: str, kw: dict, epochs: int, batch: int, built_eagerly: bool) -> list[np.ndarray]:
    """Dense(1, kernel ones, bias zeros) trained by fit(shuffle=False) on MSE with `name`: each
    step the mean-squared-error gradients of the batch, then the optimizer's rule. ScheduleFreeAdamW's
    momentum starts as the weights when the optimizer was built eagerly (fit under a strategy builds
    it before the first step), else at zeros: fit without a strategy builds it inside the traced
    step, and TF drops that first, variable-creating trace's ops (Keras's build copies the weights
    there)."""
    o = dict(DEFAULTS[name], **kw)
    vs = [np.ones((3, 1)), np.zeros(1)]
    slots: list[dict] = [{}, {}]
    if name == "ScheduleFreeAdamW":
        slots = [{"momentum": v.copy() if built_eagerly else np.zeros_like(v)} for v in vs]
    shared = {"u_product": 1.0}
    t = 0
    for _ in range(epochs):
        for start in range(0, len(FIT_X), batch):
            x, y = FIT_X[start:start + batch].astype(np.float64), FIT_Y[start:start + batch].astype(np.float64)
            err = x @ vs[0] + vs[1] - y
            grads = [2 * x.T @ err / err.size, 2 * np.sum(err, axis=0) / err.size]
            t += 1
            if name == "Nadam":
                shared["u_product"] *= o["beta_1"] * (1 - 0.5 * 0.96 ** t)
            vs = [_update(name, o, LR[name], t, g, v, sl, shared) for g, v, sl in zip(grads, vs, slots)]
    return vs


@clause("optim.update-rules", ref="tf221")
@pytest.mark.parametrize("strategy", ["default", "mirrored"])
@pytest.mark.parametrize("name,kw", FIT, ids=[n for n, _ in FIT])
def test_optimizers_more_fit(backend, name, kw, strategy):
    """model.fit (a traced train step) with each optimizer, batch 4 over 8 samples, 2 epochs, under
    the default strategy and MirroredStrategy(2) (2 samples per replica, the gradients summed to
    the global batch's): the weights after fit follow the NumPy rule (for ScheduleFreeAdamW, with the
    momentum's start that where the optimizer was built gives it)."""
    ns = Program(backend, """
scope = backend.make_strategy("mirrored", 2).scope() if strategy == "mirrored" else tf.distribute.get_strategy().scope()
with scope:
    model = tf.keras.Sequential([tf.keras.Input((3,)), tf.keras.layers.Dense(1, kernel_initializer="ones")])
    model.compile(optimizer=getattr(tf.keras.optimizers, name)(learning_rate=lr, **kw), loss="mse")
model.fit(x, y, batch_size=4, epochs=2, shuffle=False, verbose=0)
kernel, bias = [np.asarray(v.numpy()) for v in model.weights]
""", name=name, kw=kw, lr=LR[name], strategy=strategy, x=FIT_X, y=FIT_Y).run()
    want = _fit_reference(name, kw, 2, 4, built_eagerly=strategy == "mirrored")
    call = f"{strategy}: Dense(1).fit(batch_size=4, epochs=2) with {name}(learning_rate={LR[name]}, **{kw})"
    assert_close(ns["kernel"], want[0], call=call, what="kernel after fit")
    assert_close(ns["bias"], want[1], call=call, what="bias after fit")


MUON_Y = np.concatenate([FIT_Y, FIT_X[:, :1] * 0.5], axis=1).astype(np.float32)
MUON = [{}, {"nesterov": False, "rms_rate": None},
        {"weight_decay": None, "adam_weight_decay": 0.1, "adam_lr_ratio": 0.5},
        {"exclude_layers": ["dense_b"], "ns_steps": 3, "momentum": 0.8}]


def _newton_schulz(x: np.ndarray, steps: int, a: float, b: float, c: float) -> np.ndarray:
    """Keras's zeropower_via_newtonschulz5 for a matrix."""
    tall = x.shape[0] > x.shape[1]
    if tall:
        x = x.T
    x = x / (np.sqrt(np.sum(x * x)) + 1e-7)
    for _ in range(steps):
        t_a = x @ x.T
        x = a * x + (b * t_a + (c * t_a) @ t_a) @ x
    return x.T if tall else x


def _muon_fit_reference(kw: dict, epochs: int, batch: int) -> list[np.ndarray]:
    """Dense(4, kernel ones) -> Dense(2, kernel 0.5), MSE, fit(shuffle=False) with
    Muon(learning_rate=0.05, **kw): the kernels take the Newton-Schulz path (unless a regex of
    exclude_layers matches their path), the biases AdamW; weight decay first (weight_decay on the
    Muon path, adam_weight_decay on the AdamW one)."""
    o = {"adam_beta_1": 0.9, "adam_beta_2": 0.999, "adam_weight_decay": 0.004, "epsilon": 1e-7,
         "weight_decay": 0.004, "exclude_layers": [], "muon_a": 3.4445, "muon_b": -4.7750, "muon_c": 2.0315,
         "adam_lr_ratio": 1, "momentum": 0.95, "ns_steps": 5, "nesterov": True, "rms_rate": 0.2}
    o.update(kw)
    lr = 0.05
    paths = ["sequential/dense_a/kernel", "sequential/dense_a/bias", "sequential/dense_b/kernel",
             "sequential/dense_b/bias"]
    vs = [np.ones((3, 4)), np.zeros(4), np.full((4, 2), 0.5), np.zeros(2)]
    adamw = [v.ndim != 2 or any(re.search(k, p) for k in o["exclude_layers"]) for v, p in zip(vs, paths)]
    m = [np.zeros_like(v) for v in vs]
    vel = [np.zeros_like(v) for v in vs]
    t = 0
    for _ in range(epochs):
        for start in range(0, len(FIT_X), batch):
            x, y = FIT_X[start:start + batch].astype(np.float64), MUON_Y[start:start + batch].astype(np.float64)
            h = x @ vs[0] + vs[1]
            d_out = 2 * (h @ vs[2] + vs[3] - y) / y.size
            d_h = d_out @ vs[2].T
            grads = [x.T @ d_h, d_h.sum(axis=0), h.T @ d_out, d_out.sum(axis=0)]
            t += 1
            for i in range(4):
                wd = o["adam_weight_decay"] if adamw[i] else o["weight_decay"]
                if wd is not None:
                    vs[i] = vs[i] - vs[i] * wd * lr
            for i, g in enumerate(grads):
                if adamw[i]:
                    b1, b2 = o["adam_beta_1"], o["adam_beta_2"]
                    m[i] = m[i] + (g - m[i]) * (1 - b1)
                    vel[i] = vel[i] + (g * g - vel[i]) * (1 - b2)
                    alpha = lr * o["adam_lr_ratio"] * np.sqrt(1 - b2 ** t) / (1 - b1 ** t)
                    vs[i] = vs[i] - m[i] * alpha / (np.sqrt(vel[i]) + o["epsilon"])
                else:
                    m[i] = m[i] + g + m[i] * (o["momentum"] - 1)
                    g2 = g + o["momentum"] * m[i] if o["nesterov"] else m[i]
                    update = lr * _newton_schulz(g2, o["ns_steps"], o["muon_a"], o["muon_b"], o["muon_c"])
                    if o["rms_rate"] is not None:
                        update = update * np.sqrt(max(update.shape)) * o["rms_rate"]
                    vs[i] = vs[i] - update
    return vs


@clause("optim.update-rules", ref="tf221")
@pytest.mark.parametrize("strategy", ["default", "mirrored"])
@pytest.mark.parametrize("kw", MUON, ids=[_id("Muon", k) for k in MUON])
def test_optimizers_more_muon_fit(backend, keras, kw, strategy):
    """Muon through model.fit (batch 4 over 8 samples, 2 epochs) under the default strategy and
    MirroredStrategy(2): the four weights follow the NumPy rule, and the optimizer's variables are
    each weight's momentum and, on the AdamW path, its velocity."""
    ns = Program(backend, """
scope = backend.make_strategy("mirrored", 2).scope() if strategy == "mirrored" else tf.distribute.get_strategy().scope()
with scope:
    half = tf.keras.initializers.Constant(0.5)
    model = tf.keras.Sequential([tf.keras.Input((3,)), tf.keras.layers.Dense(4, kernel_initializer="ones", name="dense_a"),
                                 tf.keras.layers.Dense(2, kernel_initializer=half, name="dense_b")])
    model.compile(optimizer=tf.keras.optimizers.Muon(learning_rate=0.05, **kw), loss="mse")
model.fit(x, y, batch_size=4, epochs=2, shuffle=False, verbose=0)
weights = [np.asarray(v.numpy()) for v in model.weights]
paths = [v.path for v in model.optimizer.variables]
config = model.optimizer.get_config()
""", kw=kw, strategy=strategy, x=FIT_X, y=MUON_Y).run()
    want = _muon_fit_reference(kw, 2, 4)
    call = f"{strategy}: Dense(4)->Dense(2) fit with Muon(learning_rate=0.05, **{kw})"
    for got, w, label in zip(ns["weights"], want, ("dense_a kernel", "dense_a bias", "dense_b kernel", "dense_b bias")):
        assert_close(got, w, call=call, what=f"{label} after fit")
    slots = ["sequential_dense_a_kernel_momentum", "sequential_dense_a_bias_momentum",
             "sequential_dense_a_bias_velocity", "sequential_dense_b_kernel_momentum"]
    slots += (["sequential_dense_b_kernel_velocity"] if kw.get("exclude_layers") else [])
    slots += ["sequential_dense_b_bias_momentum", "sequential_dense_b_bias_velocity"]
    assert_equal(ns["paths"], ["muon/iteration", "muon/learning_rate"] + [f"muon/{s}" for s in slots], call=call,
                 what="[v.path for v in optimizer.variables]")
    for key, value in kw.items():
        assert_equal(ns["config"][key], value, call=call, what=f"get_config()[{key!r}]")


@clause("optim.update-rules", ref="tf221")
def test_optimizers_more_get_by_name_and_errors(tf):
    """tf.keras.optimizers.get knows nadam, adamax, adadelta, ftrl, lion, adafactor,
    schedulefreeadamw and muon (Keras 3.15's ALL_OBJECTS; not lamb: ValueError, and deserialize gives back
    the name "Lamb"); serialize/deserialize round-trips the others; Ftrl and Lion check their
    arguments (ValueError)."""
    K = tf.keras.optimizers
    for name in ("Nadam", "Adamax", "Adadelta", "Ftrl", "Lion", "Adafactor", "ScheduleFreeAdamW", "Muon"):
        got = type(K.get(name.lower())).__name__
        assert_equal(got, name, call=f"tf.keras.optimizers.get({name.lower()!r})", what="class")
    for name in ("Nadam", "Adamax", "Adadelta", "Ftrl", "Lion", "Adafactor", "ScheduleFreeAdamW", "Muon"):
        opt = getattr(K, name)(learning_rate=0.25)
        back = K.deserialize(K.serialize(opt))
        assert_equal(type(back).__name__, name, call=f"deserialize(serialize({name}(0.25)))", what="class")
        assert_equal(back.get_config(), opt.get_config(), call=f"deserialize(serialize({name}(0.25)))",
                     what="get_config()")
    with raises(ValueError, match="Could not interpret optimizer identifier", call="tf.keras.optimizers.get('lamb')"):
        K.get("lamb")
    # Keras 3.15 quirk: a class name outside keras.optimizers' objects deserializes to the name itself
    back = K.deserialize(K.serialize(K.Lamb(0.25)))
    assert_equal(back, "Lamb", call="tf.keras.optimizers.deserialize(serialize(Lamb(0.25)))", what="result")
    with raises(ValueError, match="Could not interpret optimizer identifier",
                call="tf.keras.optimizers.get(serialize(Lamb(0.25)))"):
        K.get(K.serialize(K.Lamb(0.25)))
    lamb = K.Lamb(0.25, beta_1=0.5)
    assert_equal(K.Lamb.from_config(lamb.get_config()).get_config(), lamb.get_config(),
                 call="Lamb.from_config(Lamb(0.25, beta_1=0.5).get_config())", what="get_config()")
    for kw, match in (({"initial_accumulator_value": -0.1}, "`initial_accumulator_value` needs to be positive or zero"),
                      ({"learning_rate_power": 0.5}, "`learning_rate_power` needs to be negative or zero"),
                      ({"l1_regularization_strength": -1.0}, "`l1_regularization_strength` needs to be positive"),
                      ({"l2_regularization_strength": -1.0}, "`l2_regularization_strength` needs to be positive"),
                      ({"l2_shrinkage_regularization_strength": -1.0},
                       "`l2_shrinkage_regularization_strength` needs to be positive")):
        with raises(ValueError, match=match, call=f"Ftrl(**{kw})"):
            K.Ftrl(**kw)
    with raises(ValueError, match="Argument `beta_1` must be in the \\[0, 1\\] range", call="Lion(beta_1=0.0)"):
        K.Lion(beta_1=0.0)


# -- schedules -------------------------------------------------------------------------------------

def _cosine(lr0: float, s: float, decay_steps: float, alpha: float) -> float:
    return lr0 * ((1 - alpha) * 0.5 * (1 + math.cos(math.pi * s / decay_steps)) + alpha)


def _restarts(lr0: float, step: int, first: float, t_mul: float, m_mul: float, alpha: float) -> float:
    frac = step / first
    if t_mul == 1.0:
        i = math.floor(frac)
        frac -= i
    else:
        i = math.floor(math.log(1 - frac * (1 - t_mul)) / math.log(t_mul))
        frac = (frac - (1 - t_mul ** i) / (1 - t_mul)) / t_mul ** i
    return lr0 * ((1 - alpha) * 0.5 * m_mul ** i * (1 + math.cos(math.pi * frac)) + alpha)


def _polynomial(lr0: float, step: int, decay_steps: float, end: float, power: float, cycle: bool) -> float:
    if cycle:
        decay_steps = decay_steps * (1.0 if step == 0 else math.ceil(step / decay_steps))
    else:
        step = min(step, decay_steps)
    return (lr0 - end) * (1 - step / decay_steps) ** power + end


def _warmup_cosine(lr0: float, step: int, decay_steps: float, alpha: float, target: float, warm: float) -> float:
    step = min(step, decay_steps + warm)
    if step < warm:
        return (target - lr0) * step / warm + lr0
    return _cosine(target, step - warm, decay_steps, alpha)


# (constructor call, NumPy formula of the step)
SCHEDULES = [
    ("PolynomialDecay(0.1, 5, 0.01, power=0.5)", lambda s: _polynomial(0.1, s, 5, 0.01, 0.5, False)),
    ("PolynomialDecay(0.1, 3, 0.01, power=2.0, cycle=True)", lambda s: _polynomial(0.1, s, 3, 0.01, 2.0, True)),
    ("PolynomialDecay(0.1, 4)", lambda s: _polynomial(0.1, s, 4, 0.0001, 1.0, False)),
    ("InverseTimeDecay(0.1, 3, 0.5)", lambda s: 0.1 / (1 + 0.5 * s / 3)),
    ("InverseTimeDecay(0.1, 3, 0.5, staircase=True)", lambda s: 0.1 / (1 + 0.5 * math.floor(s / 3))),
    ("CosineDecay(0.1, 6)", lambda s: _cosine(0.1, min(s, 6), 6, 0.0)),
    ("CosineDecay(0.1, 6, alpha=0.1)", lambda s: _cosine(0.1, min(s, 6), 6, 0.1)),
    ("CosineDecay(0.0, 6, alpha=0.05, warmup_target=0.2, warmup_steps=3)",
     lambda s: _warmup_cosine(0.0, s, 6, 0.05, 0.2, 3)),
    ("CosineDecayRestarts(0.1, 3)", lambda s: _restarts(0.1, s, 3, 2.0, 1.0, 0.0)),
    ("CosineDecayRestarts(0.1, 2, t_mul=1.0, m_mul=0.5, alpha=0.1)", lambda s: _restarts(0.1, s, 2, 1.0, 0.5, 0.1)),
    ("CosineDecayRestarts(0.1, 2, t_mul=1.5, m_mul=0.8)", lambda s: _restarts(0.1, s, 2, 1.5, 0.8, 0.0)),
]


@clause("optim.schedules", ref="tf221")
@pytest.mark.parametrize("i", range(len(SCHEDULES)), ids=[c for c, _ in SCHEDULES])
def test_optimizers_more_schedule_values_and_config(backend, i):
    """The schedule at steps 0..15 (an int64 step, as the optimizer passes `iterations`), and
    schedules.serialize/deserialize giving the same config."""
    ctor, formula = SCHEDULES[i]
    ns = Program(backend, """
s = eval("tf.keras.optimizers.schedules." + ctor)
values = [float(np.asarray(s(tf.constant(k, tf.int64)))) for k in range(16)]
ser = tf.keras.optimizers.schedules.serialize(s)
back = tf.keras.optimizers.schedules.deserialize(ser)
config, back_config, back_class = s.get_config(), back.get_config(), type(back).__name__
""", ctor=ctor).run()
    call = f"tf.keras.optimizers.schedules.{ctor}"
    assert_close(np.array(ns["values"]), np.array([formula(k) for k in range(16)]), call=call,
                 what="[schedule(step) for step in range(16)]")
    assert_equal(ns["back_class"], ctor.split("(")[0], call=call, what="type(deserialize(serialize(s)))")
    assert_equal(ns["back_config"], ns["config"], call=call, what="deserialize(serialize(s)).get_config()")


@clause("optim.schedules", ref="tf221")
def test_optimizers_more_schedule_drives_the_optimizer(backend):
    """SGD(CosineDecay(0.0, 4, warmup_target=0.2, warmup_steps=2)): each apply uses the schedule at
    `iterations` before it (0, 0.1, 0.2, then the cosine decay)."""
    ns = Program(backend, """
S = tf.keras.optimizers.schedules
w = tf.Variable(w0)
opt = tf.keras.optimizers.SGD(S.CosineDecay(0.0, 4, warmup_target=0.2, warmup_steps=2))
trace = []
for g in grads:
    opt.apply_gradients([(tf.constant(g), w)])
    trace.append(w.numpy())
""", w0=W0, grads=GW).run()
    w = W0.astype(np.float64)
    for k, g in enumerate(GW):
        w = w - _warmup_cosine(0.0, k, 4, 0.0, 0.2, 2) * g
        assert_close(ns["trace"][k], w, call="SGD(CosineDecay(0.0, 4, warmup_target=0.2, warmup_steps=2))",
                     what=f"w after {k + 1} apply_gradients")


@clause("optim.schedules", ref="tf221")
def test_optimizers_more_schedule_argument_errors(tf):
    """decay_steps (first_decay_steps) must be > 0: ValueError naming the argument."""
    S = tf.keras.optimizers.schedules
    for ctor, arg in ((lambda: S.PolynomialDecay(0.1, 0), "decay_steps"), (lambda: S.InverseTimeDecay(0.1, -1, 0.5),
                                                                           "decay_steps"),
                      (lambda: S.CosineDecay(0.1, 0), "decay_steps"),
                      (lambda: S.CosineDecayRestarts(0.1, 0), "first_decay_steps")):
        with raises(ValueError, match=f"Argument `{arg}` must be > 0", call=f"a schedule with {arg} <= 0"):
            ctor()


# -- constraints -----------------------------------------------------------------------------------

CW = np.array([[3.0, -0.5, 0.1], [4.0, 0.25, -0.2]], dtype=np.float32)
EPS = 1e-7


def _norms(w: np.ndarray, axis) -> np.ndarray:
    return np.sqrt(np.sum(w * w, axis=tuple(axis) if isinstance(axis, list) else axis, keepdims=True))


def _max_norm(w, max_value=2.0, axis=0):
    n = _norms(w, axis)
    return w * np.clip(n, 0, max_value) / (EPS + n)


def _min_max_norm(w, min_value=0.0, max_value=1.0, rate=1.0, axis=0):
    n = _norms(w, axis)
    return w * (rate * np.clip(n, min_value, max_value) + (1 - rate) * n) / (EPS + n)


def _unit_norm(w, axis=0):
    return w / (EPS + _norms(w, axis))


PROJECTIONS = [("MaxNorm()", lambda w: _max_norm(w)), ("MaxNorm(1.5, axis=1)", lambda w: _max_norm(w, 1.5, 1)),
               ("MinMaxNorm(0.5, 1.0, rate=0.7)", lambda w: _min_max_norm(w, 0.5, 1.0, 0.7)),
               ("MinMaxNorm(min_value=4.5, max_value=6.0)", lambda w: _min_max_norm(w, 4.5, 6.0)),
               ("MinMaxNorm(0.5, 1.0, axis=[0, 1])", lambda w: _min_max_norm(w, 0.5, 1.0, 1.0, [0, 1])),
               ("NonNeg()", lambda w: np.maximum(w, 0)), ("UnitNorm()", lambda w: _unit_norm(w)),
               ("UnitNorm(axis=1)", lambda w: _unit_norm(w, 1)), ("Constraint()", lambda w: w),
               ("max_norm(3)", lambda w: _max_norm(w, 3.0)), ("non_neg()", lambda w: np.maximum(w, 0)),
               ("unit_norm()", lambda w: _unit_norm(w)), ("min_max_norm()", lambda w: _min_max_norm(w))]


@clause("keras.constraints", ref="tf221")
@pytest.mark.parametrize("i", range(len(PROJECTIONS)), ids=[c for c, _ in PROJECTIONS])
def test_optimizers_more_constraint_projection(backend, i):
    """Each constraint called on a tf.Variable (2x3): its projection; serialize/deserialize and
    from_config(get_config()) give a constraint with the same config and the same projection."""
    ctor, formula = PROJECTIONS[i]
    ns = Program(backend, """
C = tf.keras.constraints
c = eval("C." + ctor)
v = tf.Variable(w)
out = np.asarray(c(v))
ser = C.serialize(c)
back = C.deserialize(ser)
again = type(c).from_config(c.get_config())
checks = [type(back).__name__, back.get_config(), again.get_config(), c.get_config(), np.asarray(back(v))]
""", ctor=ctor, w=CW).run()
    call = f"tf.keras.constraints.{ctor}(tf.Variable(w))"
    want = formula(CW.astype(np.float64))
    assert_close(ns["out"], want, call=call, what="projection")
    name, back_cfg, again_cfg, cfg, back_out = ns["checks"]
    assert_equal(ns["ser"]["module"], "keras.constraints", call=call, what="serialize(c)['module']")
    assert_equal(name, ns["ser"]["class_name"], call=call, what="type(deserialize(serialize(c)))")
    assert_equal(back_cfg, cfg, call=call, what="deserialize(serialize(c)).get_config()")
    assert_equal(again_cfg, cfg, call=call, what="from_config(get_config()).get_config()")
    assert_close(back_out, want, call=call, what="deserialize(serialize(c)) projection")


@clause("keras.constraints", ref="tf221")
def test_optimizers_more_constraint_get(tf):
    """constraints.get: None -> None; "max_norm"/"MaxNorm"/"non_neg"/"unit_norm"/"min_max_norm" -> an
    instance with the defaults; a config dict -> an instance; a callable -> itself; an unknown name
    -> ValueError "Could not interpret constraint identifier"; a layer's kernel_constraint given
    by name is that instance on the layer and on its kernel variable, and its config serializes it."""
    C = tf.keras.constraints
    assert_true(C.get(None) is None and C.serialize(None) is None, "get(None) / serialize(None) should be None",
                call="tf.keras.constraints.get(None)")
    for ident, cls in (("max_norm", "MaxNorm"), ("MaxNorm", "MaxNorm"), ("non_neg", "NonNeg"),
                       ("unit_norm", "UnitNorm"), ("min_max_norm", "MinMaxNorm"),
                       ({"class_name": "MaxNorm", "config": {"max_value": 3, "axis": 1}}, "MaxNorm")):
        got = C.get(ident)
        assert_equal(type(got).__name__, cls, call=f"tf.keras.constraints.get({ident!r})", what="class")
    assert_equal(C.get({"class_name": "MaxNorm", "config": {"max_value": 3, "axis": 1}}).get_config(),
                 {"max_value": 3, "axis": 1}, call="get({'class_name': 'MaxNorm', ...})", what="get_config()")

    def clip(w):
        return w

    assert_true(C.get(clip) is clip, "get(a function) should return the function itself", call="get(clip)")
    with raises(ValueError, match="Could not interpret constraint identifier", call="get('no_such_constraint')"):
        C.get("no_such_constraint")
    tf.keras.backend.clear_session()
    layer = tf.keras.layers.Dense(2, kernel_constraint="max_norm", bias_constraint=C.NonNeg())
    layer.build((None, 3))
    assert_equal(type(layer.kernel_constraint).__name__, "MaxNorm", call="Dense(kernel_constraint='max_norm')",
                 what="layer.kernel_constraint")
    assert_equal(type(layer.kernel.constraint).__name__, "MaxNorm", call="Dense(kernel_constraint='max_norm')",
                 what="layer.kernel.constraint")
    cfg = layer.get_config()
    assert_equal(cfg["kernel_constraint"], {"module": "keras.constraints", "class_name": "MaxNorm",
                                            "config": {"max_value": 2, "axis": 0}, "registered_name": None},
                 call="Dense(kernel_constraint='max_norm').get_config()", what="['kernel_constraint']")
    assert_equal(cfg["bias_constraint"]["class_name"], "NonNeg", call="Dense(bias_constraint=NonNeg()).get_config()",
                 what="['bias_constraint']['class_name']")


FX = np.linspace(-1.0, 1.0, 24, dtype=np.float32).reshape(8, 3)
FY = (FX @ np.array([[2.0], [-3.0], [1.0]], dtype=np.float32) - 0.5).astype(np.float32)


def _constrained_fit_reference(epochs: int, batch: int) -> list[np.ndarray]:
    """Dense(1, kernel ones, bias zeros, kernel_constraint=MaxNorm(1.0), bias_constraint=NonNeg())
    trained with SGD(0.5) on MSE, fit(shuffle=False): after each SGD step the kernel's column is
    rescaled to norm <= 1 and the bias clipped at 0 (Keras's BaseOptimizer.apply)."""
    k, b = np.ones((3, 1)), np.zeros(1)
    for _ in range(epochs):
        for s in range(0, len(FX), batch):
            x, y = FX[s:s + batch].astype(np.float64), FY[s:s + batch].astype(np.float64)
            err = x @ k + b - y
            k = k - 0.5 * 2 * x.T @ err / err.size
            b = b - 0.5 * 2 * np.sum(err, axis=0) / err.size
            k = _max_norm(k, 1.0)
            b = np.maximum(b, 0)
    return [k, b]


@clause("keras.constraints", ref="tf221")
@pytest.mark.parametrize("strategy", ["default", "mirrored"])
def test_optimizers_more_constraint_holds_after_fit(backend, strategy):
    """model.fit with Dense(1, kernel_constraint=MaxNorm(1.0), bias_constraint=NonNeg()), SGD(0.5),
    batch 4 over 8 samples, 3 epochs (under MirroredStrategy(2): 2 samples per replica, the
    gradients summed): the weights equal the NumPy run that projects after every step, the
    kernel's norm is <= 1 and the bias >= 0 (unconstrained, this problem's weights grow past both)."""
    ns = Program(backend, """
C = tf.keras.constraints
scope = backend.make_strategy("mirrored", 2).scope() if strategy == "mirrored" else tf.distribute.get_strategy().scope()
with scope:
    model = tf.keras.Sequential([tf.keras.Input((3,)), tf.keras.layers.Dense(
        1, kernel_initializer="ones", kernel_constraint=C.MaxNorm(1.0), bias_constraint=C.NonNeg())])
    model.compile(optimizer=tf.keras.optimizers.SGD(0.5), loss="mse")
model.fit(x, y, batch_size=4, epochs=3, shuffle=False, verbose=0)
kernel, bias = [np.asarray(v.numpy()) for v in model.weights]
""", strategy=strategy, x=FX, y=FY).run()
    call = f"{strategy}: fit Dense(1, kernel_constraint=MaxNorm(1.0), bias_constraint=NonNeg()) with SGD(0.5)"
    want = _constrained_fit_reference(3, 4)
    assert_close(ns["kernel"], want[0], call=call, what="kernel after fit")
    assert_close(ns["bias"], want[1], call=call, what="bias after fit")
    norm = float(np.sqrt(np.sum(np.asarray(ns["kernel"], np.float64) ** 2)))
    assert_true(norm <= 1.0 + 1e-6, f"kernel norm after fit = {norm}, but should be <= 1.0 (MaxNorm(1.0))", call=call)
    assert_true(float(np.min(ns["bias"])) >= 0.0, f"bias after fit = {ns['bias']}, but should be >= 0 (NonNeg)",
                call=call)
