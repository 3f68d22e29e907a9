"""The tf.Variable surface by rule (sixty-sixth session, vsweep66; vsweep66_cases.py): tf.Variable's constructor
across initial-value kinds × dtype (the cast or the refusal), shape/validate_shape, trainable × synchronization,
aggregation/synchronization spellings and names; every read, write, scatter, conversion and operator of a variable
of each of ten dtypes, eagerly and inside a tf.function; GradientTape over each read form of float and integer
variables; variables created inside a tf.function; variables under MirroredStrategy — compared with TF 2.21's
recorded results: values bit for bit, refusals by exception class (`python -m simdist.conformance.suite.test_vsweep66
--record` rewrites vsweep66_reference.json.gz). OPEN (vsweep66_cases.py) lists the cases left out, with the
evidence."""

from __future__ import annotations

from typing import Any

import pytest

from simdist.conformance.suite.vsweep66_cases import REF

_check, _ids = REF.check, REF.ids


@pytest.mark.clause("ops.variable-api")
@pytest.mark.parametrize("name", ["v-init", "v-options"])
def test_vsweep66_constructor_by_initial_value_dtype_and_options(backend: Any, name: str) -> None:
    """tf.Variable of every initial-value kind × dtype None/each of ten (cast or refusal); shape, validate_shape,
    trainable × synchronization, aggregation spellings, names: TF 2.21's dtypes, shapes, values, names, classes."""
    _check(backend, name)


@pytest.mark.clause("ops.variable-api")
@pytest.mark.parametrize("name", _ids("v-methods-") + _ids("v-traced-"))
def test_vsweep66_methods_and_operators_by_dtype(backend: Any, name: str) -> None:
    """Every read, assign form, scatter, conversion and operator of a variable of each dtype, eagerly and traced:
    the returned object (and whether it is the variable), the variable after, or the refusal class: TF 2.21's."""
    _check(backend, name)


@pytest.mark.clause("autodiff.integer")
@pytest.mark.parametrize("name", ["v-grad"])
def test_vsweep66_gradients_of_variable_reads(backend: Any, name: str) -> None:
    """GradientTape over each read form of float/complex/integer variables (unconnected NONE and ZERO), unwatched
    and untrainable variables, reads inside a tf.function, assigns inside the tape: TF 2.21's gradients."""
    _check(backend, name)


@pytest.mark.clause("ops.variable-api")
@pytest.mark.parametrize("name", ["v-function"])
def test_vsweep66_variables_created_in_tf_function(backend: Any, name: str) -> None:
    """tf.Variable created inside a tf.function on every call, once, per retrace; variables returned and passed:
    TF 2.21's values and refusal classes."""
    _check(backend, name)


@pytest.mark.clause("mirrored.aggregation")
@pytest.mark.parametrize("name", ["v-mirrored"])
def test_vsweep66_variables_under_mirrored_strategy(backend: Any, name: str) -> None:
    """tf.Variable of several dtypes × aggregation × synchronization under MirroredStrategy (2 CPUs): value types,
    per-replica values, per-replica and cross-replica assigns, reads in a replica context: TF 2.21's."""
    _check(backend, name)


if __name__ == "__main__":
    import sys
    if "--record" in sys.argv:
        REF.record()
