"""The tf.function and GradientTape sweep (fifty-eighth session, tsweep58; tsweep58_cases.py): tracing and
retracing (reduce_retracing both ways over one to three parameters changing shape, rank and dtype at different
calls), input signatures, Python and object arguments, methods, jit_compile, autograph constructs, and the tape's
options (persistent, watching, unconnected gradients, output gradients, stop_recording, reset, nested tapes,
jacobians, integer sources, custom gradients, recompute_grad, control flow, gathers of variables, ops of several
outputs, forward accumulators), crossed by rule. Expected results are TF 2.21's, recorded on an AVX-512 Xeon with
oneDNN on (`python -m simdist.conformance.suite.test_tsweep58 --record` rewrites tsweep58_reference.json.gz); inputs
are small dyadic rationals whose sums and products are exact: no program is host-dependent."""

from __future__ import annotations

from typing import Any

import pytest

from simdist.conformance.suite.tsweep58_cases import REF

_check, _ids = REF.check, REF.ids


@pytest.mark.clause("function.tracing-count")
@pytest.mark.parametrize("name", _ids("fn-retrace-"))
def test_tsweep58_retracing_by_rule(backend: Any, name: str) -> None:
    """reduce_retracing False and True over one, two and three parameters whose shapes, ranks and dtypes change at
    different calls, a Python scalar beside them, nested tuples and dicts: each call's value, trace counts (a Python
    side effect and experimental_get_tracing_count) and the static shapes each trace saw: TF 2.21's."""
    _check(backend, name)


@pytest.mark.clause("function.input-signature")
@pytest.mark.parametrize("name", _ids("fn-sig-") + _ids("fn-concrete-") + _ids("fn-unknown-rank-"))
def test_tsweep58_input_signatures_and_concrete_functions(backend: Any, name: str) -> None:
    """input_signature with None dimensions, an unknown rank, nested tuples and dicts and named specs, called with
    fitting and unfitting arguments (error classes), keywords and defaults; get_concrete_function's signatures,
    outputs and calls; the static shapes of reductions of an unknown rank: TF 2.21's."""
    _check(backend, name)


@pytest.mark.clause("function.object-arguments")
@pytest.mark.parametrize("name", _ids("fn-args-") + _ids("fn-methods"))
def test_tsweep58_python_object_variable_arguments_and_methods(backend: Any, name: str) -> None:
    """Python bools, ints, floats, None, tuples, dicts, plain objects, NumPy arrays and tf.Variables as arguments,
    keywords, defaults, *args/**kwargs; methods of a class, a tf.Module and a Keras layer; jit_compile and autograph
    options: values and when each call retraces, TF 2.21's."""
    _check(backend, name)


@pytest.mark.clause("function.autograph")
@pytest.mark.parametrize("name", _ids("fn-ag-"))
def test_tsweep58_autograph_constructs(backend: Any, name: str) -> None:
    """for over tf.range, a tensor, a dataset and a Python list; while with break/continue; return in a loop;
    if/elif; branches of different dtypes and shapes; TensorArray; nested functions; variables on the first call only:
    TF 2.21's values and error classes."""
    _check(backend, name)


@pytest.mark.clause("autodiff.persistent")
@pytest.mark.parametrize("name", _ids("tape-"))
def test_tsweep58_tape_options(backend: Any, name: str) -> None:
    """GradientTape's options crossed: persistent, watch_accessed_variables, unconnected_gradients, output_gradients,
    stop_recording, reset, nested tapes, jacobian/batch_jacobian (pfor both ways, parallel_iterations), integer and
    bool sources, custom_gradient with variables and keywords, recompute_grad, gradients through control flow and
    gathers, ops of several outputs, ForwardAccumulator: TF 2.21's values and error classes."""
    _check(backend, name)


if __name__ == "__main__":
    import sys
    if "--record" in sys.argv:
        REF.record()
