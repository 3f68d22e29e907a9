"""`keras.callbacks.TerminateOnNaN`: stop training (or raise, `raise_error=True`) when a batch's
loss is NaN or infinite."""

from __future__ import annotations

from typing import Any

import numpy as np

from simdist.keras.callbacks.callback import Callback
from simdist.keras.io_utils import print_msg


class TerminateOnNaN(Callback):
    def __init__(self, raise_error: bool = False) -> None:
        super().__init__()
        self.raise_error = raise_error

    def on_batch_end(self, batch: int, logs: Any = None) -> None:
        loss = (logs or {}).get("loss")
        if loss is not None and (np.isnan(loss) or np.isinf(loss)):
            if self.raise_error:
                raise RuntimeError(f"NaN or Inf loss encountered at batch {batch}. Loss value: {loss}. "
                                   "Terminating training immediately.")
            print_msg(f"Batch {batch}: Invalid loss, terminating training")
            self.model.stop_training = True
