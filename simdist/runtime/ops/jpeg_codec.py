"""JPEG bytes and pixels as TF 2.21's jpeg_mem.cc (libjpeg-turbo) gives them, through Pillow's
libjpeg-turbo.

Decoding (jpeg::Uncompress): TF's default DCT is JDCT_IFAST ("" and "INTEGER_FAST"; the op's
comment: "sacrificing image quality for speed"), "INTEGER_ACCURATE" JDCT_ISLOW, with fancy
upsampling unless fancy_upscaling=False. Pillow's decoder runs JDCT_ISLOW with fancy upsampling,
or, with its `draft` flag, JDCT_IFAST without fancy upsampling. So for IFAST with fancy upsampling
of a chroma-subsampled image (the default of tf.io.decode_jpeg on a 4:2:0 file), this module asks
Pillow for the YCbCr planes under `draft` (the chroma replicated, so the downsampled samples are
every factor-th one), then does libjpeg-turbo's jdsample.c fancy upsampling (h2v2: the triangle
filter with biases 8 and 7 over 16; h2v1: biases 1 and 2 over 4; h1v2: 1 and 2; only when the
component's downsampled width is > 2 and the scaled DCT size > 1, else replication) and jdcolor.c's
ycc_rgb_convert (16-bit fixed-point tables, FIX(x) = round(x * 65536)) in NumPy.

Encoding (jpeg::Compress): quality (jpeg_set_quality, baseline tables), 4:2:0 chroma unless
chroma_downsampling=False (then 1x1), a grey image 1x1, progressive, optimize_coding, the JFIF
density (unit 1 inch / 2 cm, 300 x 300 by default), XMP as an APP1 marker: Pillow's libjpeg-turbo
writes the same bytes (measured: docs/spec.md io.image-codecs).
"""

from __future__ import annotations

import io
import struct
from typing import Any

import numpy as np

__all__ = ["decode", "encode", "header", "Unsupported"]


class Unsupported(Exception):
    """A JPEG TF decodes that this module cannot decode TF's way (the reason is the message)."""


def header(data: bytes) -> tuple[int, int, int] | None:
    """(height, width, components) of the SOF marker, None when the stream has none before SOS/EOI."""
    if data[:3] != b"\xff\xd8\xff":
        return None
    pos = 2
    while pos + 4 <= len(data):
        if data[pos] != 0xFF:
            return None
        marker = data[pos + 1]
        if marker == 0xFF:
            pos += 1
            continue
        if marker in (0xD8, 0x01) or 0xD0 <= marker <= 0xD7:
            pos += 2
            continue
        seg = struct.unpack(">H", data[pos + 2:pos + 4])[0]
        if marker in (0xC0, 0xC1, 0xC2, 0xC3, 0xC5, 0xC6, 0xC7, 0xC9, 0xCA, 0xCB, 0xCD, 0xCE, 0xCF):
            if pos + 10 > len(data):
                return None
            h, w = struct.unpack(">HH", data[pos + 5:pos + 9])
            return h, w, data[pos + 9]
        if marker in (0xDA, 0xD9):
            return None
        pos += 2 + seg
    return None


def _fix(x: float) -> int:
    return int(x * 65536 + 0.5)


def _ycc_rgb(y: np.ndarray, cb: np.ndarray, cr: np.ndarray) -> np.ndarray:
    """jdcolor.c ycc_rgb_convert's integer tables."""
    y = y.astype(np.int64)
    cb = cb.astype(np.int64) - 128
    cr = cr.astype(np.int64) - 128
    r = y + ((_fix(1.40200) * cr + 32768) >> 16)
    g = y + ((-_fix(0.34414) * cb + 32768 - _fix(0.71414) * cr) >> 16)
    b = y + ((_fix(1.77200) * cb + 32768) >> 16)
    return np.clip(np.stack([r, g, b], -1), 0, 255).astype(np.uint8)


def _shift(p: np.ndarray, axis: int, step: int) -> np.ndarray:
    """p's neighbour along `axis` (step -1: the previous one, +1 the next), edges replicated."""
    if axis == 0:
        return np.concatenate([p[:1], p[:-1]], 0) if step < 0 else np.concatenate([p[1:], p[-1:]], 0)
    return np.concatenate([p[:, :1], p[:, :-1]], 1) if step < 0 else np.concatenate([p[:, 1:], p[:, -1:]], 1)


def _h2v1(p: np.ndarray) -> np.ndarray:
    h, w = p.shape
    o = np.empty((h, 2 * w), np.int64)
    o[:, 0::2] = (p * 3 + _shift(p, 1, -1) + 1) >> 2
    o[:, 1::2] = (p * 3 + _shift(p, 1, 1) + 2) >> 2
    o[:, 0] = p[:, 0]
    o[:, -1] = p[:, -1]
    return o


def _h1v2(p: np.ndarray) -> np.ndarray:
    h, w = p.shape
    o = np.empty((2 * h, w), np.int64)
    o[0::2] = (p * 3 + _shift(p, 0, -1) + 1) >> 2
    o[1::2] = (p * 3 + _shift(p, 0, 1) + 2) >> 2
    return o


