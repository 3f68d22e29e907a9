"""oneDNN's float32 depthwise convolution (DepthwiseConv2dNative and DepthwiseConv2dNativeBackpropInput, so the
outputs and input gradients of Keras DepthwiseConv1D/2D and SeparableConv1D/2D in float32; clause ops.packet-paths,
its paragraph "oneDNN's float32 Conv2D", "Sixtieth session, conv60: depthwise"), as TF 2.21's x86-64 wheel runs it on
an AVX-512 CPU (host_cpu: oneDNN on for float32).

- Forward: each output (channel c, multiplier q) adds the filter's taps in ascending order (rows, then columns) with
  fused multiply-adds from +0 (a padded tap's zero adds nothing).
- Backward data: each input-gradient element (channel c) adds the forward taps in ascending order (rows, then
  columns) and, inside each tap, the channel's multipliers in order, with fused multiply-adds from +0: one sum over
  the window, stride 1 or strided (oneDNN's grouped backward data, one input channel a group: conv59's grouped rule).

Observed on TF 2.21 on an Intel Xeon (AVX-512, AVX512-FP16, AMX), sixtieth session (conv60): every element of 10
seeded calls each (1 to 8 images up to 30x30, 3 to 32 channels, multipliers 1 to 3, 3x3 and 5x5 filters, VALID and
SAME, strides 1 and 2), where NumPy's BLAS product (the model before) was off in most multiplier-1 outputs and in
every input gradient (/work/wt/conv60_logs: probe_dw.py, fit_dw.py, fit_dwx.py, fit_dwm.py;
tests/ops/test_conv60_depthwise_tf.py). Not measured: dilation, explicit padding (left as before)."""

from __future__ import annotations

from typing import Sequence

import numpy as np

from simdist.runtime.ops.contraction_order import ordered_matmul

__all__ = ["applies", "backprop_input", "dw_kernel", "filter_applies", "filter_sums", "forward", "partition"]

_F = np.float32


def applies(padding: str, dilations: Sequence[int]) -> bool:
    """Whether a float32 depthwise convolution (oneDNN's: the caller's conditions) takes these orders as measured:
    VALID or SAME padding, no dilation."""
    return padding in ("VALID", "SAME") and all(int(d) == 1 for d in dilations)


def forward(cols: np.ndarray, f: np.ndarray) -> np.ndarray:
    """[P, kh·kw·C] windows and a [kh, kw, C, M] filter -> [P, C·M], the taps ascending, fused from +0."""
    kh, kw, c, m = (int(v) for v in f.shape)
    k = kh * kw
    taps = np.ascontiguousarray(cols.reshape(-1, k, c).transpose(2, 0, 1))            # [C, P, K]
    w = np.ascontiguousarray(f.reshape(k, c, m).transpose(1, 0, 2))                    # [C, K, M]
    return ordered_matmul(taps, w).transpose(1, 0, 2).reshape(-1, c * m)


def backprop_input(f: np.ndarray, dy: np.ndarray, input_sizes: Sequence[int], pads: Sequence[int],
                   strides: Sequence[int]) -> np.ndarray:
    """The input gradient [N, H, W, C] of filter `f` [kh, kw, C, M] and `dy` [N, OH, OW, C·M]; `pads` the forward's
    (top, bottom, left, right), `strides` its (rows, columns)."""
    kh, kw, c, m = (int(v) for v in f.shape)
    n, h, w, _ = (int(v) for v in input_sizes)
    pt, pl = int(pads[0]), int(pads[2])
    sh, sw = (int(v) for v in strides)
    eh, ew = kh - 1, kw - 1
    dyp = np.zeros((n, h + eh, w + ew, c * m), _F)
    rows, cols_ = (dy.shape[1] - 1) * sh + 1, (dy.shape[2] - 1) * sw + 1   # (dy spread out by the strides)
    dyp[:, eh - pt:eh - pt + rows:sh, ew - pl:ew - pl + cols_:sw] = dy
    # terms[c, (a, b, q), pixel]: the output gradient the forward tap (a, b) of multiplier q carries to each input
    # pixel (zero where none does: its fused multiply-add adds nothing)
    terms = np.empty((c, kh, kw, m, n, h, w), _F)
    for a in range(kh):
        for b in range(kw):
            part = dyp[:, eh - a:eh - a + h, ew - b:ew - b + w].reshape(n, h, w, c, m)
            terms[:, a, b] = part.transpose(3, 4, 0, 1, 2)
    wf = np.ascontiguousarray(f.transpose(2, 0, 1, 3)).reshape(c, 1, kh * kw * m)       # [C, 1, (a, b, q)]
    out = ordered_matmul(wf, terms.reshape(c, kh * kw * m, n * h * w))                  # [C, 1, NHW]
    return np.ascontiguousarray(out.reshape(c, n, h, w).transpose(1, 2, 3, 0))


