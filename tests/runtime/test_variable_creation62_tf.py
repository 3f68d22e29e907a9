"""Variables and seed generators created inside a traced function or a tf.data function, and a Generator's state
variable of another dtype, against TF 2.21 (clauses function.trace-once, dataset.function-trace,
ops.random-generator; fix62b, from isweep62's and nsweep62's OPEN items).

TF 2.21 traces a tf.function's first call with variable creation allowed and, when that trace created variables,
traces the Python again with a creator that refuses any (polymorphic_function.py `_initialize`, then
`_no_variable_creation_config`): a function that makes a variable on every run — a tf.Variable, a keras.Variable, a
keras.random.SeedGenerator (its state variable), a Dense layer, a seeded preprocessing layer such as MixUp —
raises the singleton ValueError on its first call. A tf.data function is traced as a tf.function with an input
signature (structured_function.py `trace_tf_function`, get_concrete_function): the same two traces, so a map or
filter function that makes one raises when the dataset is made. simdist asked that second trace only when no
variable the first run made was still alive after a young-generation collection: a SeedGenerator's state variable
was kept by the call's own write journal (so it ran), a Dense layer's by whether the collector had promoted it
(so the answer changed with gc thresholds), and its tf.data functions applied no rule. Each traced case runs under
three gc thresholds. RngReadAndSkip refuses a state variable whose dtype is not int64 (InvalidArgumentError); simdist
raised ValueError from a conversion.

Each case is a list of [label, outcome]; an outcome is a value's [class, dtype, shape, values] or [error class].
"""

from __future__ import annotations

import gc
from typing import Any, Callable

import numpy as np
import pytest

import labelled_outcomes
import tf_programs
import tf_workers

pytestmark = [pytest.mark.tf, tf_workers.tf_or_golden(__file__)]

X = ((np.arange(2 * 4 * 5 * 3, dtype=np.float64).reshape(2, 4, 5, 3) * 37.0) % 255.0).astype(np.float32)


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


def _try(out: list, label: str, fn: Callable[[], Any], keras: Any = None) -> None:
    if keras is not None:
        keras.backend.clear_session()
    try:
        out.append([label, _val(fn())])
    except Exception as e:  # noqa: BLE001 - the class is what is compared
        out.append([label, [type(e).__name__]])


def _shape_only(fn: Callable[[], Any]) -> Callable[[], Any]:
    """A random layer's output by dtype and shape (its values are the seeded layers' own: not this module's)."""
    def run() -> Any:
        y = fn()
        return [y.dtype.name, [int(d) for d in y.shape]]
    return run


def _traced(tf: Any, out: list, workdir: str) -> None:
    keras = tf.keras
    L = keras.layers
    x = tf.constant(X)
    makers = {
        "tf.Variable": lambda t: tf.Variable(1.0) + t[0, 0, 0, 0],
        "keras.Variable": lambda t: keras.Variable(1.0) + t[0, 0, 0, 0],
        "SeedGenerator": lambda t: keras.random.normal((2,), seed=keras.random.SeedGenerator(3)) + t[0, 0, 0, :2],
        "Dense": lambda t: L.Dense(2)(t[:, 0, 0, :]),
        "two Dense": lambda t: L.Dense(3, activation="relu")(L.Dense(2)(t[:, 0, 0, :])),
        "RandomFlip": lambda t: L.RandomFlip(seed=2)(t),
        "Dropout": lambda t: L.Dropout(0.5, seed=2)(t, training=True),
        "MixUp": lambda t: L.MixUp(seed=9)(t, training=True),
    }
    for threshold in (1, 700, 100000):
        before = gc.get_threshold()
        gc.set_threshold(threshold, 10, 10)
        try:
            for name, make in makers.items():
                _try(out, f"{name} made in the function, gc threshold {threshold}",
                     _shape_only(lambda make=make: tf.function(make)(x)), keras)
        finally:
            gc.set_threshold(*before)
    dense = L.Dense(2, kernel_initializer="ones")
    _try(out, "a Dense made outside, built in the function", lambda: tf.function(lambda t: dense(t[:, 0, 0, :]))(x))
    sg = keras.random.SeedGenerator(3)
    _try(out, "a SeedGenerator made outside", _shape_only(lambda: tf.function(
        lambda t: keras.random.normal((2,), seed=sg) + t[0, 0, 0, :2])(x)))
    runs: list[int] = []
    held: dict = {}

    def guarded(t: Any) -> Any:
        runs.append(1)
        if "v" not in held:
            held["v"] = tf.Variable(2.0)
        return held["v"] * t[0, 0, 0, 0]
    f = tf.function(guarded)
    for k in range(3):
        _try(out, f"the singleton pattern, call {k}", lambda: f(x))
    _try(out, "the singleton pattern's Python runs", lambda: len(runs))
    ran: list[int] = []

    def every(t: Any) -> Any:
        ran.append(1)
        return tf.Variable(t[0, 0, 0, 0]) + 1.0
    g = tf.function(every)
    for k in range(2):
        _try(out, f"a variable on every run, call {k}", lambda: g(x))
        _try(out, f"a variable on every run, Python runs after call {k}", lambda: len(ran))


