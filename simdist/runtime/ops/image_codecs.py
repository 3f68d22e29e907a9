"""`tf.io`/`tf.image` image codecs: decode_png, encode_png, decode_jpeg, encode_jpeg,
decode_and_crop_jpeg, extract_jpeg_shape, is_jpeg, decode_image, adjust_jpeg_quality (TF 2.21's
DecodeImageV2Op in core/kernels/image/decode_image_op.cc, encode_png_op.cc, encode_jpeg_op.cc,
extract_jpeg_shape_op.cc; python/ops/image_ops_impl.py decode_image, is_jpeg, adjust_jpeg_quality,
random_jpeg_quality, stateless_random_jpeg_quality).

- Every decode op reads PNG and JPEG alike by the magic bytes (decode_png of a JPEG works, as the
  V2 kernel's does); `contents` must be a scalar ("`contents` must be scalar but got shape[2]"),
  non-empty ("Input is empty."), of a known format ("Unknown image file format. One of JPEG, JPEG
  XL, PNG, GIF, BMP, WebP required."); channels 0, 1, 3, 4 ("`channels` must be 0, 1, 3 or 4 but
  got 2"); JPEG refuses 4 ("JPEG does not support 4 channels"); a corrupt PNG is "Invalid PNG.
  Failed to initialize decoder.", a corrupt JPEG "jpeg::Uncompress failed. Invalid JPEG data or crop
  window.". Pixels: png_codec.py and jpeg_codec.py. uint16 of a JPEG is x * 256, of an 8-bit PNG
  x * 257; float32 (decode_image) is the uint16 (PNG) or uint8 (JPEG) value times 1/65535 or 1/255.
- encode_png(image, compression=-1): rank >= 3 ("images must be at least rank 3[2,3]"), 1..4
  channels ("image must have 1, 2, 3, or 4 channels, got 5"), uint8 or uint16, an empty image
  InternalError "PNG encoding failed at the following flattened batch indices: 0"; batched over
  leading dimensions, a batch of no image (a leading dimension 0) an empty string tensor of the
  leading shape (tf.summary.image with max_outputs=0).
- encode_jpeg: a 3-D uint8 image of 1 or 3 channels ("image must have 1 or 3 channels, got
  [2,3,4]"), quality in [0,100], format "", "grayscale", "rgb", density_unit "in"/"cm".
- decode_bmp (and decode_image of a BMP): TF's own reader of uncompressed 8-, 24- and 32-bit BMP
  (BGR(A) to RGB(A), bottom-up rows unless the height is negative; channels 0, 3, 4: "`channels`
  must be 0, 3 or 4 for BMP, but got 1"; the size checks and messages of DecodeBmpV2); another op
  refuses a BMP ("Trying to decode BMP format using a wrong op. ...") and DecodeBmp a PNG or JPEG.
- decode_gif (and decode_image, decode_png and decode_jpeg of a GIF): gif_codec.py (giflib's reader and
  gif_io.cc's compositing); channels 0 or 3 ("channels must be 0 or 3 for GIF, got 1"); frames [n, H, W, 3] for
  DecodeGif and decode_image (expand_animations=False: the first frame, 3-D), a single frame 3-D for DecodePng and
  DecodeJpeg ("Got 2 frames, but animated gifs can only be decoded by tf.io.decode_gif or tf.io.decode_image");
  a bad stream "Invalid GIF data (size 12), failed to slurp gif file: ..."; uint16 x * 256, float32 x / 255.
- decode_webp (and every decode op of a WebP): libwebp's pixels through Pillow, [frames, H, W, C] (`_decode_webp_bytes`
  for the checks' order and messages). JPEG XL: the size header read ("Failed to decode JXL header" where it
  cannot be), the pixels NotImplementedError (simdist has no JPEG XL decoder).
Not differentiable. Clause io.image-codecs.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from simdist.runtime import dtypes, errors
from simdist.runtime.ops import dispatch, infer_ctx, trace_errors
from simdist.runtime.ops.registry import NotDifferentiable, lanes, register
from simdist.runtime.ops.string_args import STRING_COST, as_bytes, bytes_array, string_tensor, want_string
from simdist.runtime.tensor import Tensor, convert_to_tensor

__all__ = ["decode_bmp", "decode_gif", "decode_webp", "decode_jxl", "decode_png", "encode_png", "decode_jpeg", "encode_jpeg", "decode_and_crop_jpeg",
           "extract_jpeg_shape",
           "is_jpeg", "decode_image", "adjust_jpeg_quality", "random_jpeg_quality", "stateless_random_jpeg_quality"]

_WHY = lanes("decodes or encodes each image's bytes in Python: no stacked form")
_PNG = b"\x89PNG\r\n\x1a\n"
_JPEG = b"\xff\xd8\xff"


def _bad(op: str, msg: str) -> errors.InvalidArgumentError:
    return errors.InvalidArgumentError(None, None, f"{msg} [Op:{op}]")


def _format(data: bytes) -> str:
    """ClassifyFileFormat: the magic bytes."""
    if data.startswith(_JPEG):
        return "jpeg"
    if data.startswith(_PNG):
        return "png"
    if data.startswith(b"GIF8"):
        return "gif"
    if data.startswith(b"BM"):
        return "bmp"
    if data.startswith(b"RIFF") and len(data) > 12 and data[8:12] == b"WEBP":
        return "webp"
    if data.startswith(b"\xff\x0a") or data.startswith(b"\x00\x00\x00\x0cJXL \r\n\x87\n"):
        return "jxl"
    return ""


def _scalar_bytes(op: str, x: np.ndarray) -> bytes:
    if x.ndim != 0:
        raise _bad(op, f"`contents` must be scalar but got shape[{','.join(str(d) for d in x.shape)}]")
    data = as_bytes(x[()])
    if not data:
        raise _bad(op, "Input is empty.")
    return data


def _check_channels(op: str, channels: int) -> None:
    """DecodeImageV2Op's constructor: channels 0, 1, 3 or 4, before Compute reads the contents (a raw DecodePng,
    DecodeBmp, DecodeImage or DecodeAndCropJpeg of channels -2 on bytes of no format too; fz31a, function seed
    3120261205 #126)."""
    if channels not in (0, 1, 3, 4):
        raise _bad(op, f"`channels` must be 0, 1, 3 or 4 but got {channels}")


