"""tf.print and tf.strings.format against real TensorFlow 2.21 (clause ops.print): what each
writes to file descriptors 1 and 2 (captured together, in order), or the text it returns, for
every dtype's element format, ranks 0-4, empty tensors, summarize values, nested structures with
Python values, sep/end, variables, file:// output, tf.data functions, tf.function calls (PrintV2 runs at every call,
the Python only when it traces), strategy.run on two replicas and run_functions_eagerly. Needs
the `tf` extra (or its golden)."""

from __future__ import annotations

import collections
import logging
import os
import sys
import tempfile
from typing import Any, Callable

import numpy as np
import pytest

import tf_workers

pytestmark = [pytest.mark.tf, tf_workers.tf_or_golden(__file__)]
clause = pytest.mark.clause

_DONE: dict[str, Any] = {}


def _two_cpus(tf: Any) -> None:
    """Two logical CPUs before the process's first op (simdist: on a fresh simulation)."""
    if tf.__name__.startswith("simdist"):
        import simdist
        simdist.reset()
    elif "cpus" in _DONE:
        return
    cpu = tf.config.list_physical_devices("CPU")[0]
    tf.config.set_logical_device_configuration(cpu, [tf.config.LogicalDeviceConfiguration() for _ in range(2)])
    _DONE["cpus"] = True


def captured(fn: Callable[[], Any]) -> str:
    """What fn writes to file descriptors 1 and 2 (one file, in order; Python's streams flushed)."""
    sys.stdout.flush()
    sys.stderr.flush()
    quiet = logging.getLogger("tensorflow")
    level = quiet.level
    quiet.setLevel(logging.ERROR)     # (TF's warning that MirroredStrategy runs eagerly)
    saved = os.dup(1), os.dup(2)
    python_stdout = sys.stdout
    with tempfile.TemporaryFile() as f:
        os.dup2(f.fileno(), 1)
        os.dup2(f.fileno(), 2)
        sys.stdout = open(os.dup(1), "w", buffering=1)   # (Python's print to fd 1, as a script's; pytest's is not)
        try:
            fn()
        finally:
            sys.stdout.close()
            sys.stdout = python_stdout
            sys.stderr.flush()
            os.dup2(saved[0], 1)
            os.dup2(saved[1], 2)
            os.close(saved[0])
            os.close(saved[1])
            quiet.setLevel(level)
        f.seek(0)
        return f.read().decode("utf-8", errors="backslashreplace")


def _values(tf: Any) -> list:
    """One tensor per dtype and format rule."""
    return [tf.constant(1.5), tf.constant([0.1, 1 / 3, 1e10, 1e-7, np.inf, -np.inf, np.nan, -0.0]),
            tf.constant(np.array([-np.nan, 0.1, 1 / 3, 1e300], np.float64)),
            tf.constant([0.0999755859375, 1 / 3, 65504.0], tf.float16), tf.constant([1 / 3, 0.1], tf.bfloat16),
            tf.constant([True, False]), tf.constant(["a", "b\n\"'\\\t\x01\x7fé"]), tf.constant([1 + 2j, 3j]),
            tf.constant(1 + 2j, tf.complex64), tf.constant([-1, 2], tf.int8), tf.constant([255], tf.uint8),
            tf.constant([-3], tf.int16), tf.constant([65535], tf.uint16), tf.constant([2 ** 31 - 1]),
            tf.constant([4294967295], tf.uint32), tf.constant([2 ** 63 - 1], tf.int64),
            tf.constant([2 ** 64 - 1], tf.uint64), tf.constant(np.array([1e-45, 1e-39], np.float32))]


def _dtypes(tf: Any) -> list:
    return [tf.strings.format("{}", x).numpy() for x in _values(tf)]


def _float_bits(tf: Any) -> list:
    """Every float16 and bfloat16 bit pattern, and 4000 seeded float32 and float64 bit patterns
    (NaNs, infinities, subnormals, every exponent): %g's digits and the round-trip rule."""
    rng = np.random.default_rng(7)
    every = np.arange(65536, dtype=np.uint16)
    return [tf.strings.format("{}", tf.bitcast(tf.constant(every), tf.float16), summarize=-1).numpy(),
            tf.strings.format("{}", tf.bitcast(tf.constant(every), tf.bfloat16), summarize=-1).numpy(),
            tf.strings.format("{}", tf.bitcast(tf.constant(rng.integers(0, 2 ** 32, 4000, dtype=np.uint32)),
                                               tf.float32), summarize=-1).numpy(),
            tf.strings.format("{}", tf.bitcast(tf.constant(rng.integers(0, 2 ** 63, 4000, dtype=np.uint64)),
                                               tf.float64), summarize=-1).numpy()]


