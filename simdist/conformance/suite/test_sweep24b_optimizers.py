"""sweep24b (issue 29): Keras optimizers' update rules over SEVERAL steps with one non-default option at a
time — as TF 2.21 + Keras 3.15 apply them.

The inputs are chosen so each option's rule is visible: two variables (a non-square (3, 2) kernel and a
(2,) bias, so a global norm is not one tensor's norm), four (or six) steps of signed gradients with zeros in them,
whose magnitude shrinks and grows again (AMSGrad's running maximum differs from the last velocity; momenta
and accumulators are read after they left their initial values), entries beyond +clipvalue AND below
-clipvalue, gradient accumulation over two or three full cycles (the accumulators must be reset), an EMA
whose first step is counted in accumulation cycles, a loss-scale factor, weight decay; float32 and float64
variables; IndexedSlices gradients with a repeated row. The expected variables after every step are
computed here in NumPy float64 from Keras 3.15's rules (keras/src/optimizers/base_optimizer.py:
apply -> _backend_apply_gradients, _clip_gradients, _apply_weight_decay, gradient accumulation,
_update_model_variables_moving_average; sgd.py, adam.py, rmsprop.py update_step).
"""

from __future__ import annotations

import numpy as np
import pytest

from simdist.conformance.assertions import assert_close
from simdist.conformance.tolerances import Tolerance

clause = pytest.mark.clause
TOL = {"float32": Tolerance(rtol=3e-5, atol=3e-6), "float64": Tolerance(rtol=1e-10, atol=1e-12)}

_RNG = np.random.default_rng(24)
K0 = (_RNG.integers(-16, 17, size=(3, 2)) / 8.0)
B0 = np.array([0.5, -0.25])
#: the gradients' magnitudes per step: they shrink, grow and shrink (AMSGrad's maximum is not the last v)
SCALES = [2.0, 0.5, 1.0, 0.25, 1.5, 0.125]
GRADS = []
for _s in SCALES:
    _gk = _RNG.integers(-16, 17, size=(3, 2)) / 8.0 * _s
    _gk[1, 0] = 0.0                                  # a zero entry: slots stay at 0 there for plain steps
    GRADS.append((_gk, _RNG.integers(-16, 17, size=(2,)) / 8.0 * _s))

OPTIMIZERS = {
    "sgd-momentum": ("SGD", {"learning_rate": 0.1, "momentum": 0.9}),
    "sgd-nesterov": ("SGD", {"learning_rate": 0.1, "momentum": 0.9, "nesterov": True}),
    "adam-amsgrad": ("Adam", {"learning_rate": 0.05, "beta_2": 0.5, "amsgrad": True}),   # v shrinks
    "adam": ("Adam", {"learning_rate": 0.05, "beta_1": 0.8, "beta_2": 0.9}),
    "rmsprop-centered-momentum": ("RMSprop", {"learning_rate": 0.01, "momentum": 0.5, "centered": True}),
}
#: float64 variables: hyperparameters exactly representable in float32, since Keras passes the learning rate
#: (a float32 variable), the betas and momentum (ops.cast of a Python float) through float32 first.
OPTIMIZERS64 = {
    "sgd-nesterov": ("SGD", {"learning_rate": 0.125, "momentum": 0.875, "nesterov": True}),
    "adam-amsgrad": ("Adam", {"learning_rate": 0.0625, "beta_1": 0.75, "beta_2": 0.9375, "epsilon": 2.0 ** -20,
                              "amsgrad": True}),
    "adam": ("Adam", {"learning_rate": 0.0625, "beta_1": 0.875, "beta_2": 0.96875, "epsilon": 2.0 ** -20}),
    "rmsprop-centered-momentum": ("RMSprop", {"learning_rate": 0.015625, "rho": 0.875, "momentum": 0.5,
                                              "epsilon": 2.0 ** -20, "centered": True}),
}
#: applies per case: four (two accumulation cycles), six where the option's rule shows only then
STEPS = {"ema-overwrite-accumulate-2": 6}
OPTIONS = {
    "accumulate-2": {"gradient_accumulation_steps": 2},
    "clipvalue": {"clipvalue": 0.75},
    "global-clipnorm": {"global_clipnorm": 1.5},
    "clipnorm": {"clipnorm": 1.0},
    "accumulate-2-clipvalue": {"gradient_accumulation_steps": 2, "clipvalue": 0.5},
    "ema": {"use_ema": True, "ema_momentum": 0.5},
    "ema-accumulate-2": {"use_ema": True, "ema_momentum": 0.75, "gradient_accumulation_steps": 2},
    # six steps (STEPS): the 6th apply overwrites only if the frequency counted applies, not cycles
    "ema-overwrite-accumulate-2": {"use_ema": True, "ema_momentum": 0.5, "ema_overwrite_frequency": 2,
                                   "gradient_accumulation_steps": 2},
    "weight-decay": {"weight_decay": 0.1},
    "loss-scale": {"loss_scale_factor": 4.0},
    "none": {},
}


