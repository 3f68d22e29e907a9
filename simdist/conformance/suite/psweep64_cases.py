"""psweep64's programs: Python-number options and scalar operands in float64, float16 and bfloat16 programs (float32 the
control), each API crossed with its Python options at non-dyadic values (0.1, 0.3, 1/3, 1e-7, 0.9, 0.999) and
inputs at and one ulp around them. A Python scalar is weakly typed in Keras 3 (it takes the other operand's dtype
exactly) while tf's convert_to_tensor makes a Python float float32 unless a dtype is given: where each API converts
decides the bits. Values by their raw bits (a NaN's payload included) and dtypes; refusals by class."""

from __future__ import annotations

import os
from typing import Any, Callable

import numpy as np

from simdist.conformance.suite.recorded_programs import (RecordedPrograms, avx512_with_onednn, error as _error,
                                                         reference_cpu, rng as _rng)

PATH = os.path.join(os.path.dirname(__file__), "psweep64_reference.json.gz")

#: programs whose TF 2.21 bits may follow the CPU's kernels (clause ops.host-cpu): exp, log, tanh, sqrt in half
HOST_DEPENDENT = ("pk-",)

REF = RecordedPrograms(PATH, HOST_DEPENDENT, recording_host=avx512_with_onednn, recording_cpu=reference_cpu)

DTYPES = ("float64", "float16", "bfloat16", "float32")
OPTIONS = (0.1, 0.3, 1 / 3, 1e-7, 0.9, 0.999)


def raw(t: Any) -> list:
    """A tensor's dtype and values as bit patterns (bfloat16 as its 16 bits; a NaN's payload included)."""
    a = np.asarray(t.numpy() if hasattr(t, "numpy") else t)
    name = a.dtype.name
    if name == "bfloat16":
        return [name, (a.astype(np.float32).view(np.uint32) >> np.uint32(16)).ravel().tolist()]
    if a.dtype.kind in "fc":
        return [name, a.view(f"u{a.dtype.itemsize}").ravel().tolist()]
    return [name, a.ravel().tolist()]


def edges(dt: str, r: Any, n: int = 11, lo: float = -2.0, hi: float = 2.0) -> np.ndarray:
    """n random values in [lo, hi) then the options, their negatives and each one's neighbours one ulp away in the
    dtype (bfloat16's through float32), as float64 values exactly representable in `dt`."""
    base = r.uniform(lo, hi, n)
    opts = np.array([0.1, 0.3, 1 / 3, 0.9, 0.0, 1.0])
    vals = np.concatenate([base, opts, -opts])
    if dt == "bfloat16":
        import ml_dtypes
        q = vals.astype(ml_dtypes.bfloat16)
        f = q.astype(np.float32).view(np.uint32)
        up = (f + np.uint32(0x10000)).view(np.float32)
        dn = (f - np.uint32(0x10000)).view(np.float32)
        near = np.concatenate([up[n:n + 4], dn[n:n + 4]]).astype(np.float64)
        return np.concatenate([q.astype(np.float64), near])
    q = vals.astype(dt)
    near = np.concatenate([np.nextafter(q[n:n + 4], np.array(9, dt)), np.nextafter(q[n:n + 4], np.array(-9, dt))])
    return np.concatenate([q, near]).astype(np.float64)


def const(tf: Any, a: np.ndarray, dt: str) -> Any:
    """`a` (float64 values exact in dt) as a tensor of dt (bfloat16 through an exact float32 cast)."""
    if dt == "bfloat16":
        return tf.cast(tf.constant(np.asarray(a, np.float32)), tf.bfloat16)
    return tf.constant(np.asarray(a, dt))


def run_all(out: dict, key: str, fn: Callable[[], Any]) -> None:
    out[key] = _error(fn)


