"""How a `tf.keras.ops` function runs: on tensors (and Python/NumPy values) it is Keras's eager
function; when any argument is a KerasTensor the call becomes an operation node of the
functional graph (simdist/keras/layers/op_layer.py), as Keras's `symbolic_call` makes one, its
outputs Keras's `compute_output_spec` of the function's op class (ops_shim.keras_output_spec; a
function without a symbolic branch: the eager function run on probe tensors)."""

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
            from simdist.keras.keras_tensor import flatten
            from simdist.keras.layers.op_layer import Operation
            from simdist.keras.ops import ops_shim
            if ops_shim.in_output_spec():   # called by another op's compute_output_spec: its spec only
                return fn(*args, **kwargs)
            spec = ops_shim.keras_output_spec(fn, args, kwargs)
            if spec is ops_shim.NO_SPEC or not any(type(t).__name__ == "KerasTensor" for t in flatten(spec)):
                # no symbolic branch taken: keywords are bound as they are (a KerasTensor among them then
                # reaches the eager function, whose error is Keras's: `bincount(x, weights=<KerasTensor>)`)
                return Operation(functools.partial(fn, **kwargs) if kwargs else fn, name)(*args)
            # the function's symbolic branch ran: KerasTensors given by keyword (`average(x, weights=w)`) are
            # the node's inputs too, so the graph feeds them; other keywords are bound (cov23a)
            symbolic = {k: v for k, v in kwargs.items() if any_symbolic_tensors((v,))}
            bound = {k: v for k, v in kwargs.items() if k not in symbolic}
            op = Operation(functools.partial(fn, **bound) if bound else fn, name)
            return op.record(args, spec, symbolic)
        return fn(*args, **kwargs)
    op.__name__ = name
    op.__qualname__ = name
    return op
