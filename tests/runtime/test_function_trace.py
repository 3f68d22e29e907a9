"""tf.function calls with arguments: recorded once per input signature, replayed after.

TF 2.21 traces a tf.function once per input signature and runs the graph after: the Python body
(and its side effects) runs at trace time only. simdist records the first call of a signature
and replays it (simdist.runtime.graph.record_call). The differential cases observe on TF when it
retraces (shapes, Python values, keyword arguments, a partial last batch of a distributed
dataset) and what a traced function sees of a Python value changed later; the simdist-only
cases check that a replay is bit-identical to running the Python again (values, simulated time,
trace, metrics) and that what the recorder cannot see keeps a function eager.
"""

from __future__ import annotations

import importlib.util
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import tf_workers


@pytest.fixture(autouse=True)
def _without_grappler_rewrites():
    """These tests check that a replay computes what the Python computes eagerly: Grappler's
    value-changing rewrites (simdist.runtime.ops.grappler, checked against TF 2.21 in
    tests/ops/test_fuzz2_values_tf.py) are off while they record."""
    from simdist.runtime.ops import grappler
    old = grappler.set_enabled(False)
    yield
    grappler.set_enabled(old)


HAS_TF = importlib.util.find_spec("tensorflow") is not None


# --- programs run on both backends ----------------------------------------------------------------
def retracing(tf: Any) -> dict[str, Any]:
    """When the Python body runs again: per call, (traces so far, the call's value)."""
    log: list[Any] = []

    @tf.function
    def f(x: Any, k: Any) -> Any:
        log.append((tuple(x.shape.as_list()), repr(k)))
        return x * 2.0 + (0.0 if k is None or isinstance(k, str) else float(k))

    seq = []
    for n, k in [(2, 1), (2, 1), (3, 1), (2, 2), (2, 1.0), (2, True), (2, "a"), (2, None), (2, None), (2, 1)]:
        out = f(tf.ones([n]), k)
        seq.append((len(log), out.numpy().tolist()))

    kw_log: list[int] = []

    @tf.function
    def kw(x: Any, k: int = 2, *, m: int = 3) -> Any:
        kw_log.append(1)
        return x * k * m

    t = tf.ones([2])
    kw_out = [kw(t).numpy().tolist(), kw(t, 2).numpy().tolist(), kw(t, k=2).numpy().tolist(),
              kw(x=t).numpy().tolist(), kw(t, m=3).numpy().tolist(), kw(t, 2, m=3).numpy().tolist()]

    dict_log: list[int] = []

    @tf.function
    def d(arg: Any) -> Any:
        dict_log.append(1)
        return arg["a"] - arg["b"][0]

    d_out = [d({"a": tf.ones([2]) * 3.0, "b": [tf.ones([2])]}).numpy().tolist(),
             d({"b": [tf.ones([2])], "a": tf.ones([2]) * 5.0}).numpy().tolist()]

    alias_log: list[int] = []

    @tf.function
    def s(a: Any, b: Any) -> Any:
        alias_log.append(1)
        return a - b

    u = tf.ones([2])
    s_out = [s(u, u).numpy().tolist(), s(u, tf.ones([2]) * 4.0).numpy().tolist()]
    return {"seq": seq, "kw": (len(kw_log), kw_out), "dict": (len(dict_log), d_out),
            "alias": (len(alias_log), s_out)}


def frozen_capture(tf: Any) -> dict[str, Any]:
    """A Python value the body reads is the one it had when the function was traced."""
    state = {"c": 1.0}

    @tf.function
    def f(x: Any) -> Any:
        return x + state["c"]

    t = tf.ones([2])
    first = f(t).numpy().tolist()
    state["c"] = 5.0
    return {"values": [first, f(t).numpy().tolist(), f(tf.ones([3])).numpy().tolist()]}


