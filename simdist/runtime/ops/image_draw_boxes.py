"""tf.image.draw_bounding_boxes (TF's DrawBoundingBoxesV2, draw_bounding_box_op.cc): each box's
outline drawn on a copy of the image in the colour of its index (cycling through `colors`, or
TF's default table when `colors` is empty; a 1-channel image's default colours have a first
channel 1). Box edges are float32 coordinate·(size − 1) truncated toward zero; inverted boxes and
boxes wholly outside are skipped, lines outside the image are not drawn. T: half or float. No
gradient (LookupError). Clause ops.image-boxes.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from simdist.runtime import context, dtypes, errors
from simdist.runtime.ops import attr_rules, dispatch, graph_inputs
from simdist.runtime.ops.counting import no_tf_gradient
from simdist.runtime.ops.registry import lanes, register
from simdist.runtime.ops.shape_checks import shape_fn
from simdist.runtime.tensor import Tensor, convert_to_tensor

__all__ = ["draw_bounding_boxes"]

_DEFAULT = [[1, 1, 0, 1], [0, 0, 1, 1], [1, 0, 0, 1], [0, 1, 0, 1], [0.5, 0, 0.5, 1], [0.5, 0.5, 0, 1],
            [0.5, 0, 0, 1], [0, 0, 0.5, 1], [0, 1, 1, 1], [1, 0, 1, 1]]


def _edge(v: Any, size: int) -> int:
    return int(np.float32(np.float32(v) * np.float32(size - 1)))   # (float) -> int64: toward zero


def _forward(images: np.ndarray, boxes: np.ndarray, colors: np.ndarray) -> np.ndarray:
    if images.ndim != 4:
        raise errors.InvalidArgumentError(None, None, "The rank of the images should be 4")
    if boxes.ndim != 3:
        raise errors.InvalidArgumentError(None, None, "The rank of the boxes tensor should be 3")
    if images.shape[0] != boxes.shape[0]:
        raise errors.InvalidArgumentError(None, None, "The batch sizes should be the same")
    batch, h, w, depth = images.shape
    if depth not in (1, 3, 4):
        raise errors.InvalidArgumentError(None, None, "Channel depth should be either 1 (GRY), 3 (RGB), or 4 (RGBA)")
    if boxes.shape[2] != 4:
        raise errors.InvalidArgumentError(None, None, "The size of the third dimension of the box must be 4. "
                                          f"Received: {boxes.shape[2]}")
    if colors.ndim != 2:
        raise errors.InvalidArgumentError(None, None, "colors must be a 2-D matrix[" +
                                          ",".join(map(str, colors.shape)) + "]")
    if colors.shape[1] < depth:
        raise errors.InvalidArgumentError(None, None, "colors must have equal or more channels than the image "
                                          "provided: [" + ",".join(map(str, colors.shape)) + "]")
    if colors.size:
        table = [list(row[:depth]) for row in colors.astype(np.float32)]
    else:
        table = [list(np.asarray(c, np.float32)) for c in _DEFAULT]
        if depth == 1:
            for c in table:
                c[0] = np.float32(1)
    out = images.copy()
    for b in range(batch):
        for bb in range(boxes.shape[1]):
            color = np.asarray(table[bb % len(table)][:depth], np.float32).astype(images.dtype)
            r0, r1 = _edge(boxes[b, bb, 0], h), _edge(boxes[b, bb, 2], h)
            c0, c1 = _edge(boxes[b, bb, 1], w), _edge(boxes[b, bb, 3], w)
            if r0 > r1 or c0 > c1 or r0 >= h or r1 < 0 or c0 >= w or c1 < 0:
                continue    # inverted, or completely outside the image: not drawn
            r0c, r1c, c0c, c1c = max(r0, 0), min(r1, h - 1), max(c0, 0), min(c1, w - 1)
            if r0 >= 0:
                out[b, r0, c0c:c1c + 1] = color
            if r1 < h:
                out[b, r1, c0c:c1c + 1] = color
            if c0 >= 0:
                out[b, r0c:r1c + 1, c0] = color
            if c1 < w:
                out[b, r0c:r1c + 1, c1] = color
    return out


def _rule(dts: Any, attrs: Any) -> dtypes.DType:
    d = dts[0]
    if d.name not in ("float16", "float32"):
        cpp = {"float64": "double"}.get(d.name, d.name)
        raise errors.InvalidArgumentError(None, None, f"Value for attr 'T' of {cpp} is not in the list of allowed "
                                          "values: float, half [Op:DrawBoundingBoxesV2]")
    return d


DRAW_BOUNDING_BOXES = register("DrawBoundingBoxesV2", _forward, _rule, lambda a, out, at: 0.0, kind="shape",
                               fusion=lanes("boxes are per image of the batch: a lane draws its own"))
no_tf_gradient("DrawBoundingBoxesV2")
DRAW_BOUNDING_BOXES.trace_shape = shape_fn(("rank>=", 0, 3))   # (image_ops.cc: UnchangedShapeWithRankAtLeast(c, 3))
# (a graph's run-time refusals, "The rank of the images should be 4" of a rank-3 image the shape function passes,
# leave a later op's graph-build error first: the dry runs go on with the images' shape, which the op keeps;
# fz41, fz14 seed 1420413002 #34: `~draw_bounding_boxes(rank-3 float image, ...)` is Invert's TypeError)
DRAW_BOUNDING_BOXES.standin_static = True
DRAW_BOUNDING_BOXES.standin = lambda arrays, attrs: (np.shape(arrays[0]),)


def draw_bounding_boxes(images: Any, boxes: Any, colors: Any, name: str | None = None) -> Tensor:
    """`tf.image.draw_bounding_boxes`: the images with each box's outline drawn in its colour."""
    # (a graph: op_def_library's input checks before the shape function: float64 boxes are
    # TypeError; fz23b: fz14 SEEN seed 1420261202 #935)
    graph_inputs.check("DrawBoundingBoxesV2", (images, boxes, colors))
    # (colors=None is the V1 op DrawBoundingBoxes of images and boxes alone)
    fast = attr_rules.fast_path_takes("DrawBoundingBoxesV2", (images, boxes) if colors is None else (images, boxes, colors))
    if isinstance(images, Tensor):
        img = images
    elif context.in_function():   # (op_def_library: the attr's default float32 preferred)
        img = convert_to_tensor(images, dtype_hint=dtypes.float32)
    else:
        # (eagerly attr T's default, float32: on the fast path a NumPy value is cast to it, an int64 array
        # draws in float32; on the eager fallback (a list, a NumPy scalar among the inputs) args_to_matching_eager
        # converts the value on its own first, so a list holding 2**64 - 1 is its ValueError "out-of-range
        # integer" before float32 is tried, and an int list converts again preferring float32; fz46, fz14 seed
        # 1420463002 #251)
        img = attr_rules.default_group([images], dtypes.float32, ("float32", "float16"), fast)[0]
    if not context.in_function() and fast:
        # (eagerly on the fast path attr T, read from the images, is refused before boxes and colors
        # convert: a float64 image beside an int32 Variable of colours is the attr's InvalidArgumentError;
        # fz25b, seed 1420262502 #123. The eager fallback (a NumPy scalar colors) converts boxes and
        # colors to float32 first: bool boxes are its ValueError; fz36b, seed 1420363006 #34)
        DRAW_BOUNDING_BOXES.dtype((img.dtype, dtypes.float32, dtypes.float32), None)
    if colors is None:
        # (the V1 op DrawBoundingBoxes has no colors input, and its kernel (the V2's) draws in the default table
        # when there is none, as for an empty [0, 4] one: its images' checks are the kernel's InvalidArgumentError;
        # isweep66)
        colors = np.zeros((0, 4), np.float32)
    # (boxes and colors: fixed float inputs; on the fast path a Variable passes as its own dtype and
    # the kernel's input check refuses it: InvalidArgumentError "cannot compute ...")
    bx, col = attr_rules.fixed_inputs("DrawBoundingBoxesV2", [(boxes, dtypes.float32, "boxes"),
                                                             (colors, dtypes.float32, "colors")], fast, first=1)
    if not context.in_function() and not fast:
        DRAW_BOUNDING_BOXES.dtype((img.dtype, dtypes.float32, dtypes.float32), None)
    return dispatch.execute(DRAW_BOUNDING_BOXES, (img, bx, col))
