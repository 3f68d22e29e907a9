"""Does the suite see bugs that hide at the degenerate points of the layers, losses, metrics, tf.nn
and tf.signal (session 22's degeneracy audit, area degen22b)? Plant each (one of OWN below, not in
the catalogue; or a catalogue id) in a private copy of the committed package and run a slice of the
conformance suite against it (simdist backend), every failing test listed (suite_kills.py's
plant-and-run).

    python benchmarks/degen22b_kills.py [--area | --new] [--together] ID [ID ...]   # own:NAME, own (all OWN), late (LATE), baseline

`-k EXPR` runs that slice instead (the attribution step). `--together` plants all the IDs in one copy and runs the slice once (a first pass over a large slice;
a failing test is then run against each mutant alone). `--area` runs the suite files of the area as they were before the audit (AREA_K, the "before"
figure); `--new` (the default) runs only the new modules (`-k degen22b`, the "after" figure).

OWN was written after the audit table (docs/conformance.md, "Twenty-second session: degeneracy audit
(layers, losses, metrics, tf.nn, tf.signal)") and before any degen22b test: each bug is visible only
off a degenerate point the audit found (non-square inputs, unequal per-axis options, odd lengths, a
prediction on a threshold, a mask with a False step, key_dim != value_dim, weights not all ones,
channels_first). Each was checked observable on TF 2.21 through the public API before the runs.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import suite_kills
from suite_kills import expand as _expand, find as _find, mutants, run as _run

_R = "simdist/runtime/ops/"
_L = "simdist/keras/layers/"


def _m(mid: str, path: str, old: str, new: str, why: str) -> mutants.Mutant:
    return mutants.Mutant(mid, "degenerate", path, old, new, why, layer="training")


#: Ten bugs, each hidden at a degenerate point of the area.
OWN = {m.id: m for m in [
    _m("avg-pool-left-pad-from-top", _R + "pooling.py",
       "    w = one(shape[2], ksize[2], strides[2], out_hw[1], pads[2])",
       "    w = one(shape[2], ksize[2], strides[2], out_hw[1], pads[0])",
       "AvgPool SAME: the in-bounds count of a window's columns uses the top padding for the left one "
       "(equal on square inputs with square windows)"),
    _m("conv-width-dilation-from-height", _R + "conv.py",
       "    ow, pl, pr = _out_size(hw[1], (khw[1] - 1) * dilations[1] + 1, strides[1], padding,",
       "    ow, pl, pr = _out_size(hw[1], (khw[1] - 1) * dilations[0] + 1, strides[1], padding,",
       "conv2d's output width and padding from the height's dilation (equal dilations hide it)"),
    _m("frame-pad-end-frames-floored", _R + "signal_ops.py",
       "        num_frames = -(-length // fstep)",
       "        num_frames = length // fstep",
       "tf.signal.frame(pad_end=True): the frame count floored, not ceiled (a length divisible by the step hides it)"),
    _m("confusion-threshold-inclusive", "simdist/keras/metrics/metrics_utils.py",
       "    pred_is_pos = tf.greater(preds_tiled, thresh_tiled)",
       "    pred_is_pos = tf.greater_equal(preds_tiled, thresh_tiled)",
       "Precision/Recall/TP...: a prediction equal to a threshold counts as positive (y_pred > t is Keras's rule)"),
    _m("auc-bucket-floored", "simdist/keras/metrics/metrics_utils.py",
       "    bucket_indices = tf.math.ceil(y_pred * (ops.cast(num_thresholds, y_pred.dtype) - 1)) - 1",
       "    bucket_indices = tf.math.floor(y_pred * (ops.cast(num_thresholds, y_pred.dtype) - 1))",
       "AUC's evenly spaced thresholds: a prediction's bucket floored (ceil - 1 differs only on a threshold)"),
    _m("rnn-masked-step-updates-state", _L + "rnn_loop.py",
       "            new_states = [tf.where(step_masks.at(t, s), s, ps) for s, ps in zip(new_states, states)]\n",
       "",
       "RNN with a mask: a masked step still updates the states (an all-True mask hides it)"),
    _m("mha-value-heads-key-dim", _L + "attention.py",
       "        heads_k, heads_v = [self._num_heads, self._key_dim], [self._num_heads, self._value_dim]",
       "        heads_k, heads_v = [self._num_heads, self._key_dim], [self._num_heads, self._key_dim]",
       "MultiHeadAttention's value projection sized by key_dim (value_dim == key_dim hides it)"),
    _m("mean-with-sample-weight-divides-by-count", "simdist/keras/losses/loss.py",
       "        if reduction == \"mean_with_sample_weight\" and sample_weight is not None:",
       "        if reduction == \"mean_with_sample_weight\" and sample_weight is None:",
       "a loss's mean_with_sample_weight reduction divides by the element count (weights of ones hide it)"),
    _m("conv-transpose-size-ignores-dilation", _L + "conv_transpose.py",
       "    kernel_size = (kernel_size - 1) * dilation_rate + 1\n    if padding == \"valid\":",
       "    if padding == \"valid\":",
       "Conv*Transpose's output size from the undilated kernel (dilation_rate 1 hides it)"),
    _m("global-avg-pool1d-mask-axis-channels-last", _L + "global_pooling1d.py",
       "            mask_expanded = tf.expand_dims(tf.convert_to_tensor(mask), 2 if self.data_format == \"channels_last\" else 1)",
       "            mask_expanded = tf.expand_dims(tf.convert_to_tensor(mask), 2)",
       "GlobalAveragePooling1D with a mask: the mask's feature axis inserted channels_last always"),
]}
#: Added after the tests were written (so not part of the blind ten): the first run showed that
#: OWN's `mean-with-sample-weight-divides-by-count` also breaks the unweighted "mean_with_sample_weight"
#: path (ops.sum(None)), far from the degenerate point it was meant to model; this is the bug it meant.
LATE = {m.id: m for m in [
    _m("mean-with-sample-weight-counts-the-weights", "simdist/keras/losses/loss.py",
       "            divisor = ops.cast(ops.sum(sample_weight), loss.dtype)",
       "            divisor = ops.prod_of_shape(sample_weight, loss.dtype)",
       "a loss's mean_with_sample_weight reduction divides by the number of weights, not their sum "
       "(weights of ones hide it)"),
]}
#: the area's suite files before the audit (pytest -k over module names)
AREA_K = ("keras_conv_family or keras_layers or keras_recurrent or keras_attention or keras_losses or "
          "keras_metrics or keras_core or test_nn or options_nn or options_layers or options_metrics or "
          "signal or harden19_defaults_layers or harden19_defaults_losses_metrics or harden20_edges_normalization or "
          "harden20b_trained_layers or harden20b_trained_metrics or survey21_layers or cov14_layers or "
          "cov14_losses_metrics or train_cov_layers or train_cov_losses or train_cov_metrics or "
          "harden16_configs or harden16_shapes or eigen_kernels or op_gap or blind")


def find(mid: str) -> mutants.Mutant:
    return _find(mid, {**OWN, **LATE})


def run(m: mutants.Mutant | None, area: bool = False, k: str | None = None) -> str:
    """Plant `m` (None: nothing, the baseline, which must pass) in a copy and run the slice."""
    return _run(m, k or (AREA_K if area else "degen22b"), every_failure=True)


def run_together(ms: list[mutants.Mutant], area: bool) -> str:
    """All of `ms` planted in one copy (on disjoint lines), the slice run once without -x:
    every failing test listed (a first pass; each failing test is then run against each mutant
    alone to attribute it). suite_kills.run with its one planting step widened to a list."""
    class _Many:
        path = ms[0].path

    orig = mutants.apply

    def apply_many(text: str, m: Any) -> str:
        if m is not _Many:
            return orig(text, m)
        for o in ms:
            if o.path == ms[0].path:
                text = orig(text, o)
        return text

    orig_write = Path.write_text

    def write_text(self: Path, data: str, *args: Any, **kwargs: Any) -> int:
        n = orig_write(self, data, *args, **kwargs)
        if str(self).endswith(ms[0].path):          # the copy's root: plant the others beside the first
            root = Path(str(self)[: -len(ms[0].path)])
            for o in ms:
                if o.path != ms[0].path:
                    t = root / o.path
                    orig_write(t, orig(t.read_text(), o))
        return n
    mutants.apply, Path.write_text = apply_many, write_text    # type: ignore[method-assign]
    try:
        return _run(_Many, AREA_K if area else "degen22b", every_failure=True)
    finally:
        mutants.apply, Path.write_text = orig, orig_write       # type: ignore[method-assign]


def expand(ids: list[str]) -> list[str]:
    return _expand(ids, {"own": [f"own:{k}" for k in OWN], "late": [f"own:{k}" for k in LATE]})


if __name__ == "__main__":
    argv = sys.argv[1:]
    area = "--area" in argv
    k = None
    if "-k" in argv:                   # an explicit slice (e.g. the tests a --together pass saw fail)
        i = argv.index("-k")
        k = argv[i + 1]
        argv = argv[:i] + argv[i + 2:]
    ids = expand([a for a in argv if a not in ("--area", "--new", "--together")])
    if "--together" in argv:
        print(f"together {ids}: {run_together([find(i) for i in ids], area)}", flush=True)
    else:
        for mid in ids:
            print(f"{mid}: {run(None if mid == 'baseline' else find(mid), area, k)}", flush=True)
