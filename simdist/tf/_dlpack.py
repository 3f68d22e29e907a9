"""`tf.experimental.dlpack`: to_dlpack and from_dlpack (TF 2.21's dlpack/dlpack.py over pywrap_tfe's
TFE_ToDlpackCapsule / TFE_FromDlpackCapsule; names of issue 29's open list, helper open46).

A tensor leaves as a PyCapsule named "dltensor" holding its buffer (NumPy's DLPack export of the tensor's array);
`from_dlpack` takes such a capsule (TF's or any producer's: a NumPy array's `__dlpack__()`) and makes a tensor of
its dtype and shape on CPU:0. A capsule is consumed once: its name becomes "used_dltensor" and a second
from_dlpack is TF's InvalidArgumentError; anything but a capsule is pybind11's TypeError. simdist copies the
buffer (TF shares it: a later write to the producer's memory shows through TF's tensor, not simdist's).
"""

from __future__ import annotations

import ctypes
from typing import Any

import numpy as np

_capsule_name = ctypes.pythonapi.PyCapsule_GetName
_capsule_name.restype = ctypes.c_char_p
_capsule_name.argtypes = [ctypes.py_object]


class _Producer:
    """A capsule as NumPy's from_dlpack wants a producer (`__dlpack__`, `__dlpack_device__`: the CPU)."""

    def __init__(self, capsule: Any) -> None:
        self._capsule = capsule

    def __dlpack__(self, stream: Any = None, **kwargs: Any) -> Any:
        return self._capsule

    def __dlpack_device__(self) -> tuple[int, int]:
        return (1, 0)   # (kDLCPU, device 0)


def to_dlpack(tf_tensor: Any) -> Any:
    """The tensor's buffer as a DLPack capsule ("dltensor")."""
    from simdist.runtime.tensor import Tensor, convert_to_tensor
    t = tf_tensor if isinstance(tf_tensor, Tensor) else convert_to_tensor(tf_tensor)
    return np.asarray(t.numpy(), order="C").__dlpack__()


def from_dlpack(dlcapsule: Any) -> Any:
    """A tensor of a DLPack capsule's dtype, shape and values (consuming the capsule)."""
    from simdist.runtime import dtypes, errors
    from simdist.runtime.tensor import Tensor
    if type(dlcapsule).__name__ != "PyCapsule":
        raise TypeError("TFE_FromDlpackCapsule(): incompatible function arguments. The following argument types are "
                        f"supported:\n    1. (arg0: capsule, arg1: object) -> object\n\nInvoked with: {dlcapsule!r}")
    name = _capsule_name(dlcapsule)
    name = "" if name is None else name.decode()
    if name != "dltensor":
        raise errors.InvalidArgumentError(None, None, 'DLPack tensor must be a capsule with name "dltensor", got "%s". '
                                          f"Note that a DLPack tensor may be consumed at most once.{name}")
    arr = np.array(np.from_dlpack(_Producer(dlcapsule)), copy=True)
    from simdist import session
    return Tensor(arr, dtypes.as_dtype(arr.dtype), session.canonical("/cpu:0"))   # (the capsule's device, kDLCPU 0)
