"""Which ops of a TF1 BERT layer grappler's automatic mixed precision rewrite keeps in float32,
observed on TensorFlow's own rewrite (the premise of `workloads.bert_large(program="tf1")`'s
float32 chains; docs/validation.md "The fifth round", rule 3).

The TF1 BERT runs build their graph in float32 and let `enable_mixed_precision_graph_rewrite`
paint it: allow-list ops (MatMul, BatchMatMul) float16; deny-list ops (Mean: layer norm, Pow: the
GELU) and the infer/clear ops on a forward path from them float32 (pass 2); the remaining
infer/clear ops float16 where they lie between allow-list ops (pass 3). TF 2.21's pass runs those
three passes as the 20.06 container's TF 1.15 does (renamed white/black/gray to allow/deny/infer,
tensorflow/core/grappler/optimizers/auto_mixed_precision.cc), with the same list entries for the
ops below. The graph: one BERT layer as TF1 BERT's modeling.py writes it (`nn.moments` +
`nn.batch_normalization` as `tf.contrib.layers.layer_norm`; GELU with `tf.pow(x, 3)`; attention
scale, mask add, `tf.nn.softmax`, dropout between the two BatchMatMuls), rewritten by TF's pass in
its CPU mode (`auto_mixed_precision_cpu`: the float16 lists, on a CPU). The painting is read from
the pass's own log (VLOG 2): passes 2 and 3 only, because TF 2.21 adds a pass 4 (infer ops that
directly follow an allow op) that TF 1.15 does not have.

The module doubles as its TF worker (tests/tf_workers.py). TF's own graph is the subject: live TF
only, no golden.
"""

from __future__ import annotations

import importlib.util
import os
import re
import sys
import tempfile
from typing import Any

import pytest

# slow: one TF process (~6 s of CPU, mostly importing TF); the default run keeps the workload side
# (test_validation_training.py::test_tf1_amp_keeps_bert_chains_in_float32)
pytestmark = [pytest.mark.tf, pytest.mark.slow,
              pytest.mark.skipif(importlib.util.find_spec("tensorflow") is None,
                                 reason="needs TensorFlow 2.21 (the tf extra)")]


def _layer_graph() -> Any:
    """A TF1 BERT layer's forward pass (float32 graph), named for the assertions below."""
    import tensorflow as tf

    tf1 = tf.compat.v1
    g = tf.Graph()
    with g.as_default():
        x = tf1.placeholder(tf.float32, [8, 16], name="x")
        mask = tf1.placeholder(tf.float32, [2, 1, 4], name="mask")
        w = {n: tf1.get_variable(n, s) for n, s in (("wo", [16, 16]), ("wi", [16, 64]), ("wf", [64, 16]),
                                                    ("wq", [16, 16]))}
        b = {n: tf1.get_variable(n, s) for n, s in (("bo", [16]), ("bi", [64]), ("bf", [16]))}
        # attention output projection, dropout, residual, layer norm (modeling.py's order)
        h = tf.nn.bias_add(tf.matmul(x, w["wo"], name="attn_out"), b["bo"], name="attn_bias")
        h = tf.multiply(h, 1.1, name="attn_drop")
        h = tf.add(h, x, name="attn_residual")
        mean, var = tf.nn.moments(h, [-1], keepdims=True, name="ln1_moments")
        ln1 = tf.identity(tf.nn.batch_normalization(h, mean, var, None, None, 1e-12, name="ln1"), name="ln1_out")
        # feed-forward: dense, GELU (tanh form with tf.pow), dense, dropout, residual with ln1, layer norm
        u = tf.nn.bias_add(tf.matmul(ln1, w["wi"], name="ffn_in"), b["bi"], name="ffn_in_bias")
        cdf = 0.5 * (1.0 + tf.tanh(0.7978845608 * (u + 0.044715 * tf.pow(u, 3, name="gelu_pow"))))
        gelu = tf.multiply(u, cdf, name="gelu_out")
        o = tf.nn.bias_add(tf.matmul(gelu, w["wf"], name="ffn_out"), b["bf"], name="ffn_out_bias")
        o = tf.multiply(o, 1.1, name="ffn_drop")
        o = tf.add(o, ln1, name="ffn_residual")
        mean2, var2 = tf.nn.moments(o, [-1], keepdims=True, name="ln2_moments")
        ln2 = tf.nn.batch_normalization(o, mean2, var2, None, None, 1e-12, name="ln2")
        # self-attention of the next layer: projection, Q K^T, scale, mask add, softmax, dropout, x V
        q = tf.reshape(tf.matmul(ln2, w["wq"], name="qkv"), [2, 4, 16])
        s = tf.multiply(tf.matmul(q, q, transpose_b=True, name="scores"), 0.25, name="attn_scale")
        s = tf.add(s, (1.0 - mask) * -10000.0, name="attn_mask")
        p = tf.multiply(tf.nn.softmax(s, name="attn_softmax"), 1.1, name="attn_probs_drop")
        c = tf.matmul(p, q, name="context")
        tf1.add_to_collection("train_op", tf.reduce_sum(c))
    return g


