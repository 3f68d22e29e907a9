"""Where TF 2.21 can overlap gradient communication with the backward pass (docs/simulator.md,
"Overlap of gradient communication with the backward pass"), observed on TF's own graphs.

In a `tf.function`, a replica-context all-reduce of a list of gradients becomes one
`CollectiveReduceV2` per pack (`cross_device_utils.group_by_size`). The graph says what each pack
waits for: its ancestors (data and control inputs, transitively) are the MatMuls that produce its
gradients and the packs before it (chained by the launcher's ordering token through automatic
control dependencies). One pack (``bytes_per_pack=0``, the default) waits for the whole backward
pass; several packs wait for the part of it that produces their gradients, so the first can run
while backprop computes the earlier layers' gradients. simdist models this for
MultiWorkerMirroredStrategy (timing.PackChain; tests/strategies/test_pack_overlap.py checks that the
time changes only in that case; docs/simulator.md).

The module doubles as its TF worker (tests/tf_workers.py): case 0 is MirroredStrategy on two
logical CPUs; case 1 is MultiWorkerMirroredStrategy with two local worker processes, the pack
size set on the strategy's `communication_options` and not on the call (what Keras's optimizer
does: `replica_context.all_reduce(SUM, grads)` without options).
"""

from __future__ import annotations

import importlib.util
import json
import os
import socket
import subprocess
import sys
from typing import Any

import pytest

# TF's own graphs are the subject (nothing of simdist runs): live TF only, no golden.
pytestmark = [pytest.mark.tf, pytest.mark.skipif(importlib.util.find_spec("tensorflow") is None,
                                                 reason="needs TensorFlow 2.21 (the tf extra)")]

LAYERS = 6            # dense 64x64 float32 layers: 16 KiB of gradient each
PACK = 16 * 1024      # group_by_size closes a pack once it holds more than this: 2 gradients per pack


def _graph_facts(strategy: Any, options: Any) -> list[tuple[int, int]]:
    """Per CollectiveReduceV2 of replica 0's step (in creation order): (MatMuls among its
    ancestors, CollectiveReduceV2s among its ancestors)."""
    import tensorflow as tf

    with strategy.scope():
        ws = [tf.Variable(tf.ones([64, 64]) * 0.01, name=f"w{i}") for i in range(LAYERS)]
    x = tf.ones([8, 64])

    @tf.autograph.experimental.do_not_convert
    def fn() -> Any:
        with tf.GradientTape() as tape:
            h = x
            for w in ws:
                h = tf.tanh(h @ w)
            loss = tf.reduce_sum(h)
        grads = tape.gradient(loss, ws)
        return tf.distribute.get_replica_context().all_reduce("sum", grads, options=options)

    g = tf.function(lambda: strategy.run(fn)).get_concrete_function().graph

    def ancestors(op: Any) -> set:
        seen: set = set()
        todo = [op]
        while todo:
            o = todo.pop()
            for p in [t.op for t in o.inputs] + list(o.control_inputs):
                if p not in seen:
                    seen.add(p)
                    todo.append(p)
        return seen

    colls = [op for op in g.get_operations() if op.type == "CollectiveReduceV2"]
    out = []
    for c in colls:
        anc = ancestors(c)
        out.append((sum(o.type == "MatMul" for o in anc), sum(o.type == "CollectiveReduceV2" for o in anc)))
    per_replica = len(colls) // len(strategy.extended.worker_devices)   # this process's replicas
    return out[:per_replica]


def _mirrored() -> dict[str, list[tuple[int, int]]]:
    import tensorflow as tf

    cpus = tf.config.list_physical_devices("CPU")
    tf.config.set_logical_device_configuration(cpus[0], [tf.config.LogicalDeviceConfiguration()] * 2)
    co = tf.distribute.experimental.CommunicationOptions
    s = tf.distribute.MirroredStrategy(["/cpu:0", "/cpu:1"])
    return {"default": _graph_facts(s, None), "packs": _graph_facts(s, co(bytes_per_pack=PACK))}


