"""Rules behind the classes of issue 29's campaigns that fz37b ran (fresh seeds 1420373001..3 of the
fourteenth generator, 3701 and 3702 of the fourth, 3705 of the second, 3703 of the third), each
against real TensorFlow 2.21: the same call on both backends gives the same dtype and values (bit for
bit), or raises the same exception class. Eagerly, in a tf.function (`traced`, a one-expression
body) and through an input_signature (`sig`). Needs the `tf` extra.

The pooling cases use float64 and float16 where TF's own kernels run on every x86 host, and float32
where oneDNN runs it: the reference host and this session's Intel host (ops.host-cpu); on a host
without oneDNN a float32 AvgPool takes the float64 row's order.
"""

from __future__ import annotations

from typing import Any, Callable

import numpy as np
import pytest

import edge_compare
from edge_programs import eager as _eager, sig as _sig, traced as _traced
import tf_workers

pytestmark = [pytest.mark.tf, tf_workers.tf_or_golden(__file__)]
clause = pytest.mark.clause

_AE = "ops.argument-errors"
_T = "function.trace-time-errors"
_S = "function.symbolic-tensors"


def _both(expr: str) -> list[tuple[str, Callable[[Any], Any]]]:
    """(suffix, program) eagerly and traced."""
    return [("", _eager(expr)), (" traced", _traced(expr))]


def _pool(op: str, dtype: str, rank: int, ksize: list, strides: Any = 1) -> str:
    shape = [1, 3, 3, 2] if rank == 4 else [1, 3, 3, 3, 2] if rank == 5 else [3, 3, 2]
    return f"tf.nn.{op}(tf.zeros({shape}, tf.{dtype}), ksize={ksize}, strides={strides}, padding='SAME')"


CASES: list[tuple[str, str, Callable[[Any], Any]]] = [
    # -- a window entry below 1 (fourteenth generator seed 1420373001 #4: max_pool of ksize [0, 3, 1, 2], strides
    # [3], InvalidArgumentError where simdist raised the batch's UnimplementedError): MaxPoolingOp and oneDNN's
    # pools refuse it in their constructor before the batch, TF's own AvgPoolingOp after it, Pooling3DOp as
    # "non-negative dimensions" where the batch or depth refusal would come
    ("max_pool of seed 1420373001 #4 traced", _AE, _traced(
        "tf.math.erfinv(tf.nn.max_pool(tf.zeros([0, 3, 1, 2], tf.float64), ksize=np.array([0, 3, 1, 2], np.int64), "
        "strides=np.array([3], np.int64), padding='SAME'))")),
    *[(f"{op} {dt} rank {r} ksize {k} strides {s}{sfx}", _AE, run)
      for op, dt, r, k, s in (
          ("max_pool2d", "float64", 4, [2, 0, 1, 1], 1), ("max_pool2d", "float64", 4, [1, 0, 1, 1], [2, 1, 1, 1]),
          ("max_pool2d", "float16", 4, [0, 1, 1, 1], 1), ("max_pool2d", "float32", 4, [2, 1, 1, 0], 1),
          ("max_pool2d", "float64", 3, [2, 0, 1, 1], 1), ("max_pool2d", "float64", 4, [2, 1, 1, 1], [1, 0, 1, 1]),
          ("max_pool2d", "float64", 4, [1, 0, 1, 2], 1),
          ("avg_pool2d", "float32", 4, [2, 0, 1, 1], 1), ("avg_pool2d", "float32", 3, [1, 0, 1, 1], [2, 1, 1, 1]),
          ("avg_pool2d", "float64", 4, [2, 0, 1, 1], 1), ("avg_pool2d", "float64", 4, [1, 0, 1, 1], 1),
          ("avg_pool2d", "float64", 3, [1, 0, 1, 1], 1), ("avg_pool2d", "float16", 4, [1, 1, 1, 0], [1, 1, 1, 2]),
          ("max_pool3d", "float32", 5, [2, 0, 1, 1, 1], 1), ("max_pool3d", "float32", 5, [1, 0, 1, 1, 1], 1),
          ("max_pool3d", "float32", 5, [1, 1, 1, 1, 0], 1), ("max_pool3d", "float32", 5, [1, 0, 1, 1, 1], [2, 1, 1, 1, 1]),
          ("max_pool3d", "float32", 5, [2, 1, 1, 1, 1], 1),
          ("avg_pool3d", "float32", 5, [2, 0, 1, 1, 1], 1), ("avg_pool3d", "float32", 5, [1, 1, 1, 1, 0], 1))
      for sfx, run in _both(_pool(op, dt, r, k, s))],
]