def _decode_any(op: str, data: bytes, channels: int, dtype: str, jpeg: dict | None = None,
                crop: tuple[int, int, int, int] | None = None, expand_animations: bool = True) -> np.ndarray:
    """DecodeImageV2Op::Compute: the image of any supported format, as `dtype`."""
    from simdist.runtime.ops import jpeg_codec, png_codec
    kind = _format(data)
    if not kind:
        raise _bad(op, "Unknown image file format. One of JPEG, JPEG XL, PNG, GIF, BMP, WebP required.")
    if kind == "jpeg":
        if channels == 4:
            raise _bad(op, "JPEG does not support 4 channels")
        if op == "DecodeBmp":
            raise _bad(op, "Trying to decode JPEG format using DecodeBmp op. Use `decode_jpeg` or `decode_image` "
                       "instead.")
        flags = jpeg or {}
        try:
            img = jpeg_codec.decode(data, channels, flags.get("ratio", 1), flags.get("fancy_upscaling", True),
                                    flags.get("dct_method", ""))
        except jpeg_codec.Unsupported as e:
            raise NotImplementedError(f"{op}: {e}") from None
        except Exception:   # (Pillow refused the stream: libjpeg does too)
            img = None
        if img is not None and crop is not None:
            y, x, h, w = crop
            if x < 0 or y < 0 or h <= 0 or w <= 0 or x + w > img.shape[1] or y + h > img.shape[0]:
                img = None
            else:
                img = img[y:y + h, x:x + w]
        if img is None:
            raise _bad(op, "jpeg::Uncompress failed. Invalid JPEG data or crop window.")
        if dtype == "uint16":
            return img.astype(np.uint16) * np.uint16(256)
        if dtype == "float32":
            return img.astype(np.float32) * np.float32(1.0 / 255)
        return img
    if kind == "png":
        if op == "DecodeAndCropJpeg":
            raise _bad(op, "DecodeAndCropJpeg operation can run on JPEG only, but detected PNG.")
        if op == "DecodeBmp":
            raise _bad(op, "Trying to decode PNG format using DecodeBmp op. Use `decode_png` or `decode_image` "
                       "instead.")
        img = png_codec.decode(data, channels, 8 if dtype == "uint8" else 16)
        if img is None:
            raise _bad(op, "Invalid PNG. Failed to initialize decoder.")
        if dtype == "float32":
            return img.astype(np.float32) * np.float32(1.0 / 65535)
        return img
    if kind == "bmp":
        img = _decode_bmp_bytes(op, data, channels)
        if dtype == "uint16":
            return img.astype(np.uint16) * np.uint16(256)
        if dtype == "float32":
            return img.astype(np.float32) * np.float32(1.0 / 255)
        return img
    if kind == "gif":
        return _decode_gif_bytes(op, data, channels, dtype, expand_animations)
    if kind == "webp":
        return _decode_webp_bytes(op, data, channels, dtype, expand_animations)
    return _decode_jxl_bytes(op, data)


def _webp_features(data: bytes) -> tuple[bool, bool] | None:
    """WebPGetFeatures: (has_alpha, has_animation) from the RIFF header's first chunk, None where libwebp refuses
    the header (a chunk too short, a VP8 frame without its start code, a VP8L stream without its signature)."""
    import struct
    if len(data) < 20:
        return None
    tag, size = data[12:16], struct.unpack("<I", data[16:20])[0]
    body = data[20:]
    if tag == b"VP8X":
        if len(body) < 10 or size < 10:
            return None
        return bool(body[0] & 0x10), bool(body[0] & 0x02)
    if tag == b"VP8L":
        if len(body) < 5 or body[0] != 0x2F:
            return None
        bits = int.from_bytes(body[1:5], "little")
        return bool((bits >> 28) & 1), False
    if tag == b"VP8 ":
        if len(body) < 10 or body[3:6] != b"\x9d\x01\x2a":
            return None
        return False, False
    return None


