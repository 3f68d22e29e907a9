"""oneDNN's float32 backward-data convolution (Conv2DBackpropInput, so the input gradient of every Keras Conv1D/Conv2D
in float32; clause ops.packet-paths, its paragraph "oneDNN's float32 Conv2D"), as TF
2.21's x86-64 wheel runs it on an AVX-512 CPU (host_cpu: oneDNN on for float32); dilated too.

oneDNN computes the backward data as a forward convolution of the output gradient (padded by the filter's size less
one less the forward padding on each side) with the flipped filter: each input gradient element is a sum over the
window's rows and columns (the filter's taps in descending order) and, inside each tap, the output channels in
order, fused multiply-adds from +0. With SAME padding that is one sum over the whole window. With VALID padding
(the forward view padded by the whole filter less one on each side) each filter column (descending) is its own sum
over the rows and channels, and the columns' sums are added in that order (a brgemm call per column, each added to
the stored result). At a stride above 1 in
either dimension (oneDNN's strided backward-data kernel) the taps run in ascending order instead (rows, then columns,
the channels inside), over the output gradient spread out by the strides; one sum over the window, or, where the
input's width is a multiple of the column stride, one sum per filter column (ascending), the columns' sums added.
Observed on TF 2.21 on an Intel Xeon (AVX-512, AVX512-FP16, AMX), fifty-ninth session (conv59): every element of 20
seeded stride-1 Conv2DBackpropInput calls (1 to 32 images of 1x9 to 28x28, 1x3, 2x2, 3x3 and 5x5 filters, 1 to 64
input and 1 to 64 output channels, VALID and SAME, two of them dilated by 2) and of 33 strided ones (strides 2 and 3,
(2, 1) and (1, 2), 1x3 to 5x5 filters, odd and even widths and heights, VALID and SAME), where one BLAS product (the
model before) was off in the last bits in 20-90% of the elements (tests/ops/test_conv59_backprop_input_tf.py;
/work/wt/conv59_logs/fit_bi5.py, fit_str4.py). A grouped convolution (stride 1) takes
each group's sums with the taps ascending, one sum whatever the padding (5 of 5 seeded shapes, 2 to 4 groups).
Not measured: strides with dilation, grouped with strides or dilation (left to BLAS)."""

from __future__ import annotations

from typing import Sequence

import numpy as np
from numpy.lib.stride_tricks import as_strided

from simdist.runtime.ops.contraction_order import ordered_matmul

__all__ = ["applies", "applies_3d", "applies_grouped", "backprop_input", "backprop_input_3d", "grouped_backprop_input",
           "per_column"]

_F = np.float32


def applies(f_shape: Sequence[int], strides: Sequence[int], dilations: Sequence[int], padding: str) -> bool:
    """Whether a float32 Conv2DBackpropInput (oneDNN's: the caller's conditions) takes these orders: VALID or SAME, a
    filter other than 1x1 (oneDNN's 1x1 kernel, not measured); dilated only at stride 1 (strided and dilated: not
    measured)."""
    strided = any(int(s) > 1 for s in strides)
    return (padding in ("VALID", "SAME") and tuple(int(v) for v in f_shape[:2]) != (1, 1)
            and not (strided and any(int(d) > 1 for d in dilations)))


def per_column(padding: str, strides: Sequence[int], width: int) -> bool:
    """Whether each filter column is its own sum (added in the columns' order): at stride 1 with VALID padding;
    strided, where the input's width is a multiple of the column stride."""
    if all(int(s) == 1 for s in strides):
        return padding == "VALID"
    return width % int(strides[1]) == 0


