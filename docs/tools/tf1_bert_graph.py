"""Count what NVIDIA's TF1 BERT pre-training graph runs per micro-batch and per optimizer step, under
XLA's auto-clustering as its runs used it (docs/validation.md "The sixth round";
simdist/validation/tf1_launches.py).

Usage: ``python docs/tools/tf1_bert_graph.py DIR [--layers 2 4] [--no-xla]`` where DIR holds
DeepLearningExamples' TensorFlow/LanguageModeling/BERT at 002bcd8 (modeling.py, optimization.py,
gpu_environment.py, run_pretraining.py; e.g. ``git show 002bcd8:TensorFlow/LanguageModeling/BERT/x``
of a clone). The files are loaded as they are, with ``tensorflow`` bound to TF 2.21's
``tf.compat.v1`` (v2 behaviour off) and two TF 1.15 APIs TF 2.21 lacks written as TF 1.15 builds
them: ``tf.layers.dense`` (kernel and bias variables, MatMul, BiasAdd) and
``tf.contrib.layers.layer_norm`` (beta and gamma, ``nn.moments``, ``nn.batch_normalization``).
Horovod is left out (one GPU). Mixed precision runs on resource variables, FP32 on reference
variables, as run_pretraining.py sets them under ``--use_xla``. The session runs with
``global_jit_level=ON_1`` (on a CPU: ``--tf_xla_cpu_global_jit``) and grappler's ``remapping`` off
(a CPU rewrite, MatMul+BiasAdd into ``_FusedMatMul``, that XLA would not cluster), and traces the
second micro-batch and the fourth run (an optimizer step, accumulation 4). It prints, per
configuration, the trainable variables and the op types that ran, outside XLA's clusters with XLA
on (``_XlaRun``: one cluster), every op without it. Takes a few minutes of CPU: run it niced.
"""

from __future__ import annotations

import argparse
import ast
import collections
import os
import sys
import types
from typing import Any


def _tf() -> Any:
    os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
    os.environ["TF_XLA_FLAGS"] = (os.environ.get("TF_XLA_FLAGS", "")
                                  + " --tf_xla_cpu_global_jit --tf_xla_enable_lazy_compilation=false")
    import tensorflow as tf

    tf.compat.v1.disable_v2_behavior()
    return tf


def _shim(tf: Any) -> types.ModuleType:
    """``tf`` as the TF1 sources see it: tf.compat.v1, plus the two TF 1.15 layers they call."""
    tf1 = tf.compat.v1

    def dense(inputs: Any, units: int, activation: Any = None, name: Any = None, kernel_initializer: Any = None) -> Any:
        with tf1.variable_scope(name, default_name="dense"):
            k = tf1.get_variable("kernel", [inputs.shape[-1], units], initializer=kernel_initializer)
            b = tf1.get_variable("bias", [units], initializer=tf1.zeros_initializer())
            y = tf.nn.bias_add(tf.matmul(inputs, k), b)
            return activation(y) if activation else y

    def layer_norm(inputs: Any, begin_norm_axis: int = -1, begin_params_axis: int = -1, scope: Any = None) -> Any:
        with tf1.variable_scope(scope, default_name="LayerNorm"):
            n = inputs.shape[-1]
            beta = tf1.get_variable("beta", [n], initializer=tf1.zeros_initializer())
            gamma = tf1.get_variable("gamma", [n], initializer=tf1.ones_initializer())
            mean, var = tf.nn.moments(inputs, [inputs.shape.rank - 1], keepdims=True)
            return tf.nn.batch_normalization(inputs, mean, var, offset=beta, scale=gamma, variance_epsilon=1e-12)

    class Shim(types.ModuleType):
        def __getattr__(self, k: str) -> Any:
            return getattr(tf1, k)

    m = Shim("tf1_as_tf")
    m.layers = types.SimpleNamespace(dense=dense)
    m.contrib = types.SimpleNamespace(layers=types.SimpleNamespace(layer_norm=layer_norm))
    m.compat = tf.compat
    m.float16, m.float32, m.int32, m.bool = tf.float16, tf.float32, tf.int32, tf.bool
    m.train = types.SimpleNamespace(**{k: getattr(tf1.train, k) for k in dir(tf1.train) if not k.startswith("_")})
    m.train.experimental = types.SimpleNamespace(
        DynamicLossScale=tf1.mixed_precision.DynamicLossScale,
        enable_mixed_precision_graph_rewrite=tf1.mixed_precision.enable_mixed_precision_graph_rewrite)
    return m


def _load(src: str, name: str, shim: types.ModuleType) -> types.ModuleType:
    text = open(os.path.join(src, f"{name}.py"), encoding="utf-8").read()
    text = text.replace("import tensorflow as tf", "tf = __tf1__")
    text = text.replace("from horovod.tensorflow.compression import Compression", "Compression = None")
    m = types.ModuleType(name)
    m.__dict__["__tf1__"] = shim
    exec(compile(text, os.path.join(src, f"{name}.py"), "exec"), m.__dict__)
    sys.modules[name] = m
    return m


