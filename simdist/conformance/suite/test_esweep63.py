"""Traced Grappler rewrites by dtype and value class, a tape's exposed orders, per-replica results holding Python
values, by rule (sixty-third session, esweep63; esweep63_cases.py): each arithmetic-optimizer and constant-folding
rewrite simdist models, inside a tf.function and eagerly, × 13 dtypes × value classes (±0, subnormals, ±inf, NaN
payloads, integer extremes) × consumer structure (alone, fetched, read twice, read by another op or a tape);
GradientTape.watched_variables() and gradients after gradient/jacobian/batch_jacobian over watch, creation and read
orders, stop_recording, reset, nested tapes; MirroredStrategy(3).run whose later replicas return Python, NumPy, None
or mixed nests, then reduce/gather/experimental_local_results — compared bit for bit (raw bits, NaN payloads
included) with TF 2.21's recorded results (`python -m simdist.conformance.suite.test_esweep63 --record` rewrites
esweep63_reference.json.gz). OPEN (esweep63_cases.py) lists the cases left out, with the evidence."""

from __future__ import annotations

from typing import Any

import pytest

from simdist.conformance.suite.esweep63_cases import REF

_check, _ids = REF.check, REF.ids


@pytest.mark.clause("function.grappler-rewrites")
@pytest.mark.parametrize("name", _ids("e-gr-"))
def test_esweep63_grappler_rewrites_by_dtype_value_and_consumers(backend: Any, name: str) -> None:
    """Square(Sub)/Mul(x, x), identities by ones and zeros, divisions, pows and log1p/expm1, involutions and
    negations, AddOpsRewrite/aggregation/hoisting, constant push-down, monotonic reductions and logical-not,
    pack/reshape/reduction identities — traced and eager × 13 dtypes × value classes × consumers: TF 2.21's bits or
    refusal classes."""
    _check(backend, name)


@pytest.mark.clause("autodiff.watch")
@pytest.mark.parametrize("name", _ids("t-tape-"))
def test_esweep63_tape_orders(backend: Any, name: str) -> None:
    """watched_variables() before and after gradient/jacobian/batch_jacobian over watch, creation and read orders,
    persistent and spent tapes, watch_accessed_variables=False, stop_recording, reset, nested tapes, a tf.function's
    reads, watched tensors: names in order and gradients, TF 2.21's."""
    _check(backend, name)


@pytest.mark.clause("reduce.axis-none")
@pytest.mark.parametrize("name", _ids("d-"))
def test_esweep63_per_replica_python_values(backend: Any, name: str) -> None:
    """strategy.run / distribute_values_from_function whose later replicas return Python numbers, NumPy values,
    None, strings or mixed nests (and all replicas Python values): the result, local results, reduce SUM/MEAN with
    axis None and 0, gather: kinds, values and refusal classes, TF 2.21's."""
    _check(backend, name)


if __name__ == "__main__":
    import sys
    if "--record" in sys.argv:
        REF.record()
