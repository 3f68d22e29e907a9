"""A differential generator of the tf.distribute API surface (fz51d): the Strategy API as a person's program uses it,
with simple ops inside. Each program draws a strategy (OneDeviceStrategy, MirroredStrategy on 1 and 2 CPUs, explicit
devices, cross_device_ops variants, CentralStorageStrategy, single-worker MultiWorkerMirroredStrategy, the default
strategy), then a sequence of API calls:

- `strategy.run` with args and kwargs of nested structures (tuples, dicts, namedtuples, None leaves, Python scalars,
  NumPy arrays, tensors of the common dtypes, PerReplica values of an earlier run), results of every structure;
- `reduce` (SUM/MEAN, axis None/0/1/-1/out of range, int and float, empty tensors, scalars, ragged per-replica
  shapes), `gather` (every axis, negative, ragged first dims), `experimental_local_results`,
  `experimental_distribute_values_from_function`;
- `experimental_distribute_dataset` (batch sizes not divisible by the replica count, drop_remainder, AutoShardPolicy
  options; `for`, `iter`/`next`, `get_next_as_optional`, `element_spec`) and `distribute_datasets_from_function`
  (InputContext: get_per_replica_batch_size, input_pipeline_id, num_replicas_in_sync);
- in run: the replica context (replica_id_in_sync_group, num_replicas_in_sync, all_reduce SUM/MEAN of nests and
  IndexedSlices, all_gather, merge_call with extended.update / reduce_to / batch_reduce_to), variables created in
  strategy.scope() with every synchronization/aggregation pair (assign/assign_add/assign_sub in replica context,
  read in cross-replica context, read_value, values, experimental_local_results), get_strategy / has_strategy /
  in_cross_replica_context, GradientTape, run inside and outside a tf.function;
- error paths (a strategy call in the wrong context, a variable made outside the scope, MEAN of integers, a bad
  axis, mismatched structures): the error class (the message is shown, not compared);
- from seed 51208 on, b_function: reduce / gather / all_reduce of integers / a `for` over a distributed dataset /
  get_next_as_optional inside a tf.function, extended.update and reduce_to in cross-replica context, a reduce of a
  distributed variable, InputOptions(experimental_fetch_to_device).

- from seed 52208 on, b_ps: about a third of the programs are ParameterServerStrategy + ClusterCoordinator programs
  on a small cluster (1-2 workers, 1-2 ps; TF's in-process gRPC servers, one fresh TF process per program): variables
  under the scope with and without a variable_partitioner (FixedShards / MinSize / MaxSize; ShardedVariable's
  `variables`, assign*, read_value, numpy, embedding_lookup, Checkpoint save/restore), `schedule` of tf.functions
  with args, RemoteValue `fetch`/`get`, `join`, `done`, `fetch` of nests, `create_per_worker_dataset` + per-worker
  iterators (one worker: the closures run in order), a closure raising (its error class at join/fetch),
  `strategy.run` + reduce inside a scheduled function, the chief's reads after join, error paths (scheduling a
  plain function, a variable made outside the scope). Values do not depend on which worker ran a closure.

- from seed 53208 on, b_ckpt: about half the programs are the restart-from-checkpoint story across strategies:
  variables of every synchronization/aggregation (and a small Keras model whose optimizer has taken a step: slot
  variables) made under one strategy (default, OneDevice, Mirrored 1/2, CentralStorage, single-worker MWMS; a quarter
  of them ParameterServerStrategy with or without a partitioner), saved with Checkpoint.save / write / a
  CheckpointManager (max_to_keep, checkpoint_interval, step_counter, checkpoint_number), restored under another
  strategy or none, after the variables exist or before (deferred restoration by attribute), the status's
  assert_consumed / assert_existing_objects_matched / expect_partial, list_variables / load_variable keys and shapes,
  latest_checkpoint, reads per replica, one more training step, a restore into a variable of another shape (or
  another partitioning).

- from seed 54208 on, b_ctl: about 60% of the programs are the custom training loop of the tf.distribute guides under
  default, OneDevice, Mirrored (1, 2, 3 CPUs), CentralStorage or single-worker MWMS: a small Keras model (Dense or
  Conv2D, relu/softmax/logits, an L2 kernel regularizer) and optimizer (SGD, momentum, Adam, RMSprop; built before
  the step) made in strategy.scope(), weights set deterministically; experimental_distribute_dataset of a global
  batch that may leave a partial final batch (drop_remainder, auto-shard policies, InputOptions: fetch_to_device,
  replication mode, per-replica buffer size) or distribute_datasets_from_function with InputContext sharding and
  get_per_replica_batch_size; experimental_distribute_values_from_function (a per-replica loss scale); a train step
  under tf.function with strategy.run, tf.nn.compute_average_loss (global_batch_size, sample_weight) and
  tf.nn.scale_regularization_loss, apply_gradients in the replica context, Keras metrics updated per replica;
  strategy.reduce SUM/MEAN of the losses; `for`, iter/next, get_next_as_optional or a tf.range loop inside one
  tf.function; the variables' per-replica copies, the optimizer's iterations and the metrics after. The worker
  uses four logical CPUs from this seed on and resets simdist per program (TF resets its context).

Campaign of the fifty-fourth session (fz54d): b_ctl seed 54208 (12 programs, 7 CTL) 3 disagreeing before the fixes
(a MEAN's last bit, HierarchicalCopy's packed dtypes, CentralStorage's InputOptions), then 1 (the ring order of the
traced gradient all-reduce), 0 after; 54209 (after those) 3 and 54210 4 (one-ulp classes: Conv2D's forward, a
reduce's AddN that Grappler's AddOpsRewrite regroups with the replicas' `loss + reg` adds, both open); old draws
54201 2 of 12, both the documented ShardedVariable re-partitioning deviation (pss.checkpoint-partitions). See
tests/strategies/test_fz54d_dist_tf.py.

The TF worker runs each program in a fresh eager context (TF's collective instance keys restart with each strategy
and collide across programs in one process: InternalError "Collective instance ... expected type").

Campaign of the fifty-first session: seeds 51201-51205 (120 programs, 1,151 calls) 20 disagreeing programs before
its fixes, 3 after; seeds 51206-51207 (50 programs, after the fixes) 1; every one left is the open _UnreadVariable
class (docs/spec.md run.per-replica).

Campaign of the fifty-second session (fz52d): seed 52201 (15 programs, old draws) 0 disagreeing after the
_UnreadVariable fix (1 program is a TF crash: SIGSEGV in MirroredStrategy(2).gather of an empty [0, 3] int64
PerReplica along axis 1, /work/wt/dist52_logs/repro_tf_crash_52201_12.py); b_ps seeds 52208-52212 (64 programs, 23
of them PS): 52208 4 of 12 and 52209 2 of 12 disagreeing before their fixes (CachingVariable, RemoteValueImpl,
PerWorkerDatasetFromDatasetFunction / PerWorkerDistributedIterator, CheckpointLoadStatus; ShardedVariable's
attributes and scatter_*), 0 after; 52210, 52211 0 (tests/strategies/test_fz52d_dist_tf.py).

Campaign of the fifty-third session (fz53d): old draws 52202-52207 and 53201 (84 programs): 52203 2 of 12 disagreeing
(integer IndexedSlices MEAN, CentralStorage's aggregated update result), 0 after the fixes; 52205 #8 a TF crash
(SIGSEGV in MirroredStrategy(2).gather of an empty [0, 3] PerReplica, /work/wt/dist53_logs/repro_tf_crash_52205_8.py);
the others 0. b_ckpt seeds 53208-53210 (36 programs, 19 checkpoint ones): 53208 3 of 10 before the fixes (a
ShardedVariable missing from list_variables, deferred restoration by attribute), 2 of 12 after: both a
ShardedVariable restored into another layout (other shards, or a plain variable), which TF 2.21 re-shards and
simdist refuses by the project's documented rule (clause pss.checkpoint-partitions); 53210 2 of its checkpoint
programs before (save_counter unmatched after restoring a written checkpoint; Keras 3's slots made in a Mirrored(2)
step, the suite's known deviation: the programs now build the optimizer first), 0 of 12 after; 53209 0 of 12;
53211 (after the fixes) 1 of 12: TF's collective executor, once a gather in a tf.function failed on ragged shapes,
fails the next eager gather of the group too ("The error could be from a previous operation. Restart your program to
reset."), which simdist does not model (/work/wt/dist53_logs/p_gather_53211.py); 53212 0 of 12.
See tests/strategies/test_fz53d_dist_tf.py.

Every statement's outcome (values, shapes, dtypes, the DistributedValues class and its components, or the error
class) is recorded on TF 2.21 and on simdist in two subprocesses (fz45_gen's run_backend) and compared.

    python tests/fuzz51d/fz51d_gen.py SEED N [--show 40] [--print]

Not a test: a campaign probe. Deterministic: the programs come from random.Random(SEED * 100003 + k).
"""
from __future__ import annotations

import argparse
import os
import pickle
import random
import sys
from typing import Any

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(HERE), "fuzz45"))

import fz45_gen as G  # noqa: E402 - the harness: run_backend, _same

STRATEGIES = [
    ('tf.distribute.MirroredStrategy(["/cpu:0", "/cpu:1"])', 2, 6),
    ('tf.distribute.MirroredStrategy(["/cpu:0"])', 1, 1),
    ("tf.distribute.MirroredStrategy()", 1, 1),
    ('tf.distribute.MirroredStrategy(["/cpu:0", "/cpu:1"], '
     "cross_device_ops=tf.distribute.ReductionToOneDevice())", 2, 2),
    ('tf.distribute.MirroredStrategy(devices=["/cpu:1", "/cpu:0"], '
     'cross_device_ops=tf.distribute.ReductionToOneDevice(reduce_to_device="/cpu:0"))', 2, 1),
    ('tf.distribute.MirroredStrategy(["/cpu:0", "/cpu:1"], '
     "cross_device_ops=tf.distribute.HierarchicalCopyAllReduce(num_packs=1))", 2, 1),
    ('tf.distribute.OneDeviceStrategy("/cpu:0")', 1, 2),
    ('tf.distribute.OneDeviceStrategy("/cpu:1")', 1, 1),
    ('tf.distribute.experimental.CentralStorageStrategy(["/cpu:0", "/cpu:1"])', 2, 2),
    ("tf.distribute.experimental.CentralStorageStrategy()", 1, 1),
    ("tf.distribute.MultiWorkerMirroredStrategy()", 1, 2),
    ("tf.distribute.get_strategy()", 1, 2),
]

PRELUDE = '''
Pt = collections.namedtuple("Pt", ["a", "b"])

def leaf(t, rid):
    if t is None:
        return None
    t = tf.convert_to_tensor(t)
    if t.dtype == tf.bool:
        return tf.logical_xor(t, tf.equal(rid % 2, 1))
    if t.dtype == tf.string:
        return t
    return t * tf.cast(rid + 1, t.dtype) + tf.cast(rid, t.dtype)

def rid_now():
    return tf.distribute.get_replica_context().replica_id_in_sync_group
'''

