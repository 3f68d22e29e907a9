"""Keras API arguments fed by kind, crossed by rule (sixty-fifth session, asweep65; asweep65_cases.py): every
constructor argument of 90 keras.layers classes (by family) given None, its default, wrong types, out-of-range
values, other case, callables for names, tuples of axes and dtype options; Layer.add_weight/add_variable's options;
keras.Input/InputSpec arguments and Inputs with a batch size called, predicted, evaluated and fitted at other batch
sizes; Model.summary's layouts; softmax over tuples of axes; losses', metrics', optimizers', schedules' and
callbacks' arguments, compile/fit/evaluate/predict arguments. Each case is TF 2.21's answer (the refusal's error
class, else the argument as the config keeps it, the config's round trip and a small call's bits), recorded by
`python -m simdist.conformance.suite.test_asweep65 --record` into asweep65_reference.json.gz. OPEN
(asweep65_cases.py) lists the cases left out, with the evidence in docs/conformance.md."""

from __future__ import annotations

from typing import Any

import pytest

from simdist.conformance.suite.asweep65_cases import REF

_check, _ids = REF.check, REF.ids


@pytest.mark.clause("keras.layer.arguments")
@pytest.mark.parametrize("name", _ids("ak-layers-"))
def test_asweep65_layer_arguments_by_kind(backend: Any, name: str) -> None:
    """Each family's layers with every listed constructor argument fed by kind: the refusal's class, or the config's
    value and round trip and a small call's dtype, shape and bits."""
    _check(backend, name)


@pytest.mark.clause("keras.layer.option-coverage")
def test_asweep65_add_weight_and_add_variable_options(backend: Any) -> None:
    """add_weight/add_variable with each option fed alone (shape forms, initializer names and callables, trainable,
    regularizer, constraint, dtype, aggregation, synchronization, autocast, name) under float32 and mixed_float16."""
    _check(backend, "a-variable-options")


@pytest.mark.clause("keras.model.call")
def test_asweep65_inputs_and_input_specs(backend: Any) -> None:
    """keras.Input's arguments by kind, InputSpec's checks at ranks 1-4, and models on Inputs with batch sizes called,
    predicted, evaluated and fitted at other batch sizes."""
    _check(backend, "a-input-arguments")


@pytest.mark.clause("keras.model.summary")
def test_asweep65_summary_layouts(backend: Any) -> None:
    """Model.summary under line lengths, positions (fractions, absolute, fewer and more than the columns),
    show_trainable, expand_nested and layer_range: the printed text or the error class."""
    _check(backend, "a-summary-layouts")


@pytest.mark.clause("keras.ops")
def test_asweep65_softmax_over_axis_tuples(backend: Any) -> None:
    """keras.ops.softmax/log_softmax and layers.Softmax over every permutation of 2-3 axes, duplicates and
    negatives: the bits or the error class."""
    _check(backend, "ak-softmax-axes")


@pytest.mark.clause("keras.loss.option-coverage")
def test_asweep65_loss_arguments(backend: Any) -> None:
    """Loss classes with every reduction name, dtype options and their own arguments by kind."""
    _check(backend, "a-loss-arguments")


@pytest.mark.clause("keras.metric.option-coverage")
def test_asweep65_metric_arguments(backend: Any) -> None:
    """Metric classes with name/dtype options and their own arguments by kind, after two updates."""
    _check(backend, "a-metric-arguments")


@pytest.mark.clause("optim.option-coverage")
def test_asweep65_optimizer_and_schedule_arguments(backend: Any) -> None:
    """Optimizers' own and common arguments by kind, learning rates as schedules/callables/tensors, schedules'
    arguments by kind."""
    _check(backend, "a-optimizer-arguments")


@pytest.mark.clause("keras.fit.arguments")
def test_asweep65_callback_compile_and_fit_arguments(backend: Any) -> None:
    """Callbacks' options through a short fit, compile/fit/evaluate/predict arguments by kind."""
    _check(backend, "a-callback-fit-arguments")


if __name__ == "__main__":
    import sys
    if "--record" in sys.argv:
        REF.record()