def _paint() -> dict[str, list[str]]:
    """Run TF's rewrite on the layer; the nodes its pass 2 paints deny and its pass 3 allow."""
    os.environ["TF_CPP_MIN_LOG_LEVEL"] = "0"
    os.environ["TF_CPP_VMODULE"] = "auto_mixed_precision=2"
    log = tempfile.TemporaryFile()
    saved = os.dup(2)
    os.dup2(log.fileno(), 2)   # TF's C++ log goes to fd 2
    try:
        import tensorflow as tf
        from tensorflow.core.protobuf import config_pb2
        from tensorflow.python.grappler import tf_optimizer

        tf.compat.v1.disable_eager_execution()   # (export_meta_graph: a TF1 graph, as the TF1 runs build it)
        g = _layer_graph()
        mg = tf.compat.v1.train.export_meta_graph(graph=g)
        cfg = config_pb2.ConfigProto()
        cfg.graph_options.rewrite_options.optimizers.append("auto_mixed_precision_cpu")
        cfg.graph_options.rewrite_options.min_graph_nodes = -1
        tf_optimizer.OptimizeGraph(cfg, mg)
    finally:
        os.dup2(saved, 2)
        os.close(saved)
    log.seek(0)
    text = log.read().decode(errors="replace")
    out: dict[str, list[str]] = {"deny": [], "allow3": [], "log": []}
    section = ""
    for line in text.splitlines():
        if "Beginning pass" in line:
            section = re.search(r"Beginning pass (\d)", line).group(1)   # type: ignore[union-attr]
        m = re.search(r"Painting type T of \S+ node (\S+) (DENY|ALLOW)$", line)
        if m and section == "2" and m.group(2) == "DENY":
            out["deny"].append(m.group(1))
        if m and section == "3" and m.group(2) == "ALLOW":
            out["allow3"].append(m.group(1))
        if "Beginning pass" in line or "Painting type" in line:
            out["log"].append(line[line.find("]") + 1:].strip())
    return out


def _worker(indices: list[int]) -> dict[int, Any]:
    return {i: _paint() for i in indices}


@pytest.fixture(scope="module")
def painted() -> dict[str, list[str]]:
    from tests.tf_workers import spawn

    got = spawn(os.path.abspath(__file__), [0])[0]
    assert got["deny"] or got["allow3"], f"no painting read from TF's log; its lines: {got['log'][:20]}"
    return got


def test_layer_norm_and_what_follows_it_stay_float32(painted: dict[str, list[str]]) -> None:
    """Mean is denied and so is the layer norm's output (through the infer ops after the mean), and
    the next sublayer's residual add that reads it: simdist charges these chains in float32."""
    deny = set(painted["deny"])
    for node in ("ln1_moments/mean", "ln1/add_1", "ffn_residual", "ln2_moments/mean", "ln2/add_1"):
        assert node in deny, f"{node} is not painted float32 by TF's pass 2 (deny: {sorted(deny)})"


def test_gelu_chain_stays_float32(painted: dict[str, list[str]]) -> None:
    deny = set(painted["deny"])
    assert {"gelu_pow", "gelu_out"} <= deny, f"GELU's Pow and output should be float32; deny: {sorted(deny)}"
    assert "Tanh" in deny, f"GELU's Tanh should be float32 (downstream of Pow); deny: {sorted(deny)}"


def test_attention_probabilities_are_float16_between_the_batch_matmuls(painted: dict[str, list[str]]) -> None:
    """Softmax is an infer op (20.06's lists as TF 2.21's): the scale, mask add, softmax and dropout
    between the two BatchMatMuls are painted float16 by pass 3, as simdist keeps them."""
    allow3, deny = set(painted["allow3"]), set(painted["deny"])
    for node in ("attn_scale", "attn_mask", "attn_softmax", "attn_probs_drop"):
        assert node in allow3 and node not in deny, (
            f"{node} should be float16 (pass 3: between BatchMatMuls); pass 3 allow: {sorted(allow3)}")


def test_bias_adds_feeding_a_layer_norm_are_not_float16_by_the_passes_tf1_has(painted: dict[str, list[str]]) -> None:
    """The bias add and dropout after a matmul whose path to the next matmul crosses a denied op are
    painted by neither pass 2 nor pass 3 (TF 1.15 has no later pass): they stay float32."""
    allow3, deny = set(painted["allow3"]), set(painted["deny"])
    for node in ("attn_bias", "attn_drop", "ffn_out_bias", "ffn_drop", "ffn_in_bias"):
        assert node not in allow3, f"{node} painted float16 by pass 3, but its path to a matmul crosses a denied op"


if __name__ == "__main__":
    sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))
    from tests.tf_workers import serve

    serve(_worker)
