"""tf.image.non_max_suppression_padded: TF 2.21's Python implementation
(image_ops_impl.non_max_suppression_padded_v2) composed of the same ops: scores sorted descending,
boxes canonicalised by the first box's corner order, padded to whole tiles of `tile_size`, and
suppressed tile by tile in while_loops (cross-tile suppression by earlier tiles, then the tile's
self-suppression iterated to a fixed point), IOU as _bbox_overlap computes it (with 1e-8 added to
the union). Returns (indices, num_valid): padded with zeros to max_output_size, or cut to
num_valid for a single image when pad_to_max_output_size is False. Clause ops.image-boxes.
"""

from __future__ import annotations

from typing import Any

from simdist.runtime import dtypes
from simdist.runtime.ops import trace_errors
from simdist.runtime.tensor import Tensor, convert_to_tensor

__all__ = ["non_max_suppression_padded"]


def _ops() -> Any:
    from simdist.runtime import ops
    return ops


def _bbox_overlap(a: Tensor, b: Tensor) -> Tensor:
    ops = _ops()
    ay0, ax0, ay1, ax1 = ops.split(a, 4, axis=2)
    by0, bx0, by1, bx1 = ops.split(b, 4, axis=2)
    t = (0, 2, 1)
    i_xmin = ops.maximum(ax0, ops.transpose(bx0, t))
    i_xmax = ops.minimum(ax1, ops.transpose(bx1, t))
    i_ymin = ops.maximum(ay0, ops.transpose(by0, t))
    i_ymax = ops.minimum(ay1, ops.transpose(by1, t))
    i_area = ops.maximum(i_xmax - i_xmin, 0) * ops.maximum(i_ymax - i_ymin, 0)
    a_area = (ay1 - ay0) * (ax1 - ax0)
    b_area = (by1 - by0) * (bx1 - bx0)
    u_area = a_area + ops.transpose(b_area, t) - i_area + 1e-8
    return i_area / u_area


def _self_suppression(iou: Tensor, _: Any, iou_sum: Tensor, iou_threshold: Tensor) -> list:
    ops = _ops()
    batch = ops.shape(iou)[0]
    can = ops.cast(ops.reshape(ops.less(ops.reduce_max(iou, 1), iou_threshold), ops.stack([batch, -1, 1])),
                   iou.dtype)
    after = ops.reshape(ops.cast(ops.less(ops.reduce_max(can * iou, 1), iou_threshold), iou.dtype),
                        ops.stack([batch, -1, 1])) * iou
    new_sum = ops.reduce_sum(after, [1, 2])
    return [after, ops.reduce_any(ops.greater(iou_sum - new_sum, iou_threshold)), new_sum, iou_threshold]


def _suppression_body(boxes: Tensor, iou_threshold: Tensor, output_size: Tensor, idx: Tensor,
                      tile_size: int) -> tuple:
    from simdist.runtime.ops.control_flow import while_loop
    ops = _ops()
    num_tiles = ops.shape(boxes)[1] // tile_size
    batch = ops.shape(boxes)[0]

    def cross(bx: Tensor, box_slice: Tensor, th: Tensor, inner: Tensor) -> tuple:
        new_slice = ops.slice_(bx, ops.stack([0, inner * tile_size, 0]), ops.stack([batch, tile_size, 4]))
        iou = _bbox_overlap(new_slice, box_slice)
        kept = ops.expand_dims(ops.cast(ops.reduce_all(ops.less(iou, th), [1]), box_slice.dtype), 2) * box_slice
        return bx, kept, th, inner + 1

    box_slice = ops.slice_(boxes, ops.stack([0, idx * tile_size, 0]), ops.stack([batch, tile_size, 4]))
    _, box_slice, _, _ = while_loop(lambda _b, _s, _t, inner: ops.less(inner, idx), cross,
                                    [boxes, box_slice, iou_threshold, convert_to_tensor(0)])
    iou = _bbox_overlap(box_slice, box_slice)
    r = ops.range_(tile_size)
    mask = ops.expand_dims(ops.greater(ops.reshape(r, [1, -1]), ops.reshape(r, [-1, 1])), 0)
    iou = iou * ops.cast(ops.logical_and(mask, ops.greater_equal(iou, iou_threshold)), iou.dtype)
    suppressed, _, _, _ = while_loop(lambda _i, go, _s, _t: go, _self_suppression,
                                     [iou, convert_to_tensor(True), ops.reduce_sum(iou, [1, 2]), iou_threshold])
    suppressed_box = ops.greater(ops.reduce_sum(suppressed, 1), 0)
    box_slice = box_slice * ops.expand_dims(1.0 - ops.cast(suppressed_box, box_slice.dtype), 2)
    tile_mask = ops.reshape(ops.cast(ops.equal(ops.range_(num_tiles), idx), boxes.dtype), [1, -1, 1, 1])
    boxes = (ops.tile(ops.expand_dims(box_slice, [1]), ops.stack([1, num_tiles, 1, 1])) * tile_mask
             + ops.reshape(boxes, ops.stack([batch, num_tiles, tile_size, 4])) * (1 - tile_mask))
    boxes = ops.reshape(boxes, ops.stack([batch, -1, 4]))
    output_size = output_size + ops.reduce_sum(
        ops.cast(ops.reduce_any(ops.greater(box_slice, 0), [2]), dtypes.int32), [1])
    return boxes, iou_threshold, output_size, idx + 1