# -- 1. keras.layers whose Python options enter arithmetic -------------------------------------------------------------
def _layers_options(tf: Any, mk: Any) -> Any:
    """LeakyReLU, ELU, ReLU's three options, PReLU's Constant init, Rescaling, Normalization from Python mean and
    variance, the normalization layers' epsilons, UnitNormalization, Softmax with a mask, GaussianNoise and
    GaussianDropout (inference), a float64 Dense with a Python MaxNorm constraint after a step: in each dtype policy,
    the output's dtype and bits (and the input gradient's where the layer is differentiable)."""
    keras = tf.keras
    L = keras.layers
    out: dict[str, Any] = {}
    for dt in DTYPES:
        r = _rng(f"layers-{dt}")
        x = edges(dt, r)
        x2 = np.concatenate([x, x[::-1]])[:24].reshape(4, 6)
        layers: dict[str, Callable[[], Any]] = {
            "LeakyReLU 0.1": lambda: L.LeakyReLU(negative_slope=0.1, dtype=dt),
            "LeakyReLU 0.3": lambda: L.LeakyReLU(negative_slope=0.3, dtype=dt),
            "ReLU options": lambda: L.ReLU(max_value=0.9, negative_slope=0.3, threshold=0.1, dtype=dt),
            "ReLU max 1/3": lambda: L.ReLU(max_value=1 / 3, dtype=dt),
            "ReLU threshold 0.3": lambda: L.ReLU(threshold=0.3, dtype=dt),
            "PReLU 0.1": lambda: L.PReLU(alpha_initializer=keras.initializers.Constant(0.1), dtype=dt),
            "Rescaling 1/3 0.1": lambda: L.Rescaling(1 / 3, offset=0.1, dtype=dt),
            "Rescaling 0.1": lambda: L.Rescaling(0.1, dtype=dt),
            "Normalization 0.1 0.3": lambda: L.Normalization(mean=0.1, variance=0.3, dtype=dt),
            "Normalization invert": lambda: L.Normalization(mean=1 / 3, variance=0.9, invert=True, dtype=dt),
            "GaussianNoise inference": lambda: L.GaussianNoise(0.3, seed=3, dtype=dt),
            "GaussianDropout inference": lambda: L.GaussianDropout(0.3, seed=3, dtype=dt),
            "Dropout inference": lambda: L.Dropout(0.3, seed=3, dtype=dt),
        }
        for name, make in layers.items():
            def call(make: Callable[[], Any] = make) -> Any:
                layer = make()
                xt = const(tf, x, dt)
                with tf.GradientTape() as tape:
                    tape.watch(xt)
                    y = layer(xt)
                    s = tf.reduce_sum(y * tf.cast(tf.range(y.shape[-1]) % 3 + 1, y.dtype))
                g = tape.gradient(s, xt)
                return [raw(y), None if g is None else raw(g)]
            run_all(out, f"{name} {dt}", call)
        mask = np.array([[1, 1, 0, 1, 0, 1]] * 4, bool)
        run_all(out, f"Softmax mask {dt}", lambda: raw(L.Softmax(dtype=dt)(const(tf, x2, dt), mask=mask)))
        run_all(out, f"UnitNormalization {dt}", lambda: raw(L.UnitNormalization(dtype=dt)(const(tf, x2, dt))))
        for eps in (1e-7, 0.3):
            run_all(out, f"LayerNormalization eps={eps} {dt}",
                    lambda eps=eps: raw(L.LayerNormalization(epsilon=eps, dtype=dt)(const(tf, x2, dt))))
            run_all(out, f"LayerNormalization rms eps={eps} {dt}", lambda eps=eps: raw(
                L.LayerNormalization(epsilon=eps, rms_scaling=True, dtype=dt)(const(tf, x2, dt))))
            run_all(out, f"GroupNormalization eps={eps} {dt}",
                    lambda eps=eps: raw(L.GroupNormalization(groups=2, epsilon=eps, dtype=dt)(const(tf, x2, dt))))
            run_all(out, f"RMSNormalization eps={eps} {dt}",
                    lambda eps=eps: raw(L.RMSNormalization(epsilon=eps, dtype=dt)(const(tf, x2, dt))))
        for mom, eps in ((0.9, 1e-7), (0.999, 0.3), (1 / 3, 1e-3)):
            def bn(mom: float = mom, eps: float = eps) -> Any:
                layer = L.BatchNormalization(momentum=mom, epsilon=eps, dtype=dt)
                y_train = layer(const(tf, x2, dt), training=True)
                y_train2 = layer(const(tf, x2[::-1] * 0.5, dt), training=True)
                y_inf = layer(const(tf, x2, dt), training=False)
                return [raw(y_train), raw(y_train2), raw(y_inf), raw(layer.moving_mean), raw(layer.moving_variance)]
            run_all(out, f"BatchNormalization mom={mom} eps={eps} {dt}", bn)

        def dense() -> Any:
            layer = L.Dense(3, dtype=dt, kernel_initializer=keras.initializers.Constant(1 / 3),
                            bias_initializer=keras.initializers.Constant(0.1),
                            kernel_constraint=keras.constraints.MaxNorm(0.9),
                            bias_constraint=keras.constraints.NonNeg())
            y = layer(const(tf, x2, dt))
            opt = keras.optimizers.SGD(0.1)
            with tf.GradientTape() as tape:
                loss = tf.reduce_sum(layer(const(tf, x2, dt)) * 0.3)
            opt.apply_gradients(zip(tape.gradient(loss, layer.trainable_variables), layer.trainable_variables))
            return [raw(y), raw(layer.kernel), raw(layer.bias)]
        run_all(out, f"Dense constraints step {dt}", dense)
    return out


# -- 2. keras.losses' Python options -------------------------------------------------------------------------------------
def _losses_options(tf: Any, mk: Any) -> Any:
    """Huber delta, LogCosh, binary and categorical crossentropy label_smoothing (probabilities and logits),
    Tversky alpha/beta, Dice, the focal losses' alpha/gamma (and class balancing), MSLE, KLD, Poisson, Hinge: the
    loss classes with their default dtype and with dtype=dt, and the loss functions, on inputs of each dtype."""
    keras = tf.keras
    Ls = keras.losses
    out: dict[str, Any] = {}
    for dt in DTYPES:
        r = _rng(f"losses-{dt}")
        yt = (r.uniform(size=(4, 5)) < 0.5).astype(np.float64)
        yp = np.clip(r.uniform(0.05, 0.95, (4, 5)), 0, 1)
        yp[0, :4] = [0.1, 0.3, 1 / 3, 0.9]
        if dt == "bfloat16":
            import ml_dtypes
            yp = yp.astype(ml_dtypes.bfloat16).astype(np.float64)
        else:
            yp = yp.astype(dt).astype(np.float64)
        logits = (yp - 0.5) * 6
        losses: dict[str, Callable[..., Any]] = {
            "Huber 0.3": lambda **k: Ls.Huber(delta=0.3, **k),
            "Huber 1/3": lambda **k: Ls.Huber(delta=1 / 3, **k),
            "LogCosh": lambda **k: Ls.LogCosh(**k),
            "BCE ls=0.1": lambda **k: Ls.BinaryCrossentropy(label_smoothing=0.1, **k),
            "BCE logits ls=0.3": lambda **k: Ls.BinaryCrossentropy(from_logits=True, label_smoothing=0.3, **k),
            "CCE ls=0.1": lambda **k: Ls.CategoricalCrossentropy(label_smoothing=0.1, **k),
            "CCE logits ls=1/3": lambda **k: Ls.CategoricalCrossentropy(from_logits=True, label_smoothing=1 / 3, **k),
            "Tversky 0.3 0.7": lambda **k: Ls.Tversky(alpha=0.3, beta=0.7, **k),
            "Dice": lambda **k: Ls.Dice(**k),
            "CategoricalFocal 0.3 1.5": lambda **k: Ls.CategoricalFocalCrossentropy(alpha=0.3, gamma=1.5, **k),
            "BinaryFocal balanced 0.3 1.5 ls=0.1": lambda **k: Ls.BinaryFocalCrossentropy(
                apply_class_balancing=True, alpha=0.3, gamma=1.5, label_smoothing=0.1, **k),
            "BinaryFocal 0.9 logits": lambda **k: Ls.BinaryFocalCrossentropy(gamma=0.9, from_logits=True, **k),
            "MSLE": lambda **k: Ls.MeanSquaredLogarithmicError(**k),
            "KLD": lambda **k: Ls.KLDivergence(**k),
            "Poisson": lambda **k: Ls.Poisson(**k),
            "SquaredHinge": lambda **k: Ls.SquaredHinge(**k),
            "MAPE": lambda **k: Ls.MeanAbsolutePercentageError(**k),
        }
        for name, make in losses.items():
            src = logits if "logits" in name else yp
            for label, kw in (("default", {}), ("dtype", {"dtype": dt}), ("none", {"dtype": dt, "reduction": None})):
                run_all(out, f"{name} {label} {dt}", lambda make=make, src=src, kw=kw: raw(
                    make(**kw)(const(tf, yt, dt), const(tf, src, dt))))
        fns = {
            "huber fn 0.3": lambda a, b: Ls.huber(a, b, delta=0.3),
            "bce fn ls=0.1": lambda a, b: Ls.binary_crossentropy(a, b, label_smoothing=0.1),
            "cce fn ls=0.1": lambda a, b: Ls.categorical_crossentropy(a, b, label_smoothing=0.1),
            "tversky fn": lambda a, b: Ls.tversky(a, b, alpha=0.3, beta=0.7),
            "focal fn": lambda a, b: Ls.binary_focal_crossentropy(a, b, apply_class_balancing=True, alpha=0.3,
                                                                  gamma=1.5),
            "log_cosh fn": lambda a, b: Ls.log_cosh(a, b),
        }
        for name, f in fns.items():
            run_all(out, f"{name} {dt}", lambda f=f: raw(f(const(tf, yt, dt), const(tf, yp, dt))))
    return out


