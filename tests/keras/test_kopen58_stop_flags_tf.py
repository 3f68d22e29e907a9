"""When a model has `stop_training`, `stop_evaluating` and `stop_predicting` (kopen58; clause keras.fit.logs).

Keras 3.15 sets `stop_training = False` in `compile()` (trainers/trainer.py) and again at the start of `fit()`,
`stop_evaluating` at the start of `evaluate()` and `stop_predicting` at the start of `predict()`
(backend/tensorflow/trainer.py); the model's constructor sets none of them, so reading one before is an
AttributeError. simdist's Trainer set all three in its constructor. Each case returns, at each stage, each flag's
value or the error class.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import tf_programs
import tf_workers

pytestmark = [pytest.mark.tf, tf_workers.tf_or_golden(__file__)]

FLAGS = ("stop_training", "stop_evaluating", "stop_predicting")


def _flags(model: Any) -> list[Any]:
    out: list[Any] = []
    for f in FLAGS:
        try:
            out.append(repr(getattr(model, f)))
        except Exception as e:  # noqa: BLE001 - the class is what is compared
            out.append(type(e).__name__)
    return out


def program(tf: Any, case: dict, workdir: str) -> Any:
    keras = tf.keras
    x = (np.arange(24, dtype=np.float32).reshape(8, 3) / 24.0)
    y = np.ones((8, 1), np.float32)
    if case["form"] == "sequential":
        model = keras.Sequential([keras.Input((3,)), keras.layers.Dense(1)])
    elif case["form"] == "functional":
        inp = keras.Input((3,))
        model = keras.Model(inp, keras.layers.Dense(1)(inp))
    else:
        class Net(keras.Model):
            def __init__(self) -> None:
                super().__init__()
                self.d = keras.layers.Dense(1)

            def call(self, t: Any) -> Any:
                return self.d(t)
        model = Net()
    out: list[Any] = [["built", _flags(model)]]
    model.compile("sgd", "mse")
    out.append(["compiled", _flags(model)])
    model.predict(x, verbose=0)
    out.append(["predicted", _flags(model)])
    model.evaluate(x, y, verbose=0)
    out.append(["evaluated", _flags(model)])
    model.fit(x, y, epochs=1, verbose=0)
    out.append(["fitted", _flags(model)])
    return out


CASES: dict[str, dict] = {f: {"strategy": "default", "form": f} for f in ("sequential", "functional", "subclassed")}
NAMES = list(CASES)


@pytest.fixture(scope="module")
def tf_results(request: Any) -> dict[int, Any]:
    return tf_programs.spawn(__file__, CASES, tf_programs.selected(request, __file__))


@pytest.mark.clause("keras.fit.logs")
@pytest.mark.parametrize("index", range(len(NAMES)), ids=NAMES)
def test_stop_flags_as_tf(index: int, tf_results: dict[int, Any], tmp_path: Any) -> None:
    name = NAMES[index]
    got = tf_programs.on_simdist(program, CASES[name], str(tmp_path))
    want = tf_results[index]
    bad = [f"{w[0]}: simdist gives {dict(zip(FLAGS, g[1]))}, TF 2.21 gives {dict(zip(FLAGS, w[1]))}"
           for g, w in zip(got, want) if g != w]
    assert len(got) == len(want) and not bad, f"{name}: " + "; ".join(bad)


if __name__ == "__main__":
    tf_workers.serve(tf_programs.worker(CASES, program))
