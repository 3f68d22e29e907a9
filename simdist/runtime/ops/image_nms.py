"""tf.image.non_max_suppression (NonMaxSuppressionV3), non_max_suppression_with_scores
(NonMaxSuppressionV5, soft-NMS) and non_max_suppression_overlaps (NonMaxSuppressionWithOverlaps):
TF's greedy kernel (non_max_suppression_op.cc, DoNonMaxSuppressionOp) transcribed: candidates
above score_threshold in a priority queue by score (ties: the lower box index first); each is
compared with the boxes selected since it was last compared, newest first; hard suppression when
IOU > iou_threshold, soft-NMS weight exp(-0.5·IOU²/σ) otherwise; a candidate whose score changed
goes back into the queue if still above the threshold. IOU in float32 of each box's min/max
corners (0 when either area is <= 0). T (boxes, scores): half or float; thresholds T_threshold
half or float (V5: T). No gradients (LookupError). Clause ops.image-boxes.
"""

from __future__ import annotations

import heapq
from typing import Any

import numpy as np

from simdist.runtime import context, dtypes, errors
from simdist.runtime.ops import attr_rules, dispatch, partial_values, trace_errors
from simdist.runtime.ops.counting import no_tf_gradient
from simdist.runtime.ops.registry import NotDifferentiable, lanes, register
from simdist.runtime.ops.shape_checks import shape_fn
from simdist.runtime.tensor import Tensor, convert_to_tensor

__all__ = ["non_max_suppression", "non_max_suppression_with_scores", "non_max_suppression_overlaps"]

_F32 = np.float32
_CPP = {"float16": "half", "float32": "float", "float64": "double"}


def _iou(c: np.ndarray, i: int, j: int) -> np.float32:
    """IOU of boxes i and j: c holds each box's (ymin, xmin, ymax, xmax) and area, float32."""
    ai, aj = c[i, 4], c[j, 4]
    if ai <= 0 or aj <= 0:
        return _F32(0.0)
    ih = max(min(c[i, 2], c[j, 2]) - max(c[i, 0], c[j, 0]), _F32(0.0))
    iw = max(min(c[i, 3], c[j, 3]) - max(c[i, 1], c[j, 1]), _F32(0.0))
    inter = _F32(ih * iw)
    return _F32(inter / _F32(_F32(ai + aj) - inter))


def _corners(boxes: np.ndarray) -> np.ndarray:
    b = boxes.astype(_F32)
    ymin, ymax = np.minimum(b[:, 0], b[:, 2]), np.maximum(b[:, 0], b[:, 2])
    xmin, xmax = np.minimum(b[:, 1], b[:, 3]), np.maximum(b[:, 1], b[:, 3])
    area = ((ymax - ymin) * (xmax - xmin)).astype(_F32)
    return np.stack([ymin, xmin, ymax, xmax, area], axis=1)


def _exp(x: Any, t: Any) -> Any:
    """Eigen::numext::exp<T>: the C library's expf for float (glibc, libm.py), half through float."""
    from simdist.runtime.ops.libm import scalar_map
    return t(scalar_map("expf", np.asarray([x], np.float32))[0])


def _greedy(scores: np.ndarray, output_size: int, threshold: Any, score_threshold: Any, sigma: Any,
            similarity: Any, t: Any) -> tuple[list[int], list[Any]]:
    """DoNonMaxSuppressionOp in the kernel's type t (np.float32 or np.float16)."""
    if output_size < 0:
        raise errors.InvalidArgumentError(None, None, "output size must be non-negative")
    heap: list[tuple[Any, int, Any, int]] = []
    for i, s in enumerate(scores):
        if s > score_threshold:
            heap.append((-float(s), i, s, 0))
    heapq.heapify(heap)
    soft = sigma > t(0.0)
    scale = t(t(-0.5) / sigma) if soft else t(0.0)
    selected: list[int] = []
    kept: list[Any] = []
    while len(selected) < output_size and heap:
        _, box, score, begin = heapq.heappop(heap)
        original = score
        hard = False
        for j in range(len(selected) - 1, begin - 1, -1):
            sim = t(similarity(box, selected[j]))
            w = _exp(t(t(scale * sim) * sim), t)
            score = t(score * (w if (soft or sim <= threshold) else t(0.0)))
            if not soft and sim > threshold:
                hard = True
                break
            if score <= score_threshold:
                break
        begin = len(selected)
        if not hard:
            if score == original:
                selected.append(box)
                kept.append(score)
                continue
            if score > score_threshold:
                heapq.heappush(heap, (-float(score), box, score, begin))
    return selected, kept