def mirrored_traces(tf: Any) -> dict[str, Any]:
    """A distributed step over a dataset with a partial last batch: traces and values."""
    strategy = tf.distribute.MirroredStrategy([f"/cpu:{i}" for i in range(4)])
    log: list[int] = []

    @tf.function
    def step(x: Any) -> Any:
        log.append(1)
        per_replica = strategy.run(lambda v: tf.reduce_sum(v * v), args=(x,))
        return strategy.reduce("SUM", per_replica, axis=None)

    data = np.arange(120, dtype=np.float32).reshape(40, 3) / 10.0
    ds = strategy.experimental_distribute_dataset(tf.data.Dataset.from_tensor_slices(data).batch(16))
    values = []
    for x in ds:
        values.append(float(step(x).numpy()))
    return {"traces": len(log), "values": values}


def under_tape(tf: Any) -> dict[str, Any]:
    """A tf.function called under GradientTapes: traced once, values and gradients (first and
    second order) as the eager call's."""
    log: list[int] = []
    w = tf.Variable([0.5, -1.0, 2.0])

    @tf.function
    def f(x: Any) -> Any:
        log.append(1)
        h = x * w + 1.0
        return tf.reduce_sum(h * h)

    x = tf.constant([1.0, 2.0, 3.0])
    steps = []
    for k in range(3):
        with tf.GradientTape(persistent=True) as tape:
            tape.watch(x)
            y = f(x * float(k + 1))
        gw, gx = tape.gradient(y, [w, x])
        steps.append((y.numpy().item(), gw.numpy().tolist(), gx.numpy().tolist(), len(log)))
        w.assign_sub(0.01 * gw)
    after = (f(x).numpy().item(), len(log))          # (no tape: the same trace)
    with tf.GradientTape() as outer:
        outer.watch(x)
        with tf.GradientTape() as inner:
            inner.watch(x)
            y = f(x)
        s = tf.reduce_sum(inner.gradient(y, x))
    second = outer.gradient(s, x).numpy().tolist()
    return {"steps": steps, "after": after, "second": second, "traces": len(log)}


def _two_replicas_and_a_variable(tf: Any) -> tuple[Any, Any, list[int]]:
    """A MirroredStrategy over two CPUs, a mirrored variable [0.5, -1.0] and an empty trace log."""
    strategy = tf.distribute.MirroredStrategy(["/cpu:0", "/cpu:1"])
    with strategy.scope():
        v = tf.Variable([0.5, -1.0])
    return strategy, v, []


def inside_run(tf: Any) -> dict[str, Any]:
    """A tf.function called inside MirroredStrategy.run, under the replica's tape and without:
    traced once per replica (each its own device), values and gradients as the eager call's."""
    strategy, v, log = _two_replicas_and_a_variable(tf)

    @tf.function
    def g(x: Any) -> Any:
        log.append(1)
        return x * v + 1.0

    def step(x: Any) -> Any:
        # (both arguments made on the replica's device: simdist's signature has the argument's
        # device, where TF's has not; here that is the replica's device either way)
        with tf.GradientTape() as tape:
            y = tf.reduce_sum(g(x * 1.0) * g(x * 2.0))
        return y, tape.gradient(y, v)

    def plain(x: Any) -> Any:
        return g(x + 0.0) * 2.0

    steps = []
    for k in range(3):
        y, grad = strategy.run(step, args=(tf.constant([1.0, 3.0]) * float(k + 1),))
        steps.append(([c.numpy().item() for c in strategy.experimental_local_results(y)],
                      [c.numpy().tolist() for c in strategy.experimental_local_results(grad)], len(log)))
    z = strategy.run(plain, args=(tf.constant([2.0, 2.0]),))
    return {"steps": steps, "plain": [c.numpy().tolist() for c in strategy.experimental_local_results(z)],
            "traces": len(log)}


def around_run(tf: Any) -> dict[str, Any]:
    """A tape around a tf.function whose MirroredStrategy.run computes (simdist only: a call under
    the tape runs its Python again, where TF's replays its trace): values and gradients through
    the replicas, with a variable each replica reads."""
    strategy, v, log = _two_replicas_and_a_variable(tf)

    @tf.function
    def f(x: Any) -> Any:
        log.append(1)
        return strategy.run(lambda x: tf.reduce_sum(x * x * v), args=(x,))

    steps = []
    for k in range(3):
        x = tf.constant([1.0, 3.0]) * float(k + 1)
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = strategy.experimental_local_results(f(x))
            z = y[0] + 2.0 * y[1]
        gx, gv = tape.gradient(z, [x, v])
        steps.append((z.numpy().item(), gx.numpy().tolist(), gv.numpy().tolist()))
    return {"steps": steps, "traces": len(log)}


