"""Keras 3's image-augmentation and audio preprocessing layers crossed by rule (sixty-second session, isweep62;
test_isweep62.py): every layer of keras.layers' image and audio preprocessing with its constructor options off
their defaults, seeded, bit for bit against TF 2.21's recorded results.

What is crossed (earlier modules call these layers mostly at defaults: test_keras_image_preprocessing's structure,
blind80's blends, Equalization ranges and spectrogram defaults):
- geometry: RandomFlip (each mode), RandomRotation / RandomZoom / RandomTranslation / RandomShear (factors as a float,
  a tuple, asymmetric and negative; each fill_mode x interpolation; fill_value; channels_first), RandomPerspective
  (factor, scale), RandomElasticTransform (scale, interpolation, fill_mode), RandomCrop (smaller, equal, larger),
  CenterCrop (smaller, larger, channels_first), Resizing (every interpolation, crop_to_aspect_ratio,
  pad_to_aspect_ratio with a fill_value, a uint8 input), Rescaling (scale and offset, an int input);
- colour: RandomContrast, RandomBrightness, RandomHue, RandomSaturation, RandomColorJitter, RandomColorDegeneration,
  RandomGrayscale, RandomSharpness, RandomInvert, RandomPosterization, Solarization, AutoContrast, Equalization,
  RandomGaussianBlur, RandomErasing: factors as a float, an asymmetric tuple, 0 and 1; value_range (0, 1), (0, 255),
  (-1, 1); bins, kernel sizes, sigmas, scales, fill values;
- mixing: MixUp (alpha), CutMix (factor), RandAugment (num_ops, factor, interpolation), AugMix (chains, depth,
  all_ops), Pipeline;
- audio: STFTSpectrogram (mode, frame_length/step, fft_length, window, periodic, scaling, padding, expand_dims,
  channels_first) and MelSpectrogram (fft_length, sequence_stride/length, window, sampling_rate, num_mel_bins,
  min/max_freq, power_to_db, top_db, mag_exp, min_power, ref_power);
- each on a batch and a single image, training True and False, a float16 and a bfloat16 layer dtype, a uint8 input,
  and inside a tf.function and a tf.data map (Keras switches its backend there).

Every layer is seeded (Keras's SeedGenerator: the draws are deterministic on both). All programs are recorded as
host-dependent (the reductions' and the resampling's order is the CPU's): simdist runs them under its reference model
of the AVX-512 oneDNN recording host. `python -m simdist.conformance.suite.test_isweep62 --record` rewrites
isweep62_reference.json.gz. OPEN lists simdist's disagreements with TF 2.21 left out of the comparison."""

from __future__ import annotations

import json
import os
import random as py_random
from typing import Any, Callable

import numpy as np

from simdist.conformance.suite.kpaths54_cases import packed
from simdist.conformance.suite.recorded_programs import RecordedPrograms, avx512_with_onednn, bits, reference_cpu, rng

PATH = os.path.join(os.path.dirname(__file__), "isweep62_reference.json.gz")

REF = RecordedPrograms(PATH, host_dependent=("is-",), recording_host=avx512_with_onednn, recording_cpu=reference_cpu)

#: simdist's disagreements with TF 2.21 left out of the comparison: program -> case keys (docs/conformance.md,
#: "Sixty-second session ... isweep62"; /work/wt/isweep62_logs/cmp.py over the recording).
#: (1) a seeded Keras layer constructed inside the traced function (a tf.function, a tf.data map): TF 2.21 raises
#:     ValueError ("tf.function only supports singleton tf.Variables created on the first call": the layer's
#:     SeedGenerator state variable is created anew when the function is traced again), simdist runs it (q_tf.py);
OPEN: dict[str, tuple[str, ...]] = {
    "is-mixing": ("mixup traced", "pipeline mapped"),
}


def o(y: Any) -> Any:
    """An output (a tensor, or a dict of them) as [dtype, shape, bits]."""
    if isinstance(y, dict):
        return {k: o(v) for k, v in sorted(y.items())}
    return [str(getattr(y.dtype, "name", y.dtype)), [int(d) for d in y.shape], bits(y)]


def attempt(fn: Callable[[], Any]) -> Any:
    try:
        return fn()
    except Exception as e:  # noqa: BLE001 - the class is the observation
        return f"raised {type(e).__name__}"


def run_cases(name: str, cases: dict[str, Callable[[], Any]], keras: Any) -> Any:
    out: dict[str, Any] = {}
    skip = OPEN.get(name, ())
    for key, fn in cases.items():
        keras.backend.clear_session()
        if key not in skip:
            out[key] = attempt(fn)
    keras.backend.clear_session()
    return packed(json.loads(json.dumps(out)))


def program(name: str, fn: Callable[[Any, Any, np.random.RandomState], dict[str, Callable[[], Any]]]) -> None:
    """Register `name`: fn(tf, keras, r) gives its cases; each case's result (or refusal class) recorded."""
    REF.add(name, lambda tf, mk: run_cases(name, fn(tf, tf.keras, rng(name)), tf.keras))


