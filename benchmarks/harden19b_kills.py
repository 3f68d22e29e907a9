"""Show that the harden19b suite family kills mutants: plant each (a catalogue id, or one of
OWN below, which are not in the catalogue) in a private copy of the committed package and run only
the harden19b tests (``-k "harden19_roundtrip or harden19_utils or harden19_callbacks"``) of the
conformance suite against it (simdist backend).

    python benchmarks/harden19b_kills.py ID [ID ...]   # catalogue ids, own:NAME, all, or baseline

Prints one line per mutant: killed (with the first failing test) or survived.
"""

from __future__ import annotations

import sys

from suite_kills import find as _find, mutants, run as _run

_K = "simdist/keras/"
_CB = _K + "callbacks/"
#: Nine bugs written for this check (kinds the harden19b family enumerates), not in the catalogue.
OWN = {m.id: m for m in [
    mutants.Mutant("es-improvement-keeps-first-weights", "state", _CB + "early_stopping.py",
                   "            if self.restore_best_weights:\n                self.best_weights = self.model.get_weights()\n"
                   "            if self.baseline",
                   "            if self.baseline",
                   "EarlyStopping(restore_best_weights) keeps the first epoch's weights, not the best's",
                   layer="training"),
    mutants.Mutant("es-baseline-ignored", "boundary", _CB + "early_stopping.py",
                   "if self.baseline is None or self._is_improvement(current, self.baseline):",
                   "if True:", "EarlyStopping resets its wait on an improvement that does not beat the baseline",
                   layer="training"),
    mutants.Mutant("rlr-cooldown-never-ends", "state", _CB + "reduce_lr_on_plateau.py",
                   "            self.cooldown_counter -= 1\n", "",
                   "ReduceLROnPlateau never counts its cooldown down", layer="training"),
    mutants.Mutant("rlr-min-lr-ignored", "boundary", _CB + "reduce_lr_on_plateau.py",
                   "new_lr = max(old_lr * self.factor, self.min_lr)", "new_lr = old_lr * self.factor",
                   "ReduceLROnPlateau reduces below min_lr", layer="training"),
    mutants.Mutant("checkpoint-batch-zero-based", "boundary", _CB + "model_checkpoint.py",
                   "batch=batch + 1, **logs)", "batch=batch, **logs)",
                   "ModelCheckpoint formats {batch} 0-based", layer="training"),
    mutants.Mutant("csv-append-rewrites-header", "state", _CB + "csv_logger.py",
                   "self.append_header = not bool(len(f.readline()))", "self.append_header = True",
                   "CSVLogger(append=True) writes the header again into a non-empty file", layer="training"),
    mutants.Mutant("backup-resumes-an-epoch-early", "boundary", _CB + "backup_and_restore.py",
                   "        self._current_epoch = epoch + 1\n", "        self._current_epoch = epoch\n",
                   "BackupAndRestore records the epoch it finished as not finished (a resumed fit repeats it)",
                   layer="training"),
    mutants.Mutant("split-fraction-floored", "boundary", _K + "utils/split_dataset.py",
                   "right = round(right_size * total) if rt is float", "right = int(right_size * total) if rt is float",
                   "split_dataset floors a fractional right_size instead of rounding it", layer="training"),
    mutants.Mutant("load-model-drops-run-eagerly", "state", _K + "models/keras_file.py",
                   "\"run_eagerly\": bool(cfg.get(\"run_eagerly\", False)), ", "\"run_eagerly\": False, ",
                   "load_model/model_from_json/clone_model recompile without run_eagerly", layer="training"),
]}
#: The blind batch 16 survivors (catalogue ids) in the areas this family enumerates.
BLIND16 = ("split-dataset-right-from-left-end", "cosine-decay-config-drops-warmup", "clone-sequential-drops-trainable",
           "load-model-drops-steps-per-execution", "lambda-callback-ignores-extra-hooks")


def find(mid: str) -> mutants.Mutant:
    return _find(mid, OWN)


def run(m: mutants.Mutant | None) -> str:
    """Plant `m` (None: nothing, the baseline, which must pass) in a copy and run the family."""
    return _run(m, "harden19_roundtrip or harden19_utils or harden19_callbacks")


if __name__ == "__main__":
    ids = sys.argv[1:]
    if ids == ["all"]:
        ids = ["baseline", *BLIND16, *(f"own:{k}" for k in OWN)]
    for mid in ids:
        print(f"{mid}: {run(None if mid == 'baseline' else find(mid))}", flush=True)
