"""Which NaN an x86 arithmetic instruction returns, where NumPy's choice is not the CPU's (clause ops.packet-paths).

An SSE/AVX add or multiply returns its first NaN source operand (quieted), and the default NaN (0xffc00000 in
float32: negative, quiet) only when no operand is a NaN but the operation is invalid (inf - inf, inf · 0); a fused
multiply-add's operands count in the order a, b, c of a·b + c (observed on TF 2.21's oneDNN MatMul,
tests/ops/test_fma_nan58_tf.py). NumPy's loops pick by how they are vectorised: `a[None, :] * b` takes a's NaN for
b's first rows and b's for the last one, so a kernel that models a NaN's sign bit for bit sets it here.
"""

from __future__ import annotations

import numpy as np

__all__ = ["DEFAULT_NAN", "chain_nan", "first_nan", "fmod_nans", "quieted"]


def first_nan(result: np.ndarray, *operands: np.ndarray) -> np.ndarray:
    """`result` (an elementwise function of `operands`, broadcast to its shape) with each NaN replaced by the first
    NaN operand's value at that element, where one is a NaN; a NaN result with no NaN operand (the default NaN of
    an invalid operation) is kept. Costs one pass over `result` when it holds no NaN."""
    nan = np.isnan(result)
    if not nan.any():
        return result
    out = np.array(result, copy=True)
    done = ~nan
    for v in operands:
        v = np.broadcast_to(np.asarray(v), out.shape)
        take = ~done & np.isnan(v)
        out[take] = quieted(v[take].astype(out.dtype))
        done |= take
    return out


