"""The array/nn ops' options no sweep crossed, by rule (sixty-third session, fix63g; gsweep63b_cases.py): activations
and their first- and second-order gradients at 0, -0.0, +-inf, NaN; half-precision softmax and cross entropy; l2_loss,
sigmoid/weighted cross entropy, compute_average_loss's and scale_regularization_loss's options in and out of a
strategy; bias_add's formats and gradients; dropout's rate edges; embedding_lookup's max_norm; scans' gradients under
exclusive x reverse; argmax/argmin of NaN and their default axis; euclidean norm and variance; concat/stack/unstack/
split/gather/gather_nd/segment gradients off axis 0; the array ops' argument checks; range's dtypes and float
arguments. Values and gradients bit for bit against TF 2.21's recorded results (`python -m
simdist.conformance.suite.test_gsweep63b --record` rewrites gsweep63b_reference.json.gz). gbh- programs
(transcendental and oneDNN float kernels) run on simdist under its model of the recording host."""

from __future__ import annotations

from typing import Any

import pytest

from simdist.conformance.suite.gsweep63b_cases import REF

_check, _ids = REF.check, REF.ids


@pytest.mark.clause("autodiff.op-gradients")
@pytest.mark.parametrize("name", _ids("gbh-act-"))
def test_gsweep63b_activations_and_their_gradients_at_the_edges(backend: Any, name: str) -> None:
    """An activation of edge values in float32/float64: values, first- and second-order gradients, traced."""
    _check(backend, name)


@pytest.mark.clause("nn.softmax-eigen", "nn.xent-labels-range")
@pytest.mark.parametrize("name", _ids("gbh-softmax-"))
def test_gsweep63b_half_softmax_and_cross_entropy(backend: Any, name: str) -> None:
    """softmax/log_softmax of half and float32 rows with inf/NaN, cross entropy's values, gradients and labels."""
    _check(backend, name)


@pytest.mark.clause("nn.compute-average-loss")
@pytest.mark.parametrize("name", _ids("gbh-loss-"))
def test_gsweep63b_losses_and_their_options(backend: Any, name: str) -> None:
    """l2_loss, sigmoid/weighted cross entropy, compute_average_loss and scale_regularization_loss options."""
    _check(backend, name)


@pytest.mark.clause("autodiff.op-gradients", "nn.dropout-seeding")
@pytest.mark.parametrize("name", _ids("gb-nn-"))
def test_gsweep63b_nn_options(backend: Any, name: str) -> None:
    """bias_add formats and gradients, dropout's rate edges, embedding_lookup's max_norm."""
    _check(backend, name)


@pytest.mark.clause("ops.shape-errors", "ops.argmax", "autodiff.op-gradients")
@pytest.mark.parametrize("name", _ids("gb-red-") + _ids("gb-arr-"))
def test_gsweep63b_reductions_and_array_ops_off_their_defaults(backend: Any, name: str) -> None:
    """scans' gradients, argmax of NaN, norms, the array ops' gradients off axis 0 and their argument checks, range."""
    _check(backend, name)


assert sorted(_ids("gbh-act-") + _ids("gbh-softmax-") + _ids("gbh-loss-") + _ids("gb-nn-") + _ids("gb-red-")
              + _ids("gb-arr-")) == sorted(REF.programs)

if __name__ == "__main__":
    import sys
    if "--record" in sys.argv:
        REF.record()