# -- 3. keras.optimizers' Python hyperparameters on float64 and float16 variables ----------------------------------
def _optimizers(tf: Any, mk: Any) -> Any:
    """Every Keras optimizer with non-dyadic Python hyperparameters (learning_rate, betas, epsilon, rho, momentum,
    weight_decay, clipnorm/clipvalue/global_clipnorm, amsgrad, nesterov) applied three steps to a float64, float16,
    bfloat16 and float32 variable with fixed gradients: the variable's bits after each step."""
    keras = tf.keras
    O = keras.optimizers
    out: dict[str, Any] = {}
    makers: dict[str, Callable[[], Any]] = {
        "SGD": lambda: O.SGD(0.1),
        "SGD momentum nesterov": lambda: O.SGD(0.1, momentum=0.9, nesterov=True),
        "SGD momentum": lambda: O.SGD(1 / 3, momentum=0.3),
        "Adam": lambda: O.Adam(1e-3, beta_1=0.9, beta_2=0.999, epsilon=1e-7),
        "Adam amsgrad": lambda: O.Adam(0.1, beta_1=0.3, beta_2=0.9, epsilon=0.1, amsgrad=True),
        "AdamW": lambda: O.AdamW(0.1, weight_decay=0.004, beta_1=0.9, beta_2=0.999, epsilon=1e-7),
        "RMSprop": lambda: O.RMSprop(0.1, rho=0.9, momentum=0.3, epsilon=1e-7),
        "RMSprop centered": lambda: O.RMSprop(0.1, rho=1 / 3, centered=True, epsilon=0.1),
        "Adagrad": lambda: O.Adagrad(0.1, initial_accumulator_value=0.1, epsilon=1e-7),
        "Adadelta": lambda: O.Adadelta(0.1, rho=0.9, epsilon=1e-7),
        "Adamax": lambda: O.Adamax(0.1, beta_1=0.9, beta_2=0.999, epsilon=1e-7),
        "Nadam": lambda: O.Nadam(0.1, beta_1=0.9, beta_2=0.999, epsilon=1e-7),
        "Ftrl": lambda: O.Ftrl(0.1, l1_regularization_strength=0.1, l2_regularization_strength=0.3,
                               l2_shrinkage_regularization_strength=0.1, beta=0.1),
        "Lion": lambda: O.Lion(0.1, beta_1=0.9, beta_2=0.99),
        "Lamb": lambda: O.Lamb(0.1, beta_1=0.9, beta_2=0.999, epsilon=1e-7),
        "Adafactor": lambda: O.Adafactor(0.1, beta_2_decay=-0.8, epsilon_1=1e-30, epsilon_2=1e-3,
                                         clip_threshold=1.0),
        "SGD weight_decay": lambda: O.SGD(0.1, weight_decay=0.3),
        "SGD clipnorm": lambda: O.SGD(0.1, clipnorm=0.3),
        "SGD clipvalue": lambda: O.SGD(0.1, clipvalue=0.3),
        "SGD global_clipnorm": lambda: O.SGD(0.1, global_clipnorm=1 / 3),
        "Adam clipnorm": lambda: O.Adam(0.1, clipnorm=0.9),
    }
    for dt in DTYPES:
        r = _rng(f"optimizers-{dt}")
        w0 = edges(dt, r, n=5)[:12].reshape(3, 4)
        grads = [edges(dt, r, n=5)[:12].reshape(3, 4) * s for s in (1.0, -0.5, 0.3)]
        for name, make in makers.items():
            def steps(make: Callable[[], Any] = make) -> Any:
                opt = make()
                v = keras.Variable(w0.astype(np.float32) if dt == "bfloat16" else w0.astype(dt), dtype=dt)
                res = []
                for g in grads:
                    opt.apply_gradients([(const(tf, g, dt), v)])
                    res.append(raw(v.value))
                return res
            run_all(out, f"{name} {dt}", steps)
    return out


