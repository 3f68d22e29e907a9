"""The compiled in-order float32 FMA products (simdist/runtime/ops/_fma.c, loaded by fma_native) give the bits of
their pure-Python references: contraction_order.ordered_fma_pure (oneDNN's plain MatMul, Conv2D and einsum
products: fused multiply-adds over k in order from +0) and onednn_matmul.transposed_b_pure (the transpose_b kernel's
16 lanes added by halves), over seeded random products: shapes at the boundaries (k = 0, 1, 15, 16, 17, ...;
one row, one column, broadcast batches), ties (a product whose float64 sum with the accumulator is a float32
midpoint while the exact sum is not: the pure kernels' double-rounding fix, normal and subnormal), subnormals,
+-inf, NaN, -0.0 and huge values (overflow). NaN outputs must be NaN in both, their sign and payload aside (the
contract in _fma.c). And the build guard: a stale build (its baked source digest not the _fma.c beside it) and
SIMDIST_PURE_KERNELS fall back to the pure kernels."""

from __future__ import annotations

import hashlib
import os
import sys
import types

import numpy as np
import pytest

import simdist.runtime.ops as ops_package
from simdist.runtime.ops import contraction_order, fma_native, ftz_steps, onednn_matmul

clause = pytest.mark.clause

F32 = np.float32
_COMPILED = fma_native.state()["compiled"]
needs_build = pytest.mark.skipif(not _COMPILED, reason=f"compiled kernels not in use: {fma_native.state()['reason']}")

_SPECIALS = np.array([0.0, -0.0, np.inf, -np.inf, np.nan, 3.4e38, -3.4e38, 1e-45, -1e-45, 1.1754942e-38, 1e-40,
                      1.0, -1.0, 2.0 ** -24, 1 + 2.0 ** -23, 6e-39], F32)


def _same_bits(got: np.ndarray | None, want: np.ndarray, what: str, x: np.ndarray | None = None,
               y: np.ndarray | None = None) -> None:
    if got is None and x is not None and y is not None:
        # (the compiled kernels run without TF's flush-to-zero: they decline a product some step of which may be
        # tiny, and only such a product; the pure kernels, which flush each step, compute it: fix63m)
        assert not ftz_steps.flush_free(x, y), f"{what}: the compiled kernel declined a product no step of can flush"
        return
    assert got is not None, f"{what}: the compiled kernel declined it"
    assert got.shape == want.shape and got.dtype == want.dtype == F32, \
        f"{what}: compiled {got.dtype}{got.shape}, pure {want.dtype}{want.shape}"
    gb, wb = got.view(np.uint32), want.view(np.uint32)
    bad = (gb != wb) & ~(np.isnan(got) & np.isnan(want))
    if bad.any():
        idx = [tuple(int(i) for i in ix) for ix in np.argwhere(bad)[:5]]
        lines = "; ".join(f"element {i}: expected (pure) {int(wb[i]):#010x} = {want[i]!r}, "
                          f"got (compiled) {int(gb[i]):#010x} = {got[i]!r}" for i in idx)
        raise AssertionError(f"{what}: {int(bad.sum())} of {bad.size} elements differ: {lines}")


