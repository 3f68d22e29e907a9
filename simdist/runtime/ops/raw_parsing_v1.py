"""The raw forms of ParseExample (V1) and ParseSingleExample, computed by ParseExampleV2's raw form
(raw_forms_parsing.py; clause ops.raw-ops).

ParseExample takes its feature keys as lists of string tensors (each read flat) and a `serialized` vector;
ParseSingleExample takes them as list(string) attrs (num_sparse counting the sparse ones) and a `serialized` scalar.
Each runs ParseExampleV2 on the keys, with no ragged keys, after its own checks (TF 2.21's texts, observed):
"Expected serialized to be a vector, got shape: []" (V1), "Expected serialized to be a scalar, got shape: [2]" and
"num_sparse (2) must match the size of sparse_keys (1) and sparse_types (1)" and "len(dense_keys) !=
len(dense_types)" (ParseSingleExample); in a tf.function their shape functions refuse a `serialized` of another
rank and ParseSingleExample's counts (shape_fns_parsing.py). A key tensor of more than one element, which aborts
TF 2.21's process (a CHECK), is InvalidArgumentError here. Their outputs are
V2's without the ragged lists: sparse indices, values and shapes, dense values. TF registers no gradient for either
(a tape through one: LookupError).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from simdist.runtime import errors

__all__ = ["parse_example", "parse_single_example"]


_DEVICE = "device_/job:localhost/replica:0/task:0/device:CPU:0"


def _prefix(op: str, n_sparse: int, n_dense: int, n_types: int | None = None) -> str:
    """TF's function-node prefix of the op's kernel errors (observed)."""
    if op == "ParseExample":
        counts = f"Ndense_{n_dense}_Nsparse_{n_sparse}_Tdense_{n_dense}_sparse_types_{n_sparse}"
    else:   # (the num_sparse attr's value, the sparse_types list's length)
        counts = f"Tdense_{n_dense}_num_sparse_{n_sparse}_sparse_types_{n_types}"
    return f"{{{{function_node __wrapped__{op}_{counts}_{_DEVICE}}}}} "


def _bad(op: str, text: str, n_sparse: int, n_dense: int, n_types: int | None = None) -> errors.InvalidArgumentError:
    types = n_sparse if n_types is None else n_types
    return errors.InvalidArgumentError(None, None, f"{_prefix(op, n_sparse, n_dense, types)}{text} [Op:{op}]")


def _dims(shape: Any) -> str:
    return "[" + ",".join(str(d) for d in shape) + "]"


def _flat_keys(keys: list) -> list[str]:
    """A list input of string tensors, each read flat (TF reads every element of every key tensor)."""
    from simdist.runtime.ops import dispatch
    from simdist.runtime.ops.string_args import as_bytes
    out: list[str] = []
    for k in keys:
        a = np.asarray(dispatch.static_value(k), dtype=object)
        if a.size != 1:   # (TF 2.21 aborts the process here: a CHECK in Tensor::scalar, observed)
            raise errors.InvalidArgumentError(None, None, f"Must have a one element tensor, not {a.size} elements: "
                                              "each feature key is one string [Op:ParseExample]")
        out.extend(as_bytes(x).decode("utf-8", "surrogateescape") for x in a.reshape(-1))
    return out


def _v2(op: str, serialized: Any, names: Any, sparse: list[str], dense: list[str], dense_defaults: list,
        sparse_types: Any, dense_shapes: Any) -> list:
    """ParseExampleV2's raw form; its kernel errors retold as `op`'s (TF's texts: the same kernel's)."""
    from simdist.runtime.ops import raw_ops
    try:
        return list(raw_ops.function("ParseExampleV2")(
            serialized=serialized, names=names, sparse_keys=sparse, dense_keys=dense, ragged_keys=[],
            dense_defaults=list(dense_defaults), num_sparse=len(sparse), sparse_types=list(sparse_types),
            ragged_value_types=[], ragged_split_types=[], dense_shapes=list(dense_shapes)))
    except errors.InvalidArgumentError as e:
        text = str(e.message)
        text = text.split("}} ", 1)[1] if text.startswith("{{function_node") else text
        text = text.rsplit(" [Op:", 1)[0]
        raise _bad(op, text, len(sparse), len(dense_defaults)) from None


def _flatten(out: Any) -> list:
    flat: list = []
    for part in out:
        flat.extend(part if isinstance(part, (list, tuple)) else [part])
    return flat


def parse_example(serialized: Any, names: Any, sparse_keys: list, dense_keys: list, dense_defaults: list,
                  sparse_types: Any, dense_shapes: Any) -> list:
    """ParseExample (V1): a vector of serialized Examples."""
    sk, dk = _flat_keys(sparse_keys), _flat_keys(dense_keys)
    if serialized.ndim != 1:
        raise _bad("ParseExample", f"Expected serialized to be a vector, got shape: {_dims(serialized.shape.as_list())}",
                   len(sk), len(dense_defaults))
    return _flatten(_v2("ParseExample", serialized, names, sk, dk, dense_defaults, sparse_types, dense_shapes))


def parse_single_example(serialized: Any, dense_defaults: list, num_sparse: int, sparse_keys: Any, dense_keys: Any,
                         sparse_types: Any, dense_shapes: Any) -> list:
    """ParseSingleExample: one serialized Example, keys as attrs."""
    op = "ParseSingleExample"
    sk = [k.decode() if isinstance(k, bytes) else str(k) for k in sparse_keys]
    dk = [k.decode() if isinstance(k, bytes) else str(k) for k in dense_keys]
    if num_sparse != len(sk) or num_sparse != len(sparse_types):
        raise _bad(op, f"num_sparse ({num_sparse}) must match the size of sparse_keys ({len(sk)}) and sparse_types "
                       f"({len(sparse_types)})", num_sparse, len(dense_defaults), len(sparse_types))
    if len(dk) != len(dense_defaults):
        raise _bad(op, "len(dense_keys) != len(dense_types)", num_sparse, len(dense_defaults))
    if serialized.ndim != 0:
        raise _bad(op, f"Expected serialized to be a scalar, got shape: {_dims(serialized.shape.as_list())}",
                   num_sparse, len(dense_defaults))
    return _flatten(_v2(op, serialized, [], sk, dk, dense_defaults, sparse_types, dense_shapes))
