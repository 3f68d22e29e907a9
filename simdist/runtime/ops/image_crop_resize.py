"""tf.image.crop_and_resize (TF's CropAndResize op) and its gradients CropAndResizeGradImage and
CropAndResizeGradBoxes, transcribed from crop_and_resize_op.cc in the kernel's float arithmetic:
each box [y1, x1, y2, x2] (normalized: y maps to y·(H - 1)) of image box_indices[b] sampled on a
crop_height × crop_width grid (bilinear or nearest), points outside the image extrapolation_value;
a one-row or one-column crop samples the box's centre (computed as 0.5 in double). The output is
float32 for every real image dtype. Gradients (image_grad._CropAndResizeGrad): the image's
(half/float/double images only; the bilinear weights scattered in the kernel's loop order) and the
boxes' (the bilinear image gradient times each corner's lever, accumulated in float). Clause
ops.image-boxes.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from simdist.runtime import dtypes, errors
from simdist.runtime.ops import dispatch, trace_errors
from simdist.runtime.ops.counting import no_tf_gradient
from simdist.runtime.ops.registry import RegisterGradient, lanes, register
from simdist.runtime.ops.shape_checks import shape_fn
from simdist.runtime.tensor import Tensor, convert_to_tensor

__all__ = ["crop_and_resize"]

_F = np.float32
#: CropAndResize's attr T (image_ops.cc: uint8, uint16, int8, int16, int32, int64, half, float, double; no bfloat16,
#: uint32 or uint64: TF 2.21's InvalidArgumentError, isweep66)
_REAL = ("uint8", "uint16", "int8", "int16", "int32", "int64", "float16", "float32", "float64")
_CPP = {"float16": "half", "float32": "float", "float64": "double"}


def _dims(shape: Any) -> str:
    return "[" + ",".join(str(int(d)) for d in shape) + "]"


def _check_boxes(boxes: np.ndarray, box_index: np.ndarray) -> int:
    if boxes.ndim != 2:
        raise errors.InvalidArgumentError(None, None, f"boxes must be 2-D, got: {_dims(boxes.shape)}")
    if box_index.ndim != 1:
        raise errors.InvalidArgumentError(None, None, f"box_indices must be rank 1 but is shape "
                                          f"{_dims(box_index.shape)}")
    n = boxes.shape[0]
    if boxes.shape[1] != 4 and n:
        raise errors.InvalidArgumentError(None, None, "boxes must have 4 columns")
    if box_index.shape[0] != n:
        raise errors.InvalidArgumentError(None, None, "box_index has incompatible shape")
    return n


def _check_index(box_index: np.ndarray, batch: int) -> None:
    if np.any((box_index < 0) | (box_index >= batch)):
        raise errors.OutOfRangeError(None, None, "box_index has values outside [0, batch_size)")


def _axis(lo: Any, hi: Any, size: int, crop: int, by_ratio: bool = False) -> tuple[np.ndarray, Any, Any]:
    """(sample positions in float32, scale, ratio) of one axis of one box, as the kernel computes
    them: scale (hi - lo)·(size - 1)/(crop - 1), or (hi - lo)·ratio (`by_ratio`: the boxes' gradient)."""
    lo, hi = _F(lo), _F(hi)
    if crop > 1:
        ratio = _F(_F(size - 1) / _F(crop - 1))
        scale = _F(_F(hi - lo) * ratio) if by_ratio else _F(_F(_F(hi - lo) * _F(size - 1)) / _F(crop - 1))
        pos = (_F(lo * _F(size - 1)) + np.arange(crop, dtype=_F) * scale).astype(_F)
    else:
        scale, ratio = _F(0), _F(0)
        pos = np.asarray([_F(0.5 * float(_F(lo + hi)) * (size - 1))], _F)
    return pos, scale, ratio


def _forward(image: np.ndarray, boxes: np.ndarray, box_index: np.ndarray, crop_size: np.ndarray,
             method: str = "bilinear", extrapolation_value: float = 0.0) -> np.ndarray:
    if image.ndim != 4:
        raise errors.InvalidArgumentError(None, None, f"input image must be 4-D{_dims(image.shape)}")
    batch, h, w, depth = image.shape
    if h <= 0 or w <= 0:
        raise errors.InvalidArgumentError(None, None, "image dimensions must be positive")
    n = _check_boxes(boxes, box_index)
    if crop_size.ndim != 1:
        raise errors.InvalidArgumentError(None, None, f"crop_size must be 1-D{_dims(crop_size.shape)}")
    if crop_size.shape[0] != 2:
        raise errors.InvalidArgumentError(None, None, f"crop_size must have two elements{_dims(crop_size.shape)}")
    ch, cw = int(crop_size[0]), int(crop_size[1])
    if ch <= 0 or cw <= 0:
        raise errors.InvalidArgumentError(None, None, "crop dimensions must be positive")
    _check_index(box_index, batch)
    if not np.all(np.isfinite(boxes)):
        raise errors.InvalidArgumentError(None, None, "Boxes contains at least one element that is not finite")
    img = image.astype(_F) if image.dtype != _F else image
    out = np.full((n, ch, cw, depth), _F(extrapolation_value), _F)
    for b in range(n):
        y1, x1, y2, x2 = boxes[b]
        bi = int(box_index[b])
        ys, _, _ = _axis(y1, y2, h, ch)
        xs, _, _ = _axis(x1, x2, w, cw)
        oky = (ys >= 0) & (ys <= _F(h - 1))
        okx = (xs >= 0) & (xs <= _F(w - 1))
        if not oky.any() or not okx.any():
            continue
        yv, xv = ys[oky], xs[okx]
        if method == "bilinear":
            top, bot = np.floor(yv).astype(np.int64), np.ceil(yv).astype(np.int64)
            left, right = np.floor(xv).astype(np.int64), np.ceil(xv).astype(np.int64)
            yl = (yv - top.astype(_F)).astype(_F)[:, None, None]
            xl = (xv - left.astype(_F)).astype(_F)[None, :, None]
            im = img[bi]
            tl, tr = im[top][:, left], im[top][:, right]
            bl, br = im[bot][:, left], im[bot][:, right]
            t = (tl + ((tr - tl) * xl).astype(_F)).astype(_F)
            bo = (bl + ((br - bl) * xl).astype(_F)).astype(_F)
            vals = (t + ((bo - t) * yl).astype(_F)).astype(_F)
        else:
            cy = np.round(yv).astype(np.int64)     # roundf: half away from zero (non-negative here)
            cy = np.where(yv - np.floor(yv) == 0.5, np.floor(yv) + 1, cy).astype(np.int64)
            cx = np.round(xv).astype(np.int64)
            cx = np.where(xv - np.floor(xv) == 0.5, np.floor(xv) + 1, cx).astype(np.int64)
            vals = img[bi][cy][:, cx]
        out[b][np.ix_(np.nonzero(oky)[0], np.nonzero(okx)[0])] = vals
    return out


def _check_grad_image(grads: np.ndarray, boxes: np.ndarray, box_index: np.ndarray, image_size: np.ndarray) -> None:
    """CropAndResizeGradImageOp::ComputeAsync's checks in its order (crop_and_resize_op.cc): grads
    4-D with positive crop sizes, ParseAndCheckBoxSizes (nothing when boxes and box_index are both
    empty), as many grads as boxes, image_size a vector of 4 with positive height and width and the
    grads' depth, then the output's dimensions non-negative (TensorShape::AddDimWithStatus). A raw
    call reaches them (fuzz20 seed 2220261202 #184)."""
    if grads.ndim != 4:
        raise errors.InvalidArgumentError(None, None, f"grads image must be 4-D{_dims(grads.shape)}")
    if grads.shape[1] <= 0 or grads.shape[2] <= 0:
        raise errors.InvalidArgumentError(None, None, "grads dimensions must be positive")
    if grads.shape[0] != _parse_boxes(boxes, box_index):
        raise errors.InvalidArgumentError(None, None, "boxes and grads have incompatible shape")
    if image_size.ndim != 1:
        raise errors.InvalidArgumentError(None, None, f"image_size must be 1-D{_dims(image_size.shape)}")
    if image_size.shape[0] != 4:
        raise errors.InvalidArgumentError(None, None, f"image_size must have 4 elements{_dims(image_size.shape)}")
    batch, h, w, depth = (int(v) for v in image_size)
    if h <= 0 or w <= 0:
        raise errors.InvalidArgumentError(None, None, "image dimensions must be positive")
    if grads.shape[3] != depth:
        raise errors.InvalidArgumentError(None, None, "image_size and grads are incompatible")
    if batch < 0:
        raise errors.InvalidArgumentError(None, None, f"Expected a non-negative size, got {batch}")


def _grad_image(grads: np.ndarray, boxes: np.ndarray, box_index: np.ndarray, image_size: np.ndarray,
                method: str = "bilinear", T: Any = None) -> np.ndarray:
    _check_grad_image(grads, boxes, box_index, image_size)
    batch, h, w, depth = (int(v) for v in image_size)
    out_t = T._np
    n, ch, cw, _ = grads.shape
    out = np.zeros((batch, h, w, depth), out_t)
    _check_index(box_index, batch)
    g = grads.astype(_F)
    for b in range(n):
        y1, x1, y2, x2 = boxes[b]
        bi = int(box_index[b])
        ys, _, _ = _axis(y1, y2, h, ch)
        xs, _, _ = _axis(x1, x2, w, cw)
        idx: list[np.ndarray] = []
        val: list[np.ndarray] = []
        for y in range(ch):
            iy = ys[y]
            if iy < 0 or iy > _F(h - 1):
                continue
            okx = np.nonzero((xs >= 0) & (xs <= _F(w - 1)))[0]
            if okx.size == 0:
                continue
            xv = xs[okx]
            gy = g[b, y, okx]                                   # [nx, depth]
            d = np.arange(depth)
            if method == "bilinear":
                top, bot = int(np.floor(iy)), int(np.ceil(iy))
                yl = _F(iy - _F(top))
                left, right = np.floor(xv).astype(np.int64), np.ceil(xv).astype(np.int64)
                xl = (xv - left.astype(_F)).astype(_F)[:, None]
                dtop = (_F(1 - yl) * gy).astype(_F)
                dbot = (yl * gy).astype(_F)
                v = np.stack([((1 - xl).astype(_F) * dtop).astype(_F), (xl * dtop).astype(_F),
                              ((1 - xl).astype(_F) * dbot).astype(_F), (xl * dbot).astype(_F)], axis=-1)
                rows = np.broadcast_to(np.asarray([top, top, bot, bot]), v.shape)
                cols = np.stack([left, right, left, right], axis=-1)[:, None, :]
                cols = np.broadcast_to(cols, v.shape)
                dd = np.broadcast_to(d[None, :, None], v.shape)
            else:
                cy = int(np.floor(iy) + 1) if iy - np.floor(iy) == 0.5 else int(np.round(iy))
                cx = np.where(xv - np.floor(xv) == 0.5, np.floor(xv) + 1, np.round(xv)).astype(np.int64)
                v = gy[..., None]
                rows = np.full(v.shape, cy)
                cols = np.broadcast_to(cx[:, None, None], v.shape)
                dd = np.broadcast_to(d[None, :, None], v.shape)
            flat = ((bi * h + rows) * w + cols) * depth + dd
            idx.append(flat.reshape(-1))
            val.append(v.reshape(-1).astype(out_t))
        if idx:
            np.add.at(out.reshape(-1), np.concatenate(idx), np.concatenate(val))
    return out


def _parse_boxes(boxes: np.ndarray, box_index: np.ndarray) -> int:
    """ParseAndCheckBoxSizes (crop_and_resize_op.cc): no boxes when both are empty; else boxes [n, 4]
    and box_index [n]."""
    if not boxes.size and not box_index.size:
        return 0
    if boxes.ndim != 2:
        raise errors.InvalidArgumentError(None, None, f"boxes must be 2-D{_dims(boxes.shape)}")
    n = boxes.shape[0]
    if boxes.shape[1] != 4:
        raise errors.InvalidArgumentError(None, None, "boxes must have 4 columns")
    if box_index.ndim != 1:
        raise errors.InvalidArgumentError(None, None, f"box_index must be 1-D{_dims(box_index.shape)}")
    if box_index.shape[0] != n:
        raise errors.InvalidArgumentError(None, None, "box_index has incompatible shape")
    return n


def _check_grad_boxes(grads: np.ndarray, image: np.ndarray, boxes: np.ndarray, box_index: np.ndarray) -> None:
    """CropAndResizeGradBoxesOp::ComputeAsync's checks in its order: grads 4-D with positive crop
    sizes, image 4-D with positive height and width and the grads' depth, the boxes
    (ParseAndCheckBoxSizes), as many grads as boxes (a raw call: fuzz20 seed 2320261202 #129)."""
    if grads.ndim != 4:
        raise errors.InvalidArgumentError(None, None, f"grads image must be 4-D{_dims(grads.shape)}")
    if grads.shape[1] <= 0 or grads.shape[2] <= 0:
        raise errors.InvalidArgumentError(None, None, "grads dimensions must be positive")
    if image.ndim != 4:
        raise errors.InvalidArgumentError(None, None, f"input image must be 4-D{_dims(image.shape)}")
    if image.shape[1] <= 0 or image.shape[2] <= 0:
        raise errors.InvalidArgumentError(None, None, "image dimensions must be positive")
    if image.shape[3] != grads.shape[3]:
        raise errors.InvalidArgumentError(None, None, "image, grads depth differ")
    if grads.shape[0] != _parse_boxes(boxes, box_index):
        raise errors.InvalidArgumentError(None, None, "boxes and grads have incompatible shape")


def _grad_boxes(grads: np.ndarray, image: np.ndarray, boxes: np.ndarray, box_index: np.ndarray,
                method: str = "bilinear") -> np.ndarray:
    _check_grad_boxes(grads, image, boxes, box_index)
    batch, h, w, depth = image.shape
    n, ch, cw, _ = grads.shape
    _check_index(box_index, batch)
    img = image.astype(_F)
    out = np.zeros((n, 4), _F)
    for b in range(n):
        y1, x1, y2, x2 = boxes[b]
        bi = int(box_index[b])
        ys, _, hr = _axis(y1, y2, h, ch, by_ratio=True)
        xs, _, wr = _axis(x1, x2, w, cw, by_ratio=True)
        terms: list[list[Any]] = [[], [], [], []]
        for y in range(ch):
            iy = ys[y]
            if iy < 0 or iy > _F(h - 1):
                continue
            top, bot = int(np.floor(iy)), int(np.ceil(iy))
            yl = _F(iy - _F(top))
            for x in range(cw):
                ix = xs[x]
                if ix < 0 or ix > _F(w - 1):
                    continue
                left, right = int(np.floor(ix)), int(np.ceil(ix))
                xl = _F(ix - _F(left))
                tl, tr, bl, br = img[bi, top, left], img[bi, top, right], img[bi, bot, left], img[bi, bot, right]
                gy = (_F(1 - xl) * (bl - tl)).astype(_F) + (xl * (br - tr)).astype(_F)
                gx = (_F(1 - yl) * (tr - tl)).astype(_F) + (yl * (br - bl)).astype(_F)
                tg = grads[b, y, x].astype(_F)
                gy, gx = (gy.astype(_F) * tg).astype(_F), (gx.astype(_F) * tg).astype(_F)
                if ch > 1:
                    terms[0].append((gy * _F(_F(h - 1) - _F(_F(y) * hr))).astype(_F))
                    terms[2].append((gy * _F(_F(y) * hr)).astype(_F))
                else:
                    terms[0].append(gy.astype(np.float64) * 0.5 * (h - 1))
                    terms[2].append(gy.astype(np.float64) * 0.5 * (h - 1))
                if cw > 1:
                    terms[1].append((gx * _F(_F(w - 1) - _F(_F(x) * wr))).astype(_F))
                    terms[3].append((gx * _F(_F(x) * wr)).astype(_F))
                else:
                    terms[1].append(gx.astype(np.float64) * 0.5 * (w - 1))
                    terms[3].append(gx.astype(np.float64) * 0.5 * (w - 1))
        for k in range(4):   # += in the loop's order (y, x, d): float, or float + double rounded to float
            acc = _F(0)
            for arr in terms[k]:
                for v in arr:
                    acc = _F(float(acc) + float(v)) if arr.dtype == np.float64 else _F(acc + v)
            out[b, k] = acc
    return out


def _rule(dts: Any, attrs: Any) -> dtypes.DType:
    d = dts[0]
    if d.name not in _REAL:
        raise errors.InvalidArgumentError(None, None, f"Value for attr 'T' of {d.name} is not in the list of allowed "
                                          "values: uint8, uint16, int8, int16, int32, int64, half, float, double "
                                          "[Op:CropAndResize]")
    if dts[1] != dtypes.float32:
        raise errors.InvalidArgumentError(None, None, "cannot compute CropAndResize as input #1(zero-based) was "
                                          f"expected to be a float tensor but is a {_CPP.get(dts[1].name, dts[1].name)} "
                                          "tensor [Op:CropAndResize]")
    return dtypes.float32


_LANES = lanes("boxes index into the image batch: a lane's boxes read its own images")
CROP_AND_RESIZE = register("CropAndResize", _forward, _rule, lambda a, out, at: 8.0 * out.size, kind="gather/scatter",
                           fusion=_LANES)
# image_ops.cc: image rank 4, boxes rank 2, box_ind rank 1, boxes[0] == box_ind[0], boxes[1] == 4, then
# SetOutputToSizedImage: crop_size rank 1 of 2 elements
CROP_AND_RESIZE.trace_shape = shape_fn(("rank", 0, 4), ("rank", 1, 2), ("rank", 2, 1), ("merge", 1, 0, 2, 0),
                                       ("dim", 1, 1, 4), ("rank", 3, 1), ("dim", 3, 0, 2))
CROP_AND_RESIZE_GRAD_IMAGE = register("CropAndResizeGradImage", _grad_image, lambda dts, at: at["T"],
                                      lambda a, out, at: 10.0 * a[0].size, kind="gather/scatter", fusion=_LANES)
CROP_AND_RESIZE_GRAD_BOXES = register("CropAndResizeGradBoxes", _grad_boxes, lambda dts, at: dtypes.float32,
                                      lambda a, out, at: 20.0 * a[0].size, kind="gather/scatter", fusion=_LANES)


def crop_and_resize(image: Any, boxes: Any, box_indices: Any, crop_size: Any, method: str = "bilinear",
                    extrapolation_value: float = 0.0, name: str | None = None) -> Tensor:
    """`tf.image.crop_and_resize`: [num_boxes, crop_height, crop_width, depth] float32 crops."""
    # the generated wrapper: the image, then the fixed-dtype inputs (a tensor of another dtype is
    # ValueError eagerly, TypeError traced: trace_errors.fixed_operand; fz14 seed 1420261202 #339),
    # then the op runs and refuses a method outside its attr's list (traced op_def_library's ValueError)
    from simdist.runtime.ops import graph_inputs
    graph_inputs.check("CropAndResize", (image, boxes, box_indices, crop_size))   # (a graph: the image's
    # T list first, before the shape function; fz14 seed 1420262402 #51)
    # (the eager fallback and the graph path make method and extrapolation_value (make_str, make_float) before they
    # convert any input, and the fast path sends a tensor extrapolation_value to the fallback: TypeError "Expected
    # float for argument 'extrapolation_value' not <tf.Tensor ...>" before uint8 boxes' ValueError; fz47: fz14 dist
    # seed 1420473003 #41)
    from simdist.runtime.ops import attr_rules
    attr_rules.check("CropAndResize", (image, boxes, box_indices, crop_size), method=method,
                     extrapolation_value=extrapolation_value)
    method = "bilinear" if method is None else method   # (None: the attrs' defaults, as the wrapper reads them)
    extrapolation_value = 0.0 if extrapolation_value is None else extrapolation_value
    img = image if isinstance(image, Tensor) else convert_to_tensor(image)
    # (on the eager fast path a tensor of another dtype reaches EagerExecute's input check instead:
    # attr_rules.fixed_inputs)
    fast = attr_rules.fast_path_takes("CropAndResize", (image, boxes, box_indices, crop_size), method=method,
                                      extrapolation_value=extrapolation_value)
    bx, bi, cs = attr_rules.fixed_inputs("CropAndResize", [(boxes, dtypes.float32, "boxes"),
                                                           (box_indices, dtypes.int32, "box_ind"),
                                                           (crop_size, dtypes.int32, "crop_size")], fast, first=1,
                                  earlier=(img,))
    if method not in ("bilinear", "nearest"):
        raise trace_errors.bad_attr(errors.InvalidArgumentError(
            None, None, f"Value for attr 'method' of \"{method}\" is not in the list of allowed values: \"bilinear\", "
            "\"nearest\" [Op:CropAndResize]"), "CropAndResize", "method", method, '"bilinear", "nearest"')
    return dispatch.execute(CROP_AND_RESIZE, (img, bx, bi, cs), {"method": method,
                                                                "extrapolation_value": float(extrapolation_value)})


@RegisterGradient("CropAndResize")
def _crop_and_resize_grad(op: Any, grad: Any) -> list:
    """image_grad._CropAndResizeGrad: the image's gradient for float images, the boxes' always."""
    image, boxes, box_index = op.inputs[0], op.inputs[1], op.inputs[2]
    g = grad if isinstance(grad, Tensor) else convert_to_tensor(grad)
    grad0 = None
    if image.dtype.name in ("float16", "float32", "float64"):
        size = convert_to_tensor(image.shape.as_list(), dtype=dtypes.int32)
        grad0 = dispatch.execute(CROP_AND_RESIZE_GRAD_IMAGE, (g, boxes, box_index, size),
                                 {"method": op.get_attr("method"), "T": image.dtype})
    grad1 = dispatch.execute(CROP_AND_RESIZE_GRAD_BOXES, (g, image, boxes, box_index), {"method": "bilinear"})
    return [grad0, grad1, None, None]


for _name in ("CropAndResizeGradImage", "CropAndResizeGradBoxes"):
    no_tf_gradient(_name)
