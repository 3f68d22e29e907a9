"""Does the suite kill bugs planted on the Keras lines it never ran (session 23's coverage run at main
670eaa67, docs/conformance.md "Twenty-third session: suite coverage of Keras")? Plant each (one of
COV23A_OWN below, not in the catalogue; or a catalogue id) in a private copy of the committed package
and run a slice of the conformance suite against it (simdist backend), every failing test listed
(suite_kills.py's plant-and-run).

    python benchmarks/cov23a_kills.py [--targeted|--new] ID [ID ...]   # own:NAME, own (all), baseline

`--targeted` (the default) runs the suite modules that call the mutant's API (TARGETS below, the blind
batches' first-contact method) without the cov23a modules; `--new` only the cov23a modules.

COV23A_OWN was chosen (2026-12-02, session 23) from the lines and branches the lead's whole-suite
branch-coverage run reported missed in simdist/keras (/work/wt/cov23_report.txt), before the cov23a
tests were written: each bug sits on a missed line, is the kind a developer writes, and changes what
a program that runs on TF 2.21 observes. `metric-function-name-not-snake-cased` is the state simdist
was in before this session (found by the cov23a test of that path).
"""

from __future__ import annotations

import sys

from suite_kills import expand as _expand, find as _find, mutants, run as _run

_K = "simdist/keras/"


def _m(mid: str, kind: str, path: str, old: str, new: str, why: str) -> mutants.Mutant:
    return mutants.Mutant(mid, kind, path, old, new, why, layer="training")


#: Ten bugs on lines the whole suite never ran at main 670eaa67.
COV23A_OWN = {m.id: m for m in [
    _m("crossentropy-sparse-and-categorical-swapped", "swap", _K + "trainers/compile_utils.py",
       "        elif is_sparse:\n            loss_obj = losses.sparse_categorical_crossentropy\n"
       "        else:\n            loss_obj = losses.categorical_crossentropy\n",
       "        elif is_sparse:\n            loss_obj = losses.categorical_crossentropy\n"
       "        else:\n            loss_obj = losses.sparse_categorical_crossentropy\n",
       "compile(loss='crossentropy') picks categorical crossentropy for integer labels and sparse "
       "crossentropy for one-hot labels"),
    _m("metric-function-name-not-snake-cased", "formula", _K + "trainers/compile_utils.py",
       "        return to_snake_case(fn)\n",
       "        return fn\n",
       "a metric function keeps its own __name__ as the metric's name ('myAbsErr', not 'my_abs_err')"),
    _m("custom-step-logs-replaced-by-metrics", "branch", _K + "trainers/trainer.py",
       "        if isinstance(logs, dict) and set(logs.keys()) == set(metric_logs.keys()):\n",
       "        if isinstance(logs, dict):\n",
       "the epoch's logs are always the compiled metrics' results, so a custom train_step's own keys "
       "never reach History"),
    _m("class-weight-one-hot-argmax-wrong-axis", "axis", _K + "trainers/data_adapter.py",
       "y_classes = tf.argmax(y, axis=-1, output_type=tf.int32)",
       "y_classes = tf.argmax(y, axis=0, output_type=tf.int32)",
       "class_weight with one-hot labels from a Dataset takes the argmax over the batch axis"),
    _m("single-sample-weight-column-check-wrong-axis", "axis", _K + "trainers/data_adapter.py",
       "if not (sw.ndim == 1 or (sw.ndim == 2 and sw.shape[1] == 1)):",
       "if not (sw.ndim == 1 or (sw.ndim == 2 and sw.shape[0] == 1)):",
       "one (n, 1) sample_weight array for a model with several outputs is refused (the check reads the "
       "wrong axis)"),
    _m("rnn-output-size-from-last-state", "index", _K + "layers/rnn.py",
       "            output_size = self.state_size[0]\n",
       "            output_size = self.state_size[-1]\n",
       "RNN of a cell without output_size takes its output size from the last state, not the first"),
    _m("rnn-default-initial-state-ones", "default", _K + "layers/rnn.py",
       "return [tf.zeros((batch_size, d), dtype=self.cell.compute_dtype) for d in self.state_size]",
       "return [tf.ones((batch_size, d), dtype=self.cell.compute_dtype) for d in self.state_size]",
       "RNN of a cell without get_initial_state starts from states of ones"),
    _m("stacked-cells-output-size-of-first-cell", "index", _K + "layers/stacked_rnn_cells.py",
       "        return self.cells[-1].state_size\n",
       "        return self.cells[0].state_size\n",
       "StackedRNNCells of cells without output_size reports the first cell's state size as its output "
       "size"),
    _m("sequential-pop-rebuild-inverted", "branch", _K + "models/sequential.py",
       "        self._functional = None\n        if rebuild:\n            self._maybe_rebuild()\n        return layer\n",
       "        self._functional = None\n        if not rebuild:\n            self._maybe_rebuild()\n        return layer\n",
       "Sequential.pop() leaves the model unbuilt and pop(rebuild=False) rebuilds it"),
    _m("concatenate-unknown-axis-and", "boundary", _K + "layers/merging.py",
       "if out[self.axis] is None or shape[self.axis] is None:",
       "if out[self.axis] is None and shape[self.axis] is None:",
       "Concatenate's output shape adds an unknown length along the axis to a known one (TypeError)"),
]}

