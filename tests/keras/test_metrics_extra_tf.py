"""Differential tests of BinaryIoU, OneHotIoU, OneHotMeanIoU, the hinge metrics (Hinge,
SquaredHinge, CategoricalHinge) and the correlation metrics (PearsonCorrelation,
ConcordanceCorrelation): simdist vs TF 2.21 + Keras 3.15.

The program (updates, per-replica results inside `strategy.run`, variables, reset, `__call__`)
and the comparison are test_metrics_tf's (`run_case`, `assert_same`); this module adds the cases
and the kind of data each metric takes. Its golden (tests/goldens/) is stamped with this file
only: re-record it when test_metrics_tf's program changes.
"""

from __future__ import annotations

import os
import sys
from typing import Any

import pytest

import test_metrics_tf as base
import tf_workers

pytestmark = [pytest.mark.tf, tf_workers.tf_or_golden(__file__)]

# BinaryIoU takes 0/1 labels and probabilities (one exactly 0.5, on the default threshold);
# the one-hot metrics take one-hot labels and softmax rows (or class ids with sparse_y_pred);
# Hinge/SquaredHinge 0/1 labels (mapped to -1/1), and through `get` real-valued labels (kept);
# the correlations real-valued labels and predictions.
base.DATA_KIND.update({"BinaryIoU": "binary", "OneHotIoU": "categorical", "OneHotMeanIoU": "categorical",
                       "Hinge": "binary", "SquaredHinge": "binary", "CategoricalHinge": "categorical",
                       "get:hinge": "regression", "get:squared_hinge": "regression",
                       "PearsonCorrelation": "regression", "ConcordanceCorrelation": "regression",
                       "get:pearson_correlation": "regression"})

Case = base.Case
IOU = "keras.metric.iou"
CASES = [
    Case("BinaryIoU-eager", "BinaryIoU", tags=(IOU,)),
    Case("BinaryIoU-target1-threshold", "BinaryIoU", kwargs=(("target_class_ids", (1,)), ("threshold", 0.3)),
         tags=(IOU,)),
    Case("BinaryIoU-int-weights-truncate", "BinaryIoU", weights="elementwise", tags=(IOU,)),
    Case("BinaryIoU-float32-weighted", "BinaryIoU", kwargs=(("dtype", "float32"),), weights="elementwise",
         tags=(IOU,)),
    Case("BinaryIoU-mirrored2", "BinaryIoU", kwargs=(("dtype", "float32"),), context="mirrored2", tags=(IOU,)),
    Case("OneHotIoU-eager", "OneHotIoU", kwargs=(("num_classes", 4), ("target_class_ids", (0, 3))), tags=(IOU,)),
    Case("OneHotIoU-ignore-weighted", "OneHotIoU", kwargs=(("num_classes", 4), ("target_class_ids", (1, 2)),
                                                           ("ignore_class", 2), ("dtype", "float32")),
         weights="per_sample", tags=(IOU,)),
    Case("OneHotIoU-mirrored2-uneven", "OneHotIoU", kwargs=(("num_classes", 4), ("target_class_ids", (0, 1, 2))),
         context="mirrored2", batches=(7, 3, 9), tags=(IOU,)),
    Case("OneHotMeanIoU-eager", "OneHotMeanIoU", kwargs=(("num_classes", 4),), tags=(IOU,)),
    Case("OneHotMeanIoU-mirrored2", "OneHotMeanIoU", kwargs=(("num_classes", 4), ("dtype", "float32")),
         context="mirrored2", weights="per_sample", tags=(IOU,)),
    Case("OneHotMeanIoU-central_storage2", "OneHotMeanIoU", kwargs=(("num_classes", 4),),
         context="central_storage2", tags=(IOU,)),
]
HC = "keras.metric.hinge-correlation"
CASES += [
    Case("Hinge-eager-weighted", "Hinge", weights="per_sample", tags=(HC,)),
    Case("Hinge-logits-mirrored2", "Hinge", logits=True, context="mirrored2", tags=(HC,)),
    Case("get-hinge-real-labels", "get:hinge", tags=(HC,)),
    Case("SquaredHinge-logits", "SquaredHinge", logits=True, weights="column", tags=(HC,)),
    Case("get-squared_hinge-real-labels", "get:squared_hinge", tags=(HC,)),
    Case("CategoricalHinge-logits-weighted", "CategoricalHinge", logits=True, weights="per_sample", tags=(HC,)),
    Case("CategoricalHinge-mirrored2-uneven", "CategoricalHinge", context="mirrored2", batches=(7, 3, 9),
         tags=(HC,)),
    Case("PearsonCorrelation-eager-weighted", "PearsonCorrelation", weights="per_sample", tags=(HC,)),
    Case("PearsonCorrelation-axis0", "PearsonCorrelation", kwargs=(("axis", 0),), tags=(HC,)),
    Case("get-pearson_correlation-mirrored2", "get:pearson_correlation", context="mirrored2", tags=(HC,)),
    Case("ConcordanceCorrelation-eager", "ConcordanceCorrelation", tags=(HC,)),
    Case("ConcordanceCorrelation-mirrored2-weighted", "ConcordanceCorrelation", context="mirrored2",
         weights="per_sample", tags=(HC,)),
    Case("ConcordanceCorrelation-central_storage2", "ConcordanceCorrelation", context="central_storage2",
         tags=(HC,)),
]


