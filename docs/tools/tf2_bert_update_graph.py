"""Which ops of a TF2 BERT-style optimizer step XLA's auto-clustering leaves outside its clusters
(docs/validation.md "Twentieth session: the training rows", section 4).

The program has the shape of NVIDIA's TF2 BERT training loop (DeepLearningExamples
TensorFlow2/LanguageModeling/BERT at 49e23b4, official/modeling/model_training_utils.py
`train_steps`): a `tf.function` whose `tf.range` loop runs a micro-batch (`forward`: gradients added
to accumulators) and, at the first micro-batch and after every `n`-th, `step` (the accumulated
gradients divided by `n`, `tf.clip_by_global_norm`, tensorflow_addons v0.12.1's
`LAMB._resource_apply_dense` written op for op, the accumulators reset). Horovod and the loss-scale
optimizer are left out; 8 variables of a small MLP. It runs on a CPU with TF 2.21's auto-clustering
(`tf.config.optimizer.set_jit(True)`, `--tf_xla_cpu_global_jit`), dumps the graph that
MarkForCompilationPass annotated (`--tf_xla_clustering_debug`) and prints the op types inside and
outside clusters. Usage: ``python docs/tools/tf2_bert_update_graph.py`` (under a minute of CPU).
"""

from __future__ import annotations

import collections
import os
import shutil
import sys
import tempfile


def main() -> int:
    dump = tempfile.mkdtemp(prefix="tf2_bert_update_graph_")
    os.environ["TF_CPP_MIN_LOG_LEVEL"] = "3"
    os.environ["TF_XLA_FLAGS"] = (os.environ.get("TF_XLA_FLAGS", "") + " --tf_xla_cpu_global_jit "
                                  "--tf_xla_clustering_debug --tf_xla_enable_lazy_compilation=false")
    os.environ["TF_DUMP_GRAPH_PREFIX"] = dump
    import tensorflow as tf
    from google.protobuf import text_format

    tf.config.optimizer.set_jit(True)
    shapes = [(64, 32), (32,), (32, 48), (48,), (48, 16), (16,), (16,), (16,)]
    w = [tf.Variable(tf.random.stateless_normal(s, seed=(i, 0)), name=f"w{i}") for i, s in enumerate(shapes)]
    acc = [tf.Variable(tf.zeros(s), trainable=False, name=f"acc{i}") for i, s in enumerate(shapes)]
    ms = [tf.Variable(tf.zeros(s), trainable=False, name=f"m{i}") for i, s in enumerate(shapes)]
    vs = [tf.Variable(tf.zeros(s), trainable=False, name=f"v{i}") for i, s in enumerate(shapes)]
    iterations = tf.Variable(0, dtype=tf.int64, name="iterations")
    x = tf.random.stateless_normal((8, 64), seed=(9, 9))

    def forward() -> None:
        with tf.GradientTape() as tape:
            h = tf.nn.relu(x @ w[0] + w[1])
            h = tf.nn.relu(h @ w[2] + w[3])
            h = (h @ w[4] + w[5]) * w[6] + w[7]
            loss = tf.reduce_mean(tf.square(h))
        for a, g in zip(acc, tape.gradient(loss, w)):
            a.assign_add(g)

    def lamb(grad, var, m, v, lr=1e-3, b1=0.9, b2=0.999, eps=1e-6, wd=0.01):  # type: ignore[no-untyped-def]
        # tensorflow_addons v0.12.1, optimizers/lamb.py, LAMB._resource_apply_dense
        t = tf.cast(iterations + 1, tf.float32)
        m_t = m.assign(m * b1 + grad * (1 - b1))
        v_t = v.assign(v * b2 + (grad * grad) * (1 - b2))
        m_hat = m_t / (1.0 - tf.pow(b1, t))
        v_hat = v_t / (1.0 - tf.pow(b2, t))
        update = m_hat / (tf.sqrt(v_hat) + eps)
        update += wd * var
        w_norm = tf.norm(var, ord=2)
        g_norm = tf.norm(update, ord=2)
        ratio = tf.where(tf.greater(w_norm, 0), tf.where(tf.greater(g_norm, 0), (w_norm / g_norm), 1.0), 1.0)
        return var.assign(var - ratio * lr * update)

    def step(n):  # type: ignore[no-untyped-def]
        grads, _ = tf.clip_by_global_norm([a / tf.cast(n, a.dtype) for a in acc], clip_norm=1.0)
        for g, var, m, v in zip(grads, w, ms, vs):
            lamb(g, var, m, v)
        iterations.assign_add(1)
        for a in acc:
            a.assign(tf.zeros_like(a))

    @tf.function
    def train_steps(steps, n):  # type: ignore[no-untyped-def]
        for i in tf.range(steps * n):
            forward()
            if i == 0 or (i + 1) % n == 0:
                step(n)

    train_steps(tf.constant(2), 4)
    path = os.path.join(dump, "mark_for_compilation_annotated.pbtxt")
    g = tf.compat.v1.GraphDef()
    text_format.Parse(open(path, encoding="utf-8").read(), g)
    shutil.rmtree(dump, ignore_errors=True)
    inside: collections.Counter[str] = collections.Counter()
    outside: collections.Counter[str] = collections.Counter()
    clusters: collections.Counter[str] = collections.Counter()
    for node in g.node:
        if "_XlaCluster" in node.attr:
            inside[node.op] += 1
            clusters[node.attr["_XlaCluster"].s.decode()] += 1
        else:
            outside[node.op] += 1
    print(f"{len(g.node)} nodes; clusters (nodes): {dict(sorted(clusters.items()))}")
    print(f"inside clusters: {sum(inside.values())}; " + ", ".join(f"{k} {v}" for k, v in sorted(inside.items())))
    print(f"outside: {sum(outside.values())}; " + ", ".join(f"{k} {v}" for k, v in sorted(outside.items())))
    return 0


if __name__ == "__main__":
    sys.exit(main())