PROGRAMS = [retracing, frozen_capture, mirrored_traces, under_tape, inside_run]


def _tf_worker(indices: list[int]) -> dict[int, Any]:
    import tensorflow as tf
    cpu = tf.config.list_physical_devices("CPU")[0]
    tf.config.set_logical_device_configuration(cpu, [tf.config.LogicalDeviceConfiguration()] * 4)
    return {i: PROGRAMS[i](tf) for i in indices}


@pytest.fixture(scope="module")
def tf_results() -> dict[int, Any]:
    if not HAS_TF:
        pytest.skip("real TensorFlow is not installed (pip install -e .[tf])")
    return tf_workers.spawn(__file__, list(range(len(PROGRAMS))))


@pytest.fixture(autouse=True)
def _no_outer_tape() -> Any:
    """Each test starts in a fresh execution context, with no gradient tape open (a tape another
    test left open would be seen by every call here)."""
    from simdist.runtime import execution
    saved = execution.switch(execution.ExecutionContext(execution.current().client))
    yield
    execution.switch(saved)


def _simdist() -> Any:
    import simdist
    from simdist import tf
    simdist.reset()
    cpu = tf.config.list_physical_devices("CPU")[0]
    tf.config.set_logical_device_configuration(cpu, [tf.config.LogicalDeviceConfiguration()] * 4)
    return tf


@pytest.mark.tf
@pytest.mark.clause("function.trace-once")
@pytest.mark.parametrize("k", range(3), ids=[p.__name__ for p in PROGRAMS[:3]])
def test_traces_and_values_as_tf(tf_results: dict[int, Any], k: int) -> None:
    got = PROGRAMS[k](_simdist())
    assert got == tf_results[k], f"{PROGRAMS[k].__name__}: simdist {got}, but TF 2.21 gives {tf_results[k]}"


@pytest.mark.tf
@pytest.mark.clause("function.trace-under-tape-and-in-run")
@pytest.mark.parametrize("k", range(3, len(PROGRAMS)), ids=[p.__name__ for p in PROGRAMS[3:]])
def test_traces_under_a_tape_and_in_run_as_tf(tf_results: dict[int, Any], k: int) -> None:
    """Under a GradientTape and inside strategy.run a tf.function traces as on TF: its Python
    runs once per signature (per replica in run), values and gradients equal TF's."""
    got = PROGRAMS[k](_simdist())
    assert got == tf_results[k], f"{PROGRAMS[k].__name__}: simdist {got}, but TF 2.21 gives {tf_results[k]}"


# --- simdist only: replays are the eager calls, bit for bit ------------------------------------
GB, D, H, C = 16, 12, 8, 3