DTS = ["float32", "float32", "float64", "int32", "int64", "float16", "bool"]


class P:
    """A program being drawn: statements, the per-replica leaves and variables bound so far."""

    def __init__(self, rng: random.Random, nrep: int) -> None:
        self.rng, self.nrep = rng, nrep
        self.lines: list[tuple[str, list[str]]] = []
        self.leaves: list[tuple[str, str, tuple, bool]] = []   # (expr, dtype, shape, same shape on every replica)
        self.vars: list[tuple[str, str, str, str]] = []          # (name, dtype, synchronization, aggregation)
        self.k = 0

    def name(self, stem: str) -> str:
        self.k += 1
        return f"{stem}{self.k}"

    def emit(self, st: str, names: list[str]) -> None:
        self.lines.append((st, names))

    # literals
    def lit(self, dt: str, shape: tuple) -> str:
        r = self.rng
        n = 1
        for d in shape:
            n *= d
        if dt == "bool":
            vals = [r.choice(["True", "False"]) for _ in range(n)]
        elif dt.startswith("int"):
            vals = [str(r.randint(-4, 9)) for _ in range(n)]
        else:
            vals = [r.choice(["0.5", "-1.25", "2.0", "0.1", "3.0", "-0.0", "1.5", "0.25", "-2.5", "7.0"])
                    for _ in range(n)]
        def nest(v: list, sh: tuple) -> str:
            if not sh:
                return v[0]
            step = len(v) // sh[0] if sh[0] else 0
            return "[" + ", ".join(nest(v[i * step:(i + 1) * step], sh[1:]) for i in range(sh[0])) + "]"
        body = nest(vals, shape) if shape else vals[0]
        if shape and 0 in shape:
            return f"tf.zeros({list(shape)}, tf.{dt})"
        return f"tf.constant({body}, tf.{dt})"

    def shape(self, max_rank: int = 3) -> tuple:
        r = self.rng
        rank = r.choice([0, 1, 1, 2, 2, 3][: max_rank * 2])
        return tuple(r.choice([1, 2, 3, 4, 0] if r.random() < 0.08 else [1, 2, 3, 4]) for _ in range(rank))

    def leaf_value(self) -> tuple[str, str, tuple]:
        """A leaf of an args structure: its text, dtype (the tensor it becomes) and shape."""
        r = self.rng
        u = r.random()
        if u < 0.12:
            return "None", "none", ()
        if u < 0.22:
            v = r.choice(["3", "-2", "1.5", "0.25", "True"])
            return v, {"3": "int32", "-2": "int32", "True": "bool"}.get(v, "float32"), ()
        sh = self.shape()
        if u < 0.35:
            dt = r.choice(["float32", "float64", "int64", "int32"])
            arr = self.lit("float32" if dt.startswith("float") else "int32", sh)
            return f"np.asarray({arr}.numpy(), np.{dt})", dt, sh
        if u < 0.42 and self.leaves:
            e, dt, sh2, same = r.choice(self.leaves)
            if same:
                return e, dt, sh2
        dt = r.choice(DTS)
        return self.lit(dt, sh), dt, sh

    def struct(self, depth: int = 0) -> tuple[str, Any]:
        """A nested structure: its text and a skeleton (a leaf is (dtype, shape))."""
        r = self.rng
        u = r.random()
        if depth >= 2 or u < 0.35:
            t, dt, sh = self.leaf_value()
            return t, (dt, sh)
        if u < 0.6:
            n = r.randint(1, 3)
            parts = [self.struct(depth + 1) for _ in range(n)]
            return "(" + ", ".join(p for p, _ in parts) + ("," if n == 1 else "") + ")", tuple(s for _, s in parts)
        if u < 0.8:
            keys = r.sample(["w", "b", "x", "lbl"], r.randint(1, 3))
            parts = [self.struct(depth + 1) for _ in keys]
            return ("{" + ", ".join(f'"{k}": {p}' for k, (p, _) in zip(keys, parts)) + "}",
                    {k: s for k, (_, s) in zip(keys, parts)})
        a, sa = self.struct(depth + 1)
        b, sb = self.struct(depth + 1)
        return f"Pt({a}, {b})", ("Pt", sa, sb)


def _paths(skel: Any, pre: str) -> list[tuple[str, str, tuple]]:
    """The tensor leaves of a structure's skeleton: (access expression, dtype, shape)."""
    if isinstance(skel, dict):
        return [x for k in skel for x in _paths(skel[k], f'{pre}["{k}"]')]
    if isinstance(skel, tuple) and skel and skel[0] == "Pt":
        return _paths(skel[1], pre + ".a") + _paths(skel[2], pre + ".b")
    if isinstance(skel, tuple) and len(skel) == 2 and isinstance(skel[0], str):
        dt, sh = skel
        return [] if dt == "none" else [(pre, dt, sh)]
    return [x for i, s in enumerate(skel) for x in _paths(s, f"{pre}[{i}]")]


# --- builders: each appends statements
def b_run(p: P) -> None:
    """strategy.run of a leaf-wise function on a nested structure, args and kwargs."""
    r = p.rng
    x, sx = p.struct()
    kw = r.random() < 0.5
    y, sy = p.struct(1) if kw else ("None", None)
    f, out = p.name("fn"), p.name("r")
    ret = r.choice(["x", "x", "(x, y)", "{'x': x, 'y': y}", "Pt(x, y)", "[x]"])
    if not kw and ret != "x" and ret != "[x]":
        ret = "x"
    skel = {"x": sx, "(x, y)": (sx, sy), "{'x': x, 'y': y}": {"x": sx, "y": sy}, "Pt(x, y)": ("Pt", sx, sy),
            "[x]": (sx,)}[ret]
    intf = r.random() < 0.25
    st = (f"def {f}(x, y=None):\n    rid = rid_now()\n    x = tf.nest.map_structure(lambda t: leaf(t, rid), x)\n"
          f"    y = tf.nest.map_structure(lambda t: leaf(t, rid), y)\n    return {ret}\n")
    call = f"strategy.run({f}, args=({x},)" + (f", kwargs={{'y': {y}}})" if kw else ")")
    if intf:
        st += f"@tf.function\ndef {f}_tf():\n    return {call}\n{out} = {f}_tf()"
    else:
        st += f"{out} = {call}"
    p.emit(st, [out])
    for path, dt, sh in _paths(skel if ret != "[x]" else [sx], out):
        p.leaves.append((path, dt, sh, True))


def b_run_shapes(p: P) -> None:
    """A run whose per-replica results differ in their first dim (ragged), or are scalars / empty."""
    r = p.rng
    out = p.name("g")
    dt = r.choice(["float32", "int32", "int64", "float64"])
    kind = r.choice(["ragged", "ragged2", "scalar", "empty", "pyint"])
    expr = {"ragged": f"tf.cast(tf.range(rid + 2), tf.{dt})",
            "ragged2": f"tf.cast(tf.reshape(tf.range(2 * (rid + 1)), [rid + 1, 2]), tf.{dt})",
            "scalar": f"tf.cast(rid * 3 + 1, tf.{dt})",
            "empty": f"tf.zeros([0, 3], tf.{dt})",
            "pyint": "7"}[kind]
    p.emit(f"def {out}_fn():\n    rid = rid_now()\n    return {expr}\n{out} = strategy.run({out}_fn)", [out])
    same = kind in ("scalar", "empty", "pyint") or p.nrep == 1
    sh = {"ragged": (2,), "ragged2": (1, 2), "scalar": (), "empty": (0, 3), "pyint": ()}[kind]
    p.leaves.append((out, "int32" if kind == "pyint" else dt, sh, same))


def _leaf(p: P) -> tuple[str, str, tuple, bool]:
    if not p.leaves or p.rng.random() < 0.1:
        b_run_shapes(p)
    return p.rng.choice(p.leaves)


def b_reduce(p: P) -> None:
    r = p.rng
    e, dt, sh, _ = _leaf(p)
    op = r.choice(['"SUM"', '"MEAN"', "tf.distribute.ReduceOp.SUM", "tf.distribute.ReduceOp.MEAN"])
    ax = r.choice(["None", "None", "0", "0", "1", "-1", str(len(sh))])
    out = p.name("red")
    p.emit(f"{out} = strategy.reduce({op}, {e}, axis={ax})", [out])


SM = ['"SUM"', '"MEAN"']


def b_reduce_nest(p: P) -> None:
    """reduce of a whole structure (a run's result), and of a plain tensor."""
    r = p.rng
    runs = sorted({e.split("[")[0].split(".")[0] for e, _, _, _ in p.leaves})
    out = p.name("red")
    if runs and r.random() < 0.5:
        p.emit(f"{out} = strategy.reduce({r.choice(SM)}, {r.choice(runs)}, axis=None)", [out])
    else:
        p.emit(f"{out} = strategy.reduce({r.choice(SM)}, {p.lit('float32', (2,))}, "
               f"axis={r.choice(['None', '0'])})", [out])


def b_gather(p: P) -> None:
    r = p.rng
    e, dt, sh, _ = _leaf(p)
    ax = r.choice(list(range(len(sh))) + [-1, 0, len(sh)]) if sh else r.choice([0, -1])
    out = p.name("ga")
    p.emit(f"{out} = strategy.gather({e}, axis={ax})", [out])


def b_local(p: P) -> None:
    r = p.rng
    out = p.name("lr")
    if p.vars and r.random() < 0.3:
        v = r.choice(p.vars)[0]
        p.emit(f"{out} = strategy.experimental_local_results({v})", [out])
        return
    e, _, _, _ = _leaf(p)
    p.emit(f"{out} = strategy.experimental_local_results({e})", [out])


def b_values_fn(p: P) -> None:
    r = p.rng
    out = p.name("dv")
    dt = r.choice(["float32", "int32", "int64", "float64"])
    kind = r.choice(["t", "v", "np"])
    if kind == "t":
        body = f"tf.fill([2], tf.cast(ctx.replica_id_in_sync_group + 10 * ctx.num_replicas_in_sync, tf.{dt}))"
    elif kind == "v":
        body = f"tf.constant([ctx.replica_id_in_sync_group, 1], tf.{dt})"
    else:
        body = f"np.asarray([ctx.replica_id_in_sync_group, 2], np.{dt})"
    p.emit(f"{out} = strategy.experimental_distribute_values_from_function(lambda ctx: {body})", [out])
    p.leaves.append((out, dt, (2,), True))
    if r.random() < 0.5:
        o2 = p.name("r")
        p.emit(f"{o2} = strategy.run(lambda a: a * 2 + tf.cast(rid_now(), a.dtype), args=({out},))", [o2])
        p.leaves.append((o2, dt, (2,), True))


