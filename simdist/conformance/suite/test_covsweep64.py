"""Grappler's rewrites under tf.config.optimizer's options and the array ops' rarer arguments, by rule (sixty-fourth
session, covsweep64; covsweep64_cases.py): every value-changing rewrite simdist models × eight option sets
(constant_folding, arithmetic_optimization, both, disable_meta_optimizer, remapping, dependency_optimization,
common_subgraph_elimination off) × float32/float64/float16/bfloat16/complex64/int32 over value classes a rewrite
changes the bits of; range/fill/zeros/ones/reshape/expand_dims/squeeze/transpose/broadcast_to/shape/concat/stack/
unstack/split/gather/boolean_mask/strided slices at their rarer arguments and refusals, eager, traced on constants
and on specs of unknown dimensions; variable slices returned from a tf.function — compared with TF 2.21's recorded
results (`python -m simdist.conformance.suite.test_covsweep64 --record` rewrites covsweep64_reference.json.gz).
OPEN (covsweep64_cases.py) lists the cases left out, with the evidence."""

from __future__ import annotations

from typing import Any

import pytest

from simdist.conformance.suite.covsweep64_cases import REF

_check, _ids = REF.check, REF.ids


@pytest.mark.clause("function.grappler-rewrites")
@pytest.mark.parametrize("name", _ids("cv-gr-"))
def test_covsweep64_grappler_rewrites_under_optimizer_options(backend: Any, name: str) -> None:
    """Each rewrite inside a tf.function under each tf.config.optimizer option set, and eagerly: TF 2.21's bits."""
    _check(backend, name)


@pytest.mark.clause("function.static-shapes")
@pytest.mark.parametrize("name", _ids("cv-ar-shapes") + _ids("cv-ar-join"))
def test_covsweep64_shape_ops_at_their_edges(backend: Any, name: str) -> None:
    """reshape/expand_dims/squeeze/transpose/broadcast_to/shape/concat/stack/unstack/split at their rarer arguments,
    eager, traced and on specs of unknown dimensions (static shapes at trace, Subshape's refusals): TF 2.21's."""
    _check(backend, name)


@pytest.mark.clause("ops.argument-errors")
@pytest.mark.parametrize("name", _ids("cv-ar-range") + _ids("cv-ar-fill") + _ids("cv-ar-index"))
def test_covsweep64_array_ops_arguments(backend: Any, name: str) -> None:
    """range/fill/zeros/ones/ones_like/zeros_like/gather/embedding_lookup/boolean_mask/__getitem__ over dtypes and
    argument forms: values by bits, refusals by class, TF 2.21's."""
    _check(backend, name)


@pytest.mark.clause("function.trace-once")
@pytest.mark.parametrize("name", _ids("cv-ar-variable-slices"))
def test_covsweep64_variable_slices_returned_from_functions(backend: Any, name: str) -> None:
    """A tf.function returning a slice of a variable it creates (the singleton rule's ValueError) or keeps (the
    output has no `assign`): TF 2.21's."""
    _check(backend, name)


if __name__ == "__main__":
    import sys
    if "--record" in sys.argv:
        REF.record()
