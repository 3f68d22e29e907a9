"""Does the suite kill bugs planted on lines it already runs in Keras training and distribution (losses'
sample-weight ranks, metrics' thresholds and weights, optimizers' options over several steps, moments)?
Plant each (one of SWEEP24B_OWN below, not in the catalogue) in a private copy of the committed package
and run a slice of the conformance suite against it (simdist backend), every failing test listed
(suite_kills.py's plant-and-run).

    python benchmarks/sweep24b_kills.py [--targeted|--new] ID [ID ...]   # own:NAME, own (all), baseline

`--targeted` (the default) runs the suite modules that call the mutant's API (TARGETS below: a grep of
the suite, case tables mapped to the modules reading them); `--new` only the sweep24b modules.

The bugs were written (2026-12-02, session 24) before the sweep24b tests that kill them: each sits on a line
the suite runs, hidden by the suite's inputs (weights of the values' rank, equal replica batches, float16
statistics that do not overflow, no bfloat16, an EMA overwrite counted over four applies, a scalar weight
only beside rank-2 values), and each is observable on TF 2.21 with other inputs (the sweep24b tests pass
on TF 2.21). Of the 24 written, 14 were already killed by the targeted modules (CAUGHT_BEFORE); the other
ten are SWEEP24B_OWN.
"""

from __future__ import annotations

import sys

from suite_kills import expand as _expand, find as _find, mutants, run as _run

_O = "simdist/keras/optimizers/"
_L = "simdist/keras/losses/"
_M = "simdist/keras/metrics/"


def _m(mid: str, kind: str, path: str, old: str, new: str, why: str) -> mutants.Mutant:
    return mutants.Mutant(mid, kind, path, old, new, why, layer="training")


