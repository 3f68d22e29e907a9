"""Differential tests of `tf.keras.callbacks.BackupAndRestore`: simdist vs TF 2.21 + Keras 3.15.1.

Each case is one program, the same on both backends, as Keras's own tests interrupt a fit: a small
MLP (weights from the same NumPy arrays) with an optimizer that has state (SGD with momentum, or
Adam) is fit with BackupAndRestore and a callback that raises at a given epoch or batch; the
program then builds a *new* model (as a restarted job would), fits it again with a
BackupAndRestore on the same directory, and records what Keras restored and did: the files of the
backup directory and their metadata after the interruption, the (epoch, batch) pairs each fit
trained and their losses, the optimizer's iteration count, the final weights, and whether the
directory is left. TF runs in a subprocess (tf_workers.spawn; this module is its worker); its
answers are kept in tests/goldens/ for installs without TensorFlow.

Tolerances as tests/keras/test_fit_tf.py: rtol 1e-4, atol 1e-6.
"""

from __future__ import annotations

import json
import os
from typing import Any

import numpy as np
import pytest

import tf_programs
import tf_workers

pytestmark = [pytest.mark.tf, tf_workers.tf_or_golden(__file__)]

RTOL, ATOL = 1e-4, 1e-6
N, D, H, C = 48, 8, 16, 4   # batch 16: 3 batches an epoch

BASE = dict(strategy="default", epochs=5, save_freq="epoch", stop=("epoch_begin", 3, None), opt="momentum",
            double=False, delete=True, corrupt=False, same_callback=False)
CASES: dict[str, dict] = {}


def case(name: str, **kw: Any) -> None:
    CASES[name] = {**BASE, **kw}


# interrupted as Keras's docstring does: at the beginning of epoch 3
case("default-epoch")
# interrupted in the middle of epoch 2 (after its batch 1): the last backup is epoch 1's end
case("default-epoch-midway", stop=("batch_end", 2, 1))
# every 2 batches: the last backup before the stop was made mid-epoch
case("default-steps2-midway", save_freq=2, stop=("batch_end", 2, 1))
case("default-steps4-adam", save_freq=4, stop=("batch_end", 3, 0), opt="adam")
case("one_device-steps2", strategy="one_device", save_freq=2, stop=("batch_end", 2, 1))
case("mirrored2-epoch", strategy="mirrored2", stop=("batch_end", 3, 2))
case("mirrored2-steps2-adam", strategy="mirrored2", save_freq=2, stop=("batch_end", 2, 1), opt="adam")
case("central_storage2-steps2", strategy="central_storage2", save_freq=2, stop=("batch_end", 2, 1))
# the same callback object in both fits (its epoch count then carries over into mid-epoch backups)
case("default-steps2-same-callback", save_freq=2, stop=("batch_end", 2, 1), same_callback=True)
# double_checkpoint: a damaged latest weights file falls back to the previous backup
case("default-double-corrupt", double=True, corrupt=True, stop=("batch_end", 3, 1), save_freq=2)
case("default-keep", delete=False)
case("error-save-freq", save_freq="batch")


def _data() -> dict[str, Any]:
    rng = np.random.default_rng(11)
    x = rng.standard_normal((N, D)).astype(np.float32)
    y = rng.integers(0, C, N).astype(np.int32)
    w = [rng.standard_normal((D, H)).astype(np.float32) * 0.4, np.zeros(H, np.float32),
         rng.standard_normal((H, C)).astype(np.float32) * 0.4, np.zeros(C, np.float32)]
    return {"x": x, "y": y, "w": w}


def _strategy(tf: Any, kind: str) -> Any:
    if kind == "default":
        return tf.distribute.get_strategy()
    if kind == "one_device":
        return tf.distribute.OneDeviceStrategy("/cpu:1")
    n = int(kind[-1])
    devices = [f"/cpu:{i}" for i in range(n)]
    if kind.startswith("mirrored"):
        return tf.distribute.MirroredStrategy(devices)
    return tf.distribute.experimental.CentralStorageStrategy(devices)


def _listing(directory: str) -> dict[str, Any]:
    """The backup directory: file names, and the metadata files' JSON."""
    if not os.path.isdir(directory):
        return {"exists": False}
    out: dict[str, Any] = {"exists": True, "files": sorted(os.listdir(directory))}
    for name in out["files"]:
        if name.startswith("training_metadata.json"):
            with open(os.path.join(directory, name)) as f:
                out[name] = json.loads(f.read())
    return out


