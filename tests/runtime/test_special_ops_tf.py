"""The trigonometric, hyperbolic and special functions (runtime/ops/special.py) against real
TensorFlow 2.21 on edge values (NaN, ±inf, ±0, subnormals, poles, large arguments) in every float
dtype simdist has, and the error each raises for a dtype TF refuses (class and message).
Needs the `tf` extra."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import tf_workers

pytestmark = [pytest.mark.tf, pytest.mark.clause("ops.special-functions", ref="tf221"),
              tf_workers.tf_or_golden(__file__)]

FUNCS = ("sin", "cos", "tan", "atan", "sinh", "cosh", "asinh", "expm1", "erf", "lgamma", "digamma", "log_sigmoid")
EDGES = [np.nan, np.inf, -np.inf, 0.0, -0.0, 1.0, -1.0, -2.0, 0.5, -2.5, 3.0, -30.0, 30.0, 100.0, 1e4, 1e-7]
FLOATS = ("float16", "float32", "float64")
# Relative tolerance per dtype: TF's Eigen kernels and NumPy/SciPy may differ in the last bits.
RTOL = {"float16": 2e-3, "float32": 2e-6, "float64": 1e-12}

VALUE_CASES = [(f, d) for f in FUNCS for d in FLOATS]
ERROR_CASES = [(f, d) for f in FUNCS for d in ("int32", "bool")] + [("polygamma", "float16"),
                                                                     ("polygamma", "int32-x")]


def _values(tf: Any, f: str, d: str) -> Any:
    x = tf.constant(np.asarray(EDGES, dtype=d))
    return getattr(tf.math, f)(x).numpy(), getattr(tf.math, f)(x).dtype.name


def _error(tf: Any, f: str, d: str) -> Any:
    try:
        if f == "polygamma":
            x = tf.constant([1, 2], tf.int32) if d == "int32-x" else tf.constant([1.0, 2.0], tf.float16)
            tf.math.polygamma(tf.constant([1.0, 2.0], tf.float32 if d == "int32-x" else tf.float16), x)
        else:
            getattr(tf.math, f)(tf.constant([1, 0] if d == "int32" else [True, False]))
    except Exception as e:  # noqa: BLE001 - the error is the result
        msg = str(e)
        if msg.startswith("{{"):     # TF's {{function_node ...}} prefix
            msg = msg[msg.find("}}") + 2:]
        return type(e).__name__, msg.split("\n")[0].strip()
    return None


def _tf_worker(indices: list[int]) -> dict[int, Any]:
    import tensorflow as tf
    out: dict[int, Any] = {}
    for k in indices:
        if k < len(VALUE_CASES):
            out[k] = _values(tf, *VALUE_CASES[k])
        else:
            out[k] = _error(tf, *ERROR_CASES[k - len(VALUE_CASES)])
    return out


@pytest.fixture(scope="module")
def tf_results() -> dict[int, Any]:
    return tf_workers.spawn(__file__, list(range(len(VALUE_CASES) + len(ERROR_CASES))))


@pytest.mark.parametrize("k", range(len(VALUE_CASES)), ids=[f"{f}-{d}" for f, d in VALUE_CASES])
def test_edge_values_as_tensorflow(k: int, tf_results: dict[int, Any]) -> None:
    from simdist import tf
    f, d = VALUE_CASES[k]
    want, want_dtype = tf_results[k]
    got, got_dtype = _values(tf, f, d)
    assert got_dtype == want_dtype, f"tf.math.{f} of {d} gives {got_dtype}, but TF 2.21 gives {want_dtype}"
    # TF's CPU kernels flush subnormal inputs and results to zero (FTZ/DAZ); simdist computes them
    # (docs/spec.md, ops.special-functions): subnormals compare as zero of their sign.
    tiny = np.finfo(d).tiny
    g, w = got.astype(np.float64), want.astype(np.float64)
    g, w = np.where(np.abs(g) < tiny, 0.0, g), np.where(np.abs(w) < tiny, 0.0, w)
    close = np.isclose(g, w, rtol=RTOL[d], atol=0, equal_nan=True)
    bad = np.flatnonzero(~close)
    assert bad.size == 0, (f"tf.math.{f}({d}) at x={[EDGES[i] for i in bad]}: simdist {got[bad].tolist()}, "
                           f"TF 2.21 {want[bad].tolist()}")


@pytest.mark.parametrize("k", range(len(ERROR_CASES)), ids=[f"{f}-{d}" for f, d in ERROR_CASES])
def test_refused_dtypes_as_tensorflow(k: int, tf_results: dict[int, Any]) -> None:
    from simdist import tf
    f, d = ERROR_CASES[k]
    want = tf_results[len(VALUE_CASES) + k]
    got = _error(tf, f, d)
    assert want is not None, f"TF 2.21 accepts tf.math.{f} of {d}: the case is wrong"
    assert got is not None, f"simdist accepts tf.math.{f} of {d}, but TF 2.21 raises {want[0]}: {want[1]}"
    assert got[0] == want[0], f"tf.math.{f} of {d} raises {got[0]}, but TF 2.21 raises {want[0]} ({want[1]})"
    assert want[1].startswith(got[1].split(" [Op:")[0]), \
        f"tf.math.{f} of {d}: simdist says {got[1]!r}, TF 2.21 says {want[1]!r}"


if __name__ == "__main__":  # TF worker: python test_special_ops_tf.py 0,1,2 -> pickled results on stdout
    tf_workers.serve(_tf_worker)
