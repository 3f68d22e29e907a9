"""The per-variable kernels of TF1 BERT's gradient handling, observed on TensorFlow's own XLA
auto-clustering (the premise of `simdist.validation.tf1_launches`; docs/validation.md "The sixth
round").

The graph: a few variables of different shapes and a loss over them, with the gradient handling
written as TF1 BERT's optimization.py (DeepLearningExamples 002bcd8) writes its accumulation branch:
a ``local_step`` counter and ``tf.cond``s on it (v1 control flow), the finite check over every
gradient (mixed precision), ``tf.clip_by_global_norm`` with its norm inside a ``tf.cond``, the
accumulators assigned or ``assign_add``-ed in a ``tf.cond``, and the LAMB update (moments, two
``norm``s, the ratio, three assigns per variable) in a ``tf.cond`` on the optimizer step.
Variables are reference variables in float32 and resource variables in mixed precision, as
run_pretraining.py sets them (``tf.enable_resource_variables()`` only under ``--amp`` with XLA).
The session runs with ``global_jit_level=ON_1`` (``--use_xla``; on a CPU, with
``--tf_xla_cpu_global_jit``) and a full trace of one micro-batch and one optimizer step: the
nodes that ran outside XLA's clusters, and (without XLA) every op that ran, by type.

The module doubles as its TF worker (tests/tf_workers.py). TF's own graph is the subject: live TF
only, no golden.
"""

from __future__ import annotations

import importlib.util
import os
import sys
from collections import Counter
from typing import Any

import pytest

# slow: one TF process (tens of seconds of CPU: four traced sessions); the default run keeps the workload side
# (test_validation_training.py::test_tf1_bert_charges_its_per_variable_launches)
pytestmark = [pytest.mark.tf, pytest.mark.slow,
              pytest.mark.skipif(importlib.util.find_spec("tensorflow") is None,
                                 reason="needs TensorFlow 2.21 (the tf extra)")]

SHAPES = ([8, 6], [6], [6, 5], [5], [5], [4, 5], [4], [3, 4])   # 8 variables
ACC = 3   # micro-batches per optimizer step


def _graph(tf: Any, mixed: bool) -> tuple[Any, Any, Any]:
    """The program's gradient handling over SHAPES (module docstring); returns (graph, train_op, init)."""
    tf1 = tf.compat.v1
    g = tf.Graph()
    with g.as_default():
        if mixed:
            tf1.enable_resource_variables()
        else:
            tf1.disable_resource_variables()
        x = tf1.placeholder(tf.float32, [2, 8], name="x")
        tvars = [tf1.get_variable(f"w{i}", s, initializer=tf1.random_normal_initializer(seed=i))
                 for i, s in enumerate(SHAPES)]
        loss = tf.add_n([tf.reduce_sum(tf.tanh(tf.reduce_mean(x) * v)) for v in tvars])
        grads = tf.gradients(loss * (1.0 / ACC), tvars)
        global_step = tf1.train.get_or_create_global_step()
        local_step = tf1.get_variable("local_step", [], tf.int32, trainable=False, initializer=tf1.zeros_initializer())
        accum = [tf1.get_variable(f"w{i}/accum", s, trainable=False, initializer=tf1.zeros_initializer())
                 for i, s in enumerate(SHAPES)]
        reset = tf.cast(tf.math.equal(local_step % ACC, 0), tf.bool)
        local_step = tf.cond(reset, lambda: local_step.assign(tf.ones_like(local_step)),
                             lambda: local_step.assign_add(1))
        finite = (tf.reduce_all([tf.reduce_all(tf.math.is_finite(gr)) for gr in grads]) if mixed
                  else tf.constant(True))
        clipped, _ = tf.clip_by_global_norm(grads, 1.0, use_norm=tf.cond(finite, lambda: tf.linalg.global_norm(grads),
                                                                         lambda: tf.constant(1.0)))
        accum = tf.cond(reset, lambda: [a.assign(c) for a, c in zip(accum, clipped)],
                        lambda: [a.assign_add(c) for a, c in zip(accum, clipped)])

        def lamb() -> Any:
            gs = [tf.convert_to_tensor(a) for a in accum]
            if mixed:   # the loss-scale optimizer's finite check before it applies (apply_gradients)
                ok = tf.reduce_all([tf.reduce_all(tf.math.is_finite(gr)) for gr in gs])
                gs = [tf.where(ok, gr, tf.zeros_like(gr)) for gr in gs]
            steps = tf.cast(global_step, tf.float32)
            out = []
            for i, (gr, v) in enumerate(zip(gs, tvars)):
                m = tf1.get_variable(f"w{i}/adam_m", SHAPES[i], trainable=False, initializer=tf1.zeros_initializer())
                s = tf1.get_variable(f"w{i}/adam_v", SHAPES[i], trainable=False, initializer=tf1.zeros_initializer())
                nm = 0.9 * m + 0.1 * gr
                nv = 0.999 * s + 0.001 * tf.square(gr)
                upd = (nm / (1 - 0.9 ** steps)) / (tf.sqrt(nv / (1 - 0.999 ** steps)) + 1e-6) + 0.01 * v
                wn, gn = tf.norm(v, ord=2), tf.norm(upd, ord=2)
                ratio = tf.where(wn > 0, tf.where(gn > 0, wn / gn, 1.0), 1.0)
                out += [v.assign(v - ratio * 1e-3 * upd), m.assign(nm), s.assign(nv)]
            return tf.group(*out)

        update_step = tf.cast(tf.math.equal(local_step % ACC, 0), tf.bool)
        update = tf.cond(update_step, lamb, tf.no_op)
        train_op = tf.group(update, accum)
        init = tf1.global_variables_initializer()
    return g, train_op, init