def images(r: np.random.RandomState, shape: tuple[int, ...] = (2, 5, 6, 3), lo: float = 0.0,
           hi: float = 255.0) -> np.ndarray:
    return (lo + (hi - lo) * r.uniform(0, 1, shape)).astype("float32")


def contexts(tf: Any, make: Callable[[], Any], x: np.ndarray, prefix: str = "") -> dict[str, Callable[[], Any]]:
    """A fresh layer (make()) on x: eager training True / False / omitted, a single image, inside a tf.function and
    a tf.data map."""
    def eager(training: Any) -> Any:
        lay = make()
        return o(lay(x) if training is None else lay(x, training=training))

    def traced() -> Any:
        lay = make()
        return o(tf.function(lambda t: lay(t, training=True))(tf.constant(x)))

    def mapped() -> Any:
        lay = make()
        ds = tf.data.Dataset.from_tensor_slices(x).batch(x.shape[0]).map(lambda t: lay(t, training=True))
        return o(next(iter(ds)))

    return {f"{prefix}train": lambda: eager(True), f"{prefix}infer": lambda: eager(False),
            f"{prefix}default": lambda: eager(None), f"{prefix}single": lambda: o(make()(x[0], training=True)),
            f"{prefix}traced": traced, f"{prefix}mapped": mapped}


def calls(make: Callable[[], Any], x: np.ndarray, training: bool = True) -> Callable[[], Any]:
    return lambda: o(make()(x, training=training))


# -- 1. geometry --------------------------------------------------------------------------------------------------------
FILLS = ("reflect", "wrap", "constant", "nearest")
INTERPS = ("bilinear", "nearest")


def _flip(tf: Any, keras: Any, r: Any) -> Any:
    L = keras.layers
    x = images(r, (4, 3, 4, 2))
    cases: dict[str, Callable[[], Any]] = {}
    for mode in ("horizontal", "vertical", "horizontal_and_vertical"):
        cases.update(contexts(tf, lambda mode=mode: L.RandomFlip(mode, seed=3), x, f"{mode} "))
    cases["seed 11"] = calls(lambda: L.RandomFlip(seed=11), x)
    cases["channels_first"] = calls(lambda: L.RandomFlip(seed=3, data_format="channels_first"), x.transpose(0, 3, 1, 2))
    cases["uint8"] = calls(lambda: L.RandomFlip(seed=3), x.astype("uint8"))
    cases["float16"] = calls(lambda: L.RandomFlip(seed=3, dtype="float16"), x)
    cases["bad mode"] = calls(lambda: L.RandomFlip("diagonal", seed=3), x)
    return cases


program("is-flip", _flip)


def _affine(kind: str) -> Callable[[Any, Any, Any], Any]:
    def fn(tf: Any, keras: Any, r: Any) -> Any:
        L = keras.layers
        x = images(r, (2, 5, 7, 2))

        def make(factor: Any = None, **kw: Any) -> Any:
            if kind == "rotation":
                return L.RandomRotation(0.2 if factor is None else factor, seed=5, **kw)
            if kind == "zoom":
                return L.RandomZoom(0.3 if factor is None else factor, seed=5, **kw)
            if kind == "translation":
                return L.RandomTranslation(0.2 if factor is None else factor, 0.3, seed=5, **kw)
            return L.RandomShear(0.3 if factor is None else factor, 0.2, seed=5, **kw)

        cases = contexts(tf, make, x)
        for fill in FILLS:
            for interp in INTERPS:
                cases[f"{fill} {interp}"] = calls(lambda fill=fill, interp=interp: make(
                    fill_mode=fill, interpolation=interp), x)
        cases["constant fill_value 7"] = calls(lambda: make(fill_mode="constant", fill_value=7.0), x)
        for f in ((-0.1, 0.3), (0.25, 0.25), 0.0, 1.0, (-0.4, -0.2), (0.2, 0.1)):
            cases[f"factor {f}"] = calls(lambda f=f: make(f), x)
        cases["channels_first"] = calls(lambda: make(data_format="channels_first"), x.transpose(0, 3, 1, 2))
        cases["float16"] = calls(lambda: make(dtype="float16"), x)
        cases["bfloat16"] = calls(lambda: make(dtype="bfloat16"), x)
        cases["uint8"] = calls(make, x.astype("uint8"))
        if kind == "zoom":
            cases["width_factor tuple"] = calls(lambda: L.RandomZoom(0.2, (-0.3, 0.1), seed=5), x)
            cases["width_factor 0"] = calls(lambda: L.RandomZoom((-0.3, -0.1), 0.0, seed=5), x)
        if kind == "translation":
            cases["width tuple"] = calls(lambda: L.RandomTranslation(0.1, (-0.3, 0.1), seed=5), x)
        if kind == "shear":
            cases["x only"] = calls(lambda: L.RandomShear(x_factor=0.4, seed=5), x)
            cases["y only"] = calls(lambda: L.RandomShear(y_factor=(0.1, 0.5), seed=5), x)
        return cases
    return fn


for _k in ("rotation", "zoom", "translation", "shear"):
    program(f"is-{_k}", _affine(_k))