#: Every bug written (named last in `why`: the inputs that hide it); SWEEP24B_OWN below keeps those the suite's
#: modules did not kill.
_WRITTEN = {m.id: m for m in [
    _m("clipvalue-clips-only-above", "boundary", _O + "base_optimizer.py",
       "return [ops.clip(g, -v, v) if g is not None else g for g in grads]",
       "return [ops.minimum(g, v) if g is not None else g for g in grads]",
       "clipvalue caps gradients from above only (invisible when no gradient is below -clipvalue)"),
    _m("global-clipnorm-per-tensor", "formula", _O + "base_optimizer.py",
       "return clip_by_global_norm(grads, self.global_clipnorm)",
       "return [ops.clip_by_norm(g, self.global_clipnorm) if g is not None else g for g in grads]",
       "global_clipnorm clips each gradient by its own norm (invisible with one variable)"),
    _m("grad-accumulators-not-reset", "state", _O + "base_optimizer.py",
       "unwrap(a).assign(tf.zeros_like(_read(a)))",
       "unwrap(a).assign(_read(a))",
       "gradient accumulators keep their sum after an update step (invisible within one accumulation cycle)"),
    _m("amsgrad-vhat-tracks-v", "state", _O + "adam.py",
       "self.assign(v_hat, ops.maximum(v_hat, v))",
       "self.assign(v_hat, v)",
       "Adam(amsgrad=True) keeps the last velocity, not the running maximum (invisible while the velocity "
       "grows: one step, or gradients that do not shrink)"),
    _m("adam-bias-step-counts-micro-steps", "formula", _O + "adam.py",
       "local_step = ops.cast(self.iterations + 1, variable.dtype)",
       "local_step = ops.cast(self._iterations + 1, variable.dtype)",
       "Adam's bias correction counts every apply, not the completed accumulation cycles (invisible without "
       "gradient_accumulation_steps)"),
    _m("loss-weight-rank-expands-values", "axis", _L + "loss.py",
       "        if r1 == 1 and expand_rank_1:\n            x1 = ops.expand_dims(x1, -1)",
       "        if expand_rank_1:\n            x1 = ops.expand_dims(x1, -1)",
       "a loss's values of rank >= 2 with weights of one more rank (a trailing 1) are expanded, not the "
       "weights squeezed: reduction='none' gives a trailing axis of 1 (invisible with weights of the "
       "values' rank, or rank-1 values)"),
    _m("confusion-threshold-inclusive", "boundary", _M + "metrics_utils.py",
       "pred_is_pos = tf.greater(preds_tiled, thresh_tiled)",
       "pred_is_pos = tf.greater_equal(preds_tiled, thresh_tiled)",
       "threshold metrics count a prediction equal to a threshold as positive (invisible when no "
       "prediction sits exactly at a threshold)"),
    _m("weighted-moments-weights-unbroadcast", "formula", "simdist/runtime/ops/nn_more.py",
       "broadcasted_weights = w + zeros_like(xt)",
       "broadcasted_weights = w",
       "tf.nn.weighted_moments divides by the sum of the weights as given, not broadcast to x (invisible "
       "when the weights have x's shape)"),
    _m("cce-smoothing-classes-from-axis", "axis", _L + "losses.py",
       "        num_classes = ops.cast(ops.shape(y_true)[-1], y_pred.dtype)\n        y_true = y_true * (1.0 - "
       "label_smoothing) + (label_smoothing / num_classes)",
       "        num_classes = ops.cast(ops.shape(y_true)[axis], y_pred.dtype)\n        y_true = y_true * (1.0 - "
       "label_smoothing) + (label_smoothing / num_classes)",
       "categorical_crossentropy's label smoothing counts the classes on `axis`; Keras reads the last axis "
       "whatever `axis` is (invisible at axis=-1)"),
    _m("mean-metric-weight-rows-summed", "formula", _M + "reduction_metrics.py",
       "            sample_weight = reduce_fn(sample_weight, axis=list(range(1, weight_ndim)))",
       "            sample_weight = ops.sum(sample_weight, axis=list(range(1, weight_ndim)))",
       "Mean metrics count a sample's weight as the sum over its row, not the mean (invisible with "
       "weights of rank 1)"),
    _m("ema-overwrite-counts-micro-steps", "formula", _O + "base_optimizer.py",
       "overwrite = tf.equal(tf.math.floormod(_read(self.iterations) + 1,",
       "overwrite = tf.equal(tf.math.floormod(_read(self._iterations) + 1,",
       "ema_overwrite_frequency counts every apply, not the completed accumulation cycles (invisible without "
       "gradient_accumulation_steps)"),
    _m("mean-with-sample-weight-divides-by-broadcast", "formula", _L + "loss.py",
       "divisor = ops.cast(ops.sum(sample_weight), loss.dtype)",
       "divisor = ops.cast(ops.sum(sample_weight * ops.ones_like(values)), loss.dtype)",
       "reduction='mean_with_sample_weight' divides by the weights broadcast to the values, not the weights "
       "as matched (invisible with weights of the values' shape)"),
    _m("sparse-square-after-sum", "formula", _O + "_ops.py",
       "square = _unary(tf.square)",
       "square = lambda x: tf.square(tf.convert_to_tensor(x))  # noqa: E731",
       "the optimizers square an IndexedSlices gradient after adding its repeated rows, not before "
       "(invisible with distinct indices)"),
    _m("mean-metric-scalar-weight-per-sample", "axis", _M + "reduction_metrics.py",
       "        if values_ndim > weight_ndim:\n",
       "        if values_ndim > max(weight_ndim, 1):\n",
       "Mean metrics with a scalar weight keep the batch axis, so each sample counts the weight (Keras: the "
       "batch is one sample; invisible with weights of rank >= 1)"),
    _m("ema-first-step-counts-micro-steps", "formula", _O + "base_optimizer.py",
       "not_first_step = tf.cast(tf.not_equal(_read(self.iterations), tf.constant(0, tf.int64)), value.dtype)",
       "not_first_step = tf.cast(tf.not_equal(_read(self._iterations), tf.constant(0, tf.int64)), value.dtype)",
       "the EMA's first step (momentum 0) is the first apply, not the first accumulation cycle (invisible "
       "without gradient_accumulation_steps)"),
    _m("keras-ops-moments-float16-variance-unclipped", "boundary", "simdist/keras/ops/tf_nn.py",
       "        variance = tf.clip_by_value(variance, tf.float16.min, tf.float16.max)\n",
       "",
       "keras.ops.moments of float16 casts the float32 variance back without clipping it to float16's range "
       "(inf, not 65504; invisible unless the variance overflows float16)"),
    _m("sync-bn-counts-replicas-times-local", "formula", "simdist/keras/layers/normalization.py",
       "count_sum = replica_ctx.all_reduce(tf.distribute.ReduceOp.SUM, local_count)",
       "count_sum = local_count * tf.cast(replica_ctx.num_replicas_in_sync, local_count.dtype)",
       "synchronized BatchNormalization counts the global batch as replicas x this replica's batch (invisible "
       "when every replica holds the same number of examples)"),
    _m("loss-weight-trailing-one-always-squeezed", "axis", _L + "loss.py",
       "        if r1 == 1 and expand_rank_1:\n            x1 = ops.expand_dims(x1, -1)\n        else:\n"
       "            x2 = ops.squeeze(x2, -1)",
       "        x2 = ops.squeeze(x2, -1)",
       "weights with a trailing axis of 1 one rank above rank-1 values are squeezed, not the values expanded: "
       "reduction='none' gives (batch,), not (batch, 1) (invisible with weights of the values' rank)"),
    _m("mean-metric-weights-not-broadcast", "formula", _M + "reduction_metrics.py",
       "        sample_weight = ops.broadcast_to(sample_weight, ops.shape(values))\n",
       "",
       "Mean metrics count the weights as given, not broadcast to the values: (1, steps) weights count one "
       "row (invisible with weights of the values' batch size)"),
    _m("piecewise-first-boundary-exclusive", "boundary", _O + "schedules.py",
       "result += ops.cast(step <= boundaries[0], result_dtype) * values[0]",
       "result += ops.cast(step < boundaries[0], result_dtype) * values[0]",
       "PiecewiseConstantDecay leaves values[0] before the first boundary, not after it (a rate of 0 AT the "
       "boundary; invisible unless a step equals the first boundary)"),
    _m("weighted-moments-float16-not-promoted", "dtype", "simdist/runtime/ops/nn_more.py",
       "needs_cast = xt.dtype == dtypes.float16",
       "needs_cast = False",
       "tf.nn.weighted_moments of float16 computes in float16, not float32 (invisible while float16 sums do "
       "not overflow)"),
    _m("keras-ops-moments-bfloat16-not-promoted", "dtype", "simdist/keras/ops/tf_nn.py",
       '    if ori_dtype in ("float16", "bfloat16"):\n        need_cast = True\n        x = cast(x, "float32")',
       '    if ori_dtype == "float16":\n        need_cast = True\n        x = cast(x, "float32")',
       "keras.ops.moments of bfloat16 computes in bfloat16, not float32 (invisible without bfloat16 inputs)"),
    _m("scale-regularization-loss-averages", "formula", "simdist/runtime/ops/losses.py",
       "return math.truediv(math.reduce_sum(regularization_loss), _num_replicas())",
       "return math.reduce_mean(regularization_loss)",
       "tf.nn.scale_regularization_loss averages the terms instead of summing them over num_replicas_in_sync "
       "(invisible with as many terms as replicas: one scalar alone, two terms over two replicas)"),
    _m("weighted-moments-float16-returns-float32", "dtype", "simdist/runtime/ops/nn_more.py",
       "    if needs_cast:\n        weighted_mean = math.cast(weighted_mean, dtypes.float16)\n"
       "        weighted_variance = math.cast(weighted_variance, dtypes.float16)\n",
       "",
       "tf.nn.weighted_moments of float16 returns its float32 statistics without the cast back (invisible "
       "without float16 inputs)"),
]}