def _clip(grads: list, opts: dict) -> list:
    """Keras's _clip_gradients: clipnorm per tensor, else global_clipnorm, else clipvalue."""
    if opts.get("clipnorm"):
        c = opts["clipnorm"]
        return [g * c / max(np.sqrt(np.sum(g * g)), c) for g in grads]
    if opts.get("global_clipnorm"):
        c = opts["global_clipnorm"]
        norm = np.sqrt(sum(np.sum(g * g) for g in grads))
        return [g * (c * min(1.0 / norm, 1.0 / c)) for g in grads]
    if opts.get("clipvalue"):
        v = opts["clipvalue"]
        return [np.clip(g, -v, v) for g in grads]
    return grads


class _Rule:
    """One optimizer's update_step in NumPy float64 (slots per variable)."""

    def __init__(self, cls: str, hyper: dict, shapes: list) -> None:
        self.cls, self.h = cls, dict(hyper)
        self.slots = [{"m": np.zeros(s), "v": np.zeros(s), "vhat": np.zeros(s), "a": np.zeros(s)} for s in shapes]

    def update(self, i: int, var: np.ndarray, g: np.ndarray, iterations: int,
               g2: np.ndarray | None = None) -> np.ndarray:
        """`g2`: what ops.square(gradient) is (Keras squares an IndexedSlices' rows, then they add up)."""
        h, s = self.h, self.slots[i]
        g2 = g * g if g2 is None else g2
        lr = h["learning_rate"]
        if self.cls == "SGD":
            mom = h.get("momentum", 0.0)
            s["m"] = s["m"] * mom - g * lr
            return var + (s["m"] * mom - g * lr if h.get("nesterov") else s["m"])
        if self.cls == "Adam":
            b1, b2, eps = h.get("beta_1", 0.9), h.get("beta_2", 0.999), h.get("epsilon", 1e-7)
            t = iterations + 1
            alpha = lr * np.sqrt(1 - b2 ** t) / (1 - b1 ** t)
            s["m"] = s["m"] + (g - s["m"]) * (1 - b1)
            s["v"] = s["v"] + (g2 - s["v"]) * (1 - b2)
            v = s["v"]
            if h.get("amsgrad"):
                s["vhat"] = np.maximum(s["vhat"], s["v"])
                v = s["vhat"]
            return var - s["m"] * alpha / (np.sqrt(v) + eps)
        rho, mom, eps = h.get("rho", 0.9), h.get("momentum", 0.0), h.get("epsilon", 1e-7)     # RMSprop
        s["v"] = rho * s["v"] + (1 - rho) * g2
        if h.get("centered"):
            s["a"] = rho * s["a"] + (1 - rho) * g
            den = s["v"] - s["a"] ** 2 + eps
        else:
            den = s["v"] + eps
        inc = lr * g / np.sqrt(den)
        if mom > 0:
            s["m"] = mom * s["m"] + inc
            return var - s["m"]
        return var - inc


