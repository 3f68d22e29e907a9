"""BackupAndRestore on simulated time: a backup costs what a `tf.train.Checkpoint` of the same
variables costs (each variable's copy from its device to the host), and a fit with backups takes
exactly that much longer per backup than the same fit without."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import simdist
from simdist import tf


def _model() -> Any:
    keras = tf.keras
    model = keras.Sequential([keras.Input((64,)), keras.layers.Dense(512), keras.layers.Dense(10)])
    model.compile(optimizer=keras.optimizers.SGD(0.1, momentum=0.9), loss="mse")
    model.optimizer.build(model.trainable_variables)
    return model


def _on_gpu() -> None:
    simdist.reset()
    simdist.configure(gpus=1)
    tf.keras.backend.clear_session()


@pytest.mark.clause("keras.backup-and-restore.resume")
def test_weight_files_cost_what_a_checkpoint_of_the_same_variables_costs(tmp_path: Any) -> None:
    def cost(write: Any) -> float:
        _on_gpu()
        model = _model()
        t0 = simdist.now()
        write(model)
        return simdist.now() - t0

    weights = cost(lambda m: m.save_weights(str(tmp_path / "m.weights.h5")))
    ckpt = cost(lambda m: tf.train.Checkpoint(v=list(m.variables) + list(m.optimizer.variables)).write(
        str(tmp_path / "c")))
    assert weights > 0, "save_weights of GPU variables should cost simulated time"
    assert weights == ckpt, f"save_weights took {weights:g} s, a Checkpoint of the same variables {ckpt:g} s"
    _on_gpu()
    model = _model()
    model.save_weights(str(tmp_path / "m.weights.h5"))
    t0 = simdist.now()
    model.load_weights(str(tmp_path / "m.weights.h5"))
    assert simdist.now() - t0 == weights, f"load_weights took {simdist.now() - t0:g} s, the save {weights:g} s " \
                                          "(the same copies, the other way)"


@pytest.mark.clause("keras.backup-and-restore.resume")
@pytest.mark.parametrize("save_freq,saves", [("epoch", 3), (2, 6)])
def test_a_fit_with_backups_takes_one_save_longer_per_backup(tmp_path: Any, save_freq: Any, saves: int) -> None:
    rng = np.random.default_rng(0)
    x, y = rng.standard_normal((48, 64)).astype(np.float32), rng.standard_normal((48, 10)).astype(np.float32)

    def fit_time(callbacks: list) -> float:
        _on_gpu()
        model = _model()
        t0 = simdist.now()
        model.fit(x, y, batch_size=12, epochs=3, verbose=0, shuffle=False, callbacks=callbacks)
        return simdist.now() - t0

    _on_gpu()
    model = _model()
    t0 = simdist.now()
    model.save_weights(str(tmp_path / "one.weights.h5"))
    one_save = simdist.now() - t0
    plain = fit_time([])
    backed = fit_time([tf.keras.callbacks.BackupAndRestore(str(tmp_path / "b"), save_freq=save_freq)])
    assert backed - plain == pytest.approx(saves * one_save, rel=1e-9, abs=1e-12), \
        f"fit with backups took {backed - plain:g} s more, but should take {saves} saves x {one_save:g} s"
