"""The training steps of standard models as kernel lists, derived from their layer shapes.

Each model gives the kernels of one training step on one GPU (`roofline.Kernel`: FLOPs, bytes,
dtype, kind): forward, backward and the optimizer's update, with the FLOPs of every matmul and
convolution from its shapes (2 FLOPs per multiply-add) and the bytes every kernel reads and writes
from its tensors' sizes. Nothing here is fitted.

Conventions (the same for every model, documented in docs/validation.md):
- a matmul/conv reads its input and weights and writes its output once; its backward pass is two
  kernels of the forward's FLOPs each (the input gradient, except for a first layer, whose input
  needs none, and the weight gradient);
- XLA-fused elementwise chains (the published runs use XLA): a normalisation fused with its
  activation reads its input twice (statistics, then normalise) and writes once (3 passes over the
  tensor); its backward reads the output gradient, the input and the output and writes the input
  gradient, plus one pass for the statistics' reduction (5 passes); a residual add with its
  activation reads two tensors and writes one (3 passes), backward the same;
- mixed precision: matmuls and activations in float16, weights kept in float32 and cast once per
  step (read 4, write 2 bytes per parameter), gradients and the update in float32; under
  TensorFlow 1's automatic mixed precision graph rewrite (grappler auto_mixed_precision in the
  20.06 container's TF 1.15: its allow list, MatMul/BatchMatMul/convolutions, is float16; its deny
  list, among them Mean and Pow, and every gray/clear op downstream of one up to the next allow-list
  op stay float32; other gray/clear ops are float16 only between two allow-list ops) BERT's
  elementwise chains read and write float32 -- its layer norms (Mean) with the bias adds, dropouts
  and residual adds before them, its GELU (Pow) -- except the attention probabilities' chain
  (scale, mask, Softmax -- a gray op there --, dropout), which lies between two BatchMatMuls and
  stays float16 (`_Builder(float32_chains=True)`, ``between_matmuls``, `bert_large(program="tf1")`);
- the update reads the weights, gradients and optimizer slots and writes weights and slots, in
  float32;
- dropout (BERT's, on the attention probabilities and on three hidden-state tensors per layer):
  TensorFlow draws its mask with a stateful ``RandomUniform`` of the input's shape in float32
  (``tf.nn.dropout``), and XLA's auto-clustering leaves stateful RNG ops out of its clusters
  (tensorflow/compiler/jit/compilability_check_util.h: "XLA's RNG does not have the same seeding
  behavior as TensorFlow's RNG ... So we avoid auto-clustering stateful RNG ops"), so the random
  tensor reaches memory: a kernel of its own writes it (4 bytes per element), the fused forward
  kernel reads it (4) and writes the keep mask in the activation dtype for the backward pass, which
  reads it (`_Builder.dropout`).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from simdist.sim.roofline import Kernel

from . import tf1_launches

__all__ = ["Step", "resnet50", "resnext101", "bert_large", "gpt2", "GPT2", "resnet50_forward_macs"]


@dataclass
class Step:
    """One training step's kernels on one GPU, and what the step is made of."""

    name: str
    examples: int                       # examples per GPU per step
    kernels: list[Kernel] = field(default_factory=list)
    params: int = 0                     # trainable parameters (the gradient all-reduce: 4 bytes each)
    forward_matmul_flops: float = 0.0   # FLOPs of the forward pass's matmuls/convs (the derivation)
    launches: int = 0                   # kernels beyond ``kernels`` that cost only their launch (`tf1_launches`)
    update_launches: int = 0            # the same, once per optimizer step (BERT: with LAMB's update)

    @property
    def flops(self) -> float:
        return float(sum(k.flops for k in self.kernels))

    @property
    def bytes(self) -> float:
        return float(sum(k.bytes for k in self.kernels))