def _decode_webp_bytes(op: str, data: bytes, channels: int, dtype: str, expand_animations: bool) -> np.ndarray:
    """DecodeImageV2Op's WebP path (core/kernels/image/decode_image_op.cc DecodeWebP, libwebp): channels 0, 3 or 4
    ("WebP only supports 3 or 4 channels"), uint8 only ("WebP only supports uint8 for dtype"), the header's features
    ("Failed to decode WebP header."), 4 channels exactly when the image has alpha ("Number of channels requested
    does not match input"), then the pixels ("Failed to decode WebP image."): [frames, H, W, C] for every op (a still
    image one frame), the first frame 3-D for decode_image with expand_animations=False. The pixels are libwebp's
    through Pillow (WebPAnimDecoder's RGB(A) canvas, libwebp's decoder as TF's kernel links it)."""
    if channels not in (0, 3, 4):
        raise _bad(op, "WebP only supports 3 or 4 channels")
    if dtype != "uint8":
        raise _bad(op, "WebP only supports uint8 for dtype")
    feats = _webp_features(data)
    if feats is None:
        raise _bad(op, "Failed to decode WebP header.")
    alpha = feats[0]
    if channels and (channels == 4) != alpha:
        raise _bad(op, "Number of channels requested does not match input")
    import io
    from PIL import Image
    mode = "RGBA" if alpha else "RGB"
    try:
        with Image.open(io.BytesIO(data)) as im:
            frames = []
            for i in range(getattr(im, "n_frames", 1) if expand_animations else 1):
                im.seek(i)
                frames.append(np.asarray(im.convert(mode), dtype=np.uint8))
    except Exception:   # noqa: BLE001 - libwebp refused the stream (Pillow's error, any class): TF's message
        raise _bad(op, "Failed to decode WebP image.") from None
    if not expand_animations:
        return frames[0]
    return np.stack(frames)


def _jxl_size_header(data: bytes) -> tuple[int, int] | None:
    """The codestream's SizeHeader (ISO/IEC 18181-1 D.2: LSB-first bits after the 0xFF0A signature; in the ISOBMFF
    container, the first `jxlc` box's codestream): (xsize, ysize), None when the bytes end before it."""
    import struct
    if data.startswith(b"\x00\x00\x00\x0cJXL \r\n\x87\n"):
        pos, stream = 12, b""
        while pos + 8 <= len(data):
            size, box = struct.unpack(">I4s", data[pos:pos + 8])
            end = len(data) if size == 0 else pos + size
            if box == b"jxlc":
                stream = data[pos + 8:end]
                break
            if size < 8:
                return None
            pos = end
        data = stream
    if not data.startswith(b"\xff\x0a"):
        return None
    bits = int.from_bytes(data[2:], "little")
    avail, at = 8 * (len(data) - 2), [0]

    def u(n: int) -> int:
        if at[0] + n > avail:
            raise EOFError
        v = (bits >> at[0]) & ((1 << n) - 1)
        at[0] += n
        return v

    def u32(*dists: tuple[int, int]) -> int:
        base, n = dists[u(2)]
        return base + u(n)
    try:
        small = u(1)
        ysize = 8 * (u(5) + 1) if small else u32((1, 9), (1, 13), (1, 18), (1, 30))
        ratio = u(3)
        if ratio:
            num, den = [(1, 1), (12, 10), (4, 3), (3, 2), (16, 9), (5, 4), (2, 1)][ratio - 1]
            return ysize * num // den, ysize
        xsize = 8 * (u(5) + 1) if small else u32((1, 9), (1, 13), (1, 18), (1, 30))
        return xsize, ysize
    except EOFError:
        return None


def _decode_jxl_bytes(op: str, data: bytes) -> np.ndarray:
    """DecodeImageV2Op's JPEG XL path (libjxl): a stream whose basic info cannot be read is "Failed to decode JXL
    header"; simdist has no JPEG XL pixel decoder (libjxl's is not among its dependencies): a stream with a
    readable size header is NotImplementedError."""
    if _jxl_size_header(data) is None:
        raise _bad(op, "Failed to decode JXL header")
    raise NotImplementedError(f"{op}: decoding JPEG XL pixels (simdist reads the size header only)")


def _decode_gif_bytes(op: str, data: bytes, channels: int, dtype: str, expand_animations: bool) -> np.ndarray:
    """DecodeImageV2Op::DecodeGifV2: gif_codec's frames, 4-D for DecodeGif and an expanding DecodeImage, 3-D for
    DecodeImage(expand_animations=False) and for DecodePng and DecodeJpeg of a single frame."""
    from simdist.runtime.ops import gif_codec
    if channels not in (0, 3):
        raise _bad(op, f"channels must be 0 or 3 for GIF, got {channels}")
    if op == "DecodeBmp":
        raise _bad(op, "Trying to decode GIF format using DecodeBmp op. Use `decode_gif` or `decode_image` instead.")
    if op == "DecodeAndCropJpeg":
        raise _bad(op, "DecodeAndCropJpeg operation can run on JPEG only, but detected GIF.")
    expand = expand_animations if op == "DecodeImage" else True
    try:
        frames = gif_codec.decode(data, expand)
    except gif_codec.GifError as e:
        raise _bad(op, f"Invalid GIF data (size {len(data)}), {e}") from None
    if op in ("DecodePng", "DecodeJpeg"):
        if frames.shape[0] != 1:
            raise _bad(op, f"Got {frames.shape[0]} frames, but animated gifs can only be decoded by tf.io.decode_gif "
                           "or tf.io.decode_image")
        frames = frames[0]
    elif op == "DecodeImage" and not expand_animations:
        frames = frames[0]
    if dtype == "uint16":
        return frames.astype(np.uint16) * np.uint16(256)
    if dtype == "float32":
        return frames.astype(np.float32) * np.float32(1.0 / 255)
    return frames


