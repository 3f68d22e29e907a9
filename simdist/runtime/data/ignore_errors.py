"""`Dataset.ignore_errors(log_warning=False)` and `tf.data.experimental.ignore_errors`: the input's
elements without those whose computation failed (TF 2.21's data/ops/ignore_errors_op.py and
IgnoreErrorsDatasetOp; clause dataset.ignore-errors).

The kernel asks its input again after every error status but Cancelled (logging "Error raised with
error message <message>" as a C++ warning with `log_warning`, which TF_CPP_MIN_LOG_LEVEL >= 2
hides; simdist logs it to the "tensorflow" logger under the same condition), so an input that continues after an
element's error (map, filter, take, skip, prefetch: runtime/data/resumable.py) loses just that
element; one that ends at an error (a generator's exception ends from_generator) ends there.
Cardinality is UNKNOWN; the element spec is the input's.
"""

from __future__ import annotations

import logging
import os
from typing import Any, Iterator

import numpy as np

from simdist.runtime import errors
from simdist.runtime.data.dataset import _UnaryDataset
from simdist.runtime.data.elements import UNKNOWN_CARDINALITY, _bool_arg

__all__ = ["_IgnoreErrorsDataset", "ignore_errors"]


def _cpp_warnings_shown() -> bool:
    """Whether TF's C++ LOG(WARNING) prints: TF_CPP_MIN_LOG_LEVEL below 2 (1 hides INFO only)."""
    level = os.environ.get("TF_CPP_MIN_LOG_LEVEL", "0").strip()
    return not (level.isdigit() and int(level) >= 2)


class _IgnoreErrorsDataset(_UnaryDataset):
    _KIND = "IgnoreErrorsDataset"

    def __init__(self, input_dataset: Any, log_warning: Any = False) -> None:
        super().__init__((input_dataset,), {"log_warning": _bool_arg(log_warning)}, input_dataset.element_spec)

    def _iter_flat(self) -> Iterator[list[np.ndarray]]:
        log = self._params["log_warning"]
        it = self._input._iter_flat()
        while True:
            try:
                flat = next(it)
            except StopIteration:
                return
            except errors.CancelledError:
                raise
            except errors.OpError as e:
                if log and _cpp_warnings_shown():
                    logging.getLogger("tensorflow").warning("Error raised with error message %s", e.message)
                continue
            yield flat

    def _card(self) -> int:
        return UNKNOWN_CARDINALITY


def ignore_errors(log_warning: Any = False) -> Any:
    """tf.data.experimental.ignore_errors: a transformation applying `Dataset.ignore_errors`."""
    return lambda dataset: dataset.ignore_errors(log_warning)
