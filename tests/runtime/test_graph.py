"""Recorded graphs of scheduled tf.functions (simdist.runtime.graph).

A scheduled function without arguments runs its Python once and replays the recorded ops after,
as TF runs a traced function. Replays must give bit-identical values, traffic and simulated time
to running the Python every time; anything the recorder cannot see must keep the function eager.
"""

from __future__ import annotations

from typing import Any, Callable

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import simdist
from simdist import tf
from simdist.faults import FaultPlan, Preemption, PSFailure
from simdist.runtime import graph, subnormals, uniform
from graph_helpers import N, assert_same, run
from ps_helpers import coordinator, pss


@pytest.fixture(autouse=True)
def _without_grappler_rewrites():
    """These tests check that a replay computes what the Python computes eagerly: Grappler's
    value-changing rewrites (simdist.runtime.ops.grappler, checked against TF 2.21 in
    tests/ops/test_fuzz2_values_tf.py) are off while they record."""
    from simdist.runtime.ops import grappler
    old = grappler.set_enabled(False)
    yield
    grappler.set_enabled(old)


def _dense() -> tuple[Any, dict[str, Any]]:
    """The benchmark's step: matmul, bias, a folded constant, a deduplicated reduce_sum."""
    w = tf.Variable(tf.zeros([16, 8]), name="w")
    b = tf.Variable(tf.zeros([8]), name="b")
    x = tf.ones([4, 16])

    @tf.function
    def step():
        y = tf.matmul(x, w) + b
        w.assign_add(tf.ones([16, 8]) + tf.reduce_sum(y) * 0.5)
        b.assign_add(tf.ones([8]))
        return tf.reduce_sum(y)
    return step, {"w": w, "b": b}


def _mixed() -> tuple[Any, dict[str, Any]]:
    """Reflected and variable operands, read-after-write, assign and assign_sub, dead ops,
    a captured tensor returned as is, and a dict/tuple of results."""
    v = tf.Variable(tf.ones([3]) * 2.0, name="v")
    u = tf.Variable(tf.zeros([3]), name="u")
    c = tf.ones([3]) * 0.25

    @tf.function
    def step():
        a = 1.0 - v                  # reflected, variable operand
        v.assign_add(a * c)
        after = v * 3.0              # sees the buffered write
        _unused = tf.reduce_sum(after * after)
        u.assign(after - 2.0)
        u.assign_sub(c)
        return {"after": after, "pair": (tf.reduce_sum(u), c), "read": v.read_value()}
    return step, {"v": v, "u": u}


def _numbers() -> tuple[Any, dict[str, Any]]:
    """Python numbers as assign operands and as results (tf.function makes tensors of them)."""
    v = tf.Variable(0.0, name="v")
    n = tf.Variable(3, name="n")
    u = tf.Variable(tf.ones([2]), name="u")

    @tf.function
    def step():
        v.assign_add(1.5)
        n.assign(7)
        u.assign_sub(u * 0.5)
        u.assign_add([0.25, 0.5])    # a list: a constant, as TF's tracing captures it
        return 1, 2.5, {"none": None, "sum": tf.reduce_sum(u)}
    return step, {"v": v, "n": n, "u": u}


def _random() -> tuple[Any, dict[str, Any]]:
    """Random ops are stateful: every replay draws anew, in the order the eager calls would."""
    v = tf.Variable(tf.zeros([3]), name="v")
    u = tf.Variable(tf.zeros([2, 2]), name="u")

    @tf.function
    def step():
        v.assign_add(tf.random.uniform([3]) + tf.random.uniform([3]))   # two draws: not merged
        u.assign_add(tf.random.normal([2, 2], seed=5))                  # op-seeded: advances too
        return tf.random.uniform([], maxval=10, dtype=tf.int32)
    return step, {"v": v, "u": u}