def reference(cls: str, hyper: dict, opts: dict, steps: list) -> tuple[list, list]:
    """The variables after each apply (Keras 3.15's apply, NumPy float64), and the EMA averages at the end."""
    vars_ = [K0.copy(), B0.copy()]
    rule = _Rule(cls, hyper, [v.shape for v in vars_])
    acc = [np.zeros_like(v) for v in vars_]
    avg = [np.zeros_like(v) for v in vars_]
    n_acc = opts.get("gradient_accumulation_steps")
    lr, wd = hyper["learning_rate"], opts.get("weight_decay")
    history = []
    for it, grads in enumerate(steps):
        grads = [np.asarray(g, np.float64) for g in grads]
        if opts.get("loss_scale_factor"):
            grads = [g / opts["loss_scale_factor"] for g in grads]
        iterations = it // n_acc if n_acc else it
        update = (it + 1) % n_acc == 0 if n_acc else True
        if n_acc and update:
            grads = [(g + a) / n_acc for g, a in zip(grads, acc)]
            acc = [np.zeros_like(a) for a in acc]
        elif n_acc:
            acc = [a + g for a, g in zip(acc, grads)]
        if update:
            grads = _clip(grads, opts)
            if wd:
                vars_ = [v - v * wd * lr for v in vars_]
            vars_ = [rule.update(i, v, g, iterations) for i, (v, g) in enumerate(zip(vars_, grads))]
        if opts.get("use_ema"):
            m = 0.0 if iterations == 0 else opts["ema_momentum"]
            avg = [m * a + (1 - m) * v for a, v in zip(avg, vars_)]
            freq = opts.get("ema_overwrite_frequency")
            if freq and (iterations + 1) % freq == 0:       # counted in accumulation cycles
                vars_ = [a.copy() for a in avg]
        history.append([v.copy() for v in vars_])
    return history, avg


def _cases() -> list[tuple[str, str, str]]:
    """Each option with one or two optimizers (accumulation over cycles first: under `--profile ci` it is the
    one case), two optimizers with none, then two in float64."""
    pairs = {"accumulate-2": ("adam-amsgrad", "sgd-momentum"), "clipvalue": ("sgd-nesterov", "adam"),
             "global-clipnorm": ("sgd-momentum", "rmsprop-centered-momentum"), "clipnorm": ("adam-amsgrad",),
             "accumulate-2-clipvalue": ("rmsprop-centered-momentum", "adam"), "ema": ("sgd-momentum",),
             "ema-overwrite-accumulate-2": ("sgd-momentum",),
             "ema-accumulate-2": ("adam-amsgrad", "rmsprop-centered-momentum"), "weight-decay": ("adam",),
             "loss-scale": ("rmsprop-centered-momentum",), "none": ("adam-amsgrad", "sgd-nesterov")}
    out = [(o, opt, "float32") for o, opts in pairs.items() for opt in opts]
    out += [("accumulate-2-clipvalue", "adam-amsgrad", "float64"), ("global-clipnorm", "sgd-nesterov", "float64")]
    return out