def backprop_input(f: np.ndarray, dy: np.ndarray, input_sizes: Sequence[int], pads: Sequence[int],
                   padding: str, dilations: Sequence[int] = (1, 1), strides: Sequence[int] = (1, 1)) -> np.ndarray:
    """The input gradient [N, H, W, C_in] of filter `f` [kh, kw, C_in, C_out] and output gradient `dy`
    [N, OH, OW, C_out]; `pads` the forward convolution's (top, bottom, left, right), `dilations` and `strides` its
    (rows, columns)."""
    strided = any(int(s) > 1 for s in strides)
    return _sums(f, dy, input_sizes, pads, dilations, strides, strided, per_column(padding, strides, int(input_sizes[2])))


def applies_grouped(f_shape: Sequence[int], strides: Sequence[int], dilations: Sequence[int], padding: str) -> bool:
    """Whether a grouped float32 Conv2DBackpropInput takes the grouped order: stride 1, no dilation, VALID or SAME,
    not 1x1 (the measured shapes)."""
    return (padding in ("VALID", "SAME") and all(int(s) == 1 for s in strides) and all(int(d) == 1 for d in dilations)
            and tuple(int(v) for v in f_shape[:2]) != (1, 1))


def grouped_backprop_input(f: np.ndarray, dy: np.ndarray, input_sizes: Sequence[int], pads: Sequence[int],
                           groups: int) -> np.ndarray:
    """A grouped convolution's input gradient (filter [kh, kw, C_in / G, C_out]) at stride 1: each group's input
    channels from its output channels, the taps ascending (rows, then columns), the channels inside, one sum over the
    window whatever the padding (oneDNN's grouped backward data; measured: 5 of 5 seeded shapes, 2 to 4 groups,
    VALID and SAME, /work/wt/conv59_logs/fit_grp2.py)."""
    og, cg = int(f.shape[3]) // groups, int(input_sizes[3]) // groups
    sizes = tuple(int(v) for v in input_sizes[:3]) + (cg,)
    return np.concatenate([_sums(f[:, :, :, g * og:(g + 1) * og], dy[..., g * og:(g + 1) * og], sizes, pads, (1, 1),
                                 (1, 1), True, False) for g in range(groups)], axis=3)


def _sums(f: np.ndarray, dy: np.ndarray, input_sizes: Sequence[int], pads: Sequence[int], dilations: Sequence[int],
          strides: Sequence[int], ascending: bool, columns: bool) -> np.ndarray:
    """The input gradient with the taps ascending or descending, one sum or one per filter column."""
    kh, kw, cin, cout = (int(v) for v in f.shape)
    n, h, w, _ = (int(v) for v in input_sizes)
    pt, pl = int(pads[0]), int(pads[2])
    dh, dw = (int(v) for v in dilations)
    sh, sw = (int(v) for v in strides)
    eh, ew = (kh - 1) * dh, (kw - 1) * dw   # (the dilated filter's extent less one)
    dyp = np.zeros((n, h + eh, w + ew, cout), _F)
    rows, cols_ = (dy.shape[1] - 1) * sh + 1, (dy.shape[2] - 1) * sw + 1   # (dy spread out by the strides)
    dyp[:, eh - pt:eh - pt + rows:sh, ew - pl:ew - pl + cols_:sw] = dy
    # channel-major, so that each window element's plane over the input pixels is one strided copy
    dyc = np.ascontiguousarray(dyp.transpose(3, 0, 1, 2))   # [C_out, N, H + eh, W + ew]
    c0, c1, c2, c3 = dyc.strides
    # row (a, b, o) of the transposed columns is the output gradient that the filter's tap (kh-1-a, kw-1-b) of
    # channel o carries to each input pixel (i, j) (zero where none does: a fused multiply-add of it adds nothing)
    win = as_strided(dyc, (kh, kw, cout, n, h, w), (c2 * dh, c3 * dw, c0, c1, c2, c3), writeable=False)
    wf = f[::-1, ::-1].transpose(2, 0, 1, 3)   # [C_in, a, b, C_out]
    if ascending:   # (the strided and grouped kernels)
        win, wf = win[::-1, ::-1], wf[:, ::-1, ::-1]
    wf = np.ascontiguousarray(wf)
    # (the sums as [C_in, K] @ [K, pixels]: the same order per element, and the compiled kernel's fast layout)
    if not columns:
        cols = np.ascontiguousarray(win).reshape(kh * kw * cout, n * h * w)
        return ordered_matmul(wf.reshape(cin, kh * kw * cout), cols).T.reshape(n, h, w, cin)
    total = None
    for b in range(kw):
        cols = np.ascontiguousarray(win[:, b]).reshape(kh * cout, n * h * w)
        part = ordered_matmul(np.ascontiguousarray(wf[:, :, b]).reshape(cin, kh * cout), cols)
        total = part if total is None else (total + part).astype(_F)
    return total.T.reshape(n, h, w, cin)


