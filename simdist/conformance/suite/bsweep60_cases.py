"""The normalization-in-training sweep's programs (sixtieth session, bsweep60; test_bsweep60.py): FusedBatchNorm and
the tf.nn normalization functions crossed by rule, bit for bit against TF 2.21, plus Keras's BatchNormalization through
fit's steps.

What is crossed (lsweep57 takes the Keras normalization layers' options in one training call; blind77's gap program
FusedBatchNormV3's float32 NHWC statistics; kpaths54/onednn55 its float32/bfloat16 values at their defaults):
- FusedBatchNormV3 (tf.raw_ops, and tf.compat.v1.nn.fused_batch_norm with its defaults) in training with
  exponential_avg_factor 1 (mean and variance given, and empty), 0.5 and 0.01, and in inference; data_format NHWC and
  NCHW; epsilon omitted (the op's 1e-4, the wrapper's 1e-3), tiny (1e-12) and large (10); x float32, float16 and
  bfloat16 with float32 scale/offset; rows per channel n = N*H*W of 1, 2, 3 (odd), 30 and 144, channels 3 (oneDNN's
  C++ kernel) and 8 (its jit kernel: a multiple of 4): all six outputs (y, the running mean and variance, the saved
  batch mean and biased variance, reserve_space_3);
- its value classes: a constant channel (variance 0), a large mean with a small variance, a NaN and an inf in one
  channel, an all-zero batch, subnormal inputs;
- its gradients w.r.t. x, scale and offset of a non-uniform upstream, in training and in inference, NHWC and NCHW,
  eagerly and inside a tf.function;
- tf.nn.moments (axes, keepdims, shift), tf.nn.sufficient_statistics + normalize_moments (shift, keepdims),
  weighted_moments (weights' broadcast shapes, keepdims, zero weights), batch_normalization (offset/scale None or
  given, broadcast statistics, epsilon) and l2_normalize (axis None/int/list, epsilon default/large, a zero row, inf),
  in float16, bfloat16, float32 and float64, values and gradients, eagerly and inside a tf.function;
- keras BatchNormalization in Model.fit for three steps (momentum, epsilon, center/scale off, axis 1, a
  mixed_float16 policy): the moving statistics and the weights after each step.

Recorded by `python -m simdist.conformance.suite.test_bsweep60 --record` on this session's AVX-512 Xeon with oneDNN
on; every program is host-dependent (FusedBatchNorm runs through oneDNN there and the reductions' order follows the
CPU's vector width): simdist runs them under its reference model. OPEN lists simdist's disagreements with TF 2.21 left
out of the comparison."""

from __future__ import annotations

import json
import os
from typing import Any, Callable

import numpy as np

from simdist.conformance.suite.kpaths54_cases import packed, upstream
from simdist.conformance.suite.recorded_programs import (RecordedPrograms, avx512_with_onednn, bits, error,
                                                         reference_cpu, rng)

PATH = os.path.join(os.path.dirname(__file__), "bsweep60_reference.json.gz")

REF = RecordedPrograms(PATH, host_dependent=("b-",), recording_host=avx512_with_onednn, recording_cpu=reference_cpu)

#: simdist's disagreements with TF 2.21 this sweep found and did not fix: program -> case keys ("case" or
#: "case|field") left out of the comparison (docs/conformance.md, "Sixtieth session ... bsweep60"); the forward values
#: of the same cases agree: FusedBatchNormGradV3 through oneDNN's float32 jit kernel (NHWC x of a multiple of 4
#: channels; an NCHW inference gradient runs NHWC through TF's Python transposes), training and inference: dx and
#: scale_backprop a few ulps off, scale_backprop's summation order not found (the fifty-fifth session's open class,
#: blind59b's open item 2). /work/wt/bsweep60_logs/detail.py lists them.
OPEN: dict[str, tuple[str, ...]] = {
    'b-fbn-grad-float32': (
        '(1, 1, 2, 8)/NCHW/infer/eager|g',
        '(1, 1, 2, 8)/NHWC/infer/eager|g',
        '(1, 1, 2, 8)/NHWC/train/eager|g',
        '(1, 3, 1, 8)/NCHW/infer/eager|g',
        '(1, 3, 1, 8)/NHWC/infer/eager|g',
        '(1, 3, 1, 8)/NHWC/train/eager|g',
        '(2, 3, 5, 8)/NCHW/infer/eager|g',
        '(2, 3, 5, 8)/NCHW/infer/function|g',
        '(2, 3, 5, 8)/NHWC/infer/eager|g',
        '(2, 3, 5, 8)/NHWC/infer/function|g',
        '(2, 3, 5, 8)/NHWC/train/eager|g',
        '(2, 3, 5, 8)/NHWC/train/function|g',
    ),
}

