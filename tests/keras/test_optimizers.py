"""simdist's side of training with tf.keras.optimizers: what the differential and conformance
tests cannot see from outside (transactions, ps traffic, simulated time, strategy hooks)."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import simdist
from simdist import tf
from simdist.runtime import variables
from ps_helpers import coordinator, pss


def _four_cpus() -> None:
    cpu = tf.config.list_physical_devices("CPU")[0]
    tf.config.set_logical_device_configuration(cpu, [tf.config.LogicalDeviceConfiguration()] * 4)


# --- scatter writes ------------------------------------------------------------------------------
@pytest.mark.clause("optim.sparse-updates")
def test_scatter_in_a_transaction_reads_its_writes_and_commits_onto_the_current_value() -> None:
    v = tf.Variable(np.zeros((4, 2), np.float32))
    with variables.transaction() as txn:
        v.scatter_add(tf.IndexedSlices(tf.ones([2, 2]), tf.constant([1, 1])))
        seen = v.numpy().copy()
        v.scatter_nd_update(tf.constant([[3, 0]]), tf.constant([9.0]))
    assert seen[1].tolist() == [2.0, 2.0], f"inside the transaction row 1 reads {seen[1]}, but should read [2, 2]"
    assert v.numpy().sum() == 0.0, "nothing is applied before commit"
    v.assign_add(tf.ones([4, 2]))            # another writer commits first
    txn.commit()
    want = np.ones((4, 2), np.float32)
    want[1] += 2.0
    want[3, 0] = 9.0
    assert np.array_equal(v.numpy(), want), f"after commit v={v.numpy().tolist()}, but should be {want.tolist()} " \
                                            "(the scatter applied onto the value current at commit)"


@pytest.mark.clause("optim.sparse-updates")
def test_written_bytes_of_scatters_are_their_rows() -> None:
    emb = tf.Variable(np.zeros((100, 8), np.float32))
    w = tf.Variable(np.zeros((3,), np.float32))
    with variables.transaction() as txn:
        emb.scatter_sub(tf.IndexedSlices(tf.ones([3, 8]), tf.constant([5, 7, 5])))
        w.assign_add(tf.ones([3]))
        emb.scatter_add(tf.IndexedSlices(tf.ones([1, 8]), tf.constant([9])))
    got = [(v.name, b) for v, b in txn.written_bytes()]
    want = [(emb.name, 3 * 8 * 4 + 3 * 4 + 8 * 4 + 4), (w.name, 12)]
    assert got == want, f"written_bytes()={got}, but should be {want} (rows and indices, not the whole table)"


@pytest.mark.clause("optim.sparse-updates")
def test_scatter_errors() -> None:
    v = tf.Variable(np.zeros((4, 2), np.float32))
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"indices\[1\] = -1 is not in \[0, 4\) "
                                                             r"\[Op:ResourceScatterSub\]"):
        v.scatter_sub(tf.IndexedSlices(tf.ones([2, 2]), tf.constant([0, -1])))
    # (TF 2.21's kernel writes the rows before the first bad index, then raises: row 0 is -1; observed on
    # tensorflow-cpu 2.21, ops.index-errors "ixsweep67")
    partial = [[-1.0, -1.0], [0.0, 0.0], [0.0, 0.0], [0.0, 0.0]]
    assert v.numpy().tolist() == partial, f"v={v.numpy().tolist()}: the scatter should write row 0 before raising"
    # (open: TF 2.21 eager does not raise here - ResourceScatterAdd checks only the updates' rank - and adds the
    # first two of the three values to row 1; observed 2026-12-08. simdist raises the shape error)
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"Must have updates.shape = indices.shape \+ "
                                                             r"params.shape\[1:\]"):
        v.scatter_add(tf.IndexedSlices(tf.ones([1, 3]), tf.constant([1])))
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"indices\[0\] = \[5, 0\] does not index into shape "
                                                             r"\[4,2\]"):
        v.scatter_nd_add(tf.constant([[5, 0]]), tf.constant([1.0]))
    with pytest.raises(ValueError, match="float32 for Tensor with dtype float64"):
        v.scatter_add(tf.IndexedSlices(tf.ones([1, 2], tf.float64), tf.constant([1])))
    assert v.numpy().tolist() == partial, f"v={v.numpy().tolist()}: the later rejected scatters must not write"


@pytest.mark.clause("optim.pss-updates")
def test_sparse_updates_send_only_their_rows_to_the_ps() -> None:
    s = pss(workers=1, ps=1)
    with s.scope():
        emb = tf.Variable(np.zeros((1000, 16), np.float32), name="emb")
        opt = tf.keras.optimizers.SGD(0.1)
        opt.build([emb])
    ids = tf.constant([3, 500, 3])

    @tf.function
    def step():
        def replica():
            with tf.GradientTape() as tape:
                loss = tf.reduce_sum(tf.gather(emb, ids))
            opt.apply_gradients([(tape.gradient(loss, emb), emb)])
        s.run(replica)
    c = coordinator(s)
    c.schedule(step)
    c.join()
    rows = 3 * 16 * 4 + 3 * 4                 # the slices' values and int32 indices
    iteration = 8                              # iterations (int64) is assigned whole
    written = c.metrics()["ps_bytes_written"]
    assert written == rows + iteration, f"ps_bytes_written={written}, but a 3-row SGD update of a 64 KB table " \
                                        f"should send {rows + iteration} bytes"
    assert emb.numpy()[3, 0] == pytest.approx(-0.2) and emb.numpy()[500, 0] == pytest.approx(-0.1), \
        f"rows 3 and 500 = {emb.numpy()[[3, 500], 0]}, but should be -0.2 (looked up twice) and -0.1"


@pytest.mark.clause("optim.pss-updates")
def test_concurrent_closures_update_from_stale_values() -> None:
    """Two workers start a step at the same simulated time: both compute from w0 and from
    iterations 0; the ps applies both assign_sub deltas, while `iterations` (read, then
    assigned) ends at 1: the second assign overwrites the first, as on TF's ps."""
    s = pss(workers=2, ps=1)
    with s.scope():
        w = tf.Variable([1.0, -2.0], name="w")
        opt = tf.keras.optimizers.SGD(0.25)
        opt.build([w])

    @tf.function
    def step():
        def replica():
            with tf.GradientTape() as tape:
                loss = tf.reduce_sum(w * w)
            opt.apply_gradients([(tape.gradient(loss, w), w)])
        s.run(replica)
    c = coordinator(s)
    c.schedule(step)
    c.schedule(step)
    c.join()
    w0 = np.array([1.0, -2.0], np.float32)
    want = w0 - 2 * 0.25 * (2 * w0)
    assert np.allclose(w.numpy(), want), f"w={w.numpy()}, but should be {want} (both deltas from the stale w0)"
    assert int(opt.iterations.numpy()) == 1, f"iterations={opt.iterations.numpy()}, but should be 1 (lost increment)"
    c.schedule(step)
    c.join()
    assert int(opt.iterations.numpy()) == 2, "a later step reads the committed value"


