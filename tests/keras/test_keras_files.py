"""`.keras` files on simdist alone (issue 27 item 5): a file that does not fit, or is not a
`.keras` file, is an error naming it and changes no weight; ModelCheckpoint saves `.keras`
files that load; the bytes depend only on the model (no wall clock); a class neither registered
nor given in `custom_objects` is refused as Keras refuses it. (Round trips with real Keras:
tests/keras/test_keras_files_tf.py.)"""

from __future__ import annotations

import json
import zipfile

import numpy as np
import pytest

import simdist
from simdist import tf

keras = tf.keras
pytestmark = pytest.mark.clause("keras.saving.keras-file")


def _seq(widths: list[int], seed: int = 0):
    simdist.reset()
    simdist.configure(seed=seed)
    keras.backend.clear_session()
    return keras.Sequential([keras.Input((4,))] + [keras.layers.Dense(w) for w in widths])


def _weights(model) -> list[np.ndarray]:
    return [np.array(w) for w in model.get_weights()]


def _assert_unchanged(before: list[np.ndarray], model, what: str) -> None:
    changed = [i for i, (a, b) in enumerate(zip(before, _weights(model))) if not np.array_equal(a, b)]
    assert not changed, f"{what} failed but overwrote weights {changed} of the model before failing"


def test_load_weights_from_a_keras_file_of_another_architecture_assigns_nothing(tmp_path) -> None:
    src = _seq([3, 5])   # same first layer as the target, a different second one
    path = str(tmp_path / "src.keras")
    src.save(path)
    dst = _seq([3, 7], seed=1)
    before = _weights(dst)
    with pytest.raises(ValueError, match="No weight was changed") as ei:
        dst.load_weights(path)
    assert path in str(ei.value), f"the error does not name the file: {ei.value}"
    _assert_unchanged(before, dst, "load_weights('src.keras')")
    same = _seq([3, 5], seed=2)
    same.load_weights(path)
    for i, (a, b) in enumerate(zip(_weights(same), _weights(src))):
        assert np.array_equal(a, b), f"weight {i} after load_weights('.keras') is not the saved one"