FBN_DTYPES = ("float32", "float16", "bfloat16")
NN_DTYPES = ("float16", "bfloat16", "float32", "float64")


def without_open(name: str, out: dict[str, Any]) -> dict[str, Any]:
    """Program `name`'s result without its OPEN cases ("case", or "case|field" for one field of a case's dict)."""
    for key in OPEN.get(name, ()):
        case, _, field = key.partition("|")
        if field and isinstance(out.get(case), dict):
            out[case].pop(field, None)
        else:
            out.pop(case, None)
    return out


def program(name: str, fn: Callable[[Any, Any], Any]) -> None:
    REF.add(name, lambda tf, mk: packed(without_open(name, json.loads(json.dumps(fn(tf, mk))))))


def _x(tf: Any, a: np.ndarray, dt: str) -> Any:
    """x of dtype dt from float32 values (bfloat16 by TF's cast: round to nearest even on both backends)."""
    t = tf.constant(np.asarray(a, np.float32))
    return t if dt == "float32" else tf.cast(t, dt)


def _nchw(shape: tuple[int, ...]) -> tuple[int, ...]:
    return (shape[0], shape[3], shape[1], shape[2])


# -- 1. FusedBatchNormV3 forward, crossed by rule ---------------------------------------------------------------------
#: NHWC shapes by rows per channel (n = N*H*W): 1, 2, 3, 30, 144; crossed with C = 3 (C++ kernel) and 8 (jit kernel)
FBN_ROWS = ((1, 1, 1), (1, 1, 2), (1, 3, 1), (2, 3, 5), (4, 6, 6))
FBN_CHANNELS = (3, 8)
#: (exponential_avg_factor, statistics given) in training
FBN_TRAINING = ((1.0, False), (1.0, True), (0.5, True), (0.01, True))


def _fbn_inputs(name: str, shape: tuple[int, ...]) -> tuple[np.ndarray, ...]:
    c = shape[-1]
    r = rng(f"b/fbn/{name}/{shape}")
    x = (r.standard_normal(shape) * r.choice([0.5, 1.0, 2.0], c) + r.choice([-1.0, 0.0, 3.0], c)).astype("float32")
    scale, offset = r.uniform(0.5, 2.0, c).astype("float32"), r.standard_normal(c).astype("float32")
    mean, var = r.standard_normal(c).astype("float32"), r.uniform(0.25, 2.0, c).astype("float32")
    return x, scale, offset, mean, var


def _fbn_out(y: Any) -> Any:
    """The six outputs' values, and reserve_space_3's shape ([0] where oneDNN runs the op, [] otherwise)."""
    return y if isinstance(y, str) else [bits(v) for v in y] + [list(y[5].shape)]


def _fbn_forward(tf: Any, dt: str, fmt: str) -> Any:
    out: dict[str, Any] = {}
    for rows in FBN_ROWS:
        for c in FBN_CHANNELS:
            shape = (*rows, c)
            x, scale, offset, mean, var = _fbn_inputs("fwd", shape)
            xx = x if fmt == "NHWC" else np.ascontiguousarray(x.transpose(0, 3, 1, 2))
            xt = _x(tf, xx, dt)
            empty = np.zeros(0, np.float32)

            def raw(training: bool, f: float, given: bool, **kw: Any) -> Any:
                return _fbn_out(error(lambda: tf.raw_ops.FusedBatchNormV3(
                    x=xt, scale=scale, offset=offset, mean=mean if given else empty,
                    variance=var if given else empty, exponential_avg_factor=f, data_format=fmt,
                    is_training=training, **kw)))
            for f, given in FBN_TRAINING:
                out[f"{shape}/train-f{f}-{'given' if given else 'empty'}"] = raw(True, f, given)
            out[f"{shape}/infer"] = raw(False, 1.0, True)
            if rows in ((1, 3, 1), (2, 3, 5)):
                for eps in (1e-12, 10.0):
                    out[f"{shape}/train-eps{eps}"] = raw(True, 0.5, True, epsilon=eps)
                    out[f"{shape}/infer-eps{eps}"] = raw(False, 1.0, True, epsilon=eps)
                # tf.compat.v1.nn.fused_batch_norm with its defaults (epsilon 1e-3, training, mean/variance None)
                out[f"{shape}/v1-defaults"] = error(lambda: [bits(v) for v in tf.compat.v1.nn.fused_batch_norm(
                    xt, scale, offset, data_format=fmt)])
                out[f"{shape}/v1-infer"] = error(lambda: [bits(v) for v in tf.compat.v1.nn.fused_batch_norm(
                    xt, scale, offset, mean=mean, variance=var, data_format=fmt, is_training=False)])
    return out