def _mapped(tf: Any, out: list, workdir: str) -> None:
    keras = tf.keras
    L = keras.layers
    images = tf.data.Dataset.from_tensor_slices(X).batch(2)
    r = tf.data.Dataset.range(3)
    cases = {
        "map: a SeedGenerator": lambda: r.map(lambda t: keras.random.normal((2,), seed=keras.random.SeedGenerator(3))),
        "map: a tf.Variable": lambda: r.map(lambda t: tf.Variable(1, dtype=tf.int64) + t),
        "filter: a tf.Variable": lambda: r.filter(lambda t: tf.Variable(1, dtype=tf.int64) > t),
        "map: GaussianNoise": lambda: images.map(lambda t: L.GaussianNoise(0.1, seed=2)(t, training=True)),
        "map: a Pipeline of seeded layers": lambda: images.map(
            lambda t: L.Pipeline([L.RandomRotation(0.2, seed=1), L.RandomBrightness(0.2, seed=2)])(t)),
        "map: RandomFlip": lambda: images.map(lambda t: L.RandomFlip(seed=1)(t)),
    }
    for name, make in cases.items():
        def built(make: Any = make) -> Any:
            make()
            return "built"
        _try(out, f"{name}, made", built, keras)
        _try(out, f"{name}, first element", _shape_only(lambda make=make: next(iter(make()))), keras)
    keras.backend.clear_session()
    dense = L.Dense(2, kernel_initializer="ones")
    _try(out, "map: a Dense made outside, built in the function",
         lambda: next(iter(images.map(lambda t: dense(t[:, 0, 0, :])))))
    held: dict = {}

    def guarded(t: Any) -> Any:
        if "v" not in held:
            held["v"] = tf.Variable(2.0)
        return held["v"] * t
    _try(out, "map: the singleton pattern", lambda: list(tf.data.Dataset.from_tensor_slices([1.0, 2.0]).map(guarded)))


def _generator_state(tf: Any, out: list, workdir: str) -> None:
    for dt in ("int32", "int64", "float32", "float64", "uint64"):
        for n in (2, 3, 4):
            def make(dt: str = dt, n: int = n) -> Any:
                return tf.random.Generator(state=tf.Variable([1] * n, dtype=dt), alg="philox")
            _try(out, f"state variable {dt} of {n}, normal", lambda make=make: make().normal([2]))
            _try(out, f"from_state variable {dt} of {n}, uniform", lambda dt=dt, n=n: tf.random.Generator.from_state(
                tf.Variable([1] * n, dtype=dt), alg="philox").uniform([2]))
            _try(out, f"state tensor {dt} of {n}, normal", lambda dt=dt, n=n: tf.random.Generator(
                state=tf.constant([1] * n, dtype=dt), alg="philox").normal([2]))
    _try(out, "state variable int32, threefry", lambda: tf.random.Generator(
        state=tf.Variable([1, 2], dtype=tf.int32), alg="threefry").normal([2]))
    g = tf.random.Generator(state=tf.Variable([1, 2, 3], dtype=tf.int32), alg="philox")
    _try(out, "int32 state read", lambda: g.state)
    for name, draw in (("uniform_full_int", lambda: g.uniform_full_int([2], tf.int32)), ("skip", lambda: g.skip(2)),
                       ("split", lambda: g.split(1)), ("make_seeds", lambda: g.make_seeds(1)),
                       ("in a tf.function", lambda: tf.function(lambda: g.normal([2]))())):
        _try(out, f"int32 state {name}", draw)


PROGRAMS = {"traced": _traced, "mapped": _mapped, "generator state": _generator_state}


def program(tf: Any, case: dict, workdir: str) -> Any:
    out: list[Any] = []
    PROGRAMS[case["name"]](tf, out, workdir)
    return out


CASES: dict[str, dict] = {name: {"strategy": "default", "name": name} for name in PROGRAMS}
NAMES = list(CASES)


@pytest.fixture(scope="module")
def tf_results(request: Any) -> dict[int, Any]:
    return tf_programs.spawn(__file__, CASES, tf_programs.selected(request, __file__))


def _check(name: str, tf_results: dict[int, Any], tmp_path: Any) -> None:
    got, want = tf_programs.on_simdist(program, CASES[name], str(tmp_path)), tf_results[NAMES.index(name)]
    labelled_outcomes.assert_as_tf(name, got, want)


@pytest.mark.clause("function.trace-once")
@pytest.mark.parametrize("index", [NAMES.index("traced")])
def test_a_function_making_variables_on_every_run_raises_on_its_first_call(index: int, tf_results: dict[int, Any],
                                                                          tmp_path: Any) -> None:
    _check("traced", tf_results, tmp_path)


@pytest.mark.clause("dataset.function-trace")
@pytest.mark.parametrize("index", [NAMES.index("mapped")])
def test_a_dataset_function_making_variables_raises_when_the_dataset_is_made(index: int, tf_results: dict[int, Any],
                                                                            tmp_path: Any) -> None:
    _check("mapped", tf_results, tmp_path)


@pytest.mark.clause("ops.random-generator")
@pytest.mark.parametrize("index", [NAMES.index("generator state")])
def test_a_generator_state_variable_must_be_int64(index: int, tf_results: dict[int, Any], tmp_path: Any) -> None:
    _check("generator state", tf_results, tmp_path)


if __name__ == "__main__":  # TF worker
    tf_workers.serve(tf_programs.worker(CASES, program))
