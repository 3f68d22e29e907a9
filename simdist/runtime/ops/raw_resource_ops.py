"""The raw ops over a resource handle (clause ops.resource-handles): the resource-variable kernels
(resource_variable_kernels.py) and the training kernels (training_kernels.py), gathered for raw_ops.binding
and scripts/make_raw_opdefs.py."""

from __future__ import annotations

from functools import lru_cache

from simdist.runtime.ops import resource_variable_kernels, training_kernels
from simdist.runtime.ops.raw_args import RawArgs

__all__ = ["NAMES", "forms"]

NAMES = tuple(sorted(resource_variable_kernels.NAMES + training_kernels.NAMES))


@lru_cache(maxsize=1)
def forms() -> dict[str, RawArgs]:
    out = {**resource_variable_kernels.forms(), **training_kernels.forms()}
    assert tuple(sorted(out)) == NAMES
    return out
