"""oneDNN's float32 batch normalization as TF 2.21's x86-64 wheel runs FusedBatchNormV3 and its backprop where
oneDNN is on (clause ops.fused-batch-norm, its paragraph "oneDNN"; host_cpu: an AVX-512 CPU with AVX512_VNNI or
AMX). Observed on TF 2.21 on an Intel Xeon (Sapphire Rapids class: AVX-512, AVX512-FP16, AMX, 2 CPUs), fifty-fifth
session: 280 calls of NHWC x [N, H, W, C] with C from 1 to 64 and N from 1 to 5, training and inference.

x is viewed as [N, SP, C] (SP = H·W). Two implementations, chosen by the dtype and the channel count:

- float32 x of C a multiple of 4 (the jit kernel, "jit"): the statistics' sums run in threads (the host's parallelism, 2),
  thread t taking images balance211(N, min(N, T)) and, where N < T, a balance211 share of the spatial rows;
  each thread adds its rows in order from zero, and the threads' sums are added in thread order. mean = sum / n
  (n = N·SP); var = (the same threads' sums of fma((x - mean), (x - mean), acc)) / n; y = fma((x - mean) ·
  (1 / sqrt(var + eps)), scale, offset). Backprop: offset_backprop = the threads' sums where each thread adds its
  images' own sums (each from zero, the image's rows in order) in order; in inference x_backprop = (dy · scale)
  · (1 / sqrt(var + eps)). Not found: scale_backprop's order (a few ulps off, cancellation) and so the training
  x_backprop, which uses it: computed as the other implementation does (docs/conformance.md, fifty-fifth session).
- Any other C, and bfloat16 x (oneDNN's C++ nspc kernel): threads take images (balance211 over N only), each adds its
  rows in order, the threads' sums in thread order; mean = sum / n, var = Σ (x - mean)² / n (products rounded),
  y = (scale / sqrt(var + eps)) · (x - mean) + offset, every step rounded. Backprop: offset_backprop = Σ dy and
  scale_backprop = Σ (x - mean)·dy · (1 / sqrt(var + eps)) in the same threads; x_backprop = (dy - (offset_bp / n
  + (x - mean) · scale_bp · inv / n)) · (scale · inv) in training, dy · (scale · inv) in inference. One channel
  (C = 1, where NHWC and NCHW are the same memory) is summed in one thread, all rows in order.

TF divides by n (the count converted to float32), not multiplying by its reciprocal, and returns the batch
variance times n / (n - 1) as fused_batch_norm.py does. bfloat16 x is computed by the C++ kernel in float32 and rounded once
(observed: kpaths54's bfloat16 batch-norm program, every case); so is float16 x's forward (bsweep60); float16 x's
backprop through oneDNN rounds otherwise (not found: the Eigen model stays, off in the last bits of some gradients).
"""

from __future__ import annotations

from typing import Callable

import numpy as np

from simdist.runtime import host_cpu
from simdist.runtime.ops.onednn_softmax import fma32

__all__ = ["applies", "jit", "statistics", "normalize", "backward"]

_F = np.float32
_DTYPES = ("float32", "bfloat16")
#: float16 x: the forward is the C++ nspc kernel's, computed in float32 and rounded once, as bfloat16's (observed:
#: bsweep60's b-fbn-float16-NHWC and b-fbn-values-float16, every case); its backprop rounds otherwise (not found: the
#: Eigen model kept, off in the last bits of some gradients)
_FORWARD_DTYPES = _DTYPES + ("float16",)


def applies(x: np.ndarray, data_format: str, onednn: bool, forward: bool = False) -> bool:
    """Whether oneDNN's kernel computes this call's values as modelled here: float32 or bfloat16 x (and float16 x in
    the forward) of 4 dimensions, NHWC, where the CPU runs the op through oneDNN (NCHW and 5-D x run other oneDNN
    layouts: not measured)."""
    return (onednn and x.dtype.name in (_FORWARD_DTYPES if forward else _DTYPES) and x.ndim == 4
            and data_format in ("NHWC", "NCHW") and x.size > 0)


def view(rows: np.ndarray, n_img: int, data_format: str, dtype_name: str) -> tuple[np.ndarray, bool]:
    """The [N, SP, C] view of the [rest, C] rows the kernel computes over, and whether the jit kernel runs. NCHW x
    runs oneDNN's C++ ncsp kernel: every channel's rows (image by image, spatial rows in order) summed in one pass,
    the C++ kernel's rounding (observed: bsweep60's b-fbn-*-NCHW, float32, bfloat16 and float16, 3 and 8 channels).
    An NCHW x of one spatial element is NHWC's memory, and runs as NHWC."""
    if data_format == "NCHW" and rows.shape[0] != n_img:
        return rows.reshape(1, -1, rows.shape[-1]), False
    return rows.reshape(n_img, -1, rows.shape[-1]), jit(dtype_name, rows.shape[-1])


