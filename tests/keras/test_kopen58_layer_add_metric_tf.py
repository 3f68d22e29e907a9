"""Layer.add_metric, deprecated and disabled in Keras 3.15 (kopen58; clause keras.layer.tracking).

Keras 3.15's Layer.add_metric raises NotImplementedError "Layer `add_metric()` method is deprecated. ..." for any
arguments; simdist's Layer had no add_metric (AttributeError), found comparing dir() of GroupQueryAttention on both.
Each case returns the error class and message, or the value.
"""

from __future__ import annotations

from typing import Any

import pytest

import tf_programs
import tf_workers

pytestmark = [pytest.mark.tf, tf_workers.tf_or_golden(__file__)]


def program(tf: Any, case: dict, workdir: str) -> Any:
    keras = tf.keras
    layers = {"Dense": lambda: keras.layers.Dense(2),
              "GroupQueryAttention": lambda: keras.layers.GroupQueryAttention(head_dim=4, num_query_heads=4,
                                                                             num_key_value_heads=2),
              "Model": lambda: keras.Sequential([keras.layers.Dense(1)])}
    layer = layers[case["layer"]]()
    out: list[Any] = []
    for args in ((), (tf.constant(1.0),), (tf.constant(1.0), "m")):
        try:
            out.append(["ok", repr(layer.add_metric(*args))])
        except Exception as e:  # noqa: BLE001 - the class and message are what is compared
            out.append([type(e).__name__, str(e)])
    return out


CASES: dict[str, dict] = {n: {"strategy": "default", "layer": n} for n in ("Dense", "GroupQueryAttention", "Model")}
NAMES = list(CASES)


@pytest.fixture(scope="module")
def tf_results(request: Any) -> dict[int, Any]:
    return tf_programs.spawn(__file__, CASES, tf_programs.selected(request, __file__))


@pytest.mark.clause("keras.layer.tracking")
@pytest.mark.parametrize("index", range(len(NAMES)), ids=NAMES)
def test_add_metric_as_tf(index: int, tf_results: dict[int, Any], tmp_path: Any) -> None:
    name = NAMES[index]
    got = tf_programs.on_simdist(program, CASES[name], str(tmp_path))
    want = tf_results[index]
    assert got == want, f"{name}: simdist gives {got}, TF 2.21 gives {want}"


if __name__ == "__main__":
    tf_workers.serve(tf_programs.worker(CASES, program))