#: The suite modules that call each mutant's API (grep of the suite), the cov23a modules left out.
_TRAIN = ("test_cov13_trainer or test_harden16_bookkeeping or test_keras_losses_metrics or test_training_options "
          "or test_keras.py or test_harden19_defaults_fit or test_degen22c_fit or test_blind15_gaps")
_RNN = "test_keras_recurrent or test_cov14_layers or test_harden19_defaults_layers or test_survey21_layers"
TARGETS = {
    "crossentropy-sparse-and-categorical-swapped": _TRAIN,
    "metric-function-name-not-snake-cased": _TRAIN + " or test_cov14_losses_metrics",
    "custom-step-logs-replaced-by-metrics": _TRAIN + " or test_training_semantics",
    "class-weight-one-hot-argmax-wrong-axis": _TRAIN + " or test_blind6_gaps or test_blind8_gaps",
    "single-sample-weight-column-check-wrong-axis": _TRAIN,
    "rnn-output-size-from-last-state": _RNN,
    "rnn-default-initial-state-ones": _RNN,
    "stacked-cells-output-size-of-first-cell": _RNN,
    "sequential-pop-rebuild-inverted": "test_cov13_models or test_harden19_roundtrip or test_keras_core",
    "concatenate-unknown-axis-and": "test_cov14_layers or test_keras_layers or test_harden16_configs",
}


def find(mid: str) -> mutants.Mutant:
    return _find(mid, COV23A_OWN)


def run(m: mutants.Mutant | None, how: str = "--targeted") -> str:
    """Plant `m` (None: nothing, the baseline, which must pass) in a copy and run the slice `how`
    names: --new the cov23a modules, --targeted (the default) the modules that call `m`'s API."""
    if how == "--new":
        k = "cov23a"
    else:
        k = TARGETS[m.id] if m is not None else " or ".join(sorted(set(" or ".join(TARGETS.values()).split(" or "))))
        k = f"({k}) and not cov23a"
    return _run(m, k, every_failure=True)


def expand(ids: list[str]) -> list[str]:
    return _expand(ids, {"own": [f"own:{k}" for k in COV23A_OWN]})


if __name__ == "__main__":
    args = sys.argv[1:]
    how = next((a for a in args if a.startswith("--")), "--targeted")
    for mid in expand([a for a in args if not a.startswith("--")]):
        print(f"{mid}: {run(None if mid == 'baseline' else find(mid), how)}", flush=True)
