"""`tf.image.extract_patches` (TF's ExtractImagePatches op): the [kh, kw] windows of an NHWC image
(strides, rates, SAME / VALID zero padding) flattened into the depth axis in (kh, kw, C) order,
[N, OH, OW, kh·kw·C], for every real and complex dtype (bool: NotFoundError, no CPU kernel). Clause ops.image.

Observed on TF 2.21: ksizes/strides/rates are lists of at least 4; a size or stride other than
1 in the batch or depth place is UnimplementedError ("Only support ksizes across space."); the
input must be 4-D. The gradient is TF's _ExtractImagePatchesGrad (array_grad.py) with the same
ops: the patches of a 1-based index image give each patch element's input position, and an
UnsortedSegmentSum adds the upstream gradient back there (padding: index 0, dropped).
FLOPs: 0 (a copy).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from simdist.runtime import dtypes, errors
from simdist.runtime.ops import args, attr_rules, dispatch, trace_errors
from simdist.runtime.ops.args import t as _t
from simdist.runtime.ops.conv import window_geometry, windows
from simdist.runtime.ops.nn_rules import REAL_NUMBERS, typed
from simdist.runtime.ops.registry import RegisterGradient, register, rows
from simdist.runtime.tensor import Tensor

__all__ = ["extract_patches"]


def across_space(op: str, **lists: tuple) -> None:
    """The kernel constructor's ParseAttributeVec4/5 (extract_image_patches_op.cc,
    extract_volume_patches_op.cc), each list in turn: 1 in the batch and depth places
    (UnimplementedError), every spatial entry >= 1 (OutOfRangeError). A raw call reaches it before
    the input's rank (fuzz20 seed 2420261202 #43, #63; TF 2.21's texts)."""
    for name, vals in lists.items():
        if vals[0] != 1 or vals[-1] != 1:
            raise errors.UnimplementedError(None, None, f"Only support {name} across space. [Op:{op}]")
        if any(v < 1 for v in vals[1:-1]):
            raise errors.OutOfRangeError(None, None, f"{name} is out of range. [Op:{op}]")


def _patches(x: np.ndarray, ksizes: tuple, strides: tuple, rates: tuple, padding: str) -> np.ndarray:
    across_space("ExtractImagePatches", ksizes=ksizes, strides=strides, rates=rates)
    if x.ndim != 4:
        raise errors.InvalidArgumentError(None, None, "input must be 4-dimensional["
                                          + ",".join(str(d) for d in x.shape) + "] [Op:ExtractImagePatches]")
    (oh, ow), (pt, pb, pl, pr) = window_geometry(x.shape[1:3], ksizes[1:3], strides[1:3], rates[1:3], padding, (),
                                                 "ExtractImagePatches")
    xp = np.pad(x, ((0, 0), (pt, pb), (pl, pr), (0, 0)))
    win = windows(xp, ksizes[1:3], (oh, ow), strides[1:3], rates[1:3])
    return np.ascontiguousarray(win).reshape(x.shape[0], oh, ow, ksizes[1] * ksizes[2] * x.shape[3])


# (the OpDef's T but bool, which has no CPU kernel: complex64 and complex128 have, fz37a, tape seed 3720261209 #41)
_PATCH_TYPES = REAL_NUMBERS + ", complex64, complex128"
EXTRACT_IMAGE_PATCHES = register("ExtractImagePatches", _patches, typed("ExtractImagePatches", _PATCH_TYPES),
                                 lambda a, out, at: 0.0, kind="shape", fusion=rows(0))


@RegisterGradient("ExtractImagePatches")
def _extract_image_patches_grad(op: Any, grad: Any) -> list:
    from simdist.runtime import ops
    n, h, w, c = op.inputs[0].shape.as_list()
    _, oh, ow, _ = op.outputs[0].shape.as_list()
    ks = op.get_attr("ksizes")
    idx = ops.reshape(ops.range_(1, h * w + 1, dtype=dtypes.float32), (1, h, w, 1))
    idx_patched = dispatch.execute(EXTRACT_IMAGE_PATCHES, (idx,), {
        "ksizes": ks, "strides": op.get_attr("strides"), "rates": op.get_attr("rates"),
        "padding": op.get_attr("padding")})
    idx_patched = ops.cast(idx_patched, dtypes.int64)
    g = ops.transpose(ops.reshape(ops.convert_to_tensor(grad), (n, oh, ow, ks[1], ks[2], c)), (1, 2, 3, 4, 0, 5))
    g = ops.reshape(g, (-1, n * c))
    seg = ops.subtract(ops.reshape(idx_patched, [-1]), 1)
    out = ops.unsorted_segment_sum(g, seg, num_segments=h * w)
    return [ops.transpose(ops.reshape(out, (h, w, n, c)), (2, 0, 1, 3))]


def _list4(value: Any, name: str) -> tuple[int, ...]:
    value = args.list_attr(value, name, "extract_image_patches")
    if len(value) < 4:
        raise trace_errors.list_minimum("ExtractImagePatches", name, len(value), 4)
    return tuple(int(v) for v in value)


def extract_patches(images: Any, sizes: Any, strides: Any, rates: Any, padding: Any,
                    name: str | None = None) -> Tensor:
    """`tf.image.extract_patches`: the image's [kh, kw] patches (dilated by rates) in the depth."""
    # (the wrapper's make_* before the input's conversion: ops.attr-types)
    attr_rules.check("ExtractImagePatches", (images,), ksizes=sizes, strides=strides, rates=rates, padding=padding)
    x = _t(images)
    ks, st, rt = _list4(sizes, "ksizes"), _list4(strides, "strides"), _list4(rates, "rates")
    trace_errors.check_string("ExtractImagePatches", "padding", padding, ("SAME", "VALID"))
    if x.dtype == dtypes.bool_:
        raise errors.NotFoundError(None, None, "Could not find device for node: {{node ExtractImagePatches}} = "
                                   "ExtractImagePatches[T=DT_BOOL] [Op:ExtractImagePatches]")
    EXTRACT_IMAGE_PATCHES.dtype((x.dtype,), None)
    return dispatch.execute(EXTRACT_IMAGE_PATCHES, (x,), {"ksizes": ks, "strides": st, "rates": rt,
                                                          "padding": padding})