def _program(src: str, tf: Any) -> tuple[Any, Any]:
    """(modeling, optimization, heads): the sources loaded; heads holds run_pretraining.py's
    get_masked_lm_output, get_next_sentence_output and gather_indexes."""
    shim = _shim(tf)
    _load(src, "gpu_environment", shim)
    modeling = _load(src, "modeling", shim)
    optimization = _load(src, "optimization", shim)
    heads = types.ModuleType("heads")
    heads.__dict__.update(tf=shim, modeling=modeling)
    tree = ast.parse(open(os.path.join(src, "run_pretraining.py"), encoding="utf-8").read())
    for node in tree.body:
        if isinstance(node, ast.FunctionDef) and node.name in ("get_masked_lm_output", "get_next_sentence_output",
                                                                "gather_indexes"):
            exec(compile(ast.Module([node], []), "run_pretraining.py", "exec"), heads.__dict__)
    return (modeling, optimization, heads), shim


def trace(src: str, layers: int, mixed: bool, xla: bool, acc: int = 4) -> dict[str, Any]:
    import numpy as np

    tf = _tf()
    tf1 = tf.compat.v1
    from tensorflow.core.protobuf import rewriter_config_pb2

    (modeling, optimization, heads), _ = _program(src, tf)
    B, S, P, vocab = 2, 16, 4, 64
    g = tf.Graph()
    with g.as_default():
        (tf1.enable_resource_variables if mixed else tf1.disable_resource_variables)()
        cfg = modeling.BertConfig(vocab_size=vocab, hidden_size=32, num_hidden_layers=layers, num_attention_heads=2,
                                  intermediate_size=64, max_position_embeddings=S, type_vocab_size=2)
        ph = {n: tf1.placeholder(tf.float32 if n == "masked_lm_weights" else tf.int32,
                                 [B, 1] if n == "next_sentence_labels" else [B, P] if n.startswith("masked") else [B, S],
                                 name=n)
              for n in ("input_ids", "input_mask", "segment_ids", "masked_lm_positions", "masked_lm_ids",
                        "masked_lm_weights", "next_sentence_labels")}
        model = modeling.BertModel(config=cfg, is_training=True, input_ids=ph["input_ids"], input_mask=ph["input_mask"],
                                   token_type_ids=ph["segment_ids"], use_one_hot_embeddings=False,
                                   compute_type=tf.float32)
        mlm = heads.get_masked_lm_output(cfg, model.get_sequence_output(), model.get_embedding_table(),
                                         ph["masked_lm_positions"], ph["masked_lm_ids"], ph["masked_lm_weights"])[0]
        nsp = heads.get_next_sentence_output(cfg, model.get_pooled_output(), ph["next_sentence_labels"])[0]
        loss = tf.identity(mlm + nsp, name="total_loss")
        train_op = optimization.create_optimizer(loss, 1e-4, 1000, 10, None, False, mixed, acc, "lamb", False, 2**32)
        init = tf1.global_variables_initializer()
        nvars = len(tf1.trainable_variables())
    rng = np.random.default_rng(0)
    feed = {ph["input_ids"]: rng.integers(0, vocab, (B, S)), ph["input_mask"]: np.ones((B, S), np.int32),
            ph["segment_ids"]: np.zeros((B, S), np.int32), ph["masked_lm_positions"]: rng.integers(0, S, (B, P)),
            ph["masked_lm_ids"]: rng.integers(0, vocab, (B, P)), ph["masked_lm_weights"]: np.ones((B, P), np.float32),
            ph["next_sentence_labels"]: np.zeros((B, 1), np.int32)}
    conf = tf1.ConfigProto()
    if xla:
        conf.graph_options.optimizer_options.global_jit_level = tf1.OptimizerOptions.ON_1
    conf.graph_options.rewrite_options.memory_optimization = rewriter_config_pb2.RewriterConfig.NO_MEM_OPT
    conf.graph_options.rewrite_options.remapping = rewriter_config_pb2.RewriterConfig.OFF
    ops = {n.name: n.op for n in g.as_graph_def().node}
    runs = {}
    with tf1.Session(graph=g, config=conf) as sess:
        sess.run(init)
        for i in range(1, acc + 1):
            md = tf1.RunMetadata()
            sess.run(train_op, feed, options=tf1.RunOptions(trace_level=tf1.RunOptions.FULL_TRACE), run_metadata=md)
            c: collections.Counter[str] = collections.Counter()
            for dev in md.step_stats.dev_stats:
                for n in dev.node_stats:
                    last = n.node_name.split("/")[-1]
                    c[ops.get(n.node_name) or {"xla_run": "_XlaRun", "xla_compile": "_XlaCompile"}.get(last, "_other")] += 1
            runs[i] = c
    return {"variables": nvars, "micro": runs[2], "update": runs[acc]}


def main(argv: list[str]) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("src", help="DeepLearningExamples TensorFlow/LanguageModeling/BERT at 002bcd8")
    ap.add_argument("--layers", type=int, nargs="+", default=[2, 4])
    ap.add_argument("--no-xla", action="store_true", help="trace every op (no auto-clustering)")
    a = ap.parse_args(argv)
    for layers in a.layers:
        for mixed in (False, True):
            r = trace(a.src, layers, mixed, not a.no_xla)
            print(f"layers {layers}, {'mixed precision' if mixed else 'float32'}: {r['variables']} trainable variables")
            for phase in ("micro", "update"):
                c = r[phase]
                print(f"  {phase}: {sum(c.values())} nodes ran; " + ", ".join(f"{k} {v}" for k, v in sorted(c.items())))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
