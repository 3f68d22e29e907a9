"""PNG bytes as TF 2.21's png_io.cc writes and reads them (libpng 1.6 with zlib), in Python.

Writing (WriteImageToBuffer): signature, IHDR (8 or 16 bits, grey/grey-alpha/RGB/RGBA, no
interlace), the rows filtered as libpng's png_write_find_filter chooses for a non-palette image of
8 or 16 bits (all five filters tried on each row, the smallest sum of the filtered bytes read as
signed magnitudes wins, None first and a later filter only when strictly smaller), compressed with
zlib at the level (-1: 6), memLevel 9 (MAX_MEM_LEVEL), strategy Z_FILTERED (libpng's default when
filtering), windowBits lowered while the image data + 262 fits half the window (png_deflate_claim;
8 raised to 9), the stream's CMF byte then lowered to the smallest window holding the data
(optimize_cmf), split into IDAT chunks of 8192 bytes (PNG_ZBUF_SIZE), then IEND.

Reading: Pillow reads the samples (lossless); `to_channels` applies the conversions TF's
CommonInitDecode asks libpng for (alpha added as the maximum or stripped, tRNS made alpha, grey
made RGB, RGB made grey with png_set_rgb_to_gray(1, 0.299, 0.587)'s truncating integer weights
9797, 19234, 3737 / 32768, 8 bits made 16 as x * 257, 16 made 8 by their high byte).
"""

from __future__ import annotations

import struct
import zlib

import numpy as np

__all__ = ["encode", "decode", "filter_rows"]

_ZBUF = 8192


def _chunk(kind: bytes, data: bytes) -> bytes:
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)


def _signed_sum(row: np.ndarray) -> int:
    v = row.astype(np.int64)
    return int(np.where(v < 128, v, 256 - v).sum())


def _paeth_row(raw: np.ndarray, prior: np.ndarray, bpp: int) -> np.ndarray:
    a = np.concatenate([np.zeros(bpp, np.int64), raw[:-bpp].astype(np.int64)]) if raw.size > bpp else \
        np.zeros(raw.size, np.int64)
    a = a[:raw.size]
    b = prior.astype(np.int64)
    c = np.concatenate([np.zeros(bpp, np.int64), prior[:-bpp].astype(np.int64)])[:raw.size]
    p = a + b - c
    pa, pb, pc = np.abs(p - a), np.abs(p - b), np.abs(p - c)
    pred = np.where((pa <= pb) & (pa <= pc), a, np.where(pb <= pc, b, c))
    return ((raw.astype(np.int64) - pred) & 0xFF).astype(np.uint8)


def filter_rows(rows: np.ndarray, bpp: int) -> bytes:
    """Each row (a 2-D uint8 array of the rows' bytes) prefixed by the filter libpng chooses. png_write_start_row
    first drops the filters that would read a row or a pixel the image lacks: Up, Average and Paeth for an image
    of one row, Sub, Average and Paeth for one of one pixel per row (fz31a: a [1, 4, 3] image of fz30a's open seed
    3020261208 #153, whose Average row simdist chose where libpng may try only None and Sub)."""
    out = bytearray()
    allowed = {0, 1, 2, 3, 4}
    if rows.shape[0] == 1:
        allowed -= {2, 3, 4}
    if rows.shape[1] == bpp:
        allowed -= {1, 3, 4}
    prior = np.zeros(rows.shape[1], np.uint8)
    for raw in rows:
        r64 = raw.astype(np.int64)
        left = np.concatenate([np.zeros(bpp, np.int64), r64[:-bpp]])[:raw.size]
        up = prior.astype(np.int64)
        cands = [raw,
                 ((r64 - left) & 0xFF).astype(np.uint8),
                 ((r64 - up) & 0xFF).astype(np.uint8),
                 ((r64 - ((left + up) >> 1)) & 0xFF).astype(np.uint8),
                 _paeth_row(raw, prior, bpp)]
        best, best_sum = 0, _signed_sum(cands[0])
        for i in sorted(allowed - {0}):
            s = _signed_sum(cands[i])
            if s < best_sum:
                best, best_sum = i, s
        out.append(best)
        out += cands[best].tobytes()
        prior = raw
    return bytes(out)


