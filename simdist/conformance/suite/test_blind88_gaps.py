"""The classes around the eighty-eighth blind batch's mutants (tests/mutants.py TRAINING_BATCH88, the Keras areas) that
the suite did not catch on first contact, each checked as a class rather than as the one mutant.

Each program runs on the backend under test; its expected result is TF 2.21's, observed by running the same program
on TF (`python -m simdist.conformance.suite.test_blind88_gaps --record`, which rewrites blind88_reference.json.gz).
Recorded on this session's host, an Intel Xeon with AVX-512 and oneDNN on (recorded_programs.avx512_with_onednn): the
programs whose bits may follow the CPU's kernels (prefix `kernel-`: Eigen's vectorized reductions) run on simdist
elsewhere under its reference model of such a host. Floats are compared by their bits."""

from __future__ import annotations

import os
from typing import Any

import numpy as np
import pytest

from simdist.conformance.suite.raw_bits import raw_bits as _raw
from simdist.conformance.suite.recorded_programs import (RecordedPrograms, avx512_with_onednn, error as _error,
                                                         reference_cpu, rng as _rng)

PATH = os.path.join(os.path.dirname(__file__), "blind88_reference.json.gz")

#: programs whose TF 2.21 bits may follow the CPU's kernels (clause ops.host-cpu)
HOST_DEPENDENT = ("kernel-",)

REF = RecordedPrograms(PATH, HOST_DEPENDENT, recording_host=avx512_with_onednn, recording_cpu=reference_cpu)
_program, _ids, _check = REF.add, REF.ids, REF.check


_DTYPES = ("bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "float16", "bfloat16")

#: reductions and scans of keras.ops: name -> call on x and the axis form (None, 0, 1 with keepdims)
_REDUCE = {
    "sum": lambda o, x, a, k: o.sum(x, axis=a, keepdims=k), "prod": lambda o, x, a, k: o.prod(x, axis=a, keepdims=k),
    "mean": lambda o, x, a, k: o.mean(x, axis=a, keepdims=k), "max": lambda o, x, a, k: o.max(x, axis=a, keepdims=k),
    "min": lambda o, x, a, k: o.min(x, axis=a, keepdims=k), "var": lambda o, x, a, k: o.var(x, axis=a, keepdims=k),
    "std": lambda o, x, a, k: o.std(x, axis=a, keepdims=k), "any": lambda o, x, a, k: o.any(x, axis=a, keepdims=k),
    "all": lambda o, x, a, k: o.all(x, axis=a, keepdims=k),
    "count_nonzero": lambda o, x, a, k: o.count_nonzero(x, axis=a),
    "argmax": lambda o, x, a, k: o.argmax(x, axis=a, keepdims=k), "argmin": lambda o, x, a, k: o.argmin(x, axis=a),
    "cumsum": lambda o, x, a, k: o.cumsum(x, axis=a), "cumprod": lambda o, x, a, k: o.cumprod(x, axis=a),
    "average": lambda o, x, a, k: o.average(x, axis=a), "median": lambda o, x, a, k: o.median(x, axis=a),
    "amax": lambda o, x, a, k: o.amax(x, axis=a, keepdims=k), "ptp": lambda o, x, a, k: o.ptp(x, axis=a),
}

#: elementwise and linear-algebra functions whose result dtype Keras's TF backend sets (widening, float results)
_ELEMENTWISE = {
    "absolute": lambda o, x: o.absolute(x), "negative": lambda o, x: o.negative(x), "square": lambda o, x: o.square(x),
    "sign": lambda o, x: o.sign(x), "sqrt": lambda o, x: o.sqrt(x), "floor": lambda o, x: o.floor(x),
    "ceil": lambda o, x: o.ceil(x), "round": lambda o, x: o.round(x), "clip": lambda o, x: o.clip(x, 1, 50),
    "maximum 3": lambda o, x: o.maximum(x, 3), "minimum 3": lambda o, x: o.minimum(x, 3),
    "add 1": lambda o, x: o.add(x, 1), "subtract 1": lambda o, x: o.subtract(x, 1),
    "multiply 2": lambda o, x: o.multiply(x, 2), "multiply x x": lambda o, x: o.multiply(x, x),
    "power 2": lambda o, x: o.power(x, 2), "floor_divide 3": lambda o, x: o.floor_divide(x, 3),
    "mod 3": lambda o, x: o.mod(x, 3), "true_divide 2": lambda o, x: o.true_divide(x, 2),
    "matmul": lambda o, x: o.matmul(x, o.transpose(x)), "dot": lambda o, x: o.dot(x[0], x[1]),
    "outer": lambda o, x: o.outer(x[0], x[1]), "trace": lambda o, x: o.trace(o.matmul(o.transpose(x), x)),
    "diff": lambda o, x: o.diff(x, axis=1), "sort": lambda o, x: o.sort(x, axis=1),
    "cumsum dtype int64": lambda o, x: o.cumsum(x, axis=1, dtype="int64"),
    "prod dtype float32": lambda o, x: o.prod(x, axis=1, dtype="float32"),
}


def _values(dt: str) -> np.ndarray:
    """A [2, 4] input of `dt` whose products and sums leave an 8- or 16-bit range (wrapping if kept there)."""
    base = np.array([[3, -2, 100, 127], [0, 5, 90, 7]], np.int64)
    if dt == "bool":
        return (base % 2).astype(bool)
    if dt.startswith("uint"):
        base = np.abs(base)
    if dt.startswith("u") or dt.startswith("i"):
        return base.astype(dt)
    return np.array([[3.5, -2.25, 100.0, 127.75], [0.0, 5.5, 90.5, 7.125]], np.float32)


def _keras_ops_integer_dtypes(tf: Any, mk: Any) -> Any:
    """keras.ops' reductions, scans and elementwise functions on every integer dtype, bool, float16 and bfloat16:
    the result's dtype, shape and values (floats by their bits) or the error class. Keras's TF backend widens some
    (sum and prod of bool/int8/int16 in int32, of uint8/uint16 in uint32; cumsum/cumprod of bool in int32; mean, var,
    std and sqrt of integers in floatx, of int64 too; argmax's int32) and keeps others in the input's dtype (max,
    clip, square, multiply: an int8 product wraps); a value outside the kept dtype's range shows which."""
    ops = tf.keras.ops
    out: dict[str, Any] = {}
    for dt in _DTYPES:
        if dt == "bfloat16":
            x = tf.cast(tf.constant(_values("float16")), "bfloat16")
        elif dt == "float16":
            x = tf.constant(_values("float16").astype("float16"))
        else:
            x = tf.constant(_values(dt))
        for name, f in _REDUCE.items():
            for axis, keep in ((None, False), (0, False), (1, True)):
                out[f"{name} axis {axis} {dt}"] = _error(lambda f=f, x=x, axis=axis, keep=keep: _raw(f(ops, x, axis, keep)))
        for name, f in _ELEMENTWISE.items():
            out[f"{name} {dt}"] = _error(lambda f=f, x=x: _raw(f(ops, x)))
    return out


_program("kernel-keras-ops-integer-and-half-dtypes", _keras_ops_integer_dtypes)


@pytest.mark.clause("keras.ops")
def test_blind88_keras_ops_integer_and_half_dtypes(backend: Any) -> None:
    """keras.ops' result dtypes and values on bool, int8-int64, uint8-uint32, float16 and bfloat16 inputs: which
    functions widen (sum/prod of small integers), which keep the dtype (and wrap), which give floats."""
    _check(backend, "kernel-keras-ops-integer-and-half-dtypes")


if __name__ == "__main__":
    import sys
    if "--record" in sys.argv:
        REF.record()
