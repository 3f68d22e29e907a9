"""`keras.utils.set_random_seed(s)` then a model written as people write it (no seeds on the
layers, no `set_weights`): simdist must give TF 2.21 + Keras 3.15's initial weights, dropout masks,
shuffled batches and trained weights (clause keras.init.seeding). Keras's unseeded initializers
and seed generators take their seeds from Python's `random`, which set_random_seed seeded.

Also the masks Keras hangs on tensors (clause keras.mask.propagation): `output._keras_mask` of
Embedding(mask_zero=True), Masking and a MultiHeadAttention fed a masked query (Keras 3.15's
MultiHeadAttention supports masking: its output keeps the query's mask, with no warning), and
no `_keras_mask` attribute on a plain tensor.
TF runs in a subprocess (tf_workers.spawn; this module is its worker).
"""

from __future__ import annotations

import warnings
from dataclasses import dataclass
from typing import Any

import numpy as np
import pytest

import tf_cases
import tf_workers
from test_layers_conv_norm_tf import assert_same

pytestmark = [pytest.mark.tf, tf_workers.tf_or_golden(__file__)]

SEEDING, MASK = "keras.init.seeding", "keras.mask.propagation"


@dataclass(frozen=True)
class Case:
    name: str
    program: str
    seed: int = 1
    clause: str = SEEDING
    strategy: str = "default"
    shuffle: Any = True
    samples: int = 32
    epochs: int = 2
    rtol: float = 1e-5     # trained weights: float32 sums in oneDNN's order may differ by an ulp


CASES = [
    Case("mlp-initial-weights", "mlp_init"),
    Case("mlp-initial-weights-seed-7", "mlp_init", seed=7),
    Case("conv-bn-initial-weights", "conv_init"),
    Case("lstm-gru-initial-weights", "rnn_init", rtol=1e-6),
    Case("embedding-attention-initial-weights", "attention_init"),
    Case("dropout-masks", "dropout"),
    Case("keras-random-unseeded", "keras_random"),
    Case("two-seeds-two-models", "reseed"),
    Case("fit-shuffle-dropout-adam", "fit"),
    Case("fit-under-mirrored", "fit", strategy="mirrored2"),
    Case("fit-shuffle-batch", "fit", shuffle="batch"),
    Case("fit-partial-batch-three-epochs", "fit", samples=30, epochs=3),
    Case("embedding-mask-attribute", "embedding_mask", clause=MASK),
    Case("masking-layer-mask-attribute", "masking_mask", clause=MASK),
    Case("attention-keeps-query-mask", "attention_mask", clause=MASK),
]


def _weights(model: Any) -> list[np.ndarray]:
    return [np.asarray(w) for w in model.get_weights()]


def _mlp(keras: Any) -> Any:
    return keras.Sequential([keras.Input((6,)), keras.layers.Dense(8, activation="relu"),
                             keras.layers.Dropout(0.3), keras.layers.Dense(3)])


def _mask_of(t: Any) -> Any:
    m = getattr(t, "_keras_mask", None)
    return None if m is None else np.asarray(m)


