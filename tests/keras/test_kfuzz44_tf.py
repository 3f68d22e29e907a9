"""The training fuzzer's kfuzz44 classes against Keras 3.15 on TF 2.21 (tests/fuzz_train; clause keras.saving.keras-file).

A `.keras` file of a model compiled with Lamb (seed 4420261201 #12: a Sequential SimpleRNN model under
MirroredStrategy(3), Lamb with an ExponentialDecay schedule, saved and loaded by `tf.keras.models.load_model`):
Keras 3.15's `compile_from_config` deserializes the compile config with serialization_lib's
`deserialize_keras_object`, which finds a "keras.optimizers" class by its export path (`keras.optimizers.Lamb`);
LossScaleOptimizer.from_config deserializes its inner optimizer the same way. `keras.optimizers.deserialize` looks
its objects up by lower-cased name in ALL_OBJECTS_DICT, which has no Lamb, so it gives the class name back as a
str. simdist went through `optimizers.deserialize` in both places: load_model raised ValueError "Could not
interpret optimizer identifier: Lamb", and LossScaleOptimizer's from_config AttributeError. Each case returns the
loaded optimizer's class, its variables, the loaded model's predictions and the weights after one more epoch."""

from __future__ import annotations

import os
import re
import tempfile
from typing import Any, Callable

import numpy as np
import pytest

import case_results
import tf_workers

pytestmark = [pytest.mark.tf, tf_workers.tf_or_golden(__file__)]


def _data() -> tuple[np.ndarray, np.ndarray]:
    """Exact inputs and targets (multiples of 1/8)."""
    x = (np.arange(24, dtype=np.float32).reshape(8, 3) % 5 - 2) / 8
    y = (np.arange(16, dtype=np.float32).reshape(8, 2) % 3 - 1) / 8
    return x.astype(np.float32), y.astype(np.float32)


def _optimizer(tf: Any, which: str) -> Any:
    o = tf.keras.optimizers
    if which == "lamb":
        return o.Lamb(0.01)
    if which == "lamb_schedule":
        return o.Lamb(o.schedules.ExponentialDecay(0.01, 2, 0.5))
    if which == "lso_lamb":
        return o.LossScaleOptimizer(o.Lamb(0.01), initial_scale=64.0)
    return o.LossScaleOptimizer(o.Adam(0.01), initial_scale=64.0)


def _saved_and_loaded(which: str) -> Callable:
    """fit a Dense model two epochs with the optimizer, save it to a .keras file, load it: the loaded
    optimizer's class (and its inner one's), its variables, the loaded model's predictions, and its weights after
    one more epoch of fit."""
    def case(tf: Any) -> Any:
        keras = tf.keras
        model = keras.Sequential([keras.Input((3,)), keras.layers.Dense(2, kernel_initializer=keras.initializers.Constant(0.25))])
        model.compile(optimizer=_optimizer(tf, which), loss="mse")
        x, y = _data()
        model.fit(x, y, batch_size=4, epochs=2, verbose=0, shuffle=False)
        path = os.path.join(tempfile.mkdtemp(), "model.keras")
        model.save(path)
        loaded = keras.models.load_model(path)
        opt = loaded.optimizer
        names = [type(opt).__name__, type(getattr(opt, "inner_optimizer", opt)).__name__]
        out = [names, [np.asarray(v.numpy()) for v in opt.variables], loaded.predict(x[:4], verbose=0)]
        loaded.fit(x, y, batch_size=4, epochs=1, verbose=0, shuffle=False)
        return out + [np.asarray(w) for w in loaded.get_weights()]
    return case


def _deserialized(which: str, by: str) -> Callable:
    """The optimizer's serialize dict deserialized by `keras.optimizers.deserialize` or by the wrapper's
    from_config: the class names (a str when keras.optimizers.deserialize does not know the name)."""
    def case(tf: Any) -> Any:
        opt = _optimizer(tf, which)
        config = tf.keras.optimizers.serialize(opt)
        got = tf.keras.optimizers.deserialize(config) if by == "deserialize" else \
            type(opt).from_config(config["config"])
        if isinstance(got, str):
            return ["str", got]
        return [type(got).__name__, type(getattr(got, "inner_optimizer", got)).__name__]
    return case


def _cases() -> dict[str, Callable[[Any], Any]]:
    out: dict[str, Callable[[Any], Any]] = {}
    for which in ("lamb", "lamb_schedule", "lso_lamb", "lso_adam"):
        out[f"keras_file/{which}"] = _saved_and_loaded(which)
    out["deserialize/keras.optimizers.deserialize of lamb"] = _deserialized("lamb", "deserialize")
    out["deserialize/keras.optimizers.deserialize of lso_lamb"] = _deserialized("lso_lamb", "deserialize")
    out["deserialize/LossScaleOptimizer.from_config of lso_lamb"] = _deserialized("lso_lamb", "from_config")
    return out


_AUTO_NAME = re.compile(r"(sequential_|input_layer_|dense_|lamb_|adam_|loss_scale_optimizer_)_?\d+")
TABLE = case_results.Table(__file__, _cases(), _AUTO_NAME)


@pytest.fixture(scope="module")
def tf_results() -> dict[int, Any]:
    return TABLE.tf_results()


@pytest.fixture(scope="module", autouse=True)
def _fresh_keras_session_after() -> Any:
    yield
    from simdist import tf
    tf.keras.backend.clear_session()


@pytest.mark.clause("keras.saving.keras-file")
def test_a_keras_files_optimizer_is_found_by_its_export_path(tf_results: dict[int, Any]) -> None:
    TABLE.check(tf_results, lambda lab: lab.startswith(("keras_file/", "deserialize/")))


def _tf_worker(indices: list[int]) -> dict[int, Any]:
    return TABLE.tf_worker(indices)


if __name__ == "__main__":  # TF worker
    tf_workers.serve(_tf_worker)
    os._exit(0)