def _train(traced: bool, trace_path: Path | None, fused: bool = False) -> dict[str, Any]:
    """A Mirrored custom training loop (tape, cross entropy, SGD with momentum) over a dataset
    with a partial last batch, run with recorded graphs on or off (and their replicas fused or
    not, runtime/lanes/): what a user can observe."""
    import simdist
    from simdist import tf
    from simdist.runtime import graph, lanes
    old, old_fused = graph.enabled, lanes.enabled
    graph.enabled, lanes.enabled = traced, fused
    try:
        simdist.configure(trace=str(trace_path) if trace_path else None)
        cpu = tf.config.list_physical_devices("CPU")[0]
        tf.config.set_logical_device_configuration(cpu, [tf.config.LogicalDeviceConfiguration()] * 4)
        rng = np.random.default_rng(1)
        x_all = rng.random((GB * 4 + 8, D), dtype=np.float32)
        y_all = rng.integers(0, C, GB * 4 + 8).astype("int32")
        strategy = tf.distribute.MirroredStrategy([f"/cpu:{i}" for i in range(4)])
        with strategy.scope():
            w1 = tf.Variable((rng.standard_normal((D, H)) * 0.3).astype("float32"))
            w2 = tf.Variable((rng.standard_normal((H, C)) * 0.3).astype("float32"))
            b2 = tf.Variable(np.zeros(C, "float32"))
            opt = tf.keras.optimizers.SGD(0.1, momentum=0.9)
            params = [w1, w2, b2]
            opt.build(params)   # (slots mirrored too)

        def replica_step(x: Any, y: Any) -> Any:
            with tf.GradientTape() as tape:
                logits = tf.matmul(tf.nn.relu(tf.matmul(x, w1)), w2) + b2
                per_example = tf.nn.sparse_softmax_cross_entropy_with_logits(labels=y, logits=logits)
                loss = tf.nn.compute_average_loss(per_example, global_batch_size=GB)
            opt.apply_gradients(zip(tape.gradient(loss, params), params))
            return loss

        @tf.function
        def step(x: Any, y: Any) -> Any:
            per_replica = strategy.run(replica_step, args=(x, y))
            return per_replica, strategy.reduce("SUM", per_replica, axis=None)

        ds = strategy.experimental_distribute_dataset(tf.data.Dataset.from_tensor_slices((x_all, y_all)).batch(GB))
        losses = []
        for _ in range(2):
            for x, y in ds:
                per_replica, total = step(x, y)
                losses.append([(c.numpy().tobytes(), c.device) for c in per_replica.values] + [total.numpy().tobytes()])
        out = {"weights": [c.numpy().tobytes() for v in params for c in v.values],
               "slots": [c.numpy().tobytes() for m in opt.momentums for c in m.value.values],
               "iterations": int(opt.iterations.numpy()), "losses": losses, "now": simdist.now(),
               "metrics": simdist.session.simulator().metrics(), "explain": graph.explain(step)}
        simdist.reset()   # (closes the trace)
        return out
    finally:
        graph.enabled, lanes.enabled = old, old_fused


def test_mirrored_training_replay_is_bit_identical_to_eager(tmp_path: Path) -> None:
    """Replayed replica by replica (fusion off), a recording is the eager calls, bit for bit."""
    eager = _train(False, tmp_path / "eager.json")
    traced = _train(True, tmp_path / "traced.json")
    assert traced["explain"].count("replays a recorded graph") == 2, \
        f"the step should replay one graph per batch shape (full and partial), got: {traced['explain']}"
    for key in ("weights", "slots", "iterations", "losses", "now", "metrics"):
        assert traced[key] == eager[key], f"{key} after replays differs from the eager run: {traced[key]!r:.300} " \
                                          f"vs {eager[key]!r:.300}"
    a, b = (tmp_path / "traced.json").read_bytes(), (tmp_path / "eager.json").read_bytes()
    assert a == b, f"the Chrome trace differs: {len(a)} bytes replayed vs {len(b)} eager"


def _tape_and_run(traced: bool, trace_path: Path) -> dict[str, Any]:
    """under_tape and inside_run on simdist with recorded graphs on or off: their values, the
    simulated time, metrics (and, written to trace_path, the Chrome trace)."""
    import simdist
    from simdist import tf
    from simdist.runtime import graph
    old = graph.enabled
    graph.enabled = traced
    try:
        simdist.configure(trace=str(trace_path))
        cpu = tf.config.list_physical_devices("CPU")[0]
        tf.config.set_logical_device_configuration(cpu, [tf.config.LogicalDeviceConfiguration()] * 4)
        out = {"under_tape": under_tape(tf), "inside_run": inside_run(tf), "now": simdist.now(),
               "metrics": simdist.session.simulator().metrics()}
        simdist.reset()   # (closes the trace)
        return out
    finally:
        graph.enabled = old