def _perspective_elastic(tf: Any, keras: Any, r: Any) -> Any:
    L = keras.layers
    x = images(r, (2, 6, 5, 2))
    cases = contexts(tf, lambda: L.RandomPerspective(factor=1.0, scale=0.5, seed=4), x, "persp ")
    for interp in INTERPS:
        cases[f"persp {interp}"] = calls(lambda interp=interp: L.RandomPerspective(
            factor=0.7, scale=0.3, interpolation=interp, fill_value=2.0, seed=4), x)
    cases["persp channels_first"] = calls(lambda: L.RandomPerspective(factor=1.0, seed=4,
                                                                     data_format="channels_first"),
                                          x.transpose(0, 3, 1, 2))
    cases["persp scale 1"] = calls(lambda: L.RandomPerspective(factor=1.0, scale=1.0, seed=4), x)
    cases["persp factor 0"] = calls(lambda: L.RandomPerspective(factor=0.0, seed=4), x)
    cases.update(contexts(tf, lambda: L.RandomElasticTransform(factor=1.0, scale=0.5, seed=6), x, "elastic "))
    for fill in FILLS:
        cases[f"elastic {fill}"] = calls(lambda fill=fill: L.RandomElasticTransform(
            factor=1.0, scale=0.4, fill_mode=fill, fill_value=3.0, seed=6), x)
    for shape in ((2, 24, 16, 1), (1, 12, 20, 2)):   # (larger sides: a distortion beyond the blur's last bits)
        xl = images(r, shape)
        cases[f"elastic {shape}"] = calls(lambda: L.RandomElasticTransform(factor=1.0, scale=1.0, seed=6), xl)
    cases["elastic nearest"] = calls(lambda: L.RandomElasticTransform(factor=1.0, interpolation="nearest", seed=6), x)
    cases["elastic range 0 1"] = calls(lambda: L.RandomElasticTransform(factor=1.0, value_range=(0, 1), seed=6),
                                       x / 255.0)
    return cases


program("is-persp-elastic", _perspective_elastic)


def _crops(tf: Any, keras: Any, r: Any) -> Any:
    L = keras.layers
    x = images(r, (2, 5, 6, 2))
    cases: dict[str, Callable[[], Any]] = {}
    cases.update(contexts(tf, lambda: L.RandomCrop(3, 4, seed=2), x, "rc "))
    cases["rc equal"] = calls(lambda: L.RandomCrop(5, 6, seed=2), x)
    cases["rc larger"] = calls(lambda: L.RandomCrop(7, 4, seed=2), x)
    cases["rc larger infer"] = calls(lambda: L.RandomCrop(7, 8, seed=2), x, training=False)
    cases["rc height 1"] = calls(lambda: L.RandomCrop(1, 6, seed=2), x)
    cases["rc channels_first"] = calls(lambda: L.RandomCrop(3, 4, seed=2, data_format="channels_first"),
                                       x.transpose(0, 3, 1, 2))
    cases["rc uint8"] = calls(lambda: L.RandomCrop(3, 4, seed=2), x.astype("uint8"))
    for h, w in ((3, 4), (4, 3), (5, 6), (7, 9), (2, 8), (1, 1)):
        cases[f"cc {h}x{w}"] = calls(lambda h=h, w=w: L.CenterCrop(h, w), x)
    cases["cc channels_first"] = calls(lambda: L.CenterCrop(3, 3, data_format="channels_first"),
                                       x.transpose(0, 3, 1, 2))
    cases["cc single"] = calls(lambda: L.CenterCrop(4, 3), x[0])
    cases["cc uint8"] = calls(lambda: L.CenterCrop(7, 3), x.astype("uint8"))
    cases["cc float16"] = calls(lambda: L.CenterCrop(7, 9, dtype="float16"), x)
    return cases


program("is-crops", _crops)


