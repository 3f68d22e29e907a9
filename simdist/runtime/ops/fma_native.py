"""The compiled in-order float32 fused-multiply-add products (_fma.c), and the guard against a stale build.

oneDNN's float32 products as simdist models them (contraction_order.ordered_matmul's fused order: MatMul,
Conv2D, einsum; onednn_matmul.matmul_transposed_b's 16 lanes) cost a NumPy pass over the output per k in pure
Python: most of a training step's CPU under a oneDNN model (docs/benchmarks.md, "Training step", fifty-sixth
session). setup.py compiles _fma.c beside this file when a C compiler works (not with SIMDIST_BUILD_PURE=1),
baking the source's SHA-256 into the module; this module uses the build only if that hash matches the _fma.c
beside it (an edited source sets the build aside, with a warning) and neither SIMDIST_PURE_PYTHON (every compiled
module of simdist off) nor SIMDIST_PURE_KERNELS (these kernels only) is set. The pure-Python kernels stay the
reference: both give identical bits (tests/ops/test_fma_native.py), only the speed differs. The compiled kernels
run without TF's flush-to-zero: each declines (None) a product some step of which may be tiny (ftz_steps.flush_free),
and the caller's pure kernel, which flushes each step as TF's threads do, computes it (fix63m).
"""

from __future__ import annotations

import hashlib
import os
import warnings
from typing import Any

import numpy as np

from simdist.runtime.ops import ftz_steps

__all__ = ["c_map", "ordered_matmul", "matmul_transposed_b", "segment_sums", "state"]

SOURCE = "_fma.c"
_HERE = os.path.dirname(os.path.abspath(__file__))
_state: dict[str, Any] = {}


def _load() -> Any:
    if _state:
        return _state["module"]
    module, reason = None, ""
    for var in ("SIMDIST_PURE_PYTHON", "SIMDIST_PURE_KERNELS"):
        if os.environ.get(var, "") not in ("", "0"):
            reason = f"{var} is set"
            break
    if not reason:
        try:
            from simdist.runtime.ops import _fma as module   # type: ignore[attr-defined]
        except ImportError:
            module, reason = None, "no compiled build"
    if module is not None:
        src = os.path.join(_HERE, SOURCE)
        if os.path.exists(src):   # (an installed wheel may ship the build without its source: nothing to compare)
            with open(src, "rb") as fh:
                digest = hashlib.sha256(fh.read()).hexdigest()
            if getattr(module, "SOURCE_SHA256", "") != digest:
                reason = f"the compiled build is out of date with {SOURCE} (edited since the build)"
                warnings.warn(f"simdist.runtime.ops.fma_native: {reason}; using the pure-Python kernels. Rebuild with "
                              "`pip install -e .` or `python setup.py build_ext --inplace`.", RuntimeWarning,
                              stacklevel=3)
                module = None
    _state.update(module=module, compiled=module is not None, reason=reason or "compiled build up to date")
    return module


def state() -> dict[str, Any]:
    """Whether the compiled kernels are in use, and why (for benchmarks and bug reports)."""
    _load()
    return {k: v for k, v in _state.items() if k != "module"}


def ordered_matmul(x: np.ndarray, y: np.ndarray) -> np.ndarray | None:
    """x [..., m, k] @ y [..., k, n] (float32, NumPy broadcasting over the batch) over k in order with fused
    multiply-adds from +0, compiled; None when the compiled kernels are not in use."""
    mod = _load()
    if mod is None or x.dtype != np.float32 or y.dtype != np.float32 or x.ndim < 2 or y.ndim < 2 \
            or not ftz_steps.flush_free(x, y):
        return None
    m, k = x.shape[-2:]
    n = y.shape[-1]
    if x.ndim == y.ndim == 2:   # (MatMul's case: no batch to broadcast)
        batch: tuple = ()
    else:
        batch = np.broadcast_shapes(x.shape[:-2], y.shape[:-2])
        x, y = np.broadcast_to(x, batch + (m, k)), np.broadcast_to(y, batch + (k, n))
    count = int(np.prod(batch, dtype=np.int64))
    if n < _FLIP_BELOW and m > n:
        # few columns (a Dense layer's logits h @ W: n = 10): the kernel's inner loop runs along a row of the
        # output, so compute the transpose, y^T x^T, whose rows are long; the same products (fma(a, b, c) is
        # fma(b, a, c) bit for bit: the product is exact) in the same order over k. 256x256x10: 0.23 -> 0.11 ms.
        yt = np.ascontiguousarray(np.swapaxes(y, -1, -2))
        xt = np.ascontiguousarray(np.swapaxes(x, -1, -2))
        out_t = np.empty(batch + (n, m), np.float32)
        mod.ordered(yt, xt, out_t, count, n, k, m)
        return _noted(np.ascontiguousarray(np.swapaxes(out_t, -1, -2)))
    out = np.empty(batch + (m, n), np.float32)
    mod.ordered(np.ascontiguousarray(x), np.ascontiguousarray(y), out, count, m, k, n)
    return _noted(out)


