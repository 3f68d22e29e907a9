"""Does the suite kill bugs planted in a *second spelling* of a Keras training rule (losses, metrics, layers,
optimizers, the fit loop, callbacks) -- a rule the suite tests through one spelling of the call, the bug in
another? Plant each (one of OWN below, not in the catalogue) in a private copy of the committed package and run a
slice of the conformance suite against it (simdist backend), every failing test listed (suite_kills.py's
plant-and-run).

    python benchmarks/spell25b_kills.py [--targeted|--new] ID [ID ...]   # own:NAME, own (SPELL25B_OWN), baseline

`--targeted` (the default) runs the suite modules other than the spell25b ones that name the mutant's API
(TARGETS below: the modules naming one of its API strings, found by grep when the script runs), the "before"
figure; `--new` only the spell25b modules, the "after" figure.

The bugs were written (2026-12-02, session 25) before the spell25b test that kills them. Each sits in one
spelling of a rule whose other spelling the suite tests (a dataset's class_weight beside the arrays', several
excluded names beside one, a Loss instance or a loss function as a metric beside a metric class, per-output losses
run eagerly beside traced, dict targets / dict metrics / a dict loss's dict weights of unsorted output names beside
lists, shuffle="batch" beside shuffle=True, loss_weights of another structure than the loss), and each is
observable on TF 2.21 (the spell25b test that kills it passes there). Of 35 written, 22 were already killed by the
targeted modules (CAUGHT_BEFORE), one is equivalent (EQUIVALENT), two were superseded by the fix the sweep made
(SUPERSEDED, not planted); the other ten are SPELL25B_OWN, one of them simdist's own code before that fix.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

from suite_kills import expand as _expand, find as _find, mutants, run as _run

_SUITE = Path(__file__).resolve().parents[1] / "simdist" / "conformance" / "suite"
_K = "simdist/keras/"


#: Each bug's kind in tests/mutants.py's terms (all are second spellings of a rule).
_KIND = {
    "acc-column-labels-categorical": "boundary", "class-weight-dataset-float-labels-truncated": "formula",
    "class-weight-dataset-column-labels-argmax": "axis", "evaluate-loss-unweighted-batches": "denominator",
    "early-stopping-restores-only-when-stopped": "state", "sparse-top-k-function-column-shape": "axis",
    "exclude-weight-decay-first-name-only": "boundary", "validation-split-rounds-up": "boundary",
    "xent-config-drops-axis": "state", "metric-from-loss-instance-no-direction": "state",
    "explicit-mask-overridden-by-input-mask": "order", "r2-count-per-batch": "state",
    "iou-confusion-per-batch": "state",
    "gelu-activation-approximate-default": "formula", "leaky-relu-activation-default-slope": "formula",
    "functional-dict-inputs-sorted-keys": "order", "lr-setter-keeps-variable": "state",
    "cosine-similarity-metric-direction-down": "order", "optimizer-lr-accepts-int": "missing-error",
    "decay-schedule-config-drops-staircase": "state", "exclude-weight-decay-full-name-match": "boundary",
    "dict-targets-sorted-keys": "order", "output-loss-tracker-eager-unweighted": "denominator",
    "apply-mask-mean-reduction-unscaled": "denominator", "bn-frozen-uses-batch-statistics": "state",
    "metrics-dict-sorted-output-names": "order", "shuffle-batch-mode-permutes-all": "order",
    "recompile-keeps-test-function": "state", "loss-weights-paired-by-name-and-broadcast": "order",
    "metric-from-loss-function-no-direction": "state", "validation-batch-size-ignored": "boundary",
    "dict-loss-weights-sorted-names": "order", "optimizer-get-dict-ignores-config": "state",
}


def _m(mid: str, kind: str, path: str, old: str, new: str, why: str, count: int = 1) -> mutants.Mutant:
    """A training-layer mutant; `kind` "spelling" is looked up in _KIND."""
    return mutants.Mutant(mid, _KIND[mid] if kind == "spelling" else kind, _K + path, old, new, why, count=count,
                          layer="training")


#: Every bug written (named last in `why`: the spelling that hides it).
_WRITTEN = {m.id: m for m in [
    _m("acc-column-labels-categorical", "spelling", "trainers/compile_utils.py",
       "    is_sparse = len(ts) < len(ps) or (y_t_last == 1 and y_p_last is not None and y_p_last > 1)\n",
       "    is_sparse = len(ts) < len(ps)\n",
       "compile(metrics=['accuracy']) (and loss='crossentropy') takes integer labels of shape (n, 1) beside an "
       "(n, classes) output for one-hot (CategoricalAccuracy: argmax of a column, always class 0) (hidden: labels "
       "of shape (n,))"),
    _m("class-weight-dataset-float-labels-truncated", "spelling", "trainers/data_adapter.py",
       "            y_classes = tf.cast(tf.round(y), tf.int32)",
       "            y_classes = tf.cast(y, tf.int32)",
       "fit(Dataset, class_weight=...) truncates float labels to a class (1.6 -> 1), where Keras rounds (1.6 -> 2) "
       "(hidden: arrays and PyDataset round in class_weight_to_sample_weights)"),
    _m("class-weight-dataset-column-labels-argmax", "spelling", "trainers/data_adapter.py",
       "            if y.shape[-1] is not None and y.shape[-1] > 1:",
       "            if y.shape[-1] is not None and y.shape[-1] >= 1:",
       "fit(Dataset, class_weight=...) takes labels of shape (n, 1) for one-hot: argmax of a column, every sample "
       "weighs class 0's weight (hidden: one-hot or (n,) labels in a dataset, (n, 1) labels in arrays)"),
    _m("evaluate-loss-unweighted-batches", "spelling", "trainers/trainer.py",
       "        self._loss_tracker.update_state(unscale_loss_for_distribution(loss),\n"
       "                                        sample_weight=tf.shape(_first_leaf(x))[0])\n"
       "        return self.compute_metrics(x, y, y_pred, sample_weight=sample_weight)\n\n    def predict_step",
       "        self._loss_tracker.update_state(unscale_loss_for_distribution(loss))\n"
       "        return self.compute_metrics(x, y, y_pred, sample_weight=sample_weight)\n\n    def predict_step",
       "evaluate()'s (and validation's) loss is the plain mean of the batches' losses, not weighted by their sizes "
       "(hidden: fit's train_step weighs them; batches of equal size)"),
    _m("early-stopping-restores-only-when-stopped", "spelling", "callbacks/early_stopping.py",
       "        if self.restore_best_weights and self.best_weights is not None:",
       "        if self.stopped_epoch > 0 and self.restore_best_weights and self.best_weights is not None:",
       "EarlyStopping(restore_best_weights=True) restores the best epoch's weights only when it stopped training "
       "(tf.keras 2's rule); Keras 3 restores them at the end of training either way (hidden: training stopped "
       "early)"),
    _m("sparse-top-k-function-column-shape", "spelling", "metrics/accuracy_metrics.py",
       "    matches = ops.cast(matches, config.floatx())\n"
       "    return matches if org_shape is None else tf.reshape(matches, org_shape)",
       "    matches = ops.cast(matches, config.floatx())\n    return matches",
       "keras.metrics.sparse_top_k_categorical_accuracy (the function) of labels (n, 1) returns (n,), not the "
       "labels' shape (n, 1) (hidden: the metric class averages either shape; labels of shape (n,))"),
    _m("exclude-weight-decay-first-name-only", "spelling", "optimizers/base_optimizer.py",
       'self._exclude_from_weight_decay_pattern = re.compile("|".join(sorted(set(var_names)))) if var_names else None',
       "self._exclude_from_weight_decay_pattern = re.compile(var_names[0]) if var_names else None",
       "exclude_from_weight_decay(var_names=[a, b]) excludes only the variables named like the first name (hidden: "
       "one name, or var_list)"),
    _m("validation-split-rounds-up", "spelling", "trainers/data_adapter.py",
       "    split_at = int(math.floor(batch_dim * (1.0 - validation_split)))",
       "    split_at = int(math.ceil(batch_dim * (1.0 - validation_split)))",
       "fit(validation_split=s) keeps ceil(n * (1 - s)) training samples, not floor (hidden: n * s an integer)"),
    _m("xent-config-drops-axis", "spelling", "losses/losses.py",
       '        config.update({"from_logits": self.from_logits, "label_smoothing": self.label_smoothing, '
       '"axis": self.axis})',
       '        config.update({"from_logits": self.from_logits, "label_smoothing": self.label_smoothing})',
       "BinaryCrossentropy's and CategoricalCrossentropy's get_config leave `axis` out: from_config(get_config()) "
       "and a saved model's loss fall back to axis=-1 (hidden: the constructor; axis=-1)", count=2),
    _m("metric-from-loss-instance-no-direction", "spelling", "metrics/reduction_metrics.py",
       "        if fn in losses.ALL_OBJECTS or type(fn) in losses.ALL_OBJECTS:",
       "        if fn in losses.ALL_OBJECTS:",
       "a Loss instance given as a metric (compile(metrics=[keras.losses.MeanSquaredError()])) has no direction: "
       "ModelCheckpoint/EarlyStopping mode='auto' on it raise (hidden: the loss function or a metric class)"),
    _m("explicit-mask-overridden-by-input-mask", "spelling", "layers/layer.py",
       '        if "mask" in call_spec.argument_names and call_spec.arguments_dict["mask"] is None:',
       '        if "mask" in call_spec.argument_names:',
       "a layer called with an explicit mask= on a tensor that carries a Keras mask (from Embedding(mask_zero)) "
       "uses the tensor's mask, where Keras keeps the explicit one (hidden: either mask alone)"),
    _m("r2-count-per-batch", "spelling", "metrics/r2_score.py",
       "        self.count.assign(self.count + tf.reduce_sum(sample_weight, axis=0))",
       "        self.count.assign(tf.reduce_sum(sample_weight, axis=0))",
       "R2Score counts only the last update_state's samples in the mean of y_true (hidden: one update_state "
       "call)"),
    _m("iou-confusion-per-batch", "spelling", "metrics/iou_metrics.py",
       "        self.total_cm.assign(self.total_cm + current)",
       "        self.total_cm.assign(current)",
       "the IoU metrics keep only the last update_state's confusion matrix (hidden: one update_state call)"),
    _m("gelu-activation-approximate-default", "spelling", "activations.py",
       "def gelu(x: Any, approximate: bool = False) -> Any:",
       "def gelu(x: Any, approximate: bool = True) -> Any:",
       "keras.activations.gelu (and activation='gelu') defaults to the tanh approximation, keras.ops.gelu's default "
       "(hidden: keras.ops.gelu and tf.nn.gelu, an explicit approximate=)"),
    _m("leaky-relu-activation-default-slope", "spelling", "activations.py",
       "def leaky_relu(x: Any, negative_slope: float = 0.2) -> Any:",
       "def leaky_relu(x: Any, negative_slope: float = 0.3) -> Any:",
       "keras.activations.leaky_relu (and activation='leaky_relu') defaults to the LeakyReLU layer's slope 0.3, not "
       "0.2 (hidden: the layer, an explicit negative_slope)"),
    _m("functional-dict-inputs-sorted-keys", "spelling", "models/functional.py",
       "                inputs = [inputs[i.name] for i in flat]",
       "                inputs = [inputs[k] for k in sorted(inputs)]",
       "a functional model built on a LIST of Inputs and called (or fit) with a dict keyed by the inputs' names "
       "takes the dict's values in sorted key order, not by name (hidden: a list, or names already sorted)"),
    _m("lr-setter-keeps-variable", "spelling", "optimizers/base_optimizer.py",
       "            if isinstance(self._learning_rate, OptimizerVariable):\n"
       "                self._variables.remove(self._learning_rate)\n",
       "",
       "setting `optimizer.learning_rate = schedule` (or a callable) keeps the old learning-rate variable among "
       "optimizer.variables (hidden: a schedule given to the constructor)"),
    _m("cosine-similarity-metric-direction-down", "spelling", "metrics/regression_metrics.py",
       '        self._direction = "up"',
       '        self._direction = "down"',
       "the CosineSimilarity METRIC is minimised by mode='auto' callbacks like the loss of that name (hidden: the "
       "metrics whose direction the suite checks, accuracy and mae)"),
    _m("optimizer-lr-accepts-int", "spelling", "optimizers/base_optimizer.py",
       "            if not isinstance(learning_rate, float):",
       "            if not isinstance(learning_rate, (float, int)):",
       "an optimizer accepts an int learning rate (SGD(learning_rate=1)), which Keras 3.15 refuses (hidden: float "
       "learning rates)"),
    _m("decay-schedule-config-drops-staircase", "spelling", "optimizers/schedules.py",
       '                "decay_rate": self.decay_rate, "staircase": self.staircase, "name": self.name}',
       '                "decay_rate": self.decay_rate, "name": self.name}',
       "ExponentialDecay's and InverseTimeDecay's get_config leave `staircase` out: an optimizer's "
       "from_config(get_config()) (or a saved model's) decays smoothly (hidden: the constructor; staircase=False)",
       count=2),
    _m("exclude-weight-decay-full-name-match", "spelling", "optimizers/base_optimizer.py",
       "return not (pattern is not None and re.search(pattern, variable.name) is not None)",
       "return not (pattern is not None and re.fullmatch(pattern, variable.name) is not None)",
       "exclude_from_weight_decay(var_names=...) excludes only variables whose whole name matches, where Keras "
       "excludes any name containing one of them (re.search) (hidden: names given in full)"),
    _m("dict-targets-sorted-keys", "spelling", "trainers/compile_utils.py",
       "            y_true = [y_true[n] for n in self.output_names]",
       "            y_true = [y_true[n] for n in sorted(self.output_names)]",
       "fit/evaluate of a list-output functional model with targets given as a dict keyed by output names pairs "
       "them in sorted key order, not by name (hidden: targets as a list, or output names already sorted)"),
    _m("output-loss-tracker-eager-unweighted", "spelling", "trainers/compile_utils.py",
       "rows = None if traced.batch_dim_unknown() else tf.shape(flat_pred[i])[0]",
       "rows = None",
       "a multi-output model's per-output loss trackers count every batch once also when run eagerly, where Keras "
       "weighs them by the batch's rows (hidden: traced steps, where Keras too counts batches; full batches)"),
    _m("apply-mask-mean-reduction-unscaled", "spelling", "losses/loss.py",
       '    if reduction in ("mean", "sum_over_batch_size"):\n        total = ops.prod_of_shape(mask, dtype)',
       '    if reduction == "sum_over_batch_size":\n        total = ops.prod_of_shape(mask, dtype)',
       "a masked loss (ignore_class, a Keras mask) under reduction='mean' divides by all entries, not the valid "
       "ones as 'sum_over_batch_size' does (hidden: the default reduction)"),
    _m("bn-frozen-uses-batch-statistics", "spelling", "layers/normalization.py",
       "        if training and self.trainable:",
       "        if training:",
       "BatchNormalization with trainable=False normalises by the batch's statistics (and updates the moving ones) "
       "when called with training=True, as inside fit (hidden: a trainable layer, or inference calls)"),
    _m("metrics-dict-sorted-output-names", "spelling", "trainers/compile_utils.py",
       "                flat_metrics = [metrics.get(name) for name in output_names]",
       "                flat_metrics = [metrics.get(name) for name in sorted(output_names)]",
       "compile(metrics=<dict by output name>) on a list-output model gives the metrics to the outputs in sorted "
       "name order (hidden: metrics as a list, names already sorted)"),
    _m("shuffle-batch-mode-permutes-all", "spelling", "trainers/data_adapter.py",
       '            if shuffle != "batch":\n                indices = tf.random.shuffle(indices)',
       "            indices = tf.random.shuffle(indices)",
       "fit(shuffle='batch') permutes all the samples before cutting the batches, like shuffle=True, where Keras "
       "keeps each batch's samples and shuffles only within it (hidden: shuffle=True or False)"),
    _m("recompile-keeps-test-function", "spelling", "trainers/trainer.py",
       "            self.train_function = None\n            self.test_function = None\n",
       "            self.train_function = None\n",
       "compile() again after an evaluate keeps the traced test step of the first compile: evaluate uses the old "
       "loss and metrics (hidden: one compile, or fit, whose step is reset)"),
    _m("loss-weights-paired-by-name-and-broadcast", "spelling", "trainers/compile_utils.py",
       "        weights = self._weights_per_output(loss, loss_weights, y_pred, len(per_output))\n",
       "        if loss_weights is None:\n            weights = [None] * len(per_output)\n"
       "        elif isinstance(loss_weights, (int, float)):\n            weights = [loss_weights] * len(per_output)\n"
       "        elif isinstance(loss_weights, dict):\n"
       "            keys = sorted(y_pred) if isinstance(y_pred, dict) else list(names or [])\n"
       "            weights = [loss_weights.get(k) for k in keys]\n"
       "        else:\n            weights = list(loss_weights)\n",
       "simdist's own CompileLoss before session 25 (main at 8bbca59f, found by the spell25b tests): a dict of "
       "loss_weights beside a list loss paired by output name (Keras: flattened in sorted key order), a scalar or a "
       "list of weights broadcast over one loss (Keras: TypeError / ValueError) (hidden: weights of the loss's "
       "own structure, output names already sorted)"),
    _m("metric-from-loss-function-no-direction", "spelling", "metrics/reduction_metrics.py",
       "        if fn in losses.ALL_OBJECTS or type(fn) in losses.ALL_OBJECTS:",
       "        if type(fn) in losses.ALL_OBJECTS:",
       "a Keras loss FUNCTION given as a metric (compile(metrics=[keras.losses.mse])) has no direction: "
       "mode='auto' callbacks on it raise (hidden: a metric class or its string)"),
    _m("validation-batch-size-ignored", "spelling", "trainers/trainer.py",
       "batch_size=validation_batch_size or batch_size,",
       "batch_size=batch_size,",
       "fit(validation_data=arrays, validation_batch_size=k) validates in batches of fit's batch_size (hidden: "
       "no validation_batch_size; a validation Dataset, batched already)", count=2),
    _m("dict-loss-weights-sorted-names", "spelling", "trainers/compile_utils.py",
       "                loss_weights = [loss_weights[n] for n in names]",
       "                loss_weights = [loss_weights[n] for n in sorted(names)]",
       "compile(loss=<dict by output name>, loss_weights=<dict by output name>) on a list-output model orders the "
       "weights by sorted name while the losses follow the outputs (hidden: output names already sorted)"),
    _m("optimizer-get-dict-ignores-config", "spelling", "optimizers/__init__.py",
       "        obj = deserialize(identifier)",
       '        obj = _BY_NAME[identifier["class_name"].lower()]()',
       "keras.optimizers.get(<a serialized dict>) makes the class with its defaults, dropping the config (its "
       "learning rate or schedule) (hidden: get of a name, deserialize of the dict, from_config)"),
]}

#: Written but already killed by the suite's targeted modules before any spell25b test (`own:NAME` still runs
#: them): not counted.
CAUGHT_BEFORE = ("acc-column-labels-categorical", "class-weight-dataset-column-labels-argmax",
                 "evaluate-loss-unweighted-batches", "early-stopping-restores-only-when-stopped",
                 "sparse-top-k-function-column-shape", "validation-split-rounds-up", "xent-config-drops-axis",
                 "r2-count-per-batch", "iou-confusion-per-batch", "gelu-activation-approximate-default",
                 "leaky-relu-activation-default-slope", "functional-dict-inputs-sorted-keys",
                 "lr-setter-keeps-variable",
                 "cosine-similarity-metric-direction-down", "optimizer-lr-accepts-int",
                 "decay-schedule-config-drops-staircase", "exclude-weight-decay-full-name-match",
                 "apply-mask-mean-reduction-unscaled", "bn-frozen-uses-batch-statistics",
                 "validation-batch-size-ignored", "recompile-keeps-test-function", "optimizer-get-dict-ignores-config")
#: Written, but no program tells it from the rule: Layer.__call__ converts every array argument to a tensor first,
#: so an explicit mask (tensor or NumPy) makes two tensor arguments and never reaches the one-tensor branch whose
#: `mask is None` test the mutant drops (it survives the spell25b modules too).
EQUIVALENT = ("explicit-mask-overridden-by-input-mask",)
#: Written against CompileLoss's loss_weights code before the spell25b tests found that code itself wrong (and it
#: was rewritten): `loss-weights-dict-sorted-names` (a dict of weights in sorted name order: which, beside a list
#: loss, IS Keras's rule) and `loss-weights-int-scalar-refused` (only an int 0 reached the line). Both survived the
#: targeted modules; their lines are gone, so they are not planted; the old code itself is
#: `loss-weights-paired-by-name-and-broadcast`.
SUPERSEDED = ("loss-weights-dict-sorted-names", "loss-weights-int-scalar-refused")
#: The bugs that survived the targeted modules before the spell25b modules: the figure's denominator.
SPELL25B_OWN = {k: m for k, m in _WRITTEN.items() if k not in CAUGHT_BEFORE and k not in EQUIVALENT}

#: Per mutant, the public calls whose suite modules exercise its line (grep strings).
API = {
    "acc-column-labels-categorical": ['"accuracy"', '"acc"', "'accuracy'", "'acc'", '"crossentropy"', '"ce"'],
    "class-weight-dataset-float-labels-truncated": ["class_weight"],
    "class-weight-dataset-column-labels-argmax": ["class_weight"],
    "evaluate-loss-unweighted-batches": [".evaluate(", "validation_data", "validation_split"],
    "early-stopping-restores-only-when-stopped": ["restore_best_weights"],
    "sparse-top-k-function-column-shape": ["top_k_categorical_accuracy", "TopKCategoricalAccuracy"],
    "exclude-weight-decay-first-name-only": ["exclude_from_weight_decay"],
    "validation-split-rounds-up": ["validation_split"],
    "xent-config-drops-axis": ["BinaryCrossentropy", "CategoricalCrossentropy"],
    "metric-from-loss-instance-no-direction": ["ModelCheckpoint", "EarlyStopping", "ReduceLROnPlateau"],
    "explicit-mask-overridden-by-input-mask": ["mask_zero", "mask="],
    "r2-count-per-batch": ["R2Score", "r2_score"],
    "gelu-activation-approximate-default": ["gelu"],
    "leaky-relu-activation-default-slope": ["leaky_relu", "LeakyReLU"],
    "functional-dict-inputs-sorted-keys": ["Model("],
    "lr-setter-keeps-variable": ["learning_rate = ", ".learning_rate="],
    "cosine-similarity-metric-direction-down": ["CosineSimilarity", "cosine_similarity", "EarlyStopping",
                                                "ModelCheckpoint", "ReduceLROnPlateau"],
    "optimizer-lr-accepts-int": ["Argument `learning_rate`", "should be float", "learning_rate=1)", "learning_rate=1,",
                                 "SGD(1)", "SGD(1,", "Adam(1)", "Adam(1,"],
    "decay-schedule-config-drops-staircase": ["ExponentialDecay", "InverseTimeDecay", "staircase"],
    "exclude-weight-decay-full-name-match": ["exclude_from_weight_decay"],
    "dict-targets-sorted-keys": ["Model(", "outputs="],
    "output-loss-tracker-eager-unweighted": ["_loss\"]", "_loss']", "loss_weights"],
    "apply-mask-mean-reduction-unscaled": ["reduction=\"mean\"", "reduction='mean'", "ignore_class", "REDUCTIONS",
                                           "mask_zero"],
    "bn-frozen-uses-batch-statistics": ["BatchNormalization"],
    "metrics-dict-sorted-output-names": ["Model(", "metrics={"],
    "shuffle-batch-mode-permutes-all": ["shuffle=True", "shuffle=\"batch\"", "shuffle='batch'"],
    "recompile-keeps-test-function": [".compile("],
    "loss-weights-paired-by-name-and-broadcast": ["loss_weights"],
    "metric-from-loss-function-no-direction": ["ModelCheckpoint", "EarlyStopping", "ReduceLROnPlateau"],
    "validation-batch-size-ignored": ["validation_batch_size"],
    "dict-loss-weights-sorted-names": ["loss_weights"],
    "optimizer-get-dict-ignores-config": ["optimizers.get(", "optimizers.deserialize(", "optimizers.serialize("],
    "iou-confusion-per-batch": ["IoU(", "MeanIoU", "BinaryIoU", "OneHotIoU", "OneHotMeanIoU"],
}


def _modules(strings: list[str]) -> list[str]:
    """The suite modules (not spell25b's) that name one of `strings`, themselves or through a case table they
    import (a non-test module of the suite naming it)."""
    tables = [p.stem for p in sorted(_SUITE.glob("*.py")) if not p.name.startswith(("test_", "__"))
              and any(s in p.read_text(encoding="utf-8") for s in strings)]
    out = []
    for p in sorted(_SUITE.glob("test_*.py")):
        if "spell25b" in p.name:
            continue
        text = p.read_text(encoding="utf-8")
        if any(s in text for s in strings) or any(re.search(rf"^\s*(from|import)\s.*\b{t}\b", text, re.M)
                                                  for t in tables):
            out.append(p.stem)
    return out


def targets(mid: str) -> str:
    return " or ".join(_modules(API[mid]))


def find(mid: str) -> mutants.Mutant:
    return _find(mid, _WRITTEN)


def run(m: mutants.Mutant | None, how: str = "--targeted") -> str:
    """Plant `m` (None: nothing, the baseline, which must pass) in a copy and run the slice `how` names:
    --new the spell25b modules, --targeted (the default) the other modules that call `m`'s API."""
    if how == "--new":
        k = "spell25b"
    elif m is None:
        k = " or ".join(sorted({t for mid in SPELL25B_OWN for t in _modules(API[mid])}))
    else:
        k = targets(m.id)
    return _run(m, k, every_failure=how == "--new")


def expand(ids: list[str]) -> list[str]:
    return _expand(ids, {"own": [f"own:{k}" for k in SPELL25B_OWN],
                         "all": [f"own:{k}" for k in _WRITTEN]})


if __name__ == "__main__":
    args = sys.argv[1:]
    how = next((a for a in args if a.startswith("--")), "--targeted")
    for mid in expand([a for a in args if not a.startswith("--")]):
        print(f"{mid}: {run(None if mid == 'baseline' else find(mid), how)}", flush=True)