def _resizing(tf: Any, keras: Any, r: Any) -> Any:
    L = keras.layers
    x = images(r, (2, 5, 6, 2))
    cases: dict[str, Callable[[], Any]] = {}
    for interp in ("bilinear", "nearest", "bicubic", "area", "lanczos3", "lanczos5", "gaussian", "mitchellcubic"):
        cases[f"{interp} up"] = calls(lambda interp=interp: L.Resizing(7, 9, interpolation=interp), x)
        cases[f"{interp} down"] = calls(lambda interp=interp: L.Resizing(3, 4, interpolation=interp), x)
    cases["antialias down"] = calls(lambda: L.Resizing(3, 2, antialias=True), x)
    cases["crop_to_aspect_ratio"] = calls(lambda: L.Resizing(4, 4, crop_to_aspect_ratio=True), x)
    cases["crop_to_aspect_ratio tall"] = calls(lambda: L.Resizing(6, 3, crop_to_aspect_ratio=True), x)
    cases["pad_to_aspect_ratio"] = calls(lambda: L.Resizing(4, 4, pad_to_aspect_ratio=True, fill_value=9.0), x)
    cases["pad_to_aspect_ratio wide"] = calls(lambda: L.Resizing(3, 7, pad_to_aspect_ratio=True), x)
    cases["pad reflect"] = calls(lambda: L.Resizing(4, 4, pad_to_aspect_ratio=True, fill_mode="reflect"), x)
    cases["channels_first"] = calls(lambda: L.Resizing(3, 4, data_format="channels_first"), x.transpose(0, 3, 1, 2))
    cases["uint8 bilinear"] = calls(lambda: L.Resizing(3, 4), x.astype("uint8"))
    cases["uint8 nearest"] = calls(lambda: L.Resizing(7, 9, interpolation="nearest"), x.astype("uint8"))
    cases["float16"] = calls(lambda: L.Resizing(3, 4, dtype="float16"), x)
    cases["bfloat16"] = calls(lambda: L.Resizing(7, 4, dtype="bfloat16"), x)
    cases["single"] = calls(lambda: L.Resizing(3, 4), x[0])
    cases["traced"] = lambda: o(tf.function(lambda t: L.Resizing(3, 4, interpolation="bicubic")(t))(tf.constant(x)))
    cases["predict"] = lambda: o(keras.Sequential([keras.Input((5, 6, 2)), L.Resizing(3, 4, name="rs")],
                                                  name="m").predict(x, verbose=0))
    cases["rescaling"] = calls(lambda: L.Rescaling(1.0 / 127.5, offset=-1.0), x)
    cases["rescaling tuple"] = calls(lambda: L.Rescaling((0.5, 2.0), offset=(1.0, -3.0)), x)
    cases["rescaling int"] = calls(lambda: L.Rescaling(0.1), x.astype("int32"))
    cases["rescaling uint8 f16"] = calls(lambda: L.Rescaling(1.0 / 255, dtype="float16"), x.astype("uint8"))
    return cases


program("is-resizing", _resizing)


# -- 2. colour ----------------------------------------------------------------------------------------------------------
RANGES = ((0.0, 1.0), (0.0, 255.0), (-1.0, 1.0))


def _colour(kind: str) -> Callable[[Any, Any, Any], Any]:
    def fn(tf: Any, keras: Any, r: Any) -> Any:
        L = keras.layers

        def make(factor: Any = None, value_range: Any = (0, 255), seed: int = 7, **kw: Any) -> Any:
            return {
                "contrast": lambda: L.RandomContrast(0.4 if factor is None else factor, value_range=value_range,
                                                     seed=seed, **kw),
                "brightness": lambda: L.RandomBrightness(0.3 if factor is None else factor, value_range=value_range,
                                                         seed=seed, **kw),
                "hue": lambda: L.RandomHue(0.4 if factor is None else factor, value_range=value_range, seed=seed, **kw),
                "saturation": lambda: L.RandomSaturation(0.6 if factor is None else factor, value_range=value_range,
                                                         seed=seed, **kw),
                "degeneration": lambda: L.RandomColorDegeneration(0.7 if factor is None else factor,
                                                                  value_range=value_range, seed=seed, **kw),
                "sharpness": lambda: L.RandomSharpness(0.6 if factor is None else factor, value_range=value_range,
                                                       seed=seed, **kw),
                "invert": lambda: L.RandomInvert(0.5 if factor is None else factor, value_range=value_range, seed=seed,
                                                 **kw),
                "posterization": lambda: L.RandomPosterization(4 if factor is None else factor,
                                                               value_range=value_range, seed=seed, **kw),
                "solarization": lambda: L.Solarization(0.3 if factor is None else factor, 0.4,
                                                       value_range=value_range, seed=seed, **kw),
                "blur": lambda: L.RandomGaussianBlur(0.8 if factor is None else factor, value_range=value_range,
                                                     seed=seed, **kw),
                "erasing": lambda: L.RandomErasing(0.9 if factor is None else factor, value_range=value_range,
                                                   seed=seed, **kw),
                "grayscale": lambda: L.RandomGrayscale(0.5 if factor is None else factor, seed=seed, **kw),
            }[kind]()

        x = images(r, (3, 4, 5, 3))
        cases = contexts(tf, make, x)
        for lo, hi in RANGES:
            xr = images(r, (2, 4, 5, 3), lo, hi)
            cases[f"range {lo},{hi}"] = calls(lambda lo=lo, hi=hi: make(value_range=(lo, hi)), xr)
        factors: tuple[Any, ...] = ((0.1, 0.5), 0.0, 1.0, (0.0, 0.0), (1.0, 1.0), 0.25)
        if kind == "posterization":
            factors = (1, 8, (2, 6), 3)
        elif kind in ("contrast", "brightness"):
            factors = factors + ((-0.2, 0.5), -0.3)
        for f in factors:
            cases[f"factor {f}"] = calls(lambda f=f: make(f), x)
        cases["float16"] = calls(lambda: make(dtype="float16"), x)
        cases["bfloat16"] = calls(lambda: make(dtype="bfloat16"), x)
        cases["uint8"] = calls(make, x.astype("uint8"))
        cases["channels_first"] = calls(lambda: make(data_format="channels_first"), x.transpose(0, 3, 1, 2))
        cases["seed 0"] = calls(lambda: make(seed=0), x)
        if kind == "blur":
            for ks, sg in ((3, 0.5), (5, (0.2, 2.0)), (2, 1.0), (7, (1.0, 1.0))):
                cases[f"kernel {ks} sigma {sg}"] = calls(lambda ks=ks, sg=sg: L.RandomGaussianBlur(
                    1.0, kernel_size=ks, sigma=sg, seed=7), x)
        if kind == "erasing":
            for sc, fv in (((0.1, 0.5), None), ((0.3, 0.3), 2.0), ((0.02, 0.9), 0.0)):
                cases[f"scale {sc} fill {fv}"] = calls(lambda sc=sc, fv=fv: L.RandomErasing(
                    1.0, scale=sc, fill_value=fv, seed=7), x)
        if kind == "solarization":
            for a, t in ((0.0, 0.0), (0.5, (0.2, 0.6)), ((0.1, 0.2), 1.0), (0.0, 0.5)):
                cases[f"addition {a} threshold {t}"] = calls(lambda a=a, t=t: L.Solarization(
                    a, t, value_range=(0, 255), seed=7), x)
        if kind == "grayscale":
            cases["channels_first f1"] = calls(lambda: L.RandomGrayscale(1.0, data_format="channels_first", seed=7),
                                               x.transpose(0, 3, 1, 2))
        return cases
    return fn


