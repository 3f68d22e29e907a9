"""`keras.layers.ContrastLimitedAdaptiveHistogramEqualization` (Keras 3.15's clahe.py): per image
and channel, the image (mapped from `value_range` to [0, 255], float32) is padded symmetrically to
whole tiles of a `tile_grid_size` grid; each tile's 256-bin histogram of int32(x) (one_hot sums)
is clipped at clip_limit * tile pixels / 256 with the excess spread evenly, its cdf normalised to
[0, 255]; each pixel takes the bilinear blend of the four nearest tiles' tables at its value
(edge tiles repeated), and the result is cropped and mapped back. Not random; applied in training
and inference alike (Keras's transform_images ignores `training`)."""

from __future__ import annotations

from typing import Any

from simdist.keras.layers import argument_validation
from simdist.keras.layers.preprocessing.image.base import BaseImagePreprocessingLayer

__all__ = ["ContrastLimitedAdaptiveHistogramEqualization"]


class ContrastLimitedAdaptiveHistogramEqualization(BaseImagePreprocessingLayer):
    """`keras.layers.ContrastLimitedAdaptiveHistogramEqualization(value_range=(0, 255),
    clip_limit=4.0, tile_grid_size=(8, 8), data_format=None)`."""

    def __init__(self, value_range: Any = (0, 255), clip_limit: float = 4.0, tile_grid_size: Any = (8, 8),
                 data_format: str | None = None, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.value_range = value_range
        self.clip_limit = clip_limit
        self.tile_grid_size = tile_grid_size
        self.data_format = argument_validation.standardize_data_format(data_format)

    def transform_images(self, images: Any, transformation: Any = None, training: bool = True) -> Any:
        np_ = self.backend.numpy
        rank4 = len(images.shape) == 4
        if self.data_format == "channels_first":
            images = np_.transpose(images, (0, 2, 3, 1) if rank4 else (1, 2, 0))
        original_dtype = images.dtype
        images = self._transform_value_range(images, self.value_range, (0, 255), dtype="float32")
        images = self._clahe(images)
        images = self._transform_value_range(images, (0, 255), self.value_range, dtype="float32")
        images = self.backend.cast(images, original_dtype)
        if self.data_format == "channels_first":
            images = np_.transpose(images, (0, 3, 1, 2) if rank4 else (2, 0, 1))
        return images

    def _padded(self, images: Any, height: int, width: int, channels: int, pad_h: int, pad_w: int) -> Any:
        np_ = self.backend.numpy
        if pad_h == 0 and pad_w == 0:
            return images
        images_3d = np_.reshape(np_.transpose(images, (0, 3, 1, 2)), (-1, height, width))
        padded_3d = np_.pad(images_3d, [[0, 0], [0, pad_h], [0, pad_w]], mode="symmetric")
        return np_.transpose(np_.reshape(padded_3d, (-1, channels, height + pad_h, width + pad_w)), (0, 2, 3, 1))

    def _tables(self, padded: Any, batch_size: int, channels: int, tile_h: int, tile_w: int) -> Any:
        """Each tile's clipped, normalised cdf, (batch, grid_h + 2, grid_w + 2, channels, 256) with
        the edge tiles repeated."""
        ops, np_ = self.backend, self.backend.numpy
        grid_h, grid_w = self.tile_grid_size
        tiled = np_.reshape(padded, (batch_size, grid_h, tile_h, grid_w, tile_w, channels))
        tiled = np_.reshape(np_.transpose(tiled, (0, 1, 3, 5, 2, 4)), (batch_size, grid_h, grid_w, channels,
                                                                       tile_h * tile_w))
        tiled_int = np_.clip(ops.cast(tiled, "int32"), 0, 255)
        hists = np_.sum(ops.nn.one_hot(tiled_int, 256), axis=-2)
        if self.clip_limit > 0:
            limit = ops.cast(self.clip_limit * (tile_h * tile_w) / 256.0, hists.dtype)
            clipped = np_.clip(hists, 0, limit)
            hists = clipped + np_.sum(hists - clipped, axis=-1, keepdims=True) / 256.0
        cdf = np_.cumsum(hists, axis=-1)
        cdf_min = np_.min(cdf, axis=-1, keepdims=True)
        denominator = ops.cast(tile_h * tile_w, cdf.dtype) - cdf_min
        denominator = np_.where(denominator == 0, np_.ones_like(denominator), denominator)
        cdf_norm = np_.clip((cdf - cdf_min) * 255.0 / denominator, 0, 255)
        cdf_padded = np_.concatenate([cdf_norm[:, 0:1], cdf_norm, cdf_norm[:, -1:]], axis=1)
        return np_.concatenate([cdf_padded[:, :, 0:1], cdf_padded, cdf_padded[:, :, -1:]], axis=2)

    def _clahe(self, images: Any) -> Any:
        ops, np_ = self.backend, self.backend.numpy
        unbatched = len(images.shape) == 3
        if unbatched:
            images = np_.expand_dims(images, axis=0)
        batch_size, height, width, channels = (images.shape[i] if images.shape[i] is not None
                                               else ops.core.shape(images)[i] for i in range(4))
        grid_h, grid_w = self.tile_grid_size
        tile_h, tile_w = (height + grid_h - 1) // grid_h, (width + grid_w - 1) // grid_w
        pad_h, pad_w = tile_h * grid_h - height, tile_w * grid_w - width
        padded = self._padded(images, height, width, channels, pad_h, pad_w)
        cdf_flat = np_.reshape(self._tables(padded, batch_size, channels, tile_h, tile_w), (-1,))

        def axis_grid(size: int, tile: int, grid: int) -> tuple[Any, Any, Any]:
            g = (np_.arange(size, dtype="float32") - tile / 2.0) / tile + 1.0
            lo = np_.floor(g)
            weight = g - lo
            return (ops.cast(np_.clip(lo, 0, grid + 1), "int32"), ops.cast(np_.clip(lo + 1.0, 0, grid + 1), "int32"),
                    weight)

        y0, y1, wy = axis_grid(tile_h * grid_h, tile_h, grid_h)
        x0, x1, wx = axis_grid(tile_w * grid_w, tile_w, grid_w)
        stride_c = 256
        stride_x = stride_c * channels
        stride_y = stride_x * (grid_w + 2)
        stride_b = stride_y * (grid_h + 2)
        pixels = ops.cast(np_.clip(padded, 0, 255), "int32")
        base = (np_.arange(batch_size, dtype="int32")[:, None, None, None] * stride_b
                + np_.arange(channels, dtype="int32")[None, None, None, :] * stride_c + pixels)
        y0_e, y1_e = y0[None, :, None, None], y1[None, :, None, None]
        x0_e, x1_e = x0[None, None, :, None], x1[None, None, :, None]
        wy_e, wx_e = wy[None, :, None, None], wx[None, None, :, None]
        val_nw = np_.take(cdf_flat, base + y0_e * stride_y + x0_e * stride_x)
        val_ne = np_.take(cdf_flat, base + y0_e * stride_y + x1_e * stride_x)
        val_sw = np_.take(cdf_flat, base + y1_e * stride_y + x0_e * stride_x)
        val_se = np_.take(cdf_flat, base + y1_e * stride_y + x1_e * stride_x)
        top = val_nw * (1.0 - wx_e) + val_ne * wx_e
        bottom = val_sw * (1.0 - wx_e) + val_se * wx_e
        result = (top * (1.0 - wy_e) + bottom * wy_e)[:, :height, :width, :]
        return np_.squeeze(result, axis=0) if unbatched else result

    def compute_output_shape(self, input_shape: Any) -> Any:
        return input_shape

    def get_config(self) -> dict[str, Any]:
        return {**super().get_config(), "value_range": self.value_range, "clip_limit": self.clip_limit,
                "tile_grid_size": self.tile_grid_size, "data_format": self.data_format}