def _trace(mixed: bool, xla: bool) -> dict[str, dict[str, int]]:
    """Op types (graph op, or ``_XlaRun`` / ``_XlaCompile`` for a cluster) of the nodes that ran in the
    second micro-batch (no update) and the third (the optimizer step)."""
    import numpy as np
    import tensorflow as tf

    tf1 = tf.compat.v1
    g, train_op, init = _graph(tf, mixed)
    ops = {n.name: n.op for n in g.as_graph_def().node}
    cfg = tf1.ConfigProto()
    if xla:
        cfg.graph_options.optimizer_options.global_jit_level = tf1.OptimizerOptions.ON_1
    out = {}
    with tf1.Session(graph=g, config=cfg) as sess:
        sess.run(init)
        feed = {g.get_tensor_by_name("x:0"): np.linspace(-1.0, 1.0, 16, dtype=np.float32).reshape(2, 8)}
        for i in range(1, ACC + 1):
            md = tf1.RunMetadata()
            sess.run(train_op, feed, options=tf1.RunOptions(trace_level=tf1.RunOptions.FULL_TRACE), run_metadata=md)
            c: Counter[str] = Counter()
            for dev in md.step_stats.dev_stats:
                for n in dev.node_stats:
                    last = n.node_name.split("/")[-1]
                    c[ops.get(n.node_name) or {"xla_run": "_XlaRun", "xla_compile": "_XlaCompile"}.get(last, "_other")] += 1
            if i > 1:
                out["micro" if i < ACC else "update"] = dict(c)
    return out


def _worker(indices: list[int]) -> dict[int, Any]:
    os.environ["TF_XLA_FLAGS"] = (os.environ.get("TF_XLA_FLAGS", "")
                                  + " --tf_xla_cpu_global_jit --tf_xla_enable_lazy_compilation=false")
    import tensorflow as tf

    tf.compat.v1.disable_v2_behavior()   # TF1's graph: v1 control flow, sessions
    cases = [(m, x) for m in (False, True) for x in (True, False)]
    return {i: _trace(*cases[i]) for i in indices}


@pytest.fixture(scope="module")
def traces() -> dict[tuple[bool, bool], dict[str, dict[str, int]]]:
    from tests.tf_workers import spawn

    got = spawn(os.path.abspath(__file__), [0, 1, 2, 3])
    cases = [(m, x) for m in (False, True) for x in (True, False)]
    return {cases[i]: got[i] for i in range(4)}


# kernel-launching ops of the variables' gradient handling that XLA's clustering can leave outside
# (the scalar counter ops -- local_step, global_step, their conditions -- are a fixed handful)
_ASSIGNS = ("AssignAdd", "AssignAddVariableOp", "Assign", "AssignVariableOp")


@pytest.mark.parametrize("mixed", [False, True])
@pytest.mark.parametrize("phase", ["micro", "update"])
def test_unclustered_assigns_per_variable(traces, mixed, phase):
    from simdist.validation.tf1_launches import UNCLUSTERED

    run = traces[(mixed, True)][phase]
    micro = traces[(mixed, True)]["micro"]
    assert run.get("_XlaRun", 0) > 0, f"no XLA cluster ran ({sorted(run.items())}): auto-clustering is off"
    n = len(SHAPES)
    assigns = sum(run.get(o, 0) for o in _ASSIGNS)
    if phase == "micro":
        # the accumulators' assign_add, plus the counters' (local_step's assign_add and the batch's)
        got = (assigns - 1) / n
    else:   # what the optimizer step runs beyond a micro-batch
        got = (assigns - sum(micro.get(o, 0) for o in _ASSIGNS)) // n
    want = UNCLUSTERED[(phase, mixed)]
    assert int(got) == want, (
        f"{'mixed' if mixed else 'float32'} {phase}: {got} assigns per variable outside XLA's clusters, "
        f"but tf1_launches.UNCLUSTERED says {want}; ran: {sorted(run.items())}")


@pytest.mark.parametrize("mixed", [False, True])
@pytest.mark.parametrize("phase", ["micro", "update"])
def test_reductions_per_variable(traces, mixed, phase):
    """Without XLA every op runs: per variable, the micro-batch's L2Loss (and IsFinite/All, mixed
    precision) and the optimizer step's two norms (Sum after the square: EuclideanNorm or Sum, as TF
    lowers ``tf.norm``) and (mixed precision) its finite check, each a reduction of its own."""
    from simdist.validation.tf1_launches import REDUCTIONS

    run, micro = traces[(mixed, False)][phase], traces[(mixed, False)]["micro"]
    red = ("L2Loss", "All", "Sum", "EuclideanNorm", "Max", "Mean")
    n = len(SHAPES)
    count = sum(run.get(o, 0) for o in red)
    if phase == "update":
        count -= sum(micro.get(o, 0) for o in red)
    # not per variable: the loss's Mean, global_norm's Sum over the stacked l2 losses, and each finite
    # check's final All over the stacked flags (the loss's forward Sums do not run: only their gradients)
    base = {"micro": 2 + (1 if mixed else 0), "update": (1 if mixed else 0)}[phase]
    per_var = (count - base) / n
    want = REDUCTIONS[(phase, mixed)]
    assert per_var == want, (
        f"{'mixed' if mixed else 'float32'} {phase}: {per_var} reductions per variable, but "
        f"tf1_launches.REDUCTIONS says {want}; ran: {sorted(run.items())}")


if __name__ == "__main__":
    sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))
    from tests.tf_workers import serve

    serve(_worker)
