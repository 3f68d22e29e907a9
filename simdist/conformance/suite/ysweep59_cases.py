"""The Keras core/convolution/pooling/reshaping/merging layer sweep's programs (fifty-ninth session, ysweep59;
test_ysweep59.py): every layer of these families with its defaults (each option omitted) and each constructor option
off its default, crossed by rule, the forward values and the gradient of a non-uniform upstream w.r.t. every input
and trainable weight, bit for bit, in fit-like use (a `training=True` call under a GradientTape, eagerly) and inside a
tf.function, in float32, float64, mixed_float16 and mixed_bfloat16 (the layers' dtype policy).

What is crossed (lsweep57 took the attention, recurrent and normalization layers, ksweep55 the activations,
regularizers and constraints; the gap modules compare most of these layers at their defaults, often to a tolerance):
- Dense (use_bias off, activation, seeded kernel/bias initializers as built, kernel/bias/activity regularizers'
  losses, constraints applied to the weights, lora_rank) and EinsumDense (bias_axes, a 3-D equation, activation,
  lora_rank); Embedding (mask_zero and its mask, embeddings_constraint, index 0 and the last row, gradient rows
  repeated);
- Conv1D/2D/3D (padding valid/same/causal, strides, dilation_rate, groups, use_bias off, channels_first where CPU TF
  runs it), Conv1D/2D/3DTranspose (padding, strides, output_padding, dilation), SeparableConv1D/2D and
  DepthwiseConv1D/2D (depth_multiplier, strides, dilation, padding);
- MaxPooling/AveragePooling 1D/2D/3D (pool_size, strides, padding same with partial windows, channels_first),
  GlobalMax/GlobalAveragePooling 1D/2D/3D (keepdims, channels_first, GlobalAveragePooling1D with a mask);
- Reshape (-1), Flatten (channels_first), Permute, RepeatVector, Cropping1D/2D/3D, ZeroPadding1D/2D/3D (asymmetric,
  channels_first), UpSampling1D/2D (nearest, bilinear)/3D;
- Add, Subtract, Multiply, Average, Maximum, Minimum, Concatenate (axis 1, -1; masks) and Dot (axes 1, 2, a pair,
  normalize) over inputs with -0.0, inf, NaN, subnormals and ties;
- Dropout (rate, noise_shape, seed), SpatialDropout1D/2D/3D, GaussianNoise, GaussianDropout and AlphaDropout with
  seeds in training, ActivityRegularization, Lambda, Identity, TimeDistributed (Dense, Conv1D).

Every weight is assigned seeded values after the build (lsweep57_cases.seed_weights) except the cases named
`init-...`, which record the seeded initializers' draws as built. Contractions stay at 8 terms or fewer: longer
float32/float64 products are kpaths54's and ksweep55's open class. Recorded by `python -m
simdist.conformance.suite.test_ysweep59 --record` on this session's AVX-512 Xeon with oneDNN on; every program is
host-dependent (the float products and sums of these layers go through oneDNN there): simdist runs them under its
reference model. OPEN lists simdist's disagreements with TF 2.21 left out of the comparison."""

from __future__ import annotations

import json
import os
from typing import Any, Callable

import numpy as np

from simdist.conformance.suite.kpaths54_cases import packed, upstream, without_open
from simdist.conformance.suite.lsweep57_cases import arr, run, seed_weights
from simdist.conformance.suite.recorded_programs import (RecordedPrograms, avx512_with_onednn, bits, error,
                                                         reference_cpu)

PATH = os.path.join(os.path.dirname(__file__), "ysweep59_reference.json.gz")

REF = RecordedPrograms(PATH, host_dependent=("y-",), recording_host=avx512_with_onednn, recording_cpu=reference_cpu)

DTYPES = ("float32", "float64", "mixed_float16", "mixed_bfloat16")
MODES = ("eager", "function")

