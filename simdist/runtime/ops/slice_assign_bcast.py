"""StridedSliceAssignBCast (TF 2.21's strided_slice_op.cc / strided_slice_op.h): how a strided-slice assignment
(TensorStridedSliceUpdate, ResourceStridedSliceAssign, StridedSliceAssign) fits its value to the slice's final
shape. The value's leading dimensions beyond the final shape's rank are dropped if each is 1 (else invalid),
missing ones are taken as 1, then each dimension equals the final one or is 1 (broadcast). So a [1] or [1, 1]
value fills a scalar slice, where NumPy's broadcasting refuses it (observed on TF 2.21; fz39a, eager seed
3920261214 #95)."""

from __future__ import annotations

from typing import Sequence


def fitted_shape(value: Sequence[int], final: Sequence[int]) -> tuple[int, ...] | None:
    """The value's shape with its extra leading ones dropped (to broadcast to `final`), or None where TF's kernel
    says "Cannot broadcast input shape ... into final shape ..."."""
    extra = max(0, len(value) - len(final))
    if any(int(d) != 1 for d in value[:extra]):
        return None
    kept = tuple(int(d) for d in value[extra:])
    padded = (1,) * (len(final) - len(kept)) + kept
    if any(v != f and v != 1 for v, f in zip(padded, (int(d) for d in final))):
        return None
    return kept