for _dt in FBN_DTYPES:
    for _fmt in ("NHWC", "NCHW"):
        program(f"b-fbn-{_dt}-{_fmt}", lambda tf, mk, dt=_dt, fmt=_fmt: _fbn_forward(tf, dt, fmt))


# -- 2. FusedBatchNormV3's value classes ------------------------------------------------------------------------------
def _fbn_value_classes(tf: Any, dt: str) -> Any:
    out: dict[str, Any] = {}
    for c in (3, 8):
        shape = (2, 3, 2, c)
        x, scale, offset, mean, var = _fbn_inputs("vals", shape)
        r = rng(f"b/fbnv/{c}")
        classes = {
            "constant": np.broadcast_to(np.float32(2.5), shape).copy(),
            "large-mean": (np.float32(1000.0) + r.standard_normal(shape) * 1e-2).astype("float32"),
            "channel-constant": np.where(np.arange(c) == 1, np.float32(-0.75), x).astype("float32"),
            "nan": np.where((np.arange(c) == 0) & (np.arange(12).reshape(2, 3, 2, 1) == 5), np.nan, x)
            .astype("float32"),
            "inf": np.where((np.arange(c) == 2) & (np.arange(12).reshape(2, 3, 2, 1) == 7), np.inf, x)
            .astype("float32"),
            "zeros": np.zeros(shape, np.float32),
            "tiny": (x * np.float32(1e-3)).astype("float32"),
        }
        for key, xv in classes.items():
            xt = _x(tf, xv, dt)
            for training in (True, False):
                for eps in (1e-4, 1e-12):
                    out[f"{c}/{key}/{'train' if training else 'infer'}/{eps}"] = _fbn_out(error(
                        lambda: tf.raw_ops.FusedBatchNormV3(x=xt, scale=scale, offset=offset, mean=mean, variance=var,
                                                            epsilon=eps, exponential_avg_factor=0.5,
                                                            data_format="NHWC", is_training=training)))
    return out


for _dt in FBN_DTYPES:
    program(f"b-fbn-values-{_dt}", lambda tf, mk, dt=_dt: _fbn_value_classes(tf, dt))


# -- 3. FusedBatchNormV3's gradients ----------------------------------------------------------------------------------
def _fbn_gradients(tf: Any, dt: str) -> Any:
    out: dict[str, Any] = {}
    for rows in ((1, 1, 2), (1, 3, 1), (2, 3, 5)):
        for c in FBN_CHANNELS:
            shape = (*rows, c)
            x, scale, offset, mean, var = _fbn_inputs("grad", shape)
            for fmt in ("NHWC", "NCHW"):
                xx = x if fmt == "NHWC" else np.ascontiguousarray(x.transpose(0, 3, 1, 2))
                xt = _x(tf, xx, dt)
                up = upstream(tf, f"b/fbn/{shape}/{fmt}", tuple(xx.shape), dt)
                sc, of = tf.constant(scale), tf.constant(offset)
                for training in (True, False):
                    def body(xv: Any, s: Any, o: Any, training: bool = training, fmt: str = fmt, up: Any = up) -> Any:
                        with tf.GradientTape() as t:
                            t.watch([xv, s, o])
                            y = tf.compat.v1.nn.fused_batch_norm(xv, s, o, mean=None if training else mean,
                                                                  variance=None if training else var,
                                                                  data_format=fmt, is_training=training)[0]
                        return y, t.gradient(y, [xv, s, o], output_gradients=up)
                    for mode in ("eager", "function"):
                        if mode == "function" and rows != (2, 3, 5):
                            continue
                        def go(body: Any = body, mode: str = mode) -> Any:
                            y, g = (body if mode == "eager" else tf.function(body))(xt, sc, of)
                            return {"y": bits(y), "g": [bits(v) for v in g]}
                        out[f"{shape}/{fmt}/{'train' if training else 'infer'}/{mode}"] = error(go)
    return out


