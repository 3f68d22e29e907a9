"""GIF streams for tests/ops/test_rawops39_tf.py, written by hand (a GIF writer whose LZW encoder emits literal
codes with a clear code whenever giflib's decoder would widen its codes, so every byte is chosen here) and a few
written by Pillow 13.0.0 (optimized animations: frames cropped to the changed rectangle, transparency, disposal),
kept as base64 so that the streams do not depend on the installed Pillow."""

from __future__ import annotations

import base64
from typing import Sequence

__all__ = ["gif", "image", "lzw", "gce", "PILLOW"]


def lzw(indices: Sequence[int], bits: int, eoi: bool = True, clear_first: bool = True) -> bytes:
    """The LZW sub-blocks of `indices` at code size `bits`: literal codes, a clear code before the decoder's
    next code would be a new dictionary entry past its width, an end code (`eoi`), then the terminator."""
    clear, end = 1 << bits, (1 << bits) + 1
    codes: list[tuple[int, int]] = []
    running, width, top = end + 1, bits + 1, 1 << (bits + 1)

    def emit(code: int) -> None:
        nonlocal running, width, top
        codes.append((code, width))
        if running < 4097:
            running += 1
            if running > top and width < 12:
                top <<= 1
                width += 1
        if code == clear:
            running, width, top = end + 1, bits + 1, 1 << (bits + 1)

    if clear_first:
        emit(clear)
    for v in indices:
        if running + 1 > top:
            emit(clear)
        emit(v)
    if eoi:
        emit(end)
    acc = nbits = 0
    out = bytearray()
    for code, w in codes:
        acc |= code << nbits
        nbits += w
        while nbits >= 8:
            out.append(acc & 0xFF)
            acc >>= 8
            nbits -= 8
    if nbits:
        out.append(acc & 0xFF)
    blocks = bytearray([bits])
    for i in range(0, len(out), 255):
        chunk = out[i:i + 255]
        blocks += bytes([len(chunk)]) + chunk
    return bytes(blocks + b"\x00")


def _palette(colors: Sequence[tuple[int, int, int]]) -> tuple[int, bytes]:
    n = 1
    while (1 << n) < len(colors):
        n += 1
    table = list(colors) + [(0, 0, 0)] * ((1 << n) - len(colors))
    return n - 1, b"".join(bytes(c) for c in table)


def gce(transparent: int | None = None, disposal: int = 0, size: int = 4) -> bytes:
    """A Graphics Control Extension (`size` its data length: giflib reads only a 4-byte one)."""
    flags = (disposal << 2) | (1 if transparent is not None else 0)
    data = bytes([flags, 0, 0, transparent or 0]) + bytes(max(0, size - 4))
    return b"\x21\xf9" + bytes([size]) + data[:size] + b"\x00"


def image(width: int, height: int, indices: Sequence[int], left: int = 0, top: int = 0,
          palette: Sequence[tuple[int, int, int]] | None = None, bits: int = 2, interlace: bool = False,
          data: bytes | None = None) -> bytes:
    """An image descriptor (a local color table when `palette`), then its pixels' LZW data."""
    flags = 0x40 if interlace else 0
    table = b""
    if palette is not None:
        n, table = _palette(palette)
        flags |= 0x80 | n
    head = b"\x2c" + b"".join(v.to_bytes(2, "little") for v in (left, top, width, height)) + bytes([flags])
    return head + table + (data if data is not None else lzw(indices, bits))


def gif(width: int, height: int, parts: Sequence[bytes], palette: Sequence[tuple[int, int, int]] | None = None,
        trailer: bool = True, version: bytes = b"89a") -> bytes:
    """A GIF stream: header, screen descriptor (a global color table when `palette`), `parts`, trailer."""
    flags = 0
    table = b""
    if palette is not None:
        n, table = _palette(palette)
        flags = 0x80 | n
    head = b"GIF" + version + width.to_bytes(2, "little") + height.to_bytes(2, "little") + bytes([flags, 0, 0])
    return head + table + b"".join(parts) + (b"\x3b" if trailer else b"")


def _b64(text: str) -> bytes:
    return base64.b64decode("".join(text.split()))


# Pillow 13.0.0 `Image.save(format="GIF", save_all=True, ...)` of small frames (see each name)
PILLOW: dict[str, bytes] = {}
PILLOW['optimized 3 frames 5x6'] = _b64("""
R0lGODlhBQAGAIEAAPDw8KCgoFBQUAAAACH/C05FVFNDQVBFMi4wAwEAAAAh+QQAAgAAACwAAAAABQAGAAAIGgABBBgQAMAAAQIE
JjRosKCAAAkfCiB4cEBAACH5BAECAAUALAEAAgACAAIAgvDw8KCgoFBQUP8AAAAAAAAAAAAAAAAAAAgGAAcIHBAQACH5BAECAAYA
LAQAAAABAAEAgvDw8KCgoAD/AFBQUP8AAAAAAAAAAAAAAAgEAAUEBAA7""")
PILLOW['disposal 2 transparency 0'] = _b64("""
R0lGODlhBQAGAIEAAPDw8KCgoFBQUAAAACH5BAkCAAAALAAAAAAFAAYAAAgaAAEEGBAAwAABAgQmNGiwoIAACR8KIHhwQEAAIfkE
CQIAAAAsAAAAAAUABgCC8PDwoKCgUFBQ/wAAAAAAAAAAAAAAAAAACB0AAQQgEAAAAQECBAoYMICAQYYCAiSMKIDgQQIBAQA7""")
PILLOW['rgb 7x5 noise'] = _b64("""
R0lGODdhBwAFAIUAANv42Of2qdb6ec3XxZn6JWrLZPnKF7zGKrqzTNCOM2js9RX0vAvP7DusuzW1MkGkakqbaQeRjrZd3vZ7Kv1Q
6KOE2pBY+TmCVSx6YRlaIhdL0sxHncI8cIglF3ckwlw1PR4v2lAHqTUpAQAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA
AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAACwAAAAABwAFAAAIKgAnWCgAYsOD
AwMuYIDwgUEEAB44BEiwQEEGAggcNKgggIIIDQY6hJAQEAA7""")
PILLOW['interlaced 4x10 gradient'] = _b64("""
R0lGODdhBAAKAIMAAOHh4cjIyK+vr5aWln19fWRkZEtLSzIyMhkZGQAAAAAAAAAAAAAAAAAAAAAAAAAAACwAAAAABAAKAAAIJAAT
CEyAoCCCAwgPGFhooIDDAgQiEhhAcYCAiwICaAwAoCOAgAA7""")
PILLOW['grayscale L 6x6'] = _b64("""
R0lGODdhBgAGAIUAAAAAAAcHBw4ODhUVFRwcHCMjIyoqKjExMTg4OD8/P0ZGRk1NTVRUVFtbW2JiYmlpaXBwcHd3d35+foWFhYyM
jJOTk5qamqGhoaioqK+vr7a2tr29vcTExMvLy9LS0tnZ2eDg4Ofn5+7u7vX19QAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA
AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAACwAAAAABgAGAAAIKwABBBAwgEAB
AwcQJFCwgEEDBw8gRJAwgUIFCxcwZNCwgUMHDx9AhBAxIiAAOw==""")