@pytest.mark.clause("function.trace-under-tape-and-in-run")
def test_traced_under_a_tape_and_in_run_is_bit_identical_to_eager(tmp_path: Path) -> None:
    """Calls under a tape (replayed op by op for it) and in replicas (replayed in the replica's
    context) give the eager calls' values, simulated time, metrics and trace, bit for bit."""
    eager = _tape_and_run(False, tmp_path / "eager.json")
    traced = _tape_and_run(True, tmp_path / "traced.json")
    assert traced["under_tape"]["traces"] == 1 and traced["inside_run"]["traces"] == 2, \
        f"expected 1 trace under the tape and 2 in run (one per replica), got {traced}"
    for key in ("now", "metrics"):
        assert traced[key] == eager[key], f"{key} with traced calls differs from the eager run: {traced[key]!r:.300} " \
                                          f"vs {eager[key]!r:.300}"
    for prog in ("under_tape", "inside_run"):
        t, e = dict(traced[prog]), dict(eager[prog])
        t.pop("traces"), e.pop("traces")
        t["steps"] = [st[:-1] for st in t["steps"]]
        e["steps"] = [st[:-1] for st in e["steps"]]
        if "after" in t:
            t["after"], e["after"] = t["after"][0], e["after"][0]
        assert t == e, f"{prog}: values with traced calls {t} differ from the eager run's {e}"
    a, b = (tmp_path / "traced.json").read_bytes(), (tmp_path / "eager.json").read_bytes()
    assert a == b, f"the Chrome trace differs: {len(a)} bytes traced vs {len(b)} eager"


@pytest.mark.clause("function.trace-under-tape-and-in-run")
def test_tape_around_a_traced_run_is_the_eager_calls() -> None:
    """A tape around a tf.function whose strategy.run computes sees into the replicas whether the
    call records (first call), runs its Python again (later calls) or runs eagerly: the same
    values, gradients, simulated time and metrics. (The Chrome trace's memory counters differ on
    the first call: its tapes keep the replicas' tensors when it returns, docs/spec.md.)"""
    import simdist
    from simdist import tf
    from simdist.runtime import graph
    runs = {}
    for traced in (False, True):
        old = graph.enabled
        graph.enabled = traced
        try:
            simdist.reset()
            cpu = tf.config.list_physical_devices("CPU")[0]
            tf.config.set_logical_device_configuration(cpu, [tf.config.LogicalDeviceConfiguration()] * 4)
            runs[traced] = (around_run(tf), simdist.now(), simdist.session.simulator().metrics())
        finally:
            graph.enabled = old
            simdist.reset()
    assert runs[True] == runs[False], f"traced calls gave {runs[True]!r:.400}, the eager run {runs[False]!r:.400}"
    steps = runs[True][0]["steps"]
    assert steps[0][1:] == ([3.0, -18.0], [1.0, 9.0]), \
        f"first gradients {steps[0][1:]}, but should be d/dx = 2·x·v·(1+2) (both replicas, through the " \
        "function's graph) and d/dv = x², its primary copy's (replica 0's reads, as TF 2.21: " \
        "test_bound_ops_tf.py outer-tape-mirrored-variable-read-in-run)"


@pytest.mark.clause("function.trace-once")
def test_fused_replicas_change_only_the_rounding_of_gradient_sums(tmp_path: Path) -> None:
    """With the replicas' lanes fused, simulated time, metrics and the trace are the eager run's
    exactly; weights, slots and losses differ by float rounding only (the summed gradients)."""
    eager = _train(False, tmp_path / "eager.json")
    fused = _train(True, tmp_path / "fused.json", fused=True)
    assert fused["explain"].count("with its replicas fused") == 2, \
        f"both batch shapes should replay with the replicas fused, got: {fused['explain']}"
    for key in ("iterations", "now", "metrics"):
        assert fused[key] == eager[key], f"{key} with fused replicas differs from the eager run: {fused[key]!r:.300} " \
                                         f"vs {eager[key]!r:.300}"
    a, b = (tmp_path / "fused.json").read_bytes(), (tmp_path / "eager.json").read_bytes()
    assert a == b, f"the Chrome trace differs: {len(a)} bytes fused vs {len(b)} eager"

    def arrays(run: dict[str, Any], key: str) -> list[np.ndarray]:
        if key == "losses":
            return [np.frombuffer(c[0] if isinstance(c, tuple) else c, np.float32) for row in run[key] for c in row]
        return [np.frombuffer(b, np.float32) for b in run[key]]
    for key in ("weights", "slots", "losses"):
        for i, (f, e) in enumerate(zip(arrays(fused, key), arrays(eager, key))):
            np.testing.assert_allclose(f, e, rtol=1e-5, atol=1e-6,
                                       err_msg=f"{key}[{i}] with fused replicas vs the eager run")
    assert [c[1] for row in fused["losses"] for c in row[:-1]] == [c[1] for row in eager["losses"] for c in row[:-1]], \
        "each replica's loss should stay on its replica's device"