for _k in ("contrast", "brightness", "hue", "saturation", "degeneration", "sharpness", "invert", "posterization",
           "solarization", "blur", "erasing", "grayscale"):
    program(f"is-colour-{_k}", _colour(_k))


def _jitter_autocontrast_equalize(tf: Any, keras: Any, r: Any) -> Any:
    L = keras.layers
    x = images(r, (2, 4, 5, 3))
    cases = contexts(tf, lambda: L.RandomColorJitter(value_range=(0, 255), brightness_factor=0.2, contrast_factor=0.3,
                                                     saturation_factor=(0.2, 0.6), hue_factor=0.1, seed=8), x, "jit ")
    for lo, hi in RANGES:
        xr = images(r, (2, 4, 5, 3), lo, hi)
        cases[f"jit range {lo},{hi}"] = calls(lambda lo=lo, hi=hi: L.RandomColorJitter(
            value_range=(lo, hi), brightness_factor=0.3, contrast_factor=0.4, seed=8), xr)
        cases[f"autocontrast {lo},{hi}"] = calls(lambda lo=lo, hi=hi: L.AutoContrast(value_range=(lo, hi)), xr)
        for bins in (256, 16, 2):
            cases[f"equalize {lo},{hi} bins {bins}"] = calls(lambda lo=lo, hi=hi, bins=bins: L.Equalization(
                value_range=(lo, hi), bins=bins), xr)
    cases["jit defaults"] = calls(lambda: L.RandomColorJitter(seed=8), x)
    cases["autocontrast const channel"] = calls(lambda: L.AutoContrast(), np.full((1, 3, 3, 3), 7.0, "float32"))
    cases["autocontrast uint8"] = calls(lambda: L.AutoContrast(), x.astype("uint8"))
    cases["autocontrast float16"] = calls(lambda: L.AutoContrast(dtype="float16"), x)
    cases["autocontrast channels_first"] = calls(lambda: L.AutoContrast(data_format="channels_first"),
                                                 x.transpose(0, 3, 1, 2))
    cases["equalize uint8"] = calls(lambda: L.Equalization(), x.astype("uint8"))
    cases["equalize float16"] = calls(lambda: L.Equalization(dtype="float16"), x)
    cases["equalize channels_first"] = calls(lambda: L.Equalization(data_format="channels_first"),
                                             x.transpose(0, 3, 1, 2))
    cases["equalize single"] = calls(lambda: L.Equalization(), x[0])
    cases["equalize traced"] = lambda: o(tf.function(lambda t: L.Equalization()(t))(tf.constant(x)))
    return cases


program("is-jitter-auto-equalize", _jitter_autocontrast_equalize)


