"""tf.extract_volume_patches (TF's ExtractVolumePatches op): the [kd, kh, kw] windows of an NDHWC
input (strides, SAME / VALID, zero padding) flattened into the depth axis in (kd, kh, kw, C)
order, [N, OD, OH, OW, kd*kh*kw*C], for every real dtype (bool: InvalidArgumentError).

Observed on TF 2.21: ksizes and strides are lists of at least 5 with 1 in the batch and depth
places (else UnimplementedError "Only support ksizes across space."), the input 5-D. The gradient
(array_grad.py's _ExtractVolumePatchesGrad) adds each patch element back where it was read from:
simdist writes it as Conv3DBackpropInputV2 with an identity filter (the patches are Conv3D with
that filter), the same values up to the order of the additions.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from simdist.runtime import errors
from simdist.runtime.ops import args, attr_rules, dispatch, trace_errors
from simdist.runtime.ops.args import t as _t
from simdist.runtime.ops.image_patches import across_space
from simdist.runtime.ops.conv3d import CONV3D_BACKPROP_INPUT, geometry3d, pad3d, windows3d
from simdist.runtime.ops.nn_rules import REAL_NUMBERS, typed
from simdist.runtime.ops.registry import RegisterGradient, register, rows
from simdist.runtime.tensor import Tensor

__all__ = ["extract_volume_patches"]


def _patches(x: np.ndarray, ksizes: tuple, strides: tuple, padding: str) -> np.ndarray:
    across_space("ExtractVolumePatches", ksizes=ksizes, strides=strides)   # (the kernel's constructor)
    if x.ndim != 5:
        raise errors.InvalidArgumentError(None, None, "input must be 5-dimensional["
                                          + ",".join(str(d) for d in x.shape) + "] [Op:ExtractVolumePatches]")
    k = ksizes[1:4]
    out, pads = geometry3d(x.shape[1:4], k, strides[1:4], (1, 1, 1), padding, "ExtractVolumePatches")
    win = windows3d(pad3d(x, pads), k, out, strides[1:4], (1, 1, 1))
    return np.ascontiguousarray(win).reshape(x.shape[0], out[0], out[1], out[2], k[0] * k[1] * k[2] * x.shape[4])


EXTRACT_VOLUME_PATCHES = register("ExtractVolumePatches", _patches, typed("ExtractVolumePatches", REAL_NUMBERS),
                                  lambda a, out, at: 0.0, kind="shape", fusion=rows(0))


@RegisterGradient("ExtractVolumePatches")
def _extract_volume_patches_grad(op: Any, grad: Any) -> list:
    from simdist.runtime.ops.array import constant
    x = op.inputs[0]
    k = op.attrs["ksizes"]
    c = x.shape.as_list()[4]
    depth = k[1] * k[2] * k[3] * c
    eye = constant(np.eye(depth, dtype=x.dtype.np).reshape(k[1], k[2], k[3], c, depth), dtype=x.dtype)
    attrs = {"strides": tuple(op.attrs["strides"]), "padding": op.attrs["padding"], "explicit_paddings": (),
             "dilations": (1, 1, 1, 1, 1), "input_sizes": tuple(x.shape.as_list())}
    return [dispatch.execute(CONV3D_BACKPROP_INPUT, (eye, grad), attrs)]


def _list5(value: Any, name: str) -> tuple[int, ...]:
    value = args.list_attr(value, name, "extract_volume_patches")
    if len(value) < 5:
        raise trace_errors.list_minimum("ExtractVolumePatches", name, len(value), 5)
    return tuple(int(v) for v in value)


def extract_volume_patches(input: Any, ksizes: Any, strides: Any, padding: Any,  # noqa: A002
                           name: str | None = None) -> Tensor:
    """`tf.extract_volume_patches`: the input's [kd, kh, kw] patches flattened into the depth."""
    # (the wrapper's make_* before the input's conversion: ops.attr-types; fz14 seed 1420261202 #951)
    attr_rules.check("ExtractVolumePatches", (input,), ksizes=ksizes, strides=strides, padding=padding)
    x = _t(input)
    ks_list = args.list_attr(ksizes, "ksizes", "extract_volume_patches")   # (the wrapper's list checks)
    st_list = args.list_attr(strides, "strides", "extract_volume_patches")
    # (the OpDef's T before its list lengths and padding, eagerly and traced: op_def_library checks the
    # inputs' types before the attrs; fz35b, fourteenth generator seed 1420353001 #54)
    EXTRACT_VOLUME_PATCHES.dtype((x.dtype,), None)
    ks, st = _list5(ks_list, "ksizes"), _list5(st_list, "strides")
    trace_errors.check_string("ExtractVolumePatches", "padding", padding, ("SAME", "VALID"))
    return dispatch.execute(EXTRACT_VOLUME_PATCHES, (x,), {"ksizes": ks, "strides": st, "padding": padding})
