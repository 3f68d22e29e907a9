"""Show that the harden20 suite family (edges from source constants) kills mutants of the edge kind:
plant each (a catalogue id, or one of OWN below, which are not in the catalogue) in a private copy of
the committed package and run only ``-k harden20_edges`` of the conformance suite against it (simdist
backend), every failing test listed (suite_kills.py's plant-and-run).

    python benchmarks/harden20_kills.py ID [ID ...]     # catalogue ids, own:NAME, own (all OWN),
                                                        # blind17 (the seventeenth batch's 7 survivors), baseline

Prints one line per mutant: killed (with every failing test) or survived.
"""

from __future__ import annotations

import sys

from suite_kills import find as _find, mutants, run as _run

_K = "simdist/keras/"
_R = "simdist/runtime/ops/"


def _m(mid: str, path: str, old: str, new: str, why: str) -> mutants.Mutant:
    return mutants.Mutant(mid, "boundary", path, old, new, why, layer="training")


#: Twelve bugs of the edge kind written for this check (a comparison's side, an epsilon's size or place,
#: a rounding function, an axis default), in classes the seventeenth blind batch did not touch.
OWN = {m.id: m for m in [
    _m("hard-shrink-keeps-threshold", _K + "activations.py",
       "    return tf.where(tf.abs(x) > threshold, x, tf.zeros_like(x))",
       "    return tf.where(tf.abs(x) >= threshold, x, tf.zeros_like(x))",
       "hard_shrink keeps |x| == threshold (Keras keeps only |x| > threshold)"),
    _m("binary-accuracy-threshold-inclusive", _K + "metrics/accuracy_metrics.py",
       "    y_pred = ops.cast(tf.greater(ops.cast(y_pred, dt), ops.cast(threshold, dt)), y_true.dtype)",
       "    y_pred = ops.cast(tf.greater_equal(ops.cast(y_pred, dt), ops.cast(threshold, dt)), y_true.dtype)",
       "binary_accuracy counts y_pred == threshold as positive"),
    _m("confusion-threshold-inclusive", _K + "metrics/metrics_utils.py",
       "    pred_is_pos = tf.greater(preds_tiled, thresh_tiled)",
       "    pred_is_pos = tf.greater_equal(preds_tiled, thresh_tiled)",
       "confusion-matrix metrics (Precision, Recall, AUC, ...) count a score equal to a threshold as positive"),
    _m("piecewise-first-boundary-exclusive", _K + "optimizers/schedules.py",
       "        result += ops.cast(step <= boundaries[0], result_dtype) * values[0]",
       "        result += ops.cast(step < boundaries[0], result_dtype) * values[0]",
       "PiecewiseConstantDecay leaves values[0] one step early (step == boundaries[0] gets 0)"),
    _m("exponential-staircase-rounds", _K + "optimizers/schedules.py",
       "        p = ops.cast(step, dtype) / decay_steps\n        if self.staircase:\n            p = ops.floor(p)\n"
       "        return ops.multiply(initial_learning_rate, ops.power(decay_rate, p))",
       "        p = ops.cast(step, dtype) / decay_steps\n        if self.staircase:\n            p = ops.round(p)\n"
       "        return ops.multiply(initial_learning_rate, ops.power(decay_rate, p))",
       "ExponentialDecay(staircase=True) rounds step / decay_steps instead of flooring it"),
    _m("constraints-epsilon-1e-6", _K + "constraints.py",
       "_EPSILON = 1e-7   # keras.config.epsilon()",
       "_EPSILON = 1e-6   # keras.config.epsilon()",
       "MaxNorm/MinMaxNorm/UnitNorm divide by norms + 1e-6, not keras.config.epsilon() (1e-7)"),
    _m("l2-normalize-default-epsilon-1e-10", _R + "normalization.py",
       "def l2_normalize(x: Any, axis: Any = None, epsilon: float = 1e-12,",
       "def l2_normalize(x: Any, axis: Any = None, epsilon: float = 1e-10,",
       "tf.nn.l2_normalize's default epsilon is 1e-10, not 1e-12"),
    _m("adagrad-epsilon-outside-sqrt", _K + "optimizers/adagrad.py",
       "                                             ops.sqrt(ops.add(accumulator, self.epsilon))))",
       "                                             ops.add(ops.sqrt(accumulator), self.epsilon)))",
       "Adagrad divides by sqrt(acc) + epsilon instead of sqrt(acc + epsilon)"),
    _m("ops-round-half-up", _K + "ops/tf_numpy.py",
       "    if decimals == 0:\n        return tf.round(x)\n",
       "    if decimals == 0:\n        return tf.floor(x + 0.5)\n",
       "keras.ops.round rounds halves up instead of to even"),
    _m("leaky-relu-grad-at-zero", _R + "activations.py",
       "lambda g, x, alpha: np.where(x > 0, g, g * x.dtype.type(alpha))",
       "lambda g, x, alpha: np.where(x >= 0, g, g * x.dtype.type(alpha))",
       "LeakyReluGrad passes the full gradient at x == 0 (TF: alpha * gradient where x <= 0)"),
    _m("softmax-default-axis-1", _K + "activations.py",
       "def softmax(x: Any, axis: int | None = -1) -> Any:",
       "def softmax(x: Any, axis: int | None = 1) -> Any:",
       "keras.activations.softmax's default axis is 1 (the same as -1 on rank 2 only), not -1"),
    _m("adamax-epsilon-inside-max", _K + "optimizers/adamax.py",
       "ops.multiply((1 - beta_1_power), ops.add(u, self.epsilon))",
       "ops.multiply((1 - beta_1_power), ops.maximum(u, self.epsilon))",
       "Adamax divides by max(u, epsilon) instead of u + epsilon"),
]}
BLIND17 = ["dot-normalize-second-input-on-first-axis", "attention-concat-scale-outside-tanh",
           "unit-normalization-epsilon-of-dot", "thresholded-relu-keeps-theta",
           "nn-normalize-moments-variance-of-shifted-mean", "progbar-stateless-average-unweighted",
           "split-dataset-fraction-floored"]


def find(mid: str) -> mutants.Mutant:
    return _find(mid, OWN)


def run(m: mutants.Mutant | None) -> str:
    """Plant `m` (None: nothing, the baseline, which must pass) in a copy and run the family."""
    return _run(m, "harden20_edges", every_failure=True)


def expand(ids: list[str]) -> list[str]:
    out: list[str] = []
    for mid in ids:
        out += [f"own:{k}" for k in OWN] if mid == "own" else BLIND17 if mid == "blind17" else [mid]
    return out


if __name__ == "__main__":
    for mid in expand(sys.argv[1:]):
        print(f"{mid}: {run(None if mid == 'baseline' else find(mid))}", flush=True)
