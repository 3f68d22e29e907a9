"""Classes the fz54b generator (tests/fuzz54b) found at fz55's fresh seeds (55101...), each case observed on TF 2.21.

- traced_once_subnormals (clause ops.subnormals): a tf.function whose values hold subnormal floats (its arguments, a
  variable it reads, its own constants) runs its Python once, as TF traces once and runs the graph, whose kernels
  read them as zeros; simdist kept such a call eager and ran the Python again at every call (fz54b's trace-count
  class, 6 of 8 programs at seed 55101).
- traced_once_bincount (clause ops.counting): tf.math.bincount inside a tf.function on values that vary between calls
  runs its Python once; simdist read the values in Python to fix the output's size, so the call stayed eager (12 of
  24 programs at seeds 55101-55103 once the subnormal class was fixed).
- build_errors_in_body (clause function.trace-time-errors): an op's graph-build error (op_def_library's TypeError, a
  shape function's ValueError) caught by the tf.function's own try/except: TF raises it at the call while the Python
  traces; simdist raised the eager InvalidArgumentError there, converting it only when it left the function (the
  fz54b generator's seeds 55101 #5, 55106 #0, 55107 #7: `tf.math.maximum(4.0, x)` of a bfloat16 argument).
Each case: a list of [label, value] (a tensor as [dtype, shape, its bits]; an error as [its class]).
"""

from __future__ import annotations

from typing import Any, Callable

import numpy as np
import pytest

import tf_programs
import tf_workers

pytestmark = [pytest.mark.tf, tf_workers.tf_or_golden(__file__)]


def _bits(x: Any) -> list:
    a = np.asarray(x.numpy())
    if a.dtype.kind in "iub":
        return [x.dtype.name, list(a.shape), a.astype(np.int64).ravel().tolist()]
    u = {2: np.uint16, 4: np.uint32, 8: np.uint64}[a.dtype.itemsize]
    return [x.dtype.name, list(a.shape), [int(b) for b in a.view(u).ravel()]]


def _try(out: list, label: str, fn: Callable[[], Any]) -> None:
    try:
        r = fn()
        out.append([label, [_bits(t) for t in r] if isinstance(r, (list, tuple)) else _bits(r)])
    except Exception as e:  # noqa: BLE001 - the class is what is compared
        out.append([label, [type(e).__name__]])


def _subnormals(tf: Any, out: list) -> None:
    @tf.custom_gradient
    def cube(x):   # (a bound op: its backward closes over the recording call's tensors)
        return x * x * x, lambda dy: dy * 3.0 * x * x

    for dt in ("float32", "float64"):
        tiny = 1e-39 if dt == "float32" else 1e-310
        calls = [np.array([tiny, 1.0], dt), np.array([tiny, 3.0], dt), np.array([2.0, -4.0], dt),
                 np.array([-tiny, 5.0], dt)]
        y = tf.constant(np.array([3.0, tiny], dt))
        for order in ("subnormal first", "normal first"):
            runs: list = []

            @tf.function
            def f(x, y):
                runs.append(1)
                return [0.5 * x * y, x * 2.0 + tiny, tf.reduce_sum(x), tf.nn.relu(x) - x, cube(x)]
            seq = calls if order == "subnormal first" else calls[2:] + calls[:2]
            for k, c in enumerate(seq):
                _try(out, f"{dt} {order}: call {k}", lambda c=c, f=f: f(tf.constant(c), y))
            out.append([f"{dt} {order}: the Python runs", len(runs)])
        runs = []
        v = tf.Variable(np.array([tiny, 2.0], dt))

        @tf.function
        def g():
            runs.append(1)
            return v * 3.0 + 1.0
        _try(out, f"{dt} variable: call 0", g)
        _try(out, f"{dt} variable: call 1", g)
        v.assign(np.array([5.0, -tiny], dt))
        _try(out, f"{dt} variable assigned: call 2", g)
        v.assign(np.array([5.0, 7.0], dt))
        _try(out, f"{dt} variable assigned: call 3", g)
        out.append([f"{dt} variable: the Python runs", len(runs)])
        runs = []

        @tf.function
        def h(x):
            runs.append(1)
            return x * tiny + tiny
        for k, c in enumerate([[1.0, 2e38], [3.0, -1e308]]):
            _try(out, f"{dt} subnormal constants: call {k}", lambda c=c, h=h: h(tf.constant(np.array(c, dt))))
        out.append([f"{dt} subnormal constants: the Python runs", len(runs)])
    runs = []
    v32 = tf.Variable([1e-39, 2.0])

    @tf.function
    def taped(x):
        runs.append(1)
        with tf.GradientTape() as tape:
            tape.watch(x)
            loss = tf.reduce_sum(cube(x * v32))
        return [loss, tape.gradient(loss, x)]
    for k, c in enumerate([[1e-39, 1.5], [0.25, -2e-39]]):
        _try(out, f"a tape inside: call {k}", lambda c=c: taped(tf.constant(np.float32(c))))
    out.append(["a tape inside: the Python runs", len(runs)])


