"""TF 2.21's GIF decoder (clause io.image-codecs): giflib's reader (DGifOpen, DGifSlurp and its LZW decompressor,
DGifDecompressLine / DGifDecompressInput / DGifBufferedInput) and the frame compositing of
tensorflow/core/lib/gif/gif_io.cc gif::Decode, in pure Python.

giflib: the stream starts "GIF" (D_GIF_ERR_NOT_GIF_FILE otherwise), then the screen descriptor and the global
color map (1 << ((flags & 7) + 1) entries when flags & 0x80); records follow: ',' an image (its descriptor, a local
color map likewise, the LZW code size (at most 8), the pixels LSB-first from sub-blocks, interlaced rows in the
order 0/8, 4/8, 2/4, 1/2, then the rest of its sub-blocks skipped), '!' an extension (its sub-blocks, attached to
the next image), ';' the end; any other byte is D_GIF_ERR_WRONG_RECORD, a short read D_GIF_ERR_READ_FAILED, an
EOI code before the image's last pixel D_GIF_ERR_EOF_TOO_SOON, a zero-length sub-block inside the pixels or a
broken code chain D_GIF_ERR_IMAGE_DEFECT, no image D_GIF_ERR_NO_IMAG_DSCR.

gif_io.cc: a failed DGifSlurp is an error ("failed to slurp gif file: <giflib's text>") when no image was read,
the last image has no pixel buffer yet (it failed in its descriptor) or the error is EOF_TOO_SOON; otherwise the
images read are decoded (a GIF without its trailer decodes). The canvas is the largest frame width by the
largest frame height (not the screen's); frame k starts as frame k - 1 (frame 0 black where it does not cover the
canvas), its rectangle clipped to the canvas; a pixel of the frame's transparent index (its Graphics Control
Extension, the first one attached) keeps the canvas (black in frame 0); an index at or beyond the color map's size
is "found color index 3 outside of color map range 2"; a frame without a color map "missing color map for frame
0". Disposal methods are not read. `expand_animations` False decodes the first frame only (on the canvas of all).

Not modelled: the pixels of an image whose LZW data breaks off (giflib leaves them as the allocation held them;
simdist gives index 0)."""

from __future__ import annotations

import numpy as np

__all__ = ["GifError", "decode"]

_LZ_MAX_CODE = 4095
_LZ_BITS = 12
_NO_SUCH_CODE = 4098

# giflib's GifErrorString
_TEXT = {
    102: "Failed to read from given file",
    103: "Data is not in GIF format",
    104: "No screen descriptor detected",
    105: "No Image Descriptor detected",
    107: "Wrong record type detected",
    112: "Image is defective, decoding aborted",
    113: "Image EOF detected before image complete",
}
_READ_FAILED, _NOT_GIF, _NO_SCREEN, _NO_IMAGE, _WRONG_RECORD, _DEFECT, _EOF_TOO_SOON = 102, 103, 104, 105, 107, 112, 113


class GifError(Exception):
    """gif::Decode's error_string."""


class _Fail(Exception):
    def __init__(self, code: int) -> None:
        super().__init__(code)
        self.code = code


class _Image:
    __slots__ = ("left", "top", "width", "height", "interlace", "cmap", "raster", "extensions")

    def __init__(self) -> None:
        self.raster: np.ndarray | None = None
        self.extensions: list[tuple[int, bytes]] = []


class _Reader:
    def __init__(self, data: bytes) -> None:
        self.data = data
        self.pos = 0

    def read(self, n: int) -> bytes:
        """n bytes, or _Fail(READ_FAILED) when fewer remain (InternalRead's short count)."""
        if self.pos + n > len(self.data):
            self.pos = len(self.data)
            raise _Fail(_READ_FAILED)
        out = self.data[self.pos:self.pos + n]
        self.pos += n
        return out

    def word(self) -> int:
        b = self.read(2)
        return b[0] | (b[1] << 8)


def _color_map(r: _Reader, flags: int) -> np.ndarray | None:
    if not flags & 0x80:
        return None
    count = 1 << ((flags & 7) + 1)
    return np.frombuffer(r.read(3 * count), np.uint8).reshape(count, 3)