def _optimize_cmf(data: bytearray, size: int) -> None:
    """libpng's optimize_cmf: the zlib header's window lowered to the smallest that holds `size`."""
    if size > 16384:
        return
    cmf = data[0]
    if (cmf & 0x0F) != 8 or (cmf & 0xF0) > 0x70:
        return
    cinfo = cmf >> 4
    half = 1 << (cinfo + 7)
    if size <= half:
        while True:
            half >>= 1
            cinfo -= 1
            if not (cinfo > 0 and size <= half):
                break
        cmf = (cmf & 0x0F) | (cinfo << 4)
        data[0] = cmf
        tmp = data[1] & 0xE0
        tmp += 0x1F - ((cmf << 8) + tmp) % 0x1F
        data[1] = tmp


def encode(image: np.ndarray, level: int) -> bytes:
    """The PNG bytes TF's EncodePng writes for `image` (H, W, C) of uint8 or uint16, C in 1..4."""
    h, w, c = image.shape
    bits = 16 if image.dtype == np.uint16 else 8
    color = {1: 0, 2: 4, 3: 2, 4: 6}[c]
    px = image.astype(">u2").view(np.uint8) if bits == 16 else image
    rows = np.ascontiguousarray(px).reshape(h, w * c * bits // 8)
    filtered = filter_rows(rows, c * bits // 8)
    size = len(filtered)
    wbits = 15
    if size <= 16384:
        half = 1 << (wbits - 1)
        while size + 262 <= half:
            half >>= 1
            wbits -= 1
    wbits = max(wbits, 9)
    comp = zlib.compressobj(6 if level < 0 else level, zlib.DEFLATED, wbits, 9, zlib.Z_FILTERED)
    stream = bytearray(comp.compress(filtered) + comp.flush())
    _optimize_cmf(stream, size)
    out = [b"\x89PNG\r\n\x1a\n", _chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, bits, color, 0, 0, 0))]
    for i in range(0, len(stream), _ZBUF):
        out.append(_chunk(b"IDAT", bytes(stream[i:i + _ZBUF])))
    out.append(_chunk(b"IEND", b""))
    return b"".join(out)


def _gray_from_rgb(rgb: np.ndarray, bits: int) -> np.ndarray:
    r, g, b = (rgb[..., i].astype(np.int64) for i in range(3))
    y = (9797 * r + 19234 * g + 3737 * b + (16384 if bits == 16 else 0)) >> 15
    same = (r == g) & (r == b)
    return np.where(same, r, y)


def decode(data: bytes, channels: int, want_bits: int) -> np.ndarray | None:
    """The (H, W, C) samples TF's DecodePng gives for `data` (uint8 or uint16), None when libpng
    would refuse it (the kernel's "Invalid PNG" error)."""
    import io

    from PIL import Image
    try:
        im = Image.open(io.BytesIO(data))
        if im.format != "PNG":
            return None
        im.load()
    except Exception:   # (Pillow's refusal of a corrupt stream: TF's libpng refuses it too)
        return None
    info = _ihdr(data)
    if info is None:
        return None
    _, _, bits, color = info
    has_trns = "transparency" in im.info
    if im.mode == "P":
        im = im.convert("RGBA" if has_trns else "RGB")
        bits = 8
        color = 6 if has_trns else 2
    elif has_trns and im.mode in ("L", "RGB", "I;16", "I"):
        has_trns = True
    arr = _samples(im, data, bits, color)
    native = arr.shape[2]
    if channels == 0:
        channels = native + (1 if has_trns and native in (1, 3) else 0)
    alpha = None
    if native in (2, 4):
        alpha = arr[..., -1]
        arr = arr[..., :-1]
    elif has_trns:
        alpha = _trns_alpha(im, arr, bits)
    if channels >= 3 and arr.shape[2] == 1:
        arr = np.repeat(arr, 3, axis=2)
    elif channels < 3 and arr.shape[2] == 3:
        arr = _gray_from_rgb(arr, bits)[..., None]
    top = (1 << bits) - 1
    if channels % 2 == 0:
        a = alpha if alpha is not None else np.full(arr.shape[:2], top, np.int64)
        arr = np.concatenate([arr.astype(np.int64), a.astype(np.int64)[..., None]], axis=2)
    arr = arr.astype(np.int64)
    if bits == 16 and want_bits == 8:
        arr = arr >> 8
    elif bits <= 8 and want_bits == 16:
        arr = arr * 257
    return arr.astype(np.uint16 if want_bits == 16 else np.uint8)


