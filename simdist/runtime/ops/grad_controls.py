"""Which gradient functions make their upstream gradient drive a control dependency (clause
function.grappler-rewrites).

TF 2.21's gradient functions of many elementwise ops run `with ops.control_dependencies([grad]):` (math_grad.py).
An op made inside that block whose inputs were all made outside it (and are not `grad` itself) gets the control
input `^grad`: Erfc's gradient builds Square(x) there, Sin's Cos(x), Square's the Const 2. The node that computed
`grad` then drives a control dependency, and Grappler's MinimizeBroadcasts and AddOpsRewrite do not absorb it into
their groups (arithmetic_optimizer.cc IsAbsorbableByOptimizedNodesGroup), which changes the order a traced product
or sum is computed in: inside a tf.function, float16 gelu's gradient multiplies the constants first, `(c * c') *
(e * (m * u))`, because the upstream product `m * u` stays a leaf.

The lists were measured on TF 2.21 (GradientTape inside a tf.function, each op's gradient given a Mul as its
upstream; /work/wt/lead59_logs/p_ctrl2.py, p_ctrl3.py): the ops whose gradient gives that Mul a control output. For
complex inputs `math_ops.conj` is an op too, so Exp, Tanh and Sigmoid join.
"""

from __future__ import annotations

from typing import Any

__all__ = ["drives_control"]

_ALWAYS = frozenset((
    "Square", "Expm1", "Log", "Log1p", "Sinh", "Cosh", "Asinh", "Acosh", "Atanh", "Erf", "Erfc", "Erfinv", "Ndtri",
    "Lgamma", "Digamma", "Sin", "Cos", "Tan", "Asin", "Acos", "Atan", "Atan2", "Xlogy", "Xlog1py", "Xdivy",
    "SquaredDifference", "Igamma", "Igammac", "Zeta", "Polygamma", "NextAfter", "BesselI0e", "BesselI1e", "Dawsn",
    "Expint", "FresnelCos", "FresnelSin", "Spence", "BesselI0", "BesselI1", "BesselK0", "BesselK0e", "BesselK1",
    "BesselK1e", "BesselJ0", "BesselJ1", "BesselY0", "BesselY1", "TanhGrad", "SigmoidGrad", "SqrtGrad", "RsqrtGrad",
    "ReciprocalGrad", "InvGrad"))
_COMPLEX = frozenset(("Exp", "Tanh", "Sigmoid"))


def drives_control(op_type: str, dtype: Any) -> bool:
    """Whether the gradient of an op of `op_type` on inputs of `dtype` makes its upstream gradient drive a control
    dependency in a tf.function's graph."""
    return op_type in _ALWAYS or (op_type in _COMPLEX and getattr(dtype, "is_complex", False))
