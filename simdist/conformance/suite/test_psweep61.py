"""The Keras model plumbing sweep (sixty-first session, psweep61; psweep61_cases.py): model.summary()'s text under
its options (line_length, positions, show_trainable, expand_nested, layer_range) for Sequential, functional, nested,
subclassed and unbuilt models; Keras masks made, propagated, computed and consumed (Embedding(mask_zero), Masking,
Dense/Dropout/Add/Concatenate/LSTM/GRU/pooling/Attention, compute_mask, an explicit mask= beside a propagated one,
_keras_mask after ops, masked losses and metrics in fit); the order of layers, weights and variables of nested,
shared, frozen and subclassed models and set_weights by position; dtype policies from a fresh global state (cached,
set before and after building, per-layer dtype= forms, autocast, Input and Sequential-without-Input dtypes); configs,
from_config and clone_model round trips, get_layer, inputs/outputs and input specs: TF 2.21's answers, recorded
(`python -m simdist.conformance.suite.test_psweep61 --record` rewrites psweep61_reference.json.gz). OPEN
(psweep61_cases.py) lists the cases left out, with the evidence."""

from __future__ import annotations

from typing import Any

import pytest

from simdist.conformance.suite.psweep61_cases import FAMILIES, REF

_check = REF.check


@pytest.mark.clause("keras.model.summary")
@pytest.mark.parametrize("name", ("p-summaries", "p-summary-range"))
def test_psweep61_summary_text_under_every_option(backend: Any, name: str) -> None:
    """summary() lines of eight models under eight option sets; layer_range; a layer called on three shapes."""
    _check(backend, name)


@pytest.mark.clause("keras.mask.propagation")
@pytest.mark.parametrize("name", ("p-mask-propagation", "p-host-masked-values"))
def test_psweep61_masks_made_propagated_and_consumed(backend: Any, name: str) -> None:
    """_keras_mask through 16 layers from three sources, after ops, compute_mask directly; masked values, an
    explicit mask beside a propagated one, masked losses and metrics in evaluate and fit."""
    _check(backend, name)


@pytest.mark.clause("keras.model.weights-order")
@pytest.mark.parametrize("name", ("p-order",))
def test_psweep61_layer_and_weight_order(backend: Any, name: str) -> None:
    """layers/weights/trainable/non-trainable/variables of nested, shared, frozen and subclassed models; set_weights
    by position and its refusals; regularization losses of models nested two deep in order."""
    _check(backend, name)


@pytest.mark.clause("keras.mixed-precision.policy")
@pytest.mark.parametrize("name", ("p-policies",))
def test_psweep61_dtype_policies_from_a_fresh_state(backend: Any, name: str) -> None:
    """The global policy fresh and cached, set before/after building, per-layer dtype forms, autocast, Input and
    Sequential-without-Input dtypes under four policies."""
    _check(backend, name)


@pytest.mark.clause("keras.model.config")
@pytest.mark.parametrize("name", ("p-configs", "p-extras"))
def test_psweep61_configs_clones_and_specs(backend: Any, name: str) -> None:
    """get_config/from_config and clone_model round trips (names, weights, outputs), clone_function, get_layer by
    name and index, inputs/outputs and input specs."""
    _check(backend, name)


assert sorted(FAMILIES) == sorted(REF.programs) == sorted(
    ("p-summaries", "p-summary-range", "p-mask-propagation", "p-host-masked-values", "p-order", "p-policies",
     "p-configs", "p-extras"))

if __name__ == "__main__":
    import sys
    if "--record" in sys.argv:
        REF.record()
