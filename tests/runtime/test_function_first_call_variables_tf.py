"""A tf.function that creates its variables on its first call (the singleton pattern TF's guide
shows, and Keras's lazily built optimizer slots): simdist vs TF 2.21 (clause function.trace-once).

TF 2.21 runs the Python twice (the first call's trace creates the variable, the next trace runs
without creating one) and the graph after; simdist runs the first call eagerly, records the
second, and replays after: the same number of Python runs and the same values. A function that
creates a variable on every call raises TF's singleton ValueError from its second call on in
simdist (clause function.variable-singletons; TF 2.21 raises it on the first call already, whose
second trace simdist does not run). TF runs in a subprocess (tf_workers.spawn; this module is its worker).
"""

from __future__ import annotations

from typing import Any

import pytest

import tf_workers

pytestmark = [pytest.mark.tf, tf_workers.tf_or_golden(__file__)]

CALLS = 4


def program(tf: Any) -> dict[str, Any]:
    runs: list[int] = []

    class Scale:
        def __init__(self) -> None:
            self.v = None

        @tf.function
        def __call__(self, x: Any) -> Any:
            runs.append(1)
            if self.v is None:
                self.v = tf.Variable(2.0)
            self.v.assign_add(1.0)
            return x * self.v

    s = Scale()
    outs = [float(s(tf.constant(1.5)).numpy()) for _ in range(CALLS)]
    return {"python_runs": len(runs), "outputs": outs, "variable": float(s.v.numpy())}


def _tf_worker(indices: list[int]) -> dict[int, Any]:
    import tensorflow as tf
    return {i: program(tf) for i in indices}


@pytest.mark.clause("function.trace-once")
def test_variables_created_on_the_first_call_then_replayed() -> None:
    import simdist
    from simdist import tf
    from simdist.runtime import graph
    simdist.reset()
    want = tf_workers.spawn(__file__, [0])[0]
    got = program(tf)
    assert got == want, f"simdist {got}, but TF 2.21 {want} ({CALLS} calls of a function creating its variable once)"

    made: list[Any] = []

    @tf.function
    def every_call(x: Any) -> Any:
        made.append(tf.Variable(1.0))
        return x * made[-1]

    every_call(tf.constant(2.0))
    for call in (2, 3):
        with pytest.raises(ValueError, match="only supports singleton tf.Variables created on the first call"):
            every_call(tf.constant(2.0))
    assert len(made) == 1, f"call {call} of a function creating a variable on every call created {len(made) - 1} " \
        "more, but TF's later traces refuse the creation (singleton ValueError)"


if __name__ == "__main__":
    tf_workers.serve(_tf_worker)
