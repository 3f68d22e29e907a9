"""Differential tests of tf.keras.optimizers in custom training loops: simdist vs TF 2.21 + Keras 3.15.

Each case trains the same small model (x + emb[ids]) @ w + b, squared error, the loss summed and
divided by the global batch (what tf.nn.compute_average_loss computes), from the same initial
weights and data, for 5 steps with a partial last batch, under one strategy: OneDevice, Mirrored
(4 replicas), CentralStorage (2 replicas), or ParameterServer (2 workers, 2 ps, a custom loop
with a ClusterCoordinator, the embedding sharded in 2). Compared: the loss of every step, the
final variables (every copy), `iterations`, and each optimizer variable's value, placement and
kind. TF runs in worker subprocesses (tests/tf_workers.py).

Tolerance (docs/spec.md, "Training (optimizers)"): float32 results agree to rtol 2e-5 with an absolute
floor of 2e-6 times the array's largest magnitude: the updates are the same float32 operations,
but matmul and reductions sum in a different order (Eigen vs NumPy/OpenBLAS), which moves the
last bits; 5 steps do not amplify that beyond a few ulps in these cases.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from typing import Any, Callable

import numpy as np
import pytest

import simdist
import tf_workers
from simdist import tf as sim_tf

pytestmark = [pytest.mark.tf, tf_workers.tf_or_golden(__file__)]

RTOL, ATOL = 2e-5, 2e-6
GLOBAL_BATCH = 8
VOCAB, DIM, OUT = 10, 4, 3


# --- the cases ------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Case:
    name: str
    kind: str                     # one_device | mirrored | central_storage | default | pss
    optimizer: Callable[[Any], Any]
    sparse: bool = True           # the embedding (IndexedSlices gradients) is trained too
    examples: int = 38            # 5 steps of 8, 8, 8, 8, 6
    function: bool = False        # the replica step inside tf.function (after optimizer.build)
    build_first: bool = False
    lookup: str = "embedding_lookup"   # or "gather" (on a ShardedVariable TF 2.21 returns shard order)
    clause: str = "optim.mirrored-sum"


def _replicas(kind: str) -> int:
    return {"mirrored": 4, "central_storage": 2}.get(kind, 1)


OPTIMIZERS: dict[str, Callable[[Any], Any]] = {
    "sgd": lambda tf: tf.keras.optimizers.SGD(0.05),
    "sgd-momentum": lambda tf: tf.keras.optimizers.SGD(0.05, momentum=0.9),
    "sgd-nesterov": lambda tf: tf.keras.optimizers.SGD(0.05, momentum=0.9, nesterov=True),
    "adam": lambda tf: tf.keras.optimizers.Adam(0.05),
    "adam-amsgrad": lambda tf: tf.keras.optimizers.Adam(0.05, beta_1=0.8, amsgrad=True),
    "adamw": lambda tf: tf.keras.optimizers.AdamW(0.05, weight_decay=0.1),
    "adagrad": lambda tf: tf.keras.optimizers.Adagrad(0.1),
    "rmsprop": lambda tf: tf.keras.optimizers.RMSprop(0.01),
    "rmsprop-momentum": lambda tf: tf.keras.optimizers.RMSprop(0.01, momentum=0.5),
    "rmsprop-centered": lambda tf: tf.keras.optimizers.RMSprop(0.01, rho=0.8, centered=True),
}

SCHEDULES: dict[str, Callable[[Any], Any]] = {
    "exponential": lambda tf: tf.keras.optimizers.SGD(tf.keras.optimizers.schedules.ExponentialDecay(
        0.1, decay_steps=2, decay_rate=0.5)),
    "exponential-staircase": lambda tf: tf.keras.optimizers.Adam(tf.keras.optimizers.schedules.ExponentialDecay(
        0.1, decay_steps=2, decay_rate=0.5, staircase=True)),
    "piecewise": lambda tf: tf.keras.optimizers.SGD(tf.keras.optimizers.schedules.PiecewiseConstantDecay(
        [1, 3], [0.1, 0.05, 0.01]), momentum=0.5),
    "callable": lambda tf: tf.keras.optimizers.RMSprop(lambda: 0.02),
}

CLIPPING: dict[str, Callable[[Any], Any]] = {
    "clipnorm": lambda tf: tf.keras.optimizers.SGD(0.1, clipnorm=0.5),
    "clipvalue": lambda tf: tf.keras.optimizers.Adagrad(0.1, clipvalue=0.05),
    "global-clipnorm": lambda tf: tf.keras.optimizers.Adam(0.05, global_clipnorm=0.3),
    "global-clipnorm-sgd": lambda tf: tf.keras.optimizers.SGD(0.1, global_clipnorm=0.3),
}


def _cases() -> list[Case]:
    out: list[Case] = []
    for kind in ("one_device", "mirrored", "central_storage"):
        for name, make in OPTIMIZERS.items():
            clause = {"mirrored": "optim.mirrored-sum", "central_storage": "optim.css-aggregation",
                      "one_device": "optim.update-rules"}[kind]
            out.append(Case(f"{name}-{kind}", kind, make, clause=clause))
    for name, make in OPTIMIZERS.items():
        out.append(Case(f"{name}-pss", "pss", make, build_first=True, clause="optim.pss-updates"))
    for name in ("sgd", "adam", "adagrad", "rmsprop-momentum"):
        out.append(Case(f"{name}-mirrored-dense", "mirrored", OPTIMIZERS[name], sparse=False))
        out.append(Case(f"{name}-mirrored-empty-replicas", "mirrored", OPTIMIZERS[name], examples=34))
        out.append(Case(f"{name}-default", "default", OPTIMIZERS[name], clause="optim.update-rules"))
    for name in ("adam", "rmsprop-centered", "adagrad"):
        out.append(Case(f"{name}-mirrored-function", "mirrored", OPTIMIZERS[name], function=True, build_first=True,
                        clause="optim.build-in-function"))
    # TF 2.21 fails this one (slots built inside tf.function under Mirrored); simdist runs it
    out.append(Case("adam-mirrored-function-lazy-build", "mirrored", OPTIMIZERS["adam"], function=True,
                    clause="deviation"))
    for name in ("sgd-momentum", "adam"):
        out.append(Case(f"{name}-pss-lazy-build", "pss", OPTIMIZERS[name], clause="optim.slot-placement"))
    for name in ("adagrad", "rmsprop"):
        out.append(Case(f"{name}-pss-gather", "pss", OPTIMIZERS[name], build_first=True, lookup="gather",
                        clause="pss.sharded-gather"))
        out.append(Case(f"{name}-mirrored-gather", "mirrored", OPTIMIZERS[name], lookup="gather",
                        clause="optim.sparse-updates"))
    for name, make in SCHEDULES.items():
        for kind in ("one_device", "mirrored"):
            out.append(Case(f"schedule-{name}-{kind}", kind, make, clause="optim.schedules"))
    for name, make in CLIPPING.items():
        for kind in ("one_device", "mirrored", "central_storage"):
            out.append(Case(f"clip-{name}-{kind}", kind, make, clause="optim.clipping"))
    return out


CASES = _cases()
SYNC = [i for i, c in enumerate(CASES) if c.kind != "pss"]
PSS = [i for i, c in enumerate(CASES) if c.kind == "pss"]


# --- the program (written once against a `tf` module) ---------------------------------------------
def _data(case: Case) -> dict[str, np.ndarray]:
    rng = np.random.default_rng(20261201)
    return {"x": rng.normal(size=(case.examples, DIM)).astype(np.float32),
            "ids": rng.integers(0, VOCAB, size=(case.examples,)).astype(np.int32),
            "y": rng.normal(size=(case.examples, OUT)).astype(np.float32),
            "w": rng.normal(scale=0.5, size=(DIM, OUT)).astype(np.float32),
            "b": np.zeros((OUT,), np.float32),
            "emb": rng.normal(scale=0.5, size=(VOCAB, DIM)).astype(np.float32)}


def _model_vars(tf: Any, d: dict[str, np.ndarray], sparse: bool) -> dict[str, Any]:
    out = {"w": tf.Variable(d["w"], name="w"), "b": tf.Variable(d["b"], name="b")}
    if sparse:
        out["emb"] = tf.Variable(d["emb"], name="emb")
    return out


def _trainable(model: dict[str, Any]) -> list[Any]:
    """The variables the tape differentiates: a sharded embedding's shards (TF 2.21 cannot take
    the gradient of a ShardedVariable itself: use `.variables`)."""
    out = [model["w"], model["b"]]
    if "emb" in model:
        emb = model["emb"]
        out += list(emb.variables) if type(emb).__name__ == "ShardedVariable" else [emb]
    return out


def _replica_step(tf: Any, model: dict[str, Any], opt: Any, lookup: str) -> Callable[..., Any]:
    look = tf.nn.embedding_lookup if lookup == "embedding_lookup" else tf.gather

    def step(x: Any, ids: Any, y: Any) -> Any:
        with tf.GradientTape() as tape:
            feats = x + look(model["emb"], ids) if "emb" in model else x
            h = tf.matmul(feats, model["w"]) + model["b"]
            per_example = tf.reduce_sum(tf.square(h - y), axis=1)
            loss = tf.reduce_sum(per_example) / GLOBAL_BATCH
        variables = _trainable(model)
        grads = tape.gradient(loss, variables)
        opt.apply_gradients(zip(grads, variables))
        return loss
    return step


def _copies(v: Any) -> list[Any]:
    """The local copies of a variable: a mirrored one's per device, else the variable (a Keras
    variable is looked through to its tf.Variable)."""
    inner = v.value if hasattr(v, "path") else v
    comps = getattr(inner, "values", None)
    return list(comps) if isinstance(comps, tuple) else [inner]


def _observe(tf: Any, model: dict[str, Any], opt: Any, losses: list[float]) -> dict[str, Any]:
    variables = {}
    for k, v in model.items():
        parts = list(v.variables) if type(v).__name__ == "ShardedVariable" else [v]
        for j, p in enumerate(parts):
            variables[f"{k}/{j}"] = [(np.asarray(c.numpy()), c.device) for c in _copies(p)]
    slots = {}
    for s in opt.variables:
        inner = s.value
        kind = type(inner).__name__
        slots[s.name] = {"copies": [(np.asarray(c.numpy()), c.device) for c in _copies(s)],
                         "kind": kind if kind in ("MirroredVariable", "AggregatingVariable") else "plain",
                         "dtype": str(s.dtype)}
    return {"losses": np.asarray(losses, np.float32), "vars": variables, "iterations": int(opt.iterations.numpy()),
            "slots": slots}


_TF_STRATEGIES: dict[str, Any] = {}


def _strategy(tf: Any, kind: str) -> Any:
    """A fresh strategy on simdist; on TF one MirroredStrategy per worker process: a new one
    restarts its collective instance keys, and TF aborts a collective whose key an earlier
    strategy used with another dtype ("Collective instance 102 expected type 2...")."""
    if kind == "mirrored" and tf is not sim_tf:
        if kind not in _TF_STRATEGIES:
            _TF_STRATEGIES[kind] = tf.distribute.MirroredStrategy([f"/cpu:{i}" for i in range(4)])
        return _TF_STRATEGIES[kind]
    if kind == "mirrored":
        return tf.distribute.MirroredStrategy([f"/cpu:{i}" for i in range(4)])
    if kind == "central_storage":
        return tf.distribute.experimental.CentralStorageStrategy(["/cpu:0", "/cpu:1"])
    if kind == "one_device":
        return tf.distribute.OneDeviceStrategy("/cpu:1")
    return tf.distribute.get_strategy()


def train_sync(tf: Any, case: Case) -> dict[str, Any]:
    d = _data(case)
    s = _strategy(tf, case.kind)
    with s.scope():
        model = _model_vars(tf, d, case.sparse)
        opt = case.optimizer(tf)
        if case.build_first:
            opt.build(_trainable(model))
    step = _replica_step(tf, model, opt, case.lookup)

    def run(batch: Any) -> Any:
        return s.run(step, args=batch)
    if case.function:
        run = tf.function(run)
    ds = tf.data.Dataset.from_tensor_slices((d["x"], d["ids"], d["y"])).batch(GLOBAL_BATCH)
    losses = []
    for batch in s.experimental_distribute_dataset(ds):
        losses.append(float(s.reduce("SUM", run(batch), axis=None)))
    return _observe(tf, model, opt, losses)


def _embedding_in_two(shape: Any, dtype: Any) -> list[int]:
    return [2] + [1] * (len(shape) - 1) if shape[0] == VOCAB else [1] * len(shape)


def train_pss(tf: Any, resolver: Any, case: Case) -> dict[str, Any]:
    """The PS custom loop: one closure in flight at a time (join after each), so TF's result is
    deterministic; the step runs the replica function with strategy.run, as TF requires."""
    d = _data(case)
    s = tf.distribute.experimental.ParameterServerStrategy(resolver, variable_partitioner=_embedding_in_two)
    coord = tf.distribute.experimental.coordinator.ClusterCoordinator(s)
    with s.scope():
        model = _model_vars(tf, d, case.sparse)
        opt = case.optimizer(tf)
        if case.build_first:
            opt.build(_trainable(model))
    replica_step = _replica_step(tf, model, opt, case.lookup)

    @tf.function
    def step(x: Any, ids: Any, y: Any) -> Any:
        return s.run(replica_step, args=(x, ids, y))
    losses = []
    for k in range(0, case.examples, GLOBAL_BATCH):
        sl = slice(k, k + GLOBAL_BATCH)
        rv = coord.schedule(step, args=(tf.constant(d["x"][sl]), tf.constant(d["ids"][sl]), tf.constant(d["y"][sl])))
        coord.join()
        losses.append(float(rv.fetch()))
    return _observe(tf, model, opt, losses)


def _guarded(fn: Callable[[], Any]) -> Any:
    try:
        return ("ok", fn())
    except Exception as e:  # noqa: BLE001 - the class is the result
        return ("error", f"{type(e).__name__}: {e}")


# --- comparison ------------------------------------------------------------------------------------
def _close(got: np.ndarray, want: np.ndarray) -> bool:
    if got.shape != want.shape or got.dtype != want.dtype:
        return False
    if want.dtype.kind != "f":
        return bool(np.array_equal(got, want))
    floor = ATOL * max(1.0, float(np.max(np.abs(want))) if want.size else 1.0)
    return bool(np.allclose(got, want, rtol=RTOL, atol=floor, equal_nan=True))


def assert_same_training(got: Any, want: Any, name: str) -> None:
    assert got[0] == want[0] == "ok", f"{name}: simdist gave {got[0]} {got[1] if got[0] != 'ok' else ''}, " \
                                      f"TF 2.21 gave {want[0]} {want[1][:500] if want[0] != 'ok' else ''}"
    g, w = got[1], want[1]
    assert _close(g["losses"], w["losses"]), f"{name}: losses {g['losses'].tolist()}, but TF 2.21 gives " \
                                             f"{w['losses'].tolist()}"
    assert g["iterations"] == w["iterations"], f"{name}: iterations={g['iterations']}, TF 2.21 {w['iterations']}"
    assert sorted(g["vars"]) == sorted(w["vars"]), f"{name}: variables {sorted(g['vars'])} vs TF {sorted(w['vars'])}"
    for k, copies in w["vars"].items():
        mine = g["vars"][k]
        assert [c[1] for c in mine] == [c[1] for c in copies], \
            f"{name}: {k} on {[c[1] for c in mine]}, but TF 2.21 places it on {[c[1] for c in copies]}"
        for j, ((gv, _), (wv, _)) in enumerate(zip(mine, copies)):
            assert _close(gv, wv), f"{name}: {k} copy {j} = {gv.ravel()[:6].tolist()}..., but TF 2.21 gives " \
                                   f"{wv.ravel()[:6].tolist()}... (max diff {np.max(np.abs(gv - wv)):.3g})"
    assert sorted(g["slots"]) == sorted(w["slots"]), \
        f"{name}: optimizer variables {sorted(g['slots'])}, but TF 2.21 has {sorted(w['slots'])}"
    for k, ws in w["slots"].items():
        gs = g["slots"][k]
        assert (gs["kind"], gs["dtype"]) == (ws["kind"], ws["dtype"]), \
            f"{name}: slot {k} is a {gs['kind']} {gs['dtype']}, but TF 2.21 makes a {ws['kind']} {ws['dtype']}"
        assert [c[1] for c in gs["copies"]] == [c[1] for c in ws["copies"]], \
            f"{name}: slot {k} on {[c[1] for c in gs['copies']]}, but TF 2.21 places it on " \
            f"{[c[1] for c in ws['copies']]}"
        for j, ((gv, _), (wv, _)) in enumerate(zip(gs["copies"], ws["copies"])):
            assert _close(gv, wv), f"{name}: slot {k} copy {j} = {gv.ravel()[:6].tolist()}..., but TF 2.21 gives " \
                                   f"{wv.ravel()[:6].tolist()}..."


# --- TF side ---------------------------------------------------------------------------------------------
def _tf_worker(indices: list[int]) -> dict[int, Any]:
    import tensorflow as tf
    if all(CASES[i].kind != "pss" for i in indices):
        cpu = tf.config.list_physical_devices("CPU")[0]
        tf.config.set_logical_device_configuration(cpu, [tf.config.LogicalDeviceConfiguration()] * 4)
        return {i: _guarded(lambda i=i: train_sync(tf, CASES[i])) for i in indices}
    from simdist.conformance.backends.tf_backend import start_in_process_servers
    spec, servers = start_in_process_servers(tf, 2, 2, inter_op_threads=8)
    resolver = tf.distribute.cluster_resolver.SimpleClusterResolver(tf.train.ClusterSpec(spec), rpc_layer="grpc")
    out = {i: _guarded(lambda i=i: train_pss(tf, resolver, CASES[i])) for i in indices}
    del servers
    return out


# The default run compares a bounded slice (TF's eager MirroredStrategy takes seconds a case on
# this machine: each strategy, sparse updates, the tf.function deviation, clipping, PSS with a
# sharded embedding); `-m slow` runs all of them.
DEFAULT_SLICE = {"adam-mirrored", "adagrad-central_storage", "rmsprop-centered-one_device", "adam-mirrored-function",
                 "adam-mirrored-function-lazy-build", "clip-clipvalue-one_device", "adagrad-pss",
                 "adam-pss-lazy-build", "rmsprop-pss-gather"}


def _selected(config: Any) -> list[int]:
    """The cases this run compares (the TF workers compute only those)."""
    expr = config.getoption("-m", default="") or ""
    if "slow" in expr and "not slow" not in expr:
        return list(range(len(CASES)))
    return [i for i, c in enumerate(CASES) if c.name in DEFAULT_SLICE]


@pytest.fixture(scope="module")
def tf_results(request: Any) -> dict[int, Any]:
    chosen = _selected(request.config)
    results: dict[int, Any] = {}
    for group in ([i for i in chosen if CASES[i].kind != "pss"], [i for i in chosen if CASES[i].kind == "pss"]):
        if group:
            results.update(tf_workers.spawn(__file__, group))
    return results


def simdist_run(case: Case) -> Any:
    simdist.reset()
    if case.kind == "pss":
        spec = sim_tf.train.ClusterSpec({"worker": ["w0:1", "w1:1"], "ps": ["p0:1", "p1:1"]})
        resolver = sim_tf.distribute.cluster_resolver.SimpleClusterResolver(spec, rpc_layer="grpc")
        return _guarded(lambda: train_pss(sim_tf, resolver, case))
    cpu = sim_tf.config.list_physical_devices("CPU")[0]
    sim_tf.config.set_logical_device_configuration(cpu, [sim_tf.config.LogicalDeviceConfiguration()] * 4)
    return _guarded(lambda: train_sync(sim_tf, case))


def _params(clause: str) -> list[Any]:
    return [pytest.param(i, id=c.name, marks=() if c.name in DEFAULT_SLICE else pytest.mark.slow)
            for i, c in enumerate(CASES) if c.clause == clause]


def _check(index: int, tf_results: dict[int, Any]) -> None:
    assert_same_training(simdist_run(CASES[index]), tf_results[index], CASES[index].name)


@pytest.mark.clause("optim.update-rules")
@pytest.mark.parametrize("index", _params("optim.update-rules"))
def test_update_rules_one_device_and_default(index: int, tf_results: dict[int, Any]) -> None:
    _check(index, tf_results)


@pytest.mark.clause("optim.mirrored-sum")
@pytest.mark.parametrize("index", _params("optim.mirrored-sum"))
def test_mirrored_sums_replica_gradients(index: int, tf_results: dict[int, Any]) -> None:
    _check(index, tf_results)


@pytest.mark.clause("optim.css-aggregation")
@pytest.mark.parametrize("index", _params("optim.css-aggregation"))
def test_central_storage_sums_and_updates_once(index: int, tf_results: dict[int, Any]) -> None:
    _check(index, tf_results)


@pytest.mark.clause("optim.pss-updates")
@pytest.mark.clause("optim.sparse-updates")
@pytest.mark.parametrize("index", _params("optim.pss-updates"))
def test_pss_custom_loop_with_sharded_embedding(index: int, tf_results: dict[int, Any]) -> None:
    _check(index, tf_results)


@pytest.mark.clause("optim.slot-placement")
@pytest.mark.parametrize("index", _params("optim.slot-placement"))
def test_pss_slots_built_in_a_scheduled_function(index: int, tf_results: dict[int, Any]) -> None:
    _check(index, tf_results)


@pytest.mark.clause("pss.sharded-gather")
@pytest.mark.parametrize("index", _params("pss.sharded-gather"))
def test_pss_gather_on_sharded_embedding(index: int, tf_results: dict[int, Any]) -> None:
    _check(index, tf_results)


@pytest.mark.clause("optim.sparse-updates")
@pytest.mark.parametrize("index", _params("optim.sparse-updates"))
def test_mirrored_sparse_updates(index: int, tf_results: dict[int, Any]) -> None:
    _check(index, tf_results)


@pytest.mark.clause("optim.build-in-function")
@pytest.mark.parametrize("index", _params("optim.build-in-function"))
def test_mirrored_step_in_tf_function_after_build(index: int, tf_results: dict[int, Any]) -> None:
    _check(index, tf_results)


@pytest.mark.clause("optim.build-in-function")
def test_lazy_build_in_tf_function_is_a_recorded_deviation(tf_results: dict[int, Any]) -> None:
    """TF 2.21 + Keras 3.15: Adam's slots created inside a tf.function under MirroredStrategy fail
    with "You must feed a value for placeholder tensor"; simdist has no graphs, so the lazy build
    works and trains exactly as TF does after `optimizer.build(variables)`."""
    lazy = next(i for i, c in enumerate(CASES) if c.name == "adam-mirrored-function-lazy-build")
    built = next(i for i, c in enumerate(CASES) if c.name == "adam-mirrored-function")
    want = tf_results[lazy]
    expected = "You must feed a value for placeholder tensor"
    assert want[0] == "error" and want[1].startswith("InvalidArgumentError") and expected in want[1], \
        f"TF 2.21 gave {want!r}: the recorded deviation expects InvalidArgumentError about a placeholder"
    assert_same_training(simdist_run(CASES[lazy]), tf_results[built], "lazy build in tf.function (simdist) vs "
                                                                      "build first (TF 2.21)")


@pytest.mark.clause("optim.schedules")
@pytest.mark.parametrize("index", _params("optim.schedules"))
def test_learning_rate_schedules(index: int, tf_results: dict[int, Any]) -> None:
    _check(index, tf_results)


@pytest.mark.clause("optim.clipping")
@pytest.mark.parametrize("index", _params("optim.clipping"))
def test_gradient_clipping(index: int, tf_results: dict[int, Any]) -> None:
    _check(index, tf_results)


if __name__ == "__main__":  # TF worker: python test_optimizers_differential_tf.py 0,1,2 -> pickled results
    tf_workers.serve(_tf_worker)
    os._exit(0)  # in-process servers and coordinator threads never shut down cleanly
