"""Floating-point tolerances, declared per clause.

A comparison passes when ``|got - expected| <= atol + rtol * scale`` elementwise, where
``scale`` is ``|expected|`` or, for reductions, the sum of the magnitudes that were reduced
(implementations may add in any order). The suite's generated floats are multiples of 1/4
of moderate size, so sums are exact in float32 and only a division (MEAN) rounds; the
tolerances below leave room for implementations that sum in float64 and round once, or sum
pairwise in float32.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Tolerance:
    rtol: float
    atol: float

    def __str__(self) -> str:
        return f"rtol={self.rtol:g}, atol={self.atol:g}"


#: Used for clauses not listed below: exact up to float32 rounding of one operation.
DEFAULT = Tolerance(rtol=2e-7, atol=0.0)

PER_CLAUSE: dict[str, Tolerance] = {
    # MEAN = (sum of all elements) / (true count): one rounding of a float32 division plus
    # the cast of the count; implementations may also divide per replica and then add.
    "reduce.partial-batch": Tolerance(rtol=1e-6, atol=1e-7),
    "reduce.axis-batch": Tolerance(rtol=1e-6, atol=1e-7),
    "reduce.axis-none": Tolerance(rtol=1e-6, atol=1e-7),
    "reduce.plain-value": Tolerance(rtol=1e-6, atol=1e-7),
    "reduce.string-op": Tolerance(rtol=1e-6, atol=1e-7),
    "run.replica-context": Tolerance(rtol=1e-6, atol=1e-7),
    "pss.sharded-convert": Tolerance(rtol=0.0, atol=0.0),
    "gather.concat": Tolerance(rtol=0.0, atol=0.0),
    # Training: a few float32 optimizer steps (sqrt, pow, divisions) against a float64 reference.
    "optim.update-rules": Tolerance(rtol=1e-5, atol=1e-6),
    "keras.constraints": Tolerance(rtol=1e-5, atol=1e-6),
    "optim.schedules": Tolerance(rtol=1e-6, atol=1e-7),
    "optim.mirrored-sum": Tolerance(rtol=1e-5, atol=1e-6),
    "optim.css-aggregation": Tolerance(rtol=1e-5, atol=1e-6),
    "optim.sparse-updates": Tolerance(rtol=1e-5, atol=1e-6),
    "optim.sparse-all-reduce": Tolerance(rtol=1e-6, atol=1e-7),
    "optim.slot-placement": Tolerance(rtol=1e-5, atol=1e-6),
    "optim.pss-updates": Tolerance(rtol=1e-5, atol=1e-6),
    "optim.build-in-function": Tolerance(rtol=1e-5, atol=1e-6),
    "optim.clipping": Tolerance(rtol=1e-5, atol=1e-6),
    "optim.update": Tolerance(rtol=1e-6, atol=1e-7),
    # A float32 relu/tanh network, 3 steps (Adam's division amplifies float32 rounding) vs float64.
    "training.nonlinear-models": Tolerance(rtol=1e-4, atol=1e-5),
    # Two runs of the same backend (restored vs never interrupted): only summation order may differ.
    "optim.state-round-trip": Tolerance(rtol=1e-6, atol=1e-7),
    # Keras losses and metrics: float32 logs, exps and means against float64 references.
    **{c: Tolerance(rtol=1e-5, atol=1e-6) for c in (
        "keras.loss.reductions", "keras.loss.sample-weight", "keras.loss.distribution-scaling", "keras.loss.dtype",
        "keras.loss.from-logits", "keras.loss.epsilon-clipping", "keras.loss.logits-shortcut", "keras.loss.shapes",
        "keras.loss.ignore-class", "keras.loss.label-smoothing", "keras.loss.functions", "keras.loss.get",
        "mirrored.sync-on-read", "keras.metric.update-result-reset", "keras.metric.sample-weight",
        "keras.metric.cross-replica", "keras.metric.central-storage", "keras.metric.accuracy", "keras.metric.auc",
        "keras.metric.get", "keras.metric.accuracy-resolution", "keras.loss.focal", "keras.metric.r2-score")},
    # Keras layers (float32 sums over windows and batches against a float64 reference)
    "keras.layer.conv2d": Tolerance(rtol=1e-5, atol=1e-6),
    "keras.layer.conv2d.channels-first": Tolerance(rtol=1e-5, atol=1e-6),
    "keras.layer.conv1d": Tolerance(rtol=1e-5, atol=1e-6),
    "keras.layer.depthwise-separable": Tolerance(rtol=1e-5, atol=1e-6),
    "keras.layer.upsampling-padding": Tolerance(rtol=1e-6, atol=1e-7),
    "keras.layer.conv-family.fit": Tolerance(rtol=1e-4, atol=1e-6),
    "keras.layer.pooling.window": Tolerance(rtol=1e-6, atol=1e-7),
    "keras.layer.pooling.global": Tolerance(rtol=1e-6, atol=1e-7),
    "keras.layer.layernorm": Tolerance(rtol=1e-5, atol=1e-6),
    "keras.layer.batchnorm": Tolerance(rtol=1e-5, atol=1e-6),
    "keras.layer.batchnorm.replicas": Tolerance(rtol=1e-5, atol=1e-6),
    "keras.layer.batchnorm.synchronized": Tolerance(rtol=1e-5, atol=1e-6),
    "replica.all-reduce-gradient": Tolerance(rtol=1e-6, atol=1e-7),
    "replica.all-gather-gradient": Tolerance(rtol=1e-6, atol=1e-7),
    # recurrent layers: float32 steps (matmuls, sigmoid, tanh) against a float64 loop
    "keras.rnn.layers": Tolerance(rtol=1e-5, atol=1e-6),
    "keras.rnn.bidirectional": Tolerance(rtol=1e-5, atol=1e-6),
    "keras.mask.propagation": Tolerance(rtol=1e-5, atol=1e-6),
    # attention: float32 einsums and a softmax against a float64 reference; training runs of
    # one and two replicas (gradients summed in another order)
    "keras.mha.values": Tolerance(rtol=1e-5, atol=1e-6),
    "keras.mha.masks": Tolerance(rtol=1e-5, atol=1e-6),
    "keras.mha.distributed": Tolerance(rtol=1e-4, atol=1e-6),
    # mixed precision: one step from 16-bit gradients (float16: 11 significant bits, bfloat16: 8)
    "keras.mixed-precision.auto-loss-scale": Tolerance(rtol=1e-5, atol=1e-6),
    # Keras's training loop: a few float32 steps of a small model against a float64 reference.
    **{c: Tolerance(rtol=1e-5, atol=1e-6) for c in (
        "keras.compile.scope", "keras.fit.enters-scope", "keras.fit.distributed-step", "keras.fit.logs",
        "keras.predict.order", "keras.fit.validation", "keras.fit.traced-shapes", "keras.fit.data",
        "keras.fit.callbacks", "reduce.nested", "keras.fit.evaluate-inference", "keras.fit.python-inputs",
        "keras.utils.data-tools", "keras.models.clone", "keras.backend.legacy")},
    # issue 29's option-coverage tables: a few float32 steps, losses, metrics and layers (sums,
    # exps, square roots) against float64 references; callbacks' training runs.
    **{c: Tolerance(rtol=1e-5, atol=1e-6) for c in (
        "optim.option-coverage", "keras.loss.option-coverage", "keras.metric.option-coverage",
        "keras.layer.option-coverage", "keras.callback.option-coverage")},
}


def tolerance_for(clause_id: str | None) -> Tolerance:
    if clause_id is None:
        return DEFAULT
    return PER_CLAUSE.get(clause_id, DEFAULT)