#: simdist's disagreements with TF 2.21 this sweep found and did not fix: program -> case keys ("case" or
#: "case/field", a case "<option>:<mode>"; field y the outputs, g the gradients) left out of the comparison
#: (docs/conformance.md, "Fifty-ninth session ... ysweep59"). Every one is a value one or a few units in the last place
#: off where a sum's order decides (/work/wt/ysweep59_logs/detail.py over the two backends' raw results):
#: (a) convolutions under oneDNN (float32): the input gradients of grouped and 3-D convolutions and kernel
#: gradients of Conv1D/2D/3D (groups, strides, channels_first's bias), Conv3DTranspose's kernel gradient
#: — a few of 20-60 values each (the input gradients of Conv1D/Conv2D, strided too, and Conv1D/2DTranspose's
#: outputs fixed by conv59: onednn_backprop_input.py; DepthwiseConv1D/2D's and SeparableConv1D/2D's outputs and
#: gradients by conv60: onednn_depthwise.py, 22 keys); (b) the same convolutions in float64 (Eigen's contraction order: input and kernel gradients, grouped
#: Conv2D's outputs) and in mixed_float16/mixed_bfloat16 inside a tf.function (the outputs: eager ones agree);
#: (c) (fixed: a 3-D Dense's input gradient, tensordot as TF's MatMul composition); (d) UnitNorm/MaxNorm
#: constraints' gradients (the norm's reduction); (e) EinsumDense with lora under mixed precision: the A/B
#: gradient; (f) Dot(normalize) in float64 in a tf.function (outputs); (g) ActivityRegularization's penalty
#: gradient in a tf.function; (h) 3-D pooling gradients with 'same' padding (AvgPool3DGrad/MaxPool3DGrad) and
#: AveragePooling1D 'same' in bfloat16.
OPEN: dict[str, tuple[str, ...]] = {
    'y-conv-float32': (
        'conv1d-groups2:eager/g', 'conv2d-channels-first:eager/g', 'conv2d-groups2:eager/g', 'conv2d-groups2:eager/y',
        'conv2d-groups2:function/g', 'conv2d-groups2:function/y', 'conv3d-default:eager/g',
        'conv3d-default:function/g', 'conv3d-same-strides:eager/g', 'conv3dt-same-s2:eager/g',
    ),
    'y-conv-float64': (
        'conv1d-causal:eager/g', 'conv1d-causal:function/g', 'conv1d-strides2-same:eager/g',
        'conv1d-strides2-same:function/g', 'conv1dt-valid-s2-op1:eager/g', 'conv1dt-valid-s2-op1:function/g',
        'conv2d-groups2:eager/g', 'conv2d-groups2:eager/y', 'conv2d-groups2:function/g', 'conv2d-groups2:function/y',
        'conv2d-same-strides:eager/g', 'conv2d-same-strides:function/g', 'conv2dt-same-s2:eager/g',
        'conv2dt-same-s2:function/g', 'conv3d-default:eager/g', 'conv3d-default:function/g', 'dw1d-dm2-same:eager/g',
        'dw1d-dm2-same:function/g', 'sep2d-dm2-same-s2:eager/g', 'sep2d-dm2-same-s2:function/g',
    ),
    'y-conv-mixed_bfloat16': (
        'conv1d-causal:function/y', 'conv1d-strides2-same:function/y', 'conv2d-groups2:eager/g',
        'conv2d-groups2:function/g', 'conv2d-same-strides:function/y', 'conv3d-default:function/y',
        'sep2d-dm2-same-s2:function/y',
    ),
    'y-conv-mixed_float16': (
        'conv1d-causal:function/y', 'conv1d-strides2-same:function/y', 'conv2d-same-strides:function/y',
        'conv3d-default:function/y', 'dw1d-dm2-same:eager/g', 'dw1d-dm2-same:function/g',
        'sep2d-dm2-same-s2:function/y',
    ),
    'y-core-float32': (
        'dense-kconstraint:eager/g', 'emb-constraint:eager/g',
    ),
    'y-core-mixed_bfloat16': (
        'einsum-lora:eager/g', 'einsum-lora:function/g',
    ),
    'y-core-mixed_float16': (
        'einsum-lora:eager/g', 'einsum-lora:function/g',
    ),
    'y-merge-float64': (
        'dot-pair-norm:function/y',
    ),
    'y-misc-float32': (
        'actreg:function/g',
    ),
    'y-misc-mixed_float16': (
        'actreg:function/g',
    ),
    'y-pool-float32': (
        'ave3d-same:eager/g', 'max3d-same:eager/g',
    ),
    'y-pool-mixed_bfloat16': (
        'ave1d-p3-s2-same:eager/g', 'ave3d-same:eager/g',
    ),
}

Case = tuple[Callable[[], Any], Callable[..., Any], list[Any]]


def program(name: str, fn: Callable[[Any, Any], Any]) -> None:
    REF.add(name, lambda tf, mk: packed(without_open(name, json.loads(json.dumps(fn(tf, mk))), OPEN)))


def tensor(tf: Any, a: Any, dt: str) -> Any:
    """An input of the layer's input dtype (a mixed policy's layer takes float32 inputs, as from a float32 model)."""
    return tf.constant(np.asarray(a, "float32" if dt.startswith("mixed") else dt))


