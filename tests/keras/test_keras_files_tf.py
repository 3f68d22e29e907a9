"""`.keras` files between simdist and real Keras 3.15 (issue 27 item 5): for a Sequential model,
a functional model, a registered subclassed model and a registered functional subclass
(`CustomModel(inputs, outputs)`), each compiled with Adam and fitted one epoch from the same
weights,
- simdist's predictions equal TF's (the same model);
- the file simdist writes loads in Keras with simdist's predictions, and one more epoch there
  gives the loss simdist's own reloaded model gives (the optimizer's state went along);
- the file Keras writes loads in simdist with Keras's predictions and the same next-epoch loss.
TF runs in a subprocess (tf_workers.spawn; this module is its worker, and it writes simdist's file
there too, then loads it with Keras)."""

from __future__ import annotations

import os
import sys
import tempfile
from typing import Any

import numpy as np
import pytest

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import tf_workers  # noqa: E402

pytestmark = [pytest.mark.tf, tf_workers.tf_or_golden(__file__), pytest.mark.clause("keras.saving.keras-file")]

KINDS = ["sequential", "functional", "subclassed", "functional_subclass"]


def _classes(keras: Any) -> dict[str, Any]:
    register = keras.utils.register_keras_serializable

    @register(package="SimdistTest")
    class MLP(keras.Model):
        def __init__(self, units: int = 3, **kwargs: Any) -> None:
            super().__init__(**kwargs)
            self.units = units
            self.hidden = keras.layers.Dense(units, activation="relu")
            self.head = keras.layers.Dense(2)

        def call(self, x: Any) -> Any:
            return self.head(self.hidden(x))

        def get_config(self) -> dict[str, Any]:
            return {**super().get_config(), "units": self.units}

    @register(package="SimdistTest")
    class CustomModel(keras.Model):
        def train_step(self, data: Any) -> Any:
            return super().train_step(data)

    return {"MLP": MLP, "CustomModel": CustomModel}


def _data(kind: str = "") -> tuple[Any, np.ndarray]:
    rng = np.random.default_rng(7)
    x, y = rng.random((16, 4)).astype("float32"), rng.random((16, 2)).astype("float32")
    if kind == "functional":   # two inputs through one shared layer
        return {"a": x, "b": x[::-1].copy()}, y
    return x, y


def _model(keras: Any, kind: str, classes: dict[str, Any]) -> Any:
    x, _ = _data(kind)
    if kind == "sequential":
        m = keras.Sequential([keras.Input((4,)), keras.layers.Dense(5, activation="relu"),
                              keras.layers.BatchNormalization(), keras.layers.Dense(2)])
    elif kind == "functional":
        a, b = keras.Input((4,), name="a"), keras.Input((4,), name="b")
        shared = keras.layers.Dense(3, activation="tanh")
        h = keras.layers.concatenate([shared(a), shared(b)])
        m = keras.Model({"a": a, "b": b}, keras.layers.Dense(2)(h))
    elif kind == "subclassed":
        m = classes["MLP"](5)
        m(x)
    else:
        a = keras.Input((4,))
        m = classes["CustomModel"](a, keras.layers.Dense(2)(keras.layers.Dense(3)(a)))
    rng = np.random.default_rng(11)
    m.set_weights([(np.abs(rng.standard_normal(w.shape)) * 0.5 + 0.1).astype("float32") for w in m.get_weights()])
    # epsilon=0.1: with the default 1e-7, Adam's first steps are about lr * sign(g), and a gradient
    # that is ~0 up to float32 rounding (here: through BatchNormalization) gets a full step whose
    # sign is the rounding's; each backend rounds its own way
    m.compile(optimizer=keras.optimizers.Adam(0.01, epsilon=0.1), loss="mse", metrics=["mae"])
    return m


def program(keras: Any, kind: str, workdir: str) -> dict[str, Any]:
    """Fit one epoch, save, predict; reload the file and fit one more epoch."""
    x, y = _data(kind)
    m = _model(keras, kind, _classes(keras))
    m.fit(x, y, batch_size=8, epochs=1, verbose=0, shuffle=False)
    path = os.path.join(workdir, f"{kind}.keras")
    m.save(path)
    pred = np.asarray(m.predict(x, verbose=0))
    again = keras.models.load_model(path)
    h = again.fit(x, y, batch_size=8, epochs=1, verbose=0, shuffle=False)
    with open(path, "rb") as f:
        data = f.read()
    return {"file": data, "pred": pred, "next_loss": float(h.history["loss"][0]),
            "class": type(again).__name__, "iterations": int(again.optimizer.iterations)}


def load_and_continue(keras: Any, data: bytes, kind: str, workdir: str) -> dict[str, Any]:
    """Load another backend's file: its predictions and the loss of one more epoch."""
    _classes(keras)
    x, y = _data(kind)
    path = os.path.join(workdir, f"other_{kind}.keras")
    with open(path, "wb") as f:
        f.write(data)
    m = keras.models.load_model(path)
    pred = np.asarray(m.predict(x, verbose=0))
    h = m.fit(x, y, batch_size=8, epochs=1, verbose=0, shuffle=False)
    return {"pred": pred, "next_loss": float(h.history["loss"][0]), "class": type(m).__name__,
            "iterations": int(m.optimizer.iterations)}


