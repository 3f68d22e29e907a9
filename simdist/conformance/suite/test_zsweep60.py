"""The random-op and distribution-argument sweep (sixtieth session, zsweep60; zsweep60_cases.py): tf.random.Generator
(seed forms, state words at 0, 1, 2^32 - 1, 2^32, 2^63 - 1, -2^63 and -1 in each position, algorithms, split, skip
and make_seeds across the counter's carry, every method in every dtype at sizes around Philox's block of four, int
ranges at the dtype's ends, traced and under a strategy), the stateless ops at their seeds' ends with each alg, the
stateful ops under each combination of global and op seed (the op-seed counter, eagerly and traced), categorical/
shuffle/gamma/poisson at their edges, seeded Keras initializers; then compute_average_loss and
scale_regularization_loss, colocate_vars_with, strategy.reduce/gather/all_gather axes and
experimental_distribute_dataset's InputOptions — compared bit for bit with TF 2.21's recorded results (`python -m
simdist.conformance.suite.test_zsweep60 --record` rewrites zsweep60_reference.json.gz). OPEN (zsweep60_cases.py)
lists the cases left out, with the evidence."""

from __future__ import annotations

from typing import Any

import pytest

from simdist.conformance.suite.zsweep60_cases import REF

_check, _ids = REF.check, REF.ids


@pytest.mark.clause("ops.random-generator")
@pytest.mark.parametrize("name", _ids("zr-gen-"))
def test_zsweep60_generator_states_seeds_and_methods(backend: Any, name: str) -> None:
    """tf.random.Generator from seeds and states at every word class, split/skip/reset/make_seeds across the carry,
    every method and dtype at sizes 0 to 9, traced and in a strategy's replicas: states and draws, TF 2.21's bits."""
    _check(backend, name)


@pytest.mark.clause("ops.stateless-random")
@pytest.mark.parametrize("name", _ids("zr-stateless"))
def test_zsweep60_stateless_ops_at_seed_ends(backend: Any, name: str) -> None:
    """The stateless ops with seeds at int32's and int64's ends, each alg, sizes 0 to 9, every dtype: TF 2.21's bits."""
    _check(backend, name)


@pytest.mark.clause("ops.random-across-calls")
@pytest.mark.parametrize("name", _ids("zr-stateful-") + _ids("zr-categorical-") + _ids("zr-arguments"))
def test_zsweep60_stateful_ops_and_seeds(backend: Any, name: str) -> None:
    """Stateful random ops under global/op seed combinations, called again, set_seed again, traced; categorical,
    shuffle, gamma and poisson at their edges: TF 2.21's bits."""
    _check(backend, name)


@pytest.mark.clause("keras.init.seeding")
@pytest.mark.parametrize("name", _ids("zk-"))
def test_zsweep60_keras_initializers(backend: Any, name: str) -> None:
    """Seeded Keras initializers called twice in float32 and float64 at three shapes: TF 2.21's bits."""
    _check(backend, name)


@pytest.mark.clause("nn.compute-average-loss")
@pytest.mark.parametrize("name", ["zd-average-loss"])
def test_zsweep60_average_loss_arguments(backend: Any, name: str) -> None:
    """compute_average_loss (global_batch_size omitted, ints, tensors, 0; sample_weight shapes; traced; in replicas)
    and scale_regularization_loss: TF 2.21's bits or error classes."""
    _check(backend, name)


@pytest.mark.clause("scope.colocate-requires-scope")
@pytest.mark.parametrize("name", ["zd-colocate"])
def test_zsweep60_colocated_variables(backend: Any, name: str) -> None:
    """colocate_vars_with's variables' devices (default and mirrored strategies, nested), their assignments' devices,
    variable_created_in_scope: TF 2.21's."""
    _check(backend, name)


@pytest.mark.clause("gather.axis-range")
@pytest.mark.parametrize("name", ["zd-reduce-gather", "zd-reduce-traced-placed"])
def test_zsweep60_reduce_and_gather_axes(backend: Any, name: str) -> None:
    """strategy.reduce axes, strategy.gather and all_gather axes (in and out of range), all_reduce MAX/MIN, the
    default and OneDeviceStrategy's reduce/gather, num_replicas_in_sync: TF 2.21's bits or error classes."""
    _check(backend, name)


@pytest.mark.clause("dataset.prefetch")
@pytest.mark.parametrize("name", ["zd-distribute-dataset"])
def test_zsweep60_distributed_dataset_options(backend: Any, name: str) -> None:
    """experimental_distribute_dataset with InputOptions off their defaults and partial batches,
    distribute_datasets_from_function: each replica's values and devices, TF 2.21's."""
    _check(backend, name)


assert set(REF.programs) == set(_ids("zr-") + _ids("zk-") + _ids("zd-"))

if __name__ == "__main__":
    import sys
    if "--record" in sys.argv:
        REF.record()
