"""The distributed and higher-order gradient sweep (fifty-ninth session, hsweep59; hsweep59_cases.py): a
GradientTape inside strategy.run (eagerly and traced) around every cross-replica op — ReplicaContext.all_reduce SUM
and MEAN of a tensor and a nest, all_gather along each axis, merge_call with reduce_to and batch_reduce_to,
replica_id_in_sync_group in the math, a stop_gradient on one replica — under MirroredStrategy (two CPUs),
OneDeviceStrategy, CentralStorageStrategy and the default strategy in float16, bfloat16, float32 and float64;
unconnected and integer sources; strategy.reduce/gather under a tape and distributed values from a function;
second-order gradients (tape in tape, jacobian and batch_jacobian with pfor both ways, ForwardAccumulator, forward
over backward, traced) of matmul, softmax, reductions, gather, conv2d, tanh and relu at zero; custom_gradient with
variables, None and IndexedSlices; recompute_grad; gradients of traced functions called with different signatures.
Expected results are TF 2.21's, recorded on an AVX-512 Xeon with oneDNN on (`python -m
simdist.conformance.suite.test_hsweep59 --record` rewrites hsweep59_reference.json.gz), values and gradients by
their bits."""

from __future__ import annotations

from typing import Any

import pytest

from simdist.conformance.suite.hsweep59_cases import REF

_check, _ids = REF.check, REF.ids


@pytest.mark.clause("replica.all-reduce-gradient")
@pytest.mark.parametrize("name", _ids("hs-dist-"))
def test_hsweep59_cross_replica_op_gradients(backend: Any, name: str) -> None:
    """Each cross-replica op's value and its gradient per replica (the upstream's all-reduce for all_reduce, the
    slice of the summed upstreams for all_gather, merge_call's reductions), eager and traced, per strategy x dtype:
    TF 2.21's bits."""
    _check(backend, name)


@pytest.mark.clause("autodiff.strategy-run")
@pytest.mark.parametrize("name", _ids("hs-src-") + _ids("hs-cross-"))
def test_hsweep59_sources_and_cross_replica_tapes(backend: Any, name: str) -> None:
    """Unconnected (NONE, ZERO) and integer sources of a replica's tape; strategy.reduce/gather under a tape outside
    strategy.run; distribute_values_from_function's values watched in a replica: TF 2.21's values and errors."""
    _check(backend, name)


@pytest.mark.clause("autodiff.higher-order")
@pytest.mark.parametrize("name", _ids("hs-ord-"))
def test_hsweep59_second_order_gradients(backend: Any, name: str) -> None:
    """Tape in tape (output_gradients), jacobian and batch_jacobian (pfor both ways), ForwardAccumulator's jvp,
    forward over backward and a traced second order of ordinary ops per float dtype: TF 2.21's bits."""
    _check(backend, name)


@pytest.mark.clause("autodiff.custom-gradient")
@pytest.mark.parametrize("name", _ids("hs-cg-") + _ids("hs-fn-"))
def test_hsweep59_custom_gradients_and_traced_functions(backend: Any, name: str) -> None:
    """custom_gradient with variables, a None and IndexedSlices (plain, traced, in replicas), recompute_grad with a
    variable, gradients of traced functions over several signatures and of a concrete function: TF 2.21's bits."""
    _check(backend, name)


if __name__ == "__main__":
    import sys
    if "--record" in sys.argv:
        REF.record()