for _dt in FBN_DTYPES:
    program(f"b-fbn-grad-{_dt}", lambda tf, mk, dt=_dt: _fbn_gradients(tf, dt))


# -- 4. tf.nn's moments, batch_normalization, l2_normalize ------------------------------------------------------------
def _nn_cases(tf: Any, dt: str) -> dict[str, tuple[Callable[..., Any], list[np.ndarray]]]:
    r = rng(f"b/nn/{dt}")
    x = (r.standard_normal((4, 3, 5)) * 1.5 + 0.75).astype("float32")
    x.ravel()[4::9] = 0.0
    big = (r.standard_normal((3, 6)) * 3.0 + 200.0).astype("float32")   # (float16: sums of squares past 65504)
    w = r.choice([0.0, 0.5, 1.0, 3.0], (4, 3, 5)).astype("float32")
    zrow = x[0].copy()
    zrow[1] = 0.0
    n = tf.nn
    c: dict[str, tuple[Callable[..., Any], list[np.ndarray]]] = {
        "moments-0": (lambda v: list(n.moments(v, axes=[0])), [x]),
        "moments-01-keep": (lambda v: list(n.moments(v, axes=[0, 1], keepdims=True)), [x]),
        "moments-last": (lambda v: list(n.moments(v, axes=[-1])), [x]),
        "moments-all": (lambda v: list(n.moments(v, axes=[0, 1, 2])), [x]),
        "moments-shift": (lambda v: list(n.moments(v, axes=[0], shift=tf.ones((3, 5), v.dtype))), [x]),
        "moments-big": (lambda v: list(n.moments(v, axes=[1])), [big]),
        "suff-shift-keep": (lambda v: list(n.normalize_moments(*n.sufficient_statistics(
            v, [0, 2], shift=tf.constant(0.5, v.dtype), keepdims=True))), [x]),
        "suff-noshift": (lambda v: list(n.normalize_moments(*n.sufficient_statistics(v, [1]))), [x]),
        "wmoments-full": (lambda v, ww: list(n.weighted_moments(v, [0], ww)), [x, w]),
        "wmoments-row-keep": (lambda v, ww: list(n.weighted_moments(v, [0, 2], ww[:, :1, :1], keepdims=True)),
                              [x, w]),
        "wmoments-col": (lambda v, ww: list(n.weighted_moments(v, [1], ww[:1, :, :1])), [x, w]),
        "bn-given": (lambda v: n.batch_normalization(
            v, *n.moments(v, axes=[0, 1], keepdims=True), offset=tf.constant(np.linspace(-1, 1, 5), v.dtype),
            scale=tf.constant(np.linspace(0.5, 2, 5), v.dtype), variance_epsilon=1e-3), [x]),
        "bn-none": (lambda v: n.batch_normalization(v, *n.moments(v, axes=[0]), None, None, 1e-5), [x]),
        "bn-large-eps": (lambda v: n.batch_normalization(v, tf.reduce_mean(v), tf.constant(0.5, v.dtype),
                                                         tf.constant(0.25, v.dtype), None, 4.0), [x]),
        "l2-none": (lambda v: n.l2_normalize(v), [x]),
        "l2-axis0": (lambda v: n.l2_normalize(v, axis=0), [x]),
        "l2-axes": (lambda v: n.l2_normalize(v, axis=[1, 2], epsilon=0.5), [x]),
        "l2-zero-row": (lambda v: n.l2_normalize(v, axis=-1), [zrow]),
        "l2-inf": (lambda v: n.l2_normalize(v * tf.constant([1.0, np.inf, 1.0, 1.0, 1.0], v.dtype), axis=1),
                   [x[0]]),
    }
    return c


