"""simdist's tf.print beyond what tests/ops/test_print_tf.py compares with TF (clause ops.print):
the log levels reach Python's "tensorflow" logger, a concrete function's trace prints nothing,
a recorded tf.function call replays its PrintV2 without running the Python, the error texts."""

from __future__ import annotations

import logging

import pytest

from simdist import tf
from simdist.runtime import graph
from simdist.runtime.ops import printing

clause = pytest.mark.clause


@clause("ops.print")
def test_log_levels_go_to_the_tensorflow_logger(caplog: pytest.LogCaptureFixture, capfd: pytest.CaptureFixture) -> None:
    capfd.readouterr()
    with caplog.at_level(logging.INFO, logger="tensorflow"):
        tf.print("info", tf.constant([1, 2]), output_stream=logging.INFO)
        tf.print("warn", output_stream=logging.WARNING, end="!")
        tf.print("error", output_stream=logging.ERROR)
    got = [(r.levelno, r.getMessage()) for r in caplog.records if r.name == "tensorflow"]
    want = [(logging.INFO, "info [1 2]\n"), (logging.WARNING, "warn!"), (logging.ERROR, "error\n")]
    assert got == want, f"logged {got}, but should be {want}"
    out, err = capfd.readouterr()
    assert (out, err) == ("", ""), f"log levels wrote stdout={out!r} stderr={err!r}, but should write neither"


@clause("ops.print")
def test_concrete_function_trace_prints_nothing(capfd: pytest.CaptureFixture) -> None:
    @tf.function
    def f(x: tf.Tensor) -> tf.Tensor:
        tf.print("run", x)
        return x

    capfd.readouterr()
    c = f.get_concrete_function(tf.TensorSpec([], tf.int32))
    traced = capfd.readouterr().err
    c(tf.constant(5))
    f(tf.constant(6))
    err = capfd.readouterr().err
    assert (traced, err) == ("", "run 5\nrun 6\n"), \
        f"trace printed {traced!r} and the calls {err!r}, but should be '' and 'run 5\\nrun 6\\n'"


@clause("ops.print")
def test_recorded_call_replays_the_print(capfd: pytest.CaptureFixture) -> None:
    runs = []

    @tf.function
    def f(x: tf.Tensor) -> tf.Tensor:
        runs.append(1)
        y = x * 2
        tf.print("y", y)
        return y + 1

    capfd.readouterr()
    for v in (1, 2, 3):
        f(tf.constant(v))
    err = capfd.readouterr().err
    assert (len(runs), err) == (1, "y 2\ny 4\ny 6\n"), \
        f"the Python ran {len(runs)} times and printed {err!r}, but should run once and print 'y 2\\ny 4\\ny 6\\n'"
    how = graph.explain(f)
    assert how.startswith("replays a recorded graph"), f"explain(f) = {how!r}, but f should replay a recorded graph"


@clause("ops.print")
def test_print_v2_op_rules() -> None:
    op = printing.PRINT_V2
    assert op.stateful and op.kind == "io", f"PrintV2 stateful={op.stateful} kind={op.kind!r}, but should be " \
        "stateful (TF's is: kept and run at every call) and of kind 'io'"
    with pytest.raises(tf.errors.InvalidArgumentError, match="Unknown output stream: , Valid streams are: stdout"):
        tf.print(1, output_stream="file://")
    with pytest.raises(tf.errors.NotFoundError, match="/nonexistent_simdist_dir/x; No such file or directory"):
        tf.print(1, output_stream="file:///nonexistent_simdist_dir/x")
    with pytest.raises(TypeError, match="Expected int for argument 'summarize' not '2'"):
        tf.print(1, tf.constant(1), summarize="2")
