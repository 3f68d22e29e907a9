"""MultiWorkerMirroredStrategy across clients — clauses mwms.*.

Every test runs a small program on every client of a MultiWorkerMirroredStrategy cluster through
the backend's ``run_multi_worker`` (one process per task on real TensorFlow; simulated clients in
one process on simdist), each client with its own ``TF_CONFIG``, and checks what each client
returned. A multi-client run is expensive on real TensorFlow (a process per task, ~10-40 s), so
one run serves several tests: ``_run`` keeps each program's results (or its failure) per backend
for the module. Expected values are computed here from each client's task position.

The facts behind these clauses, with the scripts that observed them on TF 2.21, are in
docs/reference/mwms-tf-2.21.md.
"""

from __future__ import annotations

import re
from typing import Any

import pytest

from simdist.conformance.assertions import assert_close, assert_equal, assert_true
from simdist.conformance.tolerances import Tolerance

clause = pytest.mark.clause
pytestmark = pytest.mark.requires("multi_client")

_RUNS: dict[tuple[int, str], tuple[bool, Any]] = {}


def _run(backend: Any, key: str, program: str, num_workers: int, **kwargs: Any) -> list[Any]:
    """``backend.run_multi_worker(program, ...)``, once per backend and key for the module (a
    failure is kept and raised again, so every test that needs the run reports it)."""
    k = (id(backend), key)
    if k not in _RUNS:
        try:
            _RUNS[k] = (True, backend.run_multi_worker(program, num_workers, **kwargs))
        except Exception as e:  # noqa: BLE001 - kept, raised again below for each test
            _RUNS[k] = (False, e)
    ok, value = _RUNS[k]
    if not ok:
        raise value
    return value


# -- one program, many facts: 2 workers, no chief; and 1 chief + 1 worker ----------------------
FACTS_PROGRAM = """
import os, json
r = strategy.cluster_resolver
ext = strategy.extended
task = json.loads(os.environ["TF_CONFIG"])["task"]
pos = (0 if task["type"] == "chief" else task["index"] + (1 if "chief" in r.cluster_spec().as_dict() else 0))
v = float(pos + 1)

def fn():
    ctx = tf.distribute.get_replica_context()
    return (ctx.all_reduce("SUM", tf.constant(v)), ctx.all_reduce("MEAN", tf.constant(v)),
            ctx.replica_id_in_sync_group, ctx.num_replicas_in_sync,
            ctx.all_gather(tf.constant([v, 10 * v]), axis=0))

s, m, rid, n, g = strategy.run(fn)
per = strategy.run(lambda: tf.constant([v, 2 * v]))
with strategy.scope():
    w = tf.Variable([1.0, 2.0])
    mine = tf.Variable(float(pos + 10))   # each task computes its own initial value

@tf.function
def step():
    def replica_fn():
        with tf.GradientTape() as tape:
            loss = tf.reduce_sum(w * w) * v
        grad = tape.gradient(loss, w)
        grad = tf.distribute.get_replica_context().all_reduce("SUM", grad)
        w.assign_sub(0.125 * grad)
        return loss
    return strategy.reduce("SUM", strategy.run(replica_fn), axis=None)

losses = [float(step()) for _ in range(2)]
result = {
    "task": [r.task_type, r.task_id], "env_task": [task["type"], task["index"]],
    "cluster_jobs": sorted(r.cluster_spec().as_dict()),
    "num_replicas_in_sync": int(strategy.num_replicas_in_sync),
    "should_checkpoint": bool(ext.should_checkpoint), "should_save_summary": bool(ext.should_save_summary),
    "replica_id_in_sync_group": int(rid), "ctx_num_replicas": int(n),
    "all_reduce_sum": float(s), "all_reduce_mean": float(m),     "all_gather": [float(x) for x in g.numpy()],
    "reduce_sum": [float(x) for x in strategy.reduce("SUM", per, axis=None).numpy()],
    "reduce_mean_axis0": float(strategy.reduce("MEAN", per, axis=0)),
    "reduce_sum_axis0": float(strategy.reduce("SUM", per, axis=0)),
    "gather": [float(x) for x in strategy.gather(per, axis=0).numpy()],
    "local_results": [[float(x) for x in backend.to_numpy(t)] for t in strategy.experimental_local_results(per)],
    "losses": losses, "w": [float(x) for x in w.numpy()],
    "initial": [float(backend.to_numpy(c)) for c in strategy.experimental_local_results(mine)],
}
"""


def _facts(backend: Any, chief: bool) -> list[dict]:
    if chief:
        return _run(backend, "facts-chief", FACTS_PROGRAM, 1, chief=True)
    return _run(backend, "facts", FACTS_PROGRAM, 2)


SHAPES = [pytest.param(False, id="2-workers"), pytest.param(True, id="chief+worker")]


def _tasks(chief: bool) -> list[tuple[str, int]]:
    return [("chief", 0), ("worker", 0)] if chief else [("worker", 0), ("worker", 1)]


