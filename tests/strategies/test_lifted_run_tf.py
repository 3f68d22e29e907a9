"""strategy.run of a tf.function on MirroredStrategy, and the replicas' name scopes, against TF 2.21
(clause run.lifted-function).

TF 2.21's mirrored_run.call_for_each_replica lifts a tf.function `fn` given to strategy.run: it calls a
clone of `fn` (its decorator's arguments) whose Python runs fn's Python, AutoGraph-converted, on each
replica, one clone per (strategy, fn). So fn's Python gets the call's arguments as they are, its
defaults unbound (a NumPy default stays an array: `tf.constant(default)` works, where calling `fn`
itself binds it as a tensor, TypeError); fn itself never traces (experimental_get_tracing_count 0);
the Python runs once per replica per trace of the clone. A replica thread starts in its graph's
current name scope, replica i > 0 below it in `replica_i/` (absolute); eagerly every replica starts
at the root; a collective's merge runs in replica 0's scope. simdist called fn in every replica (each
a trace of its own, its NumPy defaults bound as tensors, replica 1's call as plain Python while
replica 0 recorded), and its replicas, greenlets of one thread, shared one name-scope stack (replica
1 saw replica 0's open scopes; `outer/blk/blk/add`).

Each case is a list of [label, outcome]; an outcome is a value's [class, dtype, shape, values] or [error class].
"""

from __future__ import annotations

from typing import Any, Callable

import numpy as np
import pytest

import tf_programs
import tf_workers

pytestmark = [pytest.mark.tf, tf_workers.tf_or_golden(__file__)]

BASE = (np.arange(6, dtype=np.float64).reshape(2, 3) - 2.5) * 0.375   # exact in every float type


def _val(x: Any) -> Any:
    if isinstance(x, dict):
        return {k: _val(x[k]) for k in sorted(x)}
    if isinstance(x, (list, tuple)):
        return [type(x).__name__, [_val(v) for v in x]]
    if hasattr(x, "numpy") and hasattr(x, "dtype"):
        a = np.asarray(x.numpy())
        return ["tensor", x.dtype.name, list(a.shape), a.tobytes().hex()]
    if x is None or isinstance(x, (bool, int, float, str)):
        return [type(x).__name__, x]
    return [type(x).__name__, str(x)]


def _try(out: list, label: str, fn: Callable[[], Any]) -> None:
    try:
        out.append([label, _val(fn())])
    except Exception as e:  # noqa: BLE001 - the class is what is compared
        out.append([label, [type(e).__name__]])


def _locals(s: Any, r: Any) -> Any:
    return [s.experimental_local_results(x) for x in (r if isinstance(r, tuple) else (r,))]


def _defaults(tf: Any, out: list, workdir: str) -> None:
    t = lambda label, fn: _try(out, label, fn)   # noqa: E731
    s = tf.distribute.MirroredStrategy(["/cpu:0", "/cpu:1"])
    base = BASE.copy()

    def step(scale=np.float32(2.0), table=base, dt="float32"):
        r = tf.cast(tf.distribute.get_replica_context().replica_id_in_sync_group, dt)
        return tf.cast(tf.constant(table), dt) * scale + r

    def step_x(x, table=base, n=3):
        return x * tf.constant(table, x.dtype)[0] + float(n)

    f, g = tf.function(step), tf.function(step_x)
    t("numpy default in tf.constant", lambda: _locals(s, s.run(f)))
    t("again", lambda: _locals(s, s.run(f)))
    t("kwargs given", lambda: _locals(s, s.run(f, kwargs={"scale": 0.5, "dt": "float64"})))
    t("argument and defaults", lambda: _locals(s, s.run(g, args=(tf.constant([1.0, -2.0, 0.25]),))))
    t("the function called alone", lambda: f())
    for dt in ("float16", "bfloat16", "float64"):
        t(f"{dt} argument", lambda: _locals(s, s.run(g, args=(tf.constant([1.0, -2.0, 0.25], dt),))))


def _traces(tf: Any, out: list, workdir: str) -> None:
    t = lambda label, fn: _try(out, label, fn)   # noqa: E731
    s = tf.distribute.MirroredStrategy(["/cpu:0", "/cpu:1"])
    ran: list[int] = []

    def step(x):
        ran.append(1)
        return x * 2.0

    f = tf.function(step)
    for k in range(3):
        t(f"call {k}", lambda: _locals(s, s.run(f, args=(tf.constant([1.0, 2.0]),))))
        t(f"tracing count after call {k}", lambda: f.experimental_get_tracing_count())
        t(f"Python runs after call {k}", lambda: len(ran))
    t("new shape", lambda: _locals(s, s.run(f, args=(tf.constant([1.0, 2.0, 3.0]),))))
    t("Python runs after a new shape", lambda: len(ran))
    t("fn called alone", lambda: f(tf.constant([1.0, 2.0])))
    t("tracing count after fn alone", lambda: f.experimental_get_tracing_count())
    t("Python runs after fn alone", lambda: len(ran))
    t("a second strategy", lambda: _locals(s, tf.distribute.MirroredStrategy(["/cpu:0", "/cpu:1"]).run(
        f, args=(tf.constant([1.0, 2.0]),))))
    t("Python runs after a second strategy", lambda: len(ran))


