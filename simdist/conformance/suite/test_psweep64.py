"""Python-number options and scalar operands in float64, float16 and bfloat16 programs, float32 the control
(sixty-fourth session, psweep64; psweep64_cases.py): every keras.layers option that enters arithmetic, keras.losses'
options, keras.optimizers' hyperparameters, LR schedules, regularizers, constraints, initializers, keras.ops and tf
ops with a Python scalar on either side, training-mode noise and attention scales, and the other conversion points
(bucket boundaries, fills, ranges, random ranges, histograms, metrics' thresholds). A Python scalar is weakly typed in
Keras 3 (it takes the other operand's dtype exactly) while tf's convert_to_tensor makes a Python float float32 unless
a dtype is given. Expected results are TF 2.21's, recorded on this session's host, an Intel Xeon with AVX-512 and
oneDNN on (`python -m simdist.conformance.suite.test_psweep64 --record` rewrites psweep64_reference.json.gz); every
program is host-dependent (`pk-`: exp, log, tanh and half kernels), run on simdist elsewhere under its reference
model of such a host. Floats compared by their raw bits."""

from __future__ import annotations

from typing import Any

import pytest

from simdist.conformance.suite.psweep64_cases import HOST_DEPENDENT, REF  # noqa: F401 (HOST_DEPENDENT: the prefix)

_check = REF.check


@pytest.mark.clause("keras.layer.forward-and-gradients")
def test_psweep64_layer_options_take_the_layer_dtype(backend: Any) -> None:
    """LeakyReLU, ELU-free ReLU options, PReLU, Rescaling, Normalization, the normalization layers' epsilons and
    BatchNormalization's momentum, Softmax masks, noise layers in inference, a constrained Dense's step: in float64,
    float16, bfloat16 and float32 policies, outputs and input gradients by their bits."""
    _check(backend, "pk-layers-options")


@pytest.mark.clause("keras.loss.option-coverage")
def test_psweep64_loss_options_in_each_dtype(backend: Any) -> None:
    """Huber delta, label smoothing, Tversky/focal alpha and gamma and the other losses' constants, with the loss's
    default dtype (float32), dtype=the inputs' and reduction None, and the loss functions: bits."""
    _check(backend, "pk-losses-options")


@pytest.mark.clause("optim.update-rules")
def test_psweep64_optimizer_hyperparameters_on_float64_and_half_variables(backend: Any) -> None:
    """Twenty-one optimizers and options with non-dyadic Python hyperparameters: three steps' variable bits in
    float64, float16, bfloat16 and float32."""
    _check(backend, "pk-optimizers-hyperparameters")


@pytest.mark.clause("keras.init.distributions")
def test_psweep64_schedules_regularizers_constraints_initializers(backend: Any) -> None:
    """LR schedules at int, int64 and float64 steps; L1/L2/L1L2/Orthogonal penalties alone and through a layer;
    MaxNorm/MinMaxNorm/NonNeg/UnitNorm; initializers' Python parameters (Orthogonal's gain weak, its QR in the
    dtype; bfloat16 refused): every dtype's bits."""
    _check(backend, "pk-schedules-regularizers-constraints-initializers")


@pytest.mark.clause("keras.ops.dtype-promotion")
def test_psweep64_keras_ops_python_scalars_either_side(backend: Any) -> None:
    """keras.ops binary functions, clip, where and full_like with a Python float or int on either side of a float or
    int32 tensor: the result's dtype and bits."""
    _check(backend, "pk-keras-ops-python-scalars")


@pytest.mark.clause("ops.conversion")
def test_psweep64_tf_ops_python_scalars(backend: Any) -> None:
    """tf ops and operators with Python floats (leaky_relu, clip_by_value, maximum, pow, dropout's rate, the
    normalizations' epsilons, tf.image adjust factors) on tensors of each dtype: dtype and bits or refusal."""
    _check(backend, "pk-tf-ops-python-scalars")


@pytest.mark.clause("keras.layer.noise")
def test_psweep64_training_noise_attention_renorm_ema(backend: Any) -> None:
    """Seeded dropout and noise layers in training, attention layers' scales, BatchNormalization with renorm and an
    optimizer's EMA, in each dtype policy: bits."""
    _check(backend, "pk-training-numbers")


@pytest.mark.clause("ops.conversion")
def test_psweep64_conversion_points(backend: Any) -> None:
    """Bucket boundaries (Discretization, digitize, Bucketize), fills and ranges with a dtype, keras.random's ranges,
    tf wrappers with Python options, histograms at their bin edges (float32: TF's kernel subtracts in double), tf
    variables' writes and metrics' thresholds: bits."""
    _check(backend, "pk-conversion-points")


@pytest.mark.clause("keras.mixed-precision.policy")
def test_psweep64_mixed_policies_schedules_and_float64_convolutions(backend: Any) -> None:
    """Layers with Python options under mixed_float16/mixed_bfloat16, optimizers driven by schedules on each dtype's
    variables, float64 convolutions with Python-number constraints after a step: bits."""
    _check(backend, "pk-mixed-and-scheduled")


if __name__ == "__main__":
    import sys
    if "--record" in sys.argv:
        REF.record()
