"""The training-loop sweep (fifty-seventh session, fsweep57; fsweep57_cases.py): Keras's fit/evaluate/predict loops,
compile options and data adapters by rule — NumPy arrays, lists and dicts of arrays, batched tf.data datasets with
sample weights, Python generators and PyDatasets; partial last batches, steps_per_epoch, validation_split's tail,
validation_data/validation_steps/validation_freq/validation_batch_size, shuffle "batch", class_weight (integer and
one-hot labels), 1-D and temporal sample weights, initial_epoch; loss as a string/function/object/list/dict,
loss_weights, per-output and weighted metrics, steps_per_execution with a partial tail, run_eagerly, jit_compile=False;
the *_on_batch methods; evaluate(return_dict, steps) and predict(batch_size, steps); Sequential, functional and
subclassed models (train_step/test_step overrides, add_loss, activity regularizers), OneDevice and Mirrored(2 CPUs):
History, evaluate's and predict's results, the final weights and iterations by their bits, compared with TF 2.21's
recorded results (`python -m simdist.conformance.suite.test_fsweep57 --record` rewrites fsweep57_reference.json.gz;
recorded on an AVX-512 Xeon with oneDNN on, every program host-dependent)."""

from __future__ import annotations

from typing import Any

import pytest

from simdist.conformance.suite.fsweep57_cases import FIT_NUMPY, MULTI, REF

_check, _ids = REF.check, REF.ids


@pytest.mark.clause("keras.fit.data")
@pytest.mark.parametrize("name", _ids("fs-numpy-") + _ids("fs-data-"))
def test_fsweep57_fit_data_paths(backend: Any, name: str) -> None:
    """fit over NumPy arrays (partial batches, the default batch size, steps_per_epoch, validation_split's tail,
    validation_freq/steps/batch_size, initial_epoch, sample weights, steps_per_execution, run_eagerly,
    jit_compile=False), weighted and repeated datasets, generators and PyDatasets, then evaluate and predict: TF
    2.21's History, results and weights, bit for bit."""
    _check(backend, name)


@pytest.mark.clause("keras.compile.loss-weights")
@pytest.mark.parametrize("name", _ids("fs-loss-") + _ids("fs-classweight-") + _ids("fs-weights-")
                         + _ids("fs-multi-"))
def test_fsweep57_compile_losses_metrics_and_weights(backend: Any, name: str) -> None:
    """compile's loss as a string, function, object, list and dict, loss_weights, per-output, nested and weighted
    metrics on single- and two-input/two-output models; class_weight with integer and one-hot labels; temporal
    sample weights: TF 2.21's History, evaluate/predict/*_on_batch results and weights, bit for bit."""
    _check(backend, name)


@pytest.mark.clause("keras.fit.arguments")
@pytest.mark.parametrize("name", _ids("fs-onbatch-") + _ids("fs-subclassed-") + _ids("fs-regularized-")
                         + _ids("fs-strategy-") + _ids("fs-layers-"))
def test_fsweep57_models_steps_and_strategies(backend: Any, name: str) -> None:
    """train/test/predict_on_batch (return_dict, sample_weight); subclassed models (plain, train_step/test_step
    overridden, add_loss, an activity regularizer), a regularized Sequential model; fit under OneDevice and
    Mirrored(2 CPUs); BatchNormalization beside a frozen layer with sparse (n, 1) labels and 'accuracy', a rank-1
    output: TF 2.21's results, weights and optimizer variables, bit for bit."""
    _check(backend, name)


assert len(_ids("fs-numpy-")) == len(FIT_NUMPY) and len(_ids("fs-multi-")) == len(MULTI)

if __name__ == "__main__":
    import sys
    if "--record" in sys.argv:
        REF.record()
