"""The training fuzzer's kfuzz45 classes against Keras 3.15 on TF 2.21 (tests/fuzz_train; clause keras.compile.loss-weights).

Keras 3.15's TF trainer, with a strategy captured at the model's creation (a MirroredStrategy's scope), builds the
compiled loss before the first step by `_symbolic_build`: `backend.compute_output_spec(self._compute_loss, ...)`,
the loss computed in a scratch graph that never runs. So the loss code meets graph-mode conversion before any
step, even with `run_eagerly=True`: np.float64 loss weights beside a float32 kernel regularizer's loss raise the
graph's TypeError "Cannot convert a list containing a tensor of dtype <dtype: 'float32'> to <dtype: 'float64'>"
(seed 4520261202 #17: two outputs with dict losses, MirroredStrategy(2), compile(run_eagerly=True)), where the
same model under the default strategy (no captured strategy, no symbolic build) raises the eager Pack error of
kfuzz42. simdist built the compiled loss without computing it, so its first eager step raised the Pack error.
Each case returns the fit's losses and weights, or the error's class and message (up to the tensor's name)."""

from __future__ import annotations

import os
import re
from typing import Any, Callable

import numpy as np
import pytest

import case_results
import tf_programs
import tf_workers

pytestmark = [pytest.mark.tf, tf_workers.tf_or_golden(__file__)]


_TF_MIRRORED: list[Any] = []


def _setup(tf: Any, replicas: int) -> Any:
    simdist_side = "simdist" in tf.__name__
    if simdist_side:   # (TF's worker splits its CPU before TF initialises: _tf_worker)
        import simdist
        simdist.reset()
        tf_programs.four_cpus(tf)
    if replicas == 1:
        return tf.distribute.get_strategy()
    if simdist_side:
        return tf.distribute.MirroredStrategy([f"/cpu:{i}" for i in range(replicas)])
    # (TF 2.21: every MirroredStrategy of a context takes collective instance keys from 100, so a second one
    # over the same devices fails its first all-reduce, "Shape mismatch in the collective instance 100": one
    # strategy per worker process, as the conformance suite's TF backend hands out)
    if not _TF_MIRRORED:
        _TF_MIRRORED.append(tf.distribute.MirroredStrategy([f"/cpu:{i}" for i in range(replicas)]))
    return _TF_MIRRORED[0]


def _data() -> tuple[np.ndarray, list[np.ndarray]]:
    """Exact inputs and targets (multiples of 1/8)."""
    x = ((np.arange(24, dtype=np.float32).reshape(8, 3) % 5 - 2) / 8).astype(np.float32)
    y = ((np.arange(16, dtype=np.float32).reshape(8, 2) % 3 - 1) / 8).astype(np.float32)
    return x, [y, y[::-1].copy()]


def _fit(replicas: int, weights: str, regularizer: bool, run_eagerly: bool) -> Callable:
    """Two Dense outputs (MSE each) compiled with the loss weights (np.float64, np.float32 or Python floats), the
    first with an L2 kernel regularizer or none, fit two epochs of 8 by 4s: the losses and the weights, or the
    error's class and message up to the tensor's name."""
    def case(tf: Any) -> Any:
        keras = tf.keras
        strategy = _setup(tf, replicas)
        lw = {"np.float64": [np.float64(0.75), np.float64(0.5)], "np.float32": [np.float32(0.75), np.float32(0.5)],
              "float": [0.75, 0.5]}[weights]
        reg = keras.regularizers.L2(0.02) if regularizer else None
        init = keras.initializers.Constant(0.25)
        with strategy.scope():
            inp = keras.Input((3,))
            o1 = keras.layers.Dense(2, kernel_initializer=init, kernel_regularizer=reg, name="o1")(inp)
            o2 = keras.layers.Dense(2, kernel_initializer=init, name="o2")(inp)
            model = keras.Model(inp, [o1, o2])
            model.compile(optimizer=keras.optimizers.SGD(0.1), loss=["mse", "mse"], loss_weights=lw,
                          run_eagerly=run_eagerly)
        x, y = _data()
        try:
            hist = model.fit(x, y, batch_size=4, epochs=2, verbose=0, shuffle=False)
        except Exception as e:  # noqa: BLE001 - the error class is the observable
            return ["error", type(e).__name__, str(e).split(" (Tensor is")[0]]
        return [np.asarray(hist.history["loss"], dtype=np.float64)] + [np.asarray(w) for w in model.get_weights()]
    return case


def _cases() -> dict[str, Callable[[Any], Any]]:
    out: dict[str, Callable[[Any], Any]] = {}
    for replicas in (1, 2):
        for weights in ("np.float64", "float"):
            for reg in (True, False):
                for eager in (True, False):
                    if replicas == 1 and not (weights == "np.float64" and reg):
                        continue
                    label = (f"symbolic_build/replicas={replicas} weights={weights} regularizer={reg} "
                             f"run_eagerly={eager}")
                    out[label] = _fit(replicas, weights, reg, eager)
    out["symbolic_build/replicas=2 weights=np.float32 regularizer=True run_eagerly=True"] = \
        _fit(2, "np.float32", True, True)
    return out


_AUTO_NAME = re.compile(r"(functional_|input_layer_|sgd_)_?\d+")
TABLE = case_results.Table(__file__, _cases(), _AUTO_NAME)


@pytest.fixture(scope="module")
def tf_results() -> dict[int, Any]:
    return TABLE.tf_results()


@pytest.fixture(scope="module", autouse=True)
def _fresh_keras_session_after() -> Any:
    yield
    from simdist import tf
    tf.keras.backend.clear_session()


@pytest.mark.clause("keras.compile.loss-weights")
def test_a_captured_strategy_computes_the_loss_in_a_scratch_graph_before_the_first_step(
        tf_results: dict[int, Any]) -> None:
    TABLE.check(tf_results, lambda lab: lab.startswith("symbolic_build/"))


def _tf_worker(indices: list[int]) -> dict[int, Any]:
    import tensorflow as tf
    tf_programs.four_cpus(tf)   # (MirroredStrategy needs the logical CPUs before TF initialises)
    return TABLE.tf_worker(indices)


if __name__ == "__main__":  # TF worker
    tf_workers.serve(_tf_worker)
    os._exit(0)