@clause("optim.update-rules", ref="tf221")
@clause("optim.option-coverage", ref="tf221")
@clause("optim.clipping", ref="tf221")
def test_sweep24b_optimizer_options_over_four_steps(tf, budget):
    """Each (option, optimizer, dtype): the kernel and bias after each of four applies, and with use_ema the
    variables after finalize_variable_values, equal Keras's rules computed in NumPy float64."""
    failures = []
    for option, name, dtype in budget(_cases()):
        cls, hyper = (OPTIMIZERS64 if dtype == "float64" else OPTIMIZERS)[name]
        opts = OPTIONS[option]
        label = f"[{name} {option} {dtype}]"
        opt = getattr(tf.keras.optimizers, cls)(**hyper, **opts)
        k = tf.Variable(K0.astype(dtype))
        b = tf.Variable(B0.astype(dtype))
        grads = GRADS[:STEPS.get(option, 4)]
        want, avg = reference(cls, hyper, opts, grads)
        try:
            for step, (gk, gb) in enumerate(grads):
                opt.apply_gradients([(tf.constant(gk.astype(dtype)), k), (tf.constant(gb.astype(dtype)), b)])
                assert_close(k.numpy(), want[step][0], tolerance=TOL[dtype], what="kernel",
                             call=f"{label} after step {step + 1}")
                assert_close(b.numpy(), want[step][1], tolerance=TOL[dtype], what="bias",
                             call=f"{label} after step {step + 1}")
            if opts.get("use_ema"):
                opt.finalize_variable_values([k, b])
                assert_close(k.numpy(), avg[0], tolerance=TOL[dtype], what="kernel (EMA)",
                             call=f"{label} finalize_variable_values")
                assert_close(b.numpy(), avg[1], tolerance=TOL[dtype], what="bias (EMA)",
                             call=f"{label} finalize_variable_values")
        except AssertionError as e:
            failures.append(str(e))
    assert not failures, f"{len(failures)} case(s) differ:\n" + "\n".join(failures[:8])


#: IndexedSlices gradients of a (4, 3) table: row 1 twice, row 0 never, a signed upstream.
SPARSE_VALUES = [np.array([[1.0, -2.0, 0.5], [0.25, 0.0, -1.0], [-0.5, 1.5, 2.0]]),
                 np.array([[-1.0, 0.5, 0.0], [2.0, -0.25, 1.0], [0.5, 0.5, -1.5]])]
SPARSE_INDICES = [[1, 3, 1], [2, 1, 2]]
TABLE0 = np.arange(12, dtype=np.float64).reshape(4, 3) / 4.0 - 1.0
SPARSE_OPTIMIZERS = {"sgd": ("SGD", {"learning_rate": 0.125}),
                     "sgd-momentum": ("SGD", {"learning_rate": 0.125, "momentum": 0.875}),
                     "adam": OPTIMIZERS64["adam"], "rmsprop": ("RMSprop", {"learning_rate": 0.015625, "rho": 0.875,
                                                                         "epsilon": 2.0 ** -20})}


@clause("optim.update-rules", ref="tf221")
@clause("optim.sparse-updates", ref="tf221")
def test_sweep24b_sparse_gradients_with_repeated_rows(tf, budget):
    """An IndexedSlices gradient with a repeated row is the dense sum of its rows (np.add.at) in every
    optimizer's update, over two steps, except where Keras squares it (Adam's and RMSprop's velocity): the
    rows are squared first, then summed (a^2 + b^2, not (a + b)^2); rows never indexed move only through
    their momenta/slots."""
    for name in budget(list(SPARSE_OPTIMIZERS)):
        cls, hyper = SPARSE_OPTIMIZERS[name]
        for dtype in ("float32", "float64"):
            opt = getattr(tf.keras.optimizers, cls)(**hyper)
            table = tf.Variable(TABLE0.astype(dtype))
            rule = _Rule(cls, hyper, [TABLE0.shape])
            want = TABLE0.copy()
            for step, (vals, idx) in enumerate(zip(SPARSE_VALUES, SPARSE_INDICES)):
                dense, squares = np.zeros_like(TABLE0), np.zeros_like(TABLE0)
                np.add.at(dense, idx, vals)
                np.add.at(squares, idx, vals * vals)
                want = rule.update(0, want, dense, step, squares)
                g = tf.IndexedSlices(tf.constant(vals.astype(dtype)), tf.constant(idx, dtype=tf.int64),
                                     tf.constant([4, 3], dtype=tf.int64))
                opt.apply_gradients([(g, table)])
                assert_close(table.numpy(), want, tolerance=TOL[dtype], what="table",
                             call=f"[{name} {dtype}] IndexedSlices rows {idx}, after step {step + 1}")


