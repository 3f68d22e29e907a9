"""The raw ops over a resource handle (clause ops.resource-handles): the resource-variable kernels
(resource_variable_kernels.py) and the training kernels (training_kernels.py), gathered for raw_ops.binding
and scripts/make_raw_opdefs.py."""

from __future__ import annotations

from functools import lru_cache
from typing import Any, Callable

from simdist.runtime import context
from simdist.runtime.ops import resource_shape_fns, resource_variable_kernels, training_kernels
from simdist.runtime.ops.raw_args import RawArgs

__all__ = ["NAMES", "forms"]

NAMES = tuple(sorted(resource_variable_kernels.NAMES + training_kernels.NAMES))


@lru_cache(maxsize=1)
def forms() -> dict[str, RawArgs]:
    out = {**resource_variable_kernels.forms(), **training_kernels.forms()}
    assert tuple(sorted(out)) == NAMES
    return {name: RawArgs(via=_shape_checked(name, b.via)) for name, b in out.items()}


def _shape_checked(name: str, via: Callable[..., Any]) -> Callable[..., Any]:
    """The op's raw form with its shape function first inside a tf.function (resource_shape_fns.py)."""
    from simdist.runtime.ops import raw_ops
    spec_args = raw_ops.opdefs()["ops"][name]["args"]

    def run(**every: Any) -> Any:
        if context.in_function():
            resource_shape_fns.check(name, spec_args, every)
        return via(**every)
    return run
