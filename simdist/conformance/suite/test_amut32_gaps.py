"""Gaps the ninth mechanical mutation sweep found (benchmarks/auto_mutants.py, seed 9, over the training-layer files
seeds 1-8 never sampled and the gradient functions of op modules no sweep had run with --grad-files; thirty-second
session): behaviours the suite executed but no test looked at (docs/conformance.md, "Thirty-second session:
automatic sweep, seed 9 (amut32)"; TF 2.21 + Keras 3.15).

Each test closes the class of behaviour a surviving mutant showed unchecked, not the one mutant. Expected values are
rules transcribed here, or observations of TF 2.21 / Keras 3.15 named in each test.
"""

from __future__ import annotations

import re

import numpy as np
import pytest

from simdist.conformance.assertions import assert_equal, raises, to_numpy

clause = pytest.mark.clause


# -- RandAugment / AugMix build each sub-layer from the parent's arguments --------------------------------------------
_SUB_LAYERS = ("random_shear", "random_translation", "random_rotation", "random_brightness",
               "random_color_degeneration", "random_contrast", "random_sharpness", "solarization",
               "random_posterization", "auto_contrast", "equalization")


def _standalone(L, name, factor, value_range, seed):
    """The sub-layer `name` as Keras 3.15's rand_augment.py / aug_mix.py construct it (the rule, transcribed)."""
    colour = {"value_range": value_range, "seed": seed}
    return {
        "random_shear": lambda: L.RandomShear(x_factor=factor, y_factor=factor, seed=seed),
        "random_translation": lambda: L.RandomTranslation(height_factor=factor, width_factor=factor, seed=seed),
        "random_rotation": lambda: L.RandomRotation(factor=factor, seed=seed),
        "random_brightness": lambda: L.RandomBrightness(factor=factor, **colour),
        "random_color_degeneration": lambda: L.RandomColorDegeneration(factor=factor, **colour),
        "random_contrast": lambda: L.RandomContrast(factor=factor, **colour),
        "random_sharpness": lambda: L.RandomSharpness(factor=factor, **colour),
        "solarization": lambda: L.Solarization(addition_factor=factor, threshold_factor=factor, **colour),
        "random_posterization": lambda: L.RandomPosterization(factor=max(1, int(8 * factor[1])), **colour),
        "auto_contrast": lambda: L.AutoContrast(value_range=value_range),
        "equalization": lambda: L.Equalization(value_range=value_range),
    }[name]()


@clause("keras.layer.image-preprocessing", ref="tf221")
@pytest.mark.parametrize("parent", ["RandAugment", "AugMix"])
def test_amut32_augment_sub_layers_are_built_from_the_parent_arguments(keras, parent):
    """RandAugment and AugMix hold one sub-layer per augmentation (attributes `random_shear`, ..., `solarization`,
    `equalization`), each built from the parent's normalised `factor`, `value_range` and `seed` (Keras 3.15's
    rand_augment.py and aug_mix.py: e.g. `Solarization(addition_factor=self.factor, threshold_factor=self.factor,
    value_range=..., seed=...)`, `RandomPosterization(factor=max(1, int(8 * self.factor[1])))`): every sub-layer's
    config is the config of that layer built alone with those arguments (the names aside)."""
    L = keras.layers
    layer = (L.RandAugment(value_range=(10, 250), factor=(0.2, 0.6), seed=7) if parent == "RandAugment"
             else L.AugMix(value_range=(10, 250), factor=0.4, seed=7))
    factor = tuple(layer.factor)
    for name in _SUB_LAYERS:
        got = {k: v for k, v in getattr(layer, name).get_config().items() if k != "name"}
        want = {k: v for k, v in _standalone(L, name, factor, (10, 250), 7).get_config().items() if k != "name"}
        assert_equal(got, want, call=f"{parent}(value_range=(10, 250), factor=..., seed=7).{name}.get_config()",
                     what="config (name aside)")


# -- RandomHeight / RandomWidth: each bound of the factor above -1 ----------------------------------------------------
@clause("keras.layer.image-preprocessing", ref="tf221")
@pytest.mark.parametrize("cls, lesser", [("RandomHeight", "lesser"), ("RandomWidth", "less")])
def test_amut32_random_height_width_check_each_factor_bound(keras, cls, lesser):
    """tf.keras's RandomHeight/RandomWidth (Keras 3.15's legacy layers) read a number f as (-f, f), refuse an upper
    bound below the lower ("cannot have an upper bound lesser than the lower bound" for RandomHeight, "less" for
    RandomWidth) and then a lower *or* upper bound below -1 ("must have values larger than -1"): (-1.5, 0.5) is
    refused for its lower bound alone; -1 itself is accepted (observed on TF 2.21)."""
    make = getattr(keras.layers, cls)
    for factor, msg in [((-1.5, 0.5), "`factor` argument must have values larger than -1. Received: factor=(-1.5, 0.5)"),
                        ((-2.0, -1.5), "`factor` argument must have values larger than -1. Received: factor=(-2.0, -1.5)"),
                        (-1.5, f"`factor` argument cannot have an upper bound {lesser} than the lower bound. Received: "
                               "factor=-1.5"),
                        ((-0.5, -1.2), f"`factor` argument cannot have an upper bound {lesser} than the lower bound. "
                                       "Received: factor=(-0.5, -1.2)")]:
        with raises(ValueError, match="^" + re.escape(msg) + "$", call=f"{cls}(factor={factor})"):
            make(factor=factor)
    assert_equal(make(factor=(-1.0, 0.5)).get_config()["factor"], (-1.0, 0.5), call=f"{cls}(factor=(-1.0, 0.5))",
                 what="config factor")


# -- tf.data.experimental.DatasetInitializer: both key and value must be scalars --------------------------------------
_INIT_BASE = ("Datasets used to initialize lookup tables must produce elements in the form (key, value), where the "
              "keys and values are scalar tensors. However, the given dataset produces ")


@clause("dataset.experimental-extras", ref="tf221")
@pytest.mark.parametrize("keys, values, tail", [
    ([1, 2], [[1, 2], [3, 4]], "non-scalar value Tensors of rank 1."),
    ([[1], [2]], [3, 4], "non-scalar key Tensors of rank 1."),
    ([[1], [2]], [[3], [4]], "non-scalar key Tensors of rank 1."),
])
def test_amut32_dataset_initializer_checks_key_and_value_ranks(tf, keys, values, tail):
    """DatasetInitializer (TF 2.21's experimental/ops/lookup_ops.py `_check_table_initializer_element_spec`) checks
    the key's rank, then the value's, each against (None, 0): a scalar key with vector values is refused for the
    values, a vector key for the key first (observed)."""
    ds = tf.data.Dataset.from_tensor_slices((tf.constant(keys, tf.int64), tf.constant(values, tf.int64)))
    with raises(ValueError, match="^" + re.escape(_INIT_BASE + tail) + "$",
                call=f"DatasetInitializer(from_tensor_slices(({keys}, {values})))"):
        tf.data.experimental.DatasetInitializer(ds)
    table = tf.lookup.StaticHashTable(tf.data.experimental.DatasetInitializer(
        tf.data.Dataset.from_tensor_slices((tf.constant([5, 6], tf.int64), tf.constant([50, 60], tf.int64)))), -1)
    assert_equal(to_numpy(table.lookup(tf.constant([6, 5, 7], tf.int64))).tolist(), [60, 50, -1],
                 call="StaticHashTable(DatasetInitializer(scalar pairs), -1).lookup([6, 5, 7])")
