"""The Keras model plumbing sweep's second module (sixty-first session, fix61c; psweep61b_cases.py): the program
classes psweep61's module left out, each showing a catalogue mistake that module did not catch — variables read in
nested autocast scopes (autocast=False children, children of another compute dtype, integer variables, the parent's
reads after a child), summary()'s memory units and its header and Trainable column at every width, Sequential's
duplicate layer names, load_weights of a .keras file into an unbuilt model, Layer.metrics of nested layers,
add_weight's default initializer, frozen layers' regularizers, set_weights' shape check, an explicit mask= beside a
propagated one, model.layers of graphs with branches of different depths: TF 2.21's answers, recorded (`python -m
simdist.conformance.suite.test_psweep61b --record` rewrites psweep61b_reference.json.gz)."""

from __future__ import annotations

from typing import Any

import pytest

from simdist.conformance.suite.psweep61b_cases import FAMILIES, REF

_check = REF.check


@pytest.mark.clause("keras.mixed-precision.policy")
@pytest.mark.parametrize("name", ("q-autocast",))
def test_psweep61b_variables_read_in_nested_autocast_scopes(backend: Any, name: str) -> None:
    """A parent's and its children's variable reads (float and integer) under three global policies."""
    _check(backend, name)


@pytest.mark.clause("keras.model.summary")
@pytest.mark.parametrize("name", ("q-summary",))
def test_psweep61b_summary_memory_and_trainable_column(backend: Any, name: str) -> None:
    """Memory figures from 0.9 KB to MB; the header and Trainable column at 18 line lengths."""
    _check(backend, name)


@pytest.mark.clause("keras.model.weights-order")
@pytest.mark.parametrize("name", ("q-api",))
def test_psweep61b_layer_api_refusals_and_defaults(backend: Any, name: str) -> None:
    """Duplicate names, load_weights into unbuilt models, nested metrics, add_weight's default initializer, frozen
    regularizers, set_weights' shape check."""
    _check(backend, name)


@pytest.mark.clause("keras.mask.propagation")
@pytest.mark.parametrize("name", ("q-graphs",))
def test_psweep61b_explicit_masks_and_layer_order(backend: Any, name: str) -> None:
    """An explicit mask= beside a propagated one; model.layers of graphs with branches of different depths."""
    _check(backend, name)


assert sorted(FAMILIES) == sorted(REF.programs) == sorted(("q-autocast", "q-summary", "q-api", "q-graphs"))

if __name__ == "__main__":
    import sys
    if "--record" in sys.argv:
        REF.record()