def _mwms_worker(index: int, ports: list[int]) -> None:
    """One MWMS worker process: prints its replica's graph facts as JSON."""
    os.environ["TF_CONFIG"] = json.dumps({"cluster": {"worker": [f"localhost:{p}" for p in ports]},
                                          "task": {"type": "worker", "index": index}})
    import tensorflow as tf

    co = tf.distribute.experimental.CommunicationOptions
    s = tf.distribute.MultiWorkerMirroredStrategy(communication_options=co(bytes_per_pack=PACK))
    print(json.dumps(_graph_facts(s, None)), flush=True)


def _mwms() -> list[Any]:
    ports = []
    for _ in range(2):
        with socket.socket() as sk:
            sk.bind(("localhost", 0))
            ports.append(sk.getsockname()[1])
    env = dict(os.environ, TF_CPP_MIN_LOG_LEVEL="3")
    procs = [subprocess.Popen([sys.executable, __file__, "mwms", str(i), ",".join(map(str, ports))],
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env) for i in range(2)]
    outs = []
    for p in procs:
        out, err = p.communicate(timeout=600)
        if p.returncode != 0:
            raise RuntimeError(f"MWMS worker failed (exit {p.returncode}): {err.decode()[-2000:]}")
        outs.append([tuple(x) for x in json.loads(out.decode().strip().splitlines()[-1])])
    return outs


def _worker(indices: list[int]) -> dict[int, Any]:
    cases = {0: _mirrored, 1: _mwms}
    return {i: cases[i]() for i in indices}


def _spawn(case: int) -> Any:
    from tests.tf_workers import spawn

    return spawn(os.path.abspath(__file__), [case])[case]


@pytest.fixture(scope="module")
def mirrored() -> Any:
    return _spawn(0)


# Per replica: 6 forward MatMuls and 11 backward ones (dL/dh of the first layer is not needed).
FORWARD, ALL = LAYERS, LAYERS + 2 * LAYERS - 1


def test_one_pack_waits_for_the_whole_backward_pass(mirrored: Any) -> None:
    got = mirrored["default"]
    assert got == [(ALL, 0)], (f"bytes_per_pack=0: got (MatMuls, collectives) before each pack {got}, but should "
                               f"be one pack after all {ALL} MatMuls [MirroredStrategy, tf.function]")


def test_packs_wait_only_for_their_gradients_and_the_pack_before(mirrored: Any) -> None:
    """Packs follow backprop's order (the gradients reversed: last layer first); pack k waits for
    the forward pass, the backward MatMuls down to its layers, and packs 0..k-1."""
    want = [(FORWARD + 3, 0), (FORWARD + 7, 1), (ALL, 2)]
    got = mirrored["packs"]
    assert got == want, (f"bytes_per_pack={PACK}: got {got}, but should be {want} "
                         f"[(MatMuls, collectives) before each pack; MirroredStrategy, tf.function]")


@pytest.mark.slow   # three TF processes, about a minute
def test_mwms_strategy_pack_size_applies_to_a_call_without_options() -> None:
    """MultiWorkerMirroredStrategy(communication_options=CommunicationOptions(bytes_per_pack=...)):
    on CPUs (merge_call path) the strategy's pack size applies to replica_context.all_reduce
    called without options, as Keras's optimizer calls it."""
    want = [(FORWARD + 3, 0), (FORWARD + 7, 1), (ALL, 2)]
    for w, got in enumerate(_spawn(1)):
        assert got == want, f"worker {w}: got {got}, but should be {want} [MWMS, strategy bytes_per_pack={PACK}]"


if __name__ == "__main__":
    if sys.argv[1] == "mwms":
        _mwms_worker(int(sys.argv[2]), [int(p) for p in sys.argv[3].split(",")])
    else:
        sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))
        from tests.tf_workers import serve

        serve(_worker)
