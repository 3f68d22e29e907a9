"""Differential test of a Keras variable over a ShardedVariable (clause keras.variable.sharded):
simdist vs TF 2.21 + Keras 3.15.1.

Under ParameterServerStrategy with a variable_partitioner, a Keras layer's weight whose
partitioner result has more than one shard is a `keras.Variable` whose `.value` is a
ShardedVariable. The program (the same on both backends; TF on an in-process gRPC cluster of one
worker and two ps tasks, this process the chief, in a subprocess) builds the parameter-server
tutorial's model with its partitioner, and records what works (weights, shards and placement,
get/set_weights, forward, conversions, regularization losses, gradients through the shards,
optimizer slots) and what fails, with the error's class and message (tape.gradient on
model.trainable_variables, tape.watch, np.asarray, apply_gradients, save_weights, checkpoints).
Floats within rtol 1e-5 (a 16384-long dot product summed in another order); all else exact.
"""

from __future__ import annotations

import os
import re
import sys
import tempfile
from typing import Any, Callable

import numpy as np
import pytest

import tf_workers
from diff_helpers import compare_with_tf

pytestmark = [pytest.mark.tf, tf_workers.tf_or_golden(__file__)]

RTOL, ATOL_SCALE = 1e-5, 1e-6


def _norm_message(msg: str) -> str:
    """Less what is not behaviour: object reprs with addresses, temporary paths, kernel-error decorations."""
    msg = re.sub(r"<[\w.]+\.(\w+) object at 0x[0-9a-f]+>", r"<\1 object>", msg)
    msg = re.sub(r"/tmp/\S+", "<tmp>", msg)
    return re.sub(r"(\[Op:\w+\]) name: .*$", r"\1", msg, flags=re.S)


def _try(fn: Callable[[], Any]) -> Any:
    try:
        return ("ok", fn())
    except Exception as e:  # noqa: BLE001 - the error is the result
        return ("raised", type(e).__name__, _norm_message(str(e)))


def _value_kind(v: Any) -> Any:
    """A tf.Variable-like value: ("sharded", [(name, shape, device)...]) or ("variable", device)."""
    if isinstance(getattr(v, "variables", None), list) and not hasattr(v, "device"):
        return ("sharded", [(s.name, tuple(s.shape), s.device) for s in v.variables])
    return ("variable", v.device)


def _grad(tf: Any, g: Any) -> Any:
    if g is None:
        return None
    if type(g).__name__ == "IndexedSlices":
        idx, vals = np.asarray(g.indices.numpy()), np.asarray(g.values.numpy())
        order = np.argsort(idx, kind="stable")
        return ("IndexedSlices", idx[order], vals[order], np.asarray(tf.convert_to_tensor(g.dense_shape).numpy()))
    return ("Tensor", np.asarray(g.numpy()))


