"""tf.image.sample_distorted_bounding_box and tf.image.stateless_sample_distorted_bounding_box
against real TensorFlow 2.21: TF's crops bit for bit (SimplePhilox draws from the stateless seed,
or from the cached kernel's stream across calls with an op or global seed), attributes,
image_size dtypes, the whole-image fallbacks, errors. Needs the `tf` extra (or its golden)."""

from __future__ import annotations

from typing import Any, Callable

import numpy as np
import pytest

import edge_compare
import tf_workers

pytestmark = [pytest.mark.tf, tf_workers.tf_or_golden(__file__)]
clause = pytest.mark.clause

_BOXES = [[[0.1, 0.2, 0.6, 0.7], [0.3, 0.0, 0.9, 0.5]]]


def _sl(seed: list[int], size: Any = (480, 640, 3), boxes: Any = None, **kw: Any) -> Callable[[Any], Any]:
    return lambda tf: list(tf.image.stateless_sample_distorted_bounding_box(
        size, tf.constant(_BOXES if boxes is None else boxes, tf.float32), seed=seed, **kw))


def _stateful(tf: Any, calls: int, global_seed: int | None, **kw: Any) -> Any:
    if global_seed is not None:
        tf.random.set_seed(global_seed)
    try:
        out = []
        for _ in range(calls):
            out += list(tf.image.sample_distorted_bounding_box(tf.constant([100, 80, 3], tf.int64),
                                                               tf.constant(_BOXES), **kw))
        return out
    finally:
        if global_seed is not None:
            tf.random.set_seed(None)    # (the TF worker runs every case in one process)


_CASES: list[tuple[str, Callable[[Any], Any]]] = [
    *[(f"stateless-seed-{s}", _sl([s, 3], min_object_covered=0.3)) for s in (0, 1, 2, 7, 123)],
    ("stateless-int64-seed", lambda tf: list(tf.image.stateless_sample_distorted_bounding_box(
        [480, 640, 3], tf.constant(_BOXES), seed=tf.constant([5, -2], tf.int64)))),
    ("stateless-wide-ranges", _sl([4, 4], area_range=[0.08, 1.0], aspect_ratio_range=[0.5, 2.0])),
    ("stateless-tiny-image", _sl([1, 2], size=np.array([7, 9, 1], np.int32), min_object_covered=0.0)),
    ("stateless-uint8-size", _sl([1, 2], size=np.array([30, 20, 3], np.uint8))),
    ("stateless-int16-size", _sl([3, 9], size=np.array([300, 200, 3], np.int16))),
    ("stateless-no-boxes-image", _sl([1, 2], boxes=np.zeros((1, 0, 4)), use_image_if_no_bounding_boxes=True)),
    ("stateless-fallback-whole-image", _sl([9, 9], size=[224, 224, 3], min_object_covered=0.99, max_attempts=3)),
    ("stateless-cover-1", _sl([6, 1], min_object_covered=1.0)),
    ("stateless-batch-of-boxes", _sl([8, 8], boxes=[[[0.0, 0.0, 1.0, 1.0]], [[0.5, 0.5, 0.6, 0.6]]])),
    ("stateful-op-seed", lambda tf: _stateful(tf, 3, None, seed=5, area_range=[0.08, 1.0],
                                              aspect_ratio_range=[0.5, 2.0])),
    ("stateful-global-seed", lambda tf: _stateful(tf, 2, 11, seed=4)),
    ("err-no-boxes", _sl([1, 2], size=[4, 4, 3], boxes=np.zeros((1, 0, 4)))),
    ("err-area-zero", _sl([1, 2], size=[4, 4, 3], area_range=[0.0, 1.0])),
    ("err-area-above-1", _sl([1, 2], size=[4, 4, 3], area_range=[0.5, 1.5])),
    ("err-aspect-negative", _sl([1, 2], size=[4, 4, 3], aspect_ratio_range=[-1.0, 1.0])),
    ("err-max-attempts-0", _sl([1, 2], size=[4, 4, 3], max_attempts=0)),
    ("err-size-2", _sl([1, 2], size=[4, 4])),
    ("err-size-float", _sl([1, 2], size=[4.0, 4.0, 3.0])),
    ("err-box-out-of-range", _sl([1, 2], size=[4, 4, 3], boxes=[[[0.1, 0.2, 1.6, 0.7]]])),
    ("err-boxes-rank-2", _sl([1, 2], size=[4, 4, 3], boxes=[[0.1, 0.2, 0.6, 0.7]])),
    ("err-seed-3", _sl([1, 2, 3], size=[4, 4, 3])),
    ("err-cover-negative", _sl([1, 2], size=[4, 4, 3], min_object_covered=-0.5)),
]

CASES: list[tuple[str, str, Callable[[Any], Any]]] = [(n, "ops.image-random", f) for n, f in _CASES]

EDGES = edge_compare.EdgeModule(__file__, CASES)


@pytest.fixture(scope="module")
def tf_results() -> dict[int, Any]:
    return EDGES.tf_answers()


@clause("ops.image-random")
@EDGES.parametrize("ops.image-random")
def test_sample_distorted_bounding_box(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


def test_every_group_is_tested() -> None:
    assert EDGES.untested() == [], f"groups with no test function: {EDGES.untested()}"


if __name__ == "__main__":  # TF worker: python test_ops8_image_tf.py 0,1,2 -> pickled results on stdout
    tf_workers.serve(EDGES.tf_worker)
