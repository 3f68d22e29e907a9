"""Keras 3.15's image preprocessing and augmentation layers on simdist vs TF 2.21 + Keras 3.15
(simdist/keras/layers/preprocessing/image/): Resizing, CenterCrop, RandomCrop, RandomFlip,
RandomRotation, RandomZoom, RandomTranslation, RandomContrast, RandomBrightness, RandomGrayscale,
RandomInvert, Solarization, AutoContrast, RandomSaturation, RandomHue, MixUp, CutMix and tf.keras's
legacy RandomHeight/RandomWidth. Per layer: seeded values on float32 images, batched and
unbatched, channels_last and channels_first (not RandomHeight/RandomWidth: channels-last only),
two training calls (the SeedGenerator advances) and an inference call; dict inputs with labels and
segmentation masks; the layer as `ds.map(layer)` over a tf.data pipeline; a Sequential model
holding augmentation layers trained with fit on a mapped dataset (augmented in fit, passed through
in predict); get_config/from_config round trips; the errors Keras raises for bad factors and
modes. Values must equal TF's bit for bit, except the fit case's weights and losses (float sums of
a training loop: rtol 1e-5, atol 1e-6). Clause keras.layer.image-preprocessing; the golden
(tests/goldens/) is stamped with this file.
"""

from __future__ import annotations

import sys
from typing import Any

import numpy as np
import pytest

import tf_workers

pytestmark = [pytest.mark.tf, tf_workers.tf_or_golden(__file__)]

LAYERS: dict[str, tuple[str, dict[str, Any]]] = {
    "resizing": ("Resizing", {"height": 4, "width": 5}),
    "resizing_nearest_crop": ("Resizing", {"height": 4, "width": 4, "interpolation": "nearest",
                                           "crop_to_aspect_ratio": True}),
    "resizing_pad": ("Resizing", {"height": 5, "width": 3, "pad_to_aspect_ratio": True, "fill_value": 2.0}),
    "resizing_area_antialias": ("Resizing", {"height": 3, "width": 4, "interpolation": "bicubic", "antialias": True}),
    "center_crop": ("CenterCrop", {"height": 4, "width": 5}),
    "center_crop_up": ("CenterCrop", {"height": 8, "width": 5}),
    "random_crop": ("RandomCrop", {"height": 4, "width": 5, "seed": 3}),
    "random_crop_small": ("RandomCrop", {"height": 7, "width": 4, "seed": 3}),
    "random_flip": ("RandomFlip", {"seed": 3}),
    "random_flip_h": ("RandomFlip", {"mode": "horizontal", "seed": 11}),
    "random_flip_v": ("RandomFlip", {"mode": "vertical", "seed": 11}),
    "random_rotation": ("RandomRotation", {"factor": 0.2, "seed": 3}),
    "random_rotation_nearest_constant": ("RandomRotation", {"factor": (-0.3, 0.1), "seed": 5, "fill_mode": "constant",
                                                            "interpolation": "nearest", "fill_value": 1.5}),
    "random_rotation_wrap": ("RandomRotation", {"factor": 0.5, "seed": 8, "fill_mode": "wrap"}),
    "random_zoom": ("RandomZoom", {"height_factor": 0.3, "seed": 3}),
    "random_zoom_wh": ("RandomZoom", {"height_factor": (-0.2, 0.4), "width_factor": 0.3, "seed": 3,
                                      "fill_mode": "nearest"}),
    "random_translation": ("RandomTranslation", {"height_factor": 0.3, "width_factor": 0.2, "seed": 3}),
    "random_translation_constant": ("RandomTranslation", {"height_factor": (-0.5, 0.1), "width_factor": (0.1, 0.4),
                                                          "seed": 4, "fill_mode": "constant",
                                                          "interpolation": "nearest"}),
    "random_contrast": ("RandomContrast", {"factor": 0.5, "seed": 3}),
    "random_contrast_pair": ("RandomContrast", {"factor": (0.2, 0.9), "value_range": (0, 1), "seed": 9}),
    "random_brightness": ("RandomBrightness", {"factor": 0.3, "seed": 3}),
    "random_brightness_pair": ("RandomBrightness", {"factor": (-0.4, 0.1), "value_range": (1, 0), "seed": 9}),
    "random_height": ("RandomHeight", {"factor": 0.4, "seed": 3}),
    "random_width": ("RandomWidth", {"factor": (-0.5, 0.2), "seed": 3, "interpolation": "nearest"}),
    "random_grayscale": ("RandomGrayscale", {"factor": 0.5, "seed": 3}),
    "random_invert": ("RandomInvert", {"factor": 0.7, "seed": 3}),
    "random_invert_pair": ("RandomInvert", {"factor": (0.2, 0.9), "value_range": (0, 300), "seed": 12}),
    "solarization": ("Solarization", {"addition_factor": 0.3, "threshold_factor": (0.2, 0.8), "seed": 3}),
    "solarization_range": ("Solarization", {"threshold_factor": 0.6, "value_range": (300, -10), "seed": 5}),
    "auto_contrast": ("AutoContrast", {}),
    "auto_contrast_range": ("AutoContrast", {"value_range": (0, 300)}),
    "random_saturation": ("RandomSaturation", {"factor": 0.5, "value_range": (0, 1), "seed": 3}),
    "random_saturation_pair": ("RandomSaturation", {"factor": (0.3, 0.9), "seed": 8}),
    "random_hue": ("RandomHue", {"factor": 0.5, "seed": 3}),
    "random_hue_pair": ("RandomHue", {"factor": (0.1, 0.3), "value_range": (0, 300), "seed": 8}),
    "mix_up": ("MixUp", {"alpha": 0.4, "seed": 3}),
    "cut_mix": ("CutMix", {"factor": 0.8, "seed": 3}),
    "cut_mix_pair": ("CutMix", {"factor": (0.3, 0.6), "seed": 10}),
}
CHANNELS_LAST_ONLY = {"RandomHeight", "RandomWidth"}
CASES = tuple(LAYERS) + ("dict_inputs", "dataset_map", "fit", "configs", "errors")


