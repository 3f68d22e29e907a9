"""_MklSwish: the op TF 2.21's Grappler remapper makes of `x * sigmoid(x)` inside a tf.function on a oneDNN CPU
(clause function.onednn-swish; the rewrite itself is grappler.py's `_swish_fusion`).

remapper.cc FindSigmoidAndMul replaces Mul(x, Sigmoid(x)) (either operand order) whose Sigmoid has no other
consumer by one `_MklSwish(x)`, oneDNN's eltwise swish (alpha 1) in float32 whatever the tensor's dtype:

- logistic(s): the injector makes s negative (-|s|), takes its exp (onednn_softmax.exp, the eltwise injector's),
  y = e / (e + 1), and gives 1 - y where s was positive (its sign bit clear);
- swish = logistic(x) * x (a NaN x: the negative default NaN), each step flushed to zero (FTZ, inputs read under DAZ), rounded once to the dtype
  (bfloat16, float16);
- a 0-d tensor takes the kernel's Compute_Scalar instead, x / (1 + exp(-x)) in the dtype (`_scalar`): TF 2.21's
  `tf.function(tf.nn.silu)(tf.constant(-3.75))` is 0xbdb07758, of a [1] tensor 0xbdb0775a (fz56, seed 55109 #1).

Matched bit for bit against TF 2.21 on the Xeon host (fz55: 3,009 values of float32, bfloat16 and float16; fz56:
zeros, subnormals, infinities, NaN, the exp's clamps; tests/ops/test_fz56_swish_tf.py). Its gradient is the
gradient of the graph as written, `dy * s + SigmoidGrad(s, dy * x)` (only a tape replaying a rewritten recording
asks: TF differentiates the graph before Grappler rewrites it)."""

from __future__ import annotations

from typing import Any

import numpy as np

from simdist.runtime.ops import dispatch, onednn_softmax
from simdist.runtime.ops.nn_rules import typed
from simdist.runtime.ops.registry import RegisterGradient, unary

__all__ = ["MKL_SWISH", "swish"]

_F32 = np.float32
_ftz = onednn_softmax._ftz


def _logistic(s: np.ndarray) -> np.ndarray:
    """oneDNN's eltwise logistic of float32 s (already read under DAZ)."""
    neg = np.signbit(s)
    with np.errstate(invalid="ignore", over="ignore"):
        e = onednn_softmax.exp(-np.abs(s))
        y = _ftz(e / _ftz(e + _F32(1)))
        return np.where(neg, y, _ftz(_F32(1) - y))


def _scalar(a: np.ndarray) -> np.ndarray:
    """MklSwishOp::Compute_Scalar, a 0-d input's path (no oneDNN): x / (1 + exp(-x)) in the dtype T, Eigen's
    numext::exp (the C library's expf of the value widened to float, rounded to T) and each operation rounded to T.
    The exp is taken correctly rounded (float64's, rounded once): glibc's expf agrees but for rare last bits."""
    import math
    dt = np.asarray(a).dtype
    x = _ftz(np.asarray(a).astype(_F32))
    f = float(x)
    try:
        e = math.exp(-f)
    except OverflowError:
        e = math.inf
    with np.errstate(invalid="ignore", over="ignore", divide="ignore"):
        e1 = _ftz(np.asarray(np.float64(e)).astype(_F32).astype(dt).astype(_F32))
        den = _ftz((_F32(1) + e1).astype(_F32).astype(dt).astype(_F32))
        out = _ftz((x / den).astype(_F32)).astype(dt)
    return np.asarray(out, dt).reshape(())


def swish(a: np.ndarray) -> np.ndarray:
    """_MklSwish's kernel: float32, bfloat16 or float16 in, the same dtype out (a 0-d input: `_scalar`)."""
    if np.ndim(a) == 0:
        return _scalar(a)
    x = _ftz(np.asarray(a).astype(_F32))
    with np.errstate(invalid="ignore", over="ignore"):
        out = _ftz(_logistic(x) * x)
    # (a NaN x: the injector's exp makes the default NaN of an invalid operation, which the product keeps as its
    # first operand: 0xffc00000 whatever x's sign and payload; TF 2.21, bsweep65)
    out = np.where(np.isnan(x), -_F32(np.nan), out)
    return out.astype(np.asarray(a).dtype)


MKL_SWISH = unary("_MklSwish", swish, typed("_MklSwish", "bfloat16, half, float"))


def _unfused(inputs: Any, attrs: Any) -> Any:
    """The graph as written, Mul(x, Sigmoid(x)): what a recorded call replayed under a gradient tape computes
    (OpDef.taped_form). Under a tape TF's forward function returns the Sigmoid for the backward, so the Sigmoid
    has another consumer and nothing is fused (TF 2.21 observed: `x * sigmoid(x)` in a tf.function called under a
    tape gives Eigen's values, untaped oneDNN's)."""
    from simdist.runtime.ops import activations, math
    (x,) = inputs
    return dispatch.execute(math.MUL, (x, dispatch.execute(activations.SIGMOID, (x,))))


MKL_SWISH.taped_form = _unfused


@RegisterGradient("_MklSwish")
def _swish_grad(op: Any, grad: Any) -> list[Any]:
    """Mul(x, Sigmoid(x))'s gradient: Mul's term dy * s and Sigmoid's SigmoidGrad(s, dy * x), summed (two terms:
    their order cannot change the sum)."""
    from simdist.runtime.ops import activations, math
    x = op.inputs[0]
    s = dispatch.execute(activations.SIGMOID, (x,))
    through_mul = dispatch.execute(math.MUL, (grad, s))
    through_sigmoid = dispatch.execute(activations.SIGMOID_GRAD, (s, dispatch.execute(math.MUL, (grad, x))))
    return [dispatch.execute(math.ADD, (through_mul, through_sigmoid))]
