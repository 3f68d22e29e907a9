"""tf.image.combined_non_max_suppression (TF's CombinedNonMaxSuppression, non_max_suppression_op.cc):
per image and class, greedy NMS of the boxes scoring above score_threshold (DoNMSPerClass: a
std::priority_queue on score alone, whose order among equal scores is libstdc++'s heap's, emulated
here), at most min(max_output_size_per_class, num_boxes) per class in per-class slots; then per
image the candidates sorted by score (descending), the first min(valid, max_total_size) (or, with
pad_per_class, min(max_total_size, max_per_class·classes)) kept, boxes clipped to [0, 1] unless
clip_boxes is False, zero-padded. Outputs: boxes [batch, n, 4], scores and classes [batch, n]
(float32), valid_detections [batch] int32. The final sort is std::sort (not stable): candidates
with equal scores may come out in another order than TF's. No gradient. Clause ops.image-boxes.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from simdist.runtime import context, dtypes, errors
from simdist.runtime.ops import attr_rules, dispatch, trace_errors
from simdist.runtime.ops.args import dtype_error
from simdist.runtime.ops.counting import no_tf_gradient
from simdist.runtime.ops.image_nms import _corners, _iou
from simdist.runtime.ops.op_outputs import named_outputs
from simdist.runtime.ops.registry import lanes, register
from simdist.runtime.ops.shape_checks import dim, shape_fn
from simdist.runtime.tensor import Tensor, convert_to_tensor

__all__ = ["combined_non_max_suppression"]

_F = np.float32


class _MaxHeap:
    """std::priority_queue<Candidate, vector, cmp> with cmp(a, b) = a.score < b.score: libstdc++'s
    push_heap / pop_heap, so that equal scores leave in the same order as TF's."""

    def __init__(self) -> None:
        self.v: list[tuple[Any, int]] = []   # (score, box index)

    def push(self, item: tuple[Any, int]) -> None:
        v = self.v
        v.append(item)
        self._sift_up(len(v) - 1, 0, item)

    def _sift_up(self, hole: int, top: int, value: tuple[Any, int]) -> None:
        v = self.v
        parent = (hole - 1) // 2
        while hole > top and v[parent][0] < value[0]:
            v[hole] = v[parent]
            hole = parent
            parent = (hole - 1) // 2
        v[hole] = value

    def pop(self) -> tuple[Any, int]:
        v = self.v
        top = v[0]
        value = v[-1]
        n = len(v) - 1
        if n == 0:
            v.pop()
            return top
        v[-1] = top
        hole, second = 0, 0
        while second < (n - 1) // 2:
            second = 2 * (second + 1)
            if v[second][0] < v[second - 1][0]:
                second -= 1
            v[hole] = v[second]
            hole = second
        if (n & 1) == 0 and second == (n - 2) // 2:
            second = 2 * (second + 1)
            v[hole] = v[second - 1]
            hole = second - 1
        self._sift_up(hole, 0, value)
        v.pop()
        return top

    def __len__(self) -> int:
        return len(self.v)


