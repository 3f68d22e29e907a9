"""The last session's op-level leftovers, observed on TF 2.21 (the fifty-first session, helper open51; clauses
ops.raw-ops and run.per-replica): MirroredStrategy.run with a RaggedTensor argument and result (a
PerReplica of RaggedTensors; eager and in a tf.function), BroadcastTo beyond rank 5 (TF's kernel has no rank
limit there: ranks 5 to 10 broadcast), raw Empty (zeros with init, strings and bools, its eager errors with TF's
wrapped-function prefix, a constant negative dimension in a tf.function the shape function's ValueError).
Each case: a list of [label, value or [error class, first line]].
"""

from __future__ import annotations

from typing import Any, Callable

import pytest

import tf_programs
import tf_workers

pytestmark = [pytest.mark.tf, tf_workers.tf_or_golden(__file__)]


def _try(out: list, label: str, fn: Callable[[], Any]) -> None:
    try:
        out.append([label, fn()])
    except BaseException as e:  # noqa: BLE001 - the class and text are what is compared
        out.append([label, [type(e).__name__, str(e).split("\n")[0][:160]]])


def program(tf: Any, case: dict, workdir: str) -> Any:
    out: list[Any] = []
    if case["name"] == "ragged_run":
        s = tf.distribute.MirroredStrategy(["/cpu:0", "/cpu:1"])
        rt = tf.ragged.constant([[1.0, 2.0], [3.0]])

        def show(v: Any) -> Any:
            return [type(v).__name__] + [[type(x).__name__.replace("EagerTensor", "Tensor"), x.to_list() if hasattr(x, "to_list") else
                                          x.numpy().tolist()] for x in s.experimental_local_results(v)]
        _try(out, "ragged argument", lambda: show(s.run(lambda r: r * 2.0, args=(rt,))))
        _try(out, "ragged result", lambda: show(s.run(lambda: tf.ragged.constant([[1], [2, 3]]))))
        _try(out, "row_lengths", lambda: show(s.run(lambda r: r.row_lengths(), args=(rt,))))
        _try(out, "reduce_sum rows", lambda: show(s.run(lambda r: tf.reduce_sum(r, axis=1), args=(rt,))))
        _try(out, "strategy.reduce", lambda: float(s.reduce("SUM", s.run(lambda r: tf.reduce_sum(r), args=(rt,)),
                                                             axis=None)))
        _try(out, "in tf.function", lambda: show(tf.function(lambda: s.run(lambda r: r + 1.0, args=(rt,)))()))
    elif case["name"] == "broadcast_rank":
        for r in range(5, 11):
            _try(out, f"[2] to rank {r}", lambda r=r: float(tf.reduce_sum(tf.broadcast_to(tf.constant([1.0, 2.0]),
                                                                                         [2] * r))))
            _try(out, f"[2, 1] int64 to rank {r}", lambda r=r: tf.broadcast_to(tf.constant([[1], [2]], tf.int64),
                                                                               [2] * r).shape.as_list())
            _try(out, f"traced to rank {r}", lambda r=r: tf.function(
                lambda: tf.broadcast_to(tf.constant([1.0, 2.0]), [2] * r))().shape.as_list())
        _try(out, "raw rank 9", lambda: tf.raw_ops.BroadcastTo(input=tf.constant([1.0, 2.0]),
                                                               shape=[1] * 8 + [2]).shape.as_list())
        _try(out, "bool rank 7", lambda: tf.broadcast_to(tf.constant([True, False]), [2] * 7).shape.as_list())
    elif case["name"] == "empty":
        E = tf.raw_ops.Empty
        _try(out, "init", lambda: E(shape=[2, 3], dtype=tf.float32, init=True).numpy().tolist())
        _try(out, "size 0", lambda: E(shape=[2, 0], dtype=tf.float32).shape.as_list())
        _try(out, "string", lambda: E(shape=[2], dtype=tf.string, init=True).numpy().tolist())
        _try(out, "bool", lambda: E(shape=[2], dtype=tf.bool, init=True).numpy().tolist())
        _try(out, "negative", lambda: E(shape=[-1, 2], dtype=tf.float32))
        _try(out, "rank-2 shape", lambda: E(shape=[[1, 2]], dtype=tf.float32))
        _try(out, "int64 shape", lambda: E(shape=tf.constant([2], tf.int64), dtype=tf.float32))
        _try(out, "traced", lambda: tf.function(lambda: E(shape=[2, 1], dtype=tf.int32, init=True))().numpy()
             .tolist())
        _try(out, "traced -2", lambda: tf.function(lambda: E(shape=[-2, 1], dtype=tf.int32, init=True))())
    return out


NAMES = ["ragged_run", "broadcast_rank", "empty"]
CASES: dict[str, dict] = {"ragged_run": {"strategy": "mirrored2", "name": "ragged_run"},
                          "broadcast_rank": {"strategy": "default", "name": "broadcast_rank"},
                          "empty": {"strategy": "default", "name": "empty"}}


@pytest.fixture(scope="module")
def tf_results(request: Any) -> dict[int, Any]:
    return tf_programs.spawn(__file__, CASES, tf_programs.selected(request, __file__))


def _key(v: Any) -> Any:
    """An error's text up to TF's first ' for ' (simdist's shape function names the node on the same line)."""
    if isinstance(v, list) and len(v) == 2 and isinstance(v[0], str) and v[0].endswith("Error"):
        return [v[0], v[1].split(" for '{{node")[0]]
    return v


@pytest.mark.clause("ops.raw-ops")
@pytest.mark.parametrize("index", range(len(NAMES)), ids=NAMES)
def test_leftovers_as_tf(index: int, tf_results: dict[int, Any], tmp_path: Any) -> None:
    name = NAMES[index]
    got, want = tf_programs.on_simdist(program, CASES[name], str(tmp_path)), tf_results[index]
    assert [g[0] for g in got] == [w[0] for w in want], f"{name}: labels differ"
    bad = [(w[0], g[1], w[1]) for g, w in zip(got, want) if _key(g[1]) != _key(w[1])]
    assert not bad, f"{name}: {len(bad)} entries differ (label, simdist, TF 2.21): {bad}"


if __name__ == "__main__":  # TF worker
    tf_workers.serve(tf_programs.worker(CASES, program))