def sweep(tf: Any, cases: dict[str, Case], dt: str, keep: tuple[str, ...]) -> dict[str, Any]:
    """Every case (make, call, inputs) eagerly in float32, each on a fresh layer built by an inference call and then
    seeded (`init-` cases: not seeded); the `keep` cases also inside a tf.function and in the other dtypes. The
    call is the fit-like one: training=True under a GradientTape."""
    out: dict[str, Any] = {}
    for key, (make, call, xs) in cases.items():
        if dt != "float32" and key not in keep:
            continue
        for mode in (MODES if key in keep else ("eager",)):
            def one(make: Any = make, call: Any = call, xs: Any = xs, mode: str = mode, key: str = key) -> Any:
                layer = make()
                call(layer, *xs, training=False)
                if not key.startswith("init-"):
                    seed_weights(layer, f"y/{key}")
                r = run(tf, layer, lambda *vs: call(layer, *vs, training=True), xs, mode, f"y/{key}/{dt}")
                if isinstance(r, dict):
                    r["size"] = [len(v) for v in r["y"]]   # (kept when OPEN leaves the values out)
                    shapes = [tuple(x.shape) for x in xs]
                    r["static"] = error(lambda: _plain_shape(layer.compute_output_shape(
                        shapes[0] if len(shapes) == 1 else shapes)))
                    if key.startswith("init-"):
                        r["w"] = [bits(w) for w in layer.weights]
                    if mode == "eager" and layer.losses:   # (after a traced call TF's list holds graph tensors)
                        r["losses"] = [bits(v) for v in layer.losses]
                return r
            out[f"{key}:{mode}"] = error(one)
    return out


def _plain_shape(s: Any) -> Any:
    """A static output shape (a tuple, a list of them, or a dict) as JSON lists."""
    if isinstance(s, dict):
        return {str(k): _plain_shape(v) for k, v in sorted(s.items())}
    if isinstance(s, (list, tuple)) and any(isinstance(e, (list, tuple, dict)) for e in s):
        return [_plain_shape(e) for e in s]
    return [None if d is None else int(d) for d in s]


def _one(l: Any, x: Any, training: Any = None) -> Any:
    return l(x, training=training)


def _with_losses(l: Any, x: Any, training: Any = None) -> Any:
    """The output and the penalties the call adds (outputs too, so their gradients are compared, in a tf.function
    as well)."""
    return [l(x, training=training)] + list(l.losses)


# -- 1. Dense, EinsumDense, Embedding ------------------------------------------------------------------------------
def _core_cases(tf: Any, dt: str) -> dict[str, Case]:
    L, K = tf.keras.layers, tf.keras
    x = tensor(tf, arr("dx", (3, 5)), dt)
    x3 = tensor(tf, arr("dx3", (2, 3, 4)), dt)
    c: dict[str, Case] = {}

    def dense(**kw: Any) -> Callable[[], Any]:
        return lambda: L.Dense(4, dtype=dt, name="y_dense", **kw)
    for o, kw in {"default": {}, "nobias-relu": {"use_bias": False, "activation": "relu"},
                  "tanh": {"activation": "tanh"},
                  "regularized": {"kernel_regularizer": K.regularizers.L1L2(0.01, 0.02),
                                  "bias_regularizer": "l2", "activity_regularizer": K.regularizers.L1(0.05)},
                  "lora2": {"lora_rank": 2}, "lora1-alpha": {"lora_rank": 1, "lora_alpha": 3.0}}.items():
        c[f"dense-{o}"] = (dense(**kw), _with_losses if o == "regularized" else _one, [x])
    c["dense-3d"] = (dense(), _one, [x3])
    #: one unit (its bias is added by AddV2, not BiasAdd: ops.add squeezes a one-element bias) over 9 rows
    c["dense-one-unit"] = (lambda: L.Dense(1, dtype=dt, name="y_dense1"), _one, [tensor(tf, arr("dx9", (9, 3)), dt)])
    c["init-dense-seeded"] = (dense(kernel_initializer=K.initializers.GlorotUniform(seed=7),
                                    bias_initializer=K.initializers.RandomNormal(0.5, 0.25, seed=3)), _one, [x])
    c["init-dense-he-trunc"] = (dense(kernel_initializer=K.initializers.HeNormal(seed=11),
                                      bias_initializer=K.initializers.Constant(-0.25)), _one, [x])

    def einsum(eq: str, shape: Any, **kw: Any) -> Callable[[], Any]:
        return lambda: L.EinsumDense(eq, shape, dtype=dt, name="y_einsum", **kw)
    c["einsum-ab"] = (einsum("ab,bc->ac", 4, bias_axes="c"), _one, [x])
    c["einsum-abc-nobias"] = (einsum("abc,cd->abd", (None, 4)), _one, [x3])
    c["einsum-abc-de"] = (einsum("abc,cde->abde", (None, 2, 3), bias_axes="de", activation="relu"), _one, [x3])
    c["einsum-lora"] = (einsum("abc,cd->abd", (None, 4), bias_axes="d", lora_rank=2), _one, [x3])
    c["einsum-lora-alpha"] = (einsum("ab,bc->ac", 4, lora_rank=3, lora_alpha=2.0), _one, [x])   # (2/3: not a power of 2)
    ids = tf.constant([[0, 3, 5, 3], [5, 0, 0, 1]])

    def emb(**kw: Any) -> Callable[[], Any]:
        return lambda: L.Embedding(6, 3, dtype=dt, name="y_embedding", **kw)
    c["emb-default"] = (emb(), _one, [ids])
    c["emb-mask-zero"] = (emb(mask_zero=True), lambda l, i, training=None: [
        l(i, training=training), tf.cast(l.compute_mask(i), "float32")], [ids])
    c["emb-constraint"] = (emb(embeddings_constraint=K.constraints.MaxNorm(0.5)),
                           lambda l, i, training=None: [l(i, training=training), l.embeddings_constraint(
                               l.embeddings)], [ids])
    c["emb-lora"] = (emb(lora_rank=2), _one, [ids])
    c["dense-kconstraint"] = (dense(kernel_constraint=K.constraints.UnitNorm(axis=0),
                                    bias_constraint=K.constraints.NonNeg()),
                              lambda l, x, training=None: [l(x, training=training), l.kernel_constraint(l.kernel),
                                                           l.bias_constraint(l.bias)], [x])
    return c