def _forward(boxes: np.ndarray, scores: np.ndarray, max_per_class: np.ndarray, max_total: np.ndarray,
             iou: np.ndarray, score_th: np.ndarray, pad_per_class: bool = False,
             clip_boxes: bool = True) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    # (TF 2.21's CombinedNonMaxSuppressionOp::Compute order: the batch sizes, the scalars and their
    # ranges, then ParseAndCheckCombinedNMSBoxSizes and CheckCombinedNMSScoreSizes, whose messages
    # run the shape on without a space; fz20: fz14 seed 1420261219 #360. A boxes or scores of rank 0
    # there, or scores of rank < 3 at `scores.dim_size(2)`, fails TF's CHECK and aborts the process:
    # simdist raises the rank error instead)
    def shape_text(a: np.ndarray) -> str:
        return "[" + ",".join(map(str, a.shape)) + "]"

    if boxes.ndim and scores.ndim and boxes.shape[0] != scores.shape[0]:
        raise errors.InvalidArgumentError(None, None, "boxes and scores must have same batch size")
    for a, what in ((max_per_class, "max_size_per_class"), (max_total, "max_total_size"), (iou, "iou_threshold"),
                    (score_th, "score_threshold")):
        if a.ndim != 0:
            raise errors.InvalidArgumentError(None, None, f"{what} must be 0-D, got shape {shape_text(a)}")
        if what == "max_size_per_class" and int(a) <= 0:
            raise errors.InvalidArgumentError(None, None, "max_size_per_class must be positive")
        if what == "max_total_size" and int(a) <= 0:
            raise errors.InvalidArgumentError(None, None, "max_total_size must be > 0")
    per_class, total = int(max_per_class), int(max_total)
    it, st = _F(iou), _F(score_th)
    if not (it >= 0 and it <= 1):
        raise errors.InvalidArgumentError(None, None, "iou_threshold must be in [0, 1]")
    scores_rank = errors.InvalidArgumentError(None, None, f"scores must be 3-D{shape_text(scores)}")
    if scores.ndim < 3:
        raise scores_rank
    if boxes.ndim != 4:
        raise errors.InvalidArgumentError(None, None, f"boxes must be 4-D{shape_text(boxes)}")
    batch, n, q, _ = boxes.shape
    classes = scores.shape[2]
    if q not in (1, classes):
        raise errors.InvalidArgumentError(None, None, "third dimension of boxes must be either 1 or num classes")
    if boxes.shape[3] != 4:
        raise errors.InvalidArgumentError(None, None, "boxes must have 4 columns")
    if scores.ndim != 3:
        raise scores_rank
    if scores.shape[1] != n:
        raise errors.InvalidArgumentError(None, None, "scores has incompatible shape")
    size_per_class = min(per_class, n)
    max_total_size = min(2**31 - 1, per_class * classes)
    per_batch = min(total, max_total_size) if pad_per_class else total
    out_boxes = np.zeros((batch, per_batch, 4), _F)
    out_scores = np.zeros((batch, per_batch), _F)
    out_classes = np.zeros((batch, per_batch), _F)
    valid = np.zeros(batch, np.int32)
    for b in range(batch):
        slots: list[tuple[Any, int, int, np.ndarray]] = [(_F(-np.inf), -1, -1, np.zeros(4, _F))] * (
            size_per_class * classes)
        for c in range(classes):
            cb = boxes[b, :, c if q > 1 else 0, :].astype(_F)
            corners = _corners(cb)
            heap = _MaxHeap()
            for i in range(n):
                s = _F(scores[b, i, c])
                if s > st:
                    heap.push((s, i))
            selected: list[int] = []
            while len(selected) < size_per_class and len(heap):
                s, i = heap.pop()
                if all(not (_iou(corners, i, j) > it) for j in reversed(selected)):
                    slots[len(selected) + size_per_class * c] = (s, i, c, cb[i])
                    selected.append(i)
        order = sorted(range(len(slots)), key=lambda k: -float(slots[k][0]))   # (std::sort by score, descending)
        count = sum(1 for sl in slots if sl[1] > -1)
        keep = min(count, total) if not pad_per_class else min(per_batch, count)
        valid[b] = keep
        for r, k in enumerate(order[:keep]):
            s, _, c, box = slots[k]
            out_boxes[b, r] = np.clip(box, _F(0), _F(1)) if clip_boxes else box
            out_scores[b, r] = s
            out_classes[b, r] = _F(c)
    return out_boxes, out_scores, out_classes, valid


def _rule(dts: Any, attrs: Any) -> tuple:
    want = (dtypes.float32, dtypes.float32, dtypes.int32, dtypes.int32, dtypes.float32, dtypes.float32)
    for i, (d, w) in enumerate(zip(dts, want)):
        if d != w:
            raise dtype_error("CombinedNonMaxSuppression", i, w, d)
    return (dtypes.float32, dtypes.float32, dtypes.float32, dtypes.int32)


COMBINED_NMS = register("CombinedNonMaxSuppression", _forward, _rule, lambda a, out, at: float(a[1].size) ** 1.5,
                        num_outputs=4, kind="sort",
                        fusion=lanes("a greedy selection per image and class: its outputs depend on the values"))
no_tf_gradient("CombinedNonMaxSuppression")


def _classes_fit(shapes: list, attrs: dict | None) -> str | None:
    q, classes = dim(shapes[0], 2), dim(shapes[1], 2)
    if q is not None and classes is not None and q != 1 and q != classes:
        return "third dimension of boxes must be either 1 or equal to the third dimension of scores"
    return None