def _padded_v2(boxes: Any, scores: Any, max_output_size: Any, iou_threshold: Any, score_threshold: Any,
               sorted_input: bool, canonicalized_coordinates: bool, tile_size: int) -> tuple[Tensor, Tensor]:
    from simdist.runtime.ops.control_flow import cond, while_loop
    from simdist.runtime.ops.sorting import argsort, top_k
    ops = _ops()
    # (@def_function.function(experimental_implements=...) converts every argument to a tensor, Python floats,
    # bools and ints too (observed on TF 2.21), and autograph makes each `if`/`not` on them a tf.cond/logical_not
    # whose branches are both built: the default score_threshold -inf is a float32 tensor, so scores of any other
    # dtype are TypeError at Greater; a non-bool canonicalized_coordinates or sorted_input TypeError at
    # LogicalNot; fz63, fz62gen seed 63404 #7)
    boxes = boxes if isinstance(boxes, Tensor) else convert_to_tensor(boxes)
    scores = scores if isinstance(scores, Tensor) else convert_to_tensor(scores)
    mos = max_output_size if isinstance(max_output_size, Tensor) else convert_to_tensor(max_output_size)
    iou_threshold, score_threshold, sorted_input, canonicalized_coordinates, tile_size = [
        v if isinstance(v, Tensor) else convert_to_tensor(v)
        for v in (iou_threshold, score_threshold, sorted_input, canonicalized_coordinates, tile_size)]
    batch_dims = ops.shape(boxes)[:-2]
    num_boxes = ops.shape(boxes)[-2]
    boxes = ops.reshape(boxes, ops.stack([-1, num_boxes, 4]))
    scores = ops.reshape(scores, ops.stack([-1, num_boxes]))
    batch = ops.shape(boxes)[0]

    def filtered() -> tuple:
        score_mask = ops.cast(ops.greater(scores, score_threshold), scores.dtype)
        return scores * score_mask, boxes * ops.expand_dims(ops.cast(score_mask, boxes.dtype), 2)
    scores, boxes = cond(ops.not_equal(score_threshold, float("-inf")), filtered, lambda: (scores, boxes))

    def canonical() -> Tensor:
        y1, x1, y2, x2 = ops.split(boxes, 4, axis=2)
        y_min, y_max = cond(ops.reduce_all(ops.less_equal(y1[0, 0, 0], y2[0, 0, 0])), lambda: (y1, y2),
                            lambda: (y2, y1))
        x_min, x_max = cond(ops.reduce_all(ops.less_equal(x1[0, 0, 0], x2[0, 0, 0])), lambda: (x1, x2),
                            lambda: (x2, x1))
        return ops.concat([y_min, x_min, y_max, x_max], axis=2)
    boxes = cond(ops.logical_not(canonicalized_coordinates), canonical, lambda: boxes)

    def by_score() -> tuple:
        o = argsort(scores, axis=1, direction="DESCENDING")
        return ops.gather(scores, o, axis=1, batch_dims=1), ops.gather(boxes, o, axis=1, batch_dims=1), o
    unsorted = ops.logical_not(sorted_input)
    scores, boxes, order = cond(unsorted, by_score,
                                lambda: (scores, boxes, ops.zeros_like(scores, dtype=dtypes.int32)))
    pad = ops.cast(ops.ceil(ops.cast(ops.maximum(num_boxes, mos), dtypes.float32)
                            / ops.cast(tile_size, dtypes.float32)), dtypes.int32) * tile_size - num_boxes
    boxes = ops.pad(ops.cast(boxes, dtypes.float32), ops.stack([[0, 0], ops.stack([0, pad]), [0, 0]]))
    scores = ops.pad(ops.cast(scores, dtypes.float32), ops.stack([[0, 0], ops.stack([0, pad])]))
    padded_n = num_boxes + pad
    iterations = padded_n // tile_size

    def loop_cond(_b: Any, _t: Any, output_size: Tensor, idx: Tensor) -> Tensor:
        return ops.logical_and(ops.less(ops.reduce_min(output_size), mos), ops.less(idx, iterations))

    selected, _, output_size, _ = while_loop(
        loop_cond, lambda b, t, o, i: _suppression_body(b, t, o, i, tile_size),
        [boxes, iou_threshold, ops.zeros(ops.stack([batch]), dtypes.int32), convert_to_tensor(0)])
    num_valid = ops.minimum(output_size, mos)
    ranks = ops.cast(ops.reduce_any(ops.greater(selected, 0), [2]), dtypes.int32) * ops.expand_dims(
        ops.range_(padded_n, 0, -1), 0)
    idx = padded_n - ops.cast(top_k(ranks, mos)[0], dtypes.int32)
    idx = ops.minimum(idx, num_boxes - 1)

    def in_input_order() -> Tensor:
        offsets = ops.range_(batch) * num_boxes
        gather_idx = ops.reshape(idx + ops.expand_dims(offsets, 1), [-1])
        return ops.reshape(ops.gather(ops.reshape(order, [-1]), gather_idx), ops.stack([batch, -1]))
    idx = cond(unsorted, in_input_order, lambda: idx)
    invalid = ops.zeros(ops.stack([batch, mos]), dtype=dtypes.int32)
    idx_index = ops.expand_dims(ops.range_(mos), 0)
    idx = ops.where(ops.less(idx_index, ops.expand_dims(num_valid, 1)), idx, invalid)
    return idx, ops.reshape(num_valid, batch_dims)


