"""Differential tests of Keras 3's dtype promotion (clause keras.ops.dtype-promotion in
docs/spec.md): simdist vs TF 2.21 + Keras 3.15.

- "table" cases: `keras.backend.result_type(a, b)` and `result_type(a, b, float)` (the compute
  dtype of matmul) for every pair of the dtypes Keras promotes and the weak Python types
  `int`/`float`, under floatx "float32" and "float64"; the result or the error's class.
- "layer" cases: layers whose Keras ops meet operands of two dtypes: a `Dense(autocast=False)`
  (and an `EinsumDense(autocast=False)`) nested in a layer under "mixed_float16" (a float16
  input, a float32 kernel: `ops.matmul`/`ops.einsum` compute in float32 and return float32),
  a Conv1D(autocast=False) nested the same way (Keras's `ops.conv` does not promote: TF refuses
  the float16 input with the float32 kernel), and the merging layers on integer inputs (not
  autocast: uint8 + int8 is int16, int32 + uint32 is int64, as Keras's lattice says), and the
  operators of a functional model's symbolic inputs (int32 / int32 is float32, not TF's float64).
TF runs in a subprocess (tf_workers.spawn; this module is its worker).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
import pytest

import tf_cases
import tf_workers
from test_layers_conv_norm_tf import _first_line, assert_same

pytestmark = [pytest.mark.tf, tf_workers.tf_or_golden(__file__)]

CLAUSE = "keras.ops.dtype-promotion"
DTYPES = ("bool", "uint8", "uint16", "uint32", "int8", "int16", "int32", "int64", "bfloat16", "float16",
          "float32", "float64", "int", "float")


@dataclass(frozen=True)
class Case:
    name: str
    program: str
    floatx: str = "float32"
    clause: str = CLAUSE
    strategy: str = "default"
    rtol: float = 1e-6     # float32 products: oneDNN's summation order may differ by an ulp (CI's CPU too)


CASES = [
    Case("table-floatx32", "table"),
    Case("table-floatx64", "table", floatx="float64"),
    Case("nested-dense-autocast-false", "nested_dense"),
    Case("nested-dense-autocast-false-rank3", "nested_dense_rank3"),
    Case("nested-einsum-dense-autocast-false", "nested_einsum"),
    Case("nested-conv1d-autocast-false", "nested_conv"),
    Case("merge-int-inputs", "merge_ints"),
    Case("functional-operators", "functional_ops"),
]


def _type(name: str) -> Any:
    return {"int": int, "float": float}.get(name, name)


def _outcome(fn: Any) -> Any:
    try:
        return fn()
    except Exception as e:  # noqa: BLE001 (the class and message are the answer)
        return ("error", type(e).__name__, _first_line(str(e)), "")


def _table(tf: Any) -> dict[str, Any]:
    rt = tf.keras.backend.result_type
    out: dict[str, Any] = {}
    for a in DTYPES:
        for b in DTYPES:
            out[f"{a}+{b}"] = _outcome(lambda: rt(_type(a), _type(b)))
            out[f"{a}+{b}+float"] = _outcome(lambda: rt(_type(a), _type(b), float))
    return out


def _arr(t: Any) -> dict[str, Any]:
    return {"dtype": t.dtype.name, "value": np.asarray(t.numpy() if hasattr(t, "numpy") else t)}


def _nested(tf: Any, inner: Any, x: np.ndarray) -> Any:
    keras = tf.keras

    class Outer(keras.layers.Layer):
        def __init__(self) -> None:
            super().__init__()
            self.inner = inner

        def call(self, x: Any) -> Any:
            return self.inner(x)

    return _outcome(lambda: _arr(Outer()(x)))


def run(tf: Any, case: Case) -> Any:
    keras = tf.keras
    keras.backend.clear_session()
    rng = np.random.default_rng(29)
    keras.config.set_floatx(case.floatx)
    try:
        if case.program == "table":
            return _table(tf)
        keras.config.set_dtype_policy("mixed_float16" if case.program.startswith("nested") else "float32")
        init = keras.initializers.Constant
        if case.program == "nested_dense":
            x = rng.standard_normal((3, 4)).astype("float32")
            inner = keras.layers.Dense(3, autocast=False, kernel_initializer=init(0.3), bias_initializer=init(0.1))
            return _nested(tf, inner, x)
        if case.program == "nested_dense_rank3":
            x = rng.standard_normal((2, 3, 4)).astype("float32")
            inner = keras.layers.Dense(2, autocast=False, kernel_initializer=init(-0.7), activation="relu")
            return _nested(tf, inner, x)
        if case.program == "nested_einsum":
            x = rng.standard_normal((2, 4)).astype("float32")
            inner = keras.layers.EinsumDense("ab,bc->ac", output_shape=3, bias_axes="c", autocast=False,
                                             kernel_initializer=init(0.25), bias_initializer=init(0.5))
            return _nested(tf, inner, x)
        if case.program == "nested_conv":
            x = rng.standard_normal((2, 5, 2)).astype("float32")
            inner = keras.layers.Conv1D(2, 3, autocast=False, kernel_initializer=init(0.5))
            return _nested(tf, inner, x)
        if case.program == "merge_ints":
            u8 = tf.constant(np.array([[1, 200, 3]], dtype=np.uint8))
            i8 = tf.constant(np.array([[-4, 5, -128]], dtype=np.int8))
            i32 = tf.constant(np.array([[7, -8, 9]], dtype=np.int32))
            u32 = tf.constant(np.array([[10, 11, 4000000000]], dtype=np.uint32))
            layers = keras.layers
            return {
                "add_u8_i8": _outcome(lambda: _arr(layers.Add()([u8, i8]))),
                "average_u8_i8": _outcome(lambda: _arr(layers.Average()([u8, i8]))),
                "concat_u8_i8": _outcome(lambda: _arr(layers.Concatenate()([u8, i8]))),
                "add_i32_u32": _outcome(lambda: _arr(layers.Add()([i32, u32]))),
                "concat_i8_i32": _outcome(lambda: _arr(layers.Concatenate(axis=0)([i8, i32]))),
            }
        if case.program == "functional_ops":
            i32 = keras.Input((3,), dtype="int32")
            f32 = keras.Input((3,), dtype="float32")
            u8 = keras.Input((3,), dtype="uint8")
            i8 = keras.Input((3,), dtype="int8")
            m = keras.Input((3, 3), dtype="int32")
            outs = {"int32+float32": i32 + f32, "int32/int32": i32 / i32, "int32*2.5": i32 * 2.5,
                    "uint8-int8": u8 - i8, "int32@int32": m @ m, "3/int32": 3 / i32}
            model = keras.Model([i32, f32, u8, i8, m], outs)
            got = model([np.array([[1, -2, 7]], np.int32), np.array([[0.5, 0.25, -1.0]], np.float32),
                         np.array([[200, 1, 3]], np.uint8), np.array([[-100, 5, 3]], np.int8),
                         np.arange(9, dtype=np.int32).reshape(1, 3, 3) - 4])
            return {k: _arr(v) for k, v in got.items()}
        raise AssertionError(f"unknown program {case.program!r}")
    finally:
        keras.config.set_dtype_policy("float32")
        keras.config.set_floatx("float32")


tf_results = tf_cases.results_fixture(__file__, CASES)


@pytest.mark.clause("keras.ops.dtype-promotion")
@pytest.mark.parametrize("index", tf_cases.params(CASES, CLAUSE))
def test_keras_dtype_promotion_matches_tf(index: int, tf_results: dict[int, Any]) -> None:
    case = CASES[index]
    assert_same(tf_cases.on_simdist(run, case), tf_results[index], case.name, case.rtol)


@pytest.mark.clause("keras.ops.dtype-promotion")
def test_the_nested_dense_case_promotes_on_tf(tf_results: dict[int, Any]) -> None:
    """The nested-Dense case is only meaningful if Keras itself returned float32 there (not the
    float16 compute dtype, not an error): recorded answers are checked, not assumed."""
    want = tf_results[next(i for i, c in enumerate(CASES) if c.name == "nested-dense-autocast-false")]
    assert isinstance(want, dict) and want["dtype"] == "float32", \
        f"TF 2.21 + Keras now gives {want!r} for a nested Dense(autocast=False) under mixed_float16: update docs/spec.md"


if __name__ == "__main__":  # TF worker
    import os
    tf_workers.serve(tf_cases.worker(CASES, run))
    os._exit(0)
