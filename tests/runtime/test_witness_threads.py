"""A trace's witness is asked whatever other threads the process runs (clause function.trace-once, "fix67t").

TF 2.21 runs a tf.function's Python once for an input_signature with an unknown dimension, whatever shapes the
calls bring (tests/runtime/test_fix67t_one_trace_any_shape_tf.py compares that count with TF's, recorded live).
simdist learns that one trace serves a new shape from a recording made in a forked copy of the process
(runtime/graph/witness.py); the count must not change because another Python thread is alive (lead67: asked only
with one thread alive, the differential test failed in the full run behind a module that left a thread running).
"""

from __future__ import annotations

import threading

from simdist import tf


def _python_runs_over_shapes() -> int:
    runs = []

    @tf.function(input_signature=[tf.TensorSpec([None], tf.float32)])
    def f(x):
        runs.append(1)
        return x * 2.0 + 1.0

    for n in (2, 3, 5):
        out = f(tf.ones([n]))
        assert out.shape == (n,), f"out.shape={out.shape}, but should be ({n},) [f of ones([{n}])]"
    return len(runs)


def test_one_trace_serves_every_shape_with_another_thread_alive() -> None:
    release = threading.Event()
    other = threading.Thread(target=release.wait, daemon=True)
    other.start()
    try:
        runs = _python_runs_over_shapes()
    finally:
        release.set()
        other.join()
    alone_count = _python_runs_over_shapes()
    assert runs == alone_count == 1, (
        f"the Python ran {runs} times with another thread alive and {alone_count} times alone over shapes [2], [3],"
        " [5] of a TensorSpec([None]) signature, but TF 2.21 runs it once (one trace)")
