"""tf.nn.compute_accidental_hits (TF's ComputeAccidentalHits op): which sampled candidates are
among a row's true classes, for sampled-softmax losses to mask.

Observed on TF 2.21 (candidate_sampler_ops.cc): the kernel maps each sampled value to its position
(a value sampled twice keeps its last position), then, row by row and true class by true class,
emits (row, that position) for each true class found (a class repeated in a row is emitted
twice); weights are -FLT_MAX. Both inputs must be int64 (InvalidArgumentError otherwise),
true_classes [batch, num_true], sampled_candidates a vector. Not differentiable.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from simdist.runtime import context, dtypes, errors
from simdist.runtime.ops import attr_rules, dispatch, static_shapes, trace_errors
from simdist.runtime.ops.args import dtype_error, t as _t
from simdist.runtime.ops.op_outputs import named_outputs
from simdist.runtime.ops.registry import NotDifferentiable, lanes, register
from simdist.runtime.tensor import Tensor, convert_to_tensor

__all__ = ["compute_accidental_hits"]


def _hits(true_classes: np.ndarray, sampled: np.ndarray, num_true: int = 1, seed: int = 0,
          seed2: int = 0) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    if true_classes.ndim != 2 or true_classes.shape[1] != num_true:
        raise errors.InvalidArgumentError(None, None, "true_candidates must be a batch_size * num_true matrix "
                                          "[Op:ComputeAccidentalHits]")
    if sampled.ndim != 1:
        raise errors.InvalidArgumentError(None, None, "sampled_candidates must be a vector, which is typically an "
                                          "output from CandidateSampler [Op:ComputeAccidentalHits]")
    position = {int(v): j for j, v in enumerate(sampled.tolist())}
    rows: list[int] = []
    ids: list[int] = []
    for i, row in enumerate(true_classes.tolist()):
        for c in row:
            j = position.get(int(c))
            if j is not None:
                rows.append(i)
                ids.append(j)
    return (np.asarray(rows, np.int32), np.asarray(ids, np.int64),
            np.full(len(rows), np.finfo(np.float32).min, np.float32))


def _rule(dts: Any, attrs: Any) -> tuple:
    for i, d in enumerate(dts):
        if d != dtypes.int64:
            raise dtype_error("ComputeAccidentalHits", i, dtypes.int64, d)
    return dtypes.int32, dtypes.int64, dtypes.float32


HITS = register("ComputeAccidentalHits", _hits, _rule, lambda a, out, at: float(a[0].size + a[1].size), num_outputs=3,
                kind="gather/scatter", fusion=lanes("its row indices are one lane's batch: no stacked form written"))
NotDifferentiable("ComputeAccidentalHits")


def _shape_fn(tc: Tensor, sc: Tensor, num_true: int) -> None:
    """ComputeAccidentalHits' shape function in a tf.function (ValueError at trace): true_classes
    of rank 2 with num_true columns, sampled_candidates of rank 1."""
    if not context.in_function():
        return
    op = "ComputeAccidentalHits"
    shapes = [static_shapes.known_shape(tc), static_shapes.known_shape(sc)]
    eager = errors.InvalidArgumentError(None, None, f"true_candidates must be a batch_size * num_true matrix [Op:{op}]")
    if shapes[0] is not None and len(shapes[0]) != 2:
        raise trace_errors.mark_shape(eager, f"Shape must be rank 2 but is rank {len(shapes[0])}", op, shapes)
    if shapes[0] is not None and shapes[0][1] is not None and shapes[0][1] != num_true:
        raise trace_errors.mark_shape(eager, f"Dimension must be {num_true} but is {shapes[0][1]}", op, shapes)
    if shapes[1] is not None and len(shapes[1]) != 1:
        raise trace_errors.shape_error("sampled_candidates must be a vector, which is typically an output from "
                                       f"CandidateSampler [Op:{op}]", f"Shape must be rank 1 but is rank "
                                       f"{len(shapes[1])}", op, shapes)


def compute_accidental_hits(true_classes: Any, sampled_candidates: Any, num_true: int, seed: Any = None,
                            name: str | None = None) -> tuple[Tensor, Tensor, Tensor]:
    """`tf.nn.compute_accidental_hits`: (row indices int32, sampled positions int64, weights
    -FLT_MAX float32) of the sampled candidates that are true classes of their row."""
    if seed is None:   # TF's wrapper calls random_seed.get_seed: one op seed of the sequence (random.draw_op_seed)
        from simdist.runtime.ops import random as _random
        _random.draw_op_seed()
    attr_rules.check("ComputeAccidentalHits", num_true=num_true)   # (ops.attr-types: the wrapper's make_int, and
    # its conversion of both inputs with dtype int64: a Python float is TypeError; a tensor of another dtype is the
    # eager fallback's ValueError when the call leaves the fast path, attr_rules.fast_path_takes)
    fallback = not attr_rules.fast_path_takes("ComputeAccidentalHits", (true_classes, sampled_candidates),
                                              num_true=num_true)
    # (attr_rules.fixed_inputs: on the fast path a resource variable is read and the kernel judges its dtype,
    # "cannot compute ComputeAccidentalHits as input #0(zero-based) was expected to be a int64 tensor but is a float
    # tensor" InvalidArgumentError, not the fallback's ValueError, fz14 seed 1420413004 #98; in a graph a variable is
    # read into it, a uint64 one op_def_library's TypeError, fz14 seed 1420261219 #233)
    tc, sc = attr_rules.fixed_inputs("ComputeAccidentalHits", [(true_classes, dtypes.int64, "true_classes"),
                                                               (sampled_candidates, dtypes.int64, "sampled_candidates")],
                                     fast=not fallback)
    HITS.dtype((tc.dtype, sc.dtype), None)
    _shape_fn(tc, sc, int(num_true))
    out = dispatch.execute(HITS, (tc, sc), {"num_true": int(num_true), "seed": 0, "seed2": 0})
    return named_outputs("ComputeAccidentalHits", out[:3])
