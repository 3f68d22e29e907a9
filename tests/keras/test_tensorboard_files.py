"""simdist's TensorBoard event files on their own: deterministic bytes and names, simulated
wall_time, and clear errors for what is not supported or not installed."""

from __future__ import annotations

import builtins
import os
from typing import Any

import numpy as np
import pytest

pytest.importorskip("tensorboard")


def _fit(log_dir: str, **tb: Any) -> Any:
    """A fit under MirroredStrategy(2) (the default strategy charges no simulated time)."""
    import simdist
    from simdist import tf
    simdist.reset()
    tf.keras.backend.clear_session()
    cpu = tf.config.list_physical_devices("CPU")[0]
    tf.config.set_logical_device_configuration(cpu, [tf.config.LogicalDeviceConfiguration()] * 2)
    keras = tf.keras
    rng = np.random.default_rng(3)
    x, y = rng.standard_normal((32, 5)).astype(np.float32), rng.integers(0, 3, 32).astype(np.int32)
    with tf.distribute.MirroredStrategy(["/cpu:0", "/cpu:1"]).scope():
        model = keras.Sequential([keras.Input((5,)), keras.layers.Dense(3)])
        model.compile(optimizer=keras.optimizers.SGD(0.1),
                      loss=keras.losses.SparseCategoricalCrossentropy(from_logits=True))
    model.fit(x, y, epochs=2, batch_size=8, verbose=0, validation_split=0.25,
              callbacks=[keras.callbacks.TensorBoard(log_dir, **tb)])
    return simdist.now()


def _files(log_dir: str) -> dict[str, bytes]:
    out = {}
    for run in sorted(os.listdir(log_dir)):
        for f in sorted(os.listdir(os.path.join(log_dir, run))):
            with open(os.path.join(log_dir, run, f), "rb") as fh:
                out[f"{run}/{f}"] = fh.read()
    return out


@pytest.mark.clause("keras.callback.tensorboard")
def test_same_bytes_every_run(tmp_path: Any) -> None:
    _fit(str(tmp_path / "a"), update_freq=2, histogram_freq=1)
    _fit(str(tmp_path / "b"), update_freq=2, histogram_freq=1)
    a, b = _files(str(tmp_path / "a")), _files(str(tmp_path / "b"))
    assert list(a) == list(b), f"event file names {list(a)} and {list(b)} differ"
    assert list(a.values()) == list(b.values()), "two identical runs wrote different event file bytes"


@pytest.mark.clause("keras.callback.tensorboard")
def test_wall_time_is_simulated_time(tmp_path: Any) -> None:
    from tensorboard.backend.event_processing.event_file_loader import EventFileLoader
    end = _fit(str(tmp_path), update_freq="batch")
    for name in _files(str(tmp_path)):
        times = [e.wall_time for e in EventFileLoader(str(tmp_path / name)).Load()]
        assert times == sorted(times), f"{name}: wall_time goes back {times}"
        assert 0.0 <= times[0] and times[-1] <= end, \
            f"{name}: wall_time {times[0]}..{times[-1]}, but should be simulated seconds within [0, {end}]"
        assert times[-1] > times[0], f"{name}: wall_time never advances ({times[0]}): not the simulated clock"


@pytest.mark.clause("keras.callback.tensorboard")
@pytest.mark.parametrize("kw", [{"write_images": True}, {"profile_batch": 2}, {"embeddings_freq": 1}])
def test_unsupported_options_say_so(kw: dict[str, Any]) -> None:
    from simdist import tf
    with pytest.raises(NotImplementedError, match=next(iter(kw))):
        tf.keras.callbacks.TensorBoard("logs", **kw)


@pytest.mark.parametrize("freq", [0, -2, "step", 1.5])
def test_bad_update_freq(freq: Any) -> None:
    from simdist import tf
    with pytest.raises(ValueError, match="update_freq"):
        tf.keras.callbacks.TensorBoard("logs", update_freq=freq)


def test_missing_tensorboard_names_the_extra(monkeypatch: Any) -> None:
    from simdist import tf
    real_import = builtins.__import__

    def no_tensorboard(name: str, *args: Any, **kwargs: Any) -> Any:
        if name.split(".")[0] == "tensorboard":
            raise ImportError(f"No module named {name!r}")
        return real_import(name, *args, **kwargs)

    monkeypatch.setattr(builtins, "__import__", no_tensorboard)
    with pytest.raises(ImportError, match=r"simdist\[tensorboard\]"):
        tf.keras.callbacks.TensorBoard("logs")
