"""oneDNN's float32 backward-weights convolution (Conv2DBackpropFilter, so the kernel gradient of every Keras
Conv1D/Conv2D in float32; clause ops.packet-paths, its paragraph "oneDNN's float32 Conv2D", "Sixtieth session, conv60"),
as TF 2.21's x86-64 wheel runs it on an AVX-512 CPU (host_cpu: oneDNN on for float32), a filter other than 1x1.

TF hands oneDNN NHWC data, so the kernel is jit_avx512_common_conv_bwd_weights_kernel_f32 with the nxc layout
(oneDNN's jit_avx512_common_conv_kernel.cpp, `init_conf`, `balance`, `compute_ic_block_step_fma_expl`):

- Threads (`balance`): the images (nthr_mb), the blocks of 16 output channels (nthr_oc_b) and of input channels
  (nthr_ic_b: blocks of 16, or one block of all where C_in < 16) are shared out by oneDNN's cost model over the
  threads (the host's parallelism: 2). Where the images are split (balance211: the first ceil(N / 2) to the first
  thread) each thread sums its own images into a zeroed buffer and the buffers are added in thread order; where the
  channel blocks are split each thread takes every image.
- With 16 or more input channels at column stride 1 (the explicit-broadcast kernel), a thread's sum runs over its
  images and their output rows in order, each row cut into chunks of output columns (the whole row up to 28 columns;
  wider rows `row_chunks`); each chunk's products are summed in order with fused multiply-adds from zero in registers
  and that partial is then added to the thread's buffer.
- Fewer than 16 input channels (oneDNN's "first convolution"), or a column stride above 1 (the embedded-broadcast
  kernel): the thread's buffer accumulates every product of its images in order (image, row, column) with fused
  multiply-adds, one sum.

Observed on TF 2.21 on an Intel Xeon (AVX-512, AVX512-FP16, AMX), sixtieth session (conv60): every element of 92
seeded Conv2DBackpropFilter calls (1 to 32 images, 1x9 to 28x28 and rows up to 60 wide, 1x3 to 7x7 filters, 1 to
128 input and 3 to 128 output channels, VALID and SAME, strides 1, 2, (2, 1) and (1, 2)) on 2 threads, and of 60 of
them again with TF's intra-op threads set to 1 (every split then one thread); NumPy's BLAS product (the model before)
was off in the last bits in most (/work/wt/conv60_logs: probe_bf*.py, model2.py, balance.py;
tests/ops/test_conv60_backprop_filter_tf.py). Not measured: dilation, explicit padding, groups (left to BLAS)."""

from __future__ import annotations

from typing import Sequence

import numpy as np

from simdist.runtime.ops.contraction_order import ordered_matmul

__all__ = ["applies", "balance", "row_chunks", "filter_sums"]

_F = np.float32
_MAX_UR_W = 28   # (the kernel's max_ur_w)