def _poly(step: float, lr0: float, ds: float, end: float, power: float, cycle: bool) -> float:
    if cycle:
        ds = ds * (1.0 if step == 0 else np.ceil(step / ds))
    else:
        step = min(step, ds)
    return (lr0 - end) * (1 - step / ds) ** power + end


def _cosine_warmup(step: float, lr0: float, ds: float, alpha: float, target: float, ws: float) -> float:
    step = min(step, ds + ws)
    if step < ws:
        return (target - lr0) * step / ws + lr0
    return target * ((1 - alpha) * 0.5 * (1 + np.cos(np.pi * (step - ws) / ds)) + alpha)


#: name -> (class, kwargs, the rule in NumPy float64, steps AT the boundaries and on both sides)
SCHEDULES = {
    "piecewise": ("PiecewiseConstantDecay", {"boundaries": [3, 7], "values": [1.0, 0.5, 0.125]},
                  lambda s: 1.0 if s <= 3 else (0.5 if s <= 7 else 0.125), [0, 2, 3, 4, 6, 7, 8]),
    "exponential-staircase": ("ExponentialDecay", {"initial_learning_rate": 0.5, "decay_steps": 4,
                                                   "decay_rate": 0.5, "staircase": True},
                              lambda s: 0.5 * 0.5 ** np.floor(s / 4), [0, 3, 4, 5, 8]),
    "exponential": ("ExponentialDecay", {"initial_learning_rate": 0.5, "decay_steps": 4, "decay_rate": 0.25},
                    lambda s: 0.5 * 0.25 ** (s / 4), [0, 3, 4, 6]),
    "inverse-time-staircase": ("InverseTimeDecay", {"initial_learning_rate": 1.0, "decay_steps": 4,
                                                    "decay_rate": 0.5, "staircase": True},
                               lambda s: 1.0 / (1 + 0.5 * np.floor(s / 4)), [0, 3, 4, 7, 8]),
    "polynomial-cycle": ("PolynomialDecay", {"initial_learning_rate": 1.0, "decay_steps": 4,
                                             "end_learning_rate": 0.125, "power": 2.0, "cycle": True},
                         lambda s: _poly(s, 1.0, 4, 0.125, 2.0, True), [0, 1, 4, 5, 8, 9]),
    "polynomial": ("PolynomialDecay", {"initial_learning_rate": 1.0, "decay_steps": 4, "end_learning_rate": 0.125,
                                       "power": 0.5}, lambda s: _poly(s, 1.0, 4, 0.125, 0.5, False), [0, 3, 4, 6]),
    "cosine-warmup": ("CosineDecay", {"initial_learning_rate": 0.0, "decay_steps": 8, "alpha": 0.25,
                                      "warmup_target": 1.0, "warmup_steps": 4},
                      lambda s: _cosine_warmup(s, 0.0, 8, 0.25, 1.0, 4), [0, 3, 4, 5, 12, 13]),
}


@clause("optim.schedules", ref="tf221")
def test_sweep24b_learning_rate_schedules_at_their_boundaries(tf, budget):
    """Each schedule at steps exactly AT its boundaries (piecewise boundaries are inclusive on the left value's
    side, staircase floors at multiples of decay_steps, a cycling PolynomialDecay's multiplier is 1 at step 0
    and ceil(step / decay_steps) after, the cosine warmup ends at warmup_steps) and on both sides of them."""
    for name in budget(list(SCHEDULES)):
        cls, kwargs, rule, steps = SCHEDULES[name]
        sched = getattr(tf.keras.optimizers.schedules, cls)(**kwargs)
        got = [float(np.asarray(sched(tf.constant(s, dtype=tf.int64)))) for s in steps]
        want = [float(np.float32(rule(s))) for s in steps]
        assert_close(got, want, tolerance=TOL["float32"], what="learning rates",
                     call=f"[{cls}({kwargs})] at steps {steps}")
