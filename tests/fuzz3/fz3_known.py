"""Disagreement classes of the third fuzzer still open, keyed by (callable, kind) as
fz3_campaign.py counts them, or by kind alone for a class of every callable: such a
disagreement is counted by the profiles, not failed. Each entry says what TF does and what
simdist does."""

from __future__ import annotations

KNOWN_OPEN: dict[object, str] = {
    ("math.bincount", "accepts"): "inside a tf.function, bincount with a negative maxlength (or minlength) of a CONSTANT "
                                  "arr is DenseBincount's shape-function ValueError at trace time (TF evaluates constant "
                                  "inputs), of a graph input the kernel's InvalidArgumentError; simdist does not track "
                                  "which traced tensors are constants and gives the kernel's error",
    ("math.confusion_matrix", "trace-time"): "inside a tf.function, confusion_matrix's check_ops asserts on CONSTANT "
                                             "labels/predictions fail while TF builds the graph (InvalidArgumentError "
                                             "from get_concrete_function); simdist does not track which traced tensors "
                                             "are constants and leaves them to the run",
}