def b_dataset(p: P) -> None:
    r = p.rng
    n = r.randint(0, 11)
    bs = r.randint(1, 5)
    drop = r.random() < 0.3
    ds, dd, out = p.name("ds"), p.name("dd"), p.name("it")
    comp = r.choice(["x", "(tf.cast(x, tf.float32), x * 2)", "{'f': tf.cast(x, tf.float32) / 4, 'l': x}"])
    st = f"{ds} = tf.data.Dataset.range({n}).map(lambda x: {comp}).batch({bs}, drop_remainder={drop})"
    pol = r.choice([None, None, "OFF", "DATA", "AUTO", "FILE"])
    if pol:
        st += (f"\n_o = tf.data.Options()\n_o.experimental_distribute.auto_shard_policy = "
               f"tf.data.experimental.AutoShardPolicy.{pol}\n{ds} = {ds}.with_options(_o)")
    st += f"\n{dd} = strategy.experimental_distribute_dataset({ds})"
    p.emit(st, [])
    _iterate(p, dd, out)


def _iterate(p: P, dd: str, out: str) -> None:
    r = p.rng
    how = r.choice(["for", "iter", "opt", "spec", "run"])
    if how == "for":
        p.emit(f"{out} = [strategy.experimental_local_results(e) for e in {dd}]", [out])
    elif how == "iter":
        p.emit(f"_it = iter({dd})\n{out} = next(_it)\n{out}b = next(_it)", [out, out + "b"])
    elif how == "opt":
        p.emit(f"_it = iter({dd})\n_a = _it.get_next_as_optional()\n{out} = _a.has_value()\n"
               f"{out}v = _a.get_value() if {out} else None\n_b = [_it.get_next_as_optional() for _ in range(3)]\n"
               f"{out}h = [o.has_value() for o in _b]", [out, out + "v", out + "h"])
    elif how == "spec":
        p.emit(f"{out} = {dd}.element_spec\n{out}i = iter({dd}).element_spec", [out, out + "i"])
    else:
        p.emit(f"def {out}_fn(e):\n    return tf.nest.map_structure(lambda t: tf.reduce_sum(tf.cast(t, tf.float32)), e)\n"
               f"{out} = [strategy.reduce('SUM', strategy.run({out}_fn, args=(e,)), axis=None) for e in {dd}]", [out])


def b_dataset_fn(p: P) -> None:
    r = p.rng
    gb = r.choice([1, 2, 3, 4, 6])
    n = r.randint(0, 10)
    dd, out, info = p.name("dd"), p.name("it"), p.name("ctx")
    p.emit(f"{info} = []\ndef {dd}_fn(ctx):\n"
           f"    {info}.append((ctx.num_replicas_in_sync, ctx.input_pipeline_id, ctx.num_input_pipelines))\n"
           f"    b = ctx.get_per_replica_batch_size({gb})\n"
           f"    return tf.data.Dataset.range({n}).map(lambda x: x + 100 * ctx.input_pipeline_id).batch(b)\n"
           f"{dd} = strategy.distribute_datasets_from_function({dd}_fn)", [info])
    _iterate(p, dd, out)


def b_replica_ctx(p: P) -> None:
    """all_reduce / all_gather / num_replicas_in_sync in the replica context."""
    r = p.rng
    out = p.name("rc")
    kind = r.choice(["allred", "allred", "nest", "slices", "allgather", "info"])
    op = r.choice(['"SUM"', '"MEAN"', "tf.distribute.ReduceOp.SUM", "tf.distribute.ReduceOp.MEAN"])
    dt = r.choice(["float32", "float64", "int32", "float16"])
    if kind == "allred":
        body = f"ctx.all_reduce({op}, tf.cast(tf.range(3) + rid, tf.{dt}))"
    elif kind == "nest":
        body = (f"ctx.all_reduce({op}, {{'a': tf.cast(rid, tf.{dt}), 'b': (tf.ones([2], tf.{dt}) * "
                f"tf.cast(rid + 1, tf.{dt}), tf.constant(1.0))}})")
    elif kind == "slices":
        body = (f"ctx.all_reduce({op}, tf.IndexedSlices(tf.ones([1, 2], tf.{dt}) * tf.cast(rid + 1, tf.{dt}), "
                f"tf.reshape(rid, [1]), tf.constant([3, 2])))")
    elif kind == "allgather":
        ax = r.choice([0, 1, -1])
        body = f"ctx.all_gather(tf.cast(tf.reshape(tf.range(4) + rid, [2, 2]), tf.{dt}), axis={ax})"
    else:
        body = ("(ctx.num_replicas_in_sync, rid, tf.distribute.in_cross_replica_context(), "
                "tf.distribute.has_strategy(), tf.distribute.get_strategy() is strategy)")
    p.emit(f"def {out}_fn():\n    ctx = tf.distribute.get_replica_context()\n    rid = ctx.replica_id_in_sync_group\n"
           f"    return {body}\n{out} = strategy.run({out}_fn)", [out])


SYNC = ["AUTO", "ON_WRITE", "ON_READ", "NONE"]
AGG = ["NONE", "SUM", "MEAN", "ONLY_FIRST_REPLICA"]


def b_variable(p: P) -> None:
    r = p.rng
    v = p.name("v")
    s, a = r.choice(SYNC), r.choice(AGG)
    dt = r.choice(["float32", "float32", "float64", "int32"])
    init = p.lit(dt, r.choice([(), (2,), (2, 2)]))
    where = r.random() < 0.9
    st = (f"with strategy.scope():\n    {v} = tf.Variable({init}, synchronization=tf.VariableSynchronization.{s}, "
          f"aggregation=tf.VariableAggregation.{a})" if where else
          f"{v} = tf.Variable({init}, synchronization=tf.VariableSynchronization.{s}, "
          f"aggregation=tf.VariableAggregation.{a})")
    st += f"\n{v}_t = tf.convert_to_tensor({v})"
    p.emit(st, [v + "_t"])
    p.vars.append((v, dt, s, a))


def b_var_update(p: P) -> None:
    r = p.rng
    if not p.vars:
        b_variable(p)
    v, dt, s, a = r.choice(p.vars)
    out = p.name("u")
    meth = r.choice(["assign", "assign_add", "assign_sub"])
    ret = r.choice(["None", "w", "w.read_value()"])
    tfn = r.random() < 0.25
    st = (f"def {out}_fn():\n    rid = rid_now()\n    w = {v}.{meth}(tf.cast(rid + 1, {v}.dtype))\n"
          f"    return {ret}\n")
    if tfn:
        st += f"{out} = tf.function(lambda: strategy.run({out}_fn))()"
    else:
        st += f"{out} = strategy.run({out}_fn)"
    st += f"\n{out}_after = tf.convert_to_tensor({v})"
    p.emit(st, [out, out + "_after"])


def b_var_read(p: P) -> None:
    r = p.rng
    if not p.vars:
        b_variable(p)
    v, dt, s, a = r.choice(p.vars)
    out = p.name("rd")
    kind = r.choice(["read_value", "values", "run_read", "numpy", "local"])
    if kind == "read_value":
        p.emit(f"{out} = {v}.read_value()", [out])
    elif kind == "values":
        p.emit(f"{out} = {v}.values", [out])
    elif kind == "numpy":
        p.emit(f"{out} = ({v}.numpy(), {v}.dtype, {v}.shape, {v}.synchronization, {v}.aggregation)", [out])
    elif kind == "local":
        p.emit(f"{out} = strategy.experimental_local_results({v})", [out])
    else:
        p.emit(f"{out} = strategy.run(lambda: {v}.read_value() + tf.cast(rid_now(), {v}.dtype))", [out])


def b_merge(p: P) -> None:
    """merge_call: extended.update of a variable, reduce_to, batch_reduce_to."""
    r = p.rng
    out = p.name("mc")
    kind = r.choice(["update", "reduce_to", "batch", "plain"])
    op = r.choice(['"SUM"', '"MEAN"', "tf.distribute.ReduceOp.SUM"])
    if kind == "update" or kind == "reduce_to":
        fl = [x for x in p.vars if x[1].startswith("float") and x[2] in ("AUTO", "ON_WRITE")]
        if not fl:
            v = p.name("v")
            p.emit(f"with strategy.scope():\n    {v} = tf.Variable([1.0, 2.0])", [])
            p.vars.append((v, "float32", "AUTO", "NONE"))
        else:
            v = r.choice(fl)[0]
        if kind == "update":
            body = (f"def merge(s, d):\n        red = s.extended.reduce_to({op}, d, destinations={v})\n"
                    f"        return s.extended.update({v}, lambda var, g: var.assign_add(g), args=(red,))\n")
        else:
            body = f"def merge(s, d):\n        return s.extended.reduce_to({op}, d, destinations={v})\n"
        delta = f"tf.cast(rid + 1, {v}.dtype) * tf.ones_like({v})"
    elif kind == "batch":
        body = (f"def merge(s, d):\n        return s.extended.batch_reduce_to({op}, [(d, d), (d * 2, d)])\n")
        delta = "tf.cast(rid + 1, tf.float32) * tf.ones([2])"
    else:
        body = "def merge(s, d):\n        return (tf.distribute.in_cross_replica_context(), s is strategy, d)\n"
        delta = "tf.cast(rid, tf.float32)"
    p.emit(f"def {out}_fn():\n    ctx = tf.distribute.get_replica_context()\n    rid = ctx.replica_id_in_sync_group\n"
           f"    {body}    return ctx.merge_call(merge, args=({delta},))\n{out} = strategy.run({out}_fn)", [out])


def b_tape(p: P) -> None:
    r = p.rng
    w = p.name("w")
    out = p.name("gr")
    agg = r.choice(["NONE", "SUM", "MEAN"])
    p.emit(f"with strategy.scope():\n    {w} = tf.Variable([0.5, -1.0, 2.0], aggregation=tf.VariableAggregation.{agg})\n"
           f"def {out}_fn(x):\n    rid = tf.cast(rid_now(), tf.float32)\n    with tf.GradientTape() as tape:\n"
           f"        loss = tf.reduce_sum({w} * x * (rid + 1.0) + {w} * {w})\n"
           f"    g = tape.gradient(loss, {w})\n    return loss, g\n"
           f"{out} = strategy.run({out}_fn, args=(tf.constant([1.0, 2.0, 3.0]),))\n"
           f"{out}s = strategy.reduce('SUM', {out}[1], axis=None)", [out, out + "s"])
    p.vars.append((w, "float32", "AUTO", agg))


def b_context(p: P) -> None:
    out = p.name("cx")
    p.emit(f"{out} = (tf.distribute.has_strategy(), tf.distribute.in_cross_replica_context(), "
           f"tf.distribute.get_strategy() is strategy)\nwith strategy.scope():\n"
           f"    {out}s = (tf.distribute.has_strategy(), tf.distribute.in_cross_replica_context(), "
           f"tf.distribute.get_strategy() is strategy, tf.distribute.get_replica_context() is None)",
           [out, out + "s"])


