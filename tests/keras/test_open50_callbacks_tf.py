"""The built-in callbacks' attributes before and after fit, on TF 2.21 + Keras 3.15 (the fiftieth session, helper
open50; clause keras.callback.early-stopping): EarlyStopping.best_epoch and History.epoch exist only from
on_train_begin (AttributeError before fit); MonitorCallback.monitor_op is `keras.ops.less`/`greater` (a tensor).
Each case: a list of [callback, before/after, attribute, shown value or [error class, message]].
"""

from __future__ import annotations

import os
from typing import Any

import numpy as np
import pytest

import tf_programs
import tf_workers

pytestmark = [pytest.mark.tf, tf_workers.tf_or_golden(__file__)]

ATTRS = {
    "EarlyStopping": ["best_epoch", "best", "wait", "stopped_epoch", "best_weights", "patience", "baseline",
                      "min_delta", "monitor_op", "monitor", "mode", "restore_best_weights", "start_from_epoch"],
    "ReduceLROnPlateau": ["best", "wait", "cooldown_counter", "monitor_op", "factor", "min_lr", "min_delta",
                          "patience", "cooldown", "mode", "monitor", "verbose"],
    "ModelCheckpoint": ["best", "monitor_op", "save_best_only", "save_weights_only", "save_freq",
                        "epochs_since_last_save", "mode", "initial_value_threshold"],
    "History": ["history", "epoch"],
    "CSVLogger": ["keys", "append_header", "separator", "append"],
    "BackupAndRestore": ["save_freq", "double_checkpoint", "delete_checkpoint"],
}


def _show(x: Any) -> Any:
    if isinstance(x, (list, tuple)) and x and hasattr(x[0], "shape"):
        return ["weights", len(x)]
    if hasattr(x, "numpy"):
        return ["tensor", np.round(np.asarray(x.numpy(), np.float64), 5).tolist()]
    if isinstance(x, (float, np.floating)):
        return [type(x).__name__, round(float(x), 5)]
    if callable(x) and hasattr(x, "__name__"):
        return ["function", x.__name__]
    if isinstance(x, dict):
        return ["dict", {k: np.round(np.asarray(v, np.float64), 5).tolist() for k, v in x.items()}]
    return [type(x).__name__, repr(x)[:80]]


def _make(keras: Any, name: str, workdir: str) -> Any:
    if name == "ModelCheckpoint":
        return keras.callbacks.ModelCheckpoint(os.path.join(workdir, "c.keras"), save_best_only=True)
    if name == "CSVLogger":
        return keras.callbacks.CSVLogger(os.path.join(workdir, "l.csv"))
    if name == "BackupAndRestore":
        return keras.callbacks.BackupAndRestore(os.path.join(workdir, "bk"))
    if name == "EarlyStopping":
        return keras.callbacks.EarlyStopping(patience=1, restore_best_weights=True)
    if name == "ReduceLROnPlateau":
        return keras.callbacks.ReduceLROnPlateau(patience=1, mode="max")
    return getattr(keras.callbacks, name)()


def program(tf: Any, case: dict, workdir: str) -> Any:
    keras = tf.keras
    out: list[Any] = []
    keras.utils.set_random_seed(3)
    x = np.arange(16, dtype="float32").reshape(8, 2) / 16
    y = np.ones((8, 1), "float32")
    name = case["name"]
    cb = _make(keras, name, workdir)

    def observe(when: str) -> None:
        for a in ATTRS[name]:
            try:
                out.append([name, when, a, _show(getattr(cb, a))])
            except BaseException as e:  # noqa: BLE001 - the class and text are what is compared
                out.append([name, when, a, [type(e).__name__, str(e)[:80]]])
        if getattr(cb, "monitor_op", None) is not None:
            out.append([name, when, "monitor_op(1.0, 2.0)", _show(cb.monitor_op(1.0, 2.0))])

    observe("before")
    m = keras.Sequential([keras.Input((2,)), keras.layers.Dense(1, kernel_initializer="ones")])
    m.compile(loss="mse", optimizer=keras.optimizers.SGD(0.5))
    m.fit(x, y, epochs=4, verbose=0, callbacks=[cb], validation_data=None if name == "History" else (x, y))
    observe("after")
    return out


CASES: dict[str, dict] = {n: {"strategy": "default", "name": n} for n in ATTRS}
NAMES = list(CASES)


@pytest.fixture(scope="module")
def tf_results(request: Any) -> dict[int, Any]:
    return tf_programs.spawn(__file__, CASES, tf_programs.selected(request, __file__))


@pytest.mark.clause("keras.callback.early-stopping")
@pytest.mark.parametrize("index", range(len(NAMES)), ids=NAMES)
def test_callback_attributes_as_tf(index: int, tf_results: dict[int, Any], tmp_path: Any) -> None:
    name = NAMES[index]
    got, want = tf_programs.on_simdist(program, CASES[name], str(tmp_path)), tf_results[index]
    assert [g[:3] for g in got] == [w[:3] for w in want], f"{name}: observations differ"
    bad = [f"{w[1]} {w[2]}: simdist gives {g[3]}, TF 2.21 gives {w[3]}" for g, w in zip(got, want) if g != w]
    assert not bad, f"{name}: " + "; ".join(bad)


if __name__ == "__main__":  # TF worker
    tf_workers.serve(tf_programs.worker(CASES, program))