def _scalar(x: np.ndarray, what: str, dims: bool = True) -> Any:
    if x.ndim != 0:
        extra = f" (Shape must be rank 0 but is rank {x.ndim})" if dims else ""
        raise errors.InvalidArgumentError(None, None, f"{what} must be 0-D, got shape [{','.join(map(str, x.shape))}]"
                                          + extra)
    return x[()]


def _check_boxes(boxes: np.ndarray, scores: np.ndarray) -> int:
    if boxes.ndim != 2:
        raise errors.InvalidArgumentError(None, None, f"boxes must be 2-D[{','.join(map(str, boxes.shape))}] (Shape "
                                          f"must be rank 2 but is rank {boxes.ndim})")
    n = boxes.shape[0]
    if boxes.shape[1] != 4:
        raise errors.InvalidArgumentError(None, None, "boxes must have 4 columns (Dimension must be 4 but is "
                                          f"{boxes.shape[1]})")
    _check_scores(scores, n)
    return n


def _check_scores(scores: np.ndarray, n: int) -> None:
    if scores.ndim != 1:
        raise errors.InvalidArgumentError(None, None, f"scores must be 1-D[{','.join(map(str, scores.shape))}] (Shape "
                                          f"must be rank 1 but is rank {scores.ndim})")
    if scores.shape[0] != n:
        raise errors.InvalidArgumentError(None, None, "scores has incompatible shape (Dimensions must be equal, but "
                                          f"are {n} and {scores.shape[0]})")


def _v3(boxes: np.ndarray, scores: np.ndarray, size: np.ndarray, iou: np.ndarray, score_th: np.ndarray) -> np.ndarray:
    t = np.float16 if boxes.dtype == np.float16 else _F32
    out_size = int(_scalar(size, "max_output_size"))
    it = t(_scalar(iou, "iou_threshold"))
    if not (it >= t(0.0) and it <= t(1.0)):
        raise errors.InvalidArgumentError(None, None, "iou_threshold must be in [0, 1]")
    st = t(_scalar(score_th, "score_threshold", dims=False))
    _check_boxes(boxes, scores)
    c = _corners(boxes)
    sel, _ = _greedy(scores.astype(t), out_size, it, st, t(0.0), lambda i, j: _iou(c, i, j), t)
    return np.asarray(sel, np.int32)


def _v5(boxes: np.ndarray, scores: np.ndarray, size: np.ndarray, iou: np.ndarray, score_th: np.ndarray,
        sigma: np.ndarray, pad_to_max_output_size: bool = False) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    t = np.float16 if boxes.dtype == np.float16 else _F32
    out_size = int(_scalar(size, "max_output_size", dims=False))
    it = t(_scalar(iou, "iou_threshold", dims=False))
    if not (it >= t(0.0) and it <= t(1.0)):
        raise errors.InvalidArgumentError(None, None, "iou_threshold must be in [0, 1]")
    st = t(_scalar(score_th, "score_threshold", dims=False))
    sg = t(_scalar(sigma, "soft_nms_sigma", dims=False))
    if not sg >= t(0.0):
        raise errors.InvalidArgumentError(None, None, "soft_nms_sigma_val must be >= 0")
    _check_boxes(boxes, scores)
    c = _corners(boxes)
    sel, kept = _greedy(scores.astype(t), out_size, it, st, sg, lambda i, j: _iou(c, i, j), t)
    valid = len(sel)
    if pad_to_max_output_size:
        sel = sel + [0] * max(0, out_size - valid)
        kept = kept + [t(0)] * max(0, out_size - valid)
    return np.asarray(sel, np.int32), np.asarray(kept, t), np.asarray(valid, np.int32)


