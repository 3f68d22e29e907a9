"""The scaffolding of the table-driven TF differential modules of tests/keras
(test_layers_rnn_tf, test_attention_tf, test_mixed_precision_tf): a module lists its cases (each
with `.name`, `.clause`, `.strategy`, `.rtol`) and one program `run(tf, case)` that runs on both
backends; this module runs TF's side in worker processes (tf_workers.spawn), simdist's side on a
fresh simulated machine, and a training program's steps under any strategy, ParameterServerStrategy
included (a ClusterCoordinator scheduling each step, as TF requires).
"""

from __future__ import annotations

from typing import Any, Callable, Sequence

import numpy as np
import pytest

import tf_workers
from tf_programs import four_cpus

PSS = "pss"          # a case's strategy: ParameterServerStrategy on 2 workers and 1 ps
_TF_RESOLVER: list[Any] = []


def worker(cases: Sequence[Any], run: Callable[[Any, Any], Any]) -> Callable[[list[int]], dict[int, Any]]:
    """The TF worker of a module (`tf_workers.serve(worker(CASES, run))`): real TF's answers."""
    def answers(indices: list[int]) -> dict[int, Any]:
        import tensorflow as tf
        four_cpus(tf)
        return {i: run(tf, cases[i]) for i in indices}
    return answers


def spawn(module_file: str, cases: Sequence[Any]) -> dict[int, Any]:
    """TF's answers to every case. The ParameterServerStrategy cases run in a process of their
    own: once TF's context has connected to a cluster it is not a local one any more."""
    groups: dict[bool, list[int]] = {}
    for i, c in enumerate(cases):
        groups.setdefault(getattr(c, "strategy", "") == PSS, []).append(i)
    out: dict[int, Any] = {}
    for indices in groups.values():
        out.update(tf_workers.spawn(module_file, indices))
    return out


def results_fixture(module_file: str, cases: Sequence[Any]) -> Any:
    """A module's `tf_results` fixture: TF's answers to its cases, spawned once per module."""
    @pytest.fixture(scope="module")
    def tf_results() -> dict[int, Any]:
        return spawn(module_file, cases)
    return tf_results


def check(cases: Sequence[Any], run: Callable[[Any, Any], Any], index: int, tf_results: dict[int, Any]) -> None:
    """simdist's answer to case `index` against TF's (test_layers_conv_norm_tf.assert_same, the case's rtol)."""
    from test_layers_conv_norm_tf import assert_same
    case = cases[index]
    assert_same(on_simdist(run, case), tf_results[index], case.name, case.rtol)


def on_simdist(run: Callable[[Any, Any], Any], case: Any) -> Any:
    """simdist's answer to a case, on a fresh simulated machine with 4 CPUs."""
    import simdist
    from simdist import tf
    simdist.reset()
    four_cpus(tf)
    return run(tf, case)


def params(cases: Sequence[Any], clause: str) -> list[Any]:
    """The indices of a clause's cases, as pytest params named by the case."""
    return [pytest.param(i, id=c.name) for i, c in enumerate(cases) if c.clause == clause]


def strategy(tf: Any, name: str) -> Any:
    """A strategy by name: "default", "pss", or one of test_layers_conv_norm_tf's
    ("mirrored2", "central2", "one_device1")."""
    if name == "default":
        return tf.distribute.get_strategy()
    if name == PSS:
        return pss_strategy(tf)
    from test_layers_conv_norm_tf import _strategy
    return _strategy(tf, name)


def pss_strategy(tf: Any) -> Any:
    """A new ParameterServerStrategy on a cluster of 2 workers and 1 ps: real TF's in-process
    servers (started once per TF process, as the conformance suite's TF backend starts them),
    or a simulated cluster."""
    if tf.__name__ != "tensorflow":
        import ps_helpers
        return ps_helpers.pss(workers=2, ps=1)
    if not _TF_RESOLVER:
        from simdist.conformance.backends.tf_backend import _free_port, start_in_process_servers
        spec, servers = start_in_process_servers(tf, 2, 1)
        spec = dict(spec, chief=[f"localhost:{_free_port()}"])
        _TF_RESOLVER.append(tf.distribute.cluster_resolver.SimpleClusterResolver(
            tf.train.ClusterSpec(spec), rpc_layer="grpc", task_type="chief", task_id=0))
        _TF_RESOLVER.append(servers)   # (kept alive with the process)
    return tf.distribute.experimental.ParameterServerStrategy(_TF_RESOLVER[0])


def arr(t: Any) -> np.ndarray:
    return np.asarray(t.numpy() if hasattr(t, "numpy") else t)


def train_steps(tf: Any, strategy: Any, replica_step: Callable[[Any, Any], Any], x: np.ndarray, y: np.ndarray,
                batch: int, function: bool = False, after: Callable[[], Any] | None = None) -> list[Any]:
    """`replica_step(xb, yb)` over the global batches of (x, y), each step's result summed over
    the replicas, plus `after()`'s value after each step when given. Under ParameterServerStrategy
    each step is a tf.function (strategy.run of the replica step) that a ClusterCoordinator
    schedules and that is joined before the next (TF's results are then deterministic); under
    the others the steps run over `experimental_distribute_dataset` (in a tf.function if
    `function`)."""
    out: list[Any] = []
    if isinstance(strategy, tf.distribute.experimental.ParameterServerStrategy):
        coordinator = tf.distribute.experimental.coordinator.ClusterCoordinator(strategy)

        @tf.function
        def scheduled(xb: Any, yb: Any) -> Any:
            return strategy.run(replica_step, args=(xb, yb))
        for k in range(0, len(x), batch):
            rv = coordinator.schedule(scheduled, args=(tf.constant(x[k:k + batch]), tf.constant(y[k:k + batch])))
            coordinator.join()
            out.append(arr(rv.fetch()) if after is None else (arr(rv.fetch()), after()))
        return out

    def step(xb: Any, yb: Any) -> Any:
        return strategy.reduce("SUM", strategy.run(replica_step, args=(xb, yb)), axis=None)
    if function:
        step = tf.function(step)
    for xb, yb in strategy.experimental_distribute_dataset(tf.data.Dataset.from_tensor_slices((x, y)).batch(batch)):
        result = arr(step(xb, yb))
        out.append(result if after is None else (result, after()))
    return out
