"""TF 2.21's narrow dtypes (tf.dtypes.experimental / tf.experimental: float8_e4m3fn, float8_e5m2, float8_e4m3fnuz,
float8_e5m2fnuz, float8_e4m3b11fnuz, float4_e2m1fn, int4, uint4, int2, uint2) against TF 2.21 (the forty-fourth
session, helper names44, clause api.namespaces; simdist/runtime/narrow.py).

The DType objects' properties, as_dtype round trips, conversion of Python and NumPy values, Cast between every
narrow and standard dtype (which pairs TF supports and their values: NaN, overflow, wrapping, float8 to integers
through int32 / int64), and which ops compute on them (TF 2.21's CPU kernels) or refuse them with which class.

Each case is one program, the same on both backends, returning plain Python values (a raised error is its class and
its message's first line up to " [Op:"; a NotFoundError's up to the node, whose attrs TF lists in full); TF runs it
in a worker process (live or from the golden).
"""

from __future__ import annotations

from typing import Any, Callable

import numpy as np
import pytest

import tf_programs
import tf_workers

pytestmark = [pytest.mark.tf, tf_workers.tf_or_golden(__file__)]

NARROW = ["float8_e4m3fn", "float8_e5m2", "float8_e4m3fnuz", "float8_e5m2fnuz", "float8_e4m3b11fnuz", "float4_e2m1fn",
          "int4", "uint4", "int2", "uint2"]
STANDARD = ["float16", "bfloat16", "float32", "float64", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32",
            "uint64", "bool", "complex64", "complex128", "string"]


def _text(e: Exception) -> str:
    s = str(e).split("\n")[0].split(" [Op:")[0]
    if s.startswith("Could not find device for node"):
        s = s.split(" = ")[0]
    if "with these attrs" in s:
        s = s.split(" with these attrs")[0]
    return s


def attempt(f: Callable[[], Any]) -> Any:
    try:
        return ["ok", plain(f())]
    except Exception as e:  # noqa: BLE001 - the class and message are the observable
        return ["error", type(e).__name__, _text(e)]


def plain(v: Any) -> Any:
    """A tensor as [dtype name, shape, values as repr strings] (NaN compares equal as 'nan')."""
    if isinstance(v, (list, tuple)):
        return [plain(x) for x in v]
    if hasattr(v, "numpy") and hasattr(v, "dtype"):
        a = np.asarray(v.numpy())
        vals = a.reshape(-1).tolist() if a.dtype.kind in "iub" else [repr(complex(x)) if a.dtype.kind == "c" else
                                                                    repr(float(x)) for x in a.reshape(-1)]
        return [v.dtype.name, list(a.shape), vals]
    return v


def narrow(tf: Any, name: str) -> Any:
    return getattr(tf.dtypes.experimental, name)


def from_numpy(tf: Any, name: str, values: list) -> Any:
    return tf.convert_to_tensor(np.array(values, dtype=narrow(tf, name).as_numpy_dtype))


def properties(tf: Any) -> Any:
    out: dict[str, Any] = {}
    for n in NARROW:
        d = narrow(tf, n)
        out[n] = [d is getattr(tf.experimental, n), repr(d), str(d), d.name, d.size, d.as_datatype_enum,
                  d.as_numpy_dtype.__name__, d.is_floating, d.is_integer, d.is_unsigned, d.is_numeric, d.is_quantized,
                  d.is_complex, d.is_bool, d.real_dtype == d, d.base_dtype == d, d.is_numpy_compatible,
                  attempt(lambda: d.limits), repr(d.min), repr(d.max), type(d.min).__name__,
                  tf.as_dtype(n) == d, tf.as_dtype(d.as_numpy_dtype) == d, tf.as_dtype(d.as_datatype_enum) == d,
                  d == n, d.is_compatible_with(n), d != tf.float32, repr(tf.TensorSpec([2], d))]
    return out


