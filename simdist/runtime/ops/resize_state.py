"""What TF's resize kernels share (tensorflow/core/util/image_resizer_state.h): the checks of
ImageResizerState/ImageResizerGradientState, in TF's order, and the float32 scale and pixel
scalers. Clause ops.image-resize.

CalculateResizeScale: (in - 1) / (out - 1) in float32 with align_corners and out > 1, else
in / out. HalfPixelScaler: (x + 0.5) * scale - 0.5; LegacyScaler: x * scale (float32).
"""

from __future__ import annotations

import numpy as np

from simdist.runtime import errors

__all__ = ["resize_scale", "half_pixel", "legacy", "check_forward", "check_grad"]


def resize_scale(in_size: int, out_size: int, align_corners: bool) -> np.float32:
    """CalculateResizeScale, in float32."""
    if align_corners and out_size > 1:
        return np.float32(in_size - 1) / np.float32(out_size - 1)
    return np.float32(in_size) / np.float32(out_size)


def half_pixel(x: np.ndarray, scale: np.float32) -> np.ndarray:
    """HalfPixelScaler: (x + 0.5f) * scale - 0.5f in float32."""
    return (x.astype(np.float32) + np.float32(0.5)) * scale - np.float32(0.5)


def legacy(x: np.ndarray, scale: np.float32) -> np.ndarray:
    """LegacyScaler: x * scale in float32."""
    return x.astype(np.float32) * scale


def _err(msg: str, op: str) -> errors.InvalidArgumentError:
    return errors.InvalidArgumentError(None, None, f"{msg} [Op:{op}]")


def check_forward(op: str, shape: list, size: tuple, align_corners: bool = False,
                  half_pixel_centers: bool = False) -> None:
    """ImageResizerState::ValidateAndCalculateOutputSize: InvalidArgumentError, in TF's order."""
    if half_pixel_centers and align_corners:
        raise _err("If half_pixel_centers is True, align_corners must be False.", op)
    if len(shape) != 4:
        raise _err(f"input must be 4-dimensional[{','.join(str(d) for d in shape)}]", op)
    if shape[3] <= 0:
        raise _err("image must have at least one channel", op)
    if shape[1] <= 0 or shape[2] <= 0:
        raise _err("input image must be of non-zero size", op)
    if shape[1] >= 2**31 - 1 or shape[2] >= 2**31 - 1:
        raise _err("input sizes must be between 0 and max int32", op)
    if len(size) != 2:
        raise _err(f"shape_t must have two elements[{len(size)}]", op)
    if size[0] <= 0 or size[1] <= 0:
        raise _err("output dimensions must be positive", op)


def check_grad(op: str, grad_shape: list, original_shape: list, grad_dtype_name: str, align_corners: bool = False,
               half_pixel_centers: bool = False) -> None:
    """The gradient kernel's constructor check (half_pixel_centers with align_corners; fz35a, seed 3520261216
    #92), then ImageResizerGradientState::ValidateAndCreateOutput's checks."""
    if half_pixel_centers and align_corners:
        raise _err("If half_pixel_centers is True, align_corners must be False.", op)
    if len(grad_shape) != 4:
        raise _err(f"input_grad must be 4-dimensional[{','.join(str(d) for d in grad_shape)}]", op)
    if grad_dtype_name != "float32":
        raise _err(f"input_grad must be of type float{grad_dtype_name}", op)
    if grad_shape[1] <= 0 or grad_shape[2] <= 0:
        raise _err("resized dimensions must be positive", op)
    if len(original_shape) != 4:
        raise _err("original_image must be 4-dimensional", op)
    if original_shape[1] <= 0 or original_shape[2] <= 0:
        raise _err("original dimensions must be positive", op)