CORE_KEEP = ("dense-default", "dense-one-unit", "dense-3d", "dense-nobias-relu", "dense-regularized", "dense-lora2",
             "einsum-abc-de",
             "einsum-lora", "emb-mask-zero", "init-dense-seeded")


# -- 2. convolutions ----------------------------------------------------------------------------------------------
def _conv_cases(tf: Any, dt: str) -> dict[str, Case]:
    L = tf.keras.layers
    x1 = tensor(tf, arr("c1", (2, 7, 2)), dt)
    x2 = tensor(tf, arr("c2", (1, 5, 6, 2)), dt)
    x3 = tensor(tf, arr("c3", (1, 4, 3, 4, 2)), dt)
    x1g = tensor(tf, arr("c1g", (2, 6, 4)), dt)
    x2cf = tensor(tf, arr("c2cf", (1, 2, 5, 6)), dt)
    c: dict[str, Case] = {}

    def mk(cls: str, *a: Any, **kw: Any) -> Callable[[], Any]:
        return lambda: getattr(L, cls)(*a, dtype=dt, name=f"y_{cls.lower()}", **kw)
    for o, kw in {"default": {}, "same": {"padding": "same"}, "causal": {"padding": "causal"},
                  "causal-dil2": {"padding": "causal", "dilation_rate": 2},
                  "strides2-same": {"strides": 2, "padding": "same"}, "dil2": {"dilation_rate": 2},
                  "nobias-relu": {"use_bias": False, "activation": "relu"}}.items():
        c[f"conv1d-{o}"] = (mk("Conv1D", 3, 3, **kw), _one, [x1])
    c["conv1d-groups2"] = (mk("Conv1D", 4, 2, groups=2), _one, [x1g])
    for o, kw in {"default": {}, "same-strides": {"padding": "same", "strides": (2, 1)},
                  "dil-k1": {"dilation_rate": (2, 1), "kernel_size": (2, 1)},
                  "strides3-valid": {"strides": 3}}.items():
        kw = dict(kw)
        ks = kw.pop("kernel_size", 2)
        c[f"conv2d-{o}"] = (mk("Conv2D", 3, ks, **kw), _one, [x2])
    c["conv2d-groups2"] = (mk("Conv2D", 2, 2, groups=2), _one, [x2])
    c["conv2d-channels-first"] = (mk("Conv2D", 3, 2, data_format="channels_first"), _one, [x2cf])
    c["conv3d-default"] = (mk("Conv3D", 2, 2), _one, [x3])
    c["conv3d-same-strides"] = (mk("Conv3D", 2, (2, 1, 2), strides=2, padding="same"), _one, [x3])
    for o, kw in {"default": {}, "same-s2": {"padding": "same", "strides": 2},
                  "valid-s2-op1": {"strides": 2, "output_padding": 1}, "dil2": {"dilation_rate": 2}}.items():
        c[f"conv1dt-{o}"] = (mk("Conv1DTranspose", 2, 3, **kw), _one, [x1])
    for o, kw in {"default": {}, "same-s2": {"padding": "same", "strides": 2},
                  "s21-op": {"strides": (2, 1), "output_padding": (1, 0)}}.items():
        c[f"conv2dt-{o}"] = (mk("Conv2DTranspose", 2, 2, **kw), _one, [x2])
    c["conv2dt-kreg"] = (mk("Conv2DTranspose", 2, 2, kernel_regularizer="l2"),
                         lambda l, x, training=None: [l(x, training=training)] + list(l.losses), [x2])
    c["conv3dt-same-s2"] = (mk("Conv3DTranspose", 2, 2, strides=2, padding="same"), _one, [x3])
    for o, kw in {"default": {}, "dm2-same": {"depth_multiplier": 2, "padding": "same"},
                  "s2-nobias": {"strides": 2, "use_bias": False}, "dil2": {"dilation_rate": 2}}.items():
        c[f"sep1d-{o}"] = (mk("SeparableConv1D", 3, 2, **kw), _one, [x1])
        c[f"dw1d-{o}"] = (mk("DepthwiseConv1D", 2, **kw), _one, [x1])
    for o, kw in {"default": {}, "dm2-same-s2": {"depth_multiplier": 2, "padding": "same", "strides": 2},
                  "dil2": {"dilation_rate": (1, 2)}}.items():
        c[f"sep2d-{o}"] = (mk("SeparableConv2D", 3, 2, **kw), _one, [x2])
        c[f"dw2d-{o}"] = (mk("DepthwiseConv2D", 2, **kw), _one, [x2])
    return c