def _overlaps(overlaps: np.ndarray, scores: np.ndarray, size: np.ndarray, th: np.ndarray,
              score_th: np.ndarray) -> np.ndarray:
    out_size = int(_scalar(size, "max_output_size", dims=False))
    ot = _F32(_scalar(th, "overlap_threshold", dims=False))
    st = _F32(_scalar(score_th, "score_threshold", dims=False))
    if overlaps.ndim != 2:
        raise errors.InvalidArgumentError(None, None, f"overlaps must be 2-D[{','.join(map(str, overlaps.shape))}]")
    n = overlaps.shape[0]
    if overlaps.shape[1] != n:
        raise errors.InvalidArgumentError(None, None, f"overlaps must be square[{','.join(map(str, overlaps.shape))}]")
    _check_scores(scores, n)
    ov = overlaps.astype(_F32)
    sel, _ = _greedy(scores.astype(_F32), out_size, ot, st, _F32(0.0), lambda i, j: ov[i, j], _F32)
    return np.asarray(sel, np.int32)


def _rule(name: str, pairs: tuple[tuple[int, str, str], ...], outs: Any) -> Any:
    """Each (input index, attr, allowed list) must hold a dtype of the list; inputs sharing an attr one dtype."""
    def rule(dts: Any, attrs: Any) -> Any:
        bound: dict[str, dtypes.DType] = {}
        for i, attr, allowed in pairs:
            d = dts[i]
            names = [a.strip() for a in allowed.split(",")]
            if attr in bound:
                if d != bound[attr]:
                    from simdist.runtime.ops.args import mismatch_error
                    raise mismatch_error(name, i, bound[attr], d, dts)
                continue
            if _CPP.get(d.name, d.name) not in names:
                raise trace_errors.static(errors.InvalidArgumentError(
                    None, None, f"Value for attr '{attr}' of {_CPP.get(d.name, d.name)} is not in the list of allowed "
                    f"values: {allowed} [Op:{name}]"), TypeError, f"Value passed to parameter has DataType {d.name} "
                    f"not in list of allowed values: {allowed.replace('half', 'float16').replace('float', 'float32')}")
            bound[attr] = d
        return outs(bound)
    return rule


_LANES = lanes("a greedy selection per call: its output length depends on the values")
NMS_V3 = register("NonMaxSuppressionV3", _v3, _rule("NonMaxSuppressionV3", (
    (0, "T", "half, float"), (1, "T", "half, float"), (3, "T_threshold", "half, float"),
    (4, "T_threshold", "half, float")), lambda b: dtypes.int32), lambda a, out, at: float(a[0].shape[0]) ** 2,
    kind="sort", fusion=_LANES)
NMS_V5 = register("NonMaxSuppressionV5", _v5, _rule("NonMaxSuppressionV5", (
    (0, "T", "half, float"), (1, "T", "half, float"), (3, "T", "half, float"), (4, "T", "half, float"),
    (5, "T", "half, float")), lambda b: (dtypes.int32, b["T"], dtypes.int32)),
    lambda a, out, at: float(a[0].shape[0]) ** 2, num_outputs=3, kind="sort", fusion=_LANES)
NMS_OVERLAPS = register("NonMaxSuppressionWithOverlaps", _overlaps, _rule("NonMaxSuppressionWithOverlaps", (
    (0, "T", "float"), (1, "T", "float"), (3, "T", "float"), (4, "T", "float")), lambda b: dtypes.int32),
    lambda a, out, at: float(a[0].size), kind="sort", fusion=_LANES)
