"""The gradient of `strategy.reduce(op, value, axis)` on a one-replica strategy (clause autodiff.strategy-run).

TF 2.21's StrategyBase.reduce with an axis runs a tf.function of reduce_sum (MEAN: mean_reduce_helper, the sum divided
by the cast count of the reduced dimensions) through `run` on each replica. On the default strategy and
OneDeviceStrategy that call runs on the caller's thread, so a GradientTape around `reduce` records it and differentiates
it: the upstream gradient (a MEAN's divided by the count) broadcast back over the reduced axes. MirroredStrategy's
replicas run on threads of their own, which a tape outside does not see (None there, as in simdist). simdist computes
the reduction's values by its reduce rules (simdist/semantics/reduce.py) and records that gradient beside them.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from simdist.runtime import execution
from simdist.runtime.tensor import Tensor
from simdist.semantics.reduce import ReduceOp


def record(op: ReduceOp, source: Tensor, out: Tensor, axis: Any) -> None:
    """Record `out` = reduce(op, source, axis) on the tapes that watch `source` (a one-replica strategy's only
    component): its gradient is the upstream's, divided by the count for MEAN, broadcast to source's shape."""
    if not execution.current().tapes or not source.dtype.is_floating and not source.dtype.is_complex:
        return
    from simdist.runtime.autodiff.tape import record_operation
    from simdist.runtime.ops import array, math
    rank = source.ndim
    axes = sorted({int(a) % rank for a in np.atleast_1d(np.asarray(axis))}) if rank else []
    count = int(np.prod([source.shape[a] for a in axes])) if axes else 1

    def backward(g: Any) -> list[Any]:
        if op is ReduceOp.MEAN:   # (_RealDivGrad of the sum over the count: grad / count)
            g = math.truediv(g, math.cast(array.constant(count, "int64"), g.dtype))
        kept = [1 if i in axes else int(d) for i, d in enumerate(source.shape)]   # (_SumGrad: back to keepdims, tiled)
        return [array.broadcast_to(array.reshape(g, kept), array.shape(source))]
    record_operation("Sum" if op is ReduceOp.SUM else "Mean", [out], [source], backward)
