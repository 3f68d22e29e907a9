"""Disagreement classes of the third fuzzer still open, keyed by (callable, kind) as
fz3_campaign.py counts them, or by kind alone for a class of every callable: such a
disagreement is counted by the profiles, not failed. Each entry says what TF does and what
simdist does."""

from __future__ import annotations

KNOWN_OPEN: dict[object, str] = {
    "trace-time": "tf.function(input_signature=...).get_concrete_function() traces in TF (a dtype or shape error "
                  "raises there); simdist records a function on its first call with real tensors, so the error "
                  "comes with the call (same class) and get_concrete_function never raises",
    ("math.bincount", "accepts"): "inside a tf.function, bincount with a negative maxlength (or minlength) of a CONSTANT "
                                  "arr is DenseBincount's shape-function ValueError at trace time (TF evaluates constant "
                                  "inputs), of a graph input the kernel's InvalidArgumentError; simdist does not track "
                                  "which traced tensors are constants and gives the kernel's error",
}
