"""Random ops by rule (sixty-second session, nsweep62; nsweep62_cases.py): the stateless ops (uniform, normal,
truncated_normal, categorical, poisson, gamma, binomial, parameterized_truncated_normal, full-range integers,
split/fold_in) under every alg form and seed container/value, at 0-9 elements around Philox's four-word blocks and in
every dtype; the V2 kernels with explicit key/counter at the 32- and 64-bit wraps; tf.random.Generator's
constructors, counters, split/skip/reset, eagerly and traced; get_seed's rules for the stateful ops eagerly and in
tf.functions called again, retraced and after set_seed; keras.random and Keras's dropout layers with each seed form.
Compared bit for bit with TF 2.21's recorded results (a refusal by its exception class; `python -m
simdist.conformance.suite.test_nsweep62 --record` rewrites nsweep62_reference.json.gz). OPEN (nsweep62_cases.py)
lists the cases left out, with the evidence."""

from __future__ import annotations

from typing import Any

import pytest

from simdist.conformance.suite.nsweep62_cases import REF

_check, _ids = REF.check, REF.ids


@pytest.mark.clause("ops.stateless-random")
@pytest.mark.parametrize("name", _ids("n-sl-seeds-"))
def test_nsweep62_stateless_ops_by_alg_and_seed_form(backend: Any, name: str) -> None:
    """Each stateless op under alg names, numbers, enums and None, with seeds as Python lists, tuples, NumPy arrays
    and tensors of int32/int64/uint32/uint64 holding the integer types' ends (and seeds of the wrong shape or dtype):
    the draws or the refusal's class."""
    _check(backend, name)


@pytest.mark.clause("ops.stateless-random")
@pytest.mark.parametrize("name", _ids("n-sl-sizes-") + ["n-key-counter", "n-hd-categorical-shards"])
def test_nsweep62_stateless_ops_by_size_and_dtype(backend: Any, name: str) -> None:
    """Each stateless op at 0-9 elements and 2-D shapes in every output dtype (and ones TF refuses), and the V2
    kernels with explicit key/counter at the counter's 32- and 64-bit wraps; multinomial draws of rows enough for TF's
    Shard to split them (host-dependent: two intra-op threads)."""
    _check(backend, name)


@pytest.mark.clause("ops.random-generator")
@pytest.mark.parametrize("name", _ids("n-gen-"))
def test_nsweep62_generator_constructors_counters_and_traces(backend: Any, name: str) -> None:
    """tf.random.Generator from each alg and seed, from key/counters near the wraps, from_state; every draw and the
    state after it; split, skip, reset; inside tf.functions called again."""
    _check(backend, name)


@pytest.mark.clause("ops.random-in-function", "ops.random-across-calls")
@pytest.mark.parametrize("name", ["n-get-seed", "n-fn-stateful", "n-fn-global-only"])
def test_nsweep62_stateful_seeds_eager_and_traced(backend: Any, name: str) -> None:
    """get_seed's rules (global x op seed), eager repeats, tf.functions called again, retraced, after set_seed, two
    functions, two ops of one op seed."""
    _check(backend, name)


@pytest.mark.clause("keras.random.distributions", "nn.dropout-seeding")
@pytest.mark.parametrize("name", _ids("n-keras-"))
def test_nsweep62_keras_random_and_dropout_layers(backend: Any, name: str) -> None:
    """keras.random with int seeds, SeedGenerators and None after set_random_seed, eagerly and traced; the dropout
    and noise layers in training."""
    _check(backend, name)


assert sorted(_ids("n-sl-seeds-") + _ids("n-sl-sizes-") + ["n-key-counter", "n-hd-categorical-shards"] + _ids("n-gen-")
              + ["n-get-seed", "n-fn-stateful", "n-fn-global-only"] + _ids("n-keras-")) == sorted(REF.programs)

if __name__ == "__main__":
    import sys
    if "--record" in sys.argv:
        REF.record()