def _operand(r: np.random.RandomState, shape: tuple, kind: str) -> np.ndarray:
    a = r.standard_normal(shape).astype(F32)
    if kind == "specials" and a.size:
        idx = r.randint(0, a.size, a.size // 4 + 1)
        a.flat[idx] = r.choice(_SPECIALS, idx.size)
    elif kind == "wide":   # magnitudes 2^-140 .. 2^100: subnormal products and sums, overflow
        a = (a.astype(np.float64) * 2.0 ** r.randint(-140, 100, shape)).astype(F32)
    elif kind == "tiny":   # subnormal operands and results (below 2^-126)
        a = (a.astype(np.float64) * 2.0 ** r.randint(-149, -120, shape)).astype(F32)
    elif kind == "huge":   # products and sums past FLT_MAX
        a = (a * F32(2.0 ** 62)).astype(F32)
    elif kind == "signed zeros" and a.size:
        a[r.rand(*shape) < 0.5] = F32(-0.0)
    return a


_KINDS = ["normal", "specials", "wide", "tiny", "huge", "signed zeros"]
_DIMS = [0, 1, 2, 3, 15, 16, 17, 31, 33]


def _tie_product(r: np.random.RandomState, subnormal: bool) -> tuple[np.ndarray, np.ndarray]:
    """One row of one column: x [1, 2] @ y [2, 1] = fma(a, b, c·1) where the float64 sum c + a·b lands on a float32
    midpoint and the exact sum lies just beside it: a·b = ±h(1 - 2^-46) with h half a float32 step of c (the exact
    sum h·2^-46 short of the midpoint, far below a float64 step). `subnormal`: c on float32's subnormal grid
    (h = 2^-150, a and b normal)."""
    if subnormal:
        c = F32(r.randint(-(1 << 20), 1 << 20) * 2.0 ** -149)
        a, b = F32((1 + 2.0 ** -23) * 2.0 ** -75), F32((1 - 2.0 ** -23) * 2.0 ** -75)
    else:
        c = F32(r.standard_normal() * 2.0 ** r.randint(-100, 100))
        h = float(np.spacing(np.abs(c))) / 2
        a, b = F32(1 + 2.0 ** -23), F32((1 - 2.0 ** -23) * h)
    sign = F32(r.choice([-1.0, 1.0]))
    return np.array([[c, sign * a]], F32), np.array([[1.0], [b]], F32)


@clause("ops.packet-paths")
@needs_build
@pytest.mark.parametrize("kind", _KINDS)
def test_ordered_product_is_the_pure_kernels_bit_for_bit(kind: str) -> None:
    r = np.random.RandomState(56_000 + _KINDS.index(kind))
    for m in _DIMS:
        for k in _DIMS:
            n = int(r.choice(_DIMS[1:]))
            x, y = _operand(r, (m, k), kind), _operand(r, (k, n), kind)
            with np.errstate(all="ignore"):
                _same_bits(fma_native.ordered_matmul(x, y), contraction_order.ordered_fma_pure(x, y),
                           f"ordered {kind} x{x.shape} @ y{y.shape}", x, y)
    for xs, ys in (((3, 4, 5), (3, 5, 2)), ((2, 1, 3, 7), (4, 7, 6)), ((5, 9), (2, 9, 3)), ((1, 16), (16, 17))):
        x, y = _operand(r, xs, kind), _operand(r, ys, kind)
        with np.errstate(all="ignore"):
            _same_bits(fma_native.ordered_matmul(x, y), contraction_order.ordered_fma_pure(x, y),
                       f"ordered {kind} batched x{xs} @ y{ys}", x, y)


@clause("ops.packet-paths")
@needs_build
@pytest.mark.parametrize("kind", _KINDS)
def test_transposed_b_lanes_are_the_pure_kernels_bit_for_bit(kind: str) -> None:
    r = np.random.RandomState(56_100 + _KINDS.index(kind))
    for m in (1, 2, 3, 15, 16):
        for k in _DIMS:
            n = int(r.choice(_DIMS[1:]))
            x, y = _operand(r, (m, k), kind), _operand(r, (k, n), kind)
            with np.errstate(all="ignore"):
                _same_bits(fma_native.matmul_transposed_b(x, y), onednn_matmul.transposed_b_pure(x, y),
                           f"transposed_b {kind} x{x.shape} @ y{y.shape}", x, y)
    x, y = _operand(r, (4, 40), kind), _operand(r, (20, 40), kind).T   # y a transposed view, as MatMul passes it
    with np.errstate(all="ignore"):
        _same_bits(fma_native.matmul_transposed_b(x, y), onednn_matmul.transposed_b_pure(x, y),
                   f"transposed_b {kind} x{x.shape} @ y{y.shape} (a view)", x, y)


@clause("ops.packet-paths")
@pytest.mark.parametrize("subnormal", [False, True], ids=["normal", "subnormal"])
def test_ties_round_once(subnormal: bool) -> None:
    """The pure kernels' rounding is fmaf's, not the float64 sum's rounded again (both directions of a tie on
    float32's normal grid; on its subnormal grid every step flushes, as TF's FTZ does); the compiled kernels agree
    where built."""
    r = np.random.RandomState(56_200 + subnormal)
    moved = 0
    for case in range(200):
        x, y = _tie_product(r, subnormal)
        c, a, b = (float(v) for v in (x[0, 0], x[0, 1], y[1, 0]))
        s64 = np.float64(c) + np.float64(a) * np.float64(b)   # lands on the midpoint
        # the exact sum is s64 - a·b·2^-46 (to within far less than a float64 step): s64 nudged one float64 step that
        # way rounds as the exact sum (s64 a float32 midpoint or a float32 value)
        want = F32(np.nextafter(s64, -np.inf if a * b > 0 else np.inf))
        if subnormal:
            # (under TF's FTZ each step below 2^-126 is a zero of its sign: c·1 flushes, then a·b onto that zero does,
            # so the chain ends on a·b's sign; the subnormal grid's ties are never written, fix63m)
            want = np.copysign(F32(0), F32(a * b))
        pure = contraction_order.ordered_fma_pure(x, y)
        assert pure.view(np.uint32)[0, 0] == want.view(np.uint32), \
            (f"case {case}: fma({a!r}, {b!r}, {c!r}) expected {int(want.view(np.uint32)):#010x} = {want!r}, "
             f"got (pure) {int(pure.view(np.uint32)[0, 0]):#010x} = {pure[0, 0]!r}")
        moved += want != F32(s64)
        # the same fma in lane 0 of the transpose_b kernel: c at k = 0, a·b at k = 16 (the other lanes 0)
        x17, y17 = np.zeros((2, 17), F32), np.zeros((17, 1), F32)
        x17[0, 0], x17[0, 16], y17[0, 0], y17[16, 0] = x[0, 0], x[0, 1], y[0, 0], y[1, 0]
        lanes = onednn_matmul.transposed_b_pure(x17, y17)[:1]
        # (a flushed chain is a zero, whose sign the lanes' sum with +0.0 lanes sets: the same only off FTZ)
        _same_bits(lanes, pure if not subnormal else np.abs(pure),
                   f"case {case}: transposed_b_pure against ordered_fma_pure")
        if _COMPILED:
            _same_bits(fma_native.ordered_matmul(x, y), pure, f"case {case}: compiled ordered", x, y)
            lanes17 = fma_native.matmul_transposed_b(x17, y17)
            _same_bits(None if lanes17 is None else lanes17[:1], pure, f"case {case}: compiled transposed_b", x17, y17)
    if subnormal:
        return
    assert moved >= 50, f"only {moved} of 200 ties round otherwise than the float64 sum: the cases test nothing"


def test_a_stale_build_falls_back_to_the_pure_kernels(monkeypatch: pytest.MonkeyPatch) -> None:
    stale = types.ModuleType("simdist.runtime.ops._fma")
    stale.SOURCE_SHA256 = "0" * 64   # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "simdist.runtime.ops._fma", stale)
    monkeypatch.setattr(ops_package, "_fma", stale, raising=False)   # (`from package import _fma` reads it first)
    monkeypatch.setattr(fma_native, "_state", {})
    monkeypatch.delenv("SIMDIST_PURE_PYTHON", raising=False)
    monkeypatch.delenv("SIMDIST_PURE_KERNELS", raising=False)
    with pytest.warns(RuntimeWarning, match="out of date"):
        st = fma_native.state()
    assert st["compiled"] is False and "out of date" in st["reason"], st
    x = np.ones((2, 3), F32)
    assert fma_native.ordered_matmul(x, x.T) is None
    assert contraction_order.ordered_matmul(x, x.T).tolist() == [[3.0, 3.0], [3.0, 3.0]]


@pytest.mark.parametrize("var", ["SIMDIST_PURE_KERNELS", "SIMDIST_PURE_PYTHON"])
def test_the_pure_switches(monkeypatch: pytest.MonkeyPatch, var: str) -> None:
    monkeypatch.setattr(fma_native, "_state", {})
    monkeypatch.setenv(var, "1")
    st = fma_native.state()
    assert st == {"compiled": False, "reason": f"{var} is set"}, st


@needs_build
def test_the_build_carries_its_source_digest() -> None:
    from simdist.runtime.ops import _fma   # type: ignore[attr-defined]
    with open(os.path.join(os.path.dirname(fma_native.__file__), fma_native.SOURCE), "rb") as fh:
        want = hashlib.sha256(fh.read()).hexdigest()
    assert _fma.SOURCE_SHA256 == want, f"expected the build's digest {want}, got {_fma.SOURCE_SHA256!r}"


def test_setup_builds_the_source_this_module_checks() -> None:
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    with open(os.path.join(root, "setup.py"), encoding="utf-8") as fh:
        text = fh.read()
    assert 'FMA_SOURCE = "simdist/runtime/ops/_fma.c"' in text and 'FMA_NAME = "simdist.runtime.ops._fma"' in text, \
        "setup.py no longer names simdist/runtime/ops/_fma.c as the extension simdist.runtime.ops._fma"


_LIBM = [("expf", 1), ("exp", 1), ("logf", 1), ("log1p", 1), ("tanhf", 1), ("tanh", 1), ("expm1f", 1), ("sinf", 1),
         ("atanf", 1), ("lgammaf", 1), ("powf", 2), ("pow", 2), ("atan2f", 2), ("hypot", 2)]


@needs_build
@pytest.mark.parametrize("name,arity", _LIBM, ids=[n for n, _ in _LIBM])
def test_libm_loop_is_the_ctypes_calls_bit_for_bit(name: str, arity: int, monkeypatch: pytest.MonkeyPatch) -> None:
    """libm.scalar_map's compiled loop (_fma.c's map: the C function called through its pointer) against its ctypes
    call per element, on seeded values with specials (±0, ±inf, NaN, subnormals, huge)."""
    from simdist.runtime.ops import libm
    dtype = np.dtype(np.float32) if name.endswith("f") else np.dtype(np.float64)
    r = np.random.RandomState(56_300 + _LIBM.index((name, arity)))
    specials = np.array([0.0, -0.0, np.inf, -np.inf, np.nan, 1e-40, -1e-45, 1e-310, 3e38, -3e38, 1.0, -1.0, 0.5, 2.0])
    args = []
    for _ in range(arity):
        a = r.standard_normal(300) * r.choice([1e-3, 1.0, 30.0, 1e4], 300)
        a[r.randint(0, 300, 40)] = r.choice(specials, 40)
        with np.errstate(over="ignore"):
            args.append(a.astype(dtype))
    with np.errstate(all="ignore"):
        got = libm.scalar_map(name, *args)
        monkeypatch.setattr(fma_native, "c_map", lambda fn, dt, a: None)
        want = libm.scalar_map(name, *args)
    width = f"u{dtype.itemsize}"
    bad = np.flatnonzero(got.view(width) != want.view(width))
    assert not bad.size, (f"{name}: {bad.size} of {got.size} differ; element {int(bad[0])} of "
                          f"{[a[bad[0]] for a in args]}: expected (ctypes) {want[bad[0]]!r}, got (compiled) "
                          f"{got[bad[0]]!r}")


# ---- _fma_rows.c (conv60): the segmented sums of oneDNN's backward-weights kernel ----

def _segments_pure(x: np.ndarray, y: np.ndarray, acc: np.ndarray, ends: np.ndarray) -> np.ndarray:
    """The reference: each segment's in-order fused sum from +0 (ordered_fma_pure), added to acc in float32."""
    out, start = acc.copy(), 0
    for end in ends:
        part = contraction_order.ordered_fma_pure(np.ascontiguousarray(x[start:end].T), y[start:end])
        out = (out + part).astype(F32)
        start = int(end)
    return out


_ROWS = fma_native._load_rows() is not None
needs_rows = pytest.mark.skipif(not _ROWS, reason="the compiled _fma_rows module is not built")


@clause("ops.packet-paths")
@needs_rows
@pytest.mark.parametrize("kind", _KINDS)
def test_segment_sums_are_the_pure_kernels_bit_for_bit(kind: str) -> None:
    r = np.random.RandomState(60_000 + _KINDS.index(kind))
    for p, k, n, cuts in ((0, 3, 4, []), (5, 1, 1, [5]), (28, 9, 16, [14, 28]), (40, 7, 5, [3, 3, 17, 40]),
                          (30, 18, 33, [1, 2, 30]), (12, 5, 64, [12])):
        x, y = _operand(r, (p, k), kind), _operand(r, (p, n), kind)
        acc = _operand(r, (k, n), kind)
        ends = np.array(cuts, np.int64)
        with np.errstate(all="ignore"):
            got = fma_native.segment_sums(x, y, acc, ends)
            if got is None:   # (declined: a step may flush, fix63m; the caller's NumPy path computes it)
                assert not (ftz_steps.flush_free(x, y) and ftz_steps.flush_free(acc, np.ones(1, F32))), \
                    f"segments {kind}: the compiled kernel declined a product no step of can flush"
                continue
            _same_bits(got, _segments_pure(x, y, acc, ends), f"segments {kind} x{x.shape} y{y.shape} ends {cuts}")


def test_a_stale_rows_build_falls_back(monkeypatch: pytest.MonkeyPatch) -> None:
    stale = types.ModuleType("simdist.runtime.ops._fma_rows")
    stale.SOURCE_SHA256 = "0" * 64   # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "simdist.runtime.ops._fma_rows", stale)
    monkeypatch.setattr(ops_package, "_fma_rows", stale, raising=False)
    monkeypatch.setattr(fma_native, "_rows_state", {})
    if fma_native._load() is None:
        pytest.skip("the compiled _fma module is not in use: _fma_rows is not loaded at all")
    with pytest.warns(RuntimeWarning, match="out of date"):
        assert fma_native.segment_sums(np.ones((2, 3), F32), np.ones((2, 1), F32), np.zeros((3, 1), F32),
                                       np.array([2], np.int64)) is None


def test_setup_builds_the_rows_source() -> None:
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    with open(os.path.join(root, "setup.py"), encoding="utf-8") as fh:
        text = fh.read()
    assert ('ROWS_SOURCE = "simdist/runtime/ops/_fma_rows.c"' in text
            and 'ROWS_NAME = "simdist.runtime.ops._fma_rows"' in text), \
        "setup.py no longer names simdist/runtime/ops/_fma_rows.c as the extension simdist.runtime.ops._fma_rows"
