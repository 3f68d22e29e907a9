"""The op-path sweep (fifty-fourth session): every computation path of TF 2.21's CPU kernels that a Keras fit's
ops run, crossed for each op family alike, forward value and gradient compared with TF's recorded bits.

The cases are kpaths54_cases.py's (sizes across packets, tails, accumulator blocks and the sum's leaf split;
float16, bfloat16, float32, float64; same-shape, scalar and broadcast operands; every reduction axis case; rows
offset by up to 70; 0, -0, subnormal, huge and tied values; a non-uniform upstream gradient). Expected results
are TF 2.21's, observed by running the same programs on TF (`python -m simdist.conformance.suite.test_kpaths54
--record` rewrites kpaths54_reference.json.gz). Floats compare by their bits: the bugs this sweep is for are an
ulp from another rounding, summation order or packet/tail split. Every program's bits follow the CPU's kernels
(clause ops.host-cpu), so they run on a CPU such as the recording host's (AVX2 without AVX-512, oneDNN off)."""

from __future__ import annotations

from typing import Any

import pytest

from simdist.conformance.suite.kpaths54_cases import REF, TRAIN, UNARY

_check, _ids = REF.check, REF.ids


@pytest.mark.clause("ops.packet-paths")
@pytest.mark.parametrize("name", _ids("k-unary-") + _ids("k-cunary-"))
def test_kpaths54_unary_values_and_gradients(backend: Any, name: str) -> None:
    """An elementwise op (of UNARY) and its gradient over 16 sizes from 1 to 2,051 (packets and the scalar tail),
    with 0, -0, subnormal, huge and negative values; the complex ones (COMPLEX_UNARY) in complex64 and complex128
    over 10 sizes from 1 to 16: TF 2.21's bits."""
    _check(backend, name)


@pytest.mark.clause("autodiff.op-gradients")
@pytest.mark.parametrize("name", _ids("k-grad2-"))
def test_kpaths54_second_order_gradients(backend: Any, name: str) -> None:
    """The gradient of each activation's gradient op (SquareGrad's Mul, SqrtGrad, RsqrtGrad, TanhGrad, SigmoidGrad,
    SoftplusGrad, SoftsignGrad, ReluGrad, Relu6Grad, EluGrad, SeluGrad, LeakyReluGrad, ReciprocalGrad...) in its
    features and in its upstream gradient, at 7, 9 and 17 elements: TF 2.21's bits."""
    _check(backend, name)


@pytest.mark.clause("ops.eigen-kernels")
@pytest.mark.parametrize("name", _ids("k-binary-"))
def test_kpaths54_binary_values_and_gradients(backend: Any, name: str) -> None:
    """Add/Sub/Mul/RealDiv/Maximum/Minimum/SquaredDifference of same-shape operands (21 sizes, ties), a scalar, row,
    column and outer broadcasts, and both gradients (the broadcast axes reduced): TF 2.21's bits."""
    _check(backend, name)


@pytest.mark.clause("ops.eigen-kernels")
@pytest.mark.parametrize("name", _ids("k-reduce-"))
def test_kpaths54_reductions_every_axis_case(backend: Any, name: str) -> None:
    """Sum/Mean/Max/Min/Prod of vectors of 1 to 8,193 elements (the leaf split) and of 2-D and 3-D tensors over
    every axis case, keepdims both ways, with their gradients (ties shared by Max/Min): TF 2.21's bits."""
    _check(backend, name)


@pytest.mark.clause("nn.softmax-eigen")
@pytest.mark.parametrize("name", _ids("k-softmax-") + _ids("k-xent-"))
def test_kpaths54_softmax_family(backend: Any, name: str) -> None:
    """Softmax, LogSoftmax (last axis and axis 0), SoftmaxCrossEntropyWithLogits and its sparse form over 1 to 17
    rows of 1 to 129 classes, rows offset by up to 70, with gradients: TF 2.21's bits."""
    _check(backend, name)


@pytest.mark.clause("autodiff.op-gradients")
@pytest.mark.parametrize("name", _ids("k-matmul-") + _ids("k-biasadd-") + _ids("k-conv2d-") + _ids("k-batchnorm-")
                         + _ids("k-cast-") + _ids("k-array-"))
def test_kpaths54_layer_ops_and_gradients(backend: Any, name: str) -> None:
    """MatMul/BatchMatMul (transposes, batch broadcast), BiasAdd, Conv2D (strides, padding, dilation), FusedBatchNormV3 (training and inference), Cast between the float types and to
    integers, and the gradients of concat, split, split_v, gather (repeated indices), stack, unstack and tile:
    TF 2.21's bits."""
    _check(backend, name)


@pytest.mark.clause("nn.max-pool-nan")
@pytest.mark.parametrize("name", _ids("k-pool-"))
def test_kpaths54_pooling(backend: Any, name: str) -> None:
    """AvgPool and MaxPool over five window/stride/padding shapes (SAME borders, overlapping windows) with ties in
    the windows, forward and gradient: the first of tied maxima, the routed gradients summed in output order, the
    window sums in the type: TF 2.21's bits."""
    _check(backend, name)


@pytest.mark.clause("ops.training-kernels")
@pytest.mark.parametrize("name", _ids("k-train-"))
def test_kpaths54_raw_training_kernels(backend: Any, name: str) -> None:
    """Two steps of each raw ResourceApply* kernel (TRAIN) on 1 to 129 elements in float16, float32 and float64:
    the variable and every slot bit for bit."""
    _check(backend, name)


assert len(UNARY) * 4 == len(_ids("k-unary-")) and len(TRAIN) * 3 == len(_ids("k-train-"))

if __name__ == "__main__":
    import sys
    if "--record" in sys.argv:
        REF.record()
