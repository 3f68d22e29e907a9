"""A recurrent layer's dropout masks under a captured OneDeviceStrategy (the fifty-second session, helper open52;
clause keras.fit.first-batch-build): Keras's symbolic build before the first step traces the model in a scratch graph
inside a StatelessScope, so the RNN cell's dropout-mask draw there (Keras draws the masks whatever `training` says)
leaves its SeedGenerator's state as it was; TF 2.21's fit losses under OneDeviceStrategy are the default
strategy's to the bit. simdist's build ran the model eagerly and kept the draw: every later mask was one draw on
(kfuzz51's rnn-dropout-masks-one-device). Each case: per-epoch losses (rounded to 6 decimals) and the seed state
after fit, under the default strategy and OneDeviceStrategy.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import tf_programs
import tf_workers

pytestmark = [pytest.mark.tf, tf_workers.tf_or_golden(__file__)]


def program(tf: Any, case: dict, workdir: str) -> Any:
    L = tf.keras.layers
    make = {"lstm_dropout": lambda: L.LSTM(3, dropout=0.2, seed=7),
            "lstm_recurrent_dropout": lambda: L.LSTM(3, recurrent_dropout=0.2, seed=7),
            "gru_dropout": lambda: L.GRU(2, dropout=0.1, seed=3)}[case["name"]]
    out: list[Any] = []
    for kind in ("default", "one_device"):
        strategy = tf.distribute.get_strategy() if kind == "default" else tf.distribute.OneDeviceStrategy("/cpu:0")
        rng = np.random.default_rng(1)
        x = rng.uniform(-1, 1, (6, 4, 2)).astype(np.float32)
        y = rng.uniform(0.05, 2, (6, 2)).astype(np.float32)
        with strategy.scope():
            inp = tf.keras.Input((4, 2))
            rnn = make()
            m = tf.keras.Model(inp, L.Dense(2)(rnn(inp)))
            r = np.random.default_rng(5)
            for v in m.weights:
                v.assign(r.uniform(-0.6, 0.6, tuple(v.shape)).astype(np.float32))
            m.compile(optimizer=tf.keras.optimizers.SGD(0.0), loss="mse")
        h = m.fit(x, y, batch_size=3, epochs=2, shuffle=False, verbose=0)
        out.append([kind, [round(float(v), 6) for v in h.history["loss"]],
                    np.asarray(rnn.cell.seed_generator.state.value).tolist()])
    return out


NAMES = ["lstm_dropout", "lstm_recurrent_dropout", "gru_dropout"]
CASES: dict[str, dict] = {n: {"strategy": "default", "name": n} for n in NAMES}


@pytest.fixture(scope="module")
def tf_results(request: Any) -> dict[int, Any]:
    return tf_programs.spawn(__file__, CASES, tf_programs.selected(request, __file__))


@pytest.mark.clause("keras.fit.first-batch-build")
@pytest.mark.parametrize("index", range(len(NAMES)), ids=NAMES)
def test_rnn_dropout_masks_as_tf(index: int, tf_results: dict[int, Any], tmp_path: Any) -> None:
    name = NAMES[index]
    got, want = tf_programs.on_simdist(program, CASES[name], str(tmp_path)), tf_results[index]
    for g, w in zip(got, want):
        assert g == w, f"{name} under {w[0]}: simdist gives losses {g[1]}, seed state {g[2]}; TF 2.21 gives " \
                       f"losses {w[1]}, seed state {w[2]}"


if __name__ == "__main__":  # TF worker
    tf_workers.serve(tf_programs.worker(CASES, program))
