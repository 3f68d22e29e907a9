"""The optimizer sweep's programs (test_osweep57.py): every tf.keras optimizer crossed with each of its options off
its default (and its defaults, every argument omitted), 1, 2 and 5 steps of apply_gradients on float32 (float64 and
float16 where the optimizer takes them) variables whose gradients hold zeros, negatives, tiny and large values; sparse
gradients (tf.IndexedSlices with duplicate indices); every learning-rate schedule with each option at step 0, 1, its
boundaries and their neighbours, large steps, Python, integer and float step tensors; and one replica-aggregated
apply per optimizer family under MirroredStrategy (two CPUs). Each program returns JSON (floats as the hex of their
value, errors as "raised <class>")."""

from __future__ import annotations

import re
from typing import Any, Callable

import numpy as np

from simdist.conformance.suite.recorded_programs import (RecordedPrograms, avx512_with_onednn, bits, error,
                                                         plain, reference_cpu, rng)

import os

PATH = os.path.join(os.path.dirname(__file__), "osweep57_reference.json.gz")

#: clipping's norms, Lamb's trust ratio, Adafactor's factored means, Muon's Newton-Schulz products: float32 sums
#: and products whose order is the kernel's (ops.host-cpu); filled in below by the configurations' names
HOST_DEPENDENT: list[str] = []

#: where simdist and TF 2.21 disagree, left out of the sweep: (program name, key left out, the evidence)
OPEN: tuple[tuple[str, str, str], ...] = ()

_K: dict[str, Callable[..., Any]] = {}


def _sched(name: str, **kw: Any) -> Callable[[Any], Any]:
    return lambda k: getattr(k.optimizers.schedules, name)(**kw)


def _exp() -> Callable[[Any], Any]:
    return _sched("ExponentialDecay", initial_learning_rate=0.1, decay_steps=2, decay_rate=0.5, staircase=True)


