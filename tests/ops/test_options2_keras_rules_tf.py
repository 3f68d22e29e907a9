"""Two rules found by the option audit (docs/conformance.md "Option coverage of the suite"), against
real TF 2.21 + Keras 3.15 (clauses keras.reg.layer-losses, keras.rnn.layers): MultiHeadAttention's
activity_regularizer penalises its four projections' outputs and not its own output again;
Bidirectional(weights=...) is accepted and ignored. Needs the `tf` extra (or its golden)."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import edge_compare
import tf_workers

pytestmark = [pytest.mark.tf, tf_workers.tf_or_golden(__file__)]
clause = pytest.mark.clause

_X = (np.arange(30, dtype=np.float32).reshape(2, 5, 3) % 7 - 3.0) * np.float32(0.3)


def _mha_losses(tf: Any, use_gate: bool) -> Any:
    k = tf.keras
    k.backend.clear_session()
    layer = k.layers.MultiHeadAttention(2, 3, use_gate=use_gate, activity_regularizer=k.regularizers.L1L2(0.01, 0.02),
                                        kernel_initializer=k.initializers.Constant(0.1), bias_initializer="ones")
    out = layer(tf.constant(_X), tf.constant(_X))
    return np.array([float(np.asarray(v)) for v in layer.losses] + [float(np.asarray(out).sum())])


def _bidirectional_weights(tf: Any) -> Any:
    k = tf.keras
    k.backend.clear_session()
    given = [np.full((3, 8), 0.5, np.float32), np.full((2, 8), -0.5, np.float32), np.full((8,), 2.0, np.float32)] * 2
    layer = k.layers.Bidirectional(k.layers.LSTM(2, kernel_initializer=k.initializers.Constant(0.2),
                                                 recurrent_initializer=k.initializers.Constant(0.1)), weights=given)
    out = layer(tf.constant(_X))
    return np.concatenate([np.asarray(w).ravel() for w in layer.get_weights()] + [np.asarray(out).ravel()])


CASES = [("mha-activity-losses", "keras.reg.layer-losses", lambda tf: _mha_losses(tf, False), 1e-5),
         ("mha-gate-activity-losses", "keras.reg.layer-losses", lambda tf: _mha_losses(tf, True), 1e-5),
         ("bidirectional-weights-ignored", "keras.rnn.layers", _bidirectional_weights, 1e-5)]

EDGES = edge_compare.EdgeModule(__file__, CASES, agree=lambda case: edge_compare.within(case[3]))


@pytest.fixture(scope="module")
def tf_results() -> dict[int, Any]:
    return EDGES.tf_answers()


@clause("keras.reg.layer-losses")
@EDGES.parametrize("keras.reg.layer-losses")
def test_mha_activity_regularizer_losses(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


@clause("keras.rnn.layers")
@EDGES.parametrize("keras.rnn.layers")
def test_bidirectional_weights_argument(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


def test_every_group_is_tested() -> None:
    assert EDGES.untested() == [], f"groups with no test function: {EDGES.untested()}"


if __name__ == "__main__":  # TF worker: python test_options2_keras_rules_tf.py 0,1,2 -> pickled results on stdout
    tf_workers.serve(EDGES.tf_worker)