# ---- backward weights (DepthwiseConv2dNativeBackpropFilter) ----
#
# Multiplier 1, filters at most 3 columns wide and the padding within its bounds: oneDNN's jit_uni_dw backward-weights
# kernel (jit_uni_dw_conv_kernel_utils.cpp `init_conf`, `partition_nthr_nxc`; jit_uni_dw_convolution.cpp
# `execute_backward_weights_nxc`; jit_uni_dw_conv_kernel_f32.cpp `compute_ow_block_unroll`): the threads split the
# channel blocks, the images or blocks of output rows (`partition`); each thread's buffer takes its images' products
# in order — per image, its rows block by block, and inside a call, in output rows wider than 30 columns, each
# block of 15 columns over all the call's rows before the next — one chain of fused multiply-adds; the threads'
# buffers added (images, then row blocks). Otherwise (a multiplier above 1, wider filters) oneDNN runs it as a grouped
# convolution (jit_avx512_common backward weights, one input channel a group): with at least as many channels as
# threads each thread takes whole groups and every image, summing each output row (chunks of 28 columns) from zero and adding
# it, as onednn_backprop_filter's explicit-broadcast kernel does (a column stride above 1: one in-order sum).
# Observed (conv60): every element of 46 of 46 seeded calls (probe_dw.py, probe_dw2.py, held-out probe_dw3.py;
# fit_dwf2.py).

_MAX_UNROLL_W = 30   # (the kernel's max_unroll_w_)
_BLOCK_W = 15        # (its block_size_)