#: each optimizer with its options off their defaults: name -> (make(keras), variable dtypes)
OPTIMIZERS: dict[str, Callable[[Any], Any]] = {
    # SGD
    "sgd_default": lambda k: k.optimizers.SGD(),
    "sgd_momentum": lambda k: k.optimizers.SGD(0.1, momentum=0.9),
    "sgd_nesterov": lambda k: k.optimizers.SGD(0.1, momentum=0.5, nesterov=True),
    "sgd_nesterov_nomomentum": lambda k: k.optimizers.SGD(0.1, nesterov=True),
    "sgd_schedule": lambda k: k.optimizers.SGD(_exp()(k), momentum=0.3),
    "sgd_callable": lambda k: k.optimizers.SGD(lambda: 0.05),
    "sgd_clipnorm_0": lambda k: k.optimizers.SGD(0.1, clipnorm=0.0),
    "sgd_clipnorm_tiny": lambda k: k.optimizers.SGD(0.1, clipnorm=1e-6),
    "sgd_clipnorm": lambda k: k.optimizers.SGD(0.1, momentum=0.5, clipnorm=0.7),
    "sgd_clipvalue_0": lambda k: k.optimizers.SGD(0.1, clipvalue=0.0),
    "sgd_clipvalue_tiny": lambda k: k.optimizers.SGD(0.1, clipvalue=1e-6),
    "sgd_clipvalue": lambda k: k.optimizers.SGD(0.1, clipvalue=0.3),
    "sgd_global_clipnorm_0": lambda k: k.optimizers.SGD(0.1, global_clipnorm=0.0),
    "sgd_global_clipnorm_tiny": lambda k: k.optimizers.SGD(0.1, global_clipnorm=1e-6),
    "sgd_global_clipnorm": lambda k: k.optimizers.SGD(0.1, momentum=0.9, global_clipnorm=0.9),
    "sgd_weight_decay": lambda k: k.optimizers.SGD(0.1, weight_decay=0.1),
    "sgd_weight_decay_0": lambda k: k.optimizers.SGD(0.1, weight_decay=0.0),
    "sgd_ema": lambda k: k.optimizers.SGD(0.1, use_ema=True),
    "sgd_ema_overwrite": lambda k: k.optimizers.SGD(0.1, momentum=0.5, use_ema=True, ema_momentum=0.5,
                                                    ema_overwrite_frequency=2),
    "sgd_ema_overwrite_1": lambda k: k.optimizers.SGD(0.1, use_ema=True, ema_momentum=0.7,
                                                      ema_overwrite_frequency=1),
    "sgd_accumulate": lambda k: k.optimizers.SGD(0.1, momentum=0.9, gradient_accumulation_steps=2),
    "sgd_accumulate_3": lambda k: k.optimizers.SGD(0.1, gradient_accumulation_steps=3),
    "sgd_loss_scale": lambda k: k.optimizers.SGD(0.1, loss_scale_factor=4.0),
    # Adam
    "adam_default": lambda k: k.optimizers.Adam(),
    "adam_betas": lambda k: k.optimizers.Adam(0.01, beta_1=0.5, beta_2=0.75, epsilon=1e-3),
    "adam_beta1_0": lambda k: k.optimizers.Adam(0.01, beta_1=0.0),
    "adam_epsilon_0": lambda k: k.optimizers.Adam(0.01, epsilon=0.0),
    "adam_amsgrad": lambda k: k.optimizers.Adam(0.01, beta_2=0.5, amsgrad=True),
    "adam_weight_decay": lambda k: k.optimizers.Adam(0.01, weight_decay=0.5),
    "adam_schedule": lambda k: k.optimizers.Adam(_sched("PolynomialDecay", initial_learning_rate=0.1,
                                                        decay_steps=3, end_learning_rate=0.01, power=2.0)(k)),
    "adam_callable": lambda k: k.optimizers.Adam(lambda: 0.02, amsgrad=True),
    "adam_ema": lambda k: k.optimizers.Adam(0.01, use_ema=True, ema_momentum=0.9, ema_overwrite_frequency=3),
    "adam_accumulate": lambda k: k.optimizers.Adam(0.01, gradient_accumulation_steps=2),
    "adam_loss_scale": lambda k: k.optimizers.Adam(0.01, loss_scale_factor=128.0),
    "adam_clipvalue": lambda k: k.optimizers.Adam(0.01, clipvalue=0.5),
    # AdamW
    "adamw_default": lambda k: k.optimizers.AdamW(),
    "adamw_options": lambda k: k.optimizers.AdamW(0.05, weight_decay=0.3, beta_1=0.7, beta_2=0.9, epsilon=1e-4),
    "adamw_amsgrad": lambda k: k.optimizers.AdamW(0.01, weight_decay=0.1, amsgrad=True),
    "adamw_exclude": lambda k: _exclude(k.optimizers.AdamW(0.01, weight_decay=0.2)),   # (by "ias": a search)
    "adamw_schedule": lambda k: k.optimizers.AdamW(_sched("InverseTimeDecay", initial_learning_rate=0.1,
                                                          decay_steps=1, decay_rate=0.7)(k), weight_decay=0.1),
    # Adamax
    "adamax_default": lambda k: k.optimizers.Adamax(),
    "adamax_options": lambda k: k.optimizers.Adamax(0.05, beta_1=0.6, beta_2=0.8, epsilon=1e-2, weight_decay=0.1),
    # Adagrad
    "adagrad_default": lambda k: k.optimizers.Adagrad(),
    "adagrad_options": lambda k: k.optimizers.Adagrad(0.2, initial_accumulator_value=0.0, epsilon=1e-3),
    "adagrad_acc": lambda k: k.optimizers.Adagrad(0.2, initial_accumulator_value=2.5),
    # Adadelta
    "adadelta_default": lambda k: k.optimizers.Adadelta(),
    "adadelta_options": lambda k: k.optimizers.Adadelta(1.0, rho=0.5, epsilon=1e-3),
    # Adafactor
    "adafactor_default": lambda k: k.optimizers.Adafactor(),
    "adafactor_options": lambda k: k.optimizers.Adafactor(0.05, beta_2_decay=-0.5, epsilon_1=1e-20, epsilon_2=0.01,
                                                          clip_threshold=0.5, relative_step=False),
    "adafactor_relative": lambda k: k.optimizers.Adafactor(0.05, clip_threshold=2.0),
    # Ftrl
    "ftrl_default": lambda k: k.optimizers.Ftrl(),
    "ftrl_l1": lambda k: k.optimizers.Ftrl(0.1, l1_regularization_strength=0.05),
    "ftrl_l2": lambda k: k.optimizers.Ftrl(0.1, l2_regularization_strength=0.2, initial_accumulator_value=0.5),
    "ftrl_shrinkage": lambda k: k.optimizers.Ftrl(0.1, l2_shrinkage_regularization_strength=0.3, beta=0.5),
    "ftrl_power": lambda k: k.optimizers.Ftrl(0.1, learning_rate_power=-0.25, l1_regularization_strength=0.01,
                                              l2_regularization_strength=0.01, initial_accumulator_value=0.0),
    "ftrl_power_0": lambda k: k.optimizers.Ftrl(0.1, learning_rate_power=0.0, beta=0.2),
    # Lamb, Lion
    "lamb_default": lambda k: k.optimizers.Lamb(),
    "lamb_options": lambda k: k.optimizers.Lamb(0.05, beta_1=0.5, beta_2=0.8, epsilon=1e-3, weight_decay=0.1),
    "lion_default": lambda k: k.optimizers.Lion(),
    "lion_options": lambda k: k.optimizers.Lion(0.05, beta_1=0.5, beta_2=0.7, weight_decay=0.2),
    # Nadam
    "nadam_default": lambda k: k.optimizers.Nadam(),
    "nadam_options": lambda k: k.optimizers.Nadam(0.05, beta_1=0.6, beta_2=0.8, epsilon=1e-3),
    "nadam_schedule": lambda k: k.optimizers.Nadam(_sched("CosineDecay", initial_learning_rate=0.0,
                                                          decay_steps=4, warmup_target=0.1, warmup_steps=2)(k)),
    # RMSprop
    "rmsprop_default": lambda k: k.optimizers.RMSprop(),
    "rmsprop_rho": lambda k: k.optimizers.RMSprop(0.01, rho=0.5, epsilon=1e-3),
    "rmsprop_momentum": lambda k: k.optimizers.RMSprop(0.01, momentum=0.8),
    "rmsprop_centered": lambda k: k.optimizers.RMSprop(0.01, centered=True),
    "rmsprop_centered_momentum": lambda k: k.optimizers.RMSprop(0.01, rho=0.7, momentum=0.4, centered=True),
    # LossScaleOptimizer, Muon, ScheduleFreeAdamW
    "lso_sgd": lambda k: k.optimizers.LossScaleOptimizer(k.optimizers.SGD(0.1, momentum=0.5)),
    "lso_adam_growth": lambda k: k.optimizers.LossScaleOptimizer(k.optimizers.Adam(0.01), initial_scale=4.0,
                                                                 dynamic_growth_steps=2),
    "lso_sgd_ema": lambda k: k.optimizers.LossScaleOptimizer(k.optimizers.SGD(0.1, use_ema=True, ema_momentum=0.5),
                                                             initial_scale=2.0),
    "muon_default": lambda k: k.optimizers.Muon(),
    "muon_options": lambda k: k.optimizers.Muon(0.05, momentum=0.8, nesterov=False, ns_steps=2, weight_decay=0.1,
                                                adam_beta_1=0.5, adam_lr_ratio=0.5),
    "schedulefree_default": lambda k: k.optimizers.ScheduleFreeAdamW(),
    "schedulefree_options": lambda k: k.optimizers.ScheduleFreeAdamW(0.05, beta_1=0.5, weight_decay=0.1,
                                                                     warmup_steps=2),
    # a kernel constraint (applied after each update) with momentum, EMA and gradient accumulation
    "sgd_constraint": lambda k: k.optimizers.SGD(0.1, momentum=0.5),
    "adam_constraint_ema": lambda k: k.optimizers.Adam(0.05, use_ema=True, ema_momentum=0.5,
                                                       ema_overwrite_frequency=2),
    "adam_constraint_accumulate": lambda k: k.optimizers.Adam(0.05, gradient_accumulation_steps=2),
    # a variable with overwrite_with_gradient (it takes the gradient, the others the rule)
    "adam_overwrite": lambda k: k.optimizers.Adam(0.05),
    "sgd_overwrite_accumulate": lambda k: k.optimizers.SGD(0.1, momentum=0.5, gradient_accumulation_steps=2),
}
#: what the `*_constraint*` and `*_overwrite*` configurations set on their variables (kernel, bias) before the steps
SETUP: dict[str, Callable[[Any, list[Any]], None]] = {
    "sgd_constraint": lambda k, vs: setattr(vs[0], "constraint", k.constraints.NonNeg()),
    "adam_constraint_ema": lambda k, vs: setattr(vs[0], "constraint", k.constraints.MaxNorm(0.5, axis=0)),
    "adam_constraint_accumulate": lambda k, vs: setattr(vs[0], "constraint", k.constraints.NonNeg()),
    "adam_overwrite": lambda k, vs: setattr(vs[1], "overwrite_with_gradient", True),
    "sgd_overwrite_accumulate": lambda k, vs: setattr(vs[0], "overwrite_with_gradient", True),
}
HOST_DEPENDENT += [f"os-opt-{n}" for n in OPTIMIZERS
                   if re.search("clipnorm|lamb|adafactor|muon|lso|constraint_ema", n)]