# --- strategy hooks -------------------------------------------------------------------------------
@pytest.mark.clause("optim.update")
def test_extended_update_on_one_variable_strategies() -> None:
    _four_cpus()
    seen = []

    def fn(var, delta):
        seen.append((type(var).__name__, var.device))
        return var.assign_add(delta)
    s = tf.distribute.experimental.CentralStorageStrategy(["/cpu:0", "/cpu:1"])
    with s.scope():
        v = tf.Variable([1.0])
    out = s.extended.update(v, fn, args=(tf.constant([2.0]),), group=False)
    assert seen == [("ResourceVariable", "/job:localhost/replica:0/task:0/device:CPU:0")], \
        f"CentralStorage update called fn with {seen}, but should with the inner variable on CPU:0"
    assert isinstance(out, tuple) and float(v.numpy()[0]) == 3.0, f"group=False gave {out!r}; v={v.numpy()}"
    with pytest.raises(ValueError, match="It must be a Variable"):
        s.extended.update(tf.constant([1.0]), fn)
    m = tf.distribute.MirroredStrategy(["/cpu:0", "/cpu:1"])
    with pytest.raises(AssertionError, match="mirrored"):
        m.extended.update(tf.Variable([1.0]), fn, args=(tf.constant([1.0]),))


@pytest.mark.clause("optim.update")
def test_mirrored_update_reads_and_writes_the_copy_being_updated() -> None:
    _four_cpus()
    s = tf.distribute.MirroredStrategy(["/cpu:0", "/cpu:1", "/cpu:2"])
    with s.scope():
        v = tf.Variable([0.0])
        slot = tf.Variable([10.0])
    devices = []

    def fn(var):
        devices.append((var.device, tf.convert_to_tensor(slot).device))
        slot.assign_add([1.0])
        var.assign(slot)
    s.extended.update(v, fn)
    assert [d[0] for d in devices] == [c.device for c in v.values], f"fn ran on {devices}"
    assert all(a == b for a, b in devices), f"the slot was read on another copy than the variable's: {devices}"
    assert [float(c.numpy()[0]) for c in slot.values] == [11.0] * 3, \
        f"slot copies={[c.numpy() for c in slot.values]}, but each should be updated once (to 11)"