# -- 3. mixing ----------------------------------------------------------------------------------------------------------
def _mixing(tf: Any, keras: Any, r: Any) -> Any:
    L = keras.layers
    x = images(r, (3, 4, 5, 3))
    x1 = images(r, (3, 4, 5, 3), 0.0, 1.0)
    lab = np.eye(3, dtype="float32")
    cases: dict[str, Callable[[], Any]] = {}
    for a in (0.2, 1.0, 4.0):
        cases[f"mixup alpha {a}"] = lambda a=a: o(L.MixUp(alpha=a, seed=9)({"images": x1, "labels": lab},
                                                                          training=True))
    cases["mixup images only"] = calls(lambda: L.MixUp(seed=9), x)
    cases["mixup infer"] = lambda: o(L.MixUp(seed=9)({"images": x, "labels": lab}, training=False))
    cases["mixup traced"] = lambda: o(tf.function(lambda t: L.MixUp(seed=9)(t, training=True))(tf.constant(x)))
    for f in (1.0, 0.5, (0.2, 0.8), 0.0):
        cases[f"cutmix factor {f}"] = lambda f=f: o(L.CutMix(factor=f, seed=9)({"images": x, "labels": lab},
                                                                              training=True))
    cases["cutmix channels_first"] = calls(lambda: L.CutMix(seed=9, data_format="channels_first"),
                                           x.transpose(0, 3, 1, 2))
    for n, f, interp in ((2, 0.5, "bilinear"), (1, (0.2, 0.9), "nearest"), (3, 1.0, "bilinear")):
        cases[f"randaugment {n} {f} {interp}"] = calls(lambda n=n, f=f, interp=interp: L.RandAugment(
            value_range=(0, 255), num_ops=n, factor=f, interpolation=interp, seed=9), x)
    cases["randaugment range 0 1"] = calls(lambda: L.RandAugment(value_range=(0, 1), seed=9), x1)
    for nc, d, all_ops in ((2, 1, True), (1, 2, False), (3, 2, True)):
        def augmix(nc: int = nc, d: Any = d, all_ops: bool = all_ops) -> Any:
            py_random.seed(62)   # (AugMix picks its ops with Python's global random.choice, as Keras does)
            return o(L.AugMix(value_range=(0, 255), num_chains=nc, chain_depth=d, factor=0.4, alpha=0.8,
                              all_ops=all_ops, seed=9)(x, training=True))
        cases[f"augmix {nc} {d} {all_ops}"] = augmix
    cases["pipeline"] = calls(lambda: L.Pipeline([L.RandomFlip(seed=1), L.RandomContrast(0.3, seed=2),
                                                 L.Resizing(3, 4)]), x)
    cases["pipeline infer"] = calls(lambda: L.Pipeline([L.RandomFlip(seed=1), L.Rescaling(0.5)]), x, training=False)
    cases["pipeline mapped"] = lambda: o(next(iter(tf.data.Dataset.from_tensor_slices(x).batch(3).map(
        lambda t: L.Pipeline([L.RandomRotation(0.2, seed=1), L.RandomBrightness(0.2, seed=2)])(t)))))
    return cases


program("is-mixing", _mixing)


# -- 4. audio -----------------------------------------------------------------------------------------------------------
def _stft(tf: Any, keras: Any, r: Any) -> Any:
    L = keras.layers
    s = r.uniform(-1, 1, (2, 64, 1)).astype("float32")
    cases: dict[str, Callable[[], Any]] = {}
    base = dict(frame_length=16, frame_step=8)
    for mode in ("log", "magnitude", "psd", "real", "imag", "angle", "stft"):
        cases[f"mode {mode}"] = calls(lambda mode=mode: L.STFTSpectrogram(mode=mode, **base), s)
    for win in ("hann", "hamming", None):
        for periodic in (False, True):
            cases[f"window {win} periodic {periodic}"] = calls(lambda win=win, periodic=periodic: L.STFTSpectrogram(
                window=win, periodic=periodic, **base), s)
    for fl, fs, ff in ((16, 4, 32), (15, 5, None), (8, 8, 8), (10, 3, 16)):
        cases[f"frames {fl} {fs} {ff}"] = calls(lambda fl=fl, fs=fs, ff=ff: L.STFTSpectrogram(
            frame_length=fl, frame_step=fs, fft_length=ff), s)
    for sc in ("density", "spectrum", None):
        cases[f"scaling {sc}"] = calls(lambda sc=sc: L.STFTSpectrogram(mode="psd", scaling=sc, **base), s)
    cases["padding same"] = calls(lambda: L.STFTSpectrogram(padding="same", **base), s)
    cases["expand_dims"] = calls(lambda: L.STFTSpectrogram(expand_dims=True, **base), s)
    cases["channels_first"] = calls(lambda: L.STFTSpectrogram(data_format="channels_first", **base),
                                    s.transpose(0, 2, 1))
    cases["two channels"] = calls(lambda: L.STFTSpectrogram(**base), np.concatenate([s, s[:, ::-1]], axis=2))
    cases["stft channels_first 2"] = calls(lambda: L.STFTSpectrogram(mode="stft", data_format="channels_first",
                                                                    **base),
                                           np.concatenate([s, s[:, ::-1]], axis=2).transpose(0, 2, 1))
    cases["traced"] = lambda: o(tf.function(lambda t: L.STFTSpectrogram(**base)(t))(tf.constant(s)))
    return cases


program("is-stft", _stft)