def _ihdr(data: bytes) -> tuple[int, int, int, int] | None:
    if len(data) < 33 or data[12:16] != b"IHDR":
        return None
    w, h, bits, color = struct.unpack(">IIBB", data[16:26])
    return w, h, bits, color


def _trns_alpha(im, arr: np.ndarray, bits: int) -> np.ndarray:
    t = im.info["transparency"]
    if arr.shape[2] == 1:
        key = np.array([t])
    else:
        key = np.array(t)
    return np.where((arr == key).all(axis=2), 0, (1 << bits) - 1)


def _samples(im, data: bytes, bits: int, color: int) -> np.ndarray:
    """The image's samples at their own depth (Pillow keeps 16-bit grey; 16-bit colour is read here)."""
    if bits == 16 and color in (2, 4, 6):
        return _raw16(data)
    if bits < 8 and im.mode in ("1", "L"):   # (grey of 1, 2, 4 bits: libpng's expand to 8 scales them)
        return np.asarray(im.convert("L"), np.uint8)[..., None]
    arr = np.asarray(im)
    if arr.ndim == 2:
        arr = arr[..., None]
    return arr


def _raw16(data: bytes) -> np.ndarray:
    """The samples of a non-interlaced 16-bit colour PNG (Pillow reads these as 8 bits only)."""
    w, h, _, color = _ihdr(data)
    interlace = data[28]
    if interlace:
        raise NotImplementedError("decode_png: an interlaced 16-bit colour PNG (simdist reads it with Pillow, "
                                  "which keeps 8 bits only)")
    c = {0: 1, 2: 3, 4: 2, 6: 4}[color]
    pos, idat = 8, []
    while pos + 8 <= len(data):
        n = struct.unpack(">I", data[pos:pos + 4])[0]
        kind = data[pos + 4:pos + 8]
        if kind == b"IDAT":
            idat.append(data[pos + 8:pos + 8 + n])
        pos += 12 + n
    raw = zlib.decompress(b"".join(idat))
    bpp = 2 * c
    stride = w * bpp
    out = np.zeros((h, stride), np.int64)
    prior = np.zeros(stride, np.int64)
    for y in range(h):
        f = raw[y * (stride + 1)]
        row = np.frombuffer(raw, np.uint8, stride, y * (stride + 1) + 1).astype(np.int64)
        if f == 0:
            cur = row
        elif f == 2:
            cur = (row + prior) & 0xFF
        else:
            cur = np.zeros(stride, np.int64)
            for x in range(stride):
                a = cur[x - bpp] if x >= bpp else 0
                b = prior[x]
                if f == 1:
                    p = a
                elif f == 3:
                    p = (a + b) >> 1
                else:
                    cc = prior[x - bpp] if x >= bpp else 0
                    pp = a + b - cc
                    pa, pb, pc = abs(pp - a), abs(pp - b), abs(pp - cc)
                    p = a if pa <= pb and pa <= pc else b if pb <= pc else cc
                cur[x] = (row[x] + p) & 0xFF
        out[y] = cur
        prior = cur
    return (out[:, 0::2] * 256 + out[:, 1::2]).reshape(h, w, c)
