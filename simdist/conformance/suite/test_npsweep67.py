"""NumPy scalars, 0-d arrays and Python numbers as arguments, by rule (sixty-seventh session, npsweep67;
npsweep67_cases.py): each argument form (Python int/float/bool, every NumPy scalar type, np.bool_, 0-d arrays, a
shape-[1] array, tensors) into op attributes and scalar arguments, tf.constant/convert_to_tensor/tf.Variable and their
dtype inference, arithmetic with tensors, Keras layer/optimizer/schedule/loss constructors and their config round
trips, tf.function calls and concrete functions, strategy.run, tf.data and Model.fit — compared with TF 2.21's
recorded answers: values bit for bit, config values' types, refusals by exception class (`python -m
simdist.conformance.suite.test_npsweep67 --record` rewrites npsweep67_reference.json.gz). OPEN (npsweep67_cases.py)
lists the cases left out."""

from __future__ import annotations

from typing import Any

import pytest

from simdist.conformance.suite.npsweep67_cases import REF

_check = REF.check


@pytest.mark.clause("ops.index-dtypes")
def test_npsweep67_op_scalar_arguments_in_every_form(backend: Any) -> None:
    """axis/batch_dims/depth/k/num/shift/alpha/epsilon/clip bounds/constant_values and tf.range/linspace/fill/tile/
    reshape/cast/round arguments in each form (a NumPy float or bool axis is cast): TF 2.21's values or refusals."""
    _check(backend, "np-op-args")


@pytest.mark.clause("ops.dtype-refusal")
@pytest.mark.parametrize("name", ["np-convert", "np-arith"])
def test_npsweep67_conversion_and_arithmetic_dtypes(backend: Any, name: str) -> None:
    """tf.constant/convert_to_tensor/tf.Variable of each form × dtype, and each form beside a tensor of six dtypes
    in nine operators: TF 2.21's dtypes (a NumPy scalar's own, the tensor's) and refusal classes."""
    _check(backend, name)


@pytest.mark.clause("keras.saving.json-and-serialize")
def test_npsweep67_keras_layer_arguments_and_json(backend: Any) -> None:
    """Keras layers' scalar arguments in each form: the config values' types, from_config and to_json round trips
    (a NumPy scalar or 0-d array written as its item), and what the layers compute: TF 2.21 + Keras 3.15's."""
    _check(backend, "np-keras-layers")


@pytest.mark.clause("optim.config-round-trip")
def test_npsweep67_optimizer_schedule_loss_arguments(backend: Any) -> None:
    """Optimizers', schedules' and losses' scalar arguments in each form: config values' types, from_config, two
    steps' values, the schedules' values at four steps, the losses' values: TF 2.21 + Keras 3.15's."""
    _check(backend, "np-keras-optim")


@pytest.mark.clause("function.input-signature")
def test_npsweep67_functions_strategy_and_datasets(backend: Any) -> None:
    """tf.function calls and concrete functions of each form (trace counts, specs), strategy.run args, tf.data
    from_tensors/from_tensor_slices/range/batch/take (a NumPy float count is cast): TF 2.21's."""
    _check(backend, "np-function-data")


@pytest.mark.clause("keras.fit.arguments")
def test_npsweep67_fit_with_numpy_arguments(backend: Any) -> None:
    """Model.fit on float64/int64 arrays with NumPy batch_size, epochs, initial_epoch, learning rate and loss
    weights: TF 2.21's history, weights and predictions."""
    _check(backend, "np-fit")


if __name__ == "__main__":
    import sys
    if "--record" in sys.argv:
        REF.record()