def conversion(tf: Any) -> Any:
    out: dict[str, Any] = {}
    values = {"floats": [1.5, 2.0, -3.0], "ints": [1, 2, -3], "wrap": [100, -100, 2**40], "zero": 0, "half": 0.5,
              "true": True, "edge": [1e10, -1e10, float("nan"), float("inf"), 1e-9, 0.3, 465.0, 464.0]}
    for n in NARROW:
        d = narrow(tf, n)
        out[n] = {k: attempt(lambda: tf.constant(v, d)) for k, v in values.items()}
        out[n]["numpy f32"] = attempt(lambda: tf.constant(np.array([1.7, -2.5, 500.0], np.float32), d))
        out[n]["numpy i64"] = attempt(lambda: tf.constant(np.array([300, -1], np.int64), d))
        out[n]["convert list"] = attempt(lambda: tf.convert_to_tensor([1.0], d))
        out[n]["zeros"] = attempt(lambda: tf.zeros([2], d))
        out[n]["ones"] = attempt(lambda: tf.ones([2, 1], d))
        out[n]["other dtype"] = attempt(lambda: tf.convert_to_tensor(from_numpy(tf, n, [1]), tf.float32))
        out[n]["str"] = attempt(lambda: str(from_numpy(tf, n, [1, 0])))
    return out


def cast_matrix(tf: Any) -> Any:
    def make(n: str) -> Any:
        if n == "string":
            return tf.constant(["1"])
        return tf.convert_to_tensor(np.array([1], dtype=tf.as_dtype(n).as_numpy_dtype))
    out: dict[str, Any] = {}
    for s in NARROW + STANDARD:
        for t in NARROW + STANDARD:
            if s in NARROW or t in NARROW:
                out[f"{s}->{t}"] = attempt(lambda: tf.cast(make(s), t))
    return out


def cast_values(tf: Any) -> Any:
    out: dict[str, Any] = {}
    f = [1e10, -1e10, float("nan"), float("inf"), 1e-9, 0.3, 465.0, 464.0, 61440.0, 57344.0, -7.5, 3.25]
    for src in ("float32", "float64", "float16", "bfloat16"):
        for dst in ("float8_e4m3fn", "float8_e5m2"):
            out[f"{src}->{dst}"] = attempt(lambda: tf.cast(tf.constant(f, src), narrow(tf, dst)))
    e = [57344.0, -57344.0, float("nan"), float("inf"), -float("inf"), 0.5, -3.75, 200.0, 0.0, -0.0, 448.0, 1.0]
    for src in ("float8_e5m2", "float8_e4m3fn"):
        x = from_numpy(tf, src, e)
        for dst in STANDARD[:-1] + ["float8_e4m3fn", "float8_e5m2"]:
            out[f"{src}->{dst}"] = attempt(lambda: tf.cast(x, dst))
    i = [7, 8, -9, 300, -1, 15, 16, -128, 127]
    for src in ("int8", "int16", "int32", "int64"):
        for dst in ("int4", "uint4"):
            out[f"{src}->{dst}"] = attempt(lambda: tf.cast(tf.constant(i, src), narrow(tf, dst)))
    out["uint8->int4"] = attempt(lambda: tf.cast(tf.constant([7, 8, 255, 16], tf.uint8), narrow(tf, "int4")))
    for src in ("int4", "uint4"):
        x = from_numpy(tf, src, [-8, -1, 0, 7] if src == "int4" else [0, 15, 8, 7])
        for dst in ("int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64", "int4", "uint4"):
            out[f"{src}->{dst}"] = attempt(lambda: tf.cast(x, dst))
    return out


def ops(tf: Any) -> Any:
    out: dict[str, Any] = {}
    for n in NARROW:
        d = narrow(tf, n)
        x = from_numpy(tf, n, [1, 0, 1])
        x2 = from_numpy(tf, n, [[1, 0], [1, 1]])
        table = {
            "identity": lambda: tf.identity(x), "reshape": lambda: tf.reshape(x, [3, 1]),
            "expand_dims": lambda: tf.expand_dims(x, 0), "squeeze": lambda: tf.squeeze(tf.reshape(x, [1, 3])),
            "shape": lambda: tf.shape(x), "size": lambda: tf.size(x), "rank": lambda: tf.rank(x),
            "stop_gradient": lambda: tf.stop_gradient(x), "concat": lambda: tf.concat([x, x], 0),
            "stack": lambda: tf.stack([x, x]), "unstack": lambda: tf.unstack(x2), "transpose": lambda: tf.transpose(x2),
            "gather": lambda: tf.gather(x, [0, 2]), "gather_nd": lambda: tf.gather_nd(x2, [[1, 0]]),
            "slice": lambda: x[1:], "tf.slice": lambda: tf.slice(x, [1], [2]),
            "broadcast_to": lambda: tf.broadcast_to(x, [2, 3]), "split": lambda: tf.split(x, [1, 2]),
            "fill": lambda: tf.fill([2], tf.reshape(x, [3])[0]), "tile": lambda: tf.tile(x, [2]),
            "zeros_like": lambda: tf.zeros_like(x), "ones_like": lambda: tf.ones_like(x),
            "equal": lambda: tf.equal(x, x), "op ==": lambda: x == x, "add": lambda: x + x, "mul": lambda: x * x,
            "neg": lambda: -x, "abs": lambda: tf.abs(x), "sum": lambda: tf.reduce_sum(x),
            "max": lambda: tf.reduce_max(x), "matmul": lambda: tf.matmul(x2, x2),
            "where": lambda: tf.where(tf.constant([True, False, True]), x, x), "pad": lambda: tf.pad(x, [[1, 1]]),
            "reverse": lambda: tf.reverse(x, [0]), "argmax": lambda: tf.argmax(x), "maximum": lambda: tf.maximum(x, x),
            "unique": lambda: tf.unique(x)[0], "is_nan": lambda: tf.math.is_nan(x),
            "bitcast from": lambda: tf.bitcast(x, tf.uint8), "bitcast to": lambda: tf.bitcast(
                tf.constant([1], tf.uint8), d),
            "one_hot": lambda: tf.one_hot([0, 1], 2, dtype=d), "function identity": lambda: tf.function(
                lambda a: tf.identity(a))(x)}
        out[n] = {k: attempt(f) for k, f in table.items()}
    return out


