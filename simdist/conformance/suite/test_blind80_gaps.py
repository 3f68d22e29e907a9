"""The classes around the eightieth blind batch's mutants (tests/mutants.py TRAINING_BATCH80, the Keras areas) that the
suite did not catch on first contact, each checked as a class rather than as the one mutant.

Each program runs on the backend under test; its expected result is TF 2.21's, observed by running the same program
on TF (`python -m simdist.conformance.suite.test_blind80_gaps --record`, which rewrites blind80_reference.json.gz).
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

PATH = os.path.join(os.path.dirname(__file__), "blind80_reference.json.gz")

#: programs whose TF 2.21 bits follow the CPU's kernels (clause ops.host-cpu)
HOST_DEPENDENT = ("kernel-",)

REF = RecordedPrograms(PATH, HOST_DEPENDENT, recording_host=avx512_with_onednn, recording_cpu=reference_cpu)
_program, _ids, _check = REF.add, REF.ids, REF.check


# -- 1. image layers that blend images: the blend's arithmetic bit for bit ---------------------------------------------
def _image_blends(tf: Any, mk: Any) -> Any:
    """MixUp (alphas 0.2, 1.0, 3.0), CutMix and AugMix in training on float32 batches with values in [0, 255] and
    [0, 1] and labels; and MixUp under a float16 and a bfloat16 layer dtype: the images and labels by their bits (the
    blend w * a + (1 - w) * b is evaluated in one order, which its last bits show)."""
    keras = tf.keras
    L = keras.layers
    r = _rng("blends")
    out: dict[str, Any] = {}
    for scale in (255.0, 1.0):
        images = (r.uniform(0, 1, (4, 5, 5, 3)) * scale).astype("float32")
        labels = np.eye(4, dtype="float32")[[0, 1, 2, 3]]
        for alpha in (0.2, 1.0, 3.0):
            def mix(alpha: float = alpha, images: Any = images, labels: Any = labels) -> Any:
                o = L.MixUp(alpha=alpha, seed=5)({"images": images, "labels": labels}, training=True)
                return [_bits(o["images"]), _bits(o["labels"])]
            out[f"mixup scale={scale} alpha={alpha}"] = _error(mix)

        def cut(images: Any = images, labels: Any = labels) -> Any:
            o = L.CutMix(factor=1.0, seed=6)({"images": images, "labels": labels}, training=True)
            return [_bits(o["images"]), _bits(o["labels"])]
        out[f"cutmix scale={scale}"] = _error(cut)
    for dt in ("float16", "bfloat16"):
        def mixh(dt: str = dt) -> Any:
            images = (r.uniform(0, 1, (3, 4, 4, 3)) * 255).astype("float32")
            o = L.MixUp(alpha=0.5, seed=7, dtype=dt)({"images": images, "labels": np.eye(3, dtype="float32")},
                                                      training=True)
            return [_bits(o["images"]), _bits(o["labels"])]
        out[f"mixup dtype={dt}"] = _error(mixh)
    return out


_program("keras-image-blends", _image_blends)


# -- 2. Equalization: value ranges other than (0, 255), degenerate (one-value) channels -------------------------------
def _equalization_value_ranges(tf: Any, mk: Any) -> Any:
    """Equalization at value ranges (0, 1), (-1, 1), (0, 255), (-3.5, 7.25) and bins 256 and 32, on channels that hold
    one value (the histogram is degenerate: the channel goes through the range maps and back unchanged in exact
    arithmetic, so the maps' last bits show), two values and random values: the outputs by their bits."""
    keras = tf.keras
    L = keras.layers
    r = _rng("equalize")
    out: dict[str, Any] = {}
    for lo, hi in ((0.0, 1.0), (-1.0, 1.0), (0.0, 255.0), (-3.5, 7.25)):
        span = hi - lo
        const = (lo + span * r.uniform(0, 1, (1, 1, 1, 3))).astype("float32") * np.ones((1, 3, 4, 3), "float32")
        two = const.copy()
        two[0, 0, 0, :] = np.float32(lo + span * 0.37)
        rand = (lo + span * r.uniform(0, 1, (2, 6, 5, 3))).astype("float32")
        for bins in (256, 32):
            for name, x in (("const", const), ("two", two), ("random", rand)):
                def eq(x: Any = x, bins: int = bins, lo: float = lo, hi: float = hi) -> Any:
                    return _bits(L.Equalization(value_range=(lo, hi), bins=bins)(x, training=True))
                out[f"range=({lo}, {hi}) bins={bins} {name}"] = _error(eq)
    return out


_program("keras-image-equalization-ranges", _equalization_value_ranges)


@pytest.mark.clause("keras.layer.image-color-augment")
@pytest.mark.parametrize("name", _ids("keras-image"))
def test_blind80_keras_image_layers(backend: Any, name: str) -> None:
    """Image layers' arithmetic bit for bit: blends (MixUp, CutMix) and Equalization's value-range maps."""
    _check(backend, name)


# -- 3. audio layers: MelSpectrogram's filter bank and STFTSpectrogram's kernels bit for bit --------------------------
def _audio_layers(tf: Any, mk: Any) -> Any:
    """MelSpectrogram at fft lengths 64 and 128, 8 to 40 mel bins, sampling rates 8000/16000/22050, frequency edges
    (defaults, 0 to 4000, 300 to 3000), power_to_db on and off; STFTSpectrogram in the modes real/imag/magnitude/log/
    angle with hann, hamming and no window, frame lengths 16 and 20 and fft lengths 16 and 32: outputs by their bits on a
    [-1, 1] signal (the filter bank's slopes and the STFT kernels' phases are computed in float32 in one order)."""
    keras = tf.keras
    L = keras.layers
    r = _rng("audio")
    sig = r.uniform(-1, 1, (2, 512)).astype("float32")
    out: dict[str, Any] = {}
    for fft, bins, rate, edges, db in ((64, 8, 8000, None, False), (128, 20, 16000, None, True),
                                       (128, 40, 22050, (0.0, 4000.0), False), (64, 16, 16000, (300.0, 3000.0), True)):
        kw = {} if edges is None else {"min_freq": edges[0], "max_freq": edges[1]}

        def mel(fft: int = fft, bins: int = bins, rate: int = rate, db: bool = db, kw: Any = kw) -> Any:
            return _bits(L.MelSpectrogram(fft_length=fft, sequence_stride=fft // 4, num_mel_bins=bins,
                                          sampling_rate=rate, power_to_db=db, **kw)(sig))
        out[f"mel fft={fft} bins={bins} rate={rate} edges={edges} db={db}"] = _error(mel)
    x = sig.reshape(2, 512, 1)[:, :200]
    for mode in ("real", "imag", "magnitude", "log", "angle"):
        for window, frame, fft in (("hann", 16, 16), ("hamming", 20, 32), (None, 16, 32)):
            def stft(mode: str = mode, window: Any = window, frame: int = frame, fft: int = fft) -> Any:
                return _bits(L.STFTSpectrogram(mode=mode, frame_length=frame, frame_step=frame // 2, fft_length=fft,
                                               window=window)(x))
            out[f"stft mode={mode} window={window} frame={frame} fft={fft}"] = _error(stft)
    return out


_program("kernel-keras-audio-layers", _audio_layers)


@pytest.mark.clause("keras.layer.audio")
@pytest.mark.parametrize("name", _ids("kernel-keras-audio"))
def test_blind80_keras_audio_layers(backend: Any, name: str) -> None:
    """MelSpectrogram's filter bank and STFTSpectrogram's kernels bit for bit over their options."""
    _check(backend, name)


# -- 4. attention in the half types and float64: the default scale's dtype ---------------------------------------------
def _attention_dtypes(tf: Any, mk: Any) -> Any:
    """keras.ops.dot_product_attention with the default scale (and an explicit one) on float16, bfloat16, float32 and
    float64 queries of head sizes 3, 5, 8, 12 and 48, with a bias and with a causal mask; MultiHeadAttention and
    Attention(use_scale=False) layers in float64 and under a mixed_float16 layer policy: outputs by their bits (the
    default scale 1 / sqrt(head size) is computed in float32 whatever the queries' dtype)."""
    keras = tf.keras
    L = keras.layers
    r = _rng("attention")
    out: dict[str, Any] = {}
    for dt in ("float16", "bfloat16", "float32", "float64"):
        for d in (3, 5, 8, 12, 48):
            q, k, v = (tf.cast(r.uniform(-1, 1, (2, 4, 2, d)).astype("float32"), dt) for _ in range(3))
            bias = tf.cast(r.uniform(-1, 1, (2, 2, 4, 4)).astype("float32"), dt)
            out[f"dpa {dt} d={d}"] = _error(lambda q=q, k=k, v=v: _bits(tf.cast(keras.ops.dot_product_attention(q, k, v),
                                                                                 "float64")))
            out[f"dpa {dt} d={d} bias causal"] = _error(lambda q=q, k=k, v=v, bias=bias: _bits(tf.cast(
                keras.ops.dot_product_attention(q, k, v, bias=bias, is_causal=True), "float64")))
            out[f"dpa {dt} d={d} scale=0.3"] = _error(lambda q=q, k=k, v=v: _bits(tf.cast(
                keras.ops.dot_product_attention(q, k, v, scale=0.3), "float64")))
    x = r.uniform(-1, 1, (2, 5, 6)).astype("float32")
    for dt in ("float64", "mixed_float16"):
        def mha(dt: str = dt) -> Any:
            lay = L.MultiHeadAttention(num_heads=2, key_dim=5, dtype=dt,
                                       kernel_initializer=keras.initializers.GlorotUniform(seed=3))
            return _bits(tf.cast(lay(x, x), "float64"))
        out[f"mha {dt}"] = _error(mha)
    return out


_program("kernel-keras-attention-dtypes", _attention_dtypes)


@pytest.mark.clause("keras.layer.forward-and-gradients")
@pytest.mark.parametrize("name", _ids("kernel-keras-attention"))
def test_blind80_keras_attention_dtypes(backend: Any, name: str) -> None:
    """dot_product_attention and the attention layers in the half types and float64, bit for bit."""
    _check(backend, name)


# -- 5. summaries of layers with thousands of parameters -----------------------------------------------------------------
def _summaries_of_large_layers(tf: Any, mk: Any) -> Any:
    """model.summary() lines of named Sequential and functional models whose layers hold 999, 1,000, 12,345 and over a
    million parameters (Dense, Embedding, Conv2D, a nested model, an unbuilt layer), with show_trainable and
    expand_nested: the rows' parameter counts and the totals as Keras prints them."""
    keras = tf.keras
    L = keras.layers
    out: dict[str, Any] = {}

    def lines(m: Any, **kw: Any) -> list[str]:
        got: list[str] = []
        m.summary(print_fn=lambda line, **k: got.append(line), **kw)
        return "\n".join(got).splitlines()

    seq = keras.Sequential([keras.Input((36,)), L.Dense(27, name="d999"), L.Dense(1000 // 28 + 8, name="d1000"),
                            L.Dense(1100, name="wide"), L.Dense(3, name="head")], name="seq_big")
    out["sequential"] = lines(seq)
    x = keras.Input((12,), dtype="int32", name="tokens")
    e = L.Embedding(1100, 16, name="emb")(x)
    c = L.Conv1D(64, 3, name="conv")(e)
    inner = keras.Sequential([keras.Input((64,)), L.Dense(200, name="in_d")], name="inner_big")
    y = inner(L.GlobalMaxPooling1D(name="pool")(c))
    f = keras.Model(x, L.Dense(2, name="out")(y), name="func_big")
    out["functional"] = lines(f)
    out["functional expand_nested show_trainable"] = lines(f, expand_nested=True, show_trainable=True)
    return out


_program("keras-summary-large-layers", _summaries_of_large_layers)


@pytest.mark.clause("keras.model.call")
@pytest.mark.parametrize("name", _ids("keras-summary"))
def test_blind80_keras_summaries(backend: Any, name: str) -> None:
    """Summaries of models whose layers hold thousands of parameters, line for line."""
    _check(backend, name)


# -- 6. float64 losses meeting Python constants; integer Keras variables given floats ----------------------------------
def _float64_losses(tf: Any, mk: Any) -> Any:
    """Losses computed in float64 (dtype="float64") whose Keras code meets Python numbers (epsilon, gamma, alpha, delta,
    smoothing): MeanSquaredLogarithmicError (predictions at and below epsilon), BinaryFocalCrossentropy and
    CategoricalFocalCrossentropy (gammas 1.7 and 2.0, class balancing), Dice, Tversky, Huber (delta 0.1), LogCosh,
    KLDivergence and Poisson, per sample: by their bits (a Python constant converted straight to float64, not through
    float32)."""
    keras = tf.keras
    r = _rng("loss64")
    yt = r.uniform(0, 1, (6, 5))
    yp = r.uniform(-0.3, 1, (6, 5))
    yp[0, 0], yp[1, 1], yp[2, 2] = 0.0, 1e-9, 1e-7
    onehot = np.eye(5)[[0, 1, 2, 3, 4, 1]]
    probs = r.uniform(0.01, 1, (6, 5))
    probs = probs / probs.sum(-1, keepdims=True)
    L_ = keras.losses
    cases = {
        "msle": lambda: L_.MeanSquaredLogarithmicError(dtype="float64", reduction=None)(yt, yp),
        "bfce": lambda: L_.BinaryFocalCrossentropy(gamma=1.7, dtype="float64", reduction=None)(
            (yt > 0.5).astype("float64"), np.clip(yp, 0.01, 0.99)),
        "bfce-balanced": lambda: L_.BinaryFocalCrossentropy(gamma=2.0, alpha=0.3, apply_class_balancing=True,
                                                            dtype="float64", reduction=None)(
            (yt > 0.5).astype("float64"), np.clip(yp, 0.01, 0.99)),
        "cfce": lambda: L_.CategoricalFocalCrossentropy(gamma=1.7, dtype="float64", reduction=None)(onehot, probs),
        "dice": lambda: L_.Dice(dtype="float64", reduction=None)(yt, np.abs(yp)),
        "tversky": lambda: L_.Tversky(alpha=0.3, beta=0.7, dtype="float64", reduction=None)(yt, np.abs(yp)),
        "huber": lambda: L_.Huber(delta=0.1, dtype="float64", reduction=None)(yt, yp),
        "logcosh": lambda: L_.LogCosh(dtype="float64", reduction=None)(yt, yp),
        "kld": lambda: L_.KLDivergence(dtype="float64", reduction=None)(probs, probs[::-1]),
        "poisson": lambda: L_.Poisson(dtype="float64", reduction=None)(yt, np.abs(yp)),
    }
    return {k: _error(lambda f=f: _bits(f())) for k, f in cases.items()}


_program("keras-float64-losses", _float64_losses)


def _integer_variables_given_floats(tf: Any, mk: Any) -> Any:
    """Keras variables of int32, int64, uint8 and bool dtypes assigned (and assign_add-ed) Python floats, lists of
    floats, NumPy float arrays and float tensors, and made from float initial values with an integer dtype: the values
    after, or the error's class."""
    keras = tf.keras
    out: dict[str, Any] = {}
    values = {"list": [1.7, -2.2], "numpy": np.array([3.9, 4.1]), "numpy32": np.array([0.5, -0.5], "float32"),
              "python": 5.5, "tensor": "tensor"}
    for dt, init in (("int32", [1, 2]), ("int64", [1, 2]), ("uint8", [1, 2]), ("bool", [True, False])):
        for name, val in values.items():
            for op in ("assign", "assign_add"):
                def run(dt: str = dt, init: Any = init, val: Any = val, op: str = op) -> Any:
                    v = keras.Variable(np.array(init, dt))
                    given = tf.constant([2.5, 0.25]) if isinstance(val, str) else (
                        [val, val] if isinstance(val, float) else val)
                    getattr(v, op)(given)
                    return _bits(v.numpy())
                out[f"{dt} {op} {name}"] = _error(run)
        out[f"{dt} from floats"] = _error(lambda dt=dt: _bits(keras.Variable(np.array([1.5, 0.0]), dtype=dt).numpy()))
    return out


_program("keras-integer-variables-given-floats", _integer_variables_given_floats)


@pytest.mark.clause("keras.variable")
@pytest.mark.parametrize("name", ["keras-float64-losses", "keras-integer-variables-given-floats"])
def test_blind80_keras_numbers_into_dtypes(backend: Any, name: str) -> None:
    """Python numbers and floats into float64 losses and integer Keras variables, as Keras converts them."""
    _check(backend, name)


if __name__ == "__main__":
    import sys
    if "--record" in sys.argv:
        REF.record()
