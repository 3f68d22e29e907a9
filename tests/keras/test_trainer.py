"""The Keras training loop on simdist alone: what the differential tests cannot check against TF
(determinism, simulated time, the checkpoint extension) and Keras's argument errors."""

from __future__ import annotations

import contextlib
import io
from typing import Any

import numpy as np
import pytest

import simdist
from simdist import tf

keras = tf.keras
X = np.random.default_rng(3).standard_normal((40, 4)).astype("float32")
Y = (X[:, 0] > 0).astype("int32")


def _machine(cpus: int = 2, seed: int = 0) -> None:
    simdist.configure(seed=seed)
    cpu = tf.config.list_physical_devices("CPU")[0]
    tf.config.set_logical_device_configuration(cpu, [tf.config.LogicalDeviceConfiguration()] * cpus)


def _model(strategy: Any = None, opt: Any = None) -> Any:
    with (strategy.scope() if strategy is not None else contextlib.nullcontext()):
        model = keras.Sequential([keras.Input((4,)), keras.layers.Dense(2)])
        model.set_weights([np.full((4, 2), 0.1, "float32"), np.zeros(2, "float32")])
        model.compile(optimizer=opt or keras.optimizers.SGD(0.1), metrics=["accuracy"],
                      loss=keras.losses.SparseCategoricalCrossentropy(from_logits=True))
    return model


@pytest.mark.clause("keras.fit.data")
def test_shuffle_is_deterministic_and_follows_the_root_seed() -> None:
    def orders(seed: int) -> list[list[int]]:
        _machine(seed=seed)
        model = _model()
        seen: list[list[int]] = []

        class Record(keras.callbacks.Callback):
            def on_epoch_end(self, epoch: int, logs: Any = None) -> None:
                seen.append(list(np.round(model.get_weights()[0].ravel(), 6)))

        model.fit(X, Y, batch_size=8, epochs=2, verbose=0, shuffle=True, callbacks=[Record()])
        return seen

    a, b, c = orders(0), orders(0), orders(5)
    assert a == b, "fit(shuffle=True) gave different weights in two runs with the same root seed"
    assert a != c, "fit(shuffle=True) gave the same weights under root seeds 0 and 5 (the order ignores the seed)"
    _machine()
    unshuffled = _model()
    unshuffled.fit(X, Y, batch_size=8, epochs=2, verbose=0, shuffle=False)
    assert list(np.round(unshuffled.get_weights()[0].ravel(), 6)) != a[-1], \
        "shuffle=True trained exactly as shuffle=False: the examples were not permuted"


@pytest.mark.clause("keras.fit.progress-bar")
def test_progress_output_is_the_same_on_every_run() -> None:
    def run() -> str:
        _machine()
        model = _model(tf.distribute.MirroredStrategy(["/cpu:0", "/cpu:1"]))
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            model.fit(X, Y, batch_size=8, epochs=2, verbose=1, validation_split=0.25)
            model.evaluate(X, Y, batch_size=8, verbose=1)
            model.predict(X, batch_size=8, verbose=2)
        return out.getvalue()

    first, second = run(), run()
    assert first == second, f"progress output differs between two runs:\n{first!r}\n{second!r}"
    assert first.startswith("Epoch 1/2\n"), f"first line {first.splitlines()[0]!r}, expected 'Epoch 1/2'"
    assert "\x1b[1m4/4\x1b[0m" in first and "- val_loss:" in first, f"no final bar with val_loss in {first!r}"


@pytest.mark.clause("keras.fit.distributed-step")
def test_fit_charges_simulated_time() -> None:
    _machine()
    model = _model(tf.distribute.MirroredStrategy(["/cpu:0", "/cpu:1"]))
    t0 = simdist.now()
    model.fit(X, Y, batch_size=8, epochs=1, verbose=0)
    t1 = simdist.now()
    assert t1 > t0, f"fit of 5 steps on 2 replicas left the simulated clock at {t0} -> {t1}"


@pytest.mark.clause("keras.fit.callbacks")
def test_model_checkpoint_with_a_tf_train_checkpoint(tmp_path: Any) -> None:
    _machine()
    strategy = tf.distribute.MirroredStrategy(["/cpu:0", "/cpu:1"])
    model = _model(strategy, opt=None)
    ckpt = tf.train.Checkpoint(model=model, optimizer=model.optimizer)
    path = str(tmp_path / "ckpt-{epoch}")
    model.fit(X, Y, batch_size=8, epochs=2, verbose=0, shuffle=False,
              callbacks=[keras.callbacks.ModelCheckpoint(path, checkpoint=ckpt, monitor="loss")])
    after = [w.copy() for w in model.get_weights()]
    model.set_weights([np.zeros_like(w) for w in after])
    ckpt.restore(str(tmp_path / "ckpt-2"))
    for got, want in zip(model.get_weights(), after):
        np.testing.assert_allclose(got, want, err_msg="weights restored from ModelCheckpoint's tf.train.Checkpoint")


