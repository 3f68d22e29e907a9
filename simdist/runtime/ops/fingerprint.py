"""`tf.fingerprint` (TF's Fingerprint op, fingerprint_op.cc): FarmHash's Fingerprint64
(farmhashna::Hash64) of each batch row's bytes, written little-endian as 8 uint8s.

The row is data[i, ...]'s raw buffer (C order; so reshapes and bitcasts that keep dim 0 keep
the fingerprint); a string row of one element is that string's fingerprint, a string row of
several the fingerprint of its strings' 8-byte fingerprints laid end to end. Any dtype TF can
memcpy and strings; `method` must be the scalar "farmhash64" ("Unsupported fingerprint
method: …"); data of rank 0: "`data` should have at least one dimension: []". TF registers no
gradient for it: a tape differentiating its output raises LookupError (through a cast, None).
FLOPs: 0 (integer mixing).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from simdist.runtime import dtypes, errors
from simdist.runtime.ops import dispatch, trace_errors
from simdist.runtime.ops.args import dims, t as _t
from simdist.runtime.ops.counting import no_tf_gradient
from simdist.runtime.ops.registry import lanes, register
from simdist.runtime.tensor import Tensor, convert_to_tensor

__all__ = ["fingerprint", "farmhash64"]

_M = (1 << 64) - 1
_K0, _K1, _K2 = 0xc3a5c85c97cb3127, 0xb492b66fbe98f273, 0x9ae16a3b2f90404f


def _f64(s: bytes, i: int) -> int:
    return int.from_bytes(s[i:i + 8], "little")


def _f32(s: bytes, i: int) -> int:
    return int.from_bytes(s[i:i + 4], "little")


def _rot(v: int, r: int) -> int:
    return v if r == 0 else ((v >> r) | (v << (64 - r))) & _M


def _smix(v: int) -> int:
    return v ^ (v >> 47)


def _h16(u: int, v: int, mul: int = 0x9ddfea08eb382d69) -> int:
    """HashLen16 (Hash128to64 when mul is its kMul)."""
    a = ((u ^ v) * mul) & _M
    a ^= a >> 47
    b = ((v ^ a) * mul) & _M
    b ^= b >> 47
    return (b * mul) & _M


def _len0to16(s: bytes) -> int:
    n = len(s)
    if n >= 8:
        mul = _K2 + n * 2
        a = (_f64(s, 0) + _K2) & _M
        b = _f64(s, n - 8)
        c = (_rot(b, 37) * mul + a) & _M
        d = ((_rot(a, 25) + b) * mul) & _M
        return _h16(c, d, mul)
    if n >= 4:
        mul = _K2 + n * 2
        return _h16((n + (_f32(s, 0) << 3)) & _M, _f32(s, n - 4), mul)
    if n > 0:
        y = s[0] + (s[n >> 1] << 8)
        z = n + (s[n - 1] << 2)
        return (_smix(((y * _K2) ^ (z * _K0)) & _M) * _K2) & _M
    return _K2


def _len17to32(s: bytes) -> int:
    n = len(s)
    mul = _K2 + n * 2
    a = (_f64(s, 0) * _K1) & _M
    b = _f64(s, 8)
    c = (_f64(s, n - 8) * mul) & _M
    d = (_f64(s, n - 16) * _K2) & _M
    return _h16((_rot((a + b) & _M, 43) + _rot(c, 30) + d) & _M, (a + _rot((b + _K2) & _M, 18) + c) & _M, mul)


def _len33to64(s: bytes) -> int:
    n = len(s)
    mul = _K2 + n * 2
    a = (_f64(s, 0) * _K2) & _M
    b = _f64(s, 8)
    c = (_f64(s, n - 8) * mul) & _M
    d = (_f64(s, n - 16) * _K2) & _M
    y = (_rot((a + b) & _M, 43) + _rot(c, 30) + d) & _M
    z = _h16(y, (a + _rot((b + _K2) & _M, 18) + c) & _M, mul)
    e = (_f64(s, 16) * mul) & _M
    f = _f64(s, 24)
    g = ((y + _f64(s, n - 32)) * mul) & _M
    h = ((z + _f64(s, n - 24)) * mul) & _M
    return _h16((_rot((e + f) & _M, 43) + _rot(g, 30) + h) & _M, (e + _rot((f + a) & _M, 18) + g) & _M, mul)


def _weak32(s: bytes, i: int, a: int, b: int) -> tuple[int, int]:
    w, x, y, z = _f64(s, i), _f64(s, i + 8), _f64(s, i + 16), _f64(s, i + 24)
    a = (a + w) & _M
    b = _rot((b + a + z) & _M, 21)
    c = a
    a = (a + x + y) & _M
    b = (b + _rot(a, 44)) & _M
    return (a + z) & _M, (b + c) & _M


def farmhash64(s: bytes) -> int:
    """FarmHash's Fingerprint64 (farmhashna::Hash64) of a byte string, as an unsigned int."""
    n = len(s)
    if n <= 16:
        return _len0to16(s)
    if n <= 32:
        return _len17to32(s)
    if n <= 64:
        return _len33to64(s)
    seed = 81
    x = seed
    y = (seed * _K1 + 113) & _M
    z = (_smix((y * _K2 + 113) & _M) * _K2) & _M
    v, w = (0, 0), (0, 0)
    x = (x * _K2 + _f64(s, 0)) & _M
    end = ((n - 1) // 64) * 64
    p = 0
    while True:
        x = (_rot((x + y + v[0] + _f64(s, p + 8)) & _M, 37) * _K1) & _M
        y = (_rot((y + v[1] + _f64(s, p + 48)) & _M, 42) * _K1) & _M
        x ^= w[1]
        y = (y + v[0] + _f64(s, p + 40)) & _M
        z = (_rot((z + w[0]) & _M, 33) * _K1) & _M
        v = _weak32(s, p, (v[1] * _K1) & _M, (x + w[0]) & _M)
        w = _weak32(s, p + 32, (z + w[1]) & _M, (y + _f64(s, p + 16)) & _M)
        z, x = x, z
        p += 64
        if p == end:
            break
    mul = (_K1 + ((z & 0xff) << 1)) & _M
    p = n - 64
    w = ((w[0] + ((n - 1) & 63)) & _M, w[1])
    v = ((v[0] + w[0]) & _M, v[1])
    w = ((w[0] + v[0]) & _M, w[1])
    x = (_rot((x + y + v[0] + _f64(s, p + 8)) & _M, 37) * mul) & _M
    y = (_rot((y + v[1] + _f64(s, p + 48)) & _M, 42) * mul) & _M
    x ^= (w[1] * 9) & _M
    y = (y + v[0] * 9 + _f64(s, p + 40)) & _M
    z = (_rot((z + w[0]) & _M, 33) * mul) & _M
    v = _weak32(s, p, (v[1] * mul) & _M, (x + w[0]) & _M)
    w = _weak32(s, p + 32, (z + w[1]) & _M, (y + _f64(s, p + 16)) & _M)
    z, x = x, z
    return _h16((_h16(v[0], w[0], mul) + _smix(y) * _K0 + z) & _M, (_h16(v[1], w[1], mul) + x) & _M, mul)


def _le8(h: int) -> bytes:
    return h.to_bytes(8, "little")


def _as_bytes(v: Any) -> bytes:
    return v if isinstance(v, bytes) else str(v).encode("utf-8")


def _fingerprint(data: np.ndarray, method: np.ndarray) -> np.ndarray:
    if method.ndim != 0:
        raise errors.InvalidArgumentError(None, None, f"`method` should be a scalar string: {dims(method.shape)} "
                                                      "[Op:Fingerprint]")
    m = method.item()
    if _as_bytes(m) != b"farmhash64":
        raise errors.InvalidArgumentError(None, None, f"Unsupported fingerprint method: {_as_bytes(m).decode()} "
                                                      "[Op:Fingerprint]")
    if data.ndim == 0:     # (traced: the shape function's WithRankAtLeast(1))
        raise trace_errors.shape_error("`data` should have at least one dimension: [] [Op:Fingerprint]",
                                       "Shape must be at least rank 1 but is rank 0", "Fingerprint",
                                       ([], list(method.shape)))
    rows = data.shape[0]
    if data.dtype == object:
        flat = data.reshape(rows, -1) if rows else data.reshape(0, 0)
        out = []
        for r in flat:
            hs = [farmhash64(_as_bytes(v)) for v in r]
            out.append(_le8(hs[0]) if len(hs) == 1 else _le8(farmhash64(b"".join(_le8(h) for h in hs))))
    else:
        raw = np.ascontiguousarray(data).reshape(rows, -1) if rows else data.reshape(0, 0)
        out = [_le8(farmhash64(r.tobytes())) for r in raw]
    return np.frombuffer(b"".join(out), np.uint8).reshape(rows, 8).copy()


def _rule(dts: Any, attrs: Any) -> dtypes.DType:
    if dts[1] != dtypes.string:
        raise errors.InvalidArgumentError(None, None, "cannot compute Fingerprint as input #1(zero-based) was expected "
                                                      f"to be a string tensor but is a {dts[1].name} tensor "
                                                      "[Op:Fingerprint]")
    return dtypes.uint8


FINGERPRINT = register("Fingerprint", _fingerprint, _rule, lambda a, out, at: 0.0, kind="gather/scatter",
                       fusion=lanes("hashes each row's bytes in Python: no stacked form written"))
FINGERPRINT.shape_fn = lambda shapes, attrs: shapes[0] is not None
no_tf_gradient("Fingerprint")    # TF registers none: differentiating its output is LookupError


def fingerprint(data: Any, method: Any = "farmhash64", name: str | None = None) -> Tensor:
    """`tf.fingerprint`: [data.shape[0], 8] uint8, FarmHash64 of each row, little-endian."""
    mt = method if isinstance(method, Tensor) else convert_to_tensor(method, dtype=dtypes.string)
    x = _t(data)
    from simdist.runtime import context
    if context.in_function() and mt.dtype == dtypes.string:
        _shape_fn(x, mt)
    return dispatch.execute(FINGERPRINT, (x, mt))


def _shape_fn(x: Tensor, mt: Tensor) -> None:
    """Fingerprint's shape function, which a graph build runs (array_ops.cc): data of rank at
    least 1, method of rank 0, and a method the graph knows (a constant) must be "farmhash64"; a
    ValueError at trace where the eager kernel raises InvalidArgumentError."""
    from simdist.runtime.ops import graph_constants, static_shapes
    xs, ms = static_shapes.known_shape(x), static_shapes.known_shape(mt)
    shown = ", ".join("?" if sh is None else trace_errors.shapes_text([sh]) for sh in (xs, ms))

    def fail(text: str) -> None:
        raise trace_errors.static(ValueError(text), ValueError,
                                  f"{text} for '{{{{node Fingerprint}}}}' with input shapes: {shown}.")

    if xs is not None and len(xs) < 1:
        fail(f"Shape must be at least rank 1 but is rank {len(xs)}")
    if ms is not None and len(ms) != 0:
        fail(f"Shape must be rank 0 but is rank {len(ms)}")
    if ms is not None and graph_constants.known(mt):
        m = _as_bytes(np.asarray(mt._v).item())
        if m != b"farmhash64":
            fail(f"Unsupported method: {m.decode(errors='replace')}")
