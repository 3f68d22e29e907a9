"""tf.nn.silu of a value whose rank Grappler learns only after constant folding (clause function.onednn-swish, fz59:
fz54b seeds 59102 #5 and 58203 #7, the open silu class of fz54b/fz56/fz58). unsorted_segment_mean and
unsorted_segment_sqrt_n divide by math_ops._unsorted_segment_N's count, a Reshape to a shape that ops compute
(concat of num_segments and ones([rank(data) - rank(segment_ids)])): the traced Python knows the result's shape, but
Grappler's first shape inference does not know its rank, so constant folding's first pass cannot simplify silu's
`beta * x` (ShapesSymbolicallyEqual needs a known rank); the second iteration does, after the remapper has already
passed the Mul(x, Sigmoid(Identity(x))), so TF 2.21 keeps Sigmoid and Mul where an ordinary silu becomes one
_MklSwish (run metadata's optimized graphs, /work/wt/fz59_logs/q_swish3.py). The unknown rank carries through
elementwise ops, reductions, unsorted segment reductions, the UnchangedShape ops (cumsum, softmax, reverse),
StridedSlice, ExpandDims and GatherV2 (`2.0 * mean`, `reduce_sum(mean, 0)`, `cumsum(mean)` stay unfused), not through
MatMul, ConcatV2, Pad, Tile, Transpose, a Reshape to a constant shape, nor to a hand-written `m * sigmoid(m)` (no
`beta * x`): those fuse. Float results compared as bit patterns. Its golden (tests/goldens/) is stamped with this
file."""

from __future__ import annotations

import os
import re
from typing import Any, Callable

import numpy as np
import pytest

import case_results
import tf_workers

pytestmark = [pytest.mark.tf, tf_workers.tf_or_golden(__file__)]

_FORMS: dict[str, Callable[..., Any]] = {
    # (unfused in TF 2.21: the rank is unknown to Grappler's first pass)
    "mean": lambda tf, x, y, ids: tf.nn.silu(tf.math.unsorted_segment_mean(x, ids, 16)),
    "mean_2d": lambda tf, x, y, ids: tf.nn.silu(tf.math.unsorted_segment_mean(y, ids, 16)),
    "sqrt_n": lambda tf, x, y, ids: tf.nn.silu(tf.math.unsorted_segment_sqrt_n(x, ids, 16)),
    "swish_sqrt_n_2d": lambda tf, x, y, ids: tf.nn.swish(tf.math.unsorted_segment_sqrt_n(y, ids, 16)),
    "mean_prod": lambda tf, x, y, ids: tf.nn.silu(
        tf.math.unsorted_segment_prod(tf.math.unsorted_segment_mean(x, ids, 16), ids[:16] % 8, 8)),
    "mean_add": lambda tf, x, y, ids: tf.nn.silu(tf.math.unsorted_segment_mean(x, ids, 16) + x[:16]),
    "mean_sum": lambda tf, x, y, ids: tf.nn.silu(tf.reduce_sum(tf.math.unsorted_segment_mean(y, ids, 16), axis=0)),
    "mean_scaled": lambda tf, x, y, ids: tf.nn.silu(2.5 * tf.math.unsorted_segment_mean(x, ids, 16)),
    "mean_abs": lambda tf, x, y, ids: tf.nn.silu(tf.abs(tf.math.unsorted_segment_mean(x, ids, 16))),
    "mean_cumsum": lambda tf, x, y, ids: tf.nn.silu(tf.math.cumsum(tf.math.unsorted_segment_mean(x, ids, 16))),
    "mean_cumprod_2d": lambda tf, x, y, ids: tf.nn.silu(
        tf.math.cumprod(tf.math.unsorted_segment_mean(y, ids, 16) / 4.0, axis=0)),
    "mean_softmax_2d": lambda tf, x, y, ids: tf.nn.silu(tf.nn.softmax(tf.math.unsorted_segment_mean(y, ids, 16))),
    "mean_reverse": lambda tf, x, y, ids: tf.nn.silu(tf.reverse(tf.math.unsorted_segment_mean(x, ids, 16), [0])),
    "mean_sliced": lambda tf, x, y, ids: tf.nn.silu(tf.math.unsorted_segment_mean(x, ids, 16)[3:]),
    "mean_expanded": lambda tf, x, y, ids: tf.nn.silu(tf.expand_dims(tf.math.unsorted_segment_mean(x, ids, 16), 0)),
    "mean_gathered": lambda tf, x, y, ids: tf.nn.silu(tf.gather(tf.math.unsorted_segment_mean(x, ids, 16), ids)),
    # (fused in TF 2.21)
    "mean_padded": lambda tf, x, y, ids: tf.nn.silu(tf.pad(tf.math.unsorted_segment_mean(x, ids, 16), [[1, 2]])),
    "mean_tiled": lambda tf, x, y, ids: tf.nn.silu(tf.tile(tf.math.unsorted_segment_mean(x, ids, 16), [3])),
    "mean_transposed": lambda tf, x, y, ids: tf.nn.silu(tf.transpose(tf.math.unsorted_segment_mean(y, ids, 16))),
    "mean_matmul": lambda tf, x, y, ids: tf.nn.silu(
        tf.matmul(tf.math.unsorted_segment_mean(y, ids, 16), y[:8], transpose_b=True)),
    "mean_reshaped": lambda tf, x, y, ids: tf.nn.silu(tf.reshape(tf.math.unsorted_segment_mean(y, ids, 16), [48])),
    "mean_concat": lambda tf, x, y, ids: tf.nn.silu(tf.concat([tf.math.unsorted_segment_mean(x, ids, 16), x], 0)),
    "mean_by_hand": lambda tf, x, y, ids: (lambda m: m * tf.sigmoid(m))(tf.math.unsorted_segment_mean(x, ids, 16)),
    "segment_mean": lambda tf, x, y, ids: tf.nn.silu(tf.math.segment_mean(x, tf.sort(ids))),
    "plain": lambda tf, x, y, ids: tf.nn.silu(x * 1.5),
}


def _case(form: str, dtype: str, seed: int) -> Callable[[Any], Any]:
    def run(tf: Any) -> Any:
        r = np.random.RandomState(seed)
        x = tf.cast(tf.constant((r.randint(-3000, 3000, (64,)) / 373.0).astype(np.float32)), dtype)
        y = tf.cast(tf.constant((r.randint(-3000, 3000, (64, 3)) / 211.0).astype(np.float32)), dtype)
        ids = tf.constant(r.randint(0, 16, (64,)).astype(np.int64))
        out = tf.function(lambda x, y, ids: _FORMS[form](tf, x, y, ids))(x, y, ids)
        return np.asarray(tf.cast(out, tf.float32).numpy(), np.float32).view(np.uint32).ravel().tolist()
    return run


def _cases() -> dict[str, Callable[[Any], Any]]:
    return {f"{form}/{dtype}/{seed}": _case(form, dtype, seed)
            for form in _FORMS for dtype in ("float32", "bfloat16") for seed in (1, 2)}


TABLE = case_results.Table(__file__, _cases(), re.compile(r"(fz59_silu_auto_)\d+"))   # (no auto-named objects)


@pytest.fixture(scope="module")
def tf_results() -> dict[int, Any]:
    return TABLE.tf_results()


@pytest.mark.clause("function.onednn-swish")
def test_silu_of_a_rank_grappler_learns_late_stays_unfused_as_tf(tf_results: dict[int, Any]) -> None:
    TABLE.check(tf_results, lambda lab: True)


if __name__ == "__main__":  # TF worker
    tf_workers.serve(TABLE.tf_worker)
    os._exit(0)
