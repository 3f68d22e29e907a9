"""The Keras metrics sweep (fifty-seventh session, msweep57; msweep57_cases.py): every public `tf.keras.metrics`
class with each option off its default (thresholds as values and lists at 0, 0.5 and 1, top_k, class_id,
num_thresholds, AUC's curves, summation methods, multi_label/label_weights/from_logits, F-score averages, beta and
thresholds, R2Score's aggregations and regressors, the IoU family's target/ignored classes and sparse flags,
from_logits, label_smoothing, axis, dtype), updated over three batches without and with zero-holding sample weights:
the results after each batch, the variables' names, shapes and bits, reset_state, get_config/from_config; the
per-sample function forms; compile(metrics=..., weighted_metrics=...) through fit/evaluate. Compared with TF 2.21's
recorded results (`python -m simdist.conformance.suite.test_msweep57 --record` rewrites msweep57_reference.json.gz;
recorded on an AVX-512 Xeon with oneDNN on, every program host-dependent)."""

from __future__ import annotations

from typing import Any

import pytest

from simdist.conformance.suite.msweep57_cases import FN_CASES, METRIC_CASES, REF

_check, _ids = REF.check, REF.ids


_R2 = [n for n in _ids("ms-metric-") if n.endswith("-R2Score")]


@pytest.mark.clause("keras.metric.option-coverage")
@pytest.mark.parametrize("name", [n for n in _ids("ms-metric-") if n not in _R2])
def test_msweep57_metric_classes(backend: Any, name: str) -> None:
    """A metric class with one set of options over three batches (plain and weighted): results after each batch,
    variables, reset_state and the config round trip: TF 2.21's bits."""
    _check(backend, name)


@pytest.mark.clause("keras.metric.r2-score")
@pytest.mark.parametrize("name", _R2)
def test_msweep57_r2_score(backend: Any, name: str) -> None:
    """R2Score (class_aggregation None/uniform/variance-weighted, num_regressors 0, 1, 2) over three batches, plain
    and weighted: its residual is Keras's (t - p) ** 2 through TF's Pow kernel, not a correctly rounded square:
    the residual variable's and the scores' bits are TF 2.21's."""
    _check(backend, name)


@pytest.mark.clause("keras.metric.option-coverage")
@pytest.mark.parametrize("name", _ids("ms-fn-"))
def test_msweep57_function_forms(backend: Any, name: str) -> None:
    """tf.keras.metrics' per-sample functions with their options over two batches: TF 2.21's bits."""
    _check(backend, name)


@pytest.mark.clause("keras.fit.logs")
@pytest.mark.parametrize("name", _ids("ms-fit-"))
def test_msweep57_compiled_metrics_logs(backend: Any, name: str) -> None:
    """compile(metrics=..., weighted_metrics=...) through fit and evaluate: the logs' names and values' bits."""
    _check(backend, name)


assert len(_ids("ms-metric-")) == len(METRIC_CASES) and len(_ids("ms-fn-")) == len(FN_CASES)

if __name__ == "__main__":
    import sys
    if "--record" in sys.argv:
        REF.record()