def _decode_bmp_bytes(op: str, data: bytes, channels: int) -> np.ndarray:
    """DecodeImageV2Op::DecodeBmpV2: TF's own reader of uncompressed 8/24/32-bit BMP pixels."""
    if channels == 1:
        raise _bad(op, f"`channels` must be 0, 3 or 4 for BMP, but got {channels}")
    if op not in ("DecodeBmp", "DecodeImage"):
        if op == "DecodeAndCropJpeg":
            raise _bad(op, "DecodeAndCropJpeg operation can run on JPEG only, but detected BMP.")
        raise _bad(op, "Trying to decode BMP format using a wrong op. Use `decode_bmp` or `decode_image` instead. "
                   f"Op used: {op}")
    if len(data) < 32:
        raise _bad(op, "Incomplete bmp content, requires at least 32 bytes to find the header size, width, height, "
                   f"and bpp, got {len(data)} bytes")
    header = int.from_bytes(data[10:14], "little", signed=True)
    width = int.from_bytes(data[18:22], "little", signed=True)
    height = int.from_bytes(data[22:26], "little", signed=True)
    bpp = int.from_bytes(data[28:30], "little", signed=True)
    img_c = int(bpp / 8)
    if img_c not in (1, 3, 4):
        raise _bad(op, f"Number of channels inherent in the image must be 1, 3 or 4, was {img_c}")
    out_c = channels or img_c
    if width <= 0:
        raise _bad(op, "Width must be positive")
    if height == 0:
        raise _bad(op, "Height must be nonzero")
    if header < 0:
        raise _bad(op, "header size must be nonnegative")
    if width * abs(height) >= (2 ** 31 - 1) // 8:
        raise _bad(op, "Total possible pixel bytes must be less than 2^30")
    rows = abs(height)
    row_size = (img_c * width + 3) // 4 * 4
    diff = len(data) - header - row_size * rows
    if diff != 0:
        raise _bad(op, f"Input size should match (header_size + row_size * abs_height) but they differ by {diff}")
    px = np.frombuffer(data, np.uint8, row_size * rows, header).reshape(rows, row_size)[:, :width * img_c]
    px = px.reshape(rows, width, img_c)
    if height > 0:   # (bottom-up rows)
        px = px[::-1]
    if img_c == 1:
        out = np.repeat(px, 3, axis=2) if out_c in (3, 4) else px
    else:
        out = px[..., [2, 1, 0]]   # (BGR(A) -> RGB)
    if out_c == 4:
        alpha = px[..., 3:4] if img_c == 4 else np.full(px.shape[:2] + (1,), 255, np.uint8)
        out = np.concatenate([out, alpha], axis=2)
    return np.ascontiguousarray(out)


def _decode_png(contents: np.ndarray, channels: int = 0, dtype: str = "uint8") -> np.ndarray:
    _check_channels("DecodePng", channels)
    return _decode_any("DecodePng", _scalar_bytes("DecodePng", contents), channels, dtype)


def _decode_jpeg(contents: np.ndarray, channels: int = 0, ratio: int = 1, fancy_upscaling: bool = True,
                 dct_method: str = "") -> np.ndarray:
    flags = {"ratio": ratio, "fancy_upscaling": fancy_upscaling, "dct_method": dct_method}
    return _decode_any("DecodeJpeg", _scalar_bytes("DecodeJpeg", contents), channels, "uint8", flags)


def _decode_crop(contents: np.ndarray, window: np.ndarray, channels: int = 0, ratio: int = 1,
                 fancy_upscaling: bool = True, dct_method: str = "") -> np.ndarray:
    op = "DecodeAndCropJpeg"
    _check_channels(op, channels)
    data = _scalar_bytes(op, contents)
    if window.ndim != 1:
        raise _bad(op, f"crop_window must be 1-D, got shape [{','.join(str(d) for d in window.shape)}]")
    if window.shape[0] != 4:
        raise _bad(op, f"crop_size must have four elements [{window.shape[0]}]")
    flags = {"ratio": ratio, "fancy_upscaling": fancy_upscaling, "dct_method": dct_method}
    return _decode_any(op, data, channels, "uint8", flags, tuple(int(v) for v in window))


def _decode_bmp(contents: np.ndarray, channels: int = 0) -> np.ndarray:
    _check_channels("DecodeBmp", channels)
    return _decode_any("DecodeBmp", _scalar_bytes("DecodeBmp", contents), channels, "uint8")


def _decode_image(contents: np.ndarray, channels: int = 0, dtype: str = "uint8",
                  expand_animations: bool = True) -> np.ndarray:
    _check_channels("DecodeImage", channels)
    return _decode_any("DecodeImage", _scalar_bytes("DecodeImage", contents), channels, dtype,
                       expand_animations=bool(expand_animations))