HOST_DEPENDENT += ["os-dist-sgd_global_clipnorm", "os-dist-lso"]

#: the variable dtypes each optimizer is crossed with (float32 for all)
DTYPES: dict[str, tuple[str, ...]] = {n: ("float32",) for n in OPTIMIZERS}
for _n in ("sgd_momentum", "adam_default", "adam_amsgrad", "adamw_default", "adagrad_options", "adadelta_options",
           "ftrl_l1", "lion_options", "nadam_default", "rmsprop_centered_momentum", "adamax_default",
           "sgd_clipnorm", "adafactor_options"):
    DTYPES[_n] = ("float32", "float64", "float16")
STEPS = (1, 2, 5)


def _exclude(opt: Any) -> Any:
    opt.exclude_from_weight_decay(var_names=["ias"])
    return opt


def _unnumbered(name: str) -> str:
    return re.sub(r"_[0-9]+$", "", name) if name.startswith("variable") else name


def _nameless(c: Any) -> Any:
    """A config without its name (numbered by the process's earlier optimizers); a lambda's serialized code (its
    bytecode names the file and the Python version) as the classes of its parts."""
    if isinstance(c, dict) and c.get("class_name") == "__lambda__":
        return {"class_name": "__lambda__", "config": {k: [type(x).__name__ for x in v] if isinstance(v, list) else
                                                       type(v).__name__ for k, v in c["config"].items()}}
    if isinstance(c, dict):
        return {k: _nameless(v) for k, v in c.items() if k != "name"}
    return c


