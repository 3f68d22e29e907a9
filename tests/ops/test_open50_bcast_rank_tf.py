"""TF 2.21's CPU BinaryOp kernels broadcast at most 5 dimensions after BCast's collapsing (the fiftieth session,
helper open50; clause ops.shape-errors): adjacent dimensions with the same pattern of which operand is 1
merge, dimensions where both are 1 drop; more than 5 runs is UnimplementedError "Broadcast between [x] and [y] is
not supported yet." (eagerly and in a tf.function, whose message TF prefixes with the function's node). Each case:
[label, [dtype, shape] or [error class, message's first 150 characters (eager; None in a tf.function)]].
"""

from __future__ import annotations

from typing import Any

import pytest

import tf_programs
import tf_workers

pytestmark = [pytest.mark.tf, tf_workers.tf_or_golden(__file__)]

SHAPES = {
    "6-D no broadcast": ((2, 1, 2, 1, 2, 1), (2, 1, 2, 1, 2, 1)),
    "6-D six runs": ((2, 1, 2, 1, 2, 1), (1, 2, 1, 2, 1, 2)),
    "6-D against a scalar": ((2, 1, 2, 1, 2, 1), ()),
    "6-D against a vector": ((2, 1, 2, 1, 2, 3), (3,)),
    "6-D two runs": ((2, 3, 4, 5, 6, 7), (1, 1, 1, 1, 6, 7)),
    "6-D five runs": ((2, 3, 4, 5, 6, 7), (2, 1, 4, 1, 6, 7)),
    "6-D six alternating runs": ((2, 3, 4, 5, 6, 7), (1, 3, 1, 5, 1, 7)),
    "7-D six runs": ((2, 3, 2, 3, 2, 3, 2), (2, 1, 2, 1, 2, 1, 2)),
    "8-D ones between": ((1, 1, 1, 1, 1, 1, 1, 2), (2, 1, 1, 1, 1, 1, 1, 1)),
    "6-D six runs, empty": ((2, 1, 2, 1, 0, 1), (1, 2, 1, 2, 1, 2)),
}


def program(tf: Any, case: dict, workdir: str) -> Any:
    out: list[Any] = []
    ops = {"add": tf.add, "multiply": tf.multiply, "subtract": tf.subtract, "maximum": tf.maximum,
           "less": tf.less, "equal": tf.equal, "pow": tf.pow, "divide": tf.divide,
           "squared_difference": tf.math.squared_difference, "floormod": tf.math.floormod,
           "atan2": tf.math.atan2, "where": lambda x, y: tf.where(tf.cast(x, tf.bool), x, y)}
    for label, (sa, sb) in SHAPES.items():
        a, b = tf.zeros(sa), tf.ones(sb)
        names = list(ops) if case["name"] == "eager" else ["add", "less", "where"]
        for name in names:
            fn = ops[name] if case["name"] == "eager" else tf.function(ops[name])
            try:
                r = fn(a, b)
                out.append([f"{label} {name}", [r.dtype.name, list(r.shape)]])
            except BaseException as e:  # noqa: BLE001 - the class and text are what is compared
                # (in a tf.function TF's text is the graph run's "Graph execution error:" and the node's
                # traceback, which simdist does not model: the class only)
                msg = str(e).split("\n")[0][:150] if case["name"] == "eager" else None
                out.append([f"{label} {name}", [type(e).__name__, msg]])
        if case["name"] == "eager":
            ia, ib = tf.cast(a, tf.int32), tf.cast(b, tf.int32)
            for name, fn in [("int32 add", lambda: ia + ib), ("logical_and", lambda: tf.logical_and(
                    tf.cast(a, tf.bool), tf.cast(b, tf.bool)))]:
                try:
                    r = fn()
                    out.append([f"{label} {name}", [r.dtype.name, list(r.shape)]])
                except BaseException as e:  # noqa: BLE001
                    out.append([f"{label} {name}", [type(e).__name__, str(e).split("\n")[0][:150]]])
    return out


NAMES = ["eager", "function"]
CASES: dict[str, dict] = {n: {"strategy": "default", "name": n} for n in NAMES}


@pytest.fixture(scope="module")
def tf_results(request: Any) -> dict[int, Any]:
    return tf_programs.spawn(__file__, CASES, tf_programs.selected(request, __file__))


@pytest.mark.clause("ops.shape-errors")
@pytest.mark.parametrize("index", range(len(NAMES)), ids=NAMES)
def test_broadcast_rank_as_tf(index: int, tf_results: dict[int, Any], tmp_path: Any) -> None:
    name = NAMES[index]
    got, want = tf_programs.on_simdist(program, CASES[name], str(tmp_path)), tf_results[index]
    assert [g[0] for g in got] == [w[0] for w in want], f"{name}: labels differ"
    bad = [f"{w[0]}: simdist gives {g[1]}, TF 2.21 gives {w[1]}" for g, w in zip(got, want) if g != w]
    assert not bad, f"{name}: {len(bad)} of {len(want)} differ:\n" + "\n".join(bad)


if __name__ == "__main__":  # TF worker
    tf_workers.serve(tf_programs.worker(CASES, program))
