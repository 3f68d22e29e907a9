"""Why a test's outcome changes between TensorFlow releases: the explanation of each difference
that docs/conformance-matrix.md lists under "Changes between TensorFlow versions".

Each note was found by reading the release's own source (tensorflow/tensorflow and
keras-team/keras at the release's tag) beside the failing test's message. A note covers the
tests of its clauses (``fnmatch`` patterns) whose outcome on the releases it names differs from
the newest release's; the matrix groups the changes by note and lists any change that no note
explains under "Not explained", so an unexplained difference cannot go unnoticed.
"""

from __future__ import annotations

import fnmatch
from dataclasses import dataclass

__all__ = ["VersionNote", "NOTES", "explain"]


@dataclass(frozen=True)
class VersionNote:
    """``title``: one line; ``text``: what changed and where it is in the source; ``versions``:
    the releases (``major.minor``) that behave differently from the newest; ``clauses``: clause id
    patterns; ``tests``: test id patterns (empty: every test of the clauses)."""

    title: str
    text: str
    versions: tuple[str, ...]
    clauses: tuple[str, ...]
    tests: tuple[str, ...] = ()

    def covers(self, clause_ids: list[str], nodeid: str, differing: list[str]) -> bool:
        if not differing or not all(_minor(v) in self.versions for v in differing):
            return False
        if self.tests and not any(fnmatch.fnmatchcase(nodeid, p) for p in self.tests):
            return False
        return any(fnmatch.fnmatchcase(c, p) for c in clause_ids for p in self.clauses)


def _minor(version: str) -> str:
    return ".".join(version.split(".")[:2])


NOTES: tuple[VersionNote, ...] = (
    VersionNote(
        "TF 2.15's tf.keras is Keras 2",
        "TensorFlow 2.15 is the last release whose `tf.keras` is Keras 2: `pip install tensorflow-cpu==2.15.1` "
        "brings keras 2.15, and TF 2.16.1's release notes (Breaking Changes) say \"Keras 3.0 will be the default "
        "Keras version\" (tf-keras and TF_USE_LEGACY_KERAS=1 keep Keras 2 there). "
        "Keras 2 has no `keras.Variable` or variable `path`, names weights with scopes and `:0`, has other "
        "summary and progress-bar text, the `Reduction` keys of Keras 2 (no `mean`, and a refusal of "
        "`SUM_OVER_BATCH_SIZE` under a strategy outside `fit`), `lr` instead of `learning_rate` in History, no "
        "`.weights.h5` rule, other error classes and messages, and a `compile` outside the scope that works as "
        "the documents say (the one known deviation of TF 2.21 that passes there). The optimizer and training "
        "clauses (`optim.*`, `training.*`) use `tf.keras.optimizers` and losses: Keras 2's optimizers return "
        "the `iterations.assign_add` result (an UnreadVariable) from `apply_gradients`, not `optimizer.iterations`, "
        "have no `apply`, accept `clipnorm` with `clipvalue`, read a schedule one step behind Keras 3, keep "
        "other variable and slot objects, and Keras 2's losses refuse "
        "`SUM_OVER_BATCH_SIZE` under a strategy. Every Keras clause the suite "
        "checks is written against Keras 3, as TF 2.16+ ships it, so these tests fail on 2.15 by design: a "
        "program relying on the Keras clauses needs TF >= 2.16.",
        ("2.15",), ("keras.*", "optim.*", "training.*")),
    VersionNote(
        "Keras 2.15 trains under a multi-worker MultiWorkerMirroredStrategy",
        "With TF 2.15's Keras 2, `fit`, `evaluate`, `train_on_batch` and `test_on_batch` on a 2-worker MWMS "
        "cluster return normally, as the MWMS documents say (the documented `fit` test passes there, an "
        "unexpected pass of TF 2.21's known deviation). Keras 2.15's engine distributes the data itself "
        "(keras/src/engine/data_adapter.py: `strategy.experimental_distribute_dataset`) and reduces each "
        "step's per-replica outputs with `reduce_per_replica` (keras/src/engine/training.py, with its "
        "`_multi_worker_concat` path). The ValueErrors clause `mwms.keras` records for TF 2.21 come from "
        "Keras 3's TensorFlow trainer (keras-team/keras#20585), which TF 2.16+ installs.",
        ("2.15",), ("mwms.keras",)),
    VersionNote(
        "Not a TensorFlow change: pytest 9.2 names these parametrized tests differently from pytest 9.0",
        "The same tests under two ids: the venvs of 2.15.1, 2.17.1 and 2.19.1 got pytest 9.2.0 from pip, "
        "the main interpreter (TF 2.21.0) has pytest 9.0.3, and the two releases derive different ids for "
        "these string parameters (`message3` against the message itself), so each id shows as \"not run\" "
        "on the other side. The outcomes behind both ids are the ones listed (the MultiHeadAttention "
        "argument case fails on 2.15.1 for the Keras 2 reason above). To avoid it, give every venv the main "
        "interpreter's pytest.",
        ("2.15", "2.17", "2.19"), ("mwms.communication-options", "keras.mha.arguments"),
        ("*test_mwms_communication_options_rejected[[]*", "*test_mha_argument_errors[[]*")),
)


def explain(clause_ids: list[str], nodeid: str, differing: list[str]) -> VersionNote | None:
    """The note that explains the test ``nodeid`` (of ``clause_ids``) behaving differently on the
    releases ``differing`` than on the newest, or None."""
    return next((n for n in NOTES if n.covers(clause_ids, nodeid, differing)), None)