# --- the facade, the optimizer's own variables ---------------------------------------------------------
@pytest.mark.clause("optim.update-rules")
def test_tf_keras_optimizers_from_the_facade() -> None:
    opt = tf.keras.optimizers.get("adam")
    assert type(opt).__name__ == "Adam", f"tf.keras.optimizers.get('adam') gave {opt!r}"
    config = tf.keras.optimizers.serialize(tf.keras.optimizers.RMSprop(0.01, centered=True))
    assert (config["module"], config["class_name"]) == ("keras.optimizers", "RMSprop"), config
    back = tf.keras.optimizers.deserialize(config)
    assert back.centered and back.get_config()["learning_rate"] == pytest.approx(0.01), back.get_config()
    it = opt.iterations
    assert repr(it) == f"<Variable path={opt.name}/iteration, shape=(), dtype=int64, value=0>", repr(it)
    assert (int(it), it.dtype, it.path, it.value.name) == (0, "int64", f"{opt.name}/iteration",
                                                             f"{opt.name}/iteration:0"), (int(it), it.dtype, it.path)
    assert tf.keras.optimizers.schedules.ExponentialDecay(0.1, 10, 0.5).get_config()["decay_steps"] == 10
    # use_ema and gradient_accumulation_steps are implemented (their values: the conformance suite's
    # test_train_cov_optimizers.py, on simdist and TF 2.21); their arguments are checked as Keras does
    with pytest.raises(ValueError, match="`gradient_accumulation_steps` must be an integer >= 2"):
        tf.keras.optimizers.SGD(0.1, gradient_accumulation_steps=1)
    with pytest.raises(ValueError, match="`ema_momentum` must be in the range"):
        tf.keras.optimizers.SGD(0.1, use_ema=True, ema_momentum=1.5)


@pytest.mark.clause("optim.slot-placement")
def test_lazily_built_slots_under_mirrored_are_shared_by_the_replicas() -> None:
    """Replica 0 builds the optimizer inside strategy.run: one mirrored slot per variable, that
    every replica updates (TF's shared variable creator gives replicas > 0 replica 0's)."""
    _four_cpus()
    s = tf.distribute.MirroredStrategy(["/cpu:0", "/cpu:1", "/cpu:2", "/cpu:3"])
    with s.scope():
        w = tf.Variable([1.0, 2.0])
        opt = tf.keras.optimizers.Adam(0.1)
    s.run(lambda: opt.apply_gradients([(tf.constant([1.0, 1.0]), w)]))
    slots = opt.variables[2:]
    assert [type(v.value).__name__ for v in slots] == ["MirroredVariable"] * 2, [type(v.value) for v in slots]
    assert [c.device[-5:] for c in slots[0].value.values] == ["CPU:0", "CPU:1", "CPU:2", "CPU:3"]
    assert np.allclose(slots[0].numpy(), [0.4, 0.4]), f"momentum={slots[0].numpy()}, but should be 0.1 * 4 replicas"


# --- sharded lookups and simulated time ---------------------------------------------------------------
@pytest.mark.clause("pss.sharded-gather")
def test_sharded_lookup_gradients_per_shard() -> None:
    P = tf.distribute.experimental.partitioners
    s = pss(workers=1, ps=3, partitioner=P.FixedShardsPartitioner(3))
    table = np.arange(14, dtype=np.float32).reshape(7, 2)
    with s.scope():
        emb = tf.Variable(table)
    ids = np.array([[6, 0], [2, 6]])
    coef = np.array([[[1.0, 2.0], [3.0, 4.0]], [[5.0, 6.0], [7.0, 8.0]]], np.float32)
    with tf.GradientTape() as tape:
        rows = tf.nn.embedding_lookup(emb, tf.constant(ids))
        loss = tf.reduce_sum(rows * tf.constant(coef))
    assert np.array_equal(rows.numpy(), table[ids]), f"lookup={rows.numpy().tolist()}, want {table[ids].tolist()}"
    grads = tape.gradient(loss, emb.variables)
    dense = np.zeros_like(table)
    np.add.at(dense, ids.reshape(-1), coef.reshape(-1, 2))
    got = np.concatenate([tf.convert_to_tensor(g).numpy() for g in grads])
    assert np.array_equal(got, dense), f"shard gradients {got.tolist()}, but should be {dense.tolist()}"
    assert [type(g).__name__ for g in grads] == ["IndexedSlices"] * 3
    assert grads[1].indices.numpy().tolist() == [], "shard 1 holds none of the ids: an empty IndexedSlices"
    with pytest.raises(ValueError, match="indices must be 1D"):
        tf.gather(emb, tf.constant(ids))