@clause("mwms.num-replicas")
@pytest.mark.parametrize("chief", SHAPES)
def test_mwms_num_replicas_span_every_worker(backend, chief):
    """One CPU per task: num_replicas_in_sync is the number of chief + worker tasks, and a
    client's replica is the replica_id_in_sync_group of its position (chief first)."""
    out = _facts(backend, chief)
    for pos, (task, facts) in enumerate(zip(_tasks(chief), out)):
        call = f"MWMS on {task[0]} {task[1]} of {_tasks(chief)}"
        assert_equal(facts["num_replicas_in_sync"], 2, what="num_replicas_in_sync", call=call)
        assert_equal(facts["ctx_num_replicas"], 2, what="replica context num_replicas_in_sync", call=call)
        assert_equal(facts["replica_id_in_sync_group"], pos, what="replica_id_in_sync_group", call=call)
        assert_equal(len(facts["local_results"]), 1, what="len(experimental_local_results(run(...)))", call=call)


@clause("mwms.roles")
@pytest.mark.parametrize("chief", SHAPES)
def test_mwms_roles_and_chief_duties(backend, chief):
    """cluster_resolver.task_type/task_id are the client's TF_CONFIG task; the chief (or worker 0
    when the cluster has no chief) alone should checkpoint and save summaries."""
    out = _facts(backend, chief)
    for pos, (task, facts) in enumerate(zip(_tasks(chief), out)):
        call = f"MWMS on {task[0]} {task[1]} of {_tasks(chief)}"
        assert_equal(facts["task"], list(task), what="[cluster_resolver.task_type, task_id]", call=call)
        assert_equal(facts["env_task"], list(task), what="TF_CONFIG task", call=call)
        assert_equal(facts["cluster_jobs"], ["chief", "worker"] if chief else ["worker"],
                     what="cluster_spec() jobs", call=call)
        is_chief = pos == 0
        assert_equal(facts["should_checkpoint"], is_chief, what="extended.should_checkpoint", call=call)
        assert_equal(facts["should_save_summary"], is_chief, what="extended.should_save_summary", call=call)


EVALUATOR_PROGRAM = """
import socket

def port():
    with socket.socket() as s:
        s.bind(("localhost", 0))
        return s.getsockname()[1]

# The evaluator of a cluster whose 2 workers are not started: TF counts it as its own one-task cluster.
spec = tf.train.ClusterSpec({"worker": [f"localhost:{port()}", f"localhost:{port()}"],
                             "evaluator": [f"localhost:{port()}"]})
resolver = tf.distribute.cluster_resolver.SimpleClusterResolver(spec, task_type="evaluator", task_id=0)
s = tf.distribute.MultiWorkerMirroredStrategy(cluster_resolver=resolver)
per = s.run(lambda: tf.constant([1.0, 2.0]))
result = {"num_replicas_in_sync": int(s.num_replicas_in_sync),
          "should_checkpoint": bool(s.extended.should_checkpoint),
          "should_save_summary": bool(s.extended.should_save_summary),
          "task": [s.cluster_resolver.task_type, int(s.cluster_resolver.task_id)],
          "reduce_sum": [float(x) for x in np.ravel(backend.to_numpy(s.reduce("SUM", per, axis=None)))]}
"""


@clause("mwms.roles", ref="tf221")
def test_mwms_on_the_evaluator_task_is_its_own_chief(backend):
    """A MultiWorkerMirroredStrategy made on a cluster's evaluator task (a resolver naming
    evaluator:0 of a cluster with 2 workers and 1 evaluator) is a one-task cluster of its own:
    1 replica, and it is its own chief (should_checkpoint and should_save_summary True), as TF
    2.21's multi_worker_util.is_chief and worker_count say for the evaluator."""
    (got,) = _run(backend, "evaluator", EVALUATOR_PROGRAM, 1, make_strategy=False)
    call = "MultiWorkerMirroredStrategy(SimpleClusterResolver(worker x2 + evaluator, task evaluator:0))"
    assert_equal(got["task"], ["evaluator", 0], what="[cluster_resolver.task_type, task_id]", call=call)
    assert_equal(got["num_replicas_in_sync"], 1, what="num_replicas_in_sync", call=call)
    assert_equal(got["should_checkpoint"], True, what="extended.should_checkpoint", call=call)
    assert_equal(got["should_save_summary"], True, what="extended.should_save_summary", call=call)
    assert_equal(got["reduce_sum"], [1.0, 2.0], what="reduce(SUM, run(lambda: [1., 2.]), axis=None)", call=call)


@clause("mwms.all-reduce")
@pytest.mark.parametrize("chief", SHAPES)
def test_mwms_replica_all_reduce_and_all_gather_across_workers(backend, chief):
    """Task at position p contributes p + 1: every client gets the same SUM and MEAN and the
    all_gather concatenated in task order."""
    out = _facts(backend, chief)
    vals = [float(p + 1) for p in range(len(out))]
    for task, facts in zip(_tasks(chief), out):
        call = f"replica_ctx.all_reduce on {task[0]} {task[1]}"
        assert_equal(facts["all_reduce_sum"], sum(vals), what="all_reduce(SUM)", call=call)
        assert_equal(facts["all_reduce_mean"], sum(vals) / len(vals), what="all_reduce(MEAN)", call=call)
        assert_equal(facts["all_gather"], [x for v in vals for x in (v, 10 * v)], what="all_gather(axis=0)",
                     call=call)