def _cdiv(a: int, b: int) -> int:
    return -(-a // b)


def _pads(size: int, out: int, k: int, stride: int, before: int) -> int:
    """oneDNN's end padding (calculate_end_padding), at least 0."""
    return max(0, (out - 1) * stride + k - (size + before))


def applies(x_shape: Sequence[int], filter_sizes: Sequence[int], out_hw: Sequence[int], strides: Sequence[int],
            dilations: Sequence[int], padding: str, pads: Sequence[int]) -> bool:
    """Whether a float32 Conv2DBackpropFilter (oneDNN's, groups 1: the caller's conditions) is this kernel's as
    measured: VALID or SAME, no dilation, a filter other than 1x1 (oneDNN's 1x1 kernel), at most 14 columns wide,
    and the padding within the kernel's bounds (`init_conf`'s boundaries_ok; outside it oneDNN takes another kernel)."""
    kh, kw = int(filter_sizes[0]), int(filter_sizes[1])
    if padding not in ("VALID", "SAME") or any(int(d) != 1 for d in dilations) or (kh, kw) == (1, 1) or kw > 14:
        return False
    top, left = int(pads[0]), int(pads[2])
    bottom = _pads(int(x_shape[1]), int(out_hw[0]), kh, int(strides[0]), top)
    right = _pads(int(x_shape[2]), int(out_hw[1]), kw, int(strides[1]), left)
    return (left < kw and right < kw and top <= kh // 2 and bottom <= kh // 2
            and left <= _MAX_UR_W and right <= _MAX_UR_W)


def balance(mb: int, ih: int, iw: int, oh: int, ow: int, ic: int, oc: int, kh: int, kw: int, threads: int,
            sh: int = 1, sw: int = 1) -> tuple[int, int, int]:
    """oneDNN's `balance` of the threads (nthr_mb, nthr_oc_b, nthr_ic_b) over the images and the channel blocks
    (harness_mb_reduction, one group, 2-D): the lowest memory cost, then a lower compute cost within 110% of it."""
    icb = ic if ic < 16 else 16
    nb_ic, nb_oc, ocb = _cdiv(ic, icb), _cdiv(oc, 16), 16

    def mem(nmb: int, noc: int, nic: int) -> int:
        return (_cdiv(mb, nmb) * _cdiv(nb_ic, nic) * icb * ih * iw // sh // sw
                + _cdiv(mb, nmb) * _cdiv(nb_oc, noc) * ocb * oh * ow
                + 8 * _cdiv(nb_oc, noc) * _cdiv(nb_ic, nic) * kh * kw * icb * ocb)

    def comp(nmb: int, noc: int, nic: int) -> int:
        return _cdiv(mb, nmb) * _cdiv(nb_oc, noc) * _cdiv(nb_ic, nic)

    def splits() -> list[tuple[int, int, int]]:
        out = []
        for nmb in range(1, min(threads, mb) + 1):
            par = threads // nmb
            for noc in range(1, min(par, nb_oc) + 1):
                out.append((nmb, noc, min(par // noc, nb_ic)))
        return out

    best, best_mem = (1, 1, 1), mem(1, 1, 1)
    for s in splits():
        if mem(*s) <= best_mem:
            best, best_mem = s, mem(*s)
    best_comp = comp(*best)
    for s in splits():
        c = comp(*s)
        if (c <= best_comp and mem(*s) < 1.1 * best_mem) or 4 * c <= 3 * best_comp:
            best, best_comp = s, c
    nmb = best[0]
    if threads / 2 < nmb < threads:
        nmb = min(mb, threads)
    return nmb, best[1], best[2]


def row_chunks(ow: int, right_pad: int) -> list[int]:
    """The widths of the output-column chunks a row is summed in (`compute_oh_step_disp`/`compute_oh_step_common`):
    the whole row up to 28 columns; wider rows in chunks of 28 and a tail, the tail widened (or the one chunk halved)
    where the right padding reaches into it."""
    if ow <= _MAX_UR_W:
        return [ow]
    ur_w, trips, tail = _MAX_UR_W, ow // _MAX_UR_W, ow % _MAX_UR_W
    if (tail == 0 and right_pad != 0) or (right_pad > 0 and right_pad >= tail):
        if trips > 1:
            tail, trips = tail + ur_w, trips - 1
        else:
            tail, ur_w = tail + ur_w - ur_w // 2, ur_w // 2
    return [ur_w] * trips + ([tail] if tail else [])


def filter_sums(cols: np.ndarray, dy: np.ndarray, x_shape: Sequence[int], filter_sizes: Sequence[int],
                strides: Sequence[int], pads: Sequence[int], threads: int) -> np.ndarray:
    """The filter gradient [kh, kw, C_in, C_out] of im2col rows `cols` [N·OH·OW, kh·kw·C_in] and the output gradient
    `dy` [N, OH, OW, C_out]; `strides` and `pads` (top, bottom, left, right) the forward's."""
    n, ih, iw, ic = (int(v) for v in x_shape)
    kh, kw, _, oc = (int(v) for v in filter_sizes)
    _, oh, ow, _ = dy.shape
    sh, sw = int(strides[0]), int(strides[1])
    k = cols.shape[1]
    nmb = balance(n, ih, iw, oh, ow, ic, oc, kh, kw, threads, sh, sw)[0]
    first = _cdiv(n, nmb)
    chunked = ic >= 16 and sw == 1
    chunks = row_chunks(ow, _pads(iw, ow, kw, sw, int(pads[2]))) if chunked else []
    c3 = cols.reshape(n, oh * ow, k)
    d3 = dy.reshape(n, oh * ow, oc)
    total = None
    for lo, hi in ((0, first), (first, n)) if nmb > 1 else ((0, n),):
        if hi <= lo:
            continue
        if chunked:
            part = _chunked(c3[lo:hi].reshape(-1, k), d3[lo:hi].reshape(-1, oc), (hi - lo) * oh, ow, chunks)
        else:   # (one in-order sum over the thread's images' pixels)
            part = ordered_matmul(np.ascontiguousarray(c3[lo:hi].reshape(-1, k).T), d3[lo:hi].reshape(-1, oc))
        total = part if total is None else (total + part).astype(_F)
    if total is None:
        return np.zeros((kh, kw, ic, oc), _F)
    return total.reshape(kh, kw, ic, oc)


def _chunked(x: np.ndarray, d: np.ndarray, rows: int, ow: int, chunks: list[int]) -> np.ndarray:
    """x [rows·OW, K] and d [rows·OW, O]: the compiled segmented kernel (fma_native.segment_sums, _fma_rows.c) where
    built, else `_chunked_sum`; the same bits."""
    from simdist.runtime.ops import fma_native
    ends = (np.arange(1, rows + 1)[:, None] * ow - ow + np.cumsum(chunks)[None, :]).ravel()
    out = fma_native.segment_sums(x, d, np.zeros((x.shape[1], d.shape[1]), _F), ends)
    if out is not None:
        return out
    return _chunked_sum(x.reshape(rows, ow, -1), d.reshape(rows, ow, -1), chunks)


def _chunked_sum(rows: np.ndarray, drows: np.ndarray, chunks: list[int]) -> np.ndarray:
    """rows [R, OW, K] and drows [R, OW, O] (a thread's output rows in order): each row's chunks summed from zero in
    order (fused multiply-adds), the partials added one by one to a zeroed buffer, in (row, chunk) order: [K, O]."""
    r, _, k = rows.shape
    o = drows.shape[2]
    acc = np.zeros((1, o * k), _F)
    # (rows in blocks, so that a block's partials stay in cache: the same bits whatever the block)
    for lo in range(0, r, _ROW_BLOCK):
        g = min(_ROW_BLOCK, r - lo)
        buf = np.empty((g, len(chunks), o, k), _F)
        start = 0
        for c, width in enumerate(chunks):
            # (transposed, dy^T x: the same exact products in the same order, the long K along the kernel's rows)
            dt = np.ascontiguousarray(drows[lo:lo + g, start:start + width].transpose(0, 2, 1))   # [g, O, w]
            buf[:, c] = ordered_matmul(dt, np.ascontiguousarray(rows[lo:lo + g, start:start + width]))
            start += width
        # (the buffer's additions: acc + p is fma(1, p, acc) bit for bit, so an in-order product with ones; the
        # running sum first, fma(1, acc, +0) being acc)
        terms = np.concatenate([acc, buf.reshape(g * len(chunks), o * k)])
        acc = ordered_matmul(np.ones((1, terms.shape[0]), _F), terms)
    return np.ascontiguousarray(acc.reshape(o, k).T)


_ROW_BLOCK = 8