def _mel(tf: Any, keras: Any, r: Any) -> Any:
    L = keras.layers
    s = r.uniform(-1, 1, (2, 400)).astype("float32")
    cases: dict[str, Callable[[], Any]] = {}
    base = dict(fft_length=64, sequence_stride=32, sequence_length=48, num_mel_bins=16, sampling_rate=8000)
    cases["base"] = calls(lambda: L.MelSpectrogram(**base), s)
    cases["single"] = calls(lambda: L.MelSpectrogram(**base), s[0])
    for k, v in (("window", "hamming"), ("window", None), ("power_to_db", False), ("top_db", 20.0),
                 ("top_db", None), ("mag_exp", 1.0), ("mag_exp", 3.0), ("min_power", 1e-3), ("ref_power", 2.5),
                 ("min_freq", 300.0), ("max_freq", 3000.0), ("max_freq", None), ("num_mel_bins", 7),
                 ("sampling_rate", 16000), ("fft_length", 128), ("sequence_stride", 16), ("sequence_length", 64),
                 ("sequence_length", None)):
        kw = dict(base, **{k: v})
        cases[f"{k} {v}"] = calls(lambda kw=kw: L.MelSpectrogram(**kw), s)
    cases["power_to_db off mag 1"] = calls(lambda: L.MelSpectrogram(**dict(base, power_to_db=False, mag_exp=1.0)), s)
    cases["traced"] = lambda: o(tf.function(lambda t: L.MelSpectrogram(**base)(t))(tf.constant(s)))
    cases["float16"] = calls(lambda: L.MelSpectrogram(dtype="float16", **base), s)
    return cases


program("is-mel", _mel)