def program(tf: Any, c: dict, workdir: str) -> dict[str, Any]:
    """Interrupted fit, then a new model's fit on the same backup directory; what each did."""
    keras = tf.keras
    d = _data()
    strategy = _strategy(tf, c["strategy"])
    backup = os.path.join(workdir, "backup")
    out: dict[str, Any] = {}

    def make_model(shift: float) -> Any:
        with strategy.scope():
            model = keras.Sequential([keras.Input((D,)), keras.layers.Dense(H, activation="relu"),
                                      keras.layers.Dense(C)])
            opt = (keras.optimizers.Adam(0.01) if c["opt"] == "adam"
                   else keras.optimizers.SGD(0.1, momentum=0.9))
            model.compile(optimizer=opt, loss=keras.losses.SparseCategoricalCrossentropy(from_logits=True))
        model.set_weights([w + shift for w in d["w"]])   # the restarted model starts from other weights
        return model

    class Record(keras.callbacks.Callback):
        def __init__(self, into: list) -> None:
            super().__init__()
            self.into = into
            self.epoch = -1

        def on_epoch_begin(self, epoch: int, logs: Any = None) -> None:
            self.epoch = epoch

        def on_train_batch_end(self, batch: int, logs: Any = None) -> None:
            self.into.append((self.epoch, batch, float((logs or {}).get("loss", np.nan))))

    class Interrupt(keras.callbacks.Callback):
        def __init__(self, where: str, epoch: int, batch: Any) -> None:
            super().__init__()
            self.where, self.at_epoch, self.at_batch, self.epoch = where, epoch, batch, -1

        def on_epoch_begin(self, epoch: int, logs: Any = None) -> None:
            self.epoch = epoch
            if self.where == "epoch_begin" and epoch == self.at_epoch:
                raise RuntimeError("Interrupting!")

        def on_train_batch_end(self, batch: int, logs: Any = None) -> None:
            if self.where == "batch_end" and (self.epoch, batch) == (self.at_epoch, self.at_batch):
                raise RuntimeError("Interrupting!")

    def backup_cb() -> Any:
        return keras.callbacks.BackupAndRestore(backup, save_freq=c["save_freq"], double_checkpoint=c["double"],
                                                delete_checkpoint=c["delete"])

    fit_kw: dict[str, Any] = {"epochs": c["epochs"], "batch_size": 16, "verbose": 0, "shuffle": False}
    try:
        first: list = []
        model = make_model(0.0)
        cb = backup_cb()
        try:
            model.fit(d["x"], d["y"], callbacks=[cb, Record(first), Interrupt(*c["stop"])], **fit_kw)
            out["interrupted"] = None
        except RuntimeError as e:
            out["interrupted"] = str(e)
        out["first"] = first
        out["after_interrupt"] = _listing(backup)
        if c["corrupt"]:
            with open(os.path.join(backup, "latest.weights.h5"), "wb") as f:
                f.write(b"not an HDF5 file")
        second: list = []
        model2 = make_model(0.25)
        history = model2.fit(d["x"], d["y"], callbacks=[cb if c["same_callback"] else backup_cb(), Record(second)],
                             **fit_kw)
        out["second"] = second
        out["history_len"] = len(history.history.get("loss", []))
        out["iterations"] = int(np.asarray(model2.optimizer.iterations))
        out["weights"] = [np.asarray(w, np.float64).tolist() for w in model2.get_weights()]
        out["after_fit"] = _listing(backup)
    except Exception as e:  # noqa: BLE001 - the error is part of the result
        out["error"] = (type(e).__name__, str(e).split("\n")[0][:300])
    return out


def _close(got: Any, want: Any, where: str) -> None:
    tf_programs.close(got, want, where, RTOL, ATOL)


def compare(got: dict, want: dict, name: str) -> None:
    assert ("error" in got) == ("error" in want), f"{name}: simdist {got.get('error')}, TF 2.21 {want.get('error')}"
    if "error" in want:
        assert got["error"] == want["error"], f"{name}: simdist raises {got['error']}, TF 2.21 {want['error']}"
        return
    assert got["interrupted"] == want["interrupted"], \
        f"{name}: first fit interrupted {got['interrupted']!r}, TF 2.21 {want['interrupted']!r}"
    for key in ("after_interrupt", "after_fit"):
        assert got[key] == want[key], f"{name}: backup directory {key}: simdist {got[key]}, TF 2.21 {want[key]}"
    for key in ("first", "second"):
        g = [(e, b) for e, b, _ in got[key]]
        w = [(e, b) for e, b, _ in want[key]]
        assert g == w, f"{name}: {key} fit trained (epoch, batch) {g}, TF 2.21 {w}"
        _close([v for _, _, v in got[key]], [v for _, _, v in want[key]], f"{name}: {key} fit's batch losses")
    assert got["history_len"] == want["history_len"], \
        f"{name}: resumed fit's History has {got['history_len']} epochs, TF 2.21 {want['history_len']}"
    assert got["iterations"] == want["iterations"], \
        f"{name}: optimizer.iterations after the resumed fit {got['iterations']}, TF 2.21 {want['iterations']}"
    for i, (g, w) in enumerate(zip(got["weights"], want["weights"])):
        _close(g, w, f"{name}: final weight {i}")


# The default run keeps a slice of the cases (one per kind of behaviour); the rest are slow.
SLOW = ['default-epoch-midway', 'default-steps4-adam', 'one_device-steps2', 'mirrored2-epoch', 'default-steps2-same-callback', 'default-keep']


def _param(i: int, name: str) -> Any:
    return pytest.param(i, id=name, marks=[pytest.mark.slow] if name in SLOW else [])


@pytest.fixture(scope="module")
def tf_results(request: Any) -> dict[int, Any]:
    """TF's results of the selected cases (tf_programs.spawn: a TF process per strategy size)."""
    return tf_programs.spawn(__file__, CASES, tf_programs.selected(request, __file__))


@pytest.mark.clause("keras.backup-and-restore.resume")
@pytest.mark.parametrize("index", [_param(i, n) for i, n in enumerate(CASES)])
def test_backup_and_restore(index: int, tf_results: dict[int, Any], tmp_path: Any) -> None:
    name = list(CASES)[index]
    compare(tf_programs.on_simdist(program, CASES[name], str(tmp_path)), tf_results[index], name)


if __name__ == "__main__":  # TF worker
    tf_workers.serve(tf_programs.worker(CASES, program))
    os._exit(0)
