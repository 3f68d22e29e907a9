"""The ConcreteFunction API crossed by rule (sixty-sixth session, fsweep66; fsweep66_cases.py): tf.function over
functions and methods of every parameter form × get_concrete_function of TensorSpecs (named, unnamed, repeated,
invalid node names), tensors, Python and NumPy values and Variables → inputs' names, structured_input_signature,
outputs, output_shapes/dtypes, pretty_printed_signature, captured_inputs, variables; calls of every form (extra,
missing, mistyped arguments: error classes), gradients through a GradientTape, experimental_get_tracing_count —
compared with TF 2.21's recorded answers (`python -m simdist.conformance.suite.test_fsweep66 --record` rewrites
fsweep66_reference.json.gz). OPEN (fsweep66_cases.py) lists the cases left out, with the evidence."""

from __future__ import annotations

from typing import Any

import pytest

from simdist.conformance.suite.fsweep66_cases import REF

_check = REF.check


@pytest.mark.clause("function.symbolic-tensors")
def test_fsweep66_concrete_function_of_every_parameter_form(backend: Any) -> None:
    """Every parameter form × spec kind: the placeholders' names (Graph.unique_name, invalid node names as
    Placeholder), structured_input_signature's sanitized names, outputs, pretty_printed_signature, variables."""
    _check(backend, "f-forms")


@pytest.mark.clause("function.graph-gradients")
def test_fsweep66_concrete_methods_variables_and_gradients(backend: Any) -> None:
    """Methods of a tf.Module, variable arguments and captured variables: variables, trainable_variables,
    captured_inputs, calls of every form and gradients through the concrete functions (unknown dimensions too)."""
    _check(backend, "f-methods")


@pytest.mark.clause("function.tracing-count")
def test_fsweep66_concrete_calls_and_tracing_counts(backend: Any) -> None:
    """Calls of concrete functions positionally, by keyword, nested, with extra/missing/mistyped arguments (error
    classes), and experimental_get_tracing_count around get_concrete_function (named specs, reduce_retracing)."""
    _check(backend, "f-calls")


@pytest.mark.clause("function.trace-once")
def test_fsweep66_concrete_literals_outputs_and_the_function_cache(backend: Any) -> None:
    """A NaN literal's trace, a namedtuple output, keyword-only defaults against an input_signature, the function
    cache's reuse of concrete functions (the Python runs once), variables' trace types and NumPy inside dicts."""
    _check(backend, "f-more")


if __name__ == "__main__":
    import sys
    if "--record" in sys.argv:
        REF.record()