def test_reading_a_value_in_python_keeps_the_function_eager() -> None:
    tf = _simdist()
    from simdist.runtime import graph
    log: list[float] = []

    @tf.function
    def f(x: Any) -> Any:
        s = float(tf.reduce_sum(x))       # the body depends on a value: no graph
        log.append(s)
        return x * 2.0 if s > 0 else x * -1.0

    outs = [f(tf.constant(v)).numpy().tolist() for v in ([1.0, 2.0], [-3.0, 1.0], [5.0, 5.0])]
    assert outs == [[2.0, 4.0], [3.0, -1.0], [10.0, 10.0]], f"values {outs}"
    assert log == [3.0, -2.0, 10.0], f"the Python body should run on every call, ran with {log}"
    assert "runs eagerly every time: it reads a tensor's value" in graph.explain(f), graph.explain(f)


def test_a_call_under_an_outer_tape_replays_its_trace_for_the_tape() -> None:
    """Traced outside a tape, the call under a tape runs no Python: its ops replay through
    dispatch and the tape differentiates them (clause function.trace-under-tape)."""
    tf = _simdist()
    log: list[int] = []

    @tf.function
    def f(x: Any) -> Any:
        log.append(1)
        return x * x

    x = tf.constant([1.0, 3.0])
    f(x), f(x)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = f(x)
    g = tape.gradient(y, x)
    assert g is not None and g.numpy().tolist() == [2.0, 6.0], f"gradient through the call: {g}"
    assert len(log) == 1, f"traced once (as TF traces once per signature): the body ran {len(log)} times, not 1"


def _tape_uses(traced: bool) -> dict[str, Any]:
    """A tf.function that stops the tape it is called under, and one first called under two
    nested tapes: gradients, and how often the Python ran."""
    tf = _simdist()
    from simdist.runtime import graph
    old = graph.enabled
    graph.enabled = traced
    try:
        x = tf.constant([1.0, 2.0])
        log: list[int] = []

        @tf.function
        def f(a: Any) -> Any:
            log.append(1)
            y = a * a
            with outer.stop_recording():
                z = y * 3.0
            return y + z

        stopped = []
        for _ in range(2):
            with tf.GradientTape() as outer:
                outer.watch(x)
                r = f(x)
            stopped.append(outer.gradient(r, x).numpy().tolist())

        @tf.function
        def h(a: Any) -> Any:
            return tf.reduce_sum(a * a * 2.0)

        nested = []
        for _ in range(2):
            with tf.GradientTape() as t1:
                t1.watch(x)
                with tf.GradientTape() as t2:
                    t2.watch(x)
                    r = h(x)
                g = t2.gradient(r, x)
            nested.append((g.numpy().tolist(), t1.gradient(g, x).numpy().tolist()))
        return {"stopped": stopped, "runs": len(log), "nested": nested, "explain": graph.explain(f) if traced else ""}
    finally:
        graph.enabled = old


def test_a_call_that_uses_its_outer_tape_gets_the_eager_gradients() -> None:
    """A first call under tapes hands them its ops when it returns; one that stops (or watches
    with, or takes a gradient of) a tape it was called under gets it up to date first, and then
    stays eager: gradients are the eager call's either way."""
    eager, traced = _tape_uses(False), _tape_uses(True)
    assert traced["stopped"] == eager["stopped"] == [[2.0, 4.0]] * 2, \
        f"gradients with the tape stopped inside: traced {traced['stopped']}, eager {eager['stopped']}"
    assert traced["runs"] == 2 and "uses a gradient tape it was called under" in traced["explain"], \
        f"a call that stops its outer tape should stay eager: {traced['runs']} runs, {traced['explain']}"
    assert traced["nested"] == eager["nested"] == [([4.0, 8.0], [4.0, 4.0])] * 2, \
        f"first and second order through nested tapes: traced {traced['nested']}, eager {eager['nested']}"