def non_max_suppression_padded(boxes: Any, scores: Any, max_output_size: Any, iou_threshold: Any = 0.5,
                               score_threshold: Any = float("-inf"), pad_to_max_output_size: bool = False,
                               name: str | None = None, sorted_input: bool = False,
                               canonicalized_coordinates: bool = False, tile_size: int = 512) -> tuple[Tensor, Tensor]:
    """`tf.image.non_max_suppression_padded`: (selected indices, num_valid), TF's tiled algorithm."""
    ops = _ops()
    if not pad_to_max_output_size:
        rank = boxes.get_shape().rank   # (TF reads it as it is: a list is AttributeError)
        if rank is not None and rank > 2:
            raise ValueError(f"'pad_to_max_output_size' (value {pad_to_max_output_size}) must be True for batched "
                             "input")
    # (TF's non_max_suppression_padded_v2 is a @def_function.function: traced, even from eager code)
    idx, num_valid = trace_errors.as_function(_padded_v2, boxes, scores, max_output_size, iou_threshold,
                                              score_threshold, sorted_input, canonicalized_coordinates, tile_size)
    if not pad_to_max_output_size:
        idx = idx[0, :num_valid]
    else:
        b = boxes if isinstance(boxes, Tensor) else convert_to_tensor(boxes)
        mos = max_output_size if isinstance(max_output_size, Tensor) else convert_to_tensor(max_output_size)
        idx = ops.reshape(idx, ops.concat([ops.shape(b)[:-2], ops.expand_dims(mos, 0)], 0))
    return idx, num_valid