# -- 4. LR schedules' Python parameters, regularizers, constraints, initializers ------------------------------------
def _schedules_regularizers(tf: Any, mk: Any) -> Any:
    """keras.optimizers.schedules with non-dyadic Python parameters at Python int, int64 and float64 steps; L1, L2,
    L1L2 and Orthogonal regularizers' added losses on float64/float16/bfloat16 weights (called alone and through a
    layer's losses); MaxNorm, MinMaxNorm (rate), NonNeg and UnitNorm on each dtype; the initializers' Python
    parameters in each dtype: every result's dtype and bits."""
    keras = tf.keras
    S = keras.optimizers.schedules
    out: dict[str, Any] = {}
    scheds = {
        "ExponentialDecay": lambda: S.ExponentialDecay(0.1, 3, 0.9),
        "ExponentialDecay staircase": lambda: S.ExponentialDecay(1 / 3, 3, 0.999, staircase=True),
        "PiecewiseConstantDecay": lambda: S.PiecewiseConstantDecay([2, 5], [0.1, 0.3, 1 / 3]),
        "PolynomialDecay": lambda: S.PolynomialDecay(0.1, 7, 1e-7, power=0.3),
        "PolynomialDecay cycle": lambda: S.PolynomialDecay(0.1, 3, 0.9, power=1 / 3, cycle=True),
        "InverseTimeDecay": lambda: S.InverseTimeDecay(0.1, 3, 0.3),
        "CosineDecay": lambda: S.CosineDecay(0.1, 7, alpha=0.3, warmup_target=0.9, warmup_steps=2),
        "CosineDecayRestarts": lambda: S.CosineDecayRestarts(0.1, 3, t_mul=1.5, m_mul=0.9, alpha=0.1),
    }
    for name, make in scheds.items():
        for step in (0, 1, 2, 4, 6, 9):
            for label, conv in (("int", lambda s: s), ("int64", lambda s: tf.constant(s, tf.int64)),
                                ("float64", lambda s: tf.constant(s + 0.3, tf.float64))):
                run_all(out, f"{name} {label} step {step}", lambda make=make, step=step, conv=conv: raw(
                    tf.convert_to_tensor(make()(conv(step)))))
    R = keras.regularizers
    C = keras.constraints
    regs = {"L1 0.1": lambda: R.L1(0.1), "L2 0.3": lambda: R.L2(0.3), "L1L2 1/3 0.9": lambda: R.L1L2(1 / 3, 0.9),
            "Orthogonal 0.1": lambda: R.OrthogonalRegularizer(0.1), "Orthogonal rows": lambda: R.OrthogonalRegularizer(
                0.3, mode="columns")}
    cons = {"MaxNorm 0.9": lambda: C.MaxNorm(0.9), "MaxNorm 1/3 axis 1": lambda: C.MaxNorm(1 / 3, axis=1),
            "MinMaxNorm": lambda: C.MinMaxNorm(0.1, 0.9, rate=0.3), "NonNeg": lambda: C.NonNeg(),
            "UnitNorm": lambda: C.UnitNorm()}
    for dt in DTYPES:
        r = _rng(f"reg-{dt}")
        w = edges(dt, r, n=8)[:20].reshape(5, 4)
        for name, make in regs.items():
            run_all(out, f"{name} {dt}", lambda make=make: raw(make()(const(tf, w, dt))))

            def via_layer(make: Callable[[], Any] = make) -> Any:
                layer = keras.layers.Dense(4, dtype=dt, kernel_initializer=keras.initializers.Constant(1 / 3),
                                           kernel_regularizer=make(), bias_regularizer=make())
                layer.build((None, 5))
                return [raw(x) for x in layer.losses]
            run_all(out, f"{name} layer {dt}", via_layer)
        for name, make in cons.items():
            run_all(out, f"{name} {dt}", lambda make=make: raw(make()(const(tf, w, dt))))
        I = keras.initializers
        inits = {"Constant 0.1": lambda: I.Constant(0.1), "Constant 1/3": lambda: I.Constant(1 / 3),
                 "RandomUniform": lambda: I.RandomUniform(-0.1, 0.3, seed=5),
                 "RandomNormal": lambda: I.RandomNormal(0.1, 0.3, seed=5),
                 "TruncatedNormal": lambda: I.TruncatedNormal(0.1, 1 / 3, seed=5),
                 "VarianceScaling": lambda: I.VarianceScaling(scale=1 / 3, seed=5),
                 "VarianceScaling uniform": lambda: I.VarianceScaling(0.3, "fan_avg", "uniform", seed=5),
                 "GlorotUniform": lambda: I.GlorotUniform(seed=5),
                 "Orthogonal": lambda: I.Orthogonal(gain=0.3, seed=5),
                 "Identity": lambda: I.Identity(gain=0.1)}
        for name, make in inits.items():
            run_all(out, f"init {name} {dt}", lambda make=make: raw(make()((4, 3), dtype=dt)))
    return out


# -- 5. keras.ops with a Python scalar operand, both orders -------------------------------------------------------------
def _keras_ops_scalars(tf: Any, mk: Any) -> Any:
    """keras.ops binary functions with a Python float (and int) operand on either side of a tensor of each dtype (and
    int32): the result's dtype and bits. Keras's dtype rule makes a Python float weak: it takes a float tensor's
    dtype exactly (an int tensor's result is floatx)."""
    ops = tf.keras.ops
    out: dict[str, Any] = {}
    fns = {"add": ops.add, "subtract": ops.subtract, "multiply": ops.multiply, "divide": ops.divide,
           "true_divide": ops.true_divide, "power": ops.power, "maximum": ops.maximum, "minimum": ops.minimum,
           "logaddexp": ops.logaddexp, "arctan2": ops.arctan2, "mod": ops.mod, "floor_divide": ops.floor_divide}
    for dt in DTYPES + ("int32",):
        r = _rng(f"kops-{dt}")
        if dt == "int32":
            x = tf.constant(np.array([-3, -1, 0, 1, 2, 5, 7], np.int32))
        else:
            x = const(tf, np.abs(edges(dt, r, n=5)) + (0.0 if dt != "float16" else 0.0), dt)
        for s in (0.1, 1 / 3, 1e-7, 0.9, 3):
            for name, f in fns.items():
                run_all(out, f"{name} x,{s} {dt}", lambda f=f, s=s: raw(f(x, s)))
                run_all(out, f"{name} {s},x {dt}", lambda f=f, s=s: raw(f(s, x)))
            run_all(out, f"clip {s} {dt}", lambda s=s: raw(ops.clip(x, s, 0.999)))
            run_all(out, f"where {s} {dt}", lambda s=s: raw(ops.where(x > 0.3, x, s)))
            run_all(out, f"where2 {s} {dt}", lambda s=s: raw(ops.where(x > 0.3, s, x)))
            run_all(out, f"full_like {s} {dt}", lambda s=s: raw(ops.full_like(x, s)))
    return out