def test_device_scope_is_part_of_the_signature() -> None:
    tf = _simdist()

    @tf.function
    def f(x: Any) -> Any:
        return x + tf.ones([2])

    x = tf.constant([1.0, 2.0])
    plain = [f(x).device, f(x).device]
    with tf.device("/cpu:2"):
        scoped = [f(x).device, f(x).device]
    assert plain[0] == plain[1] and plain[0].endswith("CPU:0"), f"results outside the scope on {plain}"
    assert scoped[0] == scoped[1] and scoped[0].endswith("CPU:2"), f"results inside tf.device('/cpu:2') on {scoped}"
    assert len(f._calls) == 2, f"one recorded graph per context, got {len(f._calls)}"


def test_a_new_machine_records_again() -> None:
    import simdist
    tf = _simdist()
    log: list[int] = []
    v = tf.Variable(1.0)

    @tf.function
    def f(x: Any) -> Any:
        log.append(1)
        v.assign_add(x)
        return v.read_value()

    f(tf.constant(1.0)), f(tf.constant(2.0))
    assert float(v.numpy()) == 4.0 and len(log) == 1, f"v={v.numpy()}, body ran {len(log)} times"
    simdist.reset()
    f(tf.constant(1.0))
    assert float(v.numpy()) == 5.0 and len(log) == 2, \
        f"after simdist.reset() the call records again: v={v.numpy()}, body ran {len(log)} times"


if __name__ == "__main__":  # TF worker
    tf_workers.serve(_tf_worker)


def test_values_python_reads_to_fix_attributes_are_static_or_keep_it_eager() -> None:
    """A value Python reads to fix an op's attribute (one_hot's depth, a reshape's shape) is
    baked into a recording only when it is the same in every replay: a constant, or computed
    from shapes; from an argument or a variable it keeps the function eager."""
    tf = _simdist()
    from simdist.runtime import graph

    @tf.function
    def by_shape(x: Any, y: Any) -> Any:
        return tf.reshape(x, tf.shape(y)) + tf.one_hot([0, 1], depth=tf.shape(y)[1])

    for v in (1.0, 2.0, 3.0):
        got = by_shape(tf.fill([4], v), tf.zeros([2, 2])).numpy().tolist()
        want = [[v + 1.0, v], [v, v + 1.0]]
        assert got == want, f"by_shape with fill {v}: {got}, expected {want}"
    assert graph.explain(by_shape).startswith("replays a recorded graph"), graph.explain(by_shape)

    @tf.function
    def by_value(labels: Any, depth: Any) -> Any:
        return tf.one_hot(labels, depth)

    outs = [by_value(tf.constant([0, 2]), tf.constant(d)).shape.as_list() for d in (3, 4, 5)]
    assert outs == [[2, 3], [2, 4], [2, 5]], f"one_hot with depth 3, 4, 5 from an argument: shapes {outs}"
    assert "runs eagerly every time: it reads a tensor's value" in graph.explain(by_value), graph.explain(by_value)


def test_ops_of_another_thread_during_the_first_call_keep_it_eager() -> None:
    """The recorder sees the process's ops: another thread's ops while a call records would
    land in its recording, so they abandon it; a thread that runs no ops changes nothing."""
    import threading
    tf = _simdist()
    from simdist.runtime import graph
    log: list[int] = []
    started, go = threading.Event(), threading.Event()

    def other_ops() -> None:
        started.set()
        go.wait()
        tf.constant([1.0]) * 3.0

    @tf.function
    def f(x: Any) -> Any:
        log.append(1)
        started.wait()
        go.set()
        other.join()          # (the other thread's ops run now, during the recording)
        return x + 1.0

    other = threading.Thread(target=other_ops)
    other.start()
    f(tf.constant(1.0))
    assert "runs eagerly every time: another thread ran ops while it recorded" in graph.explain(f), graph.explain(f)

    @tf.function
    def g(x: Any) -> Any:
        log.append(2)
        return x + 1.0

    idle = threading.Event()
    waiting = threading.Thread(target=idle.wait)
    waiting.start()
    try:
        outs = [g(tf.constant(1.0)).numpy().tolist() for _ in range(3)]
    finally:
        idle.set()
        waiting.join()
    assert outs == [2.0, 2.0, 2.0] and log.count(2) == 1, \
        f"with an idle thread alive: values {outs}, body ran {log.count(2)} times (once expected)"