@pytest.mark.clause("keras.fit.callbacks")
def test_model_checkpoint_save_best_only(tmp_path: Any) -> None:
    _machine()
    model = _model(opt=keras.optimizers.SGD(0.0))
    saved: list[str] = []
    model.save_weights = lambda p, overwrite=True: saved.append(p)     # (records the calls)
    cb = keras.callbacks.ModelCheckpoint(str(tmp_path / "m-{epoch}.weights.h5"), save_weights_only=True,
                                         save_best_only=True, monitor="loss")
    model.fit(X, Y, batch_size=8, epochs=3, verbose=0, callbacks=[cb])
    assert [p.rsplit("/", 1)[1] for p in saved] == ["m-1.weights.h5"], \
        f"with a constant loss only the first epoch improves; saved {saved}"
    with pytest.raises(ValueError, match="must end in `.keras`"):
        keras.callbacks.ModelCheckpoint(str(tmp_path / "m.ckpt"))
    with pytest.raises(ValueError, match="Unrecognized save_freq"):
        keras.callbacks.ModelCheckpoint(str(tmp_path / "m.keras"), save_freq="batch")


@pytest.mark.clause("keras.fit.data")
def test_argument_errors() -> None:
    _machine()
    model = keras.Sequential([keras.Input((4,)), keras.layers.Dense(2)])
    with pytest.raises(ValueError, match="You must call `compile\\(\\)` before using the model"):
        model.fit(X, Y, verbose=0)
    model.compile(optimizer="sgd", loss="mse", steps_per_execution=0)   # (Keras 3.15 accepts it: open49)
    with pytest.raises(ValueError, match="range\\(\\) arg 3 must not be zero"):   # (the epoch iterator's range)
        model.fit(X, Y, verbose=0)
    with pytest.raises(ValueError, match="Expected `metrics` argument to be a list, tuple, or dict"):
        model.compile(optimizer="sgd", loss="mse", metrics="accuracy")
    model = _model()
    with pytest.raises(ValueError, match="You cannot `class_weight` and `sample_weight` at the same time"):
        model.fit(X, Y, verbose=0, class_weight={0: 1.0}, sample_weight=np.ones(40))
    with pytest.raises(ValueError, match="Data cardinality is ambiguous"):
        model.fit(X, Y[:30], verbose=0)
    with pytest.raises(ValueError, match="not sufficient to split"):
        model.fit(X[:1], Y[:1], verbose=0, validation_split=0.5)
    with pytest.raises(ValueError, match="the generator must return a tuple"):   # (keras.fit.python-inputs)
        model.fit((x for x in X), verbose=0)
    with pytest.raises(ValueError, match="Unrecognized data type"):
        model.fit({1, 2, 3}, verbose=0)


@pytest.mark.clause("keras.predict.order")
def test_on_batch_methods_and_return_forms() -> None:
    _machine()
    model = _model(tf.distribute.MirroredStrategy(["/cpu:0", "/cpu:1"]))
    logs = model.train_on_batch(X[:8], Y[:8], return_dict=True)
    assert sorted(logs) == ["accuracy", "loss"], f"train_on_batch(return_dict=True) keys {sorted(logs)}"
    values = model.test_on_batch(X[:8], Y[:8])
    assert isinstance(values, list) and len(values) == 2, f"test_on_batch gave {values!r}, expected [loss, acc]"
    # TF 2.21: the *_on_batch methods give the whole batch to every replica, and predict_on_batch
    # concatenates the replicas' outputs: 2 x 8 rows under Mirrored(2) (observed on TF 2.21).
    pred = model.predict_on_batch(X[:8])
    one = X[:8] @ model.get_weights()[0] + model.get_weights()[1]
    np.testing.assert_allclose(pred, np.concatenate([one, one]), rtol=1e-5, atol=1e-7,
                               err_msg="predict_on_batch under Mirrored(2)")
    only_loss = keras.Sequential([keras.Input((4,)), keras.layers.Dense(1)])
    only_loss.compile(optimizer="sgd", loss="mse")
    got = only_loss.evaluate(X, X[:, :1], verbose=0)
    assert isinstance(got, float), f"evaluate with only a loss should return one float, got {got!r}"
