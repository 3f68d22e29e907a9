"""The kernels a TensorFlow 1 BERT training program launches for its per-variable ops, counted from
its graph: what the fused kernel list of `workloads.bert_large` does not have.

NVIDIA's TF1 BERT (DeepLearningExamples TensorFlow/LanguageModeling/BERT at 002bcd8: modeling.py,
optimization.py, run_pretraining.py with ``--use_xla``, the 20.06 container's TF 1.15) handles its
gradients variable by variable: optimization.py's accumulation branch runs, every micro-batch,
``tf.clip_by_global_norm`` (an ``l2_loss`` per gradient inside a v1 ``tf.cond``, then a multiply
per gradient), an ``assign_add`` per accumulator and, in mixed precision, a
``reduce_all(is_finite(g))`` per gradient; once per optimizer step, LAMB's Python loop (two
``norm`` reductions and the moment and weight updates per variable) and, in float32, three
``assign`` per variable to reference variables (run_pretraining.py turns resource variables on only
under ``--amp`` with XLA). XLA's auto-clustering (``global_jit_level=ON_1``) fuses most of it, but
not all:

- ops left outside every cluster run as kernels of their own: observed on TF 2.21's own
  auto-clustering of the graph built from those sources (`tf.compat.v1`, XLA on, the trace of
  one micro-batch and of one optimizer step; docs/validation.md "The sixth round"): one
  ``AssignAdd``/``AssignAddVariableOp`` per variable every micro-batch, and in float32 (reference
  variables) three ``Assign`` per variable every optimizer step;
- inside a cluster, XLA's GPU backend makes every reduction the root of a fusion of its own, and
  fuses independent elementwise (loop) fusions side by side only in batches
  (tensorflow/compiler/xla/service/gpu/horizontal_fusion.cc at the container's tag
  v1.15.2+nv20.06: loop fusions only, ``kMaxFusionBatchSize`` 32): one kernel per variable per
  reduction, one per 32 variables per elementwise stage.

So a micro-batch launches, per variable, its ``l2_loss`` reduction, its accumulation and (mixed
precision) its finite check, plus the clip's elementwise stage once per 32 variables; an optimizer
step launches per variable LAMB's two norms and (mixed precision) the loss-scale optimizer's
finite check, two elementwise stages once per 32 variables, and (float32) the three assigns. Each
such kernel costs its launch overhead (`hardware.GPUSpec.launch_overhead`, 5 us: the low end of
"between 5-20 microseconds" of CPU-side launch time, Meta's Holistic Trace Analysis docs; its bytes are
already charged by the fused kernels the workload has). The kernels `workloads.bert_large` already
charges for the same work (the global norm, the clip, the accumulation, the unscale; LAMB's
update) are subtracted: they are the same work, counted once.
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["HORIZONTAL_BATCH", "UNCLUSTERED", "REDUCTIONS", "ELEMENTWISE_STAGES", "FUSED", "Launches",
           "bert_variables", "bert_tf1"]

# XLA GPU's horizontal fusion: at most this many loop fusions in one kernel (horizontal_fusion.cc,
# kMaxFusionBatchSize, at NVIDIA/tensorflow v1.15.2+nv20.06)
HORIZONTAL_BATCH = 32

# Per variable, keyed by (phase, mixed precision); phase "micro" (every micro-batch) or "update" (every
# optimizer step). Checked against TF 2.21's graph of the same program by
# tests/validation/test_tf1_launches_tf.py.
# ops XLA's auto-clustering leaves outside every cluster (kernels of their own): the accumulator's
# assign_add every micro-batch; LAMB's three assigns to reference variables (float32 only)
UNCLUSTERED = {("micro", False): 1, ("micro", True): 1, ("update", False): 3, ("update", True): 0}
# reductions (one XLA fusion, one kernel each): the clip's l2_loss (+ the finite check in mixed
# precision); LAMB's two norms (+ the loss-scale optimizer's finite check in mixed precision)
REDUCTIONS = {("micro", False): 1, ("micro", True): 2, ("update", False): 2, ("update", True): 3}
# elementwise stages per variable, fused side by side HORIZONTAL_BATCH variables per kernel: the clip's
# multiply; LAMB's moments and direction, then its weight update (after the norms)
ELEMENTWISE_STAGES = {"micro": 1, "update": 2}
# the workload's own kernels for the same work (`workloads.bert_large`, `training._update`): the global
# norm, the clip and the accumulation (+ the unscale in mixed precision); LAMB's update
FUSED = {("micro", False): 3, ("micro", True): 4, ("update", False): 1, ("update", True): 1}


@dataclass(frozen=True)
class Launches:
    """Kernel launches beyond the workload's kernels: per micro-batch and per optimizer step."""

    micro: int
    update: int


def bert_variables(layers: int) -> int:
    """Trainable variables of TF1 BERT's pre-training graph: 16 per encoder layer (query, key,
    value, attention output, intermediate and output dense layers: kernel and bias each; two layer
    norms: beta and gamma each) and 14 more (three embedding tables and their layer norm; pooler;
    the masked-LM head's transform, its layer norm and output bias; the next-sentence head) --
    46 and 78 at 2 and 4 layers in the graph TF builds from modeling.py, 398 for BERT-large."""
    return 16 * layers + 14


def _phase(phase: str, v: int, mixed: bool) -> int:
    key = (phase, mixed)
    return ((UNCLUSTERED[key] + REDUCTIONS[key]) * v + ELEMENTWISE_STAGES[phase] * -(-v // HORIZONTAL_BATCH)
            - FUSED[key])


def bert_tf1(layers: int, mixed: bool) -> Launches:
    """The extra launches of TF1 BERT's program (module docstring) for ``layers`` encoder layers."""
    v = bert_variables(layers)
    return Launches(_phase("micro", v, mixed), _phase("update", v, mixed))
