"""tf.image.ssim_multiscale, as image_ops_impl.ssim_multiscale composes it: SSIM's contrast-structure
at five scales (each halving the image by a 2×2 VALID average pool, after SYMMETRIC padding of odd
sizes) and SSIM at the last, relu'd, raised to power_factors and multiplied, then averaged over the
channels. Clause ops.image.
"""

from __future__ import annotations

from typing import Any, Sequence

from simdist.runtime.ops import static_shapes
from simdist.runtime.ops.image_basic import ssim_inputs, ssim_per_channel
from simdist.runtime.tensor import Tensor

__all__ = ["ssim_multiscale"]

_MSSSIM_WEIGHTS = (0.0448, 0.2856, 0.3001, 0.2363, 0.1333)


def ssim_multiscale(img1: Any, img2: Any, max_val: Any, power_factors: Sequence[float] = _MSSSIM_WEIGHTS,
                    filter_size: int = 11, filter_sigma: float = 1.5, k1: float = 0.01, k2: float = 0.03) -> Tensor:
    """`tf.image.ssim_multiscale`: MS-SSIM of two image batches (one value per image)."""
    from simdist.runtime import ops
    from simdist.runtime.ops.activations import relu
    from simdist.runtime.ops.pooling import avg_pool
    a, b, mv = ssim_inputs(img1, img2, max_val)
    imgs = [a, b]
    heads = [x.shape.as_list()[:-3] for x in imgs]
    tails = [x.shape.as_list()[-3:] for x in imgs]
    divisor = [1, 2, 2, 1]
    mcs = []
    per_channel = None
    for k in range(len(power_factors)):
        if k > 0:
            flat = [ops.reshape(x, [-1] + t) for x, t in zip(imgs, tails)]
            remainder = [tails[0][0] % 2, tails[0][1] % 2, tails[0][2] % 1]
            if any(remainder):
                padding = [[0, 0]] + [[0, r] for r in remainder]
                flat = [ops.pad(x, padding, mode="SYMMETRIC") for x in flat]
            down = [avg_pool(x, ksize=divisor, strides=divisor, padding="VALID") for x in flat]
            tails = [x.shape.as_list()[1:] for x in down]
            imgs = [ops.reshape(x, h + t) for x, h, t in zip(down, heads, tails)]
            # (TF pads in a tf_cond.cond whose padding branch the graph cannot size: past the first
            # scale the images' height, width and channels are unknown to it; fz29b)
            imgs = [static_shapes.mark(x, (False,) * len(h) + (True,) * 3) for x, h in zip(imgs, heads)]
        per_channel, cs = ssim_per_channel(*imgs, mv, filter_size, filter_sigma, k1, k2)
        mcs.append(relu(cs))
    mcs.pop()
    stacked = ops.stack(mcs + [relu(per_channel)], axis=-1)
    ms = ops.reduce_prod(ops.pow_(stacked, ops.constant(list(power_factors), dtype=stacked.dtype)), [-1])
    return ops.reduce_mean(ms, [-1])
