"""How a `tf.keras.ops` function runs: on tensors (and Python/NumPy values) it is Keras's eager
function; when any argument is a KerasTensor the call becomes an operation node of the
functional graph (simdist/keras/layers/op_layer.py), as Keras's `symbolic_call` makes one."""

from __future__ import annotations

import functools
from typing import Any, Callable

from simdist.keras.keras_tensor import any_symbolic_tensors

__all__ = ["keras_op"]

# functions Keras answers from a KerasTensor's spec directly (ops/core.py: `shape` returns
# x.shape, `dtype` its standardized dtype, `is_tensor` False): no node is recorded
STATIC = frozenset({"shape", "dtype", "is_tensor"})


def keras_op(name: str, fn: Callable[..., Any]) -> Callable[..., Any]:
    """`fn` as a keras.ops function named `name`."""
    @functools.wraps(fn)
    def op(*args: Any, **kwargs: Any) -> Any:
        if name not in STATIC and any_symbolic_tensors(args, kwargs):
            from simdist.keras.layers.op_layer import Operation
            # KerasTensors given by keyword (`average(x, weights=w)`) are the node's inputs too, so the
            # output spec is probed with them and the graph feeds them; other keywords are bound
            symbolic = {k: v for k, v in kwargs.items() if any_symbolic_tensors((v,))}
            bound = {k: v for k, v in kwargs.items() if k not in symbolic}
            return Operation(functools.partial(fn, **bound) if bound else fn, name)(*args, **symbolic)
        return fn(*args, **kwargs)
    op.__name__ = name
    op.__qualname__ = name
    return op