def _nn(tf: Any, dt: str) -> Any:
    out: dict[str, Any] = {}
    for key, (fn, xs) in _nn_cases(tf, dt).items():
        for mode in ("eager", "function"):
            def body(*vs: Any, fn: Any = fn, key: str = key) -> Any:
                with tf.GradientTape() as t:
                    t.watch(vs[0])
                    ys = fn(*vs)
                    ys = ys if isinstance(ys, list) else [ys]
                ups = [upstream(tf, f"b/nn/{key}/{i}", tuple(y.shape), dt) for i, y in enumerate(ys)]
                return ys, t.gradient(ys, vs[0], output_gradients=ups)

            def go(body: Any = body, xs: Any = xs, mode: str = mode) -> Any:
                ys, g = (body if mode == "eager" else tf.function(body))(*[_x(tf, a, dt) for a in xs])
                return {"y": [bits(y) for y in ys], "dtype": [y.dtype.name for y in ys], "g": bits(g)}
            out[f"{key}:{mode}"] = error(go)
    return out


for _dt in NN_DTYPES:
    program(f"b-nn-{_dt}", lambda tf, mk, dt=_dt: _nn(tf, dt))


# -- 5. keras BatchNormalization through fit's steps ------------------------------------------------------------------
def _keras_fit(tf: Any, mk: Any) -> Any:
    K = tf.keras
    out: dict[str, Any] = {}
    r = rng("b/kfit")
    x3 = (r.standard_normal((6, 2, 4)) * 1.7 + 0.5).astype("float32")
    y3 = r.standard_normal((6, 2, 4)).astype("float32")
    cases = {
        "default": ({}, None),
        "momentum-eps": ({"momentum": 0.5, "epsilon": 0.3}, None),
        "nocenter-noscale": ({"center": False, "scale": False, "momentum": 0.7}, None),
        "axis1": ({"axis": 1, "momentum": 0.6}, None),
        "mixed-float16": ({"momentum": 0.5}, "mixed_float16"),
    }
    for key, (kw, policy) in cases.items():
        def one(kw: Any = kw, policy: Any = policy) -> Any:
            try:
                if policy:
                    K.mixed_precision.set_global_policy(policy)
                inp = K.Input((2, 4), name="b_in")
                h = K.layers.BatchNormalization(name="b_bn", **kw)(inp)
                o = K.layers.Activation("linear", dtype="float32", name="b_out")(h)
                model = K.Model(inp, o, name="b_model")
            finally:
                K.mixed_precision.set_global_policy("float32")
            bn = model.get_layer("b_bn")
            for i, v in enumerate(bn.weights):
                v.assign(np.linspace(0.5 + 0.1 * i, 1.5 - 0.2 * i, v.shape[0]).astype("float32"))
            model.compile(optimizer=K.optimizers.SGD(0.1), loss="mse")
            steps = []
            for _ in range(3):
                h = model.fit(x3, y3, batch_size=3, epochs=1, shuffle=False, verbose=0)
                steps.append({"loss": float(h.history["loss"][-1]).hex(), "w": [bits(v) for v in bn.weights]})
            steps.append({"predict": bits(model.predict(x3[:3], verbose=0)),
                          "call-None": bits(model(tf.constant(x3[:3]))),
                          "call-True": bits(model(tf.constant(x3[:3]), training=True))})
            return steps
        out[key] = error(one)
    return out


program("b-keras-fit", _keras_fit)


