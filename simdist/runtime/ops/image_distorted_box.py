"""`tf.image.sample_distorted_bounding_box` (TF's SampleDistortedBoundingBoxV2) and
`tf.image.stateless_sample_distorted_bounding_box` (StatelessSampleDistortedBoundingBox):
sample_distorted_bounding_box_op.cc step for step (clause ops.image-random).

A SimplePhilox draws up to max_attempts crops: an aspect ratio RandFloat·(hi − lo) + lo, then
GenerateRandomCrop (heights from lrintf(sqrt(area / ratio)) for the area range, a height drawn in
[min, max], the width lrintf(height·ratio), a one-pixel retry each way for rounding, then the
offsets y, x drawn in [0, H − h) and [0, W − w)), accepted when the crop covers at least
min_object_covered of one box (boxes scaled to pixels by truncation; none and
use_image_if_no_bounding_boxes: the whole image); none accepted: the whole image. Outputs begin
[y, x, 0] and size [h, w, −1] in image_size's integer dtype, and the box [[[y0/H, x0/W, y1/H,
x1/W]]] float32. The stateful op's generator is its cached kernel's GuardedPhiloxRandom
(seeds from random_seed.get_seed; seed 0: random in TF, the root seed's pair in simdist), moved
on by 4·max_attempts words a call; the stateless op's is its seed's (GenerateKey).
Not differentiable (TF: NotDifferentiable).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from simdist.runtime import dtypes, errors
from simdist.runtime.ops import dispatch, philox, trace_errors
from simdist.runtime.ops.args import t as _t, tf_name
from simdist.runtime.ops.op_outputs import named_outputs
from simdist.runtime.ops.counting import no_tf_gradient
from simdist.runtime.ops.registry import NotDifferentiable, lanes, register
from simdist.runtime.ops.shape_checks import shape_fn
from simdist.runtime.ops.simple_philox import SimplePhilox
from simdist.runtime.tensor import Tensor, convert_to_tensor

__all__ = ["sample_distorted_bounding_box", "stateless_sample_distorted_bounding_box"]

_F = np.float32
_INTS = (dtypes.uint8, dtypes.int8, dtypes.int16, dtypes.int32, dtypes.int64, dtypes.uint16, dtypes.uint32,
         dtypes.uint64)


def _lrintf(v: Any) -> int:
    """lrintf: round half to even (the default rounding mode)."""
    return int(np.rint(_F(v)))


def _area(r: tuple[int, int, int, int]) -> np.float32:
    return _F((r[2] - r[0]) * (r[3] - r[1]))


def _intersect(a: tuple, b: tuple) -> tuple:
    x0, y0, x1, y1 = max(a[0], b[0]), max(a[1], b[1]), min(a[2], b[2]), min(a[3], b[3])
    return (0, 0, 0, 0) if x0 > x1 or y0 > y1 else (x0, y0, x1, y1)


def _covers(crop: tuple, min_covered: np.float32, boxes: list[tuple]) -> bool:
    if _area(crop) < _F(1):
        return False
    for box in boxes:
        area = _area(box)
        if area < _F(1):
            continue
        if _F(_area(_intersect(crop, box)) / area) >= min_covered:
            return True
    return False


def _random_crop(width: int, height: int, min_rel: np.float32, max_rel: np.float32, ratio: np.float32,
                 rnd: SimplePhilox) -> tuple | None:
    """GenerateRandomCrop: (x0, y0, x1, y1) or None."""
    if max_rel <= 0 or ratio <= 0 or width <= 0 or height <= 0 or min_rel > max_rel:
        return None
    min_area = _F(_F(min_rel * _F(width)) * _F(height))
    max_area = _F(_F(max_rel * _F(width)) * _F(height))
    h = _lrintf(np.sqrt(_F(min_area / ratio)))
    max_h = _lrintf(np.sqrt(_F(max_area / ratio)))
    if _lrintf(_F(max_h) * ratio) > width:
        max_h = int((width + 0.5 - float(_F(0.0000001))) / float(ratio))
        if _lrintf(_F(max_h) * ratio) > width:
            max_h -= 1
    max_h = min(max_h, height)
    if h >= max_h:
        h = max_h
    if h < max_h:
        h += rnd.uniform(max_h - h + 1)
    w = _lrintf(_F(h) * ratio)
    area = _F(w * h)
    if area < min_area:
        h += 1
        w = _lrintf(_F(h) * ratio)
        area = _F(w * h)
    if area > max_area:
        h -= 1
        w = _lrintf(_F(h) * ratio)
        area = _F(w * h)
    if area < min_area or area > max_area or w > width or h > height or w <= 0 or h <= 0:
        return None
    y = rnd.uniform(height - h) if h < height else 0
    x = rnd.uniform(width - w) if w < width else 0
    return (x, y, x + w, y + h)


def _check_attrs(op: str, aspect_ratio_range: tuple, area_range: tuple, max_attempts: int) -> None:
    def bad(msg: str) -> errors.InvalidArgumentError:
        return errors.InvalidArgumentError(None, None, f"{msg} [Op:{op}]")
    if len(aspect_ratio_range) != 2:
        raise bad("Aspect ratio range field must specify 2 dimensions")
    lo, hi = (float(_F(v)) for v in aspect_ratio_range)
    if not (lo > 0 and hi > 0):
        raise bad(f"Aspect ratio range must be non-negative: [{lo:g}, {hi:g}]")
    if len(area_range) != 2:
        raise bad("Area range field must specify 2 dimensions")
    a0, a1 = (float(_F(v)) for v in area_range)
    if not (a0 > 0 and a1 > 0):
        raise bad(f"Area range must be non-negative: [{a0:g}, {a1:g}]")
    if not (a0 <= 1 and a1 <= 1):
        raise bad(f"Area range must be less then or equal to 1.0: [{a0:g}, {a1:g}]")
    if max_attempts <= 0:
        raise bad(f"Max attempts must be non-negative: {max_attempts}")


def _compute(op: str, size: np.ndarray, boxes: np.ndarray, covered: np.ndarray, gen: philox.Philox,
             aspect_ratio_range: tuple, area_range: tuple, max_attempts: int, use_image: bool) -> tuple:
    def bad(msg: str) -> errors.InvalidArgumentError:
        return errors.InvalidArgumentError(None, None, f"{msg} [Op:{op}]")
    if size.ndim != 1:
        raise bad(f"image_size must be 1-dimensional{list(size.shape)}")
    if size.shape[0] != 3:
        raise bad(f"image_size must contain 3 elements{list(size.shape)}")
    height, width = int(size[0]), int(size[1])
    if not 0 <= height < 2**31 - 1:
        raise bad("image height cannot be >= int32 max")
    if not 0 <= width < 2**31 - 1:
        raise bad("image width cannot be >= int32 max")
    if boxes.ndim != 3:
        raise bad(f"input boxes must be 3-dimensional [batch, num_boxes, coords]: {list(boxes.shape)}")
    if boxes.shape[-1] != 4:
        raise bad(f"bounding boxes must have shape [4] or [*, 4], got {list(boxes.shape)}")
    if covered.ndim != 0:
        raise bad(f"min_object_covered must be 0-D, got shape {list(covered.shape)}")
    min_covered = _F(covered)
    if not min_covered >= 0:
        raise bad(f"Min object covered must be non-negative: {float(min_covered):g}")
    rects = []
    for b in boxes.reshape(-1, 4).astype(_F):
        for v in b:
            if not (v >= 0.0 and v <= 1.0):
                raise bad(f"All bounding box coordinates must be in [0.0, 1.0]: {float(v):g}")
        rects.append((int(_F(b[1] * _F(width))), int(_F(b[0] * _F(height))), int(_F(b[3] * _F(width))),
                      int(_F(b[2] * _F(height)))))
    image = (0, 0, width, height)
    if not rects:
        if not use_image:
            raise bad("No bounding boxes provided as input. One must enable use_image_if_no_bounding_boxes if you "
                      "wish to not provide any bounding boxes.")
        rects.append(image)
    lo, hi = _F(aspect_ratio_range[0]), _F(aspect_ratio_range[1])
    rnd = SimplePhilox(gen)
    crop = None
    for _ in range(max_attempts):
        ratio = _F(_F(rnd.rand_float() * _F(hi - lo)) + lo)
        c = _random_crop(width, height, _F(area_range[0]), _F(area_range[1]), ratio, rnd)
        if c is not None and _covers(c, min_covered, rects):
            crop = c
            break
    if crop is None:
        crop = image
    x0, y0, x1, y1 = crop
    dt = size.dtype
    begin = np.array([y0, x0, 0], dt)
    sz = np.array([y1 - y0, x1 - x0, -1], np.int64).astype(dt)
    box = np.array([[[_F(y0) / _F(height), _F(x0) / _F(width), _F(y1) / _F(height), _F(x1) / _F(width)]]], _F)
    return begin, sz, box


def _stateful(size: np.ndarray, boxes: np.ndarray, covered: np.ndarray, seed: int = 0, seed2: int = 0,
              aspect_ratio_range: tuple = (0.75, 1.33), area_range: tuple = (0.05, 1.0), max_attempts: int = 100,
              use_image_if_no_bounding_boxes: bool = False, kernel: Any = None) -> tuple:
    from simdist.runtime.ops import random as _random
    op = "SampleDistortedBoundingBoxV2"
    _check_attrs(op, aspect_ratio_range, area_range, max_attempts)
    _random.guarded_init(op, seed, seed2)
    s1, s2 = (seed, seed2) if (seed, seed2) != (0, 0) else _random.unseeded_pair()
    key = (op, seed, seed2, aspect_ratio_range, area_range, max_attempts, use_image_if_no_bounding_boxes,
           size.dtype.name)
    gen = _random._kernel(key, s1, s2, max_attempts, kernel)      # ReserveSamples32(4 · max_attempts); per graph op
    return _compute(op, size, boxes, covered, gen, aspect_ratio_range, area_range, max_attempts,
                    use_image_if_no_bounding_boxes)


def _stateless(size: np.ndarray, boxes: np.ndarray, covered: np.ndarray, seed: np.ndarray,
               aspect_ratio_range: tuple = (0.75, 1.33), area_range: tuple = (0.05, 1.0), max_attempts: int = 100,
               use_image_if_no_bounding_boxes: bool = False) -> tuple:
    op = "StatelessSampleDistortedBoundingBox"
    _check_attrs(op, aspect_ratio_range, area_range, max_attempts)
    if seed.shape != (2,):
        raise errors.InvalidArgumentError(None, None, f"seed must have shape [2], not {list(seed.shape)} [Op:{op}]")
    gen = philox.stateless(int(seed[0]), int(seed[1]))
    return _compute(op, size, boxes, covered, gen, aspect_ratio_range, area_range, max_attempts,
                    use_image_if_no_bounding_boxes)


def _rule(op: str, n: int) -> Any:
    def rule(dts: Any, attrs: Any) -> tuple:
        t = dts[0]
        if t not in _INTS:
            raise errors.InvalidArgumentError(None, None, f"Value for attr 'T' of {tf_name(t)} is not in the list of "
                                                          "allowed values: uint8, int8, int16, int32, int64 "
                                                          f"[Op:{op}]")
        for k, want in ((1, dtypes.float32), (2, dtypes.float32)):
            if dts[k] != want:
                raise errors.InvalidArgumentError(None, None, f"cannot compute {op} as input #{k}(zero-based) was "
                                                              f"expected to be a float tensor but is a "
                                                              f"{tf_name(dts[k])} tensor [Op:{op}]")
        if n == 4 and dts[3] not in (dtypes.int32, dtypes.int64):
            raise errors.InvalidArgumentError(None, None, f"Value for attr 'Tseed' of {tf_name(dts[3])} is not in the "
                                                          f"list of allowed values: int32, int64 [Op:{op}]")
        return (t, t, dtypes.float32)
    return rule


_WHY = lanes("rejection sampling of one crop per call: no stacked form written")
SAMPLE_DISTORTED_BOUNDING_BOX = register("SampleDistortedBoundingBoxV2", _stateful,
                                         _rule("SampleDistortedBoundingBoxV2", 3), lambda a, o, at: 0.0,
                                         num_outputs=3, kind="random", stateful=True, fusion=_WHY)
STATELESS_SAMPLE_DISTORTED_BOUNDING_BOX = register("StatelessSampleDistortedBoundingBox", _stateless,
                                                   _rule("StatelessSampleDistortedBoundingBox", 4),
                                                   lambda a, o, at: 0.0, num_outputs=3, kind="random", fusion=_WHY)
# image_ops.cc: image_size [3], bounding_boxes [batch, N, 4], min_object_covered a scalar (the stateless
# op's seed [2]), in the shape function's order
SAMPLE_DISTORTED_BOUNDING_BOX.trace_shape = shape_fn(("rank", 0, 1), ("rank", 1, 3), ("rank", 2, 0),
                                                     ("dim", 0, 0, 3), ("dim", 1, 2, 4))
STATELESS_SAMPLE_DISTORTED_BOUNDING_BOX.trace_shape = shape_fn(
    ("rank", 0, 1), ("rank", 1, 3), ("rank", 2, 0), ("rank", 3, 1), ("dim", 0, 0, 3), ("dim", 1, 2, 4), ("dim", 3, 0, 2))
NotDifferentiable("SampleDistortedBoundingBoxV2")
no_tf_gradient("StatelessSampleDistortedBoundingBox")   # (TF 2.21 registers none, unlike V2)


def _attrs(aspect_ratio_range: Any, area_range: Any, max_attempts: Any, use_image: Any) -> dict:
    from simdist.runtime.ops import attr_rules
    attr_rules.check("SampleDistortedBoundingBoxV2", aspect_ratio_range=aspect_ratio_range, area_range=area_range,
                     max_attempts=max_attempts, use_image_if_no_bounding_boxes=use_image)   # (make_*: a graph
    # tensor's max_attempts is TypeError inside a tf.function, ops.attr-types)
    return {"aspect_ratio_range": tuple(float(v) for v in (aspect_ratio_range or [0.75, 1.33])),
            "area_range": tuple(float(v) for v in (area_range or [0.05, 1.0])),
            "max_attempts": 100 if max_attempts is None else int(max_attempts),
            "use_image_if_no_bounding_boxes": bool(use_image)}


def _inputs(image_size: Any, bounding_boxes: Any, min_object_covered: Any, op: str, extra: tuple = (),
            **attr_values: Any) -> tuple:
    """image_size, then the float inputs bounding_boxes and min_object_covered as TF converts them
    (attr_rules.fixed_inputs): on the eager fast path (every input an eager tensor, ndarray or
    scalar, every attr value one it parses) an int16 tensor of boxes reaches the kernel's input
    check, InvalidArgumentError "cannot compute ... as input #1"; off it (a list image_size, inside a
    tf.function) the fallback's ValueError or op_def_library's TypeError (fz30b, fz14 seed
    1420303002 #8). `extra`: the op's later inputs (the stateless op's seed)."""
    from simdist.runtime.ops import attr_rules
    size = _t(image_size)
    fast = attr_rules.fast_path_takes(op, (image_size, bounding_boxes, min_object_covered, *extra),
                                      **{k: v for k, v in attr_values.items() if v is not None})
    boxes, cov = attr_rules.fixed_inputs(op, [(bounding_boxes, dtypes.float32, "bounding_boxes"),
                                              (min_object_covered, dtypes.float32, "min_object_covered")], fast, first=1,
                                         earlier=(size,))
    return size, boxes, cov


def sample_distorted_bounding_box(image_size: Any, bounding_boxes: Any, seed: int = 0, min_object_covered: Any = 0.1,
                                  aspect_ratio_range: Any = None, area_range: Any = None, max_attempts: Any = None,
                                  use_image_if_no_bounding_boxes: Any = None, name: str | None = None) -> tuple:
    """`tf.image.sample_distorted_bounding_box`: (begin, size, bboxes) of a random crop. TF's wrapper takes the
    seed's truth (`if seed`: a tensor seed is OperatorNotAllowedInGraphError inside a tf.function, NumPy's
    ambiguity ValueError eagerly for two elements)."""
    from simdist.runtime import symbolic
    if symbolic.truth_taken(seed):
        from simdist.runtime.ops.random_gamma import tf_seeds
        s1, s2 = tf_seeds(seed)
    else:
        from simdist.runtime.ops import random as _random
        if _random.determinism_required():
            raise ValueError(f"tf.image.sample_distorted_bounding_box requires a non-zero seed to be passed in when "
                             f"determinism is enabled, but got seed={seed}. Please pass in a non-zero seed, e.g. by "
                             f'passing "seed=1".')
        s1, s2 = 0, 0
    from simdist.runtime.ops import random_graphs
    attrs = {"seed": int(s1), "seed2": int(s2), "kernel": random_graphs.instance(),
             **_attrs(aspect_ratio_range, area_range, max_attempts, use_image_if_no_bounding_boxes)}
    return named_outputs("SampleDistortedBoundingBoxV2", dispatch.execute(
        SAMPLE_DISTORTED_BOUNDING_BOX, _inputs(image_size, bounding_boxes, min_object_covered, "SampleDistortedBoundingBoxV2",
                                               aspect_ratio_range=aspect_ratio_range, area_range=area_range,
                                               max_attempts=max_attempts,
                                               use_image_if_no_bounding_boxes=use_image_if_no_bounding_boxes),
        attrs))


def stateless_sample_distorted_bounding_box(image_size: Any, bounding_boxes: Any, seed: Any,
                                            min_object_covered: Any = 0.1, aspect_ratio_range: Any = None,
                                            area_range: Any = None, max_attempts: Any = None,
                                            use_image_if_no_bounding_boxes: Any = None,
                                            name: str | None = None) -> tuple:
    """`tf.image.stateless_sample_distorted_bounding_box`: the same for the same seed."""
    attrs = _attrs(aspect_ratio_range, area_range, max_attempts, use_image_if_no_bounding_boxes)
    inputs = _inputs(image_size, bounding_boxes, min_object_covered, "StatelessSampleDistortedBoundingBox", (seed,),
                     aspect_ratio_range=aspect_ratio_range, area_range=area_range, max_attempts=max_attempts,
                     use_image_if_no_bounding_boxes=use_image_if_no_bounding_boxes)
    return named_outputs("StatelessSampleDistortedBoundingBox", dispatch.execute(
        STATELESS_SAMPLE_DISTORTED_BOUNDING_BOX, (*inputs, _t(seed)), attrs))
