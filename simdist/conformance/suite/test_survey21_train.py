"""survey21 (issue 29, session 21): options of tf.train checkpoints that the option survey
(benchmarks/suite_options.py, stricter rule: set AND output-changing) found uncovered, set to values that
change the output. Each test runs its cases of survey21_cases on the backend and compares them with TF
2.21's recorded outputs (survey21_reference); under `--profile ci` the first case only."""

from __future__ import annotations

import pytest

from simdist.conformance.suite import survey21_check

clause = pytest.mark.clause


@clause("checkpoint.manager", ref="tf221")
def test_survey21_train_manager_options(tf, budget):
    """CheckpointManager's max_to_keep (2 and None), checkpoint_name and save(checkpoint_number); Checkpoint.write/read; latest_checkpoint; the restored value."""
    survey21_check.check_cases(tf, "train", ['train_checkpoint_manager_options', 'train_checkpoint_write_read'], budget)
