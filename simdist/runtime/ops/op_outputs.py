"""Results of ops with several outputs (clause `ops.output-namedtuples`): TF 2.21's generated
wrappers return them as a namedtuple named after the op, with the op's output names as fields
(gen_*_ops.py: `_UniqueOutput = collections.namedtuple("Unique", ["y", "idx"])`), and the public
functions that return the wrapper's result as it is (tf.unique, tf.linalg.slogdet, tf.linalg.qr,
tf.nn.max_pool_with_argmax, the candidate samplers, ...) hand that namedtuple to the user: it
has attributes (`tf.unique(x).y`) and its type's name shows in repr and in tf.nest structures.
Functions that build their own tuple (tf.linalg.svd, eigh, tf.nn.moments) return plain tuples."""

from __future__ import annotations

import collections
from typing import Any

_CLASSES: dict[tuple[str, tuple[str, ...]], type] = {}

# TF's output names per op (gen_*_ops.py of TF 2.21)
FIELDS: dict[str, tuple[str, ...]] = {
    "Unique": ("y", "idx"),
    "UniqueWithCounts": ("y", "idx", "count"),
    "LogMatrixDeterminant": ("sign", "log_abs_determinant"),
    "IsotonicRegression": ("output", "segments"),
    "Qr": ("q", "r"),
    "Lu": ("lu", "p"),
    "MaxPoolWithArgmax": ("output", "argmax"),
    "FractionalMaxPool": ("output", "row_pooling_sequence", "col_pooling_sequence"),
    "FractionalAvgPool": ("output", "row_pooling_sequence", "col_pooling_sequence"),
    "ApproxTopK": ("values", "indices"),
    "CombinedNonMaxSuppression": ("nmsed_boxes", "nmsed_scores", "nmsed_classes", "valid_detections"),
    "SampleDistortedBoundingBoxV2": ("begin", "size", "bboxes"),
    "StatelessSampleDistortedBoundingBox": ("begin", "size", "bboxes"),
    "UniformCandidateSampler": ("sampled_candidates", "true_expected_count", "sampled_expected_count"),
    "LogUniformCandidateSampler": ("sampled_candidates", "true_expected_count", "sampled_expected_count"),
    "FixedUnigramCandidateSampler": ("sampled_candidates", "true_expected_count", "sampled_expected_count"),
    "LearnedUnigramCandidateSampler": ("sampled_candidates", "true_expected_count", "sampled_expected_count"),
    "AllCandidateSampler": ("sampled_candidates", "true_expected_count", "sampled_expected_count"),
    "ComputeAccidentalHits": ("indices", "ids", "weights"),
}


def named_outputs(op: str, values: Any) -> Any:
    """`values` (one per output of op `op`) as TF's namedtuple for that op. The class is made once
    per op and kept in this module's namespace under the op's name, so results pickle."""
    fields = FIELDS[op]
    cls = _CLASSES.get((op, fields))
    if cls is None:
        cls = collections.namedtuple(op, fields)   # type: ignore[misc]
        cls.__module__ = __name__
        globals()[op] = cls
        _CLASSES[(op, fields)] = cls
    vals = tuple(values)
    if len(vals) != len(fields):
        raise ValueError(f"{op} has {len(fields)} outputs {fields}, got {len(vals)} values")
    return cls(*vals)