# image_ops.cc CombinedNMSShapeFn: boxes [batch, anchors, q, 4], scores [batch, anchors, classes], the rest
# scalars, q 1 or classes (max_total_size's and max_output_size_per_class's values: not modelled)
COMBINED_NMS.trace_shape = shape_fn(("rank", 0, 4), ("rank", 1, 3), *(("rank", i, 0) for i in range(2, 6)),
                                    ("merge", 0, 0, 1, 0), ("merge", 0, 1, 1, 1), ("dim", 0, 3, 4),
                                    ("fn", _classes_fit))


def _typed(v: Any, dt: dtypes.DType) -> Tensor:
    """An input of fixed dtype `dt`: a tensor as it is, a NumPy value converted with `dt` as a
    hint (its own dtype kept when it does not convert), a Python value with `dt`."""
    if isinstance(v, Tensor):
        return v
    if isinstance(v, (np.ndarray, np.generic)):
        return convert_to_tensor(v, dtype_hint=dt)
    return convert_to_tensor(v, dtype=dt)


def combined_non_max_suppression(boxes: Any, scores: Any, max_output_size_per_class: Any, max_total_size: Any,
                                 iou_threshold: Any = 0.5, score_threshold: Any = float("-inf"),
                                 pad_per_class: bool = False, clip_boxes: bool = True,
                                 name: str | None = None) -> tuple[Tensor, Tensor, Tensor, Tensor]:
    """`tf.image.combined_non_max_suppression`: (nmsed_boxes, nmsed_scores, nmsed_classes, valid_detections)."""
    # image_ops converts the thresholds and max_total_size first; the generated wrapper then its
    # attributes (make_bool) and the inputs the op def types: a Python value with that dtype
    # (max_output_size_per_class=2.5 is TypeError "Cannot convert 2.5 to EagerTensor of dtype
    # int32"; ops.attr-types), a NumPy value keeping its own (fz14 seed 1420261202 #104, #469, #538)
    it = iou_threshold if isinstance(iou_threshold, Tensor) else convert_to_tensor(iou_threshold, dtype=dtypes.float32)
    st = (score_threshold if isinstance(score_threshold, Tensor)
          else convert_to_tensor(score_threshold, dtype=dtypes.float32))
    mt = max_total_size if isinstance(max_total_size, Tensor) else convert_to_tensor(max_total_size)
    attr_rules.check("CombinedNonMaxSuppression", pad_per_class=pad_per_class, clip_boxes=clip_boxes)
    # (eagerly, an input the fast path does not take (a list, a NumPy scalar: attr_rules.fast_path_takes)
    # sends the call to the op's eager fallback, which converts the inputs in order with their op-def
    # dtypes: a tensor of another dtype is its ValueError before the kernel; fz14 seed 1420261219 #360)
    fixed = ((boxes, dtypes.float32), (scores, dtypes.float32), (max_output_size_per_class, dtypes.int32),
             (mt, dtypes.int32), (it, dtypes.float32), (st, dtypes.float32))
    fallback = not context.in_function() and not attr_rules.fast_path_takes(
        "CombinedNonMaxSuppression", tuple(v for v, _ in fixed), pad_per_class=pad_per_class, clip_boxes=clip_boxes)
    converted = []
    for (v, dt), arg in zip(fixed, ("boxes", "scores", "max_output_size_per_class", "max_total_size", "iou_threshold",
                                    "score_threshold")):
        if fallback and isinstance(v, Tensor):
            attr_rules.fallback_conversion(v, dt)
        if not fallback and not context.in_function() and hasattr(v, "_as_tensor") and not isinstance(v, Tensor):
            # (the fast path reads a variable as it is: another dtype is the kernel's InvalidArgumentError;
            # fz21, fz14 seed 1420262101 #172)
            converted.append(v._as_tensor())
            continue
        if context.in_function() and (isinstance(v, Tensor) or hasattr(v, "_as_tensor")):
            # (a graph's op_def_library types a variable as the tensor it reads: a float32 one for
            # max_output_size_per_class is its TypeError "Input 'max_output_size_per_class' of ...", not the
            # dtype conversion's ValueError; fz39b, fz14 seed 1420393001 #109)
            converted.append(trace_errors.fixed_operand(v, dt, "CombinedNonMaxSuppression", arg))
            continue
        converted.append(_typed(v, dt))
    b, s, mpc = converted[:3]
    return named_outputs("CombinedNonMaxSuppression", dispatch.execute(
        COMBINED_NMS, (b, s, mpc, mt, it, st), {"pad_per_class": bool(pad_per_class), "clip_boxes": bool(clip_boxes)}))
