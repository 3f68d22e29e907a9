"""Keras's own compiled steps: the batch dimension Grappler sees (kopen58; clause keras.fit.traced-shapes).

Keras 3.15's train/test step reads its batches from the dataset iterator inside the tf.function, so the graph's batch
dimension is None when the last batch is partial (10 rows by 4s) and the batch size when every batch is full (10 by
5s). Grappler's MinimizeBroadcasts (ShapeIsSymbolicallyDefined) reorders a product tree by its leaves' sizes only
when every shape is known: CosineSimilarity's `(y_true * inv_t) * (y_pred * inv_p)` (an l2-normalised product) stays
as written in TF's evaluate over 10 rows by 4s and equals the eager value; simdist's own steps read the concrete
batch shapes for their shape queries, and its Grappler model read them too, so its compiled evaluate was one ulp off
(msweep57's open item: -0x1.068b58p-1 where TF 2.21 gives -0x1.068b5ap-1). Each case returns the logs' bits (fit's
history, evaluate's per-batch logs and result) for run_eagerly False and True.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import tf_programs
import tf_workers

pytestmark = [pytest.mark.tf, tf_workers.tf_or_golden(__file__)]


def _hex(v: Any) -> str:
    return float(np.float32(v)).hex()


def program(tf: Any, case: dict, workdir: str) -> Any:
    keras = tf.keras
    name = case["seed"]   # (msweep57's ms-fit-two inputs: recorded_programs.rng's seed of the name)
    r = np.random.RandomState(sum(ord(c) * (i + 1) for i, c in enumerate(name)) % (2**31))
    x = r.uniform(-1.0, 1.0, (10, 3)).astype(np.float32)
    ya = r.randint(0, 3, (10,)).astype(np.int32)
    yb = r.uniform(-1.0, 1.0, (10, 2)).astype(np.float32)
    init = [r.uniform(-0.8, 0.8, s).astype(np.float32) for s in ((3, 3), (3,), (3, 2), (2,))]
    out: list[Any] = []
    for eager in (False, True):
        keras.utils.clear_session()
        inp = keras.Input((3,), name="k_in")
        a = keras.layers.Dense(3, activation="softmax", name="k_a")(inp)
        b = keras.layers.Dense(2, name="k_b")(inp)
        model = keras.Model(inp, {"k_a": a, "k_b": b}, name="k_two")
        model.set_weights(init)
        model.compile(optimizer=keras.optimizers.SGD(0.05),
                      loss={"k_a": "sparse_categorical_crossentropy", "k_b": "mse"},
                      metrics={"k_b": [keras.metrics.CosineSimilarity(name="k_cos")]}, run_eagerly=eager)
        h = model.fit(x, {"k_a": ya, "k_b": yb}, batch_size=case["batch"], epochs=2, verbose=0, shuffle=False)
        rows: list[Any] = []

        class CB(keras.callbacks.Callback):
            def on_test_batch_end(self, batch: int, logs: Any = None) -> None:
                rows.append([batch, _hex(logs["k_b_k_cos"]), _hex(logs["k_b_loss"])])

        ev = model.evaluate(x, {"k_a": ya, "k_b": yb}, batch_size=case["batch"], verbose=0, return_dict=True,
                            callbacks=[CB()])
        out.append([f"run_eagerly={eager}", {k: [_hex(v) for v in h.history[k]] for k in sorted(h.history)}, rows,
                    {k: _hex(v) for k, v in sorted(ev.items())}])
    return out


CASES: dict[str, dict] = {
    "10 rows by 4 (partial last batch)": {"strategy": "default", "batch": 4, "seed": "ms-fit-two"},
    "10 rows by 4, other inputs": {"strategy": "default", "batch": 4, "seed": "kopen58-b"},
    "10 rows by 5 (full batches)": {"strategy": "default", "batch": 5, "seed": "ms-fit-two"},
}
NAMES = list(CASES)


@pytest.fixture(scope="module")
def tf_results(request: Any) -> dict[int, Any]:
    return tf_programs.spawn(__file__, CASES, tf_programs.selected(request, __file__))


@pytest.mark.clause("keras.fit.traced-shapes")
@pytest.mark.parametrize("index", range(len(NAMES)), ids=NAMES)
def test_graph_only_batch_as_tf(index: int, tf_results: dict[int, Any], tmp_path: Any) -> None:
    name = NAMES[index]
    got = tf_programs.on_simdist(program, CASES[name], str(tmp_path))
    want = tf_results[index]
    bad = [f"{w[0]}: simdist gives {g[1:]}, TF 2.21 gives {w[1:]}" for g, w in zip(got, want) if g != w]
    assert len(got) == len(want) and not bad, f"{name}: " + "; ".join(bad)


if __name__ == "__main__":
    tf_workers.serve(tf_programs.worker(CASES, program))