class _Builder:
    """Appends a model's kernels to a Step; ``act`` is the activation dtype."""

    def __init__(self, step: Step, mixed: bool, nchw: bool = False, float32_chains: bool = False) -> None:
        self.s = step
        self.mixed = mixed
        self.nchw = nchw   # convolutions transpose their NCHW operands for NHWC tensor-core kernels
        self.act = "float16" if mixed else "float32"
        self.e = 2 if mixed else 4
        # the dtype of the elementwise chains (`elementwise`, `dropout`): the activations', unless a
        # mixed-precision graph keeps them in float32 (TF1's AMP rewrite, `bert_large`) -- except a
        # chain between two matmuls (``between_matmuls``), which that rewrite paints float16
        self.chain_act, self.chain_e = ("float32", 4) if float32_chains else (self.act, self.e)
        self.backward: list[Kernel] = []

    def _chain(self, between_matmuls: bool) -> tuple[int, str]:
        return (self.e, self.act) if between_matmuls else (self.chain_e, self.chain_act)

    def matmul(self, flops: float, in_elems: float, w_elems: float, out_elems: float, first: bool = False,
               kind: str = "matmul") -> None:
        e = self.e
        self.s.forward_matmul_flops += flops
        self.s.params += int(w_elems)
        self.s.kernels.append(Kernel(flops, e * (in_elems + w_elems + out_elems), self.act, kind))
        if not first:   # input gradient: reads dy and w, writes dx
            self.backward.append(Kernel(flops, e * (out_elems + w_elems + in_elems), self.act, kind))
        # weight gradient: reads x and dy, writes dw
        self.backward.append(Kernel(flops, e * (in_elems + out_elems + w_elems), self.act, kind))

    def transposes(self, in_elems: float, out_elems: float, first: bool = False) -> None:
        """The layout transposes of a convolution run in NCHW on tensor cores (``nchw``): cuDNN's
        tensor-core kernels work in NHWC, so each of the convolution's kernels (forward, input
        gradient, weight gradient) transposes its activation operand in and its activation result
        out (NCHW -> NHWC -> NCHW): one read and one write of each, a kernel of its own."""
        e = self.e
        moved = 2.0 * e * (in_elems + out_elems)
        self.s.kernels.append(Kernel(0.0, moved, self.act, "elementwise"))
        for _ in range(1 if first else 2):
            self.backward.append(Kernel(0.0, moved, self.act, "elementwise"))

    def attention(self, flops: float, qkv_elems: float, out_elems: float) -> None:
        """Fused (flash) attention: scores never reach memory; it reads Q, K, V and writes the
        output; its backward recomputes the scores (2.5x the forward's FLOPs: five matmuls to
        two), reading Q, K, V, the output and its gradient and writing dQ, dK, dV."""
        e = self.e
        self.s.forward_matmul_flops += flops
        self.s.kernels.append(Kernel(flops, e * (qkv_elems + out_elems), self.act, "matmul"))
        self.backward.append(Kernel(2.5 * flops, e * (2 * qkv_elems + 2 * out_elems), self.act, "matmul"))

    def elementwise(self, elems: float, fwd_passes: int, bwd_passes: int, flops_per_elem: float = 5.0,
                    between_matmuls: bool = False) -> None:
        e, act = self._chain(between_matmuls)
        self.s.kernels.append(Kernel(flops_per_elem * elems, e * fwd_passes * elems, act, "elementwise"))
        if bwd_passes:
            self.backward.append(Kernel(flops_per_elem * elems, e * bwd_passes * elems, act, "elementwise"))

    def dropout(self, elems: float, between_matmuls: bool = False) -> None:
        """The memory traffic of a TensorFlow dropout over ``elems`` elements beyond its fused
        elementwise kernel's (module docstring): the float32 random tensor written by its own RNG
        kernel and read by the forward kernel (8 bytes per element, charged to the RNG kernel: one
        launch), and the keep mask, written in the activation dtype by the forward kernel and read
        by the backward one (2 x the activation's bytes per element, charged to the backward)."""
        self.s.kernels.append(Kernel(0.0, 8.0 * elems, "float32", "elementwise"))
        e, act = self._chain(between_matmuls)
        self.backward.append(Kernel(0.0, 2.0 * e * elems, act, "elementwise"))

    def norm_act(self, elems: float) -> None:
        self.elementwise(elems, 3, 5)

    def add_act(self, elems: float) -> None:
        self.elementwise(elems, 3, 3, 2.0)

    def finish(self, slot_copies: int, update_flops_per_param: float, shards: int = 1) -> Step:
        """Backward kernels in reverse order, then the mixed-precision weight cast and the update
        (of 1/``shards`` of the parameters: an optimizer sharded over that many GPUs)."""
        s = self.s
        s.kernels.extend(reversed(self.backward))
        p = float(s.params) / shards
        if self.mixed:
            s.kernels.insert(0, Kernel(p, 6.0 * p, "float32", "elementwise"))
        # update: read w, g and the slots, write w and the slots (float32)
        s.kernels.append(Kernel(update_flops_per_param * p, 4.0 * p * (2 + 2 * slot_copies + 1), "float32",
                                "elementwise"))
        return s


