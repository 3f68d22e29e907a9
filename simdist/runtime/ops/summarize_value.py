"""TF's Tensor::SummarizeValue (tensorflow/core/framework/tensor.cc): a tensor as text, in the
Assert kernel's format (`print_v2=False`) or in tf.print's and tf.strings.format's (`True`).

At most `max_entries` elements (all of them when negative). An element as strings::StrCat prints
it (PrintOneElement): a float as %g with 6 significant digits, 9 when those do not read back as
the same float ("inf", "-inf", "nan", "-nan"); a double 15, then 17; half and bfloat16 converted
to float first; a float or double that is subnormal (after that conversion: a bfloat16 one, not a
half one) as a zero of its sign, as TF's kernels read floats with the CPU's DAZ flag set; a bool 1 or 0; an integer in decimal; a string C-escaped (absl's Utf8SafeCEscape:
\\n \\r \\t \\" \\' \\\\ and other control bytes in octal, bytes of UTF-8 sequences as they are),
in double quotes in the v2 format. Complex and other dtypes print "?" per element.

v1 (PrintOneDim): the first `max_entries` elements in row-major order, spaces between, each row
of a matrix or more in brackets, "..." where it stops inside a row and after the whole when it
stops early. v2 (PrintOneDimV2): every dimension in brackets, the first and last `max_entries`
entries of each with "..." between when it has more than twice that many; entries of the last
dimension separated by a space, of dimension d by (rank - d - 1) newlines and d + 1 spaces.
An empty bool tensor (or `max_entries` 0 on a bool one) is "" (the kernel has no data to read).
"""

from __future__ import annotations

import numpy as np

__all__ = ["summarize_value", "element"]

_ESCAPES = {0x0A: "\\n", 0x0D: "\\r", 0x09: "\\t", 0x22: '\\"', 0x27: "\\'", 0x5C: "\\\\"}


def _c_escape(raw: bytes) -> str:
    """absl::Utf8SafeCEscape: printable ASCII as is, the six named escapes, other ASCII control
    bytes as three octal digits, bytes >= 0x80 passed through (decoded as UTF-8 where they form it)."""
    out = bytearray()
    for c in raw:
        e = _ESCAPES.get(c)
        if e is not None:
            out += e.encode()
        elif c < 0x80 and not 0x20 <= c < 0x7F:
            out += f"\\{c:03o}".encode()
        else:
            out.append(c)
    return out.decode("utf-8", errors="surrogateescape")


def _float_text(v: float, short: int, full: int, same: type) -> str:
    """tsl's FloatToBuffer / DoubleToBuffer: %g with `short` digits, `full` when it does not round trip."""
    if np.isnan(v):
        return "-nan" if np.signbit(v) else "nan"
    if np.isinf(v):
        return "-inf" if v < 0 else "inf"
    text = f"{v:.{short}g}"
    if same(float(text)) != same(v):
        text = f"{v:.{full}g}"
    return text


_FLT_MIN = float(np.finfo(np.float32).tiny)
_DBL_MIN = float(np.finfo(np.float64).tiny)


def _daz(v: float, smallest_normal: float) -> float:
    """v as a kernel under DAZ reads it: a subnormal is a zero of its sign."""
    return float(np.copysign(0.0, v)) if 0.0 < abs(v) < smallest_normal else v


def element(v: object, dtype: np.dtype, print_v2: bool) -> str:
    """One element as PrintOneElement and StrCat print it ("?" for a dtype SummarizeValue does not format)."""
    kind = dtype.kind
    if kind == "b":
        return "1" if v else "0"
    if dtype.itemsize == 8 and kind == "f":
        return _float_text(_daz(float(v), _DBL_MIN), 15, 17, float)
    if kind == "f" or dtype.name == "bfloat16":     # (half and bfloat16: static_cast<float> first)
        return _float_text(_daz(float(np.float32(v)), _FLT_MIN), 6, 9, np.float32)
    if kind in "iu":
        return str(int(v))
    if kind in "OSU":
        raw = v if isinstance(v, bytes) else str(v).encode()
        text = _c_escape(raw)
        return f'"{text}"' if print_v2 else text
    return "?"


def _dim_spacing(d: int, rank: int, out: list[str]) -> None:
    """PrintDimSpacing: between entries of dimension d."""
    if d == rank - 1:
        out.append(" ")
    else:
        out.append("\n" * (rank - d - 1) + " " * (d + 1))


def _one_dim_v2(arr: np.ndarray, flat: np.ndarray, d: int, ends: int, start: int, out: list[str]) -> None:
    """PrintOneDimV2: dimension d from flat index `start` (a module function: a nested function
    calling itself is a reference cycle)."""
    if d == arr.ndim:
        out.append(element(flat[start], arr.dtype, True))
        return
    out.append("[")
    count = arr.shape[d]
    step = int(np.prod(arr.shape[d + 1:], dtype=np.int64))
    for i in range(min(ends, count)):
        if i > 0:
            _dim_spacing(d, arr.ndim, out)
        _one_dim_v2(arr, flat, d + 1, ends, start + step * i, out)
    if count > 2 * ends:
        _dim_spacing(d, arr.ndim, out)
        out.append("...")
    for i in range(max(ends, count - ends), count):
        _dim_spacing(d, arr.ndim, out)
        _one_dim_v2(arr, flat, d + 1, ends, start + step * i, out)
    out.append("]")


def _one_dim_v1(arr: np.ndarray, flat: np.ndarray, d: int, limit: int, index: list[int], out: list[str]) -> None:
    """PrintOneDim: dimension d of arr from element index[0] on."""
    if index[0] >= limit:
        return
    count = arr.shape[d]
    if d == arr.ndim - 1:
        for i in range(count):
            if index[0] >= limit:
                if d != 0:
                    out.append("...")
                return
            if i > 0:
                out.append(" ")
            out.append(element(flat[index[0]], arr.dtype, False))
            index[0] += 1
        return
    for _ in range(count):
        opened = index[0] < limit
        if opened:
            out.append("[")
        _one_dim_v1(arr, flat, d + 1, limit, index, out)
        if index[0] < limit or opened:
            out.append("]")


def _regular(dtype: np.dtype) -> bool:
    return dtype.kind in "biuOSU" or dtype.kind == "f" or dtype.name == "bfloat16"


def summarize_value(arr: np.ndarray, max_entries: int, print_v2: bool) -> str:
    """Tensor::SummarizeValue(max_entries, print_v2) of the array `arr`."""
    num = int(arr.size)
    if max_entries < 0:
        max_entries = num
    limit = min(max_entries, num)
    flat = arr.reshape(-1)
    if not _regular(arr.dtype):     # the irregular cases: "?" per element
        text = " ".join("?" * limit) + ("..." if max_entries < num else "")
        return f"[{text}]" if print_v2 and arr.ndim > 0 else text
    if arr.dtype.kind == "b" and limit == 0:
        return ""
    if arr.ndim == 0:
        text = " ".join(element(flat[i], arr.dtype, print_v2) for i in range(limit))
        return text + ("..." if num > limit else "")
    out: list[str] = []
    if print_v2:
        _one_dim_v2(arr, flat, 0, limit, 0, out)
        return "".join(out)
    _one_dim_v1(arr, flat, 0, limit, [0], out)
    return "".join(out) + ("..." if num > limit else "")