def _closure_time(with_run: bool) -> float:
    simdist.reset()
    s = pss(workers=1, ps=1)
    with s.scope():
        w = tf.Variable(np.ones((256, 256), np.float32))
    x = tf.ones([64, 256])

    @tf.function
    def plain():
        return tf.reduce_sum(tf.matmul(x, w))

    @tf.function
    def in_run():
        return s.run(lambda: tf.reduce_sum(tf.matmul(x, w)))
    c = coordinator(s)
    c.schedule(in_run if with_run else plain)
    c.join()
    return simdist.now()


@pytest.mark.clause("optim.pss-updates")
def test_strategy_run_in_a_closure_reads_the_ps_once() -> None:
    """The coordinator charges a closure's ps reads; a strategy.run inside it must not charge
    them a second time (it did: its variable copies duplicated the ps transfer)."""
    from simdist.sim.hardware import CPUSpec
    plain, in_run = _closure_time(False), _closure_time(True)
    launch = CPUSpec().launch_overhead        # the run's compute is its own op, besides the closure's
    assert in_run == pytest.approx(plain + launch, rel=1e-9), \
        f"a closure took {in_run:.6g}s with strategy.run and {plain:.6g}s without; it should differ only by one " \
        f"CPU op launch ({launch:g}s), not by a second read of the 256 KB variable"


def test_keras_package_uses_only_the_public_facade() -> None:
    """simdist/keras is written against `simdist.tf` as Keras's TF backend is against `tensorflow`:
    it imports no simdist internals (runtime, strategies, sim, session, faults, scenario). The one
    exception is the package's public clock, `simdist.now` (the progress bar shows simulated time)."""
    import ast
    from pathlib import Path
    root = Path(simdist.__file__).parent / "keras"
    bad = []
    for path in sorted(root.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module == "simdist":
                names = [f"simdist.{a.name}" for a in node.names]
            elif isinstance(node, ast.ImportFrom):
                names = [node.module or ""]
            else:
                continue
            for name in names:
                if name.startswith("simdist") and not name.startswith(("simdist.keras", "simdist.tf")) \
                        and name != "simdist.now":
                    bad.append(f"{path.relative_to(root.parent)}:{node.lineno} imports {name}")
    assert not bad, "simdist/keras must use only simdist.tf: " + "; ".join(bad)


@pytest.mark.clause("optim.update")
@pytest.mark.parametrize("kind", ["mirrored", "central_storage", "pss"])
def test_optimizer_updates_are_charged_where_the_variables_live(kind: str, monkeypatch: Any) -> None:
    """The compute of `extended.update` (an optimizer step) is simulated on each updated copy's
    device: every replica device under Mirrored, the parameter device under CentralStorage,
    the variable's ps task under ParameterServerStrategy."""
    from simdist.sim.engine import Simulator
    charged: list[tuple[str, float]] = []
    real = Simulator.compute

    def spy(self, device, flops, name="compute", replica=None, category="compute", **kw):
        if category == "update":
            charged.append((str(device), float(flops)))
        return real(self, device, flops, name, replica, category, **kw)
    monkeypatch.setattr(Simulator, "compute", spy)
    _four_cpus()
    if kind == "pss":
        s = pss(workers=1, ps=2)
    elif kind == "mirrored":
        s = tf.distribute.MirroredStrategy(["/cpu:0", "/cpu:1"])
    else:
        s = tf.distribute.experimental.CentralStorageStrategy(["/cpu:0", "/cpu:1"])
    with s.scope():
        w = tf.Variable(np.ones((8, 4), np.float32), name="w")
        opt = tf.keras.optimizers.SGD(0.1, momentum=0.9)
        opt.build([w])

    def replica():
        with tf.GradientTape() as tape:
            loss = tf.reduce_sum(w * w)
        opt.apply_gradients([(tape.gradient(loss, w), w)])
    from simdist.runtime.cost import tally
    update0 = tally.update
    if kind == "pss":
        c = coordinator(s)
        c.schedule(tf.function(lambda: s.run(replica)))
        c.join()
        where = [w.device]
    else:
        s.run(replica)
        where = [c.device for c in w.values] if kind == "mirrored" else [w.device]
    from simdist import session
    where = sorted({session.sim_device(d) for d in where})   # (logical CPUs share their host's simulated CPU)
    devices = sorted({d for d, _ in charged})
    assert devices == where, f"{kind}: updates charged on {devices}, but should be on {where}"
    assert len(charged) == (2 if kind == "mirrored" else 1), \
        f"{kind}: {len(charged)} update kernels, but should be one per copy of w"
    assert all(f > 0 for _, f in charged), charged
    assert tally.update - update0 == pytest.approx(sum(f for _, f in charged)), \
        f"{kind}: the tally's update section grew by {tally.update - update0}, but the charged updates hold " \
        f"{sum(f for _, f in charged)} FLOPs"