# -- 6. tf ops with Python scalars (convert_to_tensor's rules) ------------------------------------------------------
def _tf_ops_scalars(tf: Any, mk: Any) -> Any:
    """tf.nn.leaky_relu alpha, clip_by_value, maximum/minimum with a Python float, the operators with a Python float
    either side, tf.math.pow, tf.nn.dropout's rate (seeded), batch_normalization's variance_epsilon, l2_normalize's
    epsilon, the tf.image adjust functions' factors, on tensors of each dtype: dtype and bits or the refusal's class."""
    out: dict[str, Any] = {}
    for dt in DTYPES:
        r = _rng(f"tfops-{dt}")
        xa = edges(dt, r, n=9)
        x = const(tf, xa, dt)
        for s in (0.1, 1 / 3, 1e-7, 0.9):
            run_all(out, f"leaky_relu {s} {dt}", lambda s=s: raw(tf.nn.leaky_relu(x, alpha=s)))
            run_all(out, f"clip_by_value {s} {dt}", lambda s=s: raw(tf.clip_by_value(x, -s, s)))
            run_all(out, f"maximum {s} {dt}", lambda s=s: raw(tf.maximum(x, s)))
            run_all(out, f"minimum {s},x {dt}", lambda s=s: raw(tf.minimum(s, x)))
            run_all(out, f"x*{s} {dt}", lambda s=s: raw(x * s))
            run_all(out, f"{s}*x {dt}", lambda s=s: raw(s * x))
            run_all(out, f"x/{s} {dt}", lambda s=s: raw(x / s))
            run_all(out, f"{s}/x {dt}", lambda s=s: raw(s / x))
            run_all(out, f"x-{s} {dt}", lambda s=s: raw(x - s))
            run_all(out, f"{s}-x {dt}", lambda s=s: raw(s - x))
            run_all(out, f"pow |x|,{s} {dt}", lambda s=s: raw(tf.math.pow(tf.abs(x), s)))
            run_all(out, f"pow {s},x {dt}", lambda s=s: raw(tf.math.pow(s, x)))
            run_all(out, f"l2_normalize eps={s} {dt}", lambda s=s: raw(tf.nn.l2_normalize(x[:8], epsilon=s)))
            run_all(out, f"batch_normalization eps={s} {dt}", lambda s=s: raw(
                tf.nn.batch_normalization(x, 0.1, 0.3, 1 / 3, 0.9, variance_epsilon=s)))
            run_all(out, f"x>{s} {dt}", lambda s=s: raw(x > s))
        for rate in (0.1, 0.3, 1 / 3):
            def drop(rate: float = rate) -> Any:
                tf.random.set_seed(7)
                return raw(tf.nn.dropout(x, rate=rate, seed=3))
            run_all(out, f"dropout {rate} {dt}", drop)
        img = const(tf, np.abs(np.resize(xa, 2 * 3 * 3 * 3)).reshape(2, 3, 3, 3) % 1.0, dt)
        run_all(out, f"adjust_brightness {dt}", lambda: raw(tf.image.adjust_brightness(img, 0.1)))
        run_all(out, f"adjust_contrast {dt}", lambda: raw(tf.image.adjust_contrast(img, 0.3)))
        run_all(out, f"adjust_gamma {dt}", lambda: raw(tf.image.adjust_gamma(img, gamma=0.9, gain=1 / 3)))
        run_all(out, f"adjust_saturation {dt}", lambda: raw(tf.image.adjust_saturation(img, 0.3)))
        run_all(out, f"adjust_hue {dt}", lambda: raw(tf.image.adjust_hue(img, 0.1)))
    return out


PROGRAMS: dict[str, Callable[[Any, Any], Any]] = {
    "pk-layers-options": _layers_options,
    "pk-losses-options": _losses_options,
    "pk-optimizers-hyperparameters": _optimizers,
    "pk-schedules-regularizers-constraints-initializers": _schedules_regularizers,
    "pk-keras-ops-python-scalars": _keras_ops_scalars,
    "pk-tf-ops-python-scalars": _tf_ops_scalars,
}
for _name, _fn in PROGRAMS.items():
    REF.add(_name, _fn)