CONV_KEEP = ("conv1d-causal", "conv1d-strides2-same", "conv2d-same-strides", "conv2d-groups2", "conv3d-default",
             "conv1dt-valid-s2-op1", "conv2dt-same-s2", "sep2d-dm2-same-s2", "dw1d-dm2-same")


# -- 3. pooling ---------------------------------------------------------------------------------------------------
def _pool_cases(tf: Any, dt: str) -> dict[str, Case]:
    L = tf.keras.layers
    x1 = tensor(tf, arr("p1", (2, 7, 3)), dt)
    x2 = tensor(tf, arr("p2", (1, 5, 6, 2)), dt)
    x3 = tensor(tf, arr("p3", (1, 4, 5, 3, 2)), dt)
    x2cf = tensor(tf, arr("p2cf", (1, 2, 5, 6)), dt)
    x1cf = tensor(tf, arr("p1cf", (2, 3, 7)), dt)
    m = tf.constant([[True, True, False, True, False, False, True], [False] * 6 + [True]])
    c: dict[str, Case] = {}

    def mk(cls: str, **kw: Any) -> Callable[[], Any]:
        return lambda: getattr(L, cls)(dtype=dt, name=f"y_{cls.lower()}", **kw)
    for kind in ("Max", "Average"):
        k = kind.lower()[:3]
        dflt = {"pool_size": 2} if kind == "Average" else {}   # AveragePooling's pool_size has no default
        c[f"{k}1d-default"] = (mk(f"{kind}Pooling1D", **dflt), _one, [x1])
        c[f"{k}1d-p3-s2-same"] = (mk(f"{kind}Pooling1D", pool_size=3, strides=2, padding="same"), _one, [x1])
        c[f"{k}1d-p2-s1"] = (mk(f"{kind}Pooling1D", pool_size=2, strides=1), _one, [x1])
        c[f"{k}1d-cf-same"] = (mk(f"{kind}Pooling1D", pool_size=2, padding="same", data_format="channels_first"),
                               _one, [x1cf])
        c[f"{k}2d-default"] = (mk(f"{kind}Pooling2D", **dflt), _one, [x2])
        c[f"{k}2d-p3-s2-same"] = (mk(f"{kind}Pooling2D", pool_size=(3, 2), strides=2, padding="same"), _one, [x2])
        c[f"{k}2d-cf"] = (mk(f"{kind}Pooling2D", pool_size=2, strides=(1, 2), data_format="channels_first"),
                          _one, [x2cf])
        c[f"{k}3d-default"] = (mk(f"{kind}Pooling3D", **dflt), _one, [x3])
        c[f"{k}3d-same"] = (mk(f"{kind}Pooling3D", pool_size=(2, 3, 2), strides=(1, 2, 2), padding="same"),
                            _one, [x3])
        for d, x, xcf in (("1d", x1, x1cf), ("2d", x2, x2cf), ("3d", x3, None)):
            c[f"g{k}{d}"] = (mk(f"Global{kind}Pooling{d.upper()}"), _one, [x])
            c[f"g{k}{d}-keep"] = (mk(f"Global{kind}Pooling{d.upper()}", keepdims=True), _one, [x])
            if xcf is not None:
                c[f"g{k}{d}-cf-keep"] = (mk(f"Global{kind}Pooling{d.upper()}", data_format="channels_first",
                                            keepdims=True), _one, [xcf])
    c["gavg1d-mask"] = (mk("GlobalAveragePooling1D"), lambda l, x, training=None: l(x, mask=m), [x1])
    c["gmax1d-mask"] = (mk("GlobalMaxPooling1D"), lambda l, x, training=None: l(x, mask=m), [x1])
    return c


