"""A loss's rank matching in fit's and evaluate's traced steps reads the batch dimension statically, against
Keras 3.15 on TF 2.21 (clause keras.fit.traced-shapes; found by the training fuzzer, tests/fuzz_train, seed
4020261205 #49: Dice with sample weights on a replica batch of 1, TF 0.532, simdist 0.750).

Keras's reduce_weighted_values (keras/src/losses/loss.py) matches the ranks of the loss values and the sample
weights with squeeze_or_expand_to_same_rank, which reads static shapes: a scalar loss (Dice, Tversky: axis=None)
against weights of static shape (1,) squeezes them, and the scalar comes back unreduced and unscaled; against
weights of unknown batch size (None,) it keeps them, and the (None,) product is summed, divided and scaled by
1 / num_replicas_in_sync. Keras's ArrayDataAdapter gives the traced step's inputs a static batch size when every
batch is full (per replica batch_size / replicas), None when there is a partial last batch; so on
MirroredStrategy(2) a replica batch of 1 is squeezed when all batches are full (6 samples by 2s) and kept when
it comes from a partial batch (14 by 4s: the last batch of 2 split [1, 1]). The cases train and evaluate under
MirroredStrategy(2) and return each batch's loss and the weights."""

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


def _dice(n: int, bs: int, loss: str, reduction: str, evaluate: tuple[int, int] | None = None) -> Callable[[Any], Any]:
    def case(tf: Any) -> Any:
        keras = tf.keras
        if "simdist" in tf.__name__:   # (TF's worker splits its CPU before TF initialises: _tf_worker)
            import simdist
            simdist.reset()
            tf_programs.four_cpus(tf)
        strategy = tf.distribute.MirroredStrategy(["/cpu:0", "/cpu:1"])
        rng = np.random.default_rng(n * 100 + bs)
        with strategy.scope():
            inp = keras.Input((3,))
            out = keras.layers.Dense(2, activation="sigmoid", kernel_initializer=keras.initializers.Constant(0.3),
                                     name="d")(inp)
            m = keras.Model(inp, out)
            m.compile(keras.optimizers.SGD(0.1), getattr(keras.losses, loss)(reduction=reduction))
        x = rng.uniform(-1, 1, (n, 3)).astype(np.float32)
        y = rng.integers(0, 2, (n, 2)).astype(np.float32)
        sw = np.round(rng.uniform(0.1, 2, n), 2).astype(np.float32)
        losses: list[float] = []

        class Record(keras.callbacks.Callback):
            def on_train_batch_end(self, batch: int, logs: Any = None) -> None:
                losses.append(float(logs["loss"]))

            def on_test_batch_end(self, batch: int, logs: Any = None) -> None:
                losses.append(float(logs["loss"]))

        if evaluate is None:
            m.fit(x, y, batch_size=bs, epochs=2, verbose=0, sample_weight=sw, shuffle=False, callbacks=[Record()])
        else:
            ne, be = evaluate
            m.evaluate(x[:ne], y[:ne], batch_size=be, verbose=0, sample_weight=sw[:ne], callbacks=[Record()])
        return [np.asarray(losses, dtype=np.float64), [np.asarray(w, dtype=np.float64) for w in m.get_weights()]]
    return case


def _cases() -> dict[str, Callable[[Any], Any]]:
    out: dict[str, Callable[[Any], Any]] = {}
    for loss in ("Dice", "Tversky"):
        for reduction in ("sum_over_batch_size", "mean_with_sample_weight"):
            out[f"fit/{loss} {reduction}, 14 by 4s (replica batches of 1 in the partial batch)"] = \
                _dice(14, 4, loss, reduction)
            out[f"fit/{loss} {reduction}, 6 by 2s (full batches, replica batches of 1)"] = _dice(6, 2, loss, reduction)
            out[f"fit/{loss} {reduction}, 8 by 4s (full batches)"] = _dice(8, 4, loss, reduction)
        out[f"evaluate/{loss}, 10 by 4s"] = _dice(10, 4, loss, "sum_over_batch_size", evaluate=(10, 4))
        out[f"evaluate/{loss}, 6 by 2s"] = _dice(10, 4, loss, "sum_over_batch_size", evaluate=(6, 2))
    return out


_AUTO_NAME = re.compile(r"(functional_|input_layer_|sgd_|dice_|tversky_)_?\d+")
TABLE = case_results.Table(__file__, _cases(), _AUTO_NAME)


@pytest.fixture(scope="module")
def tf_results() -> dict[int, Any]:
    return TABLE.tf_results()


@pytest.fixture(scope="module", autouse=True)
def _fresh_keras_session_after() -> Any:
    yield
    from simdist import tf
    tf.keras.backend.clear_session()


@pytest.mark.clause("keras.fit.traced-shapes")
@pytest.mark.parametrize("prefix", ["fit/", "evaluate/"])
def test_loss_rank_matching_reads_the_static_batch_of_the_traced_step(tf_results: dict[int, Any],
                                                                      prefix: str) -> None:
    TABLE.check(tf_results, lambda lab: lab.startswith(prefix))


def _tf_worker(indices: list[int]) -> dict[int, Any]:
    import tensorflow as tf
    tf_programs.four_cpus(tf)   # (MirroredStrategy(2) needs the logical CPUs before TF initialises)
    return TABLE.tf_worker(indices)


if __name__ == "__main__":  # TF worker
    tf_workers.serve(_tf_worker)
    os._exit(0)