# -- 7. training-mode noise, attention scales, renorm and EMA: Python numbers inside layers and optimizers -----------
def _training_numbers(tf: Any, mk: Any) -> Any:
    """Dropout, GaussianDropout, GaussianNoise, AlphaDropout and SpatialDropout1D in training with a seed and a
    non-dyadic rate; MultiHeadAttention (key_dim 3: 1/sqrt(3)), Attention (scaled, concat), AdditiveAttention and
    GroupQueryAttention; BatchNormalization with renorm; an SGD with use_ema (ema_momentum 0.9) and an optimizer with
    loss-scale-free gradient accumulation: in each dtype policy, outputs and variables by their bits."""
    keras = tf.keras
    L = keras.layers
    I = keras.initializers
    out: dict[str, Any] = {}
    for dt in DTYPES:
        r = _rng(f"training-{dt}")
        x = edges(dt, r, n=17)[:36].reshape(2, 6, 3)
        for name, make in {
            "Dropout": lambda: L.Dropout(0.3, seed=11, dtype=dt),
            "Dropout 1/3": lambda: L.Dropout(1 / 3, seed=11, dtype=dt),
            "GaussianDropout": lambda: L.GaussianDropout(0.3, seed=11, dtype=dt),
            "GaussianNoise": lambda: L.GaussianNoise(0.1, seed=11, dtype=dt),
            "AlphaDropout": lambda: L.AlphaDropout(0.3, seed=11, dtype=dt),
            "SpatialDropout1D": lambda: L.SpatialDropout1D(0.3, seed=11, dtype=dt),
        }.items():
            run_all(out, f"{name} training {dt}", lambda make=make: raw(make()(const(tf, x, dt), training=True)))
        ki = lambda: I.RandomUniform(-0.5, 0.5, seed=3)  # noqa: E731
        run_all(out, f"MultiHeadAttention {dt}", lambda: raw(L.MultiHeadAttention(
            2, 3, kernel_initializer=ki(), bias_initializer=I.Constant(0.1), dtype=dt)(
                const(tf, x, dt), const(tf, x[:, ::-1], dt))))
        run_all(out, f"GroupQueryAttention {dt}", lambda: raw(L.GroupQueryAttention(
            3, 2, 1, kernel_initializer=ki(), bias_initializer=I.Constant(0.1), dtype=dt)(
                const(tf, x, dt), const(tf, x[:, ::-1], dt))))
        for label, make in {"Attention": lambda: L.Attention(dtype=dt),
                            "Attention concat": lambda: L.Attention(score_mode="concat", dtype=dt),
                            "AdditiveAttention": lambda: L.AdditiveAttention(dtype=dt)}.items():
            def att(make: Callable[[], Any] = make) -> Any:
                layer = make()
                q, v = const(tf, x, dt), const(tf, x[:, ::-1] * 0.5, dt)
                layer.build([q.shape, v.shape])
                for w in layer.weights:
                    w.assign(np.full(w.shape, 0.3))
                return raw(layer([q, v], use_causal_mask=True))
            run_all(out, f"{label} {dt}", att)

        def renorm() -> Any:
            layer = L.BatchNormalization(renorm=True, renorm_momentum=0.9, momentum=0.9, epsilon=0.1,
                                         renorm_clipping={"rmax": 1.5, "rmin": 1 / 3, "dmax": 0.3}, dtype=dt)
            y1 = layer(const(tf, x, dt), training=True)
            y2 = layer(const(tf, x * 0.3, dt), training=True)
            return [raw(y1), raw(y2)] + [raw(w) for w in layer.weights]
        run_all(out, f"BatchNormalization renorm {dt}", renorm)

        def ema() -> Any:
            opt = keras.optimizers.SGD(0.1, use_ema=True, ema_momentum=0.9, ema_overwrite_frequency=2)
            v = keras.Variable(np.asarray(x[0], np.float32) if dt == "bfloat16" else x[0].astype(dt), dtype=dt)
            res = []
            for s in (1.0, 0.3, -1 / 3):
                opt.apply_gradients([(const(tf, x[1] * s, dt), v)])
                res.append([raw(v.value)] + [raw(w) for w in opt.variables if len(w.shape)])
            return res
        run_all(out, f"SGD use_ema {dt}", ema)
    return out


PROGRAMS["pk-training-numbers"] = _training_numbers
REF.add("pk-training-numbers", _training_numbers)