_IGC = "tf.math.igammac(a=np.array([np.nan, -1.5, 1.0, 3e38], np.float16), x=np.array({x}, np.float32))"
CASES += [
    # -- a graph checks an op's dtype and shapes when it builds the node and looks its kernel up when it runs:
    # LRN of float64 is op_def_library's TypeError before the rank (seed 1420373001 #130); Igammac of half (no CPU
    # kernel) meets its broadcast shape function at trace first (seed 1420373001 #247)
    ("sig [3] float64: lrn of seed 1420373001 #130", _T, _sig("tf.nn.lrn(x)", ([3], "float64"),
                                                              "tf.constant([-0.0, 0.25, 2.5], tf.float64)")),
    ("sig [3] bfloat16: lrn", _T, _sig("tf.nn.lrn(x)", ([3], "bfloat16"), "tf.constant([0.0, 0.25, 2.5], tf.bfloat16)")),
    *[(f"igammac(half [4], float32 {x}){sfx}", _T, run) for x in ("[]", "[1.0, 2.0, 3.0]", "[1.0, 2.0, 3.0, 4.0]")
      for sfx, run in (*_both(_IGC.format(x=x)), (" sig", _sig(_IGC.format(x=x), ([], "float32"), "1.0")))],
    ("sig [None]: igammac(x, x + 1) of half", _T, _sig("tf.math.igammac(x, tf.zeros([2], tf.float16))",
                                                       ([None], "float16"), "tf.ones([3], tf.float16)")),
]

_Z3 = "tf.constant(np.zeros((3, 0), np.int32))"
CASES += [
    # -- a symbolic tensor's rank: -1 where the graph does not know it (fourth generator seed 3702 #174)
    ("sig None: x.ndim of seed 3702 #174", _S, _sig("x.ndim", (None, "float32"), "tf.constant([0.5, -2.0, -7.25])")),
    ("sig [None]: x.ndim", _S, _sig("x.ndim", ([None], "float32"), "tf.constant([0.5, -2.0])")),
    ("sig None: (x.ndim, x.shape.rank)", _S, _sig("(x.ndim, x.shape.rank)", (None, "int32"), "tf.constant([[1]])")),
    # -- eagerly _autopacking_helper packs a nested list whose elements are all tensors as it is, an empty one too:
    # Pack of N=0 (third generator seed 3703 #291); a graph's helper returns the empty list
    *[(f"stack({e}){sfx}", "ops.conversion", run) for e in (
        "[tf.constant(np.zeros((3, 0, 3), np.int32)), [[], [], []]]", f"[{_Z3}, []]", f"[[], {_Z3}]",
        "[tf.zeros([1], tf.int32), [[]], [1]]", "[tf.zeros([3]), [1.0, 2.0, 3.0], []]", "[tf.zeros([2]), [[]]]",
        f"[{_Z3}, [[], [], []]], axis=1", f"[{_Z3}, [[1], [2], [3]]]", "[[[], [], []], [[], [], []]]")
      for sfx, run in _both(f"tf.stack({e})")],
    ("tf.constant([tensor, []])", "ops.conversion", _eager("tf.constant([tf.zeros([0]), []])")),
]
