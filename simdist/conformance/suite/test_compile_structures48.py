"""compile()'s loss structures under a strategy the model captured: Keras 3.15 builds the compiled loss through the
loss computation itself (`_symbolic_build`: compute_output_spec(self._compute_loss, ...)), so a dict of targets for a
list of outputs is mapped by output name before the loss is built, under any strategy. simdist built it from the raw
targets under a captured strategy: KeyError "The path: (0,) in the `loss` argument, can't be found ..." where TF
trains (found by the training fuzzer, kfuzz48: seed 4820261201 #12, #30, #34, #38; forty-eighth session)."""

from __future__ import annotations

import numpy as np
import pytest

clause = pytest.mark.clause


def _fit(backend, keras, kind, loss, y_form, weights=None):
    strategy = backend.make_strategy(kind, 2 if kind == "mirrored" else 1)
    keras.utils.set_random_seed(1)
    with strategy.scope():
        a = keras.Input((3,), name="a")
        o1 = keras.layers.Dense(1, name="o1")(a)
        o2 = keras.layers.Dense(2, name="o2")(a)
        model = keras.Model(a, [o1, o2])
        model.compile(optimizer="sgd", loss=loss, loss_weights=weights)
    x = np.linspace(-1, 1, 12, dtype="float32").reshape(4, 3)
    t1, t2 = np.ones((4, 1), "float32"), np.arange(8, dtype="float32").reshape(4, 2) / 8
    y = {"o1": t1, "o2": t2} if y_form == "dict" else [t1, t2]
    hist = model.fit(x, y, epochs=2, batch_size=2, verbose=0, shuffle=False).history
    return {k: [round(float(v), 5) for v in vals] for k, vals in hist.items()}


@clause("keras.compile.loss-weights", ref="tf221")
@pytest.mark.parametrize("kind", ["one_device", "mirrored"])
@pytest.mark.parametrize("loss, y_form, weights", [
    ({"o1": "mse", "o2": "mae"}, "dict", None),
    ({"o1": "mse", "o2": "mae"}, "list", None),
    (["mse", "mae"], "dict", None),
    ({"o1": "mse", "o2": "mae"}, "dict", {"o1": 0.5, "o2": 2.0}),
], ids=["dict-loss-dict-y", "dict-loss-list-y", "list-loss-dict-y", "dict-weights"])
def test_loss_structures_train_under_a_captured_strategy_as_under_the_default(backend, keras, kind, loss, y_form,
                                                                              weights):
    """The same fit (two outputs of a functional model, a loss dict or list, targets as a dict or a list) under a
    captured strategy gives the history the default strategy gives (all replicas see the same batches' mean)."""
    want = _fit(backend, keras, "default", loss, y_form, weights)
    got = _fit(backend, keras, kind, loss, y_form, weights)
    assert set(got) == set(want) == {"loss", "o1_loss", "o2_loss"}, \
        f"history keys {sorted(got)} under {kind}, {sorted(want)} under the default strategy, " \
        "but both should be ['loss', 'o1_loss', 'o2_loss']"
    for k in want:
        np.testing.assert_allclose(got[k], want[k], rtol=1e-4, atol=1e-6,
                                   err_msg=f"history[{k!r}] under {kind}, but should be the default strategy's")
