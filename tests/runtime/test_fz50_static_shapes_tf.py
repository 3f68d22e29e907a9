"""Static output shapes inside a tf.function whose input_signature leaves dimensions unknown (clause
function.static-shapes), against real TensorFlow 2.21: the traced function's structured output shape (-1 for an
unknown dimension) is TF's shape functions' (tensorflow/core/ops/*.cc SetShapeFn), by family: UnchangedShape ops,
windowed ops (conv/pool/space_to_depth/extract_patches/dilation2d), bitcast, unsorted segment reductions, matrix
diagonals, qr, the cross-entropies, unstack, unique, searchsorted, boolean_mask, map_fn/scan and rot90 (fz49b's open
list, /work/wt/fz49b_logs/p7.py, 57 of 213 apart before fz50). Needs the `tf` extra.
"""

from __future__ import annotations

from typing import Any, Callable

import sys
from pathlib import Path

import numpy as np
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "ops"))   # (edge_compare lives in tests/ops)
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))           # (tf_workers, under any --import-mode)
import edge_compare  # noqa: E402
import tf_workers  # noqa: E402

pytestmark = [pytest.mark.tf, tf_workers.tf_or_golden(__file__)]
clause = pytest.mark.clause


def _static(expr: str, spec: list[int | None]) -> Callable[[Any], Any]:
    """The static shape (-1 for an unknown dimension) of `lambda x: expr` traced for TensorSpec(spec, float32)."""
    def run(tf: Any) -> Any:
        fn = eval(f"lambda x: {expr}", {"tf": tf, "np": np})  # noqa: S307 - our own text
        f = tf.function(fn, input_signature=[tf.TensorSpec(spec, tf.float32)], autograph=False)
        shape = f.get_concrete_function().structured_outputs.shape.as_list()
        return tf.constant([-1 if d is None else d for d in shape], tf.int32)
    return run


