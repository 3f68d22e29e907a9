"""oneDNN's float32 backward-weights convolution of a 1x1 filter at stride 1 (clause ops.packet-paths, its paragraph
"oneDNN's float32 Conv2D"), as TF 2.21's x86-64 wheel runs it on an AVX-512 CPU (host_cpu: oneDNN on for float32).

The 1x1 kernel (oneDNN's jit_avx512_common_1x1_conv, backward weights, `init_conf`; the driver
jit_avx512_common_1x1_convolution.cpp) reduces over each image's P output pixels in blocks of `reduce_block` pixels:
best_divider(P, 7, 16, find_max) (the largest divider in 7..16 of least rounding loss), and where that does not divide
P, best_divider(iw, 4, iw, smallest) of the input width (1 if above 256). The images' blocks, in order, are shared
out by the kernel's `balance` (conv60: the least memory cost over splits of the blocks and of the 16-channel blocks of
output and input channels): split between the two threads (balance211: the first takes the first ceil(blocks / 2)),
or each thread takes every block of its channel blocks. A thread's kernel calls each take up to `reduce_steps` blocks
of one image (all it has left of the image when fewer than the second bound: in practice one call an image, two for
images above the L1 bound, 30x30 with 16 output channels); a call sums its pixels in order with fused
multiply-adds from +0 and adds that partial to the thread's total; the two threads' totals are added. Observed on
TF 2.21 on an Intel Xeon (AVX-512, AVX512-FP16, AMX), fifty-fifth session (onednn55): every element of 73 seeded 1x1
filter gradients (1 to 5 images of 1x8 to 30x30 pixels, 1 to 9 input channels, 1 to 32 output channels, VALID and
SAME) and of 20 held-out ones; sixtieth session (conv60): with the balance and the calls, every element of 33 more
(1 to 8 images up to 30x30, 3 to 64 input and 10 to 128 output channels; /work/wt/conv60_logs/probe_b1.py,
fit_b1.py), where onednn55's rule (channel blocks split whenever more than 16 output channels) was off in 4 and the
BLAS product (from 10 input channels) in most."""

from __future__ import annotations

from typing import Sequence

import numpy as np

from simdist.runtime.ops.contraction_order import ordered_matmul

__all__ = ["applies", "balance", "balance211", "best_divider", "reduce_block", "reduce_steps", "filter_sums"]

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


def filter_sums(cols: np.ndarray, dy2: np.ndarray, n: int, iw: int, ih: int = 1, threads: int = 2) -> np.ndarray:
    """The filter gradient [cin, cout] of `cols` [n·P, cin] (the images' pixels, P = ih·iw) and `dy2` [n·P, cout]:
    the images' pixel blocks shared out by `balance` (conv60), each thread's kernel calls (`calls`) summed from +0 and
    added in order, the threads' sums added."""
    pixels = cols.shape[0] // max(n, 1)
    ic, oc = cols.shape[1], dy2.shape[1]
    block = reduce_block(pixels, iw)
    per = -(-pixels // block)
    nmb = balance(n, per, block, ic, oc, threads)
    step, step_max = reduce_steps(pixels, block, ih, iw, ic, oc)
    work = n * per
    total = np.zeros((ic, oc), _F)
    for t in range(nmb):
        lo_b, hi_b = balance211(work, nmb, t)
        thread = None
        pos = lo_b
        while pos < hi_b:
            img, b = divmod(pos, per)
            remaining = min(per - b, hi_b - pos)
            take = remaining if remaining < step_max else step
            lo, hi = img * pixels + b * block, img * pixels + min(pixels, (b + take) * block)
            partial = ordered_matmul(np.ascontiguousarray(cols[lo:hi].T), dy2[lo:hi])
            thread = partial if thread is None else (thread + partial).astype(_F)
            pos += take
        if thread is not None:
            total = (total + thread).astype(_F)
    return total


def balance211(work: int, team: int, tid: int) -> tuple[int, int]:
    """oneDNN's balance211: thread `tid`'s [start, end) of `work` items over `team` threads (the first take one more)."""
    if team <= 1:
        return 0, work
    n1 = -(-work // team)
    n2 = n1 - 1
    t1 = work - n2 * team
    start = tid * n1 if tid < t1 else t1 * n1 + (tid - t1) * n2
    return start, start + (n1 if tid < t1 else n2)


def balance(mb: int, nb_reduce: int, block: int, ic: int, oc: int, threads: int) -> int:
    """The 1x1 kernel's `balance` (backward weights, one group): how many threads share the images' pixel blocks
    (nthr_mb), the rest going to the blocks of 16 output/input channels; the least memory cost (ties to the later)."""
    nb_bcast, nb_load = -(-ic // 16), -(-oc // 16)

    def cdiv(a: int, b: int) -> int:
        return -(-a // b)

    def mem(nmb: int, noc: int, nic: int) -> int:
        return (cdiv(mb * nb_reduce, nmb) * cdiv(nb_bcast, nic) * 16 * block
                + cdiv(mb * nb_reduce, nmb) * cdiv(nb_load, noc) * 16 * block
                + 12 * cdiv(nb_load, noc) * cdiv(nb_bcast, nic) * 256)
    best, best_mem = 1, mem(1, 1, 1)
    for nmb in range(1, min(threads, mb * nb_reduce) + 1):
        par = threads // nmb
        for noc in range(1, min(par, nb_load) + 1):
            cost = mem(nmb, noc, min(par // noc, nb_bcast))
            if cost <= best_mem:
                best, best_mem = nmb, cost
    if threads / 2 < best < threads:
        best = min(mb, threads)
    return best


#: the L1 data cache of one core in 4-byte floats, as oneDNN reads it (platform::get_per_core_cache_size(1)): the
#: Xeon measured has 48 KiB
_L1_FLOATS = 48 * 1024 // 4


def reduce_steps(pixels: int, block: int, ih: int, iw: int, ic: int, oc: int) -> tuple[int, int]:
    """(nb_reduce_blocking, nb_reduce_blocking_max): the blocks one kernel call sums (the call takes all a thread has
    left of an image when that is fewer than the second), from `init_conf`'s reduce_blocking (nxc)."""
    ur = 8 if block <= 19 and oc > 16 else 16
    if pixels >= 28 * 28 and oc >= 128:
        blocking = -(-min(iw, 256) // block) * block
    else:
        blocking = best_divider(pixels, min(_L1_FLOATS // ur, max(iw, ih)), min(_L1_FLOATS // ur, pixels), True)
        blocking = max(blocking // block * block, block)
    blocking_max = blocking * 3 // 2 // block * block
    step, step_max = -(-blocking // block), -(-blocking_max // block)
    if ic * 4 % 1024 == 0:   # (cache aliasing: at most 4 blocks a call)
        step = step_max = min(4, step)
    return step, step_max