# image_ops.cc NMSShapeFn / SoftNMSShapeFn: boxes rank 2, scores rank 1, the rest scalars, boxes[0] ==
# scores[0], boxes[1] == 4; NonMaxSuppressionWithOverlaps: overlaps square, its rows the scores'
_SCALARS = tuple(("rank", i, 0) for i in range(2, 6))
NMS_V3.trace_shape = NMS_V5.trace_shape = shape_fn(("rank", 0, 2), ("rank", 1, 1), *_SCALARS, ("merge", 0, 0, 1, 0),
                                                   ("dim", 0, 1, 4))
NMS_OVERLAPS.trace_shape = shape_fn(("rank", 0, 2), ("rank", 1, 1), *_SCALARS, ("merge", 0, 0, 1, 0),
                                    ("merge", 0, 0, 0, 1))
for _op in ("NonMaxSuppressionV3", "NonMaxSuppressionV5"):
    no_tf_gradient(_op)
NotDifferentiable("NonMaxSuppressionWithOverlaps")   # (TF 2.21: ops.NotDifferentiable, every gradient None)


def _float_in(x: Any, hint: Any = dtypes.float32) -> Tensor:
    return x if isinstance(x, Tensor) else convert_to_tensor(x, dtype_hint=hint)


def _own(x: Any) -> Tensor:
    """image_ops' `ops.convert_to_tensor(threshold)`: no dtype, so an int threshold is int32 and
    the op's T_threshold refuses it (eagerly InvalidArgumentError, traced TypeError; clause
    ops.attr-types, fz14 seed 14 #683, #152)."""
    return x if isinstance(x, Tensor) else convert_to_tensor(x)


def _t_inputs(values: list, fast: bool = True) -> list[Tensor]:
    """The inputs that share the op's type attr T ({half, float} = DT_FLOAT), as TF 2.21's eager
    fast path converts them (observed): T is the first tensor's dtype; with none, the first
    value's own (converted by itself, so a Python float beyond float32's range is ValueError
    "Can't convert Python sequence with a value out of range"; fz14 seed 1420261202 #921),
    float32 when that is not half or float. NumPy values are cast to T (a float64 or bool ndarray
    too), Python values converted with it; a tensor is kept (the dtype rule judges it). Inside a
    tf.function op_def_library converts them instead, each with the first's dtype preferred (float32
    for the first). (Not modelled there: TF 2.21 refuses a float16 or float64 ndarray that meets a
    float32 or float16 tensor, TypeError, where simdist casts it.)"""
    from simdist.runtime import context
    if context.in_function():
        first = _float_in(values[0])
        return [first] + [_float_in(v, first.dtype) for v in values[1:]]

    def read(v: Any) -> bool:   # (a resource variable fixes T as a tensor does on the fast path
        # (MaybeGetDTypeForAttr); on the fallback only as the first value, whose own conversion, float32
        # failing, keeps its dtype: `non_max_suppression(float64 variable, 3, ...)` is the NodeDef's
        # "Value for attr 'T' of double" InvalidArgumentError; fz47: fz14 seed 1420473002 #102)
        return attr_rules.resource_variable(v) and (fast or v is values[0])
    dt = next((v.dtype for v in values if isinstance(v, Tensor) or read(v)), None)
    if dt is None:
        own = values[0] if isinstance(values[0], (np.ndarray, np.generic)) else convert_to_tensor(values[0])
        dt = dtypes.as_dtype(own.dtype)
        if dt not in (dtypes.float16, dtypes.float32):
            dt = dtypes.float32
    return [v if isinstance(v, Tensor) else convert_to_tensor(v) if read(v)
            else convert_to_tensor(np.asarray(v).astype(dt._np))
            if isinstance(v, (np.ndarray, np.generic)) else convert_to_tensor(v, dtype=dt) for v in values]


