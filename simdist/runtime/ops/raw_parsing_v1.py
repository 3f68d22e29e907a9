"""The raw forms of ParseExample (V1) and ParseSingleExample, computed by ParseExampleV2's raw form
(raw_forms_parsing.py; clause ops.raw-ops).

ParseExample takes its feature keys as lists of string tensors (each read flat) and a `serialized` vector;
ParseSingleExample takes them as list(string) attrs (num_sparse counting the sparse ones) and a `serialized` scalar.
Each runs ParseExampleV2 on the keys, with no ragged keys, after its own checks (TF 2.21's texts, observed):
"Expected serialized to be a vector, got shape: []" (V1), "Expected serialized to be a scalar, got shape: [2]" and
"num_sparse (2) must match the size of sparse_keys (1) and sparse_types (1)" and "len(dense_keys) !=
len(dense_types)" (ParseSingleExample); in a tf.function their shape functions refuse a `serialized` of another
rank and ParseSingleExample's counts (shape_fns_parsing.py). A key tensor of more than one element, which aborts
TF 2.21's process (a CHECK), is InvalidArgumentError here. ParseSequenceExample (V1: keys as list(string)
attrs, the missing-assumed-empty feature lists by name) and ParseSingleSequenceExample (keys as lists of string
tensors, `serialized` a scalar: "Expected serialized to be a scalar, got shape: [1]"; its outputs without the dense
lengths) run ParseSequenceExampleV2's raw form likewise; their kernel errors keep V2's wording. Their outputs are
V2's without the ragged lists: sparse indices, values and shapes, dense values. TF registers no gradient for either
(a tape through one: LookupError).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from simdist.runtime import errors
from simdist.runtime.ops.args import dims_text as _dims

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
        raise _bad("ParseExample", "Expected serialized to be a vector, got shape: "
                   f"{_dims(serialized.shape.as_list())}", len(sk), len(dense_defaults))
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


def _attr_keys(keys: Any) -> list[str]:
    return [k.decode() if isinstance(k, bytes) else str(k) for k in (keys or [])]


def _v2_sequence(op: str, serialized: Any, debug_name: Any, cs: list[str], cd: list[str], fs: list[str],
                 fd: list[str], missing: list[str], context_dense_defaults: list, context_sparse_types: Any,
                 context_dense_shapes: Any, feature_list_sparse_types: Any, feature_list_dense_types: Any,
                 feature_list_dense_shapes: Any) -> list:
    """ParseSequenceExampleV2's raw form on the V1 keys (the missing-assumed-empty names as V2's flags per dense
    feature-list key); its outputs flat in TF's order (no ragged lists)."""
    from simdist.runtime.ops import raw_ops
    out = raw_ops.function("ParseSequenceExampleV2")(
        serialized=serialized, debug_name=debug_name, context_sparse_keys=cs, context_dense_keys=cd,
        context_ragged_keys=[], feature_list_sparse_keys=fs, feature_list_dense_keys=fd, feature_list_ragged_keys=[],
        feature_list_dense_missing_assumed_empty=[k in missing for k in fd],
        context_dense_defaults=list(context_dense_defaults), Ncontext_sparse=len(cs),
        context_sparse_types=list(context_sparse_types or []), context_ragged_value_types=[],
        context_ragged_split_types=[], context_dense_shapes=list(context_dense_shapes or []),
        Nfeature_list_sparse=len(fs), Nfeature_list_dense=len(fd),
        feature_list_dense_types=list(feature_list_dense_types or []),
        feature_list_sparse_types=list(feature_list_sparse_types or []), feature_list_ragged_value_types=[],
        feature_list_ragged_split_types=[], feature_list_dense_shapes=list(feature_list_dense_shapes or []))
    return _flatten(out)


def parse_sequence_example(serialized: Any, debug_name: Any, context_dense_defaults: list,
                           feature_list_dense_missing_assumed_empty: Any, context_sparse_keys: Any,
                           context_dense_keys: Any, feature_list_sparse_keys: Any, feature_list_dense_keys: Any,
                           Ncontext_sparse: int = 0, Ncontext_dense: int = 0,  # noqa: N803 - TF's names
                           Nfeature_list_sparse: int = 0, Nfeature_list_dense: int = 0,  # noqa: N803
                           context_sparse_types: Any = (), feature_list_dense_types: Any = (),
                           context_dense_shapes: Any = (), feature_list_sparse_types: Any = (),
                           feature_list_dense_shapes: Any = ()) -> list:
    """ParseSequenceExample (V1): the keys as list(string) attrs; V2's outputs without its ragged lists."""
    return _v2_sequence("ParseSequenceExample", serialized, debug_name, _attr_keys(context_sparse_keys),
                        _attr_keys(context_dense_keys), _attr_keys(feature_list_sparse_keys),
                        _attr_keys(feature_list_dense_keys), _attr_keys(feature_list_dense_missing_assumed_empty),
                        context_dense_defaults, context_sparse_types, context_dense_shapes, feature_list_sparse_types,
                        feature_list_dense_types, feature_list_dense_shapes)


def parse_single_sequence_example(serialized: Any, feature_list_dense_missing_assumed_empty: Any,
                                  context_sparse_keys: list, context_dense_keys: list, feature_list_sparse_keys: list,
                                  feature_list_dense_keys: list, context_dense_defaults: list, debug_name: Any,
                                  context_sparse_types: Any = (), feature_list_dense_types: Any = (),
                                  context_dense_shapes: Any = (), feature_list_sparse_types: Any = (),
                                  feature_list_dense_shapes: Any = ()) -> list:
    """ParseSingleSequenceExample: one serialized SequenceExample, its keys lists of string tensors (the
    missing-assumed-empty names a string tensor); V2's outputs without the dense lengths."""
    from simdist.runtime.ops import dispatch
    from simdist.runtime.ops.string_args import as_bytes
    if serialized.ndim != 0:
        raise errors.InvalidArgumentError(None, None, f"Expected serialized to be a scalar, got shape: "
                                          f"{_dims(serialized.shape.as_list())} [Op:ParseSingleSequenceExample]")
    names = np.asarray(dispatch.static_value(feature_list_dense_missing_assumed_empty), dtype=object).reshape(-1)
    missing = [as_bytes(x).decode("utf-8", "surrogateescape") for x in names]
    fd = _flat_keys(feature_list_dense_keys)
    flat = _v2_sequence("ParseSingleSequenceExample", serialized, debug_name, _flat_keys(context_sparse_keys),
                        _flat_keys(context_dense_keys), _flat_keys(feature_list_sparse_keys), fd, missing,
                        context_dense_defaults, context_sparse_types, context_dense_shapes, feature_list_sparse_types,
                        feature_list_dense_types, feature_list_dense_shapes)
    return flat[:len(flat) - len(fd)]   # (the dense feature lists' lengths, last: not outputs of the V1 op)
