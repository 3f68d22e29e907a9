"""Does the suite kill bugs planted at the degenerate points of the API around training (tf.data,
keras.utils, lookup layers, initializers, callbacks)? Plant each (one of OWN below, not in the
catalogue; or a catalogue id) in a private copy of the committed package and run a slice of the
conformance suite against it (simdist backend), every failing test listed (suite_kills.py's
plant-and-run).

    python benchmarks/degen22c_kills.py [--targeted|--area|--new] ID [ID ...]   # own:NAME, own (all OWN), baseline

`--targeted` (the default) runs the suite modules that call the mutant's API (TARGETS below, the blind
batches' first-contact method); `--area` the area's modules (AREA, a `-k` expression of module and test
names, ~340 tests: slow) without the degen22c modules; `--new` only the degen22c modules.

OWN was written (2026-12-02, session 22) before any degen22c test: each bug sits where the rule and
the wrong one agree at a degenerate point the suite's programs were found on (stride == sampling
rate, truncating == padding, shift == size, inputs of equal length, distinct tokens in a row, the
default cooldown 0, square kernels, no mask token, min_delta 0, inputs of several elements), and
each was checked observable off that point on TF 2.21 before the runs.
"""

from __future__ import annotations

import sys

from suite_kills import expand as _expand, find as _find, mutants, run as _run

_K = "simdist/keras/"
_D = "simdist/runtime/data/"

#: The suite modules (and tests) of the area, by name: tf.data, tf.io, keras.utils, lookup and
#: preprocessing layers' modules, initializers, random, callbacks, checkpoints.
AREA = ("dataset or cov13_data or cov14_input or io_parsing or keras_utils or utils or callback or checkpoint "
        "or initializer or lookup or discretization or preprocessing or survey21_data or survey21_io "
        "or survey21_random or options_training or training_options or str15 or tensor_text or layers_more3")


def _m(mid: str, kind: str, path: str, old: str, new: str, why: str) -> mutants.Mutant:
    return mutants.Mutant(mid, kind, path, old, new, why, layer="training")


#: Ten bugs, each invisible at a degenerate point (named last in `why`).
OWN = {m.id: m for m in [
    _m("timeseries-stride-uses-sampling-rate", "formula", _K + "utils/timeseries.py",
       "start_positions = np.arange(0, num_seqs, sequence_stride, dtype=index_dtype)",
       "start_positions = np.arange(0, num_seqs, sampling_rate, dtype=index_dtype)",
       "timeseries_dataset_from_array steps its windows' starts by sampling_rate, not sequence_stride "
       "(invisible when the two are equal, both 1 by default)"),
    _m("pad-sequences-truncating-follows-padding", "formula", _K + "utils/sequence_utils.py",
       '        if truncating == "pre":',
       '        if padding == "pre":',
       "pad_sequences cuts long sequences at the side given by `padding`, not `truncating` (invisible when "
       "they are equal, both 'pre' by default)"),
    _m("window-advances-by-size", "order", _D + "window.py",
       'st["start"] = start + shift',
       'st["start"] = start + size',
       "Dataset.window starts each window `size` elements after the last, ignoring `shift` (invisible when "
       "shift == size, the default)"),
    _m("interleave-ended-slot-keeps-block-count", "state", _D + "interleave.py",
       '                        slots[cursor] = None\n                        st["open"] -= 1\n'
       '                        advance()\n',
       '                        slots[cursor] = None\n                        st["open"] -= 1\n'
       '                        st["cursor"] = (st["cursor"] + 1) % cycle\n',
       "interleave moves on from a slot whose dataset ended without resetting the block count, so the next "
       "slot's block is short (invisible when every input's length is a multiple of block_length)"),
    _m("category-encoding-count-as-multi-hot", "formula", _K + "layers/category_encoding.py",
       'binary_output=output_mode in ("multi_hot", "one_hot"))',
       'binary_output=output_mode in ("multi_hot", "one_hot", "count"))',
       "CategoryEncoding(output_mode='count') (and the lookup layers' count mode) marks a token present "
       "instead of counting it (invisible when a row's tokens are distinct)"),
    _m("reduce-lr-cooldown-one-epoch-long", "boundary", _K + "callbacks/reduce_lr_on_plateau.py",
       "                    self.cooldown_counter = self.cooldown\n",
       "                    self.cooldown_counter = self.cooldown + 1\n",
       "ReduceLROnPlateau's cooldown lasts one epoch longer than `cooldown` (invisible at the default "
       "cooldown=0: the extra epoch only resets a wait that is 0 already)"),
    _m("variance-scaling-dense-fans-swapped", "axis", _K + "initializers.py",
       "return int(shape[0]), int(shape[1])",
       "return int(shape[1]), int(shape[0])",
       "compute_fans reads a 2-D kernel's fan_in from its last axis and fan_out from its first (invisible "
       "for square kernels and for fan_avg: Glorot)"),
    _m("string-lookup-oov-buckets-skip-mask-offset", "formula", _K + "layers/index_lookup.py",
       "oov_indices = oov_indices + self._oov_start_index()",
       "oov_indices = oov_indices + 0",
       "lookup layers with num_oov_indices > 1 put an OOV input in bucket h, not mask offset + h (invisible "
       "without a mask token, where the offset is 0)"),
    _m("early-stopping-baseline-without-min-delta", "boundary", _K + "callbacks/early_stopping.py",
       "            if self.baseline is None or self._is_improvement(current, self.baseline):\n",
       "            if self.baseline is None or self.monitor_op(current, self.baseline):\n",
       "EarlyStopping compares a value with its baseline without min_delta (invisible at min_delta=0, the "
       "default)"),
    _m("to-categorical-drops-axis-of-one-element", "axis", _K + "utils/numerical_utils.py",
       "if input_shape and input_shape[-1] == 1 and len(input_shape) > 1:",
       "if input_shape and input_shape[-1] == 1 and len(input_shape) >= 1:",
       "to_categorical drops the trailing axis of size 1 of a rank-1 input too, so one label gives a rank-1 "
       "array (invisible with several labels)"),
]}


