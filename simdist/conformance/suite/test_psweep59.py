"""The preprocessing sweep (fifty-ninth session, psweep59; psweep59_cases.py): Keras's preprocessing layers
(Discretization, Normalization, IntegerLookup/StringLookup, Hashing, HashedCrossing, CategoryEncoding,
TextVectorization, the image layers, FeatureSpace) and keras.utils' data tools (normalize, to_categorical,
pad_sequences, timeseries_dataset_from_array, split_dataset, set_random_seed), each with its defaults and each option
off its default, one at a time, compared bit for bit with TF 2.21's recorded results (`python -m
simdist.conformance.suite.test_psweep59 --record` rewrites psweep59_reference.json.gz). Recorded on this session's
AVX-512 Xeon with oneDNN on; the programs whose floats come from vectorized reductions or interpolations are
host-dependent (simdist runs them under its reference model of that host)."""

from __future__ import annotations

from typing import Any

import pytest

from simdist.conformance.suite.psweep59_cases import REF

_check, _ids = REF.check, REF.ids


@pytest.mark.clause("keras.layer.lookup")
@pytest.mark.parametrize("name", _ids("p-disc-"))
def test_psweep59_discretization_by_option(backend: Any, name: str) -> None:
    """Discretization with given boundaries (values on them, -0.0, NaN, ±inf) in every output_mode, and adapted on
    1 to 1001 values at five epsilons and three bin counts: the boundaries and the buckets, TF 2.21's bits."""
    _check(backend, name)


@pytest.mark.clause("keras.layer.normalization-adapt")
@pytest.mark.parametrize("name", _ids("p-norm-"))
def test_psweep59_normalization_adapt_sizes_and_dtypes(backend: Any, name: str) -> None:
    """Normalization adapted on 1, 7 and 1001 rows of float32 and float64 (arrays and batched datasets), inverted,
    given statistics in float64/float16/mixed: the statistics and outputs, TF 2.21's bits."""
    _check(backend, name)


@pytest.mark.clause("keras.layer.lookup")
@pytest.mark.parametrize("name", _ids("p-lookup-") + _ids("p-hashing") + _ids("p-category"))
def test_psweep59_lookups_hashing_and_encoding_by_option(backend: Any, name: str) -> None:
    """IntegerLookup/StringLookup (vocabulary from a list, a file, adapt; every output_mode, OOV indices 0/1/2,
    mask and OOV tokens, max_tokens, padding, sparse, invert, idf weights), Hashing and CategoryEncoding with every
    option off its default: TF 2.21's outputs, vocabularies and error classes."""
    _check(backend, name)


@pytest.mark.clause("keras.layer.hashed-crossing")
@pytest.mark.parametrize("name", _ids("p-crossing"))
def test_psweep59_hashed_crossing_by_option(backend: Any, name: str) -> None:
    """HashedCrossing at 1, 5, 1000 bins, ranks 0-2, one_hot and sparse output: TF 2.21's buckets."""
    _check(backend, name)


@pytest.mark.clause("keras.layer.text-vectorization")
@pytest.mark.parametrize("name", _ids("p-textvec"))
def test_psweep59_text_vectorization_by_option(backend: Any, name: str) -> None:
    """TextVectorization with each standardize and split (callables too), ngrams, every output_mode, sequence
    lengths, max_tokens, padding, ragged, sparse, a given vocabulary and idf weights: TF 2.21's vocabularies and
    outputs."""
    _check(backend, name)


@pytest.mark.clause("keras.layer.image-geometric-augment")
@pytest.mark.parametrize("name", _ids("p-img-"))
def test_psweep59_image_layers_by_option(backend: Any, name: str) -> None:
    """Rescaling with offsets, Resizing in every interpolation with crop/pad to the aspect ratio, CenterCrop, and the
    seeded random image layers in each fill mode and interpolation, training and inference, in a tf.data map: TF
    2.21's bits."""
    _check(backend, name)


@pytest.mark.clause("keras.utils.feature-space")
@pytest.mark.parametrize("name", _ids("p-fs-"))
def test_psweep59_feature_space_by_kind(backend: Any, name: str) -> None:
    """FeatureSpace with every feature kind, crosses, concat and dict output, dimensions off their defaults, saved
    and reloaded: TF 2.21's outputs."""
    _check(backend, name)


@pytest.mark.clause("keras.utils.data-tools")
@pytest.mark.parametrize("name", _ids("p-util-"))
def test_psweep59_keras_utils_by_option(backend: Any, name: str) -> None:
    """keras.utils.normalize of arrays and tensors at orders 1-3 along each axis, to_categorical, pad_sequences with
    every option, timeseries_dataset_from_array, split_dataset, set_random_seed and the draws after it: TF 2.21's
    bits."""
    _check(backend, name)


if __name__ == "__main__":
    import sys
    if "--record" in sys.argv:
        REF.record()