def b_error(p: P) -> None:
    r = p.rng
    out = p.name("er")
    kind = r.choice(["reduce_in_run", "ctx_outside", "var_outside", "mean_int", "bad_axis", "mismatch",
                     "gather_scalar", "local_in_run", "nested_scope", "run_nonfn", "dist_ds_in_run"])
    if kind == "reduce_in_run":
        st = f"{out} = strategy.run(lambda: strategy.reduce('SUM', tf.constant(1.0), axis=None))"
    elif kind == "ctx_outside":
        st = f"with strategy.scope():\n    {out} = tf.distribute.get_replica_context().all_reduce('SUM', 1.0)"
    elif kind == "var_outside":
        st = (f"{out}v = tf.Variable(1.0)\n{out} = strategy.run(lambda: {out}v.assign_add(1.0))\n"
              f"{out}a = {out}v.numpy()")
        p.emit(st, [out, out + "a"])
        return
    elif kind == "mean_int":
        st = f"{out} = strategy.reduce('MEAN', strategy.run(lambda: rid_now() + 2), axis=None)"
    elif kind == "bad_axis":
        st = f"{out} = strategy.reduce('SUM', strategy.run(lambda: tf.ones([2, 3])), axis={r.choice([2, -3, 5])})"
    elif kind == "mismatch":
        st = (f"def {out}_fn():\n    rid = rid_now()\n    return (tf.constant(1.0),) if int(rid) == 0 else "
              f"(tf.constant(1.0), tf.constant(2.0))\n{out} = strategy.run({out}_fn)")
    elif kind == "gather_scalar":
        st = f"{out} = strategy.gather(strategy.run(lambda: tf.constant(1.0)), axis=0)"
    elif kind == "local_in_run":
        st = f"{out} = strategy.run(lambda: strategy.experimental_local_results(tf.constant(1.0)))"
    elif kind == "nested_scope":
        st = (f"with strategy.scope():\n    with tf.distribute.OneDeviceStrategy('/cpu:0').scope():\n"
              f"        {out} = 1")
    elif kind == "run_nonfn":
        st = f"{out} = strategy.run(tf.constant(1.0))"
    else:
        st = f"{out} = strategy.run(lambda: strategy.experimental_distribute_dataset(tf.data.Dataset.range(4).batch(2)))"
    p.emit(st, [out])


def b_function(p: P) -> None:
    """reduce / gather / all_reduce / dataset iteration inside a tf.function; extended.update and reduce_to in
    cross-replica context; a reduce of a distributed variable."""
    r = p.rng
    out = p.name("tfn")
    # ("ds_loop", a `for` over a distributed dataset with reduce(run(...)) inside a tf.function, is not drawn: the TF
    # worker stopped for 10+ minutes on it, seeds 51208 #15, 51209 #3, after earlier programs in the process; the
    # first alone returns simdist's value in a fresh process: an artifact of the per-program context reset, unproven)
    kind = r.choice(["reduce", "gather", "allred_int", "ext_update", "reduce_var", "opt_ds", "input_opts"])
    op = r.choice(SM)
    if kind == "reduce":
        ax = r.choice(["None", "0", "-1"])
        p.emit(f"@tf.function\ndef {out}_f(x):\n    pr = strategy.run(lambda t: t * tf.cast(rid_now() + 1, t.dtype), "
               f"args=(x,))\n    return strategy.reduce({op}, pr, axis={ax})\n"
               f"{out} = {out}_f({p.lit(r.choice(['float32', 'int32', 'float64']), (2, 3))})", [out])
    elif kind == "gather":
        p.emit(f"@tf.function\ndef {out}_f():\n    pr = strategy.run(lambda: tf.fill([rid_now() + 1, 2], "
               f"tf.cast(rid_now(), tf.float32)))\n    return strategy.gather(pr, axis={r.choice([0, 1, -1])})\n"
               f"{out} = {out}_f()", [out])
    elif kind == "allred_int":
        p.emit(f"def {out}_fn():\n    ctx = tf.distribute.get_replica_context()\n"
               f"    return ctx.all_reduce({op}, tf.constant([1, 2], tf.{r.choice(['int32', 'int64'])}) + "
               f"tf.cast(ctx.replica_id_in_sync_group, tf.int32) * 0)\n"
               f"{out} = strategy.run({out}_fn)", [out])
    elif kind == "ds_loop":
        n, bs = r.randint(1, 9), r.randint(1, 4)
        p.emit(f"{out}d = strategy.experimental_distribute_dataset(tf.data.Dataset.range({n}).map("
               f"lambda x: tf.cast(x, tf.float32)).batch({bs}))\n@tf.function\ndef {out}_f():\n"
               f"    total = tf.constant(0.0)\n    for e in {out}d:\n"
               f"        total += strategy.reduce('SUM', strategy.run(tf.reduce_sum, args=(e,)), axis=None)\n"
               f"    return total\n{out} = {out}_f()", [out])
    elif kind == "ext_update":
        v = p.name("v")
        p.emit(f"with strategy.scope():\n    {v} = tf.Variable([1.0, 2.0], aggregation=tf.VariableAggregation.SUM)\n"
               f"{out} = strategy.extended.update({v}, lambda var, d: var.assign_sub(d), args=(tf.constant([0.5, 0.5]),))\n"
               f"{out}r = strategy.extended.reduce_to({op}, strategy.run(lambda: tf.cast(rid_now(), tf.float32)), {v})\n"
               f"{out}v = tf.convert_to_tensor({v})", [out + "v", out + "r"])
        p.vars.append((v, "float32", "AUTO", "SUM"))
    elif kind == "reduce_var":
        if not p.vars:
            b_variable(p)
        v = r.choice(p.vars)[0]
        p.emit(f"{out} = strategy.reduce({op}, {v}, axis=None)", [out])
    elif kind == "opt_ds":
        n = r.randint(0, 5)
        p.emit(f"_it = iter(strategy.experimental_distribute_dataset(tf.data.Dataset.range({n}).batch(2)))\n"
               f"@tf.function\ndef {out}_f(it):\n    o = it.get_next_as_optional()\n"
               f"    return o.has_value()\n{out} = [{out}_f(_it) for _ in range(3)]", [out])
    else:
        fetch = r.choice(["True", "False"])
        p.emit(f"{out}d = strategy.experimental_distribute_dataset(tf.data.Dataset.range(6).batch(4), "
               f"options=tf.distribute.InputOptions(experimental_fetch_to_device={fetch}))\n"
               f"{out} = [strategy.experimental_local_results(e) for e in {out}d]", [out])


# --- ParameterServerStrategy + ClusterCoordinator (from seed 52208 on) ---------------------------------------------
PARTS = ["None", "tf.distribute.experimental.partitioners.FixedShardsPartitioner(2)",
         "tf.distribute.experimental.partitioners.FixedShardsPartitioner(3)",
         "tf.distribute.experimental.partitioners.MinSizePartitioner(min_shard_bytes=8, max_shards=2)",
         "tf.distribute.experimental.partitioners.MaxSizePartitioner(max_shard_bytes=16, max_shards=3)"]


class PS(P):
    """A PS program being drawn: the cluster (workers, ps), its variables (name, shape, sharded?)."""

    def __init__(self, rng: random.Random, workers: int, nps: int) -> None:
        super().__init__(rng, 1)
        self.workers, self.nps = workers, nps
        self.pvars: list[tuple[str, tuple, str]] = []   # (name, shape, dtype)
        self.rvs: list[str] = []
        self.done_tail = False


def ps_variable(p: PS) -> None:
    r = p.rng
    v = p.name("v")
    sh = r.choice([(), (4,), (6, 2), (5, 3), (3,), (7, 2)])
    dt = r.choice(["float32", "float32", "int32"]) if sh else "float32"
    init = p.lit(dt, sh) if sh else p.lit(dt, ())
    st = f"with strategy.scope():\n    {v} = tf.Variable({init}, name='{v}')\n"
    st += (f"{v}_d = (type({v}).__name__, [(type(x).__name__, x.shape, x.name, x.device.split('/')[1] if x.device "
           f"else '') for x in getattr({v}, 'variables', [{v}])], tf.convert_to_tensor({v}))")
    p.emit(st, [v + "_d"])
    p.pvars.append((v, sh, dt))


def _pvar(p: PS) -> tuple[str, tuple, str]:
    if not p.pvars:
        ps_variable(p)
    return p.rng.choice(p.pvars)


def ps_var_api(p: PS) -> None:
    """The chief's use of a (possibly sharded) variable: assign*, read_value, numpy, embedding_lookup."""
    r = p.rng
    v, sh, dt = _pvar(p)
    out = p.name("va")
    kind = r.choice(["assign", "assign_add", "assign_sub", "read", "numpy", "lookup", "assign_ret", "shards"])
    if kind in ("assign", "assign_add", "assign_sub"):
        p.emit(f"{v}.{kind}({p.lit(dt, sh)})\n{out} = tf.convert_to_tensor({v})", [out])
    elif kind == "assign_ret":
        p.emit(f"{out}r = {v}.assign_add({p.lit(dt, sh)})\n{out} = (type({out}r).__name__, {out}r is {v}, "
               f"tf.convert_to_tensor({out}r))", [out])
    elif kind == "read":
        p.emit(f"{out} = {v}.read_value()", [out])
    elif kind == "numpy":
        p.emit(f"{out} = ({v}.numpy(), {v}.dtype, {v}.shape)", [out])
    elif kind == "lookup":
        if not sh:
            p.emit(f"{out} = tf.nn.embedding_lookup({v}, tf.constant([0]))", [out])
        else:
            ids = [r.randint(0, sh[0] - 1) for _ in range(r.randint(1, 4))]
            p.emit(f"{out} = tf.nn.embedding_lookup({v}, tf.constant({ids}))", [out])
    else:
        p.emit(f"{out} = [tf.convert_to_tensor(x) for x in getattr({v}, 'variables', [{v}])]", [out])


def ps_schedule(p: PS) -> None:
    """schedule of a tf.function with args; fetch / get / join / done."""
    r = p.rng
    f, rv = p.name("f"), p.name("rv")
    n = r.randint(1, 4)
    kind = r.choice(["pure", "pure", "update", "read"] if p.workers == 1 else ["pure", "pure", "update"])
    arg = p.lit("float32", (2,))
    if kind == "pure":
        body = "    return x * 2.0 + 1.0, {'n': tf.reduce_sum(x)}\n"
    elif kind == "update":
        v, sh, dt = _pvar(p)
        body = (f"    {v}.assign_add(tf.ones({list(sh)}, tf.{dt}))\n    return tf.reduce_sum(x)\n")
    else:
        v, sh, dt = _pvar(p)
        body = f"    {v}.assign_add(tf.ones({list(sh)}, tf.{dt}))\n    return tf.convert_to_tensor({v})\n"
    how = r.choice(["fetch", "get", "join_fetch", "fetch_list", "done"])
    st = (f"@tf.function\ndef {f}(x):\n{body}{rv} = [coord.schedule({f}, args=({arg} * (i + 1.0),)) "
          f"for i in range({n})]\n")
    if how == "fetch":
        st += f"{rv}_o = [x.fetch() for x in {rv}]"
    elif how == "get":
        st += f"coord.join()\n{rv}_o = [x.get() for x in {rv}]"
    elif how == "join_fetch":
        st += f"coord.join()\n{rv}_o = (coord.done(), coord.fetch({rv}))"
    elif how == "fetch_list":
        st += f"{rv}_o = coord.fetch({{'all': {rv}, 'first': {rv}[0], 'k': 3}})"
    else:
        st += f"coord.join()\n{rv}_o = (coord.done(), [type(x).__name__ for x in {rv}])"
    p.emit(st, [rv + "_o"])
    if kind != "pure":
        p.emit(f"coord.join()\n{rv}_v = tf.convert_to_tensor({v})", [rv + "_v"])


