"""`tf.image.generate_bounding_box_proposals` (TF 2.21's GenerateBoundingBoxProposals op): TF 2.21
registers its kernel for GPUs only (generate_box_proposals_op.cu.cc), so on the CPU every call is
an error. Python values are converted to the inputs' dtypes (float32; pre_nms_topn int32: a float
there is TypeError); post_nms_topn is an int attr (a float is taken eagerly, a string is
TypeError). Eagerly the call is then NotFoundError, whatever the tensors' dtypes ("Could not find
device for node ... <no registered kernels>"); inside a tf.function the shape function first
raises ValueError for scores or bbox_deltas not of rank 4, image_info not [N, 5], anchors not of
rank 3 and the three scalars not scalars, and a tensor of another dtype is TypeError (TF:
AssertionError "Unreachable" for one captured from eager code, which simdist does not tell
apart); the run is InvalidArgumentError. Not differentiable (TF declares it so). FLOPs: 0. Clause
ops.image-box-proposals.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from simdist.runtime import dtypes, errors
from simdist.runtime.ops import dispatch, trace_errors
from simdist.runtime.ops.args import zero_flops
from simdist.runtime.ops.raw_args import RawArgs
from simdist.runtime.ops.registry import NotDifferentiable, lanes, register, set_raw_args
from simdist.runtime.tensor import Tensor, convert_to_tensor

__all__ = ["generate_bounding_box_proposals"]

_OP = "GenerateBoundingBoxProposals"


def _no_kernel(attrs: dict) -> errors.NotFoundError:
    return errors.NotFoundError(None, None, f"Could not find device for node: {{{{node {_OP}}}}} = "
                                f"{_OP}[post_nms_topn={attrs['post_nms_topn']}]\nAll kernels registered for op "
                                f"{_OP}:\n  <no registered kernels>\n [Op:{_OP}]")


def _rule(dts: Any, attrs: Any) -> Any:
    raise _no_kernel(attrs)


def _never(*arrays: Any, **attrs: Any) -> Any:
    raise AssertionError("simdist: a kernel-less op's dtype rule raises before its forward")


PROPOSALS = register(_OP, _never, _rule, zero_flops, num_outputs=2, kind="nn",
                     fusion=lanes("no CPU kernel: the op always raises"))
NotDifferentiable(_OP)

# (input, rank) the shape function checks, in its order; image_info's second dimension must be 5
_RANKS = (("scores", 4), ("bbox_deltas", 4), ("image_info", 2), ("anchors", 3), ("nms_threshold", 0),
          ("pre_nms_topn", 0), ("min_size", 0))


def _static_checks(ts: dict, attrs: dict) -> None:
    """The shape function's ValueErrors, marked on the eager NotFoundError (raised while tracing)."""
    for key, rank in _RANKS:
        t = ts[key]
        if t.ndim != rank:
            raise trace_errors.static(_no_kernel(attrs), ValueError, f"Shape must be rank {rank} but is rank "
                                                                     f"{t.ndim}")
        if key == "image_info" and t.shape.as_list()[1] != 5:
            raise trace_errors.static(_no_kernel(attrs), ValueError, f"Dimension must be 5 but is "
                                                                     f"{t.shape.as_list()[1]}")


def _operand(value: Any, key: str, dt: dtypes.DType, attrs: dict) -> Tensor:
    """A Python value converted to the input's dtype; a tensor as it is (eagerly TF looks the kernel
    up first: NotFoundError whatever its dtype; while tracing another dtype is op_def_library's
    TypeError: see trace_errors.fixed_input)."""
    if not isinstance(value, Tensor) and getattr(value, "_as_tensor", None) is not None:
        value = convert_to_tensor(value)   # (the fast path reads a variable as it is: fz14 seed 1420262201 #201)
    if not isinstance(value, Tensor):
        return convert_to_tensor(value, dtype=dt)
    if value.dtype != dt:
        raise trace_errors.static(_no_kernel(attrs), TypeError, f"Input '{key}' of '{_OP}' Op has type "
                                                                f"{value.dtype.name} that does not match expected "
                                                                f"type of {dt.name}.")
    return value


def generate_bounding_box_proposals(scores: Any, bbox_deltas: Any, image_info: Any, anchors: Any,
                                    nms_threshold: Any = 0.7, pre_nms_topn: Any = 6000, min_size: Any = 16,
                                    post_nms_topn: Any = 300, name: str | None = None) -> tuple[Tensor, Tensor]:
    """`tf.image.generate_bounding_box_proposals`: no CPU kernel in TF 2.21 (see the module)."""
    if isinstance(post_nms_topn, bool) or not isinstance(post_nms_topn, (int, float)):
        raise TypeError(f"Expected int for argument 'post_nms_topn' not {post_nms_topn!r}.")
    attrs = {"post_nms_topn": int(post_nms_topn)}
    values = {"scores": scores, "bbox_deltas": bbox_deltas, "image_info": image_info, "anchors": anchors,
              "nms_threshold": nms_threshold, "pre_nms_topn": pre_nms_topn, "min_size": min_size}
    from simdist.runtime import context
    from simdist.runtime.ops import attr_rules
    if not context.in_function() and not attr_rules.fast_path_takes(_OP, tuple(values.values())):
        # (an input that is no fast-path value, a list, sends the call to the eager fallback, which
        # converts every input with its op-def dtype in order: a tensor of another dtype is
        # ValueError before any kernel lookup; fz14 seed 1420261217 #59)
        for k, v in values.items():
            want = dtypes.int32 if k == "pre_nms_topn" else dtypes.float32
            if isinstance(v, Tensor) and v.dtype != want:
                raise ValueError(f"Tensor conversion requested dtype {want.name} for Tensor with dtype "
                                 f"{v.dtype.name}: {v!r}")
            if not isinstance(v, Tensor):
                convert_to_tensor(v, dtype=want)
    ts = {k: _operand(v, k, dtypes.int32 if k == "pre_nms_topn" else dtypes.float32, attrs)
          for k, v in values.items()}
    _static_checks(ts, attrs)
    return dispatch.execute(PROPOSALS, tuple(ts.values()), attrs)


def _raw(scores: Any, bbox_deltas: Any, image_info: Any, anchors: Any, nms_threshold: Any, pre_nms_topn: Any,
         min_size: Any, post_nms_topn: int) -> tuple[Tensor, Tensor]:
    """tf.raw_ops.GenerateBoundingBoxProposals: the public function on the raw arguments (its
    shape function's checks in a tf.function, else the missing kernel's NotFoundError)."""
    return generate_bounding_box_proposals(scores, bbox_deltas, image_info, anchors, nms_threshold, pre_nms_topn,
                                           min_size, post_nms_topn)


set_raw_args(_OP, RawArgs(via=_raw))