# -- 6. keras normalization layers' options in a training call --------------------------------------------------------
def _keras_layers(tf: Any, mk: Any) -> Any:
    """LayerNormalization (axis lists, rms_scaling, center/scale off, epsilon), GroupNormalization (groups 1, C and
    between, center/scale off), UnitNormalization (axis lists) and BatchNormalization (frozen, renorm's clipping, a
    mask, channels-first, mixed_float16) with weights set from a rule: outputs, the gradients of a non-uniform
    upstream w.r.t. the input and the trainable weights, the non-trainable state after the call, the config, and the
    static output shape."""
    K, L = tf.keras, tf.keras.layers
    r = rng("b/klayers")
    x = (r.standard_normal((3, 4, 6)) * 1.4 + 0.3).astype("float32")
    m = np.array([[True, True, False, True], [True, False, True, True], [False, True, True, True]])
    cases: dict[str, tuple[Callable[[], Any], Any, str]] = {
        "ln-axes-12": (lambda: L.LayerNormalization(axis=[1, 2], name="b_ln"), None, ""),
        "ln-axis1": (lambda: L.LayerNormalization(axis=1, epsilon=0.5, name="b_ln"), None, ""),
        "ln-rms": (lambda: L.LayerNormalization(rms_scaling=True, name="b_ln"), None, ""),
        "ln-rms-axes": (lambda: L.LayerNormalization(axis=(-2, -1), rms_scaling=True, name="b_ln"), None, ""),
        "ln-nocenter": (lambda: L.LayerNormalization(center=False, name="b_ln"), None, ""),
        "ln-noscale": (lambda: L.LayerNormalization(scale=False, epsilon=1e-1, name="b_ln"), None, ""),
        "gn-1": (lambda: L.GroupNormalization(groups=1, name="b_gn"), None, ""),
        "gn-C": (lambda: L.GroupNormalization(groups=6, name="b_gn"), None, ""),
        "gn-3": (lambda: L.GroupNormalization(groups=3, epsilon=0.2, name="b_gn"), None, ""),
        "gn-2-noaffine": (lambda: L.GroupNormalization(groups=2, center=False, scale=False, name="b_gn"), None, ""),
        "gn-axis1": (lambda: L.GroupNormalization(groups=2, axis=1, name="b_gn"), None, ""),
        "unit-last": (lambda: L.UnitNormalization(name="b_unit"), None, ""),
        "unit-axes": (lambda: L.UnitNormalization(axis=[1, 2], name="b_unit"), None, ""),
        "bn-frozen": (lambda: L.BatchNormalization(name="b_bn"), None, "frozen"),
        "bn-mask": (lambda: L.BatchNormalization(momentum=0.5, name="b_bn"), m, ""),
        "bn-axis1": (lambda: L.BatchNormalization(axis=1, momentum=0.8, epsilon=0.05, name="b_bn"), None, ""),
        "bn-renorm": (lambda: L.BatchNormalization(renorm=True, renorm_clipping={"rmax": 1.1, "rmin": 0.9,
                                                                                  "dmax": 0.05},
                                                   renorm_momentum=0.6, name="b_bn"), None, ""),
        "bn-mixed": (lambda: L.BatchNormalization(momentum=0.7, dtype="mixed_float16", name="b_bn"), None, ""),
        "bn-noaffine": (lambda: L.BatchNormalization(center=False, scale=False, name="b_bn"), None, ""),
        "bn-renorm-noscale": (lambda: L.BatchNormalization(renorm=True, scale=False, renorm_momentum=0.5,
                                                           name="b_bn"), None, ""),
        "gn-instance": (lambda: L.GroupNormalization(groups=-1, name="b_gn"), None, ""),
        "ln-float16": (lambda: L.LayerNormalization(dtype="float16", name="b_ln"), None, "float16"),
        "ln-mixed": (lambda: L.LayerNormalization(axis=[1, 2], dtype="mixed_float16", name="b_ln"), None, ""),
        "unit-tiny": (lambda: L.UnitNormalization(name="b_unit"), None, "tiny"),
    }
    out: dict[str, Any] = {}
    for key, (make, mask, how) in cases.items():
        def one(make: Any = make, mask: Any = mask, how: str = how, key: str = key) -> Any:
            layer = make()
            layer.build(x.shape)
            for i, v in enumerate(layer.weights):
                n = int(np.prod(v.shape))
                v.assign(np.linspace(0.6 + 0.1 * i, 1.4 - 0.15 * i, n).reshape(tuple(v.shape)).astype("float32"))
            if how == "frozen":
                layer.trainable = False
            xv = (x * np.float32(1e-5)).astype("float32") if how == "tiny" else x
            xt = tf.constant(xv.astype("float16") if how == "float16" else xv)
            with tf.GradientTape() as t:
                t.watch(xt)
                y = layer(xt, training=True) if mask is None else layer(xt, training=True, mask=tf.constant(mask))
            up = upstream(tf, f"b/klayers/{key}", tuple(y.shape), y.dtype.name)
            g = t.gradient(y, [xt] + list(layer.trainable_weights), output_gradients=up)
            return {"y": bits(y), "dtype": y.dtype.name, "g": [bits(v) for v in g],
                    "state": [bits(v) for v in layer.non_trainable_weights],
                    "config": {k: str(v) for k, v in sorted(layer.get_config().items()) if k != "dtype"},
                    "shape": [None if d is None else int(d) for d in layer.compute_output_shape((None, 4, 6))]}
        out[key] = error(one)
    return out


program("b-keras-layers", _keras_layers)