def _scoped() -> tuple[Any, dict[str, Any]]:
    """Device scopes inside the function are resolved when it records, as TF's tracing resolves
    them: a result made under another device stays there, the call's own go to its worker."""
    v = tf.Variable(tf.ones([2]), name="v")

    @tf.function
    def step():
        with tf.device("/job:ps/replica:0/task:1/device:CPU:0"):
            pinned = v * 2.0
        v.assign_add(pinned)
        with tf.device(None):
            here = v + 1.0
        return {"pinned": pinned, "here": here}
    return step, {"v": v}


def _train_step(make_optimizer: Callable[[], Any]) -> Callable[[], tuple[Any, dict[str, Any]]]:
    """A training step as TF's parameter-server tutorial writes it: `strategy.run` of a replica
    function that takes a tape's gradients (dense for w, IndexedSlices for the embedding) and
    applies them with a Keras optimizer built in the scope. Concurrent closures read stale
    values; a replay must read, write and charge exactly what running the Python again would."""
    def build() -> tuple[Any, dict[str, Any]]:
        strategy = tf.distribute.get_strategy()
        rng = np.random.default_rng(7)
        w = tf.Variable(rng.normal(size=(4, 3)).astype(np.float32), name="w")
        emb = tf.Variable(rng.normal(size=(6, 4)).astype(np.float32), name="emb")
        opt = make_optimizer()
        opt.build([w, emb])
        x = tf.constant(rng.normal(size=(5, 4)).astype(np.float32))
        ids = tf.constant([1, 4, 4, 0, 2])
        y = tf.constant(rng.normal(size=(5, 3)).astype(np.float32))

        def replica() -> Any:
            with tf.GradientTape() as tape:
                # (a gather on the read value: its gradient is IndexedSlices too; row lookups on
                # the variable itself, ResourceGather, keep a function eager)
                h = tf.matmul(x + tf.gather(emb.read_value(), ids), w)
                loss = tf.reduce_sum(tf.square(h - y)) / 5.0
            grads = tape.gradient(loss, [w, emb])
            opt.apply_gradients(zip(grads, [w, emb]))
            return loss

        @tf.function
        def step():
            return strategy.run(replica)
        slots = {s.name: s.value for s in opt.variables}
        return step, dict({"w": w, "emb": emb}, **slots)
    return build


def _adam_train_step() -> tuple[Any, dict[str, Any]]:
    return _train_step(lambda: tf.keras.optimizers.Adam(0.05))()


def _sgd_sparse_train_step() -> tuple[Any, dict[str, Any]]:
    """SGD: the embedding's update is a scatter_sub of the looked-up rows."""
    return _train_step(lambda: tf.keras.optimizers.SGD(0.1))()


@pytest.mark.clause("coord.schedule-async")
@pytest.mark.parametrize("build", [_dense, _mixed, _numbers, _random, _scoped],
                         ids=["dense", "mixed", "numbers", "random", "device-scopes"])
def test_replay_matches_eager_bit_for_bit(build: Callable[[], Any]) -> None:
    eager = run(build, traced=False)
    replayed = run(build, traced=True)
    assert replayed["explain"].startswith("replays"), f"explain={replayed['explain']!r}, but should replay [{build.__name__}]"
    assert_same(eager, replayed, build.__name__)


@pytest.mark.clause("optim.pss-updates")
@pytest.mark.parametrize("build", [_adam_train_step, _sgd_sparse_train_step], ids=["adam", "sgd-sparse"])
def test_scheduled_train_step_replays_like_eager(build: Callable[[], Any]) -> None:
    eager = run(build, traced=False)
    replayed = run(build, traced=True)
    assert replayed["explain"].startswith("replays"), \
        f"explain={replayed['explain']!r}, but a train step with a tape and an optimizer should replay"
    assert_same(eager, replayed, build.__name__)
    assert eager["metrics"]["ps_bytes_written"] > 0, f"metrics={eager['metrics']}: the step should write to the ps"


@pytest.mark.clause("coord.worker-failure")
def test_replay_matches_eager_under_preemption() -> None:
    plan = FaultPlan(preemptions=[Preemption(worker=1, at_closure=4, downtime=0.01),
                                  Preemption(worker=0, at_time=0.0005, downtime=0.002)])
    eager = run(_dense, traced=False, faults=plan)
    replayed = run(_dense, traced=True, faults=plan)
    assert replayed["metrics"]["retries"] >= 1, f"retries={replayed['metrics']['retries']}, but should be >= 1"
    assert_same(eager, replayed, "dense with preemptions")