def fmod_nans(r: np.ndarray, a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """A remainder r of C's fmod(a, b) (FloorMod's and TruncateMod's first step) with each NaN as glibc's returns it:
    (a · b) / (a · b), the first NaN operand quieted, else x86's negative default NaN (fmod(±inf, y), fmod(x, 0),
    a subnormal y read as 0 under DAZ). TF 2.21, bsweep65: floormod(0xffc05678, 5e-324) is 0xffc05678,
    floormod(0x7fa00000, 1) 0x7fe00000, floormod(inf, 1) 0xffc00000."""
    if r.dtype.kind != "f" or not r.size:
        return r
    nan = np.isnan(r)
    if not nan.any():
        return r
    r = np.array(r, copy=True)
    r[nan] = -np.array(np.nan, r.dtype)
    return first_nan(r, a, b)


def quieted(v: np.ndarray) -> np.ndarray:
    """NaNs `v` (a float dtype) with the quiet bit set, as an x86 instruction returns a signalling NaN operand
    (0x7f800123 comes back 0x7fc00123; msweep63's `snan` pattern, observed on TF 2.21's float32 MatMul kernels);
    another dtype as it is."""
    bits = {"float32": 22, "float64": 51, "float16": 9, "bfloat16": 6}.get(v.dtype.name)
    if bits is None or v.size == 0:
        return v
    u = np.ascontiguousarray(v).view(f"u{v.dtype.itemsize}")
    return (u | u.dtype.type(1 << bits)).view(v.dtype).reshape(v.shape)   # (a 0-d array stays 0-d)


#: the default NaN an invalid float32 operation without a NaN operand returns on x86 (inf · 0, inf − inf)
DEFAULT_NAN = np.uint32(0xFFC00000)
_QUIET = np.uint32(0x00400000)


def _last_nan_operand(xs: np.ndarray, ys: np.ndarray, x_first: bool) -> tuple[np.ndarray, np.ndarray]:
    """For rows of operand pairs xs, ys [q, k] (a chain's a and b along k): whether any is a NaN, and the bits of
    the last one along k (of a step with two, x's when `x_first`, else y's), quieted."""
    hit = np.isnan(xs) | np.isnan(ys)
    has = hit.any(axis=-1)
    last = xs.shape[-1] - 1 - np.argmax(hit[..., ::-1], axis=-1)
    xv = np.take_along_axis(xs, last[..., None], axis=-1)[..., 0]
    yv = np.take_along_axis(ys, last[..., None], axis=-1)[..., 0]
    first, second = (xv, yv) if x_first else (yv, xv)
    bits = np.where(np.isnan(first), first, second).astype(np.float32).view(np.uint32) | _QUIET
    return has, bits


def chain_nan(result: np.ndarray, x: np.ndarray, y: np.ndarray, x_first: bool = True) -> np.ndarray:
    """`result` [m, n], x [m, k] @ y [k, n] summed over k by one chain of fused multiply-adds acc = fma(a, b, acc)
    from +0 whose NaN the last NaN operand sets (the multiplicands precede the accumulator), with each NaN set as
    such a chain ends: the last NaN operand along k (x's before y's at one step when `x_first`), quieted, and the
    default NaN where no operand is a NaN (an invalid inf · 0 or inf − inf). oneDNN's no-copy float32 sgemm
    (onednn_matmul.plain) sums so; observed on TF 2.21 on the Xeon with NaNs whose payloads name their operand
    (onednn59, /work/wt/onednn59_logs/p_nan.py, fit_nan.py)."""
    nan = np.isnan(result)
    if not nan.any():
        return result
    out = np.array(result, copy=True)
    if result.ndim > 2:   # (batched: each NaN's row of x and column of y in its batch member, broadcast)
        batch = result.shape[:-2]
        xb = np.broadcast_to(x, batch + x.shape[-2:])
        yt = np.swapaxes(np.broadcast_to(y, batch + y.shape[-2:]), -1, -2)
        idx = np.nonzero(nan)
        has, bits = _last_nan_operand(xb[idx[:-1]], yt[idx[:-2] + idx[-1:]], x_first)
        out[idx] = np.where(has, bits, DEFAULT_NAN).view(np.float32)
        return out
    i, j = np.nonzero(nan)
    has, bits = _last_nan_operand(x[i], y[:, j].T, x_first)
    out[i, j] = np.where(has, bits, DEFAULT_NAN).view(np.float32)
    return out


def first_nan_rows(out: np.ndarray, ids: np.ndarray, data: np.ndarray, last: np.ndarray | None = None) -> np.ndarray:
    """`out` [segments, ...], a sum or product of data's rows [rows, ...] into segments `ids` (in row order), with
    each NaN element replaced by the first NaN row's value at that column in its segment (quieted), where one is a
    NaN: `acc = acc + row` keeps the running value's NaN (x86's first operand); at the columns where `last` (a
    boolean over the flattened inner columns) is set, the last NaN row's (`row + acc`, as compiled there). A NaN
    without a NaN row (inf - inf) is kept."""
    nan = np.isnan(out)
    if not nan.any() or not data.size:
        return out
    rows = data.shape[0]
    pos = np.arange(rows).reshape((-1,) + (1,) * (data.ndim - 1)) * np.ones(data.shape, np.int64)
    isnan = np.isnan(data)
    first = np.full(out.shape, rows, np.int64)
    np.minimum.at(first, ids, np.where(isnan, pos, rows))
    if last is not None and last.any():
        latest = np.full(out.shape, -1, np.int64)
        np.maximum.at(latest, ids, np.where(isnan, pos, -1))
        cols = np.broadcast_to(last.reshape((1,) + out.shape[1:]), out.shape)
        first = np.where(cols & (latest >= 0), latest, first)
    take = nan & (first < rows)
    vals = np.take_along_axis(data, np.minimum(first, rows - 1), axis=0)
    out = np.array(out, copy=True)
    out[take] = quieted(vals[take].astype(out.dtype))
    return out


def unsorted_segment_last_columns(dt: np.dtype, inner: tuple[int, ...]) -> np.ndarray:
    """The columns of an UnsortedSegmentSum/Prod row (inner shape `inner`) whose NaN is the last NaN row's on TF 2.21's
    x86 build (nansweep67, /work/wt/nansweep67_logs/probe_seg.py; every other column keeps the first's): float32 and
    float64 rows of one element (the scalar `output(j) op= data(i)` compiled with data first), and float64's first
    four lanes of each full block of 16 columns."""
    cols = int(np.prod(inner, dtype=np.int64)) if inner else 1
    last = np.zeros(cols, bool)
    if dt in (np.float32, np.float64) and cols == 1:
        last[:] = True
    elif dt == np.float64:
        c = np.arange(cols)
        last = (c < (cols // 16) * 16) & (c % 16 < 4)
    return last.reshape(inner)