@clause("mwms.reduce")
@pytest.mark.parametrize("chief", SHAPES)
def test_mwms_strategy_reduce_and_gather_across_workers(backend, chief):
    """strategy.reduce and strategy.gather in cross-replica context combine every worker's
    component: SUM axis=None elementwise, MEAN/SUM axis=0 over the global batch, gather concatenates
    in task order; each client gets the same result."""
    out = _facts(backend, chief)
    comps = [[float(p + 1), 2.0 * (p + 1)] for p in range(len(out))]
    for pos, (task, facts) in enumerate(zip(_tasks(chief), out)):
        call = f"strategy.reduce/gather on {task[0]} {task[1]}"
        assert_equal(facts["local_results"], [comps[pos]], what="experimental_local_results", call=call)
        assert_equal(facts["reduce_sum"], [sum(c[i] for c in comps) for i in range(2)],
                     what="reduce(SUM, axis=None)", call=call)
        flat = [x for c in comps for x in c]
        assert_equal(facts["reduce_sum_axis0"], sum(flat), what="reduce(SUM, axis=0)", call=call)
        assert_equal(facts["reduce_mean_axis0"], sum(flat) / len(flat), what="reduce(MEAN, axis=0)", call=call)
        assert_equal(facts["gather"], flat, what="gather(axis=0)", call=call)


@clause("mwms.variables")
@pytest.mark.parametrize("chief", SHAPES)
def test_mwms_variables_stay_in_sync(backend, chief):
    """A variable made in scope, updated in a tf.function step by the all-reduced gradient of
    loss_p = (p + 1) * sum(w^2): every client holds the same value after each step."""
    out = _facts(backend, chief)
    k = sum(p + 1 for p in range(len(out)))  # the gradient is 2 * k * w
    w = [1.0, 2.0]
    losses = []
    for _ in range(2):
        losses.append(k * sum(x * x for x in w))  # strategy.reduce(SUM) of every task's loss
        w = [x - 0.125 * 2 * k * x for x in w]
    for task, facts in zip(_tasks(chief), out):
        call = f"2 steps of w -= 0.125 * all_reduce(grad) on {task[0]} {task[1]}"
        assert_equal(facts["w"], w, what="w after 2 steps", call=call)
        assert_equal(facts["losses"], losses, what="reduced losses", call=call)


@clause("mwms.variables", ref="tf221")
@pytest.mark.parametrize("chief", SHAPES)
def test_mwms_variable_starts_from_the_first_tasks_initial_value(backend, chief):
    """`tf.Variable(float(p + 10))` made in scope by the task at position p holds 10.0 on every
    task: the group leader's (position 0's) initial value is broadcast before the variable exists."""
    out = _facts(backend, chief)
    for task, facts in zip(_tasks(chief), out):
        call = f"tf.Variable(float(position + 10)) in MWMS scope on {task[0]} {task[1]} of {_tasks(chief)}"
        assert_equal(facts["initial"], [10.0], what="the variable's local copies", call=call)


# -- one client without TF_CONFIG; CommunicationOptions TF rejects --------------------------------
SINGLE_PROGRAM = """
import json, os
os.environ.pop("TF_CONFIG", None)
s = tf.distribute.MultiWorkerMirroredStrategy()
r = s.cluster_resolver
CO = tf.distribute.experimental.CommunicationOptions

def attempt(fn):
    try:
        o = fn()
    except Exception as e:
        return [type(e).__name__, str(e)]
    if hasattr(o, "bytes_per_pack"):  # TF's CommunicationOptions(...) is an _OptionsImpl, not a CO
        return ["ok", [o.bytes_per_pack, o.timeout_seconds, o.implementation.name]]
    return ["ok", type(o).__name__]

def with_tf_config(cfg):
    os.environ["TF_CONFIG"] = json.dumps(cfg)
    try:
        return attempt(lambda: tf.distribute.MultiWorkerMirroredStrategy())
    finally:
        os.environ.pop("TF_CONFIG", None)

two = {"worker": ["localhost:12345", "localhost:23456"]}
bad = {
    "index-out-of-range": with_tf_config({"cluster": two, "task": {"type": "worker", "index": 5}}),
    "type-not-in-cluster": with_tf_config({"cluster": two, "task": {"type": "ps", "index": 0}}),
    "no-task": with_tf_config({"cluster": two}),
}
keras = tf.keras
with s.scope():
    model = keras.Sequential([keras.Input((2,)), keras.layers.Dense(
        1, kernel_initializer=keras.initializers.Constant(0.5), bias_initializer="zeros")])
    model.compile(optimizer=keras.optimizers.SGD(0.1), loss="mse")
try:
    history = model.fit(np.arange(16, dtype="float32").reshape(8, 2) / 10.0, np.ones((8, 1), dtype="float32"),
                        batch_size=4, epochs=1, shuffle=False, verbose=0).history
    one_worker_fit = ["ok", [float(x) for x in history["loss"]],
                      [float(x) for x in np.ravel(model.layers[0].get_weights()[0])]]
except Exception as e:
    one_worker_fit = [type(e).__name__, str(e)[:300]]
iterator_checkpoint = attempt(lambda: tf.train.Checkpoint(
    iterator=iter(s.experimental_distribute_dataset(tf.data.Dataset.range(8).batch(2)))))
result = {
    "one_worker_fit": one_worker_fit,
    "iterator_checkpoint": iterator_checkpoint,
    "bad_tf_config": bad,
    "num_replicas_in_sync": int(s.num_replicas_in_sync),
    "resolver": type(r).__name__, "cluster": r.cluster_spec().as_dict(), "task": [r.task_type, r.task_id],
    "should_checkpoint": bool(s.extended.should_checkpoint),
    "should_save_summary": bool(s.extended.should_save_summary),
    "reduce": float(s.reduce("SUM", s.run(lambda: tf.constant(2.0)), axis=None)),
    "options": {
        "default": attempt(lambda: CO()),
        "positional": attempt(lambda: CO(1024, 5.0, "RING")),
        "lower-case": attempt(lambda: CO(implementation="nccl")),
        "enum": attempt(lambda: CO(implementation=tf.distribute.experimental.CommunicationImplementation.RING)),
        "negative-pack": attempt(lambda: CO(bytes_per_pack=-1)),
        "string-pack": attempt(lambda: CO(bytes_per_pack="1024")),
        "unknown-impl": attempt(lambda: CO(implementation="mpi")),
        "int-impl": attempt(lambda: CO(implementation=1)),
        "none-impl": attempt(lambda: CO(implementation=None)),
        "strategy-string-options": attempt(lambda: tf.distribute.MultiWorkerMirroredStrategy(communication_options="RING")),
        "strategy-string-resolver": attempt(lambda: tf.distribute.MultiWorkerMirroredStrategy(cluster_resolver="x")),
    },
}
"""