def _cdiv(a: int, b: int) -> int:
    return -(-a // b)


def _balance211(work: int, team: int, tid: int) -> tuple[int, int]:
    if team <= 1:
        return 0, work
    n1 = _cdiv(work, team)
    n2 = n1 - 1
    t1 = work - n2 * team
    start = tid * n1 if tid < t1 else t1 * n1 + (tid - t1) * n2
    return start, start + (n1 if tid < t1 else n2)


def dw_kernel(x_shape: Sequence[int], f_shape: Sequence[int], out_hw: Sequence[int], strides: Sequence[int],
              pads: Sequence[int]) -> bool:
    """Whether oneDNN's jit_uni_dw backward-weights kernel takes it (`init_conf`'s checks): multiplier 1, at most 3
    filter columns, column stride at most the filter's width, the padding within half the filter and a whole
    multiple of the row stride where above 1, the input tall enough for the filter."""
    kh, kw, _, m = (int(v) for v in f_shape)
    ih, iw = int(x_shape[1]), int(x_shape[2])
    oh, ow = (int(v) for v in out_hw)
    sh, sw = (int(v) for v in strides)
    t, left = int(pads[0]), int(pads[2])
    b = max(0, (oh - 1) * sh + kh - (ih + t))
    r = max(0, (ow - 1) * sw + kw - (iw + left))
    return (m == 1 and kw <= 3 and sw <= kw and t <= kh // 2 and b <= kh // 2 and left <= kw // 2 and r <= kw // 2
            and ih >= kh + (-t) % sh and (t <= 1 or t % sh == 0) and (b <= 1 or b % sh == 0))


def partition(mb: int, oh: int, channels: int, kw: int, threads: int) -> tuple[int, int, int, int]:
    """`partition_nthr_nxc` (prioritize_threading): (nthr_g, nthr_mb, nthr_oh, oh_block), the most threads used, then
    the least imbalance, the loops' order deciding ties."""
    nb_ch = _cdiv(channels, 16)
    ch_outer = _cdiv(nb_ch, min(nb_ch, min(4, 31 // (2 * kw))))
    best_eff, best_imb = _F(0), _F(1)
    result = (1, 1, 1, oh)
    for g in range(min(ch_outer, threads), 0, -1):
        avail_mb = threads // g
        for m in range(min(mb, avail_mb), 0, -1):
            avail_oh = min(oh, avail_mb // m)
            under = False
            for ob in range(oh, 0, -1):
                ag, am, ao = _cdiv(ch_outer, g), _cdiv(mb, m), _cdiv(oh, ob)
                nt_oh = min(avail_oh, ao)
                if under and avail_oh < ao:
                    break
                eff = _F(g * m * nt_oh) / _F(threads)
                imb = _F(_F(abs(ag * g - ch_outer)) / _F(ch_outer) * _F(mb * oh)
                         + _F(abs(am * m - mb)) / _F(mb) * _F(ch_outer * oh)
                         + _F(abs(ob * nt_oh - oh)) / _F(oh) * _F(ch_outer * mb))
                if best_eff <= eff:
                    if best_eff == eff and best_imb <= imb:
                        continue
                    result, best_eff, best_imb = (g, m, nt_oh, ob), eff, imb
                under = ob * nt_oh < oh
    return result


def _column_blocks(ow: int, right_pad: int) -> list[tuple[int, int]]:
    """`calculate_w_unrolling`: the output columns in one block up to 30, wider rows in blocks of 15 and a tail."""
    if ow <= _MAX_UNROLL_W:
        return [(0, ow)]
    u, trips, tail = _BLOCK_W, ow // _BLOCK_W, ow % _BLOCK_W
    if (tail == 0 and right_pad != 0) or (right_pad > 0 and right_pad >= tail):
        if trips > 1:
            tail, trips = tail + u, trips - 1
        else:
            tail, u = tail + u - u // 2, u // 2
    widths = [u] * trips + ([tail] if tail else [])
    edges = np.cumsum([0] + widths)
    return [(int(edges[i]), int(edges[i + 1])) for i in range(len(widths))]


def filter_applies(channels: int, dw: bool, threads: int) -> bool:
    """Whether the measured rules cover it: the jit_uni_dw kernel, or the grouped kernel with at least as many
    channels as threads (`balance`: nthr_g = the threads, or the groups where as many, each thread whole groups;
    fewer channels than threads, one: a plain convolution, not measured)."""
    return dw or channels >= threads


def filter_sums(cols: np.ndarray, dy: np.ndarray, x_shape: Sequence[int], f_shape: Sequence[int],
                strides: Sequence[int], pads: Sequence[int], dw: bool, threads: int) -> np.ndarray:
    """The filter gradient [kh, kw, C, M] of im2col rows `cols` [N·OH·OW, kh·kw·C] and `dy` [N, OH, OW, C·M]."""
    n, _, iw, c = (int(v) for v in x_shape)
    kh, kw, _, m = (int(v) for v in f_shape)
    _, oh, ow, _ = dy.shape
    k = kh * kw
    taps = cols.reshape(n, oh, ow, k, c)
    d = dy.reshape(n, oh, ow, c, m)
    right = max(0, (ow - 1) * int(strides[1]) + kw - (iw + int(pads[2])))

    def chain(parts: list[tuple[np.ndarray, np.ndarray]]) -> np.ndarray:
        """One fused chain from +0 over the pixels of `parts` ([S, K, C] taps, [S, C, M] dy) in order: [C, K, M]."""
        xs = np.concatenate([p.reshape(-1, k, c) for p, _ in parts])
        ds = np.concatenate([q.reshape(-1, c, m) for _, q in parts])
        return ordered_matmul(np.ascontiguousarray(xs.transpose(2, 1, 0)), np.ascontiguousarray(ds.transpose(1, 0, 2)))

    total = None
    if dw:
        _, nmb, noh, ob = partition(n, oh, c, kw, threads)
        blocks = _column_blocks(ow, right)
        for im in range(nmb):
            for io in range(noh):
                a, b = _balance211(n, nmb, im)
                r0, r1 = _balance211(_cdiv(oh, ob), noh, io)
                if a >= b or r0 >= r1:
                    continue
                # (each image's rows of this thread are one kernel call: the column blocks outside its rows)
                rows = slice(r0 * ob, min(oh, r1 * ob))
                part = chain([(taps[i, rows, lo:hi], d[i, rows, lo:hi]) for i in range(a, b) for lo, hi in blocks])
                total = part if total is None else (total + part).astype(_F)
    elif int(strides[1]) != 1:   # (the grouped kernel's embedded broadcast: one chain)
        total = chain([(taps, d)])
    else:   # (the grouped kernel's explicit broadcast: each row's chunks from zero, added)
        from simdist.runtime.ops.onednn_backprop_filter import row_chunks
        widths = row_chunks(ow, right)
        edges = np.cumsum([0] + widths)
        parts = np.empty((n * oh, len(widths), c, k, m), _F)   # (each (row, chunk)'s partial, in order)
        for j in range(len(widths)):
            lo, hi = int(edges[j]), int(edges[j + 1])
            xs = np.ascontiguousarray(taps[:, :, lo:hi].reshape(n * oh, hi - lo, k, c).transpose(0, 3, 2, 1))
            ds = np.ascontiguousarray(d[:, :, lo:hi].reshape(n * oh, hi - lo, c, m).transpose(0, 2, 1, 3))
            parts[:, j] = ordered_matmul(xs, ds)   # [B, C, K, M]
        flat = np.concatenate([np.zeros((1, c * k * m), _F), parts.reshape(-1, c * k * m)])
        total = ordered_matmul(np.ones((1, flat.shape[0]), _F), flat).reshape(c, k, m)
    return np.ascontiguousarray(total.transpose(1, 0, 2)).reshape(kh, kw, c, m)