#: Written but already killed by the suite's targeted modules before any sweep24b test (`own:NAME` still runs them):
#: not counted in the figure.
CAUGHT_BEFORE = ("clipvalue-clips-only-above", "global-clipnorm-per-tensor", "grad-accumulators-not-reset",
                 "amsgrad-vhat-tracks-v", "adam-bias-step-counts-micro-steps", "confusion-threshold-inclusive",
                 "weighted-moments-weights-unbroadcast", "cce-smoothing-classes-from-axis",
                 "mean-metric-weight-rows-summed", "mean-with-sample-weight-divides-by-broadcast",
                 "sparse-square-after-sum", "piecewise-first-boundary-exclusive", "ema-first-step-counts-micro-steps",
                 "scale-regularization-loss-averages")
#: The bugs that survived the suite's targeted modules before the sweep24b modules: the figure's denominator.
SWEEP24B_OWN = {k: m for k, m in _WRITTEN.items() if k not in CAUGHT_BEFORE}

#: The suite modules that call each mutant's API (the case tables mapped to the modules reading them).
_OPT = ("test_harden16_configs or test_harden20_ or test_harden20b_ or test_amut15_gaps or test_blind6_gaps or "
        "test_train_cov_optimizers or test_training or test_cov14_optimizers or test_cov13_optimizers or "
        "test_blind15_gaps or test_blind10_gaps or test_blind7_gaps or test_train_grid or test_harden19b_ or "
        "test_keras_optimizers")