def _single(backend: Any) -> dict:
    return _run(backend, "single", SINGLE_PROGRAM, 1, make_strategy=False)[0]


@clause("mwms.single-worker")
def test_mwms_without_tf_config_is_one_local_worker(backend):
    """In a client without TF_CONFIG, MultiWorkerMirroredStrategy() is a single-worker strategy
    on the local device (one CPU): a TFConfigClusterResolver with an empty cluster and no task,
    one replica, the chief's duties."""
    out = _single(backend)
    call = "MultiWorkerMirroredStrategy() without TF_CONFIG"
    assert_equal(out["num_replicas_in_sync"], 1, what="num_replicas_in_sync", call=call)
    assert_equal(out["resolver"], "TFConfigClusterResolver", what="type(cluster_resolver)", call=call)
    assert_equal(out["cluster"], {}, what="cluster_resolver.cluster_spec().as_dict()", call=call)
    assert_equal(out["task"], [None, None], what="[task_type, task_id]", call=call)
    assert_equal(out["should_checkpoint"], True, what="extended.should_checkpoint", call=call)
    assert_equal(out["should_save_summary"], True, what="extended.should_save_summary", call=call)
    assert_equal(out["reduce"], 2.0, what="reduce(SUM, run(lambda: 2.0))", call=call)


@clause("mwms.iterator-checkpoint", ref="tf221")
def test_mwms_distributed_iterator_is_not_checkpointable(backend):
    """A distributed dataset's iterator is not Trackable: tf.train.Checkpoint refuses it at once."""
    got = _single(backend)["iterator_checkpoint"]
    call = "tf.train.Checkpoint(iterator=iter(strategy.experimental_distribute_dataset(ds)))"
    assert_equal(got[0], "ValueError", what=f"outcome ({got})", call=call)
    assert_true("`Checkpoint` was expecting iterator to be a trackable object" in got[1],
                f"the message {got[1]!r} should say the iterator is not a trackable object", call=call)


@clause("mwms.communication-options")
def test_mwms_communication_options_accepted(backend):
    """CommunicationOptions(bytes_per_pack=0, timeout_seconds=None, implementation=AUTO) by default;
    implementation may be the enum or its name in any case."""
    opts = _single(backend)["options"]
    assert_equal(opts["default"], ["ok", [0, None, "AUTO"]], what="CommunicationOptions()")
    assert_equal(opts["positional"], ["ok", [1024, 5.0, "RING"]], what="CommunicationOptions(1024, 5.0, 'RING')")
    assert_equal(opts["lower-case"], ["ok", [0, None, "NCCL"]], what="CommunicationOptions(implementation='nccl')")
    assert_equal(opts["enum"], ["ok", [0, None, "RING"]],
                 what="CommunicationOptions(implementation=CommunicationImplementation.RING)")