def _images() -> np.ndarray:
    return ((np.arange(2 * 6 * 7 * 3, dtype=np.float32).reshape(2, 6, 7, 3) * 7 % 23) * 11.0).astype(np.float32)


def _np(v: Any) -> np.ndarray:
    return np.asarray(v.numpy() if hasattr(v, "numpy") else v)


def _values(tf: Any, name: str) -> dict[str, Any]:
    cls, kwargs = LAYERS[name]
    x = _images()
    out: dict[str, Any] = {}
    formats = ("channels_last",) if cls in CHANNELS_LAST_ONLY else ("channels_last", "channels_first")
    for fmt in formats:
        extra = {} if cls in CHANNELS_LAST_ONLY else {"data_format": fmt}
        images = x if fmt == "channels_last" else np.ascontiguousarray(x.transpose(0, 3, 1, 2))
        layer = getattr(tf.keras.layers, cls)(**kwargs, **extra)
        out[f"{fmt}/batched/0"] = _np(layer(images))
        out[f"{fmt}/batched/1"] = _np(layer(images, training=True))
        out[f"{fmt}/unbatched"] = _np(layer(images[1]))
        out[f"{fmt}/inference"] = _np(layer(images, training=False))
    return out


def _dict_inputs(tf: Any) -> dict[str, Any]:
    x = _images()
    labels = np.eye(3, dtype=np.float32)[[0, 2]]
    masks = (np.arange(2 * 6 * 7, dtype=np.float32).reshape(2, 6, 7, 1) % 3)
    out: dict[str, Any] = {}
    for cls, kwargs in (("RandomFlip", {"seed": 2}), ("RandomRotation", {"factor": 0.25, "seed": 2}),
                        ("RandomZoom", {"height_factor": 0.3, "seed": 2}),
                        ("RandomTranslation", {"height_factor": 0.2, "width_factor": 0.2, "seed": 2}),
                        ("RandomCrop", {"height": 4, "width": 5, "seed": 2}), ("Resizing", {"height": 3, "width": 4}),
                        ("CenterCrop", {"height": 4, "width": 4}), ("RandomContrast", {"factor": 0.4, "seed": 2}),
                        ("MixUp", {"alpha": 0.3, "seed": 2}), ("CutMix", {"seed": 2}),
                        ("RandomInvert", {"seed": 2}), ("Solarization", {"addition_factor": 0.2, "seed": 2})):
        layer = getattr(tf.keras.layers, cls)(**kwargs)
        got = layer({"images": x, "labels": labels, "segmentation_masks": masks})
        for key in ("images", "labels", "segmentation_masks"):
            out[f"{cls}/batched/{key}"] = _np(got[key])
        got = layer({"images": x[0], "labels": labels[0], "segmentation_masks": masks[0]})
        for key in ("images", "labels", "segmentation_masks"):
            out[f"{cls}/unbatched/{key}"] = _np(got[key])
    return out


