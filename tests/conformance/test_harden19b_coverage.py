"""harden19b's enumeration covers what simdist ships: every public name of simdist's
tf.keras.utils is called by harden19b_utils' programs or listed with where it is checked instead,
and every built-in callback class of tf.keras.callbacks has cases in harden19b_callbacks (or is
listed with the reason). A name added to simdist without either fails here."""

from __future__ import annotations

import inspect

from simdist import tf
from simdist.conformance.suite import harden19b_callbacks as callbacks
from simdist.conformance.suite import harden19b_reference as reference
from simdist.conformance.suite import harden19b_utils as utils

#: callback class -> the case kind of harden19b_callbacks that runs it.
CALLBACK_KINDS = {"EarlyStopping": "early_stopping", "ReduceLROnPlateau": "reduce_lr",
                  "LearningRateScheduler": "scheduler", "ModelCheckpoint": "checkpoint", "CSVLogger": "csv",
                  "TerminateOnNaN": "nan", "BackupAndRestore": "backup", "LambdaCallback": "lambda",
                  "History": "history", "ProgbarLogger": "progbar"}
#: callback classes without cases here, with the reason.
CALLBACK_ELSEWHERE = {"Callback": "the base class (every case's recorder subclasses it)",
                      "CallbackList": "the container fit builds (test_harden16_hooks, keras.fit.callback-hooks)",
                      "TensorBoard": "event files, not fit decisions: keras.callback.tensorboard",
                      "SwapEMAWeights": "test_klayers21.py::test_klayers21_swap_ema_weights (session 21)"}


def _public(module):
    return sorted(n for n in dir(module) if not n.startswith("_") and n != "annotations"
                  and not inspect.ismodule(getattr(module, n)))


def test_every_keras_utils_name_is_enumerated_or_checked_elsewhere():
    names = _public(tf.keras.utils)
    missing = [n for n in names if n not in utils.ENUMERATED and n not in utils.NOT_ENUMERATED]
    assert not missing, f"tf.keras.utils names in neither harden19b_utils.ENUMERATED nor NOT_ENUMERATED: " \
                        f"{missing}, but should be none (add a program and re-run `{reference.RECORD_COMMAND}`)"
    gone = [n for n in (*utils.ENUMERATED, *utils.NOT_ENUMERATED) if n not in names]
    assert not gone, f"listed but not in simdist's tf.keras.utils: {gone}, but should be none"


def test_every_builtin_callback_has_cases():
    names = [n for n in _public(tf.keras.callbacks) if inspect.isclass(getattr(tf.keras.callbacks, n))]
    kinds = {c["kind"] for c in callbacks.CALLBACK_CASES.values()}
    missing = [n for n in names if n not in CALLBACK_ELSEWHERE and CALLBACK_KINDS.get(n) not in kinds]
    assert not missing, f"callback classes without harden19b cases: {missing}, but should be none"
    recorded = reference.load()["callbacks"]
    assert sorted(recorded) == sorted(callbacks.CALLBACK_CASES), \
        f"recorded callback cases {len(recorded)}, but should be the table's {len(callbacks.CALLBACK_CASES)}"
