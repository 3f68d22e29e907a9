"""oneDNN's float32 backward-weights convolution of a 1x1 filter at stride 1 (clause ops.packet-paths, its paragraph
"oneDNN's float32 Conv2D"), as TF 2.21's x86-64 wheel runs it on an AVX-512 CPU (host_cpu: oneDNN on for float32).

The 1x1 kernel (oneDNN's jit_avx512_common_1x1_conv, backward weights, `init_conf`) reduces over each image's P
output pixels in blocks of `reduce_block` pixels: best_divider(P, 7, 16, find_max) (the largest divider in 7..16 of
least rounding loss), and where that does not divide P, best_divider(iw, 4, iw, smallest) of the input width (1 if
above 256). The images' blocks, in order, are split between the two threads (the two CPUs conv.py's other filter
gradient assumes; balance211: the first takes the first ceil(blocks / 2)), or, with more than 16 output channels
(more than one channel block of 16), the threads split the channel blocks and each takes every pixel block. A
thread sums each image's share of its blocks over the pixels in order with fused multiply-adds from +0 and adds
that image's partial to its own total; the two threads' totals are added. Observed on TF 2.21 on an Intel Xeon
(AVX-512, AVX512-FP16, AMX), fifty-fifth session (onednn55): every element of 73 seeded 1x1 filter gradients (1 to 5
images of 1x8 to 30x30 pixels, 1 to 9 input channels, 1 to 32 output channels, VALID and SAME) and of 20 held-out
ones (up to 6 images, up to 64 output channels), where one in-order sum (the model of the other filters) was off in
most elements whenever the blocks were split."""

from __future__ import annotations

from typing import Sequence

import numpy as np

from simdist.runtime.ops.contraction_order import ordered_matmul

__all__ = ["applies", "best_divider", "reduce_block", "filter_sums"]

_F = np.float32


def applies(filter_sizes: Sequence[int], strides: Sequence[int], padding: str,
            explicit_paddings: Sequence[int]) -> bool:
    """Whether a float32 filter gradient (oneDNN's, 1..9 input channels: the caller's conditions) is this kernel's:
    a 1x1 filter at stride 1, no explicit padding."""
    return (tuple(filter_sizes[:2]) == (1, 1) and all(int(s) == 1 for s in strides)
            and (padding != "EXPLICIT" or not any(explicit_paddings)))


def best_divider(value: int, lo: int, hi: int, find_max: bool) -> int:
    """oneDNN's best_divider: the divider in [lo, hi] (clamped to value) whose rounding loss
    (rnd_up(value, d) - value) / rnd_up(value, d), in float32, is least; ties to the largest (find_max) or smallest."""
    hi = max(1, min(hi, value))
    lo = max(1, min(lo, hi))
    best, best_loss = hi, np.float32(np.inf)
    for d in range(hi, lo - 1, -1):
        up = -(-value // d) * d
        loss = np.float32(up - value) / np.float32(up)
        if (find_max and loss < best_loss) or (not find_max and loss <= best_loss):
            best, best_loss = d, loss
    return best


def reduce_block(pixels: int, iw: int) -> int:
    """The kernel's reduce_block for `pixels` output pixels per image and input width iw."""
    block = best_divider(pixels, 7, 16, True)
    if pixels % block:
        block = best_divider(iw, 4, iw, False)
    return 1 if block > 256 else block


def filter_sums(cols: np.ndarray, dy2: np.ndarray, n: int, iw: int) -> np.ndarray:
    """The filter gradient [cin, cout] of `cols` [n·P, cin] (the images' pixels) and `dy2` [n·P, cout]."""
    pixels = cols.shape[0] // max(n, 1)
    block = reduce_block(pixels, iw)
    per = -(-pixels // block)
    blocks = [(i, b) for i in range(n) for b in range(per)]
    # (more than one block of 16 output channels: the two threads take the channel blocks, each the whole reduction)
    first = len(blocks) if dy2.shape[1] > 16 else -(-len(blocks) // 2)
    total = np.zeros((cols.shape[1], dy2.shape[1]), _F)
    for part in (blocks[:first], blocks[first:]):
        if not part:
            continue
        thread = None
        for img in sorted({i for i, _ in part}):
            bs = [b for i, b in part if i == img]
            lo, hi = img * pixels + bs[0] * block, img * pixels + min(pixels, (bs[-1] + 1) * block)
            partial = ordered_matmul(np.ascontiguousarray(cols[lo:hi].T), dy2[lo:hi])
            thread = partial if thread is None else (thread + partial).astype(_F)
        total = (total + thread).astype(_F)
    return total