def jit(dtype_name: str, c: int) -> bool:
    """Whether the jit kernel runs (float32 with a multiple of 4 channels) rather than the C++ one."""
    return dtype_name == "float32" and c % 4 == 0


def _balance211(n: int, nthr: int, ithr: int) -> tuple[int, int]:
    """oneDNN's balance211: thread ithr's [start, end) of n items over nthr threads."""
    if nthr <= 1:
        return 0, n
    n1 = (n + nthr - 1) // nthr
    n2 = n1 - 1
    t1 = n - n2 * nthr
    size = n1 if ithr < t1 else n2
    start = ithr * n1 if ithr <= t1 else t1 * n1 + (ithr - t1) * n2
    return start, start + size


def _threads(n_img: int, sp: int, c: int, jit: bool) -> list[list[tuple[int, slice]]]:
    """Each thread's work: a list of (image, spatial rows) in the order it adds them."""
    nthr = max(1, host_cpu.current().parallelism)
    if c == 1:
        return [[(i, slice(0, sp)) for i in range(n_img)]]
    if not jit:
        return [[(i, slice(0, sp)) for i in range(*_balance211(n_img, nthr, t))] for t in range(nthr)]
    n_thr = min(n_img, nthr)
    s_thr = max(1, nthr // n_thr)
    out = []
    for t in range(n_thr * s_thr):
        s0, s1 = _balance211(sp, s_thr, t % s_thr)
        out.append([(i, slice(s0, s1)) for i in range(*_balance211(n_img, n_thr, t // s_thr))])
    return out


def _sum(threads: list[list[tuple[int, slice]]], c: int, step: Callable[[np.ndarray, int, int], np.ndarray],
         per_image: bool = False) -> np.ndarray:
    """The threads' sums added in thread order; `step(acc, image, row)` adds one row to an accumulator. A thread
    adds its rows in order from zero, or (`per_image`) adds each image's own sum."""
    total = np.zeros(c, _F)
    for work in threads:
        acc = np.zeros(c, _F)
        for i, rows in work:
            part = np.zeros(c, _F) if per_image else acc
            for r in range(rows.start, rows.stop):
                part = step(part, i, r)
            acc = (acc + part).astype(_F) if per_image else part
        total = (total + acc).astype(_F)
    return total


def statistics(x3: np.ndarray, jit: bool) -> tuple[np.ndarray, np.ndarray]:
    """The batch mean and the biased batch variance of x3 [N, SP, C] (float32)."""
    n_img, sp, c = x3.shape
    th = _threads(n_img, sp, c, jit)
    n = _F(n_img * sp)
    with np.errstate(all="ignore"):
        mean = (_sum(th, c, lambda a, i, r: (a + x3[i, r]).astype(_F)) / n).astype(_F)
        cen = (x3 - mean).astype(_F)
        if jit:
            var = _sum(th, c, lambda a, i, r: fma32(cen[i, r], cen[i, r], a)) / n
        else:
            var = _sum(th, c, lambda a, i, r: (a + (cen[i, r] * cen[i, r]).astype(_F)).astype(_F)) / n
    return mean, var.astype(_F)


def normalize(x3: np.ndarray, mean: np.ndarray, var: np.ndarray, scale: np.ndarray, offset: np.ndarray,
              eps: np.float32, jit: bool) -> np.ndarray:
    """y (float32) of x3 [N, SP, C] from the statistics."""
    with np.errstate(all="ignore"):
        sq = np.sqrt((var + eps).astype(_F))
        cen = (x3 - mean).astype(_F)
        if jit:
            return fma32(cen * (_F(1) / sq), np.broadcast_to(scale, cen.shape), np.broadcast_to(offset, cen.shape))
        return ((scale / sq).astype(_F) * cen + offset).astype(_F)


def backward(x3: np.ndarray, g3: np.ndarray, mean: np.ndarray, var: np.ndarray, scale: np.ndarray,
             eps: np.float32, training: bool, jit: bool) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """x_backprop (float32, [N, SP, C]), scale_backprop and offset_backprop."""
    n_img, sp, c = x3.shape
    th = _threads(n_img, sp, c, jit)
    n = _F(n_img * sp)
    with np.errstate(all="ignore"):
        inv = (_F(1) / np.sqrt((var + eps).astype(_F))).astype(_F)
        cen = (x3 - mean).astype(_F)
        db = _sum(th, c, lambda a, i, r: (a + g3[i, r]).astype(_F), per_image=jit)
        terms = (cen * g3).astype(_F)
        dg = (_sum(th, c, lambda a, i, r: (a + terms[i, r]).astype(_F), per_image=jit) * inv).astype(_F)
        if training:
            dx = (g3 - (db / n + cen * dg * inv / n)) * (scale * inv)
        elif jit:
            dx = (g3 * scale) * inv
        else:
            dx = g3 * (scale * inv)
    return dx.astype(_F), dg, db