def _noted(out: np.ndarray) -> np.ndarray:
    """`out`, with an underflow noted where it holds a subnormal, as NumPy's error callback notes the pure loop's
    (runtime/subnormals.py): dispatch then flushes the result as TF's FTZ threads do (a [1, 3] x [3, 1] product of
    1e-20s is 0 in TF 2.21: tests/ops/test_subnormals_tf.py matmul-underflows; the compiled kernel's C arithmetic
    raises no NumPy callback, so its subnormal results were kept). One difference stays: a subnormal result that is
    exact (no rounding: 2^-70 x 2^-70) is noted here, flushed as TF's FTZ flushes it, where the pure loop's exact cast
    raises no underflow and keeps it."""
    if out.size and float(np.min(np.abs(out), initial=np.inf, where=out != 0)) < _TINY32:
        from simdist.runtime import subnormals
        subnormals._fired[0] = True
    return out


_TINY32 = float(np.finfo(np.float32).tiny)


_FLIP_BELOW = 32   # (columns: below this, and fewer than the rows, the product is computed transposed)


def matmul_transposed_b(x: np.ndarray, y: np.ndarray) -> np.ndarray | None:
    """x [m, k] @ y [k, n] (float32, 2-D) in oneDNN's transpose_b kernel's 16 lanes, compiled; None when the
    compiled kernels are not in use."""
    mod = _load()
    if mod is None or x.dtype != np.float32 or y.dtype != np.float32 or x.ndim != 2 or y.ndim != 2 \
            or not ftz_steps.flush_free(x, y):
        return None
    m, k = x.shape
    n = y.shape[1]
    out = np.empty((m, n), np.float32)
    mod.lanes16(np.ascontiguousarray(x), np.ascontiguousarray(y.T), out, m, k, n)
    return _noted(out)


def c_map(fn: Any, dtype: np.dtype, args: tuple) -> np.ndarray | None:
    """fn(*elements) over 1-d arrays `args` (one or two, of float32/float64 `dtype`, one length) for a ctypes C
    function `fn` of that dtype (libm.scalar_map's functions), the loop compiled (_fma.c's map: the same function
    called on the same values, so the same bits, without a Python call per element); None when the compiled kernels
    are not in use."""
    mod = _load()
    if mod is None or len(args) not in (1, 2) or dtype not in (np.dtype(np.float32), np.dtype(np.float64)):
        return None
    import ctypes
    arrays = [np.ascontiguousarray(a, dtype) for a in args]
    n = arrays[0].size
    if any(a.ndim != 1 or a.size != n for a in arrays):
        return None
    out = np.empty(n, dtype)
    address = ctypes.cast(fn, ctypes.c_void_p).value
    mod.map(address, "f" if dtype == np.float32 else "d", len(arrays), arrays[0], arrays[-1], out, n)
    return out


# ---- _fma_rows.c (conv60): segmented sums, a second module, optional ----

ROWS_SOURCE = "_fma_rows.c"
_rows_state: dict[str, Any] = {}


def _load_rows() -> Any:
    """The compiled _fma_rows module, or None: not built (an older build of the package: the caller's NumPy path),
    out of date with _fma_rows.c (with a warning), or the pure kernels asked for (as _load)."""
    if _rows_state:
        return _rows_state["module"]
    module = None
    if _load() is not None:   # (the same switches and the same compiler as _fma)
        try:
            from simdist.runtime.ops import _fma_rows as module   # type: ignore[attr-defined]
        except ImportError:
            module = None
    if module is not None:
        src = os.path.join(_HERE, ROWS_SOURCE)
        if os.path.exists(src):
            with open(src, "rb") as fh:
                digest = hashlib.sha256(fh.read()).hexdigest()
            if getattr(module, "SOURCE_SHA256", "") != digest:
                warnings.warn(f"simdist.runtime.ops.fma_native: the compiled build is out of date with {ROWS_SOURCE} "
                              "(edited since the build); using the NumPy path. Rebuild with `pip install -e .`.",
                              RuntimeWarning, stacklevel=3)
                module = None
    _rows_state["module"] = module
    return module


def segment_sums(x: np.ndarray, y: np.ndarray, acc: np.ndarray, ends: np.ndarray) -> np.ndarray | None:
    """acc [k, n] + each row segment's in-order fused sum of x [p, k]^T y [p, n] from +0 (segment i the rows up to
    ends[i]), the segments' partials added to acc one after another in float32: a new array; None when the
    compiled module is not in use."""
    mod = _load_rows()
    if mod is None or x.dtype != np.float32 or y.dtype != np.float32 or x.ndim != 2 or y.ndim != 2 \
            or not (ftz_steps.flush_free(x, y) and ftz_steps.flush_free(acc, np.ones(1, np.float32))):
        return None
    p, k = x.shape
    n = y.shape[1]
    out = np.array(acc, np.float32, order="C", copy=True)
    mod.segments(np.ascontiguousarray(x), np.ascontiguousarray(y), out, np.ascontiguousarray(ends, np.int64), p, k, n)
    return _noted(out)