def _decode_webp(contents: np.ndarray, channels: int = 0, dtype: str = "uint8") -> np.ndarray:
    _check_channels("DecodeWebP", channels)
    return _decode_any("DecodeWebP", _scalar_bytes("DecodeWebP", contents), channels, dtype)


def _decode_jxl(contents: np.ndarray, channels: int = 0, dtype: str = "uint8") -> np.ndarray:
    _check_channels("DecodeJxl", channels)
    return _decode_any("DecodeJxl", _scalar_bytes("DecodeJxl", contents), channels, dtype)


def _decode_gif(contents: np.ndarray) -> np.ndarray:
    """DecodeGif: channels 3 (the op has no attr); a PNG or JPEG as one frame [1, H, W, 3]."""
    img = _decode_any("DecodeGif", _scalar_bytes("DecodeGif", contents), 3, "uint8")
    return img[None] if img.ndim == 3 else img


def _encode_png(image: np.ndarray, compression: int = -1) -> np.ndarray:
    from simdist.runtime.ops import png_codec
    op = "EncodePng"
    if not -1 <= compression <= 9:   # (EncodePngOp's constructor, before the image's checks; fuzz20 seed 2920261201 #48)
        raise _bad(op, f"compression should be in [-1,9], got {compression}")
    if image.ndim < 3:
        raise _bad(op, f"images must be at least rank 3[{','.join(str(d) for d in image.shape)}]")
    c = image.shape[-1]
    if c not in (1, 2, 3, 4):
        raise _bad(op, f"image must have 1, 2, 3, or 4 channels, got {c}")
    lead = image.shape[:-3]
    if lead and int(np.prod(lead)) == 0:     # (no image in the batch: an empty string tensor, observed)
        return bytes_array(lead, [])
    if image.size == 0:
        raise errors.InternalError(None, None, f"PNG encoding failed at the following flattened batch indices: 0 "
                                   f"[Op:{op}]")
    flat = image.reshape((-1,) + image.shape[-3:])
    outs = []
    for i, img in enumerate(flat):
        if img.shape[0] == 0 or img.shape[1] == 0:
            raise errors.InternalError(None, None, f"PNG encoding failed at the following flattened batch "
                                       f"indices: {i} [Op:{op}]")
        outs.append(png_codec.encode(img, int(compression)))
    return bytes_array(lead, outs)


_DENSITY = {"in": 1, "cm": 2}


def _encode_jpeg(image: np.ndarray, format: str = "", quality: int = 95, progressive: bool = False,  # noqa: A002
                 optimize_size: bool = False, chroma_downsampling: bool = True, density_unit: str = "in",
                 x_density: int = 300, y_density: int = 300, xmp_metadata: str = "") -> np.ndarray:
    from simdist.runtime.ops import jpeg_codec
    op = "EncodeJpeg"
    if image.ndim != 3:
        raise _bad(op, f"image must be 3-dimensional[{','.join(str(d) for d in image.shape)}]")
    if format == "" and image.shape[2] not in (1, 3):
        raise _bad(op, f"image must have 1 or 3 channels, got [{','.join(str(d) for d in image.shape)}]")
    want = {"grayscale": 1, "rgb": 3}.get(format, image.shape[2])
    if image.shape[2] != want:
        raise _bad(op, f"format {format} expects {want} channels, got [{','.join(str(d) for d in image.shape)}]")
    if not 0 <= quality <= 100:
        raise _bad(op, f"quality must be in [0,100], got {quality}")
    if not (0 < image.shape[0] <= 65500 and 0 < image.shape[1] <= 65500):
        # (jpeg::Compress refuses an empty image, and libjpeg a side above JPEG_MAX_DIMENSION, as the op's
        # InternalError; TF 2.21, observed: fz31a, sig seed 3120261202 #4)
        raise errors.InternalError(None, None, "JPEG encoding failed [Op:EncodeJpeg]")
    data = jpeg_codec.encode(np.ascontiguousarray(image), int(quality), bool(progressive), bool(optimize_size),
                             bool(chroma_downsampling), _DENSITY[density_unit], int(x_density), int(y_density),
                             as_bytes(xmp_metadata))
    return bytes_array((), [data])


def _extract_shape(contents: np.ndarray, output_type: str = "int32") -> np.ndarray:
    from simdist.runtime.ops import jpeg_codec
    op = "ExtractJpegShape"
    if contents.ndim != 0:
        raise _bad(op, f"contents must be scalar, got shape [{','.join(str(d) for d in contents.shape)}]")
    data = as_bytes(contents[()])
    hdr = jpeg_codec.header(data)
    if hdr is None:
        raise _bad(op, f"Invalid JPEG data, size {len(data)}")
    return np.array(hdr, dtypes.as_dtype(output_type).np)


def _out(attr: str, default: str, op: str) -> Any:
    def rule(dts: Any, attrs: Any) -> dtypes.DType:
        want_string(op, dts, 0, "contents")
        return dtypes.as_dtype((attrs or {}).get(attr, default))
    return rule