def _ps_failurerun(traced: bool) -> dict[str, Any]:
    """Three rounds of the dense step across a ps failure and restart: what each join raised."""
    simdist.reset()
    old = graph.enabled
    graph.enabled = traced
    try:
        plan = FaultPlan(ps_failures=[PSFailure(ps=0, at_time=0.0004, downtime=0.0001)])
        strategy = pss(workers=2, ps=2, faults=plan, seed=3)
        with strategy.scope():
            fn, _ = _dense()
        coord = coordinator(strategy)
        raised = []
        for _ in range(3):
            for _ in range(N):
                coord.schedule(fn)
            try:
                coord.join()
                raised.append(None)
            except tf.errors.OpError as e:
                raised.append(f"{type(e).__name__}: {e}")
        return {"raised": raised, "metrics": coord.metrics(), "faults": coord.fault_events(), "now": simdist.now()}
    finally:
        graph.enabled = old


@pytest.mark.clause("coord.ps-failure")
def test_replay_fails_like_eager_when_a_ps_fails() -> None:
    """Reads of a failed or restarted ps raise inside the replay; the coordinator then runs the
    replay again observing its traffic, so errors and accounting are eager's."""
    eager = _ps_failurerun(traced=False)
    replayed = _ps_failurerun(traced=True)
    assert any(r and r.startswith("UnavailableError") for r in eager["raised"]), \
        f"raised={eager['raised']}, but a join should raise UnavailableError [ps failure]"
    assert replayed == eager, f"replayed={replayed}, but should be {eager} (eager) [ps failure]"


@pytest.mark.clause("coord.schedule-async")
def test_python_body_runs_once_as_in_tf() -> None:
    calls: list[int] = []

    def build() -> tuple[Any, dict[str, Any]]:
        v = tf.Variable(0.0, name="v")

        @tf.function
        def step():
            calls.append(1)          # a Python side effect: TF runs it when tracing only
            v.assign_add(tf.ones([]))
        return step, {"v": v}
    out = run(build, traced=True)
    assert len(calls) == 1, f"the Python body ran {len(calls)} times, but should run once (then replay)"
    assert float(out["vars"]["v"]) == N, f"v={out['vars']['v']}, but should be {N} [replayed assign_add]"


@pytest.mark.clause("function.traced-branches")
def test_cond_on_a_constant_predicate_replays() -> None:
    """A tf.cond whose predicate is a constant of the call (the untaken branch making tensors) is
    recorded: the Python body runs once, as in TF (it ran at every call until summary22)."""
    calls: list[int] = []

    def build() -> tuple[Any, dict[str, Any]]:
        v = tf.Variable(0.0, name="v")

        @tf.function
        def step():
            calls.append(1)
            pred = tf.logical_and(True, tf.constant(False))   # (a LogicalAnd: no static value in a graph)
            v.assign_add(tf.cond(pred, lambda: tf.constant(5.0), lambda: tf.constant(1.0)))
        return step, {"v": v}
    out = run(build, traced=True)
    assert len(calls) == 1, f"the Python body ran {len(calls)} times, but should run once [{out['explain']}]"
    assert float(out["vars"]["v"]) == N, f"v={out['vars']['v']}, but should be {N} [the false branch each call]"


def _eager_every_time(make_step: Callable[[Any, list[int]], Any]) -> tuple[int, str, dict[str, Any]]:
    calls: list[int] = []

    def build() -> tuple[Any, dict[str, Any]]:
        v = tf.Variable(tf.ones([2]), name="v")
        return make_step(v, calls), {"v": v}
    out = run(build, traced=True)
    return len(calls), out["explain"], out


