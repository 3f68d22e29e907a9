"""`tf.data`: the simdist Dataset (values computed with NumPy), TF 2.21's tf.data names only (the
runtime module's other exports, DatasetV2, OwnedIterator, Optional, TensorSpec, live elsewhere in TF:
tf.experimental.Optional, tf.TensorSpec; clause api.namespaces)."""

import types as _types
from typing import Any as _Any, Callable as _Callable

from simdist.runtime.data import (AUTOTUNE, INFINITE_CARDINALITY, UNKNOWN_CARDINALITY, Dataset,  # noqa: F401
                                  DatasetSpec, FixedLengthRecordDataset, Iterator, NumpyIterator, Options,
                                  TextLineDataset, TFRecordDataset, ThreadingOptions)
from simdist.runtime.data import experimental as _experimental
from simdist.runtime.type_specs import IteratorSpec  # noqa: F401 - tf.data.IteratorSpec (names44)
from simdist.runtime.data.copy_to_device import copy_to_device as _copy_fn, prefetch_to_device as _prefetch_fn


def _placed(name: str) -> str:
    """Where TF's eager placer puts a device name (a device the machine lacks: soft placement's pick,
    the CPU on a machine without GPUs, observed; clause placement.soft-placement)."""
    from simdist import session
    from simdist.runtime import execution
    return session.placed(session.canonical(name), execution.current().client.soft_placement)


def _copy_to_device(target_device: str, source_device: str = "/cpu:0") -> _Callable[[_Any], _Any]:
    """`tf.data.experimental.copy_to_device` (clause dataset.copy-to-device)."""
    return _copy_fn(target_device, source_device, place=_placed)


def _prefetch_to_device(device: str, buffer_size: _Any = None) -> _Callable[[_Any], _Any]:
    """`tf.data.experimental.prefetch_to_device` (clause dataset.copy-to-device)."""
    return _prefetch_fn(device, buffer_size, place=_placed)


# tf.data.experimental: the runtime's namespace with the transformations that place on the machine's devices
experimental = _types.SimpleNamespace(**{**vars(_experimental), "copy_to_device": _copy_to_device,
                                         "prefetch_to_device": _prefetch_to_device})
