"""tf.function signatures, retracing and AutoGraph control flow by rule (sixty-fifth session, tsweep65;
tsweep65_cases.py): every parameter shape (positional, defaulted, keyword-only, *args, **kwargs, a method, a tensor
default) × input_signature (None, fewer/exactly/more specs, None dimensions, names, nesting, int32, unknown rank,
reduce_retracing) × a call sequence of tensors, Python and NumPy values, structures and Variables; AutoGraph `if`
with mismatched branches, loops of every kind with break/continue/return and changing loop variables; tf.cond,
tf.while_loop, tf.case and tf.switch_case with their options, eagerly and traced, and gradients through each form;
nested functions and jit_compile — values, error classes with their phase and trace counts compared with TF 2.21's
recorded answers (`python -m simdist.conformance.suite.test_tsweep65 --record` rewrites
tsweep65_reference.json.gz). OPEN (tsweep65_cases.py) lists the cases left out, with the evidence."""

from __future__ import annotations

from typing import Any

import pytest

from simdist.conformance.suite.tsweep65_cases import REF

_check, _ids = REF.check, REF.ids


@pytest.mark.clause("function.input-signature")
@pytest.mark.parametrize("name", [n for n in _ids("t-sig-") if n != "t-sig-concrete"])
def test_tsweep65_parameter_shapes_by_signature_and_call(backend: Any, name: str) -> None:
    """One parameter shape × ten input_signature variants × 28 calls: each call's value or error class and the
    tracing count after it, the signature's refusal at tf.function(), get_concrete_function()'s signature."""
    _check(backend, name)


@pytest.mark.clause("function.trace-once")
@pytest.mark.parametrize("name", ["t-sig-concrete", "t-nest-jit"])
def test_tsweep65_concrete_functions_nesting_and_jit(backend: Any, name: str) -> None:
    """get_concrete_function of specs, Python values and keyword specs per parameter shape, the concrete function's
    calls; nested tf.functions' traces; reduce_retracing's relaxed signature; jit_compile over control flow."""
    _check(backend, name)


@pytest.mark.clause("function.autograph")
@pytest.mark.parametrize("name", ["t-ag-if", "t-ag-loops"])
def test_tsweep65_autograph_control_flow(backend: Any, name: str) -> None:
    """AutoGraph if with branches of other dtypes, shapes, structures, None and Python values; loops over tf.range,
    tensors, datasets and Python lists with break/continue/return, changing loop variables, print vs tf.print:
    values, static shapes, error classes with their phase."""
    _check(backend, name)


@pytest.mark.clause("function.traced-branches")
@pytest.mark.parametrize("name", ["t-cf-direct", "t-cf-gradients"])
def test_tsweep65_direct_control_flow_and_gradients(backend: Any, name: str) -> None:
    """tf.cond/while_loop/case/switch_case with their options and refusals, eager and traced; gradients through
    every control-flow form by a tape outside the function."""
    _check(backend, name)


if __name__ == "__main__":
    import sys
    if "--record" in sys.argv:
        REF.record()