# -- 8. more conversion points: bucket boundaries, fills, ranges, random ranges, tf wrappers, metrics' thresholds ---
def _conversion_points(tf: Any, mk: Any) -> Any:
    """The other places a Python number meets a float64/float16/bfloat16 tensor: Discretization's bin_boundaries and
    ops.digitize (Bucketize's float boundaries attribute), ops.full/full_like/linspace/arange/nan_to_num/heaviside/
    quantile/isclose with Python numbers and a dtype, keras.random's ranges (uniform, normal, truncated_normal) in a
    dtype, tf.range/fill/linspace/where/squared_difference/floormod/divide_no_nan/scalar_mul/clip_by_norm/
    clip_by_global_norm/histogram_fixed_width with Python options, tf.Variable writes of Python floats, and keras
    metrics with Python thresholds over inputs of each dtype."""
    keras = tf.keras
    ops = keras.ops
    out: dict[str, Any] = {}
    for dt in DTYPES:
        r = _rng(f"conversion-{dt}")
        xa = edges(dt, r, n=9)
        x = const(tf, xa, dt)
        bounds = [0.1, 0.3, 1 / 3, 0.9]
        run_all(out, f"Discretization {dt}", lambda: raw(keras.layers.Discretization(bin_boundaries=bounds)(x)))
        run_all(out, f"Discretization dtype {dt}", lambda: raw(
            keras.layers.Discretization(bin_boundaries=bounds, dtype="int64")(x)))
        run_all(out, f"digitize {dt}", lambda: raw(ops.digitize(x, bounds)))
        run_all(out, f"tf bucketize {dt}", lambda: raw(tf.raw_ops.Bucketize(input=x, boundaries=bounds)))
        run_all(out, f"full {dt}", lambda: raw(ops.full((3,), 0.1, dtype=dt)))
        run_all(out, f"linspace {dt}", lambda: raw(ops.linspace(0.1, 0.9, 7, dtype=dt)))
        run_all(out, f"arange {dt}", lambda: raw(ops.arange(0.1, 1.0, 0.3, dtype=dt)))
        run_all(out, f"nan_to_num {dt}", lambda: raw(ops.nan_to_num(x / const(tf, np.zeros(1), dt), nan=0.1,
                                                                    posinf=0.3, neginf=-1 / 3)))
        run_all(out, f"heaviside {dt}", lambda: raw(ops.heaviside(x, 0.3)))
        run_all(out, f"quantile {dt}", lambda: raw(ops.quantile(x, 0.3)))
        run_all(out, f"isclose {dt}", lambda: raw(ops.isclose(x, const(tf, np.full(xa.shape, 0.1), dt), rtol=0.1,
                                                              atol=1e-7)))
        run_all(out, f"ops.cast 0.1 {dt}", lambda: raw(ops.cast(0.1, dt)))
        run_all(out, f"convert_to_tensor 0.1 {dt}", lambda: raw(ops.convert_to_tensor(0.1, dtype=dt)))
        run_all(out, f"ops.add np.float64 {dt}", lambda: raw(ops.add(x, np.float64(0.1))))
        run_all(out, f"ops.add np.float32 {dt}", lambda: raw(ops.add(x, np.float32(0.1))))
        run_all(out, f"random.uniform {dt}", lambda: raw(keras.random.uniform((5,), 0.1, 0.3, dtype=dt, seed=4)))
        run_all(out, f"random.normal {dt}", lambda: raw(keras.random.normal((5,), 0.1, 1 / 3, dtype=dt, seed=4)))
        run_all(out, f"random.truncated_normal {dt}", lambda: raw(
            keras.random.truncated_normal((5,), 0.1, 0.3, dtype=dt, seed=4)))
        run_all(out, f"random.dropout {dt}", lambda: raw(keras.random.dropout(x, 0.3, seed=4)))
        run_all(out, f"tf.range {dt}", lambda: raw(tf.range(0.1, 1.0, 0.3, dtype=dt)))
        run_all(out, f"tf.fill {dt}", lambda: raw(tf.fill([2], tf.constant(0.1, dt))))
        run_all(out, f"tf.where {dt}", lambda: raw(tf.where(x > 0, x, 0.1)))
        run_all(out, f"squared_difference {dt}", lambda: raw(tf.math.squared_difference(x, 0.1)))
        run_all(out, f"floormod {dt}", lambda: raw(tf.math.floormod(x, 0.3)))
        run_all(out, f"divide_no_nan {dt}", lambda: raw(tf.math.divide_no_nan(x, 0.3)))
        run_all(out, f"scalar_mul {dt}", lambda: raw(tf.math.scalar_mul(0.1, x)))
        run_all(out, f"clip_by_norm {dt}", lambda: raw(tf.clip_by_norm(x, 0.3)))
        run_all(out, f"clip_by_global_norm {dt}", lambda: [raw(t) for t in tf.clip_by_global_norm([x, x * 2], 0.3)[0]])
        run_all(out, f"histogram_fixed_width {dt}", lambda: raw(tf.histogram_fixed_width(x, [0.1, 0.9], nbins=4)))
        # (float64 bins at their edges OPEN: TF 2.21's kernel is neither a double division nor a reciprocal's product)
        for lo, hi, nb in ((0.1, 0.9, 4), (0.3, 1.7, 7), (-1 / 3, 0.9, 5), (1e-7, 0.3, 6)) if dt != "float64" else ():
            def hist(lo: float = lo, hi: float = hi, nb: int = nb) -> Any:
                rng_t = const(tf, np.array([lo, hi]), dt) if dt != "float64" else tf.constant([lo, hi], tf.float64)
                lo_, hi_ = (float(v) for v in np.asarray(tf.cast(rng_t, tf.float64)))
                e = np.array([lo_ + (hi_ - lo_) * i / nb for i in range(1, nb)])
                vals = np.concatenate([e, r.uniform(lo - 0.1, hi + 0.1, 60)])
                vt = tf.cast(tf.constant(vals), x.dtype)
                near = tf.concat([vt, tf.math.nextafter(tf.cast(vt, tf.float64), 9.0),
                                  tf.math.nextafter(tf.cast(vt, tf.float64), -9.0)], 0) if dt == "float64" else vt
                if dt == "float32":
                    v32 = np.asarray(vt)
                    near = tf.constant(np.concatenate([v32, np.nextafter(v32, np.float32(9)),
                                                       np.nextafter(v32, np.float32(-9))]))
                return [raw(tf.histogram_fixed_width(near, rng_t, nbins=nb)),
                        raw(tf.histogram_fixed_width_bins(near, rng_t, nbins=nb))]
            run_all(out, f"histogram edges {lo} {hi} {nb} {dt}", hist)
        run_all(out, f"tf.nn.relu6 gelu {dt}", lambda: [raw(tf.nn.relu6(x * 9)), raw(tf.nn.gelu(x))])

        def var_writes() -> Any:
            v = tf.Variable(x)
            v.assign_add(tf.ones_like(x) * 0.1)
            w = tf.Variable(0.3, dtype=dt)
            w.assign_sub(0.1)
            return [raw(v), raw(w)]
        run_all(out, f"tf.Variable writes {dt}", var_writes)
        yt = (xa > 0.2).astype(np.float64)
        p = np.abs(xa) % 1.0
        M = keras.metrics
        for name, make in {"BinaryAccuracy 0.3": lambda: M.BinaryAccuracy(threshold=0.3),
                           "Precision 1/3": lambda: M.Precision(thresholds=1 / 3),
                           "Recall 0.9": lambda: M.Recall(thresholds=[0.1, 0.9]),
                           "AUC": lambda: M.AUC(num_thresholds=7),
                           "MeanSquaredError dtype": lambda: M.MeanSquaredError(dtype=dt),
                           "FBetaScore": lambda: M.FBetaScore(beta=0.3, threshold=0.3, dtype="float32")}.items():
            def metric(make: Callable[[], Any] = make) -> Any:
                m = make()
                yy, pp = const(tf, yt, dt), const(tf, p, dt)
                if name.startswith("FBeta"):
                    yy, pp = tf.reshape(yy, (-1, 1)), tf.reshape(pp, (-1, 1))
                m.update_state(yy, pp)
                return raw(m.result())
            run_all(out, f"metric {name} {dt}", metric)
    return out


