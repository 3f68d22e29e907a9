"""One callback instance in two fits (issue 29, kreuse): every EarlyStopping, ReduceLROnPlateau, ModelCheckpoint and
LearningRateScheduler setting of harden19b's grids (harden19b_callbacks.CALLBACK_CASES), its callback built once and
passed to the fit of a fresh model twice.

Programs reuse callback objects (a list of callbacks built once, then `fit` per fold or per restart), and Keras 3.15
decides what carries over: EarlyStopping and ReduceLROnPlateau reset their wait, best and counters in
`on_train_begin`, so the second fit repeats the first; ModelCheckpoint keeps its `best` across fits (set only in its
constructor), so a second fit with save_best_only writes only what beats the first fit's best. A planted bug in a
reset (a kept best, a counter not cleared) leaves a single fit alone and shows here.

The scripted loss is harden19b's (one weight, loss w**2, SGD's lr deciding whether it drops, holds or rises), so
every decision is exact. Observed per fit: History, each epoch's lr and weight; after both: the callback's state and
the files written. Nothing here imports TensorFlow.
"""

from __future__ import annotations

import os
from typing import Any

from simdist.conformance.suite import harden19b_callbacks as cb19

#: The harden19b kinds whose callbacks keep state between fits.
KINDS = ("early_stopping", "reduce_lr", "checkpoint", "scheduler")


def cases() -> list[str]:
    """The harden19b case names of KINDS, in order."""
    return [n for n in sorted(cb19.CALLBACK_CASES) if cb19.CALLBACK_CASES[n]["kind"] in KINDS]


def _build(keras: Any, case: dict[str, Any], path: str) -> Any:
    kind = case["kind"]
    if kind == "early_stopping":
        return keras.callbacks.EarlyStopping(**case["kw"])
    if kind == "reduce_lr":
        return keras.callbacks.ReduceLROnPlateau(**case["kw"])
    if kind == "checkpoint":
        return keras.callbacks.ModelCheckpoint(os.path.join(path, case["file"]), **case["kw"])
    sched = (lambda epoch, lr: lr * 0.5 if epoch % 2 else lr + 0.125) if case["two_args"] else \
        (lambda epoch: 0.5 / (epoch + 1))
    return keras.callbacks.LearningRateScheduler(sched, verbose=0)


def _state(cb: Any, kind: str) -> Any:
    if kind == "early_stopping":
        return {"stopped_epoch": cb.stopped_epoch, "wait": cb.wait, "best": cb.best,
                "best_epoch": getattr(cb, "best_epoch", None)}
    if kind == "reduce_lr":
        return {"wait": cb.wait, "best": cb.best, "cooldown_counter": cb.cooldown_counter}
    if kind == "checkpoint":
        return {"best": getattr(cb, "best", None)}
    return None


def observe(tf: Any, name: str, tmp: str) -> dict[str, Any]:
    """The case's callback built once and used in two fits of fresh models: per fit its History and each epoch's lr
    and weight; then the callback's state and the files written."""
    keras = tf.keras
    case = cb19.CALLBACK_CASES[name]
    kind = case["kind"]
    x, y = cb19._data()
    path = os.path.join(tmp, "ckpt")
    os.makedirs(path, exist_ok=True)
    try:
        cb = _build(keras, case, path)
    except Exception as e:  # noqa: BLE001 - a refusal is what is observed
        return {"init": type(e).__name__}
    fits = []
    for _ in range(2):
        model = cb19._model(keras, {"reduce_lr": 1.2}.get(kind, 0.25))
        seen: list = []
        callbacks = [cb, cb19._lr_recorder(keras, seen)]
        if kind in ("early_stopping", "checkpoint"):
            callbacks.insert(0, keras.callbacks.LearningRateScheduler(lambda epoch, lr: cb19.LR_TABLE[epoch]))
        epochs = {"early_stopping": len(cb19.LR_TABLE), "reduce_lr": 10, "checkpoint": 6}.get(kind, 5)
        fit_kw = dict(batch_size=case.get("batch_size", 4), verbose=0, shuffle=False)
        if kind != "scheduler":
            fit_kw["validation_data"] = (x, y)
        try:
            hist = model.fit(x, y, epochs=epochs, callbacks=callbacks, **fit_kw)
        except Exception as e:  # noqa: BLE001
            fits.append({"error": type(e).__name__})
            break
        fits.append(cb19.exact({"history": hist.history, "epoch": hist.epoch, "seen": seen,
                                "weight": cb19._weight(model)}))
    return {"fits": fits, "state": cb19.exact(_state(cb, kind)), "files": cb19._files(path)}
