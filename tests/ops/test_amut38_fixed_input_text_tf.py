"""The eager fallback's ValueError for a fixed-dtype input given a tensor of another dtype (clause ops.raw-ops;
amut38, found beside the seed-15 mutant image_distorted_box.py:302): TF's generated wrapper falls back to
convert_to_tensor(value, dtype), whose Tensor.__tf_tensor__ raises ValueError "Tensor conversion requested dtype
float32 for Tensor with dtype int16: <tf.Tensor: ...>", the tensor's repr included (framework/tensor.py). Each case
returns the error's class and text as strings, compared on both backends; needs the `tf` extra.
"""

from __future__ import annotations

from typing import Any, Callable

import pytest

import edge_compare
import tf_workers

pytestmark = [pytest.mark.tf, tf_workers.tf_or_golden(__file__)]
clause = pytest.mark.clause

_RO = "ops.raw-ops"


def _text(call: str) -> Callable[[Any], Any]:
    """The class and text of the error `call` raises (eagerly), as a string tensor."""
    def run(tf: Any) -> Any:
        import numpy as np
        try:
            eval(call, {"tf": tf, "np": np})  # noqa: S307 - our own text
        except Exception as e:  # noqa: BLE001 - the error is the answer
            return tf.constant(f"{type(e).__name__}: {e}")
        return tf.constant("no error")
    return run


_B16 = "tf.constant([[[1, 1, 9, 9]]], tf.int16)"
CASES = [
    ("stateless_sample_distorted_bounding_box, list image_size, int16 boxes", _RO,
     _text(f"tf.image.stateless_sample_distorted_bounding_box([4, 6, 1], {_B16}, seed=[1, 2])")),
    ("sample_distorted_bounding_box, list image_size, int16 boxes", _RO,
     _text(f"tf.image.sample_distorted_bounding_box([4, 6, 1], {_B16}, seed=1)")),
    ("ShardedFilename int64 shard beside a Python string", _RO,
     _text("tf.raw_ops.ShardedFilename(basename='x', shard=tf.constant(1, tf.int64), num_shards=5)")),
    ("CropAndResize float64 boxes, list crop_size", _RO,
     _text("tf.image.crop_and_resize(tf.ones([1, 4, 4, 1]), tf.constant([[0.0, 0.0, 1.0, 1.0]], tf.float64), "
           "[0], [2, 2])")),
]

EDGES = edge_compare.EdgeModule(__file__, CASES)


@pytest.fixture(scope="module")
def tf_results() -> dict[int, Any]:
    return EDGES.tf_answers()


@clause("ops.raw-ops")
@EDGES.parametrize("ops.raw-ops")
def test_fixed_input_fallback_error_texts(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


def test_every_case_has_a_test() -> None:
    untested = EDGES.untested()
    assert not untested, f"cases of groups {untested} have no test function above"


if __name__ == "__main__":  # TF worker: python test_amut38_fixed_input_text_tf.py 0,1,2 -> pickled results on stdout
    tf_workers.serve(EDGES.tf_worker)