POOL_KEEP = ("max1d-p3-s2-same", "ave1d-p3-s2-same", "max2d-p3-s2-same", "ave2d-p3-s2-same", "ave3d-same",
             "gave2d-keep", "gavg1d-mask", "gave1d-cf-keep")


# -- 4. reshaping -------------------------------------------------------------------------------------------------
def _reshape_cases(tf: Any, dt: str) -> dict[str, Case]:
    L = tf.keras.layers
    x1 = tensor(tf, arr("r1", (2, 5, 3)), dt)
    x2 = tensor(tf, arr("r2", (1, 4, 5, 2)), dt)
    x3 = tensor(tf, arr("r3", (1, 3, 4, 2, 2)), dt)
    xv = tensor(tf, arr("rv", (2, 3)), dt)
    c: dict[str, Case] = {}

    def mk(cls: str, *a: Any, **kw: Any) -> Callable[[], Any]:
        return lambda: getattr(L, cls)(*a, dtype=dt, name=f"y_{cls.lower()}", **kw)
    c["reshape"] = (mk("Reshape", (-1, 5)), _one, [x1])
    c["reshape-3d"] = (mk("Reshape", (5, 1, -1)), _one, [x1])
    c["flatten"] = (mk("Flatten"), _one, [x2])
    c["flatten-cf"] = (mk("Flatten", data_format="channels_first"), _one, [x2])
    c["permute"] = (mk("Permute", (2, 1)), _one, [x1])
    c["permute-3"] = (mk("Permute", (3, 1, 2)), _one, [x2])
    c["repeat"] = (mk("RepeatVector", 3), _one, [xv])
    c["crop1d"] = (mk("Cropping1D", (1, 2)), _one, [x1])
    c["crop2d"] = (mk("Cropping2D", ((1, 0), (2, 1))), _one, [x2])
    c["crop2d-cf"] = (mk("Cropping2D", ((1, 1), (0, 1)), data_format="channels_first"), _one, [x2])
    c["crop3d"] = (mk("Cropping3D", ((1, 0), (0, 2), (1, 0))), _one, [x3])
    c["pad1d"] = (mk("ZeroPadding1D", (2, 1)), _one, [x1])
    c["pad2d"] = (mk("ZeroPadding2D", ((0, 1), (2, 0))), _one, [x2])
    c["pad2d-cf"] = (mk("ZeroPadding2D", 1, data_format="channels_first"), _one, [x2])
    c["pad3d"] = (mk("ZeroPadding3D", ((1, 0), (0, 1), (2, 1))), _one, [x3])
    c["up1d"] = (mk("UpSampling1D", 3), _one, [x1])
    c["up2d"] = (mk("UpSampling2D", (2, 3)), _one, [x2])
    c["up2d-bilinear"] = (mk("UpSampling2D", (2, 3), interpolation="bilinear"), _one, [x2])
    c["up2d-bilinear-cf"] = (mk("UpSampling2D", 2, interpolation="bilinear", data_format="channels_first"),
                             _one, [x2])
    c["up2d-bicubic"] = (mk("UpSampling2D", 2, interpolation="bicubic"), _one, [x2])
    c["up2d-area"] = (mk("UpSampling2D", 2, interpolation="area"), _one, [x2])
    c["up3d"] = (mk("UpSampling3D", (1, 2, 2)), _one, [x3])
    return c


RESHAPE_KEEP = ("flatten-cf", "permute-3", "crop3d", "pad2d-cf", "up2d-bilinear", "up3d", "repeat")


# -- 5. merging ---------------------------------------------------------------------------------------------------
def _special(a: np.ndarray, dt: str) -> np.ndarray:
    """a with -0.0, +-inf, NaN and (for float32/float64) a subnormal planted, and a tie with the next input."""
    a = np.array(a, dtype=np.float64)
    flat = a.ravel()
    flat[0], flat[1], flat[2], flat[4] = -0.0, np.inf, np.nan, -np.inf
    flat[6] = 1e-40 if dt in ("float32", "mixed_float16", "mixed_bfloat16") else 1e-310
    return a