def _h2v2(p: np.ndarray) -> np.ndarray:
    h, w = p.shape
    out = np.empty((2 * h, 2 * w), np.int64)
    for v, other in ((0, _shift(p, 0, -1)), (1, _shift(p, 0, 1))):
        cs = p * 3 + other
        o = np.empty((h, 2 * w), np.int64)
        o[:, 0::2] = (cs * 3 + _shift(cs, 1, -1) + 8) >> 4
        o[:, 1::2] = (cs * 3 + _shift(cs, 1, 1) + 7) >> 4
        o[:, 0] = (cs[:, 0] * 4 + 8) >> 4
        o[:, -1] = (cs[:, -1] * 4 + 7) >> 4
        out[v::2] = o
    return out


def _open(data: bytes) -> Any:
    from PIL import Image
    im = Image.open(io.BytesIO(data))
    if im.format != "JPEG":
        raise ValueError("not a JPEG")
    return im


def _load(data: bytes, mode: str | None, scale: int, draft: bool) -> np.ndarray:
    im = _open(data)
    if mode is not None and im.mode != mode:
        im.draft(mode, None)
        if im.mode != mode:
            raise Unsupported(f"Pillow cannot decode this {im.mode} JPEG as {mode}")
    im.decoderconfig = (scale, 1 if draft else 0)
    if scale > 1:
        w, h = im.size
        im._size = ((w + scale - 1) // scale, (h + scale - 1) // scale)
        d, e, o, a = im.tile[0]
        im.tile = [type(im.tile[0])(d, (0, 0) + im._size, o, a)]
    im.load()
    arr = np.asarray(im)
    return arr[..., None] if arr.ndim == 2 else arr


def decode(data: bytes, channels: int, ratio: int = 1, fancy: bool = True, dct: str = "") -> np.ndarray:
    """The uint8 (H, W, C) pixels TF's jpeg::Uncompress gives (ValueError: libjpeg refuses the data)."""
    im = _open(data)
    ifast = dct != "INTEGER_ACCURATE"
    ncomp = len(im.layer)
    if im.mode not in ("L", "RGB"):
        raise Unsupported(f"decoding a {im.mode} JPEG TF's way")
    if channels == 1 or (channels == 0 and ncomp == 1):
        out = _load(data, "L", ratio, ifast)
        return np.repeat(out, 3, axis=2) if channels == 3 else out
    if ncomp == 1:
        return np.repeat(_load(data, "L", ratio, ifast), 3, axis=2)
    hs = [lay[1] for lay in im.layer]
    vs = [lay[2] for lay in im.layer]
    hmax, vmax = max(hs), max(vs)
    scaled = 8 // ratio
    factors, widths = [], []
    for c in range(3):   # (jdmaster.c: a component's IDCT scaled up while that replaces upsampling)
        ssize = scaled
        while ssize < 8 and (hmax * scaled) % (hs[c] * ssize * 2) == 0 and (vmax * scaled) % (vs[c] * ssize * 2) == 0:
            ssize *= 2
        factors.append(((hmax * scaled) // (hs[c] * ssize), (vmax * scaled) // (vs[c] * ssize)))
        widths.append(-(-im.size[0] * hs[c] * ssize // (hmax * 8)))
    if all(f == (1, 1) for f in factors):       # (no upsampling: Pillow's conversion is libjpeg's)
        return _load(data, "RGB", ratio, ifast)
    if not ifast and fancy:
        return _load(data, "RGB", ratio, False)
    if not ifast:
        raise Unsupported("JDCT_ISLOW without fancy upsampling of a subsampled JPEG (Pillow has no such mode)")
    ycc = _load(data, "YCbCr", ratio, True).astype(np.int64)
    height, width = ycc.shape[:2]
    planes = [ycc[..., 0]]
    do_fancy = fancy and scaled > 1
    for c in (1, 2):
        (fh, fv), dw = factors[c], widths[c]
        p = ycc[0::fv, 0::fh, c]
        if (fh, fv) == (2, 2) and do_fancy and dw > 2:
            up = _h2v2(p)
        elif (fh, fv) == (2, 1) and do_fancy and dw > 2:
            up = _h2v1(p)
        elif (fh, fv) == (1, 2) and do_fancy:
            up = _h1v2(p)
        elif (fh, fv) in ((1, 1), (2, 1), (1, 2), (2, 2)) or not do_fancy:
            up = np.repeat(np.repeat(p, fv, axis=0), fh, axis=1)
        else:
            raise Unsupported(f"fancy upsampling by {fh}x{fv}")
        planes.append(up[:height, :width])
    return _ycc_rgb(*planes)


def encode(image: np.ndarray, quality: int, progressive: bool, optimize: bool, chroma_downsampling: bool,
           density_unit: int, x_density: int, y_density: int, xmp: bytes) -> bytes:
    """The bytes TF's jpeg::Compress writes for `image` (H, W, 1 or 3) uint8."""
    from PIL import Image
    im = Image.fromarray(image[..., 0] if image.shape[2] == 1 else image)
    kw: dict[str, Any] = {"quality": quality, "progressive": progressive, "optimize": optimize,
                          "subsampling": 2 if chroma_downsampling and image.shape[2] == 3 else 0,
                          "dpi": (1, 1)}
    if xmp:
        kw["xmp"] = xmp
    buf = io.BytesIO()
    im.save(buf, format="JPEG", **kw)
    out = bytearray(buf.getvalue())
    # (the JFIF APP0 segment: unit at byte 13, densities at 14-17, as libjpeg writes TF's values)
    out[13] = density_unit
    out[14:18] = struct.pack(">HH", x_density & 0xFFFF, y_density & 0xFFFF)   # (libjpeg's UINT16 fields: a
    # density of -2 is written 65534; fz31a, sig seed 3120261202 #4)
    return bytes(out)