class _Lzw:
    """DGifSetupDecompress's state and DGifDecompressLine over a whole image."""

    def __init__(self, r: _Reader, bits: int) -> None:
        self.r = r
        self.bits = bits
        self.clear = 1 << bits
        self.eof = self.clear + 1
        self.running_code = self.eof + 1
        self.running_bits = bits + 1
        self.max_code1 = 1 << self.running_bits
        self.shift_state = 0
        self.shift_dword = 0
        self.block = b""
        self.block_pos = 0
        self.prefix = [_NO_SUCH_CODE] * (_LZ_MAX_CODE + 1)
        self.suffix = [0] * (_LZ_MAX_CODE + 1)

    def _byte(self) -> int:
        """DGifBufferedInput."""
        if self.block_pos >= len(self.block):
            n = self.r.read(1)[0]
            if n == 0:
                raise _Fail(_DEFECT)
            self.block = self.r.read(n)
            self.block_pos = 0
        b = self.block[self.block_pos]
        self.block_pos += 1
        return b

    def _code(self) -> int:
        """DGifDecompressInput."""
        if self.running_bits > _LZ_BITS:
            raise _Fail(_DEFECT)
        while self.shift_state < self.running_bits:
            self.shift_dword |= self._byte() << self.shift_state
            self.shift_state += 8
        code = self.shift_dword & ((1 << self.running_bits) - 1)
        self.shift_dword >>= self.running_bits
        self.shift_state -= self.running_bits
        if self.running_code < _LZ_MAX_CODE + 2:
            self.running_code += 1
            if self.running_code > self.max_code1 and self.running_bits < _LZ_BITS:
                self.max_code1 <<= 1
                self.running_bits += 1
        return code

    def _prefix_char(self, code: int) -> int:
        """DGifGetPrefixChar."""
        i = 0
        while code > self.clear and i <= _LZ_MAX_CODE:
            i += 1
            if code > _LZ_MAX_CODE:
                return _NO_SUCH_CODE
            code = self.prefix[code]
        return code

    def pixels(self, out: np.ndarray) -> None:
        """DGifDecompressLine for all of `out` (the rows of an image are one code stream), then DGifGetLine's skip
        of the sub-blocks left."""
        n = out.size
        i = 0
        stack: list[int] = []
        last = _NO_SUCH_CODE
        prefix, suffix = self.prefix, self.suffix
        while i < n:
            code = self._code()
            if code == self.eof:
                raise _Fail(_EOF_TOO_SOON)
            if code == self.clear:
                for j in range(_LZ_MAX_CODE + 1):
                    prefix[j] = _NO_SUCH_CODE
                self.running_code = self.eof + 1
                self.running_bits = self.bits + 1
                self.max_code1 = 1 << self.running_bits
                last = _NO_SUCH_CODE
                continue
            rc2 = self.running_code - 2
            if code < self.clear:
                out[i] = code
                i += 1
            else:
                if prefix[code] == _NO_SUCH_CODE:
                    crnt = last
                    c = self._prefix_char(last if code == rc2 else code) & 0xFF
                    if rc2 <= _LZ_MAX_CODE:
                        suffix[rc2] = c
                    stack.append(c)
                else:
                    crnt = code
                while len(stack) < _LZ_MAX_CODE and self.clear < crnt <= _LZ_MAX_CODE:
                    stack.append(suffix[crnt])
                    crnt = prefix[crnt]
                if len(stack) >= _LZ_MAX_CODE or crnt > _LZ_MAX_CODE:
                    raise _Fail(_DEFECT)
                stack.append(crnt & 0xFF)
                while stack and i < n:
                    out[i] = stack.pop()
                    i += 1
            if last != _NO_SUCH_CODE and rc2 < _LZ_MAX_CODE + 1 and prefix[rc2] == _NO_SUCH_CODE:
                prefix[rc2] = last
                suffix[rc2] = self._prefix_char(last if code == rc2 else code) & 0xFF
            last = code
        while True:   # (DGifGetCodeNext until the empty sub-block)
            k = self.r.read(1)[0]
            if k == 0:
                return
            self.r.read(k)