@pytest.mark.parametrize("damage", ["truncated", "not_a_zip", "no_weights", "bad_json", "missing"])
def test_bad_keras_files_are_errors_naming_the_file(tmp_path, damage: str) -> None:
    src = _seq([3])
    path = tmp_path / "m.keras"
    src.save(str(path))
    data = path.read_bytes()
    if damage == "truncated":
        path.write_bytes(data[: len(data) // 2])
    elif damage == "not_a_zip":
        path.write_bytes(b"not a zip file at all")
    elif damage in ("no_weights", "bad_json"):
        with zipfile.ZipFile(tmp_path / "src.keras", "w") as zf:
            zf.writestr("metadata.json", "{}")
            zf.writestr("config.json", "{not json" if damage == "bad_json" else json.dumps({"class_name": "Sequential"}))
            if damage == "bad_json":
                zf.writestr("model.weights.h5", b"")
        path = tmp_path / "src.keras"
    else:
        path = tmp_path / "nowhere.keras"
    with pytest.raises(ValueError) as ei:
        keras.models.load_model(str(path))
    assert str(path) in str(ei.value), f"{damage}: the error does not name the file: {ei.value}"
    dst = _seq([3], seed=3)
    before = _weights(dst)
    with pytest.raises(ValueError):
        dst.load_weights(str(path))
    _assert_unchanged(before, dst, f"load_weights of a {damage} file")


def test_a_corrupt_weights_entry_changes_nothing(tmp_path) -> None:
    src = _seq([3, 5])
    good = tmp_path / "good.keras"
    src.save(str(good))
    bad = tmp_path / "bad.keras"
    with zipfile.ZipFile(good) as zin, zipfile.ZipFile(bad, "w") as zout:
        for name in zin.namelist():
            data = zin.read(name)
            zout.writestr(name, data[: len(data) // 3] if name == "model.weights.h5" else data)
    dst = _seq([3, 5], seed=4)
    before = _weights(dst)
    with pytest.raises(ValueError, match="model.weights.h5 is not a readable HDF5 file"):
        dst.load_weights(str(bad))
    _assert_unchanged(before, dst, "load_weights of a file with a truncated model.weights.h5")


def test_saved_bytes_depend_only_on_the_model(tmp_path) -> None:
    a = _seq([3, 2])
    a.save(str(tmp_path / "a.keras"))
    b = _seq([3, 2])
    b.save(str(tmp_path / "b.keras"))
    assert (tmp_path / "a.keras").read_bytes() == (tmp_path / "b.keras").read_bytes(), \
        "two saves of the same model (same seed, same simulated time) wrote different bytes"
    with zipfile.ZipFile(tmp_path / "a.keras") as zf:
        assert zf.namelist() == ["metadata.json", "config.json", "model.weights.h5"], zf.namelist()
        meta = json.loads(zf.read("metadata.json"))
    assert meta == {"keras_version": "3.15.1", "date_saved": "1970-01-01@00:00:00"}, meta


def test_model_checkpoint_saves_keras_files(tmp_path) -> None:
    model = _seq([3, 1])
    model.compile(optimizer="sgd", loss="mse")
    x = np.arange(32, dtype="float32").reshape(8, 4) / 32
    y = np.ones((8, 1), "float32")
    cb = keras.callbacks.ModelCheckpoint(str(tmp_path / "m-{epoch}.keras"))
    model.fit(x, y, batch_size=4, epochs=2, verbose=0, shuffle=False, callbacks=[cb])
    names = sorted(p.name for p in tmp_path.iterdir())
    assert names == ["m-1.keras", "m-2.keras"], f"ModelCheckpoint wrote {names}, but should write m-1/m-2.keras"
    loaded = keras.models.load_model(str(tmp_path / "m-2.keras"))
    got, want = np.asarray(loaded.predict(x, verbose=0)), np.asarray(model.predict(x, verbose=0))
    assert np.array_equal(got, want), f"the last checkpoint predicts {got.ravel()}, the model {want.ravel()}"
    assert int(loaded.optimizer.iterations) == 4, f"optimizer iterations {int(loaded.optimizer.iterations)}, should be 4"


def test_unregistered_class_is_refused_and_custom_objects_find_it(tmp_path) -> None:
    simdist.reset()
    keras.backend.clear_session()

    class Unregistered(keras.Model):
        def __init__(self, **kwargs):
            super().__init__(**kwargs)
            self.d = keras.layers.Dense(2)

        def call(self, x):
            return self.d(x)

    m = Unregistered()
    m(np.zeros((1, 3), "float32"))
    path = str(tmp_path / "u.keras")
    m.save(path)
    with pytest.raises(TypeError, match="Could not locate class 'Unregistered'"):
        keras.models.load_model(path)
    again = keras.models.load_model(path, custom_objects={"Unregistered": Unregistered})
    assert type(again) is Unregistered and np.array_equal(_weights(again)[0], _weights(m)[0]), \
        "custom_objects did not give back the model with its weights"


def test_wrong_extensions(tmp_path) -> None:
    m = _seq([2])
    with pytest.raises(ValueError, match="Invalid filepath extension for saving"):
        m.save(str(tmp_path / "m.txt"))
    with pytest.raises(NotImplementedError, match="legacy HDF5"):
        m.save(str(tmp_path / "m.h5"))
    with pytest.raises(ValueError, match="File format not supported"):
        keras.models.load_model(str(tmp_path / "m.txt"))


@pytest.mark.parametrize("kind", ["mirrored", "central_storage"])
def test_a_model_saved_under_a_strategy_reloads_in_its_scope_and_trains_on(tmp_path, kind: str) -> None:
    """Saved mid-training under MirroredStrategy(2) / CentralStorageStrategy, loaded in the same
    strategy's scope: the model captures it, and the next epoch's loss equals the original's
    (weights and Adam's slots went through the file). Under MirroredStrategy saving charges the
    copies of the variables to the host (CentralStorage keeps them on the host: nothing to copy,
    as for save_weights and tf.train.Checkpoint)."""
    simdist.reset()
    simdist.configure(gpus=2)
    keras.backend.clear_session()
    strategy = tf.distribute.MirroredStrategy() if kind == "mirrored" \
        else tf.distribute.experimental.CentralStorageStrategy()
    x = np.random.default_rng(0).random((16, 4)).astype("float32")
    y = x[:, :1]
    with strategy.scope():
        model = keras.Sequential([keras.Input((4,)), keras.layers.Dense(3), keras.layers.Dense(1)])
        model.compile(optimizer="adam", loss="mse")
    model.fit(x, y, batch_size=8, epochs=1, verbose=0, shuffle=False)
    t0 = simdist.now()
    model.save(str(tmp_path / "m.keras"))
    if kind == "mirrored":
        assert simdist.now() > t0, "saving a .keras file from GPU replicas charged no simulated time"
    with strategy.scope():
        again = keras.models.load_model(str(tmp_path / "m.keras"))
    assert again.distribute_strategy is strategy, "the model loaded in the scope did not capture the strategy"
    got = again.fit(x, y, batch_size=8, epochs=1, verbose=0, shuffle=False).history["loss"]
    want = model.fit(x, y, batch_size=8, epochs=1, verbose=0, shuffle=False).history["loss"]
    assert got == want, f"next epoch from the file: loss {got}, but the original model gives {want}"