def _simdist_program(kind: str, workdir: str) -> dict[str, Any]:
    import simdist
    from simdist import tf as sd_tf
    simdist.reset()
    sd_tf.keras.backend.clear_session()
    return program(sd_tf.keras, kind, workdir)


def _without_date(data: bytes) -> bytes:
    """Keras's file with metadata.json's wall-clock `date_saved` and the entries' timestamps fixed
    (Keras reads neither) and config.json's `shared_object_id`s (Python `id()`s, which Keras only
    matches with each other) numbered in order of appearance, so that TF's answers, and the
    golden, do not change from run to run."""
    import io
    import json
    import zipfile
    out = io.BytesIO()
    with zipfile.ZipFile(io.BytesIO(data)) as zin, zipfile.ZipFile(out, "w", zipfile.ZIP_STORED) as zout:
        for name in zin.namelist():
            body = zin.read(name)
            if name == "metadata.json":
                body = json.dumps({**json.loads(body), "date_saved": "(a wall-clock date)"}).encode()
            elif name == "config.json":
                ids: dict[int, int] = {}

                def renumber(x: Any) -> Any:
                    if isinstance(x, dict):
                        return {k: (ids.setdefault(v, len(ids) + 1) if k == "shared_object_id" else renumber(v))
                                for k, v in x.items()}
                    if isinstance(x, list):
                        return [renumber(v) for v in x]
                    return x
                body = json.dumps(renumber(json.loads(body))).encode()
            zout.writestr(zipfile.ZipInfo(name, date_time=(1980, 1, 1, 0, 0, 0)), body)
    return out.getvalue()


def _tf_worker(indices: list[int]) -> dict[int, Any]:
    import tensorflow as tf
    out: dict[int, Any] = {}
    for i in indices:
        kind = KINDS[i]
        with tempfile.TemporaryDirectory() as d:
            tf.keras.backend.clear_session()
            mine = program(tf.keras, kind, d)
            theirs = _simdist_program(kind, d)   # simdist's file, loaded by Keras
            tf.keras.backend.clear_session()
            loaded = load_and_continue(tf.keras, theirs["file"], kind, d)
        out[i] = {"tf": {**mine, "file": _without_date(mine["file"])}, "simdist_file_in_keras": loaded}
    return out


@pytest.fixture(scope="module")
def tf_results() -> dict[int, Any]:
    return tf_workers.spawn(__file__, list(range(len(KINDS))))


def _close(got: Any, want: Any, what: str, rtol: float = 1e-5) -> None:
    got, want = np.asarray(got), np.asarray(want)
    assert got.shape == want.shape and np.allclose(got, want, rtol=rtol, atol=1e-6), \
        f"{what}: got {got.ravel()[:6]}, but should be {want.ravel()[:6]} (max diff {np.max(np.abs(got - want))})"


@pytest.mark.parametrize("index", range(len(KINDS)), ids=KINDS)
def test_keras_file_roundtrip(index: int, tf_results: dict[int, Any], tmp_path: Any) -> None:
    kind = KINDS[index]
    want = tf_results[index]
    mine = _simdist_program(kind, str(tmp_path))
    _close(mine["pred"], want["tf"]["pred"], f"{kind}: simdist's predictions after one epoch vs TF's")
    assert mine["class"] == want["tf"]["class"], f"{kind}: reloaded class {mine['class']}, Keras {want['tf']['class']}"
    _close(mine["next_loss"], want["tf"]["next_loss"], f"{kind}: next-epoch loss of simdist's reloaded model vs TF's")
    k = want["simdist_file_in_keras"]
    _close(k["pred"], mine["pred"], f"{kind}: Keras's predictions from simdist's file vs simdist's")
    _close(k["next_loss"], mine["next_loss"], f"{kind}: Keras's next-epoch loss from simdist's file vs simdist's")
    assert (k["class"], k["iterations"]) == (mine["class"], mine["iterations"]), \
        f"{kind}: Keras loaded {k['class']} at iteration {k['iterations']}, simdist {mine['class']} at {mine['iterations']}"
    from simdist import tf as sd_tf
    theirs = load_and_continue(sd_tf.keras, want["tf"]["file"], kind, str(tmp_path))
    _close(theirs["pred"], want["tf"]["pred"], f"{kind}: simdist's predictions from Keras's file vs Keras's")
    _close(theirs["next_loss"], want["tf"]["next_loss"], f"{kind}: simdist's next-epoch loss from Keras's file vs Keras's")
    assert (theirs["class"], theirs["iterations"]) == (want["tf"]["class"], want["tf"]["iterations"]), \
        f"{kind}: simdist loaded {theirs['class']} at iteration {theirs['iterations']}, Keras {want['tf']['class']}"


if __name__ == "__main__":  # TF worker
    tf_workers.serve(_tf_worker)
    os._exit(0)
