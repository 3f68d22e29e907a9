"""fit/evaluate/predict's arrays against Keras 3.15 on TF 2.21 (spec `keras.fit.arguments`): Keras's
ArrayDataAdapter slices its arrays through array_slicing.convert_to_sliceable, which casts every float array whose
dtype is not keras.config.floatx() to floatx() (x, y and sample_weight alike, NumPy arrays and tf.Tensors alike), so
a step sees float32 batches of float64 or float16 data by default, and float64 batches of float32 data under
set_floatx("float64"); integer arrays keep their dtype. simdist kept every dtype (found writing the probes of the
forty-first blind batch, docs/conformance.md)."""

from __future__ import annotations

import os
import re
from typing import Any, Callable

import numpy as np
import pytest

import case_results
import tf_workers

pytestmark = [pytest.mark.tf, tf_workers.tf_or_golden(__file__)]


def _case(floatx: str, x_dtype: str, kind: str) -> Callable[[Any], Any]:
    def case(tf: Any) -> Any:
        keras = tf.keras
        seen: list[tuple] = []

        class M(keras.Model):
            def __init__(self) -> None:
                super().__init__()
                self.d = keras.layers.Dense(1)

            def call(self, x: Any) -> Any:
                return self.d(x)

            def train_step(self, data: Any) -> Any:
                x, y, sw = keras.utils.unpack_x_y_sample_weight(data)
                seen.append(("train", x.dtype.name, y.dtype.name, sw.dtype.name))
                return {"n": tf.constant(0.0)}

            def test_step(self, data: Any) -> Any:
                x, y, sw = keras.utils.unpack_x_y_sample_weight(data)
                seen.append(("test", x.dtype.name, y.dtype.name, None if sw is None else sw.dtype.name))
                return {"n": tf.constant(0.0)}

            def predict_step(self, data: Any) -> Any:
                x, _, _ = keras.utils.unpack_x_y_sample_weight(data)
                seen.append(("predict", x.dtype.name))
                return x

        old = keras.config.floatx()
        keras.config.set_floatx(floatx)
        try:
            m = M()
            m.compile("sgd", "mse", run_eagerly=True)
            x = np.full((4, 2), 1.0 + 2.0 ** -20, x_dtype) if x_dtype != "int32" else np.ones((4, 2), "int32")
            y, sw = np.ones((4, 1), "float64"), np.ones((4,), "float16")
            if kind == "tensor":
                x, y, sw = tf.constant(x), tf.constant(y), tf.constant(sw)
            m.fit(x, y, sample_weight=sw, batch_size=2, verbose=0, shuffle=False)
            m.evaluate(x, y, batch_size=4, verbose=0)
            p = m.predict(x, batch_size=4, verbose=0)
            return sorted(set(seen)), p.dtype.name, np.asarray(p, "float64").tolist()
        finally:
            keras.config.set_floatx(old)
    return case


def _cases() -> dict[str, Callable[[Any], Any]]:
    return {f"arrays/floatx={fx} x={xd} {kind}": _case(fx, xd, kind)
            for fx in ("float32", "float64", "float16") for xd in ("float64", "float32", "float16", "int32")
            for kind in ("numpy", "tensor")}


TABLE = case_results.Table(__file__, _cases(), re.compile(r"(m|dense)_\d+"))


@pytest.fixture(scope="module")
def tf_results() -> dict[int, Any]:
    return TABLE.tf_results()


@pytest.mark.clause("keras.fit.arguments")
def test_fit_evaluate_predict_cast_float_arrays_to_floatx_as_tf(tf_results: dict[int, Any]) -> None:
    TABLE.check(tf_results, lambda lab: lab.startswith("arrays/"))


if __name__ == "__main__":  # TF worker
    tf_workers.serve(TABLE.tf_worker)
    os._exit(0)