def run(tf: Any, case: Case) -> Any:
    keras = tf.keras
    keras.backend.clear_session()
    keras.utils.set_random_seed(case.seed)
    data = np.random.default_rng(3)          # the inputs: independent of the seeded generators
    if case.program == "mlp_init":
        return _weights(_mlp(keras))
    if case.program == "conv_init":
        model = keras.Sequential([keras.Input((6, 6, 2)), keras.layers.Conv2D(3, 3), keras.layers.BatchNormalization(),
                                  keras.layers.Flatten(), keras.layers.Dense(2, kernel_initializer="he_normal")])
        return _weights(model)
    if case.program == "rnn_init":
        model = keras.Sequential([keras.Input((4, 3)), keras.layers.LSTM(4, return_sequences=True), keras.layers.GRU(2)])
        return _weights(model)
    if case.program == "attention_init":
        inp = keras.Input((5,), dtype="int32")
        e = keras.layers.Embedding(9, 4)(inp)
        o = keras.layers.MultiHeadAttention(2, 3)(e, e)
        return _weights(keras.Model(inp, o))
    if case.program == "dropout":
        x = np.ones((3, 8), np.float32)
        layer = keras.layers.Dropout(0.5)
        return [np.asarray(layer(x, training=True)), np.asarray(layer(x, training=True)),
                np.asarray(keras.layers.Dropout(0.25)(x, training=True))]
    if case.program == "keras_random":
        return [np.asarray(keras.random.normal((2, 3))), np.asarray(keras.random.uniform((4,))),
                np.asarray(keras.random.normal((2,), seed=5))]
    if case.program == "reseed":
        first = _weights(_mlp(keras))
        keras.utils.set_random_seed(2)
        second = _weights(_mlp(keras))
        keras.utils.set_random_seed(case.seed)
        again = _weights(_mlp(keras))
        return {"first": first, "second": second, "again": again}
    if case.program == "fit":
        x = data.standard_normal((case.samples, 6)).astype(np.float32)
        y = data.integers(0, 3, size=(case.samples,))
        with tf_cases.strategy(tf, case.strategy).scope():
            model = _mlp(keras)
            model.compile(optimizer=keras.optimizers.Adam(0.01),
                          loss=keras.losses.SparseCategoricalCrossentropy(from_logits=True))
        initial = _weights(model)
        history = model.fit(x, y, batch_size=8, epochs=case.epochs, shuffle=case.shuffle, verbose=0)
        return {"initial": initial, "loss": np.asarray(history.history["loss"]), "final": _weights(model)}
    if case.program == "embedding_mask":
        ids = np.array([[3, 5, 0, 0], [2, 0, 0, 0]], np.int32)
        out = keras.layers.Embedding(8, 4, mask_zero=True)(ids)
        return {"mask": _mask_of(out), "plain_tensor_has_mask": hasattr(tf.constant([1.0]), "_keras_mask")}
    if case.program == "masking_mask":
        x = data.standard_normal((2, 4, 3)).astype(np.float32)
        x[0, 2:] = 0.0
        x[1, 1] = 0.0
        out = keras.layers.Masking(0.0)(x)
        return {"mask": _mask_of(out), "values": np.asarray(out)}
    if case.program == "attention_mask":
        ids = np.array([[3, 5, 0, 0], [2, 0, 0, 0]], np.int32)
        x = keras.layers.Embedding(8, 4, mask_zero=True)(ids)
        mha = keras.layers.MultiHeadAttention(2, 3)
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            y = mha(x, x)
        inp = keras.Input((4,), dtype="int32")
        e = keras.layers.Embedding(8, 4, mask_zero=True)(inp)
        model = keras.Model(inp, keras.layers.LSTM(2)(keras.layers.MultiHeadAttention(2, 3)(e, e)))
        return {"supports_masking": mha.supports_masking, "mask": _mask_of(y), "values": np.asarray(y),
                "warnings": sorted(str(w.message).split(".")[0] for w in caught),
                "masked_model": np.asarray(model(ids))}
    raise AssertionError(f"unknown program {case.program!r}")


tf_results = tf_cases.results_fixture(__file__, CASES)


@pytest.mark.clause("keras.init.seeding")
@pytest.mark.parametrize("index", tf_cases.params(CASES, SEEDING))
def test_set_random_seed_gives_tf_values(index: int, tf_results: dict[int, Any]) -> None:
    case = CASES[index]
    assert_same(tf_cases.on_simdist(run, case), tf_results[index], case.name, case.rtol)


@pytest.mark.clause("keras.mask.propagation")
@pytest.mark.parametrize("index", tf_cases.params(CASES, MASK))
def test_keras_mask_attribute_as_tf(index: int, tf_results: dict[int, Any]) -> None:
    case = CASES[index]
    assert_same(tf_cases.on_simdist(run, case), tf_results[index], case.name, case.rtol)


@pytest.mark.clause("keras.init.seeding")
def test_the_seeded_cases_are_informative(tf_results: dict[int, Any]) -> None:
    """Recorded answers, checked rather than assumed: two seeds give two models, and seeding
    again repeats the first, on TF."""
    want = tf_results[next(i for i, c in enumerate(CASES) if c.program == "reseed")]
    assert not np.array_equal(want["first"][0], want["second"][0]), "TF gave one model for seeds 1 and 2"
    assert all(np.array_equal(a, b) for a, b in zip(want["first"], want["again"])), \
        "TF did not repeat the model after set_random_seed(1) again"


if __name__ == "__main__":  # TF worker
    import os
    tf_workers.serve(tf_cases.worker(CASES, run))
    os._exit(0)
