"""Keras 3's image-augmentation and audio preprocessing layers by rule (sixty-second session, isweep62;
isweep62_cases.py): every image and audio layer of keras.layers with its constructor options off their defaults
(factors as floats, tuples and at 0/1, value ranges (0, 1), (0, 255), (-1, 1), fill_mode x interpolation, fill
values, channels_first, seeds, bins, kernel sizes, window/frame/fft/mel options), float16/bfloat16 layer dtypes, uint8
inputs, batched and single images, training True/False/omitted, inside a tf.function and a tf.data map: values bit
for bit against TF 2.21's recorded results (a refusal by its exception class). `python -m
simdist.conformance.suite.test_isweep62 --record` rewrites isweep62_reference.json.gz (recorded on this session's
AVX-512 Xeon with oneDNN on: simdist runs the programs under its reference model on any CPU). OPEN
(isweep62_cases.py) lists the cases left out, with the evidence."""

from __future__ import annotations

from typing import Any

import pytest

from simdist.conformance.suite.isweep62_cases import REF

_check, _ids = REF.check, REF.ids


@pytest.mark.clause("keras.layer.image-geometric-augment", "keras.layer.image-preprocessing")
@pytest.mark.parametrize("name", _ids("is-flip") + _ids("is-rotation") + _ids("is-zoom") + _ids("is-translation")
                         + _ids("is-shear") + _ids("is-persp") + _ids("is-crops") + _ids("is-resizing")
                         + _ids("is-shapes"))
def test_isweep62_geometry_layers_by_option(backend: Any, name: str) -> None:
    """RandomFlip/Rotation/Zoom/Translation/Shear/Perspective/ElasticTransform, RandomCrop, CenterCrop, Resizing and
    Rescaling with each option off its default, each context: outputs by their bits."""
    _check(backend, name)


@pytest.mark.clause("keras.layer.image-color-augment", "keras.layer.image-erase-blur")
@pytest.mark.parametrize("name", _ids("is-colour-") + _ids("is-jitter"))
def test_isweep62_colour_layers_by_option(backend: Any, name: str) -> None:
    """The colour layers (contrast, brightness, hue, saturation, degeneration, sharpness, invert, posterization,
    solarization, Gaussian blur, erasing, grayscale, colour jitter, AutoContrast, Equalization) at each value range,
    factor form and dtype: outputs by their bits."""
    _check(backend, name)


@pytest.mark.clause("keras.layer.image-augment-policies")
@pytest.mark.parametrize("name", _ids("is-mixing"))
def test_isweep62_mixing_layers_by_option(backend: Any, name: str) -> None:
    """MixUp, CutMix, RandAugment, AugMix and Pipeline with their options off their defaults: outputs by their
    bits."""
    _check(backend, name)


@pytest.mark.clause("keras.layer.audio")
@pytest.mark.parametrize("name", _ids("is-stft") + _ids("is-mel"))
def test_isweep62_audio_layers_by_option(backend: Any, name: str) -> None:
    """STFTSpectrogram and MelSpectrogram with each option off its default: outputs by their bits."""
    _check(backend, name)


assert sorted(_ids("is-")) == sorted(REF.programs)

if __name__ == "__main__":
    import sys
    if "--record" in sys.argv:
        REF.record()
