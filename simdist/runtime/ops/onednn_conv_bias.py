"""The bias gradient of oneDNN's fused backward-weights convolution (clause function.onednn-fused-contraction; conv60).

Inside a tf.function on a CPU where oneDNN runs float32, TF's oneDNN layout pass merges a Conv2DBackpropFilter and a
BiasAddGrad of the same out_backprop (a Keras Conv2D's kernel and bias gradients) into one
_MklConv2DBackpropFilterWithBias (mkl_layout_pass.cc's Conv2DBackpropFilter + BiasAddGrad merge), whose bias output
is oneDNN's (jit_avx512_common_convolution.cpp `compute_diff_bias`, cpu_reducer's balancer): the bias's blocks of 16
channels are the jobs; with fewer blocks than threads the threads of a block split the images (balance211: the first
ceil(N / threads) to the first), each adding its images' out_backprop pixels in order with float32 adds from +0,
and the threads' sums are added in thread order; with as many blocks as threads or more, each block is one thread's
in-order sum over every pixel. Eagerly the ops stay apart (BiasAddGrad's own sum: nn.py). Observed on TF 2.21 on an
Intel Xeon (AVX-512, AVX512-FP16, AMX), sixtieth session: 12 of 12 traced Keras Conv2D bias gradients (1 to 32 images,
1 to 32 input and 8 to 32 output channels; /work/wt/conv60_logs/bias_probe2.py, fit_bias.py), where the unfused sum
was off in every one of the nine with at most 16 output channels; tests/ops/test_conv60_bias_fusion_tf.py.

`_OneDnnConvBiasGrad` is simdist's name for that output: the remapper phase (grappler.py `_conv_bias_grad_fusion`)
makes it in place of such a BiasAddGrad; no tf API or raw op reaches it."""

from __future__ import annotations

from typing import Any

import numpy as np

from simdist.runtime.ops import dispatch
from simdist.runtime.ops.nn_rules import typed
from simdist.runtime.ops.registry import RegisterGradient, register

__all__ = ["CONV_BIAS_GRAD", "bias_sums"]

_F = np.float32


def bias_sums(dy: np.ndarray, threads: int) -> np.ndarray:
    """The bias gradient [C] of a float32 NHWC out_backprop `dy` [N, OH, OW, C] as oneDNN's reducer sums it."""
    n, c = int(dy.shape[0]), int(dy.shape[-1])
    blocks = -(-c // 16)
    teams = max(1, threads // blocks) if blocks < threads else 1
    teams = min(teams, max(n, 1))
    rows = dy.reshape(n, -1, c)
    total = None
    n1 = -(-n // teams) if teams else n
    start = 0
    for t in range(teams):
        # (balance211: the first n - (n1 - 1)·teams threads take n1 images, the rest n1 - 1)
        size = n1 if t < n - (n1 - 1) * teams else n1 - 1
        part = rows[start:start + size].reshape(-1, c)
        start += size
        # (an in-order float32 sum from +0: NumPy's reduce over the outer axis of a C-contiguous [P, C] array adds
        # the rows one by one)
        s = np.add.reduce(np.ascontiguousarray(part), axis=0, dtype=_F) if part.shape[0] else np.zeros(c, _F)
        s = (np.zeros(c, _F) + s).astype(_F)
        total = s if total is None else (total + s).astype(_F)
    return total if total is not None else np.zeros(c, _F)


def _forward(dy: np.ndarray) -> np.ndarray:
    from simdist.runtime import host_cpu
    return bias_sums(np.asarray(dy, _F), host_cpu.current().parallelism)


CONV_BIAS_GRAD = register("_OneDnnConvBiasGrad", _forward, typed("_OneDnnConvBiasGrad", "float"),
                          lambda arrays, out, attrs: float(arrays[0].size), kind="reduction")


def _unfused(inputs: Any, attrs: Any) -> Any:
    """BiasAddGrad as written: what a recorded call replayed under a gradient tape computes (OpDef.taped_form)."""
    from simdist.runtime.ops import nn
    (dy,) = inputs
    return dispatch.execute(nn.BIAS_ADD_GRAD, (dy,), {"data_format": "NHWC"})


CONV_BIAS_GRAD.taped_form = _unfused


@RegisterGradient("_OneDnnConvBiasGrad")
def _conv_bias_grad_grad(op: Any, grad: Any) -> list:
    """BiasAddGrad's gradient (TF's _BiasAddGradGrad): the bias gradient tiled back over the NHWC input's shape."""
    from simdist.runtime.ops import array
    shape = op.inputs[0].shape.as_list()
    expanded = array.reshape(grad, [1] * (len(shape) - 1) + [shape[-1]])
    return [array.broadcast_to(expanded, shape)]