@clause("mwms.communication-options")
@pytest.mark.parametrize("case, error, message", [
    ("negative-pack", "ValueError", "Argument `bytes_per_pack` must be >=0, Received -1."),
    ("string-pack", "TypeError", "'<' not supported between instances of 'str' and 'int'"),
    ("unknown-impl", "ValueError", "'MPI' is not a valid CommunicationImplementation"),
    ("int-impl", "ValueError", "Argument `implementation` must be instance of "
                               "`tf.distribute.experimental.CommunicationImplementation`."),
    ("none-impl", "ValueError", "Argument `implementation` must be instance of "
                                "`tf.distribute.experimental.CommunicationImplementation`."),
    ("strategy-string-options", "ValueError",
     "communication_options must be an instance of tf.distribute.experimental.CommunicationOptions"),
    ("strategy-string-resolver", "ValueError",
     "cluster_resolver must be an instance of tf.distribute.cluster_resolver.ClusterResolver"),
])
def test_mwms_communication_options_rejected(backend, case, error, message):
    """What TF 2.21 rejects, with its error class and message (TF checks bytes_per_pack with `<`,
    so a string fails as a TypeError; timeout_seconds is not checked at all)."""
    got = _single(backend)["options"][case]
    assert_equal(got, [error, message], what=f"[error class, message] for {case}")


@clause("mwms.bad-tf-config")
@pytest.mark.parametrize("case, message", [
    ("index-out-of-range", "The `task_id` 5 exceeds the maximum id of worker."),
    ("type-not-in-cluster", "`task_type` 'ps' not found in cluster_spec."),
    ("no-task", "When `cluster_spec` is given, you must also specify `task_type` and `task_id`."),
])
def test_mwms_tf_config_naming_no_task_of_the_cluster(backend, case, message):
    """A TF_CONFIG whose task is not in its own cluster (index 5 of 2 workers, a ps of a worker-only
    cluster) or that has a cluster but no task: MultiWorkerMirroredStrategy() raises ValueError at
    once, before it contacts any peer."""
    got = _single(backend)["bad_tf_config"][case]
    assert_equal(got, ["ValueError", message], what=f"[error class, message] of MultiWorkerMirroredStrategy() ({case})")


# -- Keras 3 models under a 2-worker MWMS --------------------------------------------------------
KERAS_PROGRAM = """
keras = tf.keras
X = np.arange(16, dtype="float32").reshape(8, 2) / 10.0
Y = np.ones((8, 1), dtype="float32")
with strategy.scope():
    model = keras.Sequential([keras.Input((2,)), keras.layers.Dense(
        1, kernel_initializer=keras.initializers.Constant(0.5), bias_initializer="zeros")])
    opt = keras.optimizers.SGD(0.1)
    model.compile(optimizer=opt, loss="mse")

def attempt(fn):
    try:
        return ["ok", fn()]
    except Exception as e:
        return [type(e).__name__, str(e)]

out = {"predict": attempt(lambda: [float(v) for v in np.ravel(model.predict(X, batch_size=4, verbose=0))])}
dist = strategy.experimental_distribute_dataset(tf.data.Dataset.from_tensor_slices((X, Y)).batch(4))

@tf.function
def train_step(xb, yb):
    def fn(xr, yr):
        with tf.GradientTape() as tape:
            per_example = tf.reduce_mean(tf.square(model(xr, training=True) - yr), axis=-1)
            loss = tf.nn.compute_average_loss(per_example, global_batch_size=4)
        grads = tape.gradient(loss, model.trainable_variables)
        opt.apply_gradients(zip(grads, model.trainable_variables))
        return loss
    return strategy.reduce("SUM", strategy.run(fn, args=(xb, yb)), axis=None)

def loop():
    losses = [float(train_step(xb, yb)) for xb, yb in dist]
    kernel, bias = model.layers[0].get_weights()
    return {"losses": losses, "kernel": [float(v) for v in kernel.ravel()], "bias": [float(v) for v in bias]}

out["custom_loop"] = attempt(loop)
out["fit"] = attempt(lambda: {k: [float(x) for x in v] for k, v in
                              model.fit(X, Y, batch_size=4, epochs=1, shuffle=False, verbose=0).history.items()})
out["evaluate"] = attempt(lambda: float(model.evaluate(X, Y, batch_size=4, verbose=0)))
out["train_on_batch"] = attempt(lambda: float(model.train_on_batch(X[:4], Y[:4])))
out["test_on_batch"] = attempt(lambda: float(model.test_on_batch(X[:4], Y[:4])))
result = out
"""

KERAS_X = [[(2 * i) / 10.0, (2 * i + 1) / 10.0] for i in range(8)]


def _keras(backend: Any) -> list[dict]:
    return _run(backend, "keras", KERAS_PROGRAM, 2)


def _reference_custom_loop() -> dict:
    """Two SGD(0.1) steps of Dense(1) (kernel 0.5, bias 0) on MSE, global batches of 4 rows:
    the all-reduced sum of compute_average_loss gradients is the full batch's mean gradient."""
    w, b = [0.5, 0.5], 0.0
    losses = []
    for step in range(2):
        rows = KERAS_X[4 * step: 4 * step + 4]
        err = [r[0] * w[0] + r[1] * w[1] + b - 1.0 for r in rows]
        losses.append(sum(e * e for e in err) / 4)
        gw = [sum(2 * e * r[j] for e, r in zip(err, rows)) / 4 for j in range(2)]
        gb = sum(2 * e for e in err) / 4
        w = [w[j] - 0.1 * gw[j] for j in range(2)]
        b -= 0.1 * gb
    return {"losses": losses, "kernel": w, "bias": [b]}


