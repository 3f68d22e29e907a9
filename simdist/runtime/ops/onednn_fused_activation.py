"""The activation of TF 2.21's oneDNN fused contraction: what `act(MatMul(a, b) + bias)` (and Conv2D's,
DepthwiseConv2dNative's) becomes inside a tf.function on a oneDNN CPU (clause function.onednn-fused-contraction;
the rewrite itself is grappler.py's `_contraction_fusion`).

Grappler's remapper (FindContractionWithBiasAndActivation, IsBiasSemanticAdd) makes of the three nodes one
_MklNativeFusedMatMul / _MklNativeFusedConv2D / _MklNativeFusedDepthwiseConv2dNative with fused_ops
[BiasAdd, <activation>]: the product and the bias are the unfused ops' bits (TF 2.21 observed: MatMul 64x16x33
and Conv2D 3x3, every pre-activation equal), the activation oneDNN's eltwise post-op on the float32 accumulator
(onednn_eltwise.py) instead of Eigen's kernel. Its gradient is the activation's, from its output (TanhGrad,
SigmoidGrad, EluGrad, ReluGrad and Relu6Grad read y: under a tape the fusion stays, TF 2.21 observed)."""

from __future__ import annotations

from typing import Any

from simdist.runtime.ops import dispatch, onednn_eltwise
from simdist.runtime.ops.nn_rules import typed
from simdist.runtime.ops.registry import RegisterGradient, unary

__all__ = ["FUSED", "RELU_ALPHA0"]


def _op(act: str, kernel: Any) -> Any:
    name = "_MklFusedActivation" + act
    return unary(name, kernel, typed(name, "float"))


# the activation op's name -> the op its fused post-op is (float32)
FUSED = {"Tanh": _op("Tanh", onednn_eltwise.tanh), "Sigmoid": _op("Sigmoid", onednn_eltwise.logistic),
         "Elu": _op("Elu", onednn_eltwise.elu), "Relu": _op("Relu", onednn_eltwise.relu),
         "Relu6": _op("Relu6", onednn_eltwise.relu6)}


# float16's fused Relu: the alpha-0 relu post-op (-0 for a negative x)
RELU_ALPHA0 = _op("ReluAlpha0", onednn_eltwise.relu_alpha0)


def _grad_of(act: str) -> Any:
    def grad(op: Any, dy: Any) -> list[Any]:
        from simdist.runtime.ops import activations
        y = op.outputs[0]
        if act == "Tanh":
            return [dispatch.execute(activations.TANH_GRAD, (y, dy))]
        if act == "Sigmoid":
            return [dispatch.execute(activations.SIGMOID_GRAD, (y, dy))]
        if act == "Elu":
            return [dispatch.execute(activations.ELU_GRAD, (dy, y))]
        if act in ("Relu", "ReluAlpha0"):
            return [dispatch.execute(activations.RELU_GRAD, (dy, y))]
        return [dispatch.execute(activations.RELU6_GRAD, (dy, y))]
    return grad


for _act in (*FUSED, "ReluAlpha0"):
    RegisterGradient("_MklFusedActivation" + _act)(_grad_of(_act))