def _grads(name: str, dtype: str, step: int) -> list[np.ndarray]:
    """Gradients of the two variables at a step: normal values with a zero, a negative tiny and a large entry."""
    r = rng(f"{name}/g{step}")
    tiny, big = (np.float64(1e-6), np.float64(300.0)) if dtype == "float16" else (np.float64(1e-30),
                                                                                  np.float64(1e5))
    k = r.standard_normal((3, 2))
    b = r.standard_normal((3,)) * 0.5
    k[0, 0] = 0.0
    k[1, 1] = -tiny
    if step % 2 == 1:
        k[2, 0] = big * (1 if step % 4 == 1 else -1)
    b[1] = 0.0
    return [k.astype(dtype), b.astype(dtype)]


def _obs(opt: Any, vs: list[Any]) -> Any:
    it = opt.iterations
    lr = error(lambda: bits(opt.learning_rate))
    return {"vars": [bits(v) for v in vs],
            "slots": [[_unnumbered(v.name), str(v.dtype), list(v.shape), bits(v)] for v in opt.variables],
            "iterations": int(np.asarray(it.numpy() if hasattr(it, "numpy") else it)), "lr": lr}


def _opt_program(opt_name: str, dtype: str) -> Callable[[Any, Any], Any]:
    name = f"os-opt-{opt_name}-{dtype}"

    def prog(tf: Any, mk: Any) -> Any:
        k = tf.keras
        r = rng(name)
        vs = [k.Variable(r.standard_normal((3, 2)).astype(dtype), name="kernel"),
              k.Variable((r.standard_normal((3,)) * 0.3).astype(dtype), name="bias")]
        if opt_name in SETUP:
            SETUP[opt_name](k, vs)
        opt = OPTIMIZERS[opt_name](k)
        out: dict[str, Any] = {}
        for s in range(1, max(STEPS) + 1):
            gs = _grads(name, dtype, s)
            if opt_name.startswith("lso") and s == 3:
                gs[1][2] = np.inf   # a non-finite gradient: the step is skipped, the scale halved
            res = error(lambda: opt.apply_gradients([(tf.constant(g), v) for g, v in zip(gs, vs)]))
            if isinstance(res, str) and res.startswith("raised"):
                out[f"step{s}"] = res
                break
            if s in STEPS:
                out[f"step{s}"] = _obs(opt, vs)
        config = error(lambda: opt.get_config())
        out["config"] = _nameless(plain(config))
        if not isinstance(config, str):
            out["from_config"] = error(lambda: _nameless(plain(type(opt).from_config(config).get_config()))
                                       == _nameless(plain(config)))
        # a second build after the steps (Keras returns at once where the optimizer is built)
        out["rebuilt"] = error(lambda: (opt.build(vs), [[_unnumbered(v.name), bits(v)] for v in opt.variables])[1])
        # the learning rate set after the steps (a schedule's or a callable's: refused) and read back, then a schedule
        out["lr_set"] = error(lambda: (setattr(opt, "learning_rate", 0.25), bits(opt.learning_rate))[1])
        out["lr_schedule_set"] = error(lambda: (
            setattr(opt, "learning_rate", _exp()(k)), bits(opt.learning_rate),
            [_unnumbered(v.name) for v in opt.variables])[1:])
        if "ema" in opt_name:
            out["ema_finalized"] = error(lambda: (opt.finalize_variable_values(vs), [bits(v) for v in vs])[1])
        return out
    return prog