def ps_dataset(p: PS) -> None:
    """create_per_worker_dataset + iter + a scheduled next (one worker: the closures run in order)."""
    r = p.rng
    if p.workers != 1:
        return ps_schedule(p)
    ds, f, out = p.name("pwd"), p.name("f"), p.name("it")
    n, bs = r.randint(3, 12), r.randint(1, 3)
    comp = r.choice(["x", "(x, tf.cast(x, tf.float32) * 0.5)", "{'a': x * 2}"])
    k = r.randint(1, 3)
    p.emit(f"def {ds}_fn():\n    return tf.data.Dataset.range({n}).map(lambda x: {comp}).batch({bs})\n"
           f"{ds} = coord.create_per_worker_dataset({ds}_fn)\n{ds}_it = iter({ds})\n"
           f"@tf.function\ndef {f}(it):\n    return next(it)\n"
           f"{out} = [coord.schedule({f}, args=({ds}_it,)) for _ in range({k})]\ncoord.join()\n"
           f"{out}_o = [x.fetch() for x in {out}]\n{out}_t = (type({ds}).__name__, type({ds}_it).__name__)",
           [out + "_o", out + "_t"])


def ps_run_reduce(p: PS) -> None:
    """strategy.run inside a scheduled function, with reduce."""
    r = p.rng
    f, out = p.name("f"), p.name("rr")
    op = r.choice(SM)
    dt = r.choice(["float32", "int32", "float64"])
    p.emit(f"@tf.function\ndef {f}(x):\n    pr = strategy.run(lambda t: t * 2 + tf.cast(rid_now(), t.dtype), args=(x,))\n"
           f"    return strategy.reduce({op}, pr, axis=None), pr\n"
           f"{out} = coord.schedule({f}, args=({p.lit(dt, (3,))},))\n{out}_o = {out}.fetch()", [out + "_o"])


def ps_checkpoint(p: PS) -> None:
    r = p.rng
    v, sh, dt = _pvar(p)
    out = p.name("ck")
    p.emit(f"{out}c = tf.train.Checkpoint(v={v})\n{out}p = {out}c.save(os.path.join(workdir, '{out}'))\n"
           f"{v}.assign(tf.zeros({list(sh)}, tf.{dt}))\n{out}s = {out}c.restore({out}p)\n"
           f"{out} = (tf.convert_to_tensor({v}), type({out}s).__name__)", [out])


def ps_error(p: PS) -> None:
    """An error path: its class (a closure raising, re-raised at join or fetch; a plain function scheduled; a
    variable made outside the scope used in a closure)."""
    r = p.rng
    out = p.name("er")
    kind = r.choice(["closure_join", "closure_fetch", "plain_fn", "outside_var", "run_on_chief"])
    if kind in ("closure_join", "closure_fetch"):
        bad = r.choice(["tf.gather(tf.constant([1.0, 2.0]), tf.constant(5))",
                        "tf.debugging.assert_equal(x, x + 1.0)",
                        "tf.reshape(x, [3])"])
        fin = "coord.join()" if kind == "closure_join" else f"{out}_r.fetch()"
        p.emit(f"@tf.function\ndef {out}_f(x):\n    {bad}\n    return x\n"
               f"{out}_r = coord.schedule({out}_f, args=(tf.constant([1.0, 2.0]),))\n{out} = {fin}", [out])
    elif kind == "plain_fn":
        p.emit(f"{out} = coord.schedule(lambda: tf.constant(1.0))", [out])
    elif kind == "outside_var":
        p.emit(f"{out}_v = tf.Variable(2.0)\n@tf.function\ndef {out}_f():\n    {out}_v.assign_add(1.0)\n"
               f"    return {out}_v.read_value()\n{out}_r = coord.schedule({out}_f)\ncoord.join()\n"
               f"{out} = ({out}_r.fetch(), {out}_v.numpy())", [out])
    else:
        p.emit(f"{out} = strategy.run(lambda: tf.constant(1.0))", [out])
    p.done_tail = True   # (TF's coordinator may wait for a "failed" worker after a remote error: nothing after it)


PS_BUILDERS = [(ps_variable, 3), (ps_var_api, 5), (ps_schedule, 6), (ps_dataset, 3), (ps_run_reduce, 2),
               (ps_checkpoint, 1), (ps_error, 2)]

BUILDERS = [(b_run, 8), (b_run_shapes, 3), (b_reduce, 8), (b_reduce_nest, 2), (b_gather, 5), (b_local, 3),
            (b_values_fn, 2), (b_dataset, 4), (b_dataset_fn, 3), (b_replica_ctx, 5), (b_variable, 3),
            (b_var_update, 4), (b_var_read, 4), (b_merge, 3), (b_tape, 2), (b_context, 1), (b_error, 4)]