def applies_3d(f_shape: Sequence[int], strides: Sequence[int], dilations: Sequence[int], padding: str) -> bool:
    """Whether a float32 Conv3DBackpropInputV2 (oneDNN's: the caller's conditions) takes the stride-1 order: stride 1,
    no dilation, VALID or SAME, a filter other than 1x1x1 (strided, dilated, 1x1x1: not measured)."""
    return (padding in ("VALID", "SAME") and all(int(s) == 1 for s in strides) and all(int(d) == 1 for d in dilations)
            and tuple(int(v) for v in f_shape[:3]) != (1, 1, 1))


def backprop_input_3d(f: np.ndarray, dy: np.ndarray, input_sizes: Sequence[int], pads: Sequence[int],
                      padding: str) -> np.ndarray:
    """The 3-D input gradient [N, D, H, W, C_in] of filter `f` [kd, kh, kw, C_in, C_out] and `dy` at stride 1, the
    2-D rule one dimension up (measured: 6 of 6 seeded shapes, /work/wt/conv59_logs/fit_3d.py): the taps descending
    (depth, rows, columns), the channels inside; SAME one sum, VALID one sum per filter column (descending), added.
    `pads` the forward's (front, back, top, bottom, left, right)."""
    kd, kh, kw, cin, cout = (int(v) for v in f.shape)
    n, d, h, w, _ = (int(v) for v in input_sizes)
    pf, pt, pl = int(pads[0]), int(pads[2]), int(pads[4])
    dyp = np.zeros((n, d + kd - 1, h + kh - 1, w + kw - 1, cout), _F)
    dyp[:, kd - 1 - pf:kd - 1 - pf + dy.shape[1], kh - 1 - pt:kh - 1 - pt + dy.shape[2],
        kw - 1 - pl:kw - 1 - pl + dy.shape[3]] = dy
    dyc = np.ascontiguousarray(dyp.transpose(4, 0, 1, 2, 3))   # [C_out, N, D', H', W']
    c0, c1, c2, c3, c4 = dyc.strides
    # row (a, b, e, o): the output gradient the filter's tap (kd-1-a, kh-1-b, kw-1-e) of channel o carries
    win = as_strided(dyc, (kd, kh, kw, cout, n, d, h, w), (c2, c3, c4, c0, c1, c2, c3, c4), writeable=False)
    wf = np.ascontiguousarray(f[::-1, ::-1, ::-1].transpose(3, 0, 1, 2, 4))   # [C_in, a, b, e, C_out]
    pixels = n * d * h * w
    if padding == "SAME":
        cols = np.ascontiguousarray(win).reshape(kd * kh * kw * cout, pixels)
        return ordered_matmul(wf.reshape(cin, -1), cols).T.reshape(n, d, h, w, cin)
    total = None
    for e in range(kw):
        cols = np.ascontiguousarray(win[:, :, e]).reshape(kd * kh * cout, pixels)
        part = ordered_matmul(np.ascontiguousarray(wf[:, :, :, e]).reshape(cin, -1), cols)
        total = part if total is None else (total + part).astype(_F)
    return total.T.reshape(n, d, h, w, cin)