def _program(name: str, fn: Callable[[Any, Any], Any]) -> None:
    import fnmatch

    def run(tf: Any, mk: Any) -> Any:
        out = fn(tf, mk)
        for pat, key, _why in OPEN:
            if fnmatch.fnmatch(name, pat) and key in out:
                out[key] = "left out (OPEN)"
        return out
    REF.add(name, run)


# -- the learning-rate schedules ------------------------------------------------------------------------------
SCHEDULES: dict[str, Callable[[Any], Any]] = {
    "exp": _sched("ExponentialDecay", initial_learning_rate=0.1, decay_steps=3, decay_rate=0.96),
    "exp_staircase": _sched("ExponentialDecay", initial_learning_rate=0.1, decay_steps=3, decay_rate=0.5,
                            staircase=True),
    "exp_growth": _sched("ExponentialDecay", initial_learning_rate=0.01, decay_steps=7, decay_rate=1.5),
    "piecewise": _sched("PiecewiseConstantDecay", boundaries=[3, 10], values=[1.0, 0.5, 0.1]),
    "piecewise_one": _sched("PiecewiseConstantDecay", boundaries=[0], values=[0.3, 0.2]),
    "poly": _sched("PolynomialDecay", initial_learning_rate=0.1, decay_steps=10),
    "poly_power": _sched("PolynomialDecay", initial_learning_rate=0.1, decay_steps=10, end_learning_rate=0.01,
                         power=0.5),
    "poly_cycle": _sched("PolynomialDecay", initial_learning_rate=0.1, decay_steps=4, end_learning_rate=0.02,
                         power=2.0, cycle=True),
    "inverse": _sched("InverseTimeDecay", initial_learning_rate=0.1, decay_steps=3, decay_rate=0.5),
    "inverse_staircase": _sched("InverseTimeDecay", initial_learning_rate=0.1, decay_steps=3, decay_rate=0.7,
                                staircase=True),
    "cosine": _sched("CosineDecay", initial_learning_rate=0.1, decay_steps=10),
    "cosine_alpha": _sched("CosineDecay", initial_learning_rate=0.1, decay_steps=10, alpha=0.2),
    "cosine_warmup": _sched("CosineDecay", initial_learning_rate=0.01, decay_steps=10, warmup_target=0.1,
                            warmup_steps=4),
    "cosine_warmup_alpha": _sched("CosineDecay", initial_learning_rate=0.0, decay_steps=6, alpha=0.1,
                                  warmup_target=0.3, warmup_steps=3),
    "restarts": _sched("CosineDecayRestarts", initial_learning_rate=0.1, first_decay_steps=3),
    "restarts_options": _sched("CosineDecayRestarts", initial_learning_rate=0.1, first_decay_steps=3, t_mul=1.0,
                               m_mul=0.5, alpha=0.1),
    "restarts_tmul": _sched("CosineDecayRestarts", initial_learning_rate=0.1, first_decay_steps=2, t_mul=3.0,
                            m_mul=0.8, alpha=0.05),
}
#: steps: 0, 1, each schedule's boundaries and their neighbours (3, 4, 6, 9-11, 14, 15, 20), large steps
SCHED_STEPS = (0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 14, 15, 20, 27, 100, 12345, 1000000)


