"""tf.function and AutoGraph semantics by rule (sixty-first session, asweep61; asweep61_cases.py): Python control
flow on tensors (if/elif/else, while, for over range(tensor), a tensor, a dataset, an iterator; break, continue,
return in loops, early returns, a variable one branch leaves undefined, bool(), and/or/not, assert, Python conditions)
under autograph=True and False; print against tf.print; iterators inside functions (next() past the end, next(it,
default), get_next_as_optional, an iterator advanced across calls, a final partial batch, a distributed dataset);
retracing (Python scalars against tensors, new shapes, input_signature with None dimensions, reduce_retracing,
keyword arguments and defaults, nested structures, Variable arguments, concrete functions' structured signatures);
side effects (Python lists at trace time, variables created on the first call only or on every call, variables
assigned in tensor loops, py_function/numpy_function). Values, trace counts (a Python counter and
experimental_get_tracing_count), exception classes and the phase of an error (trace or run), compared with TF 2.21's
recorded results (`python -m simdist.conformance.suite.test_asweep61 --record` rewrites asweep61_reference.json.gz).
OPEN (asweep61_cases.py) lists the cases left out, with the evidence."""

from __future__ import annotations

from typing import Any

import pytest

from simdist.conformance.suite.asweep61_cases import REF

_check, _ids = REF.check, REF.ids


@pytest.mark.clause("function.autograph")
@pytest.mark.parametrize("name", _ids("a-flow-"))
def test_asweep61_control_flow_with_autograph_on_and_off(backend: Any, name: str) -> None:
    """One Python control-flow construct on tensors under autograph=True and False and eagerly, called with
    arguments that take each path: values, error classes with their phase (trace or run) and the traces counted by
    the Python body: TF 2.21's."""
    _check(backend, name)


@pytest.mark.clause("function.autograph")
@pytest.mark.parametrize("name", _ids("a-print") + _ids("a-iter"))
def test_asweep61_print_order_and_iterators_in_functions(backend: Any, name: str) -> None:
    """print at trace time against tf.print at run time; iterators inside tf.functions with AutoGraph on and off
    (next() past the end, next(it, default), get_next_as_optional, across calls, partial batches, a distributed
    dataset): TF 2.21's values and error classes."""
    _check(backend, name)


@pytest.mark.clause("function.trace-once")
@pytest.mark.parametrize("name", _ids("a-retrace-"))
def test_asweep61_retracing_by_argument_kind(backend: Any, name: str) -> None:
    """Call sequences of Python scalars, tensors of new shapes and dtypes, keyword arguments and defaults, nested
    structures and variables, with and without reduce_retracing and input_signature: each call's value, the Python
    trace counter and experimental_get_tracing_count, and the concrete functions' structured signatures: TF 2.21's."""
    _check(backend, name)


@pytest.mark.clause("function.trace-once")
@pytest.mark.parametrize("name", _ids("a-relaxed") + _ids("a-tape") + _ids("a-replicas") + _ids("a-misc")
                         + _ids("a-concrete"))
def test_asweep61_relaxed_traces_tapes_and_replicas(backend: Any, name: str) -> None:
    """reduce_retracing over shape sequences (the static shapes each serving trace saw, defaults left out), a
    tf.function under a GradientTape (first call and replays, AutoGraph control flow inside, nested in an outer
    function), a tf.function inside strategy.run (each replica's id and value): TF 2.21's."""
    _check(backend, name)


@pytest.mark.clause("function.trace-once")
@pytest.mark.clause("ops.function-utilities")
@pytest.mark.parametrize("name", _ids("a-side"))
def test_asweep61_side_effects(backend: Any, name: str) -> None:
    """Python side effects at trace time, variables created on the first call only or on every call, variables
    assigned inside tensor loops, py_function/numpy_function: TF 2.21's values and error classes."""
    _check(backend, name)


if __name__ == "__main__":
    import sys
    if "--record" in sys.argv:
        REF.record()
