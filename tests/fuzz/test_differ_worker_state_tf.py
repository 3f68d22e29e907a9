"""The TF worker's per-program reset of the variable scope (differ._fresh_variable_scope, spec
`ops.fuzz4`): TF 2.21's map_fn, raising its scalar ValueError while a tf.function traces, leaves the
root variable scope's caching device set, and every later MirroredStrategy.run of the process
raises NotImplementedError; the reset gives the next program a fresh process's scope. Runs TF in
a subprocess (the leak is process-wide). Needs the `tf` extra."""

from __future__ import annotations

import importlib.util
import os
import subprocess
import sys

import pytest

needs_tf = pytest.mark.skipif(importlib.util.find_spec("tensorflow") is None,
                              reason="real TensorFlow is not installed (pip install -e .[tf])")
clause = pytest.mark.clause

_SCRIPT = r"""
import sys
sys.path.insert(0, sys.argv[1])
import tensorflow as tf
import differ
try:
    tf.function(lambda: tf.nn.ctc_unique_labels(2))()
except ValueError:
    pass
strategy = tf.distribute.MirroredStrategy(["/cpu:0"])
def run():
    try:
        return repr(int(strategy.run(lambda: tf.add(1, 2))))
    except Exception as e:
        return type(e).__name__
print("leaked", run())
differ._fresh_variable_scope(tf)
print("fresh", run())
"""


@needs_tf
@clause("ops.fuzz4")
def test_worker_drops_the_scope_map_fn_leaks() -> None:
    here = os.path.dirname(os.path.abspath(__file__))
    env = dict(os.environ, TF_CPP_MIN_LOG_LEVEL="3")
    out = subprocess.run([sys.executable, "-c", _SCRIPT, here], capture_output=True, text=True, env=env,
                         timeout=300)
    lines = dict(line.split(" ", 1) for line in out.stdout.splitlines() if line.startswith(("leaked ", "fresh ")))
    assert lines.get("leaked") == "NotImplementedError", \
        f"strategy.run after map_fn's traced ValueError gave {lines.get('leaked')!r}, but TF 2.21 should raise " \
        f"NotImplementedError (the leak the reset is for); stderr tail: {out.stderr[-500:]}"
    assert lines.get("fresh") == "3", \
        f"strategy.run after differ._fresh_variable_scope gave {lines.get('fresh')!r}, but should give 3"


_SEED_SCRIPT = r"""
import sys
sys.path.insert(0, sys.argv[1])
import tensorflow as tf
import differ
draw = lambda: float(tf.random.uniform([], seed=7))
print("fresh", repr(draw()))
tf.random.set_seed(5)
draw()
differ._fresh_program_state(tf)
print("after", repr(draw()))
"""


@needs_tf
@clause("ops.fuzz4")
def test_worker_starts_each_program_without_a_global_seed() -> None:
    """An earlier program's tf.random.set_seed and its seeded draws do not reach the next program:
    after differ._fresh_program_state a seeded op draws what a fresh process draws first, as
    simdist's side (run_on_simdist) starts every program (fz26b, fz14 seed 1420262601 #236)."""
    here = os.path.dirname(os.path.abspath(__file__))
    env = dict(os.environ, TF_CPP_MIN_LOG_LEVEL="3")
    out = subprocess.run([sys.executable, "-c", _SEED_SCRIPT, here], capture_output=True, text=True, env=env,
                         timeout=300)
    lines = dict(line.split(" ", 1) for line in out.stdout.splitlines() if line.startswith(("fresh ", "after ")))
    assert "fresh" in lines and lines.get("after") == lines["fresh"], \
        f"uniform(seed=7) after set_seed(5) and differ._fresh_program_state drew {lines.get('after')!r}, but " \
        f"should draw a fresh process's first value {lines.get('fresh')!r}; stderr tail: {out.stderr[-500:]}"