def _sched_program(sname: str) -> Callable[[Any, Any], Any]:
    def prog(tf: Any, mk: Any) -> Any:
        k = tf.keras
        s = SCHEDULES[sname](k)
        out: dict[str, Any] = {
            "int": [error(lambda: bits(s(n))) for n in SCHED_STEPS],
            "int64": [error(lambda: bits(s(tf.constant(n, tf.int64)))) for n in SCHED_STEPS[::3]],
            "int32": [error(lambda: bits(s(tf.constant(n, tf.int32)))) for n in SCHED_STEPS[1::3]],
            "float": [error(lambda: bits(s(tf.constant(n + 0.5, tf.float32)))) for n in SCHED_STEPS[:12:2]],
            "float64": [error(lambda: bits(s(tf.constant(float(n), tf.float64)))) for n in SCHED_STEPS[:8:3]],
        }
        config = s.get_config()
        out["config"] = plain(config)
        out["from_config"] = bits(type(s).from_config(config)(7))
        # inside an optimizer: the rate each step reads back
        v = k.Variable(np.zeros((2,), np.float32), name="v")
        opt = k.optimizers.SGD(SCHEDULES[sname](k))
        lrs = []
        for i in range(5):
            opt.apply_gradients([(tf.constant(np.array([1.0, -2.0], np.float32)), v)])
            lrs.append(bits(opt.learning_rate))
        out["in_optimizer"] = {"lr": lrs, "v": bits(v)}
        return out
    return prog


