"""Gradient arithmetic order by rule (sixty-seventh session, gsweep67; gsweep67_cases.py): every registered gradient
whose float formula could be written in another order with the same math — means and variances over counts 3, 5, 6,
7, 10, norms, softmaxes, the elementwise and binary gradients, cross entropies, batch norms, Keras normalization
layers, strategies' reduce(MEAN) under a tape, Keras losses' reductions and optimizers' updates — × float16/bfloat16/
float32/float64 × seeded inputs × eager/tf.function, compared with TF 2.21's recorded bits
(`python -m simdist.conformance.suite.test_gsweep67 --record` rewrites gsweep67_reference.json.gz)."""

from __future__ import annotations

from typing import Any

import pytest

from simdist.conformance.suite.gsweep67_cases import REF

_check = REF.check


@pytest.mark.clause("autodiff.op-gradients")
@pytest.mark.parametrize("name", ["g-reduce", "g-unary", "g-binary", "g-nn"])
def test_gsweep67_registered_gradients_bit_for_bit(backend: Any, name: str) -> None:
    """Gradients of sum(f(x…) · w) (w seeded random) of means/variances/norms/softmaxes over counts 3..10, the
    elementwise and binary ops, cross entropies and batch norms, by dtype, eagerly and traced: TF 2.21's bits."""
    _check(backend, name)


@pytest.mark.clause("keras.layer.forward-and-gradients")
@pytest.mark.parametrize("name", ["g-keras-layers"])
def test_gsweep67_keras_normalization_gradients(backend: Any, name: str) -> None:
    """LayerNormalization and BatchNormalization (training) outputs and their input/weight gradients: TF's bits."""
    _check(backend, name)


@pytest.mark.clause("autodiff.op-gradients")
@pytest.mark.parametrize("name", ["g-strategy"])
def test_gsweep67_strategy_reduce_mean_gradients(backend: Any, name: str) -> None:
    """The default strategy's reduce(MEAN, axis=0) over counts 3..10 under a tape, and MirroredStrategy's
    reduce(MEAN/SUM) of per-replica gradients, eagerly and traced: TF 2.21's bits."""
    _check(backend, name)


@pytest.mark.clause("keras.loss.reductions")
@pytest.mark.parametrize("name", ["g-keras-losses"])
def test_gsweep67_keras_loss_reductions_by_batch_size(backend: Any, name: str) -> None:
    """Keras losses under sum_over_batch_size/sum/mean over batch sizes 3..10: values and gradients, TF's bits."""
    _check(backend, name)


@pytest.mark.clause("optim.update-rules")
@pytest.mark.parametrize("name", ["g-keras-optimizers"])
def test_gsweep67_keras_optimizer_update_formulas(backend: Any, name: str) -> None:
    """Three steps of each Keras optimizer (and option) at two learning rates: the variable's bits, TF's."""
    _check(backend, name)


if __name__ == "__main__":
    import sys
    if "--record" in sys.argv:
        REF.record()