@pytest.mark.parametrize("case, make_step, reason", [
    ("bool of a value", lambda v, calls: tf.function(
        lambda: (calls.append(1), v.assign_add(tf.ones([2]) if tf.reduce_sum(v) > 0 else tf.zeros([2])))[1]),
     "reads a tensor's value"),
    # (float() of a graph tensor: AutoGraph converts it in TF, simdist reads the value; `v.numpy()`
    # itself is NotImplementedError in a tf.function, as in TF: function.symbolic-tensors)
    ("float()", lambda v, calls: tf.function(
        lambda: (calls.append(1), v.assign_add(tf.ones([2]) * float(v[0] > 0)))[1]),
     "reads a tensor's value"),
])
def test_what_the_recorder_cannot_see_stays_eager(case: str, make_step: Any, reason: str) -> None:
    n, explain, _ = _eager_every_time(make_step)
    assert n == N, f"the Python body ran {n} times, but should run every time ({N}) [{case}]"
    assert explain.startswith("runs eagerly") and reason in explain, \
        f"explain={explain!r}, but should say it runs eagerly because it {reason!r} [{case}]"


def _one_worker(build: Callable[[], tuple[Any, dict[str, Any]]]) -> tuple[Any, Any]:
    """A fresh 1-worker, 1-ps cluster with build()'s function and variables: (function, coordinator)."""
    simdist.reset()
    strategy = pss(workers=1, ps=1)
    with strategy.scope():
        fn, _ = build()
    return fn, coordinator(strategy)


@pytest.mark.clause("coord.errors")
def test_an_assertion_in_the_body_still_fails_on_the_closure_that_breaks_it() -> None:
    """tf.debugging reads values: the function stays eager, and the 6th closure fails as it would."""
    def build() -> tuple[Any, dict[str, Any]]:
        v = tf.Variable(0.0, name="v")

        @tf.function
        def step():
            v.assign_add(tf.ones([]))
            tf.debugging.assert_less(v.read_value(), tf.ones([]) * 5.5)
        return step, {"v": v}
    fn, coord = _one_worker(build)
    for _ in range(N):
        coord.schedule(fn)
    with pytest.raises(tf.errors.InvalidArgumentError):
        coord.join()
    assert "reads a tensor's value" in graph.explain(fn), f"explain={graph.explain(fn)!r}, but should be eager"


def test_functions_with_arguments_run_eagerly() -> None:
    calls: list[int] = []
    simdist.reset()
    strategy = pss(workers=2, ps=1)
    with strategy.scope():
        v = tf.Variable(0.0, name="v")

    @tf.function
    def step(k):
        calls.append(1)
        v.assign_add(tf.ones([]) * k)
    coord = coordinator(strategy)
    for k in range(N):
        coord.schedule(step, args=(float(k),))
    coord.join()
    assert len(calls) == N, f"the Python body ran {len(calls)} times, but should run for each of {N} calls"
    assert float(v.numpy()) == sum(range(N)), f"v={v.numpy()}, but should be {sum(range(N))}"
    assert graph.explain(step).startswith("not recorded"), f"explain={graph.explain(step)!r}"


def test_replayed_results_are_private_copies_of_folded_constants() -> None:
    def build() -> tuple[Any, dict[str, Any]]:
        v = tf.Variable(0.0, name="v")

        @tf.function
        def step():
            v.assign_add(tf.ones([]))
            return tf.ones([2]) * 3.0
        return step, {"v": v}
    fn, coord = _one_worker(build)
    first = [coord.schedule(fn) for _ in range(3)]
    coord.join()
    a = first[1].fetch()
    a[0] = -1.0                      # a user scribbling on one result
    b = first[2].fetch()
    assert list(b) == [3.0, 3.0], f"a later result={list(b)}, but should be [3.0, 3.0] (results are not shared)"


_SWITCH = """
import sys
sys.path.insert(0, {tests!r})
from simdist import tf
from graph_helpers import N, assert_same, run
from ps_helpers import coordinator, pss

s = pss(workers=2, ps=1)
with s.scope():
    v = tf.Variable(0.0)
calls = []
@tf.function
def step():
    calls.append(1)
    v.assign_add(1.0)
c = coordinator(s)
for _ in range(5):
    c.schedule(step)
c.join()
print(len(calls))
"""