def _dataset_map(tf: Any) -> dict[str, Any]:
    x = _images()
    out: dict[str, Any] = {}
    for cls, kwargs in (("RandomFlip", {"seed": 6}), ("RandomRotation", {"factor": 0.2, "seed": 6}),
                        ("RandomCrop", {"height": 4, "width": 4, "seed": 6}),
                        ("RandomBrightness", {"factor": 0.2, "seed": 6}), ("Resizing", {"height": 3, "width": 3})):
        layer = getattr(tf.keras.layers, cls)(**kwargs)
        ds = tf.data.Dataset.from_tensor_slices(np.concatenate([x, x[::-1]])).map(layer)
        for epoch in range(2):
            out[f"{cls}/unbatched/{epoch}"] = np.stack([_np(v) for v in ds])
        ds = tf.data.Dataset.from_tensor_slices(np.concatenate([x, x[::-1]])).batch(3).map(layer)
        out[f"{cls}/batched"] = np.concatenate([_np(v) for v in ds])
    return out


def _fit(tf: Any) -> dict[str, Any]:
    L = tf.keras.layers
    rng = np.random.default_rng(21)
    x = (rng.random((12, 8, 8, 3)) * 255).astype(np.float32)
    y = (np.arange(12) % 3).astype(np.int32)
    model = tf.keras.Sequential([tf.keras.Input((8, 8, 3)), L.RandomFlip("horizontal", seed=1),
                                 L.RandomRotation(0.1, seed=2), L.RandomZoom(0.2, seed=3),
                                 L.RandomContrast(0.3, seed=4), L.Rescaling(1 / 255.0), L.Flatten(), L.Dense(3)])
    model.set_weights([np.linspace(-0.05, 0.05, 8 * 8 * 3 * 3, dtype=np.float32).reshape(192, 3),
                       np.zeros(3, np.float32)])
    model.compile(optimizer=tf.keras.optimizers.SGD(0.05),
                  loss=tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True))
    crop = L.RandomTranslation(0.1, 0.1, seed=9)
    ds = tf.data.Dataset.from_tensor_slices((x, y)).batch(4).map(lambda a, b: (crop(a), b))
    history = model.fit(ds, epochs=2, verbose=0)
    out: dict[str, Any] = {"loss": np.asarray(history.history["loss"], np.float32)}
    for i, w in enumerate(model.get_weights()):
        out[f"weight/{i}"] = np.asarray(w)
    out["predict"] = np.asarray(model.predict(x[:4], verbose=0))
    out["augmented_in_call"] = _np(model.layers[0](x[:2]))
    return out


def _configs(tf: Any) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for name, (cls, kwargs) in LAYERS.items():
        layer = getattr(tf.keras.layers, cls)(**kwargs, name=f"l_{name}")
        config = layer.get_config()
        again = getattr(tf.keras.layers, cls).from_config(config).get_config()
        out[f"{name}/config"] = np.asarray(repr(sorted(config.items())))
        out[f"{name}/round_trip"] = np.asarray(repr(sorted(again.items())))
        out[f"{name}/output_shape"] = np.asarray(repr(layer.compute_output_shape((2, 6, 7, 3))))
    return out