def _tf_worker(indices: list[int]) -> dict[int, Any]:
    tf = base._setup_tf()
    import keras
    out: dict[int, Any] = {}
    for i in indices:
        keras.backend.clear_session(free_memory=False)
        out[i] = base.run_case(tf, CASES[i])
    return out


@pytest.fixture(scope="module")
def tf_results() -> dict[int, Any]:
    return tf_workers.spawn(__file__, list(range(len(CASES))))


def _params(tag: str) -> list[Any]:
    return [pytest.param(i, id=c.name) for i, c in enumerate(CASES) if c.tags[0] == tag]


@pytest.mark.clause("keras.metric.iou")
@pytest.mark.parametrize("index", _params(IOU))
def test_iou_variants(index: int, tf_results: dict[int, Any]) -> None:
    base.assert_same(base.simdist_run(CASES[index]), tf_results[index], CASES[index].name)


@pytest.mark.clause("keras.metric.hinge-correlation")
@pytest.mark.parametrize("index", _params(HC))
def test_hinge_and_correlation(index: int, tf_results: dict[int, Any]) -> None:
    base.assert_same(base.simdist_run(CASES[index]), tf_results[index], CASES[index].name)


def test_config_round_trip() -> None:
    """get_config carries each metric's own arguments (Keras 3.15's keys) and rebuilds it."""
    from simdist import tf
    for cls, kw in ((tf.keras.metrics.BinaryIoU, {"target_class_ids": [1], "threshold": 0.25}),
                    (tf.keras.metrics.OneHotIoU, {"num_classes": 3, "target_class_ids": [0, 2], "ignore_class": 1}),
                    (tf.keras.metrics.OneHotMeanIoU, {"num_classes": 3, "sparse_y_pred": True}),
                    (tf.keras.metrics.PearsonCorrelation, {"axis": 0, "name": "r"}),
                    (tf.keras.metrics.ConcordanceCorrelation, {"axis": -1}),
                    (tf.keras.metrics.CategoricalHinge, {"name": "ch"})):
        cfg = cls(**kw).get_config()
        for k, v in kw.items():
            assert cfg[k] == v, f"{cls.__name__}.get_config()[{k!r}] = {cfg[k]!r}, but should be {v!r}"
        again = cls.from_config(cfg).get_config()
        assert again == cfg, f"{cls.__name__}.from_config(cfg).get_config() = {again}, but should be {cfg}"


if __name__ == "__main__":  # TF worker
    tf_workers.serve(_tf_worker)
    os._exit(0)   # (skip TF's slow teardown after MirroredStrategy runs; the results are flushed)