@pytest.mark.parametrize("switch, runs", [("1", 1), ("0", 5)])
def test_switch_off_by_environment(switch: str, runs: int) -> None:
    """SIMDIST_TRACE_FUNCTIONS=0 runs every scheduled call's Python (no recording, no replay)."""
    import os
    import subprocess
    import sys
    code = _SWITCH.format(tests=os.path.dirname(os.path.dirname(__file__)))
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120,
                         env={**os.environ, "SIMDIST_TRACE_FUNCTIONS": switch})
    assert out.returncode == 0, f"exit {out.returncode}: {out.stderr[-1500:]}"
    got = int(out.stdout.strip().splitlines()[-1])
    assert got == runs, f"the body ran {got} times in 5 calls, but should run {runs} [SIMDIST_TRACE_FUNCTIONS={switch}]"


@pytest.mark.clause("coord.schedule-async")
def test_a_method_records_once_per_instance() -> None:
    """`@tf.function` on a method: each instance's bound function records once, as TF traces once
    per instance, and two instances keep their own graphs."""
    simdist.reset()
    strategy = pss(workers=2, ps=1)

    class Model:
        def __init__(self, inc: float) -> None:
            with strategy.scope():
                self.v = tf.Variable(0.0)
            self.inc = inc
            self.calls = 0

        @tf.function
        def step(self):
            self.calls += 1
            self.v.assign_add(tf.ones([]) * self.inc)
    a, b = Model(1.0), Model(2.0)
    coord = coordinator(strategy)
    for _ in range(N):
        coord.schedule(a.step)
        coord.schedule(b.step)
    coord.join()
    assert (a.calls, b.calls) == (1, 1), f"bodies ran {(a.calls, b.calls)} times, but should run once per instance"
    assert (float(a.v.numpy()), float(b.v.numpy())) == (N * 1.0, N * 2.0), \
        f"v={(float(a.v.numpy()), float(b.v.numpy()))}, but should be {(N * 1.0, N * 2.0)}"
    import copy
    c = copy.copy(a)          # a shallow copy shares a's __dict__ entries: its method must still be its own
    c.inc = 5.0
    c.calls = 0
    assert c.step.python_function.__self__ is c, "a copy's tf.function method is bound to the original"


class _Stepper:
    """A module-level class (pickle finds it) with a tf.function method."""

    def __init__(self) -> None:
        self.v = tf.Variable(0.0)

    @tf.function
    def step(self):
        self.v.assign_add(tf.ones([]))


def test_a_pickled_instance_records_afresh() -> None:
    """A recorded graph is generated code of this process: pickling an instance whose method was
    scheduled leaves the graph out, and the copy's method records on its first scheduled call."""
    import pickle
    simdist.reset()
    strategy = pss(workers=1, ps=1)
    with strategy.scope():
        obj = _Stepper()
    coord = coordinator(strategy)
    coord.schedule(obj.step)
    coord.join()
    assert graph.explain(obj.step).startswith("replays"), f"explain={graph.explain(obj.step)!r}"
    copy = pickle.loads(pickle.dumps(obj))
    assert graph.explain(copy.step).startswith("not recorded"), \
        f"explain={graph.explain(copy.step)!r}, but a copy should record afresh"
    assert float(copy.v.numpy()) == 1.0, f"copy.v={copy.v.numpy()}, but should be 1.0"