_EXPRS = (
    # UnchangedShape (ReverseSequence with its batch dimension merged with the lengths' size), InvertPermutation, FFT
    "tf.reverse_sequence(x, [1, 1], seq_axis=1, batch_axis=0)", "tf.reverse_sequence(x, [1, 1], seq_axis=0, batch_axis=1)",
    "tf.signal.fft(tf.complex(x, x))", "tf.signal.ifft2d(tf.complex(x, x))",
    # windowed ops
    "tf.nn.max_pool2d(x[None, ..., None], 2, 1, 'SAME')", "tf.nn.avg_pool2d(x[None, ..., None], 2, 2, 'VALID')",
    "tf.nn.conv2d(x[None, ..., None], tf.ones([2, 2, 1, 1]), 1, 'SAME')",
    "tf.nn.conv2d(x[None, ..., None], tf.ones([2, 2, 1, 3]), 2, 'VALID')",
    "tf.nn.depthwise_conv2d(x[None, ..., None], tf.ones([2, 2, 1, 2]), [1, 1, 1, 1], 'SAME')",
    "tf.nn.max_pool3d(x[None, ..., None, None], 1, 1, 'SAME')",
    "tf.nn.conv3d(x[None, ..., None, None], tf.ones([1, 1, 1, 1, 2]), [1, 1, 1, 1, 1], 'SAME')",
    "tf.nn.conv1d(x[..., None], tf.ones([2, 1, 4]), 1, 'SAME')",
    "tf.nn.space_to_depth(x[None, ..., None], 2)", "tf.nn.depth_to_space(tf.tile(x[None, ..., None], [1, 1, 1, 4]), 2)",
    "tf.image.extract_patches(x[None, ..., None], [1, 2, 2, 1], [1, 1, 1, 1], [1, 1, 1, 1], 'VALID')",
    "tf.image.extract_patches(x[None, ..., None], [1, 1, 1, 1], [1, 1, 1, 1], [1, 1, 1, 1], 'SAME')",
    "tf.nn.dilation2d(x[None, ..., None], tf.zeros([2, 2, 1]), [1, 1, 1, 1], 'SAME', 'NHWC', [1, 1, 1, 1])",
    # bitcast, segment reductions, diagonals
    "tf.bitcast(x, tf.int32)", "tf.bitcast(x, tf.int16)", "tf.bitcast(tf.stack([x, x], -1), tf.float64)",
    "tf.math.unsorted_segment_sum(x, [0, 1], 3)", "tf.math.unsorted_segment_max(x, [[0, 1], [1, 0]], 4)",
    "tf.math.unsorted_segment_prod(tf.transpose(x), [2, 1, 0], 3)",
    "tf.linalg.diag_part(x)", "tf.linalg.diag_part(x, k=(-1, 1))", "tf.linalg.diag_part(x, k=1)",
    "tf.linalg.diag(x)", "tf.linalg.diag(x, num_rows=4)", "tf.linalg.diag(tf.stack([x, x], -2), k=(0, 1))",
    # multi-output ops
    "tf.linalg.qr(x)[0]", "tf.linalg.qr(x)[1]", "tf.linalg.qr(x, full_matrices=True)[0]",
    "tf.linalg.qr(x, full_matrices=True)[1]", "tf.nn.softmax_cross_entropy_with_logits(x, x)",
    "tf.raw_ops.SoftmaxCrossEntropyWithLogits(features=x, labels=x)[1]",
    "tf.nn.sparse_softmax_cross_entropy_with_logits(tf.zeros(tf.shape(x)[:1], tf.int32), x)",
    "tf.raw_ops.SparseSoftmaxCrossEntropyWithLogits(features=x, labels=tf.zeros(tf.shape(x)[:1], tf.int32))[1]",
    "tf.unstack(x[:, :2], num=2, axis=1)[0]", "tf.unique(tf.reshape(x, [-1]))[0]", "tf.unique(tf.reshape(x, [-1]))[1]",
    "tf.unique_with_counts(tf.reshape(x, [-1]))[2]",
    # searchsorted, boolean_mask, map_fn/scan, rot90
    "tf.searchsorted(x, x)", "tf.searchsorted(x, x[:, :1], side='right')",
    "tf.raw_ops.LowerBound(sorted_inputs=x, values=x[:, :1])",
    "tf.boolean_mask(x, x[0] > 0, axis=1)", "tf.boolean_mask(x, x[:, 0] > 0)", "tf.boolean_mask(x, x > 0)",
    "tf.scan(lambda a, b: a + b, x)", "tf.map_fn(lambda t: t * 2.0, x)", "tf.map_fn(lambda t: tf.reduce_sum(t), x)",
    "tf.map_fn(lambda t: (t[0], t), (x, x))[1]",
    "tf.image.rot90(x[..., None])", "tf.image.rot90(x[..., None], 2)", "tf.image.rot90(x[..., None], 4)",
    "tf.image.rot90(x[None, ..., None], 1)",
    # the real FFTs: fft_length inferred or given, the dynamic pad of unknown inner dimensions
    "tf.signal.rfft(x)", "tf.signal.rfft(x, [4])", "tf.signal.irfft(tf.complex(x, x))",
    "tf.signal.irfft(tf.complex(x, x), [6])", "tf.signal.rfft2d(x)", "tf.signal.rfft2d(x, [2, 4])",
    "tf.signal.irfft2d(tf.complex(x, x))", "tf.signal.rfft3d(x[None])",
)
_SIGS = ([None, None], [None, 3], [2, None], [4, 4])


def _cases() -> list[tuple[str, str, object]]:
    return [(f"the static shape of {e} for an input_signature {s}", "function.static-shapes", _static(e, s))
            for s in _SIGS for e in _EXPRS]


CASES: list[tuple] = _cases()

EDGES = edge_compare.EdgeModule(__file__, CASES, agree=lambda case: case[3] if len(case) > 3 else edge_compare.parts_agree)


@pytest.fixture(scope="module")
def tf_results() -> dict[int, object]:
    return EDGES.tf_answers()


@clause("function.static-shapes")
@EDGES.parametrize("function.static-shapes")
def test_static_shapes_under_unknown_dims(k: int, tf_results: dict[int, object]) -> None:
    EDGES.check(k, tf_results)


def test_every_case_has_a_test() -> None:
    untested = EDGES.untested()
    assert not untested, f"cases of groups {untested} have no test function above"


if __name__ == "__main__":  # TF worker: python test_fz50_static_shapes_tf.py 0,1,2 -> pickled results on stdout
    tf_workers.serve(EDGES.tf_worker)