def _encode_rule(op: str, allowed: tuple[str, ...]) -> Any:
    def rule(dts: Any, attrs: Any) -> dtypes.DType:
        if dts[0].name not in allowed:
            raise _bad(op, f"Value for attr 'T' of {dts[0].name} is not in the list of allowed values: "
                       + ", ".join(allowed))
        return dtypes.string
    return rule


def _fixed(op: str, out: dtypes.DType) -> Any:
    def rule(dts: Any, attrs: Any) -> dtypes.DType:
        want_string(op, dts, 0, "contents")
        return out
    return rule


DECODE_PNG = register("DecodePng", _decode_png, _out("dtype", "uint8", "DecodePng"), kind="io", fusion=_WHY,
                      **STRING_COST)
DECODE_JPEG = register("DecodeJpeg", _decode_jpeg, _fixed("DecodeJpeg", dtypes.uint8), kind="io", fusion=_WHY,
                       **STRING_COST)
DECODE_AND_CROP_JPEG = register("DecodeAndCropJpeg", _decode_crop, _fixed("DecodeAndCropJpeg", dtypes.uint8),
                                kind="io", fusion=_WHY, **STRING_COST)
DECODE_BMP = register("DecodeBmp", _decode_bmp, _fixed("DecodeBmp", dtypes.uint8), kind="io", fusion=_WHY,
                      **STRING_COST)
DECODE_GIF = register("DecodeGif", _decode_gif, _fixed("DecodeGif", dtypes.uint8), kind="io", fusion=_WHY,
                      **STRING_COST)
DECODE_IMAGE = register("DecodeImage", _decode_image, _out("dtype", "uint8", "DecodeImage"), kind="io",
                        fusion=_WHY, **STRING_COST)
DECODE_WEBP = register("DecodeWebP", _decode_webp, _fixed("DecodeWebP", dtypes.uint8), kind="io", fusion=_WHY,
                       **STRING_COST)
DECODE_JXL = register("DecodeJxl", _decode_jxl, _fixed("DecodeJxl", dtypes.uint8), kind="io", fusion=_WHY,
                      **STRING_COST)
ENCODE_PNG = register("EncodePng", _encode_png, _encode_rule("EncodePng", ("uint8", "uint16")), kind="io",
                      fusion=_WHY, **STRING_COST)
ENCODE_JPEG = register("EncodeJpeg", _encode_jpeg, _encode_rule("EncodeJpeg", ("uint8",)), kind="io", fusion=_WHY,
                       **STRING_COST)
EXTRACT_JPEG_SHAPE = register("ExtractJpegShape", _extract_shape, _out("output_type", "int32", "ExtractJpegShape"),
                              kind="io", fusion=_WHY, **STRING_COST)
for _d in (DECODE_PNG, DECODE_JPEG, DECODE_BMP, DECODE_GIF, DECODE_IMAGE, EXTRACT_JPEG_SHAPE):
    # (a traced graph runs DecodeImageShapeFn: contents a scalar, ValueError at trace; shape_fns_raw31)
    _d.trace_shape = infer_ctx.trace_shape(_d.name)
for _op in ("DecodePng", "DecodeJpeg", "DecodeAndCropJpeg", "DecodeBmp", "DecodeGif", "DecodeImage", "DecodeWebP",
            "DecodeJxl", "EncodePng",
            "EncodeJpeg", "ExtractJpegShape"):
    NotDifferentiable(_op)


def _unknown_size(out: Tensor, channels: int, rank: int | None = 3) -> Tensor:
    """A decoded image as a traced graph knows it: height and width unknown (TF's shape function:
    [?, ?, channels], the channels unknown too when 0), so a recorded Shape of it is computed again."""
    from simdist.runtime.ops import static_shapes
    # (and the call being recorded stays eager: Python code after it reads the image's size with
    # the concrete values of this call (resize_with_pad, central_crop ...), which a replay on other
    # bytes would keep; TF's graph computes them from the image at run time)
    dispatch.unrecordable("a decoded image's size follows from its bytes")
    if rank is None:   # (decode_image: 3-D, or 4-D for an animation's frames)
        rank = len(out.shape)
    return static_shapes.mark(out, (True,) * (rank - 1) + (channels == 0,))


def _jpeg_attrs(op: str, ratio: int, fancy_upscaling: bool, dct_method: Any) -> dict:
    dct = dct_method.decode() if isinstance(dct_method, bytes) else str(dct_method)
    if ratio not in (1, 2, 4, 8):
        raise _bad(op, f"ratio must be 1, 2, 4, or 8, got {ratio}")
    if dct not in ("", "INTEGER_FAST", "INTEGER_ACCURATE"):
        raise _bad(op, "dct_method must be one of {'', 'INTEGER_FAST', 'INTEGER_ACCURATE'}")
    return {"ratio": int(ratio), "fancy_upscaling": bool(fancy_upscaling), "dct_method": dct}


def _channels(op: str, channels: Any) -> int:
    c = 0 if channels is None else int(channels)
    _check_channels(op, c)
    return c


