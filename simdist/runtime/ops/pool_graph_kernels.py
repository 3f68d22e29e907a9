"""The pooling gradient kernels a tf.function's graph runs where eager execution runs others (clause
function.pool-graph-kernels).

TF 2.21 on a CPU where oneDNN runs the dtype (float32; bfloat16 on AVX-512): eagerly, AvgPoolGrad and
AvgPool3DGrad are oneDNN's kernels and MaxPool3DGrad is TF's own (Pooling3DOp's near-ties rule). In a
tf.function two things differ, observed on TF 2.21 (/work/wt/pool58_logs, test_pool58_grads_tf.py):

- Grappler's constant folding evaluates a node whose inputs are all constants with TF's own CPU kernel (the
  oneDNN layout pass runs after Grappler, on what is left): an AvgPoolGrad or AvgPool3DGrad of a constant
  upstream gradient (a `tape.gradient(..., output_gradients=c)` of a statically shaped pool; orig_input_shape
  is folded from the static shape) is AvgPoolingGradOp's / AvgPooling3dGradOp's loop, not oneDNN's order.
  Off with constant_folding off or disable_meta_optimizer.
- oneDNN's layout pass (mkl_layout_pass.cc, not a Grappler optimizer: no option turns it off) rewrites a
  MaxPool3DGrad that does not fold to _MklNativeMaxPool3DGrad, which routes each window's gradient to the
  window's first maximum (planes, rows, columns in order), where TF's own kernel gives every element within
  1e-5 of it.

The graph rules (simdist.runtime.ops.grappler) run these ops in place of the eager ones while a call is
recorded; eager ops never meet them.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from simdist.runtime.ops import pooling, pooling3d
from simdist.runtime.ops.conv3d import scatter_windows3d
from simdist.runtime.ops.nn_rules import FLOATS, typed
from simdist.runtime.ops.registry import RegisterGradient, lanes, register, rows

__all__ = ["FOLDED_AVG_POOL_GRAD", "FOLDED_AVG_POOL3D_GRAD", "ONEDNN_MAX_POOL3D_GRAD"]

#: the dtypes oneDNN's pooling gradients are registered for (where host_cpu.onednn_supports them)
ONEDNN_DTYPES = ("float32", "bfloat16")


def _folded_avg_pool_grad(g: np.ndarray, orig_input_shape: tuple, ksize: tuple, strides: tuple,
                          padding: str) -> np.ndarray:
    """AvgPoolingGradOp<CPUDevice> (TF's own kernel), as constant folding evaluates it."""
    _, pads = pooling._geometry(orig_input_shape, ksize, strides, padding, (), "AvgPoolGrad")
    return pooling._avg_pool_grad_loop(g, orig_input_shape, ksize, strides, pads)


def _folded_avg_pool3d_grad(g: np.ndarray, orig_input_shape: tuple, ksize: tuple, strides: tuple,
                            padding: str) -> np.ndarray:
    """LaunchAvgPooling3dGradOp<CPUDevice> (TF's own kernel), as constant folding evaluates it."""
    _, pads = pooling3d._geometry(orig_input_shape, ksize, strides, padding, "AvgPool3DGrad")
    return pooling3d._avg_pool3d_grad_loop(g, orig_input_shape, ksize, strides, pads)


def _onednn_max_pool3d_grad(x: np.ndarray, y: np.ndarray, g: np.ndarray, ksize: tuple, strides: tuple,
                            padding: str) -> np.ndarray:
    """_MklNativeMaxPool3DGrad: each window's gradient to its first element (planes, rows, columns, row-major)
    equal to the window's maximum, none where no element equals it (a window of NaN only: not observed)."""
    mask, pads, _ = pooling3d._equal_to_max(x, y, ksize, strides, padding, "MaxPool3DGrad")
    first = np.argmax(mask, axis=4)[:, :, :, :, None, :]
    pick = (np.arange(mask.shape[4])[None, None, None, None, :, None] == first) & mask.any(axis=4, keepdims=True)
    gw = g.astype(np.float32) if g.dtype.itemsize == 2 else g
    dwin = np.where(pick, gw[:, :, :, :, None, :], gw.dtype.type(0))
    n, od, oh, ow, _, c = dwin.shape
    out = scatter_windows3d(dwin.reshape(n, od, oh, ow, ksize[1], ksize[2], ksize[3], c), x.shape, pads,
                            strides[1:4], (1, 1, 1))
    return out.astype(g.dtype)


FOLDED_AVG_POOL_GRAD = register(
    "_FoldedAvgPoolGrad", _folded_avg_pool_grad, typed("AvgPoolGrad", FLOATS), pooling._grad_window_flops,
    kind="window", fusion=lanes("a folded constant: no stacked form written"))
FOLDED_AVG_POOL3D_GRAD = register(
    "_FoldedAvgPool3DGrad", _folded_avg_pool3d_grad, typed("AvgPool3DGrad", "half, bfloat16, float, double"),
    pooling3d._grad_window_flops, kind="window", fusion=lanes("a folded constant: no stacked form written"))
ONEDNN_MAX_POOL3D_GRAD = register(
    "_MklNativeMaxPool3DGrad", _onednn_max_pool3d_grad, typed("MaxPool3DGrad", "bfloat16, float"),
    pooling3d._grad_window_flops, kind="window", fusion=rows(0, 1, 2))


# (a gradient taken through one of these is the gradient of the op it stands for: TF differentiates the graph as
# written, before Grappler folds or rewrites it)
RegisterGradient("_FoldedAvgPoolGrad")(pooling._avg_pool_grad_grad_fn)
RegisterGradient("_FoldedAvgPool3DGrad")(pooling3d._avg_pool3d_grad_grad_fn)
RegisterGradient("_MklNativeMaxPool3DGrad")(pooling3d._max_pool3d_grad_grad_fn)


def folded_avg_rule(folded: Any) -> Any:
    """Grappler's constant folding of an AvgPoolGrad/AvgPool3DGrad whose gradient is a constant (its
    orig_input_shape is an attribute here): the folded op, TF's own kernel, where oneDNN would run it."""
    from simdist.runtime import host_cpu
    from simdist.runtime.ops import dispatch

    def rule(rec: Any, tensors: Any, attrs: Any) -> Any:
        g = tensors[0]
        if not host_cpu.current().onednn(g.dtype.name, ONEDNN_DTYPES):
            return None
        if not all(rec.is_constant(t) and not rec.is_capture(t) for t in tensors):
            return None
        return dispatch.execute(folded, tuple(tensors), dict(attrs))
    rule.__name__ = f"folded_{folded.name}"
    return rule


def onednn_max_pool3d_rule(rec: Any, tensors: Any, attrs: Any) -> Any:
    """oneDNN's layout pass: a MaxPool3DGrad that does not fold runs as _MklNativeMaxPool3DGrad."""
    from simdist.runtime import host_cpu
    from simdist.runtime.ops import dispatch
    if not host_cpu.current().onednn(tensors[0].dtype.name, ONEDNN_DTYPES):
        return None
    return dispatch.execute(ONEDNN_MAX_POOL3D_GRAD, tuple(tensors), dict(attrs))