# --- random programs: replay against eager ---------------------------------------------------------
# A program is straight-line Python over three variables (a, b: 3x3; d: a scalar) and a temporary: what a
# recorded call sees is its ops, so any such program must replay bit for bit as it runs eagerly.
_SCALARS = st.sampled_from([0.5, -1.25, 2.0, 3, 0.0])
_INSTR = st.one_of(
    st.tuples(st.just("bin"), st.sampled_from(["+", "-", "*", "r-", "r*"]), st.sampled_from("abt"), _SCALARS),
    st.tuples(st.just("binvv"), st.sampled_from(["+", "-", "*"]), st.sampled_from("abt"), st.sampled_from("abt")),
    st.tuples(st.just("matmul"), st.sampled_from("abt"), st.sampled_from("abt"), st.booleans()),
    st.tuples(st.just("sum"), st.sampled_from("abt"), st.sampled_from([None, 0, 1]), st.booleans()),
    st.tuples(st.just("write"), st.sampled_from(["assign", "assign_add", "assign_sub"]), st.sampled_from("ab"),
              st.just("t")),
    st.tuples(st.just("number"), st.sampled_from(["assign", "assign_add", "assign_sub"]), st.just("d"), _SCALARS),
    st.tuples(st.just("const"), st.sampled_from(["ones", "zeros"]), st.just(None), _SCALARS),
    # the temporary with a computed scalar (a uniform value when the temporary is one: runtime/uniform.py)
    st.tuples(st.just("scalar"), st.sampled_from(["+", "-", "*", "/", "r-", "r/"]), st.sampled_from("abt"),
              st.sampled_from("abd")),
)


def _program(instrs: list[tuple]) -> Callable[[], tuple[Any, dict[str, Any]]]:
    def build() -> tuple[Any, dict[str, Any]]:
        a = tf.Variable(tf.ones([3, 3]) * 0.5, name="a")
        b = tf.Variable(tf.ones([3, 3]) * -0.25, name="b")
        d = tf.Variable(0.0, name="d")
        one = tf.ones([3, 3])

        @tf.function
        def step():
            env = {"a": a, "b": b, "d": d, "t": one}
            outs = []
            for op, x, y, z in instrs:
                if op == "bin":
                    t = {"+": lambda p: p + z, "-": lambda p: p - z, "*": lambda p: p * z,
                         "r-": lambda p: z - p, "r*": lambda p: z * p}[x](env[y])
                elif op == "binvv":
                    t = {"+": lambda p, q: p + q, "-": lambda p, q: p - q, "*": lambda p, q: p * q}[x](env[y], env[z])
                elif op == "scalar":
                    c, p = tf.reduce_sum(env[z]) * 0.125, env[y]
                    t = {"+": lambda: p + c, "-": lambda: p - c, "*": lambda: p * c, "/": lambda: p / c,
                         "r-": lambda: c - p, "r/": lambda: c / p}[x]()
                elif op == "const":      # folded when recorded
                    t = getattr(tf, x)([3, 3]) + z
                elif op == "matmul":
                    t = tf.matmul(env[x], env[y], transpose_b=z)
                elif op == "sum":
                    s = tf.reduce_sum(env[x], axis=y, keepdims=z)
                    outs.append(s)
                    continue
                else:   # write: the temporary into a or b, or a Python number into d
                    getattr(env[y], x)(env["t"] if op == "write" else z)
                    continue
                env["t"] = t
            return outs
        return step, {"a": a, "b": b, "d": d}
    return build


@pytest.mark.parametrize("min_elements", [uniform.MIN_ELEMENTS, 2], ids=["as-shipped", "3x3-uniform-sunk"])
@settings(max_examples=60, deadline=None)
@given(instrs=st.lists(_INSTR, min_size=1, max_size=10))
def test_random_programs_replay_as_they_run_eagerly(min_elements: int, instrs: list[tuple]) -> None:
    """Also with the programs' 3x3 uniform values replayed as scalars (MIN_ELEMENTS lowered). Values are equal bit
    for bit, subnormals included: a replay flushes the subnormal results of its own arithmetic as the eager ops do
    (a program squaring a variable call after call, [('binvv', '*', 'a', 'a'), ('write', 'assign', 'a', 't'),
    ('scalar', '*', 'a', 'b'), ...], gave 3.94e-43 replayed where the eager call gave 0.0 before that rule)."""
    old, uniform.MIN_ELEMENTS = uniform.MIN_ELEMENTS, min_elements
    try:
        eager = run(_program(instrs), traced=False, n=6)
        replayed = run(_program(instrs), traced=True, n=6)
    finally:
        uniform.MIN_ELEMENTS = old
    assert replayed["explain"].startswith("replays"), \
        f"explain={replayed['explain']!r}, but every op of the program is recorded [program {instrs}]"
    assert_same(eager, replayed, f"program {instrs}")
