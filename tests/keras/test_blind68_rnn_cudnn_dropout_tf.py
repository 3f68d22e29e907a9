"""LSTM and GRU in training with input dropout and no recurrent dropout, against Keras 3.15 on TF 2.21 (clause
keras.rnn.dropout): before trying the backend's cuDNN kernel (use_cudnn "auto" or True), Keras's inner_loop expands the
cell's first-step dropout mask on axis 1 and broadcasts it to the sequences. The split-gate cells (implementation=1)
keep one mask per gate, a list that stacks to rank 3, so that broadcast fails: InvalidArgumentError eagerly, ValueError
in a traced call or fit; use_cudnn=False, implementation 2, no dropout or recurrent dropout run. simdist ran every
case (found by blind55a's gaps probe, docs/conformance.md "a sixty-eighth blind batch")."""

from __future__ import annotations

import re
from typing import Any, Callable

import numpy as np
import pytest

import case_results
import tf_workers

pytestmark = [pytest.mark.tf, tf_workers.tf_or_golden(__file__)]

_X = (np.arange(6 * 5 * 2).reshape(6, 5, 2) % 7 / 8.0).astype(np.float32)


def _case(cls: str, mode: str, **kw: Any) -> Callable[[Any], Any]:
    def case(tf: Any) -> Any:
        c = tf.keras.initializers.Constant(0.125)
        layer = getattr(tf.keras.layers, cls)(1, seed=2, kernel_initializer=c, recurrent_initializer=c, **kw)
        try:   # (the error's class: simdist's broadcast_to words its rank error otherwise, an open item)
            if mode == "eager":
                return layer(tf.constant(_X), training=True)
            if mode == "traced":
                return tf.function(lambda t: layer(t, training=True))(tf.constant(_X))
            m = tf.keras.Sequential([tf.keras.Input((5, 2)), layer])
            m.compile("sgd", "mse")
            m.fit(_X, np.ones((6, 1), np.float32), verbose=0, epochs=1, batch_size=6)
            return "fit ran"   # (the loss is not compared: TF's fit shuffles the rows unseeded, so dropout shows it)
        except Exception as e:  # noqa: BLE001 - the class is the observation
            return f"raised {type(e).__name__}"
    return case


def _cases() -> dict[str, Callable[[Any], Any]]:
    out = {}
    for cls in ("LSTM", "GRU"):
        for mode in ("eager", "traced", "fit"):
            out[f"refused/{cls} implementation 1, dropout 0.5, {mode}"] = _case(cls, mode, implementation=1, dropout=0.5)
            out[f"refused/{cls} implementation 1, dropout 0.5, use_cudnn True, {mode}"] = _case(
                cls, mode, implementation=1, dropout=0.5, use_cudnn=True)
        for mode in ("eager", "fit"):
            out[f"runs/{cls} implementation 1, dropout 0.5, use_cudnn False, {mode}"] = _case(
                cls, mode, implementation=1, dropout=0.5, use_cudnn=False)
            out[f"runs/{cls} implementation 2, dropout 0.5, {mode}"] = _case(cls, mode, implementation=2, dropout=0.5)
            out[f"runs/{cls} implementation 1, dropout 0.5, recurrent dropout 0.5, {mode}"] = _case(
                cls, mode, implementation=1, dropout=0.5, recurrent_dropout=0.5)
    return out


_AUTO_NAME = re.compile(r"((?:lstm|gru|sequential|lstm_cell|gru_cell)_)\d+")
TABLE = case_results.Table(__file__, _cases(), _AUTO_NAME)


@pytest.fixture(scope="module")
def tf_results() -> dict[int, Any]:
    return TABLE.tf_results()


@pytest.mark.clause("keras.rnn.dropout")
@pytest.mark.parametrize("prefix", ["refused/", "runs/"])
def test_split_gate_dropout_masks_fail_keras_cudnn_broadcast(tf_results: dict[int, Any], prefix: str) -> None:
    TABLE.check(tf_results, lambda lab: lab.startswith(prefix))


if __name__ == "__main__":  # TF worker
    tf_workers.serve(TABLE.tf_worker)
