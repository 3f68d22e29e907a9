"""Collectives and custom gradients are registered ops bound through dispatch (no side door):
their rules on the OpDef, what the interpreters see, what a recorded tf.function keeps of them
and what `explain` says. Values against TF 2.21: tests/runtime/test_bound_ops_tf.py."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import simdist
from simdist import tf
from simdist.runtime import execution, graph, interpret
from simdist.runtime.graph import recording
from simdist.runtime.ops import collective, custom, dispatch, registry
from simdist.runtime.autodiff import tape as tape_mod

BOUND = ("CustomGradient", "CollectiveReduceV2", "CollectiveGatherV2")


def _clipped_square() -> Any:
    @tf.custom_gradient
    def clipped_square(x: Any) -> Any:
        def grad(dy: Any) -> Any:
            return tf.clip_by_value(dy * 2.0 * x, -1.0, 1.0)
        return x * x, grad
    return clipped_square


def _mirrored(n: int = 2) -> Any:
    simdist.reset()
    cpu = tf.config.list_physical_devices("CPU")[0]
    tf.config.set_logical_device_configuration(cpu, [tf.config.LogicalDeviceConfiguration()] * n)
    return tf.distribute.MirroredStrategy([f"/cpu:{i}" for i in range(n)])


@pytest.mark.parametrize("name", BOUND)
def test_bound_ops_carry_their_rules(name: str) -> None:
    """Kind, a lane-by-lane reason, where their values come from, why a replay under a tape
    cannot give them to the tapes, a registered gradient, and no cost of their own."""
    op = registry.get(name)
    want_kind = "custom" if name == "CustomGradient" else "collective"
    assert op.kind == want_kind, f"{name}.kind={op.kind!r}, but should be {want_kind!r}"
    assert op.fusion is not None and op.fusion.form == "lanes" and op.fusion.reason, \
        f"{name}.fusion={op.fusion!r}, but should run lane by lane with a reason"
    assert op.bound and op.tape_replay, f"{name}: bound={op.bound!r}, tape_replay={op.tape_replay!r}, but both " \
                                        "should say why"
    assert callable(op.grad), f"{name}.grad={op.grad!r}, but should be a registered gradient function"
    x = np.ones((3, 4), np.float32)
    flops, _read, _written = op.cost([x], (x,), None)
    assert flops == 0, f"{name}: cost FLOPs={flops}, but the simulator times it (0 in the tally)"
    with pytest.raises(RuntimeError, match="never runs"):
        op.forward(x)


@pytest.mark.parametrize("name", ["CollectiveBcastSend", "CollectiveBcastRecv"])
def test_broadcast_ops_carry_their_rules_and_no_gradient(name: str) -> None:
    """MultiWorkerMirroredStrategy's initial-value broadcast: a collective bound to the workers'
    meeting, lane by lane, no cost of its own, and not differentiable (TF 2.21's registry has no
    entry, and TF's tapes never record it: a variable's initial value is made under init_scope)."""
    op = registry.get(name)
    assert op.kind == "collective", f"{name}.kind={op.kind!r}, but should be 'collective'"
    assert op.fusion is not None and op.fusion.form == "lanes" and op.fusion.reason, \
        f"{name}.fusion={op.fusion!r}, but should run lane by lane with a reason"
    assert op.bound, f"{name}.bound={op.bound!r}, but should say where its values come from"
    assert registry.gradient_function(op) is registry.NO_GRADIENT, \
        f"{name}'s gradient={op.grad!r}, but should be NotDifferentiable"
    x = np.ones((3, 4), np.float32)
    flops, _read, _written = op.cost([x] if name.endswith("Send") else [], (x,), None)
    assert flops == 0, f"{name}: cost FLOPs={flops}, but the simulator times it (0 in the tally)"
    with pytest.raises(RuntimeError, match="never runs"):
        op.forward(x)


def test_interpreters_have_one_interface() -> None:
    """The side door is gone: no interpreter has a `custom` method, dispatch no `custom`."""
    for cls in (execution.Interpreter, tape_mod._Tape, recording.Recorder, interpret.Deferred,
                tape_mod.VariableWatcher):
        assert not hasattr(cls, "custom"), f"{cls.__name__} still has a custom method"
    assert not hasattr(dispatch, "custom"), "dispatch.custom still exists"


class _Seen(execution.Interpreter):
    """Notes the ops it sees."""

    def __init__(self) -> None:
        self.ops: list[tuple[str, dict | None]] = []

    def op(self, opdef: Any, tensors: Any, outs: tuple, attrs: dict | None) -> tuple:
        self.ops.append((opdef.name, attrs))
        return outs


def test_a_custom_gradient_call_is_an_op_the_interpreters_see() -> None:
    simdist.reset()
    seen = _Seen()
    ctx = execution.current()
    ctx.push_tape(seen)
    try:
        y = _clipped_square()(tf.constant([0.5, 3.0]))
    finally:
        ctx.pop_tape(seen)
    names = [n for n, _ in seen.ops]
    assert names == ["Mul", "Identity", "CustomGradient"], f"ops seen={names}, but should be the function's Mul, " \
                                                           "its result's Identity, then the bound CustomGradient"
    attrs = seen.ops[-1][1]
    assert attrs is not None and attrs["name"] == "clipped_square" and callable(attrs["grad_fn"]), \
        f"CustomGradient attrs={attrs!r}, but should name the function and carry its grad_fn"
    assert np.array_equal(y.numpy(), np.float32([0.25, 9.0])), f"value={y.numpy()}, but should be x*x"


def test_collectives_are_ops_each_replica_sees() -> None:
    s = _mirrored()
    seen: list[list[str]] = [[], []]

    def rep() -> Any:
        ctx = tf.distribute.get_replica_context()
        r = int(ctx.replica_id_in_sync_group.numpy())
        watcher = _Seen()
        execution.current().push_tape(watcher)
        try:
            with tf.GradientTape():
                x = tf.constant([1.0, 2.0]) * float(r + 1)
                ctx.all_reduce("SUM", x)
                ctx.all_gather(x, axis=0)
        finally:
            execution.current().pop_tape(watcher)
        seen[r] = [n for n, _ in watcher.ops]
        return x
    s.run(rep)
    for r in range(2):
        bound = [n for n in seen[r] if n.startswith("Collective")]
        assert bound == ["CollectiveReduceV2", "CollectiveGatherV2"], \
            f"replica {r} saw collectives {bound}, but should see all_reduce's then all_gather's op"


def test_a_recording_keeps_no_node_of_a_bound_op_and_explains_the_tape_replay() -> None:
    """The function's ops are the recording; the CustomGradient op adds no node, and a call
    under a tape says why it runs its Python again."""
    simdist.reset()
    f = _clipped_square()

    @tf.function
    def fn(x: Any) -> Any:
        return tf.reduce_sum(f(x * 3.0))
    x = tf.constant([0.1, 0.2])
    fn(x)
    (entry,) = fn._calls.values()
    assert type(entry) is graph.Graph, f"the call recorded {entry!r}, but should have a graph"
    assert entry.program is None and "CustomGradient (clipped_square)" in entry.untaped, \
        f"program={entry.program!r}, untaped={entry.untaped!r}, but a replay under a tape should name the op"
    text = graph.explain(fn)
    assert text.startswith("replays a recorded graph") and "under a gradient tape its calls run the Python again" \
        in text, f"explain={text!r}"
    rec = recording.Recorder()
    ctx = execution.current()
    execution.begin_recording(ctx, rec)
    try:
        t = tf.constant([1.0])
        n0 = len(rec.nodes)
        custom.bind("made_up", [t], (t,), lambda dy: [dy])
        added = len(rec.nodes) - n0
    finally:
        execution.end_recording(ctx, rec)
    assert added == 0 and rec.untaped is not None and "made_up" in rec.untaped, \
        f"binding added {added} nodes and untaped={rec.untaped!r}, but should add none and say why"


def test_replays_under_a_tape_rerun_the_python_and_give_the_first_calls_gradients() -> None:
    """With the custom op, calls under a tape run the function again (the grad_fn of each call
    closes over that call's tensors): gradients equal the eager ones call after call."""
    simdist.reset()
    f = _clipped_square()
    runs: list[int] = []

    @tf.function
    def fn(x: Any) -> Any:
        runs.append(1)
        return tf.reduce_sum(f(x * 3.0))
    grads = []
    for xs in ([0.1, 0.2], [-1.0, 0.05], [0.1, 0.2]):
        x = tf.constant(xs)
        with tf.GradientTape() as t:
            t.watch(x)
            y = fn(x)
        grads.append(t.gradient(y, x).numpy())
    want = [np.clip(2.0 * 3.0 * np.float32(xs), -1.0, 1.0) * 3.0 for xs in ([0.1, 0.2], [-1.0, 0.05], [0.1, 0.2])]
    for g, w in zip(grads, want):
        assert np.allclose(g, w), f"gradient={g}, but should be {w} (the clipped custom gradient)"
    assert len(runs) == 3, f"the Python ran {len(runs)} times, but should run on every call under a tape"


def test_all_gather_gradient_keeps_each_replicas_rows() -> None:
    s = _mirrored()

    def rep() -> Any:
        ctx = tf.distribute.get_replica_context()
        r = tf.cast(ctx.replica_id_in_sync_group, tf.float32)
        x = (r + 1.0) * tf.constant([[1.0, 2.0], [3.0, 4.0]])
        with tf.GradientTape() as t:
            t.watch(x)
            y = ctx.all_gather(x, axis=0)
            z = tf.reduce_sum(y * tf.reshape(tf.range(8, dtype=tf.float32), [4, 2]))
        return t.gradient(z, x)
    got = [g.numpy() for g in s.experimental_local_results(s.run(rep))]
    w = np.arange(8, dtype=np.float32).reshape(4, 2) * 2   # every replica's upstream, all-summed
    for r in range(2):
        assert np.array_equal(got[r], w[2 * r:2 * r + 2]), f"replica {r}'s gradient={got[r].tolist()}, but should " \
                                                           f"be rows {2 * r}..{2 * r + 1} of the summed upstream"


def test_collective_helpers_bind_their_attributes() -> None:
    """bind_all_reduce / bind_all_gather hand the interpreters the replica context and the op's
    attribute (the gradients run the backward collective there)."""
    seen = _Seen()
    ctx = execution.current()
    ctx.push_tape(seen)
    marker = object()
    try:
        t = tf.constant([1.0])
        collective.bind_all_reduce(marker, "SUM", [t], [t])
        collective.bind_all_gather(marker, 1, [t], [t])
    finally:
        ctx.pop_tape(seen)
    assert seen.ops == [("CollectiveReduceV2", {"reduce_op": "SUM", "replica_context": marker}),
                        ("CollectiveGatherV2", {"axis": 1, "replica_context": marker})], f"seen={seen.ops!r}"