def _merge_cases(tf: Any, dt: str) -> dict[str, Case]:
    L = tf.keras.layers
    a0, b0 = arr("ma", (2, 3, 4)), arr("mb", (2, 3, 4))
    a0.ravel()[8] = b0.ravel()[8]   # a tie
    b0.ravel()[0] = 0.0
    b0.ravel()[2] = 1.0
    a, b = tensor(tf, a0, dt), tensor(tf, b0, dt)
    e = tensor(tf, arr("me", (2, 3, 4)), dt)
    s = tensor(tf, _special(arr("ms", (2, 3, 4)), dt), dt)
    d3 = tensor(tf, arr("md3", (2, 2, 4)), dt)
    v1, v2 = tensor(tf, arr("mv1", (3, 4)), dt), tensor(tf, arr("mv2", (3, 4)), dt)
    z = tensor(tf, np.zeros((3, 4)), dt)
    m1 = tf.constant([[True, False, True], [False, False, False]])
    c: dict[str, Case] = {}

    def mk(cls: str, **kw: Any) -> Callable[[], Any]:
        return lambda: getattr(L, cls)(dtype=dt, name=f"y_{cls.lower()}", **kw)

    def lst(l: Any, *xs: Any, training: Any = None) -> Any:
        return l(list(xs), training=training)
    for cls in ("Add", "Subtract", "Multiply", "Average", "Maximum", "Minimum"):
        k = cls.lower()
        c[k] = (mk(cls), lst, [a, b])
        c[f"{k}-special"] = (mk(cls), lst, [s, b])
        if cls != "Subtract":
            c[f"{k}-three"] = (mk(cls), lst, [a, b, e])
    c["concat"] = (mk("Concatenate"), lst, [a, b])
    c["concat-axis1"] = (mk("Concatenate", axis=1), lst, [a, d3])
    c["concat-axis1-mask"] = (mk("Concatenate", axis=-1), lambda l, x, y, training=None: [
        l([x, y], mask=[m1, None]), tf.cast(l.compute_mask([x, y], [m1, None]), "float32")], [a, b])
    c["dot-1"] = (mk("Dot", axes=1), lst, [v1, v2])
    c["dot-1-norm"] = (mk("Dot", axes=1, normalize=True), lst, [v1, v2])
    c["dot-norm-zero"] = (mk("Dot", axes=-1, normalize=True), lst, [v1, z])
    c["dot-2"] = (mk("Dot", axes=2), lst, [a, b])
    c["dot-pair"] = (mk("Dot", axes=(1, 1)), lst, [a, b])
    c["dot-pair-norm"] = (mk("Dot", axes=(2, 2), normalize=True), lst, [a, d3])
    return c


MERGE_KEEP = ("add-three", "subtract", "average-special", "maximum-special", "minimum-three", "multiply-special",
              "concat-axis1", "dot-pair-norm", "dot-1-norm")


# -- 6. noise, regularization, Lambda/Identity/TimeDistributed ------------------------------------------------------
def _misc_cases(tf: Any, dt: str) -> dict[str, Case]:
    L = tf.keras.layers
    x = tensor(tf, arr("nx", (3, 8)) + 0.25, dt)
    x1 = tensor(tf, arr("nx1", (2, 4, 3)), dt)
    x2 = tensor(tf, arr("nx2", (1, 3, 4, 2)), dt)
    x3 = tensor(tf, arr("nx3", (1, 2, 3, 2, 2)), dt)
    xt = tensor(tf, arr("nxt", (2, 3, 5, 2)), dt)
    c: dict[str, Case] = {}

    def mk(cls: str, *a: Any, **kw: Any) -> Callable[[], Any]:
        return lambda: getattr(L, cls)(*a, dtype=dt, name=f"y_{cls.lower()}", **kw)
    c["dropout"] = (mk("Dropout", 0.4, seed=5), _one, [x])
    c["dropout-noise-shape"] = (mk("Dropout", 0.5, noise_shape=(1, 8), seed=9), _one, [x])
    c["dropout-rate0"] = (mk("Dropout", 0.0), _one, [x])
    c["sdrop1d"] = (mk("SpatialDropout1D", 0.5, seed=3), _one, [x1])
    c["sdrop2d"] = (mk("SpatialDropout2D", 0.5, seed=4), _one, [x2])
    c["sdrop2d-cf"] = (mk("SpatialDropout2D", 0.5, seed=4, data_format="channels_first"), _one, [x2])
    c["sdrop3d"] = (mk("SpatialDropout3D", 0.3, seed=6), _one, [x3])
    c["gnoise"] = (mk("GaussianNoise", 0.3, seed=1), _one, [x])
    c["gdropout"] = (mk("GaussianDropout", 0.3, seed=2), _one, [x])
    c["adropout"] = (mk("AlphaDropout", 0.3, seed=8), _one, [x])
    c["adropout-noise-shape"] = (mk("AlphaDropout", 0.5, noise_shape=(3, 1), seed=8), _one, [x])
    c["actreg"] = (mk("ActivityRegularization", l1=0.01, l2=0.03), _with_losses, [x])
    c["lambda"] = (lambda: L.Lambda(lambda t: t * t - 0.5 * t, dtype=dt, name="y_lambda"), _one, [x])
    c["identity"] = (mk("Identity"), _one, [x])
    c["td-dense"] = (lambda: L.TimeDistributed(L.Dense(3, dtype=dt, name="y_td_inner"), name="y_td"), _one,
                     [x1])
    c["td-conv1d"] = (lambda: L.TimeDistributed(L.Conv1D(2, 2, padding="same", dtype=dt, name="y_td_conv"),
                                                name="y_td_c"), _one, [xt])
    return c


