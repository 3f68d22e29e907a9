"""Show that the harden20b suite family (option pairs under trained state) kills mutants: plant each
(a catalogue id, or one of OWN below, which are not in the catalogue) in a private copy of the
committed package and run only ``-k harden20b`` of the conformance suite against it (simdist backend).

    python benchmarks/harden20b_kills.py ID [ID ...]     # catalogue ids, own:NAME, or baseline
    python benchmarks/harden20b_kills.py own             # the ten OWN mutants
    python benchmarks/harden20b_kills.py blind17         # the seven blind-17 survivors
    python benchmarks/harden20b_kills.py --whole ID ...  # the whole family, not the mutant's module

A mutant in keras/optimizers, keras/layers, keras/metrics or keras/losses runs the family's module
for that area (MODULES) unless --whole; any other (the blind-17 survivors in the runtime and
utils) runs the whole family.

Prints one line per mutant: killed (with every failing test) or survived.
"""

from __future__ import annotations

import sys

from suite_kills import find as _find, mutants, run as _run

_K = "simdist/keras/"
_M = mutants.Mutant
#: Ten option-combination bugs written for this check, in classes the seventeenth blind batch did
#: not touch (an option ignored when another is set, a state update ignoring an option, two
#: options' order swapped), not in the catalogue.
OWN = {m.id: m for m in (
    _M("accumulation-mean-not-clipped", "formula", _K + "optimizers/base_optimizer.py",
       "                mean = self._clip_gradients(mean)\n", "",
       "with gradient_accumulation_steps, the accumulated mean gradient is not clipped (clipnorm, "
       "clipvalue, global_clipnorm ignored)", layer="training"),
    _M("accumulation-skips-weight-decay", "formula", _K + "optimizers/base_optimizer.py",
       "                self._apply_weight_decay(trainable_variables)\n                self._backend_update_step(mean,",
       "                self._backend_update_step(mean,",
       "with gradient_accumulation_steps, the update step forgets weight decay", layer="training"),
    _M("rmsprop-centered-ignored-with-momentum", "formula", _K + "optimizers/rmsprop.py",
       "        if self.centered:\n            self.assign(average_grad,",
       "        if self.centered and self.momentum == 0:\n            self.assign(average_grad,",
       "RMSprop(centered=True, momentum>0) takes the uncentered denominator", layer="training"),
    _M("batchnorm-renorm-stats-use-momentum", "state", _K + "layers/normalization.py",
       "renorm_mean * self.renorm_momentum + mean * (1.0 - self.renorm_momentum)",
       "renorm_mean * self.momentum + mean * (1.0 - self.momentum)",
       "BatchNormalization(renorm=True): the renorm mean moves with momentum, not renorm_momentum",
       layer="training"),
    _M("clipnorm-before-loss-scale", "formula", _K + "optimizers/base_optimizer.py",
       "            return [ops.clip_by_norm(g, self.clipnorm) if g is not None else g for g in grads]",
       "            return [ops.clip_by_norm(g, self.clipnorm / (self.loss_scale_factor or 1.0)) if g is not None "
       "else g for g in grads]",
       "clipnorm acts on the still-scaled gradient (clip before dividing by loss_scale_factor)", layer="training"),
    _M("focal-balancing-from-raw-labels", "formula", _K + "losses/probabilistic_losses.py",
       "        weight = y_true * alpha + (1 - y_true) * (1 - alpha)",
       "        weight = ops.round(y_true) * alpha + (1 - ops.round(y_true)) * (1 - alpha)",
       "BinaryFocalCrossentropy(apply_class_balancing, label_smoothing): alpha weights from the labels "
       "before smoothing (the two options' order swapped)", layer="training"),
    _M("rnn-mask-by-loop-position-with-go-backwards", "formula", _K + "layers/rnn_loop.py",
       "            output = tf.where(step_masks.at(t, output), output, fallback)",
       "            output = tf.where(step_masks.at(steps - 1 - t if go_backwards else t, output), output, fallback)",
       "a masked go_backwards RNN reads the output's mask by loop position, not by time step", layer="training"),
    _M("precision-top-k-ignored-with-class-id", "formula", _K + "metrics/metrics_utils.py",
       "    if top_k is not None:\n        y_pred = filter_top_k(y_pred, top_k)",
       "    if top_k is not None and class_id is None:\n        y_pred = filter_top_k(y_pred, top_k)",
       "Precision/Recall(top_k, class_id): top_k is ignored once class_id is set", layer="training"),
    _M("fscore-weighted-support-unweighted", "state", _K + "metrics/f_score_metrics.py",
       "        self.intermediate_weights.assign(self.intermediate_weights + weighted_sum(y_true))",
       "        self.intermediate_weights.assign(self.intermediate_weights + tf.reduce_sum(y_true, axis=self.axis))",
       "F1Score/FBetaScore(average='weighted') with sample_weight: the class supports ignore the weights",
       layer="training"),
    _M("auc-pr-interpolation-ignores-label-weights", "formula", _K + "metrics/confusion_metrics.py",
       "            by_label_auc = ops.sum(pr_auc_increment, axis=0)\n            if self.label_weights is None:",
       "            by_label_auc = ops.sum(pr_auc_increment, axis=0)\n            if True:",
       "AUC(curve='PR', multi_label=True, label_weights=...) with interpolation: an unweighted mean",
       layer="training"),
)}
BLIND17 = ("dot-normalize-second-input-on-first-axis", "attention-concat-scale-outside-tanh",
           "unit-normalization-epsilon-of-dot", "thresholded-relu-keeps-theta",
           "nn-normalize-moments-variance-of-shifted-mean", "progbar-stateless-average-unweighted",
           "split-dataset-fraction-floored")


def find(mid: str) -> mutants.Mutant:
    return _find(mid, OWN)


#: The family's module for a mutant's area (by its file): a kill there is a kill by the family; a
#: mutant elsewhere (and the baseline) runs the whole family.
MODULES = {_K + "optimizers/": "harden20b_trained_optimizer",
           _K + "layers/": "harden20b_trained_layer",
           _K + "metrics/": "harden20b_trained_metric",
           _K + "losses/": "harden20b_trained_loss"}


def run(m: mutants.Mutant | None, whole: bool = False) -> str:
    """Plant `m` (None: nothing, the baseline, which must pass) in a copy and run the family (the
    module of its area unless `whole`)."""
    k = "harden20b"
    if m is not None and not whole:
        k = next((v for prefix, v in MODULES.items() if m.path.startswith(prefix)), k)
    return _run(m, k, every_failure=True)


if __name__ == "__main__":
    ids = []
    whole = "--whole" in sys.argv
    for arg in [a for a in sys.argv[1:] if a != "--whole"]:
        ids += ([f"own:{k}" for k in OWN] if arg == "own" else list(BLIND17) if arg == "blind17" else [arg])
    for mid in ids:
        print(f"{mid}: {run(None if mid == 'baseline' else find(mid), whole)}", flush=True)