def _nested_text(tf: Any) -> list:
    """Strings and floats in ranks 2-4 with summarize 1 and 2, and structures pprint breaks."""
    words = tf.reshape(tf.constant([f"w{i}\t" for i in range(24)]), [2, 3, 4])
    return [tf.strings.format("{}", words, summarize=1).numpy(),
            tf.strings.format("{}", tf.reshape(tf.range(120.0) / 7, [2, 3, 4, 5]), summarize=2).numpy(),
            tf.strings.format("{} and {}", (tf.ones([1, 1, 1, 1], tf.int64), tf.zeros([2, 2], tf.bool))).numpy(),
            captured(lambda: tf.print({3: "c", 1: [tf.constant(1.5), ("t",)], 2: {"z": 1, "a": tf.constant([1])}},
                                      [tf.constant(i) for i in range(12)], ("one",)))]


def _shapes(tf: Any) -> list:
    return [tf.strings.format("{}", tf.reshape(tf.range(int(np.prod(s))), s)).numpy()
            for s in [[], [1], [7], [2, 3], [10, 10], [2, 3, 4], [2, 3, 4, 5], [1, 1, 1, 1], [7, 1, 7, 2]]]


def _empty(tf: Any) -> list:
    return [tf.strings.format("<{}>", tf.zeros(s, dt)).numpy() for s in [[0], [3, 0], [0, 3], [2, 0, 2]]
            for dt in [tf.float32, tf.bool, tf.string, tf.complex64]]


def _summarize(tf: Any) -> list:
    m = tf.reshape(tf.range(100), [10, 10])
    c = tf.constant([[1 + 2j, 3j], [4, 5j]])
    return [tf.strings.format("{}", x, summarize=k).numpy() for k in [0, 1, 2, -1, 6, None]
            for x in [m, tf.range(7), tf.constant(3), tf.constant([True, False, True]), c, tf.constant(1j)]]


def _format_args(tf: Any) -> list:
    t = tf.constant([1, 2])
    return [tf.strings.format("a%sb%s", (t, tf.constant([[1.5]])), placeholder="%s").numpy(),
            tf.strings.format("{}", [tf.constant(1)]).numpy(), tf.strings.format("{}", [[1.5, 2.5]]).numpy(),
            tf.strings.format("no placeholder", []).numpy()]


def _format_errors(tf: Any) -> list:
    t = tf.constant([1, 2])
    out = []
    for call in [lambda: tf.strings.format("{} {}", [t]), lambda: tf.strings.format("{}", [1, 2]),
                 lambda: tf.strings.format(t, [t]), lambda: tf.strings.format(b"x{}", t)]:
        try:
            out.append(call())
        except Exception as e:  # noqa: BLE001 - the error is the result
            out.append((type(e).__name__, str(e) if "count" not in str(e) else "(names the tensor's class)"))
    return out


def _structures(tf: Any) -> str:
    t = tf.constant([1, 2])
    return captured(lambda: [
        tf.print(1, [2, t], {"b": t, "a": "s"}, (t,), "x{}y", sep="|", end="<END>\n"),
        tf.print(collections.OrderedDict([("b", t), ("a", 1.5)]), {"k": [t, (t, None)]}),
        tf.print(tf.constant("scalar string")), tf.print(tf.constant(["s"]), tf.constant("x")),
        tf.print(), tf.print("{}", t, "{}0"), tf.print(np.array([1, 2]), None, 2.5, True, b"by"),
        tf.print(tf.sparse.SparseTensor([[0, 1]], [3], [2, 2])), tf.print(list(range(30)), t),
        tf.print("tensors:", t, {2: t * 2}, output_stream=sys.stdout), tf.print(t, t, sep=",", end=""),
        tf.print(tf.range(10), summarize=2, sep="", end="\n\n")])


def _variables(tf: Any) -> str:
    v = tf.Variable([1.5, 2.0])
    s = tf.Variable("text")
    @tf.function
    def f() -> None:
        tf.print("v =", v, s)
    return captured(lambda: [tf.print(v), tf.print(s), f(), v.assign([3.0, 4.0]), f()])


def _guide(tf: Any) -> str:
    """The tf.function guide's first example: Python's print when it traces, tf.print every call."""
    @tf.function
    def f(x: Any) -> None:
        print("Traced with", x, flush=True)
        tf.print("Executed with", x)

    @tf.function
    def g(x: Any) -> Any:
        print("Traced", flush=True)
        y = x * 2
        tf.print("y =", y, output_stream=sys.stdout)
        tf.print("x =", x)
        return y + 1
    return captured(lambda: [f(1), f(2), f(1), g(tf.constant(1)), g(tf.constant(2)), g(tf.constant([3, 4])),
                             g(tf.constant(5))])