def decode_png(contents: Any, channels: int = 0, dtype: Any = dtypes.uint8, name: str | None = None) -> Tensor:
    """`tf.io.decode_png`: a PNG (or JPEG) as a (H, W, C) uint8 or uint16 tensor."""
    dt = dtypes.as_dtype(dtype)
    if dt.name not in ("uint8", "uint16"):
        raise _bad("DecodePng", "Value for attr 'dtype' of " + dt.name + " is not in the list of allowed values: "
                   "uint8, uint16")
    c = _channels("DecodePng", channels)
    return _unknown_size(dispatch.execute(DECODE_PNG, (string_tensor(contents, "DecodePng", "contents"),),
                                          {"channels": c, "dtype": dt.name}), c)


def decode_jpeg(contents: Any, channels: int = 0, ratio: int = 1, fancy_upscaling: bool = True,
                try_recover_truncated: bool = False, acceptable_fraction: float = 1, dct_method: str = "",
                name: str | None = None) -> Tensor:
    """`tf.io.decode_jpeg`: a JPEG (or PNG) as a (H, W, C) uint8 tensor (TF's IFAST default)."""
    attrs = {"channels": _channels("DecodeJpeg", channels), **_jpeg_attrs("DecodeJpeg", ratio, fancy_upscaling,
                                                                          dct_method)}
    return _unknown_size(dispatch.execute(DECODE_JPEG, (string_tensor(contents, "DecodeJpeg", "contents"),), attrs),
                         attrs["channels"])


def decode_and_crop_jpeg(contents: Any, crop_window: Any, channels: int = 0, ratio: int = 1,
                         fancy_upscaling: bool = True, try_recover_truncated: bool = False,
                         acceptable_fraction: float = 1, dct_method: str = "", name: str | None = None) -> Tensor:
    """`tf.io.decode_and_crop_jpeg`: the crop_window [y, x, h, w] of a decoded JPEG."""
    attrs = {"channels": _channels("DecodeAndCropJpeg", channels),
             **_jpeg_attrs("DecodeAndCropJpeg", ratio, fancy_upscaling, dct_method)}
    window = convert_to_tensor(crop_window, dtype=dtypes.int32)
    return _unknown_size(dispatch.execute(DECODE_AND_CROP_JPEG, (string_tensor(contents, "DecodeAndCropJpeg",
                                                                             "contents"), window), attrs),
                         attrs["channels"])


def decode_bmp(contents: Any, channels: int = 0, name: str | None = None) -> Tensor:
    """`tf.io.decode_bmp`: an uncompressed BMP as a (H, W, C) uint8 tensor (TF's own reader)."""
    c = _channels("DecodeBmp", channels)
    return _unknown_size(dispatch.execute(DECODE_BMP, (string_tensor(contents, "DecodeBmp", "contents"),),
                                          {"channels": c}), c)


def _uint8_only(op: str, dtype: Any) -> None:
    dt = dtypes.as_dtype(dtype)
    if dt.name != "uint8":   # (the attr's DataType name: float32 is "float")
        c_name = {"float32": "float", "float64": "double", "float16": "half"}.get(dt.name, dt.name)
        raise _bad(op, "Value for attr 'dtype' of " + c_name + " is not in the list of allowed values: uint8")


def decode_webp(contents: Any, channels: int = 0, dtype: Any = dtypes.uint8, name: str | None = None) -> Tensor:
    """`tf.io.decode_webp` (tf.image.decode_webp): a WebP's frames as a (frames, H, W, C) uint8 tensor (any format
    DecodeImageV2Op reads: a PNG 3-D)."""
    _uint8_only("DecodeWebP", dtype)
    c = _channels("DecodeWebP", channels)
    return _unknown_size(dispatch.execute(DECODE_WEBP, (string_tensor(contents, "DecodeWebP", "contents"),),
                                          {"channels": c, "dtype": "uint8"}), c, rank=None)


def decode_jxl(contents: Any, channels: int = 0, dtype: Any = dtypes.uint8, name: str | None = None) -> Tensor:
    """`tf.io.decode_jxl` (tf.image.decode_jxl): DecodeImageV2Op's reading of any format; JPEG XL pixels are not
    decoded (module docstring)."""
    _uint8_only("DecodeJxl", dtype)
    c = _channels("DecodeJxl", channels)
    return _unknown_size(dispatch.execute(DECODE_JXL, (string_tensor(contents, "DecodeJxl", "contents"),),
                                          {"channels": c, "dtype": "uint8"}), c, rank=None)


def decode_gif(contents: Any, name: str | None = None) -> Tensor:
    """`tf.io.decode_gif`: a GIF's frames as a (frames, H, W, 3) uint8 tensor (gif_codec: giflib and gif_io.cc)."""
    return _unknown_size(dispatch.execute(DECODE_GIF, (string_tensor(contents, "DecodeGif", "contents"),), None),
                         3, rank=4)


def decode_image(contents: Any, channels: int | None = None, dtype: Any = dtypes.uint8, name: str | None = None,
                 expand_animations: bool = True) -> Tensor:
    """`tf.io.decode_image`: a PNG or JPEG as uint8, uint16 or float32 (another dtype: decoded as
    uint16 then convert_image_dtype, as image_ops_impl.decode_image does)."""
    want = dtypes.as_dtype(dtype)
    decode_dt = want if want.name in ("float32", "uint8", "uint16") else dtypes.uint16
    c = _channels("DecodeImage", channels)
    out = _unknown_size(dispatch.execute(DECODE_IMAGE, (string_tensor(contents, "DecodeImage", "contents"),),
                                         {"channels": c, "dtype": decode_dt.name,
                                          "expand_animations": bool(expand_animations)}), c,
                        rank=None)
    if decode_dt != want:
        from simdist.runtime.ops.image_basic import convert_image_dtype
        out = convert_image_dtype(out, want)
    return out