PROGRAMS["pk-conversion-points"] = _conversion_points
REF.add("pk-conversion-points", _conversion_points)


# -- 9. mixed policies, schedules driving optimizers of each dtype, float64 convolutions with Python constraints ----
def _mixed_and_scheduled(tf: Any, mk: Any) -> Any:
    """Layers under mixed_float16 and mixed_bfloat16 policies (float32 variables, half compute) with Python options
    (Dense with constant initializers, BatchNormalization momentum/epsilon in training and inference, LayerNorm and
    RMSNorm epsilons, Normalization's Python mean/variance, PReLU, Rescaling, LeakyReLU), optimizers driven by a
    schedule (ExponentialDecay, CosineDecay with warmup, PiecewiseConstantDecay) on float64/float16/bfloat16 variables,
    and Conv1D/Conv2D/DepthwiseConv2D of float64 with constant kernels and a MaxNorm/MinMaxNorm constraint after a
    step: bits."""
    keras = tf.keras
    L = keras.layers
    I = keras.initializers
    out: dict[str, Any] = {}
    r = _rng("mixed")
    x = edges("float16", r, n=17)[:36].reshape(6, 6)
    for pol in ("mixed_float16", "mixed_bfloat16"):
        for name, make in {
            "Dense": lambda: L.Dense(4, kernel_initializer=I.Constant(1 / 3), bias_initializer=I.Constant(0.1),
                                     dtype=pol),
            "LayerNormalization": lambda: L.LayerNormalization(epsilon=0.3, dtype=pol),
            "RMSNormalization": lambda: L.RMSNormalization(epsilon=1e-7, dtype=pol),
            "Normalization": lambda: L.Normalization(mean=0.1, variance=0.3, dtype=pol),
            "PReLU": lambda: L.PReLU(alpha_initializer=I.Constant(0.1), dtype=pol),
            "Rescaling": lambda: L.Rescaling(1 / 3, 0.1, dtype=pol),
            "LeakyReLU": lambda: L.LeakyReLU(0.3, dtype=pol),
            "UnitNormalization": lambda: L.UnitNormalization(dtype=pol),
        }.items():
            run_all(out, f"{name} {pol}", lambda make=make: raw(make()(x)))

        def bn(pol: str = pol) -> Any:
            layer = L.BatchNormalization(momentum=0.9, epsilon=1e-3, dtype=pol)
            y1 = layer(x, training=True)
            y2 = layer(x * 0.3, training=True)
            return [raw(y1), raw(y2), raw(layer(x, training=False)), raw(layer.moving_mean),
                    raw(layer.moving_variance)]
        run_all(out, f"BatchNormalization {pol}", bn)
    S = keras.optimizers.schedules
    O = keras.optimizers
    for dt in DTYPES:
        rr = _rng(f"scheduled-{dt}")
        w0 = edges(dt, rr, n=5)[:12].reshape(3, 4)
        for name, make in {
            "SGD ExponentialDecay": lambda: O.SGD(S.ExponentialDecay(0.1, 2, 0.9), momentum=0.3),
            "Adam CosineDecay warmup": lambda: O.Adam(S.CosineDecay(0.1, 5, alpha=0.1, warmup_target=0.3,
                                                                    warmup_steps=2)),
            "RMSprop Piecewise": lambda: O.RMSprop(S.PiecewiseConstantDecay([1, 2], [0.1, 1 / 3, 0.9])),
            "AdamW InverseTime": lambda: O.AdamW(S.InverseTimeDecay(0.1, 1, 0.3), weight_decay=0.1),
        }.items():
            def steps(make: Callable[[], Any] = make) -> Any:
                opt = make()
                v = keras.Variable(w0.astype(np.float32) if dt == "bfloat16" else w0.astype(dt), dtype=dt)
                res = []
                for s in (1.0, -0.3, 0.9):
                    opt.apply_gradients([(const(tf, w0 * s, dt), v)])
                    res.append(raw(v.value))
                return res
            run_all(out, f"{name} {dt}", steps)
    img = np.resize(edges("float64", _rng("conv"), n=21), 80).reshape(2, 5, 4, 2)
    for name, make in {
        "Conv2D": lambda: L.Conv2D(3, 2, kernel_initializer=I.Constant(1 / 3), bias_initializer=I.Constant(0.1),
                                   kernel_constraint=keras.constraints.MaxNorm(0.9, axis=[0, 1, 2]),
                                   dtype="float64"),
        "DepthwiseConv2D": lambda: L.DepthwiseConv2D(2, depthwise_initializer=I.Constant(0.3),
                                                     depthwise_constraint=keras.constraints.MinMaxNorm(
                                                         0.1, 0.9, rate=0.3), dtype="float64"),
        "Conv1D": lambda: L.Conv1D(2, 3, kernel_initializer=I.Constant(0.1), dtype="float64",
                                   kernel_constraint=keras.constraints.NonNeg()),
    }.items():
        def conv(make: Callable[[], Any] = make, name: str = name) -> Any:
            layer = make()
            xin = img.reshape(2, 20, 2) if name == "Conv1D" else img
            y = layer(xin)
            # (the step's input dyadic, so the kernel gradient's sums are exact: float64 Conv2DBackpropFilter's
            # summation order is Eigen's, not this sweep's class; the constraint's Python numbers then decide)
            step_in = np.round(xin * 8) / 8
            with tf.GradientTape() as tape:
                loss = tf.reduce_sum(layer(step_in) * 0.25)
            keras.optimizers.SGD(0.1).apply_gradients(zip(tape.gradient(loss, layer.trainable_variables),
                                                          layer.trainable_variables))
            return [raw(y)] + [raw(w) for w in layer.weights]
        run_all(out, f"{name} float64 constraint step", conv)
    return out


PROGRAMS["pk-mixed-and-scheduled"] = _mixed_and_scheduled
REF.add("pk-mixed-and-scheduled", _mixed_and_scheduled)