# -- sparse gradients: IndexedSlices with duplicate indices ------------------------------------------------------
SPARSE = ("sgd_momentum", "adam_default", "adam_amsgrad", "adamw_options", "adagrad_options", "adadelta_options",
          "ftrl_l1", "rmsprop_centered_momentum", "nadam_default", "adamax_default", "lion_options",
          "sgd_weight_decay", "sgd_clipvalue", "sgd_default")


def _sparse_program(opt_name: str) -> Callable[[Any, Any], Any]:
    name = f"os-sparse-{opt_name}"

    def prog(tf: Any, mk: Any) -> Any:
        k = tf.keras
        r = rng(name)
        v = k.Variable(r.standard_normal((5, 2)).astype(np.float32), name="table")
        opt = OPTIMIZERS[opt_name](k)
        out: dict[str, Any] = {}
        for s in range(1, 4):
            vals = r.standard_normal((4, 2)).astype(np.float32)
            g = tf.IndexedSlices(tf.constant(vals), tf.constant([3, 0, 3, 1], tf.int64), tf.constant([5, 2]))
            res = error(lambda: opt.apply_gradients([(g, v)]))
            out[f"step{s}"] = res if isinstance(res, str) else _obs(opt, [v])
        return out
    return prog


# -- MirroredStrategy: one replica-aggregated apply per optimizer family ---------------------------------------
DIST = ("sgd_nesterov", "adam_amsgrad", "adamw_default", "adagrad_options", "adadelta_options", "adamax_default",
        "ftrl_shrinkage", "lion_options", "nadam_default", "rmsprop_centered_momentum", "sgd_global_clipnorm",
        "lso_sgd", "sgd_ema_overwrite", "sgd_accumulate")
DIST_NONE = ("sgd_momentum", "adam_default")


def _dist_program(opt_name: str, none_first: bool = False) -> Callable[[Any, Any], Any]:
    """none_first: the kernel's gradient is None (Keras warns and leaves it out; the bias's still all-reduced)."""
    name = f"os-dist-none-{opt_name}" if none_first else f"os-dist-{opt_name}"

    def prog(tf: Any, mk: Any) -> Any:
        k = tf.keras
        r = rng(name)
        st = mk()
        with st.scope():
            vs = [k.Variable(r.standard_normal((3, 2)).astype(np.float32), name="kernel"),
                  k.Variable((r.standard_normal((3,)) * 0.3).astype(np.float32), name="bias")]
            opt = OPTIMIZERS[opt_name](k)
            opt.build(vs)
        out: dict[str, Any] = {}
        for s in range(1, 3):
            gs = _grads(name, "float32", s)

            @tf.function
            def train() -> None:
                def fn() -> None:
                    c = tf.distribute.get_replica_context()
                    f = tf.cast(c.replica_id_in_sync_group, tf.float32) * 2.0 - 0.5
                    opt.apply_gradients([(None if none_first and i == 0 else tf.constant(g) * f, v)
                                         for i, (g, v) in enumerate(zip(gs, vs))])
                st.run(fn)
            res = error(lambda: (train(), "ok")[1])
            if res != "ok":
                out[f"step{s}"] = res
                break
            out[f"step{s}"] = _obs(opt, vs)
            out[f"replicas{s}"] = [[bits(c) for c in st.experimental_local_results(w)] for w in vs]
        return out
    return prog


REF = RecordedPrograms(PATH, tuple(HOST_DEPENDENT), recording_host=avx512_with_onednn, recording_cpu=reference_cpu)

for _o in OPTIMIZERS:
    for _d in DTYPES[_o]:
        _program(f"os-opt-{_o}-{_d}", _opt_program(_o, _d))
for _s in SCHEDULES:
    _program(f"os-sched-{_s}", _sched_program(_s))
for _o in SPARSE:
    _program(f"os-sparse-{_o}", _sparse_program(_o))
for _o in DIST:
    _program(f"os-dist-{_o}", _dist_program(_o))
for _o in DIST_NONE:
    _program(f"os-dist-none-{_o}", _dist_program(_o, none_first=True))