@clause("mwms.keras")
def test_mwms_keras_predict_and_custom_loop_work(backend):
    """predict gives every worker the predictions of all rows, in order; a custom training loop
    (strategy.run of a GradientTape step with a Keras model and optimizer, compute_average_loss
    over the global batch) trains the same weights on every worker."""
    tol = Tolerance(rtol=1e-5, atol=1e-6)  # float32 steps against this float64 reference
    ref = _reference_custom_loop()
    for i, out in enumerate(_keras(backend)):
        call = f"Keras Dense(1) under MWMS(2 workers), worker {i}"
        assert_equal(out["predict"][0], "ok", what="predict outcome", call=call + f": {out['predict']}")
        assert_close(out["predict"][1], [0.5 * (r[0] + r[1]) for r in KERAS_X], what="predict", call=call,
                     tolerance=tol)
        assert_equal(out["custom_loop"][0], "ok", what="custom loop outcome", call=call + f": {out['custom_loop']}")
        for key in ("losses", "kernel", "bias"):
            assert_close(out["custom_loop"][1][key], ref[key], what=f"custom loop {key}", call=call, tolerance=tol)


@clause("mwms.keras", ref="tf221")
@pytest.mark.parametrize("method, message", [
    ("fit", r"Attempt to convert a value \(PerReplica"),
    ("evaluate", r"Attempt to convert a value \(PerReplica"),
    ("train_on_batch", r"Invalid reduction dimension 0 for input with 0 dimensions"),
    ("test_on_batch", r"Invalid reduction dimension 0 for input with 0 dimensions"),
])
def test_mwms_keras_training_methods_raise(backend, method, message):
    """TF 2.21 + Keras 3.15 (keras-team/keras#20585): under a multi-worker MWMS, fit and evaluate
    raise ValueError converting the distributed batch (a PerReplica) to a tensor, and
    train_on_batch / test_on_batch raise ValueError reducing the scalar loss with axis=0."""
    for i, out in enumerate(_keras(backend)):
        got = out[method]
        call = f"model.{method}(...) under MWMS(2 workers), worker {i}"
        assert_equal(got[0], "ValueError", what="error class", call=call + f": {got}")
        assert_true(re.search(message, got[1]) is not None,
                    f"message {got[1][:300]!r} does not match {message!r}", call=call)


@clause("mwms.keras", ref="doc")
def test_mwms_documented_keras_fit_trains(backend):
    """The TF tutorial "Multi-worker training with Keras": model.fit under MWMS trains (one loss
    per epoch in the history)."""
    for i, out in enumerate(_keras(backend)):
        got = out["fit"]
        call = f"model.fit(X, Y, batch_size=4, epochs=1) under MWMS(2 workers), worker {i}"
        assert_equal(got[0], "ok", what="fit outcome", call=call + f": {str(got)[:300]}")
        assert_equal(len(got[1]["loss"]), 1, what="len(history['loss'])", call=call)


# -- input across workers: auto-sharding and distribute_datasets_from_function --------------------
INPUT_PROGRAM = """
def local(dist):
    return [[int(x) for v in strategy.experimental_local_results(b) for x in np.ravel(backend.to_numpy(v))]
            for b in dist]

def source(kind):
    if kind == "range":
        return tf.data.Dataset.range(16).batch(4)
    return tf.data.Dataset.from_tensor_slices(np.arange(16)).batch(4)

def with_policy(ds, policy):
    options = tf.data.Options()
    options.experimental_distribute.auto_shard_policy = getattr(tf.data.experimental.AutoShardPolicy, policy)
    return ds.with_options(options)

out = {}
for policy in ("AUTO", "DATA", "OFF"):
    for kind in ("range", "slices"):
        out[kind + "-" + policy] = local(strategy.experimental_distribute_dataset(with_policy(source(kind), policy)))
# global batches the 2 replicas do not divide (7 and 5 elements)
for n, g in ((14, 7), (10, 5)):
    for policy in ("DATA", "OFF"):
        ds = with_policy(tf.data.Dataset.range(n).batch(g), policy)
        out[f"uneven-{n}-{g}-{policy}"] = local(strategy.experimental_distribute_dataset(ds))

contexts = []
def dataset_fn(ctx):
    contexts.append([ctx.num_input_pipelines, ctx.input_pipeline_id, ctx.num_replicas_in_sync,
                     ctx.get_per_replica_batch_size(4)])
    return tf.data.Dataset.range(8).shard(ctx.num_input_pipelines, ctx.input_pipeline_id).batch(
        ctx.get_per_replica_batch_size(4))
out["fn-steps"] = local(strategy.distribute_datasets_from_function(dataset_fn))
out["fn-contexts"] = contexts

# Last: it fails (on every worker alike), which may leave the workers' collectives unusable.
try:
    out["range-FILE"] = ["ok", local(strategy.experimental_distribute_dataset(with_policy(source("range"), "FILE")))]
except Exception as e:
    out["range-FILE"] = [type(e).__name__, str(e)[:300]]
result = out
"""


