"""`tf.image.extract_glimpse` (TF 2.21's extract_glimpse_v2 → ExtractGlimpseV2; attention_ops.cc and
Eigen's ExtractGlimpses, eigen_attention.h, version 2): for each image of a float32 [batch, height,
width, depth] input, a [size[0], size[1]] window whose corner comes from offsets[i] = (y, x):
normalized offsets are multiplied by the image's height / width (and, centered, halved and moved
by half the image and back by half the window); unnormalized centered ones are moved by half the
image only; the corner is the float truncated toward zero (NaN and out-of-range values: INT64_MIN,
as x86's conversion gives). A window not inside the image (its far edge at or past the image's
edge counts) is first filled with noise, then the part over the image is copied: "zero" zeros;
"uniform" min + U[0, 1) * (max - min) of the whole image; "gaussian" each channel's mean + N(0, 1)
* its standard deviation clamped to the channel's [min, max]. TF draws that noise from Eigen's
generators seeded by the process's std::rand (not reproducible from one call to the next);
simdist draws the same distributions from a fixed Philox stream (key 0, counter 0), so its noise
is deterministic and differs from TF's: only the "zero" noise and the copied part agree value for
value. A tensor of another dtype is ValueError eagerly, TypeError while tracing (TF:
AssertionError "Unreachable" for one captured from eager code, which simdist does not tell
apart). Errors: input rank ≠ 4, size not a vector of 2, offsets not [batch, 2]
(InvalidArgumentError; ValueError while tracing), a negative size, noise other than
uniform/gaussian/zero; no gradient (LookupError). FLOPs: 0 (a copy). Clause ops.image-glimpse.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from simdist.runtime import dtypes, errors
from simdist.runtime.ops import dispatch, philox, philox_dists, trace_errors
from simdist.runtime.ops.args import dims, zero_flops
from simdist.runtime.ops.counting import no_tf_gradient
from simdist.runtime.ops.registry import lanes, register
from simdist.runtime.tensor import Tensor, convert_to_tensor

__all__ = ["extract_glimpse"]

_OP = "ExtractGlimpseV2"
_INT64_MIN = -(2 ** 63)


def _error(text: str) -> errors.InvalidArgumentError:
    return errors.InvalidArgumentError(None, None, f"{text} [Op:{_OP}]")


def _trunc(v: float) -> int:
    """(Index)v: truncation toward zero; x86 gives INT64_MIN for NaN and values out of range."""
    if v != v or not -9.2e18 < v < 9.2e18:
        return _INT64_MIN
    return int(v)


def _corner(off: np.ndarray, in_h: int, in_w: int, h: int, w: int, centered: bool, normalized: bool) -> tuple[int, int]:
    """Version 2 of GlimpseExtractionOp's (offset_y, offset_x), in float32 as the kernel computes."""
    f = np.float32
    y, x = f(off[0]), f(off[1])
    with np.errstate(all="ignore"):
        if normalized:
            x, y = x * f(in_w), y * f(in_h)
            if centered:
                x, y = x / f(2), y / f(2)
                x, y = x + f(in_w) / f(2), y + f(in_h) / f(2)
                x, y = x - f(w) / f(2), y - f(h) / f(2)
        elif centered:
            x, y = x + f(in_w) / f(2), y + f(in_h) / f(2)
    return _trunc(float(y)), _trunc(float(x))


def _span(offset: int, size: int, extent: int) -> tuple[int, int, int]:
    """(source start, count, destination start) of one axis's copied part."""
    if offset < 0:
        count = max(0, size + offset)
        return 0, min(extent, count), size - count
    if offset + size >= extent:
        return offset, min(extent, max(0, extent - offset)), 0
    return offset, size, 0


def _noise(img: np.ndarray, h: int, w: int, kind: str, gen: philox.Philox) -> np.ndarray:
    d = img.shape[-1]
    if kind == "zero":
        return np.zeros((h, w, d), np.float32)
    n = h * w * d
    if kind == "uniform":
        lo = np.float32(img.min())
        rng = np.float32(img.max() - lo)
        u = philox_dists.uniform(gen, (h, w, d), np.float32)
        return (lo + u * rng).astype(np.float32)
    out = np.empty((h, w, d), np.float32)
    z = philox_dists.normal(gen, (d, h, w), np.float32) if n else np.zeros((d, h, w), np.float32)
    for j in range(d):
        ch = img[..., j].astype(np.float32)
        mean = np.float32(ch.mean(dtype=np.float32))
        sigma = np.float32(np.sqrt(np.square(ch - mean).mean(dtype=np.float32)))
        out[..., j] = np.clip(mean + z[j] * sigma, ch.min(), ch.max())
    return out