# -- 5. output shapes, dict inputs, argument boundaries --------------------------------------------------------------
def _shapes_and_boundaries(tf: Any, keras: Any, r: Any) -> Any:
    L = keras.layers
    x = images(r, (2, 5, 6, 2))
    masks = (r.uniform(0, 1, (2, 5, 6, 1)) * 4).astype("int32").astype("float32")

    def spec(layer: Any, shape: tuple[Any, ...]) -> Any:
        y = layer(keras.Input(shape[1:], batch_size=shape[0]))
        return [list(y.shape), str(y.dtype), [None if d is None else int(d) for d in layer.compute_output_shape(shape)]]

    cases: dict[str, Callable[[], Any]] = {
        "resizing shape 4": lambda: spec(L.Resizing(3, 4), (2, 5, 6, 2)),
        "resizing shape 3": lambda: [int(d) for d in L.Resizing(3, 4).compute_output_shape((5, 6, 2))],
        "resizing shape 3 cf": lambda: [int(d) for d in L.Resizing(3, 4, data_format="channels_first")
                                        .compute_output_shape((2, 5, 6))],
        "resizing shape cf": lambda: spec(L.Resizing(3, 4, data_format="channels_first"), (2, 2, 5, 6)),
        "random crop shape": lambda: spec(L.RandomCrop(3, 4, seed=1), (2, 5, 6, 2)),
        "random crop shape 3": lambda: [int(d) for d in L.RandomCrop(3, 4, seed=1).compute_output_shape((5, 6, 2))],
        "center crop shape": lambda: spec(L.CenterCrop(3, 4), (2, 5, 6, 2)),
        "center crop shape cf": lambda: spec(L.CenterCrop(3, 4, data_format="channels_first"), (2, 2, 5, 6)),
        "stft shape": lambda: spec(L.STFTSpectrogram(frame_length=16, frame_step=8), (2, 64, 1)),
        "stft shape cf": lambda: spec(L.STFTSpectrogram(frame_length=16, frame_step=8, data_format="channels_first"),
                                      (2, 2, 64)),
        "stft shape cf expand": lambda: spec(L.STFTSpectrogram(frame_length=16, frame_step=8, expand_dims=True,
                                                               data_format="channels_first"), (2, 1, 64)),
        "stft shape same": lambda: spec(L.STFTSpectrogram(frame_length=15, frame_step=4, padding="same"), (2, 61, 1)),
        "mel shape": lambda: spec(L.MelSpectrogram(fft_length=64, sequence_stride=32, num_mel_bins=16), (2, 400)),
        "mel shape 2": lambda: spec(L.MelSpectrogram(fft_length=64, sequence_stride=30, num_mel_bins=8), (3, 301)),
        "mel shape 320": lambda: spec(L.MelSpectrogram(fft_length=64, sequence_stride=32, num_mel_bins=8), (2, 320)),
        "mel shape 319": lambda: spec(L.MelSpectrogram(fft_length=64, sequence_stride=32, num_mel_bins=8), (2, 319)),
        "mel values 320": calls(lambda: L.MelSpectrogram(fft_length=64, sequence_stride=32, num_mel_bins=8),
                                r.uniform(-1, 1, (1, 320)).astype("float32")),
        "mel shape None": lambda: spec(L.MelSpectrogram(fft_length=64, sequence_stride=32, num_mel_bins=16),
                                       (2, None)),
        "resizing masks bilinear": lambda: o(L.Resizing(7, 9)({"images": x, "segmentation_masks": masks})),
        "resizing masks bicubic": lambda: o(L.Resizing(3, 4, interpolation="bicubic")(
            {"images": x, "segmentation_masks": masks})),
        "flip masks": lambda: o(L.RandomFlip(seed=3)({"images": x, "segmentation_masks": masks}, training=True)),
        "crop masks": lambda: o(L.RandomCrop(3, 4, seed=3)({"images": x, "segmentation_masks": masks},
                                                           training=True)),
        "rotation masks": lambda: o(L.RandomRotation(0.3, seed=3)({"images": x, "segmentation_masks": masks},
                                                                  training=True)),
        "flip uint8 infer": calls(lambda: L.RandomFlip(seed=3), x.astype("uint8"), training=False),
        "contrast uint8 infer": calls(lambda: L.RandomContrast(0.3, seed=3), x.astype("uint8"), training=False),
        "brightness uint8 infer": calls(lambda: L.RandomBrightness(0.3, seed=3), x.astype("uint8"), training=False),
        "rotation uint8 infer": calls(lambda: L.RandomRotation(0.3, seed=3), x.astype("uint8"), training=False),
        "blur kernel (3, 4)": calls(lambda: L.RandomGaussianBlur(1.0, kernel_size=(3, 4), seed=3), x),
        "blur kernel (4, 3)": calls(lambda: L.RandomGaussianBlur(1.0, kernel_size=(4, 3), seed=3), x),
        "blur kernel (3, 5)": calls(lambda: L.RandomGaussianBlur(1.0, kernel_size=(3, 5), seed=3), x),
        "perspective scale -0.1": calls(lambda: L.RandomPerspective(1.0, scale=-0.1, seed=3), x),
        "perspective scale 1.1": calls(lambda: L.RandomPerspective(1.0, scale=1.1, seed=3), x),
        "solarization 1.0": calls(lambda: L.Solarization(1.0, 1.0, value_range=(0, 255), seed=3), x),
        "solarization 1.01": calls(lambda: L.Solarization(1.01, value_range=(0, 255), seed=3), x),
        "solarization -0.1": calls(lambda: L.Solarization(0.0, -0.1, value_range=(0, 255), seed=3), x),
        "contrast 1.5": calls(lambda: L.RandomContrast(1.5, seed=3), x),
        "zoom 1.5": calls(lambda: L.RandomZoom(1.5, seed=3), x),
        "zoom -1.5": calls(lambda: L.RandomZoom(-1.5, seed=3), x),
        "rotation 1.5": calls(lambda: L.RandomRotation(1.5, seed=3), x),
        "translation 1.5": calls(lambda: L.RandomTranslation(1.5, 1.5, seed=3), x),
        "brightness 1.5": calls(lambda: L.RandomBrightness(1.5, seed=3), x),
        "saturation 1.5": calls(lambda: L.RandomSaturation(1.5, seed=3), x),
        "hue 1.5": calls(lambda: L.RandomHue(1.5, seed=3), x),
        "height 0.3": calls(lambda: L.RandomHeight(0.3, seed=3), x),
        "width 0.3": calls(lambda: L.RandomWidth(0.3, seed=3), x),
        "height (-0.4, 0.2)": calls(lambda: L.RandomHeight((-0.4, 0.2), seed=4), x),
        "width -0.3 nearest": calls(lambda: L.RandomWidth(0.3, interpolation="nearest", seed=5), x),
        "max boxes": lambda: o(L.MaxNumBoundingBoxes(4, fill_value=-1)({"images": x, "bounding_boxes": {
            "boxes": np.array([[[0, 0, 2, 2], [1, 1, 3, 4]]] * 2, "float32"),
            "labels": np.array([[1, 2]] * 2, "float32")}})["bounding_boxes"]),
    }
    for layer in ("contrast", "brightness", "invert", "posterization", "solarization", "sharpness", "degeneration",
                  "hue", "saturation", "jitter", "autocontrast", "equalize", "blur", "erasing", "randaugment"):
        def reversed_range(layer: str = layer) -> Any:
            make = {"contrast": lambda: L.RandomContrast(0.4, value_range=(255, 0), seed=3),
                    "brightness": lambda: L.RandomBrightness(0.4, value_range=(255, 0), seed=3),
                    "invert": lambda: L.RandomInvert(1.0, value_range=(255, 0), seed=3),
                    "posterization": lambda: L.RandomPosterization(3, value_range=(255, 0), seed=3),
                    "solarization": lambda: L.Solarization(0.2, 0.3, value_range=(255, 0), seed=3),
                    "sharpness": lambda: L.RandomSharpness(0.6, value_range=(255, 0), seed=3),
                    "degeneration": lambda: L.RandomColorDegeneration(0.6, value_range=(255, 0), seed=3),
                    "hue": lambda: L.RandomHue(0.4, value_range=(255, 0), seed=3),
                    "saturation": lambda: L.RandomSaturation(0.6, value_range=(255, 0), seed=3),
                    "jitter": lambda: L.RandomColorJitter(value_range=(255, 0), brightness_factor=0.3, seed=3),
                    "autocontrast": lambda: L.AutoContrast(value_range=(255, 0)),
                    "equalize": lambda: L.Equalization(value_range=(255, 0)),
                    "blur": lambda: L.RandomGaussianBlur(1.0, value_range=(255, 0), seed=3),
                    "erasing": lambda: L.RandomErasing(1.0, value_range=(255, 0), seed=3),
                    "randaugment": lambda: L.RandAugment(value_range=(255, 0), seed=3)}[layer]
            return o(make()(x, training=True))
        cases[f"reversed range {layer}"] = reversed_range
    return cases


program("is-shapes-bounds", _shapes_and_boundaries)
