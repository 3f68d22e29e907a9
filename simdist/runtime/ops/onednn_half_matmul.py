"""oneDNN's float16 and bfloat16 MatMul/BatchMatMulV2 as TF 2.21's x86-64 wheel runs them on an Intel CPU that takes
the half types in oneDNN (AVX512-FP16, AMX-BF16: host_cpu.onednn_supports; clause ops.packet-paths, its paragraph
"oneDNN's half products", fifty-eighth session, onednn58). The products of two half values are exact in float32,
so only the order of the float32 sums matters; the result is the float32 sum rounded once to the type.

float16 (`float16_k_block`): k in blocks summed in order from +0, the blocks' sums added in order.
bfloat16: two kernels. A small product (m·k < 64 elements of the left operand, and one row or an even k without
transpose_a) sums k in one accumulator pair by pair, each pair's odd element first (`bfloat16_pairs`: the order of
AVX512-BF16's vdpbf16ps); every other one sums k in tiles of 32 (`bfloat16_tiles`: within a tile the even and the
odd elements each in order from +0, their two sums added, the tiles' sums added in order: AMX's tdpbf16ps).
Observed on TF 2.21 on the Xeon (/work/wt/onednn58_logs/p_half.py, p_half2.py, p_bf3.py with fit_half2.py, fit2.py,
fitbf3.py, fitf16.py): products with cancelling terms (+H and -H at two random positions of k, so each order leaves
its own residue) and dense ones of values 2^-8..2^8 wide."""

from __future__ import annotations

import numpy as np

_F = np.float32

#: oneDNN's float16 products sum k in blocks of this many (`float16_k_block`)
HALF_K_BLOCK = 512

#: AMX's bfloat16 tile: k in pieces of this many (`bfloat16_tiles`)
BF16_TILE = 32


def float16_k_block(m: int, k: int, transpose_a: bool) -> int:
    """The length of the blocks of k oneDNN's float16 product sums in order: 512 up to k = 1,024, and beyond it for
    one row or with transpose_a; 1,024 beyond it for two rows or more without transpose_a (every element of 140
    seeded products of m 1..40, k 1..4,100, 2-D and batched, with the cancelling terms across the blocks' bounds,
    but one 1 x 4,100 x 16 batched product, 2 elements off; simdist's k in order was off in 45 of 80 with k >= 511)."""
    return HALF_K_BLOCK if k <= 2 * HALF_K_BLOCK or m == 1 or transpose_a else 2 * HALF_K_BLOCK


def in_order_f32(xf: np.ndarray, yf: np.ndarray) -> np.ndarray:
    """float32 xf [..., m, k] @ yf [..., k, n] of half values (exact products) over k in order from +0: the compiled
    in-order kernel (fma_native: a fused multiply-add of an exact product is the rounded sum) where no operand holds
    a NaN, else NumPy's adds (a NaN the first operand's)."""
    if not (np.isnan(xf).any() or np.isnan(yf).any()):
        from simdist.runtime.ops import fma_native
        out = fma_native.ordered_matmul(xf, yf)
        if out is not None:
            return out
    acc = np.zeros(np.broadcast_shapes(xf.shape[:-1] + (1,), yf.shape[:-2] + (1, yf.shape[-1])), _F)
    with np.errstate(over="ignore", invalid="ignore"):
        for i in range(xf.shape[-1]):
            acc += xf[..., :, i:i + 1] * yf[..., i:i + 1, :]
    return acc


def _add(u: np.ndarray | None, v: np.ndarray) -> np.ndarray:
    if u is None:
        return v
    with np.errstate(over="ignore", invalid="ignore"):
        return (u + v).astype(_F)


def float16_blocks(xf: np.ndarray, yf: np.ndarray, transpose_a: bool) -> np.ndarray:
    """The float32 sum of oneDNN's float16 product (operands widened to float32): `float16_k_block`'s blocks."""
    k = xf.shape[-1]
    block = max(float16_k_block(xf.shape[-2], k, transpose_a), 1)
    out = None
    for start in range(0, max(k, 1), block):
        out = _add(out, in_order_f32(xf[..., start:start + block], yf[..., start:start + block, :]))
    assert out is not None
    return _chain_nans(out, xf, yf, x_first=False)


def _chain_nans(out: np.ndarray, xf: np.ndarray, yf: np.ndarray, x_first: bool) -> np.ndarray:
    """The float32 sum `out` of a half product with its NaNs the chain's (nan_operands.chain_nan): the last NaN
    operand along k, quieted (its payload kept through the widening and the rounding back), at a step with two x's
    first for bfloat16, y's first for float16 (msweep63's m-f16-matmul / m-bf16-matmul: every NaN of MatMul and
    BatchMatMulV2 products of m 1..16, k 3..513, transposes, with tagged NaNs in both operands, on TF 2.21 on the
    Xeon; simdist kept the first NaN, or the default NaN for bfloat16)."""
    if not np.isnan(out).any():
        return out
    from simdist.runtime.ops.nan_operands import chain_nan
    return chain_nan(out, xf, yf, x_first)


def bfloat16_takes_pairs(m: int, k: int, transpose_a: bool) -> bool:
    """Whether oneDNN's bfloat16 product of m rows over k is the small kernel (`bfloat16_pairs`): fewer than 64
    elements in the left operand, and one row, or an even k without transpose_a (every element of 570 seeded
    products of m 1..33, k 1..3,000, 2-D and batched, takes the kernel this names; 2 x 5, 3 x 15, 4 x 3 and
    transposed-a products take the tiles)."""
    return m * k < 64 and (m == 1 or (k % 2 == 0 and not transpose_a))