def program(seed: int, k: int, steps: int = 10) -> dict:
    """Program k of seed: its strategy expression and statements."""
    rng = random.Random(seed * 100003 + k)
    if seed >= 54208 and rng.random() < 0.6:   # (b_ctl: a draw only from 54208 on)
        return _ctl_program(rng)
    if seed >= 53208 and rng.random() < 0.5:   # (b_ckpt: a draw only from 53208 on, so older seeds keep theirs)
        if rng.random() < 0.25:
            workers, nps = rng.choice([(1, 1), (1, 2), (2, 1)])
            return _ck_program(rng, (workers, nps, rng.choice(PARTS)))
        return _ck_program(rng, None)
    if seed >= 52208 and rng.random() < 0.35:
        return _ps_program(rng, steps)
    st = rng.choices(STRATEGIES, [w for _, _, w in STRATEGIES])[0]
    p = P(rng, st[1])
    # (b_function came after seeds 51201-51207 were run and the slice's answers kept: drawn from seed 51208 on, so
    # the earlier seeds' programs stay as they were)
    fns, w = zip(*(BUILDERS + ([(b_function, 5)] if seed >= 51208 else [])))
    for _ in range(rng.randint(max(2, steps // 2), steps)):
        rng.choices(fns, w)[0](p)
    return {"strategy": st[0], "lines": p.lines}


def _ps_program(rng: random.Random, steps: int) -> dict:
    workers, nps = rng.choice([(1, 1), (1, 2), (2, 1), (2, 2), (1, 1)])
    part = rng.choice(PARTS)
    p = PS(rng, workers, nps)
    fns, w = zip(*PS_BUILDERS)
    for _ in range(rng.randint(max(2, steps // 2), steps)):
        if p.done_tail:
            break
        rng.choices(fns, w)[0](p)
    return {"strategy": (f"tf.distribute.experimental.ParameterServerStrategy(resolver, variable_partitioner={part})"),
            "ps": (workers, nps), "lines": p.lines}


# --- b_ckpt (from seed 53208 on): the restart-from-checkpoint story across strategies
CK_STRATEGIES = [
    ("tf.distribute.get_strategy()", 2),
    ('tf.distribute.OneDeviceStrategy("/cpu:0")', 2),
    ('tf.distribute.MirroredStrategy(["/cpu:0"])', 1),
    ('tf.distribute.MirroredStrategy(["/cpu:0", "/cpu:1"])', 3),
    ('tf.distribute.experimental.CentralStorageStrategy(["/cpu:0", "/cpu:1"])', 2),
    ("tf.distribute.MultiWorkerMirroredStrategy()", 1),
]


class CK(P):
    """A checkpoint program being drawn: its variables (name, init text, shape, dtype, sync, agg), whether it has a
    Keras model, the strategies it saves and restores under."""

    def __init__(self, rng: random.Random) -> None:
        super().__init__(rng, 1)
        self.cvars: list[tuple[str, str, tuple, str, str, str]] = []


def _ck_vars(p: CK, ps: bool) -> str:
    """Variable creations under `s1`'s scope (text), recorded in p.cvars."""
    r = p.rng
    body = []
    for _ in range(r.randint(1, 3)):
        v = p.name("v")
        sh = r.choice([(), (2,), (3,), (2, 2), (4, 2), (5,)] if not ps else [(4,), (6, 2), (5, 3), (3,), ()])
        dt = r.choice(["float32", "float32", "float64", "int32", "int64"])
        sync, agg = ("AUTO", "NONE") if ps or r.random() < 0.5 else (
            r.choice(["AUTO", "ON_WRITE", "ON_READ"]), r.choice(["NONE", "SUM", "MEAN", "ONLY_FIRST_REPLICA"]))
        if dt.startswith("int") and agg == "MEAN":
            agg = "SUM"
        init = p.lit(dt, sh)
        body.append(f"    {v} = tf.Variable({init}, name='{v}', synchronization=tf.VariableSynchronization.{sync}, "
                    f"aggregation=tf.VariableAggregation.{agg})")
        p.cvars.append((v, init, sh, dt, sync, agg))
    return "\n".join(body)


CK_PRELUDE = r"""
def kreads(strategy, v):
    return [tf.convert_to_tensor(x) for x in strategy.experimental_local_results(v)]

def listing(path):
    return sorted((k, tuple(sh)) for k, sh in tf.train.list_variables(path))

def base(path):
    return None if path is None else os.path.basename(path)
"""


def _ck_model(p: CK, who: str, scope: str) -> str:
    """A small Keras model and optimizer made under `scope`, deterministic (constant initializers)."""
    r = p.rng
    opt = r.choice(["tf.keras.optimizers.SGD(0.1, momentum=0.5)", "tf.keras.optimizers.Adam(0.1)",
                    "tf.keras.optimizers.SGD(0.25)", "tf.keras.optimizers.RMSprop(0.05)"])
    p.opt = opt
    return (f"with {scope}.scope():\n"
            f"    {who}m = tf.keras.Sequential([tf.keras.Input((3,)), tf.keras.layers.Dense(2, "
            f"kernel_initializer=tf.keras.initializers.Constant(0.5), bias_initializer='zeros')])\n"
            f"    {who}o = {opt}\n"
            f"    {who}o.build({who}m.trainable_variables)\n")   # (slots made in a step under Mirrored(2): Keras 3's known
    # TF failure, "Incompatible shapes: [0] vs. [3,2]": the suite's known deviation test_slots_built_inside_tf_function)


def _ck_step(who: str, scope: str, x: str) -> str:
    return (f"@tf.function\ndef {who}step(x):\n"
            f"    def one(x):\n"
            f"        with tf.GradientTape() as t:\n"
            f"            loss = tf.reduce_sum({who}m(x) ** 2) / 4.0\n"
            f"        g = t.gradient(loss, {who}m.trainable_variables)\n"
            f"        {who}o.apply_gradients(zip(g, {who}m.trainable_variables))\n"
            f"        return loss\n"
            f"    return {scope}.reduce('SUM', {scope}.run(one, args=(x,)), axis=None)\n"
            f"{who}loss = {who}step({x})")


def _ck_program(rng: random.Random, ps: tuple | None) -> dict:
    """A save / restore story: variables (and a Keras model with an optimizer that has taken a step) under s1, saved
    with Checkpoint.save / write / a CheckpointManager, restored under s2 (another strategy or none), before or after
    the variables exist, the status's assertions, the checkpoint's keys and values, reads per replica, one more
    step."""
    p = CK(rng)
    r = rng
    if ps:
        s1 = "strategy"
        s2 = r.choice(["None", "strategy2"])
        part2 = r.choice(PARTS)
    else:
        names, w = zip(*CK_STRATEGIES)
        s1n = r.choices(names, w)[0]
        s2n = r.choice(["None"] + [n for n in names if not ("MultiWorker" in n and "MultiWorker" in s1n)])
        p.emit(f"s1 = {s1n}\ns2 = {s2n}\nck_n = (s1.num_replicas_in_sync, "
               f"None if s2 is None else s2.num_replicas_in_sync)", ["ck_n"])
        s1, s2 = "s1", ("None" if s2n == "None" else "s2")
    if ps and s2 == "strategy2":
        p.emit(f"strategy2 = tf.distribute.experimental.ParameterServerStrategy(resolver, variable_partitioner={part2})",
               [])
    model = not ps and r.random() < 0.5
    p.emit(f"with {s1}.scope():\n{_ck_vars(p, ps)}\n"
           f"ck_a = [(type(x).__name__, kreads({s1}, x)) for x in [{', '.join(v[0] for v in p.cvars)}]]", ["ck_a"])
    objs = ", ".join(f"{v[0]}={v[0]}" for v in p.cvars)
    if model:
        p.emit(_ck_model(p, "a", s1) + _ck_step("a", s1, "tf.constant([[1.0, 2.0, -1.0], [0.5, 0.0, 1.0]])"),
               ["aloss"])
        p.emit("ck_w = [tf.convert_to_tensor(x) for x in am.weights]\n"
               "ck_ov = sorted((x.path, tuple(x.shape)) for x in ao.variables)", ["ck_w", "ck_ov"])
        objs += ", model=am, opt=ao"
    # a step counter and an update before saving
    if r.random() < 0.5:
        v = r.choice(p.cvars)[0]
        p.emit(f"ck_u = {s1}.run(lambda: {v}.assign_add(tf.ones_like({v}.read_value())))\n"
               f"ck_ua = kreads({s1}, {v})", ["ck_ua"])
    how = r.choice(["save", "save", "write", "manager", "manager"])
    p.emit(f"ck = tf.train.Checkpoint({objs})", [])
    if how == "save":
        k = r.randint(1, 3)
        p.emit(f"ck_paths = [ck.save(os.path.join(workdir, 'ckpt')) for _ in range({k})]\n"
               f"ck_path = ck_paths[-1]\nck_b = ([base(x) for x in ck_paths], base(tf.train.latest_checkpoint(workdir)), "
               f"ck.save_counter.numpy())", ["ck_b"])
    elif how == "write":
        p.emit("ck_path = ck.write(os.path.join(workdir, 'wr'))\n"
               "ck_b = (base(ck_path), base(tf.train.latest_checkpoint(workdir)))", ["ck_b"])
    else:
        mx = r.choice(["None", "1", "2", "3"])
        interval = r.choice(["None", "None", "2"])
        counter = interval != "None" or r.random() < 0.3
        k = r.randint(1, 4)
        p.emit(("ck_step = tf.Variable(0, dtype=tf.int64)\n" if counter else "") +
               f"mgr = tf.train.CheckpointManager(ck, os.path.join(workdir, 'mgr'), max_to_keep={mx}"
               + (f", step_counter=ck_step, checkpoint_interval={interval}" if counter else "") + ")\n"
               f"ck_saved = []\nfor i in range({k}):\n"
               + ("    ck_step.assign_add(1)\n" if counter else "") +
               f"    ck_saved.append(base(mgr.save(" + ("" if counter or r.random() < 0.5 else "checkpoint_number=10 + i")
               + ")))\n"
               "ck_path = mgr.latest_checkpoint\n"
               "ck_b = (ck_saved, [base(x) for x in mgr.checkpoints], base(ck_path), "
               "base(tf.train.latest_checkpoint(os.path.join(workdir, 'mgr'))))", ["ck_b"])
    p.emit("ck_l = None if ck_path is None else listing(ck_path)", ["ck_l"])
    keys = [f"'{v[0]}/.ATTRIBUTES/VARIABLE_VALUE'" for v in p.cvars]
    p.emit(f"ck_lv = None if ck_path is None else [tf.train.load_variable(ck_path, k) for k in [{', '.join(keys)}]]",
           ["ck_lv"])
    # change the values, then restore
    scope2 = "contextlib.nullcontext()" if s2 == "None" else f"{s2}.scope()"
    fresh = []
    for v, init, sh, dt, sync, agg in p.cvars:
        z = f"tf.zeros({list(sh)}, tf.{dt})"
        fresh.append(f"    {v}r = tf.Variable({z}, synchronization=tf.VariableSynchronization.{sync}, "
                     f"aggregation=tf.VariableAggregation.{agg})")
    when = r.choice(["after", "after", "before"])
    robjs = ", ".join(f"{v[0]}={v[0]}r" for v in p.cvars)
    assertion = r.choice(["assert_consumed", "assert_existing_objects_matched", "expect_partial", "none",
                          "partial_consumed"])
    if when == "after":
        st = f"with {scope2}:\n" + "\n".join(fresh) + "\n"
        if model:
            st += _ck_model(p, "b", "s2" if s2 != "None" else "tf.distribute.get_strategy()")[len("with X.scope():\n"):] \
                if False else ""
        sub = robjs
        if assertion == "partial_consumed" and len(p.cvars) > 1:
            sub = f"{p.cvars[0][0]}={p.cvars[0][0]}r"
        st += f"ck2 = tf.train.Checkpoint({sub})\nst = ck2.restore(ck_path)\n"
        p.emit(st + "ck_st = type(st).__name__", ["ck_st"])
    else:
        st = f"ck2 = tf.train.Checkpoint()\nst = ck2.restore(ck_path)\nwith {scope2}:\n" + "\n".join(fresh) + "\n"
        st += "\n".join(f"ck2.{v[0]} = {v[0]}r" for v in p.cvars)
        p.emit(st + "\nck_st = type(st).__name__", ["ck_st"])
    if assertion in ("assert_consumed", "partial_consumed"):
        p.emit("ck_as = type(st.assert_consumed()).__name__", ["ck_as"])
    elif assertion == "assert_existing_objects_matched":
        p.emit("ck_as = type(st.assert_existing_objects_matched()).__name__", ["ck_as"])
    elif assertion == "expect_partial":
        p.emit("ck_as = type(st.expect_partial()).__name__", ["ck_as"])
    s2x = "tf.distribute.get_strategy()" if s2 == "None" else s2
    p.emit("ck_r = [(type(x).__name__, kreads(" + s2x + ", x)) for x in [" +
           ", ".join(f"{v[0]}r" for v in p.cvars) + "]]", ["ck_r"])
    if model:
        sc = s2 if s2 != "None" else "tf.distribute.get_strategy()"
        p.emit(f"with {sc}.scope():\n"
               f"    bm = tf.keras.Sequential([tf.keras.Input((3,)), tf.keras.layers.Dense(2, "
               f"kernel_initializer='zeros', bias_initializer='ones')])\n"
               f"    bo = {p.opt}\n"
               f"    bo.build(bm.trainable_variables)\n"
               f"ck3 = tf.train.Checkpoint(model=bm, opt=bo)\nst3 = ck3.restore(ck_path)\n"
               f"ck_m = ([tf.convert_to_tensor(x) for x in bm.weights], "
               f"sorted((x.path, tuple(x.shape)) for x in bo.variables), int(bo.iterations.numpy()))", ["ck_m"])
        p.emit(f"ck_ma = type(st3.assert_existing_objects_matched()).__name__", ["ck_ma"])
        p.emit(_ck_step("b", sc, "tf.constant([[1.0, 0.0, 2.0], [-1.0, 1.0, 0.5]])")
               + "\nck_m2 = [tf.convert_to_tensor(x) for x in bm.weights] + [tf.convert_to_tensor(x) for x in bo.variables]",
               ["bloss", "ck_m2"])
    # one more update of a restored variable, then its reads per replica
    fl = [v for v in p.cvars if v[3].startswith("float")]
    if fl:
        v = r.choice(fl)[0]
        if s2 == "None" or r.random() < 0.5:
            p.emit(f"{v}r.assign_add(tf.ones_like({v}r.read_value()) * 0.5)\nck_after = kreads({s2x}, {v}r)",
                   ["ck_after"])
        else:
            p.emit(f"ck_run = {s2}.run(lambda: {v}r.assign_sub(tf.ones_like({v}r.read_value())))\n"
                   f"ck_after = kreads({s2x}, {v}r)", ["ck_after"])
    if r.random() < 0.3:   # restore with a different partitioning (ps) / into a variable of another shape
        v, init, sh, dt, sync, agg = r.choice(p.cvars)
        p.emit(f"ck_bad = tf.Variable(tf.zeros({list(sh) + [2]}, tf.{dt}))\n"
               f"ck_e = tf.train.Checkpoint({v}=ck_bad).restore(ck_path)\nck_bv = ck_bad.numpy()", ["ck_bv"])
    out = {"strategy": "tf.distribute.get_strategy()" if not ps else
           "tf.distribute.experimental.ParameterServerStrategy(resolver, variable_partitioner=" + ps[2] + ")",
           "lines": p.lines, "ckpt": True}
    if ps:
        out["ps"] = ps[:2]
    return out


# --- b_ctl (from seed 54208 on): the custom training loop under a strategy, as the tf.distribute guides write it
CTL_STRATEGIES = [
    ("tf.distribute.get_strategy()", 1),
    ('tf.distribute.OneDeviceStrategy("/cpu:0")', 1),
    ('tf.distribute.MirroredStrategy(["/cpu:0"])', 1),
    ('tf.distribute.MirroredStrategy(["/cpu:0", "/cpu:1"])', 3),
    ('tf.distribute.MirroredStrategy(["/cpu:0", "/cpu:1", "/cpu:2"])', 2),
    ('tf.distribute.experimental.CentralStorageStrategy(["/cpu:0", "/cpu:1"])', 1),
    ("tf.distribute.MultiWorkerMirroredStrategy()", 1),
]

CTL_PRELUDE = r"""
def locals_of(v):
    return [tf.convert_to_tensor(x) for x in strategy.experimental_local_results(v)]

def fill_weights(m):
    for i, w in enumerate(m.weights):
        n = int(np.prod(w.shape))
        w.assign(tf.reshape((tf.cast((tf.range(n) * 7 + i * 3) % 11, tf.float32) - 5.0) * 0.08, w.shape))
"""


def _ctl_program(rng: random.Random) -> dict:
    """A custom training loop: a small Keras model and optimizer made in strategy.scope(), a distributed dataset
    (experimental_distribute_dataset with InputOptions, or distribute_datasets_from_function with InputContext
    sharding), a train step under tf.function with strategy.run, the loss by tf.nn.compute_average_loss (global
    batch size, sample weights) and tf.nn.scale_regularization_loss, apply_gradients in the replica context, Keras
    metrics updated per replica, strategy.reduce of the losses, iteration by `for`, iter/next,
    get_next_as_optional or a loop inside one tf.function; the variables' per-replica copies after the steps."""
    r = rng
    p = P(r, 1)
    names, w = zip(*CTL_STRATEGIES)
    st = r.choices(names, w)[0]
    conv = r.random() < 0.25
    k = r.choice([2, 3])
    d = r.choice([3, 4])
    head = r.choice(["softmax", "logits", "mse"])
    if conv:
        layers = (f"tf.keras.Input((4, 4, 1)), tf.keras.layers.Conv2D(2, 2, activation='relu'), "
                  f"tf.keras.layers.Flatten()")
        xshape = "[n, 4, 4, 1]"
        feat = 16
    else:
        layers = f"tf.keras.Input(({d},)), tf.keras.layers.Dense({r.choice([3, 4])}, activation='relu')"
        xshape = f"[n, {d}]"
        feat = d
    reg = r.random() < 0.3
    out_act = ", activation='softmax'" if head == "softmax" else ""
    kreg = ", kernel_regularizer=tf.keras.regularizers.L2(0.01)" if reg else ""
    opt = r.choice(["tf.keras.optimizers.SGD(0.1)", "tf.keras.optimizers.SGD(0.05, momentum=0.9)",
                    "tf.keras.optimizers.Adam(0.01)", "tf.keras.optimizers.RMSprop(0.01)"])
    metric = r.choice(["acc", "mean", "both", "none"]) if head != "mse" else r.choice(["mean", "none"])
    mlines = ""
    if metric in ("acc", "both"):
        mlines += "    acc = tf.keras.metrics.SparseCategoricalAccuracy()\n"
    if metric in ("mean", "both"):
        mlines += "    mloss = tf.keras.metrics.Mean()\n"
    p.emit(f"with strategy.scope():\n"
           f"    m = tf.keras.Sequential([{layers}, tf.keras.layers.Dense({k}{out_act}{kreg})])\n"
           f"    opt = {opt}\n"
           f"    opt.build(m.trainable_variables)\n{mlines}"
           f"fill_weights(m)\n"
           f"c_w0 = [locals_of(x) for x in m.trainable_variables[:2]]", ["c_w0"])
    # the data: n examples, a global batch size that may leave a partial final batch
    n = r.randint(3, 12)
    gbs = r.choice([2, 3, 4, 5, 6])
    nrep = max(1, st.count("/cpu:"))
    drop = r.random() < 0.3
    p.emit(f"n = {n}\nGBS = {gbs}\n"
           f"xs = tf.reshape((tf.cast(tf.range(n * {feat}) * 5 % 13, tf.float32) - 6.0) / 4.0, {xshape})\n"
           f"ys = tf.range(n) % {k}\n"
           f"ws = 0.5 + tf.cast(tf.range(n) % 3, tf.float32) * 0.25\n"
           f"ds = tf.data.Dataset.from_tensor_slices((xs, ys, ws))", [])
    how_ds = r.choice(["dist", "dist", "dist_opts", "fn", "fn"])
    if how_ds == "dist" or how_ds == "dist_opts":
        line = f"ds_b = ds.batch(GBS, drop_remainder={drop})"
        if r.random() < 0.3:
            pol = r.choice(["OFF", "DATA", "AUTO"])
            line += (f"\n_o = tf.data.Options()\n_o.experimental_distribute.auto_shard_policy = "
                     f"tf.data.experimental.AutoShardPolicy.{pol}\nds_b = ds_b.with_options(_o)")
        if how_ds == "dist_opts":
            fetch = r.choice(["True", "False"])
            mode = r.choice(["PER_WORKER", "PER_WORKER", "PER_REPLICA"])
            buf = r.choice(["None", "1", "2"])
            opts = (f"tf.distribute.InputOptions(experimental_fetch_to_device={fetch}, "
                    f"experimental_replication_mode=tf.distribute.InputReplicationMode.{mode}"
                    + (f", experimental_per_replica_buffer_size={buf}" if buf != "None" else "") + ")")
            line += f"\ndd = strategy.experimental_distribute_dataset(ds_b, options={opts})"
        else:
            line += "\ndd = strategy.experimental_distribute_dataset(ds_b)"
        p.emit(line + "\nc_spec = dd.element_spec", ["c_spec"])
    else:
        if r.random() < 0.85:   # (get_per_replica_batch_size refuses a global batch the replicas do not divide)
            gbs = nrep * r.choice([1, 2])
            p.lines[-1] = (p.lines[-1][0].replace("GBS = ", "GBS = %d  # " % gbs, 1), p.lines[-1][1])
        shard = r.random() < 0.6
        opts = ""
        if r.random() < 0.3:
            mode = r.choice(["PER_WORKER", "PER_REPLICA"])
            opts = (f", options=tf.distribute.InputOptions(experimental_replication_mode="
                    f"tf.distribute.InputReplicationMode.{mode}, experimental_fetch_to_device={r.choice(['True', 'False'])})")
        p.emit(f"c_ctx = []\ndef dataset_fn(ctx):\n"
               f"    c_ctx.append((ctx.num_input_pipelines, ctx.input_pipeline_id, ctx.num_replicas_in_sync, "
               f"ctx.get_per_replica_batch_size(GBS)))\n"
               f"    b = ctx.get_per_replica_batch_size(GBS)\n"
               f"    d = ds.shard(ctx.num_input_pipelines, ctx.input_pipeline_id)\n" if shard else
               f"c_ctx = []\ndef dataset_fn(ctx):\n"
               f"    c_ctx.append((ctx.num_input_pipelines, ctx.input_pipeline_id, ctx.num_replicas_in_sync, "
               f"ctx.get_per_replica_batch_size(GBS)))\n"
               f"    b = ctx.get_per_replica_batch_size(GBS)\n"
               f"    d = ds\n", [])
        p.lines[-1] = (p.lines[-1][0] + f"    return d.batch(b, drop_remainder={drop})\n"
                       f"dd = strategy.distribute_datasets_from_function(dataset_fn{opts})\n"
                       f"c_spec = (dd.element_spec, c_ctx)", ["c_spec"])
    # the step
    gb = r.choice(["GBS", "GBS", "None"])
    sw = r.random() < 0.4
    if head == "mse":
        per_ex = "tf.reduce_mean(tf.square(pred - tf.one_hot(y, %d)), axis=-1)" % k
    elif head == "softmax":
        per_ex = "tf.keras.losses.sparse_categorical_crossentropy(y, pred)"
    else:
        per_ex = "tf.keras.losses.sparse_categorical_crossentropy(y, pred, from_logits=True)"
    avg = f"tf.nn.compute_average_loss(per_ex" + (", sample_weight=w" if sw else "") + \
        (f", global_batch_size={gb}" if gb != "None" else "") + ")"
    regl = ""
    if reg:
        regl = "        loss = loss + tf.nn.scale_regularization_loss(tf.add_n(m.losses))\n"
    elif r.random() < 0.3:
        regl = ("        loss = loss + tf.nn.scale_regularization_loss("
                "1e-3 * tf.add_n([tf.nn.l2_loss(v) for v in m.trainable_variables]))\n")
    mupd = ""
    if metric in ("acc", "both"):
        mupd += "    acc.update_state(y, pred)\n"
    if metric in ("mean", "both"):
        mupd += "    mloss.update_state(per_ex)\n"
    scale = r.random() < 0.2
    p.emit(("c_scale = strategy.experimental_distribute_values_from_function(lambda ctx: "
            "tf.constant(1.0 + 0.5 * ctx.replica_id_in_sync_group))\n" if scale else "") +
           f"def step_fn(inputs{', sc' if scale else ''}):\n"
           f"    x, y, w = inputs\n"
           f"    with tf.GradientTape() as tape:\n"
           f"        pred = m(x, training=True)\n"
           f"        per_ex = {per_ex}" + (" * sc" if scale else "") + "\n"
           f"        loss = {avg}\n{regl}"
           f"    grads = tape.gradient(loss, m.trainable_variables)\n"
           f"    opt.apply_gradients(zip(grads, m.trainable_variables))\n{mupd}"
           f"    return loss, per_ex\n"
           f"red_op = tf.distribute.ReduceOp.{r.choice(['SUM', 'SUM', 'MEAN'])}\n"
           f"@tf.function\ndef train_step(inputs):\n"
           f"    l, pe = strategy.run(step_fn, args=(inputs{', c_scale' if scale else ''},))\n"
           f"    return strategy.reduce(red_op, l, axis=None), pe", [])
    it_how = r.choice(["for", "for", "next", "opt", "loop"])
    if it_how == "for":
        p.emit("c_losses = []\nfor batch in dd:\n    lo, pe = train_step(batch)\n    c_losses.append(lo)\n"
               "c_pe = strategy.experimental_local_results(pe)", ["c_losses", "c_pe"])
    elif it_how == "next":
        steps = r.randint(1, 3)
        p.emit(f"it = iter(dd)\nc_losses = []\nfor _ in range({steps}):\n    lo, pe = train_step(next(it))\n"
               "    c_losses.append(lo)\nc_pe = strategy.experimental_local_results(pe)", ["c_losses", "c_pe"])
    elif it_how == "opt":
        p.emit("it = iter(dd)\nc_losses = []\nfor _ in range(5):\n    o = it.get_next_as_optional()\n"
               "    if not o.has_value():\n        break\n    c_losses.append(train_step(o.get_value())[0])\n"
               "c_n = len(c_losses)", ["c_losses", "c_n"])
    else:
        steps = r.randint(1, 3)
        p.emit(f"@tf.function\ndef train_loop(it):\n    total = tf.constant(0.0)\n"
               f"    for _ in tf.range({steps}):\n        total += train_step(next(it))[0]\n    return total\n"
               f"it = iter(dd)\nc_losses = [train_loop(it)]", ["c_losses"])
    p.emit("c_w = [locals_of(x) for x in m.trainable_variables]\n"
           "c_it = int(opt.iterations.numpy())", ["c_w", "c_it"])
    if metric != "none":
        p.emit("c_m = [" + ", ".join(x for x, on in (("acc.result()", metric in ("acc", "both")),
                                                     ("mloss.result()", metric in ("mean", "both"))) if on) + "]",
               ["c_m"])
    if r.random() < 0.5:
        ax = r.choice(["None", "0"])
        p.emit(f"c_pr = strategy.run(lambda: tf.cast(tf.distribute.get_replica_context().replica_id_in_sync_group, "
               f"tf.float32) + tf.ones([2]))\nc_red = (strategy.reduce('SUM', c_pr, axis={ax}), "
               f"strategy.reduce('MEAN', c_pr, axis={ax}))", ["c_red"])
    return {"strategy": st, "lines": p.lines, "ctl": True}


def text_of(prog: dict) -> str:
    head = [f"strategy = {prog['strategy']}"]
    if "ps" in prog:
        head = [f"# cluster: {prog['ps'][0]} worker(s), {prog['ps'][1]} ps", *head,
                "coord = tf.distribute.experimental.coordinator.ClusterCoordinator(strategy)"]
    return "\n".join(head + [s for s, _ in prog["lines"]])


# --- running (in the worker)
def norm(tf, np, v, depth: int = 0):  # noqa: ANN001, ANN201
    """A comparable outcome of any value a program binds."""
    if depth > 8:
        return ("deep",)
    if v is None or isinstance(v, (bool, int, float, str)):
        return ("py", type(v).__name__, repr(v))
    cls = type(v).__name__
    if isinstance(v, dict):
        return ("dict", tuple((k, norm(tf, np, v[k], depth + 1)) for k in sorted(v)))
    if isinstance(v, tuple) and hasattr(v, "_fields"):
        return ("nt", cls, tuple(norm(tf, np, x, depth + 1) for x in v))
    if isinstance(v, (list, tuple)):
        return (cls, tuple(norm(tf, np, x, depth + 1) for x in v))
    if cls == "IndexedSlices":
        return ("slices", norm(tf, np, v.values, depth + 1), norm(tf, np, v.indices, depth + 1),
                norm(tf, np, v.dense_shape, depth + 1))
    if isinstance(v, np.ndarray) or isinstance(v, np.generic):
        a = np.asarray(v)
        return ("np", a.dtype.name, a.shape, repr(a.tolist()))
    if hasattr(v, "values") and isinstance(getattr(v, "values", None), tuple) and not hasattr(v, "_fields"):
        return ("DV", cls, tuple(norm(tf, np, x, depth + 1) for x in v.values))
    if cls in ("VariableSynchronization", "VariableAggregation", "VariableAggregationV2", "ReduceOp", "DType", "TensorShape"):
        return ("enum", str(v))
    if hasattr(v, "numpy") and hasattr(v, "dtype"):
        try:
            a = np.asarray(v.numpy())
        except Exception as e:  # noqa: BLE001
            return ("nonumpy", type(e).__name__)
        if v.dtype.name == "bfloat16":
            a = a.astype(np.float64)
        if a.dtype.kind == "f":
            nan = np.isnan(a)
            raw = np.where(nan, np.zeros_like(a), a).tobytes() + nan.tobytes()
        else:
            raw = a.tobytes()
        return ("T", v.dtype.name, tuple(a.shape), raw)
    if "Spec" in cls:
        return ("spec", cls, str(v)[:300])
    return ("obj", cls)


def _err(e: BaseException) -> tuple:
    return ("err", type(e).__name__, str(e)[:200])


def run_program(tf, np, prog: dict, extra: dict | None = None) -> dict:  # noqa: ANN001
    import collections
    env: dict = {"tf": tf, "np": np, "collections": collections, "os": os, **(extra or {})}
    exec(PRELUDE, env)  # noqa: S102 - our own text
    if prog.get("ckpt"):
        import contextlib
        env["contextlib"] = contextlib
        exec(CK_PRELUDE, env)  # noqa: S102 - our own text
    if prog.get("ctl"):
        exec(CTL_PRELUDE, env)  # noqa: S102 - our own text
    rec: list = []
    try:
        env["strategy"] = eval(prog["strategy"], env)  # noqa: S307
        if "ps" in prog:
            env["coord"] = tf.distribute.experimental.coordinator.ClusterCoordinator(env["strategy"])
        rec.append(("strategy", (norm(tf, np, env["strategy"].num_replicas_in_sync),)))
    except Exception as e:  # noqa: BLE001
        return {"rec": [("strategy", _err(e))]}
    for st, names in prog["lines"]:
        try:
            exec(st, env)  # noqa: S102
            outs = []
            for n in names:
                try:
                    outs.append(norm(tf, np, env[n]))
                except Exception as e:  # noqa: BLE001
                    outs.append(("normerr",) + _err(e))
            rec.append((st, tuple(outs)))
        except Exception as e:  # noqa: BLE001
            rec.append((st, _err(e)))
    return {"rec": rec}


def worker(backend: str, seed: int, n: int, steps: int, start: int, path: str) -> None:
    import numpy as np
    if backend == "tf":
        import tensorflow as tf
    else:
        from simdist import tf
    def setup() -> None:   # (from seed 54208 on, four logical CPUs: b_ctl's MirroredStrategy on three)
        cpu = tf.config.list_physical_devices("CPU")[0]
        tf.config.set_logical_device_configuration(cpu, [tf.config.LogicalDeviceConfiguration()] *
                                                   (4 if seed >= 54208 else 2))
    setup()
    tf.constant(1.0) + 1.0
    with open(path, "ab") as fh:
        for k in range(start, n):
            prog = program(seed, k, steps)
            if "ps" in prog:
                pickle.dump(_run_ps(backend, seed, k, steps, prog), fh)
                fh.flush()
                if backend != "tf":
                    setup()   # (simdist.reset() forgot the logical CPUs)
                continue
            if backend == "tf":   # (a fresh eager context per program: TF's collective instance keys restart with
                from tensorflow.python.eager import context   # each strategy and collide across programs)
                context._reset_context()
                setup()
            elif seed >= 54208:   # (simdist's fresh process likewise: its collective executor not aborted, dist54)
                import simdist
                simdist.reset()
                setup()
            import tempfile
            with tempfile.TemporaryDirectory() as workdir:
                try:
                    r = run_program(tf, np, prog, {"workdir": workdir})
                except Exception as e:  # noqa: BLE001
                    r = {"rec": [("all", _err(e))]}
            pickle.dump(r, fh)
            fh.flush()


def _run_ps(backend: str, seed: int, k: int, steps: int, prog: dict) -> dict:
    """A PS program's outcome: on TF in a fresh process of its own (its in-process gRPC servers cannot be stopped,
    and a remote error can leave TF's coordinator waiting for a worker), on simdist after simdist.reset()."""
    import subprocess
    import tempfile
    if backend == "tf":
        with tempfile.TemporaryDirectory() as d:
            out = os.path.join(d, "ps.pkl")
            try:
                subprocess.run([sys.executable, os.path.abspath(__file__), "--ps-one", str(seed), str(k), str(steps),
                                out], capture_output=True, timeout=PS_TIMEOUT,
                               env=dict(os.environ, TF_CPP_MIN_LOG_LEVEL="3"))
            except subprocess.TimeoutExpired:
                return {"crash": True, "why": "timeout"}
            if not os.path.exists(out):
                return {"crash": True}
            with open(out, "rb") as fh:
                return pickle.load(fh)
    import numpy as np
    import tempfile as _t
    import simdist
    from simdist import tf
    simdist.reset()
    workers, nps = prog["ps"]
    spec = tf.train.ClusterSpec({"worker": [f"w{i}:1" for i in range(workers)], "ps": [f"p{i}:1" for i in range(nps)]})
    resolver = tf.distribute.cluster_resolver.SimpleClusterResolver(spec, rpc_layer="grpc")
    with _t.TemporaryDirectory() as workdir:
        try:
            r = run_program(tf, np, prog, {"resolver": resolver, "workdir": workdir})
        except Exception as e:  # noqa: BLE001
            r = {"rec": [("all", _err(e))]}
    simdist.reset()
    return r


PS_TIMEOUT = 240


def ps_one(seed: int, k: int, steps: int, path: str) -> None:
    """TF side of one PS program (a process of its own): in-process servers, the program, its record."""
    import tempfile
    import numpy as np
    import tensorflow as tf
    sys.path.insert(0, os.path.dirname(os.path.dirname(HERE)))
    from simdist.conformance.backends.tf_backend import start_in_process_servers
    prog = program(seed, k, steps)
    workers, nps = prog["ps"]
    spec, servers = start_in_process_servers(tf, workers, nps, inter_op_threads=max(8, workers + nps + 1))
    resolver = tf.distribute.cluster_resolver.SimpleClusterResolver(tf.train.ClusterSpec(spec), rpc_layer="grpc")
    with tempfile.TemporaryDirectory() as workdir:
        try:
            r = run_program(tf, np, prog, {"resolver": resolver, "workdir": workdir})
        except Exception as e:  # noqa: BLE001
            r = {"rec": [("all", _err(e))]}
    with open(path, "wb") as fh:
        pickle.dump(r, fh)
        fh.flush()
    os._exit(0)   # (the servers and the coordinator's threads never stop)


def same(a, b) -> bool:  # noqa: ANN001
    """Outcomes equal; an error by its class."""
    if isinstance(a, tuple) and a and a[0] == "err":
        return isinstance(b, tuple) and len(b) == 3 and b[0] == "err" and a[1] == b[1]
    if isinstance(a, (tuple, list)) and isinstance(b, (tuple, list)):
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b))
    return a == b


def first_diff(w: dict, g: dict) -> tuple[int, str] | None:
    if "crash" in w or "crash" in g:
        return (-1, f"crash TF={'crash' in w} sd={'crash' in g}")
    for i, ((st, x), (_, y)) in enumerate(zip(w["rec"], g["rec"])):
        if not same(x, y):
            return (i, f"{st}\n    TF: {str(x)[:500]}\n    sd: {str(y)[:500]}")
    if len(w["rec"]) != len(g["rec"]):
        return (len(w["rec"]), "record lengths differ")
    return None


def main() -> int:
    if sys.argv[1] == "--ps-one":
        ps_one(int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4]), sys.argv[5])
        return 0
    if sys.argv[1] == "--worker":
        worker(sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), int(sys.argv[5]), int(sys.argv[6]), sys.argv[7])
        return 0
    ap = argparse.ArgumentParser()
    ap.add_argument("seed", type=int)
    ap.add_argument("n", type=int)
    ap.add_argument("--show", type=int, default=40)
    ap.add_argument("--steps", type=int, default=10)
    ap.add_argument("--print", action="store_true")
    a = ap.parse_args()
    if a.print:
        for k in range(a.n):
            print(f"# program {k}\n{text_of(program(a.seed, k, a.steps))}\n")
        return 0
    want = G.run_backend(__file__, "tf", a.seed, a.n, a.steps)
    got = G.run_backend(__file__, "simdist", a.seed, a.n, a.steps)
    bad = shown = calls = 0
    for k, (w, g) in enumerate(zip(want, got)):
        prog = program(a.seed, k, a.steps)
        calls += len(prog["lines"])
        d = first_diff(w, g)
        if d is None:
            continue
        bad += 1
        if shown < a.show:
            shown += 1
            print(f"=== program {k} (statement {d[0]})\nstrategy = {prog['strategy']}" +
                  (f"  # cluster {prog['ps']}" if "ps" in prog else ""))
            if d[0] >= 1:
                print("\n".join(s for s, _ in prog["lines"][:d[0] - 1]))
            print(f"  >> {d[1]}")
    print(f"PROGRAMS {a.n} CALLS {calls} DISAGREEING PROGRAMS {bad}")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