def _input(backend: Any) -> list[dict]:
    return _run(backend, "input", INPUT_PROGRAM, 2)


def _rebatched(n: int, global_batch: int, replicas: int) -> list[list[int]]:
    """range(n).batch(global_batch) rebatched to per-replica batches (TF's rebatch of an even
    global batch: global_batch / replicas elements each)."""
    per = global_batch // replicas
    return [list(range(i, min(i + per, n))) for i in range(0, n, per)]


@clause("mwms.autoshard")
@pytest.mark.parametrize("kind", ["range", "slices"])
@pytest.mark.parametrize("policy", ["AUTO", "DATA", "OFF"])
def test_mwms_workers_get_their_share_of_each_global_batch(backend, policy, kind):
    """2 workers, one replica each, global batch 4 of 16 elements: the batches are rebatched to
    per-replica batches of 2; DATA (and AUTO, as the source has no files) gives worker i every
    second one starting at i, so each step's global batch is split between the workers; OFF gives
    every worker every per-replica batch."""
    out = _input(backend)
    pieces = _rebatched(16, 4, 2)
    for i, got in enumerate(out):
        expected = pieces if policy == "OFF" else pieces[i::2]
        assert_equal(got[f"{kind}-{policy}"], expected, what=f"worker {i}'s steps",
                     call=f"experimental_distribute_dataset({kind}(16).batch(4)), {policy}, MWMS(2 workers)")


def _split(n: int, global_batch: int, sizes: list[int]) -> list[list[int]]:
    """range(n).batch(global_batch), each global batch cut into consecutive pieces of `sizes`."""
    pieces = []
    for start in range(0, n, global_batch):
        at = start
        for size in sizes:
            pieces.append(list(range(at, min(at + size, start + global_batch, n))))
            at += size
    return [p for p in pieces if p]


@clause("mwms.autoshard", ref="tf221")
@pytest.mark.parametrize("n, global_batch", [(14, 7), (10, 5)])
@pytest.mark.parametrize("policy", ["DATA", "OFF"])
def test_mwms_uneven_global_batch_rotates_per_worker(backend, policy, n, global_batch):
    """2 workers, one replica each, a global batch the replicas do not divide (7 or 5): worker 0
    cuts each global batch into [ceil, floor] per-replica pieces, worker 1 into the list rotated
    by its replicas ([floor, ceil]), so that each global step takes G elements. DATA gives worker
    i the i-th piece of worker 0's cut (range(14).batch(7): worker 0 [0..3], [7..10], worker 1
    [4,5,6], [11,12,13]); OFF gives every worker every piece of its own cut (worker 1 [0,1,2],
    [3..6], ...). Observed on TF 2.21 with two worker processes (docs/tools/mwms_facts/rebatch.py)."""
    out = _input(backend)
    floor, extra = divmod(global_batch, 2)
    worker_0 = [floor + 1] * extra + [floor] * (2 - extra)
    for i, got in enumerate(out):
        mine = worker_0[i:] + worker_0[:i]
        expected = _split(n, global_batch, mine) if policy == "OFF" else _split(n, global_batch, worker_0)[i::2]
        assert_equal(got[f"uneven-{n}-{global_batch}-{policy}"], expected, what=f"worker {i}'s steps",
                     call=f"experimental_distribute_dataset(range({n}).batch({global_batch})), {policy}, "
                          "MWMS(2 workers)")


@clause("mwms.autoshard", ref="tf221")
def test_mwms_file_policy_without_files_fails(backend):
    """FILE on a source that reads no files: TF 2.21 raises NotFoundError ("Found an unshardable
    source dataset") when the distributed dataset is iterated, on every worker."""
    for i, got in enumerate(_input(backend)):
        call = f"experimental_distribute_dataset(range(16).batch(4)) with FILE, worker {i}"
        assert_equal(got["range-FILE"][0], "NotFoundError", what="outcome", call=call + f": {got['range-FILE']}")
        assert_true("Found an unshardable source dataset" in got["range-FILE"][1],
                    f"message {got['range-FILE'][1][:200]!r} should say 'Found an unshardable source dataset'",
                    call=call)


@clause("mwms.dataset-fn")
def test_mwms_dataset_fn_input_context_per_worker(backend):
    """distribute_datasets_from_function calls the function once on each worker, with
    num_input_pipelines 2, input_pipeline_id = the worker's index, num_replicas_in_sync 2 and
    get_per_replica_batch_size(4) = 2; each worker iterates what its function returned."""
    for i, got in enumerate(_input(backend)):
        call = f"distribute_datasets_from_function(fn), MWMS(2 workers), worker {i}"
        assert_equal(got["fn-contexts"], [[2, i, 2, 2]],
                     what="[num_input_pipelines, input_pipeline_id, num_replicas_in_sync, "
                          "get_per_replica_batch_size(4)] per call", call=call)
        mine = list(range(8))[i::2]
        assert_equal(got["fn-steps"], [mine[j:j + 2] for j in range(0, len(mine), 2)], what="steps", call=call)


