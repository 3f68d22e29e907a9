"""`tf.image`'s basic functions, composed as TF's image_ops_impl.py composes them (so values,
dtypes, errors and gradients follow from the ops they call), and the one kernel they need that
is not an op elsewhere: AdjustContrastv2 (clause ops.image).

AdjustContrastv2 (core/kernels/image/adjust_contrast_op.cc, CPU: float32 only): per image, the
[H·W, C] plane is folded in halves (sum[:r] = x[l:l+r] + x[:r], then sum[:r] += sum[l:l+r]
until one row of channels is left), the mean is that sum times 1/(H·W) (float32), and each
output is mean + factor·(x − mean). TF registers no gradient for it (LookupError). FLOPs: 4 per
element (a fold add, a subtract, a multiply, an add).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from simdist.runtime import dtypes, errors, symbolic
from simdist.runtime.ops import dispatch, graph_constants, image_box_args, static_shapes, trace_errors
from simdist.runtime.symbolic import truth_taken
from simdist.runtime.ops.args import dims as _dims, t as _t
from simdist.runtime.ops.counting import no_tf_gradient
from simdist.runtime.ops.registry import lanes, register
from simdist.runtime.ops.shape_checks import shape_fn
from simdist.runtime.ops.static_shapes import static_shape
from simdist.runtime.tensor import Tensor, convert_to_tensor

__all__ = ["flip_left_right", "flip_up_down", "rot90", "transpose", "crop_to_bounding_box", "pad_to_bounding_box",
           "central_crop", "resize_with_crop_or_pad", "per_image_standardization", "convert_image_dtype",
           "adjust_brightness", "adjust_contrast", "adjust_gamma", "rgb_to_grayscale", "grayscale_to_rgb",
           "rgb_to_yuv", "yuv_to_rgb", "total_variation", "image_gradients", "sobel_edges", "psnr",
           "stateless_random_flip_left_right", "stateless_random_flip_up_down", "stateless_random_brightness",
           "stateless_random_contrast", "stateless_random_crop", "resize_with_pad",
           "stateless_random_hue", "stateless_random_saturation", "ssim"]


def _ops() -> Any:
    from simdist.runtime import ops
    return ops


# --- AdjustContrastv2 ---------------------------------------------------------------------------------
def _adjust_contrast(x: np.ndarray, factor: np.ndarray) -> np.ndarray:
    if x.ndim < 3:
        raise errors.InvalidArgumentError(None, None, f"input must be at least 3-D, got shape{_dims(x.shape)} "
                                          "[Op:AdjustContrastv2]")
    if np.ndim(factor) != 0:
        raise errors.InvalidArgumentError(None, None, f"contrast_factor must be scalar: {_dims(np.shape(factor))} "
                                          "[Op:AdjustContrastv2]")
    if x.size == 0:   # (an empty image: nothing to average, the output is the empty input; fz35b, fourteenth
        return x.copy()   # generator seed 1420353005 #45: NumPy's reshape(-1, 0, c) raised ValueError)
    h, w, c = x.shape[-3:]
    size = h * w
    q = x.reshape(-1, size, c)
    s = np.empty_like(q)
    right = size // 2
    left = size - right
    s[:, :right] = q[:, left:left + right] + q[:, :right]
    if left > right:
        s[:, right] = q[:, right]
    rem = left
    while rem > 1:
        right = rem // 2
        left = rem - right
        s[:, :right] += s[:, left:left + right]
        rem = left
    mean = (s[:, 0] * (np.float32(1.0) / np.float32(size)))[:, None, :]
    f = np.float32(factor)
    return (mean + f * (q - mean)).reshape(x.shape)


def _contrast_rule(dts: Any, attrs: Any) -> dtypes.DType:
    if dts[0] != dtypes.float32:
        raise errors.NotFoundError(None, None, "Could not find device for node: {{node AdjustContrastv2}} = "
                                   f"AdjustContrastv2[T=DT_{dts[0].name.upper()}] (CPU kernel: float only)")
    if dts[1] != dtypes.float32:
        raise errors.InvalidArgumentError(None, None, "cannot compute AdjustContrastv2 as input #1(zero-based) was "
                                          f"expected to be a float tensor but is a {dts[1].name} tensor "
                                          "[Op:AdjustContrastv2]")
    return dtypes.float32


ADJUST_CONTRAST = register("AdjustContrastv2", _adjust_contrast, _contrast_rule,
                           lambda arrays, out, a: 4.0 * np.asarray(out).size, kind="nn",
                           fusion=lanes("the means are per image of each lane: no stacked form written"))
no_tf_gradient("AdjustContrastv2")
# image_ops.cc: contrast_factor a scalar, then UnchangedShapeWithRankAtLeast(c, 3)
ADJUST_CONTRAST.trace_shape = shape_fn(("rank", 1, 0), ("rank>=", 0, 3))


# --- checks -------------------------------------------------------------------------------------------
def _image(image: Any) -> Tensor:
    return image if isinstance(image, Tensor) else _t(image)


def _tensor_only(x: Any) -> Tensor:
    """TF's functions that read `images.get_shape()` before converting: a non-tensor is TF's
    AttributeError there."""
    from simdist.runtime.variables import Variable
    if isinstance(x, Variable):
        return _t(x)
    if not isinstance(x, Tensor):
        raise AttributeError(f"'{type(x).__name__}' object has no attribute 'get_shape'")
    return x


def _check_at_least_3d(image: Tensor) -> None:
    shape = image.shape.as_list()
    if static_shapes.rank_unknown(image):
        # (_CheckAtLeast3DImage of a graph tensor of unknown rank: `with_rank(3)` passes, and the
        # checks are assert ops, InvalidArgumentError when the graph runs; fz20: fz14 seed 1420262001 #186)
        if len(shape) < 3:
            raise errors.InvalidArgumentError(None, None, "'image' must be at least three-dimensional.")
        if any(d == 0 for d in shape[-3:]):
            raise errors.InvalidArgumentError(None, None, "inner 3 dims of 'image.shape' must be > 0.")
        return
    if len(shape) < 3:
        raise ValueError(f"'image' (shape {image.shape}) must be at least three-dimensional.")
    if any(d == 0 for d in shape[-3:]):
        raise ValueError(f"inner 3 dims of 'image.shape' must be > 0: {image.shape}")


def _rank34(image: Tensor, msg: str = "must have either 3 or 4 dimensions.") -> int:
    r = image.shape.ndims
    if r not in (3, 4):
        raise ValueError(f"'image' (shape {image.shape}) {msg}")
    return r


# --- flips, rotations, transpose ---------------------------------------------------------------------
def _flip(image: Any, index: int) -> Tensor:
    img = _image(image)
    _check_at_least_3d(img)
    r = img.shape.ndims
    if r not in (3, 4):
        raise ValueError(f"'image' (shape {img.shape})must have either 3 or 4 dimensions.")
    return _ops().reverse(img, [index if r == 3 else index + 1])


def flip_left_right(image: Any) -> Tensor:
    """`tf.image.flip_left_right`: ReverseV2 over the width axis."""
    return _flip(image, 1)


def flip_up_down(image: Any) -> Tensor:
    """`tf.image.flip_up_down`: ReverseV2 over the height axis."""
    return _flip(image, 0)


def rot90(image: Any, k: Any = 1, name: str | None = None) -> Tensor:
    """`tf.image.rot90`: k quarter turns counter-clockwise (k mod 4), as reverse and transpose."""
    ops = _ops()
    img = _image(image)
    _check_at_least_3d(img)
    if isinstance(k, Tensor) and k.dtype != dtypes.int32:
        # (ops.convert_to_tensor(k, dtype=int32, name='k'): a tensor of another dtype is refused, not cast; isweep66)
        raise ValueError(f"k: Tensor conversion requested dtype int32 for Tensor with dtype {k.dtype.name}")
    kt = convert_to_tensor(k, dtype=dtypes.int32) if not isinstance(k, Tensor) else k
    if kt.shape.ndims != 0:
        raise ValueError(f"Shape {kt.shape} must have rank 0")
    kk = int(dispatch.static_value(kt)) % 4
    r = _rank34(img)
    h, w = (0, 1) if r == 3 else (1, 2)
    perm = [1, 0, 2] if r == 3 else [0, 2, 1, 3]
    if kk == 1:
        out = ops.transpose(ops.reverse(img, [w]), perm)
    elif kk == 2:
        out = ops.reverse(img, [h, w])
    elif kk == 3:
        out = ops.reverse(ops.transpose(img, perm), [w])
    else:
        out = img
    return _rank_merged(img, _four_turns_merged(img, out, h, w))


def _rank_merged(img: Tensor, out: Tensor) -> Tensor:
    """rot90's and transpose's result for an image of a rank the graph does not know: TF picks the rank-3 or the
    rank-4 form with a tf.cond on its rank, whose output merges the two branches' shapes, of unknown rank (rot90 of
    a TensorSpec(None) is of unknown rank on TF 2.21, k = 1 too; isweep66)."""
    if not static_shapes.rank_unknown(img) or static_shapes.rank_unknown(out):
        return out
    if out is img:
        out = _ops().identity(img)
    return static_shapes.mark_rank_unknown(out)


def _four_turns_merged(img: Tensor, out: Tensor, h: int, w: int) -> Tensor:
    """rot90's result inside a tf.function: TF picks the turn with a switch_case over k % 4, whose output shape is
    the four branches' merged, so height and width stay known only when both are known and equal (rot90 of an
    input_signature [None, 3, 1] is (None, None, 1) on TF 2.21; fz50), k = 0 too (the image itself through the
    switch: [5, 3, 3] is (None, None, 3); fz56b, fz55b_gen seed 56203 #159)."""
    from simdist.runtime import context
    if not context.in_function():
        return out
    hs, ws = static_shapes.known_dim(img, h), static_shapes.known_dim(img, w)
    if hs is not None and hs == ws:
        return out
    if out is img:
        out = _ops().identity(img)
    out = static_shapes.also_unknown(out, h)
    return static_shapes.also_unknown(out, w)


def transpose(image: Any, name: str | None = None) -> Tensor:
    """`tf.image.transpose`: height and width swapped."""
    img = _image(image)
    _check_at_least_3d(img)
    return _rank_merged(img, _ops().transpose(img, [1, 0, 2] if _rank34(img) == 3 else [0, 2, 1, 3]))


# --- crops and pads -----------------------------------------------------------------------------------
def _batched(image: Any) -> tuple[Tensor, bool]:
    """The image as a batch, and whether it was one. An image of a rank the graph does not know is one image
    (image_ops_impl's crop/pad/resize_with_*: expand_dims, then set_shape([None] * 4)), whatever rank a dry run's
    probe has: a probe of another rank than 3 goes on as a stand-in of 4 unknown dimensions (the expand's rank is
    checked when the graph runs); `resize_with_pad(x of unknown rank, 5, 4)` is [5, 4, None] in TF 2.21 (fix64s)."""
    ops = _ops()
    img = _image(image)
    r = img.shape.ndims
    if static_shapes.rank_unknown(img):
        if r == 3:
            out = ops.expand_dims(img, 0)
        else:
            shp = img.shape.as_list()
            out = dispatch.refused(errors.InvalidArgumentError(
                None, None, f"'image' must be three-dimensional when taken as one image: rank {r}"), img.dtype,
                [1] + (shp + [1, 1, 1])[:3])
        return static_shapes.mark(out, (True,) * 4), False
    if r == 3:
        return ops.expand_dims(img, 0), False
    if r != 4:
        raise ValueError(f"'image' (shape {img.shape}) must have either 3 or 4 dimensions.")
    return img, True


def _int(v: Any) -> int:
    return int(dispatch.static_value(v)) if isinstance(v, Tensor) else int(v)


def _tensors(*values: Any) -> bool:
    """Whether a condition on `values` is a tensor in image_ops_impl (any of them a tensor or a variable)."""
    return any(isinstance(v, Tensor) or hasattr(v, "_as_tensor") for v in values)


def _asserts(checks: Any) -> None:
    """image_ops_impl._assert over (holds, is a tensor, message) in order: a Python condition that
    fails is ValueError (at trace in a graph); a tensor condition is an Assert op, eagerly its
    InvalidArgumentError at once, in a graph when it runs, after the trace's Python checks (fz23b:
    fz14 seed 1420262001 #79, crop_to_bounding_box(target_height=tf.constant(2)))."""
    from simdist.runtime import context
    failed = None
    for ok, tensor, msg in checks:
        if ok:
            continue
        if not tensor:
            raise ValueError(msg)
        if not context.in_function():
            raise errors.InvalidArgumentError(None, None, "Expected 'tf.Tensor(False, shape=(), dtype=bool)' to be "
                                                          f"true. Summarized data: b'{msg}'")
        failed = failed or msg
    if failed is not None:
        raise errors.InvalidArgumentError(None, None, f"assertion failed: [{failed}]")


def crop_to_bounding_box(image: Any, offset_height: Any, offset_width: Any, target_height: Any,
                         target_width: Any) -> Tensor:
    """`tf.image.crop_to_bounding_box`: a Slice of [target_height, target_width] at the offsets."""
    ops = _ops()
    img, is_batch = _batched(image)
    _check_at_least_3d(img)
    _, height, width, _ = img.shape.as_list()
    known = static_shapes.known_shape(img)
    h_dyn, w_dyn = known is None or known[1] is None, known is None or known[2] is None
    oh, ow, th, tw = _int(offset_height), _int(offset_width), _int(target_height), _int(target_width)
    try:
        _asserts(((ow >= 0, _tensors(offset_width), "offset_width must be >= 0."),
                  (oh >= 0, _tensors(offset_height), "offset_height must be >= 0."),
                  (tw > 0, _tensors(target_width), "target_width must be > 0."),
                  (th > 0, _tensors(target_height), "target_height must be > 0."),
                  (width >= tw + ow, w_dyn or _tensors(target_width, offset_width),
                   "width must be >= target + offset."),
                  (height >= th + oh, h_dyn or _tensors(target_height, offset_height),
                   "height must be >= target + offset.")))
        image_box_args.check_slice(*map(image_box_args.kind, (offset_height, offset_width, target_height,
                                                              target_width)))
        sliced = ops.slice_(img, [0, oh, ow, 0], [img.shape.as_list()[0], th, tw, img.shape.as_list()[3]])
    except errors.InvalidArgumentError as e:
        # (an Assert op of a traced graph: a dry run's probe of a height or width the graph does not know, too small
        # for the box, goes on as a stand-in of the Slice's shape, so the trace builds: `crop_to_bounding_box` of a
        # [None, None, 2] signature is [2, 3, 2] on TF 2.21; isweep66)
        from simdist.runtime import context
        if not context.in_function() or not (h_dyn or w_dyn or _tensors(offset_height, offset_width, target_height,
                                                                         target_width)):
            raise
        b, d = img.shape.as_list()[0], img.shape.as_list()[3]
        sliced = dispatch.refused(e, img.dtype, [b, max(th, 0), max(tw, 0), d])
    out = _target_static(sliced, img, target_height, target_width)
    return out if is_batch else ops.squeeze(out, axis=[0])


def _target_static(out: Tensor, img: Tensor, target_height: Any, target_width: Any) -> Tensor:
    """The static shape of crop_to_bounding_box's Slice (sizes stack([shape(image)[0], target_height, target_width,
    shape(image)[3]])) and of pad_to_bounding_box's set_shape([batch, target_height, target_width, depth]): the
    image's batch and depth as the graph knows them, a target known unless a tensor the graph does not know
    (`crop_to_bounding_box(x [None, None, None], 1, 1, 2, 2)` is [2, 2, None] in TF 2.21, not the probe's depth;
    fix64s)."""
    from simdist.runtime import context
    if not context.in_function() or out.ndim != 4:
        return out
    known = static_shapes.known_shape(img)
    batch, depth = (None, None) if known is None or len(known) != 4 else (known[0], known[3])
    flags = (batch is None,) + tuple(
        _tensors(v) and not graph_constants.known(v._as_tensor() if hasattr(v, "_as_tensor") else v)
        for v in (target_height, target_width)) + (depth is None,)
    static_shapes.forget(out)   # (set_shape: the targets known whatever the padded input's sizes)
    return static_shapes.mark(out, flags)


def pad_to_bounding_box(image: Any, offset_height: Any, offset_width: Any, target_height: Any,
                        target_width: Any) -> Tensor:
    """`tf.image.pad_to_bounding_box`: zeros around the image (Pad) to [target_height, target_width].
    An image of a rank the graph does not know (an unknown-rank TensorSpec) is taken as one image
    (image_ops_impl: expand_dims, then set_shape([None] * 4)): its rank and the height and width
    checks run with the graph (InvalidArgumentError at the call), only the offsets' at trace
    (fz14 seed 1420261217 #66)."""
    from simdist.runtime.ops import static_shapes
    ops = _ops()
    unknown_rank = static_shapes.rank_unknown(image)
    if unknown_rank:
        img, is_batch = ops.expand_dims(_image(image), 0), False
    else:
        img, is_batch = _batched(image)
    oh, ow, th, tw = _int(offset_height), _int(offset_width), _int(target_height), _int(target_width)
    if unknown_rank:
        for ok, msg in ((oh >= 0, "offset_height must be >= 0"), (ow >= 0, "offset_width must be >= 0")):
            if not ok:
                raise ValueError(msg)
        _padded_dims(target_height, target_width)   # (the rank's check is an Assert op: it waits for the run)
        if img.ndim != 4:
            raise errors.InvalidArgumentError(None, None, "'image' must be at least three-dimensional.")
    _, height, width, _ = img.shape.as_list()
    box = tuple(map(image_box_args.kind, (offset_height, offset_width, target_height, target_width)))
    if not unknown_rank:
        known = static_shapes.known_shape(img) or [None] * 4
        after_kinds = image_box_args.pad_afters(*box, *map(image_box_args.size_kind, known[1:3]))
    after_w, after_h = tw - ow - width, th - oh - height
    _check_at_least_3d(img)
    if unknown_rank:
        for ok, msg in ((oh >= 0, "offset_height must be >= 0"), (ow >= 0, "offset_width must be >= 0"),
                        (after_w >= 0, "width must be <= target - offset"),
                        (after_h >= 0, "height must be <= target - offset")):
            if not ok:   # (Assert ops: a dry run of the trace goes on past them to a later build error,
                # `fft3d(np.uint64(0))`'s rank ValueError; fz36b, fz14 seed 1420363003 #69)
                dispatch.graph_assert(errors.InvalidArgumentError(None, None, msg))
        after_w, after_h = max(after_w, 0), max(after_h, 0)
    else:
        _pad_asserts(img, (oh, ow, after_h, after_w), (offset_height, offset_width, target_height, target_width))
        image_box_args.check_pad(box[0], box[1], *after_kinds)
    out = _target_static(ops.pad(img, [[0, 0], [oh, after_h], [ow, after_w], [0, 0]]), img, target_height,
                         target_width)
    return out if is_batch else ops.squeeze(out, axis=[0])


def _padded_dims(target_height: Any, target_width: Any) -> None:
    """pad_to_bounding_box_internal's `padded.set_shape([batch, target_height, target_width, depth])`
    (a tensor target is None there): a negative Python target is TensorShape's ValueError "Dimension -1
    must be >= 0" at trace, before the graph runs the Assert ops of "height must be <= target -
    offset" (an image whose height or width, or rank, the graph does not know; eagerly the static
    checks refuse it first). fz46, fz14 seed 1420463002 #97."""
    for v in (target_height, target_width):
        if not _tensors(v) and int(v) < 0:
            raise ValueError(f"Dimension {int(v)} must be >= 0")


def _pad_asserts(img: Tensor, pads: tuple[int, int, int, int], given: tuple[Any, Any, Any, Any]) -> None:
    """pad_to_bounding_box_internal's checks through image_ops_impl._assert (clause
    function.trace-time-errors): a tensor offset or target makes its condition an Assert (eagerly
    InvalidArgumentError at once; fz14 seed 1420262401 #271). In a graph the Assert waits for the
    run, but the Pad after it gets the paddings [oh, after_h], [ow, after_w]: where the graph knows
    them all (constant tensors, static height and width), PadShapeFn's ValueError for a negative
    one comes at trace; else the Assert's InvalidArgumentError when the graph runs."""
    from simdist.runtime import context
    oh, ow, after_h, after_w = pads
    offset_height, offset_width, target_height, target_width = given
    known = static_shapes.known_shape(img)
    h_dyn, w_dyn = known is None or known[1] is None, known is None or known[2] is None
    checks = ((oh >= 0, _tensors(offset_height), "offset_height must be >= 0"),
              (ow >= 0, _tensors(offset_width), "offset_width must be >= 0"),
              (after_w >= 0, w_dyn or _tensors(target_width, offset_width), "width must be <= target - offset"),
              (after_h >= 0, h_dyn or _tensors(target_height, offset_height), "height must be <= target - offset"))
    try:
        _asserts(checks)
    except errors.InvalidArgumentError:
        if not context.in_function():
            raise
        if h_dyn or w_dyn or not graph_constants.known(*given):
            _padded_dims(target_height, target_width)   # (the Asserts wait for the run; set_shape is at trace)
            raise
        rows = f"[0 0][{oh} {after_h}][{ow} {after_w}][0 0]"
        raise ValueError(f"Paddings must be non-negative for '{{{{node Pad}}}}' with input shapes: "
                         f"{trace_errors.shapes_text([known, [4, 2]])} and with computed input tensors: "
                         f"input[1] = <{rows}>.") from None


def central_crop(image: Any, central_fraction: float) -> Tensor:
    """`tf.image.central_crop`: the central fraction of height and width (offsets truncated)."""
    ops = _ops()
    img = _image(image)
    # (TF compares tensor_util.constant_value(central_fraction) in Python: a tensor's NumPy value, whose
    # truth value of more than one element is NumPy's ValueError; a Python list as it is, `list <= 0.0`'s
    # TypeError; a variable's `central_fraction > 0.0` tensors in _assert, the same ValueError; fz43b,
    # fz43_gen seed 43002)
    if isinstance(central_fraction, Tensor) or hasattr(central_fraction, "_as_tensor"):
        cf = central_fraction if isinstance(central_fraction, Tensor) else central_fraction._as_tensor()
        static = np.asarray(dispatch.static_value(cf) if isinstance(central_fraction, Tensor) else cf._v)
    else:
        static = central_fraction
    if static <= 0.0 or static > 1.0:
        raise ValueError("central_fraction must be within (0, 1]")
    frac = float(static)
    if frac == 1.0:
        return img
    from simdist.runtime.ops import static_shapes
    if static_shapes.rank_unknown(img):
        # (a graph that does not know the rank: _CheckAtLeast3DImage adds its run-time assert, then the rank read is
        # None, the trace's ValueError; fz42, fz14 seed 1420423003 #63)
        raise ValueError("`image` should either be a Tensor with rank = 3 or rank = 4. Had rank = None.")
    _check_at_least_3d(img)
    r = img.shape.ndims
    if r not in (3, 4):
        raise ValueError(f"`image` should either be a Tensor with rank = 3 or rank = 4. Had rank = {r}.")
    shape = img.shape.as_list()
    h, w = (shape[0], shape[1]) if r == 3 else (shape[1], shape[2])
    hs = int((float(h) - float(h) * frac) / 2)
    ws = int((float(w) - float(w) * frac) / 2)
    if r == 3:
        out = ops.slice_(img, [hs, ws, 0], [h - 2 * hs, w - 2 * ws, -1])
    else:
        out = ops.slice_(img, [0, hs, ws, 0], [-1, h - 2 * hs, w - 2 * ws, -1])
    known = static_shapes.known_shape(img)
    if known is not None and None in known:
        # (a height or width the graph does not know is computed in the graph (float64, cast to int32), and
        # set_shape leaves it None: `central_crop` of a [None, None, 2] signature is [None, None, 2] on TF 2.21, not
        # the probe's crop; the batch and depth as the graph knows them; isweep66)
        out = static_shapes.mark(out, tuple(d is None for d in known))
    return out


def _to_target(image: Any, target_height: Any, target_width: Any) -> tuple[Tensor, bool, int, int, int, int]:
    """The batched image, whether it was batched, the target (th, tw) checked positive as TF checks
    them (width first), and the image's (height, width): the shared start of the resize_with_* ops."""
    img, is_batch = _batched(image)
    _check_at_least_3d(img)
    th, tw = _int(target_height), _int(target_width)
    # (image_ops_impl._assert: a tensor target's condition is an Assert op, eagerly and when a graph runs
    # InvalidArgumentError; a Python one ValueError; isweep66)
    _asserts(((tw > 0, _tensors(target_width), "target_width must be > 0."),
              (th > 0, _tensors(target_height), "target_height must be > 0.")))
    _, height, width, _ = img.shape.as_list()
    return img, is_batch, th, tw, height, width


def resize_with_crop_or_pad(image: Any, target_height: Any, target_width: Any) -> Tensor:
    """`tf.image.resize_with_crop_or_pad`: centrally cropped and/or zero-padded to the target."""
    ops = _ops()
    img, is_batch, th, tw, height, width = _to_target(image, target_height, target_width)
    known = static_shapes.known_shape(img) or [None] * 4
    image_box_args.crop_or_pad(image_box_args.kind(target_height), image_box_args.kind(target_width),
                               *map(image_box_args.size_kind, known[1:3]))
    wd, hd = tw - width, th - height
    cropped = crop_to_bounding_box(img, max(-hd // 2, 0), max(-wd // 2, 0), min(th, height), min(tw, width))
    out = pad_to_bounding_box(cropped, max(hd // 2, 0), max(wd // 2, 0), th, tw)
    return out if is_batch else ops.squeeze(out, axis=[0])


# --- dtype conversion and value adjustments -----------------------------------------------------------
def convert_image_dtype(image: Any, dtype: Any, saturate: bool = False, name: str | None = None) -> Tensor:
    """`tf.image.convert_image_dtype`: integers scaled by powers of two between types, to floats
    by 1/max, floats to integers by max + 0.5 (then Cast, or saturate_cast)."""
    ops = _ops()
    from simdist.runtime.ops.truncation import saturate_cast
    img = _image(image)
    dt = dtypes.as_dtype(dtype)
    if not dt.is_floating and not dt.is_integer:
        raise AttributeError("dtype must be either floating point or integer")
    if not img.dtype.is_floating and not img.dtype.is_integer:
        raise AttributeError("image dtype must be either floating point or integer")
    if dt == img.dtype:
        return ops.identity(img)
    sat = (lambda: symbolic.flag(saturate))   # (TF's `if saturate:` in the branch that converts; fz65)
    if img.dtype.is_integer and dt.is_integer:
        scale_in, scale_out = img.dtype.max, dt.max
        if scale_in > scale_out:
            scaled = ops.floordiv(img, (scale_in + 1) // (scale_out + 1))
            return saturate_cast(scaled, dt) if sat() else ops.cast(scaled, dt)
        c = saturate_cast(img, dt) if sat() else ops.cast(img, dt)
        return ops.multiply(c, (scale_out + 1) // (scale_in + 1))
    if img.dtype.is_floating and dt.is_floating:
        return ops.cast(img, dt)
    if img.dtype.is_integer:
        return ops.multiply(ops.cast(img, dt), 1.0 / img.dtype.max)
    scaled = ops.multiply(img, dt.max + 0.5)
    return saturate_cast(scaled, dt) if sat() else ops.cast(scaled, dt)


def _to_float(image: Tensor) -> Tensor:
    return image if image.dtype in (dtypes.float16, dtypes.float32) else convert_image_dtype(image, dtypes.float32)


def adjust_brightness(image: Any, delta: Any) -> Tensor:
    """`tf.image.adjust_brightness`: image + delta in float (saturated back to the image's type)."""
    ops = _ops()
    img = _image(image)
    flt = _to_float(img)
    adjusted = ops.add(flt, ops.cast(delta, flt.dtype))
    return convert_image_dtype(adjusted, img.dtype, saturate=True)


def adjust_contrast(images: Any, contrast_factor: Any) -> Tensor:
    """`tf.image.adjust_contrast`: AdjustContrastv2 on the float image."""
    img = _image(images)
    flt = _to_float(img)
    f = contrast_factor if isinstance(contrast_factor, Tensor) else convert_to_tensor(contrast_factor,
                                                                                      dtype=dtypes.float32)
    adjusted = dispatch.execute(ADJUST_CONTRAST, (flt, f))
    return convert_image_dtype(adjusted, img.dtype, saturate=True)


def adjust_gamma(image: Any, gamma: Any = 1, gain: Any = 1) -> Tensor:
    """`tf.image.adjust_gamma`: gain · image ** gamma in float."""
    ops = _ops()
    img = _image(image)
    flt = _to_float(img)
    g = float(dispatch.static_value(gamma)) if isinstance(gamma, Tensor) else gamma
    # (image_ops' _assert(gamma >= 0, ...): a NaN gamma fails it too (fz40, fourteenth generator seed 1420403004
    # #191); a tensor gamma's condition is an Assert op, eagerly InvalidArgumentError (isweep66))
    _asserts(((g >= 0, _tensors(gamma), "Gamma should be a non-negative real number."),))
    adjusted = gain * flt ** gamma   # TF's Python operators: gain and gamma take the image's float dtype
    return convert_image_dtype(adjusted, img.dtype, saturate=True)


def per_image_standardization(image: Any) -> Tensor:
    """`tf.image.per_image_standardization`: (x − mean) / max(stddev, 1/√N) per image, float32."""
    ops = _ops()
    img = _image(image)
    _check_at_least_3d(img)
    x = ops.cast(img, dtypes.float32)
    num_pixels = ops.reduce_prod(ops.shape(x)[-3:])
    mean = ops.reduce_mean(x, axis=[-1, -2, -3], keepdims=True)
    std = ops.reduce_std(x, axis=[-1, -2, -3], keepdims=True)
    min_std = ops.rsqrt(ops.cast(num_pixels, dtypes.float32))
    adjusted = ops.maximum(std, min_std)
    return ops.divide(ops.subtract(x, mean), adjusted)


# --- colour spaces ------------------------------------------------------------------------------------
def rgb_to_grayscale(images: Any, name: str | None = None) -> Tensor:
    """`tf.image.rgb_to_grayscale`: tensordot with (0.2989, 0.5870, 0.1140) in float32."""
    ops = _ops()
    img = _image(images)
    flt = convert_image_dtype(img, dtypes.float32)
    gray = ops.tensordot(flt, [0.2989, 0.5870, 0.1140], [-1, -1])
    return convert_image_dtype(ops.expand_dims(gray, -1), img.dtype)


def grayscale_to_rgb(images: Any, name: str | None = None) -> Tensor:
    """`tf.image.grayscale_to_rgb`: the one channel tiled three times."""
    ops = _ops()
    img = _tensor_only(images)
    static = static_shape(img)   # (image_ops_impl._CheckGrayscaleImage(require_static=False): the graph's shape)
    if static.ndims is not None and static.ndims < 2:
        raise ValueError(f"A grayscale image (shape {static}) must be at least two-dimensional.")
    if static.is_fully_defined() and static[-1] != 1:
        raise ValueError("Last dimension of a grayscale image should be size 1.")
    if not static.is_fully_defined():   # its assert ops, when the graph runs (at once when the graph knows
        shape = dispatch.raw(img).shape  # what they compare: check_ops' static check, trace_errors.at_build)
        if static.ndims is not None and static[-1] is not None and static[-1] != 1 and len(shape) >= 3:
            # (assert_equal(shape(image)[-1], 1) has no constant value while the graph does not know every
            # dimension, so it waits for the run; the Tile of a known last dimension then meets set_shape's
            # [..., 3]: ValueError at trace; fz39b, fourteenth generator seed 1420393004 #284)
            dims = ["?" if d is None else str(d) for d in static.as_list()]
            tiled = ",".join(dims[:-1] + [str(3 * static[-1])])
            raise ValueError(f"Dimension {len(dims) - 1} in both shapes must be equal, but are {3 * static[-1]} and "
                             f"3. Shapes are [{tiled}] and [{','.join(dims[:-1] + ['3'])}].")
        if len(shape) < 1 or shape[-1] != 1:
            err = errors.InvalidArgumentError(None, None, "assertion failed: [Last dimension of a grayscale image "
                                              "should be size 1.]")
            raise trace_errors.at_build(err) if static.ndims is not None and static[-1] is not None else err
        if len(shape) < 3:   # (TF's assert_greater_equal(rank(image), 3): a rank-2 image fails here too)
            err = errors.InvalidArgumentError(None, None, "assertion failed: [A grayscale image must be at least "
                                              "two-dimensional.]")
            raise trace_errors.at_build(err) if static.ndims is not None else err
    return ops.tile(img, ops.concat([ops.ones(ops.expand_dims(ops.rank(img) - 1, 0), dtypes.int32), [3]], 0))


_RGB_TO_YUV = [[0.299, -0.14714119, 0.61497538], [0.587, -0.28886916, -0.51496512],
               [0.114, 0.43601035, -0.10001026]]
_YUV_TO_RGB = [[1, 1, 1], [0, -0.394642334, 2.03206185], [1.13988303, -0.58062185, 0]]


def _color(images: Any, kernel: list) -> Tensor:
    ops = _ops()
    img = _image(images)
    k = convert_to_tensor(np.asarray(kernel, np.float64).astype(img.dtype._np)) if img.dtype.is_floating else \
        convert_to_tensor(kernel, dtype=img.dtype)
    from simdist.runtime.ops import static_shapes
    if static_shapes.rank_unknown(img):
        # (image_ops_impl reads `images.get_shape().ndims`, None for an input of unknown rank: `None - 1`
        # is Python's TypeError at trace; fz31b, fz14 seed 1420313006 #5, yiq_to_rgb of a TensorSpec(None))
        raise TypeError("unsupported operand type(s) for -: 'NoneType' and 'int'")
    return ops.tensordot(img, k, axes=[[img.shape.ndims - 1], [0]])


def rgb_to_yuv(images: Any) -> Tensor:
    """`tf.image.rgb_to_yuv`: tensordot with TF's kernel over the channel axis."""
    return _color(images, _RGB_TO_YUV)


def yuv_to_rgb(images: Any) -> Tensor:
    """`tf.image.yuv_to_rgb`: tensordot with TF's inverse kernel."""
    return _color(images, _YUV_TO_RGB)


# --- differences and quality measures -----------------------------------------------------------------
def total_variation(images: Any, name: str | None = None) -> Tensor:
    """`tf.image.total_variation`: sum |vertical differences| + sum |horizontal differences|."""
    ops = _ops()
    img = _tensor_only(images)
    # (TF reads `images.get_shape().ndims`: None for a rank the graph does not know, the ValueError
    # at trace; fz29b, fz14 seed 1420292902 #87)
    r = None if static_shapes.rank_unknown(img) else img.ndim
    if r == 3:
        d1 = ops.subtract(img[1:, :, :], img[:-1, :, :])
        d2 = ops.subtract(img[:, 1:, :], img[:, :-1, :])
        axis = None
    elif r == 4:
        d1 = ops.subtract(img[:, 1:, :, :], img[:, :-1, :, :])
        d2 = ops.subtract(img[:, :, 1:, :], img[:, :, :-1, :])
        axis = [1, 2, 3]
    else:
        raise ValueError("'images' must be either 3 or 4-dimensional.")
    return ops.add(ops.reduce_sum(ops.abs_(d1), axis=axis), ops.reduce_sum(ops.abs_(d2), axis=axis))


def image_gradients(image: Any) -> tuple[Tensor, Tensor]:
    """`tf.image.image_gradients`: (dy, dx) forward differences, zero in the last row/column."""
    ops = _ops()
    img = _tensor_only(image)
    if static_shape(img).ndims != 4:   # (the graph's shape: an unknown rank is refused too)
        raise ValueError(f"image_gradients expects a 4D tensor [batch_size, h, w, d], not {static_shape(img)}.")
    b, h, w, d = img.shape.as_list()
    dy = ops.subtract(img[:, 1:, :, :], img[:, :-1, :, :])
    dx = ops.subtract(img[:, :, 1:, :], img[:, :, :-1, :])
    dy = ops.reshape(ops.concat([dy, ops.zeros([b, 1, w, d], img.dtype)], 1), [b, h, w, d])
    dx = ops.reshape(ops.concat([dx, ops.zeros([b, h, 1, d], img.dtype)], 2), [b, h, w, d])
    return dy, dx


def sobel_edges(image: Any) -> Tensor:
    """`tf.image.sobel_edges`: depthwise_conv2d of the REFLECT-padded image with the two Sobel
    kernels, reshaped to [batch, h, w, d, 2]."""
    ops = _ops()
    from simdist.runtime.ops.nn import depthwise_conv2d
    img = _tensor_only(image)
    image_shape = ops.shape(img)   # (TF reads the depth as image_shape[-1]: a StridedSlice, so a scalar
    kernels = np.transpose(np.asarray([[[-1, -2, -1], [0, 0, 0], [1, 2, 1]],    # image is its error)
                                       [[-1, 0, 1], [-2, 0, 2], [-1, 0, 1]]]), (1, 2, 0))
    kernels = np.expand_dims(kernels, -2)
    k = ops.constant(kernels, dtype=img.dtype)
    k = ops.tile(k, ops.stack([1, 1, image_shape[-1], 1]))
    padded = ops.pad(img, [[0, 0], [1, 1], [1, 1], [0, 0]], mode="REFLECT")
    out = depthwise_conv2d(padded, k, [1, 1, 1, 1], "VALID")
    return ops.reshape(out, ops.concat([image_shape, [2]], 0))


def psnr(a: Any, b: Any, max_val: Any, name: str | None = None) -> Tensor:
    """`tf.image.psnr`: 20·log(max)/log(10) − (10/ln 10)·log(mse) over the last three axes."""
    ops = _ops()
    mv = convert_image_dtype(ops.cast(max_val, a.dtype), dtypes.float32)   # (a.dtype: a Python a is AttributeError)
    at, bt = _image(a), _image(b)
    af, bf = convert_image_dtype(at, dtypes.float32), convert_image_dtype(bt, dtypes.float32)
    mse = ops.reduce_mean(ops.squared_difference(af, bf), [-3, -2, -1])   # (broadcast errors first, as TF)
    s1, s2 = af.shape.as_list(), bf.shape.as_list()
    if len(s1) < 3 or len(s2) < 3:
        raise ValueError(f"Shape {af.shape if len(s1) < 3 else bf.shape} must have rank at least 3")
    if s1[-3:] != s2[-3:]:
        raise ValueError(f"Shapes {s1[-3:]} and {s2[-3:]} are incompatible")
    # TF's Python operators: 20 * log(max) takes log(max)'s dtype (tf.math.multiply(20, x) would
    # convert 20 on its own, an int32, and a traced Mul refuses the pair)
    return ops.subtract(20 * ops.log(mv) / ops.log(10.0), np.float32(10 / np.log(10)) * ops.log(mse))


# --- stateless random augmentations -------------------------------------------------------------------
def random_flip(image: Any, index: int, draw: Any) -> Tensor:
    """image_ops_impl._random_flip: `draw(shape)` gives uniform [0, 1) draws (stateless or
    stateful); rank 3 flips when the draw is < 0.5, rank 4 each image by round(draw)."""
    ops = _ops()
    img = _image(image)
    _check_at_least_3d(img)
    r = img.shape.ndims
    if r == 3:   # (a tf.cond, as TF's: inside a tf.function both branches are traced and the draw decides)
        from simdist.runtime.ops.control_flow import cond
        return cond(ops.less(draw([]), 0.5), lambda: ops.reverse(img, [index]), lambda: img)
    if r == 4:
        n = img.shape.as_list()[0]
        u = draw([n])
        flips = ops.cast(ops.round_(ops.reshape(u, [n, 1, 1, 1])), img.dtype)
        flipped = ops.reverse(img, [index + 1])
        return flips * flipped + (1 - flips) * img   # Python operators: 1 takes flips' dtype, as in TF
    raise ValueError(f"'image' (shape {img.shape}) must have either 3 or 4 dimensions.")


def _stateless_draw(seed: Any) -> Any:
    from simdist.runtime.ops.random import stateless_uniform
    return lambda shape: stateless_uniform(shape, seed=seed, minval=0, maxval=1.0)


def stateless_random_flip_left_right(image: Any, seed: Any) -> Tensor:
    """`tf.image.stateless_random_flip_left_right`: flipped when the seed's uniform draw is < 0.5."""
    return random_flip(image, 1, _stateless_draw(seed))


def stateless_random_flip_up_down(image: Any, seed: Any) -> Tensor:
    return random_flip(image, 0, _stateless_draw(seed))


def stateless_random_brightness(image: Any, max_delta: float, seed: Any) -> Tensor:
    """`tf.image.stateless_random_brightness`: adjust_brightness by a uniform delta in ±max_delta."""
    from simdist.runtime.ops.random import stateless_uniform
    if truth_taken(max_delta < 0):
        raise ValueError("max_delta must be non-negative.")
    delta = stateless_uniform([], minval=-max_delta, maxval=max_delta, seed=seed)
    return adjust_brightness(image, delta)


def stateless_random_contrast(image: Any, lower: float, upper: float, seed: Any) -> Tensor:
    """`tf.image.stateless_random_contrast`: adjust_contrast by a uniform factor in [lower, upper)."""
    from simdist.runtime.ops.random import stateless_uniform
    if truth_taken(upper <= lower):
        raise ValueError("upper must be > lower.")
    if truth_taken(lower < 0):
        raise ValueError("lower must be non-negative.")
    factor = stateless_uniform([], minval=lower, maxval=upper, seed=seed)
    return adjust_contrast(image, factor)


def crop_at(value: Any, size: Any, draw: Any) -> Tensor:
    """random_crop_ops' random_crop and stateless_random_crop after their draw (`draw(rank)`: int32 offsets in
    [0, 2³¹ - 1), drawn only once the Assert passed): value and size (int32) converted, Assert(shape >= size),
    then Slice(value, draw % (shape - size + 1), size). GreaterEqual(shape, size) broadcasts a size of one element;
    Slice's shape function (begin of the broadcast length, size of its own, both the value's rank) fails at trace,
    before the Assert, which runs with the graph; eagerly the Assert first (fz14 seeds 1420261219 #291,
    1420443003 #2)."""
    from simdist.runtime import context
    ops = _ops()
    v = value if isinstance(value, Tensor) else convert_to_tensor(value)
    sz = size if isinstance(size, Tensor) else convert_to_tensor(size, dtype=dtypes.int32)
    if sz.dtype != dtypes.int32:
        raise ValueError(f"Tensor conversion requested dtype int32 for Tensor with dtype {sz.dtype.name}: {sz!r}")
    shape = ops.shape(v)
    sizes = [int(s) for s in dispatch.static_value(sz).reshape(-1).tolist()]
    dims = v.shape.as_list()
    r, n = len(dims), len(sizes)
    if r != n and r != 1 and n != 1:   # GreaterEqual(shape, size) does not broadcast
        raise trace_errors.shape_error(f"Incompatible shapes: [{r}] vs. [{n}] [Op:GreaterEqual]",
                                       f"Dimensions must be equal, but are {r} and {n}", "GreaterEqual", ([r], [n]))
    # (a size of one element broadcasts: the Assert passes on what it compares, then Slice gets an
    # offset of the broadcast length beside the size's; fz14 seed 1420261219 #291)
    b = r if n == 1 else n
    bp = r if b == 1 else b
    slice_text = None
    if bp != n:
        slice_text = f"Dimension 0 in both shapes must be equal, but are {bp} and {n}. Shapes are [{bp}] and [{n}]."
    elif r != n:
        slice_text = f"Shape must be rank {n} but is rank {r}"
    slice_err = None if slice_text is None else trace_errors.shape_error(
        f"Expected begin and size arguments to be 1-D tensors of size {r}, but got shapes [{bp}] and [{n}] instead. "
        "[Op:Slice]", slice_text, "Slice", (dims, [bp], [n]))
    if slice_err is not None and context.in_function():   # (the shape function at trace, before the Assert runs)
        raise slice_err
    pairs = [(d, s) for d, s in zip(dims if r == b else dims * b, sizes if n == b else sizes * b)]
    if any(s > d for d, s in pairs):
        raise errors.InvalidArgumentError(None, None, "assertion failed: [Need value.shape >= size, got ] "
                                          f"[{dims}] [{sizes}]")
    # (eagerly the draw and its FloorMod run before Slice's error: a stateless crop's seed=None is the seed's
    # conversion ValueError, TF 2.21; fz62, fourth generator seed 62401 #5)
    offsets = ops.floormod(draw(len(dims)), shape - sz + 1)
    if slice_err is not None:
        raise slice_err
    return ops.slice_(v, offsets, sz)


def stateless_random_crop(value: Any, size: Any, seed: Any, name: str | None = None) -> Tensor:
    """`tf.image.stateless_random_crop`: random_crop's Assert and Slice (crop_at) at offsets full-range int32
    stateless draws mod (shape − size + 1)."""
    from simdist.runtime.ops.random import stateless_uniform
    return crop_at(value, size, lambda n: stateless_uniform([n], dtype=dtypes.int32, maxval=2**31 - 1, seed=seed))


def _graph_knows_sizes(img: Tensor, target_height: Any, target_width: Any) -> bool:
    """Inside a tf.function, whether the graph knows the image's height and width and the targets (constants)."""
    from simdist.runtime import context
    if not context.in_function():
        return False
    known = static_shapes.known_shape(img)
    if known is None or known[1] is None or known[2] is None:
        return False
    return all(not isinstance(x, Tensor) or graph_constants.known(x) for x in (target_height, target_width))


def resize_with_pad(image: Any, target_height: Any, target_width: Any, method: str = "bilinear",
                    antialias: bool = False) -> Tensor:
    """`tf.image.resize_with_pad`: resized keeping the aspect ratio (sizes from float32 ratios,
    floored), then zero-padded centrally (offsets floored) to the target."""
    from simdist.runtime.ops.resize_images import resize
    ops = _ops()
    img, is_batch, th, tw, height, width = _to_target(image, target_height, target_width)
    f = np.float32
    fh, fw, fth, ftw = f(height), f(width), f(th), f(tw)
    ratio = max(fw / ftw, fh / fth)
    rh, rw = fh / ratio, fw / ratio
    p_h = max(0, int(np.floor((fth - rh) / f(2))))
    p_w = max(0, int(np.floor((ftw - rw) / f(2))))
    h0, w0 = int(np.floor(rh)), int(np.floor(rw))
    if (h0 == 0 or w0 == 0) and _graph_knows_sizes(img, target_height, target_width):
        # (traced, where the graph knows the sizes: the resize's static shape holds the 0 and pad_to_bounding_box's
        # _CheckAtLeast3DImage refuses it, ValueError at trace; eagerly the resize kernel's InvalidArgumentError;
        # TF 2.21 observed, fz45b, fz44_gen seed 44005)
        known = static_shapes.known_shape(img)
        dims = ", ".join("None" if d is None else str(d) for d in (known[0], h0, w0, known[3]))
        raise ValueError(f"inner 3 dims of 'image.shape' must be > 0: ({dims})")
    resized = resize(img, [h0, w0], method=method, antialias=antialias)
    # (TF pads by offsets computed as int32 tensors: the targets meet them in pad_to_bounding_box's arithmetic)
    i32 = image_box_args.INT32
    known = static_shapes.known_shape(resized) or [None] * 4
    image_box_args.check_pad(i32, i32, *image_box_args.pad_afters(
        i32, i32, image_box_args.kind(target_height), image_box_args.kind(target_width),
        *map(image_box_args.size_kind, known[1:3])))
    out = pad_to_bounding_box(resized, p_h, p_w, th, tw)
    return out if is_batch else ops.squeeze(out, axis=[0])


def stateless_random_hue(image: Any, max_delta: float, seed: Any) -> Tensor:
    """`tf.image.stateless_random_hue`: adjust_hue by a uniform delta in ±max_delta (≤ 0.5)."""
    from simdist.runtime.ops.image_color import adjust_hue
    from simdist.runtime.ops.random import stateless_uniform
    if truth_taken(max_delta > 0.5):
        raise ValueError("max_delta must be <= 0.5.")
    if truth_taken(max_delta < 0):
        raise ValueError("max_delta must be non-negative.")
    return adjust_hue(image, stateless_uniform([], minval=-max_delta, maxval=max_delta, seed=seed))


def stateless_random_saturation(image: Any, lower: float, upper: float, seed: Any = None) -> Tensor:
    """`tf.image.stateless_random_saturation`: adjust_saturation by a uniform factor in [lower, upper)."""
    from simdist.runtime.ops.image_color import adjust_saturation
    from simdist.runtime.ops.random import stateless_uniform
    if truth_taken(upper <= lower):
        raise ValueError("upper must be > lower.")
    if truth_taken(lower < 0):
        raise ValueError("lower must be non-negative.")
    return adjust_saturation(image, stateless_uniform([], minval=lower, maxval=upper, seed=seed))


def _fspecial_gauss(size: int, sigma: Tensor) -> Tensor:
    """TF's Gaussian window: softmax of -(i² + j²)/(2σ²) over the size×size grid."""
    ops = _ops()
    from simdist.runtime.ops.nn import softmax
    coords = ops.cast(ops.range_(size), sigma.dtype)
    coords = ops.subtract(coords, ops.divide(ops.cast(size - 1, sigma.dtype), 2.0))
    g = ops.square(coords)
    g = ops.multiply(g, ops.divide(-0.5, ops.square(sigma)))
    g = ops.add(ops.reshape(g, [1, -1]), ops.reshape(g, [-1, 1]))
    return ops.reshape(softmax(ops.reshape(g, [1, -1])), [size, size, 1, 1])


def ssim(img1: Any, img2: Any, max_val: Any, filter_size: int = 11, filter_sigma: float = 1.5, k1: float = 0.01,
         k2: float = 0.03, return_index_map: bool = False) -> Tensor:
    """`tf.image.ssim`: luminance · contrast-structure from Gaussian-window means (depthwise
    convolutions, VALID), averaged over the image (unless return_index_map) and the channels."""
    ops = _ops()
    a, b, mv = ssim_inputs(img1, img2, max_val)
    val, _ = ssim_per_channel(a, b, mv, filter_size, filter_sigma, k1, k2, return_index_map)
    return ops.reduce_mean(val, [-1])


def ssim_inputs(img1: Any, img2: Any, max_val: Any) -> tuple[Tensor, Tensor, Tensor]:
    """ssim's (and ssim_multiscale's) checks of the two images' shapes, and both images and
    max_val converted to float32 as convert_image_dtype does."""
    ops = _ops()
    a, b = _image(img1), _image(img2)
    s1, s2 = a.shape.as_list(), b.shape.as_list()
    if len(s1) < 3 or len(s2) < 3:
        raise ValueError(f"Shape {a.shape if len(s1) < 3 else b.shape} must have rank at least 3")
    if s1[-3:] != s2[-3:]:
        raise ValueError(f"Shapes {a.shape[-3:]} and {b.shape[-3:]} are incompatible")
    for x, y in zip(reversed(s1[:-3]), reversed(s2[:-3])):
        if not (x == 1 or y == 1 or x == y):
            raise ValueError(f"Two images are not compatible: {a.shape} and {b.shape}")
    # (then `array_ops.shape_n([img1, img2])`: ShapeN's one attr T refuses images of two dtypes,
    # InvalidArgumentError eagerly, TypeError in a graph; fz25b, seed 1420262502 #214)
    from simdist.runtime.ops.array_more import shape_n
    shape_n([a, b])
    mv = convert_image_dtype(ops.cast(max_val, a.dtype), dtypes.float32)
    return convert_image_dtype(a, dtypes.float32), convert_image_dtype(b, dtypes.float32), mv


def ssim_per_channel(a: Tensor, b: Tensor, mv: Tensor, filter_size: int = 11, filter_sigma: float = 1.5,
                     k1: float = 0.01, k2: float = 0.03, return_index_map: bool = False) -> tuple[Tensor, Tensor]:
    """image_ops_impl._ssim_per_channel: (ssim, contrast-structure) per channel of float32 images."""
    ops = _ops()
    from simdist.runtime.ops.nn import depthwise_conv2d
    s1, s2 = list(np.shape(a._v)), list(np.shape(b._v))   # (the values' shapes: some may be unknown to a graph)
    fs = int(filter_size)
    for x, shp in ((a, s1), (b, s2)):
        if any(d < fs for d in shp[-3:-1]):   # (control_flow_assert.Assert: when the graph runs)
            err = errors.InvalidArgumentError(None, None, f"assertion failed: [{shp}] [{fs}]")
            u = static_shapes.unknown(x)
            if u and any(u[-3:-1]):   # (nor can DepthwiseConv2dNative's shape function see the sizes)
                size = [] if return_index_map else [shp[-1]]
                if return_index_map:
                    size = [max(0, d - fs + 1) for d in shp[-3:-1]] + [shp[-1]]
                out = dispatch.refused(err, x.dtype, shp[:-3] + size)
                return out, out
            dispatch.graph_assert(err)
    sigma = ops.constant(filter_sigma, dtype=a.dtype)
    kernel = ops.tile(_fspecial_gauss(fs, sigma), [1, 1, s1[-1], 1])

    def reducer(x: Tensor) -> Tensor:
        # (TF reshapes by the images' Shape ops: dimensions the graph does not know stay unknown,
        # so DepthwiseConv2dNative's shape function cannot see them; ssim_multiscale's scales)
        shape = list(np.shape(x._v))
        u = static_shapes.unknown(x)
        flat = ops.reshape(x, [-1] + shape[-3:])
        if u:
            flat = static_shapes.mark(flat, (False,) + tuple(u[-3:]))
        y = depthwise_conv2d(flat, kernel, strides=[1, 1, 1, 1], padding="VALID")
        out = ops.reshape(y, shape[:-3] + list(np.shape(y._v))[1:])
        return static_shapes.mark(out, tuple(u[:-3]) + (True,) * 3) if u and any(u[-3:]) else out

    c1 = ops.pow_(ops.multiply(k1, mv), 2)
    c2 = ops.pow_(ops.multiply(k2, mv), 2)
    mean0, mean1 = reducer(a), reducer(b)
    num0 = ops.multiply(ops.multiply(mean0, mean1), 2.0)
    den0 = ops.add(ops.square(mean0), ops.square(mean1))
    luminance = ops.divide(ops.add(num0, c1), ops.add(den0, c1))
    num1 = ops.multiply(reducer(ops.multiply(a, b)), 2.0)
    den1 = reducer(ops.add(ops.square(a), ops.square(b)))
    c2 = ops.multiply(c2, 1.0)
    cs = ops.divide(ops.add(ops.subtract(num1, num0), c2), ops.add(ops.subtract(den1, den0), c2))
    val = ops.multiply(luminance, cs)
    if not return_index_map:
        axes = ops.constant([-3, -2], dtype=dtypes.int32)
        val = ops.reduce_mean(val, axes)
        cs = ops.reduce_mean(cs, axes)
    return val, cs