def variables(tf: Any) -> Any:
    out: dict[str, Any] = {}
    for n in NARROW:
        x = from_numpy(tf, n, [1, 0, 1])

        def assign() -> Any:
            v = tf.Variable(x)
            v.assign(from_numpy(tf, n, [0, 1, 1]))
            return [v.dtype.name, v.read_value()]
        out[n] = [attempt(lambda: tf.Variable(x).read_value()), attempt(assign)]
    return out


def in_a_function(tf: Any) -> Any:
    """The same refusals inside a tf.function: the OpDef's TypeError at trace, the kernel lookup's
    InvalidArgumentError ("No OpKernel was registered") when the graph runs; classes and values compared."""
    out: dict[str, Any] = {}
    for n in ("float8_e4m3fn", "float8_e4m3fnuz", "int4"):
        x = from_numpy(tf, n, [1, 0, 1])
        table = {"add": lambda a: a + a, "equal": lambda a: tf.equal(a, a), "reshape": lambda a: tf.reshape(a, [3, 1]),
                 "concat": lambda a: tf.concat([a, a], 0), "cast": lambda a: tf.cast(a, tf.float32),
                 "tile": lambda a: tf.tile(a, [2]), "identity": lambda a: tf.identity(a)}
        res = {}
        for k, f in table.items():
            got = attempt(lambda: tf.function(f)(x))
            res[k] = got[:2] if got[0] == "error" else got
        out[n] = res
    return out


PROGRAMS: dict[str, Callable[[Any], Any]] = {"properties": properties, "conversion": conversion,
                                             "cast-matrix": cast_matrix, "cast-values": cast_values, "ops": ops,
                                             "variables": variables, "in-a-function": in_a_function}
CASES: dict[str, dict] = {n: {"strategy": "default", "name": n} for n in PROGRAMS}


def program(tf: Any, case: dict, workdir: str) -> Any:
    return PROGRAMS[case["name"]](tf)


@pytest.fixture(scope="module")
def tf_results(request: Any) -> dict[int, Any]:
    return tf_programs.spawn(__file__, CASES, tf_programs.selected(request, __file__))


def _flat(d: Any, prefix: str = "") -> dict[str, Any]:
    if isinstance(d, dict):
        out: dict[str, Any] = {}
        for k, v in d.items():
            out.update(_flat(v, f"{prefix}{k}/"))
        return out
    return {prefix.rstrip("/"): d}


@pytest.mark.clause("api.namespaces")
@pytest.mark.parametrize("index", range(len(PROGRAMS)), ids=list(PROGRAMS))
def test_narrow_dtypes_as_tf(index: int, tf_results: dict[int, Any], tmp_path: Any) -> None:
    name = list(CASES)[index]
    got, want = _flat(tf_programs.on_simdist(program, CASES[name], str(tmp_path))), _flat(tf_results[index])
    assert sorted(got) == sorted(want), f"{name}: simdist's keys {sorted(got)}, TF 2.21's {sorted(want)}"
    bad = [k for k in want if got[k] != want[k]]
    assert not bad, "; ".join(f"{name}: {k}: simdist gives {got[k]!r}, but TF 2.21 gives {want[k]!r}" for k in bad)


if __name__ == "__main__":  # TF worker
    tf_workers.serve(tf_programs.worker(CASES, program))