def program(tf: Any, resolver: Any, partitioner: str) -> dict[str, Any]:
    P = tf.distribute.experimental.partitioners
    part = {"min": lambda: P.MinSizePartitioner(min_shard_bytes=(256 << 10), max_shards=2),
            "fixed": lambda: P.FixedShardsPartitioner(2)}[partitioner]()
    strategy = tf.distribute.ParameterServerStrategy(resolver, variable_partitioner=part)
    tf.keras.backend.clear_session()
    out: dict[str, Any] = {}
    with strategy.scope():
        inp = tf.keras.layers.Input(shape=(3,), dtype=tf.int64)
        emb = tf.keras.layers.Embedding(8, 16384, embeddings_regularizer=tf.keras.regularizers.L2(1e-4))
        pooled = tf.keras.layers.GlobalAveragePooling1D()(emb(inp))
        y = tf.keras.layers.Dense(1, activation="sigmoid", kernel_regularizer=tf.keras.regularizers.L2(1e-4))(pooled)
        model = tf.keras.Model(inp, y)
        opt = tf.keras.optimizers.Adam(0.01)
        out["optimizer.build"] = _try(lambda: opt.build(model.trainable_variables))
        out["slots"] = [(v.path, tuple(v.shape), _value_kind(v.value)) for v in opt.variables]
    out["weights"] = [(w.path, w.name, tuple(w.shape), w.dtype, w.trainable, _value_kind(w.value))
                      for w in model.weights]
    out["count_params"] = model.count_params()
    rng = np.random.default_rng(1)
    ws = [(rng.standard_normal(w.shape) * 0.05).astype(np.float32) for w in model.get_weights()]
    model.set_weights(ws)
    got = model.get_weights()
    out["get_weights"] = [(a.shape, a.dtype.name, bool(np.array_equal(a, b))) for a, b in zip(got, ws)]
    kv = model.weights[0]
    out["shards hold the rows"] = [np.asarray(s.numpy()) for s in kv.value.variables] \
        if _value_kind(kv.value)[0] == "sharded" else None
    x = np.array([[1, 2, 3], [4, 5, 0], [7, 7, 6]], np.int64)
    out["forward"] = np.asarray(model(x).numpy())
    out["losses"] = [np.asarray(v.numpy()) for v in model.losses]
    out["kv.numpy"] = _try(lambda: kv.numpy()[::3, ::4096])
    out["convert_to_tensor"] = _try(lambda: np.asarray(tf.convert_to_tensor(kv).numpy()[::3, ::4096]))
    out["kv * 2"] = _try(lambda: np.asarray((kv * 2.0).numpy()[::3, ::4096]))
    out["np.asarray(kv)"] = _try(lambda: np.asarray(kv).shape)
    out["kv.assign"] = _try(lambda: kv.assign(ws[0] + 1.0) is not None and np.asarray(kv.numpy()[::3, ::4096]))
    kv.assign(ws[0])
    out["kv.value.device"] = _try(lambda: kv.value.device)

    def grads(sources: Callable[[], list]) -> Any:
        with tf.GradientTape() as tape:
            loss = tf.reduce_sum(model(x)) + tf.add_n(model.losses)
        return [_grad(tf, g) for g in tape.gradient(loss, sources())]
    out["grad trainable_variables"] = _try(lambda: grads(lambda: model.trainable_variables))
    out["grad values"] = _try(lambda: grads(lambda: [w.value for w in model.trainable_variables]))
    out["grad shards"] = _try(lambda: grads(lambda: list(kv.value.variables) + model.trainable_variables[1:]))

    def lookup_grads() -> Any:   # no dense read of the table: each shard's gradient is IndexedSlices
        with tf.GradientTape() as tape:
            loss = tf.reduce_sum(model(x))
        return [_grad(tf, g) for g in tape.gradient(loss, list(kv.value.variables))]
    out["grad shards, lookup only"] = _try(lookup_grads)

    def watch() -> None:
        with tf.GradientTape() as tape:
            tape.watch(kv)
    out["watch"] = _try(watch)[:2]
    out["apply_gradients"] = _try(lambda: opt.apply_gradients(
        zip([tf.ones(w.shape) for w in model.trainable_variables], model.trainable_variables)) and None)
    out["after failed apply"] = [np.asarray(w.numpy()).ravel()[:4] for w in model.weights]
    d = tempfile.mkdtemp()
    out["save_weights"] = _try(lambda: model.save_weights(os.path.join(d, "m.weights.h5")))
    out["checkpoint save"] = _try(lambda: bool(tf.train.Checkpoint(layer=emb).save(os.path.join(d, "ck"))))
    plain_emb = tf.keras.layers.Embedding(8, 16384)   # (outside the scope: one variable)
    plain_emb.build()
    plain = tf.train.Checkpoint(layer=plain_emb).save(os.path.join(d, "plain"))
    out["checkpoint restore"] = _try(lambda: tf.train.Checkpoint(layer=emb).restore(plain) and None)
    return out


CASES = ["min", "fixed"]


def _tf_worker(indices: list[int]) -> dict[int, Any]:
    import tensorflow as tf

    from simdist.conformance.backends.tf_backend import _free_port, start_in_process_servers
    spec, servers = start_in_process_servers(tf, 1, 2, inter_op_threads=8)
    spec = {"chief": [f"localhost:{_free_port()}"], **spec}
    resolver = tf.distribute.cluster_resolver.SimpleClusterResolver(
        tf.train.ClusterSpec(spec), rpc_layer="grpc", task_type="chief", task_id=0)
    out = {}
    for i in indices:
        try:
            out[i] = program(tf, resolver, CASES[i])
        except Exception as e:  # noqa: BLE001 - reported by the test
            out[i] = {"worker_error": f"{type(e).__name__}: {e}"}
    del servers
    return out


@pytest.fixture(scope="module")
def tf_results() -> dict[int, Any]:
    return tf_workers.spawn(__file__, list(range(len(CASES))))


def _compare(got: Any, want: Any, where: str) -> None:
    compare_with_tf(got, want, where, rtol=RTOL, atol_scale=ATOL_SCALE / RTOL)


@pytest.mark.clause("keras.variable.sharded")
@pytest.mark.parametrize("index", range(len(CASES)), ids=CASES)
def test_sharded_keras_variable_matches_tf(index: int, tf_results: dict[int, Any]) -> None:
    import simdist
    from simdist import tf
    want = tf_results[index]
    assert "worker_error" not in want, f"the TF program failed: {want.get('worker_error')}"
    simdist.reset()
    spec = tf.train.ClusterSpec({"chief": ["chief:1"], "worker": ["w0:1"], "ps": ["p0:1", "p1:1"]})
    resolver = tf.distribute.cluster_resolver.SimpleClusterResolver(spec, rpc_layer="grpc", task_type="chief",
                                                                     task_id=0)
    try:
        got = program(tf, resolver, CASES[index])
    finally:
        simdist.reset()
    _compare(got, want, CASES[index])


if __name__ == "__main__":
    sys.path.insert(0, str(__import__("pathlib").Path(__file__).resolve().parent.parent))
    tf_workers.serve(_tf_worker)
    os._exit(0)  # in-process servers never shut down cleanly