def _conv(b: _Builder, n: int, hw_in: int, cin: int, cout: int, k: int, stride: int, first: bool = False,
          groups: int = 1) -> int:
    """A k x k convolution ('same' padding) of a batch of n, its channels split into ``groups``
    (each output channel sees cin/groups inputs; a grouped one is a "grouped" kernel, `roofline`);
    returns the output's height/width."""
    hw = -(-hw_in // stride)
    macs = n * hw * hw * cout * (cin // groups) * k * k
    b.matmul(2.0 * macs, n * hw_in * hw_in * cin, (cin // groups) * cout * k * k, n * hw * hw * cout, first,
             "grouped" if groups > 1 else "matmul")
    if b.nchw and groups == 1:
        b.transposes(n * hw_in * hw_in * cin, n * hw * hw * cout, first)
    return hw


# ResNet-50 v1.5: (blocks, bottleneck width, output channels, stride of the stage's first block);
# v1.5 puts the stride on the 3x3 convolution (NVIDIA DeepLearningExamples' RN50 v1.5).
_RN50_STAGES = ((3, 64, 256, 1), (4, 128, 512, 2), (6, 256, 1024, 2), (3, 512, 2048, 2))


def resnet50(batch: int, mixed: bool, nchw: bool = False) -> Step:
    """One ResNet-50 v1.5 training step (224x224 images, SGD with momentum) on one GPU; ``nchw``:
    its convolutions run in NCHW on tensor cores (`tensor_layout_nchw`)."""
    b = _Builder(Step("ResNet-50 v1.5", batch), mixed, nchw)
    n = batch
    hw = _conv(b, n, 224, 3, 64, 7, 2, first=True)
    b.norm_act(n * hw * hw * 64)
    hw2 = hw // 2   # 3x3/2 max pool: reads once, writes once; backward reads dy and x, writes dx
    b.elementwise(n * hw * hw * 64 + n * hw2 * hw2 * 64, 1, 2, 9.0)
    hw, cin = hw2, 64
    for blocks, mid, cout, stride in _RN50_STAGES:
        for i in range(blocks):
            s = stride if i == 0 else 1
            _conv(b, n, hw, cin, mid, 1, 1)
            b.norm_act(n * hw * hw * mid)
            out_hw = _conv(b, n, hw, mid, mid, 3, s)
            b.norm_act(n * out_hw * out_hw * mid)
            _conv(b, n, out_hw, mid, cout, 1, 1)
            b.elementwise(n * out_hw * out_hw * cout, 3, 5)   # batch norm without activation
            if i == 0:   # projection shortcut and its batch norm
                _conv(b, n, hw, cin, cout, 1, s)
                b.elementwise(n * out_hw * out_hw * cout, 3, 5)
            b.add_act(n * out_hw * out_hw * cout)
            hw, cin = out_hw, cout
    b.elementwise(n * hw * hw * cin, 1, 1, 1.0)   # global average pool
    b.matmul(2.0 * n * cin * 1000, n * cin, cin * 1000 + 1000, n * 1000)
    b.elementwise(n * 1000, 3, 2)                  # softmax cross-entropy
    return b.finish(slot_copies=1, update_flops_per_param=4.0)


# ResNeXt-101 32x4d (NVIDIA DeepLearningExamples' TF1 implementation, built on RN50 v1.5: stride on the
# grouped 3x3 convolution): stages of 3, 4, 23, 3 blocks; 32 groups of 4 channels in the first stage's
# 3x3 convolution (width 128), doubling per stage; outputs 256, 512, 1024, 2048.
_RNXT101_STAGES = ((3, 128, 256, 1), (4, 256, 512, 2), (23, 512, 1024, 2), (3, 1024, 2048, 2))


def resnext101(batch: int, mixed: bool, se: bool = False, nchw: bool = False) -> Step:
    """One ResNeXt-101 32x4d training step (224x224 images, SGD with momentum) on one GPU; ``se``:
    SE-ResNeXt-101 32x4d, a squeeze-and-excitation block (reduction 16) after each block's last
    batch norm: global average pool, two fully connected layers and a sigmoid on the pooled
    vector, then the block's tensor scaled per channel (fused: reads the tensor for the pool and
    again for the scale, writes it: 3 passes; backward: reads dy and x, writes dx, and reduces dy*x
    for the scale's gradient in the same pass: 3 passes)."""
    b = _Builder(Step("SE-ResNeXt-101 32x4d" if se else "ResNeXt-101 32x4d", batch), mixed, nchw)
    n = batch
    hw = _conv(b, n, 224, 3, 64, 7, 2, first=True)
    b.norm_act(n * hw * hw * 64)
    hw2 = hw // 2
    b.elementwise(n * hw * hw * 64 + n * hw2 * hw2 * 64, 1, 2, 9.0)
    hw, cin = hw2, 64
    for blocks, mid, cout, stride in _RNXT101_STAGES:
        for i in range(blocks):
            s = stride if i == 0 else 1
            _conv(b, n, hw, cin, mid, 1, 1)
            b.norm_act(n * hw * hw * mid)
            out_hw = _conv(b, n, hw, mid, mid, 3, s, groups=32)
            b.norm_act(n * out_hw * out_hw * mid)
            _conv(b, n, out_hw, mid, cout, 1, 1)
            b.elementwise(n * out_hw * out_hw * cout, 3, 5)   # batch norm without activation
            if se:
                r = cout // 16
                b.matmul(2.0 * n * cout * r, n * cout, cout * r + r, n * r)
                b.matmul(2.0 * n * r * cout, n * r, r * cout + cout, n * cout)
                b.elementwise(n * out_hw * out_hw * cout, 3, 3, 2.0)
            if i == 0:
                _conv(b, n, hw, cin, cout, 1, s)
                b.elementwise(n * out_hw * out_hw * cout, 3, 5)
            b.add_act(n * out_hw * out_hw * cout)
            hw, cin = out_hw, cout
    b.elementwise(n * hw * hw * cin, 1, 1, 1.0)
    b.matmul(2.0 * n * cin * 1000, n * cin, cin * 1000 + 1000, n * 1000)
    b.elementwise(n * 1000, 3, 2)
    return b.finish(slot_copies=1, update_flops_per_param=4.0)


def resnet50_forward_macs() -> float:
    """Multiply-adds of one 224x224 image's forward pass through ResNet-50 v1.5's convolutions and
    classifier (the figure usually quoted as "4.1 GFLOPs")."""
    return resnet50(1, mixed=False).forward_matmul_flops / 2.0


# BERT-large: 24 layers, hidden 1024, 16 heads, feed-forward 4096, vocabulary 30,522 (padded to 30,528
# by NVIDIA's implementation), 512 positions; pre-training heads: masked LM on the masked positions
# (max_predictions_per_seq: 20 at sequence 128, 80 at 512) and next-sentence prediction.
_BERT = dict(layers=24, hidden=1024, heads=16, ff=4096, vocab=30528, positions=512)


# What NVIDIA's BERT programs do with each micro-batch's gradients before accumulating them, as
# passes over the float32 gradients (bytes per parameter), from their sources:
# - "tf2": TensorFlow2/LanguageModeling/BERT/official/modeling/model_training_utils.py (49e23b4),
#   `forward`: mixed precision unscales the gradients (`get_unscaled_gradients`), then
#   `accum_gradients.add_gradients`; clipping runs once per optimizer step (`step`);
# - "tf1": TensorFlow/LanguageModeling/BERT/optimization.py (002bcd8), the accumulation branch of
#   `create_optimizer`: mixed precision checks `all_are_finite` over every gradient (and the AMP
#   loss-scale optimizer unscales them), then every micro-batch `tf.clip_by_global_norm` over all
#   gradients (the global norm, inside a `tf.cond`: a read; the scaling: a read and a write),
#   then `accum_vars[i].assign_add` (the accumulation `finish` charges).
# Mixed precision's unscale reads the float16 gradient and writes it in float32, the finite check
# in the same fused pass (XLA auto-clustering: 2 + 4 bytes); the clip cannot join it, as it
# needs the global norm first.
BERT_PROGRAMS = ("tf2", "tf1")


def bert_large(batch: int, seq: int, mixed: bool, masked: int, program: str = "tf2") -> Step:
    """One BERT-large pre-training micro-batch (forward, backward, the gradient handling of
    ``program``, gradient accumulation) on one GPU; the LAMB update runs once every many
    micro-batches and is left out (see `training`)."""
    if program not in BERT_PROGRAMS:
        raise ValueError(f"bert_large: program={program!r}, expected one of {', '.join(BERT_PROGRAMS)}")
    c = _BERT
    H, F, A, L, V = c["hidden"], c["ff"], c["heads"], c["layers"], c["vocab"]
    b = _Builder(Step("BERT-large", batch), mixed, float32_chains=mixed and program == "tf1")
    T = batch * seq   # tokens
    # embeddings: word + position + type lookups, add, layer norm
    b.s.params += (V + c["positions"] + 2) * H
    b.elementwise(T * H, 4, 5)
    b.dropout(T * H)
    for _ in range(L):
        b.matmul(2.0 * T * H * 3 * H, T * H, 3 * H * H, 3 * T * H)               # Q, K, V
        b.matmul(2.0 * T * seq * H, 2 * T * H, 0, batch * A * seq * seq)         # Q K^T
        b.elementwise(batch * A * seq * seq, 3, 3, between_matmuls=True)         # scale, mask, softmax, dropout
        b.dropout(batch * A * seq * seq, between_matmuls=True)                   # (its random tensor and mask)
        b.matmul(2.0 * T * seq * H, batch * A * seq * seq + T * H, 0, T * H)     # attention x V
        b.matmul(2.0 * T * H * H, T * H, H * H, T * H)                           # output projection
        b.dropout(T * H)
        b.elementwise(T * H, 4, 5)                                               # dropout, residual, layer norm
        b.matmul(2.0 * T * H * F, T * H, H * F, T * F)                           # feed-forward in
        b.elementwise(T * F, 2, 3, 8.0)                                          # GELU
        b.matmul(2.0 * T * F * H, T * F, F * H, T * H)                           # feed-forward out
        b.dropout(T * H)
        b.elementwise(T * H, 4, 5)                                               # dropout, residual, layer norm
    P = batch * masked   # masked-LM head on the masked positions: transform, layer norm, decoder to the vocabulary
    b.matmul(2.0 * P * H * H, P * H, H * H, P * H)
    b.elementwise(P * H, 4, 5)
    b.matmul(2.0 * P * H * V, P * H, 0, P * V)   # (the decoder's weights are the word embeddings)
    b.elementwise(P * V, 3, 2)                   # softmax cross-entropy
    b.matmul(2.0 * batch * H * H, batch * H, H * H + 2 * H, batch * H)   # pooler + next-sentence head
    s = b.finish(slot_copies=0, update_flops_per_param=1.0)
    # (finish's update is the gradient accumulation: read the accumulator and the gradient, write the
    # accumulator: 3 x 4 bytes per parameter, which slot_copies=0 gives)
    p = float(s.params)
    if mixed:   # unscale the float16 gradients into float32 (and, tf1, the finite check): BERT_PROGRAMS
        s.kernels.insert(len(s.kernels) - 1, Kernel(p, 6.0 * p, "float32", "elementwise"))
    if program == "tf1":   # every micro-batch: the global norm (a read), then the clip (a read, a write)
        s.kernels.insert(len(s.kernels) - 1, Kernel(2.0 * p, 4.0 * p, "float32", "elementwise"))
        s.kernels.insert(len(s.kernels) - 1, Kernel(p, 8.0 * p, "float32", "elementwise"))
        # its per-variable ops' kernels beyond these fused ones, counted from its graph
        extra = tf1_launches.bert_tf1(L, mixed)
        s.launches, s.update_launches = extra.micro, extra.update
    return s


# GPT-2 (OpenAI's sizes): layers, width, heads; vocabulary 50,257 padded to 50,304 (llm.c), 1,024 positions.
GPT2 = {"124M": (12, 768, 12), "350M": (24, 1024, 16), "774M": (36, 1280, 20), "1558M": (48, 1600, 25)}


def gpt2(size: str, batch: int, seq: int, shards: int = 1) -> Step:
    """One GPT-2 training micro-batch as llm.c runs it (bfloat16 mixed precision, cuDNN flash
    attention with a causal mask: half the score FLOPs; tied input/output embeddings; AdamW with
    the optimizer state sharded over ``shards`` GPUs, ZeRO-1) on one GPU."""
    L, d, _heads = GPT2[size]
    V, P = 50304, 1024
    b = _Builder(Step(f"GPT-2 {size}", batch), mixed=True)
    N = batch * seq
    b.s.params += (V + P) * d            # token and position embeddings (the token table is also the LM head)
    b.elementwise(N * d, 3, 3, 1.0)      # embedding lookups and their sum
    for _ in range(L):
        b.elementwise(N * d, 2, 4)                                   # layer norm
        b.matmul(2.0 * N * d * 3 * d, N * d, 3 * d * d + 3 * d, 3 * N * d)
        b.attention(2.0 * batch * seq * seq * d, 3 * N * d, N * d)  # causal: half of 4 B S^2 d
        b.matmul(2.0 * N * d * d, N * d, d * d + d, N * d)
        b.add_act(N * d)                                             # residual
        b.elementwise(N * d, 2, 4)                                   # layer norm
        b.matmul(2.0 * N * d * 4 * d, N * d, 4 * d * d + 4 * d, 4 * N * d)
        b.elementwise(4 * N * d, 2, 3, 8.0)                          # GELU
        b.matmul(2.0 * N * 4 * d * d, 4 * N * d, 4 * d * d + d, N * d)
        b.add_act(N * d)                                             # residual
        b.s.params += 4 * d                                          # the two layer norms
    b.elementwise(N * d, 2, 4)                                       # final layer norm
    b.matmul(2.0 * N * d * V, N * d, 0, N * V)                       # LM head (tied weights)
    b.elementwise(N * V, 1, 1)                                       # fused softmax cross-entropy: reads logits, writes their gradient
    return b.finish(slot_copies=2, update_flops_per_param=10.0, shards=shards)