def _in_loops(tf: Any) -> str:
    """Inside tf.cond branches and a while loop: the taken branch's print, each iteration's."""
    @tf.function
    def f(x: Any) -> Any:
        tf.cond(x > 0, lambda: [tf.print("positive", x), x][1], lambda: [tf.print("not positive", x), x][1])
        return tf.while_loop(lambda i: i < x, lambda i: [tf.print("i", i), i + 1][1], [tf.constant(0)])
    return captured(lambda: [f(tf.constant(2)), f(tf.constant(-1)), f(tf.constant(3))])


def _to_file(tf: Any) -> str:
    fd, path = tempfile.mkstemp()
    os.write(fd, b"before\n")
    os.close(fd)

    @tf.function
    def f(x: Any) -> None:
        tf.print("in function", x, output_stream="file://" + path, end=";")
    try:
        out = captured(lambda: [tf.print("to-file", tf.constant([1, 2]), output_stream="file://" + path),
                                f(tf.constant(1)), f(tf.constant(2))])
        with open(path) as fh:
            return out + "|" + fh.read()
    finally:
        os.unlink(path)


def _print_errors(tf: Any) -> list:
    t = tf.constant([1, 2])
    out = []
    for kw in [dict(output_stream="foo"), dict(bogus=1), dict(output_stream=42), dict(summarize=1.5),
               dict(summarize="2")]:
        try:
            out.append(captured(lambda: tf.print(t, **kw)))
        except Exception as e:  # noqa: BLE001 - the error is the result
            out.append((type(e).__name__, str(e)))
    for stream in ["file://", "file:///nonexistent_simdist_dir/out.txt"]:
        try:
            out.append(captured(lambda: tf.print(t, output_stream=stream)))
        except Exception as e:  # noqa: BLE001 - the error's class is the result (TF's text names its function node)
            out.append(type(e).__name__)
    return out


def _mirrored(tf: Any) -> str:
    """strategy.run on two replicas: each replica's print, replica 0 first, eagerly and traced."""
    s = tf.distribute.MirroredStrategy(["/cpu:0", "/cpu:1"])
    with s.scope():
        v = tf.Variable(3.0)

    def step(x: Any) -> Any:
        ctx = tf.distribute.get_replica_context()
        tf.print("replica", ctx.replica_id_in_sync_group, x, v)
        return x

    f = tf.function(lambda x: s.run(step, args=(x,)))
    return captured(lambda: [s.run(step, args=(tf.constant(1.0),)), f(tf.constant(1.0)), v.assign(4.0),
                             f(tf.constant(2.0))])


def _run_eagerly(tf: Any) -> str:
    """Under tf.config.run_functions_eagerly(True) the Python runs at every call, as does tf.print."""
    @tf.function
    def h(x: Any) -> None:
        print("python", x.numpy(), flush=True)
        tf.print("tf", x)
    tf.config.run_functions_eagerly(True)
    try:
        return captured(lambda: [h(tf.constant(1)), h(tf.constant(2))])
    finally:
        tf.config.run_functions_eagerly(False)


def _dataset_map(tf: Any) -> str:
    """In a tf.data function: once per element (the function's trace prints nothing)."""
    def m(x: Any) -> Any:
        tf.print("element", x)
        return x * 2
    ds = tf.data.Dataset.range(3).map(m).filter(lambda x: [tf.print("filter", x), x > 0][1])
    return captured(lambda: [v for v in ds])


CASES: list[tuple[str, Callable[[Any], Any]]] = [
    ("dtypes", _dtypes), ("float-bits", _float_bits), ("nested-text", _nested_text), ("shapes", _shapes), ("empty", _empty), ("summarize", _summarize),
    ("format-args", _format_args), ("format-errors", _format_errors), ("structures", _structures),
    ("variables", _variables), ("guide", _guide), ("cond-while", _in_loops), ("file", _to_file),
    ("print-errors", _print_errors), ("mirrored", _mirrored), ("run-eagerly", _run_eagerly),
    ("dataset-map", _dataset_map),
]


def _run(tf: Any, k: int) -> Any:
    _two_cpus(tf)
    return CASES[k][1](tf)


def _worker(indices: list[int]) -> dict[int, Any]:
    import tensorflow as tf
    return {i: _run(tf, i) for i in indices}


@pytest.fixture(scope="module")
def tf_results() -> dict[int, Any]:
    return tf_workers.spawn(__file__, list(range(len(CASES))))


def _lines(x: Any) -> str:
    return "\n".join(f"  {line!r}" for line in (x if isinstance(x, list) else str(x).split("\n")))


@clause("ops.print")
@pytest.mark.parametrize("k", range(len(CASES)), ids=[c[0] for c in CASES])
def test_print(k: int, tf_results: dict[int, Any]) -> None:
    from simdist import tf
    got, want = _run(tf, k), tf_results[k]
    assert got == want, f"[{CASES[k][0]}] simdist printed\n{_lines(got)}\nbut TF printed\n{_lines(want)}"


if __name__ == "__main__":  # TF worker: python test_print_tf.py 0,1,2 -> pickled results on stdout
    tf_workers.serve(_worker)
