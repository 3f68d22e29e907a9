"""`tf.data.experimental.copy_to_device` and `prefetch_to_device` (clause dataset.copy-to-device): the
input's elements, placed on another of simdist's devices (TF's data/experimental/ops/prefetching_ops.py
`_CopyToDeviceDataset`, a `copy_to_device` then a `prefetch` for prefetch_to_device)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable, Iterator

import numpy as np

from simdist.runtime import devices
from simdist.runtime.data.dataset import _UnaryDataset
from simdist.runtime.data.elements import AUTOTUNE, UNKNOWN_CARDINALITY

if TYPE_CHECKING:
    from simdist.runtime.data.dataset import DatasetV2

__all__ = ["copy_to_device", "prefetch_to_device"]


class _CopyToDeviceDataset(_UnaryDataset):
    """The input's elements on `target_device` (its canonical name); cardinality UNKNOWN (TF's node
    wraps its input in a generator dataset, observed -2)."""

    _KIND = "GeneratorDataset"

    def __init__(self, input_dataset: DatasetV2, target_device: str, source_device: str,
                 place: Callable[[str], str] = devices.canonicalize) -> None:
        target = place(str(target_device))
        super().__init__((input_dataset,), {"target_device": target, "source_device": str(source_device)},
                         input_dataset.element_spec)

    def _elements_device(self) -> str | None:
        return self._params["target_device"]

    def _iter_flat(self) -> Iterator[list[np.ndarray]]:
        return self._input._iter_flat()

    def _card(self) -> int:
        return UNKNOWN_CARDINALITY


def copy_to_device(target_device: str, source_device: str = "/cpu:0",
                   place: Callable[[str], str] = devices.canonicalize) -> Callable[[Any], Any]:
    """A transformation placing a dataset's elements on `target_device` (`place`: the device name's
    resolution, the facade's TF placer, soft placement included)."""
    return lambda dataset: _CopyToDeviceDataset(dataset, target_device, source_device, place)


def prefetch_to_device(device: str, buffer_size: Any = None,
                       place: Callable[[str], str] = devices.canonicalize) -> Callable[[Any], Any]:
    """`copy_to_device(device)` then `prefetch(buffer_size)` (AUTOTUNE when None), TF's composition."""
    return lambda dataset: dataset.apply(copy_to_device(device, place=place)).prefetch(
        AUTOTUNE if buffer_size is None else buffer_size)