def _image(r: _Reader, images: list[_Image], pending: list[tuple[int, bytes]]) -> None:
    """DGifGetImageDesc, then DGifSlurp's raster read."""
    left, top, width, height = r.word(), r.word(), r.word(), r.word()
    flags = r.read(1)[0]
    cmap = _color_map(r, flags)
    img = _Image()
    img.left, img.top, img.width, img.height = left, top, width, height
    img.interlace = bool(flags & 0x40)
    img.cmap = cmap
    images.append(img)
    bits = r.read(1)[0]   # (DGifSetupDecompress: the LZW code size)
    if bits > 8:
        raise _Fail(_READ_FAILED)
    if width <= 0 or height <= 0:
        raise _Fail(0)
    img.raster = np.zeros(width * height, np.uint8)
    lzw = _Lzw(r, bits)
    if img.interlace:
        stream = np.zeros(width * height, np.uint8)
        try:
            lzw.pixels(stream)
        finally:
            rows = [y for start, step in ((0, 8), (4, 8), (2, 4), (1, 2)) for y in range(start, height, step)]
            img.raster.reshape(height, width)[rows] = stream.reshape(height, width)
    else:
        lzw.pixels(img.raster)
    img.extensions = list(pending)
    pending.clear()


def _slurp(r: _Reader, images: list[_Image]) -> None:
    """DGifSlurp."""
    pending: list[tuple[int, bytes]] = []
    while True:
        kind = r.read(1)[0]
        if kind == 0x2C:
            _image(r, images, pending)
        elif kind == 0x21:
            function = r.read(1)[0]
            first = True
            while True:
                n = r.read(1)[0]
                if n == 0:
                    break
                pending.append((function if first else 0, r.read(n)))
                first = False
        elif kind == 0x3B:
            break
        else:
            raise _Fail(_WRONG_RECORD)
    if not images:
        raise _Fail(_NO_IMAGE)


def _transparent(img: _Image) -> int:
    """DGifSavedExtensionToGCB: the first Graphics Control Extension's transparent index, or -1."""
    for function, data in img.extensions:
        if function == 0xF9:
            if len(data) != 4:
                return -1
            return data[3] if data[0] & 1 else -1
    return -1


def _text(code: int) -> str:
    return _TEXT.get(code, "Unknown error")


def decode(data: bytes, expand_animations: bool = True) -> np.ndarray:
    """gif::Decode: uint8 frames [n, height, width, 3]; GifError(error_string) when TF's returns nullptr."""
    r = _Reader(data)
    try:
        if r.read(6)[:3] != b"GIF":
            raise GifError(f"failed to open gif file: {_text(_NOT_GIF)}")
    except _Fail:
        raise GifError(f"failed to open gif file: {_text(_READ_FAILED)}") from None
    try:
        r.word(), r.word()
        flags = r.read(1)[0]
        r.read(2)
        screen_map = _color_map(r, flags)
    except _Fail:
        raise GifError(f"failed to open gif file: {_text(_NO_SCREEN)}") from None
    images: list[_Image] = []
    try:
        _slurp(r, images)
    except _Fail as e:
        if not images or images[-1].raster is None or e.code == _EOF_TOO_SOON:
            raise GifError(f"failed to slurp gif file: {_text(e.code)}") from None
    return _frames(images, screen_map, expand_animations)


def _frames(images: list[_Image], screen_map: np.ndarray | None, expand_animations: bool) -> np.ndarray:
    """gif_io.cc's compositing of the frames read."""
    width = max(img.width for img in images)
    height = max(img.height for img in images)
    n = len(images) if expand_animations else 1
    out = np.zeros((n, height, width, 3), np.uint8)
    for k in range(n):
        img = images[k]
        if k > 0:
            out[k] = out[k - 1]
        x0, y0, x1, y1 = img.left, img.top, img.left + img.width, img.top + img.height
        if (img.left, img.top, img.width, img.height) != (0, 0, width, height):
            x0, y0, x1, y1 = max(x0, 0), max(y0, 0), min(x1, width), min(y1, height)
        cmap = img.cmap if img.cmap is not None else screen_map
        if cmap is None:
            raise GifError(f"missing color map for frame {k}")
        if y1 <= y0 or x1 <= x0:
            continue
        raster = img.raster.reshape(img.height, img.width)   # type: ignore[union-attr]
        idx = raster[y0 - img.top:y1 - img.top, x0 - img.left:x1 - img.left].astype(np.int64)
        clear = idx == _transparent(img)
        bad = ~clear & (idx >= len(cmap))
        if bad.any():   # (the first such pixel in row-major order)
            raise GifError(f"found color index {int(idx[bad][0])} outside of color map range {len(cmap)}")
        region = out[k, y0:y1, x0:x1]
        safe = np.where(clear | bad, 0, idx)
        region[~clear] = cmap[safe][~clear]
    return out