def encode_png(image: Any, compression: int = -1, name: str | None = None) -> Tensor:
    """`tf.io.encode_png`: the PNG bytes TF writes (libpng's filters, zlib at `compression`)."""
    return dispatch.execute(ENCODE_PNG, (convert_to_tensor(image),), {"compression": int(compression)})


def encode_jpeg(image: Any, format: str = "", quality: int = 95, progressive: bool = False,  # noqa: A002
                optimize_size: bool = False, chroma_downsampling: bool = True, density_unit: str = "in",
                x_density: int = 300, y_density: int = 300, xmp_metadata: str = "", name: str | None = None) -> Tensor:
    """`tf.io.encode_jpeg`: the JPEG bytes TF's libjpeg-turbo writes."""
    from simdist.runtime import context
    if context.in_function():   # (op_def_library: the uint8 input before the attrs, TypeError; fz34b)
        image = trace_errors.fixed_operand(image, dtypes.uint8, "EncodeJpeg", "image")
    # (a graph: op_def_library's ValueError, trace_errors.string_attr)
    trace_errors.check_string("EncodeJpeg", "format", format, ("", "grayscale", "rgb"))
    trace_errors.check_string("EncodeJpeg", "density_unit", density_unit, tuple(_DENSITY))
    attrs = {"format": format, "quality": int(quality), "progressive": bool(progressive),
             "optimize_size": bool(optimize_size), "chroma_downsampling": bool(chroma_downsampling),
             "density_unit": density_unit, "x_density": int(x_density), "y_density": int(y_density),
             "xmp_metadata": xmp_metadata}
    return dispatch.execute(ENCODE_JPEG, (convert_to_tensor(image),), attrs)


def extract_jpeg_shape(contents: Any, output_type: Any = dtypes.int32, name: str | None = None) -> Tensor:
    """`tf.io.extract_jpeg_shape`: [height, width, components] from the JPEG header."""
    return dispatch.execute(EXTRACT_JPEG_SHAPE, (string_tensor(contents, "ExtractJpegShape", "contents"),),
                            {"output_type": dtypes.as_dtype(output_type).name})


def is_jpeg(contents: Any, name: str | None = None) -> Tensor:
    """`tf.io.is_jpeg`: whether the first three bytes are JPEG's magic (substr + equal, as TF composes it)."""
    from simdist.runtime.ops.math import equal
    from simdist.runtime.ops.string_substr import substr
    return equal(substr(contents, 0, 3), _JPEG)


def adjust_jpeg_quality(image: Any, jpeg_quality: Any, dct_method: str = "", name: str | None = None) -> Tensor:
    """`tf.image.adjust_jpeg_quality`: the image through encode_jpeg(quality) and decode_jpeg, in
    its own dtype (convert_image_dtype to uint8 and back, as image_ops_impl does)."""
    from simdist.runtime.ops.image_basic import convert_image_dtype
    img = convert_to_tensor(image)
    orig = img.dtype
    u8 = convert_image_dtype(img, dtypes.uint8, saturate=True)
    q = int(np.asarray(jpeg_quality.numpy() if isinstance(jpeg_quality, Tensor) else jpeg_quality))
    enc = encode_jpeg(u8, quality=q)
    dec = decode_jpeg(enc, channels=int(u8.shape[-1]), dct_method=dct_method)
    return convert_image_dtype(dec, orig, saturate=True)


def _quality_range(lo: Any, hi: Any) -> None:
    if lo < 0 or hi < 0 or lo > 100 or hi > 100:
        raise ValueError("jpeg encoding range must be between 0 and 100.")
    if lo >= hi:
        raise ValueError("`min_jpeg_quality` must be less than `max_jpeg_quality`.")


def random_jpeg_quality(image: Any, min_jpeg_quality: Any, max_jpeg_quality: Any, seed: Any = None) -> Tensor:
    """`tf.image.random_jpeg_quality`: adjust_jpeg_quality at an int32 random_uniform quality in [min, max)."""
    from simdist.runtime.ops.random import uniform
    _quality_range(min_jpeg_quality, max_jpeg_quality)
    q = uniform([], min_jpeg_quality, max_jpeg_quality, seed=seed, dtype=dtypes.int32)
    return adjust_jpeg_quality(image, q)


def stateless_random_jpeg_quality(image: Any, min_jpeg_quality: Any, max_jpeg_quality: Any, seed: Any) -> Tensor:
    """`tf.image.stateless_random_jpeg_quality`: adjust_jpeg_quality at a stateless uniform int32 quality."""
    from simdist.runtime.ops.random import stateless_uniform
    _quality_range(min_jpeg_quality, max_jpeg_quality)
    q = stateless_uniform([], seed=seed, minval=min_jpeg_quality, maxval=max_jpeg_quality, dtype=dtypes.int32)
    return adjust_jpeg_quality(image, q)
