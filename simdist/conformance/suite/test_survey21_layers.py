"""survey21 (issue 29, session 21): options of keras preprocessing and augmentation layers that the option survey
(benchmarks/suite_options.py, stricter rule: set AND output-changing) found uncovered, set to values that
change the output. Each test runs its cases of survey21_cases on the backend and compares them with TF
2.21's recorded outputs (survey21_reference); under `--profile ci` the first case only."""

from __future__ import annotations

import pytest

from simdist.conformance.suite import survey21_check

clause = pytest.mark.clause


@clause("keras.layer.image-preprocessing", ref="tf221")
def test_survey21_layers_augmentation_options(tf, budget):
    """Solarization's threshold inside the data, addition and value_range; RandomInvert with a value range not starting at 0 and factor 0.5; RandomBrightness/Contrast value ranges; RandomGrayscale; AutoContrast's value_range; MixUp's alpha and CutMix's factor over 4 distinct images and labels; RandomHue and RandomSaturation with value_range: TF's seeded outputs."""
    survey21_check.check_cases(tf, "layers", ['layers_augmentation_options', 'layers_mix_options', 'layers_color_options'], budget)


@clause("keras.layer.lookup", ref="tf221")
def test_survey21_layers_preprocessing_options(tf, budget):
    """Discretization(output_mode='one_hot'), CategoryEncoding(output_mode='count') with count_weights, Hashing's mask_value and one_hot, StringLookup's num_oov_indices and mask_token, IntegerLookup(invert=True), Normalization(invert=True), Rescaling's offset."""
    survey21_check.check_cases(tf, "layers", ['layers_preprocessing_options'], budget)