MISC_KEEP = ("dropout", "dropout-noise-shape", "sdrop2d", "gnoise", "gdropout", "adropout", "actreg", "td-dense")

def _optimizer_steps(tf: Any, mk: Any) -> Any:
    """One SGD(0.5) step of a non-uniform linear loss through layers with weight constraints and regularizers (the
    optimizer applies each variable's constraint after its update): every weight after the step, TF 2.21's bits."""
    L, K = tf.keras.layers, tf.keras
    x = tf.constant(arr("ox", (3, 5)).astype("float32"))
    x2 = tf.constant(arr("ox2", (1, 4, 5, 2)).astype("float32"))
    ids = tf.constant([[0, 3, 5, 3], [5, 0, 0, 1]])
    cases = {
        "dense": (lambda: L.Dense(4, kernel_constraint=K.constraints.MaxNorm(0.6), bias_constraint="non_neg",
                                  name="y_dense"), x),
        "dense-one-unit": (lambda: L.Dense(1, kernel_constraint="unit_norm", name="y_dense1"),
                           tf.constant(arr("ox9", (9, 3)).astype("float32"))),
        "conv2dt": (lambda: L.Conv2DTranspose(2, 2, kernel_constraint=K.constraints.MinMaxNorm(0.2, 0.7),
                                              bias_constraint="non_neg", name="y_conv2dt"), x2),
        "embedding": (lambda: L.Embedding(6, 3, embeddings_constraint="max_norm", name="y_embedding"), ids),
        "einsum": (lambda: L.EinsumDense("ab,bc->ac", 4, bias_axes="c", kernel_constraint="non_neg",
                                         name="y_einsum"), x),
    }
    out: dict[str, Any] = {}
    for key, (make, xx) in cases.items():
        def one(make: Any = make, xx: Any = xx, key: str = key) -> Any:
            layer = make()
            layer(xx)
            seed_weights(layer, f"y/opt/{key}")
            opt = K.optimizers.SGD(0.5)
            with tf.GradientTape() as t:
                y = layer(xx, training=True)
                loss = tf.reduce_sum(y * upstream(tf, f"y/opt/{key}", tuple(y.shape), "float32"))
            grads = t.gradient(loss, layer.trainable_weights)
            opt.apply_gradients(zip(grads, layer.trainable_weights))
            return [bits(w) for w in layer.weights]
        out[key] = error(one)
    return out


program("y-opt-float32", _optimizer_steps)

FAMILIES: dict[str, tuple[Callable[[Any, str], dict[str, Case]], tuple[str, ...]]] = {
    "core": (_core_cases, CORE_KEEP), "conv": (_conv_cases, CONV_KEEP), "pool": (_pool_cases, POOL_KEEP),
    "reshape": (_reshape_cases, RESHAPE_KEEP), "merge": (_merge_cases, MERGE_KEEP), "misc": (_misc_cases, MISC_KEEP),
}

for _fam, (_cases, _keep) in FAMILIES.items():
    for _dt in DTYPES:
        def _prog(tf: Any, mk: Any, cases: Any = _cases, keep: Any = _keep, dt: str = _dt) -> Any:
            return sweep(tf, cases(tf, dt), dt, keep)
        program(f"y-{_fam}-{_dt}", _prog)
