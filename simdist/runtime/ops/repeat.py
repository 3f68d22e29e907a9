"""`tf.repeat` (array_ops.repeat_with_axis) for a scalar count, as TF builds it: ExpandDims
after the axis, Tile that new axis `repeats` times, Reshape to the repeated shape — so its
values, gradient (Tile's: a sum over the copies) and cost are those ops'. Keras's
UpSampling1D/2D (nearest) are this op."""

from __future__ import annotations

from typing import Any

import numpy as np

from simdist.runtime.ops import array
from simdist.runtime.ops.args import t as _t
from simdist.runtime.ops.slicing import tile
from simdist.runtime.tensor import Tensor

__all__ = ["repeat"]


def repeat(input: Any, repeats: Any, axis: int | None = None, name: str | None = None) -> Tensor:  # noqa: A002
    """`tf.repeat(input, repeats, axis=None)`: each element along `axis` repeated `repeats`
    times (axis None: the flattened input). A per-element repeats vector is not implemented."""
    if axis is not None and not isinstance(axis, int):   # (array_ops.repeat_with_axis, before any conversion:
        # a NumPy integer is refused; fz14 seed 1420261219 #381)
        raise TypeError(f"Argument `axis` must be an int. Received `axis` = {axis} of type {type(axis).__name__}")
    x = _t(input)
    counts = np.asarray(repeats._v if isinstance(repeats, Tensor) else repeats)
    if counts.size != 1:
        raise NotImplementedError(f"simdist: tf.repeat with a vector of repeats ({counts.tolist()}) is not "
                                  "implemented; a scalar repeats is")
    k = int(counts.reshape(()))
    if axis is None:
        x, axis = array.reshape(x, [-1]), 0
    nd = x.ndim
    axis = int(axis)
    if not -nd <= axis < nd:
        raise ValueError(f"axis={axis} out of bounds: expected {-nd}<=axis<{nd}")
    axis %= nd
    shape = x.shape.as_list()
    multiples = [1] * (nd + 1)
    multiples[axis + 1] = k
    tiled = tile(array.expand_dims(x, axis + 1), multiples)
    return array.reshape(tiled, shape[:axis] + [shape[axis] * k] + shape[axis + 1:])
