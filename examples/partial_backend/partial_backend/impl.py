"""The implementation under test: a tf.distribute that is not finished yet.

It stands in for any library implementing TensorFlow's Strategy API. To keep the example short
it is built on simdist's facade, with two pieces deliberately missing:

* `MirroredStrategy.gather` is not written yet (NotImplementedError);
* there is no CentralStorageStrategy at all.

Everything else is simdist's.
"""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

from simdist import tf as _tf


class MirroredStrategy(_tf.distribute.MirroredStrategy):
    """Synchronous replicas, without cross-replica `gather` (the replicas' `all_gather` works)."""

    def gather(self, value: Any, axis: int) -> Any:
        raise NotImplementedError("partial_backend: Strategy.gather is not implemented yet")


class _Namespace:
    """A module-like object: TensorFlow's names, with ours replacing or hiding some."""

    def __init__(self, base: Any, **overrides: Any) -> None:
        self._base = base
        self._overrides = overrides

    def __getattr__(self, name: str) -> Any:
        if name in self._overrides:
            value = self._overrides[name]
            if value is None:
                raise AttributeError(f"partial_backend has no {name}")
            return value
        return getattr(self._base, name)


distribute = _Namespace(
    _tf.distribute,
    MirroredStrategy=MirroredStrategy,
    CentralStorageStrategy=None,
    experimental=_Namespace(_tf.distribute.experimental, CentralStorageStrategy=None),
)
tf = _Namespace(_tf, distribute=distribute)
__all__ = ["tf", "MirroredStrategy", "SimpleNamespace"]
