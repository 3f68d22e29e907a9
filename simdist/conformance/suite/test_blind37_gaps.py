"""Gaps the thirty-seventh blind batch of planted training bugs found (issue 29, docs/conformance.md "How strong is
the suite"): rules of the training layer that the suite stated for one spelling, one option value or one input
only, or never, so that a wrong implementation of the other case passed (TF 2.21 + Keras 3.15).

Each test checks a class of behaviour, not one planted bug. Every expected value is computed here with NumPy or
plain Python (a transcription of TF's or Keras 3.15's rule), or is a relation TF's rule implies between two
spellings, never the backend's own implementation of the same rule.
"""

from __future__ import annotations

import numpy as np
import pytest

from simdist.conformance.assertions import to_numpy as _np   # (an ndarray of any backend's value)

clause = pytest.mark.clause


# -- Dropout's noise_shape: every entry a positive integer or None ---------------------------------------------------
@clause("keras.layer.arguments", ref="tf221")
@pytest.mark.parametrize("noise_shape, error", [
    ((0, 2), "Expected all dimensions to be positive integers or None. Received negative or zero value at index 0: 0"),
    ((None, 0), "Received negative or zero value at index 1: 0"),
    ((2, -1), "Received negative or zero value at index 1: -1"),
    ((2, 1.5), "Expected all elements to be integers or None. Received element at index 1: 1.5"),
    ("2,1", "Expected a tuple or list of integers. Received: noise_shape=2,1"),
    (3, "Expected an iterable of integers"),
    ((None, 1), None), ([4, None], None), (None, None)])
def test_blind37_dropout_noise_shape_entries_must_be_positive(keras, noise_shape, error):
    """Dropout(rate, noise_shape) validates noise_shape when built from its arguments (Keras 3.15
    `Dropout._validate_noise_shape`): a string or a non-iterable, an entry that is not an int or None, and an entry
    <= 0 are ValueError naming the index; None entries and positive ints are kept (as a tuple)."""
    if error is None:
        layer = keras.layers.Dropout(0.5, noise_shape=noise_shape)
        want = None if noise_shape is None else tuple(noise_shape)
        got = None if layer.noise_shape is None else tuple(layer.noise_shape)
        assert got == want, f"noise_shape={noise_shape!r}: expected {want}, got {got}"
        return
    with pytest.raises(ValueError) as e:
        keras.layers.Dropout(0.5, noise_shape=noise_shape)
    assert error in str(e.value), f"noise_shape={noise_shape!r}: expected {error!r} in {str(e.value)!r}"


# -- the confusion metrics' thresholds: in [0, 1], a single float as well as a list ---------------------------------
@clause("keras.metric.precision-recall", ref="tf221")
@pytest.mark.parametrize("name", ["Precision", "Recall", "TruePositives", "FalseNegatives"])
@pytest.mark.parametrize("thresholds, bad", [(1.5, [1.5]), (-0.25, [-0.25]), ([0.5, 1.25], [1.25]),
                                             ([-1.0, 0.3, 2.0], [-1.0, 2.0]), (0.0, None), (1.0, None),
                                             ([0.0, 0.5, 1.0], None)])
def test_blind37_confusion_metric_thresholds_in_the_unit_interval(keras, name, thresholds, bad):
    """Precision, Recall and the confusion counts check their thresholds (Keras 3.15 `parse_init_thresholds` ->
    `assert_thresholds_range`): a single float is checked as a one-element list, and any value outside [0, 1] is
    ValueError "Threshold values must be in [0, 1]. Received: [the bad values]"; 0 and 1 themselves are accepted and
    kept (one per threshold)."""
    cls = getattr(keras.metrics, name)
    if bad is not None:
        with pytest.raises(ValueError) as e:
            cls(thresholds=thresholds)
        want = f"Threshold values must be in [0, 1]. Received: {bad}"
        assert want in str(e.value), f"{name}(thresholds={thresholds!r}): expected {want!r} in {str(e.value)!r}"
        return
    m = cls(thresholds=thresholds)
    want = thresholds if isinstance(thresholds, list) else [thresholds]
    assert list(m.thresholds) == want, f"{name}(thresholds={thresholds!r}): thresholds {list(m.thresholds)}, want {want}"
    m.update_state(np.array([1.0, 0.0, 1.0]), np.array([0.9, 0.2, 0.6]))
    got = _np(m.result())
    assert got.shape == (() if not isinstance(thresholds, list) else (len(thresholds),)), \
        f"{name}(thresholds={thresholds!r}): result shape {got.shape}"
