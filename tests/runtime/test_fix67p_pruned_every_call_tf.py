"""A stateless op whose result nothing uses is pruned on every call of a tf.function, not only the tracing one,
against TF 2.21 (the sixty-seventh session, helper fix67p; clause function.trace-time-errors; simdist/tf/_function.py
`_rerecorded`'s deferral, runtime/ops/pruning.py).

TF runs the pruned function body on every call (PruneFunctionBody), so a subscript or gather out of range whose output
reaches no result, write or stateful op never raises, whatever index a later call passes; simdist deferred the error
only on the call that traced, and a later call that runs the Python again (a subscript by an argument tensor reads its
value) raised. Each case: a list of [label, value or [error class]].
"""

from typing import Any, Callable

import numpy as np
import pytest

import tf_programs
import tf_workers

pytestmark = [pytest.mark.tf, tf_workers.tf_or_golden(__file__)]


def _v(r: Any) -> Any:
    if hasattr(r, "numpy"):
        a = np.asarray(r.numpy())
        if a.dtype.kind == "f":   # (bits: NaN payloads and signed zeros)
            return [r.dtype.name, list(a.shape), a.view(np.dtype(f"u{a.dtype.itemsize}")).ravel().tolist()]
        return [r.dtype.name, list(a.shape), a.ravel().tolist()]
    if isinstance(r, (list, tuple)):
        return [type(r).__name__] + [_v(x) for x in r]
    if isinstance(r, dict):
        return {k: _v(x) for k, x in sorted(r.items())}
    return r if r is None or isinstance(r, (bool, int, float, str)) else repr(r)


def _try(out: list, label: str, fn: Callable[[], Any]) -> None:
    try:
        out.append([label, _v(fn())])
    except Exception as e:  # noqa: BLE001 - the class is what is compared (TF's text names its graph's function)
        out.append([label, [type(e).__name__]])


INDICES = (1, 7, 2, 9, -9, -1, 5)


def _subscripts(tf: Any, out: list) -> None:
    """Unused subscripts by an argument index (t[i], t[i, 1:], t[:, i]) beside a variable write that is kept: each
    call's value and the variable after it."""
    t = tf.constant(np.arange(15, dtype=np.float32).reshape(5, 3) * 0.25)
    v = tf.Variable(np.ones(3, np.float32))
    forms = {"t[i]": lambda i: t[i], "t[i, 1:]": lambda i: t[i, 1:], "t[:, i]": lambda i: t[:, i]}
    for name, form in forms.items():
        def body(i: Any, form: Any = form) -> Any:
            v.assign_add(t[0])
            _ = form(i)
            return t * 2.0 + v[0]
        f = tf.function(body, autograph=False)
        for i in INDICES:
            _try(out, f"{name} {i}", lambda: f(tf.constant(i)))
            _try(out, f"{name} {i} v", lambda: v.read_value())


def _used(tf: Any, out: list) -> None:
    """The same subscripts when something uses them (the result, a variable write): every out-of-range call raises."""
    t = tf.constant(np.arange(15, dtype=np.float32).reshape(5, 3) * 0.25)
    v = tf.Variable(np.zeros(3, np.float32))
    f = tf.function(lambda i: t[i] * 2.0, autograph=False)
    g = tf.function(lambda i: v.assign(t[i]), autograph=False)
    for i in INDICES:
        _try(out, f"result {i}", lambda: f(tf.constant(i)))
        _try(out, f"write {i}", lambda: g(tf.constant(i)))
        _try(out, f"write {i} v", lambda: v.read_value())


def _gathers(tf: Any, out: list) -> None:
    """Unused gathers, and a tape through a gather whose forward nothing uses: tape.gradient(gather(p, i) * 2, p) and
    the gradient of a sum beside a dropped gather."""
    p = tf.constant(np.arange(15, dtype=np.float32).reshape(5, 3) * 0.5)

    def plain(i: Any) -> Any:
        _ = tf.gather(p, i)
        return tf.reduce_sum(p)

    def slices(i: Any) -> Any:
        with tf.GradientTape() as tape:
            tape.watch(p)
            y = tf.gather(p, i) * 2.0
        g = tape.gradient(y, p)
        return [g.values, g.indices]

    def beside(i: Any) -> Any:
        with tf.GradientTape() as tape:
            tape.watch(p)
            _ = tf.gather(p, i)
            z = tf.reduce_sum(p * 3.0)
        return tape.gradient(z, p)

    for name, body in (("plain", plain), ("slices", slices), ("beside", beside)):
        f = tf.function(body, autograph=False)
        for i in INDICES:
            _try(out, f"{name} {i}", lambda: f(tf.constant(i)))
            _try(out, f"{name} [{i}, 0]", lambda: f(tf.constant([i, 0])))


def program(tf: Any, case: dict, workdir: str) -> Any:
    out: list[Any] = []
    {"subscripts": _subscripts, "used": _used, "gathers": _gathers}[case["name"]](tf, out)
    return out


NAMES = ["subscripts", "used", "gathers"]
CASES: dict = {n: {"strategy": "default", "name": n} for n in NAMES}


@pytest.fixture(scope="module")
def tf_results(request: Any) -> dict:
    return tf_programs.spawn(__file__, CASES, tf_programs.selected(request, __file__))


@pytest.mark.clause("function.trace-time-errors")
@pytest.mark.parametrize("index", range(len(NAMES)), ids=NAMES)
def test_unused_ops_pruned_every_call_as_tf(index: int, tf_results: dict, tmp_path: Any) -> None:
    name = NAMES[index]
    got, want = tf_programs.on_simdist(program, CASES[name], str(tmp_path)), tf_results[index]
    assert [g[0] for g in got] == [w[0] for w in want], f"{name}: labels differ"
    for g, w in zip(got, want):
        assert g == w, f"{name}: {w[0]}: simdist gives {g[1]}, TF 2.21 gives {w[1]}"


if __name__ == "__main__":  # TF worker
    tf_workers.serve(tf_programs.worker(CASES, program))
