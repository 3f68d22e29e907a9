"""The Keras numeric-function sweep (fifty-fifth session): every `keras.activations` function with its options,
every regularizer (L1, L2, L1L2, OrthogonalRegularizer by rows and by columns) and every weight constraint (MaxNorm,
MinMaxNorm with and without a rate, NonNeg, UnitNorm, along each axis), crossed by rule over float16/float32/float64,
1 to 33 elements and 2-D/4-D tensors, and 0, -0, subnormal, huge, negative and tied values, the value and its
gradient (a non-uniform upstream) compared bit for bit with TF 2.21's recorded results (ksweep55_cases.py; `python
-m simdist.conformance.suite.test_ksweep55 --record` rewrites ksweep55_reference.json.gz). The recording host is
this session's AVX-512 Xeon with oneDNN on: simdist runs the programs under its reference model on any CPU."""

from __future__ import annotations

from typing import Any

import pytest

from simdist.conformance.suite.ksweep55_cases import ACTIVATIONS, CONSTRAINT_KINDS, DTYPES, LOSSES, REF, REGULARIZERS

_check, _ids = REF.check, REF.ids


@pytest.mark.clause("keras.layer.forward-and-gradients")
@pytest.mark.parametrize("name", _ids("ks-act-"))
def test_ksweep55_activations_values_and_gradients(backend: Any, name: str) -> None:
    """A Keras activation (with an option off its default where it has one) over 8 shapes, its value and its
    gradient: TF 2.21's bits."""
    _check(backend, name)


@pytest.mark.clause("keras.reg.penalties")
@pytest.mark.parametrize("name", _ids("ks-reg-"))
def test_ksweep55_regularizer_penalties_and_gradients(backend: Any, name: str) -> None:
    """A regularizer's penalty of 12 weight shapes (vectors across a packet, 2-D of fewer and more rows than
    columns, 4-D), mild and edge values, and its gradient under an upstream of 1.7: TF 2.21's bits."""
    _check(backend, name)


@pytest.mark.clause("keras.constraints")
@pytest.mark.parametrize("name", _ids("ks-con-"))
def test_ksweep55_constraints_along_each_axis(backend: Any, name: str) -> None:
    """A weight constraint along every axis of a 2-D and a 4-D kernel, a list of axes and a vector, its projected
    weight and its gradient: TF 2.21's bits."""
    _check(backend, name)


@pytest.mark.clause("keras.layer.forward-and-gradients")
@pytest.mark.parametrize("name", _ids("ks-lora-"))
def test_ksweep55_lora_outputs_and_gradients(backend: Any, name: str) -> None:
    """Dense, EinsumDense and Embedding after enable_lora(rank, lora_alpha) (alpha the rank and four other scales),
    seeded base, A and B weights: the output, the trainable weights' names and their gradients: TF 2.21's bits."""
    _check(backend, name)


@pytest.mark.clause("keras.loss.reductions")
@pytest.mark.parametrize("name", _ids("ks-loss-"))
def test_ksweep55_losses_under_each_reduction(backend: Any, name: str) -> None:
    """A Keras loss (each option off its default: axis, from_logits, label_smoothing, ignore_class, alpha/beta/gamma,
    q, margin, dtype; a Keras mask on y_pred; labels of a lower rank) over 3 batch shapes under each reduction (none,
    sum, sum_over_batch_size, mean, mean_with_sample_weight), with and without sample weights holding zeros, and its
    gradient in y_pred; its config and the loss rebuilt from it: TF 2.21's bits."""
    _check(backend, name)


assert len(_ids("ks-act-")) == len(ACTIVATIONS) * len(DTYPES)
assert len(_ids("ks-reg-")) == len(REGULARIZERS) * len(DTYPES)
assert len(_ids("ks-con-")) == len(CONSTRAINT_KINDS) * len(DTYPES)
assert len(_ids("ks-loss-")) == len(LOSSES) * 2 and len(_ids("ks-lora-")) == 6

if __name__ == "__main__":
    import sys
    if "--record" in sys.argv:
        REF.record()