def _boxes_scores(boxes: Any, scores: Any, fast: bool = True) -> tuple[Tensor, Tensor]:
    """NonMaxSuppressionV3's boxes and scores (its thresholds are T_threshold): _t_inputs."""
    b, s = _t_inputs([boxes, scores], fast)
    return b, s


def _size(x: Any) -> Tensor:
    return x if isinstance(x, Tensor) else convert_to_tensor(x, dtype=dtypes.int32)


@partial_values.shaped("max_output_size", rule=lambda a: [None], always=True)   # (NMS: as many as it keeps)
def non_max_suppression(boxes: Any, scores: Any, max_output_size: Any, iou_threshold: Any = 0.5,
                        score_threshold: Any = float("-inf"), name: str | None = None) -> Tensor:
    """`tf.image.non_max_suppression`: the indices (int32) of the boxes greedy NMS keeps, best first."""
    it, st = _own(iou_threshold), _own(score_threshold)
    fast = attr_rules.fast_path_takes("NonMaxSuppressionV3", (boxes, scores, max_output_size, it, st))
    if not context.in_function() and not fast:
        attr_rules.fallback_matching([boxes, scores])   # (the eager fallback's T inputs, then T_threshold's)
        attr_rules.fallback_matching([it, st])
    b, s = _boxes_scores(boxes, scores, fast)
    return dispatch.execute(NMS_V3, (b, s, _size(max_output_size), it, st))


def non_max_suppression_with_scores(boxes: Any, scores: Any, max_output_size: Any, iou_threshold: Any = 0.5,
                                    score_threshold: Any = float("-inf"), soft_nms_sigma: Any = 0.0,
                                    name: str | None = None) -> tuple[Tensor, Tensor]:
    """`tf.image.non_max_suppression_with_scores`: (indices, their scores after soft-NMS) of NonMaxSuppressionV5."""
    it, st, sg = _own(iou_threshold), _own(score_threshold), _own(soft_nms_sigma)
    fast = attr_rules.fast_path_takes("NonMaxSuppressionV5", (boxes, scores, max_output_size, it, st, sg))
    if not context.in_function() and not fast:
        attr_rules.fallback_matching([boxes, scores, it, st, sg])   # (the eager fallback's T inputs)
    b, s, it, st, sg = _t_inputs([boxes, scores, it, st, sg], fast)   # (V5's thresholds are T too)
    idx, sc, _ = dispatch.execute(NMS_V5, (b, s, _size(max_output_size), it, st, sg),
                                  {"pad_to_max_output_size": False})
    return idx, sc


def non_max_suppression_overlaps(overlaps: Any, scores: Any, max_output_size: Any, overlap_threshold: Any = 0.5,
                                 score_threshold: Any = float("-inf"), name: str | None = None) -> Tensor:
    """`tf.image.non_max_suppression_overlaps`: greedy NMS with a given [n, n] overlap matrix."""
    # (image_ops converts overlap_threshold without a dtype, as _own. Eagerly an input the fast path
    # does not take, a list or a NumPy scalar, sends the call to the eager fallback, which converts the
    # inputs in order with their op-def dtypes: a tensor of another dtype is its ValueError there, where
    # the fast path leaves it to the kernel; fz20: fz14 seed 1420261219 #400)
    ot = _own(overlap_threshold)
    f32, i32 = dtypes.float32, dtypes.int32
    inputs = ((overlaps, _float_in, f32), (scores, _float_in, f32), (max_output_size, _size, i32), (ot, _own, f32),
              (score_threshold, _float_in, f32))
    fallback = not context.in_function() and not attr_rules.fast_path_takes(
        "NonMaxSuppressionWithOverlaps", tuple(v for v, _, _ in inputs))
    converted = []
    for v, convert, dt in inputs:
        if fallback and isinstance(v, Tensor):
            attr_rules.fallback_conversion(v, dt)
        converted.append(convert(v))
    return dispatch.execute(NMS_OVERLAPS, tuple(converted))
