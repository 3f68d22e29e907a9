"""TF 2.21's CPU kernels' rank templates: the shape ops whose kernels switch on a rank with cases up to a limit
(Eigen's tensor maps are templated on it) refuse a rank past it, after their early returns (clause
ops.shape-errors; gsweep63's g-shape-ops-r5..r10 programs, /work/wt/gsweep63_logs/probe4.py, probe5.py):

- Pad/PadV2 (pad_op.cc): rank > 8 UnimplementedError "inputs rank not in [0,8]: N" first; an output of as many
  elements as the input is the input; adjacent unpadded dimensions collapsed into one (only where two or more are
  adjacent), then a rank > 6 is InvalidArgumentError "Only ranks up to 6 supported: <shape>" (the collapsed shape);
- MirrorPad (mirror_pad_op.cc): rank > 5 UnimplementedError "inputs rank not in [0,5]: N" first, empty too;
- ReverseV2: a non-empty tensor of rank > 8 UnimplementedError "reverse is not implemented for tensors of rank > 8.";
- Slice/StridedSlice: rank > 8 UnimplementedError ("SliceOp : Unhandled input dimensions" / "Unhandled input
  dimensions N") unless the slice is the identity, takes a unit-stride range of dimension 0 only and the rest whole
  with the inner dimensions' bytes a multiple of 64 (IsDim0SliceAligned, EIGEN_MAX_ALIGN_BYTES 64), or is empty;
- BroadcastTo (broadcast_to_op.h): a non-empty result whose broadcast, its dimensions grouped (BCast's fewer-dims
  optimization), has more than 5 groups: UnimplementedError "Broadcast between <in> and <out> is not supported
  yet."."""

from __future__ import annotations

from typing import Sequence

import numpy as np

from simdist.runtime import errors

_ALIGN = 64   # EIGEN_MAX_ALIGN_BYTES of TF 2.21's CPU build (observed: 16 float32s or 8 float64s of inner bytes)


def _dims(s: Sequence[int]) -> str:
    return "[" + ",".join(str(int(d)) for d in s) + "]"


def pad(shape: tuple[int, ...], paddings: Sequence[tuple[int, int]]) -> None:
    """Pad's/PadV2's rank checks (its paddings' own checks come from the caller)."""
    if len(shape) > 8:
        raise errors.UnimplementedError(None, None, f"inputs rank not in [0,8]: {len(shape)} [Op:Pad]")
    out = [d + lo + hi for d, (lo, hi) in zip(shape, paddings)]
    if int(np.prod(out, dtype=np.int64)) == int(np.prod(shape, dtype=np.int64)):
        return   # (forwarded)
    collapsed: list[int] = []
    merged, i = False, 0
    while i < len(shape):
        if paddings[i] != (0, 0):
            collapsed.append(shape[i])
            i += 1
            continue
        size = shape[i]
        i += 1
        while i < len(shape) and paddings[i] == (0, 0):
            merged = True
            size *= shape[i]
            i += 1
        collapsed.append(size)
    fixed = collapsed if merged and len(shape) > 1 else list(shape)
    if len(fixed) > 6:
        raise errors.InvalidArgumentError(None, None, f"Only ranks up to 6 supported: {_dims(fixed)} [Op:Pad]")


def mirror_pad(shape: tuple[int, ...]) -> None:
    if len(shape) > 5:
        raise errors.UnimplementedError(None, None, f"inputs rank not in [0,5]: {len(shape)} [Op:MirrorPad]")


def reverse(shape: tuple[int, ...]) -> None:
    if len(shape) > 8 and 0 not in shape:
        raise errors.UnimplementedError(None, None, "reverse is not implemented for tensors of rank > 8. "
                                                    "[Op:ReverseV2]")


def _aligned(shape: tuple[int, ...], itemsize: int) -> bool:
    """IsInnerDimsSizeAligned: the bytes of one dimension-0 entry a multiple of the alignment."""
    if not shape or shape[0] == 0:
        return False
    return (int(np.prod(shape[1:], dtype=np.int64)) * itemsize) % _ALIGN == 0


def sliced(shape: tuple[int, ...], itemsize: int, ranges: Sequence[tuple[int, int, int]], op: str) -> None:
    """Slice's/StridedSlice's rank check; `ranges` one (start, stop, step) per input dimension, normalized."""
    if len(shape) <= 8:
        return
    take_all = [r == (0, d, 1) for r, d in zip(ranges, shape)]
    if all(take_all):
        return
    if ranges[0][2] == 1 and all(take_all[1:]) and _aligned(shape, itemsize):
        return
    if any(len(range(*r)) == 0 for r in ranges):
        return
    text = "SliceOp : Unhandled input dimensions" if op == "Slice" else f"Unhandled input dimensions {len(shape)}"
    raise errors.UnimplementedError(None, None, f"{text} [Op:{op}]")


def strided_ranges(shape: tuple[int, ...], key: tuple) -> list[tuple[int, int, int]] | None:
    """The (start, stop, step) StridedSlice takes of each input dimension under simdist's key (None where the key
    does not resolve: the kernel's own index errors come first)."""
    out: list[tuple[int, int, int]] = []
    dim = 0
    for j, k in enumerate(key):
        if k[0] == "n":
            continue
        if k[0] == "e":
            n = len(shape) - dim - sum(1 for x in key[j + 1:] if x[0] in "is")
            for _ in range(max(n, 0)):
                out.append((0, shape[dim], 1))
                dim += 1
            continue
        if dim >= len(shape):
            return None
        d = shape[dim]
        if k[0] == "i":
            i = k[1] + d if k[1] < 0 else k[1]
            if not 0 <= i < d:
                return None
            out.append((i, i + 1, 1))
        else:
            out.append(slice(k[1], k[2], k[3]).indices(d))
        dim += 1
    out += [(0, shape[d], 1) for d in range(dim, len(shape))]
    return out


def broadcast_to(in_shape: tuple[int, ...], out_shape: tuple[int, ...]) -> None:
    from simdist.runtime.ops.dispatch import bcast_groups
    if tuple(in_shape) == tuple(out_shape) or 0 in out_shape:
        return
    if bcast_groups(in_shape, out_shape) > 5:
        raise errors.UnimplementedError(None, None, f"Broadcast between {_dims(in_shape)} and {_dims(out_shape)} is "
                                                    "not supported yet. [Op:BroadcastTo]")