def bfloat16_pairs(xf: np.ndarray, yf: np.ndarray) -> np.ndarray:
    """k summed in order from +0 pair by pair, elements 2i + 1 then 2i (an odd k's last element last)."""
    k = xf.shape[-1]
    perm = np.arange(k)
    perm[:k - k % 2] = perm[:k - k % 2].reshape(-1, 2)[:, ::-1].ravel()
    return in_order_f32(np.ascontiguousarray(xf[..., perm]), np.ascontiguousarray(yf[..., perm, :]))


def bfloat16_tiles(xf: np.ndarray, yf: np.ndarray) -> np.ndarray:
    """k in tiles of 32: per tile, its even elements in order from +0 plus its odd ones in order from +0; the tiles'
    sums added in order. All tiles' even (and odd) sums in one in-order product over a batch of tiles, k padded with
    zeros to whole tiles (a +0 product after the last leaves a sum as it is: a sum from +0 is never -0)."""
    k = xf.shape[-1]
    tiles = max(-(-k // BF16_TILE), 1)
    pad = tiles * BF16_TILE - k
    if pad:
        xf = np.concatenate([xf, np.zeros(xf.shape[:-1] + (pad,), _F)], axis=-1)
        yf = np.concatenate([yf, np.zeros(yf.shape[:-2] + (pad, yf.shape[-1]), _F)], axis=-2)
    m, n = xf.shape[-2], yf.shape[-1]
    xt = np.moveaxis(xf.reshape(xf.shape[:-1] + (tiles, BF16_TILE)), -2, -3)    # [..., tiles, m, 32]
    yt = yf.reshape(yf.shape[:-2] + (tiles, BF16_TILE, n))                       # [..., tiles, 32, n]
    even = in_order_f32(np.ascontiguousarray(xt[..., 0::2]), np.ascontiguousarray(yt[..., 0::2, :]))
    odd = in_order_f32(np.ascontiguousarray(xt[..., 1::2]), np.ascontiguousarray(yt[..., 1::2, :]))
    sums = _add(even, odd)                                                       # [..., tiles, m, n]
    out = sums[..., 0, :, :]
    for t in range(1, tiles):
        out = _add(out, sums[..., t, :, :])
    return out


def bfloat16_sum(xf: np.ndarray, yf: np.ndarray, transpose_a: bool) -> np.ndarray:
    """The float32 sum of oneDNN's bfloat16 product (operands widened to float32)."""
    if bfloat16_takes_pairs(xf.shape[-2], xf.shape[-1], transpose_a):
        out = bfloat16_pairs(xf, yf)
        if np.isnan(out).any():   # (the chain in the pairs' order, y's NaN first at a step)
            perm = _pair_order(xf.shape[-1])
            out = _chain_nans(out, xf[..., perm], yf[..., perm, :], x_first=False)
        return out
    out = bfloat16_tiles(xf, yf)
    return _tile_nans(out, xf, yf, transpose_a) if np.isnan(out).any() else out


def _pair_order(k: int) -> np.ndarray:
    """The order `bfloat16_pairs` sums k in: elements 2i + 1 then 2i, an odd k's last element last."""
    perm = np.arange(k)
    perm[:k - k % 2] = perm[:k - k % 2].reshape(-1, 2)[:, ::-1].ravel()
    return perm


def _tile_nans(out: np.ndarray, xf: np.ndarray, yf: np.ndarray, transpose_a: bool) -> np.ndarray:
    """`bfloat16_tiles`'s sum `out` with its NaNs the kernel's: per tile the even and the odd elements' chains (the
    last NaN along each, x's first at a step), the even chain's NaN before the odd's, an earlier tile's before a
    later's, but with transpose_a a last partial tile's (k not a multiple of 32) before the others' (msweep63's
    m-bf16-matmul; /work/wt/msweep63_logs/p_bf.py, p_bf2.py: which of one x NaN and one y NaN TF 2.21 keeps, 223
    products of m 2..5, k 37..513, both transpose_a, the NaNs in one tile, in two, at one step, in the tail)."""
    from simdist.runtime.ops.nan_operands import first_nan
    k = xf.shape[-1]
    acc = None
    with np.errstate(over="ignore", invalid="ignore"):
        for start in range(0, k, BF16_TILE):
            xs, ys = xf[..., start:start + BF16_TILE], yf[..., start:start + BF16_TILE, :]
            even = _chain_nans(in_order_f32(np.ascontiguousarray(xs[..., 0::2]), np.ascontiguousarray(ys[..., 0::2, :])),
                               xs[..., 0::2], ys[..., 0::2, :], x_first=True)
            if xs.shape[-1] > 1:
                odd = _chain_nans(in_order_f32(np.ascontiguousarray(xs[..., 1::2]),
                                               np.ascontiguousarray(ys[..., 1::2, :])),
                                  xs[..., 1::2], ys[..., 1::2, :], x_first=True)
                even = first_nan((even + odd).astype(_F), even, odd)
            if acc is None:
                acc = even
            elif transpose_a and start + BF16_TILE > k:
                acc = first_nan((even + acc).astype(_F), even, acc)
            else:
                acc = first_nan((acc + even).astype(_F), acc, even)
    assert acc is not None
    nan = np.isnan(out)
    return np.where(nan, np.broadcast_to(acc, out.shape), out) if nan.any() else out
