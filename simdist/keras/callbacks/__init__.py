"""`tf.keras.callbacks` (Keras 3.15): Callback, CallbackList, History, ProgbarLogger,
BackupAndRestore, EarlyStopping, LearningRateScheduler, ModelCheckpoint, LambdaCallback, TerminateOnNaN, CSVLogger,
ReduceLROnPlateau, SwapEMAWeights, TensorBoard."""

from __future__ import annotations

from simdist.keras.callbacks.backup_and_restore import BackupAndRestore
from simdist.keras.callbacks.callback import Callback
from simdist.keras.callbacks.callback_list import CallbackList
from simdist.keras.callbacks.csv_logger import CSVLogger
from simdist.keras.callbacks.early_stopping import EarlyStopping
from simdist.keras.callbacks.history import History
from simdist.keras.callbacks.lambda_callback import LambdaCallback
from simdist.keras.callbacks.learning_rate_scheduler import LearningRateScheduler
from simdist.keras.callbacks.model_checkpoint import ModelCheckpoint
from simdist.keras.callbacks.progbar_logger import ProgbarLogger
from simdist.keras.callbacks.reduce_lr_on_plateau import ReduceLROnPlateau
from simdist.keras.callbacks.swap_ema_weights import SwapEMAWeights
from simdist.keras.callbacks.tensorboard import TensorBoard
from simdist.keras.callbacks.terminate_on_nan import TerminateOnNaN


from simdist.keras import _api  # noqa: E402

__all__ = [   # TF 2.21's tf.keras.callbacks names simdist has (one a line; clause api.namespaces)
    "BackupAndRestore",
    "CSVLogger",
    "Callback",
    "CallbackList",
    "EarlyStopping",
    "History",
    "LambdaCallback",
    "LearningRateScheduler",
    "ModelCheckpoint",
    "ProgbarLogger",
    "ReduceLROnPlateau",
    "SwapEMAWeights",
    "TensorBoard",
    "TerminateOnNaN",
]
__dir__ = _api.dir_of(__name__)