#: The targeted files per mutant (the first-contact method of the blind batches): the suite modules that
#: call the mutant's API (grep of the suite for it, the case tables mapped to the modules reading them).
TARGETS = {
    "timeseries-stride-uses-sampling-rate": "test_keras_utils_data or test_harden19_utils or test_survey21_utils "
                                            "or test_blind16_gaps",
    "pad-sequences-truncating-follows-padding": "test_keras_utils_data or test_harden19_utils or "
                                                "test_survey21_utils or test_blind16_gaps",
    "window-advances-by-size": "test_survey21_data or test_dataset_errors_resume or test_dataset_scan_window "
                               "or test_iterator_checkpoint",
    "interleave-ended-slot-keeps-block-count": "test_survey21_data or test_dataset_errors_resume or "
                                               "test_dataset_experimental_extras or test_dataset_interleave or "
                                               "test_dataset_scan_window or test_iterator_checkpoint",
    "category-encoding-count-as-multi-hot": "test_harden16_configs or test_harden19_defaults_layers or "
                                            "test_harden19_defaults_configs or test_keras_layers_more2 or "
                                            "test_keras_layers_more3 or test_survey21_layers",
    "reduce-lr-cooldown-one-epoch-long": "test_harden19_callbacks or test_harden20_edges_training or "
                                         "test_blind12_gaps or test_blind13_gaps or test_blind14_gaps or "
                                         "test_blind15_gaps or test_blind7_gaps or test_blind9_gaps or "
                                         "test_cov13_callbacks or test_keras_callback_options or "
                                         "test_keras_metrics_callbacks or test_train_cov_callbacks",
    "variance-scaling-dense-fans-swapped": "test_harden16_configs or test_harden19_defaults_initializers or "
                                           "test_survey21_initializers or test_blind16_gaps or test_blind8_gaps "
                                           "or test_blind9_gaps or test_cov14_layers or test_keras_core",
    "string-lookup-oov-buckets-skip-mask-offset": "test_harden16_configs or test_blind16_gaps or "
                                                  "test_keras_layers_more3 or test_survey21_layers",
    "early-stopping-baseline-without-min-delta": "test_harden19_callbacks or test_harden20_edges_training or "
                                                 "test_amut15_gaps or test_blind10_gaps or test_blind12_gaps or "
                                                 "test_blind13_gaps or test_blind8_gaps or test_blind9_gaps or "
                                                 "test_cov13_callbacks or test_keras_callback_options or "
                                                 "test_train_cov_callbacks or test_keras.py",
    "to-categorical-drops-axis-of-one-element": "test_harden19_utils or test_survey21_utils or test_blind9_gaps",
}


def find(mid: str) -> mutants.Mutant:
    return _find(mid, OWN)


def run(m: mutants.Mutant | None, how: str = "--targeted") -> str:
    """Plant `m` (None: nothing, the baseline, which must pass) in a copy and run the slice `how` names:
    --new the degen22c modules, --area the area's modules before them, --targeted (the default) the
    modules that call `m`'s API (the baseline: all targeted modules together)."""
    if how == "--new":
        k = "degen22c"
    elif how == "--area":
        k = f"({AREA}) and not degen22c"
    else:
        k = TARGETS[m.id] if m is not None else " or ".join(sorted(set(" or ".join(TARGETS.values()).split(" or "))))
    return _run(m, k, every_failure=True)


def expand(ids: list[str]) -> list[str]:
    return _expand(ids, {"own": [f"own:{k}" for k in OWN]})


if __name__ == "__main__":
    args = sys.argv[1:]
    how = next((a for a in args if a.startswith("--")), "--targeted")
    for mid in expand([a for a in args if not a.startswith("--")]):
        print(f"{mid}: {run(None if mid == 'baseline' else find(mid), how)}", flush=True)