def _autograph(tf: Any, out: list, workdir: str) -> None:
    t = lambda label, fn: _try(out, label, fn)   # noqa: E731
    s = tf.distribute.MirroredStrategy(["/cpu:0", "/cpu:1"])

    def step(x):
        r = tf.distribute.get_replica_context().replica_id_in_sync_group
        if r > 0:
            y = x * 3.0
        else:
            y = x - 1.0
        return y

    t("autograph on", lambda: _locals(s, s.run(tf.function(step), args=(tf.constant([1.0, 2.0]),))))
    t("autograph off", lambda: _locals(s, s.run(tf.function(step, autograph=False), args=(tf.constant([1.0, 2.0]),))))


def _scopes(tf: Any, out: list, workdir: str) -> None:
    t = lambda label, fn: _try(out, label, fn)   # noqa: E731
    s = tf.distribute.MirroredStrategy(["/cpu:0", "/cpu:1"])
    seen: list = []

    def step(w):
        ctx = tf.distribute.get_replica_context()
        r = tf.cast(ctx.replica_id_in_sync_group, tf.float32)
        first = tf.get_current_name_scope()
        a = w * r
        with tf.name_scope("blk"):
            inner = tf.get_current_name_scope()
            b = a * 2.0
            c = ctx.all_reduce("SUM", b)
            after = tf.get_current_name_scope()
            d = c + a
        with tf.GradientTape() as tape:
            tape.watch(w)
            y = tf.reduce_sum(w * w * r)
        g = tape.gradient(y, w)
        names = [x.name for x in (a, b, d, y, g)] if not tf.executing_eagerly() else []
        seen.append([first, inner, after, tf.get_current_name_scope(), names])
        return d

    def outer(w):
        with tf.name_scope("outer"):
            return s.run(step, args=(w,))

    def take() -> Any:
        got = list(seen)
        seen.clear()
        return [["list", [["str", x] for x in row[:4]] + [["list", [["str", n] for n in row[4]]]]] for row in got]

    w = tf.constant([1.0, 2.0])
    t("eager run", lambda: (s.run(step, args=(w,)), take())[1])

    def eager_in_scope() -> Any:
        with tf.name_scope("top"):
            s.run(step, args=(w,))
            return take() + [["str", tf.get_current_name_scope()]]

    t("eager run inside a name scope", eager_in_scope)
    t("tf.function holding the run", lambda: (tf.function(outer)(w), take())[1])
    t("run of a tf.function", lambda: (s.run(tf.function(step), args=(w,)), take())[1])
    f = tf.function(step)
    t("run of a tf.function inside a name scope", lambda: (tf.function(lambda v: _in_scope(tf, s, f, v))(w), take())[1])


def _in_scope(tf: Any, s: Any, f: Any, v: Any) -> Any:
    with tf.name_scope("top"):
        return s.run(f, args=(v,))


PROGRAMS = {"defaults": _defaults, "traces": _traces, "autograph": _autograph, "scopes": _scopes}


def program(tf: Any, case: dict, workdir: str) -> Any:
    out: list[Any] = []
    PROGRAMS[case["name"]](tf, out, workdir)
    return out


CASES: dict[str, dict] = {name: {"strategy": "mirrored2", "name": name} for name in PROGRAMS}
NAMES = list(CASES)


@pytest.fixture(scope="module")
def tf_results(request: Any) -> dict[int, Any]:
    return tf_programs.spawn(__file__, CASES, tf_programs.selected(request, __file__))


def _check(name: str, tf_results: dict[int, Any], tmp_path: Any) -> None:
    got, want = tf_programs.on_simdist(program, CASES[name], str(tmp_path)), tf_results[NAMES.index(name)]
    assert [g[0] for g in got] == [w[0] for w in want], f"{name}: labels differ"
    bad = [f"{w[0]}: TF {w[1]!r}, simdist {g[1]!r}" for g, w in zip(got, want) if g[1] != w[1]]
    assert not bad, f"{name}: {len(bad)} of {len(want)} outcomes differ from TF 2.21:\n" + "\n".join(bad[:12])


@pytest.mark.clause("run.lifted-function")
@pytest.mark.parametrize("index", [NAMES.index("defaults")])
def test_a_run_function_gets_its_python_defaults_unbound(index: int, tf_results: dict[int, Any],
                                                         tmp_path: Any) -> None:
    _check("defaults", tf_results, tmp_path)


@pytest.mark.clause("run.lifted-function")
@pytest.mark.parametrize("index", [NAMES.index("traces")])
def test_a_run_function_traces_as_its_clone(index: int, tf_results: dict[int, Any], tmp_path: Any) -> None:
    _check("traces", tf_results, tmp_path)


@pytest.mark.clause("run.lifted-function")
@pytest.mark.parametrize("index", [NAMES.index("autograph")])
def test_a_run_function_converts_as_its_decorator_says(index: int, tf_results: dict[int, Any], tmp_path: Any) -> None:
    _check("autograph", tf_results, tmp_path)


@pytest.mark.clause("run.lifted-function")
@pytest.mark.parametrize("index", [NAMES.index("scopes")])
def test_each_replica_has_its_own_name_scopes(index: int, tf_results: dict[int, Any], tmp_path: Any) -> None:
    _check("scopes", tf_results, tmp_path)


if __name__ == "__main__":  # TF worker
    tf_workers.serve(tf_programs.worker(CASES, program))