def _bincount(tf: Any, out: list) -> None:
    xs = [np.array([[1, 2], [2, 0]], np.int32), np.array([[5, 0], [0, 7]], np.int32),
          np.array([[0, 0], [0, 0]], np.int32), np.array([[-1, 0], [0, 1]], np.int32),
          np.array([[2**31 - 1, 0], [0, 1]], np.int32)]
    for kw in [{}, {"minlength": 6}, {"maxlength": 2}, {"minlength": 3, "maxlength": 4}, {"axis": -1},
               {"binary_output": True}, {"dtype": tf.float64}]:
        runs: list = []

        @tf.function
        def g(x, w):
            runs.append(1)
            b = tf.math.bincount(x, **kw)
            return [b, tf.shape(b), b if "binary_output" in kw else tf.math.bincount(x, weights=w, **kw)]
        for k, x in enumerate(xs):
            _try(out, f"{kw}: call {k}", lambda x=x, g=g: g(tf.constant(x), tf.constant(np.float32(x) * 0.5)))
        out.append([f"{kw}: the Python runs", len(runs)])
    runs = []

    @tf.function
    def u(x):
        runs.append(1)
        return tf.math.bincount(x)
    for k, x in enumerate([np.array([3, 1], np.int64), np.array([0, 9, 9], np.int64)]):
        _try(out, f"int64 values: call {k}", lambda x=x: u(tf.constant(x)))
    out.append(["int64 values: the Python runs", len(runs)])


def _catching(tf: Any, fn: Callable[[Any], Any], seen: list) -> Callable[[Any], Any]:
    def body(a):
        try:
            return fn(a)
        except Exception as e:  # noqa: BLE001 - the class the Python sees is compared
            seen.append(type(e).__name__)
            return tf.constant(0.0)
    return body


def _build_errors(tf: Any, out: list) -> None:
    x16 = tf.constant([1.5, -2.0, 3.0], tf.bfloat16)
    x32 = tf.constant([1.5, -2.0, 3.0, 0.5, 4.0, -1.0])
    x64 = tf.constant([1.0, 2.0, 3.0, 4.0, 5.0, 6.0], tf.float64)
    i32 = tf.constant([1, 2, 3])
    calls = [
        ("maximum(4.0, bfloat16)", lambda a: tf.math.maximum(4.0, a["x16"])),
        ("multiply(2.5, bfloat16)", lambda a: tf.math.multiply(2.5, a["x16"])),
        ("add(bfloat16, 2.5)", lambda a: tf.math.add(a["x16"], 2.5)),
        ("add(float32, float64)", lambda a: tf.math.add(a["x32"], a["x64"])),
        ("subtract(int32, 1.5)", lambda a: tf.math.subtract(a["i32"], 1.5)),
        ("matmul(float32, float64)", lambda a: tf.linalg.matmul(tf.reshape(a["x32"], [2, 3]),
                                                                 tf.reshape(a["x64"], [3, 2]))),
        ("reshape(6 elements, [4])", lambda a: tf.reshape(a["x32"], [4])),
        ("concat of ranks 1 and 2", lambda a: tf.concat([a["x32"], tf.reshape(a["x32"], [2, 3])], 0)),
        ("reduce_sum(axis=3)", lambda a: tf.math.reduce_sum(a["x32"], axis=3)),
        ("relu(int32 then float64 sum)", lambda a: tf.nn.relu(a["i32"]) + a["x64"][:3]),
        ("maximum(bfloat16, float32)", lambda a: tf.math.maximum(a["x16"], a["x32"][:3])),
    ]
    args = {"x16": x16, "x32": x32, "x64": x64, "i32": i32}
    for autograph in (False, True):
        for label, fn in calls:
            seen: list = []
            body = _catching(tf, fn, seen)
            _try(out, f"{label}, autograph={autograph}", lambda body=body: tf.function(body, autograph=autograph)(args))
            out.append([f"{label}, autograph={autograph}: the body caught", list(seen)])
        for label, fn in calls[:4]:
            _try(out, f"{label}, autograph={autograph}: uncaught", lambda fn=fn: tf.function(fn, autograph=autograph)(args))
    for label, fn in calls[:4]:
        _try(out, f"{label}: eager", lambda fn=fn: fn(args))


def program(tf: Any, case: dict, workdir: str) -> Any:
    out: list[Any] = []
    {"traced_once_subnormals": _subnormals, "traced_once_bincount": _bincount,
     "build_errors_in_body": _build_errors}[case["name"]](tf, out)
    return out


NAMES = ["traced_once_subnormals", "traced_once_bincount", "build_errors_in_body"]
CASES: dict[str, dict] = {n: {"strategy": "default", "name": n} for n in NAMES}


@pytest.fixture(scope="module")
def tf_results(request: Any) -> dict[int, Any]:
    return tf_programs.spawn(__file__, CASES, tf_programs.selected(request, __file__))


def _check(index: int, tf_results: dict[int, Any], tmp_path: Any) -> None:
    name = NAMES[index]
    got, want = tf_programs.on_simdist(program, CASES[name], str(tmp_path)), tf_results[index]
    assert [g[0] for g in got] == [w[0] for w in want], f"{name}: labels differ"
    for g, w in zip(got, want):
        assert g == w, f"{name}: {w[0]}: simdist gives {g[1]}, TF 2.21 gives {w[1]}"


@pytest.mark.clause("ops.subnormals")
@pytest.mark.parametrize("index", [0], ids=NAMES[:1])
def test_a_function_on_subnormal_values_runs_its_python_once(index: int, tf_results: dict[int, Any],
                                                              tmp_path: Any) -> None:
    _check(index, tf_results, tmp_path)


@pytest.mark.clause("ops.counting")
@pytest.mark.parametrize("index", [1], ids=NAMES[1:2])
def test_a_traced_bincount_runs_its_python_once(index: int, tf_results: dict[int, Any], tmp_path: Any) -> None:
    _check(index, tf_results, tmp_path)


@pytest.mark.clause("function.trace-time-errors")
@pytest.mark.parametrize("index", [2], ids=NAMES[2:3])
def test_build_errors_raise_at_the_call_in_the_body(index: int, tf_results: dict[int, Any], tmp_path: Any) -> None:
    _check(index, tf_results, tmp_path)


if __name__ == "__main__":  # TF worker
    tf_workers.serve(tf_programs.worker(CASES, program))
