"""load_weights' keyword arguments against Keras 3.15 on TF 2.21 (clause keras.model.save-weights): Keras's
saving_api.load_weights takes `objects_to_skip` and `by_name` out first (any other keyword: ValueError "Invalid
keyword arguments"), refuses `by_name` (any value but None) for `.keras` and `.weights.h5` files and
`objects_to_skip` for `.keras` files, before the unbuilt-model check; a file of another extension is ValueError
"File format not supported". simdist refused every keyword, None values included, with "Invalid keyword
arguments" (found writing a probe of the thirty-ninth blind batch, docs/conformance.md)."""

from __future__ import annotations

import os
import re
import tempfile
from typing import Any, Callable

import pytest

import case_results
import tf_workers

pytestmark = [pytest.mark.tf, tf_workers.tf_or_golden(__file__)]


def _case(ext: str, kwargs: dict[str, Any], built: bool = True) -> Callable[[Any], Any]:
    def case(tf: Any) -> Any:
        keras = tf.keras
        d = tempfile.mkdtemp()
        model = keras.Sequential([keras.Input((3,)), keras.layers.Dense(2, kernel_initializer="ones")])
        paths = {".weights.h5": os.path.join(d, "w.weights.h5"), ".keras": os.path.join(d, "m.keras"),
                 ".txt": os.path.join(d, "w.txt")}
        model.save_weights(paths[".weights.h5"])
        model.save(paths[".keras"])
        target = model if built else keras.Sequential([keras.layers.Dense(2)])
        if built:
            target.layers[0].kernel.assign(tf.zeros((3, 2)))
        try:
            target.load_weights(paths[ext], **kwargs)
        except Exception as e:   # (the path's temporary directory named as D)
            return type(e).__name__, str(e).replace(d, "D")
        return "loaded", target.layers[0].kernel.numpy().tolist()
    return case


def _cases() -> dict[str, Callable[[Any], Any]]:
    cases: dict[str, Callable[[Any], Any]] = {}
    table = [(".weights.h5", {"by_name": True}), (".weights.h5", {"by_name": False}), (".weights.h5", {"by_name": None}),
             (".weights.h5", {"objects_to_skip": None}), (".weights.h5", {"foo": 1, "by_name": True}),
             (".weights.h5", {"by_name": True, "objects_to_skip": None}), (".keras", {"by_name": True}),
             (".keras", {"objects_to_skip": []}), (".keras", {"objects_to_skip": [], "by_name": True}),
             (".keras", {"objects_to_skip": None, "by_name": None}), (".keras", {"foo": 1}),
             (".txt", {"by_name": True}), (".txt", {})]
    for ext, kwargs in table:
        cases[f"load_weights/{ext} {sorted(kwargs.items())}"] = _case(ext, kwargs)
    for ext in (".weights.h5", ".keras"):
        cases[f"load_weights/unbuilt {ext} by_name=True"] = _case(ext, {"by_name": True}, built=False)
    return cases


TABLE = case_results.Table(__file__, _cases(), re.compile(r"(sequential_|dense_)\d+"))


@pytest.fixture(scope="module")
def tf_results() -> dict[int, Any]:
    return TABLE.tf_results()


@pytest.mark.clause("keras.model.save-weights")
def test_load_weights_keyword_arguments_as_tf(tf_results: dict[int, Any]) -> None:
    TABLE.check(tf_results, lambda lab: lab.startswith("load_weights/"))


if __name__ == "__main__":  # TF worker
    tf_workers.serve(TABLE.tf_worker)
    os._exit(0)