@clause("mwms.keras", ref="tf221")
def test_mwms_keras_fit_works_with_one_worker(backend):
    """With a single worker (here: no TF_CONFIG) Keras's multi-worker path is not taken and fit
    trains: its loss is the mean of the two batches' losses, as in the custom loop above."""
    ref = _reference_custom_loop()
    got = _single(backend)["one_worker_fit"]
    call = "model.fit(X, Y, batch_size=4, epochs=1, shuffle=False) under MultiWorkerMirroredStrategy() without TF_CONFIG"
    assert_equal(got[0], "ok", what="fit outcome", call=call + f": {got}")
    tol = Tolerance(rtol=1e-5, atol=1e-6)
    assert_close(got[1], [sum(ref["losses"]) / 2], what="history['loss']", call=call, tolerance=tol)
    assert_close(got[2], ref["kernel"], what="kernel after fit", call=call, tolerance=tol)


# -- timeout_seconds: a peer that never joins the collective -------------------------------------
TIMEOUT_PROGRAM = """
import json, os, time
idx = json.loads(os.environ["TF_CONFIG"])["task"]["index"]
opts = tf.distribute.experimental.CommunicationOptions(timeout_seconds=0.5)
strategy = tf.distribute.MultiWorkerMirroredStrategy(communication_options=opts)

@tf.function
def step():
    return strategy.run(lambda: tf.distribute.get_replica_context().all_reduce("SUM", tf.constant(1.0)))

def outcome():
    try:
        return ["ok", float(step())]
    except Exception as e:  # the observation
        lines = [ln.strip() for ln in str(e).splitlines()]
        return [type(e).__name__, [ln for ln in lines if ln.startswith("Collective")]]

if idx == 0:
    result = {"first": outcome(), "second": outcome()}
else:
    time.sleep(3)    # alive and silent past worker 0's timeout (no heartbeat failure), then done
    result = {}
"""


@clause("mwms.collective-timeout", ref="tf221")
def test_mwms_collective_times_out_and_stays_aborted(backend):
    """CommunicationOptions(timeout_seconds=0.5), worker 1 never joins worker 0's all-reduce (their
    first collective: the group is still being resolved): worker 0's collective fails with
    DeadlineExceededError "Collective has timed out waiting for other workers." (before the
    coordination service's 10 s heartbeat could report anything), and the next collective fails
    at once with the executor's abort by that error."""
    got = _run(backend, "timeout", TIMEOUT_PROGRAM, 2, make_strategy=False)[0]
    call = "worker 0's all_reduce, timeout_seconds=0.5, worker 1 never joins"
    assert_equal(got["first"][0], "DeadlineExceededError", what=f"first outcome ({got['first']})", call=call)
    assert_equal(got["first"][1], ["Collective has timed out waiting for other workers."], what="message lines",
                 call=call)
    assert_equal(got["second"][0], "DeadlineExceededError", what=f"next outcome ({got['second']})", call=call)
    want = "Collective ops is aborted by: Collective has timed out waiting for other workers."
    assert_true(any(ln.startswith(want) for ln in got["second"][1]),
                f"the next collective's message {got['second'][1]!r} should start {want!r}", call=call)


# -- each client's process-wide Keras state --------------------------------------------------------
STATE_PROGRAM = """
import json, os, random
idx = json.loads(os.environ["TF_CONFIG"])["task"]["index"]
keras = tf.keras
if idx == 0:
    keras.mixed_precision.set_global_policy("mixed_float16")
keras.utils.set_random_seed(10 + idx)
draws = [random.random(), float(np.random.rand())]
strategy.reduce("SUM", tf.constant(1.0), axis=None)     # the other client runs in between
names = [keras.layers.Dense(2).name for _ in range(idx + 1)]
strategy.reduce("SUM", tf.constant(1.0), axis=None)
last = keras.layers.Dense(1)
result = {"draws": draws, "names": names + [last.name], "compute_dtype": last.compute_dtype,
          "policy": keras.mixed_precision.global_policy().name}
"""


@clause("mwms.process-state", ref="tf221")
def test_mwms_each_client_has_its_own_keras_state(backend):
    """Each worker is its own process: worker 0's global policy and names do not reach worker 1;
    keras.utils.set_random_seed seeds each worker's own Python and NumPy generators."""
    import random

    import numpy as np
    out = _run(backend, "process-state", STATE_PROGRAM, 2)
    for i, got in enumerate(out):
        call = f"worker {i} of 2 (worker 0 sets the mixed_float16 policy; each seeds 10 + its index)"
        want_draws = [random.Random(10 + i).random(), float(np.random.RandomState(10 + i).rand())]
        assert_equal(got["draws"], want_draws, what="[random.random(), np.random.rand()] after set_random_seed",
                     call=call)
        assert_equal(got["names"], ["dense", "dense_1", "dense_2"][:i + 2], what="layer names", call=call)
        policy = "mixed_float16" if i == 0 else "float32"
        assert_equal(got["policy"], policy, what="global_policy().name", call=call)
        assert_equal(got["compute_dtype"], "float16" if i == 0 else "float32", what="Dense.compute_dtype", call=call)