_LOSS = ("test_harden16_configs or test_harden20_ or test_harden20b_ or test_blind13_gaps or test_blind15_gaps or "
         "test_blind6_gaps or test_cov14_losses_metrics or test_degen22b_losses or test_keras_losses or "
         "test_options_metrics or test_options_training or test_train_cov_losses or test_train_cov_metrics or "
         "test_training_semantics or test_blind21_gaps")
_METRIC = ("test_harden16_configs or test_harden20_ or test_harden20b_ or test_automut_gaps or test_blind14_gaps or "
           "test_blind15_gaps or test_blind18_gaps or test_blind6_gaps or test_blind7_gaps or test_blind9_gaps or "
           "test_blind12_gaps or test_blind13_gaps or test_cov14_losses_metrics or test_degen22b_metrics or "
           "test_harden19_defaults_configs or test_keras_losses_metrics or test_keras_metrics_callbacks or "
           "test_options_metrics or test_train_cov_metrics or test_training_options or test_sync_on_read")
TARGETS = {
    "clipvalue-clips-only-above": _OPT,
    "global-clipnorm-per-tensor": _OPT,
    "grad-accumulators-not-reset": _OPT,
    "amsgrad-vhat-tracks-v": _OPT,
    "adam-bias-step-counts-micro-steps": _OPT,
    "loss-weight-rank-expands-values": _LOSS,
    "confusion-threshold-inclusive": _METRIC,
    "weighted-moments-weights-unbroadcast": "test_op_gap_rules or test_options_nn or test_nn",
    "cce-smoothing-classes-from-axis": _LOSS,
    "mean-metric-weight-rows-summed": _METRIC,
    "ema-overwrite-counts-micro-steps": _OPT,
    "mean-with-sample-weight-divides-by-broadcast": _LOSS,
    "sparse-square-after-sum": _OPT + " or test_blind11_gaps or test_blind8_gaps or test_keras_tutorial_gaps",
    "mean-metric-scalar-weight-per-sample": _METRIC,
    "ema-first-step-counts-micro-steps": _OPT,
    "keras-ops-moments-float16-variance-unclipped": "test_kops23_nn or test_harden20_ or test_blind21_gaps or "
                                                    "test_keras_ops",
    "sync-bn-counts-replicas-times-local": "test_keras_layers or test_train_grid or test_harden19_ or test_blind8_gaps",
    "loss-weight-trailing-one-always-squeezed": _LOSS,
    "mean-metric-weights-not-broadcast": _METRIC,
    "piecewise-first-boundary-exclusive": _OPT + " or test_blind12_gaps or test_blind16_gaps or test_harden19_",
    "scale-regularization-loss-averages": "test_nn or test_training or test_multi_worker_mirrored or test_blind21_gaps",
    "weighted-moments-float16-returns-float32": "test_op_gap_rules or test_options_nn or test_nn or test_harden20_ "
                                                "or test_blind21_gaps",
    "weighted-moments-float16-not-promoted": "test_op_gap_rules or test_options_nn or test_nn or test_harden20_ or "
                                             "test_blind21_gaps",
    "keras-ops-moments-bfloat16-not-promoted": "test_kops23_nn or test_harden20_ or test_blind21_gaps or "
                                               "test_keras_ops",
}


def find(mid: str) -> mutants.Mutant:
    return _find(mid, _WRITTEN)


def run(m: mutants.Mutant | None, how: str = "--targeted") -> str:
    """Plant `m` (None: nothing, the baseline, which must pass) in a copy and run the slice `how` names:
    --new the sweep24b modules, --targeted (the default) the modules that call `m`'s API."""
    if how == "--new":
        k = "sweep24b"
    else:
        k = TARGETS[m.id] if m is not None else " or ".join(sorted(set(" or ".join(TARGETS.values()).split(" or "))))
    return _run(m, k, every_failure=True)


def expand(ids: list[str]) -> list[str]:
    return _expand(ids, {"own": [f"own:{k}" for k in SWEEP24B_OWN]})


if __name__ == "__main__":
    args = sys.argv[1:]
    how = next((a for a in args if a.startswith("--")), "--targeted")
    for mid in expand([a for a in args if not a.startswith("--")]):
        print(f"{mid}: {run(None if mid == 'baseline' else find(mid), how)}", flush=True)