BAD = (("RandomRotation", {"factor": 1.5}), ("RandomRotation", {"factor": (0.1, 0.2, 0.3)}),
       ("RandomRotation", {"factor": "big"}), ("RandomRotation", {"factor": 0.1, "fill_mode": "mirror"}),
       ("RandomRotation", {"factor": 0.1, "interpolation": "bicubic"}),
       ("RandomZoom", {"height_factor": -1.0}), ("RandomZoom", {"height_factor": 0.2, "width_factor": (0.1, 1.2)}),
       ("RandomZoom", {"height_factor": [0.1]}), ("RandomTranslation", {"height_factor": 1.1, "width_factor": 0.1}),
       ("RandomTranslation", {"height_factor": 0.1, "width_factor": None}),
       ("RandomContrast", {"factor": -0.1}), ("RandomContrast", {"factor": (0.5, 1.5)}),
       ("RandomBrightness", {"factor": 1.2}), ("RandomBrightness", {"factor": 0.2, "value_range": 255}),
       ("RandomBrightness", {"factor": 0.2, "value_range": (0, 1, 2)}), ("RandomFlip", {"factor": 0.2}),
       ("RandomHeight", {"factor": (0.3, 0.1)}), ("RandomHeight", {"factor": (-1.5, 0.1)}),
       ("RandomWidth", {"factor": (0.4, -0.2)}), ("Resizing", {"height": 2, "width": 2, "data_format": "nchw"}),
       ("CenterCrop", {"height": 2, "width": 2, "factor": 0.1}), ("RandomGrayscale", {"factor": 1.5}),
       ("RandomInvert", {"factor": -0.2}), ("Solarization", {"addition_factor": 2.0}),
       ("Solarization", {"threshold_factor": (0.1, 0.2, 0.3)}), ("Solarization", {"value_range": 255}),
       ("RandomHue", {"factor": -0.5}), ("RandomSaturation", {"factor": 2}), ("CutMix", {"factor": 1.2}),
       ("AutoContrast", {"value_range": (0, 1, 2)}), ("MixUp", {"alpha": 0.2, "factor": 0.5}))


def _errors(tf: Any) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for i, (cls, kwargs) in enumerate(BAD):
        try:
            getattr(tf.keras.layers, cls)(**kwargs)
            out[f"{i}:{cls}"] = np.asarray("no error")
        except Exception as e:  # noqa: BLE001 - the class and message are the observables
            out[f"{i}:{cls}"] = np.asarray(f"{type(e).__name__}: {e}")
    rank2 = tf.keras.layers.RandomFlip(seed=1)
    for label, layer in (("flip", rank2), ("contrast", tf.keras.layers.RandomContrast(0.2, seed=1))):
        try:
            layer(np.zeros((4, 4), np.float32))
            out[f"rank2/{label}"] = np.asarray("no error")
        except Exception as e:  # noqa: BLE001
            out[f"rank2/{label}"] = np.asarray(type(e).__name__)
    return out


def program(tf: Any, name: str) -> dict[str, Any]:
    if name in LAYERS:
        return _values(tf, name)
    return {"dict_inputs": _dict_inputs, "dataset_map": _dataset_map, "fit": _fit, "configs": _configs,
            "errors": _errors}[name](tf)


def _tf_worker(indices: list[int]) -> dict[int, Any]:
    import tensorflow as tf
    out = {}
    for i in indices:
        tf.keras.backend.clear_session()
        out[i] = program(tf, CASES[i])
    return out


def _simdist(name: str) -> dict[str, Any]:
    import simdist
    from simdist import tf
    simdist.reset()
    return program(tf, name)


@pytest.fixture(scope="module")
def tf_answers() -> dict[int, Any]:
    return tf_workers.spawn(__file__, list(range(len(CASES))))


@pytest.mark.clause("keras.layer.image-preprocessing")
@pytest.mark.parametrize("case", CASES)
def test_image_preprocessing_matches_tf(tf_answers: dict[int, Any], case: str) -> None:
    got, want = _simdist(case), tf_answers[CASES.index(case)]
    assert sorted(got) == sorted(want), f"{case}: observables {sorted(got)}, but should be {sorted(want)}"
    for k in want:
        g, w = np.asarray(got[k]), np.asarray(want[k])
        if w.dtype.kind in "US":
            assert str(g) == str(w), f"{case} {k}: {g}, but should be {w} (TF 2.21)"
            continue
        assert (g.dtype, g.shape) == (w.dtype, w.shape), f"{case} {k}: {g.dtype}{g.shape}, but should be " \
                                                          f"{w.dtype}{w.shape} (TF 2.21)"
        if case == "fit":
            ok = np.allclose(g, w, rtol=1e-5, atol=1e-6)
        else:
            ok = np.array_equal(g, w, equal_nan=True)
        bad = np.argwhere(~np.isclose(g, w, rtol=0, atol=0, equal_nan=True)) if not ok else []
        assert ok, f"{case} {k}: {g.ravel()[:6]}, but should be {w.ravel()[:6]} (TF 2.21; {len(bad)} elements " \
                   f"differ, first at {tuple(bad[0]) if len(bad) else None})"


if __name__ == "__main__":
    sys.path.insert(0, str(__import__("pathlib").Path(__file__).resolve().parent.parent))
    tf_workers.serve(_tf_worker)