def _forward(x: np.ndarray, size: np.ndarray, offsets: np.ndarray, centered: bool, normalized: bool,
             noise: str) -> np.ndarray:
    if x.ndim != 4:
        raise _error(f"input must be 4-dimensional (batch_size, height, width, depth){dims(x.shape)}")
    if size.shape != (2,):
        raise _error(f"input must be a vector of size 2 (height, width){dims(size.shape)}")
    h, w = int(size[0]), int(size[1])
    if h < 0 or w < 0:
        raise _error(f"Expected a non-negative size, got {h if h < 0 else w}")
    if offsets.ndim != 2:
        raise _error(f"input must be a matrix{dims(offsets.shape)}")
    if offsets.shape[0] != x.shape[0]:
        raise _error(f"first dimension should be batch{dims(offsets.shape)}")
    if offsets.shape[1] != 2:
        raise _error(f"second dimension should be of size 2 (y,x){dims(offsets.shape)}")
    if noise not in ("uniform", "gaussian", "zero", ""):
        raise _error(f"The noise could only be uniform, gaussian, or zero, got{noise}")
    n, in_h, in_w, d = x.shape
    out = np.zeros((n, h, w, d), np.float32)
    if out.size == 0:
        return out
    gen = philox.Philox((0, 0), 0)
    for i in range(n):
        oy, ox = _corner(offsets[i], in_h, in_w, h, w, centered, normalized)
        sy, cy, dy = _span(oy, h, in_h)
        sx, cx, dx = _span(ox, w, in_w)
        if (cy, cx, dy, dx) != (h, w, 0, 0):
            out[i] = _noise(x[i], h, w, noise or "uniform", gen)
        if cy and cx:
            out[i, dy:dy + cy, dx:dx + cx] = x[i, sy:sy + cy, sx:sx + cx]
    return out


def _rule(dts: Any, attrs: Any) -> dtypes.DType:
    return dtypes.float32


EXTRACT_GLIMPSE = register(_OP, _forward, _rule, zero_flops, kind="shape",
                           fusion=lanes("each image's window has its own corner and noise"))
no_tf_gradient(_OP)


def _static_checks(x: Tensor, size: Tensor, offsets: Tensor) -> None:
    """The shape function's ValueErrors while tracing (ranks, the size's and offsets' lengths)."""
    def static(err_text: str, text: str) -> None:
        raise trace_errors.static(_error(err_text), ValueError, text)
    if x.ndim != 4:
        static(f"input must be 4-dimensional (batch_size, height, width, depth){dims(x.shape.as_list())}",
               f"Shape must be rank 4 but is rank {x.ndim}")
    if size.ndim != 1 or size.shape.as_list()[0] != 2:
        text = f"Shape must be rank 1 but is rank {size.ndim}" if size.ndim != 1 else \
            f"Dimension must be 2 but is {size.shape.as_list()[0]}"
        static(f"input must be a vector of size 2 (height, width){dims(size.shape.as_list())}", text)
    if offsets.ndim != 2:
        static(f"input must be a matrix{dims(offsets.shape.as_list())}", f"Shape must be rank 2 but is rank "
                                                                         f"{offsets.ndim}")
    b, k = offsets.shape.as_list()
    if b != x.shape.as_list()[0]:
        static(f"first dimension should be batch{dims(offsets.shape.as_list())}",
               f"Dimensions must be equal, but are {x.shape.as_list()[0]} and {b}")
    if k != 2:
        static(f"second dimension should be of size 2 (y,x){dims(offsets.shape.as_list())}",
               f"Dimension must be 2 but is {k}")


def extract_glimpse(input: Any, size: Any, offsets: Any, centered: bool = True,  # noqa: A002 - TF's name
                    normalized: bool = True, noise: str = "uniform", name: str | None = None) -> Tensor:
    """`tf.image.extract_glimpse`: float32 glimpses [batch, size[0], size[1], depth] (see the module)."""
    from simdist.runtime.ops import attr_rules
    # (the wrapper's make_bool/make_str before any input converts: `normalized=np.True_` is TypeError;
    # ops.attr-types, fz14 seed 1420261219 #281; a None is the OpDef's default, as the generated
    # wrapper's `if centered is None: centered = True` and the fast path give it: fz25b, seed
    # 1420262501 #249)
    centered = attr_rules.make_bool(centered, "centered", _OP)
    normalized = attr_rules.make_bool(normalized, "normalized", _OP)
    noise = attr_rules.opdef_default(_OP, "noise") if noise is None else noise
    attr_rules.make_str(noise, "noise")
    x, s, o = attr_rules.fixed_inputs(_OP, [(input, dtypes.float32, "input"), (size, dtypes.int32, "size"),
                                            (offsets, dtypes.float32, "offsets")],
                                      attr_rules.fast_path_takes(_OP, (input, size, offsets)))
    _static_checks(x, s, o)
    return dispatch.execute(EXTRACT_GLIMPSE, (x, s, o), {"centered": bool(centered), "normalized": bool(normalized),
                                                         "noise": str(noise)})
