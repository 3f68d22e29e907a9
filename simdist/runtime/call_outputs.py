"""Where an eager function call's outputs live (clause function.output-device): TF 2.21 places a function's return
values on its call op's device and copies them there, whatever device computed them. Used by tf.function calls,
concrete function calls and a mirrored strategy's run of a tf.function (TF's mirrored_run lifts one function around
the replicas)."""

from __future__ import annotations

import collections
from typing import Any

from simdist.runtime import context
from simdist.runtime.tensor import Tensor

__all__ = ["on_call_device", "placed"]


def on_call_device(out: Any) -> Any:
    """An eager function call's outputs, each on the call's device (clause function.output-device): TF 2.21 places a
    function's return values on the device of its call op (the innermost device scope at the call, else the default
    device), whatever device computed them, and copies them there (observed on TF 2.21 with two logical CPUs: a
    body's `with tf.device('/cpu:1')` result, an argument on CPU:1 returned as it is, a PerReplica's components from
    a strategy.run inside the function, all come back on CPU:0 under no scope, on CPU:1 under tf.device('/cpu:1')).
    The copy is an Identity under the call's device (a tape sees it); a tensor already there is returned as it is
    (hot path: one device comparison for the usual single tensor)."""
    if isinstance(out, Tensor):   # (the usual case first)
        device = context.current_device()
        return out if out._device == device else _copied(out, device)
    if out is None or not isinstance(out, (tuple, list, dict)) and type(out).__name__ != "PerReplica":
        return out
    return placed(out, context.current_device())


def placed(out: Any, device: str) -> Any:
    """`out` with its tensor leaves on `device` (nest structures and PerReplica components; the same object where
    nothing moves)."""
    if isinstance(out, Tensor):
        return out if out._device == device else _copied(out, device)
    if isinstance(out, dict):
        moved = {k: placed(v, device) for k, v in out.items()}
        if all(moved[k] is v for k, v in out.items()):
            return out
        return dict(moved) if isinstance(out, collections.defaultdict) else type(out)(moved.items())
    if isinstance(out, (list, tuple)):
        items = [placed(v, device) for v in out]
        if all(a is b for a, b in zip(items, out)):
            return out
        return type(out)(*items) if hasattr(out, "_fields") else type(out)(items)
    if type(out).__name__ == "PerReplica":
        from simdist.runtime.values import PerReplica
        if type(out) is PerReplica:
            comps = [placed(c, device) for c in out.values]
            return out if all(c is o for c, o in zip(comps, out.values)) else PerReplica(comps)
    return out


def _copied(t: Any, device: str) -> Any:
    """`t` copied to `device` (an Identity placed there, as TF's copy of a function output)."""
    from simdist.runtime.ops import array
    with context.device_scope(device):
        return array.identity(t)
