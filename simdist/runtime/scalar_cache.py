"""TF 2.21's eager cache of converted Python scalars (clause `ops.scalar-cache`).

TF's eager conversion of a Python number (`ConvertToEagerTensor`, tensorflow/python/eager/
pywrap_tensor.cc: `PyArray_IsPythonNumber`, so int, bool, float and complex and their subclasses,
NumPy's float64 and complex128 among them) first looks the value up in a process-wide
`TFE_TensorHandleCache` (pywrap_tensor_conversion.h), keyed by (the Python object by its hash and
`==`, with exact type equality; the requested dtype, DT_INVALID when none; the eager context; the
current device scope's name), and inserts every successful conversion except non-finite floats.
It has no size limit and is cleared only by `TFE_ClearScalarCache` (context `_clear_caches` and
`_reset_context`). Every eager conversion of a Python number goes through it: `tf.constant`,
`convert_to_tensor` (a dtype hint is tried as the requested dtype first), the generated ops' fast
path (an operand converted to the dtype inferred from the earlier inputs: `x * 0.0`), Variables'
initial values. Graph conversion (inside a tf.function) does not.

Equal keys convert to equal tensors except where `==` identifies different bits: a float zero
(0.0 == -0.0) and a complex number with a zero part. So simdist keeps only those entries: the first
such Python object converted under a key stands for every later equal one (`tf.constant(0.0)` after
`tf.constant(-0.0)` is -0.0). `simdist.reset` clears it, as a new TF process starts empty.

TF's own code converts Python zeros too: a MirroredStrategy (and a MultiWorkerMirroredStrategy) made
eagerly builds a CollectiveAllReduce whose CollectiveReplicaLauncher, one per local device, makes its
ordering token `ResourceVariable(0.)` under `ops.device(device)` (cross_device_utils.py), so the key
(0.0, no dtype, that device) holds +0.0 from then on: `strategy.run(lambda: tf.constant(-0.0))` is +0.0
on every replica in TF 2.21, and so is `tf.constant(-0.0)` under `tf.device("/cpu:0")` afterwards
(`collective_tokens`; fz47b, fz44_gen seed 44008).
"""

from __future__ import annotations

from typing import Any

from simdist.runtime import context

__all__ = ["key_of", "lookup", "insert", "clear", "collective_tokens"]

_cache: dict[tuple, Any] = {}


def key_of(value: Any, dtype_name: str | None) -> tuple | None:
    """The cache key of converting `value` to `dtype_name` (None: inferred) eagerly here, or None
    when the conversion cannot depend on the cache (not a zero-carrying Python float or complex,
    or inside a tf.function)."""
    if isinstance(value, float):
        if value != 0.0:
            return None
    elif isinstance(value, complex):
        if value.real != 0.0 and value.imag != 0.0:
            return None
    else:
        return None
    if context.in_function():
        return None
    return (type(value), value, dtype_name, context.scoped_device())


def lookup(key: tuple, value: Any) -> Any:
    """The Python object first converted under `key` (it stands for `value`), else `value`."""
    return _cache.get(key, value)


def insert(key: tuple, value: Any) -> None:
    """Note a successful conversion of `value` under `key` (an existing entry stays)."""
    _cache.setdefault(key, value)


def collective_tokens(devices: Any) -> None:
    """A collective strategy's construction: CollectiveReplicaLauncher's ordering token
    `ResourceVariable(0.)` converted under each of its (canonical) local devices."""
    for d in devices:
        insert((float, 0.0, None, d), 0.0)


def clear() -> None:
    """Empty the cache (`TFE_ClearScalarCache`; `simdist.reset`)."""
    _cache.clear()
